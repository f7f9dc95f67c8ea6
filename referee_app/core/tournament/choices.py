"""What the organiser decided where it departs from the FFC text, each with the clause it departs
from (clause ids from knowledge/tournament.yaml), in the reader's language.

The file keys are the contract's: `rounds_total`, `ghost_points`, `absent`, `avoid_rematches`.
A choice equal to the text (rounds_total equal to the FFC table, ghost_points 25) is no departure
and is not listed. Every export of a tournament carries its choices (the file, the ranking text,
SoL's phantom score); `tournament show` and the Tournament area list these departures.
"""
from __future__ import annotations

from referee_app.core.errors import BadInput
from referee_app.i18n import N_, translations
from .model import CHOICES, Tournament, apply_choices


TEXTS = {
    "rounds_total": N_("{value} rounds, where the FFC table gives {ffc} for this number of entries."),
    "ghost_points": N_("The ghost's opponent scores {value} points, where the FFC text gives {ffc}."),
    "absent": N_("{value} sits out round(s) {rounds} and plays again: no game and no points for those rounds, "
                 "where the FFC text pairs every player every round."),
    "avoid_rematches": N_("Pairing backtracks from the bottom of the table so that no two players meet twice "
                          "(the ghost included), where the FFC text pairs each player with the first one below "
                          "not yet met and accepts a rematch at the bottom."),
}


def departures(t: Tournament, lang: str = "en") -> list[dict]:
    """`[{"choice", "value", "ffc", "clause", "text"}]`, one per departure (one per absent player)."""
    _ = translations(lang).gettext
    ffc = t.ffc
    out = []

    def add(choice, value, ffc_value, text):
        out.append({"choice": choice, "value": value, "ffc": ffc_value,
                    "clause": ffc.departs[choice], "text": text})

    if t.rounds_chosen is not None and t.rounds_chosen != t.rounds_ffc:
        add("rounds_total", t.rounds_chosen, t.rounds_ffc,
            _(TEXTS["rounds_total"]).format(value=t.rounds_chosen, ffc=t.rounds_ffc))
    if t.ghost_points is not None and t.ghost_points != ffc.ghost_score[0]:
        add("ghost_points", t.ghost_points, ffc.ghost_score[0],
            _(TEXTS["ghost_points"]).format(value=t.ghost_points, ffc=ffc.ghost_score[0]))
    for player, rounds in t.absent.items():
        add("absent", {player: list(rounds)}, None,
            _(TEXTS["absent"]).format(value=player, rounds=", ".join(str(r) for r in rounds)))
    if t.avoid_rematches:
        add("avoid_rematches", True, False, _(TEXTS["avoid_rematches"]))
    return out


def first_round_affected(choice: str, value, t: Tournament) -> int:
    """The first round a change of `choice` to `value` would change: it may be made only while
    that round is not yet paired."""
    if choice == "rounds_total":
        return min(value if value is not None else t.rounds_ffc, t.rounds_total) + 1
    if choice == "ghost_points":
        return next((r for r, games in enumerate(t.rounds, 1) if any(None in g.players() for g in games)),
                    len(t.rounds) + 1)
    if choice == "avoid_rematches":
        return 2
    old, new = set(t.absent.get(value[0], ())), set(value[1])
    changed = old ^ new
    return min(changed) if changed else len(t.rounds) + 1


def changed(t: Tournament, choice: str, value) -> Tournament:
    """`t` with one choice changed, refused (BadInput) once the round it affects is paired.

    `value` is the file's value for that key; for `absent`, `(player, [rounds])`."""
    if choice not in CHOICES:
        raise BadInput("choice", f"'{choice}' is not an organiser's choice (known: {', '.join(CHOICES)})")
    doc = t.choices_doc()
    if choice == "absent":
        if not isinstance(value, tuple) or len(value) != 2:
            raise BadInput("absent", "expected a player and the rounds he sits out")
        absent = dict(doc.get("absent", {}))
        absent[value[0]] = list(value[1])
        doc["absent"] = {p: r for p, r in absent.items() if r}
    elif value is None:
        doc.pop(choice, None)
    else:
        doc[choice] = value
    new = Tournament(name=t.name, players=list(t.players), ffc=t.ffc, rounds=t.rounds, final=t.final, seed=t.seed,
                     late=dict(t.late), withdrawn=dict(t.withdrawn))
    apply_choices(new, doc)
    paired = len(t.rounds) + (1 if t.final is not None else 0)
    first = first_round_affected(choice, value, t)
    if choice == "rounds_total" and t.final is not None:
        first = 0
    if first <= paired:
        raise BadInput(choice, f"round {first} is already paired: this choice can only change rounds not yet paired")
    if choice == "rounds_total" and new.rounds_total < len(t.rounds):
        raise BadInput(choice, f"{len(t.rounds)} rounds are already paired")
    return new
