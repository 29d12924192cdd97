"""The first minutes of a GPU slice (issue 44): the paper-preset step in each form, side by side, into a record.

One prepared script, tested on CPU beforehand (``--device cpu --dry``), so GPU minutes go to measuring, not
debugging. Each *variant* is one resumable, idempotent stage: it times ``--steps`` training steps of gu2025
Task 1 at the paper preset (RoPE + sinusoidal, the costliest of the plan's common runs) and writes its line
into the record at once (atomic write), so a session cut off keeps what it measured, and a rerun on the same
device, commit and source measures only the variants not yet there (``--force``: all again).

Variants (``--variants`` picks; default all):

* ``current``: what ``gpu_records.py`` trains with today: the one-run grid (``petheory.experiments.grid``) with the
  preset's bf16 autocast and a CUDA graph per step (:func:`petheory.experiments.grid_measure.step_time`);
* ``fp32_eager``: the per-run loop (``petheory.nn.evaluation.train_step``), float32, no graph;
* ``bf16_eager``: the same with bf16 autocast;
* ``fp32_graphs``: the one-run grid in float32 with a CUDA graph (what bf16 alone buys is current / this);
* ``bf16_compile``: the per-run loop on ``torch.compile(model)`` with bf16 autocast (compilation time recorded
  apart from the step time);
* ``bf16_compile_graphs``: the same with ``mode="reduce-overhead"`` (inductor's CUDA graphs);
* ``mixed8``: the mixed-family grid (``petheory.experiments.mixed``: every PE family as member tensors) of 8 Task 1
  runs (the 7 PEs of gu2025's grid without MLA, which trains at batch 1024, plus pure RoPE and Fig. 5's RoPE on one head), packed as
  ``gpu_records.py --members 8`` packs them, bf16 and CUDA graphs: its per-member step against ``current``.

For each: median step (ms), steps per second, tokens per second, counted FLOPs per step
(:func:`petheory.experiments.grid_measure.step_flops`, every member) and MFU against the device's dense bf16 peak
(``bench_nn.PEAK_BF16``; none on a CPU). The record names the fastest variant per run, which
``gpu_records.py --status`` uses to project the minutes left. CUDA-only variants are skipped on a CPU with the
reason written, except under ``--dry``, which shrinks everything (smoke preset, 2 steps) and runs every
variant's code path on whatever device (on a CPU without graphs) to test it; without ``--out`` a dry run
writes nothing.

    python tools/gpu/gpu_efficiency.py --device cuda --budget 180
    python tools/gpu/gpu_efficiency.py --device cpu --dry --variants current,fp32_eager,mixed8
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))  # harness: the writer of RESULTS.md's sections

VARIANTS = ("current", "fp32_eager", "bf16_eager", "fp32_graphs", "bf16_compile", "bf16_compile_graphs", "mixed8")
CUDA_ONLY = {"current": "a CUDA graph", "fp32_graphs": "a CUDA graph", "bf16_compile_graphs": "CUDA graphs",
             "mixed8": "its CUDA path (the CPU grid is measured by bench_grid.py)"}
#: Seconds each variant takes on one H100 at the paper preset (build, warm-up and 20 steps; compile included):
#: what --budget is checked against before a variant starts.
ESTIMATE_S = {"current": 25, "fp32_eager": 20, "bf16_eager": 20, "fp32_graphs": 25, "bf16_compile": 90,
              "bf16_compile_graphs": 120, "mixed8": 60}
#: gu2025 Task 1's runs packed in ``mixed8``: the grid's PEs except MLA (batch 1024: its own grid), plus pure RoPE.
MIXED8_PES = ("rope+sinusoidal", "sinusoidal", "alibi:slopes=gu2025", "nope", "relative", "random:trainable=true",
              "rope", "rope:heads=1")


def _config(dry: bool, pe: str = "rope+sinusoidal", device: str = "cpu", **over):
    from petheory.nn import preset

    return preset("gu2025_task1", "smoke" if dry else "paper", pe=pe, seed=0, device=device, **over)


def _sync(device: str):
    import torch

    return torch.cuda.synchronize if str(device).startswith("cuda") else (lambda: None)


def loop_step_ms(cfg, steps: int, *, compile_mode: str | None = None) -> dict:
    """Median ms of the per-run loop's ``train_step`` (after 3 warm-up steps), optionally on a compiled model."""
    import importlib

    import torch

    T = importlib.import_module("petheory.nn.training")
    E = importlib.import_module("petheory.nn.evaluation")
    device, data, mcfg, model, opt, sched, gen, _ = T.setup(cfg)
    model.train()
    compile_s = None
    if compile_mode is not None:
        t0 = time.perf_counter()
        model = torch.compile(model, mode=compile_mode)
    sync, amp = _sync(cfg.device), cfg.amp and device.type == "cuda"
    times = []
    for i in range(steps + 3):
        b = E.train_batch(data.train, torch.randint(0, len(data.train), (cfg.batch_size,), generator=gen), device)
        sync()
        t1 = time.perf_counter()
        if compile_mode == "reduce-overhead":  # inductor's CUDA graphs reuse their outputs: a step is a new replay
            torch.compiler.cudagraph_mark_step_begin()  # (without it the second step read overwritten tensors, H200)
        E.train_step(model, opt, b, data.kind, device=device, amp=amp, grad_clip=cfg.grad_clip, sched=sched)
        sync()
        if i == 0 and compile_mode is not None:
            compile_s = time.perf_counter() - t0  # the first step compiles
        if i >= 3:
            times.append(time.perf_counter() - t1)
    return {"step_ms": 1e3 * statistics.median(times), "members": 1, "cuda_graphs": False, "compile_s": compile_s,
            "tokens_per_step": cfg.batch_size * data.train.x.shape[1]}


