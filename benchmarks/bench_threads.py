"""Threads for the machine as it is (issue 43): 1 thread, every core, and petheory's choice, quiet and made busy.

Two workloads, each timed with three thread settings in rounds of every order (the table: medians; a target: the median
over rounds of the choice's time over its reference's in the same round, :func:`paired_ratio`):

* a training step of gu2025 Task 1 at the small preset (RoPE; ``petheory.nn.evaluation.train_step``, 10 steps a
  call), torch's intra-op threads set to 1, to every usable core, or to petheory's choice
  (:func:`petheory._threads.pick_threads`, what ``petheory train`` uses when ``--threads`` is not given:
  the cores no other process is running on, read at the start of the call);
* top-8 classical MDS at n = 2048 (``geometry.classical_mds(method="block")``, block Lanczos: GEMMs with the n x n squared
  distances), whose products run on the free cores; the forced rows pin that count to 1 or to every core.

Each runs under two conditions: the machine as it is (its load average is written beside every row), and
with one busy-loop process per usable core started by this script (so no core is free, whatever else
runs). Targets: on the busy machine petheory's choice is within 10 % of one thread (a busy machine never
makes more threads slower than one), and on the machine as it is within 10 % of the better of 1 and every core.

Run: ``python benchmarks/run.py threads`` (or this file directly).
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Target, add_output_arguments, destination, emit, machine_info, render_targets  # noqa: E402

from petheory import _threads  # noqa: E402

NAME = "threads"
TITLE = "threads for the machine as it is: training step and classical MDS on 1 thread, every core, petheory's choice"
SETTINGS = ("1 thread", "every core", "petheory's choice")


@contextlib.contextmanager
def busy_cores(n: int):
    """``n`` busy-loop processes (each one core's worth of load) while the block runs."""
    code = "import time\nt = time.time() + 600\nwhile time.time() < t: pass"
    loops = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]
    try:
        time.sleep(1.0)  # started and on the run queue
        yield
    finally:
        for p in loops:
            p.kill()
        for p in loops:
            p.wait()


def threads_for(setting: str) -> int:
    if setting == "petheory's choice":
        _threads.free_cores(fresh=True)  # read the run queue now, not 2 s ago (pick_threads reuses this reading)
    return {"1 thread": 1, "every core": _threads.usable_cores()}.get(setting) or _threads.pick_threads(None)


def train_steps(quick: bool):
    import torch

    from petheory.nn import preset

    T = importlib.import_module("petheory.nn.training")
    E = importlib.import_module("petheory.nn.evaluation")
    cfg = preset("gu2025_task1", "smoke" if quick else "small", pe="rope", seed=0)
    device, data, mcfg, model, opt, sched, gen, _ = T.setup(cfg)
    model.train()
    steps = 3 if quick else 10

    def run(setting: str) -> tuple[float, int]:
        n = threads_for(setting)
        before = torch.get_num_threads()
        torch.set_num_threads(n)
        try:
            t0 = time.perf_counter()
            for _ in range(steps):
                idx = torch.randint(0, len(data.train), (cfg.batch_size,), generator=gen)
                b = E.train_batch(data.train, idx, device)
                E.train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip, sched=None)
            return (time.perf_counter() - t0) / steps, n
        finally:
            torch.set_num_threads(before)

    run("1 thread")  # warm-up: first-call allocations and kernel selection
    return run, f"training step, gu2025_task1 {'smoke' if quick else 'small'} rope (per step)"


def mds_top(quick: bool):
    from bench_geometry import target

    from petheory import geometry as geo

    n = 600 if quick else 2048
    D = target(n)

    def run(setting: str) -> tuple[float, int]:
        n_threads = threads_for(setting)
        saved = _threads.free_cores
        _threads.free_cores = lambda fresh=False: n_threads  # what blas_threads(None) inside classical_mds uses
        try:
            t0 = time.perf_counter()
            geo.classical_mds(D, rank=8, method="block")
            return time.perf_counter() - t0, n_threads
        finally:
            _threads.free_cores = saved

    run("1 thread")
    return run, f"top-8 classical MDS, n={n} (block Lanczos)"


#: The six orders of the three settings, one a round: each setting runs first twice in six rounds, and right after
#: each other setting equally often. Rotating one order (1, every core, choice) keeps its cycle: petheory's choice ran
#: right after 'every core' in 4 of 6 rounds, 1 thread in 1, and on a busy machine the setting after 'every core' ran
#: up to 1.3x slower with the same thread count (git a279c8e, load 2): at ab1feaa the choice read 1.12x the 1-thread
#: time while running 1 thread itself.
ORDERS = tuple(itertools.permutations(SETTINGS))

#: Seconds of rest after each run, so that what it leaves running (torch's or BLAS's worker threads spinning
#: for their next task) is not timed as part of the next setting.
SETTLE_S = 0.2


def measure(run, rounds: int, settle: float = SETTLE_S) -> tuple[dict, dict]:
    """Times and threads used per setting over ``rounds`` rounds, round r in the order ``ORDERS[r % 6]``, with
    ``settle`` seconds of rest after each run."""
    times = {s: [] for s in SETTINGS}
    used = {s: set() for s in SETTINGS}
    for r in range(rounds):
        for s in ORDERS[r % len(ORDERS)]:
            t, n = run(s)
            times[s].append(t)
            used[s].add(n)
            time.sleep(settle)
    return times, {s: sorted(n) for s, n in used.items()}


