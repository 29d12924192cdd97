r"""``report``: the one-page report of a positional scheme at long lengths, one section per distinct layer kind.

What a long-context researcher looks at first, for each layer kind (:meth:`Scheme.kinds`: which
layers, their span):

* the per-band table: frequency now and at pre-training, wavelength, turns over the original
  context L, interpolated or extrapolated, and whether its phase at N stays within what
  pre-training saw;
* the position-only kernel :math:`a_k` (:func:`petheory.analyses.kernel.position_column`) against
  the distance k up to N, with its log-binned envelope :math:`\max|a_k|/a_0`;
* extreme eigenvalues of the N x N kernel at L, 2L, 4L, 8L (:func:`petheory.analyses.kernel.extremes`:
  exact low rank for rotary kernels, certified FFT Lanczos otherwise; never a dense N x N);
* the stress of its geometry on the built-in corpus against random tables
  (:func:`petheory.analyses.stress.layer_stress`);
* the bound notes (:func:`petheory.analyses.bounds.layer_bounds`).

A sliding or chunked layer is analysed at ``min(N, span)`` (its kernel beyond the span is never
used); a NoPE or position-free layer gets a section that says what it is; M-RoPE layers are
analysed on text-only positions (every axis carries the same index). Any N >= 1 works.
"""

from __future__ import annotations

import math
import time
from numbers import Integral, Real

import numpy as np

from petheory._validate import SEED, Each, InstanceOf, Interval, validate_params
from petheory.loaders import limits
from petheory import encodings as enc
from petheory.analyses import kernel as K
from petheory.analyses.record import Skipped
from petheory.analyses.report_record import (Band, Bucket, EnvelopeBin, KernelPoint, KernelSummary, RangeMax,
                                             ReportBounds, ReportRecord, ReportSection, SpectrumAt)
from petheory.errors import InvalidInput, ValidationError
from petheory.scheme import Positions, Scheme, layer_ranges

MULTIPLES = (1, 2, 4, 8)
#: Points of the kernel stored in the report (log-spaced distances) and log bins of its envelope.
KERNEL_POINTS = 240
ENVELOPE_BINS = 48


def band_table(kernel: K.LayerKernel, *, context: int) -> list[Band]:
    """One row per rotary band: frequencies, wavelength, turns over L, interpolated or extrapolated.

    Parameters
    ----------
    kernel : petheory.analyses.kernel.LayerKernel
        A layer's kernel data at the report length N (none but rotary layers have bands).
    context : int
        The pre-training context L.

    Returns
    -------
    list of Band
        Empty for a layer without rotary bands.

    Notes
    -----
    ``original_frequency`` is the pre-training ladder (the entry with ``scale=1``); ``interpolation`` is
    original / now (1: extrapolated, the band keeps its frequency; s: fully interpolated).
    ``phase_seen``: every angle the band takes up to N was seen in pre-training: it made a full turn
    within L (:math:`(L-1)\\omega^0_t \\ge 2\\pi`), or :math:`(N-1)\\omega_t \\le (L-1)\\omega^0_t`.

    References
    ----------
    Liu et al. 2023, §3.3 (bands that turn within the training context); Peng et al. 2023 (YaRN), §3.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> b = band_table(K.layer_kernel(Positions("rotary", "rope", {"base": 100.0}, 4), 128), context=64)
    >>> [(x.band, x.regime, x.phase_seen) for x in b]
    [(0, 'extrapolated', True), (1, 'extrapolated', True)]
    """
    if kernel.bands is None:
        return []
    pos, length, w = kernel.positions, kernel.length, kernel.bands[0]
    info = enc.info(pos.encoding)
    ref = dict(pos.params)
    if "scale" in info.params:
        ref["scale"] = 1.0
    if (pos.encoding == "mla_rope" and isinstance(ref.get("scaling_params"), dict)
            and "scale" in enc.info(ref.get("scaling", "rope")).params):  # plain rope (DeepSeek-V3 unscaled) takes none
        ref["scaling_params"] = {**ref["scaling_params"], "scale": 1.0}
    w0, _ = enc.band_frequencies(pos.encoding, pos.d, max(context, 2), **ref)
    rows = []
    for t, (om, om0) in enumerate(zip(w, w0)):
        ratio = om0 / om
        regime = "extrapolated" if abs(ratio - 1) <= 1e-9 else ("interpolated" if ratio > 1 else "sped up")
        seen = (context - 1) * om0
        rows.append(Band(t, float(om), float(om0), float(2 * math.pi / om), float(context * om0 / (2 * math.pi)),
                         float(ratio), regime,
                         bool(seen >= 2 * math.pi or (length - 1) * om <= seen * (1 + 8 * np.finfo(float).eps))))
    return rows


