"""What a learner reads of a question: the stroke and each possible outcome, in the language
the caller names (the core keeps no language of its own: a French exam paper may be printed
while the window speaks Italian).

Every sentence of an outcome follows from one field of the outcome, so two different outcomes
never read the same.
"""
from __future__ import annotations

from referee_app.i18n import translations
from referee_app.languages import LANGUAGES


class Words:
    """gettext in one given language: `w._("…")`, `w.ngettext(…)` (the catalog tool extracts both)."""

    def __init__(self, lang: str):
        if lang not in LANGUAGES:
            from referee_app.core.errors import BadInput

            raise BadInput("lang", f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
        self.lang = lang
        self._catalog = translations(lang)

    def _(self, message: str) -> str:
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalog.ngettext(singular, plural, n)


def outcome(ruling: dict) -> dict:
    """What a question asks of a ruling: the board result, or the turn, what goes back, the queen,
    the dues left and whether the break is made. Here, beside the words that say it, so that
    drawing a ruling's board (diagram.py) does not import the question maker."""
    b = ruling["board"]
    if b["over"]:
        return {"over": True, "winner": b["winner"], "points": dict(b["points"])}
    return {"over": False, "turn": ruling["turn"], "returned": dict(ruling["returned"]),
            "queen": ruling["after"]["queen"], "dues": ruling["after"]["dues"], "break_made": ruling["break_made"]}


def _joined(w: Words, items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return w._("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _pieces(w: Words, own: int, opponent: int, queen: bool, striker: bool) -> list[str]:
    items = []
    if own:
        items.append(w.ngettext("{n} coin of the striking side", "{n} coins of the striking side", own).format(n=own))
    if opponent:
        items.append(w.ngettext("{n} coin of the opponent", "{n} coins of the opponent", opponent).format(n=opponent))
    if queen:
        items.append(w._("the queen"))
    if striker:
        items.append(w._("the striker"))
    return items


def queen_state(w: Words, state: str) -> str:
    return {
        "on_board": w._("the queen is on the board"),
        "awaiting_cover": w._("the queen is pocketed and must be covered with the next stroke"),
        "covered_by_striker": w._("the queen is covered by the striking side"),
        "covered_by_opponent": w._("the queen is covered by the opponent"),
    }[state]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def describe_situation(w: Words, doc: dict, foul_name) -> list[str]:
    """The stroke as sentences: the board before it, then what it did. `doc` is in the
    contract's situation format; `foul_name(foul_id, lang)` names a foul (Knowledge.foul_name)."""
    return _describe_before(w, doc.get("before") or {}) + _describe_stroke(w, doc["stroke"], foul_name)


def _describe_before(w: Words, before: dict) -> list[str]:
    out = []
    if before.get("break"):
        attempt = before.get("break_attempt", 1)
        out.append(w._("The opening break.") if attempt == 1
                   else w._("The opening break, attempt {n}.").format(n=attempt))
    own, opp = before.get("own_on_board", 9), before.get("opponent_on_board", 9)
    sides = [w.ngettext("{n} coin of the striking side", "{n} coins of the striking side", own).format(n=own)
             if own else w._("no coin of the striking side"),
             w.ngettext("{n} coin of the opponent", "{n} coins of the opponent", opp).format(n=opp)
             if opp else w._("no coin of the opponent")]
    out.append(w._("On the board before the stroke: {items}.").format(items=_joined(w, sides)))
    out.append(_sentence(queen_state(w, before.get("queen", "on_board"))))
    if before.get("own_pocketed_earlier") is True and own == 9:
        out.append(w._("The striking side has pocketed a coin before, since put back as a penalty."))
    if before.get("own_pocketed_earlier") is False and own < 9:
        out.append(w._("None of the striking side's own strokes has pocketed one of its coins yet."))
    return out + _describe_dues_and_score(w, before)


def _describe_dues_and_score(w: Words, before: dict) -> list[str]:
    out = []
    for key, text in (("dues", w.ngettext("The striking side owes {n} penalty coin.",
                                          "The striking side owes {n} penalty coins.", before.get("dues", 0))),
                      ("opponent_dues", w.ngettext("The opponent owes {n} penalty coin.",
                                                   "The opponent owes {n} penalty coins.",
                                                   before.get("opponent_dues", 0)))):
        if before.get(key):
            out.append(text.format(n=before[key]))
    score = before.get("score") or {}
    if score.get("striker") or score.get("opponent"):
        out.append(w._("Game score so far: the striking side {a}, the opponent {b}.").format(
            a=score.get("striker", 0), b=score.get("opponent", 0)))
    return out


def _describe_stroke(w: Words, stroke: dict, foul_name) -> list[str]:
    out = []
    pocketed, off = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
    items = _pieces(w, pocketed.get("own", 0), pocketed.get("opponent", 0), pocketed.get("queen", False),
                    pocketed.get("striker", False))
    if stroke.get("touched_coin", True) is False:
        out.append(w._("The striker touches no coin."))
    out.append(w._("The stroke pockets {items}.").format(items=_joined(w, items)) if items
               else w._("The stroke pockets nothing."))
    items = _pieces(w, off.get("own", 0), off.get("opponent", 0), off.get("queen", False), off.get("striker", False))
    if items:
        out.append(w._("Off the board: {items}.").format(items=_joined(w, items)))
    foul = stroke.get("foul")
    if foul and foul != "none":
        out.append(w._("The referee calls a foul: {foul}.").format(foul=foul_name(foul, w.lang)))
    return out


def describe_outcome(w: Words, outcome: dict, queen_before: str, queen_pocketed: bool) -> str:
    """One choice: an outcome (see `outcome`) as sentences."""
    if outcome["over"]:
        pts = outcome["points"]
        if outcome["winner"] == "striker":
            return w._("The board is over: the striking side wins, {w} to {l}.").format(
                w=pts["striker"], l=pts["opponent"])
        return w._("The board is over: the opponent wins, {w} to {l}.").format(w=pts["opponent"], l=pts["striker"])
    out = []
    back = outcome["returned"]
    items = _pieces(w, back["own"], back["opponent"], back["queen"], False)
    out.append(w._("Back to the centre: {items}.").format(items=_joined(w, items)) if items
               else w._("Nothing goes back to the centre."))
    if outcome["dues"]:
        out.append(w.ngettext("The striking side then owes {n} penalty coin.",
                              "The striking side then owes {n} penalty coins.", outcome["dues"]).format(n=outcome["dues"]))
    if outcome["queen"] != queen_before or queen_pocketed:
        out.append(w._("Afterwards {queen}.").format(queen=queen_state(w, outcome["queen"])))
    if not outcome["break_made"]:
        out.append(w._("The break is not made."))
    out.append(w._("The striking side plays again.") if outcome["turn"] == "continues"
               else w._("The turn passes to the opponent."))
    return " ".join(out)
