"""The command line builds only the parser of the command it runs; the table it uses must name,
for every command, the module that defines it."""
from __future__ import annotations

import importlib

import pytest

from referee_app import cli


def commands_of(module: str) -> set[str]:
    parser = cli._Parser(prog="carrom-referee")
    sub = parser.add_subparsers(dest="command")
    importlib.import_module(f"referee_app.cli.{module}").add_parsers(sub)
    return set(sub.choices)


def test_every_command_is_in_the_table_under_its_own_module():
    defined = {command: module for module in cli.command_modules() for command in commands_of(module)}
    assert defined == cli.MODULES


@pytest.mark.parametrize("command", sorted(cli.MODULES))
def test_a_command_alone_parses_as_in_the_whole_parser(command):
    alone = cli.build_parser(command)._subparsers._group_actions[0].choices[command]
    whole = cli.build_parser()._subparsers._group_actions[0].choices[command]
    assert alone.format_help() == whole.format_help()
