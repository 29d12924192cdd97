r"""A grid of training configs -> records, on an engine: in-process, a local process pool, or SLURM.

A grid is data (a dict, or a JSON/TOML file)::

    task = "running_sum"          # or a list: every key below may be a list (an axis)
    preset = "smoke"
    pe = ["alibi", "rope", "sinusoidal"]
    seed = [0, 1, 2]
    device = "cpu"
    [set]                         # overrides for every run (see petheory.nn.presets)
    epochs = 3
    [grid]                        # more axes, over any override key
    "task.n_train" = [100, 1000]

Each ``pe`` is a PE spec (:mod:`petheory.spec`: ``"rope:heads=4+sinusoidal"``, the grammar of every
command's ``--pe``) or a parsed :class:`petheory.spec.PESpec`.
``expand(spec) -> [TrainConfig]`` is the Cartesian product, in a stable order.
``run(configs, out_dir, engine=...) -> [record]`` trains each config in
``out_dir/<task>__<pe>__s<seed>__<hash>/`` and returns the records in config order. It is
idempotent: a run whose ``record.json`` carries the config's hash is read back, not retrained;
a run killed half-way resumes from its last epoch checkpoint (:func:`petheory.nn.training.train`).

Engines
-------
``'local'`` (default)
    one after another in this process.
``'process'``
    a ``concurrent.futures`` pool of ``workers`` spawned processes (default: one per free core; each gets
    ``free cores // workers`` torch threads, :func:`petheory._threads.free_cores`).
``'slurm'``
    a SLURM job array through submitit (``pip install -e ".[cluster]"`` from the clone): one array task per
    pending run, ``slurm`` options such as ``{"partition": "gpu", "timeout_min": 60,
    "gpus_per_node": 1, "array_parallelism": 32}``. Pass ``executor=`` (any submitit executor,
    e.g. ``submitit.LocalExecutor`` or ``DebugExecutor``) to run the same code path without a
    cluster; the tests do. On a machine without ``sbatch`` submitit's ``AutoExecutor`` runs the
    array as local processes, so ``--engine slurm`` also works (slowly) on a laptop.

``ensemble=True`` trains every set of runs that share a task, schedule and optimiser
(:func:`groups_of`) at once with :func:`petheory.experiments.grid.train_grid`: seeds and position
mechanisms of one group become one program per step (a CUDA graph on a GPU), so li2025's whole
Table 5 grid is one launch per step. A group is then the engine's unit of work: ``'local'``
trains the groups one after another in this process, ``'process'`` one group per worker, and
``'slurm'`` one group per array task (one GPU each: ``gpus_per_node=1``), which packs a large
sweep onto many GPUs or nodes with each GPU kept busy by a whole grid. On a GPU this is the fast
way; on a CPU it also saves the per-run Python overhead.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from numbers import Integral
from pathlib import Path

from petheory._validate import Interval, StrOptions, validate_params
from petheory.io import read_json
from petheory.errors import ValidationError, ValidationTypeError

ENGINES = ("local", "process", "slurm")
_AXES = ("task", "preset", "pe", "seed", "device")


def load_grid(path) -> dict:
    r"""A grid spec from a ``.json`` or ``.toml`` file, read by the validating readers and checked by :func:`check_grid`.

    The readers are :mod:`petheory.loaders.safe_json` and :mod:`petheory.loaders.safe_toml`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict
        The grid spec.

    Raises
    ------
    FileNotFoundError
        No such file.
    petheory.errors.ValidationError
        Another suffix, an unreadable file, or not a grid spec.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "grid.toml"
    ...     _ = p.write_text('task = "parity"\npe = ["rope", "nope"]\n')
    ...     load_grid(p)
    {'task': 'parity', 'pe': ['rope', 'nope']}
    """
    from petheory.loaders.safe_toml import read_toml

    path = Path(path)
    if not os.path.lexists(path):
        raise FileNotFoundError(f"no such grid file: {path}")
    if path.suffix == ".toml":  # a FIFO, a link loop or a directory is named by the reader, never waited on
        spec = read_toml(path, what="grid file")
    elif path.suffix == ".json":
        spec = read_json(path)
    else:
        raise ValidationError(f"grid file must end in .json or .toml, got {path.name}")
    return check_grid(spec, source=str(path))


def check_grid(spec, *, source: str = "grid spec") -> dict:
    """``spec`` if it has the shape of a grid, else the error that names ``source`` and the field.

    A grid is an object whose ``set`` and ``grid`` are tables (key -> value, key -> value or list of values) and whose
    axes are values or lists of values.

    Parameters
    ----------
    spec : object
        The parsed spec.
    source : str, optional
        Where it came from, for the message.

    Returns
    -------
    dict
        ``spec``.

    Raises
    ------
    petheory.errors.ValidationError
        Not a grid's shape.

    Examples
    --------
    >>> check_grid({"task": "running_sum", "grid": [1, 2]})
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: grid spec: field 'grid' must be a table (override key -> list of values), got a list
    """
    if not isinstance(spec, dict):
        raise ValidationError(f"{source} must hold a JSON object or TOML tables (a grid spec), got a {_kind(spec)}")
    for key, what in (("set", "override key -> value"), ("grid", "override key -> list of values")):
        if key in spec and not isinstance(spec[key], dict):
            raise ValidationError(f"{source}: field {key!r} must be a table ({what}), got a {_kind(spec[key])}")
    for key in _AXES:
        vals = spec.get(key)
        if isinstance(vals, (dict, bool)) or (isinstance(vals, list) and any(isinstance(x, (dict, list)) for x in vals)):
            raise ValidationError(f"{source}: field {key!r} must be a value or a list of values, got {str(vals)[:60]}")
    return spec


def _kind(x) -> str:
    return {dict: "table", list: "list", str: "text", bool: "boolean", int: "number", float: "number"}.get(type(x),
                                                                                                      type(x).__name__)


def expand(spec: dict) -> list:
    """Every :class:`~petheory.nn.config.TrainConfig` of a grid spec (Cartesian product, stable order).

    Parameters
    ----------
    spec : dict
        ``task``, ``preset`` (default ``smoke``), ``pe``, ``seed``, ``device`` (each a value or a list), ``set``
        (overrides for every run) and ``grid`` (override -> list of values, further axes).

    Returns
    -------
    list of TrainConfig
        The runs.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown key, no task, an empty axis or a bad override.

    Examples
    --------
    >>> [(str(c.model.pe), c.seed) for c in expand({"task": "parity", "pe": ["rope", "nope"], "seed": [0, 1]})]
    [('rope', 0), ('rope', 1), ('nope', 0), ('nope', 1)]
    """
    from petheory.nn.presets import preset

    if not isinstance(spec, dict):
        raise ValidationTypeError(f"a grid spec must be a dict, got {type(spec).__name__}")
    check_grid(spec)
    known = set(_AXES) | {"set", "grid"}
    bad = sorted(set(spec) - known)
    if bad:
        raise ValidationError(f"unknown grid key(s) {', '.join(bad)}; use {', '.join(sorted(known))}")
    if "task" not in spec:
        raise ValidationError("a grid spec needs 'task' (a name or a list of names)")
    axes = {k: spec[k] if isinstance(spec[k], list) else [spec[k]] for k in _AXES if k in spec}
    axes.setdefault("preset", ["smoke"])
    extra = dict(spec.get("grid", {}))
    for k, vals in extra.items():
        axes[k] = vals if isinstance(vals, list) else [vals]
    fixed = dict(spec.get("set", {}))
    for k, vals in axes.items():
        if not vals:
            raise ValidationError(f"grid axis {k!r} is empty")
    names = list(axes)
    from petheory import _memory

    total = 1
    for k in names:
        total *= len(axes[k])
    # each config holds a few kilobytes (and becomes a run directory): a grid too large to list is refused
    _memory.require(_memory.array_bytes(total, itemsize=8192), f"grid of {total} runs ({' x '.join(f'{len(axes[k])} {k}' for k in names)})",
                    alternative="split the grid into smaller sweeps")
    out = []
    for combo in itertools.product(*(axes[k] for k in names)):
        c = dict(zip(names, combo))
        over = {**fixed, **{k: v for k, v in c.items() if k not in _AXES}}
        kw = {k: c[k] for k in ("pe", "seed", "device") if k in c}
        out.append(preset(c["task"], c["preset"], **kw, **over))
    return out


def run_dir(out_dir, cfg) -> Path:
    """Where a config's run lives: a readable prefix and the config hash.

    Parameters
    ----------
    out_dir : str or os.PathLike
        The sweep's folder.
    cfg : TrainConfig
        The run's config.

    Returns
    -------
    pathlib.Path
        ``out_dir/<task>__<pe>__s<seed>__<hash>``.

    Examples
    --------
    >>> c = expand({"task": "parity", "pe": "rope:base=500"})[0]
    >>> run_dir("runs", c).name.split("__")[:3]
    ['parity', 'rope-base=500', 's0']
    """
    pe = re.sub(r"[^A-Za-z0-9_.=-]+", "-", str(cfg.model.pe))
    return Path(out_dir) / f"{cfg.task.name}__{pe}__s{cfg.seed}__{cfg.hash()}"


def is_done(out_dir, cfg) -> bool:
    """Whether ``cfg``'s run under ``out_dir`` is finished: a usable record of this very config is there.

    A corrupt or hand-edited record that no longer has what readers need counts as not done (the run is redone and its
    record overwritten atomically).

    Parameters
    ----------
    out_dir : str or os.PathLike
        The sweep's folder.
    cfg : TrainConfig
        The run's config.

    Returns
    -------
    bool
        Whether it is done.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     is_done(tmp, expand({"task": "parity"})[0])
    False
    """
    rec = run_dir(out_dir, cfg) / "record.json"
    if not rec.is_file():
        return False
    try:
        data = read_json(rec)
    except (ValueError, UnicodeDecodeError):  # a corrupt record (cannot happen with atomic writes, but be safe): redo
        return False
    from petheory.io import record_problem

    # a hand-edited record that no longer has what readers need is redone (and overwritten atomically)
    return isinstance(data, dict) and data.get("config_hash") == cfg.hash() and record_problem(data) is None


def _train_one(cfg_dict: dict, directory: str, threads: int | None = None) -> dict:
    """Worker entry point (importable, picklable): train one config into ``directory``."""
    import torch

    from petheory.nn.config import TrainConfig
    from petheory.nn.training import train

    if threads:
        torch.set_num_threads(threads)
    return train(TrainConfig.from_dict(cfg_dict), directory)


def _train_group(cfg_dicts: list, directories: list, threads: int | None = None) -> list:
    """Worker entry point (importable, picklable): train runs that share a program as one grid
    (:func:`petheory.experiments.grid.train_grid`) into their directories; their records in order."""
    import torch

    from petheory.experiments.grid import train_grid
    from petheory.nn.config import TrainConfig

    if threads:
        torch.set_num_threads(threads)
    return train_grid([TrainConfig.from_dict(c) for c in cfg_dicts], directories)


def groups_of(configs, todo) -> list[list[int]]:
    """The indices ``todo`` of ``configs`` grouped by :func:`petheory.experiments.grid.shared_key`.

    Each group trains as one grid (one program per step), in first-seen order.

    Parameters
    ----------
    configs : list of TrainConfig
        The runs.
    todo : iterable of int
        Which of them to group.

    Returns
    -------
    list of list of int
        The groups.

    Examples
    --------
    >>> configs = expand({"task": "parity", "pe": ["rope", "nope"], "seed": [0, 1]})
    >>> groups_of(configs, range(4))
    [[0, 1, 2, 3]]
    """
    from petheory.experiments.grid import shared_key

    groups: dict[str, list[int]] = {}
    for i in todo:
        groups.setdefault(shared_key(configs[i]), []).append(i)
    return list(groups.values())


@validate_params({
    "engine": [StrOptions(ENGINES)],
    "workers": [Interval(Integral, 1, None), None],
    "slurm": [dict, None],
    "ensemble": ["boolean"],
    "progress": ["callable", None],
})
def run(configs, out_dir, *, engine: str = "local", workers: int | None = None, slurm: dict | None = None,
        executor=None, ensemble: bool = False, progress=None) -> list[dict]:
    """Train every config not yet done under ``out_dir``; return all records in config order.

    Parameters
    ----------
    configs : list of TrainConfig or dict
        The runs.
    out_dir : str or os.PathLike
        Where each run's folder goes (:func:`run_dir`); finished runs are read back, interrupted ones resume.
    engine : {'local', 'process', 'slurm'}, optional
        In-process, a process pool, or SLURM job arrays through submitit (``ENGINES``).
    workers : int, optional
        Processes of the pool.
    slurm : dict, optional
        submitit's parameters for the SLURM engine.
    executor : object, optional
        An executor to submit to in place of the engine's own (tests pass one).
    ensemble : bool, optional
        Train the runs that share their fields as one grid (:func:`~petheory.experiments.grid.train_grid`).
    progress : callable, optional
        ``progress(done, total, record)`` as runs finish (done ones first).

    Returns
    -------
    list of dict
        The records, in config order.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown engine or a bad config.

    Examples
    --------
    >>> import tempfile
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     records = run(configs, tmp)
    >>> [r["pe"] for r in records]
    ['nope', 'alibi']
    """
    from petheory.nn.config import TrainConfig

    configs = [c if isinstance(c, TrainConfig) else TrainConfig.from_dict(c) for c in configs]
    for c in configs:
        c.validate()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    records: dict[int, dict] = {}
    pending = []
    for i, c in enumerate(configs):
        if is_done(out_dir, c):
            records[i] = read_json(run_dir(out_dir, c) / "record.json")
            if progress:
                progress(len(records), len(configs), records[i])
        else:
            pending.append(i)
    seen: dict[str, int] = {}
    for i in pending:  # identical configs in one grid train once
        seen.setdefault(configs[i].hash(), i)
    todo = sorted(set(seen.values()))

    def done(i, rec):
        records[i] = rec
        if progress:
            progress(len(records), len(configs), rec)

    # a unit of work: one run, or (ensemble) one group of runs trained as one grid
    units = groups_of(configs, todo) if ensemble and todo else [[i] for i in todo]
    fn = _train_group if ensemble else _train_one

    def args_of(idx):
        if ensemble:
            return [configs[i].as_dict() for i in idx], [str(run_dir(out_dir, configs[i])) for i in idx]
        return configs[idx[0]].as_dict(), str(run_dir(out_dir, configs[idx[0]]))

    def finished(idx, result):
        for i, r in zip(idx, result if ensemble else [result]):
            done(i, r)

    if engine == "local":
        for idx in units:
            finished(idx, fn(*args_of(idx)))
    elif engine == "process":
        _run_pool(units, fn, args_of, workers, finished)
    else:
        _run_slurm(units, fn, args_of, out_dir, slurm or {}, executor, finished)
    for i in pending:  # duplicates of a config trained above
        if i not in records:
            records[i] = records[seen[configs[i].hash()]]
    return [records[i] for i in range(len(configs))]


def _run_pool(units, fn, args_of, workers, finished) -> None:
    """One spawned process per unit at a time, ``workers`` at once, each with ``free cores // workers``
    torch threads so that the processes never oversubscribe the cores other processes leave free."""
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from petheory._threads import free_cores

    free = free_cores()
    workers = int(workers or min(len(units), free)) or 1
    threads = max(1, free // workers)
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
        futs = {pool.submit(fn, *args_of(idx), threads): k for k, idx in enumerate(units)}
        for f in as_completed(futs):
            finished(units[futs[f]], f.result())


def _run_slurm(units, fn, args_of, out_dir, slurm: dict, executor, finished) -> None:
    """One array task per unit (a run, or with ``ensemble`` a whole grid group on one GPU)."""
    if not units:
        return
    if executor is None:
        try:
            import submitit
        except ImportError:
            raise ValidationError("engine 'slurm' needs submitit: pip install -e \".[cluster]\" (from the petheory clone, in its venv)") from None
        executor = submitit.AutoExecutor(folder=str(out_dir / "_submitit"), cluster=slurm.pop("cluster", None))
        opts = {"timeout_min": 60, **slurm}
        if "array_parallelism" in opts:
            opts["slurm_array_parallelism"] = opts.pop("array_parallelism")
        for k in ("partition", "account", "qos", "constraint"):
            if k in opts:
                opts[f"slurm_{k}"] = opts.pop(k)
        executor.update_parameters(**opts)
    columns = list(zip(*(args_of(idx) for idx in units)))
    jobs = executor.map_array(fn, *columns)
    for idx, job in zip(units, jobs):
        finished(idx, job.result())


def summary(records: list[dict]) -> list[dict]:
    """One flat row per record: task, pe, seed, and the primary metric at training and per test length.

    Parameters
    ----------
    records : list of dict
        Training records.

    Returns
    -------
    list of dict
        ``task``, ``pe``, ``seed``, ``metric``, ``train`` and ``test@L`` for each test length.

    Examples
    --------
    >>> rec = {"task": "copy", "pe": "rope", "seed": 0, "kind": "lm",
    ...        "final": {"train": {"token_acc": 1.0}, "test": {"8": {"token_acc": 0.25}}}}
    >>> summary([rec])
    [{'task': 'copy', 'pe': 'rope', 'seed': 0, 'metric': 'token_acc', 'train': 1.0, 'test@8': 0.25}]
    """
    from petheory.nn.ablation import PRIMARY

    rows = []
    for r in records:
        m = PRIMARY[r["kind"]]
        rows.append({"task": r["task"], "pe": r["pe"], "seed": r["seed"], "metric": m,
                     "train": r["final"]["train"][m], **{f"test@{L}": v[m] for L, v in r["final"]["test"].items()}})
    return rows


def seed_means(rows: list[dict], keys=("task", "pe")) -> list[dict]:
    """:func:`summary` rows averaged over seeds: one row per value of ``keys`` (task, PE and any other grid axis).

    Parameters
    ----------
    rows : list of dict
        :func:`summary` rows.
    keys : tuple of str, optional
        The fields a row is grouped by.

    Returns
    -------
    list of dict
        Per group, ``keys``, ``metric``, ``seeds`` and each number as a ``(mean, standard error)`` pair (standard error
        None for one seed).

    Examples
    --------
    >>> rows = [{"task": "copy", "pe": "rope", "seed": s, "metric": "seq_acc", "train": 1.0, "test@8": x}
    ...         for s, x in enumerate([0.2, 0.4])]
    >>> m = seed_means(rows)[0]
    >>> m["seeds"], m["test@8"][0], round(m["test@8"][1], 6)
    ([0, 1], 0.30000000000000004, 0.1)
    """
    import math

    groups: dict = {}
    for r in rows:
        groups.setdefault(tuple(json.dumps(r.get(k), sort_keys=True, default=str) for k in keys), []).append(r)
    out = []
    for rs in groups.values():
        row = {k: rs[0].get(k) for k in keys}
        row.update(metric=rs[0]["metric"], seeds=sorted(r["seed"] for r in rs))
        for c in dict.fromkeys(c for r in rs for c in r if c == "train" or c.startswith("test@")):
            vals = [float(r[c]) for r in rs if isinstance(r.get(c), (int, float))]
            if vals:
                mean = sum(vals) / len(vals)
                se = (math.sqrt(sum((x - mean) ** 2 for x in vals) / (len(vals) - 1) / len(vals))
                      if len(vals) > 1 else None)
                row[c] = (mean, se)
        out.append(row)
    return out


_SHOWN = {"task", "task.name", "model.pe", "seed"}  # columns the table always has


def flat_config(cfg: dict) -> dict:
    """A run's config as ``key -> value`` with the keys ``--set`` and grid files use (``task.n_train``,
    ``model.d_model``).

    Parameters
    ----------
    cfg : dict
        A run's config (``TrainConfig.as_dict()``).

    Returns
    -------
    dict
        One key per setting, the task's and the model's prefixed with ``task.`` and ``model.``.

    Examples
    --------
    >>> flat_config({"task": {"name": "copy", "seed": 0, "params": {"n_train": 8}}, "model": {"d_model": 16}, "seed": 1})
    {'task.name': 'copy', 'task.seed': 0, 'task.n_train': 8, 'model.d_model': 16, 'seed': 1}
    """
    out = {}
    for k, v in cfg.items():
        if k == "task" and isinstance(v, dict):
            out["task.name"], out["task.seed"] = v.get("name"), v.get("seed")
            out.update({f"task.{p}": x for p, x in (v.get("params") or {}).items()})
        elif k == "model" and isinstance(v, dict):
            out.update({f"model.{p}": x for p, x in v.items()})
        else:
            out[k] = v
    return out


def varying_axes(configs: list[dict]) -> list[str]:
    """Config keys whose values differ between runs (besides task, PE and seed): the grid's other axes.

    Parameters
    ----------
    configs : list of dict
        The runs' configs (``TrainConfig.as_dict()``).

    Returns
    -------
    list of str
        The keys (as :func:`flat_config` names them), in the order they first appear.

    Examples
    --------
    >>> varying_axes([{"seed": 0, "epochs": 1, "lr": 0.1}, {"seed": 1, "epochs": 2, "lr": 0.1}])
    ['epochs']
    """
    flats = [flat_config(c) for c in configs]
    keys = list(dict.fromkeys(k for f in flats for k in f))
    return [k for k in keys if k not in _SHOWN
            and len({json.dumps(f.get(k), sort_keys=True, default=str) for f in flats}) > 1]


def plan_lines(configs, out_dir) -> list[str]:
    """``--dry-run``: one line per run, ``done`` or ``todo``, its folder, and its value on each grid axis.

    Parameters
    ----------
    configs : list of TrainConfig
        From :func:`expand`.
    out_dir : str or Path
        The sweep folder.

    Returns
    -------
    list of str

    Examples
    --------
    >>> import tempfile
    >>> lines = plan_lines(expand({"task": "parity", "pe": "rope", "seed": [0, 1]}), tempfile.mkdtemp())
    >>> from pathlib import Path
    >>> [(line.split()[0], Path(line.split()[1]).name[:16]) for line in lines]
    [('todo', 'parity__rope__s0'), ('todo', 'parity__rope__s1')]
    """
    axes = varying_axes([c.as_dict() for c in configs])
    out = []
    for c in configs:
        flat = flat_config(c.as_dict())
        extra = " ".join(f"{k}={flat.get(k)}" for k in axes)
        out.append(f"{'done' if is_done(out_dir, c) else 'todo'}\t{run_dir(out_dir, c)}" + (f"\t{extra}" if extra else ""))
    return out


def _mean_se(pair) -> str:
    mean, se = pair
    return f"{mean:.4g}" if se is None else f"{mean:.4g} ± {se:.2g}"


def summary_tables(records: list[dict], out_dir) -> list:
    """The sweep's results as tables: one row per run (:func:`summary`, a column per grid axis), and where a
    configuration has several seeds, their mean ± standard error per configuration (:func:`seed_means`).

    Parameters
    ----------
    records : list of dict
        From :func:`run`.
    out_dir : str or Path
        The sweep folder (named in the title).

    Returns
    -------
    list of petheory.texttable.TextTable

    Examples
    --------
    >>> def record(seed):
    ...     return {"task": "copy", "pe": "rope", "seed": seed, "kind": "lm", "config": {"seed": seed},
    ...             "final": {"train": {"token_acc": 1.0}, "test": {"8": {"token_acc": 0.2 + 0.2 * seed}}}}
    >>> runs, means = summary_tables([record(0), record(1)], "runs/sweep")
    >>> runs.title, means.rows[0]
    ('sweep runs/sweep: 2 runs', ('copy', 'rope', '0,1', 'token_acc', '1 ± 0', '0.3 ± 0.1'))
    """
    from petheory.texttable import TextTable

    rows = summary(records)
    axes = varying_axes([r["config"] for r in records])  # every grid axis gets a column
    for r, rec in zip(rows, records):
        flat = flat_config(rec["config"])
        r.update({k: flat.get(k) for k in axes})
    tests = sorted({k for r in rows for k in r if k.startswith("test@")}, key=lambda k: int(k[5:]))
    cols = ["task", "pe", "seed", *axes, "metric", "train", *tests]
    cells = tuple(tuple(f"{r[c]:.4g}" if isinstance(r.get(c), float) else str(r.get(c, "")) for c in cols) for r in rows)
    look = {"bold_first": False, "fold": False}  # rich's own defaults: plain cells, cut rather than folded
    out = [TextTable(f"sweep {out_dir}: {len(records)} runs", tuple(cols), cells, **look)]
    means = seed_means(rows, keys=("task", "pe", *axes))
    if any(len(m["seeds"]) > 1 for m in means):  # the per-configuration numbers a reader compares
        mcols = ["task", "pe", *axes, "seeds", "metric", "train", *tests]
        cells = tuple(tuple(_mean_se(m.get(c)) if isinstance(m.get(c), tuple) else
                            ",".join(map(str, m[c])) if c == "seeds" else str(m.get(c, "")) for c in mcols) for m in means)
        out.append(TextTable("mean ± standard error over seeds, per configuration", tuple(mcols), cells, **look))
    return out
