"""What a clause decides, for people: its rules in plain words, its worked examples with the ruling
each gives, the clauses whose rules are exceptions to it, and the rulesets that apply it.

`show ID` prints it and the rulebook's clause page lays it out, so both say the same. The words
come from the gettext catalogs in the language asked for (`translations(lang)`), the names of
facts and values from the tables below, which the clause page's examples read too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.core.knowledge.model import Clause, KnowledgeBase

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge
from referee_app.i18n import N_, translations
from referee_app.languages import LANGUAGES

# The facts a rule tests and the fields of a situation or a ruling, in words.
FIELD_LABELS = {
    "before": N_("Before the stroke"), "stroke": N_("The stroke"), "after": N_("After the ruling"),
    "own_on_board": N_("own coins on the board"), "opponent_on_board": N_("opponent's coins on the board"),
    "queen": N_("queen"), "break": N_("break stroke"), "break_attempt": N_("attempt at the break"),
    "dues": N_("coins owed"), "opponent_dues": N_("coins the opponent owes"), "score": N_("score"),
    "striker": N_("striker"), "opponent": N_("opponent"), "own": N_("own coins"),
    "touched_coin": N_("the striker touched a coin"), "pocketed": N_("pocketed"), "off_board": N_("off the board"),
    "foul": N_("foul"), "turn": N_("turn"), "break_made": N_("break made"), "returned": N_("returned to the centre"),
    "board": N_("board"), "over": N_("board over"), "winner": N_("winner"), "points": N_("points"),
    "clauses": N_("clauses"), "explanation": N_("explanation"), "ruleset": N_("ruleset"),
    "penalty": N_("penalty coins"),
    "first_on_board": N_("first side's coins on the board"), "second_on_board": N_("second side's coins on the board"),
    "own_pocketed": N_("own coins pocketed"), "opponent_pocketed": N_("opponent's coins pocketed"),
    "queen_pocketed": N_("queen pocketed"), "striker_pocketed": N_("striker pocketed"),
    "own_off": N_("own coins off the board"), "opponent_off": N_("opponent's coins off the board"),
    "queen_off": N_("queen off the board"), "striker_off": N_("striker off the board"),
    "own_pocketed_earlier": N_("an own coin pocketed earlier"), "own_left": N_("own coins left"),
    "opponent_left": N_("opponent's coins left"), "pocketed_any": N_("a coin or the queen pocketed"),
    "queen_after": N_("queen after the stroke"), "after_break": N_("the stroke right after the break"),
    "own_last_fell": N_("the striking side's last coin fell"),
    "opponent_last_fell": N_("the opponent's last coin fell"),
}
VALUE_LABELS = {
    "on_board": N_("on the board"), "awaiting_cover": N_("awaiting its cover"),
    "covered_by_striker": N_("covered by the striking side"), "covered_by_opponent": N_("covered by the opponent"),
    "continues": N_("continues"), "passes": N_("passes to the opponent"),
    "stays": N_("stay in the pockets"), "returned": N_("returned to the board"),
    "none": N_("none"),  # no foul called
}


def label(key, lang: str) -> str:
    key = str(key)
    return translations(lang).gettext(FIELD_LABELS[key]) if key in FIELD_LABELS else key.replace("_", " ")


def value_text(value, lang: str) -> str:
    _ = translations(lang).gettext
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return _("none")
    if isinstance(value, list):
        return ", ".join(value_text(v, lang) for v in value) if value else _("none")
    if isinstance(value, dict):
        return ", ".join(_("{label}: {value}").format(label=label(k, lang), value=value_text(v, lang))
                         for k, v in value.items())
    if isinstance(value, str) and value in VALUE_LABELS:
        return _(VALUE_LABELS[value])
    return str(value)


def condition_text(fact: str, condition, lang: str) -> str:
    """One test of a rule's `when`: "own coins pocketed: at least 1"."""
    _ = translations(lang).gettext
    if isinstance(condition, dict) and len(condition) == 1:
        (op, bound), = condition.items()
        bound = bound[1:].replace("_", " ") if isinstance(bound, str) and bound.startswith("$") else value_text(bound, lang)
        phrase = {"min": _("at least {value}"), "max": _("at most {value}"), "below": _("below {value}"),
                  "not": _("not {value}")}.get(op)
        if phrase:
            return _("{label}: {value}").format(label=label(fact, lang), value=phrase.format(value=bound))
    if isinstance(condition, list):
        condition_words = _("one of {values}").format(values=value_text(condition, lang))
        return _("{label}: {value}").format(label=label(fact, lang), value=condition_words)
    return _("{label}: {value}").format(label=label(fact, lang), value=value_text(condition, lang))


