"""Query understanding: what a typed query asks for.

In order: a citation (`ICF 3.12 e`, `regola 53`) names clauses outright; numbers with units
(`74 cm`, `5,5 g`) ask for the measurements that hold them; a leading "what is" / "qu'est-ce
qu'un" / "cos'è" asks for a definition; the remaining words are read by every language's
analyser at once (no guessing which language a short query is in) and grouped into concepts:
thesaurus phrases first (`J/C`, `carrom men`, `pion de pénalité`), then each other word as typed
in every language whose texts have it. Only a word no language knows, neither its texts nor the
thesaurus, is taken for a typo and looked up within a slip or two; a word that still matches
nothing is reported back (`unmatched`), never silently dropped.
"""
from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from . import numbers, senses
from .analysis import LANGS, analyse_all, fold, is_stopword, stem, tokens, word_key
from .backend import levenshtein_dfa
from .terms import LOOSE_FACTOR, PHRASE_SLOP, Terms, max_edits

FUZZY_BOOST = 0.35        # a guessed spelling weighs less than the word as typed
EQUIVALENT_FACTOR = 0.8   # a concept's words in the other languages weigh a little less than the typed word
MAX_WORDS = 32            # the rest of a longer query is ignored: nobody types more to find a rule
MAX_FUZZY_CHARS = 24      # longer "words" are not typos of a rulebook word (and would cost seconds)
MAX_QUERY_CHARS = 1000
OWN_COUNT = 3             # times a language's texts say a word for it to be that language's own


@dataclass
class Concept:
    """One thing the user asked for (a word, a thesaurus phrase, a measurement) and what carries it.

    `leaves` maps (field, stems) to a weight: one stem is a term, several a phrase; `typed` the
    languages the words as typed belong to (a text in one of them reads best: this, not a guess,
    is how `reine` prefers French texts). `fuzzy` marks a concept found only by guessing a
    spelling; `quantity` a measurement asked for.
    """

    words: str
    fuzzy: bool = False
    leaves: dict = field(default_factory=dict)
    typed: set = field(default_factory=set)       # languages
    quantity: numbers.Quantity | None = None
    dimension: str | None = None   # a unit named alone (`grammi`): the measurements in that unit
    concepts: tuple = ()      # thesaurus concept indexes
    positions: tuple = ()     # the query words it stands for
    sense: str | None = None  # a word of two senses read in one (senses.py): the kind of text it fits
    ambiguous: frozenset = frozenset()   # its leaves that say the word of two senses itself

    def add(self, lang: str, stems, weight: float = 1.0, typed: bool = False) -> None:
        stems = tuple(stems)
        if not stems:
            return
        key = (f"text_{lang}", stems)
        self.leaves[key] = max(self.leaves.get(key, 0.0), weight)
        if typed:
            self.typed.add(lang)

    def langs(self) -> set[str]:
        """The languages this concept can be found in."""
        if self.quantity is not None or self.dimension is not None:
            return set(LANGS)
        return {fname[-2:] for fname, _ in self.leaves}


@dataclass
class Query:
    text: str
    cited: list[str] = field(default_factory=list)        # clause ids a citation names
    whole_citation: bool = False                          # the query is nothing but citations
    concepts: list[Concept] = field(default_factory=list)
    definition: bool = False                              # "what is a due"
    defined: list[str] = field(default_factory=list)      # clauses defining the concepts asked about
    unmatched: list[str] = field(default_factory=list)    # words that match nothing anywhere
    words: list[str] = field(default_factory=list)        # the words read, in order (typos read as guessed)
    keys: dict = field(default_factory=dict)              # lang -> per word, its forms (Understanding._keys)
    asks: str | None = None                               # "duration" or "count": a number is asked for
    counts: list[int] = field(default_factory=list)       # whole numbers typed with no unit (`45 joueurs`)


