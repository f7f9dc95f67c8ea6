"""What the tournament desk prints: the pairings of a round with their tables, and one score
sheet per table, pre-filled with the players, round, table and ruleset (Scarry printed them,
ffc-tournament:1.24). Built here as HTML, like every other printed document, in the language
it is given; the window writes it through referee_app/printing/pdf.py. Every piece of user text
goes through `esc()`."""
from __future__ import annotations

from referee_app.core.printing import esc
from referee_app.core.tournament.ffc import FfcRules
from referee_app.i18n import translations
from referee_app.languages import FALLBACK, LANGUAGES


def catalog(lang: str):
    """The `_` of one language: the core is told its language, it does not read the window's."""
    return translations(lang if lang in LANGUAGES else FALLBACK).gettext


def player(name, lang: str) -> str:
    _ = catalog(lang)
    return _("(ghost)") if name is None else name


def round_title(round_no, lang: str) -> str:
    _ = catalog(lang)
    return _("Final") if round_no == "final" else _("Round {n}").format(n=round_no)


def score_text(game: dict) -> str:
    return "" if game["score_first"] is None else f"{game['score_first']} – {game['score_second']}"


def pairings_html(tournament: str, round_no, games: list[dict], lang: str) -> str:
    _ = catalog(lang)
    rows = "".join(
        f"<tr><td align='center'>{g['table_no']}</td><td>{esc(player(g['first'], lang))}</td>"
        f"<td>{esc(player(g['second'], lang))}</td><td align='center'>{esc(score_text(g))}</td></tr>"
        for g in games)
    return (f"<h1>{esc(tournament)}</h1><h2>{esc(round_title(round_no, lang))}</h2>"
            f"<table border='1' cellpadding='6' cellspacing='0' width='100%'><tr><th>{esc(_('Table'))}</th>"
            f"<th>{esc(_('First'))}</th><th>{esc(_('Second'))}</th><th>{esc(_('Score'))}</th></tr>{rows}</table>")


def limits_text(ffc: FfcRules, final: bool, lang: str, cite=None) -> str:
    """The match's limits, each with its clause; `cite(clause_id)` names a clause for people
    (Knowledge.clause_label), else the clause is given by its id."""
    _ = catalog(lang)
    cite = cite or str
    if final:
        return _("To {points} points, with no limit of time or boards ({clause}).").format(
            points=ffc.final_points, clause=cite(ffc.clauses["final"]))
    return _("To {points} points ({c1}), {boards} boards ({c2}) or {minutes} + {extra} minutes ({c3}), whichever "
             "comes first; a board not finished at the end of the time is not counted.").format(
        points=ffc.match_points, c1=cite(ffc.clauses["points"]), boards=ffc.match_boards, c2=cite(ffc.clauses["boards"]),
        minutes=ffc.match_minutes, extra=ffc.match_extra_minutes, c3=cite(ffc.clauses["minutes"]))


def score_sheet_html(ffc: FfcRules, tournament: str, round_no, game: dict, ruleset: str, lang: str, cite=None) -> str:
    _ = catalog(lang)
    final = round_no == "final"
    boards = ffc.match_boards if not final else ffc.match_boards + 4
    info = [(_("Tournament"), tournament), (_("Round"), _("Final") if final else round_no), (_("Table"), game["table_no"]),
            (_("Ruleset"), ruleset), (_("Referee"), "")]
    head = "".join(f"<th>{esc(h)}</th>" for h in (_("Board"), _("Break"), player(game["first"], lang),
                                                   player(game["second"], lang), _("Queen covered by"), _("Initials")))
    body = "".join(f"<tr><td align='center'>{i}</td>" + "<td>&nbsp;</td>" * 5 + "</tr>" for i in range(1, boards + 1))
    return (f"<h2>{esc(_('Score sheet'))}: {esc(player(game['first'], lang))} – {esc(player(game['second'], lang))}</h2>"
            + "".join(f"<p><b>{esc(k)}:</b> {esc(v)}</p>" for k, v in info)
            + f"<p>{esc(limits_text(ffc, final, lang, cite))}</p>"
            + f"<table border='1' cellpadding='6' cellspacing='0' width='100%'><tr>{head}</tr>{body}</table>"
            + f"<p><b>{esc(_('Total'))}:</b> {esc(player(game['first'], lang))} ______ &nbsp; "
              f"{esc(player(game['second'], lang))} ______</p>"
            + f"<p><br>{esc(_('Players signatures'))}: ______________________ &nbsp; ______________________</p>"
            + f"<p><br>{esc(_('Referee signature'))}: ______________________</p>")


def pairings_document(tournament: str, round_no, games: list[dict], lang: str) -> tuple[str, str]:
    """(HTML, title) of the pairings of a round."""
    return pairings_html(tournament, round_no, games, lang), f"{tournament} – {round_title(round_no, lang)}"


def score_sheet_documents(ffc: FfcRules, tournament: str, round_no, games: list[dict], ruleset: str,
                          lang: str, cite=None) -> list[tuple[str, str, str]]:
    """(file name, HTML, title) of one score sheet per table that is played (the ghost's game
    needs none), named by round and table. `ruleset`: the ruleset as printed, its name for people."""
    _ = catalog(lang)
    stem = "final" if round_no == "final" else f"round-{round_no}"
    title = _("Score sheet")
    return [(f"{stem}-table-{g['table_no']}.pdf", score_sheet_html(ffc, tournament, round_no, g, ruleset, lang, cite), title)
            for g in games if g["first"] is not None and g["second"] is not None]
