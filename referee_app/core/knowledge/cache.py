"""The knowledge base, parsed and loaded once, kept in the user's cache folder.

Parsing the 60-odd YAML files is most of what a start costs. So the first start parses every file
of a knowledge folder and writes the parses to one file of the XDG cache folder
(`~/.cache/carrom-referee/knowledge-<key>.pickle`, an index then pickles: cache_entries.py); the
loader adds the loaded and validated knowledge base to it (`store_knowledge`). The key hashes the
folder's files (names and bytes) and the code that reads them (yamlio, files, model, loader,
this module, cache_entries): a later start whose folder and code are unchanged reads that one file instead;
anything changed gives a new key, hence a rebuild. The few most recently written files are kept (a
checkout, an installed copy, a folder named by CARROM_REFEREE_KNOWLEDGE), older ones removed.

Never stale: a parse is looked up by the hash of the file's bytes as read now, and the loaded
knowledge base is used only while the folder still hashes to the key it was stored under (a test
editing a copy, a maintainer editing YAML in a running session). Reading and hashing every file
costs each start a few ms, so a start first takes each file's stat (`_stamp`): size, inode, and
modification and change times to the nanosecond. A folder whose stat was seen before, when every
file had been left alone for SETTLED_NS, is known by the key its bytes hashed to then
(`knowledge.stamps.pickle`), and so is each of its files whose stat is still the one seen then: its
parse is found by its path, without hashing its bytes (`_Folder.parse`). The change time (ctime) is
the system's, set on every write and every change of the modification time, so an edit that keeps a
file's size and puts its modification time back still changes the stamp; a file written in the last
SETTLED_NS, whose edit could still fall within the file system's clock tick, is never trusted by
its stamp; nor is any file on Windows, whose st_ctime is the creation time (STAMPS_TRUSTED). A
start that trusts the stamp hashes nothing, and never imports hashlib (OpenSSL's, which costs it
2.5 ms). A damaged, truncated or foreign cache file is ignored and rewritten; a cache folder that
cannot be written is not used. The file is written under a temporary name then renamed, so a crash
never leaves half a cache under the real name, and read with an unpickler that builds only plain
data and the loader's own records.
"""
from __future__ import annotations

import _pickle   # the C pickler, without pickle.py: docs/architecture.md, Start-up
import contextlib
import gc
import io
import os
import time
from typing import Any
from collections.abc import Mapping
from dataclasses import fields, replace
from pathlib import Path

from referee_app.core.cache_files import cache_folder, remove_older, sha256, write_whole
from .cache_entries import PROTOCOL, EntryFile, layout
from .model import Clause

KEEP = 3
VERSION = b"2"  # bump when what is stored changes shape in a way the code hash does not show
# The code that reads or makes what is kept, from this folder: a change to it is a new key. It is
# every module the loader, the rulesets' reader and the rules' compiler import (a test keeps the
# list whole), and the schema the rulesets are checked against.
_CODE = ("yamlio.py", "files.py", "model.py", "loader.py", "cache.py", "cache_entries.py", "rulesets.py",
         "schema_reader.py", "../../schemas/knowledge/ruleset.json", "../../languages.py", "../cache_files.py",
         "../errors.py", "../validation.py", "../rules/compile.py", "../rules/conditions.py", "../rules/engine.py",
         "../rules/parameters.py", "../rules/situation.py")
_LOADED = "knowledge base"  # the loader's (KnowledgeBase, problems), as `_stored` keeps them
_PROBLEMS = "problems"      # its problems alone: a start learns them without reading the knowledge base
_OUTLINE = "outline"        # its sources and its clauses' ids, for the same reason
RULESETS = "rulesets"       # rulesets.load_rulesets's rulesets, read and checked
_DIGESTS = "file digests"   # the entry mapping each file's path from the folder to its parse's entry
_SAFE_CLASSES = {("referee_app.core.knowledge.yamlio", "LineDict"), ("datetime", "date"),
                 ("datetime", "datetime"), ("datetime", "timedelta"), ("datetime", "timezone"),
                 ("pathlib", "PosixPath"), ("pathlib", "WindowsPath")} | {
    ("referee_app.core.knowledge.model", name) for name in ("KnowledgeBase", "Source", "Term", "Problem", "Ruleset")} | {
    ("referee_app.core.rules.engine", name) for name in ("CompiledRuleset", "Rule", "Board")} | {
    ("referee_app.core.rules.conditions", "Test")}
