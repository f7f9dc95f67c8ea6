"""Draws list items as rich text (search results with their matches in bold)."""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QPalette, QTextDocument
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

HTML_ROLE = Qt.ItemDataRole.UserRole + 10
MARGIN = 6


class HtmlDelegate(QStyledItemDelegate):
    """Paints the item's HTML_ROLE; its DisplayRole stays plain text for screen readers and tests."""

    def _document(self, option: QStyleOptionViewItem, index, width: float) -> QTextDocument:
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(MARGIN)
        doc.setHtml(index.data(HTML_ROLE) or "")
        doc.setTextWidth(max(50.0, width))
        return doc

    def paint(self, painter, option, index):
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # the style draws the selection and focus; the document draws the text
        style = opt.widget.style() if opt.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        doc = self._document(opt, index, opt.rect.width())
        ctx = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        ctx.palette.setColor(QPalette.ColorRole.Text, opt.palette.color(role))
        painter.save()
        painter.translate(opt.rect.topLeft())
        painter.setClipRect(QRectF(0, 0, opt.rect.width(), opt.rect.height()))
        doc.documentLayout().draw(painter, ctx)
        painter.restore()

    def sizeHint(self, option, index):
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        view = opt.widget
        width = view.viewport().width() if view is not None else 300
        doc = self._document(opt, index, width)
        return QSize(int(width), int(doc.size().height()) + 2)
