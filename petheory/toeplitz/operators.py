r"""Toeplitz operators: validated data, the dense matrix, the FFT matvec, and Toeplitz-ness.

Convention (gu2025 Definition 3.1, SciPy): ``T[i, j] = a_{i-j}``, first column ``c`` =
``a_0 .. a_{N-1}``, first row ``r`` = ``a_0, a_{-1}, ..``; ``r`` omitted means Hermitian. How far any
matrix is from Toeplitz (:func:`toeplitz_projection`, :func:`toeplitz_defect`) and the Toeplitz
column of a position Gram ``P P^T`` (gu2025 Remark 3.2: exactly Toeplitz for sinusoidal PE) live
here too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy  # scipy.fft loads at its first use (scipy's lazy submodules): report and --help never use it
import scipy.linalg as sla
from scipy.sparse.linalg import LinearOperator

from petheory import _validate as v
from petheory.rounding import gamma as _gamma
from petheory.toeplitz._common import _U, _WORKERS, _is_hermitian, _need_dense, _need_fft
from petheory.errors import ValidationError


# ----------------------------------------------------------------------------- coefficients


def coefficients(c, r=None, *, hermitian: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Validate Toeplitz data and return ``(c, r)`` as float64 or complex128 arrays, shape (N,).

    Parameters
    ----------
    c : array_like, shape (N,)
        First column ``a_0, a_1, ..., a_{N-1}``; real or complex, finite, non-empty.
    r : array_like, shape (N,), optional
        First row ``a_0, a_{-1}, ...``. Default ``conj(c)`` (Hermitian). ``r[0]`` is the same
        entry as ``c[0]`` and must equal it.
    hermitian : bool
        Require ``T`` to be Hermitian: ``c[0]`` real and ``r == conj(c)``.

    Returns
    -------
    (c, r) : tuple of numpy.ndarray
        The column and the row, shape (N,) each, float64 (real data) or complex128.

    Raises
    ------
    ValueError, TypeError
        Empty, non-1-D, NaN/inf, ``len(r) != len(c)``, ``r[0] != c[0]``, or non-Hermitian data
        where Hermitian is required.

    See Also
    --------
    dense, operator

    Examples
    --------
    >>> from petheory import toeplitz
    >>> c, r = toeplitz.coefficients([2.0, 1.0, 0.5])
    >>> r  # Hermitian by default: the row is the conjugate column
    array([2. , 1. , 0.5])
    """
    c = v.array("c", c, ndim=1, dtype="any")
    if r is None:
        if hermitian and np.iscomplexobj(c) and c[0].imag != 0:
            raise ValidationError(
                f"c[0] must be real for a Hermitian Toeplitz matrix (it is the diagonal, c[0] = conj(r[0])); got {c[0]}"
            )
        r = np.conj(c)
        if np.iscomplexobj(c):
            r[0] = c[0]
        return c, r
    r = v.array("r", r, ndim=1, dtype="any")
    if r.shape != c.shape:
        raise ValidationError(f"r must have the same length as c ({c.shape[0]}), got {r.shape[0]}")
    if hermitian:
        scale = float(np.max(np.abs(c)))
        tol = 4 * _U * scale
        if abs(c[0].imag) > tol or abs(r[0] - np.conj(c[0])) > tol:
            raise ValidationError(
                f"c[0] != conj(r[0]) (got c[0]={c[0]}, r[0]={r[0]}): a Hermitian Toeplitz matrix has a real diagonal"
            )
        bad = np.abs(r - np.conj(c))
        if np.max(bad) > tol:
            k = int(np.argmax(bad))
            raise ValidationError(
                f"Toeplitz data is not Hermitian: r[{k}]={r[k]} != conj(c[{k}])={np.conj(c[k])}; "
                "this needs a Hermitian matrix (omit r, or pass r = conj(c))"
            )
        c = hermitian_part(c)
        r = np.conj(c)
        return c, r
    if r[0] != c[0]:
        raise ValidationError(f"c[0] != r[0] (got {c[0]} and {r[0]}): both are the diagonal entry a_0")
    if np.iscomplexobj(r) and not np.iscomplexobj(c):
        c = c.astype(np.complex128)
    if np.iscomplexobj(c) and not np.iscomplexobj(r):
        r = r.astype(np.complex128)
    return c, r


