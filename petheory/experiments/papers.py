r"""One function per reproduced paper experiment: ``run(config) -> records``.

Each takes a plain dict (every key optional) and returns a list of training records
(:mod:`petheory.nn.training`); runs go through :func:`petheory.experiments.sweep.run`, so with ``out_dir``
they are checkpointed, resumable and skipped when done. Common keys: ``size``
(``'smoke'|'small'|'paper'``), ``seeds`` (list), ``pes`` (spec strings), ``device``,
``out_dir`` (None: a temporary directory), ``engine``/``workers``/``ensemble`` (see
:mod:`petheory.experiments.sweep`), ``set`` (overrides for every run, as in :func:`petheory.nn.preset`).

``running_sum(config)``
    li2025 §7 Table 5: running-sum MSE at train length 50 and test lengths 100/200 per PE.
    Extra key ``n_train``: the training-set size ``m`` (a list sweeps it, for generalisation
    gap vs ``m`` plots).
``gu2025_task1(config)``, ``gu2025_task2(config)``
    gu2025 §4: test accuracy per PE, with per-head ablation (``record["ablation"]``).
``gu2025_partial_rope(config)``, ``gu2025_rope_abs(config)``, ``gu2025_mla_ablation(config)``
    gu2025 §5 Figs. 5, 6 and 7 (:data:`GU2025_FIGURES`: the (task, PE specs) each figure trains;
    records of every (task, spec, seed), with head ablation, for the claims in
    ``proofs_check/claims/gu2025_mla.py``).
``chen2025_lengthgen(config)``
    parity (chain of thought), copy, reverse, addition: accuracy per length beyond training.
``li2025_rademacher_gap(config)``, ``li2025_alibi_drift(config)``
    li2025 §4.2 and Eq. 9 on trained running-sum models (:func:`trained_running_sum`, cached under
    ``runs/bounds/``); each also writes its record (rows, the settings it ran with) to
    :func:`petheory.records.bounds_record_path`, which the ``bounds.rademacher_gap`` and
    ``bounds.alibi_drift`` figures read (``petheory figures`` runs them when it is missing).

li2025 Eq. 9's measured drift of a trained ALiBi model is :func:`petheory.nn.lipschitz.alibi_drift`
(the one definition: the change of a key's softmax weight when its bias moves from
:math:`-\alpha N_{max}` to :math:`-\alpha d`, the rest of the row fixed).

PE names: :data:`GU2025_PES` maps gu2025's run names to specs (their "rope" adds sinusoidal
inputs; "random" is trainable; ALiBi uses their ``exp(-h/H)`` slopes; "relative" is a learned
scalar per offset); :data:`LI2025_PES` lists li2025 Table 5's encodings.
"""

from __future__ import annotations

import math
import tempfile

from petheory._threads import torch_threads
from petheory.errors import ValidationError

