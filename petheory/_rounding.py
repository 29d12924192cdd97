r"""The floating-point rounding model shared by the library and the claim catalogue.

Higham, *Accuracy and Stability of Numerical Algorithms* (2002): :math:`u` is the unit roundoff
and :math:`\gamma_n = nu/(1-nu)` bounds the relative error of an n-step sum or inner product
(Lemma 3.1). ``proofs_check.tolerance`` builds its tolerances on these.
"""

from __future__ import annotations

import numpy as np


def unit_roundoff(dtype=np.float64) -> float:
    """u = eps/2 for ``dtype`` (1.1e-16 for float64)."""
    return float(np.finfo(dtype).eps) / 2.0


def gamma(n_ops: int, dtype=np.float64) -> float:
    r"""Higham's :math:`\gamma_n = n u / (1 - n u)`: the relative error bound of an n-step
    recursive sum or inner product (Higham 2002, Lemma 3.1)."""
    u = unit_roundoff(dtype)
    n_ops = max(int(n_ops), 1)
    if n_ops * u >= 1:
        raise ValueError(f"n_ops={n_ops} is too large for a meaningful rounding bound in {np.dtype(dtype).name}")
    return n_ops * u / (1.0 - n_ops * u)
