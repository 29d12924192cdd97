r"""liu2026 (Feilong Liu, "Rotary Positional Embeddings as Phase Modulation: Theoretical Bounds on the RoPE Base for
Long-Context Transformers", arXiv 2602.10959, 2026): the aliasing and DC-stability lower bounds on the base.

Source read: the abstract (arXiv and OpenReview, TMLR submission zxyMneble7). No copy of the paper's text was found,
so the formulas of its bounds are taken from a third-party summary of it (sciencestack.ai, paper 2602.10959, which
gives "a fundamental aliasing limit L < 2 pi base and a DC-component stability bound base >= L / arccos(eps) that
tighten with depth as :math:`\mathrm{base} \ge L / \arccos(\varepsilon^{1/N})`" and "a precision-based upper bound base < 1/eps_mach"). Every
claim here says so in its reconstruction: the formulas are checked as the summary writes them, against the phases of
the library's frequency ladder (:func:`petheory.encodings.rope_frequencies`), through the bounds' one implementation
(:mod:`petheory.bounds.rope_base`).

Finding: both lower bounds hold as necessary conditions (every base whose slowest band keeps its phase within the
limit exceeds them), and neither is sufficient at a finite head size: the ladder's slowest band turns at
:math:`base^{-(r-2)/r}` rad/position, faster than the :math:`1/base` the formulas assume, so a base just above
either bound still lets the slowest band wrap or drift (r = 128, L = 131072: the aliasing bound 20,861, the base the
ladder needs 24,428). The exact bounds on the ladder are the corrected claims.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import rope_base as rb
from petheory.encodings import rotary
from proofs_check import plants as pl
from proofs_check.engine import Reading, claim, quantities

SOURCE = ("liu2026 (Feilong Liu; arXiv 2602.10959, 2026, TMLR submission) {where}; read in the abstract, the formulas "
          "in a third-party summary (sciencestack.ai/paper/2602.10959), not in the paper's text; the abstract names no "
          "status for its bounds")
_FORMULA = ("Reconstruction: the paper's text was not read (no copy found); the formula is the one a third-party summary "
            "of the paper gives, checked as written. 'Base' is the ladder's base, theta_t = base^(-2t/r) "
            "(rope_frequencies), the slowest band theta_min = theta_(r/2-1).")
#: Relative rounding of the compared quantities (a power, a product, a division: a few ulps each): cases within
#: this of a boundary decide nothing and are skipped.
_REL = 64 * np.finfo(float).eps


@st.composite
def _cases(draw, with_eps: bool = False):
    """r, base and L drawn so that L spans from well inside the slowest band's first turn to past 2 pi base."""
    case = {"r": draw(st.sampled_from([4, 8, 16, 32, 64, 128, 256])), "log10_base": draw(st.floats(0.5, 8.0)),
            "t": draw(st.floats(0.0, 1.0))}
    if with_eps:
        case.update(eps=draw(st.floats(0.01, 0.99)), depth=draw(st.integers(1, 96)))
    return case


def _slowest(case, angle: float = 2 * math.pi) -> tuple[float, float, float]:
    """(base, theta_min from the library's ladder, L) of a case: L spans from a tenth of the positions the slowest band
    needs to turn by ``angle`` to 1.5 times what the summary's 1/base rate would need (both sides of both bounds)."""
    b = 10.0 ** case["log10_base"]
    theta = float(rotary.rope_frequencies(case["r"], base=b)[-1])
    lo, hi = math.log(0.1 * angle * b ** ((case["r"] - 2) / case["r"])), math.log(1.5 * angle * b)
    return b, theta, math.exp(lo + case["t"] * (hi - lo))


def _no_turn(case) -> tuple[bool | None, float, float, float]:
    """Whether the slowest band completes no turn over 0..L (None within rounding of the boundary)."""
    b, theta, L = _slowest(case)
    phase = L * theta
    quantities(base=b, length=L, slowest_phase_at_L=phase, two_pi=2 * math.pi)
    return (None if abs(phase - 2 * math.pi) <= _REL * 2 * math.pi else phase < 2 * math.pi), b, theta, L


def _implies(premise: bool | None, conclusion_gap: float) -> float:
    """> 0 when the premise holds and the conclusion fails by more than rounding (``conclusion_gap`` > 0 is failure,
    relative)."""
    if premise is not True:
        return -1.0
    return conclusion_gap - _REL


