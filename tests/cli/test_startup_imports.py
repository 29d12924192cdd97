"""`petheory --help` and `petheory report` import only what they use: no torch, matplotlib or scikit-learn.

Each command runs in a fresh interpreter (so nothing the test process imported counts) and prints which
of those modules ended up in ``sys.modules``. numpy is listed too, as the control that the listing sees
what a command does import. The time this takes is measured by ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _helpers import HANG_S

ROOT = Path(__file__).resolve().parents[2]
WATCHED = ("numpy", "torch", "matplotlib", "sklearn")
PROBE = """
import json, runpy, sys
sys.argv = ["petheory", *sys.argv[1:]]
try:
    runpy.run_module("petheory", run_name="__main__")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print("MODULES " + json.dumps({"exit": code, "loaded": sorted(m for m in %r if m in sys.modules)}), file=sys.stderr)
""" % (WATCHED,)


def loaded_by(*argv: str) -> dict:
    res = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True, timeout=HANG_S)
    line = [ln for ln in res.stderr.splitlines() if ln.startswith("MODULES ")]
    assert line, res.stderr[-2000:]
    return json.loads(line[-1][len("MODULES "):])


@pytest.mark.parametrize("argv", [("--help",), ("report", "--help"),
                                  ("report", "--pe", "rope", "-d", "64", "--length", "512", "--null-draws", "0")],
                         ids=["help", "report-help", "report"])
def test_help_and_report_import_no_torch_matplotlib_or_sklearn(argv):
    out = loaded_by(*argv)
    assert out["exit"] in (0, None)
    assert out["loaded"] == ["numpy"]  # numpy: the control that the listing sees the command's imports
