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

from dataclasses import dataclass, replace
from numbers import Integral, Real

import numpy as np

from petheory._validate import Each, InstanceOf, Interval, validate_params
from petheory.analyses import kernel as K
from petheory.analyses.record import Record, item
from petheory.scheme import Positions, Scheme

#: A rotary layer's computed norm change is evaluated at min(N', this) positions (its angle table is (N', d/2)).
NORM_AT_MOST = 1 << 12


@dataclass(frozen=True)
class BoundsRow(Record):
    """li2025's bounds for one position mechanism at one length (:func:`layer_bounds`).

    ``norm``: the norm bound, stated and computed (:class:`petheory.bounds.norms.NormBound`'s fields, or a table's);
    ``B0``: the input norm the Rademacher bound sees; ``eq9``: ALiBi's Eq. 9 drift bound; ``angles``: a rotary
    layer's angle coverage (:func:`petheory.bounds.rotary_angle_coverage`); ``layers`` and ``analysed_length``:
    where :func:`bounds` asked for a sliding or chunked layer within its span.
    """

    layers: list | None = item(omit=True, kw_only=True)
    pe: str
    kind: str
    length: int
    d: int | None
    n_max: int | None
    params: dict
    norm: dict
    token_norm: float
    B0: float | None
    m: int
    weight_norm: float
    lipschitz: float
    rademacher: float | None
    rademacher_formula: str
    eq9: dict | None = item(omit=True)
    angles: dict | None = item(omit=True)
    analysed_length: int | None = item(omit=True)


@dataclass(frozen=True)
class SkippedRow(Record):
    """A mechanism without a bound (NoPE, none, learned T5 buckets), and why."""

    layers: list | None = item(omit=True, kw_only=True)
    pe: str
    kind: str
    length: int
    skipped: str
    analysed_length: int | None = item(omit=True)


def _table_row(pos: Positions, length: int, *, m, weight_norm, lipschitz, token_norm) -> BoundsRow:
    """li2025 Table 2 for a user's (N, d) table: bounded by its own largest row norm; positions past it reuse the last row."""
    from petheory import bounds

    T = np.asarray(pos.table)
    rows = T.shape[0]
    norms = np.linalg.norm(T, axis=1)
    computed = float(norms[: min(length, rows)].max())
    if length > rows:
        computed = max(computed, float(norms[-1]))
    B0 = token_norm + computed
    return BoundsRow(pos.source, "absolute", length, int(T.shape[1]), rows, {},
                     {"stated_formula": "B_p = the table's largest row norm", "stated": float(norms.max()),
                      "computed": computed, "explicit": None,
                      "note": f"{T.dtype} table {T.shape}" + (f"; positions >= {rows} reuse the last row" if length > rows else "")},
                     token_norm, B0, m, weight_norm, lipschitz,
                     bounds.rademacher_lipschitz_bound(lipschitz, B0, m, output_norm=weight_norm),
                     "weight_norm * lipschitz * B0 / sqrt(m) (li2025 §4.2, constant 1, logs dropped)")


