r"""``spectrum``: symbol range, certified extreme eigenvalues and Szegő distance of each layer kind's Toeplitz matrix.

:func:`toeplitz_summary` is the step every source goes through (coefficients, a kernel, a layer's
position-only matrix from :func:`petheory.analyses.kernel.position_column`); :func:`spectrum` runs it
on every distinct layer kind of a :class:`~petheory.scheme.Scheme` (a sliding or chunked layer at
``min(n, span)``: its kernel beyond the span is never used). A rotary kernel's extreme eigenvalues
are exact from its low-rank Gram (:func:`~petheory.analyses.kernel.low_rank_extremes`), the same
numbers ``report`` prints.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from petheory._validate import SEED, InstanceOf, Interval, StrOptions, validate_params
from petheory.analyses import kernel as K
from petheory.analyses.record import Record, Skipped, item, to_json
from petheory.scheme import Scheme
from petheory.toeplitz.eigen import EigenEstimate
from petheory.toeplitz.symbols import SymbolExtrema
from petheory.toeplitz.szego import SpectralDistribution

#: Szegő distance from dense eigenvalues up to this N by default (:math:`O(N^3)`: about 1-2 s at 1024 on 2 loaded cores).
EXACT_UP_TO = 1024
#: Size for a named PE or a kernel, which have no size of their own.
DEFAULT_N = 1024


def exact_seconds(length: int) -> float:
    """Rough wall time of the dense eigenvalues at N on this project's 2-core machines: 30 s at N = 4096, as :math:`N^3`.

    Parameters
    ----------
    length : int

    Returns
    -------
    float
        Seconds.

    Examples
    --------
    >>> exact_seconds(4096)
    30.0
    """
    return 30.0 * (length / 4096) ** 3


def resolved(sd) -> bool:
    """Whether the Kolmogorov distance is larger than its own error estimate (always, for exact).

    Parameters
    ----------
    sd : petheory.toeplitz.szego.SpectralDistribution
        A Szegő comparison.

    Returns
    -------
    bool

    Examples
    --------
    >>> from petheory.toeplitz.szego import spectral_distribution
    >>> resolved(spectral_distribution([2.0, 1.0], method="exact"))
    True
    """
    return sd.method == "exact" or sd.kolmogorov > sd.error_estimate


@dataclass(frozen=True)
class SymbolRange(Record):
    """Range of the symbol :math:`a(\\theta)` (gu2025 §3.3): of the finite section, and of the closed form where known.

    Its JSON is the extrema's keys, then its own.

    Attributes
    ----------
    extrema : petheory.toeplitz.symbols.SymbolExtrema
        The finite section's certified minimum and maximum (see that class for its fields).
    which : str
        Which symbol the range printed is: the closed form (N -> infinity) where the kernel has one, else the
        finite section :math:`a_N`.
    closed_form_range : list of float or None
        ``[min, max]`` of the closed-form symbol where the kernel has one.

    Examples
    --------
    >>> from petheory.toeplitz.symbols import SymbolExtrema
    >>> SymbolRange(SymbolExtrema(-1.0, 1.0, 3.14, 0.0, 1e-15, True), "finite section a_N").as_dict()["max"]
    1.0
    """

    extrema: SymbolExtrema = item(inline=True)
    which: str
    closed_form_range: list | None = item(omit=True)


@dataclass(frozen=True)
class Eigenvalues(Record):
    """The extreme eigenvalues of a Toeplitz matrix, the seconds they took, the solver's warnings.

    Attributes
    ----------
    lambda_min, lambda_max : petheory.toeplitz.eigen.EigenEstimate
        The smallest and largest eigenvalue, each with its certificate.
    seconds : float
        Wall time of the eigenvalues.
    warnings : tuple of str
        What the iteration warned (non-convergence).
    """

    lambda_min: EigenEstimate
    lambda_max: EigenEstimate
    seconds: float = 0.0
    warnings: tuple = ()


@dataclass(frozen=True)
class SzegoDistance(Record):
    """The Szegő comparison of a Toeplitz matrix, the seconds it took and whether it is resolved.

    Its JSON is the distribution's keys, then ``seconds`` and ``resolved``.

    Attributes
    ----------
    distribution : petheory.toeplitz.szego.SpectralDistribution
        The eigenvalue and symbol distributions and their Kolmogorov and Wasserstein distances (see that class for
        its fields; read back from JSON it has no atoms).
    seconds : float
        Wall time of the comparison.
    resolved : bool
        Property: whether the Kolmogorov distance exceeds its error estimate (:func:`resolved`).
    """

    distribution: SpectralDistribution = item(inline=True)
    seconds: float
    json_keys = ("distribution", "seconds", "resolved")

    @property
    def resolved(self) -> bool:
        """Whether the Kolmogorov distance exceeds its error estimate (:func:`resolved`)."""
        return resolved(self.distribution)


@dataclass(frozen=True)
class ToeplitzSummary(Record):
    """Symbol range, extreme eigenvalues and Szegő distance of one Hermitian Toeplitz matrix (:func:`toeplitz_summary`).

    Attributes
    ----------
    source : str
        What the matrix is (its source's description).
    n : int
        The matrix size N.
    real : bool
        Whether the matrix is real symmetric (else complex Hermitian).
    symbol : SymbolRange
        The symbol's range.
    eigenvalues : Eigenvalues
        The certified extreme eigenvalues.
    szego : SzegoDistance or Skipped
        The Szegő distance, or why it was not computed.
    toeplitz_defect : float or None
        A layer's source matrix's relative distance from Toeplitz (None for coefficients).
    toeplitz_defect_exact : bool or None
        Whether the defect was measured on the whole source matrix (None: not a Gram).
    """

    source: str
    n: int
    real: bool
    symbol: SymbolRange
    eigenvalues: Eigenvalues
    szego: SzegoDistance | Skipped
    toeplitz_defect: float | None = item(omit=True)
    toeplitz_defect_exact: bool | None = item(omit=True)

    @property
    def lambda_min(self) -> float:
        """The smallest eigenvalue."""
        return self.eigenvalues.lambda_min.value

    @property
    def lambda_max(self) -> float:
        """The largest eigenvalue."""
        return self.eigenvalues.lambda_max.value

    @property
    def projected(self) -> bool:
        """Whether the source matrix was not Toeplitz and its Toeplitz projection was analysed."""
        return self.source.endswith("Toeplitz projection")

    def command_json(self) -> dict:
        """What ``petheory spectrum --json`` writes for coefficients or a kernel: the summary's keys, and
        ``resolved_encoding`` None (no positional encoding was resolved).

        Returns
        -------
        dict
            JSON-able data, the summary's :func:`~petheory.analyses.record.to_json` first.

        Examples
        --------
        >>> s = toeplitz_summary(np.array([2.0, 1.0]), what="coefficients", method="off")
        >>> list(s.command_json())[-2:]
        ['szego', 'resolved_encoding']
        """
        return {**to_json(self), "resolved_encoding": None}

    def lines(self, *, rtol: float | None = None) -> list[str]:
        """What ``petheory spectrum`` prints (``rtol``: the accuracy asked for, named where it was not reached)."""
        eig, sd = self.eigenvalues, self.szego
        lo, hi = eig.lambda_min, eig.lambda_max
        srange = self.symbol.closed_form_range or [self.symbol.extrema.min, self.symbol.extrema.max]
        out = [f"T_N: {self.source}; N = {self.n}, Hermitian {'real symmetric' if self.real else 'complex'}"]
        if self.toeplitz_defect:
            out.append(f"  Toeplitz defect of the source matrix: {self.toeplitz_defect:.3g}")
        out.append(f"  symbol range      [{srange[0]:.10g}, {srange[1]:.10g}]  ({self.symbol.which})")
        out.append(f"  eigenvalue range  [{lo.value:.10g}, {hi.value:.10g}]  (error <= {lo.error_bound:.2g}, "
                   f"{hi.error_bound:.2g}; {lo.certificate}/{hi.certificate} certificate; {eig.seconds:.2f} s)")
        for end in (e for e in (lo, hi) if not e.converged):
            out.append(f"  note: lambda = {end.value:.6g} did not reach --rtol {rtol:g}; its error bound is "
                       f"{end.error_bound:.2g}")
        if self.projected:
            out.append(f"  note: the source matrix is not Toeplitz (relative defect {self.toeplitz_defect:.3g}); "
                       "this analyses its Toeplitz projection (diagonal averages); --no-project refuses instead")
        if isinstance(sd, Skipped):
            out.append(f"  Szegő distance    {sd.skipped}")
            return out
        d = sd.distribution
        if sd.resolved:
            how = "" if d.method == "exact" else (f", estimate +- {d.error_estimate:.2g} ({d.probes} probes x "
                                                  f"{d.steps} steps)")
            out.append(f"  Szegő distance    Kolmogorov {d.kolmogorov:.4g}, Wasserstein {d.wasserstein:.4g}  "
                       f"({d.method}{how}; {sd.seconds:.2f} s)")
        else:
            out.append(f"  Szegő distance    unresolved: Kolmogorov estimate {d.kolmogorov:.2g} is below its error "
                       f"{d.error_estimate:.2g} (so it lies in [0, {d.kolmogorov + d.error_estimate:.2g}]); "
                       f"Wasserstein {d.wasserstein:.4g}  ({d.method}, {d.probes} probes x {d.steps} steps; "
                       f"{sd.seconds:.2f} s)")
        return out


#: The constraints :func:`toeplitz_summary` and :func:`spectrum` share.
RTOL = Interval(Real, 0, None, closed="neither")
METHOD = StrOptions(("auto", "exact", "slq", "off"))


@validate_params({
    "what": [str],
    "rtol": [RTOL],
    "method": [METHOD],
    "seed": [SEED],
    "symbol": ["callable", None],
    "progress": ["callable", None],
})
def toeplitz_summary(c, r=None, *, what: str, rtol: float = K.RTOL, method: str = "auto", seed: int = 0, symbol=None,
                     eigenvalues=None, progress=None, defect: float | None = None,
                     defect_exact: bool | None = None) -> ToeplitzSummary:
    """Symbol range, extreme eigenvalues and Szegő distance of the Hermitian Toeplitz matrix with first column ``c``.

    Parameters
    ----------
    c : array_like, shape (n,)
        First column :math:`a_0, \\dots, a_{n-1}`.
    r : array_like, shape (n,), optional
        First row (default: the conjugate of ``c``).
    what : str
        What the matrix is (the record's ``source``).
    rtol : float
        Relative accuracy of the certified extreme eigenvalues.
    method : {'auto', 'exact', 'slq', 'off'}
        The Szegő distance: dense eigenvalues, stochastic Lanczos quadrature, none; ``auto``: exact up to
        :data:`EXACT_UP_TO`, none beyond.
    seed : int
        Seed of the SLQ probes.
    symbol : callable, optional
        The closed-form symbol :math:`a(\\theta)` (a kernel's), compared instead of the finite section's.
    eigenvalues : tuple, optional
        Precomputed ``(ExtremeEigenvalues, warnings)`` (a rotary layer's exact low-rank extremes).
    progress : callable, optional
        ``progress(how)``, called before a long Szegő computation.
    defect, defect_exact : float and bool, optional
        The source matrix's Toeplitz defect (a layer's), carried into the record.

    Returns
    -------
    ToeplitzSummary

    Examples
    --------
    >>> s = toeplitz_summary(np.array([2.0, 1.0]), what="example")
    >>> s.lambda_min, s.lambda_max, s.szego.distribution.method
    (1.0, 3.0, 'exact')
    """
    from petheory import toeplitz as tp
    from petheory.toeplitz import szego

    n = c.shape[0]
    t0 = time.perf_counter()
    ex = tp.symbol_extrema(c, r)
    eig, caught = eigenvalues if eigenvalues is not None else K.certified_extremes(c, r, rtol=rtol)
    t_eig = time.perf_counter() - t0
    t0 = time.perf_counter()
    how = method
    if how == "auto":
        how = "exact" if n <= EXACT_UP_TO else "off"
    skip = None
    if method == "auto" and how == "off":
        skip = (f"not computed at N = {n} > {EXACT_UP_TO} by default: dense eigenvalues cost O(N^3) (about "
                f"{exact_seconds(n):.0f} s here on 2 cores); --method exact computes it, --method slq estimates it")
    elif how == "off":
        skip = "not computed (--method off)"
    sd = None if how == "off" else szego.spectral_distribution(c, symbol=symbol, method=how, seed=seed,
                                                               progress=progress)
    closed = None
    if symbol is not None:
        if sd is not None:
            closed = [float(sd.symbol_values[0]), float(sd.symbol_values[-1])]
        else:  # the same grid spectral_distribution samples the symbol on
            ms = 1 << int(np.ceil(np.log2(max(1 << 15, 4 * n))))
            vals = np.real(symbol(2 * np.pi * (np.arange(ms) + 0.5) / ms))
            closed = [float(vals.min()), float(vals.max())]
    sym = SymbolRange(ex, "closed form (N -> infinity)" if symbol else "finite section a_N", closed)
    dist = Skipped(skip) if sd is None else SzegoDistance(sd, round(time.perf_counter() - t0, 4))
    return ToeplitzSummary(what, int(n), not np.iscomplexobj(c), sym,
                           Eigenvalues(eig.min, eig.max, round(t_eig, 4), tuple(caught)), dist, defect, defect_exact)


@dataclass(frozen=True)
class SpectrumSection(Record):
    """One distinct layer kind of ``spectrum``: its layers, type and span, and its Toeplitz summary, or why it has none.

    Its JSON is the section's own keys, then ``skipped`` or the summary's keys.

    Attributes
    ----------
    layers : list of int
        The layers of this kind.
    type : str or None
        The config's name for the layer kind (``sliding_attention``), or empty.
    span : str
        The attention span (``full``, ``sliding 4096``).
    note : str or None
        Where a sliding or chunked kind was analysed at ``min(N, span)``.
    skipped : str or None
        Why the kind has no position-only kernel (NoPE, none, learned T5 buckets); None when it has one.
    summary : ToeplitzSummary or None
        The kernel's symbol range, extreme eigenvalues and Szegő distance; None with ``skipped``.
    """

    layers: list
    type: str | None
    span: str
    note: str | None = item(omit=True)
    skipped: str | None = item(omit=True)
    summary: ToeplitzSummary | None = item(inline=True, default=None)

    def lines(self, *, rtol: float | None = None) -> list[str]:
        """The section: its summary's lines (:meth:`ToeplitzSummary.lines`), or why it was skipped."""
        if self.summary is None:
            return [f"layers {self.layers}: {self.skipped}"]
        out = self.summary.lines(rtol=rtol)
        if self.note:
            out.insert(1, f"  note: {self.note}")
        return out


@dataclass(frozen=True)
class SpectrumRecord(Record):
    """``spectrum``: one section per distinct layer kind of the scheme.

    Attributes
    ----------
    scheme : petheory.scheme.Scheme
        The scheme analysed.
    n : int
        The matrix size N asked for (a sliding or chunked kind is analysed at ``min(N, span)``).
    sections : tuple of SpectrumSection
        One per distinct layer kind, in order of first appearance.
    """

    scheme: Scheme
    n: int
    sections: tuple[SpectrumSection, ...] = ()

    @property
    def computed(self) -> list:
        """The sections that have a kernel."""
        return [s for s in self.sections if s.summary is not None]

    def command_json(self) -> dict:
        """What ``petheory spectrum --json`` writes for a scheme: the first layer kind with a kernel in full (its
        section's keys), what the scheme resolves to at that kind's N (:func:`petheory.analyses.describe.describe`),
        the scheme, and every kind's section where the scheme has several.

        Returns
        -------
        dict
            JSON-able data.

        Raises
        ------
        ValueError
            No layer kind has a kernel (``computed`` is empty): there is no first kind to write.

        Examples
        --------
        >>> from petheory.loaders import resolve_scheme
        >>> rec = spectrum(resolve_scheme("rope", d=8), length=16, method="off")
        >>> list(rec.command_json())[:3], list(rec.command_json())[-2:]
        (['layers', 'type', 'span'], ['resolved_encoding', 'scheme'])
        """
        from petheory.analyses.describe import describe

        secs = self.computed
        if not secs:
            raise ValueError("no layer kind has a position-only kernel: the record has no section to write in full")
        out = {**to_json(secs[0]), "resolved_encoding": describe(self.scheme, length=secs[0].summary.n),
               "scheme": to_json(self.scheme)}
        if len(self.sections) > 1:
            out["sections"] = to_json(self.sections)
        return out

    def lines(self, *, rtol: float | None = None) -> list[str]:
        """The first layer kind with a kernel in full, then one line per kind where the scheme has several."""
        secs = self.computed
        out = secs[0].lines(rtol=rtol) if secs else []
        if len(self.sections) > 1:
            out.append("  layer kinds (all in --json):")
            for sec in self.sections:
                head = f"    layers {sec.layers[:6]}{'...' if len(sec.layers) > 6 else ''} {sec.span}: "
                if sec.summary is None:
                    out.append(head + sec.skipped)
                else:
                    out.append(head + f"N = {sec.summary.n}, eigenvalues [{sec.summary.lambda_min:.6g}, "
                                      f"{sec.summary.lambda_max:.6g}]")
        return out


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "length": [Interval(Integral, 1, None), None],
    "rtol": [RTOL],
    "method": [METHOD],
    "seed": [SEED],
    "project": ["boolean"],
    "hermitian_part": ["boolean"],
    "progress": ["callable", None],
})
def spectrum(scheme: Scheme, *, length: int | None = None, rtol: float = K.RTOL, method: str = "auto", seed: int = 0,
             project: bool = True, hermitian_part: bool = False, progress=None) -> SpectrumRecord:
    """:func:`toeplitz_summary` of every distinct layer kind of ``scheme`` at ``length`` positions.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        From :func:`petheory.loaders.resolve_scheme`.
    length : int, optional
        The matrix size N (default: a table's rows, else :data:`DEFAULT_N`); a sliding or chunked layer is analysed
        at ``min(N, span)``.
    rtol, method, seed, progress
        As :func:`toeplitz_summary`.
    project : bool
        Analyse the Toeplitz projection of a source matrix that is not Toeplitz (False: refuse it).
    hermitian_part : bool
        Analyse :math:`(T + T^H)/2` of a kernel that is not Hermitian (False: refuse it).

    Returns
    -------
    SpectrumRecord
        A kind without a kernel (NoPE, none, learned T5 buckets) is a section with ``skipped`` (never dropped).

    Raises
    ------
    petheory.errors.ValidationError
        A kernel that is not Hermitian (without ``hermitian_part``), a size out of range.
    petheory.toeplitz.NotToeplitzError
        A source matrix that is not Toeplitz, with ``project=False``.

    References
    ----------
    gu2025 §3.3 (the position-only Toeplitz matrix and its symbol); Szegő's first limit theorem.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> rec = spectrum(resolve_scheme("rope", d=8), length=16, method="off")
    >>> rec.sections[0].summary.lambda_min  # rank <= 2 x 4 bands < 16
    0.0
    """
    n = length
    if n is None:
        main = scheme.main.positions
        n = int(np.shape(main.table)[0]) if main.kind == "table" else DEFAULT_N
    sections = []
    for layer, idx in scheme.kinds():
        pos = layer.positions
        head = dict(layers=list(idx), type=layer.type, span=str(layer.span))
        m = layer.span.reach(n)
        if m < n:
            head["note"] = f"{layer.span}: analysed at N = {m} (the kernel beyond the span is never used)"
        why = K.why_no_kernel(pos, learned_t5=scheme.source not in ("spec", "table"))
        if why is not None:
            sections.append(SpectrumSection(**head, skipped=why))
            continue
        col = K.position_column(pos, m, project=project, hermitian_part=hermitian_part)
        eig = K.extremes(pos, m, rtol=rtol, column=col)
        rec = toeplitz_summary(col.column, col.row, what=col.description, rtol=rtol, method=method, seed=seed,
                               eigenvalues=eig, progress=progress, defect=col.defect, defect_exact=col.defect_exact)
        sections.append(SpectrumSection(**head, summary=rec))
    return SpectrumRecord(scheme, int(n), tuple(sections))
