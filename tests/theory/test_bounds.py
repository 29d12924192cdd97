"""petheory.bounds: norm bounds, Rademacher complexity, ALiBi Eq. 9, wavelet/Legendre/sinusoidal analysis."""

import itertools
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from petheory import bounds
from petheory import encodings as enc
from petheory.errors import ParameterError

# ----------------------------------------------------------------------------- norm bounds


def test_importing_bounds_and_fits_does_not_import_torch():
    code = "import sys, petheory.bounds, petheory.fits; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_table2_rows_are_registered_encodings_with_a_cited_formula():
    for name, row in bounds.TABLE2.items():
        enc.info(name)  # registered
        assert row.__doc__ and ("li2025" in row.__doc__ or "Not in li2025" in row.__doc__), name
    assert bounds.stated_bound("sinusoidal", 10, 64, {}) == (8.0, "sqrt(d_model)", None)
    assert bounds.stated_bound("t5", 10, None, {}) == (None, "not in Table 2", None)


def test_norm_bound_of_an_unknown_name_lists_the_registered_ones():
    with pytest.raises(ValueError, match="registered: .*sinusoidal"):
        bounds.norm_bound("no_such_pe", 10)


def test_patching_the_defining_module_reaches_its_callers(monkeypatch):
    """Tests plant a bug in the module that defines a name: a planted pe_norms / attention_weight
    is what norm_bound / Eq. 9 use, and undoing the patch restores them."""
    from petheory.bounds import alibi, norms

    real = norms.pe_norms
    monkeypatch.setattr(norms, "pe_norms", lambda *a, **k: 2.0 * real(*a, **k))
    assert bounds.norm_bound("sinusoidal", 10, 8).computed == 2.0 * 2.0  # ||PE|| = sqrt(d/2) = 2, doubled
    monkeypatch.setattr(alibi, "attention_weight", lambda mu, b: np.zeros_like(np.asarray(b, dtype=float)))
    assert bounds.alibi_extrapolation_terms(np.zeros(2), slope=1.0, distance=5, n_max=2)["lhs"] == 0.0
    monkeypatch.undo()
    assert norms.pe_norms is real and bounds.norm_bound("sinusoidal", 10, 8).computed == 2.0


@pytest.mark.parametrize("name", enc.available())
def test_norm_bound_answers_for_every_registered_encoding(name):
    nb = bounds.norm_bound(name, 120, 16, n_max=50)
    assert nb.kind == enc.info(name).kind and nb.meaning and nb.stated_formula
    assert nb.computed is not None and np.isfinite(nb.computed) and nb.computed >= 0
    assert nb.input_norm(1.0) >= 1.0


def test_sinusoidal_computed_norm_is_sqrt_half_d_below_stated_sqrt_d():
    nb = bounds.norm_bound("sinusoidal", 5000, 64)
    assert math.isclose(nb.computed, math.sqrt(32), rel_tol=1e-12) and nb.stated == 8.0


def test_alibi_magnitude_is_attained_and_rope_adds_nothing():
    nb = bounds.norm_bound("alibi", 300, slope=0.25)
    assert nb.stated == nb.computed == 0.25 * 299
    assert nb.input_norm(2.0) == 2.0  # a bias adds no vector
    r = bounds.norm_bound("rope", 4096, 32)
    assert r.stated == 0.0 and r.computed < 1e-14 and r.input_norm(3.0) == 3.0


def test_learned_past_table_reuses_last_row_and_stays_at_B_p():
    nb = bounds.norm_bound("learned", 500, 8, n_max=50, std=1.0)
    assert nb.computed == nb.stated  # clamp: no new vectors past N_max


def test_legendre_bounded_maps_attain_stated_bound_and_extrapolate_has_none():
    for pm in ("linear", "exp"):
        nb = bounds.norm_bound("legendre", 400, 10, n_max=50, position_map=pm)
        assert nb.computed <= nb.stated * (1 + 1e-14)
    nb = bounds.norm_bound("legendre", 400, 10, n_max=50, beyond="extrapolate")
    assert nb.stated is None and nb.computed > 1e6


def test_wavelet_explicit_bound_dominates_computed():
    for nm in ("l2", "paper", "none"):
        for dil in ("unit", "position"):
            nb = bounds.norm_bound("wavelet", 400, 64, n_max=50, normalisation=nm, dilation=dil)
            assert nb.stated is None and nb.computed <= nb.explicit


