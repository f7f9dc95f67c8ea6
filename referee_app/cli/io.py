"""Reading input files (YAML or JSON, `-` for standard input) and printing JSON."""
from __future__ import annotations

import json
import sys

from referee_app.core import validation
from referee_app.core.errors import BadInput
from referee_app.core.knowledge.yamlio import load_text


def read_text(path: str, what: str = "FILE") -> str:
    """The text at `path` (standard input for `-`): a regular file of bounded size, in UTF-8."""
    limit = validation.MAX_INPUT_BYTES
    if path == "-":
        try:
            raw = sys.stdin.buffer.read(limit + 1) if hasattr(sys.stdin, "buffer") else sys.stdin.read(limit + 1)
        except OSError as exc:
            raise BadInput(what, f"cannot read standard input: {exc.strerror or exc}") from None
    else:
        raw = validation.regular_file_bytes(path, what, limit)
    if len(raw) > limit:
        raise BadInput(what, f"too large (more than {limit} bytes)")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise BadInput(what, f"is not UTF-8 text (byte {exc.start + 1})") from None
    return validation.text(raw, what)


def read_document(path: str, what: str = "FILE"):
    """The parsed document at `path` (or standard input for `-`); refuses unreadable, empty,
    oversized or absurdly nested input before anything is done with it."""
    text = read_text(path, what)
    data = load_text(text, "<stdin>" if path == "-" else validation.shown(path, 80), untrusted=True)
    if data is None:
        raise BadInput(what, "the document is empty")
    return validation.document(data, "document")


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1) + "\n")


def print_rows(rows, as_json: bool, line, doc=None, empty: str | None = None) -> None:
    """Records as one JSON array (each through `doc` when given), or as a `line` each, with
    `empty` said when there are none."""
    if as_json:
        print_json(rows if doc is None else [doc(r) for r in rows])
        return
    for r in rows:
        print(line(r))
    if not rows and empty:
        print(empty)


def knowledge_of(args):
    """The knowledge root a command works with: the one its caller handed `main`, else the
    installed one, loaded now (a command that never rules or reads the rulebook loads none)."""
    found = getattr(args, "knowledge", None)
    if found is None:
        from referee_app.core.knowledge.root import Knowledge

        found = args.knowledge = Knowledge.load()
    return found
