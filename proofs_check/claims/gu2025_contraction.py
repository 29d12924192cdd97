r"""Claims of gu2025 (Gu et al., arXiv 2505.13027) App. B about multiplicative (Hadamard) against additive
coupling of Toeplitz factors: Schur's inequality and the spectral contraction of Prop. B.3, whose premise no
matrix satisfies (so the nearest satisfiable premises are readings), and the classical results the spectral
argument rests on (Schur product theorem, Weyl's inequalities, eigenvalues of ``T_N(a)`` inside the symbol's
range), which are claims of their own.

Conventions as in :mod:`proofs_check.claims.gu2025`: statements checked as the paper states them, corrected
variants as ``<id>__corrected``, and every checker calls the library (:mod:`petheory.toeplitz`,
:mod:`petheory.coupling`) through the module attribute, so tests can plant a wrong one.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from petheory import coupling as cp
from petheory import toeplitz as tp
from petheory.encodings import bias as enc_bias
from petheory.toeplitz import eigen as tp_eigen
from proofs_check.claims._strategies import reals, vectors
from proofs_check import plants as pl
from proofs_check.engine import Premise, Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import tolerance


# ============================================================================ shared pieces


def _matrix(draw, rows: int, cols: int, lo: float = -10.0, hi: float = 10.0) -> list:
    return draw(st.lists(reals(lo, hi), min_size=rows * cols, max_size=rows * cols))


def _arr(flat, rows: int, cols: int) -> np.ndarray:
    return np.asarray(flat, dtype=np.float64).reshape(rows, cols)


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
    """Reading 'unit_diagonal': :math:`\\rho(W \\circ E) \\le \\rho(W)` for every Hermitian unit-modulus Toeplitz E with :math:`e_{ii} = 1`."""
    W, E, H, sw, sh = _hadamard(case)
    quantities(rho_W_hadamard_E=sh["spectral_radius"], rho_W=sw["spectral_radius"], tolerance=_eig_tol(case["n"], W, H))
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


@st.composite
def _band_cases(draw):
    """E = RoPE's band average (positive semidefinite Toeplitz, unit diagonal), W Hermitian positive definite Toeplitz."""
    base = draw(_hadamard_cases())
    bands = draw(st.integers(1, 6))
    return {**base, "band_angles": draw(st.lists(st.floats(-math.pi, math.pi), min_size=bands, max_size=bands)),
            "band_weights": draw(st.lists(st.floats(0.0, 1.0), min_size=bands, max_size=bands))}


def _band_hadamard(case):
    n = case["n"]
    W = tp.dense(_pd_toeplitz_column(case))
    a = np.asarray(case["band_weights"], dtype=float)
    E = tp.dense(cp.rope_band_average(np.arange(n), case["band_angles"], a if a.sum() > 0 else None))
    H = cp.compose(W, E, "hadamard")
    tol = _eig_tol(n, W, H) + tolerance(n_ops=len(a) + 2, scale=float(np.linalg.norm(W, 2)))
    return W, H, cp.spectral_summary(W), cp.spectral_summary(H), tol


def schur_modulus_band(case) -> float:
    """Reading 'band_average': rho(W o E) <= rho(W) for E RoPE's band average (Schur's product theorem)."""
    W, H, sw, sh, tol = _band_hadamard(case)
    return float(sh["spectral_radius"] - sw["spectral_radius"] - tol)


_BAND = (r"$E$ positive semidefinite Toeplitz with unit diagonal, RoPE's band average "
         r"$E=\sum_t\alpha_t[e^{i(i-j)\theta_t}]$ ($\alpha$ on the simplex): by Schur's product theorem the spectrum of "
         r"$W\circ E$ lies in $[\lambda_{min}(W),\lambda_{max}(W)]$. Non-strict: with one band (or equal angles) the "
         r"spectra are equal, so this reading holding is not a contraction")

