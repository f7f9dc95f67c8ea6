"""`tournament log`, and the desk's destructive actions asking their reason (issue 31, "Nothing
records who changed what"): a withdrawal and a round paired again need --reason, and every
change is in the journal with the login and the time."""
from __future__ import annotations

import getpass
import json

from support.cli import run_cli


def _cli(url, *args):
    return run_cli(*args, env={"CARROM_REFEREE_DATABASE": url})


def test_the_journal_keeps_who_did_what_and_a_round_not_yet_played_is_paired_again_with_its_reason(tmp_path):
    url = str(tmp_path / "records.sqlite3")
    (tmp_path / "t.json").write_text(json.dumps({"name": "Open", "players": ["A", "B", "C", "D", "E"]}))
    tid = _cli(url, "tournament", "new", str(tmp_path / "t.json")).stdout.strip()
    first = json.loads(_cli(url, "tournament", "pair", "--id", tid, "--seed", "4", "--json").stdout)
    refused = _cli(url, "tournament", "withdraw", tid, "B")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--reason" in refused.stderr
    done = _cli(url, "tournament", "withdraw", tid, "B", "--reason", "fell ill", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["reason"] == "fell ill"
    no_reason = _cli(url, "tournament", "pair", "--id", tid, "--again", "1")
    assert no_reason.returncode == 2 and "--reason" in no_reason.stderr and no_reason.stderr.count("\n") == 1
    again = _cli(url, "tournament", "pair", "--id", tid, "--again", "1", "--reason", "B withdrew before play", "--json")
    assert again.returncode == 0, again.stderr
    seated = {p for g in json.loads(again.stdout)["tables"] for p in (g["first"], g["second"])}
    assert seated == {"A", "C", "D", "E"} and "B" in {p for g in first["tables"] for p in (g["first"], g["second"])}
    table = json.loads(again.stdout)["tables"][0]["table"]
    assert _cli(url, "tournament", "add-result", tid, "1", str(table), "25", "9").returncode == 0
    played = _cli(url, "tournament", "pair", "--id", tid, "--again", "1", "--reason", "another slip")
    assert played.returncode == 2 and f"table {table} has begun or finished its game" in played.stderr
    log = json.loads(_cli(url, "tournament", "log", tid, "--json").stdout)
    assert [e["action"] for e in log] == ["import", "pair", "withdraw", "repair", "result"]
    assert {e["login"] for e in log} == {getpass.getuser()}
    repaired = log[3]
    assert repaired["round"] == 1 and repaired["detail"]["reason"] == "B withdrew before play"
    assert {p for g in repaired["detail"]["before"] for p in (g["first"], g["second"])} >= {"B"}
    assert log[4]["table"] == table and log[4]["detail"]["score"] == [25, 9]
    text = _cli(url, "tournament", "log", tid).stdout.splitlines()
    assert len(text) == 5 and text[2].endswith(f"{getpass.getuser()}  withdrew B after round 1: fell ill")
    assert text[3].endswith("paired round 1 again: B withdrew before play")
    assert json.loads(_cli(url, "tournament", "check", "--id", tid, "--json").stdout)["ok"]
