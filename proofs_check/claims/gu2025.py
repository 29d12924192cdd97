r"""Claims of gu2025 (Gu et al., arXiv 2505.13027): RoPE, Szegő, Lemma B.1, Schur, spectral contraction.

The coupling claims (Eq. 8, Assumption 3.2, Remarks 3.1/3.2, Eq. 9) live in
:mod:`proofs_check.claims.gu2025_coupling`; the empirical ones in ``gu2025_empirical``.

Each statement is checked as the paper states it (quoted from CLAIMS.md / the paper), on cases
that range over what it quantifies over: sizes, symbols, phases, weights and unit-modulus
Toeplitz factors. Where a statement is refuted the
module also holds the strongest corrected variant that survives, as ``<id>__corrected``. The
classical results the spectral argument rests on (Schur product theorem, Weyl's inequalities,
eigenvalues of ``T_N(a)`` inside the symbol's range) are claims of their own.

Every checker calls the library (:mod:`petheory.toeplitz`, :mod:`petheory.coupling`) through the
module attribute, so a verdict is about the code a user runs (and tests can plant a wrong one), and each tolerance is derived next to its check from
:func:`proofs_check.tolerance.tolerance`.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
from hypothesis import strategies as st

from petheory import coupling as cp
from petheory import encodings as enc
from petheory import toeplitz as tp
from proofs_check.claims._strategies import even_dims, reals, vectors
from proofs_check.engine import Evidence, Premise, Reading, claim, claim_with_readings
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
    paper_status="proposition",
    source="gu2025 §3.1, Eq. 4",
    statement=r"RoPE's relative property: $(R_i q)^\top (R_j k) = q^\top R_{j-i} k$.",
    kind="symbolic",
    cases=_rope_cases,
    proof=_rope_relative_proof,
)
def rope_relative(case) -> float:
    d, i, j = case["d"], case["i"], case["j"]
    # Rows 0, 1, 2 of the table hold positions i, j and |j - i|.
    freqs = enc.rope_frequencies(d, base=case["base"], rotary_dim=case["rotary_dim"])
    table = enc.RotaryTable(np.array([i, j, abs(j - i)], dtype=np.float64)[:, None] * freqs[None, :], d, case["pairing"])
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


# ============================================================================ shared pieces


def _matrix(draw, rows: int, cols: int, lo: float = -10.0, hi: float = 10.0) -> list:
    return draw(st.lists(reals(lo, hi), min_size=rows * cols, max_size=rows * cols))


def _arr(flat, rows: int, cols: int) -> np.ndarray:
    return np.asarray(flat, dtype=np.float64).reshape(rows, cols)


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


def _one_blas_thread():
    try:
        from threadpoolctl import threadpool_limits  # comes with scikit-learn
    except ImportError:  # pragma: no cover
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


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
            with _one_blas_thread():  # small dense eigenproblems: threads only add latency
                sd = tp.spectral_distribution(col(n), symbol=sym, method="exact")
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
    summary = "; ".join(f"{k}: KS ~ N^-{v['kolmogorov_rate']:.2f}, gap ~ N^-{v['gap_rate']:.2f}" for k, v in per.items())
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
)
def lemma_b1_amplitude(case) -> float:
    w, ph = np.asarray(case["weights"]), np.asarray(case["phases"])
    r = tp.lemma_b1(w, ph, reading=case["reading"])
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
    r = tp.lemma_b1(w, ph, reading=case["reading"])
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
    r"arithmetic decides coincidence), weights $w_i\ge0$, both readings.",
    kind="exact",
    cases=_rational_phase_cases,
)
def lemma_b1_equality(case) -> float:
    gap, tol = _equality_gap(case)
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
)
def lemma_b1_equality__corrected(case) -> float:
    gap, tol = _equality_gap(case)
    return _iff_violation(_alignable(case), gap, tol)


_RANGE_PARTS = ("g_not_below_f", "width_4_sum_w", "coincide_only_if_aligned")


@claim(
    id="gu2025.lemma_b1_range",
    paper_status="lemma",
    source="gu2025 App. B, Lemma B.1 (consequence)",
    statement=r"The peak-to-peak range of $g$ (width $4\sum_iw_i$) never falls below that of $f$, and both ranges "
    r"coincide only under complete phase alignment. Three parts, each a case field: "
    r"$\mathrm{ptp}\,g\ge\mathrm{ptp}\,f$; $\mathrm{ptp}\,g=4\sum w_i$; $\mathrm{ptp}\,f=\mathrm{ptp}\,g\Rightarrow$ "
    r"all $\theta_i$ coincide.",
    kind="exact",
    cases=lambda: _rational_phase_cases(extra={"part": st.sampled_from(_RANGE_PARTS)}),
)
def lemma_b1_range(case) -> float:
    w, ph = np.asarray(case["weights"]), _phases(case)
    r = tp.lemma_b1(w, ph, reading=case["reading"])
    # ptp's are differences of two refined extremes, each off by the evaluation tolerance
    tol = 2 * (_lemma_tol(w, ph, len(w)) + r.f.error + r.g.error)
    if case["part"] == "g_not_below_f":
        return float(r.ptp_f - r.ptp_g - tol)
    if case["part"] == "width_4_sum_w":
        return float(abs(r.ptp_g - 2 * r.bound) - tol)
    same = abs(r.ptp_f - r.ptp_g) <= tol
    return 1.0 if same and not _coincide(case) else -1.0


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
)
def lemma_b1_range__corrected(case) -> float:
    w, ph = np.asarray(case["weights"]), np.asarray(case["phases"])
    r = tp.lemma_b1(w, ph, reading=case["reading"])
    tol = 2 * (_lemma_tol(w, ph, len(w)) + r.f.error + r.g.error)
    return float(max(r.f.max - r.g.max, -r.bound - r.f.min, r.ptp_f - 2 * r.bound, r.ptp_g - 2 * r.bound) - tol)


# ============================================================================ App. B: Schur, contraction


@st.composite
def _hadamard_cases(draw):
    n = draw(st.integers(2, 10))
    return {
        "n": n,
        "w": draw(vectors(n, -5, 5)),
        "w_imag": draw(st.none() | vectors(n, -5, 5)),
        "margin": draw(st.floats(1e-3, 5.0)),
        "e_phases": draw(st.lists(st.floats(-math.pi, math.pi), min_size=n, max_size=n)),
        "e_kind": draw(st.sampled_from(["any", "rank_one"])),
    }


def _pd_toeplitz_column(case) -> np.ndarray:
    """First column of a Hermitian positive definite Toeplitz W: shift a_0 so min(symbol) = margin."""
    c = np.asarray(case["w"], dtype=np.complex128)
    if case["w_imag"] is not None:
        c = c + 1j * np.asarray(case["w_imag"])
    c[0] = 0.0
    ex = tp.symbol_extrema(c)
    c[0] = case["margin"] - ex.min + ex.error  # symbol >= margin > 0: every eigenvalue >= margin
    return c


def _unit_modulus_column(case) -> np.ndarray:
    """First column of a Hermitian Toeplitz E with |e_k| = 1 and e_0 = 1.

    e_0 = 1 is what survives of the paper's "E positive definite" (a positive diagonal; see the
    reconstruction note of gu2025.spectral_contraction) and RoPE's G_e has it. 'rank_one' is
    RoPE's single-band G_e, e_k = e^{ik theta}: the only positive semidefinite kind."""
    n = case["n"]
    ph = np.asarray(case["e_phases"])
    if case["e_kind"] == "rank_one":
        return np.exp(1j * ph[1 % n] * np.arange(n)) if n > 1 else np.ones(1, complex)
    e = np.exp(1j * ph)
    e[0] = 1.0
    return e