def paired_ratio(times: dict, setting: str, reference: str) -> float:
    """Median over rounds of ``setting``'s time over ``reference``'s time in the same round. The two ran seconds
    apart, under the same load, so a round the machine slowed slows both: the ratio of the two medians instead
    read 1.14-1.18x on a busy machine where petheory's choice ran the very setting of its reference (1 thread;
    git 844c6a3), which is the noise of six rounds beside two busy loops, not a cost of the choice."""
    return statistics.median(a / b for a, b in zip(times[setting], times[reference]))


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=f"benchmark {NAME}: {TITLE}")
    p.add_argument("--quick", action="store_true", help="tiny sizes: checks the benchmark runs, numbers mean little")
    p.add_argument("--rounds", type=int, default=6, help="rounds per condition, each in another order of the three "
                   "settings (default 6: every order once)")
    p.add_argument("--repeats", type=int, default=None, help=argparse.SUPPRESS)  # run.py passes these through
    p.add_argument("--warmup", type=int, default=None, help=argparse.SUPPRESS)
    add_output_arguments(p)
    args = p.parse_args(argv)
    destination(args)
    rounds = 2 if args.quick else args.rounds
    machine = machine_info()
    cores = _threads.usable_cores()
    print(f"{NAME}: {TITLE}", flush=True)
    rows, targets = [], []
    for make in (train_steps, mds_top):
        run, label = make(args.quick)
        for condition in ("as it is", f"busy: {cores} busy loops"):
            ctx = busy_cores(cores) if condition.startswith("busy") else contextlib.nullcontext()
            with ctx:
                load0 = os.getloadavg()[0]
                free = threads_for("petheory's choice")
                times, used = measure(run, rounds)
                load1 = os.getloadavg()[0]
            t1, tall, tauto = (statistics.median(times[s]) for s in SETTINGS)
            busy = condition.startswith("busy")
            # the reference: 1 thread on the busy machine; on the machine as it is, the better (by median) of 1 and
            # every core, paired round by round with the choice
            ref = SETTINGS[0] if busy or t1 <= tall else SETTINGS[1]
            ratio = paired_ratio(times, SETTINGS[2], ref)
            print(f"  {label}, {condition}: 1 thread {t1 * 1e3:.1f} ms, {cores} threads {tall * 1e3:.1f} ms, "
                  f"choice {used[SETTINGS[2]]} -> {tauto * 1e3:.1f} ms, paired ratio to {ref} {ratio:.3f} "
                  f"(load {load0:.1f}-{load1:.1f})", flush=True)
            rows.append(f"| {label} | {condition} | {free} | {t1 * 1e3:.3g} | {tall * 1e3:.3g} | "
                        f"{'/'.join(map(str, used[SETTINGS[2]]))} | {tauto * 1e3:.3g} | {t1 / tall:.2f} | "
                        f"{tauto / (t1 if ref == SETTINGS[0] else tall):.3f} | {ratio:.3f} | {load0:.1f}-{load1:.1f} |")
            targets.append(Target(f"{label}, machine {condition}: petheory's choice / "
                                  + ("1 thread" if busy else "the better of 1 and every core") + " (paired)",
                                  ratio, 1.1, "x", beside=f"1 thread {t1 * 1e3:.3g} ms, {cores} threads "
                                  f"{tall * 1e3:.3g} ms, choice {tauto * 1e3:.3g} ms (medians; reference: {ref})",
                                  load=round(load1, 2)))
    body = "\n".join([
        f"## {NAME}: {TITLE}",
        "",
        f"`python benchmarks/run.py {NAME}{' --quick' if args.quick else ''}` — "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, git `{machine.get('git')}`, {rounds} rounds per "
        f"condition, each in another order of the three settings, {SETTLE_S} s of rest after each run (medians; the "
        "target's ratio is the median over rounds of the choice's time over the reference's in the same round).",
        "",
        f"Machine: {machine['cpu']}, {machine['logical_cores']} logical cores ({cores} usable); torch {machine['torch']}; "
        f"BLAS: {machine['blas']}; load average {machine['load_average']} at start.",
        "",
        "| workload | machine | free cores read | 1 thread (ms) | every core (ms) | petheory's threads | "
        "petheory's choice (ms) | 1 thread / every core | choice / reference, medians | choice / reference, paired | "
        "load |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        "",
        "`1 thread / every core` above 1: the extra threads help; below 1: they only wait for cores other processes "
        "hold. petheory reads the free cores from the run queue (`/proc/loadavg`'s runnable count less its own "
        "threads, median of 5 readings over 20 ms: `petheory._threads.free_cores`); `petheory train` and `sweep` "
        "set torch's threads to it unless `--threads` is given, and classical MDS runs its GEMMs on it.",
        "",
        render_targets(targets),
    ])
    return emit(NAME, body, args)


if __name__ == "__main__":
    sys.exit(main())
