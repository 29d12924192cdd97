r"""Claims of li2025 (Yin Li, arXiv 2506.06398) about the encodings' own vectors: the norm bounds of Table 2
(sinusoidal, every PE, unnormalised wavelet, Legendre), the Rademacher bound (§4.2) and the sinusoidal encoding's
periodic ambiguity (§6).

Extrapolation past the training length (ALiBi Eq. 9, wavelet atom decay and extrapolation, learned PEs) lives in
:mod:`proofs_check.claims.li2025_extrapolation`; Table 5 (running-sum records) in ``li2025_empirical``.

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
from petheory import fits
from petheory.bounds import decay as bounds_decay
from petheory.bounds import rademacher as bounds_rademacher
from petheory.encodings import absolute as enc_absolute
from proofs_check.claims._strategies import even_dims
from proofs_check import plants as pl
from proofs_check.engine import Evidence, Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import tolerance, unit_roundoff


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
    paper_status=None,  # the summary names no status
    source="li2025 Table 2, sinusoidal row (the summary names no status)",
    statement=r"Sinusoidal input norm bound $B_0 = B_x + \sqrt{d_{model}}$, i.e. "
    r"$\lVert PE_{sin}(pos)\rVert_2 \le \sqrt{d_{model}}$ for every position. Three parts, each a case field: "
    r"the paper's bound; the exact norm $\lVert PE_{sin}(pos)\rVert_2=\sqrt{d/2}$ ($d/2$ sine-cosine pairs of "
    r"norm 1), which makes the bound true and loose by $\sqrt2$; and the library's entries against the formula "
    r"$\sin/\cos(pos/base^{2i/d})$.",
    kind="exact",
    cases=_sinusoidal_cases,
    plants=(
        pl.Plant("sinusoidal PE doubled", pl.scaled("petheory.encodings.absolute.sinusoidal", 2.0)),
    ),
)
def sinusoidal_norm_bound(case) -> float:
    d, part = case["d"], case.get("part", "paper_bound")
    pe = enc_absolute.sinusoidal(1, d, base=case["base"], layout=case["layout"], start=case["pos"])[0]
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
def _input_norm_cases(draw, pes=("sinusoidal", "alibi", "legendre", "nope")):
    pe = draw(st.sampled_from(pes))
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


claim(
    id="li2025.input_norm_bounds",
    paper_status=None,  # the summary names no status
    source="li2025 Table 2 (sinusoidal, learned); Mechanism 3 'Break condition' (ALiBi); 'Design tradeoffs' (Legendre) "
    "(the summary names no status)",
    statement=r"The input norm bound $B_0$ (bounding $\lVert z_i^{(0)}\rVert_2$) per PE, a conjunction of four parts: "
    r"'[Table 2]: Compares norm bounds across encoding schemes--sinusoidal $B_x+\sqrt{d_{model}}$ vs learned "
    r"$B_x+B_p$'; ALiBi 'if ALiBi's $\alpha(N'-1)$ becomes large for very long inference sequences, capacity inflation "
    r"degrades generalization' (a logit bias of magnitude up to $\alpha(N'-1)$ at inference length $N'$); "
    r"'Legendre (proposed): Bounded norm'.",
    kind="exact",
    cases=lambda: _input_norm_cases(pes=("sinusoidal", "learned", "alibi", "legendre")),
    evidence_note="searched for the sinusoidal, ALiBi and Legendre parts; the learned part is true by definition "
    "(Table 2 gives B_p no value, read as the table's largest row norm): the search only checks that positions past "
    "N_max reuse a row of the table",
    reconstruction="A conjunction: every part must hold, and a case of any part that fails refutes the claim. Checked "
    "at inference lengths N' >= N_max: max_{pos<N'} ||x + PE(pos)|| <= B_x + stated with the token x aligned with "
    "PE(pos) (the worst case, where the triangle inequality is tight), i.e. sup ||PE|| <= stated. ALiBi: max |b(i,j)| "
    "<= alpha(N'-1). Legendre: 'bounded' with the bound sqrt(sum c_k^2) (bounds.legendre_norm_bound), for both "
    "bounded position maps. Learned: B_p has no value in Table 2, so B_p can only be the table's largest row norm, and "
    "the part is true by that definition. The unnormalised wavelet's O(N_max sqrt(log N_max)) ('Failure signatures', "
    "not Table 2) is li2025.wavelet_unnormalised_norm.",
    plants=(
        pl.Plant("sinusoidal registry entry scaled by 1.5",
                 pl.registry("sinusoidal", lambda fn: (lambda *a, **k: 1.5 * fn(*a, **k)))),
        pl.Plant("the input norm bound 10% high",
                 pl.attr("petheory.bounds.norms.NormBound.input_norm", lambda real: (lambda self, token_norm=0.0: pl.times(real(self, token_norm), 1.1)))),
        pl.Plant("norm_bound hands out a stated bound 10% low",
                 pl.attr("petheory.bounds.norm_bound", lambda real: (lambda *a, **k: pl.lower_stated(real(*a, **k))))),
    ),
)(input_norm_bounds)


# ============================================================================= Rademacher

_RAD_PES = {
    "sinusoidal": {},
    "learned": {"std": 1.0, "beyond": "clamp"},
    "legendre": {},
    "wavelet": {"normalisation": "l2"},
}


@claim(
    id="li2025.rademacher_bound",
    paper_status=None,  # the summary names no status
    source="li2025 §4.2 (the summary names no status)",
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
            r = bounds_rademacher.empirical_rademacher(X, weight_norm=1.0, n_draws=n_draws, seed=ctx.seed + 100 + i)
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
        summary="L=0 (linear readout on PE-augmented inputs): $\\hat R \\le B B_0/\\sqrt{m}$ at every m (smallest relative "
        f"slack {worst:.2f}); fitted exponents of m: {exps} (consistent with -1/2). L>=1: R_m not computable; "
        "the statement about Transformer classes is neither confirmed nor refuted.",
    )


# ============================================================================= wavelet: unnormalised norm


def _log_factor_slack(n_min: int) -> float:
    """How far a missing or extra sqrt(log N) moves a fitted exponent of N over sizes >= n_min: the local slope of
    log sqrt(log N) in log N is 1 / (2 ln N), largest at the smallest size. A rate within this of N sqrt(log N) cannot
    be told apart from it on the sizes fitted, so it is not held against the statement."""
    return 1.0 / (2.0 * math.log(n_min))


def _wavelet_norm_fits(profile: str) -> tuple[list, float, dict]:
    """(sizes, log-factor slack, {construction: fits}) of every unnormalised-wavelet construction: the data both
    wavelet_unnormalised_norm and its __corrected read (not cached: a plant in bounds must reach both)."""
    sizes = [2**k for k in range(6, 13 if profile == "quick" else 15)]
    fams = ["db2"] if profile == "quick" else ["db2", "db4"]
    rows = {}
    for w in fams:
        for dil in ("unit", "position"):
            for nm in ("l2", "paper", "none"):
                for dp in ("full", 64):
                    g = bounds.wavelet_norm_growth(sizes, wavelet=w, normalisation=nm, dilation=dil, d=dp)
                    rows[f"{w}/{dil}/{nm}/d={dp}"] = {
                        "sup_norm": g["sup_norm"], "d": g["d"], "exponent": g["fit"]["slope"],
                        "exponent_ci95": g["fit"]["slope_ci"], "ratio_exponent": g["ratio_fit"]["slope"],
                        "ratio_exponent_ci95": g["ratio_fit"]["slope_ci"]}
    return sizes, _log_factor_slack(sizes[0]), rows


def _fastest(rows: dict) -> tuple[str, dict, str]:
    fastest = max(rows, key=lambda k: rows[k]["ratio_exponent"])
    fe = rows[fastest]
    lo, hi = fe["ratio_exponent_ci95"]
    grows = (f"the fastest growth is {fastest}: sup norm ~ N^{fe['exponent']:.3f} (CI {fe['exponent_ci95'][0]:.3f}.."
             f"{fe['exponent_ci95'][1]:.3f}), ratio to N sqrt(log N) ~ N^{fe['ratio_exponent']:.3f} (CI {lo:.3f}..{hi:.3f})")
    return fastest, fe, grows


def wavelet_norm_upper_bound(ctx) -> Evidence:
    """:math:`O(N\\sqrt{\\log N})` as an upper bound: refuted when some construction's ratio exponent lies above the slack."""
    sizes, delta, rows = _wavelet_norm_fits(ctx.profile)
    fastest, fe, grows = _fastest(rows)
    above = {k: r for k, r in rows.items() if r["ratio_exponent_ci95"][0] > delta}
    details = {"sizes": sizes, "fits": rows, "fastest": fastest, "log_factor_slack": delta}
    if above:
        k = max(above, key=lambda k: above[k]["ratio_exponent"])
        return Evidence("refuted", len(rows), margin=-float(above[k]["ratio_exponent_ci95"][0] - delta), details=details,
                        counterexample={"construction": k, **above[k]},
                        summary=f"{k}: sup norm grows faster than $N\\sqrt{{\\log N}}$ (ratio exponent CI lower "
                        f"{above[k]['ratio_exponent_ci95'][0]:.3f} > slack {delta:.3f}); {grows}")
    return Evidence("holds", len(rows), margin=float(delta - fe["ratio_exponent_ci95"][0]), details=details,
                    summary=f"no construction grows faster than $N\\sqrt{{\\log N}}$ (slack {delta:.3f}): {grows}")


