r"""Target operator families ``{T_n}`` for position-only linear attention (chen2025 reconstruction).

A target at problem size ``n`` is the linear map on the sequence axis that one attention layer
must apply to the token representations, ``Y = T_n X`` (an MLP after it does the rest, e.g. the
``mod 2`` of parity). Only some query rows are *specified* (the rows whose output the task reads);
the others are "don't care". The layouts follow :mod:`petheory.nn.tasks` (``BOS input SEP
answer``), so the theory and the trained models talk about the same positions: the query that
predicts answer token ``k`` sits on the token before it.

``shift`` (``k``, default 1)
    ``Y[i] = X[i-k]`` on ``n`` positions (rows ``i < k`` specified as zero).
``running_sum`` / ``running_mean``
    ``Y[i] = sum_{j<=i} X[j]`` and its mean ``/(i+1)``, on ``n`` positions.
``copy`` / ``reverse``
    ``BOS x_1..x_n SEP y_1..y_n`` (length ``2n+1``, the last answer token predicts EOS and is
    left out): the query at ``n+k`` (SEP for ``k=1``, else ``y_{k-1}``) gathers ``x_k`` (copy)
    or ``x_{n+1-k}`` (reverse).
``parity_cot``
    ``BOS b_1..b_n SEP p_1..p_{n-1}``: the query at ``n+k`` holds ``p_{k-1}`` (SEP stands for
    ``p_0 = 0``) and gathers ``b_k + p_{k-1}``; the MLP takes it mod 2 (one chain-of-thought step).
``addition_cot``
    ``BOS a_1..a_n + b_1..b_n SEP o_1..o_n`` (digits least significant first; the carry is
    carried in the representation of the previous output): the query at ``2n+1+k`` gathers
    ``a_k + b_k + o_{k-1}``.

Every target also carries its *segments* (the index of the last separator token, ``SEP`` or
``+``, at or before each position; 0 before the first) and its *instance scale* ``s`` (the index
of ``SEP``, or ``n`` for the plain operators): what a Scale Hint may tell the model
(:func:`hint_positions`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError, ValidationTypeError

#: The target families :func:`target` builds, by name.
TARGETS = ("copy", "shift", "reverse", "running_sum", "running_mean", "parity_cot", "addition_cot")
HINTS = ("none", "shift", "interp")


@dataclass(frozen=True)
class Target:
    """One operator ``T`` (L, L) with its specified rows (L,) bool, segment starts (L,) and scale.

    Attributes
    ----------
    name : str
        The family's name.
    n : int
        The size L.
    T : numpy.ndarray, shape (L, L)
        The operator.
    rows : numpy.ndarray of bool, shape (L,)
        Which rows the target specifies.
    segment_start : numpy.ndarray, shape (L,)
        Where each position's segment starts.
    scale : int
        The integer scale the operator's entries are multiples of.
    """

    name: str
    n: int
    T: np.ndarray
    rows: np.ndarray
    segment_start: np.ndarray
    scale: int

    @property
    def length(self) -> int:
        return self.T.shape[0]


def _layout(n: int, body: int, seps: list[int]) -> np.ndarray:
    start = np.zeros(body, dtype=np.int64)
    for s in sorted(seps):
        start[s:] = s
    return start


def target(name: str, n: int, *, k: int = 1) -> Target:
    """The target operator ``name`` at problem size ``n`` (see the module docstring).

    Raises ``ValueError`` for an unknown name or ``n < 1`` (``TypeError`` for a non-integer).

    Parameters
    ----------
    name : {'copy', 'shift', 'reverse', 'running_sum', 'running_mean', 'parity_cot', 'addition_cot'}
        The family (:data:`TARGETS`).
    n : int
        Problem size, ``>= 1``.
    k : int, optional
        The shift of ``'shift'``, ``>= 0`` (default 1); other families ignore it.

    Returns
    -------
    Target
        The operator ``T`` (L, L) with ``L = n`` (shift, running sum/mean), ``2n + 1`` (copy, reverse,
        parity) or ``3n + 2`` (addition), its specified rows, segment starts and instance scale.

    Raises
    ------
    ValueError
        An unknown name, ``n < 1`` or ``k < 0``.
    TypeError
        A non-integer ``n`` or ``k``.

    Examples
    --------
    >>> t = target('copy', 2)  # BOS x1 x2 SEP y1
    >>> t.T.astype(int)  # SEP (3) gathers x1, y1 (4) gathers x2
    array([[0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 0, 0, 0, 0],
           [0, 1, 0, 0, 0],
           [0, 0, 1, 0, 0]])
    >>> t.rows, t.scale
    (array([False, False, False,  True,  True]), 3)
    >>> target('shift', 3).T
    array([[0., 0., 0.],
           [1., 0., 0.],
           [0., 1., 0.]])
    """
    v.choice("target", name, TARGETS)
    n = v.integer("n", n, minimum=1)
    if name in ("shift", "running_sum", "running_mean"):
        T = np.zeros((n, n))
        if name == "shift":
            k = v.integer("k", k, minimum=0)
            i = np.arange(k, n)
            T[i, i - k] = 1.0
        else:
            T = np.tril(np.ones((n, n)))
            if name == "running_mean":
                T /= np.arange(1, n + 1)[:, None]
        return Target(name, n, T, np.ones(n, dtype=bool), np.zeros(n, dtype=np.int64), n)
    if name == "addition_cot":
        L, sep = 3 * n + 2, 2 * n + 2
        T = np.zeros((L, L))
        kk = np.arange(1, n + 1)
        q = 2 * n + 1 + kk
        T[q, kk] = 1.0  # a_k
        T[q, n + 1 + kk] = 1.0  # b_k
        T[q, q] += 1.0  # o_{k-1} (SEP stands for the initial carry 0)
        rows = np.zeros(L, dtype=bool)
        rows[q] = True
        return Target(name, n, T, rows, _layout(n, L, [n + 1, sep]), sep)
    L, sep = 2 * n + 1, n + 1
    T = np.zeros((L, L))
    kk = np.arange(1, n + 1)
    q = n + kk
    if name == "copy":
        T[q, kk] = 1.0
    elif name == "reverse":
        T[q, n + 1 - kk] = 1.0
    else:  # parity_cot
        T[q, kk] = 1.0
        T[q, q] = 1.0
    rows = np.zeros(L, dtype=bool)
    rows[q] = True
    return Target(name, n, T, rows, _layout(n, L, [sep]), sep)


def check_target(t) -> Target:
    """Validate a user-built :class:`Target`: square finite ``T``, ``rows`` and segments of length L.

    Parameters
    ----------
    t : Target
        The operator to check.

    Returns
    -------
    Target
        ``t`` itself, unchanged.

    Raises
    ------
    TypeError
        ``t`` is not a :class:`Target`.
    ValueError
        ``T`` not a finite square (L, L) array with ``L >= 1``, or ``rows`` / ``segment_start`` not of
        shape (L,).

    Examples
    --------
    >>> import numpy as np
    >>> t = Target('identity', 2, np.eye(2), np.ones(2, dtype=bool), np.zeros(2, dtype=int), 2)
    >>> check_target(t) is t
    True
    >>> check_target(Target('bad', 2, np.eye(2), np.ones(3, dtype=bool), np.zeros(2, dtype=int), 2))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: target.rows must have shape (2,) to match T, got (3,)
    """
    if not isinstance(t, Target):
        raise ValidationTypeError(f"a target must be a petheory.lengthgen.Target (see target()), got {type(t).__name__}")
    T = v.array("target.T", t.T, ndim=2)
    L = T.shape[0]
    if T.shape != (L, L) or L < 1:
        raise ValidationError(f"target.T must be a square (L, L) operator with L >= 1, got shape {T.shape}")
    for name, arr in (("rows", t.rows), ("segment_start", t.segment_start)):
        if np.shape(arr) != (L,):
            raise ValidationError(f"target.{name} must have shape ({L},) to match T, got {np.shape(arr)}")
    return t


def segments(t: Target) -> np.ndarray:
    """Segment index of each position (0 before the first separator, +1 at each separator), shape (L,).

    Parameters
    ----------
    t : Target
        The operator (:func:`target`), whose ``segment_start`` gives the segments.

    Returns
    -------
    numpy.ndarray, shape (L,)
        The segment index of each position, float64.

    Examples
    --------
    >>> segments(target('addition_cot', 2))  # BOS a1 a2 | + b1 b2 | SEP o1
    array([0., 0., 0., 1., 1., 1., 2., 2.])
    """
    starts = np.unique(t.segment_start)
    return np.searchsorted(starts, t.segment_start).astype(np.float64)


def hint_positions(t: Target, hint: str = "none", *, ref_scale: float = 8.0) -> np.ndarray:
    r"""Positions ``pi(0..L-1)`` that the PE sees under a Scale Hint, shape (L,) float64.

    ``'none'``: ``pi(t) = t``. ``'shift'`` (segment-aligned positions): ``pi(t) = t - start(t)``,
    the offset from the last separator, so step ``k`` of the answer and item ``k`` of every input
    segment sit at the same coordinate whatever ``n`` is; the hint also tells which segment a
    token is in (:func:`segments`; keyed POLA dictionaries then key on the segment distance too,
    since the aligned coordinates of different segments coincide). ``'interp'`` (instance rescaling):
    ``pi(t) = t * ref_scale / s`` with ``s`` the instance scale, so every instance spans the same
    position range (fractional positions). Both tell the model the instance's scale; neither
    looks at token contents beyond the separators.

    Parameters
    ----------
    t : Target
        The operator (:func:`target`): its length, segment starts and instance scale.
    hint : {'none', 'shift', 'interp'}, optional
        The Scale Hint (default ``'none'``).
    ref_scale : float, optional
        The ``'interp'`` hint's reference scale, ``> 0`` (default 8): the instance scale ``s`` maps to it.

    Returns
    -------
    numpy.ndarray, shape (L,)
        The positions ``pi(0..L-1)``, float64.

    Examples
    --------
    >>> t = target('copy', 2)  # BOS x1 x2 SEP y1, SEP at 3
    >>> hint_positions(t)
    array([0., 1., 2., 3., 4.])
    >>> hint_positions(t, 'shift')  # the answer restarts at 0 on SEP
    array([0., 1., 2., 0., 1.])
    >>> hint_positions(t, 'interp', ref_scale=6.0)  # t * 6 / 3
    array([0., 2., 4., 6., 8.])
    """
    v.choice("hint", hint, HINTS)
    idx = np.arange(t.length, dtype=np.float64)
    if hint == "shift":
        return idx - t.segment_start
    if hint == "interp":
        return idx * v.real("ref_scale", ref_scale, positive=True) / t.scale
    return idx
