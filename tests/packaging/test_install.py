"""A plain (non-editable) install ships the knowledge base: `rulebook --json` works anywhere, and
building it says nothing to worry whoever installs it."""
from __future__ import annotations

import json
import os
import re
import site
import subprocess
import sys
import sysconfig

import pytest

from support.cli import REPO


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The package built and installed from the repository into a folder of its own, and a
    Python that sees it and the dependencies but not the editable checkout."""
    root = tmp_path_factory.mktemp("install")
    target = root / "lib"
    # verbose: pip hides what the build backend prints unless asked
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--verbose", "--no-deps", "--no-build-isolation",
                           "--target", str(target), str(REPO)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    purelib = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # the dependencies, as a plain path: the checkout's editable-install hooks there are not run
    deps = [p for p in site.getsitepackages() if p.endswith("site-packages")] or [sysconfig.get_paths()["purelib"]]
    with open(os.path.join(purelib, "deps.pth"), "w") as f:
        f.write("\n".join(deps) + "\n")
    return venv / "bin" / "python", target, root, done.stdout + done.stderr


# What setuptools says when the configuration is out of date or data would be left out of the
# build: a deprecated license table, a data folder "absent from the `packages` configuration"
# (it "would be ignored"), any SetuptoolsWarning. pip's own notes on its index locations and
# distutils' "byte-compiling is disabled" are not about the project.
SETUPTOOLS_WARNING = re.compile(r"Setuptools\w*Warning|_DeprecatedConfig|would be ignored|absent from the `packages`")


def test_the_build_prints_no_setuptools_warning(installed):
    output = installed[3]
    warnings = [line.strip() for line in output.splitlines() if SETUPTOOLS_WARNING.search(line)]
    assert not warnings, "\n".join(warnings[:10])
    assert "Successfully installed carrom-referee" in output


def test_rulebook_works_from_any_directory_after_a_plain_install(installed):
    python, target, root, _output = installed
    env = dict(os.environ, PYTHONPATH=str(target))
    code = "import sys; from referee_app.cli import main; sys.exit(main(['rulebook', '--json']))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True, env=env, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    records = json.loads(done.stdout)
    assert len(records) > 500 and records[0]["id"].startswith(("fr-simplified", "icf-fr"))
    where = subprocess.run([str(python), "-c", "import referee_app; print(referee_app.__file__)"],
                           capture_output=True, text=True, env=env, cwd=root).stdout
    assert where.startswith(str(target)), f"imported the checkout, not the install: {where}"
    assert (target / "referee_app" / "knowledge" / "sources.yaml").is_file()
    shipped = {p.relative_to(target / "referee_app" / "knowledge") for p in (target / "referee_app" / "knowledge").rglob("*.yaml")}
    in_checkout = {p.relative_to(REPO / "knowledge") for p in (REPO / "knowledge").rglob("*.yaml")}
    assert shipped == in_checkout, f"left out of the install: {sorted(map(str, in_checkout - shipped))[:5]}"
    assert list((target / "referee_app" / "locale").glob("*/LC_MESSAGES/carrom_referee.mo")), \
        "the catalogs are compiled at build time and shipped"


def test_the_schema_migrations_ship_and_run_after_a_plain_install(installed, tmp_path):
    python, target, root, _output = installed
    env = dict(os.environ, PYTHONPATH=str(target))
    code = ("import sys; from referee_app.core.storage.database import Database; "
            "from referee_app.core.storage import migrations; d = Database(sys.argv[1]); "
            "print(d.revision(), migrations.HEAD, migrations.FOLDER)")
    done = subprocess.run([str(python), "-c", code, str(tmp_path / "records.sqlite3")], capture_output=True, text=True,
                          env=env, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    revision, head, folder = done.stdout.split()
    assert revision == head and folder.startswith(str(target)), done.stdout
