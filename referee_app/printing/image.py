"""A board diagram (SVG text from core/learn/diagram.py) drawn into a PNG file, for the window's
Learn area and `carrom-referee quiz diagram --png` alike."""
from __future__ import annotations

import os
from pathlib import Path


def svg_to_png(svg: str, path: str | Path, scale: float = 1.0) -> Path:
    """Renders the SVG into a PNG at `path` (written whole, then renamed: never half a file).
    Needs a QGuiApplication (pdf.ensure_gui_app makes one for the command line)."""
    from PySide6.QtCore import QByteArray
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

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
