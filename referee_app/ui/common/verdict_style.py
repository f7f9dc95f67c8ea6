"""How the inspection page shows a verdict: pass, fail or muted, in colours readable on the
widget's own background (light or dark), always with a mark and a word as well as a colour.
"""
from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget


def verdict_colours(widget: QWidget) -> tuple[str, str, str]:
    """Pass, fail and muted text colours readable on the widget's own background (light or dark)."""
    dark = widget.palette().color(QPalette.ColorRole.Window).lightness() < 128
    return ("#81c784", "#ef9a9a", "#b0b0b0") if dark else ("#1b5e20", "#b71c1c", "#555555")


def show_verdict(label: QLabel, text: str, state: str) -> None:
    """Sets a verdict: `state` is ok, fail or muted; the text always carries its own mark."""
    ok, fail, muted = verdict_colours(label)
    label.setText(text)
    label.setStyleSheet(f"color: {dict(ok=ok, fail=fail, muted=muted)[state]};"
                        + ("font-weight: bold;" if state != "muted" else ""))
    label.setProperty("state", state)


def mark_input(widget: QWidget, state: str | None) -> None:
    """A coloured frame round the field itself, beside the verdict's text."""
    ok, fail, _muted = verdict_colours(widget)
    colour = {"ok": ok, "fail": fail}.get(state or "")
    widget.setStyleSheet(f"border: 2px solid {colour}; border-radius: 3px; padding: 1px;" if colour else "")
    widget.setProperty("state", state or "")
