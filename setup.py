"""Lists the packages, the knowledge base's folders among them, and compiles the gettext catalogs
into the package at build time (the .mo files are not committed)."""
from pathlib import Path

from setuptools import find_packages, setup
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


def knowledge_folders() -> list[str]:
    """knowledge/ ships as referee_app.knowledge, each of its folders as a data package of it."""
    here = Path(__file__).resolve().parent / "knowledge"
    return sorted(f"referee_app.knowledge.{d.name}" for d in here.iterdir() if d.is_dir())


setup(packages=find_packages(include=["referee_app", "referee_app.*"]) + ["referee_app.schemas", "referee_app.schemas.knowledge",
                                                                         "referee_app.knowledge"]
      + knowledge_folders(),
      package_data={"referee_app": ["locale/*/LC_MESSAGES/*.mo", "icons/*"], "referee_app.schemas": ["*.json"],
                    "referee_app.schemas.knowledge": ["*.json"],
                    "referee_app.knowledge": ["*.yaml", "*.md"],
                    **{folder: ["*.yaml"] for folder in knowledge_folders()}},
      cmdclass={"build_py": BuildWithCatalogs})
