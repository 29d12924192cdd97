r"""What was understood from a ``--pe``, as JSON: the ``resolved_encoding`` every command writes.

A user sees what was understood (a registry name, a model's ``config.json``, a petheory.nn spec): the registry name and
parameters and, for a rotary encoding, its per-band frequencies in rad/position and wavelengths in positions at the
length the command looks at, and the factor on the rotary part of every logit (YaRN's and LongRoPE's attention factor
squared, DeepSeek-V3's ``mscale_all_dim``).

* :func:`describe_encoding`: one registry encoding with its parameters;
* :func:`describe`: a resolved :class:`petheory.scheme.Scheme` (its main layer; ``model`` names the config a model's
  scheme came from; a table is named by its source);
* :func:`describe_spec`: a petheory.nn spec (``train``, ``sweep``, ``lrc``: mechanism keys and ``+`` combinations);
* :func:`jsonable`: the values as JSON writes them.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import encodings as enc

__all__ = ["describe", "describe_encoding", "describe_spec", "jsonable"]


def jsonable(x):
    """``x`` with tuples and arrays as lists, numpy scalars as Python numbers, non-finite floats as text (recursively).

    Parameters
    ----------
    x : object
        A value of a scheme's description.

    Returns
    -------
    object
        The same value, JSON-serialisable (anything else as its ``repr``).

    Examples
    --------
    >>> import numpy as np
    >>> jsonable({"a": (1, np.float64(2.5)), "b": float("inf")})
    {'a': [1, 2.5], 'b': 'inf'}
    """
    if isinstance(x, dict):
        return {str(k): jsonable(val) for k, val in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [jsonable(val) for val in (x.tolist() if isinstance(x, np.ndarray) else x)]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


def describe_encoding(name: str, params: dict | None = None, d: int | None = None, *, length: int | None = None) -> dict:
    """A registry encoding with its parameters, as JSON; rotary ones with their bands at ``length``.

    Parameters
    ----------
    name : str
        Registry name.
    params : dict, optional
        Its keyword parameters.
    d : int, optional
        Dimension of the vectors it acts on (rotary and absolute kinds); without it no bands.
    length : int, optional
        Sequence length at which length-dependent frequencies are read (dynamic NTK, LongRoPE);
        default 2 (the short regime, the pre-training base).

    Returns
    -------
    dict
        ``encoding``, ``kind``, ``params``, ``d``; rotary: ``rotary_dim``, ``frequencies``
        (rad/position, one per band), ``wavelengths`` (positions, :math:`2\\pi/\\omega_t`),
        ``rotary_logit_factor``, ``at_length``.

    Examples
    --------
    >>> out = describe_encoding("rope_pi", {"scale": 4.0}, 4)
    >>> out["frequencies"], out["rotary_logit_factor"]
    ([0.25, 0.0025], 1.0)
    """
    params = dict(params or {})
    info = enc.info(name)
    out = {"encoding": name, "kind": info.kind, "params": jsonable(params), "d": d}
    if info.kind != "rotary" or d is None:
        return out
    at = 2 if length is None else int(length)
    try:
        w, factor = enc.band_frequencies(name, d, at, **params)
    except ValueError as exc:  # xPos: a per-position scale, no single frequency per band
        out["bands"] = f"not a sum of cosines: {exc}"
        return out
    out.update({"rotary_dim": 2 * int(w.shape[0]), "at_length": at, "frequencies": w.tolist(),
                "wavelengths": jsonable(2 * math.pi / w), "rotary_logit_factor": factor})
    return out


def describe(scheme, *, length: int | None = None):
    """What ``scheme`` resolves to, as JSON.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme or None
        From :func:`petheory.loaders.resolve_scheme`.
    length : int, optional
        Where length-dependent frequencies are read (dynamic NTK, LongRoPE).

    Returns
    -------
    dict or None
        None for no scheme.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> describe(resolve_scheme("alibi:slope=0.5"))["params"]
    {'slope': 0.5}
    """
    if scheme is None:
        return None
    pos = scheme.main.positions
    if pos.kind == "table":
        return {"table": pos.source, "d": pos.d}
    if pos.encoding is None:
        return {"mechanism": pos.kind}
    try:
        desc = describe_encoding(pos.encoding, pos.params, pos.d, length=length)
    except (TypeError, ValueError) as exc:  # parameters the registry entry does not take
        desc = {"encoding": pos.encoding, "params": jsonable(pos.params), "bands": f"not evaluated: {exc}"}
    if scheme.source not in ("spec", "table"):
        desc["model"] = scheme.spec
        desc["model_type"] = scheme.source
    return desc


def describe_spec(spec, *, d: int | None = None, length: int | None = None):
    """What a petheory.nn spec (``train``, ``sweep``, ``lrc``: mechanism keys and ``+`` combinations allowed) names,
    as JSON.

    Parameters
    ----------
    spec : str or PESpec or None
        The model's ``pe`` (``"rope:heads=4"``, ``"rope+sinusoidal"``, ``"mla"``).
    d : int, optional
        Head dimension (the bands of a rotary term).
    length : int, optional
        Where length-dependent frequencies are read.

    Returns
    -------
    dict or None
        One term's :func:`describe_encoding` (a mechanism's keys under ``mechanism_params``; ``{"mechanism",
        "params"}`` for a petheory.nn mechanism such as MLA), ``{"combination", "terms"}`` for several terms; None
        for no spec.

    Examples
    --------
    >>> describe_spec("rope:heads=2", d=4)["mechanism_params"]
    {'heads': 2}
    >>> describe_spec("rope+sinusoidal", d=4)["combination"]
    'rope+sinusoidal'
    """
    if spec is None:
        return None
    from petheory.spec import MECHANISM_KEYS, parse_pe_spec

    spec = parse_pe_spec(spec)
    out = []
    for term in spec.terms:
        if term.is_table:
            out.append({"table": term.path, "key": term.key})
            continue
        params = {k: val for k, val in term.params.items() if k not in MECHANISM_KEYS}
        if term.name not in enc.available():  # a petheory.nn mechanism (mla)
            out.append({"mechanism": term.name, "params": jsonable(term.params)})
            continue
        try:
            desc = describe_encoding(term.name, params, d, length=length)
        except (TypeError, ValueError) as exc:  # parameters the registry entry does not take
            desc = {"encoding": term.name, "params": jsonable(term.params), "bands": f"not evaluated: {exc}"}
        if len(params) != len(term.params):
            desc["mechanism_params"] = jsonable({k: val for k, val in term.params.items() if k in MECHANISM_KEYS})
        out.append(desc)
    return out[0] if len(out) == 1 else {"combination": str(spec), "terms": out}