class Understanding:
    """Reads queries against one open index, its thesaurus and its citation grammar."""

    def __init__(self, index, terms: Terms, citations, questions: dict[str, tuple[str, ...]],
                 source_of: Callable[[int], str | None], lexicons: dict[str, dict[str, int]] | None = None):
        self._index = index
        self._lexicons = lexicons or {}   # lang -> folded word -> how often its texts say it (language.lexicon)
        self._terms = terms
        self._citations = citations
        self._source_of = source_of   # document -> its source, if it is an official text
        self._usual: dict[int, frozenset] = {}
        self._concept_index = {c["id"]: i for i, c in enumerate(terms.concepts)}
        # "qu'est-ce qu'un …", "what does … mean": (prefix words, suffix words), longest first
        forms = []
        for phrases in questions.values():
            for p in phrases:
                head, _, tail = p.partition("…")
                forms.append((tokens(fold(head)), tokens(fold(tail))))
        self._questions = sorted(forms, key=lambda f: -len(f[0]) - len(f[1]))

    def read(self, text: str, written: str | None = None) -> Query:
        """What `text` asks; `written`: the language it is written in, when its words say it."""
        text = (text or "")[:MAX_QUERY_CHARS]
        q = Query(text)
        cited = self._citations.parse(text)
        if cited:
            q.cited, q.whole_citation = cited, True
            return q
        rest = text
        for c in reversed(self._citations.find(text)):
            q.cited[:0] = list(c.ids)
            rest = rest[:c.start] + " " + rest[c.end:]
        for m in reversed(numbers.in_query(rest)):
            q.concepts.append(Concept(rest[m.start:m.end], quantity=m))
            rest = rest[:m.start] + " " + rest[m.end:]
        typed = tokens(rest)[:MAX_WORDS]
        q.asks, interrogative = numbers.asked([fold(w) for w in typed])
        interrogative |= _frames([fold(w) for w in typed])
        words = []
        for i, w in enumerate(typed):
            if i in interrogative and len(interrogative) < len(typed):
                continue
            unit = numbers.UNITS.get(w) if w in numbers.DIMENSION_WORDS else None
            if unit is None:
                words.append(w)
            elif not any(c.dimension == unit[0] for c in q.concepts):
                q.concepts.append(Concept(w, dimension=unit[0]))
        words, q.definition = self._strip_question(words)
        q.counts = [int(w) for w in words if w.isdigit() and len(w) < 7]
        self._word_concepts(q, words, written)
        _quieten_scene(q.concepts, _scene([fold(w) for w in words]), len(words))
        # what defines the term asked about: the first concept named ("coprire la regina" asks
        # what covering is, not what the queen is); for terms joined by `and`, `or`, `vs` ("la
        # différence entre game et match", "multa e penalità"), each of them
        named = [c for c in q.concepts if c.concepts and c.quantity is None and c.dimension is None]
        if named:
            asked = named if q.definition and _joined(named, words) else named[:1]
            q.defined = list(dict.fromkeys(d for c in asked for i in c.concepts
                                           for d in self._terms.concepts[i]["defined_in"]))
        return q

    def _strip_question(self, words: list[str]) -> tuple[list[str], bool]:
        folded = [fold(w) for w in words]
        for head, tail in self._questions:
            if folded[:len(head)] == head and (not tail or folded[len(folded) - len(tail):] == tail) \
                    and len(folded) > len(head) + len(tail):
                return words[len(head):len(words) - len(tail)], True
        return words, False

    def _word_concepts(self, q: Query, words: list[str], written: str | None = None) -> None:
        """Thesaurus phrases found by any language's analyser, then each other word."""
        guessed = self._guess_typos(words)
        covered: set[int] = set()
        for positions, concept_ids, langs in self._thesaurus_groups(words):
            if written and written not in langs and self._own(written, [words[p] for p in positions]):
                # a word of the query's language that another language's thesaurus reads (the
                # Italian `due`, two, is the English `due`, a coin owed): read as typed, below
                continue
            covered.update(positions)
            concept_ids = self._terms.written([words[p] for p in positions], concept_ids)
            sense = self._sense(words, positions, guessed, q.asks == "count")
            if sense is not None:
                concept_ids = [self._concept_index[sense]]
            fuzzy = not guessed.isdisjoint(positions)
            concept = Concept(" ".join(words[p] for p in positions), concepts=tuple(concept_ids), fuzzy=fuzzy,
                              positions=tuple(positions))
            for cid in concept_ids:
                factor = LOOSE_FACTOR if len(concept_ids) > 1 and \
                    self._loosely(cid, [words[p] for p in positions], langs) else 1.0
                for lang, stems, weight in self._terms.leaves(cid, factor * (FUZZY_BOOST if fuzzy else EQUIVALENT_FACTOR),
                                                              self._usual_words(cid)):
                    concept.add(lang, stems, weight)
            if not fuzzy:
                concept.typed.update(langs)
                own = set(concept.leaves)
                self._add_as_typed(concept, [words[p] for p in positions])
                if sense is not None and sense not in senses.FITS:
                    # the word as typed says the other sense too (`casse`, read as broken, is
                    # also the break's word): only the chosen concept's own words count in full
                    for key in set(concept.leaves) - own:
                        concept.leaves[key] *= senses.OFF_SENSE_FACTOR
            if sense in senses.FITS:
                concept.sense = senses.FITS[sense]
                said = {(f"text_{lang}", (s,)) for lang in LANGS if (s := stem(lang, words[positions[0]]))}
                concept.ambiguous = frozenset(said & concept.leaves.keys())
            elif sense is None and len(positions) > 1 and not fuzzy:
                self._sense_in_phrase(concept, [words[p] for p in positions])
            q.concepts.append(concept)
        for i, word in enumerate(words):
            if i in covered or is_stopword(word):
                continue
            concept = self._word_concept(word, written)
            concept.positions = (i,)
            if concept.leaves:
                q.concepts.append(concept)
            elif not word.isdigit():
                q.unmatched.append(word)
        q.words = list(words)
        self._drop_overlaps(q.concepts, words)
        q.keys = {lang: self._keys(lang, words, q.concepts) for lang in LANGS}

    def _sense_in_phrase(self, concept: Concept, words: list[str]) -> None:
        """A phrase that names one sense of a word of two (`tours du tournoi`, `turni del torneo`):
        the texts say the word alone (`premier tour`), so the word counts alone too, as it does
        typed alone in that sense, for less where a text of the other kind says it."""
        ids = {self._terms.concepts[i]["id"] for i in concept.concepts}
        for word in words:
            meant = [name for name in senses.SENSES.get(fold(word), {}) if name in ids and name in senses.FITS]
            if len(meant) != 1:
                continue
            said = {(f"text_{lang}", (s,)) for lang in LANGS if (s := stem(lang, word)) and self._in_index(lang, s)}
            for key in said:
                concept.leaves[key] = max(concept.leaves.get(key, 0.0), EQUIVALENT_FACTOR)
            concept.sense = senses.FITS[meant[0]]
            concept.ambiguous = frozenset(said)
            return

    def _sense(self, words: list[str], positions: list[int], guessed: set[int], counted: bool) -> str | None:
        """The sense a lone word of two senses is typed in, when its neighbours say it and the
        thesaurus has the concept that sense names."""
        if len(positions) != 1 or positions[0] in guessed:
            return None
        found = senses.sense(words, positions[0], counted)
        return found if found in self._concept_index else None

    def _usual_words(self, cid: int) -> frozenset:
        """(lang, stems) of the words each source's official texts use most for a concept: the
        thesaurus lists one usual word first (`dernier jeton`), but the ICF's French says
        `dernier J/C` and the simplified rules `dernier pion`, and a query in other words must not
        find their clauses behind the project's translations, which say `jeton`. A word with an
        everyday sense as well (`loose`) is nobody's usual word for the concept."""
        found = self._usual.get(cid)
        if found is None:
            usual: set[tuple[str, tuple]] = set()
            for lang in LANGS:
                fname = f"text_{lang}"
                counts: dict[str, dict[tuple, int]] = {}   # source -> form -> official texts saying it
                for form in self._terms.concepts[cid]["words"].get(lang, ()):
                    stems = tuple(form["stems"])
                    if self._terms.is_loose(cid, lang, stems):
                        continue   # `applicable` is no source's word for software
                    for doc in self._docs_saying(fname, stems):
                        source = self._source_of(doc)
                        if source is not None:
                            per_form = counts.setdefault(source, {})
                            per_form[stems] = per_form.get(stems, 0) + 1
                for per_form in counts.values():
                    most = max(per_form.values())
                    usual.update((lang, stems) for stems, n in per_form.items() if n == most)
            found = self._usual[cid] = frozenset(usual)
        return found

    def _docs_saying(self, fname: str, stems: tuple[str, ...]):
        if len(stems) == 1:
            return self._index.term_scores(fname, stems[0]).keys()
        return self._index.phrase_docs(fname, stems, PHRASE_SLOP)

    @staticmethod
    def _drop_overlaps(concepts: list[Concept], words: list[str]) -> None:
        """A concept's phrase that says a word the query typed for another concept is left out:
        `jouer avec les deux mains` asks about playing and hands, and the turn (`main` in jargon)
        must not count `jouer` again through `tour de jouer`."""
        for concept in concepts:
            if not concept.concepts:
                continue
            typed = {(lang, stem(lang, words[p])) for other in concepts if other is not concept
                     for p in other.positions for lang in LANGS}
            for fname, stems in [k for k in concept.leaves if len(k[1]) > 1]:
                if any((fname[-2:], s) in typed for s in stems):
                    del concept.leaves[(fname, stems)]

    def _keys(self, lang: str, words: list[str], concepts: list[Concept]) -> list[tuple[frozenset, bool]]:
        """Per query word, the forms a text in `lang` may say it in (its stem, a stop word as
        written, and the thesaurus's other words for the concept it stands for), and whether it
        is a stop word: what `Ranker` looks for side by side."""
        out = []
        for i, w in enumerate(words):
            s = stem(lang, w)
            keys = {s if s else word_key(w)}
            for concept in concepts:
                if i in concept.positions:
                    at = concept.positions.index(i)
                    keys.update(stems[at] for (fname, stems) in concept.leaves
                                if fname[-2:] == lang and len(stems) == len(concept.positions))
            out.append((frozenset(keys), s is None))
        return out

    def _loosely(self, cid: int, words: list[str], langs: set[str]) -> bool:
        """Whether the words name the concept only through a word with an everyday sense too: where
        that word also names another concept (`main`: the hand; the turn, in jargon), the
        concept it names loosely weighs less."""
        return all(self._terms.is_loose(cid, lang, tuple(stem(lang, w) or w for w in words)) for lang in langs)

    def _guess_typos(self, words: list[str]) -> set[int]:
        """A word no language knows, a slip away from one thesaurus word, is read as that word
        (`penallty coin` is a penalty coin), and what it finds counts as a guess: its positions."""
        guessed = set()
        for i, w in enumerate(words):
            if len(w) <= MAX_FUZZY_CHARS and w.isalpha() and not is_stopword(w) and not self._known(w):
                near = self._terms.nearest(fold(w))
                if near:
                    words[i] = near
                    guessed.add(i)
        return guessed

    def _thesaurus_groups(self, words: list[str]) -> list[tuple[list[int], list[int], set[str]]]:
        """(word positions, concept indexes, languages) of the thesaurus entries found in the words
        by any language's analyser, the longest first where they overlap, in the order typed."""
        found: dict[tuple, tuple[set, set]] = {}
        for lang in LANGS:
            every = [(i, s[0]) for i, w in enumerate(words) if len(s := analyse_all(lang, w)) == 1]
            stems = [(i, st) for i, w in enumerate(words) if not is_stopword(w) and (st := stem(lang, w))]
            for table, asked in ((every, True), (stems, False)):
                for positions, concept_ids in self._terms.match(lang, table, asked=asked):
                    concepts, langs = found.setdefault(tuple(positions), (set(), set()))
                    concepts.update(concept_ids)
                    langs.add(lang)
        covered: set[int] = set()
        groups = []
        for positions in sorted(found, key=lambda p: (-len(p), p[0])):
            if covered.isdisjoint(positions):
                covered.update(positions)
                groups.append((list(positions), sorted(found[positions][0]), found[positions][1]))
        return sorted(groups)

    def _own(self, lang: str, words: list[str]) -> bool:
        """Whether each word, as written, is one the texts of `lang` say often enough to be its own."""
        lexicon = self._lexicons.get(lang, {})
        return all(lexicon.get(fold(w), 0) >= OWN_COUNT for w in words)

    def _add_as_typed(self, concept: Concept, words: list[str], written: str | None = None) -> None:
        """The words as typed, in every language whose texts have them; not, for a word of the
        query's language `written`, in another whose texts never write it so, whatever its stem
        (the Italian `durante` is no French `dure`)."""
        own = {w for w in words if written and self._own(written, [w])}
        for lang in LANGS:
            if lang != written and any(fold(w) not in self._lexicons.get(lang, {}) for w in own):
                continue
            stems = [s for s in (stem(lang, w) for w in words) if s]
            if stems and all(self._in_index(lang, s) for s in stems):
                concept.add(lang, stems, 1.0, typed=True)

    def _known(self, word: str) -> bool:
        """Whether some language's texts or thesaurus has the word."""
        for lang in LANGS:
            s = stem(lang, word)
            if s and (self._in_index(lang, s) or s in self._terms.stems[lang]):
                return True
        return False

    def _in_index(self, lang: str, s: str) -> bool:
        return bool(self._index.doc_frequency(f"text_{lang}", s))

    def _word_concept(self, word: str, written: str | None = None) -> Concept:
        """A word the thesaurus does not know: itself in every language where the rulebook has it;
        if it has it nowhere, a typo: the words within a slip or two of it, and their concepts."""
        concept = Concept(word)
        self._add_as_typed(concept, [word], written)
        if concept.leaves or len(word) > MAX_FUZZY_CHARS or not word.isalpha():
            return concept
        concept.fuzzy = True
        k = max_edits(fold(word))  # the word as typed: its stem may be shorter than the slip
        for lang in LANGS:
            s = stem(lang, word)
            if k and s:
                for near in self._near_terms(f"text_{lang}", s, k):
                    concept.add(lang, [near], FUZZY_BOOST)
        for cid in self._terms.near(fold(word)):
            for lang, stems, weight in self._terms.leaves(cid, FUZZY_BOOST, self._usual_words(cid)):
                concept.add(lang, stems, weight)
        return concept

    def _near_terms(self, fname: str, s: str, k: int) -> set[str]:
        """The terms of a field within k slips of a stem."""
        near = set(_automaton_matches(_typo_automaton(s, k), self._index.lexicon(fname)))
        near.update(t for t in _transpositions(s) if self._index.doc_frequency(fname, t))
        return near


