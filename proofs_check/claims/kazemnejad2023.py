r"""kazemnejad2023 (The Impact of Positional Encoding on Length Generalization in Transformers, arXiv 2305.19466).

Source read: the paper's full text, arXiv v2 (6 Nov 2023, NeurIPS 2023), the PDF stored in the public repository
viktor-shcherb/msc_thesis (``references/2023-12-positional-encoding-length-generalization/2305.19466.pdf``, last
commit touching it 0a683d97; its clean-LaTeX markdown ``sections/05_how-nope-represents-positions.md`` and
``sections/13_appendix-c.md`` agree), as transcribed in ``../shared/papers/outside-texts.md`` §4: §5.1
Theorems 1 (absolute encoding) and 2 (relative encoding), with their constructions in Appendix C.1-C.2.

Both theorems are existence statements ("there exist :math:`W_Q, W_K, W_V, W_O, W_1, W_2` such that ..."): each is checked
with the weights its proof constructs, built into petheory's own attention head (:mod:`proofs_check.claims._heads`:
the library's causal mask and softmax compute what the construction relies on), so a bug there flips them.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check.claims import _heads
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("kazemnejad2023 (Kazemnejad, Padhi, Natesan Ramamurthy, Das, Reddy; arXiv 2305.19466v2, NeurIPS 2023) {where}; "
          "read in the full text (the arXiv v2 PDF stored in github.com/viktor-shcherb/msc_thesis, "
          "references/2023-12-positional-encoding-length-generalization/2305.19466.pdf @ 0a683d97)")
EPS = np.finfo(float).eps

# hidden dimensions of the construction: 0 the <bos> indicator, 1 content, 2 the attention's 1/t, 3 the MLP's t
BOS, CONTENT, INVERSE, POSITION = 0, 1, 2, 3


def first_layer_attention(n: int, content: np.ndarray) -> np.ndarray:
    """Theorem 1's attention sub-layer run by petheory's causal NoPE head: W_Q = W_K = 0 (uniform attention over the
    t visible tokens), W_V copies the <bos> indicator into dimension 2. Returns the hidden state after the residual
    connection, (n, 4): dimension 2 holds 1/t at position t (1-based)."""
    x = np.zeros((n, 4))
    x[0, BOS] = 1.0  # x = [<bos>, x_1, ..., x_T]
    x[1:, CONTENT] = content[: n - 1]
    w_v = np.zeros((4, 4))
    w_v[INVERSE, BOS] = 1.0
    att = _heads.head(4, pe="nope", n=n)
    _heads.set_weights(att, None, None, w_v, np.eye(4))
    return x + _heads.run(att, x)[0]


def inverse_mlp(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Theorem 1's feed-forward step: a ReLU MLP (:math:`W_1, W_2`, as the proof cites Park et al.) that maps 1/t to t for
    t = 1..n, the piecewise-linear interpolation of those n points: (:math:`W_1` (n, 4), :math:`b_1` (n,), :math:`W_2` (4, n), :math:`b_2`)."""
    xs = 1.0 / np.arange(n, 0, -1)  # 1/n < ... < 1, ascending
    ys = 1.0 / xs
    slopes = np.diff(ys) / np.diff(xs) if n > 1 else np.zeros(0)
    w1 = np.zeros((n, 4))
    w1[:, INVERSE] = 1.0
    b1 = -xs  # unit k: relu(x - x_k)
    w2 = np.zeros((4, n))
    w2[POSITION, : n - 1] = np.diff(np.concatenate([[0.0], slopes]))  # the change of slope at each knot
    return w1, b1, w2, float(ys[0])


def run_mlp(h: np.ndarray, w1, b1, w2, b2) -> np.ndarray:
    """The MLP on the hidden states (n, 4), in torch float64 (Linear, ReLU, Linear, as petheory's blocks have it)."""
    import torch

    with torch.no_grad():
        z = torch.relu(torch.tensor(h) @ torch.tensor(w1).T + torch.tensor(b1))
        return (z @ torch.tensor(w2).T).numpy() + b2 * np.eye(4)[POSITION]


