"""Training speed of petheory.nn: seed ensembles vs a per-seed loop, throughput and MFU, the
li2025 Table 5 grid, and gu2025 Task 1 at paper scale.

* **ensemble** (harness cases): ``train_ensemble(cfg, S seeds)`` (``torch.func`` vmap over stacked
  parameters) against ``[train(cfg with seed s) for s in seeds]``: the same total work. Agreement:
  every member's final training loss equals its per-seed run's within float32 round-off
  accumulated over the steps. ``ratio`` = loop time / ensemble time (target on one H100: >= 4x).
* **throughput**: tokens/s of the training step (forward, backward, AdamW) after warm-up, and
  model FLOP utilisation ``MFU = (6 N + 12 L T d) tokens/s / peak`` (PaLM's estimate; N the
  non-embedding parameters), with the bf16 dense peak of the GPU when it is a known one.
* **table5**: wall time of li2025 Table 5's grid, every PE of ``experiments.LI2025_PES`` x 5 seeds,
  each evaluated at 3 lengths (target on one H100, paper preset, ensembles: <= 5 min).
* **task1**: gu2025 Task 1 at the paper preset, per PE: measured epochs x 100 (``--full``: the whole
  run) (target on one H100: <= 15 min per PE).

CPU (the default here): ensemble cases at smoke size, throughput at the small preset, the Table 5
grid at the smoke preset; the GPU rows need ``--device cuda``::

    python benchmarks/bench_nn.py                     # CPU
    python benchmarks/bench_nn.py --device cuda       # one GPU: paper sizes for table5/task1
    python benchmarks/bench_nn.py --device cuda --full
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, add_output_arguments, destination, emit, machine_info, render_section, run_cases  # noqa: E402

import torch  # noqa: E402

from petheory import experiments, sweep  # noqa: E402
from petheory.nn import preset, train  # noqa: E402
from petheory.nn.ensemble import train_ensemble  # noqa: E402
from petheory.nn.train import _autocast, _to, _trim, loss_fn, resolve_device, setup  # noqa: E402

#: bf16 dense peak FLOP/s by GPU name fragment (vendor data sheets; SXM unless named).
PEAK_BF16 = {"H100 PCIe": 756e12, "H100": 989e12, "H200": 989e12, "A100": 312e12, "L40S": 362e12, "L4": 121e12,
             "A10": 125e12, "RTX 4090": 165e12}


def peak_flops(device: torch.device) -> float | None:
    if device.type != "cuda":
        return None
    name = torch.cuda.get_device_name(device)
    for frag, peak in PEAK_BF16.items():
        if frag in name:
            return peak
    return None


def ensemble_cases(device: str, quick: bool) -> list[Case]:
    S = 4 if quick else 8
    specs = [("running_sum", "alibi", {"task.n_train": 64 if quick else 256}), ("copy", "rope", {})]
    if device.startswith("cuda"):  # the sizes the GPU target is about: li2025's running-sum model
        specs = [("running_sum", "alibi", {"task.n_train": 2000}), ("running_sum", "rope", {"task.n_train": 2000})]
    size = "small" if device.startswith("cuda") else "smoke"
    cases = []
    for task, pe, over in specs:
        cfg = preset(task, size, pe=pe, device=device, epochs=1 if quick else 2, ablate=False, **over)
        seeds = list(range(S))

        def ours(cfg=cfg, seeds=seeds):
            return [r["final"]["train"] for r in train_ensemble(cfg, seeds)]

        def reference(cfg=cfg, seeds=seeds):
            return [train(dataclasses.replace(cfg, seed=s))["final"]["train"] for s in seeds]

        def agree(a, b):
            key = "mse" if "mse" in a[0] else "loss"
            diff = max(abs(x[key] - y[key]) for x, y in zip(a, b))
            steps = 2 * math.ceil(len_train(cfg) / cfg.batch_size) * cfg.epochs
            # float32 round-off, compounded over the optimisation steps (batched vs single matmuls)
            return diff, 1e-6 * steps * max(abs(x[key]) for x in b) + 1e-6

        cases.append(Case(f"{task} {pe}, {S} seeds x {cfg.epochs} epochs ({size})", ours, reference, agree,
                          {"seeds": S, "task": task, "pe": pe}))
    return cases


def len_train(cfg) -> int:
    from petheory.nn import tasks

    return len(tasks.load(cfg.task).train)


def throughput(cfg, steps: int, warmup: int = 5) -> dict:
    """tokens/s and MFU of the training step of ``cfg`` (no evaluation, no checkpoints)."""
    device, data, mcfg, model, opt, sched, gen, _ = setup(cfg)
    amp = cfg.amp and device.type == "cuda"
    n = len(data.train)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    tokens = 0
    for i in range(warmup + steps):
        if i == warmup:
            sync()
            t0, tokens = time.perf_counter(), 0
        idx = torch.randint(0, n, (cfg.batch_size,), generator=gen)
        b = _to(_trim(data.train.batch(idx)), device)
        with _autocast(device, amp):
            out = model(b.x)
        loss = loss_fn(data.kind, out, b)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        tokens += b.x.shape[0] * b.x.shape[1]
    sync()
    dt = time.perf_counter() - t0
    T = b.x.shape[1]
    emb = sum(p.numel() for name, p in model.named_parameters() if name.startswith(("embed", "abs_pe")))
    N = model.n_params() - emb
    flops_per_token = 6 * N + 12 * mcfg.n_layer * T * mcfg.d_model
    tps = tokens / dt
    peak = peak_flops(device)
    return {"tokens_per_s": tps, "flops_per_token": flops_per_token, "achieved_flops": tps * flops_per_token,
            "mfu": None if peak is None else tps * flops_per_token / peak, "seq_len": T, "params": model.n_params(),
            "step_ms": 1e3 * dt / steps}


def table5_grid(device: str, size: str, ensemble: bool) -> dict:
    cfgs = sweep.expand({"task": "running_sum", "preset": size, "pe": experiments.LI2025_PES, "seed": [0, 1, 2, 3, 4],
                         "device": device, "set": {"ablate": False}})
    with tempfile.TemporaryDirectory(prefix="bench-table5-") as tmp:
        t0 = time.perf_counter()
        sweep.run(cfgs, tmp, ensemble=ensemble)
        return {"runs": len(cfgs), "seconds": time.perf_counter() - t0}


def task1_paper(device: str, pe: str, full: bool, epochs: int = 1) -> dict:
    cfg = preset("gu2025_task1", "paper", pe=pe, device=device)
    if full:
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="bench-task1-") as tmp:
            rec = train(cfg, tmp)
        return {"seconds": time.perf_counter() - t0, "extrapolated": False, "test_acc": rec["final"]["test"]["128"]["acc"]}
    short = dataclasses.replace(cfg, epochs=epochs, ablate=False)
    t0 = time.perf_counter()
    train(short)
    dt = time.perf_counter() - t0
    return {"seconds": dt * cfg.epochs / epochs, "extrapolated": True, "measured_epochs": epochs}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="benchmark nn: seed ensembles, throughput, li2025/gu2025 grids")
    p.add_argument("--device", default="cpu", help="cpu or cuda (default: cpu)")
    p.add_argument("--quick", action="store_true", help="tiny sizes: checks the benchmark runs, numbers mean little")
    p.add_argument("--full", action="store_true", help="cuda: train gu2025 Task 1 for all its epochs (else 1 epoch x 100)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--threads", type=int, help="torch CPU threads (default: torch's)")
    add_output_arguments(p)
    args = p.parse_args(argv)
    destination(args)  # refuse a bad combination before minutes of timing
    if args.threads:
        torch.set_num_threads(args.threads)
    device = resolve_device(args.device)
    gpu = device.type == "cuda"
    machine = machine_info()
    dev_name = torch.cuda.get_device_name(device) if gpu else f"CPU ({torch.get_num_threads()} torch threads)"
    print(f"nn: device {dev_name}", flush=True)

    results = run_cases(ensemble_cases(args.device, args.quick), warmup=args.warmup, repeats=args.repeats)

    rows = []
    tp_cfgs = ([("gu2025_task1", "paper", "rope+sinusoidal"), ("gu2025_task1", "paper", "mla"), ("running_sum", "paper", "alibi")]
               if gpu else [("gu2025_task1", "small", "rope+sinusoidal"), ("running_sum", "small", "alibi")])
    for task, size, pe in tp_cfgs:
        tp = throughput(preset(task, size, pe=pe, device=args.device), steps=5 if args.quick else 30)
        rows.append((f"{task} {size} {pe}", tp))
        print(f"  throughput {task} {size} {pe}: {tp['tokens_per_s']:.0f} tokens/s", flush=True)

    t5_size = "paper" if gpu else "smoke"
    t5 = None if args.quick else table5_grid(args.device, t5_size, ensemble=gpu)
    if t5:
        print(f"  table5 grid ({t5_size}): {t5['runs']} runs in {t5['seconds']:.1f} s", flush=True)
    t1 = {}
    if gpu and not args.quick:
        for name, spec in experiments.GU2025_PES.items():
            t1[name] = task1_paper(args.device, spec, args.full)
            print(f"  task1 paper {name}: {t1[name]['seconds'] / 60:.1f} min", flush=True)

    lines = [
        f"Device: **{dev_name}**. Ensemble `ratio` = per-seed loop time / ensemble time (same total work; > 1: the "
        "ensemble is faster).",
        "",
        "| training-step throughput | seq len | params | step (ms) | tokens/s | model FLOP/s | MFU |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for label, tp in rows:
        mfu = "n/a (no peak for a CPU)" if tp["mfu"] is None else f"{100 * tp['mfu']:.1f}%"
        lines.append(f"| {label} | {tp['seq_len']} | {tp['params']:,} | {tp['step_ms']:.1f} | {tp['tokens_per_s']:,.0f} | "
                     f"{tp['achieved_flops']:.3g} | {mfu} |")
    lines.append("")
    if t5:
        lines.append(f"li2025 Table 5 grid ({t5_size} preset, {len(experiments.LI2025_PES)} PEs x 5 seeds, 3 test lengths, "
                     f"{'ensembles' if gpu else 'per-seed loop'}): **{t5['runs']} runs in {t5['seconds']:.1f} s**"
                     + ("" if gpu else " (CPU, smoke sizes: not the 5-minute GPU target, which is about the paper preset)."))
    if t1:
        lines += ["", "| gu2025 Task 1, paper preset | minutes | how |", "|---|---:|---|"]
        for name, r in t1.items():
            how = f"{r['measured_epochs']} epoch x {preset('gu2025_task1', 'paper').epochs}" if r["extrapolated"] else "full run"
            lines.append(f"| {name} | {r['seconds'] / 60:.1f} | {how} |")
    if not gpu:
        lines += ["", "**GPU targets not measured here**: this session had no GPU. The seed-ensemble >= 4x on one H100, "
                  "the li2025 Table 5 grid <= 5 min and gu2025 Task 1 <= 15 min per PE (paper preset), tokens/s and MFU "
                  "on the GPU come from `python benchmarks/bench_nn.py --device cuda` (add `--full` for whole Task 1 runs)."]
    name = "nn" if not gpu else "nn-cuda"
    body = render_section(name, "seed ensembles vs per-seed loop, throughput, paper grids", results, machine,
                          notes="\n".join(lines), warmup=args.warmup, repeats=args.repeats,
                          command="python benchmarks/bench_nn.py" + (f" --device {args.device}" if gpu else "")
                          + (" --quick" if args.quick else ""))
    return emit(name, body, args)


if __name__ == "__main__":
    sys.exit(main())
