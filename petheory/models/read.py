r"""A rotary decoder's config (its text part) -> one ``petheory.scheme.Layer`` per layer, read from its fields.

The fields are read by their meaning in transformers 5 (``PreTrainedConfig.convert_rope_params_to_dict``):
``rope_parameters`` (5.x) or ``rope_scaling`` + ``rope_theta`` (4.x), flat or keyed by layer type, with a value
inside the dict winning over the same field at the top level; partial rotary from ``partial_rotary_factor``
(inside the rope dict, then at the top level), then the family's legacy field (``rotary_pct``, ``rotary_dim``);
``head_dim`` (else hidden size / heads); ``layer_types`` (``linear_attention``, ``conv``, ``mlp``: layers without
positions), else the family's derivation; ``sliding_window`` and ``attention_chunk_size`` for the spans. What only
a family's code decides (NoPE rules, the logit scale, the pairing) is :mod:`petheory.models.families`.

Pure: no file is read.
"""

from __future__ import annotations

import dataclasses
import math
import re

from petheory.encodings import partial_rotary_dim
from petheory.errors import ValidationError
from petheory.models.families import FOREIGN_FIELDS, GEMMA4_TEXT, NO_POSITION_TYPES, Family, layer_types
from petheory.models.fields import INT_LIMIT, fail, read_bool, read_head_dim, read_heads, read_int, read_int_list, read_real
from petheory.models.understood import refuse_unknown
from petheory.models.rope import ROPE_TYPES, check_rope_keys, rope_dict, rope_scheme
from petheory.scheme import Layer, MRope, Positions, Scheme, Span, Temperature

#: Spellings of the same quantity across families (as transformers' attribute maps name them), first found wins.
LAYERS = ("num_hidden_layers", "n_layer", "num_layers", "n_layers")
HEADS = ("num_attention_heads", "n_head", "num_heads", "n_heads")
HIDDEN = ("hidden_size", "n_embd", "d_model", "n_embed")
MAX_POS = ("max_position_embeddings", "n_positions", "max_seq_len", "seq_length", "n_ctx")


def first_key(cfg: dict, keys: tuple) -> str:
    """The first of ``keys`` the config sets (the first one when none is set: its missing-field error names it).

    Parameters
    ----------
    cfg : dict
        The config.
    keys : tuple of str
        Names a field may be stored under.

    Returns
    -------
    str
        The name to read.

    Examples
    --------
    >>> first_key({"n_layer": 2}, ("num_hidden_layers", "n_layer")), first_key({}, ("num_hidden_layers", "n_layer"))
    ('n_layer', 'num_hidden_layers')
    """
    return next((k for k in keys if cfg.get(k) is not None), keys[0])


def nested_rope(rope: dict, fam: Family) -> dict | None:
    """A ``rope_parameters`` keyed by layer type (Gemma 3, OLMo 3, ZAYA's own names; a null entry: that layer type has
    no RoPE), else None.

    Parameters
    ----------
    rope : dict
        The rope dict (``rope_parameters`` or ``rope_scaling``).
    fam : Family
        The family entry (its own layer type names).

    Returns
    -------
    dict or None
        ``rope`` when it is keyed by layer type, else None (one flat dict for every layer).

    Raises
    ------
    petheory.errors.ValidationError
        Layer-type keys mixed with flat keys.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> nested_rope({"rope_theta": 1e4}, family("llama")) is None, list(nested_rope(
    ...     {"sliding_attention": {"rope_theta": 1e4}}, family("gemma3_text")))
    (True, ['sliding_attention'])
    """
    keys = [k for k in rope if k in ("full_attention", "sliding_attention", "chunked_attention", "linear_attention",
                                     "indexed_attention", *dict(fam.aliases))]
    if not keys:
        return None
    if len(keys) != len(rope) or not all(isinstance(rope[k], dict) or rope[k] is None for k in keys):
        raise ValidationError("config field rope_parameters mixes per-layer-type objects and flat keys; give either "
                              "{'full_attention': {...}, 'sliding_attention': {...}} or one flat object")
    return rope


def _rope_on(cfg: dict, fam: Family, n: int) -> list:
    """Per layer: whether RoPE may apply (False: a NoPE layer by the family's per-layer field)."""
    if cfg.get("layer_rope_theta") is not None and fam.layer_theta:
        thetas = cfg["layer_rope_theta"]
        if not isinstance(thetas, (list, tuple)) or len(thetas) != n:
            raise fail("layer_rope_theta", f"a list of num_hidden_layers={n} numbers (0: no RoPE on that layer)", thetas)
        return [read_real({"t": x}, "t", positive=False, minimum=0.0, where="layer_rope_theta") > 0 for x in thetas]
    if fam.rope_on_default is not None:
        return fam.rope_on_default(cfg, n)
    if not fam.no_rope_layers:
        return [True] * n
    given = cfg.get("no_rope_layers")
    if not given:  # transformers: None or [] -> a NoPE layer every no_rope_layer_interval-th layer
        k = read_int(cfg, "no_rope_layer_interval", default=fam.no_rope_layers)
        return [bool((i + 1) % k) for i in range(n)]
    return [bool(x) for x in read_int_list(cfg, "no_rope_layers", length=n, minimum=0, maximum=1)]


