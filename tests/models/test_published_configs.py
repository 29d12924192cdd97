"""Published config.json files, as the hub ships them, are read as transformers' configuration classes load them.

Each fixture of tests/data/hf_configs (see its README) is copied as is into a model folder, resolved through petheory's
loader (the verification gate included) and compared layer by layer with the modules transformers builds from the
same file (tools/verify/oracle.py on the meta device; tools/verify/sweep.py's ``compare``: head size, softmax scale,
window, NoPE-ness, sinks, temperature, rotated dimensions, frequencies to (|ln base| + 12) u32, cos/sin factor,
pairing). What the class does beyond the file is what these files exercise: Bamba's ``__post_init__`` fixes
partial_rotary_factor = 0.5, Gemma 2's files restate the window as ``sliding_window_size``, Hunyuan's "dynamic" rope
dict with an alpha is rope type ``ntk_alpha``, Ministral 3 scales queries by ``llama_4_scaling_beta``, DeepSeek-V3.2's
class derives ``indexed_attention`` layers. A file that says something other than what transformers runs is refused,
naming the fields.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from petheory.errors import ValidationError
from petheory.loaders import resolve_scheme

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from tools.verify import oracle, sweep  # noqa: E402
from transformers import AutoConfig  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
U32 = 2.0**-24
PUBLISHED = ["gemma2_9b", "bamba_9b", "hunyuan_a13b", "ministral3_8b", "deepseek_v3_2_exp", "glm4_1v_9b_thinking",
             "glm4_5v", "qwen3_omni_30b_a3b_thinker"]


def folder(tmp_path, name, **edit):
    """The fixture ``name`` as a model folder, its top level (or its text_config: ``text__KEY``) edited."""
    doc = json.loads((DATA / f"{name}.json").read_text())
    for key, val in edit.items():
        where = doc["text_config"] if key.startswith("text__") else doc
        key = key.removeprefix("text__")
        if val is None:
            where.pop(key, None)
        else:
            where[key] = val
    (tmp_path / "config.json").write_text(json.dumps(doc))
    return tmp_path


def agrees(scheme, path):
    sweep._quiet()
    config = AutoConfig.from_pretrained(path)
    bad, unknown = sweep.compare(scheme, oracle.facts(config), config)
    assert not bad and not unknown, (bad, unknown)
    return config


@pytest.mark.parametrize("name", PUBLISHED)
def test_published_file_is_read_and_equals_transformers(tmp_path, name):
    shutil.copy(DATA / f"{name}.json", tmp_path / "config.json")
    agrees(resolve_scheme(f"hf:{tmp_path}"), tmp_path)


def test_bamba_rotates_half_of_each_head_as_its_class_fixes_it(tmp_path):
    """BambaConfig.__post_init__: partial_rotary_factor = 0.5; the file's attn_rotary_emb (64) says the same."""
    scheme = resolve_scheme(f"hf:{folder(tmp_path, 'bamba_9b')}")
    att = [layer for layer in scheme.layers if layer.type == "full_attention"]
    assert [i for i, layer in enumerate(scheme.layers) if layer.type == "full_attention"] == [9, 18, 27]
    assert {layer.positions.params["rotary_dim"] for layer in att} == {64} and att[0].positions.d == 128
    assert any("attn_rotary_emb = 64" in n and "agrees" in n for n in scheme.notes)


def test_bamba_attn_rotary_emb_that_disagrees_with_what_transformers_rotates_is_refused(tmp_path):
    path = folder(tmp_path, "bamba_9b", attn_rotary_emb=128)
    assert AutoConfig.from_pretrained(path).rope_parameters["partial_rotary_factor"] == 0.5  # transformers: 64 of 128
    with pytest.raises(ValidationError, match=r"attn_rotary_emb = 128 .*rotates 64 dimensions per head"):
        resolve_scheme(f"hf:{path}")


