"""Ranking: every document a query's concepts reach, scored, and each clause once, best first.

Whoosh's BM25F scores each term, from whoosh's own statistics; combining them is ours:
  - per concept, a document's best match (a concept's synonyms do not add up: a French text that
    says `reine` and `pion rouge` is no more about the queen than an English one that says `queen`);
  - each language's scores brought to a common scale (calibration), so that a language's texts
    compete with the others' on how well they match among their own;
  - the sum weighted by the share of the query a text holds;
  - a text that holds the words as they were typed reads best (this replaces guessing the
    query's language: `reine` prefers the French texts because they say `reine`);
  - among the best, a text saying the query's concepts in the fewest words (the shortest stretch
    of it holding one of each) reads best: term proximity as the span that covers the terms;
  - the printed text outranks the project's translation, and an official rule text outranks a
    summary of it (the simplified variants, the federation's summary, a proposal) when both
    match equally;
  - for a definition question, the definitions of the concept asked about come first;
  - a clause gains a share of the best score among the clauses that state the same rule in
    other sources, which carries a query across languages where the thesaurus has no word.
Exact matches rank before guessed spellings.
"""
from __future__ import annotations

import heapq

from . import numbers
from .senses import OFF_SENSE_FACTOR   # a word of two senses, read in one, where a text of the other kind says it
from .analysis import LANGS
from .terms import PHRASE_SLOP

TYPED_BONUS = 1.0         # a text holding every concept as typed scores up to twice as much
TRANSLATION_FACTOR = 0.9  # the printed text outranks the project's translation of another clause
SUMMARY_FACTOR = 0.85     # an official rule text outranks a summary or a commentary that matches as well
SIBLING_SHARE = 0.5        # a concept only another text of the same clause says counts half
UNSAYABLE_CREDIT = 0.5    # a concept a text's language has no word for half counts as present
CORRESPONDENCE_SHARE = 0.5  # of the best score among the clauses stating the same rule elsewhere
QUANTITY_SCORE = 12.0     # a measurement holding the value asked for: as strong as a rare word
TIGHTNESS = 5.0           # a range a tenth of its value wide scores two thirds of an exact value
QUANTITY_WEIGHT = 6.0     # and it weighs in the query like a rare word
NEAR_SHARE = 0.6          # a measurement a few per cent off the value asked: up to this share of one holding it
DIMENSION_SCORE = 3.0     # a unit named alone (`in grammi`): any measurement in it, as a common word
DIMENSION_WEIGHT = 2.0
DEFINITION_FACTOR = 4.0   # a definition, when the query asks what something is
PROXIMITY_BONUS = 1.0     # a text saying the query's concepts in as few words as they take, up to twice as much
PROXIMITY_DEPTH = 30      # looked at in the best texts only (it reads their words)
ADJACENCY_BONUS = 0.5     # a text saying the query's words one after the other, stop words too, up to half as much again
COUNT_BONUS = 1.0         # a text stating a range that holds a whole number typed (`45 joueurs`: `de 40 à 59`)
ASKED_BONUS = 2.0         # a text stating the kind of number a query asks for (`how long`: a duration), three times as much
NAMED_FACTOR = 4.0        # the definition of the one concept a query names and nothing else


class Candidate:
    """A document's evidence: per concept, its best score; which concepts it matched as typed
    (a bit each); whether anything matched as typed rather than by a guessed spelling. (A plain
    class with slots: a search makes one per document any concept reaches, often a thousand.)"""

    __slots__ = ("scores", "lang", "exact", "typed", "off")

    def __init__(self, scores: list, lang: str, exact: bool = False, typed: int = 0):
        self.scores, self.lang, self.exact, self.typed = scores, lang, exact, typed
        self.off = 0   # a bit each: the concept's best match is a word of two senses in a text of the other kind


