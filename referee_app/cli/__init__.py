"""The `carrom-referee` command: with no sub-command it opens the desktop app.

Each `cmd_*.py` module of this package adds its sub-commands (`add_parsers(sub)`); they keep
heavy imports inside their handlers so that `carrom-referee rule` starts fast and never loads Qt.
"""
from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

from referee_app.core.errors import BadInput, KnowledgeError
from referee_app.core.knowledge.yamlio import YamlError
from referee_app.core.validation import arguments, one_line
from .commands import MODULES

if TYPE_CHECKING:
    import argparse   # the window parses no argument: argparse is imported by .parsers, when used


_parsers: dict[str | None, argparse.ArgumentParser] = {}


def parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of `command` (all of them when the table does not know it), built once per
    process (scripts and tests call `main` many times)."""
    from .parsers import build_parser   # argparse: not imported by the window, which parses no argument

    key = command if command in MODULES else None
    if key not in _parsers:
        _parsers[key] = build_parser(key)
    return _parsers[key]


def __getattr__(name):
    if name in ("build_parser", "command_modules", "_Parser"):
        from . import parsers

        return getattr(parsers, name)
    raise AttributeError(name)


def _driver_errors() -> tuple:
    """The database drivers' errors, looked up only once an exception is being handled: neither
    sqlite3 nor SQLAlchemy is imported by a command that never opens the records (nor by the
    window before its first paint), and a driver never imported raised nothing."""
    found = [sys.modules[name].Error if name == "sqlite3" else sys.modules[name].SQLAlchemyError
             for name in ("sqlite3", "sqlalchemy.exc") if name in sys.modules]
    return tuple(found)


# A command run as its own process is short: nearly every container it makes (the knowledge base,
# the index, the parser, the modules) lives until it exits. The collector, run every 700 new
# containers, walked them again and again for nothing, and Python's last collection at exit walked
# them all once more: 15-18 ms of a `rule` or `search` of 76-90 (benchmarks/bench_startup.py). Such
# a command runs it every 50,000 containers instead (a few MB at most of cyclic garbage wait for
# it), and leaves what it made out of the last collection (gc.freeze): what must be closed at exit
# says so itself (a records database: core/storage/database.py, _release). A caller running
# commands in its own process (a test, a script) keeps its collector as it was; the window keeps
# its own policy (ui/app.py).
COMMAND_GC_THRESHOLD = 50_000


def main(argv: list[str] | None = None, knowledge=None) -> int:
    """Runs one command; `knowledge`: the knowledge root to run it with (a test's edited copy),
    else the installed one, loaded by the command that needs it (cli/io.knowledge_of)."""
    own_process = argv is None   # the console script, `python -m referee_app`
    argv = sys.argv[1:] if argv is None else argv
    if not argv or not own_process:
        return _run(argv, knowledge)
    gc.set_threshold(COMMAND_GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        return _run(argv, knowledge)
    finally:
        gc.freeze()


def _run(argv: list[str], knowledge) -> int:
    try:
        given = arguments(argv)
        # no arguments: the window, without building every command's parser first
        args = parser(given[0]).parse_args(given) if given else None
        if args is None or not args.command:
            from referee_app.ui.app import run_app

            return run_app()
        args.knowledge = knowledge
        return int(args.func(args) or 0)
    except (BadInput, YamlError) as exc:
        print(f"carrom-referee: {one_line(exc)}", file=sys.stderr)
        return 2
    except KnowledgeError as exc:
        print(f"carrom-referee: the knowledge base is broken: {one_line(exc.problems[0])}"
              + (f" (and {len(exc.problems) - 1} more problems)" if len(exc.problems) > 1 else ""),
              file=sys.stderr)
        return 1
    except _driver_errors() as exc:  # a database driver's own error that escaped the storage layer
        from referee_app.core.storage.database import database_url, shown

        print(f"carrom-referee: records: {shown(database_url())}: {one_line(exc)}; nothing was changed by this "
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
