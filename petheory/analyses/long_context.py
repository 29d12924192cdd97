r"""The long-context theory applied to one rotary layer kind: the report's section on Men, Liu, RoFormer and temperatures.

The theory is :mod:`petheory.bounds.long_context` and :mod:`petheory.bounds.men_base` (pure functions); this
module asks it about one layer of a model (:func:`long_context_section`) and keeps the answer as a typed record
(:class:`LongContextSection`) that renders itself (:meth:`LongContextSection.lines`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from petheory._validate import Interval, validate_params
from petheory.analyses import kernel as K
from petheory.analyses.plan_record import SupportedContext
from petheory.analyses.record import Record, item
from petheory.bounds import long_context as lc
from petheory.errors import ParameterError, ValidationError
from petheory.scheme import Positions

#: Above this many positions the report does not scan for Men's smallest base (~10 CPU s at 256k, ~30 at 1M): it still tests
#: the model's own base and frequencies there, and men_smallest_base(d, L) computes it on request.
MEN_SCAN_MAX = 1 << 17
_AT_LEAST_2 = [Interval(Integral, 2, None)]


@dataclass(frozen=True)
class MinKernel(Record):
    """The smallest :math:`B_m` over :math:`0 \\le m \\le N` and the first m where it is attained.

    Attributes
    ----------
    value : float
        The smallest :math:`B_m`.
    at : int
        The first m where it is attained.
    """

    value: float
    at: int


@dataclass(frozen=True)
class MenResult(Record):
    """Men et al. 2024: the smallest base with :math:`B_m = \\sum_i\\cos(m\\theta_i) \\ge 0` for all m up to a context,
    and whether this layer's base (plain, and its scaled frequencies) passes.

    Attributes
    ----------
    smallest_base_at_context, smallest_base_at_extended : float or None
        The smallest passing base of plain RoPE of this rotary dimension at L and at the extended context; None
        above the scan's limit.
    passes_at_context, passes_at_extended : bool
        Whether the layer's base, unscaled, gives :math:`B_m \\ge 0` up to L and up to the extended context.
    passes_scaled_at_extended : bool
        Whether its scaled (effective) frequencies do up to the extended context.
    min_kernel : dict of str to MinKernel
        The smallest :math:`B_m` of each of the three (``plain_L``, ``plain_Lx``, ``scaled_Lx``).
    fit_at_context, fit_at_extended : float
        men2024's power-law fit of the smallest base at L and at the extended context.
    note : str
        What the smallest bases mean and where they were not scanned.
    """

    smallest_base_at_context: float | None
    smallest_base_at_extended: float | None
    passes_at_context: bool
    passes_at_extended: bool
    passes_scaled_at_extended: bool
    min_kernel: dict[str, MinKernel]
    fit_at_context: float
    fit_at_extended: float
    note: str


@dataclass(frozen=True)
class LiuResult(Record):
    """Liu et al. 2023: the critical dimension, :math:`T_{extra}`, and the bands that turn within the contexts.

    Attributes
    ----------
    critical_dimension : int
        :math:`d_{extra}` at L for the layer's base (Eq. 8).
    extrapolation_bound : float
        :math:`T_{extra}`, the period of the critical band (Eq. 9).
    bands_turned_within_context : int
        Unscaled bands that complete a turn within L.
    bands_turned_within_context_scaled, bands_turned_within_extended_scaled : int
        Scaled bands that complete a turn within L and within the extended context.
    bands : int
        Rotary bands (rotary dimension / 2).
    """

    critical_dimension: int
    extrapolation_bound: float
    bands_turned_within_context: int
    bands_turned_within_context_scaled: int
    bands_turned_within_extended_scaled: int
    bands: int


@dataclass(frozen=True)
class RoformerCurve(Record):
    """RoFormer's relative bound :math:`\\tfrac2d\\sum_j|S_j|` at log-spaced distances.

    Attributes
    ----------
    distances : list of int
        The distances (0 first).
    relative_bound : list of float
        The bound at each.
    """

    distances: list
    relative_bound: list


@dataclass(frozen=True)
class Temperatures(Record):
    """The factor on the attention logits at each length, per method
    (:func:`petheory.bounds.long_context.attention_temperatures`), and this layer's own rotary logit factor.

    Attributes
    ----------
    scale : float
        The scaling's factor s (1 unscaled).
    rotary_logit_factor : float
        The layer's own factor on cos/sin.
    lengths : list of int
        The lengths (L, the extended context, N; ascending, each once).
    yarn, longrope, llama4, ssmax : list of float
        Each method's logit factor at each length.
    query_scale : list of float or None
        The layer's own query scale at the last position of each length; None for a layer without one.
    query_scale_kind : str or None
        Its kind (:data:`petheory.scheme.TEMPERATURES`).
    """

    scale: float
    rotary_logit_factor: float
    lengths: list
    yarn: list
    longrope: list
    llama4: list
    ssmax: list
    query_scale: list | None = None
    query_scale_kind: str | None = None


@dataclass(frozen=True)
class LongContextSection(Record):
    """The long-context theory for one rotary layer kind (:func:`long_context_section`).

    Attributes
    ----------
    rotary_dim : int
        The rotated dimensions r.
    base : float
        The RoPE base.
    context : int
        L (a sliding or chunked kind's span within it).
    extended_context : int
        The context the model claims.
    extended_from : str or None
        Where the extended context comes from when it is not ``max_position_embeddings``.
    length : int
        The length the RoFormer curve and the temperatures are evaluated to.
    encoding : str
        The registry entry.
    men : MenResult
        Men et al. 2024's base bound.
    liu : LiuResult
        Liu et al. 2023's critical dimension.
    roformer : RoformerCurve
        RoFormer's relative bound.
    temperature : Temperatures
        The logit factors per method and length.
    supported : SupportedContext or None
        The largest context each theory supports (:func:`supported_context`), from the same frequencies and critical
        dimension; the report prints its line beside the section. Not in the JSON.
    """

    rotary_dim: int
    base: float
    context: int
    extended_context: int
    extended_from: str | None
    length: int
    encoding: str
    men: MenResult
    liu: LiuResult
    roformer: RoformerCurve
    temperature: Temperatures
    supported: SupportedContext | None = item(default=None, json=False)

    def lines(self, *, window: bool = False) -> list[str]:
        """The section as short Markdown-friendly lines, for the terminal and the report.

        Parameters
        ----------
        window : bool
            ``context`` is a sliding or chunked layer's span, not the pre-training context: the lines call it W (so
            that L means the pre-training context everywhere in a report section).

        Returns
        -------
        list of str
            One Markdown list item (or sub-item) a line.

        Examples
        --------
        >>> from petheory.scheme import Positions
        >>> s = long_context_section(Positions("rotary", "rope", {"base": 1e4}, 64), context=512,
        ...                          extended_context=512, length=512)
        >>> s.lines()[0].startswith("- Men et al. 2024 (B_m = sum_i cos(m theta_i) >= 0")
        True
        """
        men, liu, t = self.men, self.liu, self.temperature
        L, Lx, b = self.context, self.extended_context, self.base

        def verdict(ok):
            return "passes" if ok else "fails"

        def g(x):
            return f"not scanned (above {MEN_SCAN_MAX:,} positions; men_smallest_base computes it)" if x is None else f"{x:.3g}"

        pl, sx = men.min_kernel["plain_L"], men.min_kernel["scaled_Lx"]
        c = "W" if window else "L"
        where = (f"the window W = {L:,} positions (its queries see no farther)" if window else
                 f"the pre-training context L = {L:,} positions")
        out = [f"- Men et al. 2024 (B_m = sum_i cos(m theta_i) >= 0 for all 0 <= m <= {c}): base {b:g} vs the smallest "
               f"passing base at {where}: {g(men.smallest_base_at_context)}; this "
               f"base {verdict(men.passes_at_context)} at {c} (min B_m {pl.value:.3g} at m = {pl.at:,})"]
        if men.smallest_base_at_context is not None and b >= men.smallest_base_at_context and not men.passes_at_context:
            out.append(f"  - above the smallest passing base at {c} and still failing there: passing bases are not closed "
                       "upwards (men2024.base_bounds_context#every_larger_base_passes)")
        if Lx != L:
            src = f" ({self.extended_from})" if self.extended_from else ""
            out.append(f"  - at the extended context {Lx:,}{src}: smallest passing base "
                       f"{g(men.smallest_base_at_extended)}; the unscaled base {verdict(men.passes_at_extended)}, the "
                       f"model's scaled frequencies {'pass' if men.passes_scaled_at_extended else 'fail'} (min B_m "
                       f"{sx.value:.3g} at m = {sx.at:,})")
        out.append(f"- Liu et al. 2023: critical dimension d_extra = {liu.critical_dimension} of {self.rotary_dim} "
                   f"rotary dims ({liu.bands_turned_within_context} of {liu.bands} bands make a full turn within {c}); "
                   f"T_extra = 2 pi b^(d_extra/d) = {liu.extrapolation_bound:,.0f} positions, the period of the first "
                   f"band that does not (past it that band shows angles unseen in training); with the model's scaling, "
                   f"{liu.bands_turned_within_context_scaled} bands turn within {c} and "
                   f"{liu.bands_turned_within_extended_scaled} within {Lx:,}")
        d, rb = self.roformer.distances, self.roformer.relative_bound
        picks = sorted({0, len(d) // 4, len(d) // 2, 3 * len(d) // 4, len(d) - 1})
        ups = int(np.sum(np.diff(rb) > 0))
        out.append("- RoFormer relative bound (2/d) sum_j |S_j| (a bound on |q^T R k| per unit of max|h_{i+1} - h_i|): "
                   + ", ".join(f"{rb[i]:.3g} at distance {d[i]:,}" for i in picks)
                   + f" (it rises between {ups} of {len(rb) - 1} consecutive sampled distances: not monotone)" * (ups > 0))
        lengths = t.lengths
        role = {n: ", ".join(r for r, x in ((c, L), ("N", self.length), ("extended", Lx)) if x == n)
                for n in lengths}
        at = ", ".join(f"{n:,} ({role[n]})" if role[n] else f"{n:,}" for n in lengths)
        l4 = ", ".join(f"{x:.4g}" for x in t.llama4)
        ss = ", ".join(f"{x:.4g}" for x in t.ssmax)
        own = (f"this layer's rotary logit factor {t.rotary_logit_factor:.4g} (the same at every n)"
               if t.query_scale is None else
               f"this layer's rotary logit factor {t.rotary_logit_factor:.4g} times its query scale ({t.query_scale_kind}) "
               + ", ".join(f"{x:.4g}" for x in t.query_scale) + ", growing with the query's position")
        out.append(f"- attention temperature (factor on the logits) at n = {at}: {own}; for comparison at scale s = {t.scale:g}: YaRN "
                   f"{t.yarn[0]:.4g}, LongRoPE {t.longrope[0]:.4g} (both constant in n), Llama 4's NoPE-layer factor "
                   f"{l4}, SSMax s ln n at s = 1 {ss}")
        return out


@validate_params({"context": _AT_LEAST_2, "extended_context": _AT_LEAST_2, "length": _AT_LEAST_2})
def long_context_section(positions, *, context: int, extended_context: int, length: int, n_curve: int = 64,
                         scan_max: int | None = MEN_SCAN_MAX, extended_from: str | None = None,
                         temperature=None) -> LongContextSection:
    r"""The long-context theory applied to one rotary layer kind of a model.

    Parameters
    ----------
    positions : petheory.scheme.Positions
        A rotary layer's positions (registry entry + parameters + d).
    context : int
        The pre-training context L (``original_max_position_embeddings`` of a scaled model).
    extended_context : int
        The context the model claims (``max_position_embeddings``).
    length : int
        The length the RoFormer curve and the temperatures are evaluated to.
    n_curve : int
        Points of the RoFormer curve (log-spaced distances).
    scan_max : int or None
        The longest context at which the smallest passing base is scanned (None: always).
    extended_from : str or None
        Where ``extended_context`` comes from when it is not ``max_position_embeddings`` (printed beside it).
    temperature : petheory.scheme.Temperature or None
        The layer's own position-dependent query scale (``Layer.temperature``), evaluated at the last position of
        each length; None: the layer has none.

    Returns
    -------
    LongContextSection
        ``men``: the model's base, the smallest passing base at L and at the extended context, and
        whether the model's (effective, scaled) frequencies pass at each (min :math:`B_m` and where);
        ``liu``: critical dimension at L, the bound :math:`T_{extra}` for the model's base, and the
        bands that complete a turn within L before/after scaling; ``roformer``: the relative bound
        curve; ``temperature``: the logit factor at each length (``yarn``/``longrope`` from the
        scaling, Scalable-Softmax's :math:`\ln n` for comparison); ``supported``: :func:`supported_context` at L
        and the extended context.

    Raises
    ------
    petheory.errors.ParameterError
        A context below 2 or an extended context below it, a length below 2.
    petheory.errors.ValidationError
        Positions that are not rotary.

    Notes
    -----
    Men's and Liu's statements are about plain RoPE with base b: the smallest bases are for the
    layer's rotary dimension r; a scaled model's *effective* frequencies are tested directly
    (``passes_scaled``), as no single base describes them. For a sliding-window or chunked layer
    pass the span's reach (``Span.reach``) as ``context`` and ``extended_context``: its queries
    never see farther keys. Cost: dominated by :func:`~petheory.bounds.men_base.men_smallest_base` (cached), about 4 CPU
    seconds at 128k (r = 128).

    References
    ----------
    men2024 (the base bounds the context length, Eq. 5's :math:`B_m`); Liu et al. 2023, arXiv 2310.05209, §3.3,
    Eqs. 8-9; Su et al. 2021 (RoFormer), §3.4.3; Peng et al. 2023 (YaRN), Eq. 22; Nakanishi 2025, Eq. 2.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> p = Positions("rotary", "rope", {"base": 5e4, "pairing": "half"}, 64)
    >>> s = long_context_section(p, context=1024, extended_context=1024, length=1024)
    >>> s.men.passes_at_context, s.liu.critical_dimension
    (True, 32)
    """
    from petheory.bounds.long_context import (attention_temperatures, liu_critical_dimension, liu_extrapolation_bound,
                                              roformer_relative_bound)
    from petheory.bounds.men_base import MEN_FIT, men_min_kernel, men_smallest_base
    from petheory.encodings import rope_frequencies
    from petheory.encodings.rope_scaling import band_frequencies

    if getattr(positions, "kind", None) != "rotary":
        raise ValidationError(f"long_context_section takes a rotary layer's Positions, got {getattr(positions, 'kind', positions)!r}")
    L, Lx, n = int(context), int(extended_context), int(length)
    if Lx < L:  # a rule between two parameters
        raise ParameterError("extended_context", f">= context ({L})", extended_context, owner=long_context_section)
    params = dict(positions.params)
    if positions.encoding == "mla_rope":
        r = int(params.get("rope_dim"))
    else:
        r = int(params.get("rotary_dim") or positions.d)
    base = float(params.get("base", 10000.0))
    w_plain = rope_frequencies(r, base=base)
    w_scaled, factor = band_frequencies(positions.encoding, positions.d, Lx, **params)

    def smallest(N):  # None past scan_max: the scan is ~3-4 CPU s at 128k, ~10 at 1M (r = 128)
        return men_smallest_base(r, N) if scan_max is None or N <= scan_max else None

    b_L, b_Lx = smallest(L), smallest(Lx)
    mins = {k: men_min_kernel(w, N, stop_below=None) for k, (w, N) in
            {"plain_L": (w_plain, L), "plain_Lx": (w_plain, Lx), "scaled_Lx": (w_scaled, Lx)}.items()}
    de = liu_critical_dimension(r, base, L)

    def turned(w, N):
        return int(np.sum(2 * math.pi / np.maximum(w, 1e-300) < N))

    dist = np.unique(np.round(np.geomspace(1, n, n_curve)).astype(int))
    rb = roformer_relative_bound(np.concatenate([[0], dist]), w_scaled)
    scale = float(params.get("scale", params.get("factor", 1.0)) or 1.0)
    temps = attention_temperatures(sorted({L, Lx, n}), scale=max(scale, 1.0), context=L)  # ascending, each once
    men = MenResult(
        b_L, b_Lx, mins["plain_L"][0] >= 0, mins["plain_Lx"][0] >= 0, mins["scaled_Lx"][0] >= 0,
        {k: MinKernel(m[0], m[1]) for k, m in mins.items()}, MEN_FIT[0] * L ** MEN_FIT[1], MEN_FIT[0] * Lx ** MEN_FIT[1],
        "smallest base with B_m >= 0 for all 0 <= m <= L, for plain RoPE of this rotary_dim; larger "
        "bases can fail again (men2024.base_bounds_context#every_larger_base_passes)"
        + ("" if b_Lx is not None and b_L is not None else
           f"; not scanned above {scan_max:,} positions (minutes of CPU): "
           "petheory.bounds.men_base.men_smallest_base(d, L) computes it"))
    liu = LiuResult(de, liu_extrapolation_bound(r, de, base), turned(w_plain, L), turned(w_scaled, L),
                    turned(w_scaled, Lx), r // 2)
    return LongContextSection(r, base, L, Lx, extended_from, n, positions.encoding, men, liu,
                              RoformerCurve([0] + dist.tolist(), rb.tolist()),
                              Temperatures(scale, factor, **temps, **_query_scale(temperature, temps["lengths"])),
                              _supported(w_scaled, r, de, L, Lx, min(4 * max(Lx, L), 1 << 22)))


def _query_scale(temperature, lengths) -> dict:
    """The layer's own query scale at the last position of each length, for :class:`Temperatures`."""
    if temperature is None or temperature.kind == "constant":
        return {}
    return {"query_scale": temperature.at(np.asarray(lengths) - 1).tolist(), "query_scale_kind": temperature.kind}


@validate_params({"context": _AT_LEAST_2, "extended": [Interval(Integral, 1, None)], "cap": [*_AT_LEAST_2, None]})
def supported_context(pos: Positions, *, context: int, extended: int, cap: int | None = None) -> SupportedContext:
    r"""The largest context each theory supports for one rotary layer kind as configured.

    Men: the largest M with :math:`B_m \ge 0` for every :math:`0\le m\le M` (frequencies at ``extended``; searched to
    ``cap``, default 4x ``extended`` but at most :math:`2^{22}`); Liu: the period of the critical band (:math:`d_{extra}` from the base
    and L) under the configured frequencies (:math:`T_{extra}` for plain RoPE).

    Parameters
    ----------
    pos : Positions
        A rotary layer kind.
    context : int
        L, the original context (Liu's critical dimension counts the bands turned within it).
    extended : int
        The advertised context the frequencies are evaluated at (a dynamic scaling depends on it).
    cap : int, optional
        How far Men's property is searched.

    Returns
    -------
    SupportedContext
        Men's largest passing M (None when no m up to ``cap`` fails), Liu's :math:`T_{extra}` and critical dimension.

    Raises
    ------
    petheory.errors.ParameterError
        A ``context`` or ``cap`` below 2, an ``extended`` below 1.
    ValidationError
        A layer whose kernel is not a sum of cosines (no rotary bands).

    References
    ----------
    Men et al. (2024), Eq. 11 (:math:`B_m`); Liu et al. (2023), Eq. 9 (:math:`T_{extra}`).

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> s = supported_context(Positions("rotary", "rope", {"base": 1e4}, 128), context=4096, extended=4096)
    >>> s.men_largest, round(s.liu_t_extra)
    (1706, 4712)
    """
    L, Lx = int(context), int(extended)
    bands = K.rotary_bands(pos, Lx)
    if bands is None:
        raise ValidationError(f"supported_context takes a rotary layer whose kernel is a sum of cosines, got {pos.encoding}")
    r = int(pos.params.get("rotary_dim") or pos.d)
    n = int(cap) if cap is not None else min(4 * max(Lx, L), 1 << 22)
    de = lc.liu_critical_dimension(r, float(pos.params.get("base", 10000.0)), L)
    return _supported(bands[0], r, de, L, Lx, n)


def _supported(w: np.ndarray, r: int, de: int, L: int, Lx: int, n: int) -> SupportedContext:
    """:func:`supported_context` from the frequencies at the advertised context, r, Liu's critical dimension, L, that
    context and how far Men's property is searched (all checked)."""
    a = K.rotary_column(w, n + 1, 1.0)
    neg = np.flatnonzero(a < -(r / 2) * (n + 6) * float(np.finfo(np.float64).eps))
    t = math.inf if de >= r else 2 * math.pi / w[de // 2]
    return SupportedContext(men_largest=int(neg[0]) - 1 if neg.size else None, men_searched_to=n, liu_t_extra=t,
                            critical_dimension=de, context=L, advertised=Lx)
