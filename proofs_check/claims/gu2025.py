r"""Claims of gu2025 (Gu et al., arXiv 2505.13027): RoPE's relative property, Szegő's theorem, Lemma B.1.

The spectral-contraction claims of App. B (Schur's inequality, Prop. B.3) and the classical results they
rest on live in :mod:`proofs_check.claims.gu2025_contraction`; the coupling claims (Eq. 8, Assumption 3.2,
Remarks 3.1/3.2, Eq. 9) in :mod:`proofs_check.claims.gu2025_coupling`; the empirical ones in
``gu2025_empirical``.

Each statement is checked as the paper states it (quoted from CLAIMS.md / the paper), on cases
that range over what it quantifies over: sizes, symbols, phases and weights. Where a statement is
refuted the module also holds the strongest corrected variant that survives, as ``<id>__corrected``.

Every checker calls the library (:mod:`petheory.toeplitz`, :mod:`petheory.encodings`) through a
module attribute, the defining module's for the functions tests plant a wrong version of
(``tp_szego.spectral_distribution``), so a verdict is about the code a user runs; each tolerance
is derived next to its check from :func:`petheory.rounding.tolerance`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from petheory import toeplitz as tp
from petheory._threads import blas_threads
from petheory.encodings import rotary as enc_rotary
from petheory.toeplitz import phase_modulation as tp_phase
from petheory.toeplitz import szego as tp_szego
from proofs_check.claims._strategies import even_dims, vectors
from proofs_check import plants as pl
from proofs_check.engine import Evidence, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import tolerance, unit_roundoff

SRC = "gu2025"


@st.composite
def _rope_cases(draw):
    d = draw(even_dims(2, 64))
    rotary_dim = draw(st.none() | even_dims(2, d))
    return {
        "d": d,
        "rotary_dim": rotary_dim,
        "i": draw(st.integers(0, 100_000)),
        "j": draw(st.integers(0, 100_000)),
        "base": draw(st.sampled_from([10000.0, 500000.0]) | st.floats(2.0, 1e6)),
        "pairing": draw(st.sampled_from(["interleaved", "half"])),
        "q": draw(vectors(d)),
        "k": draw(vectors(d)),
    }


def _rope_relative_proof() -> bool:
    """(R_i q)^T (R_j k) = q^T R_{j-i} k for two frequency blocks with symbolic q, k, i, j.

    R_p is block-diagonal with 2x2 rotations by p*theta_t (interleaved pairing; 'half' is a
    fixed permutation of coordinates, which preserves inner products), so two blocks with
    independent symbolic frequencies cover the general structure."""
    import sympy as sp

    i, j, t1, t2 = sp.symbols("i j theta1 theta2", real=True)
    q = sp.Matrix(sp.symbols("q0:4", real=True))
    k = sp.Matrix(sp.symbols("k0:4", real=True))

    def R(p):
        def rot(a):
            return sp.Matrix([[sp.cos(a), -sp.sin(a)], [sp.sin(a), sp.cos(a)]])

        return sp.diag(rot(p * t1), rot(p * t2))

    lhs = (R(i) * q).T * (R(j) * k)
    rhs = q.T * R(j - i) * k
    return sp.simplify(sp.expand_trig(sp.expand(lhs[0] - rhs[0]))) == 0


@claim(
    id="gu2025.rope_relative",
    paper_status=None,  # an equation: the source names no status
    source="gu2025 §3.1, Eq. 4 (the source names no status: an equation)",
    statement=r"RoPE's relative property: $(R_i q)^\top (R_j k) = q^\top R_{j-i} k$.",
    kind="symbolic",
    cases=_rope_cases,
    proof=_rope_relative_proof,
    plants=(
        pl.Plant("rotation drifts with the absolute position", pl.rope_drift),
    ),
)
def rope_relative(case) -> float:
    d, i, j = case["d"], case["i"], case["j"]
    # Rows 0, 1, 2 of the table hold positions i, j and |j - i|.
    freqs = enc_rotary.rope_frequencies(d, base=case["base"], rotary_dim=case["rotary_dim"])
    table = enc_rotary.RotaryTable(np.array([i, j, abs(j - i)], dtype=np.float64)[:, None] * freqs[None, :], d, case["pairing"])
    q, k = np.asarray(case["q"]), np.asarray(case["k"])
    lhs = table.apply_at(q[None], 0)[0] @ table.apply_at(k[None], 1)[0]
    # R_{j-i} = R_{|j-i|} when j >= i, and R_{|j-i|}^T otherwise.
    rhs = q @ table.apply_at(k[None], 2)[0] if j >= i else table.apply_at(q[None], 2)[0] @ k
    # Error model: each angle p*theta (theta <= 1) is rounded with absolute error <= u*p, which
    # moves the rotated vectors by <= u*p*||x||; the d-term dot products add gamma_d ||q|| ||k||.
    # Underflow (Higham eq. 2.8: fl(x*y) = xy(1+delta) + eta_i, |eta_i| <= eta): each rotated
    # coordinate a*cos - b*sin carries <= 2 eta absolute, which the dot product with the other
    # rotated vector multiplies by its 1-norm <= sqrt(d) ||x||_2; two sides, two vectors each:
    # 4 sqrt(d) (||q|| + ||k||) eta. The norms are taken with hypot (scaled, no underflow):
    # np.linalg.norm squares first, and a key of 1e-186 has a norm squared below eta, so the old
    # scale was 0 while the rounding error was ~u * 1e-186 (issue 15's crash). If the product of
    # the norms itself underflows, the relative part it stands for is below eta: 4 eta covers it.
    nq, nk = math.hypot(*q), math.hypot(*k)
    scale = nq * nk
    eta = float(np.finfo(np.float64).smallest_subnormal)
    tol = (tolerance(n_ops=d + 4, scale=scale) + 4 * unit_roundoff() * (i + j + abs(j - i) + 4) * scale
           + (4 * math.sqrt(d) * (nq + nk) + 4) * eta)
    return float(abs(lhs - rhs) - tol)


# ============================================================================ Thm 3.1: Szegő


def _szego_symbols(rng: np.random.Generator) -> dict:
    """Fixed (N-independent) real continuous symbols: name -> (first-column function of N, symbol on theta)."""
    K = 6
    co = rng.standard_normal(K + 1) + 1j * rng.standard_normal(K + 1)
    co *= 0.7 ** np.arange(K + 1)
    co[0] = co[0].real

    def trig_col(n):
        c = np.zeros(n, dtype=np.complex128)
        m = min(n, K + 1)
        c[:m] = co[:m]
        return c

    def trig_sym(theta):
        k = np.arange(1, K + 1)
        return co[0].real + 2 * np.real(np.exp(1j * np.outer(theta, k)) @ co[1:])

    ell = float(rng.uniform(1.5, 6.0))
    exp_k, gauss_k, power_k = tp.kernel("exponential"), tp.kernel("gaussian"), tp.kernel("power")

    def power_sym(theta):  # a_k = (1+|k|/ell)^-2 summed to 2^16 terms: the tail is < 1e-4 ell^2 / 2^16
        c = power_k.column(1 << 16, ell)
        return tp.symbol(c, theta=theta)[1] if theta.shape[0] < 64 else np.interp(
            theta, *tp.symbol(c, n_grid=1 << 17), period=2 * np.pi
        )

    return {
        "trig_poly": (trig_col, trig_sym),
        "exponential": (lambda n: exp_k.column(n, ell), lambda t: exp_k.symbol_values(t, ell)),
        "gaussian": (lambda n: gauss_k.column(n, ell), lambda t: gauss_k.symbol_values(t, ell)),
        "power_kink": (lambda n: power_k.column(n, ell), power_sym),
    }



def _decay_rate(ns, ys):
    """Rate r of y ~ N^-r with its 95% t-interval (fits.fit_power_law; n-2 degrees of freedom)."""
    from petheory.fits import fit_power_law

    fit = fit_power_law(np.asarray(ns, float), np.maximum(np.asarray(ys, float), 1e-300))
    lo, hi = fit.slope_ci
    return -fit.slope, (-hi, -lo)


@claim(
    id="gu2025.szego",
    paper_status="theorem",
    source="gu2025 Thm 3.1 (Grenander-Szegő)",
    statement=r"For a real continuous symbol $a$, the eigenvalues of the Hermitian $T_N(a)$ asymptotically fill "
    r"$[\min a,\max a]$ as $N\to\infty$. Checked as trends over growing $N$ for a random trigonometric polynomial, "
    r"exponential, Gaussian and kinked power-law kernels: the Kolmogorov distance between the eigenvalue and "
    r"symbol-value distributions, and the largest gap of $\{\min a\}\cup\mathrm{spec}\,T_N\cup\{\max a\}$ "
    r"relative to $\max a-\min a$, must both decrease (fitted power-law rate, 95% interval above 0).",
    kind="asymptotic",
    plants=(
        pl.Plant("Kolmogorov distance grows with N", pl.szego_growing),
        pl.Plant("the symbol's values shifted by a tenth of their range",
                 pl.attr("petheory.toeplitz.symbol", lambda real: (lambda c, r=None, theta=None, **k: pl.shifted_symbol(real(c, r, theta, **k))))),
        pl.Plant("the kernel's closed-form symbol 10% high",
                 pl.attr("petheory.toeplitz.closed_forms.Kernel.symbol_values", lambda real: (lambda self, th, L: 1.1 * real(self, th, L)))),
        pl.Plant("the kernel's column 10% high", pl.attr("petheory.toeplitz.closed_forms.Kernel.column",
                                                                       lambda real: (lambda self, n, L: 1.1 * real(self, n, L)))),
        pl.Plant("the power-law fit's slope with the wrong sign",
                 pl.attr("petheory.fits.fit_power_law", lambda real: (lambda x, y, **k: pl.negated(real(x, y, **k))))),
        pl.Plant("the kernel registry hands out a kernel whose column is 10% high",
                 pl.attr("petheory.toeplitz.kernel", lambda real: (lambda name: pl.heavier_kernel(real(name))))),
    ),
)
def szego(ctx) -> Evidence:
    sizes = [32, 64, 128, 256, 512] if ctx.profile == "quick" else [32, 64, 128, 256, 512, 1024, 2048]
    per: dict = {}
    verdict = "holds"
    worst_rate = math.inf
    cases = 0
    for name, (col, sym) in _szego_symbols(ctx.rng).items():
        ks, gaps = [], []
        for n in sizes:
            with blas_threads(1):  # small dense eigenproblems: threads only add latency
                sd = tp_szego.spectral_distribution(col(n), symbol=sym, method="exact")
            lo, hi = sd.symbol_values[0], sd.symbol_values[-1]
            pts = np.concatenate([[lo], np.clip(sd.support, lo, hi), [hi]])
            gaps.append(float(np.max(np.diff(pts))) / (hi - lo))
            ks.append(sd.kolmogorov)
            cases += 1
        # rates of decrease (positive = shrinking) with 95% t-intervals: few sizes, so not the normal 1.96
        rk, ck = _decay_rate(sizes, ks)
        rg, cg = _decay_rate(sizes, gaps)
        per[name] = {
            "sizes": sizes,
            "kolmogorov": ks,
            "largest_gap": gaps,
            "kolmogorov_rate": rk,
            "kolmogorov_rate_ci95": list(ck),
            "gap_rate": rg,
            "gap_rate_ci95": list(cg),
        }
        lower = min(ck[0], cg[0])
        worst_rate = min(worst_rate, lower)
        if ck[1] < 0 or cg[1] < 0:
            verdict = "refuted"
        elif lower <= 0 and verdict == "holds":
            verdict = "inconclusive"
    summary = "; ".join(f"{k}: KS $\\sim N^{{-{v['kolmogorov_rate']:.2f}}}$, gap $\\sim N^{{-{v['gap_rate']:.2f}}}$" for k, v in per.items())
    return Evidence(verdict=verdict, cases=cases, margin=worst_rate, details={"symbols": per}, summary=summary)


# ============================================================================ Lemma B.1


@st.composite
def _weights(draw, n: int):
    # w_i >= 0 as the lemma says. Zeros come from a mask that shrinks towards "no zeros", so a
    # shrunk counterexample has zero weights only where they are what breaks the statement.
    w = draw(st.lists(st.floats(0.01, 10.0), min_size=n, max_size=n))
    zero = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return [0.0 if z else x for x, z in zip(w, zero)]


@st.composite
def _amplitude_cases(draw):
    n = draw(st.integers(1, 12))
    return {
        "weights": draw(_weights(n)),
        "phases": draw(st.lists(st.floats(-20.0, 20.0), min_size=n, max_size=n)),
        "reading": draw(st.sampled_from(list(tp.LEMMA_B1_READINGS))),
    }


def _lemma_tol(w, phases, n: int) -> float:
    """Rounding in f and g: n cosines of arguments up to n (|theta_i| + 2 pi), each off by
    u (|arg| + 1), in an n-term sum of size 2 sum w; plus the symbol evaluation's own error."""
    amax = n * (float(np.max(np.abs(phases))) + 2 * math.pi) if n else 0.0
    return tolerance(n_ops=2 * n + 8, scale=2 * float(np.sum(w))) + 4 * unit_roundoff() * (amax + 1) * 2 * float(np.sum(w))


