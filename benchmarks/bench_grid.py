"""Mixed-family grids: one batched program for every PE against the per-run loop, on the same steps.

Cases (``--size small``, the CPU target of issue 33): gu2025 Task 1's 7 PEs x 3 seeds; Task 1 with its
Fig. 5-7 runs (the 7 PEs, pure RoPE and partial RoPE on the first 1 and 2 of the small model's 4 heads, x 3
seeds); li2025 Table 5's 7 PEs x 5 seeds on the running sum. Each case times ``--steps`` training steps of
every run three ways, in one process, interleaved (mixed grid, loop, per-config grid, mixed grid, loop, ...),
and reports medians over ``--repeats``:

* **mixed grid**: :func:`petheory.experiments.grid.train_grid`'s step with the PE families as member tensors
  (:mod:`petheory.experiments.mixed`; MLA and short learned tables in their own groups);
* **per-config grid**: the same grid with one group per model config (``mixed=False``: the step before issue 33);
* **loop**: :func:`petheory.nn.evaluation.train_step` on each run's own model, one after the other (what
  :func:`~petheory.nn.training.train` does per step).

Agreement, before any timing: every member's gradient at initialisation on one batch from the mixed grid
against the per-run model's (relative 2-norm), within float32 round-off of a sum over the batch's B x T
tokens, n u with u = 2^-24 (the tests hold the same bound).

FLOPs per step are counted from the model (:func:`petheory.experiments.grid.step_flops`, FlopCounterMode on the meta
device); the paper preset's count and the H100 step times measured for it (``gpu_records.GU_TRAIN_MIN``) give
the projection of gu2025's Task 1 plan that ``gpu_records.task1_projection`` states::

    python benchmarks/bench_grid.py                 # print the section
    python benchmarks/bench_grid.py --write         # into benchmarks/RESULTS.md
    python benchmarks/bench_grid.py --quick         # smoke sizes, 1 repeat: checks that it runs
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools" / "gpu"))  # gpu_records: the GPU plan this section projects

import torch  # noqa: E402

from harness import emit, machine_info  # noqa: E402
from petheory.experiments import papers  # noqa: E402
from petheory.nn import preset  # noqa: E402
from petheory.experiments.grid_measure import first_gradients, step_flops, step_time  # noqa: E402
from petheory.nn.evaluation import loss_fn, split_to, train_batch, train_step  # noqa: E402
from petheory.nn.training import setup  # noqa: E402

U = 2.0**-24


def cases(size: str) -> list[tuple[str, list]]:
    gu = list(papers.GU2025_PES.values())
    figs = ["rope", "rope:heads=1", "rope:heads=2"]  # Fig. 5's pure and partial RoPE that fit the small model's 4 heads
    if size == "smoke":
        figs = ["rope", "rope:heads=1"]  # 2 heads
    over = {"ablate": False}
    t1 = [preset("gu2025_task1", size, pe=pe, seed=s, **over) for pe in gu for s in (0, 1, 2)]
    t1f = t1 + [preset("gu2025_task1", size, pe=pe, seed=s, **over) for pe in figs for s in (0, 1, 2)]
    t5 = [preset("running_sum", size, pe=pe, seed=s, **over) for pe in papers.LI2025_PES for s in range(5)]
    return [(f"gu2025_task1 7 PEs x 3 seeds ({size})", t1), (f"gu2025_task1 + Fig. 5-7, 10 PEs x 3 seeds ({size})", t1f),
            (f"running_sum li2025 7 PEs x 5 seeds ({size})", t5)]


def agreement(cfgs) -> tuple[float, float]:
    """Worst relative 2-norm of (mixed-grid gradient - per-run gradient) over members, and its bound n u."""
    worst, bound = 0.0, 0.0
    for c, gg in zip(cfgs, first_gradients(cfgs)):
        device, data, mcfg, model, opt, sched, gen, _ = setup(c)
        idx = torch.randperm(len(data.train), generator=gen)[:c.batch_size]
        b = split_to(data.train.batch(idx), device)  # untrimmed, as the grid's batch
        loss_fn(data.kind, model(b.x), b).backward()
        num = sum(float(((gg["grads"][n] - p.grad) ** 2).sum()) for n, p in model.named_parameters())
        den = sum(float((p.grad ** 2).sum()) for p in model.parameters())
        worst = max(worst, math.sqrt(num / max(den, 1e-300)))
        bound = max(bound, c.batch_size * b.x.shape[1] * U)
    return worst, bound


class Loop:
    """Every run's own model and optimiser: ``steps`` calls of train_step each, one run after the other."""

    def __init__(self, cfgs):
        self.runs = []
        for c in cfgs:
            device, data, mcfg, model, opt, sched, gen, _ = setup(c)
            self.runs.append((c, device, data, model, opt, sched, torch.Generator().manual_seed(c.seed)))

    def __call__(self, steps: int) -> None:
        for c, device, data, model, opt, sched, gen in self.runs:
            for _ in range(steps):
                idx = torch.randint(0, len(data.train), (c.batch_size,), generator=gen)
                train_step(model, opt, train_batch(data.train, idx, device), data.kind, device=device,
                           amp=c.amp and device.type == "cuda", grad_clip=c.grad_clip or 0.0, sched=sched)


