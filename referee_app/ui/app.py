"""Starts the desktop app."""
from __future__ import annotations

import os
import sys


def run_app(argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication

    from .rulebook import search_worker
    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationName("carrom-referee")
    app.setOrganizationName("carrom-referee")
    from .common.records import ensure_records

    if not ensure_records():
        return 1
    window = MainWindow()
    window.show()
    if os.environ.get("CARROM_REFEREE_QUIT_WHEN_SHOWN"):
        # for smoke tests of a build: prove the window opens and paints, then leave
        from PySide6.QtCore import QTimer

        def shown():
            print(f"window shown: {window.windowTitle()}", flush=True)
            app.quit()

        QTimer.singleShot(0, shown)
    status = app.exec()
    # A search may still be building the index: let it finish before Python shuts down under it.
    search_worker.wait_for_searches(15000)
    return status
