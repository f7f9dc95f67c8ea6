"""The carrom thesaurus: every concept's words in French, Italian and English, as readers type them.

It grows from the glossary (`glossary.yaml`): each glossary term is a concept, with its words and
the clauses that define it; `thesaurus.yaml` adds to a term the words the sources and players
also use (jargon, abbreviations such as `J/C` or `c/m`, plurals, common misspellings), and adds
concepts the glossary has no entry for (`broken`, `height`). Every entry cites clauses that use
its words, and `check-kb` checks that they do. The search uses it at indexing and query time.

It also holds, per language, the phrases that ask for a definition ("qu'est-ce qu'un",
"cos'è", "what is a"), so that the search can put the definition first.

Pure Python: no whoosh here (the search analyses the words; this module only reads and checks).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from referee_app.languages import LANGUAGES
from . import schema_reader
from .files import load_file
from .model import Problem
from .yamlio import YamlError, line_of

FILE = "thesaurus.yaml"
LANGS = LANGUAGES


@dataclass(frozen=True)
class Concept:
    id: str
    words: dict[str, tuple[str, ...]]   # lang -> words, the preferred first
    used_in: tuple[str, ...]            # clauses that use the words (the glossary's defined_in first)
    defined_in: tuple[str, ...]         # the clauses that define it (from the glossary)
    loose: tuple[str, ...] = ()         # words with an everyday sense too: they do not prove the concept
    asked: dict | None = None                 # lang -> phrases that ask for it, stop words and all (not in the texts)


@dataclass(frozen=True)
class Thesaurus:
    concepts: tuple[Concept, ...]
    definition_questions: dict[str, tuple[str, ...]]   # lang -> phrases that ask what a word means
    symbols: dict[str, str] | None = None                     # a sign the texts print -> the concept it stands for

    def concept(self, cid: str) -> Concept | None:
        return next((c for c in self.concepts if c.id == cid), None)

    def _known(self, cid: str) -> Concept:
        """A concept the thesaurus itself names (a symbol's), so known."""
        found = self.concept(cid)
        assert found is not None, cid
        return found

    def state(self) -> dict:
        """Plain data (JSON), for the search index to keep beside itself."""
        return {"concepts": [{"id": c.id, "words": {k: list(v) for k, v in c.words.items()},
                              "used_in": list(c.used_in), "defined_in": list(c.defined_in), "loose": list(c.loose),
                              "asked": {k: list(v) for k, v in (c.asked or {}).items()}}
                             for c in self.concepts],
                "definition_questions": {k: list(v) for k, v in self.definition_questions.items()},
                "symbols": {sign: {lang: self._known(cid).words[lang][0] for lang in LANGS}
                            for sign, cid in (self.symbols or {}).items()}}


def fold(text: str) -> str:
    """Lower case, accents removed."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(ch))


def load(kb) -> tuple[Thesaurus, list[Problem]]:
    """The glossary's terms with the thesaurus's additions, and what is wrong in thesaurus.yaml:
    its shape against referee_app/schemas/knowledge/thesaurus.json (core/knowledge/schema_reader.py),
    then what only the knowledge base can tell (a clause that uses none of the words, a word twice)."""
    problems: list[Problem] = []
    concepts = _glossary_concepts(kb.glossary)
    raw = _read(kb.root / FILE, problems)
    # a file missing or not YAML is said once: nothing is said of its shape
    report = schema_reader.check(raw, "thesaurus", FILE) if raw is not None else schema_reader.Report(FILE)
    problems += report.problems
    raw = raw if isinstance(raw, dict) and not report.refused_itself(raw) else {}
    seen: set[str] = set()
    for entry in _entries(raw, report):
        _add_entry(kb, entry, report, concepts, seen, problems)
    questions = _definition_questions(raw.get("definition_questions"), report)
    symbols = _symbols(_accepted(report, raw.get("symbols"), dict) or {}, concepts, problems)
    thesaurus = Thesaurus(tuple(Concept(cid, {k: tuple(v) for k, v in c["words"].items()}, tuple(c["used_in"]),
                                        tuple(c["defined_in"]), tuple(c["loose"]),
                                        {k: tuple(v) for k, v in c.get("asked", {}).items()})
                                for cid, c in concepts.items()), questions, symbols)
    return thesaurus, problems


def _glossary_concepts(glossary) -> dict[str, dict]:
    """Each glossary term as a concept still open to the thesaurus's additions."""
    return {term.id: {"words": {lang: list(term.words.get(lang, ())) for lang in LANGS},
                      "used_in": list(term.defined_in), "defined_in": list(term.defined_in),
                      "loose": list(term.loose)}
            for term in glossary}


def _read(path, problems: list[Problem]):
    """thesaurus.yaml parsed, or None when it is missing or not YAML (and said so)."""
    if not path.is_file():
        problems.append(Problem(FILE, 0, "the thesaurus is missing"))
        return None
    try:
        return load_file(path, FILE)
    except YamlError as exc:
        problems.append(Problem(FILE, exc.line, exc.problem))
        return None


def _accepted(report, value, kind: type):
    """`value` when it is of `kind` and the schema found nothing wrong in it, else None."""
    return value if isinstance(value, kind) and not report.refused(value) else None


def _entries(raw: dict, report) -> list[dict]:
    """The concepts with a usable id; the schema said what is wrong with the others."""
    entries = raw.get("concepts")
    if not isinstance(entries, list):
        return []
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str) and e["id"]]


