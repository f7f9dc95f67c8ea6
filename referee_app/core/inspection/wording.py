"""Inspection checks as words and numbers for people, in the language each function is given.

Shared by the GUI page and the certificate so that both say the same thing the same way: numbers
with the language's decimal sign (4,13 in French), a limit as "≤ 4,13 cm", a verdict as a mark and
a word (never colour alone).
"""
from __future__ import annotations

from decimal import Decimal

from babel.numbers import format_decimal

from referee_app.i18n import babel_locale, translations
from referee_app.languages import FALLBACK

OK_MARK, FAIL_MARK = "✔", "✘"


def number(value, lang: str, places: int = 0) -> str:
    """A reading as the language writes it, with as many decimals as it has (up to six), and at
    least `places`: 4,10 read against 4,37 – 4,53 was measured to the hundredth."""
    if value is None:
        return ""
    places = min(places, 6)
    return format_decimal(value, format="#,##0." + "0" * places + "#" * (6 - places), locale=babel_locale(lang))


def places_of(check: dict) -> int:
    """The decimals of a check's limits: the precision its readings are measured to."""
    out = 0
    for bound in (check.get("min"), check.get("max")):
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            exponent = Decimal(str(bound)).normalize().as_tuple().exponent
            out = max(out, -exponent if isinstance(exponent, int) and exponent < 0 else 0)
    return out


def quantity(value, unit: str | None, lang: str, places: int = 0) -> str:
    text = number(value, lang, places)
    return f"{text}\u00a0{unit}" if unit else text


def yes_no(value: bool, lang: str) -> str:
    _ = translations(lang).gettext
    return _("yes") if value else _("no")


def bounds(lo, hi, unit: str | None, lang: str, expected=None) -> str:
    """A limit: "73,34 – 73,98 cm", "≤ 4,13 cm", "≥ 1,59 cm", "= 9", or "must be: no"."""
    if lo is not None and hi is not None:
        if lo == hi:
            return "= " + quantity(lo, unit, lang)
        return f"{number(lo, lang)} – {quantity(hi, unit, lang)}"
    if hi is not None:
        return "≤ " + quantity(hi, unit, lang)
    if lo is not None:
        return "≥ " + quantity(lo, unit, lang)
    if expected is not None:
        _ = translations(lang).gettext
        return _("must be: {answer}").format(answer=yes_no(expected, lang))
    return ""


def check_bounds(check: dict, lang: str) -> str:
    return bounds(check.get("min"), check.get("max"), check.get("unit"), lang, check.get("expected"))


def reading(check: dict, lang: str) -> str:
    """What was read: "4,1 cm", "4,45 / 4,46 / 4,54 cm", "no", or "—" when nothing was."""
    if check.get("missing"):
        return "—"
    value = check.get("value")
    if isinstance(value, bool):
        return yes_no(value, lang)
    if isinstance(value, str):
        return value
    readings, places = check.get("readings"), places_of(check)
    if readings and all("coin" not in r for r in readings):
        return " / ".join(number(r["value"], lang, places) for r in readings) + \
            (f"\u00a0{check['unit']}" if check.get("unit") else "")
    return quantity(value, check.get("unit"), lang, places)


def verdict(check: dict, lang: str) -> str:
    """A mark and a word: "✔ within the limit", "✘ too large", "✘ not measured"."""
    _ = translations(lang).gettext
    if check.get("ok"):
        return f"{OK_MARK} {_('within the limit')}" if check.get("min") is not None or check.get("max") is not None \
            else f"{OK_MARK} {_('as required')}"
    if check.get("missing") or any(r.get("missing") for r in check.get("readings", [])):
        return f"{FAIL_MARK} {_('not measured')}"
    value, lo, hi = check.get("value"), check.get("min"), check.get("max")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if lo is not None and value < lo:
            return f"{FAIL_MARK} {_('too small')}"
        if hi is not None and value > hi:
            return f"{FAIL_MARK} {_('too large')}"
        # every reading taken together: the critical one can sit inside while another is out
        return f"{FAIL_MARK} {_('out of limits')}"
    return f"{FAIL_MARK} {_('not as required')}"


def overall(compliant: bool, lang: str) -> str:
    _ = translations(lang).gettext
    return f"{OK_MARK} {_('COMPLIANT')}" if compliant else f"{FAIL_MARK} {_('NOT COMPLIANT')}"


def overall_status(status: str, missing: list[str], lang: str) -> str:
    """The inspection's state in words: not measured yet, incomplete (naming what is missing),
    compliant or not compliant. What was not measured is never called a failure."""
    _ = translations(lang).gettext
    if status == "not_measured":
        return "○ " + _("NOT MEASURED YET")
    if status == "incomplete":
        return "◐ " + _("INCOMPLETE: not measured yet: {missing}").format(missing=", ".join(missing))
    return overall(status == "compliant", lang)


def localized(texts: dict | None, lang: str) -> str:
    """A {en, fr, it} text of the specifications in the language, English when it lacks one."""
    if not texts:
        return ""
    return texts.get(lang) or texts.get(FALLBACK) or next(iter(texts.values()))


def notices(check: dict, lang: str) -> list[str]:
    """Where the limits the sources print disagree about this reading: said in the language,
    from the check's data (the core's own `notices` are English, for the command line)."""
    _ = translations(lang).gettext
    out = []
    for other in check.get("also", []):
        if other.get("ok") is None or other["ok"] == check.get("ok"):
            continue
        if other.get("basis") == "inches":
            text = (_("Within the printed limit but outside its inch equivalent ({inches} in = {bounds}); "
                      "the printed metric figure applies.") if check.get("ok") else
                    _("Outside the printed limit but within its inch equivalent ({inches} in = {bounds}); "
                      "the printed metric figure applies."))
            out.append(text.format(inches=other["inches"], bounds=bounds(other["min"], other["max"], other["unit"], lang)))
        elif other.get("note"):
            out.append(localized(other["note"], lang))
    return out
