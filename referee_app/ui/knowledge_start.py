"""The knowledge base the window shows, and the core modules its Rulings area uses, loaded before
Qt is imported (ui/app.py).

Qt-free on purpose: once PySide6 is imported, its import hook runs for every module imported
after it (it reads each new module's source, looking for `from __feature__ import`), and the same
imports and loading measured about 8 ms (5% of the window's start) slower after PySide6 than
before it (benchmarks/bench_startup.py)."""
from __future__ import annotations

from importlib import import_module

from referee_app.core.errors import KnowledgeError
from referee_app.core.knowledge.loader import default, load
from referee_app.core.knowledge.model import KnowledgeBase
from referee_app.core.knowledge.rulesets import Ruleset, default_rulesets, load_rulesets


def load_knowledge() -> tuple[KnowledgeBase, dict[str, Ruleset], list]:
    """The knowledge base and rulesets; a broken base is still shown, with its problems listed,
    because a referee mid-match is better served by the readable rules than by no window."""
    try:
        kb = default()
    except KnowledgeError:
        kb, problems = load(strict=False)
        return kb, load_rulesets(kb), problems
    # the Rulings area reads default_rulesets(): read once, here, the rulesets are shared with it
    return kb, default_rulesets(), []


# The Qt-free modules the first paint uses: the interface language, the Rulings area's match (its
# session, its rules engine and rulings), foul names, and the server banner's records location.
CORE = ("referee_app.i18n", "referee_app.core.play.session", "referee_app.core.play.foul_names",
        "referee_app.core.storage.location")


def start_core() -> tuple[KnowledgeBase, dict[str, Ruleset], list]:
    """`load_knowledge()`, after importing CORE."""
    for name in CORE:
        import_module(name)
    return load_knowledge()
