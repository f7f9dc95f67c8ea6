"""The match clock the Rulings area runs: minutes and extra minutes of knowledge/tournament.yaml
(`match_clock`, ffc-tournament:1.8), read here so that the window reads no YAML itself."""
from __future__ import annotations

from typing import NamedTuple


class MatchClock(NamedTuple):
    minutes: int
    extra_minutes: int
    clause: str


def match_clock(tournament: dict | None = None) -> MatchClock:
    """`tournament`: the knowledge root's tournament.yaml as read (the `Knowledge.tournament` being
    built on branch `ruling`); without it, the shipped or configured knowledge root's."""
    if tournament is None:
        from referee_app.core.knowledge.loader import knowledge_root
        from referee_app.core.knowledge.files import load_file

        tournament = load_file(knowledge_root() / "tournament.yaml")
    clock = tournament["match_clock"]
    return MatchClock(int(clock["minutes"]), int(clock["extra_minutes"]), clock.get("clause", ""))
