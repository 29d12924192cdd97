"""Band usage from weights (issue 31): tiny random Llama models saved by transformers in the test (no download),
compared with a direct numpy computation from the model's own tensors and transformers' own rotary code."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hostile_util import cli, refused

from petheory.errors import ValidationError
from petheory.loaders.band_usage import band_norms, band_usage

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


def _save_llama(path, *, heads=4, kv_heads=4, hidden=32, layers=2, seed=0, **extra):
    torch.manual_seed(seed)
    cfg = transformers.LlamaConfig(hidden_size=hidden, intermediate_size=48, num_hidden_layers=layers,
                                   num_attention_heads=heads, num_key_value_heads=kv_heads, vocab_size=64,
                                   max_position_embeddings=128, rope_theta=10000.0, **extra)
    model = transformers.LlamaForCausalLM(cfg)
    model.save_pretrained(path, safe_serialization=True)
    return model


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny_llama")
    return path, _save_llama(path)


@pytest.fixture(scope="module")
def llama_gqa(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny_llama_gqa")
    return path, _save_llama(path, heads=4, kv_heads=2, seed=1)


def _direct(weight: np.ndarray, heads: int, hd: int) -> np.ndarray:
    """Per head and band t: the norm of rows t and t + hd/2 of the head (transformers' rotate_half pairs)."""
    out = np.zeros((heads, hd // 2))
    for h in range(heads):
        block = weight[h * hd:(h + 1) * hd]
        for t in range(hd // 2):
            out[h, t] = np.sqrt(np.sum(block[t] ** 2) + np.sum(block[t + hd // 2] ** 2))
    return out


@pytest.mark.parametrize("which", ["llama", "llama_gqa"])
def test_band_norms_match_a_direct_computation_on_the_saved_model(which, request):
    path, model = request.getfixturevalue(which)
    rec = band_usage(f"hf:{path}")
    cfg = model.config
    hd = cfg.hidden_size // cfg.num_attention_heads
    (kind,) = rec["kinds"]
    assert kind["pairing"] == "half" and kind["kv_heads"] == cfg.num_key_value_heads and kind["layers"] == [0, 1]
    for i, layer in enumerate(model.model.layers):
        q = layer.self_attn.q_proj.weight.detach().double().numpy()
        k = layer.self_attn.k_proj.weight.detach().double().numpy()
        # float32 weights widened to float64 exactly; each row scaled by its largest entry: a few ulps apart
        np.testing.assert_allclose(kind["query"]["norms"][i], _direct(q, cfg.num_attention_heads, hd), rtol=1e-12)
        np.testing.assert_allclose(kind["key"]["norms"][i], _direct(k, cfg.num_key_value_heads, hd), rtol=1e-12)
    assert np.asarray(kind["key"]["norms"]).shape == (2, cfg.num_key_value_heads, hd // 2)


def test_pairing_matches_transformers_rotary_code(llama):
    """A band is the pair of coordinates transformers rotates together: rotating q by R_p moves energy only within
    the rows band_norms groups (the band norms of W_q R_p^T ... are those of W_q)."""
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    path, model = llama
    cfg = model.config
    hd = cfg.hidden_size // cfg.num_attention_heads
    rot = model.model.rotary_emb
    w = model.model.layers[0].self_attn.q_proj.weight.detach().double()
    x = w.reshape(cfg.num_attention_heads, hd, -1).permute(2, 0, 1)[None]  # (1, hidden, heads, hd): columns as vectors
    pos = torch.full((1, x.shape[1]), 37)
    cos, sin = rot(x.float(), pos)
    q = x.permute(0, 2, 1, 3)  # (1, heads, hidden, hd)
    rotated, _ = apply_rotary_pos_emb(q, q, cos.double(), sin.double())
    w_rot = rotated[0].permute(0, 2, 1).reshape(cfg.num_attention_heads * hd, -1).numpy()
    np.testing.assert_allclose(band_norms(w_rot, heads=cfg.num_attention_heads, head_dim=hd),
                               band_norms(w.numpy(), heads=cfg.num_attention_heads, head_dim=hd), rtol=1e-6)
    with pytest.raises(AssertionError):  # the other pairing mixes bands: rotation changes its norms
        np.testing.assert_allclose(band_norms(w_rot, heads=cfg.num_attention_heads, head_dim=hd, pairing="interleaved"),
                                   band_norms(w.numpy(), heads=cfg.num_attention_heads, head_dim=hd,
                                              pairing="interleaved"), rtol=1e-6)


def test_wavelengths_against_the_context(llama):
    rec = band_usage(f"hf:{llama[0]}", context=64)
    lam = np.asarray(rec["kinds"][0]["wavelengths"])
    hd = 8
    np.testing.assert_allclose(lam, 2 * np.pi * 10000.0 ** (np.arange(0, hd, 2) / hd), rtol=1e-12)
    np.testing.assert_allclose(rec["kinds"][0]["wavelength_over_reach"], lam / 64, rtol=1e-12)


def test_only_the_projection_tensors_are_read(llama, monkeypatch):
    from petheory.loaders import hf

    seen = []
    real = hf.WeightFile.read
    monkeypatch.setattr(hf.WeightFile, "read", lambda self, name: (seen.append(name), real(self, name))[1])
    band_usage(f"hf:{llama[0]}")
    assert seen and all(n.endswith(("q_proj.weight", "k_proj.weight")) for n in seen)
    assert len(seen) == len(set(seen)) == 4  # 2 layers x (q, k), each once


def test_band_norms_refuses_a_wrong_head_count():
    with pytest.raises(ValidationError, match="rows"):
        band_norms(np.ones((12, 4)), heads=2, head_dim=4)


def test_cli_writes_json_and_figure(llama, tmp_path, capsys):
    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{llama[0]}", "--json", tmp_path / "b.json", "--figure",
                       tmp_path / "fig.png")
    assert rc == 0, err
    rec = json.loads((tmp_path / "b.json").read_text())
    assert np.asarray(rec["kinds"][0]["query"]["norms"]).shape == (2, 4, 4)
    assert (tmp_path / "fig.png").stat().st_size > 0 and "2 layers" in out


def test_cli_refuses_a_directory_without_weights(tmp_path, capsys):
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 32, "num_attention_heads": 4,
                                                      "max_position_embeddings": 128,
                                                      "num_hidden_layers": 2}))
    refused(capsys, "bands", "--pe", f"hf:{tmp_path}", match="weights")


def test_cli_prints_the_lines_band_usage_lines_gives(llama, capsys):
    from petheory.loaders.band_usage import band_usage_lines

    rc, out, err = cli(capsys, "bands", "--pe", f"hf:{llama[0]}")
    assert rc == 0, err
    assert out == "\n".join(band_usage_lines(band_usage(f"hf:{llama[0]}"))) + "\n"


def test_band_usage_lines_count_long_wavelengths_and_name_a_skipped_kind():
    from petheory.loaders.band_usage import band_usage_lines

    rec = {"model": "m", "model_type": "llama", "num_layers": 3, "num_heads": 2, "num_kv_heads": 1, "context": 8,
           "kinds": [{"name": "sliding", "layers": [0, 1], "span": {"kind": "sliding", "size": 4}, "reach": 4,
                      "pairing": "half", "proportional": False, "rotary_dim": 4, "head_dim": 4, "kv_heads": 1,
                      "wavelength_over_reach": [0.5, 2.0], "query": {"norms": [[[1.0, 3.0]]]},
                      "key": {"norms": [[[2.0, 4.0]]]}},
                     {"name": "nope", "layers": [2], "skipped": "NoPE"}]}
    assert band_usage_lines(rec)[1:] == [
        "  sliding (layers 0-1, sliding span 4; half pairing, 4 of 4 dimensions rotate, 1 key head): 2 bands, 1 with a "
        "wavelength longer than its reach 4",
        "    query: mean band norm, highest-frequency quarter 1, lowest-frequency quarter 3",
        "    key: mean band norm, highest-frequency quarter 2, lowest-frequency quarter 4",
        "  nope (layers 2): NoPE"]
