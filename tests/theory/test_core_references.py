"""Public functions of the theory modules against independent references (written here from the
formula, or scipy / numpy / PyWavelets), on their main and secondary paths, and their accuracy
promises tested as promises. Complements the per-module test files: only what they leave out.

Tolerances: a reference and the library compute the same float64 quantity in different operation
orders; for an n-term sum of magnitude S the difference is <= 2 gamma_n S (Higham Lemma 3.1), and
every tolerance below is written that way next to its comparison.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.optimize
import scipy.sparse
import scipy.special
import scipy.stats
from scipy.spatial.distance import cdist

from petheory import bounds, coupling, encodings as enc, fits, geometry as geo, softmax, toeplitz as tp
from petheory.errors import ParameterError
from petheory.rounding import eig_rank_tol, gamma

U = np.finfo(np.float64).eps / 2


def _hermitian(rng, n, decay=0.8, complex_=True):
    c = rng.standard_normal(n) * decay ** np.arange(n)
    if complex_:
        c = c + 1j * rng.standard_normal(n) * decay ** np.arange(n)
        c[0] = c[0].real
    return c


def _true_extrema(f, n_grid=1 << 15):
    """max and min of a 2 pi-periodic smooth f: dense grid, then bounded Brent refinement of the best
    few grid points (scipy), a reference independent of the library's Newton refinement."""
    th = np.linspace(0, 2 * np.pi, n_grid, endpoint=False)
    vals = f(th)
    h = 2 * np.pi / n_grid
    out = []
    for sgn in (1.0, -1.0):
        best = -np.inf
        for i in np.argsort(-sgn * vals)[:8]:
            r = scipy.optimize.minimize_scalar(lambda t: -sgn * f(np.array([t]))[0], bounds=(th[i] - h, th[i] + h),
                                               method="bounded", options={"xatol": 1e-13})
            best = max(best, -r.fun, sgn * vals[i])
        out.append(sgn * best)
    return out  # [max, min]


# ----------------------------------------------------------------------------- toeplitz


@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("n", [1, 3, 17, 60])
def test_symbol_extrema_error_bound_holds_against_an_independent_optimiser(n, complex_):
    c = _hermitian(np.random.default_rng(n), n, complex_=complex_)
    k = np.arange(1, n)

    def a(th):
        return c[0].real + 2 * np.real(np.exp(1j * np.outer(th, k)) @ c[1:]) if n > 1 else np.full(len(th), c[0].real)

    ex = tp.symbol_extrema(c)
    true_max, true_min = _true_extrema(a)
    slack = gamma(4 * n) * 2 * np.sum(np.abs(c))  # the reference's own evaluation error
    assert ex.certified
    assert abs(ex.max - true_max) <= ex.error + slack
    assert abs(ex.min - true_min) <= ex.error + slack
    np.testing.assert_allclose(a(np.array([ex.argmax, ex.argmin])), [ex.max, ex.min], rtol=0, atol=slack)


@pytest.mark.parametrize("reading", ["statement", "proof"])
def test_lemma_b1_extremes_match_the_direct_f_and_g(reading):
    rng = np.random.default_rng(5)
    w = rng.uniform(0, 1, 9)
    th = rng.uniform(-3, 3, 9)
    i = np.arange(9)
    psi = th if reading == "proof" else i * th

    def f(x):  # f(theta) = sum_i 2 w_i cos(psi_i + i theta)
        return (2 * w[None, :] * np.cos(psi[None, :] + np.outer(x, i))).sum(axis=1)

    def g(x):
        return (2 * w[None, :] * np.cos(np.outer(x, i))).sum(axis=1)

    col = tp.phase_modulated_column(w, th, reading=reading)
    x = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    np.testing.assert_allclose(tp.symbol(col, theta=x)[1], f(x), rtol=0, atol=gamma(40) * 2 * w.sum())
    res = tp.lemma_b1(w, th, reading=reading)
    slack = gamma(40) * 2 * w.sum()
    for ext, fn in ((res.f, f), (res.g, g)):
        hi, lo = _true_extrema(fn)
        assert abs(ext.max - hi) <= ext.error + slack and abs(ext.min - lo) <= ext.error + slack
    assert res.bound == pytest.approx(2 * w.sum(), rel=4 * U * 9)
    assert res.g.max == pytest.approx(2 * w.sum(), rel=1e-12)  # g peaks at theta = 0


