r"""barbero2024 (Round and Round We Go! What makes Rotary Positional Encodings useful?, arXiv 2410.06205, ICLR 2025).

Source read: the paper's full text, arXiv v3 (13 May 2025, "Published as a conference paper at ICLR 2025"), the
PDF stored in the public repository viktor-shcherb/msc_thesis
(``references/2025-04-round-and-round-rope/2410.06205.pdf``, last commit touching it b629b1db), as transcribed in
``../shared/papers/outside-texts.md`` §2. Its numbered results: Props 3.1, 3.2, Def 5.1, Prop 5.2, Thm 5.3
(``Prop 5.3`` in the appendix), Thm 6.1, Lemmas A.1-A.3; §6.1 defines p-RoPE (App. D gives its JAX code).

Conventions (§2): :math:`\alpha_{i,j} = \exp(a_{i,j})/\sum_{\ell \le i}\exp(a_{i,\ell})`, the :math:`1/\sqrt d`
factor ignored; :math:`G = (g_k = \theta^{-2(k-1)/d})`, :math:`\kappa_{RoPE}(q_i, k_j) = q_i^\top R^{j-i} k_j`.
This module: Props 3.1, 3.2, Lemmas A.1, A.3 and the frequency-usage measurement of §5; the heads (Prop 5.2,
Thm 5.3, Thm 6.1) and p-RoPE are :mod:`proofs_check.claims.barbero2024_heads`.
"""

from __future__ import annotations

import glob
import json
import os

import numpy as np
from hypothesis import strategies as st

from petheory import softmax
from petheory.encodings import rotary
from proofs_check.claims._strategies import vectors
from proofs_check import plants as pl
from proofs_check.engine import Evidence, claim, quantities

SOURCE = ("barbero2024 (Barbero, Vitvitskyi, Perivolaropoulos, Pascanu, Velickovic; arXiv 2410.06205v3, ICLR 2025) "
          "{where}; read in the full text (the arXiv v3 PDF stored in github.com/viktor-shcherb/msc_thesis, "
          "references/2025-04-round-and-round-rope/2410.06205.pdf @ b629b1db)")


