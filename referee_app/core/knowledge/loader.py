"""Loads the YAML knowledge base into typed records and refuses a broken one.

Layout (see knowledge/README.md): `sources.yaml` lists the sources; each source has a folder
`knowledge/<source-id>/` whose YAML files, in file-name order, hold its clauses in reading
order. Every problem found names the file, the line and what is wrong.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from referee_app.core.errors import BadInput, KnowledgeError
from .files import load_file
from .model import Clause, KnowledgeBase, Problem, Source, Term
from .yamlio import YamlError, line_of

REQUIRED = ("id", "paragraph", "title", "text", "kind")
# Fields a clause record may carry; anything else is a typo the validator reports.
KNOWN = set(REQUIRED) | {
    "source", "lang", "corresponds_to", "differs", "translations", "mended", "also_in",
    "decides", "examples", "exception_to", "parameters", "note",
    "plain_words",  # glossary terms this clause uses in their everyday sense ("the game of Carrom")
    "not_formalised",  # why a clause of kind rule, penalty or scoring carries no rules
}


KNOWLEDGE_ENV = "CARROM_REFEREE_KNOWLEDGE"


def knowledge_root() -> Path:
    """The knowledge folder: `$CARROM_REFEREE_KNOWLEDGE` when set (an author checking a copy, a
    test on a changed one), else the repository's when running from a checkout, else the one
    shipped inside the package (a wheel installs it as referee_app/knowledge, and so does the bundle)."""
    chosen = os.environ.get(KNOWLEDGE_ENV)
    if chosen:
        if not (Path(chosen) / "sources.yaml").is_file():
            raise BadInput(KNOWLEDGE_ENV, f"{chosen} is not a knowledge folder (it has no sources.yaml)")
        return Path(chosen)
    package = Path(__file__).resolve().parents[2]
    checkout = package.parent / "knowledge"
    if (checkout / "sources.yaml").is_file():
        return checkout
    return package / "knowledge"


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _order_key(match: re.Match) -> tuple:
    # Digits compare as numbers, letters as letters; an absent level sorts before any present one.
    return tuple((1, int(g) if g.isdigit() else g) if g is not None else (0,) for g in match.groups())


def _not_before(key: tuple, prev: tuple) -> bool:
    # A heading-level paragraph (absent lower levels) does not move the reading order backwards.
    n = next((i for i, (a, b) in enumerate(zip(key, prev)) if a == (0,) or b == (0,)), len(key))
    return key[:n] >= prev[:n]


def _read_sources(root: Path, problems: list[Problem]):
    path = root / "sources.yaml"
    data = load_file(path, "sources.yaml")
    if not isinstance(data, dict) or not isinstance(data.get("sources"), list):
        raise KnowledgeError([Problem("sources.yaml", line_of(data, 1), "needs a 'sources' list (and 'languages', "
                                                                      "'kinds')")])
    sources: dict[str, Source] = {}
    for entry in data["sources"]:
        if not isinstance(entry, dict):
            problems.append(Problem("sources.yaml", line_of(data, 1), "each source is a mapping (id, lang, title)"))
            continue
        try:
            src = Source(entry["id"], entry["lang"], entry["title"], entry["short"] if "short" in entry else entry["id"],
                         tuple(entry.get("files", [])), bool(entry.get("numbered")), entry.get("order", "^$"))
        except KeyError as exc:
            problems.append(Problem("sources.yaml", line_of(entry), f"source lacks {exc.args[0]}"))
            continue
        sources[src.id] = src
    return sources, tuple(data.get("languages", [])), tuple(data.get("kinds", []))


def _read_clause(raw, header: dict, rel: str, kb_langs, kb_kinds, sources, problems) -> Clause | None:
    line = line_of(raw)
    if not isinstance(raw, dict):
        problems.append(Problem(rel, line, "a clause must be a mapping"))
        return None
    missing = [f for f in REQUIRED if raw.get(f) in (None, "")]
    for name in missing:
        problems.append(Problem(rel, line, f"clause {raw.get('id', '?')}: missing field '{name}'"))
    if "id" in missing:
        return None
    source = raw.get("source", header["source"])
    lang = raw.get("lang", header["lang"])
    cid = str(raw["id"])
    translations = raw.get("translations") or {}
    said = _clause_problems(raw, cid, source, lang, translations, kb_langs, kb_kinds, sources)
    problems.extend(Problem(rel, line, f"clause {cid}: {problem}") for problem in said)
    if missing:
        return None
    return Clause(
        id=cid, source=source, paragraph=str(raw["paragraph"]), lang=lang, title=str(raw["title"]),
        text=str(raw["text"]).strip(), kind=raw["kind"],
        corresponds_to=_strings(raw.get("corresponds_to")),
        differs=[d if isinstance(d, dict) else {"note": str(d)} for d in _as_list(raw.get("differs"))],
        file=rel, line=line, translations={k: str(v).strip() for k, v in translations.items()},
        decides=_as_list(raw.get("decides")), examples=_as_list(raw.get("examples")),
        not_formalised=str(raw.get("not_formalised") or ""),
        exception_to=_strings(raw.get("exception_to")),
        mended=_as_list(raw.get("mended")), note=str(raw.get("note") or ""),
        plain_words=_strings(raw.get("plain_words")),
    )


def _strings(value) -> list[str]:
    return [str(x) for x in _as_list(value)]


def _clause_problems(raw, cid: str, source, lang, translations, kb_langs, kb_kinds, sources) -> list[str]:
    said = [f"unknown field '{name}'" for name in sorted(set(raw) - KNOWN)]
    if source not in sources:
        said.append(f"unknown source '{source}'")
    elif not cid.startswith(source + ":"):
        said.append(f"id does not start with its source '{source}:'")
    if lang not in kb_langs:
        said.append(f"unknown language '{lang}'")
    if raw.get("kind") and raw["kind"] not in kb_kinds:
        said.append(f"unknown kind '{raw['kind']}'")
    return said + [f"translation into unknown language '{t}'" for t in translations if t not in kb_langs]


def load(root: Path | None = None, strict: bool = True) -> tuple[KnowledgeBase, list[Problem]]:
    """Read and validate the knowledge base. With strict, any problem raises KnowledgeError.
    What was read last time from the same files is taken from the cache (cache.py)."""
    kb, problems, _ = load_keyed(root, strict)
    return kb, problems


def load_keyed(root: Path | None = None, strict: bool = True, key: str = "") -> tuple[KnowledgeBase, list[Problem], str]:
    """`load`, and the knowledge cache's key of the folder as it was read ("" for no folder): what
    else the cache keeps of the folder (the rulesets) is then taken from the same files. `key`:
    the folder's key as the caller first found it, to read the files as they were then."""
    from . import cache

    root = Path(root) if root else knowledge_root()
    loaded = cache.kept_knowledge(root, key) if key else None
    if loaded is None:
        loaded, key = cache.cached_knowledge(root)
    if loaded is None:
        loaded = _read(root)
        cache.store_knowledge(root, key, loaded)
    kb, problems = loaded
    kb.root = root  # the same files may have been read from another folder last time
    if strict and problems:
        raise KnowledgeError(problems)
    return kb, problems, key


