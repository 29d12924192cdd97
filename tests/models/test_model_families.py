"""The model families of 2025-26 resolve, layer by layer, to what transformers' own code does.

Each case builds the family's configuration class (transformers, the version pinned in
constraints.txt; its defaults are the family's flagship sizes, overridden where a published config
differs), writes it as JSON (``config.to_dict()``), resolves it with
:func:`petheory.models.resolve_config`, and compares every layer with transformers:

* the layer types with ``config.layer_types``; per layer, the attention module (built on the
  ``meta`` device: no weights) for the head size, the sliding window, whether RoPE is applied
  (``use_rope``, Cohere2's and EXAONE 4's NoPE global layers), the softmax scale, the sinks and
  Llama 4's temperature tuning;
* every rotary layer kind's frequencies and cos/sin factor with the family's ``*RotaryEmbedding``
  (``{layer_type}_inv_freq`` where it keeps one per layer type), and the M-RoPE sections.

Tolerances are those of tests/models/test_model_configs.py: transformers computes frequencies in float32,
so |w_pet - w_hf| <= (|ln base| + 12) u32 w_hf per band (u32 = 2^-24); factors are Python floats
(64 u64 relative).
"""

from __future__ import annotations

import importlib
import json
import math

import numpy as np
import pytest

from petheory import encodings as enc
from petheory.errors import ValidationError
from petheory.models import resolve_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from tools.verify import page  # noqa: E402
from tools.verify.flagships import CASES, SCOUT_ROPE, build  # noqa: E402
from transformers import AutoConfig  # noqa: E402


U32 = 2.0**-24
U64 = 2.0**-53
def modeling(text):
    mt = {"gemma3_text": "gemma3", "gemma4_text": "gemma4", "llama4_text": "llama4", "qwen2_vl_text": "qwen2_vl",
          "qwen2_5_vl_text": "qwen2_5_vl", "qwen3_vl_text": "qwen3_vl", "glm4v_moe_text": "glm4v_moe"}.get(text.model_type, text.model_type)
    return importlib.import_module(f"transformers.models.{mt}.modeling_{mt}")


def hf_rotary(text):
    mod = modeling(text)
    (cls,) = [getattr(mod, a) for a in dir(mod) if a.endswith("RotaryEmbedding") and "Vision" not in a]
    return cls(text)


def hf_attention(text, i):
    """The layer's attention module, built on the meta device (its attributes, no weights)."""
    mod = modeling(text)
    names = [a for a in dir(mod) if a.endswith("Attention") and not any(x in a for x in ("Vision", "Linear", "Gated",
             "Flash", "Sdpa", "Cross", "Audio", "Pretrained", "Block"))]
    (name,) = [a for a in names if "Text" in a] or names
    with torch.device("meta"):
        return getattr(mod, name)(text, i)


def hf_uses_rope(text, attn, i) -> bool:
    if hasattr(attn, "use_rope"):  # Llama 4, SmolLM3: no_rope_layers
        return bool(attn.use_rope)
    if text.model_type == "cohere2":  # rotary only on the sliding layers
        return attn.sliding_window is not None
    if text.model_type == "exaone4":
        return attn.sliding_window is None or attn.is_sliding
    return True


def hf_window(text, attn):
    if hasattr(attn, "is_sliding"):  # EXAONE 4 keeps config.sliding_window on every layer, masks with it if is_sliding
        return attn.sliding_window if attn.is_sliding else None
    if hasattr(attn, "sliding_window"):
        return attn.sliding_window
    return getattr(text, "sliding_window", None)  # StarCoder2: config.sliding_window on every layer


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def case(request):
    _, mt, kw = request.param
    config, cfg = build(mt, kw)
    return config.get_text_config(), cfg, resolve_config(cfg)


