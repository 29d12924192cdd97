"""The one helper every command uses to name the resolved encoding in its JSON.

:func:`describe` (written under ``"resolved_encoding"``, a list under ``"resolved_encodings"``) turns a
resolved :class:`petheory.scheme.Scheme` into what was understood: the registry name and parameters of
its main layer (``model`` names the config a model's scheme came from), and for a rotary encoding its
per-band frequencies (rad/position), wavelengths and the factor on rotary logits
(:func:`petheory.models.describe.describe_encoding`); a table is named by its source.
"""

from __future__ import annotations


def describe(scheme, *, length: int | None = None):
    """What ``scheme`` resolves to, as JSON (a dict); None for no scheme.

    ``length``: where length-dependent frequencies are read (dynamic NTK, LongRoPE).
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


def describe_spec(spec, *, d: int | None = None, length: int | None = None):
    """What a petheory.nn spec (``train``, ``sweep``, ``lrc``: mechanism keys and ``+`` combinations allowed) names,
    as JSON: ``{"combination", "terms"}`` for several terms; None for no spec."""
    if spec is None:
        return None
    from petheory import encodings as enc
    from petheory.models.describe import describe_encoding, jsonable
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