def _read(root: Path) -> tuple[KnowledgeBase, list[Problem]]:
    from referee_app.core.cache_files import sha256

    problems: list[Problem] = []
    digest = sha256()
    try:
        sources, langs, kinds = _read_sources(root, problems)
    except (OSError, YamlError) as exc:
        raise KnowledgeError([Problem("sources.yaml", getattr(exc, "line", 0), str(exc))]) from None
    clauses: dict[str, Clause] = {}
    for sid, src in sources.items():
        folder = root / sid
        files = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
        if not files:
            problems.append(Problem(f"{sid}/", 0, f"source '{sid}' has no clause files"))
        prev_key, prev_id = None, None
        pattern = re.compile(src.order)
        for path in files:
            rel = f"{sid}/{path.name}"
            raw_bytes = path.read_bytes()
            digest.update(rel.encode() + b"\0" + raw_bytes)
            try:
                data = load_file(path, rel)
            except YamlError as exc:
                problems.append(Problem(rel, exc.line, exc.problem))
                continue
            if not isinstance(data, dict) or not isinstance(data.get("clauses"), list):
                problems.append(Problem(rel, line_of(data, 1), "a clause file needs a 'clauses' list"))
                continue
            header = {"source": data.get("source", sid), "lang": data.get("lang", src.lang)}
            if header["source"] != sid:
                problems.append(Problem(rel, line_of(data, 1), f"file in folder '{sid}' declares source '{header['source']}'"))
            for raw in data["clauses"]:
                clause = _read_clause(raw, header, rel, langs, kinds, sources, problems)
                if clause is None:
                    continue
                if clause.id in clauses:
                    first = clauses[clause.id]
                    problems.append(Problem(rel, clause.line, f"duplicate id {clause.id} (first at {first.file}:{first.line})"))
                    continue
                clauses[clause.id] = clause
                m = pattern.match(clause.id.split(":", 1)[1])
                if m:
                    key = _order_key(m)
                    if prev_key is not None and not _not_before(key, prev_key):
                        problems.append(Problem(rel, clause.line, f"clause {clause.id} is out of order (after {prev_id})"))
                    prev_key, prev_id = key, clause.id
    _link(clauses, problems)
    glossary = _read_glossary(root, clauses, langs, problems, digest)
    _read_headings(root, clauses, langs, problems, digest)
    return KnowledgeBase(root, sources, clauses, langs, kinds, digest.hexdigest()[:16], glossary), problems


