"""The models a researcher brings in 2025-26 are read as transformers runs them (issue 40's named cases).

Each config is built by transformers' own configuration class with the published model's position fields (sizes
cut to a few layers where the count does not matter), saved with ``save_pretrained``, read back through petheory's
loader (``resolve_scheme("hf:DIR")``, the gate included) and compared layer by layer with the modules transformers
builds from the same file (tools/verify/oracle.py on the meta device; tools/verify/sweep.py's ``compare``: head size,
softmax scale, window, NoPE-ness, sinks, rotated dimensions, frequencies to (|ln base| + 12) u32, cos/sin factor,
pairing, M-RoPE sections, ALiBi slopes). No comparison is skipped: what the tool cannot check fails the test.
"""

from __future__ import annotations

import json
import math
import re

import pytest

from petheory.errors import ValidationError
from petheory.loaders import resolve_scheme

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from tools.verify import oracle, sweep  # noqa: E402
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
    bad, unknown = sweep.compare(scheme, oracle.facts(config), config)
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
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "rotated dimensions" in bad[0]


def _without(path, *keys):
    doc = json.loads(path.read_text())
    for key in keys:
        doc.pop(key, None)
    path.write_text(json.dumps(doc))


def test_muse_spark_derives_its_nope_layers_and_scales_its_queries(tmp_path):
    """Muse Spark without layer_rope_theta and layer_types (the class derives both): every 4th layer counted back
    from the last is full attention without RoPE (the model passes it no position embeddings), the others slide with
    RoPE; queries are multiplied by qk_scale_factor after their norm."""
    config = AutoConfig.for_model("muse_spark_text", num_hidden_layers=8, qk_scale_factor=2.5)
    _without(saved(tmp_path, config), "layer_rope_theta", "layer_types")
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert [layer.positions.kind for layer in scheme.layers] == ["nope" if (7 - i) % 4 == 0 else "rotary"
                                                                 for i in range(8)]
    assert [layer.span.kind for layer in scheme.layers] == ["full" if (7 - i) % 4 == 0 else "sliding" for i in range(8)]
    assert scheme.main.positions.logit_factor == 2.5


def test_muse_reads_layer_rope_theta_as_transformers_does_on_or_off(tmp_path):
    """A non-zero layer_rope_theta that differs from rope_theta: transformers' Muse code rotates with rope_theta (one
    rotary module) and reads the list only as 0 or not; petheory reads the same and says so in a note."""
    thetas = [30000.0, 0, 20000.0, 0]
    config = AutoConfig.for_model("muse_glimmer_text", num_hidden_layers=4, layer_rope_theta=thetas)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    rotary = [layer.positions for layer in scheme.layers if layer.positions.kind == "rotary"]
    assert len(rotary) == 2 and {p.params["base"] for p in rotary} == {config.rope_parameters["rope_theta"]} == {1e4}
    assert any(note.startswith("layer_rope_theta[0] = 30000.0 (and 1 more layers) differs from rope_theta")
               for note in scheme.notes)


def test_lara_mini_global_layers_apply_no_rope(tmp_path):
    """LaraMiniModel passes position embeddings to its sliding layers only (its global layers are NoPE); a file
    without layer_types takes the class's period-5 pattern."""
    config = AutoConfig.for_model("lara_mini", num_hidden_layers=10)
    _without(saved(tmp_path, config), "layer_types")
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    pattern = {"linear_attention": "none", "sliding_attention": "rotary", "full_attention": "nope"}
    assert [layer.positions.kind for layer in scheme.layers] == [pattern[t] for t in config.layer_types]


