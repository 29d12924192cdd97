"""petheory.toeplitz: accuracy promises tested as promises, secondary paths against direct references.

``extreme_eigenvalues(c, rtol=, atol=)`` promises a *converged* estimate whose reported error bound
is at most ``max(rtol |lambda|, atol, floor)`` (floor = 8 ceil(log2 L) u max|fhat|, what the FFT
matvec resolves) and that bound is a true bound. The tests assert both halves: the bound meets the
request, and the dense eigenvalue lies within it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg as sla

from petheory import toeplitz as tp

U = np.finfo(np.float64).eps / 2


def _family(name, n):
    k = np.arange(n, dtype=np.float64)
    c = {
        "geometric": lambda: 0.9**k * np.cos(0.3 * k),
        "two_peaks": lambda: 0.9**k * np.cos(1.3 * k),
        "kink": lambda: 1.0 / (1.0 + k) ** 2,
        "complex": lambda: (0.8**k * np.exp(0.7j * k) * (1 + 0.5j * np.cos(k))).astype(np.complex128),
        "alibi": lambda: -0.5 * k,
    }[name]()
    if np.iscomplexobj(c):
        c[0] = c[0].real
    return c


def _floor(c) -> float:
    """An upper bound of the routine's own floor: max|fhat| <= 2 ||c||_1 (the circulant embedding's
    eigenvalues are sums of its first column's entries, which are c and its mirror)."""
    L = tp.operator(c).L
    return 8 * math.ceil(math.log2(L)) * U * 2 * float(np.sum(np.abs(c)))


def _dense_error(w) -> float:
    """eigvalsh's own error, backward stable: n u ||T||_2 (times a small constant)."""
    return 4 * len(w) * U * float(np.max(np.abs(w)))


@pytest.mark.parametrize("rtol", [1e-6, 1e-10])
@pytest.mark.parametrize("name", ["geometric", "two_peaks", "kink", "complex", "alibi"])
def test_extreme_eigenvalues_error_bound_meets_the_requested_rtol(name, rtol):
    n = 400
    c = _family(name, n)
    w = tp.eigenvalues(c)
    res = tp.extreme_eigenvalues(c, rtol=rtol)
    for est, exact in ((res.min, w[0]), (res.max, w[-1])):
        target = max(rtol * abs(est.value), _floor(c))
        assert est.converged, est
        assert est.error_bound <= target, (est.error_bound, target)  # the promise
        assert abs(est.value - exact) <= est.error_bound + _dense_error(w)  # and it is a bound
        assert abs(est.value - exact) <= target + _dense_error(w)


def test_extreme_eigenvalues_meet_an_absolute_tolerance_near_zero():
    c = tp.sinusoidal_gram_coefficients(600, 16)  # rank <= 16, lambda_min = 0
    w = tp.eigenvalues(c)
    atol = 1e-9 * w[-1]
    res = tp.extreme_eigenvalues(c, rtol=1e-12, atol=atol)
    for est, exact in ((res.min, w[0]), (res.max, w[-1])):
        assert est.converged
        assert est.error_bound <= max(1e-12 * abs(est.value), atol, _floor(c))
        assert abs(est.value - exact) <= est.error_bound + _dense_error(w)


@pytest.mark.parametrize("n", [1 << 14, 1 << 17])
def test_extreme_eigenvalues_at_large_n_meet_the_default_rtol(n):
    """The large-N path (Davidson/box start) at a size dense cannot reach: the promise alone, plus
    the rigorous bracket holding the value. (N = 2^20 is the slow test in test_toeplitz.py.)"""
    c = _family("complex", n)
    res = tp.extreme_eigenvalues(c, rtol=1e-8)
    ex = tp.symbol_extrema(c)
    for est in (res.min, res.max):
        assert est.converged and est.error_bound <= max(1e-8 * abs(est.value), _floor(c))
        assert est.bracket[0] <= est.value <= est.bracket[1]
    assert res.min.value >= ex.min - ex.error and res.max.value <= ex.max + ex.error


