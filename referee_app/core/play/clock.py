"""The match clock the Rulings area runs: minutes and extra minutes of knowledge/tournament.yaml
(`match_clock`, ffc-tournament:1.8), read here so that the window reads no YAML itself."""
from __future__ import annotations

from typing import NamedTuple


class MatchClock(NamedTuple):
    minutes: int
    extra_minutes: int
    clause: str


def match_clock(tournament: dict) -> MatchClock:
    """`tournament`: the knowledge root's tournament.yaml as read (Knowledge.tournament)."""
    clock = tournament["match_clock"]
    return MatchClock(int(clock["minutes"]), int(clock["extra_minutes"]), clock.get("clause", ""))