# Hermitian eigenvalues are perfectly conditioned: eigvalsh errs by <= gamma_4n ||A||_2 each (derivation there).
from proofs_check.tolerance import hermitian_eig_tol as _eig_tol  # noqa: E402


def _hadamard(case):
    W = tp.dense(_pd_toeplitz_column(case))
    E = tp.dense(_unit_modulus_column(case))
    H = cp.compose(W, E, "hadamard")
    return W, E, H, cp.spectral_summary(W), cp.spectral_summary(H)


def schur_modulus(case) -> float:
    """Reading 'unit_diagonal': rho(W o E) <= rho(W) for every Hermitian unit-modulus Toeplitz E with e_ii = 1."""
    W, E, H, sw, sh = _hadamard(case)
    return float(sh["spectral_radius"] - sw["spectral_radius"] - _eig_tol(case["n"], W, H))


# ---------------------------------------------------------------------------- the premise of Prop. B.3


@functools.lru_cache(maxsize=1)
def _unit_modulus_pd_impossible() -> bool:
    """sympy: a Hermitian matrix with unit-modulus entries has unit diagonal (a positive definite one has a real
    positive diagonal) and every 2x2 principal minor [[1, e^{i phi}], [e^{-i phi}, 1]] is singular, so for
    n >= 2 it is never positive definite."""
    import sympy as sp

    phi = sp.symbols("phi", real=True)
    e = sp.exp(sp.I * phi)
    return sp.simplify(sp.Matrix([[1, e], [sp.conjugate(e), 1]]).det()) == 0


