r"""men2024 (Base of RoPE Bounds Context Length, arXiv 2405.14591): the similar-token gap and the base bound.

Source checked: the arXiv abstract and HTML (v1) opening, and the paper's Fig. 1 (the fitted curve
:math:`0.0424\,L^{1.628}`) as read in public summaries; the table of lower bounds is reproduced by
:func:`petheory.bounds.long_context.men_smallest_base` at d = 128 (4.3e3 at 1k, 2.7e4 at 4k, 8.4e4 at 8k).
``../shared/papers/outside.md`` gives 2.9e4 at 4k: a coarser scan that missed the island of passing
bases starting at 2.70e4 (a finer grid finds it).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from petheory.encodings import rope_frequencies
from proofs_check.engine import Reading, claim, quantities

SOURCE = ("men2024 (Men, Xu, Wang, Zhang, Lin, Han, Chen; arXiv 2405.14591, NeurIPS 2024) §4.2, Theorem 1, Eq. for "
          "B_{m,theta}; §4.3 and Fig. 1 (lower bound of the base per context length). Checked against the arXiv "
          "abstract/HTML opening and public summaries of Fig. 1; the table values are recomputed here, not read.")


# ============================================================================ Theorem 1: the similar-token gap


@st.composite
def _gap_cases(draw):
    return {"d": draw(st.sampled_from([4, 8, 16, 32])), "base": draw(st.floats(2.0, 1e5)),
            "m": draw(st.integers(0, 4096)), "sigma": draw(st.floats(0.2, 3.0)), "mu": draw(st.floats(-2.0, 2.0)),
            "eps": draw(st.floats(0.0, 0.5)), "seed": draw(st.integers(0, 2**16))}


def _rotate(x, w, m):
    """R_m x on interleaved pairs: rotate pair i by m * w_i (rows of x)."""
    a, b = x[:, 0::2], x[:, 1::2]
    c, s = np.cos(m * w), np.sin(m * w)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = a * c - b * s, a * s + b * c
    return out


N_SAMPLES = 20000


def similar_token_gap(case) -> float:
    """Monte Carlo estimate of E[q^T R_m k*] - E[q^T R_m k] against 2 sigma^2 B_m; > 0 when outside 6 standard errors."""
    d, m, sig = case["d"], case["m"], case["sigma"]
    w = rope_frequencies(d, base=case["base"])
    rng = np.random.default_rng(case["seed"])
    q = case["mu"] + sig * rng.standard_normal((N_SAMPLES, d))
    k = case["mu"] + sig * rng.standard_normal((N_SAMPLES, d))  # an unrelated token: same law, independent of q
    ks = q + case["eps"] * rng.standard_normal((N_SAMPLES, d))  # a similar token k* = q + eps
    diff = np.einsum("nd,nd->n", q, _rotate(ks, w, -m)) - np.einsum("nd,nd->n", q, _rotate(k, w, -m))
    est, se = diff.mean(), diff.std(ddof=1) / np.sqrt(N_SAMPLES)
    rhs = 2 * sig**2 * float(lc.men_kernel(m, w))
    quantities(estimate=est, standard_error=se, two_sigma2_B_m=rhs)
    # 6 standard errors: a false alarm has probability ~2e-9 per case (CLT), the budget is < 1e4 cases
    return abs(est - rhs) - 6 * se


@claim(
    id="men2024.similar_token_gap",
    paper_status="theorem",
    source=SOURCE,
    statement=r"Theorem 1: for q and k with i.i.d. components of standard deviation $\sigma$ and a similar token "
    r"$k^* = q + \epsilon$, $\frac{1}{2\sigma^2}\big(E[q^\top R_{m,\theta} k^*] - E[q^\top R_{m,\theta} k]\big) = "
    r"\sum_{i=0}^{d/2-1}\cos(m\theta_i) = B_{m,\theta}$.",
    kind="exact",
    cases=_gap_cases,
    reconstruction="q, k i.i.d. Gaussian with a common mean mu and std sigma, eps independent zero-mean noise; the "
    "expectation is a Monte Carlo mean of 20000 draws, compared with 2 sigma^2 B_m within 6 standard errors. The "
    "logit is q^T R_{-m} k*, i.e. the query m positions after the key (R_m orthogonal, so the sign of m does not "
    "change B_m).",
    examples={"quick": 20, "thorough": 300},
)
def _similar_token_gap(case) -> float:
    return similar_token_gap(case)


# ============================================================================ the base bounds the context length

PAIRS = [(32, 256), (64, 256), (64, 512), (128, 512), (128, 1024)]


def smallest(d: int, L: int) -> float:
    return lc.men_smallest_base(d, L)


def min_kernel(d: int, base: float, L: int) -> tuple[float, int]:
    """min over 0 <= m <= L of B_m for RoPE (d, base), and where."""
    return lc.men_min_kernel(rope_frequencies(d, base=base), L, stop_below=None)


@st.composite
def _below_cases(draw):
    d, L = draw(st.sampled_from(PAIRS))
    return {"d": d, "context": L, "fraction": draw(st.floats(0.02, 0.9999))}


@st.composite
def _above_cases(draw):
    d, L = draw(st.sampled_from(PAIRS))
    return {"d": d, "context": L, "factor": draw(st.floats(1.0, 30.0))}


def below_fails(case) -> float:
    """> 0 when a base below the computed b_L passes (b_L would not be the smallest passing base)."""
    b0 = smallest(case["d"], case["context"])
    b = b0 * case["fraction"]
    mn, at = min_kernel(case["d"], b, case["context"])
    quantities(b_L=b0, base=b, min_B_m=mn, at_m=at)
    return 1.0 if mn >= 0 else mn  # a passing base below b_L is a counterexample; else its (negative) min


def above_passes(case) -> float:
    """> 0 when a base at or above b_L fails Men's property: min_m B_m < 0 (its depth below 0)."""
    b0 = smallest(case["d"], case["context"])
    b = b0 * case["factor"]
    mn, at = min_kernel(case["d"], b, case["context"])
    quantities(b_L=b0, base=b, min_B_m=mn, at_m=at)
    return -mn


claim(
    id="men2024.base_bounds_context",
    source=SOURCE,
    statement=r"To keep the ability to attend more to similar tokens than to random ones up to context $L$, "
    r"$B_{m,\theta} \ge 0$ must hold for all $0 \le m \le L$; this gives an absolute lower bound $b_L$ of the base "
    r"for context $L$ (Fig. 1: $b_L \approx 0.0424 L^{1.628}$).",
    kind="exact",
    paper_status="theorem",
    readings=[
        Reading("smallest_passing_base", r"$b_L$ is the smallest base with $B_{m,\theta}\ge 0$ for all "
                r"$0\le m\le L$: every base below it fails.", check=below_fails, cases=_below_cases,
                examples={"quick": 30, "thorough": 400}),
        Reading("every_larger_base_passes", r"a lower bound in the usual sense: every base $b \ge b_L$ gives "
                r"$B_{m,\theta}\ge 0$ for all $0\le m\le L$.", check=above_passes, cases=_above_cases,
                examples={"quick": 30, "thorough": 400}),
    ],
)
