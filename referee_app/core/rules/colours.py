"""Colours set by the first coin pocketed (fr-house 2.2, carom-bi 1.1, fr-simplified 1.2).

Under these rulesets no side owns a colour until a coin falls. While the colours are open
(`before.colours: open`), a stroke names its coins by colour (`light`: white or brown, `dark`:
black); this layer decides the striking side's colour from the first coin pocketed, as the
ruleset's `colours` clause says, turns the stroke into own/opponent coins, has the engine rule
it, and reports `after.striker_colour`, or `after.colours: open` while no coin has fallen.

Where coins of both colours fall in that first stroke the texts do not say whose colour is whose:
the referee saw which coin went in first and says so (`stroke.first_colour`); without it the
ruling takes the colour most coins show (light on a tie), says so in a note, and gives the other
reading as an alternative.
"""
from __future__ import annotations

from typing import NamedTuple

from referee_app.core.errors import BadInput
from referee_app.i18n import translations
from referee_app.languages import LANGUAGES
from .situation import COINS_PER_SIDE

COLOURS = ("light", "dark")
_PIECES = {"light", "dark", "queen", "striker"}


# The sentences a ruling on colours adds, in each language through the catalogs (translations/):
# the colour words put in them are the ruleset's own (colour_name).
def _plays(lang: str) -> str:
    return translations(lang).gettext(
        "The striking side plays {own}, the opponent {other}: the colour of the first coin pocketed.")


def _open(lang: str) -> str:
    return translations(lang).gettext("No coin has been pocketed: the colours are not yet decided.")


def _both(lang: str) -> str:
    return translations(lang).gettext(
        "Coins of both colours fell in the stroke that decides the colours. The text gives each side the colour "
        "of the first coin pocketed but does not say which counts when both fall together: {why}, so the "
        "striking side plays {own}. The referee who saw a {other_word} coin go in first gives the other colour "
        "(stroke.first_colour: {other}).")


def why_taken(reason: str, lang: str) -> str:
    """Why a colour was taken when both fell (`first`, `more` or `tie`), in `lang`."""
    _ = translations(lang).gettext
    if reason == "first":
        return _("the referee says the first coin in was {own_word}")
    if reason == "more":
        return _("more {own_words} coins fell, and that reading is taken")
    return _("as many coins of each colour fell, and the light colour is taken")


def other_colour(colour: str) -> str:
    return "dark" if colour == "light" else "light"


def colour_name(spec: dict | None, colour: str, lang: str, plural: bool = False) -> str:
    """The colour as the ruleset's source names it (white or brown, black), in `lang`; `spec`:
    the ruleset's `colours` entry (Knowledge.colours)."""
    names = (spec or {}).get(colour, {})
    key = f"{lang}_plural" if plural and f"{lang}_plural" in names else lang
    return names.get(key) or names.get("en") or colour


def is_open(doc) -> bool:
    before = doc.get("before") if isinstance(doc, dict) else None
    if not isinstance(before, dict) or "colours" not in before:
        return False
    value = before["colours"]
    if value not in ("open", "set"):
        raise BadInput("before.colours", f"unknown value {value!r} (known: open, set)")
    return value == "open"


def without_colours(doc) -> dict:
    """The document without `before.colours: set` (the engine's default)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("before"), dict) or "colours" not in doc["before"]:
        return doc
    is_open(doc)  # refuses an unknown value
    return {**doc, "before": {k: v for k, v in doc["before"].items() if k != "colours"}}


def _pieces(stroke: dict, key: str) -> dict:
    value = stroke.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadInput(f"stroke.{key}", f"expected a mapping, got {value!r}")
    for name in value:
        if name in ("own", "opponent"):
            raise BadInput(f"stroke.{key}.{name}", "the colours are still open: name the coins light or dark")
        if name not in _PIECES:
            raise BadInput(f"stroke.{key}.{name}", f"unknown field (known: {', '.join(sorted(_PIECES))})")
    return value


def _count(pieces: dict, colour: str, field: str) -> int:
    n = pieces.get(colour, 0)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise BadInput(field, f"expected a whole number, got {n!r}")
    return n


def _as_sides(pieces: dict, striker_colour: str) -> dict:
    out = {k: v for k, v in pieces.items() if k in ("queen", "striker")}
    if pieces.get(striker_colour):
        out["own"] = pieces[striker_colour]
    if pieces.get(other_colour(striker_colour)):
        out["opponent"] = pieces[other_colour(striker_colour)]
    return out


def in_sides(doc: dict, striker_colour: str) -> dict:
    """An open-colours situation as a ruleset whose colours are set sees it: the striking side
    playing `striker_colour` (for comparing one stroke across rulesets)."""
    before = {k: v for k, v in doc["before"].items() if k != "colours"}
    stroke = {k: v for k, v in doc["stroke"].items() if k != "first_colour"}
    for key in ("pocketed", "off_board"):
        if isinstance(stroke.get(key), dict):
            stroke[key] = _as_sides(stroke[key], striker_colour)
    return {**doc, "before": before, "stroke": stroke}


class _OpenStroke(NamedTuple):
    """A stroke played while the colours are open, its coins named by colour."""
    pocketed: dict
    off_board: dict
    light: int
    dark: int
    first: str | None
    rest: dict     # what the stroke says besides its coins

    def colour_taken(self) -> tuple[str, str | None]:
        """The striking side's colour, and why when coins of both colours fell (else None)."""
        if not (self.light and self.dark):
            return ("light" if self.light else "dark"), None
        chosen = self.first or ("light" if self.light >= self.dark else "dark")
        return chosen, "first" if self.first else ("tie" if self.light == self.dark else "more")

    def as_sides(self, striker_colour: str) -> dict:
        return {**self.rest, "pocketed": _as_sides(self.pocketed, striker_colour),
                "off_board": _as_sides(self.off_board, striker_colour)}