def test_dense_path_error_bound_holds_the_exact_eigenvalue():
    rng = np.random.default_rng(11)
    c = rng.standard_normal(50) * 0.9 ** np.arange(50)
    res = tp.extreme_eigenvalues(c)  # below dense_below: eigvalsh
    w = np.linalg.eigvalsh(sla.toeplitz(c))
    assert res.min.certificate == "dense"
    assert abs(res.min.value - w[0]) <= res.min.error_bound and abs(res.max.value - w[-1]) <= res.max.error_bound
    assert res.max.error_bound <= 1e-12 * np.max(np.abs(w))


# ----------------------------------------------------------------------------- symbol, secondary paths


def _direct_symbol(c, r, theta):
    """sum_{k>=0} c_k e^{ik theta} + sum_{k>=1} r_k e^{-ik theta}: the paper's a(theta) written out."""
    k = np.arange(1, len(c))
    return c[0] + np.exp(1j * np.outer(theta, k)) @ c[1:] + np.exp(-1j * np.outer(theta, k)) @ r[1:]


@pytest.mark.parametrize("complex_", [False, True])
def test_non_hermitian_symbol_at_arbitrary_theta_matches_the_direct_sum(complex_):
    rng = np.random.default_rng(7)
    n = 23
    c = rng.standard_normal(n) + (1j * rng.standard_normal(n) if complex_ else 0)
    r = rng.standard_normal(n) + (1j * rng.standard_normal(n) if complex_ else 0)
    r[0] = c[0]
    theta = rng.uniform(-7, 7, size=41)  # off any FFT grid, outside [0, 2 pi) too
    got_theta, got = tp.symbol(c, r, theta=theta)
    want = _direct_symbol(c, r, theta)
    np.testing.assert_array_equal(got_theta, theta)
    # |error| <= gamma_{2n} (||c||_1 + ||r||_1) for a sum of 2n terms of modulus |c_k|, |r_k|
    tol = 4 * n * U * (np.sum(np.abs(c)) + np.sum(np.abs(r)))
    np.testing.assert_allclose(got, want, rtol=0, atol=tol)
    assert np.iscomplexobj(got)


def test_non_hermitian_symbol_on_the_grid_matches_the_direct_sum_and_the_arbitrary_theta_path():
    rng = np.random.default_rng(8)
    n = 17
    c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    r = rng.standard_normal(n) - 0.5j * rng.standard_normal(n)
    r[0] = c[0]
    theta, grid = tp.symbol(c, r, n_grid=64)
    tol = 4 * (n + math.log2(64)) * U * (np.sum(np.abs(c)) + np.sum(np.abs(r)))
    np.testing.assert_allclose(grid, _direct_symbol(c, r, theta), rtol=0, atol=tol)
    np.testing.assert_allclose(tp.symbol(c, r, theta=theta)[1], grid, rtol=0, atol=tol)
    np.testing.assert_allclose(tp.symbol_grid(c, r, n_grid=64), grid, rtol=0, atol=0)


def test_hermitian_symbol_at_arbitrary_theta_is_real_and_matches_the_direct_sum():
    rng = np.random.default_rng(9)
    n = 19
    c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    c[0] = c[0].real
    theta = rng.uniform(-4, 10, size=33)
    _, got = tp.symbol(c, theta=theta)
    want = _direct_symbol(c, np.conj(c), theta)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want.real, rtol=0, atol=4 * n * U * 2 * np.sum(np.abs(c)))
    assert np.max(np.abs(want.imag)) <= 4 * n * U * 2 * np.sum(np.abs(c))


@pytest.mark.parametrize("name,tol", [("geometric", 0.02), ("kink", 0.05), ("complex", 0.05)])
def test_slq_spectral_distribution_meets_its_tol_and_its_error_estimate(name, tol):
    """spectral_distribution(method='slq', tol=) promises a Kolmogorov distance accurate to about tol
    (its default probes and steps are chosen for it) and reports error_estimate; both against exact."""
    c = _family(name, 1024)
    exact = tp.spectral_distribution(c, method="exact")
    slq = tp.spectral_distribution(c, method="slq", tol=tol, seed=3)
    assert tp.kolmogorov_distance(slq.support, exact.support, slq.weights) <= tol
    assert abs(slq.kolmogorov - exact.kolmogorov) <= min(tol, slq.error_estimate)
