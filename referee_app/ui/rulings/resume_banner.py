"""The offer, when the window opens, to take up the match left unfinished: a bar above the sheet,
never a dialog in the way of a referee who came for something else."""
from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton

from referee_app.i18n import current_language
from referee_app.i18n import gettext as _


class ResumeBanner(QFrame):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("resume_banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.match: dict | None = None
        self.label = QLabel(objectName="resume_text")
        self.label.setWordWrap(True)
        self.resume_button = QPushButton(objectName="resume_match")
        self.dismiss_button = QPushButton(objectName="dismiss_resume")
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 2, 6, 2)
        row.addWidget(self.label, 1)
        row.addWidget(self.resume_button)
        row.addWidget(self.dismiss_button)
        self._ruleset_name: Callable[[str], str] = str
        self.hide()

    def offer(self, match: dict, ruleset_name: Callable[[str], str]) -> None:
        """`ruleset_name(lang)`: the match's ruleset named in a language, asked again on each change."""
        self.match = dict(match)
        self._ruleset_name = ruleset_name
        self.retranslate()
        self.show()

    def retranslate(self) -> None:
        self.resume_button.setText(_("&Resume it"))
        self.dismiss_button.setText(_("Not now"))
        m = self.match
        if m:
            from referee_app.i18n import ngettext

            self.label.setText(ngettext(
                "An unfinished match: {first} – {second}, {n} stroke, {ruleset}.",
                "An unfinished match: {first} – {second}, {n} strokes, {ruleset}.", m["strokes"]).format(
                first=m["first_name"] or _("First"), second=m["second_name"] or _("Second"), n=m["strokes"],
                ruleset=self._ruleset_name(current_language())))