#: gu2025 §4.1 run name -> PE spec, as their code does it (CLAIMS.md).
GU2025_PES = {
    "rope": "rope+sinusoidal",
    "absolute": "sinusoidal",
    "alibi": "alibi:slopes=gu2025",
    "nope": "nope",
    "relative": "relative",
    "random": "random:trainable=true",
    "mla": "mla",
}
#: gu2025 Fig. 5's partial RoPE: RoPE on the first k of the paper model's H=16 heads, NoPE on the rest. The paper
#: does not list its k ("a handful"); a doubling ladder below H.
GU2025_PARTIAL_HEADS = (1, 2, 4, 8)
#: gu2025 §5 figure -> [(task, [PE specs])] it trains. Fig. 5 compares partial RoPE with pure RoPE on Task 1 and
#: with NoPE on Task 2 (claim gu2025.partial_rope); Fig. 6 is RoPE + absolute (their own "rope" run,
#: gu2025.rope_abs_*); Fig. 7 is MLA's head-wise ablation (gu2025.mla_headwise_ablation, Table 1 both tasks).
#: Pure RoPE on Task 1 also feeds gu2025.dropout_keeps_deposit (Remark C.1).
GU2025_FIGURES = {
    "fig5": [("gu2025_task1", ["rope", *(f"rope:heads={k}" for k in GU2025_PARTIAL_HEADS)]),
             ("gu2025_task2", ["nope", *(f"rope:heads={k}" for k in GU2025_PARTIAL_HEADS)])],
    "fig6": [("gu2025_task1", ["rope+sinusoidal"]), ("gu2025_task2", ["rope+sinusoidal"])],
    "fig7": [("gu2025_task1", ["mla"]), ("gu2025_task2", ["mla"])],
}
#: li2025 Table 5's encodings (learned reuses :math:`p_{N_{max}}` past the table, as li2025 §6 describes).
LI2025_PES = ["sinusoidal", "learned:n_max=50,beyond=clamp", "alibi", "rope", "wavelet", "legendre", "nope"]
#: li2025 Table 5's wavelet with the 8-tap Daubechies wavelet (the other reading of "Daubechies-4"), all else as the
#: default ``wavelet`` (L2 amplitudes, unit dilation): of the 12 constructions the library builds, the one-change
#: variant of the trained db2 whose coarse terms stay small but nonzero far out as li2025 §7 describes (norm at
#: N=200 3.4 % of the largest; db2 is exactly zero from position 150), see
#: ``proofs_check.claims.li2025_empirical.wavelet_constructions``.
LI2025_DB4 = "wavelet:wavelet=db4"


def _sweep(task: str, config: dict, default_pes, extra_axes=None) -> list[dict]:
    from petheory.experiments import sweep

    config = dict(config or {})
    pes = config.pop("pes", default_pes)
    spec = {"task": task, "preset": config.pop("size", "smoke"), "pe": list(pes),
            "seed": list(config.pop("seeds", [0])), "device": config.pop("device", "cpu"),
            "set": dict(config.pop("set", {})), "grid": dict(extra_axes or {})}
    opts = {k: config.pop(k) for k in ("engine", "workers", "ensemble", "slurm", "executor", "progress") if k in config}
    out_dir = config.pop("out_dir", None)
    if config:
        raise ValidationError(f"unknown experiment option(s): {', '.join(sorted(config))}")
    configs = sweep.expand(spec)
    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="petheory-") as tmp:
            return sweep.run(configs, tmp, **opts)
    return sweep.run(configs, out_dir, **opts)


def running_sum(config: dict | None = None) -> list[dict]:
    """li2025 Table 5 (reconstruction): one record per ``(PE, seed[, n_train])``.

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional. Extra key ``n_train``: the training-set size m (a list sweeps it).

    Returns
    -------
    list of dict
        One training record per run.

    Examples
    --------
    >>> recs = running_sum({"pes": ["sinusoidal"], "set": {"epochs": 1, "ablate": False, "task.n_train": 16,
    ...                                                   "task.n_test": 4, "task.test_lens": [50]}})
    >>> [(r["task"], r["pe"]) for r in recs]
    [('running_sum', 'sinusoidal')]
    """
    config = dict(config or {})
    m = config.pop("n_train", None)
    axes = {"task.n_train": m if isinstance(m, list) else [m]} if m is not None else None
    return _sweep("running_sum", config, LI2025_PES, axes)


def gu2025_task1(config: dict | None = None) -> list[dict]:
    """gu2025 Task 1 (trigger distance): one record per (PE, seed).

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional.

    Returns
    -------
    list of dict
        One training record per run.

    Examples
    --------
    >>> recs = gu2025_task1({"pes": ["nope"], "set": {"epochs": 1, "ablate": False, "task.n_samples": 64}})
    >>> [(r["task"], r["pe"]) for r in recs]
    [('gu2025_task1', 'nope')]
    """
    return _sweep("gu2025_task1", config, list(GU2025_PES.values()))


