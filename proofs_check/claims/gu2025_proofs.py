r"""Steps of gu2025's proofs that state something checkable on their own (App. B).

The proof of Prop. B.1 (the RoPE logit form, Eq. 9) rests on one step about a single query-key pair: a sum of
band-wise products, each turned by its own angle, is said to equal the unturned sum turned by one angle. The
proposition itself is :mod:`proofs_check.claims.gu2025_coupling`'s ``gu2025.rope_logit_form`` (whole logit
matrices of a content + position reconstruction, real parts, one Toeplitz phase per offset); here the step is
checked as written, on one pair and one offset, with the complex sum the proof works with. The checker reads
:mod:`petheory.coupling` and the rotary frequency ladder through their modules at run time, so a plant there
reaches it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory import coupling
from petheory.encodings import rotary as enc_rotary
from proofs_check.claims._strategies import even_dims
from proofs_check.engine import claim, quantities
from proofs_check.tolerance import gamma, unit_roundoff


@st.composite
def _pair_cases(draw):
    return {"d": draw(even_dims(2, 32)), "base": draw(st.sampled_from([10000.0, 100.0]) | st.floats(2.0, 1e6)),
            "offset": draw(st.integers(-64, 4096)), "seed": draw(st.integers(0, 2**32 - 1))}


def band_sums(case) -> tuple[complex, complex, float]:
    """:math:`(\\sum_t a_t e^{i r \\theta_t}, \\sum_t a_t, \\sum_t |a_t|)` for one query q and key k (standard normal, from the seed) at offset
    :math:`r = i - j`, with :math:`a_t = q^{(t)} \\overline{k^{(t)}}` the product of their t-th rotary pairs (interleaved)."""
    d, r = int(case["d"]), int(case["offset"])
    rng = np.random.default_rng(case["seed"])
    q, k = rng.normal(size=(1, d)), rng.normal(size=(1, d))
    freqs = enc_rotary.rope_frequencies(d, base=case["base"])
    table = enc_rotary.RotaryTable(np.array([[float(r)], [0.0]]) * freqs[None, :], d, "interleaved")
    a = coupling.complex_pairs(q, table)[0] * np.conj(coupling.complex_pairs(k, table)[0])  # (bands,)
    turn = np.exp(1j * (table.angles[0] - table.angles[1]))  # e^{i r θ_t}
    return complex((a * turn).sum()), complex(a.sum()), float(np.abs(a).sum())


@claim(
    id="gu2025.prop_b1_mean_value_step",
    paper_status=None,  # a step inside the proof of Prop. B.1; the paper gives it no status of its own
    source="gu2025 App. B, proof of Prop. B.1, mean value step (the source names no status: a step of a proof)",
    statement=r"'Due to continuity and the mean value theorem, there exists $t_{i-j}$ that "
    r"$\sum_t q_i^{(t)}k_j^{(t)}e^{i(i-j)\theta_t} = (\sum_t q_i^{(t)}k_j^{(t)})e^{i(i-j)\theta_{t_{i-j}}}$' "
    r"(one query-key pair, $t$ over the rotary bands). Checked in its weakest form: SOME unit-modulus factor $u$ "
    r"(any angle, even one depending on $q$ and $k$) has $\sum_t a_t e^{i(i-j)\theta_t} = u\sum_t a_t$, "
    r"$a_t = q_i^{(t)}\overline{k_j^{(t)}}$; which needs $|\sum_t a_t e^{i(i-j)\theta_t}| = |\sum_t a_t|$. A failure "
    r"refutes every stronger reading ($\theta_{t_{i-j}}$ one of the bands' angles, or one angle per offset $i-j$).",
    kind="exact",
    cases=_pair_cases,
    reconstruction="q and k standard normal, RoPE's frequency ladder (petheory.encodings.rotary.rope_frequencies), "
    "interleaved pairs, the conjugate that gives the real logit (gu2025 writes q^(t) k^(t) without it, which changes "
    "no modulus argument). The corrected form of the proposition the step was meant to prove is "
    "gu2025.rope_logit_form__corrected (one Toeplitz phase matrix per band).",
)
def prop_b1_mean_value_step(case) -> float:
    turned, plain, size = band_sums(case)
    # Rounding: each a_t is one complex product (<= gamma_4 |a_t|), the angle r θ_t carries <= u (|r| + 1) and the
    # d/2-term sums add gamma_{d/2}: each modulus is off by at most (gamma_{d/2+4} + u (|r| + 1)) Σ_t |a_t|.
    tol = (gamma(int(case["d"]) // 2 + 4) + unit_roundoff() * (abs(int(case["offset"])) + 1)) * size
    quantities(turned_modulus=abs(turned), sum_modulus=abs(plain), tolerance=2 * tol)
    return abs(abs(turned) - abs(plain)) - 2 * tol
