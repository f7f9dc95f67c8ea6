"""The printed form: a protest or a disqualification as HTML for ui/pdf.py, filled in or blank.

Labels come from the label table of knowledge/forms.yaml in the form's own language, which may
differ from the interface's (a French referee prints an Italian player's protest in Italian).
Every piece of user text goes through `esc`, so a `<b>` typed in a field prints literally.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee_app.i18n import format_datetime
from referee_app.languages import FALLBACK
from referee_app.core.printing import esc
from referee_app.core.printing import pt as _pt
from .fields import FIELDS, SIDES, disqualification_rules, parse_time, protest_rules
from .store import Form

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

# ui/pdf.py lays the document out in the device pixels of its 300 dpi writer, where a size in
# points would be taken at screen resolution (96 dpi) and print a third of its size: sizes are
# therefore given in those pixels.



STYLE = f"""
<style>
 body {{ font-family: 'DejaVu Sans', sans-serif; font-size: {_pt(10)}; }}
 .title {{ font-size: {_pt(17)}; font-weight: bold; margin-bottom: {_pt(4)}; }}
 .section {{ font-size: {_pt(12)}; font-weight: bold; margin-top: {_pt(10)}; margin-bottom: {_pt(3)}; }}
 p {{ margin-top: {_pt(2)}; margin-bottom: {_pt(2)}; }}
 td {{ padding: {_pt(1.5)}; }}
 td.label {{ color: #444444; }}
 .late {{ color: #b00020; font-weight: bold; }}
 .note {{ color: #444444; font-style: italic; }}
 .clause {{ margin-left: {_pt(8)}; }}
</style>
"""
BLANK = "_" * 40
LINES = ("_" * 80 + "<br>") * 4   # room for a paragraph written by hand
SIGN = "_" * 28


def _lang(knowledge: Knowledge, lang: str | None) -> str:
    return lang if lang in knowledge.kb.languages else FALLBACK


def _when(value, lang: str) -> str:
    """A time as the form's language writes it, in the zone it was entered in."""
    return format_datetime(parse_time(value, "time"), "medium", lang) if value else ""


def _clause_line(knowledge: Knowledge, clause_id: str, lang: str) -> str:
    return knowledge.clause_label(clause_id, lang)


def _clause_block(knowledge: Knowledge, clause_id: str | None, lang: str) -> str:
    """The cited clause's text in the form's language, saying when it is the original or unofficial."""
    data = knowledge.forms
    L = lambda key, **v: data.label(key, lang, **v)  # noqa: E731
    clause = data.kb.get(clause_id) if clause_id else None
    if clause is None:
        if not clause_id:
            return f"<p class='clause'>{BLANK}<br>{BLANK}<br>{BLANK}</p>"
        return f"<p class='clause note'>{esc(clause_id)}: {esc(L('not_a_clause'))}</p>"
    text, official = clause.text_in(lang)
    if lang not in clause.texts:
        mark = L("original_text", language=clause.lang)
    elif not official:
        mark = L("unofficial")
    else:
        mark = ""
    head = f"<b>{esc(knowledge.clause_label(clause.id, lang))}</b>, {esc(clause.title_in(lang))}"
    note = f"<br><span class='note'>({esc(mark)})</span>" if mark else ""
    return f"<p class='clause'>{head}<br>«&nbsp;{esc(text)}&nbsp;»{note}</p>"


def _rows(rows) -> str:
    body = "".join(f"<tr><td class='label' width='34%'>{esc(label)}</td><td>{value}</td></tr>" for label, value in rows)
    return f"<table width='100%' cellspacing='0' border='0'>{body}</table>"


_OWN_SECTIONS = ("clause", "ground", "times", "facts", "decision", "lang", "filed_at", "director")


def _field_text(knowledge: Knowledge, f, value, fields: dict, lang: str) -> str:
    """One field's value as the form prints it, in the form's language."""
    data = knowledge.forms
    if f.type == "score":
        return " – ".join(str((value or {}).get(s, "")) for s in SIDES) if value else ""
    if f.type == "time":
        return _when(value, lang)
    if f.name == "ruleset":
        from referee_app.core.knowledge.model import ruleset_name

        rid = fields.get("ruleset") or data.default_ruleset
        return ruleset_name(data.rulesets, rid, lang) if rid in data.rulesets else ""
    if f.name == "protester" and value:
        return f"{data.label(value, lang)}: {(fields.get('players') or {}).get(value, '')}"
    return "" if value is None else str(value)


def _field_rows(knowledge: Knowledge, form: Form | None, kind: str, fields: dict, lang: str) -> list[tuple[str, str]]:
    """Label and escaped value of every field (a blank line where a blank form is to be filled in)."""
    data = knowledge.forms
    rows = []
    for f in (f for f in FIELDS[kind] if f.name not in _OWN_SECTIONS):  # those are printed in their own sections
        value = fields.get(f.name)
        if f.type == "pair":
            rows += [(data.label(side, lang), esc((value or {}).get(side)) if (value or {}).get(side) else
                      ("" if form else BLANK)) for side in SIDES]
            continue
        text = _field_text(knowledge, f, value, fields, lang)
        rows.append((data.field_label(kind, f.name, lang), esc(text) if (text or form) else BLANK))
    return rows


def _section(heading: str, body: str) -> str:
    return f"<p class='section'>{esc(heading)}</p>{body}"


def _notes(texts) -> str:
    return "".join(f"<p class='note'>{esc(t)}</p>" for t in texts)


def _protest_parts(knowledge: Knowledge, form: Form | None, fields: dict, lang: str, L) -> tuple[list[str], dict, tuple]:
    rules = protest_rules(knowledge, fields)
    timing = form.timing() if form else {"deadline": None, "late": None}
    rule = L("deadline_rule", minutes=rules.deadline_minutes, clause=_clause_line(knowledge, rules.deadline_clause, lang))
    if timing["deadline"]:
        due = esc(_when(timing["deadline"], lang))
    else:
        due = esc(L("deadline_unknown")) if form else BLANK
    filed = esc(_when(fields.get("filed_at"), lang)) if form else BLANK
    if form and form.status != "draft" and timing["late"] is not None:
        filed += f" – <span class='late'>{esc(L('late'))}</span>" if timing["late"] else f" – {esc(L('on_time'))}"
    parts = [
        _section(L("decision"), f"<p>{esc(fields.get('decision')) if form else LINES}</p>"),
        _section(L("clause"), _clause_block(knowledge, fields.get("clause"), lang)),
        _section(L("facts"), f"<p>{esc(fields.get('facts')) if form else LINES}</p>"),
        _section(L("filing"), _rows([(L("deadline"), f"{due}<br><span class='note'>{esc(rule)}</span>"),
                                     (L("filed_at"), filed)])),
        _notes([L("facts_only", clause=_clause_line(knowledge, rules.steps["content"], lang)),
                L("not_withdrawable", clause=_clause_line(knowledge, rules.steps["no_withdrawal"], lang)), *rules.note_texts(lang)]),
    ]
    outcomes = {o: L(f"{o}_protest", clause=_clause_line(knowledge, rules.steps[o], lang)) for o in ("upheld", "rejected")}
    return parts, outcomes, ("sign_protester", "sign_referee", "sign_director")


def _ground_block(knowledge: Knowledge, ground, lang: str) -> str:
    note = (ground.note or {}).get(lang) if ground else None
    return _clause_block(knowledge, ground.clause, lang) + (_notes([note]) if note else "")


def _disqualification_parts(knowledge: Knowledge, form: Form | None, fields: dict, lang: str, L,
                            incidents: list | None) -> tuple[list[str], dict, tuple]:
    rules = disqualification_rules(knowledge, fields)
    if form:
        ground = rules.ground(fields.get("ground") or "")
        body = _ground_block(knowledge, ground, lang) if ground else _clause_block(knowledge, fields.get("ground"), lang)
        if ground and ground.count:
            recorded = L("recorded_incidents", n=len(incidents or []))
            body += _rows([(L("times"), esc(f"{fields.get('times', '')} ({recorded})"))])
    else:
        boxes = "".join(f"<tr><td width='4%'>☐</td><td>{_ground_block(knowledge, g, lang)}</td></tr>" for g in rules.grounds)
        body = (f"<p>{esc(L('grounds_list', ruleset=knowledge.ruleset_name(rules.ruleset, lang)))}</p><table width='100%'>{boxes}</table>"
                + _rows([(L("times"), BLANK)]))
    parts = [
        _section(L("ground"), body),
        _section(L("facts"), f"<p>{esc(fields.get('facts')) if form else LINES}</p>"),
        _rows([(knowledge.forms.field_label("disqualification", "filed_at", lang),
                 esc(_when(fields.get("filed_at"), lang)) if form else BLANK)]),
        _notes(rules.note_texts(lang)),
    ]
    outcomes = {"upheld": L("upheld_disqualification", clause=_clause_line(knowledge, rules.consequence, lang)),
                "rejected": L("rejected_disqualification")}
    return parts, outcomes, ("sign_player", "sign_referee", "sign_director")


def form_html(knowledge: Knowledge, form: Form | None, kind: str | None = None, lang: str | None = None,
              ruleset: str | None = None, incidents: list | None = None) -> str:
    """The document of `form`, or of a blank form of `kind` under `ruleset` when `form` is None.

    `incidents` are those a disqualification's counted ground rests on (FormsStore.counted_incidents).
    """
    data = knowledge.forms
    kind = form.kind if form else kind
    assert kind is not None, "the document of a form, or of a blank form of a kind"
    lang = _lang(knowledge, lang or (form.fields.get("lang") if form else None))
    fields = dict(form.fields) if form else ({"ruleset": ruleset} if ruleset else {})
    L = lambda key, **v: data.label(key, lang, **v)  # noqa: E731
    parts = [STYLE, f"<p class='title'>{esc(L(kind))}</p>"]
    if form:
        parts.append(f"<p>{esc(L('form_no', id=form.id))} – {esc(L('status'))}: {esc(L(form.status))}</p>")
    parts.append(_rows(_field_rows(knowledge, form, kind, fields, lang)))
    if kind == "protest":
        body, outcomes, signatures = _protest_parts(knowledge, form, fields, lang, L)
    else:
        body, outcomes, signatures = _disqualification_parts(knowledge, form, fields, lang, L, incidents)
    parts += body

    if form and form.outcome:
        decision = (f"<p><b>{esc(outcomes[form.outcome])}</b></p>"
                    + _rows([(L("decided_at"), esc(_when(form.decided_at, lang))),
                             (L("director"), esc(fields.get("director") or ""))]))
    else:
        director = esc(fields["director"]) if fields.get("director") else BLANK
        decision = "".join(f"<p>☐ {esc(text)}</p>" for text in outcomes.values()) + _rows([(L("director"), director)])
    parts.append(_section(L("decision_heading"), decision))

    cells = "".join(f"<td>{esc(L(s))}<br><br><br>{SIGN}<br><span class='note'>{esc(L('date_time'))}</span></td>"
                    for s in signatures)
    parts.append(_section(L("signatures"), f"<table width='100%'><tr>{cells}</tr></table>"))
    return "<html><body>" + "\n".join(parts) + "</body></html>"


def _title(knowledge: Knowledge, form: Form | None, kind: str, lang: str) -> str:
    data = knowledge.forms
    return data.label(kind, lang) + (f" – {data.label('form_no', lang, id=form.id)}" if form else "")


def form_document(store, form: Form, lang: str | None, default: str = FALLBACK) -> tuple[str, str]:
    """The HTML and title of a filled-in form: in `lang`, else the form's language, else `default`
    (the window passes its interface language)."""
    knowledge = store.knowledge
    lang = _lang(knowledge, lang or form.fields.get("lang") or default)
    html = form_html(knowledge, form, lang=lang, incidents=store.counted_incidents(form.kind, form.fields))
    return html, _title(knowledge, form, form.kind, lang)


def blank_document(knowledge: Knowledge, kind: str, lang: str | None,
                   ruleset: str | None = None) -> tuple[str, str]:
    """The HTML and title of a blank form of `kind` under `ruleset`, in `lang` (English if none)."""
    lang = _lang(knowledge, lang)
    return form_html(knowledge, None, kind, lang, ruleset), _title(knowledge, None, kind, lang)
