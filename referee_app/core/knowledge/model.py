"""The knowledge base's records: sources, clauses, glossary terms, rulesets, the problems found
in them.

Apart from the readers (loader.py, rulesets.py) that read and check them, so that what keeps them
(cache.py), what checks them and every user can import the records without importing the reading.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple


# The immutable records are named tuples: a frozen dataclass costs every start its definition,
# an exec for each of its six generated methods (0.3-0.4 ms a class), a named tuple one.
class Problem(NamedTuple):
    """What is wrong in the knowledge base, and where: a file and its line."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class Source(NamedTuple):
    """A source of sources.yaml: a rulebook in one language, and how its paragraphs are numbered."""

    id: str
    lang: str
    title: str
    short: str
    files: tuple[str, ...]
    numbered: bool
    order: str


@dataclass
class Clause:
    """One clause of a source, as its YAML file gives it, with its translations and formal rules."""

    id: str
    source: str
    paragraph: str
    lang: str
    title: str
    text: str
    kind: str
    corresponds_to: list[str]
    differs: list[dict]
    file: str
    line: int
    translations: dict[str, str] = field(default_factory=dict)
    decides: list = field(default_factory=list)
    examples: list = field(default_factory=list)
    exception_to: list[str] = field(default_factory=list)
    mended: list = field(default_factory=list)
    note: str = ""
    plain_words: list[str] = field(default_factory=list)
    not_formalised: str = ""
    title_translations: dict[str, str] = field(default_factory=dict)  # from headings.yaml

    @property
    def texts(self) -> dict[str, dict]:
        out = {self.lang: {"text": self.text, "official": True}}
        for lang, text in self.translations.items():
            if lang != self.lang:
                out[lang] = {"text": text, "official": False}
        return out

    def title_in(self, lang: str) -> str:
        """The heading in `lang` when the knowledge base has it, else as printed."""
        return self.title if lang == self.lang else self.title_translations.get(lang, self.title)

    def text_in(self, lang: str) -> tuple[str, bool]:
        """The text in `lang` if the knowledge base has it, else the original; and whether it is official."""
        entry = self.texts.get(lang) or self.texts[self.lang]
        return entry["text"], entry["official"]

    def record(self) -> dict:
        """The contract's record format."""
        return {
            "id": self.id, "source": self.source, "paragraph": self.paragraph, "lang": self.lang,
            "kind": self.kind, "title": self.title, "text": self.text, "texts": self.texts,
            "corresponds_to": list(self.corresponds_to), "differs": list(self.differs),
            "titles": {lang: self.title_in(lang) for lang in self.texts},
        }


class Term(NamedTuple):
    """A carrom concept and its words in each language; the first word is the preferred one."""

    id: str
    words: dict[str, tuple[str, ...]]
    defined_in: tuple[str, ...]
    # words that also have an ordinary sense ("partie", "proprio"): a search may use them, but
    # they do not prove the concept is meant
    loose: tuple[str, ...] = ()

    def preferred(self, lang: str) -> str:
        return self.words[lang][0]


@dataclass(eq=False, repr=False)   # compared and printed by nobody: docs/architecture.md, Start-up
class KnowledgeBase:
    """Everything the knowledge folder holds, loaded and checked: sources, clauses, glossary."""

    root: Path
    sources: dict[str, Source]
    clauses: dict[str, Clause]
    languages: tuple[str, ...]
    kinds: tuple[str, ...]
    stamp: str
    glossary: list[Term] = field(default_factory=list)

    def by_source(self, source: str) -> list[Clause]:
        return [c for c in self.clauses.values() if c.source == source]

    def get(self, clause_id: str) -> Clause | None:
        return self.clauses.get(clause_id)

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in self.sources}
        for c in self.clauses.values():
            out[c.source] += 1
        return out


@dataclass
class Ruleset:
    """A playable rule system (knowledge/rulesets/<id>.yaml): its names, sources and raw settings."""

    id: str
    name: dict[str, str]
    sources: list[str]
    extends: str | None = None
    raw: dict = field(default_factory=dict)

    def all_sources(self, rulesets: dict[str, "Ruleset"]) -> list[str]:
        """Its own sources first, then those of the ruleset it extends."""
        out = list(self.sources)
        if self.extends:
            out += [s for s in rulesets[self.extends].all_sources(rulesets) if s not in out]
        return out


def ruleset_name(rulesets: dict[str, Ruleset], ruleset_id: str, lang: str) -> str:
    """The one way a ruleset is named (Knowledge.ruleset_name): in `lang`, else in English, else
    by its id (one no longer known keeps its id: an old record may name it)."""
    rs = rulesets.get(ruleset_id)
    names = rs.name if rs is not None else {}
    return names.get(lang) or names.get("en") or ruleset_id
