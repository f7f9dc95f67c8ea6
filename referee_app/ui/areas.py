"""Areas of the window built when first shown: the Equipment & forms area (the inspection and forms
pages), and `AreaHost`, which holds any area until it is first shown."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QLayout, QScrollArea, QTabWidget, QVBoxLayout, QWidget

from referee_app.i18n import gettext as _
from .retranslate import follow_language


class EquipmentArea(QWidget):
    """The equipment inspection and the forms, one tab each (`self.tabs`).

    The pages are built the first time the area is shown, not at startup: a referee opening the
    app for a ruling does not wait for the inspection forms (see benchmarks/bench_startup.py).
    """

    def __init__(self, factories=(), parent=None):
        """`factories`: (function building a page, function returning its tab title), in tab order."""
        super().__init__(parent)
        self.setObjectName("equipment_area")
        self.tabs = QTabWidget(objectName="equipment_tabs")
        self.tabs.setDocumentMode(True)
        self._titles = []
        self._factories = list(factories)
        self.pages: list[QWidget] = []  # the pages themselves (each tab holds its page's scroll area)
        self.placeholder = QLabel(objectName="equipment_placeholder")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.placeholder, 1)
        follow_language(self)
        self.retranslate()

    def ensure_pages(self) -> None:
        """Build the pages not built yet."""
        while self._factories:
            factory, title = self._factories.pop(0)
            self.add_page(factory(), title)
        self.retranslate()

    def showEvent(self, event):
        self.ensure_pages()
        super().showEvent(event)

    def add_page(self, page: QWidget, title) -> None:
        """`title` is a function returning the tab's title in the current language.

        The page sits in a scroll area: a long form then scrolls on a 768-pixel-high laptop
        (or in large type) instead of making the whole window taller than the screen."""
        self._titles.append(title)
        self.pages.append(page)
        self.tabs.addTab(scrolling(page), title())

    def retranslate(self) -> None:
        for i, title in enumerate(self._titles):
            self.tabs.setTabText(i, title())
        empty = self.tabs.count() == 0 and not self._factories
        self.tabs.setVisible(not empty)
        self.placeholder.setVisible(empty)
        self.placeholder.setText(_("Equipment inspection and protest forms are not in this version yet."))


class _Filling(QWidget):
    """Holds a page in its scroll area: the page fills the viewport and scrolls only once the
    viewport is smaller than the page's minimum size.

    A page laid out with a word-wrapped label has a height-for-width, and a scroll area given
    such a page makes it as tall as its *preferred* height: at 1280×720 the Tournament area
    scrolled its result entry below the fold with half its list empty. This holder has no layout,
    so the scroll area sizes it by its minimum size."""

    def __init__(self, page: QWidget, area: QScrollArea):
        super().__init__(objectName=f"{page.objectName() or 'page'}_holder")
        self.page = page
        self._area = area   # kept: asking Qt for the parents built enum types before the first paint
        self._type_seen = QApplication.font()
        page.setParent(self)
        page.installEventFilter(self)

    def minimumSizeHint(self):
        return self.page.minimumSizeHint()

    def sizeHint(self):
        return self.page.minimumSizeHint()

    def resizeEvent(self, event):
        self.page.setGeometry(self.rect())
        super().resizeEvent(event)

    def eventFilter(self, watched, event):
        if watched is self.page and event.type() == QEvent.Type.LayoutRequest:
            self._refit()   # the page's minimum changed (type size, language): the scroll area follows
        return False

    def showEvent(self, event):
        super().showEvent(event)
        if self._type_seen != QApplication.font():
            # the type size changed while the area was hidden: its layouts kept the sizes of the old
            # type until something inside was shown again; measured afresh, back to the viewport
            self._type_seen = QApplication.font()
            for layout in self.page.findChildren(QLayout):
                layout.invalidate()
        self._refit()

    def _refit(self) -> None:
        self.updateGeometry()
        # the scroll area re-sizes its page on a layout request, even hidden
        QApplication.postEvent(self._area, QEvent(QEvent.Type.LayoutRequest))


def scrolling(page: QWidget) -> QScrollArea:
    """The page in a scroll area: on a 768-pixel-high laptop, or in large type, it scrolls
    instead of making the whole window taller than the screen."""
    scroll = QScrollArea(objectName=f"{page.objectName() or 'page'}_scroll")
    scroll.setWidget(_Filling(page, scroll))
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    return scroll


class AreaHost(QWidget):
    """Where an area sits in the window's stack: the area is built the first time it is shown or
    asked for (`ensure_area()`), not at start-up, so that a referee opening the app for a ruling
    does not wait for it (benchmarks/bench_startup.py)."""

    def __init__(self, build: Callable[[], QWidget], name: str, scroll: bool = False, parent=None):
        """`build` makes the area; `scroll`: it sits in a scroll area (see `scrolling`)."""
        super().__init__(parent)
        self.setObjectName(name)
        self._build, self._scroll = build, scroll
        self.area: QWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)

    def ensure_area(self) -> QWidget:
        if self.area is None:
            self.area = self._build()
            self._layout.addWidget(scrolling(self.area) if self._scroll else self.area)
        return self.area

    def showEvent(self, event):
        self.ensure_area()
        super().showEvent(event)
