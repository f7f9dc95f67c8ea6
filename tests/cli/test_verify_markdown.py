"""docs/contradictions.md is what `verify --markdown` prints for the knowledge base as it is: the
tables of where each ruleset's text contradicts itself and how each region is decided (issue 29)."""
from __future__ import annotations

import pytest

from referee_app.core.rules.contradictions import markdown
from referee_app.core.rules.verify import verify

from support.cli import REPO, run_cli
from support.kbcopy import installed


@pytest.mark.slow
def test_the_contradictions_page_is_up_to_date():
    k = installed()
    reports = [verify(k, rid).as_dict() for rid in k.rulesets]
    assert all(not r["contradiction_counts"]["silent"] for r in reports)
    page = (REPO / "docs" / "contradictions.md").read_text(encoding="utf-8")
    assert page == markdown(k, reports), \
        "docs/contradictions.md is behind the knowledge base: carrom-referee verify --markdown > docs/contradictions.md"


@pytest.mark.slow
def test_a_region_decided_without_a_priority_fails_verify():
    from referee_app.core.rules.priority import SILENT

    k = installed()
    rs = k.compiled("it")
    rule = next(r for r in rs.rules if r.id == "it:75/more-than-one-coin")
    kept, rule.priority = rule.priority, None
    try:
        report = verify(k, "it")
    finally:
        rule.priority = kept
    assert not report.ok
    assert [key for key in report.silent] == [("it:75/more-than-one-coin", "it:74")]
    assert report.contradictions[("it:75/more-than-one-coin", "it:74")]["ground"] == SILENT


def test_markdown_and_json_together_are_refused_naming_the_option():
    both = run_cli("verify", "--markdown", "--json", "--ruleset", "icf")
    assert both.returncode == 2 and both.stdout == "" and both.stderr.count("\n") == 1
    assert both.stderr.startswith("carrom-referee: --markdown:") and "Traceback" not in both.stderr
