"""The score sheet as printed: header, every stroke with its ruling and clauses, the boards, the
result and the signatures, as HTML for the PDF writer (referee_app/printing/pdf.py), built here so that the
window and `carrom-referee matches export ID --pdf` print the same sheet.

Every piece of user text (names, tournament) goes through `esc`. The words are the interface's
catalog in the sheet's language; the rulings' sentences come from the rulings themselves.
"""
from __future__ import annotations

from referee_app.core import validation

from datetime import datetime
from typing import TYPE_CHECKING

from referee_app import i18n
from referee_app.i18n import translations
from referee_app.languages import FALLBACK, LANGUAGES
from referee_app.core.clause_labels import label
from referee_app.core.printing import esc
from referee_app.core.rules.colours import colour_name
from referee_app.core.printing import pt
from .foul_names import bare_name
from .match import board_rows, replayed, timeline

if TYPE_CHECKING:
    from referee_app.core.knowledge.root import Knowledge

SIGN = "_" * 30


def _ruleset(knowledge: Knowledge, meta: dict) -> str:
    return meta.get("ruleset") or knowledge.default_ruleset


def catalog(lang: str):
    """The `_` of one language: the core is told its language, it does not read the window's."""
    return translations(lang if lang in LANGUAGES else FALLBACK).gettext


def foul_name(knowledge: Knowledge, ruleset: str, foul_id: str, lang: str) -> str:
    # "foul: Improper stroke", not "foul: Improper stroke (foul)"
    return bare_name(knowledge.foul_name(ruleset, foul_id, lang))


def stroke_summary(knowledge: Knowledge, stroke: dict, ruleset: str, lang: str) -> str:
    """What a stroke was, in `lang`: "2 own, queen, foul: Improper stroke"."""
    _ = catalog(lang)
    if "tie_breaker" in stroke:
        marks = {side: "".join("✓" if hit else "✗" for hit in stroke["tie_breaker"].get(side, []))
                 for side in ("first", "second")}
        return _("deciding strokes: {a} / {b}").format(a=marks["first"], b=marks["second"])
    p, o = stroke.get("pocketed") or {}, stroke.get("off_board") or {}
    parts = []
    if p.get("own"):
        parts.append(_("{n} own").format(n=p["own"]))
    if p.get("opponent"):
        parts.append(_("{n} opponent's").format(n=p["opponent"]))

    def coloured(colour, n):   # by colour while the first coin pocketed is to set them (fr-house 2.2)
        return _("{n} {colour}").format(n=n, colour=colour_name(knowledge.colours(ruleset), colour, lang, plural=n > 1))

    parts += [coloured(c, p[c]) for c in ("light", "dark") if p.get(c)]
    if p.get("queen"):
        parts.append(_("queen"))
    if p.get("striker"):
        parts.append(_("striker"))
    words = {"own": _("{n} own"), "opponent": _("{n} opponent's"), "queen": _("queen"), "striker": _("striker")}
    off = [coloured(k, o[k]) if k in ("light", "dark") else words[k].format(n=o[k])
           for k in ("own", "opponent", "light", "dark", "queen", "striker") if o.get(k)]
    if off:
        parts.append(_("off the board: {what}").format(what=", ".join(off)))
    if stroke.get("foul"):
        parts.append(_("foul: {id}").format(id=foul_name(knowledge, ruleset, stroke["foul"], lang)))
    if stroke.get("touched_coin") is False:
        parts.append(_("no coin touched"))
    return ", ".join(parts) if parts else _("nothing pocketed")


def explanation(ruling: dict, lang: str) -> str:
    """What was decided, in `lang`: the decision alone where the ruling carries it apart from its
    why (the clauses are beside it on the sheet), else the whole explanation."""
    said = ruling.get("decision") or ruling["explanation"]
    return said.get(lang) or said.get("en", "")


def side_name(meta: dict, side: str | None, lang: str) -> str:
    if side is None:
        return ""
    _ = catalog(lang)
    name = meta.get("first_name" if side == "first" else "second_name") or ""
    return name or (_("First") if side == "first" else _("Second"))


STYLE = f"""
<style>
 body {{ font-family: 'DejaVu Sans', sans-serif; font-size: {pt(9)}; }}
 h1 {{ font-size: {pt(16)}; margin-bottom: {pt(2)}; }}
 h2 {{ font-size: {pt(12)}; margin-top: {pt(10)}; margin-bottom: {pt(3)}; }}
 th {{ background: #e8e8e8; text-align: left; }}
 td, th {{ padding: {pt(2)}; }}
 .muted {{ color: #444444; }}
</style>
"""


