"""A command run as its own process spends nothing on collecting garbage it will never free, yet
closes its records as cleanly as before; a caller running commands in its own process (a test, a
script) keeps its collector as it was."""
from __future__ import annotations

import gc
import os
import subprocess
import sys

from referee_app.cli import main


def test_a_command_process_leaves_its_records_file_alone_with_no_journal_beside_it(tmp_path):
    records = tmp_path / "records.sqlite3"
    env = {**os.environ, "CARROM_REFEREE_DATABASE": str(records)}
    for argv in (["matches", "new", "--first-name", "A", "--second-name", "B"], ["matches", "list"]):
        done = subprocess.run([sys.executable, "-m", "referee_app", *argv], capture_output=True, text=True,
                              timeout=120, env=env)
        assert done.returncode == 0, done.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["records.sqlite3"]
    assert "A – B" in done.stdout


def test_a_command_run_in_the_caller_s_process_leaves_its_collector_as_it_was(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    before = gc.get_threshold(), gc.get_freeze_count()
    assert main(["matches", "list"]) == 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