def hermitian_part(c, r=None) -> np.ndarray:
    r"""First column of the Hermitian part :math:`(T + T^H)/2` of the Toeplitz matrix with first column ``c``.

    With a first row ``r`` the column is :math:`(c + \bar r)/2`; without one, ``c`` is read as a Hermitian
    matrix's column and only its diagonal entry :math:`a_0` is made real (the imaginary part a rounding or a
    generator left there). Either way the diagonal is exactly real.

    Parameters
    ----------
    c : array_like, shape (n,)
        First column.
    r : array_like, shape (n,), optional
        First row.

    Returns
    -------
    numpy.ndarray, shape (n,)
        A new array.

    Examples
    --------
    >>> hermitian_part(np.array([1 + 1j, 2j]), np.array([1 + 1j, 0])).tolist()
    [(1+0j), 1j]
    >>> hermitian_part([3 + 1e-17j, 1j]).tolist()
    [(3+0j), 1j]
    """
    c = np.asarray(c)
    out = (c + np.conj(np.asarray(r))) / 2 if r is not None else c.copy()
    if np.iscomplexobj(out):
        out[0] = out[0].real
    return out


def dense(c, r=None) -> np.ndarray:
    """The Toeplitz matrix ``T[i, j] = a_{i-j}``, shape (N, N).

    Parameters
    ----------
    c, r : array_like, shape (N,)
        First column and first row (default ``r = conj(c)``: Hermitian).

    Returns
    -------
    ndarray, shape (N, N)
        float64 when ``c`` and ``r`` are real, complex128 otherwise.

    See Also
    --------
    operator : the same matrix as an FFT matvec.
    coefficients

    Examples
    --------
    >>> from petheory import toeplitz
    >>> toeplitz.dense([2.0, 1.0, 0.5])
    array([[2. , 1. , 0.5],
           [1. , 2. , 1. ],
           [0.5, 1. , 2. ]])
    """
    c, r = coefficients(c, r)
    _need_dense(c.shape[0], np.result_type(c, r).itemsize, "dense Toeplitz matrix")
    return sla.toeplitz(c, r)


# ----------------------------------------------------------------------------- FFT operator


