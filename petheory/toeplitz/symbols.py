r"""The symbol of a Toeplitz matrix, on a grid or at points, and its certified extremes.

.. math:: a(\theta) = \sum_{k=-(N-1)}^{N-1} a_k e^{ik\theta}

(the generating function of gu2025 Thm 3.1 for ``T = [a_{i-j}]``, Definition 3.1), real exactly when
``T`` is Hermitian. Every eigenvalue of a Hermitian ``T_N(a)`` lies in ``[min a, max a]`` (Grenander–Szegő 1958),
which is why :func:`symbol_extrema` is refined until certified: it brackets the extreme
eigenvalues in :mod:`petheory.toeplitz.eigen` and decides gu2025 Lemma B.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy  # scipy.fft loads at its first use (scipy's lazy submodules): report and --help never use it

from petheory import _memory
from petheory import _validate as v
from petheory._threads import blas_threads
from petheory.toeplitz._common import _TINY, _U, _WORKERS, _is_hermitian
from petheory.toeplitz.operators import coefficients
from petheory.errors import ValidationError
from petheory.rounding import json_number


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

    See Also
    --------
    symbol_extrema : its certified minimum and maximum.
    symbol_grid

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> theta, a = toeplitz.symbol([2.0, 0.5], theta=np.array([0.0, np.pi]))
    >>> a.real  # 2 + 2 * 0.5 cos(theta)
    array([3., 1.])
    """
    c, r = coefficients(c, r)
    n = c.shape[0]
    herm = _is_hermitian(c, r)
    if theta is None:
        m = _default_grid(n) if n_grid is None else v.integer("n_grid", n_grid, minimum=1)
        if m < n:
            raise ValidationError(f"n_grid must be >= N={n} to sample the symbol without aliasing, got {m}")
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
    pos = scipy.fft.ifft(z, workers=_WORKERS) * m  # sum_k c_k e^{+ik theta_j}
    if herm:
        return 2.0 * pos.real - float(np.real(c[0]))
    w = np.zeros(m, dtype=np.complex128)
    w[:n] = r
    neg = scipy.fft.fft(w, workers=_WORKERS)  # sum_k r_k e^{-ik theta_j}
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
    """Symbol values on the default uniform grid, shape (n_grid,) (see :func:`symbol`).

    Parameters
    ----------
    c : array_like, shape (N,)
        First column.
    r : array_like, shape (N,), optional
        First row; if given it must be ``conj(c)`` (the matrix is Hermitian).
    n_grid : int, optional
        Grid size (default as :func:`symbol`).

    Returns
    -------
    numpy.ndarray
        The symbol at ``2 pi j / n_grid``, shape (n_grid,); real for a Hermitian matrix.

    References
    ----------
    gu2025 §3.3, Eq. (symbol of a Toeplitz matrix); Grenander and Szegő (1958), §1.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.toeplitz.symbols import symbol_grid
    >>> s = symbol_grid([2.0, 1.0], n_grid=4)  # 2 + 2 cos(theta) at theta = 0, pi/2, pi, 3 pi/2
    >>> np.round(s.real, 12).tolist()
    [4.0, 2.0, 0.0, 2.0]
    """
    return symbol(c, r, n_grid=n_grid)[1]


@dataclass(frozen=True)
class SymbolExtrema:
    """Minimum and maximum of a real symbol, where they are attained, and an error bound (:func:`symbol_extrema`).

    Attributes
    ----------
    min, max : float
        The symbol's smallest and largest value over :math:`\\theta \\in [0, 2\\pi)`.
    argmin, argmax : float
        Where they are attained (radians).
    error : float
        Bounds ``|computed - true|`` for both extremes: rounding only when every candidate peak was refined
        (``certified``), else the grid's Taylor bound.
    certified : bool
        Whether every candidate peak was refined by Newton's method.
    """

    min: float
    max: float
    argmin: float
    argmax: float
    error: float
    certified: bool

    @property
    def range(self) -> float:
        """``max - min``."""
        return self.max - self.min

    def as_dict(self) -> dict:
        """The fields by name (the JSON of a spectrum's ``symbol``)."""
        return {"min": self.min, "max": self.max, "argmin": self.argmin, "argmax": self.argmax, "error": self.error,
                "certified": self.certified}

    @classmethod
    def from_dict(cls, d: dict) -> "SymbolExtrema":
        """The extrema :meth:`as_dict` wrote.

        >>> e = SymbolExtrema(-1.0, 1.0, 3.14, 0.0, 1e-15, True)
        >>> SymbolExtrema.from_dict(e.as_dict()) == e
        True
        """
        return cls(*(json_number(d[k]) for k in ("min", "max", "argmin", "argmax", "error")), d["certified"])


