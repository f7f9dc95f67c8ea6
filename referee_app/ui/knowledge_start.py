"""The knowledge base the window shows, and the core modules its Rulings area uses, loaded before
Qt is imported (ui/app.py).

Qt-free on purpose: once PySide6 is imported, its import hook runs for every module imported
after it (it reads each new module's source, looking for `from __feature__ import`), and the same
imports and loading measured about 8 ms (5% of the window's start) slower after PySide6 than
before it (benchmarks/bench_startup.py)."""
from __future__ import annotations

from importlib import import_module

from referee_app.core.errors import KnowledgeError
from referee_app.core.knowledge.root import Knowledge


def load_knowledge(root=None) -> tuple[Knowledge, list]:
    """The knowledge root the whole window works with, its rulesets read now (its knowledge base
    when first used, after the first paint, unless it is broken); a broken base is still shown,
    with its problems listed, because a referee mid-match is better served by the readable rules
    than by no window."""
    try:   # the knowledge base itself is read after the first paint, when first used (root._open)
        knowledge = Knowledge.load(root).read("rulesets")
    except KnowledgeError:
        knowledge = Knowledge.load(root, strict=False).read("kb")
    return knowledge.read("rulesets"), knowledge.problems


# The Qt-free modules the first paint uses: the interface language, the Rulings area's match (its
# session, its rules engine and rulings), foul names, and the server banner's records location.
CORE = ("referee_app.i18n", "referee_app.core.play.session", "referee_app.core.play.foul_names",
        "referee_app.core.storage.location")


def start_core() -> tuple[Knowledge, list]:
    """`load_knowledge()`, after importing CORE, with what the Rulings area reads for the first
    paint (the default ruleset compiled, the match clock) read too."""
    for name in CORE:
        import_module(name)
    knowledge, problems = load_knowledge()
    knowledge.read("default_ruleset", "tournament")
    try:
        knowledge.compiled(knowledge.default_ruleset)
    except KnowledgeError:
        pass   # a broken base: the window says so where it uses the ruleset, as without this
    return knowledge, problems
