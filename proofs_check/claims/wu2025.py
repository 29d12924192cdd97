r"""wu2025 (On the Emergence of Position Bias in Transformers, arXiv 2502.01951, ICML 2025): the decay-mask peak.

Source checked: the arXiv abstract and HTML v2/v4 opening (graph-theoretic framework; causal mask biases
towards early positions; decay masks and RoPE trade long-term decay against the cumulative weight of
early positions), and a public structured summary of the paper that states Theorems 4.1-4.7, Lemmas 4.4
and 4.6 and assumptions A1-A2 with their formulas. The paper's own text past the abstract (and the
authors' code, an OpenReview zip) was not reached: every statement here is as that summary quotes it.
outside.md's recovered forms agree with it (Theorem 4.1's bound, Theorem 4.2's ceil((N-1)/(w-1)) hops,
Theorem 4.5's Theta form and x* = t/(e^m - 1)).

The authors' code (github.com/xinyiwu98/position-bias-in-attention, ``utils.py`` at ded907e7) gives the masks
their experiments use: the prefix mask of Theorem 4.3 (:func:`prefix_mask`), the sliding window and the decay
mask gamma^(i-j) (gamma = e^{-m}). Searched for the full text (exact phrases of the theorems in public
repositories, paper-text extractions, stored web pages: only the arXiv HTML v2/v4 opening is stored) without
success; Lemma 4.6 / Theorem 4.7 (RoPE) stay unchecked: their constants c, c' and the angle condition on
queries and keys are in neither the summary nor the code.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from proofs_check.engine import claim, quantities

SOURCE = ("wu2025 (Wu, Wang, Jegelka, Jadbabaie; arXiv 2502.01951, ICML 2025) §4 (decay mask; a theorem there, its "
          "number not read), checked against the abstract and public summaries")
SOURCE_45 = ("wu2025 (Wu, Wang, Jegelka, Jadbabaie; arXiv 2502.01951, ICML 2025) §4.2, Theorem 4.5 (decay mask, "
             "multi-layer); read in the abstract and a public structured summary of the paper that quotes the theorem "
             "(the paper's own text past its abstract was not reached)")


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
    source=SOURCE_45,
    statement=r"Theorem 4.5: with the decay mask $D_{ij} = -(i-j)m$ and the causal mask, "
    r"$P^{(t)}_{decay}(z_i = j \mid X^{(0)}) = \Theta\big(\binom{t+i-j}{i-j}e^{-(i-j)m}\big)$; "
    r"$L(x) = \log\big(\binom{t+x}{x}e^{-xm}\big)$ is non-monotonic with critical point $x^* = t/(e^m-1)$ under "
    r"Stirling's approximation.",
    kind="exact",
    cases=_cases,
    reconstruction="the 'peak' read as the integer argmax of the Theta-term C(t+x, x) e^{-xm} over x >= 0; 'near' as "
    "within one position (the argmax is floor(t/(e^m-1)), with a tie at integers). The Theta statement itself (the "
    "multi-layer attention) is not checked here.",
)
def _peak(case) -> float:
    return peak(case)



# ============================================================================ Theorems 4.1 and 4.2: causal and sliding masks

SUMMARY = ("a public structured summary of the paper (a paper-notes Markdown file in a GitHub repository, found by text "
           "search; it gives the theorem numbers, assumptions A1-A2 and the bounds of Theorems 4.1-4.7); the paper's "
           "own text past its abstract was not reached")


def layer_attention(n: int, window: int, rng, logit_bound: float) -> tuple[np.ndarray, np.ndarray]:
    """One attention layer under the mask 'i attends to j iff 0 <= i - j < window' (window >= n: causal).

    Logits uniform in [-logit_bound, logit_bound]: the bounded scores A1-A2 give (their Lemma A.1). Returns
    the (n, n) row-stochastic matrix and the boolean mask of its edges.
    """
    i, j = np.indices((n, n))
    allowed = (j <= i) & (i - j < window)
    s = np.where(allowed, rng.uniform(-logit_bound, logit_bound, (n, n)), -np.inf)
    a = np.exp(s - s.max(1, keepdims=True))
    return a / a.sum(1, keepdims=True), allowed


def lemma_a1_epsilon(layers) -> float:
    """Lemma A.1's epsilon: the smallest attention weight on any edge of the mask, over every layer."""
    return float(min(a[m].min() for a, m in layers))


@st.composite
def _mask_cases(draw, sliding: bool):
    n = draw(st.integers(2, 24))
    w = draw(st.integers(2, n - 1)) if sliding and n > 2 else n
    return {"n": n, "window": w, "depth": draw(st.integers(0, 64)), "logit_bound": draw(st.floats(0.0, 4.0)),
            "seed": draw(st.integers(0, 2**16))}


def first_token_bound(case) -> float:
    """> 0 when P^(t)(z_i = j) = (A^(t)...A^(0))_ij exceeds the theorem's bound (C = 1) for some 1 < j <= i."""
    n, w, t = case["n"], case["window"], case["depth"]
    rng = np.random.default_rng(case["seed"])
    layers = [layer_attention(n, w, rng, case["logit_bound"]) for _ in range(t + 1)]
    P = np.eye(n)
    for a, _ in layers:
        P = a @ P  # (n, n): A^(t) ... A^(0)
    eps = lemma_a1_epsilon(layers)
    jj = np.arange(1, n + 1)
    if w >= n:  # Theorem 4.1
        bound = (1.0 - (jj - 1) * eps) ** t
    else:  # Theorem 4.2: hops h = ceil((N-1)/(w-1))
        h = math.ceil((n - 1) / (w - 1))
        bound = (1.0 - (jj - 1) * eps**h) ** (t / (2 * h))
    lower = np.tril(np.ones((n, n), bool))
    lower[:, 0] = False
    excess = (P - bound[None, :])[lower]
    quantities(epsilon=eps, n_times_epsilon=n * eps, largest_excess=float(excess.max()), mass_on_first_token=P[:, 0].min())
    # t + 1 products of stochastic matrices, n terms each: rounding <= (t + 1) n eps_machine per entry
    return float(excess.max()) - (t + 2) * n * np.finfo(float).eps


@claim(
    id="wu2025.causal_mask_first_token",
    paper_status="theorem",
    source=SOURCE.replace("§4 (decay mask; a theorem there, its number not read)", "§4.1, Theorem 4.1 and Lemma A.1")
    + "; statement from " + SUMMARY,
    statement=r"Theorem 4.1: under the causal mask and A1-A2, for every token i, "
    r"$\lim_{t\to\infty} P^{(t)}(z_i = 1 \mid X^{(0)}) = 1$, with $P^{(t)}(z_i = j \mid X^{(0)}) \le C(1 - (j-1)\epsilon)^t$ "
    r"for all $1 < j \le i$, where $N\epsilon < 1$ and $P^{(t)} = A^{(t)}\cdots A^{(0)}$.",
    kind="exact",
    cases=lambda: _mask_cases(sliding=False),
    reconstruction="Lemma A.1's epsilon (every attention weight on an edge of the mask is >= epsilon) is taken as the "
    "smallest such weight over the layers drawn; the layers are softmax attention with logits bounded by "
    "logit_bound (what A1-A2 guarantee). Checked with C = 1, the constant the induction gives (so a pass implies the "
    "theorem for any C >= 1); the limit follows from the bound.",
    examples={"quick": 60, "thorough": 600},
)
def _causal_first_token(case) -> float:
    return first_token_bound(case)


@claim(
    id="wu2025.sliding_window_first_token",
    paper_status="theorem",
    source=SOURCE.replace("§4 (decay mask; a theorem there, its number not read)", "§4.1, Theorem 4.2")
    + "; statement from " + SUMMARY,
    statement=r"Theorem 4.2: under a sliding-window mask of width w, context still converges to the first token, at a "
    r"slower rate: $P^{(t)}(z_i = j \mid X^{(0)}) \le C\big(1 - (j-1)\epsilon^{h}\big)^{t/(2h)}$ with "
    r"$h = \lceil (N-1)/(w-1) \rceil$ (the hops from token 1 to every token).",
    kind="exact",
    cases=lambda: _mask_cases(sliding=True),
    reconstruction="As for wu2025.causal_mask_first_token: epsilon is the smallest weight on an edge over the layers "
    "drawn, C = 1; windows 2 <= w < N (w >= N is the causal mask).",
    examples={"quick": 60, "thorough": 600},
)
def _sliding_first_token(case) -> float:
    return first_token_bound(case)


