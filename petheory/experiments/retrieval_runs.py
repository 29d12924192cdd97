r"""Retrieval records: passkey and MQAR by length (and depth), for trained PEs and RoPE context extension.

``make_record(task, pe, seed=...)`` trains one run of the ``small`` preset with
:func:`petheory.nn.training.train` (checkpointed under ``runs_dir``, so a killed run resumes), then
evaluates it at every length of :data:`LENGTHS` (1x to 16x the training context) and, for
``passkey``, on the length x depth grid of :func:`petheory.nn.retrieval.passkey_grid`. A RoPE run is
also evaluated with every method of :data:`SWAPPED` swapped in at evaluation time (matched factor,
:mod:`petheory.experiments.context_extension`) and after a fine-tune of :data:`FT_STEPS` steps at
``FT_FACTOR`` times the training context with each method of :data:`FINETUNED` (fixed factor
``FT_FACTOR``). Each method's results are saved as they finish (``runs_dir/<name>/methods/``), so a
rerun redoes only what is missing; the record goes to ``records_dir/<name>.json`` (atomic).

The record is the training record plus a ``retrieval`` block::

    {"preset", "lengths", "depths", "train_context", "train_seq_len", "metric",
     "methods": {label: {"spec", "kind": "trained"|"swapped"|"finetuned", "finetune": {...} or None,
                         "by_length": {"<N>": {"token_acc", "seq_acc", "seq_len", "params", "coverage",
                                               "query_acc" (mqar: accuracy per query, first to last)}},
                         "grid": {"<N>": {"<depth>": seq_acc}} (passkey)}},
     "wall_seconds", "eval_seconds", "device", "commit"}

``python -m petheory.experiments.retrieval_runs`` trains the grid (:data:`RUNS`: 2 tasks x 4 PEs x 3 seeds;
the RoPE runs carry 3 swapped and 4 fine-tuned methods each: PI, NTK, YaRN and, as the control,
RoPE fine-tuned the same way without a scaling) into ``runs/retrieval-records``, or
into the committed ``records/retrieval`` with ``--records records/retrieval``.

:func:`recall_record` trains :data:`petheory.nn.presets.MQAR_RECALL` (MQAR without filler at a constant lr, the
recipe that learns key matching on a CPU; the 'small' preset's MQAR runs above do not) and adds the accuracy per
query; its records are ``records/mqar_recall_small``.
"""

from __future__ import annotations

import time
from numbers import Integral, Real
from pathlib import Path

from petheory._validate import Each, Interval, validate_params
from petheory.io import atomic_write_json, read_json
from petheory.records import runs_dir as default_runs_dir
from petheory.errors import ValidationError

TASKS = ("passkey", "mqar")
TRAINED = ("rope", "nope", "alibi", "sinusoidal")
SEEDS = (0, 1, 2)
RUNS = [(t, pe, s) for t in TASKS for pe in TRAINED for s in SEEDS]
LENGTHS = (32, 64, 128, 256, 512)
DEPTHS = (0.0, 0.25, 0.5, 0.75, 1.0)
GRID_N = 48  # sequences per (length, depth) cell
SWAPPED = ("rope_pi", "rope_ntk", "rope_yarn")
FINETUNED = ("rope", "rope_pi", "rope_ntk", "rope_yarn")  # "rope": the same fine-tune without a scaling (control)
FT_FACTOR, FT_STEPS, FT_LR, FT_BATCH = 2, 60, 1e-3, 32
#: the metric each task's claims and figures read: a passkey is retrieved when all its digits are right
#: (seq_acc, as passkey papers count); MQAR counts answered queries (token_acc, as Zoology)
METRIC = {"passkey": "seq_acc", "mqar": "token_acc"}


def run_name(task: str, pe: str, seed: int) -> str:
    """The run folder's name of a retrieval run.

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
        ``<task>__<pe>__s<seed>``.

    Examples
    --------
    >>> run_name("passkey", "rope", 0)
    'passkey__rope__s0'
    """
    return f"{task}__{pe}__s{seed}"


