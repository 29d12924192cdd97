"""The docs' tutorial runs as written: every ``python`` block of docs/tutorial.md, in order, in one namespace,
from the clone's root (it reads a shipped config.json)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_tutorial_runs_as_written(monkeypatch, capsys):
    text = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/tutorial.md", "exec"), namespace)  # noqa: S102 - the page's own code
    out = capsys.readouterr().out
    assert "29 x sliding_attention" in out and "5 x full_attention: rope_pi" in out