def measure(name: str, device: str, dry: bool, steps: int) -> dict:
    """One variant's line: timing, FLOPs, MFU."""
    from petheory.experiments.grid_measure import step_flops, step_time

    if name in CUDA_ONLY and not device.startswith("cuda") and not dry:
        return {"skipped": f"needs {CUDA_ONLY[name]}: CUDA only (--dry runs its code path without it)"}
    if name in ("current", "fp32_graphs"):
        cfgs = [_config(dry, device=device, amp=name == "current")]
        r = step_time(cfgs, steps=steps, graphs=True)
    elif name in ("fp32_eager", "bf16_eager"):
        cfgs = [_config(dry, device=device, amp=name == "bf16_eager")]
        r = loop_step_ms(cfgs[0], steps)
    elif name in ("bf16_compile", "bf16_compile_graphs"):
        cfgs = [_config(dry, device=device, amp=True)]
        r = loop_step_ms(cfgs[0], steps, compile_mode="reduce-overhead" if name.endswith("graphs") else "default")
    elif name == "mixed8":
        cfgs = [_config(dry, pe=pe, device=device, amp=True) for pe in MIXED8_PES]
        r = step_time(cfgs, steps=steps, graphs=True, mixed=True)
    else:
        raise ValueError(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    flops = sum(step_flops(c) for c in cfgs)
    step_s = r["step_ms"] / 1e3
    peak = _peak(device)
    return {**r, "members": len(cfgs), "step_ms_per_member": r["step_ms"] / len(cfgs), "steps_per_s": 1 / step_s,
            "tokens_per_s": r["tokens_per_step"] / step_s, "flops_per_step": flops,
            "mfu": None if peak is None else flops / step_s / peak}


def _peak(device: str) -> float | None:
    import torch

    if not device.startswith("cuda") or not torch.cuda.is_available():
        return None
    from bench_nn import PEAK_BF16

    name = torch.cuda.get_device_name(torch.device(device))
    return next((v for k, v in PEAK_BF16.items() if k in name), None)


def _device_name(device: str) -> str:
    import platform

    import torch

    if device.startswith("cuda") and torch.cuda.is_available():
        return torch.cuda.get_device_name(torch.device(device))
    return f"cpu ({platform.processor() or platform.machine()}, {torch.get_num_threads()} threads)"


def _commit() -> str | None:
    """``$PETHEORY_COMMIT`` (a tree copied without .git, as on a GPU machine), else ``git rev-parse HEAD``."""
    import subprocess

    from petheory.loaders.environment import env_commit

    if env_commit():  # validated: a commit id (one line, exit 2 through the caller otherwise)
        return env_commit()
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent, capture_output=True,
                             text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def record_path(out: Path, device_name: str) -> Path:
    slug = "".join(ch if ch.isalnum() else "_" for ch in device_name).strip("_").lower()
    return out / f"{slug}.json"


def fastest(variants: dict) -> str | None:
    """The measured variant with the smallest step per member (the packed grid is compared per run)."""
    timed = {k: v["step_ms_per_member"] for k, v in variants.items() if "step_ms_per_member" in v}
    return min(timed, key=timed.get) if timed else None


def render(rec: dict) -> str:
    """The record as the ``gpu-efficiency`` section of RESULTS.md (``--write``)."""
    cur = rec["variants"].get("current", {}).get("step_ms_per_member")
    lines = [f"## gpu-efficiency: the {rec['preset']}-preset step of {rec['task']} in each form, one device",
             "", f"`python tools/gpu/gpu_efficiency.py --device cuda --write` — {rec['device']}, torch {rec['torch']}, "
             f"commit `{str(rec.get('commit'))[:7]}`, {rec['steps']} timed steps per variant (median); record "
             "`tools/gpu/efficiency_records/`.", "",
             "| variant | members | step (ms) | per member (ms) | vs current | steps/s | tokens/s | MFU |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in VARIANTS:
        v = rec["variants"].get(name)
        if v is None or "step_ms" not in v:
            lines.append(f"| {name} | | | | | | | {'error: ' + v['error'][:80] if v else 'not measured'} |")
            continue
        mfu = "n/a" if v.get("mfu") is None else f"{100 * v['mfu']:.1f} %"
        vs = f"{cur / v['step_ms_per_member']:.2f}x" if cur else "—"
        lines.append(f"| {name} | {v['members']} | {v['step_ms']:.3g} | {v['step_ms_per_member']:.3g} | {vs} | "
                     f"{v['steps_per_s']:.3g} | {v['tokens_per_s']:.3g} | {mfu} |")
    lines += ["", f"Fastest per run: **{rec.get('fastest')}** (what `gpu_records.py --status` projects with)."]
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cuda")
    p.add_argument("--out", help="folder of the record (one JSON file per device); default: tools/gpu/efficiency_records, "
                   "or nothing written with --dry")
    p.add_argument("--variants", default=",".join(VARIANTS), help=f"comma-separated, in order (default all: {','.join(VARIANTS)})")
    p.add_argument("--steps", type=int, default=None, help="timed steps per variant (default 20; --dry: 2)")
    p.add_argument("--budget", type=float, default=float("inf"), help="seconds: a variant whose estimate does not fit "
                   "in what is left is not started")
    p.add_argument("--dry", action="store_true", help="smoke preset, 2 steps: test the code path (e.g. on a CPU)")
    p.add_argument("--force", action="store_true", help="measure the variants already in the record again")
    p.add_argument("--write", action="store_true", help="also write the record as the gpu-efficiency section of "
                   "benchmarks/RESULTS.md (a CUDA device and the paper preset only)")
    args = p.parse_args(argv)
    names = [v for v in args.variants.split(",") if v]
    bad = [v for v in names if v not in VARIANTS]
    if bad:
        p.error(f"unknown variant(s) {', '.join(bad)}; known: {', '.join(VARIANTS)}")
    steps = args.steps or (2 if args.dry else 20)
    from petheory.io import atomic_write_json
    from petheory.records import source_hash

    import torch

    if not args.device.startswith("cuda"):
        from petheory._threads import pick_threads

        torch.set_num_threads(pick_threads(None))  # the free cores, as petheory train
    dev_name = _device_name(args.device)
    out = Path(args.out) if args.out else (None if args.dry else Path(__file__).resolve().parent / "efficiency_records")
    path = record_path(out, dev_name) if out else None
    head = {"experiment": "gpu_efficiency", "device": dev_name, "torch": torch.__version__,
            "commit": _commit(), "source": source_hash(),
            "preset": "smoke" if args.dry else "paper", "task": "gu2025_task1", "steps": steps}
    from petheory.loaders.safe_json import read_json

    rec = read_json(path, what="efficiency record") if path and path.is_file() else {}
    same = all(rec.get(k) == head[k] for k in ("device", "commit", "source", "preset"))
    rec = {**head, "variants": rec.get("variants", {}) if same and not args.force else {}}
    t_start = time.perf_counter()
    for name in names:
        if name in rec["variants"] and "error" not in rec["variants"][name]:
            print(json.dumps({"variant": name, "skipped": "in the record already"}), flush=True)
            continue
        left = args.budget - (time.perf_counter() - t_start)
        if ESTIMATE_S[name] > left:
            print(json.dumps({"variant": name, "skipped": f"estimate {ESTIMATE_S[name]} s > {left:.0f} s left"}), flush=True)
            continue
        t0 = time.perf_counter()
        try:
            line = measure(name, args.device, args.dry, steps)
        except Exception as exc:  # one variant failing must not lose the others
            line = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        line["seconds"] = round(time.perf_counter() - t0, 1)
        if "skipped" not in line:
            rec["variants"][name] = line
        rec["fastest"] = fastest(rec["variants"])
        if path is not None:
            atomic_write_json(path, rec)
        print(json.dumps({"variant": name, **line}), flush=True)
    print(json.dumps({"fastest": rec.get("fastest"), "record": str(path) if path else None}), flush=True)
    if args.write:
        if args.dry or not args.device.startswith("cuda"):
            print("gpu_efficiency: not written: RESULTS.md takes a CUDA device at the paper preset", file=sys.stderr)
            return 2
        from harness import write_section

        print(f"wrote section 'gpu-efficiency' of {write_section('gpu-efficiency', render(rec))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
