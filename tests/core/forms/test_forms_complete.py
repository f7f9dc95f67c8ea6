"""check_complete, the last check before a form is filed: each refusal, the field it names and its
message word for word (the command line and the window print them), and what it lets through."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.forms.fields import check_complete
from support.kbcopy import installed

PROTEST = {"tournament": "Open de Cannes", "round": 3, "table": 7,
           "players": {"first": "A. Rossi", "second": "B. Dubois"}, "referee": "C. Martin", "ruleset": "icf",
           "board": 4, "announced_at": "2026-05-14T15:42:00+02:00", "board_ended_at": "2026-05-14T15:49:00+02:00",
           "decision": "Queen returned", "clause": "icf-fr:3.12.d", "facts": "Free text", "lang": "fr"}
DISQUALIFICATION = {"tournament": "Open de Cannes", "round": 3, "table": 7, "player": "A. Rossi",
                    "referee": "C. Martin", "at": "2026-05-14T16:05:00+02:00", "ground": "icf-fr:4.2.b",
                    "facts": "Free text", "lang": "it"}
COUNTED = {**DISQUALIFICATION, "ground": "icf-fr:4.2.h"}   # a repeated disturbance: more than 3 times


def _grounds(ruleset: str) -> str:
    return ", ".join(g.clause for g in installed().forms.disqualification(ruleset).grounds)


@pytest.mark.parametrize("kind,fields,recorded,field,problem", [
    ("nope", DISQUALIFICATION, 0, "kind", "unknown form kind 'nope' (known: protest, disqualification)"),
    ("protest", {**PROTEST, "tournament": ""}, 0, "tournament", "required field is missing"),
    ("protest", {**PROTEST, "round": None}, 0, "round", "required field is missing"),
    ("protest", {k: v for k, v in PROTEST.items() if k != "facts"}, 0, "facts", "required field is missing"),
    ("protest", {**PROTEST, "players": {}}, 0, "players", "required field is missing"),
    ("protest", {**PROTEST, "players": {"first": "A"}}, 0, "players.second", "required field is missing"),
    ("protest", {**PROTEST, "players": {"second": "B"}}, 0, "players.first", "required field is missing"),
    ("protest", {**PROTEST, "clause": "icf-fr:99"}, 0, "clause", "no clause 'icf-fr:99' in the rulebook"),
    ("protest", {**PROTEST, "board_ended_at": "2026-05-14T15:40:00+02:00"}, 0, "board_ended_at",
     "is before the oral announcement, which comes right after the incident, during the board"),
    ("protest", {**PROTEST, "board_ended_at": "2026-05-15T15:43:00+02:00"}, 0, "board_ended_at",
     "is more than 1 day after the oral announcement, made during the board: a board never lasts that long"),
    ("disqualification", {**DISQUALIFICATION, "player": None}, 0, "player", "required field is missing"),
    ("disqualification", {**DISQUALIFICATION, "ground": "icf-fr:99"}, 0, "ground", "no clause 'icf-fr:99' in the rulebook"),
    ("disqualification", {**DISQUALIFICATION, "ground": "icf-fr:3.12.d"}, 0, "ground",
     f"icf-fr:3.12.d is not a ground for disqualification under icf (grounds: {_grounds('icf')})"),
    ("disqualification", {**DISQUALIFICATION, "ruleset": "it"}, 0, "ground",
     f"icf-fr:4.2.b is not a ground for disqualification under it (grounds: {_grounds('it')})"),
    ("disqualification", COUNTED, 0, "times",
     "icf-fr:4.2.h needs the offence more than 3 times: record the incidents or give times"),
    ("disqualification", COUNTED, 3, "times", "icf-fr:4.2.h needs the offence more than 3 times, not 3"),
    ("disqualification", {**COUNTED, "times": 2}, 0, "times", "icf-fr:4.2.h needs the offence more than 3 times, not 2"),
    ("disqualification", {**COUNTED, "times": 3}, 2, "times", "icf-fr:4.2.h needs the offence more than 3 times, not 3"),
])
def test_what_cannot_be_filed(kind, fields, recorded, field, problem):
    with pytest.raises(BadInput) as err:
        check_complete(installed(), kind, fields, recorded)
    assert (err.value.field, err.value.problem) == (field, problem)


def test_an_unknown_ruleset_is_refused_by_name():
    with pytest.raises(BadInput) as err:
        check_complete(installed(), "protest", {**PROTEST, "ruleset": "nope"})
    assert err.value.field == "ruleset" and err.value.problem.startswith("unknown ruleset 'nope'")


@pytest.mark.parametrize("kind,fields,recorded", [
    ("protest", PROTEST, 0),
    ("protest", {k: v for k, v in PROTEST.items() if k != "board_ended_at"}, 0),   # the board goes on
    ("protest", {**PROTEST, "board_ended_at": "2026-05-15T15:42:00+02:00"}, 0),    # a day exactly
    ("protest", {**PROTEST, "board_ended_at": PROTEST["announced_at"]}, 0),
    ("disqualification", DISQUALIFICATION, 0),
    ("disqualification", COUNTED, 4),                                 # counted from the incidents
    ("disqualification", {**COUNTED, "times": 4}, 0),                 # stated by the referee
    ("disqualification", {**COUNTED, "times": 2}, 4),                 # the incidents count more
    ("disqualification", {**COUNTED, "times": 5}, 3),                 # the referee states more
])
def test_what_can_be_filed(kind, fields, recorded):
    assert check_complete(installed(), kind, fields, recorded) is None