def wavelet_norm_attained(ctx) -> Evidence:
    """The rate as attained: inconclusive either way (the constructions are reconstructions), with the direction."""
    sizes, delta, rows = _wavelet_norm_fits(ctx.profile)
    fastest, fe, grows = _fastest(rows)
    lo, hi = fe["ratio_exponent_ci95"]
    reached = hi >= -delta
    return Evidence("inconclusive", len(rows), margin=float(hi + delta),
                    details={"sizes": sizes, "fits": rows, "fastest": fastest, "log_factor_slack": delta,
                             "reached": reached},
                    summary=("a reconstruction reaches the rate" if reached else
                             f"none of the {len(rows)} reconstructions reaches the rate (the direction: not attained; "
                             f"CI upper {hi:.3f} < -{delta:.3f})") + f": {grows}. The summary does not define the "
                    "unnormalised encoding, so a reconstruction that misses the rate does not refute it")


claim(
    id="li2025.wavelet_unnormalised_norm",
    paper_status=None,  # the summary names no status ('Failure signatures')
    source="li2025 'Failure signatures' (unnormalized wavelet) (the summary names no status)",
    statement=r"'Unnormalized wavelet: Input norm inflation ($O(N_{max}\sqrt{\log N_{max}})$) destabilizes training'.",
    kind="asymptotic",
    reconstruction="sup_{pos<N_max} ||PE(pos)||_2 (bounds.wavelet_norms, sparse) for N_max = 2^6..2^12, under every "
    "construction: dilation unit/position x amplitude l2/paper/none x width d = 'full' (every atom down to the scale "
    "that resolves one position; at fixed d the unit-dilation norm does not depend on N_max at all) and d = 64 -- "
    "reconstructions of an encoding the summary does not define. 'Unnormalised' is read as: no rescaling of the PE "
    "vector after the atoms are evaluated. Fit: OLS of log(sup norm / (N sqrt(log N))) on log N with a 95% "
    "t-interval (deterministic data: the interval measures fit); slack delta = 1/(2 ln N_min) on the exponent, what a "
    "missing or extra sqrt(log N) moves it by over these sizes. The 'destabilizes training' part is not checked.",
    readings=[
        Reading("upper_bound", r"O(.) as written: the norm grows no faster than $N_{max}\sqrt{\log N_{max}}$ under "
                "every construction (no ratio-exponent interval lies above delta).", check=wavelet_norm_upper_bound,
                plants=(
                    pl.Plant("sup norms grow as N^1.2 sqrt(log N)",
                             pl.attr("petheory.bounds.decay.wavelet_norms",
                                   lambda real: (lambda n, d, **k: np.full(n, float(n) ** 1.2 * np.sqrt(np.log(n)))))),
                    pl.Plant("the growth fits' ratio exponents 1 higher",
                             pl.attr("petheory.bounds.wavelet_norm_growth", lambda real: (lambda *a, **k: pl.steeper_growth(real(*a, **k))))),
                )),
        Reading("attained_rate", r"'inflation' at that rate: some construction's norm grows as "
                r"$N_{max}\sqrt{\log N_{max}}$. At most inconclusive: a reconstruction that misses the rate says "
                "nothing about the authors' encoding, which the summary does not define.", check=wavelet_norm_attained),
    ],
)


