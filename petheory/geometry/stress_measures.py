r"""Stress between an encoding's distances and a target geometry (cirrincione2026, Prop. 5: "the stress").

The paper names the stress without its formula; the default here is Kruskal stress-1 with the optimal
scale (Kruskal 1964), with raw stress and strain as options; :data:`STRESS_FORMULAS` states each one,
and every result records which was used.
"""

from __future__ import annotations

import collections
import concurrent.futures
import math
import os

import numpy as np

from petheory import _memory  # CACHE_BYTES and BLOCK_BYTES read at call time (tests shrink them)
from petheory._threads import blas_threads
from petheory._validate import Array, InstanceOf, StrOptions, validate_params
from petheory.geometry.distributions import PositionalDistributions
from petheory.geometry.hellinger import DISTANCES, SqrtDistributions, check_distance_matrix, sqrt_distributions
from petheory.errors import ParameterError, ValidationError

__all__ = ["STRESS_FORMULAS", "STRESS_KINDS", "STRESS_LABELS", "stress", "stress_between", "stress_of_tables"]

#: The stress measures by name (``stress1``, ``strain``, ...), each with its formula in words: one table
#: for the docs, the CLI and the claims.
STRESS_FORMULAS = {
    "stress1": "sqrt( sum_{i<j} (D_ij - s*E_ij)^2 / sum_{i<j} D_ij^2 ), s* = sum D_ij E_ij / sum E_ij^2 "
    "(Kruskal stress-1 with the optimal scale; D target, E encoding distances; = sine of the angle between D and E)",
    "raw": "sum_{i<j} (D_ij - E_ij)^2 (raw stress, no scaling; D target, E encoding distances)",
    "strain": "|| B_D - B_E ||_F, B_M = -1/2 J M^2 J (strain; for coordinates X, B_E = (JX)(JX)^T)",
}
STRESS_KINDS = tuple(STRESS_FORMULAS)
#: Distances as :func:`stress` and :func:`stress_between` take them: a matrix, or distributions (Hellinger).
_DISTANCES_OR_DISTRIBUTIONS = [DISTANCES, InstanceOf(PositionalDistributions, "a PositionalDistributions")]
#: A coordinate table: (n, k), or (n,) for one coordinate.
_TABLE = Array(ndim=(1, 2))
#: One-line names of :data:`STRESS_FORMULAS`, for reports (``petheory stress``).
STRESS_LABELS = {
    "stress1": "Kruskal stress-1 with optimal scale, sqrt(sum (D - s*E)^2 / sum D^2)",
    "raw": "raw stress, sum_{i<j} (D - E)^2",
    "strain": "strain, ||B_D - B_E||_F",
}


class _DenseRows:
    def __init__(self, D):
        self.D, self.n = D, D.shape[0]

    def rows(self, i0, i1, j0=0):
        return self.D[i0:i1, j0:]


#: Below this fraction of |x_i|^2 + |x_j|^2 a Gram-based squared distance is recomputed from differences.
_CANCEL = 1e-3


