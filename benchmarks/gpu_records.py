"""Make the paper-preset records on one GPU, in stages, within a time budget (resumable).

Each stage trains one grid with :func:`petheory.sweep.run` (``ensemble=True``: one CUDA graph per
step for the whole grid) into ``--runs`` and exports its records (JSON only) into
``--out/<experiment>/``. A stage whose records are all in ``--out`` already is skipped; a stage
is not started when its estimated time does not fit in what is left of ``--budget``. After each
stage the records are packed into ``--tar`` (if given), so a run cut off by a time limit still
returns what it finished::

    python benchmarks/gpu_records.py --device cuda --out records --budget 540 table5 gu2025_small
    python benchmarks/gpu_records.py --list

Where the tree was copied without its ``.git`` (a GPU machine), set ``PETHEORY_COMMIT`` so that
each record names the commit it was trained from.

Stages: see :data:`STAGES` (name -> experiment spec and an estimate of its seconds on one H100,
updated from measurements). A stage trains only the configs whose records are not anywhere under
``--out`` yet, so overlapping stages share runs (Fig. 6's rope+sinusoidal and Fig. 7's mla are in the
gu2025 grid) and a stage cut short resumes from its checkpoints under ``--runs``.

gu2025 at the paper's scale (:data:`GU2025_PLAN`: Task 1 and Task 2 for the 7 PEs x 3 seeds, then
Figs. 5-7 of :data:`petheory.experiments.GU2025_FIGURES`) is 72 runs. Estimated from the one-run
training times measured on one H100 (:data:`GU_TRAIN_MIN`, benchmarks/RESULTS.md "nn-cuda"; evaluation
and head ablation not included), summed run by run: Task 1 grid ~155 min, Task 2 grid ~115 min, Fig. 5
~210 min (27 runs not in the grid), Figs. 6-7 nothing more: **~480 GPU-minutes, about 19x the
25-minute target** (``--list`` prints the sum). It does NOT fit at today's measured speeds: a
one-run step runs at 3.5-4.6 % MFU, and how much a multi-run ensemble at this size overlaps is not
measured, so the sum is the serial figure. A stage longer than one device session (each of these
is) is only started when ``--budget`` allows it; it resumes from its checkpoints when rerun with the
same ``--runs`` folder.

Issue 34's plan (:data:`ISSUE34_PLAN`, ``python benchmarks/gpu_records.py --device cuda --measure --budget 1800
issue34``): li2025 Table 5 with the db4 wavelet construction (15 paper-preset runs, one grid, ~2 min from the
measured Table 5 grid); MQAR with filler trained 7,800 steps at a constant lr (3 seeds, ~1 min: does key matching
appear with filler given more steps than a CPU can give?); MQAR context extension (3 RoPE runs of the retrieval
paper preset with PI/NTK/YaRN swapped in and fine-tuned, ~12 min from the measured tokens/s, x2 for the per-run
loop and x2 for the evaluations); then gu2025 Task 2 at the paper's scale (21 runs, ~115 min as the serial sum
above): **~129 GPU-minutes, about 4.3x the 30-minute target**. It fits only if the 18-member Task 2 grid (6 PEs x
3 seeds; MLA's 3 runs are their own grid, batch 1024) trains at least ~7x faster than its runs one by one (15.9
minutes left for it); that overlap is not measured (the Table 5 grid gave 3.8-8x, on models 30x smaller).
``--measure`` times each stage's grid step on the device first (about 10 steps per grid) and uses that projection
against ``--budget``, so the command says how long Task 2 will take before spending it, and a stage that does not
fit is left for the next session (checkpoints resume). mqar_extension's preset (retrieval 'paper', with filler) is
not known to learn MQAR: read mqar_filler_long's records first (two queries: first-query accuracy >= 2 token_acc - 1,
since the second is at most 1; token_acc >= 0.975 proves >= 0.95).
"""

from __future__ import annotations

import argparse
import json
import sys
import tarfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from petheory import experiments, records, sweep  # noqa: E402
from petheory.nn.chen2025_runs import LENGTHGEN_PES, LENGTHGEN_TASKS  # noqa: E402
from petheory.nn.presets import preset  # noqa: E402

SEEDS5 = [0, 1, 2, 3, 4]
#: gu2025's paper grid and figures: 3 seeds per (task, PE), the fewest the Fig. 5-7 claims decide on.
SEEDS3 = [0, 1, 2]
_GU = list(experiments.GU2025_PES.values())

