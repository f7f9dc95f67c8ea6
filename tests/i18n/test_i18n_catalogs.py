"""The catalogs: every marked string is extracted, and translated in fr, it and en.

A string marked with `_()` but missing from a catalog, or only fuzzily translated, fails here:
run `tools/update_catalogs.py`, then fill the new msgstr entries.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tools"))
import update_catalogs  # noqa: E402  (the extraction the catalogs are made with)
from referee_app.languages import LANGUAGES  # noqa: E402

TRANSLATIONS = REPO / "translations"
PLACEHOLDER = re.compile(r"\{\w*\}")


def read(path: Path, locale=None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def key_of(message) -> tuple:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, msgid


@pytest.fixture(scope="module")
def template():
    return read(TRANSLATIONS / "carrom_referee.pot")


def test_the_template_holds_every_marked_string(template):
    """Extracted afresh from the source: a string marked since the last update is missing."""
    extracted = {(ctx, msg if isinstance(msg, str) else msg[0])
                 for _file, _line, msg, _comments, ctx in update_catalogs.extracted()}
    in_template = {key_of(m) for m in template if m.id}
    missing = sorted(m for _c, m in extracted - in_template)
    assert not missing, f"not in the .pot (run tools/update_catalogs.py): {missing}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_is_translated(template, lang):
    gaps = update_catalogs.missing(lang)
    assert not gaps, f"{lang}.po lacks a translation of: {gaps}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_placeholders(lang):
    """`{citation}` translated as `{citazione}` would raise KeyError at run time."""
    bad = []
    for message in read(TRANSLATIONS / f"{lang}.po", lang):
        if not message.id or not message.string or message.fuzzy:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            if set(PLACEHOLDER.findall(s)) - wanted or (wanted - {"{n}"}) - set(PLACEHOLDER.findall(s)):
                bad.append((ids[0], s))
    assert not bad, bad


def test_english_is_the_source_language():
    for message in read(TRANSLATIONS / "en.po", "en"):
        if message.id:
            assert message.string == message.id or tuple(message.string) == tuple(message.id), message.id


def test_mnemonics_stay_unique_in_each_menu_bar_language():
    """The menu titles' Alt+letter keys must not clash once translated."""
    from referee_app import i18n

    titles = ["&File", "&View", "&Go", "&Bookmarks", "&Help"]
    try:
        for lang in LANGUAGES:
            i18n.set_language(lang)
            letters = [i18n.gettext(t).split("&")[1][0].lower() for t in titles]
            assert len(set(letters)) == len(letters), (lang, letters)
    finally:
        i18n.set_language("en")



def test_strings_marked_inside_f_strings_are_extracted():
    """Babel's tokenizer misses `f"{_('Notes')}"` on Python 3.11; the catalogs' extractor does not."""
    import io

    code = b'x = f"<h3>{_(\'Notes\')}</h3>"\n# TRANSLATORS: a count\ny = ngettext("{n} coin", "{n} coins", 2)\n'
    found = list(update_catalogs.extract_python_ast(io.BytesIO(code), {"_": None, "ngettext": (1, 2)},
                                                    ("TRANSLATORS:",), {}))
    assert (1, "_", "Notes", []) in found
    assert (3, "ngettext", ("{n} coin", "{n} coins", None), ["TRANSLATORS: a count"]) in found
