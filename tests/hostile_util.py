"""Shared helpers of the hostile-input suite (tests/test_hostile_*.py)."""

from __future__ import annotations

import os
from pathlib import Path

from petheory.cli import main


def cli(capsys, *argv):
    """Run ``petheory ARGV`` in-process; returns (exit code, stdout, stderr)."""
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def refused(capsys, *argv, match: str | tuple = ()) -> str:
    """Assert ``petheory ARGV`` exits 2 with one ``petheory: error:`` line (no traceback) containing ``match``."""
    rc, out, err = cli(capsys, *argv)
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err and "Traceback" not in out, err
    assert len(lines) == 1 and lines[0].startswith("petheory"), err
    for m in (match,) if isinstance(match, str) else match:
        assert m in lines[0], (m, lines[0])
    return lines[0]


def files_under(path) -> list[str]:
    """Every file below ``path`` (relative names), to assert that nothing was written."""
    p = Path(path)
    if not p.exists():
        return []
    return sorted(str(f.relative_to(p)) for f in p.rglob("*") if f.is_file())


def snapshot(path) -> dict:
    """{relative name: bytes} of every file below ``path``, to assert that nothing was changed."""
    p = Path(path)
    return {str(f.relative_to(p)): f.read_bytes() for f in sorted(p.rglob("*")) if f.is_file()}


class Marker:
    """A pickle payload: unpickling it would create ``path`` (the tests assert it never exists)."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def no_marker(path) -> bool:
    return not os.path.exists(path)


LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_hidden_layers": 32,
         "max_position_embeddings": 131072,
         "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                  "original_max_position_embeddings": 8192, "rope_type": "llama3"}}
PHI3 = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32, "num_hidden_layers": 32,
        "max_position_embeddings": 131072,
        "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
        "rope_scaling": {"type": "longrope", "short_factor": [1.0] * 48, "long_factor": [2.0] * 48}}


def _llama_rope(**kw):
    return {**LLAMA, "rope_scaling": {**LLAMA["rope_scaling"], **kw}}


#: Hostile config.json files: (name, content, what the refusal must name); read by the reader's refusal tests and by
#: the check that a refusal names only fields of the file (tests/models/test_refusals_name_fields.py).
MODEL_CONFIG_ROWS = [
    ("not-json", "{ not json", "is not valid JSON"),
    ("array", "[1, 2]", "not an object"),
    ("binary", b"\xff\xfe\x00", "not UTF-8"),
    ("unknown-model", {"model_type": "bert_next", "hidden_size": 768}, ("unknown model_type 'bert_next'",
                                                                        "nearest verified family", "as_family")),
    ("no-model-type", {"hidden_size": 768}, ("no model_type field", "as_family")),
    ("unknown-rope", _llama_rope(rope_type="mrope"), ("unknown rope_type 'mrope'", "supported: ", "llama3", "yarn")),
    ("negative-factor", _llama_rope(factor=-2.0), ("rope_scaling.factor", "> 0", "-2")),
    ("shrinking-factor", _llama_rope(factor=0.5), ("rope_scaling.factor", ">= 1", "0.5")),
    ("nan-factor", _llama_rope(factor=float("nan")), ("rope_scaling.factor", "finite", "nan")),
    ("string-factor", _llama_rope(factor="8"), ("rope_scaling.factor", "finite number")),
    ("inverted-llama3", _llama_rope(low_freq_factor=4.0, high_freq_factor=1.0), "rope_scaling.high_freq_factor"),
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
    ("unknown-rope-key", _llama_rope(wavelet=2), ("rope_scaling.wavelet", "supported keys")),
    ("unknown-layer-type", {**LLAMA, "model_type": "qwen2", "layer_types": ["warp_attention"] * 32},
     ("layer_types[0]", "warp_attention", "supported: full_attention")),
    ("mrope-on-text-family", {**LLAMA, "mrope_section": [16, 24, 24]}, ("mrope_section", "not part of llama")),
    ("nope-layers-wrong-length", {**LLAMA, "model_type": "smollm3", "no_rope_layers": [1, 0]},
     ("no_rope_layers has 2 items, expected 32",)),
    ("alibi-heads", {"model_type": "bloom", "hidden_size": 1000, "n_head": 16}, ("hidden_size=1000", "divide")),
]
