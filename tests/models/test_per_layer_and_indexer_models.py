"""Model types read since issue 55 part C: per-layer settings (``per_layer_config``) and indexed attention.

Each config is built by transformers' own configuration class, saved with ``save_pretrained``, read back through
petheory's loader (``resolve_scheme("hf:DIR")``, the verification gate included) and compared layer by layer with the
modules transformers builds from the same file (tools/verify/oracle.py on the meta device, tools/verify/sweep.py's
``compare``). Each reading has a planted misread beside it that the comparison must catch.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from petheory.loaders import resolve_scheme

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from tools.verify import oracle, sweep  # noqa: E402
from transformers import AutoConfig  # noqa: E402


def saved(tmp_path, config, **edit):
    """``config`` saved by transformers, its config.json then edited (``edit``) as a published file differs."""
    config.save_pretrained(tmp_path)
    path = tmp_path / "config.json"
    doc = json.loads(path.read_text())
    doc.update(edit)
    path.write_text(json.dumps(doc))
    return doc


def compared(scheme, config):
    """(what differs, what the tool could not check) between ``scheme`` and transformers' modules of ``config``."""
    return sweep.compare(scheme, oracle.facts(config), config)


def with_layers(scheme, layer_of):
    """``scheme`` with layer i replaced by ``layer_of(i, layer)``: a planted misread."""
    return replace(scheme, layers=tuple(layer_of(i, layer) for i, layer in enumerate(scheme.layers)))


# ----------------------------------------------------------------------------- Gemma 4 unified: per_layer_config


def test_gemma4_unified_full_layers_take_their_per_layer_head_dim(tmp_path):
    """Gemma4UnifiedTextConfig derives per_layer_config = {full layer: {head_dim: global_head_dim}} (as Gemma 4's): the
    full layers are 512 wide with proportional RoPE over a quarter of the head at 1e6, the sliding ones 256 wide at
    1e4 within a 1024-token window; the file transformers saves is read as its modules run it."""
    doc = saved(tmp_path, AutoConfig.for_model("gemma4_unified_text", num_hidden_layers=6))
    assert doc["per_layer_config"] == {"5": {"head_dim": 512}}  # the class wrote it: it is in the file
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    got = [(layer.type, layer.positions.d, layer.positions.params.get("rotary_dim", layer.positions.d),
            layer.positions.proportional, layer.span.size) for layer in scheme.layers]
    assert got == [("sliding_attention", 256, 256, False, 1024)] * 5 + [("full_attention", 512, 128, True, None)]
    # proportional RoPE: rope_theta on the whole head's ladder cut to its first bands = base theta^(r/d) on r dims
    assert scheme.layers[0].positions.params["base"] == 1e4
    assert scheme.layers[-1].positions.params["base"] == pytest.approx(1e6 ** (128 / 512), rel=4e-16)


def test_gemma4_unified_read_without_its_per_layer_head_dim_is_caught(tmp_path):
    """Planted: the full layer read at the global head_dim (per_layer_config dropped) is a misread for the tool."""
    saved(tmp_path, AutoConfig.for_model("gemma4_unified_text", num_hidden_layers=6))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    narrow = replace(scheme.layers[-1].positions, d=256)
    wrong = with_layers(scheme, lambda i, layer: replace(layer, positions=narrow) if i == 5 else layer)
    bad, _ = compared(wrong, AutoConfig.from_pretrained(tmp_path))
    assert bad and "head" in " ".join(bad), bad


@pytest.mark.parametrize("mt", ["gemma4_unified", "gemma4_unified_assistant"])
def test_gemma4_unified_wrappers_read_their_text_config(tmp_path, mt):
    """The any-to-any model and its assistant hold the text model in text_config (the assistant's class shares every
    layer's keys and values with the target's: content, not positions)."""
    saved(tmp_path, AutoConfig.for_model(mt, text_config={"model_type": "gemma4_unified_text", "num_hidden_layers": 6}))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    assert scheme.source == "gemma4_unified_text" and [layer.positions.d for layer in scheme.layers] == [256] * 5 + [512]


