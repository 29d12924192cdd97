"""petheory.toeplitz.low_rank: exact rotary-kernel spectra from the (2r, 2r) Gram, against dense
eigvalsh and against the certified FFT path (extreme_eigenvalues)."""

from __future__ import annotations

import numpy as np
import pytest

from petheory import toeplitz as tp
from petheory.encodings.rotary import rope_frequencies
from petheory.errors import ValidationError
from petheory.analyses.kernel import rotary_column

U = np.finfo(float).eps / 2

CASES = [  # (n, d, base, F): N below, at and above the rank 2r = d; F of either sign
    (40, 64, 10000.0, 1.0),
    (64, 64, 10000.0, 1.0),
    (300, 16, 100.0, 1.0),
    (1000, 64, 10000.0, 0.7),
    (700, 128, 500000.0, -1.3),
]


def column_error(w, n, F) -> float:
    """||T(computed column) - T(exact)||_2 <= 2 ||dc||_1: each cos(k w) carries u (k w + 2) (argument
    k w rounded, then cos), times F and r bands."""
    k = np.arange(n, dtype=np.float64)
    return 2 * abs(F) * U * float(np.sum(np.sum(k[:, None] * np.abs(w)[None, :] + 2.0, axis=1)))


@pytest.mark.parametrize("n,d,base,F", CASES)
def test_gram_spectrum_is_every_eigenvalue_of_the_dense_kernel(n, d, base, F):
    w = rope_frequencies(d, base=base)
    dense = np.linalg.eigvalsh(tp.dense(rotary_column(w, n, F)))
    s = tp.rotary_kernel_spectrum(w, n, F)
    assert s.values.shape[0] + s.zeros == n and s.values.shape[0] == min(n, d)
    full = np.sort(np.concatenate([s.values, np.zeros(s.zeros)]))
    # Gram error (its model) + dense eigvalsh's backward error n u ||T||_2 + the column's rounding
    tol = s.error + n * U * np.max(np.abs(dense)) + column_error(w, n, F)
    assert np.max(np.abs(full - dense)) <= tol


@pytest.mark.parametrize("n,d,base,F", [(2048, 64, 10000.0, 1.0), (4096, 128, 500000.0, 0.5), (3000, 32, 10000.0, -2.0)])
def test_gram_extremes_agree_with_the_certified_fft_path(n, d, base, F):
    w = rope_frequencies(d, base=base)
    c = rotary_column(w, n, F)
    scale = float(np.max(np.abs(c)))
    cert = tp.extreme_eigenvalues(c, rtol=1e-10, atol=1e-12 * scale)
    gram = tp.rotary_kernel_extremes(w, n, F)
    for ours, ref in ((gram.min, cert.min), (gram.max, cert.max)):
        tol = ours.error_bound + ref.error_bound + column_error(w, n, F)
        assert abs(ours.value - ref.value) <= tol, (ours, ref, tol)
    zero = gram.min if F > 0 else gram.max  # n > 2r: 0 is an eigenvalue, exactly, by rank
    assert zero.value == 0.0 and zero.error_bound == 0.0


def test_a_wrong_frequency_is_caught_by_the_comparison():
    """Planted violation: the Gram of slightly different frequencies fails the dense check above."""
    n, w = 1000, rope_frequencies(64, base=10000.0)
    dense = np.linalg.eigvalsh(tp.dense(rotary_column(w, n)))
    s = tp.rotary_kernel_spectrum(w * (1 + 1e-4), n)
    tol = s.error + n * U * np.max(np.abs(dense)) + column_error(w, n, 1.0)
    assert abs(s.max - dense[-1]) > tol


def test_gram_matches_its_definition_p_transpose_p():
    n, w = 257, np.array([0.0, 1e-7, 0.3, 0.3 + 1e-12, np.pi - 1e-3, np.pi])
    k = np.arange(n, dtype=np.float64)[:, None]
    P = np.hstack([np.cos(k * w), np.sin(k * w)])
    G = tp.rotary_kernel_gram(w, n)
    # entries within 9 u n (the closed form's model) plus the direct sum's own rounding (n terms of u (k w + 2))
    tol = 9 * U * n + U * n * (n * np.pi + 2)
    assert np.max(np.abs(G - P.T @ P)) <= tol


def test_spectrum_at_a_billion_positions_costs_the_same():
    w = rope_frequencies(128, base=500000.0)
    s = tp.rotary_kernel_spectrum(w, 10**9)
    assert s.zeros == 10**9 - 128 and s.min == 0.0
    n, r = 10**9, 64
    # trace(T) = n a_0 = n r, shared by the 2r nonzero eigenvalues: lambda_max in [n r / 2r, n r]
    assert abs(float(np.sum(s.values)) - n * r) <= 2 * r * s.error
    assert n / 2 <= s.max <= n * r


def test_empty_and_bad_input():
    s = tp.rotary_kernel_spectrum([], 10)
    assert s.zeros == 10 and s.min == s.max == 0.0
    with pytest.raises(ValidationError, match="freqs"):
        tp.rotary_kernel_spectrum([np.nan], 10)
    with pytest.raises(ValidationError, match="n"):
        tp.rotary_kernel_spectrum([0.1], 0)
