r"""A Hugging Face ``config.json`` (as a dict) -> the model's per-layer ``petheory.scheme.Scheme``.

:func:`resolve_config` reads the fields transformers reads for each supported ``model_type``
(:data:`MODEL_TYPES`) and returns one ``petheory.scheme.Layer`` per attention layer: its
position mechanism (a rotary registry entry with its parameters and the factor on the logits
beyond :math:`1/\sqrt{d_{head}}`; ALiBi; T5 buckets; NoPE; none for a linear-attention layer),
its span (full, sliding window, chunks), its temperature and sinks. No weights are needed:
RoPE of every ``rope_type`` transformers ships (:data:`ROPE_TYPES`), ALiBi (BLOOM, MPT, Falcon)
and T5's buckets (whose values are learned weights: the buckets are the scheme).

Nothing is dropped in silence: an unknown ``model_type``, rope key or layer type, and a field that
changes positions on a family that does not have it (``no_rope_layers``, ``mrope_section``, ...)
are refused with one :class:`~petheory.errors.ValidationError` line naming the field and what is
supported. Fields that do not touch positions are ignored.

Pure: no file is read here (:mod:`petheory.loaders.model_config` reads the file).

Conventions: transformers' RoPE rotates half-split pairs (``rotate_half``, ``pairing='half'``)
except where a model rotates adjacent pairs (DeepSeek-V3 with ``rope_interleave``, Llama 4,
Cohere2: ``'interleaved'``); the pairing does not change a kernel or a spectrum. ``context`` is
the original (pre-training) context L: the ``original_max_position_embeddings`` of a scaled
config, else ``max_position_embeddings``.
"""

from __future__ import annotations

import dataclasses
import math

from petheory.encodings import partial_rotary_dim
from petheory.errors import ValidationError, ValidationTypeError
from petheory.models.bias import alibi_model, mla_model, t5_model
from petheory.models.families import FAMILIES, FOREIGN_FIELDS, NOT_SHIPPED, TEXT_CONFIG, TEXT_TYPES, layer_types
from petheory.models.fields import INT_LIMIT, fail, read_bool, read_head_dim, read_heads, read_int, read_int_list, read_real
from petheory.models.rope import ROPE_TYPES, check_rope_keys, rope_dict, rope_scheme
from petheory.scheme import Layer, MRope, Positions, Scheme, Span, Temperature

#: Model types resolved from their configuration alone, and the family each belongs to.
MODEL_TYPES = {
    **{t: "rope" for t in FAMILIES}, **{t: "rope" for t in TEXT_CONFIG}, **{t: "rope" for t in TEXT_TYPES},
    "deepseek_v2": "mla", "deepseek_v3": "mla",
    "bloom": "alibi", "mpt": "alibi",
    "t5": "t5", "mt5": "t5",
}


def _text_config(cfg: dict, mt: str) -> tuple[dict, str]:
    """A multimodal config's text decoder (its ``text_config``, else the flat file) and the family to read."""
    if mt in TEXT_TYPES:
        return cfg, TEXT_TYPES[mt]
    if mt not in TEXT_CONFIG:
        return cfg, mt
    text = cfg.get("text_config")
    if text is None:
        if mt in ("gemma3", "gemma4", "llama4"):
            raise ValidationError(f"config field text_config is missing; a {mt} config holds its text decoder there")
        return cfg, TEXT_CONFIG[mt]  # Qwen2-VL / Qwen2.5-VL on the Hub: a flat config
    if not isinstance(text, dict):
        raise fail("text_config", "an object", text)
    return text, TEXT_CONFIG[mt]


def _nested_rope(rope: dict, types) -> dict | None:
    """A ``rope_parameters`` keyed by layer type (Gemma 3, OLMo 3), else None."""
    keys = [k for k in rope if k in ("full_attention", "sliding_attention", "chunked_attention", "linear_attention")]
    if not keys:
        return None
    if len(keys) != len(rope) or not all(isinstance(rope[k], dict) for k in keys):
        raise ValidationError("config field rope_parameters mixes per-layer-type objects and flat keys; give either "
                              "{'full_attention': {...}, 'sliding_attention': {...}} or one flat object")
    return rope


