r"""A Hugging Face ``config.json`` (as a dict) -> the model's per-layer ``petheory.scheme.Scheme``.

:func:`resolve_config` reads a config's positions from the fields it has, by their meaning in transformers
(:mod:`petheory.models.read`; MLA, ALiBi and T5 buckets in :mod:`petheory.models.bias`), with the table of what
only a family's modeling code knows (:mod:`petheory.models.families`), and returns one ``petheory.scheme.Layer``
per layer: its position mechanism (a rotary registry entry with its parameters and the factor on the logits beyond
:math:`1/\sqrt{d_{head}}`; ALiBi; T5 buckets; NoPE; none for a layer without softmax attention), its span (full,
sliding window, chunks), its temperature and sinks. A multimodal wrapper is read through its ``text_config``.

A model type is read when ``python -m tools.verify`` found its reading equal to what its transformers code
does (the verification table, :mod:`petheory.models.verified`). Any other is refused in one line: a verified
refusal names the mechanism petheory does not implement; an unknown type names the nearest verified family, which
``as_family`` asserts (the report says it is the user's assertion, not a check). Within a verified type, a field
that changes positions and is not understood is refused by name, never dropped; fields that do not touch
positions are ignored.

Pure: no file is read here (:mod:`petheory.loaders.model_config` reads the file).

Conventions: transformers' RoPE rotates half-split pairs (``rotate_half``, ``pairing='half'``) except where a
model rotates adjacent pairs (DeepSeek-V3 with ``rope_interleave``, Llama 4, Cohere2: ``'interleaved'``).
``context`` is the original (pre-training) context L: the ``original_max_position_embeddings`` of a scaled config,
else ``max_position_embeddings``.
"""

from __future__ import annotations

import dataclasses
import re

from petheory.errors import ValidationError, ValidationTypeError
from petheory.models.bias import alibi_model, mla_model, t5_model
from petheory.models.families import NOT_SHIPPED, REFUSED, TEXT_TYPES, family
from petheory.models.fields import fail, read_heads, read_int
from petheory.models.read import HEADS, HIDDEN, first_key, rope_model
from petheory.models.understood import unread_by_class
from petheory.models.verified import load, refusal, table_aliases, table_fields, verified_types
from petheory.scheme import Scheme

__all__ = ["ALIASED", "MODEL_TYPES", "apply_aliases", "mechanism", "read_config", "resolve_config", "text_part"]


class _Verified:
    """The verified model types (a read-only mapping view: ``mt in MODEL_TYPES``), loaded on first use."""

    def __contains__(self, mt) -> bool:
        return mt in verified_types()

    def __iter__(self):
        return iter(sorted(verified_types()))

    def __len__(self) -> int:
        return len(verified_types())


#: Model types read from their configuration alone (those the verification table found read as transformers runs them).
MODEL_TYPES = _Verified()

_TEXT_KEYS = ("text_config", "decoder", "generator")


def composite(mt) -> bool | None:
    """Whether model type ``mt``'s configuration class holds its text decoder in a sub-configuration.

    The sub-configuration is ``text_config``, ``decoder`` or ``generator``.

    Parameters
    ----------
    mt : str
        The model type.

    Returns
    -------
    bool or None
        True for a wrapper, False for a plain model that runs its top-level fields, None when the verification table
        does not know it.

    Examples
    --------
    >>> composite("gemma3"), composite("llama"), composite("no_such_model")
    (True, False, None)
    """
    if mt in TEXT_TYPES:
        return True
    rec = load()["types"].get(mt) if isinstance(mt, str) else None
    return None if rec is None else "text" in rec


