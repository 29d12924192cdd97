r"""du2026 (Du, Harris, Tian, Huerta, Ronanki, Rongali, Galstyan, Peng, "RoPE Distinguishes Neither Positions Nor
Tokens in Long Contexts, Provably", arXiv 2605.15514, 2026): the loss of consistency in token relevance.

Source read: the abstract (arXiv 2605.15514v1). Its statements, verbatim: the analysis "abstracts away from the
specific content of the context and depends only on its length"; as context length increases RoPE-based attention
"loses consistency in token relevance: a key vector that receives a higher attention score than an alternative at one
position may receive a lower score at another ... the probability of failure approaches 0.5, no better than random
guessing"; "Increasing the RoPE base hyperparameter ... helps distinguish different tokens, but inevitably sacrifices
the ability to distinguish positions". The theorems' text was not read (no copy found), so the content model is
this module's reconstruction, said in each claim: query q and keys k, k' independent :math:`N(0, I_d)`, the pair's positions
m, n independent and uniform over 0..L-1.

Why that model gives a number with no sampling of q: for fixed :math:`v = k - k'`, the two scores :math:`q^\top R_m v` and :math:`q^\top R_n v` are
jointly Gaussian in q with correlation :math:`\rho = \sum_t |v_t|^2\cos((n-m)\theta_t) / |v|^2`
(:math:`|v_t|^2` the energy of band t), so the keys swap order with probability :math:`\arccos(\rho)/\pi`
(Sheppard's formula); the failure probability is its mean over v and m - n (:func:`failure_probability`). As L grows
the phases equidistribute and :math:`\rho` becomes symmetric about 0, so the mean tends to 1/2.

Not checked: the locality statement ("RoPE is no more likely to favor nearer positions than substantially farther
ones"): under independent content a key's score at a near and at a far position are exchanged by k -> -k, so its
failure probability is exactly 1/2 at every length; the abstract's claim needs a content model (a key similar to the
query) the abstract does not give.
"""

from __future__ import annotations

import math

import numpy as np

from petheory.encodings import rotary
from proofs_check import plants as pl
from proofs_check.engine import Evidence, claim

SOURCE = ("du2026 (Du, Harris, Tian, Huerta, Ronanki, Rongali, Galstyan, Peng; arXiv 2605.15514v1, 2026) {where}; read "
          "in the abstract (the theorems' text not found); the abstract names no status for its sentences")
_MODEL = ("Reconstruction of the content model (the abstract says only that the analysis 'abstracts away from the "
          "specific content ... and depends only on its length'): q, k, k' independent N(0, I_d); the pair's positions "
          "m, n independent, uniform over 0..L-1; failure = the keys' order at m differs from their order at n, with "
          "probability arccos(rho)/pi given v = k - k' and n - m (Sheppard), averaged over draws of v and n - m with "
          "common random numbers for every L and base (so trends are not noise). ")
#: Draws of v and of (m, n) per profile; the standard error of a mean of arccos/pi values is at most :math:`0.5/\sqrt{N}`.
DRAWS = {"quick": 4000, "thorough": 40000}
D, BASE = 64, 10000.0
LENGTHS = [2 ** k for k in range(2, 31, 2)]
BASES = [1e2, 1e3, 1e4, 1e5, 1e6]
#: Allowed noise: 4 standard errors of a difference of two such means (common draws make it smaller still).
Z = 4.0


