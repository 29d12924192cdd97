r"""``plan``: which base, which factor for a target context N -- the candidates, each checked by the theory.

For every rotary full-attention layer kind of a model (a Gemma-style model scales only its global
layers; its sliding layers never see farther than their window), with base b, rotary dimension r,
original context L and target N (s = N / L), the candidates (:func:`candidates`):

* ``as_configured``: the model's own positions at N;
* ``base_men``: plain RoPE with the first base >= b whose Men kernel :math:`B_m=\sum_t\cos(m\theta_t)` stays
  non-negative for every :math:`0\le m\le N` (Men et al. 2024 §4), by
  :func:`~petheory.bounds.men_search.men_first_passing_base`: a log grid (64 a decade) first, then every base below the
  grid's certified failing or the first passing one found (the passing set has islands narrower than any grid); when
  the search budget runs out first, the base found is labelled as not certified;
* ``base_liu``: plain RoPE with the smallest base whose Liu bound reaches N,
  :math:`T_{extra} = 2\pi\beta^{d_{extra}/r} \ge N` (Liu et al. 2023 Eq. 9 solved for :math:`\beta`:
  :func:`liu_base_for_context`), :math:`d_{extra}` from b and L (Eq. 8);
* ``pi`` (linear, factor s), ``ntk`` (NTK-aware, base :math:`b s^{r/(r-2)}`: plain RoPE with that base),
  ``dynamic`` (transformers' dynamic NTK with factor 1: plain RoPE up to L, at N exactly the NTK base
  of s = N/L), ``yarn`` (factor s over L, beta_fast 32, beta_slow 1, attention factor 0.1 ln s + 1),
  ``llama3`` (factor s over L, low 1, high 4);
* ``<pi|dynamic|yarn|llama3>_evidence_tf`` / ``_ft``: the same block with the factor a published run used near s
  (:func:`~petheory.analyses.plan_answers.evidence_factors`: of the evidence table's rows of that method and regime at
  the extension ratio nearest s, the best RULER score, its factor / extension ratio times s), where a row supports a
  factor no other candidate has; printed with the row, its score and its source.

Each is analysed at N (:func:`analyse`) with the library's own formulas, and given three checks:

* ``men``: :math:`B_m \ge 0` for every :math:`0\le m\le N` (a value below :math:`-(r/2)(N+6)\epsilon`,
  the rounding of the column, is a failure; the first such m is reported);
* ``liu``: the period under the candidate's frequencies of the critical band (the first band that did
  not complete a turn within L under the pre-training ladder) is >= N: Liu's :math:`T_{extra}` for a
  base-tuned candidate, the same band's period for the others;
* ``phase``: no band takes, at a distance up to N, an angle its pre-training ladder never reached at a
  distance up to L (a band that made a full turn within L has seen every angle). Distances run to N and L
  inclusive, Men's range of m (``petheory report``'s band table counts positions 0..N-1 instead).

Also reported: bands kept / interpolated / sped up, turns over L and N, the logit factor, YaRN's
:math:`(0.1\ln s+1)^2` and Scalable-Softmax's growth :math:`\ln N/\ln L`, the kernel's decay
(:math:`\max|a_k|/a_0` within [L/2, L) and beyond L), the certified extreme eigenvalues of the position
kernel at N against those of the pre-training ladder at L.

Two recommendations, each with what the published evidence says it can expect at N (:mod:`petheory.evidence`):
a training-free one (what to set at inference) and a fine-tuning one (what to train with at N). The rule is fixed
in advance, not tuned to the models: per regime, each candidate's method family (a raised base, NTK-aware and
dynamic NTK are the ``base`` family; YaRN, PI, Llama 3; plain RoPE as trained is ``none``) gets the expectation of
:func:`petheory.evidence.expectation.expect` at s = N / L (the median and range of the RULER score over the table's
rows of that regime and family within x2 of s, with its leave-one-source-out error), and the candidate with the
highest median is recommended (ties: more rows, then more rows of the candidate's own method, then the order of
:data:`CANDIDATES`); where no candidate's family has a row, the answer is "no evidence", never an extrapolation.
The three checks stay in the table as predictors, each with its measured accuracy on the table's rows beside it
(:func:`predictor_lines`; the claims ``men2024.base_bounds_extension_outcome``,
``liu2023.extrapolation_bound_predicts_extension_outcome`` and ``petheory2026.phase_range_predicts_extension_outcome``
decide whether they predict anything). N <= L is refused, with the evidence that an extension method added at the
trained length does not help (STRING's table).

The record (:mod:`petheory.analyses.plan_record`) renders itself; the configs a runtime reads come
from :mod:`petheory.analyses.runtime_config`.
"""

