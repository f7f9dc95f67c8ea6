"""The rich text of the rulebook browser: one clause, a section, the comparison of sources.

Pure functions from knowledge-base records to HTML; no widget here, so the text a referee reads
can be checked without a window. Every piece of knowledge-base text goes through `esc()`: a
clause may legitimately contain `<`, `&` or quotes. Links use two schemes that the clause view
interprets: `clause:<id>` opens a clause, `action:compare` opens the comparison.
"""
from __future__ import annotations

import html

from referee_app import i18n
from referee_app.core.clause_labels import label
from referee_app.core.knowledge.model import Clause, KnowledgeBase
from referee_app.core.knowledge.project_texts import difference_note, example_title
from referee_app.core.rulebook import logic
from referee_app.i18n import N_
from referee_app.i18n import gettext as _
from referee_app.languages import LANGUAGE_LABELS, LANGUAGES
from referee_app.ui.theme import Colors

KIND_LABELS = {
    "preface": N_("Preface"), "rule": N_("Rule"), "definition": N_("Definition"),
    "equipment": N_("Equipment"), "procedure": N_("Procedure"), "conduct": N_("Conduct"),
    "penalty": N_("Penalty"), "scoring": N_("Scoring"), "tournament": N_("Tournament"),
    "commentary": N_("Commentary"),
}

EXAMPLE_LABELS = {"situation": N_("Situation"), "expect": N_("Expected ruling"), "ruling": N_("Ruling given")}


def esc(value) -> str:
    return html.escape("" if value is None else str(value))


def citation(kb: KnowledgeBase, clause: Clause) -> str:
    """How a referee cites the clause aloud or on a form, in the interface language: "ICF 3.12 e",
    "ICF 5 «pedina di penalità»" (core/clause_labels.py, the one label of a clause)."""
    return label(clause.id, i18n.current_language(), kb)


def language_label(lang: str) -> str:
    return _(LANGUAGE_LABELS[lang]) if lang in LANGUAGE_LABELS else lang


def kind_label(kind: str) -> str:
    return _(KIND_LABELS[kind]) if kind in KIND_LABELS else kind


def _link(kb: KnowledgeBase, clause_id: str) -> str:
    target = kb.get(clause_id)
    label = citation(kb, target) if target else clause_id
    return f'<a href="clause:{esc(clause_id)}">{esc(label)}</a>'


def _style(c: Colors) -> str:
    return (f"<style>body {{ color: {c.text}; }} a {{ color: {c.link}; }}"
            f" .muted {{ color: {c.muted}; }} h1 {{ font-size: x-large; margin-bottom: 2px; }}"
            f" h3 {{ font-size: medium; margin-top: 16px; margin-bottom: 4px; }}"
            f" .text {{ font-size: large; }} .note {{ color: {c.accent}; }}</style>")


def lit(text: str, spans, c: Colors) -> str:
    """`text` escaped, the search's matches in it (`spans`: [start, end] character offsets) marked."""
    out, pos = [], 0
    for span in spans or ():
        try:
            a, b = int(span[0]), int(span[1])
        except (TypeError, ValueError, IndexError):
            continue
        if pos <= a < b <= len(text):
            out += [esc(text[pos:a]), f'<span style="background-color: {c.mark_bg}; font-weight: bold;">',
                    esc(text[a:b]), "</span>"]
            pos = b
    return "".join(out) + esc(text[pos:])


