r"""The top eigenpairs of a symmetric operator by block Lanczos: each pass over the matrix is one GEMM.

:func:`top_eigenpairs` is the eigensolver behind :func:`petheory.geometry.classical_mds` with
``method='block'`` (the default top-``rank`` path is ARPACK: on a quiet 2-core machine it took 1.8x less time
at n = 4096 and 2-21x less at n = 1024-2048, benchmarks/RESULTS.md "geometry"). ARPACK's Lanczos (``scipy.sparse.linalg.eigsh``)
multiplies by one vector at a time: on a dense n x n matrix each product streams the whole matrix
from memory for :math:`2n^2` flops, so it runs at the memory bandwidth. A block of ``b`` vectors reads the
matrix once for :math:`2n^2 b` flops (a GEMM, at the arithmetic rate), and the Krylov space of a block
separates the wanted eigenvalues from the ``b - k`` after them, not only from the next one: on a
spectrum whose wanted eigenvalues sit just above a flat floor (classical MDS of sampled positional
distributions) that gap is what decides the number of passes.

It pays where a product is expensive (a dense n x n matrix: the basis work, :math:`O(nmb)` per pass for a basis
of m columns, is small beside the GEMM's :math:`n^2 b`). Where a product is cheap (sparse, O(nnz)), that basis
work dominates and ARPACK's one vector at a time is faster: :func:`petheory.geometry.hellinger_mds` keeps
``eigsh`` (5x less CPU time at n = 32768, measured side by side).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from scipy.linalg import eigh

from petheory import _memory
from petheory._validate import SEED, InstanceOf, Interval, validate_params
from petheory.errors import ParameterError
from petheory.rounding import unit_roundoff

__all__ = ["TopEigenpairs", "top_eigenpairs", "default_block"]

_U = unit_roundoff()


@dataclass(frozen=True)
class TopEigenpairs:
    """The ``k`` largest eigenpairs found by :func:`top_eigenpairs`.

    Attributes
    ----------
    values : ndarray, shape (k,)
        Ritz values, descending.
    vectors : ndarray, shape (n, k)
        Orthonormal Ritz vectors.
    residuals : ndarray, shape (k,)
        :math:`\\lVert A u_i - \\theta_i u_i\\rVert_2`, computed from the stored products (not estimated).
    passes : int
        Products with a block (GEMMs with the operator).
    products : int
        Columns multiplied in all (``passes`` times the block size).
    restarts : int
        Thick restarts (the basis reached ``max_basis``).
    """

    values: np.ndarray
    vectors: np.ndarray
    residuals: np.ndarray
    passes: int
    products: int
    restarts: int


def default_block(n: int, k: int) -> int:
    """The block size: ``max(2k, 16)`` (at most n). Twice the wanted count, so the block's Krylov space
    separates the k-th eigenvalue from the ``(b+1)``-th, not the ``(k+1)``-th; at least 16, because
    below that a GEMM is still bound by reading the matrix (a pass costs about what 16 columns do).

    Parameters
    ----------
    n : int
        The matrix size.
    k : int
        How many extreme eigenpairs are wanted.

    Returns
    -------
    int
        The number of columns per block, ``min(n, max(2k, 16))``.

    Examples
    --------
    >>> default_block(4096, 8), default_block(4096, 2), default_block(10, 8)
    (16, 16, 10)
    """
    return min(n, max(2 * k, 16))


def _project_out(V: np.ndarray, W: np.ndarray) -> np.ndarray:
    """W minus its components in range(V), V orthonormal: classical Gram-Schmidt twice ("twice is enough")."""
    if V.shape[1]:
        for _ in range(2):
            W -= V @ (V.T @ W)
    return W


def _new_directions(V: np.ndarray, W: np.ndarray, b: int, scale: float, rng) -> np.ndarray:
    """``b`` orthonormal columns orthogonal to ``V``, spanning the dominant part of ``W`` (already orthogonal
    to ``V``), topped up with random directions where ``W`` has fewer than ``b`` above the rounding of
    ``scale`` (the norm ``W`` was projected from): an invariant subspace was reached."""
    n = V.shape[0]
    U, s, _ = np.linalg.svd(W, full_matrices=False)
    keep = min(b, int(np.sum(s > math.sqrt(_U) * max(scale, np.finfo(float).tiny))))
    Q = U[:, :keep]
    if keep < b or (keep and s[keep - 1] < 1e-3 * scale):
        # Random directions where W ran out, and one more projection: columns normalised from a small
        # remainder carry its rounding relative to their new unit length.
        Q = _project_out(V, np.hstack([Q, rng.standard_normal((n, b - keep))]))
        Q, _ = np.linalg.qr(Q)
    return Q


@validate_params({"matmat": ["callable"], "n": [Interval(Integral, 2, None)], "k": [Interval(Integral, 1, None)],
                  "tol": [Interval(Real, 0, None, closed="left")],
                  "seed": [SEED, InstanceOf(np.random.Generator, "a numpy.random.Generator"), None],
                  "block": [Interval(Integral, 1, None), None], "max_basis": [Interval(Integral, 1, None), None],
                  "max_passes": [Interval(Integral, 1, None), None]})
def top_eigenpairs(matmat, n: int, k: int, *, tol: float = 1e-10, seed=0, block: int | None = None,
                   max_basis: int | None = None, max_passes: int | None = None) -> TopEigenpairs:
    r"""The ``k`` algebraically largest eigenpairs of a symmetric n x n operator given by its products.

    Parameters
    ----------
    matmat : callable
        ``matmat(X)`` returns ``A @ X`` for ``X`` of shape (n, b), ``A`` symmetric.
    n, k : int
        Size and number of eigenpairs, ``1 <= k < n``.
    tol : float
        Stop when every wanted pair has :math:`\lVert Au_i-\theta_i u_i\rVert \le tol\cdot
        \max(|\theta_i|, \varepsilon^{2/3})`: ARPACK's criterion (``eigsh``'s ``tol``), here with the
        residual computed, not estimated. ``0`` asks for the rounding floor (see Notes).
    seed : int or numpy.random.Generator, optional
        Starting block (the result does not depend on it beyond rounding); None is seed 0.
    block : int, optional
        Block size b (default :func:`default_block`).
    max_basis : int, optional
        Basis columns kept before a thick restart (default ``min(n, 24 b, max(k + 2b, n / 4, 512))``: the basis and
        its products then take at most half the memory of an n x n matrix, beyond n = 2048).
    max_passes : int, optional
        Give up after this many block products (default ``max(100, 20 n / b)``): ``RuntimeError``.

    Returns
    -------
    TopEigenpairs

    Notes
    -----
    Block Lanczos with full reorthogonalisation and Rayleigh--Ritz after every pass: the basis V (n, m)
    and its products AV are kept, so the projected matrix :math:`H = V^\top AV`, the Ritz pairs and their
    residuals :math:`AVy - \theta Vy` cost O(n m k) per pass and no further product. Each new block is
    :math:`A` times the last one, orthogonalised against V by classical Gram--Schmidt twice; when the
    basis reaches ``max_basis`` it restarts thick (Stathopoulos & Saad's thick restart, the block form of
    Wu & Simon's): the best ``m/2`` Ritz vectors are kept with their products, and the next block spans
    their residuals. Each pass first gates on the Lanczos relation (:math:`AV = VH + W E^\top` with W
    the last block's remainder, so :math:`\lVert W y_{last}\rVert` is the residual of :math:`Vy`), then
    computes the residuals in full before returning. A residual computed from stored products cannot
    fall below the rounding of the products, about :math:`\sqrt n\,u\,\lVert A\rVert_F`
    (:math:`\lVert A\rVert_F` estimated from below by :math:`\lVert H\rVert_F`); the criterion is
    floored there (times 4), so ``tol=0`` stops at that floor.
    Convergence of the k-th pair goes with the gap between :math:`\lambda_k` and :math:`\lambda_{b+1}`
    (relative to the spread below), which is why b exceeds k.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.diag(np.arange(1.0, 101.0))
    >>> r = top_eigenpairs(lambda X: A @ X, 100, 3)
    >>> np.round(r.values, 10).tolist()
    [100.0, 99.0, 98.0]
    """
    n, k, tol = int(n), int(k), float(tol)
    for name, value, most in (("k", k, n - 1), ("block", block, n), ("max_basis", max_basis, n)):
        if value is not None and value > most:
            raise ParameterError(name, f"<= {most} ({'n - 1' if name == 'k' else 'n'} for n = {n})", value,
                                 owner=top_eigenpairs)
    b = default_block(n, k) if block is None else int(block)
    m_max = min(n, 24 * b, max(k + 2 * b, n // 4, 512)) if max_basis is None else int(max_basis)
    if m_max < min(n, k + 2 * b):
        raise ParameterError("max_basis", f">= k + 2 * block = {k + 2 * b} (or n = {n}) for k = {k} and block = {b}",
                             m_max, owner=top_eigenpairs)
    max_passes = max(100, (20 * n) // b) if max_passes is None else int(max_passes)
    _memory.require(_memory.array_bytes(n, m_max, itemsize=8) * 2 + _memory.array_bytes(m_max, m_max, itemsize=8),
                    f"block Lanczos basis (n = {n}, {m_max} columns and their products)",
                    alternative="a smaller max_basis or block")
    rng = np.random.default_rng(0 if seed is None else seed)  # a Generator is used as is
    V = np.empty((n, m_max), order="F")  # column-major: each block, and what matmat gets, is contiguous
    AV = np.empty((n, m_max), order="F")
    H = np.empty((m_max, m_max))
    eps23 = np.finfo(float).eps ** (2.0 / 3.0)
    rtol = max(tol, np.finfo(float).eps)
    m, passes, products, restarts = 0, 0, 0, 0
    w = min(b, m_max)
    Q, _ = np.linalg.qr(rng.standard_normal((n, w)))
    while True:
        # one pass: the new block's product, its column of H, and its Krylov remainder (I - V V^T) A Q
        AQ = matmat(np.asfortranarray(Q))
        V[:, m : m + w], AV[:, m : m + w] = Q, AQ
        C = V[:, : m + w].T @ AQ
        H[: m + w, m : m + w] = C
        H[m : m + w, :m] = C[:m].T
        m, passes, products = m + w, passes + 1, products + w
        Wr = AQ - V[:, :m] @ C  # first Gram-Schmidt pass, its coefficients being H's new column
        Wr -= V[:, :m] @ (V[:, :m].T @ Wr)  # the second
        scale = float(np.max(np.linalg.norm(AQ, axis=0)))
        if m >= k:
            Hm = 0.5 * (H[:m, :m] + H[:m, :m].T)
            full = m + min(b, n - m) > m_max  # no room for another block: restart after this Rayleigh-Ritz
            keep = max(k, min((m_max + 1) // 2, m_max - b)) if full else k
            theta, Y = eigh(Hm, subset_by_index=[m - keep, m - 1])
            theta, Y = theta[::-1], Y[:, ::-1]
            # rounding floor of a residual from stored products: sqrt(n) u ||A||_F, with ||H||_F <= ||A||_F
            crit = np.maximum(rtol * np.maximum(np.abs(theta[:k]), eps23),
                              4 * math.sqrt(n) * _U * float(np.linalg.norm(Hm)))
            # A V = V H + Wr E^T (E: the last block) up to rounding, so Wr y_last is the residual of V y:
            # a cheap gate; the residual is then computed in full before anything is returned.
            if m == n or np.all(np.linalg.norm(Wr @ Y[m - w : m, :k], axis=0) <= crit):
                R = AV[:, :m] @ Y[:, :k] - (V[:, :m] @ Y[:, :k]) * theta[:k]
                res = np.linalg.norm(R, axis=0)
                if m == n or np.all(res <= crit):
                    return TopEigenpairs(theta[:k].copy(), V[:, :m] @ Y[:, :k], res, passes, products, restarts)
            if passes >= max_passes:
                res = np.linalg.norm(AV[:, :m] @ Y[:, :k] - (V[:, :m] @ Y[:, :k]) * theta[:k], axis=0)
                raise RuntimeError(f"block Lanczos did not converge in {passes} passes (block {b}, n={n}, k={k}): "
                                   f"largest residual / tolerance {np.max(res / crit):.2e}")
            if full:  # thick restart: keep the best Ritz pairs with their products, continue from their residuals
                Vk, AVk = V[:, :m] @ Y, AV[:, :m] @ Y
                V[:, :keep], AV[:, :keep] = Vk, AVk
                H[:keep, :keep] = np.diag(theta)
                m, restarts = keep, restarts + 1
                Wr = _project_out(V[:, :m], AVk - Vk * theta)
        w = min(b, n - m, m_max - m)
        Q = _new_directions(V[:, :m], Wr, w, scale, rng)
