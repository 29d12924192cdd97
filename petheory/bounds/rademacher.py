r"""Rademacher complexity (li2025 §4.2): closed forms, a Monte Carlo estimator, the Lipschitz-product bound.

Closed forms for norm-bounded linear classes (Bartlett & Mendelson 2002), an estimator of the
empirical Rademacher complexity with its standard error for linear and kernel classes, inputs
:math:`z = x + PE(pos)` for them, and li2025 §4.2's :math:`B_{out}L_{trans}B_0/\sqrt m`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from numbers import Integral, Real

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory._validate import SEED, Array, Interval, StrOptions, validate_params
from petheory.errors import ParameterError, ValidationError

_AT_LEAST_1 = [Interval(Integral, 1, None)]
_NONNEGATIVE = [Interval(Real, 0, None)]
_DATA, _GRAM, _SIGMA = Array(ndim=2), Array(ndim=2, square=True), [Array(ndim=(1, 2))]


@dataclass(frozen=True)
class RademacherEstimate:
    """Monte Carlo estimate of an empirical Rademacher complexity: ``mean`` +- ``se`` over ``n_draws``.

    Attributes
    ----------
    mean : float
        Mean of the supremum over the sign draws.
    se : float
        Its standard error, :math:`\\mathrm{sd}/\\sqrt{n_{draws}}`.
    n_draws : int
        Rademacher sign vectors drawn.
    m : int
        Sample size (rows of the data).
    """

    mean: float
    se: float
    n_draws: int
    m: int

    def as_dict(self) -> dict:
        return asdict(self)


def _sigma(m: int, n_draws: int, seed) -> np.ndarray:
    _memory.require(_memory.array_bytes(int(n_draws), int(m), itemsize=2 * 8), f"Rademacher signs ({n_draws} draws x m = {m})")
    return v.generator(seed).choice(np.array([-1.0, 1.0]), size=(n_draws, m))  # (n_draws, m)


def _per_draw(sigma, m: int, owner) -> np.ndarray:
    """``owner``'s declared ``sigma`` as float64, with ``m`` entries per draw (one per input)."""
    s = np.asarray(sigma, dtype=np.float64)
    if s.shape[-1] != m:
        raise ParameterError("sigma", f"of {m} entries per draw (one per input)", sigma, owner=owner)
    return s


@validate_params({"X": [_DATA], "sigma": _SIGMA, "weight_norm": _NONNEGATIVE})
def rademacher_linear_sup(X, sigma, weight_norm: float = 1.0) -> np.ndarray:
    r"""Exact :math:`\sup_{\lVert w\rVert_2\le B}\frac1m\sum_i\sigma_i\langle w,x_i\rangle = \frac Bm\lVert\sum_i\sigma_ix_i\rVert_2`.

    ``X`` (m, d), ``sigma`` (m,) or ``(n_draws, m)`` of :math:`\pm 1`; returns a float or ``(n_draws,)``.
    The supremum is attained at :math:`w = B\,v/\lVert v\rVert`, :math:`v=\sum_i\sigma_ix_i` (Cauchy-Schwarz).

    Parameters
    ----------
    X : array_like, shape (m, d)
        The m inputs :math:`x_i`, one per row (real, finite).
    sigma : array_like, shape (m,) or (n_draws, m)
        Rademacher signs :math:`\sigma_i = \pm 1`, one row per draw.
    weight_norm : float, default 1.0
        B, the radius of the weight ball :math:`\lVert w\rVert_2\le B` (>= 0).

    Returns
    -------
    numpy.float64 or numpy.ndarray
        :math:`\frac Bm\lVert\sum_i\sigma_ix_i\rVert_2`: a scalar for a 1-D ``sigma``, shape
        ``(n_draws,)`` for a 2-D one.

    Raises
    ------
    petheory.errors.ParameterError
        If ``X`` is not 2-D, ``sigma`` not 1-D or 2-D, ``sigma`` has not m entries per draw, or
        ``weight_norm`` is negative.

    See Also
    --------
    rademacher_kernel_sup, empirical_rademacher

    References
    ----------
    Bartlett and Mendelson 2002, *Rademacher and Gaussian complexities*, JMLR 3 (linear classes).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0]])
    >>> round(float(bounds.rademacher_linear_sup(X, [1, 1])), 6)  # (1/2) ||(2, 1)||
    1.118034
    >>> w = np.array([2.0, 1.0]) / np.sqrt(5.0)  # the maximiser v / ||v||, v = X^T sigma
    >>> round(float(w @ X.T @ [1, 1]) / 2, 6)
    1.118034
    >>> bounds.rademacher_linear_sup(X, [[1, 1], [1, -1]], weight_norm=2.0).round(6)  # one per draw
    array([2.236068, 1.      ])
    """
    X, B = np.asarray(X, dtype=np.float64), float(weight_norm)
    s = _per_draw(sigma, X.shape[0], rademacher_linear_sup)
    return B * np.linalg.norm(s @ X, axis=-1) / X.shape[0]


