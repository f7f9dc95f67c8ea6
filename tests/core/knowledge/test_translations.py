"""Every clause in French, Italian and English: the project's translations carry the numbers and
references over exactly, and call each carrom thing by the glossary's preferred word."""
from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter

import pytest

from referee_app.languages import LANGUAGES


from support.cli import run_cli



def test_every_clause_has_text_in_all_three_languages(kb):
    missing = [f"{c.id} ({lang})" for c in kb.clauses.values() for lang in LANGUAGES
               if not c.texts.get(lang, {}).get("text", "").strip()]
    assert not missing, f"{len(missing)} texts missing, e.g. {missing[:20]}"


def test_translations_are_marked_as_the_projects(kb):
    for c in kb.clauses.values():
        assert c.texts[c.lang]["official"] is True
        assert all(not t["official"] for lang, t in c.texts.items() if lang != c.lang)


_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")


def numbers(text: str) -> Counter:
    """Numbers as written with digits (decimal commas read as points), whatever surrounds them."""
    return Counter(n.replace(",", ".") for n in _NUMBER.findall(text))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_units_and_references_are_carried_over(kb, lang):
    wrong = []
    for c in kb.clauses.values():
        if lang == c.lang or lang not in c.translations:
            continue
        if numbers(c.text) != numbers(c.translations[lang]):
            wrong.append(f"{c.id}: {dict(numbers(c.text))} vs {dict(numbers(c.translations[lang]))}")
    assert not wrong, f"{len(wrong)} {lang} translations change a number:\n" + "\n".join(wrong[:30])


def _fold(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(ch))


def _stem(word: str) -> str:
    """A rough stem, enough to accept inflected forms of the preferred word in a translation."""
    for ending in ("are", "ere", "ire", "er"):  # imbucare/imbuca, confermare/confermata, confirmer/confirmé
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[:-len(ending)]
    return word[:-1] if len(word) > 3 and word[-1] in "aeio" else word  # pedina/pedine, reine/reines


def _word_pattern(phrase: str, stem: bool, lang: str = "en") -> re.Pattern:
    """With `stem`, any inflection of each word; without, the word or its plural only (a French
    "tir" is not "tiré", a "coup" not a "coupe")."""
    words = []
    for w in _fold(phrase).split():
        if stem:
            words.append(re.escape(_stem(w)) + r"\w*")
        elif lang == "it" and w[-1] in "aeio":
            words.append(re.escape(w[:-1]) + "[aeio]")
        else:
            words.append(re.escape(w) + r"(?:s|x)?")
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)")


def _detectors(kb):
    """(term, lang, pattern) for the words that name one concept only and have no ordinary sense."""
    owners = Counter((lang, _fold(w)) for t in kb.glossary for lang in LANGUAGES for w in set(t.words[lang]))
    for term in kb.glossary:
        loose = {_fold(w) for w in term.loose}
        for lang in LANGUAGES:
            for w in term.words[lang]:
                if owners[(lang, _fold(w))] == 1 and _fold(w) not in loose:
                    yield term, lang, _word_pattern(w, stem=False, lang=lang)


def concepts_named(text: str, lang: str, detectors) -> set:
    """The glossary terms a text names; a word inside a longer term's words (the "cercle central"
    of "cercle central intérieur") names only the longer term."""
    folded = _fold(text)
    found = [(m.start(), m.end(), term) for term, term_lang, p in detectors if term_lang == lang for m in p.finditer(folded)]
    return {term.id for a, b, term in found
            if not any(x <= a and b <= y and (y - x) > (b - a) and other is not term for x, y, other in found)}


def test_each_carrom_term_is_translated_by_the_glossarys_preferred_word(kb):
    """Where the original names a glossary concept, each translation uses that concept's preferred word."""
    detectors = list(_detectors(kb))
    terms = {t.id: t for t in kb.glossary}
    wrong = []
    for c in kb.clauses.values():
        for term_id in sorted(concepts_named(c.text, c.lang, detectors) - set(c.plain_words)):
            term = terms[term_id]
            for target in LANGUAGES:
                if target == c.lang or target not in c.translations:
                    continue
                if not _word_pattern(term.preferred(target), stem=True).search(_fold(c.translations[target])):
                    wrong.append(f"{c.id} ({target}): '{term.preferred(target)}' for {term.id}")
    assert not wrong, f"{len(wrong)} translations do not use the glossary's word:\n" + "\n".join(wrong[:40])


def test_the_rulebook_command_shows_all_three_texts():
    done = run_cli("show", "icf-fr:3.12.c", "--json")
    texts = json.loads(done.stdout)["texts"]
    assert set(texts) == set(LANGUAGES)
    assert texts["fr"]["official"] and not texts["it"]["official"] and not texts["en"]["official"]


def test_every_heading_reads_in_all_three_languages(kb):
    missing = sorted({f"{c.source}: {c.title!r} ({lang})" for c in kb.clauses.values() for lang in LANGUAGES
                      if lang != c.lang and not c.title_translations.get(lang, "").strip()})
    assert not missing, f"{len(missing)} headings lack a translation, e.g. {missing[:10]}"
    record = kb.clauses["it:44"].record()
    assert record["titles"] == {"it": "Pedine fuori board", "fr": "Jetons hors du plateau",
                                "en": "Coins off the carrom board"}
