"""The knowledge cache's file (cache.py): named entries of bytes, each read when first asked for.

A warm start needs the loaded knowledge base and the parses of the few files read after it
(rulesets, parameters, citations), a third of what the file holds: reading the whole file cost
it 1.6-2.0 ms, reading those 0.4-0.6 ms. So the file begins with an index, and an entry is read
from the file when it is first asked for, only from the very file the index came from: if the
file has been replaced since (another start rebuilt it), the entry is said to be absent, and the
caller does the work without it.

Layout: the index's length (8 bytes, little-endian); the index, pickled {name: (offset, length)};
then the entries, at those offsets from the index's end.
"""
from __future__ import annotations

import os
import _pickle   # the C pickler, without pickle.py: docs/architecture.md, Start-up
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

_HEAD = 8
PROTOCOL = 5   # pickle.HIGHEST_PROTOCOL since Python 3.8


def layout(entries: Mapping[str, bytes]) -> bytes:
    """The file holding `entries`, for `EntryFile` to read."""
    spans, offset = {}, 0
    for name, blob in entries.items():
        spans[name] = (offset, len(blob))
        offset += len(blob)
    index = _pickle.dumps(spans, protocol=PROTOCOL)
    return len(index).to_bytes(_HEAD, "little") + index + b"".join(entries.values())


def _identity(fd: int) -> tuple[int, ...]:
    st = os.fstat(fd)
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


class EntryFile(Mapping):
    """The entries of the file `path`, as a read-only mapping: an entry missing from it, or that
    can no longer be read from the same file, raises KeyError (`get` answers None)."""

    def __init__(self, path: Path, loads: Callable[[bytes], object]):
        """Reads the index, with `loads` (the cache's restricted unpickler); ValueError, OSError or
        an unpickling error when the file is absent, damaged or not one of these."""
        self.path = path
        with open(path, "rb") as f:
            length = int.from_bytes(f.read(_HEAD), "little")
            index = loads(f.read(length))
            self._identity = _identity(f.fileno())
        self._start = _HEAD + length
        size = self._identity[1]
        if not (isinstance(index, dict) and all(
                isinstance(name, str) and isinstance(span, tuple) and len(span) == 2
                and all(type(n) is int and n >= 0 for n in span) and self._start + sum(span) <= size
                for name, span in index.items())):
            raise ValueError(f"{path} is not a knowledge cache file")
        self._index: dict[str, tuple[int, int]] = index
        self._read: dict[str, bytes] = {}

    def __getitem__(self, name: str) -> bytes:
        blob = self._read.get(name)
        if blob is None:
            offset, length = self._index[name]
            try:
                with open(self.path, "rb") as f:
                    if _identity(f.fileno()) != self._identity:
                        raise KeyError(name)   # replaced since the index was read: its offsets are not this one's
                    f.seek(self._start + offset)
                    blob = f.read(length)
            except OSError:
                raise KeyError(name) from None
            if len(blob) != length:
                raise KeyError(name)
            self._read[name] = blob
        return blob

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def __contains__(self, name: object) -> bool:
        return name in self._index
