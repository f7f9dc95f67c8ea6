"""The interface in French and Italian at run time: switch the language, then walk every widget
and action of the window and find no English interface string left. Knowledge-base text (clause
texts, titles, source names) is exempt: it is shown in its own language on purpose."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QGroupBox, QLabel, QLineEdit, QListWidget, QMenu,
                               QTabWidget, QTextEdit, QTreeWidget, QWidget)

from referee_app import i18n
from referee_app.ui.main_window import EQUIPMENT, RULEBOOK, RULINGS
from test_ui_support import REPO_ROOT, focused, gui_env, key, search_cache, type_text, window  # noqa: F401

SEPARATORS = re.compile(r"\s*(?:\n| · | — |: )\s*")


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def english_strings(lang: str) -> tuple[list[re.Pattern], set[str]]:
    """Patterns matching the English msgids that `lang` translates differently (the others, like
    "Source" in French, look the same in both languages and prove nothing); and the translations
    themselves, since the Italian for "&File" is "&File", which is no English left behind."""
    with (REPO_ROOT / "translations" / f"{lang}.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out, translated = [], set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        translated |= {_plain(t) for t in strings if t}
        for msgid, msgstr in zip(ids, strings):
            if msgid == msgstr or not re.search(r"[A-Za-z]", re.sub(r"\{\w*\}", "", msgid)):
                continue  # the same in both, or only placeholders and punctuation ("{label}: {value}")
            pattern = re.escape(_plain(msgid))
            pattern = re.sub(r"\\\{\w+\\\}", ".+", pattern)  # {n}, {citation}: anything
            out.append(re.compile(pattern))
    return out, translated


def knowledge_strings(kb) -> set[str]:
    out = set(i18n.LANGUAGE_NAMES.values())  # each language under its own name, on purpose
    for src in kb.sources.values():
        out |= {src.title, src.short, f"{src.short} — {src.title}"}
    for c in kb.clauses.values():
        out |= {c.title, c.text, c.paragraph, " ".join(c.text.split())}
        out |= set(c.translations.values())
    return out


def visible_texts(window):
    """(where, text) for every string the window can show: texts, tooltips, titles, items, pages."""
    for w in [window, *window.findChildren(QWidget)]:
        name = f"{type(w).__name__}#{w.objectName()}"
        yield name + ".windowTitle", w.windowTitle()
        yield name + ".toolTip", w.toolTip()
        yield name + ".statusTip", w.statusTip()
        yield name + ".accessibleName", w.accessibleName()
        if isinstance(w, (QLabel, QAbstractButton)):
            yield name + ".text", w.text()
        if isinstance(w, QLineEdit):
            yield name + ".placeholder", w.placeholderText()
        if isinstance(w, QGroupBox):
            yield name + ".title", w.title()
        if isinstance(w, QMenu):
            yield name + ".title", w.title()
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                yield f"{name}[{i}]", w.itemText(i)
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield f"{name}.tab[{i}]", w.tabText(i)
                yield f"{name}.tabToolTip[{i}]", w.tabToolTip(i)
        if isinstance(w, QListWidget):
            for i in range(w.count()):
                yield f"{name}[{i}]", w.item(i).text()
                yield f"{name}[{i}].toolTip", w.item(i).toolTip()
        if isinstance(w, QTreeWidget):
            stack = [w.topLevelItem(i) for i in range(w.topLevelItemCount())]
            while stack:
                item = stack.pop()
                yield f"{name}.item.toolTip", item.toolTip(0)
                stack.extend(item.child(i) for i in range(item.childCount()))
            yield f"{name}.header", w.headerItem().text(0) if not w.isHeaderHidden() else ""
        if isinstance(w, QTextEdit):
            block = w.document().begin()
            while block.isValid():
                yield f"{name}.page", block.text()
                block = block.next()
    for a in window.findChildren(QAction):
        name = f"QAction#{a.objectName()}"
        yield name + ".text", a.text()
        yield name + ".toolTip", a.toolTip()
        yield name + ".statusTip", a.statusTip()


def untranslated(window, lang: str) -> list[str]:
    patterns, translated = english_strings(lang)
    exempt = knowledge_strings(window.kb) | translated
    found = []
    for where, text in visible_texts(window):
        text = (text or "").replace("\u2028", "\n").strip()
        if not text or text in exempt:
            continue
        pieces = {text, *SEPARATORS.split(text)}
        for piece in pieces:
            piece = _plain(piece.strip())
            if not piece or piece in exempt:
                continue
            if any(p.fullmatch(piece) for p in patterns):
                found.append(f"{where}: {piece!r}")
    return sorted(set(found))


def exercise(window, qtbot):
    """Put every part of the window on screen once: areas, a clause page with all its sections,
    the comparison, search results, bookmarks, status messages."""
    window.rulebook.open_clause("icf-fr:3.12.c")
    window.rulebook.tree.topLevelItem(0).setExpanded(True)
    key(window, "Ctrl+D")
    key(window, "Ctrl+F")
    type_text(focused(), "reine")
    qtbot.waitUntil(lambda: window.rulebook.search.results.count() > 0
                    and window.rulebook.search._status[0] == "results", timeout=30000)


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_switching_language_leaves_no_english_behind(window, qtbot, lang):
    exercise(window, qtbot)
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
    assert i18n.current_language() == lang
    for area in (RULINGS, EQUIPMENT, RULEBOOK):
        window.show_area(area)
        assert untranslated(window, lang) == []
    window.rulebook.compare_action.setChecked(True)
    assert untranslated(window, lang) == []


def test_the_walk_does_find_english(window, qtbot):
    """The check above would catch a string left in English: prove it on the English window."""
    exercise(window, qtbot)
    left = untranslated(window, "fr")
    assert any("Rulebook" in s for s in left) and any("Corresponds to" in s for s in left)


def test_language_switch_by_keyboard_changes_visible_text(window, qtbot):
    key(window, "Ctrl+L")
    combo = window.language_combo
    assert combo.view().isVisible()  # the list of languages is open, ready for the arrow keys
    combo.hidePopup()
    assert focused() is combo
    combo.setCurrentIndex(combo.findData("fr"))
    assert window.area_actions[RULEBOOK].text().replace("&", "") == "Règlement"
    assert window.rulebook.nav.tabText(0) == "Sommaire"
    assert window.ruleset_combo.currentText() == "Règles internationales (ICF)"
    assert window.windowTitle().endswith("Arbitre de carrom")
    combo.setCurrentIndex(combo.findData("it"))
    assert window.area_actions[RULEBOOK].text().replace("&", "") == "Regolamento"
    assert window.ruleset_combo.currentText() == "Regole internazionali (ICF)"
    combo.setCurrentIndex(combo.findData("en"))
    assert window.area_actions[RULEBOOK].text().replace("&", "") == "Rulebook"
