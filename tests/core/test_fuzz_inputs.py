"""Every file-reading command and every form field, fed what a careless or hostile user could give.

Whatever comes in, the answer is exit status 0 or 2 with at most one line on standard error, never
an "internal error" and never a traceback. The commands run in-process (`referee_app.cli.main`)
so that thousands of inputs take seconds; FUZZ_EXAMPLES scales the run (the CI default totals
more than 5,000 inputs).
"""
from __future__ import annotations

import contextlib
import copy
import functools
import io
import json
import os
import shutil
import tempfile
from pathlib import Path
from datetime import datetime

import pytest
import yaml

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee_app.cli import main  # noqa: E402
from support.documents import paths, replaced  # noqa: E402
from support.kbcopy import installed  # noqa: E402

SCALE = float(os.environ.get("FUZZ_EXAMPLES", "1"))


def budget(n: int):
    return settings(max_examples=max(1, int(n * SCALE)), deadline=2000, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_handled(code: int, err: str, what) -> None:
    assert code in (0, 2), (code, err, what)
    assert "internal error" not in err, (err, what)
    assert "Traceback" not in err, (err, what)
    assert err.count("\n") <= 1, (err, what)
    assert len(err) < 600, (err[:200], what)


# -- what a hostile value looks like ---------------------------------------------------------------

HOSTILE_TEXT = st.sampled_from([
    "", " ", "²", "٣", "1e999", "-1", "0", "99999999999999999999999", "9" * 5000, "nan", "inf", "\u202e",
    "\u2066x\u2069", "é" * 300, "a\nb", "\t", "null", "~", "[]", "{}", "yes", "no", "0x1f", "1_000",
    "9999-12-31", "0001-01-01T00:00:00", "2026-02-30T10:00:00", "2026-05-14T15:42:00+99:00", "24:00",
    "15:42", "icf", "none", "improper_stroke", "<b>x</b>", "' OR 1=1 --", "%s%n", "../../etc/passwd",
])
HOSTILE = st.recursive(
    st.one_of(
        st.none(), st.booleans(),
        st.integers(min_value=-(10 ** 30), max_value=10 ** 30),
        st.floats(allow_nan=True, allow_infinity=True),
        HOSTILE_TEXT,
        st.text(max_size=30),
        st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(HOSTILE_TEXT, st.text(max_size=8)), inner, max_size=4)),
    max_leaves=12,
)


@st.composite
def mutated(draw, seeds):
    """A valid document with one to three of its values (or keys) replaced by hostile ones."""
    doc = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(list(paths(doc))))
        if draw(st.booleans()) and where and isinstance(where[-1], str):
            # an unknown or hostile key beside the known ones
            parent = copy.deepcopy(doc)
            target = parent
            for key in where[:-1]:
                target = target[key]
            if isinstance(target, dict):
                target[draw(HOSTILE_TEXT)] = draw(HOSTILE)
            doc = parent
        else:
            doc = replaced(doc, where, draw(HOSTILE))
    return doc


def text_of(doc, style: str) -> str:
    if style == "json":
        return json.dumps(doc, default=str, allow_nan=True)
    return yaml.safe_dump(doc, allow_unicode=True)


RAW = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: b.decode("latin-1")),
    st.sampled_from([
        "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
        "f: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
        "x: " + "[" * 500 + "]" * 500, "x: " + "{a: " * 300 + "1" + "}" * 300, "&a [*a]", "!!python/object:os.system ls",
        "stroke: !!binary aGVsbG8=", "? [a]\n: b\n", "--- a\n--- b\n", "\ufeffstroke: {pocketed: {}}", "%YAML 9.9\n---\na",
    ]),
)


@pytest.fixture
def records(tmp_path, monkeypatch):
    # in memory where the machine has a tmpfs: thousands of committed writes, each fsynced
    folder = tmp_path
    if os.access("/dev/shm", os.W_OK):
        folder = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="carrom-fuzz-"))
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(folder / "records.sqlite3"))
    yield folder
    if folder != tmp_path:
        shutil.rmtree(folder, ignore_errors=True)


def check_file_command(tmp_path, argv_head, doc_or_text, style="yaml"):
    path = tmp_path / "input.yaml"
    text = doc_or_text if isinstance(doc_or_text, str) else text_of(doc_or_text, style)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    code, _out, err = run(*argv_head, str(path))
    assert_handled(code, err, text[:300])
    return code


# -- the seeds: one valid document per command -----------------------------------------------------

