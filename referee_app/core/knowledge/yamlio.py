"""Safe YAML reading that remembers where each mapping starts, so errors can name the line.

PyYAML is imported on the first parse: a start answered from the knowledge cache never needs it.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path


class LineDict(dict):
    """A mapping read from YAML; `line` is its 1-based line in the file."""

    line: int = 0


@cache
def _line_loader():
    import yaml

    class LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # still safe: only the mapping type changes
        pass

    def construct_mapping(loader, node):
        mapping = LineDict(loader.construct_mapping(node, deep=True))
        mapping.line = node.start_mark.line + 1
        return mapping

    LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return yaml, LineLoader


class YamlError(ValueError):
    def __init__(self, path: str, line: int, problem: str):
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}")


def load_text(text: str, name: str = "<input>"):
    """Parse YAML (or JSON, which is YAML) safely; a syntax error names the line."""
    yaml, loader = _line_loader()
    try:
        return yaml.load(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise YamlError(name, line, f"not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise YamlError(name, 0, f"not valid YAML: {exc}") from None


def load_file(path: Path, name: str | None = None):
    """A YAML file; one of the knowledge base's is answered from its parse cache (cache.py) when
    the cache holds it as it is now."""
    from .cache import MISS, cached_parse

    data = Path(path).read_bytes()
    parsed = cached_parse(Path(path), data)
    if parsed is not MISS:
        return parsed
    return load_text(data.decode("utf-8"), name or str(path))


def line_of(obj, default: int = 0) -> int:
    return getattr(obj, "line", default)
