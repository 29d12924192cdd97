"""Training speed of petheory.nn: seed ensembles vs a per-seed loop, throughput and MFU, the
li2025 Table 5 grid, and gu2025 Task 1 at paper scale.

* **ensemble** (harness cases): ``train_ensemble(cfg, S seeds)`` (``torch.func`` vmap over stacked
  parameters) against ``[train(cfg with seed s) for s in seeds]``: the same total work. Agreement:
  every member's final training loss equals its per-seed run's within float32 round-off
  accumulated over the steps. ``ratio`` = loop time / ensemble time (target on one H100: >= 4x).
* **throughput**: tokens/s of the training step (forward, backward, AdamW) after warm-up, and
  model FLOP utilisation ``MFU = (6 N + 12 L T d) tokens/s / peak`` (PaLM's estimate; N the
  non-embedding parameters), with the bf16 dense peak of the GPU when it is a known one.
* **table5**: wall time of li2025 Table 5's grid, every PE of ``papers.LI2025_PES`` x 5 seeds,
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
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, add_output_arguments, destination, emit, machine_info, render_section, run_cases  # noqa: E402

import torch  # noqa: E402

from petheory.experiments import papers, sweep  # noqa: E402
from petheory.nn import preset, train  # noqa: E402
from petheory.experiments.grid import train_grid  # noqa: E402
from petheory.experiments.grid_measure import step_time  # noqa: E402
from petheory.nn.evaluation import loss_fn, split_to, train_batch, train_step  # noqa: E402
from petheory.nn.training import resolve_device, setup  # noqa: E402

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
    """Seed ensembles and a PE x seed grid against the per-run loop on the same work.

    Agreement is checked with autocast off (``amp=False``, float32 on both sides): under bf16
    autocast the two sides round differently at every step (unit roundoff 2^-8), so they agree
    only to bf16 accuracy, compounded over the steps, which is no test of the grid's correctness.
    Timings of these tiny models do not depend on the dtype (they are launch-bound).

    Agreement: what the grid changes against the loop is the forward and backward pass (batched
    kernels over members, device-side batches); AdamW is elementwise. So each member's gradient at
    initialisation on its first batch must equal the loop's within float32 round-off of the
    longest reduction, gamma_n = n u / (1 - n u) with n = batch x sequence length x d_model
    (Higham's bound for a sum of n products; u = 2^-24). Whole trajectories are not compared
    with a round-off bound: Adam divides by sqrt(v), so a gradient coordinate that is zero in
    exact arithmetic but round-off in float32 moves by up to lr either way; the full runs'
    difference is printed beside the timing.
    """
    S = 4 if quick else 8
    gpu = device.startswith("cuda")
    specs = [("running_sum", ["alibi"], {"task.n_train": 64 if quick else 256}), ("copy", ["rope"], {})]
    if gpu:  # the sizes the GPU targets are about: li2025's running-sum model
        n = 512 if quick else 2000
        specs = [("running_sum", ["alibi"], {"task.n_train": n}), ("running_sum", ["rope"], {"task.n_train": n}),
                 ("running_sum", papers.LI2025_PES, {"task.n_train": n})]
    size = "small" if gpu else "smoke"
    cases = []
    for task, pes, over in specs:
        seeds = list(range(S)) if len(pes) == 1 else list(range(5 if not quick else 2))
        cfgs = [preset(task, size, pe=pe, seed=s, device=device, epochs=1 if quick or len(pes) > 1 else 2, ablate=False,
                       amp=False, **over) for pe in pes for s in seeds]
        cfg = cfgs[0]

        def ours(cfgs=cfgs):
            return [r["final"]["train"] for r in train_grid(cfgs)]

        def reference(cfgs=cfgs):
            return [train(c)["final"]["train"] for c in cfgs]

        def agree(a, b, cfgs=cfgs):
            from petheory.experiments.grid_measure import first_gradients

            key = "mse" if "mse" in a[0] else "loss"
            print(f"    full runs differ by {max(abs(x[key] - y[key]) for x, y in zip(a, b)):.3g} in final train {key}",
                  flush=True)
            worst, n_max = 0.0, 0
            for c, gg in zip(cfgs, first_gradients(cfgs)):
                device, data, mcfg, model, opt, sched, gen, _ = setup(c)
                idx = torch.randperm(len(data.train), generator=gen)[:c.batch_size]
                bt = split_to(data.train.batch(idx), device)
                loss_fn(data.kind, model(bt.x), bt).backward()
                num = sum(float(((gg["grads"][n] - p.grad.cpu()) ** 2).sum()) for n, p in model.named_parameters())
                den = sum(float((p.grad.cpu() ** 2).sum()) for p in model.parameters())
                worst = max(worst, math.sqrt(num / max(den, 1e-300)))
                n_max = max(n_max, c.batch_size * bt.x.shape[1] * mcfg.d_model)
            u = 2.0**-24
            return worst, n_max * u / (1 - n_max * u)

        label = f"{task} {pes[0] if len(pes) == 1 else f'{len(pes)} PEs'}, {len(cfgs)} runs x {cfg.epochs} epochs ({size})"
        cases.append(Case(label, ours, reference, agree, {"runs": len(cfgs), "task": task, "pes": len(pes),
                                                           "agreement": "first-step gradients, relative 2-norm"}))
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
        b = train_batch(data.train, idx, device)
        train_step(model, opt, b, data.kind, device=device, amp=amp, grad_clip=cfg.grad_clip, sched=sched)
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


def table5_grid(device: str, size: str, ensemble: bool, export: str | None = None, seeds=(0, 1, 2, 3, 4)) -> dict:
    """Wall time of li2025 Table 5's grid at ``size`` (every PE x 5 seeds, exactly the preset), and
    the records (exported to ``export/li2025_table5`` when given: the same runs the records ship)."""
    from petheory import records

    cfgs = sweep.expand({"task": "running_sum", "preset": size, "pe": papers.LI2025_PES, "seed": list(seeds),
                         "device": device})
    with tempfile.TemporaryDirectory(prefix="bench-table5-") as tmp:
        t0 = time.perf_counter()
        recs = sweep.run(cfgs, tmp, ensemble=ensemble)
        dt = time.perf_counter() - t0
    if export:
        records.export(recs, export, experiment="li2025_table5")
    return {"runs": len(cfgs), "seconds": dt, "gpu_util": recs[0]["timing"].get("gpu_util")}


def gu2025_paper_steps(device: str, task: str, steps: int) -> dict:
    """Per PE: the median training-step time at gu2025's paper preset (CUDA graph), and the whole
    run's training time it implies (steps per epoch x epochs; evaluation and ablation excluded)."""
    out = {}
    for name, spec in papers.GU2025_PES.items():
        cfg = preset(task, "paper", pe=spec, device=device)
        st = step_time([cfg], steps=steps)
        total = math.ceil(len_train(cfg) / cfg.batch_size) * cfg.epochs
        out[name] = {**st, "steps": total, "train_minutes": st["step_ms"] * total / 6e4}
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="benchmark nn: seed ensembles, throughput, li2025/gu2025 grids")
    p.add_argument("--device", default="cpu", help="cpu or cuda (default: cpu)")
    p.add_argument("--quick", action="store_true", help="tiny sizes: checks the benchmark runs, numbers mean little")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--threads", type=int, help="torch CPU threads (default: torch's)")
    add_output_arguments(p)
    p.add_argument("--export-records", metavar="DIR", help="also export the Table 5 grid's records to DIR/li2025_table5")
    p.add_argument("--table5-seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4], help="seeds of the Table 5 grid (5 of them)")
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
    t5 = None if args.quick else table5_grid(args.device, t5_size, ensemble=gpu, export=args.export_records,
                                                 seeds=args.table5_seeds)
    if t5:
        util = "" if t5["gpu_util"] is None else f", GPU utilisation {t5['gpu_util']:.0f}%"
        print(f"  table5 grid ({t5_size}): {t5['runs']} runs in {t5['seconds']:.1f} s{util}", flush=True)
    t1 = {}
    if gpu:
        for task in ("gu2025_task1", "gu2025_task2"):
            t1[task] = gu2025_paper_steps(args.device, task, 5 if args.quick else 20)
            for name, r in t1[task].items():
                print(f"  {task} paper {name}: step {r['step_ms']:.1f} ms -> {r['train_minutes']:.1f} min of training", flush=True)

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
        lines.append(f"li2025 Table 5 grid ({t5_size} preset, {len(papers.LI2025_PES)} PEs x 5 seeds, 3 test lengths, "
                     f"{'one grid, CUDA graph' if gpu else 'per-seed loop'}): **{t5['runs']} runs in {t5['seconds']:.1f} s**"
                     + ("" if t5["gpu_util"] is None else f", mean GPU utilisation {t5['gpu_util']:.0f}% while training")
                     + ("" if gpu else " (CPU, smoke sizes: not the 5-minute GPU target, which is about the paper preset)."))
    if t1:
        lines += ["", "gu2025 at the paper preset, one run per PE, CUDA-graph step: median step time and the training "
                  "time it implies (steps x step; evaluation and head ablation not included; whole-run wall times are "
                  "in the records' `timing.seconds`).", "",
                  "| task | PE | step (ms) | tokens/s | steps | training (min) |", "|---|---|---:|---:|---:|---:|"]
        for task, rows_ in t1.items():
            for name, r in rows_.items():
                lines.append(f"| {task} | {name} | {r['step_ms']:.1f} | {r['tokens_per_step'] / r['step_ms'] * 1e3:,.0f} | "
                             f"{r['steps']} | {r['train_minutes']:.1f} |")
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
