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


def eig_rank_tol(n: int, dtype=np.float64) -> float:
    r"""Relative threshold :math:`\gamma_{17n}` under which an eigenvalue of an n x n
    double-centred matrix is zero, relative to the largest eigenvalue modulus.

    Forming :math:`B=-\frac12 J D^{\circ2} J` from *exact* distances costs O(1) roundings per
    entry, each of size at most :math:`4\max D^2 \le 16\lVert B\rVert_2`, so
    :math:`\lVert\delta B\rVert_2 \le n\max|\delta B_{ij}| \lesssim \gamma_{16n}\lVert B\rVert_2`;
    a backward-stable eigensolver adds :math:`\gamma_n\lVert B\rVert_2` (Higham 2002, Weyl).
    Distances that carry their own absolute error (Hellinger distances computed from
    distributions: :math:`\gamma_V` on each squared distance) add an absolute term; callers that
    know it pass the larger threshold to :func:`numerical_rank`.
    """
    return gamma(17 * max(int(n), 1), dtype)


def numerical_rank(values, threshold: float, *, positive: bool = False) -> int:
    """The library's one numerical-rank rule: how many ``values`` (eigenvalues or singular
    values) are distinguishable from zero, i.e. ``|v| > threshold`` (``v > threshold`` with
    ``positive=True``: the rank an embedding can realise). ``threshold`` is absolute, the
    rounding bound of the values (e.g. ``eig_rank_tol(n) * max|lambda|`` plus any input error).

    Every rank in petheory (classical MDS, effective rank, minimal parametrisation, the claim
    catalogue) is counted with this function, so two of them given the same threshold agree.
    """
    vals = np.asarray(values, dtype=np.float64).ravel()
    threshold = float(threshold)
    if not np.isfinite(threshold) or threshold < 0:
        raise ValueError(f"threshold must be finite and >= 0, got {threshold}")
    return int(np.count_nonzero((vals if positive else np.abs(vals)) > threshold))
