"""Two layout shapes every area repeats: a row of tools pushed to its edges, and a column
without margins; and a dialog kept within its screen."""
from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
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


def screen_room(widget: QWidget | None) -> QSize:
    """The room the screen of `widget` leaves for windows (the taskbar's taken away)."""
    screen = (widget.screen() if widget is not None else None) or QGuiApplication.primaryScreen()
    return screen.availableGeometry().size() if screen is not None else QSize(1024, 600)


def fit_to_screen(dialog: QWidget, width: int = 0) -> None:
    """`dialog` at its own size (at least `width` wide), but never past nine tenths of its screen:
    on a 1024×600 screen in large type its scroll areas scroll and its buttons stay on screen."""
    room = screen_room(dialog.parentWidget() or dialog)
    hint = dialog.sizeHint()
    dialog.resize(min(max(hint.width(), width), int(room.width() * 0.9)), min(hint.height(), int(room.height() * 0.9)))
