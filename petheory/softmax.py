"""The row softmax of attention logits: one definition for the package.

:mod:`petheory.coupling` applies it to logits (gu2025 App. B: the softmax of a Toeplitz matrix),
:mod:`petheory.geometry` to a bias's content-free attention rows (``bias_map='hellinger'``). It lives
in its own module so that neither theory module has to import the other for it.
"""

from __future__ import annotations

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError

__all__ = ["row_softmax"]


def row_softmax(M) -> np.ndarray:
    """Row-wise softmax of a real (n, n) matrix (max-subtracted; ``-inf`` entries allowed as masks).

    Parameters
    ----------
    M : array_like of float, shape (n, n)
        Logits; ``-inf`` masks an entry. Each row needs one finite entry.

    Returns
    -------
    numpy.ndarray
        Row-stochastic, shape (n, n), float64.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.softmax import row_softmax
    >>> row_softmax(np.array([[0.0, 0.0], [0.0, -np.inf]]))
    array([[0.5, 0.5],
           [1. , 0. ]])
    """
    M = v.array("M", M, ndim=2, finite=False)
    if np.isnan(M).any() or np.isposinf(M).any():
        raise ValidationError("M must not contain NaN or +inf")
    if np.isneginf(M).all(axis=1).any():
        raise ValidationError("M has a row that is entirely -inf (nothing to normalise)")
    E = np.exp(M - M.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)
