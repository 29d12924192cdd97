"""Real model configurations resolve to what transformers' own code computes.

Each fixture in ``tests/data/hf_configs/`` (numbers only, see its README) is resolved by
:func:`petheory.models.resolve_config`; its per-band frequencies and factors are compared with
transformers (the version pinned in constraints.txt): the model's ``*RotaryEmbedding`` (which
calls ``ROPE_INIT_FUNCTIONS[rope_type]`` or the default ladder), ``ROPE_INIT_FUNCTIONS`` directly
at lengths past the original context (dynamic, LongRoPE), DeepSeek-V3's ``yarn_apply_mscale``,
Gemma's attention ``scaling``, BLOOM's ``build_alibi_tensor``, MPT's ``build_mpt_alibi_tensor``
and T5's ``_relative_position_bucket``. Nothing is downloaded.

Tolerances. transformers computes frequencies in float32 (unit roundoff u32 = 2^-24): the
exponent x_t = 2t/r is rounded (relative error <= u32), so base**x_t carries
|ln base| * x_t * u32 <= |ln base| * u32 from it, plus one rounding each for the power, the
reciprocal, a division by the factor, and at most about 8 more in the Llama 3 / YaRN blends
(gamma's error is at most 4 u32 relative to the larger term, h/(h-l) * 3 u32 for Llama 3's
defaults). So we require |w_pet - w_hf| <= (|ln base| + 12) * u32 * w_hf per band; petheory's
float64 error (~1e-15) is negligible beside it. Attention and softmax factors are Python floats
on both sides (a handful of float64 operations): 64 * u64 relative. ALiBi slopes: BLOOM raises a
float32 base (relative error u32) to integer powers p <= 2H, so (2H + 2) * u32 relative; T5
buckets are integers: equal.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

from petheory import encodings as enc
from petheory.models import resolve_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from transformers import AutoConfig  # noqa: E402
from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
U32 = 2.0**-24
U64 = 2.0**-53
ROPE_FIXTURES = ["llama3_1_8b", "qwen2_5_7b_yarn", "phi3_mini_128k", "deepseek_v3", "gpt_neox_20b", "mistral_7b",
                 "gemma3_4b"]


def fixture(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def hf_config(cfg: dict):
    if cfg.get("model_type") == "gemma3":
        cfg = cfg["text_config"]
    return AutoConfig.for_model(**cfg)


def hf_rotary(config):
    mt = {"gemma3_text": "gemma3"}.get(config.model_type, config.model_type)
    mod = importlib.import_module(f"transformers.models.{mt}.modeling_{mt}")
    (cls,) = [getattr(mod, a) for a in dir(mod) if a.endswith("RotaryEmbedding")]
    return cls(config)


def freq_rtol(base: float) -> float:
    return (abs(math.log(base)) + 12) * U32


def assert_bands(w_pet, w_hf, base, what):
    w_hf = np.asarray(w_hf, dtype=np.float64)
    assert w_pet.shape == w_hf.shape, what
    rel = np.abs(w_pet - w_hf) / w_hf
    tol = freq_rtol(base)
    assert rel.max() <= tol, f"{what}: max relative difference {rel.max():.3g} > {tol:.3g} (band {rel.argmax()})"
    return float(rel.max())


def base_of(params: dict) -> float:
    return float(params.get("base", 10000.0))


@pytest.mark.parametrize("name", ROPE_FIXTURES)
def test_rope_frequencies_and_factor_match_transformers(name):
    cfg = fixture(name)
    model = resolve_config(cfg)
    config = hf_config(cfg)
    emb = hf_rotary(config)
    for layer, _ in model.kinds():
        s, layer_type, kind = layer.positions, layer.type, layer.type
        nested = isinstance(getattr(emb, "rope_type", None), dict)
        inv = getattr(emb, f"{layer_type}_inv_freq" if nested else "inv_freq")
        af = getattr(emb, f"{layer_type}_attention_scaling" if nested else "attention_scaling")
        w, factor = enc.band_frequencies(s.encoding, s.d, 2, **s.params)
        base = base_of(s.params.get("scaling_params", {}) | s.params) if s.encoding != "mla_rope" else s.params["base"]
        assert_bands(w, inv.numpy(), base, f"{name} {kind}")
        softmax = 1.0
        if cfg["model_type"] == "deepseek_v3":
            mod = importlib.import_module("transformers.models.deepseek_v3.modeling_deepseek_v3")
            qk = config.qk_nope_head_dim + config.qk_rope_head_dim
            softmax = mod.yarn_apply_mscale(config.rope_parameters, qk**-0.5) * math.sqrt(qk)
            assert s.d == qk
        # the rotary part of a logit: transformers scales cos and sin by af (so q.k by af^2), times the softmax factor
        assert factor == pytest.approx(af**2 * softmax, rel=64 * U64), name
        assert s.logit_factor == pytest.approx(softmax, rel=64 * U64), name


def test_deepseek_v3_softmax_scale_is_mscale_all_dim_squared():
    cfg = fixture("deepseek_v3")
    s = resolve_config(cfg).main.positions
    mod = importlib.import_module("transformers.models.deepseek_v3.modeling_deepseek_v3")
    config = hf_config(cfg)
    scaling = mod.yarn_apply_mscale(config.rope_parameters, 192**-0.5)
    assert s.logit_factor / math.sqrt(192) == pytest.approx(scaling, rel=64 * U64)
    assert s.logit_factor == pytest.approx((0.1 * math.log(40) + 1) ** 2, rel=64 * U64)  # 1.8739, not 1
    # planted: a resolver that forgot mscale_all_dim would give 1 and fail the comparison above
    assert abs(1.0 / math.sqrt(192) - scaling) > 1e3 * 64 * U64 * scaling


def test_gemma3_local_global_layers_and_softmax_scale_match_transformers():
    cfg = fixture("gemma3_4b")
    model = resolve_config(cfg)
    config = hf_config(cfg)
    assert [layer.type for layer in model.layers] == config.layer_types
    assert [layer.span.size for layer in model.layers] == [config.sliding_window if t == "sliding_attention" else None
                                                           for t in config.layer_types]
    mod = importlib.import_module("transformers.models.gemma3.modeling_gemma3")
    attn = mod.Gemma3Attention(config, layer_idx=0)
    main = model.main.positions
    local = next(layer.positions for layer in model.layers if layer.type == "sliding_attention")
    assert main.logit_factor / math.sqrt(model.head_dim) == pytest.approx(attn.scaling, rel=64 * U64)
    assert local.params["base"] == 10000.0 and main.params["base"] == 1e6


@pytest.mark.parametrize("seq_len", [2048, 4096, 4097, 8192, 131072])
def test_longrope_short_and_long_regimes_match_transformers(seq_len):
    cfg = fixture("phi3_mini_128k")
    s = resolve_config(cfg).main.positions
    inv, af = ROPE_INIT_FUNCTIONS["longrope"](hf_config(cfg), None, seq_len=seq_len)
    w, factor = enc.band_frequencies(s.encoding, s.d, seq_len, **s.params)
    assert_bands(w, inv.numpy(), 10000.0, f"longrope at {seq_len}")
    assert factor == pytest.approx(af**2, rel=64 * U64)
    assert af == pytest.approx(math.sqrt(1 + math.log(32) / math.log(4096)), rel=64 * U64)


def _with_scaling(rope: dict, **extra) -> dict:
    cfg = {k: val for k, val in fixture("llama3_1_8b").items() if k != "rope_scaling"}
    return {**cfg, "rope_scaling": rope, **extra}


@pytest.mark.parametrize("seq_len", [100, 8192, 8193, 20000, 65536])
def test_dynamic_ntk_matches_transformers_at_every_length(seq_len):
    cfg = _with_scaling({"rope_type": "dynamic", "factor": 4.0}, max_position_embeddings=8192)
    s = resolve_config(cfg).main.positions
    assert s.encoding == "rope_dynamic" and s.params["n_max"] == 8192
    inv, af = ROPE_INIT_FUNCTIONS["dynamic"](hf_config(cfg), None, seq_len=seq_len)
    w, factor = enc.band_frequencies(s.encoding, s.d, seq_len, **s.params)
    assert_bands(w, inv.numpy(), 500000.0 * 4 ** (128 / 126) * seq_len / 8192, f"dynamic at {seq_len}")
    assert factor == af**2 == 1.0


@pytest.mark.parametrize("rope", [
    {"rope_type": "linear", "factor": 2.0},
    {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "beta_fast": 16, "beta_slow": 2},
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096, "attention_factor": 1.3},
    {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 4096, "mscale": 0.707, "mscale_all_dim": 1.0},
    {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 2.0, "high_freq_factor": 8.0,
     "original_max_position_embeddings": 4096},
], ids=["linear", "yarn-betas", "yarn-attention-factor", "yarn-mscale-ratio", "llama3-other-factors"])
def test_every_rope_init_function_agrees_beyond_the_fixtures(rope):
    cfg = _with_scaling(rope, partial_rotary_factor=0.5)  # partial rotary too: 64 of 128 dimensions
    s = resolve_config(cfg).main.positions
    config = hf_config(cfg)
    inv, af = ROPE_INIT_FUNCTIONS[rope["rope_type"]](config, None)
    w, factor = enc.band_frequencies(s.encoding, s.d, 2, **s.params)
    assert s.params["rotary_dim"] == 64
    assert_bands(w, inv.numpy(), 500000.0, str(rope))
    assert factor == pytest.approx(af**2, rel=64 * U64)


def test_a_planted_convention_error_is_caught():
    """The comparison can fail: NTK's exponent r/(r-2) replaced by 1 (a common slip) is far outside the tolerance."""
    cfg = _with_scaling({"rope_type": "dynamic", "factor": 4.0}, max_position_embeddings=8192)
    inv, _ = ROPE_INIT_FUNCTIONS["dynamic"](hf_config(cfg), None, seq_len=65536)
    wrong = enc.rope_frequencies(128, base=500000.0 * (4 * 65536 / 8192 - 3))
    with pytest.raises(AssertionError):
        assert_bands(wrong, inv.numpy(), 500000.0, "planted")


