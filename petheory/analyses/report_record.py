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
from petheory.scheme import Scheme, layer_ranges
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
    """One rotary band: frequency now and at pre-training, wavelength, turns over L, interpolation, phase seen."""

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
    """One T5 bucket: the offsets ``j - i`` it holds and how many."""

    bucket: int
    offsets: list
    count: int


@dataclass(frozen=True)
class KernelPoint(Record):
    """The kernel at one distance k, relative to :math:`a_0`."""

    k: int
    a_over_a0: float


@dataclass(frozen=True)
class EnvelopeBin(Record):
    """The largest :math:`|a_k|/a_0` over distances ``start <= k < to`` (a log bin)."""

    start: int = item(key="from")
    to: int = 0
    max_abs_over_a0: float = 0.0


@dataclass(frozen=True)
class RangeMax(Record):
    """The largest :math:`|a_k|/a_0` over ``start <= k < to``."""

    start: int = item(key="from")
    to: int = 0
    value: float = 0.0


@dataclass(frozen=True)
class KernelSummary(Record):
    """The position-only kernel against distance: log-spaced points, its envelope, its largest values near L."""

    formula: str
    distance: list
    a: list
    a0: float
    points: list
    envelope: list
    max_abs_over_a0_within_L: RangeMax | None = item(omit=True)
    max_abs_over_a0_beyond_L: RangeMax | None = item(omit=True)


@dataclass(frozen=True)
class SpectrumAt(Record):
    """Extreme eigenvalues of the kernel's n x n matrix at ``multiple`` x L (error bounds and certificates)."""

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
    """The bound notes of a section: li2025's norm bound, B0, the Rademacher bound, angles (rotary), Eq. 9 (ALiBi)."""

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
class SpanInfo(Record):
    """A layer kind's attention span: ``full``, or ``sliding``/``chunked`` with its size."""

    kind: str
    size: int | None


@dataclass(frozen=True)
class ReportSection(Record):
    """The report of one distinct layer kind (see :mod:`petheory.analyses.report`); a NoPE or position-free kind has
    ``skipped`` and nothing else."""

    layers: list
    type: str | None
    span: SpanInfo
    mechanism: str
    notes: list
    skipped: str | None = item(omit=True)
    analysed_length: int | None = item(omit=True)
    encoding: dict | None = item(omit=True)
    logit_factor: float | None = item(omit=True)
    heads: list | None = item(omit=True)
    bands: list | None = item(omit=True)
    buckets: list | None = item(omit=True)
    kernel: KernelSummary | Skipped | None = item(omit=True)
    spectra: list | Skipped | None = item(omit=True)
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
    """The report: the scheme (its per-layer table), L, N, one section per distinct layer kind, notes."""

    source: str | None
    model_type: str
    context: int
    max_context: int
    length: int
    length_from: str
    num_heads: int
    head_dim: int
    num_layers: int
    layer_kind: list
    scheme: Scheme
    sections: tuple
    notes: list
    seconds: float = 0.0

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
        return out + [Line(f"note      {n}", "dim") for n in self.notes] + [Line(f"({self.seconds} s)", "dim")]
