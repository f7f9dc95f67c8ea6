"""Running the command line as a user would, and finding the repository and ../shared."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def shared_path() -> Path:
    """The ../shared folder, or a skip (a failure under CI) when it is absent."""
    if (SHARED / "sources").is_dir():
        return SHARED
    if under_ci():
        pytest.fail(f"{SHARED} is absent, and CI must run every shared case and source check")
    pytest.skip(f"{SHARED} is absent (a lone clone): the source and public-case checks need it")


def cli_command() -> list[str]:
    exe = Path(sys.executable).parent / "carrom-referee"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("carrom-referee")
    return [found] if found else [sys.executable, "-m", "referee_app"]


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None, timeout: float = 60,
            env: dict | None = None):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **(env or {}))
    return subprocess.run(cli_command() + list(args), input=input, capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd)