@validate_params({
    "lengths": [Each(Interval(Integral, 1, None))],
    "train_seq_len": [Interval(Integral, 1, None)],
    "depths": [Each(Interval(Real, 0, 1)), None],  # 0: the key right after BOS, 1: right before the query
})
def evaluate_lengths(model, task, lengths, *, train_seq_len: int, depths=None, n_grid: int = GRID_N) -> dict:
    """Metrics of ``model`` at each context length (and on the passkey grid): a method's entry of the record.

    Parameters
    ----------
    model : Transformer
        An LM (swapped or fine-tuned).
    task : TaskConfig
        Its retrieval task.
    lengths : iterable of int
        Context lengths.
    train_seq_len : int
        The longest training sequence (for the angle coverage of a rotary model).
    depths : iterable of float, optional
        Passkey depths of the grid (None: no grid).
    n_grid : int, optional
        Sequences per grid cell.

    Returns
    -------
    dict
        ``by_length`` (metrics per length, with the coverage and parameters of a swapped rotary model) and ``grid``.

    Raises
    ------
    petheory.errors.ValidationError
        Not an LM task.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.transformer import build_model
    >>> task = tasks.TaskConfig("passkey", 0, {"train_len": 16, "key_len": 2, "n_train": 8, "n_test": 4})
    >>> V = tasks.load(task).vocab_size
    >>> m = build_model({"pe": "rope", "head": "lm", "vocab_size": V, "out_dim": V, "causal": True, "n_layer": 1,
    ...                  "n_head": 2, "d_model": 16, "d_ff": 16, "max_len": 64})
    >>> r = evaluate_lengths(m, task, [16, 32], train_seq_len=18, depths=[0.0, 1.0], n_grid=2)
    >>> sorted(r["by_length"]), sorted(r["grid"])
    (['16', '32'], ['16', '32'])
    """
    from petheory.nn import tasks as _tasks
    from petheory.experiments.context_extension import angle_coverage, scale_at
    from petheory.nn.retrieval import passkey_grid, query_accuracy
    from petheory.nn.evaluation import evaluate

    p = dict(task.params)
    data = _tasks.load(_tasks.TaskConfig(task.name, task.seed, {**p, "test_lens": tuple(lengths)}))
    if data.kind != "lm":
        raise ValidationError(f"retrieval evaluation reads answer-token accuracy of a causal LM task (passkey, mqar, copy, ...); "
                         f"{task.name} is a {data.kind} task")
    rotary = model.pe.kind == "rotary"
    out = {"by_length": {}}
    for N in lengths:
        split = data.test[N]
        T = int(split.x.shape[1])
        m = evaluate(model, split, data.kind)
        row = {"token_acc": m["token_acc"], "seq_acc": m["seq_acc"], "loss": m["loss"], "seq_len": T}
        if task.name == "mqar":  # accuracy per query: the first one measures key matching (retrieval.query_accuracy)
            row["query_acc"] = query_accuracy(model, split)
        if rotary:
            row["params"] = scale_at(model, T) if hasattr(model, "extension") else dict(model.blocks[0].attn.rotary.params)
            row["coverage"] = angle_coverage(_as_extended(model, train_seq_len), T)
        out["by_length"][str(N)] = row
    if task.name == "passkey" and depths:
        grid = passkey_grid(p, task.seed, lengths, depths, n=n_grid)
        out["grid"] = {str(N): {f"{d:g}": evaluate(model, grid[(N, d)], "lm")["seq_acc"] for d in depths} for N in lengths}
    return out


def _as_extended(model, train_seq_len: int):
    """The model itself if it carries a swapped method, else plain RoPE as a 'swap' (for angle_coverage)."""
    from petheory.experiments.context_extension import swap_rotary

    return model if hasattr(model, "extension") else swap_rotary(model, str(model.pe), train_len=train_seq_len,
                                                                  matched=False)


def _methods(pe: str) -> list[tuple[str, str, str]]:
    """(label, spec, kind) of every evaluation a run of ``pe`` carries."""
    out = [(pe, pe, "trained")]
    if pe == "rope":
        out += [(m, m, "swapped") for m in SWAPPED]
        out += [(f"{m}+ft", m, "finetuned") for m in FINETUNED]
    return out


