r"""The model families whose every layer shares one scheme: ALiBi (BLOOM, MPT, Falcon), T5's buckets, MLA (DeepSeek).

Each returns a ``petheory.scheme.Scheme`` with one layer per attention layer (T5: the
encoder's, then the decoder's).
"""

from __future__ import annotations

import math

import numpy as np

from petheory.encodings import alibi_slopes
from petheory.errors import ValidationError
from petheory.models.families import family, refuse_underived
from petheory.models.fields import LIMITS, fail, read_heads, read_int, read_real
from petheory.models.read import nested_rope, per_layer_overrides, query_scale, read_mrope
from petheory.models.rope import rope_dict, rope_scheme, yarn_get_mscale
from petheory.scheme import Layer, Positions, Scheme, Span


#: MLA families whose attention rotates adjacent pairs unconditionally (transformers 5.24's modeling code; DeepSeek-V3.2
#: and A.X K2 call apply_rotary_pos_emb_interleave in their attention whatever rope_interleave says, while their
#: indexer's apply_rotary_pos_emb pairs halves).
MLA_ALWAYS_INTERLEAVED = ("deepseek_v2", "bailing_hybrid", "glm_moe_dsa", "longcat_flash", "mistral_large4",
                          "hy_v4_vl_text", "dots3_note_text", "deepseek_v32", "axk2")
#: MLA families whose config class reads ``rope_interleave`` with default True.
MLA_INTERLEAVE_DEFAULT = ("deepseek_v3", "axk1", "glm4_moe_lite", "mistral4", "sarvam_mla", "youtu")


#: MLA families whose ``indexed_attention`` layers (DeepSeek Sparse Attention) transformers runs with an indexer of
#: DeepSeek-V3.2's kind: the main attention is MLA over the keys the indexer selects. Per family, where the indexer's
#: head rotates its ``qk_rope_head_dim`` dimensions (its ``Indexer.forward`` splits them off ``first`` or ``last``) and
#: in which pairs (``half``: rotate_half; ``interleaved``: apply_rotary_pos_emb_interleave's adjacent pairs), as
#: tests/models/test_per_layer_and_indexer_models.py evaluates them on transformers' own code.
INDEXER_LAYOUT = {"deepseek_v32": ("first", "half"), "glm_moe_dsa": ("first", "interleaved"), "axk2": ("first", "half"),
                  "hy_v4": ("last", "half"), "hy_v4_vl_text": ("last", "interleaved"),
                  "dots3_note_text": ("first", "interleaved")}
MLA_INDEXED = tuple(INDEXER_LAYOUT)


def _indexer_note(cfg: dict, mt: str, r: int) -> str:
    """What the DSA indexer's positions are (the family's ``Indexer.forward``), for the scheme's notes."""
    topk = cfg.get("index_topk", 2048)
    hd = cfg.get("index_head_dim", 128)
    where, pairing = INDEXER_LAYOUT[mt]
    pairs = "half-split pairs (dimension i with i + r/2)" if pairing == "half" else "adjacent pairs (2i with 2i + 1)"
    return (f"indexed_attention (DeepSeek Sparse Attention): the MLA attention above (its positions) attends only to "
            f"the index_topk = {topk} keys an indexer selects per query (all keys while there are at most {topk}); the "
            f"indexer scores keys with its own {hd}-dimensional heads whose {where} qk_rope_head_dim = {r} dimensions "
            f"are rotated by the same cos/sin as MLA in {pairs}, the rest unrotated; which keys it keeps depends on "
            "content, so positions beyond index_topk keys are not a fixed span (analysed here as full causal attention)")