def test_norm_bound_bad_input():
    with pytest.raises(ValueError, match="length"):
        bounds.norm_bound("sinusoidal", 0, 8)
    with pytest.raises(ValueError, match="unknown encoding"):
        bounds.norm_bound("fourier", 10, 8)
    with pytest.raises(ValueError, match="wavelet"):
        bounds.norm_bound("wavelet", 10, 8, wavelet="nope7")


# ----------------------------------------------------------------------------- Rademacher


@given(seed=st.integers(0, 1000), m=st.integers(1, 20), d=st.integers(1, 6), B=st.floats(0.0, 5.0))
def test_linear_sup_is_attained_and_never_beaten(seed, m, d, B):
    rng = np.random.default_rng(seed)
    X, s = rng.normal(size=(m, d)), rng.choice([-1.0, 1.0], size=m)
    sup = bounds.rademacher_linear_sup(X, s, B)
    v = s @ X
    if np.linalg.norm(v) > 0:
        w = B * v / np.linalg.norm(v)
        assert math.isclose(sup, float(s @ X @ w) / m, rel_tol=1e-12, abs_tol=1e-300)
    W = rng.normal(size=(200, d))
    W *= B / np.linalg.norm(W, axis=1, keepdims=True)
    assert np.all((W @ (s @ X)) / m <= sup * (1 + 1e-12) + 1e-300)


def test_monte_carlo_matches_exact_expectation_over_all_sign_vectors():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(10, 3))
    signs = np.array(list(itertools.product([-1.0, 1.0], repeat=10)))
    exact = float(bounds.rademacher_linear_sup(X, signs, 2.0).mean())
    est = bounds.empirical_rademacher(X, weight_norm=2.0, n_draws=4000, seed=3)
    assert abs(est.mean - exact) < 4 * est.se
    assert est.mean <= bounds.rademacher_linear_data_bound(X, 2.0) + 4 * est.se


def test_orthogonal_inputs_make_the_closed_form_exact():
    # ||sum s_i x_i||^2 = sum ||x_i||^2 for orthogonal x_i: every draw equals B sqrt(sum||x||^2)/m
    X = np.diag([1.0, 2.0, 3.0, 0.5])
    est = bounds.empirical_rademacher(X, weight_norm=1.5, n_draws=50)
    assert math.isclose(est.mean, bounds.rademacher_linear_data_bound(X, 1.5), rel_tol=1e-14) and est.se < 1e-15
    assert est.mean <= bounds.rademacher_linear_bound(4, 1.5, 3.0)


def test_kernel_class_with_linear_kernel_equals_linear_class_and_rbf_obeys_trace_bound():
    X, _ = bounds.pe_augmented_inputs("sinusoidal", 64, 16, length=100, seed=2)
    lin = bounds.empirical_rademacher(X, n_draws=300, seed=5)
    ker = bounds.empirical_rademacher(gram=bounds.gram_matrix(X, "linear"), n_draws=300, seed=5)
    assert math.isclose(lin.mean, ker.mean, rel_tol=1e-10)
    rbf = bounds.empirical_rademacher(gram=bounds.gram_matrix(X, "rbf"), n_draws=300, seed=5)
    assert rbf.mean <= 1.0 / math.sqrt(64) + 1e-12  # sqrt(tr K)/m with k(x,x) = 1


def test_pe_augmented_inputs_have_exact_token_norm_and_bounded_norm():
    X, pos = bounds.pe_augmented_inputs("legendre", 500, 8, length=80, token_norm=2.0, n_max=40)
    B0 = bounds.norm_bound("legendre", 80, 8, n_max=40).input_norm(2.0)
    assert np.all(np.linalg.norm(X, axis=1) <= B0 * (1 + 1e-12)) and pos.max() < 80


def test_rademacher_bad_input():
    with pytest.raises(ValueError, match="m must be >= 1"):
        bounds.rademacher_linear_bound(0, 1.0, 1.0)
    with pytest.raises(ValueError, match="weight_norm must be >= 0"):
        bounds.rademacher_linear_bound(10, -1.0, 1.0)
    with pytest.raises(ValueError, match="lipschitz must be >= 0"):
        bounds.rademacher_lipschitz_bound(-2.0, 1.0, 10)
    with pytest.raises(ValueError, match="exactly one"):
        bounds.empirical_rademacher()
    with pytest.raises(ValueError, match="input_norm must be >= 0"):
        bounds.rademacher_linear_bound(10, 1.0, -0.5)


# ----------------------------------------------------------------------------- Lipschitz


