"""Citations: the ways a reader names a clause, turned into its id, and the way the app names one back.

    parse("ICF 3.12 e")      -> ["icf-fr:3.12.e"]
    parse("regola 53")       -> ["it:53"]
    parse("3.12")            -> ["icf-fr:3.12.a", "icf-fr:3.12.a-exception", …]   (the whole section)
    parse("rule 13")         -> ["aicf-2009:13"]   (the English source's rule; "règle 13" gives both)
    find("que dit la règle 53 sur la reine")  -> [Citation(start, end, ("it:53",))]
    cite("it:53", "it")      -> "regola 53"

A paragraph number needs something that makes it a citation: a source's name (`ICF`, `AICF`,
`it`, `Simplifiées`), a word for a rule (`regola`, `règle`, `rule`, `art.`), or printed
numbering no measurement has (`3.12 e`, `4.1.2`). A whole query that is a bare number (`53`) is
a citation too; inside a sentence, `13 jetons` is not. A number followed by a unit (`2.5 cm`)
never is. Only numbers the knowledge base holds are citations: `3.13` cites nothing.

The names and the citation forms per language are knowledge (`knowledge/citations.yaml`);
this module is pure Python and never imports whoosh, so that the window can use it at once.
"""
from __future__ import annotations

import re
import unicodedata
from functools import cached_property
from typing import NamedTuple

from referee_app.languages import LANGUAGES
from .files import load_file
from .model import Problem
from .yamlio import YamlError, line_of

FILE = "citations.yaml"
LANGS = LANGUAGES
# After one of these a number is a measurement, not a paragraph ("2.5 cm", "3.5 points").
UNITS = ("mm", "cm", "m", "g", "gr", "kg", "w", "watt", "watts", "in", "inch", "inches", "pouce",
         "pouces", "pollici", "%", "min", "minute", "minutes", "minuti", "s", "sec", "seconde",
         "secondes", "secondi", "second", "seconds", "h", "heure", "heures", "ore", "hour", "hours",
         "point", "points", "punti", "pt", "pts", "lux")
# "regola n. 53", "règle n° 53", "rule no. 53", "art. 53", "§ 3.12"
NUMBER_SIGNS = r"(?:(?:n|no|nr|num|numero|numéro|number)\b\.?\s*|n°\s*|#\s*|§\s*)?"


class Citation(NamedTuple):   # not a frozen dataclass: docs/architecture.md, Start-up
    """A citation found in a text: where it stands (start, end) and the clauses it names, best first."""

    start: int
    end: int
    ids: tuple[str, ...]


def fold(text: str) -> str:
    """Lower case without accents, one character for one, so that positions stay those of `text`."""
    return "".join((unicodedata.normalize("NFD", ch)[:1] or ch).lower()[:1] or ch for ch in text)


def _name_pattern(name: str) -> str:
    chunks = re.findall(r"\w+", fold(name))
    return r"[\s\-_]*".join(re.escape(c) for c in chunks)