@validate_params({"K": [_GRAM], "sigma": _SIGMA, "weight_norm": _NONNEGATIVE})
def rademacher_kernel_sup(K, sigma, weight_norm: float = 1.0) -> np.ndarray:
    r"""Exact :math:`\sup_{\lVert f\rVert_{\mathcal H}\le B}\frac1m\sum_i\sigma_if(x_i) = \frac Bm\sqrt{\sigma^\top K\sigma}`.

    ``K`` (m, m) the Gram matrix of a positive semi-definite kernel; ``sigma`` (m,) or ``(n_draws, m)``.

    Parameters
    ----------
    K : array_like, shape (m, m)
        Gram matrix :math:`K_{ij} = k(x_i, x_j)` of a positive semi-definite kernel (:func:`gram_matrix`).
    sigma : array_like, shape (m,) or (n_draws, m)
        Rademacher signs :math:`\sigma_i = \pm 1`, one row per draw.
    weight_norm : float, default 1.0
        B, the radius of the RKHS ball :math:`\lVert f\rVert_{\mathcal H}\le B` (>= 0).

    Returns
    -------
    numpy.float64 or numpy.ndarray
        :math:`\frac Bm\sqrt{\sigma^\top K\sigma}`: a scalar for a 1-D ``sigma``, shape ``(n_draws,)``
        for a 2-D one. A quadratic form that rounding makes slightly negative is clipped to 0.

    Raises
    ------
    petheory.errors.ParameterError
        If ``K`` is not square, ``sigma`` has not m entries per draw, or ``weight_norm`` is negative.

    See Also
    --------
    rademacher_linear_sup, gram_matrix

    Examples
    --------
    The linear kernel :math:`K = XX^\top` gives the linear class's supremum:

    >>> import numpy as np
    >>> from petheory import bounds
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0]])
    >>> s = np.array([[1, 1], [1, -1]])
    >>> bool(np.allclose(bounds.rademacher_kernel_sup(X @ X.T, s), bounds.rademacher_linear_sup(X, s)))
    True
    >>> float(bounds.rademacher_kernel_sup(np.eye(4), [1, -1, 1, -1]))  # K = I: B sqrt(m) / m
    0.5
    """
    K, B = np.asarray(K, dtype=np.float64), float(weight_norm)
    s = _per_draw(sigma, K.shape[0], rademacher_kernel_sup)
    quad = np.einsum("...i,ij,...j->...", s, K, s)
    return B * np.sqrt(np.maximum(quad, 0.0)) / K.shape[0]  # clip tiny negative rounding of a PSD form


@validate_params({"X": [_DATA, None], "gram": [_GRAM, None], "weight_norm": _NONNEGATIVE,
                  "n_draws": [Interval(Integral, 2, None)], "seed": [SEED, np.random.Generator, None]})