@claim(
    id="gu2025.lemma_b1_amplitude",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (amplitude bound)",
    statement=r"For $w_i\ge0$: $\max_\theta|f|\le\max_\theta|g|=2\sum_i w_i$, "
    r"$f=\sum_i 2w_i\cos(i\theta_i+i\theta)$, $g=\sum_i 2w_i\cos(i\theta)$. Checked in both readings of the "
    r"phase ('statement': $i\theta_i$; 'proof': $\theta_i$, as in $c_i=w_ie^{\mathrm i\theta_i}$), maxima by a "
    r"dense grid with Newton refinement of every candidate peak.",
    kind="exact",
    cases=_amplitude_cases,
    plants=(
        pl.Plant("f scaled by 1.001 (above 2 sum w)", pl.lemma_b1(1.001)),
        pl.Plant("max |f| read from the minimum only",
                 pl.attr("petheory.toeplitz.phase_modulation.LemmaB1.max_abs_f", lambda real: property(lambda self: 1.001 * real.fget(self)))),
        pl.Plant("max |g| 0.1% high",
                 pl.attr("petheory.toeplitz.phase_modulation.LemmaB1.max_abs_g", lambda real: property(lambda self: 1.001 * real.fget(self)))),
    ),
)
def lemma_b1_amplitude(case) -> float:
    w, ph = np.asarray(case["weights"]), np.asarray(case["phases"])
    r = tp_phase.lemma_b1(w, ph, reading=case["reading"])
    tol = _lemma_tol(w, ph, len(w)) + r.f.error + r.g.error
    # the refined maxima are attained values (witnesses): exceeding the bound refutes rigorously
    return float(max(r.max_abs_f - r.bound, abs(r.max_abs_g - r.bound)) - tol)