class Citations:
    """The citation grammar of one knowledge base.

    Built from plain data (`state()`), so that the search index can keep it beside itself and
    answer a citation without parsing the YAML again.
    """

    def __init__(self, state: dict):
        self._state = state
        self.problems: list[Problem] = []  # what citations.yaml has wrong (set by from_kb)
        self.data = state["names"]
        self.sources: dict[str, dict] = state["sources"]   # id -> lang, short, numbered, order
        self.paragraphs: dict[str, str] = state["paragraphs"]  # clause id -> paragraph as printed
        self._numbered = [sid for sid, s in self.sources.items() if s["numbered"]]
        self._order = {sid: re.compile(s["order"]) for sid, s in self.sources.items()}

    # The grammar reading citations is built on first use: writing one (`cite`, every ruling's
    # explanation) needs none of it, and compiling its pattern is most of what building costs.

    @cached_property
    def _names(self) -> dict[str, str]:
        """A source's name, folded -> the source."""
        names: dict[str, str] = {}
        for sid, src in self.sources.items():
            for name in [sid, src["short"]] + list(self.data["sources"].get(sid, {}).get("names", [])):
                names.setdefault(" ".join(re.findall(r"\w+", fold(name))), sid)
        return names

    def source_names(self) -> frozenset[str]:
        """Every name a source is cited by, folded (`it`, `icf`, `aicf`)."""
        return frozenset(self._names)

    @cached_property
    def _words(self) -> dict[str, list[str]]:
        """A word for a rule, folded -> its languages."""
        words: dict[str, list[str]] = {}
        for lang, ws in self.data["rule_words"].items():
            for w in ws:
                words.setdefault(fold(w), []).append(lang)
        return words

    @cached_property
    def _name_alt(self) -> str:
        return "|".join(_name_pattern(n) for n in sorted(self._names, key=len, reverse=True))

    @cached_property
    def _name_re(self) -> re.Pattern:
        return re.compile(rf"\s*(?P<name>{self._name_alt})(?!\w)")

    @cached_property
    def _pattern(self) -> re.Pattern:
        name_alt = self._name_alt
        word_alt = "|".join(re.escape(w) for w in sorted(self._words, key=len, reverse=True)) or "(?!)"
        units = "|".join(re.escape(u) for u in UNITS)
        return re.compile(
            rf"(?<![\w:.])"
            rf"(?:(?P<src>{name_alt})(?!\w)[\s:,]*)?"
            rf"(?:(?P<word>{word_alt})(?!\w)\.?\s*{NUMBER_SIGNS})?"
            rf"(?:(?P<src2>{name_alt})(?!\w)[\s:]*)?"
            rf"(?:§\s*)?"
            rf"(?:(?P<n1>\d{{1,3}})(?!\d)(?!,\d)"
            rf"(?:\s*\.\s*(?P<n2>\d{{1,3}})(?!\d))?"
            rf"(?:(?:\s*\.\s*|\s+|(?<=\d))(?P<let>[a-z])(?!\w)\)?)?"
            rf"(?:(?:\s*\.\s*|\s+)(?P<n3>\d{{1,2}})(?!\d)(?![,.]\d)\.?)?"
            rf"|(?P<sec>[a-z](?:\.[ivxlc]+)?)(?![\w.]))"
            rf"(?!\s*(?:{units})(?!\w))")

    @cached_property
    def _by_prefix(self) -> dict[str, list[str]]:
        """A section ("icf-fr:3.12") -> the clauses under it, in order."""
        by_prefix: dict[str, list[str]] = {}
        for cid in self.paragraphs:
            src, local = cid.split(":", 1)
            parts = local.split(".")
            for i in range(1, len(parts)):
                by_prefix.setdefault(f"{src}:{'.'.join(parts[:i])}", []).append(cid)
        return by_prefix

    @cached_property
    def _printed(self) -> dict[tuple[str, str], list[str]]:
        """(source, a paragraph as printed, folded) -> the clauses."""
        printed: dict[tuple[str, str], list[str]] = {}
        for cid, paragraph in self.paragraphs.items():
            printed.setdefault((cid.split(":", 1)[0], _key(paragraph)), []).append(cid)
        return printed

    @classmethod
    def from_kb(cls, kb) -> "Citations":
        names, problems = _read(kb)
        grammar = cls(_state(kb, names))
        grammar.problems = problems
        return grammar

    def state(self) -> dict:
        """Plain data (JSON) to build the same grammar again."""
        return self._state

    # Reading citations

    def find(self, text: str, bare_numbers: bool = False) -> list[Citation]:
        """The citations in a text, left to right. `bare_numbers`: a lone number cites too."""
        folded = fold(text)
        out = []
        pos = 0
        while pos < len(folded):
            m = self._pattern.search(folded, pos)
            if m is None:
                break
            found = self._resolve(m, bare_numbers)
            if found is None:
                pos = m.start() + 1
                continue
            end, ids = found
            out.append(Citation(m.start(), end, tuple(ids)))
            pos = end
        return out

    def parse(self, text: str) -> list[str]:
        """The clauses a whole text cites, best first; [] when it is not (only) a citation."""
        stripped = text.strip()
        if not stripped:
            return []
        if stripped in self.paragraphs:
            return [stripped]
        printed = self._printed_paragraph(stripped)
        if printed:
            return printed
        found = self.find(stripped, bare_numbers=True)
        if found and not re.search(r"[^\s,;]", _outside(stripped, found)):
            ids: list[str] = []
            for c in found:
                ids += [i for i in c.ids if i not in ids]
            return ids
        return []

    def _printed_paragraph(self, text: str) -> list[str]:
        """`ICF Reine (La)`, `ICF 1 ¶2`, `IT B.XI`: a source's name and a paragraph as printed."""
        m = self._name_re.match(fold(text))
        if m is None:
            return []
        source = self._names[" ".join(re.findall(r"\w+", m.group("name")))]
        return list(self._printed.get((source, _key(m.string[m.end():])), []))

    def _resolve(self, m: re.Match, bare_numbers: bool):
        """(end, ids) for one match of the grammar, or None when it names no clause."""
        named = m.group("src") or m.group("src2")
        word = m.group("word")
        sources = self._sources_to_try(named, word)
        if m.group("sec"):
            return self._lettered_section(m, sources) if named else None
        if not (named or word or m.group("n2") or bare_numbers):
            return None  # "13 jetons": a count, not a rule
        # Trailing parts that may be ordinary words ("regola 53 e 54": `e` is "and") are dropped
        # when the clause does not have them; the dotted number itself never is.
        parts = [g for g in ("n1", "n2", "let", "n3") if m.group(g)]
        keep_min = 2 if m.group("n2") else 1
        for size in range(len(parts), keep_min - 1, -1):
            ids = self._clauses_numbered(".".join(m.group(g) for g in parts[:size]), sources, named, word)
            if ids:
                return _end_of(m, parts[size - 1]), ids
        return None

    def _sources_to_try(self, named: str | None, word: str | None) -> list[list[str]]:
        """Groups of sources, tried in turn: the first group holding the number answers."""
        if named:
            return [[self._names[" ".join(re.findall(r"\w+", named))]]]
        if word:  # "regola 13" is the Italian rule 13; "règle 13", with no French rule 13, both
            langs = self._words[word]
            own = [s for s in self._numbered if self.sources[s]["lang"] in langs]
            return [own, [s for s in self._numbered if s not in own]]
        return [self._numbered]

    def _lettered_section(self, m: re.Match, sources: list[list[str]]):
        """`IT B`: a section a named source numbers with a letter."""
        cid = f"{sources[0][0]}:{m.group('sec').upper()}"
        return (m.end("sec"), [cid]) if cid in self.paragraphs else None

    def _clauses_numbered(self, local: str, sources: list[list[str]], named, word) -> list[str]:
        """The clauses (or a section's clauses) numbered `local` in the first group of sources having any."""
        for group in sources:
            ids: list[str] = []
            for src in group:
                cid = f"{src}:{local}"
                if cid in self.paragraphs:
                    ids.append(cid)
                elif cid in self._by_prefix and (named or (not word and self._is_printed(src, local))):
                    ids += self._by_prefix[cid]  # a section: its clauses (a rule word wants a rule)
            if ids:
                return ids
        return []

    def numbered(self, clause_id: str) -> bool:
        """Whether a clause's id follows its source's numbering (printed or the project's), so that
        `cite` gives it as readers write it; figure legends, glossary entries and the like do not."""
        src, _sep, local = clause_id.partition(":")
        return src in self._order and bool(self._order[src].match(local))

    def _is_printed(self, source: str, local: str) -> bool:
        """Whether a paragraph number follows the source's printed numbering (not the project's)."""
        return self.sources[source]["numbered"] and bool(self._order[source].match(local))

    # Writing citations

    def cite(self, clause_id: str, lang: str) -> str:
        """How a reader of `lang` names a clause: "ICF 3.12 e", "regola 53", "AICF 13"."""
        paragraph = self.paragraphs.get(clause_id)
        if paragraph is None:
            return clause_id
        src, local = clause_id.split(":", 1)
        source = self.sources[src]
        template = self.data["sources"].get(src, {}).get("cite", {}).get(lang) or f"{source['short']} {{p}}"
        m = self._order[src].match(local)
        if m and source["numbered"] and len(m.groups()) == 4:
            n1, n2, let, n3 = m.groups()  # chapter.section, a letter, a sub-number: "3.12 e", "3.11 i 1", "4.1.2"
            p = n1 + (f".{n2}" if n2 else "") + (f" {let}" if let else "") + \
                ((f" {n3}" if let else f".{n3}") if n3 else "")
            return template.format(p=p)
        if m:  # a rule number, or the project's numbering of an unnumbered source
            return template.format(p=local)
        return f"{source['short']} {paragraph}"  # figure legends, glossary entries, sections