def test_distances_weighted_path_matches_scipy_and_a_written_weighted_ks():
    rng = np.random.default_rng(6)
    x, y = rng.standard_normal(40), rng.standard_normal(60) + 0.4
    wx, wy = rng.uniform(0.1, 1, 40), rng.uniform(0.1, 1, 60)
    with pytest.raises(ValueError, match="sum to 1"):  # documented as distributions: unnormalised is an error
        tp.wasserstein_distance(x, y, wx, wy)
    wx, wy = wx / wx.sum(), wy / wy.sum()
    assert tp.wasserstein_distance(x, y, wx, wy) == pytest.approx(scipy.stats.wasserstein_distance(x, y, wx, wy), rel=1e-12)
    pts = np.concatenate([x, y])
    Fx = (wx[None, :] * (x[None, :] <= pts[:, None])).sum(1)
    Fy = (wy[None, :] * (y[None, :] <= pts[:, None])).sum(1)
    assert tp.kolmogorov_distance(x, y, wx, wy) == pytest.approx(np.max(np.abs(Fx - Fy)), abs=gamma(100))


@pytest.mark.parametrize("complex_", [False, True])
def test_toeplitz_projection_is_the_diagonal_means_and_defect_its_distance(complex_):
    rng = np.random.default_rng(7)
    A = rng.standard_normal((6, 6)) + (1j * rng.standard_normal((6, 6)) if complex_ else 0)
    want = np.empty_like(A)
    for i in range(6):
        for j in range(6):
            want[i, j] = np.mean(np.diagonal(A, j - i))
    np.testing.assert_allclose(tp.toeplitz_projection(A), want, rtol=0, atol=gamma(8) * np.abs(A).max())
    dist = np.linalg.norm(A - want)
    assert tp.toeplitz_defect(A, relative=False) == pytest.approx(dist, rel=gamma(64))
    assert tp.toeplitz_defect(A) == pytest.approx(dist / np.linalg.norm(A), rel=gamma(64))


def test_non_hermitian_operator_adjoint_matches_the_dense_conjugate_transpose():
    rng = np.random.default_rng(8)
    c = rng.standard_normal(13) + 1j * rng.standard_normal(13)
    r = rng.standard_normal(13) + 1j * rng.standard_normal(13)
    r[0] = c[0]
    T = tp.operator(c, r)
    A = scipy.linalg.toeplitz(c, r)
    x = rng.standard_normal(13) + 1j * rng.standard_normal(13)
    tol = gamma(4 * 13) * np.abs(A).sum() * np.abs(x).max()
    np.testing.assert_allclose(T.matvec(x), A @ x, rtol=0, atol=tol)
    np.testing.assert_allclose(T.rmatvec(x), A.conj().T @ x, rtol=0, atol=tol)
    np.testing.assert_allclose(T.H.matvec(x), A.conj().T @ x, rtol=0, atol=tol)


# ----------------------------------------------------------------------------- coupling


def test_each_logit_term_is_its_written_bilinear_form():
    """Not only the sum: cp is content-query x position-key, pc position-query x content-key (gu2025 Eq. 8)."""
    rng = np.random.default_rng(21)
    n, d, dh = 5, 6, 4
    C, P = rng.standard_normal((n, d)), rng.standard_normal((n, d))
    WQ, WK = rng.standard_normal((d, dh)), rng.standard_normal((d, dh))
    bQ, bK, B, s = rng.standard_normal(dh), rng.standard_normal(dh), rng.standard_normal((n, n)), 0.37
    t = coupling.logit_terms(C, P, WQ, WK, B, b_Q=bQ, b_K=bK, scale=s)
    want = {
        "cc": [[s * (C[i] @ WQ + bQ) @ (C[j] @ WK + bK) for j in range(n)] for i in range(n)],
        "cp": [[s * (C[i] @ WQ + bQ) @ (P[j] @ WK) for j in range(n)] for i in range(n)],
        "pc": [[s * (P[i] @ WQ) @ (C[j] @ WK + bK) for j in range(n)] for i in range(n)],
        "pp": [[s * (P[i] @ WQ) @ (P[j] @ WK) for j in range(n)] for i in range(n)],
    }
    tol = gamma(2 * (d + dh + 3)) * s * (np.abs(C).max() + np.abs(P).max() + 1) ** 2 * np.abs(WQ).max() * np.abs(WK).max() * d * d * dh
    for name, w in want.items():
        np.testing.assert_allclose(getattr(t, name), np.array(w), rtol=0, atol=tol, err_msg=name)
    np.testing.assert_array_equal(t.bias, B)


