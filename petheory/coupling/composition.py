r"""Additive (``W + B``) against Hadamard (``W ∘ E``) composition of Toeplitz factors (gu2025 §3.2, App. B), RoPE's
band average ``E`` (Prop. B.3) and the spectra they are compared by.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import _validate as v
from petheory import toeplitz as tp
from petheory import softmax
from petheory.errors import ValidationError


MODES = ("additive", "hadamard")


def compose(W, X, mode: str) -> np.ndarray:
    """``W + X`` (additive: bias-style PE) or ``W ∘ X`` (Hadamard: RoPE-style), shape (n, n).

    Parameters
    ----------
    W : array_like, shape (n, n)
        Content logits.
    X : array_like, shape (n, n)
        Position matrix: a bias (``additive``) or a relative-phase kernel (``hadamard``).
    mode : {'additive', 'hadamard'}
        How the two combine.

    Returns
    -------
    numpy.ndarray
        Shape (n, n).

    Raises
    ------
    petheory.errors.ValidationError
        Another mode, or shapes that differ.

    See Also
    --------
    spectral_summary

    References
    ----------
    gu2025 §3.1 and Eq. 8-9 (additive vs multiplicative coupling).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> W, X = np.ones((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> coupling.compose(W, X, 'additive')
    array([[2., 3.],
           [4., 5.]])
    >>> coupling.compose(W, X, 'hadamard')
    array([[1., 2.],
           [3., 4.]])
    """
    v.choice("mode", mode, MODES)
    W = v.square("W", W, dtype="any")
    X = v.square("X", X, dtype="any")
    if X.shape != W.shape:
        raise ValidationError(f"X must have the shape of W {W.shape}, got {X.shape}")
    return W + X if mode == "additive" else W * X


def rope_band_average(offsets, thetas, weights=None) -> np.ndarray:
    r"""RoPE's band average :math:`e_k = \sum_t \alpha_t e^{ik\theta_t}` at the given offsets k, complex, shape of ``offsets``.

    gu2025 App. B, Prop. B.3: the Toeplitz matrix :math:`E = [e_{i-j}]` that RoPE's bands
    multiply the content logits by, a convex combination of single-band rank-one kernels, so
    Hermitian positive semidefinite with unit diagonal. ``weights`` (non-negative, shape of
    ``thetas``) are normalised to the simplex; ``None`` means uniform, the plain mean over bands.
    :math:`e_0 = 1` exactly (not up to the rounding of :math:`\sum_t\alpha_t`).

    Parameters
    ----------
    offsets : array_like of int
        The offsets ``k = i - j``; any shape.
    thetas : array_like of float
        The band frequencies :math:`\theta_t`.
    weights : array_like of float, optional
        Non-negative band weights, normalised to sum to 1 (default uniform).

    Returns
    -------
    numpy.ndarray
        :math:`e_k`, complex128, the shape of ``offsets``.

    Raises
    ------
    petheory.errors.ValidationError
        Negative or all-zero weights, or weights of another shape than ``thetas``.

    References
    ----------
    gu2025 App. B, Prop. B.3.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> e = coupling.rope_band_average([0, 1], [0.0, np.pi])
    >>> np.round(e, 12).tolist()  # e_0 = 1; e_1 = (1 + e^{i pi}) / 2 = 0
    [(1+0j), 0j]
    """
    k = np.asarray(offsets, dtype=np.float64)
    th = v.array("thetas", thetas, ndim=1, dtype="real")
    if weights is None:
        a = np.full(th.size, 1.0 / th.size)
    else:
        a = v.array("weights", weights, ndim=1, dtype="real")
        if a.shape != th.shape:
            raise ValidationError(f"weights must have the shape of thetas {th.shape}, got {a.shape}")
        if (a < 0).any() or a.sum() <= 0:
            raise ValidationError("weights must be non-negative with a positive sum (they are normalised to the simplex)")
        a = a / a.sum()
    e = np.exp(1j * k[..., None] * th) @ a
    e[k == 0] = 1.0
    return e


def spectral_summary(M) -> dict:
    """Spectrum of ``M`` (n, n) and the numbers gu2025 App. B compares.

    Parameters
    ----------
    M : array_like, shape (n, n)
        A logit or position matrix (real or complex).

    Returns
    -------
    dict
        ``eigenvalues`` (real, ascending, when ``M`` is Hermitian; else complex, by modulus),
        ``hermitian``, ``min``, ``max``, ``range`` (``max - min`` of the real parts),
        ``spectral_radius``, ``condition`` (2-norm, ``σ_max/σ_min``; inf when singular),
        ``toeplitz_defect`` and ``softmax_toeplitz_defect`` (of the row softmax of ``Re M``).

    Notes
    -----
    Hermitian input goes through ``eigvalsh`` (backward stable, errors ``~ n u ||M||``);
    otherwise ``eigvals``, whose eigenvalues can be ill-conditioned (non-normal matrices).

    References
    ----------
    gu2025 App. B (the spectra of additive and multiplicative couplings).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> s = coupling.spectral_summary(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> s["hermitian"], round(s["min"], 12), round(s["max"], 12), round(s["condition"], 12)
    (True, 1.0, 3.0, 3.0)
    """
    M = v.square("M", M, dtype="any")
    herm = bool(np.allclose(M, M.conj().T, rtol=0, atol=8 * M.shape[0] * np.finfo(float).eps * max(np.abs(M).max(), 1e-300)))
    if herm:
        ev = np.linalg.eigvalsh((M + M.conj().T) / 2)
        lo, hi = float(ev[0]), float(ev[-1])
    else:
        ev = np.linalg.eigvals(M)
        ev = ev[np.argsort(np.abs(ev))]
        lo, hi = float(ev.real.min()), float(ev.real.max())
    sv = np.linalg.svd(M, compute_uv=False)
    return {
        "eigenvalues": ev,
        "hermitian": herm,
        "min": lo,
        "max": hi,
        "range": hi - lo,
        "spectral_radius": float(np.abs(ev).max()),
        "condition": float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf,
        "toeplitz_defect": tp.toeplitz_defect(M),
        "softmax_toeplitz_defect": tp.toeplitz_defect(softmax.row_softmax(np.real(M))),
    }
