r"""Positional distributions: the distribution of tokens at each position of a corpus (cirrincione2026, Prop. 5).

A corpus gives each position :math:`i` a distribution :math:`p_i` over the vocabulary; with additive
(Lidstone) smoothing :math:`p_i(v) = (c_{iv}+\alpha)/(N_i+\alpha V)`. The counts are tallied here from
sequences already in memory (text, token ids) with a tokenize callable; reading a corpus file or a
Hugging Face tokenizer is :mod:`petheory.loaders`' job (``positional_distributions`` hands a path or an
``'hf:DIR'`` spec to it, and never opens a file itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from petheory._validate import Interval, StrOptions, validate_params
from petheory.errors import ValidationError, ValidationTypeError

__all__ = [
    "PositionalDistributions",
    "positional_distributions",
    "builtin_target",
    "BUILTIN_MAX_VOCAB",
    "BUILTIN_MIN_COUNT",
]

@dataclass(frozen=True)
class PositionalDistributions:
    """Token counts per position, from a corpus; rows become distributions on demand.

    Attributes
    ----------
    counts : scipy.sparse.csr_matrix, shape (n, V), int64
        ``counts[i, v]``: how often token ``v`` occurs at position ``i``.
    smoothing : float
        Additive (Lidstone) pseudo-count: :math:`p_i(v) = (c_{iv}+\\alpha)/(N_i+\\alpha V)`.
    vocab : tuple of str or None
        Token of each column (most frequent first), when known.
    observations : ndarray, shape (n,)
        :math:`N_i`, tokens observed at position ``i``.
    min_count : int
        Positions with fewer observations are *sparse*.
    sparse_positions : tuple of int
        Sparse positions kept (``on_sparse='keep'``).
    excluded_from : int or None
        When ``n`` was chosen automatically: the first position left out because it (and maybe
        later ones) had fewer than ``min_count`` observations; ``None`` if nothing was left out.
    excluded_observations : tuple of int
        Observations at positions ``excluded_from, excluded_from+1, ...`` (the longest sequence).
    n_sequences, n_empty, n_tokens : int
        Non-empty sequences used, empty lines skipped, tokens counted (all positions).
    source, tokenizer : str
        Where the corpus came from and how it was tokenised (recorded in results).
    pooled : int
        Positions pooled into the last row (0: none).
    """

    counts: sp.csr_matrix
    smoothing: float
    vocab: tuple | None
    observations: np.ndarray
    min_count: int
    sparse_positions: tuple = ()
    excluded_from: int | None = None
    excluded_observations: tuple = ()
    n_sequences: int = 0
    n_empty: int = 0
    n_tokens: int = 0
    source: str = ""
    tokenizer: str = ""
    pooled: int = 0

    @property
    def n(self) -> int:
        return self.counts.shape[0]

    @property
    def V(self) -> int:
        return self.counts.shape[1]

    @classmethod
    @validate_params({"smoothing": [Interval(Real, 0, None, closed="left")]})
    def from_counts(cls, counts, *, smoothing: float = 0.0, source: str = "counts") -> PositionalDistributions:
        """Wrap an (n, V) matrix of non-negative integer counts (dense or scipy.sparse) already tallied.

        Every row needs an observation unless ``smoothing > 0``.
        """
        C = sp.csr_matrix(counts)
        if C.ndim != 2 or C.shape[0] < 1 or C.shape[1] < 1:
            raise ValidationError(f"counts must be a non-empty 2-D matrix, got shape {C.shape}")
        if C.nnz and (not np.all(np.isfinite(C.data)) or C.data.min() < 0 or np.any(C.data != np.round(C.data))):
            raise ValidationError("counts must be finite non-negative integers")
        C = C.astype(np.int64)
        C.eliminate_zeros()
        obs = np.asarray(C.sum(axis=1)).ravel().astype(np.int64)
        smoothing = float(smoothing)
        if smoothing == 0 and np.any(obs == 0):
            raise ValidationError(
                f"row {int(np.flatnonzero(obs == 0)[0])} of counts has no observation: its distribution is undefined "
                "without smoothing"
            )
        return cls(counts=C, smoothing=smoothing, vocab=None, observations=obs, min_count=1,
                   n_tokens=int(obs.sum()), source=source, tokenizer="counts")

    def probabilities(self):
        """The (n, V) distributions: CSR when ``smoothing == 0``, dense otherwise."""
        N = self.observations.astype(np.float64)
        if self.smoothing == 0:
            P = self.counts.astype(np.float64).tocsr()
            P.data /= np.repeat(N, np.diff(P.indptr))
            return P
        return (self.counts.toarray() + self.smoothing) / (N + self.smoothing * self.V)[:, None]

    def summary(self) -> dict:
        """JSON-able description (no arrays of size V)."""
        return {
            "source": self.source,
            "tokenizer": self.tokenizer,
            "n": self.n,
            "V": self.V,
            "smoothing": self.smoothing,
            "min_count": self.min_count,
            "min_observations": int(self.observations.min()),
            "sparse_positions": list(self.sparse_positions),
            "excluded_from": self.excluded_from,
            "excluded_observations": list(self.excluded_observations),
            "pooled_types": self.pooled,
            "n_sequences": self.n_sequences,
            "n_empty": self.n_empty,
            "n_tokens": self.n_tokens,
        }


def _read_sequences(corpus, tokenize: Callable | None) -> tuple[list, int, str]:
    """Corpus -> (list of token sequences, empty lines skipped, description)."""
    if isinstance(corpus, (str, Path)):
        from petheory.loaders import read_corpus  # a file: petheory.loaders reads it, geometry only counts

        lines, source = read_corpus(corpus), str(Path(corpus))
    elif isinstance(corpus, np.ndarray):
        if corpus.ndim != 2 or not np.issubdtype(corpus.dtype, np.integer):
            raise ValidationTypeError(f"a token-id array corpus must be a 2-D integer array, got {corpus.dtype} shape {corpus.shape}")
        return [row for row in corpus if row.size], 0, f"token ids {corpus.shape}"
    elif isinstance(corpus, Sequence):
        if all(isinstance(x, str) for x in corpus):
            lines, source = list(corpus), f"{len(corpus)} sequences of text"
        else:
            seqs = []
            for k, s in enumerate(corpus):
                if type(s) is np.ndarray and s.dtype == np.int64 and s.ndim == 1:  # ids as a bootstrap passes them
                    seqs.append(s)
                    continue
                a = np.asarray(s)
                if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
                    raise ValidationTypeError(f"corpus[{k}] must be a string or a 1-D sequence of integer token ids, got {a.dtype} shape {a.shape}")
                seqs.append(a.astype(np.int64))
            empty = sum(1 for s in seqs if s.size == 0)
            return [s for s in seqs if s.size], empty, f"{len(seqs)} token-id sequences"
    else:
        raise ValidationTypeError(f"corpus must be a path, a list of strings, or token-id arrays; got {type(corpus).__name__}")
    out, empty = [], 0
    for line in lines:
        toks = tokenize(line) if line.strip() else []
        if len(toks):
            out.append(toks)
        else:
            empty += 1
    return out, empty, source


def _words(seqs) -> list[str] | None:
    """The tokens of ``seqs`` in order when every sequence is a list of ``str``, as a numpy text array would hold them
    (it drops trailing NULs); else None (token ids, tuples, arrays: counted through numpy)."""
    if not all(type(s) is list for s in seqs) or not all(type(w) is str for s in seqs for w in s):
        return None
    return [w.rstrip("\0") if "\0" in w else w for s in seqs for w in s]


def _string_types(flat) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(np.asarray(flat).astype(str), return_inverse=True, return_counts=True)`` for an array or a list of
    words (:func:`_words`), by a dict instead of a sort of the tokens: the distinct types sorted as numpy sorts
    strings (by code point), each token's index among them and their counts. Same arrays, about 3x faster on
    44,000 tokens (the bootstrap of cirrincione2026.alibi_* builds 80 tables)."""
    words = flat.astype(str).tolist() if isinstance(flat, np.ndarray) else flat
    index: dict[str, int] = {}
    seen = np.fromiter((index.setdefault(w, len(index)) for w in words), dtype=np.int64, count=len(words))
    types = sorted(index)
    rank = np.empty(len(types), dtype=np.int64)
    rank[[index[w] for w in types]] = np.arange(len(types))
    inv = rank[seen]
    return np.array(types, dtype=str), inv, np.bincount(inv, minlength=len(types))