def test_layer_types_spans_heads_and_positions_match_transformers(case):
    text, _, scheme = case
    n = text.num_hidden_layers
    assert len(scheme.layers) == n
    if getattr(text, "layer_types", None):
        assert [layer.type for layer in scheme.layers] == list(text.layer_types)
    for i, layer in enumerate(scheme.layers):
        if layer.type == "linear_attention":
            assert layer.positions.kind == "none" and text.layer_types[i] == "linear_attention"
            continue
        attn = hf_attention(text, i)
        assert layer.positions.d == attn.head_dim, i
        assert layer.positions.kind == ("rotary" if hf_uses_rope(text, attn, i) else "nope"), i
        w = hf_window(text, attn)
        if getattr(text, "layer_types", None) and text.layer_types[i] == "chunked_attention":
            assert (layer.span.kind, layer.span.size) == ("chunked", text.attention_chunk_size), i
        else:
            assert (layer.span.kind, layer.span.size) == (("full", None) if w is None else ("sliding", w)), i
        # the softmax scale: d^-1/2 times our logit factor
        assert layer.positions.logit_factor * layer.positions.d**-0.5 == pytest.approx(attn.scaling, rel=64 * U64), i
        assert layer.sinks == hasattr(attn, "sinks"), i
        tuned = bool(getattr(attn, "attn_temperature_tuning", False)) and not hf_uses_rope(text, attn, i)
        assert (layer.temperature is not None) == tuned, i
        if tuned:
            p = torch.tensor([0, 1, 8190, 8191, 8192, 100000, 10**6])
            hf = torch.log1p(torch.floor((p.float() + 1.0) / attn.floor_scale)) * attn.attn_scale + 1.0
            np.testing.assert_allclose(layer.temperature.at(p.numpy()), hf.double().numpy(), rtol=8 * U32)


def test_rotary_frequencies_and_factors_match_transformers(case):
    text, _, scheme = case
    emb = hf_rotary(text)
    seen = 0
    for layer, idx in scheme.kinds():
        s = layer.positions
        if s.kind != "rotary":
            continue
        inv = getattr(emb, f"{layer.type}_inv_freq", None)
        inv = emb.inv_freq if inv is None else inv
        af = getattr(emb, f"{layer.type}_attention_scaling", getattr(emb, "attention_scaling", 1.0))
        w, factor = enc.band_frequencies(s.encoding, s.d, 2, **s.params)
        hf = inv.double().numpy()
        # proportional RoPE (Gemma 4) keeps head_dim/2 entries, the unrotated ones at frequency 0
        assert np.all(hf[w.shape[0]:] == 0), f"{layer.type}: transformers rotates more bands than we do"
        hf = hf[:w.shape[0]]
        base = float(s.params.get("base", 10000.0))
        rel = np.abs(w - hf) / hf
        tol = (abs(math.log(base)) + 12) * U32
        assert rel.max() <= tol, f"{layer.type} layers {idx[:3]}...: {rel.max():.3g} > {tol:.3g} (band {rel.argmax()})"
        assert factor == pytest.approx(af**2, rel=64 * U64), layer.type
        if hasattr(emb, "mrope_section"):
            assert s.mrope is not None and s.mrope.sections == tuple(emb.mrope_section)
            assert s.mrope.layout == ("interleaved" if "qwen3" in text.model_type else "chunked")
        else:
            assert s.mrope is None
        seen += 1
    assert seen >= 1


def test_layer_types_derived_without_the_list_as_transformers_derives_them(case):
    """A transformers-4 config.json has no layer_types: ours, derived from the other fields, are transformers' own."""
    text, cfg, scheme = case
    cfg = json.loads(json.dumps(cfg))
    for c in (cfg, cfg.get("text_config") or {}):
        c.pop("layer_types", None)
    assert [layer.type for layer in resolve_config(cfg).layers] == [layer.type for layer in scheme.layers]


def test_notes_say_what_is_assumed(case):
    text, _, scheme = case
    notes = " ".join(scheme.notes)
    if any(layer.positions.mrope for layer in scheme.layers):
        assert "text-only positions" in notes
    if any(layer.sinks for layer in scheme.layers):
        assert "sinks" in notes and "learned" in notes
    if any(layer.temperature for layer in scheme.layers):
        assert "temperature" in notes
    if getattr(text, "attn_logit_softcapping", None):
        assert "soft-capped" in notes
    if any(layer.positions.kind == "nope" for layer in scheme.layers):
        assert "NoPE" in notes


def test_gpt_oss_needs_the_unrounded_yarn_ramp():
    """Planted: the rounded ramp (truncate=True) misses transformers' gpt-oss frequencies by far more than the tolerance."""
    config, cfg = build("gpt_oss", {})
    s = resolve_config(cfg).main.positions
    assert s.params["truncate"] is False
    hf = hf_rotary(config).inv_freq.double().numpy()
    w_true, _ = enc.band_frequencies(s.encoding, s.d, 2, **{**s.params, "truncate": True})
    assert (np.abs(w_true - hf) / hf).max() > 100 * (math.log(150000.0) + 12) * U32


