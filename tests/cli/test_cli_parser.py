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


def test_a_database_driver_error_that_escapes_a_command_is_one_line_and_status_2(monkeypatch, capsys, tmp_path):
    import sqlite3
    from types import SimpleNamespace

    def broken(_args):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    parsed = cli.parser("matches").parse_args(["matches", "list"])
    parsed.func = broken
    monkeypatch.setattr(cli, "parser", lambda _command=None: SimpleNamespace(parse_args=lambda _argv: parsed))
    assert cli.main(["matches", "list"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("carrom-referee: records: ") and "disk I/O error" in err and err.count("\n") == 1


def test_the_command_line_imports_no_database_driver_until_a_command_opens_the_records():
    import subprocess
    import sys

    code = "import sys, referee_app.cli; print('sqlite3' in sys.modules, 'sqlalchemy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False"]