def read_mrope(cfg: dict, rope: dict, where: str, fam: Family, mt: str, bands: int) -> MRope | None:
    """Multimodal RoPE from ``mrope_section`` (in the rope dict, else at the top level, else the family's default), its
    layout from the family's code (the table); ``mrope_interleaved`` must agree with it.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    rope : dict
        The layer's rope dict.
    where : str
        Where ``rope`` was read (for messages).
    fam : Family
        The family entry (its M-RoPE layout and default sections).
    mt : str
        The model type.
    bands : int
        The rotary bands the sections must cover.

    Returns
    -------
    petheory.scheme.MRope or None
        The sections and layout; None for a family without M-RoPE.

    Raises
    ------
    petheory.errors.ValidationError
        Sections on a family without M-RoPE, or sections that do not cover the bands.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> read_mrope({}, {"mrope_section": [16, 24, 24]}, "rope_parameters.", family("qwen2_vl"), "qwen2_vl", 64).sections
    (16, 24, 24)
    """
    sec = rope.get("mrope_section", cfg.get("mrope_section") or None)  # transformers reads the rope dict's
    if fam.mrope is None:
        if sec:
            raise ValidationError(f"config field {where if 'mrope_section' in rope else ''}mrope_section (multimodal RoPE) "
                                  f"is not part of {mt}'s code as petheory has verified it; refused rather than read")
        return None
    layout = fam.mrope
    src = rope if "mrope_section" in rope else cfg
    sections = fam.mrope_default if not sec else read_int_list(src, "mrope_section", where=where if src is rope else "")
    if not sec and sum(sections) != bands and layout == "chunked":
        raise ValidationError(f"{mt}'s default mrope_section {list(sections)} (not in the file) sums to "
                              f"{sum(sections)} bands, not the {bands} this head rotates: transformers' rotary module "
                              "fails on it (it splits the bands by the sections); give mrope_section (3 band counts "
                              f"summing to {bands})")
    if len(sections) != 3 or sum(sections) != bands:
        order = "(h, w, t)" if layout == "hw_alternating" else "(t, h, w)"  # the order the family's file writes them in
        raise ValidationError(f"config field {where if src is rope else ''}mrope_section = {str(list(sections))[:60]} "
                              f"must be 3 band counts {order} summing to the {bands} rotary bands; fix the config.json")
    if "mrope_interleaved" in rope and read_bool(rope, "mrope_interleaved", default=False) != (layout == "interleaved"):
        raise ValidationError(f"config field {where}mrope_interleaved = {rope['mrope_interleaved']}: {mt}'s code uses the "
                              f"{layout} layout; supported: {layout == 'interleaved'}")
    if layout == "hw_alternating":  # the file's order is (h, w, t); transformers stacks h with w, so they must be equal
        name = f"config field {where if src is rope else ''}mrope_section" if sec else f"{mt}'s default mrope_section"
        if sections[0] != sections[1]:
            raise ValidationError(f"{name} = {list(sections)}: {mt}'s rotary module stacks the h and w bands in pairs, "
                                  "so their counts must be equal (transformers fails otherwise); fix the config.json")
        rtype = rope.get("rope_type", rope.get("type", "default"))
        if rtype not in ("default", "mrope"):
            raise ValidationError(f"config field {where}rope_type = {rtype!r}: {mt}'s rotary module runs the default "
                                  "rope type only (transformers raises on any other): transformers cannot run this "
                                  "config; use rope_type default")
        return MRope((sections[2], sections[0], sections[1]), layout)
    return MRope(sections, layout)


def refuse_foreign(cfg: dict, mt: str, fam: Family) -> None:
    """A field that changes positions but is not read for this family is refused by name, never dropped.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.
    fam : Family
        Its family entry (the fields it reads).

    Raises
    ------
    petheory.errors.ValidationError
        A positional field of another family, an unknown one (:func:`petheory.models.understood.refuse_unknown`), or
        bidirectional attention.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> refuse_foreign({"rope_theta": 1e4}, "llama", family("llama"))
    >>> refuse_foreign({"query_pre_attn_scalar": 256}, "llama", family("llama"))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config field query_pre_attn_scalar changes positions but is not part of llama: ...
    """
    mine = set(fam.extra) | ({"no_rope_layers", "no_rope_layer_interval"} if fam.no_rope_layers else set()) | (
        {"mrope_section"} if fam.mrope else set()) | ({"query_pre_attn_scalar"} if fam.scale == "gemma" else set())
    for key in FOREIGN_FIELDS:
        if key not in mine and cfg.get(key) is not None and cfg.get(key) != []:
            if key in ("attention_multiplier", "key_multiplier", "attention_in_multiplier") and cfg[key] in (1, 1.0) \
                    or key == "rope_interleave" and not cfg[key]:
                continue  # the value that changes nothing
            raise ValidationError(f"config field {key} changes positions but is not part of {mt}: refused rather than "
                                  f"dropped; remove it, or give the model_type that has it")
    own = mine | {"rotary_pct", "rotary_emb_base", "rotary_dim"} & {fam.prf_legacy, "rotary_emb_base" if mt == "gpt_neox"
                                                                     else None} | set(FOREIGN_FIELDS) | {
        "no_rope_layer_interval", "floor_scale"}
    refuse_unknown(cfg, mt, own)



def _causal(cfg: dict, mt: str, fam: Family, fields, types: list) -> bool:
    """Whether the attention layers mask causally: the family's (an encoder's is not), or not where the file sets
    ``use_bidirectional_attention`` and the model type's code reads it (Gemma's attention: ``is_causal = not
    use_bidirectional_attention``; Gemma 4's: ``!= "all"``, its ``"vision"`` making only image tokens see each other
    both ways, so text positions stay causal)."""
    val = cfg.get("use_bidirectional_attention")
    if not val or val == "vision":
        return fam.causal
    if val not in (True, "all"):
        raise fail("use_bidirectional_attention", "true, false, 'all', 'vision' or null", val)
    if fields is not None and "use_bidirectional_attention" not in fields:
        raise ValidationError(f"config field use_bidirectional_attention is set, but transformers' {mt} code never reads "
                              "it (its attention is causal): refused rather than read either way; remove it")
    if "sliding_attention" in types and mt not in BIDIRECTIONAL_WINDOW_TYPES:
        raise ValidationError(f"config field use_bidirectional_attention is set on {mt}, whose sliding layers then take "
                              "a bidirectional window petheory has not verified for it: refused rather than read")
    return False


#: Model types whose text model, where ``use_bidirectional_attention`` is set, widens the masks it builds: the full
#: layers' to every key (``or_mask_function`` always True), the sliding layers' to :math:`|i - j| < W`, W =
#: ``sliding_window`` (``_bidirectional_window_overlay``), under the sdpa and eager kernels, which follow the mask.
#: Gemma 3's attention also sets ``is_causal`` False; Step 3.5's keeps it True (:data:`STEP_MASK`), and its model
#: refuses flash attention (``_supports_flash_attn`` False), so the mask is what runs.
BIDIRECTIONAL_WINDOW_TYPES = ("gemma3_text", "step3p5")

#: The note of Step 3.5 read bidirectional: the mask, not the attention's ``is_causal``, makes it so.
STEP_MASK = ("use_bidirectional_attention (step3p5): the attention keeps is_causal True; the text model's forward "
             "widens the masks it builds (full layers: every key; sliding layers: |i - j| < sliding_window), so the "
             "sdpa and eager kernels, the ones transformers runs it with (it does not support flash attention), "
             "attend both ways, as read here")