def test_module_inputs_restores_training_mode_and_removes_hooks():
    torch = pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model
    from petheory.nn.lipschitz import module_inputs

    model = build_model(ModelConfig(head="regression", pe="alibi", input_dim=1, n_layer=1, n_head=1, d_model=8,
                                    d_ff=16, max_len=16)).train()
    got = module_inputs(model, {"b0": model.blocks[0]}, torch.zeros(2, 5, 1))
    assert got["b0"].shape == (2, 5, 8) and model.training
    assert not model.blocks[0]._forward_pre_hooks


def _mha(X, wq, wk, wv, wo, H, bq=0.0, bk=0.0, bv=0.0):
    """Reference multi-head softmax attention on (T, d) rows, torch (out, in) weight layout, with biases."""
    T, d = X.shape
    hd = d // H
    q, k, v = X @ wq.T + bq, X @ wk.T + bk, X @ wv.T + bv
    outs = []
    for h in range(H):
        sl = slice(h * hd, (h + 1) * hd)
        s = q[:, sl] @ k[:, sl].T / math.sqrt(hd)
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        outs.append(p @ v[:, sl])
    return np.concatenate(outs, 1) @ wo.T


@settings(max_examples=20)
@given(seed=st.integers(0, 10**6))
def test_attention_lipschitz_bounds_observed_ratios_on_the_ball(seed):
    rng = np.random.default_rng(seed)
    d, H, T, R = 8, 2, 6, 1.5
    W = [rng.normal(0, 0.6, (d, d)) for _ in range(4)]
    bq, bk, bv = (rng.normal(0, 1.0, d) for _ in range(3))
    L = bounds.attention_lipschitz(*W, n_head=H, radius=R, b_q=bq, b_k=bk)

    def ball(X):
        n = np.linalg.norm(X, axis=1, keepdims=True)
        return X * np.minimum(1.0, R / n)

    X = ball(rng.normal(size=(T, d)))
    Y = ball(X + rng.normal(0, 0.3, (T, d)))
    ratio = np.max(np.linalg.norm(_mha(X, *W, H, bq, bk, bv) - _mha(Y, *W, H, bq, bk, bv), axis=1)) / np.max(
        np.linalg.norm(X - Y, axis=1))
    assert ratio <= L


def test_transformer_lipschitz_certifies_observed_ratio_of_a_real_model():
    torch = pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model
    from petheory.nn.lipschitz import transformer_lipschitz

    torch.manual_seed(0)
    model = build_model(ModelConfig(head="regression", pe="alibi", input_dim=1, n_layer=2, n_head=2, d_model=8, d_ff=16,
                                    max_len=32)).double().eval()
    rep = transformer_lipschitz(model)
    x = torch.randn(4, 12, 1, dtype=torch.float64)
    on_data = transformer_lipschitz(model, inputs=x)
    assert rep.total >= on_data.total > 0 and len(rep.factors) == 2 * 2 + 2

    # the map from z0 = embed(x) + PE to the output: perturb z0 through a pre-hook on the first block
    def run(delta):
        h = model.blocks[0].register_forward_pre_hook(lambda _m, a: (a[0] + delta,))
        try:
            with torch.no_grad():
                return model(x)
        finally:
            h.remove()

    d = 1e-3 * torch.randn(4, 12, 8, dtype=torch.float64)
    ratio = float(((run(d) - run(0 * d)).norm(dim=-1).max()) / d.norm(dim=-1).max())
    assert ratio <= rep.total


def test_lipschitz_bound_is_linear_in_everything():
    assert bounds.rademacher_lipschitz_bound(3.0, 2.0, 16, output_norm=0.5) == 0.5 * 3 * 2 / 4


# ----------------------------------------------------------------------------- ALiBi Eq. 9


def test_attention_weight_is_softmax_entry():
    mu = np.array([0.3, -1.0, 2.0])
    z = np.exp(np.r_[0.7, mu])
    assert math.isclose(float(bounds.attention_weight(mu, 0.7)), z[0] / z.sum(), rel_tol=1e-14)
    assert float(bounds.attention_weight(mu, -1e4)) == 0.0  # no overflow/NaN far out


@given(mu=st.lists(st.floats(-20, 20), min_size=1, max_size=8), slope=st.floats(1e-3, 2.0),
       n_max=st.integers(1, 100), excess=st.integers(1, 500))
