"""The places of a parsed document, and the document with one of them replaced: what the tests
that put hostile or wrong-typed values into real documents walk."""
from __future__ import annotations

import copy


def paths(doc, prefix=(), items: int | None = None):
    """Every place in a document a value can be replaced, the document itself first; `items`: how
    many items of each list to walk into (all by default)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,), items)
    elif isinstance(doc, list):
        for i, v in enumerate(doc[:items]):
            yield from paths(v, prefix + (i,), items)


def replaced(doc, path, value):
    """A copy of `doc` with `value` at `path` (the value itself for the empty path)."""
    if not path:
        return value
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc
