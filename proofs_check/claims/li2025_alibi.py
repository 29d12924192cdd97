r"""Claims of li2025 (Yin Li, arXiv 2506.06398) about ALiBi past the training length :math:`N_{max}`: Eq. 9's
attention drift, the monotone bias (§5.3), and the collapse to local attention at a large slope.

Conventions as in :mod:`proofs_check.claims.li2025`: statements quoted from CLAIMS.md and checked as
stated, every quantity from :mod:`petheory.bounds` or the encodings registry.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory import bounds
from petheory import encodings as enc
from petheory.bounds import alibi as bounds_alibi
from petheory.encodings import bias as enc_bias
from proofs_check.claims._strategies import reals
from proofs_check import plants as pl
from proofs_check.engine import claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import gamma, tolerance, unit_roundoff


# ============================================================================= ALiBi


@st.composite
def _alibi_eq9_cases(draw):
    # 'near_tight' cases put the key's logit next to the row's log-sum-exp (A ~ 1/2, where |dA/db| = L_A) and move
    # it by a small alpha (d - N_max), so lhs/rhs -> 1: a bound that is off by a constant factor fails there,
    # while the free cases (lhs/rhs ~ 1e-68 in the median) could only catch a wrong sign or order.
    near_tight = draw(st.booleans())
    n_other = draw(st.integers(1, 32))
    reading = draw(st.sampled_from(["weight", "output"]))
    case = {
        "mu": draw(st.lists(reals(-30.0, 30.0), min_size=n_other, max_size=n_other)),
        "slope": draw(st.sampled_from([1.0, 0.5, 2.0**-8]) | st.floats(1e-4, 4.0)),
        "n_max": draw(st.integers(1, 512)),
        "excess": draw(st.integers(1, 4096)),
        "reading": reading,
    }
    if near_tight:
        case["slope"] = draw(st.floats(1e-6, 1e-2))
        case["excess"] = draw(st.integers(1, 8))
        lse = -case["slope"] * (case["n_max"] + case["excess"] / 2)  # the middle of the key's bias interval
        shift = lse - float(np.logaddexp.reduce(np.asarray(case["mu"], dtype=np.float64)))
        case["mu"] = [m + shift for m in case["mu"]]
    if reading == "output":
        case["values"] = draw(st.lists(st.lists(reals(-5.0, 5.0), min_size=3, max_size=3), min_size=n_other, max_size=n_other))
        case["value_b"] = draw(st.lists(reals(-5.0, 5.0), min_size=3, max_size=3))
    return case


def _alibi_eq9_rounding(mu: np.ndarray, case: dict, dist: int, t: dict) -> float:
    r"""Bound on |computed (lhs - rhs) - exact (lhs - rhs)| of Eq. 9 (Higham's model, u = unit roundoff).

    Derivation (n = len(mu), A(b) = sigma(b - lse), sigma' = A(1 - A) <= 1/4):

    * the biases b = fl(-alpha p) are off by <= u|b|, and the computed argument b - lse by
      <= gamma_{n+4} (|b| + |lse| + 1) (log-sum-exp of n terms, then one subtraction); through
      sigma' this moves A(b) by <= s(b) (u|b| + gamma_{n+4}(|b| + |lse| + 1)), with
      s(b) = min(1/4, 1.01 A(1-A)): sigma' changes by a factor <= e^delta over an argument error
      delta (<= 1e-9 here) and the computed A is within a relative delta + 2u, so 1% covers both;
      exp and the division add gamma_2 A.
    * 'output': o(b) = A v_b + (1 - A) vbar, vbar = w @ V with w_j = exp(mu_j - lse) each off by a
      relative gamma_{n+4}(max|mu| + |lse| + 1); each coordinate of o is off by
      <= 2 Vmax errA(b) + (gamma_{n+4}(max|mu| + |lse| + 1) + gamma_{n+3}) Vmax, the 2-norm of
      the difference over dv coordinates by sqrt(dv) times the sum over both biases. This is the
      term that matters when every value vector is equal: L_A = 0, rhs = 0, and lhs is pure
      rounding (issue 15: refuted at 1.1e-16 for lack of it).
    * rhs = L_A alpha (d - N_max): <= gamma_{dv+4} rhs (the norm inside L_A, two products);
      the norm of lhs adds gamma_{dv} lhs; underflow n eta through ``tolerance``.
    """
    u = unit_roundoff()
    n = len(mu)
    lse = float(np.logaddexp.reduce(mu))
    g = gamma(n + 4)
    alpha = float(case["slope"])

    def err_A(b: float) -> float:
        A = float(bounds_alibi.attention_weight(mu, b))
        s = min(0.25, 1.01 * A * (1.0 - A))
        return s * (u * abs(b) + g * (abs(b) + abs(lse) + 1.0)) + gamma(2) * A

    e = err_A(-alpha * dist) + err_A(-alpha * case["n_max"])
    if case["reading"] == "weight":
        return e + gamma(4) * t["rhs"] + u * t["lhs"] + tolerance(n_ops=n + 4, scale=0.0)
    V = np.asarray(case["values"] + [case["value_b"]], dtype=np.float64)
    vmax, dv = float(np.max(np.abs(V))), V.shape[1]
    ew = g * (float(np.max(np.abs(mu))) + abs(lse) + 1.0) + gamma(n + 3)
    coord = 2 * vmax * e + 2 * ew * vmax
    return math.sqrt(dv) * coord + gamma(dv + 4) * t["rhs"] + gamma(dv) * t["lhs"] + tolerance(n_ops=n + 4, scale=0.0)


@claim(
    id="li2025.alibi_extrapolation",
    paper_status=None,  # the summary names no status
    source="li2025 §5.3, Eq. 9 (the summary names no status)",
    statement=r"$\lvert A(\mu,-\alpha d)-A(\mu,-\alpha N_{max})\rvert \le L_A\,\alpha\,(d-N_{max})$ for $d>N_{max}$, "
    r"$A$ the attention function, $L_A$ its Lipschitz constant in the bias.",
    kind="exact",
    cases=_alibi_eq9_cases,
    reconstruction="A(mu, b) is made concrete two ways (bounds.attention_weight / attention_output): 'weight', the "
    "softmax weight e^b/(e^b + sum_j e^{mu_j}) of a key with logit b among the other logits mu of the query's row "
    "(L_A = sup |dA/db| = sup A(1-A) = 1/4, analytic); 'output', the attention output sum_j p_j v_j (L_A = "
    "max_j ||v_b - v_j||/4). mu is held fixed while the key moves, as the statement's notation implies. The check also "
    "confirms the analytic L_A against a numerical max of |dA/db| over b (central differences, 4001 points). "
    "Independently of petheory.bounds, the checker recomputes both sides from scipy's softmax of the full row "
    "[mu, b]: the left side, and L_A as the largest central difference of that softmax over b in lse(mu) +- 40 "
    "(a central difference is A' at some point, by the mean value theorem; the true sup exceeds the largest one by at "
    "most (3h)^2/8 sup|d^3A/db^3| = 9h^2/32 for the weight, times ||v_b - vbar|| for the output, whose b-dependence is "
    "A(b)(v_b - vbar) exactly), so Eq. 9 is tested with no hard-coded 1/4, and bounds' left side must agree with it.",
    plants=(
        pl.Plant("ALiBi's attention weight with an 8x steeper slope",
                 pl.attr("petheory.bounds.alibi.attention_weight", lambda real: (lambda mu, b: real(mu, 8.0 * np.asarray(b))))),
        pl.Plant("the extrapolation terms' Lipschitz part halved",
                 pl.attr("petheory.bounds.alibi.alibi_extrapolation_terms", lambda real: (lambda *a, **k: pl.halve_first(real(*a, **k))))),
        pl.Plant("the numeric Lipschitz constant doubled",
                 pl.scaled("petheory.bounds.alibi_lipschitz_numeric", 2.0)),
    ),
)
def alibi_extrapolation(case) -> float:
    mu = np.asarray(case["mu"], dtype=np.float64)
    dist = case["n_max"] + case["excess"]
    kw = {} if case["reading"] == "weight" else {"values": case["values"], "value_b": case["value_b"]}
    t = bounds_alibi.alibi_extrapolation_terms(mu, slope=case["slope"], distance=dist, n_max=case["n_max"],
                                         reading=case["reading"], **kw)
    tol = _alibi_eq9_rounding(mu, case, dist, t)
    eq9 = t["lhs"] - t["rhs"] - tol
    # numeric L_A: a central difference (A(b+h) - A(b-h))/2h equals A'(xi) for some xi (mean value theorem), so it
    # never exceeds sup A' = 1/4 in exact arithmetic; only the rounding of the two A values (/2h) can push it over.
    # The grid points b = lse +- 40 (linspace) are rounded too, by <= u |b|: the computed spacing of two
    # neighbours is 2h + 2u max|b|, which the quotient (divided by the nominal 2h) turns into at most
    # 1/4 * u max|b| / h above 1/4.
    h = 80.0 / 4000
    bmax = abs(float(np.logaddexp.reduce(mu))) + 40.0
    numeric = (bounds.alibi_lipschitz_numeric(mu) - 0.25 - tolerance(n_ops=len(mu) + 4, scale=1.0) / h
               - 0.25 * unit_roundoff() * bmax / h)
    return float(max(eq9, numeric if case["reading"] == "weight" else -np.inf, *_independent_eq9(mu, case, dist, t, tol)))


def _independent_eq9(mu: np.ndarray, case, dist: int, t: dict, tol: float) -> tuple[float, float]:
    """Eq. 9 from scipy's softmax alone: (violation of Eq. 9, disagreement with bounds' left side), each minus rounding."""
    from scipy.special import softmax

    alpha, n_max = float(case["slope"]), int(case["n_max"])

    def weight(b):  # A(mu, b) for an array of b: the last column of the row softmax of [mu, b]
        b = np.atleast_1d(np.asarray(b, dtype=np.float64))
        return softmax(np.hstack([np.broadcast_to(mu, (b.size, mu.size)), b[:, None]]), axis=1)[:, -1]

    if case["reading"] == "weight":
        spread = 1.0
    else:
        V = np.asarray(case["values"], dtype=np.float64)
        spread = float(np.linalg.norm(np.asarray(case["value_b"], dtype=np.float64) - softmax(mu) @ V))
    a1, a0 = weight([-alpha * dist, -alpha * n_max])
    lhs = abs(float(a1 - a0)) * spread  # o(b) = A(b) v_b + (1 - A(b)) vbar: the difference is |dA| ||v_b - vbar||
    lse = float(np.logaddexp.reduce(mu))
    grid = np.linspace(lse - 40.0, lse + 40.0, 4001)
    h = float(grid[1] - grid[0])
    A = weight(grid)
    cd = float(np.max(np.abs(A[2:] - A[:-2]))) / (2 * h)
    # rounding of the two weights in a central difference (/2h) and of the grid points, as in the numeric check above
    cd_err = (tolerance(n_ops=len(mu) + 4, scale=1.0) + 0.25 * unit_roundoff() * (abs(lse) + 40.0)) / h
    LA = (cd + 9 * h * h / 32 + cd_err) * spread
    eq9 = lhs - LA * alpha * (dist - n_max) - tol - gamma(4) * LA * alpha * (dist - n_max)
    agree = abs(lhs - t["lhs"]) - 2 * tol - gamma(len(mu) + 8) * (lhs + t["lhs"])
    return float(eq9), float(agree)


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

    <= 0 exactly when the bias is non-increasing in ``|i - j|`` over all pairs (i, j)."""
    n = B.shape[0]
    if n < 2:
        return -np.inf
    hi = np.array([max(np.diagonal(B, k).max(), np.diagonal(B, -k).max()) for k in range(n)])
    lo = np.array([min(np.diagonal(B, k).min(), np.diagonal(B, -k).min()) for k in range(n)])
    return float(np.max(hi[1:] - lo[:-1]))


@claim(
    id="li2025.alibi_monotone_bias",
    paper_status=None,  # the summary names no status
    source="li2025 §5.3 (the summary names no status)",
    statement=r"The ALiBi bias $b(i,j) = -\alpha\lvert i-j\rvert$ stays monotone in distance at any length.",
    kind="exact",
    cases=_alibi_cases,
    plants=(
        pl.Plant("ALiBi bias with a quadratic bump",
                 pl.attr("petheory.encodings.bias.alibi",
                       lambda real: (lambda n, **k: real(n, **k) + 0.01 * np.subtract.outer(np.arange(n), np.arange(n)) ** 2))),
        pl.Plant("(none)", lambda mp: None, reads=("petheory.encodings.bias:alibi_slopes",),
                 equivalent="the slopes only pick which slope a case draws: the bias is monotone for every slope >= 0, and a "
                 "negative slope is refused by alibi() (ValidationError), so no schedule can flip it; the schedules are "
                 "pinned by tests/theory against Press et al.'s and gu2025's"),
    ),
)
def alibi_monotone_bias(case) -> float:
    # Rounding is monotone and |i-j| is an exact integer, so no tolerance is needed:
    # fl(-a*k) >= fl(-a*(k+1)) holds exactly in IEEE arithmetic.
    B = enc_bias.alibi(case["n"], slope=case["slope"], form="symmetric")
    v = bias_by_distance_violation(B)
    return -1.0 if not np.isfinite(v) else v


@st.composite
def _alibi_local_cases(draw):
    return {"n": draw(st.integers(2, 64)), "M": draw(st.floats(0.0, 5.0)), "slope": draw(st.floats(0.0, 50.0)),
            "seed": draw(st.integers(0, 2**32 - 1))}


def alibi_nonlocal_mass(case) -> tuple[float, float]:
    """(largest attention mass a row puts on keys other than its own position, the bound
    :math:`2 e^{2M - \\alpha} / (1 - e^{-\\alpha})`) for content logits :math:`\\mu` uniform in :math:`[-M, M]` plus the library's ALiBi bias (symmetric form)."""
    from petheory import softmax

    n, M, a = int(case["n"]), float(case["M"]), float(case["slope"])
    mu = np.random.default_rng(case["seed"]).uniform(-M, M, (n, n))
    W = softmax.row_softmax(mu + enc_bias.alibi(n, slope=a, form="symmetric"))
    mass = float(np.max(1.0 - np.diag(W)))
    # key j at distance k >= 1 weighs e^{mu_j - a k} / sum <= e^{2M - a k} (the own key alone gives sum >= e^{-M});
    # two keys per distance, a geometric sum over k >= 1
    bound = 2.0 * math.exp(2 * M - a) / -math.expm1(-a) if a > 0 else math.inf
    return mass, bound


@claim(
    id="li2025.alibi_large_slope_local",
    paper_status=None,  # the summary names no status ('Failure signatures')
    source="li2025 'Failure signatures' (ALiBi with large α) (the summary names no status)",
    statement="'ALiBi with large alpha on very long sequences: Attention collapses to purely local, ignoring useful "
    "long-range dependencies': with content logits bounded by M, the attention a query puts on every other key "
    "vanishes as alpha grows, at most 2 e^{2M - alpha} / (1 - e^{-alpha}) at any sequence length.",
    kind="exact",
    cases=_alibi_local_cases,
    reconstruction="'Purely local' = on the query's own position (ALiBi's bias is 0 there and -alpha k at distance k). "
    "Checked on the library's ALiBi bias (petheory.encodings.bias.alibi) and softmax (petheory.softmax.row_softmax) "
    "for content logits uniform in [-M, M]: the largest mass off the query's own key is within the bound, which "
    "does not depend on the length and tends to 0 as alpha grows (so the collapse holds 'on very long sequences' "
    "too). Tolerance: the softmax's rounding, (n + 4) u per weight, n weights summed.",
    plants=(
        pl.Plant("ALiBi bias capped at -1 (stops growing with distance)",
                 pl.attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: np.maximum(real(n, **k), -1.0)))),
    ),
)
def alibi_large_slope_local(case) -> float:
    mass, bound = alibi_nonlocal_mass(case)
    tol = gamma(2 * int(case["n"]) + 8)
    quantities(nonlocal_mass=mass, bound=bound, tolerance=tol)
    return -1.0 if not math.isfinite(bound) else float(mass - bound - tol)


