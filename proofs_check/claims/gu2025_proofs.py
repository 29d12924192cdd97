r"""Steps of gu2025's proofs that state something checkable on their own (App. B).

The proof of Prop. B.1 (the RoPE logit form, Eq. 9) rests on one step: a sum of band-wise products,
each turned by its own angle, is said to equal the unturned sum turned by one angle. The proposition
itself is :mod:`proofs_check.claims.gu2025_coupling`'s ``gu2025.rope_logit_form`` (checked on the real
logits); here the step is checked as written, on the complex logit the proof works with. Cases and
arrays come from the same reconstruction (``_rope_cases`` / ``_rope_setup``), and the checker reads
:mod:`petheory.coupling` and the rotary frequency ladder through their modules at run time, so a plant
there reaches it.
"""

from __future__ import annotations

import numpy as np

from petheory import coupling
from proofs_check.claims.gu2025_coupling import _rope_cases, _rope_setup
from proofs_check.engine import claim, quantities
from proofs_check.tolerance import gamma, unit_roundoff


@claim(
    id="gu2025.prop_b1_mean_value_step",
    paper_status=None,  # a step inside the proof of Prop. B.1; the paper gives it no status of its own
    source="gu2025 App. B, proof of Prop. B.1, mean value step (the source names no status: a step of a proof)",
    statement=r"'Due to continuity and the mean value theorem, there exists $t_{i-j}$ that "
    r"$\sum_t q_i^{(t)}k_j^{(t)}e^{i(i-j)\theta_t} = (\sum_t q_i^{(t)}k_j^{(t)})e^{i(i-j)\theta_{t_{i-j}}}$' "
    r"(the complex RoPE logit, $t$ over the rotary bands). Checked in its weakest form: for every $i, j$ SOME "
    r"unit-modulus factor $u_{ij}$ (any angle, even one depending on the content) has "
    r"$\sum_t a_t e^{i(i-j)\theta_t} = u_{ij}\sum_t a_t$, $a_t = q_i^{(t)}\overline{k_j^{(t)}}$; which needs "
    r"$|\sum_t a_t e^{i(i-j)\theta_t}| = |\sum_t a_t|$. A failure of this refutes every stronger reading "
    r"($\theta_{t_{i-j}}$ one of the bands' angles, or one angle per offset $i-j$).",
    kind="exact",
    cases=_rope_cases,
    reconstruction="The band products are the complex Grams of petheory.coupling.rope_logit_terms (with the conjugate "
    "that gives the real logits; gu2025 writes q^(t) k^(t) without it, which changes no modulus argument), summed "
    "over the four content/position terms; non-rotary coordinates of partial RoPE are left out (the step is about "
    "the rotary sum). The corrected form of the proposition the step was meant to prove is "
    "gu2025.rope_logit_form__corrected (one Toeplitz phase matrix per band).",
)
def prop_b1_mean_value_step(case) -> float:
    C, P, W_Q, W_K, table = _rope_setup(case)
    terms = coupling.rope_logit_terms(C, P, W_Q, W_K, table)
    a = terms.gram_sum  # (bands, n, n): a_t(i, j) = q_i^(t) conj(k_j^(t))
    turned = np.abs((a * terms.phases).sum(axis=0))  # |Σ_t a_t e^{i(φ_i - φ_j)}|
    plain = np.abs(a.sum(axis=0))  # |Σ_t a_t|
    # Rounding: every a_t is a sum of products of the content and position parts, which may cancel, so its
    # error scales with A_q = (|C| + |P|)|W_Q| (and A_k), not with q: <= gamma_{2d+8} |A_q^(t)| |A_k^(t)| (as in
    # gu2025.rope_logit_form__corrected); the phases' angles p θ (p < n) carry <= u n each. Each modulus is then off
    # by at most tol = (gamma_{2d+8} + 2 u n) Σ_t |A_q^(t)||A_k^(t)|, and their difference by twice that.
    Aq = np.abs(coupling.complex_pairs((np.abs(C) + np.abs(P)) @ np.abs(W_Q), table))  # (n, bands)
    Ak = np.abs(coupling.complex_pairs((np.abs(C) + np.abs(P)) @ np.abs(W_K), table))
    tol = (gamma(2 * case["d"] + 8) + 2 * unit_roundoff() * case["n"]) * (Aq @ Ak.T)
    gap = np.abs(turned - plain) - 2 * tol
    i, j = np.unravel_index(int(np.argmax(gap)), gap.shape)
    quantities(turned_modulus=float(turned[i, j]), sum_modulus=float(plain[i, j]), tolerance=float(2 * tol[i, j]),
               entry=[int(i), int(j)])
    return float(gap[i, j])

prop_b1_mean_value_step.memory = lambda case: 16 * 8 * case["n"] ** 2 * max(case["d"], 2)  # complex (bands, n, n) arrays
