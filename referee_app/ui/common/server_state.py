"""The records server as the window sees it: reachable or not, and the saves waiting for it.

When a shared server cannot be reached, a save is not lost and not shown as done: the caller keeps
what was entered on screen, the write waits here under a key (a later write with the same key, the
same field typed again, replaces it) and is tried again on its own, sooner at first and then less
often (BACKOFF), or at once from the banner's Retry button. Its `on_saved` runs only once the
database has committed it, so a score sheet row or a "saved" mark never appears before that.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from referee_app.core.storage.errors import StoreUnavailable

BACKOFF = (1, 2, 4, 8, 15, 30)   # seconds before each automatic try; the last repeats


@dataclass
class Pending:
    """A save waiting for the server: what to run, then what to do once it is committed or refused."""

    action: Callable
    on_saved: Callable | None
    on_refused: Callable | None


class ServerState(QObject):
    """`changed` is emitted whenever the server is lost or found again, or the waiting saves change."""

    changed = Signal()

    def __init__(self, backoff=BACKOFF, parent=None):
        super().__init__(parent)
        self.backoff = tuple(backoff)
        self.problem: StoreUnavailable | None = None
        self.pending: dict = {}
        self.tries = 0
        self.next_try_at: float | None = None
        self.probe: Callable | None = None   # a cheap read that tells whether the server answers
        self.timer = QTimer(self, singleShot=True)
        self.timer.timeout.connect(self.retry_now)

    @property
    def unreachable(self) -> bool:
        return self.problem is not None

    def save(self, key, action: Callable, on_saved: Callable | None = None,
             on_refused: Callable | None = None) -> bool:
        """Runs the write `action`. True once committed (after `on_saved(result)`). False when the
        server cannot be reached: the write waits under `key` and is tried again; `on_saved` runs
        when it goes through, `on_refused(exc)` if the database then refuses it (a conflict, a
        rule). Any other refusal now is raised to the caller, as before."""
        if self.unreachable:
            # known lost: wait behind the others, without blocking the window on another try (a
            # server that does not answer takes its whole connection timeout to say so)
            self._wait(key, action, on_saved, on_refused)
            self.changed.emit()
            return False
        try:
            result = action()
        except StoreUnavailable as exc:
            self._wait(key, action, on_saved, on_refused)
            self.lost(exc)
            return False
        self.pending.pop(key, None)
        if on_saved is not None:
            on_saved(result)
        self.found()
        return True

    def attempt(self, action: Callable, default=None):
        """A read (a poll, a probe), or a write not kept waiting (an undo, a filing: the user makes
        it again once the server is back): its result, or `default` when the server cannot be reached."""
        try:
            result = action()
        except StoreUnavailable as exc:
            self.lost(exc)
            return default
        self.found()
        return result

    def cancel(self, key) -> None:
        if self.pending.pop(key, None) is not None:
            self.changed.emit()

    def waiting(self, key) -> bool:
        return key in self.pending

    def _wait(self, key, action, on_saved, on_refused) -> None:
        self.pending.pop(key, None)   # the latest write of a key goes last, after what was typed before it
        self.pending[key] = Pending(action, on_saved, on_refused)

    def lost(self, exc: StoreUnavailable) -> None:
        self.problem = exc
        delay = self.backoff[min(self.tries, len(self.backoff) - 1)]
        self.tries += 1
        self.next_try_at = time.monotonic() + delay
        self.timer.start(int(delay * 1000))
        self.changed.emit()

    def found(self) -> None:
        """The server answered: the waiting saves go now, in the order they were made."""
        if self.problem is None and not self.pending:
            return
        self.problem, self.tries, self.next_try_at = None, 0, None
        self.timer.stop()
        if self.pending:
            self.retry_now()
        else:
            self.changed.emit()

    def noticed(self, exc: Exception) -> bool:
        """True when `exc` says the server is out of reach (then the banner says so too)."""
        if isinstance(exc, StoreUnavailable):
            self.lost(exc)
            return True
        return False

    def retry_now(self) -> None:
        self.timer.stop()
        if not self.pending:
            if self.probe is None:   # nothing to try with: lost until the next read or write succeeds
                self.next_try_at = None
                self.changed.emit()
                return
            try:
                self.probe()
            except StoreUnavailable as exc:
                self.lost(exc)
                return
        while self.pending:
            key = next(iter(self.pending))
            waiting = self.pending[key]
            try:
                result = waiting.action()
            except StoreUnavailable as exc:
                self.lost(exc)
                return
            except Exception as exc:  # noqa: BLE001 - a refusal belongs to the page that made the write
                del self.pending[key]
                if waiting.on_refused is None:
                    raise
                waiting.on_refused(exc)
                continue
            del self.pending[key]
            if waiting.on_saved is not None:
                waiting.on_saved(result)
        self.problem, self.tries, self.next_try_at = None, 0, None
        self.changed.emit()

    def seconds_to_next_try(self) -> int | None:
        if self.next_try_at is None:
            return None
        return max(0, round(self.next_try_at - time.monotonic()))


_state: ServerState | None = None


def server_state() -> ServerState:
    """The one state of the whole window (every area saves to the same records)."""
    global _state
    if _state is None:
        _state = ServerState()
    return _state


def reset_server_state() -> None:
    """A fresh state (tests; a window opened again): forgets the waiting saves."""
    global _state
    if _state is not None:
        _state.timer.stop()
        _state.deleteLater()
    _state = None
