"""The models a researcher brings in 2025-26 are read as transformers runs them (issue 40's named cases).

Each config is built by transformers' own configuration class with the published model's position fields (sizes
cut to a few layers where the count does not matter), saved with ``save_pretrained``, read back through petheory's
loader (``resolve_scheme("hf:DIR")``, the gate included) and compared layer by layer with the modules transformers
builds from the same file (tools/verify_hf.py on the meta device; tools/verify_models.py's ``compare``: head size,
softmax scale, window, NoPE-ness, sinks, rotated dimensions, frequencies to (|ln base| + 12) u32, cos/sin factor,
pairing, M-RoPE sections, ALiBi slopes). No comparison is skipped: what the tool cannot check fails the test.
"""

from __future__ import annotations

import json
import math

import pytest

from petheory.errors import ValidationError
from petheory.loaders import resolve_scheme

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from _helpers import verify_tools  # noqa: E402
from transformers import AutoConfig  # noqa: E402

KIMI_K2_ROPE = {"type": "yarn", "factor": 32.0, "beta_fast": 1.0, "beta_slow": 1.0, "mscale": 1.0,
                "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096}


def saved(tmp_path, config, **edit):
    """``config`` saved by transformers, then its config.json edited as a published file differs (``edit``)."""
    config.save_pretrained(tmp_path)
    path = tmp_path / "config.json"
    doc = json.loads(path.read_text())
    doc.update(edit)
    path.write_text(json.dumps(doc))
    return path


def agrees(scheme, config):
    verify_hf, verify_models = verify_tools()
    bad, unknown = verify_models.compare(scheme, verify_hf.facts(config), config)
    assert not bad and not unknown, (bad, unknown)


def test_kimi_k2_yarn_with_tied_betas_read_as_deepseek_v3(tmp_path):
    """Kimi K2's config.json: model_type kimi_k2 (remote code, DeepSeek-V3's), YaRN with beta_fast == beta_slow == 1."""
    config = AutoConfig.for_model("deepseek_v3", num_hidden_layers=2, hidden_size=7168, num_attention_heads=64,
                                  max_position_embeddings=131072, rope_scaling=dict(KIMI_K2_ROPE), rope_theta=50000.0)
    saved(tmp_path, config, model_type="kimi_k2", architectures=["DeepseekV3ForCausalLM"])
    with pytest.raises(ValidationError, match=r"unknown model_type 'kimi_k2'.*nearest verified family: deepseek_v3"):
        resolve_scheme(f"hf:{tmp_path}")
    scheme = resolve_scheme(f"hf:{tmp_path}", as_family="deepseek_v3")
    assert "the user's assertion" in scheme.notes[0]
    p = scheme.main.positions
    assert p.params["rope_dim"] == 64 and p.params["scaling"] == "rope_yarn"  # 32 bands
    assert p.params["scaling_params"]["beta"] == p.params["scaling_params"]["alpha"] == 1.0
    agrees(scheme, config)  # transformers runs it with DeepSeek-V3's code (its remote code is a copy of it)


def test_a_yarn_tie_beside_the_paper_ramp_is_refused_by_name():
    from petheory import encodings as enc

    with pytest.raises(ValidationError, match="beta > alpha"):
        enc.yarn_ramp(enc.rope_frequencies(8), n_max=2048, alpha=1.0, beta=1.0, ramp="paper")
    assert enc.yarn_ramp(enc.rope_frequencies(8), n_max=2048, alpha=1.0, beta=1.0, ramp="code").shape == (4,)


@pytest.mark.parametrize("mt,kw", [
    ("qwen3_moe", {"hidden_size": 2048, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
                   "num_hidden_layers": 48, "max_position_embeddings": 40960, "rope_theta": 1e6}),
    ("mistral3", {"text_config": {"model_type": "mistral", "hidden_size": 5120, "num_attention_heads": 32,
                                  "num_key_value_heads": 8, "head_dim": 128, "num_hidden_layers": 40,
                                  "max_position_embeddings": 131072, "rope_theta": 1e9, "sliding_window": None}}),
    ("gemma3n", {}),
    ("falcon_h1", {"num_hidden_layers": 4, "rope_theta": 1e11, "key_multiplier": 0.5, "attention_in_multiplier": 0.8}),
    ("minimax_m2", {"num_hidden_layers": 4, "head_dim": 128, "rotary_dim": 64, "rope_theta": 5e6}),
], ids=["qwen3-30b-a3b", "mistral-small-3.1", "gemma3n", "falcon-h1", "minimax-m2"])
def test_named_model_read_as_transformers_runs_it(tmp_path, mt, kw):
    config = AutoConfig.for_model(mt, **kw)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    if mt == "falcon_h1":
        assert scheme.main.positions.params["base"] == 1e11
        assert scheme.main.positions.logit_factor == pytest.approx(0.5 * 0.8**2)
    if mt == "minimax_m2":
        assert (scheme.main.positions.params["rotary_dim"], scheme.main.positions.d) == (64, 128)


@pytest.mark.parametrize("position_embedding_type", ["nope", "rope"])
def test_granite_4_h_attention_among_mamba_layers(tmp_path, position_embedding_type):
    """Granite 4.0-H: Mamba-2 layers with a few attention layers; the published configs use NoPE attention."""
    types = ["mamba"] * 3 + ["attention"] + ["mamba"] * 3 + ["attention"]
    config = AutoConfig.for_model("granitemoehybrid", num_hidden_layers=8, layer_types=types,
                                  position_embedding_type=position_embedding_type, attention_multiplier=0.0078125)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    kinds = [layer.positions.kind for layer in scheme.layers]
    attn = "nope" if position_embedding_type == "nope" else "rotary"
    assert kinds == ["none"] * 3 + [attn] + ["none"] * 3 + [attn]


def test_pythia_in_the_transformers_5_layout_rotates_a_quarter(tmp_path):
    """GPT-NeoX saved by transformers 5 keeps rotary_pct as rope_parameters.partial_rotary_factor: 24 of 96 rotate."""
    config = AutoConfig.for_model("gpt_neox", num_hidden_layers=2)
    saved(tmp_path, config)
    assert "rotary_pct" not in json.loads((tmp_path / "config.json").read_text())
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    p = scheme.main.positions
    assert (p.params["rotary_dim"], p.d) == (24, 96)
    assert 10000.0 ** (-2 / 24) == pytest.approx(0.4641589, rel=1e-6)  # band 1, as the issue quotes it


def test_pythia_longrope_takes_one_factor_per_rotated_band(tmp_path):
    rope = {"rope_type": "longrope", "rope_theta": 10000.0, "partial_rotary_factor": 0.25, "factor": 2.0,
            "original_max_position_embeddings": 1024, "short_factor": [1.0 + 0.1 * i for i in range(12)],
            "long_factor": [1.0 + 0.5 * i for i in range(12)]}
    config = AutoConfig.for_model("gpt_neox", num_hidden_layers=2, rope_parameters=rope)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert len(scheme.main.positions.params["short_factor"]) == 12


def test_falcon_alibi_slopes_are_transformers_bfloat16_ones_over_sqrt_d(tmp_path):
    config = AutoConfig.for_model("falcon", alibi=True, num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    slope = scheme.main.positions.heads[0]["slope"]
    assert slope * math.sqrt(64) == 0.91796875  # bfloat16(2^-(8/64)) = 0.917969, not 0.917004
    assert any("bfloat16" in note for note in scheme.notes)


def test_the_comparison_catches_a_planted_misreading(tmp_path):
    """Planted: Pythia rotating every dimension (the old reading) is a misread for the tool, by rotated dimensions."""
    from dataclasses import replace

    config = AutoConfig.for_model("gpt_neox", num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    p = scheme.main.positions
    full = replace(p, params={k: v for k, v in p.params.items() if k != "rotary_dim"})
    wrong = replace(scheme, layers=tuple(replace(layer, positions=full) for layer in scheme.layers))
    verify_hf, verify_models = verify_tools()
    bad, _ = verify_models.compare(wrong, verify_hf.facts(config), config)
    assert bad and "rotated dimensions" in bad[0]