#: Minutes of training per gu2025 paper-preset run on one H100 (one run, CUDA-graph step: median step x steps),
#: from benchmarks/RESULTS.md "nn-cuda" (2026-11-23, git 16da231). Evaluation and the 6 x 16 head ablations are
#: not included (not measured). Partial and pure RoPE use the rope+sinusoidal row: the same rotary attention, and
#: the sinusoidal input is one add.
GU_TRAIN_MIN = {
    "gu2025_task1": {"rope+sinusoidal": 8.8, "sinusoidal": 5.5, "alibi:slopes=gu2025": 6.7, "nope": 5.5,
                     "relative": 13.1, "random:trainable=true": 5.5, "mla": 6.6},
    "gu2025_task2": {"rope+sinusoidal": 6.5, "sinusoidal": 4.1, "alibi:slopes=gu2025": 4.9, "nope": 4.1,
                     "relative": 9.7, "random:trainable=true": 4.1, "mla": 4.8},
}


def _gu_minutes(task: str, pe: str) -> float:
    row = GU_TRAIN_MIN[task]
    return row[pe] if pe in row else row["rope+sinusoidal"] if pe == "rope" or pe.startswith("rope:") else float("nan")


def _gu_stage(parts, folder: str):
    """(specs, folder, estimated seconds): one grid spec per (task, PEs); the estimate is the serial sum of the
    measured one-run training times over every run (the ensemble's overlap at this size is not measured)."""
    specs = [{"task": t, "preset": "paper", "pe": list(pes), "seed": SEEDS3} for t, pes in parts]
    est = 60 * sum(_gu_minutes(t, str(preset(t, "paper", pe=pe).model.pe)) for t, pes in parts for pe in pes) * len(SEEDS3)
    return specs, folder, round(est)


#: name -> (grid spec, or a list of them, for sweep.expand; experiment folder; estimated seconds on one H100)
STAGES = {
    "table5": ({"task": "running_sum", "preset": "paper", "pe": experiments.LI2025_PES, "seed": SEEDS5},
               "li2025_table5", 120),
    "table5_bidirectional": ({"task": "running_sum", "preset": "paper", "pe": experiments.LI2025_PES, "seed": SEEDS5,
                              "set": {"model.causal": False}}, "li2025_table5_bidirectional", 120),
    "table5_mean": ({"task": "running_sum", "preset": "paper", "pe": experiments.LI2025_PES, "seed": SEEDS5,
                     "set": {"task.target_scale": "mean"}}, "li2025_table5_target_mean", 120),
    "table5_mean_more": ({"task": "running_sum", "preset": "paper", "pe": experiments.LI2025_PES, "seed": list(range(5, 15)),
                          "set": {"task.target_scale": "mean"}}, "li2025_table5_target_mean", 210),
    "table5_normal": ({"task": "running_sum", "preset": "paper", "pe": experiments.LI2025_PES, "seed": SEEDS5,
                       "set": {"task.dist": "normal"}}, "li2025_table5_normal_inputs", 120),
    "gu2025_task1_small": ({"task": "gu2025_task1", "preset": "small", "pe": _GU, "seed": SEEDS5}, "gu2025_task1_small", 90),
    "gu2025_task2_small": ({"task": "gu2025_task2", "preset": "small", "pe": _GU, "seed": SEEDS5}, "gu2025_task2_small", 90),
    # gu2025's paper grid: 7 PEs x 3 seeds per task (includes Fig. 6's rope+sinusoidal and Fig. 7's mla)
    "gu2025_task1": _gu_stage([("gu2025_task1", _GU)], "gu2025_task1"),
    "gu2025_task2": _gu_stage([("gu2025_task2", _GU)], "gu2025_task2"),
    # gu2025 §5 figures (experiments.GU2025_FIGURES); runs already in --out (e.g. from the grid above) are not redone
    "gu2025_fig5": _gu_stage(experiments.GU2025_FIGURES["fig5"], "gu2025_fig5_partial_rope"),
    "gu2025_fig6": _gu_stage(experiments.GU2025_FIGURES["fig6"], "gu2025_fig6_rope_abs"),
    "gu2025_fig7": _gu_stage(experiments.GU2025_FIGURES["fig7"], "gu2025_fig7_mla"),
    "chen2025": ({"task": list(LENGTHGEN_TASKS), "preset": "paper", "pe": list(LENGTHGEN_PES), "seed": [0]},
                 "chen2025_lengthgen", 400),
}

