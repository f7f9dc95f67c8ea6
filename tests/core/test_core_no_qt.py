"""The core never imports Qt, and neither does the command line unless it has to draw."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import referee_app.core

CORE_MODULES = sorted(m.name for m in pkgutil.walk_packages(referee_app.core.__path__, "referee_app.core."))


def _loaded_qt(code: str) -> list[str]:
    probe = code + "\nimport sys\nprint(','.join(sorted(m for m in sys.modules if m.startswith(('PySide6', 'shiboken')))))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [m for m in out.stdout.strip().split(",") if m]


def test_every_core_module_imports_without_qt():
    assert len(CORE_MODULES) >= 30
    imports = "\n".join(f"import {m}" for m in CORE_MODULES)
    assert _loaded_qt(imports) == []


def test_ruling_from_the_command_line_loads_no_qt():
    code = ("from referee_app.cli import main\n"
            "import io, contextlib\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['rulesets', '--json'])\n"
            "    main(['show', 'icf-fr:3.12.c', '--json'])\n")
    assert _loaded_qt(code) == []
