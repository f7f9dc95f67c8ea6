"""The federation's numbers for a Swiss tournament, from knowledge/tournament.yaml (each with its
ffc-tournament clause), and the readings the project made where the text is silent (`choices`)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FfcRules:
    win: int
    draw: int
    loss: int
    round_steps: tuple            # ((up_to or None, rounds), ...)
    ghost_score: tuple            # (its opponent's points, the ghost's)
    match_points: int
    match_boards: int
    match_minutes: int
    match_extra_minutes: int
    final_points: int
    clauses: dict                 # what -> clause id
    choices: tuple                # ({id, clause, en, fr, it}, ...)
    departs: dict                 # organiser's choice (file key) -> the clause it departs from

    def rounds_for(self, entries: int) -> int:
        """How many rounds a tournament of `entries` players plays (ffc-tournament:1.13)."""
        for up_to, rounds in self.round_steps:
            if up_to is None or entries <= up_to:
                return rounds
        return self.round_steps[-1][1]

    def victory_points(self, own: int, other: int) -> int:
        """2 for a win, 1 for a draw, 0 for a loss (ffc-tournament:1.9)."""
        return self.win if own > other else self.draw if own == other else self.loss

    def choice(self, choice_id: str) -> dict:
        return next(c for c in self.choices if c["id"] == choice_id)


def rules_of(tournament_yaml: dict) -> FfcRules:
    """The FFC's rules of tournament.yaml as read (Knowledge.ffc keeps them with the root)."""
    doc = tournament_yaml["ffc_swiss"]
    vp, limits = doc["victory_points"], doc["match_limits"]
    return FfcRules(
        win=vp["win"], draw=vp["draw"], loss=vp["loss"],
        round_steps=tuple((s["up_to"], s["rounds"]) for s in doc["rounds"]["steps"]),
        ghost_score=tuple(doc["ghost"]["score"]),
        match_points=limits["points"]["value"], match_boards=limits["boards"]["value"],
        match_minutes=limits["minutes"]["value"], match_extra_minutes=limits["minutes"]["extra_minutes"],
        final_points=doc["final"]["points"],
        clauses={"victory_points": vp["clause"], "rounds": doc["rounds"]["clause"], "ghost": doc["ghost"]["clause"],
                 "points": limits["points"]["clause"], "boards": limits["boards"]["clause"],
                 "minutes": limits["minutes"]["clause"], "final": doc["final"]["clause"],
                 "pairing": doc["pairing"]["clause"], "tables": doc["tables"]["clause"],
                 **{c["id"]: c["clause"] for c in doc["criteria"]}},
        choices=tuple(dict(c) for c in doc["choices"]),
        departs={k: v["clause"] for k, v in doc["organiser_choices"].items()},
    )