# ---------------------------------------------------------------------------- Mechanism 1: soft locality


@st.composite
def _alibi_far_cases(draw):
    n = draw(st.integers(2, 64))
    return {"n": n, "M": draw(st.floats(0.0, 5.0)), "slope": draw(st.floats(0.0, 8.0)),
            "distance": draw(st.integers(1, n - 1)), "seed": draw(st.integers(0, 2**32 - 1))}


def alibi_far_mass(case) -> tuple[float, float]:
    """(largest attention mass a row puts on keys at distance >= D, the bound :math:`2 e^{2M - \\alpha D} / (1 - e^{-\\alpha})`)
    for content logits uniform in [-M, M] plus the library's ALiBi bias (symmetric form)."""
    from petheory import softmax

    n, M, a, D = int(case["n"]), float(case["M"]), float(case["slope"]), int(case["distance"])
    mu = np.random.default_rng(case["seed"]).uniform(-M, M, (n, n))
    W = softmax.row_softmax(mu + enc_bias.alibi(n, slope=a, form="symmetric"))
    dist = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    mass = float(np.max(np.where(dist >= D, W, 0.0).sum(axis=1)))
    # key j at distance k weighs e^{mu_j - a k} / sum <= e^{2M - a k} (the own key alone gives sum >= e^{-M});
    # at most two keys per distance, a geometric sum over k >= D
    bound = 2.0 * math.exp(2 * M - a * D) / -math.expm1(-a) if a > 0 else math.inf
    return mass, bound


