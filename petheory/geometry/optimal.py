r"""cirrincione2026's MDS-optimal encoding, registered as the encoding ``mds_optimal``.

The encoding is the classical-MDS embedding of a corpus's Hellinger geometry (Algorithm 1), so it
is built from this package's functions and registered here, when :mod:`petheory.geometry` is
imported (``import petheory`` does): the encodings layer below stays free of geometry.
"""

from __future__ import annotations

from functools import lru_cache
from numbers import Integral

import numpy as np

from petheory._validate import Interval, StrOptions, validate_params
from petheory.encodings import register, table_shape
from petheory.geometry.distributions import builtin_target, positional_distributions
from petheory.geometry.hellinger import hellinger_distances
from petheory.geometry.mds import classical_mds
from petheory.errors import ParameterError, ValidationError, ValidationTypeError


@lru_cache(maxsize=8)
def _builtin_mds(min_count: int, max_vocab: int):
    P = builtin_target(min_count=min_count, max_vocab=max_vocab)
    return classical_mds(hellinger_distances(P)), P.n


@register(
    "mds_optimal",
    "absolute",
    conventions="cirrincione2026 Algorithm 1: row p is the classical-MDS coordinate of position p in the Hellinger "
    "geometry of the corpus's positional distributions (corpus=None: petheory's built-in corpus, lowercase, "
    "max_vocab=48, min_count=100 -> 15 positions), first `rank` columns (default min(d, numerical rank)), zeros "
    "after. Only positions the corpus supports have a row: beyond='clamp' (default) reuses the last row past them "
    "(li2025's learned-table convention), beyond='error' raises.",
    source="cirrincione2026 Prop. 5/6, Algorithm 1",
)
@validate_params({"rank": [Interval(Integral, 1, None), None], "min_count": [Interval(Integral, 1, None)],
                  "max_vocab": [Interval(Integral, 1, None)], "beyond": [StrOptions(("clamp", "error"))]})
def mds_optimal(n: int, d: int, *, rank: int | None = None, corpus=None, min_count: int = 100, max_vocab: int = 48,
                beyond: str = "clamp") -> np.ndarray:
    """The MDS-optimal encoding of a corpus, shape (n, d).

    ``corpus``: a sequence of sentences (strings, whitespace-tokenised, lowercased) or None for
    the built-in corpus. Theory code reads no files: pass the sentences, not a path.

    Parameters
    ----------
    n : int
        Positions (rows), at least 1.
    d : int
        Dimensions (columns), at least 1.
    rank : int, optional
        MDS coordinates kept, the first columns; the rest are zeros. Default ``min(d, r)`` with r the
        numerical rank of the corpus's MDS Gram matrix (14 for the built-in corpus).
    corpus : sequence of str, optional
        The sentences whose positional distributions (:func:`positional_distributions`, lowercased)
        give the geometry; None: the built-in corpus (:func:`builtin_target`; its MDS is cached).
    min_count : int, optional
        Observations a position needs to have a row (``positional_distributions``'s ``min_count``).
    max_vocab : int, optional
        Most frequent word types kept; the rest are pooled into one type.
    beyond : {'clamp', 'error'}, optional
        What the rows past the positions the corpus supports are: the last supported row again
        (``'clamp'``), or a ValidationError (``'error'``).

    Returns
    -------
    ndarray, shape (n, d)
        Row p: the classical-MDS coordinates (:func:`classical_mds` of the Hellinger distances) of
        position p, first ``rank`` columns, zeros after.

    Raises
    ------
    ValidationError
        ``rank`` above ``d`` or above the numerical rank, ``n`` beyond the corpus's positions with
        ``beyond='error'``, or a bad ``n``, ``d``, ``min_count``, ``max_vocab`` or ``beyond``.
    ValidationTypeError
        ``corpus`` one string (a path) or not a sequence of strings.

    See Also
    --------
    petheory.geometry.mds.classical_mds, petheory.geometry.induced.encoding_stress

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> encodings.get('mds_optimal')(15, 8).shape
    (15, 8)
    >>> T = encodings.get('mds_optimal')(20, 8)  # the built-in corpus supports 15 positions
    >>> bool((T[15:] == T[14]).all())  # beyond='clamp': rows 15..19 repeat row 14
    True
    >>> T3 = encodings.get('mds_optimal')(15, 8, rank=3)
    >>> bool((T3[:, 3:] == 0).all()), bool(np.allclose(T3[:, :3], T[:15, :3]))
    (True, True)
    >>> encodings.get('mds_optimal')(20, 8, beyond='error')
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: the corpus supports 15 positions (min_count=100) but n=20 were asked for; ...
    """
    n, d = table_shape(n, d)
    min_count, max_vocab = int(min_count), int(max_vocab)
    if corpus is None:
        mds, n_c = _builtin_mds(min_count, max_vocab)
    else:
        if isinstance(corpus, str) or not all(isinstance(s, str) for s in corpus):
            raise ValidationTypeError("corpus must be a sequence of sentences (strings), not a path or one string")
        P = positional_distributions(list(corpus), lowercase=True, max_vocab=max_vocab, min_count=min_count,
                                     source="mds_optimal corpus")
        mds, n_c = classical_mds(hellinger_distances(P)), P.n
    k = min(d, mds.rank) if rank is None else int(rank)
    if k > min(d, mds.rank):
        raise ParameterError("rank", f"<= d = {d} (the encoding's columns)" if k > d else
                             f"<= {mds.rank} (the numerical rank of the corpus's MDS Gram)", rank, owner=mds_optimal)
    table = np.zeros((n_c, d))
    table[:, :k] = mds.embedding[:, :k]
    if n > n_c:
        if beyond == "error":
            raise ValidationError(f"the corpus supports {n_c} positions (min_count={min_count}) but n={n} were asked for; "
                             "pass beyond='clamp' to reuse the last row")
        return table[np.minimum(np.arange(n), n_c - 1)]
    return table[:n]
