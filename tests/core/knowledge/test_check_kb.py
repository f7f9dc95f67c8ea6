"""check-kb validates every file of the knowledge base, runs the worked examples, never crashes, and
prints each problem once (issue 21, "What failed" 11). Each case breaks a copy of the knowledge
folder and runs the command in this process on the copy's knowledge root."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support.kbcopy import run_main
from referee_app.core.knowledge.root import Knowledge

KNOWLEDGE = Path(__file__).resolve().parents[3] / "knowledge"


def check_kb(folder: Path) -> subprocess.CompletedProcess:
    return run_main(["check-kb"], Knowledge.load(folder))


@pytest.fixture
def kb_copy(tmp_path):
    folder = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE, folder)
    return folder


def problems_of(result) -> list[str]:
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stdout.splitlines()
             if line.strip() and not re.match(r"^\S+\s+\d+ clauses$", line) and " problems, " not in line
             and not line.startswith("rule, penalty and scoring clauses")]
    assert len(lines) == len(set(lines)), f"a problem printed twice: {lines}"
    return lines


def test_the_knowledge_base_as_shipped_has_no_problem(kb_copy):
    result = check_kb(kb_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert problems_of(result) == []


def test_a_broken_forms_file_is_reported(kb_copy):
    path = kb_copy / "forms.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("default_ruleset:", "default_ruleset: nope\nwas:", 1),
                    encoding="utf-8")
    result = check_kb(kb_copy)
    assert result.returncode == 1
    assert any(p.startswith("forms.yaml") and "nope" in p for p in problems_of(result)), result.stdout


def test_a_forms_file_that_is_not_yaml_is_reported(kb_copy):
    (kb_copy / "forms.yaml").write_text("labels: [\n", encoding="utf-8")
    result = check_kb(kb_copy)
    assert result.returncode == 1
    assert any(p.startswith("forms.yaml") for p in problems_of(result)), result.stdout


def test_a_ruleset_without_an_id_is_reported_not_a_crash(kb_copy):
    (kb_copy / "rulesets" / "zz-extra.yaml").write_text("name: {en: Extra}\nsources: [icf-fr]\n", encoding="utf-8")
    result = check_kb(kb_copy)
    assert result.returncode == 1
    assert any("zz-extra.yaml" in p and "'id'" in p for p in problems_of(result)), result.stdout


def test_an_empty_sources_file_is_reported_not_a_crash(kb_copy):
    (kb_copy / "sources.yaml").write_text("", encoding="utf-8")
    result = check_kb(kb_copy)
    assert result.returncode in (1, 2)
    assert "internal error" not in result.stderr and "sources.yaml" in result.stderr + result.stdout, result.stderr
    assert len(result.stderr.splitlines()) <= 1


def test_a_worked_example_that_contradicts_the_rules_is_reported(kb_copy):
    path = kb_copy / "icf-fr" / "03.11-penalites.yaml"
    text = path.read_text(encoding="utf-8")
    wrong = "expect: {turn: passes, returned: {own: 1}, after: {own_on_board: 6,"
    assert wrong in text
    path.write_text(text.replace(wrong, wrong.replace("turn: passes", "turn: continues"), 1), encoding="utf-8")
    result = check_kb(kb_copy)
    assert result.returncode == 1
    found = [p for p in problems_of(result) if "does not hold" in p]
    assert len(found) == 1 and "turn" in found[0] and "03.11-penalites.yaml" in found[0], result.stdout
