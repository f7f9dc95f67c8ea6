"""Starts the desktop app."""
from __future__ import annotations

import gc
import os
import sys


def run_app(argv: list[str] | None = None) -> int:
    # Building the window makes tens of thousands of objects that live as long as it does: the
    # collector, run every few hundred allocations, would walk them again and again (about 10 ms
    # of the start). It runs again once the window is ready, past those objects (gc.freeze).
    gc.disable()
    try:
        return _run(argv)
    finally:
        gc.enable()   # also when the window never became ready


def _run(argv: list[str] | None) -> int:
    from .knowledge_start import start_core

    knowledge, problems = start_core()   # before PySide6 is imported: see knowledge_start.py
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("carrom-referee")
    app.setOrganizationName("carrom-referee")
    # The records are opened just after the first paint (MainWindow.finish_start): an unusable
    # file or a server out of reach is then asked about over the window, which closes if the
    # user chooses to quit.
    window = MainWindow(knowledge, open_records=_open_records, kb_problems=problems)
    window.ready.connect(_collect_again)
    window.show()
    if os.environ.get("CARROM_REFEREE_QUIT_WHEN_SHOWN"):
        # for smoke tests of a build and benchmarks/bench_startup.py: prove the window opens, then
        # that it opens its records, and leave
        def shown():
            _say(f"window shown: {window.windowTitle()}")

        def ready():
            app.quit()   # first: a reader gone with the first line must not keep the window open
            _say(f"window ready: {window.windowTitle()}")

        QTimer.singleShot(0, shown)
        window.ready.connect(ready)
    status = app.exec()
    # A search may still be building the index: let it finish before Python shuts down under it
    # (a window that never searched never imported the worker).
    search_worker = sys.modules.get("referee_app.ui.rulebook.search_worker")
    if search_worker is not None:
        search_worker.wait_for_searches(15000)
    close_records()
    return status


def close_records() -> None:
    """Checkpoints and closes the records the window opened, so that a normal exit leaves the file
    alone, with no -wal or -shm beside it (a window that never opened them opens nothing now)."""
    source = sys.modules.get("referee_app.ui.common.records_source")
    if source is not None:
        source.forget()


def _say(line: str) -> None:
    """A line for the smoke test reading standard output, which may have stopped reading (`grep -q`)."""
    try:
        print(line, flush=True)
    except BrokenPipeError:
        # Nobody is reading. The line stays in stdout's buffer, and Python would flush it again at
        # shutdown, fail again and exit 120 ("Exception ignored ... BrokenPipeError"): send the
        # rest to devnull instead (the Python docs' "Note on SIGPIPE"). Where PYTHONUNBUFFERED is
        # set nothing stays buffered, which is why only a plain shell showed it.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except OSError:   # another failure to write: the line was for a reader only
        pass


def _open_records(window) -> bool:
    # imported just after the first paint, with the records (ui/common/records.py: ensure_records)
    from .common.records import ensure_records

    return ensure_records(window)


def _collect_again() -> None:
    gc.freeze()   # what the start made stays: later collections need not walk it
    gc.enable()
