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
from numbers import Integral

import numpy as np

from petheory._validate import SEED, Interval, StrOptions, validate_params
from petheory.geometry.hellinger import DISTANCES, check_distance_matrix
from petheory.geometry.stress_measures import STRESS_KINDS, stress_between, stress_of_tables

#: Random tables per null reference (default). The percentile then has a resolution of 1/DRAWS
#: and the mean a standard error of :math:`sd/\sqrt{DRAWS}` (10% of the spread).
DRAWS = 100


@dataclass(frozen=True)
class NullReference:
    """Stress of ``draws`` random N(0, 1) tables of shape ``(n, d)`` against one target.

    :meth:`percentile` is the share of random tables (in %) whose stress is at most a given value:
    small is good (the encoding beats most random tables).

    Attributes
    ----------
    n, d : int
        The tables' shape (the encoding's).
    kind : {'stress1', 'raw', 'strain'}
        The stress formula.
    draws : int
        Random tables; table ``k`` drawn with ``numpy.random.default_rng(seed + k)``.
    seed : int
        The first table's seed.
    values : numpy.ndarray, shape (draws,)
        Their stress, sorted.
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


@validate_params({"D": [DISTANCES], "d": [Interval(Integral, 1, None)], "kind": [StrOptions(STRESS_KINDS)],
                  "draws": [Interval(Integral, 1, None)], "seed": [SEED], "progress": ["callable", None]})
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
        Seed of the first table.
    progress : callable, optional
        ``progress(done, draws)`` after each table (the CLI prints a line now and then for long work).

    Returns
    -------
    NullReference
        The tables' stresses, sorted.

    Notes
    -----
    Stress-1 is scale-free, so the N(0, 1) scale does not matter for it; raw stress and strain
    are not, and their null is for unit-variance entries. Cost: ``draws`` times one
    :math:`O(n^2 d)` distance matrix. The target is validated once and :math:`\sum D^2` summed
    once, and the draws go 8 at a time through one batched GEMM per row block
    (:func:`petheory.geometry.stress_measures.stress_of_tables`).

    Examples
    --------
    >>> import numpy as np
    >>> D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0)))
    >>> ref = random_table_null(D, 2, draws=5)
    >>> ref.draws, bool(np.all(np.diff(ref.values) >= 0))
    (5, True)
    """
    d, draws, seed = int(d), int(draws), int(seed)
    n = np.shape(D)[0]  # D's values are checked once, by stress_of_tables, before the first table is drawn

    def tables():
        for k in range(draws):
            yield np.random.default_rng(seed + k).standard_normal((n, d))
            if progress is not None:
                progress(k + 1, draws)

    vals = stress_of_tables(tables(), D, kind=kind)
    return NullReference(n=n, d=d, kind=kind, draws=draws, seed=seed, values=np.sort(vals))


@validate_params({"D": [DISTANCES], "kind": [StrOptions(STRESS_KINDS)]})
def equidistant_stress(D, *, kind: str = "stress1") -> float:
    """Stress of the equidistant geometry (every pair of positions at distance 1) against ``D``.

    It is what random tables approach as d grows; an encoding that does not beat it has found
    no positional structure the target holds.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Target distances.
    kind : {'stress1', 'raw', 'strain'}, optional
        As in :func:`petheory.geometry.stress`.

    Returns
    -------
    float
        The stress.

    Raises
    ------
    petheory.errors.ValidationError
        ``D`` is not a distance matrix.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0)))
    >>> round(equidistant_stress(D), 6)
    0.408248
    """
    D = check_distance_matrix(D)
    return stress_between(1.0 - np.eye(D.shape[0]), D, kind=kind)


@validate_params({"D": [DISTANCES]})
def target_warnings(D, details: dict | None = None, *, n_implicit: bool = False) -> list[str]:
    """Plain-language warnings about a target distance matrix ``D`` (n, n) and how it was built.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Target distances.
    details : dict, optional
        The target's summary (:meth:`petheory.geometry.distributions.PositionalDistributions.summary`) when it came from a corpus.
    n_implicit : bool, optional
        The number of positions was not given by the user.

    Returns
    -------
    list of str
        The warnings: a degenerate (equidistant) target, mostly disjoint positions, sparse positions, an implicit n.

    Raises
    ------
    petheory.errors.ValidationError
        ``D`` is not a distance matrix.

    Examples
    --------
    >>> import numpy as np
    >>> target_warnings(np.ones((3, 3)) - np.eye(3))[0][:54]
    'the target is degenerate: all 3 position pairs are at '
    """
    D = check_distance_matrix(D)
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
                       f"{', capped by the table' if details.get('capped_by_table') else ''}); pass --length and --min-count "
                       "to choose it")
    elif n_implicit:
        out.append(f"n={n} was chosen implicitly (all of the target's positions); pass --length to choose it")
    return out
