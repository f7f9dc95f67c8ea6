"""What the sheet keeps beside its strokes: the match clock as last saved (a crash takes nothing
saved back), and which strokes a correction replaced, so the sheet and its PDF can mark them."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.play.sheet_document import sheet_html
from referee_app.core.play.store import MatchStore
from support.kbcopy import installed


def test_the_match_clock_is_saved_and_read_back_as_last_saved(user_dirs, records_env):
    store = MatchStore(installed())
    mid = store.create("icf", first_name="Élodie", second_name="Luca")
    assert store.match_clock(mid) is None
    store.save_clock(mid, 5_000, True)
    store.save_clock(mid, 12_345, False)
    again = MatchStore(installed())                       # another process, after a crash
    assert again.match_clock(mid) == {"spent_ms": 12_345, "running": False}
    assert all(ev["kind"] != "clock" for ev in again.events(mid))   # the history stays readable
    assert again.export(mid)["clock"] == {"spent_ms": 12_345, "running": False}
    with pytest.raises(BadInput):
        store.save_clock(mid, -1, False)


def test_a_correction_is_marked_and_a_stroke_entered_again_after_an_undo_is_not(user_dirs, records_env):
    store = MatchStore(installed())
    mid = store.create("icf", first_name="Élodie", second_name="Luca")
    for stroke in ({"pocketed": {"own": 1}}, {"pocketed": {"own": 2}}, {"pocketed": {}}, {"pocketed": {"own": 1}}):
        store.add_stroke(mid, stroke)
    assert store.corrected(mid) == []
    store.correct(mid, 2, {"pocketed": {}})
    assert store.corrected(mid) == [2]                    # the later strokes were only ruled again
    meta = dict(store.meta(mid), corrected=store.corrected(mid))
    html, _title = sheet_html(store.knowledge, meta, store.strokes(mid), "en", store.events(mid))
    assert html.count("corrected") == 1
    store.undo(mid)
    store.undo(mid)
    store.undo(mid)                                        # stroke 2 taken back ...
    store.add_stroke(mid, {"pocketed": {"own": 1}})        # ... and entered anew: not a correction
    assert store.corrected(mid) == []
