r"""What every analysis reads off one layer's positions: its rotary bands, its position-only kernel, its extremes.

Written once, used by :mod:`~petheory.analyses.spectrum`, :mod:`~petheory.analyses.report` and
:mod:`~petheory.analyses.compare`, so a number is the same in every command:

* :func:`rotary_bands` -- the frequencies :math:`\omega_t` and the factor :math:`F` on every rotary
  logit (YaRN's attention factor squared times the layer's logit factor) at length n;
* :func:`position_column` -- the first column of the n x n position-only Toeplitz matrix: a rotary
  layer's unit-content kernel :math:`a_k = F\sum_t\cos(k\omega_t)` (gu2025 §3.3), ALiBi's
  :math:`-m|k|`, a bias's B, an absolute table's Gram :math:`PP^T` (Toeplitz projection where it is
  not Toeplitz);
* :func:`extremes` -- the extreme eigenvalues of that matrix: exact from a small Gram matrix for a
  rotary kernel (:func:`low_rank_extremes`: rank <= 2 x bands, no N x N anything), certified FFT
  Lanczos otherwise (:func:`petheory.toeplitz.extreme_eigenvalues`, the reference);
* :func:`layer_kernel` -- all of these for one layer at once (:class:`LayerKernel`): computed once, then read
  by the report's sections and :func:`petheory.analyses.bounds.layer_bounds`, so the data flows one way.

The public functions declare their parameters (:func:`petheory._validate.validate_params`); the path inside runs on
the values they checked.
"""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from petheory import _memory
from petheory._threads import blas_threads
from petheory._validate import Array, Interval, validate_params
from petheory import encodings as enc
from petheory.errors import ParameterError, ValidationError
from petheory.scheme import Positions
from petheory.toeplitz.sources import ToeplitzSource


class NoKernel(ValidationError):
    """A layer whose positions have no position-only kernel (NoPE, none, T5's learned buckets); its one argument, the
    message, says why."""


_LENGTH = [Interval(Integral, 1, None)]


@validate_params({"freqs": [Array(ndim=1)], "length": _LENGTH})
def rotary_column(freqs, length: int, factor: float = 1.0, *, chunk: int = 4096) -> np.ndarray:
    r"""First column :math:`a_k = f\sum_t\cos(k\omega_t)`, k = 0..n-1, shape (n,), in O(n + chunk b) memory.

    The unit-content kernel of a rotary table (``rotary_kernel``) without forming the (n, b) angle
    table and without n b cosines: by angle addition, for :math:`k = k_0 + j` (:math:`0 \le j <` chunk)

    .. math:: a_k = f\sum_t \cos(k_0\omega_t)\cos(j\omega_t) - \sin(k_0\omega_t)\sin(j\omega_t),

    two (chunk, b) x (b,) products per chunk, with the (chunk, b) tables of :math:`\cos(j\omega_t)`,
    :math:`\sin(j\omega_t)` computed once.

    Parameters
    ----------
    freqs : array_like, shape (b,)
        The band frequencies :math:`\omega_t`.
    length : int
        Length of the column.
    factor : float
        The factor f on every term.
    chunk : int
        Rows of the cosine and sine tables.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Notes
    -----
    Each term is within :math:`(|k_0\omega_t| + |j\omega_t| + 6)u` of :math:`\cos(k\omega_t)`: the
    rounding of the two arguments (the direct :math:`\cos(\mathrm{fl}(k\omega_t))` carries
    :math:`|k\omega_t|u` as well) plus a few roundings of the products and the sum; :math:`a_k` then within b
    times that, times f. The tests compare it with the direct sum.

    References
    ----------
    gu2025 §3.3 (the unit-content kernel of RoPE).

    Examples
    --------
    >>> import math
    >>> rotary_column([0.0, math.pi], 3).tolist()
    [2.0, 0.0, 2.0]
    """
    return _rotary_column(np.asarray(freqs, dtype=np.float64), int(length), factor, chunk=chunk)


def _rotary_column(freqs: np.ndarray, length: int, factor: float = 1.0, *, chunk: int = 4096) -> np.ndarray:
    """:func:`rotary_column` for frequencies and a length already checked (a float64 (b,) array, an int >= 1)."""
    _memory.require(_memory.array_bytes(length + 2 * min(chunk, length) * freqs.shape[0]), f"the kernel column (N = {length})",
                    alternative="use a smaller length")
    m = min(chunk, length)
    j = np.arange(m, dtype=np.float64)[:, None] * freqs[None, :]  # (m, b)
    C, S = np.cos(j), np.sin(j)
    out = np.empty(length)
    with blas_threads(1):  # a 2b x 2b eigenproblem, (chunk, b) matvecs: threads only wait
        for lo in range(0, length, m):
            hi = min(length, lo + m)
            base = lo * freqs  # (b,)
            out[lo:hi] = C[: hi - lo] @ np.cos(base) - S[: hi - lo] @ np.sin(base)
    return factor * out