def clause_html(knowledge, clause: Clause, lang: str, c: Colors, bookmarked: bool = False,
                found: dict | None = None) -> str:
    """The clause page. `found`: how a search found it ({"lang": the language of the text that
    matched, "marks": {language: [[start, end], ...]}}): that text comes first, and the matches
    are marked in every language shown."""
    kb = knowledge.kb
    marks = (found or {}).get("marks") or {}
    first = (found or {}).get("lang")
    first = first if first in clause.texts else lang
    src = kb.sources.get(clause.source)
    parts = [_style(c), f"<h1>{esc(citation(kb, clause))}</h1>"]
    meta = [esc(clause.title_in(lang)), esc(kind_label(clause.kind))]
    if bookmarked:
        meta.append("★ " + esc(_("Bookmarked")))
    source_label = _("Source:")  # (Babel does not see strings marked inside f-strings)
    parts.append(f'<p class="muted">{" · ".join(meta)}<br>{esc(source_label)} {esc(src.title if src else clause.source)}</p>')
    if marks:
        parts.append('<p class="muted">' + esc(_("The words your search matched are marked, in every language; "
                                                  "the text that matched comes first.")) + "</p>")
    parts.append(_text_block(clause, first, c, marks))
    if clause.note:
        parts.append('<p class="muted"><i>' + esc(_("Note:")) + f"</i> {esc(clause.note)}</p>")
    if clause.exception_to:
        links = ", ".join(_link(kb, t) for t in clause.exception_to)
        parts.append("<h3>" + esc(_("Exception to")) + f"</h3><p>{links}</p>")
    if clause.corresponds_to:
        links = ", ".join(_link(kb, t) for t in clause.corresponds_to)
        compare = '<a href="action:compare">' + esc(_("Compare side by side")) + '</a> <span class="muted">(Ctrl+M)</span>'
        parts.append("<h3>" + esc(_("Corresponds to")) + f"</h3><p>{links}<br>{compare}</p>")
    if clause.differs:
        parts.append("<h3>" + esc(_("Differences between the sources")) + "</h3>")
        parts.append(_differs_table(kb, clause, c, lang))
    parts.append(_translations_block(clause, first, c, marks))
    return "".join(parts) + logic_html(knowledge, clause, lang, c)


def logic_html(knowledge, clause: Clause, lang: str, c: Colors) -> str:
    """What the clause decides: its rules in plain words, its worked examples with the ruling each
    gives now, the clauses that make exceptions to it, the rulesets that apply it."""
    kb = knowledge.kb
    page = logic.clause_logic(knowledge, clause)
    parts = []
    if page["rules"]:
        items = []
        for r in page["rules"]:
            line = (f"<li><i>{esc(_('When'))}</i> {esc(r['when'][lang])}<br>"
                    f"<i>{esc(_('Then'))}</i> {esc(r['then'][lang])}")
            if r["exception_to"]:
                line += '<br><span class="muted">' + esc(_("Exception to")) + " " + ", ".join(
                    _link(kb, t.split("/")[0]) for t in r["exception_to"]) + "</span>"
            items.append(line + "</li>")
        parts.append("<h3>" + esc(_("What this clause decides")) + "</h3><ul>" + "".join(items) + "</ul>")
    if page["examples"]:
        parts.append("<h3>" + esc(_("Worked examples")) + "</h3>")
        parts.extend(_example_html(i, ex, lang, c) for i, ex in enumerate(page["examples"], 1))
    if page["exceptions"]:
        links = ", ".join(_link(kb, t) for t in page["exceptions"])
        parts.append("<h3>" + esc(_("Exceptions to this clause")) + f"</h3><p>{links}</p>")
    if page["rulesets"]:
        names = ", ".join(esc(knowledge.ruleset_name(rid, lang)) for rid in page["rulesets"])
        parts.append("<h3>" + esc(_("Rulesets that apply it")) + f"</h3><p>{names}</p>")
    return "".join(parts)


def _translations_block(clause: Clause, lang: str, c: Colors, marks: dict) -> str:
    """The clause in the languages not shown above: every text the knowledge base has."""
    shown = {lang, clause.lang}
    others = [(other, entry) for other, entry in clause.texts.items() if other not in shown]
    if not others:
        return ""
    rows = []
    for other, entry in others:
        head = (_("Official text ({language})") if entry["official"] else
                _("Unofficial translation ({language})")).format(language=language_label(other))
        rows.append(f'<p class="muted">{esc(head)}</p><p lang="{esc(other)}">{lit(entry["text"], marks.get(other), c)}</p>')
    return "<h3>" + esc(_("Translations")) + "</h3>" + "".join(rows)


