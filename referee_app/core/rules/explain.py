"""The ruling in plain words for the referee, in French, Italian and English: why, then what.

Why: for each clause that decided a part of the ruling, "ICF 3.12 c applies, not ICF 3.6 a:"
and the facts its rule tested, read from the derivation (derivation.py), so it names exactly
the paragraphs the trace names. What: what goes back, who plays, who won, read from the
ruling itself, so it can never say something the ruling does not. Every sentence goes through
the project's gettext catalogs with the language passed in (plurals by ngettext); nothing here
reads the interface's language.
"""
from __future__ import annotations

from functools import lru_cache

from referee_app.core.clause_labels import label
from referee_app.i18n import N_, translations
from referee_app.languages import LANGUAGES


@lru_cache(maxsize=None)
def catalog(lang: str):
    return translations(lang)


def reference(kb, clause_id: str, lang: str) -> str:
    """A clause as its reader names it: "ICF 3.12 c", "regola 53", "AICF 13" (clause_labels.label)."""
    key = (id(kb), clause_id, lang)
    hit = _references.get(key)
    if hit is None:  # a ruling names a handful of clauses, thousands of times: worth keeping
        if len(_references) > 20000:
            _references.clear()
        hit = _references[key] = label(clause_id, lang, kb)
    return hit


_references: dict[tuple, str] = {}


# --- why: the facts a deciding rule tested -----------------------------------------------------

_QUIET = {("foul", "none"), ("own_off", 0), ("opponent_off", 0), ("queen_off", False), ("striker_off", False),
          ("striker_pocketed", False)}


def fact_phrase(t, fact: str, value, foul_name) -> str | None:
    """The fact as the rule saw it; None for a guard not worth saying (no foul, nothing off)."""
    if (fact, value) in _QUIET:
        return None
    if fact == "foul":
        return t.gettext("the foul: {name}").format(name=foul_name(value))
    return _phrase(t, fact, value)


_YES_NO = {
    "break": (N_("it is not the break"), N_("it is the break")),
    "touched_coin": (N_("the striker touched no coin"), N_("the striker touched a coin")),
    "queen_pocketed": (N_("the queen was not pocketed"), N_("the queen was pocketed")),
    "striker_pocketed": (None, N_("the striker was pocketed")),
    "queen_off": (None, N_("the queen left the board")),
    "striker_off": (None, N_("the striker left the board")),
    "own_pocketed_earlier": (N_("none of the striking side's coins had been pocketed before"),
                             N_("a coin of the striking side had been pocketed before")),
    "pocketed_any": (N_("neither a coin nor the queen was pocketed"), N_("a coin or the queen was pocketed")),
    "after_break": (N_("it is not the stroke right after the break"), N_("it is the stroke right after the break")),
    "own_last_fell": (N_("the striking side's last coin did not fall with this stroke"),
                      N_("the striking side's last coin fell with this stroke")),
    "opponent_last_fell": (N_("the opponent's last coin did not fall with this stroke"),
                           N_("the opponent's last coin fell with this stroke")),
}
_QUEEN = {
    "queen": {"on_board": N_("the queen was on the board"), "awaiting_cover": N_("the queen awaited its cover"),
              "covered_by_striker": N_("the striking side held the covered queen"),
              "covered_by_opponent": N_("the opponent held the covered queen")},
    "queen_after": {"on_board": N_("the queen goes back on the board"),
                    "awaiting_cover": N_("the queen now awaits its cover"),
                    "covered_by_striker": N_("the queen is now the striking side's"),
                    "covered_by_opponent": N_("the queen is now the opponent's")},
}


@lru_cache(maxsize=4096)
def _phrase(t, fact: str, value) -> str:
    if fact in _QUEEN:
        return t.gettext(_QUEEN[fact][value])
    if isinstance(value, bool):
        return t.gettext(_YES_NO[fact][value])
    return _count_phrase(t, fact, value)


def _count_phrase(t, fact, n):
    _, ngettext = t.gettext, t.ngettext
    if fact == "break_attempt":
        return _("attempt {n} at the break").format(n=n)
    if fact == "own_pocketed":
        return _("no coin of the striking side was pocketed") if n == 0 else ngettext(
            "{n} coin of the striking side was pocketed", "{n} coins of the striking side were pocketed", n).format(n=n)
    if fact == "opponent_pocketed":
        return _("no coin of the opponent was pocketed") if n == 0 else ngettext(
            "{n} coin of the opponent was pocketed", "{n} coins of the opponent were pocketed", n).format(n=n)
    if fact == "own_off":
        return ngettext("{n} coin of the striking side left the board",
                        "{n} coins of the striking side left the board", n).format(n=n)
    if fact == "opponent_off":
        return ngettext("{n} coin of the opponent left the board", "{n} coins of the opponent left the board",
                        n).format(n=n)
    if fact == "own_left":
        return _("the striking side has no coin left on the board") if n == 0 else ngettext(
            "the striking side has {n} coin left on the board", "the striking side has {n} coins left on the board",
            n).format(n=n)
    if fact == "opponent_left":
        return _("the opponent has no coin left on the board") if n == 0 else ngettext(
            "the opponent has {n} coin left on the board", "the opponent has {n} coins left on the board",
            n).format(n=n)
    if fact == "own_on_board":
        return ngettext("the striking side had {n} coin on the board", "the striking side had {n} coins on the board",
                        n).format(n=n)
    if fact == "opponent_on_board":
        return ngettext("the opponent had {n} coin on the board", "the opponent had {n} coins on the board",
                        n).format(n=n)
    if fact == "dues":
        return _("the striking side owed no penalty coin") if n == 0 else ngettext(
            "the striking side owed {n} penalty coin", "the striking side owed {n} penalty coins", n).format(n=n)
    return _("the opponent owed no penalty coin") if n == 0 else ngettext(
        "the opponent owed {n} penalty coin", "the opponent owed {n} penalty coins", n).format(n=n)