def gu2025_task2(config: dict | None = None) -> list[dict]:
    """gu2025 Task 2 (trigger counting): one record per (PE, seed).

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional.

    Returns
    -------
    list of dict
        One training record per run.

    Examples
    --------
    >>> recs = gu2025_task2({"pes": ["nope"], "set": {"epochs": 1, "ablate": False, "task.n_samples": 64}})
    >>> [(r["task"], r["pe"]) for r in recs]
    [('gu2025_task2', 'nope')]
    """
    return _sweep("gu2025_task2", config, list(GU2025_PES.values()))


def _figure(name: str, config: dict | None) -> list[dict]:
    config = dict(config or {})
    if "pes" in config:
        raise ValidationError(f"gu2025 {name} trains fixed PE specs {GU2025_FIGURES[name]}; drop the 'pes' option "
                              "(or call gu2025_task1/gu2025_task2 with your own)")
    out = []
    for task, pes in GU2025_FIGURES[name]:
        out += _sweep(task, {**config, "pes": pes}, pes)
    return out


def gu2025_partial_rope(config: dict | None = None) -> list[dict]:
    """gu2025 Fig. 5: partial RoPE (``rope:heads=k``, k in :data:`GU2025_PARTIAL_HEADS`) vs ``rope`` on Task 1 and vs
    ``nope`` on Task 2; one record per (task, PE, seed).

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional. The PE specs are the figure's own (no ``pes``).

    Returns
    -------
    list of dict
        One training record per run.

    Raises
    ------
    petheory.errors.ValidationError
        A ``pes`` option, or an unknown one.

    Examples
    --------
    >>> records = gu2025_partial_rope({"seeds": [0, 1, 2]})  # doctest: +SKIP
    """
    return _figure("fig5", config)


def gu2025_rope_abs(config: dict | None = None) -> list[dict]:
    """gu2025 Fig. 6: RoPE + absolute position (``rope+sinusoidal``) on Tasks 1 and 2, with head ablation.

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional. The PE specs are the figure's own (no ``pes``).

    Returns
    -------
    list of dict
        One training record per run.

    Raises
    ------
    petheory.errors.ValidationError
        A ``pes`` option, or an unknown one.

    Examples
    --------
    >>> records = gu2025_rope_abs({"seeds": [0, 1, 2]})  # doctest: +SKIP
    """
    return _figure("fig6", config)


def gu2025_mla_ablation(config: dict | None = None) -> list[dict]:
    """gu2025 Fig. 7 and Table 1: MLA on Tasks 1 and 2, with head-wise ablation.

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional. The PE specs are the figure's own (no ``pes``).

    Returns
    -------
    list of dict
        One training record per run.

    Raises
    ------
    petheory.errors.ValidationError
        A ``pes`` option, or an unknown one.

    Examples
    --------
    >>> records = gu2025_mla_ablation({"seeds": [0, 1, 2]})  # doctest: +SKIP
    """
    return _figure("fig7", config)


def chen2025_lengthgen(config: dict | None = None) -> list[dict]:
    """chen2025's length-generalisation tasks (parity with chain of thought, copy, reverse, addition).

    Parameters
    ----------
    config : dict, optional
        The experiment's options (module docstring): ``size``, ``seeds``, ``pes``, ``device``, ``out_dir``,
        ``engine``/``workers``/``ensemble``, ``set`` (overrides for every run); every key optional. Extra key ``tasks``: a subset of the tasks.

    Returns
    -------
    list of dict
        One training record per run.

    Examples
    --------
    >>> recs = chen2025_lengthgen({"tasks": ["parity"], "pes": ["nope", "rope"]})  # doctest: +SKIP
    """
    config = dict(config or {})
    from petheory.experiments.chen2025_runs import LENGTHGEN_PES, LENGTHGEN_TASKS

    tasks = config.pop("tasks", list(LENGTHGEN_TASKS))
    pes = config.get("pes", list(LENGTHGEN_PES))
    out = []
    for t in tasks:
        out += _sweep(t, {**config, "pes": pes}, pes)
    return out


