"""whoosh is imported by one module only, so that replacing it touches one file."""
from __future__ import annotations

import ast
from pathlib import Path

import referee_app

PACKAGE = Path(referee_app.__file__).resolve().parent
WHOOSH_HOME = PACKAGE / "core" / "search" / "backend.py"


def _imports_whoosh(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "whoosh" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "whoosh":
            return True
    return False


def test_only_one_module_imports_whoosh():
    importers = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if _imports_whoosh(p))
    assert importers == [WHOOSH_HOME.relative_to(PACKAGE).as_posix()]
