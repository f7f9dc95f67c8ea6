"""The window reads no YAML itself: whatever it shows of the knowledge base comes through a core
function (issue 28, "Floors"), so the command line and the window read each file one way.

Checked on the source of every module under referee_app/ui, without importing any: none imports
`yaml`, the core's YAML readers (`core/knowledge/yamlio.py`, `files.py`), `load_file` or
`knowledge_root`."""
from __future__ import annotations

import ast
from pathlib import Path

import referee_app.ui

UI = Path(referee_app.ui.__file__).parent
FORBIDDEN_MODULES = ("yaml", "referee_app.core.knowledge.yamlio", "referee_app.core.knowledge.files")
FORBIDDEN_NAMES = {"load_file", "knowledge_root", "yamlio", "safe_load"}


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, alias.name.rsplit(".", 1)[-1]
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                yield node.module or "", alias.name


def reads_yaml(source: str) -> list[str]:
    found = []
    for module, name in _imports(ast.parse(source)):
        if module.split(".")[0] == "yaml" or module in FORBIDDEN_MODULES or name in FORBIDDEN_NAMES:
            found.append(f"{module}:{name}")
    return found


def test_the_check_sees_each_way_of_reading_yaml():
    assert reads_yaml("import yaml")
    assert reads_yaml("def f():\n    from referee_app.core.knowledge.yamlio import load_file")
    assert reads_yaml("from referee_app.core.knowledge.loader import knowledge_root")
    assert reads_yaml("from referee_app.core.knowledge import yamlio")
    assert reads_yaml("from referee_app.core.knowledge.files import load_file")
    assert not reads_yaml("from referee_app.core.play.clock import match_clock")


def test_no_ui_module_reads_yaml():
    modules = sorted(UI.rglob("*.py"))
    assert len(modules) > 50
    found = {str(p.relative_to(UI)): reads_yaml(p.read_text(encoding="utf-8")) for p in modules}
    assert {k: v for k, v in found.items() if v} == {}