def test_llama4_nope_every_fourth_layer_chunked_rope_layers():
    config, cfg = build("llama4", {"text_config": {"rope_parameters": SCOUT_ROPE, "max_position_embeddings": 10485760}})
    scheme = resolve_config(cfg)
    kinds = [(layer.positions.kind, layer.span.kind) for layer in scheme.layers]
    assert kinds == [("nope", "full") if (i + 1) % 4 == 0 else ("rotary", "chunked") for i in range(48)]
    assert scheme.main.positions.encoding == "rope_llama3" or scheme.main.positions.kind == "nope"
    assert scheme.context == 8192


# ------------------------------------------------------------------------ the table of families

def summary(scheme) -> list:
    """One row per distinct layer kind: type, mechanism, count, base, rotary dims / d, span, temperature."""
    rows = []
    for layer, idx in scheme.kinds():
        p = layer.positions
        base = p.params.get("base", p.params.get("scaling_params", {}).get("base"))
        rd = p.params.get("rotary_dim", p.params.get("rope_dim", p.d)) if p.kind == "rotary" else None
        rows.append((layer.type, p.kind, p.encoding, len(idx), None if base is None else float(f"{base:.6g}"),
                     None if rd is None else f"{rd}/{p.d}", str(layer.span),
                     None if layer.temperature is None else layer.temperature.kind))
    return rows


#: What each family resolved to (the table of the issue's closing note), from the cases above.
TABLE = {
    "gemma2": [("sliding_attention", "rotary", "rope", 21, 10000.0, "256/256", "sliding 4096", None),
               ("full_attention", "rotary", "rope", 21, 10000.0, "256/256", "full", None)],
    "gemma3": [("sliding_attention", "rotary", "rope", 22, 10000.0, "256/256", "sliding 4096", None),
               ("full_attention", "rotary", "rope", 4, 1e6, "256/256", "full", None)],
    "gemma3_text-linear8": [("sliding_attention", "rotary", "rope", 29, 10000.0, "256/256", "sliding 4096", None),
                            ("full_attention", "rotary", "rope_pi", 5, 1e6, "256/256", "full", None)],
    "gemma4_text": [("sliding_attention", "rotary", "rope", 25, 10000.0, "256/256", "sliding 512", None),
                    ("full_attention", "rotary", "rope", 5, 31.6228, "128/512", "full", None)],
    "gemma4": [("sliding_attention", "rotary", "rope", 25, 10000.0, "256/256", "sliding 512", None),
               ("full_attention", "rotary", "rope", 5, 31.6228, "128/512", "full", None)],
    "llama4-scout": [("chunked_attention", "rotary", "rope_llama3", 36, 500000.0, "128/128", "chunked 8192", None),
                     ("full_attention", "nope", None, 12, None, None, "full", "llama4")],
    "llama4_text": [("chunked_attention", "rotary", "rope", 6, 500000.0, "128/128", "chunked 8192", None),
                    ("full_attention", "nope", None, 2, None, None, "full", "llama4")],
    "cohere2": [("sliding_attention", "rotary", "rope", 30, 10000.0, "128/128", "sliding 4096", None),
                ("full_attention", "nope", None, 10, None, None, "full", None)],
    "smollm3": [("full_attention", "rotary", "rope", 27, 2e6, "128/128", "full", None),
                ("full_attention", "nope", None, 9, None, None, "full", None)],
    "gpt_oss": [("sliding_attention", "rotary", "rope_yarn", 18, 150000.0, "64/64", "sliding 128", None),
                ("full_attention", "rotary", "rope_yarn", 18, 150000.0, "64/64", "full", None)],
    "qwen2_vl": [("full_attention", "rotary", "rope", 80, 1e6, "128/128", "full", None)],
    "qwen2_5_vl": [("full_attention", "rotary", "rope", 28, 1e6, "128/128", "full", None)],
    "qwen3_vl": [("full_attention", "rotary", "rope", 32, 5e6, "128/128", "full", None)],
    "olmo2": [("full_attention", "rotary", "rope", 32, 10000.0, "128/128", "full", None)],
    "olmo3": [("sliding_attention", "rotary", "rope", 24, 500000.0, "128/128", "sliding 4096", None),
              ("full_attention", "rotary", "rope", 8, 500000.0, "128/128", "full", None)],
    "starcoder2": [("sliding_attention", "rotary", "rope", 30, 100000.0, "128/128", "sliding 4096", None)],
    "glm4_moe": [("full_attention", "rotary", "rope", 92, 1e6, "64/128", "full", None)],
    "glm4_5v_text": [("full_attention", "rotary", "rope", 46, 10000.0, "64/128", "full", None)],
    "qwen3_next": [("linear_attention", "none", None, 36, None, None, "full", None),
                   ("full_attention", "rotary", "rope", 12, 10000.0, "64/256", "full", None)],
    "exaone4": [("sliding_attention", "rotary", "rope", 48, 10000.0, "128/128", "sliding 4096", None),
                ("full_attention", "nope", None, 16, None, None, "full", None)],
}


