"""Where a training step's GPU time goes: the top kernels of a few steps under torch.profiler.

    python tools/gpu/profile_step.py --task gu2025_task1 --preset paper --pe sinusoidal --device cuda

Trains nothing that is kept: builds the run's model and data (petheory.nn.training.setup), runs a few
plain steps to warm up, then profiles ``--steps`` steps and prints the kernels by total CUDA time
(or CPU time on a CPU), with the number of launches per step.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import torch  # noqa: E402

from petheory.nn import preset  # noqa: E402
from petheory.nn.evaluation import split_to, train_batch, train_step  # noqa: E402
from petheory.nn.training import setup  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", default="gu2025_task1")
    p.add_argument("--preset", default="paper")
    p.add_argument("--pe", default="sinusoidal")
    p.add_argument("--device", default="cuda")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--top", type=int, default=15)
    args = p.parse_args(argv)
    cfg = preset(args.task, args.preset, pe=args.pe, device=args.device)
    device, data, mcfg, model, opt, sched, gen, _ = setup(cfg)
    amp = cfg.amp and device.type == "cuda"
    train = split_to(data.train, device)

    def step():  # the training step of petheory.nn.training (data already on the device: no copy per step)
        idx = torch.randint(0, len(train), (cfg.batch_size,), device=device)
        train_step(model, opt, train_batch(train, idx, device), data.kind, device=device, amp=amp,
                   grad_clip=cfg.grad_clip, sched=sched)

    for _ in range(5):
        step()
    acts = [torch.profiler.ProfilerActivity.CPU] + ([torch.profiler.ProfilerActivity.CUDA] if device.type == "cuda" else [])
    with torch.profiler.profile(activities=acts) as prof:
        for _ in range(args.steps):
            step()
        if device.type == "cuda":
            torch.cuda.synchronize()
    key = "cuda_time_total" if device.type == "cuda" else "cpu_time_total"
    print(f"{args.task} {args.preset} {args.pe} on {device}: {args.steps} steps")
    print(prof.key_averages().table(sort_by=key, row_limit=args.top, max_name_column_width=60))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