@st.composite
def _rational_phase_cases(draw, extra=None):
    """Phases 2 pi p_i / q with integers p_i, q (dense in the phases; equality is decidable exactly).

    Structured families make the measure-zero equality cases likely: all phases equal, phases
    linear in i (a shift of theta), and arbitrary ones. ``extra`` fields are drawn first, so the
    shrinker prefers their first values (hypothesis orders cases by their earliest choices)."""
    first = {k: draw(s) for k, s in (extra or {}).items()}
    n = draw(st.integers(1, 8))
    q = draw(st.integers(1, 12))
    family = draw(st.sampled_from(["equal", "linear", "arbitrary"]))
    p0 = draw(st.integers(-2 * q, 2 * q))
    if family == "equal":
        p = [p0] * n
    elif family == "linear":
        s = draw(st.integers(-q, q))
        p = [p0 + i * s for i in range(n)]
    else:
        p = draw(st.lists(st.integers(-2 * q, 2 * q), min_size=n, max_size=n))
    case = {
        "weights": draw(_weights(n)),
        "p": p,
        "q": q,
        "reading": draw(st.sampled_from(list(tp.LEMMA_B1_READINGS))),
    }
    case.update(first)
    return case


def _informative(strategy):
    """Only cases with at least two positive weights: one term alone (e.g. the constant i = 0 term) is a degenerate
    counterexample that says nothing about how phases interact; the search then shrinks to the smallest informative one."""
    return strategy.filter(lambda c: sum(w > 0 for w in c["weights"]) >= 2)


