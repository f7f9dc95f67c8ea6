"""Runs searches off the GUI thread.

One searcher per process, created (and its index built if need be) by the first search, in the
worker: never at startup, never on the GUI thread. Searches run one at a time on a private
one-thread pool; a newer query removes the ones still waiting, and the panel ignores any answer
whose generation is not the latest, so stale results never replace fresh ones.
"""
from __future__ import annotations

import threading
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class SearchBackend:
    """The process's searcher, built lazily and thread-safely."""

    def __init__(self, factory: Callable[[], object] | None = None, kb=None, knowledge=None):
        """`knowledge`: the knowledge root searched by the default factory's Searcher; `kb`, the
        knowledge base this backend serves (that of `knowledge` when not given)."""
        self._factory = factory or self._default_factory
        self.knowledge = knowledge
        self.kb = kb if kb is not None or knowledge is None else knowledge.kb
        self._searcher = None
        self._lock = threading.Lock()

    @property
    def ready(self) -> bool:
        return self._searcher is not None

    def searcher(self):
        with self._lock:
            if self._searcher is None:
                searcher = self._factory()
                # Opening checks the index and builds it when missing or stale: the slow part.
                prepare = getattr(searcher, "open", None) or getattr(searcher, "ensure_index", None)
                if callable(prepare):
                    prepare()
                self._searcher = searcher
            return self._searcher

    def search(self, query: str, **filters) -> list[dict]:
        return list(self.searcher().search(query, **filters))

    def search_detailed(self, query: str, reader: str | None = None, **filters) -> dict:
        """The hits, shown in the `reader`'s language, and the words that matched nothing (none,
        for a searcher that cannot say)."""
        searcher = self.searcher()
        if hasattr(searcher, "search_detailed"):
            found = searcher.search_detailed(query, reader=reader, **filters)
            return {"hits": list(found["hits"]), "unmatched": list(found.get("unmatched", ()))}
        return {"hits": list(searcher.search(query, **filters)), "unmatched": []}

    def _default_factory(self):
        from referee_app.core.search import Searcher

        return Searcher(self.knowledge)


_backend: SearchBackend | None = None
_pool: QThreadPool | None = None


def backend(knowledge) -> SearchBackend:
    """The process's search backend over the knowledge root `knowledge` (a new one if its
    knowledge base is another)."""
    global _backend
    if _backend is None or (_backend.kb is not None and _backend.kb is not knowledge.kb):
        _backend = SearchBackend(knowledge=knowledge)
    return _backend


def set_backend(new: SearchBackend | None) -> None:
    """Replace the process's searcher (tests; a knowledge base reloaded from disk)."""
    global _backend
    _backend = new


def pool() -> QThreadPool:
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setMaxThreadCount(1)  # one index, built once; searches are milliseconds after that
    return _pool


def wait_for_searches(msecs: int = 30000) -> bool:
    """Drop the waiting searches and let the running one finish (before the app quits)."""
    if _pool is None:
        return True
    _pool.clear()
    return _pool.waitForDone(msecs)


class SearchSignals(QObject):
    """Lives on the GUI thread: signals emitted from the worker arrive there, queued."""

    building = Signal(int)          # generation: the index is being built for this search
    finished = Signal(int, object)  # generation, list of result dicts
    unmatched = Signal(int, object) # generation, the words that matched nothing (before finished)
    failed = Signal(int, str, str)  # generation, what failed ("index" or "search"), the error's own words


class SearchJob(QRunnable):
    def __init__(self, generation: int, query: str, filters: dict, signals: SearchSignals,
                 engine: SearchBackend, limit: int, reader: str | None = None):
        """`reader`: the language the hits are shown in (the window's), when no filter names one."""
        super().__init__()
        self.generation, self.query, self.filters = generation, query, filters
        self.signals, self.engine, self.limit, self.reader = signals, engine, limit, reader

    def run(self) -> None:
        try:
            if not self.engine.ready:
                self._emit("building", self.generation)
            found = self.engine.search_detailed(self.query, reader=self.reader, limit=self.limit, **self.filters)
        except Exception as exc:  # shown in the panel; a search must never take the app down
            # still no searcher: opening (or building) the index is what failed, not this search
            what = "search" if self.engine.ready else "index"
            self._emit("failed", self.generation, what, f"{type(exc).__name__}: {exc}")
            return
        self._emit("unmatched", self.generation, found["unmatched"])
        self._emit("finished", self.generation, found["hits"])

    def _emit(self, name: str, *args) -> None:
        try:
            getattr(self.signals, name).emit(*args)
        except RuntimeError:  # the window was closed while this search ran
            pass


def start(job: SearchJob) -> None:
    p = pool()
    p.clear()  # searches still waiting are stale now
    p.start(job)
