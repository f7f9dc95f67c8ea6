"""Reading the source files the way the knowledge base quotes them."""
from __future__ import annotations

import re
from pathlib import Path

_MARKUP = re.compile(r"[*#|•]")
_BULLET = re.compile(r"^[ \t]*(?:[-–][ \t]+)+", re.M)
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Text without markdown, list dashes, table bars or line breaks, white space folded."""
    text = _BULLET.sub("", text)
    text = _MARKUP.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def source_texts(shared: Path, files) -> str:
    return "\n".join(normalise((shared / "sources" / f).read_text(encoding="utf-8")) for f in files)


def as_printed(clause) -> str:
    """The clause's text with its listed mends undone, i.e. as the source prints it."""
    text = clause.text
    for mend in clause.mended:
        text = text.replace(str(mend["as"]), str(mend["printed"]))
    return normalise(text)