from __future__ import annotations

import dataclasses
import math
import time
from numbers import Integral

import numpy as np

from petheory import _validate as v
from petheory._validate import InstanceOf, Interval, validate_params
from petheory import encodings as enc
from petheory.analyses import kernel as K
from petheory.analyses.plan_answers import answer, at_own_length, evidence_candidates, predictor_lines
from petheory.analyses.plan_record import Answer, CandidatePlan, Check, KindPlan, PlanRecord
from petheory.analyses.runtime_config import PER_LAYER_TYPE, runtime_configs
from petheory.bounds import long_context as lc
from petheory.bounds import men_search
from petheory.errors import ParameterError, ValidationError
from petheory.evidence import expectation as ev
from petheory.evidence import table as ev_table
from petheory.scheme import Layer, Positions, Scheme

__all__ = ["CANDIDATES", "CHECKS", "candidates", "analyse", "plan", "original_context", "liu_base_for_context"]

#: The candidates, in the order they are listed (the tie-break of the recommendation follows it too).
CANDIDATES = ("as_configured", "base_men", "base_liu", "pi", "ntk", "dynamic", "yarn", "llama3", "llama3_x8", "base_1e6",
              *(f"{c}_evidence_{g}" for c in ("pi", "dynamic", "yarn", "llama3") for g in ("tf", "ft")))
#: The checks each candidate gets at N.
CHECKS = ("men", "liu", "phase")
#: Registry entries a plan scales (plain rotary layers; MLA's decoupled RoPE and xPos are not planned).
PLANNED = ("rope", "rope_pi", "rope_ntk", "rope_yarn", "rope_llama3", "rope_longrope", "rope_dynamic")
#: Men's base grid of the ``base_men`` candidate's first pass: points per decade (men_smallest_base's own scan uses 512).
BASE_GRID = 64
#: The ``base_men`` refinement's budget in cosines (:func:`~petheory.bounds.men_search.men_first_passing_base`): a count,
#: not seconds, so that a plan is the same on every machine. Enough to certify the first passing base at N = 4k at
#: d = 128; beyond, the base found is printed as not certified.
MEN_WORK = 6e7
#: The grid pass's budget in cosines for a ``base_grid`` finer than the default (``max_grid_work`` of
#: :func:`~petheory.bounds.men_search.men_first_passing_base`): at r = 128, about 450 grid bases below the coarse
#: grid's first passing one. Measured for Qwen2.5-7B to 128k at load 9 on 2 cores: 900 a decade (2x this) 10.7 s
#: wall against 2.8 s at the default 64; 4,000 a decade 32 s; 400,000 a decade (388k bases, about half an hour) is
#: refused in 4 s. A count, not seconds: the same grids fit on every machine.
MEN_GRID_WORK = 3e7
#: The longest target planned: the Men column at N is N + 1 numbers per candidate, and the base search scans
#: O(N r) per base it cannot reject early (about a minute at 16M on one core).
MAX_TARGET = 1 << 24
_EPS = float(np.finfo(np.float64).eps)
#: Original contexts a model card states where the config does not: (model type, max_position_embeddings, sliding
#: window or None) -> (L, where it is stated). Used only when the config has no original_max_position_embeddings.
CARD_CONTEXT = {
    **{(mt, 40960, None): (32768, "the Qwen3 model cards (32,768 tokens natively; their YaRN block counts from "
                                  "original_max_position_embeddings 32,768)") for mt in ("qwen3", "qwen3_moe")},
    ("mistral", 32768, 4096): (8192, "Mistral 7B (Jiang et al. 2023, arXiv 2310.06825) Table 1: context_len 8192, "
                                     "window_size 4096"),
}
#: Shipped conventions offered beside the N/L factors: Llama 3.1's factor 8 (meta-llama/Llama-3.1-8B config.json:
#: llama3, factor 8, low 1, high 4 over 8,192, for 131,072 = 16 x 8,192), offered to Llama models and specs when s > 8; Mistral 7B v0.2's base
#: :math:`10^6` with the window removed (mistralai/Mistral-7B-v0.2: rope_theta 1e6, sliding_window null, 32k), offered
#: when a plan removes the window of an all-sliding model whose base is below it.
LLAMA31_FACTOR = 8.0
#: Families whose transformers config class accepts only these rope_type values (its validation raises on the
#: others): their plans leave out the candidates it would refuse. Phi-3's ``validate_rope`` takes longrope only as
#: a scaling; Cosmos3 Edge's ``validate_architecture`` requires default (tests/analyses/test_plan_runtime.py's sweep).
ROPE_TYPES = {**dict.fromkeys(("phi3", "phimoe", "phi4_multimodal"), ("default", "longrope")),
              **dict.fromkeys(("cosmos3_edge", "cosmos3_edge_text"), ("default",))}
