r"""gu2025 Appendix B, Lemma B.1: the phase-modulated trigonometric sum ``f`` against ``g``.

Lemma B.1 compares :math:`f(\theta)=\sum_i 2w_i\cos(\psi_i+i\theta)` with
:math:`g(\theta)=\sum_i 2w_i\cos(i\theta)` (``w_i >= 0``); ``f`` is the symbol of ``W ∘ E`` and
``g`` that of ``W`` in Prop. B.3. Both extremes come certified from
:func:`petheory.toeplitz.symbol_extrema`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from petheory import _validate as v
from petheory.toeplitz.symbols import SymbolExtrema
from petheory.toeplitz.symbols import symbol_extrema
from petheory.errors import ValidationError


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

    References
    ----------
    gu2025 Lemma B.1 and Prop. B.3.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> c = toeplitz.phase_modulated_column([1.0, 0.5], [0.0, 0.3])
    >>> theta = np.array([0.8])
    >>> _, f = toeplitz.symbol(c, theta=theta)
    >>> want = 2 * 1.0 * np.cos(0.0) + 2 * 0.5 * np.cos(1 * 0.3 + 0.8)  # reading 'statement': psi_i = i theta_i
    >>> bool(np.isclose(f.real[0], want))
    True
    """
    w = v.array("weights", weights, ndim=1)
    if np.any(w < 0):
        raise ValidationError(f"weights must be >= 0 (Lemma B.1), got min {w.min()}")
    th = np.zeros_like(w) if phases is None else v.array("phases", phases, ndim=1)
    if th.shape != w.shape:
        raise ValidationError(f"phases must have the shape of weights {w.shape}, got {th.shape}")
    v.choice("reading", reading, LEMMA_B1_READINGS)
    i = np.arange(w.shape[0], dtype=np.float64)
    psi = th if reading == "proof" else i * th
    col = w * np.exp(1j * psi)
    col[0] = 2.0 * w[0] * np.cos(psi[0])
    return col


@dataclass(frozen=True)
class LemmaB1:
    """Extremes of Lemma B.1's ``f`` and ``g`` (:class:`SymbolExtrema` each) and ``2 sum w``.

    Attributes
    ----------
    f, g : SymbolExtrema
        Extremes of Lemma B.1's f (phases as given) and g (phases aligned).
    bound : float
        :math:`2\\sum_i w_i`.
    """

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

    Parameters
    ----------
    weights : array_like, shape (N,)
        ``w_i >= 0``.
    phases : array_like, shape (N,)
        ``theta_i``.
    reading : {'statement', 'proof'}
        As :func:`phase_modulated_column`.
    n_grid : int, optional
        Grid of :func:`symbol_extrema` (default: a power of two >= max(64 N, 4096)).

    Returns
    -------
    LemmaB1
        The extremes of ``f`` and ``g`` (:class:`SymbolExtrema` each) and ``bound = 2 sum w_i``.

    Notes
    -----
    The grid is ``>= 64 N`` points (at least 4096), so ``h^2/8 max|f''|`` is small and every
    peak is refined. Refined values are attained values of ``f``, hence lower bounds of the
    maximum and upper bounds of the minimum; ``error`` covers the rest.

    See Also
    --------
    phase_modulated_column

    References
    ----------
    gu2025 Lemma B.1 and Prop. B.3.

    Examples
    --------
    >>> from petheory import toeplitz
    >>> r = toeplitz.lemma_b1([1.0, 0.5], [0.0, 0.3])
    >>> round(r.f.max, 10), round(r.g.max, 10), r.bound  # |f|, |g| <= 2 sum_i w_i
    (3.0, 3.0, 3.0)
    """
    cf = phase_modulated_column(weights, phases, reading=reading)
    cg = phase_modulated_column(weights, None)
    n = cf.shape[0]
    m = n_grid if n_grid is not None else 1 << int(math.ceil(math.log2(max(4096, 64 * n))))
    ef = symbol_extrema(cf, n_grid=m)
    eg = symbol_extrema(cg, n_grid=m)
    return LemmaB1(ef, eg, 2.0 * float(np.sum(np.real(cg[1:]))) + float(np.real(cg[0])))
