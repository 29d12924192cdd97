r"""The geometry of positions (cirrincione2026, Prop. 5/6 and Algorithm 1).

A corpus gives each position :math:`i` a distribution :math:`p_i` over the vocabulary (the
*positional distribution*). The information geometry of positions is the Hellinger distance

.. math:: H(p_i, p_j) = \sqrt{1 - \textstyle\sum_v \sqrt{p_i(v)\,p_j(v)}}
          = \tfrac{1}{\sqrt2}\,\lVert\sqrt{p_i} - \sqrt{p_j}\rVert_2 \in [0, 1],

classical (Torgerson) MDS turns a distance matrix :math:`D` into coordinates through
:math:`B = -\tfrac12 J D^{\circ 2} J` (:math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top`), and the
*stress* measures how well the geometry an encoding induces on positions matches a target.

Pipeline::

    P  = positional_distributions("corpus.txt", n=64)   # (n, V), sparse counts
    D  = hellinger_distances(P)                          # (n, n)
    mds = classical_mds(D, rank=8)                       # embedding (n, 8) + spectrum
    s  = encoding_stress("rope", D, d=64)                # StressReport

The geometry each PE induces on positions (:func:`induced_distances`)
---------------------------------------------------------------------
=================  ==========================================================================
encoding           distance between positions :math:`i` and :math:`j`
=================  ==========================================================================
absolute vectors   Euclidean :math:`\lVert p_i - p_j\rVert_2` of the rows (sinusoidal, learned,
                   any ``(n, d)`` table loaded from ``.npy``/safetensors/a HF model)
RoPE               distance of the rotations: :math:`\lVert R_i - R_j\rVert_F =
                   \sqrt{8\sum_t \sin^2((i-j)\omega_t/2)}` over its frequencies
                   :math:`\omega_t`; it depends on :math:`|i-j|` only. For the same frequencies
                   this is :math:`\sqrt2` times the sinusoidal geometry, so under the
                   scale-free stress-1 RoPE and sinusoidal score *identically*.
bias (ALiBi, ...)  ``bias_map='gap'``: the symmetrised logit gap
                   :math:`\tfrac12(b_{ii}+b_{jj}-b_{ij}-b_{ji})` -- how much less attention key
                   :math:`j` gets than the query's own position. For ALiBi this is the line
                   :math:`m\lvert i-j\rvert`. It must be non-negative; a learned bias (T5
                   buckets, per-offset scalars) can favour another offset over 0, so those use
                   ``bias_map='hellinger'``: the Hellinger distance between the content-free
                   attention rows :math:`\operatorname{softmax}(b_{i\cdot})` and
                   :math:`\operatorname{softmax}(b_{j\cdot})`, always a metric.
user matrix        an ``(n, d)`` table is treated as absolute vectors; an ``(n, n)`` distance
                   matrix can be given directly as a target (:func:`check_distance_matrix`).
=================  ==========================================================================

Conventions: float64, positions ``0..n-1``, every random thing takes a ``seed``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from petheory import _validate as v
from petheory import encodings as enc
from petheory.rounding import eig_rank_tol, numerical_rank
from petheory.rounding import gamma as _gamma

__all__ = [
    "PositionalDistributions",
    "positional_distributions",
    "builtin_target",
    "hellinger_distances",
    "check_distance_matrix",
    "gram_from_distances",
    "MDSResult",
    "classical_mds",
    "hellinger_mds",
    "STRESS_FORMULAS",
    "stress",
    "stress_between",
    "effective_rank",
    "Factorisation",
    "minimal_parametrisation",
    "smacof",
    "euclidean_distances",
    "rotary_distances",
    "bias_distances",
    "induced_distances",
    "StressReport",
    "encoding_stress",
]

#: Below this many positions :func:`classical_mds` uses the dense eigensolver by default.
EXACT_MAX_N = 512
_BLOCK_BYTES = 64 * 2**20  # temporaries per row block in the blocked loops
_CACHE_BYTES = 2**19  # per temporary in the blocked stress of dense/coordinate sources (L2-resident)


def _block_rows(n: int, width: int, copies: int = 4) -> int:
    return int(max(1, min(n, _BLOCK_BYTES // max(1, 8 * width * copies))))


# ============================================================================ distributions


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
    def from_counts(cls, counts, *, smoothing: float = 0.0, source: str = "counts") -> PositionalDistributions:
        """Wrap an (n, V) matrix of non-negative integer counts (dense or scipy.sparse) already tallied.

        Every row needs an observation unless ``smoothing > 0``.
        """
        C = sp.csr_matrix(counts)
        if C.ndim != 2 or C.shape[0] < 1 or C.shape[1] < 1:
            raise ValueError(f"counts must be a non-empty 2-D matrix, got shape {C.shape}")
        if C.nnz and (not np.all(np.isfinite(C.data)) or C.data.min() < 0 or np.any(C.data != np.round(C.data))):
            raise ValueError("counts must be finite non-negative integers")
        C = C.astype(np.int64)
        C.eliminate_zeros()
        obs = np.asarray(C.sum(axis=1)).ravel().astype(np.int64)
        smoothing = v.real("smoothing", smoothing, nonnegative=True)
        if smoothing == 0 and np.any(obs == 0):
            raise ValueError(
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
        path = Path(corpus)
        if not path.is_file():
            raise FileNotFoundError(f"corpus file not found: {path}")
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError as exc:
            raise ValueError(f"corpus {path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        source = str(path)
    elif isinstance(corpus, np.ndarray):
        if corpus.ndim != 2 or not np.issubdtype(corpus.dtype, np.integer):
            raise TypeError(f"a token-id array corpus must be a 2-D integer array, got {corpus.dtype} shape {corpus.shape}")
        return [row for row in corpus if row.size], 0, f"token ids {corpus.shape}"
    elif isinstance(corpus, Sequence):
        if all(isinstance(x, str) for x in corpus):
            lines, source = list(corpus), f"{len(corpus)} sequences of text"
        else:
            seqs = []
            for k, s in enumerate(corpus):
                a = np.asarray(s)
                if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
                    raise TypeError(f"corpus[{k}] must be a string or a 1-D sequence of integer token ids, got {a.dtype} shape {a.shape}")
                seqs.append(a.astype(np.int64))
            empty = sum(1 for s in seqs if s.size == 0)
            return [s for s in seqs if s.size], empty, f"{len(seqs)} token-id sequences"
    else:
        raise TypeError(f"corpus must be a path, a list of strings, or token-id arrays; got {type(corpus).__name__}")
    out, empty = [], 0
    for line in lines:
        toks = tokenize(line) if line.strip() else []
        if len(toks):
            out.append(toks)
        else:
            empty += 1
    return out, empty, source


def _make_tokenizer(tokenizer, lowercase: bool, add_special_tokens: bool) -> tuple[Callable, int | None, str]:
    if callable(tokenizer):
        return tokenizer, None, getattr(tokenizer, "__name__", "callable")
    if tokenizer == "whitespace":
        fn = (lambda s: s.lower().split()) if lowercase else str.split
        return fn, None, "whitespace" + (" (lowercased)" if lowercase else "")
    if isinstance(tokenizer, str) and tokenizer.startswith("hf:"):
        from petheory.loaders import load_hf_tokenizer

        tok, _path = load_hf_tokenizer(tokenizer[3:])

        def fn(s):
            return tok.encode(s, add_special_tokens=add_special_tokens).ids

        return fn, int(tok.get_vocab_size()), tokenizer
    raise ValueError(f"tokenizer must be 'whitespace', 'hf:DIR' or a callable, got {tokenizer!r}")


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
    r"""Distribution of tokens at each position of a corpus.

    Parameters
    ----------
    corpus : path, list of str, list of int arrays, or ndarray (m, L) of ints
        A UTF-8 text file with one sequence per line (blank lines are skipped and counted),
        sequences of text, or token ids (position ``k`` of a sequence is its ``k``-th token).
    tokenizer : {'whitespace', 'hf:DIR'} or callable
        ``'whitespace'`` splits on white space; ``'hf:DIR'`` loads ``DIR/tokenizer.json``
        with the ``tokenizers`` package (``hf:minilm`` is the bundled MiniLM tokenizer);
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
    """
    smoothing = v.real("smoothing", smoothing, nonnegative=True)
    min_count = v.integer("min_count", min_count, minimum=1)
    v.choice("on_sparse", on_sparse, ("error", "keep"))
    if n is not None:
        n = v.integer("n", n, minimum=1)
    if max_vocab is not None:
        max_vocab = v.integer("max_vocab", max_vocab, minimum=1)
    tokenize, tok_vocab, tok_name = _make_tokenizer(tokenizer, lowercase, add_special_tokens)
    seqs, n_empty, described = _read_sequences(corpus, tokenize)
    source = described if source is None else str(source)
    if not seqs:
        raise ValueError(f"corpus is empty: {source} has no non-blank sequence ({n_empty} blank lines)")

    lengths = np.fromiter((len(s) for s in seqs), dtype=np.int64, count=len(seqs))
    flat = np.concatenate([np.asarray(s) for s in seqs])
    pos = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    vocab = None
    if flat.dtype.kind not in "USO" and not isinstance(corpus, (str, Path)) and not (
        isinstance(corpus, Sequence) and corpus and isinstance(corpus[0], str)
    ):
        tok_name = "token ids"
    if flat.dtype.kind in "US" or flat.dtype == object:
        types, inv, cnt = np.unique(flat.astype(str), return_inverse=True, return_counts=True)
        order = np.lexsort((types, -cnt))  # most frequent first, ties alphabetical
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        ids, vocab, V = rank[inv], tuple(types[order].tolist()), types.size
    else:
        ids = flat.astype(np.int64)
        if ids.size and ids.min() < 0:
            raise ValueError(f"token ids must be >= 0, found {int(ids.min())}")
        V = int(vocab_size) if vocab_size is not None else (tok_vocab or int(ids.max()) + 1)
        if ids.max() >= V:
            raise ValueError(f"token id {int(ids.max())} is out of range for vocab_size={V}")
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
            raise ValueError(
                f"no position has min_count={min_count} observations (position 0 has {int(obs_all[0])}); lower min_count"
            )
        n = supported
        if n < longest:
            excluded_from, excluded_obs = n, tuple(int(c) for c in obs_all[n:])
    else:
        if n > longest:
            raise ValueError(
                f"n={n} positions asked for, but the longest sequence in {source} has {longest} tokens; "
                f"the corpus supports n <= {supported} at min_count={min_count}"
            )
        low = low_all[low_all < n]
        if low.size:
            if on_sparse == "error":
                raise ValueError(
                    f"{low.size} of the first n={n} positions have fewer than min_count={min_count} observations "
                    f"(position {int(low[0])} has {int(obs_all[low[0]])}); the corpus supports n <= {supported}; "
                    "pass a smaller n, a lower min_count, or on_sparse='keep' (CLI: --keep-sparse)"
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
    """
    from petheory.data import corpus

    return positional_distributions(
        list(corpus.SENTENCES), n=n, lowercase=True, max_vocab=max_vocab, min_count=min_count,
        source=f"builtin:{corpus.NAME}",
    )


