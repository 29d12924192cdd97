r"""nakanishi2025 (Scalable-Softmax Is Superior for Attention, arXiv 2501.19399): attention fading and SSMax.

Source checked: arXiv 2501.19399 v1 (abstract, §1, Fig. 1: SSMax :math:`z_i \mapsto n^{s z_i}/\sum_j n^{s z_j}`,
the maximum of Softmax goes to 0 as n grows). The same statement motivates the length-dependent
temperatures of YaRN, LongRoPE and Llama 4 (petheory.bounds.long_context.attention_temperatures).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("nakanishi2025 (Nakanishi; Scalable-Softmax, arXiv 2501.19399) §2, Eq. 2 and Fig. 1; the paper names no "
          "status for it (the motivation of SSMax)")


@st.composite
def _cases(draw):
    return {"s": draw(st.floats(0.05, 3.0)), "gap": draw(st.floats(0.05, 10.0)), "log2_n": draw(st.integers(1, 40))}


def ssmax_keeps(case) -> float:
    """SSMax's target weight :math:`n^{s g}/(n^{s g} + n - 1)` (g the gap): at :math:`n = 2^{\\mathrm{log2\\_n}}` it must be >= 1/2 when :math:`s g \\ge 1`, and at
    :math:`n = 2^{40}` below 1/2 (tending to 0) when s gap < 1 beyond the crossover. Also checks the formula against softmax."""
    s, g, n = case["s"], case["gap"], 2.0 ** case["log2_n"]
    a = float(lc.single_target_attention(g, n, logit_factor=s * np.log(n)))
    closed = n ** (s * g) / (n ** (s * g) + n - 1) if s * g * np.log(n) < 700 else 1.0
    quantities(alpha=a, closed_form=closed, s_times_gap=s * g)
    mismatch = abs(a - closed) - 1e-12
    if s * g >= 1:
        return max(mismatch, 0.5 - a - 1e-12)  # (n^{sg})/(n^{sg}+n-1) >= n/(2n-1) > 1/2
    # s*gap < 1: alpha ~ n^{sg-1} -> 0; once n^{1-sg} >= 4 it is below 1/2 (alpha <= 1/(1 + (n-1)/n^{sg}))
    if n ** (1 - s * g) >= 4:
        return max(mismatch, a - 0.5)
    return mismatch


@claim(
    id="nakanishi2025.ssmax_prevents_fading",
    source=SOURCE,
    statement=r"With Softmax the largest attention weight goes to 0 as the input size $n$ grows; with SSMax "
    r"(logits $\times\, s\ln n$) a target whose logit exceeds $n-1$ equal others by $\Delta$ gets "
    r"$n^{s\Delta}/(n^{s\Delta}+n-1)$, which stays bounded away from 0 (at least 1/2) iff $s\Delta \ge 1$.",
    kind="exact",
    cases=_cases,
    reconstruction="outside.md's recovered statement for the single-target case; 'bounded away from 0' checked as >= 1/2 "
    "for s*gap >= 1 and as below 1/2 once n^(1 - s*gap) >= 4 for s*gap < 1, n up to 2^40.",
    plants=(
        pl.Plant("the target's attention 1% low",
                 pl.attr("petheory.bounds.long_context.single_target_attention", lambda real: (lambda g, n, **k: 0.99 * real(g, n, **k)))),
    ),
)
def _ssmax(case) -> float:
    return ssmax_keeps(case)