def _text_block(clause: Clause, lang: str, c: Colors, marks: dict) -> str:
    """The text in `lang`, the original beside it when that is a translation, or a visible note."""
    shown, official = clause.text_in(lang)
    original = clause.text
    if lang == clause.lang:
        return f'<p class="text">{lit(original, marks.get(lang), c)}</p>'
    if lang not in clause.texts:
        note = _("No {language} translation of this clause yet: the original {original} text is shown.").format(
            language=language_label(lang), original=language_label(clause.lang))
        return (f'<table width="100%" cellpadding="6" style="background-color: {c.accent_bg};"><tr><td>'
                f'<span class="note">{esc(note)}</span></td></tr></table>'
                f'<p class="text" lang="{esc(clause.lang)}">{lit(original, marks.get(clause.lang), c)}</p>')
    head_t = (_("Official text ({language})") if official else _("Unofficial translation ({language})")).format(
        language=language_label(lang))
    head_o = _("Original ({language})").format(language=language_label(clause.lang))
    return (f'<table width="100%" cellspacing="0" cellpadding="8"><tr>'
            f'<td width="50%" valign="top"><p class="muted">{esc(head_t)}</p>'
            f'<p class="text" lang="{esc(lang)}">{lit(shown, marks.get(lang), c)}</p></td>'
            f'<td width="50%" valign="top" style="background-color: {c.panel};"><p class="muted">{esc(head_o)}</p>'
            f'<p class="text" lang="{esc(clause.lang)}">{lit(original, marks.get(clause.lang), c)}</p></td></tr></table>')


def _project_mark(translated: bool) -> str:
    """Beside a text the project translated, as the clauses' own translations are marked."""
    if not translated:
        return ""
    return ' <span class="muted">(' + esc(_("the project's translation")) + ")</span>"


def _differs_table(kb: KnowledgeBase, clause: Clause, c: Colors, lang: str) -> str:
    rows = []
    for d in clause.differs:
        others = d.get("with") or []
        others = others if isinstance(others, list) else [others]
        who = ", ".join(_link(kb, o) for o in others)
        label = esc(_("Differs from {other}:")).format(other=who) if who else esc(_("Differs:"))
        note, translated = difference_note(d, lang)
        rows.append(f"<tr><td>⚠ {label} {esc(note)}{_project_mark(translated)}</td></tr>")
    return (f'<table width="100%" cellpadding="6" cellspacing="4" style="background-color: {c.accent_bg};">'
            + "".join(rows) + "</table>")


def _label(key, lang: str) -> str:
    return logic.label(key, lang)


def _value(value, lang: str) -> str:
    return logic.value_text(value, lang)


def _is_texts(value) -> bool:
    """{fr: ..., it: ..., en: ...}: one text in several languages."""
    return isinstance(value, dict) and bool(value) and set(value) <= set(LANGUAGES)


def _pair(label: str, value_html: str) -> str:
    # A template, so that French writes its colon with a space before it.
    return esc(_("{label}: {value}")).format(label=esc(label), value=value_html)


def _inline(value, lang: str) -> str:
    """A mapping as one readable line: "own coins 1, queen" (true shows the label alone)."""
    if _is_texts(value):
        return esc(value.get(lang) or next(iter(value.values())))
    if not isinstance(value, dict):
        return f"<b>{esc(_value(value, lang))}</b>"
    parts = []
    for key, item in value.items():
        if item is True:
            parts.append(f"<b>{esc(_label(key, lang))}</b>")
        elif isinstance(item, dict) and not _is_texts(item):
            parts.append(f"{esc(_label(key, lang))} ({_inline(item, lang)})")
        else:
            parts.append(_pair(_label(key, lang), _inline(item, lang)))
    return ", ".join(parts)


def _block(value, lang: str) -> str:
    """A situation or a ruling: one line per part (before the stroke, the stroke, the turn…)."""
    if not isinstance(value, dict) or _is_texts(value):
        return f"<p>{_inline(value, lang)}</p>"
    lines = []
    for key, item in value.items():
        if isinstance(item, dict) and not _is_texts(item):
            lines.append(f"<li><i>{esc(_label(key, lang))}</i> — {_inline(item, lang)}</li>")
        else:
            lines.append(f"<li>{_pair(_label(key, lang), _inline(item, lang))}</li>")
    return "<ul>" + "".join(lines) + "</ul>"


