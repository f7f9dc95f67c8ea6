"""Inspection records: saved with who, when, what and the verdict; never rewritten; re-inspections
linked and carrying over what failed; the approved strikers of a tournament; certificates."""
from __future__ import annotations

import json
import subprocess
import unicodedata
from datetime import datetime, timedelta, timezone

import pytest
import yaml

from support.cli import run_cli
from support.kbcopy import installed
from referee_app.core.storage import db
from referee_app.core.storage.database import Database
from referee_app.core.errors import BadInput
from referee_app.core.inspection.store import InspectionStore

SPECS = installed().equipment
STRIKER_OK = {"item": "striker", "measurements": {"diameter": {"value": 4.0, "unit": "cm"},
                                                  "weight": {"value": 14.2, "unit": "g"}, "metal_visible": False}}
STRIKER_WIDE = {"item": "striker", "measurements": {"diameter": {"value": 4.2, "unit": "cm"},
                                                    "weight": {"value": 14.2, "unit": "g"}, "metal_visible": False}}


@pytest.fixture
def records(user_dirs, records_url, monkeypatch):
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    ticks = iter(range(1000))
    start = datetime(2026, 5, 14, 9, 30, tzinfo=timezone(timedelta(hours=2)))
    store = InspectionStore(records_url, clock=lambda: start + timedelta(minutes=next(ticks)))
    yield store
    store.close()


def test_the_database_lives_in_the_user_data_folder(user_dirs, monkeypatch):
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    InspectionStore().close()
    assert db.default_path().is_relative_to(user_dirs / "data")
    assert db.default_path().exists()


def test_an_inspection_is_saved_with_everything_the_inspector_gave(records):
    rec = records.save(STRIKER_OK, SPECS, inspector="Élodie Mercier", label="striker of A. Rossi", tournament="Open de Cannes",
                       notes="Ébène, léger éclat", photo="/photos/rossi.jpg")
    again = records.get(rec.id)
    assert (again.inspector, again.label, again.item, again.tournament) == (
        "Élodie Mercier", "striker of A. Rossi", "striker", "Open de Cannes")
    assert again.inspected_at == "2026-05-14T09:30:00+02:00"
    assert again.readings == STRIKER_OK and again.compliant is True
    assert again.result["checks"][0]["id"] == "striker.diameter"
    assert (again.notes, again.photo) == ("Ébène, léger éclat", "/photos/rossi.jpg")
    assert again.spec and again.previous_id is None


def test_a_failing_inspection_is_saved_with_its_failures(records):
    rec = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="striker of B. Dubois")
    assert rec.compliant is False and rec.failed == ["striker.diameter"]


def test_the_record_fields_may_come_from_the_document(records):
    rec = records.save(dict(STRIKER_OK, inspector="C. Martin", label="striker 3", notes="ok"), SPECS)
    assert (rec.inspector, rec.label, rec.notes) == ("C. Martin", "striker 3", "ok")
    assert "inspector" not in rec.readings


@pytest.mark.parametrize("missing", ["inspector", "label"])
def test_who_and_which_are_required(records, missing):
    details = {"inspector": "C. Martin", "label": "board 7", missing: "  "}
    with pytest.raises(BadInput) as info:
        records.save(STRIKER_OK, SPECS, **details)
    assert info.value.field == missing
    assert records.list() == []


def test_bad_readings_are_refused_before_anything_is_written(records):
    bad = {"item": "striker", "measurements": {"weight": {"value": "heavy", "unit": "g"}}}
    with pytest.raises(BadInput):
        records.save(bad, SPECS, inspector="C. Martin", label="x")
    assert records.list() == []


def test_a_record_is_never_rewritten_nor_deleted(records):
    rec = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="striker 1")
    with pytest.raises(db.StoreError, match="never rewritten"):
        records.write("UPDATE inspections SET compliant = 1 WHERE id = :id", {"id": rec.id})
    with pytest.raises(db.StoreError, match="never deleted"):
        records.write("DELETE FROM inspections WHERE id = :id", {"id": rec.id})


