"""Each learner's progress in the local records: one FSRS card per question and every answer.

All the learning area's SQL is here. A question
is kept with its stroke, so a due question is asked again exactly as it was, ruled afresh.
"""
from __future__ import annotations

import json
from datetime import datetime

from referee_app.core.errors import BadInput
from referee_app.core.storage.db import Store
from . import schedule
from .questions import Question


class ProgressStore(Store):
    @staticmethod
    def _learner(name: str) -> str:
        name = (name or "").strip()
        if not name:
            raise BadInput("learner", "a learner needs a name", "learner_missing")
        return name

    def record(self, learner: str, q: Question, correct: bool) -> datetime:
        """Records one answer; returns when the question is next due (UTC)."""
        learner = self._learner(learner)
        now = self.clock()
        key = {"learner": learner, "question": q.id}
        with self.transaction():
            lock = " FOR UPDATE" if self.dialect == "postgresql" else ""
            found = self.first("SELECT card, reviews, lapses FROM learn_cards WHERE learner = :learner "
                               f"AND question = :question{lock}", key)
            card, due = schedule.review(found["card"] if found else None, correct, now)
            reviews = (found["reviews"] if found else 0) + 1
            lapses = (found["lapses"] if found else 0) + (not correct)
            self.write(
                "INSERT INTO learn_cards (learner, question, ruleset, clause, situation, card, due, reviews, lapses) "
                "VALUES (:learner, :question, :ruleset, :clause, :situation, :card, :due, :reviews, :lapses) "
                "ON CONFLICT (learner, question) DO UPDATE SET "
                "card = excluded.card, due = excluded.due, reviews = excluded.reviews, lapses = excluded.lapses",
                {**key, "ruleset": q.ruleset, "clause": q.deciding_clause,
                 "situation": json.dumps(q.situation, ensure_ascii=False), "card": card, "due": due.isoformat(),
                 "reviews": reviews, "lapses": lapses})
            self.write("INSERT INTO learn_answers (learner, question, answered_at, correct) "
                       "VALUES (:learner, :question, :at, :correct)", {**key, "at": now.isoformat(), "correct": int(correct)})
        return due

    def due(self, learner: str, ruleset: str | None = None, limit: int | None = None) -> list[dict]:
        """The questions due now, longest overdue first: id, ruleset and the stroke to ask again."""
        now = schedule.utc(self.clock()).isoformat()
        sql = "SELECT question, ruleset, situation, due FROM learn_cards WHERE learner = :learner AND due <= :now"
        args: dict = {"learner": self._learner(learner), "now": now}
        if ruleset:
            sql += " AND ruleset = :ruleset"
            args["ruleset"] = ruleset
        sql += " ORDER BY due, question"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [{"id": r["question"], "ruleset": r["ruleset"], "situation": json.loads(r["situation"]), "due": r["due"]}
                for r in self.all(sql, args)]

    def summary(self, learner: str, ruleset: str | None = None) -> dict:
        """What the learner masters and what is due, in all and clause by clause."""
        now = schedule.utc(self.clock()).isoformat()
        sql = "SELECT clause, card, due, reviews, lapses FROM learn_cards WHERE learner = :learner"
        args: dict = {"learner": self._learner(learner)}
        if ruleset:
            sql += " AND ruleset = :ruleset"
            args["ruleset"] = ruleset
        by_clause: dict[str, dict] = {}
        total = {"seen": 0, "mastered": 0, "due": 0}
        for row in self.all(sql + " ORDER BY clause", args):
            entry = by_clause.setdefault(row["clause"], {"clause": row["clause"], "seen": 0, "mastered": 0, "due": 0})
            for bucket in (entry, total):
                bucket["seen"] += 1
                bucket["mastered"] += schedule.mastered(row["card"])
                bucket["due"] += row["due"] <= now
        answers = self.first("SELECT COUNT(*) AS n, COALESCE(SUM(correct), 0) AS correct FROM learn_answers "
                             "WHERE learner = :learner", {"learner": args["learner"]})
        return {"learner": args["learner"], **total, "answers": answers["n"], "correct": int(answers["correct"]),
                "clauses": list(by_clause.values())}

    def learners(self) -> list[str]:
        return [r["learner"] for r in self.all("SELECT DISTINCT learner FROM learn_cards ORDER BY learner")]
