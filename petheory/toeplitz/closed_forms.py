r"""Closed-form symbols of the Toeplitz matrices that positional encodings make.

* ALiBi's symmetric bias ``a_k = -m|k|`` (press2022; li2025 §5.3): :func:`alibi_symbol`;
* the sinusoidal Gram ``P P^T`` (gu2025 Remark 3.2) and RoPE's unit-content kernel with its
  context extensions (su2024 Eq. 15): Dirichlet-kernel sums, :func:`sinusoidal_gram_symbol`,
  :func:`rotary_kernel_symbol`; Sandwich (Chi et al. 2023): :func:`sandwich_symbol`;
* relative-position kernels with ``N -> infinity`` symbols (Poisson kernel, Poisson summation):
  :data:`KERNELS`;
* the Fejér (Cesàro) symbol and conditional positive definiteness (:func:`fejer_symbol`,
  :func:`conditional_definiteness`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.encodings.rotary import rope_frequencies
from petheory.toeplitz._common import _U, _need_fft
from petheory.toeplitz.operators import coefficients, dense
from petheory.errors import ValidationError


# ----------------------------------------------------------------------------- closed forms


def alibi_symbol(theta, n: int, slope: float = 1.0) -> np.ndarray:
    r"""Symbol of the symmetric ALiBi bias ``T_n`` with ``a_k = -slope |k|``, shape of ``theta``.

    .. math:: a_n(\theta) = -2m\sum_{k=1}^{n-1} k\cos k\theta
              = -m\,\frac{n\cos((n-1)\theta) - (n-1)\cos(n\theta) - 1}{1-\cos\theta},

    with the limit :math:`-m\,n(n-1)` at :math:`\theta = 0`. The coefficients grow with ``|k|``,
    so ALiBi has no ``n``-independent symbol: Szegő's theorem does not apply to it as ``n`` grows.

    Parameters
    ----------
    theta : array_like of float
        Frequencies (radians); any shape.
    n : int
        Matrix size, >= 1.
    slope : float, optional
        ALiBi's slope ``m >= 0`` (default 1).

    Returns
    -------
    numpy.ndarray
        :math:`a_n(\theta)`, float64, the shape of ``theta``.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, a negative slope or a non-real ``theta``.

    Notes
    -----
    The closed form cancels catastrophically near ``theta = 0`` (relative error about
    ``u n^2 / theta^2``); below ``|theta| < 1/n`` the direct sum is used instead.

    See Also
    --------
    petheory.encodings.bias.alibi

    References
    ----------
    press2022 (ALiBi, §3); li2025 §5.3 (the bias as a Toeplitz matrix).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings, toeplitz
    >>> theta = np.array([0.5])
    >>> _, a = toeplitz.symbol(encodings.alibi(6)[:, 0], theta=theta)
    >>> bool(np.allclose(toeplitz.alibi_symbol(theta, 6), a.real))
    True
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

    Parameters
    ----------
    n : int
        Number of positions, >= 1.
    d : int
        Embedding width (even); the frequencies are ``base ** (-2t/d)``, ``t = 0..d/2-1``.
    base : float, optional
        Frequency base (default 10000).

    Returns
    -------
    numpy.ndarray
        ``a_k``, shape (n,), float64; ``a_0 = d/2``.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1`` or an odd ``d``.

    References
    ----------
    gu2025 Remark 3.2 (the sinusoidal Gram is Toeplitz); vaswani2017 §3.5 (the encoding).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> from petheory.toeplitz.closed_forms import sinusoidal_gram_coefficients
    >>> P = encodings.sinusoidal(8, 16)
    >>> bool(np.allclose(sinusoidal_gram_coefficients(8, 16), (P @ P.T)[:, 0]))
    True
    """
    n = v.integer("n", n, minimum=1)
    w = rope_frequencies(d, base=base)  # the same frequencies base^(-2t/d)
    _memory.require(_memory.array_bytes(n, w.size, itemsize=2 * 8), f"sinusoidal Gram coefficients (n = {n}, d = {d})")
    return np.cos(np.outer(np.arange(n, dtype=np.float64), w)).sum(axis=1)


def sinusoidal_gram_symbol(theta, n: int, d: int, *, base: float = 10000.0) -> np.ndarray:
    r"""Symbol of the ``n x n`` sinusoidal Gram ``P P^T`` in closed form, shape of ``theta``.

    .. math:: a_n(\theta) = \tfrac12\sum_t \big[D_{n-1}(\theta-\omega_t) + D_{n-1}(\theta+\omega_t)\big],
              \quad D_m(x) = \frac{\sin((m+\frac12)x)}{\sin(x/2)},

    the Dirichlet kernel. It has peaks of height about ``n`` at :math:`\pm\omega_t`, so it does not
    converge as ``n`` grows (``P P^T`` has rank at most ``d``). :func:`rotary_kernel_symbol` at the
    frequencies :math:`\omega_t = base^{-2t/d}`.

    Parameters
    ----------
    theta : array_like of float
        Frequencies (radians); any shape.
    n : int
        Number of positions, >= 1.
    d : int
        Embedding width (even).
    base : float, optional
        Frequency base (default 10000).

    Returns
    -------
    numpy.ndarray
        :math:`a_n(\theta)`, float64, the shape of ``theta``.

    References
    ----------
    gu2025 Remark 3.2 and §3.3 (the symbol of the sinusoidal Gram).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> from petheory.toeplitz.closed_forms import sinusoidal_gram_coefficients, sinusoidal_gram_symbol
    >>> theta = np.array([0.3, 1.0])
    >>> _, direct = toeplitz.symbol(sinusoidal_gram_coefficients(12, 8), theta=theta)
    >>> bool(np.allclose(sinusoidal_gram_symbol(theta, 12, 8), direct.real))
    True
    """
    return rotary_kernel_symbol(theta, n, rope_frequencies(d, base=base))


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
    """A relative-position kernel ``a_k = kappa(|k|)`` with its symbol when one is known.

    Attributes
    ----------
    name : str
        The kernel's name.
    formula : str
        :math:`\\kappa` as a formula.
    coefficients : callable
        ``(n, length) -> (n,)``: :math:`a_0, \\dots, a_{n-1}`.
    symbol : callable or None
        ``(theta, length) ->`` the values of the infinite-N symbol, or None when no closed form is known.
    """

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
            raise ValidationError(f"kernel {self.name!r} has no closed-form symbol")
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
    """The kernel registered under ``name`` in :data:`KERNELS`.

    Parameters
    ----------
    name : str
        A key of :data:`KERNELS`: ``'exponential'``, ``'gaussian'`` or ``'power'``.

    Returns
    -------
    Kernel
        Its coefficients (``.column(n, length)``) and, where known, its symbol (``.symbol_values``).

    Raises
    ------
    petheory.errors.ValidationError
        An unknown name (the message lists the known ones).

    Examples
    --------
    >>> from petheory.toeplitz.closed_forms import kernel
    >>> k = kernel("exponential")
    >>> [round(float(x), 4) for x in k.column(3, 2.0)]
    [1.0, 0.6065, 0.3679]
    """
    v.choice("kernel", name, KERNELS)
    return KERNELS[name]


# ----------------------------------------------------------------------------- long-context encodings


def rotary_kernel_symbol(theta, n: int, freqs, *, weight: float = 1.0) -> np.ndarray:
    r"""Closed-form symbol of the ``n x n`` Toeplitz kernel :math:`a_k = w\sum_t\cos(k\omega_t)`, shape of ``theta``.

    .. math:: a_n(\theta) = \tfrac w2\sum_t\big[D_{n-1}(\theta-\omega_t) + D_{n-1}(\theta+\omega_t)\big]

    (:func:`sinusoidal_gram_symbol` for arbitrary frequencies): the unit-content kernel of RoPE
    and of its context extensions, PI, NTK and YaRN (``freqs`` their scaled frequencies,
    ``weight`` YaRN's ``mscale**2``). xPos's kernel is not of this form (its terms carry
    :math:`\zeta_t^{k/B}`).

    Parameters
    ----------
    theta : array_like of float
        Frequencies (radians); any shape.
    n : int
        Matrix size, >= 1.
    freqs : array_like of float
        The rotation frequencies :math:`\omega_t`, shape (d/2,).
    weight : float, optional
        The factor ``w`` (default 1; YaRN: ``mscale ** 2``).

    Returns
    -------
    numpy.ndarray
        :math:`a_n(\theta)`, float64, the shape of ``theta``.

    References
    ----------
    su2024 Eq. 15 (RoPE's kernel); chen2023 (PI), peng2023 (YaRN) for the scaled frequencies.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> from petheory.toeplitz.closed_forms import rotary_kernel_symbol
    >>> w = np.array([1.0, 0.1])
    >>> a = np.cos(np.outer(np.arange(10), w)).sum(axis=1)
    >>> _, direct = toeplitz.symbol(a, theta=np.array([0.5]))
    >>> bool(np.allclose(rotary_kernel_symbol([0.5], 10, w), direct.real))
    True
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
    r"""Closed-form symbol of the ``n x n`` Sandwich bias (``encodings.kernels.sandwich``), shape of ``theta``.

    With :math:`a_k = s\sum_{i=1}^{\bar d/2}(\cos(k w_i) - 1)`, :math:`w_i = b^{-2i/\bar d}`:

    .. math:: a_n(\theta) = s\Big(\tfrac12\sum_i\big[D_{n-1}(\theta-w_i)+D_{n-1}(\theta+w_i)\big]
              - \tfrac{\bar d}{2}D_{n-1}(\theta)\Big).

    The first term is the symbol of a Gram matrix (positive semidefinite); the shift by the
    diagonal subtracts :math:`\tfrac{\bar d}2 D_{n-1}`, a spike of height
    :math:`\tfrac{\bar d}{2}(2n-1)` at :math:`\theta=0` that changes no row softmax.

    Parameters
    ----------
    theta : array_like of float
        Frequencies (radians); any shape.
    n : int
        Matrix size, >= 1.
    d_bar : int, optional
        Sandwich's even width :math:`\bar d` (default 128).
    base : float, optional
        Frequency base ``b`` (default 10000).
    scale : float, optional
        The factor ``s`` (default 1).

    Returns
    -------
    numpy.ndarray
        :math:`a_n(\theta)`, float64, the shape of ``theta``.

    References
    ----------
    chi2023 (Sandwich, the bias :math:`\bar p_i^\top \bar p_j` less its diagonal).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings, toeplitz
    >>> from petheory.toeplitz.closed_forms import sandwich_symbol
    >>> c = encodings.sandwich(9, d_bar=8)[:, 0]
    >>> _, direct = toeplitz.symbol(c, theta=np.array([0.7]))
    >>> bool(np.allclose(sandwich_symbol([0.7], 9, d_bar=8), direct.real))
    True
    """
    theta = v.array("theta", theta, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    d_bar = v.even("d_bar", d_bar)
    w = rope_frequencies(d_bar, base=base, first=1)  # w_i = base^(-2i/d_bar), i = 1..d_bar/2
    return v.real("scale", scale) * (rotary_kernel_symbol(theta, n, w) - (d_bar / 2) * _dirichlet(np.asarray(theta, float), n - 1))


def fejer_symbol(c, theta) -> np.ndarray:
    r"""Fejér (Cesàro) symbol :math:`\sigma_n(\theta) = \sum_{|k|<n}(1-|k|/n)a_k e^{ik\theta}` of a Hermitian Toeplitz column.

    :math:`\sigma_n(\theta) = \tfrac1n e_\theta^* T_n e_\theta` with :math:`e_\theta = (e^{ij\theta})_j`:
    the Rayleigh quotient of a Fourier vector, shape of ``theta``.

    Parameters
    ----------
    c : array_like
        First column ``a_0..a_{n-1}`` of a Hermitian Toeplitz matrix.
    theta : array_like of float
        Frequencies (radians); any shape.

    Returns
    -------
    numpy.ndarray
        :math:`\sigma_n(\theta)`, float64, the shape of ``theta``.

    References
    ----------
    Grenander and Szegő (1958), §5 (Cesàro means of the symbol); gu2025 §3.3.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.toeplitz.closed_forms import fejer_symbol
    >>> c = np.array([2.0, -1.0, 0.0])
    >>> T = np.array([[2.0, -1, 0], [-1, 2, -1], [0, -1, 2]])
    >>> e = np.exp(1j * 0.4 * np.arange(3))
    >>> bool(np.isclose(fejer_symbol(c, [0.4])[0], (e.conj() @ T @ e).real / 3))
    True
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

    Parameters
    ----------
    c : array_like of float
        First column ``a_0..a_{n-1}`` of a real symmetric Toeplitz matrix, ``n <= 4096``.

    Returns
    -------
    dict
        ``min_compressed``, ``negative_eigenvalues``, ``fejer_min_nonzero``, ``fejer_at_zero``, ``tol`` and ``cpd``
        (above).

    Raises
    ------
    petheory.errors.ValidationError
        Complex coefficients, or ``n > 4096`` (the test is dense).

    References
    ----------
    Schoenberg (1938) for conditionally positive definite kernels; press2022 and kerple (Chi et al. 2022) for
    ``-|k|`` and ``-log(1 + r|k|)`` as biases.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.toeplitz.closed_forms import conditional_definiteness
    >>> k = np.arange(6.0)
    >>> conditional_definiteness(-k)["cpd"], conditional_definiteness(-k ** 3)["cpd"]
    (True, False)
    """
    c, _ = coefficients(c, hermitian=True)
    if np.iscomplexobj(c):
        raise ValidationError("conditional_definiteness needs a real symmetric Toeplitz matrix (real coefficients)")
    n = c.shape[0]
    if n > 4096:
        raise ValidationError(f"conditional_definiteness is dense; n must be <= 4096, got {n}")
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
