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

from dataclasses import dataclass, field, replace
from numbers import Integral, Real

import numpy as np

from petheory._validate import Each, InstanceOf, Interval, validate_params
from petheory.analyses import kernel as K
from petheory.analyses.record import Record, item
from petheory.bounds.lipschitz import LipschitzReport
from petheory.errors import ParameterError, ValidationError
from petheory.scheme import Positions, Scheme
from petheory.texttable import TextTable

#: A rotary layer's computed norm change is evaluated at min(N', this) positions (its angle table is (N', d/2)).
NORM_AT_MOST = 1 << 12


@dataclass(frozen=True)
class BoundsRow(Record):
    """li2025's bounds for one position mechanism at one length (:func:`layer_bounds`).

    Attributes
    ----------
    layers : list of int or None
        The layers with this mechanism (set by :func:`bounds`; None from :func:`layer_bounds`).
    pe : str
        The encoding's name.
    kind : str
        Its position mechanism (:data:`petheory.scheme.MECHANISMS`).
    length : int
        The inference length N'.
    d : int or None
        The dimension the positions act on.
    n_max : int or None
        The training length (li2025's :math:`N_{max}`).
    params : dict
        The encoding's parameters.
    norm : dict
        The norm bound, stated and computed (:class:`petheory.bounds.norms.NormBound`'s fields, or a table's).
    token_norm : float
        The token norm :math:`B_x`.
    B0 : float or None
        The input norm the Rademacher bound sees.
    m : int
        Sample size of the Rademacher bound.
    weight_norm : float
        The readout weight norm B.
    lipschitz : float
        The Lipschitz constant :math:`L_{trans}`.
    rademacher : float or None
        li2025's Rademacher complexity bound (§4.2).
    rademacher_formula : str
        Its formula, written out.
    eq9 : dict or None
        ALiBi's Eq. 9 drift bound.
    angles : dict or None
        A rotary layer's angle coverage (:func:`petheory.bounds.rotary_angle_coverage`).
    analysed_length : int or None
        Where a sliding or chunked layer was bounded within its span, ``min(N', span)``.
    """

    layers: list[int] | None = item(omit=True, kw_only=True)
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
    """A mechanism without a bound (NoPE, none, learned T5 buckets), and why.

    Attributes
    ----------
    layers : list of int or None
        The layers with this mechanism (set by :func:`bounds`).
    pe : str
        The encoding's name, or the mechanism's.
    kind : str
        Its position mechanism.
    length : int
        The inference length N'.
    skipped : str
        Why it has no bound.
    analysed_length : int or None
        As :class:`BoundsRow`.
    """

    layers: list[int] | None = item(omit=True, kw_only=True)
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