# ============================================================================ Theorem 4.3: prefix mask


def prefix_mask(n: int, k: int) -> np.ndarray:
    """The authors' prefix mask (github.com/xinyiwu98/position-bias-in-attention, ``utils.prefix_mask``, commit
    ded907e7): the first K tokens attend to each other (rows and columns 0..K-1), every later token i causally to
    0..i. Returns the (n, n) boolean mask of the edges."""
    i, j = np.indices((n, n))
    return np.where(i < k, j < k, j <= i)


def prefix_layers(n: int, k: int, depth: int, rng, logit_bound: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """depth + 1 softmax layers under :func:`prefix_mask`, logits uniform in [-logit_bound, logit_bound] (A1-A2)."""
    out = []
    for _ in range(depth + 1):
        allowed = prefix_mask(n, k)
        s = np.where(allowed, rng.uniform(-logit_bound, logit_bound, (n, n)), -np.inf)
        a = np.exp(s - s.max(1, keepdims=True))
        out.append((a / a.sum(1, keepdims=True), allowed))
    return out


@st.composite
def _prefix_cases(draw):
    n = draw(st.integers(2, 24))
    return {"n": n, "prefix": draw(st.integers(1, n - 1)), "depth": draw(st.integers(0, 64)),
            "logit_bound": draw(st.floats(0.0, 4.0)), "seed": draw(st.integers(0, 2**16))}


def prefix_convergence(case) -> float:
    """> 0 when some token's mass outside the K prefix tokens after t + 1 layers exceeds (1 - K eps)^(t+1)."""
    n, k, t = case["n"], case["prefix"], case["depth"]
    layers = prefix_layers(n, k, t, np.random.default_rng(case["seed"]), case["logit_bound"])
    P = np.eye(n)
    for a, _ in layers:
        P = a @ P  # (n, n): A^(t) ... A^(0)
    eps = lemma_a1_epsilon(layers)
    outside = P[:, k:].sum(1)  # (n,): each token's mass on the non-prefix tokens
    bound = (1.0 - k * eps) ** (t + 1)
    quantities(epsilon=eps, kappa=k * eps, largest_mass_outside_prefix=float(outside.max()), bound=bound)
    # t + 1 products of stochastic matrices and a sum of n entries: rounding <= (t + 2) n eps_machine
    return float(outside.max() - bound) - (t + 2) * n * np.finfo(float).eps


@claim(
    id="wu2025.prefix_mask_prefix_tokens",
    paper_status="theorem",
    source=SOURCE.replace("§4 (decay mask; a theorem there, its number not read)", "§4.1, Theorem 4.3")
    + "; statement from " + SUMMARY + "; the mask from the authors' code (github.com/xinyiwu98/"
    "position-bias-in-attention, utils.prefix_mask, commit ded907e7)",
    statement=r"Theorem 4.3 (as the summary words it): under a prefix mask with K prefix tokens and A1-A2, context "
    r"converges to the prefix: $\lim_{t\to\infty}\sum_{j\le K} P^{(t)}(z_i = j \mid X^{(0)}) = 1$ for every token i, "
    r"at a geometric rate with a lower bound $\kappa$ on its per-layer contraction (kappa's value is not given in the "
    r"summary).",
    kind="exact",
    cases=_prefix_cases,
    reconstruction="The rate read with kappa = K eps, derived here: every non-prefix token puts at least K eps on the "
    "prefix (Lemma A.1's eps on each edge), prefix tokens attend only to the prefix, so the mass outside the prefix "
    "shrinks by (1 - K eps) per layer: checked as mass outside the prefix <= (1 - K eps)^(t+1) after t + 1 layers "
    "(the limit follows). eps is the smallest weight on an edge over the layers drawn; the mask is the authors' "
    "(prefix tokens attend to each other, later tokens causally).",
    examples={"quick": 60, "thorough": 600},
)
def _prefix_tokens(case) -> float:
    return prefix_convergence(case)
