"""Safe YAML reading that remembers where each mapping starts, so errors can name the line.

PyYAML is imported on the first parse, not with this module: the command line imports YamlError
from here, and a start answered from the knowledge cache (cache.py) parses no YAML at all.
A knowledge-base file is read through files.py, which asks that cache first: this module knows
nothing of the cache, so the cache can parse with it.
"""
from __future__ import annotations

from functools import cache


class LineDict(dict):
    """A mapping read from YAML; `line` is its 1-based line in the file."""

    line: int = 0


def _construct_mapping(loader, node):
    mapping = LineDict(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


@cache
def _loaders():
    """(PyYAML, its fastest safe loader, that loader building LineDicts)."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    # the base is chosen at run time (libyaml's loader where PyYAML was built with it)
    class LineLoader(base):  # type: ignore[valid-type,misc]  # still a safe loader: only the mapping type changes
        pass

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    return yaml, base, LineLoader


class YamlError(ValueError):
    def __init__(self, path: str, line: int, problem: str):
        self.path, self.line, self.problem = path, line, " ".join(str(problem).split())
        super().__init__(f"{path}:{line}: {self.problem}")


def load_text(text: str, name: str = "<input>", untrusted: bool = False):
    """Parse YAML (or JSON, which is YAML) safely; a syntax error names the line.

    `untrusted` text (a user's file, a typed value) is first measured on the parser's event stream:
    its nesting and its size with every alias expanded are bounded before anything is built, so a
    "billion laughs" document is refused in milliseconds instead of filling the memory. Untrusted
    text that is plain JSON, as a situation or a stroke file usually is, is read as JSON (`_json`).
    """
    if untrusted:
        found = _json(text)
        if found is not _NOT_JSON:
            return found
    yaml, _, line_loader = _loaders()
    try:
        if untrusted:
            _measure(text, name)
        return yaml.load(text, Loader=line_loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise YamlError(name, line, f"not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise YamlError(name, 0, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlError(name, 0, "nested too deeply") from None
    except (ValueError, OverflowError) as exc:  # a timestamp such as 2026-02-30, built by the loader
        raise YamlError(name, 0, f"not valid YAML: {exc}") from None


_NOT_JSON = object()


def _json(text: str):
    """The document `text` is, read by the json module, or _NOT_JSON.

    Importing PyYAML costs a command 8-9 ms, a tenth of `rule`'s start, and every JSON document is
    a YAML one meaning the same, but for what the YAML path refuses in its own words (nested too
    deeply, too large, a number of implausible length: the same bounds) and what JSON alone reads
    (NaN, Infinity): those, and anything json refuses, go the YAML way. A mapping read so has no
    line number: only the knowledge base's own files, never read here, are cited by line."""
    if not text.lstrip().startswith(("{", "[")):
        return _NOT_JSON
    import json
    from referee_app.core.validation import MAX_DEPTH, MAX_NODES

    def constant(name: str):
        raise ValueError(name)

    try:
        data = json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError):
        return _NOT_JSON
    seen, stack = 0, [(data, 0)]
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            return _NOT_JSON
        if isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                return _NOT_JSON
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
        elif type(value) is int and abs(value) >= 10 ** 100:
            return _NOT_JSON
    return data


def _measure(text: str, name: str) -> None:
    from referee_app.core.validation import MAX_DEPTH, MAX_NODES

    measure(text, name, MAX_NODES, MAX_DEPTH)


def measure(text: str, name: str, MAX_NODES: int, MAX_DEPTH: int) -> None:
    """Refuses (YamlError) a YAML stream, of one document or several, nested deeper than
    MAX_DEPTH or holding more than MAX_NODES values once its aliases are expanded; builds nothing."""
    yaml, base, _ = _loaders()

    sizes: dict[str, int] = {}          # anchor -> values under it, aliases expanded
    open_: list[list] = []              # [anchor, values under it so far] of each open collection
    total = 0

    def count(n: int, line: int) -> None:
        nonlocal total
        total += n
        if open_:
            open_[-1][1] += n
        if total > MAX_NODES:
            raise YamlError(name, line, f"too large once its aliases are expanded (more than {MAX_NODES} values)")

    for event in yaml.parse(text, Loader=base):
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            if len(open_) >= MAX_DEPTH:
                raise YamlError(name, line, f"nested too deeply (more than {MAX_DEPTH} levels)")
            count(1, line)
            open_.append([event.anchor, 1])
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            anchor, n = open_.pop()
            if anchor:
                sizes[anchor] = n
            if open_:
                open_[-1][1] += n - 1   # the collection itself was counted when it opened
        elif isinstance(event, yaml.ScalarEvent):
            if event.implicit[0] and len(event.value) > 100 and event.value.lstrip("+-").replace("_", "").isdigit():
                raise YamlError(name, line, f"a number of {len(event.value)} digits is not plausible")
            if event.anchor:
                sizes[event.anchor] = 1
            count(1, line)
        elif isinstance(event, yaml.AliasEvent):
            count(sizes.get(event.anchor, 1), line)


def line_of(obj, default: int = 0) -> int:
    return getattr(obj, "line", default)