def per_layer_overrides(cfg: dict, mt: str, fam: Family, types: list) -> dict:
    """The per-layer overrides ``{layer index: {field: value}}`` transformers applies: the file's ``per_layer_config``
    (its sparse per-layer settings), else what the family's class derives (:attr:`Family.per_layer_default`), each
    field one the family's modeling code reads per layer (:attr:`Family.per_layer`, :attr:`Family.per_layer_inert`).

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.
    fam : Family
        Its family entry.
    types : list of str
        Its layer types.

    Returns
    -------
    dict
        Layer index -> the fields set for that layer (layers without overrides absent).

    Raises
    ------
    petheory.errors.ValidationError
        A field its code does not read per layer, an index out of range, or overrides that differ within a layer type
        where its rotary module reads them by type (transformers fails on those).

    Examples
    --------
    >>> from petheory.models.families import family
    >>> per_layer_overrides({}, "gemma4_text", family("gemma4_text"), ["sliding_attention", "full_attention"])
    {1: {'head_dim': 512}}
    """
    n = len(types)
    if not fam.per_layer and not fam.per_layer_inert:
        return {}
    plc = cfg.get("per_layer_config")
    if plc is None:
        plc = fam.per_layer_default(cfg, types) if fam.per_layer_default is not None else {}
    if not isinstance(plc, dict):
        raise fail("per_layer_config", "an object {layer index: {field: value}}", plc)
    over = {}
    for k, fields in plc.items():
        if not (isinstance(k, str) and k.isdigit() or isinstance(k, int) and not isinstance(k, bool)) or int(k) >= n:
            raise fail("per_layer_config", f"keyed by layer indices < {n}", k)
        if not isinstance(fields, dict):
            raise fail(f"per_layer_config.{k}", "an object {field: value}", fields)
        for key in fields:
            if key not in fam.per_layer + fam.per_layer_inert:
                raise ValidationError(f"config field per_layer_config.{k}.{key} is not read per layer by {mt}'s code "
                                      "as petheory has verified it (it reads "
                                      f"{', '.join(fam.per_layer + fam.per_layer_inert)} there): refused rather than "
                                      "read or dropped")
        over[int(k)] = fields
    if fam.per_layer_by_type:
        for t in dict.fromkeys(types):
            same = [i for i, u in enumerate(types) if u == t]
            odd = next((i for i in same if over.get(i, {}) != over.get(same[0], {})), None)
            if odd is not None:
                raise ValidationError(f"config field per_layer_config gives {t} layer {odd} other settings than "
                                      f"{t} layer {same[0]}: transformers' {mt} rotary module reads them per layer "
                                      "type and fails on that (not homogeneous); give every layer of a type the same")
    return over


def _per_layer(cfg: dict, mt: str, fam: Family, d: int, types: list) -> tuple[list, list]:
    """Per layer: its head dimension and its own window (None: the layer type's), from
    :func:`per_layer_overrides`."""
    n = len(types)
    over = per_layer_overrides(cfg, mt, fam, types)
    dims = [read_int(over[i], "head_dim", minimum=2, where=f"per_layer_config.{i}.", limit=1 << 14)
            if "head_dim" in over.get(i, {}) else d for i in range(n)]
    windows = [None] * n
    if "sliding_window" in fam.per_layer:
        windows = _layer_windows(cfg, mt, types, over, cfg.get("per_layer_config") is not None)
    return dims, windows


def _layer_windows(cfg: dict, mt: str, types: list, over: dict, given: bool) -> list:
    """NeoMME's windows: layer i's mask slides by ``per_layer_config[i].sliding_window`` (the global one where it has
    none), its attention module by that + 1 on the sliding layers; a full layer must be given null, a sliding one a
    window (transformers fails on null there)."""
    where = "per_layer_config" + ("" if given else " (not in this file: transformers' configuration class derives it "
                                  "from layer_types)")
    glob = cfg.get("sliding_window")
    out = []
    for i, t in enumerate(types):
        w = over[i]["sliding_window"] if i in over and "sliding_window" in over[i] else glob
        if t == "full_attention" and w is not None:
            raise ValidationError(f"config field {where} gives full-attention layer {i} no sliding_window: null, so "
                                  f"{mt}'s mask slides it by sliding_window = {w} while its attention module says full "
                                  f"(transformers' attention paths disagree): refused; add per_layer_config.{i}."
                                  "sliding_window = null")
        if t == "sliding_attention" and w is None:
            raise ValidationError(f"config field {where} leaves sliding layer {i} without a window: transformers' {mt} "
                                  "attention fails on it (None + 1); give sliding_window")
        own = i in over and "sliding_window" in over[i]
        out.append(None if w is None else read_int(over[i] if own else cfg, "sliding_window",
                                                   where=f"per_layer_config.{i}." if own else ""))
    return out


def logit_factor(cfg: dict, fam: Family, d: int) -> float:
    """The factor on every logit beyond :math:`d^{-1/2}`, as the family's attention computes it.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    fam : Family
        Its family entry (its ``scale`` rule).
    d : int
        The head dimension.

    Returns
    -------
    float
        1 for the plain :math:`d^{-1/2}` softmax scale.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> round(logit_factor({"query_pre_attn_scalar": 256}, family("gemma2"), 128), 6), logit_factor({}, family("llama"), 128)
    (0.707107, 1.0)
    """
    if fam.scale == "gemma" and cfg.get("query_pre_attn_scalar") is not None:
        # softmax scale query_pre_attn_scalar^-1/2 instead of d^-1/2: every logit times sqrt(d / query_pre_attn_scalar)
        return math.sqrt(d / read_real(cfg, "query_pre_attn_scalar"))
    if fam.scale == "one":  # Gemma 3n, Gemma 4: scaling = 1 (queries and keys are RMS-normed)
        return math.sqrt(d)
    if fam.scale == "granite":  # scaling = attention_multiplier
        return read_real(cfg, "attention_multiplier", default=1.0) * math.sqrt(d)
    if fam.scale == "falcon_h1":  # keys times key_multiplier, the attention's input times attention_in_multiplier
        return read_real(cfg, "key_multiplier", default=1.0) * read_real(cfg, "attention_in_multiplier", default=1.0) ** 2
    if fam.scale == "qk_scale":  # Muse: queries times qk_scale_factor after the scaleless QK norm, scaling d^-1/2
        return read_real(cfg, "qk_scale_factor", default=fam.scale_default)
    return 1.0


