r"""Sequential Representation Complexity (SRC) of a trained model, from its attention maps.

**Reconstruction** (chen2025 names SRC in its abstract only). A model solving an instance of
size ``n`` runs one step per answer token; SRC measures how many *different* positional
relations those steps use. For each layer and head, the attention rows of the answer queries
(averaged over the instances of one size) are written in offset coordinates,
``R[s, o] = mean_b P[b, q_s, q_s - o]`` (query ``q_s`` of step ``s`` looking ``o`` tokens back:
:func:`offset_profile`); a head that applies one relation at every step has identical rows
(rank 1), one whose relation drifts from step to step has many independent rows. Then

.. math:: \mathrm{SRC}(n) = \frac{1}{\#\text{heads}} \sum_{\ell,h} \operatorname{erank}(R_{\ell h}(n)),

with the entropy effective rank ``erank(R) = exp(H(sigma / sum sigma))`` (Roy & Vetterli 2007;
:func:`entropy_rank`), a continuous count that does not need a threshold. chen2025's conjecture
("LG iff SRC invariant across scales") is read as: the model generalises from the training size
to a size ``n'`` iff ``|SRC(n') - SRC(n_train)| / SRC(n_train) <= tau`` (:func:`src_invariance`;
``tau`` is a pre-registered parameter of the claim).

Alternatives considered: a probe's sample complexity per step (needs extra training per model
and size: too slow for a CPU verdict); the number of distinct argmax offsets (brittle when
attention is spread over several keys).
"""

from __future__ import annotations

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError, ValidationTypeError


def entropy_rank(M) -> float:
    """``exp`` of the Shannon entropy of the normalised singular values of ``M`` (>= 1; 0 for M = 0).

    Parameters
    ----------
    M : array_like, shape (m, k)
        A real matrix.

    Returns
    -------
    float
        ``exp(-sum_i p_i log p_i)`` with ``p = sigma / sum(sigma)`` over the nonzero singular values: between
        1 (rank one) and ``min(m, k)`` (all singular values equal); 0 for the zero matrix.

    References
    ----------
    O. Roy and M. Vetterli, "The effective rank: a measure of effective dimensionality", EUSIPCO 2007.

    Examples
    --------
    >>> import numpy as np
    >>> round(entropy_rank(np.ones((3, 3))), 6), round(entropy_rank(np.diag([1.0, 1.0, 0.0])), 6)
    (1.0, 2.0)
    >>> round(entropy_rank(np.diag([3.0, 1.0])), 6)  # unequal singular values: between 1 and 2
    1.754765
    """
    M = v.array("M", M, ndim=2)
    s = np.linalg.svd(M, compute_uv=False)
    total = s.sum()
    if total == 0:
        return 0.0
    p = s[s > 0] / total
    return float(np.exp(-(p * np.log(p)).sum()))


def answer_queries(mask) -> np.ndarray:
    """Query positions that predict answer tokens: columns where every row of ``mask`` (B, T) is 1.

    The splits of :mod:`petheory.nn.tasks` at one test size share these positions.

    Parameters
    ----------
    mask : array_like, shape (B, T)
        Answer mask of a batch: > 0 where the token at that position is predicted as an answer token.

    Returns
    -------
    numpy.ndarray
        The column indices, ascending.

    Raises
    ------
    ValueError
        No column is an answer position in every row (instances of different sizes mixed).

    Examples
    --------
    >>> import numpy as np
    >>> answer_queries(np.array([[0, 1, 1, 0], [0, 1, 1, 1]]))  # column 3 is an answer in one row only
    array([1, 2])
    """
    mask = v.array("mask", mask, ndim=2)
    cols = np.flatnonzero(np.all(mask > 0, axis=0))
    if cols.size == 0:
        raise ValidationError("mask has no column where every instance has an answer token; give one size per split")
    return cols


