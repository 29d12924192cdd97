r"""Lipschitz constants of Transformer parts on arrays: softmax attention, LayerNorm, GELU.

The factors of li2025 §4.2's :math:`L_{trans}` (a reconstruction in the style of Bartlett et
al. 2017). The product over a trained torch model is
:func:`petheory.nn.lipschitz.transformer_lipschitz`, which reads the weights and calls these.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from petheory._validate import Array, Interval, validate_params
from petheory.errors import ParameterError
from petheory.rounding import json_number


GELU_LIPSCHITZ = 1.1289  # max_x d/dx [x Phi(x)], attained near x = 0.75 (rounded up)


_MATRIX, _VECTOR = [Array(ndim=2)], Array(ndim=1)


@validate_params({"w_q": _MATRIX, "w_k": _MATRIX, "w_v": _MATRIX, "w_o": _MATRIX, "n_head": [Interval(Integral, 1, None)],
                  "radius": [Interval(Real, 0, None)], "b_q": [_VECTOR, None], "b_k": [_VECTOR, None]})
def attention_lipschitz(w_q, w_k, w_v, w_o, *, n_head: int, radius: float, b_q=None, b_k=None) -> float:
    r"""Lipschitz constant of multi-head softmax self-attention on tokens with :math:`\lVert x_t\rVert\le R`.

    In the per-token norm :math:`\lVert X\rVert_{2,\infty}=\max_t\lVert x_t\rVert_2`, for heads
    :math:`h` with blocks :math:`W_Q^h,W_K^h,W_V^h` (rows of ``w_q`` etc., shape (d, d), torch's
    ``(out, in)`` layout), query/key biases :math:`b_Q^h,b_K^h` (default 0) and head dimension :math:`d_h`:

    .. math:: L_{attn}\le\lVert W_O\rVert_2\Big(\sum_h\big[\lVert W_V^h\rVert_2\big(1+R\,
              (2R\lVert W_Q^h\rVert\lVert W_K^h\rVert+\lVert W_K^h\rVert\lVert b_Q^h\rVert
              +\lVert W_Q^h\rVert\lVert b_K^h\rVert)/\sqrt{d_h}\big)\big]^2\Big)^{1/2}.

    Derivation (a reconstruction in the style of Edelman et al. 2022 and Kim et al. 2021, who show
    dot-product attention is Lipschitz only on bounded inputs): for one head
    :math:`o_i=\sum_jp_{ij}v_j`, a perturbation of size :math:`\delta` changes :math:`o_i` by
    :math:`\sum_jp_{ij}W_V\Delta_j` (at most :math:`\lVert W_V\rVert\delta`) plus
    :math:`\mathrm{Cov}_{p_i}(\Delta s_i,W_Vx)` (at most :math:`\max_j\lvert\Delta s_{ij}-c_i\rvert\,\lVert W_V\rVert R`
    by Cauchy-Schwarz; the value bias cancels in the covariance, and terms of :math:`s_{ij}` that do not
    depend on j cancel in the softmax), with :math:`\lvert\Delta s_{ij}-c_i\rvert` at most the bracket above
    times :math:`\delta/\sqrt{d_h}`. ALiBi/T5 biases and causal masks are constant in the input; RoPE's
    rotations are orthogonal (the :math:`\lVert W_Q\rVert\lVert b_K\rVert` term covers the key bias it
    makes position-dependent). Valid on the convex set of inputs with row norms :math:`\le R`.

    Parameters
    ----------
    w_q, w_k, w_v : array_like, shape (d, d_in)
        Query, key and value projections in torch's ``(out, in)`` layout; head h owns rows
        ``h*d/n_head .. (h+1)*d/n_head - 1``.
    w_o : array_like, 2-d
        Output projection (only its spectral norm is used).
    n_head : int
        Number of heads (>= 1, dividing the number of rows of ``w_q``).
    radius : float
        R (>= 0), the largest token norm of the inputs the constant is valid for.
    b_q, b_k : array_like, shape (d,), optional
        Query and key biases (default 0).

    Returns
    -------
    float
        The bound on :math:`L_{attn}` in the per-token norm :math:`\lVert\cdot\rVert_{2,\infty}`.

    Raises
    ------
    petheory.errors.ParameterError
        A row count of ``w_q`` not divisible by ``n_head``, a negative ``radius``, arrays of the wrong
        dimension or with non-finite entries.

    References
    ----------
    li2025 §4.2 (the factor of :math:`L_{trans}`); Kim et al. 2021 and Edelman et al. 2022 (Lipschitz
    on bounded inputs only).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> I = np.eye(2)
    >>> L = bounds.attention_lipschitz(I, I, I, I, n_head=1, radius=1.0)
    >>> round(L, 6)  # 1 + R (2R) / sqrt(2)
    2.414214
    >>> def attn(X):  # the same head: identity projections, no bias
    ...     S = X @ X.T / np.sqrt(2)
    ...     P = np.exp(S - S.max(axis=1, keepdims=True))
    ...     return (P / P.sum(axis=1, keepdims=True)) @ X
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-0.5, 0.5, (5, 2))  # token norms <= 0.71 <= R
    >>> Y = X + 1e-3 * rng.standard_normal((5, 2))
    >>> ratio = np.linalg.norm(attn(X) - attn(Y), axis=1).max() / np.linalg.norm(X - Y, axis=1).max()
    >>> bool(ratio <= L)
    True
    """
    H, R = int(n_head), float(radius)
    mats = [np.asarray(w, dtype=np.float64) for w in (w_q, w_k, w_v)]
    wo = np.asarray(w_o, dtype=np.float64)
    d_out = mats[0].shape[0]
    if d_out % H:  # a rule between two parameters
        raise ParameterError("n_head", f"a divisor of the query width {d_out} (the rows of w_q)", n_head,
                             owner=attention_lipschitz)
    bq, bk = (np.zeros(d_out) if b is None else np.asarray(b, dtype=np.float64) for b in (b_q, b_k))
    hd = d_out // H
    per_head = []
    for h in range(H):
        sl = slice(h * hd, (h + 1) * hd)
        q, k, val = (np.linalg.norm(w[sl], 2) for w in mats)
        score = 2.0 * R * q * k + k * np.linalg.norm(bq[sl]) + q * np.linalg.norm(bk[sl])
        per_head.append(val * (1.0 + R * score / math.sqrt(hd)))
    return float(np.linalg.norm(wo, 2) * math.sqrt(sum(x**2 for x in per_head)))


@validate_params({"gamma": [_VECTOR], "eps": [Interval(Real, 0, None, closed="neither")],
                  "variance_floor": [Interval(Real, 0, None)]})
def layernorm_lipschitz(gamma, *, eps: float, variance_floor: float = 0.0) -> float:
    r"""Lipschitz constant of LayerNorm on inputs whose per-token variance is at least ``variance_floor``.

    :math:`\mathrm{LN}(x)=\gamma\odot(x-\bar x)/\sqrt{\mathrm{var}(x)+\epsilon}+\beta` has Jacobian
    :math:`\mathrm{diag}(\gamma)\,\Pi/\sqrt{\mathrm{var}+\epsilon}` with :math:`\Pi` a projection, so
    :math:`L\le\max\lvert\gamma\rvert/\sqrt{v_{min}+\epsilon}`. With ``variance_floor=0`` this is the
    global (certified, very large) constant :math:`\max\lvert\gamma\rvert/\sqrt\epsilon`.

    Parameters
    ----------
    gamma : array_like, shape (d,)
        LayerNorm's scale :math:`\gamma`.
    eps : float
        LayerNorm's :math:`\epsilon` (> 0).
    variance_floor : float
        :math:`v_{min}` (>= 0), the smallest per-token variance of the inputs considered.

    Returns
    -------
    float
        :math:`\max\lvert\gamma\rvert/\sqrt{v_{min}+\epsilon}`.

    Raises
    ------
    petheory.errors.ParameterError
        An empty or non-finite ``gamma``, a non-positive ``eps``, a negative ``variance_floor``.

    References
    ----------
    li2025 §4.2 (the factor of :math:`L_{trans}`).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> round(bounds.layernorm_lipschitz(np.ones(4), eps=1e-5), 6)  # global: 1 / sqrt(eps)
    316.227766
    >>> L = bounds.layernorm_lipschitz(np.ones(4), eps=1e-5, variance_floor=2.0)
    >>> def ln(x):
    ...     return (x - x.mean()) / np.sqrt(x.var() + 1e-5)
    >>> x = np.array([1.0, -1.0, 2.0, -2.0])  # variance 2.5
    >>> y = x + 1e-4 * np.array([1.0, 0.0, -1.0, 0.5])
    >>> bool(np.linalg.norm(ln(x) - ln(y)) / np.linalg.norm(x - y) <= L), round(L, 6)
    (True, 0.707105)
    """
    g, eps, vf = np.asarray(gamma, dtype=np.float64), float(eps), float(variance_floor)
    return float(np.max(np.abs(g)) / math.sqrt(vf + eps))


@dataclass(frozen=True)
class LipschitzReport:
    r"""Per-factor Lipschitz constants of a Transformer and their product :math:`L_{trans}`.

    Attributes
    ----------
    total : float
        The product :math:`L_{trans}` of the factors.
    factors : list of tuple of (str, float, str)
        Each factor's name (``block0.attn_residual``, ``ln_f``, ``head``), its value and its formula.
    variance_floors : str
        How the LayerNorm factors were bounded: globally by :math:`1/\sqrt{\epsilon}` (certified) or with the
        variances measured on given inputs (not certified).
    formula : str
        The product, written out.
    """

    total: float
    factors: list[tuple[str, float, str]]
    variance_floors: str
    formula: str

    def as_dict(self) -> dict:
        """The fields by name, each factor as a list (the JSON of ``bounds``' ``lipschitz``)."""
        return {"total": self.total, "factors": [list(f) for f in self.factors],
                "variance_floors": self.variance_floors, "formula": self.formula}

    @classmethod
    def from_dict(cls, d: dict) -> "LipschitzReport":
        """The report :meth:`as_dict` wrote.

        >>> r = LipschitzReport(2.0, [("ln_f", 1.0, "f"), ("head", 2.0, "h")], "global", "ln_f head")
        >>> LipschitzReport.from_dict(r.as_dict()) == r
        True
        """
        return cls(json_number(d["total"]), [(n, json_number(val), f) for n, val, f in d["factors"]],
                   d["variance_floors"], d["formula"])