def rope_model(cfg: dict, mt: str, fam: Family, fields=None) -> Scheme:
    """The per-layer scheme of a rotary decoder's (text) config.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        The model type whose family's table entry it is read by.
    fam : Family
        That entry.
    fields : iterable of str, optional
        The positional fields its configuration class has (None: unknown).

    Returns
    -------
    petheory.scheme.Scheme
        One layer per decoder layer: its positions (rotary with its scaling, or none), span, temperature and sinks.

    Raises
    ------
    petheory.errors.ValidationError
        A field missing, out of range or not understood.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> cfg = {"hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2, "max_position_embeddings": 4096,
    ...        "rope_theta": 1e4}
    >>> s = rope_model(cfg, "llama", family("llama"))
    >>> len(s.layers), s.context, s.layers[0].positions.params
    (2, 4096, {'base': 10000.0, 'pairing': 'half'})
    """
    if fam.convert is not None:
        cfg = fam.convert(cfg)
    hidden = read_int(cfg, first_key(cfg, HIDDEN))
    heads = read_heads(cfg, *HEADS)
    refuse_foreign(cfg, mt, fam)
    d = read_head_dim(cfg, hidden, heads)
    if mt in ("gptj", "codegen") and cfg.get("rotary_dim") is None and d != hidden:
        raise ValidationError(f"config field rotary_dim is null: {mt}'s code then builds its sin/cos table over the "
                              f"whole hidden_size ({hidden}) and applies it to heads of {d}, which transformers cannot "
                              "run with more than one head; give rotary_dim (the published GPT-J and CodeGen files: 64)")
    kv = read_int(cfg, "num_key_value_heads", default=cfg.get("num_kv_heads") or heads)
    listed = cfg.get("layer_types", cfg.get("layers_block_type"))
    if cfg.get(first_key(cfg, LAYERS)) is None and isinstance(listed, (list, tuple)) and listed:
        n = len(listed)  # Nemotron-H: the layer count is its layers_block_type's length
    else:
        n = read_int(cfg, first_key(cfg, LAYERS))
    max_pos = read_int(cfg, first_key(cfg, MAX_POS), default=2048 if mt == "falcon" else None)
    rope, where = rope_dict(cfg)
    rope_on = _rope_on(cfg, fam, n)
    types = layer_types(cfg, mt, fam, n, rope_on, class_has_types=None if fields is None else "layer_types" in fields)
    if "cross_attention_layers" in fam.extra and cfg.get("cross_attention_layers"):
        cross = set(read_int_list(cfg, "cross_attention_layers", minimum=0, maximum=n - 1))
        types = ["cross_attention" if i in cross else t for i, t in enumerate(types)]
    dims, windows = _per_layer(cfg, mt, fam, d, types)
    causal = _causal(cfg, mt, fam, fields, types)
    nested = nested_rope(rope, fam)
    notes: list = []
    kinds: dict = {}  # (layer type, rotary?, d, theta) -> Layer
    contexts: dict = {}  # kind key -> its original context L (rotary layers)
    layers, keys = [], []
    nope_types = fam.nope_types
    if fam.nope_if_window and cfg.get("sliding_window") is not None:  # EXAONE 4: global layers skip RoPE when any slides
        nope_types = ("full_attention",)
    forced = [False] * n
    if mt == "cohere2_moe" and read_int(cfg, "prefix_dense_sliding_window_pattern", default=1, minimum=0) == 1:
        # Cohere2MoeAttention.force_rope: a dense (non-MoE) layer applies RoPE whatever its type when the pattern is 1
        mlp = cfg.get("mlp_layer_types")
        if not isinstance(mlp, (list, tuple)) or len(mlp) != n:
            raise fail("mlp_layer_types", f"a list of num_hidden_layers={n} 'dense' / 'sparse'", mlp)
        forced = [x == "dense" for x in mlp]
    if fam.rope_by_type and cfg.get("position_embedding_type") != "rope":
        # Granite 4.0-H: the model builds its rotary embedding only for position_embedding_type == "rope"
        rope_on = [False] * n
        if cfg.get("position_embedding_type") not in (None, "nope"):
            raise fail("position_embedding_type", "'rope', 'nope' or null (no positions)", cfg["position_embedding_type"])
    thetas = cfg.get("layer_rope_theta") if fam.layer_theta == "base" else None
    scaled = None  # Molmo2: only the layers of rope_scaling_layers apply rope_parameters' scaling (None: all)
    if "rope_scaling_layers" in fam.extra and cfg.get("rope_scaling_layers") is not None:
        scaled = set(read_int_list(cfg, "rope_scaling_layers", minimum=0, maximum=n - 1))
    if mt == "gemma3_text" and not causal and "sliding_attention" in types:
        # Gemma3TextConfig.__post_init__ with use_bidirectional_attention: sliding_window // 2 + 1, the exclusive
        # bound |i - j| < W its forward's window overlay takes (the file holds the saved form, (W - 1) * 2)
        half = read_int(cfg, "sliding_window") // 2 + 1
        windows = [half if t == "sliding_attention" and w is None else w for t, w in zip(types, windows)]
        notes.append(f"use_bidirectional_attention (gemma3_text): the class reads sliding_window "
                     f"{read_int(cfg, 'sliding_window')} as the bound |i - j| < {half} (sliding_window // 2 + 1)")
    for i, (t, d_i, w_i) in enumerate(zip(types, dims, windows)):
        rotary = forced[i] or rope_on[i] and t not in nope_types and t not in NO_POSITION_TYPES and not (
            nested is not None and t in nested and nested[t] is None)  # transformers: a null entry has no RoPE
        theta = float(thetas[i]) if thetas and rotary else None
        plain = rotary and scaled is not None and i not in scaled
        key = (t, rotary, d_i, theta, plain, w_i)
        if key not in kinds:
            pos, L = _positions(cfg, mt, fam, t, rotary, d_i, rope, where, nested, max_pos, notes, theta, plain)
            kinds[key] = Layer(pos, _span(cfg, t, fam, w_i), _temperature(cfg, mt, fam, t, rotary), fam.sinks and t not in
                               NO_POSITION_TYPES, t, causal=causal)
            if L is not None:
                contexts[key] = L
        layers.append(kinds[key])
        keys.append(key)
    notes.extend(_notes(cfg, mt, fam, layers))
    if cfg.get("head_dim") is None and hidden % heads:
        notes.append(f"hidden_size {hidden} is not a multiple of the {heads} heads: transformers sizes each head "
                     f"hidden_size // heads = {d}, as here")
    scheme = Scheme(mt, tuple(layers), max_pos, max_pos, heads, kv, d, tuple(dict.fromkeys(notes)))
    # L: the main layer's original context (a scaled global RoPE's; Gemma 3's local layers are not scaled)
    L = contexts.get(keys[layers.index(scheme.main)], min(contexts.values(), default=max_pos))
    return dataclasses.replace(scheme, context=L)


