"""Model types read since issue 55 part C: per-layer settings (``per_layer_config``) and indexed attention.

Each config is built by transformers' own configuration class, saved with ``save_pretrained``, read back through
petheory's loader (``resolve_scheme("hf:DIR")``, the verification gate included) and compared layer by layer with the
modules transformers builds from the same file (tools/verify/oracle.py on the meta device, tools/verify/sweep.py's
``compare``). Each reading has a planted misread beside it that the comparison must catch.
"""

from __future__ import annotations

import json
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