@claim(
    id="li2025.alibi_soft_locality",
    paper_status=None,  # the summary names no status (Mechanism 1)
    source="li2025 Mechanism 1 (soft locality) (the summary names no status)",
    statement="'The bias dominates query-key dot products for large distances, creating a \"soft locality\" prior that "
    "scales with token distance regardless of training data': with content logits bounded by M (whatever the "
    "training made them), the attention a query puts on keys at distance >= D is at most "
    "2 e^{2M - alpha D} / (1 - e^{-alpha}), for every slope alpha > 0 and every length: it decays exponentially in "
    "D, and the bias outweighs any content difference once alpha D > 2M.",
    kind="exact",
    cases=_alibi_far_cases,
    reconstruction="'Dominates' read as: past a distance the content cannot undo, attention on far keys is bounded by "
    "the bias alone (the bound uses only |content logit| <= M). Checked on the library's ALiBi bias "
    "(petheory.encodings.bias.alibi, symmetric form) and softmax (petheory.softmax.row_softmax) for content logits "
    "uniform in [-M, M] at a fixed slope, where li2025.alibi_large_slope_local fixes the distance (D = 1) and lets "
    "the slope grow. Tolerance: the softmax's rounding, (n + 4) u per weight, n weights summed.",
    plants=(
        pl.Plant("ALiBi bias capped at -3 alpha (stops growing past distance 3)",
                 pl.attr("petheory.encodings.bias.alibi",
                       lambda real: (lambda n, **k: np.maximum(real(n, **k), -3.0 * k.get("slope", 1.0))))),
    ),
)
def alibi_soft_locality(case) -> float:
    mass, bound = alibi_far_mass(case)
    tol = gamma(2 * int(case["n"]) + 8)
    quantities(far_mass=mass, bound=bound, tolerance=tol)
    return -1.0 if not math.isfinite(bound) else float(mass - bound - tol)