def empirical_rademacher(
    X=None, *, gram=None, weight_norm: float = 1.0, n_draws: int = 200, seed=0
) -> RademacherEstimate:
    r"""Monte Carlo estimate of :math:`\hat R_S(\mathcal F)=E_\sigma\sup_{f\in\mathcal F}\frac1m\sum_i\sigma_if(x_i)`.

    Give ``X`` (m, d) for the linear class :math:`\{x\mapsto\langle w,x\rangle:\lVert w\rVert_2\le B\}`
    or ``gram`` (m, m) for the RKHS ball :math:`\{\lVert f\rVert_{\mathcal H}\le B\}`. The supremum is
    exact for every draw (:func:`rademacher_linear_sup`, :func:`rademacher_kernel_sup`); only the
    expectation over :math:`\sigma` is sampled, so ``se`` (sample std / :math:`\sqrt{n_\text{draws}}`) is the only error.

    Parameters
    ----------
    X : array_like, shape (m, d), optional
        The inputs of the linear class, one per row. Give either ``X`` or ``gram``.
    gram : array_like, shape (m, m), optional
        The Gram matrix of the kernel class (:func:`gram_matrix`). Give either ``X`` or ``gram``.
    weight_norm : float, default 1.0
        B, the radius of the weight (or RKHS) ball (>= 0).
    n_draws : int, default 200
        Number of sign vectors :math:`\sigma` drawn (>= 2).
    seed : int, numpy.random.Generator or None, default 0
        Seed of the sign draws (None means 0): the same seed gives the same signs.

    Returns
    -------
    RademacherEstimate
        ``mean`` (the estimate), ``se`` (its standard error), ``n_draws`` and ``m``.

    Raises
    ------
    petheory.errors.ParameterError
        If both or neither of ``X`` and ``gram`` are given, ``n_draws`` < 2 or an argument is malformed.
    MemoryLimitError
        If the (n_draws, m) sign matrix does not fit in the available memory.

    See Also
    --------
    rademacher_linear_bound, rademacher_linear_data_bound

    Examples
    --------
    50 inputs on the unit sphere: the estimate lies under the closed form :math:`B B_0/\sqrt m`.

    >>> import numpy as np
    >>> from petheory import bounds
    >>> X = np.random.default_rng(0).normal(size=(50, 5))
    >>> X /= np.linalg.norm(X, axis=1, keepdims=True)
    >>> est = bounds.empirical_rademacher(X, n_draws=200, seed=0)
    >>> est.m, est.n_draws, round(est.mean, 3)
    (50, 200, 0.136)
    >>> est.mean <= bounds.rademacher_linear_bound(50, 1.0, 1.0)  # 1 / sqrt(50) = 0.1414
    True
    >>> abs(bounds.empirical_rademacher(gram=X @ X.T).mean - est.mean) < 1e-12  # linear kernel, same signs
    True
    """
    if (X is None) == (gram is None):  # a rule between two parameters
        name, value = ("X", X) if X is None else ("gram", gram)
        raise ParameterError(name, f"{'given' if X is None else 'None'} (give exactly one of X, the linear class, or "
                             "gram, the kernel class)", value, owner=empirical_rademacher)
    n_draws = int(n_draws)
    if X is not None:
        X = np.asarray(X, dtype=np.float64)
        m = X.shape[0]
        vals = rademacher_linear_sup(X, _sigma(m, n_draws, seed), weight_norm)
    else:
        K = np.asarray(gram, dtype=np.float64)
        m = K.shape[0]
        vals = rademacher_kernel_sup(K, _sigma(m, n_draws, seed), weight_norm)
    return RademacherEstimate(float(vals.mean()), float(vals.std(ddof=1) / math.sqrt(n_draws)), n_draws, m)


@validate_params({"m": _AT_LEAST_1, "weight_norm": _NONNEGATIVE, "input_norm": _NONNEGATIVE})
def rademacher_linear_bound(m: int, weight_norm: float, input_norm: float) -> float:
    r"""Closed form :math:`R_m\le B\,B_0/\sqrt m` for :math:`\lVert w\rVert\le B` on inputs with :math:`\lVert x\rVert\le B_0`.

    From :math:`E\lVert\sum\sigma_ix_i\rVert\le(\sum\lVert x_i\rVert^2)^{1/2}` (Jensen; Bartlett &
    Mendelson 2002, Lemma 22) and :math:`\lVert x_i\rVert\le B_0`. With :math:`B_0=B_x+B_p` (Table 2)
    this is li2025 §4.2's :math:`O(L_{trans}B_0/\sqrt m)` for the linear class (:math:`L_{trans}=B`).

    Parameters
    ----------
    m : int
        Sample size (>= 1).
    weight_norm : float
        B, the radius of the weight ball :math:`\lVert w\rVert_2\le B` (>= 0).
    input_norm : float
        :math:`B_0`, a bound on every input's norm :math:`\lVert x_i\rVert_2` (>= 0).

    Returns
    -------
    float
        :math:`B\,B_0/\sqrt m`.

    Raises
    ------
    petheory.errors.ParameterError
        If ``m`` < 1 or a norm is negative.

    References
    ----------
    Bartlett and Mendelson 2002, *Rademacher and Gaussian complexities*, JMLR 3, Lemma 22;
    li2025 §4.2.

    See Also
    --------
    empirical_rademacher

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.rademacher_linear_bound(100, 2.0, 3.0)  # B * B0 / sqrt(m)
    0.6
    """
    return float(weight_norm) * float(input_norm) / math.sqrt(int(m))


