"""``bands`` against transformers (issue 46.2): the tensors read are the model's own, for every layout.

* Every model type of :data:`petheory.loaders.attention_weights.LAYOUTS` (and every multimodal wrapper):
  the names petheory builds for each declared attention layer are keys of the ``state_dict`` of the
  model transformers builds from the type's default config (on the meta device: no weights), with the
  row counts petheory expects.
* Tiny models saved by transformers' own ``save_pretrained`` (Gemma 3 image-text, Gemma 4 with
  proportional global layers, per-layer key heads and shared KV layers, GPT-NeoX's and Phi-3's fused
  projections, Qwen3-Next's gated queries beside linear-attention layers, Cohere 2's interleaved pairs
  and NoPE layers): every layer's band norms equal a direct computation from the model's own modules.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from petheory.loaders.attention_weights import LAYOUTS, projection_tensors
from petheory.loaders.band_usage import band_usage
from petheory.models.config import resolve_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

#: Multimodal wrappers whose published checkpoints hold the text decoder under a wrapper's prefix.
WRAPPERS = ("gemma3", "gemma4", "llama4", "mistral3", "qwen2_vl", "qwen2_5_vl", "qwen3_vl")


def _build(cfg, device=None):
    import contextlib

    with warnings.catch_warnings(), (torch.device(device) if device else contextlib.nullcontext()):
        warnings.simplefilter("ignore")
        classes = (transformers.AutoModelForCausalLM, transformers.AutoModelForImageTextToText)
        for cls in classes[::-1] if cfg.model_type in WRAPPERS else classes:  # a wrapper as published: image-text
            try:
                return cls.from_config(cfg)
            except ValueError:
                continue
    raise AssertionError(f"no model class for {cfg.model_type}")


@pytest.mark.parametrize("mt", sorted(set(LAYOUTS) | set(WRAPPERS)))
def test_the_names_read_are_the_state_dict_of_the_model_transformers_builds(mt):
    cfg = transformers.AutoConfig.for_model(mt)
    if mt == "glm4_moe":  # its default 4096 / 96 heads does not divide (transformers floors it); state a head size
        cfg.head_dim = 128
    model = _build(cfg, "meta")
    state = {k: tuple(t.shape) for k, t in model.state_dict().items()}
    ms = resolve_config(cfg.to_dict())
    rotary = [i for i, layer in enumerate(ms.layers) if layer.positions.kind == "rotary"]
    dims = [int(layer.positions.d or ms.head_dim) for layer in ms.layers]
    got = projection_tensors(cfg.to_dict(), ms.source, len(ms.layers), state, heads=ms.num_heads, dims=dims,
                             source=mt, read=rotary)
    assert sorted(got) == rotary and rotary
    for i, t in got.items():
        assert t.q in state and t.k in state, (i, t)
        q_rows = state[t.q][0]
        per_head = dims[i] * {None: 1, (0, 2 * dims[i], dims[i]): 2}.get(t.q_rows, 1)
        if t.q == t.k:  # fused: queries, keys and values of every head
            assert q_rows == {"qkv_proj": (ms.num_heads + 2 * ms.num_kv_heads) * dims[i],
                              "query_key_value": 3 * ms.num_heads * dims[i]}[t.q.split(".")[-2]]
        else:
            assert q_rows == ms.num_heads * per_head, (t.q, q_rows)


# ----------------------------------------------------------------------------- tiny saved models, norms compared

TEXT = dict(hidden_size=32, intermediate_size=48, num_attention_heads=4, vocab_size=128, max_position_embeddings=256)


def _gemma3():
    tc = dict(TEXT, num_hidden_layers=3, num_key_value_heads=2, head_dim=8, sliding_window=16,
              layer_types=["sliding_attention", "full_attention", "sliding_attention"])
    vc = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2, image_size=28,
              patch_size=14)
    return transformers.Gemma3Config(text_config=tc, vision_config=vc, mm_tokens_per_image=4)


def _gemma4():
    tc = dict(TEXT, num_hidden_layers=8, num_key_value_heads=2, head_dim=8, global_head_dim=16, sliding_window=16,
              vocab_size_per_layer_input=128, hidden_size_per_layer_input=8, attention_k_eq_v=True,
              num_global_key_value_heads=1, num_kv_shared_layers=2,
              layer_types=["sliding_attention"] * 2 + ["full_attention"] + ["sliding_attention"] * 2
              + ["full_attention", "sliding_attention", "full_attention"])
    vc = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=1, num_attention_heads=2)
    return transformers.Gemma4Config(text_config=tc, vision_config=vc, audio_config=None)


MODELS = {
    "gemma3": _gemma3,
    "gemma4": _gemma4,
    "gpt_neox": lambda: transformers.GPTNeoXConfig(**TEXT, num_hidden_layers=2, rotary_pct=0.5),
    "phi3": lambda: transformers.Phi3Config(**TEXT, num_hidden_layers=2, num_key_value_heads=2, pad_token_id=0),
    "qwen3_next": lambda: transformers.Qwen3NextConfig(**TEXT, num_hidden_layers=4, num_key_value_heads=2, head_dim=8,
                                                       linear_num_value_heads=2, linear_num_key_heads=2,
                                                       linear_key_head_dim=8, linear_value_head_dim=8, num_experts=2,
                                                       num_experts_per_tok=1, moe_intermediate_size=16,
                                                       shared_expert_intermediate_size=16),
    "cohere2": lambda: transformers.Cohere2Config(**TEXT, num_hidden_layers=4, num_key_value_heads=2, sliding_window=16),
}


def _text_layers(model):
    dec = model.get_decoder() if hasattr(model, "get_decoder") else model
    return dec.layers


def _qk(attn, heads: int, kv: int, hd: int):
    """(queries, keys) rows of one attention module, sliced as its own forward slices them: (heads, hd, hidden)."""
    if hasattr(attn, "query_key_value"):  # GPT-NeoX: view(..., heads, 3 * hd).chunk(3)
        w = attn.query_key_value.weight.detach().double().numpy().reshape(heads, 3, hd, -1)
        return w[:, 0], w[:, 1]
    if hasattr(attn, "qkv_proj"):  # Phi-3: [:H*hd] queries, then KV*hd keys
        w = attn.qkv_proj.weight.detach().double().numpy()
        return w[:heads * hd].reshape(heads, hd, -1), w[heads * hd:(heads + kv) * hd].reshape(kv, hd, -1)
    q = attn.q_proj.weight.detach().double().numpy()
    q = q.reshape(heads, -1, q.shape[-1])[:, :hd]  # Qwen3-Next: view(..., 2 * hd).chunk(2): the query half
    k_proj = getattr(attn, "k_proj", None)  # Gemma 4's shared KV layers have none
    k = k_proj.weight.detach().double().numpy().reshape(kv, hd, -1) if k_proj is not None else None
    return q, k


def _direct(w, pairs):
    a, b = pairs
    rows = np.sqrt((w ** 2).sum(-1))
    return np.sqrt(rows[:, a] ** 2 + rows[:, b] ** 2)


@pytest.fixture(scope="module", params=sorted(MODELS))
def saved(request, tmp_path_factory):
    torch.manual_seed(0)
    cfg = MODELS[request.param]()
    model = _build(cfg)
    path = tmp_path_factory.mktemp(request.param)
    model.save_pretrained(path, safe_serialization=True)
    return request.param, path, model


def test_every_layer_is_read_from_the_models_own_tensors(saved):
    name, path, model = saved
    rec = band_usage(f"hf:{path}")
    layers = _text_layers(model)
    seen = set()
    for kind in rec["kinds"]:
        seen |= set(kind["layers"])
        if "skipped" in kind:
            continue
        hd, r, kv = kind["head_dim"], kind["rotary_dim"], kind["kv_heads"]
        t = np.arange(r // 2)  # pairs written out here, not imported: interleaved, proportional, half
        pairs = ((2 * t, 2 * t + 1) if kind["pairing"] == "interleaved" else
                 (t, t + hd // 2) if kind["proportional"] else (t, t + r // 2))
        shared = {int(a): b for a, b in kind.get("key_shared_from", {}).items()}
        for j, i in enumerate(kind["layers"]):
            q, k = _qk(layers[i].self_attn if hasattr(layers[i], "self_attn") else layers[i].attention,
                       rec["num_heads"], kv, hd)
            if i in shared:
                assert k is None
                k = _qk(layers[shared[i]].self_attn, rec["num_heads"], kv, hd)[1]
            np.testing.assert_allclose(kind["query"]["norms"][j], _direct(q, pairs), rtol=1e-12)
            np.testing.assert_allclose(kind["key"]["norms"][j], _direct(k, pairs), rtol=1e-12)
    assert seen == set(range(len(layers)))


def test_the_layer_kinds_are_the_models_own(saved):
    name, path, model = saved
    rec = band_usage(f"hf:{path}")
    by = {k["name"]: k for k in rec["kinds"]}
    if name == "gemma4":  # global layers: proportional RoPE on 16-dim heads with one key head; 6, 7 share keys
        full = by["full_attention"]
        assert (full["head_dim"], full["kv_heads"], full["proportional"], full["rotary_dim"]) == (16, 1, True, 4)
        assert full["key_shared_from"] == {"7": 5} and by["sliding_attention"]["key_shared_from"] == {"6": 4}
        assert by["sliding_attention"]["reach"] == 16 and not by["sliding_attention"]["proportional"]
    if name == "cohere2":  # full layers are NoPE: marked, no norms
        assert "NoPE" in by["full_attention"]["skipped"] and "query" not in by["full_attention"]
        assert by["sliding_attention"]["pairing"] == "interleaved"
    if name == "qwen3_next":
        assert "position-free" in by["linear_attention"]["skipped"]
    if name == "gemma3":
        assert rec["model_type"] == "gemma3_text" and {"sliding_attention", "full_attention"} <= set(by)


def test_proportional_pairs_are_the_rows_gemma4_rotates(saved):
    """Gemma 4's global layers: transformers' rotary module turns exactly the rows band_pairs names (cos != 1)."""
    from petheory.loaders.band_usage import band_pairs

    name, path, model = saved
    if name != "gemma4":
        pytest.skip("Gemma 4 only")
    lm = model.model.language_model
    x = torch.zeros(1, 1, 16)
    cos, sin = lm.rotary_emb(x, torch.tensor([[7]]), layer_type="full_attention")
    turned = set(np.flatnonzero(np.abs(cos[0, 0].numpy() - 1) > 1e-6).tolist())
    a, b = band_pairs(4, head_dim=16, proportional=True)
    assert turned == set(a.tolist()) | set(b.tolist())