def table_logit_factor(pos: Positions) -> float:
    """The part of ``pos.logit_factor`` its rotary table does not already carry (MLA folds its softmax factor in).

    Parameters
    ----------
    pos : petheory.scheme.Positions

    Returns
    -------
    float

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> table_logit_factor(Positions("rotary", "rope", {}, 8, logit_factor=0.5))
    0.5
    """
    return 1.0 if pos.encoding == "mla_rope" else pos.logit_factor


def rotary_bands(pos: Positions, length: int):
    """The band frequencies of a rotary layer at length n and the factor F on every rotary logit.

    Parameters
    ----------
    pos : petheory.scheme.Positions
    length : int
        The length (a dynamic scaling depends on it).

    Returns
    -------
    tuple or None
        ``(frequencies (r/2,), F)``; None when the layer is not rotary or its kernel is not a sum of cosines (xPos:
        a per-position scale).

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> w, f = rotary_bands(Positions("rotary", "rope", {"base": 100.0}, 4), 16)
    >>> w.tolist(), f
    ([1.0, 0.1], 1.0)
    """
    if pos.kind != "rotary":
        return None
    try:
        w, f = enc.band_frequencies(pos.encoding, pos.d, max(int(length), 2), **pos.params)
    except ValueError:
        return None
    return np.asarray(w, dtype=np.float64), float(f) * table_logit_factor(pos)


def why_no_kernel(pos: Positions, *, learned_t5: bool = True) -> str | None:
    """Why a layer has no position-only kernel, or None when it has one.

    Parameters
    ----------
    pos : petheory.scheme.Positions
    learned_t5 : bool
        T5 buckets are a model's, whose values are learned weights (the registry's ``t5`` entry has values of its
        own).

    Returns
    -------
    str or None

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> why_no_kernel(Positions("nope")).startswith("NoPE")
    True
    """
    if pos.kind == "nope":
        return "NoPE: softmax attention that sees no position (no kernel; order comes from the causal mask only)"
    if pos.kind == "none":
        return "no attention positions at all (a linear-attention or recurrent layer): no kernel"
    if learned_t5 and pos.kind == "bias" and pos.encoding == "t5":
        return "t5: the bias values are learned weights, not in the configuration (the scheme is the bucketing)"
    return None


@validate_params({"length": _LENGTH})
def position_column(pos: Positions, length: int, *, project: bool = True, learned_t5: bool = False,
                    hermitian_part: bool = True) -> ToeplitzSource:
    """The n x n position-only Toeplitz matrix of one layer (see the module docstring).

    Parameters
    ----------
    pos : petheory.scheme.Positions
    length : int
        The matrix size.
    project : bool
        Use the Toeplitz projection of a source matrix that is not Toeplitz (False: refuse it).
    learned_t5 : bool
        T5 buckets are a model's learned weights (no kernel).
    hermitian_part : bool
        Use :math:`(T + T^H)/2` of a kernel that is not Hermitian (False: refuse it).

    Returns
    -------
    petheory.toeplitz.sources.ToeplitzSource
        First column (and row, None when Hermitian) and what the matrix is; ``defect`` is 0 for a kernel that is
        Toeplitz by construction.

    Raises
    ------
    NoKernel
        A layer without a kernel (NoPE, none, learned T5 buckets).
    petheory.errors.ValidationError
        A kernel that is not Hermitian without ``hermitian_part``; a dense bias too large.

    References
    ----------
    gu2025 §3.3 (the position-only Toeplitz matrix).

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> position_column(Positions("bias", "alibi", {"slope": 0.5}, 64), 3).column.tolist()
    [-0.0, -0.5, -1.0]
    """
    kernel = layer_kernel(pos, int(length), learned_t5=learned_t5, project=project, hermitian_part=hermitian_part)
    if kernel.why_none is not None:
        raise NoKernel(kernel.why_none)
    return kernel.column


