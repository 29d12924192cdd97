r"""The long-context RoPE theory researchers cite, as pure functions (numpy, float64).

* Men et al. 2024 (the base bounds the context length) is :mod:`petheory.bounds.men_base`.
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

All of it for one rotary layer kind of a model's scheme (the report's section) is
:func:`petheory.analyses.long_context.long_context_section`.

Theory only: no file is read, nothing imports torch.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from petheory._validate import Array, Each, Even, Interval, validate_params
from petheory.encodings import longrope_attention_factor, yarn_mscale
from petheory.errors import ParameterError

__all__ = ["liu_critical_dimension", "liu_extrapolation_bound", "roformer_partial_sums", "roformer_relative_bound",
           "abel_bound", "attention_temperatures", "single_target_attention", "decay_mask_peak"]

#: Band frequencies: a non-empty 1-D real array (their sign is :func:`_freqs`'s rule).
_FREQS = [Array(ndim=1)]
_POSITIVE = Interval(Real, 0, None, closed="neither")


def _freqs(freqs, owner) -> np.ndarray:
    """Declared ``freqs`` (``_FREQS``) as float64, each >= 0 (a sign no declaration states), for ``owner``."""
    w = np.asarray(freqs, dtype=np.float64)
    if not np.all(w >= 0):
        raise ParameterError("freqs", "non-negative band frequencies (rad/position)", freqs, owner=owner)
    return w


# --------------------------------------------------------------------------- Liu et al. 2023


@validate_params({"d": [Even()], "base": [Interval(Real, 1, None, closed="neither")], "context": [_POSITIVE]})
def liu_critical_dimension(d: int, base: float, context: int) -> int:
    r"""Liu et al.'s critical dimension :math:`d_{extra} = 2\lceil \tfrac d2\log_{b}\tfrac{T_{train}}{2\pi}\rceil` (Eq. 8).

    The number of rotary dimensions (2 per band) whose period :math:`2\pi b^{2i/d}` is shorter than
    the training context: those bands saw every angle in training. Clipped to [0, d] (a context
    shorter than :math:`2\pi` gives 0; one longer than every period gives d).

    Parameters
    ----------
    d : int
        Rotary dimension (even, >= 2).
    base : float
        The RoPE base b (> 1) of pre-training.
    context : int
        The training context :math:`T_{train}` in positions (> 0).

    Returns
    -------
    int
        :math:`d_{extra}`, even, in [0, d].

    Raises
    ------
    petheory.errors.ParameterError
        If ``d`` is not even, ``base`` <= 1 or ``context`` <= 0.

    See Also
    --------
    liu_extrapolation_bound

    References
    ----------
    Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation", arXiv 2310.05209, §3.3, Eq. 8.

    Examples
    --------
    >>> from petheory.bounds.long_context import liu_critical_dimension
    >>> liu_critical_dimension(128, 1e4, 4096)   # Llama 2: 92 (Liu et al. §3.3)
    92
    >>> liu_critical_dimension(128, 5e5, 4096)   # a larger base: fewer bands complete a turn
    64
    >>> liu_critical_dimension(128, 1e4, 4)      # shorter than 2 pi: no band does
    0
    """
    d, base, T = int(d), float(base), float(context)
    x = (d / 2) * math.log(T / (2 * math.pi)) / math.log(base)
    return int(min(max(2 * math.ceil(x), 0), d))


@validate_params({"d": [Even()], "d_extra": [Interval(Integral, 0, None)], "base": [_POSITIVE]})
def liu_extrapolation_bound(d: int, d_extra: int, base: float) -> float:
    r"""Liu et al.'s extrapolation bound of a model fine-tuned with base β: :math:`T_{extra} = 2\pi\beta^{d_{extra}/d}` (Eq. 9).

    The period, under β, of the first band that did not complete a turn in pre-training (band
    :math:`d_{extra}/2`); ``d_extra`` comes from the *pre-training* base and context.

    Parameters
    ----------
    d : int
        Rotary dimension (even, >= 2).
    d_extra : int
        The critical dimension of pre-training (:func:`liu_critical_dimension`), in [0, d].
    base : float
        The base β of fine-tuning (> 0).

    Returns
    -------
    float
        :math:`T_{extra} = 2\pi\beta^{d_{extra}/d}`, in positions.

    Raises
    ------
    petheory.errors.ParameterError
        If ``d`` is not even, ``d_extra`` is outside [0, d] or ``base`` <= 0.

    See Also
    --------
    liu_critical_dimension

    References
    ----------
    Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation", arXiv 2310.05209, §3.3, Eq. 9.

    Examples
    --------
    >>> from petheory.bounds.long_context import liu_extrapolation_bound
    >>> round(liu_extrapolation_bound(128, 92, 1e4))
    4712
    >>> round(liu_extrapolation_bound(128, 92, 5e5))   # fine-tuned with a larger base: further
    78400
    """
    d, de, base = int(d), int(d_extra), float(base)
    if de > d:  # a rule between two parameters
        raise ParameterError("d_extra", f"<= d = {d}", d_extra, owner=liu_extrapolation_bound)
    return 2 * math.pi * base ** (de / d)


# --------------------------------------------------------------------------- RoFormer §3.4.3


@validate_params({"freqs": _FREQS})
def roformer_partial_sums(r, freqs) -> np.ndarray:
    r"""RoFormer's partial sums :math:`S_j = \sum_{k<j} e^{i r\theta_k}`, j = 1..d/2, shape (len(r), d/2), complex.

    Parameters
    ----------
    r : float or array_like
        Relative distance(s) between query and key, in positions; a scalar counts as one distance.
    freqs : array_like, shape (d/2,)
        The band frequencies :math:`\theta_k` (rad/position, >= 0), e.g. :func:`~petheory.encodings.rope_frequencies`.

    Returns
    -------
    numpy.ndarray, shape (len(r), d/2), complex128
        Row i holds :math:`S_1, \dots, S_{d/2}` at distance ``r[i]``.

    Raises
    ------
    petheory.errors.ParameterError
        If ``freqs`` is empty, not 1-D, or has a negative entry.

    See Also
    --------
    roformer_relative_bound, abel_bound

    References
    ----------
    Su et al. 2021, RoFormer, arXiv 2104.09864, §3.4.3.

    Examples
    --------
    At r = 0 every term is 1, so :math:`S_j = j`:

    >>> from petheory.bounds.long_context import roformer_partial_sums
    >>> roformer_partial_sums([0], [1.0, 0.5]).real.tolist()
    [[1.0, 2.0]]
    >>> roformer_partial_sums([0, 1, 2], [1.0, 0.5, 0.1, 0.01]).shape
    (3, 4)
    """
    return _partial_sums(np.atleast_1d(np.asarray(r, dtype=np.float64)), _freqs(freqs, roformer_partial_sums))


def _partial_sums(r: np.ndarray, w: np.ndarray) -> np.ndarray:
    """:func:`roformer_partial_sums` of checked distances (1-D float64) and frequencies."""
    return np.cumsum(np.exp(1j * r[:, None] * w), axis=1)


@validate_params({"freqs": _FREQS})
def roformer_relative_bound(r, freqs) -> np.ndarray:
    r"""RoFormer's relative upper bound :math:`\tfrac{1}{d/2}\sum_{j=1}^{d/2}|S_j|` at each distance r (§3.4.3, Fig. 2).

    Computed in chunks of 4096 distances, so long ranges of r stay within memory.

    Parameters
    ----------
    r : float or array_like
        Relative distance(s), in positions; a scalar counts as one distance.
    freqs : array_like, shape (d/2,)
        The band frequencies :math:`\theta_k` (rad/position, >= 0).

    Returns
    -------
    numpy.ndarray, shape (len(r),)
        The mean of :math:`|S_j|` over the d/2 bands at each distance: d/4 + 1/2 at r = 0,
        decaying (not monotonically) with r, as in RoFormer's Fig. 2.

    Raises
    ------
    petheory.errors.ParameterError
        If ``freqs`` is empty, not 1-D, or has a negative entry.

    See Also
    --------
    roformer_partial_sums, abel_bound

    References
    ----------
    Su et al. 2021, RoFormer, arXiv 2104.09864, §3.4.3, Fig. 2.

    Examples
    --------
    >>> from petheory.bounds.long_context import roformer_relative_bound
    >>> from petheory.encodings import rope_frequencies
    >>> roformer_relative_bound([0, 1000], rope_frequencies(128, base=1e4)).round(2).tolist()
    [32.5, 4.47]
    """
    w = _freqs(freqs, roformer_relative_bound)
    r = np.atleast_1d(np.asarray(r, dtype=np.float64))
    out = np.empty(r.shape)
    for lo in range(0, r.size, 4096):
        out[lo:lo + 4096] = np.abs(_partial_sums(r[lo:lo + 4096], w)).mean(1)
    return out


@validate_params({"h": [Array(dtype="complex")], "freqs": _FREQS})
def abel_bound(h, r: float, freqs) -> tuple[float, float]:
    r"""Both sides of RoFormer's Eq. (37): :math:`|\sum_i h_i e^{ir\theta_i}|` and :math:`\max_i|h_{i+1}-h_i|\sum_j|S_j|`.

    ``h`` has one complex entry per band; RoFormer sets :math:`h_{d/2} = 0` (the convention under
    which Abel summation gives the bound).

    Parameters
    ----------
    h : array_like, shape (d/2,)
        One (complex) coefficient per band, e.g. :math:`q_{[2i:2i+1]}k^*_{[2i:2i+1]}`; finite.
    r : float
        Relative distance, in positions.
    freqs : array_like, shape (d/2,)
        The band frequencies :math:`\theta_i` (rad/position, >= 0).

    Returns
    -------
    lhs : float
        :math:`|\sum_i h_i e^{ir\theta_i}|`.
    rhs : float
        :math:`\max_i|h_{i+1}-h_i|\sum_j|S_j|`, with :math:`h_{d/2} = 0` appended; ``lhs <= rhs``
        up to rounding.

    Raises
    ------
    petheory.errors.ParameterError
        If ``h`` has not one finite entry per band, or ``freqs`` is invalid.

    See Also
    --------
    roformer_partial_sums, roformer_relative_bound

    References
    ----------
    Su et al. 2021, RoFormer, arXiv 2104.09864, §3.4.3, Eq. (37).

    Examples
    --------
    >>> from petheory.bounds.long_context import abel_bound
    >>> lhs, rhs = abel_bound([1.0, 0.5], 3.0, [1.0, 0.1])
    >>> lhs <= rhs
    True
    """
    w = _freqs(freqs, abel_bound)
    hv = np.asarray(h, dtype=np.complex128).ravel()
    if hv.shape != w.shape:  # a rule between two parameters
        raise ParameterError("h", f"of one number per band ({w.size}, as freqs has)", h, owner=abel_bound)
    h = hv
    e = np.exp(1j * float(r) * w)
    lhs = abs(np.sum(h * e))
    dh = np.abs(np.diff(np.append(h, 0.0)))
    return float(lhs), float(dh.max() * np.abs(np.cumsum(e)).sum())


# --------------------------------------------------------------------------- temperatures


@validate_params({"lengths": [Interval(Integral, 1, None), Each(Interval(Integral, 1, None))], "scale": [_POSITIVE],
                  "context": [Interval(Integral, 2, None), None], "ssmax_s": [_POSITIVE],
                  "llama4_floor": [Interval(Integral, 1, None)], "llama4_attn_scale": [Interval(Real, None, None)]})
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

    Parameters
    ----------
    lengths : int or sequence of int
        The lengths n (each >= 1).
    scale : float, default 1.0
        The context-extension factor s (> 0) of YaRN and LongRoPE.
    context : int, optional
        The original context L of LongRoPE's factor (>= 2); default the largest of ``lengths``.
    ssmax_s : float, default 1.0
        Scalable-Softmax's s (> 0).
    llama4_floor : int, default 8192
        Llama 4's ``floor_scale`` f (>= 1).
    llama4_attn_scale : float, default 0.1
        Llama 4's ``attn_scale`` a.

    Returns
    -------
    dict
        ``lengths`` (the n as ints) and, per method, a list of one factor per length.

    Raises
    ------
    petheory.errors.ParameterError
        If a length is < 1, or a parameter is out of its range.

    See Also
    --------
    single_target_attention

    References
    ----------
    Peng et al. 2023 (YaRN), Eq. 22; Nakanishi 2025 (Scalable-Softmax), Eq. 2.

    Examples
    --------
    >>> from petheory.bounds.long_context import attention_temperatures
    >>> t = attention_temperatures([4096, 32768], scale=8.0, context=4096)
    >>> [round(x, 4) for x in t["yarn"]], [round(x, 4) for x in t["llama4"]]
    ([1.4591, 1.4591], [1.0, 1.1609])
    """
    n = np.asarray([int(x) for x in np.atleast_1d(lengths)], dtype=np.float64)
    s, f = float(scale), int(llama4_floor)
    L = int(n.max()) if context is None else int(context)
    if L < 2:  # the largest length stands for a context left out
        raise ParameterError("context", ">= 2", L, owner=attention_temperatures)
    p = n - 1
    return {"lengths": n.astype(int).tolist(),
            "yarn": [yarn_mscale(s) ** 2] * n.size,
            "longrope": [longrope_attention_factor(s, L) ** 2] * n.size,
            "llama4": (1.0 + float(llama4_attn_scale) * np.log(np.floor((p + 1) / f) + 1)).tolist(),
            "ssmax": (float(ssmax_s) * np.log(n)).tolist()}