@validate_params({"X": [_DATA], "weight_norm": _NONNEGATIVE})
def rademacher_linear_data_bound(X, weight_norm: float = 1.0) -> float:
    r"""The data-dependent form :math:`\frac Bm(\sum_i\lVert x_i\rVert^2)^{1/2}\ge\hat R_S` (Jensen), ``X`` (m, d).

    Never larger than :func:`rademacher_linear_bound` with :math:`B_0 = \max_i\lVert x_i\rVert`.

    Parameters
    ----------
    X : array_like, shape (m, d)
        The m inputs, one per row.
    weight_norm : float, default 1.0
        B, the radius of the weight ball (>= 0).

    Returns
    -------
    float
        :math:`\frac Bm\lVert X\rVert_F`, an upper bound on the empirical Rademacher complexity of the
        linear class on these inputs.

    Raises
    ------
    petheory.errors.ParameterError
        If ``X`` is not 2-D or ``weight_norm`` is negative.

    See Also
    --------
    empirical_rademacher, rademacher_linear_bound

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> X = np.array([[3.0, 4.0], [0.0, 0.0]])
    >>> bounds.rademacher_linear_data_bound(X)  # ||X||_F / m = 5 / 2
    2.5
    >>> round(bounds.rademacher_linear_bound(2, 1.0, 5.0), 6)  # B0 = max ||x_i|| = 5: looser
    3.535534
    """
    X, B = np.asarray(X, dtype=np.float64), float(weight_norm)
    return B * float(np.linalg.norm(X)) / X.shape[0]


@validate_params({"X": [_DATA], "kernel": [StrOptions(("linear", "rbf", "poly"))],
                  "gamma": [Interval(Real, 0, None, closed="neither"), None], "degree": _AT_LEAST_1})
def gram_matrix(X, kernel: str = "linear", *, gamma: float | None = None, degree: int = 2) -> np.ndarray:
    r"""Gram matrix (m, m) of ``X`` (m, d): 'linear' :math:`x^\top y`, 'rbf' :math:`e^{-\gamma\lVert x-y\rVert^2}`
    (default :math:`\gamma=1/d`), 'poly' :math:`(1+x^\top y)^{degree}`.

    Parameters
    ----------
    X : array_like, shape (m, d)
        The m inputs, one per row.
    kernel : {'linear', 'rbf', 'poly'}, default 'linear'
        The kernel.
    gamma : float, optional
        Width of the 'rbf' kernel (> 0); default :math:`1/d`. Ignored by the other kernels.
    degree : int, default 2
        Degree of the 'poly' kernel (>= 1). Ignored by the other kernels.

    Returns
    -------
    numpy.ndarray, shape (m, m)
        :math:`K_{ij} = k(x_i, x_j)`, symmetric positive semi-definite (the 'rbf' squared
        distances are clipped at 0 against rounding, so its diagonal is exactly 1).

    Raises
    ------
    petheory.errors.ParameterError
        If ``X`` is not 2-D, ``kernel`` is not one of the three, or ``gamma``/``degree`` is out of range.

    See Also
    --------
    rademacher_kernel_sup, empirical_rademacher

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds
    >>> X = np.array([[0.0], [1.0]])
    >>> bounds.gram_matrix(X, 'rbf').round(6)  # gamma = 1/d = 1: exp(-1) off the diagonal
    array([[1.      , 0.367879],
           [0.367879, 1.      ]])
    >>> bounds.gram_matrix(X, 'poly', degree=3)  # (1 + x y)^3
    array([[1., 1.],
           [1., 8.]])
    """
    X = np.asarray(X, dtype=np.float64)
    G = X @ X.T
    if kernel == "linear":
        return G
    if kernel == "poly":
        return (1.0 + G) ** int(degree)
    g = 1.0 / X.shape[1] if gamma is None else float(gamma)
    sq = np.diag(G)
    return np.exp(-g * np.maximum(sq[:, None] + sq[None, :] - 2 * G, 0.0))


@validate_params({"m": _AT_LEAST_1, "d": _AT_LEAST_1, "length": _AT_LEAST_1, "token_norm": _NONNEGATIVE,
                  "seed": [SEED, np.random.Generator, None]})
