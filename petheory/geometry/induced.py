r"""The geometry each positional encoding induces on positions, and its stress against a target.

See the table in :mod:`petheory.geometry`: Euclidean distances of absolute vectors, the distance of
RoPE's rotations :math:`\lVert R_i - R_j\rVert_F`, and the logit gap or softmax-row Hellinger
distance of a bias. :func:`encoding_stress` compares one of them with a target (cirrincione2026,
Prop. 5: the stress of an encoding; the MDS encoding of Algorithm 1 is the reference).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from petheory import _memory
from petheory import encodings as enc
from petheory._validate import Array, InstanceOf, Interval, StrOptions, validate_params
from petheory.geometry.distributions import PositionalDistributions
from petheory.geometry.hellinger import DISTANCES, check_distance_matrix, hellinger_distances
from petheory.geometry.mds import classical_mds
from petheory.geometry.stress_measures import STRESS_FORMULAS, STRESS_KINDS, stress, stress_between
from petheory.rounding import gamma as _gamma, json_number
from petheory.softmax import row_softmax
from petheory.errors import NotAMetricError, ParameterError

__all__ = [
    "euclidean_distances",
    "rotary_distances",
    "bias_distances",
    "induced_distances",
    "BIAS_MAPS",
    "DEFAULT_BIAS_MAP",
    "StressReport",
    "target_distances",
    "encoding_stress",
    "FULL_SPECTRUM_MAX_N",
    "LARGE_N_RANK",
]

@validate_params({"X": [Array(ndim=2)]})
def euclidean_distances(X) -> np.ndarray:
    """Euclidean distances between the rows of an (n, d) encoding, shape (n, n).

    Parameters
    ----------
    X : array_like, shape (n, d)
        Absolute position vectors, one row per position.

    Returns
    -------
    numpy.ndarray, shape (n, n)
        :math:`\\lVert X_i - X_j\\rVert_2` (``scipy.spatial.distance.cdist``), with an exact zero diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> euclidean_distances(np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]]))
    array([[0., 3., 4.],
           [3., 0., 5.],
           [4., 5., 0.]])
    """
    return _euclidean(np.asarray(X, dtype=np.float64))


def _euclidean(X: np.ndarray) -> np.ndarray:
    """:func:`euclidean_distances` of a checked (n, d) float64 table (one the encodings built)."""
    from scipy.spatial.distance import cdist

    D = cdist(X, X)
    np.fill_diagonal(D, 0.0)
    return D


def rotary_distances(table) -> np.ndarray:
    r"""Distance between the rotations of RoPE positions, shape (n, n).

    Parameters
    ----------
    table : petheory.encodings.RotaryTable
        Angles ``(n, r/2)``; ``angles[p, t] = p * omega_t``.

    Returns
    -------
    ndarray, shape (n, n)
        :math:`\lVert R_i - R_j\rVert_F = \sqrt{8\sum_t\sin^2(\tfrac12(\theta_{it}-\theta_{jt}))}`.

    Notes
    -----
    :math:`R_i^\top R_j = R_{j-i}`, so this is the distance of the rotation kernel; it is
    the isotropic average :math:`\sqrt{r\,\mathbb E_q\lVert R_iq - R_jq\rVert^2}` over unit q,
    and :math:`\sqrt2` times the Euclidean distance of sinusoidal features with the same
    frequencies. The half-angle sine form avoids the cancellation of :math:`1-\cos`.
    A table with an additive absolute part (RoPE + absolute, ``table.additive``) is the pair
    :math:`(R_p, PE_p)`: :math:`\sqrt{\lVert R_i-R_j\rVert_F^2 + \lVert PE_i-PE_j\rVert^2}`.
    xPos's and YaRN's scales are not part of this geometry (it is the rotations').

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> D = rotary_distances(encodings.get('rope')(4, 4))
    >>> D.round(6)  # a function of |i - j| only
    array([[0.      , 1.356094, 2.380207, 2.821661],
           [1.356094, 0.      , 1.356094, 2.380207],
           [2.380207, 1.356094, 0.      , 1.356094],
           [2.821661, 2.380207, 1.356094, 0.      ]])
    >>> np.allclose(D, np.sqrt(2) * euclidean_distances(encodings.get('sinusoidal')(4, 4)))
    True
    """
    ang = np.asarray(table.angles, dtype=np.float64)  # (n, r/2)
    n, h = ang.shape
    D = np.empty((n, n))
    b = _memory.block_rows(n, n * max(h, 1), copies=2)
    for i0 in range(0, n, b):  # row blocks: (b, n, r/2) temporaries of about 64 MiB
        diff = ang[i0 : i0 + b, None, :] - ang[None, :, :]
        D[i0 : i0 + b] = np.sqrt(2.0 * np.sum(enc.chord_sq(diff), axis=2))  # ||R_i - R_j||_F^2 = 2 sum_t chord^2
    additive = getattr(table, "additive", None)  # RoPE + absolute (encodings.combinations): the pair (R_p, PE_p)
    if additive is not None:
        D = np.sqrt(D**2 + _euclidean(np.asarray(additive, dtype=np.float64)) ** 2)
    return D


BIAS_MAPS = ("gap", "hellinger")


@validate_params({"B": [Array(ndim=2, square=True)], "bias_map": [StrOptions(BIAS_MAPS)]})
def bias_distances(B, bias_map: str = "gap") -> np.ndarray:
    r"""Distance between positions induced by an attention logit bias, shape (n, n).

    Parameters
    ----------
    B : array_like, shape (n, n)
        Bias ``B[i, j]`` of query i and key j (one head; no causal mask folded in).
    bias_map : {'gap', 'hellinger'}
        ``'gap'``: :math:`\tfrac12(B_{ii}+B_{jj}-B_{ij}-B_{ji})`, the symmetrised logit gap;
        for ALiBi :math:`-m|i-j|` it is the line :math:`m|i-j|`. Must be non-negative.
        ``'hellinger'``: Hellinger distance between the attention rows
        :math:`\operatorname{softmax}(B_{i\cdot})`, :math:`\operatorname{softmax}(B_{j\cdot})`;
        always a metric, the choice for learned biases (T5 buckets, per-offset scalars).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        The distances: symmetric, non-negative, zero diagonal.

    Raises
    ------
    ValueError
        ``'gap'`` on a bias that rates some other key above the query's own position.

    Notes
    -----
    The gap map need not satisfy the triangle inequality for an arbitrary bias (then B of
    :func:`classical_mds` has negative eigenvalues, which are reported). The softmax rows are
    shifted by their maximum before exponentiation, so large biases do not overflow; a row
    whose bias spans more than ~745 underflows to exact zeros, which Hellinger handles.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> bias_distances(encodings.get('alibi')(3))  # ALiBi -|i - j|: the line |i - j|
    array([[0., 1., 2.],
           [1., 0., 1.],
           [2., 1., 0.]])
    >>> B = np.array([[0.0, 2.0], [0.0, 0.0]])  # query 0 prefers key 1 to itself
    >>> bias_distances(B, 'hellinger').round(6)
    array([[0.      , 0.303711],
           [0.303711, 0.      ]])
    >>> bias_distances(B)
    Traceback (most recent call last):
    ...
    petheory.errors.NotAMetricError: bias_map='gap' gives a negative distance -1 at (0,1): ...
    """
    return _bias_distances(np.asarray(B, dtype=np.float64), bias_map)


def _bias_distances(B: np.ndarray, bias_map: str) -> np.ndarray:
    """:func:`bias_distances` of a square float64 bias (a registered encoding's or a declared one) and a map in
    :data:`BIAS_MAPS`."""
    if bias_map == "hellinger":
        return hellinger_distances(row_softmax(B))
    dg = np.diag(B)
    G = 0.5 * (dg[:, None] + dg[None, :] - B - B.T)
    tol = _gamma(4) * float(np.abs(B).max())  # four operands, one rounding each
    if G.min() < -tol:
        i, j = np.unravel_index(int(np.argmin(G)), G.shape)
        raise NotAMetricError(
            f"bias_map='gap' gives a negative distance {G[i, j]:.3g} at ({i},{j}): the bias favours another key over "
            "the query's own position (as a learned bias may); use bias_map='hellinger'"
        )
    G = np.maximum(G, 0.0)
    np.fill_diagonal(G, 0.0)
    return G


#: Default bias map per registered bias encoding (others: 'gap').
DEFAULT_BIAS_MAP = {"alibi": "gap", "t5": "hellinger", "relative": "hellinger"}

#: An encoding as :func:`induced_distances` and :func:`encoding_stress` take it (a declaration's entry).
ENCODING = [InstanceOf(str, "a registered encoding name"), InstanceOf(enc.RotaryTable, "a RotaryTable"), Array(ndim=2)]


@validate_params({"encoding": ENCODING, "n": [Interval(Integral, 1, None), None],
                  "bias_map": [StrOptions(BIAS_MAPS), None]})
def induced_distances(encoding, n: int | None = None, d: int | None = None, *, bias_map: str | None = None, **params):
    r"""The distances an encoding induces on positions ``0..n-1``.

    Parameters
    ----------
    encoding : str, ndarray (N, d), or RotaryTable
        A registered name (``petheory encodings`` lists them), a loaded table of absolute
        vectors (``n`` <= N rows are used), or a rotary table.
    n, d : int
        Positions and model dimension (``d`` is ignored for bias encodings, and taken from a
        table's columns, where ``d`` must match if given).
    bias_map : {'gap', 'hellinger'}, optional
        For bias encodings; default per encoding (``DEFAULT_BIAS_MAP``: ALiBi 'gap', T5 and
        learned relative 'hellinger').
    **params
        Passed to the registered encoding function (``base``, ``slope``, ...).

    Returns
    -------
    D : ndarray, shape (n, n)
    geometry : str
        A one-line description of the geometry used (recorded in results).

    See Also
    --------
    encoding_stress

    Examples
    --------
    >>> from petheory import geometry
    >>> D, what = geometry.induced_distances('alibi', 3)
    >>> D  # ALiBi's logit gap: m |i - j|
    array([[0., 1., 2.],
           [1., 0., 1.],
           [2., 1., 0.]])
    >>> what
    'bias alibi: logit gap (B_ii+B_jj-B_ij-B_ji)/2'
    """
    return _induced_distances(encoding, n, d, bias_map, params, induced_distances)


def _induced_distances(encoding, n, d, bias_map, params: dict, owner):
    """:func:`induced_distances` of the arguments ``owner`` declared (``encoding``, ``n``, ``bias_map``)."""
    if isinstance(encoding, enc.RotaryTable):
        if n is not None and n != encoding.angles.shape[0]:
            raise ParameterError("n", f"{encoding.angles.shape[0]} (the rotary table's positions) or None", n, owner=owner)
        return rotary_distances(encoding), "rotary: ||R_i - R_j||_F over its frequencies"
    if isinstance(encoding, str):
        info = enc.info(encoding)
        if n is None:
            raise ParameterError("n", f"an integer >= 1 for the named encoding {encoding!r}", n, owner=owner)
        n = int(n)
        _require_distances(n)
        if info.kind == "bias":
            bm = bias_map or DEFAULT_BIAS_MAP.get(encoding, "gap")
            desc = {"gap": "logit gap (B_ii+B_jj-B_ij-B_ji)/2", "hellinger": "Hellinger between softmax attention rows"}[bm]
            return bias_distances(info.fn(n, **params), bm), f"bias {encoding}: {desc}"  # checks the encoding's bias
        if d is None:
            raise ParameterError("d", f"an integer >= 1 for the {info.kind} encoding {encoding!r}", d, owner=owner)
        if info.kind == "rotary":
            return rotary_distances(info.fn(n, d, **params)), f"rotary {encoding}: ||R_i - R_j||_F over its frequencies"
        return _euclidean(np.asarray(info.fn(n, d, **params), dtype=np.float64)), f"absolute {encoding}: Euclidean distance of the vectors"
    X = np.asarray(encoding, dtype=np.float64)
    N, dd = X.shape
    if d is not None and d != dd:
        raise ParameterError("d", f"{dd} (the encoding table's columns) or None", d, owner=owner)
    if n is None:
        n = N
    if n > N:
        raise ParameterError("n", f"<= {N} (the encoding table's positions)", n, owner=owner)
    n = int(n)
    _require_distances(n)
    return _euclidean(X[:n]), f"absolute table ({N}, {dd}): Euclidean distance of the first {n} rows"


def _require_distances(n: int) -> None:
    """Refuse an (n, n) distance matrix (and the Gram, MDS and stress work on it) that cannot fit."""
    _memory.require(_memory.array_bytes(n, n, itemsize=4 * 8), f"distance geometry of n = {n} positions (dense n x n)",
                    alternative="use a smaller n")


#: encoding_stress computes the full spectrum of the target (numerical rank) up to this n ...
FULL_SPECTRUM_MAX_N = 2048
#: ... and beyond it the top min(rank or LARGE_N_RANK, d) eigenpairs by Lanczos.
LARGE_N_RANK = 32


@dataclass(frozen=True)
class StressReport:
    """The stress of one encoding against one target, and the optimal encoding's numbers (:func:`encoding_stress`).

    Attributes
    ----------
    stress : float
        The encoding's stress against the target, by the formula ``kind`` names.
    kind : {'stress1', 'raw', 'strain'}
        The stress formula (:data:`petheory.geometry.stress_measures.STRESS_FORMULAS`; ``stress_formula`` writes it out).
    n : int
        Positions compared.
    d : int
        Columns of the encoding (its dimension).
    rank : int
        Rank of the optimal (classical MDS) encoding of the target.
    params_full : int
        ``n * d``: the entries of an (n, d) table.
    params_min : int
        ``rank * (n + d)``: the entries of its minimal parametrisation :math:`U V^\\top`.
    encoding : str
        The encoding's name (``'table'`` for an unnamed array).
    geometry : str
        How the encoding induces distances (Euclidean, rotary, a bias's logit gaps or Hellinger).
    target : str
        What the target is (its source, or the name given to a distance matrix).
    mds_stress : float
        Stress of the rank-``rank`` classical MDS encoding (the reference the paper calls optimal).
    mds : dict
        The MDS summary (``summary()`` of :class:`petheory.geometry.mds.MDSResult`, with all its eigenvalues).
    target_details : dict
        The target distributions' summary (corpus, counts, smoothing); empty for a distance matrix.
    """

    stress: float
    kind: str
    n: int
    d: int
    rank: int
    params_full: int
    params_min: int
    encoding: str
    geometry: str
    target: str
    mds_stress: float
    mds: dict
    target_details: dict = field(default_factory=dict)

    @property
    def stress_formula(self) -> str:
        """The stress formula ``kind`` names, written out."""
        return STRESS_FORMULAS[self.kind]

    def as_dict(self) -> dict:
        """The fields, with ``stress_formula`` after ``stress`` (the JSON of ``petheory stress``)."""
        return {
            "stress": self.stress,
            "stress_formula": self.stress_formula,
            "kind": self.kind,
            "n": self.n,
            "d": self.d,
            "rank": self.rank,
            "params_full": self.params_full,
            "params_min": self.params_min,
            "encoding": self.encoding,
            "geometry": self.geometry,
            "target": self.target,
            "mds_stress": self.mds_stress,
            "mds": self.mds,
            "target_details": self.target_details,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "StressReport":
        """The report :meth:`as_dict` wrote (``stress_formula`` must be the one ``kind`` names).

        >>> r = StressReport(0.5, "stress1", 8, 2, 2, 16, 20, "rope", "rotary", "t", 0.1, {})
        >>> StressReport.from_dict(r.as_dict()) == r
        True
        """
        kind, formula = d["kind"], d["stress_formula"]
        if kind not in STRESS_FORMULAS or formula != STRESS_FORMULAS[kind]:
            raise ValueError(f"a stress report of kind {kind!r} with stress_formula {formula!r}: expected one of "
                             f"{', '.join(STRESS_FORMULAS)} with its formula")
        return cls(json_number(d["stress"]), kind, d["n"], d["d"], d["rank"], d["params_full"], d["params_min"],
                   d["encoding"], d["geometry"], d["target"], json_number(d["mds_stress"]), d["mds"],
                   d["target_details"])


#: A target as :func:`target_distances` and :func:`encoding_stress` take it: distributions or a distance matrix.
TARGET = [InstanceOf(PositionalDistributions, "a PositionalDistributions"), DISTANCES]


@validate_params({"target": TARGET, "n": [Interval(Integral, 1, None), None]})
def target_distances(target, n: int | None = None) -> tuple[np.ndarray, str, dict]:
    """Target -> (distances (n, n), description, details). Accepts distributions or a distance matrix.

    Parameters
    ----------
    target : PositionalDistributions or array_like, shape (N, N)
        Positional distributions (their Hellinger distances are formed densely) or a distance matrix
        (validated by :func:`~petheory.geometry.hellinger.check_distance_matrix`).
    n : int, optional
        Keep the first ``n`` positions (default: all).

    Returns
    -------
    D : numpy.ndarray, shape (n, n)
        The target distances.
    description : str
        ``'hellinger:<source>'`` for distributions, ``'distances (N, N)'`` for a matrix.
    details : dict
        The distributions' summary (corpus, counts, smoothing, ...); empty for a matrix.

    Raises
    ------
    ValueError
        ``n`` larger than the target's positions, or an invalid distance matrix.

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0.0, 3.0, 4.0], [3.0, 0.0, 5.0], [4.0, 5.0, 0.0]])
    >>> target_distances(D, n=2)
    (array([[0., 3.],
           [3., 0.]]), 'distances (3, 3)', {})
    >>> from petheory import geometry
    >>> Dt, what, details = target_distances(geometry.builtin_target(), n=4)
    >>> Dt.shape, what
    ((4, 4), 'hellinger:builtin:petheory-builtin-reviews-v1')
    """
    return _target_distances(target, n, target_distances)


def _target_distances(target, n, owner) -> tuple[np.ndarray, str, dict]:
    """:func:`target_distances` of the arguments ``owner`` declared."""
    if isinstance(target, PositionalDistributions):
        if n is not None and n > target.n:
            raise ParameterError("n", f"<= {target.n} (the target's positions: what the corpus supports at min_count="
                                 f"{target.min_count})", n, owner=owner)
        _require_distances(target.n)
        D = hellinger_distances(target)
        desc, details = f"hellinger:{target.source}", target.summary()
    else:
        D = check_distance_matrix(target, "target")
        desc, details = f"distances ({D.shape[0]}, {D.shape[0]})", {}
        if n is not None and n > D.shape[0]:
            raise ParameterError("n", f"<= {D.shape[0]} (the target distance matrix's positions)", n, owner=owner)
    if n is not None:
        D = D[:n, :n]
    return D, desc, details


@validate_params({"encoding": ENCODING, "target": TARGET, "n": [Interval(Integral, 1, None), None],
                  "kind": [StrOptions(STRESS_KINDS)], "rank": [Interval(Integral, 1, None), None],
                  "bias_map": [StrOptions(BIAS_MAPS), None]})
def encoding_stress(
    encoding,
    target,
    *,
    n: int | None = None,
    d: int | None = None,
    kind: str = "stress1",
    rank: int | None = None,
    bias_map: str | None = None,
    name: str | None = None,
    target_name: str | None = None,
    **params,
) -> StressReport:
    r"""Stress of an encoding against a target geometry.

    Parameters
    ----------
    encoding : str, ndarray (N, d), or RotaryTable
        As in :func:`induced_distances`.
    target : PositionalDistributions or ndarray (n, n)
        Positional distributions (Hellinger geometry) or a distance matrix.
    n : int, optional
        Positions compared (default: all of the target's; fewer takes the first n).
    d : int, optional
        Model dimension: required for named absolute/rotary encodings, read from a table;
        for bias encodings it only sizes ``params_full``/``params_min`` (default 64).
    kind : {'stress1', 'raw', 'strain'}
        See :func:`stress`.
    rank : int, optional
        Rank of the optimal (MDS) encoding; default its numerical rank (positive
        eigenvalues above :math:`\gamma_{17n}\lambda_{max}`), capped at d. Beyond
        ``FULL_SPECTRUM_MAX_N = 2048`` positions only the top ``rank`` (default 32) eigenpairs are
        computed (Lanczos), so the default rank is then at most 32.
    bias_map : {'gap', 'hellinger'}, optional
        See :func:`bias_distances`.
    name, target_name : str, optional
        How to call the encoding and the target in the report.
    **params
        Passed to the registered encoding function (``base``, ``slope``, ...), as in :func:`induced_distances`.

    Returns
    -------
    StressReport

    Notes
    -----
    The target's Hellinger distances are formed densely (n x n), then the encoding's
    geometry (:func:`induced_distances`) is compared by :func:`stress_between`; the optimal
    encoding is the classical MDS of the target (full ``eigh`` up to 2048 positions). For
    larger n use :func:`hellinger_mds` and :func:`stress` with a PositionalDistributions
    target, which never store n x n.

    See Also
    --------
    induced_distances, petheory.geometry.optimal.mds_optimal

    Examples
    --------
    >>> from petheory import geometry
    >>> P = geometry.builtin_target()
    >>> round(geometry.encoding_stress('mds_optimal', P, d=64).stress, 6)
    0.0
    """
    Dt, tdesc, tdetails = _target_distances(target, n, encoding_stress)
    n = Dt.shape[0]
    if isinstance(encoding, str) and d is None and enc.info(encoding).kind == "bias":
        d = 64
    if not isinstance(encoding, (str, enc.RotaryTable)):  # a table (the declaration took it as a 2-D array)
        encoding = np.asarray(encoding, dtype=np.float64)
        if d is None:
            d = encoding.shape[1]
    if isinstance(encoding, enc.RotaryTable) and d is None:
        d = encoding.d
    De, geometry = _induced_distances(encoding, n, d, bias_map, params, encoding_stress)
    value = stress_between(De, Dt, kind=kind)
    if rank is not None:
        rank = int(rank)
    if n <= FULL_SPECTRUM_MAX_N:
        mds = classical_mds(Dt)
    else:  # the numerical rank needs all n eigenvalues: O(n^3); keep the top ones instead
        mds = classical_mds(Dt, rank=min(rank or LARGE_N_RANK, d, n - 2))
    r_opt = mds.rank if rank is None else min(rank, mds.rank)
    r_opt = min(r_opt, d)
    X = mds.embedding[:, :r_opt]
    mds_value = stress(X, Dt, kind=kind)
    label = name or (encoding if isinstance(encoding, str) else "table")
    summary = mds.summary()
    summary.pop("eigenvalues_kept")
    summary["eigenvalues"] = mds.eigenvalues.tolist()
    return StressReport(
        stress=value,
        kind=kind,
        n=n,
        d=int(d),
        rank=int(r_opt),
        params_full=int(n * d),
        params_min=int(r_opt * (n + d)),
        encoding=str(label),
        geometry=geometry,
        target=target_name or tdesc,
        mds_stress=mds_value,
        mds=summary,
        target_details=tdetails,
    )