def _column(pos: Positions, length: int, bands, *, project: bool, hermitian_part: bool) -> ToeplitzSource:
    """:func:`position_column` of a layer that has a kernel, at a checked length, from its bands (None: not rotary)."""
    from petheory import toeplitz as tp

    if pos.kind == "table":
        return tp.gram_source(np.asarray(pos.table)[:length], f"position Gram P P^T of {pos.source}", project=project)
    if bands is not None:
        w, f = bands
        what = (f"{pos.encoding} unit-content kernel a_k = F sum_t cos(k w_t) ({w.size} rotated bands, F = {f:.6g}: "
                f"rotary logit factor x logit factor; d={pos.d})")
        return ToeplitzSource(_rotary_column(w, length, f), None, what, 0.0, False)
    if pos.encoding == "alibi":  # closed form: no dense N x N bias (a model's 1M context)
        # a spec's value, not a parameter of this function: Positions keeps a spec's params as given, unchecked
        slope = pos.params.get("slope", 1.0)
        if isinstance(slope, bool) or not isinstance(slope, Real) or not math.isfinite(slope):
            raise ParameterError("slope", "a finite real number (the spec's ALiBi slope)", slope)
        return ToeplitzSource(-slope * np.arange(length, dtype=np.float64), None, f"alibi a_k = -m |k| (m = {slope:g}; "
                              "the symmetric form: the geometry of distances)", 0.0, False)
    if pos.kind == "bias" and length > 2 * tp.GRAM_DENSE_MAX:
        raise ValidationError(f"{pos.encoding}: a bias is built as a dense N x N matrix; N = {length} is too large (at most "
                              f"{2 * tp.GRAM_DENSE_MAX})")
    src = tp.encoding_source(pos.encoding, length, pos.d, project=project, **pos.params)
    c, r = src.column, src.row
    what = src.description
    if r is not None and not np.allclose(r, np.conj(c), rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(c).max()))):
        if not hermitian_part:
            raise ValidationError(f"{what} is not Hermitian (its first row is not the conjugate of its first column); "
                                  "hermitian_part=True analyses (T + T^H)/2 instead")
        c, r, what = tp.hermitian_part(c, r), None, what + " (Hermitian part)"
    return ToeplitzSource(np.asarray(c), r, what, src.defect, src.projected, src.defect_exact)


def low_rank_extremes(freqs, length: int, factor: float = 1.0):
    r"""Extreme eigenvalues of :math:`T_{ij} = F\sum_t\cos((i-j)\omega_t)`, n x n, exactly:
    :func:`petheory.toeplitz.rotary_kernel_extremes` (the 2b x 2b Gram in closed form, written once there;
    certificate ``'gram'``).

    Parameters
    ----------
    freqs : array_like, shape (b,)
        The band frequencies.
    length : int
        The matrix size.
    factor : float
        F.

    Returns
    -------
    petheory.toeplitz.ExtremeEigenvalues

    Examples
    --------
    >>> r = low_rank_extremes([0.5, 0.1], 64)
    >>> r.min.value, r.max.value > 0
    (0.0, True)
    """
    from petheory import toeplitz as tp

    with blas_threads(1):
        return tp.rotary_kernel_extremes(freqs, length, factor)


#: Relative accuracy of certified extreme eigenvalues, the one default of spectrum, report and compare (so a
#: non-rotary kernel gets the same lambda_min/lambda_max from each).
RTOL = 1e-8


def extremes(pos: Positions, length: int, *, rtol: float = RTOL, column: ToeplitzSource | None = None):
    """Extreme eigenvalues of a layer's n x n position-only matrix: exact low rank (rotary) or certified FFT Lanczos.

    Parameters
    ----------
    pos : petheory.scheme.Positions
    length : int
        The matrix size.
    rtol : float
        Relative accuracy (certified path).
    column : petheory.toeplitz.sources.ToeplitzSource, optional
        The layer's column, where already built.

    Returns
    -------
    (petheory.toeplitz.ExtremeEigenvalues, list of str)
        The eigenvalues and the solver's warnings.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> eig, warns = extremes(Positions("bias", "alibi", {"slope": 1.0}, 8), 2)
    >>> round(eig.min.value, 9), round(eig.max.value, 9), warns
    (-1.0, 1.0, [])
    """
    bands = rotary_bands(pos, length)
    if bands is None and column is None:
        column = position_column(pos, length)
    return _extremes(bands, column, length, rtol=rtol)


def _extremes(bands, column: ToeplitzSource | None, length: int, *, rtol: float):
    """:func:`extremes` from a layer's bands (None: not rotary) or else its column."""
    if bands is not None:
        return low_rank_extremes(bands[0], length, bands[1]), []
    return certified_extremes(column.column, column.row, rtol=rtol)


