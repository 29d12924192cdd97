"""Hostile model folders for ``petheory bands`` (issue 46.2): reads outside the folder, outputs lost, and tensors the
model never loads taking a layer's place. Each refusal is one line, exit 2, nothing written; each accepted folder
gives the norms of the tensors transformers loads (compared with the untouched folder's)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from hostile_util import cli, files_under, refused, snapshot

from petheory.loaders.band_usage import band_usage

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
st = pytest.importorskip("safetensors.numpy")

Q1 = "model.layers.1.self_attn.q_proj.weight"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A 2-layer Llama (4 heads of 8, 2 key heads) saved by transformers, and its band-usage record."""
    torch.manual_seed(0)
    cfg = transformers.LlamaConfig(hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
                                   num_key_value_heads=2, vocab_size=64, max_position_embeddings=128)
    path = tmp_path_factory.mktemp("tiny") / "m"
    transformers.LlamaForCausalLM(cfg).save_pretrained(path, safe_serialization=True)
    return path, band_usage(f"hf:{path}")


def _copy(tiny, tmp_path):
    dst = tmp_path / "m"
    shutil.copytree(tiny[0], dst)
    return dst


def _tensors(d):
    return dict(st.load_file(str(d / "model.safetensors")))


def _edit(d, fn, *, config=None):
    t = _tensors(d)
    fn(t)
    st.save_file(t, str(d / "model.safetensors"))
    if config:
        c = json.loads((d / "config.json").read_text())
        c.update(config)
        (d / "config.json").write_text(json.dumps(c))
    return d


def _norms(rec):
    return [np.asarray(k[p]["norms"]) for k in rec["kinds"] if "query" in k for p in ("query", "key")]


def _renamed(name):
    """Layer 1's real q_proj replaced by a look-alike called ``name`` (the model does not load it)."""
    def fn(t):
        t[name] = t.pop(Q1) * 3.0
    return fn


def _decoy(name):
    """A look-alike ``name`` beside the real tensors, holding other numbers."""
    def fn(t):
        t[name] = np.full_like(t[Q1], 7.0)
    return fn


# (edit of the folder, what the one error line says); the look-alike is never read in place of the real tensor
REFUSED = {
    "q_proj_trailing_newline": (lambda d: _edit(d, _renamed(Q1 + "\n")), ("no tensor", Q1)),
    "q_proj_unicode_digit": (lambda d: _edit(d, _renamed(Q1.replace(".1.", ".\u0661."))), ("no tensor", Q1)),
    "q_proj_zero_padded": (lambda d: _edit(d, _renamed(Q1.replace(".1.", ".01."))), ("no tensor", Q1)),
    "q_proj_of_another_tower": (lambda d: _edit(d, _renamed("vision_tower.encoder.layers.1.self_attn.q_proj.weight")),
                                ("no tensor", Q1)),
    "layer_missing": (lambda d: _edit(d, lambda t: None, config={"num_hidden_layers": 3}),
                      ("model.layers.2.self_attn.q_proj.weight", "num_hidden_layers=3")),
    "layer_beyond_the_config": (lambda d: _edit(d, lambda t: None, config={"num_hidden_layers": 1}),
                                ("layer beyond", "num_hidden_layers=1")),
    "two_copies_of_the_decoder": (lambda d: _edit(d, lambda t: t.update({k[len("model."):]: v for k, v in list(t.items())
                                                                         if k.startswith("model.layers.")})),
                                  ("two prefixes",)),
    "kv_heads_do_not_divide": (lambda d: _edit(d, lambda t: None, config={"num_key_value_heads": 3}),
                               ("num_key_value_heads=3 must divide num_attention_heads=4",)),
    "kv_heads_disagree_with_the_weights": (lambda d: _edit(d, lambda t: None, config={"num_key_value_heads": 4}),
                                           ("rows",)),
    "nan_weights": (lambda d: _edit(d, lambda t: t[Q1].__setitem__((0, 0), np.nan)), ("NaN/inf", Q1)),
    "only_a_stray_file": (lambda d: (d / "model.safetensors").rename(d / "a.safetensors"),
                          ("model.safetensors", "a.safetensors")),
    "config_symlink_outside": (lambda d: ((d.parent / "outside.json").write_text((d / "config.json").read_text()),
                                          (d / "config.json").unlink(),
                                          (d / "config.json").symlink_to(d.parent / "outside.json")),
                               ("config.json", "leaves the model folder")),
    "nul_byte_in_a_shard_name": (lambda d: (d / "model.safetensors.index.json").write_text(json.dumps(
        {"weight_map": {k: "model\u0000.safetensors" for k in _tensors(d)}})), ("control character",)),
    "newline_in_a_shard_name": (lambda d: (d / "model.safetensors.index.json").write_text(json.dumps(
        {"weight_map": {k: "model.safetensors\n" for k in _tensors(d)}})), ("control character",)),
}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_hostile_model_folder_for_bands_is_one_line(capsys, tiny, tmp_path, kind):
    make, match = REFUSED[kind]
    d = _copy(tiny, tmp_path)
    make(d)
    before = snapshot(tmp_path)
    refused(capsys, "bands", "--pe", f"hf:{d}", "--json", tmp_path / "out" / "b.json", match=match)
    assert snapshot(tmp_path) == before and files_under(tmp_path / "out") == []