# =============================================================================== li2025 bounds vs trained models

#: li2025 §7: train length 50.
LI2025_N_MAX = 50
#: Running-sum PEs of the bound-vs-gap experiment: li2025 Table 5 plus RoPE and learned (reusing :math:`p_{N_{max}}` past the table).
LI2025_GAP_PES = ["sinusoidal", "learned:n_max=50,beyond=clamp", "alibi", "rope", "wavelet", "legendre"]
#: Training-set sizes m per preset ('quick': the smoke model, 3 seeds, 90 models on CPU; 'full': the small one).
LI2025_GAP_M = {"quick": [32, 64, 128, 256, 512], "full": [32, 64, 128, 256, 512, 1024, 2048, 4096]}
LI2025_GAP_SEEDS = {"quick": 3, "full": 3}
LI2025_GAP_SIZE = {"quick": "smoke", "full": "small"}
#: Overrides for every run of the gap experiment (petheory.nn.preset syntax).
LI2025_GAP_SET = {"ablate": False, "task.n_test": 16}
#: Test sequences per length for the gap (a fresh split; the small per-epoch test split above keeps training cheap).
LI2025_GAP_N_TEST = 1000
#: Optimiser steps per model, whatever m (see trained_running_sum).
LI2025_GAP_STEPS = {"quick": 200, "full": 2000}


def trained_running_sum(preset: str, seed: int = 0, progress=None, *, pes=None, m_grid=None, seeds=None, size=None,
                        steps=None, train_set=None) -> list[dict]:
    """Train (or read back) the running-sum models of the gap experiment; each record gets ``run_dir``.

    Every model gets the same number of optimiser steps (:data:`LI2025_GAP_STEPS`), so a small ``m``
    is trained as long as a large one (with fixed epochs, small-m models would be under-trained and
    their gap would measure optimisation, not generalisation): ``epochs = ceil(steps * batch / m)``.
    Runs are cached under :func:`petheory.records.bounds_runs_dir`, so a rerun only reads them back.

    Parameters
    ----------
    preset : str
        ``'quick'`` or ``'paper'``: the ``LI2025_GAP_*`` settings the keywords default to.
    seed : int, optional
        Offset of the training seeds.
    progress : callable, optional
        As :func:`petheory.experiments.sweep.run`.
    pes, m_grid, seeds, size, steps, train_set : optional
        The encodings, training-set sizes, seeds, model size, optimiser steps and training set.

    Returns
    -------
    list of dict
        The training records, each with ``run_dir``.

    Examples
    --------
    >>> recs = trained_running_sum("quick")  # doctest: +SKIP
    """
    from petheory import records
    from petheory.experiments import sweep
    from petheory.nn import TrainConfig
    from petheory.nn import preset as nn_preset

    pes = LI2025_GAP_PES if pes is None else pes
    m_grid = LI2025_GAP_M[preset] if m_grid is None else m_grid
    seeds = LI2025_GAP_SEEDS[preset] if seeds is None else seeds
    size = LI2025_GAP_SIZE[preset] if size is None else size
    steps = LI2025_GAP_STEPS[preset] if steps is None else steps
    train_set = LI2025_GAP_SET if train_set is None else train_set
    out = records.bounds_runs_dir() / f"running_sum_{preset}"
    batch = nn_preset("running_sum", size).batch_size
    recs = []
    for m in m_grid:
        cfg = {"size": size, "pes": pes, "seeds": [seed + i for i in range(seeds)], "n_train": [m],
               "out_dir": str(out), "set": {"epochs": max(1, math.ceil(steps * batch / m)), **train_set}}
        if progress is not None:
            cfg["progress"] = progress
        recs += running_sum(cfg)
    for r in recs:
        r["run_dir"] = str(sweep.run_dir(out, TrainConfig.from_dict(r["config"])))
    return recs