def _rope_on(cfg: dict, fam, n: int) -> list:
    if not fam.no_rope_layers:
        return [True] * n
    given = cfg.get("no_rope_layers")
    if not given:  # transformers: None or [] -> a NoPE layer every no_rope_layer_interval-th layer
        k = read_int(cfg, "no_rope_layer_interval", default=fam.no_rope_layers)
        return [bool((i + 1) % k) for i in range(n)]
    return [bool(x) for x in read_int_list(cfg, "no_rope_layers", length=n, minimum=0, maximum=1)]


def _mrope(cfg: dict, rope: dict, where: str, fam, mt: str, bands: int) -> MRope | None:
    sec = rope.get("mrope_section", cfg.get("mrope_section"))
    if fam.mrope is None:
        if sec is not None:
            raise ValidationError(f"config field {where if 'mrope_section' in rope else ''}mrope_section (multimodal RoPE) "
                                  f"is not part of {mt}; supported for qwen2_vl, qwen2_5_vl, qwen3_vl")
        return None
    src = rope if "mrope_section" in rope else cfg
    sections = fam.mrope_default if sec is None else read_int_list(src, "mrope_section", where=where if src is rope else "")
    if len(sections) != 3 or sum(sections) != bands:
        raise ValidationError(f"config field mrope_section = {str(list(sections))[:60]} must be 3 band counts (t, h, w) summing to "
                              f"the {bands} rotary bands; fix the config.json")
    if "mrope_interleaved" in rope and read_bool(rope, "mrope_interleaved", default=False) != (fam.mrope == "interleaved"):
        raise ValidationError(f"config field {where}mrope_interleaved = {rope['mrope_interleaved']}: {mt}'s code uses the "
                              f"{fam.mrope} layout; supported: {fam.mrope == 'interleaved'}")
    return MRope(sections, fam.mrope)


def _refuse_foreign(cfg: dict, mt: str, fam) -> None:
    mine = set(fam.extra) | ({"no_rope_layers"} if fam.no_rope_layers else set()) | (
        {"mrope_section"} if fam.mrope else set()) | ({"per_layer_config", "global_head_dim"} if mt == "gemma4_text" else set())
    for key in FOREIGN_FIELDS:
        if key not in mine and cfg.get(key) is not None and cfg.get(key) != []:
            raise ValidationError(f"config field {key} changes positions but is not part of {mt}: refused rather than "
                                  f"dropped; remove it, or give the model_type that has it")
    if cfg.get("use_bidirectional_attention"):
        raise ValidationError("config field use_bidirectional_attention is set (non-causal attention, an embedding model): "
                              "not supported; supported: causal decoders")


def _layer_dims(cfg: dict, mt: str, d: int, types: list) -> list:
    """Head dimension per layer: Gemma 4's full-attention layers have their own (``global_head_dim``)."""
    if mt != "gemma4_text":
        return [d] * len(types)
    plc = cfg.get("per_layer_config")
    if plc is None:
        gd = read_int(cfg, "global_head_dim", default=512, minimum=2, limit=1 << 14)
        return [gd if t == "full_attention" else d for t in types]
    if not isinstance(plc, dict):
        raise fail("per_layer_config", "an object {layer index: {head_dim: ...}}", plc)
    out = [d] * len(types)
    for k, over in plc.items():
        if not (isinstance(k, str) and k.isdigit() or isinstance(k, int)) or int(k) >= len(types):
            raise fail("per_layer_config", f"keyed by layer indices < {len(types)}", k)
        if not isinstance(over, dict) or set(over) - {"head_dim", "num_key_value_heads"}:
            raise fail(f"per_layer_config.{k}", "an object with head_dim / num_key_value_heads only", over)
        if "head_dim" in over:
            out[int(k)] = read_int(over, "head_dim", minimum=2, where=f"per_layer_config.{k}.", limit=1 << 14)
    return out


