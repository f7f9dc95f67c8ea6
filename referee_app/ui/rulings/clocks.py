"""Clocks the referee starts and pauses: the stroke clock and break clock of the ruleset, and the
optional match clock of a tournament (40 + 5 minutes). Silent: a clock turns red, never beeps."""
from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from referee_app.i18n import gettext as _


class Countdown(QWidget):
    """A countdown of `seconds` (plus `extra` seconds of grace, shown separately), start/pause/reset.

    `changed` is emitted when it is started, paused or reset, and every `SAVE_EVERY_MS` while it
    runs: the match clock is saved with the sheet then, so a crash takes back a few seconds at most."""

    changed = Signal()
    SAVE_EVERY_MS = 5000

    def __init__(self, name: str, seconds: int, extra: int = 0, parent=None):
        super().__init__(parent)
        self.setObjectName(name)
        self.seconds, self.extra = seconds, extra
        self._spent_ms = 0
        self._clock = QElapsedTimer()
        self._tick = QTimer(self, interval=200)
        self._tick.timeout.connect(self._refresh)
        self._beat = QTimer(self, interval=self.SAVE_EVERY_MS)
        self._beat.timeout.connect(self.changed)
        self.title = QLabel()
        self.display = QLabel(objectName=f"{name}_display")
        font = self.display.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.display.setFont(font)
        self.toggle = QPushButton(objectName=f"{name}_toggle")
        self.toggle.clicked.connect(self.start_pause)
        self.reset_button = QPushButton(objectName=f"{name}_reset")
        self.reset_button.clicked.connect(self.reset)
        # one row per clock (title, time, start/pause, reset): three clocks stack under the ruling
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title, 1)
        layout.addWidget(self.display)
        layout.addWidget(self.toggle)
        layout.addWidget(self.reset_button)
        self._title_fn = lambda: name
        self._button_names: dict = {}   # "start", "pause", "reset" -> the words naming this clock's buttons
        self._over = False
        self.retranslate()

    def set_title(self, fn, **button_names) -> None:
        """`fn()`: the clock's title; `start`, `pause`, `reset`: the words naming its buttons for a
        screen reader ("Start the match clock"), for three clocks whose buttons all read "Start"."""
        self._title_fn = fn
        self._button_names = button_names
        self.retranslate()

    def set_seconds(self, seconds: int, extra: int = 0) -> None:
        self.seconds, self.extra = seconds, extra
        self.reset()

    @property
    def running(self) -> bool:
        return self._tick.isActive()

    def elapsed_ms(self) -> int:
        return self._spent_ms + (self._clock.elapsed() if self.running else 0)

    def remaining(self) -> float:
        return self.seconds - self.elapsed_ms() / 1000

    def start_pause(self) -> None:
        if self.running:
            self._spent_ms += self._clock.elapsed()
            self._tick.stop()
            self._beat.stop()
        else:
            self._clock.start()
            self._tick.start()
            self._beat.start()
        self.retranslate()
        self.changed.emit()

    def reset(self) -> None:
        self._tick.stop()
        self._beat.stop()
        self._spent_ms = 0
        self.retranslate()
        self.changed.emit()

    def state(self) -> dict:
        """What is saved of it: the time spent, and whether it was running."""
        return {"spent_ms": int(self.elapsed_ms()), "running": self.running}

    def restore(self, spent_ms: int) -> None:
        """Back where a saved state left it, paused: after a crash or a restart the referee starts
        it again when play resumes."""
        self._tick.stop()
        self._beat.stop()
        self._spent_ms = max(0, int(spent_ms))
        self.retranslate()

    def restart(self) -> None:
        self.reset()
        self.start_pause()

    def _refresh(self) -> None:
        left = self.remaining()
        if left >= 0:
            text = f"{int(left) // 60:d}:{int(left) % 60:02d}" if self.seconds >= 60 else f"{left:4.1f}"
            over = False
        else:
            grace = self.extra + left
            text = (_("+{m}:{s:02d} to finish").format(m=int(grace) // 60, s=int(grace) % 60) if grace > 0
                    else _("time is up"))
            over = True
        self.display.setText(text)
        if over != self._over:   # a style sheet set again, even the same, restyles the label
            self._over = over
            self.display.setStyleSheet("color: #c62828" if over else "")

    def retranslate(self) -> None:
        self.title.setText(self._title_fn())
        self.toggle.setText(_("Pause") if self.running else _("Start"))
        self.reset_button.setText(_("Reset"))
        names = self._button_names
        if names:
            self.toggle.setAccessibleName(names["pause" if self.running else "start"]())
            self.reset_button.setAccessibleName(names["reset"]())
        self._refresh()
