"""The `carrom-referee` command: with no sub-command it opens the desktop app.

Each `cmd_*.py` module of this package adds its sub-commands (`add_parsers(sub)`); they keep
heavy imports inside their handlers so that `carrom-referee rule` starts fast and never loads Qt.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge.yamlio import YamlError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line on standard error and status 2, as the contract says
        raise BadInput("arguments", message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="carrom-referee", description="Carrom referee and rulebook assistant.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            importlib.import_module(f"{__name__}.{info.name}").add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = build_parser().parse_args(argv)
        if not args.command:
            from referee_app.ui.app import run_app

            return run_app()
        return int(args.func(args) or 0)
    except BadInput as exc:
        print(f"carrom-referee: {exc}", file=sys.stderr)
        return 2
    except YamlError as exc:
        print(f"carrom-referee: {exc}", file=sys.stderr)
        return 2
    except KnowledgeError as exc:
        print(f"carrom-referee: the knowledge base is broken: {exc.problems[0]}"
              + (f" (and {len(exc.problems) - 1} more problems)" if len(exc.problems) > 1 else ""),
              file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for the user, unless asked for
        if os.environ.get("CARROM_REFEREE_DEBUG"):
            raise
        print(f"carrom-referee: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
