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
* :func:`rotary_kernel_spectrum`, :func:`rotary_kernel_extremes` — every eigenvalue of a rotary
  position-only kernel ``a_k = F sum_t cos(k w_t)`` (rank <= 2r) from its (2r, 2r) Gram, exact up
  to rounding in ``O(r^3)`` at any N.
* :func:`spectral_distribution` — empirical eigenvalue distribution vs the symbol's value
  distribution (Kolmogorov and Wasserstein distances), exact or by stochastic Lanczos quadrature.
* :func:`toeplitz_projection`, :func:`toeplitz_defect` — how far any matrix is from Toeplitz.
* :func:`phase_modulated_column`, :func:`lemma_b1` — gu2025 Lemma B.1's ``f`` (the symbol of
  ``W ∘ E``) and ``g`` (that of ``W``), with certified extremes.

Files, one idea each: :mod:`~petheory.toeplitz.operators` (data, dense, FFT operator,
Toeplitz-ness), :mod:`~petheory.toeplitz.symbols` (symbol and its certified extremes),
:mod:`~petheory.toeplitz.closed_forms` (closed-form symbols of PE matrices and kernels),
:mod:`~petheory.toeplitz.phase_modulation` (gu2025 Lemma B.1), :mod:`~petheory.toeplitz.eigen`
(eigenvalues), :mod:`~petheory.toeplitz.low_rank` (exact spectra of rotary kernels), :mod:`~petheory.toeplitz.szego` (Szegő distributions), :mod:`~petheory.toeplitz.sources` (the
Toeplitz matrix an encoding defines). Import from
``petheory.toeplitz``: every public name is here.
"""

from __future__ import annotations

from petheory.toeplitz.closed_forms import (
    KERNELS,
    Kernel,
    alibi_symbol,
    conditional_definiteness,
    fejer_symbol,
    kernel,
    rotary_kernel_symbol,
    sandwich_symbol,
    sinusoidal_gram_coefficients,
    sinusoidal_gram_symbol,
)
from petheory.toeplitz.eigen import EigenEstimate, ExtremeEigenvalues, eigenvalues, extreme_eigenvalues
from petheory.toeplitz.low_rank import LowRankSpectrum, rotary_kernel_extremes, rotary_kernel_gram, rotary_kernel_spectrum
from petheory.toeplitz.phase_modulation import LEMMA_B1_READINGS, LemmaB1, lemma_b1, phase_modulated_column
from petheory.toeplitz.operators import (
    GRAM_DENSE_MAX,
    GramColumn,
    NotToeplitzError,
    ToeplitzOperator,
    coefficients,
    dense,
    gram_toeplitz_column,
    hermitian_part,
    operator,
    rounding_defect,
    toeplitz_defect,
    toeplitz_projection,
)
from petheory.toeplitz.sources import ToeplitzSource, encoding_source, gram_source
from petheory.toeplitz.symbols import SymbolExtrema, symbol, symbol_extrema, symbol_grid
from petheory.toeplitz.szego import SpectralDistribution, kolmogorov_distance, spectral_distribution, wasserstein_distance

__all__ = [
    "coefficients",
    "dense",
    "hermitian_part",
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
    "rotary_kernel_gram",
    "rotary_kernel_spectrum",
    "rotary_kernel_extremes",
    "LowRankSpectrum",
    "spectral_distribution",
    "SpectralDistribution",
    "kolmogorov_distance",
    "wasserstein_distance",
    "toeplitz_projection",
    "toeplitz_defect",
    "gram_toeplitz_column",
    "rounding_defect",
    "NotToeplitzError",
    "ToeplitzSource",
    "encoding_source",
    "gram_source",
]