# How a question is put, not what it asks about: `que se passe-t-il si`, `a-t-on le droit de`,
# `cosa succede se`, `what happens if`, `au bout de` (after: its `bout` is also a match). Their
# verbs are rule words elsewhere (`passe la main`, `en droit de remplacer`; `faut`, of `falloir`,
# stems as `faute` does) and found the rules that say them, not the rule asked for. (`peut-on`,
# `can I` stay: a question of what is allowed is answered by the rules saying what one may do.)
QUESTION_FRAMES = (
    "que se passe-t-il si", "que se passe-t-il quand", "qu'est-ce qui se passe si", "qu'est ce qui se passe si",
    "qu'arrive-t-il si", "qu'arrive-t-il quand", "que faire si", "que faire quand", "a-t-on le droit de",
    "a-t-on le droit d'", "ai-je le droit de", "ai-je le droit d'", "on a le droit de", "on a le droit d'",
    "a le droit de", "a le droit d'", "est-ce que", "est ce que", "faut-il", "faut il", "il faut", "faudra-t-il",
    "il faudra", "au bout de",
    "cosa succede se", "che succede se", "cosa succede quando", "cosa succede", "che cosa succede se",
    "what happens if", "what happens when", "what happens")


@lru_cache(maxsize=None)
def _folded(phrases: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Phrases as folded words, the longest first (folded on first use: the folding table is the
    index snapshot's, not there when this module is imported)."""
    return tuple(sorted({tuple(tokens(fold(p))) for p in phrases}, key=lambda f: -len(f)))


def _positions(folded: list[str], phrases: tuple[str, ...]) -> set[int]:
    """The positions of the words that stand in one of `phrases`, the longest phrase first (a
    shorter one inside a longer one found already does not count twice)."""
    out: set[int] = set()
    for frame in _folded(phrases):
        n = len(frame)
        for i in range(len(folded) - n + 1):
            if tuple(folded[i:i + n]) == frame and out.isdisjoint(range(i, i + n)):
                out.update(range(i, i + n))
    return out


def _frames(folded: list[str]) -> set[int]:
    """The positions of the words that only put the question (QUESTION_FRAMES)."""
    return _positions(folded, QUESTION_FRAMES)


# Where a question is set, not what it asks: nearly every rule holds `pendant la partie`, `durante
# il match`, `during a game`, and players add it to a question about smoking or signals. Said beside
# other words, it weighs little; the rules that happen to say it (`une interruption pendant un
# match`) must not outrank the one about what was asked. (Alone, it is the question.)
SCENE_FRAMES = (
    "pendant la partie", "pendant une partie", "pendant le match", "pendant un match", "pendant le jeu",
    "pendant la rencontre", "en cours de partie", "en pleine partie", "en cours de jeu", "en plein match",
    "durant la partie", "durant le match",
    "durante il match", "durante la partita", "durante una partita", "durante il gioco", "durante un match",
    "durante l'incontro", "in partita", "a meta partita", "nel corso della partita", "nel corso del match",
    "during the game", "during a game", "during the match", "during a match", "during play", "mid game",
    "mid-game", "in the middle of a game", "in the middle of the game", "in a match", "in a game")
SCENE_FACTOR = 0.25


def _scene(folded: list[str]) -> set[int]:
    """The positions of the words that only set the scene (SCENE_FRAMES)."""
    return _positions(folded, SCENE_FRAMES)


def _quieten_scene(concepts: list[Concept], scene: set[int], n_words: int) -> None:
    """The concepts standing only for scene words weigh SCENE_FACTOR, when the query says more."""
    if not scene or len(scene) >= n_words:
        return
    quiet = [c for c in concepts if c.positions and scene.issuperset(c.positions)]
    if len(quiet) == len(concepts):
        return
    for c in quiet:
        for key in c.leaves:
            c.leaves[key] *= SCENE_FACTOR


# The words that join two terms a question sets side by side, in every language.
JOINING = frozenset({"et", "ou", "e", "o", "and", "or", "vs", "versus", "contre", "from", "da", "de"})


def _joined(named: list[Concept], words: list[str]) -> bool:
    """Whether two of the concepts named are joined by a word that sets them side by side."""
    places = sorted(c.positions for c in named if c.positions)
    return any(a and b and any(fold(w) in JOINING for w in words[a[-1] + 1:b[0]])
               for a, b in zip(places, places[1:]))


@lru_cache(maxsize=256)
def _typo_automaton(stem_: str, k: int):
    """The Levenshtein automaton for a stem: building it is most of a fuzzy lookup's cost, and the
    same stem is looked up in each language's field, and again as the user edits the query."""
    return levenshtein_dfa(stem_, k)


def _automaton_matches(dfa, terms: list[str]) -> list[str]:
    """The sorted `terms` the automaton accepts."""
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

