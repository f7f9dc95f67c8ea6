"""Protest and disqualification forms: their fields, what makes one complete, its filing deadline.

A form is a kind and a mapping of fields. Each field is checked for its shape as it is entered
(`normalize`), so that a draft can be saved keystroke by keystroke; whether the form can be
filed (required fields, a real clause, a ground of its ruleset, times in order) is `check_complete`.
The rules that differ between rulesets (deadline, grounds, the clauses of each step) come from
knowledge/forms.yaml through `forms_rules`.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from referee_app.core import validation
from referee_app.core.errors import BadInput
from referee_app.languages import LANGUAGES
from .clauses import DisqualificationRules, ProtestRules

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

KINDS = ("protest", "disqualification")
STATUSES = ("draft", "filed", "decided")
OUTCOMES = ("upheld", "rejected")
SIDES = ("first", "second")
# A board lasts minutes: an end a day after the protest announced during it is a typing slip.
BOARD_PLAUSIBLE = timedelta(days=1)


@dataclass(frozen=True)
class FieldSpec:
    name: str
    type: str          # text | label | count | time | pair | score | side | clause | ruleset | lang
    required: bool = False


_COMMON_HEAD = (
    FieldSpec("tournament", "text", True),
    FieldSpec("round", "label", True),
    FieldSpec("table", "label", True),
    FieldSpec("match", "label"),
)
_COMMON_TAIL = (
    FieldSpec("ruleset", "ruleset"),
    FieldSpec("lang", "lang"),
    FieldSpec("filed_at", "time"),     # when the written form was handed in; set on filing if absent
    FieldSpec("director", "text"),     # the tournament director who decides it
)

FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "protest": _COMMON_HEAD + (
        FieldSpec("players", "pair", True),
        FieldSpec("protester", "side"),
        FieldSpec("referee", "text", True),
        FieldSpec("board", "count"),
        FieldSpec("score", "score"),
        FieldSpec("announced_at", "time", True),
        FieldSpec("board_ended_at", "time"),
        FieldSpec("decision", "text", True),
        FieldSpec("clause", "clause", True),
        FieldSpec("facts", "text", True),
    ) + _COMMON_TAIL,
    "disqualification": _COMMON_HEAD + (
        FieldSpec("player", "text", True),
        FieldSpec("referee", "text", True),
        FieldSpec("at", "time", True),
        FieldSpec("ground", "clause", True),
        FieldSpec("times", "count"),
        FieldSpec("facts", "text", True),
    ) + _COMMON_TAIL,
}


def check_kind(kind: str, field_name: str = "kind") -> str:
    if kind not in KINDS:
        raise BadInput(field_name, f"unknown form kind '{kind}' (known: {', '.join(KINDS)})")
    return kind


def spec(kind: str, name: str) -> FieldSpec:
    for f in FIELDS[check_kind(kind)]:
        if f.name == name:
            return f
    known = ", ".join(f.name for f in FIELDS[kind])
    raise BadInput(name, f"unknown field of a {kind} form (known: {known})")


# -- shapes --------------------------------------------------------------------------------------

from referee_app.core.storage.db import local_now as now  # noqa: E402  (one clock for every record)


def parse_time(value, field_name: str) -> datetime:
    """An aware datetime from an ISO 8601 text or a YAML timestamp; a time without offset is local."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            raise BadInput(field_name, f"'{validation.shown(value)}' is not a date and time "
                                       "(e.g. 2026-05-14T15:42:00+02:00)", "not_a_time",
                           {"value": validation.shown(value)}) from None
    else:
        # YAML reads a bare 15:42 as the number 942 (base 60): refuse rather than guess a date
        raise BadInput(field_name, "give a date and time, e.g. 2026-05-14T15:42:00+02:00", "no_time")
    validation.moment(moment, field_name)
    return moment if moment.tzinfo else validation.local(moment)


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


def _text(value, name):
    if isinstance(value, (dict, list)):
        raise BadInput(name, "must be a text", "not_text")
    text = str(value).strip()
    if len(text) > validation.MAX_TEXT:
        raise BadInput(name, f"a text of {len(text)} characters is too long (at most {validation.MAX_TEXT})",
                       "too_long", {"length": len(text), "most": validation.MAX_TEXT})
    validation.text(text, name)
    return text or None


