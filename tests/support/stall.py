"""Stalling a server process in a test (SIGSTOP), never for longer than the test can bear."""
from __future__ import annotations

import os
import signal
import threading


def resume_later(pid: int, seconds: float) -> threading.Timer:
    """Sends SIGCONT to `pid` after `seconds` (if it is still there): without bounded waits, a
    write on a stalled server ends only when the stall does, and a test must never hang."""
    def resume() -> None:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
    timer = threading.Timer(seconds, resume)
    timer.daemon = True
    timer.start()
    return timer
