"""A copy of the installed knowledge base in a test's folder, with one file of it rewritten."""
from __future__ import annotations

import shutil


def kb_with_file(tmp_path, kb, name: str, content: str):
    """The knowledge base `kb` copied under tmp_path, its file `name` replaced by `content`, loaded
    without stopping at the first problem (the caller asks which problems it has)."""
    from referee_app.core.knowledge.loader import load

    root = tmp_path / "knowledge"
    shutil.copytree(kb.root, root)
    (root / name).write_text(content, encoding="utf-8")
    copy, _ = load(root, strict=False)
    return copy
