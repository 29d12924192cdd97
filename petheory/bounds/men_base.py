r"""Men et al. 2024 ("Base of RoPE Bounds Context Length", arXiv 2405.14591, §4): the base bounds the context length.

The similar-token gap :math:`B_{m,\theta} = \sum_{i<d/2}\cos(m\theta_i)` (Theorem 1, :func:`men_kernel`),
its minimum over :math:`0\le m\le L` (:func:`men_min_kernel`), and the smallest base with
:math:`B_{m,\theta}\ge 0` for every :math:`0\le m\le L` (Eq. 11, :func:`men_smallest_base`; the set of
passing bases is *not* closed upwards: :func:`men_every_larger_base`; a grid of bases tested in order:
:func:`men_first_passing` on :func:`men_grid`; the first passing base without stepping over an island:
:func:`petheory.bounds.men_search.men_first_passing_base`).

Theory only: no file is read, nothing imports torch.
"""

from __future__ import annotations

import functools
import math
from numbers import Integral, Real

import numpy as np

from petheory import _memory
from petheory._threads import blas_threads
from petheory._validate import Array, Even, Interval, validate_params
from petheory.encodings import rope_frequencies
from petheory.errors import ParameterError, ValidationError

__all__ = ["MEN_FIT", "men_kernel", "men_min_kernel", "men_passes", "men_first_passing", "men_grid", "men_smallest_base",
           "men_every_larger_base"]

#: Men et al.'s fitted curve (their Fig. 1): lower bound of the base ~= 0.0424 * L ** 1.628 (d = 128).
MEN_FIT = (0.0424, 1.628)
# Distances below this are computed directly first: a failing base usually fails among them.
_FIRST = 128
# Columns (blocks of ~sqrt(L) distances) per product in men_min_kernel: an early stop after each chunk.
_CHUNK = 64


_POSITIVE = Interval(Real, 0, None, closed="neither")
_CONTEXT = Interval(Integral, 1, None)


def _freqs(freqs, owner) -> np.ndarray:
    """Declared ``freqs`` (a non-empty 1-D real array) as float64, each >= 0 (a sign no declaration states)."""
    w = np.asarray(freqs, dtype=np.float64)
    if not np.all(w >= 0):
        raise ParameterError("freqs", "non-negative band frequencies (rad/position)", freqs, owner=owner)
    return w


@validate_params({"freqs": [Array(ndim=1)]})
def men_kernel(m, freqs) -> np.ndarray:
    r"""Men et al.'s :math:`B_{m,\theta} = \sum_i \cos(m\,\theta_i)` at each distance m (Theorem 1).

    For queries with i.i.d. components of variance :math:`\sigma^2`, a similar key
    :math:`k^* = q + \epsilon` and an unrelated key k, :math:`E[q^\top R_m k^*] - E[q^\top R_m k] =
    2\sigma^2 B_{m,\theta}`: the unit-content RoPE kernel (half the trace of :math:`R_m`).

    Parameters
    ----------
    m : array_like of float, any shape
        Relative distances.
    freqs : array_like, shape (r/2,)
        Band frequencies :math:`\theta_i` (:func:`petheory.encodings.rope_frequencies`).

    Returns
    -------
    ndarray, shape of ``m``

    Examples
    --------
    >>> from petheory.encodings import rope_frequencies
    >>> men_kernel([0, 1], rope_frequencies(4, base=100.0)).round(4).tolist()
    [2.0, 1.5353]
    """
    w = _freqs(freqs, men_kernel)
    m = np.asarray(m, dtype=np.float64)
    return np.cos(m[..., None] * w).sum(-1)


