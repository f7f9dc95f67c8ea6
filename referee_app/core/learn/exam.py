"""The referee exam: a timed paper of N generated questions with a pass mark, and the paper
itself as HTML for the PDF writer (referee_app/printing/pdf.py), with its answer key and the clauses that
decide each answer, in the language asked for.

The time and the pass mark are the examiner's to set; the paper prints both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput
from referee_app.core.validation import MAX_MINUTES
from referee_app.core.printing import esc, pt
from .questions import Question, Scope, generate
from .render import render
from .wording import Words

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

LETTERS = "ABCDEFGH"


@dataclass
class Exam:
    scope: Scope
    seed: int
    questions: list[Question]
    minutes: int
    pass_mark: int          # right answers needed to pass

    def score(self, answers: dict[int, int | None]) -> dict:
        """`answers`: question number (from 0) -> the choice given (None or absent: unanswered)."""
        right = sum(1 for i, q in enumerate(self.questions) if answers.get(i) == q.answer)
        return {"right": right, "total": len(self.questions), "pass_mark": self.pass_mark,
                "passed": right >= self.pass_mark,
                "wrong": [i for i, q in enumerate(self.questions) if answers.get(i) != q.answer]}


def make_exam(knowledge: Knowledge, scope: Scope, count: int, seed: int, minutes: int | None = None,
              pass_percent: float = 75.0) -> Exam:
    if not 0 < pass_percent <= 100:
        raise BadInput("pass_mark", f"{pass_percent:g}%: give a percentage above 0 and at most 100")
    if minutes is not None and minutes < 1:
        raise BadInput("minutes", f"{minutes}: give at least one minute")
    if minutes is not None and minutes > MAX_MINUTES:
        raise BadInput("minutes", f"{minutes}: at most {MAX_MINUTES} minutes (a day)")
    questions = generate(knowledge, scope, count, seed)
    if len(questions) < count:
        raise BadInput("count", f"only {len(questions)} different questions in this selection, {count} asked",
                       "too_few_questions", {"available": len(questions), "asked": count})
    return Exam(scope, seed, questions, minutes or count, math.ceil(count * pass_percent / 100))


def exam_html(knowledge: Knowledge, exam: Exam, lang: str, diagrams: dict[str, str] | None = None) -> str:
    """The paper, then its answer key. Given a dict as `diagrams`, each answer in the key comes
    with its board diagram, before and after the ruling (the paper itself would give the answer
    away): `<img src="board-N.svg">`, the dict filled with each name's SVG for the printer to draw
    (printing/pdf.py `write_pdf(images=...)`)."""
    w = Words(lang)
    ruleset = knowledge.ruleset(exam.scope.ruleset)
    rendered = [render(knowledge, q, lang) for q in exam.questions]
    title = w._("Referee examination")
    parts = [f'<html><body style="font-size:{pt(10)}">',
             f'<h1 style="font-size:{pt(16)}">{esc(title)}</h1>',
             f"<p><b>{esc(knowledge.ruleset_name(ruleset.id, lang))}</b> ({esc(ruleset.id)}) · "
             + esc(w.ngettext("{n} question", "{n} questions", len(rendered)).format(n=len(rendered))) + " · "
             + esc(w.ngettext("{n} minute", "{n} minutes", exam.minutes).format(n=exam.minutes)) + " · "
             + esc(w._("pass mark: {right} right answers of {total}").format(right=exam.pass_mark, total=len(rendered)))
             + f" · {esc(w._('paper'))} {exam.seed}</p>",
             f"<p>{esc(w._('Name:'))} ______________________________ &nbsp; {esc(w._('Date:'))} ______________</p>",
             f"<p><i>{esc(w._('For each stroke, circle the letter of what happens. One answer is right.'))}</i></p>"]
    for n, r in enumerate(rendered, 1):
        parts.append(f'<p style="margin-top:{pt(8)}"><b>{n}.</b> {esc(" ".join(r["prompt"]))} <b>{esc(r["question"])}</b></p>')
        parts.append("<table cellspacing='2' style='margin-left:12pt'>")
        for letter, choice in zip(LETTERS, r["choices"]):
            parts.append(f"<tr><td valign='top'><b>{letter}</b></td><td>{esc(choice['text'])}</td></tr>")
        parts.append("</table>")
    parts.append(f'<h2 style="page-break-before: always; font-size:{pt(14)}">{esc(w._("Answer key"))}</h2>')
    parts.append("<table border='1' cellspacing='0' cellpadding='3' width='100%'>"
                 f"<tr><th>{esc(w._('No.'))}</th><th>{esc(w._('Answer'))}</th><th>{esc(w._('Clauses'))}</th>"
                 f"<th>{esc(w._('Why'))}</th></tr>")
    for n, r in enumerate(rendered, 1):
        refs = "<br>".join(f"{esc(c['cited'])} — {esc(c['title'])}" for c in r["clauses"])
        parts.append(f"<tr><td valign='top'>{n}</td><td valign='top'><b>{LETTERS[r['answer']]}</b></td>"
                     f"<td valign='top'>{refs}</td><td valign='top'>{esc(r['why'])}</td></tr>")
    parts.append("</table>")
    if diagrams is not None:
        from .diagram import diagram_svg

        parts.append(f'<h2 style="page-break-before: always; font-size:{pt(12)}">'
                     f'{esc(w._("The boards, before and after the ruling"))}</h2>')
        # two boards a page, each under its number: a page is never left with a number whose
        # board went over to the next
        for n, (q, r) in enumerate(zip(exam.questions, rendered), 1):
            name = f"board-{n}.svg"
            diagrams[name] = diagram_svg(q.situation, q.ruling, lang)
            brk = ' style="page-break-before: always"' if n > 1 and n % 2 == 1 else ""
            parts.append(f"<p{brk}><b>{n}.</b> {esc(w._('Answer'))} <b>{LETTERS[r['answer']]}</b><br>"
                         f'<img src="{name}" width="500"></p>')
    parts.append(f'<h2 style="font-size:{pt(12)}">{esc(w._("The deciding clauses"))}</h2>')
    cited: dict[str, dict] = {}
    for r in rendered:
        for c in r["clauses"]:
            cited.setdefault(c["id"], c)
    for c in cited.values():
        note = "" if c["official"] else f" <i>({esc(w._('translation, not official'))})</i>"
        parts.append(f"<p><b>{esc(c['cited'])}</b> {esc(c['title'])}{note}<br>"
                     f"{esc(c['text'])}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)
