"""``gguf:FILE``: the scheme llama.cpp runs, read from headers written by gguf's own GGUFWriter.

Where transformers has the same model, the GGUF scheme is compared with the scheme of the equivalent
config.json (petheory.models.resolve_config): the same frequencies and spans, and llama.cpp's pairing
(adjacent pairs for llama, whose converter permutes the q/k weights; half-split for qwen2, gemma, ...).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from gguf_util import write_gguf

from petheory.encodings import rotary_frequencies, rotate
from petheory.loaders import resolve_scheme
from petheory.models import resolve_config

gguf = pytest.importorskip("gguf")


def test_llama_reads_adjacent_pairs_and_the_transformers_frequencies(tmp_path):
    f = write_gguf(tmp_path / "llama.gguf", "llama", rope_freq_base=500000.0, heads=4, kv=2)
    s = resolve_scheme(f"gguf:{f}")
    hf = resolve_config({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
                         "num_hidden_layers": 4, "max_position_embeddings": 4096, "rope_theta": 500000.0})
    ((layer, _),), ((ref, _),) = s.kinds(), hf.kinds()
    assert layer.positions.params["pairing"] == "interleaved" and ref.positions.params["pairing"] == "half"
    assert np.array_equal(rotary_frequencies(layer)[0], rotary_frequencies(ref)[0])
    assert (s.num_heads, s.num_kv_heads, s.head_dim, s.context, len(s.layers)) == (4, 2, 64, 4096, 4)
    assert any("llama.rope.freq_base" in n for n in s.notes) and s.spec == f"gguf:{f}"
    # the converter's permutation: HF's half-split coordinates (t, t + 32) are the file's adjacent (2t, 2t + 1)
    perm = np.stack([np.arange(32), np.arange(32) + 32], axis=1).ravel()
    x = np.random.default_rng(0).standard_normal((3, 64))
    assert np.array_equal(rotate(x[:, perm], [0, 5, 700], layer), rotate(x, [0, 5, 700], ref)[:, perm])


def test_qwen2_equals_its_transformers_config(tmp_path):
    f = write_gguf(tmp_path / "q.gguf", "qwen2", rope_freq_base=1e6, ctx=32768, embd=512, heads=8, kv=2, layers=3)
    hf = resolve_config({"model_type": "qwen2", "hidden_size": 512, "num_attention_heads": 8, "num_key_value_heads": 2,
                         "num_hidden_layers": 3, "max_position_embeddings": 32768, "rope_theta": 1e6})
    s = resolve_scheme(f"gguf:{f}")
    assert [x.positions for x in s.layers] == [x.positions for x in hf.layers]
    assert [x.span for x in s.layers] == [x.span for x in hf.layers]


def test_gemma3_slides_five_layers_in_six_with_local_base_ten_thousand(tmp_path):
    f = write_gguf(tmp_path / "g.gguf", "gemma3", layers=12, ctx=131072, embd=640, heads=4, key_length=256,
                   rope_freq_base=1e6, sliding_window=512, rope_scaling_type=gguf.RopeScalingType.LINEAR,
                   rope_scaling_factor=8.0)
    s = resolve_scheme(f"gguf:{f}")
    assert [x.type for x in s.layers] == (["sliding_attention"] * 5 + ["full_attention"]) * 2
    slide, full = s.layers[0], s.layers[5]
    assert slide.span.size == 512 and full.span.kind == "full"
    assert slide.positions.encoding == "rope" and slide.positions.params["base"] == 10000.0
    assert full.positions.encoding == "rope_pi" and full.positions.params["scale"] == 8.0
    assert s.context == 131072 // 8 and s.max_context == 131072


def test_yarn_takes_llama_cpps_factor_on_cos_and_sin(tmp_path):
    f = write_gguf(tmp_path / "y.gguf", "qwen3", ctx=131072, rope_freq_base=1e6, rope_scaling_type=gguf.RopeScalingType.YARN,
                   rope_scaling_factor=4.0, rope_scaling_orig_ctx_len=32768,
                   extra={"qwen3.rope.scaling.yarn_beta_fast": 16.0})
    layer = resolve_scheme(f"gguf:{f}").layers[0]
    p = layer.positions.params
    assert (p["scale"], p["n_max"], p["beta"], p["alpha"], p["ramp"]) == (4.0, 32768, 16.0, 1.0, "code")
    assert rotary_frequencies(layer)[1] == pytest.approx(0.1 * math.log(4.0) + 1.0, rel=1e-15)


def test_a_partial_rotary_file_rotates_its_dimension_count(tmp_path):
    f = write_gguf(tmp_path / "n.gguf", "gptneox", embd=384, heads=4, rope_dimension_count=24)
    layer = resolve_scheme(f"gguf:{f}").layers[0]
    assert rotary_frequencies(layer)[2] == {"d": 96, "rotary_dim": 24, "pairing": "half", "proportional": False}


def test_gemma2_27b_takes_llama_cpps_softmax_scale(tmp_path):
    f = write_gguf(tmp_path / "g2.gguf", "gemma2", layers=46, embd=4608, heads=32, key_length=128)
    s = resolve_scheme(f"gguf:{f}")
    assert s.layers[0].span.size == 4096 and s.layers[1].span.kind == "full"  # the default window, even layers slide
    assert s.layers[0].positions.logit_factor == pytest.approx(math.sqrt(128 / 144))


def test_the_committed_fixture_is_what_its_recipe_writes(tmp_path):
    from pathlib import Path

    from gguf_util import write_fixture

    committed = Path(__file__).parents[1] / "data" / "gguf" / "llama_yarn.gguf"
    assert write_fixture(tmp_path / "f.gguf").read_bytes() == committed.read_bytes()
    s = resolve_scheme(f"gguf:{committed}")
    assert s.layers[0].positions.encoding == "rope_yarn" and s.context == 8192 and s.max_context == 32768