class _TrigEval:
    """sign * (a, a', a'') at one theta for the Hermitian symbol with first column c; O(N) each.

    The weighted columns ``k c``, ``k^2 c`` are formed once per symbol; a real column is evaluated
    with real cosines and sines and three dot products (half the work of a complex exponential
    and complex sums).
    """

    def __init__(self, c: np.ndarray):
        self.c = c
        self.k = np.arange(c.shape[0], dtype=np.float64)
        self.kc = self.k * c
        self.k2c = self.k * self.kc
        self.c0 = float(np.real(c[0]))
        self.real = not np.iscomplexobj(c)

    def __call__(self, theta: float, sign: float = 1.0) -> tuple[float, float, float]:
        x = self.k * theta
        if self.real:
            cs, sn = np.cos(x), np.sin(x)
            a = 2.0 * float(self.c @ cs) - self.c0
            a1 = -2.0 * float(self.kc @ sn)
            a2 = -2.0 * float(self.k2c @ cs)
        else:
            e = np.exp(1j * x)
            a = 2.0 * float((self.c @ e).real) - self.c0
            a1 = -2.0 * float((self.kc @ e).imag)
            a2 = -2.0 * float((self.k2c @ e).real)
        return sign * a, sign * a1, sign * a2


def _refine_max(ev: _TrigEval, theta0: float, h: float, sign: float, iters: int, noise: float) -> tuple[float, float, int]:
    """Safeguarded Newton on a' from a grid point; never returns a lower value than the start.

    Returns (theta, value, evaluations). Stops when the step is at rounding level or the value
    no longer changes by more than ``noise`` (flat regions, where Newton has nothing to find).
    """
    best_t = t = theta0
    best_a, a1, a2 = ev(theta0, sign)
    evals = 1
    for _ in range(iters):
        step = -a1 / a2 if a2 < 0 else math.copysign(h / 4, a1)
        step = max(-h, min(h, step))
        t = t + step
        val, a1, a2 = ev(t, sign)
        evals += 1
        gain = val - best_a
        if val >= best_a:
            best_a, best_t = val, t
        if abs(step) <= 8 * _U * max(1.0, abs(t)) or abs(gain) <= noise:
            break
    return best_t, best_a, evals


class _Signed:
    """``sign * grid[i]`` on demand (the candidates' loop reads a few values)."""

    def __init__(self, grid: np.ndarray, sign: float):
        self.grid, self.sign = grid, sign

    def __getitem__(self, i) -> float:
        return self.sign * float(self.grid[i])


def _extrema_from_grid(c: np.ndarray, grid: np.ndarray, sign: float, *, max_candidates: int, m: int,
                       ev: _TrigEval | None = None) -> tuple[float, float, float, bool]:
    """(argmax, max, error, certified) of sign*a from grid samples plus refinement.

    ``grid`` holds the symbol at ``theta_j = 2 pi j / m``: all ``m`` points, or, for a real column
    (an even symbol, ``a(-theta) = a(theta)``), the ``m/2 + 1`` points of ``[0, pi]`` (``m`` even),
    whose neighbours across 0 and pi are their mirror images.
    Every local maximum of ``sign*a`` lies within h/2 of a grid point, whose value is at most
    the Taylor slack ``h^2/8 max|a''|`` below it. So refining, best first, every grid local
    maximum that could still beat the best refined value finds the global maximum.
    """
    h = 2 * np.pi / m
    n = c.shape[0]
    ev = _TrigEval(c) if ev is None else ev
    slack = h * h / 8.0 * 2.0 * float(np.sum(ev.k * np.abs(ev.kc)))
    # candidates first (within the slack of the extreme: usually a few points), then their neighbours by
    # index: no grid-sized copies of sign * grid (at N = 2^20 the grid is 4M points, 32 MiB a copy)
    if sign > 0:
        gmax = float(grid.max())
        cand = np.flatnonzero(grid >= gmax - slack)
    else:
        gmax = -float(grid.min())
        cand = np.flatnonzero(grid <= -(gmax - slack))
    L = grid.shape[0]
    li, ri = cand - 1, cand + 1
    if L == m:  # the whole circle: neighbours wrap around
        li %= L
        ri %= L
    else:  # [0, pi] of an even symbol: mirror neighbours at both ends
        li[li < 0] = 1
        ri[ri >= L] = L - 2
    gc = sign * grid[cand]
    idx = cand[(gc >= sign * grid[li]) & (gc >= sign * grid[ri])]
    g = _Signed(grid, sign)
    idx = idx[np.argsort(sign * grid[idx])[::-1]]
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
        t, val, used = _refine_max(ev, float(h * i), h, sign, iters=min(12, max(2, budget)), noise=err)
        budget -= used
        refined += 1
        if val > best:
            best_t, best = t, val
    if not certified:
        err += slack
    return best_t % (2 * np.pi), best, err, certified


