"""A user's document that is plain JSON is read by the json module, as the YAML reader would read
it, and whatever the YAML path refuses in its own words is still refused in them."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import yaml

from referee_app.core import validation
from referee_app.core.knowledge.yamlio import YamlError, load_text

DOCUMENTS = [
    {"ruleset": "icf", "before": {"own_on_board": 6, "opponent_on_board": 7, "queen": "on_board"},
     "stroke": {"pocketed": {"own": 2, "queen": True}, "foul": None}},
    [1, -2, 3.5, "été", "2026-05-14", "", {"nested": [[], {}]}],
    {"facts": "Le joueur a dit « non »\nligne 2\t\u00e9", "score": [25, 24], "ratio": 0.125},
]


@pytest.mark.parametrize("doc", DOCUMENTS)
@pytest.mark.parametrize("indent", [None, 1])
def test_a_json_document_reads_as_the_yaml_reader_reads_it(doc, indent):
    text = json.dumps(doc, ensure_ascii=False, indent=indent)
    assert load_text(text, "doc.json", untrusted=True) == yaml.safe_load(text) == doc


@pytest.mark.parametrize("text, words", [
    ("[" * (validation.MAX_DEPTH + 1) + "]" * (validation.MAX_DEPTH + 1),
     f"nested too deeply (more than {validation.MAX_DEPTH} levels)"),
    ('{"own": ' + "9" * 150 + "}", "a number of 150 digits is not plausible"),
    ("[" + ",".join(["1"] * (validation.MAX_NODES + 1)) + "]", "too large"),
])
def test_json_the_yaml_path_refuses_is_refused_in_its_words(text, words):
    with pytest.raises(YamlError) as caught:
        load_text(text, "doc.json", untrusted=True)
    assert words in caught.value.problem


def test_what_only_json_would_read_is_read_as_yaml():
    # NaN is JSON's extension, a plain word to YAML; a comment is YAML's, and json refuses it
    assert load_text('{"own": NaN}', "doc", untrusted=True) == {"own": "NaN"}
    assert load_text('{"own": 2}  # two coins\n', "doc", untrusted=True) == {"own": 2}


def test_ruling_a_json_situation_does_not_import_the_yaml_reader(tmp_path):
    situation = tmp_path / "s.json"
    situation.write_text(json.dumps(DOCUMENTS[0]), encoding="utf-8")
    probe = ("import contextlib, io, sys\nfrom referee_app.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    code = main(['rule', '--json', {str(situation)!r}])\n"
             "print(code, 'yaml' in sys.modules)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    # the first start after an install reads the knowledge base's YAML into the cache; the next do not
    first, warm = (subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, env=env)
                   for _ in range(2))
    assert first.stdout.split() == ["0", "True"], first.stderr
    assert warm.stdout.split() == ["0", "False"], warm.stderr