# ============================================================================ Hellinger


@dataclass(frozen=True)
class _Root:
    r"""Square roots of n distributions as ``S + a 1^T``: sparse part plus a per-row floor.

    With smoothing :math:`\sqrt{p_{iv}} = a_i + s_{iv}` where :math:`a_i=\sqrt{\alpha/Z_i}` and
    :math:`s_{iv}` is zero off the observed support, so the Gram :math:`G=\sqrt P\sqrt P^\top`
    is :math:`SS^\top + V a a^\top + a\sigma^\top + \sigma a^\top` (:math:`\sigma = S\mathbf1`)
    without ever forming the dense (n, V) matrix.
    """

    S: object  # ndarray or csr (n, V)
    a: np.ndarray | None
    V: int

    @property
    def n(self) -> int:
        return self.S.shape[0]

    def for_gram(self, budget: int = 256 * 2**20) -> _Root:
        """A copy with a dense S when it fits in ``budget`` bytes: Gram blocks then run on BLAS
        (dense x dense), 10-100x faster than sparse kernels; otherwise self."""
        if sp.issparse(self.S) and self.S.shape[0] * self.S.shape[1] * 8 <= budget:
            return _Root(self.S.toarray(), self.a, self.V)
        return self

    def _sigma(self) -> np.ndarray:
        return np.asarray(self.S.sum(axis=1)).ravel()

    def gram_rows(self, i0: int, i1: int) -> np.ndarray:
        if sp.issparse(self.S):
            # sparse (n, V) times a dense (V, b) block: O(nnz * b), dense output (a sparse x sparse
            # product would build an almost dense result in sparse format, ~10x slower)
            G = np.ascontiguousarray((self.S @ self.S[i0:i1].toarray().T).T)
        else:
            G = self.S[i0:i1] @ self.S.T
        if self.a is not None:
            a, s = self.a, self._sigma()
            G += self.V * np.outer(a[i0:i1], a) + np.outer(a[i0:i1], s) + np.outer(s[i0:i1], a)
        return G

    def diag(self) -> np.ndarray:
        if sp.issparse(self.S):
            g = np.asarray(self.S.multiply(self.S).sum(axis=1)).ravel()
        else:
            g = np.einsum("ij,ij->i", self.S, self.S)
        if self.a is not None:
            g = g + self.V * self.a**2 + 2 * self.a * self._sigma()
        return g

    def gram_matmat(self, X: np.ndarray) -> np.ndarray:
        Y = self.S @ (self.S.T @ X)
        Y = np.asarray(Y)
        if self.a is not None:
            a, s = self.a, self._sigma()
            Y = Y + self.V * np.outer(a, a @ X) + np.outer(a, s @ X) + np.outer(s, a @ X)
        return Y


def _check_probabilities(P, atol) -> tuple[object, float]:
    """Validate (n, V) rows as distributions; returns (float64 matrix, tolerance used)."""
    if sp.issparse(P):
        P = sp.csr_matrix(P)
        if P.ndim != 2 or P.shape[0] == 0 or P.shape[1] == 0:
            raise ValueError(f"P must be a non-empty 2-D matrix, got shape {P.shape}")
        dtype = P.dtype if np.issubdtype(P.dtype, np.floating) else np.float64
        P = P.astype(np.float64)
        if not np.all(np.isfinite(P.data)):
            raise ValueError(f"P must be finite, found {int(np.sum(~np.isfinite(P.data)))} NaN/inf entries")
        vals, rows = P.data, np.repeat(np.arange(P.shape[0]), np.diff(P.indptr))
        sums = np.asarray(P.sum(axis=1)).ravel()
    else:
        raw = np.asarray(P) if not isinstance(P, (str, bytes)) else P
        dtype = raw.dtype if isinstance(raw, np.ndarray) and np.issubdtype(raw.dtype, np.floating) else np.float64
        P = v.array("P", P, ndim=2)
        vals, rows = P.ravel(), np.repeat(np.arange(P.shape[0]), P.shape[1])
        sums = P.sum(axis=1)
    if vals.size and vals.min() < 0:
        k = int(np.argmin(vals))
        raise ValueError(f"P has negative entries (min {vals[k]:.3g} in row {rows[k]}); probabilities must be >= 0")
    V = P.shape[1]
    # sum of V rounded quotients c_v/N: |fl(sum) - 1| <= gamma_{V+1} in the dtype the rows were made in
    tol = _gamma(V + 1, dtype) if atol is None else v.real("atol", atol, nonnegative=True)
    dev = np.abs(sums - 1.0)
    if dev.max() > tol:
        k = int(np.argmax(dev))
        raise ValueError(
            f"rows of P must sum to 1 (tolerance {tol:.2g} = gamma_(V+1) for V={V} in {np.dtype(dtype).name}); "
            f"row {k} sums to {sums[k]!r}; normalise the rows or build them with positional_distributions"
        )
    return P, tol


