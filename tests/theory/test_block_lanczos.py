"""Block Lanczos (petheory.geometry.block_lanczos) against dense ``eigh``, scikit-learn's ClassicalMDS and ARPACK.

Tolerances: a pair returned with residual ||r|| <= tol |theta| has its eigenvalue within ||r||^2 / gap of
an exact one (Kato-Temple) plus the rounding of the products, about sqrt(n) u ||A||_F; the tests
allow the rounding term with a factor 8 and use the computed residual for the rest.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from scipy.linalg import eigh
from scipy.spatial.distance import cdist

from petheory import geometry as g
from petheory.errors import ParameterError
from petheory.geometry.block_lanczos import default_block, top_eigenpairs
from petheory.rounding import eig_rank_tol

U = np.finfo(float).eps / 2


@functools.lru_cache(maxsize=2)
def floor_spectrum(n: int, seed: int = 0) -> np.ndarray:
    """A symmetric matrix with the MDS benchmark's shape of spectrum: a few large eigenvalues, then a
    slowly decreasing floor (lambda_8 - lambda_9 about 1 % of lambda_8), then zeros."""
    rng = np.random.default_rng(seed)
    lam = np.zeros(n)
    lam[:7] = [110.0, 36.0, 12.0, 6.3, 5.3, 5.2, 5.16]
    lam[7 : n // 2] = np.linspace(5.05, 0.5, n // 2 - 7)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return (Q * lam) @ Q.T


def check_pairs(A, top, k, tol):
    """Residuals recomputed here meet the criterion; eigenvalues match eigh within ||r||^2/gap + rounding."""
    n = A.shape[0]
    exact = eigh(A, eigvals_only=True)[::-1]
    assert top.values.shape == (k,) and top.vectors.shape == (n, k)
    res = np.linalg.norm(A @ top.vectors - top.vectors * top.values, axis=0)
    rounding = 8 * np.sqrt(n) * U * np.linalg.norm(A)
    assert np.all(res <= tol * np.maximum(np.abs(top.values), np.finfo(float).eps ** (2 / 3)) + rounding)
    gap = np.maximum(np.abs(exact[:k] - exact[1 : k + 1]), 1e-3)  # the smallest gaps are >= 1e-3 in these matrices
    np.testing.assert_allclose(top.values, exact[:k], rtol=0, atol=np.max(res**2 / gap) + rounding)
    np.testing.assert_allclose(top.vectors.T @ top.vectors, np.eye(k), rtol=0, atol=64 * np.sqrt(n) * U)


def test_top_eigenpairs_match_dense_eigh_on_a_flat_floor():
    A = floor_spectrum(240)
    top = top_eigenpairs(lambda X: A @ X, 240, 8, tol=1e-10)
    check_pairs(A, top, 8, 1e-10)
    assert top.products == top.passes * default_block(240, 8) and top.restarts == 0


def test_thick_restart_gives_the_same_pairs():
    A = floor_spectrum(240)
    top = top_eigenpairs(lambda X: A @ X, 240, 8, tol=1e-10, block=8, max_basis=40)
    assert top.restarts > 0
    check_pairs(A, top, 8, 1e-10)


def test_an_invariant_subspace_is_topped_up_with_new_directions():
    # Classical MDS of points in 3 dimensions: B has rank 3, so the Krylov space is exhausted after one
    # pass, and the pairs asked for beyond the rank (eigenvalue 0) come from fresh random directions.
    X = np.random.default_rng(1).normal(size=(120, 3))
    B = g.gram_from_distances(cdist(X, X))
    top = top_eigenpairs(lambda Y: B @ Y, 120, 5, tol=1e-10, block=4)
    check_pairs(B, top, 5, 1e-10)
    np.testing.assert_allclose(top.values[3:], 0.0, atol=8 * np.sqrt(120) * U * np.linalg.norm(B))


def test_largest_algebraic_with_negative_eigenvalues_and_tol_zero():
    rng = np.random.default_rng(2)
    Q, _ = np.linalg.qr(rng.standard_normal((150, 150)))
    lam = np.concatenate([[9.0, 7.0, 4.0], rng.uniform(-50.0, 2.0, 147)])  # the largest magnitudes are negative
    A = (Q * lam) @ Q.T
    top = top_eigenpairs(lambda Y: A @ Y, 150, 3, tol=0.0)  # tol 0: stop at the rounding floor
    check_pairs(A, top, 3, 0.0)


def test_non_convergence_and_bad_arguments_are_refused():
    A = floor_spectrum(240)
    with pytest.raises(RuntimeError, match="did not converge in 2 passes"):
        top_eigenpairs(lambda X: A @ X, 240, 8, max_passes=2)
    for kw, message in (({"k": 240}, "k must be <= 239 (n - 1 for n = 240), got 240"),
                        ({"block": 0}, "block must be >= 1, got 0"),
                        ({"block": 241}, "block must be <= 240 (n for n = 240), got 241"),
                        ({"block": 8, "max_basis": 20},
                         "max_basis must be >= k + 2 * block = 24 (or n = 240) for k = 8 and block = 8, got 20"),
                        ({"tol": -1.0}, "tol must be >= 0, got -1.0"),
                        ({"seed": -1}, "seed must be >= 0, got -1")):
        args = {"k": 8, **kw}
        with pytest.raises(ParameterError) as info:
            top_eigenpairs(lambda X: A @ X, 240, **args)
        assert str(info.value) == message and info.value.owner is top_eigenpairs


def test_classical_mds_lanczos_path_matches_sklearn_classical_mds():
    sk = pytest.importorskip("sklearn.manifold")
    if not hasattr(sk, "ClassicalMDS"):
        pytest.skip("scikit-learn < 1.8 has no ClassicalMDS")
    rng = np.random.default_rng(3)
    P = rng.dirichlet(np.full(40, 0.3), size=520)
    D = g.hellinger_distances(P)
    ours = g.classical_mds(D, rank=6, method="lanczos")
    ref = sk.ClassicalMDS(n_components=6, metric="precomputed").fit(D)
    # sklearn: a dense eigh of B; both within eig_rank_tol(n) |lambda|_max of the exact eigenvalues
    atol = 2 * eig_rank_tol(520) * ref.eigenvalues_[0]
    np.testing.assert_allclose(ours.eigenvalues[:6], ref.eigenvalues_, rtol=0, atol=atol)
    # coordinates up to each column's sign, to the eigenvectors' accuracy ||r|| / gap
    np.testing.assert_allclose(np.abs(ours.embedding), np.abs(ref.embedding_), atol=1e-7)
