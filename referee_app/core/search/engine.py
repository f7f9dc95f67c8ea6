"""Full-text search over the whole rulebook, in French, Italian and English, whatever the query's language.

The only module of the project that imports whoosh. One document per clause and per language
text it has (its original, and the project's translations); each language has its own analysed
fields, so a French text is stemmed as French. A query word also searches its glossary
equivalents in the three languages (queen -> reine, regina), and a word the rulebook does not
contain at all is treated as a typo and searched fuzzily.

Ranking (Searcher._rank): exact matches before guessed spellings; then whoosh's BM25F scores,
made comparable across the three languages' fields, weighted by the share of the query a text
holds, favouring the language the query is written in (guessed from its words), and lifted by
the clauses that state the same rule in other sources. Each clause is one hit, through its
best text in the languages allowed.

The index lives in the user cache folder, never in the installed package. `current.json` there
names the index folder in use, the stamp of the knowledge it was built from and a checksum of
each of its files: a stale stamp or a damaged file means a rebuild, never a crash. A build goes
into a temporary folder that is renamed into place before `current.json` is replaced, so a
reader never sees a half-written index.

    from . import engine as search
    search.search("queen cover", lang="fr")   # [{"id", "source", "lang", "title", "snippet", ...}]
"""
from __future__ import annotations

import html
import json
import os
import pickle
import re
import shutil
import struct
import tempfile
import threading
import time
import uuid
import zlib
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from hashlib import sha256
from pathlib import Path

from whoosh import index as whoosh_index
from whoosh.analysis import (CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter,
                             StopFilter)
from whoosh.codec.base import Automata
from whoosh.fields import BOOLEAN, ID, KEYWORD, STORED, TEXT, Schema
from whoosh.lang.stopwords import stoplists
from whoosh.query import Phrase, Term
from whoosh.scoring import bm25
from whoosh.support.charset import accent_map
from whoosh.support.levenshtein import distance

from referee_app.core.errors import BadInput
from referee_app.core.knowledge.citations import Citations

LANGS = ("fr", "it", "en")
# Bump whenever the schema, the analysis or the documents change: an index built by another
# version of this code is then stale even though the knowledge base is the same.
SCHEMA_VERSION = 5
CURRENT = "current.json"
# Matches are wrapped in these in "snippet": readable in a terminal, and the GUI, which wants
# bold, gets "snippet_html" (escaped text, matches in <b></b>) instead of parsing them.
MARK = "**"
SNIPPET_CHARS = 240
# The tokens the analysers see (whoosh's default): words, and numbers like 3.12 kept whole.
TOKEN = re.compile(r"\w+(?:\.?\w+)*")

# Ranking weights, applied to whoosh's BM25F scores: round values, checked against the public
# cases and their translations (tests/test_search_cli.py); each comment says which way it pulls.
FUZZY_BOOST = 0.35        # a guessed spelling weighs less than the word as typed
SYNONYM_FACTOR = 0.6      # a concept's other names weigh less than its usual one (`pion rouge`, `reine`)
SAME_LANG_FACTOR = 2.0    # a text in the query's language reads best
TRANSLATION_FACTOR = 0.9  # the printed text outranks the project's translation of another clause
UNSAYABLE_CREDIT = 0.5    # a concept a text's language has no word for half counts as present
CORRESPONDENCE_SHARE = 0.5  # of the best score among the clauses stating the same rule elsewhere
GRACE_SECONDS = 120  # an index or build folder younger than this may be another process's


# --- Analysis ----------------------------------------------------------------------------------

class _FrenchFoldedEndings(Filter):
    """Puts folded French endings back in the shape the French stemmer expects.

    Folding accents before stemming (so that `penalite` finds `pénalité`) hides two suffixes from
    the Snowball French stemmer: `-ée(s)` stems to `confirme` instead of `confirm` and `-ière(s)`
    to `premier` instead of `premi`. Rewriting them to `-e(s)` and `-ier` makes every form of a
    word meet again, at indexing and querying alike.
    """

    _endings = re.compile(r"(?:ee(s?)|(i)ere(s?))$")

    def __call__(self, tokens):
        for t in tokens:
            t.text = self._endings.sub(lambda m: f"e{m.group(1)}" if m.group(1) is not None else "ier", t.text)
            yield t


# The stop words: Snowball's lists, with what they lack for rule texts (`les` (!), the `shall`
# of every AICF rule) and without the words that carry a rule (`off` the board, as `hors du`
# plateau and `fuori` board do; and `out`, as in playing out of turn).
EXTRA_STOPWORDS = {"fr": {"les", "entre", "si", "cet", "cette", "dont", "lors"}, "it": set(),
                   "en": {"shall", "may", "must"}}
MEANINGFUL = {"fr": set(), "it": set(), "en": {"off", "out"}}
STOPWORDS = {lang: frozenset((set(stoplists[lang]) | EXTRA_STOPWORDS[lang]) - MEANINGFUL[lang]) for lang in LANGS}


