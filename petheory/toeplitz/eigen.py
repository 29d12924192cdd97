r"""Eigenvalues of Hermitian Toeplitz matrices: the dense reference and certified extremes.

:func:`extreme_eigenvalues` brackets ``lambda_min, lambda_max`` between a Rayleigh quotient and
the symbol's extreme (every eigenvalue of ``T_N(a)`` lies in ``[min a, max a]``: Grenander–Szegő
1958, the book gu2025 Thm 3.1 cites), found by a Davidson iteration preconditioned with Strang's
circulant.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import scipy  # scipy.fft loads at its first use (scipy's lazy submodules): report and --help never use it
import scipy.linalg as sla

from petheory import _validate as v
from petheory._threads import blas_threads
from petheory.toeplitz._common import _U, _WORKERS, _need_dense, _need_fft
from petheory.toeplitz.operators import ToeplitzOperator, coefficients
from petheory.errors import ValidationTypeError
from petheory.toeplitz.symbols import SymbolExtrema, symbol_extrema
from petheory.rounding import json_number


# ----------------------------------------------------------------------------- eigenvalues


def eigenvalues(c, r=None) -> np.ndarray:
    """All eigenvalues of a Hermitian Toeplitz matrix, ascending, shape (N,) — dense reference.

    Parameters
    ----------
    c : array_like, shape (N,)
        First column (real or complex).
    r : array_like, shape (N,), optional
        First row; if given it must be ``conj(c)`` (the matrix is Hermitian).

    Returns
    -------
    numpy.ndarray
        The N eigenvalues, ascending, float64.

    Notes
    -----
    ``scipy.linalg.eigvalsh`` on the dense matrix: ``O(N^3)`` time, ``O(N^2)`` memory, backward
    stable (each eigenvalue within about ``N u ||T||_2``).

    See Also
    --------
    extreme_eigenvalues

    References
    ----------
    Golub and Van Loan, *Matrix Computations*, §8.1 (symmetric eigenproblem, backward stability).

    Examples
    --------
    >>> from petheory import toeplitz
    >>> toeplitz.eigenvalues([2.0, 1.0]).round(6)
    array([1., 3.])
    """
    c, r = coefficients(c, r, hermitian=True)
    _need_dense(c.shape[0], c.itemsize, "all eigenvalues by dense eigvalsh", eig=True)
    return sla.eigvalsh(sla.toeplitz(c, r), check_finite=False)


@dataclass(frozen=True)
class EigenEstimate:
    """One extreme eigenvalue with its certificate.

    Attributes
    ----------
    value : float
        The Ritz value (a Rayleigh quotient, so ``lambda_min <= value`` for the minimum end's
        mirror and ``value <= lambda_max`` for the maximum).
    residual : float
        ``||T v - value v||_2`` for the unit Ritz vector ``v``: some eigenvalue of ``T`` lies
        within this distance of ``value`` (Weyl / Bauer–Fike for Hermitian matrices).
    bracket : (float, float)
        Rigorous interval holding the extreme eigenvalue: between the Rayleigh quotient and
        the symbol's extreme (every eigenvalue lies in ``[min a, max a]``).
    error_bound : float
        ``min(residual, bracket width)``.
    certificate : str
        ``'bracket'`` when the bracket is the tighter bound (rigorous for the extreme
        eigenvalue), ``'residual'`` otherwise (rigorous for *an* eigenvalue near ``value``;
        that it is the extreme one rests on the convergence of the iteration), ``'dense'``.
    iterations, matvecs : int
    converged : bool
    """

    value: float
    residual: float
    bracket: tuple[float, float]
    error_bound: float
    certificate: str
    iterations: int
    matvecs: int
    converged: bool

    def as_dict(self) -> dict:
        """The fields by name (``bracket`` as a list)."""
        return {
            "value": self.value,
            "residual": self.residual,
            "bracket": list(self.bracket),
            "error_bound": self.error_bound,
            "certificate": self.certificate,
            "iterations": self.iterations,
            "matvecs": self.matvecs,
            "converged": self.converged,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "EigenEstimate":
        """The estimate :meth:`as_dict` wrote.

        >>> e = EigenEstimate(1.0, 0.0, (1.0, 1.0), 0.0, "dense", 0, 0, True)
        >>> EigenEstimate.from_dict(e.as_dict()) == e
        True
        """
        return cls(json_number(d["value"]), json_number(d["residual"]), tuple(json_number(b) for b in d["bracket"]),
                   json_number(d["error_bound"]),
                   d["certificate"], d["iterations"], d["matvecs"], d["converged"])


class ExtremeEigenvalues(tuple):
    """``(lambda_min, lambda_max)``, carrying ``.min`` and ``.max``: :class:`EigenEstimate` each.

    Parameters
    ----------
    lo, hi : EigenEstimate
        The smallest and the largest eigenvalue.
    """

    min: EigenEstimate
    max: EigenEstimate

    def __new__(cls, lo: EigenEstimate, hi: EigenEstimate):
        obj = super().__new__(cls, (lo.value, hi.value))
        obj.min, obj.max = lo, hi
        return obj

    def __getnewargs__(self):
        return (self.min, self.max)

    def as_dict(self) -> dict:
        return {"lambda_min": self.min.as_dict(), "lambda_max": self.max.as_dict()}


def extreme_eigenvalues(
    c,
    r=None,
    *,
    rtol: float = 1e-8,
    atol: float = 0.0,
    maxiter: int = 200,
    dense_below: int = 128,
    n_grid: int | None = None,
    extrema: SymbolExtrema | None = None,
) -> ExtremeEigenvalues:
    r"""Smallest and largest eigenvalue of a Hermitian Toeplitz matrix of any size.

    Parameters
    ----------
    c : array_like, shape (N,)
        First column (real or complex).
    r : array_like, shape (N,), optional
        First row; if given it must be ``conj(c)``.
    rtol : float
        Target relative accuracy: stop when the error bound is at most
        ``max(rtol * |lambda|, atol, floor)``, ``floor = 8 log2(L) u max|a|`` being what the FFT
        matvec can resolve (see Notes).
    atol : float
        Absolute accuracy that suffices (useful for eigenvalues near zero, where a relative
        target is out of reach of any method).
    maxiter : int
        Most Davidson iterations per end. A :class:`RuntimeWarning` reports non-convergence,
        also when progress stalls (no 10% gain in 25 iterations).
    dense_below : int
        Use dense ``eigvalsh`` for ``N`` below this.
    n_grid : int, optional
        Symbol sampling grid (default: a power of two >= 8N).
    extrema : SymbolExtrema, optional
        ``symbol_extrema(c, n_grid=n_grid)`` when the caller already has it (it is the costliest
        step after the iteration at large N); it must be that of ``c``.

    Returns
    -------
    ExtremeEigenvalues
        Unpacks as ``lambda_min, lambda_max``; ``.min`` / ``.max`` hold the certificates
        (:class:`EigenEstimate`: residual, rigorous bracket, iterations).

    Notes
    -----
    Plain Lanczos stalls here because the eigenvalues near the symbol's extremes cluster with
    gaps of order ``1/N^2``. This routine uses the structure instead, per end (the minimum is
    the maximum of ``-T``):

    1. *Symbol.* Sample ``a`` by FFT on a grid of ``>= 8N`` points and refine its maximum by
       safeguarded Newton: ``theta*`` and ``U = max a`` with ``lambda_max <= U``.
    2. *Start.* The extreme eigenvector of ``T_N(a)`` near a quadratic maximum is close to the
       modulated sine ``e^{ij theta*} sin(pi (j+1)/(N+1))`` (a particle in a box); its Rayleigh
       quotient ``rho`` is within ``O(1/N^2)`` of ``lambda_max``, so for large ``N`` the rigorous
       bracket ``[rho, U]`` is often already below tolerance.
    3. *Davidson.* Otherwise, generalised Davidson with the preconditioner
       ``(sigma I - S)^{-1}``, ``S`` Strang's circulant approximation of ``T`` (applied by FFT,
       ``sigma = U``), which approximates shift-and-invert about the extreme: ``T - S`` is
       small plus low rank for decaying coefficients, so the iteration count hardly grows with
       ``N``. Each step costs one FFT matvec, one circulant solve and an ``O(N m)`` Rayleigh–Ritz
       update (``m <= 10``). When progress stalls (slowly decaying or low-rank data, where the
       preconditioner is poor) the residual itself is added too and the subspace grows to 40,
       which turns the iteration into a thick-restarted Lanczos.
    4. *Certificate.* ``residual = ||T v - rho v||`` (some eigenvalue lies within it of ``rho``)
       and the rigorous bracket ``[rho, U]``; ``error_bound`` is the smaller.

    Caveats: the bracket relies on the symbol's maximum being found (all candidate peaks are
    refined unless there are more than 16); the residual bound says an eigenvalue is near
    ``rho`` but not, by itself, that it is the extreme one. Eigenvalues much smaller than the
    floor ``~ u log2(N) max|a|`` (e.g. ``lambda_min`` of a rank-deficient Gram) are resolved only
    to that absolute accuracy — as with any backward-stable method, dense included.

    See Also
    --------
    eigenvalues : every eigenvalue, dense.
    petheory.toeplitz.symbols.symbol_extrema : the range they lie in.

    Examples
    --------
    >>> from petheory import toeplitz
    >>> ev = toeplitz.extreme_eigenvalues([2.0, 0.5], rtol=1e-10)
    >>> bool(1.0 <= ev.min.value <= ev.max.value <= 3.0)  # inside the symbol's range [1, 3]
    True
    """
    c, r = coefficients(c, r, hermitian=True)
    rtol = v.real("rtol", rtol, positive=True)
    atol = v.real("atol", atol, nonnegative=True)
    maxiter = v.integer("maxiter", maxiter, minimum=0)
    n = c.shape[0]
    if n < max(2, int(dense_below)):
        _need_dense(n, c.itemsize, "extreme eigenvalues by dense eigvalsh (N < dense_below)", eig=True)
        w = sla.eigvalsh(sla.toeplitz(c, r), check_finite=False)
        err = (n + 2) * _U * float(np.max(np.abs(w)))
        lo = EigenEstimate(float(w[0]), 0.0, (float(w[0]) - err, float(w[0]) + err), err, "dense", 0, 0, True)
        hi = EigenEstimate(float(w[-1]), 0.0, (float(w[-1]) - err, float(w[-1]) + err), err, "dense", 0, 0, True)
        return ExtremeEigenvalues(lo, hi)
    # symbol grid (8N complex), FFT embedding, Strang eigenvalues and Davidson's (44, N) V and W blocks
    _need_fft(n, 64 * 8 + 96 + 32 + 4 * 44 * c.itemsize + 16 * c.itemsize, "extreme eigenvalues (Davidson, FFT matvecs)")
    T = ToeplitzOperator(c, r)
    if extrema is not None and not isinstance(extrema, SymbolExtrema):
        raise ValidationTypeError(f"extrema must be a SymbolExtrema (petheory.toeplitz.symbol_extrema(c)), got {type(extrema).__name__}")
    ext = symbol_extrema(c, n_grid=n_grid) if extrema is None else extrema  # certified max and min of the symbol: where to start, and the brackets
    strang = _strang_eigenvalues(c)
    # what the FFT matvec resolves: u log2(L) times the largest eigenvalue of the embedding
    floor = 8 * math.ceil(math.log2(T.L)) * _U * T.embedding_norm
    floor = max(floor, atol)
    with blas_threads(1):
        hi = _davidson_top(T, ext.argmax, ext.max, strang, +1.0, rtol, floor, maxiter)
        lo = _davidson_top(T, ext.argmin, -ext.min, strang, -1.0, rtol, floor, maxiter)
    return ExtremeEigenvalues(lo, hi)


def _strang_eigenvalues(c: np.ndarray) -> np.ndarray:
    """Eigenvalues of Strang's circulant (central diagonals of T, wrapped), real.

    For Hermitian ``T`` the circulant is Hermitian; eigenvalue ``j`` is the symbol truncated to
    ``|k| <= N/2`` at ``theta = -2 pi j / N`` (numpy's FFT sign), i.e. a sampled symbol. Shape
    (N,) for complex ``c``; for real ``c`` the circulant is real symmetric and only the
    ``N//2 + 1`` eigenvalues ``rfft`` pairs with are returned (the rest mirror them).
    """
    n = c.shape[0]
    s = np.zeros(n, dtype=c.dtype)
    h = n // 2
    s[: h + 1] = c[: h + 1]
    if n - h - 1 > 0:
        s[h + 1 :] = np.conj(c[1 : n - h][::-1])
    if not np.iscomplexobj(c):
        return scipy.fft.rfft(s, workers=_WORKERS).real
    return scipy.fft.fft(s, workers=_WORKERS).real


def _davidson_top(T: ToeplitzOperator, theta_star: float, U: float, strang, sign: float, rtol: float, floor: float,
                  maxiter: int) -> EigenEstimate:
    """Largest eigenvalue of sign*T (see extreme_eigenvalues' Notes); returns it for T (sign applied).

    ``theta_star`` is where the symbol of sign*T is largest and ``U`` that largest value (>= lambda_max).
    """
    n = T.n
    real = T.dtype.kind != "c"
    j = np.arange(n, dtype=np.float64)
    box = np.sin(np.pi * (j + 1) / (n + 1))
    if real:
        if min(abs(np.sin(theta_star)), 1.0) * n < 0.5:  # theta* at 0 or pi: one real mode
            X = (np.cos(j * theta_star) * box)[None, :]
        else:  # a symmetric symbol peaks at +-theta*: the cos and sin combinations
            X = np.stack([np.cos(j * theta_star) * box, np.sin(j * theta_star) * box])
    else:
        X = (np.exp(1j * j * theta_star) * box)[None, :]
    del j, box  # 8N bytes each: the basis below is the memory that matters
    dtype = np.float64 if real else np.complex128
    maxdim, keep = 10, 3  # grown to 40, 8 when progress stalls (see below)
    # rows: orthonormal basis, at most maxdim (a step adds <= 3 rows and restarts first when they would not fit);
    # grown with maxdim only when the iteration stalls: 8N bytes a row (16N complex), the largest memory here
    V = np.empty((maxdim, n), dtype=dtype)
    W = np.empty_like(V)  # rows: sign * T @ basis
    m = 0
    matvecs = 0

    Hm = np.zeros((40, 40), dtype=dtype)  # Rayleigh quotient V^H W, kept up to date as vectors come and go

    def add(Y):
        nonlocal m, matvecs
        for y in Y:
            y0 = np.linalg.norm(y)
            for _ in range(2):  # classical Gram-Schmidt, repeated only when it cancelled much (DGKS, 1/sqrt 2)
                if m:
                    Vm = V[:m]
                    y = y - ((Vm.conj() if not real else Vm) @ y) @ Vm  # no copy of a real basis
                nrm = np.linalg.norm(y)
                if nrm > 0.7071 * y0:
                    break
                y0 = nrm
            if nrm == 0 or not np.isfinite(nrm):
                continue
            V[m] = y / nrm
            W[m] = sign * T.apply_rows(V[m])
            col = (V[: m + 1].conj() if not real else V[: m + 1]) @ W[m]
            Hm[: m + 1, m] = col
            Hm[m, : m + 1] = col.conj()
            Hm[m, m] = col[m].real
            matvecs += 1
            m += 1

    add(X)
    if m == 0:
        raise RuntimeError("start vectors vanished")  # pragma: no cover
    history: list[float] = []
    it = 0
    while True:
        w, Y = np.linalg.eigh(Hm[:m, :m])
        w, Y = w[::-1], Y[:, ::-1]
        rho = float(w[0])
        nb = min(X.shape[0], m)
        R = (Y[:, :nb].T @ W[:m]) - w[:nb, None] * (Y[:, :nb].T @ V[:m])  # residuals of the nb best Ritz pairs
        res_vec = R[0]  # T x - rho x for the best Ritz vector x = Y[:, 0] @ V
        res = float(np.linalg.norm(res_vec))
        if rho > U:  # the symbol maximum was missed (cannot be below lambda_max); repair
            U = rho
        gap = U - rho
        target = max(rtol * abs(rho), floor)
        history.append(min(res, gap))
        stagnant = len(history) > 25 and min(history[-25:]) > 0.9 * min(history[:-25])
        if min(res, gap) <= target or it >= maxiter or stagnant:
            break
        sig = U + 0.01 * gap + floor
        d = np.abs(sig - sign * strang) + floor
        if real:  # a real symmetric circulant maps real to real: half-length transforms
            Tn = scipy.fft.irfft(scipy.fft.rfft(R, axis=-1, workers=_WORKERS) / d, n=n, axis=-1, workers=_WORKERS)
        else:
            Tn = scipy.fft.ifft(scipy.fft.fft(R, axis=-1, workers=_WORKERS) / d, axis=-1, workers=_WORKERS)
        stalled = len(history) >= 4 and history[-1] > 0.5 * history[-4]
        if stalled:  # the preconditioner is not helping: add the Krylov direction, keep a longer memory
            Tn = np.concatenate([Tn, res_vec[None, :]])
            if maxdim < 40:
                maxdim, keep = 40, 8
                V = np.concatenate([V, np.empty((maxdim - V.shape[0], n), dtype=dtype)])
                W = np.concatenate([W, np.empty_like(V[W.shape[0]:])])
        if m + Tn.shape[0] > maxdim:  # thick restart on the best Ritz vectors
            k, m_old = min(keep, m), m
            Vk, Wk = Y[:, :k].T @ V[:m], Y[:, :k].T @ W[:m]
            m = k
            V[:k], W[:k] = Vk, Wk
            Yk = Y[:, :k]
            Hm[:k, :k] = Yk.conj().T @ Hm[:m_old, :m_old] @ Yk  # = diag(w[:k]) up to rounding
        add(Tn)
        it += 1
    converged = min(res, gap) <= max(rtol * abs(rho), floor)
    if not converged:
        warnings.warn(
            f"extreme_eigenvalues: lambda_{'max' if sign > 0 else 'min'} not converged after {it} iterations "
            f"(error bound {min(res, gap):.3g} > target {max(rtol * abs(rho), floor):.3g}; pass atol= to accept "
            "an absolute accuracy for eigenvalues near zero)",
            RuntimeWarning,
            stacklevel=3,
        )
    cert = "bracket" if gap <= res else "residual"
    bracket = (rho, U) if sign > 0 else (-U, -rho)
    return EigenEstimate(sign * rho, res, (float(bracket[0]), float(bracket[1])), float(min(res, gap)), cert, it, matvecs, bool(converged))
