"""Reading one file of a knowledge folder: from the knowledge cache (cache.py) when it holds the
file as it is now, else parsed (yamlio.py).

Neither of those two imports the other's reading: the cache parses with yamlio when it builds
itself, and this module, above both, is where a read asks the cache first.
"""
from __future__ import annotations

from pathlib import Path

from .cache import MISS, cached_parse
from .yamlio import load_text


def load_file(path: Path, name: str | None = None):
    """A knowledge-base file: trusted, so read at full speed; answered from the knowledge cache
    when it holds the file as it is now."""
    data = Path(path).read_bytes()
    parsed = cached_parse(Path(path), data)
    if parsed is not MISS:
        return parsed
    return load_text(data.decode("utf-8"), name or str(path))
