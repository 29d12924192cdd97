r"""Least-squares fits with confidence intervals: a line, and a power law as a line in log-log.

:func:`fit_line` is weighted OLS with the classical two-sided t-interval on the slope (n-2
degrees of freedom); :func:`fit_power_law` fits :math:`y = C x^{slope}` on :math:`(\log x, \log y)`.
Used by the bounds (wavelet envelope decay, norm growth), the claim catalogue (rates of
convergence, Rademacher exponents) and the figures. numpy/scipy only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError

__all__ = ["LineFit", "fit_line", "fit_power_law"]


@dataclass(frozen=True)
class LineFit:
    """OLS fit ``y = intercept + slope * x`` with a two-sided ``level`` t-interval on the slope.

    Attributes
    ----------
    slope, intercept : float
        The OLS line.
    slope_ci : (float, float)
        Two-sided ``level`` t-interval of the slope.
    slope_se : float
        Standard error of the slope.
    n : int
        Points fitted.
    level : float
        Confidence level of ``slope_ci``.
    """

    slope: float
    intercept: float
    slope_ci: tuple[float, float]
    slope_se: float
    n: int
    level: float = 0.95

    def as_dict(self) -> dict:
        return asdict(self)


def fit_line(x, y, *, level: float = 0.95, weights=None) -> LineFit:
    """Weighted least-squares line through ``(x, y)``, shape (n,) each, n >= 3.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        The points, ``n >= 3``, finite.
    level : float, optional
        Confidence level of the slope's interval (default 0.95).
    weights : array_like, shape (n,), optional
        Non-negative weights (default equal).

    Returns
    -------
    LineFit
        Slope, intercept, the slope's t-interval and standard error, ``n`` and ``level``.

    Raises
    ------
    petheory.errors.ValidationError
        Fewer than three points, shapes that differ, or ``x`` with a single value.

    Notes
    -----
    The interval is the classical t-interval of the slope (n-2 degrees of freedom). When the
    points are a deterministic function sampled on a grid (an envelope, a sup norm), the
    interval measures how well one line describes them, not sampling noise; callers say which.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.fits import fit_line
    >>> f = fit_line(np.arange(4.0), 1.0 + 2.0 * np.arange(4.0))
    >>> round(f.slope, 12), round(f.intercept, 12)
    (2.0, 1.0)
    """
    x = v.array("x", x, ndim=1)
    y = v.array("y", y, ndim=1)
    if x.shape != y.shape or x.size < 3:
        raise ValidationError(f"fit_line needs x and y of equal length >= 3, got {x.shape} and {y.shape}")
    w = np.ones_like(x) if weights is None else v.array("weights", weights, ndim=1)
    if w.shape != x.shape or np.any(w <= 0):
        raise ValidationError("weights must be positive and match x")
    W = w / w.sum()
    xm, ym = W @ x, W @ y
    sxx = W @ (x - xm) ** 2
    if sxx <= 0:
        raise ValidationError("fit_line needs at least two distinct x values")
    slope = float(W @ ((x - xm) * (y - ym)) / sxx)
    intercept = float(ym - slope * xm)
    resid = y - intercept - slope * x
    n = x.size
    # effective residual variance for normalised weights (Kish-free: weights are relative precisions)
    s2 = float((w * resid**2).sum() / (n - 2))
    se = math.sqrt(s2 / float((w * (x - xm) ** 2).sum()))
    from scipy import stats

    t = float(stats.t.ppf(0.5 + level / 2, n - 2))
    return LineFit(slope, intercept, (slope - t * se, slope + t * se), se, n, level)


def fit_power_law(x, y, *, level: float = 0.95, weights=None) -> LineFit:
    """Fit ``y = C x^slope`` by OLS on ``(log x, log y)``; ``intercept`` is ``log C``.

    Parameters
    ----------
    x, y : array_like, shape (n,)
        Positive points, ``n >= 3``.
    level : float, optional
        Confidence level of the exponent's interval (default 0.95).
    weights : array_like, shape (n,), optional
        Non-negative weights (default equal).

    Returns
    -------
    LineFit
        The exponent as ``slope`` and ``log C`` as ``intercept``, with the slope's t-interval.

    Raises
    ------
    petheory.errors.ValidationError
        A non-positive value, or as :func:`fit_line`.

    See Also
    --------
    fit_line

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.fits import fit_power_law
    >>> x = np.array([1.0, 2.0, 4.0, 8.0])
    >>> round(fit_power_law(x, 3 * x ** -0.5).slope, 6)
    -0.5
    """
    x = v.array("x", x, ndim=1)
    y = v.array("y", y, ndim=1)
    if np.any(x <= 0) or np.any(y <= 0):
        raise ValidationError("fit_power_law needs positive x and y")
    return fit_line(np.log(x), np.log(y), level=level, weights=weights)
