"""What a resolved encoding is, as JSON: registry name, parameters and, for a rotary one, its bands.

:func:`describe_encoding` is what every command writes under ``"resolved_encoding"`` in its JSON, so a user
sees what was understood from ``--pe`` (a registry name, a model's ``config.json``): the per-band
frequencies in rad/position and wavelengths in positions at the length the command looks at, and
the factor on the rotary part of every logit (YaRN's and LongRoPE's attention factor squared,
DeepSeek-V3's ``mscale_all_dim``).
"""

from __future__ import annotations

import math

import numpy as np

from petheory import encodings as enc


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