class ToeplitzOperator(LinearOperator):
    """``T`` as a :class:`scipy.sparse.linalg.LinearOperator` with an FFT matvec, shape (N, N).

    Build with :func:`operator`. ``T @ x`` for ``x`` of shape (N,) or (N, m) costs two FFTs of
    length ``L >= 2N - 1`` per column; the transform of the embedding is computed once.

    Parameters
    ----------
    c : numpy.ndarray, shape (N,)
        First column of ``T``.
    r : numpy.ndarray, shape (N,)
        First row of ``T`` (``r[0]`` is ignored: ``c[0]`` is the diagonal).

    Notes
    -----
    ``T`` is embedded in the circulant ``C`` of order ``L`` whose first column is
    ``[c, 0, ..., 0, r[N-1], ..., r[1]]``; ``C`` is diagonalised by the DFT, so
    ``T x = (C [x; 0])[:N] = ifft(fft(col) * fft([x; 0]))[:N]``. The result carries a normwise
    error of order ``u log2(L) ||a||_1 ||x||`` (FFT rounding; Higham 2002 §24.1), so entries much
    smaller than that relative to the largest are not resolved — unlike a dense product, whose
    error is componentwise.
    """

    def __init__(self, c: np.ndarray, r: np.ndarray):
        n = c.shape[0]
        self.n = n
        self.c, self.r = c, r
        self.hermitian = _is_hermitian(c, r)
        self._real = not (np.iscomplexobj(c) or np.iscomplexobj(r))
        self.L = scipy.fft.next_fast_len(max(2 * n - 1, 1), real=self._real)
        col = np.zeros(self.L, dtype=np.result_type(c, r))
        col[:n] = c
        if n > 1:
            col[self.L - n + 1 :] = r[1:][::-1]
        self._fhat = scipy.fft.rfft(col, workers=_WORKERS) if self._real else scipy.fft.fft(col, workers=_WORKERS)
        dtype = col.dtype
        del col
        super().__init__(dtype=dtype, shape=(n, n))

    @property
    def embedding_norm(self) -> float:
        """Largest modulus of an eigenvalue of the circulant embedding: the scale of the matvec's rounding error."""
        return float(np.max(np.abs(self._fhat)))

    def apply_rows(self, X: np.ndarray) -> np.ndarray:
        """``T`` applied to each row of ``X`` (shape (m, N)); returns shape (m, N).

        Rows are contiguous, so this is the fast layout for blocks of vectors.
        """
        X = np.asarray(X)
        n, L = self.n, self.L
        if self._real:
            if np.iscomplexobj(X):
                return self.apply_rows(X.real) + 1j * self.apply_rows(X.imag)
            F = scipy.fft.rfft(X, n=L, axis=-1, workers=_WORKERS)
            F *= self._fhat
            return scipy.fft.irfft(F, n=L, axis=-1, workers=_WORKERS)[..., :n]
        F = scipy.fft.fft(X, n=L, axis=-1, workers=_WORKERS)
        F *= self._fhat
        return scipy.fft.ifft(F, axis=-1, workers=_WORKERS, overwrite_x=True)[..., :n]

    def _matvec(self, x):
        return self.apply_rows(np.ravel(x))

    def _matmat(self, X):
        return self.apply_rows(np.asarray(X).T).T

    def _adjoint(self):
        return ToeplitzOperator(np.conj(self.r), np.conj(self.c))

    def to_dense(self) -> np.ndarray:
        """The (N, N) matrix (for testing; :math:`O(N^2)` memory)."""
        return sla.toeplitz(self.c, self.r)


def operator(c, r=None) -> ToeplitzOperator:
    """Toeplitz ``T`` as a LinearOperator with an ``O(N log N)`` FFT matvec.

    Parameters
    ----------
    c, r : array_like, shape (N,)
        First column and first row (default ``r = conj(c)``).

    Returns
    -------
    ToeplitzOperator
        Supports ``T @ x`` for ``x`` of shape (N,) or (N, m), ``T.H``, ``T.apply_rows(X)``
        for ``X`` of shape (m, N), and ``T.to_dense()``.

    Notes
    -----
    Circulant embedding of order ``L = next_fast_len(2N-1)`` with the transform of the embedding
    cached; see :class:`ToeplitzOperator` for the error model. Measured against
    ``scipy.linalg.matmul_toeplitz`` (which re-embeds on every call): 4.5x faster at N=4096, 14x at
    N=65536, 3.9x at :math:`N = 2^{20}` per product (``benchmarks/RESULTS.md``, section toeplitz).

    See Also
    --------
    dense

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> T = toeplitz.operator([2.0, 1.0, 0.5, 0.25])
    >>> x = np.arange(4.0)
    >>> bool(np.allclose(T @ x, toeplitz.dense([2.0, 1.0, 0.5, 0.25]) @ x))
    True
    """
    c, r = coefficients(c, r)
    _need_fft(c.shape[0], 96, "Toeplitz FFT operator")
    return ToeplitzOperator(c, r)


# ----------------------------------------------------------------------------- Toeplitz-ness


def _diagonal_means(A: np.ndarray) -> np.ndarray:
    """Mean of each diagonal k = i - j, ordered k = -(n-1) .. n-1, shape (2n-1,)."""
    n = A.shape[0]
    out = np.empty(2 * n - 1, dtype=A.dtype)
    for k in range(-(n - 1), n):
        out[k + n - 1] = np.trace(A, offset=-k) / (n - abs(k))
    return out


