"""Rewrite each command output pasted into the docs from the command itself.

    python tools/docs_outputs.py            # list the pasted outputs and whether each is current
    python tools/docs_outputs.py --write    # rerun each command and replace its block (atomically)
    python tools/docs_outputs.py --check    # exit 1 when a block differs from what its command prints now

A page pastes a command's Markdown between ``<!-- output: petheory ARGS (a note) -->`` and ``<!-- /output -->``
(docs/README.md). The command runs as a fresh clone would run it: in an empty folder that holds only the shipped
``records/`` (no ``runs/``, no ``results/``), so what the page shows is what a reader who clones the repository gets.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: An output block: its command (``petheory ARGS``, an optional note in parentheses after it) and its text.
BLOCK = re.compile(r"(<!-- output: petheory (?P<args>[^(>]*?)\s*(?:\([^>]*\))?\s*-->\n)(?P<text>.*?)(<!-- /output -->)",
                   re.S)


def pages() -> list[Path]:
    """The Markdown pages of the docs and the README."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def run(args: str) -> str:
    """What ``petheory ARGS`` prints on stdout, run in a folder that holds only the shipped ``records/``."""
    sys.path.insert(0, str(ROOT))
    from petheory.cli import main

    here = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(ROOT / "records", Path(tmp) / "records")
        out = io.StringIO()
        try:
            os.chdir(tmp)
            with contextlib.redirect_stdout(out):
                code = main(shlex.split(args))
        finally:
            os.chdir(here)
    if code != 0:
        raise SystemExit(f"petheory {args} exited {code}")
    return out.getvalue().strip("\n") + "\n"


def refreshed(text: str, outputs: dict | None = None) -> str:
    """``text`` with every output block replaced by what its command prints (``outputs``: args -> text, filled)."""
    outputs = {} if outputs is None else outputs

    def sub(m):
        args = m.group("args").strip()
        if args not in outputs:
            outputs[args] = run(args)
        return m.group(1) + outputs[args] + m.group(4)

    return BLOCK.sub(sub, text)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="rerun each command and replace its block")
    p.add_argument("--check", action="store_true", help="exit 1 when a block is stale")
    a = p.parse_args(argv)
    outputs, stale = {}, []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        if not BLOCK.search(text):
            continue
        new = refreshed(text, outputs)
        rel = page.relative_to(ROOT)
        if new != text:
            stale.append(rel)
            if a.write:
                from petheory.io import atomic_write_text

                atomic_write_text(page, new)
        print(f"{rel}: {'rewritten' if a.write and new != text else 'stale' if new != text else 'up to date'}")
    if a.check and stale:
        print("stale: run python tools/docs_outputs.py --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
