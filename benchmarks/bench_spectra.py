"""Spectra of a 128k..8M-position rotary kernel: the exact (2r, 2r) Gram against the certified FFT path.

The report's kernel a_k = F sum_t cos(k w_t) (Llama 3.1 8B's frequencies: base 500000, head dim 128,
Llama 3 scaling factor 8 over L = 8192) has rank <= 2r, so its extreme eigenvalues are those of
the Gram F P^T P (``toeplitz.rotary_kernel_extremes``, closed-form Dirichlet sums, O(r^3) at any N).
Reference: the certified path a caller without the Gram uses, ``toeplitz.symbol_extrema`` +
``toeplitz.extreme_eigenvalues`` on the column (FFT matvecs, Davidson). Agreement: lambda_max
within the sum of both error bounds plus the column's rounding; lambda_min is 0 by rank.

The notes give the growth of each path with N (8k -> 1M for the certified path, 8k -> 8M for the
Gram) and the certified path's peak traced memory at 1M. Target (issue 35): spectra at N = 1M
within 5 s and 300 MB.

Run: ``python benchmarks/run.py spectra`` (or this file directly).
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, cli  # noqa: E402

from petheory import encodings as enc  # noqa: E402
from petheory import toeplitz as tp  # noqa: E402
from petheory.analyses.kernel import rotary_column  # noqa: E402

NAME = "spectra"
TITLE = "rotary-kernel spectra at 8k..8M positions: exact low-rank Gram vs the certified FFT path"
U = np.finfo(float).eps / 2
RTOL = 1e-6


def freqs():
    w, f = enc.band_frequencies("rope_llama3", 128, 131072, base=500000.0, scale=8.0, n_max=8192)
    return w, f


def certified(c):
    ex = tp.symbol_extrema(c)
    return tp.extreme_eigenvalues(c, rtol=RTOL, atol=RTOL * 1e-4 * max(abs(ex.min), abs(ex.max)), extrema=ex)


def case(n: int) -> Case:
    w, f = freqs()
    c = rotary_column(w, n, f)

    def agree(ours, ref):
        col = 2 * abs(f) * U * float(np.sum(np.arange(n, dtype=float)[:, None] * np.abs(w)[None, :] + 2.0))
        tol = ours.max.error_bound + ref.max.error_bound + col
        return abs(ours.max.value - ref.max.value) / tol, 1.0  # as a fraction of the bounds: <= 1

    return Case(f"lambda_max, lambda_min of the N={n:,} kernel: Gram vs symbol_extrema + extreme_eigenvalues",
                lambda: tp.rotary_kernel_extremes(w, n, f), lambda: certified(c), agree, {"n": n})


def make_cases(quick: bool) -> list[Case]:
    return [case(n) for n in ((4096,) if quick else (8192, 131072))]


def growth(quick: bool) -> str:
    w, f = freqs()
    sizes = (4096, 16384) if quick else (8192, 131072, 1 << 20)
    rows = []
    for n in sizes:
        c = rotary_column(w, n, f)
        tracemalloc.start()
        t0 = time.perf_counter()
        e = certified(c)
        sec = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        rows.append(f"N={n:,}: {sec:.2f} s, {e.max.matvecs + e.min.matvecs} matvecs, {peak:.0f} MiB traced")
        del c
    gram = []
    for n in sizes + ((1 << 23,) if not quick else ()):
        t0 = time.perf_counter()
        for _ in range(5):
            tp.rotary_kernel_extremes(w, n, f)
        gram.append(f"N={n:,}: {(time.perf_counter() - t0) / 5 * 1e3:.1f} ms")
    return ("Certified path (column given; symbol extrema + Davidson, FFT matvecs), one call each: " + "; ".join(rows)
            + ".\n\nGram path (`rotary_kernel_extremes`, mean of 5): " + "; ".join(gram) + " (no N-sized array at all).")


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    notes = ("Ratio = certified path / Gram. " + growth(quick) + "\n\nBoth sides on this machine in this run; the "
             "certified path's FFTs use scipy.fft's `workers=-1` (every core), its dense block work one BLAS thread.")
    sys.exit(cli(NAME, TITLE, make_cases, notes=notes))
