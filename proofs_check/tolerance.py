r"""Tolerances derived from the size, scale and conditioning of a case.

A checker never compares against a magic epsilon. It states how many rounding steps feed the
quantity it compares, how large the numbers involved are, and (for solves and eigenproblems)
how ill-conditioned the problem is; the tolerance follows from the classical bounds of
floating-point error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002).
"""

from __future__ import annotations

import numpy as np


from petheory.rounding import gamma, unit_roundoff  # noqa: F401  (re-exported: the catalogue's public names)


def tolerance(*, n_ops: int, scale: float, cond: float = 1.0, dtype=np.float64) -> float:
    r"""Absolute tolerance :math:`\kappa\,(\gamma_{n}\,s + n\,\eta)` for a computed quantity.

    :math:`\eta` is the smallest subnormal number: with gradual underflow each operation is
    :math:`fl(x \circ y) = (x \circ y)(1 + \delta) + \eta_i`, :math:`|\eta_i| \le \eta`
    (Higham 2002, eq. 2.8), so when the operands are tiny (``scale`` near the underflow
    threshold) the relative model alone would give a tolerance below what rounding can achieve.

    Parameters
    ----------
    n_ops : int
        Length of the longest chain of roundings feeding the quantity (``d`` for a
        d-term inner product, ``n`` for an n x n matrix-vector product, ``n`` for a
        backward-stable eigensolver on an n x n matrix, whose eigenvalue error is about
        ``n u ||A||_2``).
    scale : float
        Size of the operands in the quantity's units: the sum of absolute values of the
        terms, or a norm of the matrix.
    cond : float
        Condition number that amplifies backward into forward error (1 for sums,
        eigenvalues of Hermitian matrices, and norms).
    """
    scale = float(abs(scale))
    if not np.isfinite(scale) or not np.isfinite(cond) or cond < 0:
        raise ValueError(f"scale and cond must be finite and cond >= 0, got scale={scale}, cond={cond}")
    eta = float(np.finfo(dtype).smallest_subnormal)
    return float(cond) * (gamma(n_ops, dtype) * scale + max(int(n_ops), 1) * eta)
