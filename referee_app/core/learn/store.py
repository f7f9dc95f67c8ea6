"""Each learner's progress in the local records: one FSRS card per question and every answer.

All the learning area's SQL is here (a later change moves the stores to SQLAlchemy). A question
is kept with its stroke, so a due question is asked again exactly as it was, ruled afresh.
"""
from __future__ import annotations

import json
from datetime import datetime

from referee_app.core.errors import BadInput
from referee_app.core.storage.db import Store, transaction
from . import schedule
from .questions import Question


class ProgressStore(Store):
    SCHEMA = """
    CREATE TABLE IF NOT EXISTS learn_cards (
        learner TEXT NOT NULL,
        question TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        clause TEXT NOT NULL,
        situation TEXT NOT NULL,
        card TEXT NOT NULL,
        due TEXT NOT NULL,
        reviews INTEGER NOT NULL DEFAULT 0,
        lapses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (learner, question)
    );
    CREATE INDEX IF NOT EXISTS learn_cards_due ON learn_cards (learner, due);
    CREATE TABLE IF NOT EXISTS learn_answers (
        id INTEGER PRIMARY KEY,
        learner TEXT NOT NULL,
        question TEXT NOT NULL,
        answered_at TEXT NOT NULL,
        correct INTEGER NOT NULL
    );
    """

    @staticmethod
    def _learner(name: str) -> str:
        name = (name or "").strip()
        if not name:
            raise BadInput("learner", "a learner needs a name")
        return name

    def record(self, learner: str, q: Question, correct: bool) -> datetime:
        """Records one answer; returns when the question is next due (UTC)."""
        learner = self._learner(learner)
        now = self.clock()
        found = self.conn.execute("SELECT card, reviews, lapses FROM learn_cards WHERE learner = ? AND question = ?",
                                  (learner, q.id)).fetchone()
        card, due = schedule.review(found["card"] if found else None, correct, now)
        reviews = (found["reviews"] if found else 0) + 1
        lapses = (found["lapses"] if found else 0) + (not correct)
        with transaction(self.conn):
            self.conn.execute(
                "INSERT INTO learn_cards (learner, question, ruleset, clause, situation, card, due, reviews, lapses) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (learner, question) DO UPDATE SET "
                "card = excluded.card, due = excluded.due, reviews = excluded.reviews, lapses = excluded.lapses",
                (learner, q.id, q.ruleset, q.deciding_clause, json.dumps(q.situation, ensure_ascii=False), card,
                 due.isoformat(), reviews, lapses))
            self.conn.execute("INSERT INTO learn_answers (learner, question, answered_at, correct) VALUES (?, ?, ?, ?)",
                              (learner, q.id, now.isoformat(), int(correct)))
        return due

    def due(self, learner: str, ruleset: str | None = None, limit: int | None = None) -> list[dict]:
        """The questions due now, longest overdue first: id, ruleset and the stroke to ask again."""
        now = schedule.utc(self.clock()).isoformat()
        sql = "SELECT question, ruleset, situation, due FROM learn_cards WHERE learner = ? AND due <= ?"
        args: list = [self._learner(learner), now]
        if ruleset:
            sql += " AND ruleset = ?"
            args.append(ruleset)
        sql += " ORDER BY due, question"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [{"id": r["question"], "ruleset": r["ruleset"], "situation": json.loads(r["situation"]), "due": r["due"]}
                for r in self.conn.execute(sql, args)]

    def summary(self, learner: str, ruleset: str | None = None) -> dict:
        """What the learner masters and what is due, in all and clause by clause."""
        now = schedule.utc(self.clock()).isoformat()
        sql = "SELECT clause, card, due, reviews, lapses FROM learn_cards WHERE learner = ?"
        args: list = [self._learner(learner)]
        if ruleset:
            sql += " AND ruleset = ?"
            args.append(ruleset)
        by_clause: dict[str, dict] = {}
        total = {"seen": 0, "mastered": 0, "due": 0}
        for row in self.conn.execute(sql + " ORDER BY clause", args):
            entry = by_clause.setdefault(row["clause"], {"clause": row["clause"], "seen": 0, "mastered": 0, "due": 0})
            for bucket in (entry, total):
                bucket["seen"] += 1
                bucket["mastered"] += schedule.mastered(row["card"])
                bucket["due"] += row["due"] <= now
        answers = self.conn.execute("SELECT COUNT(*), COALESCE(SUM(correct), 0) FROM learn_answers WHERE learner = ?",
                                    (args[0],)).fetchone()
        return {"learner": args[0], **total, "answers": answers[0], "correct": answers[1],
                "clauses": list(by_clause.values())}

    def learners(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT DISTINCT learner FROM learn_cards ORDER BY learner")]
