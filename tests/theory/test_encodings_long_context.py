"""The long-context encodings (petheory.encodings.extension, .kernels, .combinations, and geometry.optimal's
mds_optimal): each against a reference formula written
here from its paper, its conventions, its parameter checks, and one training step through petheory.nn.

Tolerances come from petheory.rounding (size, scale, unit roundoff) next to each identity.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from petheory import bounds, geometry, toeplitz
from petheory import encodings as enc
from petheory.encodings.extension import ScaledRotaryTable, ntk_base, yarn_mscale
from petheory.encodings.kernels import rotary_kernel
from petheory.rounding import tolerance, unit_roundoff

U = unit_roundoff()
NEW = ("rope_pi", "rope_ntk", "rope_yarn", "xpos", "mla_rope", "rope_sinusoidal", "rope_learned",
       "kerple_log", "kerple_power", "sandwich", "mds_optimal")


def ang_tol(n: int) -> float:
    """Angles p*w with p < n, w <= 1: a few roundings of magnitude <= n."""
    return 8 * U * n


def rope_reference(n, d, base=10000.0):
    """RoFormer: theta_t = base^(-2t/d), angle p * theta_t, t = 0..d/2-1 (su2024 Eq. 15)."""
    t = np.arange(d // 2)
    return np.arange(n)[:, None] * base ** (-2.0 * t / d)[None, :]


@pytest.mark.parametrize("name", NEW)
def test_new_encodings_are_registered_with_conventions_and_source(name):
    info = enc.info(name)
    assert info.summary and info.conventions and info.source


# ----------------------------------------------------------------------------- RoPE context extension


def test_pi_divides_every_frequency_by_the_scale():
    s = 4.0
    ref = rope_reference(50, 16) / s  # chen2023 Eq. 2: f'(x, m) = f(x, m L / L')
    assert np.allclose(enc.get("rope_pi")(50, 16, scale=s).angles, ref, rtol=0, atol=ang_tol(50))


@pytest.mark.parametrize("s", [2, 3, 8])
def test_pi_with_scale_s_at_position_sp_equals_rope_at_p(s):
    pi, rope = enc.get("rope_pi")(10 * s, 32, scale=float(s)).angles, enc.rope(10, 32).angles
    assert np.allclose(pi[::s], rope, rtol=0, atol=ang_tol(10 * s))


def test_ntk_base_is_b_times_s_to_the_r_over_r_minus_2():
    r, b, s = 64, 10000.0, 8.0
    assert math.isclose(ntk_base(b, s, r), b * s ** (64 / 62), rel_tol=4 * U)
    tab = enc.get("rope_ntk")(3, r, scale=s).angles
    ref = rope_reference(3, r, base=b * s ** (r / (r - 2)))
    assert np.allclose(tab, ref, rtol=8 * U, atol=0)
    # the lowest band is interpolated by exactly s, the highest kept
    w, w0 = tab[1], rope_reference(2, r)[1]
    assert math.isclose(w[-1], w0[-1] / s, rel_tol=64 * U) and w[0] == w0[0]


def yarn_reference(d, s, L, alpha=1.0, beta=32.0, base=10000.0):
    """peng2023 Eqs. 17-18, written out: r(t) = L / lambda_t, lambda_t = 2 pi / theta_t."""
    out = []
    for t in range(d // 2):
        theta = base ** (-2 * t / d)
        r = L / (2 * math.pi / theta)
        g = 0.0 if r < alpha else 1.0 if r > beta else (r - alpha) / (beta - alpha)
        out.append((1 - g) * theta / s + g * theta)
    return np.array(out)


def test_yarn_frequencies_follow_the_paper_ramp():
    for s, L in ((2.0, 512), (16.0, 4096), (4.0, 64)):
        w = enc.get("rope_yarn")(2, 64, scale=s, n_max=L).angles[1]
        assert np.allclose(w, yarn_reference(64, s, L), rtol=16 * U, atol=0), (s, L)
        # HF's property: YaRN frequencies lie within [default / s, default]
        w0 = rope_reference(2, 64)[1]
        assert np.all(w <= w0 * (1 + 4 * U)) and np.all(w >= w0 / s * (1 - 4 * U))


def test_yarn_code_ramp_matches_the_reference_code_formula():
    d, L, base, s = 64, 2048, 10000.0, 4.0

    def corr(rot):  # find_correction_dim of the YaRN reference code
        return d * math.log(L / (rot * 2 * math.pi)) / (2 * math.log(base))

    low, high = max(math.floor(corr(32)), 0), min(math.ceil(corr(1)), d - 1)
    ramp = np.clip((np.arange(d // 2) - low) / (high - low), 0, 1)
    w0 = rope_reference(2, d)[1]
    ref = (w0 / s) * ramp + w0 * (1 - ramp)
    got = enc.get("rope_yarn")(2, d, scale=s, n_max=L, ramp="code").angles[1]
    assert np.allclose(got, ref, rtol=16 * U, atol=0)


@pytest.mark.parametrize("ramp", ["paper", "code"])
def test_yarn_with_scale_one_is_rope(ramp):
    t = enc.get("rope_yarn")(40, 16, scale=1.0, n_max=32, ramp=ramp)
    assert np.allclose(t.angles, enc.rope(40, 16).angles, rtol=0, atol=ang_tol(40)) and t.mscale == 1.0


def test_yarn_attention_temperature_is_point_one_log_s_plus_one_on_q_and_k():
    t = enc.get("rope_yarn")(5, 8, scale=8.0, n_max=16)
    m = 0.1 * math.log(8.0) + 1.0  # peng2023 Eq. 22: sqrt(1/t) = 0.1 ln s + 1
    assert math.isclose(yarn_mscale(8.0), m, rel_tol=4 * U)
    x = np.random.default_rng(0).normal(size=(5, 8))
    plain = enc.RotaryTable(t.angles, 8, t.pairing)
    assert np.allclose(t.apply(x), m * plain.apply(x), rtol=16 * U, atol=0)
    assert np.allclose(t.apply_key(x), m * plain.apply(x), rtol=16 * U, atol=0)
    c, r = rotary_kernel(t)  # logits scale by mscale^2
    assert np.allclose(c, m * m * np.cos(t.angles - t.angles[0]).sum(1), rtol=64 * U, atol=64 * U * 4 * m * m)


def test_extension_angles_past_their_scale_leave_the_trained_range():
    L, s, N = 512, 4.0, 4096
    pi = bounds.rotary_angle_coverage("rope_pi", N, 64, n_max=L, scale=s)
    assert pi["onset"] == int(s * (L - 1)) + 2  # PI is safe up to s(L-1)+1 positions, not one more
    assert bounds.rotary_angle_coverage("rope_pi", int(s * (L - 1)) + 1, 64, n_max=L, scale=s)["out_of_range"] == 0
    rope = bounds.rotary_angle_coverage("rope", N, 64, n_max=L)
    assert rope["onset"] == L + 1
    ntk = bounds.rotary_angle_coverage("rope_ntk", N, 64, n_max=L, scale=s)
    assert rope["onset"] < ntk["onset"] < pi["onset"]  # NTK's middle bands leave before s(L-1)
    yarn = bounds.rotary_angle_coverage("rope_yarn", N, 64, n_max=L, scale=s)
    assert yarn["onset"] == pi["onset"]  # its partial (few-turn) bands are interpolated exactly as PI
    assert pi["out_of_range"] == pi["bands"] - pi["full_turn"]


# ----------------------------------------------------------------------------- xPos


def test_xpos_scales_queries_by_zeta_to_the_p_over_B_and_keys_by_its_inverse():
    n, d, B = 30, 16, 8.0
    t = enc.get("xpos")(n, d, scale_base=B)
    zeta = (np.arange(0, d, 2) / d + 0.4) / 1.4  # sun2023 Eq. 9 / torchscale: (2t + 0.4 d) / (1.4 d)
    p = np.arange(n)[:, None]
    assert np.allclose(t.factors(), zeta[None, :] ** (p / B), rtol=64 * U, atol=0)
    assert np.allclose(t.factors(key=True), zeta[None, :] ** (-p / B), rtol=64 * U, atol=0)
    # logit of query i, key j: sum_t zeta_t^((i-j)/B) (q_t . R_{j-i} k_t): relative, decaying for i >= j
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(1, d)), rng.normal(size=(1, d))
    Q, K = t.apply(np.repeat(q, n, 0)), t.apply_key(np.repeat(k, n, 0))
    S = Q @ K.T
    tol = tolerance(n_ops=d + 8, scale=float(np.abs(Q).max() * np.abs(K).max() * d))
    assert np.all(np.abs(S[1:, 1:] - S[:-1, :-1]) <= tol)


def test_xpos_with_scale_base_to_infinity_is_rope():
    x = np.random.default_rng(2).normal(size=(20, 8))
    assert np.array_equal(enc.get("xpos")(20, 8, scale_base=math.inf).apply(x), enc.rope(20, 8).apply(x))
    big = enc.get("xpos")(20, 8, scale_base=1e12).apply(x)
    assert np.allclose(big, enc.rope(20, 8).apply(x), rtol=0, atol=1e-10 * np.abs(x).max())


def test_xpos_kernel_is_not_hermitian_but_its_causal_column_decays():
    c, r = rotary_kernel(enc.get("xpos")(300, 16, scale_base=32.0))
    assert not np.allclose(c, r)
    zeta = (np.arange(0, 16, 2) / 16 + 0.4) / 1.4
    assert np.all(np.abs(c) <= np.sum(zeta[None, :] ** (np.arange(300)[:, None] / 32.0), 1) * (1 + 64 * U))


# ----------------------------------------------------------------------------- MLA, RoPE + absolute


def test_mla_rope_rotates_only_the_rope_part():
    t = enc.get("mla_rope")(12, 16, rope_dim=4)
    x = np.random.default_rng(3).normal(size=(12, 16))
    y = t.apply(x)
    assert np.array_equal(y[:, 4:], x[:, 4:])  # content coordinates untouched
    ref = enc.rope(12, 4).apply(x[:, :4])  # the rope part is RoPE of dimension rope_dim
    assert np.allclose(y[:, :4], ref, rtol=0, atol=tolerance(n_ops=4, scale=float(np.abs(x).max())) + ang_tol(12))


def test_rope_sinusoidal_position_only_logit_is_constant():
    # R_p PE_p: the sinusoid's phase p w is undone by the rotation, for the same base and interleaved layouts
    t = enc.get("rope_sinusoidal")(64, 16)
    RP = t.apply(t.additive)
    assert np.allclose(RP, RP[0], rtol=0, atol=ang_tol(64) * 16)
    G = RP @ RP.T
    assert np.ptp(G) <= 1e-10 * 8


def test_rope_learned_is_rope_plus_the_learned_table():
    t = enc.get("rope_learned")(20, 8, seed=3, std=0.5)
    assert np.array_equal(t.angles, enc.rope(20, 8).angles)
    assert np.array_equal(t.additive, enc.learned(20, 8, seed=3, std=0.5))


# ----------------------------------------------------------------------------- KERPLE, Sandwich


def test_kerple_formulas():
    n = 9
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    ref_log = -0.7 * np.log(1 + 0.3 * np.abs(i - j))  # chi2022: -r1 log(1 + r2 |m - n|)
    ref_pow = -0.7 * np.abs(i - j) ** 1.5  # chi2022: -r1 |m - n|^r2
    assert np.allclose(enc.get("kerple_log")(n, r1=0.7, r2=0.3), ref_log, rtol=8 * U, atol=0)
    assert np.allclose(enc.get("kerple_power")(n, r1=0.7, r2=1.5), ref_pow, rtol=8 * U, atol=0)
    # r2 = 1: ALiBi with slope r1
    assert np.array_equal(enc.get("kerple_power")(n, r1=0.25, r2=1.0), enc.alibi(n, slope=0.25))


@pytest.mark.parametrize("name,params", [("kerple_log", {"r1": 1.3, "r2": 0.4}), ("kerple_power", {"r1": 0.5, "r2": 1.7}),
                                         ("kerple_power", {"r1": 2.0, "r2": 0.3})])
def test_kerple_is_conditionally_positive_definite_one_negative_eigenvalue(name, params):
    B = enc.get(name)(200, **params)
    # CPD: c^T B c >= 0 for sum c = 0, so B is PSD on the hyperplane 1^perp: at most one negative eigenvalue
    J = np.eye(200) - 1.0 / 200
    w_perp = np.linalg.eigvalsh(J @ B @ J)
    tol = tolerance(n_ops=200, scale=float(np.abs(B).max()) * 200)
    assert w_perp.min() >= -tol
    w = np.linalg.eigvalsh(B)
    assert np.sum(w < -tol) == 1 and w.min() < 0  # trace 0, so exactly one
    # the symbol of the finite section: its minimum is a_N(0) = sum_k a_k, the most negative value
    ex = toeplitz.symbol_extrema(B[:, 0])
    assert math.isclose(ex.min, float(B[:, 0].sum() + B[0, 1:].sum()), rel_tol=1e-9) and abs(ex.argmin) < 1e-6


def test_sandwich_is_the_shifted_sinusoidal_inner_product():
    n, db = 40, 16
    k = np.arange(1, db // 2 + 1)
    P = np.concatenate([np.sin(np.arange(n)[:, None] / 10000 ** (2 * k / db)),
                        np.cos(np.arange(n)[:, None] / 10000 ** (2 * k / db))], axis=1)  # chi2023: i from 1
    ref = P @ P.T - db / 2
    B = enc.get("sandwich")(n, d_bar=db)
    assert np.allclose(B, ref, rtol=0, atol=tolerance(n_ops=db + 2, scale=db) + ang_tol(n) * db)
    assert np.all(np.diag(B) == 0) and np.all(np.linalg.eigvalsh(B + db / 2) >= -tolerance(n_ops=n * db, scale=n * db))


# ----------------------------------------------------------------------------- mds_optimal


def test_mds_optimal_is_the_classical_mds_of_the_corpus_hellinger_geometry():
    P = geometry.builtin_target()
    D = geometry.hellinger_distances(P)
    X = enc.get("mds_optimal")(P.n, 64)
    # Algorithm 1 written out: B = -1/2 J D^2 J, X = U_r sqrt(Lambda_r)
    J = np.eye(P.n) - 1.0 / P.n
    w = np.linalg.eigvalsh(-0.5 * J @ (D**2) @ J)[::-1]
    G = X @ X.T
    r = int(np.sum(np.abs(X).sum(0) > 0))
    assert np.allclose(np.sort(np.linalg.eigvalsh(G))[::-1][:r], w[:r], rtol=1e-9, atol=1e-12)
    # its geometry has (optimal-scale) stress 0 against the target it was fitted to
    rep = geometry.encoding_stress("mds_optimal", P, d=64)
    assert rep.stress <= 1e-7 and math.isclose(rep.stress, rep.mds_stress, abs_tol=1e-9)


def test_mds_optimal_rank_and_corpus_parameters():
    X = enc.get("mds_optimal")(15, 8, rank=3)
    assert np.all(X[:, 3:] == 0) and np.all(np.abs(X[:, :3]).sum(0) > 0)
    sents = ["a b c d", "a c b d", "b a c d", "a b d c", "c a b d", "a a d d"] * 5  # no two positions alike
    Y = enc.get("mds_optimal")(4, 6, corpus=sents, min_count=1)
    Dy = geometry.euclidean_distances(Y)
    Dt = geometry.hellinger_distances(geometry.positional_distributions(sents, lowercase=True, min_count=1))
    assert np.allclose(Dy, Dt, rtol=0, atol=1e-10)  # 4 positions embed exactly in rank <= 3
    far = enc.get("mds_optimal")(30, 8)
    assert np.array_equal(far[15:], np.repeat(far[14:15], 15, 0))  # beyond='clamp' reuses the last row


# ----------------------------------------------------------------------------- bad parameters


@pytest.mark.parametrize("call,match", [
    (lambda: enc.get("rope_pi")(4, 8, scale=0.5), "scale.*>= 1"),
    (lambda: enc.get("rope_ntk")(4, 2, scale=2.0), "rotary_dim >= 4"),
    (lambda: enc.get("rope_yarn")(4, 8, alpha=32, beta=1), "beta > alpha"),
    (lambda: enc.get("rope_yarn")(4, 8, ramp="hf"), "ramp"),
    (lambda: enc.get("rope_yarn")(4, 8, n_max=0), "n_max"),
    (lambda: enc.get("xpos")(4, 8, scale_base=-1.0), "scale_base"),
    (lambda: enc.get("xpos")(4, 7), "d"),
    (lambda: enc.get("mla_rope")(4, 8, rope_dim=10), "rope_dim"),
    (lambda: enc.get("kerple_log")(4, r1=0.0), "r1"),
    (lambda: enc.get("kerple_power")(4, r2=2.5), "r2 <= 2"),
    (lambda: enc.get("sandwich")(4, d_bar=7), "d_bar"),
    (lambda: enc.get("mds_optimal")(4, 4, rank=5), r"^rank must be <= d = 4 \(the encoding's columns\), got 5$"),
    (lambda: enc.get("mds_optimal")(30, 8, beyond="error"), "supports 15 positions"),
    (lambda: enc.get("mds_optimal")(4, 8, corpus="corpus.txt"), "sequence of sentences"),
])
def test_bad_parameters_are_rejected_with_a_clear_error(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# ----------------------------------------------------------------------------- petheory.nn


@pytest.mark.parametrize("pe", ["rope_pi", "rope_ntk", "rope_yarn:n_max=50", "xpos", "mla_rope", "rope_sinusoidal",
                                "rope_learned", "kerple_log", "kerple_power", "sandwich", "mds_optimal"])
def test_each_new_encoding_takes_a_training_step_in_petheory_nn(pe):
    from petheory.nn import preset, train

    torch.manual_seed(0)
    rec = train(preset("running_sum", "smoke", pe=pe, epochs=1, ablate=False, **{"task.n_train": 16, "task.test_lens": [50]}))
    assert math.isfinite(rec["final"]["train"]["mse"])


def test_nn_rotary_applies_the_registry_scales():
    from petheory.nn.position import Rotary

    for name, params in (("xpos", {"scale_base": 16.0}), ("rope_yarn", {"scale": 4.0, "n_max": 8})):
        rot = Rotary(8, params, None, 1, 32, name)
        x = torch.randn(1, 1, 20, 8, dtype=torch.float64)
        t = enc.get(name)(20, 8, **params)
        q, k = rot(x, x)
        assert np.allclose(q[0, 0].numpy(), t.apply(x[0, 0].numpy()), rtol=1e-6, atol=1e-6)
        assert np.allclose(k[0, 0].numpy(), t.apply_key(x[0, 0].numpy()), rtol=1e-6, atol=1e-6)


def test_nn_kerple_is_learnable_and_follows_the_registry_formula():
    from petheory.nn.position import BiasPE

    torch.manual_seed(0)
    b = BiasPE("kerple_log", {}, 4, 16, True, "press")
    r1, r2 = (t.detach() for t in b.kerple_params())
    assert b.r1.requires_grad and torch.all((r1 >= 0.01) & (r1 <= 2)) and torch.all(r2 <= 1)  # U(0,2) x U(0,1) init
    M = b(10, "cpu")
    for h in range(4):
        ref = enc.get("kerple_log")(10, r1=float(r1[h]), r2=float(r2[h]))
        assert np.allclose(M[h].detach().numpy(), ref, rtol=1e-5, atol=1e-6)
    M.sum().backward()
    assert b.r1.grad is not None and torch.all(torch.isfinite(b.r2.grad))
    p = BiasPE("kerple_power", {"r1": 0.5, "r2": 1.5}, 2, 16, True, "press")
    p(6, "cpu").sum().backward()
    assert torch.all(torch.isfinite(p.r2.grad))  # |0|^r2 at the diagonal has no nan gradient
    assert np.allclose(p(6, "cpu")[0].detach().numpy(), enc.get("kerple_power")(6, r1=0.5, r2=1.5), rtol=1e-5)


def test_nn_named_combinations_resolve_to_their_mechanisms():
    from petheory.nn import parse_pe

    assert str(parse_pe("rope_sinusoidal")) == "rope+sinusoidal"
    assert str(parse_pe("rope_sinusoidal:base=500")) == "rope:base=500+sinusoidal:base=500"
    assert str(parse_pe("mla_rope:rope_dim=8")) == "mla:rope_dim=8"
    with pytest.raises(ValueError, match="mla_rope"):
        parse_pe("mla_rope:base=500")


# ----------------------------------------------------------------------------- symbols: closed forms, CPD


@pytest.mark.parametrize("name,params", [("rope", {}), ("rope_pi", {"scale": 4.0}), ("rope_ntk", {"scale": 8.0}),
                                         ("rope_yarn", {"scale": 4.0, "n_max": 64})])
def test_rotary_family_symbol_has_the_dirichlet_closed_form(name, params):
    n, d = 97, 16
    t = enc.get(name)(n, d, **params)
    c, r = rotary_kernel(t)
    theta = np.linspace(-math.pi, math.pi, 301)
    _, num = toeplitz.symbol(c, theta=theta)
    w = np.mean(t.factors(), axis=0)[0] ** 2 if isinstance(t, ScaledRotaryTable) else 1.0  # YaRN: mscale^2
    closed = toeplitz.rotary_kernel_symbol(theta, n, t.angles[1], weight=w)
    assert np.allclose(num, closed, rtol=0, atol=tolerance(n_ops=2 * n, scale=2 * n * d * w) * 64)


def test_sandwich_symbol_closed_form():
    n = 80
    B = enc.get("sandwich")(n, d_bar=32, scale=0.5)
    theta = np.linspace(-math.pi, math.pi, 257)
    _, num = toeplitz.symbol(B[:, 0], theta=theta)
    closed = toeplitz.sandwich_symbol(theta, n, d_bar=32, scale=0.5)
    assert np.allclose(num, closed, rtol=0, atol=tolerance(n_ops=2 * n, scale=2 * n * 32) * 64)


@pytest.mark.parametrize("name,params", [("kerple_log", {"r1": 1.3, "r2": 0.4}), ("kerple_power", {"r2": 1.9}),
                                         ("alibi", {"slope": 0.5}), ("sandwich", {"d_bar": 16})])
def test_cpd_biases_have_a_nonnegative_fejer_symbol_off_zero_and_one_negative_eigenvalue(name, params):
    rep = toeplitz.conditional_definiteness(enc.get(name)(120, **params)[:, 0])
    assert rep["cpd"] and rep["negative_eigenvalues"] == 1
    assert rep["fejer_min_nonzero"] >= -rep["tol"] and rep["fejer_at_zero"] < 0


def test_conditional_definiteness_catches_a_planted_non_cpd_power():
    k = np.arange(60.0)
    rep = toeplitz.conditional_definiteness(-(k**2.5))  # -|k|^p is CPD only for p <= 2
    assert not rep["cpd"] and rep["negative_eigenvalues"] > 1
    assert rep["fejer_min_nonzero"] > 0  # the Fejér test alone would have missed it (necessary, not sufficient)


# ----------------------------------------------------------------------------- properties over parameters

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

even_d = st.integers(2, 32).map(lambda h: 2 * h)
scales = st.floats(1.0, 64.0)


@given(d=even_d, s=st.integers(1, 16), base=st.floats(10.0, 1e6))
def test_pi_at_sp_equals_rope_at_p_for_any_parameters(d, s, base):
    pi = enc.get("rope_pi")(8 * s, d, scale=float(s), base=base).angles[::s]
    assert np.allclose(pi, enc.rope(8, d, base=base).angles, rtol=0, atol=ang_tol(8 * s))


@given(d=even_d, s=scales, L=st.integers(2, 1 << 16), ramp=st.sampled_from(["paper", "code"]))
def test_yarn_frequencies_lie_between_pi_and_rope(d, s, L, ramp):
    w = enc.get("rope_yarn")(2, d, scale=s, n_max=L, ramp=ramp).angles[1]
    w0 = rope_reference(2, d)[1]
    assert np.all(w <= w0 * (1 + 4 * U)) and np.all(w >= w0 / s * (1 - 4 * U))
    assert np.all(np.diff(w) < 0)  # still ordered fast to slow


@settings(max_examples=25, deadline=None)
@given(r1=st.floats(0.01, 4.0), r2=st.floats(0.01, 2.0), n=st.integers(2, 80), log=st.booleans())
def test_kerple_is_cpd_for_every_valid_parameter(r1, r2, n, log):
    B = enc.get("kerple_log" if log else "kerple_power")(n, r1=r1, r2=r2)
    rep = toeplitz.conditional_definiteness(B[:, 0])
    assert rep["cpd"] and rep["negative_eigenvalues"] == 1, rep


def test_norm_bounds_of_the_scaled_rotary_tables():
    yarn = bounds.norm_bound("rope_yarn", 100, 16, scale=8.0)
    assert math.isclose(yarn.stated, 0.1 * math.log(8.0), rel_tol=1e-12) and math.isclose(yarn.computed, yarn.stated, rel_tol=1e-12)
    xp = bounds.norm_bound("xpos", 257, 16, scale_base=64.0)
    zeta0 = 0.4 / 1.4  # the slowest-decaying key band is t = 0
    assert math.isclose(xp.stated, zeta0 ** (-256 / 64.0) - 1, rel_tol=1e-12) and math.isclose(xp.computed, xp.stated, rel_tol=1e-12)
    rs = bounds.norm_bound("rope_sinusoidal", 50, 16)
    assert rs.computed == 0.0 and math.isclose(rs.input_norm(1.0), 1.0 + math.sqrt(8), rel_tol=1e-12)  # + sqrt(d/2)
    kl = bounds.norm_bound("kerple_log", 300, r1=0.5, r2=2.0)
    assert kl.stated == kl.computed == 0.5 * math.log1p(2.0 * 299)