def test_row_softmax_matches_scipy_including_masked_entries():
    rng = np.random.default_rng(9)
    M = rng.standard_normal((5, 7)) * 30
    M[1, 3:] = -np.inf  # a causal-style mask
    want = scipy.special.softmax(M, axis=1)
    np.testing.assert_allclose(softmax.row_softmax(M), want, rtol=gamma(10), atol=0)
    assert np.all(softmax.row_softmax(M)[1, 3:] == 0)


@pytest.mark.parametrize("pairing", ["interleaved", "half"])
def test_complex_pairs_are_written_pairs(pairing):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((4, 8))
    table = enc.rope(4, 8, pairing=pairing, rotary_dim=6)
    a, b = ([0, 2, 4], [1, 3, 5]) if pairing == "interleaved" else ([0, 1, 2], [3, 4, 5])
    np.testing.assert_array_equal(coupling.complex_pairs(x, table), x[:, a] + 1j * x[:, b])
    # the rotation in complex form: (R_p x) pairs = e^{i p theta} x pairs
    z = coupling.complex_pairs(table.apply(x), table)
    np.testing.assert_allclose(z, np.exp(1j * table.angles) * coupling.complex_pairs(x, table), atol=gamma(8) * 8)


def test_spectral_summary_matches_numpy_for_hermitian_and_general_matrices():
    rng = np.random.default_rng(11)
    A = rng.standard_normal((6, 6))
    H = A + A.T
    s = coupling.spectral_summary(H)
    ev = np.linalg.eigvalsh(H)
    tol = gamma(6 * 6) * np.linalg.norm(H)
    assert s["min"] == pytest.approx(ev[0], abs=tol) and s["max"] == pytest.approx(ev[-1], abs=tol)
    g = coupling.spectral_summary(A)
    evg = np.linalg.eigvals(A)
    assert g["min"] == pytest.approx(evg.real.min(), abs=1e-10) and g["max"] == pytest.approx(evg.real.max(), abs=1e-10)


def test_compose_modes_are_sum_and_entrywise_product():
    rng = np.random.default_rng(12)
    W, X = rng.standard_normal((4, 4)), rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))
    np.testing.assert_array_equal(coupling.compose(W, X, "additive"), W + X)
    np.testing.assert_array_equal(coupling.compose(W, X, "hadamard"), np.einsum("ij,ij->ij", W, X))


# ----------------------------------------------------------------------------- bounds


def test_attention_weight_and_output_are_the_softmax_of_the_whole_row():
    rng = np.random.default_rng(13)
    mu = rng.uniform(-5, 5, 6)
    vals, vb = rng.standard_normal((6, 3)), rng.standard_normal(3)
    b = np.array([-3.0, 0.5, 4.0])
    for bi, want_out in zip(b, [None] * 3):
        p = scipy.special.softmax(np.concatenate([[bi], mu]))
        assert bounds.attention_weight(mu, bi) == pytest.approx(p[0], rel=gamma(16))
        want = p[0] * vb + p[1:] @ vals
        np.testing.assert_allclose(bounds.attention_output(mu, bi, vals, vb), want, rtol=0, atol=gamma(16) * 3)
    np.testing.assert_allclose(bounds.attention_output(mu, b, vals, vb)[1],
                               bounds.attention_output(mu, b[1], vals, vb), rtol=0, atol=gamma(16) * 3)


