r"""STRING (ShifTed Rotary position embeddING; An et al., "Why Does the Effective Context Length of LLMs Fall
Short?", arXiv 2410.18745, ICLR 2025): relative positions remapped so that distant tokens use frequent indices.

Training on sequences of length L exposes relative position i only :math:`f(i) = L - i` times (§2.2, Eq. 1), and a
corpus of sequences s gives :math:`f(i) = \sum_s \max(|s| - i, 0)` (Eq. 2): :func:`position_frequency`. STRING
keeps RoPE and replaces the relative position matrix :math:`P[m][n] = m - n` (query m, key n, causal) by

.. math:: P'[m][n] = \begin{cases} P[m][n] - S + W & P[m][n] \ge S \\ P[m][n] & \text{otherwise} \end{cases}

(§4.1, Eq. 4; Eq. 3 is W = 0), S the shift offset :math:`S = L - N` (indices :math:`\ge N` are dropped) and W a
local window: :func:`string_relative_positions`. Its implementation (Algorithm 1) rotates the queries of the
bottom-left triangle at the shifted indices :math:`m - S + W` and the keys at their own
(:func:`string_query_positions`).

STRING is not a registry entry: it gives a query two position indices (one for the keys within S of it, one for the
rest), which no per-position rotary table can hold; it is a remapping of RoPE's relative positions.
"""

from __future__ import annotations

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError

__all__ = ["position_frequency", "string_relative_positions", "string_query_positions"]


def position_frequency(lengths, n: int) -> np.ndarray:
    r"""How often each relative position :math:`0 \le i < n` occurs in causal attention over sequences of the given
    lengths: :math:`f(i) = \sum_s \max(|s| - i, 0)` (An et al., Eq. 2; one sequence of length L: :math:`L - i`, Eq. 1).

    Parameters
    ----------
    lengths : array_like of int, shape (k,)
        Sequence lengths (>= 0).
    n : int
        Number of relative positions counted (>= 1).

    Returns
    -------
    numpy.ndarray, shape (n,)
        Integer counts.

    Examples
    --------
    >>> from petheory.encodings.shifted import position_frequency
    >>> position_frequency([4], 4).tolist()  # one sequence of 4: L - i
    [4, 3, 2, 1]
    >>> position_frequency([2, 3], 3).tolist()
    [5, 3, 1]
    """
    n = v.integer("n", n, minimum=1)
    s = v.array("lengths", lengths, ndim=1)
    if s.size and (not np.all(s >= 0) or not np.all(s == np.round(s))):
        raise ValidationError("lengths must be non-negative integers (sequence lengths in tokens)")
    i = np.arange(n)
    return np.maximum(s.astype(np.int64)[:, None] - i[None, :], 0).sum(axis=0)


def _shift_window(n: int, shift: int, window: int) -> tuple[int, int, int]:
    n = v.integer("n", n, minimum=1)
    shift = v.integer("shift", shift, minimum=1)
    window = v.integer("window", window, minimum=0)
    return n, shift, window


def string_relative_positions(n: int, *, shift: int, window: int = 0) -> np.ndarray:
    r"""STRING's relative position matrix (An et al., Eq. 4; Eq. 3 with ``window=0``), shape (n, n).

    Parameters
    ----------
    n : int
        Sequence length L (>= 1).
    shift : int
        The shift offset S = L - N (>= 1): relative positions :math:`\ge S` move down by S - W.
    window : int
        The local window W (>= 0); the paper uses W = 128, S = L/3.

    Returns
    -------
    numpy.ndarray of int, shape (n, n)
        ``P'[m, k]`` for query m and key k <= m; -1 above the diagonal (keys after the query, masked).

    Examples
    --------
    >>> from petheory.encodings.shifted import string_relative_positions
    >>> string_relative_positions(9, shift=3)[-1].tolist()  # Fig. 5b: the last row of L = 9, N = 6
    [5, 4, 3, 2, 1, 0, 2, 1, 0]
    """
    n, shift, window = _shift_window(n, shift, window)
    m, k = np.indices((n, n))
    r = m - k
    return np.where(r < 0, -1, np.where(r >= shift, r - shift + window, r))


def string_query_positions(n: int, *, shift: int, window: int = 0) -> np.ndarray:
    r"""The position indices STRING's Algorithm 1 gives the queries of the bottom-left triangle:
    :math:`m - S + W` for m = 0..n-1 (line 16; the keys keep 0..n-1), shape (n,).

    Parameters
    ----------
    n : int
        Sequence length (>= 1).
    shift : int
        S (>= 1).
    window : int
        W (>= 0).

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        Negative for the first S - W queries, which the triangle never uses (they have no key S or more behind).

    Examples
    --------
    >>> from petheory.encodings.shifted import string_query_positions
    >>> string_query_positions(6, shift=3, window=1).tolist()
    [-2, -1, 0, 1, 2, 3]
    """
    n, shift, window = _shift_window(n, shift, window)
    return np.arange(n) - shift + window
