"""What a screen reader says of the window's controls, and what it is told when a ruling changes.

Qt names a line edit after the label whose buddy it is, but a combo box after its current value
("—", "cm"), and a control with no label at all says nothing: each such control is named here,
in the interface language, by the retranslate() of the part that holds it.
"""
from __future__ import annotations

import re

from PySide6.QtWidgets import QComboBox, QLabel, QWidget


def plain(text: str) -> str:
    """A label's text as spoken: no mnemonic "&", no markup."""
    if "<" in text:   # rich text: its words, one space between cells and paragraphs
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)).replace("&nbsp;", " ")
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&").strip()
    return re.sub(r"&(&?)", r"\1", text).strip().rstrip(":").strip()


def name(widget: QWidget, text: str, description: str | None = None) -> None:
    """Names a control; `description` says more where the name is not enough. On Linux Qt gives
    a combo box its value for a name (its label is a relation): a combo box with no label of its
    own is described by its name too, so that a reader says what the value is of."""
    widget.setAccessibleName(plain(text))
    if description is None and isinstance(widget, QComboBox):
        description = plain(text)
    if description is not None:
        widget.setAccessibleDescription(description)


def names_from_labels(root: QWidget) -> None:
    """Every control with a label (its buddy) is named by that label's text, combo boxes too."""
    for label in root.findChildren(QLabel):
        buddy = label.buddy()
        if buddy is not None and label.text():
            buddy.setAccessibleName(plain(label.text()))


def announce(widget: QWidget, text: str) -> None:
    """Asks screen readers to say `text` now, without moving the focus (a live region's polite
    announcement: the referee keeps ticking while it is read)."""
    if text:
        # imported here: PySide6 builds QAccessible's large enums on import, 2 ms the window's
        # first paint need not wait for (the first ruling is announced after it)
        from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

        QAccessible.updateAccessibility(QAccessibleAnnouncementEvent(widget, text))
