"""Inserts `decides:` blocks (YAML text) after given clauses of the knowledge files.

usage: python tools/insert_decides.py SNIPPETS.yaml
SNIPPETS maps clause id -> the YAML text of the block (starting with `decides:`), which is
indented under the clause. A clause that already has a `decides:` key is left alone and named.
"""
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1] / "knowledge"


def main():
    snippets = yaml.safe_load(Path(sys.argv[1]).read_text())
    for path in sorted(ROOT.glob("*/*.yaml")):
        lines = path.read_text().splitlines(keepends=True)
        starts = [i for i, line in enumerate(lines) if re.match(r"  - id: ", line)]
        changed = False
        for k in reversed(range(len(starts))):
            i = starts[k]
            cid = lines[i].split("id:", 1)[1].strip().strip("'\"")
            if cid not in snippets:
                continue
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            block = "".join(lines[i:end])
            if re.search(r"(?m)^    decides:", block):
                print(f"{cid}: already has decides, left alone")
                del snippets[cid]
                continue
            while end > i and not lines[end - 1].strip():
                end -= 1
            text = "".join("    " + ln + "\n" if ln.strip() else "\n" for ln in snippets[cid].rstrip().splitlines())
            lines[end:end] = [text]
            changed = True
            del snippets[cid]
        if changed:
            path.write_text("".join(lines))
    for cid in snippets:
        print(f"{cid}: no such clause")


if __name__ == "__main__":
    main()
