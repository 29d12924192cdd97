"""Hostile model configurations (``--pe hf:DIR`` / ``--pe PATH/config.json``): one line, exit 2, the field named.

Each row writes a config.json into a fresh directory and runs a command on it; the message must
name what is wrong (the field, or what is supported) and nothing may be written.
"""

from __future__ import annotations

import json

import pytest
from hostile_util import files_under, refused

LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
         "max_position_embeddings": 131072,
         "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                  "original_max_position_embeddings": 8192, "rope_type": "llama3"}}
PHI3 = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32, "num_hidden_layers": 32,
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
        "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48}}


def _rope(**kw):
    return {**LLAMA, "rope_scaling": {**LLAMA["rope_scaling"], **kw}}


ROWS = [
    ("not-json", "{ not json", "is not valid JSON"),
    ("array", "[1, 2]", "not an object"),
    ("binary", b"\xff\xfe\x00", "not UTF-8"),
    ("unknown-model", {"model_type": "bert_next", "hidden_size": 768}, ("unknown model_type 'bert_next'",
                                                                        "nearest verified family", "--as-family")),
    ("no-model-type", {"hidden_size": 768}, ("no model_type field", "--as-family")),
    ("unknown-rope", _rope(rope_type="mrope"), ("unknown rope_type 'mrope'", "supported: ", "llama3", "yarn")),
    ("negative-factor", _rope(factor=-2.0), ("rope_scaling.factor", "> 0", "-2")),
    ("shrinking-factor", _rope(factor=0.5), ("rope_scaling.factor", ">= 1", "0.5")),
    ("nan-factor", _rope(factor=float("nan")), ("rope_scaling.factor", "finite", "nan")),
    ("string-factor", _rope(factor="8"), ("rope_scaling.factor", "finite number")),
    ("inverted-llama3", _rope(low_freq_factor=4.0, high_freq_factor=1.0), "rope_scaling.high_freq_factor"),
    ("nan-theta", {**LLAMA, "rope_theta": float("nan")}, ("rope_theta", "finite")),
    ("zero-theta", {**LLAMA, "rope_theta": 0}, ("rope_theta", "> 0")),
    ("short-list-short", {**PHI3, "rope_scaling": {**PHI3["rope_scaling"], "short_factor": [1.0] * 47}},
     ("rope_scaling.short_factor has 47 numbers, expected 48",)),
    ("long-list-long", {**PHI3, "rope_scaling": {**PHI3["rope_scaling"], "long_factor": [1.0] * 64}},
     ("rope_scaling.long_factor has 64 numbers, expected 48",)),
    ("negative-in-list", {**PHI3, "rope_scaling": {**PHI3["rope_scaling"], "long_factor": [1.0] * 47 + [-1.0]}},
     ("rope_scaling.long_factor[47]", "> 0")),
    ("list-not-list", {**PHI3, "rope_scaling": {**PHI3["rope_scaling"], "long_factor": 2.0}}, "rope_scaling.long_factor"),
    ("head-of-one-dimension", {**LLAMA, "hidden_size": 40}, ("hidden_size=40", "num_attention_heads=32", "head of 1")),
    ("zero-heads", {**LLAMA, "num_attention_heads": 0}, ("num_attention_heads", ">= 1")),
    ("absurd-hidden", {**LLAMA, "hidden_size": 1 << 40}, ("hidden_size", "at most")),
    ("absurd-positions", {**LLAMA, "max_position_embeddings": 1 << 40}, ("max_position_embeddings", "at most")),
    ("bool-size", {**LLAMA, "hidden_size": True}, ("hidden_size", "an integer")),
    ("odd-rotary", {**LLAMA, "partial_rotary_factor": 0.2}, ("partial_rotary_factor", "even")),
    ("rope-not-object", {**LLAMA, "rope_scaling": [8.0]}, ("rope_scaling", "an object")),
    ("missing-hidden", {"model_type": "mistral", "num_attention_heads": 32}, ("hidden_size", "missing")),
    ("mla-odd-rope", {"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128,
                      "qk_rope_head_dim": 63, "qk_nope_head_dim": 128, "max_position_embeddings": 4096,
                      "num_hidden_layers": 61},
     ("qk_rope_head_dim", "even")),
    ("huge-int-theta", {**LLAMA, "rope_theta": 10**400}, ("rope_theta", "out of range")),  # the JSON reader refuses it first
    ("unknown-rope-key", _rope(wavelet=2), ("rope_scaling.wavelet", "supported keys")),
    ("unknown-layer-type", {**LLAMA, "model_type": "qwen2", "layer_types": ["warp_attention"] * 32},
     ("layer_types[0]", "warp_attention", "supported: full_attention")),
    ("mrope-on-text-family", {**LLAMA, "mrope_section": [16, 24, 24]}, ("mrope_section", "not part of llama")),
    ("nope-layers-wrong-length", {**LLAMA, "model_type": "smollm3", "no_rope_layers": [1, 0]},
     ("no_rope_layers has 2 items, expected 32",)),
    ("alibi-heads", {"model_type": "bloom", "hidden_size": 1000, "n_head": 16}, ("hidden_size=1000", "divide")),
]


@pytest.mark.parametrize("name,content,match", ROWS, ids=[r[0] for r in ROWS])
@pytest.mark.parametrize("how", ["hf-dir", "config-path"])
def test_malformed_config_is_one_line_exit_2(capsys, tmp_path, name, content, match, how):
    d = tmp_path / "model"
    d.mkdir()
    cfg = d / "config.json"
    if isinstance(content, bytes):
        cfg.write_bytes(content)
    else:
        cfg.write_text(content if isinstance(content, str) else json.dumps(content))
    spec = f"hf:{d}" if how == "hf-dir" else str(cfg)
    out = tmp_path / "out"
    refused(capsys, "report", "--pe", spec, "--json", out / "r.json", match=match)
    refused(capsys, "spectrum", "--pe", spec, "--length", "64", "--json", out / "s.json", match=match)
    assert files_under(out) == []


def test_missing_config_path_says_no_such_file(capsys, tmp_path):
    refused(capsys, "report", "--pe", tmp_path / "nope" / "config.json", match="no such file")


def test_directory_without_config_or_weights_names_config_json(capsys, tmp_path):
    refused(capsys, "spectrum", "--pe", f"hf:{tmp_path}", match="no config.json")