def _root(P, atol=None) -> _Root:
    if isinstance(P, PositionalDistributions):
        N = P.observations.astype(np.float64)
        C = P.counts.astype(np.float64).tocsr()
        Z = N + P.smoothing * P.V
        rowZ = np.repeat(Z, np.diff(C.indptr))
        if P.smoothing == 0:
            C.data = np.sqrt(C.data / rowZ)
            return _Root(C, None, P.V)
        a = np.sqrt(P.smoothing / Z)
        C.data = np.sqrt((C.data + P.smoothing) / rowZ) - np.repeat(a, np.diff(C.indptr))
        return _Root(C, a, P.V)
    P, _ = _check_probabilities(P, atol)
    if sp.issparse(P):
        S = P.copy()
        S.data = np.sqrt(S.data)
        return _Root(S, None, P.shape[1])
    return _Root(np.sqrt(P), None, P.shape[1])


def hellinger_distances(P, *, atol: float | None = None) -> np.ndarray:
    r"""Hellinger distances between the rows of ``P``, shape (n, n).

    Parameters
    ----------
    P : ndarray (n, V), scipy.sparse matrix (n, V), or PositionalDistributions
        Rows are distributions: non-negative, summing to 1 within ``atol``.
    atol : float, optional
        Tolerance on the row sums. Default :math:`\gamma_{V+1}` in the dtype of ``P``: the
        rounding bound of V quotients summed (Higham 2002, Lemma 3.1).

    Returns
    -------
    ndarray, shape (n, n)
        :math:`H_{ij} = \sqrt{(G_{ii}+G_{jj})/2 - G_{ij}}` with :math:`G = \sqrt P \sqrt P^\top`;
        symmetric, zero diagonal, entries in [0, 1].

    Notes
    -----
    Computed through the square-root Gram matrix in row blocks, so the temporaries stay at
    about 64 MiB whatever n and V (the output is n x n). Sparse rows are densified for BLAS
    when the (n, V) root fits in 256 MiB, and stay sparse otherwise; smoothing is handled as a
    per-row floor (:class:`_Root`), never densified.
    Caveat: the squared distance is a difference of Gram entries, with absolute error about
    :math:`\gamma_V`; distances between nearly identical distributions below
    :math:`\sqrt{\gamma_V}\approx 10^{-8}\sqrt V` are not resolved (they may come out 0).
    """
    root = _root(P, atol).for_gram()
    n = root.n
    g = root.diag()
    D = np.empty((n, n))
    b = _block_rows(n, max(n, root.V), copies=3)
    for i0 in range(0, n, b):
        i1 = min(n, i0 + b)
        D2 = 0.5 * (g[i0:i1, None] + g[None, :]) - root.gram_rows(i0, i1)
        np.sqrt(np.maximum(D2, 0.0, out=D2), out=D[i0:i1])
    D += D.T  # the two triangles come from different dot products: make the result exactly symmetric
    D *= 0.5
    np.fill_diagonal(D, 0.0)
    return D


def check_distance_matrix(D, name: str = "D", *, atol: float | None = None) -> np.ndarray:
    r"""Validate a distance matrix and return it exactly symmetric with a zero diagonal.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Finite, non-negative, symmetric, zero diagonal (within ``atol``).
    atol : float, optional
        Default :math:`\sqrt{\gamma_{n+1}}\max D`: distances of n points are realisable in
        n-1 dimensions, so a squared distance computed from coordinates or a Gram matrix
        carries an error up to :math:`\gamma_{n+1}\max D^2`, i.e. :math:`\sqrt{\gamma_{n+1}}
        \max D` on the distance itself.

    Returns
    -------
    ndarray, shape (n, n)
    """
    D = v.square(name, D, finite=False)
    lo, scale = float(D.min()), float(D.max())
    if not (math.isfinite(lo) and math.isfinite(scale)):  # min/max propagate NaN and reach +-inf: one pass, no mask
        v.square(name, D)  # raises the finiteness error
    n = D.shape[0]
    if n < 2:
        raise ValueError(f"{name} must have at least 2 positions, got shape {D.shape}")
    if lo < 0:
        i, j = np.unravel_index(int(np.argmin(D)), D.shape)
        raise ValueError(f"{name} has a negative distance {name}[{i},{j}] = {D[i, j]:.3g}; distances must be >= 0")
    tol = math.sqrt(_gamma(n + 1)) * scale if atol is None else v.real("atol", atol, nonnegative=True)
    if np.abs(np.diag(D)).max() > tol:
        i = int(np.argmax(np.abs(np.diag(D))))
        raise ValueError(f"{name} must have a zero diagonal, got {name}[{i},{i}] = {D[i, i]:.3g}")
    exact, t = True, 16
    buf = np.empty((n, min(t, n)))  # reused: no allocation (and page faults) per block
    for i0 in range(0, n, t):  # row strip i0:i0+t right of the diagonal against its mirror column strip
        up = D[i0 : i0 + t, i0:]
        blk = buf[: n - i0, : up.shape[0]]
        np.copyto(blk, up.T)  # (n - i0, t): the transposed strip, contiguous, cache-resident
        blk -= D[i0:, i0 : i0 + t]
        m = float(np.abs(blk, out=blk).max())
        exact &= m == 0.0
        if m > tol:
            jj, ii = np.unravel_index(int(np.argmax(blk)), blk.shape)
            i, j = i0 + ii, i0 + jj
            raise ValueError(
                f"{name} must be symmetric: {name}[{i},{j}] = {D[i, j]:.6g} but {name}[{j},{i}] = {D[j, i]:.6g} "
                f"(tolerance {tol:.2g})"
            )
    if exact and not np.any(np.diag(D)):
        return D  # already exactly symmetric with a zero diagonal: no copy
    D = 0.5 * (D + D.T)
    np.fill_diagonal(D, 0.0)
    return D


# ============================================================================ classical MDS


def gram_from_distances(D) -> np.ndarray:
    r"""The double-centred matrix :math:`B = -\tfrac12 J D^{\circ2} J`, shape (n, n).

    :math:`B` is positive semidefinite exactly when ``D`` is Euclidean (Schoenberg 1935), and
    then :math:`B = XX^\top` for centred coordinates :math:`X`. Always :math:`B\mathbf 1 = 0`.
    """
    D = check_distance_matrix(D)
    D2 = D * D
    r = D2.mean(axis=1)
    B = D2
    B -= r[:, None]
    B -= r[None, :]
    B += r.mean()
    B *= -0.5
    return B


@dataclass(frozen=True)
class MDSResult:
    """Classical MDS of n positions.

    Attributes
    ----------
    embedding : ndarray, shape (n, rank)
        :math:`X = U_r\\Lambda_r^{1/2}` (each column's sign fixed: largest entry positive).
    eigenvalues : ndarray, shape (m,)
        Eigenvalues of B, descending: all n (``method='eigh'``) or the top ``m`` computed.
    rank : int
        Columns kept: positive eigenvalues above ``tol * max|lambda|``, at most the rank asked.
    requested_rank : int or None
    method : {'eigh', 'lanczos'}
    tol : float
        Relative threshold under which an eigenvalue counts as zero.
    negative : ndarray
        Eigenvalues below ``-tol * max|lambda|`` (D not Euclidean); complete only if
        ``complete``.
    truncated : ndarray
        Positive eigenvalues above the threshold that were not kept (``method='eigh'``).
    trace : float
        :math:`\\operatorname{tr} B = \\sum_i \\lambda_i`.
    frobenius : float or None
        :math:`\\lVert B\\rVert_F`; ``None`` where it was too costly to compute.
    complete : bool
        Whether the whole spectrum is known.
    """

    embedding: np.ndarray
    eigenvalues: np.ndarray
    rank: int
    requested_rank: int | None
    method: str
    tol: float
    negative: np.ndarray
    truncated: np.ndarray
    trace: float
    frobenius: float | None
    complete: bool

    @property
    def strain(self) -> float | None:
        r""":math:`\lVert B - XX^\top\rVert_F = \sqrt{\sum_{i>r}\lambda_i^2}` (Eckart--Young);
        from :math:`\lVert B\rVert_F` when the spectrum is incomplete (None if unknown)."""
        if self.complete:
            return float(np.sqrt(np.sum(self.eigenvalues[self.rank :] ** 2)))
        if self.frobenius is None:
            return None
        kept = self.eigenvalues[: self.rank]
        return float(np.sqrt(max(self.frobenius**2 - np.sum(kept**2), 0.0)))

    def summary(self) -> dict:
        lam_max = float(np.max(np.abs(self.eigenvalues))) if self.eigenvalues.size else 0.0
        return {
            "rank": self.rank,
            "requested_rank": self.requested_rank,
            "method": self.method,
            "eigenvalues_kept": self.eigenvalues[: self.rank].tolist(),
            "n_negative": int(self.negative.size) if self.complete else None,
            "most_negative": float(self.negative.min()) if self.negative.size else 0.0,
            "negative_mass": float(np.abs(self.negative).sum()),
            "n_truncated": int(self.truncated.size),
            "truncated_mass": float(self.truncated.sum()),
            "lambda_max": lam_max,
            "trace": self.trace,
            "strain": self.strain,
            "complete_spectrum": self.complete,
        }


