r"""Toeplitz matrices, their symbols and spectra (gu2025 §3.3, Thm 3.1; Grenander–Szegő 1958).

Convention (gu2025 Definition 3.1, SciPy): ``T[i, j] = a_{i-j}``. The first column ``c`` holds
``a_0, a_1, ..., a_{N-1}`` and the first row ``r`` holds ``a_0, a_{-1}, ..., a_{-(N-1)}``. When
``r`` is omitted the matrix is Hermitian, ``r = conj(c)``. The symbol of ``T_N`` is the
trigonometric polynomial

.. math:: a(\theta) = \sum_{k=-(N-1)}^{N-1} a_k e^{ik\theta},

real-valued exactly when ``T`` is Hermitian. Szegő's theorem says that for a fixed real continuous
symbol the eigenvalues of ``T_N(a)`` are distributed like the values of ``a`` as ``N`` grows;
every eigenvalue lies in ``[min a, max a]`` for every ``N``.

What is here:

* :func:`dense`, :func:`operator` — the matrix, and a :class:`ToeplitzOperator` with an
  ``O(N log N)`` FFT matvec (circulant embedding with a cached transform; 4–14× faster than
  ``scipy.linalg.matmul_toeplitz`` for repeated products, which re-embeds on every call).
* :func:`symbol`, :func:`symbol_extrema` and closed forms (:func:`alibi_symbol`,
  :func:`sinusoidal_gram_symbol`, :data:`KERNELS`).
* :func:`extreme_eigenvalues` — ``lambda_min, lambda_max`` of Hermitian Toeplitz matrices of
  any size, with a residual certificate; :func:`eigenvalues` is the dense reference.
* :func:`spectral_distribution` — empirical eigenvalue distribution vs the symbol's value
  distribution (Kolmogorov and Wasserstein distances), exact or by stochastic Lanczos quadrature.
* :func:`toeplitz_projection`, :func:`toeplitz_defect` — how far any matrix is from Toeplitz.
* :func:`phase_modulated_column`, :func:`lemma_b1` — gu2025 Lemma B.1's ``f`` (the symbol of
  ``W ∘ E``) and ``g`` (that of ``W``), with certified extremes.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.fft as sfft
import scipy.linalg as sla
from scipy.sparse.linalg import LinearOperator

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory.rounding import gamma as _gamma, unit_roundoff

__all__ = [
    "coefficients",
    "dense",
    "operator",
    "ToeplitzOperator",
    "symbol",
    "symbol_grid",
    "symbol_extrema",
    "SymbolExtrema",
    "alibi_symbol",
    "sinusoidal_gram_coefficients",
    "sinusoidal_gram_symbol",
    "KERNELS",
    "kernel",
    "phase_modulated_column",
    "lemma_b1",
    "LemmaB1",
    "eigenvalues",
    "extreme_eigenvalues",
    "ExtremeEigenvalues",
    "EigenEstimate",
    "spectral_distribution",
    "SpectralDistribution",
    "kolmogorov_distance",
    "wasserstein_distance",
    "toeplitz_projection",
    "toeplitz_defect",
    "gram_toeplitz_column",
    "rounding_defect",
]

_U = unit_roundoff()  # float64 unit roundoff, from the one rounding model


def _need_dense(n: int, itemsize: int, what: str, *, eig: bool = False) -> None:
    """Refuse an (N, N) dense matrix (and, with ``eig``, its eigvalsh workspace) that cannot fit."""
    _memory.require(
        _memory.array_bytes(n, n, itemsize=itemsize) * (2 if eig else 1),
        f"{what} (dense N x N, N = {n})",
        alternative="petheory.toeplitz.operator (FFT matvec), extreme_eigenvalues and spectral_distribution(method='slq') "
        "work in O(N) memory (CLI: petheory spectrum --method slq)",
        flops=(4.0 / 3.0) * float(n) ** 3 * (4 if itemsize > 8 else 1) if eig else None,
    )


def _need_fft(n: int, per_entry: int, what: str) -> None:
    """Refuse an FFT-based computation whose O(N) workspace (``per_entry`` bytes per N) cannot fit."""
    _memory.require(_memory.array_bytes(n, itemsize=per_entry), f"{what} (N = {n}, O(N) memory)",
                    alternative="use a smaller N")
_TINY = float(np.finfo(np.float64).smallest_subnormal)  # absolute rounding unit below the normal range


def _single_thread_blas():
    """Iterative solvers here do many small BLAS calls; threaded BLAS only adds latency to them
    (10x slower on a busy 2-core machine), so they run with one BLAS thread."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


# ----------------------------------------------------------------------------- coefficients


