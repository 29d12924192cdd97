r"""The floating-point rounding model shared by the library and the claim catalogue.

Higham, *Accuracy and Stability of Numerical Algorithms* (2002): :math:`u` is the unit roundoff
and :math:`\gamma_n = nu/(1-nu)` bounds the relative error of an n-step sum or inner product
(Lemma 3.1); :func:`tolerance` turns them into an absolute tolerance for a computed quantity.
``proofs_check.tolerance`` builds the claim catalogue's tolerances on these, and the tests use
them next to each identity they protect.
"""

from __future__ import annotations

import numpy as np

from petheory.errors import ValidationError


def unit_roundoff(dtype=np.float64) -> float:
    """u = eps/2 for ``dtype`` (1.1e-16 for float64)."""
    return float(np.finfo(dtype).eps) / 2.0


def gamma(n_ops: int, dtype=np.float64) -> float:
    r"""Higham's :math:`\gamma_n = n u / (1 - n u)`: the relative error bound of an n-step
    recursive sum or inner product (Higham 2002, Lemma 3.1)."""
    u = unit_roundoff(dtype)
    n_ops = max(int(n_ops), 1)
    if n_ops * u >= 1:
        raise ValidationError(f"n_ops={n_ops} is too large for a meaningful rounding bound in {np.dtype(dtype).name}")
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
        raise ValidationError(f"threshold must be finite and >= 0, got {threshold}")
    return int(np.count_nonzero((vals if positive else np.abs(vals)) > threshold))


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
        raise ValidationError(f"scale and cond must be finite and cond >= 0, got scale={scale}, cond={cond}")
    eta = float(np.finfo(dtype).smallest_subnormal)
    return float(cond) * (gamma(n_ops, dtype) * scale + max(int(n_ops), 1) * eta)
