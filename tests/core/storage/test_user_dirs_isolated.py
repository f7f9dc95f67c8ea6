"""The test session never writes into the user's own cache, records or settings: conftest points
them at a temporary folder before anything reads them, for this process and the commands it starts."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.cli import run_cli

# the session's user folders, as tests/conftest.py made them
USER_DIRS = Path(os.environ["XDG_CACHE_HOME"]).parent


def _inside(path) -> bool:
    return os.path.realpath(path).startswith(os.path.realpath(USER_DIRS) + os.sep)


def test_every_user_folder_of_the_app_is_the_sessions_temporary_one():
    from platformdirs import user_cache_dir, user_config_dir, user_data_dir

    from referee_app.core.knowledge.cache import cache_folder
    from referee_app.core.search.index_cache import cache_dir
    from referee_app.core.storage.db import default_path

    places = {"platformdirs cache": user_cache_dir("carrom-referee", appauthor=False),
              "platformdirs data": user_data_dir("carrom-referee", appauthor=False),
              "platformdirs config": user_config_dir("carrom-referee", appauthor=False),
              "knowledge cache": cache_folder(), "search index": cache_dir(), "records": default_path()}
    assert {name: str(path) for name, path in places.items() if not _inside(path)} == {}


def test_the_settings_file_is_in_the_sessions_temporary_folder():
    # in a process of its own: Qt keeps the first settings folder it finds, and a test may point
    # this one's elsewhere (QSettings.setPath)
    done = subprocess.run([sys.executable, "-c", "from referee_app.ui.settings import app_settings; "
                                                 "print(app_settings().fileName())"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _inside(done.stdout.strip()), done.stdout


def test_a_command_started_by_a_test_writes_its_cache_there_too(tmp_path):
    import shutil

    from referee_app.core.knowledge.loader import knowledge_root

    # a knowledge folder of its own, with one more file: a cache key no one has written yet
    root = tmp_path / "knowledge"
    shutil.copytree(knowledge_root(), root)
    (root / "zz-isolation-test.yaml").write_text("note: only here\n", encoding="utf-8")
    before = set((USER_DIRS / "cache").rglob("knowledge-*.pickle"))
    done = run_cli("rulesets", "--json", env={"CARROM_REFEREE_KNOWLEDGE": str(root)})
    assert done.returncode == 0, done.stderr
    assert set((USER_DIRS / "cache").rglob("knowledge-*.pickle")) - before, "the command wrote no cache here"


@pytest.mark.parametrize("xdg, home", [(None, "/home/referee"), ("/var/tmp/c", "/home/referee"), ("", "/home/referee/"),
                                       ("relative/c", "/home/referee"), ("  ", "/"), ("/c", "relative"),
                                       (None, None), ("relative", "")])
def test_the_cache_folder_is_the_one_platformdirs_names(monkeypatch, xdg, home):
    from platformdirs import user_cache_dir

    from referee_app.core.cache_files import cache_folder

    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    try:
        expected = Path(user_cache_dir("carrom-referee", appauthor=False))
    except RuntimeError:   # no home to be found: the app's folder is no better, but says the same
        with pytest.raises(RuntimeError):
            cache_folder()
        return
    assert cache_folder() == expected
