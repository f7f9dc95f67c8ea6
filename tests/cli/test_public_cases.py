"""Every public worked case of ../shared/cases, checked exactly as ../shared/tools/run_cases.py does."""
from __future__ import annotations

import importlib.util

import pytest
import yaml

from support.cli import SHARED, cli_command, shared_path


def _runner():
    spec = importlib.util.spec_from_file_location("run_cases", SHARED / "tools" / "run_cases.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cmd = cli_command()
    module.CLI = cmd[0] if len(cmd) == 1 else None
    return module


def _cases(kind):
    if not (SHARED / "cases").is_dir():
        return [pytest.param(None, id=f"{kind}-shared-absent")]
    out = []
    # the cases of the top folder, then those of its subfolders (house/: fr-house and carom-bi)
    files = sorted((SHARED / "cases").glob(f"{kind}*.yaml")) + sorted((SHARED / "cases").glob(f"*/{kind}*.yaml"))
    for f in files:
        folder = "" if f.parent.name == "cases" else f"{f.parent.name}/"
        for i, case in enumerate(yaml.safe_load(f.read_text()) or []):
            out.append(pytest.param(case, id=f"{folder}{f.stem}-{i + 1}"))
    return out


@pytest.mark.parametrize("kind", ["rule", "replay", "search", "inspect"])
def test_case_files_are_there(kind):
    path = shared_path() / "cases" / f"{kind}.yaml"
    assert path.is_file(), f"{path} is missing"


def _check(kind, case):
    shared_path()
    if case is None:
        pytest.fail("../shared/cases vanished during the run")
    runner = _runner()
    assert runner.CLI, "the carrom-referee command is not installed in this environment"
    problems = runner.CHECKS[kind](case)
    assert not problems, f"{case.get('name') or case.get('query')}: " + "; ".join(problems)


@pytest.mark.parametrize("case", _cases("rule"))
def test_rule_case(case):
    _check("rule", case)


@pytest.mark.parametrize("case", _cases("replay"))
def test_replay_case(case):
    _check("replay", case)


@pytest.mark.parametrize("case", _cases("search"))
def test_search_case(case, user_dirs, monkeypatch):
    _check("search", case)


@pytest.mark.parametrize("case", _cases("inspect"))
def test_inspect_case(case):
    _check("inspect", case)
