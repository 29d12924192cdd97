r"""Szegő's theorem, measured: eigenvalue distribution of ``T_N`` against its symbol's values.

Szegő's first limit theorem (Grenander–Szegő 1958; gu2025 §3.3, Thm 3.1): for a real
continuous symbol ``a`` and every continuous ``F``,
:math:`\frac1N\sum_j F(\lambda_j(T_N(a))) \to \frac1{2\pi}\int_{-\pi}^{\pi} F(a(\theta))\,d\theta`.
:func:`spectral_distribution` puts the two distributions side by side (exact eigenvalues, or
stochastic Lanczos quadrature on FFT matvecs) and measures them with :func:`kolmogorov_distance`
and :func:`wasserstein_distance`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy  # scipy.fft loads at its first use (scipy's lazy submodules): report and --help never use it
import scipy.linalg as sla

from petheory import _memory
from petheory import _validate as v
from petheory._threads import blas_threads
from petheory.rounding import gamma as _gamma, json_number
from petheory.toeplitz._common import _U, _need_dense
from petheory.toeplitz.operators import ToeplitzOperator, coefficients
from petheory.toeplitz.symbols import symbol as _symbol_of
from petheory.errors import ValidationError


# ----------------------------------------------------------------------------- distributions


def _measure(x, w=None) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(x, dtype=np.float64).ravel()
    if w is None:
        w = np.full(x.shape[0], 1.0 / max(x.shape[0], 1))
    else:
        w = np.asarray(w, dtype=np.float64).ravel()
        if w.shape != x.shape:
            raise ValidationError(f"weights must have one entry per atom ({x.shape[0]}), got {w.shape[0]}")
        # A sum of n non-negative weights is exact to gamma_n relative (Higham Lemma 3.1); the weights
        # themselves come from a computation (SLQ: squared eigenvector entries, each probe summing to 1
        # to gamma_m), so allow gamma_(n+2). Unnormalised weights would silently scale both distances.
        tot = float(np.sum(w))
        if not np.all(np.isfinite(w)) or np.any(w < 0) or abs(tot - 1.0) > _gamma(w.shape[0] + 2):
            raise ValidationError(f"weights must be finite, non-negative and sum to 1, got sum {tot!r}")
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

    Examples
    --------
    >>> from petheory.toeplitz.szego import kolmogorov_distance
    >>> kolmogorov_distance([0.0, 1.0], [0.0, 2.0])
    0.5
    >>> kolmogorov_distance([1.0], [1.0 + 1e-12], resolution=1e-9)  # rounding noise is not a difference
    0.0
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

    Parameters
    ----------
    x1, x2 : array_like, shape (n1,), (n2,)
        Atoms.
    w1, w2 : array_like, optional
        Their weights (default uniform), each summing to 1.

    Returns
    -------
    float
        :math:`W_1 \ge 0`, in the units of the values.

    References
    ----------
    Villani, *Optimal Transport* (2009), Remark 6.6 (:math:`W_1` on the line as the L1 distance of the CDFs).

    Examples
    --------
    >>> from petheory.toeplitz.szego import wasserstein_distance
    >>> wasserstein_distance([0.0, 1.0], [0.5, 1.5])
    0.5
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
        The matrix size N.
    method : {'exact', 'slq'}
        Dense eigenvalues, or stochastic Lanczos quadrature.
    support, weights : ndarray, shape (m,), or None
        The eigenvalue distribution as atoms: the eigenvalues with weight ``1/N`` (exact), or
        the stochastic Lanczos quadrature nodes and weights (slq). None in a distribution read
        back from a record (:meth:`from_dict`): a record keeps the distances and the ranges, not
        the atoms, and :meth:`cdf` then refuses.
    symbol_values : ndarray, shape (M,), or None
        Sorted samples of the symbol on a uniform grid: its value distribution (None as ``support``).
    kolmogorov, wasserstein : float
        Distances between the two distributions (Kolmogorov at ``resolution``).
    resolution : float
        Values closer than this are not distinguished (eigenvalue accuracy).
    error_estimate : float
        For ``slq``: an estimate of the error of ``kolmogorov`` (probe noise plus quadrature
        discretisation); ``0`` for ``exact`` beyond rounding.
    probes, steps : int
        SLQ parameters (0 for exact).
    eigenvalue_range, symbol_range : tuple of float
        ``(min, max)`` of the atoms and of the symbol's samples (from the arrays when not given).
    """

    n: int
    method: str
    support: np.ndarray | None
    weights: np.ndarray | None
    symbol_values: np.ndarray | None
    kolmogorov: float
    wasserstein: float
    resolution: float
    error_estimate: float
    probes: int = 0
    steps: int = 0
    eigenvalue_range: tuple | None = None
    symbol_range: tuple | None = None

    def __post_init__(self):
        if self.eigenvalue_range is None:
            self.eigenvalue_range = (float(self.support.min()), float(self.support.max()))
        if self.symbol_range is None:
            self.symbol_range = (float(self.symbol_values[0]), float(self.symbol_values[-1]))

    def _atoms(self) -> None:
        if self.support is None or self.symbol_values is None:
            raise ValueError("this spectral distribution was read back from a record, which keeps its distances and "
                             "ranges but not its atoms; petheory.toeplitz.spectral_distribution computes them")

    def cdf(self, x) -> np.ndarray:
        """Eigenvalue CDF at ``x``."""
        self._atoms()
        o = np.argsort(self.support)
        F = np.cumsum(self.weights[o])
        F /= F[-1]
        i = np.searchsorted(self.support[o], np.asarray(x, dtype=np.float64), side="right")
        return np.where(i > 0, F[np.maximum(i - 1, 0)], 0.0)

    def symbol_cdf(self, x) -> np.ndarray:
        """Symbol value CDF at ``x``: the fraction of ``theta`` with ``a(theta) <= x``."""
        self._atoms()
        return np.searchsorted(self.symbol_values, np.asarray(x, dtype=np.float64), side="right") / self.symbol_values.shape[0]

    def as_dict(self) -> dict:
        """The scalars and the two ranges (not the atoms: a record's JSON)."""
        return {
            "n": self.n,
            "method": self.method,
            "kolmogorov": self.kolmogorov,
            "wasserstein": self.wasserstein,
            "resolution": self.resolution,
            "error_estimate": self.error_estimate,
            "probes": self.probes,
            "steps": self.steps,
            "eigenvalue_range": list(self.eigenvalue_range),
            "symbol_range": list(self.symbol_range),
        }

    @classmethod
    def from_dict(cls, d: dict) -> "SpectralDistribution":
        """The distribution :meth:`as_dict` wrote: its distances and ranges, without the atoms (see ``support``).

        >>> sd = spectral_distribution([2.0, 1.0], method="exact")
        >>> back = SpectralDistribution.from_dict(sd.as_dict())
        >>> back.as_dict() == sd.as_dict(), back.support is None
        (True, True)
        """
        return cls(d["n"], d["method"], None, None, None,
                   *(json_number(d[k]) for k in ("kolmogorov", "wasserstein", "resolution", "error_estimate")),
                   d["probes"], d["steps"], tuple(json_number(x) for x in d["eigenvalue_range"]),
                   tuple(json_number(x) for x in d["symbol_range"]))


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
    progress=None,
) -> SpectralDistribution:
    r"""Eigenvalue distribution of a Hermitian ``T_N`` vs its symbol's value distribution (Szegő).

    Parameters
    ----------
    c : array_like, shape (N,)
        First column.
    r : array_like, shape (N,), optional
        First row; if given it must be ``conj(c)``.
    symbol : callable, optional
        ``symbol(theta) -> values`` (shape preserved), e.g. a closed-form ``N -> infinity``
        symbol from :data:`KERNELS`. Default: the symbol of ``T_N`` itself (:func:`symbol`).
    method : {'auto', 'exact', 'slq'}
        ``exact``: dense eigenvalues (``O(N^3)``); ``slq``: stochastic Lanczos quadrature on
        FFT matvecs (``O(probes * steps * N log N)``); ``auto``: exact for ``N <= exact_below``.
    exact_below : int
        The largest ``N`` that ``auto`` decomposes densely (default 4096).
    tol : float
        Target accuracy of the Kolmogorov distance for ``slq``; sets the defaults
        ``probes = max(2, ceil(12.5 / (N tol^2)))`` and ``steps = ceil(10 / tol)``.
    probes, steps : int, optional
        Random probe vectors and Lanczos steps of ``slq`` (defaults from ``tol``).
    n_symbol : int, optional
        Symbol samples (default ``max(2^15, 4N)`` rounded up to a power of two).
    seed : int or numpy.random.Generator
        For the SLQ probe vectors.
    progress : callable, optional
        ``progress(method)`` once the sizes are accepted (memory), before the eigenvalues or the
        quadrature: the CLI says on stderr that long work starts, and never before a refusal.

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

    See Also
    --------
    kolmogorov_distance, wasserstein_distance

    Examples
    --------
    >>> from petheory import toeplitz
    >>> sd = toeplitz.spectral_distribution([2.0, 0.5] + [0.0] * 62, method='exact')
    >>> sd.method, bool(sd.kolmogorov < 0.1)  # Szegő: the eigenvalues follow the symbol
    ('exact', True)
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
    if progress is not None:
        progress(method)
    theta = 2 * np.pi * (np.arange(ms) + 0.5) / ms
    if symbol is None:
        sym = _symbol_of(c, r, theta)[1] if ms < n else _shifted_grid_symbol(c, ms)
    else:
        sym = np.asarray(symbol(theta), dtype=np.float64)
        if sym.shape != theta.shape or not np.all(np.isfinite(sym)):
            raise ValidationError("symbol(theta) must return finite real values of the same shape as theta")
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
    with blas_threads(1):
        nodes, wts = _slq(T, m, k, v.generator(seed))
    res = (k + 8 * math.ceil(math.log2(T.L))) * _U * T.embedding_norm
    ks = kolmogorov_distance(nodes, sym, wts, None, resolution=res)
    err = 2.5 / math.sqrt(2 * n * m) + float(np.max(wts)) * m / 2
    return SpectralDistribution(n, "slq", nodes, wts, sym, ks, wasserstein_distance(nodes, sym, wts), res, err, m, k)


def _shifted_grid_symbol(c: np.ndarray, ms: int) -> np.ndarray:
    """Symbol at theta_j = 2 pi (j + 1/2)/ms by FFT (the half-step shift avoids theta=0 exactly)."""
    n = c.shape[0]
    z = np.zeros(ms, dtype=np.complex128)
    z[:n] = c * np.exp(1j * np.pi * np.arange(n) / ms)
    return 2.0 * (scipy.fft.ifft(z) * ms).real - float(np.real(c[0]))


def _slq(T: ToeplitzOperator, m: int, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Stochastic Lanczos quadrature: nodes and weights, shape (m*k,) each (weights sum to 1)."""
    n = T.n
    q = rng.choice(np.array([-1.0, 1.0]), size=(m, n)) / math.sqrt(n)  # (m, N) unit rows
    q_prev = np.zeros_like(q)
    alpha = np.zeros((m, k))
    beta = np.zeros((m, k))
    b_prev = np.zeros(m)
    length = np.full(m, k)
    scale = T.embedding_norm
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
