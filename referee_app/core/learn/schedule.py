"""When each question comes back: the FSRS scheduler (the `fsrs` package), one card per question.

A right answer rates the card Good, a wrong one Again. Fuzzing is off, so two learners with the
same answers get the same days, and a test with a fixed clock knows them.
"""
from __future__ import annotations

from datetime import datetime, timezone

from fsrs import Card, Rating, Scheduler, State

# A question is mastered once FSRS expects it to be recalled nine times in ten after three weeks
# (stability, in days, at least this): what Anki calls a mature card.
MASTERED_STABILITY_DAYS = 21.0
_SCHEDULER = Scheduler(enable_fuzzing=False)


def utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("a review time needs its time zone")
    return moment.astimezone(timezone.utc)


def review(card_json: str | None, correct: bool, when: datetime) -> tuple[str, datetime]:
    """The card after one answer given at `when`, and when it is next due (UTC)."""
    card = Card.from_json(card_json) if card_json else Card()
    card, _log = _SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, review_datetime=utc(when))
    return card.to_json(), card.due


def mastered(card_json: str) -> bool:
    card = Card.from_json(card_json)
    return card.state == State.Review and (card.stability or 0) >= MASTERED_STABILITY_DAYS


def recall(card_json: str, when: datetime) -> float:
    """The probability FSRS gives of recalling the answer at `when`."""
    return _SCHEDULER.get_card_retrievability(Card.from_json(card_json), utc(when))