def _make_tokenizer(tokenizer, lowercase: bool, add_special_tokens: bool) -> tuple[Callable, int | None, str]:
    if callable(tokenizer):
        return tokenizer, None, getattr(tokenizer, "__name__", "callable")
    if tokenizer == "whitespace":
        fn = (lambda s: s.lower().split()) if lowercase else str.split
        return fn, None, "whitespace" + (" (lowercased)" if lowercase else "")
    if isinstance(tokenizer, str) and tokenizer.startswith("hf:"):
        from petheory.loaders import hf_tokenize  # the tokenizer file is read by petheory.loaders

        fn, vocab_size = hf_tokenize(tokenizer, add_special_tokens=add_special_tokens)
        return fn, vocab_size, tokenizer
    raise ValidationError(f"tokenizer must be 'whitespace', 'hf:DIR' or a callable, got {tokenizer!r}")


@validate_params({
    "n": [Interval(Integral, 1, None), None],
    "smoothing": [Interval(Real, 0, None, closed="left")],
    "min_count": [Interval(Integral, 1, None)],
    "on_sparse": [StrOptions(("error", "keep"))],
    "max_vocab": [Interval(Integral, 1, None), None],
    "lowercase": ["boolean"],
    "add_special_tokens": ["boolean"],
})
def positional_distributions(
    corpus,
    *,
    tokenizer="whitespace",
    n: int | None = None,
    smoothing: float = 0.0,
    min_count: int = 1,
    on_sparse: str = "error",
    max_vocab: int | None = None,
    lowercase: bool = False,
    vocab_size: int | None = None,
    add_special_tokens: bool = True,
    source: str | None = None,
) -> PositionalDistributions:
    r"""Distribution of tokens at each position of a corpus (cirrincione2026, Prop. 5: the positional distributions).

    Parameters
    ----------
    corpus : path, list of str, list of int arrays, or ndarray (m, L) of ints
        A UTF-8 text file with one sequence per line (blank lines are skipped and counted; read by
        :func:`petheory.loaders.read_corpus`), sequences of text, or token ids (position ``k`` of a
        sequence is its ``k``-th token).
    tokenizer : {'whitespace', 'hf:DIR'} or callable
        ``'whitespace'`` splits on white space; ``'hf:DIR'`` loads ``DIR/tokenizer.json``
        with the ``tokenizers`` package through :func:`petheory.loaders.hf_tokenize` (``hf:minilm``
        is the bundled MiniLM tokenizer);
        a callable maps a line to a list of tokens.
    n : int, optional
        Number of positions. Default: the longest prefix of positions that all have at least
        ``min_count`` observations; the positions left out are reported in
        ``excluded_from`` / ``excluded_observations``, never silently dropped.
    smoothing : float
        Additive pseudo-count :math:`\alpha \ge 0` per vocabulary entry.
    min_count : int
        Positions with fewer observations than this are *sparse*.
    on_sparse : {'error', 'keep'}
        With an explicit ``n``: raise if a position below ``n`` is sparse (the message says
        which ``n`` the corpus supports), or keep it and list it in ``sparse_positions``.
    max_vocab : int, optional
        Keep the ``max_vocab`` most frequent types and pool the rest into one ``<other>``
        type; small corpora need this for the distributions not to be sampling noise.
    lowercase : bool
        Lowercase before whitespace tokenisation.
    vocab_size : int, optional
        Vocabulary size V for token-id input (default: largest id + 1, or the HF tokenizer's).
    add_special_tokens : bool
        Passed to a HF tokenizer (``[CLS]`` at position 0 and ``[SEP]`` at the end for BERT),
        as the model sees its input.
    source : str, optional
        How to name the corpus in messages and results (default: its path or a description).

    Returns
    -------
    PositionalDistributions
        Counts ``(n, V)`` (sparse) and everything needed to report how they were obtained.

    Raises
    ------
    ValueError
        Empty corpus; ``n`` beyond the longest sequence; sparse positions with
        ``on_sparse='error'``.

    Notes
    -----
    One pass over the tokens: (position, type) pairs are tallied into a sparse (n, V) matrix,
    so memory is O(tokens + nnz), never O(nV). Estimates are noisy: with :math:`N_i`
    observations over V types, even identical true distributions have an expected squared
    Hellinger distance of order :math:`V/N_i`; pool rare types (``max_vocab``) or raise
    ``min_count`` until that floor is small (``figures/geometry.eigenvalues.png`` shows it as a
    shuffled-words null).

    See Also
    --------
    builtin_target, hellinger_distances

    Examples
    --------
    >>> from petheory import geometry
    >>> P = geometry.positional_distributions(['a b', 'a c', 'b c'])
    >>> P.n
    2
    """
    smoothing, min_count = float(smoothing), int(min_count)
    tokenize, tok_vocab, tok_name = _make_tokenizer(tokenizer, lowercase, add_special_tokens)
    seqs, n_empty, described = _read_sequences(corpus, tokenize)
    source = described if source is None else str(source)
    if not seqs:
        raise ValidationError(f"corpus is empty: {source} has no non-blank sequence ({n_empty} blank lines)")

    lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    words = _words(seqs)  # lists of text tokens (whitespace, most callables): counted without a numpy array
    flat = np.concatenate([np.asarray(s) for s in seqs]) if words is None else None
    pos = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    vocab = None
    if words is None and flat.dtype.kind not in "USO" and not isinstance(corpus, (str, Path)) and not (
        isinstance(corpus, Sequence) and corpus and isinstance(corpus[0], str)
    ):
        tok_name = "token ids"
    if words is not None or flat.dtype.kind in "US" or flat.dtype == object:
        types, inv, cnt = _string_types(flat if words is None else words)
        order = np.lexsort((types, -cnt))  # most frequent first, ties alphabetical
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        ids, vocab, V = rank[inv], tuple(types[order].tolist()), types.size
    else:
        ids = flat.astype(np.int64)
        if ids.size and ids.min() < 0:
            raise ValidationError(f"token ids must be >= 0, found {int(ids.min())}")
        V = int(vocab_size) if vocab_size is not None else (tok_vocab or int(ids.max()) + 1)
        if ids.max() >= V:
            raise ValidationError(f"token id {int(ids.max())} is out of range for vocab_size={V}")
    pooled = 0
    if max_vocab is not None and V > max_vocab:
        freq = np.bincount(ids, minlength=V)
        order = np.lexsort((np.arange(V), -freq))
        rank = np.empty(V, dtype=np.int64)
        rank[order] = np.arange(V)
        labels = vocab if vocab is not None else tuple(str(i) for i in range(V))
        pooled = V - max_vocab
        ids = np.minimum(rank[ids], max_vocab)
        vocab = tuple(labels[i] for i in order[:max_vocab]) + ("<other>",)
        V = max_vocab + 1

    longest = int(lengths.max())
    obs_all = np.bincount(pos, minlength=longest)
    low_all = np.flatnonzero(obs_all < min_count)
    supported = int(low_all[0]) if low_all.size else longest
    excluded_from, excluded_obs, sparse = None, (), ()
    if n is None:
        if supported == 0:
            raise ValidationError(
                f"no position has min_count={min_count} observations (position 0 has {int(obs_all[0])}); lower min_count"
            )
        n = supported
        if n < longest:
            excluded_from, excluded_obs = n, tuple(int(c) for c in obs_all[n:])
    else:
        if n > longest:
            raise ValidationError(
                f"n={n} positions asked for, but the longest sequence in {source} has {longest} tokens; "
                f"the corpus supports n <= {supported} at min_count={min_count}"
            )
        low = low_all[low_all < n]
        if low.size:
            if on_sparse == "error":
                raise ValidationError(
                    f"{low.size} of the first n={n} positions have fewer than min_count={min_count} observations "
                    f"(position {int(low[0])} has {int(obs_all[low[0]])}); the corpus supports n <= {supported}; "
                    "pass a smaller n, a lower min_count, or on_sparse='keep'"
                )
            sparse = tuple(int(i) for i in low)
    obs = obs_all[:n]  # every position below the longest sequence's length has >= 1 observation
    keep = pos < n
    counts = sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.int64), (pos[keep], ids[keep])), shape=(n, V))
    counts.sum_duplicates()
    return PositionalDistributions(
        counts=counts,
        smoothing=smoothing,
        vocab=vocab,
        observations=obs.astype(np.int64),
        min_count=min_count,
        sparse_positions=sparse,
        excluded_from=excluded_from,
        excluded_observations=excluded_obs,
        n_sequences=len(seqs),
        n_empty=n_empty,
        n_tokens=int(lengths.sum()),
        source=source,
        tokenizer=tok_name,
        pooled=pooled,
    )