@validate_params({"freqs": [Array(ndim=1)], "context": [_CONTEXT]})
def men_min_kernel(freqs, context: int, *, stop_below: float | None = 0.0) -> tuple[float, int]:
    r"""The minimum of :math:`B_{m,\theta}` over integer :math:`0\le m\le L` and where it is (the first m that reaches it).

    With ``stop_below`` (default 0) the scan ends at the first chunk of distances (the first 128,
    then about :math:`64\sqrt{L}` at a time, in order of m) whose minimum is below it, and returns that
    value and place: enough to decide the sign, not the global minimum. None always scans all of ``0..L``.

    Parameters
    ----------
    freqs : array_like, shape (r/2,)
        Band frequencies :math:`\theta_i` (non-negative, non-empty; :func:`petheory.encodings.rope_frequencies`).
    context : int
        L (>= 1): distances ``0..L`` are scanned.
    stop_below : float or None
        Stop at the first chunk whose minimum is below this value; None scans every distance.

    Returns
    -------
    (float, int)
        The minimum of :math:`B_{m,\theta}` found and the first m where it is reached.

    Raises
    ------
    petheory.errors.ParameterError
        Empty or negative ``freqs``, ``context`` below 1.

    Notes
    -----
    Past the first block, distances are taken in blocks :math:`m = m_0 + j` (:math:`j < J \approx \sqrt{L}`) by angle
    addition, :math:`B_{m_0+j} = \mathrm{Re}\sum_i e^{ij\theta_i}e^{im_0\theta_i}`: one complex matrix product
    of (J, r/2) by (r/2, L/J) tables instead of L * r/2 cosines, computed as one real product
    of their real and imaginary parts (only the real part is wanted). The tables are powers of
    :math:`e^{i\theta}` and :math:`e^{iJ\theta}` by repeated products (J and L/J of them, each adding about
    eps of relative error), so a term is off by about :math:`2\sqrt{L}\,\epsilon`, below the
    :math:`m\theta_0\,\epsilon` that rounding the argument costs a direct cosine; both sums agree to about
    :math:`(r/2)\,L\,\epsilon` (tested). A value within that of 0 is not a reliable sign.

    References
    ----------
    Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591), §4, Theorem 1.

    Examples
    --------
    >>> from petheory.encodings import rope_frequencies
    >>> men_min_kernel(rope_frequencies(128, base=5e5), 8192)[0] > 0
    True
    >>> w = rope_frequencies(128, base=1e3)
    >>> value, m = men_min_kernel(w, 1024, stop_below=None)  # the global minimum over 0 <= m <= 1024
    >>> round(value, 4), m, bool(abs(men_kernel(m, w) - value) < 1e-9)
    (-11.1156, 1003, True)
    """
    return _min_kernel(_freqs(freqs, men_min_kernel), int(context), stop_below)


def _min_kernel(w: np.ndarray, L: int, stop_below: float | None) -> tuple[float, int]:
    """:func:`men_min_kernel` of checked frequencies and context (the scan's inner loop calls it per base)."""
    first = np.arange(0, min(L, _FIRST - 1) + 1, dtype=np.float64)
    b = np.cos(first[:, None] * w).sum(-1)
    i = int(np.argmin(b))
    best, where = float(b[i]), i
    if (stop_below is not None and best < stop_below) or L < _FIRST:
        return best, where
    J = max(64, int(math.isqrt(L)))
    K = (L - _FIRST) // J + 1
    step = np.exp(1j * w)  # e^{i theta}: powers by repeated products, each adding ~eps relative error
    ej = np.cumprod(np.vstack([np.ones_like(step), np.broadcast_to(step, (J - 1, w.size))]), axis=0)  # (J, r/2)
    first_start = np.exp(1j * _FIRST * w)
    jump = np.exp(1j * J * w)
    es = np.cumprod(np.vstack([first_start, np.broadcast_to(jump, (K - 1, w.size))]), axis=0).T  # (r/2, K)
    # only the real part is wanted: Re(a b) = Re a Re b - Im a Im b, one real product of half the work
    ej = np.hstack([ej.real, -ej.imag])  # (J, r)
    es = np.vstack([es.real, es.imag])  # (r, K)
    for c0 in range(0, K, _CHUNK):  # chunks of columns in order of m: a failing base stops at its first chunk below
        c1 = min(K, c0 + _CHUNK)
        vals = ej @ es[:, c0:c1]  # (J, c1 - c0): B at m = _FIRST + k J + j
        m = (_FIRST + np.arange(c0, c1) * J)[None, :] + np.arange(J)[:, None]
        vals = np.where(m <= L, vals, np.inf)
        k = int(np.argmin(vals.T.ravel()))  # in order of m: blocks (columns) first
        col, row = divmod(k, J)
        if vals[row, col] < best:
            best, where = float(vals[row, col]), int(m[row, col])
        if stop_below is not None and best < stop_below:
            break
    return best, where


