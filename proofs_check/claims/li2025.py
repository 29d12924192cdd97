r"""Claims of li2025 (Yin Li, arXiv 2506.06398): norm bounds, ALiBi, learned and Legendre PEs.

The paper is available only as a structured summary; statements are quoted from CLAIMS.md.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory import encodings as enc
from proofs_check.claims._strategies import even_dims
from proofs_check.engine import claim
from proofs_check.tolerance import tolerance

# ----------------------------------------------------------------------------- sinusoidal norm


@st.composite
def _sinusoidal_cases(draw):
    return {
        "d": draw(even_dims(2, 1024)),
        "pos": draw(st.integers(0, 10**9)),
        "base": draw(st.sampled_from([10000.0, 500.0, 1e6]) | st.floats(1.5, 1e6)),
        "layout": draw(st.sampled_from(["interleaved", "concatenated"])),
    }


@claim(
    id="li2025.sinusoidal_norm_bound",
    source="li2025 Table 2 (§4.2)",
    statement=r"Sinusoidal input norm bound $B_0 = B_x + \sqrt{d_{model}}$, i.e. "
    r"$\lVert PE_{sin}(pos)\rVert_2 \le \sqrt{d_{model}}$ for every position.",
    kind="exact",
    cases=_sinusoidal_cases,
)
def sinusoidal_norm_bound(case) -> float:
    d = case["d"]
    pe = enc.sinusoidal(1, d, base=case["base"], layout=case["layout"], start=case["pos"])[0]
    # ||pe||^2 is a d-term sum of squares, each <= 1 (+ one rounding of sin/cos each).
    tol = tolerance(n_ops=d + 2, scale=math.sqrt(d))
    return float(np.linalg.norm(pe) - math.sqrt(d) - tol)


# ----------------------------------------------------------------------------- ALiBi monotone


@st.composite
def _alibi_cases(draw):
    n = draw(st.integers(1, 1024))
    if draw(st.booleans()):
        H = draw(st.integers(1, 64))
        slope = float(enc.alibi_slopes(H, draw(st.sampled_from(["press", "gu2025"])))[draw(st.integers(0, H - 1))])
    else:
        slope = draw(st.floats(1e-8, 1e4))
    return {"n": n, "slope": slope}


def bias_by_distance_violation(B: np.ndarray) -> float:
    """max over k of (largest bias at distance k+1) - (smallest bias at distance k).

    <= 0 exactly when the bias is non-increasing in |i - j| over all pairs (i, j)."""
    n = B.shape[0]
    if n < 2:
        return -np.inf
    hi = np.array([max(np.diagonal(B, k).max(), np.diagonal(B, -k).max()) for k in range(n)])
    lo = np.array([min(np.diagonal(B, k).min(), np.diagonal(B, -k).min()) for k in range(n)])
    return float(np.max(hi[1:] - lo[:-1]))


@claim(
    id="li2025.alibi_monotone_bias",
    source="li2025 §5.3",
    statement=r"The ALiBi bias $b(i,j) = -\alpha\lvert i-j\rvert$ stays monotone in distance at any length.",
    kind="exact",
    cases=_alibi_cases,
)
def alibi_monotone_bias(case) -> float:
    # Rounding is monotone and |i-j| is an exact integer, so no tolerance is needed:
    # fl(-a*k) >= fl(-a*(k+1)) holds exactly in IEEE arithmetic.
    B = enc.alibi(case["n"], slope=case["slope"], form="symmetric")
    v = bias_by_distance_violation(B)
    return -1.0 if not np.isfinite(v) else v


# ----------------------------------------------------------------------------- learned PE


@st.composite
def _learned_cases(draw):
    return {
        "n_max": draw(st.integers(1, 256)),
        "extra": draw(st.integers(1, 256)),
        "d": draw(st.integers(1, 64)),
        "seed": draw(st.integers(0, 2**16)),
    }


@claim(
    id="li2025.learned_no_extrapolation",
    source="li2025 §6 / Table 2 discussion",
    statement=r"Learned PE has zero extrapolation beyond $N_{max}$: reusing $p_{N_{max}}$ collapses all later positions.",
    kind="exact",
    cases=_learned_cases,
    reconstruction="petheory's learned table raises for positions >= n_max (beyond='error'); the claim is checked "
    "under the paper's policy beyond='clamp', which reuses the last row. The violation is the largest distance between "
    "any later position's vector and p_{N_max}, plus 1 if the table extrapolates without clamping.",
)
def learned_no_extrapolation(case) -> float:
    n_max, extra, d = case["n_max"], case["extra"], case["d"]
    P = enc.learned(n_max + extra, d, n_max=n_max, seed=case["seed"], beyond="clamp")
    collapse = float(np.max(np.linalg.norm(P[n_max:] - P[n_max - 1], axis=1)))
    try:
        enc.learned(n_max + extra, d, n_max=n_max, seed=case["seed"])
        refuses = False
    except ValueError:
        refuses = True
    # Row copies are exact, so no tolerance: any non-zero distance is a real violation.
    # A table that silently extends past n_max would be extrapolating: violation 1.
    return collapse if refuses else max(collapse, 1.0)


# ----------------------------------------------------------------------------- Legendre PE


@st.composite
def _legendre_cases(draw):
    return {
        "n_max": draw(st.integers(2, 4096)),
        "d": draw(st.integers(1, 64)),
        "far": draw(st.integers(0, 10**9)),
        "orthonormal": draw(st.booleans()),
    }


def legendre_norm_bound(d: int, orthonormal: bool) -> float:
    """sup over x in [-1, 1] of ||(c_k P_k(x))_k||_2, attained at x = 1 where P_k(1) = 1."""
    c2 = (2.0 * np.arange(d) + 1.0) / 2.0 if orthonormal else np.ones(d)
    return float(math.sqrt(c2.sum()))


@claim(
    id="li2025.legendre_bounded",
    source="li2025 §6 (design trade-offs)",
    statement="Legendre PE has bounded norm and saturates to a constant vector for very large positions.",
    kind="exact",
    cases=_legendre_cases,
    reconstruction="Default construction (petheory.encodings.legendre): x(p) = 2p/(n_max-1) - 1, clipped at 1 past "
    "n_max (beyond='clip'). With beyond='extrapolate' the norm grows like x^(d-1) and the claim fails; "
    "li2025.legendre_bounded is checked for the default, the figure and bounds module show both.",
)
def legendre_bounded(case) -> float:
    n_max, d, far, ortho = case["n_max"], case["d"], case["far"], case["orthonormal"]
    inside = enc.legendre(n_max, d, n_max=n_max, orthonormal=ortho)
    beyond = enc.legendre(3, d, n_max=n_max, orthonormal=ortho, start=n_max + far)
    bound = legendre_norm_bound(d, ortho)
    # Clenshaw/three-term recurrences for P_k at |x| <= 1 are backward stable: error ~ d u per entry.
    tol = tolerance(n_ops=4 * d, scale=bound)
    norm_excess = float(np.max(np.linalg.norm(np.vstack([inside, beyond]), axis=1)) - bound - tol)
    saturation = float(np.max(np.abs(beyond - inside[-1])) - tol)
    return max(norm_excess, saturation)