# Fields that hold a person's name: one length limit for names, in a form as at the desk.
NAMES = frozenset({"player", "referee", "director"})


def _name(value, name):
    text = _text(value, name)
    return validation.name_length(text, name) if text else text


LABEL_MAX = 40   # a round, a table, a match as the form names it


def _label(value, name):
    # A round or table is usually a number but may be a name ("final"); digits become a number so
    # that "3" typed in the window and 3 in a YAML file are the same round.
    text = _text(value, name)
    if text is None:
        return None
    if text.isascii() and text.isdigit():  # '²' is a digit to Python, not to a referee
        return validation.whole_number(text, name)
    if len(text) > LABEL_MAX:
        raise BadInput(name, f"a round or table name of {len(text)} characters is not plausible (at most {LABEL_MAX})",
                       "too_long", {"length": len(text), "most": LABEL_MAX})
    return text


def _count(value, name):
    return validation.whole_number(value, name)


def _pair(value, name, each):
    if not isinstance(value, dict):
        raise BadInput(name, f"needs {' and '.join(SIDES)}, e.g. {{first: A. Rossi, second: B. Dubois}}")
    for key in value:
        if key not in SIDES:
            raise BadInput(f"{name}.{key}", f"unknown side (known: {', '.join(SIDES)})")
    # a side left blank (a space, a tab, U+0085) is a side not given: kept as None it would pass
    # as given, file an incomplete form and break every listing of it
    given = {side: each(value[side], f"{name}.{side}") for side in SIDES if value.get(side) not in (None, "")}
    out = {side: v for side, v in given.items() if v is not None}
    return out or None


def _choice(value, name, choices):
    text = _text(value, name)
    if text is not None and text not in choices:
        raise BadInput(name, f"'{text}' is not one of {', '.join(choices)}", "not_a_choice", {"value": text})
    return text


def normalize(knowledge: Knowledge, kind: str, name: str, value):
    """The stored form of `value` for field `name`, or None for an empty one; refuses a wrong shape."""
    f = spec(kind, name)
    if value is None or value == "":
        return None
    if f.type in ("text", "clause"):
        stored = _text(value, name)
        return validation.name_length(stored, name) if stored and name in NAMES else stored
    if f.type == "ruleset":  # a closed choice, checked at once: the deadline of even a draft depends on it
        return knowledge.ruleset(_text(value, name), name).id
    if f.type == "label":
        return _label(value, name)
    if f.type == "count":
        return _count(value, name)
    if f.type == "time":
        return iso(parse_time(value, name))
    if f.type == "pair":
        return _pair(value, name, _name)
    if f.type == "score":
        return _pair(value, name, _count)
    if f.type == "side":
        return _choice(value, name, SIDES)
    if f.type == "lang":
        return _choice(value, name, LANGUAGES)
    raise AssertionError(f.type)


def normalize_all(knowledge: Knowledge, kind: str, fields: dict) -> dict:
    if not isinstance(fields, dict):
        raise BadInput("", f"a {kind} form must be a mapping of fields")
    out = {}
    for name, value in fields.items():
        stored = normalize(knowledge, kind, str(name), value)
        if stored is not None:
            out[str(name)] = stored
    return out


# -- completeness ------------------------------------------------------------------------------

def ruleset_of(knowledge: Knowledge, fields: dict) -> str:
    return fields.get("ruleset") or knowledge.forms.default_ruleset


def protest_rules(knowledge: Knowledge, fields: dict) -> ProtestRules:
    return knowledge.forms.protest(ruleset_of(knowledge, fields))


def disqualification_rules(knowledge: Knowledge, fields: dict) -> DisqualificationRules:
    return knowledge.forms.disqualification(ruleset_of(knowledge, fields))


def check_complete(knowledge: Knowledge, kind: str, fields: dict, recorded: int = 0) -> None:
    """Refuses (BadInput naming the field) a form that cannot be filed as it stands.

    `recorded` is the number of incidents recorded for a disqualification's counted ground.
    """
    for f in FIELDS[check_kind(kind)]:
        if f.required and fields.get(f.name) in (None, "", {}):
            raise BadInput(f.name, "required field is missing", "required")
        if f.type == "pair" and f.required and set(fields[f.name]) != set(SIDES):
            missing = next(s for s in SIDES if s not in fields[f.name])
            raise BadInput(f"{f.name}.{missing}", "required field is missing", "required", {"side": missing})
    if kind == "protest":
        _check_protest(knowledge, fields)
    else:
        _check_disqualification(knowledge, fields, recorded)