@validate_params({"gap": [Interval(Real, None, None)]})
def single_target_attention(gap: float, n, *, logit_factor=1.0) -> np.ndarray:
    r"""Softmax weight of one target whose logit exceeds n - 1 equal distractors' by ``gap``, after a factor on the logits.

    :math:`\alpha = e^{c\Delta}/(e^{c\Delta} + n - 1)`; with Scalable-Softmax's :math:`c = s\ln n`
    it is :math:`n^{s\Delta}/(n^{s\Delta} + n - 1)`. Computed as a logistic for stability.

    Parameters
    ----------
    gap : float
        :math:`\Delta`, the target's logit minus each distractor's.
    n : float or array_like
        Number of keys attended, target included (each >= 1; n = 1 gives weight 1).
    logit_factor : float or array_like, default 1.0
        The factor c on the logits, broadcast against ``n`` (e.g. ``ssmax_s * log(n)``).

    Returns
    -------
    numpy.ndarray
        :math:`\alpha` in (0, 1], shaped as ``n`` and ``logit_factor`` broadcast together.

    Raises
    ------
    petheory.errors.ParameterError
        If ``gap`` is not a finite real number or some n < 1.

    See Also
    --------
    attention_temperatures

    References
    ----------
    Nakanishi 2025, Scalable-Softmax, Eq. 2.

    Examples
    --------
    With a constant factor the target's weight fades as n grows; with :math:`c = s\ln n` and
    :math:`s\Delta = 1` it tends to 1/2:

    >>> import numpy as np
    >>> from petheory.bounds.long_context import single_target_attention
    >>> float(single_target_attention(1.0, 2, logit_factor=np.log(2)))   # s*gap = 1: n/(2n-1)
    0.6666666666666666
    >>> n = np.array([2, 100, 10000])
    >>> single_target_attention(1.0, n).round(6).tolist()
    [0.731059, 0.026724, 0.000272]
    >>> single_target_attention(1.0, n, logit_factor=np.log(n)).round(6).tolist()
    [0.666667, 0.502513, 0.500025]
    """
    g = float(gap)
    nv = np.asarray(n, dtype=np.float64)
    if not np.all(nv >= 1):
        raise ParameterError("n", ">= 1 (keys attended, the target included)", n, owner=single_target_attention)
    n = nv
    c = np.asarray(logit_factor, dtype=np.float64)
    z = c * g - np.log(np.maximum(n - 1, 0.0) + (n == 1))  # log-odds; n = 1: only the target
    out = 1.0 / (1.0 + np.exp(-z))
    return np.where(n == 1, 1.0, out)


