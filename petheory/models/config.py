r"""A Hugging Face ``config.json`` (as a dict) -> the model's positional scheme, numbers only.

:func:`resolve_config` reads the fields transformers reads for each supported ``model_type``
(:data:`MODEL_TYPES`) and returns a :class:`ModelScheme`: per kind of attention layer (global,
and local where a Gemma config has sliding-window layers with their own base) a petheory
registry entry with its parameters, the dimension of the vectors it acts on, and the factor on
the logits beyond the usual :math:`1/\sqrt{d_{head}}`. No weights are needed for RoPE (every
``rope_type`` transformers ships but the multimodal ones: :data:`ROPE_TYPES`), ALiBi (BLOOM,
MPT, Falcon) and T5's buckets (whose values are learned weights: the buckets are the scheme).

Pure: no file is read here (:mod:`petheory.loaders.model_config` reads the file). A malformed
config raises ``ValueError`` naming the field, what was expected and the value.

Conventions: transformers' RoPE rotates half-split pairs (``rotate_half``, ``pairing='half'``)
except DeepSeek-V3 with ``rope_interleave`` (interleaved, as its checkpoints); the pairing does
not change a kernel or a spectrum. ``context`` is the original (pre-training) context L: the
``original_max_position_embeddings`` of a scaled config, else ``max_position_embeddings``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from petheory.encodings import alibi_slopes, partial_rotary_dim
from petheory.errors import ValidationError, ValidationTypeError

#: rope_type (transformers' ``rope_scaling.type`` / ``rope_type``) -> petheory registry entry.
ROPE_TYPES = {"default": "rope", "linear": "rope_pi", "dynamic": "rope_dynamic", "yarn": "rope_yarn",
              "longrope": "rope_longrope", "llama3": "rope_llama3", "su": "rope_longrope"}

#: Model types resolved from their configuration alone, and the family each belongs to.
MODEL_TYPES = {
    **{t: "rope" for t in ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "phi3", "gemma", "gemma2",
                           "gemma3", "gemma3_text", "gpt_neox", "falcon")},
    "deepseek_v2": "mla", "deepseek_v3": "mla",
    "bloom": "alibi", "mpt": "alibi",
    "t5": "t5", "mt5": "t5",
}

#: Sizes past these are refused as absurd (a typo or a hostile file), before anything is allocated.
LIMITS = {"hidden_size": 1 << 20, "d_model": 1 << 20, "n_embed": 1 << 20, "num_attention_heads": 1 << 14,
          "head_dim": 1 << 14, "d_kv": 1 << 14, "qk_rope_head_dim": 1 << 14, "qk_nope_head_dim": 1 << 14,
          "max_position_embeddings": 1 << 31, "max_seq_len": 1 << 31, "seq_length": 1 << 31,
          "original_max_position_embeddings": 1 << 31, "num_hidden_layers": 1 << 14, "num_layers": 1 << 14,
          "num_decoder_layers": 1 << 14, "n_layer": 1 << 14, "n_layers": 1 << 14,
          "relative_attention_num_buckets": 1 << 16, "relative_attention_max_distance": 1 << 31}


@dataclass(frozen=True)
class Scheme:
    """One positional scheme: a registry entry, its parameters, and where it acts.

    Attributes
    ----------
    encoding : str
        Registry name (``rope_llama3``, ``alibi``, ``t5``, ``mla_rope``, ...).
    params : dict
        Keyword parameters of the entry (lists of factors as tuples).
    d : int
        Dimension of the vectors it acts on (a head's query/key size; MLA: rope + content parts).
    logit_factor : float
        Factor on every logit beyond :math:`1/\\sqrt{d_{head}}` (DeepSeek-V3's ``mscale_all_dim``
        squared, Gemma's ``query_pre_attn_scalar``); rotary attention factors are in ``params``.
    heads : tuple of dict
        Per-head parameter overrides (ALiBi's slopes), empty when every head is the same.
    """

    encoding: str
    params: dict
    d: int
    logit_factor: float = 1.0
    heads: tuple = ()


@dataclass(frozen=True)
class ModelScheme:
    """The positional scheme of a model, from its configuration.

    Attributes
    ----------
    model_type : str
    schemes : dict of str -> Scheme
        ``{'global': ...}``, plus ``'local'`` for Gemma's sliding-window layers with their own base.
    layers : dict of str -> int
        How many layers use each scheme.
    context : int
        Original (pre-training) context L.
    max_context : int
        ``max_position_embeddings`` (the extended context of a scaled model).
    num_heads, head_dim : int
    notes : tuple of str
        What the scheme leaves out or assumes (sliding windows, soft-capping, learned values).
    """

    model_type: str
    schemes: dict
    layers: dict
    context: int
    max_context: int
    num_heads: int
    head_dim: int
    notes: tuple = field(default_factory=tuple)

    @property
    def main(self) -> Scheme:
        """The global layers' scheme."""
        return self.schemes["global"]


# ---------------------------------------------------------------------------------- field readers


def _fail(field_: str, expected: str, value) -> ValueError:
    return ValueError(f"config field {field_} must be {expected}, got {value!r}; fix the config.json")


def _int(cfg: dict, key: str, *, default=None, minimum: int = 1, where: str = "", limit: int | None = None) -> int:
    name = where + key
    val = cfg.get(key, default)
    if val is None:
        raise ValidationError(f"config field {name} is missing; transformers needs it for this model type")
    if isinstance(val, bool) or not isinstance(val, numbers.Integral):
        if isinstance(val, float) and val.is_integer() and math.isfinite(val):
            val = int(val)
        else:
            raise _fail(name, "an integer", val)
    val = int(val)
    if val < minimum:
        raise _fail(name, f"an integer >= {minimum}", val)
    limit = LIMITS.get(key) if limit is None else limit
    if limit is not None and val > limit:
        raise _fail(name, f"at most {limit} (larger is not a real model: check the file)", val)
    return val


def _real(cfg: dict, key: str, *, default=None, minimum: float | None = None, positive: bool = True,
          where: str = "") -> float:
    name = where + key
    val = cfg.get(key, default)
    if val is None:
        raise ValidationError(f"config field {name} is missing; transformers needs it for this rope type")
    if isinstance(val, bool) or not isinstance(val, numbers.Real) or not math.isfinite(val):
        raise _fail(name, "a finite number", val)
    val = float(val)
    if positive and val <= 0:
        raise _fail(name, "a number > 0", val)
    if minimum is not None and val < minimum:
        raise _fail(name, f"a number >= {minimum:g}", val)
    return val


def _factors(rope: dict, key: str, bands: int, where: str) -> tuple:
    vals = rope.get(key)
    name = where + key
    if not isinstance(vals, (list, tuple)):
        raise _fail(name, f"a list of {bands} numbers (one per rotary band, head_dim * partial_rotary_factor / 2)", vals)
    if len(vals) != bands:
        raise ValidationError(f"config field {name} has {len(vals)} numbers, expected {bands} (one per rotary band: "
                         f"rotary dimension {2 * bands} / 2); fix the config.json")
    for i, x in enumerate(vals):
        if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x) or x <= 0:
            raise _fail(f"{name}[{i}]", "a finite number > 0", x)
    return tuple(float(x) for x in vals)


def _heads(cfg: dict, *keys: str) -> int:
    """The number of attention heads, from the first of ``keys`` the config has."""
    for k in keys:
        if cfg.get(k) is not None:
            return _int(cfg, k, limit=LIMITS["num_attention_heads"])
    raise ValidationError(f"config field {keys[0]} is missing; the number of attention heads is needed")


def _head_dim(cfg: dict, hidden: int, heads: int) -> int:
    if cfg.get("head_dim") is not None:
        return _int(cfg, "head_dim", minimum=2)
    if hidden % heads:
        raise ValidationError(f"config fields hidden_size={hidden} and num_attention_heads={heads}: the heads must divide "
                         "the hidden size (or give head_dim); fix the config.json")
    return hidden // heads


# ---------------------------------------------------------------------------------- RoPE


def _rope_dict(cfg: dict) -> tuple[dict, str]:
    """The RoPE parameters (transformers 4: ``rope_scaling`` + ``rope_theta``; 5: ``rope_parameters``)."""
    for key in ("rope_parameters", "rope_scaling"):
        val = cfg.get(key)
        if val is None:
            continue
        if not isinstance(val, dict):
            raise _fail(key, "an object (or null)", val)
        return val, key + "."
    return {}, "rope_scaling."


def rope_scheme(cfg: dict, rope: dict, where: str, *, d: int, rotary_dim: int, base_key: str = "rope_theta",
                default_base: float = 10000.0, pairing: str = "half", max_pos: int) -> tuple[str, dict, int]:
    """(registry name, params, original context L) of one RoPE parameter dict (``rope_scaling``)."""
    rtype = rope.get("rope_type", rope.get("type", "default"))
    if rtype not in ROPE_TYPES:
        raise ValidationError(f"unknown rope_type {rtype!r} in {where.rstrip('.')}; supported: {', '.join(sorted(ROPE_TYPES))}")
    base_src = rope if "rope_theta" in rope else cfg
    base = _real(base_src, base_key if base_src is cfg else "rope_theta", default=default_base,
                 where="" if base_src is cfg else where)
    name = ROPE_TYPES[rtype]
    params: dict = {"base": base, "pairing": pairing}
    if rotary_dim != d:
        params["rotary_dim"] = rotary_dim
    L = max_pos
    if rtype == "default":
        return name, params, L
    if rtype in ("llama3", "yarn", "longrope", "su"):
        # transformers: a top-level original_max_position_embeddings wins (Phi-3 keeps it there), else the rope dict's
        src = cfg if cfg.get("original_max_position_embeddings") is not None else rope
        L = _int(src, "original_max_position_embeddings", default=max_pos, where="" if src is cfg else where,
                 )
        params["n_max"] = L
    if rtype in ("longrope", "su"):
        factor = rope.get("factor")
        s = max_pos / L if factor is None else _real(rope, "factor", where=where)
        params["scale"] = s
        params["short_factor"] = _factors(rope, "short_factor", rotary_dim // 2, where)
        params["long_factor"] = _factors(rope, "long_factor", rotary_dim // 2, where)
        if rope.get("attention_factor") is not None:
            params["attention_factor"] = _real(rope, "attention_factor", where=where)
        return name, params, L
    if rtype == "yarn" and rope.get("factor") is None:
        s = max_pos / L
    else:
        s = _real(rope, "factor", minimum=1.0, where=where)
    params["scale"] = s
    if rtype == "linear":  # no original length in the config: its max_position_embeddings is the extended one (Gemma 3)
        L = max(2, int(round(max_pos / s)))
    elif rtype == "dynamic":
        params["n_max"] = L = max_pos  # transformers scales against max_position_embeddings
    elif rtype == "llama3":
        params["low_freq_factor"] = _real(rope, "low_freq_factor", where=where)
        params["high_freq_factor"] = _real(rope, "high_freq_factor", where=where)
        if params["high_freq_factor"] <= params["low_freq_factor"]:
            raise _fail(where + "high_freq_factor", f"> low_freq_factor={params['low_freq_factor']:g}",
                        params["high_freq_factor"])
    elif rtype == "yarn":
        if rope.get("truncate", True) is not True:
            raise ValidationError(f"config field {where}truncate=false (an unrounded YaRN ramp) is not supported; supported: "
                             "truncate true (the default, as Qwen2.5 and DeepSeek-V3)")
        params["beta"] = _real(rope, "beta_fast", default=32.0, where=where) if rope.get("beta_fast") else 32.0
        params["alpha"] = _real(rope, "beta_slow", default=1.0, where=where) if rope.get("beta_slow") else 1.0
        params["ramp"] = "code"
        params["mscale"] = yarn_attention_factor(rope, s, where)
    return name, params, L


def yarn_get_mscale(scale: float, mscale: float = 1.0) -> float:
    r"""DeepSeek's ``yarn_get_mscale``: :math:`0.1\,m\ln s + 1` for s > 1, else 1.

    >>> round(yarn_get_mscale(40.0, 1.0), 6)
    1.368888
    """
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(rope: dict, scale: float, where: str = "rope_scaling.") -> float:
    """YaRN's factor on cos and sin as transformers sets it: ``attention_factor`` if given, else
    ``get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)`` when both are set, else ``0.1 ln s + 1``."""
    if rope.get("attention_factor") is not None:
        return _real(rope, "attention_factor", where=where)
    m, m_all = rope.get("mscale"), rope.get("mscale_all_dim")
    if m and m_all:
        m, m_all = _real(rope, "mscale", where=where), _real(rope, "mscale_all_dim", where=where)
        return yarn_get_mscale(scale, m) / yarn_get_mscale(scale, m_all)
    return yarn_get_mscale(scale)


# ---------------------------------------------------------------------------------- families


def _rope_model(cfg: dict, mt: str) -> ModelScheme:
    hidden = _int(cfg, "hidden_size")
    heads = _heads(cfg, "num_attention_heads", "n_head")
    if mt == "falcon" and cfg.get("alibi"):
        return _alibi_model(cfg, mt, heads, hidden, schedule="press")
    d = _head_dim(cfg, hidden, heads)
    max_pos = _int(cfg, "max_position_embeddings", default=2048 if mt == "falcon" else None)
    rope, where = _rope_dict(cfg)
    prf_key = "rotary_pct" if mt == "gpt_neox" else "partial_rotary_factor"
    prf_src = rope if prf_key in rope else cfg
    prf = _real(prf_src, prf_key, default=1.0, where=where if prf_src is rope else "")
    try:
        r = partial_rotary_dim(d, prf)
    except ValueError as exc:
        raise ValidationError(f"config field {prf_key}: {exc}") from None
    base_key = "rotary_emb_base" if mt == "gpt_neox" and "rotary_emb_base" in cfg else "rope_theta"
    layers_n = _int(cfg, "num_hidden_layers", default=1)
    notes = []
    gemma3 = mt in ("gemma3", "gemma3_text")
    nested = {k: rope[k] for k in ("full_attention", "sliding_attention") if isinstance(rope.get(k), dict)}
    glob = nested.get("full_attention", rope)
    name, params, L = rope_scheme(cfg, glob, where + ("full_attention." if nested else ""), d=d, rotary_dim=r,
                                  base_key=base_key, default_base=1e6 if gemma3 else 10000.0, max_pos=max_pos)
    factor = 1.0
    if mt.startswith("gemma") and cfg.get("query_pre_attn_scalar") is not None:
        # softmax scale query_pre_attn_scalar^-1/2 instead of d^-1/2: every logit times sqrt(d / query_pre_attn_scalar)
        factor = math.sqrt(d / _real(cfg, "query_pre_attn_scalar"))
    schemes = {"global": Scheme(name, params, d, factor)}
    layers = {"global": layers_n}
    if gemma3 and ("rope_local_base_freq" in cfg or "sliding_attention" in nested):
        if "sliding_attention" in nested:
            loc, lwhere = nested["sliding_attention"], where + "sliding_attention."
        else:
            loc, lwhere = {"rope_theta": _real(cfg, "rope_local_base_freq")}, ""
        lname, lparams, _ = rope_scheme(cfg, loc, lwhere, d=d, rotary_dim=r, max_pos=max_pos)
        schemes["local"] = Scheme(lname, lparams, d, factor)
        n_global = _gemma_global_layers(cfg, layers_n)
        layers = {"global": n_global, "local": layers_n - n_global}
        notes.append(f"local layers attend within a sliding window of {cfg.get('sliding_window')} tokens: their kernel "
                     "beyond the window is never used")
    elif mt == "gemma2" and cfg.get("sliding_window"):
        notes.append(f"every other layer attends within a sliding window of {cfg['sliding_window']} tokens (same base)")
    elif (isinstance(cfg.get("sliding_window"), int) and cfg.get("use_sliding_window", True)
          and 0 < cfg["sliding_window"] < max_pos):  # Mistral 7B v0.1: 4096 of 32768
        notes.append(f"attention is limited to a sliding window of {cfg['sliding_window']} tokens: the kernel beyond it "
                     "is never used within a layer")
    for key in ("attn_logit_softcapping",):
        if cfg.get(key):
            notes.append(f"{key}={cfg[key]}: logits are soft-capped (tanh) after the scale; not part of the kernel")
    if r != d:
        notes.append(f"partial rotary: {r} of {d} head dimensions rotate; the other {d - r} carry no position")
    return ModelScheme(mt, schemes, layers, L, max_pos, heads, d, tuple(notes))


def _gemma_global_layers(cfg: dict, n_layers: int) -> int:
    types = cfg.get("layer_types")
    if isinstance(types, list) and len(types) == n_layers:
        return sum(t == "full_attention" for t in types)
    pattern = _int(cfg, "sliding_window_pattern", default=6)
    return sum((i + 1) % pattern == 0 for i in range(n_layers))


def _mla_model(cfg: dict, mt: str) -> ModelScheme:
    heads = _heads(cfg, "num_attention_heads")
    _int(cfg, "hidden_size")
    r = _int(cfg, "qk_rope_head_dim", minimum=2)
    nope = _int(cfg, "qk_nope_head_dim", minimum=0)
    if r % 2:
        raise _fail("qk_rope_head_dim", "even (coordinates rotate in pairs)", r)
    max_pos = _int(cfg, "max_position_embeddings")
    rope, where = _rope_dict(cfg)
    pairing = "interleaved" if cfg.get("rope_interleave", True) else "half"
    name, params, L = rope_scheme(cfg, rope, where, d=r, rotary_dim=r, pairing=pairing, max_pos=max_pos)
    params.pop("pairing"), params.pop("base")
    softmax = 1.0
    if name != "rope" and rope.get("mscale_all_dim"):
        softmax = yarn_get_mscale(params.get("scale", 1.0), _real(rope, "mscale_all_dim", where=where))
    mla = {"rope_dim": r, "base": _real(rope if "rope_theta" in rope else cfg, "rope_theta", default=10000.0),
           "pairing": pairing, "scaling": name, "scaling_params": params, "softmax_mscale": softmax}
    notes = [f"MLA: {r} of the {r + nope} query/key dimensions per head rotate (the rope key is shared by all heads)"]
    if softmax != 1.0:
        notes.append(f"mscale_all_dim: every logit (content too) is multiplied by {softmax:.6g}^2 = {softmax ** 2:.6g}")
    return ModelScheme(mt, {"global": Scheme("mla_rope", mla, r + nope, softmax ** 2)},
                       {"global": _int(cfg, "num_hidden_layers", default=1)}, L, max_pos, heads, r + nope, tuple(notes))


def mpt_slopes(num_heads: int, alibi_bias_max: float = 8.0) -> np.ndarray:
    r"""MPT's ALiBi slopes (llm-foundry ``gen_slopes``), shape (H,): :math:`2^{-m_h}`,
    :math:`m_h = h\,b/H'` for :math:`H' = 2^{\lceil\log_2 H\rceil}`, odd-indexed then even-indexed when H < H'.

    >>> mpt_slopes(4).tolist()
    [0.25, 0.0625, 0.015625, 0.00390625]
    """
    h2 = 1 << math.ceil(math.log2(num_heads))
    m = np.arange(1, h2 + 1, dtype=np.float64) * (alibi_bias_max / h2)
    slopes = 1.0 / 2.0**m
    if h2 != num_heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:num_heads]
    return slopes


def _alibi_model(cfg: dict, mt: str, heads: int, hidden: int, *, schedule: str) -> ModelScheme:
    if hidden % heads:
        raise ValidationError(f"config fields hidden_size={hidden} and the {heads} heads: the heads must divide the hidden "
                         "size; fix the config.json")
    if schedule == "mpt":
        attn = cfg.get("attn_config") or {}
        if not isinstance(attn, dict):
            raise _fail("attn_config", "an object", attn)
        slopes = mpt_slopes(heads, _real(attn, "alibi_bias_max", default=8.0, where="attn_config."))
        L = _int(cfg, "max_seq_len", default=2048)
    else:
        slopes = alibi_slopes(heads)
        L = _int(cfg, "seq_length", default=_int(cfg, "max_position_embeddings", default=2048))
    per_head = tuple({"slope": float(s)} for s in slopes)
    scheme = Scheme("alibi", {"form": "causal", "slope": float(slopes[0])}, hidden // heads, 1.0, per_head)
    notes = ("ALiBi: one slope per head (the table lists head 1, the steepest; every head's slope is in 'heads'); "
             "no rotation, so the band table is empty",)
    return ModelScheme(mt, {"global": scheme}, {"global": _int(cfg, "num_hidden_layers", default=_int(cfg, "n_layer",
                       default=_int(cfg, "n_layers", default=1)))}, L, L, heads, hidden // heads, notes)


def _t5_model(cfg: dict, mt: str) -> ModelScheme:
    heads = _heads(cfg, "num_heads")
    d_model = _int(cfg, "d_model")
    d_kv = _int(cfg, "d_kv", default=d_model // heads)
    nb = _int(cfg, "relative_attention_num_buckets", default=32, minimum=4)
    md = _int(cfg, "relative_attention_max_distance", default=128, minimum=2)
    enc = Scheme("t5", {"bidirectional": True, "num_buckets": nb, "max_distance": md}, d_kv)
    dec = Scheme("t5", {"bidirectional": False, "num_buckets": nb, "max_distance": md}, d_kv)
    n_enc = _int(cfg, "num_layers", default=1)
    notes = ("T5: the bucket values are learned weights (not in config.json): the scheme is the bucketing, "
             "shared by all layers of the encoder (bidirectional) and of the decoder (causal)",)
    # buckets have no position limit; T5 was pre-trained on 512-token inputs (Raffel et al. 2020, §3.1.2), its n_positions
    L = _int(cfg, "n_positions", default=512, limit=LIMITS["max_position_embeddings"])
    return ModelScheme(mt, {"global": enc, "decoder": dec}, {"global": n_enc, "decoder": _int(cfg, "num_decoder_layers",
                       default=n_enc)}, L, L, heads, d_kv, notes + (f"L = {L}: T5's pre-training input length (n_positions)",))


def resolve_config(cfg) -> ModelScheme:
    """A Hugging Face ``config.json`` (parsed) -> its :class:`ModelScheme`.

    Parameters
    ----------
    cfg : dict
        The parsed file. A multimodal Gemma 3 config is read through its ``text_config``.

    Returns
    -------
    ModelScheme

    Raises
    ------
    ValueError
        An unknown ``model_type`` or ``rope_type`` (the message lists what is supported), or a
        malformed field (named, with what was expected).

    Examples
    --------
    >>> m = resolve_config({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
    ...                     "max_position_embeddings": 4096, "rope_theta": 10000.0})
    >>> m.main.encoding, m.main.d, m.context
    ('rope', 128, 4096)
    """
    if not isinstance(cfg, dict):
        raise ValidationTypeError(f"a model configuration is a JSON object (dict), got {type(cfg).__name__}")
    mt = cfg.get("model_type")
    if mt == "gemma3" and isinstance(cfg.get("text_config"), dict):
        cfg, mt = {"model_type": "gemma3_text", **cfg["text_config"]}, "gemma3_text"
    if mt not in MODEL_TYPES:
        raise ValidationError(f"unknown model_type {mt!r}; supported: {', '.join(sorted(MODEL_TYPES))}")
    family = MODEL_TYPES[mt]
    if family == "rope":
        return _rope_model(cfg, mt)
    if family == "mla":
        return _mla_model(cfg, mt)
    if family == "alibi":
        if mt == "mpt":
            attn = cfg.get("attn_config") or {}
            if isinstance(attn, dict) and attn.get("rope") is True and not attn.get("alibi"):
                raise ValidationError("this MPT config has attn_config.rope=true (rotary positions, not ALiBi or learned "
                                      "ones), which petheory does not resolve for MPT; supported from the config alone: "
                                      "MPT with ALiBi")
            if isinstance(attn, dict) and attn.get("alibi") is False:
                raise ValidationError("this MPT config has attn_config.alibi=false (learned positions): give hf:DIR with its "
                                 "weights; supported from the config alone: MPT with ALiBi")
            return _alibi_model(cfg, mt, _heads(cfg, "n_heads"), _int(cfg, "d_model"), schedule="mpt")
        heads = _heads(cfg, "n_head", "num_attention_heads")
        hidden = _int(cfg, "hidden_size", default=cfg.get("n_embed"))
        return _alibi_model(cfg, mt, heads, hidden, schedule="press")
    return _t5_model(cfg, mt)
