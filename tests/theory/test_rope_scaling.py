"""Llama 3, LongRoPE, dynamic NTK, partial rotary and MLA with a scaling: the properties their sources state.

Frequencies are compared exactly where the formula gives the same floating-point operations,
else within a few float64 roundings of the value (``8 * u64`` relative: one power, one division
and the blend's few operations).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory import encodings as enc
from petheory.encodings.kernels import rotary_kernel
from petheory.analyses.describe import describe_encoding
from petheory.analyses.kernel import rotary_column

U = np.finfo(float).eps / 2
REL = 8 * U


def freqs(name, d=128, n=2, **params):
    t = enc.get(name)(n, d, **params)
    return t.angles[1] - t.angles[0]


# ----------------------------------------------------------------------------- Llama 3


def test_llama3_keeps_fast_bands_divides_slow_bands_and_blends_between():
    L, s, lo, hi = 8192, 8.0, 1.0, 4.0
    w0 = enc.rope_frequencies(128, base=500000.0)
    w = freqs("rope_llama3", scale=s, n_max=L, low_freq_factor=lo, high_freq_factor=hi)
    lam = 2 * math.pi / w0
    fast, slow = lam < L / hi, lam > L / lo
    assert fast.sum() == 29 and slow.sum() == 29  # Llama 3.1: 29 kept, 29 divided by 8, 6 blended
    np.testing.assert_array_equal(w[fast], w0[fast])
    np.testing.assert_array_equal(w[slow], w0[slow] / s)
    mid = ~fast & ~slow
    ratio = w0[mid] / w[mid]
    assert np.all((ratio > 1) & (ratio < s)) and np.all(np.diff(ratio) > 0)  # the blend moves monotonically from 1 to s


def test_llama3_blend_is_continuous_at_both_edges():
    L, s = 8192, 8.0
    edge_lo, edge_hi = 2 * math.pi / (L / 1.0), 2 * math.pi / (L / 4.0)  # frequencies whose wavelength is L/l, L/h
    eps = 1e-9
    w = np.array([edge_lo * (1 + eps), edge_lo * (1 - eps), edge_hi * (1 + eps), edge_hi * (1 - eps)])
    out = enc.llama3_frequencies(w, scale=s, n_max=L)
    assert out[0] / w[0] == pytest.approx(1 / s, rel=1e-7) and out[1] / w[1] == pytest.approx(1 / s, rel=1e-7)
    assert out[2] / w[2] == pytest.approx(1.0, rel=1e-7) and out[3] / w[3] == pytest.approx(1.0, rel=1e-7)


def test_llama3_at_scale_one_is_rope():
    np.testing.assert_allclose(freqs("rope_llama3", scale=1.0), enc.rope_frequencies(128, base=500000.0), rtol=REL, atol=0)


def test_llama3_refuses_inverted_factors():
    with pytest.raises(ValueError, match="high_freq_factor >= low_freq_factor"):
        enc.rope_llama3(4, 8, low_freq_factor=4.0, high_freq_factor=1.0)


def test_llama3_with_equal_factors_is_a_step_at_L():
    """Llama 4 Scout (low = high = 1): bands longer than L are divided by s, the others kept; none blended."""
    w = enc.rope_frequencies(128, base=500000.0)
    out = enc.llama3_frequencies(w, scale=16.0, n_max=8192, low_freq_factor=1.0, high_freq_factor=1.0)
    long_ = 2 * np.pi / w > 8192
    assert long_.any() and (~long_).any()
    np.testing.assert_array_equal(out, np.where(long_, w / 16.0, w))


# ----------------------------------------------------------------------------- LongRoPE


def test_longrope_picks_short_factors_up_to_L_and_long_beyond():
    short, long_ = tuple(np.linspace(1, 2, 48)), tuple(np.linspace(1, 60, 48))
    kw = dict(short_factor=short, long_factor=long_, scale=32.0, n_max=4096)
    w0 = enc.rope_frequencies(96)
    np.testing.assert_allclose(freqs("rope_longrope", 96, seq_len=4096, **kw), w0 / np.array(short), rtol=REL)
    np.testing.assert_allclose(freqs("rope_longrope", 96, seq_len=4097, **kw), w0 / np.array(long_), rtol=REL)
    np.testing.assert_allclose(freqs("rope_longrope", 96, regime="long", **kw), w0 / np.array(long_), rtol=REL)
    t = enc.rope_longrope(2, 96, **kw)
    assert t.mscale == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)), rel=REL)


def test_longrope_defaults_are_rope_and_factor_lists_are_checked():
    np.testing.assert_array_equal(freqs("rope_longrope", 64), enc.rope_frequencies(64))
    assert enc.rope_longrope(2, 64).mscale == 1.0
    with pytest.raises(ValueError, match="r/2 = 32 numbers, got 31"):
        enc.rope_longrope(2, 64, short_factor=[1.0] * 31)
    with pytest.raises(ValueError, match="must be > 0"):
        enc.rope_longrope(2, 64, long_factor=[1.0] * 31 + [0.0])


# ----------------------------------------------------------------------------- dynamic NTK


def test_dynamic_is_rope_up_to_L_and_interpolates_the_slowest_band_by_its_growth_beyond():
    r, L, s = 64, 2048, 4.0
    w0 = enc.rope_frequencies(r)
    for n in (16, L):
        np.testing.assert_array_equal(freqs("rope_dynamic", r, n=n, scale=s, n_max=L), w0)
    for N in (L + 1, 3 * L, 16 * L):
        w = enc.band_frequencies("rope_dynamic", r, N, scale=s, n_max=L)[0]
        g = s * N / L - (s - 1)  # base' = base g^(r/(r-2)): the slowest band (t = r/2-1) is divided by exactly g
        assert w0[-1] / w[-1] == pytest.approx(g, rel=64 * U)
        assert w[0] == w0[0]  # the fastest band keeps its frequency


# ----------------------------------------------------------------------------- partial rotary, MLA, bands


def test_partial_rotary_dim_truncates_as_transformers_and_refuses_odd_results():
    assert enc.partial_rotary_dim(96, 0.25) == 24 and enc.partial_rotary_dim(80, 0.4) == 32
    with pytest.raises(ValueError, match="even number"):
        enc.partial_rotary_dim(128, 0.2)  # 25.6 -> 25
    with pytest.raises(ValueError, match=r"in \(0, 1\]"):
        enc.partial_rotary_dim(128, 1.5)


def test_mla_rope_with_yarn_takes_the_scaling_frequencies_and_folds_the_softmax_factor():
    sp = {"scale": 40.0, "n_max": 4096, "ramp": "code", "mscale": 1.0}
    t = enc.get("mla_rope")(3, 192, rope_dim=64, scaling="rope_yarn", scaling_params=sp, softmax_mscale=1.3688879454113936)
    ref = enc.get("rope_yarn")(3, 64, **sp)
    np.testing.assert_array_equal(t.angles, ref.angles)
    w, f = enc.band_frequencies("mla_rope", 192, 2, rope_dim=64, scaling="rope_yarn", scaling_params=sp,
                                softmax_mscale=1.3688879454113936)
    assert f == pytest.approx(1.3688879454113936**2, rel=REL) and w.shape == (32,)
    plain = enc.get("mla_rope")(3, 192, rope_dim=64)
    assert type(plain).__name__ == "RotaryTable"  # no scaling: unchanged from before
    with pytest.raises(ValueError, match="must not set base"):
        enc.get("mla_rope")(3, 192, rope_dim=64, scaling="rope_pi", scaling_params={"base": 5.0})


@pytest.mark.parametrize("name", ["rope", "rope_pi", "rope_ntk", "rope_yarn", "rope_llama3", "rope_longrope",
                                  "rope_dynamic", "mla_rope"])
def test_band_frequencies_and_the_streamed_kernel_match_the_table(name):
    n, d = 300, 32
    table = enc.get(name)(n, d)
    w, f = enc.band_frequencies(name, d, n)
    np.testing.assert_array_equal(w, table.angles[1] - table.angles[0])
    col, _ = rotary_kernel(table)
    # the same cosines summed in another order: |difference| <= (r/2) * u * sum|terms| <= (r/2)^2 u f
    np.testing.assert_allclose(rotary_column(w, n, f), col, rtol=0, atol=(w.size**2) * U * max(f, 1) * 4)


def test_band_frequencies_refuses_xpos_and_non_rotary():
    with pytest.raises(ValueError, match="xPos"):
        enc.band_frequencies("xpos", 16, 10)
    with pytest.raises(ValueError, match="bias encoding"):
        enc.band_frequencies("alibi", 16, 10)


def test_describe_encoding_names_bands_wavelengths_and_factor():
    out = describe_encoding("rope_yarn", {"scale": 4.0, "n_max": 64}, 8, length=256)
    assert out["encoding"] == "rope_yarn" and out["rotary_dim"] == 8 and len(out["frequencies"]) == 4
    assert out["rotary_logit_factor"] == pytest.approx((0.1 * math.log(4) + 1) ** 2)
    assert out["wavelengths"][0] == pytest.approx(2 * math.pi / out["frequencies"][0])
    assert describe_encoding("alibi", {"slope": 0.5})["kind"] == "bias"
