r"""What a stress value means: a null reference over random tables, and warnings about the target.

A stress on its own says little. On a small corpus a random N(0, 1) table can score as well as
sinusoidal: in high dimension random vectors are nearly equidistant, and a target whose
positions share few tokens (Hellinger distance close to 1 for most pairs) is nearly
equidistant too. :func:`random_table_null` gives the distribution of the stress of seeded
random tables of the encoding's shape against the same target, so every reported stress
comes with its mean, spread and percentile; :func:`target_warnings` says when the target
itself cannot tell encodings apart.

Theory code: numpy only, no files, seeded.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import _validate as v

#: Random tables per null reference (default). The percentile then has a resolution of 1/DRAWS
#: and the mean a standard error of sd/sqrt(DRAWS) (10% of the spread).
DRAWS = 100


@dataclass(frozen=True)
class NullReference:
    """Stress of ``draws`` random N(0, 1) tables of shape ``(n, d)`` against one target.

    ``values`` are sorted. :meth:`percentile` is the share of random tables (in %) whose stress
    is at most a given value: small is good (the encoding beats most random tables).
    """

    n: int
    d: int
    kind: str
    draws: int
    seed: int
    values: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.values.mean())

    @property
    def sd(self) -> float:
        return float(self.values.std(ddof=1)) if self.draws > 1 else 0.0

    def percentile(self, value: float) -> float:
        """Share (%) of the random tables whose stress is <= ``value`` (lower stress is better)."""
        return 100.0 * float(np.searchsorted(self.values, float(value), side="right")) / self.draws

    def z(self, value: float) -> float | None:
        """``(value - mean) / sd``: negative when the encoding beats the average random table."""
        return None if self.sd == 0 else (float(value) - self.mean) / self.sd

    def as_dict(self, value: float | None = None) -> dict:
        q = np.percentile(self.values, [5, 50, 95])
        out = {
            "what": f"stress of {self.draws} random N(0,1) tables of shape ({self.n}, {self.d}) against the same target "
                    f"(seeds {self.seed}..{self.seed + self.draws - 1})",
            "draws": self.draws, "mean": self.mean, "sd": self.sd,
            "p5": float(q[0]), "median": float(q[1]), "p95": float(q[2]),
        }
        if value is not None:
            out["percentile"] = self.percentile(value)
            out["z"] = self.z(value)
        return out


def random_table_null(D, d: int, *, kind: str = "stress1", draws: int = DRAWS, seed: int = 0,
                      progress=None) -> NullReference:
    r"""Stress of random N(0, 1) tables of shape ``(n, d)`` against target distances ``D``.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Target distances (e.g. Hellinger distances of positional distributions).
    d : int
        Columns of the random tables: the dimension of the encoding being judged.
    kind : {'stress1', 'raw', 'strain'}
        As in :func:`petheory.geometry.stress`.
    draws : int
        Number of random tables; table ``k`` uses ``numpy.random.default_rng(seed + k)``.
    seed : int
    progress : callable, optional
        ``progress(done, draws)`` after each table (the CLI prints a line now and then for long work).

    Returns
    -------
    NullReference

    Notes
    -----
    Stress-1 is scale-free, so the N(0, 1) scale does not matter for it; raw stress and strain
    are not, and their null is for unit-variance entries. Cost: ``draws`` times one
    :math:`O(n^2 d)` distance matrix. The target is validated once and :math:`\sum D^2` summed
    once; for stress-1 on a dense target the draws go :data:`BATCH` at a time through one
    batched GEMM per row block (:func:`_stress1_batch`), with the same Gram formula, close-pair
    repair and half-triangle sums as :func:`petheory.geometry.stress`; other kinds call it per draw.
    """
    from petheory import geometry
    from petheory.geometry import stress_measures as sm

    D = geometry.check_distance_matrix(D, "target")
    d = v.integer("d", d, minimum=1)
    draws = v.integer("draws", draws, minimum=1)
    seed = v.integer("seed", seed, minimum=0)
    v.choice("kind", kind, sm.STRESS_KINDS)
    n = D.shape[0]
    T = sm._DenseRows(D)  # validated once, not once per draw
    tt = float(np.einsum("ij,ij->", D, D)) if kind == "stress1" else 0.0
    vals = np.empty(draws)
    for k0 in range(0, draws, BATCH):
        Xs = [np.random.default_rng(seed + k).standard_normal((n, d)) for k in range(k0, min(draws, k0 + BATCH))]
        if kind == "stress1" and tt > 0:  # (an all-zero target: geometry.stress says why stress-1 is undefined)
            vals[k0:k0 + len(Xs)] = _stress1_batch(Xs, T, tt)
        else:
            vals[k0:k0 + len(Xs)] = [sm._stress(sm._source(X, "X", True), T, kind) for X in Xs]
        if progress is not None:
            for k in range(k0, k0 + len(Xs)):
                progress(k + 1, draws)
    return NullReference(n=n, d=d, kind=kind, draws=draws, seed=seed, values=np.sort(vals))


#: Random tables per batched GEMM in :func:`random_table_null`.
BATCH = 8
#: Bytes of the (BATCH, b, n) distance block of one batch (a few L2s: b ~ 16-32 rows at n = 2048).
_BATCH_BYTES = 2**21


def _stress1_batch(Xs: list, T, tt: float) -> np.ndarray:
    r"""Stress-1 of each table in ``Xs`` (each (n, d)) against the dense target ``T``; shape (len(Xs),).

    For each row block ``[i0, i1)`` against columns ``i0:`` (the upper half; the target and the
    encoding distances are symmetric): one batched GEMM of the augmented rows
    :math:`[x_i, |x_i|^2, 1]\cdot[-2x_j, 1, |x_j|^2]` of every table, exactly as
    :class:`petheory.geometry.stress_measures._CoordRows` forms them (centred rows); a block of a
    table with a pair below the cancellation screen (close points) is recomputed by that class,
    which repairs those pairs from differences. :math:`\sum E^2` needs no distances:
    :math:`\sum_{i,j}\lVert x_i-x_j\rVert^2 = 2n\sum_i\lVert x_i-\bar x\rVert^2`. A draw whose
    fit is within 1e-3 (where stress-1's :math:`1-\cos^2` cancels) is recomputed by
    :func:`petheory.geometry.stress`, which then sums the residual directly.
    """
    from petheory.geometry import stress_measures as sm

    K, n = len(Xs), T.n
    C = [sm._CoordRows(X) for X in Xs]
    L = np.stack([c._L for c in C])  # (K, n, d + 2)
    R = np.stack([c._R for c in C])  # (K, d + 2, n)
    sq = np.stack([c.sq for c in C])  # (K, n)
    sqmax = sq.max(axis=1)
    ee = 2.0 * n * sq.sum(axis=1)  # sum over ordered pairs of |x_i - x_j|^2
    te = np.zeros(K)
    b = int(max(8, min(n, _BATCH_BYTES // (8 * n * K))))
    buf = np.empty(K * b * n)
    with sm._one_blas_thread():  # cache-sized GEMMs: threads only wait on each other (see geometry.stress)
        for i0 in range(0, n, b):
            i1 = min(n, i0 + b)
            bb, m = i1 - i0, n - i0
            D2 = np.matmul(L[:, i0:i1], R[:, :, i0:], out=buf[: K * bb * m].reshape(K, bb, m))
            rows, diag = np.arange(bb), np.arange(bb)
            D2[:, rows, diag] = np.inf
            low = D2.min(axis=2) <= sm._CANCEL * (sq[:, i0:i1] + sqmax[:, None])  # (K, bb): rows that may cancel
            D2[:, rows, diag] = 0.0
            E = np.sqrt(np.maximum(D2, 0.0, out=D2), out=D2)
            for k in np.flatnonzero(low.any(axis=1)):
                E[k] = C[k].rows(i0, i1, i0)  # exact repair of close pairs, as geometry.stress does
            Tb = T.rows(i0, i1, i0)
            te += np.einsum("kij,ij->k", E[:, :, :bb], Tb[:, :bb]) + 2.0 * np.einsum("kij,ij->k", E[:, :, bb:], Tb[:, bb:])
    out = np.empty(K)
    for k in range(K):
        s2 = 1.0 - te[k] * te[k] / (tt * ee[k]) if ee[k] > 0 else 1.0
        out[k] = sm._stress(C[k], T, "stress1") if s2 < 1e-3 else float(np.sqrt(min(max(s2, 0.0), 1.0)))
    return out


def equidistant_stress(D, *, kind: str = "stress1") -> float:
    """Stress of the equidistant geometry (every pair of positions at distance 1) against ``D``.

    It is what random tables approach as d grows; an encoding that does not beat it has found
    no positional structure the target holds.
    """
    from petheory import geometry

    D = geometry.check_distance_matrix(D, "target")
    E = 1.0 - np.eye(D.shape[0])
    return geometry.stress_between(E, D, kind=kind)


def target_warnings(D, details: dict | None = None, *, n_implicit: bool = False) -> list[str]:
    """Plain-language warnings about a target distance matrix ``D`` (n, n) and how it was built.

    ``details`` is the target's summary (:meth:`PositionalDistributions.summary`) when the target
    came from a corpus; ``n_implicit`` says that the number of positions was not given by the user.
    """
    from petheory import geometry

    D = geometry.check_distance_matrix(D, "target")
    n = D.shape[0]
    out = []
    off = D[np.triu_indices(n, 1)]
    scale = float(off.max()) if off.size else 0.0
    # Hellinger distances carry an absolute rounding error up to sqrt(gamma_V) (the square root of a
    # difference of V-term Gram sums; see geometry.hellinger_distances): "equal" and "= 1" within it.
    from petheory.rounding import gamma

    terms = int(details.get("V") or n) if details else n
    tol = float(np.sqrt(gamma(terms + 1))) * max(scale, 1.0)
    if off.size and float(off.max() - off.min()) <= tol:
        out.append(f"the target is degenerate: all {off.size} position pairs are at the same distance {scale:.4g}, "
                   "so every equidistant encoding (random high-dimensional tables included) fits it")
    elif details:
        disjoint = float(np.mean(off >= 1.0 - tol)) if off.size else 0.0
        if disjoint >= 0.5:
            out.append(f"{100 * disjoint:.0f}% of position pairs share no token (Hellinger distance 1): the target is "
                       "mostly equidistant; use a larger corpus, --max-vocab or --min-count")
    if details:
        obs, V = details.get("min_observations"), details.get("V")
        if obs is not None and V is not None and obs < V:
            out.append(f"the sparsest position has {obs} observations for {V} token types: its distribution is mostly "
                       "sampling noise; raise --min-count (or lower --max-vocab)")
        if n_implicit:
            out.append(f"n={n} was chosen implicitly (every position with >= {details.get('min_count', 1)} observations"
                       f"{', capped by the table' if details.get('capped_by_table') else ''}); pass --n and --min-count "
                       "to choose it")
    elif n_implicit:
        out.append(f"n={n} was chosen implicitly (all of the target's positions); pass --n to choose it")
    return out
