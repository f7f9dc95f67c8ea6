"""Text analysis: how a text or a query becomes index terms, in each of the three languages.

Tokens are words, and numbers kept whole (`3.12`, and `4,45` read as `4.45`: a decimal comma is
a decimal point). Then lower case, the language's stop words, accents folded (`penalite` finds
`pénalité`) and the language's stems. The same chain serves the index and the query.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from referee_app.languages import LANGUAGES
from .backend import STOPLISTS, Analyser, accents

LANGS = LANGUAGES
# Abbreviations of two letters and a slash (`J/C`, `c/m`, `P/C`: the coins and the board, never
# to be split into letters the stop words drop), numbers with their decimals (a comma between
# digits is a decimal comma), words.
TOKEN = r"(?<!\w)[^\W\d_]/[^\W\d_](?![\w/])|\d+(?:,\d+)+|\w+(?:\.?\w+)*"
TOKEN_RE = re.compile(TOKEN)

# The stop words: Snowball's lists, with what they lack for rule texts (`les` (!), the `shall`
# of every AICF rule and its French and Italian kin, `doit`, `deve`, `essere`, that every other
# rule says too (not `peut`, `può`: a question of what one may do finds the rules saying what one
# may do); the question words no rule says: `combien`, `quoi`) and without the words
# that carry a rule (`off` the board, as `hors du` plateau and `fuori` board do; `out`, as in
# playing out of turn; `before`, `after`, `during`, `under`, `over`, `against` and `own`, which
# the French and Italian lists keep as `avant`, `prima`, `pendant`, `sotto`...: the queen pocketed
# before one's own coin is another rule than the queen pocketed after it).
EXTRA_STOPWORDS = {"fr": {"les", "entre", "si", "cet", "cette", "dont", "lors", "combien", "quoi", "pourquoi",
                          "doit", "doivent", "devra", "devront", "être"},
                   "it": {"deve", "devono", "dovrà", "dovranno", "essere", "fa"},
                   "en": {"shall", "may", "must"}}
MEANINGFUL = {"fr": set(), "it": set(),
              "en": {"off", "out", "before", "after", "during", "under", "over", "against", "own"}}
STOPWORDS = {lang: frozenset((STOPLISTS[lang] | EXTRA_STOPWORDS[lang]) - MEANINGFUL[lang]) for lang in LANGS}

_FR_ENDINGS = re.compile(r"(?:ee(s?)|(i)ere(s?))$")

# Words the stemmer would merge with another word of a different meaning, kept apart: `cassé`
# (broken) and `casse` (the break, in jargon) fold and stem alike, and so do `délai` (deadline)
# and `au-delà` (beyond), or the Italian `del`, and `ronde` (a tournament's round) and `rond` (a
# circle on the board), and the English `sets` of a match and the verb `set` (a time limit set
# for the rest). Matched as written (lower case, accents kept), before accents are folded;
# indexed under a form no other word has.
DISTINCT = {
    "fr": {"cassé": "casse_", "cassée": "casse_", "cassés": "casse_", "cassées": "casse_",
           "délai": "delai_", "délais": "delai_", "ronde": "ronde_", "rondes": "ronde_"},
    "it": {}, "en": {"sets": "sets_"},
}
# Words that mean something else after a given word: `en même temps` is "at the same time", and
# `temps` alone the time a rule allows. (previous word, word) -> the form indexed.
PAIRS = {"fr": {("même", "temps"): "meme_temps_"}, "it": {}, "en": {}}


def _french_endings(word: str) -> str:
    """Puts folded French endings back in the shape the French stemmer expects.

    Folding accents before stemming hides two suffixes from the Snowball French stemmer: `-ée(s)`
    stems to `confirme` instead of `confirm` and `-ière(s)` to `premier` instead of `premi`.
    Rewriting them to `-e(s)` and `-ier` makes every form of a word meet again.
    """
    return _FR_ENDINGS.sub(lambda m: f"e{m.group(1)}" if m.group(1) is not None else "ier", _decimal(word))


def _decimal(word: str) -> str:
    return word.replace(",", ".") if word[:1].isdigit() else word


def _distinct_fr(word: str) -> str:
    return DISTINCT["fr"].get(word, word)


def _distinct_en(word: str) -> str:
    return DISTINCT["en"].get(word, word)


_DISTINCT = {"fr": _distinct_fr, "it": None, "en": _distinct_en}


def analyzer(lang: str) -> Analyser:
    """The analysis chain of one language: the index's and the query's."""
    return Analyser(lang, TOKEN, STOPWORDS[lang], _french_endings if lang == "fr" else _decimal,
                    _DISTINCT[lang], PAIRS[lang])


# The query side's analysers, one per language and one keeping the stop words: they hold no
# state, so threads share them.
_analysers = {lang: analyzer(lang) for lang in LANGS}
_every_word = {lang: an.every_word() for lang, an in _analysers.items()}


@lru_cache(maxsize=20_000)
def analyse_all(lang: str, text: str) -> tuple[str, ...]:
    """The stems of every word of a text in `lang`, stop words included (for phrases that ask
    for a concept in so many words: `break between sets`)."""
    return _every_word[lang](text)


def analyse(lang: str, text: str) -> tuple[str, ...]:
    """The indexed forms of a text in `lang`, in order."""
    return _analysers[lang](text)


@lru_cache(maxsize=100_000)
def stem(lang: str, word: str) -> str | None:
    """The indexed form of one token in `lang`, or None when it is a stop word or too short."""
    out = analyse(lang, word)
    return out[0] if len(out) == 1 else None


def fold(word: str) -> str:
    return word.lower().translate(accents())


def word_key(word: str) -> str:
    """How a word with no stem (a stop word) is compared, in a query and in a text: as written,
    folded, and marked so that it never equals a stem."""
    return "=" + fold(word)


def _unaccented(word: str) -> str:
    if word.isascii():   # most words: no character to look at one by one (this runs on import)
        return word
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


# The stop words that have accents, as typed without them (`ete`, `meme`, `piu`, `perche`): a query
# typed unaccented says them so, and they matched nothing and were reported as unknown words.
UNACCENTED_STOPWORDS = frozenset(u for lang in LANGS for w in STOPWORDS[lang] if (u := _unaccented(w)) != w)


def is_stopword(word: str) -> bool:
    """A stop word in any of the languages (`la`, `the`, `di`), as written (`du` is one, `dû` not),
    or one written with accents typed without them (`ete`, `piu`)."""
    w = word.lower()
    return (any(w in STOPWORDS[lang] for lang in LANGS) or w in UNACCENTED_STOPWORDS) and \
        not any(w in MEANINGFUL[lang] for lang in LANGS)


def tokens(text: str) -> list[str]:
    return TOKEN_RE.findall(text.lower())
