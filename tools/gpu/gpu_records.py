"""Make the paper-preset records on one GPU, in stages, within a time budget (resumable).

Each stage trains one grid with :func:`petheory.experiments.sweep.run` (``ensemble=True``: one CUDA graph per
step for the whole grid) into ``--runs`` and exports its records (JSON only) into
``--out/<experiment>/``. A stage whose records are all in ``--out`` already is skipped; a stage
is not started when its estimated time does not fit in what is left of ``--budget``. After each
stage the records are packed into ``--tar`` (if given), so a run cut off by a time limit still
returns what it finished::

    python tools/gpu/gpu_records.py --device cuda --out records --budget 540 table5 gu2025_small
    python tools/gpu/gpu_records.py --list

Where the tree was copied without its ``.git`` (a GPU machine), set ``PETHEORY_COMMIT`` so that
each record names the commit it was trained from.

Issue 44 (the plan in slices of a few minutes, one each time a GPU is lent): ``--status`` prints which
stages are done under ``--out`` and the GPU-minutes left, from the records there and the measured step
times (and, once ``tools/gpu/gpu_efficiency.py`` has written its record under ``tools/gpu/efficiency_records/``,
divided by the speed-up of the fastest step form it measured). A slice::

    python tools/gpu/gpu_records.py --status
    python tools/gpu/gpu_efficiency.py --device cuda --budget 180
    PETHEORY_COMMIT=<sha> python tools/gpu/gpu_records.py --device cuda --out records --budget 520 \
        --new-only --tar $OUT/slice.tar.gz --log $OUT/slice.jsonl issue44

A stage that does not fit whole trains the runs of it that do (:func:`run_runs_that_fit`: the fullest subset of the
runs left, re-packed after each run with the device's measured speed), one record exported per run, so the plan
advances a few runs per slice. A run longer than a slice (relative attention's, ``--status`` lists them) goes on
across slices: ``--partial`` starts the longest run left when none fits, the command's time limit stops it, and its
last epoch checkpoint travels in parts a GPU machine returns (``--pack-checkpoints``; ``--unpack-checkpoints`` in
the next slice, from a folder carried with the tree; the run then counts only its epochs left)::

    [ -d .ckpt ] && python tools/gpu/gpu_records.py --unpack-checkpoints .ckpt
    timeout 540 env PETHEORY_COMMIT=<sha> python tools/gpu/gpu_records.py --device cuda --out records --budget 515 \
        --ratio 1.2 --partial --new-only --tar $OUT/slice.tar.gz --log $OUT/slice.jsonl issue44
    python tools/gpu/gpu_records.py --pack-checkpoints $OUT/ckpt     # then, here: $OUT/ckpt -> .ckpt (git-ignored)

Stages: see :data:`STAGES` (name -> experiment spec and an estimate of its seconds on one H100,
updated from measurements). A stage trains only the configs whose records are not anywhere under
``--out`` yet, so overlapping stages share runs (Fig. 6's rope+sinusoidal and Fig. 7's mla are in the
gu2025 grid) and a stage cut short resumes from its checkpoints under ``--runs``.

gu2025 at the paper's scale (:data:`GU2025_PLAN`: Task 1 and Task 2 for the 7 PEs x 3 seeds, then
Figs. 5-7 of :data:`petheory.experiments.papers.GU2025_FIGURES`) is 72 runs. Estimated from the one-run
training times measured on one H100 (:data:`GU_TRAIN_MIN`, benchmarks/RESULTS.md "nn-cuda"; evaluation
and head ablation not included), summed run by run: Task 1 grid ~155 min, Task 2 grid ~115 min, Fig. 5
~210 min (27 runs not in the grid), Figs. 6-7 nothing more: **~480 GPU-minutes, about 19x the
25-minute target** (``--list`` prints the sum).

Task 1 with its Fig. 5-7 runs, one command (issue 33)::

    PETHEORY_COMMIT=<sha> python tools/gpu/gpu_records.py --device cuda --out records --members 8 \
        --log runs/gpu/task1.jsonl --tar task1.tar.gz gu2025_task1_figs

trains the 36 Task 1 configs of the grid and the figures (7 PEs, pure RoPE and RoPE on the first 1, 2, 4, 8
of 16 heads, x 3 seeds) as mixed-family grids (:mod:`petheory.experiments.mixed`: every PE family as member tensors;
MLA, at batch 1024, its own grid) of at most ``--members`` runs, resumable from ``--runs``; each record goes to
the folder of its figure, and the stage's log line carries device, commit, source hash, seconds, mean GPU
use and MFU (FLOPs counted from the model, :func:`petheory.experiments.grid.step_flops`).

**Projection** (:func:`task1_projection`; benchmarks/RESULTS.md "grid"): 36 runs, 6.9e17 FLOPs counted
(1.39e12 per step of a batch-512 run, 2.82e12 for MLA at 1024), **~286 GPU-minutes run by run** at the H100
step times measured for one run (:data:`GU_STEP_MS`: 2.5-5.8 % MFU). The 30-minute target needs a packing
factor of 9.5, i.e. 39 % MFU over the whole plan (the FLOP floor at 100 % MFU is 11.6 min). Packing cannot
give that at this size: one run's step already runs every kernel over 65,536 tokens (batch 512 x length
128), and its time goes to bandwidth-bound kernels (LayerNorm backward, attention backward at head dim 16,
elementwise work; profile in RESULTS.md "nn-cuda") whose bytes grow with their FLOPs when members are
stacked; the per-run CUDA graph already removes launch gaps. What the mixed program does change at this
size is relative's step (57 ms with explicit softmax, as SDPA's CPU kernels refuse a mask gradient; the
mixed program runs it through CUDA's memory-efficient SDPA): at nope's 24 ms the plan is ~263 min. So the
expected time is **~260-290 GPU-minutes, 9-10x over the target**: it needs faster kernels per step
(about 39 % MFU), not more packing. The packing factor itself is not measured (no GPU in the session that
wrote this): ``python benchmarks/bench_grid.py --packing cuda --members 8`` measures it.

The whole gu2025 plan does NOT fit at today's measured speeds: a
one-run step runs at 3.5-4.6 % MFU, and how much a multi-run ensemble at this size overlaps is not
measured, so the sum is the serial figure. A stage longer than one device session (each of these
is) is only started when ``--budget`` allows it; it resumes from its checkpoints when rerun with the
same ``--runs`` folder.

Issue 34's plan (:data:`ISSUE34_PLAN`, ``python tools/gpu/gpu_records.py --device cuda --measure --budget 1800
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

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))  # harness: the writer of benchmarks/RESULTS.md's sections

from petheory import records  # noqa: E402
from petheory.experiments import papers, sweep  # noqa: E402
from petheory.experiments.chen2025_runs import LENGTHGEN_PES, LENGTHGEN_TASKS  # noqa: E402
from petheory.nn.presets import preset  # noqa: E402

SEEDS5 = [0, 1, 2, 3, 4]
#: gu2025's paper grid and figures: 3 seeds per (task, PE), the fewest the Fig. 5-7 claims decide on.
SEEDS3 = [0, 1, 2]
_GU = list(papers.GU2025_PES.values())

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
    "table5": ({"task": "running_sum", "preset": "paper", "pe": papers.LI2025_PES, "seed": SEEDS5},
               "li2025_table5", 120),
    "table5_bidirectional": ({"task": "running_sum", "preset": "paper", "pe": papers.LI2025_PES, "seed": SEEDS5,
                              "set": {"model.causal": False}}, "li2025_table5_bidirectional", 120),
    "table5_mean": ({"task": "running_sum", "preset": "paper", "pe": papers.LI2025_PES, "seed": SEEDS5,
                     "set": {"task.target_scale": "mean"}}, "li2025_table5_target_mean", 120),
    "table5_mean_more": ({"task": "running_sum", "preset": "paper", "pe": papers.LI2025_PES, "seed": list(range(5, 15)),
                          "set": {"task.target_scale": "mean"}}, "li2025_table5_target_mean", 210),
    "table5_normal": ({"task": "running_sum", "preset": "paper", "pe": papers.LI2025_PES, "seed": SEEDS5,
                       "set": {"task.dist": "normal"}}, "li2025_table5_normal_inputs", 120),
    "gu2025_task1_small": ({"task": "gu2025_task1", "preset": "small", "pe": _GU, "seed": SEEDS5}, "gu2025_task1_small", 90),
    "gu2025_task2_small": ({"task": "gu2025_task2", "preset": "small", "pe": _GU, "seed": SEEDS5}, "gu2025_task2_small", 90),
    # gu2025's paper grid: 7 PEs x 3 seeds per task (includes Fig. 6's rope+sinusoidal and Fig. 7's mla)
    "gu2025_task1": _gu_stage([("gu2025_task1", _GU)], "gu2025_task1"),
    "gu2025_task2": _gu_stage([("gu2025_task2", _GU)], "gu2025_task2"),
    # gu2025 §5 figures (papers.GU2025_FIGURES); runs already in --out (e.g. from the grid above) are not redone
    "gu2025_fig5": _gu_stage(papers.GU2025_FIGURES["fig5"], "gu2025_fig5_partial_rope"),
    "gu2025_fig6": _gu_stage(papers.GU2025_FIGURES["fig6"], "gu2025_fig6_rope_abs"),
    "gu2025_fig7": _gu_stage(papers.GU2025_FIGURES["fig7"], "gu2025_fig7_mla"),
    "chen2025": ({"task": list(LENGTHGEN_TASKS), "preset": "paper", "pe": list(LENGTHGEN_PES), "seed": [0]},
                 "chen2025_lengthgen", 400),
}
#: the stages whose folders gu2025_task1_figs's records go to, in order of precedence
TASK1_FIGS_FOLDERS = ("gu2025_task1", "gu2025_fig5", "gu2025_fig6", "gu2025_fig7")

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


STAGES["table5_db4"] = ({"task": "running_sum", "preset": "paper", "pe": [papers.LI2025_DB4], "seed": T5_DB4_SEEDS},
                        "li2025_table5_db4", T5_GRID_SECONDS)
# MQAR with filler for longer: on the CPU no recipe with filler learned key matching within 1,600 steps (issue 34's
# report; presets.MQAR_RECALL learns without filler). 7,800 steps of the small preset's model at a constant lr, 3 seeds
# as one grid, costed at the measured one-run running_sum step (4.7 ms on one H100, a model of the same size) x 1.5:
# if the first query reaches 0.95 here, this is the recipe for mqar_extension's preset.
MQAR_FILLER_LONG = {"task.n_train": 100_000, "epochs": 5, "lr": 3e-3, "warmup": 0.05, "schedule": "constant"}
STAGES["mqar_filler_long"] = ({"task": "mqar", "preset": "small", "pe": ["rope"], "seed": SEEDS3, "set": MQAR_FILLER_LONG},
                              "mqar_filler_long", round(1.5 * 4.7e-3 * 5 * 100_000 / 64))
# MQAR context extension: RoPE runs with PI/NTK/YaRN swapped in and fine-tuned (petheory.experiments.retrieval_runs); the
# trained baselines of the other PEs are not needed by peng2023.yarn_extends_further (it compares RoPE methods).
STAGES["mqar_extension"] = ({"task": "mqar", "preset": "paper", "pe": ["rope"], "seed": SEEDS3, "retrieval": True},
                            "retrieval_mqar_paper", round(3 * _mqar_seconds()))
#: issue 34's plan, in the order it should run when the budget is short: the cheapest decision first (db4 settles
#: the Table 5 construction question in about two minutes), then MQAR context extension, then gu2025 Task 2.
ISSUE34_PLAN = ["table5_db4", "mqar_filler_long", "mqar_extension", "gu2025_task2"]
#: issue 34's target for its whole plan on one H100, in minutes.
ISSUE34_TARGET_MIN = 30
#: named plans: ``python tools/gpu/gpu_records.py issue34`` runs the plan's stages in order.
#: issue 44's plan, in slice order after the efficiency measurement (tools/gpu/gpu_efficiency.py): Task 2 first, as
#: its 21 runs (~115 GPU-minutes) decide gu2025.task2_positional_bias_hurts on their own, and Task 1 with Figs. 5-7
#: (36 runs, ~287) decides the rest.
ISSUE44_PLAN = ["gu2025_task2", "gu2025_task1_figs"]
PLANS = {"issue34": ISSUE34_PLAN, "issue44": ISSUE44_PLAN}

#: issue 25's target for the whole gu2025 plan on one H100, in minutes.
GU2025_TARGET_MIN = 25
#: issue 33's target for gu2025 Task 1 with its Fig. 5-7 runs on one H100, in minutes.
TASK1_TARGET_MIN = 30
#: H100 SXM dense bf16 peak (FLOP/s), the MFU convention of benchmarks/bench_nn.py.
H100_PEAK = 989e12
#: gu2025 paper-preset step times on one H100 (ms, one run, CUDA-graph step), benchmarks/RESULTS.md "nn-cuda"
#: (2026-11-23, git 16da231): the source of GU_TRAIN_MIN (minutes = steps x step). Partial and pure RoPE: the rope row.
GU_STEP_MS = {"gu2025_task1": {"rope+sinusoidal": 38.4, "sinusoidal": 24.2, "alibi:slopes=gu2025": 29.1, "nope": 24.1,
                               "relative": 57.2, "random:trainable=true": 24.2, "mla": 57.5}}
#: The whole gu2025 paper plan, in order (fig6/fig7 cost nothing after the grid: their runs are in it).
GU2025_PLAN = ["gu2025_task1", "gu2025_task2", "gu2025_fig5", "gu2025_fig6", "gu2025_fig7"]


def _steps(config) -> int:
    from petheory.nn import tasks

    return config.epochs * -(-len(tasks.load(config.task).train) // config.batch_size)


def task1_projection(packing: float = 1.0) -> dict:
    """GPU time of gu2025 Task 1 with its Fig. 5-7 runs (stage ``gu2025_task1_figs``) on one H100.

    Per (PE, seeds): FLOPs per step counted from the model (:func:`petheory.experiments.grid.step_flops`), steps, the
    step time measured on an H100 (:data:`GU_STEP_MS`) and the MFU that makes. ``serial_min`` is the run-by-run
    sum; a grid that packs members ``packing`` times better than running them one by one takes
    ``serial_min / packing``. ``packing_needed`` is the factor the :data:`TASK1_TARGET_MIN` target needs,
    ``mfu_needed`` the MFU over the whole plan that it means, and ``floor_min`` the time at 100 % MFU.
    """
    from petheory.experiments.grid_measure import step_flops

    cfgs = configs_of(STAGES["gu2025_task1_figs"][0], "cuda")
    rows: dict = {}
    for c in cfgs:
        pe = str(c.model.pe)
        key = "rope+sinusoidal" if pe == "rope" or pe.startswith("rope:") else pe
        if pe not in rows:  # counted once per PE (seeds share the model): not once per run
            rows[pe] = {"task": c.task.name, "pe": pe, "runs": 0, "steps": _steps(c),
                        "step_ms": GU_STEP_MS[c.task.name][key], "flops_per_step": step_flops(c)}
        rows[pe]["runs"] += 1
    for r in rows.values():
        r["mfu"] = r["flops_per_step"] / (r["step_ms"] / 1e3) / H100_PEAK
        r["minutes"] = r["runs"] * r["steps"] * r["step_ms"] / 6e4
    serial = sum(r["minutes"] for r in rows.values())
    flops = sum(r["runs"] * r["steps"] * r["flops_per_step"] for r in rows.values())
    return {"rows": list(rows.values()), "runs": len(cfgs), "flops": flops, "serial_min": serial,
            "projected_min": serial / packing, "packing": packing, "target_min": TASK1_TARGET_MIN,
            "packing_needed": serial / TASK1_TARGET_MIN, "mfu_needed": flops / (60 * TASK1_TARGET_MIN) / H100_PEAK,
            "floor_min": flops / H100_PEAK / 60, "peak": H100_PEAK}


def configs_of(spec, device: str) -> list:
    """The configs of a stage's spec (a grid spec or a list of them), on ``device``; a config two specs list once."""
    out, seen = [], set()
    for c in (c for s in _specs(spec) for c in sweep.expand({**{k: v for k, v in s.items() if k != "retrieval"},
                                                               "device": device})):
        if c.hash() not in seen:
            seen.add(c.hash())
            out.append(c)
    return out