# ----------------------------------------------------------------------------- NeoMME: a window per layer


def test_neomme_reads_each_layers_window_and_its_layer_types_rope(tmp_path):
    """NeoMMEConfig derives per_layer_config: full layers no window, every second sliding layer 1024 instead of
    sliding_window (256); a bidirectional encoder whose attention keeps W + 1 (|i - j| <= W); full layers rotate a
    quarter of the head at 1e6, sliding ones all of it at 1e4."""
    doc = saved(tmp_path, AutoConfig.for_model("neomme", num_hidden_layers=8))
    assert doc["per_layer_config"]["1"] == {"sliding_window": 1024} and "0" not in doc["per_layer_config"]
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    assert [layer.span.size for layer in scheme.layers] == [257, 1025, 257, 1025, 257, None, 1025, None]
    assert not any(layer.causal for layer in scheme.layers)
    full, sliding = scheme.layers[5].positions, scheme.layers[0].positions
    assert (full.params["rotary_dim"], full.params["base"], sliding.params.get("rotary_dim"), sliding.params["base"]) \
        == (16, 1e6, None, 1e4)


def test_neomme_transformers_4_file_without_derived_fields_is_read_as_its_class_derives_them(tmp_path):
    """A file with a top-level rope_theta and neither layer_types nor per_layer_config: the class derives both and
    gives every layer type that theta (the per-type partial rotary kept)."""
    config = AutoConfig.for_model("neomme", num_hidden_layers=8)
    config.save_pretrained(tmp_path)
    doc = json.loads((tmp_path / "config.json").read_text())
    for key in ("per_layer_config", "layer_types", "rope_parameters"):
        doc.pop(key)
    doc["rope_theta"] = 500000.0
    (tmp_path / "config.json").write_text(json.dumps(doc))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    assert {layer.positions.params["base"] for layer in scheme.layers} == {500000.0}
    assert [layer.span.size for layer in scheme.layers] == [257, 1025, 257, 1025, 257, None, 1025, None]


@pytest.mark.parametrize("wrong", ["window", "rotary"])
def test_neomme_read_with_one_window_or_one_rope_is_caught(tmp_path, wrong):
    """Planted: every sliding layer at the global window (per_layer_config dropped), or the full layers rotating the
    whole head: each a misread for the tool."""
    saved(tmp_path, AutoConfig.for_model("neomme", num_hidden_layers=8))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    if wrong == "window":
        plant = with_layers(scheme, lambda i, layer: replace(layer, span=scheme.layers[0].span)
                            if layer.type == "sliding_attention" else layer)
    else:
        whole = replace(scheme.layers[5].positions, params={"base": 1e6, "pairing": "half"})
        plant = with_layers(scheme, lambda i, layer: replace(layer, positions=whole)
                            if layer.type == "full_attention" else layer)
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and ("window" if wrong == "window" else "rotated") in " ".join(bad), bad


@pytest.mark.parametrize("edit,says", [
    ({"per_layer_config": {"1": {"sliding_window": 1024}}}, "gives full-attention layer 5 no sliding_window: null"),
    ({"per_layer_config": {"0": {"head_dim": 32}}}, "per_layer_config.0.head_dim is not read per layer by neomme"),
    ({"per_layer_config": {"1": {"sliding_window": None}}}, "leaves sliding layer 1 without a window"),
])
def test_neomme_per_layer_settings_its_code_cannot_run_as_read_are_refused_naming_the_file_fields(tmp_path, edit,
                                                                                                    says):
    """A full layer left with the global window (its mask slides, its attention module says full), a per-layer field
    NeoMME's code reads from the global config, a sliding layer without a window (transformers fails): refused, each
    message naming only fields the file holds."""
    from petheory.errors import ValidationError

    from _helpers import named_fields_hold

    doc = saved(tmp_path, AutoConfig.for_model("neomme", num_hidden_layers=8), **edit)
    with pytest.raises(ValidationError, match=re.escape(says)) as err:
        resolve_scheme(f"hf:{tmp_path}")
    assert not named_fields_hold(str(err.value), doc)


