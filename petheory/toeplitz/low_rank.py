r"""Exact spectra of rotary position-only kernels through their small Gram matrix.

The position-only kernel of a rotary table with unit content in every band,

.. math:: a_k = F\sum_{t=1}^{r}\cos(k\omega_t),\qquad T_N = [a_{i-j}]_{i,j<N},

is a Gram matrix: :math:`\cos((i-j)\omega) = \cos i\omega\cos j\omega + \sin i\omega\sin j\omega`, so
:math:`T_N = F\,PP^\top` with :math:`P = [\cos(k\omega_t),\ \sin(k\omega_t)]_{k<N}` of shape
(N, 2r). Its nonzero eigenvalues are those of the (2r, 2r) matrix :math:`G = F\,P^\top P`, and
every other eigenvalue is 0 (rank at most 2r). The entries of G are Dirichlet sums with closed
forms, so the whole spectrum costs :math:`O(r^2)` for the entries and :math:`O(r^3)` for
``eigvalsh``, whatever N is: no FFT, no (N, r) table, no iteration. This is the kernel
``petheory report`` certifies for RoPE, PI, NTK, YaRN, Llama 3 and LongRoPE
(:func:`petheory.analyses.kernel.rotary_column`); gu2025 Remark 3.2 (the sinusoidal Gram is
Toeplitz) is the case :math:`F = 1`, :math:`\omega_t = b^{-2t/d}`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from petheory import _validate as v
from petheory._threads import blas_threads
from petheory.toeplitz._common import _U
from petheory.toeplitz.eigen import EigenEstimate, ExtremeEigenvalues


def _dirichlet_sums(x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    r""":math:`D(x) = \sum_{k<n}\cos kx` and :math:`E(x) = \sum_{k<n}\sin kx`, elementwise.

    Closed forms :math:`D = \sin(nx/2)\cos((n-1)x/2)/\sin(x/2)`,
    :math:`E = \sin(nx/2)\sin((n-1)x/2)/\sin(x/2)` after reducing x to :math:`[-\pi, \pi]`
    (both are :math:`2\pi`-periodic); :math:`D = n`, :math:`E = 0` where x is a multiple of
    :math:`2\pi`. Each factor is accurate to ``u n |x|/2`` absolutely and
    :math:`|x|/|\sin(x/2)| \le \pi` on the reduced range, so the error is at most about
    ``(pi + 4) u n`` (see :func:`rotary_kernel_gram`).
    """
    xr = x - 2.0 * np.pi * np.round(x / (2.0 * np.pi))
    s = np.sin(xr / 2.0)
    zero = s == 0.0
    s = np.where(zero, 1.0, s)
    head = np.sin(n * xr / 2.0) / s
    half = (n - 1) * xr / 2.0
    D = np.where(zero, float(n), head * np.cos(half))
    E = np.where(zero, 0.0, head * np.sin(half))
    return D, E


def rotary_kernel_gram(freqs, n: int, factor: float = 1.0) -> np.ndarray:
    r"""The (2r, 2r) Gram :math:`F\,P^\top P` whose nonzero eigenvalues are those of ``T_n``.

    Parameters
    ----------
    freqs : array_like, shape (r,)
        Band frequencies :math:`\omega_t` (rad/position), finite.
    n : int
        Size N of the Toeplitz kernel :math:`a_k = F\sum_t\cos(k\omega_t)`, ``k < n``.
    factor : float
        F (the rotary logit factor times the logit factor).

    Returns
    -------
    ndarray, shape (2r, 2r)
        Blocks ``[[CC, CS], [CS^T, SS]]`` with :math:`CC_{st} = \sum_k\cos k\omega_s\cos k\omega_t`,
        :math:`SS_{st} = \sum_k\sin k\omega_s\sin k\omega_t`, :math:`CS_{st} = \sum_k\cos k\omega_s\sin k\omega_t`,
        times F.

    Notes
    -----
    Product-to-sum turns each entry into Dirichlet sums at :math:`\omega_s\pm\omega_t`
    (:math:`CC, SS = \tfrac12[D(\omega_s-\omega_t) \pm D(\omega_s+\omega_t)]`,
    :math:`CS = \tfrac12[E(\omega_s+\omega_t) + E(\omega_t-\omega_s)]`), each in closed form.
    Error model: every entry is within ``9 u n |F|`` of the exact sum for the frequencies as
    given — better than summing ``cos(k w)`` term by term, whose arguments ``k w`` carry
    ``u k w`` each. ``SS`` entries of two tiny frequencies are differences of near-equal
    ``D`` values: accurate absolutely (``~u n``), not relatively.

    See Also
    --------
    rotary_kernel_spectrum, rotary_kernel_extremes

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> G = toeplitz.rotary_kernel_gram([0.5], 4)
    >>> P = np.stack([np.cos(0.5 * np.arange(4)), np.sin(0.5 * np.arange(4))], axis=1)
    >>> bool(np.allclose(G, P.T @ P))
    True
    """
    w = v.array("freqs", freqs, ndim=1, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    factor = v.real("factor", factor)
    a, b = w[:, None], w[None, :]
    Dm, Em = _dirichlet_sums(a - b, n)  # D(w_s - w_t), E(w_s - w_t)
    Dp, Ep = _dirichlet_sums(a + b, n)  # D(w_s + w_t), E(w_s + w_t)
    CC = 0.5 * (Dm + Dp)
    SS = 0.5 * (Dm - Dp)
    CS = 0.5 * (Ep - Em)  # E(w_t - w_s) = -E(w_s - w_t)
    G = np.block([[CC, CS], [CS.T, SS]])
    return factor * ((G + G.T) / 2.0)


@dataclass(frozen=True)
class LowRankSpectrum:
    """Every eigenvalue of a rotary kernel ``T_n``: ``values`` (ascending) and ``zeros`` more zeros.

    ``values`` has ``min(n, 2r)`` entries (the eigenvalues of the Gram that are eigenvalues of
    ``T_n``); the other ``zeros = n - len(values)`` eigenvalues of ``T_n`` are exactly 0 (rank).
    ``error`` bounds ``|computed - exact|`` for every value (see :func:`rotary_kernel_spectrum`).

    Attributes
    ----------
    values : numpy.ndarray
        The eigenvalues that are not structurally 0, ascending.
    zeros : int
        How many further eigenvalues are exactly 0.
    error : float
        Bound on :math:`\\lvert\\mathrm{computed} - \\mathrm{exact}\\rvert` for every value.
    n : int
        Size of :math:`T_n`.
    factor : float
        The factor the kernel is multiplied by (negative: its spectrum is mirrored).
    """

    values: np.ndarray
    zeros: int
    error: float
    n: int

    factor: float

    @property
    def min(self) -> float:
        r"""lambda_min: exactly 0 when there are zeros by rank and :math:`F \ge 0` (:math:`FPP^T` is then semidefinite)."""
        if self.zeros and self.factor >= 0 or self.values.shape[0] == 0:
            return 0.0
        return float(min(self.values[0], 0.0)) if self.zeros else float(self.values[0])

    @property
    def max(self) -> float:
        """lambda_max: exactly 0 when there are zeros by rank and F <= 0."""
        if self.zeros and self.factor <= 0 or self.values.shape[0] == 0:
            return 0.0
        return float(max(self.values[-1], 0.0)) if self.zeros else float(self.values[-1])


def rotary_kernel_spectrum(freqs, n: int, factor: float = 1.0) -> LowRankSpectrum:
    r"""All eigenvalues of the N x N rotary kernel :math:`a_k = F\sum_t\cos(k\omega_t)`, in :math:`O(r^3)`.

    Parameters
    ----------
    freqs : array_like, shape (r,)
        Band frequencies (rad/position).
    n : int
        N, any size (1 to :math:`10^9` cost the same).
    factor : float
        F.

    Returns
    -------
    LowRankSpectrum
        ``values`` ascending, shape (min(n, 2r),), plus ``zeros`` eigenvalues equal to 0.

    Notes
    -----
    ``T_n = F P P^T`` and ``F P^T P`` (:func:`rotary_kernel_gram`) have the same nonzero
    eigenvalues; for ``n < 2r`` the Gram has ``2r - n`` extra zeros, dropped here (the ``n``
    eigenvalues of largest ``F``-signed value are kept, all others being 0 since ``F P^T P``
    is semidefinite). Error bound (Weyl, with the entry model of :func:`rotary_kernel_gram`
    and LAPACK's backward error ``~ 2r u ||G||_2 <= 2r u |F| n r``):
    ``error = |F| u n (18 r + 2 r^2)``. Rank-deficient Grams (close frequencies, small ``n``)
    give eigenvalues within ``error`` of 0, of either sign.

    See Also
    --------
    rotary_kernel_extremes : the two extremes as :func:`extreme_eigenvalues` returns them.
    petheory.toeplitz.extreme_eigenvalues : the certified FFT path for any Hermitian Toeplitz.

    Examples
    --------
    >>> from petheory import toeplitz
    >>> s = toeplitz.rotary_kernel_spectrum([0.0, 3.14159], 1_000_000)
    >>> s.zeros, round(s.max / 1e6, 6)
    (999996, 1.0)
    """
    w = v.array("freqs", freqs, ndim=1, dtype="real", nonempty=False)
    n = v.integer("n", n, minimum=1)
    factor = v.real("factor", factor)
    r = w.shape[0]
    G = rotary_kernel_gram(w, n, factor)
    with blas_threads(1):  # a (2r, 2r) eigenproblem: BLAS threads only wait on each other
        vals = sla.eigvalsh(G, check_finite=False) if r else np.zeros(0)
    if vals.shape[0] > n:  # only n of the Gram's eigenvalues are T's; the rest are 0
        vals = vals[-n:] if factor >= 0 else vals[:n]
    error = abs(factor) * _U * n * (18 * r + 2 * r * r)
    return LowRankSpectrum(np.sort(vals), n - vals.shape[0], float(error), n, float(factor))


def rotary_kernel_extremes(freqs, n: int, factor: float = 1.0) -> ExtremeEigenvalues:
    r"""``(lambda_min, lambda_max)`` of the rotary kernel ``T_n``, exact up to rounding, from its Gram.

    The same kernel :func:`petheory.toeplitz.extreme_eigenvalues` certifies from its column
    (FFT matvecs, ``O(N log N)`` per iteration), at :math:`O(r^3)` whatever N is; the returned
    :class:`EigenEstimate` s carry ``certificate='gram'``, ``residual=0``, a bracket of
    half-width ``error`` (:func:`rotary_kernel_spectrum`), and no iterations. An eigenvalue 0 by
    rank (``n > 2r``) is returned as exactly 0 with error 0.

    Parameters
    ----------
    freqs : array_like of float, shape (r,)
        The rotation frequencies :math:`\omega_t` of the kernel :math:`a_k = \text{factor}\sum_t\cos(k\omega_t)`.
    n : int
        Matrix size.
    factor : float, optional
        The kernel's weight (default 1; YaRN: ``mscale ** 2``).

    Returns
    -------
    ExtremeEigenvalues
        ``(lambda_min, lambda_max)``, each an :class:`EigenEstimate` with ``certificate='gram'``.

    References
    ----------
    su2024 Eq. 15 (RoPE's kernel); gu2025 §3.3 (its spectrum).

    Examples
    --------
    >>> from petheory import toeplitz
    >>> lo, hi = toeplitz.rotary_kernel_extremes([0.1, 0.2], 1 << 20)
    >>> lo
    0.0
    """
    s = rotary_kernel_spectrum(freqs, n, factor)

    def est(value: float, exact_zero: bool) -> EigenEstimate:
        err = 0.0 if exact_zero else s.error
        return EigenEstimate(value, 0.0, (value - err, value + err), err, "gram", 0, 0, True)

    empty = s.values.shape[0] == 0
    lo_zero = empty or (bool(s.zeros) and s.factor >= 0)  # 0 by rank, and F P P^T >= 0
    hi_zero = empty or (bool(s.zeros) and s.factor <= 0)
    return ExtremeEigenvalues(est(s.min, lo_zero), est(s.max, hi_zero))