@pytest.mark.parametrize("name,mt,kw", CASES, ids=[c[0] for c in CASES])
def test_family_table(name, mt, kw):
    _, cfg = build(mt, kw)
    assert summary(resolve_config(cfg)) == TABLE[name]


# ------------------------------------------------------------------------ nothing dropped in silence

LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 4,
         "max_position_embeddings": 8192, "rope_theta": 500000.0}


@pytest.mark.parametrize("cfg,match", [
    ({**LLAMA, "model_type": "phi3small"}, "Phi-3-small"),
    ({**LLAMA, "model_type": "bert"}, "model_type 'bert': BertModel: absolute positions"),
    ({**LLAMA, "model_type": "my_llama"}, "unknown model_type 'my_llama'"),
    ({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 2.0, "wavelet": 3}}, "rope_scaling.wavelet"),
    ({**LLAMA, "rope_parameters": {"rope_type": "default", "mrope_section": [16, 24, 24]}}, "mrope_section"),
    ({**LLAMA, "mrope_section": [16, 24, 24]}, "mrope_section"),
    ({**LLAMA, "no_rope_layers": [1, 1, 1, 0]}, "no_rope_layers"),
    ({**LLAMA, "attention_chunk_size": 8192}, "attention_chunk_size"),
    ({**LLAMA, "rope_scaling": {"rope_type": "mrope"}}, "rope_type 'mrope'"),
    ({**LLAMA, "model_type": "qwen2", "layer_types": ["full_attention"] * 3 + ["hyper_attention"]}, "hyper_attention"),
    ({**LLAMA, "model_type": "qwen2", "layer_types": ["full_attention"] * 3}, "num_hidden_layers=4"),
    ({**LLAMA, "model_type": "mistral", "sliding_window": 4096, "layer_types": ["full_attention"] * 4}, "layer_types"),
    ({**LLAMA, "model_type": "smollm3", "no_rope_layers": [1, 1, 0]}, "no_rope_layers has 3 items, expected 4"),
    ({**LLAMA, "model_type": "smollm3", "no_rope_layers": [1, 1, 2, 0]}, "no_rope_layers[2]"),
    ({**LLAMA, "model_type": "qwen2_vl", "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 20]}}, "sum"),
    ({**LLAMA, "model_type": "qwen3_vl", "text_config": {**LLAMA, "model_type": "qwen3_vl_text", "rope_parameters": {
        "rope_type": "default", "mrope_section": [24, 20, 20], "mrope_interleaved": False}}}, "mrope_interleaved"),
    ({**LLAMA, "model_type": "gemma2", "sliding_window": None}, "sliding_window"),
    ({**LLAMA, "rope_theta": 10**400}, "rope_theta"),
    ({**LLAMA, "rope_theta": -(10**400)}, "rope_theta"),
    ({**LLAMA, "max_position_embeddings": 10**400}, "max_position_embeddings"),
    ({**LLAMA, "max_position_embeddings": 1e300}, "max_position_embeddings"),
    ({**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 10**400}}, "rope_scaling.factor"),
    ({**LLAMA, "model_type": "phi3", "rope_scaling": {"type": "longrope", "short_factor": [10**400] * 64,
                                                      "long_factor": [1.0] * 64}}, "short_factor[0]"),
    ({**LLAMA, "model_type": "gpt_oss", "rope_parameters": {"rope_type": "yarn", "factor": 32.0, "truncate": "no",
                                                            "original_max_position_embeddings": 4096}}, "truncate"),
    # (Gemma 2's code reads it: is_causal False; its forward builds no bidirectional window mask, so what its sliding
    # layers run depends on the kernel and the padding: not verified)
    ({**LLAMA, "model_type": "gemma2", "sliding_window": 512, "use_bidirectional_attention": True},
     "use_bidirectional_attention"),
    ({**LLAMA, "model_type": "gemma4_text", "rope_parameters": {"rope_type": "default"}}, "keyed by layer type"),
], ids=lambda x: None if isinstance(x, dict) else x)
def test_a_field_that_changes_positions_is_refused_not_dropped(cfg, match):
    with pytest.raises(ValidationError, match=None) as exc:
        resolve_config(cfg)
    msg = str(exc.value)
    assert match in msg and "\n" not in msg, msg