def text_part(cfg: dict, fallback: str | None = None) -> tuple[dict, str]:
    """A config's text decoder (a wrapper's ``text_config``, else the config itself) and the model type to read it as.

    A nested ``text_config`` / ``decoder`` / ``generator`` is read only where the model type's configuration class
    holds one (:func:`composite`); a plain model's class never reads it (transformers runs the top-level fields), so
    it is not read in their place (:func:`read_config` refuses it when it says other positions).

    Parameters
    ----------
    cfg : dict
        The config.
    fallback : str, optional
        The model type when the text part names none.

    Returns
    -------
    text : dict
        The text decoder's fields.
    model_type : str
        The model type to read it as.

    Raises
    ------
    petheory.errors.ValidationError
        A wrapper without its text part, or a text part without a model type petheory can name.

    Examples
    --------
    >>> text, mt = text_part({"model_type": "gemma3", "text_config": {"hidden_size": 8}})
    >>> mt, text["hidden_size"]
    ('gemma3_text', 8)
    """
    mt = cfg.get("model_type")
    if composite(mt) is False:
        return cfg, TEXT_TYPES.get(mt, mt)
    vlm = cfg.get("vlm_config")
    if isinstance(vlm, dict) and isinstance(vlm.get("model_type"), str):
        return text_part(vlm, fallback)  # ColPali, ColQwen2: a retrieval head over a vision-language model's text model
    for key in _TEXT_KEYS:
        text = cfg.get(key)
        if text is None or key != "text_config" and not (isinstance(text, dict) and "model_type" in text):
            continue
        if not isinstance(text, dict):
            raise fail(key, "an object", text)
        tmt = text.get("model_type") or TEXT_TYPES.get(mt) or fallback
        if tmt is None:
            raise ValidationError(f"config field {key} has no model_type and petheory does not know {mt}'s text model; "
                                  f"give {key}.model_type")
        return {**text, "model_type": tmt}, TEXT_TYPES.get(tmt, tmt)
    if mt in ("gemma3", "gemma4", "gemma4_unified", "gemma4_unified_assistant", "llama4", "gemma3n"):
        raise ValidationError(f"config field text_config is missing; a {mt} config holds its text decoder there")
    return cfg, TEXT_TYPES.get(mt, mt)  # Qwen2-VL / Qwen2.5-VL on the Hub: a flat config


def mechanism(cfg: dict, mt: str) -> str:
    """Which reader a (text) config takes, from its fields: ``t5`` buckets, ``mla``, ``alibi`` or ``rope``.

    Parameters
    ----------
    cfg : dict
        The (text) config.
    mt : str
        Its model type.

    Returns
    -------
    str
        ``'t5'``, ``'mla'``, ``'alibi'`` or ``'rope'``.

    Raises
    ------
    petheory.errors.ValidationError
        A decoupled rotary part (``qk_rope_head_dim``) without latent attention.

    Examples
    --------
    >>> mechanism({"relative_attention_num_buckets": 32, "d_kv": 64}, "t5"), mechanism({}, "llama")
    ('t5', 'rope')
    >>> mechanism({"alibi": True}, "falcon")
    'alibi'
    """
    if cfg.get("relative_attention_num_buckets") is not None and cfg.get("d_kv") is not None:
        return "t5"
    if cfg.get("qk_rope_head_dim") is not None and (cfg.get("kv_lora_rank") is not None or
                                                    mt in ("deepseek_v2", "deepseek_v3")):
        return "mla"  # DeepSeek-V2/V3's classes default kv_lora_rank
    if cfg.get("qk_rope_head_dim") is not None:
        raise ValidationError(f"config field qk_rope_head_dim (a decoupled rotary part of each head) without "
                              f"kv_lora_rank: {mt}'s attention is not multi-head latent attention as petheory reads it "
                              "(DeepSeek-V2/V3); refused rather than read as plain RoPE")
    if mt in ("bloom", "mpt") or mt == "falcon" and cfg.get("alibi"):
        return "alibi"
    return "rope"


#: Standard field names a family's config class may store under another name (its ``attribute_map``).
ALIASED = ("num_hidden_layers", "num_attention_heads", "hidden_size", "head_dim", "max_position_embeddings",
           "sliding_window", "layer_types", "num_key_value_heads")