def men_passes(base: float, *, d: int, context: int) -> bool:
    r"""Whether RoPE with ``base`` (head size d) has Men's property :math:`B_{m,\theta}\ge 0` for all :math:`0\le m\le L`.

    Parameters
    ----------
    base : float
        RoPE base (> 0).
    d : int
        Rotary dimension (even).
    context : int
        L (>= 1).

    Returns
    -------
    bool
        Whether the minimum of :func:`men_min_kernel` over ``0..L`` is >= 0.

    Raises
    ------
    petheory.errors.ValidationError
        An odd ``d``, a non-positive ``base``, ``context`` below 1.

    References
    ----------
    Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591), §4, Theorem 1.

    Examples
    --------
    >>> men_passes(1e4, d=128, context=1024), men_passes(1e3, d=128, context=1024)
    (True, False)
    """
    return men_min_kernel(rope_frequencies(d, base=base), context)[0] >= 0.0


@validate_params({"d": [Even()], "context": [_CONTEXT], "lo": [_POSITIVE], "hi": [_POSITIVE],
                  "per_decade": [Interval(Integral, 1, None)], "rel": [_POSITIVE]})
def men_smallest_base(d: int, context: int, *, lo: float = 2.0, hi: float = 1e12, per_decade: int = 512,
                      rel: float = 1e-4) -> float:
    r"""The smallest base whose RoPE (head size d) has :math:`B_{m,\theta}\ge 0` for all :math:`0\le m\le L` (Men et al. §4).

    Parameters
    ----------
    d : int
        Rotary dimension (even).
    context : int
        L.
    lo, hi : float
        The bases searched.
    per_decade : int
        Grid points per decade of the scan.
    rel : float
        Relative width at which the bisection stops.

    Returns
    -------
    float
        The passing end of the bracket found: every grid base below it fails, it passes.

    Notes
    -----
    The passing set is not an interval (bases above the first passing one can fail again), so a
    plain bisection on [lo, hi] could return a later threshold. The scan walks a log grid upwards
    and bisects between the last failing grid point and the first passing one: a passing island
    narrower than one grid step (``10**(1/per_decade)``, 0.45 % at 512) below the returned base
    would be missed; the claim ``men2024.base_bounds_context#smallest_passing_base`` searches for one.
    Raises when no grid base in [lo, hi] passes. Cost: about 3000 grid evaluations for L = 128k
    (a few CPU seconds at r = 128: most failing bases are rejected at a distance where a neighbouring base failed, see _Witnesses); results are cached per (d, L, lo, hi, per_decade, rel).

    Examples
    --------
    >>> b = men_smallest_base(128, 1024)
    >>> round(b, -2)   # Men et al. Table: 4.3e3 at L = 1k (an island: 4.34e3 to 6.06e3 fails again)
    4300.0
    """
    return _smallest_base(int(d), int(context), float(lo), float(hi), int(per_decade), float(rel))



class _Witnesses:
    r"""Distances where nearby bases failed: a base is tried there first (a few hundred cosines) before the full scan.

    Neighbouring grid bases mostly fail near the same distance, so most failing bases are rejected by
    a witness; a base is declared failing only by a witness value below ``-tol``, where ``tol`` is the
    full scan's own error budget :math:`(r/2)\,L\,\epsilon` (:func:`men_min_kernel`'s notes), so a
    witness never decides a sign the full scan would not; anything else goes to the full scan,
    and the result is the full scan's. ``certify=False`` (the smallest-base scan, which reads only the sign)
    stops at the first witness distance below ``-tol`` instead of taking the minimum over all of them (the
    certificate ``value`` that :func:`men_first_passing` reports): the same decision, for fewer cosines.
    """

    def __init__(self, L: int, half: int = 32, keep: int = 16, certify: bool = True):
        self.L, self.half, self.keep, self.at, self.certify = L, half, keep, [], certify
        self.value = math.nan  # the last base's certificate: a B_m below -tol (failing) or its minimum (passing)

    def fails(self, w: np.ndarray) -> bool:
        if not self.at:
            return False
        tol = w.size * self.L * np.finfo(np.float64).eps
        if not self.certify:  # the sign alone: the witnesses one at a time, the latest first, until one fails
            if float(np.cos(float(self.at[0]) * w).sum()) < -tol:  # where the last failure was: most fail there too
                return True
            for x in self.at:
                m = np.arange(max(x - self.half, 0), min(x + self.half, self.L) + 1, dtype=np.float64)
                if float(np.cos(m[:, None] * w).sum(-1).min()) < -tol:
                    return True
            return False
        m = np.unique(np.clip(np.add.outer(np.array(self.at), np.arange(-self.half, self.half + 1)), 0, self.L))
        self.value = float(np.cos(m[:, None].astype(np.float64) * w).sum(-1).min())
        return self.value < -tol

    def passes(self, b: float, d: int) -> bool:
        w = rope_frequencies(d, base=b)
        if self.fails(w):
            return False
        mn, at = _min_kernel(w, self.L, 0.0)
        self.value = mn
        if mn >= 0.0:
            return True
        self.at = ([at] + [x for x in self.at if x != at])[: self.keep]
        return False