@st.composite
def _cases(draw):
    return {"n": draw(st.integers(1, 128)), "seed": draw(st.integers(0, 2**16))}


def recovers_position(case) -> float:
    """> 0 when the first layer's output at position t (1-based) is not t, or dimension 2 is not 1/t."""
    n = case["n"]
    h = first_layer_attention(n, np.random.default_rng(case["seed"]).standard_normal(n))
    t = np.arange(1, n + 1)
    out = run_mlp(h, *inverse_mlp(n))
    inv_err = float(np.max(np.abs(h[:, INVERSE] - 1.0 / t)))
    pos_err = float(np.max(np.abs(out[:, POSITION] - t)))
    quantities(max_error_vs_1_over_t=inv_err, max_error_vs_t=pos_err)
    # 1/t from a softmax over t keys: rounding <= 4 t eps / t; the MLP sums n ReLUs with slope changes up to n^2 on
    # inputs rounded by that: its error <= n^2 * (n eps) * n (each knot) -- relative to t, n^3 eps at most
    return max(inv_err - 8 * n * EPS, pos_err - 8.0 * n**3 * EPS * (1.0 + n))


@claim(
    id="kazemnejad2023.nope_absolute_position",
    paper_status="theorem",
    source=SOURCE.format(where="§5.1, Theorem 1 (Absolute Encoding) and App. C.1"),
    statement=r"Theorem 1: 'Let x be an input sequence of length T + 1 to the model. Then, the first layer of $f_\theta$ "
    r"can recover absolute positions [1, ..., T + 1] in the hidden state $H^{(1)}$. That is, there exist $W_Q, W_K, "
    r"W_V, W_O, W_1$, and $W_2$ such that the self-attention and feedforward operations in the first layer compute "
    r"absolute positions and write it to the next hidden state.'",
    kind="exact",
    cases=_cases,
    reconstruction="The proof's weights: W_Q = W_K = 0 (all keys equal, attention 1/t over the t visible tokens), W_V "
    "nonzero only on the <bos> indicator (the head writes 1/t into dimension 3 of the paper, 2 here), W_O = I, and a "
    "ReLU MLP (W_1, W_2) interpolating 1/t -> t on the T + 1 positions (the universal-approximation step the proof "
    "cites, made explicit). The attention is petheory's causal NoPE head; layer norms are not part of the "
    "construction and are left out. Checked: dimension 2 is 1/t and the MLP writes t, for every position.",
    plants=(
        pl.Plant("petheory's attention without its causal mask",
                 pl.attr("petheory.nn.transformer.Attention.heads", lambda real: pl.not_causal(real))),
        pl.Plant("the attention built without its causal mask",
                 pl.attr("petheory.nn.transformer.Attention.__init__", lambda real: pl.init_not_causal(real))),
        pl.Plant("config validation drops causal",
                 pl.attr("petheory.nn.transformer.ModelConfig.validate", lambda real: pl.validate_not_causal(real))),
    ),
)
def _recovers_position(case) -> float:
    return recovers_position(case)


