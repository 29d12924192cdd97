r"""Claims of li2025 (Yin Li, arXiv 2506.06398): norm and Rademacher bounds, ALiBi, wavelet, Legendre, learned PEs.

The paper is available only as a structured summary; statements are quoted from CLAIMS.md and
checked as stated. Every quantity comes from :mod:`petheory.bounds` or the encodings registry,
so the CLI, the figures and these checks compute the same numbers. Where a statement fails, the
strongest corrected variant that holds is registered next to it as ``<id>__corrected``.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from petheory import bounds
from petheory import encodings as enc
from petheory import fits
from proofs_check.claims._strategies import even_dims, reals
from proofs_check.engine import Evidence, Reading, claim, claim_with_readings
from proofs_check.tolerance import gamma, tolerance, unit_roundoff

# ============================================================================= sinusoidal norm


@st.composite
def _sinusoidal_cases(draw):
    return {
        "d": draw(even_dims(2, 1024)),
        "pos": draw(st.integers(0, 10**9)),
        "base": draw(st.sampled_from([10000.0, 500.0, 1e6]) | st.floats(1.5, 1e6)),
        "layout": draw(st.sampled_from(["interleaved", "concatenated"])),
        "part": draw(st.sampled_from(_NORM_PARTS)),
    }


#: What sinusoidal_norm_bound checks, one part per case: the paper's bound, the exact norm that makes it true
#: (the bound is loose by sqrt 2, so a PE scaled by up to sqrt 2 would still meet it), and the entries
#: against the sine-cosine formula written out here (|PE| or a wrong base keep the norm).
_NORM_PARTS = ("paper_bound", "exact_norm", "reference")


def _sinusoid_reference(d: int, pos: int, base: float, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """(entries, angles) of PE(pos) from Vaswani et al.'s formula: sin/cos(pos / base^(2i/d))."""
    i = np.arange(d // 2, dtype=np.float64)
    ang = pos / np.power(base, 2.0 * i / d)
    pe = np.empty(d)
    if layout == "interleaved":
        pe[0::2], pe[1::2] = np.sin(ang), np.cos(ang)
    else:
        pe[: d // 2], pe[d // 2 :] = np.sin(ang), np.cos(ang)
    return pe, ang


@claim(
    id="li2025.sinusoidal_norm_bound",
    paper_status="proposition",
    source="li2025 Table 2 (§4.2)",
    statement=r"Sinusoidal input norm bound $B_0 = B_x + \sqrt{d_{model}}$, i.e. "
    r"$\lVert PE_{sin}(pos)\rVert_2 \le \sqrt{d_{model}}$ for every position. Three parts, each a case field: "
    r"the paper's bound; the exact norm $\lVert PE_{sin}(pos)\rVert_2=\sqrt{d/2}$ ($d/2$ sine-cosine pairs of "
    r"norm 1), which makes the bound true and loose by $\sqrt2$; and the library's entries against the formula "
    r"$\sin/\cos(pos/base^{2i/d})$.",
    kind="exact",
    cases=_sinusoidal_cases,
)
def sinusoidal_norm_bound(case) -> float:
    d, part = case["d"], case.get("part", "paper_bound")
    pe = enc.sinusoidal(1, d, base=case["base"], layout=case["layout"], start=case["pos"])[0]
    # ||pe||^2 is a d-term sum of squares, each <= 1 (+ one rounding of sin/cos each).
    tol = tolerance(n_ops=d + 2, scale=math.sqrt(d))
    if part == "paper_bound":
        return float(np.linalg.norm(pe) - math.sqrt(d) - tol)
    if part == "exact_norm":
        return float(abs(np.linalg.norm(pe) - math.sqrt(d / 2)) - tol)
    ref, ang = _sinusoid_reference(d, case["pos"], case["base"], case["layout"])
    # Both sides round the exponent 2i/d (relative u, which moves base^x by u |x ln base| <= u ln base relative),
    # the power and the product (a few u): angle errors <= (ln base + 4) u |angle| each, which sin/cos turn
    # into the same absolute error; sin/cos themselves add u.
    u = unit_roundoff()
    e_ang = 2 * (abs(math.log(case["base"])) + 4) * u * ang + 2 * u
    err = np.empty(d)
    if case["layout"] == "interleaved":
        err[0::2] = err[1::2] = e_ang
    else:
        err[: d // 2] = err[d // 2 :] = e_ang
    return float(np.max(np.abs(pe - ref) - err))


# ============================================================================= Table 2, all PEs


@st.composite
def _input_norm_cases(draw):
    pe = draw(st.sampled_from(["sinusoidal", "learned", "alibi", "legendre", "nope"]))
    n_max = draw(st.integers(2, 512))
    case = {
        "pe": pe,
        "d": draw(even_dims(2, 128)),
        "n_max": n_max,
        "length": n_max + draw(st.integers(0, 1024)),  # N' >= N_max: inference at and past the training length
        "token_norm": draw(st.floats(0.0, 10.0)),
        "params": {},
    }
    if pe == "sinusoidal":
        case["params"] = {"base": draw(st.sampled_from([10000.0, 500.0])), "layout": draw(st.sampled_from(["interleaved", "concatenated"]))}
    elif pe == "learned":
        case["params"] = {"seed": draw(st.integers(0, 2**16)), "std": draw(st.sampled_from([0.02, 1.0]))}
    elif pe == "alibi":
        case["params"] = {"slope": draw(st.sampled_from([1.0, 2.0**-8, 0.5]) | st.floats(1e-6, 10.0))}
        case["length"] = min(case["length"], 1024)  # the bias is built densely
    elif pe == "legendre":
        case["params"] = {"orthonormal": draw(st.booleans()), "position_map": draw(st.sampled_from(["linear", "exp"]))}
    return case


@claim(
    id="li2025.input_norm_bounds",
    paper_status="proposition",
    source="li2025 Table 2",
    statement=r"Table 2: $B_0$ per PE -- sinusoidal $B_x+\sqrt d$; learned $B_x+B_p$; ALiBi adds no vector but a "
    r"logit bias of magnitude up to $\alpha(N'-1)$ at inference length $N'$; unnormalised wavelet "
    r"$O(N_{max}\sqrt{\log N_{max}})$; Legendre bounded.",
    kind="exact",
    cases=_input_norm_cases,
    reconstruction="Checked for every entry with a number, at inference lengths N' >= N_max: "
    "max_{pos<N'} ||x + PE(pos)|| <= B_x + stated with the token x aligned with PE(pos) (the worst case, where "
    "the triangle inequality is tight), i.e. sup ||PE|| <= stated. Learned: B_p is the table's largest row norm "
    "(Table 2 gives no number), positions past N_max reuse the last row. ALiBi: max |b(i,j)| <= alpha(N'-1). "
    "Legendre: sqrt(sum c_k^2) for both bounded position maps. The wavelet entry is an order without a constant: "
    "it is checked as a fitted trend by li2025.wavelet_unnormalised_norm.",
)
def input_norm_bounds(case) -> float:
    nb = bounds.norm_bound(case["pe"], case["length"], case["d"], n_max=case["n_max"], **case["params"])
    Bx = case["token_norm"]
    if nb.kind == "bias":
        # alpha * (N'-1): one rounded product on each side (|i-j| is an exact integer).
        return float(nb.computed - nb.stated - tolerance(n_ops=2, scale=nb.stated))
    # ||x + PE|| with x aligned: Bx + ||PE||; the norm is a d-term sum of squares; legendre adds the
    # three-term recurrence (backward stable, ~d roundings per entry: 4d steps in all).
    tol = tolerance(n_ops=4 * case["d"] + 2, scale=Bx + nb.stated)
    return float(nb.input_norm(Bx) - (Bx + nb.stated) - tol)


# ============================================================================= Rademacher

_RAD_PES = {
    "sinusoidal": {},
    "learned": {"std": 1.0, "beyond": "clamp"},
    "legendre": {},
    "wavelet": {"normalisation": "l2"},
}


@claim(
    id="li2025.rademacher_bound",
    paper_status="theorem",
    source="li2025 §4.2",
    statement=r"$R_m(\mathcal F^{L,H})$ scales as $O(L_{trans}B_0/\sqrt m)$ up to log factors when "
    r"$\lVert W\rVert_2\le C_W$ (each layer $L_{layer}$-Lipschitz).",
    kind="asymptotic",
    reconstruction="Checked where R_m can be computed: the class with no attention layer (L=0), linear readouts "
    "{z -> <w,z> : ||w|| <= B} on PE-augmented inputs z = x + PE(pos) (tokens on the sphere of radius B_x=1, "
    "positions uniform on 0..N'-1, N'=200, N_max=50, d=64), L_trans = B = 1. The empirical Rademacher complexity "
    "is estimated by Monte Carlo over sigma with the exact sup B||sum sigma_i z_i||/m per draw, for m = 32..1024, "
    "and compared with B*B0/sqrt(m), B0 = B_x + sup||PE|| (bounds.norm_bound); the exponent of m is fitted "
    "(weighted OLS on log-log, 95% t-interval). A transformer class with L >= 1 has no computable R_m (a sup over "
    "weights): the Lipschitz-product expression on trained weights is evaluated in the figure "
    "bounds.rademacher_gap, which cannot confirm a bound. Verdict: refuted if some estimate exceeds the bound by "
    "more than 3 standard errors; otherwise inconclusive (the statement is about L >= 1).",
)
def rademacher_bound(ctx) -> Evidence:
    ms = [32, 64, 128, 256, 512, 1024]
    n_draws = 200 if ctx.profile == "quick" else 2000
    length, n_max, d, Bx = 200, 50, 64, 1.0
    details, worst, bad = {}, np.inf, None
    for name, params in _RAD_PES.items():
        p = dict(params)
        if name in ("learned", "legendre", "wavelet"):
            p["n_max"] = n_max
        B0 = bounds.norm_bound(name, length, d, **p).input_norm(Bx)
        est, se, bnd = [], [], []
        for i, m in enumerate(ms):
            X, _ = bounds.pe_augmented_inputs(name, m, d, length=length, token_norm=Bx, seed=ctx.seed + i, **p)
            r = bounds.empirical_rademacher(X, weight_norm=1.0, n_draws=n_draws, seed=ctx.seed + 100 + i)
            b = bounds.rademacher_linear_bound(m, 1.0, B0)
            est.append(r.mean), se.append(r.se), bnd.append(b)
            slack = (b - (r.mean - 3 * r.se)) / b  # relative slack; < 0 means the bound is exceeded
            if slack < worst:
                worst = slack
                if slack < 0:
                    bad = {"pe": name, "m": m, "estimate": r.mean, "se": r.se, "bound": b, "B0": B0}
        fit = fits.fit_power_law(ms, est, weights=[(e / s) ** 2 if s > 0 else 1.0 for e, s in zip(est, se)])
        details[name] = {"m": ms, "R_hat": est, "se": se, "bound_B_B0_over_sqrt_m": bnd, "B0": B0,
                         "exponent": fit.slope, "exponent_ci95": list(fit.slope_ci),
                         "ratio_to_bound": [e / b for e, b in zip(est, bnd)]}
    exps = ", ".join(f"{k} {v['exponent']:.3f} [{v['exponent_ci95'][0]:.3f}, {v['exponent_ci95'][1]:.3f}]" for k, v in details.items())
    if bad is not None:
        return Evidence("refuted", len(ms) * len(details), margin=float(worst), details=details, counterexample=bad,
                        summary=f"linear class: R_hat - 3se exceeds B*B0/sqrt(m) at {bad}")
    return Evidence(
        "inconclusive", len(ms) * len(details), margin=float(worst), details=details,
        summary="L=0 (linear readout on PE-augmented inputs): R_hat <= B*B0/sqrt(m) at every m (smallest relative "
        f"slack {worst:.2f}); fitted exponents of m: {exps} (consistent with -1/2). L>=1: R_m not computable; "
        "the statement about Transformer classes is neither confirmed nor refuted.",
    )


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
        A = float(bounds.attention_weight(mu, b))
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
    paper_status="proposition",
    source="li2025 §5.3, Eq. 9",
    statement=r"$\lvert A(\mu,-\alpha d)-A(\mu,-\alpha N_{max})\rvert \le L_A\,\alpha\,(d-N_{max})$ for $d>N_{max}$, "
    r"$A$ the attention function, $L_A$ its Lipschitz constant in the bias.",
    kind="exact",
    cases=_alibi_eq9_cases,
    reconstruction="A(mu, b) is made concrete two ways (bounds.attention_weight / attention_output): 'weight', the "
    "softmax weight e^b/(e^b + sum_j e^{mu_j}) of a key with logit b among the other logits mu of the query's row "
    "(L_A = sup |dA/db| = sup A(1-A) = 1/4, analytic); 'output', the attention output sum_j p_j v_j (L_A = "
    "max_j ||v_b - v_j||/4). mu is held fixed while the key moves, as the statement's notation implies. The check also "
    "confirms the analytic L_A against a numerical max of |dA/db| over b (central differences, 4001 points).",
)
def alibi_extrapolation(case) -> float:
    mu = np.asarray(case["mu"], dtype=np.float64)
    dist = case["n_max"] + case["excess"]
    kw = {} if case["reading"] == "weight" else {"values": case["values"], "value_b": case["value_b"]}
    t = bounds.alibi_extrapolation_terms(mu, slope=case["slope"], distance=dist, n_max=case["n_max"],
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
    return float(max(eq9, numeric if case["reading"] == "weight" else -np.inf))


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
    paper_status="proposition",
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


# ============================================================================= wavelet: atom decay

_FAMILIES = {"quick": ["db2", "db4", "sym4"], "thorough": ["haar", "db2", "db4", "db8", "sym4", "coif2"]}


_ATOM_DECAY_RECON = ("Reading c_depends_on_jmax holds for any compactly supported atoms (any beta works), which "
    "makes it vacuous as a decay statement. Reading uniform_c, one C and one beta for all scales: per scale j the smallest C_j "
    "is read off the encoding's own atoms (bounds.wavelet_scale_ratios; beta = the fitted envelope rate of "
    "bounds.wavelet_decay_fit), and log2 max_{j<=j_max} C_j is fitted against j_max (OLS, 95% t-interval; the "
    "data are deterministic, so the interval measures fit, not noise). A uniform C exists iff that slope is 0. "
    "Conventions: dilation 'unit' (psi(2^j t - k), t = pos/N_max, j = 0, 1, ...: the paper's centre k2^-j and "
    "width 2^-j) and 'position' (psi(2^j pos - k), j <= 0); amplitudes c_j = 2^(j/2) ('l2', the standard "
    "orthonormal atom psi_{j,k}), 2^(-j/2) ('paper'), 1 ('none'). The verdict is for the standard atoms "
    "(unit, l2); details give every convention.")


def wavelet_atom_decay(ctx) -> Evidence:
    """Reading 'uniform_c': one C and one beta for all scales."""
    return _atom_decay_uniform("quick" if ctx.profile == "quick" else "thorough")


@functools.lru_cache(maxsize=2)
def _atom_decay_uniform(profile: str) -> Evidence:
    fams = _FAMILIES[profile]
    table = {}
    for w in fams:
        fit = bounds.wavelet_decay_fit(w)
        table[w] = {"beta": fit.beta, "beta_ci95": list(fit.beta_ci), "C_mother": fit.C, "support": fit.support}
        for dil in ("unit", "position"):
            for nm in ("l2", "paper", "none"):
                if dil == "unit":  # d covering scales 0..6
                    S = fit.support
                    d = sum(2**j + S - 1 for j in range(7))
                    r = bounds.wavelet_scale_ratios(d, wavelet=w, n_max=64, normalisation=nm, dilation="unit", beta=fit.beta,
                                                    samples_per_unit=16)
                    js, Cs = r["scales"], r["C"]  # coarse -> fine; j_max grows by adding finer scales
                else:  # all scales -J..0 at n_max = 2^8; j_max grows by adding coarser scales (larger N_max)
                    S = fit.support
                    d = sum((-(-256 // 2 ** (-j)) + S - 1) for j in range(-8, 1))
                    r = bounds.wavelet_scale_ratios(d, wavelet=w, n_max=256, normalisation=nm, dilation="position", beta=fit.beta)
                    js, Cs = r["scales"][::-1], r["C"][::-1]
                running = np.log2(np.maximum.accumulate(np.asarray(Cs)))
                # the asymptotic regime is the tail (j_max -> infinity): fit the last half of the scales. In the
                # position dilation the finest atoms are sampled only at integer positions, so C_j rises over the
                # first few scales and then stays flat; in the unit dilation it keeps growing.
                tail = max(3, (len(js) + 1) // 2)
                lf = fits.fit_line(np.arange(len(js))[-tail:], running[-tail:])
                # flat within rounding: log2 of values that are equal up to ~10 roundings of size |log2 C|
                flat = bool(lf.slope_ci[1] <= tolerance(n_ops=10, scale=float(np.max(np.abs(running)))))
                # or certified: every scale obeys the bound with the mother wavelet's own constant C_psi(beta) e^{beta h}
                # (h the psi sampling step): densely sampled coarse atoms approach C_psi from below
                ceiling = fit.C * math.exp(fit.beta * 2.0**-10)
                capped = bool(max(Cs) <= ceiling * (1 + tolerance(n_ops=10, scale=1.0)))
                uniform = flat or capped
                table[w][f"{dil}/{nm}"] = {"scales": js, "C_j": Cs, "log2_C_growth_per_scale": lf.slope,
                                           "ci95": list(lf.slope_ci), "tail_points": tail,
                                           "max_C_over_mother_C": max(Cs) / fit.C, "uniform_C": uniform}
    verdicts = {f"{w}/{k}": v["uniform_C"] for w in table for k, v in table[w].items() if isinstance(v, dict)}
    holds_for = sorted(k for k, ok in verdicts.items() if ok)
    fails_for = sorted(k for k, ok in verdicts.items() if not ok)
    std = [table[w]["unit/l2"] for w in fams]
    ref = "db2" if "db2" in fams else fams[0]
    r0 = table[ref]["unit/l2"]
    ce = {"wavelet": ref, "dilation": "unit", "normalisation": "l2", "beta": table[ref]["beta"],
          "C_fixed_at_scale_0": r0["C_j"][0], "scale": r0["scales"][1], "C_needed_at_scale_1": r0["C_j"][1],
          "ratio": r0["C_j"][1] / r0["C_j"][0],
          "note": "with C set so the bound holds at j=0, the j=1 atom exceeds it by this ratio; the ratio grows as "
          "2^j (amplitude 2^(j/2) against the stated 2^(-j/2))"}
    details = {"per_family": table, "uniform_C_holds_for": holds_for, "uniform_C_fails_for": fails_for}
    if all(s["uniform_C"] for s in std):
        return Evidence("holds", len(verdicts), margin=0.0, details=details,
                        summary="one C serves every scale for the standard (unit, l2) atoms")
    g = std[0]["log2_C_growth_per_scale"]
    return Evidence(
        "refuted", len(verdicts), margin=-float(g), details=details, counterexample=ce,
        summary=f"standard L2 atoms psi_jk = 2^(j/2) psi(2^j t - k): the smallest C grows as 2^({g:.3f} j) "
        f"(CI {std[0]['ci95'][0]:.3f}..{std[0]['ci95'][1]:.3f}): amplitude 2^(j/2), not 2^(-j/2). The bound holds "
        f"with one C for the 'paper' amplitude (either dilation) and for every amplitude in the 'position' dilation (j <= 0); fails for {', '.join(fails_for)}. "
        f"Fitted envelope rates beta: " + ", ".join(f"{w} {table[w]['beta']:.2f} [{table[w]['beta_ci95'][0]:.2f}, "
                                                    f"{table[w]['beta_ci95'][1]:.2f}]" for w in fams)
        + ". See li2025.wavelet_atom_decay__corrected.",
    )


def wavelet_atom_decay_per_jmax(ctx) -> Evidence:
    """Reading 'c_depends_on_jmax': for each j_max some C (allowed to depend on j_max) serves every j <= j_max."""
    ev = _atom_decay_uniform("quick" if ctx.profile == "quick" else "thorough")
    std = {w: v["unit/l2"] for w, v in ev.details["per_family"].items()}
    finite = all(np.all(np.isfinite(v["C_j"])) and max(v["C_j"]) > 0 for v in std.values())
    needed = {w: {"scales": v["scales"], "C_jmax": np.maximum.accumulate(np.asarray(v["C_j"])).tolist()} for w, v in std.items()}
    ref = next(iter(needed))
    return Evidence(
        "holds" if finite else "refuted", sum(len(v["scales"]) for v in needed.values()), margin=None,
        details={"standard_atoms_C_for_each_jmax": needed}, strength="proved",
        summary="compactly supported, bounded atoms: on the support e^{beta |u|} <= e^{beta S}, so C(j_max) = "
        "max_{j<=j_max} C_j is finite for every beta and j_max (the bound is then vacuous as a decay statement). "
        f"Standard (unit, l2) {ref} atoms: C(j_max) = " + ", ".join(f"{c:.3g}" for c in needed[ref]["C_jmax"])
        + f" for j_max = {needed[ref]['scales'][0]}..{needed[ref]['scales'][-1]}, growing as 2^j_max.",
    )


claim_with_readings(
    id="li2025.wavelet_atom_decay",
    source="li2025 §6.1.4",
    statement=r"$\lvert\psi_{j,k}(pos)\rvert \le C\,2^{-j/2}\exp(-\beta\lvert pos-k2^{-j}\rvert/2^{-j})$ for $j\le j_{max}$. "
    r"Whether $C$ may depend on $j_{max}$ is not said; each reading is checked.",
    kind="asymptotic",
    paper_status="proposition",
    reconstruction=_ATOM_DECAY_RECON,
    readings=[
        Reading("uniform_c", r"one $C$ (and one $\beta$) for every scale $j$: the smallest $C_j$ per scale stays bounded "
                r"as $j_{max}$ grows.", check=wavelet_atom_decay, kind="asymptotic"),
        Reading("c_depends_on_jmax", r"for each $j_{max}$ some $C=C(j_{max})$ serves every $j\le j_{max}$.",
                check=wavelet_atom_decay_per_jmax, kind="asymptotic", evidence="proved"),
    ],
)


@st.composite
def _atom_cases(draw):
    n_max = draw(st.integers(1, 256))
    return {
        "wavelet": draw(st.sampled_from(["db2", "db4", "haar", "sym4", "coif1"])),
        "normalisation": draw(st.sampled_from(["l2", "paper", "none"])),
        "dilation": draw(st.sampled_from(["unit", "position"])),
        "n_max": n_max,
        "atom": draw(st.integers(0, 199)),
        "pos": draw(st.integers(0, 40 * n_max)),
        "beta": draw(st.floats(0.0, 6.0)),
    }


@claim(
    id="li2025.wavelet_atom_decay__corrected",
    paper_status="proposition",
    evidence="definitional",
    evidence_note="C_psi(beta) is computed as the maximum of |psi(s)| e^{beta s} over the same sampled psi the "
    "encoding interpolates, so the bound holds by construction of C; what the search adds is that the encoding's "
    "features are c_j psi(2^j u - k) with the stated amplitude and support (zero outside it)",
    source="li2025 §6.1.4 (corrected)",
    statement=r"For every $\beta\ge0$, every scale and shift: $\lvert c_j\psi(2^ju-k)\rvert \le C_\psi(\beta)\,c_j\,"
    r"e^{-\beta\lvert 2^ju-k\rvert}$ with $C_\psi(\beta)=\max_s\lvert\psi(s)\rvert e^{\beta s}$ and $c_j$ the atom's "
    r"own amplitude ($2^{j/2}$ for $L^2$-normalised atoms), and $\psi_{j,k}=0$ outside $[k2^{-j},(k+S)2^{-j}]$.",
    kind="exact",
    cases=_atom_cases,
    corrected_of="li2025.wavelet_atom_decay",
    reconstruction="The amplitude is the atom's (2^(j/2) for the orthonormal psi_{j,k}), not 2^(-j/2); the constant "
    "is uniform in j and k. Checked on the encoding's own features (petheory.encodings.wavelet, psi sampled by "
    "PyWavelets and linearly interpolated: the interpolant obeys the bound with C_psi(beta) e^{beta h}, h = the "
    "sampling step 2^-resolution, since |interp| is at most its left neighbour's value).",
)
def wavelet_atom_decay__corrected(case) -> float:
    w, nm, dil, n_max = case["wavelet"], case["normalisation"], case["dilation"], case["n_max"]
    x, psi, taps = enc.wavefun(w, 10)
    S = taps - 1
    a = case["atom"]
    j, k = enc.wavelet_atoms(a + 1, S, dilation=dil, n_max=n_max)[a]
    val = enc.wavelet(1, a + 1, wavelet=w, n_max=n_max, normalisation=nm, dilation=dil, start=case["pos"])[0, a]
    u = 2.0**j * (case["pos"] / n_max if dil == "unit" else case["pos"]) - k
    beta, h = case["beta"], float(x[1] - x[0])
    C = float(np.max(np.abs(psi) * np.exp(beta * x))) * math.exp(beta * h)
    cj = enc.wavelet_amplitude(j, nm)
    if u < 0 or u > x[-1]:
        return float(abs(val))  # outside the support: must be exactly 0
    # val is c_j * interp(u): one product and one interpolation (3 roundings) on values <= C c_j
    return float(abs(val) - C * cj * math.exp(-beta * abs(u)) - tolerance(n_ops=4, scale=C * cj))


# ============================================================================= wavelet: extrapolation


@st.composite
def _wav_extra_cases(draw):
    return {
        "wavelet": draw(st.sampled_from(["db2", "db4", "haar", "sym4", "coif1"])),
        "d": draw(st.integers(1, 64)),
        "n_max": draw(st.integers(2, 512)),
        "normalisation": draw(st.sampled_from(["l2", "paper", "none"])),
        "dilation": draw(st.sampled_from(["unit", "position"])),
        "far": draw(st.integers(0, 10**6)),
    }


def _wav_params(case) -> dict:
    return {k: case[k] for k in ("wavelet", "n_max", "normalisation", "dilation")}


@claim(
    id="li2025.wavelet_extrapolation",
    paper_status="proposition",
    source="li2025 §6.1.4",
    statement=r"$\lVert PE_{wav}(pos)-PE_{wav}(N_{max})\rVert_2 = O(e^{-\beta(pos-N_{max})})$ for $pos>N_{max}$.",
    kind="exact",
    cases=_wav_extra_cases,
    reconstruction="PE(N_max) is the encoding of the last training position (0-based n_max-1). O(e^{-beta(pos-N_max)}) "
    "requires the left side to tend to 0. The checker evaluates the encoding at two far positions P and 2P+1 past "
    "the end of the atoms' support (bounds.wavelet_support_end): when the encoding is identical there (it is "
    "exactly 0 by compact support), the left side is the same constant ||PE(P) - PE(N_max)|| at every later "
    "position, and the statement fails by that constant whenever it is > 0 (no C can make a constant O(e^{-beta t})).",
)
def wavelet_extrapolation(case) -> float:
    p = _wav_params(case)
    end = bounds.wavelet_support_end(case["d"], case["n_max"], wavelet=case["wavelet"], dilation=case["dilation"])
    P = end + case["far"]
    anchor = enc.wavelet(1, case["d"], start=case["n_max"] - 1, **p)[0]
    far1 = enc.wavelet(1, case["d"], start=P, **p)[0]
    far2 = enc.wavelet(1, case["d"], start=2 * P + 1, **p)[0]
    if np.any(far1 != far2):
        return -1.0  # tail not constant at these points: this checker cannot conclude (never seen)
    gap = float(np.linalg.norm(far1 - anchor))
    # a norm of d entries, each a product c_j * interp: gamma_{d+4} relative
    return gap - tolerance(n_ops=case["d"] + 4, scale=float(np.linalg.norm(anchor)) + 1e-300)


@claim(
    id="li2025.wavelet_extrapolation__corrected",
    paper_status="proposition",
    source="li2025 §6.1.4 (corrected)",
    statement=r"$PE_{wav}(pos)=PE_\infty:=0$ for every $pos\ge P_S$, $P_S\le\lceil(S+h)N_{max}\rceil+1$ for the unit "
    r"dilation and $\lceil(S+h)2^{\lceil\log_2N_{max}\rceil}\rceil+1$ for the position dilation ($S$ = support length "
    r"of $\psi$, $h=2^{-10}$ PyWavelets' sampling step), so $\lVert PE(pos)-PE_\infty\rVert_2=O(e^{-\beta(pos-N_{max})})$ "
    r"for every $\beta>0$, while $\lVert PE(pos)-PE(N_{max})\rVert_2=\lVert PE(N_{max})\rVert_2$ there.",
    kind="exact",
    cases=_wav_extra_cases,
    corrected_of="li2025.wavelet_extrapolation",
    reconstruction="The limit is the zero vector (every atom has compact support), not PE(N_max): past P_S the "
    "encoding collapses to one point, as the learned PE collapses to p_{N_max}. P_S is computed by "
    "bounds.wavelet_support_end from the atoms in use (h matters only for Haar, whose sampled psi is -1 at x = 1 "
    "and 0 at 1 + h); the checker asks that P_S obey the stated formula, for exact zeros from P_S on (positions past "
    "every support get no interpolated value at all), and for the predicted constant distance to PE(N_max).",
)
def wavelet_extrapolation__corrected(case) -> float:
    p = _wav_params(case)
    n_max, d = case["n_max"], case["d"]
    end = bounds.wavelet_support_end(d, n_max, wavelet=case["wavelet"], dilation=case["dilation"])
    S = bounds.wavelet_support_length(case["wavelet"])
    J = math.ceil(math.log2(n_max)) if n_max > 1 else 0
    stated_end = math.ceil((S + 2.0**-10) * (n_max if case["dilation"] == "unit" else 2**J)) + 1
    far = enc.wavelet(1, d, start=end + case["far"], **p)[0]
    anchor = enc.wavelet(1, d, start=n_max - 1, **p)[0]
    zero = float(np.max(np.abs(far)))  # exact zeros required
    dist = abs(float(np.linalg.norm(far - anchor)) - float(np.linalg.norm(anchor)))
    return max(zero, float(end > stated_end), dist - tolerance(n_ops=d + 4, scale=float(np.linalg.norm(anchor))))


# ============================================================================= wavelet: unnormalised norm


@claim(
    id="li2025.wavelet_unnormalised_norm",
    paper_status="proposition",
    source="li2025 §6 (design trade-offs; Table 2)",
    statement=r"The unnormalised wavelet PE norm grows as $O(N_{max}\sqrt{\log N_{max}})$.",
    kind="asymptotic",
    reconstruction="sup_{pos<N_max} ||PE(pos)||_2 (bounds.wavelet_norms, sparse) for N_max = 2^6..2^12, under every "
    "construction: dilation unit/position x amplitude l2/paper/none x width d = 'full' (every atom down to the scale "
    "that resolves one position; at fixed d the unit-dilation norm does not depend on N_max at all) and d = 64. "
    "'Unnormalised' is read as: no rescaling of the PE vector after the atoms are evaluated. Fit: OLS of "
    "log(sup norm / (N sqrt(log N))) on log N with a 95% t-interval (deterministic data: the interval measures fit). "
    "O(.) is an upper bound: it holds if every upper confidence limit is <= 0. The fitted exponent of the norm itself "
    "says whether the rate is attained.",
)
def wavelet_unnormalised_norm(ctx) -> Evidence:
    sizes = [2**k for k in range(6, 13 if ctx.profile == "quick" else 15)]
    fams = ["db2"] if ctx.profile == "quick" else ["db2", "db4"]
    rows, worst, worst_key = {}, -np.inf, None
    for w in fams:
        for dil in ("unit", "position"):
            for nm in ("l2", "paper", "none"):
                for dp in ("full", 64):
                    g = bounds.wavelet_norm_growth(sizes, wavelet=w, normalisation=nm, dilation=dil, d=dp)
                    key = f"{w}/{dil}/{nm}/d={dp}"
                    rows[key] = {"sup_norm": g["sup_norm"], "d": g["d"], "exponent": g["fit"]["slope"],
                                 "exponent_ci95": g["fit"]["slope_ci"], "ratio_exponent": g["ratio_fit"]["slope"],
                                 "ratio_exponent_ci95": g["ratio_fit"]["slope_ci"]}
                    hi = g["ratio_fit"]["slope_ci"][1]
                    if hi > worst:
                        worst, worst_key = hi, key
    fastest = max(rows, key=lambda k: rows[k]["exponent"])
    fe = rows[fastest]
    details = {"sizes": sizes, "fits": rows, "fastest": fastest}
    if worst > 0:
        return Evidence("refuted", len(rows), margin=-float(worst), details=details,
                        counterexample={"construction": worst_key, **rows[worst_key]},
                        summary=f"{worst_key}: sup norm grows faster than N sqrt(log N) (ratio exponent CI upper {worst:.3f} > 0)")
    return Evidence(
        "holds", len(rows), margin=-float(worst), details=details,
        summary=f"upper bound holds for all {len(rows)} constructions (largest ratio-exponent upper limit {worst:.3f} <= 0), "
        f"but it is not tight: the fastest growth is {fastest} with sup norm ~ N^{fe['exponent']:.3f} "
        f"(CI {fe['exponent_ci95'][0]:.3f}..{fe['exponent_ci95'][1]:.3f}), i.e. sqrt(N_max), not N_max sqrt(log N_max); "
        "amplitude 'none' with full width grows like sqrt(log N_max), fixed-width unit dilation not at all.",
    )


# ============================================================================= Legendre


@st.composite
def _legendre_cases(draw):
    return {
        "n_max": draw(st.integers(2, 4096)),
        "d": draw(st.integers(1, 64)),
        "far": draw(st.integers(0, 10**9)),
        "orthonormal": draw(st.booleans()),
        "position_map": draw(st.sampled_from(["linear", "exp"])),
    }


def legendre_norm_bound(d: int, orthonormal: bool) -> float:
    """Kept for callers of the earlier API: see :func:`petheory.bounds.legendre_norm_bound`."""
    return bounds.legendre_norm_bound(d, orthonormal)


@claim(
    id="li2025.legendre_bounded",
    paper_status="remark",
    source="li2025 §6 (design trade-offs)",
    statement="Legendre PE has bounded norm and saturates to a constant vector for very large positions.",
    kind="exact",
    cases=_legendre_cases,
    reconstruction="petheory.encodings.legendre with both bounded position maps: 'linear' x(p) = 2p/(n_max-1) - 1 "
    "clipped at 1 past n_max (the default), and 'exp' x(p) = 1 - 2exp(-ln(20) p/(n_max-1)). Bounded: every "
    "||PE(p)|| <= sqrt(sum c_k^2) (bounds.legendre_norm_bound). Saturates: ||PE(p) - PE_inf|| <= "
    "bounds.legendre_saturation_bound(p), which is 0 from n_max-1 on (linear, clipped) or 2 e^{-ln(20) p/(n_max-1)} "
    "times ||(c_k k(k+1)/2)_k|| (exp), with PE_inf = (c_k P_k(1)) = (c_k). With beyond='extrapolate' and the linear "
    "map the norm grows like x^(d-1) and the claim fails; that is not a saturating construction.",
)
def legendre_bounded(case) -> float:
    n_max, d, far, ortho, pm = case["n_max"], case["d"], case["far"], case["orthonormal"], case["position_map"]
    inside = enc.legendre(n_max, d, n_max=n_max, orthonormal=ortho, position_map=pm)
    start = n_max + far
    beyond = enc.legendre(3, d, n_max=n_max, orthonormal=ortho, start=start, position_map=pm)
    bound = bounds.legendre_norm_bound(d, ortho)
    limit = bounds.legendre_limit(d, ortho)
    sat = bounds.legendre_saturation_bound(start + np.arange(3), n_max, d, orthonormal=ortho, position_map=pm)
    k = np.arange(d)
    lip = float(np.linalg.norm(limit * k * (k + 1) / 2))
    # Legendre recurrences at |x| <= 1 are backward stable: ~d roundings per entry (4d steps). Under the 'exp' map
    # x(p) itself carries a few roundings (|dx| <= 4u), amplified by the Lipschitz constant lip of x -> PE(x).
    # The linear map needs no such term: 2p/(n_max-1) - 1 rounds monotonically inside [-1, 1] and is exactly 1
    # where it saturates, so its tolerance stays the recurrence's alone.
    tol = tolerance(n_ops=4 * d, scale=bound) + (4 * unit_roundoff() * lip if pm != "linear" else 0.0)
    norm_excess = float(np.max(np.linalg.norm(np.vstack([inside, beyond]), axis=1)) - bound - tol)
    saturation = float(np.max(np.linalg.norm(beyond - limit, axis=1) - sat) - tol)
    return max(norm_excess, saturation)


# ============================================================================= learned PE


@st.composite
def _learned_cases(draw):
    return {
        "n_max": draw(st.integers(1, 256)),
        "extra": draw(st.integers(1, 256)),
        "d": draw(st.integers(1, 64)),
        "seed": draw(st.integers(0, 2**16)),
    }


@st.composite
def _learned_model_cases(draw):
    n_max = draw(st.integers(1, 12))
    extra = draw(st.integers(1, 12))
    T = n_max + extra
    a = draw(st.integers(n_max - 1, T - 1))
    return {
        "n_max": n_max,
        "extra": extra,
        "d": draw(st.sampled_from([4, 8])),
        "n_layer": draw(st.integers(1, 2)),
        "steps": draw(st.integers(0, 4)),
        "seed": draw(st.integers(0, 2**16)),
        "swap": [a, draw(st.integers(n_max - 1, T - 1))],
    }


def _trained_learned_model(case):
    """A small bidirectional Transformer with li2025's learned PE (n_max rows, reuse of the last row past it),
    trained for ``steps`` Adam steps on a random regression task at the training length n_max."""
    import torch

    from petheory.nn import ModelConfig, build_model

    n_max, d = case["n_max"], case["d"]
    torch.manual_seed(case["seed"])
    cfg = ModelConfig(head="regression", pe=f"learned:n_max={n_max},beyond=clamp", vocab_size=0, input_dim=1, out_dim=1,
                      n_layer=case["n_layer"], n_head=1, d_model=d, d_ff=2 * d, max_len=n_max, causal=False)
    model = build_model(cfg).double()
    g = torch.Generator().manual_seed(case["seed"] + 1)
    if case["steps"]:
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        X, Y = torch.randn(8, n_max, 1, generator=g, dtype=torch.float64), torch.randn(8, n_max, 1, generator=g, dtype=torch.float64)
        for _ in range(case["steps"]):
            opt.zero_grad()
            torch.nn.functional.mse_loss(model(X), Y).backward()
            opt.step()
    return model.eval(), g


def learned_no_extrapolation_gap(case) -> tuple[float, float]:
    """(how far positions past N_max are from collapsing, tolerance): registry rows, the model's rows, and the
    model's outputs, which cannot tell two positions >= N_max - 1 apart if they share p_{N_max}."""
    import torch

    n_max, extra, d = case["n_max"], case["extra"], case["d"]
    T = n_max + extra
    P = enc.learned(T, d, n_max=n_max, seed=case["seed"], beyond="clamp")
    registry = float(np.max(np.abs(P[n_max:] - P[n_max - 1])))  # row copies are exact
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: thread start-up costs more than the arithmetic
    try:
        model, g = _trained_learned_model(case)
        with torch.no_grad():
            rows = model.abs_pe(T)
            collapse = float((rows[n_max:] - rows[n_max - 1]).abs().max())
            X = torch.randn(1, T, 1, generator=g, dtype=torch.float64)
            a, b = case["swap"]
            perm = torch.arange(T)
            perm[a], perm[b] = b, a
            Y, Yp = model(X)[0], model(X[:, perm])[0]
            gap = float((Yp - Y[perm]).abs().max())  # the swapped tokens' outputs follow them
            gain = 1.0
            for p in model.parameters():
                if p.ndim == 2:
                    gain *= 1.0 + float(torch.linalg.matrix_norm(p, ord=2))
            scale = float(max(Y.abs().max(), X.abs().max(), rows.abs().max()))
    finally:
        torch.set_num_threads(prev)
    # Swapping two keys changes only the order of the n-term sums over keys: rounding, carried through the
    # layers with gain at most the product of (1 + ||W||_2) (as in cirrincione2026.necessity).
    tol = tolerance(n_ops=case["n_layer"] * (T + 4 * d + 16), scale=scale, cond=gain)
    return max(registry, collapse, gap - tol), tol


@claim(
    id="li2025.learned_no_extrapolation",
    paper_status="proposition",
    source="li2025 §6 / Table 2 discussion",
    statement=r"Learned PE has zero extrapolation beyond $N_{max}$: reusing $p_{N_{max}}$ collapses all later positions. "
    r"Checked on trained models: a bidirectional Transformer (petheory.nn, float64) with li2025's learned PE, trained "
    r"for 0-4 Adam steps at length $N_{max}$, run at length $N_{max}+extra$: its position rows past $N_{max}$ equal "
    r"$p_{N_{max}}$ (as in the registry's table), and swapping the tokens at two positions $\ge N_{max}$ only swaps "
    r"their outputs: the model cannot tell those positions apart.",
    kind="exact",
    cases=_learned_model_cases,
    examples={"quick": 20, "thorough": 300},
    reconstruction="The paper's policy past the table is beyond='clamp' (reuse the last row), in the registry and in "
    "petheory.nn's AbsolutePE (their default refuses longer inputs). Trained weights are any weights: the collapse "
    "holds for every value of them, so a few steps of a random regression task stand for training. Bidirectional "
    "attention: a causal mask would tell positions apart by itself (see cirrincione2026.necessity).",
)
def learned_no_extrapolation(case) -> float:
    return learned_no_extrapolation_gap(case)[0]


# ============================================================================= sinusoidal ambiguity

#: d values tried, the paper's d_model=64 first (hypothesis shrinks towards the first element).
_AMBIGUITY_DS = [64, 128, 256, 512, 1024, 32, 16, 14, 12, 10, 8, 4, 2, 18, 20, 24, 48, 96, 768]
_SEARCH = 10**6


@functools.lru_cache(maxsize=2048)
def _onset(d: int, base: float) -> int | None:
    return bounds.sinusoidal_ambiguity_onset(d, base=base, max_offset=_SEARCH)


@st.composite
def _ambiguity_cases(draw):
    return {"d": draw(st.sampled_from(_AMBIGUITY_DS)), "base": 10000.0}


def sinusoidal_periodic_ambiguity(case) -> float:
    """Reading 'near_repeat': the onset of ambiguity lies within [10^3, 10^5]; violation in decades."""
    on = _onset(case["d"], case["base"])
    dec = math.log10(on) if on is not None else math.log10(_SEARCH)
    return float(max(3.0 - dec, dec - 5.0))


def _paper_width_cases():
    return st.just({"d": 64, "base": 10000.0})


def sinusoidal_slowest_period(case) -> float:
    """Reading 'slowest_period': the longest wavelength 2 pi base^((d-2)/d) of the encoding lies within
    [10^3, 10^5] ('about 10000'); violation in decades."""
    d, base = case["d"], case["base"]
    freqs = enc.sinusoidal(2, d, base=base, layout="concatenated")[1, : d // 2]  # sin(omega_i) at position 1
    omega = float(np.arcsin(freqs[-1]))  # the slowest frequency, read off the encoding (omega < pi/2)
    dec = math.log10(2 * math.pi / omega)
    return float(max(3.0 - dec, dec - 5.0))


_AMBIGUITY_RECON = (
    "Two criteria of 'ambiguity', each a reading, at the paper's width d_model = 64 and base 10000 (one object, "
    "so the evidence is exhaustive; other widths are li2025.sinusoidal_periodic_ambiguity__corrected's). "
    "'Beyond about 10000' is read as: within a factor 10 of 10000, [10^3, 10^5]; violations in decades. "
    "near_repeat: two positions p != p' are ambiguous when their encodings are closer than those of adjacent "
    "positions; for sinusoidal PE the distance depends only on the offset, D(delta)^2 = sum_i 4 sin^2(w_i delta/2) "
    "(bounds.sinusoidal_offset_distance), so the onset is the smallest delta >= 2 with D(delta) < D(1) "
    "(bounds.sinusoidal_ambiguity_onset, searched up to 10^6; 10^6 when none is found, a lower bound; the angles "
    "p w_i carry errors ~ u p <= 1e-10, far below D(1) ~ 1). slowest_period: the slowest sine-cosine pair wraps "
    "after 2 pi base^((d-2)/d) positions (47,117 at d = 64), after which that coordinate pair alone repeats."
)

claim_with_readings(
    id="li2025.sinusoidal_periodic_ambiguity",
    source="li2025 §6 (design trade-offs), failure signatures",
    statement="Sinusoidal PE suffers periodic ambiguity beyond about 10000 positions. 'Ambiguity' is not defined; "
    "each reading is checked at the paper's d_model = 64, base 10000.",
    kind="exact",
    paper_status="remark",
    reconstruction=_AMBIGUITY_RECON,
    readings=[
        Reading("near_repeat", "ambiguity = a pair of positions closer than adjacent positions; its onset lies in "
                "[10^3, 10^5].", check=sinusoidal_periodic_ambiguity, cases=_paper_width_cases,
                evidence="exhaustive", examples={"quick": 1, "thorough": 1}),
        Reading("slowest_period", "ambiguity = the slowest sine-cosine pair repeats; its period 2 pi base^((d-2)/d) "
                "lies in [10^3, 10^5].", check=sinusoidal_slowest_period, cases=_paper_width_cases,
                evidence="exhaustive", examples={"quick": 1, "thorough": 1}),
    ],
)


@st.composite
def _ambiguity_all_d(draw):
    return {"d": draw(st.sampled_from([2, 64, 10, 12, 14, 16, 18]) | even_dims(2, 1024)), "base": 10000.0}


#: Measured onsets (bounds.sinusoidal_ambiguity_onset, base 10000): the corrected statement.
AMBIGUITY_ONSETS = {12: 14495, 14: 18246, 16: 596274}


@claim(
    id="li2025.sinusoidal_periodic_ambiguity__corrected",
    paper_status="remark",
    source="li2025 §6 (corrected)",
    statement=r"With base 10000, ambiguity (a pair closer than adjacent positions) starts at offset 6 for "
    r"$d\le10$ (the fastest pair's period is $2\pi$), at 14495 for $d=12$, 18246 for $d=14$, 596274 for $d=16$, "
    r"and not within $10^6$ positions for $18\le d\le1024$ -- including the paper's $d_{model}=64$. Only "
    r"$d\in\{12,14\}$ show it 'beyond about 10000'.",
    kind="exact",
    cases=_ambiguity_all_d,
    examples={"quick": 8, "thorough": 300},
    corrected_of="li2025.sinusoidal_periodic_ambiguity",
    reconstruction="Same criterion and search as li2025.sinusoidal_periodic_ambiguity. No two integer positions ever "
    "share an encoding exactly (the fastest pair has angular frequency 1 and pi is irrational); the slowest pair "
    "wraps after 2 pi base^((d-2)/d) positions (47,117 at d = 64), which is where only the coarse coordinates repeat.",
)
def sinusoidal_periodic_ambiguity__corrected(case) -> float:
    d = case["d"]
    on = _onset(d, case["base"])
    expected = 6 if d <= 10 else AMBIGUITY_ONSETS.get(d)
    return 0.0 if on == expected else 1.0


# ============================================================================= Table 5


def _table5_problem(r: dict) -> str | None:
    """What table5_evidence reads from a running-sum record, or None for other tasks (petheory.records.find's check)."""
    from petheory.io import field_problem

    if r["task"] != "running_sum":
        return None
    for path, kind in (("final.test.200.mse", "number"), ("final.test.50.mse", "number"), ("model", "object"),
                       ("config.task.params", "object")):
        problem = field_problem(r, path, kind)
        if problem:
            return problem
    return None


# li2025 Table 5's paper numbers and the reading of a record live with the records (the figure and the README use them too)
from petheory.provenance import LI2025_TABLE5_DEFAULT as _T5_DEFAULT  # noqa: E402
from petheory.provenance import LI2025_TABLE5_MSE200 as _T5_PAPER  # noqa: E402
from petheory.provenance import li2025_table5_paper_size as _t5_paper_size  # noqa: E402
from petheory.provenance import li2025_table5_reading as _t5_reading  # noqa: E402


def table5_evidence(records: list[dict], note: str = "") -> Evidence:
    """Verdict on li2025 Table 5 ("wavelet has the lowest MSE at N=200") from running-sum records.

    Per reading (causality x target scaling x input distribution), at N=200: holds when wavelet's
    MSE is below every other PE's, refuted when some PE's is below wavelet's, each comparison a
    one-sided Welch test at alpha 0.05, Holm-corrected over the other PEs (proofs_check.claims._empirical).
    The claim's verdict is the paper preset's reading; the others are reported beside it.
    """
    from proofs_check.claims import _empirical as emp

    recs = [r for r in records if r.get("train_len") == 50 and "200" in r["final"]["test"]]
    paper = [r for r in recs if _t5_paper_size(r)]
    use = paper or recs
    readings: dict = {}
    for r in use:
        readings.setdefault(_t5_reading(r), {}).setdefault(r["pe"].split(":")[0], []).append(r["final"]["test"]["200"]["mse"])
    if not any("wavelet" in g and len(g) > 1 for g in readings.values()):
        return Evidence("inconclusive", len(recs), details={"pes_found": sorted({r["pe"] for r in recs}), "skipped": note},
                        summary="no running-sum records with wavelet and another PE at train length 50 under runs/ or "
                        "records/; the shipped records/li2025_table5 hold them (a checkout has them), or run "
                        "`petheory check --claims li2025.table5_running_sum --profile thorough` (trains the small preset)")
    per = {}
    for name, groups in sorted(readings.items()):
        if "wavelet" not in groups or len(groups) < 2:
            continue
        d = emp.decide_lowest(groups, "wavelet")
        stats = {k: dict(zip(("mean", "se"), emp.mean_se(v)), seeds=len(v)) for k, v in groups.items()}
        order = sorted(stats, key=lambda k: stats[k]["mean"])
        per[name] = {"verdict": d["verdict"], "order_by_mse200": order, "mse200": stats, "beaten_by": d["beaten_by"],
                     "tests": d["tests"]}
    main = per.get(_T5_DEFAULT) or next(iter(per.values()))
    main_name = _T5_DEFAULT if _T5_DEFAULT in per else next(iter(per))
    seeds = min(s["seeds"] for s in main["mse200"].values())
    ours = ", ".join(f"{k} {main['mse200'][k]['mean']:.4f}" for k in main["order_by_mse200"])
    details = {"criterion": "per reading, at N=200: wavelet vs each other PE, one-sided Welch t-tests (H1 directional, "
               "as the statement), alpha 0.05, Holm over the other PEs; holds if wavelet beats all, refuted if any beats "
               "wavelet", "paper": _T5_PAPER, "reading": main_name, "readings": per, "paper_size": bool(paper),
               "seeds_per_pe": seeds, "skipped": note}
    others = "; ".join(f"{k}: {v['verdict']} (lowest {v['order_by_mse200'][0]})" for k, v in per.items() if k != main_name)
    text = (f"{main_name}, {seeds} seeds per PE: MSE at N=200 {ours}; paper: wavelet 0.0108, sinusoidal 0.0423."
            + (f" Other readings: {others}." if others else ""))
    wv = main["mse200"]["wavelet"]["mean"]
    margin = min(v["mean"] for k, v in main["mse200"].items() if k != "wavelet") - wv  # > 0: wavelet lowest
    if not paper:
        return Evidence("inconclusive", len(use), margin=float(margin), details=details,
                        summary="records are smaller than li2025's setup (the paper preset): " + text)
    verdict = main["verdict"]
    cex = None
    if verdict == "refuted":
        best = main["order_by_mse200"][0]
        cex = {"reading": main_name, "lower_than_wavelet": main["beaten_by"], "wavelet_mse200": wv,
               f"{best}_mse200": main["mse200"][best]["mean"]}
    return Evidence(verdict, len(use), margin=float(margin), details=details, counterexample=cex,
                    summary=("wavelet lowest. " if verdict == "holds" else
                             f"{', '.join(main['beaten_by'])} below wavelet. " if verdict == "refuted" else
                             "not significant. ") + text)


@claim(
    id="li2025.table5_running_sum",
    paper_status="empirical",
    source="li2025 §7, Table 5",
    statement=r"On the running-sum task (2-layer encoder, $d_{model}=64$, one head, train length 50, test 50/100/200, "
    r"MSE), wavelet PE has the lowest extrapolation error, MSE 0.0108 at N=200 vs sinusoidal 0.0423.",
    kind="empirical",
    reconstruction="Task and training are reconstructions (petheory.nn.tasks.running_sum; the paper gives no input "
    "distribution, target scaling, causality or optimiser): default x ~ U(-1,1), y_t = S_t/sqrt(t+1), causal encoder, "
    "AdamW, 50 epochs of 10,000 sequences (the 'paper' preset). The records shipped in records/li2025_table5* were "
    "trained on one H100 for the default and for each alternative reading (bidirectional encoder, y_t = S_t/(t+1), "
    "x ~ N(0,1)): 15 seeds per PE for the default and the S_t/(t+1) reading, 5 for the others; runs/ is read first. "
    "Seeds were added in rounds: with the first 5 seeds the default reading was inconclusive (nope below wavelet at "
    "p = 0.009 > 0.05/6 after Holm); seeds 5-14 came from later runs, so the default reading's test is sequential "
    "(two looks), which the Holm level does not correct for. Pre-registered criterion: at N=200, wavelet against every other "
    "PE by one-sided Welch t-tests (the statement is directional; variances differ between PEs), alpha 0.05, Holm over "
    "the 6 comparisons: holds if wavelet beats all, refuted if any beats wavelet, else inconclusive. The verdict is the "
    "default reading's; every reading's verdict and ordering are in the details. The quick profile never trains; the "
    "thorough one first trains the 'small' preset (4 PEs x 2 seeds), which alone can only give inconclusive.",
)
def table5_running_sum(ctx) -> Evidence:
    from proofs_check.claims import _empirical as emp

    if ctx.profile != "quick":
        import torch

        from petheory import experiments
        from petheory.records import runs_dir

        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # tiny models: intra-op threads only contend on a shared CPU
        try:
            experiments.running_sum({"size": "small", "pes": ["sinusoidal", "alibi", "wavelet", "legendre"], "seeds": [0, 1],
                                     "out_dir": str(runs_dir(ctx.workdir or ".") / "li2025_table5"),
                                     "set": {"ablate": False}})
        finally:
            torch.set_num_threads(threads)
    recs, note = emp.find("running_sum", ctx.workdir or ".", check=_table5_problem)
    return table5_evidence(recs, note)
