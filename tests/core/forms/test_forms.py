"""Protest and disqualification forms: the data of knowledge/forms.yaml, the store, the command line, the PDF."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import unicodedata
from datetime import datetime, timedelta, timezone

import pytest
import yaml

from support.cli import run_cli
from referee_app.core.errors import BadInput
from referee_app.core.storage import db
from referee_app.core.forms.fields import FIELDS
from support.kbcopy import installed

CET = timezone(timedelta(hours=2))

PROTEST = {  # the contract's example
    "tournament": "Open de Cannes", "round": 3, "table": 7,
    "players": {"first": "A. Rossi", "second": "B. Dubois"}, "referee": "C. Martin", "ruleset": "icf",
    "board": 4, "announced_at": "2026-05-14T15:42:00+02:00", "board_ended_at": "2026-05-14T15:49:00+02:00",
    "decision": "Queen returned to the centre after the cover stroke", "clause": "icf-fr:3.12.d",
    "facts": "Free text, in any language", "lang": "fr",
}
DISQUALIFICATION = {
    "tournament": "Open de Cannes", "round": 3, "table": 7, "player": "A. Rossi", "referee": "C. Martin",
    "at": "2026-05-14T16:05:00+02:00", "ground": "icf-fr:4.2.b", "facts": "Free text", "lang": "it",
}


class Clock:
    """A settable clock for the store."""

    def __init__(self, moment: datetime):
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **delta) -> None:
        self.moment += timedelta(**delta)


@pytest.fixture
def db_path(user_dirs, records_file):
    return records_file


@pytest.fixture
def clock():
    return Clock(datetime(2026, 5, 14, 15, 50, tzinfo=CET))


@pytest.fixture
def store(db_path, records_url, clock):
    from referee_app.core.forms.store import FormsStore

    s = FormsStore(installed(), records_url, clock=clock)
    yield s
    s.close()


def cli(*args, doc=None):
    return run_cli(*args, input=None if doc is None else json.dumps(doc))


def new(kind, doc, *extra):
    r = cli("forms", "new", kind, "--json", *extra, "-", doc=doc)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def refused(result, field):
    """Exit 2, one line on standard error naming the field, no traceback."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f" {field}:" in lines[0], lines[0]
    return lines[0]


