"""The knowledge root the tests rule with, and copies of the installed knowledge base with one
file of it rewritten, loaded in-process (no process needs starting for an edited knowledge base)."""
from __future__ import annotations

import shutil
from functools import lru_cache


@lru_cache(maxsize=1)
def installed():
    """The installed knowledge root, shared by the tests of one run (what a test makes from it, a
    compiled ruleset, is kept with it)."""
    from referee_app.core.knowledge.root import Knowledge

    return Knowledge.load()


def kb_copy(tmp_path, kb, files: dict[str, str]):
    """The folder of a copy of `kb` under tmp_path, each of `files` (path in the folder -> text)
    rewritten."""
    root = tmp_path / "knowledge"
    shutil.copytree(kb.root, root)
    for name, content in files.items():
        (root / name).write_text(content, encoding="utf-8")
    return root


def kb_with_file(tmp_path, kb, name: str, content: str):
    """The knowledge base `kb` copied under tmp_path, its file `name` replaced by `content`, loaded
    without stopping at the first problem (the caller asks which problems it has)."""
    from referee_app.core.knowledge.loader import load

    copy, _ = load(kb_copy(tmp_path, kb, {name: content}), strict=False)
    return copy


def knowledge_with_files(tmp_path, files: dict[str, str]):
    """A knowledge root over a copy of the installed one with `files` rewritten."""
    from referee_app.core.knowledge.root import Knowledge

    return Knowledge.load(kb_copy(tmp_path, installed().kb, files))


def run_main(argv: list[str], knowledge=None):
    """`carrom-referee ARGV` run in this process with `knowledge` (an edited copy, say), as a
    finished process: its status, standard output and standard error."""
    import contextlib
    import io
    import subprocess

    from referee_app.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv), knowledge=knowledge)
    return subprocess.CompletedProcess(["carrom-referee", *argv], status, out.getvalue(), err.getvalue())