SITUATIONS = [
    {"ruleset": "icf", "before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "on_board"},
     "stroke": {"pocketed": {"own": 2}}},
    {"ruleset": "it", "before": {"own_on_board": 4, "opponent_on_board": 7, "dues": 0, "break": False,
                                 "score": {"striker": 3, "opponent": 5}},
     "stroke": {"touched_coin": True, "pocketed": {"own": 1, "striker": True}, "off_board": {"opponent": 1},
                "foul": "improper_stroke"}},
    {"ruleset": "fr-simplified", "before": {"colours": "open", "break": True},
     "stroke": {"pocketed": {"light": 1, "dark": 0, "queen": False}}},
]
STROKES = [{"pocketed": {"own": 1}}, {"touched_coin": True, "pocketed": {"queen": True}, "foul": None},
           [{"pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 1}, "off_board": {"striker": True}}],
           {"tie_breaker": {"first": [True, False], "second": [False, False]}}]
SHEETS = [{"ruleset": "icf", "boards": [[{"pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 7}}]]},
          {"ruleset": "aicf-2009", "doubles": True, "boards": [[{"pocketed": {"own": 1}}]],
           "tie_breaker": {"first": [True], "second": [False]}}]
INSPECTIONS = [
    {"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"}, "weight": {"value": 14.2, "unit": "g"},
                                         "metal_visible": False}},
    {"item": "chair", "measurements": {"seat_height": {"value": 42, "unit": "cm"}, "armrests": False}},
    {"item": "striker", "inspector": "A. Lemaire", "label": "striker of A. Rossi", "tournament": "Open",
     "measurements": {"diameter": {"value": 4.1, "unit": "cm"}, "weight": {"value": 15, "unit": "g"}}},
]
PROTESTS = [{"tournament": "Open de Paris", "round": 3, "table": 7, "players": {"first": "A. Rossi", "second": "B. Dubois"},
             "protester": "first", "referee": "C. Martin", "board": 2, "score": {"first": 12, "second": 5},
             "announced_at": "2026-05-14T15:42:00+02:00", "board_ended_at": "2026-05-14T15:50:00+02:00",
             "decision": "queen returned", "clause": "icf-fr:3.12.e", "facts": "the queen", "ruleset": "icf",
             "lang": "fr"}]
DISQUALIFICATIONS = [{"tournament": "Open de Paris", "round": "final", "table": 1, "player": "A. Rossi",
                      "referee": "C. Martin", "at": "2026-05-14T16:00:00+02:00", "ground": "icf-fr:1.4",
                      "times": 3, "facts": "argued", "ruleset": "icf"}]
INCIDENTS = [{"tournament": "Open", "round": 2, "table": 4, "player": "A. Rossi", "kind": "disturbance",
              "at": "2026-05-14T15:00:00+02:00", "referee": "C. Martin", "note": "talked"}]


# -- the tests -------------------------------------------------------------------------------------

@given(text=RAW, cmd=st.sampled_from([["rule"], ["replay"], ["inspect"], ["forms", "new", "protest"],
                                       ["forms", "incident"], ["matches", "play", "1"]]))
@budget(600)
def test_raw_text_never_crashes(tmp_path_factory, records, text, cmd):
    check_file_command(tmp_path_factory.mktemp("raw"), cmd, text)


@given(doc=mutated(STROKES))
@budget(500)
def test_matches_play_never_crashes(tmp_path_factory, records, doc):
    code, out, err = run("matches", "new", "--ruleset", "icf")
    assert code == 0, err
    check_file_command(tmp_path_factory.mktemp("play"), ["matches", "play", out.strip(), "--json"], doc)


@given(doc=mutated(INSPECTIONS), save=st.booleans())
@budget(600)
def test_inspect_never_crashes(tmp_path_factory, records, doc, save):
    argv = ["inspect", "--json"] + (["--save", "--inspector", "I", "--label", "L"] if save else [])
    check_file_command(tmp_path_factory.mktemp("inspect"), argv, doc)


@pytest.mark.parametrize("kind,seeds", [("protest", PROTESTS), ("disqualification", DISQUALIFICATIONS)])
@given(data=st.data(), draft=st.booleans())
@budget(600)
def test_forms_new_never_crashes(tmp_path_factory, records, kind, seeds, data, draft):
    doc = data.draw(mutated(seeds), label="doc")
    check_file_command(tmp_path_factory.mktemp(kind), ["forms", "new", kind] + (["--draft"] if draft else []), doc)
    assert_reads_still_work()


@given(doc=mutated(INCIDENTS))
@budget(300)
def test_forms_incident_never_crashes(tmp_path_factory, records, doc):
    check_file_command(tmp_path_factory.mktemp("incident"), ["forms", "incident"], doc)
    code, _out, err = run("forms", "incidents", "--json")
    assert_handled(code, err, doc)
    assert code == 0, err


FORM_FIELDS = sorted({"tournament", "round", "table", "match", "players", "protester", "referee", "board", "score",
                      "announced_at", "board_ended_at", "decision", "clause", "facts", "ruleset", "lang", "filed_at",
                      "director", "player", "at", "ground", "times"})


@given(kind=st.sampled_from(["protest", "disqualification"]), field=st.sampled_from(FORM_FIELDS + ["nope", ""]),
       value=st.one_of(HOSTILE_TEXT, st.text(max_size=40), HOSTILE.map(lambda v: yaml.safe_dump(v).strip())))
@budget(900)
def test_every_form_field_never_crashes(records, kind, field, value):
    form_id = _draft(kind)
    code, _out, err = run("forms", "set", form_id, field, value)
    assert_handled(code, err, (kind, field, value))
    assert_reads_still_work(form_id)


def _draft(kind: str) -> str:
    from referee_app.core.forms.store import FormsStore

    with FormsStore(installed()) as store:
        return str(store.create(kind).id)


def assert_reads_still_work(form_id: str | None = None):
    """Whatever was refused or saved, the form still shows and every form still lists (the whole
    list every few forms: it grows with the run)."""
    from referee_app.core.forms.store import FormsStore

    with FormsStore(installed()) as store:
        last = store.scalar("SELECT MAX(id) FROM forms")
        if last and (form_id is None or last % 25 == 0):
            for form in store.list():
                json.dumps(form.summary())
    shown = form_id or (str(last) if last else None)
    if shown:
        code, _out, err = run("forms", "show", shown, "--json")
        assert code == 0, err


ID_VALUES = st.one_of(st.sampled_from(["99999999999999999999999", "-1", "0", "1", "²", "1e3", "0x10", " 1", "",
                                       "9223372036854775808", "9223372036854775807", "١"]),
                      st.text(max_size=12), st.integers(min_value=-(10 ** 25), max_value=10 ** 25).map(str))
ID_COMMANDS = [["matches", "show"], ["matches", "undo"], ["matches", "export"], ["forms", "show"], ["forms", "file"],
               ["forms", "delete"], ["forms", "decide", "{id}", "upheld"], ["inspections", "show"],
               ["inspections", "reinspect"], ["matches", "play", "{id}", "{file}"]]


@given(cmd=st.sampled_from(ID_COMMANDS), value=ID_VALUES)
@budget(500)
def test_record_ids_never_crash(tmp_path_factory, records, cmd, value):
    folder = tmp_path_factory.mktemp("ids")
    (folder / "s.yaml").write_text("pocketed: {own: 1}\n")
    argv = [a.replace("{id}", value).replace("{file}", str(folder / "s.yaml")) for a in cmd]
    if "{id}" not in cmd:
        argv.append(value)
    code, _out, err = run(*argv)
    assert_handled(code, err, argv)


# -- every command reading a document from a file --------------------------------------------------

@functools.lru_cache(maxsize=1)
def tournament_seeds() -> list:
    seeds = []
    for players, rounds in ((6, 2), (9, 3)):
        code, out, err = run("tournament", "generate", "--players", str(players), "--seed", "21", "--rounds",
                             str(rounds), "--json")
        assert code == 0, err
        seeds.append(json.loads(out))
    return seeds


# Each command: its valid seeds (a function: the tournaments are generated by the command line when
# the test runs, not at import), the ways it is called ({folder} is the input's folder), the styles
# the document is written in, and how many inputs.
FILE_COMMANDS = {
    "rule": (lambda: SITUATIONS, [["rule", "--json"]], ["yaml", "json"], 900),
    "replay": (lambda: SHEETS, [["replay", "--json"]], ["yaml"], 500),
    "tournament": (tournament_seeds, [["tournament", action] for action in ("standings", "check", "pair", "new")],
                   ["yaml"], 400),
    "diagram": (lambda: SITUATIONS, [["quiz", "diagram", "--svg", "{folder}/d.svg"]], ["yaml"], 200),
}


@pytest.mark.parametrize("name", FILE_COMMANDS)
def test_file_commands_never_crash(tmp_path_factory, records, name):
    seeds, commands, styles, examples = FILE_COMMANDS[name]

    @given(doc=mutated(seeds()), argv=st.sampled_from(commands), style=st.sampled_from(styles))
    @budget(examples)
    def never_crashes(doc, argv, style):
        folder = tmp_path_factory.mktemp(name)
        check_file_command(folder, [a.replace("{folder}", str(folder)) for a in argv], doc, style)

    never_crashes()