def offset_profile(P, queries) -> np.ndarray:
    """Attention of the queries in offset coordinates, shape (len(queries), T).

    ``P`` (B, T, T): attention probabilities of one head (rows queries, columns keys).
    ``R[s, o] = mean_b P[b, q_s, q_s - o]`` for ``0 <= o <= q_s``, 0 beyond.

    Parameters
    ----------
    P : array_like, shape (B, T, T)
        Attention probabilities of one head over a batch (rows queries, columns keys).
    queries : array_like of int, shape (S,)
        Query positions in ``0..T-1`` (:func:`answer_queries`), one per step.

    Returns
    -------
    numpy.ndarray, shape (S, T)
        Row ``s``: how much attention query ``q_s`` pays ``o`` tokens back, averaged over the batch.

    Raises
    ------
    ValueError
        ``P`` not (B, T, T), or ``queries`` not a non-empty 1-D integer array within ``0..T-1``.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.zeros((1, 4, 4))
    >>> P[0, :, 0] = 1.0  # every query attends to the first token
    >>> offset_profile(P, np.array([1, 2, 3]))  # the offset drifts with the step
    array([[0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    P = v.array("P", P, ndim=3)
    B, T, T2 = P.shape
    if T != T2:
        raise ValidationError(f"P must be (B, T, T) attention probabilities, got shape {P.shape}")
    q = np.asarray(queries)
    if q.ndim != 1 or q.size == 0 or not np.issubdtype(q.dtype, np.integer) or q.min() < 0 or q.max() >= T:
        raise ValidationError(f"queries must be a non-empty 1-D array of integer positions in 0..{T - 1}, got {queries!r}")
    mean = P.mean(0)  # (T, T)
    R = np.zeros((q.size, T))
    for s, qs in enumerate(q):
        R[s, : qs + 1] = mean[qs, qs::-1]
    return R


def src(probs, queries) -> float:
    """SRC at one size: mean over layers and heads of ``entropy_rank(offset_profile)``.

    ``probs``: a list over layers of (B, H, T, T) attention probabilities (as
    ``Transformer.attention_probs`` returns them, converted to numpy).

    Parameters
    ----------
    probs : list of array_like, each shape (B, H, T, T)
        Attention probabilities, one entry per layer.
    queries : array_like of int, shape (S,)
        The answer query positions (:func:`answer_queries`).

    Returns
    -------
    float
        The mean entropy effective rank of the heads' offset profiles (:func:`offset_profile`,
        :func:`entropy_rank`).

    Raises
    ------
    TypeError
        ``probs`` not a non-empty list or tuple.
    ValueError
        A layer not 4-dimensional, or queries outside the sequence.

    Examples
    --------
    >>> import numpy as np
    >>> prev = np.zeros((1, 4, 4))
    >>> prev[0, np.arange(4), np.maximum(np.arange(4) - 1, 0)] = 1.0  # previous token: one relation, erank 1
    >>> first = np.zeros((1, 4, 4))
    >>> first[0, :, 0] = 1.0  # first token: a new offset at each step, erank 3
    >>> round(src([np.stack([prev, first], axis=1)], np.array([1, 2, 3])), 6)  # mean over the 2 heads
    2.0
    """
    if not isinstance(probs, (list, tuple)) or not probs:
        raise ValidationTypeError("probs must be a non-empty list over layers of (B, H, T, T) arrays")
    ranks = []
    for layer in probs:
        layer = v.array("probs[layer]", layer, ndim=4)
        for h in range(layer.shape[1]):
            ranks.append(entropy_rank(offset_profile(layer[:, h], queries)))
    return float(np.mean(ranks))


def src_invariance(src_train: float, src_test: float, tau: float) -> tuple[bool, float]:
    """``(invariant, relative change)`` with ``invariant = |change| <= tau``.

    Parameters
    ----------
    src_train : float
        SRC at the training size, ``> 0``.
    src_test : float
        SRC at the test size, ``>= 0``.
    tau : float
        Largest relative change still called invariant, ``>= 0`` (pre-registered with the claim).

    Returns
    -------
    invariant : bool
        ``|src_test - src_train| / src_train <= tau``.
    change : float
        The relative change ``|src_test - src_train| / src_train``.

    Examples
    --------
    >>> src_invariance(2.0, 3.0, 0.1)
    (False, 0.5)
    >>> src_invariance(2.0, 2.1, 0.1)[0]
    True
    """
    a = v.real("src_train", src_train, positive=True)
    b = v.real("src_test", src_test, nonnegative=True)
    tau = v.real("tau", tau, nonnegative=True)
    rel = abs(b - a) / a
    return rel <= tau, rel
