r"""Claims of gu2025 §3.1-3.2 and Prop. B.1 about content-position coupling (Eq. 8, Eq. 9).

Cases carry sizes, encoding names and seeds; the arrays are drawn from the seed inside the
checker, so every case is a small JSON dict that replays exactly and shrinks towards small sizes
and seed 0. The checkers call :mod:`petheory.coupling` through the module attribute, so tests can
plant a wrong implementation with monkeypatch.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory import coupling
from petheory import encodings as enc
from petheory import toeplitz as tp
from petheory.encodings import absolute as enc_absolute
from petheory.encodings import rotary as enc_rotary
from petheory import softmax
from proofs_check.claims._strategies import even_dims
from proofs_check import plants as pl
from proofs_check.engine import Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import gamma, tolerance, unit_roundoff

ABSOLUTE = ("sinusoidal", "learned", "random", "wavelet", "legendre", "nope")  # enc.available("absolute")
BIASES = (None, "alibi", "t5", "relative")


def _absolute(pe: str, n: int, d: int) -> np.ndarray:
    """Registered absolute PE ``pe`` at n positions; Legendre maps positions onto [-1, 1] and needs n_max >= 2."""
    return enc.get(pe)(n, d, n_max=max(n, 2)) if pe == "legendre" else enc.get(pe)(n, d)


def _toeplitz_violation(A: np.ndarray, entry_tol: np.ndarray) -> float:
    """``||A - T(A)||_F`` minus what rounding alone can produce.

    If ``A = A_exact + E`` with ``A_exact`` Toeplitz and ``|E| <= entry_tol`` entrywise, then
    ``||A - T(A)||_F = ||(I - T) E||_F <= ||E||_F`` (``T`` is an orthogonal projection), so a defect
    above ``||entry_tol||_F`` (plus ``gamma_n`` for the diagonal averages) proves A is not Toeplitz.
    """
    defect = tp.toeplitz_defect(A, relative=False)
    n = A.shape[0]
    quantities(toeplitz_defect=defect, rounding_allowance=float(np.linalg.norm(entry_tol)) + gamma(n + 2) * float(np.linalg.norm(A)), matrix=A)
    return defect - float(np.linalg.norm(entry_tol)) - gamma(n + 2) * float(np.linalg.norm(A))


# ---------------------------------------------------------------------------- Eq. 8


@st.composite
def _decomposition_cases(draw):
    return {
        "n": draw(st.integers(1, 12)),
        "d": draw(even_dims(2, 16)),
        "d_head": draw(st.integers(1, 8)),
        "pe": draw(st.sampled_from(ABSOLUTE)),
        "bias": draw(st.sampled_from(BIASES)),
        "proj_bias": draw(st.booleans()),
        "scale": draw(st.sampled_from([1.0, 0.125]) | st.floats(1e-3, 1e3)),
        "content_scale": draw(st.sampled_from([1.0, 1e-3, 1e3])),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _content(case, n, d, rng):
    return case.get("content_scale", 1.0) * rng.normal(size=(n, d))


@claim(
    id="gu2025.logit_decomposition",
    paper_status=None,  # an equation: the source names no status
    source="gu2025 §3.2, Eq. 8 (the source names no status: an equation)",
    statement=r"$L = G_{q^c,k^c}+G_{q^c,k^p}+G_{q^p,k^c}+G_{q^p,k^p}+\mathbf{B}$ for $x_i = c_i + p_i$, "
    r"$q = xW_Q$, $k = xW_K$ (any absolute PE, any projections, any explicit bias $B$). The identity is "
    r"bilinearity; what the search checks is petheory.coupling.logit_terms: each term against its own definition "
    r"(so swapped or mixed terms with the right total are caught) and their sum against the logits an attention "
    r"layer computes.",
    kind="exact",
    cases=_decomposition_cases,
    reconstruction="Projection biases b_Q, b_K (as in BERT) are position-independent, so they go with the content "
    "component (Assumption 3.1); the logit scale multiplies the Gram terms, B is added unscaled.",
    plants=(
        pl.Plant("the two cross terms swapped (same total, wrong terms)",
                 pl.attr("petheory.coupling.logit_terms",
                       lambda real: (lambda *a, **k: __import__("dataclasses").replace(real(*a, **k), cp=real(*a, **k).pc,
                                                                                      pc=real(*a, **k).cp)))),
        pl.Plant("the Eq. 8 total misses the bias term",
                 pl.attr("petheory.coupling.LogitTerms.total", lambda real: property(lambda self: real.fget(self) - self.bias))),
        pl.Plant("(none: random projections)", lambda mp: None, reads=("petheory.coupling.inputs:random_projections",),
                 equivalent="a random draw of W_Q, W_K that both sides of the identity share: any draw (any plant of it) "
                 "keeps L = sum of the terms; the draw's own contract (shapes, seed) is tests/theory's"),
        pl.Plant("(none: NoPE's table)", lambda mp: None, reads=("petheory.encodings.absolute:nope",),
                 equivalent="Eq. 8's decomposition is an identity in the table P (every table satisfies it), and so is "
                 "rope_logit_form__corrected's: no NoPE table, zero or not, can flip them; NoPE's table is pinned by "
                 "tests/theory"),
    ),
)
def logit_decomposition(case) -> float:
    n, d, dh = case["n"], case["d"], case["d_head"]
    rng = np.random.default_rng(case["seed"])
    C = _content(case, n, d, rng)
    P = _absolute(case["pe"], n, d)
    W_Q, W_K = coupling.random_projections(d, dh, seed=rng)
    bQ, bK = (rng.normal(size=dh), rng.normal(size=dh)) if case["proj_bias"] else (np.zeros(dh), np.zeros(dh))
    B = np.zeros((n, n)) if case["bias"] is None else np.asarray(enc.get(case["bias"])(n), dtype=float)
    s = case["scale"]
    terms = coupling.logit_terms(C, P, W_Q, W_K, B, b_Q=bQ, b_K=bK, scale=s)
    X = C + P
    direct = s * ((X @ W_Q + bQ) @ (X @ W_K + bK).T) + B  # the logits as an attention layer computes them
    # Each Gram term against its own definition (a sum of right total with two terms swapped or mixed is
    # still wrong): entry (i, j) of a term is a d-term then a d_head-term inner product.
    qc, kc, qp, kp = C @ W_Q + bQ, C @ W_K + bK, P @ W_Q, P @ W_K
    aqc, akc = np.abs(C) @ np.abs(W_Q) + np.abs(bQ), np.abs(C) @ np.abs(W_K) + np.abs(bK)
    aqp, akp = np.abs(P) @ np.abs(W_Q), np.abs(P) @ np.abs(W_K)
    term_tol = 2 * tolerance(n_ops=d + dh + 4, scale=1.0) * s
    per_term = max(
        float((np.abs(got - s * (a @ b.T)) - term_tol * (aa @ ab.T)).max())
        for got, a, b, aa, ab in ((terms.cc, qc, kc, aqc, akc), (terms.cp, qc, kp, aqc, akp),
                                  (terms.pc, qp, kc, aqp, akc), (terms.pp, qp, kp, aqp, akp))
    )
    per_term = max(per_term, float(np.abs(terms.bias - B).max()) if n else -1.0)
    # Error model (Higham §3.1): both sides are d-term then d_head-term inner products (the sum C+P and
    # the bias add one rounding each) and the split side sums five terms, so each side is within
    # gamma_{d+d_head+8} S of the exact value, S = s (|C|+|P|+|b_Q|)|W_Q| ((|C|+|P|+|b_K|)|W_K|)^T + |B|.
    A = np.abs(C) + np.abs(P)
    S = s * ((A @ np.abs(W_Q) + np.abs(bQ)) @ (A @ np.abs(W_K) + np.abs(bK)).T) + np.abs(B)
    tol = 2 * tolerance(n_ops=d + dh + 8, scale=1.0) * S
    return max(float((np.abs(terms.total - direct) - tol).max()), per_term)


# ---------------------------------------------------------------------------- Assumption 3.2 / Remark 3.2


@st.composite
def _gpp_cases(draw):
    return {
        "n": draw(st.integers(1, 12)),
        "d": draw(even_dims(2, 16)),
        "d_head": draw(st.integers(1, 8)),
        "pe": draw(st.sampled_from(ABSOLUTE)),
        "projections": draw(st.sampled_from(["identity", "shared", "independent"])),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _projections(kind: str, d: int, dh: int, rng) -> tuple[np.ndarray, np.ndarray]:
    if kind == "identity":
        return np.eye(d), np.eye(d)
    return coupling.random_projections(d, dh, seed=rng, shared=kind == "shared")


def _gpp_violation(P, W_Q, W_K, extra_ops: int = 0) -> float:
    n, d = P.shape
    dh = W_Q.shape[1]
    pp = coupling.logit_terms(np.zeros_like(P), P, W_Q, W_K).pp
    # Entry (i, j) is a d-term then a d_head-term inner product: error <= gamma_{d+d_head} S_ij with
    # S = |P||W_Q| (|P||W_K|)^T; extra_ops adds the rounding of the PE's own entries (sin of p*omega).
    S = (np.abs(P) @ np.abs(W_Q)) @ (np.abs(P) @ np.abs(W_K)).T
    return _toeplitz_violation(pp, tolerance(n_ops=d + dh + 2 + extra_ops, scale=1.0) * S)


def gpp_toeplitz(case) -> float:
    n, d, dh = case["n"], case["d"], case["d_head"]
    rng = np.random.default_rng(case["seed"])
    P = _absolute(case["pe"], n, d)
    W_Q, W_K = _projections(case["projections"], d, dh, rng)
    return _gpp_violation(P, W_Q, W_K, extra_ops=2 * n)


#: Absolute PEs other than the sine-cosine ones (which are Remark 3.2's: gu2025.sinusoidal_scores_toeplitz).
OTHER_ABSOLUTE = ("learned", "random", "wavelet", "legendre")


@st.composite
def _other_absolute_cases(draw):
    return {"n": draw(st.integers(1, 12)), "d": draw(even_dims(2, 16)), "pe": draw(st.sampled_from(OTHER_ABSOLUTE))}


def gpp_other_absolute(case) -> float:
    """Object class 'other_absolute': the position-only scores :math:`P P^\\top` of a learned, random, wavelet or Legendre PE."""
    d = case["d"]
    return _gpp_violation(_absolute(case["pe"], case["n"], d), np.eye(d), np.eye(d), extra_ops=2 * case["n"])


@st.composite
def _bias_cases(draw):
    return {"n": draw(st.integers(1, 16)), "bias": draw(st.sampled_from(("alibi", "t5", "relative")))}


def gpp_relative_bias(case) -> float:
    """Object class 'relative_bias': the explicit bias B of ALiBi, T5 or a relative PE (Eq. 8's B term)."""
    B = np.asarray(enc.get(case["bias"])(case["n"]), dtype=np.float64)
    # entries are computed once from |i-j| or i-j (one rounded product each): equal offsets give equal numbers
    return _toeplitz_violation(B, tolerance(n_ops=2, scale=1.0) * np.abs(B))


@st.composite
def _sinusoid_pp_cases(draw):
    return {"n": draw(st.integers(1, 12)), "d": draw(even_dims(2, 16)),
            "base": draw(st.sampled_from([10000.0, 100.0]) | st.floats(1.5, 1e6)),
            "layout": draw(st.sampled_from(["interleaved", "concatenated"])), "start": draw(st.integers(0, 1000))}


def gpp_sinusoidal(case) -> float:
    """Object class 'sinusoidal': the position-only scores :math:`P P^\\top` of a sine-cosine PE (no projections)."""
    P = enc_absolute.sinusoidal(case["n"], case["d"], base=case["base"], layout=case["layout"], start=case["start"])
    d = case["d"]
    return _gpp_violation(P, np.eye(d), np.eye(d), extra_ops=2 * (case["start"] + case["n"]))


claim(
    id="gu2025.gpp_toeplitz",
    source="gu2025 §3.2, Assumption 3.2; Remark 3.2 (relative PE)",
    statement=r"Assumption 3.2: the attention score matrix induced solely by the position-dependent components is "
    r"Toeplitz, $[a_{i-j}]$ ($G_{q^p,k^p}$ of Eq. 8, or the bias $B$). An assumption, not a result: checked is "
    r"which objects satisfy it, one reading per class of position signal. With query/key projections the "
    r"sine-cosine case is Remark 3.2's claim (gu2025.sinusoidal_scores_toeplitz), not counted here again.",
    kind="exact",
    paper_status="assumption",
    readings=[
        Reading("relative_bias", r"relative biases (ALiBi $-m\lvert i-j\rvert$, T5 buckets, per-offset scalars): $B$ is "
                r"Toeplitz.", check=gpp_relative_bias, cases=_bias_cases,
                plants=(
                    pl.Plant("relative biases that depend on the key's absolute position",
                             pl.attr("petheory.encodings.get",
                                   lambda real: (lambda name: (lambda n, **k: real(name)(n, **k) + np.arange(n)[None, :] * 0.1)
                                                 if name in ("alibi", "t5", "relative") else real(name)))),
                    pl.Plant("relative biases that grow with the key's position",
                             pl.registry("relative", lambda fn: (lambda n, **k: fn(n, **k) + 0.1 * np.arange(n)[None, :]))),
                    pl.Plant("T5 biases that grow with the key's position",
                             pl.registry("t5", lambda fn: (lambda n, **k: fn(n, **k) + 0.1 * np.arange(n)[None, :]))),
                )),
        Reading("sinusoidal", r"sine-cosine absolute PEs (any base, layout, start), position-only scores $PP^\top$: "
                r"Toeplitz.", check=gpp_sinusoidal, cases=_sinusoid_pp_cases,
                plants=(
                    pl.Plant("sinusoidal PE amplitude grows with position",
                             pl.attr("petheory.encodings.absolute.sinusoidal",
                                   lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
                    pl.Plant("(none)", lambda mp: None, reads=("petheory.encodings.absolute:random_fixed",),
                             equivalent="read only by gpp_toeplitz's other_absolute reading, which is refuted (the tracer credits a "
                             "claim's reads to each of its holding readings); no holding reading reads the random table"),
                )),
        Reading("other_absolute", r"learned, random, wavelet and Legendre absolute PEs, position-only scores $PP^\top$: "
                r"Toeplitz.", check=gpp_other_absolute, cases=_other_absolute_cases),
    ],
)


def _pair_columns(d: int, layout: str) -> tuple[np.ndarray, np.ndarray]:
    """Columns of (sin, cos) of each frequency in ``enc.sinusoidal``'s layout."""
    if layout == "interleaved":
        return np.arange(0, d, 2), np.arange(1, d, 2)
    return np.arange(d // 2), np.arange(d // 2, d)


@st.composite
def _commuting_cases(draw):
    d = draw(even_dims(2, 16))
    return {
        "n": draw(st.integers(1, 12)),
        "d": d,
        "base": draw(st.sampled_from([10000.0, 100.0]) | st.floats(1.5, 1e6)),
        "layout": draw(st.sampled_from(["interleaved", "concatenated"])),
        "a": draw(st.lists(st.floats(-3, 3), min_size=d // 2, max_size=d // 2)),
        "b": draw(st.lists(st.floats(-3, 3), min_size=d // 2, max_size=d // 2)),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


@claim(
    id="gu2025.gpp_toeplitz__corrected",
    paper_status="proposition",
    source="gu2025 §3.2, Assumption 3.2 (corrected)",
    statement=r"For the sinusoidal PE (any base, layout) $G_{q^p,k^p}$ is Toeplitz whenever $W_QW_K^\top$ is "
    r"block-diagonal over the sine-cosine pairs with rotation-commuting blocks $a_tI + b_tJ$ "
    r"(e.g. $W_Q = W_K$ orthogonal, or $W_Q=W_K=I$). Learned, random, wavelet and Legendre PEs and "
    r"generic projections give no Toeplitz structure.",
    kind="exact",
    cases=_commuting_cases,
    corrected_of="gu2025.gpp_toeplitz",
    plants=(
        pl.Plant("sinusoidal PE amplitude grows with position",
                 pl.attr("petheory.encodings.absolute.sinusoidal",
                       lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
        pl.Plant("the Toeplitz defect reported 1 too large",
                 pl.attr("petheory.toeplitz.toeplitz_defect", lambda real: (lambda A, **k: real(A, **k) + 1.0))),
    ),
)
def gpp_toeplitz__corrected(case) -> float:
    n, d = case["n"], case["d"]
    P = enc_absolute.sinusoidal(n, d, base=case["base"], layout=case["layout"])
    s_cols, c_cols = _pair_columns(d, case["layout"])
    M = np.zeros((d, d))
    for t, (a, b) in enumerate(zip(case["a"], case["b"])):
        i, j = s_cols[t], c_cols[t]
        M[i, i] = M[j, j] = a  # a I + b J on the (sin, cos) pair of frequency t: commutes with its rotations
        M[i, j], M[j, i] = b, -b
    U, _ = np.linalg.qr(np.random.default_rng(case["seed"]).normal(size=(d, d)))
    W_Q, W_K = M @ U, U  # W_Q W_K^T = M U U^T = M (U orthogonal to rounding)
    # The angles p*omega (p < n) are rounded with absolute error <= u p, moving each entry by about
    # 2 u n |a|; the orthogonal factor U adds a d-term product (inside gamma_{2d + 2n + 2}).
    return _gpp_violation(P, W_Q, W_K, extra_ops=d + 2 * n)


@st.composite
def _sinusoid_cases(draw):
    return {
        "n": draw(st.integers(1, 12)),
        "d": draw(even_dims(2, 16)),
        "d_head": draw(st.integers(1, 8)),
        "base": draw(st.sampled_from([10000.0, 100.0]) | st.floats(1.5, 1e6)),
        "layout": draw(st.sampled_from(["interleaved", "concatenated"])),
        "start": draw(st.integers(0, 1000)),
        "projections": draw(st.sampled_from(["identity", "shared", "independent"])),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _sinusoid(case) -> np.ndarray:
    return enc_absolute.sinusoidal(case["n"], case["d"], base=case["base"], layout=case["layout"], start=case["start"])


def sinusoidal_scores_toeplitz(case) -> float:
    P = _sinusoid(case)
    rng = np.random.default_rng(case["seed"])
    W_Q, W_K = coupling.random_projections(case["d"], case["d_head"], seed=rng, shared=case["projections"] == "shared")
    if case["projections"] == "identity":
        W_Q = W_K = np.eye(case["d"])
    # start + n positions: angles rounded with error <= u (start + n) per entry, hence the extra ops.
    return _gpp_violation(P, W_Q, W_K, extra_ops=2 * (case["start"] + case["n"]))


def sinusoidal_scores_identity(case) -> float:
    """Reading 'identity': the position-only scores :math:`P P^\\top` themselves (no projections)."""
    return sinusoidal_scores_toeplitz({**case, "projections": "identity"})


claim(
    id="gu2025.sinusoidal_scores_toeplitz",
    paper_status="remark",
    source="gu2025 §3.1, Remark 3.2",
    statement=r"Every sine-cosine absolute PE satisfies Assumption 3.2: the attention scores induced by the "
    r"positions alone form a Toeplitz matrix.",
    kind="exact",
    reconstruction="Two readings of 'the attention scores induced by the positions alone', for every base, layout, "
    "start offset and size: with the layer's query/key projections, or the positions' own inner products. The "
    "identity reading is the same sentence as gu2025.gpp_toeplitz#sinusoidal (Assumption 3.2 for sine-cosine PEs), "
    "where it holds too.",
    readings=[
        Reading("with_projections", r"$(PW_Q)(PW_K)^\top$ with the layer's projections (tied or independent "
                r"Gaussian, or the identity) is Toeplitz", check=sinusoidal_scores_toeplitz, cases=_sinusoid_cases),
        Reading("identity", r"$PP^\top$, $(PP^\top)_{ij}=\sum_t\cos((i-j)\omega_t)$, is Toeplitz",
                check=sinusoidal_scores_identity, cases=_sinusoid_cases,
                plants=(
                    pl.Plant("sinusoidal PE amplitude grows with position",
                             pl.attr("petheory.encodings.absolute.sinusoidal",
                                   lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
                )),
    ],
)


@claim(
    id="gu2025.sinusoidal_scores_toeplitz__corrected",
    paper_status="remark",
    source="gu2025 §3.1, Remark 3.2 (corrected)",
    statement=r"For every sine-cosine absolute PE (any base, layout, start offset) the position-only score "
    r"$PP^\top$, $(PP^\top)_{ij} = \sum_t \cos((i-j)\omega_t)$, is Toeplitz; with projections only when "
    r"$W_QW_K^\top$ commutes with the sinusoid rotations (gu2025.gpp_toeplitz__corrected).",
    kind="exact",
    cases=_sinusoid_cases,
    corrected_of="gu2025.sinusoidal_scores_toeplitz",
    plants=(
        pl.Plant("sinusoidal PE amplitude grows with position",
                 pl.attr("petheory.encodings.absolute.sinusoidal",
                       lambda real: (lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None]))),
    ),
)
def sinusoidal_scores_toeplitz__corrected(case) -> float:
    P = _sinusoid(case)
    d = case["d"]
    return _gpp_violation(P, np.eye(d), np.eye(d), extra_ops=2 * (case["start"] + case["n"]))


# ---------------------------------------------------------------------------- Remark 3.1


@st.composite
def _softmax_cases(draw):
    n = draw(st.integers(1, 10))
    sym = draw(st.booleans())
    c = draw(st.lists(st.floats(-8, 8), min_size=n, max_size=n))
    r = c if sym else [c[0]] + draw(st.lists(st.floats(-8, 8), min_size=n - 1, max_size=n - 1))
    return {"n": n, "c": c, "r": r}


def _softmax_violation(T: np.ndarray) -> float:
    S = softmax.row_softmax(T)
    n = T.shape[0]
    # exp has relative error <= u (after max subtraction, exact), the row sum gamma_n, the division u:
    # each softmax entry within gamma_{n+4} of exact relative to itself.
    return _toeplitz_violation(S, tolerance(n_ops=n + 4, scale=1.0) * S)


def normalisation_keeps_toeplitz(case) -> float:
    from scipy.linalg import toeplitz

    return _softmax_violation(toeplitz(np.asarray(case["c"], float), np.asarray(case["r"], float)))


@st.composite
def _scaled_cases(draw):
    return {**draw(_softmax_cases()), "d": draw(st.integers(1, 4096))}


def normalisation_scalar(case) -> float:
    """Reading 'scalar_1_over_sqrt_d': the logits divided by :math:`\\sqrt d` (each entry rounded once: ``u |S|`` entrywise)."""
    from scipy.linalg import toeplitz

    S = toeplitz(np.asarray(case["c"], float), np.asarray(case["r"], float)) / np.sqrt(float(case["d"]))
    return _toeplitz_violation(S, tolerance(n_ops=2, scale=1.0) * np.abs(S))


claim(
    id="gu2025.normalisation_keeps_toeplitz",
    paper_status="remark",
    source="gu2025 §3.1, Remark 3.1",
    statement=r"The normalisation does not change the Toeplitz property: if $T=[a_{i-j}]$ then the normalised "
    r"scores are Toeplitz.",
    kind="exact",
    reconstruction="All real N x N Toeplitz matrices (symmetric and not), N = 1..10, entries in [-8, 8]. The remark "
    "does not say which normalisation: the scalar 1/sqrt(d) of scaled dot-product attention, or the row softmax.",
    readings=[
        Reading("row_softmax", r"$\operatorname{softmax}_{\text{row}}(T)$ is Toeplitz", check=normalisation_keeps_toeplitz,
                cases=_softmax_cases),
        Reading("scalar_1_over_sqrt_d", r"$T/\sqrt d$ is Toeplitz (any $d\ge1$)", check=normalisation_scalar,
                cases=_scaled_cases,
                plants=(
                    pl.Plant("(none)", lambda mp: None,
                             equivalent="T / sqrt(d) of a Toeplitz T is Toeplitz by the arithmetic (entry a_{i-j} / sqrt(d), one rounding "
                             "each, the same for equal a_{i-j}); the only plants that flip it break the premise (scipy's toeplitz made "
                             "non-Toeplitz, as tests/claims/test_claims_gu2025_mla.py does to show the checker can say refuted)"),
                )),
    ],
)


@st.composite
def _circulant_cases(draw):
    n = draw(st.integers(1, 10))
    return {"n": n, "c": draw(st.lists(st.floats(-8, 8), min_size=n, max_size=n))}


@claim(
    id="gu2025.normalisation_keeps_toeplitz__corrected",
    paper_status="remark",
    source="gu2025 §3.1, Remark 3.1 (corrected)",
    statement=r"Row softmax keeps the Toeplitz property for circulant $T$ ($a_{i-j}$ depending on $(i-j)\bmod N$; "
    r"every row has the same normaliser). For general Toeplitz $T$ only the unnormalised $\exp(T)$ is Toeplitz: the "
    r"rows near the edges see different windows of $a_k$ and so different normalisers.",
    kind="exact",
    cases=_circulant_cases,
    corrected_of="gu2025.normalisation_keeps_toeplitz",
    plants=(
        pl.Plant("softmax with a causal mask",
                 pl.attr("petheory.softmax.row_softmax",
                       lambda real: (lambda M: real(np.where(np.triu(np.ones_like(M), 1) > 0, -np.inf, M))))),
    ),
)
def normalisation_keeps_toeplitz__corrected(case) -> float:
    from scipy.linalg import circulant

    return _softmax_violation(circulant(np.asarray(case["c"], float)))


# ---------------------------------------------------------------------------- Eq. 9 / Prop. B.1


@st.composite
def _rope_cases(draw):
    d = draw(even_dims(2, 16))
    return {
        "n": draw(st.integers(1, 8)),
        "d": d,
        "rotary_dim": draw(st.none() | even_dims(2, d)),
        "base": draw(st.sampled_from([10000.0, 100.0]) | st.floats(2.0, 1e6)),
        "pairing": draw(st.sampled_from(["interleaved", "half"])),
        "pe": draw(st.sampled_from(("nope",) + tuple(p for p in ABSOLUTE if p != "nope"))),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


def _rope_setup(case):
    n, d = case["n"], case["d"]
    rng = np.random.default_rng(case["seed"])
    C = rng.normal(size=(n, d))
    P = _absolute(case["pe"], n, d)
    W_Q, W_K = coupling.random_projections(d, d, seed=rng)
    freqs = enc_rotary.rope_frequencies(d, base=case["base"], rotary_dim=case["rotary_dim"])
    table = enc_rotary.RotaryTable(np.arange(n, dtype=float)[:, None] * freqs[None, :], d, case["pairing"])
    return C, P, W_Q, W_K, table


@claim(
    id="gu2025.rope_logit_form",
    paper_status="proposition",
    source="gu2025 §3.2, Eq. 9; App. B, Prop. B.1",
    statement=r"$L_{RoPE} = \operatorname{Re}\{(G_{q,k}+G_{q,p}+G_{p,k}+G_p)\circ G_e\}$ with $G_e$ a Toeplitz "
    r"matrix of unit-modulus entries, $(G_e)_{ij} = e^{i(i-j)\theta_{t_{i-j}}}$, independent of content.",
    kind="exact",
    cases=_rope_cases,
    reconstruction="Gram terms are the complex (Hermitian) Grams of the paired query/key components, summed over "
    "bands; partial RoPE's non-rotary coordinates are subtracted from L first. Checked is the weaker necessary "
    "condition: for the given content, does ANY Toeplitz unit-modulus G_e exist (coupling.single_phase_defect, a "
    "certified lower bound). A positive defect refutes the statement even for content-dependent G_e.",
)
def rope_logit_form(case) -> float:
    C, P, W_Q, W_K, table = _rope_setup(case)
    terms = coupling.rope_logit_terms(C, P, W_Q, W_K, table)
    S = terms.gram_sum.sum(axis=0)  # Σ Gram over bands, (n, n)
    L = terms.logits - terms.passthrough
    # The defect is a lower bound already; rounding of S and L is <= gamma_{2d+4} Σ_t |z_q||z_k| per entry.
    zq, zk = (np.abs(coupling.complex_pairs(x, table)) for x in ((C + P) @ W_Q, (C + P) @ W_K))
    tol = tolerance(n_ops=2 * case["d"] + 4, scale=float((zq @ zk.T).max()) if zq.size else 0.0)
    quantities(single_phase_defect=coupling.single_phase_defect(S, L), tolerance=2 * tol)
    return coupling.single_phase_defect(S, L) - 2 * tol


@claim(
    id="gu2025.rope_logit_form__corrected",
    paper_status="proposition",
    source="gu2025 §3.2, Eq. 9; App. B, Prop. B.1 (corrected)",
    statement=r"$L_{RoPE} = \sum_t \operatorname{Re}\{(G^{(t)}_{q,k}+G^{(t)}_{q,p}+G^{(t)}_{p,k}+G^{(t)}_{p})\circ "
    r"E^{(t)}\}$ with $G^{(t)}_{ij} = q_i^{(t)}\overline{k_j^{(t)}}$ and one Toeplitz unit-modulus "
    r"$E^{(t)}_{ij} = e^{i(i-j)\theta_t}$ per frequency band (plus the real logits of non-rotary coordinates).",
    kind="exact",
    cases=_rope_cases,
    corrected_of="gu2025.rope_logit_form",
    plants=(
        pl.Plant("the library's rotation turns the wrong way", pl.rope_sign),
        pl.Plant("the RoPE logits' real part taken of the conjugate phases",
                 pl.attr("petheory.coupling.RopeTerms.logits", lambda real: property(
                     lambda self: np.real(self.gram_sum * np.conj(self.phases)).sum(axis=0) + self.passthrough))),
        pl.Plant("the logit terms built on the transposed query/key projections",
                 pl.attr("petheory.coupling.rope_logit_terms", lambda real: (lambda c, p, W_Q, W_K, table, **k: real(
                     c, p, W_K, W_Q, table, **k)))),
    ),
)
def rope_logit_form__corrected(case) -> float:
    C, P, W_Q, W_K, table = _rope_setup(case)
    terms = coupling.rope_logit_terms(C, P, W_Q, W_K, table)
    X = C + P
    q, k = X @ W_Q, X @ W_K
    direct = table.apply(q) @ table.apply(k).T
    # Angles p*theta (p < n) are rounded with error <= u n, moving rotated vectors by <= u n |x|; the
    # d-term products and the 4-term Gram sums add gamma_{2d+8}. The terms are computed from the content
    # and position parts separately (q_c = C W_Q, q_p = P W_Q), and q = (C + P) W_Q can be much smaller
    # than either by cancellation, so the errors scale with the parts, not with q: bound each part
    # elementwise by A_q = (|C| + |P|) |W_Q| >= |q_c| + |q_p| (>= |q|, and >= the computed products up to
    # gamma_d), and likewise A_k. (Scaling with |q_i||k_j| alone was refuted at 1.6e-16 by the thorough
    # profile: n=4, d=2, wavelet PE, seed 70016, where C and P nearly cancel in row 2.)
    Aq = (np.abs(C) + np.abs(P)) @ np.abs(W_Q)
    Ak = (np.abs(C) + np.abs(P)) @ np.abs(W_K)
    S = np.outer(np.linalg.norm(Aq, axis=1), np.linalg.norm(Ak, axis=1)) + Aq @ Ak.T
    tol = (2 * gamma(2 * case["d"] + 8) + 8 * unit_roundoff() * case["n"]) * S
    return float((np.abs(terms.logits - direct) - tol).max())


# ============================================================================ memory of a --case
# Bytes a checker needs on a case, so that `petheory check --case` refuses a size that cannot fit before
# the checker allocates (proofs_check.runner.replay reads ``checker.memory``; library calls guard themselves).
def _gram_bytes(n: int, d: int, dh: int, identity: bool = False) -> int:
    """(n, d) content/PE tables, (d, dh) projections (d x d identities) and the (n, n) logit terms, float64."""
    return 8 * (8 * n * n + 6 * n * max(d, dh) + 4 * d * (d if identity else dh))


def _case_gram_bytes(case) -> int:
    return _gram_bytes(case["n"], case["d"], case["d_head"], case.get("projections") == "identity")


logit_decomposition.memory = _case_gram_bytes
gpp_toeplitz.memory = _case_gram_bytes
gpp_toeplitz__corrected.memory = lambda case: _gram_bytes(case["n"], case["d"], case["d"])
sinusoidal_scores_toeplitz.memory = _case_gram_bytes
sinusoidal_scores_toeplitz__corrected.memory = lambda case: _gram_bytes(case["n"], case["d"], 1, identity=True)
rope_logit_form.memory = lambda case: 2 * _gram_bytes(case["n"], case["d"], case["d"])  # complex Grams, d x d projections
rope_logit_form__corrected.memory = rope_logit_form.memory
