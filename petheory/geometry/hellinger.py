r"""Hellinger distances between positional distributions (cirrincione2026, Prop. 5), and distance-matrix checks.

.. math:: H(p_i, p_j) = \sqrt{1 - \textstyle\sum_v \sqrt{p_i(v)\,p_j(v)}}
          = \tfrac{1}{\sqrt2}\,\lVert\sqrt{p_i} - \sqrt{p_j}\rVert_2 \in [0, 1],

computed through the square-root Gram matrix :math:`G = \sqrt P\sqrt P^\top` as
:math:`H_{ij}^2 = (G_{ii}+G_{jj})/2 - G_{ij}`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real

import numpy as np
import scipy.sparse as sp

from petheory._memory import block_rows
from petheory._validate import Array, InstanceOf, Interval, validate_params
from petheory.geometry.distributions import PositionalDistributions
from petheory.rounding import gamma as _gamma
from petheory.errors import ParameterError, ValidationError

__all__ = ["SqrtDistributions", "sqrt_distributions", "hellinger_distances", "check_distance_matrix"]

#: What a set of distributions may be (a declaration's entry): an (n, V) array, a scipy.sparse matrix, or counts.
DISTRIBUTIONS = [Array(ndim=2), InstanceOf((sp.spmatrix, sp.sparray), "a scipy.sparse matrix"),
                 InstanceOf(PositionalDistributions, "a PositionalDistributions")]
#: A distance matrix as a declaration states it: square and numeric. Finiteness and the other rules of a distance
#: matrix are :func:`check_distance_matrix`'s, in one pass over D (no n x n mask).
DISTANCES = Array(ndim=2, square=True, finite=False)
#: A tolerance: a finite real number >= 0, or None for the rounding model's default.
ATOL = [Interval(Real, 0, None, closed="left"), None]


@dataclass(frozen=True)
class SqrtDistributions:
    r"""Square roots of n distributions as ``S + a 1^T``: sparse part plus a per-row floor.

    The rows :math:`\sqrt{p_i}` whose Gram gives the Hellinger distances (and, double-centred,
    the MDS matrix of :func:`petheory.geometry.hellinger_mds`); made by :func:`sqrt_distributions`.
    With smoothing :math:`\sqrt{p_{iv}} = a_i + s_{iv}` where :math:`a_i=\sqrt{\alpha/Z_i}` and
    :math:`s_{iv}` is zero off the observed support, so the Gram :math:`G=\sqrt P\sqrt P^\top`
    is :math:`SS^\top + V a a^\top + a\sigma^\top + \sigma a^\top` (:math:`\sigma = S\mathbf1`)
    without ever forming the dense (n, V) matrix.

    Attributes
    ----------
    S : numpy.ndarray or scipy.sparse.csr_matrix, shape (n, V)
        The sparse part :math:`s_{iv}` (zero off each row's observed support).
    a : numpy.ndarray, shape (n,), or None
        The per-row floor :math:`a_i = \sqrt{\alpha/Z_i}` (None without smoothing).
    V : int
        Vocabulary size (columns of the dense matrix never formed).
    """

    S: object  # ndarray or csr (n, V)
    a: np.ndarray | None
    V: int

    @property
    def n(self) -> int:
        return self.S.shape[0]

    def for_gram(self, budget: int = 256 * 2**20) -> SqrtDistributions:
        """A copy with a dense S when it fits in ``budget`` bytes: Gram blocks then run on BLAS
        (dense x dense), 10-100x faster than sparse kernels; otherwise self."""
        if sp.issparse(self.S) and self.S.shape[0] * self.S.shape[1] * 8 <= budget:
            return SqrtDistributions(self.S.toarray(), self.a, self.V)
        return self

    def _sigma(self) -> np.ndarray:
        return np.asarray(self.S.sum(axis=1)).ravel()

    def gram_rows(self, i0: int, i1: int) -> np.ndarray:
        if sp.issparse(self.S):
            # sparse (n, V) times a dense (V, b) block: O(nnz * b), dense output (a sparse x sparse
            # product would build an almost dense result in sparse format, ~10x slower)
            G = np.ascontiguousarray((self.S @ self.S[i0:i1].toarray().T).T)
        else:
            G = self.S[i0:i1] @ self.S.T
        if self.a is not None:
            a, s = self.a, self._sigma()
            G += self.V * np.outer(a[i0:i1], a) + np.outer(a[i0:i1], s) + np.outer(s[i0:i1], a)
        return G

    def diag(self) -> np.ndarray:
        if sp.issparse(self.S):
            g = np.asarray(self.S.multiply(self.S).sum(axis=1)).ravel()
        else:
            g = np.einsum("ij,ij->i", self.S, self.S)
        if self.a is not None:
            g = g + self.V * self.a**2 + 2 * self.a * self._sigma()
        return g

    def gram_matmat(self, X: np.ndarray) -> np.ndarray:
        Y = self.S @ (self.S.T @ X)
        Y = np.asarray(Y)
        if self.a is not None:
            a, s = self.a, self._sigma()
            Y = Y + self.V * np.outer(a, a @ X) + np.outer(a, s @ X) + np.outer(s, a @ X)
        return Y


def _check_probabilities(P, atol, owner) -> tuple[object, float]:
    """The rows of a declared (n, V) array or sparse matrix as distributions (the declaration checked its type, a
    dense array's shape and finiteness; a sparse one's are checked here); returns (float64 matrix, tolerance used).
    ``owner``: the public function whose ``P`` it is."""
    if sp.issparse(P):
        P = sp.csr_matrix(P)
        if P.shape[0] == 0 or P.shape[1] == 0:
            raise ParameterError("P", "non-empty", P, owner=owner)
        dtype = P.dtype if np.issubdtype(P.dtype, np.floating) else np.float64
        P = P.astype(np.float64)
        if not np.all(np.isfinite(P.data)):
            raise ParameterError("P", f"finite (found {int(np.sum(~np.isfinite(P.data)))} NaN/inf entries)", P,
                                 owner=owner)
        vals, rows = P.data, np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
        sums = np.asarray(P.sum(axis=1)).ravel()
    else:
        raw = np.asarray(P)
        dtype = raw.dtype if np.issubdtype(raw.dtype, np.floating) else np.float64
        P = np.asarray(raw, dtype=np.float64)
        vals, rows = P.ravel(), np.repeat(np.arange(P.shape[0]), P.shape[1])
        sums = P.sum(axis=1)
    if vals.size and vals.min() < 0:
        k = int(np.argmin(vals))
        raise ValidationError(f"P has negative entries (min {vals[k]:.3g} in row {rows[k]}); probabilities must be >= 0")
    V = P.shape[1]
    # sum of V rounded quotients c_v/N: |fl(sum) - 1| <= gamma_{V+1} in the dtype the rows were made in
    tol = _gamma(V + 1, dtype) if atol is None else float(atol)
    dev = np.abs(sums - 1.0)
    if dev.max() > tol:
        k = int(np.argmax(dev))
        raise ValidationError(
            f"rows of P must sum to 1 (tolerance {tol:.2g} = gamma_(V+1) for V={V} in {np.dtype(dtype).name}); "
            f"row {k} sums to {sums[k]!r}; normalise the rows or build them with positional_distributions"
        )
    return P, tol


@validate_params({"P": DISTRIBUTIONS, "atol": ATOL})
def sqrt_distributions(P, atol=None) -> SqrtDistributions:
    """The square roots of the rows of ``P`` (ndarray or scipy.sparse (n, V), validated as distributions
    within ``atol`` as in :func:`hellinger_distances`, or PositionalDistributions, taken from the counts).

    Parameters
    ----------
    P : ndarray (n, V), scipy.sparse matrix (n, V), or PositionalDistributions
        Rows that are distributions (non-negative, summing to 1 within ``atol``), or counts per
        position: then :math:`\\sqrt{(c_{iv}+\\alpha)/(N_i+\\alpha V)}` from the counts and the
        smoothing :math:`\\alpha`, never the dense (n, V) probabilities.
    atol : float, optional
        Tolerance on the row sums (default :math:`\\gamma_{V+1}` in the dtype of ``P``); not used
        for PositionalDistributions.

    Returns
    -------
    SqrtDistributions
        ``S`` the square roots (sparse stays sparse, dense stays dense) and ``a = None``; from
        smoothed counts, ``S`` holds the roots minus the floor ``a`` (zero off the observed support)
        and ``a`` the per-row floor :math:`\\sqrt{\\alpha/(N_i+\\alpha V)}`.

    Raises
    ------
    petheory.errors.ParameterError
        ``P`` not a 2-D array of finite real numbers, a sparse matrix or PositionalDistributions (a sparse one
        empty or with NaN/inf entries), or ``atol`` negative.
    ValidationError
        Rows that are not distributions: negative entries or a row sum off 1 by more than ``atol``.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> r = sqrt_distributions(np.array([[1.0, 0.0], [0.25, 0.75]]))
    >>> r.n, r.V, r.S.round(4)
    (2, 2, array([[1.   , 0.   ],
           [0.5  , 0.866]]))
    >>> Q = geometry.positional_distributions(["a b", "a c", "b c"], smoothing=1.0)
    >>> r = sqrt_distributions(Q)  # S sparse, plus a floor a_i on every column
    >>> bool(np.allclose((r.S.toarray() + r.a[:, None]) ** 2, Q.probabilities()))
    True
    >>> sqrt_distributions(np.array([[0.5, 0.4]]))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: rows of P must sum to 1 (tolerance 3.3e-16 = gamma_(V+1) for V=2 in float64); ...
    """
    return _sqrt_distributions(P, atol, sqrt_distributions)


def _sqrt_distributions(P, atol=None, owner=None) -> SqrtDistributions:
    """:func:`sqrt_distributions` of a ``P`` and ``atol`` its caller ``owner`` declared."""
    if isinstance(P, PositionalDistributions):
        N = P.observations.astype(np.float64)
        C = P.counts.astype(np.float64).tocsr()
        Z = N + P.smoothing * P.V
        rowZ = np.repeat(Z, np.diff(C.indptr))
        if P.smoothing == 0:
            C.data = np.sqrt(C.data / rowZ)
            return SqrtDistributions(C, None, P.V)
        a = np.sqrt(P.smoothing / Z)
        C.data = np.sqrt((C.data + P.smoothing) / rowZ) - np.repeat(a, np.diff(C.indptr))
        return SqrtDistributions(C, a, P.V)
    P, _ = _check_probabilities(P, atol, owner)
    if sp.issparse(P):
        S = P.copy()
        S.data = np.sqrt(S.data)
        return SqrtDistributions(S, None, P.shape[1])
    return SqrtDistributions(np.sqrt(P), None, P.shape[1])


@validate_params({"P": DISTRIBUTIONS, "atol": ATOL})
def hellinger_distances(P, *, atol: float | None = None) -> np.ndarray:
    r"""Hellinger distances between the rows of ``P``, shape (n, n) (cirrincione2026, Prop. 5).

    Parameters
    ----------
    P : ndarray (n, V), scipy.sparse matrix (n, V), or PositionalDistributions
        Rows are distributions: non-negative, summing to 1 within ``atol``.
    atol : float, optional
        Tolerance on the row sums. Default :math:`\gamma_{V+1}` in the dtype of ``P``: the
        rounding bound of V quotients summed (Higham 2002, Lemma 3.1).

    Returns
    -------
    ndarray, shape (n, n)
        :math:`H_{ij} = \sqrt{(G_{ii}+G_{jj})/2 - G_{ij}}` with :math:`G = \sqrt P \sqrt P^\top`;
        symmetric, zero diagonal, entries in [0, 1].

    Notes
    -----
    Computed through the square-root Gram matrix in row blocks, so the temporaries stay at
    about 64 MiB whatever n and V (the output is n x n). Sparse rows are densified for BLAS
    when the (n, V) root fits in 256 MiB, and stay sparse otherwise; smoothing is handled as a
    per-row floor (:class:`SqrtDistributions`), never densified.
    Caveat: the squared distance is a difference of Gram entries, with absolute error about
    :math:`\gamma_V`; distances between nearly identical distributions below
    :math:`\sqrt{\gamma_V}\approx 10^{-8}\sqrt V` are not resolved (they may come out 0).

    See Also
    --------
    classical_mds : coordinates for these distances.
    positional_distributions : where P comes from.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> P = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
    >>> geometry.hellinger_distances(P).round(6)
    array([[0.      , 1.      , 0.541196],
           [1.      , 0.      , 0.541196],
           [0.541196, 0.541196, 0.      ]])
    """
    root = _sqrt_distributions(P, atol, hellinger_distances).for_gram()
    n = root.n
    g = root.diag()
    D = np.empty((n, n))
    b = block_rows(n, max(n, root.V), copies=3)
    for i0 in range(0, n, b):
        i1 = min(n, i0 + b)
        D2 = 0.5 * (g[i0:i1, None] + g[None, :]) - root.gram_rows(i0, i1)
        np.sqrt(np.maximum(D2, 0.0, out=D2), out=D[i0:i1])
    D += D.T  # the two triangles come from different dot products: make the result exactly symmetric
    D *= 0.5
    np.fill_diagonal(D, 0.0)
    return D


@validate_params({"D": [DISTANCES], "name": [InstanceOf(str, "a string")], "atol": ATOL})
def check_distance_matrix(D, name: str = "D", *, atol: float | None = None) -> np.ndarray:
    r"""Validate a distance matrix and return it exactly symmetric with a zero diagonal.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Finite, non-negative, symmetric, zero diagonal (within ``atol``), n >= 2.
    name : str, optional
        How the messages name the matrix.
    atol : float, optional
        Default :math:`\sqrt{\gamma_{n+1}}\max D`: distances of n points are realisable in
        n-1 dimensions, so a squared distance computed from coordinates or a Gram matrix
        carries an error up to :math:`\gamma_{n+1}\max D^2`, i.e. :math:`\sqrt{\gamma_{n+1}}
        \max D` on the distance itself.

    Returns
    -------
    ndarray, shape (n, n)
        float64, exactly symmetric (:math:`(D + D^\top)/2`) with a zero diagonal; ``D`` itself, not a
        copy, when it is a float64 array that already is.

    Raises
    ------
    petheory.errors.ParameterError
        Not a square array of real numbers, NaN/inf, fewer than 2 positions, or a negative ``atol``.
    ValidationError
        A negative entry, a diagonal entry or an asymmetry beyond ``atol`` (the message gives the entry).

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0 + 1e-12, 0.0]])
    >>> E = check_distance_matrix(D)  # asymmetry within atol: averaged away
    >>> bool(E[2, 1] == E[1, 2]), f"{E[2, 1] - 1:.1e}"
    (True, '5.0e-13')
    >>> check_distance_matrix(E) is E  # already exact: returned without a copy
    True
    >>> check_distance_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]), "E")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: E must be symmetric: E[1,0] = 2 but E[0,1] = 1 (tolerance 3.7e-08)
    """
    # The declaration checked the type and the shape (a public caller declares its own matrix the same way, in its
    # own word, first); the rules below are about the values, which ``name`` says in the caller's word: their
    # ParameterError has no owner (a check inside the library, whose name may be another function's word).
    D = np.asarray(D, dtype=np.float64)
    lo, scale = float(D.min()), float(D.max())
    if not (math.isfinite(lo) and math.isfinite(scale)):  # min/max propagate NaN and reach +-inf: one pass, no mask
        raise ParameterError(name, f"finite (found {int(D.size - np.count_nonzero(np.isfinite(D)))} NaN/inf entries)", D)
    n = D.shape[0]
    if n < 2:
        raise ParameterError(name, "a matrix of at least 2 positions", D)
    if lo < 0:
        i, j = np.unravel_index(int(np.argmin(D)), D.shape)
        raise ValidationError(f"{name} has a negative distance {name}[{i},{j}] = {D[i, j]:.3g}; distances must be >= 0")
    tol = math.sqrt(_gamma(n + 1)) * scale if atol is None else float(atol)
    if np.abs(np.diag(D)).max() > tol:
        i = int(np.argmax(np.abs(np.diag(D))))
        raise ValidationError(f"{name} must have a zero diagonal, got {name}[{i},{i}] = {D[i, i]:.3g}")
    exact, t = True, 16
    buf = np.empty((n, min(t, n)))  # reused: no allocation (and page faults) per block
    for i0 in range(0, n, t):  # row strip i0:i0+t right of the diagonal against its mirror column strip
        up = D[i0 : i0 + t, i0:]
        blk = buf[: n - i0, : up.shape[0]]
        np.copyto(blk, up.T)  # (n - i0, t): the transposed strip, contiguous, cache-resident
        blk -= D[i0:, i0 : i0 + t]
        m = float(np.abs(blk, out=blk).max())
        exact &= m == 0.0
        if m > tol:
            jj, ii = np.unravel_index(int(np.argmax(blk)), blk.shape)
            i, j = i0 + ii, i0 + jj
            raise ValidationError(
                f"{name} must be symmetric: {name}[{i},{j}] = {D[i, j]:.6g} but {name}[{j},{i}] = {D[j, i]:.6g} "
                f"(tolerance {tol:.2g})"
            )
    if exact and not np.any(np.diag(D)):
        return D  # already exactly symmetric with a zero diagonal: no copy
    D = 0.5 * (D + D.T)
    np.fill_diagonal(D, 0.0)
    return D