def aliasing_necessary(case) -> float:
    """No turn of the slowest band within L => base > L / 2 pi."""
    ok, b, _, L = _no_turn(case)
    bound = rb.aliasing_min_base(L)
    quantities(aliasing_bound=bound)
    return _implies(ok, (bound - b) / b)


def aliasing_sufficient(case) -> float:
    """base > L / 2 pi => no turn of the slowest band within L."""
    ok, b, _, L = _no_turn(case)
    bound = rb.aliasing_min_base(L)
    quantities(aliasing_bound=bound)
    if ok is None or b <= bound * (1 + _REL):
        return -1.0
    return 1.0 if not ok else -1.0


claim(
    id="liu2026.aliasing_bound",
    source=SOURCE.format(where="abstract (aliasing bound)"),
    statement=r"'A fundamental aliasing bound, analogous to a Nyquist limit', one of the lower bounds on the base 'that "
    r"are necessary to preserve positional coherence over a target context length' (abstract), in the summary's "
    r"formula: $L < 2\pi\cdot base$.",
    kind="exact",
    paper_status=None,
    reconstruction=_FORMULA + " Aliasing read as the slowest band completing a turn over positions 0..L "
    "(L theta_min >= 2 pi: two positions then share its phase). The abstract calls the bound necessary; a reader may "
    "also take a Nyquist-like limit as the condition that rules aliasing out: both readings.",
    readings=[
        Reading("necessary", r"every base whose slowest band completes no turn within L has $L < 2\pi\,base$",
                check=aliasing_necessary, cases=_cases,
                plants=(
                    pl.Plant("the library's ladder half as fast",
                             pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
                    pl.Plant("the aliasing bound twice too high",
                             pl.scaled("petheory.bounds.rope_base.aliasing_min_base", 2.0)),
                )),
        Reading("sufficient", r"$L < 2\pi\,base$ rules the slowest band's turn within L out", check=aliasing_sufficient,
                cases=_cases),
    ],
)


@claim(
    id="liu2026.aliasing_bound__corrected",
    source=SOURCE.format(where="abstract (aliasing bound), corrected for the ladder"),
    statement=r"On the ladder $\theta_t = base^{-2t/r}$ the slowest band completes no turn over positions 0..L iff "
    r"$base > (L/2\pi)^{r/(r-2)}$ (:func:`petheory.bounds.rope_base.exact_aliasing_min_base`), above the summary's "
    r"$L/2\pi$ for every r.",
    kind="exact",
    paper_status=None,
    cases=_cases,
    corrected_of="liu2026.aliasing_bound",
    plants=(
        pl.Plant("the library's ladder half as fast",
                 pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
        pl.Plant("the exact aliasing bound 1.5 times too high",
                 pl.scaled("petheory.bounds.rope_base.exact_aliasing_min_base", 1.5)),
    ),
)
def aliasing_exact(case) -> float:
    ok, b, _, L = _no_turn(case)
    bound = rb.exact_aliasing_min_base(L, case["r"])
    quantities(exact_bound=bound)
    if ok is None or abs(b - bound) <= _REL * bound:
        return -1.0
    return 1.0 if ok != (b > bound) else -1.0


# ============================================================================ DC stability and depth


def _coherent(case) -> tuple[bool | None, float, float, float, float]:
    """Whether cos(m theta_min) >= eps^(1/N) for every 0 <= m <= L: for theta_min <= 1 rad the phase steps are shorter
    than the arc (arccos c, 2 pi - arccos c) (wider than pi for c >= 0), so it holds iff L theta_min <= arccos c."""
    c = case["eps"] ** (1.0 / case["depth"])
    limit = math.acos(c)
    b, theta, L = _slowest(case, limit)
    quantities(base=b, length=L, slowest_phase_at_L=L * theta, allowed_drift=limit)
    edge = abs(L * theta - limit) <= _REL * max(limit, 1.0)
    return (None if edge else L * theta <= limit), b, theta, L, c


def stability_necessary(case) -> float:
    """Coherence of the slowest band over 0..L => :math:`\\mathrm{base} \\ge L / \\arccos(\\varepsilon^{1/N})`."""
    ok, b, _, L, _ = _coherent(case)
    bound = rb.stability_min_base(L, case["eps"], depth=case["depth"])
    quantities(stability_bound=bound)
    return _implies(ok, (bound - b) / b)


def stability_sufficient(case) -> float:
    """:math:`\\mathrm{base} \\ge L / \\arccos(\\varepsilon^{1/N})` => coherence of the slowest band over 0..L."""
    ok, b, _, L, _ = _coherent(case)
    bound = rb.stability_min_base(L, case["eps"], depth=case["depth"])
    quantities(stability_bound=bound)
    if ok is None or b < bound * (1 + _REL):
        return -1.0
    return 1.0 if not ok else -1.0


claim(
    id="liu2026.stability_bound",
    source=SOURCE.format(where="abstract (DC-stability bound)"),
    statement=r"'A DC-component stability bound that constrains phase drift in low-frequency positional modes', extended "
    r"to deep transformers (abstract), in the summary's formulas: $base \ge L/\arccos(\epsilon)$, and over N layers "
    r"$base \ge L/\arccos(\epsilon^{1/N})$.",
    kind="exact",
    paper_status=None,
    reconstruction=_FORMULA + " Stability read as the slowest (DC) band keeping cos(m theta_min) >= eps^(1/N) for "
    "every 0 <= m <= L (N layers compound the drift: cos^N >= eps); eps in [0.01, 0.99], N in 1..96. Necessary (as "
    "the abstract calls it) and sufficient readings, as for the aliasing bound.",
    readings=[
        Reading("necessary", r"every base whose slowest band stays coherent over 0..L has "
                r"$base \ge L/\arccos(\epsilon^{1/N})$", check=stability_necessary,
                cases=lambda: _cases(with_eps=True),
                plants=(
                    pl.Plant("the library's ladder half as fast",
                             pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
                    pl.Plant("the stability bound twice too high",
                             pl.scaled("petheory.bounds.rope_base.stability_min_base", 2.0)),
                )),
        Reading("sufficient", r"$base \ge L/\arccos(\epsilon^{1/N})$ keeps the slowest band coherent over 0..L",
                check=stability_sufficient, cases=lambda: _cases(with_eps=True)),
    ],
)


@claim(
    id="liu2026.stability_bound__corrected",
    source=SOURCE.format(where="abstract (DC-stability bound), corrected for the ladder"),
    statement=r"On the ladder the slowest band keeps $\cos(m\theta_{min}) \ge \epsilon^{1/N}$ for every $0\le m\le L$ "
    r"iff $base \ge (L/\arccos(\epsilon^{1/N}))^{r/(r-2)}$ "
    r"(:func:`petheory.bounds.rope_base.exact_stability_min_base`).",
    kind="exact",
    paper_status=None,
    cases=lambda: _cases(with_eps=True),
    corrected_of="liu2026.stability_bound",
    plants=(
        pl.Plant("the library's ladder half as fast",
                 pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.5)),
        pl.Plant("the exact stability bound 1.5 times too high",
                 pl.scaled("petheory.bounds.rope_base.exact_stability_min_base", 1.5)),
    ),
)
def stability_exact(case) -> float:
    ok, b, _, L, _ = _coherent(case)
    bound = rb.exact_stability_min_base(L, case["eps"], case["r"], depth=case["depth"])
    quantities(exact_bound=bound)
    if ok is None or abs(b - bound) <= _REL * bound:
        return -1.0
    return 1.0 if ok != (b >= bound) else -1.0


@st.composite
def _depth_cases(draw):
    return {"length": draw(st.floats(1.0, 1e7)), "eps": draw(st.floats(0.01, 0.99)), "depth": draw(st.integers(1, 200))}


@claim(
    id="liu2026.depth_tightens",
    source=SOURCE.format(where="abstract (depth)"),
    statement=r"'Repeated rotary modulation across layers compounds angular misalignment, tightening the base "
    r"requirement as depth increases': $L/\arccos(\epsilon^{1/(N+1)}) > L/\arccos(\epsilon^{1/N})$.",
    kind="exact",
    paper_status=None,
    cases=_depth_cases,
    reconstruction=_FORMULA + " Checked on the library's stability_min_base at N and N + 1 (strictly larger, beyond "
    "rounding).",
    plants=(
        pl.Plant("the stability bound ignores depth",
                 pl.attr("petheory.bounds.rope_base.stability_min_base",
                       lambda real: (lambda L, eps, depth=1: real(L, eps, depth=1)))),
    ),
)
def depth_tightens(case) -> float:
    a = rb.stability_min_base(case["length"], case["eps"], depth=case["depth"])
    b = rb.stability_min_base(case["length"], case["eps"], depth=case["depth"] + 1)
    quantities(bound_at_N=a, bound_at_N_plus_1=b)
    return float((a - b) / a + _REL)
