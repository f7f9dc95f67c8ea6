"""An inspection has three states: not measured, incomplete (saying what is missing), and compliant
or not; incomplete is never saved as a failure. Readings are typed as inspectors write them:
"1 5/8 in", decimal commas, a unit in the field."""
from __future__ import annotations

import pytest

from referee_app.core.errors import BadInput
from referee_app.core.inspection.entry import EntryError, reading_typed
from referee_app.core.inspection.store import InspectionStore
from referee_app.core.inspection.verdict import inspect
from test_inspection_page import SPECS, page, row  # noqa: F401
from support.gui import type_text


@pytest.mark.parametrize("measurements,status", [
    ({}, "not_measured"),
    ({"diameter": {"value": 4.1, "unit": "cm"}}, "incomplete"),
    ({"diameter": {"value": 4.5, "unit": "cm"}}, "not_compliant"),      # a failure is a failure
    ({"diameter": {"value": 4.1, "unit": "cm"}, "weight": {"value": 14, "unit": "g"}}, "compliant"),
    ({"diameter": {"value": 4.1, "unit": "cm"}, "weight": {"value": 16, "unit": "g"}}, "not_compliant"),
])
def test_three_states(measurements, status):
    result = inspect({"item": "striker", "measurements": measurements}, SPECS)
    assert result["status"] == status
    if status == "incomplete":
        assert result["missing"] == ["weight"]


def test_an_incomplete_inspection_is_not_saved_as_a_failure(user_dirs):
    store = InspectionStore()
    for measurements in ({}, {"diameter": {"value": 4.1, "unit": "cm"}}):
        with pytest.raises(BadInput, match="not measured yet"):
            store.save({"item": "striker", "measurements": measurements}, SPECS, inspector="C. Martin", label="striker 1")
    assert store.list() == []
    failed = store.save({"item": "striker", "measurements": {"diameter": {"value": 4.5, "unit": "cm"}}}, SPECS,
                        inspector="C. Martin", label="striker 2")
    assert failed.compliant is False  # a measured failure is recorded, missing weight or not


@pytest.mark.parametrize("typed,reading", [
    ("1 5/8 in", {"value": 1.625, "unit": "in"}),
    ('1 5/8"', {"value": 1.625, "unit": "in"}),
    ("4,13", {"value": 4.13, "unit": "cm"}),
    ("41,3 mm", {"value": 41.3, "unit": "mm"}),
    ("4,45; 4,46 4,44", {"values": [4.45, 4.46, 4.44], "unit": "cm"}),
    ("0,87 g/cm³", {"value": 0.87, "unit": "kg/dm3"}),
])
def test_readings_as_inspectors_write_them(typed, reading):
    assert reading_typed(typed, "cm", "fr") == reading


@pytest.mark.parametrize("typed,word", [("4x5", "Not a number"), ("4,1 parsecs", "Unknown unit"), ("-3", "negative")])
def test_what_is_not_a_reading_is_refused_in_words(typed, word):
    with pytest.raises(EntryError, match=word):
        reading_typed(typed, "cm", "en")


def test_the_page_shows_the_three_states_and_takes_fractions(page, qtbot):
    page.set_item("striker")
    assert page.overall.property("status") == "not_measured"
    assert "NOT COMPLIANT" not in page.overall.text() and "NOT MEASURED YET" in page.overall.text()
    type_text(row(page, "diameter").input, "1 5/8 in")
    assert page.overall.property("status") == "incomplete"
    assert "INCOMPLETE" in page.overall.text() and "Weight" in page.overall.text()
    assert "✔" in row(page, "diameter").verdict.text()  # 1 5/8 in is the limit itself: compliant
    type_text(page.label_edit, "striker 3")
    type_text(page.inspector_edit, "C. Martin")
    assert page.save() is None and page.store.list() == []
    assert "not recorded" in page.status.text() and "Weight" in page.status.text()
    type_text(row(page, "weight").input, "14,5")
    assert page.overall.property("status") == "compliant"
    assert page.save() is not None