def rule_open(doc: dict, ruleset_id: str, colours: dict | None, rule_fn) -> dict:
    """Rules a stroke while the colours are open; `colours`: the ruleset's `colours` entry
    (Knowledge.colours); `rule_fn(doc)` rules a document in own/opponent terms."""
    if not colours:
        raise BadInput("before.colours", f"open, but under {ruleset_id} the colours are not set by the first "
                       "coin pocketed")
    before = _open_before(doc["before"])
    stroke = _open_stroke(doc.get("stroke"))
    others = {k: v for k, v in doc.items() if k not in ("before", "stroke")}

    def ruled(striker_colour: str) -> dict:
        return rule_fn({**others, "before": before, "stroke": stroke.as_sides(striker_colour)})

    if not stroke.light and not stroke.dark:
        return _still_open(ruled, colours)
    chosen, why = stroke.colour_taken()
    ruling = ruled(chosen)
    _set(ruling, ruleset_id, colours, chosen)
    if why:
        _add_other_reading(ruling, ruled(other_colour(chosen)), ruleset_id, colours, chosen, why)
    return ruling


def _open_before(before: dict) -> dict:
    """The situation before the stroke, refused unless it is the start of a board."""
    before = {k: v for k, v in before.items() if k != "colours"}
    for side in ("own_on_board", "opponent_on_board"):
        if before.get(side, COINS_PER_SIDE) != COINS_PER_SIDE:
            raise BadInput(f"before.{side}", f"{before[side]}, but while the colours are open no coin has been "
                           f"pocketed: both sides have {COINS_PER_SIDE}")
    if before.get("queen", "on_board") != "on_board":
        raise BadInput("before.queen", f"{before['queen']}, but while the colours are open no coin has been "
                       "pocketed, so no queen can be covered")
    return before


def _open_stroke(stroke) -> _OpenStroke:
    if not isinstance(stroke, dict):
        raise BadInput("stroke", "missing")
    if "pocketed" not in stroke:
        raise BadInput("stroke.pocketed", "missing (write {} when nothing was pocketed)")
    pocketed, off = _pieces(stroke, "pocketed"), _pieces(stroke, "off_board")
    light = _count(pocketed, "light", "stroke.pocketed.light")
    dark = _count(pocketed, "dark", "stroke.pocketed.dark")
    first = stroke.get("first_colour")
    if first is not None and first not in COLOURS:
        raise BadInput("stroke.first_colour", f"unknown value {first!r} (known: light, dark)")
    if first is not None and not (light and dark):
        raise BadInput("stroke.first_colour", "only needed when coins of both colours fell in this stroke")
    rest = {k: v for k, v in stroke.items() if k not in ("pocketed", "off_board", "first_colour")}
    return _OpenStroke(pocketed, off, light, dark, first, rest)


_READING = ("turn", "returned", "after", "board", "clauses")   # what two readings of a stroke are compared on


def _still_open(ruled, colours: dict) -> dict:
    """No coin fell: the ruling, the colours left open."""
    ruling = ruled("light")
    dark = ruled("dark")
    # a light or a dark coin knocked off the board is ruled alike by these texts
    if {k: dark[k] for k in _READING} != {k: ruling[k] for k in _READING}:
        raise BadInput("stroke.off_board", "the ruling depends on whose colour left the board, and no colour "
                       "is decided yet")
    ruling["after"]["colours"] = "open"
    ruling["clauses"].append(colours["clause"])   # it keeps them open until a coin falls
    _say(ruling, {lang: _open(lang) for lang in LANGUAGES})
    return ruling


def _add_other_reading(ruling: dict, other: dict, ruleset_id: str, colours: dict, chosen: str, why: str) -> None:
    """Coins of both colours fell: a note saying why `chosen` was taken, and the ruling had the other been."""
    _set(other, ruleset_id, colours, other_colour(chosen))
    note = {"clause": colours["clause"]}
    for lang in LANGUAGES:
        own_word = colour_name(colours, chosen, lang)
        note[lang] = _both(lang).format(
            why=why_taken(why, lang).format(own_word=own_word, own_words=colour_name(colours, chosen, lang, True)),
            own=colour_name(colours, chosen, lang, True),
            other_word=colour_name(colours, other_colour(chosen), lang), other=other_colour(chosen))
    ruling.setdefault("notes", []).insert(0, note)
    ruling["alternatives"] = [{k: other[k] for k in _READING}]


def _set(ruling: dict, ruleset_id: str, colours: dict, colour: str) -> None:
    ruling["after"]["colours"] = "set"
    ruling["after"]["striker_colour"] = colour
    if colours["clause"] not in ruling["clauses"]:
        ruling["clauses"].insert(0, colours["clause"])
    _say(ruling, {lang: _plays(lang).format(own=colour_name(colours, colour, lang, True),
                                            other=colour_name(colours, other_colour(colour), lang, True))
                  for lang in LANGUAGES})


def _say(ruling: dict, sentence: dict) -> None:
    """Adds a sentence to what the ruling decides, in each language (and to its whole explanation)."""
    for key in ("decision", "explanation"):
        if key in ruling:
            for lang, text in sentence.items():
                ruling[key][lang] = f"{ruling[key].get(lang, '')} {text}".strip()
