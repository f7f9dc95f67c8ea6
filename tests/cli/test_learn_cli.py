"""`carrom-referee quiz`: the questions, their key and clauses as JSON; diagrams; bad input."""
from __future__ import annotations

import json

from support.cli import run_cli
from referee_app.core.learn.diagram import piece_counts
from referee_app.core.learn.questions import outcome
from referee_app.core.rules.ruling import rule
from support.kbcopy import installed


def test_quiz_json_gives_questions_choices_key_and_clauses():
    done = run_cli("quiz", "--ruleset", "it", "--count", "5", "--seed", "7", "--json", "--lang", "it")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["ruleset"] == "it" and len(doc["questions"]) == 5
    for q in doc["questions"]:
        assert {"prompt", "question", "choices", "answer", "answer_key", "clauses", "deciding_clause", "why", "steps"} <= set(q)
        assert q["choices"][q["answer"]]["outcome"] == q["answer_key"] == outcome(rule(installed(), q["situation"], "it"))
        assert q["clauses"][0]["id"] == q["deciding_clause"]
        assert q["question"] == "Che cosa succede?"


def test_quiz_selection_options_after_the_action(tmp_path):
    one = run_cli("quiz", "--endings", "--count", "3", "--seed", "2", "--json")
    assert one.returncode == 0, one.stderr
    assert all(q["answer_key"]["over"] for q in json.loads(one.stdout)["questions"])


def test_quiz_diagram_writes_svg(tmp_path):
    situation = tmp_path / "s.yaml"
    situation.write_text("ruleset: icf\nbefore: {own_on_board: 6, opponent_on_board: 7}\n"
                         "stroke: {pocketed: {queen: true}}\n")
    out = tmp_path / "d.svg"
    done = run_cli("quiz", "diagram", str(situation), "--svg", str(out), "--json")
    assert done.returncode == 0, done.stderr
    counts = piece_counts(out.read_text())
    assert json.loads(done.stdout)["pieces"] == counts
    assert counts["before"]["own"] == 6 and counts["after"]["queen"] == "awaiting_cover"
    png = tmp_path / "d.png"
    done = run_cli("quiz", "diagram", str(situation), "--png", str(png), "--lang", "it")
    assert done.returncode == 0, done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_bad_input_is_one_line_and_status_2(tmp_path):
    for args, field in ((["quiz", "--count", "0"], "count"), (["quiz", "--ruleset", "nope"], "ruleset"),
                        (["quiz", "--clause", "icf-fr:9.9"], "clause"),
                        (["quiz", "diagram", "-"], "--svg"),
                        (["quiz", "diagram", str(tmp_path / "missing.yaml"), "--svg", str(tmp_path / "x.svg")], "FILE")):
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and field in done.stderr and "Traceback" not in done.stderr


def test_progress_of_a_learner(tmp_path, monkeypatch):
    from referee_app.core.learn.questions import Scope, generate
    from referee_app.core.learn.store import ProgressStore
    from referee_app.core.storage.db import connect

    db = tmp_path / "records.sqlite3"
    q = generate(installed(), Scope("it"), 1, seed=1)[0]
    with ProgressStore(connect(db)) as store:
        store.record("Ada", q, correct=False)
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(db))
    done = run_cli("quiz", "progress", "--learner", "Ada", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["seen"], summary["answers"], summary["correct"], summary["mastered"]) == (1, 1, 0, 0)
    assert summary["clauses"] == [{"clause": q.deciding_clause, "seen": 1, "mastered": 0, "due": 0}]
    assert [d["id"] for d in summary["due_questions"]] == []  # a wrong answer comes back in minutes, not now


def test_chapters_listed_in_the_learners_language():
    done = run_cli("quiz", "chapters", "--ruleset", "icf", "--lang", "fr", "--json")
    assert done.returncode == 0, done.stderr
    chapters = {c["id"]: c["title"] for c in json.loads(done.stdout)}
    assert chapters["icf-fr/03.12-reine"] == "La reine"