@claim(
    id="li2025.wavelet_unnormalised_norm__corrected",
    paper_status=None,
    source="li2025 'Failure signatures', corrected (the summary names no status)",
    statement=r"The unnormalised wavelet PE norm $\sup_{pos<N_{max}}\lVert PE_{wav}(pos)\rVert_2$ grows no faster than "
    r"$\sqrt{N_{max}}$ (up to a log factor), under every construction (unit or position dilation; amplitude l2, "
    r"$2^{-j/2}$ or none; full or fixed width).",
    kind="asymptotic",
    corrected_of="li2025.wavelet_unnormalised_norm",
    reconstruction="The constructions and fits of li2025.wavelet_unnormalised_norm; holds when every construction's "
    "fitted exponent of N (95% t-interval) lies below 1/2 + delta, delta = 1/(2 ln N_min) the most a log factor "
    "moves an exponent over the sizes fitted.",
    plants=(
        pl.Plant("sup norms grow as N sqrt(log N)",
                 pl.attr("petheory.bounds.decay.wavelet_norms", lambda real: (lambda n, d, **k: np.full(n, float(n) * np.sqrt(np.log(n)))))),
    ),
)
def wavelet_unnormalised_norm__corrected(ctx) -> Evidence:
    sizes, delta, fits = _wavelet_norm_fits(ctx.profile)
    rows = {k: {"exponent": f["exponent"], "exponent_ci95": f["exponent_ci95"]} for k, f in fits.items()}
    fastest = max(rows, key=lambda k: rows[k]["exponent_ci95"][0])
    lo = rows[fastest]["exponent_ci95"][0]
    limit = 0.5 + delta
    details = {"sizes": sizes, "fits": rows, "fastest": fastest, "limit": limit}
    if lo > limit:
        return Evidence("refuted", len(rows), margin=float(limit - lo), details=details,
                        counterexample={"construction": fastest, **rows[fastest]},
                        summary=f"{fastest}: sup norm ~ N^{rows[fastest]['exponent']:.3f} (CI lower {lo:.3f} > {limit:.3f})")
    return Evidence("holds", len(rows), margin=float(limit - lo), details=details,
                    summary=f"every construction's exponent of N is compatible with <= 1/2 + {delta:.3f}; fastest "
                    f"{fastest}: $N^{{{rows[fastest]['exponent']:.3f}}}$")


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
    paper_status=None,  # the summary names no status
    source="li2025 'Design tradeoffs' (Legendre) (the summary names no status)",
    statement="Legendre PE has bounded norm and saturates to a constant vector for very large positions.",
    kind="exact",
    cases=_legendre_cases,
    reconstruction="petheory.encodings.legendre with both bounded position maps: 'linear' x(p) = 2p/(n_max-1) - 1 "
    "clipped at 1 past n_max (the default), and 'exp' x(p) = 1 - 2exp(-ln(20) p/(n_max-1)). Bounded: every "
    "||PE(p)|| <= sqrt(sum c_k^2) (bounds.legendre_norm_bound). Saturates: ||PE(p) - PE_inf|| <= "
    "bounds.legendre_saturation_bound(p), which is 0 from n_max-1 on (linear, clipped) or 2 e^{-ln(20) p/(n_max-1)} "
    "times ||(c_k k(k+1)/2)_k|| (exp), with PE_inf = (c_k P_k(1)) = (c_k). With beyond='extrapolate' and the linear "
    "map the norm grows like x^(d-1) and the claim fails; that is not a saturating construction. Besides the "
    "library's own bounds, the checker evaluates the encoding independently (scipy.special.eval_legendre at x(p) "
    "written out in the checker, c_k and PE_inf = c_k P_k(1) from their definitions): the table must agree with it, "
    "and the independent values must themselves be bounded by sqrt(sum c_k^2) and saturate (||PE(p) - PE_inf|| within "
    "the saturation bound), so a saturation that came only from the library clipping its own values is not enough.",
    plants=(
        pl.Plant("Legendre PE extrapolates past n_max instead of saturating",
                 pl.attr("petheory.encodings.absolute.legendre", lambda real: (lambda *a, **k: real(*a, **{**k, "beyond": "extrapolate"})))),
        pl.Plant("the Legendre limit reported 10% high",
                 pl.scaled("petheory.bounds.legendre_limit", 1.1)),
        pl.Plant("the Legendre norm bound 10% low", pl.scaled("petheory.bounds.legendre_norm_bound", 0.9)),
        pl.Plant("the saturation bound 10% low",
                 pl.scaled("petheory.bounds.legendre_saturation_bound", 0.9)),
    ),
)
def legendre_bounded(case) -> float:
    n_max, d, far, ortho, pm = case["n_max"], case["d"], case["far"], case["orthonormal"], case["position_map"]
    inside = enc_absolute.legendre(n_max, d, n_max=n_max, orthonormal=ortho, position_map=pm)
    start = n_max + far
    beyond = enc_absolute.legendre(3, d, n_max=n_max, orthonormal=ortho, start=start, position_map=pm)
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
    # Independent of the library: scipy's eval_legendre at x(p) written out here, with c_k and PE_inf = c_k P_k(1)
    # from their definitions; the table must agree with it, and the independent values must be bounded and saturate.
    from scipy.special import eval_legendre

    pos = np.concatenate([np.arange(n_max), start + np.arange(3)]).astype(np.float64)
    x = (np.minimum(2.0 * pos / (n_max - 1) - 1.0, 1.0) if pm == "linear"
         else 1.0 - 2.0 * np.exp(-math.log(20.0) * pos / (n_max - 1)))
    c = np.sqrt((2.0 * k + 1.0) / 2.0) if ortho else np.ones(d)
    ref = c * eval_legendre(k[None, :], x[:, None])  # (n_max + 3, d)
    ref_limit = c * eval_legendre(k, 1.0)
    agree = float(np.max(np.abs(np.vstack([inside, beyond]) - ref)) - 2 * tol)
    ref_bounded = float(np.max(np.linalg.norm(ref, axis=1)) - math.sqrt(float(np.sum(c * c))) - tol)
    ref_sat = float(np.max(np.linalg.norm(ref[n_max:] - ref_limit, axis=1) - sat) - 2 * tol)
    return max(norm_excess, saturation, agree, ref_bounded, ref_sat)


