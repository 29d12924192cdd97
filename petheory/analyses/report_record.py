r"""The report's record (:class:`ReportRecord`): typed sections that render themselves as text and Markdown.

Built by :func:`petheory.analyses.report.report`; ``petheory report`` prints what :meth:`ReportRecord.markdown`
and the sections' lines render, writes :meth:`ReportRecord.as_dict` as JSON, and the ``--figure`` draws what the
sections hold (:mod:`petheory.plots.models`).
"""

from __future__ import annotations

from dataclasses import dataclass

from petheory.analyses.long_context import LongContextSection
from petheory.analyses.record import Record, Skipped, item
from petheory.analyses.stress import LayerStress
from petheory.scheme import Scheme, Span, layer_ranges
from petheory.texttable import Line, TextTable


def fmt(x, digits: int = 4) -> str:
    """A number in ``digits`` significant digits (``-`` for None, ``0`` for zero, a string as it is).

    Parameters
    ----------
    x : float, str or None
    digits : int

    Returns
    -------
    str

    Examples
    --------
    >>> fmt(0.123456), fmt(None), fmt(0.0)
    ('0.1235', '-', '0')
    """
    if x is None:
        return "-"
    if isinstance(x, str):
        return x
    if x == 0:
        return "0"
    return f"{x:.{digits}g}"


@dataclass(frozen=True)
class Band(Record):
    """One rotary band: frequency now and at pre-training, wavelength, turns over L, interpolation, phase seen
    (:func:`petheory.analyses.report.band_table`).

    Attributes
    ----------
    band : int
        The band's index t.
    frequency : float
        :math:`\\omega_t` as configured (radians per position).
    original_frequency : float
        :math:`\\omega^0_t` of the pre-training ladder (the scaling's factor set to 1).
    wavelength : float
        :math:`2\\pi / \\omega_t` positions.
    turns_over_L : float
        Full turns of the original frequency over the context L, :math:`L \\omega^0_t / 2\\pi`.
    interpolation : float
        :math:`\\omega^0_t / \\omega_t`: 1 extrapolated, the scale s when fully interpolated.
    regime : {'extrapolated', 'interpolated', 'sped up'}
        What the scaling did to the band.
    phase_seen : bool
        Whether every angle the band takes up to N was seen in pre-training.
    """

    band: int
    frequency: float
    original_frequency: float
    wavelength: float
    turns_over_L: float
    interpolation: float
    regime: str
    phase_seen: bool


@dataclass(frozen=True)
class Bucket(Record):
    """One T5 bucket: the offsets ``j - i`` it holds and how many (:func:`petheory.analyses.report.t5_buckets`).

    Attributes
    ----------
    bucket : int
        The bucket's index.
    offsets : list of int
        ``[smallest, largest]`` offset ``j - i`` (query i, key j) in the bucket.
    count : int
        Offsets in the bucket within the analysed length.
    """

    bucket: int
    offsets: list
    count: int


@dataclass(frozen=True)
class KernelPoint(Record):
    """The kernel at one distance k, relative to :math:`a_0`.

    Attributes
    ----------
    k : int
        The distance.
    a_over_a0 : float
        :math:`a_k / a_0`.
    """

    k: int
    a_over_a0: float


@dataclass(frozen=True)
class EnvelopeBin(Record):
    """The largest :math:`|a_k|/a_0` over distances ``start <= k < to`` (a log bin).

    Attributes
    ----------
    start : int
        First distance of the bin (``from`` in the JSON).
    to : int
        One past its last distance.
    max_abs_over_a0 : float
        The largest :math:`|a_k|/a_0` in the bin.
    """

    start: int = item(key="from")
    to: int = 0
    max_abs_over_a0: float = 0.0


@dataclass(frozen=True)
class RangeMax(Record):
    """The largest :math:`|a_k|/a_0` over ``start <= k < to``.

    Attributes
    ----------
    start : int
        First distance (``from`` in the JSON).
    to : int
        One past the last distance.
    value : float
        The largest :math:`|a_k|/a_0` over the range.
    """

    start: int = item(key="from")
    to: int = 0
    value: float = 0.0


