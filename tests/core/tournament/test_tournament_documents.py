"""The tournament desk's printed documents are built in the core, in the language they are given
(the window passes its own), like the score sheet (core/play/sheet_document.py)."""
from __future__ import annotations

from referee_app.core.tournament import documents
from support.kbcopy import installed

def plain(html: str) -> str:
    """Without the bidi isolates `esc` wraps user text in (core/printing.py)."""
    return html.replace("\u2068", "").replace("\u2069", "")


GAMES = [{"table_no": 1, "first": "A. <Rossi>", "second": "B. Dubois", "score_first": 25, "score_second": 7},
         {"table_no": 2, "first": "C. Martin", "second": None, "score_first": None, "score_second": None}]


def test_pairings_in_the_language_asked_with_user_text_escaped():
    html, title = documents.pairings_document("Open <de> Cannes", 3, GAMES, "fr")
    html = plain(html)
    assert title == "Open <de> Cannes – Tour 3"
    assert "<h2>Tour 3</h2>" in html and "(fantôme)" in html and "25 – 7" in html
    assert "A. &lt;Rossi&gt;" in html and "Open &lt;de&gt; Cannes" in html and "<Rossi>" not in html
    assert "Turno 3" in plain(documents.pairings_document("T", 3, GAMES, "it")[0])
    assert "Final" in documents.round_title("final", "en")


def test_one_score_sheet_per_played_table_pre_filled():
    sheets = documents.score_sheet_documents(installed().ffc, "Open", "final", GAMES, "icf", "it")
    assert [(name, title) for name, _html, title in sheets] == [("final-table-1.pdf", "Referto")]
    html = plain(sheets[0][1])
    assert "A. &lt;Rossi&gt;" in html and "B. Dubois" in html
    # the final is played to the points of knowledge/tournament.yaml, with no limit of time
    ffc = installed().ffc
    assert documents.limits_text(ffc, True, "en") in plain(documents.score_sheet_html(ffc, "Open", "final", GAMES[0], "icf", "en"))
    assert [name for name, *_ in documents.score_sheet_documents(ffc, "Open", 2, GAMES, "icf", "en")] == \
        ["round-2-table-1.pdf"]


def test_the_command_line_prints_what_the_desk_prints(records_file, tmp_path):
    import subprocess
    import unicodedata

    from support.cli import run_cli

    def text(path) -> str:
        raw = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout
        return " ".join(unicodedata.normalize("NFKC", raw).split())

    source = tmp_path / "t.yaml"
    source.write_text("name: Open de Cannes\nplayers: [Anna, Bruno, Chiara]\n", encoding="utf-8")
    assert run_cli("tournament", "new", str(source)).returncode == 0
    refused = run_cli("tournament", "print", "1", "1", "--pairings", str(tmp_path / "p.pdf"))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "not paired" in refused.stderr
    assert run_cli("tournament", "pair", "--id", "1", "--seed", "3").returncode == 0
    done = run_cli("tournament", "print", "1", "1", "--pairings", str(tmp_path / "p.pdf"),
                   "--score-sheets", str(tmp_path / "sheets"), "--lang", "fr")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "p.pdf"), str(tmp_path / "sheets" / "round-1-table-1.pdf")]
    pairings = text(tmp_path / "p.pdf")
    assert "Open de Cannes" in pairings and "Tour 1" in pairings and "(fantôme)" in pairings
    sheet = text(tmp_path / "sheets" / "round-1-table-1.pdf")
    assert "Feuille de match" in sheet and "Open de Cannes" in sheet
    nothing = run_cli("tournament", "print", "1", "1")
    assert nothing.returncode == 2 and "--pairings" in nothing.stderr
