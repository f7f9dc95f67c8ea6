"""`quiz`: questions generated from the engine, the referee exam as PDF, board diagrams.

    quiz [--ruleset R] [--count N] [--seed S] [--chapter C | --clause ID] [--differ] [--endings] [--lang L] [--json]
    quiz exam --pdf OUT [--lang L] [--minutes M] [--pass-mark P] (and the selection above)
    quiz diagram FILE --svg OUT | --png OUT [--ruleset R] [--lang L]
    quiz chapters [--ruleset R] [--lang L] [--json]
    quiz progress --learner NAME [--ruleset R] [--json]
"""
from __future__ import annotations

import argparse

from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .io import knowledge_of, print_json, read_document


def _selection(p, suppress: bool) -> None:
    """The options choosing the questions, on `quiz` and on each of its sub-commands (there with no
    default of their own, so `quiz --ruleset it exam` and `quiz exam --ruleset it` mean the same)."""
    d = (lambda v: argparse.SUPPRESS) if suppress else (lambda v: v)
    p.add_argument("--ruleset", default=d(None), help="icf, it, aicf-2009, fr-simplified (default: the knowledge base's "
                   "default_ruleset, or a file's own)")
    p.add_argument("--count", type=int, default=d(10), help="how many questions (default: 10)")
    p.add_argument("--seed", type=int, default=d(0), help="the same seed gives the same questions")
    p.add_argument("--chapter", default=d(None), help="a chapter (see `quiz chapters`) or a clause id prefix")
    p.add_argument("--clause", default=d(None), help="only strokes this clause decides")
    p.add_argument("--differ", action="store_true", default=d(False), help="only strokes the rulesets rule differently")
    p.add_argument("--endings", action="store_true", default=d(False), help="only strokes that end the board")
    p.add_argument("--lang", choices=LANGUAGES, default=d("en"), help="the learner's language (default: en)")
    p.add_argument("--json", action="store_true", default=d(False))


def add_parsers(sub) -> None:
    p = sub.add_parser("quiz", help="questions generated from the rules, with their answer key and clauses")
    _selection(p, suppress=False)
    p.set_defaults(func=run_quiz)
    actions = p.add_subparsers(dest="quiz_action", metavar="ACTION", parser_class=type(p))

    e = actions.add_parser("exam", help="a referee exam paper as PDF, with its answer key")
    _selection(e, suppress=True)
    e.add_argument("--pdf", required=True, help="where to write the paper")
    e.add_argument("--minutes", type=int, help="time allowed (default: one minute a question)")
    e.add_argument("--pass-mark", type=float, default=75.0, help="percentage of right answers to pass (default: 75)")
    e.set_defaults(func=run_exam)

    d = actions.add_parser("diagram", help="the board before and after a stroke, as SVG")
    d.add_argument("file", help="a situation file (- for standard input)")
    _selection(d, suppress=True)
    d.add_argument("--svg", help="where to write the diagram as SVG")
    d.add_argument("--png", help="where to write it as PNG (drawn by Qt, as the window shows it)")
    d.set_defaults(func=run_diagram)

    c = actions.add_parser("chapters", help="the chapters a quiz can be drawn from")
    _selection(c, suppress=True)
    c.set_defaults(func=run_chapters)

    g = actions.add_parser("progress", help="what a learner masters and what is due (the records' FSRS cards)")
    g.add_argument("--learner", required=True)
    _selection(g, suppress=True)
    g.set_defaults(func=run_progress)


def _scope(args):
    from referee_app.core.learn.questions import Scope
    from referee_app.core.validation import MAX_QUESTIONS

    # a thousand questions already take seconds: a typed 99999999 is a slip, never a long run
    if args.count > MAX_QUESTIONS:
        raise BadInput("count", f"{args.count}: at most {MAX_QUESTIONS} questions at a time")

    return Scope(args.ruleset, chapter=args.chapter, clause=args.clause, differ=args.differ, endings=args.endings)


