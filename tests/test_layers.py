"""The floors of the core read top to bottom: core/knowledge reads and validates the knowledge
base and imports no capability built on it (rules, forms, inspection, learn, play, tournament,
search...), at module level or inside a function; the cross-checks of check-kb that need those
live above them, in core/checks."""
from __future__ import annotations

import ast
from pathlib import Path

import referee_app

PACKAGE = Path(referee_app.__file__).resolve().parent
# what core/knowledge may lean on: itself, and the core's shared helpers below every capability
ALLOWED = ("referee_app.core.knowledge", "referee_app.core.errors", "referee_app.core.validation",
           "referee_app.core.cache_files", "referee_app.languages")


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, relative ones resolved, `from P import m` as P.m."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_core_knowledge_imports_no_capability_built_on_it():
    wrong = []
    for path in sorted((PACKAGE / "core" / "knowledge").rglob("*.py")):
        for line, module in imported_modules(path):
            if _within(module, "referee_app") and not any(_within(module, ok) for ok in ALLOWED):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {module}")
    assert wrong == []


def test_the_layering_check_sees_imports_inside_functions_and_relative_ones(tmp_path):
    probe = PACKAGE / "core" / "knowledge" / "loader.py"
    modules = {m for _, m in imported_modules(probe)}
    assert "referee_app.core.knowledge.yamlio.load_file" in modules   # `from .yamlio import load_file`
    assert "referee_app.core.knowledge.cache" in modules               # `from . import cache`, inside load()
    assert any(_within(m, "referee_app.core.rules") for _, m in
               imported_modules(PACKAGE / "core" / "checks" / "knowledge_base.py"))   # a function-level import


def test_nothing_below_the_checks_imports_them():
    below = [p for p in (PACKAGE / "core").rglob("*.py") if "checks" not in p.relative_to(PACKAGE / "core").parts]
    assert not [(p.name, m) for p in below for _, m in imported_modules(p) if _within(m, "referee_app.core.checks")]
