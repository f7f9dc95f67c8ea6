"""The two kinds of refusal the core raises; the command line turns both into exit status 2."""


class BadInput(ValueError):
    """Input that the user (or a script) must correct: names the field and what is wrong.

    `problem` is English, for the command line. `code` names the refusal and `values` what it is
    about (numbers, names, clause ids), so that the window says it in its own language from them
    rather than from the English; neither changes the text."""

    def __init__(self, field: str, problem: str, code: str | None = None, values: dict | None = None):
        self.field = field
        self.problem = problem
        self.code = code
        self.values = dict(values or {})
        super().__init__(f"{field}: {problem}" if field else problem)


class KnowledgeError(ValueError):
    """A broken knowledge base: names the file, the line and the problem."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