def _fix_signs(U: np.ndarray) -> np.ndarray:
    idx = np.argmax(np.abs(U), axis=0)
    s = np.sign(U[idx, np.arange(U.shape[1])])
    s[s == 0] = 1.0
    return U * s


def _result_from_eigh(w, U, rank, tol_rel, trace, frob) -> MDSResult:
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    thr = tol_rel * max(float(np.max(np.abs(w))), np.finfo(float).tiny)
    npos = numerical_rank(w, thr, positive=True)
    r = npos if rank is None else min(rank, npos)
    X = _fix_signs(U[:, :r]) * np.sqrt(w[:r])
    return MDSResult(X, w, r, rank, "eigh", tol_rel, w[w < -thr], w[r:npos], trace, frob, True)


def _top_eigs(matmat, n: int, k: int, seed, tol: float = 1e-10, matvec=None) -> tuple[np.ndarray, np.ndarray]:
    from scipy.sparse.linalg import LinearOperator, eigsh

    tol = v.real("tol", tol, nonnegative=True)
    if matvec is None:
        matvec = lambda x: matmat(x.reshape(n, 1)).ravel()  # noqa: E731
    op = LinearOperator((n, n), matvec=matvec, matmat=matmat, dtype=np.float64)
    v0 = v.generator(seed).standard_normal(n)
    w, U = eigsh(op, k=k, which="LA", v0=v0, tol=tol, ncv=min(n, max(2 * k + 1, 20)))
    return w, U


def _result_from_top(w, U, rank, tol_rel, trace, frob) -> MDSResult:
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    scale = max(float(np.max(np.abs(w))), np.finfo(float).tiny)
    if frob is not None:
        scale = max(scale, frob / math.sqrt(U.shape[0]))  # |lambda_max| >= ||B||_F / sqrt(n)
    thr = tol_rel * scale
    r = numerical_rank(w, thr, positive=True)
    X = _fix_signs(U[:, :r]) * np.sqrt(w[:r])
    return MDSResult(X, w, r, rank, "lanczos", tol_rel, np.empty(0), np.empty(0), trace, frob, False)


def classical_mds(D, rank: int | None = None, *, method: str = "auto", seed=0, tol: float = 1e-10) -> MDSResult:
    r"""Classical (Torgerson) MDS of a distance matrix; cirrincione2026 Algorithm 1.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Distances (validated by :func:`check_distance_matrix`).
    rank : int, optional
        Number of coordinates r. ``None`` keeps every positive eigenvalue (exact solver).
    method : {'auto', 'eigh', 'lanczos'}
        ``'eigh'``: dense symmetric eigensolver, all n eigenvalues, O(n^3).
        ``'lanczos'``: the top ``rank`` eigenpairs by implicitly restarted Lanczos (ARPACK
        ``eigsh``) on the double-centred operator, O(n^2) per product, B never formed.
        ``'auto'``: ``'eigh'`` when ``rank`` is None or ``n <= 512``, else ``'lanczos'``.
    seed : int or numpy.random.Generator
        Starting vector of Lanczos (the result does not depend on it beyond rounding).
    tol : float
        Lanczos stopping criterion: residual :math:`\lVert Bu-\theta u\rVert \le tol\,|\theta|`.
        Eigenvalues are then accurate to about :math:`\lVert r\rVert^2/\mathrm{gap}` (far below
        ``tol``), eigenvectors to :math:`\lVert r\rVert/\mathrm{gap}`; ``0`` asks for full precision.

    Returns
    -------
    MDSResult
        Embedding (n, r), eigenvalues, and what was discarded (negative and truncated
        eigenvalues, and the strain :math:`\lVert B-XX^\top\rVert_F` this leaves).

    Notes
    -----
    With :math:`B = -\tfrac12 J D^{\circ2} J = U\Lambda U^\top`, the embedding is
    :math:`X = U_r\Lambda_r^{1/2}` over the r largest positive eigenvalues. By Eckart--Young it
    minimises the *strain* :math:`\lVert B - XX^\top\rVert_F` over all (n, r) configurations
    whenever the kept eigenvalues are positive; it does **not** in general minimise Kruskal
    stress (see :func:`smacof`). Negative eigenvalues mean D is not Euclidean; they cannot be
    reproduced by any real encoding and are reported, not kept.
    The Lanczos path applies :math:`Bx = -\tfrac12(D^{\circ2}x - r\,\mathbf 1^\top x -
    \mathbf 1\,r^\top x + \bar r\,\mathbf 1\mathbf 1^\top x)` with the row means r of
    :math:`D^{\circ2}` (a symmetric ``dsymv`` that reads one triangle of the stored
    :math:`D^{\circ2}`, so each product streams n^2/2 numbers; memory 2 n^2 floats: D and its
    square). It needs more products (slower) when :math:`\lambda_r \approx \lambda_{r+1}`, as
    in a flat sampling-noise floor. The ``lambda_{r+1}..`` not computed are summarised by
    ``trace`` and ``frobenius`` (closed form :math:`\lVert JAJ\rVert_F^2 = \lVert A\rVert_F^2
    - 2n\lVert r\rVert^2 + n^2\bar r^2`); the strain derived from them cancels when the kept
    eigenvalues carry almost all of :math:`\lVert B\rVert_F`. An eigenvalue is treated as zero
    below :math:`\gamma_{17n}\max|\lambda|` (forming B plus the eigensolver's backward error).
    """
    D = check_distance_matrix(D)
    n = D.shape[0]
    if rank is not None:
        rank = v.integer("rank", rank, minimum=1, maximum=n)
    v.choice("method", method, ("auto", "eigh", "lanczos"))
    if method == "auto":
        method = "eigh" if rank is None or n <= EXACT_MAX_N or rank >= n - 1 else "lanczos"
    if method == "lanczos" and (rank is None or rank >= n - 1):
        raise ValueError(f"method='lanczos' needs a rank below n-1={n - 1}; use method='eigh' for the full spectrum")
    tol_rel = eig_rank_tol(n)
    D2 = D * D
    if method == "eigh":
        from scipy.linalg import eigh

        B = gram_from_distances(D)
        w, U = eigh(B)
        return _result_from_eigh(w, U, rank, tol_rel, float(np.trace(B)), float(np.linalg.norm(B)))
    r = D2.mean(axis=1)
    rbar = float(r.mean())
    from scipy.linalg import blas

    D2T = D2.T  # D2 is symmetric: its transpose is the Fortran-ordered view dsymv reads without a copy

    def matmat(X):
        s = X.sum(axis=0)
        if X.shape[1] == 1:
            return matvec(X[:, 0])[:, None]
        return -0.5 * (D2 @ X - np.outer(r, s) - (r @ X)[None, :] + rbar * s[None, :])

    def matvec(x):  # symmetric matrix-vector product reads one triangle: half the memory traffic
        x = np.ascontiguousarray(x.ravel())
        s = float(x.sum())
        y = blas.dsymv(-0.5, D2T, x)
        y += (0.5 * s) * r
        y += 0.5 * (float(r @ x) - rbar * s)
        return y

    # ||J A J||_F^2 = ||A||_F^2 - 2n||r||^2 + n^2 rbar^2 for symmetric A = D^2 with row means r
    flat = D2.ravel()
    frob2 = max(0.25 * (float(flat @ flat) - 2 * n * float(r @ r) + n * n * rbar * rbar), 0.0)
    w, U = _top_eigs(matmat, n, rank, seed, tol, matvec)
    return _result_from_top(w, U, rank, tol_rel, n * rbar / 2.0, math.sqrt(frob2))