def test_a_field_the_familys_code_never_reads_is_refused_when_it_would_change_the_reading():
    """Llama's attention has no window: a layer_types list naming sliding layers says what Llama does not do."""
    with pytest.raises(ValidationError, match="sliding_window is never read by transformers' llama code"):
        resolve_config({**LLAMA, "sliding_window": 4096, "layer_types": ["full_attention"] * 3 + ["sliding_attention"]})


def test_a_field_the_familys_code_never_reads_is_ignored_when_it_changes_nothing():
    """Qwen3-30B-A3B's published config.json carries max_window_layers, which transformers' qwen3_moe never reads."""
    cfg = {**LLAMA, "model_type": "qwen3_moe", "max_window_layers": 48, "use_sliding_window": False, "head_dim": 128}
    scheme = resolve_config(cfg)
    assert any("never reads them (they change nothing here): max_window_layers" in note for note in scheme.notes)


def test_fields_that_do_not_touch_positions_are_ignored():
    plain = resolve_config(LLAMA)
    assert resolve_config({**LLAMA, "vocab_size": 128256, "rms_norm_eps": 1e-5, "torch_dtype": "bfloat16",
                           "architectures": ["LlamaForCausalLM"]}) == plain


@pytest.mark.parametrize("tuning,tuned", [(4, True), (0, False), (True, True), (False, False)])
def test_llama4_temperature_tuning_as_published(tuning, tuned):
    """Llama 4 Scout's config.json writes attn_temperature_tuning: 4; transformers tests its truth value."""
    config, cfg = build("llama4_text", {"num_hidden_layers": 4})
    cfg["attn_temperature_tuning"] = tuning
    attn = hf_attention(config, 3)
    attn.attn_temperature_tuning = tuning
    assert bool(attn.attn_temperature_tuning and not attn.use_rope) is tuned
    assert (resolve_config(cfg).layers[3].temperature is not None) is tuned


@pytest.mark.parametrize("pattern", ["LLLG", 4])
def test_exaone4_sliding_window_pattern_as_string_or_integer(pattern):
    """EXAONE 4.0-32B's config.json writes sliding_window_pattern "LLLG" (Exaone4Config's docstring: the same as 4)."""
    config, cfg = build("exaone4", {"num_hidden_layers": 8})
    hf_types = list(config.layer_types)
    del cfg["layer_types"]
    cfg["sliding_window_pattern"] = pattern
    assert [layer.type for layer in resolve_config(cfg).layers] == hf_types
    with pytest.raises(ValidationError, match="sliding_window_pattern"):
        resolve_config({**cfg, "sliding_window_pattern": "LLXG"})
    cfg["layer_types"] = hf_types  # a string pattern beside an explicit list: the list decides
    cfg["sliding_window_pattern"] = "LLLG"
    assert [layer.type for layer in resolve_config(cfg).layers] == hf_types


@pytest.mark.parametrize("mt,missing", [("gemma3_text", "sliding_attention"), ("gemma3_text", "full_attention"),
                                        ("olmo3", "sliding_attention")])
def test_a_layer_type_missing_from_nested_rope_parameters_gets_transformers_default(mt, missing):
    kept = "full_attention" if missing == "sliding_attention" else "sliding_attention"
    rope = {kept: {"rope_type": "linear", "factor": 4.0, "rope_theta": 123456.0}}
    config = AutoConfig.for_model(mt, num_hidden_layers=8, rope_parameters=json.loads(json.dumps(rope)))
    cfg = {**json.loads(json.dumps(config.to_dict())), "rope_parameters": rope}  # as a file that lacks the other type
    scheme = resolve_config(cfg)
    emb = hf_rotary(config)
    for layer, _ in scheme.kinds():
        p = layer.positions
        w, _ = enc.band_frequencies(p.encoding, p.d, 2, **p.params)
        hf = getattr(emb, f"{layer.type}_inv_freq").double().numpy()
        assert (np.abs(w - hf) / hf).max() <= (math.log(p.params["base"]) + 12) * U32, layer.type


