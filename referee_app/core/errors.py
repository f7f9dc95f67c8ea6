"""The two kinds of refusal the core raises; the command line turns both into exit status 2."""


class BadInput(ValueError):
    """Input that the user (or a script) must correct: names the field and what is wrong."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


class KnowledgeError(ValueError):
    """A broken knowledge base: names the file, the line and the problem."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