def hellinger_mds(P, rank: int, *, seed=0, atol: float | None = None, tol: float = 1e-10) -> MDSResult:
    r"""Top-``rank`` classical MDS of the Hellinger distances of ``P``, without forming them.

    Parameters
    ----------
    P : ndarray (n, V), scipy.sparse (n, V), or PositionalDistributions
    rank : int
        Number of coordinates, ``1 <= rank < n - 1``.
    seed, tol
        As in :func:`classical_mds`.

    Returns
    -------
    MDSResult
        As :func:`classical_mds` with ``method='lanczos'``.

    Notes
    -----
    For Hellinger distances :math:`D^{\circ 2} = \tfrac12(g\mathbf1^\top + \mathbf1 g^\top) - G`
    with :math:`G=\sqrt P\sqrt P^\top`, so :math:`B = -\tfrac12 JD^{\circ2}J = \tfrac12 JGJ`:
    classical MDS of Hellinger distances is PCA of the square-root distributions, B is
    positive semidefinite (Hellinger is Euclidean: no negative eigenvalues ever), and a product
    with B costs two sparse products with :math:`\sqrt P` -- O(nnz), never O(n^2).
    Memory is O(nnz + n * rank). ``frobenius`` is computed when the centred (n, V) root fits
    in 256 MiB (via the V x V Gram), else left ``None``.
    """
    root = _root(P, atol)
    n = root.n
    rank = v.integer("rank", rank, minimum=1, maximum=max(1, n - 2))

    def matmat(X):
        Xc = X - X.mean(axis=0)
        Y = root.gram_matmat(Xc)
        return 0.5 * (Y - Y.mean(axis=0))

    g = root.diag()
    ones = np.ones((n, 1))
    trace = 0.5 * (g.sum() - float((ones.T @ root.gram_matmat(ones)).item()) / n)
    frob = None
    if n * root.V * 8 <= 256 * 2**20 and root.V <= 8192:
        R = root.S.toarray() if sp.issparse(root.S) else np.array(root.S)
        if root.a is not None:
            R += root.a[:, None]
        R -= R.mean(axis=0)
        frob = 0.5 * float(np.linalg.norm(R.T @ R))
    w, U = _top_eigs(matmat, n, rank, seed, tol)
    return _result_from_top(w, U, rank, eig_rank_tol(n), float(trace), frob)


# ============================================================================ stress


STRESS_FORMULAS = {
    "stress1": "sqrt( sum_{i<j} (D_ij - s*E_ij)^2 / sum_{i<j} D_ij^2 ), s* = sum D_ij E_ij / sum E_ij^2 "
    "(Kruskal stress-1 with the optimal scale; D target, E encoding distances; = sine of the angle between D and E)",
    "raw": "sum_{i<j} (D_ij - E_ij)^2 (raw stress, no scaling; D target, E encoding distances)",
    "strain": "|| B_D - B_E ||_F, B_M = -1/2 J M^2 J (strain; for coordinates X, B_E = (JX)(JX)^T)",
}
STRESS_KINDS = tuple(STRESS_FORMULAS)


class _DenseRows:
    def __init__(self, D):
        self.D, self.n = D, D.shape[0]

    def rows(self, i0, i1):
        return self.D[i0:i1]


#: Below this fraction of |x_i|^2 + |x_j|^2 a Gram-based squared distance is recomputed from differences.
_CANCEL = 1e-3


class _CoordRows:
    r"""Distances between the rows of centred coordinates, by BLAS Gram blocks with exact repair.

    :math:`\lVert x_i-x_j\rVert^2 = |x_i|^2+|x_j|^2-2x_i\cdot x_j` has absolute error
    :math:`\le 2\gamma_{k+2}(|x_i|^2+|x_j|^2)`; where the result is below ``_CANCEL`` times that
    scale (close points, the diagonal) it is recomputed from differences, so every squared distance
    has relative error at most :math:`2\gamma_{k+2}/10^{-3}` (about 2e-12 for k = 8).
    A block is one GEMM of the augmented rows :math:`[x_i, |x_i|^2, 1]` against
    :math:`[-2x_j, 1, |x_j|^2]` (same error bound); rows are screened for repair by their smallest
    off-diagonal entry, so the elementwise test runs only on rows that may need it.
    """

    def __init__(self, X):
        # The Gram blocks use centred rows (smaller |x|^2, smaller cancellation); the exact repair of
        # close pairs uses the original rows: centring rounds each coordinate by ~u|x|, which would cost
        # a relative error of u|x|/|x_i - x_j| on exactly the pairs the repair is for.
        self.X0 = X
        self.X = X - X.mean(axis=0)
        self.n = X.shape[0]
        self.sq = np.einsum("ij,ij->i", self.X, self.X)
        one = np.ones((self.n, 1))
        # |x_i - x_j|^2 = [x_i, |x_i|^2, 1] . [-2 x_j, 1, |x_j|^2]: one GEMM per block, no n-wide temporaries
        self._L = np.hstack([self.X, self.sq[:, None], one])
        self._R = np.ascontiguousarray(np.hstack([-2.0 * self.X, one, self.sq[:, None]]).T)
        self._sqmax = float(self.sq.max()) if self.n else 0.0
        self._buf = None

    def rows(self, i0, i1):
        """Distances of rows i0:i1 to all rows; the block is a reused buffer, overwritten by the next call."""
        Xb, sq, b = self.X0[i0:i1], self.sq, i1 - i0
        if self._buf is None or self._buf.shape[0] < b:
            self._buf = np.empty((b, self.n))  # reused: a fresh large block per call costs page faults
        D2 = np.matmul(self._L[i0:i1], self._R, out=self._buf[:b])
        diag = (np.arange(b), np.arange(i0, i1))
        D2[diag] = np.inf  # screen rows by their smallest off-diagonal entry (one cheap reduction)
        # D2_ij <= _CANCEL (|x_i|^2 + |x_j|^2) implies D2_ij <= _CANCEL (|x_i|^2 + max_j |x_j|^2)
        r = np.flatnonzero(D2.min(axis=1) <= _CANCEL * (sq[i0:i1] + self._sqmax))
        D2[diag] = 0.0
        if r.size:
            ci, bj = np.nonzero(D2[r] <= _CANCEL * (sq[i0 + r][:, None] + sq[None, :]))
            bi = r[ci]
            for c in range(0, bi.size, 1 << 20):  # bounded temporaries
                I, J = bi[c : c + (1 << 20)], bj[c : c + (1 << 20)]
                diff = Xb[I] - self.X0[J]
                D2[I, J] = np.einsum("ij,ij->i", diff, diff)
        return np.sqrt(D2, out=D2)  # every D2 <= 0 was recomputed from differences above


class _RootRows:
    def __init__(self, root: _Root):
        root = root.for_gram()
        self.root, self.n, self.g = root, root.n, root.diag()
        self.width = max(root.n, root.V)  # a row block also holds its dense (b, V) square roots

    def rows(self, i0, i1):
        D2 = 0.5 * (self.g[i0:i1, None] + self.g[None, :]) - self.root.gram_rows(i0, i1)
        D = np.sqrt(np.maximum(D2, 0.0, out=D2), out=D2)
        D[np.arange(i1 - i0), np.arange(i0, i1)] = 0.0
        return D