def _pd_unit_modulus_witness(case) -> float:
    """> 0 when the case's Hermitian unit-modulus Toeplitz E (n >= 2) is positive definite."""
    E = tp.dense(_unit_modulus_column(case))
    return float(np.linalg.eigvalsh(E)[0] - _eig_tol(case["n"], E))


_PD_UNIT_MODULUS = Premise(
    statement="E is an n x n (n >= 2) positive definite Toeplitz matrix whose entries have modulus 1",
    argument="a positive definite Hermitian matrix has a real positive diagonal, so e_ii = 1; every 2x2 principal "
    "minor is then 1 - |e_ij|^2 = 0, so E is at best positive semidefinite (and then rank one, e_ij = "
    "e^{i(phi_i - phi_j)}: for a Toeplitz E, e_k = e^{ik theta}, RoPE's single-band G_e)",
    cases=_hadamard_cases,
    witness=_pd_unit_modulus_witness,
    proof=_unit_modulus_pd_impossible,
)


@st.composite
def _psd_hadamard_cases(draw):
    """The nearest satisfiable premise: E positive semidefinite with unit-modulus entries, i.e. rank one."""
    return {**draw(_hadamard_cases()), "e_kind": "rank_one"}


def _same_spectrum(case) -> float:
    """max |lambda_k(W o E) - lambda_k(W)| over the sorted spectra, minus the eigensolver's tolerance."""
    W, E, H, sw, sh = _hadamard(case)
    return float(np.max(np.abs(sh["eigenvalues"] - sw["eigenvalues"])) - _eig_tol(case["n"], W, H))


def schur_modulus_psd(case) -> float:
    """Reading 'psd': rho(W o E) <= rho(W) for rank-one unit-modulus E, checked with the equal spectra it implies."""
    W, E, H, sw, sh = _hadamard(case)
    return max(float(sh["spectral_radius"] - sw["spectral_radius"] - _eig_tol(case["n"], W, H)), _same_spectrum(case))


claim_with_readings(
    id="gu2025.schur_modulus",
    source="gu2025 App. B (proof of Prop. B.3)",
    statement=r"By Schur's inequality the eigenvalue moduli of $W\circ E$ are at most those of $W$ ($W$, $E$ positive "
    r"definite Toeplitz, $E$ with unit-modulus entries). No $E$ satisfies that premise for $n\ge2$; the nearest "
    r"satisfiable premises are checked as readings, in the weakest form of the conclusion, the spectral radius "
    r"$\rho(W\circ E)\le\rho(W)$.",
    kind="exact",
    paper_status="proposition",
    premise=_PD_UNIT_MODULUS,
    readings=[
        Reading("psd", r"$E$ positive semidefinite with unit-modulus entries (hence rank one, $e_k=e^{ik\theta}$): "
                r"$\rho(W\circ E)\le\rho(W)$; checked with what it implies, equal spectra ($W\circ E=DWD^*$, "
                r"$D$ unitary diagonal).", check=schur_modulus_psd, cases=_psd_hadamard_cases),
        Reading("unit_diagonal", r"'positive definite' weakened to what it implies, $e_{ii}=1$: $E$ Hermitian Toeplitz "
                r"with $|e_{ij}|=1$, $W$ Hermitian positive definite Toeplitz: $\rho(W\circ E)\le\rho(W)$.",
                check=schur_modulus, cases=_hadamard_cases),
    ],
)


