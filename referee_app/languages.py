"""The languages carrom-referee speaks: the one list that the interface, the knowledge base's
translations, the catalogs and every `--lang` option read. Plain data, so that the core and the
command line's parser import it without gettext, Babel or Qt.

To add a language: add it here, with its own name and its Babel locale, then give it a catalog
(`tools/update_catalogs.py`) and the knowledge base its texts (`knowledge/README.md`).
"""
from __future__ import annotations

LANGUAGES = ("fr", "it", "en")
# The language every text of the knowledge base has, and the one a missing translation falls back to.
FALLBACK = "en"
# Each language under its own name: a user who cannot read the current interface still finds theirs.
LANGUAGE_NAMES = {"fr": "Français", "it": "Italiano", "en": "English"}
# The Babel locale for dates and numbers. English uses British conventions (day before month,
# 24-hour clock), which is what carrom tournaments in Europe and India print.
LOCALES = {"fr": "fr_FR", "it": "it_IT", "en": "en_GB"}


def N_(message: str) -> str:
    """Marks a string for the catalogs (tools/update_catalogs.py) without translating it here."""
    return message


# Each language's name in English, marked for the catalogs: shown in the reader's language
# ("Traduction italienne"), unlike LANGUAGE_NAMES, which are for choosing a language.
LANGUAGE_LABELS = {"fr": N_("French"), "it": N_("Italian"), "en": N_("English")}
