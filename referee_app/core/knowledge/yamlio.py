"""Safe YAML reading that remembers where each mapping starts, so errors can name the line."""
from __future__ import annotations

from pathlib import Path

import yaml

_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LineDict(dict):
    """A mapping read from YAML; `line` is its 1-based line in the file."""

    line: int = 0


class _LineLoader(_Base):  # still a safe loader: only the mapping type changes
    pass


def _construct_mapping(loader, node):
    mapping = LineDict(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


class YamlError(ValueError):
    def __init__(self, path: str, line: int, problem: str):
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}")


def load_text(text: str, name: str = "<input>"):
    """Parse YAML (or JSON, which is YAML) safely; a syntax error names the line."""
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise YamlError(name, line, f"not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise YamlError(name, 0, f"not valid YAML: {exc}") from None


def load_file(path: Path, name: str | None = None):
    return load_text(path.read_text(encoding="utf-8"), name or str(path))


def line_of(obj, default: int = 0) -> int:
    return getattr(obj, "line", default)