class _CoordRows:
    r"""Distances between the rows of centred coordinates, by BLAS Gram blocks with exact repair.

    :math:`\lVert x_i-x_j\rVert^2 = |x_i|^2+|x_j|^2-2x_i\cdot x_j` has absolute error
    :math:`\le 2\gamma_{k+2}(|x_i|^2+|x_j|^2)`; where the result is below ``_CANCEL`` times that
    scale (close points, the diagonal) it is recomputed from differences, so every squared distance
    has relative error at most :math:`2\gamma_{k+2}/10^{-3}` (about 2e-12 for k = 8).
    A block is one GEMM of the augmented rows :math:`[x_i, |x_i|^2, 1]` against
    :math:`[-2x_j, 1, |x_j|^2]` (same error bound); rows are screened for repair by their smallest
    off-diagonal entry, so the elementwise test runs only on rows that may need it.
    """

    def __init__(self, X):
        # The Gram blocks use centred rows (smaller |x|^2, smaller cancellation); the exact repair of
        # close pairs uses the original rows: centring rounds each coordinate by ~u|x|, which would cost
        # a relative error of u|x|/|x_i - x_j| on exactly the pairs the repair is for.
        self.X0 = X
        self.X = X - X.mean(axis=0)
        self.n = X.shape[0]
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        one = np.ones((self.n, 1))
        # |x_i - x_j|^2 = [x_i, |x_i|^2, 1] . [-2 x_j, 1, |x_j|^2]: one GEMM per block, no n-wide temporaries
        self._L = np.hstack([self.X, self.sq[:, None], one])
        self._R = np.ascontiguousarray(np.hstack([-2.0 * self.X, one, self.sq[:, None]]).T)
        self._sqmax = float(self.sq.max()) if self.n else 0.0
        self._buf = None

    def rows(self, i0, i1, j0=0):
        """Distances of rows i0:i1 to rows j0: (``j0 <= i0``), shape (i1 - i0, n - j0); the block is a reused
        buffer, overwritten by the next call."""
        Xb, b, m = self.X0[i0:i1], i1 - i0, self.n - j0
        sq = self.sq[j0:]
        if self._buf is None or self._buf.size < b * m:
            self._buf = np.empty(b * self.n)  # reused: a fresh large block per call costs page faults
        D2 = np.matmul(self._L[i0:i1], self._R[:, j0:], out=self._buf[: b * m].reshape(b, m))
        diag = (np.arange(b), np.arange(i0 - j0, i1 - j0))
        D2[diag] = np.inf  # screen rows by their smallest off-diagonal entry (one cheap reduction)
        # D2_ij <= _CANCEL (|x_i|^2 + |x_j|^2) implies D2_ij <= _CANCEL (|x_i|^2 + max_j |x_j|^2)
        r = np.flatnonzero(D2.min(axis=1) <= _CANCEL * (self.sq[i0:i1] + self._sqmax))
        D2[diag] = 0.0
        if r.size:
            ci, bj = np.nonzero(D2[r] <= _CANCEL * (self.sq[i0 + r][:, None] + sq[None, :]))
            bi = r[ci]
            for c in range(0, bi.size, 1 << 20):  # bounded temporaries
                I, J = bi[c : c + (1 << 20)], bj[c : c + (1 << 20)]
                diff = Xb[I] - self.X0[j0 + J]
                D2[I, J] = np.einsum("ij,ij->i", diff, diff)
        return np.sqrt(D2, out=D2)  # every D2 <= 0 was recomputed from differences above


class _RootRows:
    def __init__(self, root: SqrtDistributions):
        root = root.for_gram()
        self.root, self.n, self.g = root, root.n, root.diag()
        self.width = max(root.n, root.V)  # a row block also holds its dense (b, V) square roots

    def rows(self, i0, i1):
        D2 = 0.5 * (self.g[i0:i1, None] + self.g[None, :]) - self.root.gram_rows(i0, i1)
        D = np.sqrt(np.maximum(D2, 0.0, out=D2), out=D2)
        D[np.arange(i1 - i0), np.arange(i0, i1)] = 0.0
        return D


def _source(M, name: str, coords: bool):
    """The row-block source of a declared argument ``M`` (coordinates, a distance matrix, or distributions), called
    ``name`` in the messages."""
    if isinstance(M, PositionalDistributions):
        return _RootRows(sqrt_distributions(M))
    if coords:
        X = np.asarray(M, dtype=np.float64)
        return _CoordRows(X.reshape(-1, 1) if X.ndim == 1 else X)
    return _DenseRows(check_distance_matrix(M, name))


def _same_positions(E, T, name: str, value, owner) -> None:
    """The rule between the two sides: as many positions in the encoding (``name``, given as ``value``) as in D."""
    if E.n != T.n:
        what = f"an array of {T.n} rows (the positions of D)" if name == "X" else f"a matrix of {T.n} positions (as D)"
        raise ParameterError(name, what, value, owner=owner)