# ============================================================================= sinusoidal ambiguity

#: d values tried, the paper's d_model=64 first (hypothesis shrinks towards the first element).
_AMBIGUITY_DS = [64, 128, 256, 512, 1024, 32, 16, 14, 12, 10, 8, 4, 2, 18, 20, 24, 48, 96, 768]
_SEARCH = 10**6


@functools.lru_cache(maxsize=2048)
def _onset(d: int, base: float) -> int | None:
    return bounds_decay.sinusoidal_ambiguity_onset(d, base=base, max_offset=_SEARCH)


@st.composite
def _ambiguity_cases(draw):
    return {"d": draw(st.sampled_from(_AMBIGUITY_DS)), "base": 10000.0}


def sinusoidal_periodic_ambiguity(case) -> float:
    """Reading 'near_repeat': the onset of ambiguity lies within :math:`[10^3, 10^5]`; violation in decades."""
    on = _onset(case["d"], case["base"])
    dec = math.log10(on) if on is not None else math.log10(_SEARCH)
    quantities(onset=on, onset_decades=dec, stated_decades=[3.0, 5.0], searched_up_to=_SEARCH)
    return float(max(3.0 - dec, dec - 5.0))


def _paper_width_cases():
    return st.just({"d": 64, "base": 10000.0})