def run_quiz(args) -> int:
    from referee_app.core.learn.questions import generate
    from referee_app.core.learn.render import render

    knowledge = knowledge_of(args)
    scope = _scope(args)
    questions = [render(knowledge, q, args.lang) for q in generate(knowledge, scope, args.count, args.seed)]
    if args.json:
        print_json({"ruleset": scope.ruleset, "seed": args.seed, "lang": args.lang, "questions": questions})
        return 0
    for n, q in enumerate(questions, 1):
        print(f"{n}. {' '.join(q['prompt'])} {q['question']}")
        for i, choice in enumerate(q["choices"], 1):
            print(f"   {i}) {choice['text']}")
        print()
    print("key: " + ", ".join(f"{n}:{q['answer'] + 1} ({q['deciding_clause']})" for n, q in enumerate(questions, 1)))
    return 0


def run_exam(args) -> int:
    from referee_app.core.learn.exam import exam_html, make_exam

    knowledge = knowledge_of(args)
    exam = make_exam(knowledge, _scope(args), args.count, args.seed, args.minutes, args.pass_mark)
    diagrams: dict[str, str] = {}   # each answer's board, drawn by the printer
    html = exam_html(knowledge, exam, args.lang, diagrams)
    from referee_app.printing.pdf import write_pdf  # Qt only now, to print

    path = write_pdf(html, args.pdf, title=f"carrom-referee exam {exam.scope.ruleset} {exam.seed}", images=diagrams)
    if args.json:
        print_json({"pdf": str(path), "ruleset": exam.scope.ruleset, "seed": exam.seed, "lang": args.lang,
                    "questions": len(exam.questions), "minutes": exam.minutes, "pass_mark": exam.pass_mark,
                    "answers": [q.answer for q in exam.questions],
                    "clauses": [q.deciding_clause for q in exam.questions]})
    else:
        print(f"{path}: {len(exam.questions)} questions, {exam.minutes} minutes, pass mark {exam.pass_mark}")
    return 0


def run_diagram(args) -> int:
    from pathlib import Path

    from referee_app.core.learn.diagram import diagram_svg, piece_counts
    from referee_app.core.rules.ruling import rule, ruleset_of

    if not args.svg and not args.png:
        raise BadInput("--svg", "give --svg OUT or --png OUT (or both)")
    knowledge = knowledge_of(args)
    doc = read_document(args.file)
    ruleset = ruleset_of(knowledge, doc, args.ruleset)
    from .cmd_rulings import _decision_errors

    ruling = _decision_errors(lambda: rule(knowledge, doc, ruleset))
    svg = diagram_svg(doc, ruling, args.lang)
    written = {}
    for option, path in (("--svg", args.svg), ("--png", args.png)):
        if not path:
            continue
        out = Path(path)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            if option == "--svg":
                out.write_text(svg, encoding="utf-8")
            else:
                from referee_app.printing.pdf import ensure_gui_app  # Qt only now, to draw
                from referee_app.printing.image import svg_to_png

                ensure_gui_app()
                svg_to_png(svg, out, scale=2)
        except OSError as exc:
            raise BadInput(option, f"cannot write {out}: {exc.strerror or exc}") from None
        written[option.lstrip("-")] = str(out)
    if args.json:
        print_json({**written, "ruleset": ruleset, "pieces": piece_counts(svg)})
    else:
        print("\n".join(written.values()))
    return 0


def run_progress(args) -> int:
    from referee_app.core.learn.store import ProgressStore

    ruleset = knowledge_of(args).ruleset(args.ruleset, "--ruleset").id if args.ruleset else None
    with ProgressStore() as store:
        summary = store.summary(args.learner, ruleset)
        due = store.due(args.learner, ruleset)
    summary["due_questions"] = [{"id": d["id"], "ruleset": d["ruleset"], "due": d["due"]} for d in due]
    if args.json:
        print_json(summary)
        return 0
    print(f"{summary['learner']}: {summary['seen']} questions seen, {summary['mastered']} mastered, "
          f"{summary['due']} due; {summary['correct']} of {summary['answers']} answers right")
    for c in summary["clauses"]:
        print(f"  {c['clause']:28} seen {c['seen']:3}  mastered {c['mastered']:3}  due {c['due']:3}")
    return 0


def run_chapters(args) -> int:
    from referee_app.core.learn.questions import chapters

    knowledge = knowledge_of(args)
    found = chapters(knowledge, args.ruleset or knowledge.default_ruleset, args.lang)
    if args.json:
        print_json(found)
    else:
        for c in found:
            print(f"{c['id']:34} {c['title']}")
    return 0
