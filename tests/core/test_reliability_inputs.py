"""The faults a reliability review found in input handling (issue 21, "What failed" 1-4), each
refused now with one line naming the field, exit status 2, and quickly."""
from __future__ import annotations

import contextlib
import io
import time

import pytest

from referee_app.cli import main
from support.kbcopy import installed


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def refused(*argv, field: str | None = None):
    code, _out, err = run(*argv)
    assert code == 2, err
    assert err.count("\n") == 1 and "internal error" not in err, err
    if field:
        assert f": {field}:" in err or err.startswith(f"carrom-referee: {field}:"), err
    return err


@pytest.fixture
def records(tmp_path, monkeypatch):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    return tmp_path


# 1. a list or a mapping where a name is expected
@pytest.mark.parametrize("text, field", [
    ("ruleset: [icf]\nstroke: {pocketed: {own: 1}}\n", "ruleset"),
    ("stroke: {pocketed: {own: 1}, foul: {a: 1}}\n", "stroke.foul"),
    ("before: {queen: [on_board]}\nstroke: {pocketed: {}}\n", "before.queen"),
])
def test_a_list_or_mapping_for_a_name_is_refused_in_rule(tmp_path, text, field):
    (tmp_path / "s.yaml").write_text(text)
    refused("rule", str(tmp_path / "s.yaml"), field=field)


def test_a_list_or_mapping_for_a_name_is_refused_in_replay_play_and_incidents(tmp_path, records):
    (tmp_path / "r.yaml").write_text("ruleset: {icf: 1}\nboards: [[{pocketed: {own: 1}}]]\n")
    refused("replay", str(tmp_path / "r.yaml"), field="ruleset")
    (tmp_path / "p.yaml").write_text("pocketed: {own: 1}\nfoul: {a: 1}\n")
    code, out, err = run("matches", "new")
    assert code == 0, err
    assert "foul" in refused("matches", "play", out.strip(), str(tmp_path / "p.yaml"))
    (tmp_path / "i.yaml").write_text("tournament: T\nround: 1\ntable: 2\nplayer: P\nkind: [disturbance]\n")
    refused("forms", "incident", str(tmp_path / "i.yaml"), field="kind")


# 2. billion laughs, deep nesting, a NUL byte
def test_billion_laughs_is_refused_before_it_is_expanded(tmp_path):
    lines = ["stroke:", "  pocketed:", "    own:", "      - &a0 [x,x,x,x,x,x,x,x,x,x]"]
    lines += [f"      - &a{i} [" + ",".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    (tmp_path / "b.yaml").write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    err = refused("rule", str(tmp_path / "b.yaml"))
    assert time.monotonic() - started < 5
    assert "aliases" in err and len(err) < 300


@pytest.mark.parametrize("text", ["stroke: " + "[" * 500 + "]" * 500, "stroke: " + "{a: " * 400 + "1" + "}" * 400,
                                  "stroke:\n" + "".join("  " * i + "- \n" for i in range(1, 300))])
def test_deep_nesting_is_refused(tmp_path, text):
    (tmp_path / "d.yaml").write_text(text)
    assert "deep" in refused("rule", str(tmp_path / "d.yaml"))


def test_a_nul_byte_gives_one_line(tmp_path):
    (tmp_path / "n.yaml").write_bytes(b"stroke: {pocketed: {own: \"a\x00b\"}}\n")
    assert "NUL" in refused("rule", str(tmp_path / "n.yaml"))


def test_not_a_regular_file_is_refused_rather_than_read_forever():
    assert "regular file" in refused("rule", "/dev/zero")


# 3. form fields
@pytest.mark.parametrize("field, value, words", [
    ("table", "9" * 5000, "digits"), ("board", "٣", None), ("board", "²", None),
    ("announced_at", "0001-01-01T00:00:00", "year"), ("board_ended_at", "9999-12-31T00:00:00", "year"),
    ("board_ended_at", "9999-12-31", None), ("facts", "x" * 30000, "too long"),
])
def test_form_fields_refuse_what_cannot_be_true(records, field, value, words):
    from referee_app.core.forms.store import FormsStore

    with FormsStore(installed()) as store:
        form_id = store.create("protest").id
    err = refused("forms", "set", str(form_id), field, value, field=field)
    if words:
        assert words in err
    assert value[:50] not in err or len(value) < 50, "a huge value is never echoed"


def test_a_round_named_with_a_superscript_is_a_name_not_a_crash(records):
    from referee_app.core.forms.store import FormsStore

    with FormsStore(installed()) as store:
        form_id = store.create("protest").id
    code, _out, err = run("forms", "set", str(form_id), "round", "²")
    assert code == 0, err
    with FormsStore(installed()) as store:
        assert store.get(form_id).fields["round"] == "²"


@pytest.mark.parametrize("board_ended_at", [
    "9999-12-31T23:59:00+02:00",      # a year 9999
    "2031-05-14T15:50:00+02:00",      # times five years apart are not a plausible protest
])
def test_an_implausible_board_end_is_refused_and_forms_still_list(records, tmp_path, board_ended_at):
    (tmp_path / "p.yaml").write_text(
        "tournament: Open\nround: 1\ntable: 2\nplayers: {first: A, second: B}\nreferee: R\n"
        f"announced_at: 2026-05-14T15:42:00+02:00\nboard_ended_at: {board_ended_at}\n"
        "decision: d\nclause: icf-fr:3.12.e\nfacts: f\n")
    refused("forms", "new", "protest", str(tmp_path / "p.yaml"), field="board_ended_at")
    assert run("forms", "list")[0] == 0


# 4. huge ids, undecodable arguments, an unknown ruleset
@pytest.mark.parametrize("argv", [
    ["matches", "show"], ["matches", "undo"], ["matches", "export"], ["forms", "show"], ["forms", "file"],
    ["forms", "delete"], ["forms", "export", "{id}", "--pdf", "/tmp/x.pdf"], ["inspections", "show"],
    ["inspections", "reinspect"], ["inspections", "certificate", "{id}", "--pdf", "/tmp/x.pdf"],
    ["forms", "decide", "{id}", "upheld"],
])
def test_huge_ids_are_refused(records, argv):
    huge = "99999999999999999999999"
    full = [a.replace("{id}", huge) for a in argv] + ([] if "{id}" in argv else [huge])
    refused(*full)


@pytest.mark.parametrize("argv", [["show", "icf-fr:\udcff"], ["rule", "\udcff.yaml"], ["search", "\udcff"],
                                  ["matches", "new", "--first-name", "\udcff"], ["forms", "list", "--tournament", "\udce9"]])
def test_arguments_that_are_not_utf8_are_refused(records, argv):
    refused(*argv, field="arguments")


def test_a_new_match_with_an_unknown_ruleset_is_refused(records):
    refused("matches", "new", "--ruleset", "bad", field="ruleset")