def test_bloom_alibi_slopes_match_build_alibi_tensor():
    cfg = fixture("bloom_560m")
    s = resolve_config(cfg).main.positions
    H = cfg["n_head"]
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    alibi = build_alibi_tensor(torch.ones(1, 4), H, torch.float32)  # (H, 1, 4): slope_h * position
    hf = alibi[:, 0, 1].double().numpy()
    ours = np.array([h["slope"] for h in s.heads])
    np.testing.assert_allclose(ours, hf, rtol=(2 * H + 2) * U32, atol=0)
    for H2 in (12, 20):  # not powers of two: the interleaved extra slopes
        hf2 = build_alibi_tensor(torch.ones(1, 2), H2, torch.float32)[:, 0, 1].double().numpy()
        ours2 = np.array([h["slope"] for h in resolve_config({**cfg, "n_head": H2, "hidden_size": 64 * H2}).main.positions.heads])
        np.testing.assert_allclose(ours2, hf2, rtol=(2 * H2 + 2) * U32, atol=0)


@pytest.mark.parametrize("heads", [32, 12])
def test_mpt_alibi_slopes_match_build_mpt_alibi_tensor(heads):
    cfg = {**fixture("mpt_7b"), "n_heads": heads, "d_model": 128 * heads}
    s = resolve_config(cfg).main.positions
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    alibi = build_mpt_alibi_tensor(heads, 4, alibi_bias_max=8)  # (H, 1, 4): slope_h * (position - 3)
    hf = (alibi[:, 0, 3] - alibi[:, 0, 2]).double().numpy()
    np.testing.assert_allclose([h["slope"] for h in s.heads], hf, rtol=(2 * heads + 4) * U32, atol=0)


@pytest.mark.parametrize("bidirectional", [True, False])
def test_t5_buckets_match_relative_position_bucket(bidirectional):
    cfg = fixture("t5_base")
    model = resolve_config(cfg)
    s = next(layer.positions for layer in model.layers if layer.type == ("encoder" if bidirectional else "decoder"))
    from transformers.models.t5.modeling_t5 import T5Attention

    off = np.arange(-3000, 3001)
    hf = T5Attention._relative_position_bucket(torch.tensor(off), bidirectional=bidirectional,
                                               num_buckets=s.params["num_buckets"], max_distance=s.params["max_distance"])
    ours = enc.t5_bucket(off, bidirectional=s.params["bidirectional"], num_buckets=s.params["num_buckets"],
                         max_distance=s.params["max_distance"])
    np.testing.assert_array_equal(ours, hf.numpy())


def test_gpt_neox_partial_rotary_is_a_quarter_of_each_head():
    s = resolve_config(fixture("gpt_neox_20b")).main.positions
    assert (s.d, s.params["rotary_dim"]) == (96, 24)