def _check_protest(knowledge: Knowledge, fields: dict) -> None:
    if fields["clause"] not in knowledge.kb.clauses:
        raise BadInput("clause", f"no clause '{fields['clause']}' in the rulebook", "no_clause",
                       {"value": fields["clause"]})
    protest_rules(knowledge, fields)  # the ruleset's rules must resolve
    ended = fields.get("board_ended_at")
    if not ended:
        return
    board = parse_time(ended, "board_ended_at") - parse_time(fields["announced_at"], "announced_at")
    if board < timedelta(0):
        raise BadInput("board_ended_at", "is before the oral announcement, which comes right after the incident, "
                                         "during the board", "board_before_announcement")
    if board > BOARD_PLAUSIBLE:
        raise BadInput("board_ended_at", f"is more than {BOARD_PLAUSIBLE.days} day after the oral announcement, "
                                         "made during the board: a board never lasts that long", "board_too_long",
                       {"days": BOARD_PLAUSIBLE.days})


def _check_disqualification(knowledge: Knowledge, fields: dict, recorded: int) -> None:
    rules = disqualification_rules(knowledge, fields)
    ground_id = fields["ground"]
    if ground_id not in knowledge.kb.clauses:
        raise BadInput("ground", f"no clause '{ground_id}' in the rulebook", "no_clause", {"value": ground_id})
    ground = rules.ground(ground_id)
    if ground is None:
        known = ", ".join(g.clause for g in rules.grounds)
        raise BadInput("ground", f"{ground_id} is not a ground for disqualification under {rules.ruleset} "
                                 f"(grounds: {known})", "not_a_ground",
                       {"clauses": [ground_id], "ruleset": rules.ruleset})
    if not ground.count:
        return
    times = times_of(fields, recorded)
    if times is None:
        raise BadInput("times", f"{ground_id} needs the offence more than {ground.count.more_than} times: "
                       f"record the incidents or give times", "times_missing",
                       {"clauses": [ground_id], "more_than": ground.count.more_than})
    if times <= ground.count.more_than:
        raise BadInput("times", f"{ground_id} needs the offence more than {ground.count.more_than} times, "
                       f"not {times}", "times_too_few",
                       {"clauses": [ground_id], "more_than": ground.count.more_than, "times": times})


def times_of(fields: dict, recorded: int) -> int | None:
    """How many times a counted offence happened: the recorded incidents, unless the referee states more."""
    stated = fields.get("times")
    if recorded and stated is not None:
        return max(recorded, stated)
    return recorded or stated


# -- the filing deadline -----------------------------------------------------------------------

def deadline(knowledge: Knowledge, kind: str, fields: dict) -> datetime | None:
    """When a protest's written report is due: the end of the board plus the ruleset's minutes."""
    if kind != "protest" or not fields.get("board_ended_at"):
        return None
    ended = parse_time(fields["board_ended_at"], "board_ended_at")
    return ended + timedelta(minutes=protest_rules(knowledge, fields).deadline_minutes)


def timing(knowledge: Knowledge, kind: str, fields: dict, status: str, at: datetime | None = None) -> dict:
    """The deadline, the seconds left to file it (while a draft) and whether it is late.

    A filed form is late if it was handed in after the deadline; a draft is late once the deadline
    has passed (it can still be filed, and will be marked late).
    """
    due = deadline(knowledge, kind, fields)
    out: dict = {"deadline": iso(due), "remaining_seconds": None, "late": None}
    if due is None:
        return out
    if status == "draft":
        left = int((due - (at or now())).total_seconds())
        out["remaining_seconds"] = left
        out["late"] = left < 0
    else:
        filed = fields.get("filed_at")
        out["late"] = bool(filed) and parse_time(filed, "filed_at") > due
    return out


def subject(kind: str, fields: dict) -> str:
    """Who the form is about, in one line (for listings)."""
    if kind == "protest":
        players = fields.get("players") or {}
        return " – ".join(players.get(s, "?") for s in SIDES) if players else ""
    return fields.get("player") or ""
