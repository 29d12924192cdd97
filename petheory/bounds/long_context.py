r"""The long-context RoPE theory researchers cite, as pure functions (numpy, float64).

* Men et al. 2024 ("Base of RoPE Bounds Context Length", arXiv 2405.14591, §4, Theorem 1):
  the similar-token gap :math:`B_{m,\theta} = \sum_{i<d/2}\cos(m\theta_i)` (:func:`men_kernel`) and
  the smallest base with :math:`B_{m,\theta}\ge 0` for every :math:`0\le m\le L`
  (:func:`men_smallest_base`; the set of passing bases is *not* closed upwards: :func:`men_every_larger_base`).
* Liu et al. 2023 ("Scaling Laws of RoPE-based Extrapolation", arXiv 2310.05209, §3.3, Eqs. 8-9):
  the critical dimension :math:`d_{extra} = 2\lceil \tfrac d2 \log_{b}\tfrac{T_{train}}{2\pi}\rceil`
  (:func:`liu_critical_dimension`) and the extrapolation bound of a base-tuned model
  :math:`T_{extra} = 2\pi\beta^{d_{extra}/d}` (:func:`liu_extrapolation_bound`).
* Su et al. 2021 (RoFormer, arXiv 2104.09864, §3.4.3): the Abel-summation bound
  :math:`|\sum_i h_i e^{ir\theta_i}| \le \max_i|h_{i+1}-h_i|\sum_{j}|S_j|` and the relative upper
  bound :math:`\tfrac{2}{d}\sum_{j=1}^{d/2}|S_j|` (:func:`roformer_relative_bound`).
* Length-dependent attention temperatures (:func:`attention_temperatures`): YaRN, LongRoPE,
  Llama 4's NoPE layers, Scalable-Softmax; and the single-target attention they aim to keep
  (:func:`single_target_attention`).
* :func:`long_context_section`: all of it for one rotary layer kind of a model's scheme, as JSON.

Theory only: no file is read, nothing imports torch.
"""

from __future__ import annotations

import contextlib
import functools
import math

import numpy as np

from petheory import _validate as v
from petheory.encodings import longrope_attention_factor, rope_frequencies, yarn_mscale
from petheory.errors import ValidationError

__all__ = ["men_kernel", "men_min_kernel", "men_passes", "men_first_passing", "men_grid", "men_smallest_base", "men_every_larger_base", "MEN_FIT",
           "liu_critical_dimension", "liu_extrapolation_bound", "roformer_partial_sums", "roformer_relative_bound",
           "abel_bound", "attention_temperatures", "single_target_attention", "decay_mask_peak",
           "long_context_section", "long_context_lines"]

#: Men et al.'s fitted curve (their Fig. 1): lower bound of the base ~= 0.0424 * L ** 1.628 (d = 128).
MEN_FIT = (0.0424, 1.628)
# Distances below this are computed directly first: a failing base usually fails among them.
_FIRST = 128
# Columns (blocks of ~sqrt(L) distances) per product in men_min_kernel: an early stop after each chunk.
_CHUNK = 64


def _freqs(freqs) -> np.ndarray:
    w = v.array("freqs", freqs, ndim=1)
    if w.size == 0 or not np.all(w >= 0):
        raise ValidationError("freqs must be a non-empty 1-d array of non-negative band frequencies (rad/position)")
    return w


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
    w = _freqs(freqs)
    m = np.asarray(m, dtype=np.float64)
    return np.cos(m[..., None] * w).sum(-1)