def layer_bounds(kernel: K.LayerKernel, *, context: int | None = None, m: int = 1000, weight_norm: float = 1.0,
                 lipschitz: float = 1.0, token_norm: float = 1.0, distance: int | None = None) -> BoundsRow | SkippedRow:
    """The bound row of one layer's positions at inference length N', trained at ``context``.

    Parameters
    ----------
    kernel : petheory.analyses.kernel.LayerKernel
        The layer's positions at the inference length N' (:func:`petheory.analyses.kernel.layer_kernel`; its bands
        and why it has no kernel are read, its column is not needed).
    context : int, optional
        The training length (li2025's :math:`N_{max}`); default the encoding's own ``n_max``, else ``length``.
    m : int
        Sample size of the Rademacher bound.
    weight_norm, lipschitz, token_norm : float
        The readout weight norm B, the Lipschitz constant :math:`L_{trans}` and the token norm :math:`B_x`.
    distance : int, optional
        ALiBi's key distance for Eq. 9 (beyond ``context``).

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
    >>> from petheory.analyses.kernel import layer_kernel
    >>> layer_bounds(layer_kernel(Positions("bias", "alibi", {"slope": 0.5}, 64), 100, column=False),
    ...              context=50).eq9["distance"]
    99
    """
    from petheory import bounds
    from petheory.bounds.norms import training_length

    kw = dict(m=m, weight_norm=weight_norm, lipschitz=lipschitz, token_norm=token_norm)
    pos, length = kernel.positions, kernel.length
    if kernel.why_none is not None:
        return SkippedRow(pos.encoding or pos.kind, pos.kind, length, kernel.why_none)
    if pos.kind == "table":
        return _table_row(pos, length, **kw)
    name, d = pos.encoding, pos.d
    params = {k: val for k, val in pos.params.items() if not (name == "alibi" and k == "form")}
    if name == "mla_rope":  # the rope part is its scaling's entry on rope_dim coordinates (angles are all that matter)
        name, d = params.get("scaling", "rope"), int(params.get("rope_dim", d))
        params = {"base": params.get("base", 10000.0), **(params.get("scaling_params") or {})}
    own, params = training_length(params)
    n_max = own if context is None else context
    short = pos.kind == "rotary" and length > NORM_AT_MOST and kernel.bands is not None
    row = bounds.bound_report(name, NORM_AT_MOST if short else length, d, n_max=n_max, distance=distance, **kw, **params)
    row["pe"] = pos.encoding  # MLA's row is computed on its scaling's entry, but it is the mla_rope layer's
    if short:
        row["length"] = length
        row["norm"]["note"] = (f"computed at {NORM_AT_MOST} positions: a rotation times a constant factor changes a "
                               "band's norm the same at every position")
        if n_max is not None and n_max >= 2:
            row["angles"] = bounds.rotary_angle_coverage(name, length, d, n_max=n_max, **params)
    return BoundsRow(**row)


def _fmt(x, nd=4) -> str:
    if x is None:
        return "-"
    return f"{x:.{nd}g}" if isinstance(x, float) else str(x)


def _cells(r: BoundsRow | SkippedRow) -> list[str]:
    """One row of the bounds table."""
    if isinstance(r, SkippedRow):
        return [str(r.pe), r.kind, str(r.length), "-", "-", "-", "-", "-", r.skipped]
    nb = r.norm
    stated = nb["stated_formula"] + (f" = {_fmt(nb['stated'])}" if nb["stated"] is not None
                                     and not nb["stated_formula"].startswith("0") else "")
    note = []
    if r.analysed_length is not None:  # sliding/chunked layers: their queries see no farther than their span
        note.append(f"its {len(r.layers)} layers (in --json) attend within {r.analysed_length} positions: "
                    f"bounded at N' = {r.analysed_length}")
    if nb.get("explicit") is not None:
        note.append(f"explicit bound {_fmt(nb['explicit'])}")
    if nb.get("note"):
        note.append(nb["note"])
    if r.eq9 is not None:
        note.append(f"Eq. 9 drift <= {_fmt(r.eq9['bound'])} at d={r.eq9['distance']}")
    if r.angles is not None and r.angles["onset"] is not None:
        a = r.angles
        note.append(f"angles: {a['out_of_range']}/{a['bands']} bands past the range seen on 0..{a['n_max'] - 1} "
                    f"(first at N'={a['onset']})")
    params = ",".join(f"{k}={v}" for k, v in r.params.items() if k != "n_max")
    return [r.pe + (f":{params}" if params else ""), r.kind, str(r.length), _fmt(r.n_max or r.params.get("n_max")),
            stated, _fmt(nb["computed"]), _fmt(r.B0), _fmt(r.rademacher), "; ".join(note)]


@dataclass(frozen=True)
class GivenLipschitz(Record):
    """The Lipschitz constant :math:`L_{trans}` of the Rademacher bound as given (``total``) and where it came from.

    Attributes
    ----------
    total : float
        The constant :math:`L_{trans}`.
    source : str
        Where it came from: ``"given"`` or the default (:data:`DEFAULT_LIPSCHITZ`).
    """

    total: float
    source: str


