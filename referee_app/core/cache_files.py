"""Files of the user's cache folder: what a start can rebuild but should not have to (the parsed
knowledge base, compiled catalogs).

A cache file is written under a temporary name and renamed, so a crash never leaves half of one
under the real name; a folder that cannot be written only means the work is done again next
time. `write_checked` and `read_checked` add a checksum, so that a damaged file reads as absent.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "carrom-referee"
_SUM = 32  # bytes of the sha256 heading a checked file


def cache_folder() -> Path:
    """The app's cache folder (XDG_CACHE_HOME on Linux, the platform's own elsewhere)."""
    if sys.platform == "linux":
        # platformdirs' answer for the usual environment, without importing it: that costs every
        # start 2 ms, and its answer is only ever this
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base) and os.path.isabs(os.environ.get("HOME", "")):
            base = os.path.expanduser("~/.cache")
        if os.path.isabs(base):
            return Path(base, APP)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP, appauthor=False))


def write_whole(target: Path, data: bytes) -> bool:
    """Writes `data` to `target` whole or not at all; False when the folder cannot take it."""
    import tempfile   # only a write needs it: `rule` and `search` on a warm cache write nothing

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.stem}-", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False  # a read-only or full cache folder: the next start does the work again
    return True


def remove_older(target: Path, pattern: str, keep: int) -> None:
    """Removes the files of target's folder matching `pattern` but the `keep` most recently written
    (target among them): another checkout or version may still use the newest few."""
    try:
        others = [p for p in target.parent.glob(pattern) if p != target]
        for old in sorted(others, key=lambda p: p.stat().st_mtime, reverse=True)[keep - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def sha256(data: bytes = b""):
    """hashlib.sha256, imported on first use: OpenSSL's hashlib costs a start 2.5 ms, and the
    knowledge cache's warm start hashes nothing (knowledge/cache.py)."""
    import hashlib

    return hashlib.sha256(data)


def write_checked(target: Path, data: bytes) -> bool:
    return write_whole(target, sha256(data).digest() + data)


def read_checked(path: Path) -> bytes | None:
    """What `write_checked` wrote, or None when the file is absent, cut short or damaged."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    data = blob[_SUM:]
    return data if len(blob) >= _SUM and sha256(data).digest() == blob[:_SUM] else None
