r"""One RoPE parameter dict of a ``config.json`` -> a petheory rotary registry entry and its parameters.

transformers 4 writes ``rope_scaling`` (+ a top-level ``rope_theta``), transformers 5
``rope_parameters`` (with ``rope_theta`` inside), flat or keyed by layer type
(``{"full_attention": {...}, "sliding_attention": {...}}``: Gemma 3, OLMo 3). Every
``rope_type`` transformers ships maps to a registry entry (:data:`ROPE_TYPES`); a key this reader
does not know is refused (:data:`ROPE_KEYS`), since it may change the positions.

Conventions: ``context`` is the original (pre-training) context L: the
``original_max_position_embeddings`` of a scaled config, else ``max_position_embeddings``.
"""

from __future__ import annotations

import math

from petheory.errors import ValidationError
from petheory.models.fields import fail, read_bool, read_factors, read_int, read_real

#: rope_type (transformers' ``rope_scaling.type`` / ``rope_type``) -> petheory registry entry.
#: ``proportional`` (Gemma 4's global layers) is plain RoPE on a ladder of the whole head; it maps to
#: ``rope`` / ``rope_pi`` with an equivalent base (:func:`rope_scheme`). ``mrope`` is Qwen2-VL's old
#: name for the default ladder with ``mrope_section``.
ROPE_TYPES = {"default": "rope", "linear": "rope_pi", "dynamic": "rope_dynamic", "yarn": "rope_yarn",
              "longrope": "rope_longrope", "llama3": "rope_llama3", "su": "rope_longrope", "proportional": "rope",
              "mrope": "rope"}

#: Keys of a RoPE parameter dict this reader understands (a few do not touch positions: noted).
ROPE_KEYS = frozenset({"rope_type", "type", "rope_theta", "factor", "original_max_position_embeddings",
                       "low_freq_factor", "high_freq_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim",
                       "attention_factor", "short_factor", "long_factor", "truncate", "partial_rotary_factor",
                       "mrope_section", "mrope_interleaved"})


def _standard(rope: dict, cfg: dict) -> dict:
    """A flat rope dict as transformers 5 standardises it: ``type`` -> ``rope_type``, the top-level rope_theta and
    partial_rotary_factor filled in where the dict has none."""
    out = {k: v for k, v in rope.items() if k != "type"}
    out.setdefault("rope_type", rope.get("type", "default"))
    for key in ("rope_theta", "partial_rotary_factor"):
        if cfg.get(key) is not None:
            out.setdefault(key, cfg[key])
    return out


def rope_dict(cfg: dict) -> tuple[dict, str]:
    """The RoPE parameters (transformers 4: ``rope_scaling`` + ``rope_theta``; 5: ``rope_parameters``) and their name.

    A file with both is read when they say the same (transformers 5 takes ``rope_scaling`` in place of
    ``rope_parameters``, transformers 4 reads only ``rope_scaling``); two layouts that disagree are refused, naming both.

    Parameters
    ----------
    cfg : dict
        The (text) config.

    Returns
    -------
    rope : dict
        The RoPE dict ({} when the config has none).
    where : str
        Its name as a prefix for messages (``'rope_parameters.'`` or ``'rope_scaling.'``).

    Raises
    ------
    petheory.errors.ValidationError
        Not an object, or two layouts that disagree.

    Examples
    --------
    >>> rope_dict({"rope_parameters": {"rope_type": "default", "rope_theta": 5e5}})
    ({'rope_type': 'default', 'rope_theta': 500000.0}, 'rope_parameters.')
    >>> rope_dict({"rope_scaling": {"type": "linear", "factor": 4.0}, "rope_theta": 1e4,
    ...            "rope_parameters": {"rope_type": "default", "rope_theta": 1e4}})
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config fields rope_scaling and rope_parameters disagree (rope_scaling.factor = 4.0, rope_parameters.factor absent): transformers 5 runs rope_scaling in place of rope_parameters, other readers may take rope_parameters; keep one of them
    """
    both = [cfg.get(k) for k in ("rope_scaling", "rope_parameters")]
    if all(isinstance(v, dict) and v for v in both) and not any(isinstance(v, dict) for v in both[1].values()):
        a, b = (_standard(v, cfg) for v in both)
        if a != b:
            key = next(k for k in sorted(set(a) | set(b)) if a.get(k, b) != b.get(k, a))
            say = {name: f"{name}.{key} = {d[key]!r}" if key in d else f"{name}.{key} absent"
                   for name, d in (("rope_scaling", a), ("rope_parameters", b))}
            raise ValidationError(f"config fields rope_scaling and rope_parameters disagree ({say['rope_scaling']}, "
                                  f"{say['rope_parameters']}): transformers 5 runs rope_scaling in place of "
                                  "rope_parameters, other readers may take rope_parameters; keep one of them")
    for key in ("rope_parameters", "rope_scaling"):
        val = cfg.get(key)
        if val is None:
            continue
        if not isinstance(val, dict):
            raise fail(key, "an object (or null)", val)
        return val, key + "."
    return {}, "rope_scaling."