ACCEPTED = {  # the folder still reads as transformers reads it: the same norms as the untouched one
    "decoy_trailing_newline": lambda d: _edit(d, _decoy(Q1 + "\n")),
    "decoy_unicode_digit": lambda d: _edit(d, _decoy(Q1.replace(".1.", ".\u0661."))),
    "decoy_zero_padded": lambda d: _edit(d, _decoy(Q1.replace(".1.", ".01."))),
    "decoy_other_tower": lambda d: _edit(d, _decoy("vision_tower.encoder.layers.1.self_attn.q_proj.weight")),
    "decoy_bare_layers": lambda d: _edit(d, _decoy("decoder.layers.1.self_attn.q_proj.weight")),
    "stray_a_safetensors": lambda d: st.save_file({k: np.full_like(v, 5.0) for k, v in _tensors(d).items()},
                                                  str(d / "a.safetensors")),
}


@pytest.mark.parametrize("kind", sorted(ACCEPTED))
def test_look_alikes_are_never_read_in_place_of_the_real_tensor(tiny, tmp_path, kind):
    d = _copy(tiny, tmp_path)
    ACCEPTED[kind](d)
    for a, b in zip(_norms(band_usage(f"hf:{d}")), _norms(tiny[1]), strict=True):
        np.testing.assert_array_equal(a, b)


def test_huge_finite_weights_give_finite_norms(capsys, tiny, tmp_path):
    """Weights of 1e200 (stored as float64) square past float64: the norms stay finite, no inf, no NaN."""
    d = _copy(tiny, tmp_path)
    _edit(d, lambda t: t.update({k: v.astype(np.float64) * 1e200 for k, v in list(t.items()) if "_proj" in k}))
    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{d}", "--json", tmp_path / "b.json")
    assert rc == 0, err
    text = (tmp_path / "b.json").read_text()
    assert "Infinity" not in text and "NaN" not in text
    for a, b in zip(_norms(json.loads(text)), _norms(tiny[1]), strict=True):
        np.testing.assert_allclose(a, b * 1e200, rtol=1e-6)  # float32 weights widened, then scaled: a few ulps


def test_figure_never_replaces_another_commands_json(capsys, tiny, tmp_path):
    (tmp_path / "X.json").write_text('{"claims": []}')
    refused(capsys, "bands", "--pe", f"hf:{tiny[0]}", "--figure", tmp_path / "X.png", match=("X.json", "refusing"))
    assert (tmp_path / "X.json").read_text() == '{"claims": []}' and files_under(tmp_path) == ["X.json"]
    refused(capsys, "bands", "--pe", f"hf:{tiny[0]}", "--figure", tmp_path / "Y.png", "--json", tmp_path / "Y.json",
            match="both name")
    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{tiny[0]}", "--figure", tmp_path / "Z.png")
    assert rc == 0, err
    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{tiny[0]}", "--figure", tmp_path / "Z.png")  # its own: replaced
    assert rc == 0 and json.loads((tmp_path / "Z.json").read_text())["figure"] == "bands"


def test_each_kind_counts_against_its_own_span(capsys, tmp_path):
    """Qwen2 with sliding and full layers: the summary counts a sliding kind's long bands against its window."""
    torch.manual_seed(0)
    cfg = transformers.Qwen2Config(hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
                                   num_key_value_heads=2, vocab_size=64, max_position_embeddings=4096,
                                   use_sliding_window=True, sliding_window=8, max_window_layers=1,
                                   layer_types=["full_attention", "sliding_attention"])
    transformers.Qwen2ForCausalLM(cfg).save_pretrained(tmp_path / "q", safe_serialization=True)
    rec = band_usage(f"hf:{tmp_path / 'q'}")
    by = {k["name"]: k for k in rec["kinds"]}
    assert by["sliding_attention"]["reach"] == 8 and by["full_attention"]["reach"] == rec["context"]
    lam = np.asarray(by["sliding_attention"]["wavelengths"])
    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{tmp_path / 'q'}")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("sliding_attention"))
    assert f"{int(np.sum(lam > 8))} with a wavelength longer than its reach 8" in line
