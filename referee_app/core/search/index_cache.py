"""The index on disk: where it lives, when it is stale, how it is built so that no reader ever sees
half of one, and what happens when the cache folder cannot be used.

The index lives in the user cache folder, never in the installed package. `current.json` there
names the index folder in use, the stamp of the knowledge it was built from and a checksum of
each of its files: a stale stamp or a damaged file means a rebuild, never a crash. A build goes
into a temporary folder that is renamed into place before `current.json` is replaced. A cache
folder that is a file, or that cannot be written, is no reason to fail: the searcher then
builds its index in memory (`build_in_memory`).
"""
from __future__ import annotations

import json
import os
import pickle
import time
import zlib
from pathlib import Path

from . import backend

# Bump whenever the schema, the analysis or the documents change: an index built by another
# version of this code is then stale even though the knowledge base is the same.
SCHEMA_VERSION = 22
CURRENT = "current.json"
AUX = "aux.pickle"  # what the searcher keeps beside the index (documents.aux_data), as JSON's plain data
GRACE_SECONDS = 120  # an index or build folder younger than this may be another process's


def cache_dir() -> Path:
    """Where the index lives: the user cache folder (XDG_CACHE_HOME is honoured)."""
    from referee_app.core.cache_files import cache_folder

    return cache_folder() / "search"


def fingerprint(root: Path) -> str:
    """What vouches for the knowledge files without parsing them: the knowledge cache's key of the
    folder, which hashes their bytes (and the code reading them), or finds it by their stat alone
    once they have been left alone a few seconds (core/knowledge/cache.py)."""
    from referee_app.core.knowledge.cache import folder_key

    return folder_key(Path(root))


def _quick(fp: str, stamp: str) -> str:
    # this code's schema and whoosh's version too: an index another version built is stale though
    # the knowledge is not
    return f"{SCHEMA_VERSION}:{backend.VERSION}:{fp}:{stamp}"


def stamp(kb, rulesets: dict) -> str:
    """What the index depends on: this code's schema, the knowledge, the thesaurus, the citation
    names and which ruleset has which source."""
    from referee_app.core.cache_files import sha256

    from .documents import stamp_data

    spec = {"schema": SCHEMA_VERSION, "whoosh": backend.VERSION, "kb": kb.stamp, **stamp_data(kb, rulesets)}
    return sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def read_current(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / CURRENT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("dir") if isinstance(data, dict) else None
    # only a folder of ours, beside current.json: a garbled pointer must not lead elsewhere
    return data if isinstance(name, str) and name.startswith("idx-") and Path(name).name == name else None


def _write_current(folder: Path, data: dict) -> None:
    # Written beside, then renamed over: a reader sees the old pointer or the new one, never half.
    tmp = folder / f".{CURRENT}.{os.urandom(8).hex()}"
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, folder / CURRENT)


def _manifest(index_dir: Path) -> dict[str, list[int]]:
    out = {}
    for path in sorted(index_dir.iterdir()):
        if path.is_file() and not path.name.endswith("LOCK"):
            data = path.read_bytes()
            out[path.name] = [len(data), zlib.crc32(data)]
    return out


def _intact(folder: Path, current: dict) -> bool:
    """Whether every file the index was built with is still there, byte for byte."""
    index_dir = folder / current["dir"]
    manifest = current.get("manifest")
    if not isinstance(manifest, dict) or not manifest or not index_dir.is_dir():
        return False
    try:
        for name, (size, crc) in manifest.items():
            data = (index_dir / name).read_bytes()
            if len(data) != size or zlib.crc32(data) != crc:
                return False
    except (OSError, TypeError, ValueError):
        return False
    return True


def fresh(folder: Path, knowledge) -> bool:
    """Whether the index in `folder` is intact and built from `knowledge` (a knowledge root).

    While its knowledge base has not been read, a digest of the knowledge files vouches for the
    stamp, so that a fresh index is opened without parsing the YAML; only when that digest changed
    is the knowledge base read and its stamp compared. One already read (perhaps changed in memory
    since) is compared by its stamp.
    """
    current = read_current(folder)
    if current is None or not _intact(folder, current):
        return False
    quick = not knowledge.kb_read
    if quick:
        fp = fingerprint(knowledge.root)
        if current.get("quick") == _quick(fp, str(current.get("stamp"))):
            return True
    if current.get("stamp") != stamp(knowledge.kb, knowledge.rulesets):
        return False
    if quick:  # the files changed but not what the index holds: remember, skip the check next time
        _write_current(folder, dict(current, quick=_quick(fp, current["stamp"])))
    return True


def build(folder: Path, knowledge) -> dict:
    """Build a new index into a temporary folder, rename it into place and point current.json at it."""
    import shutil
    import tempfile

    from .documents import analyzers, aux_data, documents, index_data, vocabulary

    kb, rulesets = knowledge.kb, knowledge.rulesets
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    try:
        count = backend.build(tmp, documents(kb, rulesets), analyzers(), vocabulary(kb))
        built = backend.open_dir(tmp)
        try:
            aux = aux_data(kb, rulesets)
            aux.update(index_data(built, aux["terms"]))
        finally:
            built.close()
        (tmp / AUX).write_bytes(_dumps(aux))
        manifest = _manifest(tmp)
        final = folder / f"idx-{os.urandom(6).hex()}"
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    st = stamp(kb, rulesets)
    current = {"dir": final.name, "stamp": st, "quick": _quick(fingerprint(knowledge.root), st),
               "docs": count, "manifest": manifest, "built": time.time()}
    _write_current(folder, current)
    _remove_old(folder, keep=final.name)
    return current


def build_in_memory(knowledge):
    """(open index, aux data) built in memory: for a cache folder that cannot be used."""
    from .documents import analyzers, aux_data, documents, index_data, vocabulary

    kb, rulesets = knowledge.kb, knowledge.rulesets
    index = backend.build(None, documents(kb, rulesets), analyzers(), vocabulary(kb))
    aux = aux_data(kb, rulesets)
    return index, dict(aux, **index_data(index, aux["terms"]))


def open_built(folder: Path, current: dict | None):
    """(open index, aux data) of the index current.json names."""
    if current is None:
        raise ValueError("no current index")  # current.json unreadable: the caller builds anew
    path = folder / current["dir"]
    aux = _loads((path / AUX).read_bytes())
    if not isinstance(aux, dict):
        raise ValueError(f"{AUX} is not the search's")
    return backend.open_dir(path), aux


def _dumps(value) -> bytes:
    # JSON's data (lists, not tuples; string keys) pickled: what a search reads is the same
    # whichever way the files were written
    return pickle.dumps(json.loads(json.dumps(value, ensure_ascii=False)), protocol=pickle.HIGHEST_PROTOCOL)


def _loads(data: bytes):
    return backend.plain_data(data)


def _remove_old(folder: Path, keep: str) -> None:
    """Delete earlier indexes and abandoned builds. Recent ones are left alone: another process
    may be building one, or opening the index it has just built (they go at a later build)."""
    import shutil

    now = time.time()
    for path in folder.iterdir():
        if path.name == keep or not path.name.startswith(("idx-", "build-", f".{CURRENT}.")):
            continue
        try:
            if now - path.stat().st_mtime < GRACE_SECONDS:
                continue
        except OSError:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def ensure_index(knowledge, folder: Path | None = None) -> bool:
    """Build the index of `knowledge` (a knowledge root) if it is missing, damaged or stale; True
    when it was (re)built."""
    folder = Path(folder) if folder else cache_dir()
    if fresh(folder, knowledge):
        return False
    build(folder, knowledge)
    return True