def test_old_qwen2_vl_hub_config_flat_with_mrope_type():
    """Qwen2-VL's config.json on the Hub is flat, with rope_scaling {type: mrope, mrope_section}."""
    cfg = {"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28, "num_key_value_heads": 4,
           "num_hidden_layers": 28, "max_position_embeddings": 32768, "rope_theta": 1000000.0,
           "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}, "vision_config": {"depth": 32}}
    s = resolve_config(cfg).main.positions
    assert (s.encoding, s.params["base"], s.mrope.sections, s.mrope.layout) == ("rope", 1e6, (16, 24, 24), "chunked")


def test_the_layer_comparison_catches_gemma2_read_as_42_global_layers():
    """Planted: the old answer for Gemma 2 (every layer global, full span) fails the per-layer comparison."""
    config, cfg = build("gemma2", dict(CASES[0][2]))
    scheme = resolve_config(cfg)
    hf = [hf_window(config, hf_attention(config, i)) for i in range(config.num_hidden_layers)]
    assert [layer.span.size for layer in scheme.layers] == hf
    assert [None] * config.num_hidden_layers != hf  # what the old resolver reported
    assert sum(w == 4096 for w in hf) == 21


def test_the_scheme_of_every_family_serialises_to_json(case):
    _, _, scheme = case
    doc = json.loads(json.dumps(scheme.as_dict()))
    assert doc["num_layers"] == len(scheme.layers) and len(doc["layer_kind"]) == len(scheme.layers)
    assert sum(len(k["layers"]) for k in doc["kinds"]) == len(scheme.layers)


# ------------------------------------------------------------------------ YaRN's unrounded ramp


@pytest.mark.parametrize("truncate", [True, False])
@pytest.mark.parametrize("factor,beta_fast,beta_slow,theta", [(32.0, 32.0, 1.0, 150000.0), (4.0, 16.0, 2.0, 10000.0),
                                                              (8.0, 64.0, 1.0, 1e6)])
def test_yarn_truncate_matches_compute_yarn_parameters(truncate, factor, beta_fast, beta_slow, theta):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    rope = {"rope_type": "yarn", "factor": factor, "beta_fast": beta_fast, "beta_slow": beta_slow, "truncate": truncate,
            "original_max_position_embeddings": 4096, "rope_theta": theta}
    config, cfg = build("gpt_oss", {"rope_parameters": rope})
    s = resolve_config(cfg).main.positions
    assert s.params.get("truncate", True) is truncate
    inv, af = ROPE_INIT_FUNCTIONS["yarn"](config, None)
    w, f = enc.band_frequencies(s.encoding, s.d, 2, **s.params)
    hf = inv.double().numpy()
    assert (np.abs(w - hf) / hf).max() <= (math.log(theta) + 12) * U32
    assert f == pytest.approx(af**2, rel=64 * U64)


def test_yarn_truncate_is_validated():
    w = enc.rope_frequencies(64)
    with pytest.raises(ValidationError, match="truncate must be true or false"):
        enc.yarn_ramp(w, n_max=4096, ramp="code", truncate="no")
    with pytest.raises(ValidationError, match="ramp='code'"):
        enc.yarn_ramp(w, n_max=4096, ramp="paper", truncate=False)


def test_the_families_page_is_generated_from_these_cases():
    """docs/guide/families.md is what the resolver gives for the cases today (python -m tools.verify.page --write)."""
    assert page.main(["--check"]) == 0, "stale: run python -m tools.verify.page --write"


def test_the_families_page_notices_a_changed_resolver(monkeypatch):
    """Planted: a resolver that reads Gemma 2 as 42 global layers changes the page, and --check says so."""
    from dataclasses import replace

    from petheory.models import config as model_config
    from petheory.scheme import Span

    real = model_config.resolve_config

    def all_global(cfg):
        s = real(cfg)
        return replace(s, layers=tuple(replace(layer, span=Span()) for layer in s.layers)) if s.source == "gemma2" else s

    monkeypatch.setattr(model_config, "resolve_config", all_global)
    assert page.main(["--check"]) == 1
