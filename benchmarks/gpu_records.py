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
updated from measurements).
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

SEEDS5 = [0, 1, 2, 3, 4]
_GU = list(experiments.GU2025_PES.values())
#: name -> (grid spec for sweep.expand, experiment folder, estimated seconds on one H100)
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
    "gu2025_task1": ({"task": "gu2025_task1", "preset": "paper", "pe": [p for p in _GU if p != "mla"], "seed": [0]},
                     "gu2025_task1", 900),
    "gu2025_task2": ({"task": "gu2025_task2", "preset": "paper", "pe": [p for p in _GU if p != "mla"], "seed": [0]},
                     "gu2025_task2", 900),
    "chen2025": ({"task": list(LENGTHGEN_TASKS), "preset": "paper", "pe": list(LENGTHGEN_PES), "seed": [0]},
                 "chen2025_lengthgen", 400),
}


def _done(spec, folder: Path) -> bool:
    cfgs = sweep.expand(spec)
    have = {r["config_hash"] for r in records.find(where=[folder]).records} if folder.is_dir() else set()
    return all(c.hash() in have for c in cfgs)


def run_stage(name: str, device: str, runs: Path, out: Path) -> dict:
    spec, folder, _ = STAGES[name]
    spec = {**spec, "device": device}
    if _done(spec, out / folder):
        return {"stage": name, "skipped": "done"}
    cfgs = sweep.expand(spec)
    t0 = time.perf_counter()
    recs = sweep.run(cfgs, runs / folder, ensemble=True)
    dt = time.perf_counter() - t0
    records.export(recs, out, experiment=folder)
    t = recs[0]["timing"]
    return {"stage": name, "runs": len(recs), "seconds": round(dt, 1), "gpu_util": t.get("gpu_util"),
            "device": t.get("device"), "cuda_graphs": t.get("cuda_graphs")}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("stages", nargs="*", help=f"stages in order (default: all): {', '.join(STAGES)}")
    p.add_argument("--device", default="cuda")
    p.add_argument("--out", default="records", help="records folder (default: records)")
    p.add_argument("--runs", default=str(records.runs_dir() / "gpu"), help="run directories with checkpoints (default: runs/gpu, "
                   "under $PETHEORY_RUNS when set)")
    p.add_argument("--budget", type=float, default=float("inf"), help="seconds; stages that would not fit are not started")
    p.add_argument("--tar", help="pack the out folder into this .tar.gz after every stage")
    p.add_argument("--log", help="append one JSON line per stage to this file")
    p.add_argument("--list", action="store_true")
    args = p.parse_args(argv)
    if args.list:
        for k, (spec, folder, est) in STAGES.items():
            print(f"{k:22s} {folder:32s} ~{est} s  {len(sweep.expand({**spec, 'device': 'cpu'}))} runs")
        return 0
    names = args.stages or list(STAGES)
    bad = [n for n in names if n not in STAGES]
    if bad:
        p.error(f"unknown stage(s) {', '.join(bad)}; known: {', '.join(STAGES)}")
    t_start = time.perf_counter()
    out, runs = Path(args.out), Path(args.runs)
    for n in names:
        left = args.budget - (time.perf_counter() - t_start)
        if STAGES[n][2] > left:
            res = {"stage": n, "skipped": f"estimate {STAGES[n][2]} s > {left:.0f} s left"}
        else:
            try:
                res = run_stage(n, args.device, runs, out)
            except Exception as exc:  # one stage failing must not lose the others' records
                res = {"stage": n, "error": f"{type(exc).__name__}: {exc}"[:500]}
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