def _rope_model(cfg: dict, mt: str) -> Scheme:
    fam = FAMILIES[mt]
    hidden = read_int(cfg, "hidden_size")
    heads = read_heads(cfg, "num_attention_heads", "n_head")
    if mt == "falcon" and cfg.get("alibi"):
        return alibi_model(cfg, mt, heads, hidden, schedule="press")
    _refuse_foreign(cfg, mt, fam)
    d = read_head_dim(cfg, hidden, heads)
    kv = read_int(cfg, "num_key_value_heads", default=cfg.get("num_kv_heads") or heads)
    n = read_int(cfg, "n_layer" if mt == "falcon" and "num_hidden_layers" not in cfg and "n_layer" in cfg
                 else "num_hidden_layers")  # Falcon's attribute_map: n_layer -> num_hidden_layers
    max_pos = read_int(cfg, "max_position_embeddings", default=2048 if mt == "falcon" else None)
    rope, where = rope_dict(cfg)
    rope_on = _rope_on(cfg, fam, n)
    types = layer_types(cfg, mt, fam, n, rope_on)
    dims = _layer_dims(cfg, mt, d, types)
    nested = _nested_rope(rope, types)
    notes: list = []
    kinds: dict = {}  # (layer type, rotary?, d) -> Layer
    contexts: dict = {}  # kind key -> its original context L (rotary layers)
    layers, keys = [], []
    nope_types = fam.nope_types
    if mt == "exaone4" and cfg.get("sliding_window") is not None:  # its global layers skip RoPE when any layer slides
        nope_types = ("full_attention",)
    for i, (t, d_i) in enumerate(zip(types, dims)):
        rotary = rope_on[i] and t not in nope_types and t != "linear_attention"
        key = (t, rotary, d_i)
        if key not in kinds:
            pos, L = _positions(cfg, mt, fam, t, rotary, d_i, rope, where, nested, max_pos, notes)
            kinds[key] = Layer(pos, _span(cfg, t), _temperature(cfg, mt, rotary), fam.sinks, t)
            if L is not None:
                contexts[key] = L
        layers.append(kinds[key])
        keys.append(key)
    notes.extend(_notes(cfg, mt, fam, layers))
    scheme = Scheme(mt, tuple(layers), max_pos, max_pos, heads, kv, d, tuple(dict.fromkeys(notes)))
    # L: the main layer's original context (a scaled global RoPE's; Gemma 3's local layers are not scaled)
    L = contexts.get(keys[layers.index(scheme.main)], min(contexts.values(), default=max_pos))
    return dataclasses.replace(scheme, context=L)