def _key(paragraph: str) -> str:
    return " ".join(re.findall(r"\w+", fold(paragraph)))


def _end_of(m: re.Match, group: str) -> int:
    """Where a citation ends: after its last part, and after the `)` of a letter printed `e)`."""
    end = m.end(group)
    if group == "let" and m.string[end:end + 1] == ")":
        end += 1
    return end


def _outside(text: str, found: list[Citation]) -> str:
    out, pos = [], 0
    for c in found:
        out.append(text[pos:c.start])
        pos = c.end
    out.append(text[pos:])
    return "".join(out)


def _read(kb) -> tuple[dict, list[Problem]]:
    """citations.yaml, checked; what is wrong is reported and left out, never fatal."""
    data: dict = {"sources": {}, "rule_words": {}}
    raw, problems = _load_raw(kb.root / FILE)
    if raw is None:
        return data, problems
    sources = raw.get("sources") or {}
    for sid, entry in sources.items():
        source = _read_source(kb, sid, entry, problems)
        if source is not None:
            data["sources"][sid] = source
    for sid in kb.sources:
        if sid not in sources:
            problems.append(Problem(FILE, 0, f"sources: no citation form for source '{sid}'"))
    data["rule_words"] = _rule_words(raw.get("rule_words") or {}, problems)
    problems += _names_claimed_twice(kb, data["sources"])
    return data, problems


