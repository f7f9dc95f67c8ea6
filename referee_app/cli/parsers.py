"""The command line's parser (`build_parser`), and the shape every sub-command shares: a parser
with its help, its arguments in order, its handler.

`command(sub, "show", run_show, "one form", ID, JSON)` stands for the five lines of argparse
calls each sub-command would otherwise repeat; `--help` lists the arguments in the order given.
The window imports none of this (nor argparse): it parses no argument.
"""
from __future__ import annotations

import argparse
import importlib

from referee_app.core.errors import BadInput
from .commands import MODULES


def arg(*flags: str, **options) -> tuple[tuple[str, ...], dict]:
    """One argument, as `ArgumentParser.add_argument` takes it."""
    return flags, options


ID = arg("id")
JSON = arg("--json", action="store_true")


def command(sub, name: str, func, help: str, *arguments, **parser_options):
    """Adds the sub-command `name` to `sub` (what `add_subparsers` returned), run by `func`."""
    p = sub.add_parser(name, help=help, **parser_options)
    for flags, options in arguments:
        if options.get("type") is int:   # within the store's integer range: never an OverflowError later
            options = {**options, "type": _whole_number}
        p.add_argument(*flags, **options)
    p.set_defaults(func=func)
    return p


def _whole_number(value: str) -> int:
    from referee_app.core.validation import store_int

    return store_int(value)


_whole_number.__name__ = "whole number"   # argparse names the type in its message


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line on standard error and status 2, as the contract says
        raise BadInput("arguments", message)


def command_modules() -> list[str]:
    import pkgutil

    package = importlib.import_module(__package__)
    return sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("cmd_"))


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser: every command's, or only `command`'s when the table knows it."""
    parser = _Parser(prog="carrom-referee", description="Carrom referee and rulebook assistant.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    for name in [MODULES[command]] if command in MODULES else command_modules():
        importlib.import_module(f"{__package__}.{name}").add_parsers(sub)
    return parser
