"""The floors of the core read top to bottom: core/knowledge reads and validates the knowledge
base and imports no capability built on it (rules, forms, inspection, learn, play, tournament,
search...), at module level or inside a function; the cross-checks of check-kb that need those
live above them, in core/checks, which nothing in the core imports."""
from __future__ import annotations

from test_import_graph import import_graph

KNOWLEDGE = "referee_app.core.knowledge"
# what core/knowledge may lean on: itself, and the core's shared helpers below every capability
ALLOWED = (KNOWLEDGE, "referee_app.core.errors", "referee_app.core.validation", "referee_app.core.cache_files",
           "referee_app.languages")
CHECKS = "referee_app.core.checks"


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


# The knowledge root (root.py, `Knowledge`) is the top of this floor: it hands out what is built
# from the knowledge (a ruleset compiled, the forms, the equipment), each imported only when first
# asked for, never at module level (test below): nothing in core/knowledge imports it.
ROOT = f"{KNOWLEDGE}.root"


def test_core_knowledge_imports_no_capability_built_on_it():
    graph = import_graph()
    assert any(_within(t, "referee_app.core.rules") for t in graph[f"{CHECKS}.knowledge_base"])  # seen inside functions
    wrong = sorted(f"{module} -> {target}" for module, targets in graph.items()
                   if _within(module, KNOWLEDGE) and module != ROOT
                   for target in targets if not any(_within(target, ok) for ok in ALLOWED))
    assert wrong == []
    assert not [module for module, targets in graph.items() if _within(module, KNOWLEDGE) and ROOT in targets]


def test_the_knowledge_root_imports_what_is_built_on_it_only_when_asked():
    import ast

    import referee_app.core.knowledge.root as root

    tree = ast.parse(open(root.__file__, encoding="utf-8").read())
    at_top = [node.module for node in tree.body if isinstance(node, ast.ImportFrom)]
    assert at_top and all(m == "__future__" or m in ("pathlib", "typing") or _within(m, "referee_app.core.errors")
                          for m in at_top), at_top


def test_nothing_in_the_core_below_the_checks_imports_them():
    graph = import_graph()
    wrong = sorted(f"{module} -> {target}" for module, targets in graph.items()
                   if _within(module, "referee_app.core") and not _within(module, CHECKS)
                   for target in targets if _within(target, CHECKS))
    assert wrong == []
