r"""tan2024 (Scaling Stick-Breaking Attention, arXiv 2410.17980, ICLR 2025): the weights leave a remainder.

Source read: the arXiv abstract and the authors' reference implementation, github.com/shawntan/stickbreaking-attention,
``stickbreaking_attention/sb_ref.py`` at ea69b8dd: ``log_z = logsigmoid(logits)``, ``log_beta = logsigmoid(-logits)``
summed over the keys between (``cum_weight``), ``att = exp(log_z + re_cum_log_beta)``, and it returns
``1 - att.sum(-1)`` as the remainder ("rem", the README's ``o, rem = sb_attn_varlen(...)``): the weight of key j for
query i is :math:`\beta_{ij}\prod_{j<k<i}(1-\beta_{ik})`, :math:`\beta = \sigma(z)`. The paper's own text was not read.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("tan2024 (Tan, Yang, Panda, Courville; arXiv 2410.17980, ICLR 2025) §2 (stick-breaking attention), read in the "
          "abstract and the authors' reference code (github.com/shawntan/stickbreaking-attention, "
          "stickbreaking_attention/sb_ref.py @ ea69b8dd: att and the remainder 1 - att.sum(-1)); the sources read names no status")


def stick_breaking_weights(logits: np.ndarray) -> np.ndarray:
    """The reference code's weights, (n, n), query i over keys j < i (the current token excluded, as sb_ref's mask):
    :math:`\\exp(\\log\\sigma(z_{ij}) + \\sum_{j<k<i} \\log\\sigma(-z_{ik}))`."""
    n = logits.shape[0]
    i, j = np.indices((n, n))
    log_z = np.where(j < i, -np.logaddexp(0.0, -logits), -np.inf)  # log sigma(z)
    log_beta = np.where(j < i, -np.logaddexp(0.0, logits), 0.0)  # log sigma(-z) = log(1 - sigma(z))
    # sum over the keys strictly between j and i: reverse cumulative sum along the row, minus the key itself
    after = np.cumsum(log_beta[:, ::-1], axis=1)[:, ::-1] - log_beta
    return np.exp(log_z + after)


@st.composite
def _cases(draw):
    return {"n": draw(st.integers(1, 64)), "scale": draw(st.floats(0.0, 30.0)), "shift": draw(st.floats(-10.0, 10.0)),
            "seed": draw(st.integers(0, 2**16))}


def sums_at_most_one(case) -> float:
    """> 0 when some query's stick-breaking weights sum past 1 (a negative remainder) or a weight is negative."""
    rng = np.random.default_rng(case["seed"])
    att = stick_breaking_weights(case["shift"] + case["scale"] * rng.standard_normal((case["n"], case["n"])))
    rem = 1.0 - att.sum(axis=1)
    quantities(smallest_remainder=float(rem.min()), smallest_weight=float(att.min()))
    # each weight is a product of <= n factors in log space: relative rounding <= 4 n eps; a row sums n of them
    return float(max(-rem.min(), -att.min())) - 8 * case["n"] * np.finfo(float).eps


@claim(
    id="tan2024.weights_sum_at_most_one",
    paper_status=None,
    source=SOURCE,
    statement=r"Stick-breaking attention gives key j the weight $A_{ij} = \beta_{ij}\prod_{j<k<i}(1-\beta_{ik})$ with "
    r"$\beta_{ij} = \sigma(q_i^\top k_j)$; the weights of a query sum to at most 1, the rest "
    r"$1 - \sum_j A_{ij} \ge 0$ being the remainder the implementation returns.",
    kind="exact",
    cases=_cases,
    evidence="definitional",
    evidence_note="no petheory code implements stick-breaking attention: the check runs the authors' formula (transcribed "
    "from sb_ref.py) and confirms the telescoping identity sum_j A_ij = 1 - prod_k (1 - beta_ik) <= 1 on it, which no "
    "library bug can reach; its test plants weights without the stick-breaking product (plain sigmoid gates, which "
    "can sum past 1) and sees them caught",
    reconstruction="Logits shift + scale * N(0, 1), so the gates run from saturated (beta near 0 or 1) to balanced; "
    "the current token excluded from its own keys, as the reference code's mask.",
    plants=(
        pl.Plant("(none)", lambda mp: None,
                 equivalent="no library code is read (evidence definitional): the weights are the authors' formula transcribed "
                 "in the claim module; tests/claims/test_claims_outside_2025.py plants weights without the stick-breaking "
                 "product and sees them caught"),
    ),
)
def _sums(case) -> float:
    return sums_at_most_one(case)