def test_gemma4_unified_head_dims_that_differ_within_a_layer_type_are_refused_as_transformers_fails(tmp_path):
    """Gemma 4's rotary module reads per_layer_config[layer type]: two full layers of different head_dim make
    transformers raise (checked here), and the reader refuses it saying why, naming the file's field."""
    from petheory.errors import ValidationError

    from _helpers import named_fields_hold

    doc = saved(tmp_path, AutoConfig.for_model("gemma4_unified_text", num_hidden_layers=12),
                per_layer_config={"05": {"head_dim": 512}, "11": {"head_dim": 256 + 128}})
    with pytest.raises(ValueError, match="not homogeneous"):
        oracle.facts(AutoConfig.from_pretrained(tmp_path))
    with pytest.raises(ValidationError, match="gives full_attention layer 11 other settings than full_attention "
                                              "layer 5") as err:
        resolve_scheme(f"hf:{tmp_path}")
    assert not named_fields_hold(str(err.value), doc)


# ----------------------------------------------------------------------------- indexed attention (DSA)


@pytest.mark.parametrize("mt", ["hy_v4", "hy_v4_vl_text"])
def test_hy_v4_indexed_layers_are_mla_with_sinks(tmp_path, mt):
    """HY-V4's indexed_attention layers: MLA's positions (64 rotary of 256 query/key dimensions, half-split pairs;
    the vision-language text model adjacent pairs under interleaved M-RoPE sections [12, 10, 10]), learned sinks, and
    a note describing the indexer's own rotary dimensions."""
    saved(tmp_path, AutoConfig.for_model(mt, num_hidden_layers=2))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    p = scheme.main.positions
    assert [layer.type for layer in scheme.layers] == ["indexed_attention"] * 2 and scheme.main.sinks
    assert (p.encoding, p.params["rope_dim"], p.d) == ("mla_rope", 64, 256)
    vl = mt == "hy_v4_vl_text"
    assert p.params["pairing"] == ("interleaved" if vl else "half")
    assert (p.mrope.sections, p.mrope.layout) == ((12, 10, 10), "interleaved") if vl else p.mrope is None
    assert any("whose last qk_rope_head_dim = 64 dimensions" in n for n in scheme.notes)


def test_hy_v4_vl_read_with_half_split_pairs_or_without_its_sections_is_caught(tmp_path):
    """Planted: HY-V4-VL's MLA read with half-split pairs, or without its M-RoPE sections: misreads for the tool."""
    saved(tmp_path, AutoConfig.for_model("hy_v4_vl_text", num_hidden_layers=2))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    p = scheme.main.positions
    for wrong_p, says in ((replace(p, params={**p.params, "pairing": "half"}), "pairing"),
                          (replace(p, mrope=None), "M-RoPE")):
        bad, _ = compared(with_layers(scheme, lambda i, layer: replace(layer, positions=wrong_p)),
                          AutoConfig.from_pretrained(tmp_path))
        assert bad and says in " ".join(bad), bad