def rule_words(raw: dict, lang: str) -> dict[str, str]:
    """A rule of `decides` as two sentences: when it applies, and what it decides."""
    when = raw.get("when") or {}
    then = raw.get("then") or {}
    _ = translations(lang).gettext
    return {
        "when": "; ".join(condition_text(f, c, lang) for f, c in when.items()) or _("always"),
        "then": "; ".join(_("{label}: {value}").format(label=label(k, lang), value=value_text(v, lang))
                          for k, v in then.items()),
    }


def _rule_id(clause: Clause, raw: dict, n: int) -> str:
    return f"{clause.id}/{raw.get('name') or n}"


def rules_of(clause: Clause) -> list[dict]:
    out = []
    for n, raw in enumerate(clause.decides, 1):
        if not isinstance(raw, dict):
            continue
        words = {lang: rule_words(raw, lang) for lang in LANGUAGES}
        entry: dict = {"id": _rule_id(clause, raw, n),
                 "when": {lang: w["when"] for lang, w in words.items()},
                 "then": {lang: w["then"] for lang, w in words.items()},
                 "exception_to": [str(t) for t in raw.get("exception_to") or []]}
        if raw.get("default"):
            entry["default"] = True
        out.append(entry)
    return out


def exceptions_to(kb: KnowledgeBase, clause: Clause) -> list[str]:
    """The clauses with a rule that is an exception to this clause or to one of its rules."""
    targets = {clause.id} | {_rule_id(clause, raw, n) for n, raw in enumerate(clause.decides, 1) if isinstance(raw, dict)}
    found = []
    for other in kb.clauses.values():
        pointing = [t for raw in other.decides if isinstance(raw, dict) for t in raw.get("exception_to") or []]
        if other.id != clause.id and (set(map(str, pointing + other.exception_to)) & targets):
            found.append(other.id)
    return found


def rulesets_using(clause: Clause, rulesets: dict) -> list[str]:
    """The rulesets whose sources hold the clause and that do not disable it, or that borrow it."""
    out = []
    for rid, rs in rulesets.items():
        chain, r = [], rs
        while r is not None:
            chain.append(r)
            r = rulesets.get(r.extends) if r.extends else None
        disabled = {e.get("clause") for r in chain for e in r.raw.get("disables") or []}
        borrowed = {e.get("clause") for r in chain for e in r.raw.get("borrows") or []}
        if clause.id in borrowed or (clause.source in rs.all_sources(rulesets) and clause.id not in disabled):
            out.append(rid)
    return out


def _holds(expect, got) -> bool:
    if isinstance(expect, dict):
        return isinstance(got, dict) and all(_holds(v, got.get(k)) for k, v in expect.items())
    return expect == got


def examples_of(knowledge: Knowledge, clause: Clause) -> list[dict]:
    """Each worked example with the ruling the engine gives for it now, and whether it is the one
    the example expects."""
    from referee_app.core.errors import BadInput
    from referee_app.core.rules.engine import Conflict, NoRule
    from referee_app.core.rules.ruling import rule

    rulesets = knowledge.rulesets
    using = rulesets_using(clause, rulesets)
    home = next((rid for rid, rs in rulesets.items() if clause.source in rs.sources), using[0] if using else None)
    out = []
    for ex in clause.examples:
        if not isinstance(ex, dict) or "situation" not in ex:
            continue
        ruleset = ex.get("ruleset") or home
        entry = {"name": ex.get("name", ""), "ruleset": ruleset, "situation": ex["situation"],
                 "expect": ex.get("expect") or {}}
        if ex.get("titles"):
            entry["titles"] = dict(ex["titles"])  # the name in the other languages
        try:
            ruling = rule(knowledge, ex["situation"], ruleset)
        except (BadInput, ValueError, NoRule, Conflict) as exc:   # the rules leave it open: said, not ruled
            entry.update(ruling=None, error=str(exc), holds=False)
        else:
            expect = dict(entry["expect"])
            if ruling["board"]["over"]:
                expect.pop("turn", None)  # the turn means nothing once the board is over
            entry.update(ruling=ruling, holds=_holds(expect, ruling))
        out.append(entry)
    return out


def clause_logic(knowledge: Knowledge, clause: Clause) -> dict:
    """The fields `show ID --json` adds to the clause's record."""
    return {"rules": rules_of(clause), "examples": examples_of(knowledge, clause),
            "exceptions": exceptions_to(knowledge.kb, clause), "rulesets": rulesets_using(clause, knowledge.rulesets)}
