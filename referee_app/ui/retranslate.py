"""Wires widgets to the interface language of `referee_app.i18n`.

Every widget class of the app has a `retranslate()` that sets all its visible strings again;
`follow_language(self)` calls it on each `i18n.set_language()` for as long as the widget lives.
Qt's own strings (the line edit's context menu, standard dialog buttons) come from Qt's
catalogs, swapped here at the same time.
"""
from __future__ import annotations

import weakref

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from referee_app import i18n
from referee_app.core.storage.errors import StoreUnavailable


def follow_language(widget) -> None:
    """Call `widget.retranslate()` after every language change until the widget is destroyed."""
    ref = weakref.ref(widget)  # the registry must not keep a closed window alive

    def listener(_lang: str) -> None:
        target = ref()
        if target is None:
            return
        try:
            target.retranslate()
        except RuntimeError:  # the C++ side is gone but `destroyed` has not run yet
            pass
        except StoreUnavailable as exc:   # a view re-reading its records while the server is away:
            from referee_app.ui.common.server_state import server_state   # its words change at the next

            server_state().noticed(exc)   # refresh; the banner says why

    remove = i18n.on_language_changed(listener)
    widget.destroyed.connect(lambda *_: remove())


_qt_translator: QTranslator | None = None


class _QtCatalog(QTranslator):
    """Qt's own catalog (qtbase_fr, qtbase_it), and where it lacks a string only because Qt added
    an underlined letter since ("&Look in:", "Files of &type:" in the file dialog), the string
    without it, its underline put back on the first letter: the dialogs read in the language."""

    def translate(self, context, source, disambiguation=None, n=-1):
        found = super().translate(context, source, disambiguation, n)
        if found or not source or "&" not in source:
            return found
        bare = super().translate(context, source.replace("&&", "\0").replace("&", "").replace("\0", "&&"),
                                 disambiguation, n)
        return "&" + bare if bare else found


def install_qt_translations(lang: str) -> None:
    """Load Qt's own catalog for `lang` (qtbase), replacing the previous one."""
    global _qt_translator
    app = QCoreApplication.instance()
    if app is None:
        return
    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)
        _qt_translator = None
    QLocale.setDefault(QLocale(i18n.LOCALES.get(lang, lang)))
    if lang == "en":
        return
    translator = _QtCatalog(app)
    if translator.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(translator)
        _qt_translator = translator


def system_language() -> str:
    """The user's system language if the interface speaks it, else English."""
    for name in QLocale.system().uiLanguages():
        code = name.split("-")[0].split("_")[0].lower()
        if code in i18n.LANGUAGES:
            return code
    return "en"
