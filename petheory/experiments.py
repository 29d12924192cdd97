r"""One function per reproduced paper experiment: ``run(config) -> records``.

Each takes a plain dict (every key optional) and returns a list of training records
(:mod:`petheory.nn.train`); runs go through :func:`petheory.sweep.run`, so with ``out_dir``
they are checkpointed, resumable and skipped when done. Common keys: ``size``
(``'smoke'|'small'|'paper'``), ``seeds`` (list), ``pes`` (spec strings), ``device``,
``out_dir`` (None: a temporary directory), ``engine``/``workers``/``ensemble`` (see
:mod:`petheory.sweep`), ``set`` (overrides for every run, as in :func:`petheory.nn.preset`).

``running_sum(config)``
    li2025 §7 Table 5: running-sum MSE at train length 50 and test lengths 100/200 per PE.
    Extra key ``n_train``: the training-set size ``m`` (a list sweeps it, for generalisation
    gap vs ``m`` plots). Helpers: :func:`generalisation_gap`, :func:`test_mse`.
``gu2025_task1(config)``, ``gu2025_task2(config)``
    gu2025 §4: test accuracy per PE, with per-head ablation (``record["ablation"]``).
``chen2025_lengthgen(config)``
    parity (chain of thought), copy, reverse, addition: accuracy per length beyond training.

li2025 Eq. 9's measured drift of a trained ALiBi model is :func:`petheory.nn.lipschitz.alibi_drift`
(the one definition: the change of a key's softmax weight when its bias moves from
:math:`-\alpha N_{max}` to :math:`-\alpha d`, the rest of the row fixed).

PE names: :data:`GU2025_PES` maps gu2025's run names to specs (their "rope" adds sinusoidal
inputs; "random" is trainable; ALiBi uses their ``exp(-h/H)`` slopes; "relative" is a learned
scalar per offset); :data:`LI2025_PES` lists li2025 Table 5's encodings.
"""

from __future__ import annotations

import tempfile

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
#: li2025 Table 5's encodings (learned reuses p_{N_max} past the table, as li2025 §6 describes).
LI2025_PES = ["sinusoidal", "learned:n_max=50,beyond=clamp", "alibi", "rope", "wavelet", "legendre", "nope"]


def _sweep(task: str, config: dict, default_pes, extra_axes=None) -> list[dict]:
    from petheory import sweep

    config = dict(config or {})
    pes = config.pop("pes", default_pes)
    spec = {"task": task, "preset": config.pop("size", "smoke"), "pe": list(pes),
            "seed": list(config.pop("seeds", [0])), "device": config.pop("device", "cpu"),
            "set": dict(config.pop("set", {})), "grid": dict(extra_axes or {})}
    opts = {k: config.pop(k) for k in ("engine", "workers", "ensemble", "slurm", "executor", "progress") if k in config}
    out_dir = config.pop("out_dir", None)
    if config:
        raise ValueError(f"unknown experiment option(s): {', '.join(sorted(config))}")
    configs = sweep.expand(spec)
    if out_dir is None:
        with tempfile.TemporaryDirectory(prefix="petheory-") as tmp:
            return sweep.run(configs, tmp, **opts)
    return sweep.run(configs, out_dir, **opts)


def running_sum(config: dict | None = None) -> list[dict]:
    """li2025 Table 5 (reconstruction): one record per (PE, seed[, n_train])."""
    config = dict(config or {})
    m = config.pop("n_train", None)
    axes = {"task.n_train": m if isinstance(m, list) else [m]} if m is not None else None
    return _sweep("running_sum", config, LI2025_PES, axes)


def gu2025_task1(config: dict | None = None) -> list[dict]:
    """gu2025 Task 1 (trigger distance): one record per (PE, seed)."""
    return _sweep("gu2025_task1", config, list(GU2025_PES.values()))


def gu2025_task2(config: dict | None = None) -> list[dict]:
    """gu2025 Task 2 (trigger counting): one record per (PE, seed)."""
    return _sweep("gu2025_task2", config, list(GU2025_PES.values()))


def chen2025_lengthgen(config: dict | None = None) -> list[dict]:
    """chen2025's length-generalisation tasks; ``tasks`` key picks a subset."""
    config = dict(config or {})
    tasks = config.pop("tasks", ["parity", "copy", "reverse", "addition"])
    pes = config.get("pes", ["nope", "sinusoidal", "learned", "alibi", "rope", "t5"])
    out = []
    for t in tasks:
        out += _sweep(t, {**config, "pes": pes}, pes)
    return out


def test_mse(record: dict, length: int) -> float:
    """Test MSE of a running-sum record at ``length``."""
    return record["final"]["test"][str(length)]["mse"]


def generalisation_gap(record: dict) -> float:
    """Test minus train loss at the training length (MSE for regression, cross-entropy otherwise)."""
    metric = "mse" if record["kind"] == "regression" else "loss"
    return record["final"]["test"][str(record["train_len"])][metric] - record["final"]["train"][metric]
