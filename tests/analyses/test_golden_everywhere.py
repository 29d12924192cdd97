"""Every golden command output and every committed figure record is the same answer on other processors and at
any load (issue 54.0): the README's test command failed on an AMD EPYC (Zen 3, no AVX-512) because the golden files
pinned the last digits of one processor's SIMD path.

One subprocess per emulated processor (tests/_helpers.py's MACHINES: OpenBLAS's kernel family, numpy's SIMD level,
one thread or a busy core) runs ``tools/golden_records.py --check --figures``, as a user runs it in a fresh clone:
every golden case (tests/data/golden) and every figure's record (figures/*.json) computed again and compared by
:func:`petheory.rounding.record_differences` (each number at its own stated error). About 70 s of CPU a machine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import subprocess
from pathlib import Path

import pytest
from _helpers import HANG_S, MACHINES, busy_cpus, machine_env, pinned, simd_above, spinning

TOOL = Path(__file__).resolve().parents[2] / "tools" / "golden_records.py"
_spec = importlib.util.spec_from_file_location("golden_records", TOOL)
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("name", sorted(MACHINES))
def test_every_golden_output_and_figure_record_on_another_processor(name):
    """The same outputs on another processor's kernels (and, for a busy machine, one thread picked for the load,
    with the wall clock at least twice the CPU time); the child says what it computed with, checked first."""
    m = MACHINES[name]
    cpus = busy_cpus() if m["busy"] else None
    run = (f"import runpy, sys\nsys.argv = [{str(TOOL)!r}, '--check', '--figures']\n"
           f"runpy.run_path({str(TOOL)!r}, run_name='__main__')")
    with spinning(cpus) if m["busy"] else contextlib.nullcontext():
        out = subprocess.run(pinned(cpus, "-c", run), capture_output=True, text=True, env=machine_env(name),
                             timeout=HANG_S)
    lines = out.stdout.splitlines()
    assert lines and lines[0].startswith("machine: "), out.stderr[-2000:]
    used = json.loads(lines[0].removeprefix("machine: "))
    off = set(simd_above(m["simd"]).split())
    assert not off & set(used["simd"]), f"numpy's SIMD loops {used['simd']} include one of {sorted(off)}"
    if m["busy"] and cpus is not None:
        assert used["threads"] == 1, used
    if m["env"].get("OPENBLAS_NUM_THREADS") == "1":
        assert set(used["blas_threads"]) == {1}, used
    changed = [line for line in lines[1:] if not line.endswith(": same")]
    assert out.returncode == 0 and not changed, f"{name} ({used}):\n" + "\n".join(changed[:40]) + out.stderr[-2000:]
    ran = {line.split(": ")[0] for line in lines[1:]}
    assert ran == set(golden.cases()) | {f"figures/{f}.json" for f in golden.figure_names()}  # every one of them
