"""The shape every sub-command shares: a parser with its help, its arguments in order, its handler.

`command(sub, "show", run_show, "one form", ID, JSON)` stands for the five lines of argparse
calls each sub-command would otherwise repeat; `--help` lists the arguments in the order given.
"""
from __future__ import annotations


def arg(*flags: str, **options) -> tuple[tuple[str, ...], dict]:
    """One argument, as `ArgumentParser.add_argument` takes it."""
    return flags, options


ID = arg("id")
JSON = arg("--json", action="store_true")


def command(sub, name: str, func, help: str, *arguments, **parser_options):
    """Adds the sub-command `name` to `sub` (what `add_subparsers` returned), run by `func`."""
    p = sub.add_parser(name, help=help, **parser_options)
    for flags, options in arguments:
        p.add_argument(*flags, **options)
    p.set_defaults(func=func)
    return p