def check_rope_keys(rope: dict, where: str, *, extra=()) -> None:
    """Refuse a key of a RoPE dict that this reader does not know (it may change the positions).

    Parameters
    ----------
    rope : dict
        The RoPE dict.
    where : str
        Its name as a prefix for messages.
    extra : iterable of str, optional
        Keys the caller reads as well.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown key; the message lists the supported ones.

    Examples
    --------
    >>> check_rope_keys({"rope_type": "linear", "factor": 2.0}, "rope_scaling.")
    >>> check_rope_keys({"rope_type": "linear", "wavelet": 2.0}, "rope_scaling.")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config field rope_scaling.wavelet is not understood (it may change the positions); ...
    """
    unknown = sorted(k for k in rope if k not in ROPE_KEYS and k not in extra)
    if unknown:
        raise ValidationError(f"config field {where}{unknown[0]} is not understood (it may change the positions); "
                              f"supported keys: {', '.join(sorted(ROPE_KEYS | set(extra)))}")


def rope_scheme(cfg: dict, rope: dict, where: str, *, d: int, rotary_dim: int, base_key: str = "rope_theta",
                default_base: float = 10000.0, pairing: str = "half", max_pos: int) -> tuple[str, dict, int]:
    """(registry name, params, original context L) of one RoPE parameter dict.

    ``d`` is the head dimension, ``rotary_dim`` how many of its coordinates rotate (for
    ``proportional``, the ladder is that of the whole head: :math:`b^{-2t/d}` for the first
    rotary_dim/2 bands, the same as :math:`b' = b^{r/d}` (:math:`r` = rotary_dim) on a ladder of rotary_dim).

    Parameters
    ----------
    cfg : dict
        The (text) config (for a top-level ``rope_theta`` or ``original_max_position_embeddings``).
    rope : dict
        The RoPE dict.
    where : str
        Its name as a prefix for messages.
    d : int
        Head dimension.
    rotary_dim : int
        Rotating coordinates.
    base_key : str, optional
        The config's field of the base.
    default_base : float, optional
        The base when none is given.
    pairing : {'half', 'interleaved'}, optional
        Rotary pairing.
    max_pos : int
        ``max_position_embeddings``.

    Returns
    -------
    name : str
        The registry encoding (``rope``, ``rope_pi``, ``rope_yarn``, ...).
    params : dict
        Its parameters.
    L : int
        The original (pre-training) context.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown ``rope_type`` or key, or a value out of range.

    Examples
    --------
    >>> rope_scheme({}, {"rope_type": "linear", "factor": 4.0, "rope_theta": 1e4}, "rope_scaling.", d=64, rotary_dim=64,
    ...             max_pos=8192)
    ('rope_pi', {'base': 10000.0, 'pairing': 'half', 'scale': 4.0}, 2048)
    """
    check_rope_keys(rope, where)
    rtype = rope.get("rope_type", rope.get("type", "default"))
    if rtype not in ROPE_TYPES:
        raise ValidationError(f"unknown rope_type {rtype!r} in {where.rstrip('.')}; supported: "
                              f"{', '.join(sorted(ROPE_TYPES))}")
    base_src = rope if "rope_theta" in rope else cfg
    base = read_real(base_src, base_key if base_src is cfg else "rope_theta", default=default_base,
                     where="" if base_src is cfg else where)
    name = ROPE_TYPES[rtype]
    if rtype == "proportional":
        base = base ** (rotary_dim / d)
    params: dict = {"base": base, "pairing": pairing}
    if rotary_dim != d:
        params["rotary_dim"] = rotary_dim
    L = max_pos
    if rtype in ("default", "mrope"):
        return name, params, L
    if rtype == "proportional":
        s = read_real(rope, "factor", default=1.0, minimum=1.0, where=where)
        if s != 1.0:
            name, params["scale"] = "rope_pi", s
            L = max(2, int(round(max_pos / s)))
        return name, params, L
    if rtype in ("llama3", "yarn", "longrope", "su"):
        # transformers: a top-level original_max_position_embeddings wins (Phi-3 keeps it there), else the rope dict's
        src = cfg if cfg.get("original_max_position_embeddings") is not None else rope
        L = read_int(src, "original_max_position_embeddings", default=max_pos, where="" if src is cfg else where)
        params["n_max"] = L
    if rtype in ("longrope", "su"):
        factor = rope.get("factor")
        s = max_pos / L if factor is None else read_real(rope, "factor", where=where)
        params["scale"] = s
        params["short_factor"] = read_factors(rope, "short_factor", rotary_dim // 2, where)
        params["long_factor"] = read_factors(rope, "long_factor", rotary_dim // 2, where)
        if rope.get("attention_factor") is not None:
            params["attention_factor"] = read_real(rope, "attention_factor", where=where)
        return name, params, L
    if rtype == "yarn" and rope.get("factor") is None:
        s = max_pos / L
    else:
        s = read_real(rope, "factor", minimum=1.0, where=where)
    params["scale"] = s
    if rtype == "linear":  # no original length in the config: its max_position_embeddings is the extended one (Gemma 3)
        L = max(2, int(round(max_pos / s)))
    elif rtype == "dynamic":
        params["n_max"] = L = max_pos  # transformers scales against max_position_embeddings
    elif rtype == "llama3":
        params["low_freq_factor"] = read_real(rope, "low_freq_factor", where=where)
        params["high_freq_factor"] = read_real(rope, "high_freq_factor", where=where)
        if params["high_freq_factor"] < params["low_freq_factor"]:  # equal: Llama 4 Scout (a step, no blended band)
            raise fail(where + "high_freq_factor", f">= low_freq_factor={params['low_freq_factor']:g}",
                       params["high_freq_factor"])
    elif rtype == "yarn":
        params["beta"] = read_real(rope, "beta_fast", where=where) if rope.get("beta_fast") else 32.0
        params["alpha"] = read_real(rope, "beta_slow", where=where) if rope.get("beta_slow") else 1.0
        params["ramp"] = "code"
        if not read_bool(rope, "truncate", default=True, where=where):
            params["truncate"] = False  # gpt-oss: the ramp's end bands are not rounded
        params["mscale"] = yarn_attention_factor(rope, s, where)
    return name, params, L


def yarn_get_mscale(scale: float, mscale: float = 1.0) -> float:
    r"""DeepSeek's ``yarn_get_mscale``: :math:`0.1\,m\ln s + 1` for s > 1, else 1.

    Parameters
    ----------
    scale : float
        s, the YaRN factor.
    mscale : float, optional
        m.

    Returns
    -------
    float
        The factor.

    Examples
    --------
    >>> round(yarn_get_mscale(40.0, 1.0), 6)
    1.368888
    """
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(rope: dict, scale: float, where: str = "rope_scaling.") -> float:
    r"""YaRN's factor on cos and sin as transformers sets it.

    ``attention_factor`` if given, else ``get_mscale(s, mscale) / get_mscale(s, mscale_all_dim)`` when both are set,
    else :math:`0.1\ln s + 1`.

    Parameters
    ----------
    rope : dict
        The RoPE dict.
    scale : float
        s, the YaRN factor.
    where : str, optional
        Its name as a prefix for messages.

    Returns
    -------
    float
        The factor.

    Examples
    --------
    >>> round(yarn_attention_factor({}, 4.0), 6)
    1.138629
    """
    if rope.get("attention_factor") is not None:
        return read_real(rope, "attention_factor", where=where)
    m, m_all = rope.get("mscale"), rope.get("mscale_all_dim")
    if m and m_all:
        m, m_all = read_real(rope, "mscale", where=where), read_real(rope, "mscale_all_dim", where=where)
        return yarn_get_mscale(scale, m) / yarn_get_mscale(scale, m_all)
    return yarn_get_mscale(scale)
