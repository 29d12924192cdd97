r"""``compare``: schemes side by side (every registered encoding by default): spectrum, stress, norm growth, length generalisation.

One row per scheme and distinct layer kind (:func:`compare_scheme`), computed with the functions the
single-PE commands use (:mod:`petheory.analyses.kernel`, :func:`petheory.analyses.stress.layer_stress`,
:func:`petheory.analyses.bounds.layer_bounds`), so a number here is the number ``petheory
spectrum``/``stress``/``bounds``/``report`` print; a model's config gives its own head dimension and
original context:

``symbol`` / ``eigenvalues``
    The position-only Toeplitz matrix of the layer at ``n`` positions (a sliding layer at
    ``min(n, W)``; :func:`petheory.analyses.kernel.position_column`): a bias encoding's ``B``
    (ALiBi's ``-m|k|``); a rotary encoding's unit-content kernel (YaRN's and xPos's scales
    included); an absolute encoding's Gram ``P P^T``, projected on Toeplitz matrices (diagonal
    means) where it is not Toeplitz. Non-Hermitian kernels (xPos, random T5/relative tables) are
    replaced by their Hermitian part ``(T + T^H)/2``. Symbol range of the finite section and the
    extreme eigenvalues (:func:`petheory.analyses.kernel.extremes`: exact low rank for rotary
    kernels, certified otherwise); ``spread = lambda_max - lambda_min``;
    for biases ``cpd`` (:func:`petheory.toeplitz.conditional_definiteness`: KERPLE, ALiBi and
    Sandwich are conditionally positive definite, with exactly one negative eigenvalue).
``stress``
    Kruskal stress-1 of the encoding's induced geometry against the Hellinger geometry of the
    built-in corpus, with the null reference of ``stress`` and ``report``: mean and standard
    deviation of the stress of ``null_draws`` seeded N(0, 1) tables of the same shape
    (:func:`petheory.analyses.stress.layer_stress`), and the z-score ``(stress - mean) / sd``.
``norms``
    The computed norm of :func:`petheory.analyses.bounds.layer_bounds` at each length in ``lengths``
    with the scheme's training length (absolute: ``sup ||PE||``; bias: ``max |b|``; rotary: largest
    change of a band's norm), and for rotary encodings the angle coverage at the longest length.
``lengthgen``
    From training records (dicts with ``task``, ``pe``, ``train_len`` and ``final.test[length]``;
    the CLI reads them from ``records/`` and ``runs/``): per task, the primary metric at the
    training length and at the longest test length. None where no record exists.

Theory code: numpy only, no files (records are passed in).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from petheory import _validate as v
from petheory import encodings as enc
from petheory.analyses import kernel as K
from petheory.scheme import Positions, Scheme, Span

#: Tasks whose records the comparison reads: their metrics, the first one primary (running_sum: lower is better;
#: chen2025's tasks: exact match seq_acc and per-token token_acc, higher is better).
LENGTHGEN_TASKS = {"running_sum": ("mse",), "parity": ("seq_acc", "token_acc"), "copy": ("seq_acc", "token_acc"),
                   "reverse": ("seq_acc", "token_acc"), "addition": ("seq_acc", "token_acc")}


def spectral_summary(pos: Positions, n: int = 256, *, learned_t5: bool = False) -> dict:
    """Symbol range of the finite section and extreme eigenvalues of the layer's position-only matrix (the
    functions ``spectrum`` and ``report`` use: :mod:`petheory.analyses.kernel`)."""
    from petheory import toeplitz as tp

    col = K.position_column(pos, n, learned_t5=learned_t5)
    ex = tp.symbol_extrema(col.column, col.row)
    eig, _ = K.extremes(pos, n, column=col)
    lo, hi = eig["lambda_min"], eig["lambda_max"]
    from petheory.analyses.spectrum import EXACT_UP_TO

    cpd = None
    if pos.kind == "bias" and n <= EXACT_UP_TO:  # relative biases: conditionally positive definite? (dense, O(N^3))
        cpd = tp.conditional_definiteness(col.column)
    return {"matrix": col.description, "n": n, "cpd": cpd, "symbol_min": ex.min, "symbol_max": ex.max,
            "symbol_certified": bool(ex.certified), "lambda_min": lo["value"], "lambda_max": hi["value"],
            "spread": hi["value"] - lo["value"], "eig_error": max(lo["error_bound"], hi["error_bound"]),
            "eig_converged": bool(lo["converged"] and hi["converged"])}


def stress_summary(pos: Positions, target, *, null_draws: int = 20, seed: int = 0) -> dict:
    """Stress of the layer's positions against ``target`` with its null reference
    (:func:`petheory.analyses.stress.layer_stress`), and the z-score ``(stress - mean) / sd``."""
    from petheory.analyses.stress import layer_stress

    null_draws = v.integer("null_draws", null_draws, minimum=2)
    rec = layer_stress(pos, target, null_draws=null_draws, seed=seed)
    null = rec["null"]
    mu, sd = null["mean"], null["sd"]
    return {"stress": rec["stress"], "geometry": rec["geometry"], "n": rec["n"], "null_mean": mu, "null_sd": sd,
            "z": (rec["stress"] - mu) / sd if sd > 0 else None, "mds_stress": rec["mds_stress"], "null_draws": null_draws,
            "null": "N(0,1) tables of the same shape (petheory.stress_reference.random_table_null)"}


def norm_summary(pos: Positions, *, lengths=(64, 256, 1024), n_max: int = 64, learned_t5: bool = False,
                 span: Span | None = None) -> dict:
    """The computed norm of :func:`petheory.analyses.bounds.layer_bounds` per length (training length ``n_max``);
    rotary: its angle coverage at the longest. A sliding or chunked ``span`` is analysed at ``min(N', span)``
    (its queries see no farther), as ``bounds`` and ``report`` do."""
    from petheory.analyses.bounds import layer_bounds

    span = span or Span()
    rows = [layer_bounds(pos, span.reach(int(L)), n_max=n_max, learned_t5=learned_t5) for L in lengths]
    vals = {str(L): r["norm"]["computed"] for L, r in zip(lengths, rows)}
    meaning = {"absolute": "sup ||PE(pos)||", "table": "sup ||PE(pos)||", "bias": "max |b(i,j)|",
               "rotary": "max |band factor - 1|"}.get(pos.kind, pos.kind)
    out = {"values": vals, "n_max": n_max, "meaning": meaning}
    a, b = vals[str(lengths[0])], vals[str(lengths[-1])]
    out["growth"] = (math.log(b / a) / math.log(lengths[-1] / lengths[0])) if a and b and a > 0 and b > 0 else None
    if "angles" in rows[-1]:
        out["angles"] = rows[-1]["angles"]
    return out


def record_pe_name(spec: str) -> str:
    """The registry name a record's PE spec starts with (``'rope:base=500+sinusoidal'`` -> ``'rope'``)."""
    return str(spec).split("+", 1)[0].split(":", 1)[0].strip()


#: Config fields that say which replicate a run is and where it ran, not what it measured: runs that differ only
#: here are one configuration (their numbers are averaged).
REPLICATE_FIELDS = ("seed", "task.seed", "device", "eval_batch_size")


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, x in d.items():
        if isinstance(x, dict):
            out.update(_flat(x, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = x
    return out


def configuration(rec: dict) -> dict:
    """What a training record measured, flattened (``model.n_layer``, ``task.params.n_train``, ...), without
    :data:`REPLICATE_FIELDS`; records without a ``config`` fall back to their PE and training length."""
    cfg = rec.get("config")
    if not isinstance(cfg, dict):
        return {"model.pe": rec.get("pe"), "train_len": rec.get("train_len")}
    return {k: x for k, x in _flat(cfg).items() if k not in REPLICATE_FIELDS}


def spec_label(name: str, params: dict | None) -> str:
    """``name:key=value,...`` as the PE grammar writes it (``rope_yarn:scale=4``)."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={x:g}" if isinstance(x, float) else f"{k}={x}" for k, x in params.items())


def _pe_matches(rec: dict, name: str, params: dict | None) -> bool:
    """The record's PE is ``name`` (its first term) with at least ``params`` (equal values).

    A record's parameters are read from ``rec["_pe_params"]`` (the parsed first term; ``petheory compare``
    sets it with :mod:`petheory.spec`); a record without it matches parameters only when its PE string is
    exactly ``spec_label(name, params)``.
    """
    pe = str(rec.get("pe", ""))
    if record_pe_name(pe) != name:
        return False
    if not params:
        return True
    have = rec.get("_pe_params")
    if have is None:
        return pe == spec_label(name, params)
    return all(k in have and have[k] == x for k, x in params.items())


def lengthgen_summary(records, name: str, params: dict | None = None) -> dict:
    """Per task of :data:`LENGTHGEN_TASKS`: one entry per training configuration of ``name`` (with at least
    ``params``), each metric at the training length and at the longest test length, averaged over that
    configuration's runs (its seeds) only, with the runs listed.

    Returns ``{task: [group, ...]}``, a group being ``{"pe", "config" (the fields in which this task's groups
    differ), "runs", "seeds", "records" (where each run's record came from), "longest", "metrics"}``, largest
    group first. Runs of other configurations (another sample size, model, PE parameter) are never averaged in.
    """
    out = {}
    for task, metrics in LENGTHGEN_TASKS.items():
        groups: dict = {}
        for rec in records:
            if rec.get("task") != task or not _pe_matches(rec, name, params):
                continue
            test = (rec.get("final") or {}).get("test") or {}
            lens = sorted(int(k) for k in test if str(k).isdigit())
            if not lens or not all(m in test[str(lens[-1])] for m in metrics):
                continue
            conf = configuration(rec)
            key = json.dumps(conf, sort_keys=True, default=str) + f"|{lens[-1]}"  # average like with like
            groups.setdefault(key, {"conf": conf, "runs": []})["runs"].append((rec, test, lens))
        if not groups:
            continue
        confs = [g["conf"] for g in groups.values()]
        varying = sorted(k for k in set().union(*confs) if len({json.dumps(c.get(k), default=str) for c in confs}) > 1)
        rows = []
        for g in groups.values():
            runs = g["runs"]
            longest = runs[0][2][-1]
            row = {"pe": str(runs[0][0].get("pe")), "config": {k: g["conf"].get(k) for k in varying}, "runs": len(runs),
                   "seeds": sorted(r.get("seed") for r, _, _ in runs if r.get("seed") is not None),
                   "records": [str(r.get("_source") or f"{r.get('task')}/{r.get('pe')}/s{r.get('seed')}") for r, _, _ in runs],
                   "longest": longest, "metrics": {}}
            for m in metrics:
                at_train = [t.get(str(r.get("train_len", lens[0])), t[str(lens[0])])[m] for r, t, lens in runs]
                row["metrics"][m] = {"at_train": float(np.mean(at_train)),
                                     "at_longest": float(np.mean([t[str(longest)][m] for _, t, _ in runs]))}
            rows.append(row)
        out[task] = sorted(rows, key=lambda r: (-r["runs"], r["pe"], json.dumps(r["config"], sort_keys=True, default=str)))
    return out


def compare_scheme(scheme: Scheme, target, records=(), *, n: int = 256, lengths=(64, 256, 1024),
                   null_draws: int = 20, seed: int = 0) -> list[dict]:
    """The comparison rows of one scheme: one per distinct layer kind (see the module docstring); errors are
    recorded, not raised. The training length is the scheme's context (a model's L, a spec's n_max or --context)."""
    learned = scheme.source not in ("spec", "table")
    rows = []
    kinds = scheme.kinds()
    for layer, idx in kinds:
        pos = layer.positions
        name = pos.encoding or pos.kind
        params = {k: x for k, x in pos.params.items()}
        label = spec_label(name, params) if scheme.source == "spec" else (scheme.spec or scheme.source)
        if len(kinds) > 1:
            label += f" [layers {idx[0]}..{idx[-1]}: {layer.type or layer.span}]"
        row = {"pe": label, "name": name, "params": params, "kind": pos.kind, "layers": list(idx), "d": pos.d,
               "span": str(layer.span), "n_max": scheme.context}
        m = layer.span.reach(n)
        why = K.why_no_kernel(pos, learned_t5=learned)
        for key, fn in (("spectrum", lambda: spectral_summary(pos, m, learned_t5=learned)),
                        ("stress", lambda: stress_summary(pos, target, null_draws=null_draws, seed=seed)),
                        ("norms", lambda: norm_summary(pos, lengths=lengths, n_max=scheme.context, learned_t5=learned,
                                                        span=layer.span))):
            if why is not None:
                row[key] = {"error": why}
                continue
            try:
                row[key] = fn()
            except (ValueError, TypeError, KeyError, np.linalg.LinAlgError) as exc:  # one failing never hides the rest
                row[key] = {"error": str(exc).splitlines()[0]}
        row["lengthgen"] = lengthgen_summary(records, name, params) if scheme.source == "spec" else {}
        rows.append(row)
    return rows


@dataclass(frozen=True)
class CompareRecord:
    """The comparison: one row per scheme and distinct layer kind, and the settings it was computed with."""

    rows: list
    settings: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"rows": self.rows, "settings": self.settings}


def compare(schemes=None, target=None, records=(), *, n: int = 256, d: int = 64, lengths=(64, 256, 1024),
            n_max: int = 64, null_draws: int = 20, seed: int = 0) -> CompareRecord:
    """:func:`compare_scheme` for ``schemes`` (default: every registered encoding at ``d``, trained on ``n_max``)
    against ``target`` (default the built-in corpus). An item of ``schemes`` is a Scheme or a spec
    (resolved with :func:`petheory.loaders.resolve_scheme` at ``d`` and context ``n_max``).

    >>> rec = compare(["alibi:slope=0.5"], n=16, lengths=(8, 16), n_max=8, null_draws=3)
    >>> rec.rows[0]["spectrum"]["matrix"].startswith("alibi")
    True
    """
    from petheory import geometry
    from petheory.loaders import resolve_scheme

    items = enc.available() if schemes is None else list(schemes)
    target = geometry.builtin_target() if target is None else target
    rows = []
    for item in items:
        scheme = item if isinstance(item, Scheme) else resolve_scheme(item, d=d, context=n_max, what="compare")
        rows += compare_scheme(scheme, target, records, n=n, lengths=lengths, null_draws=null_draws, seed=seed)
    return CompareRecord(rows, {"n": n, "d": d, "lengths": list(lengths), "n_max": n_max, "null_draws": null_draws,
                                "seed": seed})