#: Defaults of the built-in target (documented in :func:`builtin_target`).
BUILTIN_MAX_VOCAB = 48
BUILTIN_MIN_COUNT = 100


def builtin_target(n: int | None = None, *, max_vocab: int = BUILTIN_MAX_VOCAB, min_count: int = BUILTIN_MIN_COUNT) -> PositionalDistributions:
    """Positional distributions of the built-in corpus (:mod:`petheory.data.corpus`).

    305 short film reviews written for petheory, whitespace-tokenised and lowercased; the
    ``max_vocab=48`` most frequent word types are kept and the rest pooled into ``<other>``
    (49 categories), and every position has at least ``min_count=100`` observations, which
    gives ``n = 15`` positions. It is the default target of ``petheory stress`` and of the
    claims that need real text; it is not SST-2 or IMDB.

    Parameters
    ----------
    n : int, optional
        Number of positions. Default: every leading position with at least ``min_count``
        observations (15 with the defaults); a larger ``n`` is refused.
    max_vocab : int, optional
        Most frequent word types kept (default :data:`BUILTIN_MAX_VOCAB`); the rest are pooled into
        ``<other>``.
    min_count : int, optional
        Observations each position needs (default :data:`BUILTIN_MIN_COUNT`).

    Returns
    -------
    PositionalDistributions
        Unsmoothed counts (n, max_vocab + 1), ``source`` ``'builtin:<corpus name>'``.

    Raises
    ------
    ValueError
        ``n`` beyond the positions with ``min_count`` observations (the message says which n the
        corpus supports).

    See Also
    --------
    positional_distributions

    Examples
    --------
    >>> from petheory import geometry
    >>> geometry.builtin_target().n
    15
    >>> P = geometry.builtin_target()
    >>> P.V, P.n_sequences, bool(P.observations.min() >= 100)
    (49, 305, True)
    >>> geometry.builtin_target(max_vocab=10, min_count=50).counts.shape  # a lower floor: more positions
    (16, 11)
    """
    from petheory.data import corpus

    return positional_distributions(
        list(corpus.SENTENCES), n=n, lowercase=True, max_vocab=max_vocab, min_count=min_count,
        source=f"builtin:{corpus.NAME}",
    )