def test_bamba_top_level_partial_rotary_factor_replaced_by_its_class_is_refused(tmp_path):
    path = folder(tmp_path, "bamba_9b", attn_rotary_emb=None, partial_rotary_factor=1.0)
    assert AutoConfig.from_pretrained(path).rope_parameters["partial_rotary_factor"] == 0.5  # the class overrides it
    with pytest.raises(ValidationError, match=r"partial_rotary_factor = 1.0: .*replaces it with 0.5"):
        resolve_scheme(f"hf:{path}")


def test_gemma2_sliding_window_size_that_agrees_is_noted(tmp_path):
    scheme = resolve_scheme(f"hf:{folder(tmp_path, 'gemma2_9b')}")
    assert {layer.span.size for layer in scheme.layers if layer.type == "sliding_attention"} == {4096}
    assert any("sliding_window_size = 4096" in n and "agrees" in n for n in scheme.notes)


def test_gemma2_restated_window_beside_another_unread_field_is_still_read(tmp_path):
    """max_window_layers is never read by gemma2's code and changes nothing: noted, as the restated window is."""
    scheme = resolve_scheme(f"hf:{folder(tmp_path, 'gemma2_9b', max_window_layers=21)}")
    assert any("never reads them" in n and "max_window_layers" in n for n in scheme.notes)


def test_gemma2_sliding_window_size_that_disagrees_is_refused_naming_both(tmp_path):
    with pytest.raises(ValidationError, match=r"sliding_window_size = 2048 .*sliding_window = 4096"):
        resolve_scheme(f"hf:{folder(tmp_path, 'gemma2_9b', sliding_window_size=2048)}")


def test_hunyuan_dynamic_with_alpha_is_ntk_alpha_at_a_stretched_base(tmp_path):
    """transformers: base = rope_theta * alpha^(d / (d - 2)), d = head_dim = 128, fixed (not length-dependent)."""
    path = folder(tmp_path, "hunyuan_a13b")
    p = resolve_scheme(f"hf:{path}").main.positions
    assert p.encoding == "rope"
    assert p.params["base"] == pytest.approx(1e4 * 1000.0 ** (128 / 126), rel=1e-15)
    config = agrees(resolve_scheme(f"hf:{path}"), path)
    assert config.rope_parameters["rope_type"] == "dynamic"  # labelled dynamic; its rotary module runs ntk_alpha


def test_hunyuan_dynamic_without_factor_is_refused_as_transformers_refuses_it(tmp_path):
    path = folder(tmp_path, "hunyuan_a13b", rope_scaling={"type": "dynamic", "alpha": 1000.0})
    with pytest.raises(KeyError, match="factor"):
        AutoConfig.from_pretrained(path)
    with pytest.raises(ValidationError, match=r"rope_scaling\.factor is missing"):
        resolve_scheme(f"hf:{path}")


def test_ministral3_query_scale_equals_transformers_get_llama_4_attn_scale(tmp_path):
    from transformers.models.ministral3.modeling_ministral3 import get_llama_4_attn_scale

    scheme = resolve_scheme(f"hf:{folder(tmp_path, 'ministral3_8b')}")
    temps = [layer.temperature for layer in scheme.layers]
    assert len(temps) == 34 and all(t == temps[0] for t in temps) and temps[0].kind == "llama4_beta"
    pos = np.array([0, 1, 16383, 16384, 16385, 3 * 16384, 10**6])
    hf = get_llama_4_attn_scale(torch.from_numpy(pos[None]), 0.1, 16384).flatten().double().numpy()
    ours = temps[0].at(pos)
    assert np.all(np.abs(ours - hf) <= 8 * U32 * hf)  # transformers computes floor, log, product in float32


def test_ministral3_without_its_beta_is_refused(tmp_path):
    rope = json.loads((DATA / "ministral3_8b.json").read_text())["text_config"]["rope_parameters"]
    rope.pop("llama_4_scaling_beta")
    with pytest.raises(ValidationError, match=r"llama_4_scaling_beta is missing"):
        resolve_scheme(f"hf:{folder(tmp_path, 'ministral3_8b', text__rope_parameters=rope)}")