def analyzer(lang: str):
    """A new analysis chain for one language: tokens, lower case, stop words, accents folded, stems."""
    stops = StopFilter(stoplist=STOPWORDS[lang])
    chain = RegexTokenizer(TOKEN) | LowercaseFilter() | stops | CharsetFilter(accent_map)
    if lang == "fr":
        chain = chain | _FrenchFoldedEndings()
    return chain | StemFilter(lang=lang)


# The query side's analysers, one per language, used under a lock: whoosh's stemming cache is not
# thread-safe. An index being built uses analysers of its own (see _schema).
_query_analyzers: dict[str, object] = {}
_analysis_lock = threading.Lock()


def analyse(lang: str, text: str) -> tuple[str, ...]:
    """The indexed forms of a text in `lang`, in order."""
    with _analysis_lock:
        if lang not in _query_analyzers:
            _query_analyzers[lang] = analyzer(lang)
        return tuple(t.text for t in _query_analyzers[lang](text))


@lru_cache(maxsize=100_000)
def stem(lang: str, word: str) -> str | None:
    """The indexed form of one token in `lang`, or None when it is a stop word or too short."""
    out = analyse(lang, word)
    return out[0] if len(out) == 1 else None


def fold(word: str) -> str:
    return word.lower().translate(accent_map)


_FOLDED_STOPWORDS = {lang: frozenset(fold(w) for w in STOPWORDS[lang]) for lang in LANGS}


# --- Documents ---------------------------------------------------------------------------------

def _schema() -> Schema:
    fields = dict(
        key=ID(unique=True),                  # clause id and language: one document each
        id=ID(stored=True, sortable=True),    # a column too: the ranking maps documents to clauses
        source=ID(stored=True),
        kind=ID(stored=True),
        lang=ID(stored=True),
        paragraph=ID(stored=True),
        title=ID(stored=True),
        rulesets=KEYWORD(stored=True, commas=True, scorable=False),
        official=BOOLEAN(stored=True),
        body=STORED(),                        # the text itself, for snippets without the YAML
    )
    for lang in LANGS:
        fields[f"text_{lang}"] = TEXT(analyzer=analyzer(lang))
    return Schema(**fields)


def _clause_rulesets(rulesets: dict) -> dict[str, list[str]]:
    """Source id -> the rulesets that apply it (a clause belongs to all of them)."""
    out: dict[str, list[str]] = {}
    for rid, rs in rulesets.items():
        for source in rs.all_sources(rulesets):
            out.setdefault(source, []).append(rid)
    return out


def _documents(kb, rulesets: dict):
    by_source = _clause_rulesets(rulesets)
    for c in kb.clauses.values():
        for lang, entry in c.texts.items():
            if lang not in LANGS:
                continue
            doc = dict(key=f"{c.id}|{lang}", id=c.id, source=c.source, kind=c.kind, lang=lang,
                       paragraph=c.paragraph, title=c.title_in(lang), rulesets=",".join(by_source.get(c.source, [])),
                       official=bool(entry["official"]), body=entry["text"])
            # The heading says what a clause is about (`Pedine fuori board` over rules that say
            # `pedina` and `fuori` but never `board`): each language's text carries its own, and
            # none where the heading has no translation (its words would pass for that language's).
            has_heading = lang == c.lang or lang in c.title_translations
            doc[f"text_{lang}"] = f"{c.title_in(lang)}\n{entry['text']}" if has_heading else entry["text"]
            yield doc


def _glossary_data(kb) -> list[dict]:
    """The glossary as the query side needs it: each word and its stems, per language."""
    out = []
    for term in kb.glossary:
        words = {}
        for lang in LANGS:
            forms = []
            for w in term.words.get(lang, ()):
                stems = analyse(lang, w)
                if stems:
                    forms.append({"word": w, "stems": list(stems)})
            words[lang] = forms
        out.append({"id": term.id, "words": words})
    return out


# --- The cache folder, stamps and building -----------------------------------------------------

def cache_dir() -> Path:
    """Where the index lives: the user cache folder (XDG_CACHE_HOME is honoured)."""
    from platformdirs import user_cache_path

    return user_cache_path("carrom-referee", appauthor=False) / "search"


def _fingerprint(root: Path) -> str:
    """A digest of every knowledge file's bytes: cheap to compute, unlike parsing the YAML."""
    h = sha256()
    for path in sorted(Path(root).rglob("*.yaml")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _quick(fingerprint: str, stamp: str) -> str:
    return sha256(f"{fingerprint}:{stamp}".encode()).hexdigest()[:16]


def _stamp(kb, rulesets: dict) -> str:
    """What the index depends on: this code's schema, the knowledge and which ruleset has which source."""
    spec = {"schema": SCHEMA_VERSION, "kb": kb.stamp, "citations": Citations.from_kb(kb).state(),
            "rulesets": {rid: rs.all_sources(rulesets) for rid, rs in sorted(rulesets.items())}}
    return sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]


