"""The inspection certificate: one record as HTML for ui/pdf.py, in the language given.

Headings and verdicts come from the gettext catalogs, measurement names and notes from the
specifications' own fr/it/en texts, the date from Babel in the same language. Every piece of
user text — label, inspector, notes, photo path, a material typed in — goes through `esc`.
"""
from __future__ import annotations

from datetime import datetime

from babel.dates import format_datetime

from referee_app.i18n import babel_locale, translations
from referee_app.core.clause_labels import label
from referee_app.core.printing import esc
from referee_app.core.printing import pt as _pt
from . import wording as fmt
from .model import Specs
from .store import InspectionRecord

# ui/pdf.py lays the page out in the device pixels of its 300 dpi writer: sizes in those pixels,
# set on every element that holds text (Qt's rich text does not pass the body's size into tables).



STYLE = f"""
<style>
 body {{ font-family: 'DejaVu Sans', sans-serif; font-size: {_pt(10)}; }}
 p, td, th, li {{ font-size: {_pt(10)}; }}
 .title {{ font-size: {_pt(17)}; font-weight: bold; }}
 .verdict {{ font-size: {_pt(14)}; font-weight: bold; margin-top: {_pt(6)}; }}
 .section {{ font-size: {_pt(12)}; font-weight: bold; margin-top: {_pt(10)}; }}
 td, th {{ padding: {_pt(2)}; }}
 th {{ text-align: left; }}
 .muted {{ color: #444444; }}
 .fail {{ font-weight: bold; }}
</style>
"""
SIGN = "_" * 30


def when(iso_text: str, lang: str, length: str = "long") -> str:
    """A record's date and time as the language writes them (Babel, the app's locale for the
    language: British English), in the zone it was recorded in."""
    try:
        moment = datetime.fromisoformat(iso_text)
        return format_datetime(moment, format=length, tzinfo=moment.tzinfo, locale=babel_locale(lang))
    except (TypeError, ValueError, OverflowError):  # stored unreadably: shown as it is, the rest still lists
        return str(iso_text)