@validate_params({"bases": [Array(ndim=1)], "d": [Even()], "context": [_CONTEXT]})
def men_first_passing(bases, *, d: int, context: int) -> dict:
    r"""Walk ``bases`` in the order given and stop at the first with Men's property (:func:`men_passes`).

    Returns ``{'first_passing': base or None, 'its_min': its min_m B_m or None, 'evaluated': n,
    'worst_failure': w}``: ``w`` is the largest of the failing bases' certificates, a value
    :math:`B_m \le w < 0` that each of them reaches at some :math:`m \le L` (None when none failed).
    Each base gets the answer of :func:`men_passes` (a failure is declared only below the full
    scan's error budget :math:`(r/2)\,L\,\epsilon`), most failures for a few hundred cosines at
    distances where an earlier base failed (see ``_Witnesses``): a check of a few bases at L = 1M
    costs about a second instead of a scan of every base.

    Parameters
    ----------
    bases : array_like, shape (k,)
        Positive RoPE bases, tried in this order.
    d : int
        Rotary dimension (even).
    context : int
        L (>= 1).

    Returns
    -------
    dict
        ``first_passing`` (float or None), ``its_min`` (float or None), ``evaluated`` (int, the bases
        tried) and ``worst_failure`` (float or None), as above.

    Raises
    ------
    petheory.errors.ParameterError
        A non-positive base, an odd ``d``, ``context`` below 1.

    See Also
    --------
    men_grid : the bases of :func:`men_smallest_base`'s scan in a range.

    Examples
    --------
    >>> r = men_first_passing([1e3, 2e3, 1e4], d=128, context=1024)
    >>> r["first_passing"], r["evaluated"], r["worst_failure"] < 0
    (10000.0, 3, True)
    """
    d, L = int(d), int(context)
    bs = np.asarray(bases, dtype=np.float64)
    if not np.all(bs > 0):  # a sign no declaration states
        raise ParameterError("bases", "positive RoPE bases", bases, owner=men_first_passing)
    seen, worst = _Witnesses(L), None
    with blas_threads(1):  # small products ((sqrt L, r) by (r, 64)): 8.6x slower threaded at load 3.8
        for n, b in enumerate(bs, 1):
            if seen.passes(float(b), d):
                return {"first_passing": float(b), "its_min": seen.value, "evaluated": n, "worst_failure": worst}
            worst = seen.value if worst is None else max(worst, seen.value)
    return {"first_passing": None, "its_min": None, "evaluated": int(bs.size), "worst_failure": worst}


@functools.lru_cache(maxsize=256)
def _smallest_base(d: int, L: int, lo: float, hi: float, per_decade: int, rel: float) -> float:
    with blas_threads(1):
        return _scan_for_smallest_base(d, L, lo, hi, per_decade, rel)


#: Peak bytes per grid base: 16 measured with tracemalloc for men_grid (geomspace's result and a temporary), plus
#: 8 for a caller's copy of the bases it keeps (plan prepends the model's own base).
GRID_BYTES_PER_BASE = 24


def _grid(lo: float, hi: float, per_decade: int) -> np.ndarray:
    n = max(2, int(math.ceil(math.log10(hi / lo) * per_decade)) + 1)
    _memory.require(GRID_BYTES_PER_BASE * n, f"Men's base grid ({n} bases: {per_decade} a decade over [{lo:g}, {hi:g}])",
                    alternative="use fewer bases per decade (per_decade; plan's base_grid)")
    return np.geomspace(lo, hi, n)


@validate_params({"start": [_POSITIVE], "stop": [_POSITIVE], "lo": [_POSITIVE], "hi": [_POSITIVE],
                  "per_decade": [Interval(Integral, 1, None)]})
