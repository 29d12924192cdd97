"""``petheory train`` end to end against its own training loop (issue 35: within 1.5x at the small preset).

Ours: :func:`petheory.nn.train` of gu2025 Task 1 at the small preset (RoPE), everything a user waits
for: data, model, the initial evaluation, per-epoch test evaluation, final evaluation at every test
length, head ablation on train+test (gu2025 §5.1), the position probe and the record. Reference: the
same run's training loop alone (``setup`` and the same ``train_step`` calls, same seeds and batch
order). ``ratio = loop / end-to-end``: the target 1.5x is ``ratio >= 0.67``. Agreement: the last
epoch's mean training loss, identical bit for bit (the evaluations draw no random numbers).

Run: ``python benchmarks/run.py train`` (or this file directly). ``--quick``: the smoke preset.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, cli  # noqa: E402

from petheory.nn import preset  # noqa: E402

T = importlib.import_module("petheory.nn.train")
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


NOTES = """Ratio = loop / end-to-end (target >= 0.67: end to end within 1.5x of the loop). torch threads: the default
(every core). What the rest costs: evaluation (initial train split, the test split after every epoch, every test length
at the end), head ablation on train+test batched across heads (one forward for the baseline and the residual streams,
then one forward of the remaining layers per layer for all its heads), the position probe."""


if __name__ == "__main__":
    sys.exit(cli(NAME, TITLE, make_cases, notes=NOTES))
