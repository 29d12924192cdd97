"""Helpers shared by the files of :mod:`petheory.toeplitz` (internal to the package).

Rounding constants from the one rounding model (:mod:`petheory.rounding`), the memory guards of
dense and FFT paths, and the Hermitian test (one-thread BLAS for the iterative solvers is
:func:`petheory._threads.blas_threads`).
"""

from __future__ import annotations

import numpy as np

from petheory import _memory
from petheory.rounding import unit_roundoff

_WORKERS = -1  # scipy.fft threads: every core (a transform of 2^21+ points splits well over them)
_U = unit_roundoff()  # float64 unit roundoff, from the one rounding model


def _need_dense(n: int, itemsize: int, what: str, *, eig: bool = False) -> None:
    """Refuse an (N, N) dense matrix (and, with ``eig``, its eigvalsh workspace) that cannot fit."""
    _memory.require(
        _memory.array_bytes(n, n, itemsize=itemsize) * (2 if eig else 1),
        f"{what} (dense N x N, N = {n})",
        alternative="an O(N)-memory path: method='slq' (spectral_distribution), extreme_eigenvalues or "
        "petheory.toeplitz.operator (FFT matvec)",
        flops=(4.0 / 3.0) * float(n) ** 3 * (4 if itemsize > 8 else 1) if eig else None,
    )


def _need_fft(n: int, per_entry: int, what: str) -> None:
    """Refuse an FFT-based computation whose O(N) workspace (``per_entry`` bytes per N) cannot fit."""
    _memory.require(_memory.array_bytes(n, itemsize=per_entry), f"{what} (N = {n}, O(N) memory)",
                    alternative="use a smaller N")
_TINY = float(np.finfo(np.float64).smallest_subnormal)  # absolute rounding unit below the normal range



def _is_hermitian(c: np.ndarray, r: np.ndarray) -> bool:
    return bool(np.all(r == np.conj(c)) or np.allclose(r, np.conj(c), rtol=0, atol=4 * _U * np.max(np.abs(c))))
