"""Shared fixtures. GUI tests run offscreen; tests that read ../shared skip without it,
except under CI, where its absence is a failure."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path() -> Path:
    """The ../shared folder, or a skip (a failure under CI) when it is absent."""
    if (SHARED / "sources").is_dir():
        return SHARED
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{SHARED} is absent, and CI must run every shared case and source check")
    pytest.skip(f"{SHARED} is absent (a lone clone): the source and public-case checks need it")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return shared_path()


def cli_command() -> list[str]:
    exe = Path(sys.executable).parent / "carrom-referee"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("carrom-referee")
    return [found] if found else [sys.executable, "-m", "referee_app"]


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None, timeout: float = 60):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(cli_command() + list(args), input=input, capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd)


@pytest.fixture(scope="session")
def kb():
    from referee_app.core.knowledge.loader import default

    return default()


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """Points the user data, cache and config folders at a temporary place."""
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")):
        (tmp_path / sub).mkdir()
        monkeypatch.setenv(var, str(tmp_path / sub))
    return tmp_path


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    """One searcher over the installed knowledge per test module, its index in a temporary folder
    (never the user's cache)."""
    from referee_app.core.search import Searcher

    s = Searcher(folder=tmp_path_factory.mktemp("search-index"))
    s.open()
    yield s
    s.close()