def fresh_test_split(cfg, length: int, n_test: int):
    """A fresh test split of ``n_test`` sequences at ``length`` for a run's task (train data unchanged).

    Parameters
    ----------
    cfg : TrainConfig
        The run's config.
    length : int
        The sequence length.
    n_test : int
        Sequences.

    Returns
    -------
    Split
        The split.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> tuple(fresh_test_split(preset("running_sum", "smoke"), 50, 8).x.shape)
    (8, 50, 1)
    """
    from petheory.nn import tasks as _tasks

    params = {**cfg.task.params, "n_test": n_test, "test_lens": [length]}
    return _tasks.load(_tasks.TaskConfig(cfg.task.name, cfg.task.seed, params)).test[length]


def _li2025_config(config: dict | None, extra: dict) -> tuple[str, int, dict, dict]:
    """Split a li2025 experiment config into preset, seed, :func:`trained_running_sum` keywords and ``extra``'s keys."""
    config = dict(config or {})
    preset, seed = config.pop("preset", "quick"), config.pop("seed", 0)
    own = {k: config.pop(k, default) for k, default in extra.items()}
    train_keys = ("progress", "pes", "m_grid", "seeds", "size", "steps", "train_set")
    train = {k: config.pop(k) for k in train_keys if k in config}
    if config:
        raise ValidationError(f"unknown experiment option(s): {', '.join(sorted(config))}")
    return preset, seed, train, own


def _li2025_settings(preset: str, train: dict, own: dict) -> dict:
    """What a li2025 experiment ran with: :func:`trained_running_sum`'s settings (given or the preset's) and ``own``."""
    return {"pes": list(train.get("pes", LI2025_GAP_PES)), "m_grid": list(train.get("m_grid", LI2025_GAP_M[preset])),
            "seeds": train.get("seeds", LI2025_GAP_SEEDS[preset]), "size": train.get("size", LI2025_GAP_SIZE[preset]),
            "steps": train.get("steps", LI2025_GAP_STEPS[preset]), "train_set": dict(train.get("train_set", LI2025_GAP_SET)),
            **own}


def _write_record(experiment: str, preset: str, seed: int, settings: dict, body: dict) -> None:
    """Write the experiment's record where its figure reads it (:func:`petheory.records.bounds_record_path`)."""
    from petheory import records
    from petheory.io import atomic_write_json

    atomic_write_json(records.bounds_record_path(experiment, preset, seed),
                      {"experiment": experiment, "preset": preset, "seed": seed, "settings": settings, **body})


