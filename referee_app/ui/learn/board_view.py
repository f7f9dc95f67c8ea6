"""The board diagram (SVG text from core/learn/diagram.py) on screen; as a PNG file:
referee_app/printing/image.py."""
from __future__ import annotations

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QSizePolicy, QWidget


class BoardView(QWidget):
    """Draws a diagram's SVG scaled to the widget, keeping its proportions."""

    def __init__(self, parent=None, hint: QSize | None = None):
        """`hint`: the size it asks for; beside another panel (the Rulings area) a small one, so
        that it takes the room left rather than making its column scroll."""
        super().__init__(parent)
        self.setObjectName("board_view")
        self._hint = hint or QSize(700, 470)
        self.svg = ""
        self._renderer = QSvgRenderer(self)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(220)

    def set_svg(self, svg: str) -> None:
        self.svg = svg
        self._renderer.load(QByteArray(svg.encode("utf-8")))
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return self._hint

    def paintEvent(self, _event):
        if not self.svg:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        size = self._renderer.defaultSize()
        if size.isEmpty():
            return
        scale = min(self.width() / size.width(), self.height() / size.height())
        w, h = size.width() * scale, size.height() * scale
        self._renderer.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
        self._renderer.render(painter, QRectF((self.width() - w) / 2, 0, w, h))
        painter.end()