def why_plan(kb, derivation: dict, aspects) -> list[tuple]:
    """Per clause that decided a part (in the order of the parts, definitions left out): the
    clauses it set aside, the facts its rule tested, whether it is a base case. The same in
    every language, so worked out once."""
    plan: list = []
    index: dict = {}
    for aspect in aspects:
        entry = derivation.get(aspect)
        if entry is None or _is_definition(kb, entry["clause"]):
            continue
        clause = entry["clause"]
        if clause not in index:
            index[clause] = len(plan)
            plan.append((clause, [], entry["tested"], entry["default"]))
        elif plan[index[clause]][3] and not entry["default"]:  # say what the specific rule of it tested
            plan[index[clause]] = (clause, plan[index[clause]][1], entry["tested"], False)
        others = plan[index[clause]][1]
        for o in entry["overridden"]:
            if o["clause"] != clause and o["clause"] not in others and not _is_definition(kb, o["clause"]):
                others.append(o["clause"])
    return plan


def why_sentences(t, kb, lang: str, plan: list[tuple], foul_name) -> list[str]:
    """One sentence per clause that decided a part: "ICF 3.12 c applies, not ICF 3.6 a: …"."""
    out = []
    for clause, overridden, tested, base_case in plan:
        reasons = [p for p in (fact_phrase(t, f, v, foul_name) for f, v in tested.items()) if p]
        reason = ", ".join(reasons) if reasons and not base_case else t.gettext("no more specific paragraph applies")
        ref = reference(kb, clause, lang)
        if overridden:
            out.append(t.gettext("{clause} applies, not {others}: {reasons}.").format(
                clause=ref, others=", ".join(reference(kb, c, lang) for c in overridden), reasons=reason))
        else:
            out.append(t.gettext("{clause} applies: {reasons}.").format(clause=ref, reasons=reason))
    return out


def _is_definition(kb, clause_id: str) -> bool:
    clause = kb.clauses.get(clause_id)
    return clause is not None and clause.kind == "definition"


# --- what: the ruling carried out ------------------------------------------------------------

def what_sentences(t, situation, ruling: dict) -> list[str]:
    _, ngettext = t.gettext, t.ngettext
    board = ruling["board"]
    if board["over"]:
        winner = board["winner"]
        loser = "opponent" if winner == "striker" else "striker"
        w, lost = board["points"][winner], board["points"][loser]
        if winner == "striker":
            return [ngettext("The striking side wins the board: {w} point to {l}.",
                             "The striking side wins the board: {w} points to {l}.", w).format(w=w, l=lost)]
        return [ngettext("The opponent wins the board: {w} point to {l}.",
                         "The opponent wins the board: {w} points to {l}.", w).format(w=w, l=lost)]
    out = [_put_back(t, ruling["returned"])]
    dues = ruling["after"]["dues"]
    if dues:
        out.append(ngettext("The striking side owes {n} penalty coin, placed as soon as one of its coins is pocketed.",
                            "The striking side owes {n} penalty coins, placed as soon as its coins are pocketed.",
                            dues).format(n=dues))
    queen = ruling["after"]["queen"]
    if queen != situation.queen:
        out += {"awaiting_cover": [_("The queen must be covered with the next stroke.")],
                "covered_by_striker": [_("The queen is covered.")],
                "covered_by_opponent": [_("The queen counts for the opponent.")]}.get(queen, [])
    if situation.break_ and not ruling["break_made"]:
        out.append(_("The break is not made: the same side tries again.") if ruling["turn"] == "continues"
                   else _("The break is not made."))
    out.append(_("The striking side plays again.") if ruling["turn"] == "continues"
               else _("The turn passes to the opponent."))
    return out


def _put_back(t, ret: dict) -> str:
    _, ngettext = t.gettext, t.ngettext
    items = []
    if ret["queen"]:
        items.append(_("the queen"))
    if ret["own"]:
        items.append(ngettext("{n} coin of the striking side", "{n} coins of the striking side",
                              ret["own"]).format(n=ret["own"]))
    if ret["opponent"]:
        items.append(ngettext("{n} coin of the opponent", "{n} coins of the opponent",
                              ret["opponent"]).format(n=ret["opponent"]))
    if not items:
        return _("Nothing goes back to the centre.")
    return _("Put back in the centre: {items}.").format(items=", ".join(items))


def explain(kb, situation, ruling: dict, derivation: dict, aspects, foul_name) -> tuple[dict, dict]:
    """({lang: why}, {lang: what}) for every language: the grounds, and the decision carried out."""
    why, what = {}, {}
    plan = why_plan(kb, derivation, aspects)
    for lang in LANGUAGES:
        t = catalog(lang)
        why[lang] = " ".join(why_sentences(t, kb, lang, plan, lambda f, lang=lang: foul_name(f, lang)))
        what[lang] = " ".join(what_sentences(t, situation, ruling))
    return why, what
