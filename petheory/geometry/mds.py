r"""Classical (Torgerson) MDS of a distance matrix, exact and top-k (cirrincione2026, Prop. 5, Algorithm 1), and SMACOF.

With :math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top`, the double-centred matrix
:math:`B = -\tfrac12 J D^{\circ 2} J = U\Lambda U^\top` gives the coordinates
:math:`X = U_r\Lambda_r^{1/2}` (Algorithm 1). :func:`hellinger_mds` does the same for Hellinger
distances without forming them; :func:`smacof` refines coordinates against raw stress.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp

from petheory._threads import blas_threads
from petheory._validate import SEED, Array, InstanceOf, Interval, StrOptions, validate_params
from petheory.geometry.block_lanczos import top_eigenpairs
from petheory.geometry.hellinger import DISTANCES, DISTRIBUTIONS, check_distance_matrix, sqrt_distributions
from petheory.rounding import eig_rank_tol, numerical_rank
from petheory.errors import ParameterError

#: A Lanczos seed: an integer >= 0, a Generator, or None (seed 0).
_SEED = [SEED, InstanceOf(np.random.Generator, "a numpy.random.Generator"), None]
#: A Lanczos tolerance: a finite real number >= 0.
_TOL = [Interval(Real, 0, None, closed="left")]

__all__ = ["gram_from_distances", "MDSResult", "classical_mds", "hellinger_mds", "smacof", "EXACT_MAX_N"]

#: Below this many positions :func:`classical_mds` uses the dense eigensolver by default.
EXACT_MAX_N = 512


@validate_params({"D": [DISTANCES]})
def gram_from_distances(D) -> np.ndarray:
    r"""The double-centred matrix :math:`B = -\tfrac12 J D^{\circ2} J`, shape (n, n) (cirrincione2026, Algorithm 1).

    :math:`B` is positive semidefinite exactly when ``D`` is Euclidean (Schoenberg 1935), and
    then :math:`B = XX^\top` for centred coordinates :math:`X`. Always :math:`B\mathbf 1 = 0`.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distances (validated by :func:`~petheory.geometry.hellinger.check_distance_matrix`).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        :math:`B` with :math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top`, symmetric.

    References
    ----------
    I. J. Schoenberg, "Remarks to Maurice Fréchet's article 'Sur la définition axiomatique d'une classe
    d'espaces distanciés vectoriellement applicables sur l'espace de Hilbert'", Annals of Mathematics 36
    (1935), 724-732.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])
    >>> B = gram_from_distances(np.linalg.norm(X[:, None] - X[None], axis=-1))
    >>> Xc = X - X.mean(axis=0)
    >>> np.allclose(B, Xc @ Xc.T), np.allclose(B.sum(axis=1), 0.0)  # Euclidean D: the Gram of centred X
    (True, True)
    """
    D = check_distance_matrix(D)
    D2 = D * D
    r = D2.mean(axis=1)
    B = D2
    B -= r[:, None]
    B -= r[None, :]
    B += r.mean()
    B *= -0.5
    return B


@dataclass(frozen=True)
class MDSResult:
    """Classical MDS of n positions.

    Attributes
    ----------
    embedding : ndarray, shape (n, rank)
        :math:`X = U_r\\Lambda_r^{1/2}` (each column's sign fixed: largest entry positive).
    eigenvalues : ndarray, shape (m,)
        Eigenvalues of B, descending: all n (``method='eigh'``) or the top ``m`` computed.
    rank : int
        Columns kept: positive eigenvalues above ``tol * max|lambda|``, at most the rank asked.
    requested_rank : int or None
    method : {'eigh', 'lanczos'}
    tol : float
        Relative threshold under which an eigenvalue counts as zero.
    negative : ndarray
        Eigenvalues below ``-tol * max|lambda|`` (D not Euclidean); complete only if
        ``complete``.
    truncated : ndarray
        Positive eigenvalues above the threshold that were not kept (``method='eigh'``).
    trace : float
        :math:`\\operatorname{tr} B = \\sum_i \\lambda_i`.
    frobenius : float or None
        :math:`\\lVert B\\rVert_F`; ``None`` where it was too costly to compute.
    complete : bool
        Whether the whole spectrum is known.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    rank: int
    requested_rank: int | None
    method: str
    tol: float
    negative: np.ndarray
    truncated: np.ndarray
    trace: float
    frobenius: float | None
    complete: bool

    @property
    def strain(self) -> float | None:
        r""":math:`\lVert B - XX^\top\rVert_F = \sqrt{\sum_{i>r}\lambda_i^2}` (Eckart--Young);
        from :math:`\lVert B\rVert_F` when the spectrum is incomplete (None if unknown)."""
        if self.complete:
            return float(np.sqrt(np.sum(self.eigenvalues[self.rank :] ** 2)))
        if self.frobenius is None:
            return None
        kept = self.eigenvalues[: self.rank]
        return float(np.sqrt(max(self.frobenius**2 - np.sum(kept**2), 0.0)))

    def summary(self) -> dict:
        lam_max = float(np.max(np.abs(self.eigenvalues))) if self.eigenvalues.size else 0.0
        return {
            "rank": self.rank,
            "requested_rank": self.requested_rank,
            "method": self.method,
            "eigenvalues_kept": self.eigenvalues[: self.rank].tolist(),
            "n_negative": int(self.negative.size) if self.complete else None,
            "most_negative": float(self.negative.min()) if self.negative.size else 0.0,
            "negative_mass": float(np.abs(self.negative).sum()),
            "n_truncated": int(self.truncated.size),
            "truncated_mass": float(self.truncated.sum()),
            "lambda_max": lam_max,
            "trace": self.trace,
            "strain": self.strain,
            "complete_spectrum": self.complete,
        }


def _fix_signs(U: np.ndarray) -> np.ndarray:
    idx = np.argmax(np.abs(U), axis=0)
    s = np.sign(U[idx, np.arange(U.shape[1])])
    s[s == 0] = 1.0
    return U * s


def _result_from_eigh(w, U, rank, tol_rel, trace, frob) -> MDSResult:
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    thr = tol_rel * max(float(np.max(np.abs(w))), np.finfo(float).tiny)
    npos = numerical_rank(w, thr, positive=True)
    r = npos if rank is None else min(rank, npos)
    X = _fix_signs(U[:, :r]) * np.sqrt(w[:r])
    return MDSResult(X, w, r, rank, "eigh", tol_rel, w[w < -thr], w[r:npos], trace, frob, True)


def _top_eigs(matmat, n: int, k: int, seed, tol: float = 1e-10, *, block: bool = True,
              matvec=None) -> tuple[np.ndarray, np.ndarray]:
    """The top ``k`` eigenpairs of the symmetric operator ``matmat``; the small dense work on one BLAS thread.

    ``block``: block Lanczos (one GEMM per pass, on the free cores), for an operator that reads an n x n
    matrix; else ARPACK's one-vector Lanczos (``eigsh``), for a cheap operator (sparse products), where the
    block method's orthogonalisation against its n x O(k) basis would cost more than the products it saves
    (hellinger_mds at n = 32768: 5x the CPU time, measured side by side) or a dense one on few cores
    (classical_mds: 1.8-21x, benchmarks/RESULTS.md). ``matvec``: ARPACK's one-vector product, when it has a
    cheaper form than a one-column ``matmat`` (a symmetric ``dsymv``). ``tol`` is checked by the public callers."""
    with blas_threads(1):
        if block:
            def threaded(X):
                with blas_threads(None):
                    return matmat(X)

            top = top_eigenpairs(threaded, n, k, tol=tol, seed=seed)
            return top.values, top.vectors
        from scipy.sparse.linalg import LinearOperator, eigsh

        mv = matvec or (lambda x: matmat(x.reshape(n, 1)).ravel())
        if matvec is not None and n >= THREADED_MATVEC_N:
            def mv(x, one=matvec):  # a dense product worth threads: on the free cores
                with blas_threads(None):
                    return one(x)

        op = LinearOperator((n, n), matvec=mv, matmat=matmat, dtype=np.float64)
        v0 = np.random.default_rng(0 if seed is None else seed).standard_normal(n)  # a Generator is used as is
        return eigsh(op, k=k, which="LA", v0=v0, tol=tol, ncv=min(n, max(2 * k + 1, 20)))


#: From this n a dense matrix-vector product runs on the free cores: top-8 MDS on 2 quiet cores took 454 ms on one
#: thread and 374 ms threaded at n = 4096, but 117 ms and 135 ms at n = 2048 (the thread switch costs more there).
THREADED_MATVEC_N = 4096


def _result_from_top(w, U, rank, tol_rel, trace, frob) -> MDSResult:
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    scale = max(float(np.max(np.abs(w))), np.finfo(float).tiny)
    if frob is not None:
        scale = max(scale, frob / math.sqrt(U.shape[0]))  # |lambda_max| >= ||B||_F / sqrt(n)
    thr = tol_rel * scale
    r = numerical_rank(w, thr, positive=True)
    X = _fix_signs(U[:, :r]) * np.sqrt(w[:r])
    return MDSResult(X, w, r, rank, "lanczos", tol_rel, np.empty(0), np.empty(0), trace, frob, False)


@validate_params({"D": [DISTANCES], "rank": [Interval(Integral, 1, None), None],
                  "method": [StrOptions(("auto", "eigh", "lanczos", "block"))], "seed": _SEED, "tol": _TOL})
def classical_mds(D, rank: int | None = None, *, method: str = "auto", seed=0, tol: float = 1e-10) -> MDSResult:
    r"""Classical (Torgerson) MDS of a distance matrix; cirrincione2026 Algorithm 1.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distances (validated by :func:`~petheory.geometry.hellinger.check_distance_matrix`).
    rank : int, optional
        Number of coordinates r. ``None`` keeps every positive eigenvalue (exact solver).
    method : {'auto', 'eigh', 'lanczos', 'block'}
        ``'eigh'``: dense symmetric eigensolver, all n eigenvalues, :math:`O(n^3)`.
        ``'lanczos'``: the top ``rank`` eigenpairs by ARPACK's Lanczos (``scipy.sparse.linalg.eigsh``)
        on the double-centred operator, one symmetric matrix-vector product (``dsymv``, half of
        :math:`D^{\circ2}` read) per step, B never formed.
        ``'block'``: the same operator by block Lanczos
        (:func:`petheory.geometry.block_lanczos.top_eigenpairs`), one GEMM per pass.
        ``'auto'``: ``'eigh'`` when ``rank`` is None or ``n <= 512``, else ``'lanczos'`` (measured on a quiet
        2-core machine, benchmarks/RESULTS.md "geometry": ``'lanczos'`` took 1.8-21x less time than ``'block'``
        at n = 1024-4096 and rank 2-32, the same eigenvalues to 1e-14; the block method pays only where a
        GEMM is many times faster per column than a matrix-vector product, i.e. on many cores).
    seed : int or numpy.random.Generator, optional
        Starting vector (block) of Lanczos (the result does not depend on it beyond rounding); None is seed 0.
    tol : float
        Lanczos stopping criterion: residual :math:`\lVert Bu-\theta u\rVert \le tol\,|\theta|`
        for each kept pair (ARPACK's, as ``scipy.sparse.linalg.eigsh(tol=...)``: ``'lanczos'`` stops on
        ARPACK's Ritz estimate of the residual, ``'block'`` computes it).
        Eigenvalues are then accurate to about :math:`\lVert r\rVert^2/\mathrm{gap}` (far below
        ``tol``), eigenvectors to :math:`\lVert r\rVert/\mathrm{gap}`; ``0`` asks for full precision.

    Returns
    -------
    MDSResult
        Embedding (n, r), eigenvalues, and what was discarded (negative and truncated
        eigenvalues, and the strain :math:`\lVert B-XX^\top\rVert_F` this leaves).

    Notes
    -----
    With :math:`B = -\tfrac12 J D^{\circ2} J = U\Lambda U^\top`, the embedding is
    :math:`X = U_r\Lambda_r^{1/2}` over the r largest positive eigenvalues. By Eckart--Young it
    minimises the *strain* :math:`\lVert B - XX^\top\rVert_F` over all (n, r) configurations
    whenever the kept eigenvalues are positive; it does **not** in general minimise Kruskal
    stress (see :func:`smacof`). Negative eigenvalues mean D is not Euclidean; they cannot be
    reproduced by any real encoding and are reported, not kept.
    The Lanczos paths apply :math:`BX = -\tfrac12(D^{\circ2}X - r\,\mathbf 1^\top X -
    \mathbf 1\,r^\top X + \bar r\,\mathbf 1\mathbf 1^\top X)` with the row means r of
    :math:`D^{\circ2}`: ARPACK to one vector at a time (``dsymv``; memory :math:`2n^2` floats, D and its square,
    plus ARPACK's ``max(2 rank + 1, 20)`` vectors), the block method to a block of ``max(2 rank, 16)``
    columns (one GEMM per pass; its basis at most ``48 n max(2 rank, 16)`` floats, at most :math:`n^2/2` beyond
    n = 2048). Either's steps grow when :math:`\lambda_r` is close to :math:`\lambda_{2r+1}` relative to the
    spread below, as on a flat sampling-noise floor. The ``lambda_{r+1}..`` not computed are summarised by
    ``trace`` and ``frobenius`` (closed form :math:`\lVert JAJ\rVert_F^2 = \lVert A\rVert_F^2
    - 2n\lVert r\rVert^2 + n^2\bar r^2`); the strain derived from them cancels when the kept
    eigenvalues carry almost all of :math:`\lVert B\rVert_F`. An eigenvalue is treated as zero
    below :math:`\gamma_{17n}\max|\lambda|` (forming B plus the eigensolver's backward error).

    See Also
    --------
    hellinger_distances, petheory.geometry.stress_measures.stress

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0]])
    >>> D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    >>> m = geometry.classical_mds(D)
    >>> m.rank, round(geometry.stress(m.embedding, D), 10)  # Euclidean: reproduced exactly
    (2, 0.0)
    """
    D = check_distance_matrix(D)
    n = D.shape[0]
    if rank is not None:
        if rank > n:
            raise ParameterError("rank", f"<= {n} (the positions of D)", rank, owner=classical_mds)
        rank = int(rank)
    tol = float(tol)
    if method == "auto":
        method = "eigh" if rank is None or n <= EXACT_MAX_N or rank >= n - 1 else "lanczos"
    if method != "eigh" and (rank is None or rank >= n - 1):
        raise ParameterError("method", f"'eigh' (or 'auto') unless rank is below n - 1 = {n - 1}: the Lanczos solvers "
                             "compute the top rank eigenpairs, never the full spectrum", method, owner=classical_mds)
    tol_rel = eig_rank_tol(n)
    D2 = D * D
    if method == "eigh":
        from scipy.linalg import eigh

        B = gram_from_distances(D)
        with blas_threads(None):  # the free cores: on a busy machine threads only wait at LAPACK's barriers
            w, U = eigh(B)
        return _result_from_eigh(w, U, rank, tol_rel, float(np.trace(B)), float(np.linalg.norm(B)))
    r = D2.mean(axis=1)
    rbar = float(r.mean())

    from scipy.linalg import blas

    D2T = D2.T  # D2 is symmetric: its transpose is the column-major view BLAS reads without a copy

    def matmat(X):  # B X = -1/2 (D2 X - r 1^T X - 1 r^T X + rbar 1 1^T X): one GEMM with D2, B never formed
        s = X.sum(axis=0)
        Y = blas.dgemm(1.0, D2T, X)  # scipy's BLAS: the one LAPACK uses here, not numpy's own build (1.4x at n = 4096)
        Y -= np.outer(r, s)
        Y -= (r @ X - rbar * s)[None, :]
        Y *= -0.5
        return Y

    # ||J A J||_F^2 = ||A||_F^2 - 2n||r||^2 + n^2 rbar^2 for symmetric A = D^2 with row means r
    flat = D2.ravel()
    frob2 = max(0.25 * (float(flat @ flat) - 2 * n * float(r @ r) + n * n * rbar * rbar), 0.0)
    if method == "block":
        w, U = _top_eigs(matmat, n, rank, seed, tol)
    else:
        def matvec(x):  # the same product for one vector: dsymv reads one triangle of D2
            x = np.ascontiguousarray(x.ravel())
            sx = float(x.sum())
            y = blas.dsymv(-0.5, D2T, x)
            y += (0.5 * sx) * r
            y += 0.5 * (float(r @ x) - rbar * sx)
            return y

        w, U = _top_eigs(matmat, n, rank, seed, tol, block=False, matvec=matvec)
    return _result_from_top(w, U, rank, tol_rel, n * rbar / 2.0, math.sqrt(frob2))


@validate_params({"P": DISTRIBUTIONS, "rank": [Interval(Integral, 1, None)], "seed": _SEED,
                  "atol": [Interval(Real, 0, None, closed="left"), None], "tol": _TOL})
def hellinger_mds(P, rank: int, *, seed=0, atol: float | None = None, tol: float = 1e-10) -> MDSResult:
    r"""Top-``rank`` classical MDS of the Hellinger distances of ``P``, without forming them.

    Parameters
    ----------
    P : ndarray (n, V), scipy.sparse (n, V), or PositionalDistributions
    rank : int
        Number of coordinates, ``1 <= rank < n - 1``.
    seed, tol
        As in :func:`classical_mds`.
    atol : float, optional
        Tolerance on the row sums of an array ``P``, as in :func:`hellinger_distances` (ignored for
        PositionalDistributions, whose rows come from their counts).

    Returns
    -------
    MDSResult
        As :func:`classical_mds` with ``method='lanczos'``.

    Notes
    -----
    For Hellinger distances :math:`D^{\circ 2} = \tfrac12(g\mathbf1^\top + \mathbf1 g^\top) - G`
    with :math:`G=\sqrt P\sqrt P^\top`, so :math:`B = -\tfrac12 JD^{\circ2}J = \tfrac12 JGJ`:
    classical MDS of Hellinger distances is PCA of the square-root distributions, B is
    positive semidefinite (Hellinger is Euclidean: no negative eigenvalues ever), and a product
    with B costs two sparse products with :math:`\sqrt P` -- O(nnz), never :math:`O(n^2)`.
    The eigenpairs come from ARPACK's Lanczos (``eigsh``): with products this cheap, one vector at a
    time beats a block. Memory is O(nnz + n * rank). ``frobenius`` is computed when the centred (n, V) root fits
    in 256 MiB (via the V x V Gram), else left ``None``.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> P = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.0, 0.0, 1.0]])
    >>> m = hellinger_mds(P, 2)
    >>> m.method, m.embedding.shape, m.eigenvalues.round(6)
    ('lanczos', (4, 2), array([0.75    , 0.271447]))
    >>> full = geometry.classical_mds(geometry.hellinger_distances(P))  # the same, from the dense distances
    >>> np.allclose(m.eigenvalues, full.eigenvalues[:2])
    True
    """
    root = sqrt_distributions(P, atol)
    n = root.n
    if rank > max(1, n - 2):
        raise ParameterError("rank", f"<= {max(1, n - 2)} (n - 2 for the n = {n} positions of P)", rank, owner=hellinger_mds)
    rank, tol = int(rank), float(tol)

    def matmat(X):
        Xc = X - X.mean(axis=0)
        Y = root.gram_matmat(Xc)
        return 0.5 * (Y - Y.mean(axis=0))

    g = root.diag()
    ones = np.ones((n, 1))
    trace = 0.5 * (g.sum() - float((ones.T @ root.gram_matmat(ones)).item()) / n)
    frob = None
    if n * root.V * 8 <= 256 * 2**20 and root.V <= 8192:
        R = root.S.toarray() if sp.issparse(root.S) else np.array(root.S)
        if root.a is not None:
            R += root.a[:, None]
        R -= R.mean(axis=0)
        frob = 0.5 * float(np.linalg.norm(R.T @ R))
    w, U = _top_eigs(matmat, n, rank, seed, tol, block=False)
    return _result_from_top(w, U, rank, eig_rank_tol(n), float(trace), frob)



@validate_params({"D": [DISTANCES], "X0": [Array(ndim=2)], "n_iter": [Interval(Integral, 0, None)]})
def smacof(D, X0, *, n_iter: int = 300, rtol: float = 1e-10) -> np.ndarray:
    r"""Refine coordinates by SMACOF (Guttman transforms), which lowers raw stress.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Target distances.
    X0 : array_like, shape (n, k)
        Start (e.g. the classical MDS embedding).
    n_iter : int
        Maximum number of Guttman transforms.
    rtol : float
        Stop when raw stress decreases by less than this fraction.

    Returns
    -------
    ndarray, shape (n, k)

    Notes
    -----
    De Leeuw's majorisation: :math:`X \leftarrow \tfrac1n B(X)X` with
    :math:`B(X)_{ij} = -D_{ij}/E_{ij}` (0 where :math:`E_{ij}=0`), :math:`B_{ii} = -\sum_{j\ne i}
    B_{ij}`; raw stress never increases. Used to show that classical MDS is not
    stress-optimal (cirrincione2026.hellinger_mds_optimal). :math:`O(n^2 k)` per iteration.

    Two points closer than the rounding of their coordinates (:math:`E_{ij} \le n k \epsilon
    \max|X|`, the error of one coordinate of the update) count as coincident. Points that coincide in
    exact arithmetic (a symmetric start, such as an MDS embedding that maps two positions to one
    point) then stay a stationary pair on every machine, where the exact-zero test left them together
    on one processor's BLAS and, at a last-bit distance, flung them apart (:math:`D_{ij}/E_{ij} \sim
    10^{16}`) on another.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> D = np.array([[0.0, 1.0, 1.0, 1.5], [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0], [1.5, 1.0, 1.0, 0.0]])
    >>> X0 = geometry.classical_mds(D, rank=1).embedding
    >>> X1 = smacof(D, X0)
    >>> X0.ravel().round(6) + 0.0, X1.ravel().round(6) + 0.0  # the outer points move apart
    (array([-0.75,  0.  ,  0.  ,  0.75]), array([-0.875,  0.   ,  0.   ,  0.875]))
    >>> round(geometry.stress(X0, D, kind='raw'), 6), round(geometry.stress(X1, D, kind='raw'), 6)
    (1.25, 1.125)
    """
    D = check_distance_matrix(D)
    X = np.array(X0, dtype=np.float64)  # a copy: the iterations write it
    n = D.shape[0]
    if X.shape[0] != n:
        raise ParameterError("X0", f"an array of {n} rows (the positions of D)", X0, owner=smacof)
    n_iter = int(n_iter)

    def raw(E):
        return 0.5 * float(np.sum((D - E) ** 2))

    from scipy.spatial.distance import cdist

    E = cdist(X, X)
    prev = raw(E)
    eps = np.finfo(float).eps
    for _ in range(n_iter):
        apart = E > n * X.shape[1] * eps * float(np.max(np.abs(X), initial=0.0))
        with np.errstate(divide="ignore", invalid="ignore"):
            R = np.where(apart, D / E, 0.0)
        Bm = -R
        Bm[np.diag_indices(n)] = R.sum(axis=1)
        X = Bm @ X / n
        E = cdist(X, X)
        cur = raw(E)
        if prev - cur <= rtol * max(prev, np.finfo(float).tiny):
            break
        prev = cur
    return X