def make_record(task: str, pe: str, *, seed: int = 0, size: str = "small", device: str = "cpu", runs_dir=None,
                records_dir=None, lengths=LENGTHS, depths=DEPTHS, ft_steps: int = FT_STEPS, log=None) -> dict:
    """Train (or resume) one run, evaluate every method it carries (resuming per method), write its record.

    Parameters
    ----------
    task : str
        ``passkey`` or ``mqar``.
    pe : str
        The trained PE spec.
    seed : int, optional
        The seed.
    size : str, optional
        The preset.
    device : str, optional
        Where to train.
    runs_dir : path, optional
        Training runs (default ``<runs>/retrieval``).
    records_dir : path, optional
        Records (default ``<runs>/retrieval-records``).
    lengths : iterable of int, optional
        Context lengths evaluated.
    depths : iterable of float, optional
        Passkey depths.
    ft_steps : int, optional
        Fine-tuning steps of the ``+ft`` methods.
    log : callable, optional
        Called with a line per method done.

    Returns
    -------
    dict
        The record, with its ``retrieval`` block.

    Examples
    --------
    >>> rec = make_record("passkey", "rope")  # doctest: +SKIP
    """
    from petheory.experiments.context_extension import finetune, swap_rotary
    from petheory.nn.presets import preset
    from petheory.nn.training import load_model, train

    runs_dir = default_runs_dir() / "retrieval" if runs_dir is None else Path(runs_dir)
    records_dir = default_runs_dir() / "retrieval-records" if records_dir is None else Path(records_dir)
    name = run_name(task, pe, seed)
    cfg = preset(task, size, pe=pe, seed=seed, device=device)
    run = runs_dir / name
    rec = train(cfg, out_dir=run)
    model, _ = load_model(run, device=device)
    L_seq = int(model.cfg.train_len)  # longest training sequence (tokens): the original context
    train_context = int(rec["train_len"])  # the task's training context length (tokens before the query)
    methods = {}
    for label, spec, kind in _methods(pe):
        path = run / "methods" / f"{label}__ft{ft_steps}.json" if kind == "finetuned" else run / "methods" / f"{label}.json"
        if path.is_file():
            methods[label] = read_json(path)
            continue
        t1 = time.perf_counter()
        ft = None
        if kind == "trained":
            m = model
        elif kind == "swapped":
            m = swap_rotary(model, spec, train_len=L_seq)
        else:
            m, ft = finetune(model, cfg.task, spec, length=FT_FACTOR * train_context, steps=ft_steps,
                             train_len=L_seq, lr=FT_LR, batch_size=FT_BATCH, seed=seed, device=device)
        entry = {"spec": spec if ft is None else ft["spec"], "kind": kind, "finetune": ft,
                 **evaluate_lengths(m, cfg.task, lengths, train_seq_len=L_seq, depths=depths),
                 "seconds": round(time.perf_counter() - t1, 2)}
        atomic_write_json(path, entry)
        methods[label] = entry
        if log:
            log(f"  {name} {label}: " + " ".join(f"{N}:{v[METRIC[task]]:.2f}" for N, v in entry["by_length"].items()))
    rec["retrieval"] = {"preset": size, "lengths": list(lengths), "depths": list(depths), "train_context": rec["train_len"],
                        "train_seq_len": L_seq, "metric": METRIC[task], "methods": methods,
                        "finetune_setup": {"factor": FT_FACTOR, "steps": ft_steps, "lr": FT_LR, "batch_size": FT_BATCH},
                        "wall_seconds": round(rec["timing"]["seconds"], 2),
                        "eval_seconds": round(sum(m.get("seconds", 0.0) for m in methods.values()), 2),
                        "device": rec["timing"]["device"],
                        "commit": rec.get("commit")}
    atomic_write_json(records_dir / f"{name}.json", rec)
    return rec


def recall_record(seed: int, *, device: str = "cpu", runs_dir=None, overrides=None) -> dict:
    """Train (or resume) one MQAR run of :data:`petheory.nn.presets.MQAR_RECALL` and return its record with ``query_acc``.

    ``query_acc``: the accuracy per query (:func:`petheory.nn.retrieval.query_accuracy`) at every test length.

    Parameters
    ----------
    seed : int
        The seed.
    device : str, optional
        Where to train.
    runs_dir : path, optional
        Training runs (default ``<runs>/mqar-recall``).
    overrides : dict, optional
        Preset overrides on top of ``MQAR_RECALL``.

    Returns
    -------
    dict
        The training record with ``query_acc``.

    Examples
    --------
    >>> rec = recall_record(0)  # doctest: +SKIP
    """
    from petheory.nn import tasks as _tasks
    from petheory.nn.presets import MQAR_RECALL, preset
    from petheory.nn.retrieval import query_accuracy
    from petheory.nn.training import load_model, train

    cfg = preset("mqar", "small", pe="rope", seed=seed, device=device, **{**MQAR_RECALL, **(overrides or {})})
    run = (default_runs_dir() / "mqar-recall" if runs_dir is None else Path(runs_dir)) / f"mqar__rope__s{seed}__{cfg.hash()}"
    rec = train(cfg, out_dir=run)
    model, _ = load_model(run, device=device)
    data = _tasks.load(cfg.task)
    rec["query_acc"] = {str(L): query_accuracy(model, split) for L, split in data.test.items()}
    return rec


