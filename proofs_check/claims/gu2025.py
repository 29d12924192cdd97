r"""Claims of gu2025 (Gu et al., arXiv 2505.13027): RoPE, Toeplitz structure, spectral contraction."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory import encodings as enc
from proofs_check.claims._strategies import even_dims, vectors
from proofs_check.engine import claim
from proofs_check.tolerance import tolerance, unit_roundoff


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
    scale = float(np.linalg.norm(q) * np.linalg.norm(k))
    tol = tolerance(n_ops=d + 4, scale=scale) + 4 * unit_roundoff() * (i + j + abs(j - i) + 4) * scale
    return float(abs(lhs - rhs) - tol)
