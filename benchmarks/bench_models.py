"""The one-page report of a 128k-context model (``petheory report``) against an exact low-rank reference.

Cases (full sizes; ``--quick`` shrinks them to a smoke test):

1. Llama 3.1 8B (``tests/data/hf_configs/llama3_1_8b.json``: L = 8192, report at N = 131072):
   the whole :func:`petheory.analyses.report.report` (band table, kernel up to N, spectra at 8k,
   16k, 32k, 64k, stress with 100 random tables, bound notes). Target: <= 10 s on this machine kind (2 cores).
2. Qwen2.5 7B with YaRN (L = 32768, N = 131072, spectra up to 8L = 262144): the same.

Reference: the spectra the report certifies, computed another, exact way. The kernel
:math:`a_k = F\\sum_t\\cos(k\\omega_t)` is the Toeplitz matrix :math:`F\\,PP^\\top` with
:math:`P = [\\cos(k\\omega_t), \\sin(k\\omega_t)]` of shape (N, r), so its nonzero eigenvalues are
those of the r x r Gram :math:`F\\,P^\\top P` (dense ``eigvalsh``); :math:`\\lambda_{min} = 0` for
N > r. The reference forms P densely at each multiple (O(N r^2)); it computes only the spectra,
so the ratio says what the rest of the report (kernel, stress, bounds) costs beside them.
Agreement: the largest eigenvalue within the report's certified error bound plus the Gram's
rounding, :math:`N r u \\max|a|`, at every multiple.

Run: ``python benchmarks/run.py models`` (or this file directly).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, cli  # noqa: E402

from petheory import encodings as enc  # noqa: E402
from petheory.analyses.kernel import table_logit_factor  # noqa: E402
from petheory.analyses.report import report  # noqa: E402
from petheory.loaders import resolve_scheme  # noqa: E402

NAME = "models"
TITLE = "one-page report of a 128k-context model (petheory report) vs the exact low-rank Gram of its spectra"
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "hf_configs"
U = np.finfo(float).eps / 2


def gram_lambda_max(s, n: int) -> float:
    w, f = enc.band_frequencies(s.encoding, s.d, n, **s.params)  # s: the layer's Positions
    ang = np.arange(n, dtype=np.float64)[:, None] * w[None, :]
    P = np.hstack([np.cos(ang), np.sin(ang)])  # (n, r)
    return float(np.linalg.eigvalsh(f * table_logit_factor(s) * (P.T @ P))[-1])


def case(label: str, config: str, quick: bool) -> Case:
    model = resolve_scheme(DATA / config)
    length = 4 * model.context if quick else None
    mults = (1, 2) if quick else (1, 2, 4, 8)
    draws = 5 if quick else 100

    def ours():
        return report(model, length=length, multiples=mults, null_draws=draws).as_dict()["sections"][0]

    def reference():
        return [gram_lambda_max(model.main.positions, m * model.context) for m in mults]

    def agree(rep, ref):
        worst, tol = 0.0, 0.0
        for s, lam in zip(rep["spectra"], ref):
            err = abs(s["lambda_max"] - lam)
            bound = s["error_bounds"][1] + s["n"] * 2 * len(rep["bands"]) * U * abs(rep["kernel"]["a0"])
            worst, tol = max(worst, err / bound), 1.0
        return worst, tol  # the worst error as a fraction of its bound: must be <= 1

    n = length or max(model.max_context, model.context * 4)
    return Case(f"{label}: L = {model.context:,}, N = {n:,}, spectra at {', '.join(f'{m}L' for m in mults)}",
                ours, reference, agree, threaded_reference=True)  # P^T P is a BLAS GEMM on every core


def make_cases(quick: bool) -> list[Case]:
    return [case("Llama 3.1 8B (llama3)", "llama3_1_8b.json", quick),
            case("Qwen2.5 7B + YaRN", "qwen2_5_7b_yarn.json", quick)]


NOTES = """Petheory = the whole report (band table, kernel up to N, certified spectra at the multiples of L,
stress against 100 random tables, bound notes); reference = only the largest eigenvalue at each multiple,
from the exact r x r Gram F P^T P (P = [cos k w_t, sin k w_t], formed densely). `max discrepancy` is the
worst |lambda_max(report) - lambda_max(Gram)| as a fraction of the report's certified error bound plus
the Gram's rounding N r u max|a| (tolerance 1: within the bound). Target: the report of a 128k-context
model in <= 10 s on this machine kind."""


if __name__ == "__main__":
    sys.exit(cli(NAME, TITLE, make_cases, notes=NOTES, repeats=3, warmup=0))