def retrieval_problem(rec: dict) -> str | None:
    """Why a record's ``retrieval`` block cannot be read by the figures and claims; None if it can (or has none).

    Every field they read, typed: ``metric`` (text), ``train_context`` (integer >= 1), ``finetune_setup.factor``
    (a number > 0), ``lengths`` (integers >= 1), ``methods`` (objects whose ``by_length`` has each of ``lengths``,
    each row the metric as a fraction in [0, 1] and an optional ``coverage.out_of_range`` number; an optional
    ``grid`` of each length by each of ``depths``), ``chance.token_acc`` and ``config.task.params.key_len``
    where present.

    Parameters
    ----------
    rec : dict
        A training record.

    Returns
    -------
    str or None
        The problem, naming the field (``retrieval.methods.rope.by_length.64.token_acc``), or None.

    Examples
    --------
    >>> retrieval_problem({}), retrieval_problem({"retrieval": 1})
    (None, "field 'retrieval' must be an object, got int")
    """
    from petheory.io import field_problem

    ret = rec.get("retrieval")
    if ret is None:
        return None
    if not isinstance(ret, dict):
        return f"field 'retrieval' must be an object, got {type(ret).__name__}"
    for path, kind in (("metric", "text"), ("train_context", "int"), ("finetune_setup.factor", "number"),
                       ("lengths", "list"), ("methods", "object")):
        why = field_problem(ret, path, kind)
        if why:
            return why.replace(f"field '{path}'", f"field 'retrieval.{path}'")
    metric, L, lengths = ret["metric"], ret["train_context"], ret["lengths"]
    if L < 1 or not ret["finetune_setup"]["factor"] > 0:
        return "fields 'retrieval.train_context' and 'retrieval.finetune_setup.factor' must be > 0"
    if not lengths or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in lengths):
        return "field 'retrieval.lengths' must be a non-empty list of integers >= 1"
    depths = ret.get("depths")

    def fraction(x, where: str) -> str | None:
        ok = isinstance(x, (int, float)) and not isinstance(x, bool) and 0.0 <= x <= 1.0
        return None if ok else f"field '{where}' must be a fraction in [0, 1], got {x!r:.40}"

    for label, m in ret["methods"].items():
        here = f"retrieval.methods.{label}"
        by = m.get("by_length") if isinstance(m, dict) else None
        if not isinstance(by, dict):
            return f"field '{here}.by_length' must be an object (length -> metrics)"
        for N in [str(n) for n in lengths] + [k for k in by if k not in map(str, lengths)]:
            row = by.get(N)
            if not isinstance(row, dict) or not N.isdigit():
                return f"field '{here}.by_length.{N!s:.20}' must be an object of metrics (a length of 'lengths')"
            why = fraction(row.get(metric), f"{here}.by_length.{N}.{metric}")
            cov = row.get("coverage")
            if why is None and cov is not None and field_problem({"c": cov}, "c.out_of_range", "number"):
                why = f"field '{here}.by_length.{N}.coverage.out_of_range' must be a number"
            if why:
                return why
        if label == "rope" and str(L) not in by:
            return f"field '{here}.by_length' has no row at the training context {L}"
        grid = m.get("grid")
        if grid:
            if not isinstance(depths, list) or not all(isinstance(d, (int, float)) and not isinstance(d, bool)
                                                       for d in depths):
                return "field 'retrieval.depths' must be a list of numbers (the grid's key depths)"
            for N in map(str, lengths):
                for d in (f"{x:g}" for x in depths):
                    cell = grid.get(N).get(d) if isinstance(grid, dict) and isinstance(grid.get(N), dict) else None
                    why = fraction(cell, f"{here}.grid.{N}.{d}")
                    if why:
                        return why
    chance = rec.get("chance")
    if chance is not None and (not isinstance(chance, dict) or "token_acc" in chance and fraction(chance["token_acc"], "")):
        return "field 'chance.token_acc' must be a fraction in [0, 1]"
    params = ((rec.get("config") or {}).get("task") or {}).get("params", {})
    key_len = params.get("key_len", 3) if isinstance(params, dict) else None
    if not (isinstance(key_len, int) and not isinstance(key_len, bool) and 1 <= key_len <= 4096):
        return "field 'config.task.params.key_len' must be an integer in 1..4096"
    return None


