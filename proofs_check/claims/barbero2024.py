r"""barbero2024 (Round and Round We Go! What makes Rotary Positional Encodings useful?, arXiv 2410.06205, ICLR 2025).

Source checked: the arXiv abstract and HTML v1 opening (RoPE's usefulness is not decay; Gemma 7B uses
the lowest frequencies most, as semantic channels, and high frequencies to build positional attention
heads) and a public structured summary of the paper that states Props 3.1, 3.2, 5.2 and Theorems 5.3,
6.1 with their proof outlines (its wording of Props 3.1-3.2 matches the statements below). The paper's
own text past the opening was not reached. Thm 6.1 stays skipped: the summary leaves its hypotheses open.
"""

from __future__ import annotations

import glob
import json
import os

import numpy as np
from hypothesis import strategies as st

from petheory.encodings import rope_frequencies
from proofs_check.claims._strategies import vectors
from proofs_check.engine import Evidence, claim, quantities
from proofs_check.tolerance import gamma

SOURCE = ("barbero2024 (Barbero, Vitvitskyi, Perivolaropoulos, Pascanu, Velickovic; arXiv 2410.06205, ICLR 2025) §3 "
          "(Props 3.1, 3.2) and §5 (frequency usage of Gemma 7B). Checked against the abstract and public summaries.")


def _rot(x, w, r):
    a, b = x[0::2], x[1::2]
    c, s = np.cos(r * w), np.sin(r * w)
    out = np.empty_like(x)
    out[0::2], out[1::2] = a * c - b * s, a * s + b * c
    return out


def logit(q, k, w, r):
    """The RoPE logit of a query r positions after its key: (R_{p+r} q)^T (R_p k) = q^T R_{-r} k."""
    return float(q @ _rot(k, w, -r))


def best_key(q, w, r):
    """Prop 3.1's key for offset r: R^r q."""
    return _rot(q, w, r)


@st.composite
def _max_cases(draw):
    d = draw(st.sampled_from([2, 4, 8, 16]))
    return {"d": d, "base": draw(st.floats(2.0, 1e5)), "r": draw(st.integers(0, 10000)),
            "q": draw(vectors(d, -5, 5)), "k": draw(vectors(d, -5, 5))}


def max_at_offset(case) -> float:
    """> 0 when some key of the same norm beats k = R^r q at offset r."""
    w = rope_frequencies(case["d"], base=case["base"])
    q, k = np.array(case["q"]), np.array(case["k"])
    nq, nk = np.linalg.norm(q), np.linalg.norm(k)
    if nq == 0 or nk == 0:
        return -1.0
    best = logit(q, best_key(q, w, case["r"]), w, case["r"])
    other = logit(q, k * (nq / nk), w, case["r"])
    quantities(logit_of_R_r_q=best, logit_of_other_key=other, norm_q_squared=nq * nq)
    return other - best - 8 * case["d"] * np.finfo(float).eps * nq * nq


@claim(
    id="barbero2024.max_at_any_offset",
    paper_status="proposition",
    source=SOURCE,
    statement=r"Prop 3.1: for any query $q \ne 0$ and offset $r$, the key $k = R^r q$ maximises the activation at "
    r"distance $r$ among keys of its norm, so RoPE can attend most to any chosen distance (no forced decay).",
    kind="exact",
    cases=_max_cases,
)
def _max_at_offset(case) -> float:
    return max_at_offset(case)


@st.composite
def _iso_cases(draw):
    return {"d": draw(st.sampled_from([2, 8, 32, 128])), "base": draw(st.floats(2.0, 1e6)),
            "r": draw(st.integers(0, 100000)), "seed": draw(st.integers(0, 2**16))}


N_SAMPLES = 20000


def isotropic_zero_mean(case) -> float:
    """Monte Carlo mean of q^T R^r k for independent q, k ~ N(0, I); > 0 when 6 standard errors from 0."""
    d = case["d"]
    w = rope_frequencies(d, base=case["base"])
    rng = np.random.default_rng(case["seed"])
    q, k = sample_pair(rng, d)
    vals = np.einsum("nd,nd->n", q, _rot_rows(k, w, -case["r"]))
    est, se = vals.mean(), vals.std(ddof=1) / np.sqrt(N_SAMPLES)
    quantities(estimate=est, standard_error=se)
    return abs(est) - 6 * se  # 6 SE: false alarm ~2e-9 per case (CLT)