def indexer_layout(mt: str) -> tuple:
    """(which end of the indexer's head rotates, its pairing) as transformers' ``<Model>Indexer.forward`` of ``mt``
    runs it: the split of q read from its code, the pairing evaluated on the function it calls with the model's own
    rotary module's cos/sin (e_0 at position 1 against e_j at position 0: nonzero for j = 0's partner only)."""
    import ast
    import inspect
    import textwrap

    config = AutoConfig.for_model(mt, num_hidden_layers=2)
    model, text = oracle.build_meta(config)
    mod = oracle.modeling_module(model)
    indexer = next(getattr(mod, n) for n in dir(mod) if n.endswith("Indexer"))
    tree = ast.parse(textwrap.dedent(inspect.getsource(indexer.forward)))
    split, apply = None, None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and ast.unparse(node.value.func) == \
                "torch.split" and ast.unparse(node.value.args[0]) == "q" and isinstance(node.targets[0], ast.Tuple):
            split = [ast.unparse(e) for e in node.targets[0].elts]
        if isinstance(node, ast.Call) and oracle.ROTARY_CALL.search(ast.unparse(node.func)):
            apply = getattr(mod, ast.unparse(node.func))
    where = {("q_rot", "q_pass"): "first", ("q_pass", "q_rot"): "last"}[tuple(split)]
    emb = oracle._rebuild(oracle.rotary_modules(model)[0][1], text)
    typed = "layer_type" in inspect.signature(emb.forward).parameters  # dots.llm3: cos/sin per layer type
    cos, sin = emb(torch.zeros(1, 2, 8), torch.tensor([[0, 1]]), **({"layer_type": "indexed_attention"} if typed else {}))
    r = cos.shape[-1]
    q = torch.eye(r)[None, None].repeat(1, 2, 1, 1)  # (B, S, H, r): head j holds e_j at both positions
    out = apply(q, q.clone(), cos.float(), sin.float(), unsqueeze_dim=2)[0]
    partner = [j for j in range(1, r) if abs(float(out[0, 1, 0] @ out[0, 0, j])) > 1e-6]
    return where, {(r // 2,): "half", (1,): "interleaved"}[tuple(partner)]


@pytest.mark.parametrize("mt", sorted(__import__("petheory.models.bias", fromlist=["x"]).INDEXER_LAYOUT))
def test_each_indexers_rotary_layout_is_the_one_its_code_runs(mt):
    """The indexer note's table (which end of its head rotates, in which pairs) against transformers' Indexer."""
    from petheory.models.bias import INDEXER_LAYOUT

    assert indexer_layout(mt) == INDEXER_LAYOUT[mt]


def test_a_wrong_indexer_layout_is_caught_by_that_comparison():
    """Planted: GLM-5's indexer (adjacent pairs) and HY-V4's (the last dimensions) written as DeepSeek-V3.2's."""
    assert indexer_layout("glm_moe_dsa") != ("first", "half")
    assert indexer_layout("hy_v4") != ("first", "half")


def test_mistral_large4_is_refused_naming_its_learned_positions(tmp_path):
    """Mistral Large 4 scales every inverse frequency by exp(alpha), alpha a learned parameter of its rotary module
    (checked on transformers' module), and its queries by a learned per-head log-position factor: the config states
    neither, so it is refused saying so, never read at the config's frequencies."""
    from petheory.errors import ValidationError

    config = AutoConfig.for_model("mistral_large4_text", num_hidden_layers=2)
    model, text = oracle.build_meta(config)
    rotary = oracle.rotary_modules(model)[0][1]
    assert "alpha" in dict(rotary.named_parameters())
    saved(tmp_path, config)
    with pytest.raises(ValidationError, match=r"exp\(alpha\), alpha a learned weight per band"):
        resolve_scheme(f"hf:{tmp_path}")


def test_the_comparison_will_not_pass_a_rotary_module_with_learned_frequencies(tmp_path):
    """Planted: Mistral Large 4 read at its config's frequencies (as an MLA family: the buffers transformers keeps
    agree) is not a pass for the tool: its rotary module's learned alpha is reported as unverifiable."""
    from petheory.models.bias import mla_model

    config = AutoConfig.for_model("mistral_large4_text", num_hidden_layers=2)
    doc = saved(tmp_path, config)
    scheme = mla_model({k: v for k, v in doc.items() if k != "layer_types"}, "deepseek_v3")
    scheme = replace(scheme, layers=tuple(replace(layer, type="indexed_attention") for layer in scheme.layers))
    _, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert any("learned parameters ['alpha']" in u for u in unknown), unknown


# ----------------------------------------------------------------------------- ZAYA: layer types of its own names


ZAYA_TYPES = ["hybrid", "hybrid_sliding", "hybrid", "hybrid_sliding"]


def test_zaya_hybrid_layers_are_attention_with_their_own_rope_per_type(tmp_path):
    """ZAYA's hybrid layers attend causally over everything, its hybrid_sliding ones within sliding_window, each type
    rotating half the head at its own theta (rope_parameters keyed by those names; the hub's stray top-level
    rope_type removed as its class does)."""
    config = AutoConfig.for_model("zaya", num_hidden_layers=4, layer_types=ZAYA_TYPES, sliding_window=512)
    doc = saved(tmp_path, config)
    saved(tmp_path, config, rope_parameters={**doc["rope_parameters"], "rope_type": "default"})
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    got = [(layer.type, layer.positions.params["base"], layer.positions.params["rotary_dim"], layer.span.size)
           for layer in scheme.layers]
    assert got == [("hybrid", 5e6, 64, None), ("hybrid_sliding", 1e4, 64, 512)] * 2
    assert any("CCA" in n for n in scheme.notes)


@pytest.mark.parametrize("wrong", ["theta", "span"])
def test_zaya_sliding_layers_read_as_the_hybrid_ones_is_caught(tmp_path, wrong):
    """Planted: hybrid_sliding layers at the hybrid layers' theta, or without their window: misreads for the tool."""
    config = AutoConfig.for_model("zaya", num_hidden_layers=4, layer_types=ZAYA_TYPES, sliding_window=512)
    saved(tmp_path, config)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    first = scheme.layers[0]
    plant = with_layers(scheme, lambda i, layer: layer if layer.type == "hybrid" else (
        replace(layer, positions=first.positions) if wrong == "theta" else replace(layer, span=first.span)))
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and ("frequenc" if wrong == "theta" else "window") in " ".join(bad), bad


# ----------------------------------------------------------------------------- Unlimited-OCR: reference sliding


def test_unlimited_ocr_reference_sliding_layers_are_causal_full_attention_over_a_prompt(tmp_path):
    """Reference sliding attention masks a key out only once it is a generated token older than sliding_window (the
    prefill stays visible); one forward pass over a prompt is causal full attention, which the attention module runs
    (no window of its own): read so, with a note that says what generation adds."""
    saved(tmp_path, AutoConfig.for_model("unlimited_ocr", text_config={"num_hidden_layers": 2}))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    assert [(layer.type, layer.span.kind) for layer in scheme.layers] == [("reference_sliding_attention", "full")] * 2
    assert any("last sliding_window = 128" in n for n in scheme.notes)


def test_unlimited_ocr_read_as_a_plain_sliding_window_is_caught(tmp_path):
    """Planted: its layers read as sliding windows of sliding_window = 128: a misread for the tool."""
    from petheory.scheme import Span

    saved(tmp_path, AutoConfig.for_model("unlimited_ocr", text_config={"num_hidden_layers": 2}))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    plant = with_layers(scheme, lambda i, layer: replace(layer, span=Span("sliding", 128)))
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and "window" in " ".join(bad), bad


# ----------------------------------------------------------------------------- DeepSeek-V4: refused, saying why


def test_deepseek_v4_is_refused_naming_its_compressed_attention(tmp_path):
    """DeepSeek-V4's layers attend over block-compressed KV entries (compressor modules in transformers' model,
    checked here) besides a sliding window: refused naming that mechanism, not a field its file may lack."""
    from petheory.errors import ValidationError

    config = AutoConfig.for_model("deepseek_v4", num_hidden_layers=2)
    model, _ = oracle.build_meta(config)
    assert "DeepseekV4HCACompressor" in {type(m).__name__ for m in model.modules()}
    saved(tmp_path, config)
    with pytest.raises(ValidationError, match=r"attention over compressed blocks, which petheory's scheme") as err:
        resolve_scheme(f"hf:{tmp_path}")
    assert "config field" not in str(err.value)


# ----------------------------------------------------------------------------- Step 3.7: rope per layer from lists


STEP_TEXT = {"num_hidden_layers": 4, "num_nextn_predict_layers": 1, "sliding_window": 512,
             "layer_types": ["full_attention", "sliding_attention", "sliding_attention", "full_attention",
                             "full_attention"],
             "rope_theta": [5e6, 1e4, 1e4, 5e6, 5e6], "partial_rotary_factors": [0.5, 1.0, 1.0, 0.5, 0.5],
             "num_sliding_attention_heads": 32, "query_pre_attn_scalar": 96}


def _step_file(tmp_path, raw: bool):
    """Step 3.7 with a hub-style text_config (lists padded by one MTP entry, a theta and a partial rotary factor per
    layer): written as is (``raw``, what its class converts) or as transformers saves it."""
    if raw:
        config = AutoConfig.for_model("step3p7")
        config.save_pretrained(tmp_path)
        doc = json.loads((tmp_path / "config.json").read_text())
        doc["text_config"] = {**{k: v for k, v in doc["text_config"].items() if k not in (
            "rope_parameters", "layer_types", "mlp_layer_types", "per_layer_config")}, **STEP_TEXT}
        (tmp_path / "config.json").write_text(json.dumps(doc))
        return doc
    return saved(tmp_path, AutoConfig.for_model("step3p7", text_config=dict(STEP_TEXT)))


@pytest.mark.parametrize("raw", [True, False])
def test_step3p7_rotates_each_layer_type_as_its_class_builds_it_from_per_layer_lists(tmp_path, raw):
    """Step3p7TextConfig cuts the MTP entry off its per-layer lists and builds rope_parameters per layer type from
    each type's first layer (full: half the head at 5e6; sliding: all of it at 1e4, within sliding_window); its softmax
    scale is query_pre_attn_scalar^-1/2 and its sliding layers' head count comes from per_layer_config (content)."""
    _step_file(tmp_path, raw)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    got = [(layer.type, layer.positions.params["base"], layer.positions.params.get("rotary_dim", 128), layer.span.size)
           for layer in scheme.layers]
    assert got == [("full_attention", 5e6, 64, None), ("sliding_attention", 1e4, 128, 512),
                   ("sliding_attention", 1e4, 128, 512), ("full_attention", 5e6, 64, None)]
    assert scheme.main.positions.logit_factor == pytest.approx((128 / 96) ** 0.5, rel=4e-16)


@pytest.mark.parametrize("wrong", ["theta", "scale"])
def test_step3p7_read_at_one_theta_or_at_the_head_dims_scale_is_caught(tmp_path, wrong):
    """Planted: the sliding layers at the full layers' theta, or every layer at d^-1/2: misreads for the tool."""
    _step_file(tmp_path, raw=False)
    scheme = resolve_scheme(f"hf:{tmp_path}")
    if wrong == "theta":
        plant = with_layers(scheme, lambda i, layer: replace(layer, positions=replace(
            layer.positions, params={**layer.positions.params, "base": 5e6})))
    else:
        plant = with_layers(scheme, lambda i, layer: replace(layer, positions=replace(layer.positions, logit_factor=1.0)))
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and ("frequenc" if wrong == "theta" else "scal") in " ".join(bad), bad


# ----------------------------------------------------------------------------- MLA pairing: the attention's own apply


@pytest.mark.parametrize("mt", ["deepseek_v32", "axk2"])
def test_deepseek_v32_mla_rotates_adjacent_pairs_as_its_attention_does(tmp_path, mt):
    """DeepSeek-V3.2's and A.X K2's attention call apply_rotary_pos_emb_interleave whatever rope_interleave says (their
    module's apply_rotary_pos_emb is the indexer's, half-split): petheory read them as half-split pairs, and the
    oracle, evaluating the module-level apply_rotary_pos_emb, agreed. Regression: read as adjacent pairs, and the
    oracle evaluates the function the attention calls."""
    saved(tmp_path, AutoConfig.for_model(mt, num_hidden_layers=2))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    config = AutoConfig.from_pretrained(tmp_path)
    bad, unknown = compared(scheme, config)
    assert not bad and not unknown, (bad, unknown)
    assert scheme.main.positions.params["pairing"] == "interleaved"
    half = replace(scheme.main.positions, params={**scheme.main.positions.params, "pairing": "half"})
    bad, _ = compared(with_layers(scheme, lambda i, layer: replace(layer, positions=half)), config)
    assert bad and "pairing" in " ".join(bad), bad


# ----------------------------------------------------------------------------- dots.llm3: MLA per layer type


def test_dots3_mla_sliding_and_indexed_layers_take_their_own_rope_width_and_window(tmp_path):
    """dots.llm3's MLA: indexed layers at theta 8e7, sliding ones at 5e4 within sliding_window = 512, both rotating
    qk_rope_head_dim = 64 dimensions in adjacent pairs; per_layer_config gives the sliding layers 192 unrotated
    dimensions (so a 256-wide query/key head and its own softmax scale) instead of 128."""
    saved(tmp_path, AutoConfig.for_model("dots3_note_text", num_hidden_layers=4))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    got = [(layer.type, layer.positions.params["base"], layer.positions.d, layer.span.size,
            layer.positions.params["pairing"]) for layer in scheme.layers]
    assert got == [("indexed_attention", 8e7, 192, None, "interleaved"), ("indexed_attention", 8e7, 192, None,
                   "interleaved"), ("sliding_attention", 5e4, 256, 512, "interleaved"),
                   ("sliding_attention", 5e4, 256, 512, "interleaved")]


@pytest.mark.parametrize("wrong", ["width", "theta"])
def test_dots3_sliding_layers_read_with_the_global_head_or_theta_are_caught(tmp_path, wrong):
    """Planted: the sliding layers without their per_layer_config width (192 wide), or at the indexed layers'
    theta: misreads for the tool."""
    saved(tmp_path, AutoConfig.for_model("dots3_note_text", num_hidden_layers=4))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    first = scheme.layers[0].positions
    plant = with_layers(scheme, lambda i, layer: layer if layer.type != "sliding_attention" else replace(
        layer, positions=replace(layer.positions, d=first.d) if wrong == "width" else replace(
            layer.positions, params={**layer.positions.params, "base": first.params["base"]})))
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and ("head" if wrong == "width" else "frequenc") in " ".join(bad), bad


# ----------------------------------------------------------------------------- LongCat-Flash: two MLA per layer


def test_longcat_flash_reads_two_mla_sublayers_per_decoder_layer(tmp_path):
    """LongCat-Flash runs two MLA sublayers in each of its num_layers decoder layers (its class's num_hidden_layers is
    2 x num_layers, not in its file): one attention layer each, adjacent pairs, queries times sqrt(hidden_size /
    q_lora_rank) (in the logit factor: every logit scales with it)."""
    doc = saved(tmp_path, AutoConfig.for_model("longcat_flash", num_layers=2))
    assert "num_hidden_layers" not in doc
    scheme = resolve_scheme(f"hf:{tmp_path}")
    bad, unknown = compared(scheme, AutoConfig.from_pretrained(tmp_path))
    assert not bad and not unknown, (bad, unknown)
    p = scheme.main.positions
    assert len(scheme.layers) == 4 and p.params["pairing"] == "interleaved"
    assert p.logit_factor == pytest.approx((doc["hidden_size"] / doc["q_lora_rank"]) ** 0.5, rel=4e-16)


@pytest.mark.parametrize("mt,kw", [("longcat_flash", {"num_layers": 2}), ("dots3_note_text", {"num_hidden_layers": 4})])
def test_an_mla_read_without_its_query_scale_is_caught(tmp_path, mt, kw):
    """Planted: LongCat-Flash's or dots.llm3's logit factor without the query's sqrt(hidden_size / q_lora_rank)."""
    saved(tmp_path, AutoConfig.for_model(mt, **kw))
    scheme = resolve_scheme(f"hf:{tmp_path}")
    plant = with_layers(scheme, lambda i, layer: replace(layer, positions=replace(layer.positions, logit_factor=1.0)))
    bad, _ = compared(plant, AutoConfig.from_pretrained(tmp_path))
    assert bad and "scal" in " ".join(bad), bad
