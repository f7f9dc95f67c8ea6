"""What the index holds: one document per clause and per language text it has (its original, and
the project's translations), each language in its own analysed field; and beside the index, the
data the query side needs without parsing the YAML again (the thesaurus analysed, the citation
grammar, the measurements each clause states, the correspondences, the rulesets)."""
from __future__ import annotations

from referee_app.core.knowledge import thesaurus
from referee_app.core.knowledge.citations import Citations

from . import numbers
from .language import lexicon
from .analysis import LANGS, STOPWORDS, analyzer, word_key
from .snippets import words as text_words
from .terms import PHRASE_SLOP, analysed


def analyzers() -> dict:
    return {lang: analyzer(lang) for lang in LANGS}


def clause_rulesets(rulesets: dict) -> dict[str, list[str]]:
    """Source id -> the rulesets that apply it (a clause belongs to all of them)."""
    out: dict[str, list[str]] = {}
    for rid, rs in rulesets.items():
        for source in rs.all_sources(rulesets):
            out.setdefault(source, []).append(rid)
    return out


def documents(kb, rulesets: dict):
    by_source = clause_rulesets(rulesets)
    symbols = thesaurus.load(kb)[0].state()["symbols"]
    for c in kb.clauses.values():
        for lang, entry in c.texts.items():
            if lang not in LANGS:
                continue
            doc = dict(key=f"{c.id}|{lang}", id=c.id, source=c.source, kind=c.kind, lang=lang,
                       paragraph=c.paragraph, title=c.title_in(lang), rulesets=",".join(by_source.get(c.source, [])),
                       official=bool(entry["official"]), body=entry["text"], keys=word_keys(entry["text"], lang))
            # The heading says what a clause is about (`Pedine fuori board` over rules that say
            # `pedina` and `fuori` but never `board`): each language's text carries its own, and
            # none where the heading has no translation (its words would pass for that language's).
            has_heading = lang == c.lang or lang in c.title_translations
            text = entry["text"]
            for sign, words in symbols.items():  # "Ø des trous" is a diameter, in every language
                text = text.replace(sign, f"{sign} {words[lang]} ")
            if c.kind == "definition" and lang == c.lang:  # the term defined ("J/C de pénalité en dette")
                text = f"{c.paragraph}\n{text}"
            doc[f"text_{lang}"] = f"{c.title_in(lang)}\n{text}" if has_heading else text
            yield doc


def aux_data(kb, rulesets: dict) -> dict:
    """Everything the searcher keeps beside the index, as JSON."""
    thes, _ = thesaurus.load(kb)
    state = thes.state()
    return {"terms": analysed(state),
            "questions": state["definition_questions"],
            "rulesets": {rid: rs.all_sources(rulesets) for rid, rs in rulesets.items()},
            "sources": list(kb.sources),
            "summaries": [sid for sid, s in kb.sources.items() if not s.numbered],
            "citations": Citations.from_kb(kb).state(),
            "measures": {c.id: [[q.lo, q.hi, q.unit] for q in numbers.measurements(c.text)]
                         for c in kb.clauses.values() if numbers.measurements(c.text)},
            "links": {c.id: list(c.corresponds_to) for c in kb.clauses.values() if c.corresponds_to},
            "lexicon": lexicon(kb, state)}


def vocabulary(kb) -> list[str]:
    """Words a query says whether or not a text does, beside the texts' own: the index keeps the
    stem of each in every language (a word it lacks is stemmed by whoosh, imported for it): the
    thesaurus's words and phrases, and every language's stop words (`combien`, `quoi`)."""
    state = thesaurus.load(kb)[0].state()
    return [w for c in state["concepts"] for source in (c["words"], c.get("asked", {}))
            for words in source.values() for w in words] + [" ".join(sorted(STOPWORDS[lang])) for lang in LANGS]


def stamp_data(kb, rulesets: dict) -> dict:
    """What besides the clauses the index depends on (its change means a rebuild)."""
    return {"thesaurus": thesaurus.load(kb)[0].state(), "citations": Citations.from_kb(kb).state(),
            "rulesets": {rid: rs.all_sources(rulesets) for rid, rs in sorted(rulesets.items())}}


def index_data(index, terms: list[dict]) -> dict:
    """What the searcher keeps beside an index it has just built, read from it once: the
    documents that say each thesaurus phrase."""
    phrases, seen = [], set()
    for concept in terms:
        for lang, forms in concept["words"].items():
            for form in forms:
                key = (f"text_{lang}", tuple(form["stems"]))
                if len(key[1]) > 1 and key not in seen:
                    seen.add(key)
                    phrases.append([key[0], list(key[1]), PHRASE_SLOP,
                                    sorted(index.phrase_docs(key[0], key[1], PHRASE_SLOP))])
    return {"phrases": phrases}


def word_keys(body: str, lang: str) -> str:
    """A text's words as the ranking compares them with a query's, worked out once at build:
    stems, stop words as written (analysis.word_key), in one string, space-separated (a list of
    words each would be a quarter of a million objects for the garbage collector to walk)."""
    return " ".join(s or word_key(body[a:b]) for a, b, s in text_words(body, lang))
