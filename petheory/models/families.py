r"""What only a family's modeling code knows: the table beside the fields a config has.

A config's positions are read from its fields, by their meaning in transformers (:mod:`petheory.models.read`).
What a ``config.json`` does not say, and a family's ``modeling_<type>.py`` decides, is one :class:`Family` entry
here, each checked against that code by ``python -m tools.verify`` (the verification table is
:mod:`petheory.models.verified`):

* which layers slide when a (transformers 4) file lists no ``layer_types``: every layer (Mistral), the layers from
  ``max_window_layers`` on (Qwen2), every k-th full (Gemma 2/3, Cohere2, OLMo 3, EXAONE 4), gpt-oss's alternation;
* which layers apply no RoPE: Cohere2's full layers, EXAONE 4's full layers when any layer slides, Llama 4's and
  SmolLM3's ``no_rope_layers`` (0 = NoPE), Granite-SWA's ``layer_rope_theta`` (0 = NoPE), Granite 4.0-H's
  ``position_embedding_type`` (``nope``: no RoPE anywhere);
* the logit scale where it is not ``head_dim^-1/2``: Gemma's ``query_pre_attn_scalar``, Gemma 3n's and Gemma 4's
  1 (q and k are RMS-normed), Granite's ``attention_multiplier``, Falcon-H1's ``key_multiplier``;
* the rotary pairing (adjacent pairs: Llama 4, Cohere, DeepSeek with ``rope_interleave``), M-RoPE's layout, sinks,
  Llama 4's query temperature, the legacy partial-rotary fields (``rotary_pct``, ``rotary_dim``), and the fields
  only a family may carry (:data:`FOREIGN_FIELDS`).

A model type without an entry is read by the fields alone (:data:`DEFAULT`); whether that reading is what its code
does is what the verification table says.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from petheory.errors import ValidationError
from petheory.models.fields import fail, read_bool, read_int, read_int_list, read_real

#: Layer type names (transformers' ``layer_types``) with positions, and the ones that carry none.
ATTENTION_TYPES = ("full_attention", "sliding_attention", "chunked_attention")
NO_POSITION_TYPES = ("linear_attention", "conv", "mlp", "moe", "cross_attention")
#: transformers' legacy layer-type names (configuration_utils._LEGACY_LAYER_TYPE_REMAP).
LEGACY_TYPES = {"mamba": "linear_attention", "attention": "full_attention"}


def _all_full(cfg, n):
    return ["full_attention"] * n


def _window_all(cfg, n):  # Mistral, Mixtral, Phi-3, StarCoder2: the window (if any) applies to every layer
    return ["sliding_attention" if cfg.get("sliding_window") is not None else "full_attention"] * n


def _window_if_used(cfg, n):  # Qwen3-MoE: config.sliding_window on every layer, set only with use_sliding_window
    on = read_bool(cfg, "use_sliding_window", default=False) and cfg.get("sliding_window") is not None
    return ["sliding_attention" if on else "full_attention"] * n


def _qwen(cfg, n):
    on = read_bool(cfg, "use_sliding_window", default=False) and cfg.get("sliding_window") is not None
    mwl = read_int(cfg, "max_window_layers", default=28, minimum=0) if on else 0
    return ["sliding_attention" if on and i >= mwl else "full_attention" for i in range(n)]


def _every(k_default: int, key: str | None = "sliding_window_pattern", other: str = "sliding_attention",
           last_full: bool = False):
    def types(cfg, n):
        k = read_int(cfg, key, default=k_default) if key else k_default
        out = [other if (i + 1) % k else "full_attention" for i in range(n)]
        if last_full and out:
            out[-1] = "full_attention"
        return out
    return types


def _every_from_zero(k: int):  # full attention where i % k == 0 (Granite-SWA), sliding elsewhere
    def types(cfg, n):
        return ["full_attention" if i % k == 0 else "sliding_attention" for i in range(n)]
    return types


def _exaone4(cfg, n):
    if cfg.get("sliding_window") is None:
        return ["full_attention"] * n
    pat = cfg.get("sliding_window_pattern", 4)
    if isinstance(pat, str):  # "LLLG": layer i is local (sliding) iff pattern[i mod len] is L (Exaone4Config's docstring)
        if not pat or len(pat) > 1 << 14 or set(pat) - {"L", "G"}:
            raise fail("sliding_window_pattern", "an integer or a string of L (local) and G (global)", pat)
        return ["sliding_attention" if pat[i % len(pat)] == "L" else "full_attention" for i in range(n)]
    k = read_int(cfg, "sliding_window_pattern", default=4)
    return ["sliding_attention" if (i + 1) % k else "full_attention" for i in range(n)]


def _smollm3(cfg, n, rope_on):
    slide = read_bool(cfg, "use_sliding_window", default=False) and cfg.get("sliding_window") is not None
    return ["sliding_attention" if slide and not rope_on[i] else "full_attention" for i in range(n)]


def _llama4(cfg, n, rope_on):
    chunked = cfg.get("attention_chunk_size", 8192) is not None
    return ["chunked_attention" if r and chunked else "full_attention" for r in rope_on]


def _jamba(cfg, n):  # JambaConfig.layers_block_type: attention where i % attn_layer_period == attn_layer_offset
    period = read_int(cfg, "attn_layer_period", default=8)
    offset = read_int(cfg, "attn_layer_offset", default=4, minimum=0)
    return ["full_attention" if i % period == offset else "linear_attention" for i in range(n)]


def _bamba(cfg, n):  # BambaConfig: attention at attn_layer_indices (None: no attention layer)
    idx = set(read_int_list(cfg, "attn_layer_indices")) if cfg.get("attn_layer_indices") is not None else set()
    return ["full_attention" if i in idx else "linear_attention" for i in range(n)]


def _lfm2(cfg, n):  # Lfm2Config: full attention at full_attn_idxs (default: every layer), short convolutions elsewhere
    idx = read_int_list(cfg, "full_attn_idxs") if cfg.get("full_attn_idxs") is not None else range(n)
    return ["full_attention" if i in set(idx) else "conv" for i in range(n)]


def _muse(cfg, n):  # MuseSparkTextConfig / MuseGlimmerTextConfig: full every 4th layer counted back from the last
    return ["full_attention" if (n - 1 - i) % 4 == 0 else "sliding_attention" for i in range(n)]


def _muse_rope(cfg, n):  # their layer_rope_theta default: 0 (no RoPE) on those same full layers
    return [(n - 1 - i) % 4 != 0 for i in range(n)]


def _modernbert(cfg, n):  # ModernBertConfig: full attention every global_attn_every_n_layers-th layer from 0
    k = read_int(cfg, "global_attn_every_n_layers", default=3)
    return ["sliding_attention" if i % k else "full_attention" for i in range(n)]


def modernbert_rope(cfg: dict) -> dict:
    """``cfg`` with ModernBertConfig.convert_rope_params_to_dict applied: one rope dict per layer type, its
    ``rope_theta`` from ``global_rope_theta`` / ``local_rope_theta`` (Hub files) or the class's defaults (160000,
    10000), a ``rope_scaling`` laid over both.

    Parameters
    ----------
    cfg : dict
        A ModernBERT (text) config as the file has it.

    Returns
    -------
    dict
        The config with ``rope_parameters`` per layer type and the old theta keys taken out.

    Examples
    --------
    >>> out = modernbert_rope({"global_rope_theta": 8e4})
    >>> out["rope_parameters"]["full_attention"]["rope_theta"], out["rope_parameters"]["sliding_attention"]["rope_theta"]
    (80000.0, 10000.0)
    """
    out = {k: v for k, v in cfg.items() if k not in ("rope_scaling", "global_rope_theta", "local_rope_theta")}
    given = cfg.get("rope_parameters")
    if given is not None and not isinstance(given, dict):
        raise fail("rope_parameters", "an object {'full_attention': {...}, 'sliding_attention': {...}}", given)
    rope = {k: dict(v) for k, v in (given or {}).items() if isinstance(v, dict)}
    for t, key, theta in (("full_attention", "global_rope_theta", 160000.0),
                          ("sliding_attention", "local_rope_theta", 10000.0)):
        rope.setdefault(t, {"rope_type": "default"})
        if isinstance(cfg.get("rope_scaling"), dict):
            rope[t].update(cfg["rope_scaling"])
        rope[t].setdefault("rope_theta", cfg.get(key) if cfg.get(key) is not None else theta)
    out["rope_parameters"] = rope
    return out


def _gemma4_per_layer(cfg, types):  # Gemma4TextConfig.__post_init__: the full layers' head_dim is global_head_dim
    gd = read_int(cfg, "global_head_dim", default=512, minimum=2, limit=1 << 14)
    return {i: {"head_dim": gd} for i, t in enumerate(types) if t == "full_attention"}


def _neomme_per_layer(cfg, types):  # NeoMMEConfig.__post_init__: full layers no window, every 2nd sliding layer 1024
    sliding = [i for i, t in enumerate(types) if t == "sliding_attention"]
    return {**{i: {"sliding_window": None} for i, t in enumerate(types) if t == "full_attention"},
            **{i: {"sliding_window": 1024} for k, i in enumerate(sliding) if k % 2}}


def neomme_rope(cfg: dict) -> dict:
    """``cfg`` with NeoMMEConfig.convert_rope_params_to_dict applied: one rope dict per layer type, each filled with
    the class's defaults (full: ``rope_theta`` 1e6, ``partial_rotary_factor`` 0.25; sliding: 1e4, 1.0), a top-level
    ``rope_theta`` (a transformers 4 file) giving both types' theta.

    Parameters
    ----------
    cfg : dict
        A NeoMME config as the file has it.

    Returns
    -------
    dict
        The config with ``rope_parameters`` per layer type.

    Raises
    ------
    petheory.errors.ValidationError
        A ``rope_scaling`` (its class reads none) or a ``rope_parameters`` that is not keyed by layer type.

    Examples
    --------
    >>> rp = neomme_rope({"rope_theta": 5e5})["rope_parameters"]
    >>> rp["full_attention"]["rope_theta"], rp["full_attention"]["partial_rotary_factor"], rp["sliding_attention"]
    (500000.0, 0.25, {'rope_type': 'default', 'rope_theta': 500000.0, 'partial_rotary_factor': 1.0})
    """
    if cfg.get("rope_scaling") is not None:
        raise ValidationError("config field rope_scaling is not read by NeoMME's configuration class (its RoPE is "
                              "rope_parameters per layer type): refused rather than dropped; give rope_parameters")
    given = cfg.get("rope_parameters") or {}
    if not isinstance(given, dict) or set(given) - {"full_attention", "sliding_attention"} or not all(
            isinstance(v, dict) for v in given.values()):
        raise fail("rope_parameters", "an object {'full_attention': {...}, 'sliding_attention': {...}}", given)
    out = {k: v for k, v in cfg.items() if k != "rope_theta"}
    theta = cfg.get("rope_theta")
    rope = {}
    for t, (base, prf) in {"full_attention": (1e6, 0.25), "sliding_attention": (1e4, 1.0)}.items():
        rope[t] = {"rope_type": "default", "rope_theta": read_real(cfg, "rope_theta") if theta is not None else base,
                   "partial_rotary_factor": prf, **given.get(t, {})}
    out["rope_parameters"] = rope
    return out


def step3p5_rope(cfg: dict) -> dict:
    """``cfg`` as Step3p7TextConfig (model type ``step3p5``) loads it: lists padded with ``num_nextn_predict_layers``
    trailing MTP entries (``layer_types``, ``rope_theta``, ``partial_rotary_factors``: the published files') cut to
    the decoder's layers, and ``rope_parameters`` per layer type built from each type's first layer's ``rope_theta``
    and ``partial_rotary_factors`` entry (a scalar ``rope_theta`` for all; ``rope_scaling`` on the full layers) unless
    the file already has one per type.

    Parameters
    ----------
    cfg : dict
        A Step 3.5 / 3.7 text config as the file has it.

    Returns
    -------
    dict
        The config with ``layer_types`` and ``rope_parameters`` per layer type.

    Examples
    --------
    >>> out = step3p5_rope({"num_hidden_layers": 2, "layer_types": ["full_attention", "sliding_attention"],
    ...                     "rope_theta": [5e6, 1e4], "partial_rotary_factors": [0.5, 1.0]})
    >>> out["rope_parameters"]["full_attention"], out["rope_parameters"]["sliding_attention"]["rope_theta"]
    ({'rope_type': 'default', 'rope_theta': 5000000.0, 'partial_rotary_factor': 0.5}, 10000.0)
    """
    n = read_int(cfg, "num_hidden_layers")
    mtp = read_int(cfg, "num_nextn_predict_layers", default=0, minimum=0)
    out = {k: v for k, v in cfg.items() if k not in ("rope_theta", "partial_rotary_factors", "rope_scaling")}
    cut = {}
    for key in ("layer_types", "rope_theta", "partial_rotary_factors"):
        val = cfg.get(key)
        cut[key] = val[:n] if isinstance(val, list) and mtp and len(val) == n + mtp else val
    types = cut["layer_types"] if cut["layer_types"] is not None else ["full_attention"] * n
    out["layer_types"] = types
    if not isinstance(types, list) or len(types) != n:
        return out  # the layer-type reader refuses it, naming the field
    rp = cfg.get("rope_parameters") or {}
    if isinstance(rp, dict) and all(isinstance(rp.get(t), dict) for t in set(types)):
        out["rope_parameters"] = {t: rp[t] for t in set(types)}
        return out
    theta, prf = cut["rope_theta"] if cut["rope_theta"] is not None else 10000.0, cut["partial_rotary_factors"]
    for key, val in (("rope_theta", theta), ("partial_rotary_factors", prf)):
        if isinstance(val, list) and len(val) != n:
            raise fail(key, f"a number or a list of num_hidden_layers = {n} numbers (one per layer)", val)
    rope = {}
    for t in dict.fromkeys(types):
        i = types.index(t)
        rope[t] = {"rope_type": "default", "rope_theta": theta[i] if isinstance(theta, list) else theta}
        if prf:
            rope[t]["partial_rotary_factor"] = prf[i] if isinstance(prf, list) else prf
    if cfg.get("rope_scaling") and "full_attention" in rope:
        if not isinstance(cfg["rope_scaling"], dict):
            raise fail("rope_scaling", "an object", cfg["rope_scaling"])
        rope["full_attention"].update(cfg["rope_scaling"])
    out["rope_parameters"] = rope
    return out


def _longcat(cfg):  # LongcatFlashConfig.num_hidden_layers: 2 * num_layers (two attention sublayers per layer)
    if cfg.get("num_layers") is None:
        return cfg
    return {**cfg, "num_hidden_layers": 2 * read_int(cfg, "num_layers")}


def _hrm(cfg):
    """HrmTextModel.forward runs per high cycle L_cycles passes of the L stack, then one of the H stack, each of
    num_layers_per_stack layers (HrmTextConfig: the file's num_hidden_layers when it has none), whatever
    num_hidden_layers says: that many attention layers, one rotary module.

    >>> _hrm({"num_hidden_layers": 16})["num_hidden_layers"], _hrm({"num_layers_per_stack": 2, "H_cycles": 1,
    ...                                                               "L_cycles": 1, "num_hidden_layers": 9})["num_hidden_layers"]
    (128, 4)
    """
    key = "num_hidden_layers" if cfg.get("num_layers_per_stack") is None else "num_layers_per_stack"
    per_stack = read_int(cfg, key, default=16)
    cycles = read_int(cfg, "H_cycles", default=2, minimum=1) * (read_int(cfg, "L_cycles", default=3, minimum=0) + 1)
    return {**cfg, "num_hidden_layers": per_stack * cycles}


def _zaya(cfg, n):  # ZayaConfig.__post_init__: every layer hybrid when the file lists none
    return ["hybrid"] * n


def zaya_rope(cfg: dict) -> dict:
    """``cfg`` as ZayaConfig loads its RoPE: the class's per-type defaults when the file has no ``rope_parameters``
    (hybrid: theta 5e6, sliding: 1e4, each rotating half the head), and a top-level ``rope_type`` inside a nested
    dict (the published files') removed, as its ``convert_rope_params_to_dict`` does.

    Parameters
    ----------
    cfg : dict
        A ZAYA config as the file has it.

    Returns
    -------
    dict
        The config with ``rope_parameters`` keyed by ``hybrid`` / ``hybrid_sliding``.

    Examples
    --------
    >>> zaya_rope({})["rope_parameters"]["hybrid"]
    {'rope_type': 'default', 'rope_theta': 5000000.0, 'partial_rotary_factor': 0.5}
    """
    rope = cfg.get("rope_parameters")
    if rope is None:
        rope = {"hybrid": {"rope_type": "default", "rope_theta": 5_000_000.0, "partial_rotary_factor": 0.5},
                "hybrid_sliding": {"rope_type": "default", "rope_theta": 10_000.0, "partial_rotary_factor": 0.5}}
    if not isinstance(rope, dict):
        raise fail("rope_parameters", "an object {'hybrid': {...}, 'hybrid_sliding': {...}}", rope)
    return {**cfg, "rope_parameters": {k: v for k, v in rope.items() if k != "rope_type"}}


def _lara_mini(cfg, n):  # LaraMiniConfig's released pattern, period 5
    pattern = ("linear_attention", "sliding_attention", "linear_attention", "full_attention", "sliding_attention")
    return [pattern[i % 5] for i in range(n)]


@dataclass(frozen=True)
class Family:
    r"""What one model type's code does that its config does not say (see the module docstring).

    Attributes
    ----------
    types : tuple of str
        Layer types the family knows.
    default_types : callable or None
        ``(cfg, n[, rope_on]) ->`` the layer types when the file lists none.
    reads_layer_types : bool
        Whether its attention follows an explicit ``layer_types`` list.
    nope_types : tuple of str
        Layer types that apply no RoPE.
    nope_if_window : bool
        The full layers apply no RoPE when ``sliding_window`` is set (EXAONE 4).
    window_on_full : bool
        ``sliding_window``, when set, limits the full-attention layers too (MiniMax).
    no_rope_layers : int or None
        Default NoPE interval when the family reads ``no_rope_layers``.
    layer_theta : str or None
        How it reads ``layer_rope_theta``: ``"base"`` (the layer's own base) or ``"flag"`` (0: no RoPE, else the
        global ``rope_theta``: Muse).
    rope_on_default : callable or None
        ``(cfg, n) ->`` RoPE per layer when the file has no ``layer_rope_theta``.
    rope_by_type : bool
        RoPE only where ``position_embedding_type`` is ``"rope"`` (Granite 4.0-H).
    pairing : str
        Rotary pairing: ``'half'`` (split halves) or ``'interleaved'``.
    reflected : bool
        Its apply function rotates by :math:`-\theta` (NanoChat: ``rotate_half`` with the signs flipped).
    odd_rotary : bool
        An odd ``int(head_dim * partial_rotary_factor)`` = r is read as transformers runs it, r + 1 dimensions
        rotating (GLM-4.5V; :data:`petheory.models.read.ODD_ROTARY_TYPES`).
    mrope : str or None
        M-RoPE layout, if the family uses one.
    mrope_default : tuple of int
        Its default sections.
    sinks : bool
        Whether its attention has sinks.
    prf_default : float
        ``partial_rotary_factor`` when the config has none.
    prf_legacy : str or None
        A legacy partial-rotary field it reads (``rotary_pct``, a fraction, or ``rotary_dim``).
    prf_forced : float or None
        The factor its config class sets whatever the file says (Bamba: 0.5).
    ntk_alpha : bool
        ``rope_type`` dynamic with an alpha: :math:`\\mathrm{base} \\cdot \\alpha^{d/(d-2)}` (Hunyuan).
    query_scale : str or None
        A position-dependent factor on every query (a :class:`petheory.scheme.Temperature` kind).
    rope_keys : tuple of str
        Keys of the rope dict only this family reads or ignores.
    theta_default : float
        The RoPE base when the config has none.
    scale : str or None
        The logit-scale rule (:func:`petheory.models.read.logit_factor`).
    scale_default : float or None
        Its logit factor when the file has none (the class's default).
    softcap_key : str
        The config field of its attention logit soft-capping.
    causal : bool
        False for a bidirectional encoder (its attention's ``is_causal`` is False).
    window_key : str
        The window's field (ModernBERT: ``local_attention``, the whole window).
    convert : callable or None
        ``cfg -> cfg`` as the configuration class rewrites older keys (ModernBERT's thetas).
    per_layer : tuple of str
        The ``per_layer_config`` fields its modeling code reads per layer and that change positions (Gemma 4's
        ``head_dim``, NeoMME's ``sliding_window``); any other field there is refused.
    per_layer_inert : tuple of str
        The ``per_layer_config`` fields its code reads per layer that change no position (key heads).
    per_layer_default : callable or None
        ``(cfg, types) ->`` the ``per_layer_config`` its class's ``__post_init__`` derives when the file has none.
    per_layer_by_type : bool
        Its rotary module reads ``per_layer_config[layer type]``, which transformers refuses unless every layer of
        that type has the same overrides (Gemma 4).
    mla_sliding : bool
        Its multi-head latent attention has ``sliding_attention`` layers (within ``sliding_window``: dots.llm3).
    mla_q_scale : bool
        Its MLA multiplies every query by :math:`\\sqrt{\\mathrm{hidden\\_size} / \\mathrm{q\\_lora\\_rank}}` (dots.llm3,
        LongCat-Flash): a factor on every logit.
    aliases : tuple of (str, str)
        Its own layer type names and the standard type whose span (mask) each takes (ZAYA: ``hybrid`` is causal
        full attention, ``hybrid_sliding`` sliding); ``rope_parameters`` is keyed by its own names.
    extra : tuple of str
        Fields only this family may carry, understood here.
    unused : tuple of str
        Fields its configuration class declares but its modeling code never reads, each restating a quantity the code
        does read (:data:`petheory.models.config.RESTATED`): noted where they agree, refused where they do not.
    text : str or None
        A wrapper's text model type when ``text_config`` has none.
    """

    types: tuple = ATTENTION_TYPES + NO_POSITION_TYPES  # layer types it knows
    default_types: object = None                     # (cfg, n[, rope_on]) -> layer types when the file has none
    reads_layer_types: bool = True                   # its attention follows an explicit layer_types list
    nope_types: tuple = ()                           # layer types that apply no RoPE
    nope_if_window: bool = False                     # EXAONE 4: the full layers apply no RoPE when sliding_window is set
    window_on_full: bool = False                     # MiniMax: sliding_window, when set, limits the full-attention layers
    no_rope_layers: int | None = None                # default NoPE interval when it reads no_rope_layers
    layer_theta: str | None = None                   # layer_rope_theta: "base" (the layer's own rope_theta) or
    #                                                  "flag" (0: no RoPE, else the global rope_theta: Muse)
    rope_on_default: object = None                   # (cfg, n) -> RoPE per layer when the file has no layer_rope_theta
    rope_by_type: bool = False                       # RoPE only where position_embedding_type is "rope" (Granite 4.0-H)
    pairing: str = "half"
    mrope: str | None = None                         # M-RoPE layout, with its default sections
    mrope_default: tuple = ()
    sinks: bool = False
    prf_default: float = 1.0                         # partial_rotary_factor when the config has none
    prf_legacy: str | None = None                    # legacy partial-rotary field: rotary_pct (fraction), rotary_dim
    prf_forced: float | None = None                  # the class's __post_init__ sets partial_rotary_factor (Bamba: 0.5)
    odd_rotary: bool = False                         # an odd int(head_dim * prf) read as transformers runs it (GLM-4.5V)
    reflected: bool = False                          # its apply rotates by -theta (NanoChat: rotate_half, signs flipped)
    ntk_alpha: bool = False                          # rope_type dynamic with an alpha: base * alpha^(d/(d-2)) (Hunyuan)
    query_scale: str | None = None                   # a position-dependent factor on every query (Temperature kind)
    rope_keys: tuple = ()                            # keys of the rope dict only this family reads or ignores
    theta_default: float = 10000.0
    scale: str | None = None                         # the logit-scale rule (read.logit_factor)
    scale_default: float | None = None               # its factor when the file has none (the class's default)
    softcap_key: str = "attn_logit_softcapping"
    causal: bool = True                              # False: a bidirectional encoder (its attention's is_causal False)
    window_key: str = "sliding_window"               # the window's field (ModernBERT: local_attention, the whole window)
    convert: object = None                           # cfg -> cfg as the class rewrites older keys (ModernBERT's thetas)
    per_layer: tuple = ()                            # per_layer_config fields its code reads per layer (head_dim, ...)
    per_layer_inert: tuple = ()                      # per_layer_config fields its code reads that change no position
    per_layer_default: object = None                 # (cfg, types) -> the per_layer_config its class derives
    per_layer_by_type: bool = False                  # its rotary module reads per_layer_config[layer type] (Gemma 4)
    aliases: tuple = ()                              # (its layer type, the span it masks with) pairs (ZAYA's hybrid)
    mla_sliding: bool = False                        # its MLA has sliding_attention layers (dots.llm3)
    mla_q_scale: bool = False                        # its MLA multiplies queries by sqrt(hidden_size / q_lora_rank)
    extra: tuple = field(default=())                 # fields only this family may carry, understood here
    unused: tuple = ()                               # class fields its code never reads, restating what it does read
    text: str | None = None                          # a wrapper's text model type when text_config has none


_SW = ("full_attention", "sliding_attention")
#: Gemma 4's text model types: Gemma4TextConfig's and Gemma4UnifiedTextConfig's __post_init__ and attention agree on
#: every positional field (they differ in defaults: sliding_window 512 / 1024, max_position_embeddings).
GEMMA4_TEXT = ("gemma4_text", "gemma4_unified_text")
DEFAULT = Family()
FAMILIES = {
    **{t: Family(_SW, _window_all, reads_layer_types=False) for t in ("mistral", "mixtral", "phi3", "starcoder2")},
    **{t: Family(_SW, _qwen) for t in ("qwen2", "qwen2_moe", "qwen3")},
    "qwen3_moe": Family(_SW, _window_if_used, reads_layer_types=False),
    # attention layers among Mamba ones apply no RoPE (JambaAttention has no rotary embedding)
    "jamba": Family(default_types=_jamba, nope_types=("full_attention",),
                    extra=("attn_layer_period", "attn_layer_offset")),
    "mistral_large4": Family(no_rope_layers=4),
    # NanoChat's rotate_half returns (x2, -x1): each pair turns by -theta (Positions.reflected); the same kernels
    "nanochat": Family(reflected=True),
    # Nemotron-H: attention layers without RoPE among Mamba, MoE and MLP layers
    "nemotron_h": Family(nope_types=("full_attention",)),
    # adjacent pairs (their apply_rotary_pos_emb interleaves; tools.verify.oracle.pairing evaluates it)
    **{t: Family(pairing="interleaved") for t in ("cohere", "ernie4_5", "ernie4_5_moe", "glm", "glm4", "helium")},
    "glm_ocr_text": Family(pairing="interleaved", mrope="chunked", mrope_default=(8, 12, 12)),
    "mimo_v2_flash": Family(sinks=True),
    # MiniMax's softmax layers take config.sliding_window when it is set (its layer_types name no sliding layer)
    "minimax": Family(("full_attention", "linear_attention"), window_on_full=True),
    # attention that ignores sliding_window (Moshi, Kyutai STT: create_causal_mask over every key; Qwen3-VL-MoE's text
    # model): every layer is full
    **{t: Family(default_types=_all_full) for t in ("moshi", "kyutai_speech_to_text")},
    "qwen3_vl_moe_text": Family(default_types=_all_full, reads_layer_types=False, mrope="interleaved", mrope_default=(24, 20, 20),
                                theta_default=500000.0),
    # the layers of cross_attention_layers attend to the image instead of the text (Mllama): no positions
    "mllama_text_model": Family(extra=("cross_attention_layers",)),
    # HY-V4: MLA with sinks; its vision-language text model adds interleaved M-RoPE sections over the rotary bands
    "hy_v4": Family(sinks=True),
    "hy_v4_vl_text": Family(sinks=True, mrope="interleaved", mrope_default=(12, 10, 10)),
    "gpt_neox": Family(prf_legacy="rotary_pct"),
    "minimax_m2": Family(prf_legacy="rotary_dim"),
    # MiniMaxM3VLTextConfig declares rotary_dim ("channels rotated by RoPE", default 64), but its rotary module rotates
    # int(head_dim * rope_parameters' partial_rotary_factor) and nothing reads rotary_dim
    "minimax_m3_vl_text": Family(unused=("rotary_dim",)),
    # GPT-J, CodeGen: the first rotary_dim dimensions of each head rotate in adjacent pairs (rotate_every_two) by a
    # sin/cos table of base 10000 (create_sinusoidal_positions; no rope_theta in their config classes)
    **{t: Family(pairing="interleaved", prf_legacy="rotary_dim") for t in ("gptj", "codegen")},
    "glm4_moe": Family(prf_default=0.5),
    "qwen2_vl": Family(_SW, _qwen, mrope="chunked", mrope_default=(16, 24, 24)),
    "qwen2_5_vl": Family(_SW, _qwen, mrope="chunked", mrope_default=(16, 24, 24)),
    "qwen3_vl": Family(default_types=_all_full, reads_layer_types=False, mrope="interleaved", mrope_default=(24, 20, 20),
                       theta_default=500000.0),
    # M-RoPE: sections in order (glm4v's `m[i % 3]` over the split, Qwen2.5-Omni's and PaddleOCR-VL's split), or
    # interleaved (Qwen3.5's and Cosmos3-Edge's apply_interleaved_mrope): tools.verify.oracle.mrope_layout reads the code
    # adjacent pairs as GLM's (rotate_half_llm); its default config has no partial rotary, so its 64 bands do not
    # match the default sections: the published GLM-4.1V file (partial_rotary_factor 0.5) found the pairing
    "glm4v_text": Family(mrope="chunked", mrope_default=(8, 12, 12), pairing="interleaved"),
    # GLM-4.5V: rotate_half pairs, sections in order (`m[i % 3]`); its apply slices q[..., :cos.shape[-1]], so an odd
    # int(head_dim * partial_rotary_factor) = r rotates r + 1 dimensions (read.odd_rotary; the class's defaults give 21)
    "glm4v_moe_text": Family(mrope="chunked", mrope_default=(8, 12, 12), odd_rotary=True),
    **{t: Family(mrope="chunked", mrope_default=(16, 24, 24)) for t in ("paddleocr_vl_text", "qwen2_5_omni_text")},
    # ERNIE 4.5-VL: mrope_section (h, w, t) = (22, 22, 20) by default; its module permutes the ladder's first 44 bands
    # (even ones, then odd ones), takes them from axes h and w and stacks them back: band 2k follows h, 2k + 1 follows w,
    # the last 20 t (MRope 'hw_alternating'); adjacent pairs (rotate_half_text); rope_type default only
    "ernie4_5_vl_moe_text": Family(mrope="hw_alternating", mrope_default=(22, 22, 20), pairing="interleaved"),
    **{t: Family(("full_attention", "linear_attention"), mrope="interleaved", mrope_default=(11, 11, 10),
                 prf_default=0.25) for t in ("qwen3_5_text", "qwen3_5_moe_text")},
    "cosmos3_edge_text": Family(mrope="interleaved"),
    # Qwen3-Omni's thinker: Qwen3-VL's interleaved sections (recomposition_frequencies: band t of axis t mod 3 within
    # 3 * sections); its published rope dict's "interleaved" is a key its class only skips in validation
    "qwen3_omni_moe_text": Family(mrope="interleaved", mrope_default=(24, 20, 20), rope_keys=("interleaved",)),
    "gemma2": Family(_SW, _every(2, None), scale="gemma"),
    "gemma3_text": Family(_SW, _every(6), theta_default=1e6, scale="gemma", extra=("rope_local_base_freq",)),
    "gemma3n_text": Family(_SW, theta_default=1e6, scale="one", extra=("num_kv_shared_layers",)),
    # Gemma 4 and its unified (any-to-any) text model: the same config class body and attention (per_layer_config's
    # head_dim on the full layers, proportional RoPE there, the last layer forced full)
    **{t: Family(_SW, _every(6, None, last_full=True), theta_default=1e6, scale="one", per_layer=("head_dim",),
                 per_layer_inert=("num_key_value_heads",), per_layer_default=_gemma4_per_layer, per_layer_by_type=True,
                 extra=("per_layer_config", "global_head_dim")) for t in GEMMA4_TEXT},
    # NeoMME: a bidirectional encoder; per layer type its own RoPE (full: a quarter of the head at 1e6, sliding: all of
    # it at 1e4; text positions on both axes of its 2-axis M-RoPE, where it is plain RoPE) and per layer its window
    "neomme": Family(_SW, _every(6, None, last_full=True), causal=False, convert=neomme_rope, per_layer=("sliding_window",),
                     per_layer_default=_neomme_per_layer, extra=("per_layer_config",)),
    "cohere2": Family(_SW, _every(4), nope_types=("full_attention",), pairing="interleaved"),
    **{t: Family(_SW, _exaone4, nope_if_window=True) for t in ("exaone4", "exaone_moe", "exaone4_5")},
    # Kolibri1Config: every 5th layer full whatever sliding_window_pattern says (found by the sweep's hub-layout case)
    "kolibri1": Family(_SW, _every(5, None), nope_if_window=True),
    # forward applies RoPE only on the sliding layers (`if self.is_local_attention` / `if self.sliding_window is not
    # None`); Flint also learns sinks
    "afmoe": Family(_SW, nope_types=("full_attention",)),
    "flint": Family(_SW, nope_types=("full_attention",), sinks=True),
    "cohere2_moe": Family(_SW, nope_types=("full_attention",), pairing="interleaved",
                          extra=("prefix_dense_sliding_window_pattern",)),
    "olmo3": Family(_SW, _every(4, None), theta_default=500000.0),
    "gpt_oss": Family(_SW, _every(2, None), sinks=True, theta_default=150000.0),
    "smollm3": Family(_SW, _smollm3, no_rope_layers=4, theta_default=2e6),
    "llama4_text": Family(("full_attention", "chunked_attention"), _llama4, no_rope_layers=4, pairing="interleaved",
                          theta_default=500000.0,
                          extra=("attention_chunk_size", "attn_temperature_tuning", "floor_scale", "attn_scale")),
    "qwen3_next": Family(("full_attention", "linear_attention"), _every(4, "full_attention_interval", "linear_attention"),
                         prf_default=0.25),
    **{t: Family(scale="granite", extra=("attention_multiplier",)) for t in ("granite", "granitemoe",
                                                                             "granitemoeshared")},
    "granitemoehybrid": Family(scale="granite", rope_by_type=True, extra=("attention_multiplier",
                                                                         "position_embedding_type")),
    **{t: Family(scale="granite", extra=("attention_multiplier",)) for t in ("granite_docling_text", "hyperclovax")},
    # a per-layer rope_theta, 0 meaning no RoPE on that layer
    # (its config class: full attention where i % 4 == 0 when the file lists no layer_types; one rotary module per
    # distinct theta, the model passing each layer the one of its layer_rope_theta)
    **{t: Family(_SW, _every_from_zero(4), scale="granite", sinks=True, layer_theta="base",
                 extra=("attention_multiplier", "layer_rope_theta")) for t in ("granite_swa", "granitemoe_swa")},
    # Muse: one rotary module at rope_parameters' theta; layer_rope_theta only switches it off (0 = NoPE) per layer;
    # queries times qk_scale_factor after a scaleless RMS norm of q and k (the class defaults differ per model)
    **{t: Family(_SW, _muse, layer_theta="flag", rope_on_default=_muse_rope, scale="qk_scale", scale_default=s,
                 theta_default=theta, extra=("layer_rope_theta", "qk_scale_factor"))
       for t, s, theta in (("muse_glimmer_text", 3.87, 10000.0), ("muse_spark_text", 5.4730064863875, 500000.0))},
    "vaultgemma": Family(_SW, _every(2, None), scale="gemma"),  # VaultGemmaConfig: every 2nd layer full, as Gemma 2
    # Kimi Linear: its MLA (full-attention) layers apply no RoPE; the others are linear attention
    "kimi_linear": Family(nope_types=("full_attention",)),
    "falcon_h1": Family(scale="falcon_h1", extra=("key_multiplier", "attention_in_multiplier")),
    # BambaConfig.__post_init__ hard-codes partial_rotary_factor = 0.5 (a rope dict's own value wins)
    "bamba": Family(default_types=_bamba, extra=("attn_layer_indices",), prf_forced=0.5),
    # HunYuanMoEV1RotaryEmbedding: a "dynamic" rope dict with an alpha is rope type ntk_alpha (a fixed stretched base)
    **{t: Family(ntk_alpha=True, rope_keys=("alpha",)) for t in ("hunyuan_v1_moe", "hunyuan_v1_dense")},
    # Ministral3Attention multiplies every query by get_llama_4_attn_scale(position, llama_4_scaling_beta,
    # original_max_position_embeddings); the rope dict's max_position_embeddings is ignored by its rope code
    **{t: Family(query_scale="llama4_beta", rope_keys=("llama_4_scaling_beta", "max_position_embeddings"))
       for t in ("ministral3", "mistral4")},
    "lfm2": Family(default_types=_lfm2, extra=("full_attn_idxs",)),
    # Molmo2: the layers of rope_scaling_layers take rope_parameters (scaled); the others an unscaled default RoPE
    # of the whole head at the same theta (its second rotary module); None: every layer scaled
    "molmo2_text": Family(extra=("rope_scaling_layers",)),
    # RoPE encoders: every query attends to keys on both sides (is_causal False); the positions are a decoder's
    **{t: Family(causal=False) for t in ("esmc", "eurobert", "gte", "jina_embeddings_v3", "nomic_bert")},
    # a bidirectional window: |i - j| <= sliding_window (masking_utils' bidirectional overlay), so sliding_window + 1
    # distances each way; ModernBERT's sliding_window is local_attention // 2 (a property of its config class)
    "ultrabert": Family(_SW, causal=False),
    "modernbert": Family(_SW, _modernbert, causal=False, window_key="local_attention", convert=modernbert_rope,
                         # position_embedding_type ('absolute' in the published files, from BERT): never read by
                         # ModernBERT's code, and nothing here either
                         extra=("local_attention", "global_attn_every_n_layers", "global_rope_theta", "local_rope_theta",
                                "position_embedding_type")),
    # ZAYA: softmax attention over q and k its CCA projection mixed by short causal convolutions (content), RoPE per
    # layer type keyed by its own names; its class's default rope_parameters, its hub files' stray top-level rope_type
    "zaya": Family(("hybrid", "hybrid_sliding"), _zaya, convert=zaya_rope,
                   aliases=(("hybrid", "full_attention"), ("hybrid_sliding", "sliding_attention"))),
    # Unlimited-OCR: reference sliding attention sees every prefill key (the image and the prompt) and, beyond them,
    # the last sliding_window generated ones; within one forward pass (no cache) it is causal full attention
    "unlimited_ocr_text": Family(("full_attention", "reference_sliding_attention"),
                                 aliases=(("reference_sliding_attention", "full_attention"),)),
    # Step 3.5 / 3.7's text model: RoPE per layer type (its class builds it from per-layer rope_theta lists), softmax
    # scale query_pre_attn_scalar^-1/2, per_layer_config giving sliding layers their head count (content)
    "step3p5": Family(_SW, scale="gemma", convert=step3p5_rope, per_layer_inert=("num_attention_heads",),
                      extra=("per_layer_config", "partial_rotary_factors")),
    # dots.llm3: MLA whose sliding and indexed layers each take their rope_parameters entry; per_layer_config gives
    # the sliding layers their own unrotated width (qk_nope_head_dim) and head counts, read by layer type in its rotary
    # module
    "dots3_note_text": Family(mla_sliding=True, mla_q_scale=True, per_layer=("qk_nope_head_dim",), per_layer_by_type=True,
                              per_layer_inert=("num_attention_heads", "num_key_value_heads", "kv_lora_rank"),
                              extra=("per_layer_config",)),
    # LongCat-Flash: each of its num_layers decoder layers runs two MLA sublayers (its class's num_hidden_layers is
    # 2 x num_layers, a property, not a field of its file)
    "hrm_text": Family(convert=_hrm, extra=("num_layers_per_stack", "H_cycles", "L_cycles", "prefix_lm")),
    "longcat_flash": Family(convert=_longcat, mla_q_scale=True, extra=("num_layers",)),
    # LaraMiniModel passes position embeddings to its sliding layers only: the full (global) layers are NoPE
    "lara_mini": Family(default_types=_lara_mini, nope_types=("full_attention",)),
}

#: Model types whose configuration class derives ``layer_types`` (its ``__post_init__``) by a rule petheory does not
#: implement: a file without the list is refused, never read as all full attention (the sweep's hub-layout case, a
#: transformers 4 file without the list, found each one misread before).
DERIVES_UNREAD = ("afmoe", "bailing_hybrid", "cohere2_moe", "flint", "granitemoehybrid", "kimi_linear", "minimax",
                  "olmo_hybrid", "qwen3_5_moe_text", "qwen3_5_text")

#: Wrappers whose ``text_config`` may be written without its own model_type (a transformers 4 file on the Hub).
TEXT_TYPES = {"gemma3": "gemma3_text", "gemma4": "gemma4_text", "gemma4_unified": "gemma4_unified_text",
              "gemma4_unified_assistant": "gemma4_unified_text", "llama4": "llama4_text", "gemma3n": "gemma3n_text",
              "qwen2_vl": "qwen2_vl", "qwen2_5_vl": "qwen2_5_vl", "qwen3_vl": "qwen3_vl",
              "qwen2_vl_text": "qwen2_vl", "qwen2_5_vl_text": "qwen2_5_vl", "qwen3_vl_text": "qwen3_vl"}

#: Fields that change positions but belong to some families only: found elsewhere, they are refused.
FOREIGN_FIELDS = ("no_rope_layers", "attention_chunk_size", "attn_temperature_tuning", "mrope_section",
                  "rope_local_base_freq", "per_layer_config", "global_head_dim", "layer_rope_theta",
                  "attention_multiplier", "key_multiplier", "attention_in_multiplier", "query_pre_attn_scalar",
                  "rope_interleave")

#: Model types whose code does what petheory does not read: refused with the mechanism named.
REFUSED = {
    # the scale itself is Gemma's (T5GemmaSelfAttention.scaling = query_pre_attn_scalar^-1/2); the two stacks are not
    **{t: f"{name}'s encoder-decoder RoPE: an encoder stack (every query attends both ways; its sliding layers a "
          f"two-sided window, {window}) and {decoder}, both rotating with softmax scale query_pre_attn_scalar^-1/2 (the "
          "scale is read for Gemma 2 and 3); petheory reads a rotary config as one decoder stack: not read"
       for t, name, window, decoder in (
           ("t5_gemma_module", "T5Gemma", "|i - j| <= sliding_window", "a causal decoder stack"),
           ("t5gemma2_decoder", "T5Gemma 2", "(sliding_window + 1) // 2 keys back, itself included, and "
            "sliding_window // 2 ahead", "a decoder stack whose attention is one softmax over its own rotated keys "
            "(causal) and the encoder's (T5Gemma2MergedAttention)"))},
    # DogeAttention.prepare_dynamic_mask: dt_states = exp(A * softplus(dt_proj(values))), then a top-k over keys
    "doge": "Doge's dynamic mask attention (keep_window_size): every layer adds to each key's logit a learned bias "
            "computed from that key's value (dt_proj and A: weights, not in config.json) and, past keep_window_size "
            "keys, keeps only the keep_window_size keys of largest bias; which keys a query sees depends on content, "
            "not on position, which a positional scheme cannot state: not read (its RoPE is the plain one)",
    "recurrent_gemma": "RecurrentGemma has no context length: RecurrentGemmaConfig has no max_position_embeddings (its "
                       "attention layers see the last attention_window_size keys, its recurrent layers any length, and "
                       "transformers runs it at every length), and petheory's scheme needs one (L, the length its "
                       "analyses and plan take as the model's own); not read rather than given a length the file does "
                       "not state",
    "mistral_large4_text": "Mistral Large 4's learned positions (LeRoPE): its rotary module multiplies every inverse "
                           "frequency by exp(alpha), alpha a learned weight per band, and its attention multiplies "
                           "every query by scale_h * log(p + 1) + bias_h, learned per head; both are weights of the "
                           "checkpoint, not fields of config.json, so the config states neither its frequencies nor "
                           "its position-dependent temperature: not read",
    "deepseek_v4": "DeepSeek-V4's compressed attention: each layer attends to its last sliding_window tokens and to KV "
                   "entries compressed over blocks of compress_rates tokens (heavily compressed layers: every block; "
                   "compressed sparse layers: the index_topk blocks a Lightning Indexer picks), each block rotated at "
                   "its block's position with compress_rope_theta and given a learned position_bias within the "
                   "block: attention over compressed blocks, which petheory's scheme (full, sliding or chunked "
                   "attention over tokens) cannot state: not read",
    # BltModel: local_encoder and local_decoder (bytes), global_transformer (patches), patcher (entropy model)
    "blt": "BLT's byte patches: a local encoder and a local decoder over bytes (causal, windowed to "
           "local_attention_window_len, each with its own RoPE) cross-attend to patches whose boundaries its patcher "
           "chooses from the bytes' entropy (patching_mode, patching_threshold), and a global transformer "
           "(global_config) attends over the patches, rotated by patch index; which bytes a patch position stands for "
           "depends on the content, which a scheme of token positions per layer cannot state: not read",
    # PerceiverModel: PerceiverEmbeddings (latents) -> PerceiverEncoder (cross-attention, then self-attention blocks)
    "perceiver": "Perceiver's latent attention: num_latents learned latent vectors cross-attend to the inputs, then "
                 "attend to each other (num_self_attends_per_block layers, num_blocks times); the latents have no "
                 "position, and the inputs' positions are added by a task's preprocessor before the cross-attention "
                 "(text: a learned table of max_position_embeddings rows, weights of the checkpoint): no attention "
                 "over token positions to read",
    # PI0Model: self.vlm (PaliGemma), self.dit (Gemma action expert); PI0Config sets both to bidirectional attention
    "pi0": "pi0's vision-language-action model: a PaliGemma (vlm_config) over image and language tokens and an action "
           "expert (dit_config, a Gemma) over the robot state and chunk_size noisy actions, denoised in "
           "num_inference_steps flow-matching steps; the expert attends to the VLM's cached keys and to its own "
           "block both ways, its positions continuing from the prefix's, and the class sets "
           "use_bidirectional_attention on both stacks: two stacks joined by a block mask, which petheory reads as one "
           "decoder stack: not read",
    "dory": "Dory's recurrent-depth layout (n_input_layers, n_recurrent_layers, n_output_layers: a block of layers "
            "run several times) and its legacy layer_types with 'mlp' entries, which transformers halves: not read",
}

#: Families known by name that transformers does not ship: refused with this reason.
NOT_SHIPPED = {
    "phi3small": "Phi-3-small (model_type phi3small) is remote code, not a transformers class: its blocksparse "
                 "attention (dense every dense_attention_every_n_layers-th layer, local blocks elsewhere) and "
                 "rope_position_scale are not read here; supported: phi3 (Phi-3-mini/medium)",
}


def refuse_underived(mt: str) -> None:
    """Refuse a file without ``layer_types`` of a model type in :data:`DERIVES_UNREAD`.

    Parameters
    ----------
    mt : str
        The model type.

    Raises
    ------
    petheory.errors.ValidationError
        ``mt``'s configuration class derives ``layer_types`` by a rule petheory does not implement.

    Examples
    --------
    >>> refuse_underived("llama")
    >>> refuse_underived("minimax")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config field layer_types is missing: transformers' minimax configuration class ...
    """
    if mt in DERIVES_UNREAD:
        raise ValidationError(f"config field layer_types is missing: transformers' {mt} configuration class derives it "
                              "(its __post_init__, from num_hidden_layers and a rule of its own) and petheory does not "
                              "implement that rule; add layer_types (transformers 5 writes it on saving)")


def family(mt: str) -> Family:
    """The table entry of model type ``mt`` (the fields-only :data:`DEFAULT` when it has none).

    Parameters
    ----------
    mt : str
        The model type.

    Returns
    -------
    Family
        What its code does that its config does not say.

    Examples
    --------
    >>> family("gemma3").pairing, family("no_such_model") is DEFAULT
    ('half', True)
    """
    return FAMILIES.get(mt, DEFAULT)


def layer_types(cfg: dict, mt: str, fam: Family, n: int, rope_on, class_has_types: bool | None = None) -> list:
    """The layer types of an ``n``-layer config: its ``layer_types`` if given (validated), else as its family derives them.

    A config that needs a derivation its family does not have is refused by name. A class without a ``layer_types``
    field (``class_has_types`` False) applies its ``sliding_window`` to every layer, as Mistral's.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.
    fam : Family
        Its family entry.
    n : int
        Layers.
    rope_on : list of bool or None
        Which layers apply RoPE (for a family that derives types from its NoPE layers).
    class_has_types : bool, optional
        Whether the configuration class has a ``layer_types`` field (None: unknown).

    Returns
    -------
    list of str
        One type per layer.

    Raises
    ------
    petheory.errors.ValidationError
        A list of the wrong length, a type the family does not have, or one its code would contradict.

    Examples
    --------
    >>> layer_types({"layer_types": ["full_attention", "sliding_attention"]}, "gemma3", family("gemma3"), 2, None)
    ['full_attention', 'sliding_attention']
    """
    def derived():
        refuse_underived(mt)
        if fam.default_types is None:
            if cfg.get("sliding_window") is not None and class_has_types is False:
                return _window_all(cfg, n)
            if cfg.get("sliding_window") is not None and mt not in FAMILIES:
                raise ValidationError(f"config field sliding_window = {cfg['sliding_window']!r} without layer_types: "
                                      f"which of {mt}'s layers slide is decided by its code, which petheory reads only "
                                      "from layer_types for this model type; add layer_types (transformers 5 writes it)")
            return _all_full(cfg, n)
        return fam.default_types(cfg, n, rope_on) if fam.no_rope_layers else fam.default_types(cfg, n)

    given = cfg.get("layer_types", cfg.get("layers_block_type"))
    if given is None:
        return derived()
    if not isinstance(given, (list, tuple)) or len(given) != n:
        raise ValidationError(f"config field layer_types must be a list of num_hidden_layers={n} names (one per layer), "
                              f"got {str(given)[:60]}; fix the config.json")
    given = [LEGACY_TYPES.get(t, t) if isinstance(t, str) else t for t in given]
    for i, t in enumerate(given):
        if t not in fam.types:
            known = t in ATTENTION_TYPES + NO_POSITION_TYPES
            raise ValidationError(f"config field layer_types[{i}] = {t!r} is not a layer type "
                                  f"{mt + ' has' if known else 'petheory reads'}; supported: {', '.join(fam.types)}")
    if not fam.reads_layer_types and given != derived():
        raise ValidationError(f"config field layer_types = {given[:4]}... disagrees with what {mt}'s attention does "
                              f"(its code does not read layer_types: {derived()[0]} on every layer); remove it or fix it")
    if mt in GEMMA4_TEXT and given[-1] != "full_attention":
        raise ValidationError(f"config field layer_types[{n - 1}] = {given[-1]!r}: Gemma 4's last layer is full attention "
                              "(transformers forces it); fix the config.json")
    return given
