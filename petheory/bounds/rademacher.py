r"""Rademacher complexity (li2025 §4.2): closed forms, a Monte Carlo estimator, the Lipschitz-product bound.

Closed forms for norm-bounded linear classes (Bartlett & Mendelson 2002), an estimator of the
empirical Rademacher complexity with its standard error for linear and kernel classes, inputs
:math:`z = x + PE(pos)` for them, and li2025 §4.2's :math:`B_{out}L_{trans}B_0/\sqrt m`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory.errors import ValidationError


@dataclass(frozen=True)
class RademacherEstimate:
    """Monte Carlo estimate of an empirical Rademacher complexity: ``mean`` +- ``se`` over ``n_draws``."""

    mean: float
    se: float
    n_draws: int
    m: int

    def as_dict(self) -> dict:
        return asdict(self)


def _sigma(m: int, n_draws: int, seed) -> np.ndarray:
    _memory.require(_memory.array_bytes(int(n_draws), int(m), itemsize=2 * 8), f"Rademacher signs ({n_draws} draws x m = {m})")
    return v.generator(seed).choice(np.array([-1.0, 1.0]), size=(n_draws, m))  # (n_draws, m)


def rademacher_linear_sup(X, sigma, weight_norm: float = 1.0) -> np.ndarray:
    r"""Exact :math:`\sup_{\lVert w\rVert_2\le B}\frac1m\sum_i\sigma_i\langle w,x_i\rangle = \frac Bm\lVert\sum_i\sigma_ix_i\rVert_2`.

    ``X`` (m, d), ``sigma`` (m,) or (n_draws, m) of +-1; returns a float or (n_draws,).
    The supremum is attained at :math:`w = B\,v/\lVert v\rVert`, :math:`v=\sum_i\sigma_ix_i` (Cauchy-Schwarz).
    """
    X = v.array("X", X, ndim=2)
    B = v.real("weight_norm", weight_norm, nonnegative=True)
    s = v.array("sigma", sigma, ndim=(1, 2))
    if s.shape[-1] != X.shape[0]:
        raise ValidationError(f"sigma must have m={X.shape[0]} entries per draw, got shape {s.shape}")
    return B * np.linalg.norm(s @ X, axis=-1) / X.shape[0]


def rademacher_kernel_sup(K, sigma, weight_norm: float = 1.0) -> np.ndarray:
    r"""Exact :math:`\sup_{\lVert f\rVert_{\mathcal H}\le B}\frac1m\sum_i\sigma_if(x_i) = \frac Bm\sqrt{\sigma^\top K\sigma}`.

    ``K`` (m, m) the Gram matrix of a positive semi-definite kernel; ``sigma`` (m,) or (n_draws, m).
    """
    K = v.square("K", K)
    B = v.real("weight_norm", weight_norm, nonnegative=True)
    s = v.array("sigma", sigma, ndim=(1, 2))
    if s.shape[-1] != K.shape[0]:
        raise ValidationError(f"sigma must have m={K.shape[0]} entries per draw, got shape {s.shape}")
    quad = np.einsum("...i,ij,...j->...", s, K, s)
    return B * np.sqrt(np.maximum(quad, 0.0)) / K.shape[0]  # clip tiny negative rounding of a PSD form


def empirical_rademacher(
    X=None, *, gram=None, weight_norm: float = 1.0, n_draws: int = 200, seed=0
) -> RademacherEstimate:
    r"""Monte Carlo estimate of :math:`\hat R_S(\mathcal F)=E_\sigma\sup_{f\in\mathcal F}\frac1m\sum_i\sigma_if(x_i)`.

    Give ``X`` (m, d) for the linear class :math:`\{x\mapsto\langle w,x\rangle:\lVert w\rVert_2\le B\}`
    or ``gram`` (m, m) for the RKHS ball :math:`\{\lVert f\rVert_{\mathcal H}\le B\}`. The supremum is
    exact for every draw (:func:`rademacher_linear_sup`, :func:`rademacher_kernel_sup`); only the
    expectation over :math:`\sigma` is sampled, so ``se`` (sample std / sqrt(n_draws)) is the only error.
    """
    if (X is None) == (gram is None):
        raise ValidationError("give exactly one of X (linear class) or gram (kernel class)")
    n_draws = v.integer("n_draws", n_draws, minimum=2)
    if X is not None:
        X = v.array("X", X, ndim=2)
        m = X.shape[0]
        vals = rademacher_linear_sup(X, _sigma(m, n_draws, seed), weight_norm)
    else:
        K = v.square("gram", gram)
        m = K.shape[0]
        vals = rademacher_kernel_sup(K, _sigma(m, n_draws, seed), weight_norm)
    return RademacherEstimate(float(vals.mean()), float(vals.std(ddof=1) / math.sqrt(n_draws)), n_draws, m)


def rademacher_linear_bound(m: int, weight_norm: float, input_norm: float) -> float:
    r"""Closed form :math:`R_m\le B\,B_0/\sqrt m` for :math:`\lVert w\rVert\le B` on inputs with :math:`\lVert x\rVert\le B_0`.

    From :math:`E\lVert\sum\sigma_ix_i\rVert\le(\sum\lVert x_i\rVert^2)^{1/2}` (Jensen; Bartlett &
    Mendelson 2002, Lemma 22) and :math:`\lVert x_i\rVert\le B_0`. With :math:`B_0=B_x+B_p` (Table 2)
    this is li2025 §4.2's :math:`O(L_{trans}B_0/\sqrt m)` for the linear class (:math:`L_{trans}=B`).
    """
    m = v.integer("m", m, minimum=1)
    B = v.real("weight_norm", weight_norm, nonnegative=True)
    B0 = v.real("input_norm", input_norm, nonnegative=True)
    return B * B0 / math.sqrt(m)


def rademacher_linear_data_bound(X, weight_norm: float = 1.0) -> float:
    r"""The data-dependent form :math:`\frac Bm(\sum_i\lVert x_i\rVert^2)^{1/2}\ge\hat R_S` (Jensen), ``X`` (m, d)."""
    X = v.array("X", X, ndim=2)
    B = v.real("weight_norm", weight_norm, nonnegative=True)
    return B * float(np.linalg.norm(X)) / X.shape[0]


def gram_matrix(X, kernel: str = "linear", *, gamma: float | None = None, degree: int = 2) -> np.ndarray:
    r"""Gram matrix (m, m) of ``X`` (m, d): 'linear' :math:`x^\top y`, 'rbf' :math:`e^{-\gamma\lVert x-y\rVert^2}`
    (default :math:`\gamma=1/d`), 'poly' :math:`(1+x^\top y)^{degree}`."""
    X = v.array("X", X, ndim=2)
    v.choice("kernel", kernel, ("linear", "rbf", "poly"))
    G = X @ X.T
    if kernel == "linear":
        return G
    if kernel == "poly":
        return (1.0 + G) ** v.integer("degree", degree, minimum=1)
    g = 1.0 / X.shape[1] if gamma is None else v.real("gamma", gamma, positive=True)
    sq = np.diag(G)
    return np.exp(-g * np.maximum(sq[:, None] + sq[None, :] - 2 * G, 0.0))


def pe_augmented_inputs(name: str, m: int, d: int, *, length: int, token_norm: float = 1.0, seed=0, **params):
    r"""``m`` inputs :math:`z_i = x_i + PE(pos_i)`, shape (m, d), and their positions (m,).

    Tokens :math:`x_i` are uniform on the sphere of radius ``token_norm`` (so :math:`B_x` is exact);
    positions are uniform on ``0..length-1``. ``params`` go to the encoding (absolute kinds only).
    """
    m = v.integer("m", m, minimum=1)
    length = v.integer("length", length, minimum=1)
    Bx = v.real("token_norm", token_norm, nonnegative=True)
    _memory.require(_memory.array_bytes(m, v.integer("d", d, minimum=1), itemsize=4 * 8), f"PE-augmented inputs (m = {m}, d = {d})")
    rng = v.generator(seed)
    x = rng.normal(size=(m, d))
    x *= Bx / np.linalg.norm(x, axis=1, keepdims=True)
    pos = rng.integers(0, length, size=m)
    if enc.info(name).kind != "absolute":
        raise ValidationError(f"pe_augmented_inputs needs an absolute encoding, {name!r} is {enc.info(name).kind}")
    P = enc.get(name)(length, d, **params)
    return x + P[pos], pos


def rademacher_lipschitz_bound(lipschitz: float, input_norm: float, m: int, *, output_norm: float = 1.0) -> float:
    r"""li2025 §4.2's expression :math:`B_{out}L_{trans}B_0/\sqrt m`, constant 1, log factors dropped.

    Rigorous as stated only for linear readouts (:func:`rademacher_linear_bound`); for a whole
    Transformer class it is the paper's scaling law evaluated on given constants, not a certified
    bound (Bartlett et al. 2017 add a :math:`(\sum_i(\lVert A_i\rVert_{2,1}/\lVert A_i\rVert_2)^{2/3})^{3/2}`
    factor and logs). Used as the bound line of the bound-vs-empirical figure.
    """
    L = v.real("lipschitz", lipschitz, nonnegative=True)
    B0 = v.real("input_norm", input_norm, nonnegative=True)
    m = v.integer("m", m, minimum=1)
    Bo = v.real("output_norm", output_norm, nonnegative=True)
    return Bo * L * B0 / math.sqrt(m)
