"""What a resolved scheme was understood as, for the records' JSON (``resolved_encoding``, ``resolved_encodings``).

:func:`describe` turns a resolved :class:`petheory.scheme.Scheme` into what was understood: the registry name and
parameters of its main layer (``model`` names the config a model's scheme came from), and for a rotary encoding its
per-band frequencies (rad/position), wavelengths and the factor on rotary logits
(:func:`petheory.models.describe.describe_encoding`); a table is named by its source.
"""

from __future__ import annotations


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
    from petheory.models.describe import describe_encoding, jsonable

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