def _even_symbol_grid(c: np.ndarray, m: int) -> np.ndarray:
    """``2 sum_k c_k cos(k theta_j) - c_0`` at ``theta_j = 2 pi j / m``, ``j = 0..m/2``, for a real column ``c``.

    The same numbers as ``2 rfft(c, n=m).real - c_0`` (the default grid, ``m >= 8N``), in a fifth of its
    memory: the zero-padded real transform of length ``m`` is split by decimation in frequency into
    transforms of length ``m/8`` of the modulated columns ``c_k e^{-2 pi i k s/m}``, whose real parts
    are the grid points ``j = 8q + s``. Five of the eight residues ``s`` suffice, because the symbol of
    a real column is even (``j`` and ``m - j`` agree), and the work is that of the one long transform.
    Memory: the ``m/2`` grid plus two ``m/8`` complex buffers, where the long transform held its
    ``m``-long padded input and ``m/2`` complex output (168 MiB at N = 2^20; about 70 here). Rounding:
    as the long transform's, ``O(u log2(m) ||c||_1)`` (Higham 2002 §24.1), plus ``u`` per modulation.
    """
    n, n8, h = c.shape[0], m // 8, m // 2
    grid = np.empty(h + 1)
    k = np.arange(n, dtype=np.float64)
    phase = np.empty(n)
    buf = np.zeros(n8, dtype=np.complex128)
    for s in range(5):
        if s == 0:
            buf[:n] = c
        else:  # buf[:n] = c * exp(-2 pi i k s / m), written in place (no complex temporaries)
            np.multiply(k, -2.0 * math.pi * s / m, out=phase)
            np.cos(phase, out=buf.real[:n])
            np.sin(phase, out=buf.imag[:n])
            buf.real[:n] *= c
            buf.imag[:n] *= c
        re = scipy.fft.fft(buf, workers=_WORKERS).real  # re[q] = sum_k c_k cos(2 pi k (8q + s) / m)
        cnt = len(range(s, h + 1, 8))
        grid[s::8] = re[:cnt]
        if 1 <= s <= 3:  # j = 8q + (8 - s) = m - (8(n8 - 1 - q) + s): the even symbol's mirror image
            t = 8 - s
            cnt = len(range(t, h + 1, 8))
            grid[t::8] = re[n8 - 1 : n8 - 1 - cnt : -1] if n8 - 1 - cnt >= 0 else re[n8 - 1 :: -1][:cnt]
        del re
    grid *= 2.0
    grid -= float(c[0])
    return grid


def symbol_extrema(c, r=None, *, n_grid: int | None = None, max_candidates: int = 16) -> SymbolExtrema:
    """Minimum and maximum of the real symbol of a Hermitian Toeplitz matrix.

    Parameters
    ----------
    c : array_like, shape (N,)
        First column.
    r : array_like, shape (N,), optional
        First row; if given it must be ``conj(c)``.
    n_grid : int, optional
        Sampling grid (default as :func:`symbol`).
    max_candidates : int
        Most grid peaks refined per extreme.

    Returns
    -------
    SymbolExtrema

    Notes
    -----
    Sample on a uniform grid by FFT (a real column's symbol is even: only ``[0, pi]``, by one
    real FFT with every core), then refine by safeguarded Newton iteration every grid
    local extremum that could hide the global one (within the Taylor slack
    ``h^2/8 * 2 sum k^2 |a_k|`` of the grid extreme). When all such candidates are refined the
    result is exact up to rounding (``certified``); otherwise (very long, slowly decaying data)
    only the most promising candidates are refined and ``error`` includes the slack.

    See Also
    --------
    symbol, petheory.toeplitz.eigen.extreme_eigenvalues

    Examples
    --------
    >>> from petheory import toeplitz
    >>> e = toeplitz.symbol_extrema([2.0, 0.5])
    >>> round(e.min, 10), round(e.max, 10)
    (1.0, 3.0)
    """
    c, r = coefficients(c, r, hermitian=True)
    n = c.shape[0]
    m = _default_grid(n) if n_grid is None else v.integer("n_grid", n_grid, minimum=1)
    if not np.iscomplexobj(c) and m % 8 == 0 and m >= 8 * n:  # even symbol on [0, pi], m/8-long transforms
        _memory.require(_memory.array_bytes(m, itemsize=10), f"symbol on a grid of {m} points (N = {n})",
                        alternative="pass a smaller n_grid")
        grid = _even_symbol_grid(c, m)
    elif not np.iscomplexobj(c) and m % 2 == 0 and m >= n:  # even symbol: [0, pi] by one real FFT
        _memory.require(_memory.array_bytes(m, itemsize=24), f"symbol on a grid of {m} points (N = {n})",
                        alternative="pass a smaller n_grid")
        grid = 2.0 * scipy.fft.rfft(c, n=m, workers=_WORKERS).real - float(c[0])  # sum_k c_k cos(k theta_j), j <= m/2
    else:
        grid = symbol_grid(c, n_grid=m)
    ev = _TrigEval(c)
    with blas_threads(1):  # O(N) dot products: threads only add latency (4-6x slower on a busy machine)
        tmax, amax, emax, cmax = _extrema_from_grid(c, grid, 1.0, max_candidates=max_candidates, m=m, ev=ev)
        tmin, amin_neg, emin, cmin = _extrema_from_grid(c, grid, -1.0, max_candidates=max_candidates, m=m, ev=ev)
    return SymbolExtrema(-amin_neg, amax, tmin, tmax, max(emax, emin), cmax and cmin)
