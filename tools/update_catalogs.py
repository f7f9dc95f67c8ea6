#!/usr/bin/env python3
"""Re-extract the interface strings and bring the three catalogs up to date.

    .venv/bin/python tools/update_catalogs.py           # extract, update fr/it/en, list what is missing
    .venv/bin/python tools/update_catalogs.py --check   # the same, exit 1 if a translation is missing

Every `_()`, `ngettext()`, `pgettext()` and `N_()` string under referee_app/ goes into
translations/carrom_referee.pot; fr.po and it.po gain the new entries with an empty msgstr
for a translator to fill (a changed string keeps its old translation marked fuzzy, which counts
as missing until someone checks it); en.po is the source language, so it is filled with the
English strings themselves. Locations are written without line numbers, so that moving code
does not rewrite the catalogs. tests/i18n/test_i18n_catalogs.py fails while anything is missing.

The files to read come from babel.cfg, as for `pybabel extract -F babel.cfg`; but the Python
files are read with `extract_python_ast` below rather than Babel's tokenizer, which on Python
3.11 does not see a string marked inside an f-string (`f"<h3>{_('Notes')}</h3>"`).
"""
from __future__ import annotations

import ast
import contextlib
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import CommandLineInterface, parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from referee_app.languages import LANGUAGES  # noqa: E402  (the catalogs are those of the product's languages)

TRANSLATIONS = REPO / "translations"
POT = TRANSLATIONS / "carrom_referee.pot"
SOURCE_LANGUAGE = "en"


def pybabel(*args: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            CommandLineInterface().run(["pybabel", "-q", *args])
        except SystemExit as exc:
            if exc.code:
                raise SystemExit(f"pybabel {args[0]} failed:\n{err.getvalue()}") from None


COMMENT_TAG = "TRANSLATORS:"


def extract_python_ast(fileobj, keywords, comment_tags, options):
    """A Babel extraction method reading Python with `ast`: every call of a marker function
    (`_`, `ngettext`, `i18n.pgettext`…), wherever it stands, f-strings included. Yields what
    Babel's own python method yields: line, function name, its arguments (None where not a
    literal string), and the translator comments on the lines just above."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in keywords:
            continue
        args = tuple(a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args)
        if not any(args):
            continue
        comments, row = [], node.lineno - 2
        while row >= 0 and lines[row].strip().startswith("#"):
            text = lines[row].strip().lstrip("#").strip()
            comments.insert(0, text)
            row -= 1
        tagged = [c for c in comments if any(c.startswith(t) for t in comment_tags)]
        yield node.lineno, name, args if len(args) > 1 else args[0], tagged


def extracted():
    """(file, line, message, comments, context) for every marked string of babel.cfg's files."""
    with (REPO / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    method_map = [(pattern, extract_python_ast if method == "python" else method) for pattern, method in method_map]
    return extract_from_dir(str(REPO), method_map, options_map, keywords=DEFAULT_KEYWORDS,
                            comment_tags=(COMMENT_TAG,), strip_comment_tags=True)


def extract() -> None:
    catalog = Catalog(project="carrom-referee", copyright_holder="carrom-referee", charset="utf-8")
    for filename, _line, message, comments, context in extracted():
        catalog.add(message, None, [(filename, None)], auto_comments=comments, context=context)
    if POT.exists():
        with POT.open("rb") as f:
            if _entries(catalog) == _entries(read_po(f)):
                return  # nothing new: keep the file, and its date, as it is
    with POT.open("wb") as f:
        write_po(f, catalog, width=76, sort_output=True, include_lineno=False)


def _entries(catalog) -> list[tuple]:
    return sorted((str(m.context), str(m.id), tuple(sorted(f for f, _ in m.locations)), tuple(m.auto_comments))
                  for m in catalog if m.id)


def update(lang: str) -> None:
    po = TRANSLATIONS / f"{lang}.po"
    if po.exists():
        pybabel("update", "-i", str(POT), "-o", str(po), "-l", lang, "--ignore-obsolete")
    else:
        pybabel("init", "-i", str(POT), "-o", str(po), "-l", lang)


def fill_source_language() -> None:
    """English is the language the strings are written in: its catalog repeats them."""
    po = TRANSLATIONS / f"{SOURCE_LANGUAGE}.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=SOURCE_LANGUAGE)
    for message in catalog:
        if not message.id:
            continue
        message.string = tuple(message.id) if message.pluralizable else message.id
        message.flags.discard("fuzzy")
    with po.open("wb") as f:
        write_po(f, catalog, width=76, sort_output=True, include_previous=False)


def missing(lang: str) -> list[str]:
    """The msgids of the .pot that `lang`'s catalog does not translate (or only fuzzily)."""
    with POT.open("rb") as f:
        template = read_po(f)
    with (TRANSLATIONS / f"{lang}.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found is not None else None
        strings = strings if isinstance(strings, (tuple, list)) else (strings,)
        if found is None or found.fuzzy or not all(strings):
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    TRANSLATIONS.mkdir(exist_ok=True)
    extract()
    for lang in LANGUAGES:
        update(lang)
    fill_source_language()
    status = 0
    for lang in LANGUAGES:
        gaps = missing(lang)
        print(f"{lang}.po: {'complete' if not gaps else f'{len(gaps)} string(s) to translate'}")
        for msgid in gaps:
            print(f"    {msgid!r}")
        status |= bool(gaps)
    return 1 if status and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main())
