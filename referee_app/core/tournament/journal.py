"""The journal of a tournament (`TournamentStore.log`) in words: one line per change, in the
reader's language, for `tournament log` and the desk's Journal tab."""
from __future__ import annotations

from datetime import datetime

from referee_app.i18n import N_, translations
from referee_app.core.storage.refusals import round_words
from referee_app.core.validation import one_line

ACTIONS = {
    "create": N_("created the tournament"),
    "import": N_("stored the tournament from a file"),
    "enter": N_("entered {player}"),
    "check_in": N_("checked {player} in"),
    "check_out": N_("marked {player} absent"),
    "withdraw": N_("withdrew {player} after round {after_round}: {reason}"),
    "withdraw_before_play": N_("withdrew {player} before the first round: {reason}"),
    "pair": N_("paired {round}"),
    "repair": N_("paired {round} again: {reason}"),
    "result": N_("entered the result of table {table} in {round}: {score}"),
    "correction": N_("corrected the result of table {table} in {round}: {before} to {score} ({reason})"),
    "choice": N_("changed the organiser's choice “{choice}”: {reason}"),
    "move_table": N_("moved table {table} of {round} to table {after}: {reason}"),
    "sheet": N_("opened the score sheet {match_id} at table {table} in {round}"),
    "set_aside": N_("set aside table {table} of {round}: {reason}"),
}


# The organiser's choices as the Choices tab names them: the journal is read by people, not by
# the command line's `tournament choose` (whose argument is the id)
CHOICES = {
    "rounds_total": N_("rounds before the final"),
    "ghost_points": N_("points for beating the ghost"),
    "avoid_rematches": N_("no two players meet twice"),
    "absent": N_("a player sits out rounds"),
}


def _score(value) -> str:
    return "–".join(str(x) for x in value) if isinstance(value, list) else "—"


def entry_text(entry: dict, lang: str = "en") -> str:
    """`2026-11-29 14:02  table01  entered the result of table 2 in round 1: 25–3`"""
    _ = translations(lang).gettext
    detail = entry["detail"] if isinstance(entry.get("detail"), dict) else {}
    action = entry["action"]
    if action == "check_in" and detail.get("present") is False:
        action = "check_out"
    if action == "withdraw" and detail.get("after_round") == 0:
        action = "withdraw_before_play"
    words = {**{k: v for k, v in detail.items() if isinstance(v, (str, int))},
             "round": round_words(entry["round"], lang) if entry.get("round") is not None else "",
             "table": entry.get("table") if entry.get("table") is not None else "",
             "score": _score(detail.get("score")), "before": _score(detail.get("before"))}
    if action == "choice" and detail.get("choice") in CHOICES:
        words["choice"] = _(CHOICES[detail["choice"]])
    template = ACTIONS.get(action)
    try:
        said = _(template).format_map(_Missing(words)) if template else action
    except (ValueError, IndexError):
        said = action
    try:
        when = datetime.fromisoformat(entry["at"]).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError):
        when = str(entry.get("at"))
    # one line a change, whatever a reason held when it was written (`tournament log`, the Journal tab)
    return one_line(f"{when}  {entry.get('login') or '?'}  {said}", 10 ** 9)


class _Missing(dict):
    def __missing__(self, key):
        return "?"