def men_grid(start: float, stop: float, *, lo: float = 2.0, hi: float = 1e12, per_decade: int = 512) -> np.ndarray:
    r"""The bases of :func:`men_smallest_base`'s scan (its log grid on [lo, hi], same defaults) that lie in [start, stop).

    A search over these bases finds whatever passing grid base the scan would find there: the passing set has
    islands narrower than any grid (0.07 % wide at L = 128k), so two different grids can disagree.

    Parameters
    ----------
    start, stop : float
        The range ``[start, stop)`` of bases kept (> 0).
    lo, hi : float
        The ends of the whole grid (> 0), as in :func:`men_smallest_base`.
    per_decade : int
        Grid points per decade (>= 1).

    Returns
    -------
    numpy.ndarray
        The grid bases in ``[start, stop)``, ascending (empty when none).

    Raises
    ------
    petheory.errors.ParameterError
        A non-positive or non-finite end, ``per_decade`` below 1.

    Examples
    --------
    >>> g = men_grid(1e4, 1e5)
    >>> len(g), bool(g[0] >= 1e4 and g[-1] < 1e5)
    (512, True)
    """
    start, stop = float(start), float(stop)
    g = _grid(float(lo), float(hi), int(per_decade))
    return g[(g >= start) & (g < stop)]


def _scan_for_smallest_base(d: int, L: int, lo: float, hi: float, per_decade: int, rel: float) -> float:
    grid = _grid(lo, hi, per_decade)
    # the same answer as men_passes at every base, most failures for a few cosines; the scan reads only the sign, so
    # the first witness distance that fails ends the test of a base (the latest one rejects most): the README's Gemma 3
    # report (d = 256, L = 32k) 5.3 -> 3.0 s CPU; 12 (d, L) pairs up to L = 128k 14.0 -> 5.7 s, the same bases
    seen = _Witnesses(L, certify=False)
    prev = None
    for b in grid:
        if seen.passes(float(b), d):
            if prev is None:
                return float(b)
            a, c = prev, float(b)
            while c / a - 1.0 > rel:
                mid = math.sqrt(a * c)
                a, c = (a, mid) if seen.passes(mid, d) else (mid, c)
            return c
        prev = float(b)
    raise ValidationError(f"no base in [{lo:g}, {hi:g}] gives B_m >= 0 for all m <= {L} at d = {d}; raise hi")


@validate_params({"d": [Even()], "context": [_CONTEXT], "upto": [_POSITIVE], "start": [_POSITIVE, None]})
def men_every_larger_base(d: int, context: int, *, upto: float, start: float | None = None,
                          per_decade: int = 256) -> dict:
    r"""The reading "every base :math:`\ge b_L` passes", tested on a log grid of ``[start, upto]``.

    Returns ``{'start', 'upto', 'failing': [bases that fail], 'holds': bool}``; ``start`` defaults
    to :func:`men_smallest_base`. A grid only samples the interval: ``holds`` is "no failure seen".

    Parameters
    ----------
    d : int
        Rotary dimension (even).
    context : int
        L (>= 1).
    upto : float
        The largest base tested (> 0).
    start : float, optional
        The smallest base tested (> 0); default ``men_smallest_base(d, context)``.
    per_decade : int
        Grid points per decade of ``[start, upto]`` (the grid has at least its two ends).

    Returns
    -------
    dict
        ``start`` and ``upto`` (float), ``failing`` (list of float, the grid bases without the property)
        and ``holds`` (bool: ``failing`` is empty).

    Raises
    ------
    petheory.errors.ValidationError
        An odd ``d``, ``context`` below 1, a non-positive ``start`` or ``upto``; with the default ``start``,
        no passing base in men_smallest_base's range.

    References
    ----------
    Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591), §4, Theorem 1, Eq. 11.

    Examples
    --------
    >>> r = men_every_larger_base(128, 1024, upto=2e4)
    >>> r["holds"], len(r["failing"]) > 0  # b_L = 4293 at L = 1k, yet grid bases 4332 .. 5978 fail
    (False, True)
    """
    d, L, upto = int(d), int(context), float(upto)
    b0 = men_smallest_base(d, L) if start is None else float(start)
    n = max(2, int(math.ceil(math.log10(max(upto / b0, 1.0 + 1e-12)) * per_decade)) + 1)
    failing = [float(b) for b in np.geomspace(b0, upto, n) if not men_passes(b, d=d, context=L)]
    return {"start": b0, "upto": upto, "failing": failing, "holds": not failing}