def test_layernorm_lipschitz_bounds_the_jacobian_and_is_attained():
    """LN(x) = g * (x - mean) / sqrt(var + eps): the Jacobian, written out, has norm <= max|g| / sqrt(var + eps),
    with equality for constant g (d >= 3)."""
    rng = np.random.default_rng(14)
    d, eps, vf = 8, 1e-5, 0.3
    for g in (np.full(d, 1.7), rng.uniform(-2, 2, d)):
        L = bounds.layernorm_lipschitz(g, eps=eps, variance_floor=vf)
        worst = 0.0
        for _ in range(20):
            x = rng.standard_normal(d)
            x = (x - x.mean()) / x.std() * math.sqrt(vf * rng.uniform(1, 3)) + rng.standard_normal()
            s = math.sqrt(x.var() + eps)
            y = (x - x.mean()) / s
            J = np.diag(g) @ (np.eye(d) - np.ones((d, d)) / d - np.outer(y, y) / d) / s
            worst = max(worst, np.linalg.norm(J, 2))
        assert worst <= L * (1 + gamma(4 * d))
    x = rng.standard_normal(d)
    x = (x - x.mean()) / x.std() * math.sqrt(vf)
    y = x / math.sqrt(vf + eps)
    J = 1.7 * (np.eye(d) - np.ones((d, d)) / d - np.outer(y, y) / d) / math.sqrt(vf + eps)
    assert np.linalg.norm(J, 2) == pytest.approx(bounds.layernorm_lipschitz(np.full(d, 1.7), eps=eps, variance_floor=vf), rel=1e-12)


@pytest.mark.parametrize("params", [{}, {"normalisation": "paper"}, {"dilation": "position"}])
def test_pe_norms_wavelet_path_equals_the_norms_of_the_dense_table(params):
    n, d = 300, 24
    want = np.linalg.norm(enc.wavelet(n, d, n_max=100, **params), axis=1)
    got = bounds.pe_norms("wavelet", n, d, n_max=100, **params)
    np.testing.assert_allclose(got, want, rtol=gamma(2 * d), atol=0)


def test_pe_norms_and_bias_magnitude_of_dense_tables():
    np.testing.assert_allclose(bounds.pe_norms("sinusoidal", 20, 8), np.full(20, 2.0), rtol=gamma(16))
    for n, m in ((1, 0.5), (37, 0.25), (64, 2.0**-8)):
        assert bounds.alibi_bias_magnitude(n, m) == np.max(np.abs(enc.alibi(n, slope=m)))


@pytest.mark.parametrize("family", ["haar", "db2", "db4", "sym3", "coif1"])
def test_wavelet_support_length_is_pywavelets_taps_minus_one(family):
    import pywt

    assert bounds.wavelet_support_length(family) == pywt.Wavelet(family).dec_len - 1


def test_wavelet_features_are_the_pywavelets_mother_wavelet_at_written_atoms():
    """Feature a = 2^(j/2) psi(2^j t - k), t = p / n_max, atoms (j, k) coarse to fine over every shift whose
    support [k 2^-j, (k+3) 2^-j] meets [0, 1) (db2, support 3): written from the registry's convention with
    psi interpolated from pywt.Wavelet('db2').wavefun directly."""
    import pywt

    _phi, psi, x = pywt.Wavelet("db2").wavefun(level=10)
    n, d, n_max = 40, 14, 32
    atoms = []
    j = 0
    while len(atoms) < d:
        for k in range(-2, 2**j):  # (k + 3) 2^-j > 0 and k 2^-j < 1
            if len(atoms) < d:
                atoms.append((j, k))
        j += 1
    t = np.arange(n) / n_max
    want = np.stack([2 ** (jj / 2) * np.interp(2**jj * t - kk, x, psi, left=0, right=0) for jj, kk in atoms], axis=1)
    np.testing.assert_allclose(enc.wavelet(n, d, n_max=n_max), want, rtol=0, atol=1e-12)


# ----------------------------------------------------------------------------- geometry


def test_euclidean_distances_match_scipy_cdist():
    X = np.random.default_rng(15).standard_normal((9, 4))
    D = geo.euclidean_distances(X)
    np.testing.assert_allclose(D, cdist(X, X), rtol=0, atol=gamma(8) * np.abs(X).max())
    assert np.all(np.diag(D) == 0)


def test_rotary_distances_are_frobenius_distances_of_the_rotation_matrices():
    table = enc.rope(12, 8, rotary_dim=6, base=50.0)
    R = [table.matrix(p) for p in range(12)]
    want = np.array([[np.linalg.norm(R[i] - R[j]) for j in range(12)] for i in range(12)])
    np.testing.assert_allclose(geo.rotary_distances(table), want, rtol=0, atol=gamma(64) * 8)


