r"""su2021 (RoFormer, arXiv 2104.09864) §3.4.3: long-term decay of the RoPE inner product, Eq. (37) and Fig. 2.

Source read: the full text (arXiv 2104.09864v5, as extracted to text in the public repository commotum/4D,
``Notes/Vision/pdfs-3/2021_RoFormer.txt`` at commit c31dc4bb): §3.4.3 Eqs. (35)-(37), Abel summation with
:math:`h_{d/2} = 0` and :math:`S_0 = 0`, and "the value of :math:`\frac{1}{d/2}\sum_{i=1}^{d/2}|S_i|` decay with the
relative distance m - n increases by setting :math:`\theta_i = 10000^{-2i/d}`, as shown in Figure 2" (Fig. 2 plots
it for distances up to about 250; §3.3 calls it "a long-term decay property", "One can prove that this setting
provides" it). No status word is attached.
outside.md's numbers (32.5 at r = 0, 4.47 at 1000, 7.49 at 4999, d = 128, base 1e4) are reproduced.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from petheory.encodings import rotary
from proofs_check.claims._strategies import reals
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("su2021 (Su, Lu, Pan, Murtadha, Wen, Liu; RoFormer, arXiv 2104.09864v5) §3.4.3, Eqs. (35)-(37) and Fig. 2; "
          "the section names no status for it (a derivation in the text). Read in the full text (arXiv v5 as extracted in "
          "github.com/commotum/4D, Notes/Vision/pdfs-3/2021_RoFormer.txt, commit c31dc4bb)")


@st.composite
def _abel_cases(draw):
    h = draw(st.one_of(st.integers(1, 3), st.integers(1, 32)))  # few bands: where boundary terms dominate
    return {"d": 2 * h, "base": draw(st.floats(2.0, 1e5)), "r": draw(st.floats(0.0, 1e4)),
            "h_re": draw(st.lists(reals(), min_size=h, max_size=h)), "h_im": draw(st.lists(reals(), min_size=h, max_size=h))}


def abel(case) -> float:
    w = rotary.rope_frequencies(case["d"], base=case["base"])
    lhs, rhs = lc.abel_bound(np.array(case["h_re"]) + 1j * np.array(case["h_im"]), case["r"], w)
    quantities(lhs=lhs, rhs=rhs)
    # both sides sum d/2 terms of size <= max|h|: rounding <= d * eps * (|lhs| + rhs)
    return lhs - rhs - case["d"] * np.finfo(float).eps * (lhs + rhs + 1.0)


@claim(
    id="su2021.abel_bound",
    source=SOURCE,
    statement=r"Eq. (37): with $h_i = q_{[2i:2i+1]}k^*_{[2i:2i+1]}$, $S_j = \sum_{k=0}^{j-1} e^{i(m-n)\theta_k}$ and "
    r"$h_{d/2} = 0$: $|\sum_{i=0}^{d/2-1} h_i e^{i(m-n)\theta_i}| \le (\max_i |h_{i+1} - h_i|)\sum_{i=0}^{d/2-1}|S_{i+1}|$.",
    kind="exact",
    cases=_abel_cases,
    plants=(
        pl.Plant("the Abel bound's right side halved",
                 pl.attr("petheory.bounds.long_context.abel_bound", lambda real: (lambda h, r, w: (real(h, r, w)[0], 0.5 * real(h, r, w)[1])))),
    ),
)
def _abel(case) -> float:
    return abel(case)


WINDOW = 64


def envelope(case) -> float:
    """> 0 when the bound's maximum over a later window exceeds its maximum over an earlier one (windows of 64)."""
    w = rotary.rope_frequencies(case["d"], base=case["base"])
    r0 = (case["r"] // WINDOW) * WINDOW
    r1 = r0 + WINDOW * case.get("gap", 1)
    a = lc.roformer_relative_bound(np.arange(r0, r0 + WINDOW), w).max()
    b = lc.roformer_relative_bound(np.arange(r1, r1 + WINDOW), w).max()
    quantities(max_earlier=a, max_later=b, window_start=r0, later_start=r1)
    return b - a - 1e-12 * case["d"]


@st.composite
def _envelope_cases(draw):
    return {"d": draw(st.sampled_from([32, 64, 128])), "base": 10000.0, "r": draw(st.integers(0, 4900)),
            "gap": draw(st.integers(1, 40))}


claim(
    id="su2021.long_term_decay",
    source=SOURCE,
    statement=r"The relative upper bound $\frac{1}{d/2}\sum_{i=1}^{d/2}|S_i|$ decays with the relative distance "
    r"$m - n$ (Fig. 2, $\theta_i = 10000^{-2i/d}$), so the inner product decays as the distance grows.",
    kind="exact",
    paper_status=None,
    check=envelope,
    cases=_envelope_cases,
    reconstruction="'Decays' read as its envelope decaying: the maximum over any window of 64 distances is at most the "
    "maximum over every earlier window, r < 5000 (petheory.bounds.long_context.roformer_relative_bound). Fig. 2 "
    "itself oscillates, so a pointwise (monotone) reading is not one a reader of the figure would hold and is not "
    "checked.",
)


# ============================================================================ the corrected variant


def dyadic_means(d: int, base: float, k_max: int) -> np.ndarray:
    """Mean of the relative bound over each dyadic window :math:`[2^k, 2^{k+1})`, :math:`k = 0, \\dots, k_{max}`."""
    w = rotary.rope_frequencies(d, base=base)
    b = lc.roformer_relative_bound(np.arange(0, 2 << k_max), w)
    return np.array([b[(1 << k):(2 << k)].mean() for k in range(k_max + 1)])


CORRECTED_LAST_WINDOW = 11  # windows up to [2048, 4096): the next one, [4096, 8192), rises for d = 32 and 64


@st.composite
def _dyadic_cases(draw):
    return {"d": draw(st.sampled_from([32, 48, 64, 96, 128, 160, 192, 256])), "base": 10000.0,
            "k": draw(st.integers(1, CORRECTED_LAST_WINDOW))}


def dyadic_decay(case) -> float:
    """> 0 when the mean over :math:`[2^k, 2^{k+1})` exceeds the mean over :math:`[2^{k-1}, 2^k)` (beyond rounding)."""
    m = dyadic_means(case["d"], case["base"], case["k"])
    # the quantity is the statement's (1/(d/2)) sum_j |S_j|: at r = 0, |S_j| = j, so it is (d/2 + 1)/2 exactly
    at0 = float(lc.roformer_relative_bound([0], rotary.rope_frequencies(case["d"], base=case["base"]))[0])
    quantities(mean_earlier_window=m[-2], mean_window=m[-1], window_start=1 << case["k"], bound_at_0=at0)
    # each mean averages 2^k values of size <= d/4, each a sum of d/2 unit terms: rounding well below 1e-12 * d
    return max(m[-1] - m[-2], abs(at0 - (case["d"] / 2 + 1) / 2)) - 1e-12 * case["d"]


@claim(
    id="su2021.long_term_decay__corrected",
    source=SOURCE,
    statement=r"Corrected: with $\theta_i = 10000^{-2i/d}$ and $d \ge 32$, the relative upper bound "
    r"$\frac{1}{d/2}\sum_{i=1}^{d/2}|S_i|$ (which is $(d/2+1)/2$ at distance 0) decays on average "
    r"over octaves of distance: its mean over $[2^k, 2^{k+1})$ is non-increasing in $k$ for every octave below 4096. "
    r"It does not decay pointwise (for d = 128 it first rises at r = 18) nor past the octave [2048, 4096): there it "
    r"levels off (d = 128: octave means 4.66 to 4.72 from 4096 to 65536) and some later octaves rise (d = 32, 64: "
    r"[4096, 8192)).",
    kind="exact",
    paper_status=None,
    corrected_of="su2021.long_term_decay",
    cases=_dyadic_cases,
    examples={"quick": 40, "thorough": 88},
    reconstruction="Written after su2021.long_term_decay was refuted (exploratory in that sense); "
    "the cases enumerate RoFormer's base 1e4, head sizes 32..256 and every octave up to [2048, 4096) (d = 16 fails "
    "already at [16, 32): too few bands for any averaging).",
    plants=(
        pl.Plant("the relative bound gains a slope 1e-3 r (octave means rise)",
                 pl.attr("petheory.bounds.long_context.roformer_relative_bound",
                       lambda real: (lambda r, w: real(r, w) + 1e-3 * np.asarray(r, float)))),
        pl.Plant("the relative bound a sum over the bands, not their mean",
                 pl.attr("petheory.bounds.long_context.roformer_relative_bound", lambda real: (lambda r, w: real(r, w) * len(w)))),
    ),
)
def _dyadic_decay(case) -> float:
    return dyadic_decay(case)