# ---------------------------------------------------------------------------------------------- issue 34
# gu2025 Task 2 at the paper's scale (the "gu2025_task2" stage above), li2025 Table 5 with the db4 wavelet
# construction and MQAR context extension. Estimates from measured H100 numbers (benchmarks/RESULTS.md "nn-cuda",
# 2026-11-23, git 16da231); --measure replaces them with step times measured on the device before anything trains.

#: li2025 Table 5 grid on one H100: 35 paper-preset runs (7 PEs x 5 seeds) as one CUDA-graph grid in 100.6 s. A grid
#: of these 100k-parameter models is launch-bound (98 % GPU utilisation at 35 members), so a grid of fewer members
#: is taken to cost the same: an upper estimate, not a per-run share.
T5_GRID_SECONDS = 101
#: Seeds of the db4 runs: the 15 of the shipped li2025_table5 records, so that every other PE's paper records pair up.
T5_DB4_SEEDS = list(range(15))
#: Training tokens per second of a ~3.3M-parameter model on one H100 (gu2025_task1 paper rope+sinusoidal, one run,
#: CUDA-graph step): the MQAR paper-preset model (4 layers, d=256, ~3.2M parameters) is costed at this rate. The
#: retrieval runs train with the per-run loop (no CUDA graph), so the step is launch-heavier: x2 for that, and the
#: evaluations (5 lengths up to 4096 tokens, 3 swaps, 4 fine-tunes of 60 steps) are costed as one more training.
H100_TOKENS_PER_S = 1_704_452
RETRIEVAL_LOOP_FACTOR, RETRIEVAL_EVAL_FACTOR = 2.0, 2.0


def _mqar_seconds(size: str = "paper") -> float:
    """Estimated seconds of one MQAR retrieval run of ``size`` on one H100 (training tokens / throughput, see above)."""
    from petheory.nn.retrieval import DEFAULTS

    p = {**DEFAULTS["mqar"], **preset("mqar", size).task.params}
    c = preset("mqar", size)
    mean_seq = (p["min_len"] + p["train_len"]) / 2 + 2 * p["n_pairs"]  # context, SEP and the answers (x = seq[:-1])
    tokens = p["n_train"] * c.epochs * mean_seq
    return tokens / H100_TOKENS_PER_S * RETRIEVAL_LOOP_FACTOR * RETRIEVAL_EVAL_FACTOR


STAGES["table5_db4"] = ({"task": "running_sum", "preset": "paper", "pe": [experiments.LI2025_DB4], "seed": T5_DB4_SEEDS},
                        "li2025_table5_db4", T5_GRID_SECONDS)
# MQAR with filler for longer: on the CPU no recipe with filler learned key matching within 1,600 steps (issue 34's
# report; presets.MQAR_RECALL learns without filler). 7,800 steps of the small preset's model at a constant lr, 3 seeds
# as one grid, costed at the measured one-run running_sum step (4.7 ms on one H100, a model of the same size) x 1.5:
# if the first query reaches 0.95 here, this is the recipe for mqar_extension's preset.
MQAR_FILLER_LONG = {"task.n_train": 100_000, "epochs": 5, "lr": 3e-3, "warmup": 0.05, "schedule": "constant"}
STAGES["mqar_filler_long"] = ({"task": "mqar", "preset": "small", "pe": ["rope"], "seed": SEEDS3, "set": MQAR_FILLER_LONG},
                              "mqar_filler_long", round(1.5 * 4.7e-3 * 5 * 100_000 / 64))
# MQAR context extension: RoPE runs with PI/NTK/YaRN swapped in and fine-tuned (petheory.nn.retrieval_runs); the
# trained baselines of the other PEs are not needed by peng2023.yarn_extends_further (it compares RoPE methods).
STAGES["mqar_extension"] = ({"task": "mqar", "preset": "paper", "pe": ["rope"], "seed": SEEDS3, "retrieval": True},
                            "retrieval_mqar_paper", round(3 * _mqar_seconds()))
