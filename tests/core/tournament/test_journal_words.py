"""The journal in words (`tournament log`, the desk's Journal tab): an organiser's choice is named
as the Choices tab names it, in the reader's language, never by its id."""
from __future__ import annotations

import pytest

from referee_app.core.tournament.journal import entry_text
from referee_app.i18n import translations


@pytest.mark.parametrize("choice", ["rounds_total", "ghost_points", "avoid_rematches", "absent"])
@pytest.mark.parametrize("lang", ["fr", "it", "en"])
def test_a_choice_changed_is_named_in_the_readers_words(choice, lang):
    entry = {"at": "2026-11-29T14:02:00+01:00", "login": "desk", "action": "choice", "round": None,
             "table": None, "detail": {"choice": choice, "before": 7, "after": 6, "reason": "short of time"}}
    said = entry_text(entry, lang)
    named = translations(lang).gettext({"rounds_total": "rounds before the final", "ghost_points":
                                        "points for beating the ghost", "avoid_rematches": "no two players meet twice",
                                        "absent": "a player sits out rounds"}[choice])
    assert named in said and "_" not in said and "short of time" in said, said


def test_a_withdrawal_before_any_round_is_not_said_to_follow_round_0(tmp_path):
    from referee_app.core.tournament.store import TournamentStore
    from support.kbcopy import installed

    store = TournamentStore(installed(), str(tmp_path / "records.sqlite3"))
    tid = store.create("Open", ["A", "B", "C", "D"], "icf")
    store.withdraw(tid, "B", "fell ill")
    said = [entry_text(e, "en") for e in store.log(tid) if e["action"] == "withdraw"]
    assert len(said) == 1 and "round 0" not in said[0] and said[0].endswith("withdrew B before the first round: fell ill")
