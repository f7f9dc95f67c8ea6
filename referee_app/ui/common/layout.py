"""Two layout shapes every area repeats: a row of tools pushed to its edges, and a column
without margins."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLayout, QVBoxLayout, QWidget


def tool_row(*left: QWidget, right: tuple[QWidget, ...] = ()) -> QHBoxLayout:
    """`left` from the left edge, `right` against the right edge, the space between them empty."""
    row = QHBoxLayout()
    for w in left:
        row.addWidget(w)
    row.addStretch(1)
    for w in right:
        row.addWidget(w)
    return row


def column(name: str, *parts) -> QWidget:
    """A widget named `name` stacking `parts` without margins: widgets or layouts, or (part, stretch)."""
    widget = QWidget(objectName=name)
    box = QVBoxLayout(widget)
    box.setContentsMargins(0, 0, 0, 0)
    for part in parts:
        part, stretch = part if isinstance(part, tuple) else (part, 0)
        if isinstance(part, QLayout):
            box.addLayout(part, stretch)
        else:
            box.addWidget(part, stretch)
    return widget
