"""Property tests of petheory.encodings: each test states the property it checks.

Tolerances come from petheory.rounding (size, scale, unit roundoff), never a magic epsilon.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from petheory import encodings as enc
from petheory.rounding import tolerance, unit_roundoff

U = unit_roundoff()

even_d = st.integers(1, 64).map(lambda h: 2 * h)
bases = st.sampled_from([10000.0, 500000.0, 100.0]) | st.floats(2.0, 1e6)
layouts = st.sampled_from(["interleaved", "concatenated"])
pairings = st.sampled_from(["interleaved", "half"])


def angle_tol(n_pos: int, d: int, scale: float) -> float:
    """Error of a d-term sum of products of sin/cos of angles p*w (p < n_pos, w <= 1).

    Each angle is rounded with absolute error <= u*p, which moves sin/cos by as much; the
    d-term sum adds gamma_d times the sum of absolute values (``scale``)."""
    return tolerance(n_ops=d + 4, scale=scale) + 4 * U * (n_pos + 1) * scale


def is_toeplitz(G: np.ndarray, tol: float) -> bool:
    return bool(np.all(np.abs(G[1:, 1:] - G[:-1, :-1]) <= tol))


# ----------------------------------------------------------------------------- sinusoidal


@given(n=st.integers(2, 64), d=even_d, base=bases, layout=layouts, start=st.integers(0, 10_000))
def test_sinusoidal_gram_depends_only_on_offset(n, d, base, layout, start):
    pe = enc.sinusoidal(n, d, base=base, layout=layout, start=start)
    G = pe @ pe.T  # (n, n); G[i, j] = sum_t cos((i - j) w_t)
    assert is_toeplitz(G, 2 * angle_tol(start + n, d, d))


@given(n=st.integers(1, 32), d=even_d, base=bases, start=st.integers(0, 10_000))
def test_sinusoidal_gram_equals_cosine_of_offsets(n, d, base, start):
    pe = enc.sinusoidal(n, d, base=base, start=start)
    w = base ** (-np.arange(0, d, 2) / d)
    off = np.arange(n)[:, None] - np.arange(n)[None, :]
    expected = np.cos(off[..., None] * w).sum(-1)  # (n, n)
    np.testing.assert_allclose(pe @ pe.T, expected, rtol=0, atol=2 * angle_tol(start + n, d, d))


@given(n=st.integers(1, 32), d=even_d, base=bases)
def test_sinusoidal_layouts_differ_by_a_fixed_column_permutation(n, d, base):
    inter = enc.sinusoidal(n, d, base=base, layout="interleaved")
    concat = enc.sinusoidal(n, d, base=base, layout="concatenated")
    perm = np.concatenate([np.arange(0, d, 2), np.arange(1, d, 2)])  # sines, then cosines
    np.testing.assert_array_equal(inter[:, perm], concat)


@given(n=st.integers(1, 32), d=even_d, base=bases, layout=layouts, start=st.integers(0, 10**9))
def test_sinusoidal_row_norm_is_sqrt_half_d(n, d, base, layout, start):
    pe = enc.sinusoidal(n, d, base=base, layout=layout, start=start)
    np.testing.assert_allclose(np.linalg.norm(pe, axis=1), math.sqrt(d / 2), rtol=0, atol=tolerance(n_ops=d + 4, scale=d))


def test_sinusoidal_matches_vaswani_formula():
    n, d = 50, 16
    pe = enc.sinusoidal(n, d)
    for p in (0, 1, 7, 49):
        for i in range(d // 2):
            assert pe[p, 2 * i] == pytest.approx(math.sin(p / 10000 ** (2 * i / d)), abs=1e-14)
            assert pe[p, 2 * i + 1] == pytest.approx(math.cos(p / 10000 ** (2 * i / d)), abs=1e-14)


def test_sinusoidal_start_shifts_rows():
    np.testing.assert_array_equal(enc.sinusoidal(10, 8, start=5), enc.sinusoidal(15, 8)[5:])


# ----------------------------------------------------------------------------- RoPE


@st.composite
def rope_setups(draw, max_n=24):
    d = draw(even_d)
    return {
        "n": draw(st.integers(1, max_n)),
        "d": d,
        "base": draw(bases),
        "pairing": draw(pairings),
        "rotary_dim": draw(st.none() | st.integers(1, d // 2).map(lambda h: 2 * h)),
        "seed": draw(st.integers(0, 2**16)),
    }


def _table(s):
    return enc.rope(s["n"], s["d"], base=s["base"], pairing=s["pairing"], rotary_dim=s["rotary_dim"])


@given(rope_setups())
def test_rope_preserves_norms(s):
    x = np.random.default_rng(s["seed"]).normal(size=(s["n"], s["d"]))
    y = _table(s).apply(x)
    norms = np.linalg.norm(x, axis=1)
    np.testing.assert_allclose(np.linalg.norm(y, axis=1), norms, rtol=0, atol=angle_tol(s["n"], s["d"], 2 * norms.max()))


@given(rope_setups())
def test_rope_logits_depend_only_on_offset(s):
    rng = np.random.default_rng(s["seed"])
    q, k = rng.normal(size=s["d"]), rng.normal(size=s["d"])
    t = _table(s)
    Q = t.apply(np.tile(q, (s["n"], 1)))  # (n, d): the same query at every position
    K = t.apply(np.tile(k, (s["n"], 1)))
    L = Q @ K.T  # L[i, j] = (R_i q)^T (R_j k)
    scale = float(np.abs(q).sum() * np.abs(k).sum())
    assert is_toeplitz(L, 2 * angle_tol(s["n"], s["d"], scale))


@given(rope_setups())
def test_rope_matrix_is_orthogonal_and_relative(s):
    t = _table(s)
    n, d = s["n"], s["d"]
    i, j = 0, n - 1
    Ri, Rj, Rji = t.matrix(i), t.matrix(j), t.matrix(j - i)
    tol = angle_tol(n, d, d)
    np.testing.assert_allclose(Ri.T @ Ri, np.eye(d), rtol=0, atol=tol)
    np.testing.assert_allclose(Ri.T @ Rj, Rji, rtol=0, atol=tol)


@given(rope_setups())
def test_rope_pairings_agree_up_to_a_fixed_permutation(s):
    d = s["d"]
    r = d if s["rotary_dim"] is None else s["rotary_dim"]
    h = r // 2
    # Interleaved pair t = (2t, 2t+1) becomes half pair (t, t + r/2); other coordinates stay.
    perm = np.arange(d)
    perm[:h], perm[h:r] = np.arange(0, r, 2), np.arange(1, r, 2)
    inter = enc.rope(s["n"], d, base=s["base"], pairing="interleaved", rotary_dim=s["rotary_dim"])
    half = enc.rope(s["n"], d, base=s["base"], pairing="half", rotary_dim=s["rotary_dim"])
    x = np.random.default_rng(s["seed"]).normal(size=(s["n"], d))
    np.testing.assert_array_equal(half.apply(x[:, perm]), inter.apply(x)[:, perm])


@given(rope_setups())
def test_partial_rotary_leaves_other_coordinates_unchanged(s):
    t = _table(s)
    r = t.rotary_dim
    x = np.random.default_rng(s["seed"]).normal(size=(s["n"], s["d"]))
    y = t.apply(x)
    a, b = t.pairs()
    rotated = np.zeros(s["d"], dtype=bool)
    rotated[a] = rotated[b] = True
    assert rotated.sum() == r
    np.testing.assert_array_equal(y[:, ~rotated], x[:, ~rotated])
    assert not rotated[r:].any()  # both pairings rotate exactly the first r coordinates


def test_rope_frequencies_follow_roformer():
    f = enc.rope_frequencies(8, base=10000.0)
    np.testing.assert_allclose(f, [10000 ** (-2 * t / 8) for t in range(4)], rtol=4 * U)
    fp = enc.rope_frequencies(8, base=10000.0, rotary_dim=4)
    np.testing.assert_allclose(fp, [1.0, 10000 ** (-2 / 4)], rtol=4 * U)


def test_rope_angles_are_position_times_frequency():
    t = enc.rope(5, 8, base=100.0)
    np.testing.assert_array_equal(t.angles, np.arange(5)[:, None] * enc.rope_frequencies(8, base=100.0)[None, :])
    assert t.rotary_dim == 8 and t.d == 8


@given(rope_setups())
def test_rope_apply_is_exactly_the_plain_rotation_formula(s):
    # apply works on slices in place for speed; it must compute a*cos - b*sin, a*sin + b*cos exactly.
    t = _table(s)
    x = np.random.default_rng(s["seed"]).normal(size=(s["n"], s["d"]))
    a, b = t.pairs()
    cos, sin = np.cos(t.angles), np.sin(t.angles)
    expected = x.copy()
    expected[:, a], expected[:, b] = x[:, a] * cos - x[:, b] * sin, x[:, a] * sin + x[:, b] * cos
    np.testing.assert_array_equal(t.apply(x), expected)
    last = s["n"] - 1
    np.testing.assert_array_equal(t.apply_at(x[last], last), expected[last])  # one vector (d,) at one position


def test_rope_apply_at_matches_apply_row():
    t = enc.rope(6, 8)
    x = np.random.default_rng(0).normal(size=(6, 8))
    y = t.apply(x)
    for p in range(6):
        np.testing.assert_array_equal(t.apply_at(x[p : p + 1], p)[0], y[p])


# ----------------------------------------------------------------------------- ALiBi


def row_softmax_on_causal_rows(B: np.ndarray) -> np.ndarray:
    n = B.shape[0]
    masked = np.where(np.tril(np.ones((n, n), dtype=bool)), B, -np.inf)  # mask j > i
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@given(n=st.integers(1, 64), slope=st.floats(0.0, 8.0))
def test_alibi_key_index_form_equals_causal_form_after_row_softmax(n, slope):
    A_key = row_softmax_on_causal_rows(enc.alibi(n, slope=slope, form="key_index"))
    A_causal = row_softmax_on_causal_rows(enc.alibi(n, slope=slope, form="causal"))
    # The forms differ by slope*i per row; subtracting the row max leaves each logit with an
    # absolute rounding error <= u * slope * n, which exp turns into a relative error.
    np.testing.assert_allclose(A_key, A_causal, rtol=8 * U * (slope * n + n), atol=8 * U * n)


@given(n=st.integers(1, 64), slope=st.floats(0.0, 8.0))
def test_alibi_causal_form_is_symmetric_form_on_causal_rows(n, slope):
    lower = np.tril(np.ones((n, n), dtype=bool))
    sym, causal = enc.alibi(n, slope=slope), enc.alibi(n, slope=slope, form="causal")
    np.testing.assert_array_equal(sym[lower], causal[lower])
    np.testing.assert_array_equal(sym, sym.T)


def test_alibi_symmetric_form_is_minus_slope_times_distance():
    B = enc.alibi(5, slope=0.5)
    i, j = np.indices((5, 5))
    np.testing.assert_array_equal(B, -0.5 * np.abs(i - j))


@pytest.mark.parametrize("H", [1, 2, 4, 8, 16, 32, 64])
def test_alibi_slopes_power_of_two_heads_form_the_geometric_sequence(H):
    s = enc.alibi_slopes(H)
    np.testing.assert_allclose(s, 2.0 ** (-8.0 * np.arange(1, H + 1) / H), rtol=4 * H * U)
    np.testing.assert_allclose(s[1:] / s[:-1], 2.0 ** (-8.0 / H), rtol=8 * H * U)


def press_slopes_from_the_paper(H: int) -> list[float]:
    """Press et al. (2022) §3 and their released code, re-derived independently:
    H = 2^k heads get 2^(-8h/H), h = 1..H; otherwise take the 2^k = largest power of two below
    H heads' slopes, then fill with the slopes of 2^(k+1) heads at odd h (those interleaved
    between the first ones), smallest h first."""
    k = int(math.floor(math.log2(H)))
    a = 2**k
    if a == H:
        return [2.0 ** (-8.0 * h / H) for h in range(1, H + 1)]
    odd = [2.0 ** (-8.0 * h / (2 * a)) for h in range(1, 2 * a + 1, 2)]
    return [2.0 ** (-8.0 * h / a) for h in range(1, a + 1)] + odd[: H - a]


@pytest.mark.parametrize("H", list(range(1, 41)) + [48, 96, 100, 127])
def test_alibi_slopes_follow_press_rule(H):
    s = enc.alibi_slopes(H, schedule="press")
    assert s.shape == (H,)
    np.testing.assert_allclose(s, press_slopes_from_the_paper(H), rtol=8 * H * U)
    assert np.all((s > 0) & (s < 1))


def test_alibi_slopes_for_twelve_heads_are_the_published_values():
    # The 12-head slopes as printed by Press et al.'s get_slopes(12): 8 heads, then 16 heads at odd h.
    s = enc.alibi_slopes(12)
    assert s[0] == pytest.approx(0.5) and s[7] == pytest.approx(2**-8)
    assert s[8] == pytest.approx(2**-0.5) and s[11] == pytest.approx(2**-3.5)


@pytest.mark.parametrize("H", [1, 3, 8, 12, 16])
def test_alibi_slopes_gu2025_schedule_is_exp_minus_h_over_H(H):
    np.testing.assert_allclose(enc.alibi_slopes(H, "gu2025"), np.exp(-np.arange(1, H + 1) / H), rtol=4 * U)


# ----------------------------------------------------------------------------- T5 buckets


def hf_relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """Line-by-line numpy port of HF transformers' ``T5Attention._relative_position_bucket``
    (torch ops replaced by their numpy equivalents; ``.float()`` is float32 as in torch)."""
    relative_position = np.asarray(relative_position, dtype=np.int64)
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).astype(np.int64) * num_buckets
        relative_position = np.abs(relative_position)
    else:
        relative_position = -np.minimum(relative_position, np.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):
        relative_position_if_large = max_exact + (
            np.log(relative_position.astype(np.float32) / max_exact)
            / math.log(max_distance / max_exact)
            * (num_buckets - max_exact)
        ).astype(np.int64)
    relative_position_if_large = np.minimum(relative_position_if_large, np.full_like(relative_position_if_large, num_buckets - 1))
    relative_buckets = relative_buckets + np.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


T5_CONFIGS = [
    (bi, nb, md)
    for bi in (True, False)
    for nb in (4, 8, 9, 16, 18, 19, 32, 33, 64, 128)
    for md in (16, 20, 64, 128, 256, 1000, 4096)
    if (nb // 2 if bi else nb) // 2 < md
]


@pytest.mark.parametrize("bidirectional,num_buckets,max_distance", T5_CONFIGS)
def test_t5_bucket_matches_hf_transformers_port(bidirectional, num_buckets, max_distance):
    off = np.arange(-3 * max_distance - 50, 3 * max_distance + 51)
    ours = enc.t5_bucket(off, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    ref = hf_relative_position_bucket(off, bidirectional, num_buckets, max_distance)
    np.testing.assert_array_equal(ours, ref)


def test_t5_bucket_matches_hf_transformers_under_torch():
    torch = pytest.importorskip("torch")

    def hf_torch(relative_position, bidirectional, num_buckets, max_distance):  # verbatim from HF transformers
        relative_buckets = 0
        if bidirectional:
            num_buckets //= 2
            relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
            relative_position = torch.abs(relative_position)
        else:
            relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
        max_exact = num_buckets // 2
        is_small = relative_position < max_exact
        relative_position_if_large = max_exact + (
            torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        ).to(torch.long)
        relative_position_if_large = torch.min(
            relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
        )
        relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
        return relative_buckets

    off = np.arange(-5000, 5001)
    for bi, nb, md in T5_CONFIGS:
        ours = enc.t5_bucket(off, bidirectional=bi, num_buckets=nb, max_distance=md)
        np.testing.assert_array_equal(ours, hf_torch(torch.from_numpy(off), bi, nb, md).numpy(), err_msg=f"{bi, nb, md}")


def _split(bidirectional, num_buckets):
    half = num_buckets // 2 if bidirectional else num_buckets
    return half, half // 2  # buckets per sign, max_exact


@pytest.mark.parametrize("bidirectional,num_buckets,max_distance", T5_CONFIGS)
def test_t5_buckets_are_monotone_in_distance_for_each_sign(bidirectional, num_buckets, max_distance):
    dist = np.arange(0, 4 * max_distance)
    for sign in (-1, 1):
        b = enc.t5_bucket(sign * dist, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
        assert np.all(np.diff(b) >= 0)
        assert b.min() >= 0 and b.max() < num_buckets


@pytest.mark.parametrize("bidirectional,num_buckets,max_distance", T5_CONFIGS)
def test_t5_buckets_are_exact_below_max_exact(bidirectional, num_buckets, max_distance):
    half, max_exact = _split(bidirectional, num_buckets)
    dist = np.arange(max_exact)
    b_neg = enc.t5_bucket(-dist, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    np.testing.assert_array_equal(b_neg, dist)
    if bidirectional:
        b_pos = enc.t5_bucket(dist[1:], bidirectional=True, num_buckets=num_buckets, max_distance=max_distance)
        np.testing.assert_array_equal(b_pos, half + dist[1:])


@pytest.mark.parametrize("bidirectional,num_buckets,max_distance", T5_CONFIGS)
def test_t5_buckets_are_constant_past_max_distance(bidirectional, num_buckets, max_distance):
    half, _ = _split(bidirectional, num_buckets)
    far = np.arange(max_distance, 50 * max_distance, 7)
    b_neg = enc.t5_bucket(-far, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    assert np.all(b_neg == half - 1)
    b_pos = enc.t5_bucket(far, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    # bidirectional: positive offsets use buckets half .. 2*half-1 (an odd num_buckets leaves the top one unused)
    assert np.all(b_pos == (2 * half - 1 if bidirectional else 0))


def test_t5_causal_buckets_send_future_offsets_to_zero():
    assert np.all(enc.t5_bucket(np.arange(0, 500), bidirectional=False) == 0)


@given(n=st.integers(1, 40), num_buckets=st.integers(4, 64), max_distance=st.integers(40, 200), seed=st.integers(0, 99))
def test_t5_bias_reads_one_value_per_bucket_of_the_offset(n, num_buckets, max_distance, seed):
    B = enc.t5(n, num_buckets=num_buckets, max_distance=max_distance, seed=seed)
    vals = np.random.default_rng(seed).normal(size=num_buckets)
    i, j = np.indices((n, n))
    np.testing.assert_array_equal(B, vals[enc.t5_bucket(j - i, num_buckets=num_buckets, max_distance=max_distance)])
    assert is_toeplitz(B, 0.0)


@given(n=st.integers(1, 40), K=st.integers(0, 50), seed=st.integers(0, 99))
def test_relative_bias_is_one_scalar_per_clipped_offset(n, K, seed):
    w = np.random.default_rng(seed).normal(size=2 * K + 1)
    B = enc.relative(n, max_offset=K, values=w)
    i, j = np.indices((n, n))
    np.testing.assert_array_equal(B, w[np.clip(j - i, -K, K) + K])


# ----------------------------------------------------------------------------- learned / random / NoPE


@given(n=st.integers(1, 64), d=st.integers(1, 32), seed=st.integers(0, 2**20))
def test_learned_table_is_reproducible_from_its_seed(n, d, seed):
    a, b = enc.learned(n, d, seed=seed), enc.learned(n, d, seed=seed)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (n, d)
    if n * d > 4:
        assert not np.array_equal(a, enc.learned(n, d, seed=seed + 1))


def test_learned_rows_are_a_prefix_of_the_table():
    np.testing.assert_array_equal(enc.learned(10, 8, n_max=64, seed=3), enc.learned(64, 8, seed=3)[:10])


def test_learned_table_initialisation_has_the_stated_scale():
    t = enc.learned(4000, 16, std=0.02, seed=1)
    assert abs(t.std() - 0.02) < 0.02 * 0.05  # 64k samples: sampling error ~0.3 %


@given(n_max=st.integers(1, 50), extra=st.integers(1, 50), d=st.integers(1, 16))
def test_learned_refuses_positions_beyond_n_max_unless_clamped(n_max, extra, d):
    with pytest.raises(ValueError, match="n_max"):
        enc.learned(n_max + extra, d, n_max=n_max)
    P = enc.learned(n_max + extra, d, n_max=n_max, beyond="clamp")
    np.testing.assert_array_equal(P[:n_max], enc.learned(n_max, d))
    np.testing.assert_array_equal(P[n_max:], np.broadcast_to(P[n_max - 1], (extra, d)))


def test_random_fixed_is_seeded_with_unit_expected_norm():
    a = enc.random_fixed(2000, 64, seed=5)
    np.testing.assert_array_equal(a, enc.random_fixed(2000, 64, seed=5))
    assert abs(np.mean(np.sum(a**2, axis=1)) - 1.0) < 0.02


def test_nope_is_zero():
    z = enc.nope(7, 3)
    assert z.shape == (7, 3) and not z.any()


# ----------------------------------------------------------------------------- wavelet / Legendre


@pytest.mark.parametrize("family", ["db2", "db4", "sym4", "haar"])
@pytest.mark.parametrize("normalisation", ["l2", "paper", "none"])
@pytest.mark.parametrize("n,d,n_max", [(1, 1, None), (64, 16, None), (200, 33, 50)])
def test_wavelet_outputs_are_finite_with_shape_n_by_d(family, normalisation, n, d, n_max):
    pe = enc.wavelet(n, d, wavelet=family, normalisation=normalisation, n_max=n_max)
    assert pe.shape == (n, d) and pe.dtype == np.float64
    assert np.all(np.isfinite(pe))


@pytest.mark.parametrize("family", ["db2", "db4", "sym4", "haar"])
def test_wavelet_features_vanish_past_the_support(family):
    import pywt

    support = pywt.Wavelet(family).dec_len - 1
    n_max = 16
    pe = enc.wavelet(8, 12, wavelet=family, n_max=n_max, start=support * n_max)
    assert not pe.any()
    assert enc.wavelet(n_max, 12, wavelet=family).any()


@pytest.mark.parametrize("family", ["db2", "db4"])
def test_wavelet_normalisations_differ_by_the_scale_factor(family):
    l2 = enc.wavelet(40, 20, wavelet=family, normalisation="l2")
    paper = enc.wavelet(40, 20, wavelet=family, normalisation="paper")
    none = enc.wavelet(40, 20, wavelet=family, normalisation="none")
    j = np.array([a[0] for a in enc.wavelet_atoms(20, enc.wavefun(family, 10)[2] - 1)])
    np.testing.assert_allclose(l2, none * 2.0 ** (j / 2), rtol=4 * U)
    np.testing.assert_allclose(paper, none * 2.0 ** (-j / 2), rtol=4 * U)


@pytest.mark.parametrize("d,support", [(1, 3), (10, 3), (50, 7), (5, 1)])
def test_wavelet_atoms_fill_d_features_coarse_to_fine(d, support):
    atoms = enc.wavelet_atoms(d, support)
    assert len(atoms) == d == len(set(atoms))
    scales = [j for j, _ in atoms]
    assert scales == sorted(scales) and scales[0] == 0
    for j, k in atoms:
        assert -(support - 1) <= k <= 2**j - 1


def test_haar_is_the_standard_right_continuous_wavelet():
    # psi = 1 on [0, 1/2), -1 on [1/2, 1), 0 elsewhere; PyWavelets samples it one grid step late.
    pe = enc.wavelet(8, 1, wavelet="haar", n_max=8)  # feature 0 is psi(t), t = p/8
    np.testing.assert_allclose(pe[:, 0], [1, 1, 1, 1, -1, -1, -1, -1], rtol=16 * U)  # cascade rounding
    assert enc.wavelet(1, 1, wavelet="haar", n_max=8, start=8)[0, 0] == 0.0


def test_wavelet_samples_are_read_only():
    x, psi, _ = enc.wavefun("db2", 10)
    with pytest.raises(ValueError):
        psi[0] = 1.0


def test_db2_is_the_four_tap_daubechies_wavelet():
    assert enc.wavefun("db2", 10)[2] == 4 and enc.wavefun("db4", 10)[2] == 8


@pytest.mark.parametrize("beyond", ["clip", "extrapolate"])
@pytest.mark.parametrize("orthonormal", [False, True])
@pytest.mark.parametrize("n,d,n_max,start", [(2, 1, None, 0), (64, 16, None, 0), (30, 8, 20, 0), (5, 12, 40, 100)])
def test_legendre_outputs_are_finite_with_shape_n_by_d(beyond, orthonormal, n, d, n_max, start):
    pe = enc.legendre(n, d, n_max=n_max, beyond=beyond, orthonormal=orthonormal, start=start)
    assert pe.shape == (n, d) and pe.dtype == np.float64
    assert np.all(np.isfinite(pe))


def test_legendre_columns_are_legendre_polynomials_of_mapped_positions():
    pe = enc.legendre(11, 4)
    x = np.linspace(-1, 1, 11)
    np.testing.assert_allclose(pe, np.stack([np.ones(11), x, (3 * x**2 - 1) / 2, (5 * x**3 - 3 * x) / 2], 1), atol=8 * U)


def test_legendre_clip_saturates_to_ones_past_n_max():
    far = enc.legendre(4, 6, n_max=10, start=10**6)
    np.testing.assert_array_equal(far, np.ones((4, 6)))


def test_legendre_extrapolate_grows_past_n_max():
    inside = enc.legendre(10, 6, n_max=10)
    outside = enc.legendre(3, 6, n_max=10, start=20, beyond="extrapolate")
    assert np.linalg.norm(outside, axis=1).min() > np.linalg.norm(inside, axis=1).max()


# ----------------------------------------------------------------------------- registry


BUILTIN = {
    "sinusoidal": "absolute", "learned": "absolute", "random": "absolute", "nope": "absolute",
    "wavelet": "absolute", "legendre": "absolute",
    "alibi": "bias", "t5": "bias", "relative": "bias",
    "rope": "rotary",
}


def test_every_encoding_of_the_issue_is_registered_with_its_kind():
    for name, kind in BUILTIN.items():
        assert enc.info(name).kind == kind
        assert name in enc.available(kind)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_builtin_encodings_state_conventions_and_source(name):
    info = enc.info(name)
    assert info.summary and info.conventions and info.source


def test_every_registered_encoding_returns_the_documented_shape_for_its_kind():
    n, d = 6, 8
    for name in enc.available():
        info = enc.info(name)
        f = enc.get(name)
        if info.kind == "absolute":
            out = f(n, d)
            assert isinstance(out, np.ndarray) and out.shape == (n, d), name
            assert np.all(np.isfinite(out)), name
        elif info.kind == "bias":
            out = f(n)
            assert isinstance(out, np.ndarray) and out.shape == (n, n), name
            assert np.all(np.isfinite(out)), name
        else:
            out = f(n, d)
            assert isinstance(out, enc.RotaryTable), name
            assert out.angles.shape == (n, out.rotary_dim // 2) and out.d == d, name
            assert out.apply(np.ones((n, d))).shape == (n, d), name


def test_registry_lists_are_sorted_and_json_describable():
    import json

    names = enc.available()
    assert names == sorted(names)
    for name in names:
        doc = enc.info(name).as_dict()
        assert set(doc) == {"name", "kind", "summary", "conventions", "source", "params"}
        json.dumps(doc)


def test_registry_lists_keyword_parameters_after_positions():
    assert list(enc.info("sinusoidal").params) == ["base", "layout", "start"]
    assert list(enc.info("alibi").params) == ["slope", "form"]
