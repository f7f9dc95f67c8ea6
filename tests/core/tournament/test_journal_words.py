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
