r"""Tolerances derived from the size, scale and conditioning of a case.

A checker never compares against a magic epsilon. It states how many rounding steps feed the
quantity it compares, how large the numbers involved are, and (for solves and eigenproblems)
how ill-conditioned the problem is; the tolerance follows from the classical bounds of
floating-point error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002).
"""

from __future__ import annotations

import numpy as np

# The rounding model and the tolerance built on it live in petheory.rounding (the library's tests use them
# from there); re-exported here as the catalogue's public names.
from petheory.rounding import eig_rank_tol, gamma, tolerance, unit_roundoff  # noqa: F401


# ---------------------------------------------------------------------------- derived bounds shared by claims


def hermitian_eig_tol(n: int, *mats) -> float:
    r"""Error bound of the computed eigenvalues of n x n Hermitian matrices, summed over ``mats``.

    Hermitian eigenvalues are perfectly conditioned (Weyl): a backward-stable eigensolver
    (``eigvalsh``: Householder tridiagonalisation, then implicit QR) returns the exact eigenvalues
    of :math:`A + \delta A` with :math:`\lVert\delta A\rVert_2 \le \gamma_{cn}\lVert A\rVert_2`,
    so every eigenvalue errs by at most that; ``c = 4`` covers the two-sided reflections and the
    QR sweeps (Higham 2002, §19.3; Golub & Van Loan §8.3). A comparison of eigenvalues of
    several matrices (W and W o E, say) adds their bounds.

    Parameters
    ----------
    n : int
        Size of the matrices.
    *mats : array_like
        The matrices, shape (n, n) each.

    Returns
    -------
    float
        :math:`\sum_M \gamma_{4n}\lVert M\rVert_2` (plus the underflow term of :func:`petheory.rounding.tolerance`).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.rounding import gamma
    >>> t = hermitian_eig_tol(3, np.eye(3), 2 * np.eye(3))
    >>> abs(t - 3 * gamma(12)) < 1e-300
    True
    """
    return sum(tolerance(n_ops=4 * n, scale=float(np.linalg.norm(M, 2))) for M in mats)


def eig_zero_tol(n: int, lam_max: float) -> float:
    r"""Absolute threshold under which an eigenvalue of an n x n double-centred matrix is zero.

    :func:`petheory.rounding.eig_rank_tol` (:math:`\gamma_{17n}`, relative; its derivation is there) times the largest
    eigenvalue modulus ``lam_max``, floored at the smallest normal number so that an all-zero spectrum still has a
    positive threshold.

    Parameters
    ----------
    n : int
        Size of the matrix.
    lam_max : float
        Largest eigenvalue modulus.

    Returns
    -------
    float
        The threshold.

    Examples
    --------
    >>> from petheory.rounding import eig_rank_tol
    >>> bool(eig_zero_tol(4, 2.0) == 2 * eig_rank_tol(4)), bool(eig_zero_tol(4, 0.0) > 0)
    (True, True)
    """
    return eig_rank_tol(n) * max(float(lam_max), np.finfo(float).tiny)