def _draws(profile: str, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Band energies |v_t|^2 / |v|^2 (N, d/2) and the uniform pairs (N, 2) that place m, n: fixed by the seed 0."""
    rng = np.random.default_rng(0)
    n = DRAWS["quick" if profile == "quick" else "thorough"]
    v = rng.standard_normal((n, d))
    e = v[:, 0::2] ** 2 + v[:, 1::2] ** 2
    return e / e.sum(axis=1, keepdims=True), rng.random((n, 2))


def failure_probability(length: int, base: float, energies: np.ndarray, u: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of arccos(rho)/pi over the draws: the probability that two random keys' order at one
    uniform position differs from their order at another, for RoPE of the given base (d = 2 x bands)."""
    theta = rotary.rope_frequencies(2 * energies.shape[1], base=base)
    delta = np.floor(u[:, 0] * length) - np.floor(u[:, 1] * length)  # n - m, m and n uniform on 0..L-1
    rho = np.clip((energies * np.cos(np.outer(delta, theta))).sum(axis=1), -1.0, 1.0)
    p = np.arccos(rho) / math.pi
    return float(p.mean()), float(p.std(ddof=1) / math.sqrt(p.size))


@claim(
    id="du2026.token_consistency_fails",
    source=SOURCE.format(where="abstract (token relevance)"),
    statement=r"As context length increases, RoPE-based attention 'loses consistency in token relevance: a key vector "
    r"that receives a higher attention score than an alternative at one position may receive a lower score at another. "
    r"In both cases, the probability of failure approaches 0.5, no better than random guessing.'",
    kind="asymptotic",
    paper_status=None,
    reconstruction=_MODEL + f"d = {D}, base {BASE:g}, L = 4, 16, ..., 2^30. Checked, a conjunction: the failure "
    "probability stays below 1/2 at every L, never falls with L by more than the noise, and at L = 2^30 (far past "
    "the slowest band's period 2 pi base^(62/64), about 5.5e4) lies within the noise of 1/2.",
    plants=(
        pl.Plant("the library's ladder frozen (every frequency 0: no rotation)",
                 pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.0)),
    ),
)
def token_consistency_fails(ctx) -> Evidence:
    e, u = _draws(ctx.profile, D)
    rows = {L: failure_probability(L, BASE, e, u) for L in LENGTHS}
    p = np.array([r[0] for r in rows.values()])
    se = np.array([r[1] for r in rows.values()])
    tol = Z * math.sqrt(2) * se.max()
    above_half = float((p - 0.5).max())  # must stay below 1/2 (up to noise)
    falls = float(np.max(p[:-1] - p[1:]))  # a fall between consecutive lengths
    gap = abs(p[-1] - 0.5)
    margin = -max(above_half - tol, falls - tol, gap - tol)
    details = {"lengths": LENGTHS, "failure_probability": p.round(6).tolist(), "standard_error": se.round(6).tolist(),
               "noise_allowed": tol, "draws": len(u), "d": D, "base": BASE}
    verdict = "holds" if margin >= 0 else "refuted"
    return Evidence(verdict, len(LENGTHS), margin=margin, details=details,
                    summary=f"failure probability {p[0]:.3f} at L = {LENGTHS[0]}, {p[len(p) // 2]:.3f} at L = "
                    f"{LENGTHS[len(p) // 2]}, {p[-1]:.4f} at $L = 2^{{30}}$ (1/2 within {tol:.2g}: {gap <= tol}); largest "
                    f"fall between consecutive lengths {max(falls, 0.0):.2g}, largest excess over 1/2 "
                    f"{max(above_half, 0.0):.2g} (noise {tol:.2g})")


#: The length at which the base trade-off is read (a Llama-2-like context).
TRADEOFF_LENGTH = 4096


@claim(
    id="du2026.base_helps_tokens",
    source=SOURCE.format(where="abstract (the base trade-off)"),
    statement=r"'Increasing the RoPE base hyperparameter, a common practice in today's long-context models, helps "
    r"distinguish different tokens, but inevitably sacrifices the ability to distinguish positions.' Its first half: "
    r"at a fixed context length, a larger base lowers the probability that two keys' order changes with position.",
    kind="asymptotic",
    paper_status=None,
    reconstruction=_MODEL + f"d = {D}, L = {TRADEOFF_LENGTH}, bases 1e2..1e6 (a decade apart). 'Helps' read as: a "
    "larger base never raises the failure probability by more than the noise, and lowers it from the smallest base to "
    "the largest by more than the noise (where every band turns many times within L, at small bases, it is 1/2 "
    "whatever the base: no step there can help). The second half (positions) is not checked: 'distinguish "
    "positions' has no measure in the abstract (docstring of this module).",
    plants=(
        pl.Plant("the library's ladder ignores its base (always 10000)",
                 pl.attr("petheory.encodings.rotary.rope_frequencies",
                       lambda real: (lambda d, base=10000.0, **k: real(d, base=10000.0, **k)))),
    ),
)
def base_helps_tokens(ctx) -> Evidence:
    e, u = _draws(ctx.profile, D)
    rows = [failure_probability(TRADEOFF_LENGTH, b, e, u) for b in BASES]
    p = np.array([r[0] for r in rows])
    tol = Z * math.sqrt(2) * max(r[1] for r in rows)
    steps = p[:-1] - p[1:]  # a larger base: no more swaps (up to noise), and fewer over the whole range
    margin = float(min(steps.min() + tol, p[0] - p[-1] - tol))
    return Evidence("holds" if margin >= 0 else "refuted", len(BASES), margin=margin,
                    details={"bases": BASES, "failure_probability": p.round(6).tolist(), "noise_allowed": tol,
                             "length": TRADEOFF_LENGTH, "d": D},
                    summary=f"at L = {TRADEOFF_LENGTH}, failure probability " + ", ".join(
                        f"{p_:.3f} (base {b:g})" for b, p_ in zip(BASES, p)) + f"; largest rise per decade "
                    f"{max(-steps.min(), 0.0):.3g}, fall over the range {p[0] - p[-1]:.3g} (noise {tol:.2g})")
