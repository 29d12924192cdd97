r"""chen2025 training records: accuracy per length, SRC per length, per-instance scores (torch).

``make_record(task, pe, size=..., runs_dir=..., records_dir=...)`` trains one model with
:func:`petheory.nn.training.train` (checkpointed under ``runs_dir``), then measures on every test size

* ``src``: Sequential Representation Complexity (:func:`petheory.lengthgen.src`) from the
  attention maps of the first ``SRC_INSTANCES`` test instances;
* ``instance_token_acc``: each test instance's fraction of right answer tokens (teacher forced),
  so that two runs on the same test data can be compared instance by instance;

and writes ``records_dir/<task>__<pe>__s<seed>/record.json`` (JSON only, atomic): the training
record plus a ``chen2025`` block with the preset, overrides, device, commit and wall time.
``CPU_RUNS`` x ``CPU_SEEDS`` is the grid whose small-preset records are committed under ``records/chen2025``
(15-25 s of CPU per run on one core; the chen2025 claims name any run of the grid they lack); ``GPU_RUNS`` is the
full grid of the paper preset.
"""

from __future__ import annotations

import time
from pathlib import Path

from petheory.io import atomic_write_json
from petheory.records import runs_dir as default_runs_dir

SRC_INSTANCES = 64
CPU_OVERRIDES = {"ablate": False}  # head ablation is not used by the chen2025 claims
#: The small-preset grid: every PE the chen2025 claims name, per task; trained at CPU_SEEDS (>= 3 seeds per
#: configuration: the claims test per-seed results). Ordered by task, then PE, so that an interrupted
#: (resumable) run completes whole configurations first.
CPU_PES = ("fire", "nope", "rope", "sinusoidal", "relative", "rope:hint=shift", "fire:hint=shift")
CPU_TASKS = ("parity", "copy")
CPU_SEEDS = (0, 1, 2)
CPU_RUNS = [(t, pe) for t in CPU_TASKS for pe in CPU_PES]
#: chen2025's length-generalisation tasks, and the encodings it compares on them (the defaults of
#: :func:`petheory.experiments.papers.chen2025_lengthgen` and of the GPU records stage): one list, used everywhere.
LENGTHGEN_TASKS = ("parity", "copy", "reverse", "addition")
LENGTHGEN_PES = ("nope", "sinusoidal", "learned", "alibi", "rope", "t5")
GPU_RUNS = [(t, pe) for t in LENGTHGEN_TASKS
            for pe in ("nope", "sinusoidal", "relative", "rope", "rope:hint=shift", "rope:hint=interp", "fire",
                       "fire:hint=shift", "fire:hint=interp")]


def run_name(task: str, pe: str, seed: int) -> str:
    """The run folder's name of a chen2025 run.

    Parameters
    ----------
    task : str
        The task.
    pe : str
        Its PE spec.
    seed : int
        The seed.

    Returns
    -------
    str
        A name without ``:``, ``=``, ``,`` or ``+``.

    Examples
    --------
    >>> run_name("parity", "rope:base=500", 1)
    'parity__rope-base500__s1'
    """
    return f"{task}__{pe.replace(':', '-').replace('=', '').replace(',', '_').replace('+', 'plus')}__s{seed}"