def _stress(E, T, kind: str) -> float:
    """Stress between the encoding distances E and the target T (row-block sources of the same n; ``kind`` checked)."""
    n = E.n
    b = _memory.block_rows(n, max(getattr(E, "width", n), getattr(T, "width", n)), copies=6)
    cache_blocks = not isinstance(E, _RootRows) and not isinstance(T, _RootRows)
    if cache_blocks:
        b = min(b, max(8, _memory.CACHE_BYTES // (8 * n)))  # cache-resident row blocks: every pass stays in L2
    blocks = [(i0, min(n, i0 + b)) for i0 in range(0, n, b)]
    if cache_blocks and len(blocks) > 1:
        # Cache-sized GEMMs (b x k x n, b ~ 32) gain nothing from BLAS threads, and when the cores are busy
        # (pytest -n 2, a second job) OpenBLAS's threads wait on each other: n = 2048, k = 128 took 1.5 s
        # with 2 threads on 2 loaded cores and 0.11 s with one (same value, bit for bit). One thread here.
        with blas_threads(1):
            return _stress_blocks(E, T, kind, n, blocks)
    return _stress_blocks(E, T, kind, n, blocks)



def _stress_blocks(E, T, kind: str, n: int, blocks) -> float:
    if kind == "strain":
        rE, rT = np.empty(n), np.empty(n)
        for i0, i1 in blocks:
            rE[i0:i1] = (E.rows(i0, i1) ** 2).mean(axis=1)
            rT[i0:i1] = (T.rows(i0, i1) ** 2).mean(axis=1)
        mE, mT = rE.mean(), rT.mean()
        acc = 0.0
        for i0, i1 in blocks:
            BE = -0.5 * (E.rows(i0, i1) ** 2 - rE[i0:i1, None] - rE[None, :] + mE)
            BT = -0.5 * (T.rows(i0, i1) ** 2 - rT[i0:i1, None] - rT[None, :] + mT)
            acc += float(np.sum((BT - BE) ** 2))
        return math.sqrt(acc)
    if kind == "raw":
        return 0.5 * sum(float(np.sum((T.rows(i0, i1) - E.rows(i0, i1)) ** 2)) for i0, i1 in blocks)
    tt = ee = te = 0.0
    if len(blocks) > 1 and not isinstance(E, _RootRows) and not isinstance(T, _RootRows):
        # Both sides are symmetric (check_distance_matrix makes D exactly so; E is a distance matrix), so
        # half the pairs suffice: row block [i0, i1) against columns i0: -- its diagonal block whole (both
        # (i, j) and (j, i)), the columns right of it twice. Half the GEMM and half the passes.
        for i0, i1 in blocks:
            Tb, Eb, b = T.rows(i0, i1, i0), E.rows(i0, i1, i0), i1 - i0
            for part, w in ((np.s_[:, :b], 1.0), (np.s_[:, b:], 2.0)):
                t, e = Tb[part], Eb[part]
                tt += w * float(np.einsum("ij,ij->", t, t))
                ee += w * float(np.einsum("ij,ij->", e, e))
                te += w * float(np.einsum("ij,ij->", t, e))
        return _stress1(T, E, blocks, tt, ee, te)
    for i0, i1 in blocks:
        Tb, Eb = T.rows(i0, i1), E.rows(i0, i1)
        tt += float(np.einsum("ij,ij->", Tb, Tb))
        ee += float(np.einsum("ij,ij->", Eb, Eb))
        te += float(np.einsum("ij,ij->", Tb, Eb))
    return _stress1(T, E, blocks, tt, ee, te)


def _stress1(T, E, blocks, tt: float, ee: float, te: float) -> float:
    """Stress-1 from the sums of T^2, E^2 and T E over all pairs (i, j)."""
    if tt == 0:
        raise ValidationError("the target distances are all zero: stress-1 is undefined")
    if ee == 0:
        return 1.0  # an encoding that puts every position at one point: best scale s* = 0
    s2 = 1.0 - te * te / (tt * ee)
    if s2 < 1e-6:
        # 1 - cos^2 cancels when the fit is close: recompute the residual directly
        s = te / ee
        s2 = sum(float(np.sum((T.rows(i0, i1) - s * E.rows(i0, i1)) ** 2)) for i0, i1 in blocks) / tt
    return math.sqrt(min(max(s2, 0.0), 1.0))


@validate_params({"X": [_TABLE], "D": _DISTANCES_OR_DISTRIBUTIONS, "kind": [StrOptions(STRESS_KINDS)]})
def stress(X, D, *, kind: str = "stress1") -> float:
    r"""Stress of coordinates ``X`` against target distances ``D`` (cirrincione2026, Prop. 5).

    Parameters
    ----------
    X : array_like, shape (n, k)
        Coordinates of the n positions (an absolute encoding, an MDS embedding).
    D : array_like (n, n) or PositionalDistributions
        Target distances, or distributions whose Hellinger distances are the target (then
        computed in blocks, never stored: usable at n = 32768).
    kind : {'stress1', 'raw', 'strain'}
        ``'stress1'`` (default), Kruskal stress-1 with the optimal scale factor:

        .. math:: \sigma_1 = \min_{s}\sqrt{\frac{\sum_{i<j}(D_{ij} - s E_{ij})^2}
                  {\sum_{i<j} D_{ij}^2}}, \qquad s^* = \frac{\sum D_{ij}E_{ij}}{\sum E_{ij}^2},

        with :math:`E_{ij} = \lVert x_i - x_j\rVert`; equivalently
        :math:`\sigma_1 = \sin\angle(D, E)`, so it is symmetric in D and E, scale-free, and in
        [0, 1] (1 when E is constant zero). ``'raw'``: :math:`\sum_{i<j}(D_{ij}-E_{ij})^2`.
        ``'strain'``: :math:`\lVert B_D - (JX)(JX)^\top\rVert_F` with
        :math:`B_D = -\tfrac12 JD^{\circ2}J`.

    Returns
    -------
    float

    Notes
    -----
    Sums run over row blocks: cache-sized ones (about 512 KiB per temporary, reused, so no
    allocation per block) when both sides are in memory, about 64 MiB when the target is
    computed from distributions. Stress-1 uses
    :math:`1-\cos^2`, which cancels for near-perfect fits; below :math:`\sigma_1^2 = 10^{-6}`
    the residual is recomputed directly in a second pass. Encoding distances come from BLAS Gram
    blocks of the centred coordinates, with every squared distance below 1e-3 of its scale
    (close points, where the Gram formula cancels) recomputed from differences: relative error
    at most :math:`2\gamma_{k+2}\cdot 10^3`.

    See Also
    --------
    classical_mds, stress_between

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> D = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> geometry.stress(np.array([[0.0], [2.0]]), D)  # stress-1 is scale-free: 0
    0.0
    """
    E, T = _source(X, "X", True), _source(D, "D", False)
    _same_positions(E, T, "X", X, stress)
    return _stress(E, T, kind)


@validate_params({"D": [DISTANCES], "kind": [StrOptions(STRESS_KINDS)]})
def stress_of_tables(tables, D, *, kind: str = "stress1") -> np.ndarray:
    r"""Stress of every coordinate table in ``tables`` (an iterable of (n, k) arrays) against one target ``D`` (n, n).

    The same numbers as ``[stress(X, D, kind=kind) for X in tables]`` up to rounding, with ``D``
    validated and :math:`\sum D^2` summed once; for stress-1 each table goes through one GEMM per
    row block (see :func:`_stress1_batch`), tables in parallel on :data:`WORKERS` threads with one
    BLAS thread each (the blocks are cache-sized: BLAS threads inside one would only wait on each
    other; numpy releases the GIL in them), in order. Returns shape (len(tables),).

    Parameters
    ----------
    tables : iterable of array_like, each shape (n, k) or (n,)
        Coordinate tables of the n positions (a 1-D table is one coordinate); consumed once, in
        order, a few at a time, so a generator of many random tables need not fit in memory.
    D : array_like, shape (n, n)
        Target distances (validated by :func:`check_distance_matrix`).
    kind : {'stress1', 'raw', 'strain'}
        The measure, as in :func:`stress`; only ``'stress1'`` takes the batched path, the others
        call the one-table computation for each table.

    Returns
    -------
    ndarray, shape (len(tables),)
        float64, the stress of each table, in the order given.

    Raises
    ------
    ValidationError
        A table whose number of rows is not n, a bad ``D`` or ``kind``, or an all-zero ``D`` with
        ``kind='stress1'`` (stress-1 is undefined).

    See Also
    --------
    stress

    Examples
    --------
    >>> import numpy as np
    >>> D = np.array([[0.0, 1.0], [1.0, 0.0]])
    >>> stress_of_tables([np.array([[0.0], [2.0]])], D)
    array([0.])
    >>> from petheory import geometry
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    >>> tables = [X, 3 * X, np.array([[0.1, -0.1], [0.6, 0.1], [-0.5, 0.4]])]
    >>> stress_of_tables(tables, D).round(4)  # X scaled: still 0 (stress-1 is scale-free)
    array([0.   , 0.   , 0.152])
    >>> [round(geometry.stress(T, D), 4) for T in tables]  # the same as one table at a time
    [0.0, 0.0, 0.152]
    """
    T = _DenseRows(check_distance_matrix(D, "D"))
    tt = float(np.einsum("ij,ij->", T.D, T.D))

    def table(X):
        if _TABLE.failure(X) is not None or np.shape(X)[0] != T.n:
            raise ParameterError("tables", f"finite real (n, k) or (n,) arrays of n = {T.n} rows (the positions of D)",
                                 X, owner=stress_of_tables)  # a rule of each table, as it comes (a generator)
        X = np.asarray(X, dtype=np.float64)
        return X.reshape(-1, 1) if X.ndim == 1 else X

    if kind != "stress1" or tt == 0:  # (an all-zero target: _stress says why stress-1 is undefined)
        return np.asarray([_stress(_CoordRows(table(X)), T, kind) for X in tables], dtype=np.float64)
    out, pending = [], collections.deque()
    with blas_threads(1), concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        for X in tables:
            pending.append(pool.submit(_stress1_batch, [table(X)], T, tt))
            while len(pending) > 2 * WORKERS:  # a bounded number of tables in memory
                out.extend(pending.popleft().result())
        while pending:
            out.extend(pending.popleft().result())
    return np.asarray(out, dtype=np.float64)


#: Threads of :func:`stress_of_tables` (one table each; measured on 2 cores: one table per GEMM stack is
#: faster than batching 8, and two tables at a time on two threads faster than one table on two BLAS threads).
WORKERS = max(1, min(4, os.cpu_count() or 1))
#: Bytes of the (1, b, n) distance block of one table (a few L2s: b ~ 128 rows at n = 2048).
_BATCH_BYTES = 2**21


def _stress1_batch(Xs: list, T, tt: float) -> np.ndarray:
    r"""Stress-1 of each table in ``Xs`` (each (n, d)) against the dense target ``T``; shape (len(Xs),).

    For each row block ``[i0, i1)`` against columns ``i0:`` (the upper half; the target and the
    encoding distances are symmetric): one batched GEMM of the augmented rows
    :math:`[x_i, |x_i|^2, 1]\cdot[-2x_j, 1, |x_j|^2]` of every table, exactly as
    :class:`_CoordRows` forms them (centred rows); a block of a
    table with a pair below the cancellation screen (close points) is recomputed by that class,
    which repairs those pairs from differences. :math:`\sum E^2` needs no distances:
    :math:`\sum_{i,j}\lVert x_i-x_j\rVert^2 = 2n\sum_i\lVert x_i-\bar x\rVert^2`. A draw whose
    fit is within 1e-3 (where stress-1's :math:`1-\cos^2` cancels) is recomputed by
    :func:`petheory.geometry.stress`, which then sums the residual directly.
    """
    K, n = len(Xs), T.n
    C = [_CoordRows(X) for X in Xs]
    L = np.stack([c._L for c in C])  # (K, n, d + 2)
    R = np.stack([c._R for c in C])  # (K, d + 2, n)
    sq = np.stack([c.sq for c in C])  # (K, n)
    sqmax = sq.max(axis=1)
    ee = 2.0 * n * sq.sum(axis=1)  # sum over ordered pairs of |x_i - x_j|^2
    te = np.zeros(K)
    b = int(max(8, min(n, _BATCH_BYTES // (8 * n * K))))
    buf = np.empty(K * b * n)
    # the caller holds one BLAS thread (cache-sized GEMMs: BLAS threads would only wait on each other)
    for i0 in range(0, n, b):
        i1 = min(n, i0 + b)
        bb, m = i1 - i0, n - i0
        D2 = np.matmul(L[:, i0:i1], R[:, :, i0:], out=buf[: K * bb * m].reshape(K, bb, m))
        rows, diag = np.arange(bb), np.arange(bb)
        D2[:, rows, diag] = np.inf
        low = D2.min(axis=2) <= _CANCEL * (sq[:, i0:i1] + sqmax[:, None])  # (K, bb): rows that may cancel
        D2[:, rows, diag] = 0.0
        E = np.sqrt(np.maximum(D2, 0.0, out=D2), out=D2)
        for k in np.flatnonzero(low.any(axis=1)):
            E[k] = C[k].rows(i0, i1, i0)  # exact repair of close pairs, as geometry.stress does
        Tb = T.rows(i0, i1, i0)
        te += np.einsum("kij,ij->k", E[:, :, :bb], Tb[:, :bb]) + 2.0 * np.einsum("kij,ij->k", E[:, :, bb:], Tb[:, bb:])
    out = np.empty(K)
    for k in range(K):
        s2 = 1.0 - te[k] * te[k] / (tt * ee[k]) if ee[k] > 0 else 1.0
        out[k] = _stress(C[k], T, "stress1") if s2 < 1e-3 else float(np.sqrt(min(max(s2, 0.0), 1.0)))
    return out


@validate_params({"E": _DISTANCES_OR_DISTRIBUTIONS, "D": _DISTANCES_OR_DISTRIBUTIONS, "kind": [StrOptions(STRESS_KINDS)]})
def stress_between(E, D, *, kind: str = "stress1") -> float:
    """Stress between two distance matrices: encoding distances ``E`` and target ``D``, both (n, n).

    Same formulas as :func:`stress`; ``D`` may also be a PositionalDistributions.

    Parameters
    ----------
    E : array_like (n, n) or PositionalDistributions
        The encoding's distances (validated by :func:`check_distance_matrix`).
    D : array_like (n, n) or PositionalDistributions
        Target distances, or distributions whose Hellinger distances are the target (computed in
        row blocks, never stored).
    kind : {'stress1', 'raw', 'strain'}
        The measure, as in :func:`stress` (the strain double-centres both squared matrices).

    Returns
    -------
    float
        The stress; for ``'stress1'`` in [0, 1] and symmetric in ``E`` and ``D``.

    Raises
    ------
    ValidationError
        ``E`` and ``D`` of different sizes, a matrix that is not a distance matrix, an unknown
        ``kind``, or an all-zero ``D`` with ``kind='stress1'``.

    See Also
    --------
    stress : the same from coordinates.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> x = np.array([0.0, 1.0, 2.0])
    >>> E = np.abs(x[:, None] - x[None])  # three points on a line
    >>> stress_between(E, 2 * E), stress_between(E, 2 * E, kind="raw")  # raw: (1 - 2)^2 + (2 - 4)^2 + (1 - 2)^2
    (0.0, 6.0)
    >>> P = geometry.positional_distributions(["a b c", "a c b", "b a c"])
    >>> stress_between(geometry.hellinger_distances(P), P)  # D from the distributions, block by block
    0.0
    """
    Es, Ts = _source(E, "E", False), _source(D, "D", False)
    _same_positions(Es, Ts, "E", E, stress_between)
    return _stress(Es, Ts, kind)