@dataclass(frozen=True)
class KernelSummary(Record):
    """The position-only kernel against distance: log-spaced points, its envelope, its largest values near L
    (:func:`petheory.analyses.report.kernel_summary`).

    Attributes
    ----------
    formula : str
        What the kernel is.
    distance : list of int
        Log-spaced distances k (0 first).
    a : list of float
        The kernel :math:`a_k` at those distances.
    a0 : float
        :math:`a_0`.
    points : list of KernelPoint
        :math:`a_k / a_0` at round distances and at L/2, L, 2L, 4L.
    envelope : list of EnvelopeBin
        The largest :math:`|a_k|/a_0` per log bin.
    max_abs_over_a0_within_L, max_abs_over_a0_beyond_L : RangeMax or None
        The largest :math:`|a_k|/a_0` over [L/2, L) and over [L, N), where the column reaches them.
    """

    formula: str
    distance: list
    a: list
    a0: float
    points: list[KernelPoint]
    envelope: list[EnvelopeBin]
    max_abs_over_a0_within_L: RangeMax | None = item(omit=True)
    max_abs_over_a0_beyond_L: RangeMax | None = item(omit=True)


@dataclass(frozen=True)
class SpectrumAt(Record):
    """Extreme eigenvalues of the kernel's n x n matrix at ``multiple`` x L (error bounds and certificates)
    (:func:`petheory.analyses.report.spectrum_at`; each end's full certificate is a
    :class:`petheory.toeplitz.eigen.EigenEstimate`, of which this keeps the value, the bound and the kind).

    Attributes
    ----------
    multiple : int
        n as a multiple of L.
    n : int
        The matrix size (a sliding or chunked kind's reach within its span).
    lambda_min, lambda_max : float
        The extreme eigenvalues.
    error_bounds : list of float
        Their error bounds, ``[min end, max end]``.
    certificates : list of str
        Their certificates' kinds, ``[min end, max end]``.
    warnings : list of str
        What the solver warned.
    seconds : float
        Wall time.
    """

    multiple: int
    n: int
    lambda_min: float
    lambda_max: float
    error_bounds: list
    certificates: list
    warnings: list
    seconds: float


@dataclass(frozen=True)
class ReportBounds(Record):
    """The bound notes of a section: li2025's norm bound, B0, the Rademacher bound, angles (rotary), Eq. 9 (ALiBi);
    the fields of :class:`petheory.analyses.bounds.BoundsRow` the report prints.

    Attributes
    ----------
    norm : dict
        The norm bound, stated and computed (see :class:`petheory.analyses.bounds.BoundsRow`).
    B0 : float or None
        The input norm the Rademacher bound sees.
    rademacher : float or None
        li2025's Rademacher complexity bound (§4.2).
    rademacher_formula : str
        Its formula, written out.
    angles : dict or None
        A rotary layer's angle coverage.
    eq9 : dict or None
        ALiBi's Eq. 9 drift bound.
    """

    norm: dict
    B0: float | None
    rademacher: float | None
    rademacher_formula: str
    angles: dict | None = item(omit=True)
    eq9: dict | None = item(omit=True)

    def lines(self) -> list[str]:
        """One line per bound."""
        b = self
        out = [f"norm (li2025 Table 2): stated {b.norm['stated_formula']}; {b.norm['meaning']}",
               f"Rademacher (li2025 §4.2): {fmt(b.rademacher)} = {b.rademacher_formula}"]
        a = b.angles
        if a:
            out.append(f"angles: {a['full_turn']} of {a['bands']} bands made a full turn within L = {a['n_max']:,}; at "
                       f"N = {a['length']:,} {a['out_of_range']} bands leave the angle range pre-training saw"
                       + (f" (from N = {a['onset']:,})" if a["out_of_range"] else ""))
        if b.eq9:
            e = b.eq9
            out.append(f"ALiBi Eq. 9 (li2025): key at distance {e['distance']:,} > N_max = {e['n_max']:,}: drift bound "
                       f"{fmt(e['bound'])} (slope {fmt(e['slope'])}, L_A = {e['L_A']})")
        return out


