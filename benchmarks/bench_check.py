"""``petheory check`` on the quick profile: CPU time of the command as shipped beside the same command with issue
43's three savings undone, and the JSON of the two compared.

What issue 43 measured in the quick catalogue, and what the shipped code does instead:

* every empirical claim parsed and validated the same 461 shipped record files again (26.5 % of the CPU):
  :func:`petheory.io.read_records` now keeps each file parsed once per process (keyed by path, inode, size and
  modification time) and hands out copies, only of the task asked for;
* every block of small BLAS products made a new ``threadpoolctl`` controller, which walks every loaded library
  (1,226 blocks a run): :func:`petheory._threads.blas_threads` makes one;
* the bootstrap of the cirrincione2026.alibi_* claims builds 82 positional tables, each making a numpy array of
  44,000 tokens and sorting it with ``np.unique``: :func:`petheory.geometry.distributions._string_types` counts the
  words with a dict;
* BLAS ran as many threads as cores for the checkers' small products, threads that wait on each other:
  :func:`proofs_check.runner.check_claim` runs a claim with one BLAS thread (as the verdict table always did);
* every full garbage collection walked the ~10^6 objects of the modules claims import (torch, sympy): the command
  freezes them (``gc.freeze``) whenever a claim has imported modules.

"Undone" runs the same tree with those five put back as they were (a parse per reader, ``threadpool_limits`` per
block, ``np.unique``, BLAS threads by default, no freeze), so the row measures exactly these changes on this
machine and the JSON must be identical (seconds aside): any difference is printed and fails the section. Both run as ``python -m petheory check --quiet
--json FILE`` in a fresh process from an empty folder (a fresh clone's view: no runs/, no PETHEORY_* variables),
alternating, ``--repeats`` rounds; CPU time is user + system of the process (getrusage of the child), the number a
shared machine leaves nearly alone where wall time doubles with the load. Target (issue 43.1): at least 2x.

Run: ``python benchmarks/run.py check`` (or this file directly); ``--quick`` checks four claims.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Target, add_output_arguments, emit, machine_info, render_targets  # noqa: E402

NAME = "check"
TITLE = "petheory check, quick profile: CPU as shipped vs with issue 43's savings undone (same tree, same JSON)"
QUICK_CLAIMS = "cirrincione2026.alibi_rank1,li2025.table5_running_sum,gu2025.table1,gu2025.schur_modulus"

#: Run in the child: with "undone", put back the three costs issue 43 removed, then run the command.
CHILD = r'''
import sys
mode, argv = sys.argv[1], sys.argv[2:]
if mode == "undone":
    import contextlib
    import gc

    import numpy as np
    from petheory import _threads, io
    from petheory.geometry import distributions
    from proofs_check import runner

    def new_controller():  # as every caller had it: a new controller (a discovery of every library) per block
        from threadpoolctl import ThreadpoolController
        return ThreadpoolController()

    _threads._blas_controller = new_controller  # blas_threads looks it up at each call

    def read_record_file(path, task=None):  # parsed and validated by every reader, every time
        try:
            doc = io._read_safe(path)
        except ValueError as exc:
            return None, str(exc).replace(f"{path}: ", "").replace(f"{path} ", "")
        reason = io.record_problem(doc)
        if reason is not None:
            return None, reason
        return (doc, None) if task is None or doc["task"] == task else (None, None)

    io._read_record_file = read_record_file
    distributions._string_types = lambda flat: np.unique(flat.astype(str), return_inverse=True, return_counts=True)
    distributions._words = lambda seqs: None  # every sequence through a numpy array
    runner.blas_threads = lambda n=1: contextlib.nullcontext()  # BLAS threads as the library's default (one per core)
    gc.freeze = lambda: None  # every collection walks every module's objects
from petheory.cli import main
sys.exit(main(argv))
'''


def run_once(mode: str, claims: str | None, out: Path, cwd: Path) -> dict:
    """One ``petheory check`` in a fresh process: its CPU seconds, wall seconds and its JSON."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PETHEORY_")}
    argv = ["check", "--quiet", "--json", str(out)] + (["--claims", claims] if claims else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", CHILD, mode, *argv], cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"bench_check: petheory check ({mode}) exited {proc.returncode}: {proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    doc = json.loads(out.read_text(encoding="utf-8"))
    return {"cpu": cpu, "wall": wall, "claims": doc["claims"]}


def differences(a: list[dict], b: list[dict]) -> list[str]:
    """Claim ids (and the first differing field) whose records differ, seconds aside."""
    out = []
    for x, y in zip(a, b):
        x = {k: v for k, v in x.items() if k != "seconds"}
        y = {k: v for k, v in y.items() if k != "seconds"}
        if x != y:
            field = next((k for k in x if x.get(k) != y.get(k)), "?")
            out.append(f"{x.get('id')}: {field}")
    if len(a) != len(b):
        out.append(f"{len(a)} vs {len(b)} claims")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=f"benchmark {NAME}: {TITLE}")
    p.add_argument("--quick", action="store_true", help=f"four claims ({QUICK_CLAIMS}), one round")
    p.add_argument("--repeats", type=int, default=2, help="alternating rounds (default 2: four runs of the catalogue)")
    p.add_argument("--warmup", type=int, default=0, help="untimed rounds first (default 0: the files are cached by then)")
    add_output_arguments(p)
    args = p.parse_args(argv)
    machine = machine_info()
    claims = QUICK_CLAIMS if args.quick else None
    rounds = 1 if args.quick else max(args.repeats, 1)
    print(f"{NAME}: {TITLE}", flush=True)
    runs: dict[str, list[dict]] = {"undone": [], "shipped": []}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for i in range(args.warmup + rounds):
            for mode in ("undone", "shipped") if i % 2 == 0 else ("shipped", "undone"):
                (tmp / mode).mkdir(exist_ok=True)
                r = run_once(mode, claims, tmp / f"{mode}.json", tmp / mode)
                print(f"  round {i + 1} {mode}: {r['cpu']:.1f} s CPU, {r['wall']:.1f} s wall", flush=True)
                if i >= args.warmup:
                    runs[mode].append(r)
    diff = differences(runs["undone"][0]["claims"], runs["shipped"][0]["claims"])
    cpu = {m: statistics.median(r["cpu"] for r in rs) for m, rs in runs.items()}
    wall = {m: statistics.median(r["wall"] for r in rs) for m, rs in runs.items()}
    n = len(runs["shipped"][0]["claims"])
    ratio = cpu["undone"] / cpu["shipped"]
    what = f"{n} claims" + (" (--quick)" if args.quick else " (the whole catalogue)")
    lines = [
        f"## {NAME}: {TITLE}",
        "",
        f"`python benchmarks/run.py {NAME}{' --quick' if args.quick else ''}` — git `{machine.get('git')}`, {rounds} "
        f"alternating round(s) of each, medians.",
        "",
        f"Machine: {machine['cpu']}, {machine['logical_cores']} logical cores ({machine['usable_cores']} usable), "
        f"{machine['os']}; Python {machine['python']}, numpy {machine['numpy']}, scipy {machine['scipy']}, torch "
        f"{machine['torch']}; load average {machine['load_average']} at start, "
        f"{round(os.getloadavg()[0], 2) if hasattr(os, 'getloadavg') else None} at end.",
        "",
        "| `petheory check`, quick profile | CPU (s) | wall (s) | each run (CPU s) |",
        "|---|---:|---:|---|",
    ]
    for mode, label in (("undone", "issue 43's savings undone (a parse per reader, a controller per block, np.unique, "
                                   "BLAS threads, no gc.freeze)"),
                        ("shipped", "as shipped")):
        each = ", ".join(f"{r['cpu']:.1f}" for r in runs[mode])
        lines.append(f"| {label} | {cpu[mode]:.1f} | {wall[mode]:.1f} | {each} |")
    lines += ["", f"{what}; CPU ratio undone / shipped **{ratio:.2f}x**. JSON of the two "
              + ("identical (seconds aside)." if not diff else f"**different**: {'; '.join(diff[:10])}."), ""]
    lines.append(render_targets([Target("CPU of the quick profile, undone / shipped (issue 43.1)", ratio, 2.0, "x",
                                        at_most=False, beside=f"{cpu['undone']:.1f} s vs {cpu['shipped']:.1f} s CPU")]))
    rc = emit(NAME, "\n".join(lines), args)
    if diff:
        print(f"bench_check: the JSON differs: {diff[:10]}", file=sys.stderr)
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
