"""The one reader of the knowledge base's own files: a parsed YAML document checked against its
JSON Schema (referee_app/schemas/knowledge/), each violation a Problem naming file, line, field.

Why not the `jsonschema` package: importing it costs 45 ms, two thirds of a warm `rule` (69 ms),
and the rulesets are read on every start. This module reads the subset of JSON Schema 2020-12
those schemas use, and refuses a schema using any other keyword, so a schema never says more
than is checked; tests/core/knowledge/test_schema_reader.py checks that `jsonschema` agrees with it.

A schema names what it checks with two annotations JSON Schema ignores:
- `x-what`, on a record: how a problem inside it names it, from its own fields ("measurement
  {name}"), its place in its list ({#}, counted from 1) and the record around it ({..});
- `x-problem` (one message for every keyword of that schema) or `x-problems` (a message per
  keyword; for `required`, a text or one per missing field) instead of the generic wording.
  A message may hold {value} (the value refused, shortened) and {key} (the field missing or unknown).
A third, `x-languages`, marks a list of every language (see `schema`).

The builders (spec.py, thesaurus.py...) then check only what a schema cannot say (a tolerance
that does not give its bounds, a clause that does not exist) and skip what `Report.refused` says
the schema refused already, so one mistake is reported once.
"""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from referee_app.languages import LANGUAGES
from .model import Problem
from .yamlio import line_of

FOLDER = Path(__file__).resolve().parents[2] / "schemas" / "knowledge"
ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples",
               "x-what", "x-problem", "x-problems", "x-languages"}
TYPES = {"object": "a mapping", "array": "a list", "string": "a text", "integer": "a whole number",
         "number": "a number", "boolean": "true or false", "null": "empty"}
MESSAGES = {
    "type": "must be {types}", "enum": "'{value}' is not one of {allowed}", "const": "must be {allowed}",
    "required": "needs '{key}'", "additionalProperties": "unknown field '{key}'",
    "pattern": "'{value}' is not of the expected form", "minLength": "is empty",
    "minItems": "needs at least {limit} entries", "minProperties": "needs at least {limit} entries",
    "minimum": "'{value}' is below {limit}", "exclusiveMinimum": "'{value}' must be above {limit}",
    "maximum": "'{value}' is above {limit}", "uniqueItems": "'{value}' is listed twice",
}


@cache
def schema(name: str) -> dict:
    """The schema `name`.json. A list marked `x-languages` (the `required` of a mapping of texts,
    the `enum` of a language) is set to referee_app/languages.py's languages: the file lists them
    too, for the JSON Schema tools, and tests/core/knowledge/test_schema_reader.py checks the two agree."""
    loaded = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    _check_keywords(loaded)
    return loaded


def _check_keywords(sch) -> None:
    """Refuses a keyword this reader does not read: it would look like a check and be none."""
    if not isinstance(sch, dict):
        raise ValueError(f"a schema must be a mapping, not {sch!r}")
    unknown = set(sch) - set(_KEYWORDS) - ANNOTATIONS
    if unknown:
        raise ValueError(f"schema keyword(s) {', '.join(sorted(unknown))} not read by schema_reader")
    if "x-languages" in sch:   # a list of every language: the one of referee_app/languages.py counts
        sch[sch["x-languages"]] = list(LANGUAGES)
    for key in ("properties", "$defs"):
        for inner in sch.get(key, {}).values():
            _check_keywords(inner)
    for key in ("items", "propertyNames", "additionalProperties"):
        if isinstance(sch.get(key), dict):
            _check_keywords(sch[key])