def _row(cells, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return "<tr>" + "".join(f"<td{attr}>{c}</td>" for c in cells) + "</tr>"


def _measurement_label(specs: Specs, check_id: str, lang: str) -> str:
    item_name, _sep, name = check_id.partition(".")
    item = specs.item(item_name)
    m = item.measurement(name) if item else None
    if m is not None:
        return m.label_in(lang)
    if name.startswith("count"):
        colour = name.partition(".")[2]
        set_item = specs.item(item_name)
        _ = translations(lang).gettext
        return _("Number of coins") + (f" ({set_item.colour_label(colour, lang)})" if colour and set_item else "")
    return check_id


def _clauses(kb, clauses: list[str], lang: str) -> str:
    """The clauses as people cite them ("ICF 2 dimension C"), each once."""
    return ", ".join(dict.fromkeys(label(c, lang, kb) for c in clauses))


def _measurement(specs: Specs, check_id: str):
    item_name, _sep, name = check_id.partition(".")
    item = specs.item(item_name)
    return item.measurement(name) if item else None


def _failing_readings(specs: Specs, checks: list[dict], lang: str) -> str:
    """Where a dimension was measured several times (each pocket), which readings failed."""
    _ = translations(lang).gettext
    lines = []
    for check in checks:
        readings = check.get("readings") or []
        if check.get("ok") or len(readings) < 2 or any("coin" in r for r in readings):
            continue
        m = _measurement(specs, check["id"])
        places = fmt.places_of(check)
        bad = [(m.reading_name(n, lang) if m else None) or _("reading {n}").format(n=n)
               for n, r in enumerate(readings, 1) if r.get("ok") is False]
        values = [fmt.quantity(r["value"], check.get("unit"), lang, places) for r in readings if r.get("ok") is False]
        if bad:
            text = _("{measurement}: outside the limit at {where}").format(
                measurement=_measurement_label(specs, check["id"], lang),
                where=", ".join(f"{w} ({v})" for w, v in zip(bad, values)))
            lines.append(f"<p class=\"fail\">{esc(text)}</p>")
    return "".join(lines)


def _checks_table(specs: Specs, checks: list[dict], lang: str, kb) -> str:
    _ = translations(lang).gettext
    head = "<tr>" + "".join(f"<th>{h}</th>" for h in (_("Measurement"), _("Reading"), _("Limit"), _("Clause"),
                                                       _("Verdict"))) + "</tr>"
    rows = []
    for check in checks:
        rows.append(_row([esc(_measurement_label(specs, check["id"], lang)), esc(fmt.reading(check, lang)),
                          esc(fmt.check_bounds(check, lang)), esc(_clauses(kb, check.get("clauses", [])[:2], lang)),
                          esc(fmt.verdict(check, lang))], "" if check.get("ok") else "fail"))
    return f'<table border="1" cellspacing="0" width="100%">{head}{"".join(rows)}</table>'


def _differences(checks: list[dict], lang: str, kb) -> str:
    """Where another printed limit differs from the one applied: say so, and which applied."""
    notes = []
    for check in checks:
        for other in check.get("also", []):
            if other.get("note"):
                notes.append(f"<li>{esc(fmt.localized(other['note'], lang))} ({esc(label(other['clause'], lang, kb))})</li>")
        applied = check.get("applied") or {}
        if applied.get("note"):
            notes.append(f"<li>{esc(fmt.localized(applied['note'], lang))} ({esc(label(applied['clause'], lang, kb))})</li>")
    return f"<ul>{''.join(dict.fromkeys(notes))}</ul>" if notes else ""


def _heading(record: InspectionRecord, kind: str, lang: str) -> str:
    """The title, the number, and the table of who inspected what, when."""
    _ = translations(lang).gettext
    facts = [(_("Item"), f"{esc(kind)} — {esc(record.label)}"), (_("Inspector"), esc(record.inspector)),
             (_("Date"), esc(when(record.inspected_at, lang)))]
    if record.tournament:
        facts.append((_("Tournament"), esc(record.tournament)))
    if record.previous_id is not None:
        facts.append((_("Re-inspection of"), esc(_("inspection no. {number}").format(number=record.previous_id))))
    return (f'<p class="title">{esc(_("Equipment inspection certificate"))}</p>'
            f'<p class="muted">{esc(_("Inspection no. {number}").format(number=record.id))}</p>'
            "<table>" + "".join(_row([f"<b>{esc(k)}</b>", v]) for k, v in facts) + "</table>")


def _failing_coins(specs: Specs, item, coins: list[dict], lang: str) -> str:
    _ = translations(lang).gettext
    lines = []
    for coin in (c for c in coins if not c["compliant"]):
        bad = [_measurement_label(specs, c["id"], lang) for c in coin["checks"] if not c["ok"]]
        colour = item.colour_label(coin["colour"], lang) if item else coin["colour"]
        text = _("Coin {number} ({colour}): {problems}").format(number=coin["index"] + 1, colour=colour,
                                                               problems=", ".join(bad) or _("see above"))
        lines.append(f"<p>{esc(text)}</p>")
    return "".join(lines)


def _gaps(specs: Specs, record: InspectionRecord, item, lang: str) -> str:
    """What was not measured, not checked, or not known to any rule."""
    _ = translations(lang).gettext
    result, parts = record.result, []
    owner = item.each if item and item.each else record.item
    if result.get("missing"):   # named as the form names them, never by their ids
        missing = [_measurement_label(specs, f"{owner}.{n.split('.')[-1]}", lang) for n in result["missing"]]
        parts.append(f"<p><b>{esc(_('Not measured:'))}</b> {esc(', '.join(dict.fromkeys(missing)))}</p>")
    if result.get("unchecked"):
        names = [_measurement_label(specs, f"{owner}.{n.split('.')[-1]}", lang) for n in result["unchecked"]]
        parts.append(f"<p><b>{esc(_('Not checked (not stated):'))}</b> {esc(', '.join(dict.fromkeys(names)))}</p>")
    if result.get("unknown"):
        parts.append(f"<p><b>{esc(_('Readings no rule speaks of (not checked):'))}</b> {esc(', '.join(result['unknown']))}</p>")
    return "".join(parts)


def _carried_over(specs: Specs, result: dict, lang: str) -> str:
    _ = translations(lang).gettext
    entries = (result.get("reinspection") or {}).get("carried_over")
    if not entries:
        return ""
    items = "".join(f"<li>{esc(_measurement_label(specs, e['id'], lang))}: "
                    f"{esc(_('now within the limit') if e['resolved'] else _('still failing'))}</li>" for e in entries)
    return f'<p class="section">{esc(_("Items carried over from the previous inspection"))}</p><ul>{items}</ul>'


def _closing(record: InspectionRecord, lang: str) -> str:
    """Notes, photo, signature lines and the specifications' stamp."""
    _ = translations(lang).gettext
    parts = []
    if record.notes:
        parts.append(f'<p class="section">{esc(_("Notes"))}</p><p>{esc(record.notes)}</p>')
    if record.photo:
        parts.append(f"<p><b>{esc(_('Photo:'))}</b> {esc(record.photo)}</p>")
    parts.append(f'<p class="section">{esc(_("Signatures"))}</p>'
                 f"<table width=\"100%\"><tr><td>{esc(_('Inspector'))}<br><br>{SIGN}</td>"
                 f"<td>{esc(_('Referee'))}<br><br>{SIGN}</td></tr></table>")
    # the specifications' fingerprint (record.spec) is for the records, not for the people signing
    return "".join(parts)


def certificate_html(record: InspectionRecord, lang: str, specs: Specs, kb) -> str:
    """The certificate of one inspection record, in `lang`, its items named by `specs` (the
    knowledge root's `equipment`), its clauses cited from `kb` as people cite them."""
    _ = translations(lang).gettext
    result = record.result
    item = specs.item(record.item)
    parts = [STYLE, _heading(record, item.label_in(lang) if item else record.item, lang),
             f'<p class="verdict">{esc(fmt.overall(record.compliant, lang))}</p>']
    if result.get("approval"):
        approved = _("Approved for play.") if record.compliant else _("Not approved for play.")
        parts.append(f"<p>{esc(approved)} {esc(fmt.localized(result['approval'].get('note'), lang))}</p>")
    parts.append(f'<p class="section">{esc(_("Measurements"))}</p>')
    parts.append(_checks_table(specs, result.get("checks", []), lang, kb))
    parts.append(_failing_readings(specs, result.get("checks", []), lang))
    parts.append(_failing_coins(specs, item, result.get("coins", []), lang))
    parts.append(_gaps(specs, record, item, lang))
    parts.append(_carried_over(specs, result, lang))
    differences = _differences(result.get("checks", []), lang, kb)
    if differences:
        parts.append(f'<p class="section">{esc(_("Where the sources differ"))}</p>{differences}')
    parts.append(_closing(record, lang))
    return "".join(parts)


def certificate_title(record: InspectionRecord, lang: str) -> str:
    _ = translations(lang).gettext
    return _("Inspection certificate {number} — {label}").format(number=record.id, label=record.label)