class GridSteps:
    """``steps`` eager steps of every member of the grid (mixed or per-config), timed by
    :func:`petheory.experiments.grid_measure.step_time` (the grid is built outside its timing); returns seconds per step."""

    def __init__(self, cfgs, mixed: bool):
        self.cfgs, self.mixed = cfgs, mixed

    def __call__(self, steps: int) -> float:
        return step_time(self.cfgs, steps=steps, mixed=self.mixed)["step_ms"] / 1e3


def run_case(label, cfgs, steps, repeats) -> dict:
    print(f"  {label}: {len(cfgs)} runs, building ...", flush=True)
    disc, tol = agreement(cfgs)
    if not disc <= tol:
        raise SystemExit(f"mixed grid disagrees with the per-run models on {label}: {disc:.3g} > {tol:.3g}")
    sides = {"mixed": GridSteps(cfgs, True), "loop": Loop(cfgs), "per-config": GridSteps(cfgs, False)}
    for fn in sides.values():  # warm-up
        fn(1)
    times = {k: [] for k in sides}
    load = [os.getloadavg()[0]]
    for _ in range(repeats):
        for k, fn in sides.items():  # interleaved: drifting load hits every side alike
            t0 = time.perf_counter()
            per_step = fn(steps)  # the grids time their own steps (median), the loop is timed here
            times[k].append(per_step if per_step is not None else (time.perf_counter() - t0) / steps)
        load.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    flops = sum(step_flops(c) for c in cfgs)
    groups = "mixed"
    print(f"    mixed {1e3 * med['mixed']:.0f} ms, per-config {1e3 * med['per-config']:.0f} ms, loop {1e3 * med['loop']:.0f} ms "
          f"-> {med['loop'] / med['mixed']:.2f}x ({groups})", flush=True)
    return {"label": label, "runs": len(cfgs), "med": med, "disc": disc, "tol": tol, "flops": flops,
            "groups": groups, "load": (min(load), max(load))}