@validate_params({"t": [Interval(Integral, 0, None)], "m": [_POSITIVE]})
def decay_mask_peak(t: int, m: float) -> tuple[int, float]:
    r"""Wu et al. 2025's decay-mask peak: the argmax over integer x >= 0 of :math:`\binom{t+x}{x}e^{-xm}`, and :math:`t/(e^m-1)`.

    The ratio of consecutive terms is :math:`\frac{t+x+1}{x+1}e^{-m}`, >= 1 exactly while
    :math:`x + 1 \le t/(e^m-1)`; the argmax is found by evaluating the log-terms on
    :math:`0, \dots, \lceil 2t/(e^m - 1)\rceil + 2` (past the peak the terms decrease).

    Parameters
    ----------
    t : int
        The integer t >= 0 of the term :math:`\binom{t+x}{x}e^{-xm}`.
    m : float
        The decay rate m > 0.

    Returns
    -------
    argmax : int
        The integer x >= 0 where the term peaks, in [peak - 1, peak] (the search range is capped
        at 10,000,000).
    peak : float
        The continuous estimate :math:`t/(e^m-1)`.

    Raises
    ------
    petheory.errors.ParameterError
        If ``t`` < 0 or ``m`` <= 0.

    Examples
    --------
    >>> import math
    >>> from petheory.bounds.long_context import decay_mask_peak
    >>> decay_mask_peak(10, math.log(2))
    (10, 10.0)
    >>> x, peak = decay_mask_peak(100, 1.0)
    >>> x, round(peak, 6)
    (58, 58.197671)
    """
    t, m = int(t), float(m)
    peak = t / math.expm1(m)
    hi = int(min(math.ceil(2 * peak) + 2, 10_000_000))
    x = np.arange(hi + 1, dtype=np.float64)
    from scipy.special import gammaln

    logf = gammaln(t + x + 1) - gammaln(x + 1) - gammaln(t + 1) - x * m
    return int(np.argmax(logf)), peak