@pytest.mark.parametrize("mt,n", [("muse_spark_text", 8), ("lara_mini", 10)])
def test_the_comparison_catches_rope_on_a_layer_the_model_passes_none(tmp_path, mt, n):
    """Planted: the NoPE layers read as rotary (the old reading of both) are a misread for the tool: the model's
    forward, not the attention's, decides that those layers get no position embeddings."""
    from dataclasses import replace

    config = AutoConfig.for_model(mt, num_hidden_layers=n)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    rot = next(layer.positions for layer in scheme.layers if layer.positions.kind == "rotary")
    wrong = replace(scheme, layers=tuple(replace(layer, positions=rot) if layer.positions.kind == "nope" else layer
                                         for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "rotary here, transformers applies no RoPE" in bad[0]


@pytest.mark.parametrize("mt", ["eurobert", "gte", "nomic_bert", "jina_embeddings_v3", "esmc"])
def test_rope_encoders_are_read_with_a_bidirectional_mask(tmp_path, mt):
    """RoPE encoders: the positions a decoder's, every query attending to keys on both sides (is_causal False)."""
    from petheory.models.read import BIDIRECTIONAL

    config = AutoConfig.for_model(mt, num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert [layer.causal for layer in scheme.layers] == [False, False]
    assert scheme.main.positions.kind == "rotary" and BIDIRECTIONAL in scheme.notes
    assert scheme.main.as_dict()["causal"] is False


def test_modernbert_published_file_alternates_global_and_local_bidirectional_layers(tmp_path):
    """answerdotai/ModernBERT-base as published (transformers 4 keys): full attention every 3rd layer from 0 at
    global_rope_theta 160000; local layers at local_rope_theta 10000 see |i - j| <= local_attention / 2 = 64."""
    import shutil
    from pathlib import Path

    shutil.copy(Path(__file__).parents[1] / "data" / "hf_configs" / "modernbert_base.json", tmp_path / "config.json")
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    full = [i for i, layer in enumerate(scheme.layers) if layer.type == "full_attention"]
    assert full == list(range(0, 22, 3))
    by_type = {layer.type: layer for layer in scheme.layers}
    assert by_type["full_attention"].positions.params["base"] == 160000.0
    assert by_type["sliding_attention"].positions.params["base"] == 10000.0
    assert by_type["sliding_attention"].span.size == 65 and by_type["sliding_attention"].span.reach(10**4) == 65
    assert not any(layer.causal for layer in scheme.layers)
    assert any("position_embedding_type" in note and "never reads" in note for note in scheme.notes)


@pytest.mark.parametrize("mt,flip", [("eurobert", True), ("llama", False)])
def test_the_comparison_catches_a_mask_read_the_wrong_way(tmp_path, mt, flip):
    """Planted: an encoder read as causal, and a decoder read as bidirectional, are misreads for the tool."""
    from dataclasses import replace

    config = AutoConfig.for_model(mt, num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    wrong = replace(scheme, layers=tuple(replace(layer, causal=not layer.causal) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and ("read as causal" if flip else "read as bidirectional") in bad[0]


def test_report_says_which_of_its_results_hold_for_a_bidirectional_layer(tmp_path):
    from dataclasses import replace

    from petheory.analyses.report import section

    config = AutoConfig.for_model("eurobert", num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    kw = dict(length=64, multiples=(1,), null_draws=0, seed=0, rtol=1e-8)
    notes = section(scheme, scheme.layers[0], [0, 1], stress_cache=[], **kw).notes
    assert any(n.startswith("bidirectional (is_causal False)") and "plan's evidence does not" in n for n in notes)
    causal = replace(scheme.layers[0], causal=True)
    assert not any("bidirectional" in n for n in section(scheme, causal, [0, 1], stress_cache=[], **kw).notes)


@pytest.mark.parametrize("mt", ["gptj", "codegen"])
def test_gptj_rotates_its_first_rotary_dim_dimensions_in_adjacent_pairs(tmp_path, mt):
    """GPT-J / CodeGen: rotary_dim 64 of head_dim 256, adjacent pairs (rotate_every_two), base 10000 from their own
    sin/cos table (create_sinusoidal_positions)."""
    config = AutoConfig.for_model(mt, n_layer=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    p = scheme.main.positions
    assert (p.params["rotary_dim"], p.d, p.params["pairing"], p.params["base"]) == (64, 256, "interleaved", 10000.0)


def test_gptj_read_with_half_split_pairs_is_caught(tmp_path):
    """Planted: GPT-J read with rotate_half's pairing is a misread for the tool (its table and apply evaluated)."""
    from dataclasses import replace

    config = AutoConfig.for_model("gptj", n_layer=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    p = scheme.main.positions
    half = replace(p, params={**p.params, "pairing": "half"})
    wrong = replace(scheme, layers=tuple(replace(layer, positions=half) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "pairing" in " ".join(bad)


def test_gptj_without_rotary_dim_is_refused_as_transformers_cannot_run_it(tmp_path):
    """rotary_dim null: GPTJConfig refuses it (a strict int), and its code could not run it with several heads."""
    saved(tmp_path, AutoConfig.for_model("gptj", n_layer=2), rotary_dim=None)
    with pytest.raises(Exception, match="rotary_dim"):
        AutoConfig.from_pretrained(tmp_path)
    with pytest.raises(ValidationError, match=r"rotary_dim is null: gptj's code then builds its sin/cos table over the "
                                              r"whole hidden_size \(4096\) and applies it to heads of 256"):
        resolve_scheme(f"hf:{tmp_path}")


def test_granite_swa_rotates_each_layer_at_its_own_theta(tmp_path):
    """Granite-SWA keeps one rotary module per distinct layer_rope_theta and passes each layer its own (0: NoPE);
    without layer_types, its class puts full attention where i % 4 == 0."""
    thetas = [10000.0, 500000.0, 0, 10000.0, 500000.0, 0, 10000.0, 500000.0]
    config = AutoConfig.for_model("granite_swa", num_hidden_layers=8, layer_rope_theta=thetas)
    _without(saved(tmp_path, config), "layer_types")
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    got = [layer.positions.params.get("base") if layer.positions.kind == "rotary" else 0 for layer in scheme.layers]
    assert got == thetas
    assert [layer.span.kind for layer in scheme.layers] == ["full" if i % 4 == 0 else "sliding" for i in range(8)]


def test_granite_swa_read_at_one_theta_is_caught(tmp_path):
    """Planted: every rotary layer at the first layer's theta (one module for all) is a misread for the tool."""
    from dataclasses import replace

    thetas = [10000.0, 500000.0, 10000.0, 500000.0]
    config = AutoConfig.for_model("granite_swa", num_hidden_layers=4, layer_rope_theta=thetas)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    first = scheme.layers[0].positions
    wrong = replace(scheme, layers=tuple(replace(layer, positions=first) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "frequenc" in " ".join(bad)


def test_colqwen2_is_read_through_its_vlm_config(tmp_path):
    """ColQwen2 holds its vision-language model in vlm_config: the positions are its text model's (Qwen2-VL's)."""
    config = AutoConfig.for_model("colqwen2")
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert scheme.main.positions.mrope is not None and all(layer.causal for layer in scheme.layers)


def test_gemma_with_use_bidirectional_attention_is_read_bidirectional(tmp_path):
    """Gemma's attention: is_causal = not use_bidirectional_attention (an embedding model)."""
    config = AutoConfig.for_model("gemma", num_hidden_layers=2, use_bidirectional_attention=True)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not any(layer.causal for layer in scheme.layers)


def attended(model_class, text_config, n: int) -> list:
    """Which keys each query of each layer attends to when transformers runs ``text_config`` (a tiny model, eager
    kernel, random weights): ``[layer][i][j]`` True where the softmax weight of key j for query i is nonzero."""
    text_config._attn_implementation = "eager"
    torch.manual_seed(0)
    model = model_class(text_config).eval()
    with torch.no_grad():
        out = model(input_ids=torch.arange(n)[None] % text_config.vocab_size, output_attentions=True)
    return [(a[0, 0] > 0).tolist() for a in out.attentions]


def reads_mask_as_run(scheme, seen: list) -> None:
    """Each layer's reading (causal or not, full or a window of size W: j <= i and i - j < W when causal,
    |i - j| < W when not) gives exactly the keys transformers' forward attended to."""
    for layer, mask in zip(scheme.layers, seen, strict=True):
        size = layer.span.size if layer.span.kind == "sliding" else len(mask)
        want = [[(j <= i or not layer.causal) and abs(i - j) < size for j in range(len(mask))] for i in range(len(mask))]
        assert mask == want, (layer, mask)


TINY_STEP = dict(hidden_size=32, num_attention_heads=2, num_key_value_heads=1, head_dim=16, intermediate_size=32,
                 moe_intermediate_size=16, vocab_size=50, moe_num_experts=2, moe_top_k=1)


def test_step3p5_use_bidirectional_attention_is_read_as_its_mask_runs(tmp_path):
    """Step 3.5's attention keeps is_causal True, but its forward widens the masks where the file sets
    use_bidirectional_attention: the full layers see every key, the sliding ones |i - j| < sliding_window. Read so,
    and checked on the mask transformers' forward runs (eager); planted: the layers read causal are caught."""
    from dataclasses import replace

    from petheory.models.read import STEP_MASK
    from transformers.models.step3p7.modeling_step3p7 import Step3p7TextModel

    text = dict(num_hidden_layers=2, use_bidirectional_attention=True, sliding_window=3,
                layer_types=["full_attention", "sliding_attention"], **TINY_STEP)
    config = AutoConfig.for_model("step3p7", text_config=text)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    loaded = AutoConfig.from_pretrained(tmp_path)
    agrees(scheme, loaded)
    assert [(layer.causal, layer.span.kind, layer.span.size) for layer in scheme.layers] == [
        (False, "full", None), (False, "sliding", 3)] and STEP_MASK in scheme.notes
    assert all(fl["is_causal"] is False for fl in oracle.facts(loaded)["layers"])
    reads_mask_as_run(scheme, attended(Step3p7TextModel, loaded.text_config, 6))
    causal = replace(scheme, layers=tuple(replace(layer, causal=True) for layer in scheme.layers))
    bad, _ = sweep.compare(causal, oracle.facts(loaded), loaded)
    assert len(bad) == 2
    with pytest.raises(AssertionError):
        reads_mask_as_run(causal, attended(Step3p7TextModel, loaded.text_config, 6))


def test_step3p5_without_the_flag_stays_causal_as_its_mask_runs(tmp_path):
    from transformers.models.step3p7.modeling_step3p7 import Step3p7TextModel

    text = dict(num_hidden_layers=2, sliding_window=3, layer_types=["full_attention", "sliding_attention"], **TINY_STEP)
    saved(tmp_path, AutoConfig.for_model("step3p7", text_config=text))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    loaded = AutoConfig.from_pretrained(tmp_path)
    agrees(scheme, loaded)
    assert all(layer.causal for layer in scheme.layers)
    reads_mask_as_run(scheme, attended(Step3p7TextModel, loaded.text_config, 6))


def test_gemma3_bidirectional_sliding_window_is_the_classs_half_window(tmp_path):
    """EmbeddingGemma's layout: gemma3_text with use_bidirectional_attention and sliding layers. The class turns the
    file's sliding_window 6 into 6 // 2 + 1 = 4 and the forward's overlay admits |i - j| < 4: read so, and checked on
    the mask transformers runs (eager); planted: the file's 6 read as the window is caught by both."""
    from dataclasses import replace

    from transformers.models.gemma3.modeling_gemma3 import Gemma3TextModel

    config = AutoConfig.for_model("gemma3_text", num_hidden_layers=2, hidden_size=32, num_attention_heads=2,
                                  num_key_value_heads=1, head_dim=16, intermediate_size=32, vocab_size=50,
                                  sliding_window=7, use_bidirectional_attention=True,
                                  layer_types=["sliding_attention", "full_attention"])
    saved(tmp_path, config)
    assert json.loads((tmp_path / "config.json").read_text())["sliding_window"] == 6  # the saved form, (4 - 1) * 2
    scheme = resolve_scheme(f"hf:{tmp_path}")
    loaded = AutoConfig.from_pretrained(tmp_path)
    agrees(scheme, loaded)
    assert [(layer.causal, layer.span.kind, layer.span.size) for layer in scheme.layers] == [
        (False, "sliding", 4), (False, "full", None)]
    reads_mask_as_run(scheme, attended(Gemma3TextModel, loaded, 10))
    from petheory.scheme import Span

    wide = replace(scheme, layers=(replace(scheme.layers[0], span=Span("sliding", 6)), scheme.layers[1]))
    bad, _ = sweep.compare(wide, oracle.facts(loaded), loaded)
    assert bad
    with pytest.raises(AssertionError):
        reads_mask_as_run(wide, attended(Gemma3TextModel, loaded, 10))


def attention_calls(model, n: int) -> list:
    """The attention modules transformers' forward calls, in order (a tiny model, random weights)."""
    calls = []
    for mod in model.modules():
        if type(mod).__name__.endswith("Attention"):
            mod.register_forward_hook(lambda m, args, out: calls.append(m))
    torch.manual_seed(0)
    with torch.no_grad():
        model(input_ids=torch.arange(n)[None] % model.config.vocab_size)
    return calls


def listed_attention(model, text) -> list:
    return [oracle.attention_of(layer) for _, layer in oracle.decoder_layers(model, text)]


def test_albert_shared_layers_are_listed_in_the_order_its_forward_runs_them():
    """ALBERT runs num_hidden_layers steps over num_hidden_groups shared groups of inner_group_num layers: the oracle
    lists them in that order (checked on the calls transformers' forward makes); planted: the groups swapped."""
    from transformers import AlbertModel

    config = AutoConfig.for_model("albert", num_hidden_layers=4, num_hidden_groups=2, inner_group_num=2, hidden_size=32,
                                  embedding_size=16, num_attention_heads=2, intermediate_size=32, vocab_size=50)
    model = AlbertModel(config).eval()
    listed = listed_attention(model, config)
    assert len(listed) == 8 and listed == attention_calls(model, 5)
    assert listed[4:] + listed[:4] != attention_calls(model, 5)


def test_albert_is_learned_absolute_positions_like_bert():
    """ALBERT's positions are BERT's: a learned table added to the inputs, none in its attention."""
    sweep._quiet()
    rec = sweep.run_case("albert", "default", AutoConfig.for_model("albert", num_hidden_layers=2))
    assert rec["outcome"] == "no-positions" and "embeddings.position_embeddings" in rec["detail"], rec


def test_hrm_text_reads_the_layers_its_recurrent_forward_runs(tmp_path):
    """HRM runs an L and an H stack in cycles: a legacy file's num_hidden_layers is the per-stack count, which the
    class multiplies by H_cycles x (L_cycles + 1). Read so, compared with transformers' modules, and the oracle's
    order checked on the calls the forward makes; planted: the file's num_hidden_layers read as the layer count is
    caught."""
    from dataclasses import replace

    from transformers import HrmTextModel

    config = AutoConfig.for_model("hrm_text", num_hidden_layers=2, H_cycles=2, L_cycles=1, hidden_size=32,
                                  num_attention_heads=2, head_dim=16, intermediate_size=32, vocab_size=50)
    assert config.num_hidden_layers == 8 and config.num_layers_per_stack == 2
    saved(tmp_path, config, num_hidden_layers=2, num_layers_per_stack=None)  # a legacy file: the per-stack count
    scheme = resolve_scheme(f"hf:{tmp_path}")
    loaded = AutoConfig.from_pretrained(tmp_path)
    agrees(scheme, loaded)
    assert len(scheme.layers) == 8 and all(layer.causal and layer.positions.kind == "rotary" for layer in scheme.layers)
    assert any(note.startswith("hrm_text: 8 attention layers") and "prefix_lm" in note for note in scheme.notes)
    model = HrmTextModel(loaded).eval()
    assert listed_attention(model, loaded) == attention_calls(model, 5)
    short = replace(scheme, layers=scheme.layers[:2])
    bad, _ = sweep.compare(short, oracle.facts(loaded), loaded)
    assert bad


@pytest.mark.parametrize("mt,mechanism", [("blt", "byte patches"), ("perceiver", "latent attention"),
                                           ("pi0", "vision-language-action model")])
def test_a_type_refused_by_its_mechanism_says_it_once_in_a_users_words(tmp_path, mt, mechanism):
    """BLT, Perceiver and pi0: the refusal names the mechanism (not the verification tool) and the type once."""
    saved(tmp_path, AutoConfig.for_model(mt))
    with pytest.raises(ValidationError) as exc:
        resolve_scheme(f"hf:{tmp_path}")
    msg = str(exc.value)
    assert mechanism in msg and msg.count(f"model_type '{mt}'") == 1 and "tool" not in msg and "\n" not in msg, msg


def test_use_bidirectional_attention_on_a_model_whose_code_ignores_it_is_refused(tmp_path):
    """Planted: Llama's code never reads use_bidirectional_attention (it stays causal); neither reading is safe."""
    saved(tmp_path, AutoConfig.for_model("llama", num_hidden_layers=2), use_bidirectional_attention=True)
    with pytest.raises(ValidationError, match=r"use_bidirectional_attention is never read by transformers' llama code, "
                                              r"and reading it would change the positions"):
        resolve_scheme(f"hf:{tmp_path}")


def test_moshi_each_attention_with_its_own_rotary_module_is_compared_layer_by_layer(tmp_path):
    """Moshi keeps a rotary module in every attention: each layer is compared with its own; a wrong base is caught."""
    from dataclasses import replace

    config = AutoConfig.for_model("moshi", num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    facts = oracle.facts(AutoConfig.from_pretrained(tmp_path))
    assert len({fl["rotary_module"] for fl in facts["layers"]}) == 2
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    p = scheme.main.positions
    off = replace(p, params={**p.params, "base": 2 * p.params["base"]})
    wrong = replace(scheme, layers=tuple(replace(layer, positions=off) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, facts, AutoConfig.from_pretrained(tmp_path))
    assert bad


def test_molmo2_scales_only_its_rope_scaling_layers(tmp_path):
    """Molmo2: the layers of rope_scaling_layers take rope_parameters' scaling (linear x4 here); the others an
    unscaled RoPE at the same theta (its second rotary module). Planted: every layer scaled is caught."""
    from dataclasses import replace

    rope = {"rope_type": "linear", "factor": 4.0, "rope_theta": 1e6}
    config = AutoConfig.for_model("molmo2_text", num_hidden_layers=4, rope_parameters=rope, rope_scaling_layers=[0, 2])
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    facts = oracle.facts(AutoConfig.from_pretrained(tmp_path))
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert [layer.positions.encoding for layer in scheme.layers] == ["rope_pi", "rope", "rope_pi", "rope"]
    wrong = replace(scheme, layers=tuple(scheme.layers[0] for _ in scheme.layers))
    bad, _ = sweep.compare(wrong, facts, AutoConfig.from_pretrained(tmp_path))
    assert bad


def test_gemma4_bidirectional_vision_keeps_text_causal(tmp_path):
    """Gemma 4's use_bidirectional_attention 'vision' (is_causal = value != 'all'): text layers stay causal."""
    config = AutoConfig.for_model("gemma4_text", num_hidden_layers=6, use_bidirectional_attention="vision")
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert all(layer.causal for layer in scheme.layers)
    assert any(note.startswith("use_bidirectional_attention = 'vision'") for note in scheme.notes)


def test_nanochat_rotates_by_minus_theta_with_the_kernels_of_rope(tmp_path):
    """NanoChat's apply function turns each pair by -theta (rotate_half returns (x2, -x1)): read as RoPE's frequencies,
    half-split pairs, reflected (the sign the oracle evaluates on transformers' own module and apply function), with a
    note; the layer serialises and reads back with it."""
    from petheory.scheme import Positions

    config = AutoConfig.for_model("nanochat", num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    p = scheme.main.positions
    assert (p.reflected, p.params["pairing"], p.params["base"]) == (True, "half", 10000.0)
    assert any("-theta" in n for n in scheme.notes)
    assert Positions.from_dict(p.as_dict()) == p and p.as_dict()["reflected"] is True
    assert oracle.facts(config)["reflected"] is True


@pytest.mark.parametrize("mt,flip", [("nanochat", False), ("llama", True)])
def test_the_comparison_catches_the_rotation_sign_read_the_wrong_way(tmp_path, mt, flip):
    """Planted: NanoChat read at +theta, Llama read at -theta: each a misread for the tool, by the rotation's sign."""
    from dataclasses import replace

    config = AutoConfig.for_model(mt, num_hidden_layers=2)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    wrong_p = replace(scheme.main.positions, reflected=flip)
    wrong = replace(scheme, layers=tuple(replace(layer, positions=wrong_p) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "theta" in " ".join(bad), bad


GLM_ODD = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5, "mrope_section": [3, 4, 4]}


def test_glm4v_moe_odd_rotary_dimension_is_read_as_transformers_rotates_it(tmp_path):
    """GLM-4.5V's class sizes (hidden 4096 / 96 heads = 42, partial_rotary_factor 0.5: int(21)) with sections summing to
    its 11 bands, which transformers runs: it rotates the first 22 of 42 dimensions at rope_theta^(-2i/21), read as the
    22-dimensional ladder at base rope_theta^(22/21), with a note naming the fields."""
    config = AutoConfig.for_model("glm4v_moe_text", num_hidden_layers=2, rope_parameters=GLM_ODD)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    p = scheme.main.positions
    assert (p.d, p.params["rotary_dim"], p.params["pairing"], p.mrope.sections) == (42, 22, "half", (3, 4, 4))
    assert p.params["base"] == 10000.0 ** (22 / 21)
    assert any("odd rotary dimension int(42 * 0.5) = 21" in n and "partial_rotary_factor" in n for n in scheme.notes)


@pytest.mark.parametrize("wrong", ["base", "width"])
def test_the_comparison_catches_an_odd_rotary_dimension_read_otherwise(tmp_path, wrong):
    """Planted: the 21 read as 22 dimensions at rope_theta itself (the ladder's exponent 2i/22, not 2i/21), or as 20
    (the product rounded down to a pair): each a misread for the tool, by frequencies or by rotated dimensions."""
    from dataclasses import replace

    config = AutoConfig.for_model("glm4v_moe_text", num_hidden_layers=2, rope_parameters=GLM_ODD)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    p = scheme.main.positions
    params = {**p.params, "base": 10000.0} if wrong == "base" else {**p.params, "rotary_dim": 20, "base": 10000.0}
    mrope = p.mrope if wrong == "base" else replace(p.mrope, sections=(2, 4, 4))
    bad_p = replace(p, params=params, mrope=mrope)
    wrong_s = replace(scheme, layers=tuple(replace(layer, positions=bad_p) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong_s, oracle.facts(config), config)
    assert bad and ("frequencies differ" if wrong == "base" else "rotated dimensions") in " ".join(bad), bad


@pytest.mark.parametrize("mt,says", [
    ("glm4v_moe_text", "glm4v_moe_text's default mrope_section [8, 12, 12] (not in the file) sums to 32 bands"),
    ("qwen3_omni_moe_thinker", "cos/sin of width 74 for a 73-dimensional head"),
])
def test_odd_rotary_defaults_transformers_cannot_run_are_refused_saying_so(mt, says):
    """The classes' own defaults: GLM-4.5V's sections do not split its 11 bands, Qwen3-Omni's 73-wide head gets 74
    cos/sin entries; transformers' text model fails on both (checked here), and the reader's refusal says why."""
    from petheory.models.families import family
    from petheory.models.read import rope_model

    config = AutoConfig.for_model(mt)
    text = config.get_text_config()
    from _helpers import named_fields_hold

    user = {k: v for k, v in text.to_dict().items() if k in ("model_type", "hidden_size", "num_attention_heads",
                                                              "num_hidden_layers", "max_position_embeddings")}
    for cfg in (json.loads(json.dumps(text.to_dict())), user):  # as transformers saves it; as a user's file may be
        with pytest.raises(ValidationError, match=re.escape(says)) as exc:
            rope_model(cfg, text.model_type, family(text.model_type))
        assert named_fields_hold(str(exc.value), cfg) == [], str(exc.value)
    import importlib

    name = "glm4v_moe" if mt.startswith("glm") else "qwen3_omni_moe"
    mod = importlib.import_module(f"transformers.models.{name}.modeling_{name}")
    rot = (mod.Glm4vMoeTextRotaryEmbedding if mt.startswith("glm") else mod.Qwen3OmniMoeThinkerTextRotaryEmbedding)(text)
    d = text.hidden_size // text.num_attention_heads
    q = torch.zeros(1, 1, 3, d)
    with pytest.raises(RuntimeError):  # the sections' split (GLM), the 73-wide head times 74 cos entries (Qwen3-Omni)
        cos, sin = rot(q, torch.arange(3)[None])
        mod.apply_rotary_pos_emb(q, q, cos, sin)




@pytest.mark.parametrize("rope", [
    {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
     "original_max_position_embeddings": 512},
    {"rope_type": "longrope", "factor": 8.0, "original_max_position_embeddings": 512,
     "short_factor": [1.0 + 0.01 * i for i in range(11)], "long_factor": [1.0 + 0.5 * i for i in range(11)]},
], ids=["llama3", "longrope"])
def test_glm4v_moe_odd_rotary_dimension_under_scaling_equals_transformers_modules(tmp_path, rope):
    """The odd 21 under Llama 3 and LongRoPE (11 factors): the sweep's comparison (frequencies, cos/sin factor,
    rotated dimensions, sections) finds the reading equal to transformers' modules."""
    config = AutoConfig.for_model("glm4v_moe_text", num_hidden_layers=2, max_position_embeddings=4096,
                                  rope_parameters={**GLM_ODD, **rope})
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    agrees(scheme, AutoConfig.from_pretrained(tmp_path))
    assert scheme.main.positions.params["rotary_dim"] == 22 and scheme.main.positions.params["base"] == 1e4 ** (22 / 21)


#: GLM-4.5V's odd 21 under scalings petheory refuses: (rope dict, what the refusal says, whether transformers runs it)
ODD_REFUSED = [
    ({"rope_type": "dynamic", "factor": 4.0}, "dynamic NTK stretches rope_theta by s^(21/19)", True),
    ({"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024},
     "yarn ramp has 21 // 2 = 10 entries for its 11 frequencies", False),
    ({"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 1024, "short_factor": [1.0] * 10,
      "long_factor": [2.0] * 10}, "short_factor has 10 entries (21 // 2", False),
]


@pytest.mark.parametrize("rope,says,runs", ODD_REFUSED, ids=["dynamic", "yarn", "longrope-10"])
def test_odd_rotary_scalings_not_read_are_refused_saying_whether_transformers_runs_them(tmp_path, rope, says, runs):
    """Dynamic NTK on the odd 21 runs in transformers, its base stretched by s^(21/19): no ladder of 22 states that, so
    it is refused as not read; YaRN's ramp (21 // 2 entries) and LongRoPE's 21 // 2 factors do not broadcast over the
    11 frequencies, and transformers' module fails at 4096 positions (checked here): refused saying so. Each message
    names only fields of the file."""
    from _helpers import named_fields_hold

    config = AutoConfig.for_model("glm4v_moe_text", num_hidden_layers=2, max_position_embeddings=2048,
                                  rope_parameters={**GLM_ODD, **rope})
    path = saved(tmp_path, config)
    with pytest.raises(ValidationError, match=re.escape(says)) as exc:
        resolve_scheme(f"hf:{tmp_path}")
    assert ("transformers cannot run this config" in str(exc.value)) == (not runs)
    assert named_fields_hold(str(exc.value), json.loads(path.read_text())) == [], str(exc.value)
    from transformers.models.glm4v_moe import modeling_glm4v_moe as mod

    q = torch.zeros(1, 1, 4096, 42)

    def run():  # the module's construction computes the frequencies (YaRN, LongRoPE fail there)
        cos, sin = mod.Glm4vMoeTextRotaryEmbedding(config)(q, torch.arange(4096)[None])
        mod.apply_rotary_pos_emb(q, q, cos, sin)
    if runs:
        run()
    else:
        with pytest.raises(RuntimeError):
            run()


def test_nanochat_rotation_reference_states_the_angle_its_arrays_are_turned_by(tmp_path):
    """The rotation reference of a reflected layer says phi = -p * frequencies, and its arrays are that rotation (the
    formula of an unreflected layer, applied to them, misses by O(1))."""
    import numpy as np

    from petheory.analyses.rotation import rotation_reference

    saved(tmp_path, AutoConfig.for_model("nanochat", num_hidden_layers=2))
    ref = rotation_reference(resolve_scheme(f"hf:{tmp_path}"), 0, np.arange(4))
    assert "phi = -p * frequencies[t]" in ref.formula
    q, got = ref.arrays["q"][0], ref.arrays["q_rotated"][0]
    a, b, f = np.array(ref.rotated_first), np.array(ref.rotated_second), np.array(ref.frequencies)
    for sign, close in ((-1, True), (1, False)):
        phi = sign * np.arange(4)[:, None] * f[None, :]
        want = ref.cos_sin_factor * (q[:, a] * np.cos(phi) - q[:, b] * np.sin(phi))
        # float64: (|a| + |b|) * 8 roundings (cos, sin, two products, the sum, the factor) of u64, |a| + |b| < 64
        assert np.allclose(got[:, a], want, rtol=0, atol=64 * 8 * 2.0**-53) == close


def _minimax_m3_text(**kw):
    return AutoConfig.for_model("minimax_m3_vl_text", num_hidden_layers=2, **kw)


def test_minimax_m3_rotary_dim_that_disagrees_with_what_transformers_rotates_is_refused_naming_both():
    """MiniMaxM3VLTextConfig declares rotary_dim (64: "channels rotated by RoPE"), but its rotary module rotates
    int(head_dim * partial_rotary_factor) = 128 (checked on transformers' module) and nothing reads rotary_dim: the
    class's own defaults say two things, refused naming both and only fields of the file."""
    from _helpers import named_fields_hold
    from petheory.models.config import read_config
    from transformers.models.minimax_m3_vl import modeling_minimax_m3_vl as mod

    config = _minimax_m3_text()
    cos, _ = mod.MiniMaxM3VLRotaryEmbedding(config)(torch.zeros(1, 1, 3, 128), torch.arange(3)[None])
    assert (config.rotary_dim, cos.shape[-1]) == (64, 128)
    cfg = json.loads(json.dumps(config.to_dict()))
    with pytest.raises(ValidationError, match=r"rotary_dim = 64 .* disagrees .* it rotates 128 dimensions per head") as e:
        read_config(cfg)
    assert named_fields_hold(str(e.value), cfg) == [], str(e.value)


@pytest.mark.parametrize("prf,agree", [(0.5, True), (1.0, False)])
def test_minimax_m3_rotary_dim_that_agrees_is_noted_and_read_as_transformers_runs_it(prf, agree):
    """rope_parameters' partial_rotary_factor 0.5 makes transformers rotate 64 = rotary_dim: read, with a note, and equal
    to transformers' modules. Planted: 1.0 (transformers rotates 128) with the same rotary_dim is refused, so the note
    is no pass-through: the reader compares rotary_dim with what the module rotates."""
    from petheory.models.config import read_config

    config = _minimax_m3_text(rope_parameters={"rope_type": "default", "rope_theta": 5e6, "partial_rotary_factor": prf})
    cfg = json.loads(json.dumps(config.to_dict()))
    if not agree:
        with pytest.raises(ValidationError, match="disagrees"):
            read_config(cfg)
        return
    scheme = read_config(cfg)
    agrees(scheme, config)
    assert scheme.main.positions.params["rotary_dim"] == 64
    assert any("rotary_dim = 64 is not read" in n and "agrees" in n for n in scheme.notes)


@pytest.mark.parametrize("mt,text", [("t5gemma", "t5_gemma_module"), ("t5gemma2", "t5gemma2_decoder")])
def test_t5gemma_is_refused_for_its_two_rotary_stacks_not_for_its_softmax_scale(mt, text):
    """T5Gemma's attention scales by query_pre_attn_scalar^-1/2 (read for Gemma 2/3); what is not read is its encoder
    stack beside the decoder: the refusal says so. Checked on transformers' modules: both stacks apply RoPE (T5Gemma's
    encoder attention is_causal False, its decoder's True; T5Gemma 2's decoder merges its self- and cross-attention in
    one softmax over both sets of keys, its is_causal False as the mask is fused)."""
    from petheory.models.config import read_config
    config = AutoConfig.for_model(mt)
    with pytest.raises(ValidationError, match=r"encoder-decoder RoPE: an encoder stack .* decoder stack") as e:
        read_config(json.loads(json.dumps(config.to_dict())))
    assert f"model_type '{text}'" in str(e.value) and "query_pre_attn_scalar^-1/2" in str(e.value)
    model, _ = oracle.build_meta(config)
    attn = {("decoder" if n.startswith("decoder") else "encoder"): (type(m).__name__, m.is_causal)
            for n, m in model.named_modules() if n.endswith("self_attn") and type(m).__name__.startswith("T5Gemma")}
    assert set(attn) == {"encoder", "decoder"} and attn["encoder"][1] is False, attn  # (T5Gemma 2's vision: Siglip)
    assert attn["decoder"] == (("T5Gemma2MergedAttention", False) if mt == "t5gemma2" else ("T5GemmaSelfAttention", True))
    import importlib
    import inspect

    src = inspect.getsource(importlib.import_module(f"transformers.models.{mt}.modeling_{mt}"))
    for cls in {name for name, _ in attn.values()}:  # each stack's attention rotates its queries and keys
        body = src.split(f"class {cls}(")[1].split("\nclass ")[0]
        assert "apply_rotary_pos_emb(query_states, key_states, cos, sin)" in body, cls


@pytest.mark.parametrize("plant", [None, 256])
def test_glm4_moe_lite_mla_reads_qk_rope_head_dim_its_class_maps_head_dim_onto(plant):
    """Glm4MoeLiteConfig (GLM-4.7-Flash) maps head_dim onto qk_rope_head_dim (attribute_map): MLA's reader takes
    qk_rope_head_dim itself (64 rotating of a 256-wide query head, adjacent pairs as its rope_interleave), equal to
    transformers' modules. Planted misread: the 256-wide head read as rotating whole must fail the comparison."""
    from dataclasses import replace

    from petheory.models.config import read_config

    config = AutoConfig.for_model("glm4_moe_lite", num_hidden_layers=2)
    scheme = read_config(json.loads(json.dumps(config.to_dict())))
    p = scheme.main.positions
    assert (p.encoding, p.params["rope_dim"], p.d) == ("mla_rope", 64, 256)
    if plant is None:
        agrees(scheme, config)
        return
    bad_p = replace(p, params={**p.params, "rope_dim": plant})
    wrong = replace(scheme, layers=tuple(replace(layer, positions=bad_p) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "256 rotated dimensions, transformers 64" in " ".join(bad), bad


def test_doge_is_refused_for_its_content_chosen_keys_which_transformers_selects_by_bias_not_distance():
    """Doge's prepare_dynamic_mask keeps, past keep_window_size keys, the keys of largest learned bias: checked on
    transformers' module with keep_window_size 2 and a bias largest on the two farthest keys, which it keeps (a
    positional window would keep the nearest). The refusal names that mechanism and only fields of the file."""
    from _helpers import named_fields_hold
    from petheory.models.config import read_config
    from transformers.models.doge import modeling_doge as mod

    config = AutoConfig.for_model("doge", num_hidden_layers=2, keep_window_size=2)
    attn = mod.DogeAttention(config, layer_idx=0)
    bias = torch.tensor([5.0, 4.0, 0.0, -1.0, -2.0])[None, None, :]  # (batch, heads, keys): largest far back
    kept = attn.prepare_dynamic_mask(torch.zeros(1, 5, 8), bias, keep_window_size=2)[0, 0, -1]
    assert torch.isfinite(kept).tolist() == [True] * 5 and (kept > -1e30).tolist() == [True, True, False, False, False]
    cfg = json.loads(json.dumps(config.to_dict()))
    with pytest.raises(ValidationError, match=r"dynamic mask attention \(keep_window_size\).*depends on content") as e:
        read_config(cfg)
    assert named_fields_hold(str(e.value), cfg) == [], str(e.value)


def test_recurrent_gemma_is_refused_for_the_context_length_its_class_does_not_have():
    """RecurrentGemmaConfig has no max_position_embeddings (checked), and its rotary module runs at any position: the
    refusal says that, not that transformers needs the field."""
    from petheory.models.config import read_config
    from transformers.models.recurrent_gemma import modeling_recurrent_gemma as mod

    config = AutoConfig.for_model("recurrent_gemma", num_hidden_layers=3)
    assert not hasattr(config, "max_position_embeddings")
    cos, _ = mod.RecurrentGemmaRotaryEmbedding(config)(torch.zeros(1, 1, 8), torch.tensor([[10 ** 6]]))
    assert torch.isfinite(cos).all()
    with pytest.raises(ValidationError, match=r"has no context length: RecurrentGemmaConfig has no max_position_emb"):
        read_config(json.loads(json.dumps(config.to_dict())))


@pytest.mark.parametrize("plant", [False, True])
def test_kyutai_stt_rotary_module_is_found_and_its_unused_window_is_not_read(plant):
    """KyutaiSpeechToTextModel's text rotary (KyutaiSpeechToTextRotaryEmbedding: 'Speech' is the model's own name, not
    an audio module's) is compared; its layers store sliding_window (375) but mask with create_causal_mask: full
    attention, as Moshi's. Planted misread: the 375 read as a window must fail the comparison."""
    from dataclasses import replace

    from petheory.models.config import read_config
    from petheory.scheme import Span

    config = AutoConfig.for_model("kyutai_speech_to_text", num_hidden_layers=2)
    model, text = oracle.build_meta(config)
    assert [type(m).__name__ for _, m in oracle.rotary_modules(model)] == ["KyutaiSpeechToTextRotaryEmbedding"] * 2
    scheme = read_config(json.loads(json.dumps(config.to_dict())))
    assert {str(layer.span) for layer in scheme.layers} == {str(Span())} and config.sliding_window == 375
    if not plant:
        agrees(scheme, config)
        return
    wrong = replace(scheme, layers=tuple(replace(layer, span=Span("sliding", 375)) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "sliding 375" in " ".join(bad), bad


@pytest.mark.parametrize("plant", [None, "permuted", "layout"])
def test_ernie4_5_vl_3d_rope_is_read_and_the_comparison_needs_the_modules_ladder_in_band_order(plant, monkeypatch):
    """ERNIE 4.5-VL (ernie4_5_vl_moe): default RoPE of the 128-wide head, adjacent pairs, M-RoPE (h, w, t) = (22, 22, 20)
    as 'hw_alternating'; equal to transformers' modules once the oracle puts the module's permuted ladder back in band
    order. Planted: the oracle's reordering skipped (the permuted ladder: frequencies differ), or the same sections read
    as chunked (t's 20 bands first: an M-RoPE mismatch)."""
    from dataclasses import replace

    from petheory.models.config import read_config

    config = AutoConfig.for_model("ernie4_5_vl_moe")
    scheme = read_config(json.loads(json.dumps(config.to_dict())))
    p = scheme.main.positions
    assert (p.mrope.layout, p.mrope.sections, p.params["pairing"], p.d) == ("hw_alternating", (20, 22, 22),
                                                                           "interleaved", 128)
    if plant == "permuted":
        monkeypatch.setattr(oracle, "_hw_alternating", lambda entry: entry.update(mrope_section=[20, 22, 22]))
    if plant == "layout":
        p = replace(p, mrope=replace(p.mrope, layout="chunked"))
        scheme = replace(scheme, layers=tuple(replace(layer, positions=p) for layer in scheme.layers))
    bad, unknown = sweep.compare(scheme, oracle.facts(config), config)
    assert not unknown, unknown
    if plant is None:
        assert not bad, bad
    else:
        assert bad and ("frequencies differ" if plant == "permuted" else "M-RoPE") in " ".join(bad), bad


def test_ernie4_5_vl_refuses_what_transformers_cannot_run():
    """Its rotary module raises on any rope type but default, and stacks h with w: unequal counts fail (checked)."""
    from petheory.models.config import read_config
    from transformers.models.ernie4_5_vl_moe import modeling_ernie4_5_vl_moe as mod

    for rope, says in (({"rope_type": "linear", "factor": 2.0}, "runs the default rope type only"),
                       ({"mrope_section": [20, 24, 20]}, "counts must be equal")):
        config = AutoConfig.for_model("ernie4_5_vl_moe")
        config.text_config.rope_parameters = {**config.text_config.rope_parameters, **rope}
        cfg = json.loads(json.dumps(config.to_dict()))
        with pytest.raises(ValidationError, match=says):
            read_config(cfg)
        with pytest.raises((ValueError, RuntimeError)):
            emb = mod.Ernie4_5_VLMoeTextRotaryEmbedding(config.text_config)
            emb(torch.zeros(1, 3, 128), torch.arange(3)[None])
