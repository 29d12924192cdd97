"""``petheory train`` end to end against its own training loop (issue 35: within 1.5x at the small preset).

Ours: :func:`petheory.nn.training.train` of gu2025 Task 1 at the small preset (RoPE), everything a user waits
for: data, model, the initial evaluation, per-epoch test evaluation, final evaluation at every test
length, head ablation on train+test (gu2025 §5.1), the position probe and the record. Reference: the
same run's training loop alone (``setup`` and the same ``train_step`` calls, same seeds and batch
order). ``ratio = loop / end-to-end``: the target 1.5x is ``ratio >= 0.67``. Agreement: the last
epoch's mean training loss, identical bit for bit (the evaluations draw no random numbers).

Also (issue 35) the training step against the machine: the small preset's step rate in counted FLOPs
(:func:`petheory.experiments.grid_measure.step_flops`) as a fraction of a float32 matrix multiply's rate measured
here on the same threads (target >= 40 %), and where the step's time goes (torch.profiler, self CPU
time by operator, :func:`profile_step.cpu_breakdown`).

Run: ``python benchmarks/run.py train`` (or this file directly). ``--quick``: the smoke preset.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, Target, cli, render_targets  # noqa: E402
from profile_step import cpu_breakdown  # noqa: E402

from petheory.nn import preset  # noqa: E402

T = importlib.import_module("petheory.nn.training")
NAME = "train"
TITLE = "petheory train end to end vs its training loop (small preset)"


def make_cases(quick: bool) -> list[Case]:
    size = "smoke" if quick else "small"
    cfg = preset("gu2025_task1", size, pe="rope", seed=0)

    def e2e():
        return T.train(cfg)["history"][-1]["train_loss"]

    def loop():
        device, data, mcfg, model, opt, sched, gen, steps = T.setup(cfg)
        model.train()
        for epoch in range(cfg.epochs):
            perm = torch.randperm(len(data.train), generator=gen)
            run = 0.0
            for s in range(steps):
                b = T.train_batch(data.train, perm[s * cfg.batch_size:(s + 1) * cfg.batch_size], device)
                run += float(T.train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip,
                                          sched=sched).detach())
        return run / steps

    return [Case(f"gu2025_task1 {size} rope, {cfg.epochs} epochs: train() vs its loop", e2e, loop,
                 lambda a, b: (abs(a - b), 0.0), {"preset": size})]


def phases(cfg) -> dict[str, float]:
    """Seconds of each part of one ``train(cfg)``, by timing the functions it calls (one instrumented call)."""
    import time

    spent: dict[str, float] = {}
    saved = {name: getattr(T, name) for name in ("setup", "evaluate", "ablate_heads", "probe", "train_step")}

    def timed(name, fn):
        def wrapper(*a, **k):
            t0 = time.perf_counter()
            try:
                return fn(*a, **k)
            finally:
                spent[name] = spent.get(name, 0.0) + time.perf_counter() - t0
        return wrapper

    try:
        for name, fn in saved.items():
            setattr(T, name, timed(name, fn))
        t0 = time.perf_counter()
        T.train(cfg)
        spent["total"] = time.perf_counter() - t0
    finally:
        for name, fn in saved.items():
            setattr(T, name, fn)
    return spent


def matmul_rate(n: int = 1024, repeats: int = 20) -> float:
    """FLOP/s of a float32 (n, n) @ (n, n) product on torch's current threads (median of ``repeats``)."""
    import statistics
    import time

    a, b = torch.randn(n, n), torch.randn(n, n)
    for _ in range(3):
        a @ b
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        a @ b
        ts.append(time.perf_counter() - t0)
    return 2 * n**3 / statistics.median(ts)


