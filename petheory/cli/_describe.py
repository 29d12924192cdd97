"""The one helper every command uses to name the resolved encoding in its JSON.

:func:`describe` (written under ``"resolved_encoding"``, a list under ``"resolved_encodings"``) turns a
``--pe`` (text or :class:`petheory.spec.PESpec`) into what was understood: the registry name and parameters (of a model's ``config.json`` too: ``model`` says which file),
and for a rotary encoding its per-band frequencies (rad/position), wavelengths and the factor on
rotary logits (:func:`petheory.models.describe.describe_encoding`); a table is named by its path.
"""

from __future__ import annotations


def describe(spec, *, d: int | None = None, length: int | None = None):
    """What ``spec`` resolves to, as JSON (a dict; a combination: ``{"combination", "terms"}``); None for no spec.

    ``d``: the dimension the command evaluates the encoding at (a model's own head size wins);
    ``length``: where length-dependent frequencies are read (dynamic NTK, LongRoPE).
    """
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
            desc = describe_encoding(term.name, params, term.d or d, length=length)
        except (TypeError, ValueError) as exc:  # parameters the registry entry does not take (a model's heads=, ...)
            desc = {"encoding": term.name, "params": jsonable(term.params), "bands": f"not evaluated: {exc}"}
        if term.model is not None:
            desc["model"] = term.model
        if len(params) != len(term.params):
            desc["mechanism_params"] = jsonable({k: val for k, val in term.params.items() if k in MECHANISM_KEYS})
        out.append(desc)
    return out[0] if len(out) == 1 else {"combination": str(spec), "terms": out}