def pe_augmented_inputs(name: str, m: int, d: int, *, length: int, token_norm: float = 1.0, seed=0, **params):
    r"""``m`` inputs :math:`z_i = x_i + PE(pos_i)`, shape (m, d), and their positions (m,).

    Tokens :math:`x_i` are uniform on the sphere of radius ``token_norm`` (so :math:`B_x` is exact);
    positions are uniform on ``0..length-1``. ``params`` go to the encoding (absolute kinds only).
    So :math:`\lVert z_i\rVert\le B_x + \sup_{pos}\lVert PE(pos)\rVert = B_0` (li2025 Table 2).

    Parameters
    ----------
    name : str
        A registered encoding of the absolute kind (``'sinusoidal'``, ``'learned'``, ...).
    m : int
        Number of inputs (>= 1).
    d : int
        Model dimension (>= 1).
    length : int
        Positions are drawn from ``0..length-1`` (>= 1); the encoding table has ``length`` rows.
    token_norm : float, default 1.0
        :math:`B_x`, the norm of every token (>= 0).
    seed : int, numpy.random.Generator or None, default 0
        Seed of the tokens and positions (None means 0).
    **params
        The encoding's own keyword arguments.

    Returns
    -------
    Z : numpy.ndarray, shape (m, d)
        The inputs :math:`z_i = x_i + PE(pos_i)`.
    pos : numpy.ndarray, shape (m,)
        Their positions (integers).

    Raises
    ------
    ValidationError
        If ``name`` is unknown or not an absolute encoding, or a size is out of range.
    MemoryLimitError
        If the (m, d) arrays do not fit in the available memory.

    See Also
    --------
    empirical_rademacher, norm_bound

    Examples
    --------
    Sinusoidal rows have norm :math:`\sqrt{d/2} = 2` at d = 8, so every input lies within
    :math:`B_0 = 1 + 2`:

    >>> import numpy as np
    >>> from petheory import bounds
    >>> Z, pos = bounds.pe_augmented_inputs('sinusoidal', 5, 8, length=100, seed=0)
    >>> Z.shape, pos.shape, bool(np.all((0 <= pos) & (pos < 100)))
    ((5, 8), (5,), True)
    >>> bool(np.all(np.linalg.norm(Z, axis=1) <= 1.0 + 2.0))
    True
    """
    m, d, length, Bx = int(m), int(d), int(length), float(token_norm)
    _memory.require(_memory.array_bytes(m, d, itemsize=4 * 8), f"PE-augmented inputs (m = {m}, d = {d})")
    rng = v.generator(seed)  # a seed (None: 0) or a Generator, as a Generator
    x = rng.normal(size=(m, d))
    x *= Bx / np.linalg.norm(x, axis=1, keepdims=True)
    pos = rng.integers(0, length, size=m)
    if enc.info(name).kind != "absolute":
        raise ValidationError(f"pe_augmented_inputs needs an absolute encoding, {name!r} is {enc.info(name).kind}")
    P = enc.get(name)(length, d, **params)
    return x + P[pos], pos


@validate_params({"lipschitz": _NONNEGATIVE, "input_norm": _NONNEGATIVE, "m": _AT_LEAST_1, "output_norm": _NONNEGATIVE})
def rademacher_lipschitz_bound(lipschitz: float, input_norm: float, m: int, *, output_norm: float = 1.0) -> float:
    r"""li2025 §4.2's expression :math:`B_{out}L_{trans}B_0/\sqrt m`, constant 1, log factors dropped.

    Rigorous as stated only for linear readouts (:func:`rademacher_linear_bound`); for a whole
    Transformer class it is the paper's scaling law evaluated on given constants, not a certified
    bound (Bartlett et al. 2017 add a :math:`(\sum_i(\lVert A_i\rVert_{2,1}/\lVert A_i\rVert_2)^{2/3})^{3/2}`
    factor and logs). Used as the bound line of the bound-vs-empirical figure.

    Parameters
    ----------
    lipschitz : float
        :math:`L_{trans}`, the Lipschitz constant of the model class (>= 0).
    input_norm : float
        :math:`B_0 = B_x + B_p`, a bound on every input's norm (>= 0).
    m : int
        Sample size (>= 1).
    output_norm : float, default 1.0
        :math:`B_{out}`, the readout's norm bound (>= 0).

    Returns
    -------
    float
        :math:`B_{out}L_{trans}B_0/\sqrt m`.

    Raises
    ------
    petheory.errors.ParameterError
        If ``m`` < 1 or a constant is negative.

    See Also
    --------
    rademacher_linear_bound, bound_report

    References
    ----------
    li2025 §4.2; Bartlett, Foster and Telgarsky 2017, *Spectrally-normalized margin bounds for
    neural networks* (the certified form).

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.rademacher_lipschitz_bound(2.0, 3.0, 100, output_norm=0.5)  # 0.5 * 2 * 3 / 10
    0.3
    >>> bounds.rademacher_lipschitz_bound(2.0, 3.0, 100) == bounds.rademacher_linear_bound(100, 2.0, 3.0)
    True
    """
    return float(output_norm) * float(lipschitz) * float(input_norm) / math.sqrt(int(m))