def _source(M, name: str, coords: bool):
    if isinstance(M, (_DenseRows, _CoordRows, _RootRows)):
        return M
    if isinstance(M, PositionalDistributions):
        return _RootRows(_root(M))
    if coords:
        X = v.array(name, M, ndim=(1, 2))
        return _CoordRows(X.reshape(-1, 1) if X.ndim == 1 else X)
    return _DenseRows(check_distance_matrix(M, name))


def _stress(E, T, kind: str) -> float:
    """Stress between the encoding distances E and the target T (row-block sources)."""
    v.choice("kind", kind, STRESS_KINDS)
    if E.n != T.n:
        raise ValueError(f"the encoding has {E.n} positions but the target has {T.n}; they must match")
    n = E.n
    b = _block_rows(n, max(getattr(E, "width", n), getattr(T, "width", n)), copies=6)
    if not isinstance(E, _RootRows) and not isinstance(T, _RootRows):
        b = min(b, max(8, _CACHE_BYTES // (8 * n)))  # cache-resident row blocks: every pass stays in L2
    blocks = [(i0, min(n, i0 + b)) for i0 in range(0, n, b)]
    if kind == "strain":
        rE, rT = np.empty(n), np.empty(n)
        for i0, i1 in blocks:
            rE[i0:i1] = (E.rows(i0, i1) ** 2).mean(axis=1)
            rT[i0:i1] = (T.rows(i0, i1) ** 2).mean(axis=1)
        mE, mT = rE.mean(), rT.mean()
        acc = 0.0
        for i0, i1 in blocks:
            BE = -0.5 * (E.rows(i0, i1) ** 2 - rE[i0:i1, None] - rE[None, :] + mE)
            BT = -0.5 * (T.rows(i0, i1) ** 2 - rT[i0:i1, None] - rT[None, :] + mT)
            acc += float(np.sum((BT - BE) ** 2))
        return math.sqrt(acc)
    if kind == "raw":
        return 0.5 * sum(float(np.sum((T.rows(i0, i1) - E.rows(i0, i1)) ** 2)) for i0, i1 in blocks)
    tt = ee = te = 0.0
    for i0, i1 in blocks:
        Tb, Eb = T.rows(i0, i1), E.rows(i0, i1)
        tt += float(np.einsum("ij,ij->", Tb, Tb))
        ee += float(np.einsum("ij,ij->", Eb, Eb))
        te += float(np.einsum("ij,ij->", Tb, Eb))
    if tt == 0:
        raise ValueError("the target distances are all zero: stress-1 is undefined")
    if ee == 0:
        return 1.0  # an encoding that puts every position at one point: best scale s* = 0
    s2 = 1.0 - te * te / (tt * ee)
    if s2 < 1e-6:
        # 1 - cos^2 cancels when the fit is close: recompute the residual directly
        s = te / ee
        s2 = sum(float(np.sum((T.rows(i0, i1) - s * E.rows(i0, i1)) ** 2)) for i0, i1 in blocks) / tt
    return math.sqrt(min(max(s2, 0.0), 1.0))


def stress(X, D, *, kind: str = "stress1") -> float:
    r"""Stress of coordinates ``X`` against target distances ``D``.

    Parameters
    ----------
    X : array_like, shape (n, k)
        Coordinates of the n positions (an absolute encoding, an MDS embedding).
    D : array_like (n, n) or PositionalDistributions
        Target distances, or distributions whose Hellinger distances are the target (then
        computed in blocks, never stored: usable at n = 32768).
    kind : {'stress1', 'raw', 'strain'}
        ``'stress1'`` (default), Kruskal stress-1 with the optimal scale factor:

        .. math:: \sigma_1 = \min_{s}\sqrt{\frac{\sum_{i<j}(D_{ij} - s E_{ij})^2}
                  {\sum_{i<j} D_{ij}^2}}, \qquad s^* = \frac{\sum D_{ij}E_{ij}}{\sum E_{ij}^2},

        with :math:`E_{ij} = \lVert x_i - x_j\rVert`; equivalently
        :math:`\sigma_1 = \sin\angle(D, E)`, so it is symmetric in D and E, scale-free, and in
        [0, 1] (1 when E is constant zero). ``'raw'``: :math:`\sum_{i<j}(D_{ij}-E_{ij})^2`.
        ``'strain'``: :math:`\lVert B_D - (JX)(JX)^\top\rVert_F` with
        :math:`B_D = -\tfrac12 JD^{\circ2}J`.

    Returns
    -------
    float

    Notes
    -----
    Sums run over row blocks: cache-sized ones (about 512 KiB per temporary, reused, so no
    allocation per block) when both sides are in memory, about 64 MiB when the target is
    computed from distributions. Stress-1 uses
    :math:`1-\cos^2`, which cancels for near-perfect fits; below :math:`\sigma_1^2 = 10^{-6}`
    the residual is recomputed directly in a second pass. Encoding distances come from BLAS Gram
    blocks of the centred coordinates, with every squared distance below 1e-3 of its scale
    (close points, where the Gram formula cancels) recomputed from differences: relative error
    at most :math:`2\gamma_{k+2}\cdot 10^3`.
    """
    return _stress(_source(X, "X", True), _source(D, "D", False), kind)


def stress_between(E, D, *, kind: str = "stress1") -> float:
    """Stress between two distance matrices: encoding distances ``E`` and target ``D``, both (n, n).

    Same formulas as :func:`stress`; ``D`` may also be a PositionalDistributions.
    """
    return _stress(_source(E, "E", False), _source(D, "D", False), kind)


# ============================================================================ rank, factorisation


def effective_rank(B, tol: float | None = None, *, positive: bool = False) -> int:
    r"""Number of eigenvalues of symmetric ``B`` above ``tol`` times the largest modulus.

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
    ``numpy.linalg.eigvalsh`` on the symmetrised matrix (O(n^3)); pass eigenvalues already
    computed (e.g. ``classical_mds(D).eigenvalues``) to skip it. Eigenvalues within the
    threshold of zero are not resolved: the count near the threshold is not stable under
    rounding, so use a threshold well above it when the spectrum decays smoothly.
    """
    arr = v.array("B", B, ndim=(1, 2))
    if arr.ndim == 2:
        arr = v.square("B", arr)
        if not np.allclose(arr, arr.T, rtol=0, atol=_gamma(arr.shape[0]) * np.abs(arr).max()):
            raise ValueError("B must be symmetric")
        lam = np.linalg.eigvalsh(0.5 * (arr + arr.T))
    else:
        lam = arr
    tol = eig_rank_tol(lam.size) if tol is None else v.real("tol", tol, nonnegative=True)
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


def minimal_parametrisation(P, rank: int | None = None, *, tol: float | None = None) -> Factorisation:
    r"""The minimal parametrisation :math:`P = UV^\top` of an encoding (cirrincione2026).

    Parameters
    ----------
    P : array_like, shape (n, d)
        An encoding table (e.g. an MDS embedding padded to d, or learned positions).
    rank : int, optional
        Rank r of the factorisation; default the numerical rank (singular values above
        ``tol * sigma_max``, ``tol`` default :math:`\gamma_{\max(n,d)+1}`).

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
    """
    P = v.array("P", P, ndim=2)
    n, d = P.shape
    U, s, Vt = np.linalg.svd(P, full_matrices=False)
    if rank is None:
        t = _gamma(max(n, d) + 1) if tol is None else v.real("tol", tol, nonnegative=True)
        r = numerical_rank(s, t * s[0]) if s[0] > 0 else 0
    else:
        r = v.integer("rank", rank, minimum=0, maximum=min(n, d))
    Uf, Vf = U[:, :r] * s[:r], Vt[:r].T
    meas = float(np.linalg.norm(P - Uf @ Vf.T))
    norm = float(np.linalg.norm(P))
    return Factorisation(
        Uf, Vf, r, n * d, r * (n + d), float(np.sqrt(np.sum(s[r:] ** 2))), meas, meas / norm if norm else 0.0, s
    )


def smacof(D, X0, *, n_iter: int = 300, rtol: float = 1e-10) -> np.ndarray:
    r"""Refine coordinates by SMACOF (Guttman transforms), which lowers raw stress.

    Parameters
    ----------
    D : array_like, shape (n, n)
        Target distances.
    X0 : array_like, shape (n, k)
        Start (e.g. the classical MDS embedding).
    n_iter : int
        Maximum number of Guttman transforms.
    rtol : float
        Stop when raw stress decreases by less than this fraction.

    Returns
    -------
    ndarray, shape (n, k)

    Notes
    -----
    De Leeuw's majorisation: :math:`X \leftarrow \tfrac1n B(X)X` with
    :math:`B(X)_{ij} = -D_{ij}/E_{ij}` (0 where :math:`E_{ij}=0`), :math:`B_{ii} = -\sum_{j\ne i}
    B_{ij}`; raw stress never increases. Used to show that classical MDS is not
    stress-optimal (cirrincione2026.hellinger_mds_optimal). O(n^2 k) per iteration.
    """
    D = check_distance_matrix(D)
    X = v.array("X0", X0, ndim=2).copy()
    if X.shape[0] != D.shape[0]:
        raise ValueError(f"X0 has {X.shape[0]} positions but D has {D.shape[0]}")
    n = D.shape[0]
    n_iter = v.integer("n_iter", n_iter, minimum=0)

    def raw(E):
        return 0.5 * float(np.sum((D - E) ** 2))

    from scipy.spatial.distance import cdist

    E = cdist(X, X)
    prev = raw(E)
    for _ in range(n_iter):
        with np.errstate(divide="ignore", invalid="ignore"):
            R = np.where(E > 0, D / E, 0.0)
        Bm = -R
        Bm[np.diag_indices(n)] = R.sum(axis=1)
        X = Bm @ X / n
        E = cdist(X, X)
        cur = raw(E)
        if prev - cur <= rtol * max(prev, np.finfo(float).tiny):
            break
        prev = cur
    return X


# ============================================================================ induced geometry


def euclidean_distances(X) -> np.ndarray:
    """Euclidean distances between the rows of an (n, d) encoding, shape (n, n)."""
    from scipy.spatial.distance import cdist

    X = v.array("X", X, ndim=2)
    D = cdist(X, X)
    np.fill_diagonal(D, 0.0)
    return D


def rotary_distances(table) -> np.ndarray:
    r"""Distance between the rotations of RoPE positions, shape (n, n).

    Parameters
    ----------
    table : petheory.encodings.RotaryTable
        Angles ``(n, r/2)``; ``angles[p, t] = p * omega_t``.

    Returns
    -------
    ndarray, shape (n, n)
        :math:`\lVert R_i - R_j\rVert_F = \sqrt{8\sum_t\sin^2(\tfrac12(\theta_{it}-\theta_{jt}))}`.

    Notes
    -----
    :math:`R_i^\top R_j = R_{j-i}`, so this is the distance of the rotation kernel; it is
    the isotropic average :math:`\sqrt{r\,\mathbb E_q\lVert R_iq - R_jq\rVert^2}` over unit q,
    and :math:`\sqrt2` times the Euclidean distance of sinusoidal features with the same
    frequencies. The half-angle sine form avoids the cancellation of :math:`1-\cos`.
    A table with an additive absolute part (RoPE + absolute, ``table.additive``) is the pair
    :math:`(R_p, PE_p)`: :math:`\sqrt{\lVert R_i-R_j\rVert_F^2 + \lVert PE_i-PE_j\rVert^2}`.
    xPos's and YaRN's scales are not part of this geometry (it is the rotations').
    """
    ang = np.asarray(table.angles, dtype=np.float64)  # (n, r/2)
    n, h = ang.shape
    D = np.empty((n, n))
    b = _block_rows(n, n * max(h, 1), copies=2)
    for i0 in range(0, n, b):  # row blocks: (b, n, r/2) temporaries of about 64 MiB
        diff = ang[i0 : i0 + b, None, :] - ang[None, :, :]
        D[i0 : i0 + b] = np.sqrt(2.0 * np.sum(enc.chord_sq(diff), axis=2))  # ||R_i - R_j||_F^2 = 2 sum_t chord^2
    additive = getattr(table, "additive", None)  # RoPE + absolute (encodings_modern): the pair (R_p, PE_p)
    if additive is not None:
        D = np.sqrt(D**2 + euclidean_distances(additive) ** 2)
    return D


BIAS_MAPS = ("gap", "hellinger")


def bias_distances(B, bias_map: str = "gap") -> np.ndarray:
    r"""Distance between positions induced by an attention logit bias, shape (n, n).

    Parameters
    ----------
    B : array_like, shape (n, n)
        Bias ``B[i, j]`` of query i and key j (one head; no causal mask folded in).
    bias_map : {'gap', 'hellinger'}
        ``'gap'``: :math:`\tfrac12(B_{ii}+B_{jj}-B_{ij}-B_{ji})`, the symmetrised logit gap;
        for ALiBi :math:`-m|i-j|` it is the line :math:`m|i-j|`. Must be non-negative.
        ``'hellinger'``: Hellinger distance between the attention rows
        :math:`\operatorname{softmax}(B_{i\cdot})`, :math:`\operatorname{softmax}(B_{j\cdot})`;
        always a metric, the choice for learned biases (T5 buckets, per-offset scalars).

    Raises
    ------
    ValueError
        ``'gap'`` on a bias that rates some other key above the query's own position.

    Notes
    -----
    The gap map need not satisfy the triangle inequality for an arbitrary bias (then B of
    :func:`classical_mds` has negative eigenvalues, which are reported). The softmax rows are
    shifted by their maximum before exponentiation, so large biases do not overflow; a row
    whose bias spans more than ~745 underflows to exact zeros, which Hellinger handles.
    """
    B = v.square("B", B)
    v.choice("bias_map", bias_map, BIAS_MAPS)
    if bias_map == "hellinger":
        from petheory.coupling import row_softmax  # the one softmax of the package

        return hellinger_distances(row_softmax(B))
    dg = np.diag(B)
    G = 0.5 * (dg[:, None] + dg[None, :] - B - B.T)
    tol = _gamma(4) * float(np.abs(B).max())  # four operands, one rounding each
    if G.min() < -tol:
        i, j = np.unravel_index(int(np.argmin(G)), G.shape)
        raise ValueError(
            f"bias_map='gap' gives a negative distance {G[i, j]:.3g} at ({i},{j}): the bias favours another key over "
            "the query's own position (as a learned bias may); use bias_map='hellinger'"
        )
    G = np.maximum(G, 0.0)
    np.fill_diagonal(G, 0.0)
    return G


#: Default bias map per registered bias encoding (others: 'gap').
DEFAULT_BIAS_MAP = {"alibi": "gap", "t5": "hellinger", "relative": "hellinger"}


def induced_distances(encoding, n: int | None = None, d: int | None = None, *, bias_map: str | None = None, **params):
    r"""The distances an encoding induces on positions ``0..n-1``.

    Parameters
    ----------
    encoding : str, ndarray (N, d), or RotaryTable
        A registered name (``petheory encodings`` lists them), a loaded table of absolute
        vectors (``n`` <= N rows are used), or a rotary table.
    n, d : int
        Positions and model dimension (``d`` is ignored for bias encodings, and taken from a
        table's columns, where ``d`` must match if given).
    bias_map : {'gap', 'hellinger'}, optional
        For bias encodings; default per encoding (``DEFAULT_BIAS_MAP``: ALiBi 'gap', T5 and
        learned relative 'hellinger').
    **params
        Passed to the registered encoding function (``base``, ``slope``, ...).

    Returns
    -------
    D : ndarray, shape (n, n)
    geometry : str
        A one-line description of the geometry used (recorded in results).
    """
    from petheory import encodings as enc

    if isinstance(encoding, enc.RotaryTable):
        if n is not None and n != encoding.angles.shape[0]:
            raise ValueError(f"the rotary table has {encoding.angles.shape[0]} positions, n={n} asked for")
        return rotary_distances(encoding), "rotary: ||R_i - R_j||_F over its frequencies"
    if isinstance(encoding, str):
        info = enc.info(encoding)
        if n is None:
            raise ValueError(f"n is required for the named encoding {encoding!r}")
        _require_distances(v.integer("n", n, minimum=1))
        if info.kind == "bias":
            bm = bias_map or DEFAULT_BIAS_MAP.get(encoding, "gap")
            desc = {"gap": "logit gap (B_ii+B_jj-B_ij-B_ji)/2", "hellinger": "Hellinger between softmax attention rows"}[bm]
            return bias_distances(info.fn(n, **params), bm), f"bias {encoding}: {desc}"
        if d is None:
            raise ValueError(f"d is required for the {info.kind} encoding {encoding!r}")
        if info.kind == "rotary":
            return rotary_distances(info.fn(n, d, **params)), f"rotary {encoding}: ||R_i - R_j||_F over its frequencies"
        return euclidean_distances(info.fn(n, d, **params)), f"absolute {encoding}: Euclidean distance of the vectors"
    X = v.array("encoding", encoding, ndim=2)
    N, dd = X.shape
    if d is not None and d != dd:
        raise ValueError(f"the encoding table has d={dd} columns but d={d} was given")
    if n is None:
        n = N
    if n > N:
        raise ValueError(f"the encoding table has {N} positions but n={n} were asked for")
    _require_distances(n)
    return euclidean_distances(X[:n]), f"absolute table ({N}, {dd}): Euclidean distance of the first {n} rows"


def _require_distances(n: int) -> None:
    """Refuse an (n, n) distance matrix (and the Gram, MDS and stress work on it) that cannot fit."""
    from petheory import _memory

    _memory.require(_memory.array_bytes(n, n, itemsize=4 * 8), f"distance geometry of n = {n} positions (dense n x n)",
                    alternative="use a smaller n")


#: encoding_stress computes the full spectrum of the target (numerical rank) up to this n ...
FULL_SPECTRUM_MAX_N = 2048
#: ... and beyond it the top min(rank or LARGE_N_RANK, d) eigenpairs by Lanczos.
LARGE_N_RANK = 32


@dataclass(frozen=True)
class StressReport:
    """The stress of one encoding against one target, and the optimal encoding's numbers.

    ``params_full``/``params_min`` describe the optimal (MDS) encoding of the target as an
    (n, d) table: ``n*d`` entries, or ``rank*(n+d)`` in the minimal parametrisation.
    ``mds_stress`` is the stress of the rank-``rank`` classical MDS encoding (the reference
    the paper calls optimal).
    """

    stress: float
    kind: str
    n: int
    d: int
    rank: int
    params_full: int
    params_min: int
    encoding: str
    geometry: str
    target: str
    mds_stress: float
    mds: dict
    target_details: dict = field(default_factory=dict)

    @property
    def stress_formula(self) -> str:
        return STRESS_FORMULAS[self.kind]

    def as_dict(self) -> dict:
        return {
            "stress": self.stress,
            "stress_formula": self.stress_formula,
            "kind": self.kind,
            "n": self.n,
            "d": self.d,
            "rank": self.rank,
            "params_full": self.params_full,
            "params_min": self.params_min,
            "encoding": self.encoding,
            "geometry": self.geometry,
            "target": self.target,
            "mds_stress": self.mds_stress,
            "mds": self.mds,
            "target_details": self.target_details,
        }


def target_distances(target, n: int | None = None) -> tuple[np.ndarray, str, dict]:
    """Target -> (distances (n, n), description, details). Accepts distributions or a distance matrix."""
    if isinstance(target, PositionalDistributions):
        if n is not None and n > target.n:
            raise ValueError(
                f"the target has n={target.n} positions (what the corpus supports at min_count={target.min_count}); "
                f"n={n} asks for more"
            )
        _require_distances(target.n)
        D = hellinger_distances(target)
        desc, details = f"hellinger:{target.source}", target.summary()
    else:
        D = check_distance_matrix(target, "target")
        desc, details = f"distances ({D.shape[0]}, {D.shape[0]})", {}
        if n is not None and n > D.shape[0]:
            raise ValueError(f"the target distance matrix has {D.shape[0]} positions; n={n} asks for more")
    if n is not None:
        D = D[:n, :n]
    return D, desc, details


def encoding_stress(
    encoding,
    target,
    *,
    n: int | None = None,
    d: int | None = None,
    kind: str = "stress1",
    rank: int | None = None,
    bias_map: str | None = None,
    name: str | None = None,
    target_name: str | None = None,
    **params,
) -> StressReport:
    r"""Stress of an encoding against a target geometry.

    Parameters
    ----------
    encoding : str, ndarray (N, d), or RotaryTable
        As in :func:`induced_distances`.
    target : PositionalDistributions or ndarray (n, n)
        Positional distributions (Hellinger geometry) or a distance matrix.
    n : int, optional
        Positions compared (default: all of the target's; fewer takes the first n).
    d : int, optional
        Model dimension: required for named absolute/rotary encodings, read from a table;
        for bias encodings it only sizes ``params_full``/``params_min`` (default 64).
    kind : {'stress1', 'raw', 'strain'}
        See :func:`stress`.
    rank : int, optional
        Rank of the optimal (MDS) encoding; default its numerical rank (positive
        eigenvalues above :math:`\gamma_{17n}\lambda_{max}`), capped at d. Beyond
        ``FULL_SPECTRUM_MAX_N = 2048`` positions only the top ``rank`` (default 32) eigenpairs are
        computed (Lanczos), so the default rank is then at most 32.
    bias_map : {'gap', 'hellinger'}, optional
        See :func:`bias_distances`.
    name, target_name : str, optional
        How to call the encoding and the target in the report.

    Returns
    -------
    StressReport

    Notes
    -----
    The target's Hellinger distances are formed densely (n x n), then the encoding's
    geometry (:func:`induced_distances`) is compared by :func:`stress_between`; the optimal
    encoding is the classical MDS of the target (full ``eigh`` up to 2048 positions). For
    larger n use :func:`hellinger_mds` and :func:`stress` with a PositionalDistributions
    target, which never store n x n.
    """
    from petheory import encodings as enc

    Dt, tdesc, tdetails = target_distances(target, n)
    n = Dt.shape[0]
    if isinstance(encoding, str) and d is None and enc.info(encoding).kind == "bias":
        d = 64
    if isinstance(encoding, np.ndarray) or (not isinstance(encoding, (str, enc.RotaryTable)) and hasattr(encoding, "__array__")):
        encoding = v.array("encoding", encoding, ndim=2)
        if d is None:
            d = encoding.shape[1]
    if isinstance(encoding, enc.RotaryTable) and d is None:
        d = encoding.d
    De, geometry = induced_distances(encoding, n, d, bias_map=bias_map, **params)
    value = stress_between(De, Dt, kind=kind)
    if rank is not None:
        rank = v.integer("rank", rank, minimum=1)
    if n <= FULL_SPECTRUM_MAX_N:
        mds = classical_mds(Dt)
    else:  # the numerical rank needs all n eigenvalues: O(n^3); keep the top ones instead
        mds = classical_mds(Dt, rank=min(rank or LARGE_N_RANK, d, n - 2))
    r_opt = mds.rank if rank is None else min(rank, mds.rank)
    r_opt = min(r_opt, d)
    X = mds.embedding[:, :r_opt]
    mds_value = stress(X, Dt, kind=kind)
    label = name or (encoding if isinstance(encoding, str) else "table")
    summary = mds.summary()
    summary.pop("eigenvalues_kept")
    summary["eigenvalues"] = mds.eigenvalues.tolist()
    return StressReport(
        stress=value,
        kind=kind,
        n=n,
        d=int(d),
        rank=int(r_opt),
        params_full=int(n * d),
        params_min=int(r_opt * (n + d)),
        encoding=str(label),
        geometry=geometry,
        target=target_name or tdesc,
        mds_stress=mds_value,
        mds=summary,
        target_details=tdetails,
    )