MISS = object()
SETTLED_NS = 2_000_000_000   # a file left alone this long is trusted by its stamp; 2 s: FAT's clock tick
_STAMPS = "knowledge.stamps.pickle"   # [(stamp, key)], the newest last
_OLD_STAMPS = "knowledge.stamps"
# Windows's st_ctime is a file's creation time, not its last change: an edit that puts the
# modification time back would go unseen there, so there a start always hashes the files' bytes.
STAMPS_TRUSTED = os.name != "nt"
_KEEP_STAMPS = 8


class _PlainUnpickler(_pickle.Unpickler):
    def find_class(self, module: str, name: str):
        if (module, name) not in _SAFE_CLASSES:
            raise _pickle.UnpicklingError(f"{module}.{name} is not the knowledge base's")
        return super().find_class(module, name)


def _loads(blob: bytes):
    # The loaded knowledge base is tens of thousands of objects, none of them garbage: the
    # collector, run every few hundred allocations, would walk them again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _PlainUnpickler(io.BytesIO(blob)).load()
    finally:
        if collecting:
            gc.enable()


def _dumps(value) -> bytes:
    return _pickle.dumps(value, protocol=PROTOCOL)


def _plain(value):
    """`value` with each YAML mapping in it a plain dict, without its line number."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _stored(loaded) -> tuple:
    """What `store_knowledge` keeps of the loader's (KnowledgeBase, problems): the knowledge base
    without its clauses, the clauses' ids and field names, and the clauses as rows of their
    fields' values, each YAML entry in them (decides, examples...) a plain dict. A quarter of the
    start's unpickling was spent putting back line numbers only a broken rule or worked example
    needs, and those read their file again for it (loader.entry_line); and 594 Clause objects, each
    pickled with a dict of its field names, took 3.8 ms to unpickle where their rows take 2.0 ms
    and making the objects of them 0.5 ms (`_restored`)."""
    kb, problems = loaded
    names = tuple(f.name for f in fields(Clause))
    rows = [tuple(_plain(getattr(clause, name)) for name in names) for clause in kb.clauses.values()]
    return replace(kb, clauses={}), problems, tuple(kb.clauses), names, rows


def _restored(stored) -> tuple:
    """The loader's (KnowledgeBase, problems) from what `_stored` made."""
    kb, problems, ids, names, rows = stored
    clauses = []
    for row in rows:
        clause = object.__new__(Clause)   # as unpickling makes an object: its fields set, no __init__ run
        clause.__dict__.update(zip(names, row))
        clauses.append(clause)
    kb.clauses = dict(zip(ids, clauses))
    return kb, problems


def _code_path(name: str) -> Path:
    return Path(__file__).parent / name


def _hash(data: bytes) -> str:
    return sha256(data).hexdigest()


def yaml_files(root: Path) -> list[tuple[str, Path]]:
    """Every YAML file in the folder `root` and below: (its path from root, with slashes; its
    path), in order. Walked with os.scandir: pathlib's rglob and relative_to cost a start more
    than reading and hashing the files."""
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(folder: str, parts: tuple[str, ...]) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, parts + (entry.name,))
                elif entry.name.endswith(".yaml") and entry.is_file():
                    found.append((parts + (entry.name,), entry.path))

    walk(str(root), ())
    return [("/".join(parts), Path(path)) for parts, path in sorted(found)]


def _contents(root: Path) -> tuple[str, dict[str, bytes]]:
    """The folder's key, and its YAML files' bytes by their path from the folder."""
    digest = sha256(VERSION)
    for name in _CODE:
        code = _code_path(name)
        digest.update(code.read_bytes() if code.is_file() else name.encode())  # a frozen bundle has no source
    contents = {}
    for rel, path in yaml_files(root):
        contents[rel] = data = path.read_bytes()
        digest.update(rel.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()[:24], contents


def _stat(path) -> tuple[int, ...] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns


def _stamp(root: Path) -> tuple[tuple, bool]:
    """The stat of the folder's YAML files and of the code that reads them, each (its path, its
    `_stat`), and whether every one of them was left alone for SETTLED_NS (else its bytes must be
    hashed). Kept whole, not hashed: compared whole, no two stamps can be mistaken for each other."""
    settled_before = time.time_ns() - SETTLED_NS
    settled = STAMPS_TRUSTED
    paths = [(name, _code_path(name)) for name in _CODE] + yaml_files(root)
    stamp = [(rel, _stat(path)) for rel, path in paths]   # None: a frozen bundle has no source
    for _, stat in stamp:
        settled = settled and (stat is None or max(stat[2], stat[3]) < settled_before)
    return (VERSION, *stamp), settled


def _stamps() -> list[tuple[tuple, str]]:
    try:
        kept = _loads((cache_folder() / _STAMPS).read_bytes())
    except Exception:  # absent, damaged, foreign: no stamp is known
        return []
    if not isinstance(kept, list):
        return []
    return [pair for pair in kept if isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[1], str)
            and pair[1].isalnum()]


