"""The preferences choose where the records live (issue 18): a database URL, checked before it is
kept, never holding a password (the message says where libpq's secrets go); the environment
variable wins, and the field shows that it does."""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from referee_app.core.storage import location
from referee_app.ui import settings
from support.gui import make_window

SERVER = "postgresql://desk.club.example/open2026"


def type_text(widget, text: str) -> None:
    """Types text one key at a time: keyClicks aborts on characters outside ASCII."""
    for ch in text:
        QTest.sendKeyEvent(QTest.KeyAction.Click, widget, Qt.Key.Key_unknown, ch, Qt.KeyboardModifier.NoModifier)


# --- the preferences ---------------------------------------------------------------------------

@pytest.mark.parametrize("url, reason", [
    ("postgresql://referee:s3cret@desk/open", "password"),
    ("postgresql://desk/open?password=s3cret", "password"),
    ("mysql://desk/open", "scheme"),
    ("desk/open", "scheme"),
    ("sqlite://", "no_file"),
    ("postgresql://desk", "no_database"),
])
def test_a_url_the_settings_cannot_keep_is_refused_by_reason(url, reason):
    with pytest.raises(location.UrlRefused) as caught:
        location.check_setting(url)
    assert caught.value.reason == reason and caught.value.field == "database_url"
    if reason == "password":
        assert "PGPASSFILE" in str(caught.value) and "s3cret" not in str(caught.value)


@pytest.mark.parametrize("url", ["", "  ", SERVER, "postgresql+psycopg://desk:5433/open",
                                 "postgresql:///?service=carrom", "sqlite:////srv/records.sqlite3"])
def test_a_url_without_secrets_is_kept_as_typed(url):
    assert location.check_setting(url) == url.strip()


def test_the_environment_wins_over_the_setting(monkeypatch):
    monkeypatch.delenv(location.ENV_VAR, raising=False)
    assert location.chosen("") == ("", "default")
    assert location.chosen(SERVER) == (SERVER, "settings")
    monkeypatch.setenv(location.ENV_VAR, "postgresql://other/db")
    assert location.chosen(SERVER) == ("postgresql://other/db", "environment")
    assert location.shown("postgresql://u:pw@h:5/db") == "postgresql://u@h:5/db"


def open_preferences(window, qtbot):
    from referee_app.ui.preferences import PreferencesDialog

    dialog = PreferencesDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def test_the_preferences_refuse_a_password_and_keep_a_server_address(gui_env, qtbot):
    window = make_window(qtbot)
    assert window.preferences_action.shortcut().toString() == "Ctrl+,"
    dialog = open_preferences(window, qtbot)
    assert dialog.url.text() == "" and dialog.environment.isHidden()
    assert "next time" in dialog.when.text()
    qtbot.keyClicks(dialog.url, "postgresql://arbitre:motdepasse@desk/open")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.isVisible(), "refused: the dialog stays open"
    assert dialog.problem.isVisible() and "PGPASSFILE" in dialog.problem.text()
    assert settings.get_str(settings.DATABASE_URL) == "", "nothing was kept"
    dialog.url.clear()
    qtbot.keyClicks(dialog.url, SERVER)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert not dialog.isVisible()
    assert settings.get_str(settings.DATABASE_URL) == SERVER
    again = open_preferences(window, qtbot)
    assert again.url.text() == SERVER


def test_the_preferences_refuse_a_password_in_french_with_accented_typing(gui_env, qtbot):
    from referee_app import i18n

    window = make_window(qtbot)
    i18n.set_language("fr")
    dialog = open_preferences(window, qtbot)
    dialog.url.setFocus()
    type_text(dialog.url, "postgresql://arbitre:clé-secrète@salle/tournoi")
    assert dialog.url.text().endswith("clé-secrète@salle/tournoi")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert dialog.problem.isVisible()
    text = dialog.problem.text()
    assert "mot de passe" in text and "PGPASSFILE" in text, text
    assert settings.get_str(settings.DATABASE_URL) == ""


def test_the_preferences_show_that_the_environment_wins(gui_env, qtbot, monkeypatch):
    settings.put(settings.DATABASE_URL, SERVER)
    monkeypatch.setenv(location.ENV_VAR, "postgresql://ops:pw@other.example/open")
    dialog = open_preferences(None, qtbot)
    assert not dialog.url.isEnabled()
    assert dialog.url.text() == "postgresql://ops@other.example/open", "shown, without its password"
    assert dialog.environment.isVisible() and location.ENV_VAR in dialog.environment.text()
    dialog.accept()
    assert settings.get_str(settings.DATABASE_URL) == SERVER, "the setting is left as it was"