def toeplitz_projection(A) -> np.ndarray:
    """The Toeplitz matrix nearest to ``A`` in Frobenius norm: each diagonal replaced by its mean.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Real or complex.

    Returns
    -------
    ndarray, shape (n, n)

    Notes
    -----
    Toeplitz matrices form a linear subspace spanned by the 0/1 diagonal indicators, which are
    mutually orthogonal in the Frobenius inner product; the orthogonal projection onto it
    averages each diagonal. ``O(n^2)``.

    See Also
    --------
    toeplitz_defect

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> toeplitz.toeplitz_projection(np.diag([1.0, 3.0]))  # diagonal means
    array([[2., 0.],
           [0., 2.]])
    """
    A = v.square("A", A, dtype="any")
    n = A.shape[0]
    means = _diagonal_means(A)
    return sla.toeplitz(means[n - 1 :], means[n - 1 :: -1])


def toeplitz_defect(A, *, relative: bool = True) -> float:
    r"""How far ``A`` is from Toeplitz: :math:`\|A - P(A)\|_F` (over :math:`\|A\|_F` if ``relative``).

    ``P`` is :func:`toeplitz_projection`. ``0`` exactly for Toeplitz matrices; a relative defect
    of 1 means ``A`` is orthogonal to every Toeplitz matrix. A zero matrix has defect 0.

    Parameters
    ----------
    A : array_like, shape (n, n)
    relative : bool

    Returns
    -------
    float

    See Also
    --------
    toeplitz_projection

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import toeplitz
    >>> toeplitz.toeplitz_defect(toeplitz.dense([1.0, 0.5, 0.25]))
    0.0
    >>> toeplitz.toeplitz_defect(np.diag([1.0, 2.0])) > 0
    True
    """
    A = v.square("A", A, dtype="any")
    d = float(np.linalg.norm(A - toeplitz_projection(A)))
    if not relative:
        return d
    nrm = float(np.linalg.norm(A))
    return 0.0 if nrm == 0 else d / nrm


GRAM_DENSE_MAX = 4096  # above this the n x n Gram is never formed


def rounding_defect(n_ops: int, abs_frob: float, frob: float) -> float:
    r"""Largest relative Toeplitz defect that rounding alone can give a computed matrix.

    Entries of an exactly Toeplitz matrix computed with relative error at most
    :math:`\gamma_{k}` each (k = ``n_ops``, e.g. d for the d-term inner products of a Gram)
    differ from the exact ones by :math:`\delta M` with :math:`\lVert\delta M\rVert_F\le
    \gamma_k\lVert\,|M|\,\rVert_F`; the projection is orthogonal, so the defect
    :math:`\lVert M - P(M)\rVert_F \le \lVert\delta M\rVert_F`. ``abs_frob`` bounds
    :math:`\lVert\,|M|\,\rVert_F` (for a Gram :math:`PP^\top`, :math:`\operatorname{tr}M`, since
    :math:`|M_{ij}|\le\lVert p_i\rVert\lVert p_j\rVert`), ``frob`` is :math:`\lVert M\rVert_F`.
    A matrix whose every entry depends on :math:`i-j` alone (a bias built from offsets) has
    defect exactly 0.

    Parameters
    ----------
    n_ops : int
        Operations per entry ``k`` (a d-term inner product: ``d``).
    abs_frob : float
        A bound on :math:`\lVert\,|M|\,\rVert_F`.
    frob : float
        :math:`\lVert M\rVert_F`.

    Returns
    -------
    float
        :math:`\gamma_k\,\text{abs\_frob}/\text{frob}`, with :math:`\gamma_k = ku/(1-ku)` (Higham, *Accuracy and
        Stability of Numerical Algorithms*, Lemma 3.1); 0 when ``frob`` is 0.

    Examples
    --------
    >>> from petheory.toeplitz.operators import rounding_defect
    >>> rounding_defect(64, 1.0, 1.0) < 1e-13
    True
    """
    return 0.0 if frob == 0 else _gamma(max(int(n_ops), 1)) * float(abs_frob) / float(frob)


class NotToeplitzError(ValidationError):
    """A matrix the caller required to be Toeplitz (``project=False``) is not, beyond rounding; its one argument, the
    message, gives the defect."""