def sinusoidal_slowest_period(case) -> float:
    """Reading 'slowest_period': the longest wavelength :math:`2\\pi\\, \\mathrm{base}^{(d-2)/d}` of the encoding lies within
    :math:`[10^3, 10^5]` ('about 10000'); violation in decades."""
    d, base = case["d"], case["base"]
    freqs = enc_absolute.sinusoidal(2, d, base=base, layout="concatenated")[1, : d // 2]  # sin(omega_i) at position 1
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

claim(
    id="li2025.sinusoidal_periodic_ambiguity",
    source="li2025 'Design tradeoffs' (sinusoidal); 'Failure signatures' (sinusoidal) (the summary names no status)",
    statement="Sinusoidal PE suffers periodic ambiguity beyond about 10000 positions. 'Ambiguity' is not defined; "
    "each reading is checked at the paper's d_model = 64, base 10000.",
    kind="exact",
    paper_status=None,  # the summary names no status
    reconstruction=_AMBIGUITY_RECON,
    readings=[
        Reading("near_repeat", "ambiguity = a pair of positions closer than adjacent positions; its onset lies in "
                "[10^3, 10^5].", check=sinusoidal_periodic_ambiguity, cases=_paper_width_cases,
                evidence="exhaustive", examples={"quick": 1, "thorough": 1}),
        Reading("slowest_period", "ambiguity = the slowest sine-cosine pair repeats; its period 2 pi base^((d-2)/d) "
                "lies in [10^3, 10^5].", check=sinusoidal_slowest_period, cases=_paper_width_cases,
                evidence="exhaustive", examples={"quick": 1, "thorough": 1},
                plants=(
                    pl.Plant("sinusoidal base 1e7",
                             pl.attr("petheory.encodings.absolute.sinusoidal", lambda real: (lambda *a, **k: real(*a, **{**k, "base": 1e7})))),
                )),
    ],
)


@st.composite
def _ambiguity_all_d(draw):
    return {"d": draw(st.sampled_from([2, 64, 10, 12, 14, 16, 18]) | even_dims(2, 1024)), "base": 10000.0}


#: Measured onsets (bounds.sinusoidal_ambiguity_onset, base 10000): the corrected statement.
AMBIGUITY_ONSETS = {12: 14495, 14: 18246, 16: 596274}


@claim(
    id="li2025.sinusoidal_periodic_ambiguity__corrected",
    paper_status=None,  # the summary names no status
    source="li2025 §6 (corrected) (the summary names no status)",
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
    plants=(
        pl.Plant("onset of ambiguity reported at 7",
                 pl.attr("petheory.bounds.decay.sinusoidal_ambiguity_onset", lambda real: (lambda d, **k: 7))),
    ),
)
def sinusoidal_periodic_ambiguity__corrected(case) -> float:
    d = case["d"]
    on = _onset(d, case["base"])
    expected = 6 if d <= 10 else AMBIGUITY_ONSETS.get(d)
    return 0.0 if on == expected else 1.0