def apply_aliases(cfg: dict, aliases: dict) -> dict:
    """``cfg`` with each standard field read from the name its class stores it under.

    Parameters
    ----------
    cfg : dict
        The config.
    aliases : dict
        ``{standard: stored}`` (the class's ``attribute_map``).

    Returns
    -------
    dict
        The config under the standard names.

    Examples
    --------
    >>> apply_aliases({"model_max_length": 4096}, {"max_position_embeddings": "model_max_length"})
    {'max_position_embeddings': 4096}
    """
    out = {k: v for k, v in cfg.items() if k not in set(aliases.values())}
    for std, stored in aliases.items():
        if std in ALIASED and stored in cfg and cfg.get(std) is None:
            out[std] = cfg[stored]
    return out


def read_config(cfg: dict, mt: str | None = None, *, aliases: dict | None = None, fields=None) -> Scheme:
    """The scheme of a config read by its fields and ``mt``'s table entry, whether or not ``mt`` is verified.

    What :func:`resolve_config` returns for a verified type; the verification tool compares it with transformers. A
    message that names a standard field names the file's own name for it.

    Parameters
    ----------
    cfg : dict
        The config (``config.json``).
    mt : str, optional
        Read it as this model type (default: its own).
    aliases : dict, optional
        The class's ``attribute_map`` (default: the verification table's record of the class).
    fields : iterable of str, optional
        The positional fields its class has; a field outside them is refused (default: the table's record).

    Returns
    -------
    petheory.scheme.Scheme
        The per-layer scheme.

    Raises
    ------
    petheory.errors.ValidationError
        A refused model type, or a field missing, out of range or not understood.

    Examples
    --------
    >>> cfg = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
    ...        "num_hidden_layers": 2, "max_position_embeddings": 8192, "rope_theta": 500000.0}
    >>> s = read_config(cfg)
    >>> s.source, s.context, s.layers[0].positions.params
    ('llama', 8192, {'base': 500000.0, 'pairing': 'half'})
    """
    text, tmt = text_part(cfg, mt)
    plain = text is cfg and composite(cfg.get("model_type")) is False
    if mt is not None:
        tmt = TEXT_TYPES.get(mt, mt)
    if tmt in REFUSED:
        raise ValidationError(f"model_type {tmt!r}: {REFUSED[tmt]}")
    aliases = table_aliases(tmt) if aliases is None else aliases
    kind = mechanism(text, tmt)
    try:
        return _read(cfg, text, tmt, kind, aliases, fields, plain)
    except ValidationError as exc:
        # a message names the standard field; the file holds it under its class's name (Zamba2's layers_block_type)
        msg = str(exc)
        for std, stored in aliases.items():
            if stored in text and std not in text and kind != "t5":
                msg = re.sub(rf"config field {std}\b", f"config field {stored}", msg)
        if msg == str(exc):
            raise
        raise ValidationError(msg) from None


def _read(cfg: dict, text: dict, tmt: str, kind: str, aliases: dict, fields, plain: bool) -> Scheme:
    if kind == "mla":  # MLA reads qk_rope_head_dim itself (GLM-4.7-Flash's class maps head_dim onto it)
        aliases = {k: v for k, v in aliases.items() if k != "head_dim"}
    if kind != "t5":  # T5's reader reads its own names (d_kv, num_heads)
        text = apply_aliases(text, aliases)
    fields = table_fields(tmt) if fields is None else fields
    if fields is not None:
        fields = set(fields) | set(aliases)
    unread = unread_by_class(text, fields)
    restated = [k for k in unread if k in RESTATED] + [k for k in family(tmt).unused if k in text and k not in unread]
    unread = [k for k in unread if k not in RESTATED]
    scheme = _dispatch({k: v for k, v in text.items() if k not in unread and k not in restated}, tmt, kind, fields)
    if restated:
        scheme = dataclasses.replace(scheme, notes=scheme.notes + tuple(_restated(text, restated, scheme, tmt)))
    if plain:
        scheme = _plain_nested(cfg, scheme, tmt)
    if unread:
        # transformers' code for tmt never reads these: it runs the model as if they were absent. When reading them
        # would change the scheme, the file says something its model type does not do: refused, never dropped
        try:
            same = _dispatch({k: v for k, v in text.items() if k not in restated}, tmt, kind, None).layers == \
                scheme.layers
        except ValidationError:
            same = False
        if not same:
            raise ValidationError(f"config field {unread[0]} is never read by transformers' {tmt} code, and reading it "
                                  "would change the positions: refused rather than dropped; remove it, or read the model "
                                  "as a family whose code reads it (as_family)")
        note = f"ignored, as transformers' {tmt} code never reads them (they change nothing here): {', '.join(unread)}"
        scheme = dataclasses.replace(scheme, notes=scheme.notes + (note,))
    return scheme