class Ranker:
    """Scores documents of one open index."""

    def __init__(self, index, ids: list[str], translations: frozenset, summaries: frozenset,
                 definitions: frozenset, links: dict[str, list[str]], measures: dict[str, list],
                 docs_of: dict[str, list[int]], doc_langs: list[str], keys=None, stated=None,
                 tournament: frozenset = frozenset()):
        self._index = index
        self._ids = ids                    # document -> clause id
        self._translations = translations  # documents that are the project's translations
        self._summaries = summaries        # documents of sources that summarise or comment
        self._definitions = definitions    # documents of definitions
        self._links = links                # clause -> clauses stating the same rule elsewhere
        self._measures = measures          # clause -> its measurements
        self._docs_of = docs_of            # clause -> its documents
        self._doc_langs = doc_langs        # document -> its language
        self._keys = keys                  # document -> its words' stems (stop words: analysis.word_key)
        self._stated = stated              # document -> the kinds of number its text states (numbers.stated)
        self._tournament = tournament      # documents of the tournament's clauses (a round's texts, not a turn's)
        self._positions: dict[int, dict[str, list[int]]] = {}   # document -> stem -> its places

    def collect(self, concepts) -> dict[int, Candidate]:
        """Score every document any concept reaches, reading each index term's postings once."""
        out: dict[int, Candidate] = {}
        n = len(concepts)
        for ci, concept in enumerate(concepts):
            if concept.quantity is not None:
                self._collect_quantity(out, ci, n, concept.quantity)
                continue
            if concept.dimension is not None:
                self._collect_dimension(out, ci, n, concept.dimension)
                continue
            exact = not concept.fuzzy
            for (fname, stems), weight in concept.leaves.items():
                lang = fname[-2:]
                bit = 1 << ci if lang in concept.typed else 0
                # `tour` read as a round says little in a playing rule, read as a turn little in
                # a tournament clause: the source a sense fits (senses.py)
                off = None if (fname, stems) not in concept.ambiguous else concept.sense == "tournament"
                for doc, score in self._scores(fname, stems):
                    wrong = off is not None and (doc in self._tournament) != off
                    if wrong:
                        score *= OFF_SENSE_FACTOR
                    cand = out.get(doc)
                    if cand is None:
                        cand = out[doc] = Candidate([0.0] * n, lang, exact, 0 if wrong else bit)
                    else:
                        cand.typed |= 0 if wrong else bit
                        cand.exact = cand.exact or exact
                    score *= weight
                    if score > cand.scores[ci]:
                        cand.scores[ci] = score
                        # said only in the other sense, the concept is hardly held (a playing
                        # rule headed `Turni di gioco` holds no tournament round)
                        cand.off = cand.off | 1 << ci if wrong else cand.off & ~(1 << ci)
        return out

    def _collect_quantity(self, out, ci: int, n: int, quantity) -> None:
        """The clauses stating a measurement that holds the value, the tighter the better: `47 cm`
        is the baseline's 47 cm ± 0.30 before the chairs' 43.18 to 48.26 cm; then, less, those
        stating one a few per cent off it (`76 cm`: the board's 73.66 ± 0.32 cm, as an inspector
        measures a board that is not the standard's)."""
        for cid, measures in self._measures.items():
            held = [m for m in measures if m.holds(quantity)]
            if held:
                tightest = min((m.hi - m.lo) / max(abs(m.hi), 1e-9) for m in held)
                self._credit(out, cid, ci, n, QUANTITY_SCORE / (1 + TIGHTNESS * tightest))
                continue
            near = max((numbers.nearness(m, quantity) for m in measures), default=0.0)
            if near > 0:
                self._credit(out, cid, ci, n, QUANTITY_SCORE * NEAR_SHARE * near)

    def _collect_dimension(self, out, ci: int, n: int, unit: str) -> None:
        for cid, measures in self._measures.items():
            if any(m.unit == unit for m in measures):
                self._credit(out, cid, ci, n, DIMENSION_SCORE)

    def _credit(self, out, cid: str, ci: int, n: int, score: float) -> None:
        """A clause's every text holds concept `ci` (a measurement reads alike in every language)."""
        for doc in self._docs_of.get(cid, ()):
            cand = out.get(doc)
            if cand is None:
                cand = out[doc] = Candidate([0.0] * n, self._doc_langs[doc])
            cand.scores[ci] = max(cand.scores[ci], score)
            cand.typed |= 1 << ci
            cand.exact = True

    def _scores(self, fname: str, stems: tuple[str, ...]):
        """(document, BM25F score) for each document a term is in; a phrase counts in the
        documents that hold all its words, as the sum of their scores (its words' order is not checked:
        a thesaurus phrase's words together are rare enough, and checking positions costs more
        than the rest of a search)."""
        first = self._index.term_scores(fname, stems[0])
        if len(stems) == 1:
            return first.items()
        rest = [self._index.term_scores(fname, s) for s in stems[1:]]
        said = self._index.phrase_docs(fname, stems, PHRASE_SLOP)
        return [(doc, score + sum(r[doc] for r in rest)) for doc, score in first.items()
                if doc in said and all(doc in r for r in rest)]

    @staticmethod
    def _calibration(candidates: dict[int, Candidate], n: int) -> tuple[dict[str, list[float]], list[float]]:
        """Per language and concept, the factor that brings that language's best score for the
        concept up to the best score in any language (each language is its own field, with its
        own lengths and word frequencies: the dozens of three-line French clauses outscore the
        long AICF rules for any word); and that best score per concept, which says how much the
        concept weighs (a rare word more than a common one)."""
        best = {lang: [0.0] * n for lang in LANGS}
        for cand in candidates.values():
            row = best[cand.lang]
            for i, x in enumerate(cand.scores):
                if x > row[i]:
                    row[i] = x
        top = [max(best[lang][i] for lang in LANGS) for i in range(n)]
        factors = {lang: [top[i] / row[i] if row[i] else 1.0 for i in range(n)] for lang, row in best.items()}
        return factors, top

    def _weight(self, concept) -> float:
        """How much a concept weighs in the share of the query a text holds: the rarity (idf) of
        its rarest way of being said, a phrase's words together (`temps de réflexion` weighs more
        than `deux`)."""
        if concept.quantity is not None:
            return QUANTITY_WEIGHT
        if concept.dimension is not None:
            return DIMENSION_WEIGHT
        best = 0.0
        for (fname, stems), weight in concept.leaves.items():
            if all(self._index.doc_frequency(fname, s) for s in stems):
                best = max(best, weight * sum(self._index.idf(fname, s) for s in stems))
        return best

    def _doc_score(self, doc: int, cand: Candidate, unsayable: set, factors, weights: list[float],
                   definition: bool, sibling: list[float] | None = None) -> float:
        """The concepts' sum, times the share of the query the text holds (each concept weighing
        as its rarity says; one the text's language has no word for half counts; one that
        another text of the same clause says, in part: `sibling`), times the share matched as
        typed; then the text's standing."""
        held, total = 0.0, 0.0
        for i, (x, f) in enumerate(zip(cand.scores, factors[cand.lang])):
            if x:
                held += weights[i] * (OFF_SENSE_FACTOR if cand.off >> i & 1 else 1.0)
                total += x * f
            elif sibling is not None and sibling[i]:
                held += SIBLING_SHARE * weights[i]
                total += SIBLING_SHARE * sibling[i]
            elif i in unsayable:
                held += UNSAYABLE_CREDIT * weights[i]
        n = len(cand.scores)
        score = total * (held / (sum(weights) or 1.0)) * (1 + TYPED_BONUS * cand.typed.bit_count() / n)
        if doc in self._translations:
            score *= TRANSLATION_FACTOR
        if doc in self._summaries:
            score *= SUMMARY_FACTOR
        if definition and doc in self._definitions:
            score *= DEFINITION_FACTOR
        return score

    def _proximity(self, doc: int, cand: Candidate, concepts) -> float:
        """How tightly the text says the query's concepts it holds: their number over the words of
        the shortest stretch of the text holding one of each (1 when they follow one another).
        `mettre au trou l'ultime jeton adverse` asks about the rule that says `loge le dernier J/C
        de l'adversaire` (3 concepts in 7 words) more than those that say `loge son dernier jeton
        en même temps que le dernier jeton de l'adversaire` (3 in 14): the many rules on both
        last coins at once mention the opponent's last coin too, but further from the pocketing."""
        where = self._places(doc)
        lang = f"text_{cand.lang}"
        places = []
        for concept in concepts:
            found = [p for (fname, leaf) in concept.leaves if fname == lang for s in leaf for p in where.get(s, ())]
            if found:
                places.append(found)
        if len(places) < 2:
            return 0.0
        return min(1.0, len(places) / _cover(places))

    def _places(self, doc: int) -> dict[str, list[int]]:
        where = self._positions.get(doc)
        if where is None:
            where = self._positions[doc] = {}
            for i, key in enumerate(self._keys(doc)):
                where.setdefault(key, []).append(i)
        return where

    def _adjacency(self, doc: int, cand: Candidate, keys: dict | None) -> float:
        """The share of the query's neighbouring words (not two stop words) that the text says
        one right after the other, in the order typed, a stop word as written, a concept in any
        of its words: `queen as the last coin` is the rule that lets the queen be pocketed as
        the last coin more than the many that speak of the queen and of the last coin."""
        slots = (keys or {}).get(cand.lang) or []
        where = self._places(doc)
        pairs = [(a, b) for (a, stop_a), (b, stop_b) in zip(slots, slots[1:]) if not (stop_a and stop_b)]
        said = 0
        for a, b in pairs:
            follow = {p + 1 for k in a for p in where.get(k, ())}
            said += any(p in follow for k in b for p in where.get(k, ()))
        return said / len(pairs) if pairs else 0.0

    def rank(self, candidates: dict[int, Candidate], concepts, allowed, limit: int,
             definition: bool = False, defined: tuple = (), keys: dict | None = None,
             asks: str | None = None, counts: tuple = ()) -> list[tuple[str, int, float, Candidate]]:
        """(clause id, document shown, score, evidence) for the best clauses, each once, through
        its best allowed text; exact matches before guessed spellings. `asks`: the kind of number
        the query asks for ("duration", "count"): of the best texts on its subject, those that
        state one come first (`how long is the break` wants the rule giving its minutes, not the
        rules that only speak of it). `counts`: whole numbers typed; a text stating a range that
        holds one is the clause that answers for that number (`45 joueurs`: `7 tours de 40 à 59`)."""
        scores = self._scored(candidates, concepts, definition, defined)
        if (asks or counts) and self._stated is not None:
            for doc in heapq.nlargest(PROXIMITY_DEPTH, scores, key=scores.__getitem__):
                kinds, ranges = self._stated(doc)
                if any(lo <= n <= hi for n in counts for lo, hi in ranges):
                    scores[doc] *= 1 + COUNT_BONUS
                if not asks:
                    continue
                if asks in kinds:
                    scores[doc] *= 1 + ASKED_BONUS
                elif kinds:
                    scores[doc] *= 1 + ASKED_BONUS / 3
        # side by side: the concepts (two at least), or the words of one concept typed in several
        if self._keys is not None and (len(concepts) > 1 or any(len(k) > 1 for k in (keys or {}).values())):
            for doc in heapq.nlargest(PROXIMITY_DEPTH, scores, key=scores.__getitem__):
                scores[doc] *= (1 + PROXIMITY_BONUS * self._proximity(doc, candidates[doc], concepts)) * \
                    (1 + ADJACENCY_BONUS * self._adjacency(doc, candidates[doc], keys))
        own: dict[str, float] = {}          # clause -> best score of any of its texts, filters aside
        shown: dict[str, tuple] = {}        # clause -> (exact, score, doc) of its best allowed text
        for doc, cand in candidates.items():
            cid = self._ids[doc]
            score = scores[doc]
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
        return [(self._ids[doc], doc, -neg, candidates[doc]) for _, neg, doc in ranked[:limit]]

    def _siblings(self, candidates: dict[int, Candidate], factors, n: int) -> dict[str, list[float]]:
        """Per clause, each concept's best calibrated score in any of its texts: a clause says the
        same rule in each of its languages, and a query's words may meet some in its French
        original (`joueurs`) and the others in its English translation (`rounds`), where the
        French says `tours`, which is also a player's turn."""
        best: dict[str, list[float]] = {}
        for doc, cand in candidates.items():
            row = best.setdefault(self._ids[doc], [0.0] * n)
            for i, (x, f) in enumerate(zip(cand.scores, factors[cand.lang])):
                if x * f > row[i]:
                    row[i] = x * f
        return best

    def _scored(self, candidates: dict[int, Candidate], concepts, definition: bool, defined: tuple) -> dict[int, float]:
        """Each document's score from its evidence and its standing."""
        factors, _ = self._calibration(candidates, len(concepts))
        weights = [self._weight(c) for c in concepts]
        unsayable = {lang: {i for i, c in enumerate(concepts) if _unsayable(c, lang)} for lang in LANGS}
        siblings = self._siblings(candidates, factors, len(concepts)) if len(concepts) > 1 else {}
        scores = {}
        for doc, cand in candidates.items():
            score = self._doc_score(doc, cand, unsayable[cand.lang], factors, weights, definition,
                                    siblings.get(self._ids[doc]))
            if self._ids[doc] in defined:
                # what defines the very concept asked about (a glossary entry, or the rule that
                # says what a foul is); or, for a query that is one concept and nothing else
                # (`arbitre`), its definition a little ahead
                score *= DEFINITION_FACTOR if definition else NAMED_FACTOR
            scores[doc] = score
        return scores


def _unsayable(concept, lang: str) -> bool:
    """Whether a text in `lang` could not say the concept: the thesaurus has no word for it in
    that language. A word the thesaurus does not know, found in the texts of some languages
    (`rapporte`, in French and Italian), says nothing of how the others would say it: crediting
    every English text with it would put English texts first for a French query."""
    return bool(concept.concepts) and lang not in concept.langs()


def _cover(places: list[list[int]]) -> int:
    """The length in words of the shortest stretch holding a position from each list (none empty)."""
    marks = sorted((p, i) for i, positions in enumerate(places) for p in positions)
    held: dict[int, int] = {}   # list -> how many of its positions the stretch holds
    best, start = 1 << 30, 0
    for p, i in marks:
        held[i] = held.get(i, 0) + 1
        while len(held) == len(places):
            first, j = marks[start]
            best = min(best, p - first + 1)
            held[j] -= 1
            if not held[j]:
                del held[j]
            start += 1
    return best
