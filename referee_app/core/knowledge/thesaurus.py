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
from .loader import Problem
from .yamlio import YamlError, line_of, load_file

FILE = "thesaurus.yaml"
LANGS = LANGUAGES


@dataclass(frozen=True)
class Concept:
    id: str
    words: dict[str, tuple[str, ...]]   # lang -> words, the preferred first
    used_in: tuple[str, ...]            # clauses that use the words (the glossary's defined_in first)
    defined_in: tuple[str, ...]         # the clauses that define it (from the glossary)
    loose: tuple[str, ...] = ()         # words with an everyday sense too: they do not prove the concept
    asked: dict = None                  # lang -> phrases that ask for it, stop words and all (not in the texts)


@dataclass(frozen=True)
class Thesaurus:
    concepts: tuple[Concept, ...]
    definition_questions: dict[str, tuple[str, ...]]   # lang -> phrases that ask what a word means
    symbols: dict[str, str] = None                      # a sign the texts print -> the concept it stands for

    def concept(self, cid: str) -> Concept | None:
        return next((c for c in self.concepts if c.id == cid), None)

    def state(self) -> dict:
        """Plain data (JSON), for the search index to keep beside itself."""
        return {"concepts": [{"id": c.id, "words": {k: list(v) for k, v in c.words.items()},
                              "used_in": list(c.used_in), "defined_in": list(c.defined_in), "loose": list(c.loose),
                              "asked": {k: list(v) for k, v in (c.asked or {}).items()}}
                             for c in self.concepts],
                "definition_questions": {k: list(v) for k, v in self.definition_questions.items()},
                "symbols": {sign: {lang: self.concept(cid).words[lang][0] for lang in LANGS}
                            for sign, cid in (self.symbols or {}).items()}}


def fold(text: str) -> str:
    """Lower case, accents removed."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(ch))


def load(kb) -> tuple[Thesaurus, list[Problem]]:
    """The glossary's terms with the thesaurus's additions, and what is wrong in thesaurus.yaml."""
    problems: list[Problem] = []
    concepts: dict[str, dict] = {}
    for term in kb.glossary:
        concepts[term.id] = {"words": {lang: list(term.words.get(lang, ())) for lang in LANGS},
                             "used_in": list(term.defined_in), "defined_in": list(term.defined_in),
                             "loose": list(term.loose)}
    questions: dict[str, tuple[str, ...]] = {lang: () for lang in LANGS}
    path = kb.root / FILE
    raw = {}
    if not path.is_file():
        problems.append(Problem(FILE, 0, "the thesaurus is missing"))
    else:
        try:
            raw = load_file(path, FILE) or {}
        except YamlError as exc:
            problems.append(Problem(FILE, exc.line, exc.problem))
        if not isinstance(raw, dict):
            problems.append(Problem(FILE, 0, "must be a mapping with `concepts` and `definition_questions`"))
            raw = {}
    seen: set[str] = set()
    entries = raw.get("concepts") or []
    if not isinstance(entries, list):
        problems.append(Problem(FILE, line_of(raw), "concepts: must be a list"))
        entries = []
    for entry in entries:
        line = line_of(entry)
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
            problems.append(Problem(FILE, line, "a concept needs an id"))
            continue
        cid = entry["id"]
        if cid in seen:
            problems.append(Problem(FILE, line, f"concept {cid}: listed twice"))
        seen.add(cid)
        unknown = sorted(set(entry) - {"id", "used_in", "loose", "asked", *LANGS})
        for name in unknown:
            problems.append(Problem(FILE, line, f"concept {cid}: unknown field '{name}'"))
        new = cid not in concepts
        target = concepts.setdefault(cid, {"words": {lang: [] for lang in LANGS}, "used_in": [],
                                           "defined_in": [], "loose": []})
        for lang in LANGS:
            words = entry.get(lang) or []
            if not isinstance(words, list) or not all(isinstance(w, str) and re.search(r"\w", w) for w in words):
                problems.append(Problem(FILE, line, f"concept {cid}.{lang}: must be a list of words"))
                continue
            if new and not words:
                problems.append(Problem(FILE, line, f"concept {cid}: no word in '{lang}' (not a glossary term)"))
            for w in words:
                if fold(w) in (fold(x) for x in target["words"][lang]):
                    problems.append(Problem(FILE, line, f"concept {cid}.{lang}: '{w}' is already one of its words"))
                else:
                    target["words"][lang].append(w)
        used = entry.get("used_in") or []
        if not isinstance(used, list) or not used:
            problems.append(Problem(FILE, line, f"concept {cid}: used_in must cite the clauses that use its words"))
            used = []
        for ref in used:
            clause = kb.clauses.get(ref)
            if clause is None:
                problems.append(Problem(FILE, line, f"concept {cid}: used_in {ref} points nowhere"))
            elif not _uses(clause, target["words"]):
                problems.append(Problem(FILE, line, f"concept {cid}: {ref} uses none of its words"))
            elif ref not in target["used_in"]:
                target["used_in"].append(ref)
        asked = entry.get("asked") or {}
        if not isinstance(asked, dict) or not all(lang in LANGS and isinstance(v, list) and all(isinstance(x, str) for x in v)
                                                  for lang, v in asked.items()):
            problems.append(Problem(FILE, line, f"concept {cid}.asked: must map languages to lists of phrases"))
        else:
            target.setdefault("asked", {}).update(asked)
        for w in entry.get("loose") or []:
            if not any(fold(w) == fold(x) for ws in target["words"].values() for x in ws):
                problems.append(Problem(FILE, line, f"concept {cid}: loose word '{w}' is none of its words"))
            else:
                target["loose"].append(w)
    dq = raw.get("definition_questions") or {}
    for lang in LANGS:
        phrases = dq.get(lang) if isinstance(dq, dict) else None
        if not isinstance(phrases, list) or not phrases or not all(isinstance(p, str) and p.strip() for p in phrases):
            problems.append(Problem(FILE, line_of(dq), f"definition_questions.{lang}: needs a list of phrases"))
            continue
        questions[lang] = tuple(p.strip() for p in phrases)
    symbols = {}
    for sign, cid in (raw.get("symbols") or {}).items():
        if cid not in concepts or not all(concepts[cid]["words"][lang] for lang in LANGS):
            problems.append(Problem(FILE, line_of(raw.get("symbols")), f"symbols: '{sign}' stands for no known concept"))
        else:
            symbols[str(sign)] = cid
    thesaurus = Thesaurus(tuple(Concept(cid, {k: tuple(v) for k, v in c["words"].items()}, tuple(c["used_in"]),
                                        tuple(c["defined_in"]), tuple(c["loose"]),
                                        {k: tuple(v) for k, v in c.get("asked", {}).items()})
                                for cid, c in concepts.items()), questions, symbols)
    return thesaurus, problems


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