def relative_construction(content_dim: int, head_dim: int, lam: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """:math:`W_Q, W_K` of Theorem 2's construction on :math:`h_t = [c_t, t, 1]` (the state Theorem 1's layer leaves), square (d, d)
    with d = max(content_dim, head_dim) + 2: :math:`q_t = [A c_t, -t, 1]`, :math:`k_i = [B c_i, \\lambda, \\lambda i]`, so that
    :math:`\\langle q_t, k_i\\rangle = c_t^\\top A^\\top B c_i + \\lambda (i - t)` (App. C.2: :math:`q_t = [1, -t, \\dots]`, :math:`k_i = [i, 1, \\dots]`, :math:`\\lambda = 1`)."""
    d = max(content_dim, head_dim) + 2
    a, b = rng.standard_normal((head_dim, content_dim)), rng.standard_normal((head_dim, content_dim))
    w_q, w_k = np.zeros((d, d)), np.zeros((d, d))
    w_q[:head_dim, :content_dim], w_k[:head_dim, :content_dim] = a, b
    w_q[d - 2, content_dim] = -1.0  # the query carries -t
    w_q[d - 1, content_dim + 1] = 1.0
    w_k[d - 2, content_dim + 1] = lam  # the key carries lam and lam * i
    w_k[d - 1, content_dim] = lam
    return w_q, w_k


@st.composite
def _relative_cases(draw):
    return {"n": draw(st.integers(2, 32)), "content_dim": draw(st.integers(1, 6)), "head_dim": draw(st.integers(1, 6)),
            "lam": draw(st.floats(-2.0, 2.0)), "seed": draw(st.integers(0, 2**16))}


def relative_logits(case) -> float:
    """> 0 when petheory's head, with the construction's :math:`W_Q, W_K` on :math:`[c_t, t, 1]`, has logits other than
    :math:`f_{cnt}(c_t, c_i) + \\lambda (i - t)` up to a per-row constant (read back from its attention probabilities)."""
    rng = np.random.default_rng(case["seed"])
    n, dc = case["n"], case["content_dim"]
    w_q, w_k = relative_construction(dc, case["head_dim"], case["lam"], rng)
    d = w_q.shape[0]
    c = rng.standard_normal((n, dc))
    t = np.arange(1, n + 1, dtype=float)
    h = np.zeros((n, d))
    h[:, :dc], h[:, dc], h[:, dc + 1] = c, t, 1.0  # content, absolute position (Theorem 1), a constant feature
    att = _heads.head(d, pe="nope", n=n)
    _heads.set_weights(att, w_q, w_k, np.eye(d))
    p = _heads.run(att, h)[1]
    content = (c @ w_q[:-2, :dc].T) @ (c @ w_k[:-2, :dc].T).T  # f_cnt(c_t, c_i) = c_t^T A^T B c_i
    expected = (content + case["lam"] * (t[None, :] - t[:, None])) / np.sqrt(d)  # the library's 1/sqrt(d) scale
    lower = np.tril(np.ones((n, n), bool))
    resid = np.where(lower, np.log(np.where(lower, p, 1.0)) - expected, np.nan)
    spread = float(np.nanmax(np.nanmax(resid, 1) - np.nanmin(resid, 1)))  # a constant per row is the softmax's
    scale = float(np.abs(expected[lower]).max()) + 1.0
    quantities(largest_row_spread_of_log_alpha_minus_f=spread, logit_scale=scale)
    # logits: (d)-term sums of entries <= scale, rounded <= 4 d eps scale; log-softmax adds <= 4 n eps scale
    return spread - 16 * (d + n) * EPS * scale


@claim(
    id="kazemnejad2023.nope_relative_position",
    paper_status="theorem",
    source=SOURCE.format(where="§5.1, Theorem 2 (Relative Encoding) and App. C.2"),
    statement=r"Theorem 2: 'Suppose that the hidden state $H^{(1)}$ contains absolute positional information, as stated "
    r"in Theorem 1, and assume that it is not overwritten by any subsequent layers. Then, the self-attention in all "
    r"subsequent layers can implement a relative positional encoding: there exists a parameterization of $f_\theta$ "
    r"such that, for $l \ge 2$, the attention dot product between query $q_n$ and key $k_m$ at positions n and m can "
    r"be expressed as: $\langle q_n, k_m\rangle = f_{cnt}(q, k) + f_{rel}(n - m)$' (1).",
    kind="exact",
    cases=_relative_cases,
    reconstruction="App. C.2's construction on h_t = [c_t, t, 1] (Theorem 1's state plus a constant feature): q_t = "
    "[A c_t, -t, 1], k_i = [B c_i, lam, lam i], so <q_t, k_i> = c_t^T A^T B c_i + lam (i - t) (the proof's case is "
    "lam = 1). Run through petheory's causal NoPE head; since the head returns probabilities, the logits are read "
    "back as log alpha, which equals logit / sqrt(d) up to one constant per row (the softmax's normaliser).",
    plants=(
        pl.Plant("the construction's key carries 2 lam i (logits lam (2i - t))",
                 pl.attr("proofs_check.claims.kazemnejad2023.relative_construction", lambda real: pl.key_twice_position(real))),
    ),
)
def _relative_logits(case) -> float:
    return relative_logits(case)
