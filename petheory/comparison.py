r"""Every registered encoding side by side: spectrum, stress against the corpus, norm growth, length generalisation.

One row per encoding (:func:`compare_encoding`), computed with the functions the single-PE
commands use, so a number here is the number ``petheory spectrum``/``stress``/``bounds`` print:

``symbol`` / ``eigenvalues``
    The position-only Toeplitz matrix of the encoding at ``n`` positions: a bias encoding's
    ``B``; a rotary encoding's unit-content kernel (:func:`petheory.encodings.kernels.rotary_kernel`,
    YaRN's and xPos's scales included); an absolute encoding's Gram ``P P^T``, projected on
    Toeplitz matrices (diagonal means) where it is not Toeplitz. Non-Hermitian kernels (xPos,
    random T5/relative tables) are replaced by their Hermitian part ``(T + T^H)/2``. Symbol range
    of the finite section (:func:`petheory.toeplitz.symbol_extrema`) and certified extreme
    eigenvalues (:func:`petheory.toeplitz.extreme_eigenvalues`); ``spread = lambda_max - lambda_min``;
    for biases ``cpd`` (:func:`petheory.toeplitz.conditional_definiteness`: KERPLE, ALiBi and
    Sandwich are conditionally positive definite, with exactly one negative eigenvalue).
``stress``
    Kruskal stress-1 of the encoding's induced geometry against the Hellinger geometry of the
    built-in corpus (:func:`petheory.geometry.encoding_stress`), with a null reference: mean and
    standard deviation of the stress of ``null_draws`` seeded random encodings of the same kind and
    shape (absolute: N(0, 1) tables (n, d); rotary: uniform angles (n, d/2); bias: random
    symmetric non-negative logit gaps), and the z-score ``(stress - mean) / sd``.
``norms``
    :func:`petheory.bounds.norm_bound` ``computed`` at each length in ``lengths`` with training
    length ``n_max`` (absolute: ``sup ||PE||``; bias: ``max |b|``; rotary: largest change of a band's norm),
    and for rotary encodings :func:`petheory.bounds.rotary_angle_coverage` at the longest length.
``lengthgen``
    From training records (dicts with ``task``, ``pe``, ``train_len`` and ``final.test[length]``;
    the CLI reads them from ``records/`` and ``runs/``): per task, the primary metric at the
    training length and at the longest test length. None where no record exists.

Theory code: numpy only, no files (records are passed in).
"""

from __future__ import annotations

import json
import math

import numpy as np

from petheory import _validate as v
from petheory import encodings as enc

#: Tasks whose records the comparison reads: their metrics, the first one primary (running_sum: lower is better;
#: chen2025's tasks: exact match seq_acc and per-token token_acc, higher is better).
LENGTHGEN_TASKS = {"running_sum": ("mse",), "parity": ("seq_acc", "token_acc"), "copy": ("seq_acc", "token_acc"),
                   "reverse": ("seq_acc", "token_acc"), "addition": ("seq_acc", "token_acc")}


def position_kernel(name: str, n: int, d: int, **params) -> tuple[np.ndarray, str]:
    """First column of the Hermitian Toeplitz matrix the comparison analyses, and what it is."""
    from petheory import toeplitz as tp
    from petheory.encodings.kernels import rotary_kernel

    info = enc.info(name)
    if info.kind == "bias":
        B = info.fn(n, **params)
        defect = tp.toeplitz_defect(B)
        if defect > 1e-10:
            B, what = tp.toeplitz_projection(B), "bias B, Toeplitz projection"
        else:
            what = "bias B"
        c, r = B[:, 0], B[0, :]
    elif info.kind == "rotary":
        c, r = rotary_kernel(info.fn(n, d, **params))
        what = "rotary unit-content kernel"
    else:
        P = info.fn(n, d, **params)
        G = P @ P.T
        if tp.toeplitz_defect(G) > 1e-10:
            G, what = tp.toeplitz_projection(G), "Gram P P^T, Toeplitz projection"
        else:
            what = "Gram P P^T"
        c, r = G[:, 0], G[0, :]
    if not np.allclose(r, np.conj(c), rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(c).max()))):
        c, what = (c + np.conj(r)) / 2, what + " (Hermitian part)"
    c = np.array(c, dtype=np.float64)
    return c, what


def spectral_summary(name: str, n: int = 256, d: int = 64, **params) -> dict:
    """Symbol range of the finite section and certified extreme eigenvalues of :func:`position_kernel`."""
    from petheory import toeplitz as tp

    c, what = position_kernel(name, n, d, **params)
    import warnings

    ex = tp.symbol_extrema(c)
    scale = max(abs(ex.min), abs(ex.max), 1e-300)
    # as `petheory spectrum`: relative accuracy 1e-8, absolute 1e-12 ||a||_inf near zero (rank-deficient Grams)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always", RuntimeWarning)
        eig = tp.extreme_eigenvalues(c, rtol=1e-8, atol=1e-12 * scale)
    cpd = None
    if enc.info(name).kind == "bias" and n <= 4096:  # relative biases: conditionally positive definite?
        cpd = tp.conditional_definiteness(c)
    return {"matrix": what, "n": n, "cpd": cpd, "symbol_min": ex.min, "symbol_max": ex.max, "symbol_certified": bool(ex.certified),
            "lambda_min": eig.min.value, "lambda_max": eig.max.value, "spread": eig.max.value - eig.min.value,
            "eig_error": max(eig.min.error_bound, eig.max.error_bound),
            "eig_converged": bool(eig.min.converged and eig.max.converged)}