def _layer_rope(cfg, mt, fam, t, rope, where, nested):
    """The RoPE parameter dict of layer type ``t`` and where it was read (for errors)."""
    if nested is not None and t in nested:
        return nested[t], f"{where}{t}."
    if nested is not None and mt not in ("gemma3_text", "olmo3"):
        raise ValidationError(f"config field {where.rstrip('.')} has no entry for the {t} layers; it has "
                              f"{', '.join(nested)}")
    if nested is not None:  # Gemma 3, OLMo 3: transformers fills a missing layer type with default RoPE
        return {}, where
    if mt in GEMMA4_TEXT and rope:
        raise ValidationError(f"config field {where.rstrip('.')} must be keyed by layer type for {mt} "
                              "({'full_attention': {...}, 'sliding_attention': {...}}), as transformers reads it")
    if mt in GEMMA4_TEXT:  # transformers' defaults
        return ({"rope_type": "proportional", "partial_rotary_factor": 0.25, "rope_theta": 1e6}
                if t == "full_attention" else {"rope_theta": 10000.0}), ""
    if t == "sliding_attention" and mt in ("gemma3_text", "olmo3"):
        # a flat rope_scaling/rope_parameters is the full-attention layers'; the sliding ones keep default RoPE at
        # rope_local_base_freq (Gemma 3, default 10^4) or at the model's rope_theta (OLMo 3): transformers' config classes
        key = "rope_local_base_freq" if mt == "gemma3_text" else "rope_theta"
        src = cfg if cfg.get(key) is not None else (rope if mt == "olmo3" and "rope_theta" in rope else {})
        return {"rope_theta": read_real(src, key if src is cfg else "rope_theta", default=fam.theta_default if
                                        mt == "olmo3" else 10000.0, where="" if src is cfg else where)}, ""
    return rope, where