def plan_lines() -> list[str]:
    import gpu_records as G

    p = G.task1_projection()
    lines = ["", "gu2025 Task 1 with its Fig. 5-7 runs at the paper preset (`gpu_records.task1_projection`; H100 step "
             "times of RESULTS.md nn-cuda, FLOPs counted from the models):", "",
             "| runs | FLOPs per step (counted) | steps | measured step (ms, H100) | MFU (measured) | serial training (min) |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in p["rows"]:
        lines.append(f"| {r['task']} {r['pe']} x {r['runs']} | {r['flops_per_step']:.3g} | {r['steps']} | "
                     f"{r['step_ms']:.1f} | {100 * r['mfu']:.1f}% | {r['minutes']:.1f} |")
    lines += ["", f"Total: {p['runs']} runs, {p['flops']:.3g} FLOPs, **{p['serial_min']:.0f} GPU-minutes run by run** at the "
              f"measured step times (packing factor 1). The {p['target_min']} GPU-minute target needs a packing factor of "
              f"{p['packing_needed']:.1f}, i.e. {100 * p['mfu_needed']:.0f}% MFU over the whole plan "
              f"(bf16 peak {p['peak'] / 1e12:.0f} TFLOP/s); at 100% MFU the plan would take {p['floor_min']:.1f} min."]
    return lines


def packing(device: str, members: int, size: str = "paper", steps: int = 10) -> dict:
    """The packing factor of a mixed grid on ``device``: the summed one-run step times of ``members`` Task 1 runs
    (the first of stage gu2025_task1_figs at batch 512: every PE family) over the grid's step time, both CUDA-graph
    steps on CUDA (:func:`petheory.experiments.grid_measure.step_time`). What :func:`gpu_records.task1_projection` divides by."""
    import gpu_records as G

    cfgs = [c for c in G.configs_of(G.STAGES["gu2025_task1_figs"][0], device) if c.batch_size == 512][:members]
    if size != "paper":  # the same runs at another preset (a CPU check that the measurement runs)
        cfgs = [preset(c.task.name, size, pe=c.model.pe, seed=c.seed, device=device, ablate=False) for c in cfgs]
    one = [step_time([c], steps=steps)["step_ms"] for c in cfgs]
    grid = step_time(cfgs, steps=steps)
    return {"members": len(cfgs), "one_run_ms": one, "grid_ms": grid["step_ms"], "packing": sum(one) / grid["step_ms"],
            "cuda_graphs": grid["cuda_graphs"], "flops": sum(step_flops(c) for c in cfgs)}


def main(argv=None) -> int:
    from harness import add_output_arguments, destination

    p = argparse.ArgumentParser(description="benchmark grid: mixed-family grids vs the per-run loop")
    p.add_argument("--quick", action="store_true", help="smoke sizes, 1 repeat: checks that it runs")
    p.add_argument("--size", default="small")
    p.add_argument("--steps", type=int, default=3, help="training steps per timed call")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--threads", type=int, default=1, help="torch threads (default 1: the CPU is shared)")
    p.add_argument("--packing", metavar="DEVICE", help="only measure the packing factor of a paper-preset mixed grid of "
                   "--members Task 1 runs on DEVICE (a GPU session: --packing cuda) and print it as JSON")
    p.add_argument("--members", type=int, default=8)
    add_output_arguments(p)
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.packing:
        import json

        print(json.dumps(packing(args.packing, args.members, "smoke" if args.quick else "paper")))
        return 0
    destination(args)
    size, repeats = ("smoke", 1) if args.quick else (args.size, args.repeats)
    torch.set_num_threads(args.threads)
    machine = machine_info()
    print(f"grid: mixed-family grids vs the per-run loop ({size}, {args.steps} steps x {repeats} repeats)", flush=True)
    rows = [run_case(label, cfgs, args.steps, repeats) for label, cfgs in cases(size)]
    m = machine
    lines = ["## grid: mixed-family grids (every PE as member tensors) vs the per-run loop", "",
             f"`python benchmarks/bench_grid.py{' --quick' if args.quick else ''}` — "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, git `{m.get('git')}`; {args.steps} training steps "
             f"per timed call, median of {repeats} calls per side, the three sides interleaved in one process.", "",
             f"Machine: {m['cpu']}, {m['logical_cores']} logical cores ({m['usable_cores']} usable), {m['os']}; "
             f"Python {m['python']}, torch {m['torch']}; {args.threads} torch thread(s); BLAS: {m['blas']}. **Shared CPU**: "
             f"load average {m['load_average']} at start (other engineers' jobs); per case below, min-max over the run.", "",
             "| case | runs | mixed grid (ms/step) | per-config grid (ms/step) | loop (ms/step) | loop / mixed | "
             "loop / per-config | FLOPs/step (all runs) | mixed GFLOP/s | load | gradient discrepancy | bound |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        md = r["med"]
        lines.append(f"| {r['label']} | {r['runs']} | {1e3 * md['mixed']:.0f} | {1e3 * md['per-config']:.0f} | "
                     f"{1e3 * md['loop']:.0f} | **{md['loop'] / md['mixed']:.2f}** | {md['loop'] / md['per-config']:.2f} | "
                     f"{r['flops']:.3g} | {r['flops'] / md['mixed'] / 1e9:.1f} | {r['load'][0]:.1f}-{r['load'][1]:.1f} | "
                     f"{r['disc']:.2g} | {r['tol']:.2g} |")
    lines += plan_lines()
    return emit("grid", "\n".join(lines), args)


if __name__ == "__main__":
    raise SystemExit(main())
