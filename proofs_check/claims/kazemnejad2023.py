r"""kazemnejad2023 (The Impact of Positional Encoding on Length Generalization in Transformers, arXiv 2305.19466).

Source checked: the arXiv abstract (NoPE can represent both absolute and relative PEs; Theorem 1
constructs absolute position in the first layer) and public summaries of the construction.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check.engine import claim, quantities, skipped

SOURCE = ("kazemnejad2023 (Kazemnejad, Padhi, Natesan Ramamurthy, Das, Reddy; arXiv 2305.19466, NeurIPS 2023) §5, "
          "Theorem 1 (absolute position from the first causal NoPE layer). Checked against the abstract and public "
          "summaries; the full text was not reached")


def causal_uniform_attention(n: int, causal: bool = True) -> np.ndarray:
    """Attention weights with W_Q = W_K = 0: every logit 0, so uniform over the keys the mask allows."""
    allowed = np.tril(np.ones((n, n))) if causal else np.ones((n, n))
    return allowed / allowed.sum(1, keepdims=True)


@st.composite
def _cases(draw):
    return {"n": draw(st.integers(1, 1024))}  # dense (n, n) attention: 8 MB at most


def recovers_position(case) -> float:
    """> 0 when the first-layer output at position t (1-based) is not 1/t, or two positions share an output."""
    n = case["n"]
    value = np.zeros(n)
    value[0] = 1.0  # a value that is 1 on <bos> only
    out = causal_uniform_attention(n) @ value
    t = np.arange(1, n + 1)
    err = float(np.max(np.abs(out - 1.0 / t)))
    gap = float(np.min(-np.diff(out))) if n > 1 else 1.0
    quantities(max_error_vs_1_over_t=err, smallest_gap=gap)
    # each row sums t terms: rounding <= t * eps / t; distinct outputs need a gap above that rounding
    return max(err - 4 * np.finfo(float).eps, 4 * np.finfo(float).eps - gap)


@claim(
    id="kazemnejad2023.nope_absolute_position",
    paper_status="theorem",
    source=SOURCE,
    statement=r"Theorem 1: the first layer of a causal Transformer without positional encoding can recover absolute "
    r"positions: with $W_Q = W_K = 0$ the attention is uniform over the $t$ visible tokens, so a value that is 1 on "
    r"<bos> only gives $1/t$ at position $t$, injective in $t$ (an MLP can then map it to $t$).",
    kind="exact",
    cases=_cases,
    reconstruction="The attention step of the construction (uniform causal attention on a <bos> indicator); the MLP "
    "that maps 1/t to t is a universal-approximation step on a finite injective set and is not checked.",
)
def _recovers_position(case) -> float:
    return recovers_position(case)


skipped(
    id="kazemnejad2023.nope_relative_position",
    paper_status="theorem",
    source=SOURCE.replace("Theorem 1 (absolute position from the first causal NoPE layer)",
                          "Theorem 2 (relative position)"),
    statement="Theorem 2, named only (the abstract): NoPE can represent relative positional encodings (given the "
    "absolute position recovered by Theorem 1, a later layer can attend by relative position).",
    kind="exact",
    reason="Theorem 2's construction (its attention weights and the class of relative PEs it covers): "
    "the full text could not be reached: only the arXiv abstract/HTML opening and public summaries were found "
    "(searched: stored web pages, public GitHub copies of the paper, the authors' code)",
)