#: What transformers' ``proportional`` RoPE (Gemma 4's and LFM3's full layers: the whole head's ladder, zero frequency
#: past ``partial_rotary_factor``) can be given: a base and a linear factor (``_compute_proportional_rope_parameters``
#: divides by ``factor`` and reads nothing else); another rope_type on that layer would rotate other coordinate pairs.
PROPORTIONAL_TYPES = ("default", "linear")
_ROPE_TYPE = {"rope": "default", "rope_pi": "linear", "rope_dynamic": "dynamic", "rope_yarn": "yarn",
              "rope_llama3": "llama3", "rope_longrope": "longrope"}
MISTRAL_V02_BASE = 1e6


def liu_base_for_context(d: int, d_extra: int, context: int) -> float:
    r"""The base :math:`\beta` whose Liu bound is ``context``: :math:`2\pi\beta^{d_{extra}/d} = N`, i.e.
    :math:`\beta = (N/2\pi)^{d/d_{extra}}` (Liu et al. 2023 Eq. 9 solved for :math:`\beta`).

    Inverse of :func:`petheory.bounds.long_context.liu_extrapolation_bound`; needs ``0 < d_extra < d``
    (with every band turned in training there is no critical band, with none no bound).

    Parameters
    ----------
    d : int
        The rotary dimension.
    d_extra : int
        Liu's critical dimension (twice the bands that make a full turn within L), ``0 < d_extra < d``.
    context : int
        The context N the base is for.

    Returns
    -------
    float
        The base :math:`\beta`.

    Raises
    ------
    ValidationError
        ``d_extra`` outside ``(0, d)``, or a non-positive ``context``.

    References
    ----------
    Liu, X. et al. (2023). Scaling Laws of RoPE-based Extrapolation. arXiv:2310.05209, Eq. 9.

    Examples
    --------
    >>> from petheory.bounds.long_context import liu_extrapolation_bound
    >>> b = liu_base_for_context(128, 92, 32768)
    >>> round(liu_extrapolation_bound(128, 92, b))
    32768
    """
    d = v.even("d", d)
    de = v.integer("d_extra", d_extra, minimum=1, maximum=d - 1)
    n = v.integer("context", context, minimum=7)  # > 2 pi: a base > 1
    return (n / (2 * math.pi)) ** (d / de)


def _rotary_dim(pos: Positions) -> int:
    return int(pos.params.get("rotary_dim") or pos.d)


def _ladder(pos: Positions, base: float) -> np.ndarray:
    """Plain RoPE's frequencies for ``pos``'s head and rotary dimensions at ``base``."""
    return enc.rope_frequencies(pos.d, base=base, rotary_dim=pos.params.get("rotary_dim"))


def _keep(pos: Positions) -> dict:
    return {k: pos.params[k] for k in ("pairing", "rotary_dim") if k in pos.params}