def step_rate(cfg, steps: int) -> tuple[float, float]:
    """(median seconds per training step, counted FLOPs per step) of ``cfg``'s training loop."""
    import statistics
    import time

    from petheory.experiments.grid_measure import step_flops

    device, data, mcfg, model, opt, sched, gen, _ = T.setup(cfg)
    model.train()
    ts = []
    for i in range(steps + 5):
        idx = torch.randint(0, len(data.train), (cfg.batch_size,), generator=gen)
        b = T.train_batch(data.train, idx, device)
        t0 = time.perf_counter()
        T.train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip, sched=sched)
        if i >= 5:
            ts.append(time.perf_counter() - t0)
    return statistics.median(ts), float(step_flops(cfg))


def notes(quick: bool, results=None) -> str:
    size = "smoke" if quick else "small"
    cfg = preset("gu2025_task1", size, pe="rope", seed=0)
    ph = phases(cfg)
    print("  phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in ph.items()), flush=True)
    threads = torch.get_num_threads()
    peak = matmul_rate(256 if quick else 1024)
    step_s, flops = step_rate(cfg, 10 if quick else 40)
    torch.set_num_threads(1)
    peak1 = matmul_rate(256 if quick else 1024)
    step1_s, _ = step_rate(cfg, 10 if quick else 40)
    torch.set_num_threads(threads)
    frac, frac1 = flops / step_s / peak, flops / step1_s / peak1
    top = cpu_breakdown(cfg, steps=3 if quick else 10)
    r = LAST.get("result")
    e2e_over_loop = (r.ours_median / r.reference_median) if r is not None else float("nan")
    rest = ph["total"] - ph.get("train_step", 0.0)
    targets = [
        Target(f"`train` end to end / its training loop ({size} preset)", e2e_over_loop, 1.5, "x",
               beside=(f"loop {r.reference_median:.2f} s, end to end {r.ours_median:.2f} s" if r is not None else "")),
        Target(f"{size}-preset training step, counted FLOP/s as a share of the {threads}-thread matmul rate",
               100 * frac, 40.0, "%", at_most=False,
               beside=f"step {1e3 * step_s:.3g} ms, {flops / 1e6:.0f} MFLOP; matmul {peak / 1e9:.0f} GFLOP/s; on 1 thread: "
                      f"{100 * frac1:.3g} % of {peak1 / 1e9:.0f} GFLOP/s ({1e3 * step1_s:.3g} ms a step)"),
    ]
    ph_text = ", ".join(f"{k} {v:.2f} s" for k, v in ph.items() if k != "total")
    top_text = ", ".join(f"{name} {pct:.0f} %" for name, pct in top)
    return (NOTES + f"\n\nOne instrumented `train()` ({ph['total']:.1f} s): {ph_text} (evaluate includes the "
            f"initial, per-epoch and final evaluations; not in train_step: {rest:.1f} s).\n\nWhere a training step's "
            f"CPU time goes (torch.profiler, self CPU time by operator, {threads} threads): {top_text}.\n\n"
            + render_targets(targets))


LAST: dict = {}


NOTES = """Ratio = loop / end-to-end (target >= 0.67: end to end within 1.5x of the loop). torch threads: the default
(every core). What the rest costs: evaluation under inference mode (the train split before the first step, the test
split after every epoch; at the end only the test lengths not yet evaluated), head ablation on train+test batched
across heads (`ablate_heads`: one forward per batch keeps each layer's head outputs and attention output; per layer,
the heads' copies are that output minus each head's slice through W_O, and only the layer's MLP and the layers after
it run on them); its baseline pass is the final evaluation of the train and test splits (the same batches and sums
as `evaluate`, bit for bit); the position probe."""


if __name__ == "__main__":
    import harness

    _run_cases = harness.run_cases

    def keep_last(*a, **k):  # the targets read the measured end-to-end/loop medians
        out = _run_cases(*a, **k)
        LAST["result"] = out[0] if out else None
        return out

    harness.run_cases = keep_last
    sys.exit(cli(NAME, TITLE, make_cases, notes=notes, repeats=2, warmup=0))