#: Fields a model type's code does not read that restate a quantity it does read: the field they restate. Read for
#: that meaning: a note where they agree with what transformers runs, refused (naming both) where they do not.
RESTATED = {"sliding_window_size": "sliding_window",  # Gemma 2's published files carry both
            "attn_rotary_emb": "the rotated dimensions of each attention head",  # Bamba's: 64 of 128
            "rotary_dim": "the rotated dimensions of each attention head"}  # MiniMax-M3's (Family.unused)


def _rotated(scheme: Scheme) -> set:
    return {p.params.get("rotary_dim", p.params.get("rope_dim", p.d)) for layer, _ in scheme.kinds()
            if (p := layer.positions).kind == "rotary"}


def _restated(text: dict, restated: list, scheme: Scheme, tmt: str) -> list:
    """Notes for the fields of ``restated`` (:data:`RESTATED`) that agree with the scheme transformers runs; the first
    that disagrees is refused, naming both."""
    notes = []
    for key in restated:
        val = text[key]
        if RESTATED[key] == RESTATED["attn_rotary_emb"]:
            runs = _rotated(scheme)
            if not runs:
                notes.append(f"config field {key} = {val!r} ({RESTATED[key]}) is not read by transformers' {tmt} code; "
                             "this config has no rotary attention layer, so it changes nothing")
                continue
            ok = runs == {val}
            runs_txt = f"it rotates {' or '.join(map(str, sorted(runs)))} dimensions per head"
        else:
            runs = text.get(RESTATED[key])
            ok = runs == val and not isinstance(val, bool)
            runs_txt = f"{RESTATED[key]} = {runs!r}"
        if not ok:
            raise ValidationError(f"config field {key} = {val!r} ({RESTATED[key]}) disagrees with what transformers' "
                                  f"{tmt} code runs: {runs_txt}; its code never reads {key}, so the file says two "
                                  f"things: make them agree or remove {key}")
        notes.append(f"config field {key} = {val!r} is not read by transformers' {tmt} code; it agrees with what the "
                     f"code runs ({runs_txt}), so it changes nothing")
    return notes


def _plain_nested(cfg: dict, scheme: Scheme, tmt: str) -> Scheme:
    """A plain model's file that carries a ``text_config`` / ``decoder`` object: transformers' class for ``tmt`` never
    reads it (the model runs the top-level fields, as read here). Noted when reading it would give the same positions,
    refused (naming it) when it says other ones."""
    for key in _TEXT_KEYS:
        nested = cfg.get(key)
        if not isinstance(nested, dict) or not nested:
            continue
        inner = {**nested, "model_type": nested.get("model_type") or tmt}
        try:
            same = read_config(inner, TEXT_TYPES.get(inner["model_type"], inner["model_type"])).layers == scheme.layers
        except ValidationError:
            same = False
        if not same:
            raise ValidationError(f"config field {key} is an object, but transformers' {tmt} configuration class has no "
                                  f"{key}: the model runs the top-level fields, and {key} says other positions; "
                                  f"remove {key}, or give the model_type of the composite model that holds it")
        scheme = dataclasses.replace(scheme, notes=scheme.notes + (
            f"config field {key} is not read ({tmt}'s configuration class has none; the model runs the top-level "
            f"fields): its positions agree with them",))
    return scheme