def men_min_kernel(freqs, context: int, *, stop_below: float | None = 0.0) -> tuple[float, int]:
    r"""The minimum of :math:`B_{m,\theta}` over integer :math:`0\le m\le L` and where it is (the first m that reaches it).

    With ``stop_below`` (default 0) the scan ends at the first chunk of distances (the first 128,
    then about 64 sqrt(L) at a time, in order of m) whose minimum is below it, and returns that
    value and place: enough to decide the sign, not the global minimum. None always scans all of ``0..L``.

    Notes
    -----
    Past the first block, distances are taken in blocks m = m0 + j (j < J ~ sqrt(L)) by angle
    addition, :math:`B_{m_0+j} = \mathrm{Re}\sum_i e^{ij\theta_i}e^{im_0\theta_i}`: one complex matrix product
    of (J, r/2) by (r/2, L/J) tables instead of L * r/2 cosines, computed as one real product
    of their real and imaginary parts (only the real part is wanted). The tables are powers of
    :math:`e^{i\theta}` and :math:`e^{iJ\theta}` by repeated products (J and L/J of them, each adding about
    eps of relative error), so a term is off by about :math:`2\sqrt{L}\,\epsilon`, below the
    :math:`m\theta_0\,\epsilon` that rounding the argument costs a direct cosine; both sums agree to about
    :math:`(r/2)\,L\,\epsilon` (tested). A value within that of 0 is not a reliable sign.

    >>> from petheory.encodings import rope_frequencies
    >>> men_min_kernel(rope_frequencies(128, base=5e5), 8192)[0] > 0
    True
    """
    w = _freqs(freqs)
    L = v.integer("context", context, minimum=1)
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

    >>> men_passes(1e4, d=128, context=1024), men_passes(1e3, d=128, context=1024)
    (True, False)
    """
    return men_min_kernel(rope_frequencies(d, base=base), context)[0] >= 0.0


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
    return _smallest_base(v.even("d", d), v.integer("context", context, minimum=1), v.real("lo", lo, positive=True),
                          v.real("hi", hi, positive=True), v.integer("per_decade", per_decade, minimum=1),
                          v.real("rel", rel, positive=True))


def _one_blas_thread():
    """One BLAS thread for the scans: their products are small ((sqrt L, r) by (r, 64)), and threads waiting on a
    busy machine cost more than they give (a grid of bases at L = 1M: 8.6x slower with OpenBLAS's threads at load
    3.8 on 2 cores, measured side by side)."""
    try:
        from threadpoolctl import threadpool_limits  # comes with scikit-learn
    except ImportError:  # pragma: no cover
        return contextlib.nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


class _Witnesses:
    r"""Distances where nearby bases failed: a base is tried there first (a few hundred cosines) before the full scan.

    Neighbouring grid bases mostly fail near the same distance, so most failing bases are rejected by
    a witness; a base is declared failing only by a witness value below ``-tol``, where ``tol`` is the
    full scan's own error budget :math:`(r/2)\,L\,\epsilon` (:func:`men_min_kernel`'s notes), so a
    witness never decides a sign the full scan would not; anything else goes to the full scan,
    and the result is the full scan's.
    """

    def __init__(self, L: int, half: int = 32, keep: int = 16):
        self.L, self.half, self.keep, self.at = L, half, keep, []
        self.value = math.nan  # the last base's certificate: a B_m below -tol (failing) or its minimum (passing)

    def fails(self, w: np.ndarray) -> bool:
        if not self.at:
            return False
        m = np.unique(np.clip(np.add.outer(np.array(self.at), np.arange(-self.half, self.half + 1)), 0, self.L))
        tol = w.size * self.L * np.finfo(np.float64).eps
        self.value = float(np.cos(m[:, None].astype(np.float64) * w).sum(-1).min())
        return self.value < -tol

    def passes(self, b: float, d: int) -> bool:
        w = rope_frequencies(d, base=b)
        if self.fails(w):
            return False
        mn, at = men_min_kernel(w, self.L)
        self.value = mn
        if mn >= 0.0:
            return True
        self.at = ([at] + [x for x in self.at if x != at])[: self.keep]
        return False


def men_first_passing(bases, *, d: int, context: int) -> dict:
    r"""Walk ``bases`` in the order given and stop at the first with Men's property (:func:`men_passes`).

    Returns ``{'first_passing': base or None, 'its_min': its min_m B_m or None, 'evaluated': n,
    'worst_failure': w}``: ``w`` is the largest of the failing bases' certificates, a value
    :math:`B_m \le w < 0` that each of them reaches at some :math:`m \le L` (None when none failed).
    Each base gets the answer of :func:`men_passes` (a failure is declared only below the full
    scan's error budget :math:`(r/2)\,L\,\epsilon`), most failures for a few hundred cosines at
    distances where an earlier base failed (see ``_Witnesses``): a check of a few bases at L = 1M
    costs about a second instead of a scan of every base.

    >>> r = men_first_passing([1e3, 2e3, 1e4], d=128, context=1024)
    >>> r["first_passing"], r["evaluated"], r["worst_failure"] < 0
    (10000.0, 3, True)
    """
    d = v.even("d", d)
    L = v.integer("context", context, minimum=1)
    bs = v.array("bases", bases, ndim=1)
    if not np.all(bs > 0):
        raise ValidationError("bases must be positive RoPE bases")
    seen, worst = _Witnesses(L), None
    with _one_blas_thread():
        for n, b in enumerate(bs, 1):
            if seen.passes(float(b), d):
                return {"first_passing": float(b), "its_min": seen.value, "evaluated": n, "worst_failure": worst}
            worst = seen.value if worst is None else max(worst, seen.value)
    return {"first_passing": None, "its_min": None, "evaluated": int(bs.size), "worst_failure": worst}


@functools.lru_cache(maxsize=256)
def _smallest_base(d: int, L: int, lo: float, hi: float, per_decade: int, rel: float) -> float:
    with _one_blas_thread():
        return _scan_for_smallest_base(d, L, lo, hi, per_decade, rel)


def _grid(lo: float, hi: float, per_decade: int) -> np.ndarray:
    return np.geomspace(lo, hi, max(2, int(math.ceil(math.log10(hi / lo) * per_decade)) + 1))


def men_grid(start: float, stop: float, *, lo: float = 2.0, hi: float = 1e12, per_decade: int = 512) -> np.ndarray:
    r"""The bases of :func:`men_smallest_base`'s scan (its log grid on [lo, hi], same defaults) that lie in [start, stop).

    A search over these bases finds whatever passing grid base the scan would find there: the passing set has
    islands narrower than any grid (0.07 % wide at L = 128k), so two different grids can disagree.

    >>> g = men_grid(1e4, 1e5)
    >>> len(g), bool(g[0] >= 1e4 and g[-1] < 1e5)
    (512, True)
    """
    start, stop = v.real("start", start, positive=True), v.real("stop", stop, positive=True)
    g = _grid(v.real("lo", lo, positive=True), v.real("hi", hi, positive=True),
              v.integer("per_decade", per_decade, minimum=1))
    return g[(g >= start) & (g < stop)]


def _scan_for_smallest_base(d: int, L: int, lo: float, hi: float, per_decade: int, rel: float) -> float:
    grid = _grid(lo, hi, per_decade)
    seen = _Witnesses(L)  # the same answer as men_passes at every base, most failures for a few cosines
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


def men_every_larger_base(d: int, context: int, *, upto: float, start: float | None = None,
                          per_decade: int = 256) -> dict:
    r"""The reading "every base :math:`\ge b_L` passes", tested on a log grid of ``[start, upto]``.

    Returns ``{'start', 'upto', 'failing': [bases that fail], 'holds': bool}``; ``start`` defaults
    to :func:`men_smallest_base`. A grid only samples the interval: ``holds`` is "no failure seen".

    >>> r = men_every_larger_base(128, 1024, upto=2e4)
    >>> r["holds"], len(r["failing"]) > 0
    (False, True)
    """
    d = v.even("d", d)
    L = v.integer("context", context, minimum=1)
    b0 = men_smallest_base(d, L) if start is None else v.real("start", start, positive=True)
    upto = v.real("upto", upto, positive=True)
    n = max(2, int(math.ceil(math.log10(max(upto / b0, 1.0 + 1e-12)) * per_decade)) + 1)
    failing = [float(b) for b in np.geomspace(b0, upto, n) if not men_passes(b, d=d, context=L)]
    return {"start": b0, "upto": upto, "failing": failing, "holds": not failing}


# --------------------------------------------------------------------------- Liu et al. 2023


def liu_critical_dimension(d: int, base: float, context: int) -> int:
    r"""Liu et al.'s critical dimension :math:`d_{extra} = 2\lceil \tfrac d2\log_{b}\tfrac{T_{train}}{2\pi}\rceil` (Eq. 8).

    The number of rotary dimensions (2 per band) whose period :math:`2\pi b^{2i/d}` is shorter than
    the training context: those bands saw every angle in training. Clipped to [0, d] (a context
    shorter than :math:`2\pi` gives 0; one longer than every period gives d).

    >>> liu_critical_dimension(128, 1e4, 4096)   # Llama 2: 92 (Liu et al. §3.3)
    92
    """
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    if base <= 1.0:
        raise ValidationError(f"base must be > 1 (frequencies base**(-2i/d) decrease with i), got {base}")
    T = v.real("context", context, positive=True)
    x = (d / 2) * math.log(T / (2 * math.pi)) / math.log(base)
    return int(min(max(2 * math.ceil(x), 0), d))


def liu_extrapolation_bound(d: int, d_extra: int, base: float) -> float:
    r"""Liu et al.'s extrapolation bound of a model fine-tuned with base β: :math:`T_{extra} = 2\pi\beta^{d_{extra}/d}` (Eq. 9).

    The period, under β, of the first band that did not complete a turn in pre-training (band
    :math:`d_{extra}/2`); ``d_extra`` comes from the *pre-training* base and context.

    >>> round(liu_extrapolation_bound(128, 92, 1e4))
    4712
    """
    d = v.even("d", d)
    de = v.integer("d_extra", d_extra, minimum=0, maximum=d)
    base = v.real("base", base, positive=True)
    return 2 * math.pi * base ** (de / d)


# --------------------------------------------------------------------------- RoFormer §3.4.3


def roformer_partial_sums(r, freqs) -> np.ndarray:
    r"""RoFormer's partial sums :math:`S_j = \sum_{k<j} e^{i r\theta_k}`, j = 1..d/2, shape (len(r), d/2), complex.

    >>> roformer_partial_sums([0], [1.0, 0.5]).real.tolist()
    [[1.0, 2.0]]
    """
    w = _freqs(freqs)
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    return np.cumsum(np.exp(1j * r[:, None] * w), axis=1)


def roformer_relative_bound(r, freqs) -> np.ndarray:
    r"""RoFormer's relative upper bound :math:`\tfrac{1}{d/2}\sum_{j=1}^{d/2}|S_j|` at each distance r (§3.4.3, Fig. 2).

    >>> from petheory.encodings import rope_frequencies
    >>> roformer_relative_bound([0, 1000], rope_frequencies(128, base=1e4)).round(2).tolist()
    [32.5, 4.47]
    """
    w = _freqs(freqs)
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    out = np.empty(r.shape)
    for lo in range(0, r.size, 4096):
        out[lo:lo + 4096] = np.abs(roformer_partial_sums(r[lo:lo + 4096], w)).mean(1)
    return out


def abel_bound(h, r: float, freqs) -> tuple[float, float]:
    r"""Both sides of RoFormer's Eq. (37): :math:`|\sum_i h_i e^{ir\theta_i}|` and :math:`\max_i|h_{i+1}-h_i|\sum_j|S_j|`.

    ``h`` has one complex entry per band; RoFormer sets :math:`h_{d/2} = 0` (the convention under
    which Abel summation gives the bound).

    >>> lhs, rhs = abel_bound([1.0, 0.5], 3.0, [1.0, 0.1])
    >>> lhs <= rhs
    True
    """
    w = _freqs(freqs)
    h = np.asarray(h, dtype=np.complex128).ravel()
    if h.shape != w.shape or not np.all(np.isfinite(h)):
        raise ValidationError(f"h must hold one finite (complex) number per band, {w.size}, got shape {h.shape}")
    e = np.exp(1j * float(r) * w)
    lhs = abs(np.sum(h * e))
    dh = np.abs(np.diff(np.append(h, 0.0)))
    return float(lhs), float(dh.max() * np.abs(np.cumsum(e)).sum())


# --------------------------------------------------------------------------- temperatures


def attention_temperatures(lengths, *, scale: float = 1.0, context: int | None = None,
                           ssmax_s: float = 1.0, llama4_floor: int = 8192, llama4_attn_scale: float = 0.1) -> dict:
    r"""The factor on the attention logits at each length n, per method.

    * ``yarn``: :math:`(0.1\ln s + 1)^2` (q and k each carry :math:`0.1\ln s+1`, Peng et al. Eq. 22);
      a constant: it does not depend on n (static YaRN scales short inputs too).
    * ``longrope``: :math:`1 + \ln s/\ln L` (the square of LongRoPE/Phi-3's cos/sin factor); constant too.
    * ``llama4``: Llama 4's NoPE-layer query factor at the last position p = n - 1,
      :math:`1 + a\ln(\lfloor (p+1)/f\rfloor + 1)`.
    * ``ssmax``: Scalable-Softmax's :math:`s\ln n` (Nakanishi 2025, Eq. 2).

    Returns ``{'lengths': [...], 'yarn': [...], 'longrope': [...], 'llama4': [...], 'ssmax': [...]}``.

    >>> t = attention_temperatures([4096, 32768], scale=8.0, context=4096)
    >>> [round(x, 4) for x in t["yarn"]], [round(x, 4) for x in t["llama4"]]
    ([1.4591, 1.4591], [1.0, 1.1609])
    """
    n = np.asarray([v.integer("length", x, minimum=1) for x in np.atleast_1d(lengths)], dtype=np.float64)
    s = v.real("scale", scale, positive=True)
    L = v.integer("context", context if context is not None else int(n.max()), minimum=2)
    f = v.integer("llama4_floor", llama4_floor, minimum=1)
    p = n - 1
    return {"lengths": n.astype(int).tolist(),
            "yarn": [yarn_mscale(s) ** 2] * n.size,
            "longrope": [longrope_attention_factor(s, L) ** 2] * n.size,
            "llama4": (1.0 + v.real("llama4_attn_scale", llama4_attn_scale) * np.log(np.floor((p + 1) / f) + 1)).tolist(),
            "ssmax": (v.real("ssmax_s", ssmax_s, positive=True) * np.log(n)).tolist()}


def single_target_attention(gap: float, n, *, logit_factor=1.0) -> np.ndarray:
    r"""Softmax weight of one target whose logit exceeds n - 1 equal distractors' by ``gap``, after a factor on the logits.

    :math:`\alpha = e^{c\Delta}/(e^{c\Delta} + n - 1)`; with Scalable-Softmax's :math:`c = s\ln n`
    it is :math:`n^{s\Delta}/(n^{s\Delta} + n - 1)`. Computed as a logistic for stability.

    >>> float(single_target_attention(1.0, 2, logit_factor=np.log(2)))   # s*gap = 1: n/(2n-1)
    0.6666666666666666
    """
    g = v.real("gap", gap)
    n = np.asarray(n, dtype=np.float64)
    if not np.all(n >= 1):
        raise ValidationError("n (keys attended) must be >= 1")
    c = np.asarray(logit_factor, dtype=np.float64)
    z = c * g - np.log(np.maximum(n - 1, 0.0) + (n == 1))  # log-odds; n = 1: only the target
    out = 1.0 / (1.0 + np.exp(-z))
    return np.where(n == 1, 1.0, out)


def decay_mask_peak(t: int, m: float) -> tuple[int, float]:
    r"""Wu et al. 2025's decay-mask peak: the argmax over integer x >= 0 of :math:`\binom{t+x}{x}e^{-xm}`, and :math:`t/(e^m-1)`.

    The ratio of consecutive terms is :math:`\frac{t+x+1}{x+1}e^{-m}`, >= 1 exactly while
    :math:`x + 1 \le t/(e^m-1)`; the argmax is found by evaluating the log-terms on
    0..ceil(2 t/(e^m - 1)) + 2 (past the peak the terms decrease).

    >>> decay_mask_peak(10, math.log(2))
    (10, 10.0)
    """
    t = v.integer("t", t, minimum=0)
    m = v.real("m", m, positive=True)
    peak = t / math.expm1(m)
    hi = int(min(math.ceil(2 * peak) + 2, 10_000_000))
    x = np.arange(hi + 1, dtype=np.float64)
    from scipy.special import gammaln

    logf = gammaln(t + x + 1) - gammaln(x + 1) - gammaln(t + 1) - x * m
    return int(np.argmax(logf)), peak


# --------------------------------------------------------------------------- one report section


#: Above this many positions the report does not scan for Men's smallest base (~10 CPU s at 256k, ~30 at 1M): it still tests
#: the model's own base and frequencies there, and men_smallest_base(d, L) computes it on request.
MEN_SCAN_MAX = 1 << 17


def long_context_section(positions, *, context: int, extended_context: int, length: int, n_curve: int = 64,
                         scan_max: int | None = MEN_SCAN_MAX, extended_from: str | None = None) -> dict:
    r"""The long-context theory applied to one rotary layer kind of a model (JSON-able).

    Parameters
    ----------
    positions : petheory.scheme.Positions
        A rotary layer's positions (registry entry + parameters + d).
    context : int
        The pre-training context L (``original_max_position_embeddings`` of a scaled model).
    extended_context : int
        The context the model claims (``max_position_embeddings``).
    length : int
        The length the RoFormer curve and the temperatures are evaluated to.
    n_curve : int
        Points of the RoFormer curve (log-spaced distances).
    scan_max : int or None
        The longest context at which the smallest passing base is scanned (None: always).
    extended_from : str or None
        Where ``extended_context`` comes from when it is not ``max_position_embeddings`` (printed beside it).

    Returns
    -------
    dict
        ``men``: the model's base, the smallest passing base at L and at the extended context, and
        whether the model's (effective, scaled) frequencies pass at each (min :math:`B_m` and where);
        ``liu``: critical dimension at L, the bound :math:`T_{extra}` for the model's base, and the
        bands that complete a turn within L before/after scaling; ``roformer``: the relative bound
        curve; ``temperature``: the logit factor at each length (``yarn``/``longrope`` from the
        scaling, Scalable-Softmax's :math:`\ln n` for comparison).

    Notes
    -----
    Men's and Liu's statements are about plain RoPE with base b: the smallest bases are for the
    layer's rotary dimension r; a scaled model's *effective* frequencies are tested directly
    (``passes_scaled``), as no single base describes them. For a sliding-window or chunked layer
    pass the span's reach (``Span.reach``) as ``context`` and ``extended_context``: its queries
    never see farther keys. Cost: dominated by :func:`men_smallest_base` (cached), about 4 CPU
    seconds at 128k (r = 128).

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> p = Positions("rotary", "rope", {"base": 5e4, "pairing": "half"}, 64)
    >>> s = long_context_section(p, context=1024, extended_context=1024, length=1024)
    >>> s["men"]["passes_at_context"], s["liu"]["critical_dimension"]
    (True, 32)
    """
    from petheory.encodings.rope_scaling import band_frequencies

    if getattr(positions, "kind", None) != "rotary":
        raise ValidationError(f"long_context_section takes a rotary layer's Positions, got {getattr(positions, 'kind', positions)!r}")
    L = v.integer("context", context, minimum=2)
    Lx = v.integer("extended_context", extended_context, minimum=L)
    n = v.integer("length", length, minimum=2)
    params = dict(positions.params)
    if positions.encoding == "mla_rope":
        r = int(params.get("rope_dim"))
    else:
        r = int(params.get("rotary_dim") or positions.d)
    base = float(params.get("base", 10000.0))
    w_plain = rope_frequencies(r, base=base)
    w_scaled, factor = band_frequencies(positions.encoding, positions.d, Lx, **params)
    def smallest(N):  # None past scan_max: the scan is ~3-4 CPU s at 128k, ~10 at 1M (r = 128)
        return men_smallest_base(r, N) if scan_max is None or N <= scan_max else None

    b_L, b_Lx = smallest(L), smallest(Lx)
    mins = {k: men_min_kernel(w, N, stop_below=None) for k, (w, N) in
            {"plain_L": (w_plain, L), "plain_Lx": (w_plain, Lx), "scaled_Lx": (w_scaled, Lx)}.items()}
    de = liu_critical_dimension(r, base, L)
    turned = lambda w, N: int(np.sum(2 * math.pi / np.maximum(w, 1e-300) < N))  # noqa: E731
    dist = np.unique(np.round(np.geomspace(1, n, n_curve)).astype(int))
    rb = roformer_relative_bound(np.concatenate([[0], dist]), w_scaled)
    scale = float(params.get("scale", params.get("factor", 1.0)) or 1.0)
    temps = attention_temperatures(sorted({L, Lx, n}), scale=max(scale, 1.0), context=L)  # ascending, each once
    return {
        "rotary_dim": r, "base": base, "context": L, "extended_context": Lx, "extended_from": extended_from, "length": n,
        "encoding": positions.encoding,
        "men": {"smallest_base_at_context": b_L, "smallest_base_at_extended": b_Lx,
                "passes_at_context": mins["plain_L"][0] >= 0, "passes_at_extended": mins["plain_Lx"][0] >= 0,
                "passes_scaled_at_extended": mins["scaled_Lx"][0] >= 0,
                "min_kernel": {k: {"value": m[0], "at": m[1]} for k, m in mins.items()},
                "fit_at_context": MEN_FIT[0] * L ** MEN_FIT[1], "fit_at_extended": MEN_FIT[0] * Lx ** MEN_FIT[1],
                "note": "smallest base with B_m >= 0 for all 0 <= m <= L, for plain RoPE of this rotary_dim; larger "
                        "bases can fail again (men2024.base_bounds_context#every_larger_base_passes)"
                        + ("" if b_Lx is not None and b_L is not None else
                           f"; not scanned above {scan_max:,} positions (minutes of CPU): "
                           "petheory.bounds.long_context.men_smallest_base(d, L) computes it")},
        "liu": {"critical_dimension": de, "extrapolation_bound": liu_extrapolation_bound(r, de, base),
                "bands_turned_within_context": turned(w_plain, L),
                "bands_turned_within_context_scaled": turned(w_scaled, L),
                "bands_turned_within_extended_scaled": turned(w_scaled, Lx), "bands": r // 2},
        "roformer": {"distances": [0] + dist.tolist(), "relative_bound": rb.tolist()},
        "temperature": {"scale": scale, "rotary_logit_factor": factor, **temps},
    }


def long_context_lines(section: dict) -> list[str]:
    """The section (:func:`long_context_section`) as short Markdown-friendly lines, for the terminal and the report.

    >>> from petheory.scheme import Positions
    >>> s = long_context_section(Positions("rotary", "rope", {"base": 1e4}, 64), context=512, extended_context=512,
    ...                          length=512)
    >>> long_context_lines(s)[0].startswith("- Men et al. 2024 (B_m = sum_i cos(m theta_i) >= 0")
    True
    """
    men, liu, t = section["men"], section["liu"], section["temperature"]
    L, Lx, b = section["context"], section["extended_context"], section["base"]

    def verdict(ok):
        return "passes" if ok else "fails"

    def g(x):
        return f"not scanned (above {MEN_SCAN_MAX:,} positions; men_smallest_base computes it)" if x is None else f"{x:.3g}"

    out = [f"- Men et al. 2024 (B_m = sum_i cos(m theta_i) >= 0 for all 0 <= m <= L): base {b:g} vs the smallest "
           f"passing base at the pre-training context L = {L:,} positions: {g(men['smallest_base_at_context'])}; this "
           f"base {verdict(men['passes_at_context'])} at L (min B_m {men['min_kernel']['plain_L']['value']:.3g} at m = "
           f"{men['min_kernel']['plain_L']['at']:,})"]
    if men["smallest_base_at_context"] is not None and b >= men["smallest_base_at_context"] and not men["passes_at_context"]:
        out.append("  - above the smallest passing base at L and still failing there: passing bases are not closed upwards "
                   "(men2024.base_bounds_context#every_larger_base_passes)")
    if Lx != L:
        src = f" ({section['extended_from']})" if section.get("extended_from") else ""
        out.append(f"  - at the extended context {Lx:,}{src}: smallest passing base "
                   f"{g(men['smallest_base_at_extended'])}; the unscaled base {verdict(men['passes_at_extended'])}, the "
                   f"model's scaled frequencies {'pass' if men['passes_scaled_at_extended'] else 'fail'} (min B_m "
                   f"{men['min_kernel']['scaled_Lx']['value']:.3g} at m = {men['min_kernel']['scaled_Lx']['at']:,})")
    out.append(f"- Liu et al. 2023: critical dimension d_extra = {liu['critical_dimension']} of {section['rotary_dim']} "
               f"rotary dims ({liu['bands_turned_within_context']} of {liu['bands']} bands make a full turn within L); "
               f"T_extra = 2 pi b^(d_extra/d) = {liu['extrapolation_bound']:,.0f} positions, the period of the first band "
               f"that does not (past it that band shows angles unseen in training); with the model's scaling, "
               f"{liu['bands_turned_within_context_scaled']} bands turn within L and "
               f"{liu['bands_turned_within_extended_scaled']} within {Lx:,}")
    d, rb = section["roformer"]["distances"], section["roformer"]["relative_bound"]
    picks = sorted({0, len(d) // 4, len(d) // 2, 3 * len(d) // 4, len(d) - 1})
    ups = int(np.sum(np.diff(rb) > 0))
    out.append("- RoFormer relative bound (2/d) sum_j |S_j| (a bound on |q^T R k| per unit of max|h_{i+1} - h_i|): "
               + ", ".join(f"{rb[i]:.3g} at distance {d[i]:,}" for i in picks)
               + f" (it rises between {ups} of {len(rb) - 1} consecutive sampled distances: not monotone)" * (ups > 0))
    lengths = t["lengths"]
    role = {n: ", ".join(r for r, x in (("L", L), ("N", section.get("length")), ("extended", Lx)) if x == n)
            for n in lengths}
    at = ", ".join(f"{n:,} ({role[n]})" if role[n] else f"{n:,}" for n in lengths)
    l4 = ", ".join(f"{x:.4g}" for x in t["llama4"])
    ss = ", ".join(f"{x:.4g}" for x in t["ssmax"])
    out.append(f"- attention temperature (factor on the logits) at n = {at}: this layer's own "
               f"{t['rotary_logit_factor']:.4g}, the same at every n; for comparison at scale s = {t['scale']:g}: YaRN "
               f"{t['yarn'][0]:.4g}, LongRoPE {t['longrope'][0]:.4g} (both constant in n), Llama 4's NoPE-layer factor "
               f"{l4}, SSMax s ln n at s = 1 {ss}")
    return out