def _read_headings(root: Path, clauses, langs, problems: list[Problem], digest) -> None:
    """Gives each clause its heading in the other languages (headings.yaml: source -> heading -> {lang: text})."""
    path = root / "headings.yaml"
    if not path.is_file():
        return
    digest.update(b"headings.yaml\0" + path.read_bytes())
    try:
        data = load_file(path, "headings.yaml") or {}
    except YamlError as exc:
        problems.append(Problem("headings.yaml", exc.line, exc.problem))
        return
    used = {(c.source, c.title) for c in clauses.values()}
    for source, headings in data.items():
        for title, translations in (headings or {}).items():
            line = line_of(translations, line_of(headings))
            if (source, title) not in used:
                problems.append(Problem("headings.yaml", line, f"{source}: no clause stands under the heading {title!r}"))
                continue
            if not isinstance(translations, dict) or set(translations) - set(langs):
                problems.append(Problem("headings.yaml", line, f"{source}: {title!r} needs a mapping of languages"))
                continue
            for c in clauses.values():
                if c.source == source and c.title == title:
                    c.title_translations = {k: str(v) for k, v in translations.items() if v}


def _read_glossary(root: Path, clauses, langs, problems: list[Problem], digest) -> list[Term]:
    path = root / "glossary.yaml"
    if not path.is_file():
        problems.append(Problem("glossary.yaml", 0, "the glossary is missing"))
        return []
    digest.update(b"glossary.yaml\0" + path.read_bytes())
    try:
        data = load_file(path, "glossary.yaml")
    except YamlError as exc:
        problems.append(Problem("glossary.yaml", exc.line, exc.problem))
        return []
    data = data or {}   # an empty file: no term
    entries = data.get("terms", []) if isinstance(data, dict) else None
    if not isinstance(entries, list):
        problems.append(Problem("glossary.yaml", line_of(data, 1), "needs a 'terms' list"))
        return []
    terms, seen = [], set()
    for raw in entries:
        line = line_of(raw, line_of(data, 1))
        if not isinstance(raw, dict):
            problems.append(Problem("glossary.yaml", line, f"a term is a mapping (id and its words), not {raw!r:.40}"))
            continue
        tid = raw.get("id")
        if not tid:
            problems.append(Problem("glossary.yaml", line, "term without an id"))
            continue
        if tid in seen:
            problems.append(Problem("glossary.yaml", line, f"duplicate term {tid}"))
        seen.add(tid)
        words = {}
        for lang in langs:
            values = [str(w) for w in _as_list(raw.get(lang))]
            if not values:
                problems.append(Problem("glossary.yaml", line, f"term {tid}: no word in '{lang}'"))
            words[lang] = tuple(values)
        for target in _as_list(raw.get("defined_in")):
            if target not in clauses:
                problems.append(Problem("glossary.yaml", line, f"term {tid}: defined_in {target} points nowhere"))
        loose = tuple(str(w) for w in _as_list(raw.get("loose")))
        for word in loose:
            if not any(word in ws for ws in words.values()):
                problems.append(Problem("glossary.yaml", line, f"term {tid}: loose word '{word}' is none of its words"))
        terms.append(Term(tid, words, tuple(str(x) for x in _as_list(raw.get("defined_in"))), loose))
    return terms


def _dangling(c: Clause, clauses: dict[str, Clause]) -> list[str]:
    """What is wrong with one clause's cross-references."""
    said = []
    for target in c.corresponds_to:
        if target not in clauses:
            said.append(f"corresponds_to {target} points nowhere")
        elif target == c.id:
            said.append("corresponds_to itself")
    said += [f"exception_to {target} points nowhere" for target in c.exception_to if target not in clauses]
    for d in c.differs:
        said += [f"differs with {target} points nowhere" for target in _as_list(d.get("with")) if target not in clauses]
        if not d.get("note"):
            said.append("a 'differs' entry needs a 'note'")
    return said


def _link(clauses: dict[str, Clause], problems: list[Problem]) -> None:
    """Check every cross-reference, then make correspondence symmetric (declared once, seen both ways)."""
    for c in clauses.values():
        problems.extend(Problem(c.file, c.line, f"clause {c.id}: {problem}") for problem in _dangling(c, clauses))
    for c in list(clauses.values()):
        for other in (clauses[t] for t in c.corresponds_to if t in clauses):
            if c.id not in other.corresponds_to and other.id != c.id:
                other.corresponds_to.append(c.id)
        for d in c.differs:
            for other in (clauses[t] for t in _as_list(d.get("with")) if t in clauses):
                if not any(c.id in _as_list(x.get("with")) for x in other.differs):
                    other.differs.append({"with": c.id, "note": d.get("note", ""),
                                          **({"translations": d["translations"]} if d.get("translations") else {})})


def entry_line(root: Path | str, clause: Clause, field: str, n: int) -> int:
    """The line of the n-th (from 1) entry of a clause's `field` (decides, examples) in its file, or
    the clause's line. A knowledge base from the cache keeps no line inside a clause (cache.py),
    so the file is read again (from the cache too): only a problem to report needs it."""
    try:
        data = load_file(Path(root) / clause.file, clause.file)
    except (OSError, YamlError):
        return clause.line
    raws = data.get("clauses") if isinstance(data, dict) else None
    for raw in raws if isinstance(raws, list) else []:
        if isinstance(raw, dict) and str(raw.get("id")) == clause.id:
            entries = _as_list(raw.get(field))
            return line_of(entries[n - 1], clause.line) if 0 < n <= len(entries) else clause.line
    return clause.line
