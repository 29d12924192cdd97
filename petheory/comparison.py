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
    length ``n_max`` (absolute: sup ||PE||; bias: max |b|; rotary: largest change of a band's norm),
    and for rotary encodings :func:`petheory.bounds.rotary_angle_coverage` at the longest length.
``lengthgen``
    From training records (dicts with ``task``, ``pe``, ``train_len`` and ``final.test[length]``;
    the CLI reads them from ``records/`` and ``runs/``): per task, the primary metric at the
    training length and at the longest test length. None where no record exists.

Theory code: numpy only, no files (records are passed in).
"""

from __future__ import annotations

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


def lengthgen_summary(records, name: str) -> dict:
    """Per task of :data:`LENGTHGEN_TASKS`: each metric at the training length and at the longest test length,
    averaged over the records of ``name`` (any parameters, any seed) that reach that longest length."""
    out = {}
    for task, metrics in LENGTHGEN_TASKS.items():
        mine = []
        for rec in records:
            if rec.get("task") != task or record_pe_name(rec.get("pe", "")) != name:
                continue
            test = (rec.get("final") or {}).get("test") or {}
            lens = sorted(int(k) for k in test if str(k).isdigit())
            if lens and all(m in test[str(lens[-1])] for m in metrics):
                mine.append((test, lens, str(rec.get("train_len", lens[0]))))
        if not mine:
            continue
        longest = max(lens[-1] for _, lens, _ in mine)
        mine = [x for x in mine if x[1][-1] == longest]  # average like with like
        row = {"runs": len(mine), "longest": longest, "metrics": {}}
        for m in metrics:
            at_train = [t.get(tl, t[str(lens[0])])[m] for t, lens, tl in mine]
            at_long = [t[str(longest)][m] for t, _, _ in mine]
            row["metrics"][m] = {"at_train": float(np.mean(at_train)), "at_longest": float(np.mean(at_long))}
        out[task] = row
    return out


def compare_encoding(name: str, target, records=(), *, n: int = 256, d: int = 64, lengths=(64, 256, 1024),
                     n_max: int = 64, null_draws: int = 20, seed: int = 0) -> dict:
    """One row of the comparison (see the module docstring); errors are recorded, not raised."""
    info = enc.info(name)
    row = {"pe": name, "kind": info.kind}
    for key, fn in (("spectrum", lambda: spectral_summary(name, n, d)),
                    ("stress", lambda: stress_summary(name, target, d=d, null_draws=null_draws, seed=seed)),
                    ("norms", lambda: norm_summary(name, lengths=lengths, d=d, n_max=n_max))):
        try:
            row[key] = fn()
        except (ValueError, TypeError, np.linalg.LinAlgError) as exc:  # one encoding failing never hides the rest
            row[key] = {"error": str(exc).splitlines()[0]}
    row["lengthgen"] = lengthgen_summary(records, name)
    return row


def compare(names=None, target=None, records=(), **kw) -> list[dict]:
    """:func:`compare_encoding` for ``names`` (default every registered encoding) against ``target``
    (default the built-in corpus)."""
    from petheory import geometry

    names = enc.available() if names is None else list(names)
    target = geometry.builtin_target() if target is None else target
    return [compare_encoding(nm, target, records, **kw) for nm in names]
