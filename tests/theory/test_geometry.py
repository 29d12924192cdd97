"""petheory.geometry: distributions, Hellinger, classical MDS, stress, rank, induced geometry.

Every fast path is compared with a dense reference; every bad input has a test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from scipy.spatial.distance import cdist

from _helpers import ladder_tol

from petheory import encodings as enc
from petheory import geometry as g
from petheory import _memory
from petheory.geometry import induced, stress_measures
from petheory.errors import ParameterError
from petheory.rounding import eig_rank_tol, gamma

RNG = np.random.default_rng(1234)


def refused(call, owner, message: str) -> None:
    """``call()`` raises ``owner``'s ParameterError with exactly ``message``."""
    with pytest.raises(ParameterError) as info:
        call()
    assert str(info.value) == message and info.value.owner is owner, (str(info.value), info.value.owner)


def dirichlet(n, V, seed=0, alpha=0.5):
    return np.random.default_rng(seed).dirichlet(np.full(V, alpha), size=n)


def hellinger_reference(P):
    S = np.sqrt(P)
    return np.sqrt(0.5 * ((S[:, None, :] - S[None, :, :]) ** 2).sum(axis=2))


def stress1_reference(E, D):
    iu = np.triu_indices(D.shape[0], 1)
    e, t = E[iu], D[iu]
    s = (t @ e) / (e @ e)
    return math.sqrt(np.sum((t - s * e) ** 2) / np.sum(t**2))


# ----------------------------------------------------------------------------- tolerances
# Derived from the rounding model (Higham 2002, Lemma 3.1: an m-term sum or inner product is off by at most
# gamma_m times the sum of the magnitudes of its terms), next to the computation they bound.


def hellinger_sq_tol(V):
    """Two computations of the same squared Hellinger distance differ by at most gamma_{4V+18}.

    The library's (g_i + g_j)/2 - G_ij: g and G are V-term sums of products of rounded square roots, each
    term and sum at most 1, so each is off by gamma_{V+2}, and the combination by 2 gamma_{V+2} + 3u; the
    reference's sum of V squared differences of rounded roots is off by less. Squaring the returned distance
    adds 2u. Two such values: 2 ((2V + 4) + 3 + 2) u = (4V + 18) u.
    """
    return gamma(4 * V + 18)


def coord_dist_rel(k):
    """Relative error of an encoding distance from k coordinates in the stress (the Gram blocks with exact
    repair): squared distances within 2 gamma_{k+2} / 1e-3 (petheory.geometry.stress_measures._CoordRows),
    so distances within half that, and a cdist distance within gamma_{k+2}: 1e3 gamma_{k+2} covers both."""
    return 1e3 * gamma(k + 2)


def stress1_tol(n, k, s):
    """Stress-1 of n positions with k-coordinate encoding distances, computed twice.

    Stress-1 is the sine of the angle between the target and encoding distance vectors: a relative error eps
    of every encoding distance turns that vector by at most eps, so s moves by at most eps (on each side: 2 eps).
    The 1 - cos^2 form rounds three n^2-term sums (3 gamma_{n^2} on cos^2), which is 3 gamma_{n^2} / (2 s) on s.
    """
    return 2 * coord_dist_rel(k) + 3 * gamma(n * n) / (2 * s)


def raw_tol(d, e, k):
    """Absolute error of raw stress sum (d - e)^2 over the pairs, e from k coordinates: a relative error eps of
    each e changes (d - e)^2 by 2 |d - e| eps e, and the m-term sum adds gamma_{m+2} of its value."""
    return 2 * coord_dist_rel(k) * float(np.sum(np.abs(d - e) * e)) + gamma(d.size + 2) * float(np.sum((d - e) ** 2))


# ----------------------------------------------------------------------------- distributions


def test_positional_distributions_counts_each_position():
    P = g.positional_distributions(["a b c", "a c", "b b b"], n=2)
    assert P.n == 2 and P.vocab[0] == "b"  # most frequent type first
    C = P.counts.toarray()
    col = {t: k for k, t in enumerate(P.vocab)}
    assert C[0, col["a"]] == 2 and C[0, col["b"]] == 1
    assert C[1, col["b"]] == 2 and C[1, col["c"]] == 1
    np.testing.assert_array_equal(P.observations, [3, 3])