def coefficients(c, r=None, *, hermitian: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Validate Toeplitz data and return ``(c, r)`` as float64 or complex128 arrays, shape (N,).

    Parameters
    ----------
    c : array_like, shape (N,)
        First column ``a_0, a_1, ..., a_{N-1}``; real or complex, finite, non-empty.
    r : array_like, shape (N,), optional
        First row ``a_0, a_{-1}, ...``. Default ``conj(c)`` (Hermitian). ``r[0]`` is the same
        entry as ``c[0]`` and must equal it.
    hermitian : bool
        Require ``T`` to be Hermitian: ``c[0]`` real and ``r == conj(c)``.

    Raises
    ------
    ValueError, TypeError
        Empty, non-1-D, NaN/inf, ``len(r) != len(c)``, ``r[0] != c[0]``, or non-Hermitian data
        where Hermitian is required.
    """
    c = v.array("c", c, ndim=1, dtype="any")
    if r is None:
        if hermitian and np.iscomplexobj(c) and c[0].imag != 0:
            raise ValueError(
                f"c[0] must be real for a Hermitian Toeplitz matrix (it is the diagonal, c[0] = conj(r[0])); got {c[0]}"
            )
        r = np.conj(c)
        if np.iscomplexobj(c):
            r[0] = c[0]
        return c, r
    r = v.array("r", r, ndim=1, dtype="any")
    if r.shape != c.shape:
        raise ValueError(f"r must have the same length as c ({c.shape[0]}), got {r.shape[0]}")
    if hermitian:
        scale = float(np.max(np.abs(c)))
        tol = 4 * _U * scale
        if abs(c[0].imag) > tol or abs(r[0] - np.conj(c[0])) > tol:
            raise ValueError(
                f"c[0] != conj(r[0]) (got c[0]={c[0]}, r[0]={r[0]}): a Hermitian Toeplitz matrix has a real diagonal"
            )
        bad = np.abs(r - np.conj(c))
        if np.max(bad) > tol:
            k = int(np.argmax(bad))
            raise ValueError(
                f"Toeplitz data is not Hermitian: r[{k}]={r[k]} != conj(c[{k}])={np.conj(c[k])}; "
                "this needs a Hermitian matrix (omit r, or pass r = conj(c))"
            )
        c = c.copy()
        if np.iscomplexobj(c):
            c[0] = c[0].real
        r = np.conj(c)
        return c, r
    if r[0] != c[0]:
        raise ValueError(f"c[0] != r[0] (got {c[0]} and {r[0]}): both are the diagonal entry a_0")
    if np.iscomplexobj(r) and not np.iscomplexobj(c):
        c = c.astype(np.complex128)
    if np.iscomplexobj(c) and not np.iscomplexobj(r):
        r = r.astype(np.complex128)
    return c, r


def _is_hermitian(c: np.ndarray, r: np.ndarray) -> bool:
    return bool(np.all(r == np.conj(c)) or np.allclose(r, np.conj(c), rtol=0, atol=4 * _U * np.max(np.abs(c))))


def dense(c, r=None) -> np.ndarray:
    """The Toeplitz matrix ``T[i, j] = a_{i-j}``, shape (N, N).

    Parameters
    ----------
    c, r : array_like, shape (N,)
        First column and first row (default ``r = conj(c)``: Hermitian).

    Returns
    -------
    ndarray, shape (N, N)
        float64 when ``c`` and ``r`` are real, complex128 otherwise.
    """
    c, r = coefficients(c, r)
    _need_dense(c.shape[0], np.result_type(c, r).itemsize, "dense Toeplitz matrix")
    return sla.toeplitz(c, r)


# ----------------------------------------------------------------------------- FFT operator


class ToeplitzOperator(LinearOperator):
    """``T`` as a :class:`scipy.sparse.linalg.LinearOperator` with an FFT matvec, shape (N, N).

    Build with :func:`operator`. ``T @ x`` for ``x`` of shape (N,) or (N, m) costs two FFTs of
    length ``L >= 2N - 1`` per column; the transform of the embedding is computed once.

    Notes
    -----
    ``T`` is embedded in the circulant ``C`` of order ``L`` whose first column is
    ``[c, 0, ..., 0, r[N-1], ..., r[1]]``; ``C`` is diagonalised by the DFT, so
    ``T x = (C [x; 0])[:N] = ifft(fft(col) * fft([x; 0]))[:N]``. The result carries a normwise
    error of order ``u log2(L) ||a||_1 ||x||`` (FFT rounding; Higham 2002 §24.1), so entries much
    smaller than that relative to the largest are not resolved — unlike a dense product, whose
    error is componentwise.
    """

    def __init__(self, c: np.ndarray, r: np.ndarray):
        n = c.shape[0]
        self.n = n
        self.c, self.r = c, r
        self.hermitian = _is_hermitian(c, r)
        self._real = not (np.iscomplexobj(c) or np.iscomplexobj(r))
        self.L = sfft.next_fast_len(max(2 * n - 1, 1), real=self._real)
        col = np.zeros(self.L, dtype=np.result_type(c, r))
        col[:n] = c
        if n > 1:
            col[self.L - n + 1 :] = r[1:][::-1]
        self._fhat = sfft.rfft(col) if self._real else sfft.fft(col)
        super().__init__(dtype=col.dtype, shape=(n, n))

    def apply_rows(self, X: np.ndarray) -> np.ndarray:
        """``T`` applied to each row of ``X`` (shape (m, N)); returns shape (m, N).

        Rows are contiguous, so this is the fast layout for blocks of vectors.
        """
        X = np.asarray(X)
        n, L = self.n, self.L
        if self._real:
            if np.iscomplexobj(X):
                return self.apply_rows(X.real) + 1j * self.apply_rows(X.imag)
            return sfft.irfft(self._fhat * sfft.rfft(X, n=L, axis=-1), n=L, axis=-1)[..., :n]
        return sfft.ifft(self._fhat * sfft.fft(X, n=L, axis=-1), axis=-1)[..., :n]

    def _matvec(self, x):
        return self.apply_rows(np.ravel(x))

    def _matmat(self, X):
        return self.apply_rows(np.asarray(X).T).T

    def _adjoint(self):
        return ToeplitzOperator(np.conj(self.r), np.conj(self.c))

    def to_dense(self) -> np.ndarray:
        """The (N, N) matrix (for testing; O(N^2) memory)."""
        return sla.toeplitz(self.c, self.r)


def operator(c, r=None) -> ToeplitzOperator:
    """Toeplitz ``T`` as a LinearOperator with an ``O(N log N)`` FFT matvec.

    Parameters
    ----------
    c, r : array_like, shape (N,)
        First column and first row (default ``r = conj(c)``).

    Returns
    -------
    ToeplitzOperator
        Supports ``T @ x`` for ``x`` of shape (N,) or (N, m), ``T.H``, ``T.apply_rows(X)``
        for ``X`` of shape (m, N), and ``T.to_dense()``.

    Notes
    -----
    Circulant embedding of order ``L = next_fast_len(2N-1)`` with the transform of the embedding
    cached; see :class:`ToeplitzOperator` for the error model. Measured against
    ``scipy.linalg.matmul_toeplitz`` (which re-embeds on every call): 4.5x faster at N=4096, 14x at
    N=65536, 3.9x at N=2^20 per product (``benchmarks/RESULTS.md``, section toeplitz).
    """
    c, r = coefficients(c, r)
    _need_fft(c.shape[0], 96, "Toeplitz FFT operator")
    return ToeplitzOperator(c, r)


# ----------------------------------------------------------------------------- symbol


def _default_grid(n: int) -> int:
    return int(max(1024, 1 << int(math.ceil(math.log2(8 * n)))))


def symbol(c, r=None, theta=None, *, n_grid: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""The symbol :math:`a(\theta)=\sum_{|k|<N} a_k e^{ik\theta}` of ``T_N``.

    Parameters
    ----------
    c, r : array_like, shape (N,)
        First column and first row (default ``r = conj(c)``).
    theta : array_like, shape (m,), optional
        Where to evaluate. Default: the uniform grid ``2 pi j / n_grid``, ``j = 0..n_grid-1``,
        evaluated with one FFT.
    n_grid : int, optional
        Grid size when ``theta`` is omitted (default: a power of two >= max(1024, 8N)).

    Returns
    -------
    theta : ndarray, shape (m,)
    values : ndarray, shape (m,)
        Real (float64) for Hermitian data, complex otherwise.

    Notes
    -----
    On the grid, :math:`\sum_k c_k e^{ik\theta_j}` is an inverse FFT of the zero-padded ``c``
    (``n_grid >= N`` required), plus the same for ``r`` with :math:`e^{-ik\theta}`; error of
    order ``u log2(n_grid) ||a||_1``. At arbitrary points the sum is evaluated directly,
    ``O(N m)`` in chunks.
    """
    c, r = coefficients(c, r)
    n = c.shape[0]
    herm = _is_hermitian(c, r)
    if theta is None:
        m = _default_grid(n) if n_grid is None else v.integer("n_grid", n_grid, minimum=1)
        if m < n:
            raise ValueError(f"n_grid must be >= N={n} to sample the symbol without aliasing, got {m}")
        _memory.require(_memory.array_bytes(m, itemsize=64), f"symbol on a grid of {m} points (N = {n})",
                        alternative="pass a smaller n_grid, or theta= points to evaluate at")
        theta = 2 * np.pi * np.arange(m) / m
        return theta, _symbol_on_grid(c, r, m, herm)
    theta = v.array("theta", theta, ndim=1, dtype="real")
    return theta, _symbol_at(c, r, theta, herm)


def _symbol_on_grid(c, r, m, herm) -> np.ndarray:
    n = c.shape[0]
    z = np.zeros(m, dtype=np.complex128)
    z[:n] = c
    pos = sfft.ifft(z) * m  # sum_k c_k e^{+ik theta_j}
    if herm:
        return 2.0 * pos.real - float(np.real(c[0]))
    w = np.zeros(m, dtype=np.complex128)
    w[:n] = r
    neg = sfft.fft(w)  # sum_k r_k e^{-ik theta_j}
    return pos + neg - c[0]


def _symbol_at(c, r, theta, herm, chunk: int = 1 << 22) -> np.ndarray:
    n = c.shape[0]
    k = np.arange(n)
    out = np.empty(theta.shape[0], dtype=np.float64 if herm else np.complex128)
    step = max(1, chunk // max(n, 1))
    for s in range(0, theta.shape[0], step):
        e = np.exp(1j * np.outer(theta[s : s + step], k))  # (b, N)
        pos = e @ c
        if herm:
            out[s : s + step] = 2.0 * pos.real - float(np.real(c[0]))
        else:
            out[s : s + step] = pos + np.conj(e) @ r - c[0]
    return out


def symbol_grid(c, r=None, *, n_grid: int | None = None) -> np.ndarray:
    """Symbol values on the default uniform grid, shape (n_grid,) (see :func:`symbol`)."""
    return symbol(c, r, n_grid=n_grid)[1]


@dataclass(frozen=True)
class SymbolExtrema:
    """Minimum and maximum of a real symbol, where they are attained, and an error bound.

    ``error`` bounds ``|computed - true|`` for both extremes: rounding only when every
    candidate peak was refined (``certified``), else the grid's Taylor bound.
    """

    min: float
    max: float
    argmin: float
    argmax: float
    error: float
    certified: bool

    @property
    def range(self) -> float:
        return self.max - self.min


def _trig_eval(c: np.ndarray, theta: float, sign: float = 1.0) -> tuple[float, float, float]:
    """sign * (a, a', a'') at theta for the Hermitian symbol with first column c; O(N)."""
    k = np.arange(c.shape[0], dtype=np.float64)
    e = c * np.exp(1j * k * theta)
    a = 2.0 * float(np.sum(e).real) - float(np.real(c[0]))
    a1 = -2.0 * float(np.sum(k * e).imag)
    a2 = -2.0 * float(np.sum(k * k * e).real)
    return sign * a, sign * a1, sign * a2


def _refine_max(c: np.ndarray, theta0: float, h: float, sign: float, iters: int, noise: float) -> tuple[float, float, int]:
    """Safeguarded Newton on a' from a grid point; never returns a lower value than the start.

    Returns (theta, value, evaluations). Stops when the step is at rounding level or the value
    no longer changes by more than ``noise`` (flat regions, where Newton has nothing to find).
    """
    best_t = t = theta0
    best_a, a1, a2 = _trig_eval(c, theta0, sign)
    evals = 1
    for _ in range(iters):
        step = -a1 / a2 if a2 < 0 else math.copysign(h / 4, a1)
        step = max(-h, min(h, step))
        t = t + step
        val, a1, a2 = _trig_eval(c, t, sign)
        evals += 1
        gain = val - best_a
        if val >= best_a:
            best_a, best_t = val, t
        if abs(step) <= 8 * _U * max(1.0, abs(t)) or abs(gain) <= noise:
            break
    return best_t, best_a, evals


def _extrema_from_grid(c: np.ndarray, grid: np.ndarray, sign: float, *, max_candidates: int) -> tuple[float, float, float, bool]:
    """(argmax, max, error, certified) of sign*a from grid samples plus refinement.

    Every local maximum of ``sign*a`` lies within h/2 of a grid point, whose value is at most
    the Taylor slack ``h^2/8 max|a''|`` below it. So refining, best first, every grid local
    maximum that could still beat the best refined value finds the global maximum.
    """
    m = grid.shape[0]
    h = 2 * np.pi / m
    n = c.shape[0]
    k = np.arange(n, dtype=np.float64)
    slack = h * h / 8.0 * 2.0 * float(np.sum(k * k * np.abs(c)))
    g = sign * grid
    gmax = float(g.max())
    is_peak = (g >= np.roll(g, 1)) & (g >= np.roll(g, -1)) & (g >= gmax - slack)
    idx = np.flatnonzero(is_peak)
    idx = idx[np.argsort(g[idx])[::-1]]
    best_t, best = float(h * idx[0]), gmax
    # rounding in the direct evaluation of the symbol (n-term sums of |c_k|), plus the absolute
    # error of gradual underflow: the FFT scales by 1/m, which for tiny data lands in subnormals
    err = 2 * (n + 2) * _U * (2.0 * float(np.sum(np.abs(c)))) + 4.0 * m * _TINY
    # each evaluation is O(N): cap the total work at about 2^25 flops-worth of exponentials
    budget = max(24, (1 << 25) // n)
    refined = 0
    certified = True
    for i in idx:
        if g[i] + slack <= best:
            break  # this peak cannot beat the best refined one: done
        if refined == max_candidates or budget <= 0:
            certified = False
            break
        t, val, used = _refine_max(c, float(h * i), h, sign, iters=min(12, max(2, budget)), noise=err)
        budget -= used
        refined += 1
        if val > best:
            best_t, best = t, val
    if not certified:
        err += slack
    return best_t % (2 * np.pi), best, err, certified


def symbol_extrema(c, r=None, *, n_grid: int | None = None, max_candidates: int = 16) -> SymbolExtrema:
    """Minimum and maximum of the real symbol of a Hermitian Toeplitz matrix.

    Parameters
    ----------
    c : array_like, shape (N,)
        First column; ``r`` (if given) must be ``conj(c)``.
    n_grid : int, optional
        Sampling grid (default as :func:`symbol`).
    max_candidates : int
        Most grid peaks refined per extreme.

    Returns
    -------
    SymbolExtrema

    Notes
    -----
    Sample on a uniform grid by FFT, then refine by safeguarded Newton iteration every grid
    local extremum that could hide the global one (within the Taylor slack
    ``h^2/8 * 2 sum k^2 |a_k|`` of the grid extreme). When all such candidates are refined the
    result is exact up to rounding (``certified``); otherwise (very long, slowly decaying data)
    only the most promising candidates are refined and ``error`` includes the slack.
    """
    c, r = coefficients(c, r, hermitian=True)
    grid = symbol_grid(c, n_grid=n_grid)
    return _extrema(c, grid, max_candidates=max_candidates)


def _extrema(c: np.ndarray, grid: np.ndarray, *, max_candidates: int = 16) -> SymbolExtrema:
    tmax, amax, emax, cmax = _extrema_from_grid(c, grid, 1.0, max_candidates=max_candidates)
    tmin, amin_neg, emin, cmin = _extrema_from_grid(c, grid, -1.0, max_candidates=max_candidates)
    return SymbolExtrema(-amin_neg, amax, tmin, tmax, max(emax, emin), cmax and cmin)


# ----------------------------------------------------------------------------- closed forms


def alibi_symbol(theta, n: int, slope: float = 1.0) -> np.ndarray:
    r"""Symbol of the symmetric ALiBi bias ``T_n`` with ``a_k = -slope |k|``, shape of ``theta``.

    .. math:: a_n(\theta) = -2m\sum_{k=1}^{n-1} k\cos k\theta
              = -m\,\frac{n\cos((n-1)\theta) - (n-1)\cos(n\theta) - 1}{1-\cos\theta},

    with the limit :math:`-m\,n(n-1)` at :math:`\theta = 0`. The coefficients grow with ``|k|``,
    so ALiBi has no ``n``-independent symbol: Szegő's theorem does not apply to it as ``n`` grows.

    Notes
    -----
    The closed form cancels catastrophically near ``theta = 0`` (relative error about
    ``u n^2 / theta^2``); below ``|theta| < 1/n`` the direct sum is used instead.
    """
    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    m = v.real("slope", slope, nonnegative=True)
    t = np.mod(theta, 2 * np.pi)
    t = np.where(t > np.pi, t - 2 * np.pi, t)
    out = np.empty_like(t, dtype=np.float64)
    small = np.abs(t) < 1.0 / max(n, 1)
    big = ~small
    tb = t[big]
    out[big] = -m * (n * np.cos((n - 1) * tb) - (n - 1) * np.cos(n * tb) - 1.0) / (1.0 - np.cos(tb))
    if np.any(small):
        k = np.arange(1, n, dtype=np.float64)
        out[small] = -2.0 * m * (np.cos(np.outer(t[small], k)) @ k)
    return out


def sinusoidal_gram_coefficients(n: int, d: int, *, base: float = 10000.0) -> np.ndarray:
    r"""First column of the Gram ``P P^T`` of the sinusoidal PE: :math:`a_k=\sum_t\cos(k\omega_t)`, shape (n,).

    ``P P^T`` is exactly Toeplitz and symmetric for either layout (gu2025 Remark 3.2), since
    :math:`\sin(i\omega)\sin(j\omega)+\cos(i\omega)\cos(j\omega)=\cos((i-j)\omega)`.
    """
    from petheory import encodings as enc

    n = v.integer("n", n, minimum=1)
    w = enc.rope_frequencies(d, base=base)  # the same frequencies base^(-2t/d)
    _memory.require(_memory.array_bytes(n, w.size, itemsize=2 * 8), f"sinusoidal Gram coefficients (n = {n}, d = {d})")
    return np.cos(np.outer(np.arange(n, dtype=np.float64), w)).sum(axis=1)


def sinusoidal_gram_symbol(theta, n: int, d: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Symbol of the ``n x n`` sinusoidal Gram ``P P^T`` in closed form, shape of ``theta``.

    .. math:: a_n(\theta) = \tfrac12\sum_t \big[D_{n-1}(\theta-\omega_t) + D_{n-1}(\theta+\omega_t)\big],
              \quad D_m(x) = \frac{\sin((m+\frac12)x)}{\sin(x/2)},

    the Dirichlet kernel. It has peaks of height about ``n`` at :math:`\pm\omega_t`, so it does not
    converge as ``n`` grows (``P P^T`` has rank at most ``d``).
    """
    from petheory import encodings as enc

    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    w = enc.rope_frequencies(d, base=base)
    out = np.zeros_like(theta, dtype=np.float64)
    for om in w:
        for x in (theta - om, theta + om):
            out += 0.5 * _dirichlet(x, n - 1)
    return out


def _dirichlet(x: np.ndarray, m: int) -> np.ndarray:
    x = np.mod(x + np.pi, 2 * np.pi) - np.pi
    s = np.sin(x / 2)
    small = np.abs(s) < 1e-8
    out = np.empty_like(x)
    out[~small] = np.sin((m + 0.5) * x[~small]) / s[~small]
    # near 0: D_m(x) = (2m+1) - (m(m+1)(2m+1)/6) x^2 + O(x^4)
    xs = x[small]
    out[small] = (2 * m + 1) - m * (m + 1) * (2 * m + 1) / 6.0 * xs * xs
    return out


def _exp_coeffs(n, length):
    return np.exp(-np.arange(n, dtype=np.float64) / length)


def _exp_symbol(theta, length):
    rho = math.exp(-1.0 / length)
    return (1 - rho * rho) / (1 - 2 * rho * np.cos(theta) + rho * rho)


def _gauss_coeffs(n, length):
    k = np.arange(n, dtype=np.float64)
    return np.exp(-(k * k) / (2 * length * length))


def _gauss_symbol(theta, length):
    # Poisson summation: sum_k e^{-k^2/(2 l^2)} e^{ik t} = sqrt(2 pi) l sum_m e^{-l^2 (t - 2 pi m)^2 / 2}
    t = np.mod(np.asarray(theta, dtype=np.float64) + np.pi, 2 * np.pi) - np.pi
    mmax = int(math.ceil(6.0 / (2 * np.pi * length))) + 2
    out = np.zeros_like(t)
    for mm in range(-mmax, mmax + 1):
        out += np.exp(-(length**2) * (t - 2 * np.pi * mm) ** 2 / 2)
    return math.sqrt(2 * np.pi) * length * out


def _power_coeffs(n, length):
    # a_k = (1 + |k|/length)^(-2): continuous symbol with a kink (|theta|-type) at 0
    return (1.0 + np.arange(n, dtype=np.float64) / length) ** -2.0


@dataclass(frozen=True)
class Kernel:
    """A relative-position kernel ``a_k = kappa(|k|)`` with its symbol when one is known."""

    name: str
    formula: str
    coefficients: object  # (n, length) -> (n,)
    symbol: object | None  # (theta, length) -> values of the infinite-N symbol, or None

    def column(self, n: int, length: float) -> np.ndarray:
        n = v.integer("n", n, minimum=1)
        length = v.real("length", length, positive=True)
        _need_fft(n, 24, f"{self.name} kernel column")
        return self.coefficients(n, length)

    def symbol_values(self, theta, length: float) -> np.ndarray:
        if self.symbol is None:
            raise ValueError(f"kernel {self.name!r} has no closed-form symbol")
        length = v.real("length", length, positive=True)
        return self.symbol(v.array("theta", theta, dtype="real"), length)


#: Relative-position kernels with closed-form (N -> infinity) symbols where they exist.
KERNELS: dict[str, Kernel] = {
    "exponential": Kernel(
        "exponential",
        "a_k = exp(-|k|/length); symbol (1-rho^2)/(1-2 rho cos t + rho^2), rho = exp(-1/length) (Poisson kernel)",
        _exp_coeffs,
        _exp_symbol,
    ),
    "gaussian": Kernel(
        "gaussian",
        "a_k = exp(-k^2/(2 length^2)); symbol sqrt(2 pi) length sum_m exp(-length^2 (t-2 pi m)^2/2) (Poisson summation)",
        _gauss_coeffs,
        _gauss_symbol,
    ),
    "power": Kernel("power", "a_k = (1+|k|/length)^-2; no closed-form symbol (kink at t=0)", _power_coeffs, None),
}


def kernel(name: str) -> Kernel:
    """The kernel registered under ``name`` in :data:`KERNELS`."""
    v.choice("kernel", name, KERNELS)
    return KERNELS[name]


# ----------------------------------------------------------------------------- Lemma B.1


LEMMA_B1_READINGS = ("statement", "proof")


def phase_modulated_column(weights, phases=None, *, reading: str = "statement") -> np.ndarray:
    r"""First column of the Hermitian Toeplitz matrix whose symbol is gu2025 Lemma B.1's ``f``.

    .. math:: f(\theta) = \sum_{i=0}^{N-1} 2 w_i \cos(\psi_i + i\theta)
              = \operatorname{Re}\sum_i 2 w_i e^{i\psi_i} e^{ii\theta},

    so ``f`` is the symbol with ``a_0 = 2 w_0 cos(psi_0)`` and ``a_k = w_k e^{i psi_k}`` (``k >= 1``):
    the symbol of ``W ∘ E`` for ``W = T(w)`` and ``E = T(e^{i psi})`` (Prop. B.3). ``phases=None``
    (all zero) gives ``g``.

    Parameters
    ----------
    weights : array_like, shape (N,)
        ``w_i >= 0``.
    phases : array_like, shape (N,), optional
        ``theta_i``.
    reading : {'statement', 'proof'}
        The paper writes ``cos(i theta_i + i theta)`` in the lemma (``psi_i = i theta_i``: index
        times angle, as RoPE's phase ``(i-j) theta_t``) but its proof uses
        ``c_i = w_i e^{i theta_i}`` (``psi_i = theta_i``). Both are offered.

    Returns
    -------
    ndarray, shape (N,), complex128
    """
    w = v.array("weights", weights, ndim=1)
    if np.any(w < 0):
        raise ValueError(f"weights must be >= 0 (Lemma B.1), got min {w.min()}")
    th = np.zeros_like(w) if phases is None else v.array("phases", phases, ndim=1)
    if th.shape != w.shape:
        raise ValueError(f"phases must have the shape of weights {w.shape}, got {th.shape}")
    v.choice("reading", reading, LEMMA_B1_READINGS)
    i = np.arange(w.shape[0], dtype=np.float64)
    psi = th if reading == "proof" else i * th
    col = w * np.exp(1j * psi)
    col[0] = 2.0 * w[0] * np.cos(psi[0])
    return col


@dataclass(frozen=True)
class LemmaB1:
    """Extremes of Lemma B.1's ``f`` and ``g`` (:class:`SymbolExtrema` each) and ``2 sum w``."""

    f: SymbolExtrema
    g: SymbolExtrema
    bound: float

    @property
    def max_abs_f(self) -> float:
        return max(abs(self.f.max), abs(self.f.min))

    @property
    def max_abs_g(self) -> float:
        return max(abs(self.g.max), abs(self.g.min))

    @property
    def ptp_f(self) -> float:
        return self.f.max - self.f.min

    @property
    def ptp_g(self) -> float:
        return self.g.max - self.g.min


def lemma_b1(weights, phases, *, reading: str = "statement", n_grid: int | None = None) -> LemmaB1:
    """Maxima, minima and peak-to-peak ranges of gu2025 Lemma B.1's ``f`` and ``g``.

    Parameters and readings as :func:`phase_modulated_column`. Extremes come from
    :func:`symbol_extrema` (dense grid plus Newton refinement of every candidate peak; certified
    when all candidates were refined). ``bound = 2 sum w_i``.

    Notes
    -----
    The grid is ``>= 64 N`` points (at least 4096), so ``h^2/8 max|f''|`` is small and every
    peak is refined. Refined values are attained values of ``f``, hence lower bounds of the
    maximum and upper bounds of the minimum; ``error`` covers the rest.
    """
    cf = phase_modulated_column(weights, phases, reading=reading)
    cg = phase_modulated_column(weights, None)
    n = cf.shape[0]
    m = n_grid if n_grid is not None else 1 << int(math.ceil(math.log2(max(4096, 64 * n))))
    ef = _extrema(cf, symbol_grid(cf, n_grid=m))
    eg = _extrema(cg, symbol_grid(cg, n_grid=m))
    return LemmaB1(ef, eg, 2.0 * float(np.sum(np.real(cg[1:]))) + float(np.real(cg[0])))


# ----------------------------------------------------------------------------- eigenvalues


def eigenvalues(c, r=None) -> np.ndarray:
    """All eigenvalues of a Hermitian Toeplitz matrix, ascending, shape (N,) — dense reference.

    Notes
    -----
    ``scipy.linalg.eigvalsh`` on the dense matrix: ``O(N^3)`` time, ``O(N^2)`` memory, backward
    stable (each eigenvalue within about ``N u ||T||_2``).
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


class ExtremeEigenvalues(tuple):
    """``(lambda_min, lambda_max)``, carrying ``.min`` and ``.max``: :class:`EigenEstimate` each."""

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
) -> ExtremeEigenvalues:
    r"""Smallest and largest eigenvalue of a Hermitian Toeplitz matrix of any size.

    Parameters
    ----------
    c : array_like, shape (N,)
        First column (real or complex); ``r``, if given, must be ``conj(c)``.
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
    grid = symbol_grid(c, n_grid=n_grid)
    strang = _strang_eigenvalues(c)
    # what the FFT matvec resolves: u log2(L) times the largest eigenvalue of the embedding
    floor = 8 * math.ceil(math.log2(T.L)) * _U * float(np.max(np.abs(T._fhat)))
    floor = max(floor, atol)
    with _single_thread_blas():
        hi = _davidson_top(T, c, grid, strang, +1.0, rtol, floor, maxiter)
        lo = _davidson_top(T, c, grid, strang, -1.0, rtol, floor, maxiter)
    return ExtremeEigenvalues(lo, hi)


def _strang_eigenvalues(c: np.ndarray) -> np.ndarray:
    """Eigenvalues of Strang's circulant (central diagonals of T, wrapped), shape (N,), real.

    For Hermitian ``T`` the circulant is Hermitian; eigenvalue ``j`` is the symbol truncated to
    ``|k| <= N/2`` at ``theta = -2 pi j / N`` (numpy's FFT sign), i.e. a sampled symbol.
    """
    n = c.shape[0]
    s = np.zeros(n, dtype=np.complex128)
    h = n // 2
    s[: h + 1] = c[: h + 1]
    if n - h - 1 > 0:
        s[h + 1 :] = np.conj(c[1 : n - h][::-1])
    return sfft.fft(s).real


def _davidson_top(T: ToeplitzOperator, c, grid, strang, sign: float, rtol: float, floor: float, maxiter: int) -> EigenEstimate:
    """Largest eigenvalue of sign*T (see extreme_eigenvalues' Notes); returns it for T (sign applied)."""
    n = T.n
    theta_star, U, _err, _cert = _extrema_from_grid(c, grid, sign, max_candidates=16)
    real = T._real
    j = np.arange(n, dtype=np.float64)
    box = np.sin(np.pi * (j + 1) / (n + 1))
    if real:
        if min(abs(np.sin(theta_star)), 1.0) * n < 0.5:  # theta* at 0 or pi: one real mode
            X = (np.cos(j * theta_star) * box)[None, :]
        else:  # a symmetric symbol peaks at +-theta*: the cos and sin combinations
            X = np.stack([np.cos(j * theta_star) * box, np.sin(j * theta_star) * box])
    else:
        X = (np.exp(1j * j * theta_star) * box)[None, :]
    dtype = np.float64 if real else np.complex128
    maxdim, keep = 10, 3  # grown to 40, 8 when progress stalls (see below)
    V = np.empty((40 + 4, n), dtype=dtype)  # rows: orthonormal basis
    W = np.empty_like(V)  # rows: sign * T @ basis
    m = 0
    matvecs = 0

    def add(Y):
        nonlocal m, matvecs
        for y in Y:
            for _ in range(2):  # classical Gram-Schmidt twice
                if m:
                    y = y - (V[:m].conj() @ y) @ V[:m]
            nrm = np.linalg.norm(y)
            if nrm == 0 or not np.isfinite(nrm):
                continue
            V[m] = y / nrm
            W[m] = sign * T.apply_rows(V[m])
            matvecs += 1
            m += 1

    add(X)
    if m == 0:
        raise RuntimeError("start vectors vanished")  # pragma: no cover
    history: list[float] = []
    it = 0
    while True:
        H = V[:m].conj() @ W[:m].T
        H = (H + H.conj().T) / 2
        w, Y = np.linalg.eigh(H)
        w, Y = w[::-1], Y[:, ::-1]
        rho = float(w[0])
        x = Y[:, 0] @ V[:m]
        ax = Y[:, 0] @ W[:m]
        res_vec = ax - rho * x
        res = float(np.linalg.norm(res_vec))
        if rho > U:  # the symbol maximum was missed (cannot be below lambda_max); repair
            U = rho
        gap = U - rho
        target = max(rtol * abs(rho), floor)
        history.append(min(res, gap))
        stagnant = len(history) > 25 and min(history[-25:]) > 0.9 * min(history[:-25])
        if min(res, gap) <= target or it >= maxiter or stagnant:
            break
        nb = min(X.shape[0], m)
        R = (Y[:, :nb].T @ W[:m]) - w[:nb, None] * (Y[:, :nb].T @ V[:m])
        sig = U + 0.01 * gap + floor
        d = np.abs(sig - sign * strang) + floor
        Tn = sfft.ifft(sfft.fft(R, axis=-1) / d, axis=-1)
        if real:
            Tn = Tn.real
        stalled = len(history) >= 4 and history[-1] > 0.5 * history[-4]
        if stalled:  # the preconditioner is not helping: add the Krylov direction, keep a longer memory
            Tn = np.concatenate([Tn, res_vec[None, :]])
            maxdim, keep = 40, 8
        if m + Tn.shape[0] > maxdim:  # thick restart on the best Ritz vectors
            k = min(keep, m)
            Vk, Wk = Y[:, :k].T @ V[:m], Y[:, :k].T @ W[:m]
            m = k
            V[:k], W[:k] = Vk, Wk
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


# ----------------------------------------------------------------------------- distributions


def _measure(x, w=None) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).ravel()
    if w is None:
        w = np.full(x.shape[0], 1.0 / max(x.shape[0], 1))
    else:
        w = np.asarray(w, dtype=np.float64).ravel()
        if w.shape != x.shape:
            raise ValueError(f"weights must have one entry per atom ({x.shape[0]}), got {w.shape[0]}")
        # A sum of n non-negative weights is exact to gamma_n relative (Higham Lemma 3.1); the weights
        # themselves come from a computation (SLQ: squared eigenvector entries, each probe summing to 1
        # to gamma_m), so allow gamma_(n+2). Unnormalised weights would silently scale both distances.
        tot = float(np.sum(w))
        if not np.all(np.isfinite(w)) or np.any(w < 0) or abs(tot - 1.0) > _gamma(w.shape[0] + 2):
            raise ValueError(f"weights must be finite, non-negative and sum to 1, got sum {tot!r}")
    o = np.argsort(x, kind="mergesort")
    return x[o], w[o]


def kolmogorov_distance(x1, x2, w1=None, w2=None, *, resolution: float = 0.0) -> float:
    r"""Kolmogorov (sup-CDF) distance between two discrete distributions.

    Parameters
    ----------
    x1, x2 : array_like, shape (n1,), (n2,)
        Atoms (e.g. eigenvalues, symbol samples).
    w1, w2 : array_like, optional
        Their weights (default uniform), each summing to 1.
    resolution : float
        Values closer than this are not told apart:
        :math:`\sup_x \max\{F_1(x)-F_2(x+\varepsilon),\,F_2(x)-F_1(x+\varepsilon),\,0\}`.
        ``0`` gives the classical distance. Use the eigenvalue accuracy (about ``N u ||T||``),
        so that eigenvalues which are rounding noise around a cluster do not count as a
        difference in distribution.

    Returns
    -------
    float in [0, 1]
    """
    a, wa = _measure(x1, w1)
    b, wb = _measure(x2, w2)
    eps = float(resolution)
    Fa, Fb = np.cumsum(wa), np.cumsum(wb)

    def F(xs, Fs, pts):
        i = np.searchsorted(xs, pts, side="right")
        return np.where(i > 0, Fs[np.maximum(i - 1, 0)], 0.0)

    pts = np.concatenate([a, b])
    d1 = F(a, Fa, pts) - F(b, Fb, pts + eps)
    d2 = F(b, Fb, pts) - F(a, Fa, pts + eps)
    return float(max(0.0, d1.max(), d2.max()))


def wasserstein_distance(x1, x2, w1=None, w2=None) -> float:
    r"""Wasserstein-1 distance :math:`\int |F_1 - F_2|\,dx` between two discrete distributions.

    Shapes as :func:`kolmogorov_distance`; in the units of the values.
    """
    a, wa = _measure(x1, w1)
    b, wb = _measure(x2, w2)
    x = np.concatenate([a, b])
    d = np.concatenate([wa, -wb])
    o = np.argsort(x, kind="mergesort")
    x, d = x[o], d[o]
    return float(np.sum(np.abs(np.cumsum(d)[:-1]) * np.diff(x)))


@dataclass
class SpectralDistribution:
    """The eigenvalue distribution of ``T_N`` next to the value distribution of its symbol.

    Attributes
    ----------
    n : int
    method : {'exact', 'slq'}
    support, weights : ndarray, shape (m,)
        The eigenvalue distribution as atoms: the eigenvalues with weight ``1/N`` (exact), or
        the stochastic Lanczos quadrature nodes and weights (slq).
    symbol_values : ndarray, shape (M,)
        Sorted samples of the symbol on a uniform grid: its value distribution.
    kolmogorov, wasserstein : float
        Distances between the two distributions (Kolmogorov at ``resolution``).
    resolution : float
        Values closer than this are not distinguished (eigenvalue accuracy).
    error_estimate : float
        For ``slq``: an estimate of the error of ``kolmogorov`` (probe noise plus quadrature
        discretisation); ``0`` for ``exact`` beyond rounding.
    probes, steps : int
        SLQ parameters (0 for exact).
    """

    n: int
    method: str
    support: np.ndarray
    weights: np.ndarray
    symbol_values: np.ndarray
    kolmogorov: float
    wasserstein: float
    resolution: float
    error_estimate: float
    probes: int = 0
    steps: int = 0
    extras: dict = field(default_factory=dict)

    def cdf(self, x) -> np.ndarray:
        """Eigenvalue CDF at ``x``."""
        o = np.argsort(self.support)
        F = np.cumsum(self.weights[o])
        F /= F[-1]
        i = np.searchsorted(self.support[o], np.asarray(x, dtype=np.float64), side="right")
        return np.where(i > 0, F[np.maximum(i - 1, 0)], 0.0)

    def symbol_cdf(self, x) -> np.ndarray:
        """Symbol value CDF at ``x``: the fraction of ``theta`` with ``a(theta) <= x``."""
        return np.searchsorted(self.symbol_values, np.asarray(x, dtype=np.float64), side="right") / self.symbol_values.shape[0]

    def as_dict(self) -> dict:
        return {
            "n": self.n,
            "method": self.method,
            "kolmogorov": self.kolmogorov,
            "wasserstein": self.wasserstein,
            "resolution": self.resolution,
            "error_estimate": self.error_estimate,
            "probes": self.probes,
            "steps": self.steps,
            "eigenvalue_range": [float(self.support.min()), float(self.support.max())],
            "symbol_range": [float(self.symbol_values[0]), float(self.symbol_values[-1])],
        }


def spectral_distribution(
    c,
    r=None,
    *,
    symbol=None,
    method: str = "auto",
    exact_below: int = 4096,
    tol: float = 1e-2,
    probes: int | None = None,
    steps: int | None = None,
    n_symbol: int | None = None,
    seed=0,
) -> SpectralDistribution:
    r"""Eigenvalue distribution of a Hermitian ``T_N`` vs its symbol's value distribution (Szegő).

    Parameters
    ----------
    c : array_like, shape (N,)
        First column; ``r``, if given, must be ``conj(c)``.
    symbol : callable, optional
        ``symbol(theta) -> values`` (shape preserved), e.g. a closed-form ``N -> infinity``
        symbol from :data:`KERNELS`. Default: the symbol of ``T_N`` itself (:func:`symbol`).
    method : {'auto', 'exact', 'slq'}
        ``exact``: dense eigenvalues (``O(N^3)``); ``slq``: stochastic Lanczos quadrature on
        FFT matvecs (``O(probes * steps * N log N)``); ``auto``: exact for ``N <= exact_below``.
    tol : float
        Target accuracy of the Kolmogorov distance for ``slq``; sets the defaults
        ``probes = max(2, ceil(12.5 / (N tol^2)))`` and ``steps = ceil(10 / tol)``.
    n_symbol : int, optional
        Symbol samples (default ``max(2^15, 4N)`` rounded up to a power of two).
    seed : int or numpy.random.Generator
        For the SLQ probe vectors.

    Returns
    -------
    SpectralDistribution

    Notes
    -----
    SLQ (Ubaru, Chen & Saad 2017): for Rademacher probes ``z`` the spectral measure
    :math:`\mu_z=\sum_j |\langle z,v_j\rangle|^2\delta_{\lambda_j}/\|z\|^2` is an unbiased
    estimate of the eigenvalue distribution (pointwise CDF standard deviation at most
    :math:`1/\sqrt{2Nm}` for ``m`` probes), and ``k`` Lanczos steps from ``z`` give its
    ``k``-node Gauss quadrature, whose CDF is off by at most the weight of the nearest node
    (Chebyshev–Markov–Stieltjes), about ``1/k`` near square-root singularities of the density
    (critical values of the symbol). Lanczos runs without reorthogonalisation: lost
    orthogonality duplicates converged Ritz values but keeps the quadrature's moments
    (Knizhnerman 1996). The estimate degrades when a few outlying eigenvalues stretch the range
    far beyond the bulk (e.g. ALiBi, whose coefficients grow with ``|k|``): the nodes then
    resolve the bulk poorly. Use ``exact`` where it is affordable.
    """
    c, r = coefficients(c, r, hermitian=True)
    n = c.shape[0]
    v.choice("method", method, ("auto", "exact", "slq"))
    tol = v.real("tol", tol, positive=True)
    if method == "auto":
        method = "exact" if n <= int(exact_below) else "slq"
    ms = n_symbol if n_symbol is not None else 1 << int(math.ceil(math.log2(max(1 << 15, 4 * n))))
    ms = v.integer("n_symbol", ms, minimum=16)
    if method == "exact":
        _need_dense(n, c.itemsize, "Szegő distance by dense eigvalsh (method='exact')", eig=True)
    else:
        m_ = probes if probes is not None else max(2, math.ceil(12.5 / (n * tol * tol)))
        _memory.require(
            _memory.array_bytes(ms, itemsize=64) + _memory.array_bytes(n, itemsize=96)
            + _memory.array_bytes(int(m_), n, itemsize=6 * 16),
            f"Szegő distance by stochastic Lanczos quadrature (N = {n}, {m_} probes, {ms} symbol samples)",
            alternative="use a smaller N, fewer probes or a smaller n_symbol",
        )
    theta = 2 * np.pi * (np.arange(ms) + 0.5) / ms
    if symbol is None:
        sym = _symbol_at(c, r, theta, True) if ms < n else _shifted_grid_symbol(c, ms)
    else:
        sym = np.asarray(symbol(theta), dtype=np.float64)
        if sym.shape != theta.shape or not np.all(np.isfinite(sym)):
            raise ValueError("symbol(theta) must return finite real values of the same shape as theta")
    sym = np.sort(sym)
    smax = float(max(abs(sym[0]), abs(sym[-1]), np.max(np.abs(c))))
    if method == "exact":
        w = sla.eigvalsh(sla.toeplitz(c, r), check_finite=False)
        wt = np.full(n, 1.0 / n)
        res = (n + 2) * _U * max(smax, float(np.max(np.abs(w))))
        ks = kolmogorov_distance(w, sym, resolution=res)
        return SpectralDistribution(n, "exact", w, wt, sym, ks, wasserstein_distance(w, sym), res, 0.0)
    m = probes if probes is not None else max(2, math.ceil(12.5 / (n * tol * tol)))
    k = steps if steps is not None else math.ceil(10.0 / tol)
    m = v.integer("probes", m, minimum=1)
    k = v.integer("steps", k, minimum=2)
    k = min(k, n)
    T = ToeplitzOperator(c, r)
    with _single_thread_blas():
        nodes, wts = _slq(T, m, k, v.generator(seed))
    res = (k + 8 * math.ceil(math.log2(T.L))) * _U * float(np.max(np.abs(T._fhat)))
    ks = kolmogorov_distance(nodes, sym, wts, None, resolution=res)
    err = 2.5 / math.sqrt(2 * n * m) + float(np.max(wts)) * m / 2
    return SpectralDistribution(n, "slq", nodes, wts, sym, ks, wasserstein_distance(nodes, sym, wts), res, err, m, k)


def _shifted_grid_symbol(c: np.ndarray, ms: int) -> np.ndarray:
    """Symbol at theta_j = 2 pi (j + 1/2)/ms by FFT (the half-step shift avoids theta=0 exactly)."""
    n = c.shape[0]
    z = np.zeros(ms, dtype=np.complex128)
    z[:n] = c * np.exp(1j * np.pi * np.arange(n) / ms)
    return 2.0 * (sfft.ifft(z) * ms).real - float(np.real(c[0]))


def _slq(T: ToeplitzOperator, m: int, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Stochastic Lanczos quadrature: nodes and weights, shape (m*k,) each (weights sum to 1)."""
    n = T.n
    q = rng.choice(np.array([-1.0, 1.0]), size=(m, n)) / math.sqrt(n)  # (m, N) unit rows
    q_prev = np.zeros_like(q)
    alpha = np.zeros((m, k))
    beta = np.zeros((m, k))
    b_prev = np.zeros(m)
    length = np.full(m, k)
    scale = float(np.max(np.abs(T._fhat)))
    for i in range(k):
        w = T.apply_rows(q)
        a = np.real(np.sum(np.conj(q) * w, axis=1))
        w = w - a[:, None] * q - b_prev[:, None] * q_prev
        b = np.linalg.norm(w, axis=1)
        alpha[:, i], beta[:, i] = a, b
        broke = (b <= 64 * _U * scale) & (length == k)
        length[broke] = i + 1  # invariant subspace found: the quadrature is exact with i+1 nodes
        q_prev, q = q, w / np.where(b > 0, b, 1.0)[:, None]
        b_prev = b
    nodes, weights = [], []
    for p in range(m):
        kk = int(length[p])
        if kk == 1:
            th, S = alpha[p, :1], np.ones((1, 1))
        else:
            th, S = sla.eigh_tridiagonal(alpha[p, :kk], beta[p, : kk - 1])
        nodes.append(th)
        weights.append(S[0] ** 2 / m)
    return np.concatenate(nodes), np.concatenate(weights)


# ----------------------------------------------------------------------------- Toeplitz-ness


def _diagonal_means(A: np.ndarray) -> np.ndarray:
    """Mean of each diagonal k = i - j, ordered k = -(n-1) .. n-1, shape (2n-1,)."""
    n = A.shape[0]
    out = np.empty(2 * n - 1, dtype=A.dtype)
    for k in range(-(n - 1), n):
        out[k + n - 1] = np.trace(A, offset=-k) / (n - abs(k))
    return out


def toeplitz_projection(A) -> np.ndarray:
    """The Toeplitz matrix nearest to ``A`` in Frobenius norm: each diagonal replaced by its mean.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Real or complex.

    Returns
    -------
    ndarray, shape (n, n)

    Notes
    -----
    Toeplitz matrices form a linear subspace spanned by the 0/1 diagonal indicators, which are
    mutually orthogonal in the Frobenius inner product; the orthogonal projection onto it
    averages each diagonal. ``O(n^2)``.
    """
    A = v.square("A", A, dtype="any")
    n = A.shape[0]
    means = _diagonal_means(A)
    return sla.toeplitz(means[n - 1 :], means[n - 1 :: -1])


def toeplitz_defect(A, *, relative: bool = True) -> float:
    r"""How far ``A`` is from Toeplitz: :math:`\|A - P(A)\|_F` (over :math:`\|A\|_F` if ``relative``).

    ``P`` is :func:`toeplitz_projection`. ``0`` exactly for Toeplitz matrices; a relative defect
    of 1 means ``A`` is orthogonal to every Toeplitz matrix. A zero matrix has defect 0.

    Parameters
    ----------
    A : array_like, shape (n, n)
    relative : bool

    Returns
    -------
    float
    """
    A = v.square("A", A, dtype="any")
    d = float(np.linalg.norm(A - toeplitz_projection(A)))
    if not relative:
        return d
    nrm = float(np.linalg.norm(A))
    return 0.0 if nrm == 0 else d / nrm


GRAM_DENSE_MAX = 4096  # above this the n x n Gram is never formed


def rounding_defect(n_ops: int, abs_frob: float, frob: float) -> float:
    r"""Largest relative Toeplitz defect that rounding alone can give a computed matrix.

    Entries of an exactly Toeplitz matrix computed with relative error at most
    :math:`\gamma_{k}` each (k = ``n_ops``, e.g. d for the d-term inner products of a Gram)
    differ from the exact ones by :math:`\delta M` with :math:`\lVert\delta M\rVert_F\le
    \gamma_k\lVert\,|M|\,\rVert_F`; the projection is orthogonal, so the defect
    :math:`\lVert M - P(M)\rVert_F \le \lVert\delta M\rVert_F`. ``abs_frob`` bounds
    :math:`\lVert\,|M|\,\rVert_F` (for a Gram :math:`PP^\top`, :math:`\operatorname{tr}M`, since
    :math:`|M_{ij}|\le\lVert p_i\rVert\lVert p_j\rVert`), ``frob`` is :math:`\lVert M\rVert_F`.
    A matrix whose every entry depends on :math:`i-j` alone (a bias built from offsets) has
    defect exactly 0.
    """
    return 0.0 if frob == 0 else _gamma(max(int(n_ops), 1)) * float(abs_frob) / float(frob)


@dataclass(frozen=True)
class GramColumn:
    r"""First column of a position Gram :math:`PP^\top` (or of its Toeplitz projection).

    ``defect`` is the relative Toeplitz defect of the Gram (exact up to ``GRAM_DENSE_MAX`` rows,
    else estimated on 64 seeded rows, ``exact=False``), ``tol`` the largest defect rounding can
    explain (:func:`rounding_defect`), ``projected`` whether ``column`` is the projection's.
    """

    column: np.ndarray
    defect: float
    exact: bool
    tol: float
    projected: bool

    @property
    def toeplitz(self) -> bool:
        return self.defect <= self.tol


def gram_toeplitz_column(P, *, project: bool = True) -> GramColumn:
    r"""First column of the Gram ``P P^T`` of a position table, or of its Toeplitz projection.

    Parameters
    ----------
    P : array_like, shape (n, d)
        Position table (rows are positions).
    project : bool
        When the Gram is not Toeplitz beyond rounding: return the projection's column (diagonal
        means) if True, raise ``ValueError`` if False.

    Notes
    -----
    Up to ``GRAM_DENSE_MAX`` rows the Gram is formed and its defect measured exactly. Beyond,
    the defect is estimated on 64 seeded random rows, and the projection's diagonal means
    :math:`a_k = \frac1{n-k}\sum_i p_{i+k}\cdot p_i` come from FFT autocorrelations of the d
    columns, :math:`O(d\,n\log n)`.
    """
    P = v.array("P", P, ndim=2, dtype="real")
    n, d = P.shape
    trace = float(np.einsum("ij,ij->", P, P))  # bounds || |P P^T| ||_F
    if n <= GRAM_DENSE_MAX:
        M = P @ P.T
        defect, exact, frob = toeplitz_defect(M), True, float(np.linalg.norm(M))
        col = M[:, 0].copy()
    else:
        col = P @ P[0]
        rows = np.random.default_rng(0).choice(n, size=64, replace=False)
        G = P[rows] @ P.T  # (64, n)
        pred = col[np.abs(rows[:, None] - np.arange(n)[None, :])]
        g = float(np.linalg.norm(G))
        defect, exact = (0.0 if g == 0 else float(np.linalg.norm(G - pred) / g)), False
        frob = g * math.sqrt(n / 64.0)  # the sampled rows' share of ||M||_F, scaled to n rows
    tol = rounding_defect(d, trace, frob)
    if defect <= tol:
        return GramColumn(col, defect, exact, tol, False)
    if not project:
        raise ValueError(f"the position Gram P P^T is not Toeplitz (relative defect {defect:.3g} > rounding {tol:.2g}"
                         f"{'' if exact else ', estimated on 64 rows'})")
    if n <= GRAM_DENSE_MAX:
        col = toeplitz_projection(M)[:, 0].copy()
    else:
        L = sfft.next_fast_len(2 * n, real=True)
        F = sfft.rfft(P, n=L, axis=0)
        auto = sfft.irfft(np.sum(np.abs(F) ** 2, axis=1), n=L)[:n]  # sum_i p_{i+k} . p_i
        col = auto / (n - np.arange(n))
    return GramColumn(col, defect, exact, tol, True)


# ----------------------------------------------------------------------------- long-context encodings


def rotary_kernel_symbol(theta, n: int, freqs, *, weight: float = 1.0) -> np.ndarray:
    r"""Closed-form symbol of the ``n x n`` Toeplitz kernel :math:`a_k = w\sum_t\cos(k\omega_t)`, shape of ``theta``.

    .. math:: a_n(\theta) = \tfrac w2\sum_t\big[D_{n-1}(\theta-\omega_t) + D_{n-1}(\theta+\omega_t)\big]

    (:func:`sinusoidal_gram_symbol` for arbitrary frequencies): the unit-content kernel of RoPE
    and of its context extensions, PI, NTK and YaRN (``freqs`` their scaled frequencies,
    ``weight`` YaRN's ``mscale**2``). xPos's kernel is not of this form (its terms carry
    :math:`\zeta_t^{k/B}`).
    """
    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    freqs = v.array("freqs", freqs, ndim=1)
    weight = v.real("weight", weight)
    out = np.zeros_like(theta, dtype=np.float64)
    for om in freqs:
        out += 0.5 * (_dirichlet(theta - om, n - 1) + _dirichlet(theta + om, n - 1))
    return weight * out


def sandwich_symbol(theta, n: int, *, d_bar: int = 128, base: float = 10000.0, scale: float = 1.0) -> np.ndarray:
    r"""Closed-form symbol of the ``n x n`` Sandwich bias (``encodings_modern.sandwich``), shape of ``theta``.

    With :math:`a_k = s\sum_{i=1}^{\bar d/2}(\cos(k w_i) - 1)`, :math:`w_i = b^{-2i/\bar d}`:

    .. math:: a_n(\theta) = s\Big(\tfrac12\sum_i\big[D_{n-1}(\theta-w_i)+D_{n-1}(\theta+w_i)\big]
              - \tfrac{\bar d}{2}D_{n-1}(\theta)\Big).

    The first term is the symbol of a Gram matrix (positive semidefinite); the shift by the
    diagonal subtracts :math:`\tfrac{\bar d}2 D_{n-1}`, a spike of height
    :math:`\tfrac{\bar d}{2}(2n-1)` at :math:`\theta=0` that changes no row softmax.
    """
    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    d_bar = v.even("d_bar", d_bar)
    w = enc.rope_frequencies(d_bar, base=base, first=1)  # w_i = base^(-2i/d_bar), i = 1..d_bar/2
    return v.real("scale", scale) * (rotary_kernel_symbol(theta, n, w) - (d_bar / 2) * _dirichlet(np.asarray(theta, float), n - 1))


def fejer_symbol(c, theta) -> np.ndarray:
    r"""Fejér (Cesàro) symbol :math:`\sigma_n(\theta) = \sum_{|k|<n}(1-|k|/n)a_k e^{ik\theta}` of a Hermitian Toeplitz column.

    :math:`\sigma_n(\theta) = \tfrac1n e_\theta^* T_n e_\theta` with :math:`e_\theta = (e^{ij\theta})_j`:
    the Rayleigh quotient of a Fourier vector, shape of ``theta``.
    """
    c, _ = coefficients(c, hermitian=True)
    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = c.shape[0]
    k = np.arange(1, n)
    wk = (1.0 - k / n) * c[1:]  # (n-1,)
    return np.real(c[0]) + 2.0 * np.real(np.exp(1j * np.outer(theta, k)) @ wk)


def conditional_definiteness(c) -> dict:
    r"""Is the symmetric Toeplitz matrix of first column ``c`` conditionally positive definite (CPD)?

    CPD (order 1): :math:`x^\top T x \ge 0` whenever :math:`\sum_i x_i = 0`. Then ``T`` is positive
    semidefinite on the hyperplane :math:`\mathbf 1^\perp`, so by interlacing it has **at most one**
    negative eigenvalue; in symbol terms, the Fejér symbol is non-negative at every non-zero
    Fourier frequency, :math:`\sigma_n(2\pi m/n) \ge 0` for :math:`m = 1..n-1` (those Fourier
    vectors sum to zero), while :math:`\sigma_n(0) = \sum_{|k|<n}(1-|k|/n)a_k` may be negative: the
    negative part of the symbol sits at :math:`\theta = 0`, where the generalised Fourier transform
    of a CPD kernel such as :math:`-|k|^p` (:math:`0<p\le 2`) or :math:`-\log(1+r|k|)` is singular.
    The Fejér condition is necessary, not sufficient (:math:`-|k|^3` meets it and is not CPD):
    ``cpd`` is decided by the compressed matrix.

    Returns a dict: ``min_compressed`` (smallest eigenvalue of ``J T J``, J the centring
    projection: >= 0 up to ``tol`` iff CPD), ``negative_eigenvalues`` (count of eigenvalues of T
    below ``-tol``), ``fejer_min_nonzero`` (min of :math:`\sigma_n` over the non-zero Fourier
    frequencies), ``fejer_at_zero``, ``tol`` (:math:`\gamma_{n}\,n\max|a_k|`, a backward-stable
    eigensolver's error) and ``cpd``. Dense: ``n`` <= 4096.
    """
    c, _ = coefficients(c, hermitian=True)
    if np.iscomplexobj(c):
        raise ValueError("conditional_definiteness needs a real symmetric Toeplitz matrix (real coefficients)")
    n = c.shape[0]
    if n > 4096:
        raise ValueError(f"conditional_definiteness is dense; n must be <= 4096, got {n}")
    T = dense(c)
    J = np.eye(n) - 1.0 / n
    tol = 2 * n * _U * n * float(np.abs(c).max()) / max(1 - n * _U, 0.5)
    w_c = np.linalg.eigvalsh(J @ T @ J)
    w = np.linalg.eigvalsh(T)
    sig = fejer_symbol(c, 2 * np.pi * np.arange(1, n) / n) if n > 1 else np.array([np.inf])
    # J T J has the eigenvalue 0 on the vector 1: the smallest of the others decides
    mc = float(np.sort(w_c)[1]) if n > 1 else 0.0
    return {"min_compressed": mc, "negative_eigenvalues": int(np.sum(w < -tol)), "fejer_min_nonzero": float(sig.min()),
            "fejer_at_zero": float(fejer_symbol(c, [0.0])[0]), "tol": tol, "cpd": bool(mc >= -tol)}
