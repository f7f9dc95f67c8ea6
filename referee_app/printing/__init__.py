"""Printing: documents built as HTML by the core, written as PDF through Qt (QPdfWriter,
QTextDocument).

A floor of its own beside the window, not inside it: the command line prints the same documents
without loading any `referee_app.ui` module, and the core stays free of Qt
(tests/core/test_core_no_qt.py, tests/cli/test_cli_no_ui.py).
"""
