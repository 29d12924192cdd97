r"""wu2025 (On the Emergence of Position Bias in Transformers, arXiv 2502.01951, ICML 2025): the decay-mask peak.

Source checked: the arXiv abstract and HTML v2 opening (graph-theoretic framework; causal mask biases
towards early positions; decay masks and RoPE trade long-term decay against the cumulative weight of
early positions). The Θ(C(t+i-j, i-j) e^{-(i-j)m}) form and its peak are from public summaries of §4.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from proofs_check.engine import claim, quantities, skipped

SOURCE = ("wu2025 (Wu, Wang, Jegelka, Jadbabaie; arXiv 2502.01951, ICML 2025) §4 (decay mask; a theorem there, its "
          "number not read), checked against the abstract and public summaries")


@st.composite
def _cases(draw):
    return {"t": draw(st.integers(0, 5000)), "m": draw(st.floats(0.01, 5.0))}


def peak(case) -> float:
    """> 0 when the argmax of C(t+x, x) e^{-xm} over x >= 0 is more than 1 away from t / (e^m - 1)."""
    x, p = lc.decay_mask_peak(case["t"], case["m"])
    quantities(argmax=x, t_over_expm1=p)
    return abs(x - p) - 1.0


@claim(
    id="wu2025.decay_mask_peak",
    paper_status="theorem",
    source=SOURCE,
    statement=r"With the decay mask $-(i-j)m$ and the causal mask, after $t$ layers the attention to the token "
    r"$i-j$ back is $\Theta\big(\binom{t+i-j}{i-j}e^{-(i-j)m}\big)$, which peaks near distance $t/(e^m-1)$.",
    kind="exact",
    cases=_cases,
    reconstruction="the 'peak' read as the integer argmax of the Theta-term C(t+x, x) e^{-xm} over x >= 0; 'near' as "
    "within one position (the argmax is floor(t/(e^m-1)), with a tie at integers). The Theta statement itself (the "
    "multi-layer attention) is not checked here.",
)
def _peak(case) -> float:
    return peak(case)


_UNREACHED = ("the full text could not be reached: only the arXiv abstract/HTML opening and public "
              "summaries were found (searched: stored web pages, public GitHub copies of the paper, the authors' "
              "code); outside.md gives the bound's form without its constants C and eps or the conditions on the "
              "attention scores, and a checker written from that summary would be our invention")

skipped(
    id="wu2025.causal_mask_first_token",
    paper_status="theorem",
    source=SOURCE.replace("§4 (decay mask; a theorem there, its number not read)", "§3 (causal mask)"),
    statement="Named only (outside.md's summary): under the causal mask, multi-layer attention concentrates on the first "
    "token as depth grows, P^(t)(z_i = j) <= C (1 - (j - 1) eps)^t.",
    kind="asymptotic",
    reason="the causal-mask theorem: " + _UNREACHED,
)

skipped(
    id="wu2025.sliding_window_slows_bias",
    paper_status="theorem",
    source=SOURCE.replace("§4 (decay mask; a theorem there, its number not read)", "§3 (sliding-window mask)"),
    statement="Named only (outside.md's summary): a sliding window of width w slows the concentration on the first "
    "token (about ceil((N - 1)/(w - 1)) layers to reach it).",
    kind="asymptotic",
    reason="the sliding-window statement: " + _UNREACHED,
)