def test_eq9_sides_are_ordered(mu, slope, n_max, excess):
    t = bounds.alibi_extrapolation_terms(np.array(mu), slope=slope, distance=n_max + excess, n_max=n_max)
    assert t["lhs"] <= t["sharp"] * (1 + 1e-9) + 1e-15 and t["sharp"] <= t["rhs"] * (1 + 1e-12)


def test_numeric_lipschitz_constant_of_softmax_weight_is_one_quarter():
    assert abs(bounds.alibi_lipschitz_numeric(np.array([0.0, 1.0, -3.0])) - 0.25) < 1e-5
    assert bounds.alibi_lipschitz("weight") == 0.25


def test_eq9_needs_a_key_beyond_training_length():
    with pytest.raises(ParameterError) as info:
        bounds.alibi_extrapolation_terms(np.zeros(3), slope=1.0, distance=50, n_max=50)
    assert str(info.value) == "distance must be > n_max = 50 (Eq. 9 is about keys beyond the training length), got 50"
    assert info.value.owner is bounds.alibi_extrapolation_terms


def test_alibi_drift_of_a_model_stays_under_both_bounds():
    torch = pytest.importorskip("torch")
    from petheory.nn import ModelConfig, build_model
    from petheory.nn.lipschitz import alibi_drift

    torch.manual_seed(1)
    model = build_model(ModelConfig(head="regression", pe="alibi", input_dim=1, n_layer=1, n_head=2, d_model=8,
                                    d_ff=16, max_len=40, causal=True))
    recs = alibi_drift(model, torch.rand(3, 30, 1) * 2 - 1, n_max=10)
    assert recs and {r["layer"] for r in recs} == {0}
    for r in recs:
        assert r["drift_max"] <= r["sharp_bound"] * (1 + 1e-9) <= r["eq9_rhs"] * (1 + 1e-9)
    with pytest.raises(ValueError, match="ALiBi"):
        alibi_drift(build_model(ModelConfig(head="regression", pe="nope", input_dim=1, max_len=8)),
                           torch.zeros(1, 8, 1), n_max=2)


# ----------------------------------------------------------------------------- wavelet