def _phases(case) -> np.ndarray:
    return 2 * np.pi * np.asarray(case["p"], dtype=np.float64) / case["q"]


def _coincide(case) -> bool:
    """All theta_i equal mod 2 pi (the lemma's condition, over every index as written)."""
    p, q = case["p"], case["q"]
    return all((pi - p[0]) % q == 0 for pi in p)


def _alignable(case, target=(Fraction(0), Fraction(1, 2))) -> bool:
    """Exact: is there tau with psi_i + i tau = s (mod 1 turn) for every i with w_i > 0, s in target?

    psi_i is the phase of term i in turns: p_i/q (proof reading) or i p_i/q (statement). With
    two support indices i0 < i1, tau is one of (-(psi_i1 - psi_i0) + m)/(i1 - i0), m = 0..i1-i0-1.
    """
    q = case["q"]
    psi = [Fraction(pi, q) if case["reading"] == "proof" else Fraction(i * pi, q) for i, pi in enumerate(case["p"])]
    S = [i for i, wi in enumerate(case["weights"]) if wi > 0]
    if not S:
        return True
    if len(S) == 1:
        i0 = S[0]
        return i0 > 0 or any((psi[0] - s) % 1 == 0 for s in target)
    i0, i1 = S[0], S[1]
    for m in range(i1 - i0):
        tau = (-(psi[i1] - psi[i0]) + m) / (i1 - i0)
        vals = {(psi[i] + i * tau) % 1 for i in S}
        if len(vals) == 1:
            common = next(iter(vals))
            if any((common - s) % 1 == 0 for s in target):
                return True
    return False


