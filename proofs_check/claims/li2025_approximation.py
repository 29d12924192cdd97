r"""li2025's key result "universal approximation for fixed N does not guarantee extrapolation to longer
sequences", checked with a constructive witness.

The summary names the result without a statement of the model class, so the witness is a reconstruction: a
position-only linear model with a learned (pair) position table, which at lengths <= N realises the running sum
exactly (approximation at fixed N achieved), and two targets that agree on every length <= N but differ at N+1.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check import plants as pl
from proofs_check.engine import claim
from proofs_check.tolerance import gamma


@st.composite
def _ua_cases(draw):
    return {"N": draw(st.integers(1, 8)), "c": draw(st.sampled_from([1.0, 0.5]) | st.floats(1e-3, 100.0)),
            "sequences": draw(st.integers(1, 8)), "seed": draw(st.integers(0, 2**32 - 1))}


def fit_pair_table(xs: list, ys: list, N: int) -> np.ndarray:
    """Least-squares fit of A (N, N) in :math:`y(x) = \\sum_t A_{\\min(n, N) - 1, \\min(t, N - 1)}\\, x_t` for sequences x of length n
    (positions past the table reuse its last row and column: li2025's learned PE beyond :math:`N_{max}`)."""
    rows = []
    for x in xs:
        n = len(x)
        r = np.zeros((N, N))
        for t in range(n):
            r[min(n, N) - 1, min(t, N - 1)] += x[t]
        rows.append(r.ravel())
    sol, *_ = np.linalg.lstsq(np.asarray(rows), np.asarray(ys, dtype=np.float64), rcond=None)
    return sol.reshape(N, N)


def predict(A: np.ndarray, x) -> float:
    N, n = A.shape[0], len(x)
    return float(sum(A[min(n, N) - 1, min(t, N - 1)] * x[t] for t in range(n)))


@claim(
    id="li2025.ua_no_extrapolation",
    paper_status=None,
    source="li2025 'Key results' (universal approximation) ('universal approximation for fixed N does not "
    "guarantee extrapolation'; the summary names no theorem)",
    statement="Universal approximation for a fixed length N does not guarantee extrapolation to longer sequences.",
    kind="exact",
    cases=_ua_cases,
    evidence="definitional",
    evidence_note="true by construction: the two targets agree on every length <= N and differ at N+1, so a fit to "
    "lengths <= N cannot meet both; the search checks the least-squares fits realise that construction",
    reconstruction="Constructive witness. Model: y(x) = sum_t A[min(n,N)-1, min(t,N-1)] x_t, a learned pair table "
    "clamped past N (li2025's learned PE reuses p_{N_max}). Targets f_+c and f_-c with f_s(x) = sum_t x_t + s [n > N]: "
    "equal on every length <= N, 2|c| apart at N+1. Fitted by least squares on random sequences of every length "
    "1..N, once per target: the fits must realise the running sum at every length <= N (approximation at fixed N, "
    "residual within rounding) and be the same table (they saw the same data), so at length N+1 one of the two "
    "targets is missed by >= |c| (triangle inequality). Violation > 0 when a fit misses a length <= N, when the two "
    "fits differ, or when both targets are met at N+1 (which would be extrapolation guaranteed by the fit).",
    plants=(
        pl.Plant("the pair-table fit misses the running sum by 10%",
                 pl.attr("proofs_check.claims.li2025_approximation.fit_pair_table", lambda real: (lambda xs, ys, N: 0.9 * real(xs, ys, N)))),
    ),
)
def ua_no_extrapolation(case) -> float:
    N, c = int(case["N"]), float(case["c"])
    rng = np.random.default_rng(case["seed"])
    xs = [rng.uniform(-1, 1, n) for n in range(1, N + 1) for _ in range(int(case["sequences"]) + N)]
    fits = {s: fit_pair_table(xs, [float(np.sum(x)) + s * c * (len(x) > N) for x in xs], N) for s in (1.0, -1.0)}
    scale = max(float(np.max(np.abs(A))) for A in fits.values()) + 1.0
    tol = gamma(4 * N * N + 16) * scale * (N + 2) ** 2  # least squares on a well-conditioned design, sums of N terms
    fit_err = max(abs(predict(A, x) - float(np.sum(x))) for A in fits.values() for x in xs)
    same = float(np.max(np.abs(fits[1.0] - fits[-1.0])))
    x_new = rng.uniform(-1, 1, N + 1)
    y = predict(fits[1.0], x_new)
    miss = max(abs(y - (float(np.sum(x_new)) + s * c)) for s in (1.0, -1.0))
    return float(max(fit_err - tol, same - tol, (c - tol) - miss))
