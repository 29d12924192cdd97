"""The verification table: which model types petheory reads as transformers runs them, and why the others are refused.

``petheory/data/verified_models.json`` is written by ``python -m tools.verify --write``: for every model type of
the pinned transformers, each case (its default config, its text part, rope-scaling and layer-layout variants) saved
with ``save_pretrained``, read back through petheory's loader and compared layer by layer with the family's own
modules. A model type is verified (``ok``) when its cases end ``ok`` (or refused by name); the others keep the reason:
the mechanism petheory does not implement, the positions a config does not hold (a learned table), or transformers'
own failure to build it. :func:`refusal` turns that into the one-line error an unverified type gets, naming the
nearest verified family for a type the table does not know.

Pure: the table is package data (:mod:`petheory.data.verified_models` reads it).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter

from petheory.data import verified_models

__all__ = ["TABLE", "derived_fields", "load", "nearest", "refusal", "table_aliases", "table_fields", "verified_types"]

#: The table's file (package data, read by :mod:`petheory.data.verified_models`).
TABLE = verified_models.PATH
#: The parsed table: ``{"transformers": version, "counts": {...}, "types": {...}, "cases": [...]}``.
load = verified_models.table


def verified_types() -> frozenset:
    """Model types whose reading the tool found equal to transformers' (status ``ok``).

    Returns
    -------
    frozenset of str
        The model types.

    Examples
    --------
    >>> {"llama", "gemma3_text", "qwen2"} <= verified_types()
    True
    """
    return frozenset(mt for mt, rec in load()["types"].items() if rec.get("status") == "ok")


def table_aliases(mt) -> dict:
    """The standard fields model type ``mt``'s config class stores under other names (its ``attribute_map``, as the tool
    recorded it).

    Parameters
    ----------
    mt : str
        The model type.

    Returns
    -------
    dict
        ``{standard: stored}`` ({} for a type the table does not know).

    Examples
    --------
    >>> table_aliases("no_such_model")
    {}
    """
    return dict(load()["types"].get(mt, {}).get("aliases", {}))


def table_fields(mt):
    """The positional fields model type ``mt``'s configuration class has, as the tool recorded them.

    Parameters
    ----------
    mt : str
        The model type.

    Returns
    -------
    tuple of str or None
        The fields (None: unknown).

    Examples
    --------
    >>> "rope_parameters" in table_fields("llama"), table_fields("no_such_model")
    (True, None)
    """
    rec = load()["types"].get(mt)
    return None if rec is None or "fields" not in rec else tuple(rec["fields"])


def nearest(mt: str, architectures=(), composite: bool = False) -> str | None:
    """The verified model type closest to ``mt``.

    The one whose transformers model class the config's ``architectures`` name (``DeepseekV3ForCausalLM`` ->
    deepseek_v3), else the closest name (difflib's ratio) among the families of the same build (``composite``: a wrapper
    whose text decoder is a sub-configuration, such as a vision-language model; a plain decoder is never pointed to
    one).

    Parameters
    ----------
    mt : str
        The model type.
    architectures : sequence of str, optional
        The config's ``architectures``.
    composite : bool, optional
        Whether the config is a wrapper.

    Returns
    -------
    str or None
        The nearest verified type; None when none is verified.

    Examples
    --------
    >>> nearest("llama_next")
    'llama'
    """
    ok = sorted(verified_types())
    if not ok:
        return None
    types = load()["types"]
    for arch in architectures if isinstance(architectures, (list, tuple)) else ():
        hits = [t for t in ok if isinstance(arch, str) and types[t].get("class") and
                arch.startswith(types[t]["class"].removesuffix("Model"))]
        if hits:
            return max(hits, key=lambda t: len(types[t]["class"]))
    text = str(mt).lower()
    if text in ok:
        return text
    ok = [t for t in ok if ("text" in types[t]) == composite] or ok
    prefixed = [t for t in ok if text.startswith(t)]  # llama_next -> llama
    if prefixed:
        return max(prefixed, key=len)
    inside = [t for t in ok if text.endswith("_" + t) or f"_{t}_" in text]  # my_llama -> llama
    if inside:
        return max(inside, key=len)
    return _closest(text, ok)


def _closest(text: str, names) -> str:
    """``max(names, key=lambda t: (SequenceMatcher(None, text, t).ratio(), t))``, skipping the names whose upper
    bounds (difflib's ``real_quick_ratio`` and ``quick_ratio``, both >= ``ratio``, computed here from letter counts
    kept per name) are below the best ratio so far, as ``difflib.get_close_matches`` does: the same name, with the
    full ratio of a few of the ~180 names."""
    best, best_t = -1.0, None
    mine = Counter(text)
    m = difflib.SequenceMatcher(None, text, "")
    for t, theirs in _letter_counts(tuple(names)):
        total = len(text) + len(t)
        if (2.0 * min(len(text), len(t)) / total if total else 1.0) < best:  # real_quick_ratio
            continue
        if (2.0 * sum(min(n, theirs[ch]) for ch, n in mine.items()) / total if total else 1.0) < best:  # quick_ratio
            continue
        m.set_seq2(t)
        r = m.ratio()
        if (r, t) > (best, best_t or ""):
            best, best_t = r, t
    return best_t


def derived_fields(why: str, cfg: dict | None) -> str:
    """``why`` with each ``config field NAME`` that the user's ``cfg`` does not hold marked as derived by the class.

    The sweep's reasons name the fields of the file ``save_pretrained`` writes, which holds the class's defaults and its
    ``__post_init__``'s derivations; a field is looked for at the file's top level and in its ``text_config``.

    Parameters
    ----------
    why : str
        A reason from the verification table.
    cfg : dict or None
        The user's file.

    Returns
    -------
    str
        The reason, marked.

    Examples
    --------
    >>> derived_fields("config field layer_types[0] = 'x' is not read", {"num_hidden_layers": 2})
    "config field layer_types[0] (not in this file: transformers' configuration class derives it from the file's other fields and its defaults) = 'x' is not read"
    """
    if not isinstance(cfg, dict):
        return why
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else {}

    def mark(m):
        name = m.group(1)
        root = re.split(r"[.\[]", name)[0]
        if root in cfg or root in text:
            return m.group(0)
        return (f"config field {name} (not in this file: transformers' configuration class derives it from the file's "
                "other fields and its defaults)")
    return re.sub(r"config field ([\w.\[\]]+)", mark, why)


@functools.lru_cache(maxsize=4)
def _letter_counts(names: tuple) -> tuple:
    return tuple((t, Counter(t)) for t in names)


def refusal(mt, architectures=(), cfg: dict | None = None) -> str:
    """Why model type ``mt`` is not read, in one line: the table's reason, or the nearest verified family.

    The nearest family is judged by the config's ``architectures`` first; a field the table's reason names that the
    file does not hold is marked as one transformers' configuration class derives (the sweep read the file the class
    writes).

    Parameters
    ----------
    mt : str
        The model type.
    architectures : sequence of str, optional
        The config's ``architectures``.
    cfg : dict, optional
        The user's file.

    Returns
    -------
    str
        The reason.

    Examples
    --------
    >>> why = refusal("llama_next")
    >>> why.startswith("unknown model_type 'llama_next'"), "nearest verified family: llama" in why
    (True, True)
    """
    table = load()
    rec = table["types"].get(mt)
    version = table.get("transformers") or "?"
    wrapper = isinstance(cfg, dict) and any(isinstance(cfg.get(k), dict) for k in ("text_config", "vision_config"))
    near = nearest(mt, architectures, composite=wrapper) if isinstance(mt, str) else None
    hint = (f"; if its code positions tokens as {near}'s does, read it as {near} (as_family={near!r}, CLI "
            f"--as-family {near}): your assertion, stated in the report") if near else ""
    if rec is None:
        return (f"unknown model_type {mt!r}: not a model type of transformers {version} that petheory has verified "
                f"({len(verified_types())} are: python -m tools.verify lists them); nearest verified family: "
                f"{near}{hint}")
    status, why = rec.get("status"), derived_fields(rec.get("why", ""), cfg)
    if status == "refused":  # a mechanism refusal already names the type (read_config: "model_type 'x': ...")
        return f"model_type {mt!r} is refused: {why.removeprefix(f'model_type {mt!r}: ')}"
    if status == "no-positions":
        return f"model_type {mt!r}: {why}"
    if status == "transformers":
        return (f"model_type {mt!r} is not verified: the sweep could not build transformers {version}'s modules from "
                f"this type's default configuration ({why}), and no published file of it was compared; so its reading "
                f"is unchecked{hint}")
    return f"model_type {mt!r} is not verified ({status}: {why}){hint}"