def load_records(root=".", check=None) -> tuple[list[dict], list]:
    """Every record with a ``retrieval`` block, and the files skipped.

    Read from ``<runs>/retrieval-records`` (what this machine made) first, then the records folders
    of :func:`petheory.records.roots` (the working directory's and the shipped ``records/``); one
    record per (task, PE, seed), the first found wins. The training records under ``<runs>/retrieval``
    are not read: they share their config hash with the retrieval record made from them and would
    shadow it in :func:`petheory.records.find`. JSON only (no torch).

    Parameters
    ----------
    root : str or os.PathLike, optional
        The working directory.
    check : callable, optional
        ``check(record) -> reason or None``, besides :func:`retrieval_problem`.

    Returns
    -------
    records : list of dict
        The records.
    skipped : list of (str, str)
        Files skipped and why, the field named.

    Examples
    --------
    >>> import os, tempfile
    >>> saved = os.environ.get("PETHEORY_RECORDS"); os.environ["PETHEORY_RECORDS"] = ""  # runs/ alone: no shipped records
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     print(load_records(tmp))
    ([], [])
    >>> _ = os.environ.pop("PETHEORY_RECORDS"); os.environ.update({} if saved is None else {"PETHEORY_RECORDS": saved})
    """
    from petheory import records

    runs = records.runs_dir(root)
    where = [runs / "retrieval-records"] + [r for r in records.roots(root) if r != runs]
    out: dict[tuple, dict] = {}
    skipped = []
    for task in TASKS:
        found = records.find(task, root, where=[w for w in where if w.is_dir()],
                             check=lambda r: retrieval_problem(r) or (check(r) if check is not None else None))
        skipped += found.skipped
        for r in found.records:
            if isinstance(r.get("retrieval"), dict):
                out.setdefault((r["task"], r["pe"], r["seed"]), r)
    return list(out.values()), skipped


def main(argv=None) -> int:
    """``python -m petheory.experiments.retrieval_runs [--records DIR] [--only TASK] [--seeds 0,1,2]``: train the
    retrieval grid and write its records (default: ``runs/retrieval-records``).

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
    >>> main(["--only", "passkey", "--seeds", "0"])  # doctest: +SKIP
    """
    import argparse

    import torch

    p = argparse.ArgumentParser(prog="python -m petheory.experiments.retrieval_runs",
                                description="train the retrieval grid and write its records (default: "
                                "runs/retrieval-records; the committed ones only with --records records/retrieval)")
    p.add_argument("--records", default=None)
    p.add_argument("--device", default="cpu")
    p.add_argument("--only", choices=TASKS, default=None)
    p.add_argument("--pes", default=",".join(TRAINED))
    p.add_argument("--seeds", default=",".join(map(str, SEEDS)))
    args = p.parse_args(argv)
    torch.set_num_threads(1 if args.device == "cpu" else torch.get_num_threads())
    seeds = [int(s) for s in args.seeds.split(",")]
    pes = [s for s in args.pes.split(",") if s]
    t0 = time.perf_counter()
    for task, pe, seed in RUNS:
        if (args.only and task != args.only) or seed not in seeds or pe not in pes:
            continue
        t1 = time.perf_counter()
        rec = make_record(task, pe, seed=seed, device=args.device, records_dir=args.records,
                          log=lambda s: print(s, flush=True))
        acc = {N: round(v[METRIC[task]], 2) for N, v in rec["retrieval"]["methods"][pe]["by_length"].items()}
        print(f"{task:8s} {pe:11s} s{seed} train {rec['retrieval']['wall_seconds']:6.1f}s eval "
              f"{rec['retrieval']['eval_seconds']:6.1f}s (this call {time.perf_counter() - t1:6.1f}s) {acc}", flush=True)
    print(f"total {time.perf_counter() - t0:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
