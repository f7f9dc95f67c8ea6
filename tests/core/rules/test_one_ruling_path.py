"""One ruling path: `rule --all-rulesets` is `rule --ruleset R` for every R, refusals included;
what a match previews is what it records, colours open included; the knowledge root is the one
its caller hands down (an edited copy, in this process)."""
from __future__ import annotations

import json

import pytest

from support.kbcopy import installed, knowledge_with_files, run_main
from referee_app.core.play.game import Game
from referee_app.core.play.match import Match
from referee_app.core.rules.compare import rule_everywhere

SITUATIONS = {
    "two own coins": {"before": {"own_on_board": 6, "opponent_on_board": 7}, "stroke": {"pocketed": {"own": 2}}},
    "queen too early": {"ruleset": "it", "before": {"own_on_board": 9, "opponent_on_board": 9},
                        "stroke": {"pocketed": {"queen": True}}},
    "board won": {"before": {"own_on_board": 1, "opponent_on_board": 3, "queen": "covered_by_striker",
                             "score": {"striker": 10, "opponent": 4}}, "stroke": {"pocketed": {"own": 1}}},
    "colours open, a dark coin": {"before": {"colours": "open"}, "stroke": {"pocketed": {"dark": 1}}},
    "colours open, both colours": {"before": {"colours": "open"},
                                   "stroke": {"pocketed": {"dark": 1, "light": 1}}},
    "a foul some rulesets do not know": {"before": {"own_on_board": 5, "opponent_on_board": 5},
                                         "stroke": {"pocketed": {}, "foul": "standing_up"}},
    "impossible everywhere": {"before": {"own_on_board": 1}, "stroke": {"pocketed": {"own": 3}}},
}


def _rule_one(path, ruleset: str) -> tuple[dict | None, str]:
    done = run_main(["rule", "--ruleset", ruleset, "--json", str(path)], installed())
    if done.returncode == 0:
        return json.loads(done.stdout), ""
    assert done.returncode == 2 and done.stdout == "", done
    return None, done.stderr.strip().removeprefix("carrom-referee: ")


@pytest.mark.parametrize("name", list(SITUATIONS))
def test_rule_all_rulesets_is_rule_ruleset_r_for_every_ruleset(tmp_path, name):
    path = tmp_path / "stroke.json"
    path.write_text(json.dumps(SITUATIONS[name]), encoding="utf-8")
    done = run_main(["rule", "--all-rulesets", "--json", str(path)], installed())
    assert done.returncode == 0, done.stderr
    everywhere = json.loads(done.stdout)
    assert [r["ruleset"] for r in everywhere] == list(installed().rulesets)   # the order of `rulesets`
    refused = 0
    for entry in everywhere:
        doc = {k: v for k, v in SITUATIONS[name].items() if k != "ruleset"}   # its own ruleset ignored
        one = tmp_path / f"{entry['ruleset']}.json"
        one.write_text(json.dumps(doc), encoding="utf-8")
        ruling, message = _rule_one(one, entry["ruleset"])
        if ruling is None:
            refused += 1
            assert entry == {"ruleset": entry["ruleset"], "refused": message}
        else:
            assert entry == ruling
    if name == "impossible everywhere":
        assert refused == len(everywhere)
    if name.startswith("colours open") or name.startswith("a foul"):
        assert 0 < refused < len(everywhere), "some rulesets rule it, others refuse it"


def test_rule_all_rulesets_in_words_names_each_ruleset_and_its_refusals(tmp_path):
    path = tmp_path / "stroke.yaml"
    path.write_text(json.dumps(SITUATIONS["colours open, a dark coin"]), encoding="utf-8")
    done = run_main(["rule", "--all-rulesets", str(path)], installed())
    assert done.returncode == 0, done.stderr
    for rid in installed().rulesets:
        assert f"== {rid}: {installed().ruleset_name(rid, 'en')}" in done.stdout
    assert "refused: before.colours: open, but under icf" in done.stdout


@pytest.mark.parametrize("argv", [["--ruleset", "icf"], ["--trace"]])
def test_rule_all_rulesets_refuses_what_only_one_ruling_can_say(tmp_path, argv):
    path = tmp_path / "stroke.json"
    path.write_text(json.dumps(SITUATIONS["two own coins"]), encoding="utf-8")
    done = run_main(["rule", "--all-rulesets", *argv, str(path)], installed())
    assert done.returncode == 2 and done.stderr.startswith("carrom-referee: --all-rulesets:")