def li2025_rademacher_gap(config: dict | None = None) -> list[dict]:
    r"""li2025 §4.2 on trained running-sum models: one row per model with the measured generalisation gap and the bound
    :math:`L_{trans}B_0/\sqrt m` (:func:`petheory.bounds.rademacher_lipschitz_bound`).

    ``L_trans`` comes from :func:`petheory.nn.lipschitz.transformer_lipschitz`, certified and on the
    training inputs; ``B0`` from :func:`petheory.nn.lipschitz.transformer_input_norm`; the gap is the
    test MSE at the train length on a fresh split of ``n_test`` sequences minus the train MSE. Also writes
    ``{"experiment", "preset", "seed", "settings", "rows"}`` to :func:`petheory.records.bounds_record_path` (the
    ``bounds.rademacher_gap`` figure draws it).

    Parameters
    ----------
    config : dict, optional
        ``preset`` ('quick'), ``seed`` (0), ``n_test`` (:data:`LI2025_GAP_N_TEST`), and :func:`trained_running_sum`'s
        ``progress``, ``pes``, ``m_grid``, ``seeds``, ``size``, ``steps``, ``train_set``; all optional.

    Returns
    -------
    list of dict
        One row per model: its PE, m, seed, the gap and the bound's terms.

    Examples
    --------
    >>> rows = li2025_rademacher_gap({"preset": "quick"})  # doctest: +SKIP
    """
    from petheory import bounds
    from petheory.analyses.compare import record_pe_name
    from petheory.nn import evaluate, load_model
    from petheory.nn import tasks as _tasks
    from petheory.nn.lipschitz import transformer_input_norm, transformer_lipschitz

    preset, seed, train, own = _li2025_config(config, {"n_test": LI2025_GAP_N_TEST})
    n_test = own["n_test"]
    rows = []
    with torch_threads(1):  # tiny models: 10-20x faster on one thread when the CPU is shared
        recs = trained_running_sum(preset, seed, **train)
        for r in recs:
            model, cfg = load_model(r["run_dir"])
            model = model.double()
            x = _tasks.load(cfg.task).train.x.double()
            cert = transformer_lipschitz(model)
            ond = transformer_lipschitz(model, inputs=x)
            B0 = transformer_input_norm(model, x)
            m = int(cfg.task.params["n_train"])
            test_mse = evaluate(model.float(), fresh_test_split(cfg, r["train_len"], n_test), "regression")["mse"]
            train_mse = r["final"]["train"]["mse"]
            rows.append({"pe": record_pe_name(r["pe"]), "spec": r["pe"], "seed": r["seed"], "m": m, "epochs": cfg.epochs,
                         "train_mse": train_mse, "test_mse": test_mse, "gap": test_mse - train_mse, "n_test": n_test,
                         "test_mse_by_length_in_record": {k: v["mse"] for k, v in r["final"]["test"].items()},
                         "B0": B0, "L_certified": cert.total, "L_on_data": ond.total,
                         "bound_on_data": bounds.rademacher_lipschitz_bound(ond.total, B0, m),
                         "bound_certified": bounds.rademacher_lipschitz_bound(cert.total, B0, m)})
    _write_record("li2025_rademacher_gap", preset, seed, _li2025_settings(preset, train, own), {"rows": rows})
    return rows


def li2025_alibi_drift(config: dict | None = None) -> dict:
    """li2025 Eq. 9 on a trained model: the ALiBi running-sum model with the largest ``m`` (lowest seed on ties) of
    :func:`trained_running_sum`, measured by :func:`petheory.nn.lipschitz.alibi_drift`.

    Measured on ``batch`` (64) test inputs of ``length`` (200). Also writes the result with ``experiment``, ``preset``,
    ``seed`` and ``settings`` to :func:`petheory.records.bounds_record_path` (the ``bounds.alibi_drift`` figure draws
    it).

    Parameters
    ----------
    config : dict, optional
        ``batch``, ``length``, and the keys of :func:`li2025_rademacher_gap`; all optional.

    Returns
    -------
    dict
        ``run`` (its directory), ``spec``, ``n_max``, ``n_layer``, ``n_train`` and ``records`` (one per layer, head
        and distance).

    Examples
    --------
    >>> drift = li2025_alibi_drift({"preset": "quick"})  # doctest: +SKIP
    """
    from petheory.analyses.compare import record_pe_name
    from petheory.nn import load_model
    from petheory.nn import tasks as _tasks
    from petheory.nn.lipschitz import alibi_drift

    preset, seed, train, own = _li2025_config(config, {"length": 200, "batch": 64})
    length, batch = own["length"], own["batch"]
    with torch_threads(1):  # tiny models: 10-20x faster on one thread when the CPU is shared
        recs = [r for r in trained_running_sum(preset, seed, **train) if record_pe_name(r["pe"]) == "alibi"]
    r = max(recs, key=lambda r: (r["config"]["task"]["params"]["n_train"], -r["seed"]))
    model, cfg = load_model(r["run_dir"])
    model = model.double()
    x = _tasks.load(cfg.task).test[length].x[:batch].double()
    run = {"run": r["run_dir"], "spec": r["pe"], "n_max": LI2025_N_MAX, "n_layer": cfg.model.n_layer,
           "n_train": cfg.task.params["n_train"], "records": alibi_drift(model, x, n_max=LI2025_N_MAX)}
    _write_record("li2025_alibi_drift", preset, seed, _li2025_settings(preset, train, own), run)
    return run