def chen2025_problem(rec: dict) -> str | None:
    """Why a record's ``chen2025`` block cannot be read by the figures and claims; None if it can (or has none).

    ``pe`` and ``preset`` (text), ``src`` (test length -> a finite number, every length of ``final.test`` present)
    and ``final.test[L].token_acc`` (a fraction in [0, 1]); :func:`petheory.io.record_problem` has checked the rest.

    Parameters
    ----------
    rec : dict
        A training record.

    Returns
    -------
    str or None
        The problem, naming the field, or None.

    Examples
    --------
    >>> chen2025_problem({}), chen2025_problem({"chen2025": []})
    (None, "field 'chen2025' must be an object, got list")
    """
    import math

    c = rec.get("chen2025")
    if c is None:
        return None
    if not isinstance(c, dict):
        return f"field 'chen2025' must be an object, got {type(c).__name__}"
    for key in ("pe", "preset"):
        if not isinstance(c.get(key), str):
            return f"field 'chen2025.{key}' must be text, got {c.get(key)!r:.40}"
    src = c.get("src")
    if not isinstance(src, dict):
        return "field 'chen2025.src' must be an object (test length -> SRC)"
    for n, m in rec["final"]["test"].items():
        x = src.get(n)
        if not (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)):
            return f"field 'chen2025.src.{n}' must be a finite number (every test length has one), got {x!r:.40}"
        acc = m.get("token_acc")
        if not (isinstance(acc, (int, float)) and not isinstance(acc, bool) and 0.0 <= acc <= 1.0):
            return f"field 'final.test.{n}.token_acc' must be a fraction in [0, 1], got {acc!r:.40}"
    return None


def load_records(root) -> list[dict]:
    """Every record with a ``chen2025`` block that :func:`petheory.records.find` sees from ``root``.

    ``root/runs`` first, then ``root/records`` and the records shipped with the source tree; one record per (task, PE,
    seed, preset), a record under ``runs/`` replacing the committed one. Plain JSON reading: no torch needed (the
    claims and figures call it); unreadable or hand-edited files are skipped and named on stderr, never a crash.

    Parameters
    ----------
    root : str or os.PathLike
        The working directory.

    Returns
    -------
    list of dict
        The records.

    Examples
    --------
    >>> import os, tempfile
    >>> saved = os.environ.get("PETHEORY_RECORDS"); os.environ["PETHEORY_RECORDS"] = ""  # runs/ alone: no shipped records
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(load_records(tmp))
    []
    >>> _ = os.environ.pop("PETHEORY_RECORDS"); os.environ.update({} if saved is None else {"PETHEORY_RECORDS": saved})
    """
    from petheory import records

    out: dict[tuple, dict] = {}
    for r in reversed(records.find(workdir=root, check=chen2025_problem).records):  # runs/ comes first in find: last write wins
        if isinstance(r.get("chen2025"), dict):
            out[(r["task"], r["chen2025"]["pe"], r["seed"], r["chen2025"]["preset"])] = r
    return list(out.values())


def measure(model, data) -> dict:
    """SRC and per-instance token accuracy of ``model`` on every test split of ``data``.

    Parameters
    ----------
    model : Transformer
        A trained LM.
    data : TaskData
        A chen2025 task's data.

    Returns
    -------
    dict
        Per test length: the SRC and the token accuracy of each instance.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> from petheory.nn import tasks
    >>> from petheory.nn.training import complete_model_config
    >>> from petheory.nn.transformer import build_model
    >>> c = preset("parity", "smoke", pe="rope")
    >>> data = tasks.load(c.task)
    >>> out = measure(build_model(complete_model_config(c.model, data)), data)  # doctest: +SKIP
    """
    import torch

    from petheory.lengthgen import answer_queries, src

    with torch.no_grad():
        return _measure(model, data, answer_queries, src)


def _measure(model, data, answer_queries, src) -> dict:
    model.eval()
    out = {"src": {}, "instance_token_acc": {}}
    dev = next(model.parameters()).device
    for L, split in data.test.items():
        x, y, mask = split.x.to(dev), split.y.to(dev), split.mask.to(dev)
        right = ((model(x).argmax(-1) == y).float() * mask).sum(1) / mask.sum(1)
        out["instance_token_acc"][str(L)] = [round(float(r), 6) for r in right.cpu()]
        xs, ms = x[:SRC_INSTANCES], mask[:SRC_INSTANCES].cpu().numpy()
        probs = [p.double().cpu().numpy() for p in model.attention_probs(xs)]
        out["src"][str(L)] = src(probs, answer_queries(ms))
    return out