def layer_bounds(pos: Positions, length: int, *, context: int | None = None, m: int = 1000, weight_norm: float = 1.0,
                 lipschitz: float = 1.0, token_norm: float = 1.0, distance: int | None = None,
                 learned_t5: bool = False) -> BoundsRow | SkippedRow:
    """The bound row of one layer's positions at inference length ``length``, trained at ``context``.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        The layer's positions.
    length : int
        The inference length N'.
    context : int, optional
        The training length (li2025's :math:`N_{max}`); default the encoding's own ``n_max``, else ``length``.
    m : int
        Sample size of the Rademacher bound.
    weight_norm, lipschitz, token_norm : float
        The readout weight norm B, the Lipschitz constant :math:`L_{trans}` and the token norm :math:`B_x`.
    distance : int, optional
        ALiBi's key distance for Eq. 9 (beyond ``context``).
    learned_t5 : bool
        T5 buckets are a model's learned weights (no bound).

    Returns
    -------
    BoundsRow or SkippedRow
        :class:`SkippedRow` for a mechanism without a bound (NoPE, none, learned T5 buckets).

    Raises
    ------
    petheory.errors.ValidationError
        Parameters out of range (from :func:`petheory.bounds.bound_report`).

    References
    ----------
    li2025 Table 2 (norm bounds), §4.2 (Rademacher complexity), Eq. 9 (ALiBi extrapolation).

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> layer_bounds(Positions("bias", "alibi", {"slope": 0.5}, 64), 100, context=50).eq9["distance"]
    99
    """
    from petheory import bounds
    from petheory.bounds.norms import training_length

    kw = dict(m=m, weight_norm=weight_norm, lipschitz=lipschitz, token_norm=token_norm)
    why = K.why_no_kernel(pos, learned_t5=learned_t5)
    if why is not None:
        return SkippedRow(pos.encoding or pos.kind, pos.kind, length, why)
    if pos.kind == "table":
        return _table_row(pos, length, **kw)
    name, d = pos.encoding, pos.d
    params = {k: val for k, val in pos.params.items() if not (name == "alibi" and k == "form")}
    if name == "mla_rope":  # the rope part is its scaling's entry on rope_dim coordinates (angles are all that matter)
        name, d = params.get("scaling", "rope"), int(params.get("rope_dim", d))
        params = {"base": params.get("base", 10000.0), **(params.get("scaling_params") or {})}
    own, params = training_length(name, params, None)
    n_max = own if context is None else context
    short = pos.kind == "rotary" and length > NORM_AT_MOST and K.rotary_bands(pos, length) is not None
    row = bounds.bound_report(name, NORM_AT_MOST if short else length, d, n_max=n_max, distance=distance, **kw, **params)
    row["pe"] = pos.encoding  # MLA's row is computed on its scaling's entry, but it is the mla_rope layer's
    if short:
        row["length"] = length
        row["norm"]["note"] = (f"computed at {NORM_AT_MOST} positions: a rotation times a constant factor changes a "
                               "band's norm the same at every position")
        if n_max is not None and n_max >= 2:
            row["angles"] = bounds.rotary_angle_coverage(name, length, d, n_max=n_max, **params)
    return BoundsRow(**row)


@dataclass(frozen=True)
class BoundsRecord(Record):
    """``bounds``: one row per distinct position mechanism, length and analysed length (:class:`BoundsRow`)."""

    scheme: Scheme
    rows: tuple = ()


NONNEGATIVE = Interval(Real, 0, None, closed="left")


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "lengths": [Each(Interval(Integral, 1, None))],
    "context": [Interval(Integral, 1, None), None],
    "m": [Interval(Integral, 1, None)],
    "weight_norm": [NONNEGATIVE],
    "lipschitz": [NONNEGATIVE, None],
    "token_norm": [NONNEGATIVE],
    "distance": [Interval(Integral, 1, None), None],
})
def bounds(scheme: Scheme, lengths, *, context: int | None = None, m: int = 1000, weight_norm: float = 1.0,
           lipschitz: float | None = 1.0, token_norm: float = 1.0, distance: int | None = None) -> BoundsRecord:
    """:func:`layer_bounds` of every distinct position mechanism of ``scheme`` at each length.

    A sliding or chunked layer is bounded at ``min(N', span)`` (``analysed_length``; ``length`` stays N'),
    as ``report`` and ``compare`` analyse it: layers whose positions agree but whose spans reach differently
    far get a row each.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        From :func:`petheory.loaders.resolve_scheme`.
    lengths : iterable of int
        The inference lengths N'.
    context : int, optional
        The training length; default the model's original context L for a config, the spec's own ``n_max`` (else
        each length) for a plain spec. A plain spec's own ``n_max`` is the same length: a different ``context``
        is refused.
    lipschitz : float, optional
        As :func:`layer_bounds` (None: 1, the linear class).
    m, weight_norm, token_norm, distance
        As :func:`layer_bounds`.

    Returns
    -------
    BoundsRecord

    Raises
    ------
    petheory.errors.ValidationError
        As :func:`layer_bounds`.

    References
    ----------
    li2025 Table 2, §4.2, Eq. 9.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> bounds(resolve_scheme("alibi:slope=0.5"), [100], context=50).rows[0].eq9["distance"]
    99
    """
    from petheory.errors import ParameterError

    own = scheme.main.positions.params.get("n_max") if scheme.source == "spec" else None
    if own is not None and context is not None and own != context:
        raise ParameterError("context", f"the spec's own n_max={own} ({scheme.spec} says the training length too; give "
                                        "one)", context, owner=bounds)
    lipschitz = 1.0 if lipschitz is None else lipschitz
    n_max = context
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
                row = layer_bounds(pos, reach, context=n_max, learned_t5=learned, m=m, weight_norm=weight_norm,
                                   lipschitz=lipschitz, token_norm=token_norm, distance=distance)
                if reach < N:
                    row = replace(row, length=N, analysed_length=reach)
                rows.append(replace(row, layers=layers))
    return BoundsRecord(scheme, tuple(rows))