#: What the report's λ are eigenvalues of: said beside them (a reader may expect them divided by N, or of a softmax).
SPECTRUM_NORMALISATION = ("λ: eigenvalues of the N x N matrix T_N[i, j] = a_(i-j) of the kernel above (not divided by N; "
                          "0 <= λ <= N a_0 for a rotary kernel)")


def stress_line(st: LayerStress | Skipped) -> str:
    """The stress of a section in one line (or why there is none).

    Parameters
    ----------
    st : LayerStress or Skipped

    Returns
    -------
    str

    Examples
    --------
    >>> stress_line(Skipped("NoPE"))
    'not computed: NoPE'
    """
    return st.lines()[0] if isinstance(st, Skipped) else st.summary_line()


def bound_lines(b: ReportBounds | Skipped) -> list[str]:
    """The bound notes of a section (or why there are none).

    Parameters
    ----------
    b : ReportBounds or Skipped

    Returns
    -------
    list of str

    Examples
    --------
    >>> bound_lines(Skipped("NoPE"))
    ['not computed: NoPE']
    """
    return b.lines()


@dataclass(frozen=True)
class ReportSection(Record):
    """The report of one distinct layer kind (see :mod:`petheory.analyses.report`); a NoPE or position-free kind has
    ``skipped`` and nothing else.

    Attributes
    ----------
    layers : list of int
        The layers of this kind.
    type : str or None
        The config's name for the layer kind, or empty.
    span : petheory.scheme.Span
        The attention span.
    mechanism : str
        The position mechanism (:data:`petheory.scheme.MECHANISMS`).
    notes : list of str
        What the section leaves out (a temperature, sinks, a span's reach).
    skipped : str or None
        Why a NoPE or position-free kind has nothing else.
    analysed_length : int or None
        N within the kind's span.
    encoding : dict or None
        The encoding as resolved (:func:`petheory.analyses.describe.describe_encoding`).
    logit_factor : float or None
        The factor on every logit beyond :math:`1/\\sqrt{d_{head}}`.
    heads : list of dict or None
        Per-head parameters (ALiBi's slopes).
    bands : list of Band or None
        The rotary bands.
    buckets : list of Bucket or None
        T5's buckets.
    kernel : KernelSummary or Skipped or None
        The position-only kernel against distance.
    spectra : list of SpectrumAt or Skipped or None
        Extreme eigenvalues at multiples of L.
    stress : petheory.analyses.stress.LayerStress or Skipped or None
        The stress against random tables.
    bounds : ReportBounds or Skipped or None
        The bound notes.
    long_context : petheory.analyses.long_context.LongContextSection or Skipped or None
        The long-context theory of a rotary kind.
    theory_range : str or None
        The largest context each long-context theory supports, in one line.
    """

    layers: list
    type: str | None
    span: Span
    mechanism: str
    notes: list
    skipped: str | None = item(omit=True)
    analysed_length: int | None = item(omit=True)
    encoding: dict | None = item(omit=True)
    logit_factor: float | None = item(omit=True)
    heads: list | None = item(omit=True)
    bands: list[Band] | None = item(omit=True)
    buckets: list[Bucket] | None = item(omit=True)
    kernel: KernelSummary | Skipped | None = item(omit=True)
    spectra: list[SpectrumAt] | Skipped | None = item(omit=True)
    stress: LayerStress | Skipped | None = item(omit=True)
    bounds: ReportBounds | Skipped | None = item(omit=True)
    long_context: LongContextSection | Skipped | None = item(omit=True)
    theory_range: str | None = item(omit=True)

    @property
    def kind_name(self) -> str:
        """``attention sliding 4,096 (rope)``: the layer type, its span, its encoding."""
        where = "" if self.span.kind == "full" else f" {self.span.kind} {self.span.size:,}"
        enc = (self.encoding or {}).get("encoding") or self.mechanism
        return f"{self.type or 'attention'}{where} ({enc})"

    def head_lines(self) -> list[str]:
        """The section's header lines: layers, encoding, dimension, factors."""
        out = [f"layers    {layer_ranges(self.layers)}: {self.kind_name}"]
        if self.skipped is not None:
            return out + [f"          {self.skipped}"]
        enc = self.encoding
        out.append(f"encoding  {enc['encoding']}: {_params(enc)}")
        out.append(f"acts on   d = {enc['d']}" + (f", {enc['rotary_dim'] // 2} rotary bands; rotary logit factor "
                                                 f"{fmt(enc['rotary_logit_factor'], 6)}" if "rotary_dim" in enc else "")
                   + f"; logit factor {fmt(self.logit_factor, 6)} (on every logit, beyond 1/sqrt(d_head)); analysed at "
                   f"N = {self.analysed_length:,}")
        return out

    def long_context_lines(self) -> list[str]:
        """The long-context lines of a rotary section, or none."""
        lc = self.long_context
        if lc is None:
            return []
        if isinstance(lc, Skipped):
            return [f"skipped: {lc.skipped}"]
        window = self.span.kind != "full" and lc.context == self.span.size
        return lc.lines(window=window) + [f"- {self.theory_range}"] * (self.theory_range is not None)

    def markdown(self) -> str:
        """The section as Markdown: header, bands, kernel, spectra, stress, bounds, long-context theory, notes."""
        out = ["", f"### Layers {layer_ranges(self.layers)}: {self.kind_name}", ""]
        out += [f"- {line[10:].strip()}" for line in self.head_lines()[1:]]
        if self.skipped is not None:
            return "\n".join(out)
        if self.heads:
            out.append("- ALiBi slopes per head: " + ", ".join(fmt(h["slope"]) for h in self.heads))
        if self.bands:
            out += ["", f"#### Bands (at N = {self.analysed_length:,})", "",
                    "| band | frequency (rad/pos) | original | wavelength (pos) | turns over L | interpolation | regime | "
                    "phase seen at N |",
                    "|---:|---:|---:|---:|---:|---:|---|---|"]
            for b in self.bands:
                out.append(f"| {b.band} | {fmt(b.frequency, 6)} | {fmt(b.original_frequency, 6)} | "
                           f"{fmt(b.wavelength, 6)} | {fmt(b.turns_over_L)} | {fmt(b.interpolation)} | {b.regime} | "
                           f"{'yes' if b.phase_seen else 'no'} |")
        if self.buckets:
            out += ["", "#### T5 buckets (offset j - i)", "", "| bucket | offsets | count |", "|---:|---|---:|"]
            out += [f"| {b.bucket} | {b.offsets[0]}..{b.offsets[1]} | {b.count} |" for b in self.buckets]
        k = self.kernel
        out += ["", "#### Kernel against distance", ""]
        if isinstance(k, Skipped):
            out.append(f"Not computed: {k.skipped}.")
        else:
            out += [f"{k.formula}; a_0 = {fmt(k.a0, 6)}.", "", "| k | a_k / a_0 |", "|---:|---:|"]
            out += [f"| {p.k:,} | {fmt(p.a_over_a0)} |" for p in k.points]
            for m, what in ((k.max_abs_over_a0_within_L, "within [L/2, L)"), (k.max_abs_over_a0_beyond_L, "beyond L, [L, N)")):
                if m is not None:
                    out.append(f"\nmax |a_k|/a_0 {what}: {fmt(m.value)}")
        out += ["", "#### Spectrum extremes of the N x N kernel", ""]
        if isinstance(self.spectra, Skipped):
            out.append(f"Not computed: {self.spectra.skipped}.")
        else:
            out += [SPECTRUM_NORMALISATION + ".", "",
                    "| N | λ_min | λ_max | error bounds | certificate | seconds |", "|---:|---:|---:|---:|---|---:|"]
            for s in self.spectra:
                out.append(f"| {s.multiple}L = {s.n:,} | {fmt(s.lambda_min, 6)} | {fmt(s.lambda_max, 6)} | "
                           f"{fmt(s.error_bounds[0], 2)}, {fmt(s.error_bounds[1], 2)} | {s.certificates[1]} | "
                           f"{s.seconds} |")
        out += ["", "#### Stress against random tables", "", stress_line(self.stress)]
        out += ["", "#### Bound notes", ""] + [f"- {x}" for x in bound_lines(self.bounds)]
        if self.long_context is not None:
            out += ["", "#### Long-context theory (Men, Liu, RoFormer, temperatures)", ""] + self.long_context_lines()
        if self.notes:
            out += ["", "#### Notes", ""] + [f"- {n}" for n in self.notes]
        return "\n".join(out)

    def band_table(self, limit: int = 16) -> TextTable:
        """The bands as a terminal shows them: at most ``limit`` rows, evenly spaced from the first band to the last
        (all of them are in :meth:`markdown` and the JSON); a band whose phase at N was not seen is a warning.

        Parameters
        ----------
        limit : int
            Rows shown, at least 2.

        Returns
        -------
        TextTable
        """
        n = len(self.bands)
        shown = self.bands if n <= limit else [self.bands[i] for i in
                                               sorted({round(i * (n - 1) / (limit - 1)) for i in range(limit)})]
        rows = tuple((str(b.band), fmt(b.frequency), fmt(b.wavelength), fmt(b.turns_over_L), fmt(b.interpolation),
                      b.regime, "yes" if b.phase_seen else "no") for b in shown)
        return TextTable(f"bands at N = {self.analysed_length:,} ({n}; {len(rows)} shown, all in --json/--markdown)",
                         ("band", "ω (rad/pos)", "wavelength", "turns over L", "interp.", "regime", "phase seen at N"),
                         rows, right=frozenset({0, 1, 2, 3, 4, 6}), title_left=True, bold_first=False, fold=False,
                         warnings=frozenset((i, 6) for i, b in enumerate(shown) if not b.phase_seen))

    def terminal(self) -> list:
        """The section as a terminal shows it: header lines, the bands (:meth:`band_table`), the kernel at a few
        distances, the spectra, stress, bounds, long-context theory, notes.

        Returns
        -------
        list of Line and TextTable
        """
        out = [Line(x) for x in self.head_lines()]
        if self.skipped is not None:
            return out
        if self.bands:
            out.append(self.band_table())
        k = self.kernel
        if isinstance(k, Skipped):
            out.append(Line(f"kernel    not computed: {k.skipped}"))
        else:
            out.append(Line("kernel    a_k/a_0  " + ", ".join(f"k={p.k:,}: {fmt(p.a_over_a0, 3)}" for p in k.points)))
            if k.max_abs_over_a0_beyond_L is not None:
                within = k.max_abs_over_a0_within_L
                out.append(Line(f"          max |a_k|/a_0 beyond L: {fmt(k.max_abs_over_a0_beyond_L.value, 3)}"
                                + (f" (within [L/2, L): {fmt(within.value, 3)})" if within is not None else "")))
        if isinstance(self.spectra, list):
            out.append(Line(f"spectrum  {SPECTRUM_NORMALISATION}"))
            out += [Line(f"spectrum  {s.multiple}L = {s.n:>9,}: λ in [{fmt(s.lambda_min, 6)}, {fmt(s.lambda_max, 6)}] "
                         f"(error <= {fmt(s.error_bounds[0], 2)}, {fmt(s.error_bounds[1], 2)}; {s.certificates[1]}; "
                         f"{s.seconds} s)") for s in self.spectra]
        out.append(Line(f"stress    {stress_line(self.stress)}"))
        out += [Line(f"bounds    {x}") for x in bound_lines(self.bounds)]
        out += [Line(f"theory    {x}") for x in self.long_context_lines()]
        return out + [Line(f"note      {n}", "dim") for n in self.notes]