def make_record(task: str, pe: str, *, size: str = "small", seed: int = 0, device: str = "cpu",
                runs_dir=None, records_dir=None, overrides: dict | None = None) -> dict:
    """Train (or resume) one run and write its chen2025 record; returns the record.

    Parameters
    ----------
    task : str
        A chen2025 task.
    pe : str
        Its PE spec.
    size : str, optional
        The preset.
    seed : int, optional
        The seed.
    device : str, optional
        Where to train.
    runs_dir : path, optional
        Training runs (default ``<runs>/chen2025``, ``<runs>`` being :func:`petheory.records.runs_dir`).
    records_dir : path, optional
        Records (default ``<runs>/chen2025-records``).
    overrides : dict, optional
        Preset overrides (default: the CPU ones, ``CPU_OVERRIDES``).

    Returns
    -------
    dict
        The record, with its ``chen2025`` block.

    Examples
    --------
    >>> rec = make_record("parity", "rope")  # doctest: +SKIP
    """
    from petheory.nn.presets import preset
    from petheory.nn.training import load_model, train

    runs_dir = default_runs_dir() / "chen2025" if runs_dir is None else runs_dir
    records_dir = default_runs_dir() / "chen2025-records" if records_dir is None else records_dir
    overrides = dict(CPU_OVERRIDES if overrides is None else overrides)
    cfg = preset(task, size, pe=pe, seed=seed, device=device, **overrides)
    name = run_name(task, pe, seed)
    t0 = time.perf_counter()
    rec = train(cfg, out_dir=Path(runs_dir) / name)
    model, _ = load_model(Path(runs_dir) / name, device=device)
    from petheory.nn import tasks as _tasks

    extra = measure(model, _tasks.load(cfg.task))
    rec["chen2025"] = {"preset": size, "overrides": overrides, "pe": pe, "device": rec["timing"]["device"],
                       "commit": rec["commit"] or "unknown", "source": rec["source"],
                       "wall_seconds": round(rec["timing"]["seconds"], 2),
                       "measure_seconds": round(time.perf_counter() - t0 - rec["timing"]["seconds"], 2), **extra}
    atomic_write_json(Path(records_dir) / name / "record.json", rec)
    return rec


def main(argv=None) -> int:
    """``python -m petheory.experiments.chen2025_runs [small|paper] [--device cpu|cuda] [--records DIR]``: train
    chen2025's grid and write its records (default: ``runs/chen2025-records``).

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: the command line).

    Returns
    -------
    int
        The exit code.

    Examples
    --------
    >>> main(["small", "--seeds", "0"])  # doctest: +SKIP
    """
    import argparse

    import torch

    p = argparse.ArgumentParser(prog="python -m petheory.experiments.chen2025_runs",
                                description="train chen2025's grid and write its records (default: runs/chen2025-records, "
                                "never the committed records/ unless --records records/chen2025 is given)")
    p.add_argument("size", nargs="?", default="small", choices=("small", "paper"))
    p.add_argument("--device", default="cpu")
    p.add_argument("--records", default=None, help="where the record.json files go (default: $PETHEORY_RUNS or runs, "
                   "then chen2025-records)")
    p.add_argument("--seeds", type=int, nargs="+", default=list(CPU_SEEDS), help="training seeds (default: %(default)s)")
    p.add_argument("--tasks", nargs="+", default=None, help="restrict to these tasks (default: the grid's)")
    args = p.parse_args(argv)
    torch.set_num_threads(1 if args.device == "cpu" else torch.get_num_threads())
    grid = [(t, pe) for t, pe in (CPU_RUNS if args.size != "paper" else GPU_RUNS) if args.tasks is None or t in args.tasks]
    for task, pe, seed in [(t, pe, s) for t, pe in grid for s in args.seeds]:  # whole configurations first
        rec = make_record(task, pe, size=args.size, seed=seed, device=args.device, records_dir=args.records)
        acc = {k: round(v["token_acc"], 3) for k, v in rec["final"]["test"].items()}
        src_ = {k: round(v, 2) for k, v in rec["chen2025"]["src"].items()}
        print(f"{task:8s} {pe:18s} s{seed} {rec['chen2025']['wall_seconds']:6.1f}s acc {acc} src {src_}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