def _add_entry(kb, entry: dict, report, concepts: dict[str, dict], seen: set[str], problems: list[Problem]) -> None:
    """One entry of thesaurus.yaml added to its concept (a new one when its id is no glossary term).
    A field the schema refused adds nothing."""
    line = line_of(entry)

    def say(message: str) -> None:
        problems.append(Problem(FILE, line, message))

    cid = entry["id"]
    if cid in seen:
        say(f"concept {cid}: listed twice")
    seen.add(cid)
    new = cid not in concepts
    target = concepts.setdefault(cid, {"words": {lang: [] for lang in LANGS}, "used_in": [],
                                       "defined_in": [], "loose": []})
    for lang in LANGS:
        words = _accepted(report, entry.get(lang, []), list)
        if words is not None:
            _add_words(cid, lang, words, new, target["words"][lang], say)
    used = _accepted(report, entry.get("used_in"), list)
    if used is not None:
        _add_used_in(kb, cid, used, target, say)
    asked = _accepted(report, entry.get("asked", {}), dict)
    if asked is not None:
        target.setdefault("asked", {}).update(asked)
    loose = _accepted(report, entry.get("loose", []), list)
    if loose is not None:
        _add_loose(cid, loose, target, say)


def _add_words(cid: str, lang: str, words: list[str], new: bool, known: list[str], say) -> None:
    if new and not words:
        say(f"concept {cid}: no word in '{lang}' (not a glossary term)")
    for w in words:
        if fold(w) in (fold(x) for x in known):
            say(f"concept {cid}.{lang}: '{w}' is already one of its words")
        else:
            known.append(w)


def _add_used_in(kb, cid: str, used: list[str], target: dict, say) -> None:
    for ref in used:
        clause = kb.clauses.get(ref)
        if clause is None:
            say(f"concept {cid}: used_in {ref} points nowhere")
        elif not _uses(clause, target["words"]):
            say(f"concept {cid}: {ref} uses none of its words")
        elif ref not in target["used_in"]:
            target["used_in"].append(ref)


def _add_loose(cid: str, loose: list[str], target: dict, say) -> None:
    for w in loose:
        if not any(fold(w) == fold(x) for ws in target["words"].values() for x in ws):
            say(f"concept {cid}: loose word '{w}' is none of its words")
        else:
            target["loose"].append(w)


def _definition_questions(dq, report) -> dict[str, tuple[str, ...]]:
    """Each language's phrases; none for a language whose list the schema refused."""
    dq = dq if isinstance(dq, dict) else {}
    return {lang: tuple(p.strip() for p in _accepted(report, dq.get(lang), list) or ()) for lang in LANGS}


def _symbols(signs, concepts: dict[str, dict], problems: list[Problem]) -> dict[str, str]:
    """Each sign's concept; a sign can only stand for a concept with a word in every language."""
    symbols = {}
    for sign, cid in signs.items():
        if cid not in concepts or not all(concepts[cid]["words"][lang] for lang in LANGS):
            problems.append(Problem(FILE, line_of(signs), f"symbols: '{sign}' stands for no known concept"))
        else:
            symbols[str(sign)] = cid
    return symbols


def _uses(clause, words: dict[str, list[str]]) -> bool:
    """Whether a clause's texts hold one of the words: as written, or inflected (the word less its
    last two letters begins a word of the text: `pion` for `pions`, `cassé` for `casser`)."""
    texts = [fold(f"{clause.paragraph} {clause.title_in(lang)} {t['text']}") for lang, t in clause.texts.items()]
    for ws in words.values():
        for w in ws:
            f = fold(w)
            stem = f[:-2] if len(f) > 5 else f
            pattern = re.compile(rf"(?<!\w){re.escape(stem)}" + ("" if stem != f else r"(?!\w)"))
            if any(pattern.search(t) for t in texts):
                return True
    return False


def problems(kb) -> list[Problem]:
    """What is wrong in thesaurus.yaml, for check-kb."""
    return load(kb)[1]
