"""The catalogue's answer is a function of the seed, the profile and the library versions alone (issue 46.1):
not of the machine's load, nor of the processor's make (which BLAS kernels and SIMD loops run).

The README's test command failed on an AMD EPYC machine: OpenBLAS picked other kernels there, a last-bit
difference steered a search near a threshold, and `cirrincione2026.hellinger_mds_optimal` shrank to another
counterexample (a last-bit distance between two points that coincide in exact arithmetic made SMACOF's D/E
~ 1e16). Another make cannot be borrowed, but its kernels can: numpy's OpenBLAS takes the kernel family from
``OPENBLAS_CORETYPE`` (``Haswell``: the AVX2 kernels AMD Zen processors get; ``Prescott``: SSE3) and numpy's
own loops drop AVX2/AVX-512 with ``NPY_DISABLE_CPU_FEATURES``. Before the fixes of issue 46 these runs gave two
other answers (hellinger_mds_optimal shrank elsewhere under Haswell; barbero2024.nope_cannot_sharpen was
refuted under Prescott by an ulp of a logit of 1e6).

The claims run here are the sensitive ones (about 4 s of CPU a run): the searches that shrink longest
(gu2025.schur_modulus: 104 evaluations after the first counterexample, hellinger_mds_optimal 83, lemma_b1_range
61, su2021.long_term_decay 54, minimal_parametrisation 44; lemma_b1_equality and spectral_contraction, close
behind, search the same objects as two of these) and a holds whose margin is within rounding of zero
(nope_cannot_sharpen, 5e-13). Each runs as ``petheory check`` in a subprocess, as a user
runs it in a fresh clone, and is compared with the same claims of the test run's one catalogue check
(``catalogue_records``, in-process): a subset of the catalogue gives the same records as the whole, so the
order in which claims run does not matter either.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from _helpers import MACHINES, busy_cpus, machine_env, pinned, spinning

from petheory.rounding import record_differences
from proofs_check import verdict_table

SENSITIVE = ("barbero2024.nope_cannot_sharpen", "cirrincione2026.hellinger_mds_optimal",
             "cirrincione2026.minimal_parametrisation", "gu2025.lemma_b1_range", "gu2025.schur_modulus",
             "su2021.long_term_decay")



def check_json(env: dict, cwd, cpus=None) -> list[dict]:
    """``petheory check --claims SENSITIVE --json -`` in a fresh process, as a fresh clone runs it (no PETHEORY_*
    variables, an empty working directory), in the environment ``env``; on the processors ``cpus`` if given."""
    out = subprocess.run([*pinned(cpus, "-m", "petheory"), "check", "--quiet", "--claims", ",".join(SENSITIVE),
                          "--json", "-"], capture_output=True, text=True, cwd=cwd, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)["claims"]


def without_seconds(records) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


@pytest.fixture(scope="module")
def reference(catalogue_records):
    by_id = {r["id"]: r for r in catalogue_records}
    return [by_id[i] for i in SENSITIVE]


def test_a_busy_machine_gives_the_same_json(reference, tmp_path):
    """The claims run while a spinning process holds their core, so they get half of it and their wall clock runs
    at least twice their CPU time: the same JSON, bit for bit (nothing in a search may depend on time: no deadline,
    no time budget, no timeout that changes an answer). Where processes can be pinned (Linux), the check and one
    spinner share one core and the test run keeps its other cores; elsewhere a spinner runs on every core. The
    check runs on the processor the reference ran on: a test run that emulates one (``OPENBLAS_CORETYPE=Zen``,
    ``NPY_DISABLE_CPU_FEATURES``) passes it on, or the two would be two processors compared bit for bit."""
    cpus = busy_cpus()
    processor = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES")
    env = {k: v for k, v in os.environ.items()
           if k in processor or not k.startswith(("PETHEORY_", "OPENBLAS_", "NPY_", "OMP_"))}
    with spinning(cpus):
        busy = check_json({**env, "OPENBLAS_NUM_THREADS": "1"}, tmp_path, cpus)
    assert without_seconds(busy) == without_seconds(reference)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="processes are pinned on Linux only")
def test_the_busy_machine_is_busy_where_the_check_runs():
    """What the test above relies on: a pinned command runs on the one processor it is given, and a spinner pinned
    there takes half of it (a pinned loop of 0.3 s of CPU takes at least 1.5 times that long beside it)."""
    cpu = max(os.sched_getaffinity(0))
    out = subprocess.run(pinned({cpu}, "-c", "import os\nprint(sorted(os.sched_getaffinity(0)))"), capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == f"[{cpu}]"
    timed = ("import time\nc0, t0 = time.process_time(), time.perf_counter()\nwhile time.process_time() - c0 < 0.3: pass\n"
             "print(time.perf_counter() - t0)")
    spinner = subprocess.Popen(pinned({cpu}, "-c", "while True: pass"))
    try:
        wall = float(subprocess.run(pinned({cpu}, "-c", timed), capture_output=True, text=True, check=True).stdout)
    finally:
        spinner.kill()
        spinner.wait()
    assert wall >= 1.5 * 0.3, wall


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_another_processor_gives_the_same_answer(machine, reference, tmp_path):
    """The same verdicts, cases, counterexamples and text on another processor's kernels; its floats equal up to
    their rounding; the verdict table's rows, as committed, identical."""
    other = check_json(machine_env(machine), tmp_path)
    diff = record_differences(without_seconds(reference), without_seconds(other))
    assert not diff, diff[:8]
    assert verdict_table.render(other) == verdict_table.render(reference)


def test_a_clock_that_races_changes_no_search(monkeypatch):
    """Hypothesis stops shrinking after 300 s of wall clock; the runner's budget is a count of steps instead, so a
    machine slow enough to reach 300 s (here: a clock that advances 400 s at every reading) shrinks as far."""
    import itertools

    from hypothesis import strategies as st
    from hypothesis.internal.conjecture import engine as conjecture_engine

    from proofs_check import runner
    from proofs_check.engine import Claim

    c = Claim(id="test2026.sum_small", source="test", statement="sum <= 10", kind="exact",
              check=lambda case: float(sum(case["v"]) - 10),
              cases=lambda: st.fixed_dictionaries({"v": st.lists(st.integers(0, 20), min_size=1, max_size=8)}))
    quiet = runner._search(c, 60, 1)
    ticks = itertools.count(0, 400.0)

    class RacingClock:
        def __getattr__(self, name):
            return getattr(conjecture_engine.__dict__["_real_time"], name)

        def perf_counter(self):
            return next(ticks)

        monotonic = perf_counter

    monkeypatch.setitem(conjecture_engine.__dict__, "_real_time", conjecture_engine.time)
    monkeypatch.setattr(conjecture_engine, "time", RacingClock())
    assert runner._search(c, 60, 1) == quiet and quiet["counterexample"] == {"v": [11]}