def certified_extremes(c, r=None, *, rtol: float = RTOL):
    """:func:`petheory.toeplitz.extreme_eigenvalues` with an absolute accuracy below 1e-4 ||T||, and its warnings.

    The absolute accuracy resolves the zeros of a rank-deficient Gram.

    Parameters
    ----------
    c : array_like, shape (n,)
        First column.
    r : array_like, shape (n,), optional
        First row (default: conjugate of ``c``).
    rtol : float
        Relative accuracy.

    Returns
    -------
    (petheory.toeplitz.ExtremeEigenvalues, list of str)

    Examples
    --------
    >>> eig, _ = certified_extremes(np.array([2.0, 1.0]))
    >>> round(eig.min.value, 9), round(eig.max.value, 9)
    (1.0, 3.0)
    """
    from petheory import toeplitz as tp

    ex = tp.symbol_extrema(c, r)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        eig = tp.extreme_eigenvalues(c, r, rtol=rtol, atol=rtol * 1e-4 * max(abs(ex.min), abs(ex.max)))
    return eig, [str(w.message) for w in caught]


@dataclass(frozen=True)
class KernelExtremes:
    """The extreme eigenvalues of a layer's n x n position-only matrix at one n (:func:`layer_kernel`).

    Attributes
    ----------
    length : int
        The matrix size n.
    eigenvalues : petheory.toeplitz.ExtremeEigenvalues
        Its smallest and largest eigenvalues with their error bounds and certificates (:func:`extremes`).
    warnings : list of str
        The solver's warnings.
    seconds : float
        Wall time of the solve (its column included where it was built for it).
    """

    length: int
    eigenvalues: object
    warnings: list
    seconds: float


@dataclass(frozen=True)
class LayerKernel:
    """What one layer's positions give at the length n, computed once (:func:`layer_kernel`) for every section.

    Attributes
    ----------
    positions : petheory.scheme.Positions
        The layer's positions.
    length : int
        n.
    why_none : str or None
        Why the layer has no position-only kernel (:func:`why_no_kernel`); None when it has one.
    bands : tuple or None
        ``(frequencies (r/2,), F)`` at n (:func:`rotary_bands`); None for a layer that is not rotary or has no kernel.
    column : petheory.toeplitz.sources.ToeplitzSource or None
        The first column at n (:func:`position_column`); None without a kernel or when not asked for.
    extremes : tuple of KernelExtremes
        The extreme eigenvalues at each length asked for (empty without a kernel).
    """

    positions: Positions
    length: int
    why_none: str | None
    bands: tuple | None
    column: ToeplitzSource | None
    extremes: tuple = ()


@validate_params({"length": _LENGTH})
def layer_kernel(pos: Positions, length: int, *, learned_t5: bool = False, column: bool = True, extremes_at=(),
                 rtol: float = RTOL, project: bool = True, hermitian_part: bool = True) -> LayerKernel:
    """One layer's kernel data at the length n: why it has none, or its bands, its column and its extremes.

    Parameters
    ----------
    pos : petheory.scheme.Positions
    length : int
        n (>= 1).
    learned_t5 : bool
        T5 buckets are a model's learned weights (no kernel).
    column : bool
        Build the column and the extremes (False: why and the bands alone, for what needs no kernel values).
    extremes_at : sequence of int
        The matrix sizes of the extreme eigenvalues (each >= 1); n's column is reused at n.
    rtol : float
        Relative accuracy of the certified extremes (non-rotary kernels).
    project, hermitian_part : bool
        As in :func:`position_column`.

    Returns
    -------
    LayerKernel

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> k = layer_kernel(Positions("bias", "alibi", {"slope": 1.0}, 8), 2, extremes_at=(2,))
    >>> k.column.column.tolist(), [round(e.eigenvalues.max.value, 9) for e in k.extremes]
    ([-0.0, -1.0], [1.0])
    >>> layer_kernel(Positions("nope"), 4).why_none.startswith("NoPE")
    True
    """
    length = int(length)
    why = why_no_kernel(pos, learned_t5=learned_t5)
    if why is not None:
        return LayerKernel(pos, length, why, None, None)
    bands = rotary_bands(pos, length)
    if not column:
        return LayerKernel(pos, length, None, bands, None)
    column = _column(pos, length, bands, project=project, hermitian_part=hermitian_part)
    found = []
    for n in extremes_at:
        t0 = time.perf_counter()
        b = bands if n == length else rotary_bands(pos, n)
        c = column if n == length else (None if b is not None else
                                        _column(pos, n, None, project=project, hermitian_part=hermitian_part))
        eig, caught = _extremes(b, c, n, rtol=rtol)
        found.append(KernelExtremes(n, eig, caught, round(time.perf_counter() - t0, 3)))
    return LayerKernel(pos, length, None, bands, column, tuple(found))