def _partial(cfg, fam, lrope, lwhere, d, proportional):
    """Rotated dimensions of a ``d``-dimensional head: the rope dict's partial_rotary_factor wins, then the top
    level's, then the family's legacy field (transformers' priority)."""
    if "partial_rotary_factor" in lrope:
        key, src, where = "partial_rotary_factor", lrope, lwhere
    elif fam.prf_forced is not None:
        # the class's __post_init__ passes partial_rotary_factor = prf_forced to the rope standardisation, in place of
        # a top-level one (Bamba: transformers rotates half of each head whatever the top level says)
        top = cfg.get("partial_rotary_factor")
        if top is not None and read_real(cfg, "partial_rotary_factor") != fam.prf_forced:
            raise ValidationError(f"config field partial_rotary_factor = {top!r}: transformers' configuration class of "
                                  f"this model type replaces it with {fam.prf_forced} (its __post_init__), so the model "
                                  f"runs {fam.prf_forced}; remove it, or put it in rope_parameters, where it is read")
        key, src, where = "partial_rotary_factor", {"partial_rotary_factor": fam.prf_forced}, ""
    elif cfg.get("partial_rotary_factor") is not None:
        key, src, where = "partial_rotary_factor", cfg, ""
    elif fam.prf_legacy == "rotary_dim" and cfg.get("rotary_dim") is not None:
        r = read_int(cfg, "rotary_dim", minimum=2)
        if r > d:
            raise fail("rotary_dim", f"at most head_dim = {d}", r)
        return 2 * (r // 2) if proportional else partial_rotary_dim(d, r / d), "rotary_dim"
    elif fam.prf_legacy == "rotary_pct" and cfg.get("rotary_pct") is not None:
        key, src, where = "rotary_pct", cfg, ""
    else:
        key, src, where = "partial_rotary_factor", {}, ""
    prf = read_real(src, key, default=fam.prf_default, where=where)
    if not proportional and prf <= 1 and int(d * prf) % 2 and int(d * prf) > 1:
        return int(d * prf), (f"config field {where}{key} = {prf:g}" if src else f"{key} {prf:g} (not in the file: "
                              "the class's default)")  # odd: _odd_rotary reads what transformers rotates, or refuses
    try:
        r = 2 * int(prf * d // 2) if proportional else partial_rotary_dim(d, prf)
    except ValueError as exc:
        raise ValidationError(f"config field {where}{key}: {exc}") from None
    if r < 2:
        raise fail(where + key, f"a fraction of head_dim={d} that leaves at least one rotary pair", prf)
    return r, where + key


#: rope types whose frequencies transformers computes as :math:`\theta^{-2i/\mathrm{dim}}` for
#: :math:`i < \lceil \mathrm{dim}/2 \rceil`, then scales each band by what depends on its frequency or index only
#: (linear: / factor; llama3: by its wavelength; longrope: / its factor i): on an odd dim, the ladder of dim + 1 at base
#: :math:`\theta^{(\mathrm{dim} + 1)/\mathrm{dim}}`, scaled alike, exactly (:math:`\theta` = ``rope_theta``)
ODD_ROTARY_TYPES = ("default", "linear", "mrope", "llama3", "longrope", "su")


def _odd_rotary(cfg, mt, fam, lrope, d, r, field, notes) -> tuple[int, float]:
    r"""(rotated dimensions, exponent on rope_theta) of an odd ``r = int(head_dim * partial_rotary_factor)``.

    transformers' rotary module takes ``inv_freq = rope_theta ** -(arange(0, r, 2) / r)``: :math:`(r+1)/2` frequencies
    :math:`\theta^{-2i/r}`, so cos/sin of width :math:`r + 1`; an apply function that rotates ``q[..., :cos.shape[-1]]``
    (GLM-4.5V's) turns the first :math:`r + 1` coordinates in half-split pairs :math:`(i, i + (r+1)/2)`. That is the
    ladder of :math:`r + 1` dimensions at base :math:`\theta^{(r+1)/r}` (:math:`(\theta^{(r+1)/r})^{-2i/(r+1)} =
    \theta^{-2i/r}`). Refused where cos/sin are wider than the head (transformers' apply cannot run it), where the
    family's apply function is not known to slice so, and for a rope type whose frequencies depend on ``dim`` otherwise.
    """
    size = f"head_dim {d}" + ("" if cfg.get("head_dim") is not None else " (hidden_size // num_attention_heads, as "
                              "transformers sizes it)")
    prf = re.search(r"(?: = |_factor )([\d.e+-]+)", field).group(1)
    what = f"{field} of {size} gives an odd rotary dimension int({d} * {prf}) = {r}"
    if r + 1 > d:
        raise ValidationError(f"{what}: transformers' rotary module makes {(r + 1) // 2} frequencies, cos/sin of width "
                              f"{r + 1} for a {d}-dimensional head, and its apply function fails on them (a shape "
                              "mismatch): transformers cannot run this config; give a head_dim or partial_rotary_factor "
                              "whose product is even")
    if not fam.odd_rotary:
        raise ValidationError(f"{what}: which coordinates {mt}'s apply function then rotates is not read (it rotates "
                              f"{r + 1} for GLM-4.5V's glm4v_moe_text); give a product that is even")
    rtype = lrope.get("rope_type", lrope.get("type", "default"))
    if rtype == "yarn":
        raise ValidationError(f"{what}: transformers' yarn ramp has {r} // 2 = {r // 2} entries for its {(r + 1) // 2} "
                              "frequencies, and its rotary module fails on them (a shape mismatch): transformers cannot "
                              "run this config; give a product that is even")
    if rtype == "dynamic":
        raise ValidationError(f"{what}: transformers' dynamic NTK stretches rope_theta by s^({r}/{r - 2}) beyond "
                              f"max_position_embeddings (s from the length), an exponent of the odd {r}, not of the "
                              f"{r + 1} dimensions it rotates: petheory's dynamic ladder cannot state that, refused rather "
                              "than read; give a product that is even, or rope_type default, linear, llama3 or longrope")
    for key in ("short_factor", "long_factor") if rtype in ("longrope", "su") else ():
        if isinstance(lrope.get(key), (list, tuple)) and len(lrope[key]) == r // 2:
            raise ValidationError(f"{what}: {key} has {r // 2} entries ({r} // 2, what transformers' check asks), but "
                                  f"its rotary module divides its {(r + 1) // 2} frequencies by them and fails (a shape "
                                  "mismatch): transformers cannot run this config; give "
                                  f"{(r + 1) // 2} factors (transformers warns and runs them), or an even product")
    if rtype not in ODD_ROTARY_TYPES:
        raise ValidationError(f"{what}: transformers' {rtype!r} frequencies on an odd dimension are not read (read for "
                              f"{', '.join(ODD_ROTARY_TYPES)}); give a product that is even")
    notes.append(f"{what} (a truncation the config's author may not have meant): transformers rotates the first {r + 1} "
                 f"dimensions, {(r + 1) // 2} half-split pairs at frequencies rope_theta^(-2i/{r}), read as the ladder "
                 f"of {r + 1} dimensions at base rope_theta^({r + 1}/{r}); the other {d - r - 1} carry no position")
    return r + 1, (r + 1) / r


def _ntk_alpha(cfg, rope, lrope, lwhere, d, fam, notes) -> dict:
    r"""Hunyuan's ``ntk_alpha`` RoPE (``HunYuanMoEV1RotaryEmbedding.compute_ntk_alpha_rope_parameters``): a "dynamic"
    rope dict with an ``alpha`` is not dynamic scaling but default RoPE at the fixed base
    :math:`\theta\,\alpha^{d/(d-2)}` over the whole head (``d = config.head_dim``; ``factor`` is not read)."""
    if cfg.get("head_dim") is None:
        raise ValidationError(f"config field {lwhere}alpha (Hunyuan's ntk_alpha RoPE) needs head_dim: transformers "
                              "computes its base from config.head_dim and fails without it; add head_dim")
    if rope.get("factor") is None:
        raise ValidationError(f"config field {lwhere}factor is missing: transformers refuses a 'dynamic' rope dict "
                              "without factor (even with an alpha, which it then runs as ntk_alpha); add factor")
    alpha = read_real(rope, "alpha", where=lwhere)  # transformers' validation: a float > 1
    theta = read_real(lrope if "rope_theta" in lrope else cfg, "rope_theta", minimum=1.0 + 2 ** -52,
                      where=lwhere if "rope_theta" in lrope else "")  # the class has no default: transformers fails
    base = theta * alpha ** (d / (d - 2))
    unread = sorted(set(rope) - {"alpha", "type", "rope_type", "rope_theta"})
    notes.append(f"{lwhere}type 'dynamic' with alpha = {alpha:g}: transformers runs it as rope type ntk_alpha, fixed "
                 f"RoPE at base rope_theta * alpha^(d/(d-2)) = {base:.6g} (d = {d})" +
                 (f"; its code does not read {', '.join(unread)}" if unread else ""))
    return {"rope_type": "default", "rope_theta": base}


def _positions(cfg, mt, fam, t, rotary, d, rope, where, nested, max_pos, notes, theta=None, plain=False):
    if t in NO_POSITION_TYPES:
        return Positions("none"), None
    factor = logit_factor(cfg, fam, d)
    if not rotary:
        return Positions("nope", d=d, logit_factor=factor), None
    lrope, lwhere = _layer_rope(cfg, mt, fam, t, rope, where, nested)
    lrope = {k: v for k, v in lrope.items() if k not in fam.rope_keys}
    if fam.ntk_alpha and lrope.get("rope_type", lrope.get("type")) == "dynamic" and rope.get("alpha"):
        lrope = _ntk_alpha(cfg, rope, lrope, lwhere, d, fam, notes)
    if theta is not None:  # Granite-SWA: this layer's own rope_theta
        lrope, lwhere = {**lrope, "rope_theta": theta}, "layer_rope_theta: "
    if plain:  # Molmo2's unscaled module: default RoPE of the whole head at the same theta
        lrope = {"rope_type": "default", "partial_rotary_factor": 1.0,
                 **({"rope_theta": lrope["rope_theta"]} if "rope_theta" in lrope else {})}
    check_rope_keys(lrope, lwhere)
    if lrope.get("rope_type", lrope.get("type")) == "mrope" and fam.mrope is None and "mrope_section" not in lrope:
        raise ValidationError(f"unknown rope_type 'mrope' in {lwhere.rstrip('.')} for {mt} (multimodal RoPE is read for "
                              "the families whose code has it, with their sections); supported: "
                              f"{', '.join(sorted(set(ROPE_TYPES) - {'mrope'}))}")
    proportional = lrope.get("rope_type") == "proportional"
    r, field = _partial(cfg, fam, lrope, lwhere, d, proportional)
    odd = None
    if r % 2:
        r, odd = _odd_rotary(cfg, mt, fam, lrope, d, r, field, notes)
    base_key = "rotary_emb_base" if mt == "gpt_neox" and "rotary_emb_base" in cfg else "rope_theta"
    default_base = 10000.0 if t == "sliding_attention" and mt in ("gemma3_text", *GEMMA4_TEXT) else fam.theta_default
    pairing = "interleaved" if cfg.get("rope_interleave") and "rope_interleave" in fam.extra else fam.pairing
    name, params, L = rope_scheme(cfg, lrope, lwhere, d=d, rotary_dim=r, base_key=base_key, default_base=default_base,
                                  pairing=pairing, max_pos=max_pos)
    if odd is not None:
        params["base"] = params["base"] ** odd
    mrope = read_mrope(cfg, lrope, lwhere, fam, mt, r // 2)
    if r != d:
        notes.append(f"partial rotary ({t}): {r} of {d} head dimensions rotate, the other {d - r} carry no position")
    if proportional:
        theta = (params["base"]) ** (d / r)
        notes.append(f"proportional RoPE ({t}): rope_theta {theta:.6g} on the ladder of the whole {d}-dimensional head, "
                     f"cut to its first {r // 2} bands = base {params['base']:.6g} on a {r}-dimensional ladder")
    if fam.reflected:
        notes.append(f"rotation by -theta ({t}): {mt}'s apply function turns each pair by -theta (rotate_half with "
                     "flipped signs); its logit kernel at offset m - n is RoPE's at n - m, the same frequencies and "
                     "kernels as RoPE at +theta with each pair's second coordinate negated in W_q and W_k")
    return Positions("rotary", name, params, d, factor, mrope=mrope, proportional=proportional,
                     reflected=fam.reflected), L


def _span(cfg: dict, t: str, fam: Family | None = None, window: int | None = None) -> Span:
    t = dict(fam.aliases).get(t, t) if fam is not None else t  # ZAYA's hybrid layers: full; hybrid_sliding: sliding
    if t == "sliding_attention" and window is not None:  # a per-layer window (NeoMME: bidirectional, |i - j| <= W)
        return Span("sliding", window + 1 if fam is not None and not fam.causal else window)
    if t == "full_attention" and fam is not None and fam.window_on_full and cfg.get("sliding_window") is not None:
        return Span("sliding", read_int(cfg, "sliding_window"))
    if t == "sliding_attention" and fam is not None and not fam.causal:
        # a bidirectional window: |i - j| <= W, W = sliding_window (ModernBERT: local_attention // 2)
        w = read_int(cfg, fam.window_key, minimum=2 if fam.window_key == "local_attention" else 1)
        return Span("sliding", (w // 2 if fam.window_key == "local_attention" else w) + 1)
    if t == "sliding_attention":
        return Span("sliding", read_int(cfg, "sliding_window"))
    if t == "chunked_attention":
        return Span("chunked", read_int(cfg, "attention_chunk_size"))
    return Span()


def query_scale(cfg: dict, fam: Family) -> Temperature | None:
    r"""The family's position-dependent factor on every query of an attention layer (None: none).

    Ministral 3's and Mistral 4's attention multiply queries by ``get_llama_4_attn_scale``,
    :math:`1 + \beta \log(1 + \lfloor p / L_0 \rfloor)`, beta and :math:`L_0` read from ``rope_parameters`` (a file
    without them fails in transformers' forward).

    Parameters
    ----------
    cfg : dict
        The (text) config.
    fam : Family
        Its family entry.

    Returns
    -------
    petheory.scheme.Temperature or None
        The ``llama4_beta`` temperature, or None.

    Raises
    ------
    petheory.errors.ValidationError
        ``llama_4_scaling_beta`` or ``original_max_position_embeddings`` missing or out of range.

    Examples
    --------
    >>> from petheory.models.families import family
    >>> rope = {"rope_type": "yarn", "factor": 16.0, "rope_theta": 1e6, "llama_4_scaling_beta": 0.1,
    ...         "original_max_position_embeddings": 16384}
    >>> query_scale({"rope_parameters": rope}, family("ministral3")).params
    {'beta': 0.1, 'original_max_position_embeddings': 16384.0}
    """
    if fam.query_scale != "llama4_beta":
        return None
    rope, where = rope_dict(cfg)
    beta = read_real(rope, "llama_4_scaling_beta", positive=False, minimum=0.0, where=where)
    L0 = read_int(rope, "original_max_position_embeddings", where=where)
    return Temperature("llama4_beta", {"beta": beta, "original_max_position_embeddings": float(L0)})


def _temperature(cfg: dict, mt: str, fam: Family, t: str, rotary: bool) -> Temperature | None:
    if fam.query_scale is not None:
        return None if t in NO_POSITION_TYPES else query_scale(cfg, fam)
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


#: The note of a bidirectional (encoder) scheme: which results assume a causal mask and which do not.
BIDIRECTIONAL = ("bidirectional attention (an encoder, or use_bidirectional_attention): every query attends to keys on "
                 "both sides. The position-only kernel over i - j, its spectra, the band table and the geometry's stress "
                 "do not depend on the mask (the N x N kernel analysed is the full Toeplitz matrix, which a causal mask "
                 "would cut to j <= i); what assumes a causal mask: petheory plan (its evidence is causal decoders' "
                 "context extension) and a NoPE layer's sense of order (a causal mask's alone)")


def _notes(cfg: dict, mt: str, fam: Family, layers: list) -> list:
    notes = []
    count = {}
    for layer in layers:
        key = (layer.type, layer.positions.kind, str(layer.span))
        count[key] = count.get(key, 0) + 1
    if len(count) > 1 or any(s != "full" for (_, _, s) in count):
        notes.append("layers: " + "; ".join(f"{c} x {t or 'attention'} ({k}, span {s})" for (t, k, s), c in count.items()))
    if any(layer.span.kind == "sliding" and layer.causal for layer in layers):
        notes.append("sliding-window layers attend to the last W keys: their kernel beyond W is never used")
    if any(layer.span.kind == "sliding" and not layer.causal for layer in layers):
        notes.append("bidirectional sliding-window layers attend to the keys with |i - j| < W on both sides: their "
                     "kernel beyond W - 1 is never used")
    if any(layer.span.kind == "chunked" for layer in layers):
        notes.append("chunked layers attend within their chunk of C tokens: distances reach at most C - 1")
    if any(layer.positions.kind == "nope" for layer in layers):
        notes.append("NoPE layers: softmax attention that sees no position (causal masking aside)")
    if mt == "hrm_text":
        notes.append(f"hrm_text: {len(layers)} attention layers as HrmTextModel runs them (an L stack and an H stack of "
                     "num_layers_per_stack layers each, run H_cycles x (L_cycles + 1) times, one RoPE for all)"
                     + ("; prefix_lm: where the input carries token_type_ids, the tokens of type 1 (the instruction) "
                        "attend to each other both ways, a mask the input sets, not the config; without them every "
                        "layer is causal, as read" if read_bool(cfg, "prefix_lm", default=True) else ""))
    if any(not layer.causal for layer in layers):
        notes.append(BIDIRECTIONAL)
        if mt == "step3p5":
            notes.append(STEP_MASK)
    if any(layer.positions.kind == "none" for layer in layers):
        notes.append("layers without softmax attention (linear attention, state-space or convolution mixers) carry no "
                     "positional encoding here: kind 'none'")
    if any(layer.temperature is not None and layer.temperature.kind == "llama4_beta" for layer in layers):
        notes.append("Llama 4 scaling (rope_parameters.llama_4_scaling_beta): every attention layer multiplies its "
                     "queries by 1 + beta * log(1 + floor(p / original_max_position_embeddings)) at position p (a factor "
                     "on the logits that grows with p)")
    if any(layer.temperature is not None and layer.temperature.kind == "llama4" for layer in layers):
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
    for key in (fam.softcap_key, "final_logit_softcapping"):
        if cfg.get(key) and key == fam.softcap_key:
            notes.append(f"{key}={cfg[key]}: logits are soft-capped (tanh) after the scale; not part of the kernel")
    if mt == "llama4_text" and cfg.get("use_qk_norm", True):
        notes.append("use_qk_norm: Llama 4's rotary layers L2-normalise queries and keys after RoPE (content norms only)")
    if any(layer.type == "reference_sliding_attention" for layer in layers):
        notes.append(f"reference_sliding_attention: every query sees all the keys of the prefill (the image and prompt "
                     f"tokens) and, of the tokens generated after it, the last sliding_window = "
                     f"{cfg.get('sliding_window')}; the span depends on where the prefill ends, not on the config, so "
                     "it is analysed as causal full attention (what one forward pass over a prompt runs)")
    if mt == "zaya":
        notes.append(f"ZAYA's CCA attention: before RoPE, queries and keys are mixed by causal 1-D convolutions over "
                     f"the last cca_time0 = {cfg.get('cca_time0', 2)} and cca_time1 = {cfg.get('cca_time1', 2)} "
                     "tokens (learned weights): content from neighbouring tokens, not a term of the positional "
                     "kernel read here")
    if mt == "neomme":
        notes.append("NeoMME's 2-axis M-RoPE (row and column bands alternating) is read for text positions, where both "
                     "axes carry the token index and it rotates exactly as plain RoPE; document-image patches are not "
                     "analysed")
    if fam.scale == "one":
        notes.append(f"{mt}: queries and keys are RMS-normalised and the softmax scale is 1 (logit factor sqrt(d))")
    if fam.scale == "granite" and cfg.get("attention_multiplier") not in (None, 1, 1.0):
        notes.append(f"attention_multiplier = {cfg['attention_multiplier']}: the softmax scale (instead of d^-1/2)")
    if fam.scale == "falcon_h1" and (cfg.get("key_multiplier"), cfg.get("attention_in_multiplier")) != (1.0, 1.0):
        notes.append(f"Falcon-H1: keys times key_multiplier = {cfg.get('key_multiplier')} and the attention's input times "
                     f"attention_in_multiplier = {cfg.get('attention_in_multiplier')}: every logit times "
                     "key_multiplier * attention_in_multiplier^2 (the logit factor)")
    if cfg.get("use_bidirectional_attention") == "vision":
        notes.append("use_bidirectional_attention = 'vision': image tokens attend to each other both ways; the text "
                     "positions read here stay causal")
    if fam.scale == "qk_scale":
        notes.append(f"{mt}: queries and keys are RMS-normalised (no learned scale), then queries times qk_scale_factor "
                     f"= {logit_factor(cfg, fam, 1):.6g} under the softmax scale d^-1/2 (the logit factor)")
    if fam.layer_theta == "flag" and cfg.get("layer_rope_theta") is not None:
        base = next((layer.positions.params.get("base") for layer in layers if layer.positions.kind == "rotary"), None)
        odd = [i for i, x in enumerate(cfg["layer_rope_theta"]) if x and base is not None and float(x) != base]
        if odd:
            notes.append(f"layer_rope_theta[{odd[0]}] = {cfg['layer_rope_theta'][odd[0]]}"
                         + (f" (and {len(odd) - 1} more layers)" if len(odd) > 1 else "")
                         + f" differs from rope_theta = {base:g}: {mt}'s code reads layer_rope_theta only as 0 (no RoPE) "
                         "or not, and rotates every RoPE layer with rope_theta; read so")
    if "num_kv_shared_layers" in fam.extra and cfg.get("num_kv_shared_layers"):
        notes.append(f"num_kv_shared_layers = {cfg['num_kv_shared_layers']}: the last layers reuse the keys and values "
                     "of an earlier layer of the same type (same positions; content shared)")
    if any(layer.positions.kind == "rotary" and layer.positions.params.get("truncate") is False for layer in layers):
        notes.append("YaRN truncate=false: the ramp's end bands are not rounded (gpt-oss)")
    return notes
