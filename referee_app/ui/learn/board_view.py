"""The board diagram (SVG text from core/learn/diagram.py) on screen, and as a PNG file."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QSizePolicy, QWidget


def svg_to_png(svg: str, path: str | Path, scale: float = 1.0) -> Path:
    """Renders the SVG into a PNG at `path` (written whole, then renamed: never half a file)."""
    import os

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize() * scale
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    path = Path(path)
    tmp = path.with_name(path.name + ".part.png")
    if not image.save(str(tmp), "PNG"):
        raise OSError(f"cannot write {path}")
    os.replace(tmp, path)
    return path


class BoardView(QWidget):
    """Draws a diagram's SVG scaled to the widget, keeping its proportions."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("board_view")
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
        return QSize(700, 470)

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
