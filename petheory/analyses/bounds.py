r"""``bounds``: per layer kind and length, li2025's norm bound (stated and computed), Rademacher and angle notes.

:func:`layer_bounds` is the one bound step of ``bounds``, ``report`` and ``compare``:
:func:`petheory.bounds.bound_report` for a registry encoding (MLA's rope part as its scaling's
entry on ``rope_dim`` coordinates; ALiBi's causal form as its slope), the table's largest row norm
for a table you bring. A rotary kernel's norm change is the same at every length (a rotation times
a constant factor), so past :data:`NORM_AT_MOST` positions it is computed there, and the angle
coverage (:func:`petheory.bounds.rotary_angle_coverage`, two positions) at the full length: nothing
(N, d/2) is built at a 1M context.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from petheory.analyses import kernel as K
from petheory.scheme import Positions, Scheme

#: A rotary layer's computed norm change is evaluated at min(N', this) positions (its angle table is (N', d/2)).
NORM_AT_MOST = 1 << 12


def _table_row(pos: Positions, length: int, *, m, weight_norm, lipschitz, token_norm) -> dict:
    """li2025 Table 2 for a user's (N, d) table: bounded by its own largest row norm; positions past it reuse the last row."""
    from petheory import bounds

    T = np.asarray(pos.table)
    rows = T.shape[0]
    norms = np.linalg.norm(T, axis=1)
    computed = float(norms[: min(length, rows)].max())
    if length > rows:
        computed = max(computed, float(norms[-1]))
    B0 = token_norm + computed
    return {"pe": pos.source, "kind": "absolute", "length": length, "d": int(T.shape[1]), "n_max": rows, "params": {},
            "norm": {"stated_formula": "B_p = the table's largest row norm", "stated": float(norms.max()),
                     "computed": computed, "explicit": None,
                     "note": f"{T.dtype} table {T.shape}" + (f"; positions >= {rows} reuse the last row" if length > rows else "")},
            "token_norm": token_norm, "B0": B0, "m": m, "weight_norm": weight_norm, "lipschitz": lipschitz,
            "rademacher": bounds.rademacher_lipschitz_bound(lipschitz, B0, m, output_norm=weight_norm),
            "rademacher_formula": "weight_norm * lipschitz * B0 / sqrt(m) (li2025 §4.2, constant 1, logs dropped)"}


def layer_bounds(pos: Positions, length: int, *, n_max: int | None = None, m: int = 1000, weight_norm: float = 1.0,
                 lipschitz: float = 1.0, token_norm: float = 1.0, distance: int | None = None,
                 learned_t5: bool = False) -> dict:
    """The bound row of one layer's positions at inference length ``length`` (training length ``n_max``), as JSON;
    ``{"skipped": why}`` for a mechanism without one (NoPE, none, learned T5 buckets)."""
    from petheory import bounds
    from petheory.bounds.norms import training_length

    kw = dict(m=m, weight_norm=weight_norm, lipschitz=lipschitz, token_norm=token_norm)
    why = K.why_no_kernel(pos, learned_t5=learned_t5)
    if why is not None:
        return {"pe": pos.encoding or pos.kind, "kind": pos.kind, "length": length, "skipped": why}
    if pos.kind == "table":
        return _table_row(pos, length, **kw)
    name, d = pos.encoding, pos.d
    params = {k: val for k, val in pos.params.items() if not (name == "alibi" and k == "form")}
    if name == "mla_rope":  # the rope part is its scaling's entry on rope_dim coordinates (angles are all that matter)
        name, d = params.get("scaling", "rope"), int(params.get("rope_dim", d))
        params = {"base": params.get("base", 10000.0), **(params.get("scaling_params") or {})}
    own, params = training_length(name, params, None)
    n_max = own if n_max is None else n_max
    short = pos.kind == "rotary" and length > NORM_AT_MOST and K.rotary_bands(pos, length) is not None
    row = bounds.bound_report(name, NORM_AT_MOST if short else length, d, n_max=n_max, distance=distance, **kw, **params)
    row["pe"] = pos.encoding  # MLA's row is computed on its scaling's entry, but it is the mla_rope layer's
    if short:
        row["length"] = length
        row["norm"]["note"] = (f"computed at {NORM_AT_MOST} positions: a rotation times a constant factor changes a "
                               "band's norm the same at every position")
        if n_max is not None and n_max >= 2:
            row["angles"] = bounds.rotary_angle_coverage(name, length, d, n_max=n_max, **params)
    return row


@dataclass(frozen=True)
class BoundsRecord:
    """One row per distinct position mechanism, length and analysed length (``layers``: the layer indices)."""

    scheme: dict
    rows: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"scheme": self.scheme, "rows": self.rows}


def bounds(scheme: Scheme, lengths, *, n_max: int | None = None, **options) -> BoundsRecord:
    """:func:`layer_bounds` of every distinct position mechanism of ``scheme`` at each length.

    A sliding or chunked layer is bounded at ``min(N', span)`` (``analysed_length``; ``length`` stays N'),
    as ``report`` and ``compare`` analyse it: layers whose positions agree but whose spans reach differently
    far get a row each.

    ``n_max`` defaults to the model's original context L for a config, to the spec's own ``n_max``
    (else each length) for a plain spec.

    >>> from petheory.loaders import resolve_scheme
    >>> bounds(resolve_scheme("alibi:slope=0.5"), [100], n_max=50).rows[0]["eq9"]["distance"]
    99
    """
    if n_max is None and scheme.source not in ("spec", "table"):
        n_max = scheme.context
    learned = scheme.source not in ("spec", "table")
    rows = []
    for pos, idx in scheme.position_kinds():
        for N in lengths:
            N = int(N)
            # a sliding or chunked layer's queries never see farther than its span: its bound is asked within it, so
            # layers with the same positions share a row only where they see the same distances
            by_reach: dict = {}
            for i in idx:
                by_reach.setdefault(scheme.layers[i].span.reach(N), []).append(i)
            for reach, layers in sorted(by_reach.items(), key=lambda kv: kv[1][0]):
                row = layer_bounds(pos, reach, n_max=n_max, learned_t5=learned, **options)
                if reach < N:
                    row = {**row, "length": N, "analysed_length": reach}
                rows.append({"layers": layers, **row})
    return BoundsRecord(scheme.as_dict(), rows)