def _specs(spec) -> list:
    return spec if isinstance(spec, list) else [spec]


def is_retrieval(name: str) -> bool:
    """Whether stage ``name`` makes retrieval records (petheory.experiments.retrieval_runs.make_record: training, then the
    evaluation by length with every context-extension method) instead of plain training records."""
    return any(s.get("retrieval") for s in _specs(STAGES[name][0]))


# Task 1 with its Fig. 5-7 runs as one stage (issue 33): every Task 1 config of the grid and the figures, trained in
# grids of at most --members runs of one program (the mixed-family model of petheory.experiments.mixed; MLA, at batch 1024,
# is its own grid); each record goes to the folder of the first of these stages that lists it
STAGES["gu2025_task1_figs"] = (
    [s for n in ("gu2025_task1", "gu2025_fig5", "gu2025_fig6", "gu2025_fig7")
     for s in (STAGES[n][0] if isinstance(STAGES[n][0], list) else [STAGES[n][0]]) if s["task"] == "gu2025_task1"],
    "gu2025_task1", 0)
STAGES["gu2025_task1_figs"] = (*STAGES["gu2025_task1_figs"][:2], round(60 * sum(
    _gu_minutes(c.task.name, str(c.model.pe)) for c in configs_of(STAGES["gu2025_task1_figs"][0], "cpu"))))