def candidates(pos: Positions, *, context: int, length: int, base_grid: int = BASE_GRID,
               window_removed: bool = False, family: str = "spec") -> list[tuple]:
    """The candidates of one rotary layer kind: a list of ``(name, label, encoding, params, note)``.

    Parameters
    ----------
    pos : Positions
        A rotary layer kind of the scheme.
    context : int
        L, the original context.
    length : int
        N, the target context (> L).
    base_grid : int, optional
        Bases per decade of the ``base_men`` search's first pass.
    window_removed : bool, optional
        The layer slides and the plan removes its window (then Mistral 7B v0.2's base is offered).
    family : str, optional
        The scheme's model type (``spec`` for a registry RoPE): Llama 3.1's factor is offered to ``llama`` and ``spec``.

    Returns
    -------
    list of tuple
        ``(name, label, encoding, params, note)`` per candidate: as configured, Men's and Liu's bases, PI, NTK,
        dynamic NTK, YaRN (with the model's own beta_fast, beta_slow and truncate where it ships YaRN: gpt-oss) and
        llama3 at s = N/L; Llama 3.1's factor 8 where s > 8 (Llama models and specs); PI, dynamic NTK, YaRN and
        llama3 with a factor from the evidence table where a row supports one that no other candidate has
        (``<name>_evidence_tf`` / ``_ft``: :func:`~petheory.analyses.plan_answers.evidence_candidates`); Mistral 7B
        v0.2's base where a window is removed.

    Raises
    ------
    ParameterError
        A ``base_grid`` whose grid pass would exceed its budget (:data:`MEN_GRID_WORK`), naming the most that fit (said
        of :func:`plan`'s ``base_grid``).
    ValidationError
        N not above L, or a layer whose frequencies no candidate can rescale.

    References
    ----------
    Men, X. et al. (2024). Base of RoPE Bounds Context Length, Eq. 11; Liu et al. (2023), Eq. 9; Peng, B. et al.
    (2023). YaRN, Eqs. 17-20; Chen, S. et al. (2023). Position Interpolation.

    Examples
    --------
    >>> p = Positions("rotary", "rope", {"base": 1e4, "pairing": "half"}, 64)
    >>> [c[0] for c in candidates(p, context=1024, length=4096)]
    ['as_configured', 'base_men', 'base_liu', 'pi', 'ntk', 'dynamic', 'yarn', 'llama3', 'dynamic_evidence_tf', 'dynamic_evidence_ft']
    """
    if pos.kind != "rotary" or pos.encoding not in PLANNED:
        raise ValidationError(f"plan scales plain rotary layers ({', '.join(PLANNED)}); this layer is {pos.encoding or pos.kind}")
    L = v.integer("context", context, minimum=2)
    N = v.integer("length", length, minimum=L + 1)
    b, r, s = float(pos.params.get("base", 10000.0)), _rotary_dim(pos), N / L
    keep = _keep(pos)
    out = [("as_configured", f"{pos.encoding} as the config has it" + (", window removed" if window_removed else ""),
            pos.encoding, dict(pos.params), "")]
    # Men: the model's own base first (no raise needed), then men_smallest_base's log grid (at base_grid a decade) up
    grid = v.integer("base_grid", base_grid, minimum=1)
    try:
        found = men_search.men_first_passing_base(b, d=r, context=N, per_decade=grid, max_work=MEN_WORK,
                                                  max_grid_work=MEN_GRID_WORK)
    except ParameterError as exc:  # the grid pass's budget: said of plan's base_grid, the keyword the caller gave
        if exc.name != "per_decade":
            raise
        raise ParameterError("base_grid", exc.expected, base_grid, owner=plan) from None
    bm = found["base"]
    if bm is not None:
        lo, _ = found["bracket"]
        out.append(("base_men", f"rope_theta {bm:.5g}", "rope", {"base": bm, **keep},
                    "the model's base already passes" if bm == b else
                    (f"the first passing base >= {b:g}: every base in [{b:g}, {lo:.7g}) certified failing, {bm:.7g} passes "
                     "(men_first_passing_base: grid, then bracket and refine)" if found["certified"] else
                     f"the first passing base found (grid at {grid} a decade gave {found['grid_base']:.5g}, refined within "
                     f"the search budget): smaller passing islands between {b:g} and it are not excluded")
                    + (f"; {found['slivers']} intervals narrower than 1e-6 undecided" if found["slivers"] else "")))
    de = lc.liu_critical_dimension(r, b, L)
    if 0 < de < r:
        bl = max(b, liu_base_for_context(r, de, N))
        out.append(("base_liu", f"rope_theta {bl:.4g}", "rope", {"base": bl, **keep},
                    "the model's base already reaches N" if bl == b else
                    f"T_extra = 2 pi beta^(d_extra/r) = N with d_extra = {de} (Liu Eq. 9)"))
    # YaRN as the model ships it where it does (gpt-oss: truncate false; its betas), else transformers' defaults
    own = pos.params if pos.encoding == "rope_yarn" else {}
    yarn = {"beta": float(own.get("beta", 32.0)), "alpha": float(own.get("alpha", 1.0))}
    if own.get("truncate") is False:
        yarn["truncate"] = False
    yarn_label = "" if not own else f", beta_fast {yarn['beta']:g}, beta_slow {yarn['alpha']:g}" + (
        ", truncate false" if "truncate" in yarn else "")
    out += [
        ("pi", f"linear x{s:g}", "rope_pi", {"base": b, "scale": s, **keep}, ""),
        ("ntk", f"rope_theta {enc.ntk_base(b, s, r):.4g} (NTK-aware x{s:g})", "rope",
         {"base": enc.ntk_base(b, s, r), **keep}, "static NTK-aware scaling is plain RoPE with base b s^(r/(r-2))"),
        ("dynamic", "dynamic NTK, factor 1", "rope_dynamic", {"base": b, "scale": 1.0, "n_max": L, **keep},
         "transformers' dynamic NTK with factor f has base b (f n/L - f + 1)^(r/(r-2)) at length n: f = 1 is plain "
         "RoPE up to L and the NTK base of s = N/L at N (f = s would divide the slowest band by s^2 - s + 1 there)"),
        ("yarn", f"YaRN x{s:g} over {L:,}{yarn_label}", "rope_yarn",
         {"base": b, "scale": s, "n_max": L, **yarn, "ramp": "code", **keep},
         "beta_fast, beta_slow and truncate as the model's own YaRN" if own else ""),
        ("llama3", f"llama3 x{s:g} over {L:,}", "rope_llama3",
         {"base": b, "scale": s, "n_max": L, "low_freq_factor": 1.0, "high_freq_factor": 4.0, **keep}, ""),
    ]
    if s > LLAMA31_FACTOR and family in ("llama", "spec"):
        out.append(("llama3_x8", f"llama3 x{LLAMA31_FACTOR:g} over {L:,} (Llama 3.1's shipped factor)", "rope_llama3",
                    {"base": b, "scale": LLAMA31_FACTOR, "n_max": L, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                     **keep}, "Meta ships Llama 3.1 with factor 8 over 8,192 for 131,072 (s = 16), not s"))
    out += evidence_candidates(out, s, L)
    if window_removed and b < MISTRAL_V02_BASE:
        out.append(("base_1e6", f"rope_theta {MISTRAL_V02_BASE:g}, window removed (Mistral 7B v0.2's)", "rope",
                    {"base": MISTRAL_V02_BASE, **keep}, "Mistral 7B v0.2 over v0.1: sliding window removed, rope_theta "
                    "1e6, 32k context (its config.json)"))
    return out


