r"""Bounds on the RoPE base from the phase-modulation view (Feilong Liu, arXiv 2602.10959, 2026): the aliasing and
DC-stability lower bounds, the depth-tightened one, the floating-point upper bound, and the exact bounds the
library's frequency ladder gives.

The paper reads RoPE as phase modulation of a bank of oscillators :math:`e^{i m\theta_t}`,
:math:`\theta_t = base^{-2t/d}`. Its abstract names four bounds; their formulas were not read in the paper (no
copy of its text was found) and are taken from a third-party summary of it (sciencestack.ai, paper 2602.10959):

* aliasing (Nyquist-like): :math:`L < 2\pi\,base` (:func:`aliasing_min_base`, as a lower bound on the base);
* DC-component stability: :math:`base \ge L / \arccos(\epsilon)` (:func:`stability_min_base`);
* with depth N: :math:`base \ge L / \arccos(\epsilon^{1/N})`, tightening as N grows (the same function);
* precision: :math:`base < 1/\epsilon_{mach}` (:func:`precision_max_base`).

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

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError

__all__ = ["aliasing_min_base", "stability_min_base", "precision_max_base", "exact_aliasing_min_base",
           "exact_stability_min_base"]


def _length(length) -> float:
    return v.real("length", length, positive=True)


def _eps(eps) -> float:
    eps = v.real("eps", eps)
    if not 0.0 < eps < 1.0:
        raise ValidationError(f"eps must lie in (0, 1) (the coherence cos(phase) must keep), got {eps}")
    return eps


def _stability_angle(eps: float, depth: int) -> float:
    """arccos(eps^(1/N)): the largest phase drift one layer may add so that N layers keep cos^N >= eps."""
    return math.acos(eps ** (1.0 / depth))


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
    return _length(length) / (2.0 * math.pi)


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
    depth = v.integer("depth", depth, minimum=1)
    return _length(length) / _stability_angle(_eps(eps), depth)


def precision_max_base(dtype) -> float:
    r"""The summary's precision ceiling :math:`base < 1/\epsilon_{mach}` for a floating-point type.

    Parameters
    ----------
    dtype : str or numpy dtype
        A numpy floating type (``'float16'``, ``'float32'``, ``'float64'``) or ``'bfloat16'`` (8 significand bits:
        :math:`\epsilon_{mach} = 2^{-7}`, which numpy does not provide).

    Returns
    -------
    float
        :math:`1/\epsilon_{mach}`.

    Examples
    --------
    >>> from petheory.bounds.rope_base import precision_max_base
    >>> precision_max_base("float32"), precision_max_base("bfloat16")
    (8388608.0, 128.0)
    """
    if isinstance(dtype, str) and dtype == "bfloat16":
        return 2.0 ** 7
    try:
        info = np.finfo(np.dtype(dtype))
    except (TypeError, ValueError) as exc:
        raise ValidationError(f"dtype must be a floating type ('float16', 'float32', 'float64' or 'bfloat16'), "
                              f"got {dtype!r}") from exc
    return float(1.0 / info.eps)


def _exponent(rotary_dim: int) -> float:
    r = v.even("rotary_dim", rotary_dim)
    if r < 4:
        raise ValidationError(f"rotary_dim must be >= 4: with one band (r = 2) its frequency is 1 rad/position for "
                              f"every base, so no base bounds it; got {r}")
    return r / (r - 2)


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
    return (_length(length) / (2.0 * math.pi)) ** _exponent(rotary_dim)


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
    depth = v.integer("depth", depth, minimum=1)
    return (_length(length) / _stability_angle(_eps(eps), depth)) ** _exponent(rotary_dim)
