"""A foul as the referee names it: by its name in any of the three languages, or by the
paragraph that defines it ("4.1.2", "ICF 3.11 e", "icf-fr:3.11.e"). Anything else is refused,
so a foul typed in a hurry is never silently dropped from the score sheet.
"""
from __future__ import annotations

import re
import unicodedata


def fold(text: str) -> str:
    """Lower case without accents or repeated spaces: how two spellings of one name compare."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().replace("«", '"').replace("»", '"').split())


def bare_name(name: str) -> str:
    """"Improper stroke (foul)" is also "Improper stroke"."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", name).strip()


def foul_matches(text: str, fouls: list[dict], kb) -> list[str]:
    """The ids of the fouls `text` may name: one when it names a foul, none or several otherwise.

    `fouls`: [{"id", "names": {lang: name}, "clauses": [clause ids]}], as the ruleset lists them;
    `kb`: the knowledge base whose paragraphs may be cited.
    """
    wanted = fold(text)
    by_name: dict[str, str] = {}
    for f in fouls:
        names = f.get("names") or f.get("name") or {}
        keys = {f["id"], f["id"].replace("_", " ")}
        for name in names.values():
            keys |= {name, bare_name(name)}
            paragraphs = ", ".join(f.get("clauses", []))
            keys.add(f"{name} ({paragraphs})")
        for key in keys:
            by_name.setdefault(fold(key), f["id"])
    for key in (wanted, fold(bare_name(text))):
        if key in by_name:
            return [by_name[key]]
    # a paragraph, cited as people cite it ("4.1.2", "ICF 3.11 e", "icf-fr:3.11.e"): one grammar,
    # the knowledge base's (core/knowledge/citations.py)
    from referee_app.core.knowledge.citations import parse

    cited = set(parse(text, kb)) | {text.strip()}
    hits = [f["id"] for f in fouls if cited & set(f.get("clauses", []))]
    return hits