def _null_encoding(kind: str, n: int, d: int, rng: np.random.Generator):
    if kind == "absolute":
        return rng.normal(size=(n, d))
    if kind == "rotary":
        return enc.RotaryTable(rng.uniform(0, 2 * math.pi, size=(n, d // 2)), d, "interleaved")
    G = np.abs(rng.normal(size=(n, n)))
    G = (G + G.T) / 2
    np.fill_diagonal(G, 0.0)
    return G  # a distance matrix: the logit gap of the random bias -G


def stress_summary(name: str, target, *, d: int = 64, null_draws: int = 20, seed: int = 0, **params) -> dict:
    """Stress of ``name`` against ``target`` (PositionalDistributions) and its null reference."""
    from petheory import geometry

    null_draws = v.integer("null_draws", null_draws, minimum=2)
    kind = enc.info(name).kind
    try:
        rep = geometry.encoding_stress(name, target, d=d, **params)
    except ValueError as exc:  # a learned bias may favour another key over the query's own: no logit-gap metric
        if kind != "bias" or "bias_map='hellinger'" not in str(exc):
            raise
        rep = geometry.encoding_stress(name, target, d=d, bias_map="hellinger", **params)
    Dt = geometry.hellinger_distances(target)
    rng = v.generator(seed)
    null = []
    for _ in range(null_draws):
        e = _null_encoding(kind, Dt.shape[0], d, rng)
        De = e if kind == "bias" else geometry.induced_distances(e, Dt.shape[0], d)[0]
        null.append(geometry.stress_between(De, Dt))
    mu, sd = float(np.mean(null)), float(np.std(null, ddof=1))
    return {"stress": rep.stress, "geometry": rep.geometry, "n": rep.n, "null_mean": mu, "null_sd": sd,
            "z": (rep.stress - mu) / sd if sd > 0 else None, "mds_stress": rep.mds_stress, "null_draws": null_draws}


def norm_summary(name: str, *, lengths=(64, 256, 1024), d: int = 64, n_max: int = 64, **params) -> dict:
    """``norm_bound(...).computed`` per length (training length ``n_max``); rotary: angle coverage at the longest."""
    from petheory import bounds

    info = enc.info(name)
    vals = {}
    for L in lengths:
        kw = dict(params)
        nb = bounds.norm_bound(name, int(L), d, n_max=n_max, **kw)
        vals[str(L)] = nb.computed
    out = {"values": vals, "n_max": n_max, "meaning": {"absolute": "sup ||PE(pos)||", "bias": "max |b(i,j)|",
                                                       "rotary": "max |band factor - 1|"}[info.kind]}
    a, b = vals[str(lengths[0])], vals[str(lengths[-1])]
    out["growth"] = (math.log(b / a) / math.log(lengths[-1] / lengths[0])) if a and b and a > 0 and b > 0 else None
    if info.kind == "rotary":
        out["angles"] = bounds.rotary_angle_coverage(name, int(lengths[-1]), d, n_max=n_max, **params)
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


def compare_encoding(name: str, target, records=(), *, n: int = 256, d: int = 64, lengths=(64, 256, 1024),
                     n_max: int = 64, null_draws: int = 20, seed: int = 0, params: dict | None = None) -> dict:
    """One row of the comparison (see the module docstring) for ``name`` with ``params``; errors are recorded, not raised.

    A ``params["n_max"]`` (``learned:n_max=50``) is the row's training length instead of ``n_max``.
    """
    info = enc.info(name)
    params = dict(params or {})
    if params.get("n_max") is not None:  # the spec's own training length (learned:n_max=50) is this row's
        n_max = params["n_max"]
    label = spec_label(name, params)
    row = {"pe": label, "name": name, "params": params, "kind": info.kind}
    kw = {k: x for k, x in params.items() if k != "n_max"}
    for key, fn in (("spectrum", lambda: spectral_summary(name, n, d, **params)),
                    ("stress", lambda: stress_summary(name, target, d=d, null_draws=null_draws, seed=seed, **params)),
                    ("norms", lambda: norm_summary(name, lengths=lengths, d=d, n_max=n_max, **kw))):
        try:
            row[key] = fn()
        except (ValueError, TypeError, np.linalg.LinAlgError) as exc:  # one encoding failing never hides the rest
            row[key] = {"error": str(exc).splitlines()[0]}
    row["lengthgen"] = lengthgen_summary(records, name, params)
    return row


def compare(names=None, target=None, records=(), **kw) -> list[dict]:
    """:func:`compare_encoding` for ``names`` (default every registered encoding) against ``target``
    (default the built-in corpus). An item of ``names`` is a registered name or a ``(name, params)`` pair."""
    from petheory import geometry

    names = enc.available() if names is None else list(names)
    target = geometry.builtin_target() if target is None else target
    rows = []
    for item in names:
        name, params = (item, None) if isinstance(item, str) else item
        rows.append(compare_encoding(name, target, records, params=params, **kw))
    return rows
