"""The match record: a header saved as typed, the ruleset changed only as a recorded act, the
unfinished match found again, the full score sheet as a PDF from the command line, and a protest
filled from the stroke it is about."""
from __future__ import annotations

import json
import shutil
import subprocess
import unicodedata

import pytest

from support.cli import run_cli
from referee_app.core.errors import BadInput
from referee_app.core.play.protest_draft import protest_fields
from referee_app.core.play.store import MatchStore
from support.kbcopy import installed

BOARD = [{"pocketed": {"own": 2}}, {"pocketed": {}, "foul": "improper_stroke"}, {"pocketed": {"own": 1, "queen": True}},
         {"pocketed": {"own": 1}}, {"pocketed": {"own": 7}}]  # the second player wins the board 11-0


def pdf_text(path) -> str:
    """The PDF's text in drawing order (each cell whole), ligatures undone, spaces collapsed."""
    raw = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(unicodedata.normalize("NFKC", raw).split())


def test_the_header_is_saved_field_by_field_at_any_time(user_dirs, records_env):
    store = MatchStore(installed())
    mid = store.create("icf")
    store.add_stroke(mid, {"pocketed": {"own": 1}})
    store.update_header(mid, first_name="Anna", table_no="7")
    store.update_header(mid, referee=" C. Martin ", round="3", tournament="Open de Cannes")
    meta = MatchStore(installed()).meta(mid)  # a new connection: what a restart would read
    assert (meta["first_name"], meta["table_no"], meta["referee"], meta["round"], meta["tournament"]) == \
        ("Anna", "7", "C. Martin", "3", "Open de Cannes")
    with pytest.raises(BadInput, match="ruleset"):
        store.update_header(mid, ruleset="it")


def test_a_ruleset_change_replays_the_match_and_is_kept_in_its_history(user_dirs, records_env):
    store = MatchStore(installed())
    mid = store.create("icf")
    for stroke in BOARD[:3]:
        store.add_stroke(mid, stroke)
    match = store.change_ruleset(mid, "it")
    assert match.ruleset == "it" and store.meta(mid)["ruleset"] == "it"
    assert [e["detail"] for e in store.events(mid)] == [{"from": "icf", "to": "it", "after_stroke": 3}]
    assert store.export(mid)["events"][0]["kind"] == "ruleset"


def test_the_unfinished_match_is_found_for_the_resume_offer(user_dirs, records_env):
    store = MatchStore(installed())
    done = store.create("icf", first_name="Over")
    assert store.unfinished() is None  # no stroke: nothing to resume
    store.add_stroke(done, BOARD[0])
    assert store.unfinished()["id"] == done


def test_matches_export_writes_the_full_score_sheet_pdf(user_dirs, tmp_path):
    assert shutil.which("pdftotext"), "pdftotext (poppler-utils) reads the PDF back"
    new = run_cli("matches", "new", "--first-name", "Éloïse", "--second-name", "<b>Bruno</b>", "--tournament",
                  "Open de Cannes", "--round", "3", "--table-no", "7", "--referee", "C. Martin", "--json")
    assert new.returncode == 0, new.stderr
    mid = json.loads(new.stdout)["id"]
    (tmp_path / "board.json").write_text(json.dumps(BOARD))
    assert run_cli("matches", "play", str(mid), str(tmp_path / "board.json")).returncode == 0
    out = tmp_path / "sheet.pdf"
    done = run_cli("matches", "export", str(mid), "--pdf", str(out), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["pdf"] == str(out)
    text = pdf_text(out)
    for expected in ("Score sheet", "Éloïse", "<b>Bruno</b>", "Open de Cannes", "C. Martin", "International rules (ICF)",
                     "Improper stroke",            # the foul by its name
                     "ICF 4.1.2",                  # its clause as people cite it
                     "The striking side wins the board: 11 points to 0.",  # the last stroke's ruling
                     "Game 1 not finished: 0 to 11.", "Signatures", "Referee (C. Martin)"):
        assert expected in text, expected
    assert text.count("____") >= 3  # a line to sign for each player and the referee
    for n in range(1, 6):
        assert f" {n} 1.1 " in f" {text} "  # every stroke, with its board
    fr = run_cli("matches", "export", str(mid), "--pdf", str(tmp_path / "fr.pdf"), "--lang", "fr")
    assert fr.returncode == 0, fr.stderr
    text = pdf_text(tmp_path / "fr.pdf")
    assert "Feuille de match" in text and "Tir incorrect" in text and "Partie 1 non terminée" in text
    missing = run_cli("matches", "export", "999", "--pdf", str(tmp_path / "x.pdf"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_a_protest_is_filled_from_the_stroke_it_is_about(user_dirs, records_env):
    from referee_app.core.forms.store import FormsStore

    store = MatchStore(installed())
    mid = store.create("icf", first_name="Anna", second_name="Bruno", tournament="Open de Cannes", round="3",
                       table_no="7", referee="C. Martin")
    for stroke in BOARD[:3]:
        store.add_stroke(mid, stroke)
    fields = protest_fields(installed(), store.meta(mid), store.strokes(mid), 2, "en")
    assert fields["players"] == {"first": "Anna", "second": "Bruno"}
    assert (fields["tournament"], fields["round"], fields["table"], fields["referee"], fields["board"]) == \
        ("Open de Cannes", "3", "7", "C. Martin", 1)
    assert fields["clause"] == "icf-fr:4.1.2" and "Improper stroke" in fields["facts"]
    assert fields["decision"].startswith("Put back in the centre")
    form = FormsStore(installed()).create("protest", fields)  # the forms accept it as a draft
    assert form.fields["clause"] == "icf-fr:4.1.2"
    with pytest.raises(BadInput):
        protest_fields(installed(), store.meta(mid), store.strokes(mid), 9, "en")