def _table(head: list[str], rows: list[list[str]]) -> str:
    """`rows` already escaped."""
    h = "".join(f"<th>{esc(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table border='1' cellspacing='0' cellpadding='3' width='100%'><tr>{h}</tr>{body}</table>"


def sheet_html(knowledge: Knowledge, meta: dict, strokes: list, lang: str | None = None, events: list | None = None,
               printed: datetime | None = None) -> tuple[str, str]:
    """(HTML, title) of the full score sheet of a match: `meta` is the match's record (ruleset,
    doubles, names, tournament, round, table_no, referee), `strokes` as entered."""
    lang = lang if lang in LANGUAGES else FALLBACK
    _ = catalog(lang)
    first, second = side_name(meta, "first", lang), side_name(meta, "second", lang)
    title = _("Score sheet")
    out = [STYLE, f"<h1>{esc(title)}: {esc(first)} – {esc(second)}</h1>", _header(knowledge, meta, lang, printed),
           _strokes(knowledge, meta, strokes, lang), _boards(knowledge, meta, strokes, lang),
           *_result(knowledge, meta, strokes, lang), *_ruleset_changes(knowledge, events or [], lang), _signatures(meta, lang)]
    return "".join(out), f"{title}: {first} – {second}"


def _header(knowledge: Knowledge, meta: dict, lang: str, printed: datetime | None) -> str:
    """What is known of the match, a line each (what is not known is left out)."""
    _ = catalog(lang)
    info = [(_("Tournament"), meta.get("tournament")), (_("Round"), meta.get("round")),
            (_("Table"), meta.get("table_no")), (_("Referee"), meta.get("referee")),
            (_("Ruleset"), knowledge.ruleset_name(_ruleset(knowledge, meta), lang)),
            (_("Doubles") if meta.get("doubles") else _("Singles"), "✓"),
            (_("Printed"), i18n.format_datetime(printed or validation.local(), lang=lang))]
    return "<table cellpadding='2'>" + "".join(
        f"<tr><td class='muted'>{esc(k)}</td><td><b>{esc(v)}</b></td></tr>" for k, v in info if v) + "</table>"


def _strokes(knowledge: Knowledge, meta: dict, strokes: list, lang: str) -> str:
    """Every stroke with where it was played, by whom, its ruling and its clauses."""
    _ = catalog(lang)
    ruleset = _ruleset(knowledge, meta)
    rows = []
    corrected = set(meta.get("corrected") or ())
    for e in timeline(knowledge, ruleset, bool(meta.get("doubles")), strokes):
        r = e["ruling"]
        where = "" if "tie_breaker" in r else f"{e['game']}.{e['board']}"
        clauses = ", ".join(label(c, lang, knowledge.kb) for c in r.get("clauses", []))
        number = str(e["n"]) + (f"<br><i>{esc(_('corrected'))}</i>" if e["n"] in corrected else "")
        rows.append([number, where, esc(side_name(meta, e["side"], lang)),
                     esc(stroke_summary(knowledge, e["stroke"], ruleset, lang)), esc(explanation(r, lang)), esc(clauses)])
    table = _table([_("Stroke"), _("Board"), _("Played by"), _("What happened"), _("Ruling"), _("Clauses")],
                   rows) if rows else f"<p>{esc(_('No stroke has been recorded yet.'))}</p>"
    return f"<h2>{esc(_('Strokes'))}</h2>" + table


def _boards(knowledge: Knowledge, meta: dict, strokes: list, lang: str) -> str:
    _ = catalog(lang)

    def side(s):
        return side_name(meta, s, lang)

    rows = [[f"{b['game']}.{b['board']}", esc(side(b["breaker"])), esc(side(b["winner"])),
             str(b["points"]["first"]), str(b["points"]["second"]), esc(side(b["queen"])),
             esc(", ".join(f"{side(s)}: {n}" for s, n in b["dues"].items() if n))]
            for b in board_rows(knowledge, _ruleset(knowledge, meta), bool(meta.get("doubles")), strokes)]
    return f"<h2>{esc(_('Boards'))}</h2>" + _table(
        [_("Board"), _("Break"), _("Winner"), side("first"), side("second"), _("Queen covered by"), _("Dues")], rows)


def _result(knowledge: Knowledge, meta: dict, strokes: list, lang: str) -> list[str]:
    """Each game begun, then the match: won, or where it stands."""
    _ = catalog(lang)
    match = replayed(knowledge, _ruleset(knowledge, meta), bool(meta.get("doubles")), strokes)
    lines = []
    for i, game in enumerate(match.games, 1):
        if not game.boards or (not game.boards[0].strokes and not game.over):
            continue
        if game.over:
            lines.append(_("Game {g}: {winner} wins, {a} to {b}.").format(
                g=i, winner=side_name(meta, game.winner, lang), a=game.score["first"], b=game.score["second"]))
        else:
            lines.append(_("Game {g} not finished: {a} to {b}.").format(
                g=i, a=game.score["first"], b=game.score["second"]))
    won = match.games_won
    if match.over:
        lines.append(_("Match won by {winner}, {a} games to {b}.").format(
            winner=side_name(meta, match.winner, lang), a=won[match.winner],
            b=won["second" if match.winner == "first" else "first"]))
    else:
        lines.append(_("Match not finished: games won {a} to {b}.").format(a=won["first"], b=won["second"]))
    return [f"<h2>{esc(_('Result'))}</h2>"] + [f"<p>{esc(line)}</p>" for line in lines]


def _ruleset_changes(knowledge: Knowledge, events: list, lang: str) -> list[str]:
    _ = catalog(lang)
    return ["<p class='muted'>" + esc(_("After stroke {n} the ruleset was changed from {old} to {new}.").format(
                n=ev["detail"].get("after_stroke", "?"), old=knowledge.ruleset_name(ev["detail"]["from"], lang),
                new=knowledge.ruleset_name(ev["detail"]["to"], lang))) + "</p>"
            for ev in events if ev.get("kind") == "ruleset"]


def _signatures(meta: dict, lang: str) -> str:
    _ = catalog(lang)
    signers = (side_name(meta, "first", lang), side_name(meta, "second", lang),
               _("Referee") + (f" ({meta['referee']})" if meta.get("referee") else ""))
    return f"<h2>{esc(_('Signatures'))}</h2><table cellpadding='6'>" + "".join(
        f"<tr><td>{esc(who)}</td><td>{SIGN}</td></tr>" for who in signers) + "</table>"