@dataclass(frozen=True)
class GramColumn:
    r"""First column of a position Gram :math:`PP^\top` (or of its Toeplitz projection).

    ``defect`` is the relative Toeplitz defect of the Gram (exact up to ``GRAM_DENSE_MAX`` rows,
    else estimated on 64 seeded rows, ``exact=False``), ``tol`` the largest defect rounding can
    explain (:func:`rounding_defect`), ``projected`` whether ``column`` is the projection's.

    Attributes
    ----------
    column : numpy.ndarray, shape (n,)
        The first column.
    defect : float
        Relative Toeplitz defect of the Gram.
    exact : bool
        Whether ``defect`` was computed on the whole Gram (else on 64 seeded rows).
    tol : float
        The largest defect rounding can explain.
    projected : bool
        Whether ``column`` is the Toeplitz projection's.
    """

    column: np.ndarray
    defect: float
    exact: bool
    tol: float
    projected: bool

    @property
    def toeplitz(self) -> bool:
        return self.defect <= self.tol


def gram_toeplitz_column(P, *, project: bool = True) -> GramColumn:
    r"""First column of the Gram ``P P^T`` of a position table, or of its Toeplitz projection.

    Parameters
    ----------
    P : array_like, shape (n, d)
        Position table (rows are positions).
    project : bool
        When the Gram is not Toeplitz beyond rounding: return the projection's column (diagonal
        means) if True, raise ``ValueError`` if False.

    Returns
    -------
    GramColumn
        ``column`` (shape (n,)), the relative ``defect`` of the Gram, whether it was measured ``exact``ly, the
        rounding ``tol`` and whether ``column`` is the projection's (``projected``).

    Notes
    -----
    Up to ``GRAM_DENSE_MAX`` rows the Gram is formed and its defect measured exactly. Beyond,
    the defect is estimated on 64 seeded random rows, and the projection's diagonal means
    :math:`a_k = \frac1{n-k}\sum_i p_{i+k}\cdot p_i` come from FFT autocorrelations of the d
    columns, :math:`O(d\,n\log n)`.

    References
    ----------
    gu2025 Remark 3.2 (a Gram :math:`PP^\top` is Toeplitz when the encoding depends on offsets only).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> from petheory.toeplitz.operators import gram_toeplitz_column
    >>> g = gram_toeplitz_column(encodings.sinusoidal(16, 8))
    >>> g.projected, bool(np.isclose(g.column[0], 4.0))  # exactly Toeplitz; a_0 = d/2
    (False, True)
    """
    P = v.array("P", P, ndim=2, dtype="real")
    n, d = P.shape
    trace = float(np.einsum("ij,ij->", P, P))  # bounds || |P P^T| ||_F
    if n <= GRAM_DENSE_MAX:
        M = P @ P.T
        defect, exact, frob = toeplitz_defect(M), True, float(np.linalg.norm(M))
        col = M[:, 0].copy()
    else:
        col = P @ P[0]
        rows = np.random.default_rng(0).choice(n, size=64, replace=False)
        G = P[rows] @ P.T  # (64, n)
        pred = col[np.abs(rows[:, None] - np.arange(n)[None, :])]
        g = float(np.linalg.norm(G))
        defect, exact = (0.0 if g == 0 else float(np.linalg.norm(G - pred) / g)), False
        frob = g * math.sqrt(n / 64.0)  # the sampled rows' share of ||M||_F, scaled to n rows
    tol = rounding_defect(d, trace, frob)
    if defect <= tol:
        return GramColumn(col, defect, exact, tol, False)
    if not project:
        raise NotToeplitzError(f"the position Gram P P^T is not Toeplitz (relative defect {defect:.3g} > rounding {tol:.2g}"
                         f"{'' if exact else ', estimated on 64 rows'})")
    if n <= GRAM_DENSE_MAX:
        col = toeplitz_projection(M)[:, 0].copy()
    else:
        L = scipy.fft.next_fast_len(2 * n, real=True)
        F = scipy.fft.rfft(P, n=L, axis=0)
        auto = scipy.fft.irfft(np.sum(np.abs(F) ** 2, axis=1), n=L)[:n]  # sum_i p_{i+k} . p_i
        col = auto / (n - np.arange(n))
    return GramColumn(col, defect, exact, tol, True)
