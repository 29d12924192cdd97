r"""kazemnejad2023 (The Impact of Positional Encoding on Length Generalization in Transformers, arXiv 2305.19466).

Source checked: the arXiv abstract (NoPE can represent both absolute and relative PEs; Theorem 1
constructs absolute position in the first layer) and public summaries of the construction.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check.engine import claim, quantities

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


SUMMARY = ("a public structured summary of the paper (a paper-notes Markdown file in a GitHub repository, found by text "
           "search) that states Theorems 1 and 2 with the outline of their constructions (Appendix C.1-C.2)")


def relative_construction(content_dim: int, head_dim: int, lam: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """W_Q, W_K of Theorem 2's construction on h_t = [c_t, t, 1] (the state Theorem 1's layer leaves).

    q_t = [A c_t, -t, 1], k_i = [B c_i, lam, lam * i]: <q_t, k_i> = c_t^T A^T B c_i + lam (i - t).
    """
    a, b = rng.standard_normal((head_dim, content_dim)), rng.standard_normal((head_dim, content_dim))
    w_q = np.zeros((head_dim + 2, content_dim + 2))
    w_k = np.zeros((head_dim + 2, content_dim + 2))
    w_q[:head_dim, :content_dim], w_k[:head_dim, :content_dim] = a, b
    w_q[head_dim, content_dim] = -1.0  # the query carries -t
    w_q[head_dim + 1, content_dim + 1] = 1.0
    w_k[head_dim, content_dim + 1] = lam  # the key carries lam and lam * i
    w_k[head_dim + 1, content_dim] = lam
    return w_q, w_k


@st.composite
def _relative_cases(draw):
    return {"n": draw(st.integers(2, 64)), "content_dim": draw(st.integers(1, 8)), "head_dim": draw(st.integers(1, 8)),
            "lam": draw(st.floats(-4.0, 4.0)), "seed": draw(st.integers(0, 2**16))}


def relative_logits(case) -> float:
    """> 0 when the logits minus their content part are not f_rel(t - i) = lam (i - t) (not a function of t - i)."""
    rng = np.random.default_rng(case["seed"])
    n, dc = case["n"], case["content_dim"]
    w_q, w_k = relative_construction(dc, case["head_dim"], case["lam"], rng)
    c = rng.standard_normal((n, dc))
    t = np.arange(1, n + 1, dtype=float)
    h = np.column_stack([c, t, np.ones(n)])  # (n, dc + 2): content, absolute position (Theorem 1), constant
    logits = (h @ w_q.T) @ (h @ w_k.T).T
    content = (c @ w_q[:-2, :dc].T) @ (c @ w_k[:-2, :dc].T).T
    rel = logits - content
    target = case["lam"] * (t[None, :] - t[:, None])  # rel[t, i] = lam (i - t)
    err = float(np.max(np.abs(rel - target)))
    quantities(max_deviation_from_lam_times_i_minus_t=err)
    # entries are sums of head_dim + 2 products of size <= |logits|: rounding <= (head_dim + 2) eps max|logits|
    return err - 8 * (case["head_dim"] + 2) * np.finfo(float).eps * (np.abs(logits).max() + np.abs(content).max() + 1)


@claim(
    id="kazemnejad2023.nope_relative_position",
    paper_status="theorem",
    source=SOURCE.replace("Theorem 1 (absolute position from the first causal NoPE layer)",
                          "Theorem 2 (relative position) and Appendix C.2") + "; statement from " + SUMMARY,
    statement=r"Theorem 2: given absolute positions in $H^{(1)}$ (Theorem 1), subsequent NoPE layers can implement "
    r"relative positional encoding: there are $W_Q, W_K$ with $\langle q_t, k_i\rangle = f_{cnt}(q_t, k_i) + "
    r"f_{rel}(t - i)$ (the query carries position t with a negative sign, the key position i).",
    kind="exact",
    cases=_relative_cases,
    evidence="definitional",
    evidence_note="an existence statement: the check confirms that the construction as the summary outlines it "
    "(linear f_rel = lam (i - t)) gives logits whose non-content part depends on t - i only; it does not check the "
    "paper's own appendix, which was not reached, nor which relative PEs beyond linear ones it covers.",
    reconstruction="h_t = [c_t, t, 1] (content, Theorem 1's absolute position, a constant feature); q_t = [A c_t, -t, "
    "1], k_i = [B c_i, lam, lam i]; f_cnt = c_t^T A^T B c_i, f_rel(t - i) = -lam (t - i).",
)
def _relative_logits(case) -> float:
    return relative_logits(case)
