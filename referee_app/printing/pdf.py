"""PDF output through Qt's own QPdfWriter: forms, certificates, score sheets, exam papers and
the tournament desk's sheets, for the window and the command line alike.

Documents are built as HTML by the core with every piece of user text passed through
`esc()`, so a name like `<b>` prints literally and is never interpreted as markup.
"""
from __future__ import annotations

import os
from pathlib import Path

from referee_app.core.printing import esc  # noqa: F401  (the one escaping every document uses)


def ensure_gui_app():
    """PDF rendering needs a QGuiApplication; the command line creates an offscreen one."""
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QGuiApplication([])
    return app


def _svg_image(svg: str, width_px: int = 1400):
    """An SVG drawn into an image sharp enough to print (the document scales it to its width)."""
    from PySide6.QtCore import QByteArray, QSize
    from PySide6.QtGui import QColor, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    scale = width_px / max(1, size.width())
    image = QImage(QSize(width_px, int(size.height() * scale)), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def write_pdf(document_html: str, path: str | Path, title: str = "", field: str = "--pdf",
              images: dict[str, str] | None = None) -> Path:
    """Writes `document_html` as an A4 PDF at `path`, whole or not at all (core/storage/files.py):
    a target that is not a regular file is refused, and on any failure (a full disk) the old file
    stays and BadInput names `field`. `images`: the SVG of each `<img src>` name the document
    shows (board diagrams). Returns the path."""
    ensure_gui_app()
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

    from referee_app.core.storage import files

    with files.replacing(path, field, files.check_pdf(field)) as tmp:
        writer = QPdfWriter(str(tmp))
        writer.setTitle(title)
        writer.setCreator("carrom-referee")
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.A4), QPageLayout.Portrait, QMarginsF(15, 15, 15, 15),
                                         QPageLayout.Millimeter))
        # Laid out at screen resolution, so point and pixel sizes print as they show on screen;
        # the text itself stays vector in the PDF whatever this number is.
        writer.setResolution(96)
        doc = QTextDocument()
        doc.documentLayout().setPaintDevice(writer)  # points convert at the writer's resolution
        if images:
            from PySide6.QtCore import QUrl

            for name, svg in images.items():
                doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), _svg_image(svg))
        doc.setHtml(document_html)
        layout = writer.pageLayout().paintRectPixels(writer.resolution())
        doc.setPageSize(QSizeF(layout.width(), layout.height()))
        doc.print_(writer)
        del writer  # closes the file
    return Path(path)