def _stamped_key(stamp: tuple) -> str | None:
    """The key the folder hashed to when it last had this stamp, if it was then settled."""
    return next((key for seen, key in reversed(_stamps()) if seen == stamp), None)


def _keep_stamp(stamp: tuple, key: str) -> None:
    kept = [pair for pair in _stamps() if pair[0] != stamp][-(_KEEP_STAMPS - 1):] + [(stamp, key)]
    if write_whole(cache_folder() / _STAMPS, _dumps(kept)):
        with contextlib.suppress(OSError):   # the text file earlier versions kept the stamps in
            (cache_folder() / _OLD_STAMPS).unlink()


class _Folder:
    """One knowledge folder as it was when this process first read it."""

    def __init__(self, root: Path, key: str, contents: dict[str, bytes] | None, stamp: tuple = ()):
        """`contents`: the files' bytes, to build the cache file with when it cannot be read; None
        when the key comes from the folder's `stamp` (entries are then None, not a rebuild)."""
        self.root, self.key = root, key
        self.stats = dict(stamp[1:])   # each file's stat when the folder had the key's bytes
        self._digests: dict[str, str] | None = None
        self.entries: Mapping[str, bytes] | None = self._read()
        if self.entries is None and contents is not None:
            self.entries = self._build(contents)

    @property
    def path(self) -> Path:
        return cache_folder() / f"knowledge-{self.key}.pickle"

    def _read(self) -> EntryFile | None:
        try:
            return EntryFile(self.path, _loads)
        except Exception:  # absent, damaged, foreign: rebuilt, whatever it was
            return None

    def _build(self, contents: dict[str, bytes]) -> dict[str, bytes]:
        from .yamlio import YamlError, load_text

        entries, digests = {}, {}
        for rel, data in contents.items():
            digests[rel] = digest = _hash(data)
            try:
                entries[digest] = _dumps(load_text(data.decode("utf-8"), str(self.root / rel)))
            except (YamlError, UnicodeDecodeError):
                continue  # not kept: reading it again reports the problem in the caller's words
        entries[_DIGESTS] = _dumps(digests)
        self._write(entries)
        return entries

    def _write(self, entries: dict[str, bytes]) -> None:
        target = self.path
        if write_whole(target, layout(entries)):
            remove_older(target, "knowledge-*.pickle", KEEP)

    def parse(self, path: Path, data: bytes):
        """The parse of `data`, the bytes just read from `path` (resolved, in the folder)."""
        assert self.entries is not None, "a folder in use has its entries (_current)"
        blob = self.entries.get(self._unchanged_digest(path) or _hash(data))
        return _loads(blob) if blob is not None else MISS

    def _unchanged_digest(self, path: Path) -> str | None:
        """The hash of the file's bytes when its stat, taken after they were read, is still the
        one its folder's stamp was trusted with: any write since would have changed its ctime."""
        rel = path.relative_to(self.root).as_posix()
        stat = self.stats.get(rel)
        if stat is None or _stat(path) != stat:
            return None
        if self._digests is None:
            try:
                assert self.entries is not None, "a folder in use has its entries (_current)"
                self._digests = _loads(self.entries[_DIGESTS])
            except Exception:  # a cache file without them: the bytes are hashed
                self._digests = {}
        return self._digests.get(rel)

    def loaded(self):
        found = self.kept(_LOADED)
        return None if found is None else _restored(found)

    def kept(self, name: str):
        """The entry `name` as it was kept (None when it was not, or cannot be read)."""
        try:
            assert self.entries is not None, "a folder in use has its entries (_current)"
            return _loads(self.entries[name])
        except Exception:
            return None

    def keep(self, values: dict[str, Any]) -> None:
        """Keeps each value as the entry of its name, but those there already, in one write."""
        assert self.entries is not None, "a folder in use has its entries (_current)"
        if all(name in self.entries for name in values):
            return
        try:
            entries = dict(self.entries)
        except KeyError:   # its file was replaced since it was opened: the new one is as good
            return
        for name, value in values.items():
            entries.setdefault(name, _dumps(value))
        self.entries = entries
        self._write(entries)


_folders: dict[Path, _Folder] = {}