def sample_pair(rng, d):
    """Independent standard Gaussian queries and keys (the premise of Prop 3.2)."""
    return rng.standard_normal((N_SAMPLES, d)), rng.standard_normal((N_SAMPLES, d))


def _rot_rows(x, w, r):
    a, b = x[:, 0::2], x[:, 1::2]
    c, s = np.cos(r * w), np.sin(r * w)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = a * c - b * s, a * s + b * c
    return out


@claim(
    id="barbero2024.no_decay_isotropic",
    paper_status="proposition",
    source=SOURCE,
    statement=r"Prop 3.2: for $q, k \sim N(0, I)$ independent, $E[q^\top R^r k] = 0$ at every distance $r$: RoPE "
    r"gives no decay in expectation for Gaussian queries and keys.",
    kind="exact",
    cases=_iso_cases,
    examples={"quick": 20, "thorough": 300},
)
def _no_decay(case) -> float:
    return isotropic_zero_mean(case)


# ============================================================================ frequency usage of trained models

ALPHA = 0.05


def band_usage_evidence(records: list[dict]) -> Evidence:
    """Decide the frequency-usage reading from band-usage records (``petheory bands --json``) of trained models.

    Per model: the share of heads whose mean query/key norm per band is larger in the lowest-frequency
    quarter of the bands than in the highest-frequency quarter. A reconstruction without a calibration:
    at most inconclusive, with the direction in the summary.
    """
    if not records:
        return Evidence("inconclusive", 0, summary="no band-usage records of a trained model: run `petheory bands --pe "
                        "hf:DIR --json FILE` on trained weights and put FILE under <workdir>/band_usage/; what would "
                        "decide it: per head, the q/k norm in the lowest- vs highest-frequency bands, across models "
                        "(random weights decide nothing)", details={"criterion": "see band_usage_evidence"})
    per = {}
    for rec in records:
        norms = np.asarray(rec["query"]["norms"], dtype=float)  # (layers, heads, bands), band 0 = highest frequency
        q = max(1, norms.shape[-1] // 4)
        low, high = norms[..., -q:].mean(-1), norms[..., :q].mean(-1)
        per[rec.get("model", "?")] = float(np.mean(low > high))
    summary = "; ".join(f"{k}: {v:.0%} of heads put more query norm in the lowest-frequency quarter" for k, v in per.items())
    return Evidence("inconclusive", len(per), details={"share_low_over_high": per}, summary=summary,
                    setup="reconstruction")


@claim(
    id="barbero2024.low_frequencies_semantic",
    paper_status="empirical",
    source=SOURCE,
    statement=r"§5: trained Gemma 7B uses the lowest frequencies of RoPE the most (semantic channels that carry little "
    r"position over the context), and high frequencies to build positional attention heads.",
    kind="empirical",
    setup="reconstruction",
    alpha=ALPHA,
    looks=1,
    trained=False,
    reconstruction="Weight-space counterpart of the measurement: band norms of W_q and W_k per head "
    "(petheory.loaders.band_usage), read from the records the user puts in <workdir>/band_usage/*.json. Without the "
    "paper's per-band activation norms of Gemma 7B as calibration it is at most inconclusive; it is never decided "
    "from random weights.",
)
def _low_frequencies(ctx) -> Evidence:
    recs = []
    for path in sorted(glob.glob(os.path.join(ctx.workdir or ".", "band_usage", "*.json"))):
        with open(path) as fh:
            recs.append(json.load(fh))
    return band_usage_evidence(recs)


# ============================================================================ named, not recovered

_UNREACHED = ("the paper's full text could not be reached (only the arXiv abstract/HTML opening and public summaries "
              "were found: stored web pages, public GitHub copies, the authors' code; searched again on 2026-11-25 for "
              "exact phrases of §6 and the abstract in public repositories and paper-text collections such as "
              "commotum/4D Notes/Vision/pdfs-3: only the abstract, the OpenReview reviews and notes were found), and a "
              "checker written from a summary's wording would be our invention")

SUMMARY = ("a public structured summary of the paper (a paper-notes Markdown file in a GitHub repository, found by text "
           "search) that states Props 3.1, 3.2, 5.2 and Theorems 5.3, 6.1 with the outline of their proofs")


def head_logits(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Causal attention logits of one NoPE head: a_ij = <W_q x_i, W_k x_j> (positions unused: no positional encoding)."""
    q, k = x @ w_q.T, x @ w_k.T  # (n, d)
    return q @ k.T


@st.composite
def _nope_cases(draw):
    dm, d = draw(st.integers(1, 8)), draw(st.sampled_from([2, 4, 8]))
    return {"d_model": dm, "d": d, "scale": draw(st.floats(0.01, 1e3)), "tied": draw(st.booleans()),
            "seed": draw(st.integers(0, 2**16))}


def nope_diagonal(case) -> float:
    """> 0 when a NoPE head puts more than 1/2 of token 3's attention on itself on [bos, x, x]."""
    rng = np.random.default_rng(case["seed"])
    dm, d, c = case["d_model"], case["d"], case["scale"]
    bos, x1 = rng.standard_normal(dm), rng.standard_normal(dm)
    x = np.stack([bos, x1, x1])  # the input [x_bos, x_1, x_1]
    w_q = c * rng.standard_normal((d, dm))
    w_k = w_q.copy() if case["tied"] else c * rng.standard_normal((d, dm))  # tied: Theorem 5.3's q = k construction
    a = head_logits(x, w_q, w_k, np.arange(3))[2, :3]  # row of token 3, causal: keys 1..3
    alpha = np.exp(a - a.max())
    alpha /= alpha.sum()
    # alpha_33 = alpha_32 in exact arithmetic (identical logits), so alpha_33 <= 1/2. In floating point the two
    # logits are two products q3 . k of one key row computed twice, and BLAS need not round the two rows alike
    # (another processor's kernel did not: at scale 719 the logits differ by an ulp of 1e6): each errs by at most
    # gamma_(2 d_model + d) (|W_q||x_1|) . (|W_k||x_1|) (Higham 2002, §3.5), and alpha_33 - 1/2 = tanh(da/2)/2 <= da/4
    # for a logit gap da; then the softmax's own rounding, a few ulps.
    logit_err = gamma(2 * dm + d) * float((np.abs(w_q) @ np.abs(x1)) @ (np.abs(w_k) @ np.abs(x1)))
    tol = 2 * logit_err / 4 + 4 * np.finfo(float).eps
    quantities(alpha_33=alpha[2], alpha_32=alpha[1], alpha_31=alpha[0], tolerance=tol)
    return float(alpha[2] - 0.5 - tol)


@claim(
    id="barbero2024.nope_cannot_sharpen",
    paper_status="proposition",
    source=SOURCE.replace("§3 (Props 3.1, 3.2) and §5 (frequency usage of Gemma 7B)", "§5, Prop 5.2 and Appendix A.2")
    + "; statement from " + SUMMARY,
    statement=r"Prop 5.2: NoPE cannot learn diagonal (or off-diagonal) attention patterns in a single head: on the "
    r"sequence $[x_{bos}, x_1, x_1]$, $a_{3,3} = \langle q_3, k_3\rangle = \langle q_3, k_2\rangle = a_{3,2}$, so "
    r"$\alpha_{3,3} < 1/2$, contradicting the diagonal pattern's $\alpha_{i,i} > 1 - \epsilon$.",
    kind="exact",
    cases=_nope_cases,
    reconstruction="One causal softmax head with arbitrary W_q, W_k (any scale, tied or not) on random embeddings; the "
    "check is the counterexample input of the proof: alpha_33 <= 1/2 for every head.",
)
def _nope_diagonal(case) -> float:
    return nope_diagonal(case)


claim(
    id="barbero2024.single_frequency_channel",
    paper_status="theorem",
    source=SOURCE.replace("§3 (Props 3.1, 3.2) and §5 (frequency usage of Gemma 7B)", "§6, Thm 6.1"),
    statement="Thm 6.1 (as a public summary words it): for d = 2 (a single RoPE frequency g_1), given a long enough "
    "sequence, the attention head cannot attend to a target token with alpha_{i,n} > 1 - eps; the proof uses the "
    "density of irrational rotations (Lemma A.2).",
    kind="exact",
    skip_reason="Thm 6.1: the summary we reached does not say what the non-target tokens' keys are allowed to be (a "
    "non-target key of small norm never wins), nor how 'long enough' depends on eps; " + _UNREACHED,
)
