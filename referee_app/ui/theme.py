"""Legibility: light or dark as the system says (or as the referee forces it), and type size.

Nothing here hard-codes a colour for the light theme: every colour the rich-text views use is
taken from the palette, or blended from two palette colours, so a dark palette gives a dark page.
The only fixed colours are those of the dark palette itself, used when the system asks for
dark mode and its platform theme does not provide a palette (Fusion on a bare X11 or Wayland
session, or the referee choosing "Dark" in a bright-hall-vs-dim-hall decision).
"""
from __future__ import annotations

import weakref
from typing import NamedTuple

import shiboken6

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

APPEARANCES = ("system", "light", "dark")

# Type size: the "large type" switch for a bright hall read from arm's length, and finer steps
# with Ctrl+Plus / Ctrl+Minus.
LARGE_FACTOR = 1.3
ZOOM_STEP = 1.1
ZOOM_MIN, ZOOM_MAX = -2, 6

_base_font: QFont | None = None


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(round(a.red() + (b.red() - a.red()) * t), round(a.green() + (b.green() - a.green()) * t),
                  round(a.blue() + (b.blue() - a.blue()) * t))


class Colors(NamedTuple):
    """Hex colours for rich text, derived from the current palette (see `colors()`). A named tuple,
    not a frozen dataclass: this module is on the first paint's path, and a dataclass's definition
    costs an exec for each of its generated methods."""

    text: str
    muted: str
    base: str
    panel: str
    link: str
    accent: str
    accent_bg: str
    mark_bg: str
    rule: str


def colors(palette: QPalette | None = None) -> Colors:
    p = palette or QApplication.palette()
    text, base = p.color(QPalette.ColorRole.Text), p.color(QPalette.ColorRole.Base)
    highlight = p.color(QPalette.ColorRole.Highlight)
    link = p.color(QPalette.ColorRole.Link)
    if _is_dark(p) and link.lightness() < 128:  # some dark palettes keep the light theme's dark blue link
        link = _blend(link, text, 0.5)
    return Colors(
        text=text.name(), muted=_blend(text, base, 0.4).name(), base=base.name(),
        panel=_blend(base, text, 0.06).name(), link=link.name(), accent=_blend(highlight, text, 0.25).name(),
        accent_bg=_blend(base, highlight, 0.16).name(), mark_bg=_blend(base, highlight, 0.38).name(),
        rule=_blend(base, text, 0.25).name(),
    )


def _is_dark(p: QPalette) -> bool:
    return p.color(QPalette.ColorRole.Window).lightness() < 128


def _dark_palette() -> QPalette:
    p = QPalette()
    window, base, text = QColor(0x2b, 0x2d, 0x30), QColor(0x1e, 0x1f, 0x22), QColor(0xe8, 0xe8, 0xe8)
    disabled = QColor(0x80, 0x80, 0x80)
    for role, colour in (
        (QPalette.ColorRole.Window, window), (QPalette.ColorRole.WindowText, text),
        (QPalette.ColorRole.Base, base), (QPalette.ColorRole.AlternateBase, window),
        (QPalette.ColorRole.ToolTipBase, window), (QPalette.ColorRole.ToolTipText, text),
        (QPalette.ColorRole.PlaceholderText, disabled), (QPalette.ColorRole.Text, text),
        (QPalette.ColorRole.Button, window), (QPalette.ColorRole.ButtonText, text),
        (QPalette.ColorRole.BrightText, QColor(0xff, 0x6b, 0x6b)), (QPalette.ColorRole.Light, QColor(0x3c, 0x3f, 0x44)),
        (QPalette.ColorRole.Midlight, QColor(0x35, 0x37, 0x3b)), (QPalette.ColorRole.Mid, QColor(0x24, 0x26, 0x29)),
        (QPalette.ColorRole.Dark, QColor(0x18, 0x19, 0x1b)), (QPalette.ColorRole.Shadow, QColor(0, 0, 0)),
        (QPalette.ColorRole.Highlight, QColor(0x3d, 0x7e, 0xd6)), (QPalette.ColorRole.HighlightedText, QColor(0xff, 0xff, 0xff)),
        (QPalette.ColorRole.Link, QColor(0x7a, 0xb4, 0xff)), (QPalette.ColorRole.LinkVisited, QColor(0xb0, 0x9c, 0xff)),
    ):
        p.setColor(role, colour)
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def apply_appearance(choice: str) -> None:
    """Follow the system ("system"), or force "light" or "dark"."""
    app = QApplication.instance()
    hints = QGuiApplication.styleHints()
    wanted = {"light": Qt.ColorScheme.Light, "dark": Qt.ColorScheme.Dark}.get(choice, Qt.ColorScheme.Unknown)
    if hasattr(hints, "setColorScheme"):  # Qt 6.8: the platform repaints natively where it can
        hints.setColorScheme(wanted)
    # An empty palette hands the colours back to the platform theme (KDE's, Windows', macOS'),
    # which also lets Qt follow a later change of the system's scheme.
    app.setPalette(QPalette())
    effective = wanted if wanted != Qt.ColorScheme.Unknown else hints.colorScheme()
    current = app.palette()
    if effective == Qt.ColorScheme.Dark and not _is_dark(current):
        app.setPalette(_dark_palette())  # the platform has no dark palette of its own
    elif effective == Qt.ColorScheme.Light and _is_dark(current):
        app.setPalette(QStyleFactory.create("Fusion").standardPalette())


