"""Readers of one ``config.json`` field each: type, range and size limits, one ValidationError line on failure.

Every field the model resolvers read goes through these, so a malformed or hostile file is refused
with the field's name, what was expected and the value, never an ``OverflowError`` or a silent NaN.
"""

from __future__ import annotations

import math
import numbers

from petheory.errors import ValidationError

#: Sizes past these are refused as absurd (a typo or a hostile file), before anything is allocated.
LIMITS = {"hidden_size": 1 << 20, "d_model": 1 << 20, "n_embed": 1 << 20, "num_attention_heads": 1 << 14,
          "num_key_value_heads": 1 << 14, "head_dim": 1 << 14, "d_kv": 1 << 14, "qk_rope_head_dim": 1 << 14,
          "qk_nope_head_dim": 1 << 14, "max_position_embeddings": 1 << 31, "max_seq_len": 1 << 31,
          "seq_length": 1 << 31, "original_max_position_embeddings": 1 << 31, "num_hidden_layers": 1 << 14,
          "num_layers": 1 << 14, "num_decoder_layers": 1 << 14, "n_layer": 1 << 14, "n_layers": 1 << 14,
          "relative_attention_num_buckets": 1 << 16, "relative_attention_max_distance": 1 << 31,
          "sliding_window": 1 << 31, "attention_chunk_size": 1 << 31, "floor_scale": 1 << 31,
          "sliding_window_pattern": 1 << 14, "max_window_layers": 1 << 14, "interleave_moe_layer_step": 1 << 14,
          "full_attention_interval": 1 << 14, "global_attn_every_n_layers": 1 << 14}
#: Any other integer field: past this it is not a real model.
INT_LIMIT = 1 << 40
#: Any real field: past this magnitude it is not a real model (and float64 arithmetic on it would overflow).
REAL_LIMIT = 1e300


def fail(field_: str, expected: str, value) -> ValidationError:
    """The one-line error for a field: its name, what was expected, the value (shortened).

    Parameters
    ----------
    field_ : str
        The field's name, as the file writes it (``rope_scaling.factor``).
    expected : str
        What it must be.
    value : object
        What it is.

    Returns
    -------
    petheory.errors.ValidationError
        The error, to raise.

    Examples
    --------
    >>> str(fail("rope_theta", "a number > 0", -1))
    'config field rope_theta must be a number > 0, got -1; fix the config.json'
    """
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return ValidationError(f"config field {field_} must be {expected}, got {text}; fix the config.json")


def read_int(cfg: dict, key: str, *, default=None, minimum: int = 1, where: str = "", limit: int | None = None) -> int:
    """The integer field ``cfg[key]`` (an integral float is accepted), within [minimum, limit].

    Parameters
    ----------
    cfg : dict
        The config (or one of its objects).
    key : str
        The field.
    default : int, optional
        Its value when absent (None: required).
    minimum : int, optional
        Smallest value accepted.
    where : str, optional
        Prefix of the field's name in messages (``rope_scaling.``).
    limit : int, optional
        Largest value accepted (default: the field's entry in ``LIMITS``).

    Returns
    -------
    int
        The value.

    Raises
    ------
    petheory.errors.ValidationError
        Missing, not an integer, or out of range.

    Examples
    --------
    >>> read_int({"n": 4.0}, "n")
    4
    """
    name = where + key
    val = cfg.get(key, default)
    if val is None:
        raise ValidationError(f"config field {name} is missing; transformers needs it for this model type")
    if isinstance(val, bool) or not isinstance(val, numbers.Integral):
        if isinstance(val, float) and math.isfinite(val) and val.is_integer():
            val = int(val)
        else:
            raise fail(name, "an integer", val)
    val = int(val)
    if val < minimum:
        raise fail(name, f"an integer >= {minimum}", val)
    limit = LIMITS.get(key, INT_LIMIT) if limit is None else limit
    if val > limit:
        raise fail(name, f"at most {limit} (larger is not a real model: check the file)", val)
    return val


def read_real(cfg: dict, key: str, *, default=None, minimum: float | None = None, positive: bool = True,
              where: str = "") -> float:
    """The finite real field ``cfg[key]``, > 0 unless ``positive=False``, of magnitude at most :data:`REAL_LIMIT`.

    Parameters
    ----------
    cfg : dict
        The config (or one of its objects).
    key : str
        The field.
    default : float, optional
        Its value when absent (None: required).
    minimum : float, optional
        Smallest value accepted.
    positive : bool, optional
        Require > 0.
    where : str, optional
        Prefix of the field's name in messages.

    Returns
    -------
    float
        The value.

    Raises
    ------
    petheory.errors.ValidationError
        Missing, not a finite number, or out of range.

    Examples
    --------
    >>> read_real({"rope_theta": 10 ** 400}, "rope_theta")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config field rope_theta must be a finite number of magnitude at most 1e+300, got ...
    """
    name = where + key
    val = cfg.get(key, default)
    if val is None:
        raise ValidationError(f"config field {name} is missing; transformers needs it for this model type")
    if isinstance(val, bool) or not isinstance(val, numbers.Real):
        raise fail(name, "a finite number", val)
    try:
        val = float(val)  # a huge Python int raises OverflowError here
    except OverflowError:
        val = math.inf
    if not math.isfinite(val) or abs(val) > REAL_LIMIT:
        raise fail(name, f"a finite number of magnitude at most {REAL_LIMIT:g}", cfg.get(key, default))
    if positive and val <= 0:
        raise fail(name, "a number > 0", val)
    if minimum is not None and val < minimum:
        raise fail(name, f"a number >= {minimum:g}", val)
    return val