def mla_model(cfg: dict, mt: str, *, nope: bool = False) -> Scheme:
    """DeepSeek-V2/V3's multi-head latent attention: decoupled RoPE on ``qk_rope_head_dim`` coordinates.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.
    nope : bool, optional
        Its family applies no RoPE to the latent attention (Kimi Linear).

    Returns
    -------
    petheory.scheme.Scheme
        One ``mla_rope`` layer kind (``rope_dim`` rotating coordinates per head), or NoPE, with linear-attention layers
        where ``layer_types`` lists them.

    Raises
    ------
    petheory.errors.ValidationError
        A field missing or out of range (an odd ``qk_rope_head_dim``), or a ``layer_types`` its family derives by a rule
        petheory does not implement.

    Examples
    --------
    >>> cfg = {"num_attention_heads": 4, "hidden_size": 256, "qk_rope_head_dim": 16, "qk_nope_head_dim": 32,
    ...        "num_hidden_layers": 2, "max_position_embeddings": 4096, "kv_lora_rank": 64, "rope_theta": 1e4}
    >>> s = mla_model(cfg, "deepseek_v3")
    >>> s.layers[0].positions.encoding, s.layers[0].positions.params["rope_dim"], s.context
    ('mla_rope', 16, 4096)
    """
    fam = family(mt)
    if fam.convert is not None:
        cfg = fam.convert(cfg)
    heads = read_heads(cfg, "num_attention_heads")
    read_int(cfg, "hidden_size")
    r = read_int(cfg, "qk_rope_head_dim", minimum=2)
    nope_dim = read_int(cfg, "qk_nope_head_dim", minimum=0)
    if r % 2:
        raise fail("qk_rope_head_dim", "even (coordinates rotate in pairs)", r)
    n = read_int(cfg, "num_hidden_layers")
    max_pos = read_int(cfg, "max_position_embeddings")
    rope, where = rope_dict(cfg)
    temperature = query_scale(cfg, fam)  # Mistral 4: llama_4_scaling_beta
    rope = {k: v for k, v in rope.items() if k not in fam.rope_keys}
    # adjacent pairs where the family's attention always rotates them (DeepSeek-V2's complex apply_rotary_emb, Bailing
    # hybrid's apply_rotary_pos_emb_interleave, whatever the file says), else rope_interleave as the file says (absent:
    # the class's default), else halves
    pairing = "interleaved" if mt in MLA_ALWAYS_INTERLEAVED or cfg.get("rope_interleave", mt in MLA_INTERLEAVE_DEFAULT) \
        else "half"
    indexed = mt in MLA_INDEXED
    # DeepseekV32Config.__post_init__ derives layer_types = ['indexed_attention'] * n when the file has none
    if not cfg.get("layer_types"):
        refuse_underived(mt)  # Bailing hybrid, Kimi Linear: the class derives linear / full layers by its own rule
    types = cfg.get("layer_types") or ["indexed_attention" if indexed else "full_attention"] * n
    if not isinstance(types, (list, tuple)) or len(types) != n:
        raise fail("layer_types", f"a list of num_hidden_layers={n} layer types", types)
    known = ("full_attention", "linear_attention") + (("indexed_attention",) if indexed else ()) + (
        ("sliding_attention",) if fam.mla_sliding else ())
    for i, t in enumerate(types):
        if t not in known:
            raise ValidationError(f"config field layer_types[{i}] = {t!r} is not a layer type petheory reads for MLA "
                                  f"({mt}); supported: {', '.join(known)}")
    nested = nested_rope(rope, fam)  # dots.llm3: rope_parameters per layer type
    over = per_layer_overrides(cfg, mt, fam, list(types))  # dots.llm3: the sliding layers' own qk_nope_head_dim
    notes, kinds, contexts, layers = [], {}, {}, []
    for i, t in enumerate(types):
        nope_i = read_int(over[i], "qk_nope_head_dim", minimum=0, where=f"per_layer_config.{i}.") \
            if "qk_nope_head_dim" in over.get(i, {}) else nope_dim
        if t == "linear_attention":
            layers.append(Layer(Positions("none"), type="linear_attention"))
            continue
        if (t, nope_i) not in kinds:
            lrope, lwhere = (nested[t], f"{where}{t}.") if nested is not None else (rope, where)
            if nested is not None:  # its width is qk_rope_head_dim, checked against the rotary module's
                _rotary_width(cfg, lrope, lwhere, r)
                lrope = {k: v for k, v in lrope.items() if k != "partial_rotary_factor"}
            pos, L = _mla_positions(cfg, mt, fam, lrope, lwhere, r, nope_i, pairing, max_pos, nope, notes)
            span = Span("sliding", read_int(cfg, "sliding_window")) if t == "sliding_attention" else Span()
            kinds[t, nope_i] = Layer(pos, span, temperature, sinks=fam.sinks, type=t)
            contexts.setdefault(L, t)
        layers.append(kinds[t, nope_i])
    L = min(contexts, default=max_pos)
    if temperature is not None:
        notes.append("Llama 4 scaling (rope_parameters.llama_4_scaling_beta): every attention layer multiplies its "
                     "queries by 1 + beta * log(1 + floor(p / original_max_position_embeddings)) at position p")
    if "indexed_attention" in types:
        notes.append(_indexer_note(cfg, mt, r))
    if "linear_attention" in types:
        notes.append("linear-attention layers carry no positional encoding here: kind 'none'")
    mrope = next((layer.positions.mrope for layer in layers if layer.positions.mrope is not None), None)
    if any(layer.span.kind == "sliding" for layer in layers):
        notes.append("sliding-window layers attend to the last W keys: their kernel beyond W is never used")
    if mrope is not None and not nope:
        notes.append(f"M-RoPE ({mrope.layout}, sections {list(mrope.sections)} for t/h/w over the {r // 2} rotary "
                     "bands): text-only positions assumed (every axis carries the token index), where it rotates "
                     "exactly as plain RoPE; image/video tokens are not analysed")
    if fam.sinks:
        notes.append("attention sinks: one learned logit per head joins the softmax (its value is a weight, not in "
                     "config.json); it only lowers every attention weight by a common factor per query")
    kv = read_int(cfg, "num_key_value_heads", default=heads)
    return Scheme(mt, tuple(layers), L, max_pos, heads, kv, r + nope_dim, tuple(dict.fromkeys(notes)))


