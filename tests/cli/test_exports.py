"""Exports write all or nothing, and never over what is not a file (issue 21, "What failed" 5 and 12).

A directory, a missing folder, an empty name, a read-only place, a device or a file of /proc is
refused with one line; no temporary file is left behind; on a full disk the old file stays and
the command fails instead of reporting a cut-short PDF as written. User text in official PDFs is
isolated (Unicode bidi isolates), so a right-to-left override in a name cannot turn the text
after it around.
"""
from __future__ import annotations

import contextlib
import gc
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from referee_app.cli import main


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def records(tmp_path, monkeypatch, qapp):
    # qapp: the PDF writer needs a GUI application; made here it is the QApplication the widget
    # tests of the same process need (a bare QGuiApplication would abort them)
    monkeypatch.setenv("CARROM_REFEREE_DATABASE", str(tmp_path / "records.sqlite3"))
    code, out, err = run("matches", "new", "--first-name", "A. Rossi", "--second-name", "B. Dubois")
    assert code == 0, err
    return tmp_path


EXPORTS = {
    "blank form": lambda out: ["forms", "blank", "protest", "--pdf", out],
    "score sheet": lambda out: ["matches", "export", "1", "--pdf", out],
    "match json": lambda out: ["matches", "export", "1", "--out", out],
}


def leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".part")] if folder.is_dir() else []


@pytest.mark.parametrize("export", sorted(EXPORTS))
@pytest.mark.parametrize("target, words", [
    ("{dir}", "folder"), ("{tmp}/missing/x.pdf", "does not exist"), ("", "no file named"),
    ("/dev/full", "system file"), ("/dev/null", "system file"), ("/proc/self/comm", "system file"),
])
def test_targets_that_are_not_regular_files_are_refused(records, tmp_path, export, target, words):
    folder = tmp_path / "out"
    folder.mkdir()
    target = target.replace("{dir}", str(folder)).replace("{tmp}", str(tmp_path))
    code, _out, err = run(*EXPORTS[export](target))
    assert code == 2, err
    assert words in err and err.count("\n") == 1 and "internal error" not in err, err
    assert leftovers(folder) == [] and leftovers(tmp_path) == []
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")


@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_a_read_only_target_is_refused_and_kept(records, tmp_path, export):
    target = tmp_path / "old.pdf"
    target.write_bytes(b"the good old file")
    target.chmod(0o444)
    if os.access(target, os.W_OK):
        pytest.skip("running as root: file modes do not stop writes (the full-disk test covers a failed write)")
    code, _out, err = run(*EXPORTS[export](str(target)))
    assert code == 2 and "read-only" in err, err
    assert target.read_bytes() == b"the good old file"


@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_an_export_replaces_a_file_whole(records, tmp_path, export):
    target = tmp_path / "doc.out"
    target.write_bytes(b"old")
    code, _out, err = run(*EXPORTS[export](str(target)))
    assert code == 0, err
    data = target.read_bytes()
    assert data != b"old" and (data.startswith(b"%PDF-") or data.startswith(b"{"))
    assert leftovers(tmp_path) == []


@pytest.fixture
def tiny_disk(tmp_path):
    """A 200 KiB tmpfs: a PDF does not fit once a filler takes the rest."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("a full disk needs a small tmpfs, and mounting one needs root")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("this machine does not allow mounting a tmpfs (a container without the right)")
    try:
        yield mount
    finally:
        gc.collect()
        subprocess.run(["umount", str(mount)], capture_output=True)
        if os.path.ismount(mount):
            subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(folder: Path, leave: int) -> None:
    free = shutil.disk_usage(folder).free
    with open(folder / "filler", "wb") as f:
        f.write(b"\0" * max(0, free - leave))


@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_on_a_full_disk_the_old_file_stays_and_the_command_fails(records, tiny_disk, export):
    target = tiny_disk / "doc.out"
    target.write_bytes(b"the good old file")
    fill(tiny_disk, 600)  # a few hundred bytes: a PDF or an export starts, and is cut short
    code, _out, err = run(*EXPORTS[export](str(target)))
    assert code == 2, err
    assert err.count("\n") == 1 and "internal error" not in err, err
    assert target.read_bytes() == b"the good old file"
    assert leftovers(tiny_disk) == []


# -- bidi isolation --------------------------------------------------------------------------------

def test_user_text_is_isolated_so_an_override_cannot_escape_it():
    from referee_app.core.printing import esc

    out = esc("A\u202eB")
    assert out.startswith("\u2068") and out.endswith("\u2069")
    assert out.count("\u202e") == 1 and out.count("\u202c") == 1, "the override is closed inside the isolate"
    stray = esc("x\u2069\u202cy")
    assert stray == "\u2068xy\u2069", "a stray closer cannot end the isolate early"
    assert esc("Rossi") == "\u2068Rossi\u2069"


def test_an_override_in_a_name_does_not_reverse_the_rest_of_the_pdf(records, tmp_path):
    """The score sheet's title reads "Score sheet: FIRST – SECOND": an override typed in the first
    name once turned the second name around on paper."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    code, out, err = run("matches", "new", "--first-name", "Carla\u202e Martin", "--second-name", "Bruno Dubois")
    assert code == 0, err
    code, _out, err = run("matches", "export", out.strip(), "--pdf", str(tmp_path / "s.pdf"))
    assert code == 0, err
    text = subprocess.run(["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True).stdout
    assert "Bruno Dubois" in text, text[:300]
    assert "siobuD" not in text
