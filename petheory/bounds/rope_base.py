r"""Bounds on the RoPE base from the phase-modulation view (Feilong Liu, arXiv 2602.10959, 2026): the aliasing and
DC-stability lower bounds, the depth-tightened one, the floating-point upper bound, and the exact bounds the
library's frequency ladder gives.

The paper reads RoPE as phase modulation of a bank of oscillators :math:`e^{i m\theta_t}`,
:math:`\theta_t = base^{-2t/d}`. Its abstract names four bounds; their formulas were not read in the paper (no
copy of its text was found) and are taken from a third-party summary of it (sciencestack.ai, paper 2602.10959):

* aliasing (Nyquist-like): :math:`L < 2\pi\,base` (:func:`aliasing_min_base`, as a lower bound on the base);
* DC-component stability: :math:`base \ge L / \arccos(\epsilon)` (:func:`stability_min_base`);
* with depth N: :math:`base \ge L / \arccos(\epsilon^{1/N})`, tightening as N grows (the same function);
* precision: :math:`base < 1/\epsilon_{mach}` (:func:`precision_max_base`; :func:`exact_precision_max_base` is the
  ceiling on the ladder at a length N, :math:`(N/u)^{r/(r-2)}`, our derivation, which ``plan`` and ``report`` warn with).

The summary's formulas treat the slowest band as turning at :math:`1/base` rad/position; the ladder's slowest
band turns at :math:`base^{-(r-2)/r}` (r the rotated dimensions), faster. The exact counterparts on the ladder
(:func:`exact_aliasing_min_base`, :func:`exact_stability_min_base`) say what the library's phases need:
the slowest band completes no turn over positions :math:`0..L` iff :math:`L\,\theta_{min} < 2\pi`, and keeps
:math:`\cos(m\theta_{min})^N \ge \epsilon` for every :math:`m \le L` iff :math:`L\,\theta_{min} \le
\arccos(\epsilon^{1/N})`. The claims ``liu2026.*`` check the summary's formulas against them.

Theory only: no file is read, nothing imports torch.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from petheory._validate import Even, Interval, validate_params
from petheory.errors import ParameterError, ValidationError

__all__ = ["aliasing_min_base", "stability_min_base", "precision_max_base", "exact_aliasing_min_base",
           "exact_stability_min_base", "exact_precision_max_base", "unit_roundoff"]


_LENGTH = [Interval(Real, 0, None, closed="neither")]
#: The coherence the slowest band's cos(phase) must keep.
_EPS = [Interval(Real, 0, 1, closed="neither")]
_DEPTH = [Interval(Integral, 1, None)]


def _stability_angle(eps: float, depth: int) -> float:
    """arccos(eps^(1/N)): the largest phase drift one layer may add so that N layers keep cos^N >= eps."""
    return math.acos(eps ** (1.0 / depth))


@validate_params({"length": _LENGTH})
def aliasing_min_base(length) -> float:
    r"""The summary's aliasing bound as a lower bound on the base: :math:`L < 2\pi\,base \iff base > L/2\pi`.

    Parameters
    ----------
    length : float
        Target context length L (positions, > 0).

    Returns
    -------
    float
        :math:`L/2\pi`: the base must exceed it.

    See Also
    --------
    exact_aliasing_min_base : what the library's frequency ladder needs.

    Examples
    --------
    >>> from petheory.bounds.rope_base import aliasing_min_base
    >>> round(aliasing_min_base(131072), 1)
    20860.8
    """
    return float(length) / (2.0 * math.pi)


@validate_params({"length": _LENGTH, "eps": _EPS, "depth": _DEPTH})
def stability_min_base(length, eps: float, *, depth: int = 1) -> float:
    r"""The summary's DC-stability bound :math:`base \ge L/\arccos(\epsilon^{1/N})` (N = depth; N = 1 is the
    one-layer bound :math:`L/\arccos\epsilon`).

    Parameters
    ----------
    length : float
        Target context length L (> 0).
    eps : float
        Coherence kept by the slowest band, in (0, 1).
    depth : int
        Number of layers N (>= 1) whose phase drifts compound.

    Returns
    -------
    float

    Notes
    -----
    :math:`\epsilon^{1/N}` rises towards 1 as N grows, so :math:`\arccos(\epsilon^{1/N})` falls and the bound rises:
    depth tightens it.

    Examples
    --------
    >>> from petheory.bounds.rope_base import stability_min_base
    >>> round(stability_min_base(8192, 0.5), 1), round(stability_min_base(8192, 0.5, depth=32), 1)
    (7822.8, 39500.8)
    """
    return float(length) / _stability_angle(float(eps), int(depth))


def unit_roundoff(dtype) -> float:
    r"""The unit roundoff :math:`u = \epsilon_{mach}/2` of a floating-point type (round to nearest).

    Parameters
    ----------
    dtype : str or numpy dtype
        A numpy floating type (``'float16'``, ``'float32'``, ``'float64'``) or ``'bfloat16'`` (8 significand bits:
        :math:`u = 2^{-8}`, which numpy does not provide).

    Returns
    -------
    float

    Raises
    ------
    ValidationError
        Not a floating type.

    Examples
    --------
    >>> from petheory.bounds.rope_base import unit_roundoff
    >>> unit_roundoff("float32") == 2.0**-24, unit_roundoff("bfloat16") == 2.0**-8
    (True, True)
    """
    if isinstance(dtype, str) and dtype == "bfloat16":
        return 2.0 ** -8
    try:
        info = np.finfo(np.dtype(dtype))
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"dtype must be a floating type ('float16', 'float32', 'float64' or 'bfloat16'), "
                              f"got {dtype!r}") from exc
    return float(info.eps) / 2.0


def precision_max_base(dtype) -> float:
    r"""The summary's precision ceiling :math:`base < 1/\epsilon_{mach}` for a floating-point type
    (:math:`\epsilon_{mach} = 2u`, :func:`unit_roundoff`).

    The summary's statement (module docstring): the slowest band, read as turning at :math:`1/base` rad/position,
    must move by at least :math:`\epsilon_{mach}` per position. It is kept as the summary states it for the
    ``liu2026`` coverage entry (not checked: the paper's criterion was not read). :func:`exact_precision_max_base` is
    a different statement, the one ``plan`` and ``report`` lint with: on the library's ladder
    (:math:`\theta_{min} = base^{-(r-2)/r}`), the slowest band's phase over the longest distance N against one
    rounding unit, :math:`(N/u)^{r/(r-2)}`; this bound is that one's form at N = 1 with the ladder's exponent read
    as 1 and :math:`\epsilon_{mach}` for u.

    Parameters
    ----------
    dtype : str or numpy dtype
        As :func:`unit_roundoff`.

    Returns
    -------
    float
        :math:`1/\epsilon_{mach}`.

    See Also
    --------
    exact_precision_max_base : the length- and ladder-dependent ceiling plan and report warn with.

    Examples
    --------
    >>> from petheory.bounds.rope_base import precision_max_base
    >>> precision_max_base("float32"), precision_max_base("bfloat16")
    (8388608.0, 128.0)
    """
    return 1.0 / (2.0 * unit_roundoff(dtype))


@validate_params({"length": [Interval(Real, 1, None)], "rotary_dim": [Even()]})
def exact_precision_max_base(length, rotary_dim: int, dtype="bfloat16") -> float:
    r"""The largest RoPE base whose slowest band still moves by one rounding unit of ``dtype`` within ``length``.

    RoPE modulates the phase of each band: a query-key pair of band t contributes
    :math:`\mathrm{Re}(q_t\bar k_t e^{im\theta_t})`, whose position-dependent part, for a phase
    :math:`\phi = m\theta_t \ll 1`, is :math:`\phi\,\mathrm{Im}(q_t\bar k_t)` beside a constant of the same size
    (the phase-modulation view of RoPE, arXiv 2602.10959). In a float of unit roundoff u (:func:`unit_roundoff`) that
    part is lost to rounding while :math:`\phi < u`. The slowest band, :math:`\theta_{min} = b^{-(r-2)/r}`, reaches
    its largest phase :math:`N\theta_{min}` at the longest distance, so it carries no position within N in that
    dtype when :math:`N b^{-(r-2)/r} < u`, i.e. above

    .. math:: b_{max} = (N/u)^{r/(r-2)}.

    This is our derivation of an upper bound in the spirit of that paper (one band, one rounding of its own term;
    accumulation over bands and the softmax only lower it), not a formula quoted from it: the summary's
    :func:`precision_max_base` (:math:`1/\epsilon_{mach}`, per position and with :math:`1/base` as the slowest band)
    is another statement, kept beside it as the summary gives it. Above :math:`b_{max}` the slowest band is a
    position-free band at that dtype: raising the base further changes nothing it can represent.

    Parameters
    ----------
    length : float
        N, the longest distance the run uses (>= 1).
    rotary_dim : int
        r, the rotated dimensions (even, >= 4).
    dtype : str or numpy dtype
        As :func:`unit_roundoff` (a config's ``torch_dtype``: ``bfloat16``, ``float16``, ``float32``).

    Returns
    -------
    float
        :math:`b_{max}`.

    Raises
    ------
    petheory.errors.ParameterError
        A ``length`` below 1, an odd ``rotary_dim`` or one below 4.
    ValidationError
        Not a floating type.

    See Also
    --------
    precision_max_base : the summary's ceiling.

    Examples
    --------
    >>> from petheory.bounds.rope_base import exact_precision_max_base
    >>> f"{exact_precision_max_base(131072, 128, 'bfloat16'):.3g}"
    '4.42e+07'
    """
    r = _exponent(rotary_dim, exact_precision_max_base)
    return math.exp(r * (math.log(float(length)) - math.log(unit_roundoff(dtype))))


def _exponent(rotary_dim, owner) -> float:
    """r/(r-2) of ``owner``'s declared (even) ``rotary_dim``, which must also be >= 4 (a range an even one can miss)."""
    r = int(rotary_dim)
    if r < 4:
        raise ParameterError("rotary_dim", ">= 4 (with one band, r = 2, its frequency is 1 rad/position for every "
                             "base, so no base bounds it)", rotary_dim, owner=owner)
    return r / (r - 2)


@validate_params({"length": _LENGTH, "rotary_dim": [Even()]})
def exact_aliasing_min_base(length, rotary_dim: int) -> float:
    r"""The base above which the ladder's slowest band completes no turn over positions 0..L:
    :math:`L\,base^{-(r-2)/r} < 2\pi \iff base > (L/2\pi)^{r/(r-2)}`.

    Parameters
    ----------
    length : float
        L (> 0).
    rotary_dim : int
        Rotated dimensions r (even, >= 4).

    Returns
    -------
    float

    Examples
    --------
    >>> from petheory.bounds.rope_base import exact_aliasing_min_base
    >>> round(exact_aliasing_min_base(131072, 128), 1)  # above the summary's L / 2 pi = 20860.8
    24428.2
    """
    return (float(length) / (2.0 * math.pi)) ** _exponent(rotary_dim, exact_aliasing_min_base)


@validate_params({"length": _LENGTH, "eps": _EPS, "rotary_dim": [Even()], "depth": _DEPTH})
def exact_stability_min_base(length, eps: float, rotary_dim: int, *, depth: int = 1) -> float:
    r"""The smallest base whose slowest band keeps :math:`\cos(m\theta_{min})^N \ge \epsilon` for every
    :math:`0 \le m \le L`: :math:`L\,base^{-(r-2)/r} \le \arccos(\epsilon^{1/N})`.

    Parameters
    ----------
    length : float
        L (> 0).
    eps : float
        Coherence, in (0, 1).
    rotary_dim : int
        Rotated dimensions r (even, >= 4).
    depth : int
        Layers N (>= 1).

    Returns
    -------
    float

    Examples
    --------
    >>> from petheory.bounds.rope_base import exact_stability_min_base
    >>> round(exact_stability_min_base(8192, 0.5, 128), 1)  # above the summary's 7822.8
    9019.0
    """
    r = _exponent(rotary_dim, exact_stability_min_base)
    return (float(length) / _stability_angle(float(eps), int(depth))) ** r
