"""The focus ring: a 2-pixel frame in the theme's focus colour round whatever has the keyboard,
which a referee sees from arm's length.

A small transparent widget laid over the widget that has the focus, drawing the ring along its
edge; it goes with the focus. A style sheet with `:focus` rules drew the same ring, but put every
widget of the window under Qt's style-sheet style: a twentieth of the window's start, and the
fields changed size if it was set after the first paint. (A QFocusFrame draws outside the widget,
where its parent cuts it off at the parent's edge.)
"""
from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QApplication, QWidget

from referee_app.ui import theme

WIDTH = 2


class _Ring(QWidget):
    def __init__(self, target: QWidget, colour: QColor):
        super().__init__(target)
        self.setObjectName("focus_ring")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.colour = colour
        self.setGeometry(target.rect())
        self.raise_()
        self.show()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(self.colour, WIDTH))
        half = WIDTH / 2
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(half, half, -half, -half), 3, 3)


class FocusRing(QObject):
    """Follows the application's focus; `refresh_colour` after the palette changes."""

    def __init__(self, app: QApplication):
        super().__init__(app)
        self._colour = QColor(theme.focus_colour())
        self._ring: _Ring | None = None
        app.focusChanged.connect(self._follow)
        self._follow(None, app.focusWidget())

    def colour(self) -> str:
        return self._colour.name()

    def widget(self) -> QWidget | None:
        """The widget the ring is round, if any."""
        ring = self._live_ring()
        return ring.parentWidget() if ring is not None else None

    def ring(self) -> QWidget | None:
        return self._live_ring()

    def refresh_colour(self) -> None:
        self._colour = QColor(theme.focus_colour())
        ring = self._live_ring()
        if ring is not None:
            ring.colour = self._colour
            ring.update()

    def _live_ring(self) -> _Ring | None:
        # the ring is its widget's child: it goes when the widget is deleted
        return self._ring if self._ring is not None and shiboken6.isValid(self._ring) else None

    def _follow(self, _old: QWidget | None, new: QWidget | None) -> None:
        old = self._live_ring()
        if old is not None:
            old.parentWidget().removeEventFilter(self)
            old.deleteLater()
            old.hide()
        self._ring = None
        if new is not None and not new.isWindow():
            self._ring = _Ring(new, self._colour)
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        ring = self._live_ring()
        if event.type() == QEvent.Type.Resize and ring is not None and watched is ring.parentWidget():
            ring.setGeometry(watched.rect())
        return False
