"""petheory.toeplitz: every fast routine against its dense reference, plus shapes and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

from petheory import encodings as enc
from petheory import toeplitz as tp
from petheory.rounding import tolerance


def hermitian_column(rng, n, *, complex_=True, decay=0.8):
    k = np.arange(n)
    c = rng.standard_normal(n) * decay**k
    if complex_:
        c = c + 1j * rng.standard_normal(n) * decay**k
        c[0] = c[0].real
    return c


FAMILIES = {
    "geometric": lambda k: 0.9**k * np.cos(0.3 * k),
    "two_peaks": lambda k: 0.9**k * np.cos(1.3 * k),
    "kink": lambda k: 1.0 / (1.0 + k) ** 2,
    "exponential": lambda k: np.exp(-k / 4.0),
    "complex": lambda k: 0.8**k * np.exp(0.7j * k) * (1 + 0.5j * np.cos(k)),
    "alibi": lambda k: -0.5 * k,
}


def family(name, n):
    c = FAMILIES[name](np.arange(n, dtype=np.float64))
    if np.iscomplexobj(c):
        c = c.astype(np.complex128)
        c[0] = c[0].real
    return c


# ----------------------------------------------------------------------------- build


def test_dense_follows_the_papers_convention():
    c = np.array([1.0, 2.0, 3.0])
    r = np.array([1.0, -2.0, -3.0])
    T = tp.dense(c, r)
    for i in range(3):
        for j in range(3):
            k = i - j
            assert T[i, j] == (c[k] if k >= 0 else r[-k])


def test_default_row_makes_a_hermitian_matrix():
    c = hermitian_column(np.random.default_rng(0), 6)
    T = tp.dense(c)
    np.testing.assert_array_equal(T, T.conj().T)


@pytest.mark.parametrize("n", [1, 2, 7, 64, 513])
@pytest.mark.parametrize("kind", ["real", "hermitian", "general"])
def test_fft_operator_matches_dense(n, kind):
    rng = np.random.default_rng(n)
    if kind == "real":
        c, r = rng.standard_normal(n), None
    elif kind == "hermitian":
        c, r = hermitian_column(rng, n), None
    else:
        c = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        r = rng.standard_normal(n) + 1j * rng.standard_normal(n)
        r[0] = c[0]
    T = tp.operator(c, r)
    D = tp.dense(c, r)
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    X = rng.standard_normal((n, 3))
    # FFT error model: gamma_{~log2 L} times ||a||_1 ||x|| (Higham 2002, §24.1)
    scale = (np.sum(np.abs(c)) + (0 if r is None else np.sum(np.abs(r)))) * np.linalg.norm(x)
    tol = tolerance(n_ops=8 * math.ceil(math.log2(T.L)) + n, scale=scale)
    assert np.max(np.abs(T @ x - D @ x)) <= tol
    assert np.max(np.abs(T @ X - D @ X)) <= tol * np.linalg.norm(X) / np.linalg.norm(x)
    assert np.max(np.abs(T.H @ x - D.conj().T @ x)) <= tol
    assert (T @ x).shape == (n,) and (T @ X).shape == (n, 3)


def test_operator_to_dense_and_rows():
    c = hermitian_column(np.random.default_rng(1), 9)
    T = tp.operator(c)
    np.testing.assert_allclose(T.to_dense(), tp.dense(c))
    X = np.random.default_rng(2).standard_normal((4, 9))
    np.testing.assert_allclose(T.apply_rows(X), X @ tp.dense(c).T, atol=1e-12)


# ----------------------------------------------------------------------------- symbol


def test_symbol_on_grid_matches_direct_sum():
    rng = np.random.default_rng(3)
    c = hermitian_column(rng, 37)
    theta, a = tp.symbol(c, n_grid=256)
    _, direct = tp.symbol(c, theta=theta)
    k = np.arange(-36, 37)
    coef = np.concatenate([np.conj(c[:0:-1]), c])  # a_{-36..36}
    brute = (np.exp(1j * np.outer(theta, k)) @ coef).real
    np.testing.assert_allclose(a, brute, atol=1e-12)
    np.testing.assert_allclose(direct, brute, atol=1e-12)
    assert a.dtype == np.float64


def test_symbol_of_non_hermitian_data_is_complex():
    c = np.array([1.0, 2.0, 0.5])
    r = np.array([1.0, -1.0, 0.25])
    theta, a = tp.symbol(c, r, n_grid=64)
    brute = c[0] + sum(c[k] * np.exp(1j * k * theta) + r[k] * np.exp(-1j * k * theta) for k in (1, 2))
    np.testing.assert_allclose(a, brute, atol=1e-13)
    assert np.iscomplexobj(a)


def test_symbol_extrema_find_the_true_extremes():
    rng = np.random.default_rng(4)
    for n in (1, 2, 5, 40):
        c = hermitian_column(rng, n)
        ex = tp.symbol_extrema(c)
        _, fine = tp.symbol(c, n_grid=1 << 16)
        assert ex.certified
        assert ex.max >= fine.max() - 1e-12 and ex.min <= fine.min() + 1e-12
        assert ex.max - fine.max() <= 1e-6 * (1 + abs(fine.max()))  # fine grid is within h^2/8 |a''|


def test_alibi_symbol_closed_form_matches_fft():
    n, slope = 50, 0.3
    c = enc.alibi(n, slope=slope)[:, 0]
    theta, a = tp.symbol(c, n_grid=512)
    theta = np.concatenate([theta, [1e-9, -2e-3]])
    a = np.concatenate([a, tp.symbol(c, theta=np.array([1e-9, -2e-3]))[1]])
    closed = tp.alibi_symbol(theta, n, slope)
    np.testing.assert_allclose(closed, a, atol=1e-9 * n * n * slope)


def test_sinusoidal_gram_is_toeplitz_and_its_symbol_closed_form_matches():
    n, d = 40, 16
    P = enc.sinusoidal(n, d)
    G = P @ P.T
    c = tp.sinusoidal_gram_coefficients(n, d)
    np.testing.assert_allclose(G, tp.dense(c), atol=1e-12 * d)
    theta, a = tp.symbol(c, n_grid=1024)
    np.testing.assert_allclose(tp.sinusoidal_gram_symbol(theta, n, d), a, atol=1e-10 * n * d)


@pytest.mark.parametrize("name", ["exponential", "gaussian"])
def test_kernel_closed_form_symbol_is_the_limit_of_the_truncated_one(name):
    K = tp.kernel(name)
    c = K.column(400, 3.0)  # coefficients below 1e-20 beyond 400 for both kernels at length 3
    theta, a = tp.symbol(c, n_grid=1024)
    np.testing.assert_allclose(K.symbol_values(theta, 3.0), a, atol=1e-12)


def test_kernel_without_closed_form_says_so():
    with pytest.raises(ValueError, match="no closed-form symbol"):
        tp.kernel("power").symbol_values([0.0], 2.0)


@given(
    n=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    complex_=st.booleans(),
)
def test_eigenvalues_lie_within_symbol_range(n, seed, complex_):
    c = hermitian_column(np.random.default_rng(seed), n, complex_=complex_, decay=0.95)
    w = tp.eigenvalues(c)
    ex = tp.symbol_extrema(c)
    tol = tolerance(n_ops=n, scale=2 * np.sum(np.abs(c))) + ex.error
    assert w[0] >= ex.min - tol and w[-1] <= ex.max + tol


# ----------------------------------------------------------------------------- extreme eigenvalues


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("n", [300, 900])
def test_extreme_eigenvalues_match_dense(name, n):
    c = family(name, n)
    w = tp.eigenvalues(c)
    res = tp.extreme_eigenvalues(c, rtol=1e-10)
    lo, hi = res
    scale = np.max(np.abs(w))
    # target: 1e-10 relative to |lambda|, floor ~ what the FFT matvec resolves (plus dense's own error)
    floor = tolerance(n_ops=8 * math.ceil(math.log2(2 * n)) + n, scale=scale)
    assert abs(lo - w[0]) <= 1e-10 * abs(w[0]) + floor
    assert abs(hi - w[-1]) <= 1e-10 * abs(w[-1]) + floor
    for est, exact in ((res.min, w[0]), (res.max, w[-1])):
        assert est.converged
        assert abs(est.value - exact) <= est.error_bound + floor
        assert est.bracket[0] - floor <= exact <= est.bracket[1] + floor


def test_extreme_eigenvalues_certificate_is_a_residual():
    c = family("complex", 700)
    res = tp.extreme_eigenvalues(c)
    # the residual bound: some eigenvalue within ||Tv - rho v|| of rho
    w = tp.eigenvalues(c)
    for est in (res.min, res.max):
        assert np.min(np.abs(w - est.value)) <= est.residual + 1e-12


def test_extreme_eigenvalues_of_a_low_rank_gram_need_atol():
    c = tp.sinusoidal_gram_coefficients(600, 16)  # rank <= 16: lambda_min = 0
    w = tp.eigenvalues(c)
    res = tp.extreme_eigenvalues(c, atol=1e-9 * w[-1])
    assert abs(res[1] - w[-1]) <= 1e-8 * w[-1]
    assert abs(res[0] - w[0]) <= 1e-9 * w[-1]


def test_extreme_eigenvalues_small_and_trivial_sizes():
    assert tp.extreme_eigenvalues([2.5]) == (2.5, 2.5)
    c = hermitian_column(np.random.default_rng(5), 20)
    w = tp.eigenvalues(c)
    np.testing.assert_allclose(tp.extreme_eigenvalues(c), (w[0], w[-1]), rtol=1e-12)
    ident = np.zeros(500)
    ident[0] = 1.0
    assert tp.extreme_eigenvalues(ident) == pytest.approx((1.0, 1.0), abs=1e-14)


def test_extreme_eigenvalues_warn_when_not_converged():
    c = family("complex", 2000)
    with pytest.warns(RuntimeWarning, match="not converged"):
        tp.extreme_eigenvalues(c, rtol=1e-15, maxiter=1)


def test_extreme_eigenvalues_converge_and_lie_within_the_symbol_range_at_n_4096():
    # the speed target (well under dense eigvalsh's 10-25 s) is a benchmark: benchmarks/bench_toeplitz.py
    c = family("geometric", 4096)
    res = tp.extreme_eigenvalues(c)
    ex = tp.symbol_extrema(c)
    for est in (res.min, res.max):
        assert est.converged and est.error_bound <= 1e-8 * abs(est.value)
        assert est.bracket[0] <= est.value <= est.bracket[1]
    assert ex.min - ex.error <= res[0] <= res[1] <= ex.max + ex.error


@pytest.mark.slow
def test_extreme_eigenvalues_converge_at_n_2_to_the_20():
    # the 60 s target at this size is a benchmark: benchmarks/bench_toeplitz.py (Target 2)
    c = family("complex", 1 << 20)
    res = tp.extreme_eigenvalues(c)
    for est in (res.min, res.max):
        assert est.converged and est.error_bound <= 1e-8 * abs(est.value)


# ----------------------------------------------------------------------------- distributions


def test_distances_match_scipy():
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(300), rng.standard_normal(500) + 0.3
    assert tp.kolmogorov_distance(x, y) == pytest.approx(scipy.stats.ks_2samp(x, y).statistic, abs=1e-12)
    assert tp.wasserstein_distance(x, y) == pytest.approx(scipy.stats.wasserstein_distance(x, y), rel=1e-12)


def test_kolmogorov_resolution_ignores_rounding_noise():
    assert tp.kolmogorov_distance([0.0, 1e-15], [1e-16, 0.0]) > 0
    assert tp.kolmogorov_distance([0.0, 1e-15], [1e-16, 0.0], resolution=1e-14) == 0


def test_szego_distance_shrinks_with_n():
    K = tp.kernel("exponential")
    d = [tp.spectral_distribution(K.column(n, 4.0), symbol=lambda t: K.symbol_values(t, 4.0)).kolmogorov for n in (64, 256, 1024)]
    assert d[0] > d[1] > d[2]
    assert d[2] < 0.01


def test_slq_estimate_matches_exact_distribution():
    c = family("geometric", 1024)
    exact = tp.spectral_distribution(c, method="exact")
    slq = tp.spectral_distribution(c, method="slq", probes=16, seed=1)
    assert slq.method == "slq" and slq.probes == 16 and slq.steps == 1000
    assert tp.kolmogorov_distance(slq.support, exact.support, slq.weights) <= 1e-2
    assert abs(slq.kolmogorov - exact.kolmogorov) <= 1e-2
    assert slq.weights.sum() == pytest.approx(1.0)


def test_spectral_distribution_cdfs_and_dict():
    c = family("exponential", 200)
    sd = tp.spectral_distribution(c)
    assert sd.method == "exact"
    assert sd.cdf([-1e9, 1e9]).tolist() == [0.0, 1.0]
    assert sd.symbol_cdf([-1e9, 1e9]).tolist() == [0.0, 1.0]
    d = sd.as_dict()
    assert set(d) >= {"kolmogorov", "wasserstein", "eigenvalue_range", "symbol_range"}


# ----------------------------------------------------------------------------- Toeplitz-ness


def test_toeplitz_projection_is_an_orthogonal_projection():
    rng = np.random.default_rng(7)
    A = rng.standard_normal((9, 9)) + 1j * rng.standard_normal((9, 9))
    P = tp.toeplitz_projection(A)
    np.testing.assert_allclose(tp.toeplitz_projection(P), P, atol=1e-14)
    c = rng.standard_normal(9)
    T = tp.dense(c, np.r_[c[0], rng.standard_normal(8)])
    assert abs(np.vdot(A - P, T)) <= 1e-12 * np.linalg.norm(A) * np.linalg.norm(T)


def test_toeplitz_defect_is_zero_exactly_for_toeplitz():
    rng = np.random.default_rng(8)
    assert tp.toeplitz_defect(tp.dense(hermitian_column(rng, 12))) <= 1e-15
    assert tp.toeplitz_defect(np.zeros((3, 3))) == 0.0
    assert 0.5 < tp.toeplitz_defect(rng.standard_normal((50, 50))) <= 1.0
    assert tp.toeplitz_defect(np.eye(4)[::-1], relative=False) > 0


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "c, r, match",
    [
        ([], None, "must not be empty"),
        ([1.0, np.nan], None, "finite"),
        ([1.0, np.inf], None, "finite"),
        ([[1.0, 2.0]], None, "1-D"),
        ([1.0, 2.0], [1.0], "same length"),
        ([1.0, 2.0], [3.0, 2.0], r"c\[0\] != r\[0\]"),
        ("abc", None, "array of numbers"),
    ],
)
def test_bad_toeplitz_data_is_rejected(c, r, match):
    with pytest.raises((ValueError, TypeError), match=match):
        tp.dense(c, r)


def test_hermitian_is_required_where_the_theory_needs_it():
    with pytest.raises(ValueError, match="not Hermitian"):
        tp.extreme_eigenvalues([1.0, 2.0], [1.0, 3.0])
    with pytest.raises(ValueError, match=r"c\[0\] must be real"):
        tp.extreme_eigenvalues([1.0 + 1j, 2.0])
    with pytest.raises(ValueError, match=r"c\[0\] != conj\(r\[0\]\)"):
        tp.spectral_distribution([1.0 + 1j, 2.0], [1.0 - 1j, 2.0])
    with pytest.raises(ValueError, match="not Hermitian"):
        tp.symbol_extrema([0.0, 1.0], [0.0, -1.0])


def test_complex_where_real_is_required():
    with pytest.raises(TypeError, match="real"):
        tp.alibi_symbol([0.1j], 4)
    with pytest.raises(TypeError, match="real"):
        tp.alibi_symbol([0.1], 4, slope=1j)
    with pytest.raises(TypeError, match="real"):
        tp.symbol([1.0, 0.5], theta=[1j])


def test_sizes_below_one_are_rejected():
    with pytest.raises(ValueError, match=">= 1"):
        tp.alibi_symbol([0.1], 0)
    with pytest.raises(ValueError, match=">= 1"):
        tp.kernel("exponential").column(0, 1.0)
    with pytest.raises(ValueError, match="n_grid must be >= N"):
        tp.symbol(np.ones(10), n_grid=4)


@pytest.mark.parametrize("n, m", [(1, 1024), (3, 1024), (127, 1024), (1000, 8192), (1025, 16384), (4096, 1 << 16)])
def test_even_symbol_grid_equals_the_zero_padded_real_transform(n, m):
    # issue 35: the default symbol grid by m/8-long transforms (a fifth of the memory) against the m-long rfft it
    # replaced. Both are FFT sums of n terms: error <= ~log2(m) u ||c||_1 each (Higham 2002 §24.1), times 2 for
    # the factor 2 of the cosine sum, plus u per modulation term (folded into the same ||c||_1 bound).
    import scipy.fft as sfft

    from petheory.toeplitz.symbols import _even_symbol_grid

    rng = np.random.default_rng(n)
    c = rng.standard_normal(n) / (1.0 + np.arange(n))
    old = 2.0 * sfft.rfft(c, n=m).real - c[0]
    tol = 2 * 2 * (math.log2(m) + 1) * np.finfo(float).eps * np.abs(c).sum()
    assert np.max(np.abs(_even_symbol_grid(c, m) - old)) <= tol


def test_symbol_extrema_of_a_real_column_agree_with_the_whole_circle_path():
    # the real path (half grid, candidates' neighbours by index) against the complex one (whole circle, wrap-around)
    k = np.arange(3000, dtype=float)
    for c in (0.9**k * np.cos(0.3 * k), 1.0 / (1.0 + k) ** 2, np.cos(2.1 * k) / (1.0 + k) ** 1.5):
        ex, ref = tp.symbol_extrema(c), tp.symbol_extrema(c.astype(complex))
        assert ex.certified and ref.certified
        tol = ex.error + ref.error
        assert abs(ex.max - ref.max) <= tol and abs(ex.min - ref.min) <= tol
        assert abs(np.cos(ex.argmax) - np.cos(ref.argmax)) <= 1e-6 and abs(np.cos(ex.argmin) - np.cos(ref.argmin)) <= 1e-6
