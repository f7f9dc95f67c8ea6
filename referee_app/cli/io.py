"""Reading input files (YAML or JSON, `-` for standard input) and printing JSON."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from referee_app.core.errors import BadInput
from referee_app.core.knowledge.yamlio import load_text


def read_document(path: str, what: str = "FILE"):
    """The parsed document at `path` (or standard input for `-`); refuses unreadable or empty input."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(what, f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(what, f"cannot read {path}: {exc}") from None
    data = load_text(text, "<stdin>" if path == "-" else path)
    if data is None:
        raise BadInput(what, "the document is empty")
    return data


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1) + "\n")