class Report:
    """The problems of one document, and the records (mappings, lists) holding any of them."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self._refused: set[int] = set()
        self._own: set[int] = set()
        self._chains: list[frozenset[int]] = []   # beside each problem, the records it is in

    def refused(self, node) -> bool:
        """Whether the schema refused `node` or anything in it."""
        return id(node) in self._refused

    def refused_itself(self, node) -> bool:
        """Whether the schema refused `node` itself (its type, a field missing, unknown or of a
        wrong type), not only something in a mapping or list under it."""
        return id(node) in self._own

    def about(self, node) -> list[Problem]:
        """The problems found in `node`."""
        return [p for p, chain in zip(self.problems, self._chains) if id(node) in chain]

    def say(self, chain: list, where: str, message: str) -> None:
        holder = next((n for n in reversed(chain) if isinstance(n, dict)), None)
        self.problems.append(Problem(self.file, line_of(holder, 0), f"{where}: {message}" if where else message))
        self._chains.append(frozenset(id(n) for n in chain))
        self._refused.update(id(n) for n in chain)
        if chain:
            self._own.add(id(chain[-1]))


def check(document, name: str, file: str, part: str | None = None) -> Report:
    """`document` against the schema `name` (its definition `part`, when given): every problem,
    in document order, each naming the line of the mapping it is in."""
    report = Report(file)
    root = schema(name)
    _Walk(root, report).node(document, root["$defs"][part] if part else root, [], "", None, "")
    return report


def shown(value) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Walk:
    def __init__(self, root: dict, report: Report):
        self.root, self.report = root, report

    def resolve(self, sch: dict) -> dict:
        while "$ref" in sch:
            ref = sch["$ref"]
            if not ref.startswith("#/$defs/"):
                raise ValueError(f"schema_reader follows only #/$defs/ references, not {ref}")
            sch = {**self.root["$defs"][ref[len("#/$defs/"):]], **{k: v for k, v in sch.items() if k != "$ref"}}
        return sch

    def fail(self, sch: dict, keyword: str, chain: list, where: str, **values) -> None:
        custom = (sch.get("x-problems") or {}).get(keyword, sch.get("x-problem"))
        if isinstance(custom, dict):
            custom = custom.get(values.get("key"))
        text = custom or MESSAGES[keyword]
        values.setdefault("value", shown(values.get("raw", "")))
        self.report.say(chain, where, text.format(**values))

    def node(self, value, sch: dict, chain: list, where: str, index: int | None, owner: str) -> None:
        """`value` against `sch`; `where` names it, `owner` the record it is in (for `x-what`'s {..})."""
        sch = self.resolve(sch)
        if not self.scalar(value, sch, chain, where):   # a value of the wrong type: its holder is at fault
            return
        if isinstance(value, (dict, list)):
            chain = [*chain, value]
        if "x-what" in sch and isinstance(value, dict):
            where = _named(sch["x-what"], value, index, owner) or where
        if isinstance(value, dict):
            self.mapping(value, sch, chain, where)
        elif isinstance(value, list):
            self.sequence(value, sch, chain, where, owner)

    def scalar(self, value, sch: dict, chain: list, where: str) -> bool:
        """The keywords on the value itself; False when its type is wrong (nothing more is said of it)."""
        if "type" in sch:
            types = sch["type"] if isinstance(sch["type"], list) else [sch["type"]]
            if not any(_is_type(value, t) for t in types):
                self.fail(sch, "type", chain, where, raw=value, types=" or ".join(TYPES[t] for t in types))
                return False
        if "enum" in sch and not any(_same(value, e) for e in sch["enum"]):
            self.fail(sch, "enum", chain, where, raw=value, allowed=", ".join(map(str, sch["enum"])))
        if "const" in sch and not _same(value, sch["const"]):
            self.fail(sch, "const", chain, where, raw=value, allowed=str(sch["const"]))
        if isinstance(value, str):
            if "minLength" in sch and len(value) < sch["minLength"]:
                self.fail(sch, "minLength", chain, where, raw=value, limit=sch["minLength"])
            if "pattern" in sch and not re.search(sch["pattern"], value):
                self.fail(sch, "pattern", chain, where, raw=value)
        if _is_type(value, "number"):
            for keyword, refused in (("minimum", value < sch.get("minimum", value)),
                                     ("exclusiveMinimum", "exclusiveMinimum" in sch and value <= sch["exclusiveMinimum"]),
                                     ("maximum", value > sch.get("maximum", value))):
                if refused:
                    self.fail(sch, keyword, chain, where, raw=value, limit=sch[keyword])
        return True

    def mapping(self, value: dict, sch: dict, chain: list, where: str) -> None:
        for key in sch.get("required", ()):
            if key not in value:
                self.fail(sch, "required", chain, where, key=key)
        if len(value) < sch.get("minProperties", 0):
            self.fail(sch, "minProperties", chain, where, raw=value, limit=sch["minProperties"])
        properties, extra = sch.get("properties", {}), sch.get("additionalProperties", True)
        names = sch.get("propertyNames")
        for key, item in value.items():
            inner = f"{where}.{key}" if where else str(key)
            if names is not None:
                self.node(key, names, chain, inner, None, where)
            if key in properties:
                self.node(item, properties[key], chain, inner, None, where)
            elif extra is False:
                self.fail(sch, "additionalProperties", chain, where, key=key)
            elif isinstance(extra, dict):
                self.node(item, extra, chain, inner, None, where)

    def sequence(self, value: list, sch: dict, chain: list, where: str, owner: str) -> None:
        if len(value) < sch.get("minItems", 0):
            self.fail(sch, "minItems", chain, where, raw=value, limit=sch["minItems"])
        if sch.get("uniqueItems"):
            for i, item in enumerate(value):
                if any(_same(item, earlier) for earlier in value[:i]):
                    self.fail(sch, "uniqueItems", chain, where, raw=item)
        if "items" in sch:
            for i, item in enumerate(value):
                self.node(item, sch["items"], chain, f"{where} #{i + 1}".strip(), i, owner)


_KEYWORDS = ("$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "propertyNames",
             "minProperties", "items", "minItems", "uniqueItems", "minLength", "pattern", "minimum",
             "exclusiveMinimum", "maximum")


def _is_type(value, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, {"object": dict, "array": list, "string": str, "boolean": bool,
                              "null": type(None)}[kind])


def _same(a, b) -> bool:
    # JSON Schema's equality: true is not 1
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _named(template: str, value: dict, index: int | None, parent: str) -> str | None:
    """`x-what` filled from the record; None when a field it names is missing or not a text."""
    def field(match: re.Match) -> str:
        name = match.group(1)
        if name == "#":
            return str((index or 0) + 1)
        if name == "..":
            return parent
        found = value.get(name)
        if not isinstance(found, (str, int)) or isinstance(found, bool) or found == "":
            raise LookupError(name)
        return str(found)

    try:
        return re.sub(r"\{([^{}]+)\}", field, template)
    except LookupError:
        return None