def _load_raw(path) -> tuple[dict | None, list[Problem]]:
    """The file as a mapping, or None and the one problem that makes it unreadable."""
    if not path.is_file():
        return None, [Problem(FILE, 0, "the citation names are missing")]
    try:
        raw = load_file(path, FILE) or {}
    except YamlError as exc:
        return None, [Problem(FILE, exc.line, exc.problem)]
    if not isinstance(raw, dict):
        return None, [Problem(FILE, 0, "must be a mapping with `sources` and `rule_words`")]
    return raw, []


def _read_source(kb, sid: str, entry, problems: list[Problem]) -> dict | None:
    """One source's names and citation forms, the wrong ones left out; None for no known source."""
    line = line_of(entry)
    if sid not in kb.sources:
        problems.append(Problem(FILE, line, f"sources: unknown source '{sid}'"))
        return None
    if not isinstance(entry, dict):
        problems.append(Problem(FILE, line, f"sources.{sid}: must be a mapping with names and cite"))
        return None
    names = entry.get("names") or []
    if not isinstance(names, list) or not all(isinstance(n, str) and re.search(r"\w", n) for n in names):
        problems.append(Problem(FILE, line, f"sources.{sid}.names: must be a list of names"))
        names = []
    return {"names": names, "cite": _cite_forms(sid, entry.get("cite") or {}, line, problems)}


def _cite_forms(sid: str, cite, line: int, problems: list[Problem]) -> dict[str, str]:
    good = {}
    for lang in LANGS:
        form = cite.get(lang) if isinstance(cite, dict) else None
        if not isinstance(form, str) or form.count("{p}") != 1 or re.search(r"\{(?!p\})", form):
            problems.append(Problem(FILE, line, f"sources.{sid}.cite.{lang}: needs a form with {{p}} once"))
        else:
            good[lang] = form
    return good


def _rule_words(words, problems: list[Problem]) -> dict[str, list[str]]:
    good = {}
    for lang in LANGS:
        lst = words.get(lang) if isinstance(words, dict) else None
        if not isinstance(lst, list) or not lst or not all(isinstance(w, str) and w.strip() for w in lst):
            problems.append(Problem(FILE, line_of(words), f"rule_words.{lang}: needs a list of words"))
            continue
        good[lang] = [w.strip() for w in lst]
    return good


def _names_claimed_twice(kb, sources: dict[str, dict]) -> list[Problem]:
    """A name typed before a number must point at one source only."""
    problems = []
    seen: dict[str, str] = {}
    for sid, src in kb.sources.items():
        for name in [sid, src.short] + sources.get(sid, {}).get("names", []):
            key = " ".join(re.findall(r"\w+", fold(name)))
            if seen.setdefault(key, sid) != sid:
                problems.append(Problem(FILE, 0, f"the name '{name}' is claimed by {seen[key]} and {sid}"))
    return problems


def _state(kb, names: dict) -> dict:
    return {"names": names,
            "sources": {sid: {"lang": s.lang, "short": s.short, "numbered": s.numbered, "order": s.order}
                        for sid, s in kb.sources.items()},
            "paragraphs": {cid: c.paragraph for cid, c in kb.clauses.items()}}


_cache: dict[int, tuple[object, Citations]] = {}


def citations(kb) -> Citations:
    """The citation grammar of a knowledge base, built once for it."""
    hit = _cache.get(id(kb))
    if hit is None or hit[0] is not kb:
        if len(_cache) > 4:
            _cache.clear()
        hit = _cache[id(kb)] = (kb, Citations.from_kb(kb))
    return hit[1]


def parse(text: str, kb) -> list[str]:
    return citations(kb).parse(text)


def find(text: str, kb, bare_numbers: bool = False) -> list[Citation]:
    return citations(kb).find(text, bare_numbers)


def cite(clause_id: str, lang: str, kb) -> str:
    return citations(kb).cite(clause_id, lang)


def problems(kb) -> list[Problem]:
    """What is wrong in citations.yaml, for check-kb."""
    return list(citations(kb).problems)
