r"""su2021 (RoFormer, arXiv 2104.09864) §3.4.3: long-term decay of the RoPE inner product, Eq. (37) and Fig. 2.

Source checked: RoFormer §3.4.3 (Abel summation with :math:`h_{d/2} = 0`, the relative upper bound
:math:`\frac{1}{d/2}\sum_{j=1}^{d/2}|S_j|` "decays with the relative distance", Fig. 2 up to about 250).
outside.md's numbers (32.5 at r = 0, 4.47 at 1000, 7.49 at 4999, d = 128, base 1e4) are reproduced.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from petheory.encodings import rope_frequencies
from proofs_check.claims._strategies import reals
from proofs_check.engine import Reading, claim, quantities

SOURCE = ("su2021 (Su, Lu, Pan, Murtadha, Wen, Liu; RoFormer, arXiv 2104.09864) §3.4.3, Eq. (37) and Fig. 2; the "
          "section names no status for it (a derivation in the text)")


@st.composite
def _abel_cases(draw):
    h = draw(st.one_of(st.integers(1, 3), st.integers(1, 32)))  # few bands: where boundary terms dominate
    return {"d": 2 * h, "base": draw(st.floats(2.0, 1e5)), "r": draw(st.floats(0.0, 1e4)),
            "h_re": draw(st.lists(reals(), min_size=h, max_size=h)), "h_im": draw(st.lists(reals(), min_size=h, max_size=h))}


def abel(case) -> float:
    w = rope_frequencies(case["d"], base=case["base"])
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
)
def _abel(case) -> float:
    return abel(case)


@st.composite
def _decay_cases(draw):
    return {"d": draw(st.sampled_from([32, 64, 128])), "base": 10000.0, "r": draw(st.integers(0, 4998))}


def monotone(case) -> float:
    """> 0 when the relative bound increases from r to r + 1 (by more than rounding)."""
    w = rope_frequencies(case["d"], base=case["base"])
    a, b = lc.roformer_relative_bound([case["r"], case["r"] + 1], w)
    quantities(bound_r=a, bound_r_plus_1=b)
    return b - a - 1e-12 * case["d"]


WINDOW = 64


def envelope(case) -> float:
    """> 0 when the bound's maximum over a later window exceeds its maximum over an earlier one (windows of 64)."""
    w = rope_frequencies(case["d"], base=case["base"])
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
    readings=[
        Reading("monotone", "the bound is non-increasing in the distance r at every integer step, r < 5000",
                check=monotone, cases=_decay_cases),
        Reading("envelope", "its envelope decays: the maximum over any window of 64 distances is at most the maximum "
                "over every earlier window, r < 5000", check=envelope, cases=_envelope_cases),
    ],
)