def paper_rotation(x: np.ndarray, d: int, base: float, r: float) -> np.ndarray:
    r"""R^r x with the paper's own ladder :math:`g_k = \theta^{-2(k-1)/d}` and rotation blocks :math:`\rho(g_k)^r`,
    written here from §2 (not from the library), pairs (2k, 2k+1)."""
    g = base ** (-2.0 * np.arange(d // 2) / d)
    a, b = x[..., 0::2], x[..., 1::2]
    c, s = np.cos(r * g), np.sin(r * g)
    out = np.empty_like(x)
    out[..., 0::2], out[..., 1::2] = a * c - b * s, a * s + b * c
    return out


# ============================================================================ Prop 3.1


@st.composite
def _max_cases(draw):
    d = draw(st.sampled_from([2, 4, 8, 16]))
    r = draw(st.integers(0, 48))
    return {"d": d, "base": draw(st.floats(2.0, 1e5)), "r": r, "window": r + 1 + draw(st.integers(0, 32)),
            "q": draw(vectors(d, -5, 5))}


def softmax_at_offset(case) -> tuple[np.ndarray, float]:
    """The softmax row of a query at the last of ``window`` positions over keys :math:`k = R^r q` (the paper's key, built
    from §2's formulas) at every position, with the library's RoPE table and softmax; and the squared norm of q."""
    d, n, q = case["d"], case["window"], np.asarray(case["q"], float)
    table = rotary.rope(n, d, base=case["base"])  # the library's rotation of positions 0..n-1
    k = paper_rotation(q, d, case["base"], case["r"])
    logits = table.apply(np.tile(k, (n, 1))) @ table.apply_at(q, n - 1)  # (n,): key at j, query at n - 1
    return softmax.row_softmax(logits[None, :])[0], float(q @ q)


def max_at_offset(case) -> float:
    """> 0 when the softmax row is not largest, strictly, at distance r (key position n - 1 - r)."""
    alpha, nq = softmax_at_offset(case)
    if nq == 0:
        return -1.0  # the appendix restates it for a non-zero query
    n, r = case["window"], case["r"]
    at = n - 1 - r
    others = np.delete(alpha, at)
    second = float(others.max()) if others.size else 0.0
    quantities(alpha_at_r=alpha[at], largest_other=second, argmax_distance=int(n - 1 - np.argmax(alpha)))
    # logits are d-term sums of size <= |q|^2 with angles p g rounded (<= n eps each): each is off by <= 8 (d + n) eps
    # |q|^2, and a ratio of two softmax entries by twice that, relatively
    return second - alpha[at] + 16 * (case["d"] + n) * np.finfo(float).eps * max(nq, 1.0) * alpha[at]


@claim(
    id="barbero2024.max_at_any_offset",
    paper_status="proposition",
    source=SOURCE.format(where="§3, Prop 3.1 and App. A.1 (proof: k = R^r psi and Lemma A.1)"),
    statement=r"Prop 3.1 (RoPE can be maximal at arbitrary distance): 'Given any query q and any relative distance "
    r"$r \in \mathbb{Z}$, we can find a key k such that the softmax value is largest at distance r with RoPE' (the "
    r"appendix: 'any (non-zero) query q').",
    kind="exact",
    cases=_max_cases,
    reconstruction="An existence statement, checked with the key its proof constructs, k = R^r q, written from §2's "
    "formulas (G and rho(g_k)) and placed at every position of a window of distances 0..window-1 behind the query; "
    "the attention row is computed by the library (petheory.encodings.rope's table, petheory.softmax.row_softmax). "
    "'Largest' is read strictly (Lemma A.1 is what makes it strict); distances r >= 0 (keys behind a causal query).",
    plants=(
        pl.Plant("the library's rotation turns the wrong way", pl.rope_sign,
                 reads=("petheory.encodings.rotary:RotaryTable.apply_at", "petheory.encodings.rotary:RotaryTable.apply",
                        "petheory.encodings.rotary:rope")),
        pl.Plant("RoPE's frequency ladder in reverse order (bands paired with the wrong rates)",
                 pl.attr("petheory.encodings.rotary.rope_frequencies", lambda real: (lambda *a, **k: real(*a, **k)[::-1].copy()))),
        pl.Plant("softmax over the columns instead of the rows",
                 pl.attr("petheory.softmax.row_softmax", lambda real: pl.column_softmax(real))),
    ),
)
def _max_at_offset(case) -> float:
    return max_at_offset(case)


# ============================================================================ Prop 3.2


@st.composite
def _iso_cases(draw):
    return {"d": draw(st.sampled_from([2, 8, 32, 128])), "base": draw(st.floats(2.0, 1e6)),
            "r": draw(st.integers(-100000, 100000)), "seed": draw(st.integers(0, 2**16))}


N_SAMPLES = 20000


def sample_pair(rng, d):
    """Independent standard Gaussian queries and keys (the premise of Prop 3.2), (N_SAMPLES, d) each."""
    return rng.standard_normal((N_SAMPLES, d)), rng.standard_normal((N_SAMPLES, d))


def isotropic_zero_mean(case) -> float:
    """Monte Carlo mean of :math:`q^\\top R^r k` with the library's rotation; > 0 when 6 standard errors from 0."""
    d = case["d"]
    w = rotary.rope_frequencies(d, base=case["base"])
    q, k = sample_pair(np.random.default_rng(case["seed"]), d)
    table = rotary.RotaryTable(np.outer([0.0, case["r"]], w), d, "interleaved")  # positions 0 and r, the library's
    vals = np.einsum("nd,nd->n", table.apply_at(q, 0), table.apply_at(k, 1))  # (R_0 q)^T (R_r k) = q^T R^r k
    est, se = vals.mean(), vals.std(ddof=1) / np.sqrt(N_SAMPLES)
    quantities(estimate=est, standard_error=se)
    return abs(est) - 6 * se  # 6 SE: false alarm ~2e-9 per case (CLT)


@claim(
    id="barbero2024.no_decay_isotropic",
    paper_status="proposition",
    source=SOURCE.format(where="§3, Prop 3.2"),
    statement=r"Prop 3.2 (Gaussian queries and keys do not decay): 'Let q, k ~ N(0, I). Then, for any relative distance "
    r"$r \in \mathbb{Z}$, we have that: $E_{q,k\sim N(0,I)}[q^\top R^r k] = 0$.'",
    kind="exact",
    cases=_iso_cases,
    examples={"quick": 20, "thorough": 300},
    reconstruction="q and k independent (the proof's reading of 'q, k ~ N(0, I)'); the expectation is a Monte Carlo mean "
    "of 20000 draws, |mean| within 6 standard errors of 0, the query and the key each rotated by the library "
    "(RotaryTable, positions 0 and r).",
    evidence="definitional",
    evidence_note="E[q^T M k] = 0 for every linear M when q and k are independent and zero-mean, so no error in the "
    "rotation's angles, frequencies or pairing can flip it (a rotation three times too fast still holds: tested); "
    "what the Monte Carlo can detect is a rotation that is not linear (an added offset: planted, it refutes) or "
    "queries and keys that are not independent (planted, it refutes)",
    plants=(
        pl.Plant("the library's rotation adds an offset (affine, not linear)",
                 pl.attr("petheory.encodings.rotary.RotaryTable.apply_at", lambda real: (lambda self, x, p: real(self, x, p) + 0.5))),
        pl.Plant("queries and keys drawn with mean 1 (not centred)",
                 pl.attr("proofs_check.claims.barbero2024.sample_pair", lambda real: (lambda rng, d: tuple(x + 1.0 for x in real(rng, d))))),
    ),
)
def _no_decay(case) -> float:
    return isotropic_zero_mean(case)


# ============================================================================ Lemmas A.1 and A.3


@st.composite
def _no_return_cases(draw):
    return {"d": draw(st.sampled_from([2, 8, 64, 128])), "base": draw(st.floats(2.0, 1e6)),
            "span": draw(st.integers(1, 2000))}


def no_return(case) -> float:
    """> 0 when some RoPE band returns to angle 0 (mod 2 pi) after 1 <= n <= span steps: chord ``|e^{i n g} - 1|^2`` is 0."""
    w = rotary.rope_frequencies(case["d"], base=case["base"])
    n = np.arange(1, case["span"] + 1, dtype=float)
    chord = rotary.chord_sq(np.outer(n, w))  # (span, d/2)
    i, t = np.unravel_index(np.argmin(chord), chord.shape)
    quantities(smallest_chord_sq=chord[i, t], at_n=int(n[i]), band=int(t))
    # the angle n g is rounded by <= n eps g; chord_sq(x) ~ x^2 near 0, so rounding can fake a return only below
    # (4 n eps)^2 relative to a full turn: that is the tolerance
    return float((4 * case["span"] * np.finfo(float).eps * 2 * np.pi) ** 2 - chord[i, t])


@claim(
    id="barbero2024.lemma_a1_no_return",
    paper_status="lemma",
    source=SOURCE.format(where="App. A.1, Lemma A.1"),
    statement=r"Lemma A.1: 'Consider $g \in \mathbb{Q}$ with $g \ne 0$ and $n \in \mathbb{Z}$. Then, $ng \equiv 0 \pmod{2\pi}$ "
    r"only when n = 0. In particular, this also holds if g is algebraic.'",
    kind="exact",
    cases=_no_return_cases,
    reconstruction="Checked on the frequencies RoPE actually uses (the library's ladder base^(-2t/d), floating-point "
    "numbers and so rationals): no band returns to angle 0 within 1 <= n <= span steps, measured by the library's "
    "chord |e^{i n g} - 1|^2 = 4 sin^2(n g / 2) against the rounding of n g.",
    plants=(
        pl.Plant("every band a quarter turn per token (commensurate with 2 pi)",
                 pl.attr("petheory.encodings.rotary.rope_frequencies",
                       lambda real: (lambda *a, **k: np.full_like(real(*a, **k), np.pi / 2)))),
        pl.Plant("the chord |e^{ia} - 1|^2 of a quarter of the angle",
                 pl.attr("petheory.encodings.rotary.chord_sq", lambda real: (lambda a: real(np.asarray(a) * 0.0)))),
    ),
)
def _no_return(case) -> float:
    return no_return(case)


@st.composite
def _a3_cases(draw):
    rows, n = draw(st.integers(1, 6)), draw(st.integers(2, 12))
    return {"rows": rows, "n": n, "scale": draw(st.floats(0.01, 50.0)), "seed": draw(st.integers(0, 2**16))}


def lemma_a3(case) -> float:
    """> 0 when, in a row of the library's softmax, an entry with a strictly larger activation beside it exceeds 1/2."""
    a = case["scale"] * np.random.default_rng(case["seed"]).standard_normal((case["rows"], case["n"]))
    alpha = softmax.row_softmax(a)
    dominated = a < a.max(axis=1, keepdims=True)  # a_i < a_j for some j in its row
    worst = float(alpha[dominated].max()) if dominated.any() else 0.0
    quantities(largest_dominated_alpha=worst)
    return worst - 0.5 - 4 * np.finfo(float).eps * case["n"]  # a row sums n rounded terms


@claim(
    id="barbero2024.lemma_a3_dominated_half",
    paper_status="lemma",
    source=SOURCE.format(where="App. A.3, Lemma A.3"),
    statement=r"Lemma A.3: 'Let $a \in \mathbb{R}^n$ be a sequence of n activations entering a softmax such that "
    r"$\alpha = softmax(a)$. ... If $a_i < a_j$ for some j, then $\alpha_i \le 1/2$.'",
    kind="exact",
    cases=_a3_cases,
    reconstruction="Each row of a random activation matrix through the library's softmax (petheory.softmax.row_softmax): "
    "every entry with a strictly larger entry in its row is <= 1/2.",
    plants=(
        pl.Plant("softmax over the columns instead of the rows",
                 pl.attr("petheory.softmax.row_softmax", lambda real: pl.column_softmax(real))),
    ),
)
def _lemma_a3(case) -> float:
    return lemma_a3(case)


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
        above = []
        for kind in rec["kinds"]:  # each rotary layer kind with its own bands; NoPE kinds have none
            if "query" not in kind:
                continue
            norms = np.asarray(kind["query"]["norms"], dtype=float)  # (layers, heads, bands), band 0 = highest frequency
            q = max(1, norms.shape[-1] // 4)
            above.append((norms[..., -q:].mean(-1) > norms[..., :q].mean(-1)).ravel())
        per[rec.get("model", "?")] = float(np.mean(np.concatenate(above)))
    summary = "; ".join(f"{k}: {v:.0%} of heads put more query norm in the lowest-frequency quarter" for k, v in per.items())
    return Evidence("inconclusive", len(per), details={"share_low_over_high": per}, summary=summary,
                    setup="reconstruction")


@claim(
    id="barbero2024.low_frequencies_semantic",
    paper_status="empirical",
    source=SOURCE.format(where="§5 (frequency usage of Gemma 7B)"),
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
