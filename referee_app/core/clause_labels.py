"""A clause as people read it: the one label every window and printed document gives a clause.

    label("icf-fr:3.12.c", "it", kb)            -> "ICF 3.12 c"
    label("icf-fr:2.dim.C", "fr", kb)           -> "ICF 2 cote C"
    label("icf-fr:5.j-c-de-penalite", "it", kb) -> "ICF 5 «pedina di penalità»"

A clause with a printed number is labelled as its readers cite it (core/knowledge/citations.py
`cite`, which the search also reads back); the clauses the project numbers itself (figure legends,
the dimension list, a paragraph's exception, glossary entries) say where they stand, in the
reader's words. Above core/knowledge, since the words come from the catalogs.
"""
from __future__ import annotations

import re

from referee_app.i18n import translations
from referee_app.core.knowledge.citations import citations

# Clauses the project numbers itself (figure legends, the glossary, a paragraph's exception) have
# no printed number a reader could cite: their label says where they stand in words of the reader.
_FIGURE = re.compile(r"^(?P<chapter>\d+)\.(?P<kind>fig|dim)\.(?P<letter>[A-Za-z])(?:-|$)")
_EXCEPTION = re.compile(r"^(?P<base>.+)-exception$")
_PRINTED_INSIDE = re.compile(r"\(([^()]*\d[^()]*)\)")   # "Cas spéciaux (3.7 f–l)"


def label(clause_id: str, lang: str, kb) -> str:
    """A clause as a person reads it in `lang`: "ICF 3.12 c", "regola 53", "ICF 2 figure C",
    "ICF 5 «pedina di penalità»"; never the knowledge base's id nor a word of another language
    where the knowledge base has the reader's. Every window and printed document labels a clause
    through this one function (`Knowledge.clause_label`); `cite` stays the form the search reads back."""
    clause = kb.clauses.get(clause_id)
    if clause is None:
        return clause_id
    grammar = citations(kb)
    src, local = clause_id.split(":", 1)
    short = kb.sources[src].short
    if grammar.numbered(clause_id) or not kb.sources[src].numbered:
        return grammar.cite(clause_id, lang)
    _ = translations(lang).gettext
    m = _FIGURE.match(local)
    if m:
        words = _("{source} {chapter} figure {letter}") if m["kind"] == "fig" else \
            _("{source} {chapter} dimension {letter}")
        return words.format(source=short, chapter=m["chapter"], letter=m["letter"].upper())
    m = _EXCEPTION.match(local)
    if m and f"{src}:{m['base']}" in kb.clauses:
        return _("exception to {clause}").format(clause=grammar.cite(f"{src}:{m['base']}", lang))
    if clause.kind == "definition" and re.match(r"^\d+\.[a-z]", local):   # a glossary entry, named by its term
        term = next((tm for tm in kb.glossary if clause_id in tm.defined_in and tm.words.get(lang)), None)
        word = clause.paragraph if lang == clause.lang or term is None else term.preferred(lang)
        return _("{source} {chapter} “{term}”").format(source=short, chapter=local.split(".")[0], term=word)
    inside = _PRINTED_INSIDE.search(clause.paragraph)
    if inside:
        return f"{short} {inside.group(1)}"
    return grammar.cite(clause_id, lang)