def test_deepseek_v32_indexed_layers_are_mla_with_the_indexer_described(tmp_path):
    path = folder(tmp_path, "deepseek_v3_2_exp")
    scheme = resolve_scheme(f"hf:{path}")
    assert "layer_types" not in json.loads((path / "config.json").read_text())  # the class derives it
    assert AutoConfig.from_pretrained(path).layer_types[0] == "indexed_attention"
    assert {layer.type for layer in scheme.layers} == {"indexed_attention"}
    assert scheme.main.positions.encoding == "mla_rope" and scheme.main.positions.params["rope_dim"] == 64
    assert any("index_topk = 2048" in n and "half-split" in n for n in scheme.notes)


def test_glm4v_rotates_adjacent_pairs_over_its_sections(tmp_path):
    """Found by reading the published file: GLM-4.1V's text model rotates adjacent pairs (rotate_half_llm), as GLM's."""
    p = resolve_scheme(f"hf:{folder(tmp_path, 'glm4_1v_9b_thinking')}").main.positions
    assert p.params["pairing"] == "interleaved" and p.params["rotary_dim"] == 64
    assert list(p.mrope.sections) == [8, 12, 12] and p.mrope.layout == "chunked"


def test_glm4_5v_rotates_half_split_pairs_over_its_sections_and_the_comparison_catches_glm4v_pairs(tmp_path):
    """GLM-4.5V's hub file (glm4v_moe, the 4.x rope_scaling and rope_theta in text_config): 64 of 128 dimensions in
    rotate_half pairs over sections [8, 12, 12], where GLM-4.1V's text model rotates adjacent pairs. Planted misread:
    the same layer read with GLM-4.1V's adjacent pairs must fail the comparison with transformers' modules."""
    from dataclasses import replace

    path = folder(tmp_path, "glm4_5v")
    scheme = resolve_scheme(f"hf:{path}")
    config = agrees(scheme, path)
    # what the public report of transformers 5.7.0's load of the published file prints (tests/data/hf_configs/README.md)
    assert config.text_config.rope_parameters == {"rope_type": "default", "rope_theta": 10000.0,
                                                  "partial_rotary_factor": 0.5, "mrope_section": [8, 12, 12]}
    p = scheme.main.positions
    assert (p.d, p.params["rotary_dim"], p.params["pairing"], p.params["base"]) == (128, 64, "half", 10000.0)
    assert list(p.mrope.sections) == [8, 12, 12] and p.mrope.layout == "chunked" and len(scheme.layers) == 46
    wrong_p = replace(p, params={**p.params, "pairing": "interleaved"})
    wrong = replace(scheme, layers=tuple(replace(layer, positions=wrong_p) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "pairing" in " ".join(bad), bad


def test_qwen3_omni_thinker_reads_interleaved_sections_and_the_comparison_catches_chunked_ones(tmp_path):
    """Qwen3-Omni-30B-A3B's thinker (its class's defaults, a 73-wide head, transformers cannot run): head_dim 128 in
    rotate_half pairs, M-RoPE [24, 20, 20] interleaved as Qwen3-VL's, base 1e6; the rope dict's "interleaved", which
    its class only skips in validation, changes nothing. Planted misread: the sections read as chunked."""
    from dataclasses import replace

    path = folder(tmp_path, "qwen3_omni_30b_a3b_thinker")
    scheme = resolve_scheme(f"hf:{path}")
    config = agrees(scheme, path)
    # what the public report of transformers 5.7.0's load of the published file prints (tests/data/hf_configs/README.md)
    assert config.text_config.rope_parameters == {"interleaved": True, "mrope_interleaved": True, "type": "default",
                                                  "mrope_section": [24, 20, 20], "rope_theta": 1000000,
                                                  "rope_type": "default"}
    p = scheme.main.positions
    assert (p.d, p.params["base"], p.params["pairing"], len(scheme.layers)) == (128, 1e6, "half", 48)
    assert p.mrope.sections == (24, 20, 20) and p.mrope.layout == "interleaved"
    wrong_p = replace(p, mrope=replace(p.mrope, layout="chunked"))
    wrong = replace(scheme, layers=tuple(replace(layer, positions=wrong_p) for layer in scheme.layers))
    bad, _ = sweep.compare(wrong, oracle.facts(config), config)
    assert bad and "M-RoPE" in " ".join(bad), bad
