"""Dates and numbers in the chosen locale, and the catalogs at run time; none of it needs Qt."""
from __future__ import annotations

import subprocess
import sys
from datetime import date, datetime, timedelta, timezone

import pytest

from referee_app import i18n

WHEN = datetime(2026, 5, 14, 15, 42, tzinfo=timezone(timedelta(hours=2)))


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang, expected", [("fr", "14 mai 2026, 15:42:00"), ("it", "14 mag 2026, 15:42:00"),
                                            ("en", "14 May 2026, 15:42:00")])
def test_format_datetime_keeps_the_announced_time(lang, expected):
    assert i18n.format_datetime(WHEN, lang=lang) == expected


def test_formats_follow_the_interface_language():
    i18n.set_language("fr")
    assert i18n.format_decimal(1234.5) == "1\u202f234,5"
    assert i18n.format_date(date(2026, 5, 14), format="short") == "14/05/2026"
    assert i18n.format_time(WHEN) == "15:42"
    i18n.set_language("it")
    assert i18n.format_decimal(1234.5) == "1.234,5"
    i18n.set_language("en")
    assert i18n.format_decimal(1234.5) == "1,234.5"


def test_decimal_digits_and_units():
    assert i18n.format_decimal(4.1, lang="fr", digits=2) == "4,10"
    assert i18n.format_decimal(4.126, lang="en", digits=2) == "4.13"
    assert i18n.format_unit(14.8, "g", lang="it") == "14,8\u00a0g"


def test_catalogs_are_read_from_the_checkout():
    i18n.set_language("fr")
    assert i18n.gettext("Rulebook") == "Règlement"
    assert i18n.ngettext("{n} result", "{n} results", 2).format(n=2) == "2 résultats"
    i18n.set_language("it")
    assert i18n.gettext("Rulebook") == "Regolamento"
    assert i18n.ngettext("{n} result", "{n} results", 1).format(n=1) == "1 risultato"


def test_listeners_hear_every_change_and_can_leave():
    heard = []
    remove = i18n.on_language_changed(heard.append)
    i18n.set_language("it")
    remove()
    i18n.set_language("fr")
    assert heard == ["it"]
    with pytest.raises(ValueError):
        i18n.set_language("de")


def test_formatting_does_not_import_qt():
    code = ("import sys; from referee_app import i18n; from datetime import datetime; "
            "i18n.format_datetime(datetime(2026, 1, 2)); i18n.format_decimal(1.5); "
            "print(any(m.startswith('PySide6') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