def apply_type_size(large: bool, zoom: int) -> float:
    """Scale the application font; returns the factor applied. Pop-up menus and dialogs follow."""
    global _base_font
    app = QApplication.instance()
    if _base_font is None:
        _base_font = QFont(app.font())
    zoom = max(ZOOM_MIN, min(ZOOM_MAX, zoom))
    factor = (LARGE_FACTOR if large else 1.0) * ZOOM_STEP ** zoom
    font = QFont(_base_font)
    if _base_font.pointSizeF() > 0:
        font.setPointSizeF(_base_font.pointSizeF() * factor)
    else:
        font.setPixelSize(round(_base_font.pixelSize() * factor))
    app.setFont(font)
    # A widget given its own font (a ruling's headline) no longer follows the application's:
    # those kept at a scale of it are scaled again here. They are the ones keep_scaled listed,
    # not every widget Qt knows: wrapping each of those in Python, some already on their way
    # out, can crash the interpreter.
    for w in list(_kept):
        if shiboken6.isValid(w):
            w._type_scale.apply(w)
    return factor


class _Scaled:
    """Keeps a widget's font a fixed factor of the application font, through large type and zoom
    (a font set on a widget no longer follows the application's; apply_type_size calls `apply`)."""

    def __init__(self, widget, factor: float, bold: bool):
        self.factor, self.bold = factor, bold
        self.apply(widget)

    def apply(self, widget) -> None:
        font = QFont(QApplication.font())
        if font.pointSizeF() > 0:
            font.setPointSizeF(font.pointSizeF() * self.factor)
        else:
            font.setPixelSize(round(font.pixelSize() * self.factor))
        font.setBold(self.bold)
        if widget.font() != font:
            widget.setFont(font)


_kept: "weakref.WeakSet" = weakref.WeakSet()


def keep_scaled(widget, factor: float, bold: bool = False):
    """`widget` in type `factor` times the application's, following large type and zoom."""
    widget._type_scale = _Scaled(widget, factor, bold)
    _kept.add(widget)
    return widget


def focus_colour(palette: QPalette | None = None) -> str:
    """The focus ring's colour: the palette's highlight, darkened or lightened until it stands
    out from the page at 3:1 at least (WCAG's ratio for a focus indicator)."""
    p = palette or QApplication.palette()
    base, ring = p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Highlight)
    towards = p.color(QPalette.ColorRole.Text)
    for step in range(11):
        candidate = _blend(ring, towards, step / 10)
        if contrast(candidate, base) >= 3:
            return candidate.name()
    return towards.name()


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    def lum(c: QColor) -> float:
        out = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            out.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]

    la, lb = sorted((lum(QColor(a)), lum(QColor(b))), reverse=True)
    return (la + 0.05) / (lb + 0.05)
