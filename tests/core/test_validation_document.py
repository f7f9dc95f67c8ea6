"""validation.document, the gate every parsed document passes: each refusal, the field it names
and its message word for word, and which of two problems is named first."""
from __future__ import annotations

from datetime import datetime

import pytest

from referee_app.core import validation as V
from referee_app.core.errors import BadInput


def _deep(levels: int):
    doc = "x"
    for _ in range(levels):
        doc = [doc]
    return doc


@pytest.mark.parametrize("doc,field,problem", [
    ([0] * V.MAX_NODES, "document", f"too large (more than {V.MAX_NODES} values)"),
    (_deep(V.MAX_DEPTH + 1), "document" + "[0]" * (V.MAX_DEPTH + 1), f"nested too deeply (more than {V.MAX_DEPTH} levels)"),
    ({"a": {(1, 2): 3}}, "a", "a field name must be a word, not (1, 2)"),
    ({"a": [{1.5: 3}]}, "a[0]", "a field name must be a word, not 1.5"),
    ({"a": {"n" * 201: 1}}, "a", "a field name is too long"),
    ({"stroke": {"foul": ["x"]}}, "stroke.foul", "expected a name, not a list"),
    ({"ruleset": {"id": "icf"}}, "ruleset", "expected a name, not a mapping"),
    ({"t": "x" * (V.MAX_TEXT + 1)}, "t", f"a text of {V.MAX_TEXT + 1} characters is too long (at most {V.MAX_TEXT})"),
    ({"t": ["a\x00b"]}, "t[0]", "contains a NUL character"),
    ({"n": 10 ** 18 + 1}, "n", "a number this large is not plausible"),
    ({"n": -(10 ** 18) - 1}, "n", "a number this large is not plausible"),
    ({"n": float("nan")}, "n", "is not a number"),
    ({"at": datetime(9999, 1, 1)}, "at", "the year 9999 is not plausible (give a date between 1900 and 2199)"),
])
def test_each_refusal_names_its_field(doc, field, problem):
    with pytest.raises(BadInput) as err:
        V.document(doc)
    assert (err.value.field, err.value.problem) == (field, problem)


def test_the_document_is_named_as_the_caller_says():
    with pytest.raises(BadInput) as err:
        V.document({"n": float("nan")}, "situation")
    assert err.value.field == "n"
    with pytest.raises(BadInput) as err:
        V.document([float("nan")], "situation")
    assert err.value.field == "situation[0]"


def test_of_two_problems_the_last_field_is_named():
    with pytest.raises(BadInput) as err:
        V.document({"a": "\x00", "b": float("nan")})
    assert err.value.field == "b"


def test_what_passes_comes_back_as_it_was():
    doc = {"before": {"own_on_board": 9, "queen": "on_board"}, 3: [True, None, 1.5, 10 ** 18, -(10 ** 18)],
           None: "x" * V.MAX_TEXT, True: {"n" * 200: datetime(2026, 5, 14)}, "deep": _deep(V.MAX_DEPTH - 1)}
    assert V.document(doc) is doc