def _have(out: Path) -> set:
    """config hashes of the records anywhere under ``out`` (every stage's folder)."""
    return {r["config_hash"] for r in records.find(where=[out], report=False).records} if out.is_dir() else set()


def run_seconds(name: str, config) -> float:
    """Estimated seconds of one run of stage ``name``: a gu2025 paper run from :data:`GU_TRAIN_MIN`, else the
    stage's estimate over its runs."""
    spec, _, est = STAGES[name]
    if config.task.name in GU_TRAIN_MIN and all(s.get("preset") == "paper" for s in (spec if isinstance(spec, list) else [spec])):
        return 60 * _gu_minutes(config.task.name, str(config.model.pe))
    return est / len(configs_of(spec, "cpu"))


def plan_seconds(names, out: Path | None = None, device: str = "cuda") -> float:
    """Estimated seconds of stages ``names`` run in order: each run counted once, none already under ``out``."""
    seen = _have(out) if out is not None else set()
    total = 0.0
    for n in names:
        for c in configs_of(STAGES[n][0], device):
            if c.hash() not in seen:
                seen.add(c.hash())
                total += run_seconds(n, c)
    return total


def _folder(name: str, config) -> str:
    """The experiment folder a stage's record goes to (gu2025_task1_figs: its first stage that lists the config)."""
    if name != "gu2025_task1_figs":
        return STAGES[name][1]
    h = config.hash()
    return next(STAGES[n][1] for n in TASK1_FIGS_FOLDERS if h in {c.hash() for c in configs_of(STAGES[n][0], config.device)})


