"""Compiles the gettext catalogs into the package at build time (the .mo files are not committed)."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        here = Path(__file__).resolve().parent
        for po in sorted((here / "translations").glob("*.po")):
            lang = po.stem
            out = Path(self.build_lib) / "referee_app" / "locale" / lang / "LC_MESSAGES" / "carrom_referee.mo"
            out.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as f:
                catalog = read_po(f, locale=lang)
            with out.open("wb") as f:
                write_mo(f, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