def _equality_gap(case) -> tuple[float, float]:
    w = np.asarray(case["weights"])
    ph = _phases(case)
    r = tp_phase.lemma_b1(w, ph, reading=case["reading"])
    quantities(max_abs_f=r.max_abs_f, max_abs_g=r.max_abs_g, two_sum_w=r.bound, tolerance=_lemma_tol(w, ph, len(w)) + r.f.error)
    return r.bound - r.max_abs_f, _lemma_tol(w, ph, len(w)) + r.f.error


def _iff_violation(condition: bool, gap: float, tol: float) -> float:
    """> 0 when 'max|f| = 2 sum w' (gap <= tol) and the condition disagree."""
    equal = gap <= tol
    if condition and not equal:
        return gap - tol  # the 'if' direction fails
    if equal and not condition:
        return 1.0  # equality holds (within rounding) while the condition is false: a logical failure
    return -abs(gap - tol)


@claim(
    id="gu2025.lemma_b1_equality",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (equality case)",
    statement=r"$\max_\theta|f|=\max_\theta|g|$ iff all phase offsets coincide modulo $2\pi$: "
    r"$\theta_0\equiv\theta_1\equiv\dots\equiv\theta_{N-1}$. Checked on phases $2\pi p_i/q$ (dense; exact "
    r"arithmetic decides coincidence), weights $w_i\ge0$, both readings; searched on informative cases (at least "
    r"two positive weights), so the counterexample shown is the smallest informative one (e.g. $w=(0,1,1)$, "
    r"$\theta=(0,0,\pi)$: equality with different phases), not a single degenerate term.",
    kind="exact",
    cases=lambda: _informative(_rational_phase_cases()),
)
def lemma_b1_equality(case) -> float:
    gap, tol = _equality_gap(case)
    quantities(offsets_coincide=_coincide(case), equality_within_tolerance=gap <= tol)
    return _iff_violation(_coincide(case), gap, tol)


@claim(
    id="gu2025.lemma_b1_equality__corrected",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1, corrected",
    statement=r"$\max_\theta|f|=2\sum w_i$ iff the terms with $w_i>0$ can be aligned by a shift: there are $\tau$ and "
    r"$s\in\{0,\pi\}$ with $\psi_i+i\tau\equiv s \pmod{2\pi}$ for every $i$ with $w_i>0$ ($\psi_i$ the phase of "
    r"term $i$: $\theta_i$ in the proof's reading, $i\theta_i$ in the statement's). Equal offsets are neither "
    r"necessary (linear phases, zero weights, the $i=0$ term) nor sufficient (a common offset $\notin\{0,\pi\}$).",
    kind="exact",
    cases=_rational_phase_cases,
    corrected_of="gu2025.lemma_b1_equality",
    plants=(
        pl.Plant("f scaled by 1 - 1e-6", pl.lemma_b1(1 - 1e-6)),
    ),
)
def lemma_b1_equality__corrected(case) -> float:
    gap, tol = _equality_gap(case)
    return _iff_violation(_alignable(case), gap, tol)


_RANGE_PARTS = ("g_not_below_f", "width_4_sum_w", "coincide_only_if_aligned")


def lemma_b1_range(case) -> float:
    """> 0 when the case's part of Lemma B.1's consequence fails (``case["part"]``, one of :data:`_RANGE_PARTS`)."""
    w, ph = np.asarray(case["weights"]), _phases(case)
    r = tp_phase.lemma_b1(w, ph, reading=case["reading"])
    # ptp's are differences of two refined extremes, each off by the evaluation tolerance
    tol = 2 * (_lemma_tol(w, ph, len(w)) + r.f.error + r.g.error)
    quantities(part=case["part"], ptp_f=r.ptp_f, ptp_g=r.ptp_g, four_sum_w=2 * r.bound, tolerance=tol, phases_coincide=_coincide(case))
    if case["part"] == "g_not_below_f":
        return float(r.ptp_f - r.ptp_g - tol)
    if case["part"] == "width_4_sum_w":
        return float(abs(r.ptp_g - 2 * r.bound) - tol)
    same = abs(r.ptp_f - r.ptp_g) <= tol
    return 1.0 if same and not _coincide(case) else -1.0


