"""Which config is the model's (issue 54, item 3): a plain model's file that carries a nested ``text_config`` /
``decoder`` object, and files with both ``rope_scaling`` and ``rope_parameters``.

transformers is the oracle: ``LlamaConfig`` has no sub-configuration, so ``LlamaModel`` runs the top-level fields
whatever a nested object says; transformers 5 runs ``rope_scaling`` in place of ``rope_parameters``. A nested object
or a second layout that says other positions is refused in one line naming it (exit 2, nothing written); one that
says the same is read, with a note; a composite model (Gemma 3) still reads its ``text_config``.
"""

from __future__ import annotations

import json

import pytest
from hostile_util import files_under, refused

from petheory.errors import ValidationError
from petheory.loaders import resolve_scheme

#: A plain llama: base 1e4, 2 KV heads, at the top level.
LLAMA = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
         "num_hidden_layers": 2, "max_position_embeddings": 4096, "rope_theta": 10000.0}
#: What a nested object says instead: base 1e6, 4 KV heads.
OTHER = {"hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 4, "num_hidden_layers": 2,
         "max_position_embeddings": 4096, "rope_theta": 1e6}


def write(tmp_path, doc) -> str:
    (tmp_path / "config.json").write_text(json.dumps(doc))
    return f"hf:{tmp_path}"


@pytest.mark.parametrize("key,nested", [("text_config", OTHER), ("text_config", {**OTHER, "model_type": "llama"}),
                                        ("decoder", {**OTHER, "model_type": "llama"})],
                         ids=["text_config", "text_config-typed", "decoder"])
def test_nested_config_of_a_plain_model_that_disagrees_is_refused_naming_it(tmp_path, capsys, key, nested):
    spec = write(tmp_path, {**LLAMA, key: nested})
    out = tmp_path / "out"
    refused(capsys, "spectrum", "--pe", spec, "--length", "64", "--json", out / "s.json",
            match=(f"config field {key} is an object", "llama", "top-level fields"))
    assert files_under(out) == []


def test_transformers_runs_the_top_level_of_a_plain_model_with_a_nested_text_config(tmp_path):
    """The oracle for the refusal above: LlamaModel built from that file has the top level's base and KV heads."""
    pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    write(tmp_path, {**LLAMA, "text_config": OTHER})
    config = transformers.AutoConfig.from_pretrained(tmp_path)
    model = transformers.AutoModel.from_config(config)  # LlamaModel: it takes the config itself
    assert type(model).__name__ == "LlamaModel"
    assert model.layers[0].self_attn.k_proj.out_features == 2 * 64  # 2 KV heads of 64
    assert float(model.rotary_emb.inv_freq[1]) == pytest.approx(1e4 ** (-2 / 64), rel=1e-6)  # base 1e4


def test_nested_config_of_a_plain_model_that_agrees_is_read_from_the_top_level_with_a_note(tmp_path):
    same = {k: LLAMA[k] for k in LLAMA if k != "model_type"}
    scheme = resolve_scheme(write(tmp_path, {**LLAMA, "text_config": same}))
    assert scheme.num_kv_heads == 2 and scheme.main.positions.params["base"] == 10000.0
    assert any("text_config is not read" in n for n in scheme.notes)


def test_composite_model_still_reads_its_text_config(tmp_path):
    doc = json.loads(open("tests/data/hf_configs/gemma3_4b.json").read())
    scheme = resolve_scheme(write(tmp_path, doc))
    assert {layer.type for layer in scheme.layers} == {"sliding_attention", "full_attention"}


def test_rope_scaling_and_rope_parameters_that_disagree_are_refused_naming_both(tmp_path, capsys):
    doc = {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 4.0},
           "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}}
    refused(capsys, "spectrum", "--pe", write(tmp_path, doc), "--length", "64",
            match=("rope_scaling and rope_parameters disagree", "rope_scaling.factor = 4.0", "rope_parameters.factor"))


def test_rope_scaling_and_rope_parameters_that_agree_are_read(tmp_path):
    doc = {**LLAMA, "rope_scaling": {"type": "linear", "factor": 4.0},
           "rope_parameters": {"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0}}
    p = resolve_scheme(write(tmp_path, doc)).main.positions
    assert p.encoding == "rope_pi" and p.params["scale"] == 4.0


def test_transformers_runs_rope_scaling_when_both_layouts_are_given(tmp_path):
    """The oracle: transformers 5's convert_rope_params_to_dict takes rope_scaling in place of rope_parameters."""
    transformers = pytest.importorskip("transformers")
    doc = {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 4.0},
           "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}}
    write(tmp_path, doc)
    rp = transformers.AutoConfig.from_pretrained(tmp_path).rope_parameters
    assert rp["rope_type"] == "linear" and rp["factor"] == 4.0
    with pytest.raises(ValidationError, match="disagree"):
        resolve_scheme(f"hf:{tmp_path}")