def test_a_saved_record_is_on_disk_at_once(records):
    rec = records.save(STRIKER_OK, SPECS, inspector="C. Martin", label="striker 1")
    with InspectionStore(Database(records.database.url)) as other:   # another connection, as a restart
        assert other.get(rec.id).label == "striker 1"


def test_reinspection_links_and_carries_over_the_failed_items(records):
    first = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="striker of B. Dubois", tournament="Open")
    draft = records.reinspection_draft(first.id)
    assert draft["previous_id"] == first.id and draft["carried_over"] == ["striker.diameter"]
    assert draft["to_remeasure"] == ["diameter"]
    assert "diameter" not in draft["document"]["measurements"]          # must be measured again
    assert draft["document"]["measurements"]["weight"] == {"value": 14.2, "unit": "g"}   # kept
    # The inspector measures the failed item again and saves: label and tournament follow.
    draft["document"]["measurements"]["diameter"] = {"value": 41, "unit": "mm"}
    second = records.save(draft["document"], SPECS, inspector="C. Martin")
    assert second.previous_id == first.id and second.label == "striker of B. Dubois" and second.tournament == "Open"
    assert second.carried_over == ["striker.diameter"] and second.compliant is True
    entry = second.result["reinspection"]["carried_over"][0]
    assert entry == {"id": "striker.diameter", "before": {"value": 4.2, "ok": False, "missing": False},
                     "now": {"value": 4.1, "ok": True, "missing": False}, "resolved": True}
    assert [r.id for r in records.chain(second.id)] == [first.id, second.id]


def test_a_reinspection_that_still_fails_says_so(records):
    first = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="s")
    second = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", previous_id=first.id)
    assert second.result["reinspection"]["outstanding"] == 1 and second.compliant is False


def test_a_reinspection_must_be_of_the_same_kind_of_item(records):
    first = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="s")
    chair = {"item": "chair", "measurements": {"seat_height": {"value": 45, "unit": "cm"}, "armrests": False}}
    with pytest.raises(BadInput, match="striker"):
        records.save(chair, SPECS, inspector="C. Martin", previous_id=first.id)
    with pytest.raises(BadInput, match="no inspection 99"):
        records.save(STRIKER_OK, SPECS, inspector="C. Martin", label="s", previous_id=99)


def test_reinspection_draft_of_a_coin_set_clears_only_the_failed_coins_readings(records):
    coins = [{"colour": colour, "diameter": {"value": 3.0, "unit": "cm"}, "thickness": {"value": 0.8, "unit": "cm"},
              "weight": {"value": 5.5, "unit": "g"}} for colour in ["white"] * 9 + ["black"] * 9 + ["red"]]
    coins[3]["weight"] = {"value": 6.4, "unit": "g"}
    first = records.save({"item": "coin_set", "coins": coins}, SPECS, inspector="C. Martin", label="set of board 7")
    draft = records.reinspection_draft(first.id)
    assert draft["to_remeasure"] == ["coins[3].weight"]
    assert "weight" not in draft["document"]["coins"][3] and "weight" in draft["document"]["coins"][4]


def test_approved_strikers_are_those_whose_latest_inspection_passed(records):
    records.save(STRIKER_OK, SPECS, inspector="C. Martin", label="striker of A. Rossi", tournament="Open de Cannes")
    failed_later = records.save(STRIKER_OK, SPECS, inspector="C. Martin", label="striker of B. Dubois", tournament="Open de Cannes")
    records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="Striker of B. Dubois", tournament="Open de Cannes",
                 previous_id=failed_later.id)
    wide_then_fixed = records.save(STRIKER_WIDE, SPECS, inspector="C. Martin", label="striker of C. Ndiaye", tournament="Open de Cannes")
    records.save(STRIKER_OK, SPECS, inspector="C. Martin", previous_id=wide_then_fixed.id)
    records.save(STRIKER_OK, SPECS, inspector="C. Martin", label="striker of D. Evans", tournament="Coupe de Lyon")
    records.save({"item": "chair", "measurements": {"seat_height": {"value": 45, "unit": "cm"}, "armrests": False}}, SPECS,
                 inspector="C. Martin", label="chair 1", tournament="Open de Cannes")
    approved = records.approved_strikers("open de cannes")
    assert [r.label for r in approved] == ["striker of A. Rossi", "striker of C. Ndiaye"]
    assert {r.label for r in records.approved_strikers()} == {"striker of A. Rossi", "striker of C. Ndiaye",
                                                              "striker of D. Evans"}