def test_the_window_compares_an_open_stroke_with_the_colour_the_first_coin_gave():
    """The window's compare view (open_as_set) shows the rulesets whose colours are set from the
    start the stroke in own/opponent terms, where the contract's answer refuses it."""
    doc = SITUATIONS["colours open, a dark coin"]
    strict = {r["ruleset"]: r for r in rule_everywhere(installed(), doc)}
    shown = {r["ruleset"]: r for r in rule_everywhere(installed(), doc, open_as_set=True)}
    for rid, ruling in strict.items():
        if installed().colours(rid):
            assert shown[rid] == ruling and ruling["after"]["striker_colour"] == "dark"
        else:
            assert "refused" in ruling and "refused" not in shown[rid]


@pytest.mark.parametrize("ruleset,strokes", [
    ("icf", [{"pocketed": {"own": 2}}, {"pocketed": {"queen": True}}, {"pocketed": {"own": 1}}]),
    ("fr-house", [{"pocketed": {}}, {"pocketed": {"dark": 1}}, {"pocketed": {"light": 1, "dark": 1}}]),
    ("carom-bi", [{"pocketed": {"light": 2, "dark": 1}}, {"pocketed": {"own": 1}}]),
])
def test_what_a_match_previews_is_what_it_records_and_previewing_changes_nothing(ruleset, strokes):
    game = Game(installed(), ruleset)
    for stroke in strokes:
        before = json.dumps(game.report(), sort_keys=True)
        preview = game.preview(stroke)
        assert json.dumps(game.report(), sort_keys=True) == before, "a preview leaves the game as it was"
        assert game.preview(stroke, trace=True) == {**preview, "trace": game.preview(stroke, trace=True)["trace"]}
        assert game.play(stroke) == preview
    match = Match(installed(), ruleset)
    for stroke in strokes:
        assert match.preview(stroke) == match.play(stroke)


def test_an_open_stroke_previewed_names_the_colour_it_records():
    game = Game(installed(), "fr-house")
    assert game.colours_open()
    preview = game.preview({"pocketed": {"dark": 1}})
    assert preview["after"]["striker_colour"] == "dark" and game.colours_open()
    game.play({"pocketed": {"dark": 1}})
    assert not game.colours_open() and game.state.colours == {"first": "dark", "second": "light"}


def test_a_refused_preview_says_what_play_would_say():
    game = Game(installed(), "icf")
    with pytest.raises(Exception) as previewed:
        game.preview({"pocketed": {"own": 12}}, "board 1, stroke 1")
    with pytest.raises(Exception) as played:
        game.play({"pocketed": {"own": 12}}, "board 1, stroke 1")
    assert str(previewed.value) == str(played.value) and "board 1, stroke 1" in str(played.value)
    assert game.boards[-1].strokes == []


# --- the knowledge root, edited in this process -----------------------------------------------

def test_the_default_ruleset_is_the_knowledge_base_s(tmp_path):
    forms = (installed().root / "forms.yaml").read_text(encoding="utf-8")
    assert "\ndefault_ruleset: icf" in forms
    edited = knowledge_with_files(tmp_path, {"forms.yaml": forms.replace("\ndefault_ruleset: icf", "\ndefault_ruleset: it")})
    assert installed().default_ruleset == "icf" and edited.default_ruleset == "it"
    path = tmp_path / "stroke.json"
    path.write_text(json.dumps(SITUATIONS["two own coins"]), encoding="utf-8")
    assert json.loads(run_main(["rule", "--json", str(path)], edited).stdout)["ruleset"] == "it"
    assert json.loads(run_main(["rule", "--json", str(path)], installed()).stdout)["ruleset"] == "icf"
    assert Game(edited).ruleset == "it" and Match(edited).ruleset == "it"


def test_one_root_never_sees_what_another_compiled(tmp_path):
    name = installed().rulesets["icf"].raw["name"]["en"]
    text = (installed().root / "rulesets" / "icf.yaml").read_text(encoding="utf-8")
    edited = knowledge_with_files(tmp_path, {"rulesets/icf.yaml": text.replace(name, "Edited rules", 1)})
    assert installed().compiled("icf") is installed().compiled("icf")
    assert edited.compiled("icf") is not installed().compiled("icf")
    assert edited.ruleset_name("icf", "en") == "Edited rules" and installed().ruleset_name("icf", "en") == name


def test_names_of_rulesets_and_fouls_come_from_one_place():
    k = installed()
    assert k.ruleset_name("icf", "xx") == k.rulesets["icf"].name["en"]   # a language it lacks: English
    assert k.ruleset_name("gone", "fr") == "gone"                         # an old record's ruleset: its id
    foul = next(iter(k.compiled("icf").fouls.values()))
    assert k.foul_name("icf", foul["id"], "fr") == foul["name"]["fr"]
    assert k.foul_name("icf", "made_up", "fr") == "made up"                 # known to none: its id, in words
    # an old record's ruleset, or one that does not list the foul: named by a ruleset that does
    assert k.foul_name("gone", "improper_stroke", "fr") == k.foul_name("icf", "improper_stroke", "fr")
