"""Which language a query is written in, read from the rulebook's own words.

A general-purpose detector guesses badly on what referees type: three words, no accents, carrom
jargon borrowed from English (`board`, `striker`, `break`) in every language. The rulebook knows
better: each language's texts (originals and the project's translations), its thesaurus words
(what players say) and its stop words and question words make a lexicon of that language with
each word's frequency; a query is scored against each lexicon as a bag of words (a word's
share of the language's words, smoothed), and a word every language uses as much says nothing.
A query whose words do not tell the languages apart well enough has no language (None): its
hits are shown as they were found, each in its best-matching text.
"""
from __future__ import annotations

import math
from collections import Counter

from .analysis import LANGS, STOPWORDS, fold, tokens

SMOOTHING = 0.5           # pseudo-count of a word a language's lexicon lacks
THESAURUS_COUNT = 3       # a thesaurus word counts as if the texts said it this often
QUESTION_COUNT = 5        # a word of a definition question (`signifie`, `significa`, `mean`)
STOPWORD_COUNT = 2        # a stop word the texts never say (`quoi`, `cosa`) still names its language
MARGIN = math.log(4)      # the best language must be this much likelier than the next (a factor of 4)
MAX_WORDS = 32


def lexicon(kb, thesaurus_state: dict) -> dict[str, dict[str, int]]:
    """lang -> folded word -> how often the rulebook says it in that language (built with the index)."""
    counts: dict[str, Counter[str]] = {lang: Counter() for lang in LANGS}
    for clause in kb.clauses.values():
        for lang, entry in clause.texts.items():
            if lang in counts:
                counts[lang].update(fold(w) for w in tokens(f"{clause.title_in(lang)}\n{entry['text']}")
                                    if not w[:1].isdigit() and len(w) > 1)
    for concept in thesaurus_state["concepts"]:
        for lang in LANGS:
            for phrase in concept["words"].get(lang, ()):
                for w in tokens(phrase):
                    counts[lang][fold(w)] += THESAURUS_COUNT
    for lang, phrases in thesaurus_state.get("definition_questions", {}).items():
        if lang in counts:
            for phrase in phrases:
                for w in tokens(phrase):
                    counts[lang][fold(w)] += QUESTION_COUNT
    for lang in LANGS:
        for w in STOPWORDS[lang]:
            counts[lang][fold(w)] += STOPWORD_COUNT
    return {lang: dict(c) for lang, c in counts.items()}


class Detector:
    def __init__(self, lexicons: dict[str, dict[str, int]]):
        self._lex = {lang: lexicons.get(lang, {}) for lang in LANGS}
        vocabulary = set().union(*self._lex.values()) if self._lex else set()
        v = len(vocabulary) or 1
        self._norm = {lang: math.log(sum(lex.values()) + SMOOTHING * v) for lang, lex in self._lex.items()}

    def scores(self, text: str) -> dict[str, float]:
        """lang -> log-likelihood of the query's known words (words no language has are left out)."""
        out = dict.fromkeys(LANGS, 0.0)
        for word in tokens(text or "")[:MAX_WORDS]:
            if word[:1].isdigit() or len(word) < 2:   # `c` of `3.10 c`, `a`: every language's
                continue
            w = fold(word)
            counts = [self._lex[lang].get(w, 0) for lang in LANGS]
            if not any(counts):
                continue
            for lang, c in zip(LANGS, counts):
                out[lang] += math.log(c + SMOOTHING) - self._norm[lang]
        return out

    def detect(self, text: str) -> str | None:
        """The language the query is written in, or None when its words do not say."""
        scores = self.scores(text)
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        if not ranked or ranked[0][1] == 0.0 or ranked[0][1] - ranked[1][1] < MARGIN:
            return None
        return ranked[0][0]
