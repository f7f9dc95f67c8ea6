"""Rulebook search in French, Italian and English, whatever the query's language.

    from referee_app.core.search import search, Searcher
    search("queen cover", lang="fr")   # [{"id", "source", "lang", "title", "snippet", ...}]

The modules, by concern: `analysis` (tokens, stop words, stems), `query` (citations, numbers,
definition questions, words into concepts, typos), `terms` (the thesaurus on the query side),
`numbers` (measurements), `documents` and `index_cache` (what is indexed, and the index on
disk), `ranking`, `snippets`, `searcher` (the whole, and the module-level API). `backend` is the
only module that imports whoosh.
"""
from .analysis import LANGS
from .index_cache import cache_dir, ensure_index
from .searcher import Searcher, search, search_detailed

__all__ = ["LANGS", "Searcher", "cache_dir", "ensure_index", "search", "search_detailed"]
