"""The referee's window: five areas, each one keystroke away (Ctrl+1 to Ctrl+5).

The ruleset and the interface language sit in the toolbar, always visible. The window loads the
knowledge base once and hands it to every area; the search index is never touched here (the
first search builds it, in a worker). What the referee chose is remembered in settings.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QLabel, QMainWindow, QMessageBox, QSizePolicy,
                               QStackedWidget, QToolBar, QVBoxLayout, QWidget)

from referee_app import i18n
from referee_app.core.knowledge.root import Knowledge
from referee_app.i18n import gettext as _
from . import settings
from . import theme
from .areas import AreaHost, EquipmentArea, scrolling
from .common.focus import enter
from .common.focus_ring import FocusRing
from .knowledge_start import load_knowledge
from .retranslate import follow_language, install_qt_translations, system_language
from referee_app.ui.rulebook.actions import RulebookActions
from referee_app.ui.rulings.area import RulingsArea

if TYPE_CHECKING:
    from referee_app.ui.rulebook.area import RulebookView

RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT = range(5)
HEARTBEAT_MS = 5000
FINISH_START_LATEST_MS = 1000   # after show(), even when the window is not painted
GEOMETRY_SAVE_MS = 500          # a window dragged or resized is saved once it settles


def _inspection_page(knowledge):
    # Imported when the Equipment area is first shown: a referee opening the app for a ruling
    # does not wait for the inspection and forms modules (benchmarks/bench_startup.py).
    from referee_app.ui.inspection.page import InspectionPage

    return InspectionPage(knowledge)


def _forms_page(knowledge):
    from referee_app.ui.forms.page import FormsPage

    return FormsPage(knowledge)


def equipment_pages(knowledge):
    """The Equipment area's pages, each built when first shown, with the window's knowledge."""
    return ((lambda: _inspection_page(knowledge), lambda: _("Equipment inspection")),
            (lambda: _forms_page(knowledge), lambda: _("Forms")))


class MainWindow(QMainWindow):
    ruleset_changed = Signal(str)
    ready = Signal()   # the records are open: finish_start has run

    def __init__(self, knowledge: Knowledge | None = None, parent=None, open_records=None,
                 kb_problems: list | None = None):
        """`knowledge`: the knowledge root every area works with (knowledge_start.load_knowledge,
        which loads the installed one when none is given). `open_records(parent)`: makes the
        records usable once the window is shown (asking the user when they are not), False when
        the app should not go on (ui/common/records.py: ensure_records). `kb_problems`: what is
        wrong with its knowledge base, said in the status bar."""
        super().__init__(parent)
        self.setObjectName("main_window")
        self._open_records = open_records
        self._learn_ruleset: str | None = None   # chosen in the Learn area during a match: Learn's alone
        self.started = False   # finish_start has run
        self._painted = False
        problems = list(kb_problems or ())
        if knowledge is None:
            knowledge, problems = load_knowledge()
        self.knowledge = knowledge
        self.rulesets = knowledge.rulesets
        self.kb_problems = problems

        # The language first, so that every widget is built in it.
        lang = settings.get_str(settings.LANGUAGE) or system_language()
        if lang not in i18n.LANGUAGES:
            lang = "en"
        if lang != i18n.current_language():
            i18n.set_language(lang)
        install_qt_translations(lang)
        theme.apply_appearance(settings.get_str(settings.APPEARANCE, "system"))
        self._large = settings.get_bool(settings.LARGE_TYPE)
        self._zoom = settings.get_int(settings.ZOOM)
        theme.apply_type_size(self._large, self._zoom)
        self.focus_ring = FocusRing(QApplication.instance())

        # the empty stroke is ruled just after the first paint (finish_start): the form, the
        # sheet and the clocks are what the first paint needs
        self.rulings_area = RulingsArea(knowledge, settings.get_str(settings.RULESET) or knowledge.default_ruleset,
                                        first_ruling_later=True)
        self.rulings_area.open_clause.connect(self.open_clause)
        self.rulings_area.ruleset_in_force.connect(self._match_ruleset)
        self.rulings_area.protest.connect(self.open_protest)
        self.rulebook_host = AreaHost(self._make_rulebook, "rulebook_host")
        self.equipment = EquipmentArea(equipment_pages(knowledge))
        self.equipment_tabs = self.equipment.tabs
        self.learn_host = AreaHost(self._make_learn, "learn_host", scroll=True)
        self.stack = QStackedWidget(objectName="areas")
        from referee_app.ui.tournament.host import TournamentHost

        self.tournament = TournamentHost(self.knowledge, self.current_ruleset, self.open_table_match)
        for area in (scrolling(self.rulings_area), self.rulebook_host, self.equipment, self.learn_host, self.tournament):
            self.stack.addWidget(area)
        from .common.server_banner import ServerBanner

        self.server_banner = ServerBanner()
        self.heartbeat = QTimer(self, interval=HEARTBEAT_MS)
        central = QWidget(objectName="central")
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.server_banner)
        column.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self._build_toolbar()
        self._build_menus()
        self.statusBar()  # there from the start, so the first message does not shift the layout
        self.problems_label = QLabel(objectName="kb_problems")
        if problems:
            self.statusBar().addPermanentWidget(self.problems_label)
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._system_scheme_changed)

        # the window's place and size (maximised or not) are saved as they change, not only on
        # closing: a window killed mid-match comes back as the referee had it
        self._geometry_timer = QTimer(self, singleShot=True, interval=GEOMETRY_SAVE_MS)
        self._geometry_timer.timeout.connect(self._save_geometry)
        self._restore()
        follow_language(self)
        self.retranslate()

    # --- building -------------------------------------------------------------------------
    @property
    def rulebook(self) -> RulebookView:
        """The Rulebook area, built when first shown or asked for."""
        return self.rulebook_host.ensure_area()

    def _make_rulebook(self) -> RulebookView:
        from referee_app.ui.rulebook.area import RulebookView

        rulebook = RulebookView(self.knowledge, self.rulebook_actions)
        rulebook.status_message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        sizes = settings.get_list(settings.SPLITTER)
        if len(sizes) == 2 and all(s.isdigit() for s in sizes):
            rulebook.splitter.setSizes([int(s) for s in sizes])
        rs = self.rulesets.get(self.current_ruleset())
        if rs is not None:
            rulebook.tree.set_source_order(rs.all_sources(self.rulesets))
        last = settings.get_str(settings.LAST_CLAUSE)
        if last in self.kb.clauses:
            rulebook.open_clause(last)
        return rulebook

    @property
    def kb(self):
        """The knowledge base: read when first used, after the first paint (core/knowledge/root.py)."""
        return self.knowledge.kb

    @property
    def learn(self):
        """The Learn area, built when first shown or asked for."""
        return self.learn_host.ensure_area()

    def _make_learn(self):
        from referee_app.ui.learn.area import LearnArea

        learn = LearnArea(self.knowledge, settings.get_str(settings.RULESET) or self.knowledge.default_ruleset)
        learn.open_clause.connect(self.open_clause)
        if self.current_ruleset() in self.rulesets:  # the ruleset the window has applied since start
            learn.set_ruleset(self.current_ruleset())
        # the match's ruleset, unless the learner chose another to study during a match
        self.ruleset_changed.connect(lambda rid: self._learn_ruleset is None and learn.set_ruleset(rid))
        return learn

    def _action(self, name: str, keys: list[str], slot, checkable: bool = False) -> QAction:
        a = QAction(self, objectName=name, checkable=checkable)
        a.setShortcuts([QKeySequence(k) for k in keys])
        (a.toggled if checkable else a.triggered).connect(slot)
        self.addAction(a)  # active in the whole window, whichever area is shown
        return a

    def _build_toolbar(self) -> None:
        self.area_group = QActionGroup(self)
        self.area_actions = []
        for index, (name, key) in enumerate((("rulings_action", "Ctrl+1"), ("rulebook_action", "Ctrl+2"),
                                             ("equipment_action", "Ctrl+3"), ("learn_action", "Ctrl+4"),
                                             ("tournament_action", "Ctrl+5"))):
            a = self._action(name, [key], lambda _c=False, i=index: self.show_area(i))
            a.setCheckable(True)
            self.area_group.addAction(a)
            self.area_actions.append(a)
        self.search_action = self._action("search_action", ["Ctrl+F"], self.focus_search)
        self.ruleset_action = self._action("ruleset_action", ["Ctrl+R"], lambda: self._open_combo(self.ruleset_combo))
        self.language_action = self._action("language_action", ["Ctrl+L"], lambda: self._open_combo(self.language_combo))

        self.toolbar = QToolBar(objectName="main_toolbar")
        self.toolbar.setMovable(False)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toolbar.setIconSize(QSize(20, 20))
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)
        for a in self.area_actions:
            self.toolbar.addAction(a)
            self.toolbar.widgetForAction(a).setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Ctrl+1/2/3 reach them
        # Search, the ruleset and the language in a toolbar of their own, on the areas' line while
        # they fit, on a line below when they do not (1024×600, large type): never behind "»".
        self.choices_toolbar = QToolBar(objectName="choices_toolbar")
        self.choices_toolbar.setMovable(False)
        self.choices_toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.choices_toolbar)
        self.choices_toolbar.addAction(self.search_action)
        self.choices_toolbar.widgetForAction(self.search_action).setFocusPolicy(Qt.FocusPolicy.NoFocus)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.choices_toolbar.addWidget(spacer)
        self.ruleset_label = QLabel(objectName="ruleset_label")
        self.ruleset_combo = QComboBox(objectName="ruleset_combo")
        self.ruleset_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        for rid in self.rulesets:
            self.ruleset_combo.addItem(rid, rid)
        self.ruleset_label.setBuddy(self.ruleset_combo)
        self.language_label = QLabel(objectName="language_label")
        self.language_combo = QComboBox(objectName="language_combo")
        for lang in i18n.LANGUAGES:
            self.language_combo.addItem(i18n.LANGUAGE_NAMES[lang], lang)
        self.language_label.setBuddy(self.language_combo)
        self._label_actions = []   # "Ruleset:" and "Language:", left out when even a line of their own is too narrow
        for w in (self.ruleset_label, self.ruleset_combo, self.language_label, self.language_combo):
            action = self.choices_toolbar.addWidget(w)
            if isinstance(w, QLabel):
                self._label_actions.append(action)
        self.ruleset_label.setContentsMargins(8, 0, 4, 0)
        self.language_label.setContentsMargins(12, 0, 4, 0)
        self.ruleset_combo.currentIndexChanged.connect(self._ruleset_chosen)
        self.language_combo.currentIndexChanged.connect(self._language_chosen)

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self.file_menu = bar.addMenu("")
        self.preferences_action = self._action("preferences_action", ["Ctrl+,"], self.show_preferences)
        self.quit_action = self._action("quit_action", ["Ctrl+Q"], self.close)
        self.file_menu.addAction(self.preferences_action)
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)

        self.view_menu = bar.addMenu("")
        for a in self.area_actions:
            self.view_menu.addAction(a)
        self.view_menu.addSeparator()
        self.view_menu.addAction(self.search_action)
        self.view_menu.addAction(self.ruleset_action)
        self.view_menu.addAction(self.language_action)
        self.view_menu.addSeparator()
        self.large_type_action = self._action("large_type_action", ["Ctrl+Shift+T"], self.set_large_type, checkable=True)
        self.zoom_in_action = self._action("zoom_in_action", ["Ctrl++", "Ctrl+="], lambda: self.zoom(+1))
        self.zoom_out_action = self._action("zoom_out_action", ["Ctrl+-"], lambda: self.zoom(-1))
        self.zoom_reset_action = self._action("zoom_reset_action", ["Ctrl+0"], lambda: self.zoom(0))
        self.fullscreen_action = self._action("fullscreen_action", ["F11"], self._toggle_fullscreen, checkable=True)
        for a in (self.large_type_action, self.zoom_in_action, self.zoom_out_action, self.zoom_reset_action,
                  self.fullscreen_action):
            self.view_menu.addAction(a)
        self.appearance_menu = self.view_menu.addMenu("")
        self.appearance_group = QActionGroup(self)
        self.appearance_actions = {}
        for choice in theme.APPEARANCES:
            a = QAction(self, objectName=f"appearance_{choice}", checkable=True)
            a.triggered.connect(lambda _c=False, ch=choice: self.set_appearance(ch))
            self.appearance_group.addAction(a)
            self.appearance_menu.addAction(a)
            self.appearance_actions[choice] = a

        self.go_menu = bar.addMenu("")
        self.bookmarks_menu = bar.addMenu("")
        self.rulebook_actions = RulebookActions(self, lambda: self.rulebook)
        last = settings.get_str(settings.LAST_CLAUSE)
        self.rulebook_actions.before_the_area(self.knowledge.has_clause(last), last in settings.get_list(settings.BOOKMARKS))
        groups = self.rulebook_actions.for_menus()
        for menu, key in ((self.go_menu, "go"), (self.bookmarks_menu, "bookmarks")):
            for a in groups[key]:
                menu.addAction(a)
                self.addAction(a)
                # Reading history or bookmarks from another area brings the Rulebook forward.
                a.triggered.connect(lambda _c=False: self.show_area(RULEBOOK, focus=False))

        self.help_menu = bar.addMenu("")
        self.shortcuts_action = self._action("shortcuts_action", ["F1"], self.show_shortcuts)
        self.about_action = QAction(self, objectName="about_action")
        self.about_action.triggered.connect(self._about)
        self.help_menu.addAction(self.shortcuts_action)
        self.help_menu.addAction(self.about_action)

    def showEvent(self, event):
        super().showEvent(event)
        if not self._painted:   # a window shown but never painted (minimised, off screen) still opens its records
            QTimer.singleShot(FINISH_START_LATEST_MS, self.finish_start)

    def paintEvent(self, event):
        super().paintEvent(event)
        if not self._painted:   # what the first paint did not need comes just after it
            self._painted = True
            QTimer.singleShot(0, self.finish_start)

    def finish_start(self) -> None:
        """What the first paint does without, done just after it: the empty stroke's ruling, then
        opening the records (SQLAlchemy, a server's first answer), the server's heartbeat and the
        offer to resume an unfinished match. Until then nothing waits on it: a tick or Record rules
        at once, a save opens the records itself (`saving`)."""
        if self.started:
            return
        self.started = True
        self.rulings_area.update_ruling()
        self.rulings_area.ruling_view.repaint()   # on screen now, not after the records below
        if self._open_records is not None and not self._open_records(self):
            self.hide()
            QApplication.exit(1)
            return
        self._watch_server()
        self.rulings_area.offer_resume()
        self.ready.emit()

    def _watch_server(self) -> None:
        """On a shared server, a heartbeat every few seconds: a server lost is said in the banner
        at once, before the referee's next save finds it out."""
        from .common import records_source
        from .common.server_state import server_state

        state = server_state()
        state.probe = records_source.probe
        self.heartbeat.timeout.connect(lambda: state.attempt(records_source.probe))
        if state.attempt(records_source.shared, False):
            self.heartbeat.start()

    # --- settings -------------------------------------------------------------------------
    def _restore(self) -> None:
        geometry = settings.app_settings().value(settings.GEOMETRY)
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            pass
        else:  # first run: most of a 1366×768 laptop screen, never more than the screen
            screen = QGuiApplication.primaryScreen()
            avail = screen.availableGeometry() if screen else None
            w = min(1280, int(avail.width() * 0.95)) if avail else 1280
            h = min(820, int(avail.height() * 0.92)) if avail else 760
            self.resize(w, h)
        default = self.knowledge.default_ruleset
        rid = settings.get_str(settings.RULESET, default)
        if rid not in self.rulesets:
            rid = default
        self.ruleset_combo.blockSignals(True)
        self.ruleset_combo.setCurrentIndex(max(0, self.ruleset_combo.findData(rid)))
        self.ruleset_combo.blockSignals(False)
        self.rulings_area.set_ruleset(rid)
        self._apply_ruleset(rid, save=False)
        self.large_type_action.blockSignals(True)
        self.large_type_action.setChecked(self._large)
        self.large_type_action.blockSignals(False)
        self.appearance_actions.get(settings.get_str(settings.APPEARANCE, "system"),
                                    self.appearance_actions["system"]).setChecked(True)
        area = settings.get_int(settings.AREA, RULINGS)  # a referee's first need: rule a stroke
        self.show_area(area if area in (RULINGS, RULEBOOK, EQUIPMENT, LEARN, TOURNAMENT) else RULINGS, focus=True)

    def _save_geometry(self) -> None:
        if self.isVisible():
            settings.put(settings.GEOMETRY, self.saveGeometry())

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self._geometry_timer.start()
        self._fit_toolbars()

    def moveEvent(self, event):
        super().moveEvent(event)
        self._geometry_timer.start()

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() == QEvent.Type.WindowStateChange:
            self._geometry_timer.start()

    def _fit_toolbars(self) -> None:
        """The choices' toolbar on the areas' line when both fit in the window's width, else below;
        without the combos' labels when even its own line is too narrow (their accessible names
        and tooltips still say what they are)."""
        labels = self._label_actions

        def wanted(bar: QToolBar) -> int:
            # a label counts hidden or not: whether it fits is what is being measured (showing it
            # only to measure it made every resize lay the toolbar out twice)
            layout = bar.layout()
            margins = layout.contentsMargins()
            widgets = (bar.widgetForAction(a) for a in bar.actions() if a.isVisible() or a in labels)
            return sum(w.sizeHint().width() + layout.spacing() for w in widgets if w is not None) \
                + margins.left() + margins.right() + 24

        width, choices = self.width(), wanted(self.choices_toolbar)
        below = wanted(self.toolbar) + choices > width
        with_labels = not (below and choices > width)
        for action in labels:
            if action.isVisible() != with_labels:
                action.setVisible(with_labels)
        if below != self.toolBarBreak(self.choices_toolbar):
            if below:
                self.insertToolBarBreak(self.choices_toolbar)
            else:
                self.removeToolBarBreak(self.choices_toolbar)

    def closeEvent(self, event):
        self._geometry_timer.stop()
        settings.put(settings.GEOMETRY, self.saveGeometry())
        settings.put(settings.AREA, self.stack.currentIndex())
        if self.rulebook_host.area is not None:   # else the sizes read at start stay as they were
            settings.put(settings.SPLITTER, [str(s) for s in self.rulebook.splitter.sizes()])
        super().closeEvent(event)

    # --- areas ----------------------------------------------------------------------------
    def show_area(self, index: int, focus: bool = True) -> None:
        if isinstance(self.stack.widget(index), AreaHost):  # built now: it takes the focus below
            self.stack.widget(index).ensure_area()
        self.stack.setCurrentIndex(index)
        self.area_actions[index].setChecked(True)
        self._show_area_ruleset(index)
        self._update_title()
        if focus:
            area = self.stack.currentWidget()
            if index == RULEBOOK:
                self.rulebook.nav.currentWidget().setFocus(Qt.FocusReason.ShortcutFocusReason)
                if self.rulebook.nav.currentIndex() == 1:
                    self.rulebook.search.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
            elif index == RULINGS:
                # named rather than walked to: a walk wraps every inner widget of the scroll
                # area for Python, a few ms of the start
                self.rulings_area.focus_entry()
            else:
                _focus_first(area)

    def focus_search(self) -> None:
        self.show_area(RULEBOOK, focus=False)
        self.rulebook.focus_search()

    def open_clause(self, clause_id: str) -> bool:
        """Show a clause in the Rulebook (for the other areas: a ruling's cited clause)."""
        self.show_area(RULEBOOK, focus=False)
        return self.rulebook.open_clause(clause_id, focus_view=True)

    def open_table_match(self, match_id: int) -> None:
        """A table's score sheet, opened from the Tournament area, kept in the Rulings area."""
        self.rulings_area.open_match(match_id)
        self.show_area(RULINGS)

    def current_ruleset(self) -> str:
        return self.ruleset_combo.currentData()

    def _open_combo(self, combo: QComboBox) -> None:
        combo.setFocus(Qt.FocusReason.ShortcutFocusReason)
        combo.showPopup()

    # --- ruleset and language -------------------------------------------------------------
    def _ruleset_chosen(self, _index: int) -> None:
        """One ruleset everywhere: the open match's. Choosing another in a match is an explicit act
        the Rulings area asks about and records; refused, the toolbar goes back to the match's."""
        rid = self.ruleset_combo.currentData()
        area = self.rulings_area
        if self.stack.currentIndex() == LEARN and area.match.strokes:
            # studying another ruleset in the Learn area is no change to the match being played
            self._learn_ruleset = rid
            self.learn.set_ruleset(rid)
            return
        self._learn_ruleset = None
        if rid in self.rulesets and not area.set_ruleset(rid):
            self._match_ruleset(area.match.ruleset)
            return
        self._apply_ruleset(rid, save=True)

    def _show_area_ruleset(self, index: int) -> None:
        """The toolbar says the ruleset of the area shown: the Learn area's own while it studies
        another than the match's, the match's everywhere else."""
        rid = (self._learn_ruleset if index == LEARN and self._learn_ruleset
               else self.rulings_area.match.ruleset if self._learn_ruleset else None)
        if rid in self.rulesets and rid != self.ruleset_combo.currentData():
            self.ruleset_combo.blockSignals(True)
            self.ruleset_combo.setCurrentIndex(self.ruleset_combo.findData(rid))
            self.ruleset_combo.blockSignals(False)

    def _match_ruleset(self, rid: str) -> None:
        """A match opened or begun: its ruleset is the toolbar's, the rulebook's and the rulings'."""
        if rid not in self.rulesets:
            return
        self.ruleset_combo.blockSignals(True)
        self.ruleset_combo.setCurrentIndex(self.ruleset_combo.findData(rid))
        self.ruleset_combo.blockSignals(False)
        self._apply_ruleset(rid, save=True)

    def open_protest(self, fields: dict) -> None:
        """A protest form filled from the match, in the Forms page."""
        self.show_area(EQUIPMENT, focus=False)
        self.equipment.ensure_pages()
        page = next(p for p in self.equipment.pages if p.objectName() == "forms_page")
        self.equipment_tabs.setCurrentIndex(self.equipment.pages.index(page))
        page.new_form("protest", fields)

    def _apply_ruleset(self, rid: str, save: bool) -> None:
        rs = self.rulesets.get(rid)
        if rs is None:
            return
        if save:
            settings.put(settings.RULESET, rid)
        if self.rulebook_host.area is not None:   # else the area takes it when it is built
            self.rulebook.tree.set_source_order(rs.all_sources(self.rulesets))
        self.ruleset_changed.emit(rid)

    def _language_chosen(self, _index: int) -> None:
        lang = self.language_combo.currentData()
        settings.put(settings.LANGUAGE, lang)
        install_qt_translations(lang)
        i18n.set_language(lang)  # every widget's retranslate() runs now

    # --- type size and appearance ---------------------------------------------------------
    def set_large_type(self, on: bool) -> None:
        self._large = bool(on)
        settings.put(settings.LARGE_TYPE, self._large)
        theme.apply_type_size(self._large, self._zoom)
        self._restyle()
        QTimer.singleShot(0, self, self._fit_toolbars)   # once the toolbars have taken the new type

    def zoom(self, step: int) -> None:
        self._zoom = 0 if step == 0 else max(theme.ZOOM_MIN, min(theme.ZOOM_MAX, self._zoom + step))
        settings.put(settings.ZOOM, self._zoom)
        theme.apply_type_size(self._large, self._zoom)
        self._restyle()
        QTimer.singleShot(0, self, self._fit_toolbars)

    def _restyle(self) -> None:
        """The focus ring and the ruling's rich text in the palette's new colours."""
        self.focus_ring.refresh_colour()
        self.rulings_area.refresh_colours()

    def set_appearance(self, choice: str) -> None:
        settings.put(settings.APPEARANCE, choice)
        self.appearance_actions[choice].setChecked(True)
        theme.apply_appearance(choice)
        self._restyle()  # the ring and the ruling follow the palette
        if self.rulebook_host.area is not None:
            self.rulebook.search.refresh_colours()

    def _system_scheme_changed(self, _scheme) -> None:
        if settings.get_str(settings.APPEARANCE, "system") == "system":
            self.set_appearance("system")

    def _toggle_fullscreen(self, on: bool) -> None:
        self.showFullScreen() if on else self.showNormal()

    def show_preferences(self) -> None:
        from .preferences import PreferencesDialog

        PreferencesDialog(self).exec()

    # --- help -----------------------------------------------------------------------------
    def show_shortcuts(self) -> None:
        from .shortcuts_dialog import ShortcutsDialog

        ShortcutsDialog(self).exec()

    def _about(self) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("carrom-referee")
        except PackageNotFoundError:
            v = "?"
        QMessageBox.about(self, _("About Carrom referee"),
                          _("Carrom referee {version}: the rules of carrom, their sources side by side, "
                            "and the ruling for a stroke.").format(version=v)
                          + "\n\n" + _("Knowledge base: {n} clauses from {m} sources.").format(
                              n=len(self.kb.clauses), m=len(self.kb.sources)))

    # --- strings --------------------------------------------------------------------------
    def _update_title(self) -> None:
        names = (_("Rulings"), _("Rulebook"), _("Equipment & forms"), _("Learn"), _("Tournament"))
        app_name = _("Carrom referee")
        self.setWindowTitle(f"{names[self.stack.currentIndex()]} — {app_name}")

    def retranslate(self) -> None:
        lang = i18n.current_language()
        self.language_combo.blockSignals(True)  # the language may have been set from elsewhere
        self.language_combo.setCurrentIndex(self.language_combo.findData(lang))
        self.language_combo.blockSignals(False)
        for i, rs in enumerate(self.rulesets.values()):
            self.ruleset_combo.setItemText(i, self.knowledge.ruleset_name(rs.id, lang))
            sources = self.knowledge.sources   # without reading the clauses for the first paint
            self.ruleset_combo.setItemData(i, ", ".join(sources[s].title for s in rs.all_sources(self.rulesets)
                                                        if s in sources), Qt.ItemDataRole.ToolTipRole)
        self.ruleset_label.setText(_("Ruleset:"))
        self.language_label.setText(_("Language:"))
        self.ruleset_combo.setToolTip(_("The rules the match is played under (Ctrl+R)"))
        self.language_combo.setToolTip(_("Language of the interface and of the clause texts (Ctrl+L)"))
        self.ruleset_combo.setAccessibleName(_("Ruleset"))
        self.language_combo.setAccessibleName(_("Interface language"))
        self.toolbar.setWindowTitle(_("Main toolbar"))
        self.choices_toolbar.setWindowTitle(_("Search, ruleset and language"))
        QTimer.singleShot(0, self, self._fit_toolbars)   # the words' new widths
        texts = {
            self.area_actions[RULINGS]: (_("&Rulings"), _("Rule on a stroke")),
            self.area_actions[RULEBOOK]: (_("Rule&book"), _("Read, search and compare the rules")),
            self.area_actions[EQUIPMENT]: (_("&Equipment && forms"), _("Inspect the equipment, file protests")),
            self.area_actions[LEARN]: (_("Lear&n"), _("Practise on questions drawn from the rules, sit an exam")),
            self.area_actions[TOURNAMENT]: (_("&Tournament"), _("Pair the rounds, gather the results, the standings")),
            self.search_action: (_("&Search"), _("Search the rules")),
            self.ruleset_action: (_("Choose the ruleset"), _("Choose the rules the match is played under")),
            self.language_action: (_("Choose the language"), _("Choose the language of the interface")),
            self.preferences_action: (_("&Preferences…"), _("Where the records are kept")),
            self.quit_action: (_("&Quit"), _("Close the window")),
            self.large_type_action: (_("&Large type"), _("Larger text for reading at arm's length")),
            self.zoom_in_action: (_("Larger text"), _("Make the text larger")),
            self.zoom_out_action: (_("Smaller text"), _("Make the text smaller")),
            self.zoom_reset_action: (_("Normal text size"), _("Back to the normal text size")),
            self.fullscreen_action: (_("&Full screen"), _("Use the whole screen")),
            self.shortcuts_action: (_("&Keyboard shortcuts"), _("Every action and its keys")),
            self.about_action: (_("&About"), _("Version and knowledge base")),
            self.appearance_actions["system"]: (_("Follow the system"), _("Light or dark as the system is set")),
            self.appearance_actions["light"]: (_("Light"), _("Dark text on a light background, for a bright hall")),
            self.appearance_actions["dark"]: (_("Dark"), _("Light text on a dark background")),
        }
        for a, (text, tip) in texts.items():
            a.setText(text)
            keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            a.setToolTip(f"{tip} ({keys})" if keys else tip)
            a.setStatusTip(tip)
        self.file_menu.setTitle(_("&File"))
        self.view_menu.setTitle(_("&View"))
        self.appearance_menu.setTitle(_("&Appearance"))
        self.go_menu.setTitle(_("&Go"))
        self.bookmarks_menu.setTitle(_("&Bookmarks"))
        self.help_menu.setTitle(_("&Help"))
        if self.kb_problems:
            first = self.kb_problems[0]
            self.problems_label.setText("⚠ " + i18n.ngettext(
                "The knowledge base has {n} problem", "The knowledge base has {n} problems",
                len(self.kb_problems)).format(n=len(self.kb_problems)))
            self.problems_label.setToolTip(str(first))
        self._update_title()


def _focus_first(area: QWidget) -> None:
    """Give the focus to the first widget of `area` that takes it from the keyboard."""
    w = area.nextInFocusChain()
    for _i in range(500):  # the focus chain is a ring through the whole window
        if w is None or w is area:
            return
        if area.isAncestorOf(w) and w.isVisibleTo(area) and w.isEnabled() and w.focusPolicy() & Qt.FocusPolicy.TabFocus:
            enter(w)
            return
        w = w.nextInFocusChain()