@pytest.mark.parametrize("sparse", [False, True])
def test_hellinger_distances_sparse_input_matches_the_written_formula(sparse):
    rng = np.random.default_rng(16)
    P = rng.uniform(0, 1, (7, 5)) * (rng.uniform(size=(7, 5)) > 0.3)
    P[:, 0] += 0.1
    P /= P.sum(1, keepdims=True)
    want = np.sqrt(0.5 * ((np.sqrt(P)[:, None] - np.sqrt(P)[None]) ** 2).sum(-1))
    got = geo.hellinger_distances(scipy.sparse.csr_matrix(P) if sparse else P)
    # squared distance is a difference of Gram entries, absolute error ~gamma_V (docstring caveat)
    np.testing.assert_allclose(got**2, want**2, rtol=0, atol=4 * gamma(5 + 4))


def test_bias_distances_gap_and_hellinger_maps_are_the_written_formulas():
    rng = np.random.default_rng(17)
    B = enc.alibi(8, slope=0.7) + 0.01 * rng.standard_normal((8, 8))
    gap = 0.5 * (np.diag(B)[:, None] + np.diag(B)[None, :] - B - B.T)
    np.testing.assert_allclose(geo.bias_distances(B, "gap"), gap, rtol=0, atol=gamma(4) * np.abs(B).max())
    S = scipy.special.softmax(B, axis=1)
    want = np.sqrt(0.5 * ((np.sqrt(S)[:, None] - np.sqrt(S)[None]) ** 2).sum(-1))
    np.testing.assert_allclose(geo.bias_distances(B, "hellinger") ** 2, want**2, rtol=0, atol=4 * gamma(8 + 8))


def test_target_distances_of_a_matrix_and_its_prefix():
    X = np.random.default_rng(18).standard_normal((6, 2))
    D = cdist(X, X)
    got, desc, details = geo.target_distances(D)
    np.testing.assert_array_equal(got, D)
    assert desc == "distances (6, 6)" and details == {}
    np.testing.assert_array_equal(geo.target_distances(D, n=4)[0], D[:4, :4])
    with pytest.raises(ParameterError) as info:
        geo.target_distances(D, n=7)
    assert str(info.value) == "n must be <= 6 (the target distance matrix's positions), got 7"
    assert info.value.owner is geo.target_distances


@pytest.mark.parametrize("method", ["lanczos", "block"])
def test_classical_mds_lanczos_meets_its_tol_against_dense_eigh(method):
    """method='lanczos' (ARPACK) and 'block' promise eigenvalues within ~ ||r||^2/gap <= tol |theta| of the true ones."""
    X = np.random.default_rng(19).standard_normal((60, 5)) * np.array([5, 3, 2, 1, 0.5])
    D = cdist(X, X)
    exact = geo.classical_mds(D, method="eigh")
    for tol in (1e-4, 1e-10):
        lz = geo.classical_mds(D, rank=3, method=method, tol=tol)
        np.testing.assert_allclose(lz.eigenvalues[:3], exact.eigenvalues[:3], rtol=tol + gamma(17 * 60), atol=0)


def test_effective_rank_matches_numpy_matrix_rank_with_the_same_threshold():
    rng = np.random.default_rng(20)
    for k in (1, 3, 6):
        Y = rng.standard_normal((10, k))
        B = Y @ Y.T
        lam = np.linalg.eigvalsh(B)
        tol = eig_rank_tol(10)
        assert geo.effective_rank(B) == np.linalg.matrix_rank(B, tol=tol * np.max(np.abs(lam)), hermitian=True) == k


@pytest.mark.parametrize("c", [1e-30, 1.0, 1e30])
def test_effective_rank_and_mds_rank_are_scale_invariant(c):
    """The rank threshold is relative to the largest eigenvalue: scaling B (or D) changes no rank."""
    Y = np.random.default_rng(22).standard_normal((10, 3))
    B = c * (Y @ Y.T)
    assert geo.effective_rank(B) == 3
    assert geo.effective_rank(np.linalg.eigvalsh(B), positive=True) == 3
    D = cdist(Y, Y) * math.sqrt(c)
    assert geo.classical_mds(D).rank == 3


