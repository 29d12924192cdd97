"""Helpers shared by the test files (import them: ``from _helpers import check_claim``; pytest puts tests/ on sys.path)."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import time


def check_claim(claim_id: str, budget: int | None = None) -> dict:
    """The runner's record of one claim on the quick profile, seed 0.

    ``budget`` replaces the quick profile's number of generated cases of an ``exact`` or
    ``symbolic`` claim (the claim tests use 15-20 to stay fast); None keeps the claim's own.
    """
    from proofs_check import engine, runner

    c = engine.get(claim_id)
    if budget is not None and c.kind in ("exact", "symbolic"):
        c = dataclasses.replace(c, examples={"quick": budget})
    return runner.check_claim(c, profile="quick", seed=0)


#: A subprocess of a test that has not finished after this long hangs. The limit only ends a hung test: it is
#: never a measure of speed, since a busy machine takes many times the quiet time (limits of 60-300 s made
#: tests fail at load 10 that pass on a quiet machine, issue 46). Tests of speed are benchmarks, not tests.
HANG_S = 3600


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, owned by someone else
        return True
    return True


def once_per_test_run(tmp_path_factory, name: str, compute):
    """``compute()`` (a JSON value) once per test run, even under pytest-xdist: the first worker that asks
    computes it and writes it next to the workers' temp folders (atomically); the others wait for that file
    and read it. Every worker gets the value through the same JSON round trip, so all see the same data.

    A waiting worker waits as long as the computing one is alive (its process id is in the claim file), never a
    fixed time: the catalogue run takes 1-3 min on 2 loaded cores and many times that at load 10, and a deadline
    made the test's outcome depend on the machine's load (issue 46)."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # one id per test run, shared by its workers
    if run_id is None:  # no xdist: one process, a session fixture already runs once
        return json.loads(json.dumps(compute(), allow_nan=False))
    shared = tmp_path_factory.getbasetemp().parent
    done, failed, claim = (shared / f"{name}-{run_id}{ext}" for ext in (".json", ".failed", ".claim"))
    try:
        fd = os.open(claim, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:  # another worker computes it
        while not done.exists():
            if failed.exists():
                raise RuntimeError(f"the shared {name} failed in another worker: {failed.read_text()}")
            owner = claim.read_text().strip()
            if owner.isdigit() and not _alive(int(owner)) and not (done.exists() or failed.exists()):
                raise RuntimeError(f"the worker computing the shared {name} (process {owner}) ended without a result")
            time.sleep(0.2)
        return json.loads(done.read_text(encoding="utf-8"))
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    try:
        text = json.dumps(compute(), allow_nan=False)
    except BaseException as e:
        failed.write_text(f"{type(e).__name__}: {e}")
        raise
    tmp = done.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, done)
    return json.loads(text)


# ----------------------------------------------------------------------------- other processors and loads, emulated

def simd_above(level: str | None) -> str:
    """An ``NPY_DISABLE_CPU_FEATURES`` value that leaves numpy's SIMD loops at ``level`` (``"X86_V3"``: AVX2, what an
    AMD Zen 3 runs; None: numpy's baseline): every dispatch target of this numpy above it. ``X86_V4`` alone is not
    enough: numpy 2.4 dispatches ``AVX512_ICL`` and ``AVX512_SPR`` loops as targets of their own, which stay on."""
    from numpy._core._multiarray_umath import __cpu_dispatch__

    targets = list(__cpu_dispatch__)
    return " ".join(targets[targets.index(level) + 1:] if level in targets else targets)


#: Other processors, emulated by the kernels they would run (another make cannot be borrowed, its kernels can):
#: OpenBLAS's kernel family (``OPENBLAS_CORETYPE``: ``Haswell`` is the AVX2 family AMD Zen processors get,
#: ``Prescott`` SSE3), numpy's own SIMD loops (``NPY_DISABLE_CPU_FEATURES``: ``simd`` is the highest level left
#: on, None the baseline), and the load: ``busy`` runs the command pinned to one core beside a spinner (every core
#: it has is busy, so petheory picks 1 thread and the wall clock runs at least twice the CPU time); otherwise the
#: threads follow the test run's load, or ``OPENBLAS_NUM_THREADS`` fixes them (the catalogue's test runs its busy
#: machine apart: tests/claims/test_same_answer_everywhere.py).
MACHINES = {
    "amd_zen_avx2": {"env": {"OPENBLAS_CORETYPE": "Haswell"}, "simd": "X86_V3", "busy": True},
    "sse3_without_avx": {"env": {"OPENBLAS_CORETYPE": "Prescott", "OPENBLAS_NUM_THREADS": "1"}, "simd": None,
                         "busy": False},
}


def machine_env(name: str) -> dict:
    """The environment of a fresh process on the emulated machine ``name``: this one's, without the PETHEORY_,
    OPENBLAS_, NPY_ and OMP_ variables (a fresh clone sets none), with the machine's."""
    m = MACHINES[name]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PETHEORY_", "OPENBLAS_", "NPY_", "OMP_"))}
    return {**env, **m["env"], "NPY_DISABLE_CPU_FEATURES": simd_above(m["simd"])}


def pinned(cpus, *run) -> list[str]:
    """A Python command line running ``run`` (``-m module`` or ``-c code``) on the processors ``cpus`` (all if None).
    The child pins itself first: a ``preexec_fn`` could deadlock in a test process that runs threads (xdist's)."""
    import sys

    if cpus is None:
        return [sys.executable, *run]
    pin = f"import os, runpy\nos.sched_setaffinity(0, {sorted(cpus)!r})\n"
    if run[0] == "-m":
        return [sys.executable, "-c", pin + f"runpy.run_module({run[1]!r}, run_name='__main__', alter_sys=True)"]
    return [sys.executable, "-c", pin + run[1]]