# ------------------------------------------------------------------------------- the command line

def _file(tmp_path, document, name="in.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    return str(path)


def _pdf_text(path) -> str:
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(unicodedata.normalize("NFKC", out).split())  # pdftotext writes "fi" as a ligature


def test_save_list_show_reinspect_and_approve_through_the_command(records_file, tmp_path):
    p = run_cli("inspect", "--json", "--save", "--inspector", "Élodie Mercier", "--label", "striker of A. Rossi",
                "--tournament", "Open de Cannes", _file(tmp_path, STRIKER_WIDE))
    assert p.returncode == 0, p.stderr
    first = json.loads(p.stdout)
    assert first["compliant"] is False and first["record"]["id"] == 1
    p = run_cli("inspections", "reinspect", "1", "--json")
    draft = json.loads(p.stdout)
    assert draft["to_remeasure"] == ["diameter"]
    draft["document"]["measurements"]["diameter"] = {"value": 1.6, "unit": "in"}
    p = run_cli("inspect", "--json", "--save", "--inspector", "Élodie Mercier", _file(tmp_path, draft["document"], "re.yaml"))
    second = json.loads(p.stdout)
    assert second["compliant"] is True and second["record"]["previous_id"] == 1
    listed = json.loads(run_cli("inspections", "list", "--json").stdout)
    assert [(r["id"], r["compliant"], r["previous_id"]) for r in listed] == [(1, False, None), (2, True, 1)]
    shown = json.loads(run_cli("inspections", "show", "2", "--json").stdout)
    assert shown["label"] == "striker of A. Rossi" and shown["carried_over"] == ["striker.diameter"]
    approved = json.loads(run_cli("inspections", "approved-strikers", "--tournament", "Open de Cannes", "--json").stdout)
    assert [a["id"] for a in approved] == [2]
    text = run_cli("inspections", "list").stdout
    assert "NOT compliant: striker.diameter" in text and "re-inspects 1" in text


def test_save_without_inspector_is_refused_through_the_command(records_file, tmp_path):
    p = run_cli("inspect", "--save", "--label", "x", _file(tmp_path, STRIKER_OK))
    assert p.returncode == 2 and p.stderr.startswith("carrom-referee: inspector:")
    p = run_cli("inspections", "show", "7")
    assert p.returncode == 2 and "no inspection 7" in p.stderr


@pytest.mark.parametrize("lang, words", [
    ("fr", ["Diamètre", "Parties métalliques apparentes", "14,2 g"]),
    ("it", ["Diametro", "Parti metalliche visibili", "14,2 g"]),
    ("en", ["Diameter", "Visible metal parts", "14.2 g"]),
])
def test_certificate_pdf_in_each_language(records_file, tmp_path, lang, words):
    from babel.dates import format_date

    from referee_app.i18n import babel_locale

    p = run_cli("inspect", "--save", "--inspector", "Élodie Mercier", "--label", "striker of A. Rossi",
                "--notes", "Ébène & <os>", _file(tmp_path, STRIKER_OK))
    assert p.returncode == 0, p.stderr
    out = tmp_path / f"cert-{lang}.pdf"
    p = run_cli("inspections", "certificate", "1", "--pdf", str(out), "--lang", lang)
    assert p.returncode == 0, p.stderr
    text = _pdf_text(out)
    saved_on = datetime.fromisoformat(json.loads(run_cli("inspections", "show", "1", "--json").stdout)["inspected_at"])
    # user text verbatim (accents kept, markup printed literally), the date as the language writes it
    for word in words + ["Élodie Mercier", "striker of A. Rossi", "Ébène & <os>",
                         format_date(saved_on, "d MMMM y", locale=babel_locale(lang))]:
        assert word in text, (word, text[:600])