def _current(root: Path) -> _Folder:
    """The folder's cache as the folder is now: the one already open if its files are unchanged."""
    stamp, settled = _stamp(root)
    key = _stamped_key(stamp) if settled else None
    folder = _folders.get(root)
    if key is not None:
        if folder is not None and folder.key == key:
            return folder
        folder = _Folder(root, key, None, stamp)
        if folder.entries is not None:
            _folders[root] = folder
            return folder
    key, contents = _contents(root)   # a stamp not seen settled, or no cache file for it: the bytes decide
    folder = _folders.get(root)
    if folder is None or folder.key != key:
        folder = _folders[root] = _Folder(root, key, contents)
    if settled:
        _keep_stamp(stamp, key)
    return folder


def _root_of(path: Path) -> Path | None:
    """The knowledge folder holding `path`: the nearest folder above it with a sources.yaml."""
    for folder in path.parents:
        if (folder / "sources.yaml").is_file():
            return folder
    return None


def cached_parse(path: Path, data: bytes):
    """The parse of the YAML file `path` whose bytes are `data`, from its knowledge folder's
    cache; MISS when it is in no knowledge folder or the cache lacks it as it is now."""
    path = path.resolve()
    root = _root_of(path)
    if root is None:
        return MISS
    folder = _folders.get(root) or _current(root)
    return folder.parse(path, data)


def folder_key(root: Path) -> str:
    """The key of the knowledge folder `root` as its files are now (their bytes, and the code
    reading them): found by the folder's stamp when it is trusted, else by hashing the files. For
    a cache of something else made from the folder (the search index) to know it is still its."""
    root = Path(root).resolve()
    stamp, settled = _stamp(root)
    key = _stamped_key(stamp) if settled else None
    if key is None:
        key = _contents(root)[0]
        if settled:
            _keep_stamp(stamp, key)
    return key


def cached_knowledge(root: Path) -> tuple[Any, str]:
    """What `store_knowledge` kept for the folder as its files are now (or None), and the folder's
    key to hand back to `store_knowledge`."""
    root = Path(root).resolve()
    if not (root / "sources.yaml").is_file():
        return None, ""  # not a knowledge folder: the loader says what is wrong
    folder = _current(root)
    return folder.loaded(), folder.key


def store_knowledge(root: Path, key: str, loaded) -> None:
    """Keeps `loaded` (the loader's KnowledgeBase and problems) for the folder whose key was `key`
    when the loader began reading it; nothing is kept if the folder has changed since."""
    kb, problems = loaded
    keep(root, key, {_LOADED: _stored(loaded), _PROBLEMS: list(problems),
                     _OUTLINE: (dict(kb.sources), tuple(kb.clauses))})


def cached_problems(root: Path) -> tuple[list | None, str]:
    """The problems of the knowledge base `store_knowledge` kept for the folder as its files are
    now (None when it kept none), and the folder's key, without reading the knowledge base."""
    root = Path(root).resolve()
    if not (root / "sources.yaml").is_file():
        return None, ""
    folder = _current(root)
    found = folder.kept(_PROBLEMS)
    return (found if isinstance(found, list) else None), folder.key


def kept_outline(root: Path, key: str) -> tuple[dict, tuple] | None:
    """The sources and the clauses' ids of the knowledge base kept for the folder when its key was
    `key` (or None)."""
    found = kept(root, key, _OUTLINE)
    return found if isinstance(found, tuple) and len(found) == 2 else None


def kept_knowledge(root: Path, key: str):
    """What `store_knowledge` kept for the folder when its key was `key` (or None)."""
    found = kept(root, key, _LOADED)
    return None if found is None else _restored(found)


def compiled_entry(ruleset_id: str) -> str:
    """The name of the entry keeping a ruleset compiled (rules/compile.py: compile_ruleset)."""
    return f"compiled {ruleset_id}"


def kept(root: Path, key: str, name: str):
    """The entry `name` kept for the folder when its key was `key`, the key its knowledge base was
    read with (or None): what is found was then made from the same files as that knowledge base."""
    folder = _folders.get(Path(root).resolve())
    if folder is None or folder.key != key:
        return None
    return folder.kept(name)


def keep(root: Path, key: str, values: dict[str, Any]) -> None:
    """Keeps `values` (entry name -> value) for the folder whose key was `key`, in one write;
    nothing is kept if the folder has changed since."""
    root = Path(root).resolve()
    folder = _folders.get(root)
    if folder is not None and folder.key == key == _contents(root)[0]:
        folder.keep(values)
