"""`replay`: whole boards as a referee's score sheet records them."""
from __future__ import annotations

from .io import knowledge_of, print_json, read_document


def add_parsers(sub) -> None:
    p = sub.add_parser("replay", help="play whole boards stroke by stroke and report where the game stands")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_replay)


def run_replay(args) -> int:
    from referee_app.core.play.game import replay

    report = replay(knowledge_of(args), read_document(args.file))
    if args.json:
        print_json(report)
        return 0
    for i, b in enumerate(report["boards"], 1):
        result = f"{b['winner']} wins {b['points']['first']}-{b['points']['second']}" if b["winner"] else "not finished"
        print(f"board {i}: {b['breaker']} breaks, {b['strokes']} strokes, {result}")
    print(f"score: first {report['score']['first']}, second {report['score']['second']}")
    if report["game"]["over"]:
        print(f"game over: {report['game']['winner']} wins")
    else:
        n = report["next"]
        print(f"next: board {n['board']}, {n['turn']} to play; {n['board_state']}")
    return 0
