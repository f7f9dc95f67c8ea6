"""The command line loads no `referee_app.ui` module to run a command, printing included: PDFs and
pictures are written by `referee_app/printing/`, a floor beside the window (issue 28, "Floors").

One process runs every command that prints (a score sheet, a blank and a filled form, an
inspection certificate, an exam paper, a board diagram as PNG, a round's pairings and score
sheets) and a plain `rule`, then lists
what of `referee_app.ui` it loaded: nothing."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import yaml

PROBE = textwrap.dedent("""
    import contextlib, io, json, sys
    from referee_app.cli import main

    failed = []
    for argv in json.loads(sys.argv[1]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        if code != 0:
            failed.append([argv, code, err.getvalue()])
    print(json.dumps({"failed": failed, "ui": sorted(m for m in sys.modules if m.startswith("referee_app.ui")),
                      "printing": sorted(m for m in sys.modules if m.startswith("referee_app.printing"))}))
""")


def test_no_command_loads_a_ui_module_even_to_print(tmp_path):
    def file(name, doc):
        path = tmp_path / name
        path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
        return str(path)

    situation = file("s.yaml", {"ruleset": "icf", "before": {"own_on_board": 6, "opponent_on_board": 7},
                                "stroke": {"pocketed": {"queen": True}}})
    striker = file("striker.yaml", {"item": "striker", "measurements": {
        "diameter": {"value": 4.0, "unit": "cm"}, "weight": {"value": 14.2, "unit": "g"}, "metal_visible": False}})
    protest = file("protest.yaml", {
        "tournament": "Open de Cannes", "round": 3, "table": 7, "players": {"first": "A. Rossi", "second": "B. Dubois"},
        "referee": "C. Martin", "ruleset": "icf", "board": 4, "announced_at": "2026-05-14T15:42:00+02:00",
        "board_ended_at": "2026-05-14T15:49:00+02:00", "decision": "Queen returned", "clause": "icf-fr:3.12.d",
        "facts": "Free text", "lang": "fr"})
    tournament = tmp_path / "t.yaml"
    tournament.write_text("name: Open de Cannes\nplayers: [A, B, C]\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    commands = [
        ["rule", situation, "--json"],
        ["matches", "new", "--first-name", "A", "--second-name", "B"],
        ["matches", "export", "1", "--pdf", str(out / "sheet.pdf")],
        ["forms", "blank", "protest", "--pdf", str(out / "blank.pdf")],
        ["forms", "new", "protest", protest],
        ["forms", "export", "1", "--pdf", str(out / "protest.pdf")],
        ["inspect", "--save", "--inspector", "E. Mercier", "--label", "striker of A", striker],
        ["inspections", "certificate", "1", "--pdf", str(out / "certificate.pdf")],
        ["quiz", "exam", "--ruleset", "icf", "--count", "3", "--seed", "11", "--pdf", str(out / "exam.pdf")],
        ["quiz", "diagram", situation, "--png", str(out / "board.png")],
        ["tournament", "new", str(tournament)],
        ["tournament", "pair", "--id", "1", "--seed", "3"],
        ["tournament", "print", "1", "1", "--pairings", str(out / "pairings.pdf"),
         "--score-sheets", str(out / "sheets")],
    ]
    env = {"CARROM_REFEREE_DATABASE": str(tmp_path / "records.sqlite3"), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(commands)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["failed"] == []
    assert sorted(p.name for p in out.iterdir()) == ["blank.pdf", "board.png", "certificate.pdf", "exam.pdf",
                                                     "pairings.pdf", "protest.pdf", "sheet.pdf", "sheets"]
    assert [p.name for p in (out / "sheets").iterdir()] == ["round-1-table-1.pdf"]   # the ghost's table: none
    assert all((out / name).stat().st_size > 1000 for name in ("sheet.pdf", "exam.pdf", "board.png"))
    assert "referee_app.printing.pdf" in seen["printing"]   # the probe did print through the printing floor
    assert seen["ui"] == []
