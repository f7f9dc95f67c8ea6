"""`carrom-referee search` through the real command: the public cases of ../shared/cases/search.yaml,
the same queries in the two other languages, the JSON and text formats, and bad options."""
from __future__ import annotations

import json

import pytest
import yaml

from support.cli import SHARED, run_cli
from referee_app.core.search import LANGS

# Each public query, as a referee would type it in the two other languages. A public case without
# its two translations here fails test_every_public_case_has_its_translations.
TRANSLATIONS = {
    "reine confirmer": {"it": "regina confermare", "en": "queen cover"},
    "queen": {"fr": "reine", "it": "regina"},
    "pedine fuori board": {"fr": "jetons hors du plateau", "en": "coins off the board"},
    "time between sets": {"fr": "temps entre les sets", "it": "tempo tra i set"},
    "filet": {"it": "retina", "en": "net"},
}


def _public_cases():
    path = SHARED / "cases" / "search.yaml"
    if not path.is_file():  # the shared_dir fixture then skips, or fails under CI
        return [pytest.param(None, id="no-shared-cases")]
    return [pytest.param(c, id=c["query"]) for c in yaml.safe_load(path.read_text(encoding="utf-8"))]


def _translated_cases():
    out = []
    for case in _public_cases():
        if case.values[0] is None:
            return [case]
        for lang, query in TRANSLATIONS.get(case.values[0]["query"], {}).items():
            out.append(pytest.param(dict(case.values[0], query=query), id=f"{lang}: {query}"))
    return out


@pytest.fixture(scope="module")
def cli_cache(tmp_path_factory):
    """The user folders, for the whole module, in a temporary place (as the user_dirs fixture does
    per test): every command of this module shares one index, built by the first."""
    base = tmp_path_factory.mktemp("user")
    with pytest.MonkeyPatch.context() as mp:
        for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")):
            (base / sub).mkdir()
            mp.setenv(var, str(base / sub))
        yield base


def search(*args):
    """Run `carrom-referee search --json ARGS` and return its hits."""
    p = run_cli("search", "--json", *args)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    return json.loads(p.stdout)


def check_case(case) -> list[str]:
    """The checks of ../shared/tools/run_cases.py, on the command's answer."""
    args = ["--limit", str(case.get("top", 10))]
    if case.get("lang"):
        args += ["--lang", case["lang"]]
    hits = search(*args, case["query"])[: case.get("top", 10)]
    ids = [h["id"] for h in hits]
    problems = []
    if "any_id" in case and not set(ids) & set(case["any_id"]):
        problems.append(f"none of {case['any_id']} in the top {case.get('top', 10)}: {ids}")
    if "any_source" in case and not {h["source"] for h in hits} & set(case["any_source"]):
        problems.append(f"no hit from {case['any_source']}: {ids}")
    if "all_lang" in case and any(h["lang"] != case["all_lang"] for h in hits):
        problems.append(f"hits outside {case['all_lang']}: {[h['lang'] for h in hits]}")
    if case.get("lang") and any(h["lang"] != case["lang"] for h in hits):
        problems.append(f"--lang {case['lang']} let through {[h['lang'] for h in hits]}")
    return problems


@pytest.mark.parametrize("case", _public_cases())
def test_public_case(shared_dir, cli_cache, case):
    assert not check_case(case)


@pytest.mark.parametrize("case", _translated_cases())
def test_public_case_in_another_language(shared_dir, cli_cache, case):
    assert not check_case(case)


def test_every_public_case_has_its_translations(shared_dir):
    cases = yaml.safe_load((shared_dir / "cases" / "search.yaml").read_text(encoding="utf-8"))
    for case in cases:
        given = set(TRANSLATIONS.get(case["query"], {}))
        assert len(given) == 2 and given <= set(LANGS), f"translate {case['query']!r} into two languages"


# --- Formats -----------------------------------------------------------------------------------

def test_json_hits_have_the_contract_fields(cli_cache, kb):
    hits = search("--limit", "5", "queen", "cover")
    assert 0 < len(hits) <= 5
    for h in hits:
        assert {"id", "source", "lang", "title", "snippet", "score"} <= set(h)
        assert h["id"] in kb.clauses and h["source"] == kb.clauses[h["id"]].source
    assert [h["score"] for h in hits if h["match"] == "exact"] == \
           sorted((h["score"] for h in hits if h["match"] == "exact"), reverse=True)


def test_several_arguments_are_one_query(cli_cache):
    assert search("reine", "confirmer") == search("reine confirmer")


@pytest.mark.parametrize("query", ["", "zzqxw", "!!!"])
def test_nothing_to_find_is_an_empty_array(cli_cache, query):
    assert search(query) == []


def test_the_readable_list_numbers_each_hit_with_its_snippet(cli_cache):
    hits = search("--limit", "3", "filet")
    p = run_cli("search", "--limit", "3", "filet")
    assert p.returncode == 0, p.stderr
    for n, h in enumerate(hits, 1):
        assert f"{n:2}. {h['id']}" in p.stdout
    assert "**" in p.stdout  # piped: the matches keep their markers


def test_the_readable_list_says_when_nothing_matches(cli_cache):
    p = run_cli("search", "zzqxw")
    assert p.returncode == 0 and p.stdout.strip() == "No match for: zzqxw\nNo clause matches."


def test_words_that_match_nothing_are_said_and_the_json_stays_an_array(cli_cache):
    p = run_cli("search", "--json", "reine", "zzqxw")
    assert p.returncode == 0 and p.stderr.strip() == "No match for: zzqxw"
    hits = json.loads(p.stdout)
    assert isinstance(hits, list) and hits
    p = run_cli("search", "reine", "zzqxw")
    assert p.stdout.startswith("No match for: zzqxw\n")


def test_a_citation_searched_from_the_command_line_gives_its_clause(cli_cache):
    hits = search("ICF 3.12 e")
    assert [(h["id"], h["match"], h["cite"]) for h in hits] == [("icf-fr:3.12.e", "citation", "ICF 3.12 e")]


@pytest.mark.parametrize("option,value", [("--lang", "fr"), ("--lang", "it"), ("--lang", "en"),
                                          ("--source", "icf-fr"), ("--ruleset", "it")])
def test_each_filter_through_the_command(cli_cache, option, value):
    from support.kbcopy import installed

    hits = search(option, value, "--limit", "20", "queen", "regina", "reine")
    assert hits
    if option == "--lang":
        assert {h["lang"] for h in hits} == {value}
    elif option == "--source":
        assert {h["source"] for h in hits} == {value}
    else:
        rulesets = installed().rulesets
        assert {h["source"] for h in hits} <= set(rulesets[value].all_sources(rulesets))


@pytest.mark.parametrize("args,option", [(["--ruleset", "nope"], "--ruleset"), (["--source", "nope"], "--source"),
                                         (["--limit", "0"], "--limit"), (["--lang", "de"], "--lang"),
                                         (["--limit", "ten"], "--limit")])
def test_a_bad_option_exits_2_naming_it(cli_cache, args, option):
    p = run_cli("search", "--json", *args, "reine")
    assert p.returncode == 2
    assert option in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_a_query_is_required(cli_cache):
    p = run_cli("search", "--json")
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_without_lang_the_hits_are_in_the_query_s_language_the_original_named(cli_cache):
    hits = search("--limit", "5", "regina", "imbucata", "senza", "pedina")
    assert hits and all(h["lang"] == "it" for h in hits)
    assert all(h["original_lang"] in ("fr", "it", "en") and h["official"] is (h["original_lang"] == "it")
               for h in hits)
