"""What a petheory.nn spec names, as JSON (``train``, ``sweep``, ``lrc``).

A resolved scheme is described by :func:`petheory.analyses.describe.describe`.
"""

from __future__ import annotations


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
