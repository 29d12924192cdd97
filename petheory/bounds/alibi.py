r"""li2025 §5.3, Eq. 9: ALiBi extrapolation, the drift of attention beyond the training length.

Eq. 9: :math:`\lvert A(\mu,-\alpha d)-A(\mu,-\alpha N_{max})\rvert\le L_A\alpha(d-N_{max})`.
:math:`A(\mu, b)` read two ways (a softmax weight, an attention output), its Lipschitz constant
in the bias (analytic and numeric), and both sides of the inequality for one row. The drift
measured on a trained model is :func:`petheory.nn.lipschitz.alibi_drift`.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from petheory import _memory
from petheory._validate import Array, Interval, StrOptions, validate_params
from petheory.errors import ParameterError


ALIBI_READINGS = ("weight", "output")
_VALUES, _VALUE_B = Array(ndim=2), Array(ndim=1)


@validate_params({"mu": [Array(ndim=1, nonempty=False)]})
def attention_weight(mu, b) -> np.ndarray:
    r""":math:`A(\mu,b)=e^b/(e^b+\sum_je^{\mu_j})`: the softmax weight of a key with logit ``b`` among keys with logits ``mu``.

    li2025 Eq. 9's "attention function" read as a softmax weight: ``mu`` (n-1,) are the other
    logits of the query's row (content plus their own biases), ``b`` the moving key's bias (its
    content logit folded into ``mu``'s reference, i.e. ``b`` is its whole logit). ``b`` may be an
    array; the result has its shape. Computed in log space (no overflow).

    Parameters
    ----------
    mu : array_like, shape (n-1,)
        The other keys' logits (may be empty: the weight is then 1).
    b : float or array_like
        The moving key's logit (its ALiBi bias :math:`-\alpha d` in Eq. 9).

    Returns
    -------
    numpy.ndarray
        Shape of ``b`` (0-d for a scalar): the weights, in [0, 1].

    See Also
    --------
    alibi_lipschitz, alibi_extrapolation_terms

    Examples
    --------
    >>> from petheory import bounds
    >>> round(float(bounds.attention_weight([0.0], 0.0)), 6)  # two equal logits: 1/2
    0.5
    >>> bounds.attention_weight([0.0, 0.0], [-1000.0, 1000.0]).tolist()  # no overflow at either end
    [0.0, 1.0]
    """
    mu = np.asarray(mu, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    lse = np.logaddexp.reduce(mu) if mu.size else -np.inf
    return np.exp(b - np.logaddexp(b, lse))


@validate_params({"mu": [Array(ndim=1)], "values": [_VALUES], "value_b": [_VALUE_B]})
def attention_output(mu, b, values, value_b) -> np.ndarray:
    r""":math:`A(\mu,b)=\sum_jp_jv_j` with the moving key's value ``value_b`` (d,), other keys' ``values`` (n-1, d).

    The output reading of Eq. 9. Returns (d,) for scalar ``b``, (len(b), d) for an array.

    Parameters
    ----------
    mu : array_like, shape (n-1,)
        The other keys' logits (non-empty).
    b : float or array_like, shape (nb,)
        The moving key's logit(s).
    values : array_like, shape (n-1, d)
        The other keys' values.
    value_b : array_like, shape (d,)
        The moving key's value.

    Returns
    -------
    numpy.ndarray
        Shape (d,) for a scalar ``b``, (nb, d) for an array: the attention output at each ``b``.

    Raises
    ------
    petheory.errors.ParameterError
        ``values`` not of shape (len(mu), len(value_b)), an empty ``mu``, non-finite entries.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> mu, values, value_b = [0.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [2.0, 2.0]
    >>> bounds.attention_output(mu, np.log(2.0), values, value_b).round(6).tolist()  # weights 1/2, 1/4, 1/4
    [1.25, 1.25]
    >>> bounds.attention_output(mu, [-50.0, 50.0], values, value_b).round(6).tolist()  # the others' mean, value_b
    [[0.5, 0.5], [2.0, 2.0]]
    """
    vals, vb, mu = (np.asarray(x, dtype=np.float64) for x in (values, value_b, mu))
    if vals.shape != (mu.size, vb.size):  # a rule between the parameters
        raise ParameterError("values", f"of shape ({mu.size}, {vb.size}) (a row per key of mu, as long as value_b)",
                             values, owner=attention_output)
    scalar = np.ndim(b) == 0
    pb = attention_weight(mu, np.atleast_1d(np.asarray(b, dtype=np.float64)))  # (nb,)
    w = np.exp(mu - np.logaddexp.reduce(mu))  # (n-1,) the others' weights among themselves
    out = pb[:, None] * vb[None, :] + (1 - pb)[:, None] * (w @ vals)[None, :]
    return out[0] if scalar else out


def _output_values(values, value_b, owner) -> tuple[np.ndarray, np.ndarray]:
    """``owner``'s declared ``values`` and ``value_b`` as float64, given (the 'output' reading reads them) and as wide."""
    for name, x, c in (("values", values, _VALUES), ("value_b", value_b, _VALUE_B)):
        if x is None:
            raise ParameterError(name, f"{c.describe()} (the 'output' reading reads it)", x, owner=owner)
    vals, vb = np.asarray(values, dtype=np.float64), np.asarray(value_b, dtype=np.float64)
    if vals.shape[1] != vb.size:
        raise ParameterError("values", f"{vb.size} wide (as value_b)", values, owner=owner)
    return vals, vb


@validate_params({"reading": [StrOptions(ALIBI_READINGS)], "values": [_VALUES, None], "value_b": [_VALUE_B, None]})
def alibi_lipschitz(reading: str = "weight", *, values=None, value_b=None) -> float:
    r"""li2025 Eq. 9's constant, analytic: :math:`L_A=\sup_b\lvert\partial A/\partial b\rvert`.

    'weight': :math:`\partial A/\partial b=A(1-A)\le1/4`, attained where :math:`A=1/2` (reached for
    some ``b`` whatever :math:`\mu`), so :math:`L_A=1/4` exactly. 'output':
    :math:`\partial o/\partial b=A(1-A)(v_b-\bar v_{-b})`, so
    :math:`L_A=\tfrac14\lVert v_b-\bar v_{-b}\rVert\le\tfrac14\operatorname{diam}\{v_j\}` with
    :math:`\bar v_{-b}` the others' weighted mean; returned as :math:`\tfrac14\max_j\lVert v_b-v_j\rVert`
    (valid for every :math:`\mu`).

    Parameters
    ----------
    reading : {'weight', 'output'}
        Which :math:`A`: the softmax weight (:func:`attention_weight`) or the output (:func:`attention_output`).
    values : array_like, shape (n-1, d), optional
        The other keys' values (needed for 'output').
    value_b : array_like, shape (d,), optional
        The moving key's value (needed for 'output').

    Returns
    -------
    float
        :math:`L_A`: 1/4 for 'weight', :math:`\tfrac14\max_j\lVert v_b-v_j\rVert` for 'output'.

    Raises
    ------
    petheory.errors.ParameterError
        An unknown ``reading``; for 'output', missing or mis-shaped values.

    See Also
    --------
    attention_weight

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.alibi_lipschitz('weight')  # sup A(1 - A)
    0.25
    >>> bounds.alibi_lipschitz('output', values=[[0.0, 0.0], [3.0, 4.0]], value_b=[0.0, 0.0])  # 5 / 4
    1.25
    """
    if reading == "weight":
        return 0.25
    vals, vb = _output_values(values, value_b, alibi_lipschitz)
    return 0.25 * float(np.max(np.linalg.norm(vals - vb[None, :], axis=1)))


@validate_params({"mu": [Array(ndim=1)], "n_grid": [Interval(Integral, 3, None)]})
def alibi_lipschitz_numeric(mu, *, b_range: tuple[float, float] | None = None, n_grid: int = 4001) -> float:
    r"""Numerical :math:`\max_b\lvert\partial A/\partial b\rvert` by central differences on a grid of ``b``.

    Default range: :math:`\mathrm{lse}(\mu)\pm 40` (covers :math:`A` from :math:`e^{-40}` to
    :math:`1-e^{-40}`). Converges to 1/4 as the grid refines: a check of :func:`alibi_lipschitz`.

    Parameters
    ----------
    mu : array_like, shape (n-1,)
        The other keys' logits (non-empty).
    b_range : (float, float), optional
        The interval of ``b`` searched; default :math:`\mathrm{lse}(\mu)\pm 40`.
    n_grid : int
        Grid points (>= 3); the step is ``(hi - lo) / (n_grid - 1)``.

    Returns
    -------
    float
        The largest central difference quotient of :func:`attention_weight` on the grid.

    Raises
    ------
    petheory.errors.ParameterError
        An empty or non-finite ``mu``, ``n_grid`` below 3.

    Examples
    --------
    >>> from petheory import bounds
    >>> L = bounds.alibi_lipschitz_numeric([0.0, 1.0])
    >>> 0.2499 < L <= bounds.alibi_lipschitz("weight")  # the analytic 1/4, from below
    True
    """
    mu, n_grid = np.asarray(mu, dtype=np.float64), int(n_grid)
    lse = float(np.logaddexp.reduce(mu))
    lo, hi = (lse - 40.0, lse + 40.0) if b_range is None else map(float, b_range)
    _memory.require(_memory.array_bytes(n_grid, mu.size, itemsize=4 * 8),
                    f"attention weights on a grid of {n_grid} b values", alternative="use a smaller n_grid")
    b = np.linspace(lo, hi, n_grid)
    h = (hi - lo) / (b.size - 1)
    A = attention_weight(mu, b)
    return float(np.max(np.abs(A[2:] - A[:-2]) / (2 * h)))


@validate_params({"mu": [Array(ndim=1)], "slope": [Interval(Real, 0, None)], "distance": [Interval(Integral, 0, None)],
                  "n_max": [Interval(Integral, 1, None)]})
def alibi_extrapolation_terms(mu, *, slope: float, distance: int, n_max: int, reading: str = "weight",
                              values=None, value_b=None) -> dict:
    r"""Both sides of li2025 Eq. 9 for one row: :math:`\lvert A(\mu,-\alpha d)-A(\mu,-\alpha N_{max})\rvert\le L_A\alpha(d-N_{max})`.

    Returns ``lhs``, ``rhs`` (with the analytic :math:`L_A`), and ``sharp``: the mean-value bound
    :math:`\max_{b\in[-\alpha d,-\alpha N_{max}]}A(1-A)\,\alpha(d-N_{max})` (times the value spread
    for the output reading), never larger than ``rhs``. Needs ``distance > n_max``.

    Parameters
    ----------
    mu : array_like, shape (n-1,)
        The other keys' logits in the row.
    slope : float
        The head's ALiBi slope :math:`\alpha` (>= 0).
    distance : int
        The moving key's distance d from the query, beyond the training length.
    n_max : int
        Training length :math:`N_{max}` (>= 1).
    reading : {'weight', 'output'}
        Which :math:`A` (see :func:`alibi_lipschitz`); any value other than 'weight' is read as 'output'.
    values : array_like, shape (n-1, d), optional
        The other keys' values (for 'output').
    value_b : array_like, shape (d,), optional
        The moving key's value (for 'output').

    Returns
    -------
    dict
        ``lhs`` (the drift), ``rhs`` (Eq. 9's bound), ``sharp`` (the mean-value bound, between the two)
        and ``L_A`` (the constant used).

    Raises
    ------
    petheory.errors.ParameterError
        ``distance <= n_max``, a negative ``slope``, ``n_max`` below 1, mis-shaped inputs.

    References
    ----------
    li2025 §5.3, Eq. 9.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> t = bounds.alibi_extrapolation_terms(np.zeros(3), slope=0.5, distance=12, n_max=10)
    >>> t["lhs"] <= t["sharp"] <= t["rhs"], t["rhs"]  # L_A alpha (d - N_max) = 0.25 * 0.5 * 2
    (True, 0.25)
    """
    alpha, n_max, dist = float(slope), int(n_max), int(distance)
    if dist <= n_max:  # a rule between two parameters
        raise ParameterError("distance", f"> n_max = {n_max} (Eq. 9 is about keys beyond the training length)", distance,
                             owner=alibi_extrapolation_terms)
    mu = np.asarray(mu, dtype=np.float64)
    b1, b0 = -alpha * dist, -alpha * n_max
    grid = np.linspace(b1, b0, 257)
    A = attention_weight(mu, grid)
    if reading == "weight":
        lhs = float(abs(attention_weight(mu, b1) - attention_weight(mu, b0)))
        LA, spread = alibi_lipschitz("weight"), 1.0
    else:
        o = attention_output(mu, np.array([b1, b0]), values, value_b)
        lhs = float(np.linalg.norm(o[0] - o[1]))
        LA = alibi_lipschitz("output", values=values, value_b=value_b)
        w = np.exp(mu - np.logaddexp.reduce(mu))
        spread = float(np.linalg.norm(np.asarray(value_b, dtype=np.float64) - w @ np.asarray(values, dtype=np.float64)))
    # A(1-A) is unimodal in b, so its max over the interval is at the grid max or at A = 1/2 if inside
    lse = float(np.logaddexp.reduce(mu))
    peak = 0.25 if b1 <= lse <= b0 else float(np.max(A * (1 - A)))
    return {"lhs": lhs, "rhs": LA * alpha * (dist - n_max), "sharp": peak * spread * alpha * (dist - n_max), "L_A": LA}