@claim(
    id="gu2025.schur_modulus__corrected",
    paper_status="proposition",
    source="gu2025 App. B, corrected (Schur 1909; Wielandt)",
    statement=r"For Hermitian $W$ and Hermitian $E$ with $|e_{ij}|=1$: $\sum_i\lambda_i(W\circ E)^2=\sum_i\lambda_i(W)^2$ "
    r"(Schur's inequality $\sum|\lambda_i|^2\le\lVert\cdot\rVert_F^2$ is an equality for normal matrices and "
    r"$\lVert W\circ E\rVert_F=\lVert W\rVert_F$), and $\rho(W\circ E)\le\rho(|W|)$ (Wielandt), so "
    r"$\rho(W\circ E)\le\rho(W)$ when $W\ge0$ entrywise.",
    kind="exact",
    cases=_hadamard_cases,
    corrected_of="gu2025.schur_modulus",
)
def schur_modulus__corrected(case) -> float:
    W, E, H, sw, sh = _hadamard(case)
    n = case["n"]
    tol = _eig_tol(n, W, H)
    lw, lh = sw["eigenvalues"], sh["eigenvalues"]
    v1 = abs(float(np.sum(lh**2) - np.sum(lw**2))) - 2 * n * tol * float(np.max(np.abs(lw)) + np.max(np.abs(lh)))
    absW = np.abs(W)
    rho_abs = float(np.max(np.abs(np.linalg.eigvalsh(absW))))
    v2 = sh["spectral_radius"] - rho_abs - tol - _eig_tol(n, absW)
    v3 = sh["spectral_radius"] - sw["spectral_radius"] - tol if np.all(W.real >= 0) and np.all(W.imag == 0) else -1.0
    return float(max(v1, v2, v3))


def spectral_contraction(case) -> float:
    """Reading 'unit_diagonal': range(W o E) <= range(W) for Hermitian unit-modulus Toeplitz E with e_ii = 1."""
    W, E, H, sw, sh = _hadamard(case)
    return float(sh["range"] - sw["range"] - 2 * _eig_tol(case["n"], W, H))


def spectral_contraction_psd(case) -> float:
    """Reading 'psd': range(W o E) <= range(W) for rank-one unit-modulus E, with the equal spectra it implies."""
    W, E, H, sw, sh = _hadamard(case)
    return max(float(sh["range"] - sw["range"] - 2 * _eig_tol(case["n"], W, H)), _same_spectrum(case))


claim_with_readings(
    id="gu2025.spectral_contraction",
    source="gu2025 App. B, Prop. B.3",
    statement=r"For positive definite Toeplitz $W$ and $E$, $E$ with unit-modulus entries, the spectrum of $W\circ E$ "
    r"is more compact than that of $W$ (multiplicative coupling contracts the eigenvalue range relative to "
    r"additive). No $E$ satisfies that premise for $n\ge2$; the nearest satisfiable premises are checked as "
    r"readings, in the weaker form of the conclusion, the range: $\lambda_{max}(W\circ E)-\lambda_{min}(W\circ E)"
    r"\le\lambda_{max}(W)-\lambda_{min}(W)$ (containment is stronger).",
    kind="exact",
    paper_status="proposition",
    premise=_PD_UNIT_MODULUS,
    readings=[
        Reading("psd", r"$E$ positive semidefinite with unit-modulus entries (hence rank one): the range does not grow. "
                r"It does not shrink either: the spectra are equal, so the spectrum is never strictly more compact.",
                check=spectral_contraction_psd, cases=_psd_hadamard_cases),
        Reading("unit_diagonal", r"'positive definite' weakened to $e_{ii}=1$ ($E$ Hermitian Toeplitz, $|e_{ij}|=1$, so "
                r"that $W\circ E$ has a real spectrum): range$(W\circ E)\le$ range$(W)$.",
                check=spectral_contraction, cases=_hadamard_cases),
    ],
)