def busy_cpus():
    """Where a busy command runs: one processor of this process's (Linux), shared with one spinner; None elsewhere
    (a spinner then runs on every core)."""
    return {max(os.sched_getaffinity(0))} if hasattr(os, "sched_setaffinity") else None


class spinning:
    """``with spinning(cpus):`` a busy loop on each processor of ``cpus`` (one per core if None) for the block."""

    def __init__(self, cpus):
        self.cpus = cpus

    def __enter__(self):
        import subprocess

        n = 1 if self.cpus is not None else (os.cpu_count() or 1)
        self.procs = [subprocess.Popen(pinned(self.cpus, "-c", "while True: pass")) for _ in range(n)]
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()
        return False


# ----------------------------------------------------------------------------- records planted by several test files

#: The context lengths of :func:`retrieval_record` (training context 32).
RETRIEVAL_LENGTHS = [32, 64, 128, 256, 512]


def retrieval_record(task, seed, accs: dict, coverage: dict | None = None) -> dict:
    """A retrieval record as the runner writes it. accs: label -> list over RETRIEVAL_LENGTHS; coverage: label ->
    list of out-of-range counts (default: in range)."""
    methods = {}
    for label, vals in accs.items():
        cov = (coverage or {}).get(label, [0] * len(RETRIEVAL_LENGTHS))
        methods[label] = {"spec": label, "kind": "swapped", "by_length": {
            str(N): {"seq_acc": a, "token_acc": a, "coverage": {"bands": 16, "full_turn": 3, "out_of_range": c}}
            for N, a, c in zip(RETRIEVAL_LENGTHS, vals, cov)}}
    return {"task": task, "pe": "rope", "seed": seed, "train_len": 32, "config": {}, "history": [],
            "final": {"train": {"seq_acc": 1.0}, "test": {"32": {"seq_acc": 1.0}}},
            "retrieval": {"metric": "seq_acc" if task == "passkey" else "token_acc", "train_context": 32,
                          "lengths": RETRIEVAL_LENGTHS, "finetune_setup": {"factor": 2}, "methods": methods}}


def gu2025_record(task, name, acc, size="paper", seed=0, loss=1.0, drop=0.0):
    """A gu2025 record as train() writes it, with chosen accuracy, mean train loss and shallow-head drop."""
    from petheory.experiments.papers import GU2025_PES
    from petheory.nn import preset

    cfg = preset(task, size, pe=GU2025_PES[name], seed=seed)
    L = cfg.task.params.get("max_len", 128)
    n_layer = cfg.model.n_layer
    heads = [{"layer": l, "head": h, "value": acc, "drop": drop if (l, h) == (0, 0) else 0.0}
             for l in range(n_layer) for h in range(2)]
    return {"task": task, "pe": GU2025_PES[name], "seed": seed, "config": cfg.as_dict(), "config_hash": cfg.hash(), "train_len": L,
            "kind": "classification", "model": {"n_layer": n_layer},
            "final": {"test": {str(L): {"acc": acc, "loss": 1.0}}, "train": {"acc": acc, "loss": 1.0}},
            "history": [{"train_loss": loss}], "chance": {"acc": 1 / 70},
            "ablation": {"metric": "acc", "split": "train+test", "baseline": acc, "heads": heads}}


def write_runs(root, records):
    """Each record as ``root/runs/<task>/<pe>-<seed>-<i>/record.json``, where the runs/ reader finds it."""
    for i, r in enumerate(records):
        d = root / "runs" / r["task"] / f"{r['pe']}-{r['seed']}-{i}"
        d.mkdir(parents=True)
        (d / "record.json").write_text(json.dumps(r))


# ----------------------------------------------------------------------------- rounding models shared by test files


def ladder_tol(n, d):
    """Absolute error of a RoPE or sinusoidal distance over positions p < n and frequencies omega <= 1 (d entries).

    An angle p omega is rounded by at most n u, so each sine/cosine (or half-angle chord) coordinate is off by
    (n + 1) u, a difference of two by 2 (n + 1) u, and a distance (norm of d such coordinates, times sqrt 2 for
    RoPE) by sqrt(2 d) 2 (n + 1) u; plus gamma_{d+2} of the distance (at most 2 sqrt(d) here) for the norm.
    """
    from petheory.rounding import gamma, unit_roundoff

    u = unit_roundoff()
    return math.sqrt(2 * d) * 2 * (n + 1) * u + gamma(d + 2) * 2 * math.sqrt(d)


#: A refusal's "config field X" (and "and Y"), with its mark when the field is derived or named as missing
_FIELD = re.compile(r"config fields? ([\w.\[\]]+)(?: and ([\w.\[\]]+))?( \(not in this file: transformers' configuration "
                   r"class derives it| is missing)?")  # a field named as missing is named truly


def named_fields_hold(msg: str, cfg: dict) -> list:
    """The fields ``msg`` names that ``cfg`` does not hold and that the message does not mark as derived (or as
    missing)."""
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else {}
    wrong = []
    for m in _FIELD.finditer(msg):
        for name in filter(None, m.group(1, 2)):
            root = re.split(r"[.\[]", name)[0]
            if root not in cfg and root not in text and not m.group(3):
                wrong.append(name)
    return wrong
