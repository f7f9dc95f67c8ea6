"""Fixtures shared by the GUI tests; their plain helpers are in support/gui.py.

Every GUI test gets its own settings file (QSettings pointed at a temporary folder), starts in
English with normal type and the system appearance, and leaves no search running behind it.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from referee_app import i18n
from referee_app.core.knowledge.loader import load
from referee_app.ui.rulebook import search_worker
from referee_app.ui import settings
from referee_app.ui import theme
from referee_app.ui.common import records_source
from referee_app.ui.common.server_state import reset_server_state

from support.gui import make_window, write_mini_kb


@pytest.fixture(scope="session")
def mini_kb(tmp_path_factory):
    kb, problems = load(write_mini_kb(tmp_path_factory.mktemp("mini-kb")), strict=False)
    assert not problems, problems
    return kb


@pytest.fixture(scope="session")
def search_cache(tmp_path_factory):
    """One search index for the whole session: building it is the first search's business,
    tested on its own; the other tests should not pay for it again."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def gui_env(qapp, tmp_path, monkeypatch, search_cache):
    """A private settings file, English, normal type; and a clean state afterwards."""
    config = tmp_path / "config"
    config.mkdir()
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(config))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("XDG_CACHE_HOME", str(search_cache))
    # the window's records in the test's own data folder (records_file's too), never the user's
    # (nor another run's); no variable naming a database, so that the preferences decide
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("CARROM_REFEREE_DATABASE", raising=False)
    monkeypatch.delenv("CARROM_REFEREE_DB", raising=False)
    reset_server_state()   # no save left waiting by another test
    records_source.forget()
    settings.put(settings.LANGUAGE, "en")
    i18n.set_language("en")
    yield config
    search_worker.wait_for_searches()
    i18n.set_language("en")
    theme.apply_type_size(False, 0)
    theme.apply_appearance("system")
    QApplication.clipboard().clear()
    reset_server_state()
    records_source.forget()


@pytest.fixture
def window(qtbot, gui_env):
    """The app's window over the real knowledge base."""
    return make_window(qtbot)


@pytest.fixture
def mini_window(qtbot, gui_env, mini_kb):
    """The window over a three-clause knowledge base whose content the tests know exactly."""
    return make_window(qtbot, mini_kb)