@pytest.mark.parametrize("weighted", [False, True])
def test_fit_line_matches_scipy_least_squares_and_its_t_interval(weighted):
    rng = np.random.default_rng(23)
    x = np.linspace(0, 3, 9)
    y = 1.5 - 0.7 * x + 0.1 * rng.standard_normal(9)
    w = rng.uniform(0.5, 2, 9) if weighted else np.ones(9)
    fit = fits.fit_line(x, y, weights=w if weighted else None, level=0.9)
    # weighted least squares = OLS on sqrt(w)-scaled rows; covariance s^2 (A^T W A)^-1, s^2 = sum w r^2 / (n-2)
    A = np.stack([np.ones(9), x], axis=1)
    sw = np.sqrt(w)
    coef, *_ = np.linalg.lstsq(A * sw[:, None], y * sw, rcond=None)
    r = y - A @ coef
    cov = (w * r**2).sum() / 7 * np.linalg.inv(A.T @ (w[:, None] * A))
    se = math.sqrt(cov[1, 1])
    t = scipy.stats.t.ppf(0.95, 7)
    assert fit.slope == pytest.approx(coef[1], rel=1e-12) and fit.intercept == pytest.approx(coef[0], rel=1e-12)
    assert fit.slope_ci == pytest.approx((coef[1] - t * se, coef[1] + t * se), rel=1e-10)
    if not weighted:
        lr = scipy.stats.linregress(x, y)
        assert fit.slope == pytest.approx(lr.slope, rel=1e-12)
        assert fit.slope_ci[1] - fit.slope == pytest.approx(t * lr.stderr, rel=1e-10)


def test_smacof_iterates_are_sklearns_guttman_transforms():
    """One and ten Guttman transforms from the same start equal sklearn.manifold.smacof's (metric, unit weights)."""
    sk = pytest.importorskip("sklearn.manifold")
    rng = np.random.default_rng(24)
    Y = rng.standard_normal((8, 3))
    D = cdist(Y, Y)
    X0 = rng.standard_normal((8, 2))
    for it in (1, 10):
        ours = geo.smacof(D, X0, n_iter=it, rtol=0.0)
        theirs = sk.smacof(D, n_components=2, init=X0, n_init=1, max_iter=it, eps=0.0, metric=True,
                           normalized_stress=False)[0]
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10 * it)


@pytest.mark.parametrize("orthonormal", [False, True])
@pytest.mark.parametrize("position_map", ["linear", "exp"])
def test_legendre_columns_are_scipy_legendre_polynomials_on_each_map(position_map, orthonormal):
    n, d, n_max, start = 9, 7, 20, 15  # rows cross n_max: the clip branch of the linear map too
    p = np.arange(start, start + n, dtype=np.float64)
    x = 2 * p / (n_max - 1) - 1 if position_map == "linear" else 1 - 2 * np.exp(-math.log(20) * p / (n_max - 1))
    x = np.minimum(x, 1.0)
    want = np.stack([scipy.special.eval_legendre(k, x) * (math.sqrt((2 * k + 1) / 2) if orthonormal else 1)
                     for k in range(d)], axis=1)
    got = enc.legendre(n, d, n_max=n_max, start=start, position_map=position_map, orthonormal=orthonormal)
    # |P_k(x)| <= 1 on [-1, 1]; the three-term recurrence loses <= ~2k u per degree (both sides)
    np.testing.assert_allclose(got, want, rtol=0, atol=gamma(4 * d * d) * 2)


@pytest.mark.parametrize("seed", range(4))
def test_kolmogorov_with_resolution_is_the_sup_over_every_jump_point(seed):
    """sup_x max(F1(x) - F2(x + eps), F2(x) - F1(x + eps), 0) with right-continuous CDFs (P(X <= x)), written
    out over every point where either difference can jump: the atoms and the atoms shifted by -eps."""
    rng = np.random.default_rng(seed)
    x1 = np.round(rng.standard_normal(15), 1)  # ties, and atoms shared between the samples
    x2 = np.round(rng.standard_normal(11) + 0.2, 1)

    def F(xs, t):
        return (xs[None, :] <= t[:, None]).mean(axis=1)

    for eps in (0.0, 0.05, 0.1, 0.3):
        pts = np.concatenate([x1, x2, x1 - eps, x2 - eps])
        want = max(0.0, np.max(F(x1, pts) - F(x2, pts + eps)), np.max(F(x2, pts) - F(x1, pts + eps)))
        assert tp.kolmogorov_distance(x1, x2, resolution=eps) == pytest.approx(want, abs=gamma(30))
    assert tp.kolmogorov_distance(x1, x2) == pytest.approx(scipy.stats.ks_2samp(x1, x2).statistic, abs=gamma(30))