@pytest.mark.parametrize("wavelet", ["haar", "db2", "db4"])
@pytest.mark.parametrize("dilation", ["unit", "position"])
def test_wavelet_is_zero_from_support_end_and_not_just_before(wavelet, dilation):
    end = bounds.wavelet_support_end(16, 50, wavelet=wavelet, dilation=dilation)
    P = enc.wavelet(end + 20, 16, wavelet=wavelet, n_max=50, dilation=dilation)
    assert np.all(P[end:] == 0) and np.any(P[end - max(1, end // 20):end] != 0)


def test_decay_fit_constant_makes_the_envelope_bound_hold():
    x, psi, _ = enc.wavefun("db2", 10)
    f = bounds.wavelet_decay_fit("db2")
    assert f.beta > 0 and f.beta_ci[0] < f.beta < f.beta_ci[1]
    assert np.all(np.abs(psi) <= f.C * np.exp(-f.beta * x) * (1 + 1e-12))


def test_scale_ratios_double_per_scale_for_l2_atoms_and_stay_flat_for_paper_amplitude():
    d = 3 + 4 + 6  # db2 (S=3): 2^j + S - 1 shifts at scale j = 0, 1, 2
    l2 = bounds.wavelet_scale_ratios(d, n_max=64, normalisation="l2", samples_per_unit=16)
    paper = bounds.wavelet_scale_ratios(d, n_max=64, normalisation="paper", samples_per_unit=16)
    assert l2["scales"] == [0, 1, 2]
    assert np.allclose(np.array(l2["C"]) / l2["C"][0], [1, 2, 4], rtol=1e-12)
    assert np.allclose(paper["C"], paper["C"][0], rtol=1e-12)


def test_norm_growth_fit_recovers_sqrt_n_for_full_l2_unit():
    g = bounds.wavelet_norm_growth([64, 128, 256, 512, 1024], normalisation="l2", dilation="unit", d="full")
    assert abs(g["fit"]["slope"] - 0.5) < 0.01 and g["ratio_fit"]["slope_ci"][1] < 0


# ----------------------------------------------------------------------------- Legendre


@given(n_max=st.integers(2, 500), d=st.integers(1, 30), ortho=st.booleans(), p=st.integers(0, 10**5))
def test_legendre_saturation_bound_holds(n_max, d, ortho, p):
    for pm in ("linear", "exp"):
        pe = enc.legendre(1, d, n_max=n_max, orthonormal=ortho, start=p, position_map=pm)[0]
        gap = np.linalg.norm(pe - bounds.legendre_limit(d, ortho))
        bnd = float(bounds.legendre_saturation_bound(p, n_max, d, orthonormal=ortho, position_map=pm))
        assert gap <= bnd * (1 + 1e-9) + 1e-9 * bounds.legendre_norm_bound(d, ortho) * d


def test_legendre_extrapolate_has_no_saturation_bound():
    assert np.isinf(bounds.legendre_saturation_bound(200, 50, 4, beyond="extrapolate"))


# ----------------------------------------------------------------------------- sinusoidal ambiguity


@given(d=st.integers(1, 32).map(lambda h: 2 * h), p=st.integers(0, 10**5), delta=st.integers(0, 10**4))
def test_offset_distance_is_the_encoding_distance_at_any_position(d, p, delta):
    P = enc.sinusoidal(1, d, start=p)[0]
    Q = enc.sinusoidal(1, d, start=p + delta)[0]
    # angles p*w carry rounding ~ u (p + delta): the identity holds to that accuracy
    assert abs(np.linalg.norm(P - Q) - float(bounds.sinusoidal_offset_distance(delta, d))) < 1e-10 * (1 + p + delta) * d


def test_ambiguity_onset_pruned_search_matches_brute_force():
    for d in (2, 8, 12):
        D = bounds.sinusoidal_offset_distance(np.arange(2, 20001), d)
        brute = np.nonzero(D < bounds.sinusoidal_offset_distance(1.0, d))[0]
        expect = int(brute[0]) + 2 if brute.size else None
        assert bounds.sinusoidal_ambiguity_onset(d, max_offset=20000) == expect
    assert bounds.sinusoidal_ambiguity_onset(2) == 6
    assert bounds.sinusoidal_ambiguity_onset(64, max_offset=10**5) is None


def test_slowest_period():
    assert math.isclose(bounds.sinusoidal_slowest_period(64), 2 * math.pi * 10000 ** (62 / 64))


def test_theory_modules_do_not_import_torch():
    import subprocess
    import sys

    code = "import sys, petheory.bounds, proofs_check.claims.li2025, petheory.cli.bounds; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_yarn_at_mscale_one_claims_no_added_vector():
    from petheory.bounds import norm_bound

    nb = norm_bound("rope_yarn", 512, 64, scale=4.0, mscale=1.0)
    assert "sup ||PE||" not in nb.stated_formula and nb.additive is None


RULES = [  # a rule between parameters (or a sign no declaration states): (call, the function, its full sentence)
    (lambda: bounds.attention_output([0.0, 0.0], 0.0, [[1.0, 0.0]], [1.0, 1.0]), bounds.attention_output,
     "values must be of shape (2, 2) (a row per key of mu, as long as value_b), got list [[1.0, 0.0]]"),
    (lambda: bounds.alibi_lipschitz("output", value_b=[1.0]), bounds.alibi_lipschitz,
     "values must be a 2-D array of real numbers (the 'output' reading reads it), got None"),
    (lambda: bounds.alibi_lipschitz("output", values=[[1.0, 0.0]], value_b=[1.0]), bounds.alibi_lipschitz,
     "values must be 1 wide (as value_b), got list [[1.0, 0.0]]"),
    (lambda: bounds.empirical_rademacher(np.ones((3, 2)), gram=np.eye(3)), bounds.empirical_rademacher,
     "gram must be None (give exactly one of X, the linear class, or gram, the kernel class), got a float64 array of "
     "shape (3, 3)"),
    (lambda: bounds.rademacher_kernel_sup(np.eye(3), [1.0, -1.0]), bounds.rademacher_kernel_sup,
     "sigma must be of 3 entries per draw (one per input), got [1.0, -1.0]"),
    (lambda: bounds.attention_lipschitz(*[np.eye(6)] * 4, n_head=4, radius=1.0), bounds.attention_lipschitz,
     "n_head must be a divisor of the query width 6 (the rows of w_q), got 4"),
    (lambda: bounds.bound_report("rope", 10, distance=5), bounds.bound_report,
     "distance must be None for 'rope' (Eq. 9 applies to alibi only), got 5"),
]


@pytest.mark.parametrize("call, fn, message", RULES, ids=[r[2].split()[0] + str(i) for i, r in enumerate(RULES)])
def test_a_rule_between_parameters_is_a_parameter_error_of_its_function(call, fn, message):
    with pytest.raises(ParameterError) as info:
        call()
    assert str(info.value) == message and info.value.owner is fn