def _example_html(n: int, example, lang: str, c: Colors) -> str:
    if not isinstance(example, dict):
        return f"<p><b>{n}.</b> {esc(example)}</p>"
    title, translated = example_title(example, lang)
    out = [f'<table width="100%" cellpadding="6" style="background-color: {c.panel};"><tr><td>'
           "<b>" + esc(_("Example {n}").format(n=n)) + "</b>"
           + (f" — {esc(title)}{_project_mark(translated)}" if title else "")]
    for key in ("situation", "expect"):
        if key in example:
            out.append('<p style="margin-bottom: 0px;"><i>' + esc(_(EXAMPLE_LABELS[key])) + "</i></p>"
                       + _block(example[key], lang))
    if example.get("ruling"):
        verdict = _("✔ as expected") if example.get("holds") else _("✘ not as expected")
        ruling = example["ruling"]
        given = {"turn": ruling["turn"], "after": ruling["after"], "board": ruling["board"]}
        out.append('<p style="margin-bottom: 0px;"><i>' + esc(_(EXAMPLE_LABELS["ruling"])) + f"</i> {esc(verdict)}</p>"
                   + _block(given, lang) + f"<p>{esc(ruling['explanation'].get(lang, ''))}</p>")
    elif example.get("error"):
        out.append('<p class="note">' + esc(_("No ruling: {problem}").format(problem=example["error"])) + "</p>")
    for key, value in example.items():
        if key not in ("situation", "expect", "name", "title", "titles", "id", "ruling", "holds", "error"):
            out.append(f"<p>{_pair(_label(key, lang), _inline(value, lang))}</p>")
    out.append("</td></tr></table>")
    return "".join(out)


def section_html(kb: KnowledgeBase, title: str, clauses: list[Clause], lang: str, c: Colors) -> str:
    """A whole section to read through; each paragraph links to its own page."""
    src = kb.sources.get(clauses[0].source) if clauses else None
    parts = [_style(c), f"<h1>{esc(title)}</h1>",
             f'<p class="muted">{esc(src.title if src else "")}</p>']
    for cl in clauses:
        text, _official = cl.text_in(lang)
        parts.append(f'<p><a href="clause:{esc(cl.id)}"><b>{esc(cl.paragraph)}</b></a> '
                     f'<span class="text">{esc(text)}</span></p>')
    return "".join(parts)


def corresponding(kb: KnowledgeBase, clause: Clause) -> dict[str, list[Clause]]:
    """The clause and the clauses corresponding to it, by source: its own source first, then the
    others in the knowledge base's order."""
    group = [clause] + [kb.clauses[t] for t in clause.corresponds_to if t in kb.clauses]
    order = [clause.source] + [s for s in kb.sources if s != clause.source]
    out: dict[str, list[Clause]] = {}
    for sid in order:
        members = [cl for cl in group if cl.source == sid]
        if members:
            out[sid] = members
    return out


def compare_html(kb: KnowledgeBase, clause: Clause, lang: str, c: Colors) -> str:
    by_source = corresponding(kb, clause)
    parts = [_style(c), "<h1>" + esc(_("Compare: {citation}").format(citation=citation(kb, clause))) + "</h1>"]
    if len(by_source) < 2 and len(by_source.get(clause.source, [])) < 2:
        parts.append('<p class="muted">' + esc(_("No corresponding clause in the other sources yet.")) + "</p>")
    width = max(1, 100 // max(1, len(by_source)))
    cells = []
    for sid, members in by_source.items():
        src = kb.sources[sid]
        cell = [f'<p><b>{esc(src.short)}</b><br><span class="muted">{esc(src.title)}</span></p>']
        for cl in members:
            text, official = cl.text_in(lang)
            cell.append(f'<p><a href="clause:{esc(cl.id)}"><b>{esc(citation(kb, cl))}</b></a>'
                        f' <span class="muted">{esc(cl.title)}</span></p><p>{esc(text)}</p>')
            if text != cl.text:
                label = _("Original ({language})").format(language=language_label(cl.lang))
                cell.append(f'<p class="muted"><i>{esc(label)}:</i> {esc(cl.text)}</p>')
            elif lang != cl.lang:
                cell.append('<p class="note">' + esc(_("Original text: no translation yet.")) + "</p>")
            for d in cl.differs:
                others = d.get("with") or []
                others = others if isinstance(others, list) else [others]
                if any(o in (m.id for ms in by_source.values() for m in ms) for o in others):
                    note, translated = difference_note(d, lang)
                    cell.append(f'<p style="background-color: {c.accent_bg};">⚠ {esc(note)}{_project_mark(translated)}</p>')
        shade = f' style="background-color: {c.panel};"' if sid == clause.source else ""
        cells.append(f'<td width="{width}%" valign="top"{shade}>{"".join(cell)}</td>')
    parts.append(f'<table width="100%" cellspacing="0" cellpadding="8"><tr>{"".join(cells)}</tr></table>')
    return "".join(parts)
