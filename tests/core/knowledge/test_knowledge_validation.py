"""Each kind of broken knowledge base is refused with its exact message: file, line, problem."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from referee_app.core.errors import KnowledgeError
from referee_app.core.knowledge.loader import load

from support.cli import run_cli

SOURCES = """\
sources:
  - id: icf-fr
    lang: fr
    title: Règles
    files: [000.txt]
    numbered: true
    order: '^(\\d+)(?:\\.(\\d+))?(?:\\.([a-z]))?(?:\\.(\\d+))?$'
  - id: it
    lang: it
    title: Regolamento
    files: [002.txt]
    numbered: true
    order: '^(\\d+)$'
languages: [fr, it, en]
kinds: [rule, definition]
"""
GLOSSARY = """\
terms:
  - id: queen
    fr: [reine]
    it: [regina]
    en: [queen]
    defined_in: [icf-fr:3.12.a]
"""
GOOD_FR = """\
source: icf-fr
lang: fr
clauses:
  - id: icf-fr:3.12.a
    paragraph: 3.12 a)
    title: La reine
    kind: rule
    text: Un joueur a le droit de loger la reine.
  - id: icf-fr:3.12.c
    paragraph: 3.12 c)
    title: La reine
    kind: rule
    text: Si un joueur loge la reine trop tôt, elle revient.
    corresponds_to: [it:68]
"""
GOOD_IT = """\
source: it
lang: it
clauses:
  - id: it:68
    paragraph: "68"
    title: La regina
    kind: rule
    text: Se un giocatore imbuca la Regina senza che abbia imbucato una sua pedina, torna al centro.
"""


def make_kb(tmp_path: Path, fr: str = GOOD_FR, it: str = GOOD_IT, glossary: str = GLOSSARY) -> Path:
    root = tmp_path / "knowledge"
    (root / "icf-fr").mkdir(parents=True)
    (root / "it").mkdir()
    (root / "sources.yaml").write_text(SOURCES)
    (root / "glossary.yaml").write_text(glossary)
    (root / "icf-fr" / "03-jeu.yaml").write_text(textwrap.dedent(fr))
    (root / "it" / "14-N-regina.yaml").write_text(textwrap.dedent(it))
    return root


def problems_of(root: Path) -> list[str]:
    _, problems = load(root, strict=False)
    return [str(p) for p in problems]


def test_a_sound_fixture_has_no_problem_and_links_both_ways(tmp_path):
    kb, problems = load(make_kb(tmp_path), strict=False)
    assert problems == []
    assert kb.clauses["it:68"].corresponds_to == ["icf-fr:3.12.c"]
    assert kb.glossary[0].preferred("it") == "regina"


# each case: a piece of the sound French file, what it is replaced by, and the exact error
@pytest.mark.parametrize("old,new,expected", [
    ("    kind: rule\n    text: Un joueur", "    text: Un joueur",
     "icf-fr/03-jeu.yaml:4: clause icf-fr:3.12.a: missing field 'kind'"),
    ("icf-fr:3.12.c\n", "icf-fr:3.12.a\n",
     "icf-fr/03-jeu.yaml:9: duplicate id icf-fr:3.12.a (first at icf-fr/03-jeu.yaml:4)"),
    ("[it:68]", "[it:99]",
     "icf-fr/03-jeu.yaml:9: clause icf-fr:3.12.c: corresponds_to it:99 points nowhere"),
    ("  - id: icf-fr:3.12.a\n", "  - id: icf-fr:3.12.a\n    source: icf-xx\n",
     "icf-fr/03-jeu.yaml:4: clause icf-fr:3.12.a: unknown source 'icf-xx'"),
    ("  - id: icf-fr:3.12.a\n", "  - id: icf-fr:3.12.a\n    lang: de\n",
     "icf-fr/03-jeu.yaml:4: clause icf-fr:3.12.a: unknown language 'de'"),
    ("icf-fr:3.12.c\n", "icf-fr:3.11.c\n",
     "icf-fr/03-jeu.yaml:9: clause icf-fr:3.11.c is out of order (after icf-fr:3.12.a)"),
    ("    kind: rule\n    text: Un joueur", "    kind: rule\n    txet: x\n    text: Un joueur",
     "icf-fr/03-jeu.yaml:4: clause icf-fr:3.12.a: unknown field 'txet'"),
    ("    kind: rule\n    text: Un joueur", "    kind: rules\n    text: Un joueur",
     "icf-fr/03-jeu.yaml:4: clause icf-fr:3.12.a: unknown kind 'rules'"),
    ("title: La reine\n    kind: rule\n    text: Si", "title: [La reine\n    kind: rule\n    text: Si",
     "icf-fr/03-jeu.yaml:12: not valid YAML: did not find expected ',' or ']'"),
])
def test_each_broken_fixture_gets_its_exact_error(tmp_path, old, new, expected):
    assert old in GOOD_FR
    root = make_kb(tmp_path, fr=GOOD_FR.replace(old, new))
    found = problems_of(root)
    assert expected in found, found


def test_a_glossary_citing_nothing_is_refused(tmp_path):
    root = make_kb(tmp_path, glossary=GLOSSARY.replace("icf-fr:3.12.a", "icf-fr:9.9"))
    assert "glossary.yaml:2: term queen: defined_in icf-fr:9.9 points nowhere" in problems_of(root)


@pytest.mark.parametrize("glossary, expected", [
    ("terms: not a list\n", "glossary.yaml:1: needs a 'terms' list"),
    ("- queen\n", "glossary.yaml:1: needs a 'terms' list"),
    ("terms:\n  - queen\n", "glossary.yaml:1: a term is a mapping (id and its words), not 'queen'"),
])
def test_a_glossary_of_the_wrong_shape_is_a_problem_not_a_crash(tmp_path, glossary, expected):
    assert expected in problems_of(make_kb(tmp_path, glossary=glossary))


def test_strict_loading_raises_with_every_problem(tmp_path):
    root = make_kb(tmp_path, fr=GOOD_FR.replace("[it:68]", "[it:99]"))
    with pytest.raises(KnowledgeError) as err:
        load(root)
    assert "corresponds_to it:99 points nowhere" in str(err.value)


def test_check_kb_reports_zero_problems_and_counts_every_source():
    done = run_cli("check-kb")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 problems" in done.stdout
    for source in ("icf-fr", "it", "aicf-2009", "fr-simplified", "fr-house", "carom-bi", "ffc-summary",
                   "ffc-tournament", "icf-proposal-2009"):
        line = next(ln for ln in done.stdout.splitlines() if ln.startswith(source + " "))
        assert int(line.split()[1]) > 0


def test_a_heading_translation_over_no_clause_is_refused(tmp_path):
    root = make_kb(tmp_path)
    (root / "headings.yaml").write_text('icf-fr:\n  "La reine": {it: "La regina", en: "The queen"}\n'
                                        '  "Le roi": {it: "Il re", en: "The king"}\n')
    kb, problems = load(root, strict=False)
    assert [str(p) for p in problems] == ["headings.yaml:3: icf-fr: no clause stands under the heading 'Le roi'"]
    assert kb.clauses["icf-fr:3.12.a"].title_in("en") == "The queen"