def _dispatch(text: dict, tmt: str, kind: str, fields) -> Scheme:
    if kind == "t5":
        return t5_model(text, tmt)
    if kind == "mla":
        return mla_model(text, tmt, nope="full_attention" in family(tmt).nope_types)
    if kind == "alibi":
        return _alibi(text, tmt)
    return rope_model(text, tmt, family(tmt), fields)


def _alibi(cfg: dict, mt: str) -> Scheme:
    if mt == "mpt":
        attn = cfg.get("attn_config") or {}
        if isinstance(attn, dict) and attn.get("rope") is True and not attn.get("alibi"):
            raise ValidationError("this MPT config has attn_config.rope=true (rotary positions, not ALiBi or learned "
                                  "ones), which petheory does not resolve for MPT; supported from the config alone: "
                                  "MPT with ALiBi")
        if isinstance(attn, dict) and attn.get("alibi") is False:
            raise ValidationError("this MPT config has attn_config.alibi=false (learned positions): give hf:DIR with "
                                  "its weights; supported from the config alone: MPT with ALiBi")
        return alibi_model(cfg, mt, read_heads(cfg, "n_heads", *HEADS), read_int(cfg, first_key(cfg, ("d_model",) + HIDDEN)),
                           schedule="mpt")
    heads = read_heads(cfg, *HEADS)
    hidden = read_int(cfg, first_key(cfg, HIDDEN))
    return alibi_model(cfg, mt, heads, hidden, schedule="falcon" if mt == "falcon" else "press")


def resolve_config(cfg, *, as_family: str | None = None) -> Scheme:
    """A Hugging Face ``config.json`` (parsed) -> its per-layer ``petheory.scheme.Scheme``.

    Parameters
    ----------
    cfg : dict
        The parsed file. A multimodal config is read through its ``text_config``.
    as_family : str, optional
        Read the config as this verified model type (its table entry and reader): the user's assertion that the
        model's code positions tokens as that family's does. The scheme's notes say so.

    Returns
    -------
    Scheme
        One layer per decoder layer (``num_hidden_layers``; T5: encoder then decoder layers), holding ``cfg`` as its
        ``config`` (its lints and a plan's blocks read it there).

    Raises
    ------
    ValidationError
        A config without ``model_type``; a model type the verification table does not accept (the message says
        why, or names the nearest verified family); an unknown ``rope_type``, rope key or layer type (the message
        lists what is supported), a field that changes positions and is not understood, a malformed field (named,
        with what was expected).

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
    if mt is None and as_family is None:
        raise ValidationError("the config has no model_type field: petheory reads a model's positions by its "
                              "transformers model type (e.g. \"model_type\": \"llama\"); add it, or pass as_family "
                              "to read it as a verified family")
    if mt is not None and not isinstance(mt, str):
        raise fail("model_type", "text such as 'llama'", mt)
    if as_family is not None:
        if as_family not in MODEL_TYPES:
            raise ValidationError(f"as_family {as_family!r} is not a verified model type; {refusal(as_family)}")
        scheme = read_config(cfg, as_family)
        note = (f"read as {as_family}: the user's assertion (as_family / --as-family), not a verification of "
                f"model_type {mt!r}")
        return dataclasses.replace(scheme, notes=(note,) + scheme.notes, config=cfg)
    if mt in NOT_SHIPPED:
        raise ValidationError(NOT_SHIPPED[mt])
    if mt not in MODEL_TYPES:
        raise ValidationError(refusal(mt, cfg.get("architectures") or (), cfg))
    return dataclasses.replace(read_config(cfg), config=cfg)