def pdf_text(path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed")
    out = subprocess.run(["pdftotext", "-nopgbrk", str(path), "-"], capture_output=True, text=True, check=True).stdout
    # ligatures (ﬁ) back to letters, and lines joined: a sentence may wrap anywhere
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", out))


# -- the data ----------------------------------------------------------------------------------

def test_forms_yaml_cites_real_clauses_and_has_every_label_in_every_language():
    assert installed().forms.problems() == []


def test_a_broken_forms_yaml_is_reported_by_line(tmp_path, kb):
    from types import SimpleNamespace

    from referee_app.core.forms.clauses import FormsData

    text = installed().forms.path.read_text(encoding="utf-8")
    text = text.replace("{value: 5, clause: aicf-2009:23}", "{value: five, clause: aicf-2009:99}")
    text = text.replace("  it:\n    include: icf\n    note:", "  it:\n    include: icf\n    nota:", 1)
    text = text.replace("tournament: {en: Tournament, fr: Tournoi, it: Torneo}", "tournament: {en: Tournament}")
    (tmp_path / "forms.yaml").write_text(text, encoding="utf-8")
    fake = SimpleNamespace(root=tmp_path, clauses=kb.clauses, languages=kb.languages)
    problems = [str(p) for p in FormsData(fake, installed().rulesets).problems()]
    assert any("aicf-2009:99" in p for p in problems), problems
    assert any("positive whole number" in p for p in problems)
    assert any("protest.it: borrows from icf without a note" in p for p in problems)
    assert "forms.yaml:97: labels.tournament: no text in 'fr'" in problems
    assert "forms.yaml:26: protest.it: unknown field 'nota'" in problems
    assert all(re.match(r"forms\.yaml:\d+: ", p) for p in problems)


@pytest.mark.parametrize("ruleset, minutes, clause", [
    ("icf", 15, "icf-fr:4.3.p2"), ("aicf-2009", 5, "aicf-2009:23"), ("it", 15, "icf-fr:4.3.p2"),
])
def test_protest_deadline_per_ruleset_comes_from_the_knowledge_base(ruleset, minutes, clause):
    rules = installed().forms.protest(ruleset)
    assert (rules.deadline_minutes, rules.deadline_clause) == (minutes, clause)
    raw = yaml.safe_load((installed().forms.path).read_text(encoding="utf-8"))
    entry = raw["protest"][ruleset]
    assert entry.get("deadline_minutes", raw["protest"]["icf"]["deadline_minutes"])["value"] == minutes


def test_the_italian_regulation_borrows_the_international_protest_rules_and_says_so():
    rules = installed().forms.protest("it")
    assert rules.steps["no_withdrawal"] == "icf-fr:4.3.p4"
    notes = rules.note_texts("en")
    assert notes and "no clause on protests" in notes[0]
    assert "reclami" in rules.note_texts("it")[0]


def test_every_ruleset_has_protest_and_disqualification_rules():
    for rid in installed().rulesets:
        assert installed().forms.protest(rid).deadline_minutes > 0
        assert installed().forms.disqualification(rid).grounds


def test_grounds_for_disqualification_per_ruleset():
    grounds = lambda rid: [g.clause for g in installed().forms.disqualification(rid).grounds]  # noqa: E731
    icf = [f"icf-fr:4.2.{x}" for x in "abcdefgh"]
    assert grounds("icf") == icf
    assert grounds("it") == [f"it:{n}" for n in range(122, 127)]
    assert grounds("aicf-2009") == icf + ["aicf-2009:4", "aicf-2009:14"]
    assert installed().forms.disqualification("it").consequence == "it:P"
    count = installed().forms.disqualification("icf").ground("icf-fr:4.2.h").count
    assert (count.incident, count.more_than) == ("disturbance", 3)


# -- the command line: new, required fields, clauses ---------------------------------------------

def test_new_protest_answers_id_status_and_deadline(db_path):
    answer = new("protest", PROTEST)
    assert answer["status"] == "filed" and isinstance(answer["id"], int)
    assert answer["deadline"] == "2026-05-14T16:04:00+02:00"
    assert answer["kind"] == "protest" and answer["tournament"] == "Open de Cannes"
    assert answer["rules"]["deadline_clause"] == "icf-fr:4.3.p2"


def test_new_reads_yaml_from_a_file(db_path, tmp_path):
    path = tmp_path / "protest.yaml"
    path.write_text(yaml.safe_dump({**PROTEST, "announced_at": datetime(2026, 5, 14, 15, 42, tzinfo=CET),
                                    "board_ended_at": datetime(2026, 5, 14, 15, 49, tzinfo=CET)}),
                    encoding="utf-8")
    r = run_cli("forms", "new", "protest", "--json", str(path))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["deadline"] == "2026-05-14T16:04:00+02:00"


def test_deadline_is_null_until_the_board_has_ended(db_path):
    answer = new("protest", {k: v for k, v in PROTEST.items() if k != "board_ended_at"})
    assert answer["deadline"] is None and answer["late"] is None
    r = cli("forms", "set", str(answer["id"]), "board_ended_at", "2026-05-14T16:00:00+02:00", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["deadline"] == "2026-05-14T16:15:00+02:00"


@pytest.mark.parametrize("kind, doc", [("protest", PROTEST), ("disqualification", DISQUALIFICATION)])
def test_every_missing_required_field_is_refused_by_name(db_path, kind, doc):
    for f in FIELDS[kind]:
        if f.required:
            refused(cli("forms", "new", kind, "-", doc={k: v for k, v in doc.items() if k != f.name}), f.name)


def test_a_missing_player_of_the_pair_is_named(db_path):
    refused(cli("forms", "new", "protest", "-", doc={**PROTEST, "players": {"first": "A. Rossi"}}), "players.second")


def test_a_clause_that_does_not_exist_is_refused(db_path):
    line = refused(cli("forms", "new", "protest", "-", doc={**PROTEST, "clause": "icf-fr:9.99"}), "clause")
    assert "icf-fr:9.99" in line


def test_a_ground_outside_the_rulesets_list_is_refused(db_path):
    line = refused(cli("forms", "new", "disqualification", "-", doc={**DISQUALIFICATION, "ground": "icf-fr:3.12.d"}),
                   "ground")
    assert "icf-fr:4.2.a" in line  # says which grounds there are
    refused(cli("forms", "new", "disqualification", "-",
                doc={**DISQUALIFICATION, "ruleset": "it", "ground": "icf-fr:4.2.b"}), "ground")
    assert new("disqualification", {**DISQUALIFICATION, "ruleset": "it", "ground": "it:122"})["status"] == "filed"
    assert new("disqualification", {**DISQUALIFICATION, "ruleset": "aicf-2009", "ground": "aicf-2009:14"})


@pytest.mark.parametrize("field, value", [
    ("colour", "white"), ("announced_at", 942), ("announced_at", "quarter to four"), ("board", -1),
    ("lang", "de"), ("protester", "third"), ("ruleset", "chess"), ("players", "A. Rossi and B. Dubois"),
])
def test_bad_values_are_refused_by_field(db_path, field, value):
    refused(cli("forms", "new", "protest", "-", doc={**PROTEST, field: value}), field)


def test_the_board_cannot_end_before_the_oral_announcement(db_path):
    refused(cli("forms", "new", "protest", "-", doc={**PROTEST, "board_ended_at": "2026-05-14T15:30:00+02:00"}),
            "board_ended_at")


def test_bad_yaml_and_unknown_form_are_one_line(db_path):
    r = run_cli("forms", "new", "protest", "-", input="tournament: [unclosed")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    refused(cli("forms", "show", "999"), "id")
    refused(cli("forms", "show", "abc"), "id")


# -- deadlines and late filing ----------------------------------------------------------------

@pytest.mark.parametrize("ruleset, filed_after_end, late", [
    ("icf", 10, False), ("icf", 15, False), ("icf", 16, True),
    ("aicf-2009", 4, False), ("aicf-2009", 5, False), ("aicf-2009", 6, True),
])
def test_late_filing_is_accepted_and_marked_late(db_path, ruleset, filed_after_end, late):
    filed_at = (datetime(2026, 5, 14, 15, 49, tzinfo=CET) + timedelta(minutes=filed_after_end)).isoformat()
    answer = new("protest", {**PROTEST, "ruleset": ruleset, "filed_at": filed_at})
    assert answer["status"] == "filed" and answer["late"] is late
    minutes = 5 if ruleset == "aicf-2009" else 15
    assert answer["deadline"] == (datetime(2026, 5, 14, 15, 49, tzinfo=CET) + timedelta(minutes=minutes)).isoformat()


def test_a_drafts_countdown_runs_from_the_end_of_the_board(store, clock):
    form = store.create("protest", {k: v for k, v in PROTEST.items() if k != "board_ended_at"})
    assert form.timing()["remaining_seconds"] is None
    form = store.set_field(form.id, "board_ended_at", "2026-05-14T15:49:00+02:00")
    assert form.timing(clock())["remaining_seconds"] == 14 * 60          # clock: 15:50
    clock.advance(minutes=15)                                             # 16:05, a minute past 16:04
    t = form.timing(clock())
    assert t["remaining_seconds"] == -60 and t["late"] is True
    filed = store.file(form.id)                                           # late, but accepted
    assert filed.status == "filed" and filed.timing()["late"] is True
    assert filed.fields["filed_at"] == "2026-05-14T16:05:00+02:00"


# -- statuses, history, no withdrawal ------------------------------------------------------------

def test_statuses_draft_filed_decided(db_path):
    r = cli("forms", "new", "protest", "--draft", "--json", "-", doc={"tournament": "Open de Cannes"})
    form_id = str(json.loads(r.stdout)["id"])
    assert json.loads(r.stdout)["status"] == "draft"
    refused(cli("forms", "file", form_id), "round")
    refused(cli("forms", "decide", form_id, "upheld"), "status")
    for field, value in PROTEST.items():
        if field != "tournament":
            typed = value if isinstance(value, str) else json.dumps(value)
            assert cli("forms", "set", form_id, field, typed).returncode == 0
    assert json.loads(cli("forms", "file", form_id, "--json").stdout)["status"] == "filed"
    refused(cli("forms", "file", form_id), "status")
    decided = json.loads(cli("forms", "decide", form_id, "upheld", "--director", "D. Director", "--json").stdout)
    assert decided["status"] == "decided" and decided["outcome"] == "upheld"
    refused(cli("forms", "decide", form_id, "rejected"), "status")
    refused(cli("forms", "set", form_id, "facts", "changed"), "facts")
    shown = json.loads(cli("forms", "show", form_id, "--json").stdout)
    assert shown["director"] == "D. Director" and shown["decided_at"]


def test_a_filed_form_stays_complete(store):
    form = store.create("protest", PROTEST, file=True)
    with pytest.raises(BadInput) as exc:
        store.set_field(form.id, "clause", "icf-fr:9.99")
    assert exc.value.field == "clause"
    with pytest.raises(BadInput):
        store.set_field(form.id, "facts", "")
    assert store.get(form.id).fields["clause"] == "icf-fr:3.12.d"


def test_history_records_every_change_with_its_time(store, clock):
    form = store.create("protest", {"tournament": "Open"})
    for i in range(1, 6):                      # typed key by key: one change
        store.set_field(form.id, "facts", "Rossi"[:i])
    clock.advance(minutes=5)
    store.set_field(form.id, "facts", "Rossi spoke")   # a later edit: another change
    store.set_field(form.id, "referee", "C. Martin")
    history = store.history(form.id)
    facts = [h for h in history if h["field"] == "facts"]
    assert [(h["old"], h["new"]) for h in facts] == [(None, "Rossi"), ("Rossi", "Rossi spoke")]
    assert facts[1]["at"] == "2026-05-14T15:55:00+02:00"
    assert [h["new"] for h in history if h["field"] == "status"] == ["draft"]


def test_show_gives_every_field_and_the_history(db_path):
    form_id = str(new("protest", PROTEST)["id"])
    assert cli("forms", "set", form_id, "facts", "Corrected facts").returncode == 0
    shown = json.loads(cli("forms", "show", form_id, "--json").stdout)
    for field, value in PROTEST.items():
        if field != "facts":
            assert shown[field] == value, field
    assert shown["facts"] == "Corrected facts" and shown["status"] == "filed"
    changes = [(h["field"], h["old"], h["new"]) for h in shown["history"]]
    assert ("facts", "Free text, in any language", "Corrected facts") in changes
    assert ("status", "draft", "filed") in changes
    assert all(h["at"] for h in shown["history"])
    assert "history:" in cli("forms", "show", form_id).stdout


@pytest.mark.parametrize("action", ["delete", "withdraw"])
def test_an_announced_protest_can_never_be_withdrawn_or_deleted(db_path, action):
    form_id = str(new("protest", PROTEST)["id"])
    line = refused(cli("forms", action, form_id), "id")
    assert "withdrawn" in line and "icf-fr:4.3.p4" in line
    # even a draft, once announced
    draft = json.loads(cli("forms", "new", "protest", "--draft", "--json", "-",
                           doc={"announced_at": "2026-05-14T15:42:00+02:00"}).stdout)
    refused(cli("forms", action, str(draft["id"])), "id")
    assert cli("forms", "show", form_id).returncode == 0


def test_the_database_itself_refuses_to_lose_a_form(store):
    protest = store.create("protest", {"announced_at": "2026-05-14T15:42:00+02:00"})
    filed = store.create("disqualification", DISQUALIFICATION, file=True)
    for form_id in (protest.id, filed.id):
        with pytest.raises(db.StoreError, match="never be deleted") as refused:
            store.write("DELETE FROM forms WHERE id = :id", {"id": form_id})
        assert refused.value.reason == "refused"
    with pytest.raises(db.StoreError, match="never be deleted"):
        store.write("DELETE FROM form_history WHERE form_id = :id", {"id": filed.id})
    with pytest.raises(db.StoreError, match="never rewritten"):
        store.write("UPDATE form_history SET old = 'x' WHERE form_id = :id", {"id": filed.id})


def test_an_unannounced_draft_can_be_deleted(db_path):
    draft = json.loads(cli("forms", "new", "protest", "--draft", "--json", "-", doc={"tournament": "T"}).stdout)
    assert cli("forms", "delete", str(draft["id"])).returncode == 0
    refused(cli("forms", "show", str(draft["id"])), "id")
    filed = str(new("disqualification", DISQUALIFICATION)["id"])
    assert "never deleted" in refused(cli("forms", "delete", filed), "id")


def test_list_filters_by_tournament_status_and_kind(db_path):
    a = new("protest", PROTEST)["id"]
    b = new("protest", {**PROTEST, "tournament": "Coppa Italia"})["id"]
    c = new("disqualification", DISQUALIFICATION)["id"]
    d = json.loads(cli("forms", "new", "protest", "--draft", "--json", "-",
                       doc={"tournament": "Coppa Italia"}).stdout)["id"]
    cli("forms", "decide", str(a), "rejected")

    def ids(*args):
        r = cli("forms", "list", "--json", *args)
        assert r.returncode == 0, r.stderr
        return [f["id"] for f in json.loads(r.stdout)]

    assert ids() == [a, b, c, d]
    assert ids("--tournament", "Coppa Italia") == [b, d]
    assert ids("--status", "draft") == [d]
    assert ids("--status", "decided") == [a]
    assert ids("--tournament", "Open de Cannes", "--status", "filed") == [c]
    assert ids("--kind", "disqualification") == [c]
    listed = json.loads(cli("forms", "list", "--json").stdout)[0]
    assert {"id", "kind", "status", "tournament", "deadline", "late"} <= set(listed)
    refused(cli("forms", "list", "--status", "lost"), "arguments")


# -- incidents: a repeated disturbance is counted ----------------------------------------------

def test_repeated_disturbance_is_counted_from_recorded_incidents(db_path):
    doc = {**DISQUALIFICATION, "ground": "icf-fr:4.2.h"}
    refused(cli("forms", "new", "disqualification", "-", doc=doc), "times")
    incident = {"tournament": "Open de Cannes", "round": 3, "table": 7, "player": "A. Rossi", "kind": "disturbance"}
    for minute in (1, 2, 3):
        r = cli("forms", "incident", "--json", "-", doc={**incident, "at": f"2026-05-14T16:0{minute}:00+02:00"})
        assert r.returncode == 0, r.stderr
    # another player's, and one after the disqualification, do not count
    cli("forms", "incident", "-", doc={**incident, "player": "B. Dubois", "at": "2026-05-14T16:04:00+02:00"})
    cli("forms", "incident", "-", doc={**incident, "at": "2026-05-14T16:30:00+02:00"})
    assert "not 3" in refused(cli("forms", "new", "disqualification", "-", doc=doc), "times")
    cli("forms", "incident", "-", doc={**incident, "at": "2026-05-14T16:04:00+02:00"})
    answer = new("disqualification", doc)
    shown = json.loads(cli("forms", "show", str(answer["id"]), "--json").stdout)
    assert shown["times"] == 4 and len(shown["incidents"]) == 4
    listed = json.loads(cli("forms", "incidents", "--round", "3", "--player", "A. Rossi", "--json").stdout)
    assert len(listed) == 5


def test_without_recorded_incidents_the_referee_states_the_count(db_path):
    answer = new("disqualification", {**DISQUALIFICATION, "ground": "icf-fr:4.2.h", "times": 4})
    assert answer["rules"]["count"] == {"incident": "disturbance", "more_than": 3}


def test_an_incident_needs_its_match_and_a_known_kind(db_path):
    refused(cli("forms", "incident", "-", doc={"tournament": "T", "round": 1, "table": 1, "kind": "disturbance"}),
            "player")
    refused(cli("forms", "incident", "-", doc={"tournament": "T", "round": 1, "table": 1, "player": "P",
                                               "kind": "sneezing"}), "kind")


# -- PDF -----------------------------------------------------------------------------------------

def test_protest_pdf_holds_every_field_the_cited_clause_and_signature_lines(db_path, tmp_path):
    doc = {**PROTEST, "referee": "Cécile Bérard", "facts": "Le joueur a écrit <b>gras</b> & « à côté »",
           "decision": "Reine replacée au centre", "protester": "second", "score": {"first": 12, "second": 7},
           "match": "M-12"}
    form_id = str(new("protest", doc)["id"])
    out = tmp_path / "protest.pdf"
    r = cli("forms", "export", form_id, "--pdf", str(out))
    assert r.returncode == 0, r.stderr
    text = pdf_text(out)
    for expected in ("Contestation", "Open de Cannes", "A. Rossi", "B. Dubois", "Cécile Bérard", "M-12", "12 – 7",
                     "Le joueur a écrit <b>gras</b> & « à côté »", "Reine replacée au centre",
                     "14 mai 2026, 15:42", "14 mai 2026, 15:49", "14 mai 2026, 16:04",
                     "ICF 3.12 d", "Si la reine a été logé correctement",   # the clause as cited, its text in French
                     "15 minutes après la fin du board", "Signatures", "Responsable du tournoi", "Arbitre",
                     "Règles internationales (ICF)"):
        assert expected in text, expected
    assert "____" in text                                     # blank signature lines


def test_pdf_in_another_language_prints_the_clause_in_that_language(db_path, tmp_path, kb):
    form_id = str(new("protest", {**PROTEST, "lang": "it", "ruleset": "it"})["id"])
    out = tmp_path / "reclamo.pdf"
    assert cli("forms", "export", form_id, "--pdf", str(out)).returncode == 0
    text = pdf_text(out)
    assert "Reclamo" in text and "Torneo" in text
    italian, official = kb.get("icf-fr:3.12.d").text_in("it")
    assert re.sub(r"\s+", " ", italian)[:60] in text
    if not official:
        assert "traduzione del progetto, non ufficiale" in text
    assert "Il regolamento italiano non contiene norme sui reclami" in text
    en = tmp_path / "protest-en.pdf"
    assert cli("forms", "export", form_id, "--pdf", str(en), "--lang", "en").returncode == 0
    assert "Paragraph relied on" in pdf_text(en)


def test_a_clause_without_a_translation_prints_its_original_and_says_so(store, kb, monkeypatch):
    from referee_app.core.forms.document import form_document

    clause = installed().forms.kb.get("icf-fr:3.12.d")   # the knowledge base the forms are printed from
    monkeypatch.setattr(clause, "translations", {})
    form = store.create("protest", {**PROTEST, "lang": "it", "facts": "<b>x</b> & y"}, file=True)
    html, title = form_document(store, form, None)
    assert "testo originale (fr): nessuna traduzione disponibile" in html
    assert "Si la reine a été logé correctement" in html
    assert "&lt;b&gt;x&lt;/b&gt; &amp; y" in html and "<b>x</b>" not in html
    assert title == f"Reclamo – Modulo n. {form.id}"


def test_decided_forms_print_the_decision(db_path, tmp_path):
    form_id = str(new("protest", PROTEST)["id"])
    cli("forms", "decide", form_id, "upheld", "--director", "Zoé Directrice")
    out = tmp_path / "decided.pdf"
    cli("forms", "export", form_id, "--pdf", str(out))
    text = pdf_text(out)
    assert "Contestation acceptée : tout le match doit être rejoué (ICF 4.3 ¶5)" in text
    assert "Zoé Directrice" in text


def test_disqualification_pdf(db_path, tmp_path, kb):
    form_id = str(new("disqualification", {**DISQUALIFICATION, "facts": "Ha lasciato la sedia <i>due</i> volte"})["id"])
    out = tmp_path / "squalifica.pdf"
    assert cli("forms", "export", form_id, "--pdf", str(out)).returncode == 0
    text = pdf_text(out)
    ground = kb.get("icf-fr:4.2.b").text_in("it")[0][:40]       # in Italian when the knowledge base has it
    for expected in ("Squalifica", "A. Rossi", "C. Martin", "ICF 4.2 b", ground,
                     "Ha lasciato la sedia <i>due</i> volte", "Firme", "perde l'intero match (ICF 4.2)"):
        assert expected in text, expected


@pytest.mark.parametrize("kind, lang, expected", [
    ("protest", "fr", ["Contestation", "Paragraphe invoqué", "15 minutes après la fin du board"]),
    ("protest", "it", ["Reclamo", "Paragrafo invocato", "Firme"]),
    ("disqualification", "en", ["Disqualification", "Grounds (International rules (ICF)): tick one", "ICF 4.2 h", "Signatures"]),
])
def test_blank_forms(db_path, tmp_path, kind, lang, expected):
    out = tmp_path / f"blank-{kind}-{lang}.pdf"
    r = cli("forms", "blank", kind, "--pdf", str(out), "--lang", lang)
    assert r.returncode == 0, r.stderr
    text = pdf_text(out)
    for e in expected:
        assert e in text, e


def test_a_blank_aicf_protest_prints_its_five_minutes(db_path, tmp_path):
    out = tmp_path / "blank.pdf"
    assert cli("forms", "blank", "protest", "--pdf", str(out), "--lang", "en", "--ruleset", "aicf-2009").returncode == 0
    assert "5 minutes after the end of the board (AICF 23)" in pdf_text(out)
    refused(cli("forms", "blank", "protest", "--pdf", str(out), "--ruleset", "chess"), "--ruleset")


def test_set_takes_a_text_as_typed(db_path):
    form_id = str(new("protest", PROTEST)["id"])
    assert cli("forms", "set", form_id, "facts", "no").returncode == 0
    assert cli("forms", "set", form_id, "score", "{first: 3, second: 0}").returncode == 0
    shown = json.loads(cli("forms", "show", form_id, "--json").stdout)
    assert shown["facts"] == "no" and shown["score"] == {"first": 3, "second": 0}
    refused(cli("forms", "set", form_id, "announced_at", "15:42"), "announced_at")
    refused(cli("forms", "set", form_id, "colour", "red"), "colour")
