"""``petheory train`` end to end against its own training loop (issue 35: within 1.5x at the small preset).

Ours: :func:`petheory.nn.training.train` of gu2025 Task 1 at the small preset (RoPE), everything a user waits
for: data, model, the initial evaluation, per-epoch test evaluation, final evaluation at every test
length, head ablation on train+test (gu2025 §5.1), the position probe and the record. Reference: the
same run's training loop alone (``setup`` and the same ``train_step`` calls, same seeds and batch
order). ``ratio = loop / end-to-end``: the target 1.5x is ``ratio >= 0.67``. Agreement: the last
epoch's mean training loss, identical bit for bit (the evaluations draw no random numbers).

Also the training step against a peer in the same process (issue 43, replacing issue 35's share of the
matmul rate, which measured 12-45 % on the same code as the machine's load changed): petheory's
``train_step`` against a training step written from scratch in plain PyTorch for the same model
(:mod:`peer_step`: nanoGPT's way, the same shapes and products), on the same batches and threads,
alternating, the matrix-product FLOPs of one step counted on both sides by torch's ``FlopCounterMode``
(equal: the same model); target: petheory's step at most 10 % slower (ratio >= 0.9).
And where the step's time goes (torch.profiler, self CPU time by operator, :func:`cpu_breakdown`; on a GPU, ``tools/gpu/profile_step.py``).

Run: ``python benchmarks/run.py train`` (or this file directly). ``--quick``: the smoke preset.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, Target, cli, render_targets  # noqa: E402

from petheory.nn import preset  # noqa: E402
from petheory.nn.evaluation import train_batch, train_step  # noqa: E402

T = importlib.import_module("petheory.nn.training")
NAME = "train"
TITLE = "petheory train end to end vs its training loop (small preset)"


def cpu_breakdown(cfg, steps: int = 10, top: int = 6) -> list[tuple[str, float]]:
    """The ``top`` operators by self CPU time over ``steps`` training steps of ``cfg`` on the CPU, as
    ``(name, percent of the profiled self CPU time)``; the rest summed as ``"other"``."""
    device, data, mcfg, model, opt, sched, gen, _ = T.setup(cfg)
    model.train()

    def step():
        idx = torch.randint(0, len(data.train), (cfg.batch_size,), generator=gen)
        train_step(model, opt, train_batch(data.train, idx, device), data.kind, device=device, amp=False,
                   grad_clip=cfg.grad_clip, sched=sched)

    for _ in range(3):
        step()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            step()
    rows = sorted(((e.key, e.self_cpu_time_total) for e in prof.key_averages()), key=lambda kv: -kv[1])
    total = sum(t for _, t in rows) or 1.0
    out = [(k, 100 * t / total) for k, t in rows[:top]]
    return out + [("other", 100 * sum(t for _, t in rows[top:]) / total)]


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
                b = train_batch(data.train, perm[s * cfg.batch_size:(s + 1) * cfg.batch_size], device)
                run += float(train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip,
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


def step_vs_peer(cfg, steps: int, rounds: int) -> dict:
    """Median seconds per step of petheory's ``train_step`` and of the from-scratch peer, alternating rounds of
    ``steps`` steps on the same batches, and each side's counted FLOPs per step."""
    import statistics
    import time

    from torch.utils.flop_counter import FlopCounterMode

    from peer_step import peer_for, peer_step

    device, data, mcfg, model, opt, sched, gen, _ = T.setup(cfg)
    peer, peer_opt = peer_for(mcfg, cfg.lr, cfg.betas, cfg.weight_decay)
    model.train()
    peer.train()
    batches = [train_batch(data.train, torch.randint(0, len(data.train), (cfg.batch_size,), generator=gen), device)
               for _ in range(steps)]

    def ours():
        for b in batches:
            train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip, sched=sched)

    def theirs():
        for b in batches:
            peer_step(peer, peer_opt, b.x, b.y, b.mask)

    ours(), theirs()  # warm-up
    t_ours, t_peer = [], []
    for _ in range(rounds):
        for fn, ts in ((ours, t_ours), (theirs, t_peer)):
            t0 = time.perf_counter()
            fn()
            ts.append((time.perf_counter() - t0) / steps)
    b = batches[0]
    with FlopCounterMode(display=False) as fc_ours:
        train_step(model, opt, b, data.kind, device=device, amp=False, grad_clip=cfg.grad_clip, sched=sched)
    with FlopCounterMode(display=False) as fc_peer:
        peer_step(peer, peer_opt, b.x, b.y, b.mask)
    return {"ours": statistics.median(t_ours), "peer": statistics.median(t_peer), "flops": float(fc_ours.get_total_flops()),
            "peer_flops": float(fc_peer.get_total_flops()), "threads": torch.get_num_threads()}


def notes(quick: bool, results=None) -> str:
    size = "smoke" if quick else "small"
    cfg = preset("gu2025_task1", size, pe="rope", seed=0)
    ph = phases(cfg)
    print("  phases: " + ", ".join(f"{k} {v:.2f} s" for k, v in ph.items()), flush=True)
    sv = step_vs_peer(cfg, 10 if quick else 20, 3 if quick else 7)
    threads = sv["threads"]
    top = cpu_breakdown(cfg, steps=3 if quick else 10)
    r = LAST.get("result")
    e2e_over_loop = (r.ours_median / r.reference_median) if r is not None else float("nan")
    rest = ph["total"] - ph.get("train_step", 0.0)
    targets = [
        Target(f"`train` end to end / its training loop ({size} preset)", e2e_over_loop, 1.5, "x",
               beside=(f"loop {r.reference_median:.2f} s, end to end {r.ours_median:.2f} s" if r is not None else "")),
        Target(f"{size}-preset training step: a from-scratch PyTorch step of the same model / petheory's step",
               sv["peer"] / sv["ours"], 0.9, "x", at_most=False,
               beside=f"petheory {1e3 * sv['ours']:.3g} ms ({sv['flops'] / 1e6:.0f} MFLOP counted), peer "
                      f"{1e3 * sv['peer']:.3g} ms ({sv['peer_flops'] / 1e6:.0f} MFLOP); {threads} torch threads"),
    ]
    ph_text = ", ".join(f"{k} {v:.2f} s" for k, v in ph.items() if k != "total")
    top_text = ", ".join(f"{name} {pct:.0f} %" for name, pct in top)
    return (NOTES + f"\n\nOne instrumented `train()` ({ph['total']:.1f} s): {ph_text} (evaluate includes the "
            f"initial, per-epoch and final evaluations; not in train_step: {rest:.1f} s).\n\nWhere a training step's "
            f"CPU time goes (torch.profiler, self CPU time by operator, {threads} threads): {top_text}.\n\n"
            + render_targets(targets))


LAST: dict = {}


NOTES = """Ratio = loop / end-to-end (target >= 0.67: end to end within 1.5x of the loop). torch threads: petheory's
choice at the start, as `petheory train` makes it (the cores no other process is using; see the threads section). What the rest costs: evaluation under inference mode (the train split before the first step, the test
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
    from petheory._threads import pick_threads

    torch.set_num_threads(pick_threads(None))  # as `petheory train` does without --threads
    sys.exit(cli(NAME, TITLE, make_cases, notes=notes, repeats=2, warmup=0))