def _extremes(w, n: int, factor: float) -> tuple[float, float]:
    e = K.low_rank_extremes(w, n, factor)
    return float(e.min.value), float(e.max.value)


def _max_ratio(a: np.ndarray, lo: int, hi: int) -> float | None:
    return float(np.max(np.abs(a[lo:hi])) / a[0]) if hi > lo else None


def analyse(pos: Positions, cand: tuple, *, context: int, length: int) -> CandidatePlan:
    """One candidate (from :func:`candidates`) at N: its checks and what it does (see the module docstring).

    Parameters
    ----------
    pos : Positions
        The rotary layer kind as configured.
    cand : tuple
        One entry of :func:`candidates`.
    context : int
        L, the original context.
    length : int
        N, the target context.

    Returns
    -------
    CandidatePlan
        Men's, Liu's and the phase check at N, the bands kept / interpolated / unseen, the logit factors, the
        kernel's decay and the extreme eigenvalues at L and N.

    Examples
    --------
    >>> p = Positions("rotary", "rope", {"base": 1e4}, 64)
    >>> c = analyse(p, candidates(p, context=1024, length=4096)[0], context=1024, length=4096)
    >>> c.name, [x.name for x in c.checks]
    ('as_configured', ['men', 'liu', 'phase'])
    """
    name, label, encoding, params, note = cand
    L, N = int(context), int(length)
    b, r = float(pos.params.get("base", 10000.0)), _rotary_dim(pos)
    p = Positions("rotary", encoding, params, pos.d, logit_factor=pos.logit_factor)
    w, F = K.rotary_bands(p, N)  # at N: dynamic and LongRoPE depend on the length
    rotary_factor = F / pos.logit_factor
    w0 = _ladder(pos, b)  # the pre-training ladder
    # Men: the unit-content column B_m, m = 0..N (the same sum as men_kernel, by angle addition)
    a = K.rotary_column(w, N + 1, 1.0)
    tol = (r / 2) * (N + 6) * _EPS  # rotary_column's rounding (its Notes); also men_min_kernel's budget
    at = int(np.argmin(a))
    neg = np.flatnonzero(a < -tol)
    first = int(neg[0]) if neg.size else None
    men = Check("men", first is None, f"min B_m = {a[at]:.4g} at m = {at:,}" +
                (f"; first B_m < 0 at m = {first:,}" if first is not None else f" (>= -{tol:.1g}: non-negative to N)"))
    # Liu: the critical band (first not turned within L under the pre-training ladder) and its period now
    de = lc.liu_critical_dimension(r, b, L)
    period = math.inf if de >= r else 2 * math.pi / w[de // 2]
    # the period is 2 pi / fl(beta^(-2t/r)): pow and the reciprocal round by about |ln beta| eps < 64 eps relative, so a
    # base solved for T_extra = N (base_liu) lands within that of N
    liu = Check("liu", period >= N * (1 - 64 * _EPS), f"d_extra = {de} of {r}; critical band {de // 2}'s period "
                + ("unbounded (every band turned within L)" if math.isinf(period) else f"{period:,.0f}") + f" vs N = {N:,}")
    # phase: every angle at distances 0..N was reached at distances 0..L (Men's range of m) or the band turned
    seen_L = L * w0
    turned = seen_L >= 2 * math.pi
    seen = turned | (N * w <= seen_L * (1 + 8 * _EPS))
    out_of_range = int(np.sum(~seen))
    ratio = w / w0
    kept = int(np.sum(np.abs(ratio - 1) <= 1e-9))
    interp = int(np.sum(ratio < 1 - 1e-9))
    phase = Check("phase", out_of_range == 0, f"{out_of_range} of {w.size} bands reach angles unseen within L"
                  + (f" (from band {int(np.flatnonzero(~seen)[0])})" if out_of_range else ""))
    s = N / L
    temps = lc.attention_temperatures([L, N], scale=s, context=L)
    lam_L = _extremes(w0, L, pos.logit_factor)
    lam_N = _extremes(w, N, F)
    return CandidatePlan(
        name=name, label=label, encoding=encoding, params=dict(params), note=note, checks=(men, liu, phase),
        men_min=float(a[at]), men_min_at=at, men_first_failure=first, critical_dimension=de, critical_period=period,
        bands=int(w.size), bands_kept=kept, bands_interpolated=interp, bands_sped_up=int(w.size) - kept - interp,
        bands_out_of_range=out_of_range, turns_over_L=tuple(float(x) for x in L * w0 / (2 * math.pi)),
        turns_over_N=tuple(float(x) for x in N * w / (2 * math.pi)),
        log_change=float(np.sum(np.abs(np.log(ratio)))), rotary_logit_factor=float(rotary_factor),
        yarn_temperature=float(temps["yarn"][0]), ssmax_growth=float(temps["ssmax"][1] / temps["ssmax"][0]),
        decay_within_L=_max_ratio(a, max(1, L // 2), min(L, N + 1)), decay_beyond_L=_max_ratio(a, L, N + 1),
        lambda_at_L=lam_L, lambda_at_N=lam_N, frequencies=tuple(float(x) for x in w))


def _kind_plan(scheme: Scheme, layer: Layer, idx, *, length: int, context: int, base_grid: int,
               window_removed: bool = False) -> KindPlan:
    pos, span = layer.positions, layer.span
    head = dict(layers=tuple(idx), type=layer.type, span=str(span), encoding=pos.encoding or pos.kind)
    if pos.kind != "rotary":
        return KindPlan(**head, planned=False, note=f"{pos.kind}: no rotary positions to scale")
    if pos.encoding not in PLANNED:
        return KindPlan(**head, planned=False, note=f"{pos.encoding}: not planned (plan scales {', '.join(PLANNED)})")
    if window_removed:
        head["span"] = f"{span}, removed"
    elif span.kind != "full":
        reach = span.reach(length)
        c = analyse(pos, ("as_configured", f"{pos.encoding} as configured", pos.encoding, dict(pos.params), ""),
                    context=min(context, reach), length=reach)
        flat = ("" if scheme.source in PER_LAYER_TYPE else f"; {scheme.source}'s rotary module reads one flat "
                "rope_parameters, so these layers take each candidate's block too")
        return KindPlan(**head, planned=False, candidates=(c,),
                        note=f"{span} attention: its queries never see past {span.size:,} positions, so it keeps its "
                        f"positions (checked as configured at its span){flat}")
    allowed = ROPE_TYPES.get(scheme.source)
    why = f"transformers' {scheme.source} config accepts rope_type {' or '.join(allowed or ())} only"
    if pos.proportional:
        allowed, why = PROPORTIONAL_TYPES, ("this layer's proportional RoPE takes rope_theta and a linear factor only in "
                                            "transformers; another rope_type would rotate other coordinate pairs")
    offered = candidates(pos, context=context, length=length, base_grid=base_grid, window_removed=window_removed,
                         family=scheme.source)
    left_out = [c[0] for c in offered if allowed and c[0] != "as_configured" and _ROPE_TYPE[c[2]] not in allowed]
    cands = tuple(analyse(pos, c, context=context, length=length) for c in offered if c[0] not in left_out)
    b = float(pos.params.get("base", 10000.0))
    answers = tuple(answer(g, list(cands), b, length / context) for g in ev_table.REGIMES)
    note = (f"every layer slides ({span}): planned with the window removed (sliding_window null in every config "
            "below), as Mistral 7B v0.2 did over v0.1") if window_removed else ""
    if left_out:
        note = (note + "; " if note else "") + f"left out: {', '.join(left_out)} ({why})"
    return KindPlan(**head, planned=True, note=note, candidates=cands, training_free=answers[0], fine_tuned=answers[1],
                    base=b, rotary_dim=_rotary_dim(pos))


def _keep_advertised(k: KindPlan, advertised: int) -> KindPlan:
    """A kind whose config's scaling already advertises N: its training-free answer is the model as configured."""
    was = k.training_free
    c = k.candidate("as_configured")
    why = ("the config's own scaling already advertises N; if the model was trained there (its card says), an extension "
           "added on top does not help (STRING's table, in the notes)")
    if was is not None and was.candidate not in (None, "as_configured"):
        why += f"; without that, the table's training-free pick would be {was.candidate}: {was.expected.split(' (')[0]}"
    answer_ = Answer("training_free", "as_configured", c.label,
                     f"no extension: its scaling covers up to {advertised:,} positions", why)
    return dataclasses.replace(k, training_free=answer_)


def original_context(scheme: Scheme) -> tuple[int, str]:
    """The original context L a plan counts from when the user gives none, and which field or source gave it.

    ``original_max_position_embeddings`` (or ``max_position_embeddings / factor``) where the config's scaling block
    has one; else the model card's convention where :data:`CARD_CONTEXT` knows the family's (Qwen3's 40,960 is
    32,768 of context; Mistral 7B v0.1 was trained at 8,192); else ``max_position_embeddings``, said as such.

    Parameters
    ----------
    scheme : Scheme
        The model's scheme.

    Returns
    -------
    tuple of (int, str)
        L and where it came from (printed by the plan).

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> original_context(resolve_scheme("tests/data/hf_configs/qwen3_8b.json"))[0]
    32768
    """
    if scheme.source == "spec":
        return scheme.context, "the spec's n_max (else 4,096)"
    if scheme.context != scheme.max_context:
        return scheme.context, ("the scaling block's original_max_position_embeddings"
                                if "n_max" in scheme.main.positions.params else "max_position_embeddings / the scaling factor")
    main = scheme.main.positions
    if "n_max" in main.params and main.encoding != "rope_dynamic":  # YaRN / Llama 3 / LongRoPE over the advertised L
        return scheme.context, ("the scaling block's original context (original_max_position_embeddings, else "
                                "max_position_embeddings, as transformers reads it)")
    windows = {layer.span.size for layer in scheme.layers if layer.span.kind == "sliding"}
    full = any(layer.span.kind == "full" and layer.positions.kind == "rotary" for layer in scheme.layers)
    window = next(iter(windows)) if len(windows) == 1 and not full else None
    hit = CARD_CONTEXT.get((scheme.source, scheme.max_context, window))
    if hit is not None:
        return hit[0], f"{hit[1]}, not max_position_embeddings {scheme.max_context:,}; --context L plans from another"
    return scheme.context, ("max_position_embeddings (the config has no original_max_position_embeddings; --context L "
                            "if the model was trained shorter)")


def _all_sliding(scheme: Scheme) -> bool:
    """No full-attention rotary layer, and every rotary layer slides: a plan can remove the window."""
    rotary = [layer for layer in scheme.layers if layer.positions.kind == "rotary"]
    if not rotary or not all(layer.span.kind == "sliding" for layer in rotary):
        return False
    if any(layer.span.kind == "full" and layer.positions.kind != "rotary" for layer in scheme.layers):
        return False  # full layers without RoPE (NoPE) beside sliding RoPE layers: removing the window is not the plan
    if scheme.config is None:
        return True
    from petheory.models.config import text_part

    return text_part(scheme.config)[0].get("sliding_window") is not None


def _warnings(scheme: Scheme, kinds, length: int) -> tuple:
    """The config's lints (:func:`petheory.analyses.lints.config_lints`) and the candidates whose base is above the
    precision ceiling of the config's dtype at N, each one line naming the field."""
    config = scheme.config
    if config is None:
        return ()
    from petheory.analyses.lints import LINTED_DTYPES, config_lints
    from petheory.bounds.rope_base import exact_precision_max_base
    from petheory.models.config import text_part

    out = [f"warning: {x}" for x in config_lints(config, scheme, length=length)]
    text = text_part(config)[0]
    dtype = text.get("torch_dtype") or text.get("dtype") or config.get("torch_dtype") or config.get("dtype")
    if dtype in LINTED_DTYPES:
        for k in kinds:
            for c in k.candidates if k.planned else ():
                top = exact_precision_max_base(length, k.rotary_dim, dtype)
                if c.encoding == "rope" and c.params["base"] > top:
                    out.append(f"warning: {c.name}'s rope_theta {c.params['base']:.4g} is above {dtype}'s precision "
                               f"ceiling {top:.3g} at N = {length:,} (torch_dtype = {dtype}; petheory.bounds.rope_base.exact_precision_max_base)")
    return tuple(out)


@validate_params({
    "scheme": [InstanceOf(Scheme, "a petheory.scheme.Scheme (petheory.loaders.resolve_scheme)")],
    "length": [Interval(Integral, 2, None)],
    "context": [Interval(Integral, 2, None), None],
    "base_grid": [Interval(Integral, 1, None)],
    "source": [str, None],
})
def plan(scheme: Scheme, *, length: int, context: int | None = None, base_grid: int = BASE_GRID,
         source: str | None = None) -> PlanRecord:
    """The plan of ``scheme`` for the target context N: candidates per rotary layer kind, checked, with the configs.

    Parameters
    ----------
    scheme : Scheme
        From :func:`petheory.loaders.resolve_scheme`. A model's scheme holds its ``config.json``
        (``scheme.config``): the emitted blocks go where its text part is (``text_config``) and keep its RoPE block's
        own keys (``mrope_section``, ...); its lints are the plan's warnings.
    length : int
        N, the context wanted (> L).
    context : int, optional
        L, the original context the factors count from (default :func:`original_context`: the config's
        ``original_max_position_embeddings``, else the model card's, else ``max_position_embeddings``).
    base_grid : int
        Bases per decade of the ``base_men`` search's first pass.
    source : str, optional
        Where the scheme came from (printed).

    Returns
    -------
    PlanRecord
        One :class:`KindPlan` per layer kind (its candidates, checks and the two recommendations with their expected
        outcomes) and one runtime config per candidate; it renders itself (``lines()``, ``markdown()``).

    Raises
    ------
    ParameterError
        A value its declaration refuses; a ``base_grid`` whose grid pass would exceed its budget, naming the most that
        fit.
    ValidationError
        N beyond what plan scans or not above L, a scheme with no full-attention rotary layer.

    Notes
    -----
    Cost per planned kind: Men's column at N for each candidate (:math:`O(N r)` flops by angle addition, about
    0.1 s at 1M and r = 128) and the ``base_men`` search (most failing bases rejected at a few distances where
    a smaller base failed, then bracket and refine within MEN_WORK: :func:`petheory.bounds.men_search.men_first_passing_base`), the extreme eigenvalues from
    a 2b x 2b Gram at any N. A model whose every rotary layer slides (Mistral 7B v0.1) is planned with the window
    removed.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> r = plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=4096)
    >>> r.kinds[0].fine_tuned.regime, len(r.kinds[0].candidates)
    ('fine_tuned', 10)
    """
    t0 = time.perf_counter()
    if context is None:
        L, context_from = original_context(scheme)
    else:
        L, context_from = int(context), "--context"
    N = int(length)
    if N > MAX_TARGET:
        raise ValidationError(f"the target context N = {N:,} is beyond what plan scans ({MAX_TARGET:,} positions: the Men "
                              "check reads every distance up to N)")
    if N <= L:
        raise ValidationError(f"the target context N = {N:,} must exceed the original context L = {L:,} the factors count "
                              f"from ({context_from}), and an extension method added at the trained length does not help "
                              f"({at_own_length()}); for N <= L, petheory report --length {N} says what the model does there")
    window_removed = _all_sliding(scheme)
    kinds = tuple(_kind_plan(scheme, layer, idx, length=N, context=L, base_grid=base_grid, window_removed=window_removed)
                  for layer, idx in scheme.kinds())
    if not any(k.planned for k in kinds):
        raise ValidationError("plan found no full-attention rotary layer to scale ("
                              + "; ".join(f"layers {_layer_list(k.layers)}: {k.note}" for k in kinds) + ")")
    configs = runtime_configs(scheme, kinds, length=N, context=L, window_removed=window_removed)
    notes = tuple(scheme.notes)
    # the config's own scaling (not a card's context) counts from below max_position_embeddings and reaches N
    if scheme.context < scheme.max_context and L < scheme.max_context and N <= scheme.max_context:
        # the shipped scaling already covers N: training-free, the answer is to keep it, not the table's extension
        kinds = tuple(_keep_advertised(k, scheme.max_context) if k.planned else k for k in kinds)
        notes += (f"the config already advertises {scheme.max_context:,} positions with its scaling over L = {L:,}: if the "
                  f"model was trained there (its card says), keep it as configured; an extension method added at a trained length "
                  f"does not help ({at_own_length()})",)
    return PlanRecord(source=source, model_type=scheme.source, context=L, length=N, max_context=scheme.max_context,
                      kinds=kinds, configs=configs, notes=notes + _warnings(scheme, kinds, N),
                      predictors=predictor_lines(), evidence_model=ev.MODEL, seconds=round(time.perf_counter() - t0, 3),
                      context_from=context_from)


def _layer_list(layers, shown: int = 4) -> str:
    """A layer list in a message: complete, or its first ``shown`` and "and N more"."""
    layers = list(layers)
    head = ", ".join(str(i) for i in layers[:shown])
    return head + (f" and {len(layers) - shown} more" if len(layers) > shown else "")
