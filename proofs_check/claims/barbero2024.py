r"""barbero2024 (Round and Round We Go! What makes Rotary Positional Encodings useful?, arXiv 2410.06205, ICLR 2025).

Source checked: the arXiv abstract (RoPE's usefulness is not decay; Gemma 7B uses the lowest
frequencies most, as semantic channels, and high frequencies to build positional attention heads)
and public summaries of Props 3.1-3.2. Prop 5.2 (NoPE) and Thm 6.1 (single-frequency channels) are
listed in the coverage as not checked.
"""

from __future__ import annotations

import glob
import json
import os

import numpy as np
from hypothesis import strategies as st

from petheory.encodings import rope_frequencies
from proofs_check.claims._strategies import vectors
from proofs_check.engine import Evidence, claim, quantities, skipped

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

_UNREACHED = ("the full text could not be reached: only the arXiv abstract/HTML opening and public "
              "summaries were found (searched: stored web pages, public GitHub copies of the paper, the authors' "
              "code); ../shared/papers/outside.md has a one-line summary of it, not its conditions or constants, "
              "and a checker written from that summary would be our invention")

skipped(
    id="barbero2024.nope_cannot_sharpen",
    paper_status="proposition",
    source=SOURCE.replace("§3 (Props 3.1, 3.2) and §5 (frequency usage of Gemma 7B)", "§5, Prop 5.2"),
    statement="Prop 5.2, named only (outside.md's summary): a Transformer without positional encoding cannot make "
    "alpha_ii > 1 - eps on an input of the form [bos, x, x] (its exact hypotheses were not read).",
    kind="exact",
    reason="Prop 5.2: " + _UNREACHED,
)

skipped(
    id="barbero2024.single_frequency_channel",
    paper_status="theorem",
    source=SOURCE.replace("§3 (Props 3.1, 3.2) and §5 (frequency usage of Gemma 7B)", "§6, Thm 6.1"),
    statement="Thm 6.1, named only (outside.md's summary): a channel rotating at a single frequency cannot keep an "
    "attention weight alpha > 1 - eps over long enough sequences (its length condition was not read).",
    kind="exact",
    reason="Thm 6.1: " + _UNREACHED,
)