@st.composite
def _contraction_corrected_cases(draw):
    base = draw(_hadamard_cases())
    bands = draw(st.integers(1, 6))
    return {
        **base,
        "band_angles": draw(st.lists(st.floats(-math.pi, math.pi), min_size=bands, max_size=bands)),
        "band_weights": draw(st.lists(st.floats(0.0, 1.0), min_size=bands, max_size=bands)),
    }


@claim(
    id="gu2025.spectral_contraction__corrected",
    paper_status="proposition",
    source="gu2025 App. B, Prop. B.3, corrected (Schur product theorem)",
    statement=r"For Hermitian positive definite $W$ and Hermitian positive semidefinite Toeplitz $E$ with unit "
    r"diagonal — e.g. RoPE's band average $E=\sum_t\alpha_t[e^{i(i-j)\theta_t}]$, $\alpha$ on the simplex — the "
    r"spectrum of $W\circ E$ lies in $[\lambda_{min}(W),\lambda_{max}(W)]$; with unit-modulus entries $E$ is "
    r"rank one and the spectra coincide.",
    kind="exact",
    cases=_contraction_corrected_cases,
    corrected_of="gu2025.spectral_contraction",
)
def spectral_contraction__corrected(case) -> float:
    n = case["n"]
    W = tp.dense(_pd_toeplitz_column(case))
    a = np.asarray(case["band_weights"], dtype=float)
    e = cp.rope_band_average(np.arange(n), case["band_angles"], a if a.sum() > 0 else None)  # all-zero draw: uniform
    E = tp.dense(e)
    H = cp.compose(W, E, "hadamard")
    sw, sh = cp.spectral_summary(W), cp.spectral_summary(H)
    tol = _eig_tol(n, W, H) + tolerance(n_ops=len(a) + 2, scale=float(np.linalg.norm(W, 2)))
    return float(max(sh["max"] - sw["max"], sw["min"] - sh["min"]) - tol)


# ============================================================================ classical results


@st.composite
def _psd_pair(draw):
    n = draw(st.integers(1, 8))
    ra, rb = draw(st.integers(1, n)), draw(st.integers(1, n))
    return {
        "n": n,
        "complex": draw(st.booleans()),
        "GA": _matrix(draw, 2 * n, ra, -3, 3),
        "GB": _matrix(draw, 2 * n, rb, -3, 3),
        "ra": ra,
        "rb": rb,
    }


def _psd(flat, n, r, complex_) -> np.ndarray:
    G = _arr(flat, 2 * n, r)
    G = G[:n] + 1j * G[n:] if complex_ else G[:n]
    return G @ G.conj().T


@claim(
    id="gu2025.classical_schur_product",
    paper_status="theorem",
    source="Schur 1911; Horn & Johnson, Topics in Matrix Analysis, Thm 5.3.4 (used in gu2025 App. B)",
    statement=r"For Hermitian positive semidefinite $A,B$: $A\circ B\succeq0$ and "
    r"$\lambda_{min}(A)\min_ib_{ii}\le\lambda_k(A\circ B)\le\lambda_{max}(A)\max_ib_{ii}$. Checked on random "
    r"positive semidefinite pairs $GG^*$, real or complex, of every rank.",
    kind="exact",
    cases=_psd_pair,
)
def classical_schur_product(case) -> float:
    n = case["n"]
    A = _psd(case["GA"], n, case["ra"], case["complex"])
    B = _psd(case["GB"], n, case["rb"], case["complex"])
    H = cp.compose(A, B, "hadamard")
    la, lh = np.linalg.eigvalsh(A), np.linalg.eigvalsh(H)
    b = np.real(np.diag(B))
    tol = _eig_tol(n, A, H) * (1 + float(np.max(b))) + tolerance(n_ops=n, scale=float(np.linalg.norm(H, 2)))
    return float(max(la[0] * b.min() - lh[0], lh[-1] - la[-1] * b.max(), -lh[0]) - tol)