#: issue 34's plan, in the order it should run when the budget is short: the cheapest decision first (db4 settles
#: the Table 5 construction question in about two minutes), then MQAR context extension, then gu2025 Task 2.
ISSUE34_PLAN = ["table5_db4", "mqar_filler_long", "mqar_extension", "gu2025_task2"]
#: issue 34's target for its whole plan on one H100, in minutes.
ISSUE34_TARGET_MIN = 30
#: named plans: ``python benchmarks/gpu_records.py issue34`` runs the plan's stages in order.
PLANS = {"issue34": ISSUE34_PLAN}

#: issue 25's target for the whole gu2025 plan on one H100, in minutes.
GU2025_TARGET_MIN = 25
#: The whole gu2025 paper plan, in order (fig6/fig7 cost nothing after the grid: their runs are in it).
GU2025_PLAN = ["gu2025_task1", "gu2025_task2", "gu2025_fig5", "gu2025_fig6", "gu2025_fig7"]


def configs_of(spec, device: str) -> list:
    """The configs of a stage's spec (a grid spec or a list of them), on ``device``."""
    return [c for s in _specs(spec) for c in sweep.expand({**{k: v for k, v in s.items() if k != "retrieval"}, "device": device})]


def _specs(spec) -> list:
    return spec if isinstance(spec, list) else [spec]


def is_retrieval(name: str) -> bool:
    """Whether stage ``name`` makes retrieval records (petheory.nn.retrieval_runs.make_record: training, then the
    evaluation by length with every context-extension method) instead of plain training records."""
    return any(s.get("retrieval") for s in _specs(STAGES[name][0]))


def _have(out: Path) -> set:
    """config hashes of the records anywhere under ``out`` (every stage's folder)."""
    return {r["config_hash"] for r in records.find(where=[out], report=False).records} if out.is_dir() else set()


def run_seconds(name: str, config) -> float:
    """Estimated seconds of one run of stage ``name``: a gu2025 paper run from :data:`GU_TRAIN_MIN`, else the
    stage's estimate over its runs."""
    spec, _, est = STAGES[name]
    if config.task.name in GU_TRAIN_MIN and all(s.get("preset") == "paper" for s in (spec if isinstance(spec, list) else [spec])):
        return 60 * _gu_minutes(config.task.name, config.model.pe)
    return est / len(configs_of(spec, "cpu"))


def plan_seconds(names, out: Path | None = None) -> float:
    """Estimated seconds of stages ``names`` run in order: each run counted once, none already under ``out``."""
    seen = _have(out) if out is not None else set()
    total = 0.0
    for n in names:
        for c in configs_of(STAGES[n][0], "cuda"):
            if c.hash() not in seen:
                seen.add(c.hash())
                total += run_seconds(n, c)
    return total


def measure_seconds(name: str, device: str, out: Path | None = None, steps: int = 10) -> float:
    """Projected training seconds of stage ``name`` on ``device`` from step times measured there now.

    Each group of runs that trains as one grid (:func:`petheory.sweep.groups_of`) is built once and ``steps``
    steps are timed (:func:`petheory.nn.grid.step_time`, CUDA graph on a GPU); the projection is the median step
    times the group's steps (epochs x batches). A retrieval stage trains run by run, so each of its groups is timed
    one run at a time. Evaluation, head ablation and checkpoints are not included. Runs already under ``out``
    count nothing."""
    import math

    from petheory.nn import tasks as _tasks
    from petheory.nn.grid import step_time

    have = _have(out) if out is not None else set()
    cfgs = [c for c in configs_of(STAGES[name][0], device) if c.hash() not in have]
    total = 0.0
    for idx in sweep.groups_of(cfgs, range(len(cfgs))):
        group = [cfgs[i] for i in idx]
        c = group[0]
        n_steps = c.epochs * math.ceil(len(_tasks.load(c.task).train) / c.batch_size)
        units = [[g] for g in group] if is_retrieval(name) else [group]
        total += sum(step_time(u, steps=steps)["step_ms"] for u in units) / 1e3 * n_steps
    return total


