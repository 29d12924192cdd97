"""Shared helpers of the hostile-input suite (tests/test_hostile_*.py)."""

from __future__ import annotations

import os
from pathlib import Path

from petheory.cli import main


def cli(capsys, *argv):
    """Run ``petheory ARGV`` in-process; returns (exit code, stdout, stderr)."""
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def refused(capsys, *argv, match: str | tuple = ()) -> str:
    """Assert ``petheory ARGV`` exits 2 with one ``petheory: error:`` line (no traceback) containing ``match``."""
    rc, out, err = cli(capsys, *argv)
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err and "Traceback" not in out, err
    assert len(lines) == 1 and lines[0].startswith("petheory"), err
    for m in (match,) if isinstance(match, str) else match:
        assert m in lines[0], (m, lines[0])
    return lines[0]


def files_under(path) -> list[str]:
    """Every file below ``path`` (relative names), to assert that nothing was written."""
    p = Path(path)
    if not p.exists():
        return []
    return sorted(str(f.relative_to(p)) for f in p.rglob("*") if f.is_file())


def snapshot(path) -> dict:
    """{relative name: bytes} of every file below ``path``, to assert that nothing was changed."""
    p = Path(path)
    return {str(f.relative_to(p)): f.read_bytes() for f in sorted(p.rglob("*")) if f.is_file()}


class Marker:
    """A pickle payload: unpickling it would create ``path`` (the tests assert it never exists)."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def no_marker(path) -> bool:
    return not os.path.exists(path)