def read_bool(cfg: dict, key: str, *, default: bool, where: str = "") -> bool:
    """The boolean field ``cfg[key]`` (absent or null: ``default``).

    Parameters
    ----------
    cfg : dict
        The config.
    key : str
        The field.
    default : bool
        Its value when absent or null.
    where : str, optional
        Prefix of the field's name in messages.

    Returns
    -------
    bool
        The value.

    Raises
    ------
    petheory.errors.ValidationError
        Not true or false.

    Examples
    --------
    >>> read_bool({"x": True}, "x", default=False), read_bool({}, "x", default=False)
    (True, False)
    """
    val = cfg.get(key)
    if val is None:
        return default
    if not isinstance(val, bool):
        raise fail(where + key, "true or false", val)
    return val


def read_factors(rope: dict, key: str, bands: int, where: str) -> tuple:
    """A list of ``bands`` positive finite numbers (LongRoPE's short and long factors).

    Parameters
    ----------
    rope : dict
        The RoPE dict.
    key : str
        ``'short_factor'`` or ``'long_factor'``.
    bands : int
        Rotary bands (one factor each).
    where : str
        Prefix of the field's name in messages.

    Returns
    -------
    tuple of float
        The factors.

    Raises
    ------
    petheory.errors.ValidationError
        Not a list of ``bands`` positive finite numbers.

    Examples
    --------
    >>> read_factors({"short_factor": [1.0, 2.0]}, "short_factor", 2, "rope_scaling.")
    (1.0, 2.0)
    """
    vals = rope.get(key)
    name = where + key
    if not isinstance(vals, (list, tuple)):
        raise fail(name, f"a list of {bands} numbers (one per rotary band, head_dim * partial_rotary_factor / 2)", vals)
    if len(vals) != bands:
        raise ValidationError(f"config field {name} has {len(vals)} numbers, expected {bands} (one per rotary band: "
                              f"rotary dimension {2 * bands} / 2); fix the config.json")
    return tuple(_named(vals, name))


def _named(vals, name):
    for i, x in enumerate(vals):
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise fail(f"{name}[{i}]", "a finite number > 0", x)
        try:
            f = float(x)
        except OverflowError:
            f = math.inf
        if not math.isfinite(f) or f <= 0 or f > REAL_LIMIT:
            raise fail(f"{name}[{i}]", "a finite number > 0", x)
        yield f


def read_heads(cfg: dict, *keys: str) -> int:
    """The number of attention heads, from the first of ``keys`` the config has.

    Parameters
    ----------
    cfg : dict
        The config.
    *keys : str
        The names it may be stored under, in order.

    Returns
    -------
    int
        The heads.

    Raises
    ------
    petheory.errors.ValidationError
        None of ``keys`` is set, or the value is out of range.

    Examples
    --------
    >>> read_heads({"n_head": 8}, "num_attention_heads", "n_head")
    8
    """
    for k in keys:
        if cfg.get(k) is not None:
            return read_int(cfg, k, limit=LIMITS["num_attention_heads"])
    raise ValidationError(f"config field {keys[0]} is missing; the number of attention heads is needed")


def read_head_dim(cfg: dict, hidden: int, heads: int) -> int:
    """``head_dim`` if the config gives one, else ``hidden // heads`` (transformers' floor division).

    Parameters
    ----------
    cfg : dict
        The config.
    hidden : int
        Hidden size.
    heads : int
        Attention heads.

    Returns
    -------
    int
        The head dimension.

    Raises
    ------
    petheory.errors.ValidationError
        A head of fewer than 2 dimensions.

    Examples
    --------
    >>> read_head_dim({}, 4096, 32), read_head_dim({"head_dim": 256}, 4096, 32)
    (128, 256)
    """
    if cfg.get("head_dim") is not None:
        return read_int(cfg, "head_dim", minimum=2)
    if hidden // heads < 2:
        raise ValidationError(f"config fields hidden_size={hidden} and num_attention_heads={heads}: a head of "
                              f"{hidden // heads} dimensions (hidden_size // heads, as transformers sizes it); fix the "
                              "config.json or give head_dim")
    return hidden // heads  # transformers: getattr(config, "head_dim", hidden_size // num_attention_heads)


def read_int_list(cfg: dict, key: str, *, length: int | None = None, minimum: int = 0, maximum: int | None = None,
                  where: str = "") -> tuple:
    """A list of integers (``no_rope_layers``, ``mrope_section``), of ``length`` items when given.

    Parameters
    ----------
    cfg : dict
        The config.
    key : str
        The field.
    length : int, optional
        The number of items required.
    minimum, maximum : int, optional
        The range of each item.
    where : str, optional
        Prefix of the field's name in messages.

    Returns
    -------
    tuple of int
        The items.

    Raises
    ------
    petheory.errors.ValidationError
        Not a list, the wrong length, or an item out of range.

    Examples
    --------
    >>> read_int_list({"mrope_section": [16, 24, 24]}, "mrope_section")
    (16, 24, 24)
    """
    vals = cfg.get(key)
    name = where + key
    if not isinstance(vals, (list, tuple)):
        raise fail(name, "a list of integers", vals)
    if length is not None and len(vals) != length:
        raise ValidationError(f"config field {name} has {len(vals)} items, expected {length} (one per layer: "
                              f"num_hidden_layers); fix the config.json")
    out = []
    for i, x in enumerate(vals):
        if isinstance(x, bool) or not isinstance(x, numbers.Integral) or x < minimum or (maximum is not None and x > maximum):
            rng = f"an integer >= {minimum}" + ("" if maximum is None else f" and <= {maximum}")
            raise fail(f"{name}[{i}]", rng, x)
        out.append(int(x))
    return tuple(out)
