"""Every clause is quoted verbatim from its source, and every numbered paragraph is quoted."""
from __future__ import annotations

import re

import pytest

from support.sourcetext import as_printed, normalise, source_texts


@pytest.fixture(scope="module")
def texts(shared_dir, kb):
    return {sid: source_texts(shared_dir, src.files) for sid, src in kb.sources.items()}


def test_every_clause_text_occurs_in_its_source(kb, texts):
    missing = [f"{c.id} ({c.file}:{c.line}): {as_printed(c)[:80]!r}"
               for c in kb.clauses.values() if as_printed(c) not in texts[c.source]]
    assert not missing, f"{len(missing)} clause texts not found verbatim:\n" + "\n".join(missing[:40])


def test_every_mend_is_a_real_slip(kb, texts):
    """A mend must undo to the printed text, and the mended words must not be printed as such."""
    for c in kb.clauses.values():
        for mend in c.mended:
            assert str(mend["as"]) in c.text, f"{c.id}: mended text {mend['as']!r} not in the clause"
            assert normalise(str(mend["printed"])) in texts[c.source], f"{c.id}: {mend['printed']!r} is not printed"


def _numbered_paragraphs(shared_dir):
    """The numbered paragraphs the sources print, derived from the text files themselves."""
    src = (shared_dir / "sources" / "000_f76cd345fd7b091a.txt").read_text(encoding="utf-8")
    official = src[src.index("1. PRÉFACE\n\nLe jeu"):]
    found = set()
    sections, lettered = set(), set()
    section = None
    for line in official.splitlines():
        if re.match(r"^5 [-–] Expressions", line):
            break
        m = re.match(r"^(\d\.\d+(?:\.\d)?) [-–] ", line)
        if m:
            section = m.group(1)
            sections.add(section)
            continue
        if re.match(r"^4\. DES RÈGLES", line):
            section = "4"
            continue
        m = re.match(r"^\s*(?:- )?([a-z])\) ", line)
        if m and section:
            lettered.add(section)
            found.add(f"{section}.{m.group(1)}")
        m = re.match(r"^ (\d)\. ", line)
        if m and section == "3.11":
            found.add(f"3.11.i.{m.group(1)}")
    # A section printed with lettered paragraphs is quoted letter by letter; one without, whole.
    found |= sections - lettered
    ids = {f"icf-fr:{p}" for p in found}
    it = (shared_dir / "sources" / "002_dc143ab15af9fd97.txt").read_text(encoding="utf-8")
    ids |= {f"it:{n}" for n in range(1, 127) if re.search(rf"(?m)^(?:- )?{n}\. ", it)}
    aicf = (shared_dir / "sources" / "003_a4f8bd936f7e6b6b.txt").read_text(encoding="utf-8")
    aicf = aicf[aicf.index("NEW RULES"):aicf.index("My Comments")]
    ids |= {f"aicf-2009:{n}" for n in re.findall(r"(?m)^(\d+)\. ", aicf)}
    return ids


def test_every_numbered_paragraph_is_in_the_knowledge_base(shared_dir, kb):
    expected = _numbered_paragraphs(shared_dir)
    assert len([i for i in expected if i.startswith("it:")]) == 126
    assert len([i for i in expected if i.startswith("aicf-2009:")]) == 26
    missing = sorted(expected - set(kb.clauses))
    assert not missing, f"numbered paragraphs missing from the knowledge base: {missing}"
    empty = [i for i in expected if not kb.clauses[i].text.strip()]
    assert not empty
