r"""Effective rank of the optimal encoding and its minimal parametrisation (cirrincione2026).

The paper: the optimal encoding has effective rank :math:`r = \operatorname{rank}(B) \le n-1` and can
be stored as :math:`P = UV^\top` with :math:`r(n+d)` parameters instead of :math:`nd` (its minimal
parametrisation result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np

from petheory._validate import Array, Interval, validate_params
from petheory.rounding import eig_rank_tol, numerical_rank
from petheory.rounding import gamma as _gamma
from petheory.errors import ParameterError, ValidationError

#: A relative threshold: a finite real number >= 0, or None for the rounding model's default.
_TOL = [Interval(Real, 0, None, closed="left"), None]

__all__ = ["effective_rank", "Factorisation", "minimal_parametrisation"]


@validate_params({"B": [Array(ndim=(1, 2))], "tol": _TOL})
def effective_rank(B, tol: float | None = None, *, positive: bool = False) -> int:
    r"""Number of eigenvalues of symmetric ``B`` above ``tol`` times the largest modulus.

    The effective rank :math:`r = \operatorname{rank}(B)` of the optimal encoding (cirrincione2026).

    Parameters
    ----------
    B : array_like, shape (n, n) or (m,)
        A symmetric matrix, or its eigenvalues.
    tol : float, optional
        Relative threshold. Default :math:`\gamma_{17n}`: the rounding level of a
        double-centred n x n matrix and its eigensolver (numerical rank, cirrincione2026's
        :math:`\operatorname{rank}(B)`); pass e.g. ``1e-3`` for a spectral-energy cut.
    positive : bool
        Count only positive eigenvalues: the rank an encoding can realise (MDS keeps only
        those). Default counts :math:`|\lambda|` (the rank of B).

    Returns
    -------
    int

    Notes
    -----
    ``numpy.linalg.eigvalsh`` on the symmetrised matrix (:math:`O(n^3)`); pass eigenvalues already
    computed (e.g. ``classical_mds(D).eigenvalues``) to skip it. Eigenvalues within the
    threshold of zero are not resolved: the count near the threshold is not stable under
    rounding, so use a threshold well above it when the spectrum decays smoothly.

    See Also
    --------
    minimal_parametrisation

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> geometry.effective_rank(np.diag([1.0, 1e-20, 0.5]))
    2
    """
    arr = np.asarray(B, dtype=np.float64)
    if arr.ndim == 2:
        if arr.shape[0] != arr.shape[1]:  # a matrix is square (eigenvalues are 1-D)
            raise ParameterError("B", "square", B, owner=effective_rank)
        if not np.allclose(arr, arr.T, rtol=0, atol=_gamma(arr.shape[0]) * np.abs(arr).max()):
            raise ValidationError("B must be symmetric")
        lam = np.linalg.eigvalsh(0.5 * (arr + arr.T))
    else:
        lam = arr
    tol = eig_rank_tol(lam.size) if tol is None else float(tol)
    top = float(np.max(np.abs(lam)))
    if top == 0:
        return 0
    return numerical_rank(lam, tol * top, positive=positive)


@dataclass(frozen=True)
class Factorisation:
    """Rank-r factorisation ``P ~= U @ V.T`` of an (n, d) encoding.

    Attributes
    ----------
    U : ndarray, shape (n, r)
        Left factor (singular vectors times singular values).
    V : ndarray, shape (d, r)
        Right factor (orthonormal columns).
    rank : int
    params_full, params_min : int
        ``n*d`` and ``r*(n+d)``.
    error : float
        :math:`\\lVert P - UV^\\top\\rVert_F` predicted by Eckart--Young, :math:`\\sqrt{\\sum_{i>r}\\sigma_i^2}`.
    measured_error : float
        The same norm computed from the factors.
    relative_error : float
        ``measured_error / ||P||_F``.
    singular_values : ndarray, shape (min(n, d),)
    """

    U: np.ndarray
    V: np.ndarray
    rank: int
    params_full: int
    params_min: int
    error: float
    measured_error: float
    relative_error: float
    singular_values: np.ndarray = field(repr=False)

    @property
    def saves(self) -> bool:
        """Whether ``r*(n+d) < n*d`` (true exactly when r < nd/(n+d))."""
        return self.params_min < self.params_full


@validate_params({"P": [Array(ndim=2)], "rank": [Interval(Integral, 0, None), None], "tol": _TOL})
def minimal_parametrisation(P, rank: int | None = None, *, tol: float | None = None) -> Factorisation:
    r"""The minimal parametrisation :math:`P = UV^\top` of an encoding, :math:`r(n+d)` parameters (cirrincione2026).

    Parameters
    ----------
    P : array_like, shape (n, d)
        An encoding table (e.g. an MDS embedding padded to d, or learned positions).
    rank : int, optional
        Rank r of the factorisation; default the numerical rank (singular values above
        ``tol * sigma_max``, ``tol`` default :math:`\gamma_{\max(n,d)+1}`).
    tol : float, optional
        Relative threshold of that numerical rank, non-negative; not used when ``rank`` is given.
        Pass e.g. ``1e-6`` to drop directions at the level of noise in a learned table.

    Returns
    -------
    Factorisation
        ``U`` (n, r), ``V`` (d, r), ``r*(n+d)`` parameters instead of ``n*d``, and the error.

    Notes
    -----
    Truncated SVD: by Eckart--Young it is the best rank-r approximation in Frobenius (and
    spectral) norm; when r is the rank of P the reconstruction is exact up to rounding
    (:math:`\approx \gamma_{\max(n,d)}\lVert P\rVert_2`). It saves parameters only when
    :math:`r < nd/(n+d)`.

    See Also
    --------
    effective_rank

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import geometry
    >>> P = np.outer(np.arange(1.0, 7.0), [1.0, -2.0, 0.5, 3.0])  # 6 positions, d = 4, rank 1
    >>> f = geometry.minimal_parametrisation(P)
    >>> f.rank, f.U.shape, f.V.shape, f.params_full, f.params_min, f.saves
    (1, (6, 1), (4, 1), 24, 10, True)
    >>> bool(f.relative_error < 1e-14)  # exact up to rounding
    True
    >>> noisy = P + 1e-9 * np.eye(6, 4)
    >>> geometry.minimal_parametrisation(noisy).rank, geometry.minimal_parametrisation(noisy, tol=1e-6).rank
    (4, 1)
    """
    P = np.asarray(P, dtype=np.float64)
    n, d = P.shape
    if rank is not None and rank > min(n, d):
        raise ParameterError("rank", f"<= min(n, d) = {min(n, d)} (the shape of P)", rank, owner=minimal_parametrisation)
    U, s, Vt = np.linalg.svd(P, full_matrices=False)
    if rank is None:
        t = _gamma(max(n, d) + 1) if tol is None else float(tol)
        r = numerical_rank(s, t * s[0]) if s[0] > 0 else 0
    else:
        r = int(rank)
    Uf, Vf = U[:, :r] * s[:r], Vt[:r].T
    meas = float(np.linalg.norm(P - Uf @ Vf.T))
    norm = float(np.linalg.norm(P))
    return Factorisation(
        Uf, Vf, r, n * d, r * (n + d), float(np.sqrt(np.sum(s[r:] ** 2))), meas, meas / norm if norm else 0.0, s
    )