def _load(kb):
    """The knowledge base and its rulesets (the installed ones when kb is None)."""
    from referee_app.core.knowledge.loader import default
    from referee_app.core.knowledge.rulesets import default_rulesets, load_rulesets

    if kb is None:
        return default(), default_rulesets()
    return kb, load_rulesets(kb)


def _read_current(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / CURRENT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("dir") if isinstance(data, dict) else None
    # only a folder of ours, beside current.json: a garbled pointer must not lead elsewhere
    return data if isinstance(name, str) and name.startswith("idx-") and Path(name).name == name else None


def _write_current(folder: Path, data: dict) -> None:
    # Written beside, then renamed over: a reader sees the old pointer or the new one, never half.
    tmp = folder / f".{CURRENT}.{uuid.uuid4().hex}"
    tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
    os.replace(tmp, folder / CURRENT)


def _manifest(index_dir: Path) -> dict[str, list[int]]:
    out = {}
    for path in sorted(index_dir.iterdir()):
        if path.is_file() and not path.name.endswith("LOCK"):
            data = path.read_bytes()
            out[path.name] = [len(data), zlib.crc32(data)]
    return out


def _intact(folder: Path, current: dict) -> bool:
    """Whether every file the index was built with is still there, byte for byte."""
    index_dir = folder / current["dir"]
    manifest = current.get("manifest")
    if not isinstance(manifest, dict) or not manifest or not index_dir.is_dir():
        return False
    try:
        for name, (size, crc) in manifest.items():
            data = (index_dir / name).read_bytes()
            if len(data) != size or zlib.crc32(data) != crc:
                return False
    except (OSError, TypeError, ValueError):
        return False
    return True


def _fresh(folder: Path, kb) -> bool:
    """Whether the index in `folder` is intact and built from this knowledge.

    Without a kb given, a digest of the knowledge files vouches for the stamp, so that a fresh
    index is opened without parsing the YAML; only when that digest changed is the knowledge base
    loaded and its stamp compared.
    """
    from referee_app.core.knowledge.loader import knowledge_root

    current = _read_current(folder)
    if current is None or not _intact(folder, current):
        return False
    if kb is None:
        fingerprint = _fingerprint(knowledge_root())
        if current.get("quick") == _quick(fingerprint, str(current.get("stamp"))):
            return True
    if current.get("stamp") != _stamp(*_load(kb)):
        return False
    if kb is None:  # the files changed but not what the index holds: remember, skip the check next time
        _write_current(folder, dict(current, quick=_quick(fingerprint, current["stamp"])))
    return True


def _build(folder: Path, kb) -> dict:
    """Build a new index into a temporary folder, rename it into place and point current.json at it."""
    kb, rulesets = _load(kb)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    try:
        ix = whoosh_index.create_in(str(tmp), _schema())
        writer = ix.writer(limitmb=256)
        count = 0
        for doc in _documents(kb, rulesets):
            writer.add_document(**doc)
            count += 1
        writer.commit()
        ix.close()
        aux = {"glossary": _glossary_data(kb),
               "rulesets": {rid: rs.all_sources(rulesets) for rid, rs in rulesets.items()},
               "sources": list(kb.sources),
               "citations": Citations.from_kb(kb).state(),
               "links": {c.id: list(c.corresponds_to) for c in kb.clauses.values() if c.corresponds_to}}
        (tmp / "aux.json").write_text(json.dumps(aux, ensure_ascii=False), encoding="utf-8")
        manifest = _manifest(tmp)
        final = folder / f"idx-{uuid.uuid4().hex[:12]}"
        os.rename(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    from referee_app.core.knowledge.loader import knowledge_root

    stamp = _stamp(kb, rulesets)
    root = kb.root if kb is not None else knowledge_root()
    current = {"dir": final.name, "stamp": stamp, "quick": _quick(_fingerprint(root), stamp),
               "docs": count, "manifest": manifest, "built": time.time()}
    _write_current(folder, current)
    _remove_old(folder, keep=final.name)
    return current


def _remove_old(folder: Path, keep: str) -> None:
    """Delete earlier indexes and abandoned builds. Recent ones are left alone: another process
    may be building one, or opening the index it has just built (they go at a later build)."""
    now = time.time()
    for path in folder.iterdir():
        if path.name == keep or not path.name.startswith(("idx-", "build-", f".{CURRENT}.")):
            continue
        try:
            if now - path.stat().st_mtime < GRACE_SECONDS:
                continue
        except OSError:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def ensure_index(kb=None, folder: Path | None = None) -> bool:
    """Build the index if it is missing, damaged or stale; True when it was (re)built."""
    folder = Path(folder) if folder else cache_dir()
    if _fresh(folder, kb):
        return False
    _build(folder, kb)
    return True


# --- Queries -----------------------------------------------------------------------------------

@dataclass
class _Concept:
    """One thing the user asked for (a word, or a glossary phrase) and the index terms that carry it.

    `leaves` maps (field, stems) to a weight: one stem is a term, several a phrase. `fuzzy` marks
    a concept found only by guessing a spelling.
    """

    words: str
    fuzzy: bool = False
    leaves: dict = field(default_factory=dict)

    def add(self, lang: str, stems, weight: float = 1.0) -> None:
        stems = tuple(stems)
        if not stems:
            return
        key = (f"text_{lang}", stems)
        self.leaves[key] = max(self.leaves.get(key, 0.0), weight)

    def langs(self) -> set[str]:
        """The languages this concept can be found in."""
        return {fname[-2:] for fname, _ in self.leaves}

    def queries(self):
        """(whoosh query, weight, field, stems) for each leaf."""
        for (fname, stems), weight in self.leaves.items():
            q = Term(fname, stems[0]) if len(stems) == 1 else Phrase(fname, list(stems))
            yield q, weight, fname, stems


def _max_edits(word: str) -> int:
    """How many typing slips a word of this length may carry: short words have too many neighbours."""
    return 0 if len(word) < 5 else 1 if len(word) < 8 else 2


@lru_cache(maxsize=256)
def _typo_automaton(stem_: str, k: int):
    """Whoosh's Levenshtein automaton for a stem (first letter fixed: slips there are rare, and
    it prunes the walk). Building it is most of a fuzzy lookup's cost, and the same stem is
    looked up in each language's field, and again as the user edits the rest of the query."""
    return Automata.levenshtein_dfa(stem_, k, prefix=1)


def _automaton_matches(dfa, terms: list[str]) -> list[str]:
    """The sorted `terms` the automaton accepts: whoosh's Automata.find_matches, over a list."""
    out, i = [], 0
    match = dfa.next_valid_string(terms[0]) if terms else None
    while match is not None:
        i = bisect_left(terms, match, i)
        if i == len(terms):
            break
        term = terms[i]
        if term == match:
            out.append(term)
            term += "\0"  # the next string after it
        match = dfa.next_valid_string(term)
    return out


def _transpositions(word: str) -> set[str]:
    """The word with two neighbouring letters swapped: one slip, but two edits to Levenshtein."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(1, len(word) - 1)} - {word}


class _Glossary:
    """The glossary, indexed for matching query words and phrases in each language."""

    def __init__(self, terms: list[dict]):
        self.terms = terms
        # lang -> first stem -> [(stems, term index)], longest phrase first
        self.starts: dict[str, dict[str, list]] = {lang: {} for lang in LANGS}
        self.stems: dict[str, set[str]] = {lang: set() for lang in LANGS}
        self.single: list[tuple[str, int]] = []  # (folded word, term index), for guessing typos
        for i, term in enumerate(terms):
            for lang in LANGS:
                for form in term["words"].get(lang, []):
                    stems = tuple(form["stems"])
                    self.starts[lang].setdefault(stems[0], []).append((stems, i))
                    self.stems[lang].update(stems)
                    folded = [fold(w) for w in TOKEN.findall(form["word"])]
                    if len(folded) == 1:
                        self.single.append((folded[0], i))
        for table in self.starts.values():
            for entries in table.values():
                entries.sort(key=lambda e: -len(e[0]))

    def match(self, lang: str, stems: list[tuple[int, str]]):
        """Yield (word positions, term indexes) for each glossary entry found in a query's stems.

        The longest entry wins; a word that several terms share (`main`: the hand, the turn)
        stands for all of them.
        """
        i = 0
        while i < len(stems):
            found = [(entry, term) for entry, term in self.starts[lang].get(stems[i][1], [])
                     if tuple(s for _, s in stems[i:i + len(entry)]) == entry]
            if not found:
                i += 1
                continue
            size = len(found[0][0])
            yield [p for p, _ in stems[i:i + size]], sorted({t for e, t in found if len(e) == size})
            i += size

    def near(self, word: str) -> list[int]:
        """Terms with a one-word form within a typo or two of `word` (folded)."""
        k = _max_edits(word)
        if not k:
            return []
        return sorted({i for w, i in self.single
                       if abs(len(w) - len(word)) <= k and w[0] == word[0] and distance(w, word, limit=k) <= k})

    def add_equivalents(self, concept: _Concept, term: int, weight: float = 1.0) -> None:
        for lang in LANGS:
            for rank, form in enumerate(self.terms[term]["words"].get(lang, [])):
                concept.add(lang, form["stems"], weight * (1.0 if rank == 0 else SYNONYM_FACTOR))


@dataclass
class _Candidate:
    """A document's evidence: per concept, its best match (a concept's synonyms do not add up: a
    French text that says `reine` and `pion rouge` is no more about the queen than an English
    one that says `queen`); and which stems matched, for snippets."""

    scores: list
    lang: str
    exact: bool = False
    stems: set = field(default_factory=set)


# --- The searcher ------------------------------------------------------------------------------

class Searcher:
    """Opened once and reused: the index is checked (and built if need be) on first use.

    Safe to call from a worker thread: every search holds the searcher's lock.
    """

    def __init__(self, kb=None, folder: Path | None = None):
        self._kb = kb
        self._folder = Path(folder) if folder else None
        self._lock = threading.RLock()
        self._ix = None
        self._searcher = None
        self.built = False  # whether opening had to build the index

    # Opening and closing

    @property
    def folder(self) -> Path:
        return self._folder or cache_dir()

    def open(self) -> None:
        """Check the index and open it (building it first if it is missing, damaged or stale)."""
        with self._lock:
            if self._searcher is not None:
                return
            folder = self.folder
            fresh = _fresh(folder, self._kb)
            current = _read_current(folder) if fresh else _build(folder, self._kb)
            self.built = self.built or not fresh
            try:
                self._open_dir(folder / current["dir"])
            except Exception:  # damaged in a way the checksums missed, or removed under us: build anew
                self._rebuild()

    def _rebuild(self) -> None:
        self.close()
        current = _build(self.folder, self._kb)
        self.built = True
        self._open_dir(self.folder / current["dir"])

    def _open_dir(self, path: Path) -> None:
        aux = json.loads((path / "aux.json").read_text(encoding="utf-8"))
        ix = whoosh_index.open_dir(str(path))
        self._ix, self._searcher = ix, ix.searcher()
        self._reader = self._searcher.reader()
        self._glossary = _Glossary(aux["glossary"])
        self._filters: dict[tuple[str, object], frozenset] = {}
        self._lexicons: dict[str, list[str]] = {}
        self._field_lengths: dict[str, list[int]] = {}
        self.rulesets: dict[str, list[str]] = aux["rulesets"]
        self.sources: list[str] = aux["sources"]
        self._translations = self._docs("official", False)
        self._ids = list(self._reader.column_reader("id"))  # document number -> clause id
        self._links: dict[str, list[str]] = aux["links"]
        self._citations = Citations(aux["citations"])
        self._docs_of: dict[str, list[int]] = {}  # clause id -> its documents
        for doc, cid in enumerate(self._ids):
            self._docs_of.setdefault(cid, []).append(doc)

    def close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
                self._ix.close()
            self._searcher = self._ix = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # Searching

    def search(self, query: str, lang: str | None = None, ruleset: str | None = None,
               source: str | None = None, limit: int = 10) -> list[dict]:
        """The clauses best matching `query`, best first, one hit per clause (its best-matching text).

        `lang` keeps only texts in that language; `ruleset` and `source` keep only their clauses.
        Each hit: id, source, lang, title, paragraph, kind, official (false for a project
        translation), rulesets, snippet (matches in **), snippet_html (escaped, matches in <b>),
        score, and match ("exact", or "fuzzy" when found only through a guessed spelling).
        """
        with self._lock:
            self.open()
            self._check_filters(lang, ruleset, source, limit)
            try:
                return self._search(query or "", lang, ruleset, source, limit)
            except (OSError, EOFError, ValueError, KeyError, IndexError, zlib.error, struct.error,
                    pickle.UnpicklingError):
                # what reading changed or damaged index files raises: build anew and try once more
                # (an error that is not the index's shows again, from the fresh one)
                self._rebuild()
                return self._search(query or "", lang, ruleset, source, limit)

    def _check_filters(self, lang, ruleset, source, limit) -> None:
        if lang is not None and lang not in LANGS:
            raise BadInput("lang", f"unknown language '{lang}' (known: {', '.join(LANGS)})")
        if ruleset is not None and ruleset not in self.rulesets:
            raise BadInput("ruleset", f"unknown ruleset '{ruleset}' (known: {', '.join(self.rulesets)})")
        if source is not None and source not in self.sources:
            raise BadInput("source", f"unknown source '{source}' (known: {', '.join(self.sources)})")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise BadInput("limit", f"must be a whole number of at least 1, not {limit!r}")

    def _search(self, query, lang, ruleset, source, limit) -> list[dict]:
        allowed = self._allowed(lang, ruleset, source)
        cited = self._citations.parse(query)
        if cited:  # "ICF 3.12 e", "regola 53": the clause itself, nothing else
            return self._cited(cited, allowed, limit, 0.0)
        # a citation inside a longer query comes first, and the rest is searched as words
        found = self._citations.find(query)
        rest, pos = [], 0
        for c in found:
            rest.append(query[pos:c.start])
            pos = c.end
        rest.append(query[pos:])
        hits = self._words_search(" ".join(rest), allowed, limit)
        if not found:
            return hits
        ids = [cid for c in found for cid in c.ids]
        top = hits[0]["score"] if hits else 0.0
        first = self._cited(ids, allowed, limit, top)
        shown = {h["id"] for h in first}
        return (first + [h for h in hits if h["id"] not in shown])[:limit]

    def _words_search(self, query, allowed, limit) -> list[dict]:
        words = TOKEN.findall(query.lower())
        if not words:
            return []
        detected = self._detect(words)
        concepts = self._concepts(words, detected)
        if not concepts:
            return []
        candidates = self._collect(concepts)
        return self._rank(candidates, concepts, detected, allowed, limit)

    def _cited(self, ids: list[str], allowed, limit: int, above: float) -> list[dict]:
        """Hits for cited clauses, in the order cited, through the official text unless a filter
        keeps only a translation; scored above `above` so that they stay first."""
        out = []
        for cid in dict.fromkeys(ids):
            docs = [d for d in self._docs_of.get(cid, ()) if allowed is None or d in allowed]
            if not docs:
                continue
            doc = min(docs, key=lambda d: d in self._translations)
            fields = self._searcher.stored_fields(doc)
            out.append((doc, fields))
            if len(out) == limit:
                break
        return [dict(_record(fields, _Candidate([], fields["lang"], exact=True), above + len(out) - i),
                     match="citation") for i, (doc, fields) in enumerate(out)]

    def _docs(self, fieldname: str, value) -> frozenset:
        """The documents holding one value of a filter field (the index does not change while open)."""
        key = (fieldname, value)
        if key not in self._filters:
            self._filters[key] = frozenset(self._searcher.docs_for_query(Term(fieldname, value)))
        return self._filters[key]

    def _allowed(self, lang, ruleset, source) -> frozenset | None:
        sets = [self._docs(name, value) for name, value in
                (("lang", lang), ("rulesets", ruleset), ("source", source)) if value]
        return frozenset.intersection(*sets) if sets else None

    def _detect(self, words: list[str]) -> str | None:
        """The query's language, or None if unsure.

        Each word votes for the languages it belongs to (a stop word, a glossary word or a word
        of the texts in that language), its vote split between them: `board` is French,
        Italian and English alike and says nothing, `tra` says Italian.
        """
        votes = dict.fromkeys(LANGS, 0.0)
        for word in words:
            langs = [lang for lang in LANGS if self._belongs(word, lang)]
            for lang in langs:
                votes[lang] += 1 / len(langs)
        best = max(votes.values())
        winners = [lang for lang, v in votes.items() if v == best]
        return winners[0] if best > 0 and len(winners) == 1 else None

    def _belongs(self, word: str, lang: str) -> bool:
        if fold(word) in _FOLDED_STOPWORDS[lang]:
            return True
        s = stem(lang, word)
        return bool(s) and (s in self._glossary.stems[lang] or self._in_index(lang, s))

    def _concepts(self, words: list[str], detected: str | None) -> list[_Concept]:
        """Group the query's words into concepts: glossary phrases first, then each remaining word."""
        order = ([detected] if detected else []) + [lang for lang in LANGS if lang != detected]
        covered: set[int] = set()
        concepts = []
        for lang in order:  # the query's own language gets the first say on what a word means
            stems = [(i, s) for i, w in enumerate(words) if i not in covered and (s := stem(lang, w))]
            for positions, terms in self._glossary.match(lang, stems):
                covered.update(positions)
                concept = _Concept(" ".join(words[p] for p in positions))
                for term in terms:
                    self._glossary.add_equivalents(concept, term)
                self._add_as_typed(concept, [words[p] for p in positions])
                concepts.append(concept)
        for i, word in enumerate(words):
            if i in covered or (detected and fold(word) in _FOLDED_STOPWORDS[detected]):
                continue
            concept = self._word_concept(word)
            if concept.leaves:
                concepts.append(concept)
        return concepts

    def _add_as_typed(self, concept: _Concept, words: list[str]) -> None:
        """The words as typed, in every language whose texts have them: a French translation
        says `sets` though the glossary's French for a set is `game` or `partie`."""
        for lang in LANGS:
            stems = [s for s in (stem(lang, w) for w in words) if s]
            if stems and all(self._in_index(lang, s) for s in stems):
                concept.add(lang, stems)

    def _in_index(self, lang: str, s: str) -> bool:
        return bool(self._reader.doc_frequency(f"text_{lang}", s))

    def _word_concept(self, word: str) -> _Concept:
        """A word the glossary does not know: itself in every language where the rulebook has it;
        if it has it nowhere, a typo: the words within a slip or two of it, and their equivalents."""
        concept = _Concept(word)
        self._add_as_typed(concept, [word])
        if concept.leaves:
            return concept
        concept.fuzzy = True
        k = _max_edits(fold(word))  # the word as typed: its stem may be shorter than the slip
        for lang in LANGS:
            s = stem(lang, word)
            if k and s:
                for near in self._near_terms(f"text_{lang}", s, k):
                    concept.add(lang, [near], FUZZY_BOOST)
        for term in self._glossary.near(fold(word)):
            self._glossary.add_equivalents(concept, term, FUZZY_BOOST)
        return concept

    def _near_terms(self, fname: str, s: str, k: int) -> set[str]:
        """The terms of a field within k slips of a stem."""
        near = set(_automaton_matches(_typo_automaton(s, k), self._lexicon(fname)))
        near.update(t for t in _transpositions(s) if self._reader.doc_frequency(fname, t))
        return near

    def _lexicon(self, fname: str) -> list[str]:
        """A field's terms, sorted, read once: a few thousand words, and walking them in memory is
        several times faster than seeking in the on-disk term table for every automaton step."""
        if fname not in self._lexicons:
            self._lexicons[fname] = [t.decode("utf-8") for t in self._reader.lexicon(fname)]
        return self._lexicons[fname]

    def _collect(self, concepts: list[_Concept]) -> dict[int, _Candidate]:
        """Score every document any concept reaches, reading each index term's postings once.

        Whoosh's BM25F scores each term, from whoosh's own statistics; combining them is ours.
        Walking the postings directly costs a few microseconds a document, where whoosh's tree
        of union matchers over the dozens of terms a cross-lingual query expands to costs tens;
        and the ranking needs per-concept evidence that a matcher tree does not report.
        """
        out: dict[int, _Candidate] = {}
        n = len(concepts)
        for ci, concept in enumerate(concepts):
            for query, weight, fname, stems in concept.queries():
                lang = fname[-2:]
                for doc, score in self._scores(query, fname, stems):
                    cand = out.get(doc)
                    if cand is None:
                        cand = out[doc] = _Candidate([0.0] * n, lang)
                    if weight * score > cand.scores[ci]:
                        cand.scores[ci] = weight * score
                    cand.exact = cand.exact or not concept.fuzzy
                    cand.stems.update(stems)
        return out

    def _scores(self, query, fname: str, stems: tuple[str, ...]):
        """(document, BM25F score) for each document a term or phrase is in."""
        if len(stems) > 1:
            m = query.matcher(self._searcher)
            while m.is_active():
                yield m.id(), m.score() / len(stems)  # whoosh scores a phrase as the sum of its words
                m.next()
            return
        if not self._reader.doc_frequency(fname, stems[0]):
            return
        # whoosh's BM25F formula and statistics, without its per-posting chain of calls
        idf = self._searcher.idf(fname, stems[0])
        avgfl = self._searcher.avg_field_length(fname) or 1
        k1, b = self._searcher.weighting.K1, self._searcher.weighting.B
        lengths = self._lengths(fname)
        m = self._reader.postings(fname, stems[0])
        while m.is_active():
            doc = m.id()
            yield doc, bm25(idf, m.weight(), lengths[doc], avgfl, b, k1)
            m.next()

    def _lengths(self, fname: str) -> list[int]:
        """Each document's length in a field (as whoosh stores it), read once per field."""
        if fname not in self._field_lengths:
            length = self._reader.doc_field_length
            self._field_lengths[fname] = [length(d, fname, 0) or 0 for d in range(self._reader.doc_count_all())]
        return self._field_lengths[fname]

    @staticmethod
    def _calibration(rows: dict[int, tuple[str, list[float]]], n: int) -> dict[str, list[float]]:
        """Per language and concept, the factor that brings that language's best score for the
        concept up to the best score in any language.

        Each language is its own field, with its own lengths and word frequencies: the dozens of
        three-line French clauses outscore the long AICF rules for any word. Scaled so, a
        language's texts compete with the others' on how well they match among their own.
        """
        best = {lang: [0.0] * n for lang in LANGS}
        for lang, scores in rows.values():
            row = best[lang]
            for i, x in enumerate(scores):
                if x > row[i]:
                    row[i] = x
        top = [max(best[lang][i] for lang in LANGS) for i in range(n)]
        return {lang: [top[i] / row[i] if row[i] else 1.0 for i in range(n)]
                for lang, row in best.items()}

    def _doc_score(self, doc: int, lang: str, scores: list[float], unsayable: int, detected: str | None,
                   factors) -> float:
        """A document's score: its concepts' sum, scaled by the share of the query it holds and by
        its language (the query's own first, the printed text before a project translation).

        A concept that cannot be said in the document's language (a word neither the glossary
        nor the texts of that language know, `temps` for an English text) counts half: the
        document may or may not speak of it.
        """
        scores = [x * f for x, f in zip(scores, factors[lang])]
        coverage = (sum(1 for x in scores if x > 0) + UNSAYABLE_CREDIT * unsayable) / len(scores)
        score = sum(scores) * coverage
        if lang == detected:
            score *= SAME_LANG_FACTOR
        if doc in self._translations:
            score *= TRANSLATION_FACTOR
        return score

    def _rank(self, candidates: dict[int, _Candidate], concepts, detected, allowed, limit: int) -> list[dict]:
        """Each clause once, through its best allowed text; exact matches before fuzzy ones; and a
        clause gains a share of the best score among the clauses that state the same rule in
        other sources, which carries a query across languages where the glossary has no word
        (`jetons hors du plateau` finds the Italian `Pedine fuori board` through icf-fr 3.9 a)."""
        own: dict[str, float] = {}          # clause -> best score of any of its texts, filters aside
        shown: dict[str, tuple] = {}        # clause -> (exact, score, doc) of its best allowed text
        rows = {doc: (cand.lang, cand.scores) for doc, cand in candidates.items()}
        factors = self._calibration(rows, len(concepts))
        unsayable = {lang: sum(1 for c in concepts if lang not in c.langs()) for lang in LANGS}
        for doc, cand in candidates.items():
            cid = self._ids[doc]
            score = self._doc_score(doc, cand.lang, rows[doc][1], unsayable[cand.lang], detected, factors)
            own[cid] = max(own.get(cid, 0.0), score)
            if allowed is not None and doc not in allowed:
                continue
            if cid not in shown or (cand.exact, score) > shown[cid][:2]:
                shown[cid] = (cand.exact, score, doc)
        ranked = []
        for cid, (exact, score, doc) in shown.items():
            related = max((own.get(other, 0.0) for other in self._links.get(cid, ())), default=0.0)
            ranked.append((not exact, -(score + CORRESPONDENCE_SHARE * related), doc))
        ranked.sort()
        return [_record(self._searcher.stored_fields(doc), candidates[doc], -neg)
                for _, neg, doc in ranked[:limit]]


def _record(fields: dict, cand: _Candidate, score: float) -> dict:
    plain, marked = snippet(fields["body"], fields["lang"], cand.stems)
    return {"id": fields["id"], "source": fields["source"], "lang": fields["lang"], "title": fields["title"],
            "paragraph": fields["paragraph"], "kind": fields["kind"], "official": fields["official"],
            "rulesets": [r for r in fields["rulesets"].split(",") if r],
            "snippet": plain, "snippet_html": marked, "score": round(score, 4),
            "match": "exact" if cand.exact else "fuzzy"}


# --- Snippets ----------------------------------------------------------------------------------

def snippet(text: str, lang: str, stems: set[str], width: int = SNIPPET_CHARS) -> tuple[str, str]:
    """The passage of `text` richest in matches, as plain text with matches in ** and as HTML in <b>.

    Matching re-analyses each word of the text exactly as the index did, so `pénalités` lights
    up for a query `penalite`. Not whoosh's highlighter: that one runs the whole analysis chain
    over every hit's text and lights the terms matched by any hit; this one looks each word up
    in the stem cache (the same words recur from clause to clause) and lights this text's own.
    """
    spans = [(m.start(), m.end()) for m in TOKEN.finditer(text) if stem(lang, m.group()) in stems]
    start, end = _window(text, spans, width)
    spans = [(a, b) for a, b in spans if a >= start and b <= end]
    head = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    plain, marked, pos = [head], [head], start
    for a, b in spans:
        plain += [text[pos:a], MARK, text[a:b], MARK]
        marked += [html.escape(text[pos:a]), "<b>", html.escape(text[a:b]), "</b>"]
        pos = b
    plain += [text[pos:end], tail]
    marked += [html.escape(text[pos:end]), tail]
    return "".join(plain), "".join(marked)


def _window(text: str, spans: list[tuple[int, int]], width: int) -> tuple[int, int]:
    """Start and end of the `width` characters holding the most matches (a little context before
    the first of them), cut at word boundaries."""
    if len(text) <= width:
        return 0, len(text)
    lead = width // 5
    start, first, best = 0, 0, -1
    for a, _ in spans:
        s = max(0, a - lead)
        count = sum(1 for x, y in spans if x >= s and y <= s + width)
        if count > best:
            start, first, best = s, a, count
    if start > 0:
        space = text.find(" ", start, first)
        start = space + 1 if space >= 0 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    return start, end


# --- The module-level API ----------------------------------------------------------------------

_shared: Searcher | None = None
_shared_lock = threading.Lock()


def searcher() -> Searcher:
    """The process's searcher over the installed knowledge base, opened on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Searcher()
        return _shared


def search(query: str, lang: str | None = None, ruleset: str | None = None, source: str | None = None,
           limit: int = 10) -> list[dict]:
    """Search the installed rulebook with the process's shared searcher; see Searcher.search."""
    return searcher().search(query, lang=lang, ruleset=ruleset, source=source, limit=limit)