def _rotary_width(cfg: dict, lrope: dict, lwhere: str, r: int) -> None:
    """A per-type rope dict's rotated width (``partial_rotary_factor`` of ``head_dim``, as transformers' rotary module
    sizes its cos/sin) must be the ``qk_rope_head_dim`` the attention rotates, or transformers cannot run it."""
    hd = read_int(cfg, "head_dim", default=r)
    prf = read_real(lrope, "partial_rotary_factor", default=1.0, where=lwhere)
    if int(hd * prf) != r:
        raise ValidationError(f"config field {lwhere}partial_rotary_factor = {prf:g} of head_dim = {hd} gives cos/sin of "
                              f"width {int(hd * prf)}, but the attention rotates qk_rope_head_dim = {r} dimensions: "
                              "transformers' rotary module and attention disagree and it cannot run; make them agree")


def _mla_positions(cfg, mt, fam, rope, where, r, nope_dim, pairing, max_pos, nope, notes):
    """One MLA layer kind's positions (its rope dict ``rope``; ``nope_dim`` unrotated dimensions) and its original
    context L; its notes appended to ``notes``."""
    name, params, L = rope_scheme(cfg, rope, where, d=r, rotary_dim=r, pairing=pairing, max_pos=max_pos)
    params.pop("pairing"), params.pop("base")
    softmax = 1.0
    if name != "rope" and rope.get("mscale_all_dim"):
        softmax = yarn_get_mscale(params.get("scale", 1.0), read_real(rope, "mscale_all_dim", where=where))
    mla = {"rope_dim": r, "base": read_real(rope if "rope_theta" in rope else cfg, "rope_theta", default=10000.0),
           "pairing": pairing, "scaling": name, "scaling_params": params, "softmax_mscale": softmax}
    notes.append(f"MLA: {r} of the {r + nope_dim} query/key dimensions per head rotate (the rope key is shared by all "
                 "heads)" if not nope else f"MLA without RoPE ({mt}): its latent-attention layers see no position")
    if softmax != 1.0:
        notes.append(f"mscale_all_dim: every logit (content too) is multiplied by {softmax:.6g}^2 = {softmax ** 2:.6g}")
    mrope = read_mrope(cfg, rope, where, fam, mt, r // 2)  # HY-V4-VL: M-RoPE sections over the rotary bands
    if nope:
        return Positions("nope", d=r + nope_dim), L
    q_scale = 1.0
    if fam.mla_q_scale:  # dots.llm3, LongCat-Flash: queries times sqrt(hidden_size / q_lora_rank), on every logit
        q_scale = math.sqrt(read_int(cfg, "hidden_size") / read_int(cfg, "q_lora_rank"))
        notes.append(f"{mt} multiplies every query by sqrt(hidden_size / q_lora_rank) = {q_scale:.6g} (a factor on every "
                     "logit, in the logit factor) and its key/value latent by sqrt(hidden_size / kv_lora_rank) (the "
                     "unrotated keys and the values: the content term only)")
    return Positions("rotary", "mla_rope", mla, r + nope_dim, softmax ** 2 * q_scale, mrope=mrope), L


def mpt_slopes(num_heads: int, alibi_bias_max: float = 8.0) -> np.ndarray:
    r"""MPT's ALiBi slopes (llm-foundry ``gen_slopes``), shape (H,).

    :math:`2^{-m_h}`, :math:`m_h = h\,b/H'` for :math:`H' = 2^{\lceil\log_2 H\rceil}`, odd-indexed then even-indexed when
    H < H'.

    Parameters
    ----------
    num_heads : int
        H.
    alibi_bias_max : float, optional
        b, ``attn_config.alibi_bias_max``.

    Returns
    -------
    numpy.ndarray, shape (H,)
        The slopes.

    Examples
    --------
    >>> mpt_slopes(4).tolist()
    [0.25, 0.0625, 0.015625, 0.00390625]
    """
    h2 = 1 << math.ceil(math.log2(num_heads))
    m = np.arange(1, h2 + 1, dtype=np.float64) * (alibi_bias_max / h2)
    slopes = 1.0 / 2.0**m
    if h2 != num_heads:
        slopes = np.concatenate([slopes[1::2], slopes[::2]])[:num_heads]
    return slopes


def bfloat16(x) -> np.ndarray:
    """``x`` rounded to bfloat16 (8 significant bits, round to nearest even) from its float32 value, as torch's
    ``.bfloat16()`` rounds.

    Parameters
    ----------
    x : array_like
        Values.

    Returns
    -------
    numpy.ndarray
        The rounded values, float64.

    Examples
    --------
    >>> bfloat16([0.917004043]).tolist()
    [0.91796875]
    """
    u = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    u = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    return u.astype(np.uint32).view(np.float32).astype(np.float64)


def falcon_slopes(num_heads: int, head_dim: int) -> np.ndarray:
    r"""Falcon's effective ALiBi slopes on the softmax's input, shape (H,).

    Press et al.'s slopes computed in float32, rounded to bfloat16 (``build_alibi_tensor``), divided by
    :math:`\sqrt{d_{head}}` (``FalconModel`` adds ``alibi / sqrt(head_dim)`` to the mask; its eager path scales
    ``scores + alibi`` by the same factor).

    Parameters
    ----------
    num_heads : int
        H.
    head_dim : int
        :math:`d_{head}`.

    Returns
    -------
    numpy.ndarray, shape (H,)
        The slopes.

    Examples
    --------
    >>> falcon_slopes(8, 64)[:2].tolist()
    [0.0625, 0.03125]
    """
    return bfloat16(alibi_slopes(num_heads).astype(np.float32)) / math.sqrt(head_dim)


def alibi_model(cfg: dict, mt: str, heads: int, hidden: int, *, schedule: str) -> Scheme:
    r"""ALiBi with BLOOM's (Press et al.'s) slope schedule, Falcon's (bfloat16, over :math:`\sqrt{d}`) or MPT's
    (``alibi_bias_max``).

    Parameters
    ----------
    cfg : dict
        The config.
    mt : str
        Its model type.
    heads : int
        Attention heads.
    hidden : int
        Hidden size (heads divide it).
    schedule : {'bloom', 'falcon', 'mpt'}
        Whose slopes.

    Returns
    -------
    petheory.scheme.Scheme
        Every layer a causal ALiBi bias with one slope per head; L the config's sequence length.

    Raises
    ------
    petheory.errors.ValidationError
        The heads do not divide the hidden size, or a field is missing or out of range.

    Examples
    --------
    >>> s = alibi_model({"n_layer": 2}, "bloom", 8, 512, schedule="bloom")
    >>> len(s.layers), s.layers[0].positions.params["slope"], s.context
    (2, 0.5, 2048)
    """
    if hidden % heads:
        raise ValidationError(f"config fields hidden_size={hidden} and the {heads} heads: the heads must divide the hidden "
                              "size; fix the config.json")
    if schedule == "mpt":
        attn = cfg.get("attn_config") or {}
        if not isinstance(attn, dict):
            raise fail("attn_config", "an object", attn)
        slopes = mpt_slopes(heads, read_real(attn, "alibi_bias_max", default=8.0, where="attn_config."))
        L = read_int(cfg, "max_seq_len", default=2048)
    else:
        slopes = falcon_slopes(heads, hidden // heads) if schedule == "falcon" else alibi_slopes(heads)
        L = read_int(cfg, "seq_length", default=read_int(cfg, "max_position_embeddings", default=2048))
    per_head = tuple({"slope": float(s)} for s in slopes)
    pos = Positions("bias", "alibi", {"form": "causal", "slope": float(slopes[0])}, hidden // heads, 1.0, per_head)
    notes = ("ALiBi: one slope per head (the table lists head 1, the steepest; every head's slope is in 'heads'); "
             "no rotation, so the band table is empty",)
    if schedule == "falcon":
        notes += (f"Falcon ALiBi: transformers rounds each slope to bfloat16 and adds alibi / sqrt(head_dim) = "
                  f"/ {math.sqrt(hidden // heads):.6g} to the logits, so the slopes here are bfloat16(m_h) / "
                  "sqrt(head_dim); it also rounds each bias slope x key index to bfloat16 (relative error <= 2^-9, "
                  "not modelled: the bias here is exactly linear)",)
    key = next((k for k in ("num_hidden_layers", "n_layer", "n_layers") if cfg.get(k) is not None), "num_hidden_layers")
    n = read_int(cfg, key)
    return Scheme(mt, (Layer(pos, type="full_attention"),) * n, L, L, heads, heads, hidden // heads, notes)


def t5_model(cfg: dict, mt: str) -> Scheme:
    """T5's relative-position buckets: bidirectional in the encoder, causal in the decoder.

    Parameters
    ----------
    cfg : dict
        The config.
    mt : str
        Its model type.

    Returns
    -------
    petheory.scheme.Scheme
        The encoder's layers, then the decoder's; L is ``n_positions`` (512 by default, T5's pre-training length).

    Raises
    ------
    petheory.errors.ValidationError
        A field missing or out of range.

    Examples
    --------
    >>> s = t5_model({"num_heads": 8, "d_model": 512, "d_kv": 64, "num_layers": 2}, "t5")
    >>> [layer.type for layer in s.layers], s.context
    (['encoder', 'encoder', 'decoder', 'decoder'], 512)
    """
    heads = read_heads(cfg, "num_heads", "num_attention_heads")
    d_model = read_int(cfg, "d_model" if cfg.get("d_model") is not None else "hidden_size")
    d_kv = read_int(cfg, "d_kv", default=d_model // heads)
    nb = read_int(cfg, "relative_attention_num_buckets", default=32, minimum=4)
    md = read_int(cfg, "relative_attention_max_distance", default=128, minimum=2)
    enc = Layer(Positions("bias", "t5", {"bidirectional": True, "num_buckets": nb, "max_distance": md}, d_kv),
                type="encoder")
    dec = Layer(Positions("bias", "t5", {"bidirectional": False, "num_buckets": nb, "max_distance": md}, d_kv),
                type="decoder")
    n_enc = read_int(cfg, "num_layers" if cfg.get("num_layers") is not None else "num_hidden_layers")
    n_dec = read_int(cfg, "num_decoder_layers", default=n_enc)
    notes = ("T5: the bucket values are learned weights (not in config.json): the scheme is the bucketing, "
             "shared by all layers of the encoder (bidirectional) and of the decoder (causal); the decoder's "
             "cross-attention has no positions",)
    # buckets have no position limit; T5 was pre-trained on 512-token inputs (Raffel et al. 2020, §3.1.2), its n_positions
    L = read_int(cfg, "n_positions", default=512, limit=LIMITS["max_position_embeddings"])
    return Scheme(mt, (enc,) * n_enc + (dec,) * n_dec, L, L, heads, heads, d_kv,
                  notes + (f"L = {L}: T5's pre-training input length (n_positions)",))
