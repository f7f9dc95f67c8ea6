"""A checkout's .po catalogs are compiled once, and their messages kept in the user's cache folder
and taken from there while unchanged (no .po compiled, no .mo parsed); an edited catalog is
compiled anew, a damaged kept one is ignored and rewritten."""
from __future__ import annotations

import gettext
import shutil

import pytest

from referee_app import i18n

MESSAGE = "Ruleset:"


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """A copy of the checkout's catalogs, an empty cache folder, nothing compiled in memory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    po = tmp_path / "translations"
    shutil.copytree(i18n._CHECKOUT_PO, po)
    monkeypatch.setattr(i18n, "_CHECKOUT_PO", po)
    i18n.translations.cache_clear()
    yield po
    i18n.translations.cache_clear()


def compiled(tmp_path, lang="fr"):
    return sorted((tmp_path / "cache").rglob(f"catalog-{lang}-*.messages"))


def new_start():
    i18n.translations.cache_clear()


def test_a_compiled_catalog_is_kept_and_read_again_without_babel(catalogs, tmp_path, monkeypatch):
    french = i18n.translations("fr").gettext(MESSAGE)
    assert french != MESSAGE and len(compiled(tmp_path)) == 1
    new_start()
    import babel.messages.pofile as pofile

    monkeypatch.setattr(pofile, "read_po", lambda *a, **k: pytest.fail("compiled the catalog again"))
    monkeypatch.setattr(gettext.GNUTranslations, "_parse", lambda *a: pytest.fail("parsed a .mo again"))
    catalog = i18n.translations("fr")
    assert catalog.gettext(MESSAGE) == french
    # the plural forms and the header come back with the messages
    one, many = "({n} required reading not taken yet)", "({n} required readings not taken yet)"
    assert catalog.ngettext(one, many, 1).startswith("({n} mesure ") and "mesures" in catalog.ngettext(one, many, 2)
    assert catalog.charset() == "utf-8" and catalog.info()["language"] == "fr"


def test_an_edited_catalog_is_compiled_anew(catalogs, tmp_path):
    assert i18n.translations("fr").gettext(MESSAGE) != "Jeu de règles changé :"
    po = catalogs / "fr.po"
    text = po.read_text(encoding="utf-8")
    start = text.index(f'msgid "{MESSAGE}"\nmsgstr "') + len(f'msgid "{MESSAGE}"\nmsgstr "')
    po.write_text(text[:start] + "Jeu de règles changé :" + text[text.index('"', start):], encoding="utf-8")
    new_start()
    assert i18n.translations("fr").gettext(MESSAGE) == "Jeu de règles changé :"
    assert len(compiled(tmp_path)) == 2, "the previous one is kept for another checkout"


@pytest.mark.parametrize("damage", [lambda b: b[: len(b) // 2], lambda b: b[:40] + b"x" + b[41:], lambda b: b""])
def test_a_damaged_compiled_catalog_is_ignored_and_rewritten(catalogs, tmp_path, damage):
    french = i18n.translations("fr").gettext(MESSAGE)
    [mo] = compiled(tmp_path)
    mo.write_bytes(damage(mo.read_bytes()))
    new_start()
    assert i18n.translations("fr").gettext(MESSAGE) == french
    new_start()
    assert i18n.translations("fr").gettext(MESSAGE) == french and compiled(tmp_path) == [mo]


def test_an_unwritable_cache_folder_only_costs_time(catalogs, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert i18n.translations("it").gettext(MESSAGE) not in ("", MESSAGE)