@st.composite
def _weyl_cases(draw):
    n = draw(st.integers(1, 10))
    return {
        "n": n,
        "a": draw(vectors(n)),
        "a_imag": draw(st.none() | vectors(n)),
        "b": draw(vectors(n)),
        "b_imag": draw(st.none() | vectors(n)),
        "b_source": draw(st.sampled_from(["free", "alibi"])),
        "slope": draw(st.floats(0.0, 5.0)),
    }


@claim(
    id="gu2025.classical_weyl_additive",
    paper_status="theorem",
    source="Weyl 1912; Horn & Johnson, Matrix Analysis, Thm 4.3.1 (the additive case of gu2025 §3.3)",
    statement=r"For Hermitian $W, B$: $\lambda_k(W)+\lambda_{min}(B)\le\lambda_k(W+B)\le\lambda_k(W)+\lambda_{max}(B)$ "
    r"for every $k$, hence $\mathrm{range}(W+B)\le\mathrm{range}(W)+\mathrm{range}(B)$. Checked on Hermitian "
    r"Toeplitz $W$ and $B$ (free coefficients, or ALiBi).",
    kind="exact",
    cases=_weyl_cases,
)
def classical_weyl_additive(case) -> float:
    n = case["n"]

    def col(re, im):
        c = np.asarray(re, dtype=np.complex128) + (0 if im is None else 1j * np.asarray(im))
        c[0] = c[0].real
        return c

    W = tp.dense(col(case["a"], case["a_imag"]))
    B = enc.alibi(n, slope=case["slope"]) if case["b_source"] == "alibi" else tp.dense(col(case["b"], case["b_imag"]))
    A = cp.compose(W, B, "additive")
    lw, lb, la = (cp.spectral_summary(M)["eigenvalues"] for M in (W, B, A))
    tol = _eig_tol(n, W, B, A)
    v1 = float(np.max(lw + lb[0] - la))
    v2 = float(np.max(la - lw - lb[-1]))
    v3 = (la[-1] - la[0]) - (lw[-1] - lw[0]) - (lb[-1] - lb[0])
    return float(max(v1, v2, v3 - tol) - tol)


@st.composite
def _symbol_range_cases(draw):
    K = draw(st.integers(0, 12))
    return {
        "coeffs": draw(vectors(K + 1)),
        "coeffs_imag": draw(vectors(K + 1)),
        "n": draw(st.integers(1, 40)),
    }


@claim(
    id="gu2025.classical_toeplitz_eigs_in_symbol_range",
    paper_status="theorem",
    source="Grenander & Szegő 1958 §5.2; Böttcher & Silbermann (used in gu2025 §3.3)",
    statement=r"Every eigenvalue of a Hermitian $T_N(a)$ lies in $[\min a,\max a]$ for every $N$, $a$ the (fixed) real "
    r"symbol $\sum_{|k|\le K}a_ke^{ik\theta}$ and $T_N$ its $N\times N$ section (which uses $a_k$, $|k|<N$, for "
    r"$N$ below or above $K+1$).",
    kind="exact",
    cases=_symbol_range_cases,
)
def classical_toeplitz_eigs_in_symbol_range(case) -> float:
    a = np.asarray(case["coeffs"], dtype=np.complex128) + 1j * np.asarray(case["coeffs_imag"])
    a[0] = a[0].real
    n = case["n"]
    col = np.zeros(n, dtype=np.complex128)
    m = min(n, a.shape[0])
    col[:m] = a[:m]
    res = tp.extreme_eigenvalues(col)
    ex = tp.symbol_extrema(a)
    scale = 2 * float(np.sum(np.abs(a)))
    tol = tolerance(n_ops=4 * n, scale=scale) + ex.error + max(res.min.error_bound, res.max.error_bound)
    return float(max(ex.min - res[0], res[1] - ex.max) - tol)


# ============================================================================ memory of a --case
# Bytes a checker needs on a case, so that `petheory check --case` refuses a size that cannot fit before
# the checker allocates (proofs_check.runner.replay reads ``checker.memory``; library calls guard themselves).
classical_toeplitz_eigs_in_symbol_range.memory = lambda case: 2000 * case["n"]  # column + FFT Davidson workspace
spectral_contraction__corrected.memory = lambda case: 8 * 16 * case["n"] ** 2  # W, E, W∘E (complex) and spectra