def _positions(cfg, mt, fam, t, rotary, d, rope, where, nested, max_pos, notes):
    if t == "linear_attention":
        return Positions("none"), None
    if not rotary:
        return Positions("nope", d=d), None
    if nested is not None and t in nested:
        lrope, lwhere = nested[t], f"{where}{t}."
    elif nested is not None and mt not in ("gemma3_text", "olmo3"):
        raise ValidationError(f"config field {where.rstrip('.')} has no entry for the {t} layers; it has "
                              f"{', '.join(nested)}")
    elif nested is not None:  # Gemma 3, OLMo 3: transformers fills a missing layer type with default RoPE
        return _positions(cfg, mt, fam, t, rotary, d, {}, where, None, max_pos, notes)
    elif mt == "gemma4_text" and rope:
        raise ValidationError(f"config field {where.rstrip('.')} must be keyed by layer type for gemma4 "
                              "({'full_attention': {...}, 'sliding_attention': {...}}), as transformers reads it")
    elif mt == "gemma4_text":  # transformers' defaults
        lrope, lwhere = ({"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6}
                         if t == "full_attention" else {"rope_theta": 10000.0}), ""
    elif t == "sliding_attention" and mt in ("gemma3_text", "olmo3"):
        # a flat rope_scaling/rope_parameters is the full-attention layers'; the sliding ones keep default RoPE at
        # rope_local_base_freq (Gemma 3, default 10^4) or at the model's rope_theta (OLMo 3): transformers' config classes
        key = "rope_local_base_freq" if mt == "gemma3_text" else "rope_theta"
        src = cfg if cfg.get(key) is not None else (rope if mt == "olmo3" and "rope_theta" in rope else {})
        lrope = {"rope_theta": read_real(src, key if src is cfg else "rope_theta", default=fam.theta_default if
                                         mt == "olmo3" else 10000.0, where="" if src is cfg else where)}
        lwhere = ""
    else:
        lrope, lwhere = rope, where
    check_rope_keys(lrope, lwhere)
    if lrope.get("rope_type", lrope.get("type")) == "mrope" and fam.mrope is None:
        raise ValidationError(f"unknown rope_type 'mrope' in {lwhere.rstrip('.')} for {mt} (multimodal RoPE is read for "
                              f"qwen2_vl and qwen2_5_vl); supported: {', '.join(sorted(set(ROPE_TYPES) - {'mrope'}))}")
    prf_key = "rotary_pct" if mt == "gpt_neox" else "partial_rotary_factor"
    prf_src = lrope if prf_key in lrope else cfg
    prf = read_real(prf_src, prf_key, default=fam.prf_default, where=lwhere if prf_src is lrope else "")
    proportional = lrope.get("rope_type") == "proportional"
    try:
        r = 2 * int(prf * d // 2) if proportional else partial_rotary_dim(d, prf)
    except ValueError as exc:
        raise ValidationError(f"config field {prf_key}: {exc}") from None
    if r < 2:
        raise fail(lwhere + prf_key, f"a fraction of head_dim={d} that leaves at least one rotary pair", prf)
    base_key = "rotary_emb_base" if mt == "gpt_neox" and "rotary_emb_base" in cfg else "rope_theta"
    default_base = 10000.0 if t == "sliding_attention" and mt in ("gemma3_text", "gemma4_text") else fam.theta_default
    name, params, L = rope_scheme(cfg, lrope, lwhere, d=d, rotary_dim=r, base_key=base_key, default_base=default_base,
                                  pairing=fam.pairing, max_pos=max_pos)
    mrope = _mrope(cfg, lrope, lwhere, fam, mt, r // 2)
    factor = 1.0
    if mt.startswith("gemma") and mt != "gemma4_text" and cfg.get("query_pre_attn_scalar") is not None:
        # softmax scale query_pre_attn_scalar^-1/2 instead of d^-1/2: every logit times sqrt(d / query_pre_attn_scalar)
        factor = math.sqrt(d / read_real(cfg, "query_pre_attn_scalar"))
    elif mt == "gemma4_text":  # transformers' Gemma4Attention: scaling = 1 (queries and keys are RMS-normed)
        factor = math.sqrt(d)
    if r != d:
        notes.append(f"partial rotary ({t}): {r} of {d} head dimensions rotate, the other {d - r} carry no position")
    if proportional:
        theta = (params["base"]) ** (d / r)
        notes.append(f"proportional RoPE ({t}): rope_theta {theta:.6g} on the ladder of the whole {d}-dimensional head, "
                     f"cut to its first {r // 2} bands = base {params['base']:.6g} on a {r}-dimensional ladder")
    return Positions("rotary", name, params, d, factor, mrope=mrope, proportional=proportional), L


def _span(cfg: dict, t: str) -> Span:
    if t == "sliding_attention":
        return Span("sliding", read_int(cfg, "sliding_window"))
    if t == "chunked_attention":
        return Span("chunked", read_int(cfg, "attention_chunk_size"))
    return Span()


def _temperature(cfg: dict, mt: str, rotary: bool) -> Temperature | None:
    if mt != "llama4_text" or rotary:
        return None
    # Llama 4's published config.json writes an integer (4) here; transformers tests its truth value
    tuning = cfg.get("attn_temperature_tuning", True)
    if isinstance(tuning, int) and not isinstance(tuning, bool) and 0 <= tuning <= INT_LIMIT:
        tuning = bool(tuning)
    if not read_bool({"attn_temperature_tuning": tuning}, "attn_temperature_tuning", default=True):
        return None
    return Temperature("llama4", {"floor_scale": float(read_int(cfg, "floor_scale", default=8192)),
                                  "attn_scale": read_real(cfg, "attn_scale", default=0.1)})


def _notes(cfg: dict, mt: str, fam, layers: list) -> list:
    notes = []
    count = {}
    for layer in layers:
        count[(layer.type, layer.positions.kind, str(layer.span))] = count.get((layer.type, layer.positions.kind,
                                                                                str(layer.span)), 0) + 1
    if len(count) > 1 or any(s != "full" for (_, _, s) in count):
        notes.append("layers: " + "; ".join(f"{c} x {t or 'attention'} ({k}, span {s})" for (t, k, s), c in count.items()))
    if any(layer.span.kind == "sliding" for layer in layers):
        notes.append("sliding-window layers attend to the last W keys: their kernel beyond W is never used")
    if any(layer.span.kind == "chunked" for layer in layers):
        notes.append("chunked layers attend within their chunk of C tokens: distances reach at most C - 1")
    if any(layer.positions.kind == "nope" for layer in layers):
        notes.append("NoPE layers: softmax attention that sees no position (causal masking aside)")
    if any(layer.positions.kind == "none" for layer in layers):
        notes.append("linear-attention layers (gated delta rule) carry no positional encoding: kind 'none'")
    if any(layer.temperature is not None for layer in layers):
        notes.append("Llama 4 temperature: NoPE layers multiply queries by log(floor((p + 1) / floor_scale) + 1) * "
                     "attn_scale + 1 at position p (a factor on their logits that grows with p)")
    if any(layer.sinks for layer in layers):
        notes.append("attention sinks: one learned logit per head joins the softmax (its value is a weight, not in "
                     "config.json); it only lowers every attention weight by a common factor per query")
    if any(layer.positions.mrope is not None for layer in layers):
        m = next(layer.positions.mrope for layer in layers if layer.positions.mrope is not None)
        notes.append(f"M-RoPE ({m.layout}, sections {list(m.sections)} for t/h/w): text-only positions assumed (every "
                     "axis carries the token index), where it rotates exactly as plain RoPE; image/video tokens are "
                     "not analysed")
    for key in (fam.softcap_key,):
        if cfg.get(key):
            notes.append(f"{key}={cfg[key]}: logits are soft-capped (tanh) after the scale; not part of the kernel")
    if mt == "llama4_text" and cfg.get("use_qk_norm", True):
        notes.append("use_qk_norm: Llama 4's rotary layers L2-normalise queries and keys after RoPE (content norms only)")
    if mt == "gemma4_text":
        notes.append("Gemma 4: queries and keys are RMS-normalised and the softmax scale is 1 (logit factor sqrt(d))")
    if any(layer.positions.kind == "rotary" and layer.positions.params.get("truncate") is False for layer in layers):
        notes.append("YaRN truncate=false: the ramp's end bands are not rounded (gpt-oss)")
    return notes


def resolve_config(cfg) -> Scheme:
    """A Hugging Face ``config.json`` (parsed) -> its per-layer ``petheory.scheme.Scheme``.

    Parameters
    ----------
    cfg : dict
        The parsed file. A multimodal config (Gemma 3/4, Llama 4, Qwen-VL) is read through its
        ``text_config``.

    Returns
    -------
    Scheme
        One layer per attention layer (``num_hidden_layers``; T5: encoder then decoder layers).

    Raises
    ------
    ValidationError
        An unknown ``model_type``, ``rope_type``, rope key or layer type (the message lists what is
        supported), a field that changes positions on a family without it, or a malformed field
        (named, with what was expected).

    Examples
    --------
    >>> s = resolve_config({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    ...                     "num_hidden_layers": 32, "max_position_embeddings": 4096, "rope_theta": 10000.0})
    >>> s.main.positions.encoding, s.main.positions.d, s.context, len(s.layers)
    ('rope', 128, 4096, 32)
    """
    if not isinstance(cfg, dict):
        raise ValidationTypeError(f"a model configuration is a JSON object (dict), got {type(cfg).__name__}")
    mt = cfg.get("model_type")
    if mt in NOT_SHIPPED:
        raise ValidationError(NOT_SHIPPED[mt])
    if mt not in MODEL_TYPES:
        raise ValidationError(f"unknown model_type {mt!r}; supported: {', '.join(sorted(MODEL_TYPES))}")
    family = MODEL_TYPES[mt]
    if family == "rope":
        cfg, mt = _text_config(cfg, mt)
        return _rope_model(cfg, mt)
    if family == "mla":
        return mla_model(cfg, mt)
    if family == "alibi":
        if mt == "mpt":
            attn = cfg.get("attn_config") or {}
            if isinstance(attn, dict) and attn.get("rope") is True and not attn.get("alibi"):
                raise ValidationError("this MPT config has attn_config.rope=true (rotary positions, not ALiBi or learned "
                                      "ones), which petheory does not resolve for MPT; supported from the config alone: "
                                      "MPT with ALiBi")
            if isinstance(attn, dict) and attn.get("alibi") is False:
                raise ValidationError("this MPT config has attn_config.alibi=false (learned positions): give hf:DIR with "
                                      "its weights; supported from the config alone: MPT with ALiBi")
            return alibi_model(cfg, mt, read_heads(cfg, "n_heads"), read_int(cfg, "d_model"), schedule="mpt")
        heads = read_heads(cfg, "n_head", "num_attention_heads")
        hidden = read_int(cfg, "hidden_size", default=cfg.get("n_embed"))
        return alibi_model(cfg, mt, heads, hidden, schedule="press")
    return t5_model(cfg, mt)