_RANGE_SENTENCE = (r"Lemma B.1's consequence, 'the peak-to-peak range of $g$ (width $4\sum_iw_i$) never falls below that "
                   r"of $f$, and both ranges coincide only under complete phase alignment', is three statements, each "
                   r"its own claim so that each part's counterexample is shown (a search over the conjunction shrinks "
                   r"to the trivial width part): gu2025.lemma_b1_range (the order), gu2025.lemma_b1_range_width (the "
                   r"parenthesis), gu2025.lemma_b1_range_coincide (the equality case). Searched on informative cases "
                   r"(at least two positive weights): a single term says nothing about how phases interact.")


def _range_part(part: str):
    return lambda: _informative(_rational_phase_cases(extra={"part": st.just(part)}))


@claim(
    id="gu2025.lemma_b1_range",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (consequence)",
    statement=r"'Consequently the peak-to-peak range of $g$ ... never falls below that of $f$': "
    r"$\mathrm{ptp}\,g\ge\mathrm{ptp}\,f$ (e.g. refuted by $w=(.781,.909,.881,.869)$, $p=(0,1,3,3)$, $q=12$: "
    r"$\mathrm{ptp}\,f-\mathrm{ptp}\,g=+0.91$).",
    kind="exact",
    cases=_range_part("g_not_below_f"),
    reconstruction=_RANGE_SENTENCE,
)
def _lemma_b1_range_order(case) -> float:
    return lemma_b1_range(case)


@claim(
    id="gu2025.lemma_b1_range_width",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (consequence)",
    statement=r"The same sentence's parenthesis: the peak-to-peak range of $g$ is its 'width $4\sum_iw_i$', "
    r"$\mathrm{ptp}\,g=4\sum_iw_i$.",
    kind="exact",
    cases=_range_part("width_4_sum_w"),
    reconstruction=_RANGE_SENTENCE,
)
def _lemma_b1_range_width(case) -> float:
    return lemma_b1_range(case)


@claim(
    id="gu2025.lemma_b1_range_coincide",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (consequence)",
    statement=r"The same sentence's last part: 'both ranges coincide only under complete phase alignment', "
    r"$\mathrm{ptp}\,f=\mathrm{ptp}\,g\Rightarrow$ all $\theta_i$ coincide mod $2\pi$.",
    kind="exact",
    cases=_range_part("coincide_only_if_aligned"),
    reconstruction=_RANGE_SENTENCE,
)
def _lemma_b1_range_coincide(case) -> float:
    return lemma_b1_range(case)


@claim(
    id="gu2025.lemma_b1_range__corrected",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1, corrected",
    statement=r"What the amplitude bound does give: $\max f\le\max g=2\sum w_i$ and $\min f\ge-2\sum w_i$, so "
    r"$\mathrm{ptp}\,f\le4\sum w_i$ and $\mathrm{ptp}\,g=2\sum w_i-\min g\le4\sum w_i$; there is no order between "
    r"$\mathrm{ptp}\,f$ and $\mathrm{ptp}\,g$ in general.",
    kind="exact",
    cases=_amplitude_cases,
    corrected_of="gu2025.lemma_b1_range",
    plants=(
        pl.Plant("f scaled by 1.01", pl.lemma_b1(1.01)),
        pl.Plant("the range of f 1% wide",
                 pl.attr("petheory.toeplitz.phase_modulation.LemmaB1.ptp_f", lambda real: property(lambda self: 1.01 * real.fget(self)))),
        pl.Plant("the range of g 1% wide",
                 pl.attr("petheory.toeplitz.phase_modulation.LemmaB1.ptp_g", lambda real: property(lambda self: 1.01 * real.fget(self)))),
    ),
)
def lemma_b1_range__corrected(case) -> float:
    w, ph = np.asarray(case["weights"]), np.asarray(case["phases"])
    r = tp_phase.lemma_b1(w, ph, reading=case["reading"])
    tol = 2 * (_lemma_tol(w, ph, len(w)) + r.f.error + r.g.error)
    return float(max(r.f.max - r.g.max, -r.bound - r.f.min, r.ptp_f - 2 * r.bound, r.ptp_g - 2 * r.bound) - tol)