def t5_buckets(pos: Positions, length: int) -> list[Bucket]:
    """T5's buckets as offset ranges ``j - i`` (query i, key j) within ``length``: one row per bucket.

    Parameters
    ----------
    pos : petheory.scheme.Positions
        T5 bias positions (``bidirectional``, ``num_buckets``, ``max_distance``).
    length : int

    Returns
    -------
    list of Bucket

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> [b.offsets for b in t5_buckets(Positions("bias", "t5", {"bidirectional": False}, 8), 3)]
    [[0, 2], [-1, -1], [-2, -2]]
    """
    off = np.arange(-(length - 1), length, dtype=np.int64)
    b = enc.t5_bucket(off, bidirectional=bool(pos.params.get("bidirectional", True)),
                      num_buckets=int(pos.params.get("num_buckets", 32)), max_distance=int(pos.params.get("max_distance", 128)))
    rows = []
    for k in np.unique(b):
        o = off[b == k]
        rows.append(Bucket(int(k), [int(o.min()), int(o.max())], int(o.shape[0])))
    return rows


def kernel_summary(c: np.ndarray, context: int, formula: str = "") -> KernelSummary:
    """The kernel at log-spaced distances, its log-binned envelope and its largest :math:`|a_k|/a_0` near L.

    Parameters
    ----------
    c : numpy.ndarray, shape (n,)
        The kernel's first column :math:`a_0, \\dots, a_{n-1}`.
    context : int
        The pre-training context L.
    formula : str
        What the kernel is.

    Returns
    -------
    KernelSummary
        The largest :math:`|a_k|/a_0` within [L/2, L) and beyond L, each only where the column reaches it (any
        length n >= 1).

    Examples
    --------
    >>> k = kernel_summary(np.array([2.0, 1.0, -1.0, 0.5]), 2)
    >>> [(p.k, p.a_over_a0) for p in k.points], k.max_abs_over_a0_beyond_L.value
    ([(1, 0.5), (2, -0.5), (3, 0.25)], 0.5)
    """
    n = c.shape[0]
    a0 = float(c[0]) if c[0] != 0 else 1.0
    ks = np.unique(np.concatenate([[0], np.round(np.geomspace(1, max(n - 1, 1), KERNEL_POINTS)).astype(np.int64)]))
    ks = ks[ks < n]
    edges = np.unique(np.round(np.geomspace(1, max(n, 1), ENVELOPE_BINS + 1)).astype(np.int64))
    env = [(int(lo), int(hi), float(np.max(np.abs(c[lo:hi])) / abs(a0))) for lo, hi in zip(edges[:-1], edges[1:])
           if hi > lo and lo < n]
    at = sorted({k for k in (1, 10, 100, 1000, 10000, context // 2, context, 2 * context, 4 * context, n - 1) if 0 < k < n})
    near = {}
    for name, lo, hi in (("within_L", max(1, context // 2), min(context, n)), ("beyond_L", context, n)):
        if hi > lo:
            near[name] = RangeMax(lo, hi, float(np.max(np.abs(c[lo:hi])) / abs(a0)))
    return KernelSummary(formula, ks.tolist(), c[ks].tolist(), float(c[0]),
                         [KernelPoint(int(k), float(c[k] / a0)) for k in at],
                         [EnvelopeBin(lo, hi, e) for lo, hi, e in env], near.get("within_L"), near.get("beyond_L"))


def spectrum_at(found: K.KernelExtremes, multiple: int = 1) -> SpectrumAt:
    """The fields ``report`` prints of a layer's extreme eigenvalues at one n (:func:`petheory.analyses.kernel.layer_kernel`).

    Parameters
    ----------
    found : petheory.analyses.kernel.KernelExtremes
        The extremes at n.
    multiple : int
        n as a multiple of L (kept in the record).

    Returns
    -------
    SpectrumAt

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> k = K.layer_kernel(Positions("rotary", "rope", {"base": 100.0}, 4), 64, extremes_at=(64,))
    >>> s = spectrum_at(k.extremes[0])
    >>> s.lambda_min, s.certificates
    (0.0, ['gram', 'gram'])
    """
    lo, hi = found.eigenvalues.min, found.eigenvalues.max
    return SpectrumAt(multiple, int(found.length), lo.value, hi.value, [lo.error_bound, hi.error_bound],
                      [lo.certificate, hi.certificate], found.warnings, found.seconds)


def extended_context(context: int, max_context: int, factor: float) -> tuple[int, str]:
    """The context a model claims, and where it comes from.

    A config that states a longer ``max_position_embeddings`` than its pre-training context L says what it claims
    (Llama 3.2: 131,072 over L = 8,192 with a factor 32, whose product would be twice that); one whose
    ``max_position_embeddings`` is L itself (Qwen2.5 with YaRN x4) claims its scaling's factor times L.

    Parameters
    ----------
    context : int
        The pre-training context L.
    max_context : int
        ``max_position_embeddings``.
    factor : float
        The rope scaling's factor (1: none).

    Returns
    -------
    (int, str)
        The extended context and where it comes from (``'max_position_embeddings'``, or the factor times L).

    Examples
    --------
    >>> extended_context(8192, 131072, 32.0)
    (131072, 'max_position_embeddings')
    >>> extended_context(32768, 32768, 4.0)[0]
    131072
    """
    if max_context > context or factor <= 1:
        return max(int(max_context), 1), "max_position_embeddings"
    n = int(round(factor * context))
    return n, f"factor {factor:g} x L; max_position_embeddings is {max_context:,}"


def default_length(scheme: Scheme) -> tuple[int, str]:
    """The report's default length N: the model's extended context (:func:`extended_context`), and where it comes from.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme

    Returns
    -------
    (int, str)

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> default_length(resolve_scheme("rope_yarn:scale=4", context=512))
    (2048, 'factor 4 x L; max_position_embeddings is 512')
    """
    p = scheme.main.positions.params
    scale = float(p.get("scale", (p.get("scaling_params") or {}).get("scale", 1.0)))
    return extended_context(scheme.context, scheme.max_context, scale)


#: What a report covers (biases: ALiBi's closed form and T5's buckets, at any N); other mechanisms (absolute PEs,
#: tables, biases built as dense N x N matrices) are refused by name (use spectrum/stress).
COVERED = ("rotary", "bias", "nope", "none")


def section(scheme: Scheme, layer, idx, *, length: int, multiples, null_draws: int, seed: int, rtol: float,
            stress_cache: list) -> ReportSection:
    """The report of one layer kind (see the module docstring).

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
    layer : petheory.scheme.Layer
        The kind's layer.
    idx : list of int
        The kind's layers.
    length : int
        The report length N.
    multiples : sequence of int
        Spectra at these multiples of L.
    null_draws, seed : int
        The stress null reference.
    rtol : float
        Relative accuracy of the certified extreme eigenvalues.
    stress_cache : list
        ``(positions, stress)`` pairs already computed (the geometry of positions does not depend on the span).

    Returns
    -------
    ReportSection

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> s = resolve_scheme("rope", d=8, context=16)
    >>> section(s, s.layers[0], [0], length=32, multiples=(1,), null_draws=0, seed=0, rtol=1e-8,
    ...         stress_cache=[]).analysed_length
    32
    """
    from petheory.analyses.bounds import SkippedRow, layer_bounds
    from petheory.analyses.stress import layer_stress
    from petheory.analyses.describe import describe_encoding

    pos, L = layer.positions, scheme.context
    learned = scheme.source not in ("spec", "table")
    head = dict(layers=list(idx), type=layer.type, span=layer.span, mechanism=pos.kind, notes=[])
    notes = head["notes"]
    if layer.temperature is not None:
        notes.append(f"attention temperature {layer.temperature.kind} {layer.temperature.params}: a factor on "
                     "every logit that grows with the query's position (not in the kernel below)")
    if layer.sinks:
        notes.append("learned attention sinks: a per-head logit outside the positions (not in the kernel)")
    if not layer.causal:
        notes.append("bidirectional (is_causal False): queries attend to keys on both sides; the kernel, spectra, bands "
                     "and stress below are functions of i - j and hold for either mask (the plan's evidence does not: "
                     "it is from causal decoders)")
    n = layer.span.reach(length)
    sizes = {}  # the spectra's sizes, each once: a span caps m L
    for m in multiples:
        sizes.setdefault(layer.span.reach(m * L), m)
    kernel = K.layer_kernel(pos, n, learned_t5=learned, extremes_at=tuple(sizes), rtol=rtol)
    why = kernel.why_none
    if pos.kind in ("nope", "none"):
        return ReportSection(**head, skipped=why)
    if n < length:
        notes.append(f"{layer.span} attention: analysed at N = {n:,} = min(N, {layer.span.size:,}); the kernel "
                     "beyond the span is never used")
    out = dict(head, analysed_length=n)
    # M-RoPE: the scheme's own note (petheory.models) says text-only positions are analysed
    out["encoding"] = describe_encoding(pos.encoding, pos.params, pos.d, length=max(n, 2))
    out["logit_factor"] = pos.logit_factor
    if pos.heads:
        out["heads"] = list(pos.heads)
    out["bands"] = band_table(kernel, context=L)
    if pos.encoding == "t5":
        out["buckets"] = t5_buckets(pos, n)
    if why is not None:
        out["kernel"] = out["spectra"] = Skipped(why)
    else:
        out["kernel"] = kernel_summary(kernel.column.column, L, kernel.column.description)
        out["spectra"] = [spectrum_at(found, multiple=sizes[found.length]) for found in kernel.extremes]
    for known, rec in stress_cache:  # the geometry of positions does not depend on the span: computed once
        if known == pos:
            out["stress"] = rec
            break
    else:
        try:
            rec = (Skipped(why) if why is not None else
                   layer_stress(pos, _target(), null_draws=null_draws, seed=seed, name=pos.encoding))
        except InvalidInput as exc:  # what the input cannot give (a ValueError from a bug propagates)
            rec = Skipped(str(exc).splitlines()[0])
        stress_cache.append((pos, rec))
        out["stress"] = rec
    try:
        b = layer_bounds(kernel, context=L)
        out["bounds"] = (Skipped(b.skipped) if isinstance(b, SkippedRow) else
                         ReportBounds(b.norm, b.B0, b.rademacher, b.rademacher_formula, b.angles, b.eq9))
    except InvalidInput as exc:  # what the input cannot give (a ValueError from a bug propagates)
        out["bounds"] = Skipped(str(exc).splitlines()[0])
    if pos.kind == "rotary" and pos.encoding != "mla_rope":  # issue 31: Men, Liu, RoFormer, temperatures per rotary kind
        from petheory.analyses.long_context import long_context_section

        try:
            # a sliding or chunked layer's queries never see past its span: the theory is asked within it
            ctx_L = max(layer.span.reach(L), 2)
            # a scaling's factor names the context it is for (Qwen2.5's YaRN x4 over max_position_embeddings 32k)
            factor = float(pos.params.get("scale") or pos.params.get("factor") or 1.0)
            target, source = extended_context(L, scheme.max_context, factor)
            out["long_context"] = long_context_section(
                pos, context=ctx_L, extended_context=max(layer.span.reach(target), ctx_L),
                length=max(layer.span.reach(length), 2),
                extended_from=None if source == "max_position_embeddings" else source, temperature=layer.temperature)
            # issue 41: the largest context each theory supports, from the section's own frequencies
            out["theory_range"] = out["long_context"].supported.lines(window=ctx_L < L)[0]
        except InvalidInput as exc:  # what the input cannot give (a ValueError from a bug propagates)
            out["long_context"] = Skipped(str(exc).splitlines()[0])
    return ReportSection(**out)


def _target():
    from petheory import geometry

    return geometry.builtin_target()


def check_covered(scheme: Scheme) -> None:
    """Refuse a scheme with a layer kind a report does not cover (absolute encodings, tables).

    Parameters
    ----------
    scheme : petheory.scheme.Scheme

    Raises
    ------
    petheory.errors.ValidationError
        Naming the first layer kind not covered, and what covers it.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> check_covered(resolve_scheme("alibi"))
    >>> check_covered(resolve_scheme("sinusoidal"))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: report covers rotary encodings, ...
    """
    bad = [(layer, idx) for layer, idx in scheme.kinds() if layer.positions.kind not in COVERED
           or (layer.positions.kind == "bias" and layer.positions.encoding not in ("alibi", "t5"))]
    if bad:
        layer, idx = bad[0]
        what = layer.positions.encoding or layer.positions.source or layer.positions.kind
        if layer.positions.kind == "table":
            if str(what).startswith("hf:"):  # a model folder whose config.json is missing or not resolvable: say so
                raise ValidationError(f"report reads a model's config.json; {what.split('[')[0]} has none that petheory "
                                      "resolves (its weights are a position table: use petheory spectrum/stress for it)")
            raise ValidationError(f"report takes a model's config.json (hf:DIR, PATH/config.json) or a registered "
                                  f"encoding, not the table {what}: use petheory spectrum/stress for tables")
        raise ValidationError(f"report covers rotary encodings, biases ALiBi and T5, and NoPE/position-free layers; "
                              f"{what} (layers {list(idx)[:8]}) is {layer.positions.kind}: use petheory spectrum/stress "
                              "for it")


#: Lengths counted in positions: an integer >= 1.
POSITIVE = Interval(Integral, 1, None, closed="left")


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "length": [POSITIVE, None],
    "multiples": [Each(POSITIVE)],
    "null_draws": [limits.null_draws()],
    "seed": [SEED],
    "rtol": [Interval(Real, 0, None, closed="neither")],
    "source": [str, None],
    "progress": ["callable", None],
})
def report(scheme: Scheme, *, length: int | None = None, multiples=MULTIPLES, null_draws: int = 100, seed: int = 0,
           rtol: float = K.RTOL, source: str | None = None, progress=None) -> ReportRecord:
    """The one-page report of ``scheme``: one section per distinct layer kind (see the module docstring).

    Parameters
    ----------
    scheme : Scheme
        From :func:`petheory.loaders.resolve_scheme`. A model's scheme holds its ``config.json``
        (``scheme.config``): its lints (:func:`petheory.analyses.lints.config_lints`, the precision ceiling at
        ``length``, else at ``max_position_embeddings``) become the record's ``warnings``.
    length : int, optional
        Report length N >= 1 (default: the model's extended context, :func:`default_length`; the record's
        ``length_from`` says which).
    multiples : tuple of int
        Spectra at these multiples of the original context L.
    null_draws, seed : int
        Random tables of the stress null reference (0: none).
    rtol : float
        Relative accuracy of the certified extreme eigenvalues (non-rotary kernels).
    source : str, optional
        What the scheme was resolved from (the report's title).
    progress : callable, optional
        ``progress(done, total, what)`` after each section.

    Returns
    -------
    ReportRecord

    Raises
    ------
    petheory.errors.ValidationError
        A layer kind the report does not cover (:func:`check_covered`), a length or multiple below 1.

    References
    ----------
    gu2025 §3.3 (kernel and spectrum); li2025 Table 2, §4.2 (bounds); cirrincione2026 (stress); men2024, Liu et al.
    2023, RoFormer §3.4.3 (the long-context section).

    Notes
    -----
    Cost per kind: the kernel at N is :math:`O(N r)` cosines; a rotary spectrum is a 2b x 2b
    eigenproblem (b bands) at any N; a bias spectrum is a few dozen FFT matvecs of size 2N.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> r = report(resolve_scheme("rope", d=16, context=64), length=1, null_draws=0, multiples=(1,))
    >>> r.sections[0].analysed_length, r.sections[0].spectra[0].n
    (1, 64)
    """
    t_start = time.perf_counter()
    N, length_from = default_length(scheme) if length is None else (int(length), "given")
    mults = [int(m) for m in multiples]
    check_covered(scheme)
    kinds = scheme.kinds()
    sections, cache = [], []
    for k, (layer, idx) in enumerate(kinds):
        sections.append(section(scheme, layer, idx, length=N, multiples=mults, null_draws=null_draws, seed=seed,
                                rtol=rtol, stress_cache=cache))
        if progress is not None:
            progress(k + 1, len(kinds), f"layer kind {k + 1} of {len(kinds)} (layers {layer_ranges(idx)})")
    if scheme.config is not None:
        from petheory.analyses.lints import config_lints

        warnings = tuple(config_lints(scheme.config, scheme, length=length))
    else:
        warnings = ()
    return ReportRecord(source, scheme, N, length_from, tuple(sections), round(time.perf_counter() - t_start, 3),
                        warnings)
