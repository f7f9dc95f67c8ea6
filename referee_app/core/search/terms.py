"""The thesaurus as the query side needs it: each concept's words analysed in each language, found
in a query's words (the longest phrase first), and its words in every language to search for."""
from __future__ import annotations

from .analysis import LANGS, TOKEN_RE, analyse, analyse_all, fold
from .backend import distance

PHRASE_SLOP = 1           # a phrase's words one after the other (stop words aside)
LOOSE_FACTOR = 0.5        # a concept a shared word names only loosely (`main`: the hand, and in jargon the turn)
SYNONYM_FACTOR = 0.6      # a concept's other names weigh less than its usual ones (`pion rouge`, `reine`)


def analysed(state: dict) -> list[dict]:
    """The thesaurus (core.knowledge.thesaurus state) with each word's stems per language, built
    with the index so that opening it analyses nothing."""
    out = []
    for c in state["concepts"]:
        words = {}
        for lang in LANGS:
            forms, seen = [], set()
            for w in c["words"].get(lang, ()):
                stems = analyse(lang, w)
                if stems and stems not in seen:
                    seen.add(stems)
                    forms.append({"word": w, "stems": list(stems)})
            words[lang] = forms
        asked = {lang: [list(analyse_all(lang, p)) for p in c.get("asked", {}).get(lang, ())] for lang in LANGS}
        loose = {lang: [list(analyse(lang, w)) for w in c.get("loose", ()) if w in c["words"].get(lang, ())]
                 for lang in LANGS}
        out.append({"id": c["id"], "words": words, "defined_in": c["defined_in"], "used_in": c["used_in"],
                    "asked": asked, "loose": loose})
    return out


def max_edits(word: str) -> int:
    """How many typing slips a word of this length may be read through: none for a short word (too
    many neighbours), one for a longer one (two neighbouring letters swapped count as one). Two
    edits turned real words no text uses into others (`répétition` into `reposition`), and every
    misspelling users were seen to type was one slip away."""
    return 0 if len(word) < 5 else 1


class Terms:
    """The concepts, indexed for matching query words and phrases in each language."""

    def __init__(self, concepts: list[dict]):
        self.concepts = concepts
        # lang -> first stem -> [(stems, concept index)], longest phrase first
        self.starts: dict[str, dict[str, list]] = {lang: {} for lang in LANGS}
        self.stems: dict[str, set[str]] = {lang: set() for lang in LANGS}
        self.single: list[tuple[str, int]] = []  # (folded word, concept index), for guessing typos
        # word as written (lower case, accents kept) -> concepts: `cassé` is broken, though it
        # stems like `casse`, the break
        self.exact: dict[str, set[int]] = {}
        # phrases that ask for a concept, matched on every word (stop words too)
        self.asked: dict[str, dict[str, list]] = {lang: {} for lang in LANGS}
        for i, concept in enumerate(concepts):
            for lang in LANGS:
                for form in concept["words"].get(lang, []):
                    self._add_form(i, lang, form)
        for i, concept in enumerate(concepts):
            for lang in LANGS:
                for stems in concept.get("asked", {}).get(lang, ()):
                    if stems:
                        self.asked[lang].setdefault(stems[0], []).append((tuple(stems), i))
        for tables in (self.starts, self.asked):
            for table in tables.values():
                for entries in table.values():
                    entries.sort(key=lambda e: -len(e[0]))

    def _add_form(self, i: int, lang: str, form: dict) -> None:
        stems = tuple(form["stems"])
        words = TOKEN_RE.findall(form["word"].lower())
        if len(words) > 1 and len(stems) == 1:
            # its other words are stop words (`get up`, `par erreur`): found on its lone stem, it
            # would stand for the concept wherever `get` is typed, so it is matched on every word
            every = analyse_all(lang, form["word"])
            self.asked[lang].setdefault(every[0], []).append((every, i))
        else:
            self.starts[lang].setdefault(stems[0], []).append((stems, i))
        self.stems[lang].update(stems)
        if len(words) == 1:
            self.single.append((fold(words[0]), i))
        self.exact.setdefault(form["word"].lower(), set()).add(i)

    def match(self, lang: str, stems: list[tuple[int, str]], asked: bool = False):
        """Yield (word positions, concept indexes) for each thesaurus entry found in a query's stems
        (`asked`: the phrases that ask for a concept, in stems of every word).

        The longest entry wins; a word that several concepts share (`main`: the hand, the turn)
        stands for all of them.
        """
        table = (self.asked if asked else self.starts)[lang]
        i = 0
        while i < len(stems):
            found = [(entry, c) for entry, c in table.get(stems[i][1], [])
                     if tuple(s for _, s in stems[i:i + len(entry)]) == entry]
            if not found:
                i += 1
                continue
            size = len(found[0][0])
            yield [p for p, _ in stems[i:i + size]], sorted({c for e, c in found if len(e) == size})
            i += size

    def written(self, words: list[str], concepts: list[int]) -> list[int]:
        """Of the concepts found for some words by their stems, those that list the words exactly
        as written, if any (`cassé`: broken, not the break that `casse` is)."""
        exact = self.exact.get(" ".join(words).lower(), set())
        kept = [c for c in concepts if c in exact]
        return kept or concepts

    def near(self, word: str) -> list[int]:
        """Concepts with a one-word form within a typo or two of `word` (folded)."""
        k = max_edits(word)
        if not k:
            return []
        return sorted({i for w, i in self.single
                       if abs(len(w) - len(word)) <= k and w[0] == word[0] and distance(w, word, limit=k) <= k})

    def nearest(self, word: str) -> str | None:
        """The one-word thesaurus form nearest to `word` (folded) within a slip or two, if one is
        nearer than any other: `penallty` -> `penalty`, so that `penallty coin` is a penalty coin."""
        k = max_edits(word)
        if not k:
            return None
        found = sorted((distance(w, word, limit=k), w) for w, _ in self.single
                       if abs(len(w) - len(word)) <= k and w[0] == word[0])
        found = [(d, w) for d, w in found if d <= k]
        if not found or (len(found) > 1 and found[1][0] == found[0][0] and found[1][1] != found[0][1]):
            return None
        return found[0][1]

    def is_loose(self, concept: int, lang: str, stems: tuple) -> bool:
        """Whether `stems` are one of the concept's words in `lang` that have an everyday sense as
        well (`main`: a hand, and only in jargon the turn): they name the concept less surely."""
        return list(stems) in self.concepts[concept].get("loose", {}).get(lang, ())

    def leaves(self, concept: int, weight: float = 1.0, usual: frozenset = frozenset()):
        """(lang, stems, weight) for each of a concept's words in every language: its first word
        and those in `usual` ((lang, stems) pairs) at full weight, the others less."""
        for lang in LANGS:
            for rank, form in enumerate(self.concepts[concept]["words"].get(lang, [])):
                full = rank == 0 or (lang, tuple(form["stems"])) in usual
                yield lang, form["stems"], weight * (1.0 if full else SYNONYM_FACTOR)