def _params(enc: dict) -> str:
    items = []
    for k, v in enc["params"].items():
        if isinstance(v, list):
            v = f"[{len(v)} numbers]"
        elif isinstance(v, dict):
            v = "{" + ", ".join(f"{a}={fmt(b) if not isinstance(b, list) else f'[{len(b)}]'}" for a, b in v.items()) + "}"
        else:
            v = fmt(v, 6) if isinstance(v, float) else v
        items.append(f"{k}={v}")
    return ", ".join(items) or "defaults"


@dataclass(frozen=True)
class ReportRecord(Record):
    """The report: what was resolved, L and N, one section per distinct layer kind.

    Its JSON also carries, as it always has, what the scheme gives (properties, read from the held scheme).

    Attributes
    ----------
    source : str or None
        What the scheme was resolved from (the report's title).
    scheme : petheory.scheme.Scheme
        The scheme reported on.
    length : int
        The report length N.
    length_from : str
        Where N came from: ``'given'``, or why the default (:func:`petheory.analyses.report.default_length`).
    sections : tuple of ReportSection
        One per distinct layer kind, in order of first appearance.
    seconds : float
        Wall time of the report.
    warnings : tuple of str
        The config's lints (:func:`petheory.analyses.lints.config_lints`), one line each naming the field; empty for
        a registry encoding or a table, or when the report was not given the config.
    model_type : str
        Property: the scheme's ``source`` (a config's ``model_type``, ``'spec'`` or ``'table'``).
    context, max_context : int
        Properties: the original context L and ``max_position_embeddings``.
    num_heads, head_dim, num_layers : int
        Properties: the scheme's attention heads, head dimension and layers.
    layer_kind : list of int
        Property: each layer's index into the distinct kinds (and into ``sections``).
    notes : list of str
        Property: what the scheme leaves out or assumes.
    """

    source: str | None
    scheme: Scheme
    length: int
    length_from: str
    sections: tuple[ReportSection, ...]
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()
    json_keys = ("source", "model_type", "context", "max_context", "length", "length_from", "num_heads", "head_dim",
                 "num_layers", "layer_kind", "scheme", "sections", "notes", "warnings", "seconds")

    @property
    def model_type(self) -> str:
        """The scheme's ``source``: a config's ``model_type``, ``'spec'`` or ``'table'``."""
        return self.scheme.source

    @property
    def context(self) -> int:
        """The original (pre-training) context L."""
        return self.scheme.context

    @property
    def max_context(self) -> int:
        """``max_position_embeddings``."""
        return self.scheme.max_context

    @property
    def num_heads(self) -> int:
        """Attention heads."""
        return self.scheme.num_heads

    @property
    def head_dim(self) -> int:
        """A head's dimension."""
        return self.scheme.head_dim

    @property
    def num_layers(self) -> int:
        """Attention layers."""
        return len(self.scheme.layers)

    @property
    def layer_kind(self) -> list:
        """Each layer's index into the scheme's distinct kinds (and into ``sections``)."""
        return self.scheme.as_dict()["layer_kind"]

    @property
    def notes(self) -> list:
        """What the scheme leaves out or assumes."""
        return list(self.scheme.notes)

    def summary_lines(self) -> list[str]:
        """The report's header: what was resolved, L and N, the layer kinds (plain text)."""
        kinds = ", ".join(f"{len(sec.layers)} x {sec.kind_name}" for sec in self.sections)
        why = "" if self.length_from == "given" else f" ({self.length_from})"
        return [f"{self.source}  ({self.model_type})",
                f"context   original L = {self.context:,}, max_position_embeddings {self.max_context:,}; report at "
                f"N = {self.length:,}{why}; {self.num_layers} layers: {kinds}; {self.num_heads} heads x {self.head_dim}"]

    def markdown(self) -> str:
        """The report as Markdown: header, then per layer kind: bands, kernel, spectra, stress, bounds, notes."""
        out = [f"## {self.source}", ""] + [f"- {line}" for line in self.summary_lines()[1:]]
        out += [sec.markdown() for sec in self.sections]
        if self.notes:
            out += ["", "### Notes", ""] + [f"- {n}" for n in self.notes]
        if self.warnings:
            out += ["", "### Warnings", ""] + [f"- {w}" for w in self.warnings]
        return "\n".join(out)

    def lines(self) -> list[str]:
        """The report as plain text (its Markdown)."""
        return self.markdown().splitlines()

    def terminal(self) -> list:
        """The report as a terminal shows it (``petheory report`` prints it with
        :func:`petheory.cli._console.show_view`): the header, each section's :meth:`ReportSection.terminal`, the
        notes and the seconds it took.

        Returns
        -------
        list of Line and TextTable
        """
        head = self.summary_lines()
        out = [Line(head[0], "bold"), *map(Line, head[1:])]
        for sec in self.sections:
            out += [Line(""), *sec.terminal()]
        return (out + [Line(f"note      {n}", "dim") for n in self.notes]
                + [Line(f"warning   {w}", "bold") for w in self.warnings] + [Line(f"({self.seconds} s)", "dim")])