def test_positional_distributions_reads_a_file_and_counts_blank_lines(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text("x y\n\n  \nx z\n", encoding="utf-8")
    P = g.positional_distributions(f)
    assert P.n_sequences == 2 and P.n_empty == 2 and P.n == 2 and P.source == str(f)


def test_token_id_input_uses_the_ids_as_columns():
    P = g.positional_distributions([np.array([3, 1]), np.array([3, 0, 2])], vocab_size=5)
    assert P.V == 5 and P.counts[0, 3] == 2 and P.n == 3 and P.tokenizer == "token ids"


def test_default_n_reports_positions_it_leaves_out():
    P = g.positional_distributions(["a b c d", "a b", "a b c"], min_count=2)
    assert P.n == 3
    assert P.excluded_from == 3 and P.excluded_observations == (1,)


def test_n_beyond_the_longest_sequence_is_an_error_naming_what_is_supported():
    with pytest.raises(ValueError, match=r"longest sequence .* has 3 tokens; the corpus supports n <= 3"):
        g.positional_distributions(["a b c", "a"], n=5)


def test_sparse_positions_raise_or_are_kept_and_listed():
    with pytest.raises(ValueError, match=r"position 2 has 1\); the corpus supports n <= 2"):
        g.positional_distributions(["a b c", "a b", "b a"], n=3, min_count=2)
    P = g.positional_distributions(["a b c", "a b", "b a"], n=3, min_count=2, on_sparse="keep")
    assert P.sparse_positions == (2,)


def test_empty_corpus_is_an_error(tmp_path):
    f = tmp_path / "empty.txt"
    f.write_text("\n \n", encoding="utf-8")
    with pytest.raises(ValueError, match="corpus is empty"):
        g.positional_distributions(f)
    with pytest.raises(ValueError, match="corpus is empty"):
        g.positional_distributions([])


def test_missing_corpus_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        g.positional_distributions(tmp_path / "nope.txt")


def test_bad_corpus_types_and_ids():
    with pytest.raises(TypeError):
        g.positional_distributions(42)
    with pytest.raises(ValueError, match=">= 0"):
        g.positional_distributions([np.array([1, -1])])
    with pytest.raises(ValueError, match="out of range"):
        g.positional_distributions([np.array([1, 7])], vocab_size=3)


def test_max_vocab_pools_rare_types_into_other():
    P = g.positional_distributions(["a a b c d"], max_vocab=1)
    assert P.vocab == ("a", "<other>") and P.pooled == 3
    assert P.counts.toarray().sum() == 5


def test_smoothed_rows_are_distributions_and_match_the_dense_hellinger():
    P = g.positional_distributions(["a b", "b c", "c a"], smoothing=0.5)
    dense = P.probabilities()
    # a sum of V rounded quotients: within gamma_{V+1} of 1 (the library's own check)
    np.testing.assert_allclose(dense.sum(axis=1), 1.0, rtol=0, atol=gamma(P.V + 1))
    D = g.hellinger_distances(P)
    np.testing.assert_allclose(D**2, hellinger_reference(dense) ** 2, rtol=0, atol=hellinger_sq_tol(P.V))


def test_builtin_target_is_documented_size():
    P = g.builtin_target()
    assert P.n == 15 and P.V == 49 and P.source.startswith("builtin:")
    assert P.observations.min() >= g.BUILTIN_MIN_COUNT


# ----------------------------------------------------------------------------- Hellinger


@given(st.integers(2, 9), st.integers(1, 12), st.integers(0, 2**16))
def test_hellinger_matches_the_direct_formula(n, V, seed):
    P = dirichlet(n, V, seed)
    D = g.hellinger_distances(P)
    # distances of nearly equal rows lose half their digits (documented): compare squares
    np.testing.assert_allclose(D**2, hellinger_reference(P) ** 2, rtol=0, atol=4 * V * 2.2e-16)
    # g_i = sum of V squared rounded roots of p summing to 1 is <= 1 + gamma_{2V+2}; D^2 <= g (1 + 2u), sqrt halves it
    assert np.array_equal(D, D.T) and np.all(np.diag(D) == 0) and D.max() <= 1 + gamma(2 * V + 4)


def test_hellinger_sparse_and_blocked_equal_dense(monkeypatch):
    P = dirichlet(37, 20, 3, alpha=0.1)
    P[P < 0.02] = 0
    P /= P.sum(axis=1, keepdims=True)
    ref = g.hellinger_distances(P)
    monkeypatch.setattr(_memory, "BLOCK_BYTES", 8 * 37 * 3 * 5)  # force blocks of 5 rows
    tol = hellinger_sq_tol(P.shape[1])  # on squares: a distance near 0 would lose half its digits
    np.testing.assert_allclose(g.hellinger_distances(sp.csr_matrix(P)) ** 2, ref**2, rtol=0, atol=tol)
    np.testing.assert_allclose(g.hellinger_distances(P) ** 2, ref**2, rtol=0, atol=tol)


@pytest.mark.parametrize(
    "P, match",
    [
        (np.array([[0.5, 0.6], [0.5, 0.5]]), "sum to 1"),
        (np.array([[1.2, -0.2], [0.5, 0.5]]), "negative"),
        (np.array([[np.nan, 1.0], [0.5, 0.5]]), "finite"),
        (np.ones(3) / 3, "2-D"),
        (sp.csr_matrix(np.array([[0.5, 0.4], [0.5, 0.5]])), "sum to 1"),
        (sp.csr_matrix(np.array([[1.5, -0.5], [0.5, 0.5]])), "negative"),
    ],
)
def test_hellinger_rejects_bad_distributions(P, match):
    with pytest.raises(ValueError, match=match):
        g.hellinger_distances(P)


def test_row_sum_tolerance_follows_the_dtype():
    P32 = dirichlet(4, 300, 1).astype(np.float32)  # float32 rows: sums off by ~1e-7
    g.hellinger_distances(P32)  # accepted: tolerance gamma_(V+1) in float32
    off = dirichlet(4, 300, 1) * (1 + 1e-9)
    with pytest.raises(ValueError, match="sum to 1"):
        g.hellinger_distances(off)  # float64 rows 1e-9 off are not distributions


# ----------------------------------------------------------------------------- distance matrices


@pytest.mark.parametrize(
    "D, match",
    [
        (np.zeros((2, 3)), "square"),
        (np.array([[0, 1], [2, 0.0]]), "symmetric"),
        (np.array([[0, -1], [-1, 0.0]]), "negative"),
        (np.array([[0, np.nan], [np.nan, 0.0]]), "finite"),
        (np.array([[1, 1], [1, 0.0]]), "zero diagonal"),
        (np.zeros((1, 1)), "at least 2"),
    ],
)
def test_bad_distance_matrices_are_rejected(D, match):
    with pytest.raises(ValueError, match=match):
        g.check_distance_matrix(D)
    with pytest.raises(ValueError, match=match):
        g.classical_mds(D)


def test_declared_parameters_are_refused_in_their_owner_s_words():
    """Each entry point refuses a bad argument in the declared format, named as its own parameter; a rule between
    two parameters (sizes that must agree, a rank within n) is its own explicit refusal in the same format."""
    X6 = RNG.normal(size=(6, 2))
    D6, X5 = g.euclidean_distances(X6), X6[:5]
    D5 = D6[:5, :5]
    shape = "got a float64 array of shape"
    for call, owner, message in [
        (lambda: g.hellinger_distances(np.ones(3) / 3), g.hellinger_distances, f"P must be 2-D, {shape} (3,)"),
        (lambda: g.hellinger_distances(sp.csr_matrix(np.array([[np.nan, 1.0], [0.5, 0.5]]))), g.hellinger_distances,
         f"P must be finite (found 1 NaN/inf entries), {shape} (2, 2)"),
        (lambda: g.hellinger_distances(np.eye(2), atol=-1.0), g.hellinger_distances, "atol must be >= 0, got -1.0"),
        (lambda: g.check_distance_matrix(np.zeros((2, 3))), g.check_distance_matrix, f"D must be square, {shape} (2, 3)"),
        (lambda: g.stress_between(np.zeros((2, 3)), D6), g.stress_between, f"E must be square, {shape} (2, 3)"),
        (lambda: g.stress_between(D5, D6), g.stress_between, f"E must be a matrix of 6 positions (as D), {shape} (5, 5)"),
        (lambda: g.stress(X5, D6), g.stress, f"X must be an array of 6 rows (the positions of D), {shape} (5, 2)"),
        (lambda: g.stress(X6, D6, kind="sammon"), g.stress, "kind must be one of 'stress1', 'raw', 'strain', got 'sammon'"),
        (lambda: g.classical_mds(D6, rank=7), g.classical_mds, "rank must be <= 6 (the positions of D), got 7"),
        (lambda: g.classical_mds(D6, method="lanczos"), g.classical_mds,
         "method must be 'eigh' (or 'auto') unless rank is below n - 1 = 5: the Lanczos solvers compute the top rank "
         "eigenpairs, never the full spectrum, got 'lanczos'"),
        (lambda: g.hellinger_mds(dirichlet(4, 3), 3), g.hellinger_mds,
         "rank must be <= 2 (n - 2 for the n = 4 positions of P), got 3"),
        (lambda: g.smacof(D6, X5), g.smacof, f"X0 must be an array of 6 rows (the positions of D), {shape} (5, 2)"),
        (lambda: g.minimal_parametrisation(np.ones((3, 2)), rank=3), g.minimal_parametrisation,
         "rank must be <= min(n, d) = 2 (the shape of P), got 3"),
        (lambda: g.effective_rank(np.ones((2, 3))), g.effective_rank, f"B must be square, {shape} (2, 3)"),
        (lambda: g.bias_distances(np.eye(2), "kl"), g.bias_distances, "bias_map must be one of 'gap', 'hellinger', got 'kl'"),
        (lambda: g.induced_distances("alibi", 3, bias_map="kl"), g.induced_distances,
         "bias_map must be one of 'gap', 'hellinger', got 'kl'"),
        (lambda: g.induced_distances("alibi", 0), g.induced_distances, "n must be >= 1, got 0"),
        (lambda: g.induced_distances("alibi"), g.induced_distances, "n must be an integer >= 1 for the named encoding 'alibi', got None"),
        (lambda: g.encoding_stress(X6, D6, rank=0), g.encoding_stress, "rank must be >= 1, got 0"),
        (lambda: stress_measures.stress_of_tables([X6, X5], D6), stress_measures.stress_of_tables,
         f"tables must be finite real (n, k) or (n,) arrays of n = 6 rows (the positions of D), {shape} (5, 2)"),
    ]:
        refused(call, owner, message)


def test_a_distance_matrix_s_values_are_refused_in_the_caller_s_word():
    """check_distance_matrix's rules about the values say the matrix as its caller calls it, and name no owner (the
    parameter is the caller's); the caller's declaration has checked the type and the shape first."""
    D = np.array([[0.0, np.nan], [np.nan, 0.0]])
    for call, message in [(lambda: g.check_distance_matrix(D, "E"), "E must be finite (found 2 NaN/inf entries)"),
                          (lambda: g.stress_between(D, np.eye(2)), "E must be finite (found 2 NaN/inf entries)"),
                          (lambda: g.target_distances(D), "target must be finite (found 2 NaN/inf entries)"),
                          (lambda: g.classical_mds(np.zeros((1, 1))), "D must be a matrix of at least 2 positions")]:
        with pytest.raises(ParameterError) as info:
            call()
        assert str(info.value) == f"{message}, got a float64 array of shape {D.shape if 'finite' in message else (1, 1)}"
        assert info.value.owner is None


# ----------------------------------------------------------------------------- classical MDS


@given(st.integers(3, 12), st.integers(1, 4), st.integers(0, 2**16))
def test_mds_reproduces_euclidean_points_exactly(n, k, seed):
    X = np.random.default_rng(seed).normal(size=(n, k))
    D = cdist(X, X)
    m = g.classical_mds(D)
    assert m.rank == min(k, n - 1)
    assert m.negative.size == 0
    np.testing.assert_allclose(cdist(m.embedding, m.embedding), D, atol=1e-9 * (1 + D.max()))


def test_mds_strain_is_the_discarded_eigenvalues():
    D = g.hellinger_distances(dirichlet(20, 8, 5))
    m = g.classical_mds(D, rank=3)
    B = g.gram_from_distances(D)
    X = m.embedding
    assert m.strain == pytest.approx(np.linalg.norm(B - X @ X.T), rel=1e-10)
    assert m.truncated.size == m.eigenvalues.size - 3 - np.sum(m.eigenvalues <= m.tol * m.eigenvalues[0])


def test_non_euclidean_distances_report_negative_eigenvalues():
    D = np.array([[0, 1, 1, 3], [1, 0, 1, 1], [1, 1, 0, 1], [3, 1, 1, 0.0]])  # triangle inequality fails
    m = g.classical_mds(D)
    assert m.negative.size >= 1 and m.summary()["negative_mass"] > 0
    assert np.all(m.eigenvalues[: m.rank] > 0)


@pytest.mark.parametrize("method", ["lanczos", "block"])
def test_lanczos_matches_dense_eigh_top_eigenvalues(method):
    D = g.hellinger_distances(dirichlet(300, 30, 7, alpha=0.3))
    exact = g.classical_mds(D, method="eigh")
    top = g.classical_mds(D, rank=6, method=method)
    # each solver's eigenvalues are within gamma_{17n} |lambda|_max (forming B and the eigensolver's backward error:
    # the library's rank threshold eig_rank_tol), so the two differ by at most twice that
    n = D.shape[0]
    atol = 2 * eig_rank_tol(n) * exact.eigenvalues[0]
    np.testing.assert_allclose(top.eigenvalues, exact.eigenvalues[:6], rtol=0, atol=atol)
    np.testing.assert_allclose(np.abs(top.embedding), np.abs(exact.embedding[:, :6]), atol=1e-8)
    assert top.strain == pytest.approx(np.sqrt(np.sum(exact.eigenvalues[6:] ** 2)), rel=1e-6)
    # tr B = n rbar / 2 (rbar: mean of the row means of D^2, all terms >= 0) is within gamma_{2n+3}; tr of the formed
    # B sums n entries r_i - rbar/2 (each within (n + 2) u r_i + (2n + 3) u rbar + 5 u): gamma_{6n+18} of tr B
    assert top.trace == pytest.approx(exact.trace, rel=gamma(8 * n + 21))


def test_hellinger_mds_equals_mds_of_hellinger_distances():
    P = dirichlet(200, 40, 9, alpha=0.2)
    exact = g.classical_mds(g.hellinger_distances(P))
    for src in (P, sp.csr_matrix(P)):
        top = g.hellinger_mds(src, 5)
        # both solvers within eig_rank_tol(n) |lambda|_max (see test_lanczos_matches_dense_eigh_top_eigenvalues)
        np.testing.assert_allclose(top.eigenvalues, exact.eigenvalues[:5], rtol=0,
                                   atol=2 * eig_rank_tol(P.shape[0]) * exact.eigenvalues[0])
        assert top.frobenius == pytest.approx(np.linalg.norm(exact.eigenvalues), rel=1e-10)
    C = g.positional_distributions([RNG.integers(0, 30, size=12) for _ in range(400)], vocab_size=30, smoothing=0.3)
    exact = g.classical_mds(g.hellinger_distances(C))
    np.testing.assert_allclose(g.hellinger_mds(C, 4).eigenvalues, exact.eigenvalues[:4], rtol=0,
                               atol=2 * eig_rank_tol(C.n) * exact.eigenvalues[0])


def test_bad_ranks_and_methods():
    D = g.euclidean_distances(RNG.normal(size=(10, 2)))
    with pytest.raises(ValueError, match="rank"):
        g.classical_mds(D, rank=0)
    for method in ("lanczos", "block"):
        with pytest.raises(ValueError, match=method):
            g.classical_mds(D, method=method)
    with pytest.raises(ValueError, match="method"):
        g.classical_mds(D, method="svd")


# ----------------------------------------------------------------------------- stress


@given(st.integers(3, 10), st.integers(0, 2**16), st.floats(0.01, 100))
def test_stress1_is_the_optimal_scale_residual_and_scale_free(n, seed, c):
    r = np.random.default_rng(seed)
    D = g.euclidean_distances(r.normal(size=(n, 3)))
    X = r.normal(size=(n, 2))
    s = g.stress(X, D)
    tol = stress1_tol(n, 2, s)
    assert s == pytest.approx(stress1_reference(cdist(X, X), D), abs=tol)
    assert g.stress(c * X, D) == pytest.approx(s, abs=tol)
    assert g.stress_between(D, cdist(X, X)) == pytest.approx(s, abs=tol)  # sine of the angle: symmetric
    assert 0 <= s <= 1


def test_stress_is_zero_for_an_exact_embedding_and_one_for_a_point():
    X = RNG.normal(size=(9, 3))
    D = g.euclidean_distances(X)
    # the near-zero branch recomputes the residual: what is left is the relative error of the two distance
    # computations (coordinates through the stress's Gram blocks, the target through cdist) and one 81-term sum
    assert g.stress(2.5 * X, D) < coord_dist_rel(3) + gamma(81)
    assert g.stress(np.zeros((9, 2)), D) == 1.0
    with pytest.raises(ValueError, match="all zero"):
        g.stress(X, np.zeros((9, 9)))


def test_raw_stress_and_strain_match_their_formulas():
    X, Y = RNG.normal(size=(8, 2)), RNG.normal(size=(8, 3))
    D = g.euclidean_distances(Y)
    E = cdist(X, X)
    iu = np.triu_indices(8, 1)
    raw = np.sum((D[iu] - E[iu]) ** 2)
    assert g.stress(X, D, kind="raw") == pytest.approx(raw, rel=0, abs=raw_tol(D[iu], E[iu], 2))
    J = np.eye(8) - 1 / 8
    Xc = J @ X
    assert g.stress(X, D, kind="strain") == pytest.approx(np.linalg.norm(g.gram_from_distances(D) - Xc @ Xc.T), rel=1e-10)


def test_stress_against_distributions_is_blocked_and_equals_dense(monkeypatch):
    P = g.positional_distributions([RNG.integers(0, 12, size=20) for _ in range(300)], vocab_size=12)
    X = RNG.normal(size=(20, 2))
    dense = {k: g.stress(X, g.hellinger_distances(P), kind=k) for k in g.STRESS_KINDS}
    monkeypatch.setattr(_memory, "BLOCK_BYTES", 8 * 20 * 6 * 3)
    for k in g.STRESS_KINDS:
        assert g.stress(X, P, kind=k) == pytest.approx(dense[k], rel=1e-10)


def test_stress_shape_mismatch_and_bad_kind():
    D = g.euclidean_distances(RNG.normal(size=(6, 2)))
    with pytest.raises(ValueError, match="6"):
        g.stress(RNG.normal(size=(5, 2)), D)
    with pytest.raises(ValueError, match="kind"):
        g.stress(RNG.normal(size=(6, 2)), D, kind="sammon")


# ----------------------------------------------------------------------------- rank, factorisation, SMACOF


def test_effective_rank_counts_eigenvalues_above_tolerance():
    X = RNG.normal(size=(10, 3))
    B = g.gram_from_distances(g.euclidean_distances(X))
    assert g.effective_rank(B) == 3
    assert g.effective_rank(np.array([1.0, 0.5, 1e-4, -0.2]), tol=1e-3) == 3
    assert g.effective_rank(np.array([1.0, 0.5, 1e-4, -0.2]), tol=1e-3, positive=True) == 2
    assert g.effective_rank(np.zeros(3)) == 0
    with pytest.raises(ValueError, match="symmetric"):
        g.effective_rank(np.array([[1.0, 2.0], [0.0, 1.0]]))


@given(st.integers(2, 12), st.integers(1, 12), st.integers(0, 2**16))
def test_minimal_parametrisation_is_exact_at_the_rank_and_eckart_young_below(n, d, seed):
    r = np.random.default_rng(seed)
    k = min(n, d, 3)
    P = r.normal(size=(n, k)) @ r.normal(size=(k, d))
    f = g.minimal_parametrisation(P)
    assert f.rank == k and f.params_min == k * (n + d) and f.params_full == n * d
    # LAPACK's SVD is backward stable, ||dP||_2 <= p u ||P||_2 with p a modest multiple of max(n, d) (16 max(n, d)
    # here; at most 6 max(n, d) is observed), and the discarded singular values are that small too: at most
    # min(n, d) of them in the Frobenius norm
    assert f.measured_error <= gamma(16 * max(n, d)) * math.sqrt(min(n, d)) * np.linalg.norm(P, 2)
    if k > 1:
        h = g.minimal_parametrisation(P, rank=k - 1)
        assert h.measured_error == pytest.approx(h.error, rel=1e-8)
    assert f.saves == (k * (n + d) < n * d)


def test_smacof_lowers_stress_of_classical_mds():
    D = g.hellinger_distances(dirichlet(12, 5, 2))
    X0 = g.classical_mds(D, rank=1).embedding
    X = g.smacof(D, X0)
    assert g.stress(X, D, kind="raw") <= g.stress(X0, D, kind="raw")


# ----------------------------------------------------------------------------- induced geometry


def test_rope_geometry_is_sqrt2_times_sinusoidal_with_the_same_frequencies():
    n, d = 40, 16
    Dr = g.rotary_distances(enc.rope(n, d))
    Ds = g.euclidean_distances(enc.sinusoidal(n, d))
    np.testing.assert_allclose(Dr, math.sqrt(2) * Ds, rtol=0, atol=(1 + math.sqrt(2)) * ladder_tol(n, d))
    # and it is the Frobenius distance of the rotation matrices
    t = enc.rope(n, d)
    assert Dr[3, 11] == pytest.approx(np.linalg.norm(t.matrix(3) - t.matrix(11)), rel=0, abs=2 * ladder_tol(12, 2 * d))


def test_rotary_distances_large_n_path_matches_small():
    t = enc.rope(1100, 8)
    D = g.rotary_distances(t)
    small = g.rotary_distances(enc.rope(50, 8))
    # the same rounded angles and operations; only the order of the d/2-term sums may differ (gamma_{d/2} of D^2)
    np.testing.assert_allclose(D[:50, :50], small, rtol=0, atol=gamma(8 // 2 + 2) * small.max())


def test_alibi_gap_geometry_is_the_scaled_line():
    D = g.bias_distances(enc.alibi(7, slope=0.25))
    i = np.arange(7)
    np.testing.assert_allclose(D, 0.25 * np.abs(i[:, None] - i[None, :]), atol=0)
    Dc = g.bias_distances(enc.alibi(7, slope=0.25, form="key_index") - 0.25 * np.arange(7)[:, None])
    assert Dc.shape == (7, 7)


def test_learned_bias_needs_the_hellinger_map():
    B = enc.t5(20, seed=0)
    with pytest.raises(ValueError, match="hellinger"):
        g.bias_distances(B, "gap")
    D = g.bias_distances(B, "hellinger")
    assert np.all(D >= 0) and np.allclose(D, D.T)
    De, geo = g.induced_distances("t5", 20)
    assert "Hellinger" in geo and De.shape == (20, 20)


def test_induced_distances_of_tables_and_errors():
    T = RNG.normal(size=(10, 4))
    D, geo = g.induced_distances(T, 6)
    np.testing.assert_array_equal(D, cdist(T[:6], T[:6]))  # the same cdist of the same rows: no rounding between them
    refused(lambda: g.induced_distances(T, 11), g.induced_distances,
            "n must be <= 10 (the encoding table's positions), got 11")
    refused(lambda: g.induced_distances(T, 5, d=3), g.induced_distances,
            "d must be 4 (the encoding table's columns) or None, got 3")
    refused(lambda: g.induced_distances("sinusoidal", 5), g.induced_distances,
            "d must be an integer >= 1 for the absolute encoding 'sinusoidal', got None")
    with pytest.raises(ValueError, match="unknown encoding"):
        g.induced_distances("nonesuch", 5, 4)


def test_encoding_stress_report_and_errors():
    P = g.builtin_target()
    r = g.encoding_stress("sinusoidal", P, d=32)
    assert 0 < r.stress < 1 and r.n == 15 and r.params_full == 15 * 32 and r.params_min == r.rank * (15 + 32)
    assert r.mds_stress < 1e-6
    d = r.as_dict()
    assert {"stress", "stress_formula", "n", "d", "rank", "params_full", "params_min", "target"} <= set(d)
    # RoPE's distances are sqrt 2 x sinusoidal's (up to ladder_tol) and stress-1 is scale-free: the sine of the angle
    # moves by at most the largest relative change of a distance, plus the three 1 - cos^2 sums (stress1_tol)
    De = g.induced_distances("sinusoidal", 15, 32)[0]
    rel = (1 + math.sqrt(2)) * ladder_tol(15, 32) / (math.sqrt(2) * De[~np.eye(15, dtype=bool)].min())
    assert g.encoding_stress("rope", P, d=32).stress == pytest.approx(r.stress, abs=rel + 3 * gamma(15 * 15) / r.stress)
    refused(lambda: g.encoding_stress("sinusoidal", P, d=32, n=30), g.encoding_stress,
            "n must be <= 15 (the target's positions: what the corpus supports at min_count=100), got 30")
    refused(lambda: g.encoding_stress(RNG.normal(size=(10, 4)), P), g.encoding_stress,
            "n must be <= 10 (the encoding table's positions), got 15")


def test_from_counts_wraps_tallied_counts_and_validates():
    C = np.array([[2, 0, 1], [0, 3, 0]])
    P = g.PositionalDistributions.from_counts(C)
    np.testing.assert_allclose(P.probabilities().toarray(), C / C.sum(1, keepdims=True))
    with pytest.raises(ValueError, match="no observation"):
        g.PositionalDistributions.from_counts(np.array([[1, 0], [0, 0]]))
    with pytest.raises(ValueError, match="integers"):
        g.PositionalDistributions.from_counts(np.array([[1.5, 0], [1, 0]]))
    assert g.PositionalDistributions.from_counts(np.array([[1, 0], [0, 0]]), smoothing=1.0).n == 2


def test_gram_distances_repair_cancellation_far_from_the_origin():
    X = 1e6 + RNG.normal(size=(50, 3)) * 1e-3  # far from the origin, tightly clustered
    E = stress_measures._CoordRows(X).rows(0, 50)
    np.testing.assert_allclose(E, cdist(X, X), rtol=1e-10, atol=0)


def test_encoding_stress_large_n_uses_the_top_eigenpairs(monkeypatch):
    T = RNG.normal(size=(40, 6))
    D = g.euclidean_distances(RNG.normal(size=(40, 3)))
    full = g.encoding_stress(T, D)
    monkeypatch.setattr(induced, "FULL_SPECTRUM_MAX_N", 10)
    monkeypatch.setattr(induced, "LARGE_N_RANK", 5)
    top = g.encoding_stress(T, D)
    assert top.stress == full.stress and top.rank == full.rank == 3 and top.mds["requested_rank"] == 5
    assert top.mds_stress == pytest.approx(full.mds_stress, abs=1e-7)


def test_check_distance_matrix_reports_asymmetry_and_non_finite_in_large_matrices():
    D = g.euclidean_distances(RNG.normal(size=(70, 3)))
    for i, j in [(3, 61), (61, 3), (40, 41), (69, 0)]:
        bad = D.copy()
        bad[i, j] += 0.5
        with pytest.raises(ValueError, match=rf"symmetric: D\[({i},{j}|{j},{i})\]"):
            g.check_distance_matrix(bad)
    for x in (np.nan, np.inf, -np.inf):
        bad = D.copy()
        bad[5, 60] = x
        with pytest.raises(ValueError, match="finite"):
            g.check_distance_matrix(bad)
    assert g.check_distance_matrix(D) is D


@pytest.mark.parametrize("seed", range(5))
def test_blocked_coordinate_stress_equals_pdist(monkeypatch, seed):
    rng = np.random.default_rng(seed)  # own generator: the data must not depend on which tests ran first
    X = rng.normal(size=(150, 4))  # centring rounds coordinates near 0 by ~u|x|: 1e-8 relative on the pair below
    X[7] = X[90] + 1e-9  # a near-duplicate pair: repaired from differences of the original rows
    D = g.euclidean_distances(rng.normal(size=(150, 3)))
    E = cdist(X, X)
    iu = np.triu_indices(150, 1)
    d, e = D[iu], E[iu]
    s = (d @ e) / (e @ e)
    ref = np.sqrt(np.sum((d - s * e) ** 2) / (d @ d))
    tol = stress1_tol(150, 4, ref)
    assert g.stress(X, D) == pytest.approx(ref, abs=tol)
    monkeypatch.setattr(_memory, "CACHE_BYTES", 8 * 150 * 3)  # blocks of 8 rows, buffer reused across blocks
    assert g.stress(X, D) == pytest.approx(ref, abs=tol)
    assert g.stress(X, D, kind="raw") == pytest.approx(np.sum((d - e) ** 2), rel=0, abs=raw_tol(d, e, 4))
    np.testing.assert_allclose(stress_measures._CoordRows(X).rows(0, 150), E, rtol=1e-10, atol=0)


# ----------------------------------------------------------------------------- layering


def test_geometry_and_coupling_read_no_file_and_import_no_torch():
    """Theory only: importing geometry and coupling, and computing from data in memory, loads neither torch nor a
    reader (petheory.loaders, tokenizers, safetensors); a corpus path is the one thing handed to the loaders."""
    import subprocess
    import sys

    code = ("import sys, petheory.geometry as g, petheory.coupling as c\n"
            "P = g.builtin_target(); g.encoding_stress('rope', P, d=16); c.spectral_summary(c.logit_terms("
            "*[__import__('numpy').eye(4)] * 4).total)\n"
            "print(sorted(m for m in ('torch', 'tokenizers', 'safetensors', 'petheory.loaders') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"