def chunks(cfgs, members: int | None) -> list[list]:
    """The configs in grids of at most ``members`` runs: one list per program (sweep.groups_of: same task,
    schedule and batch), each cut into near-equal parts in order; None: one grid per program."""
    out = []
    for ks in sweep.groups_of(cfgs, range(len(cfgs))):
        n = 1 if not members else -(-len(ks) // members)
        size = -(-len(ks) // n)
        out += [[cfgs[k] for k in ks[i:i + size]] for i in range(0, len(ks), size)]
    return out


def measure_seconds(name: str, device: str, out: Path | None = None, steps: int = 10) -> float:
    """Projected training seconds of stage ``name`` on ``device`` from step times measured there now.

    Each group of runs that trains as one grid (:func:`petheory.experiments.sweep.groups_of`) is built once and ``steps``
    steps are timed (:func:`petheory.experiments.grid_measure.step_time`, CUDA graph on a GPU); the projection is the median step
    times the group's steps (epochs x batches). A retrieval stage trains run by run, so each of its groups is timed
    one run at a time. Evaluation, head ablation and checkpoints are not included. Runs already under ``out``
    count nothing."""
    import math

    from petheory.nn import tasks as _tasks
    from petheory.experiments.grid_measure import step_time

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
    from petheory.experiments.retrieval_runs import make_record
    from petheory.nn.tasks import resolve_params

    spec, folder, _ = STAGES[name]
    size = _specs(spec)[0]["preset"]
    return [make_record(c.task.name, str(c.model.pe), seed=c.seed, size=size, device=device, runs_dir=runs / folder,
                        records_dir=out / folder, lengths=tuple(resolve_params(c.task.name, c.task.params)["test_lens"]))
            for c in cfgs]


def run_stage(name: str, device: str, runs: Path, out: Path, members: int | None = None,
              written: list | None = None) -> dict:
    """Train the stage's configs not yet under ``out`` (in grids of at most ``members`` runs), export their records,
    and report the stage: runs, seconds, device, commit, source hash, CUDA graphs, mean GPU use and MFU."""
    spec, folder, _ = STAGES[name]
    have = _have(out)
    cfgs = [c for c in configs_of(spec, device) if c.hash() not in have]
    if not cfgs:
        return {"stage": name, "skipped": "done"}
    t0 = time.perf_counter()
    recs, util, flops = [], [], 0
    if is_retrieval(name):
        recs = _run_retrieval(name, cfgs, device, runs, out)  # written by make_record, one file per run
    else:
        for part in chunks(cfgs, members):
            rs = sweep.run(part, runs / folder, ensemble=True)
            for c, r in zip(part, rs):
                files = records.export([r], out, experiment=_folder(name, c))
                if written is not None:
                    written += files
                flops += _step_flops(c) * _steps(c)
            util.append(rs[0]["timing"].get("gpu_util"))
            recs += rs
    dt = time.perf_counter() - t0
    t = recs[0]["timing"]
    peak = _peak(device)
    util = [u for u in util if u is not None]
    return {"stage": name, "runs": len(recs), "grids": len(chunks(cfgs, members)), "seconds": round(dt, 1),
            "gpu_util": sum(util) / len(util) if util else None, "mfu": None if peak is None else flops / dt / peak,
            "flops": flops, "device": t.get("device"), "cuda_graphs": t.get("cuda_graphs"),
            "commit": recs[0].get("commit"), "source": recs[0].get("source")}


def run_runs_that_fit(name: str, device: str, runs: Path, out: Path, seconds: float, written: list | None = None,
                      log=None, ratio0: float = 1.0, partial: bool = False) -> dict:
    """Train stage ``name``'s runs not yet under ``out`` one at a time, as many GPU-seconds of them as fit in ``seconds``.

    Before each run, the runs left are packed into what is left of ``seconds`` (:func:`fullest`: the subset whose
    estimated seconds sum highest without passing it), and the longest of that subset trains next. A run's estimate
    is :func:`run_seconds` (the H100 training time) times the measured-to-estimated ratio of the runs this call
    finished (``ratio0`` before the first: 1 is the H100 figure; a slice on a device measured before passes the
    ratio measured there, as the first run is otherwise packed at the H100 speed); the ratio covers what the estimate leaves out (data, evaluation,
    the head ablation) and the device's speed. A slice of a few minutes trains the runs that fit, and the next slice
    starts where it stopped (every record is exported as its run ends, so a time limit costs at most the run it cut).
    ``written`` collects the record files; ``log(dict)`` is called per run.

    A run with a checkpoint under ``runs`` (a slice before trained part of it, :func:`unpack_checkpoints`) counts only
    the share of its epochs left. With ``partial``, when no run fits the longest one left starts anyway: the caller's
    time limit stops it, and :func:`pack_checkpoints` takes its last epoch checkpoint to the next slice (relative
    attention's runs are longer than a slice); not with less than :data:`PARTIAL_MIN_S` left."""
    spec, folder, _ = STAGES[name]
    have = _have(out)
    cfgs = [c for c in configs_of(spec, device) if c.hash() not in have]
    todo = list(cfgs)
    left_share = {c.hash(): 1.0 - fraction_done(c, runs, folder) for c in cfgs}
    # runs an earlier call on this machine finished (their records not yet under out): exported, not trained
    finished = {c.hash() for c in cfgs if (sweep.run_dir(runs / folder, c) / "record.json").is_file()}

    def est(c) -> float:
        return run_seconds(name, c) * left_share[c.hash()]

    t0, est_done, took_done, done = time.perf_counter(), 0.0, 0.0, []
    flops, util = 0, []
    while todo:
        ratio = took_done / est_done if est_done else ratio0
        left = seconds - (time.perf_counter() - t0)
        pick = fullest([est(c) * ratio for c in todo], left)
        if not pick and partial and left >= PARTIAL_MIN_S:
            pick = [max(range(len(todo)), key=lambda i: (left_share[todo[i].hash()] < 1.0, est(todo[i])))]
            if log:
                log({"stage": name, "partial": f"{todo[pick[0]].task.name} {todo[pick[0]].model.pe} seed {todo[pick[0]].seed}",
                     "estimate_s": round(est(todo[pick[0]]) * ratio), "left_s": round(left)})
        if not pick:
            break
        c = todo.pop(max(pick, key=lambda i: (est(todo[i]), -i)))
        t = time.perf_counter()
        (r,) = sweep.run([c], runs / folder, ensemble=True)
        files = records.export([r], out, experiment=_folder(name, c))
        took = time.perf_counter() - t
        est_done, took_done = est_done + est(c), took_done + took
        flops += _step_flops(c) * _steps(c) * left_share[c.hash()]  # the steps this call trained
        util.append(r["timing"].get("gpu_util"))
        done.append(r)
        if written is not None:
            written += files
        if log:
            log({"stage": name, "run": f"{c.task.name} {c.model.pe} seed {c.seed}", "config_hash": c.hash(),
                 "seconds": round(took, 1), "estimate_s": round(est(c)),
                 "ratio": round(took / est(c), 3) if est(c) > 0 else None,
                 "resumed_from": round(1.0 - left_share[c.hash()], 3), **({"reexported": True} if c.hash() in finished else {}),
                 "acc": r.get("final", {}).get("test", {}).get(str(r.get("train_len")), {}).get("acc")})
    dt = time.perf_counter() - t0
    util = [u for u in util if u is not None]
    peak = _peak(device)
    trained = sum(r["config_hash"] not in finished for r in done)
    res = {"stage": name, "runs": trained, "runs_left": len(cfgs) - len(done), "seconds": round(dt, 1),
           "estimated_s": round(est_done), "ratio": round(took_done / est_done, 3) if est_done else None,
           "gpu_util": sum(util) / len(util) if util else None, "mfu": None if peak is None or not done else flops / dt / peak}
    if done:
        t = done[0]["timing"]
        res.update(device=t.get("device"), cuda_graphs=t.get("cuda_graphs"), commit=done[0].get("commit"),
                   source=done[0].get("source"))
    if trained < len(done):
        res["reexported"] = len(done) - trained
    if not cfgs:
        res["skipped"] = "done"
    elif not done:
        res["skipped"] = f"no run fits in {seconds:.0f} s (the cheapest is ~{min(run_seconds(name, c) for c in cfgs):.0f} s)"
    return res


#: A checkpoint part's size: a GPU machine returns files of at most 16 MiB (8 files), so a gu2025 paper checkpoint
#: (model and Adam state of ~3.3M parameters, ~40 MB) comes back in three parts.
PART_BYTES = 15 * 2**20
MANIFEST = "checkpoints.json"
#: The least time left in which ``--partial`` starts a run it cannot finish: set-up, data and the first epoch
#: checkpoint (written at an epoch's end once 60 s have passed since the last) must fit, or the slice keeps nothing.
PARTIAL_MIN_S = 150


def pack_checkpoints(runs: Path, dest: Path, part_bytes: int = PART_BYTES) -> list[Path]:
    """The checkpoints of the unfinished runs under ``runs`` (``checkpoint.pt`` without ``record.json``) as files of
    at most ``part_bytes`` in ``dest`` (``ckpt<k>.part<NN>``, names a GPU machine returns), and ``dest/checkpoints.json``
    naming each checkpoint's path under ``runs``, size, SHA-256 and parts: a run longer than a slice goes on in the
    next one (:func:`unpack_checkpoints`, then the same command: the run resumes from its last epoch checkpoint).
    Only regular files inside ``runs`` are packed (a symlink out of it is refused), read part by part."""
    import hashlib

    from petheory.io import atomic_write_bytes, atomic_write_json
    from petheory.loaders.paths import inside, open_regular

    root = runs.resolve()
    manifest, written = [], []
    ckpts = sorted(p for p in runs.rglob("checkpoint.pt") if not (p.parent / "record.json").is_file()) if runs.is_dir() else []
    dest.mkdir(parents=True, exist_ok=True)
    for k, ck in enumerate(ckpts):
        inside(ck, root, named_by=f"a run under {runs}", folder="runs folder")
        digest, parts, total = hashlib.sha256(), [], 0
        with open_regular(ck, what="torch checkpoint") as fh:
            while True:
                data = fh.read(part_bytes)
                if not data and parts:
                    break
                part = dest / f"ckpt{k}.part{len(parts):02d}"
                written.append(atomic_write_bytes(part, data))
                parts.append(part.name)
                digest.update(data)
                total += len(data)
                if not data:
                    break
        manifest.append({"path": str(ck.relative_to(runs)), "bytes": total, "sha256": digest.hexdigest(), "parts": parts})
    written.append(atomic_write_json(dest / MANIFEST, {"checkpoints": manifest}))
    return written


#: The largest checkpoint a manifest may declare (a gu2025 paper-preset checkpoint is about 0.1 GiB).
CHECKPOINT_MAX_BYTES = 8 << 30
_CHUNK = 1 << 20  # parts are read and hashed in chunks of this many bytes, never whole


def _manifest(src: Path) -> list[dict]:
    """The checkpoints ``src/checkpoints.json`` lists, each field checked; the messages name the file and field."""
    import re

    from petheory.errors import ValidationError
    from petheory.loaders.safe_json import read_json

    path = src / MANIFEST
    doc = read_json(path, what="checkpoint manifest", max_bytes=1 << 20)
    items = doc.get("checkpoints") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise ValidationError(f"{path}: field 'checkpoints' must be a list of checkpoints, as --pack-checkpoints "
                              "writes it")
    for i, m in enumerate(items):
        where = f"{path}: checkpoints[{i}]"
        if not isinstance(m, dict):
            raise ValidationError(f"{where} must be an object with path, bytes, sha256 and parts")
        if not isinstance(m.get("path"), str) or Path(m["path"]).name != "checkpoint.pt":
            raise ValidationError(f"{where}.path must name a run's checkpoint.pt under --runs, got {str(m.get('path'))[:200]!r}")
        n = m.get("bytes")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= CHECKPOINT_MAX_BYTES:
            raise ValidationError(f"{where}.bytes must be an integer in 0..{CHECKPOINT_MAX_BYTES}, got {str(n)[:40]}")
        if not isinstance(m.get("sha256"), str) or not re.fullmatch(r"[0-9a-f]{64}", m["sha256"]):
            raise ValidationError(f"{where}.sha256 must be 64 lowercase hex digits")
        parts = m.get("parts")
        if not isinstance(parts, list) or not parts or not all(isinstance(x, str) and x for x in parts):
            raise ValidationError(f"{where}.parts must be a non-empty list of file names in {src}")
    return items


def _joined(src: Path, m: dict, where: str):
    """A ``write(fh)`` that streams the parts of checkpoint ``m`` into ``fh``: each part a regular file inside ``src``
    whose sizes add up to the declared bytes (checked on the open files before a byte is read); read in chunks, never
    past the declared size; the SHA-256 compared at the end (a mismatch raises: the staged file is dropped)."""
    import hashlib
    import os

    from petheory.errors import ValidationError
    from petheory.loaders.paths import inside, open_regular, regular_file

    root = src.resolve()
    files = [inside(src / name, root, named_by=f"{where}.parts", folder="checkpoint folder") for name in m["parts"]]
    for f in files:  # named with the manifest's entry; checked again on the open descriptor below
        try:
            regular_file(f, what="checkpoint part")
        except (ValidationError, FileNotFoundError) as exc:
            raise ValidationError(f"{where}.parts: {exc}") from None

    def write(fh) -> None:
        opened = []
        try:
            for f in files:
                opened.append(open_regular(f, what="checkpoint part"))
            sizes = [os.fstat(h.fileno()).st_size for h in opened]
            if sum(sizes) != m["bytes"]:
                raise ValidationError(f"{where}: its parts hold {sum(sizes)} bytes, the manifest declares {m['bytes']}")
            digest, left = hashlib.sha256(), m["bytes"]
            for h, size in zip(opened, sizes):
                todo = size
                while todo and left:
                    chunk = h.read(min(_CHUNK, todo, left))
                    if not chunk:
                        break
                    digest.update(chunk)
                    fh.write(chunk)
                    todo, left = todo - len(chunk), left - len(chunk)
                if todo or h.read(1):  # shrank or grew while read
                    raise ValidationError(f"{where}: part {h.name} changed size while it was read")
            if digest.hexdigest() != m["sha256"]:
                raise ValidationError(f"{where}: its parts do not make the file that was packed (another SHA-256)")
        finally:
            for h in opened:
                h.close()

    return write


def unpack_checkpoints(src: Path, runs: Path) -> list[Path]:
    """Put the checkpoints :func:`pack_checkpoints` wrote into ``src`` back under ``runs``, as one set: every part a
    regular file inside ``src``, every target a ``checkpoint.pt`` inside ``runs`` of a run without ``record.json`` (a
    finished run is never touched), each checked against its size and SHA-256 while it is staged; any refusal
    leaves ``runs`` as it was."""
    from petheory.errors import ValidationError
    from petheory.io import atomic_write_set
    from petheory.loaders.paths import inside

    root = runs.resolve()
    staged = {}
    for i, m in enumerate(_manifest(src)):
        where = f"{src / MANIFEST}: checkpoints[{i}]"
        target = inside(runs / m["path"], root, named_by=f"{where}.path", folder="runs folder")
        if (target.parent / "record.json").exists():
            raise ValidationError(f"{where}.path: {target.parent} holds a finished run (record.json); its checkpoint "
                                  "is not replaced")
        if target.exists() and not target.is_file() or target.is_symlink():
            raise ValidationError(f"{where}.path: {target} exists and is not a regular file")
        staged[target] = _joined(src, m, where)
    return atomic_write_set(staged)


def fraction_done(config, runs: Path, folder: str) -> float:
    """The share of ``config``'s epochs its checkpoint under ``runs/folder`` has trained (0 without one)."""
    ck = sweep.run_dir(runs / folder, config) / "checkpoint.pt"
    if not ck.is_file():
        return 0.0
    from petheory.nn.training import load_checkpoint

    return min(1.0, load_checkpoint(ck)["epoch"] / max(config.epochs, 1))


def fullest(sizes, capacity: float) -> list[int]:
    """Indices of the subset of ``sizes`` (seconds) with the largest sum not above ``capacity`` (0/1 knapsack over whole
    seconds, sizes rounded up so that the subset never passes ``capacity``; sizes of 0 are always in it); ties go
    to the subset found first."""
    cap = int(capacity)
    if cap < 0:
        return []
    w = [int(-(-x // 1)) for x in sizes]
    free = [i for i, wi in enumerate(w) if wi <= 0]  # nothing left to train (a resumed run at its last epoch)
    best: dict[int, list[int]] = {0: []}  # reachable sum -> the items that reach it
    for i, wi in enumerate(w):
        if wi <= 0:
            continue
        for total, items in list(best.items()):
            t = total + wi
            if t <= cap and t not in best:
                best[t] = items + [i]
    return sorted(free + best[max(best)])


def _step_flops(config) -> int:
    from petheory.experiments.grid_measure import step_flops

    return step_flops(config)


def _peak(device: str) -> float | None:
    """Dense bf16 peak of the CUDA device (bench_nn's table), None elsewhere."""
    import torch

    if not str(device).startswith("cuda") or not torch.cuda.is_available():
        return None
    from bench_nn import PEAK_BF16

    name = torch.cuda.get_device_name(torch.device(device))
    return next((v for k, v in PEAK_BF16.items() if k in name), None)


#: Where tools/gpu/gpu_efficiency.py keeps its records: beside the scripts, not in ``records/`` (a step-time
#: measurement is not a training record: ``petheory check`` would warn that it skips it).
EFFICIENCY_DIR = Path(__file__).resolve().parent / "efficiency_records"


def efficiency_record(folder: Path = EFFICIENCY_DIR) -> dict | None:
    """The newest CUDA record of tools/gpu/gpu_efficiency.py in ``folder``, or None."""
    from petheory.loaders.safe_json import read_json

    recs = []
    for f in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            r = read_json(f, what="efficiency record")  # petheory's one JSON reader: regular file, size, depth
        except (OSError, ValueError):
            continue
        if isinstance(r, dict) and r.get("preset") == "paper" and not str(r.get("device", "")).startswith("cpu"):
            recs.append((f.stat().st_mtime, r))
    return max(recs, key=lambda t: t[0])[1] if recs else None


#: The step forms of tools/gpu/gpu_efficiency.py that this script trains with: today's one-run step, and the
#: mixed-family grid (``--members 8``). ``bf16_compile`` (1.33x on the H200) is not one: its 71 s of compilation per
#: program costs more than it saves in a slice of one or two runs, so the projection does not divide by it.
TRAINS_WITH = ("current", "mixed8")


def status(out: Path, names=None, efficiency: Path = EFFICIENCY_DIR) -> dict:
    """Which stages are done under ``out`` and the GPU minutes left: per stage, runs done of all, and the
    estimated minutes of the runs not done (run by run, :func:`run_seconds`: the H100 step times measured so far),
    each run counted once across stages; then divided by the speed-up of the fastest form measured by
    tools/gpu/gpu_efficiency.py over today's (when its record is there)."""
    have = _have(out)
    seen, rows = set(have), []
    for n in names or list(STAGES):
        cfgs = configs_of(STAGES[n][0], "cuda")
        todo = [c for c in cfgs if c.hash() not in seen]
        seen |= {c.hash() for c in todo}
        rows.append({"stage": n, "runs": len(cfgs), "done": sum(c.hash() in have for c in cfgs),
                     "minutes_left": sum(run_seconds(n, c) for c in todo) / 60})
    eff = efficiency_record(efficiency)
    speedup, best = 1.0, None
    var = (eff or {}).get("variants", {})
    if eff and "current" in var:
        usable = {k: v["step_ms_per_member"] for k, v in var.items() if k in TRAINS_WITH and "step_ms_per_member" in v}
        best = min(usable, key=usable.get)
        speedup = var["current"]["step_ms_per_member"] / usable[best]
    return {"stages": rows, "efficiency": None if eff is None else {
                "device": eff.get("device"), "fastest": best, "speedup": speedup, "commit": eff.get("commit"),
                "fastest_measured": eff.get("fastest")},
            "minutes_left": sum(r["minutes_left"] for r in rows), "projected_minutes_left":
            sum(r["minutes_left"] for r in rows) / speedup}


def print_status(out: Path, names=None, efficiency: Path = EFFICIENCY_DIR) -> None:
    st = status(out, names, efficiency)
    eff = st["efficiency"]
    print(f"{'stage':22s} {'runs done':>10s} {'GPU-min left':>13s}")
    print(f"{'gpu_efficiency':22s} {('done' if eff else 'todo'):>10s} {'' if eff else '~' + str(round(sum(_eff_estimates()) / 60)):>13s}"
          + (f"  {eff['device']}: fastest {eff['fastest']}, x{eff['speedup']:.2f} over today's step"
             + (f" (of the forms this script trains with; {eff['fastest_measured']} was faster)"
                if eff.get("fastest_measured") not in (None, eff["fastest"]) else "") if eff else
             "  (tools/gpu/gpu_efficiency.py --budget 180: the first minutes of a slice)"))
    for r in st["stages"]:
        print(f"{r['stage']:22s} {r['done']:>4d} / {r['runs']:<4d} {r['minutes_left']:>13.0f}")
    line = f"projected GPU-minutes left: ~{st['minutes_left']:.0f} at the H100 step times"
    if eff and st["projected_minutes_left"] != st["minutes_left"]:
        line += f", ~{st['projected_minutes_left']:.0f} in the fastest form measured ({eff['fastest']})"
    print(line + " (training only; each run counted once, in stage order)")
    long = [(n, c) for n in (names or list(STAGES)) for c in configs_of(STAGES[n][0], "cuda")
            if c.hash() not in _have(out) and run_seconds(n, c) > SLICE_S]
    if long:
        kinds = sorted({f"{c.task.name} {c.model.pe}" for _, c in long})
        print(f"{len(long)} runs take over {SLICE_S // 60} min each at the H100 step ({', '.join(kinds)}): longer than "
              "one slice, they go on across slices (--partial, then --pack-checkpoints / --unpack-checkpoints)")


#: Where each slice's log (``--log``, one JSON line per run and per stage) is kept, one file per slice, named
#: ``<date>_<device>_slice<k>.jsonl``: the source of RESULTS.md's ``gpu-slices`` section (``--slices --write``).
SLICES_DIR = Path(__file__).resolve().parent / "slices"


def render_slices(folder: Path = SLICES_DIR, out: Path = Path("records")) -> str:
    """The slices run so far (their logs under ``folder``), run by run, and what is left of issue 44's plan under
    ``out``: RESULTS.md's ``gpu-slices`` section."""
    lines = ["## gpu-slices: issue 44's plan, a few runs each time a GPU is lent (gu2025 paper preset)", "",
             "`python tools/gpu/gpu_records.py --device cuda --out records --budget <s> --new-only --tar ... --log "
             "tools/gpu/slices/<slice>.jsonl issue44`, then `--slices --write`. One run per row: its seconds on the "
             "device (training, evaluation and head ablation), the H100 training-time estimate it was packed by, their "
             "ratio, its test accuracy; the stage's mean GPU use and MFU (bf16 dense peak).", "",
             "| slice | device | run | seconds | H100 estimate (s) | ratio | test acc | GPU use | MFU |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    from petheory.loaders.limits import JSON_MAX_BYTES
    from petheory.loaders.paths import read_limited
    from petheory.loaders.safe_json import loads

    for f in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        text = read_limited(f, JSON_MAX_BYTES, what="slice log").decode("utf-8", "replace")
        rows = [loads(x, source=f"{f} line {i}") for i, x in enumerate(text.splitlines(), 1) if x.strip()]
        stages = {r["stage"]: r for r in rows if "run" not in r and r.get("device")}
        for r in (r for r in rows if "run" in r and not r.get("reexported")):  # a re-export's run has its row already
            st = stages.get(r["stage"], {})
            util = "" if st.get("gpu_util") is None else f"{st['gpu_util']:.0f} %"
            mfu = "" if st.get("mfu") is None else f"{100 * st['mfu']:.1f} %"
            lines.append(f"| {f.stem} | {st.get('device', '')} | {r['run']} | {r['seconds']:.0f} | {r['estimate_s']} | "
                         f"{'—' if r['ratio'] is None else format(r['ratio'], '.2f')} | {r['acc']:.4f} | {util} | {mfu} |")
    st = status(out, ISSUE44_PLAN)
    lines += ["", "Left of the plan (`--status`): " + "; ".join(
        f"{r['stage']} {r['done']}/{r['runs']} runs, ~{r['minutes_left']:.0f} H100-minutes" for r in st["stages"]) + "."]
    return "\n".join(lines)


#: Seconds of training one slice can hold: a 10-minute command less a minute for start-up, evaluation and packing.
SLICE_S = 540


def _eff_estimates():
    from gpu_efficiency import ESTIMATE_S

    return ESTIMATE_S.values()


class _Refused(Exception):
    """A usage error of this tool: one line and exit 2, as the petheory CLI says it."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse's own: usage lines and exit 2; here one line, through main's handler
        raise _Refused(message)


def main(argv=None) -> int:
    """Run the tool; a refusal (bad arguments, a manifest or file that is refused, a full disk) is one line on
    stderr and exit 2, never a traceback."""
    from petheory.errors import InvalidInput

    try:
        return _main(argv)
    except (_Refused, InvalidInput, OSError) as exc:
        text = str(exc).strip() or type(exc).__name__
        text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)  # one line
        print(f"gpu_records.py: error: {text[:2000]}", file=sys.stderr)
        return 2


def _main(argv=None) -> int:
    from petheory.loaders.environment import check_environment

    check_environment()  # PETHEORY_COMMIT goes into every record: a bad one is refused before any training
    p = _Parser(description=__doc__.splitlines()[0])
    p.add_argument("stages", nargs="*", help=f"stages or plans in order (default: all stages): {', '.join(STAGES)}; "
                   f"plans: {', '.join(f'{k} ({chr(32).join(v)})' for k, v in PLANS.items())}")
    p.add_argument("--device", default="cuda")
    p.add_argument("--out", default="records", help="records folder (default: records)")
    p.add_argument("--runs", default=str(records.runs_dir() / "gpu"), help="run directories with checkpoints (default: runs/gpu, "
                   "under $PETHEORY_RUNS when set)")
    p.add_argument("--budget", type=float, default=float("inf"), help="seconds; a stage that would not fit "
                   "trains the runs that fit (see --whole)")
    p.add_argument("--tar", help="pack the out folder into this .tar.gz after every stage")
    p.add_argument("--log", help="append one JSON line per stage to this file")
    p.add_argument("--members", type=int, default=None,
                   help="at most this many runs per grid (GPU memory: about 8 at gu2025's paper preset on 80 GB)")
    p.add_argument("--whole", action="store_true", help="start a stage only whole (default: a stage that does not fit "
                   "trains its runs that fit, longest first, one by one)")
    p.add_argument("--ratio", type=float, default=1.0, help="a run's measured-to-estimated time on this device, as a "
                   "slice before measured it (its log's 'ratio'; default 1: the H100 estimates), until this call measures one")
    p.add_argument("--new-only", action="store_true", help="--tar packs only the records this call wrote (and --log), "
                   "not the whole --out folder")
    p.add_argument("--partial", action="store_true", help="when no run fits, start the longest left anyway (a run "
                   "longer than a slice): the command's time limit stops it, --pack-checkpoints takes it on")
    p.add_argument("--pack-checkpoints", metavar="DIR", help="write the checkpoints of the unfinished runs under --runs "
                   "into DIR in parts of at most 15 MiB with a manifest (what a GPU machine returns), then exit")
    p.add_argument("--unpack-checkpoints", metavar="DIR", help="put the checkpoints packed in DIR back under --runs "
                   "(checked by SHA-256), then exit; the next call resumes those runs")
    p.add_argument("--slices", action="store_true", help="print the slices logged under tools/gpu/slices/ and "
                   "what is left of issue 44's plan under --out (with --write: as RESULTS.md's gpu-slices section)")
    p.add_argument("--write", action="store_true", help="with --slices: write benchmarks/RESULTS.md's gpu-slices section")
    p.add_argument("--list", action="store_true")
    p.add_argument("--status", action="store_true", help="which stages are done under --out and the GPU minutes left "
                   "(issue 44's plan, or the stages named), from the records there and the measured step times")
    p.add_argument("--measure", action="store_true", help="before each stage, time its training steps on --device and "
                   "use that projection (not the stored estimate) against --budget; printed with each stage's line")
    args = p.parse_args(argv)
    if args.list:
        for k, (spec, folder, est) in STAGES.items():
            print(f"{k:22s} {folder:32s} ~{est} s  {len(configs_of(spec, 'cpu'))} runs")
        print(f"gu2025 plan ({', '.join(GU2025_PLAN)}): ~{plan_seconds(GU2025_PLAN) / 60:.0f} GPU-minutes "
              f"(target {GU2025_TARGET_MIN})")
        pr = task1_projection()
        print(f"gu2025 Task 1 with Figs. 5-7 (gu2025_task1_figs): {pr['runs']} runs, ~{pr['serial_min']:.0f} GPU-minutes "
              f"run by run (target {pr['target_min']}: needs packing x{pr['packing_needed']:.1f}, "
              f"{100 * pr['mfu_needed']:.0f}% MFU)")
        print(f"issue34 plan ({', '.join(ISSUE34_PLAN)}): ~{plan_seconds(ISSUE34_PLAN) / 60:.0f} GPU-minutes "
              f"(target {ISSUE34_TARGET_MIN})")
        return 0
    names = [n for a in (args.stages or list(STAGES)) for n in PLANS.get(a, [a])]
    bad = [n for n in names if n not in STAGES]
    if bad:
        p.error(f"unknown stage(s) {', '.join(bad)}; known: {', '.join(STAGES)}")
    if args.pack_checkpoints or args.unpack_checkpoints:
        runs = Path(args.runs)
        files = (pack_checkpoints(runs, Path(args.pack_checkpoints)) if args.pack_checkpoints
                 else unpack_checkpoints(Path(args.unpack_checkpoints), runs))
        print(json.dumps({"pack" if args.pack_checkpoints else "unpack": [str(f) for f in files]}))
        return 0
    if args.slices:
        text = render_slices(out=Path(args.out))
        print(text)
        if args.write:
            from harness import write_section

            write_section("gpu-slices", text)
        return 0
    if args.status:
        print_status(Path(args.out), names if args.stages else ISSUE44_PLAN)
        return 0
    t_start = time.perf_counter()
    out, runs = Path(args.out), Path(args.runs)
    written: list[Path] = []  # record files a per-run slice wrote (a whole stage packs the out folder)

    def emit(res: dict) -> None:
        print(json.dumps(res), flush=True)
        if args.log:
            with open(args.log, "a") as fh:
                fh.write(json.dumps(res) + "\n")
        if args.tar and out.is_dir():  # after every run or stage: a time limit loses at most what is in flight
            tmp = Path(args.tar + ".part")
            with tarfile.open(tmp, "w:gz") as tf:
                for f in written if args.new_only else [out]:
                    tf.add(f, arcname=str(Path(out.name) / Path(f).relative_to(out)) if f != out else out.name)
                if args.log and Path(args.log).is_file():
                    tf.add(args.log, arcname=Path(args.log).name)
            tmp.replace(args.tar)
    for n in names:
        left = args.budget - (time.perf_counter() - t_start)
        est, measured = round(plan_seconds([n], out, args.device)), None  # the runs not done yet
        try:
            if args.measure:
                est = measured = round(measure_seconds(n, args.device, out))
            if est > left and (args.whole or is_retrieval(n)):
                res = {"stage": n, "skipped": f"estimate {est} s > {left:.0f} s left"}
            elif est > left:  # the runs of the stage that fit, one by one (issue 44's slices)
                res = run_runs_that_fit(n, args.device, runs, out, left, written, log=emit, ratio0=args.ratio,
                                        partial=args.partial)
            else:
                res = run_stage(n, args.device, runs, out, args.members, written)
        except Exception as exc:  # one stage failing must not lose the others' records
            res = {"stage": n, "error": f"{type(exc).__name__}: {exc}"[:500]}
        if measured is not None:
            res["projected_seconds"] = measured
        emit(res)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
