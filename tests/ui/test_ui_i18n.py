"""The interface in French and Italian at run time: switch the language, open every area and every
tab of the window, then walk every widget and action and find no English string left. The
English strings looked for are the catalog's msgids and the knowledge base's English texts
(difference notes, example titles, ruling notes, foul and ruleset names), not a list of screens.
Knowledge-base text printed in its own language (clause texts, titles, source names) is exempt."""
from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from PySide6.QtGui import QAction, QTextDocumentFragment
from PySide6.QtWidgets import (QAbstractButton, QComboBox, QGroupBox, QLabel, QLineEdit, QListWidget, QMenu,
                               QTableWidget, QTabWidget, QTextEdit, QTreeWidget, QWidget)

from referee_app import i18n
from referee_app.ui.main_window import RULEBOOK, RULINGS
from support.gui import REPO_ROOT, focused, key, type_text

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


def knowledge_english(kb, lang: str) -> set[str]:
    """The knowledge base's English texts that `lang` must show translated: difference notes,
    example titles, the notes of rulings, the names of fouls and rulesets."""
    from support.kbcopy import installed

    out = set()
    for c in kb.clauses.values():
        for d in c.differs:
            if d.get("note") and (d.get("translations") or {}).get(lang) != d["note"]:
                out.add(" ".join(str(d["note"]).split()))
        for ex in c.examples:
            if isinstance(ex, dict) and ex.get("name") and (ex.get("titles") or {}).get(lang) != ex["name"]:
                out.add(str(ex["name"]))
    for rid, rs in installed().rulesets.items():
        if rs.name.get("en") != rs.name.get(lang):
            out.add(rs.name["en"])
        crs = installed().compiled(rid)
        for foul in crs.fouls.values():
            names = foul.get("name") or {}
            if names.get("en") and names.get("en") != names.get(lang):
                out.add(names["en"])
        for note in list(crs.borrowed.values()) + [r.note for r in crs.rules if getattr(r, "note", None)]:
            if note and note.get("en") and note.get("en") != note.get(lang):
                out.add(" ".join(note["en"].split()))
    return {t for t in out if re.search(r"[A-Za-z]{3}", t)}


def _shown(text: str) -> str:
    """What a label shows: rich text as its plain words."""
    if text and re.search(r"<(p|a|b|i|table|tr|td|span|br)\b", text):
        return QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def visible_texts(window):
    """(where, text) for every string the window can show: texts, tooltips, titles, items, pages."""
    for w in [window, *window.findChildren(QWidget)]:
        name = f"{type(w).__name__}#{w.objectName()}"
        yield name + ".windowTitle", w.windowTitle()
        yield name + ".toolTip", _shown(w.toolTip())
        yield name + ".statusTip", w.statusTip()
        yield name + ".accessibleName", w.accessibleName()
        if isinstance(w, QTableWidget):
            for i in range(w.rowCount()):
                for j in range(w.columnCount()):
                    item = w.item(i, j)
                    if item is not None:
                        yield f"{name}[{i},{j}]", item.text()
                        yield f"{name}[{i},{j}].toolTip", _shown(item.toolTip())
            for j in range(w.columnCount()):
                header = w.horizontalHeaderItem(j)
                yield f"{name}.header[{j}]", header.text() if header else ""
        if isinstance(w, (QLabel, QAbstractButton)):
            yield name + ".text", _shown(w.text())
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
    kb_english = knowledge_english(window.kb, lang)
    exempt = (knowledge_strings(window.kb) | translated) - kb_english
    found = []
    for where, text in visible_texts(window):
        text = (text or "").replace("\u2028", "\n").replace("\u2029", "\n").strip()
        if not text or text in exempt:
            continue
        pieces = {text, *SEPARATORS.split(text)}
        for piece in pieces:
            piece = _plain(piece.strip())
            if not piece or piece in exempt:
                continue
            flat = " ".join(piece.split())
            if flat in kb_english or any(p.fullmatch(piece) for p in patterns):
                found.append(f"{where}: {piece!r}")
    return sorted(set(found))


def every_area(window):
    """Each area of the window, then each tab of each tab bar in it: yields after each is shown."""
    for action in window.area_actions:
        action.trigger()
        area = window.stack.currentWidget()
        yield
        for tabs in area.findChildren(QTabWidget):
            if not tabs.isVisible():
                continue
            for i in range(tabs.count()):
                tabs.setCurrentIndex(i)
                yield


def exercise(window, qtbot):
    """Put every part of the window on screen once: a clause page with all its sections (notes of
    difference, worked examples), the comparison, search results, bookmarks, status messages; in the
    Rulings, a recorded stroke with a foul, a ruling with a note, the clause panel, a refusal, what-if
    and the comparison of rulesets; every tab of the Equipment area."""
    # a clause with notes of difference and worked examples, whichever the knowledge base has first
    with_notes = next(c.id for c in window.kb.clauses.values() if c.differs and c.examples)
    window.rulebook.open_clause(with_notes)
    window.rulebook.open_clause("icf-fr:3.12.c")
    window.rulebook.open_clause(with_notes)
    window.rulebook.tree.topLevelItem(0).setExpanded(True)
    key(window, "Ctrl+D")
    key(window, "Ctrl+F")
    type_text(focused(), "reine")
    qtbot.waitUntil(lambda: window.rulebook.search.results.count() > 0
                    and window.rulebook.search._status[0] == "results", timeout=30000)
    area = window.rulings_area
    area.form.load({"pocketed": {"own": 1}, "foul": "improper_stroke"})
    area.record()
    area.form.load({"pocketed": {"own": 1, "striker": True}})  # a ruling with a note (it 53)
    area.ruling_view.show_clause("icf-fr:3.12.c")
    area.compare()
    for _shown_area in every_area(window):
        pass


def rulings_states(window):
    """The Rulings area's other states: a refusal, the what-if mode, the clause of a note."""
    area = window.rulings_area
    window.show_area(RULINGS)
    area.form.load({"pocketed": {"striker": True}, "off_board": {"striker": True}})
    yield
    area.what_if.setChecked(True)
    yield
    area.what_if.setChecked(False)
    area.form.load({"pocketed": {"own": 1, "striker": True}})
    yield


@pytest.mark.parametrize("lang", ["fr", "it"])
def test_switching_language_leaves_no_english_behind(window, qtbot, lang):
    exercise(window, qtbot)
    window.language_combo.setCurrentIndex(window.language_combo.findData(lang))
    assert i18n.current_language() == lang
    left = []
    for _shown_area in every_area(window):
        left += untranslated(window, lang)
    for _state in rulings_states(window):
        left += untranslated(window, lang)
    window.rulebook.compare_action.setChecked(True)
    window.show_area(RULEBOOK)
    left += untranslated(window, lang)
    assert not left, "\n".join(sorted(set(left)))


def test_the_walk_does_find_english(window, qtbot):
    """The check above would catch a string left in English: prove it on the English window, for
    the catalog's strings and for the knowledge base's (a note of difference, a ruling's note)."""
    exercise(window, qtbot)
    left = untranslated(window, "fr")
    assert any("Rulebook" in s for s in left) and any("Corresponds to" in s for s in left)
    kb_found = [s for s in left if any(t in s for t in knowledge_english(window.kb, "fr"))]
    assert kb_found, "no knowledge-base English found on the English window"


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
