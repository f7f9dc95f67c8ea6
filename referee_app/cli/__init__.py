"""The `carrom-referee` command: with no sub-command it opens the desktop app.

Each `cmd_*.py` module of this package adds its sub-commands (`add_parsers(sub)`); they keep
heavy imports inside their handlers so that `carrom-referee rule` starts fast and never loads Qt.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sqlite3
import sys

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.validation import arguments, one_line
from referee_app.core.knowledge.yamlio import YamlError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line on standard error and status 2, as the contract says
        raise BadInput("arguments", message)


_parser: argparse.ArgumentParser | None = None


def parser() -> argparse.ArgumentParser:
    """The parser, built once per process (scripts and tests call `main` many times)."""
    global _parser
    if _parser is None:
        _parser = build_parser()
    return _parser


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
        args = parser().parse_args(arguments(argv))
        if not args.command:
            from referee_app.ui.app import run_app

            return run_app()
        return int(args.func(args) or 0)
    except (BadInput, YamlError) as exc:
        print(f"carrom-referee: {one_line(exc)}", file=sys.stderr)
        return 2
    except KnowledgeError as exc:
        print(f"carrom-referee: the knowledge base is broken: {one_line(exc.problems[0])}"
              + (f" (and {len(exc.problems) - 1} more problems)" if len(exc.problems) > 1 else ""),
              file=sys.stderr)
        return 1
    except sqlite3.Error as exc:  # the records database failed under a command (a full disk, a lock held)
        from referee_app.core.storage.db import default_path

        print(f"carrom-referee: records: {default_path()}: {one_line(exc)}; nothing was changed by this "
              "command (`carrom-referee records check` says more)", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # never a traceback for the user, unless asked for
        if os.environ.get("CARROM_REFEREE_DEBUG"):
            raise
        print(f"carrom-referee: internal error: {type(exc).__name__}: {one_line(exc)}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