def _run_retrieval(name: str, cfgs, device: str, runs: Path, out: Path) -> list[dict]:
    """Retrieval records of ``cfgs`` (their task, PE and seed at the stage's preset) into ``out/<folder>``, evaluated
    at the preset's test lengths (the paper preset: 1x-16x its training context of 256)."""
    from petheory.nn.retrieval_runs import make_record
    from petheory.nn.tasks import resolve_params

    spec, folder, _ = STAGES[name]
    size = _specs(spec)[0]["preset"]
    return [make_record(c.task.name, str(c.model.pe), seed=c.seed, size=size, device=device, runs_dir=runs / folder,
                        records_dir=out / folder, lengths=tuple(resolve_params(c.task.name, c.task.params)["test_lens"]))
            for c in cfgs]


def run_stage(name: str, device: str, runs: Path, out: Path) -> dict:
    spec, folder, _ = STAGES[name]
    have = _have(out)
    cfgs = [c for c in configs_of(spec, device) if c.hash() not in have]
    if not cfgs:
        return {"stage": name, "skipped": "done"}
    t0 = time.perf_counter()
    if is_retrieval(name):
        recs = _run_retrieval(name, cfgs, device, runs, out)  # written by make_record, one file per run
        dt = time.perf_counter() - t0
    else:
        recs = sweep.run(cfgs, runs / folder, ensemble=True)
        dt = time.perf_counter() - t0
        records.export(recs, out, experiment=folder)
    t = recs[0]["timing"]
    return {"stage": name, "runs": len(recs), "seconds": round(dt, 1), "gpu_util": t.get("gpu_util"),
            "device": t.get("device"), "cuda_graphs": t.get("cuda_graphs")}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("stages", nargs="*", help=f"stages or plans in order (default: all stages): {', '.join(STAGES)}; "
                   f"plans: {', '.join(f'{k} ({chr(32).join(v)})' for k, v in PLANS.items())}")
    p.add_argument("--device", default="cuda")
    p.add_argument("--out", default="records", help="records folder (default: records)")
    p.add_argument("--runs", default=str(records.runs_dir() / "gpu"), help="run directories with checkpoints (default: runs/gpu, "
                   "under $PETHEORY_RUNS when set)")
    p.add_argument("--budget", type=float, default=float("inf"), help="seconds; stages that would not fit are not started")
    p.add_argument("--tar", help="pack the out folder into this .tar.gz after every stage")
    p.add_argument("--log", help="append one JSON line per stage to this file")
    p.add_argument("--list", action="store_true")
    p.add_argument("--measure", action="store_true", help="before each stage, time its training steps on --device and "
                   "use that projection (not the stored estimate) against --budget; printed with each stage's line")
    args = p.parse_args(argv)
    if args.list:
        for k, (spec, folder, est) in STAGES.items():
            print(f"{k:22s} {folder:32s} ~{est} s  {len(configs_of(spec, 'cpu'))} runs")
        print(f"gu2025 plan ({', '.join(GU2025_PLAN)}): ~{plan_seconds(GU2025_PLAN) / 60:.0f} GPU-minutes "
              f"(target {GU2025_TARGET_MIN})")
        print(f"issue34 plan ({', '.join(ISSUE34_PLAN)}): ~{plan_seconds(ISSUE34_PLAN) / 60:.0f} GPU-minutes "
              f"(target {ISSUE34_TARGET_MIN})")
        return 0
    names = [n for a in (args.stages or list(STAGES)) for n in PLANS.get(a, [a])]
    bad = [n for n in names if n not in STAGES]
    if bad:
        p.error(f"unknown stage(s) {', '.join(bad)}; known: {', '.join(STAGES)}")
    t_start = time.perf_counter()
    out, runs = Path(args.out), Path(args.runs)
    for n in names:
        left = args.budget - (time.perf_counter() - t_start)
        est, measured = STAGES[n][2], None
        try:
            if args.measure:
                est = measured = round(measure_seconds(n, args.device, out))
            if est > left:
                res = {"stage": n, "skipped": f"estimate {est} s > {left:.0f} s left"}
            else:
                res = run_stage(n, args.device, runs, out)
        except Exception as exc:  # one stage failing must not lose the others' records
            res = {"stage": n, "error": f"{type(exc).__name__}: {exc}"[:500]}
        if measured is not None:
            res["projected_seconds"] = measured
        print(json.dumps(res), flush=True)
        if args.log:
            with open(args.log, "a") as fh:
                fh.write(json.dumps(res) + "\n")
        if args.tar and out.is_dir():
            with tarfile.open(args.tar, "w:gz") as tf:
                tf.add(out, arcname=out.name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