@dataclass(frozen=True)
class BoundsRecord(Record):
    """``bounds``: one row per scheme, distinct position mechanism, length and analysed length (:class:`BoundsRow`,
    :class:`SkippedRow`), what each scheme resolved to, and the Lipschitz constant the Rademacher bounds used (a
    :class:`petheory.bounds.LipschitzReport` from a trained model's weights, or :class:`GivenLipschitz`).

    Attributes
    ----------
    rows : tuple of BoundsRow or SkippedRow
        One per scheme, distinct position mechanism, length and analysed length.
    resolved_encodings : list of dict
        What each scheme resolved to (:func:`petheory.analyses.describe.describe`), in the order given.
    lipschitz : petheory.bounds.LipschitzReport or GivenLipschitz
        The Lipschitz constant the Rademacher bounds used, and where it came from.
    """

    rows: tuple[BoundsRow | SkippedRow, ...] = ()
    resolved_encodings: list[dict] = field(default_factory=list)
    lipschitz: LipschitzReport | GivenLipschitz = field(default_factory=lambda: GivenLipschitz(1.0, DEFAULT_LIPSCHITZ))

    def table(self) -> TextTable:
        """The table ``petheory bounds`` prints and the notes under it (none when no row has a bound).

        Returns
        -------
        petheory.texttable.TextTable
        """
        heads = ("PE", "kind", "N'", "N_max", "stated (paper)", "computed", "B0", "R_m bound", "note")
        cells = tuple(tuple(_cells(r)) for r in self.rows)
        notes = []
        r0 = next((r for r in self.rows if not isinstance(r, SkippedRow)), None)
        if r0 is not None:
            lip = self.lipschitz.total
            src = ("given" if lip != 1.0 else "linear class") if isinstance(self.lipschitz, GivenLipschitz) else \
                "from the checkpoint's weights"
            notes += ["computed: sup_pos ||PE(pos)|| (absolute), max |b(i,j)| logit bias (bias), max relative change of "
                      "||x|| under R_p (rotary); B0 = B_x + computed (absolute) or B_x.",
                      f"R_m bound = B L_trans B0 / sqrt(m): B={_fmt(r0.weight_norm)}, L_trans={_fmt(lip)} ({src}), "
                      f"m={r0.m}, B_x={_fmt(r0.token_norm)}; constant 1, logs dropped (li2025 §4.2)."]
            same = {r.kind for r in self.rows if r.kind in ("bias", "rotary") and getattr(r, "B0", None) == r0.token_norm}
            if same:
                notes.append(f"{' and '.join(sorted(same))} rows add no vector to the input (B0 = B_x = "
                             f"{_fmt(r0.token_norm)}), so their R_m bound is one number: the bound sees a PE only through "
                             "B0, and L_trans is the same for all rows.")
        return TextTable("petheory bounds (li2025 Table 2, §4.2, Eq. 9)", heads, cells, frozenset({2, 3, 5, 6, 7}),
                         tuple(notes), last_width=34)

    def lines(self) -> list[str]:
        return self.table().plain().splitlines()

    def markdown(self) -> str:
        return self.table().markdown()


#: Where :math:`L_{trans}` comes from when none is given.
DEFAULT_LIPSCHITZ = "default 1 (linear class)"


def _scheme_rows(scheme: Scheme, lengths, n_max, **kw) -> list:
    """The rows of one scheme (see :func:`bounds`)."""
    learned = scheme.source not in ("spec", "table")
    rows = []
    for pos, idx in scheme.position_kinds():
        for N in lengths:
            # a sliding or chunked layer's queries never see farther than its span: its bound is asked within it, so
            # layers with the same positions share a row only where they see the same distances
            by_reach: dict = {}
            for i in idx:
                by_reach.setdefault(scheme.layers[i].span.reach(N), []).append(i)
            for reach, layers in sorted(by_reach.items(), key=lambda kv: kv[1][0]):
                row = layer_bounds(K.layer_kernel(pos, reach, learned_t5=learned, column=False), context=n_max, **kw)
                if reach < N:
                    row = replace(row, length=N, analysed_length=reach)
                rows.append(replace(row, layers=layers))
    return rows


NONNEGATIVE = Interval(Real, 0, None, closed="left")