claim(
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
        Reading("psd_equal_spectra", r"$E$ positive semidefinite with unit-modulus entries (hence rank one, $e_k=e^{ik\theta}$): "
                r"$\rho(W\circ E)\le\rho(W)$; checked with what it implies, equal spectra ($W\circ E=DWD^*$, "
                r"$D$ unitary diagonal).", check=schur_modulus_psd, cases=_psd_hadamard_cases,
                plants=(
                    pl.Plant("Hadamard product drops E's phases",
                             pl.compose(lambda real, A, B, mode: real(A, B.real, mode) if mode == "hadamard" else real(A, B, mode))),
                )),
        Reading("unit_diagonal", r"'positive definite' weakened to what it implies, $e_{ii}=1$: $E$ Hermitian Toeplitz "
                r"with $|e_{ij}|=1$, $W$ Hermitian positive definite Toeplitz: $\rho(W\circ E)\le\rho(W)$.",
                check=schur_modulus, cases=_hadamard_cases),
        Reading("band_average", _BAND + r": $\rho(W\circ E)\le\rho(W)$.", check=schur_modulus_band, cases=_band_cases,
                plants=(
                    pl.Plant("Hadamard product scaled by 1.1",
                             pl.compose(lambda real, A, B, mode: 1.1 * real(A, B, mode))),
                    pl.Plant("the band average 10% heavier",
                             pl.scaled("petheory.coupling.rope_band_average", 1.1)),
                )),
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
    plants=(
        pl.Plant("Hadamard product scaled by 1.1",
                 pl.compose(lambda real, A, B, mode: 1.1 * real(A, B, mode))),
    ),
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


def _strictly_more_compact(range_h: float, range_w: float, tol: float) -> float:
    """> 0 unless range(W o E) is below range(W) by more than the eigensolvers' error (``tol``): 'more compact' is
    strict, so equal ranges (within rounding) are a counterexample. A scalar W (range within ``tol`` of 0) is no
    case: nothing is more compact than one point, and such a counterexample would say nothing about coupling."""
    quantities(range_W_hadamard_E=range_h, range_W=range_w, tolerance=tol)
    if range_w <= tol:
        return -1.0
    return float(range_h - range_w + tol)


def spectral_contraction(case) -> float:
    """Reading 'unit_diagonal': :math:`\\mathrm{range}(W \\circ E) < \\mathrm{range}(W)` for Hermitian unit-modulus Toeplitz E with :math:`e_{ii} = 1`."""
    W, E, H, sw, sh = _hadamard(case)
    if np.all(E == 1):  # theta = 0: no rotation, W o E = W by construction; no case
        return -1.0
    return _strictly_more_compact(sh["range"], sw["range"], 2 * _eig_tol(case["n"], W, H))


def spectral_contraction_rope(case) -> float:
    """Reading 'rope_single_band': :math:`\\mathrm{range}(W \\circ G_e) < \\mathrm{range}(W)` for RoPE's own :math:`G_e` (:math:`e_k = e^{ik\\theta}`)."""
    W, E, H, sw, sh = _hadamard(case)
    if np.all(E == 1):  # theta = 0: no rotation, W o E = W by construction; no case
        return -1.0
    return _strictly_more_compact(sh["range"], sw["range"], 2 * _eig_tol(case["n"], W, H))


def spectral_contraction_band(case) -> float:
    """Reading 'band_average': range(W o E) < range(W) for E RoPE's band average."""
    if np.all(np.mod(case["band_angles"], 2 * math.pi) == 0):  # no rotation in any band: W o E = W; no case
        return -1.0
    W, H, sw, sh, tol = _band_hadamard(case)
    return _strictly_more_compact(sh["range"], sw["range"], 2 * tol)


claim(
    id="gu2025.spectral_contraction",
    source="gu2025 App. B, Prop. B.3",
    statement=r"'Let $W$, $E$ be $N\times N$ positive definite Toeplitz matrices. Then the eigenvalue spectrum of the "
    r"Hadamard product $W\circ E$ is more compact than' that of $W$, where 'each element of $E$ is a complex number "
    r"with a membrane length of 1' (multiplicative coupling, as in RoPE, against additive). 'More compact' is "
    r"strict: $\lambda_{max}(W\circ E)-\lambda_{min}(W\circ E)<\lambda_{max}(W)-\lambda_{min}(W)$.",
    kind="exact",
    paper_status="proposition",
    premise=_PD_UNIT_MODULUS,
    reconstruction="No E with unit-modulus entries is positive definite for n >= 2 (the premise, shared with "
    "gu2025.schur_modulus and proved there), so the statement is vacuous by the catalogue's rule (docs/verdicts.md): "
    "its premise is declared and checked, and the verdict lists the readings. The proposition is about RoPE's "
    "multiplicative coupling, and RoPE's own G_e, (G_e)_{ij} = e^{i(i-j) theta}, is the nearest object that satisfies "
    "it (positive semidefinite, rank one, unit-modulus entries): the conclusion is checked on it and on the two other "
    "objects a reader could put in E's place (a Hermitian unit-modulus Toeplitz E with unit diagonal; RoPE's band "
    "average over several "
    "frequencies). The paper's own Lemma B.1 allows equal ranges ('coincide only under complete phase alignment'), "
    "which is exactly RoPE's single band: W o G_e = D W D^* with D unitary diagonal, so the spectra are equal and "
    "never more compact. The weaker non-strict statement (containment) is gu2025.spectral_contraction__corrected. "
    "Tolerance: each sorted eigenvalue errs by at most the Hermitian eigensolver's bound (proofs_check.tolerance."
    "hermitian_eig_tol), a range by twice that.",
    readings=[
        Reading("rope_single_band", r"$E=G_e$, RoPE's single band $e_k=e^{ik\theta}$ (positive semidefinite, rank one, "
                r"unit-modulus entries: the nearest satisfiable premise): range$(W\circ E)<$ range$(W)$.",
                check=spectral_contraction_rope, cases=_psd_hadamard_cases),
        Reading("unit_diagonal", r"'positive definite' weakened to $e_{ii}=1$ ($E$ Hermitian Toeplitz, $|e_{ij}|=1$, so "
                r"that $W\circ E$ has a real spectrum): range$(W\circ E)<$ range$(W)$.",
                check=spectral_contraction, cases=_hadamard_cases),
        Reading("band_average", r"$E$ RoPE's band average $E=\sum_t\alpha_t[e^{i(i-j)\theta_t}]$ ($\alpha$ on the "
                r"simplex; positive semidefinite, unit diagonal, entries of modulus <= 1): range$(W\circ E)<$ "
                r"range$(W)$.", check=spectral_contraction_band, cases=_band_cases),
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
    plants=(
        pl.Plant("Hadamard product scaled by 1.05",
                 pl.compose(lambda real, A, B, mode: 1.05 * real(A, B, mode))),
        pl.Plant("dense Toeplitz matrices with their diagonal 20% heavy",
                 pl.attr("petheory.toeplitz.dense", lambda real: (lambda c, r=None: real(c, r) + 0.2 * np.real(np.asarray(c)[0]) * np.eye(len(c))))),
    ),
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
    plants=(
        pl.Plant("Hadamard product shifted by -0.1 I",
                 pl.compose(lambda real, A, B, mode: real(A, B, mode) - 0.1 * np.eye(A.shape[0]))),
    ),
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
    plants=(
        pl.Plant("sum plus a growing diagonal",
                 pl.compose(lambda real, A, B, mode: real(A, B, mode) + 0.5 * np.diag(np.arange(A.shape[0])))),
        pl.Plant("the spectral summary of M computed on M @ M",
                 pl.attr("petheory.coupling.spectral_summary", lambda real: (lambda M: real(np.asarray(M) @ np.asarray(M))))),
    ),
)
def classical_weyl_additive(case) -> float:
    n = case["n"]

    def col(re, im):
        c = np.asarray(re, dtype=np.complex128) + (0 if im is None else 1j * np.asarray(im))
        c[0] = c[0].real
        return c

    W = tp.dense(col(case["a"], case["a_imag"]))
    B = enc_bias.alibi(n, slope=case["slope"]) if case["b_source"] == "alibi" else tp.dense(col(case["b"], case["b_imag"]))
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
    plants=(
        pl.Plant("largest eigenvalue reported 1 too high", pl.eigs_escape),
        pl.Plant("the symbol's maximum reported 1% low",
                 pl.attr("petheory.toeplitz.symbol_extrema", lambda real: (lambda c, r=None, **k: pl.shrunk_extrema(real(c, r, **k))))),
    ),
)
def classical_toeplitz_eigs_in_symbol_range(case) -> float:
    a = np.asarray(case["coeffs"], dtype=np.complex128) + 1j * np.asarray(case["coeffs_imag"])
    a[0] = a[0].real
    n = case["n"]
    col = np.zeros(n, dtype=np.complex128)
    m = min(n, a.shape[0])
    col[:m] = a[:m]
    res = tp_eigen.extreme_eigenvalues(col)
    ex = tp.symbol_extrema(a)
    scale = 2 * float(np.sum(np.abs(a)))
    tol = tolerance(n_ops=4 * n, scale=scale) + ex.error + max(res.min.error_bound, res.max.error_bound)
    return float(max(ex.min - res[0], res[1] - ex.max) - tol)


# ============================================================================ memory of a --case
# Bytes a checker needs on a case, so that `petheory check --case` refuses a size that cannot fit before
# the checker allocates (proofs_check.runner.replay reads ``checker.memory``; library calls guard themselves).
classical_toeplitz_eigs_in_symbol_range.memory = lambda case: 2000 * case["n"]  # column + FFT Davidson workspace
spectral_contraction__corrected.memory = lambda case: 8 * 16 * case["n"] ** 2  # W, E, W∘E (complex) and spectra
