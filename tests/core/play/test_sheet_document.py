"""The printed score sheet (core/play/sheet_document.py): what each part says, in the sheet's
language, with every name escaped."""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest

from referee_app.core.play.match import Match, board_rows
from referee_app.core.play.sheet_document import sheet_html
from support.kbcopy import installed

PRINTED = datetime(2026, 5, 14, 15, 42, tzinfo=timezone.utc)
BOARD = [{"pocketed": {"own": 1}}, {"pocketed": {"queen": True}}] + [{"pocketed": {"own": 1}}] * 8


def _text(html: str) -> str:
    """The sheet as a reader sees it: tags and direction isolates gone, cells apart."""
    text = re.sub(r"<style>.*</style>", "", html.replace("\u2068", "").replace("\u2069", ""), flags=re.S)
    return re.sub(r"\s*(<[^>]+>\s*)+", " | ", text).strip(" |")


@pytest.fixture(scope="module")
def whole_match():
    match, strokes = Match(installed(), "icf"), []
    while not match.over:
        stroke = BOARD[len(strokes) % len(BOARD)]
        match.play(stroke)
        strokes.append(stroke)
    return match, strokes


def test_the_header_names_the_sides_and_what_is_known_of_the_match():
    meta = {"ruleset": "icf", "first_name": "Ann <&>", "tournament": "Open", "round": 3, "table_no": 2,
            "referee": "Rita"}
    html, title = sheet_html(installed(), meta, [], "en", None, PRINTED)
    assert title == "Score sheet: Ann <&> – Second"
    assert "Ann <&>" not in html and "Ann &lt;&amp;&gt;" in html
    text = _text(html)
    for shown in ("Tournament | Open", "Round | 3", "Table | 2", "Referee | Rita",
                  "Ruleset | International rules (ICF)", "Singles | ✓", "Printed | 14 May 2026, 15:42:00"):
        assert shown in text, shown
    assert "No stroke has been recorded yet." in text
    assert "Game 1" not in text and "Match not finished: games won 0 to 0." in text
    assert text.endswith("Referee (Rita) | ______________________________")


def test_what_is_not_known_is_left_out():
    text = _text(sheet_html(installed(), {"doubles": True}, [], "en", None, PRINTED)[0])
    assert "Tournament" not in text and "Round" not in text and "Doubles | ✓" in text
    assert "Referee | Rita" not in text and text.endswith("Referee | ______________________________")


def test_each_stroke_has_its_row_with_its_ruling_and_clauses():
    strokes = [{"pocketed": {"own": 1}}, {"pocketed": {"queen": True}}, {"pocketed": {}, "foul": "improper_stroke"}]
    text = _text(sheet_html(installed(), {"ruleset": "icf", "first_name": "Ann"}, strokes, "en", None, PRINTED)[0])
    assert "1 | 1.1 | Ann | 1 own | Nothing goes back to the centre. The striking side plays again. | " \
           "ICF 3.6 a, ICF 3.5 c" in text
    assert "2 | 1.1 | Ann | queen | " in text
    assert re.search(r"3 \| 1\.1 \| Ann \| foul: [^|]+ \|", text)
    assert "Game 1 not finished: 0 to 0." in text


def test_a_whole_match_gives_its_boards_games_and_winner(whole_match):
    match, strokes = whole_match
    text = _text(sheet_html(installed(), {"ruleset": "icf", "first_name": "Ann", "second_name": "Bob"}, strokes, "en", None,
                            PRINTED)[0])
    winner = {"first": "Ann", "second": "Bob"}[match.winner]
    won = match.games_won
    assert f"Match won by {winner}, {max(won.values())} games to {min(won.values())}." in text
    for i, game in enumerate(match.games, 1):
        if game.over:
            assert f"Game {i}: {'Ann' if game.winner == 'first' else 'Bob'} wins, " \
                   f"{game.score['first']} to {game.score['second']}." in text
    boards = text[text.index("| Boards |"):text.index("| Result |")]
    assert len(re.findall(r"\| \d+\.\d+ \| (?:Ann|Bob) \|", boards)) == len(board_rows(installed(), "icf", False, strokes)) > 1


def test_a_change_of_ruleset_is_said_after_the_result():
    events = [{"kind": "ruleset", "detail": {"after_stroke": 2, "from": "icf", "to": "it"}}, {"kind": "note", "detail": {}},
              {"kind": "ruleset", "detail": {"from": "it", "to": "icf"}}]
    text = _text(sheet_html(installed(), {"ruleset": "icf"}, [], "en", events, PRINTED)[0])
    assert "After stroke 2 the ruleset was changed from International rules (ICF) to Italian regulation." in text
    assert "After stroke ? the ruleset was changed from Italian regulation to International rules (ICF)." in text
    assert text.index("Match not finished") < text.index("After stroke 2") < text.index("Signatures")


@pytest.mark.parametrize("lang,words", [("fr", ("Feuille de match", "Règlement italien")),
                                        ("xx", ("Score sheet", "Italian regulation"))])
def test_the_sheet_is_in_its_language(lang, words):
    events = [{"kind": "ruleset", "detail": {"after_stroke": 2, "from": "icf", "to": "it"}}]
    html, title = sheet_html(installed(), {"ruleset": "icf"}, [], lang, events, PRINTED)
    assert title.startswith(words[0]) and words[1] in _text(html)