@validate_params({
    "lengths": [Each(Interval(Integral, 1, None))],
    "context": [Interval(Integral, 1, None), None],
    "m": [Interval(Integral, 1, None)],
    "weight_norm": [NONNEGATIVE],
    "lipschitz": [NONNEGATIVE, InstanceOf(LipschitzReport, "a petheory.bounds.LipschitzReport"), None],
    "token_norm": [NONNEGATIVE],
    "distance": [Interval(Integral, 1, None), None],
})
def bounds(schemes, lengths, *, context: int | None = None, m: int = 1000, weight_norm: float = 1.0,
           lipschitz=None, token_norm: float = 1.0, distance: int | None = None) -> BoundsRecord:
    """:func:`layer_bounds` of every distinct position mechanism of each scheme at each length.

    A sliding or chunked layer is bounded at ``min(N', span)`` (``analysed_length``; ``length`` stays N'),
    as ``report`` and ``compare`` analyse it: layers whose positions agree but whose spans reach differently
    far get a row each.

    Parameters
    ----------
    schemes : petheory.scheme.Scheme, str or iterable
        A scheme or a spec, or schemes and specs (a spec is resolved with :func:`petheory.loaders.resolve_scheme`); None: every
        registered encoding.
    lengths : iterable of int
        The inference lengths N'.
    context : int, optional
        The training length; default the model's original context L for a config, the spec's own ``n_max`` (else
        each length) for a plain spec. A spec's own ``n_max`` is the same length: give one, or the same value.
    lipschitz : float or petheory.bounds.LipschitzReport, optional
        :math:`L_{trans}`: a number, or a trained model's certified product (:func:`petheory.nn.lipschitz.transformer_lipschitz`);
        default 1 (the linear class).
    m, weight_norm, token_norm
        As :func:`layer_bounds`.
    distance : int, optional
        ALiBi's key distance for Eq. 9, applied to the ALiBi schemes (one must be).

    Returns
    -------
    BoundsRecord

    Raises
    ------
    petheory.errors.ParameterError
        A value its declaration refuses; ``context`` other than a spec's own ``n_max``.
    petheory.errors.ValidationError
        As :func:`layer_bounds`; ``distance`` without an ALiBi scheme.

    References
    ----------
    li2025 Table 2, §4.2, Eq. 9.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> bounds(resolve_scheme("alibi:slope=0.5"), [100], context=50).rows[0].eq9["distance"]
    99
    """
    from petheory import encodings as enc
    from petheory.analyses.describe import describe
    from petheory.bounds.norms import training_length
    from petheory.loaders import resolve_scheme

    lengths = [int(N) for N in lengths]  # the declaration refused an empty list
    if isinstance(schemes, (Scheme, str)):
        schemes = [schemes]
    schemes = [s if isinstance(s, Scheme) else resolve_scheme(s, what="bounds")
               for s in (enc.available() if schemes is None else schemes)]
    if distance is not None and not any(s.main.positions.encoding == "alibi" for s in schemes):
        raise ValidationError("distance (Eq. 9) applies to alibi; none of the encodings is alibi")
    if lipschitz is None:
        lip = GivenLipschitz(1.0, DEFAULT_LIPSCHITZ)
    elif isinstance(lipschitz, Real):
        lip = GivenLipschitz(float(lipschitz), "given")
    else:
        lip = lipschitz
    kw = dict(m=m, weight_norm=weight_norm, lipschitz=lip.total, token_norm=token_norm)
    rows = []
    for s in schemes:
        pos = s.main.positions
        if s.source == "spec":  # learned:n_max=50 is context=50; two different values are an error
            own, _ = training_length(pos.params)
            if own is not None and context is not None and own != context:
                raise ParameterError("context", f"the spec's own n_max={own} ({s.spec} says the training length too; "
                                                "give one)", context, owner=bounds)
            n_max = own if own is not None else context
        else:
            n_max = context if context is not None else (s.context if s.source != "table" else None)
        rows += _scheme_rows(s, lengths, n_max, distance=distance if pos.encoding == "alibi" else None, **kw)
    return BoundsRecord(tuple(rows), [describe(s, length=max(lengths)) for s in schemes], lip)
