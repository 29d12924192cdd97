"""Sinusoidal and RoPE tables at large n: petheory.encodings against the textbook numpy formulas.

References, each written here from its well-known source, loop-free numpy:

* sinusoidal: the Annotated Transformer / PyTorch tutorial, ``div_term = exp(-2i ln(base)/d)``,
  ``pe[:, 0::2] = sin(pos * div_term)``, ``pe[:, 1::2] = cos(pos * div_term)``;
* RoPE angles: HF transformers' ``inv_freq = 1 / base**(arange(0, d, 2)/d)``, ``outer(t, inv_freq)``;
* RoPE applied, half pairing: HF's ``x * cos(emb) + rotate_half(x) * sin(emb)``, ``emb = [angles, angles]``;
* RoPE applied, interleaved pairing: RoFormer / Meta's complex form ``(x_2t + i x_2t+1) e^{i angle}``.

Run: ``python benchmarks/run.py encodings`` (or this file directly); ``--quick`` for tiny sizes.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Case, cli  # noqa: E402

from petheory import encodings as enc  # noqa: E402

U = np.finfo(np.float64).eps / 2


def sinusoidal_textbook(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    position = np.arange(n, dtype=np.float64)[:, None]  # (n, 1)
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float64) * (-math.log(base) / d))  # (d/2,)
    pe = np.zeros((n, d))
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def rope_angles_hf(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))  # (d/2,)
    return np.outer(np.arange(n, dtype=np.float64), inv_freq)  # (n, d/2)


def rope_apply_rotate_half(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    emb = np.concatenate([angles, angles], axis=-1)  # (n, d)
    cos, sin = np.cos(emb), np.sin(emb)
    h = x.shape[-1] // 2
    rotated = np.concatenate([-x[:, h:], x[:, :h]], axis=-1)
    return x * cos + rotated * sin


def rope_apply_complex(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    z = (x[:, 0::2] + 1j * x[:, 1::2]) * np.exp(1j * angles)  # (n, d/2)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = z.real, z.imag
    return out


def _max_abs_diff(a, b) -> float:
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))))


def sinusoidal_agree(n: int, base: float):
    # The two frequency formulas differ by <= (ln(base) + 3) u relatively (exp of a rounded product
    # vs pow); angles p*w (p < n, w <= 1) inherit that times p, plus one rounding each; sin/cos
    # add one rounding each: |diff| <= (ln(base) + 5) u n + 4u.
    tol = (math.log(base) + 5) * U * n + 4 * U
    return lambda ours, ref: (_max_abs_diff(ours, ref), tol)


def rope_angles_agree(n: int):
    # base**(-e) vs 1/base**e: <= 3u relative on the frequency, times p < n, plus the product's rounding.
    tol = 4 * U * n
    return lambda ours, ref: (_max_abs_diff(ours, ref), tol)


def rope_apply_agree(x: np.ndarray):
    # Same angles on both sides; each output is a*c - b*s: two products and a sum (gamma_3) over
    # |a| + |b| <= 2 max|x|, plus cos/sin computed separately (one rounding each).
    tol = 2 * (3 * U / (1 - 3 * U) + 2 * U) * float(np.max(np.abs(x)))
    return lambda ours, ref: (_max_abs_diff(ours, ref), tol)


def make_cases(quick: bool) -> list[Case]:
    base = 10000.0
    if quick:
        sin_sizes = table_sizes = apply_sizes = [(256, 16)]
    else:
        # two sizes each, 4x apart: the sizes between and beyond them added no information and the 2^20
        # sinusoidal table (1 GiB, 13 s a pair) was a fifth of the whole run (issue 35: <= 12 minutes on 2 cores)
        sin_sizes = [(2**16, 128), (2**18, 128)]
        table_sizes = [(2**16, 128), (2**20, 128)]
        apply_sizes = [(2**16, 128), (2**18, 128)]
    cases = []
    for n, d in sin_sizes:
        cases.append(Case(f"sinusoidal table n=2^{int(math.log2(n))}, d={d}",
                          lambda n=n, d=d: enc.sinusoidal(n, d, base=base),
                          lambda n=n, d=d: sinusoidal_textbook(n, d, base),
                          sinusoidal_agree(n, base), {"n": n, "d": d}))
    for n, d in table_sizes:
        cases.append(Case(f"RoPE angle table n=2^{int(math.log2(n))}, d={d}",
                          lambda n=n, d=d: enc.rope(n, d, base=base).angles,
                          lambda n=n, d=d: rope_angles_hf(n, d, base),
                          rope_angles_agree(n), {"n": n, "d": d}))
    for n, d in apply_sizes:
        x = np.random.default_rng(0).normal(size=(n, d))
        for pairing, ref in (("half", rope_apply_rotate_half), ("interleaved", rope_apply_complex)):
            table = enc.rope(n, d, base=base, pairing=pairing)
            cases.append(Case(f"RoPE apply ({pairing}) n=2^{int(math.log2(n))}, d={d}",
                              lambda t=table, x=x: t.apply(x),
                              lambda t=table, x=x, ref=ref: ref(x, t.angles),
                              rope_apply_agree(x), {"n": n, "d": d, "pairing": pairing}))
    return cases


NOTES = """
References: sinusoidal = Annotated Transformer / PyTorch-tutorial formula (`exp(-2i ln(base)/d)` frequencies);
RoPE angles = HF transformers' `inv_freq` outer product; RoPE apply (half) = HF `rotate_half` on
`cos/sin(cat(angles, angles))`; RoPE apply (interleaved) = RoFormer/Meta complex multiplication. All float64
numpy, written in `benchmarks/bench_encodings.py`; both sides recompute cos/sin on every call. The machine
may be shared: compare the load average above before reading small differences.
"""


def main(argv=None) -> int:
    return cli("encodings", "sinusoidal and RoPE tables at large n vs textbook numpy", make_cases, notes=NOTES, argv=argv,
               repeats=3, warmup=0)


if __name__ == "__main__":
    sys.exit(main())
