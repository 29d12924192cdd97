r"""Norm and Rademacher bounds per PE, ALiBi extrapolation (Eq. 9), wavelet and Legendre analysis.

Everything here is li2025 (Yin Li, arXiv 2506.06398; the paper is available as a structured
summary, so formulas the paper leaves implicit are stated as reconstructions where they live).
numpy/scipy only: the probes of trained torch models (``transformer_lipschitz``,
``transformer_input_norm``, ``alibi_drift``) live in :mod:`petheory.nn.lipschitz`; their old names
here still work through a module ``__getattr__`` that imports that module (and torch) only when one
of them is asked for.

Sections
--------
norm bounds
    :func:`norm_bound` -- the computed :math:`\sup_{pos<N'}\lVert PE(pos)\rVert_2` of any registered
    encoding next to the paper's Table 2 value; what the number means for bias and rotary kinds.
Rademacher complexity
    closed forms for norm-bounded linear classes, a Monte Carlo estimator (with standard error)
    for linear and kernel classes, the Lipschitz constants of attention and LayerNorm on arrays.
ALiBi (§5.3, Eq. 9)
    :math:`A(\mu, b)`, its Lipschitz constant in the bias, the inequality.
wavelet / Legendre (§6)
    sparse row norms, support end, envelope decay fits, scale constants, norm growth, saturation.
sinusoidal ambiguity
    distance between encodings as a function of the offset, onset of near-collisions.
fits
    :func:`fit_power_law` / :func:`fit_line` live in :mod:`petheory.fits` (re-exported here).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import NamedTuple

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory.fits import LineFit, fit_line, fit_power_law  # noqa: F401  (re-exported: the old path)

#: Largest length at which a bias matrix is built densely to measure its magnitude.
DENSE_BIAS_MAX = 4096

# =============================================================================== norm bounds


@dataclass(frozen=True)
class NormBound:
    """The norm bound of one encoding at one inference length. See :func:`norm_bound`."""

    name: str
    kind: str
    length: int
    d: int | None
    stated: float | None  # the paper's value (None: order-only or not in Table 2)
    stated_formula: str
    computed: float | None  # sup over positions 0..length-1 (absolute), max |bias| (bias), added norm (rotary)
    meaning: str
    explicit: float | None = None  # petheory's own derived bound where the paper gives only an order
    params: dict = field(default_factory=dict)
    additive: float | None = None  # rotary + absolute (rope_sinusoidal): sup ||PE(pos)|| of the added vectors

    def input_norm(self, token_norm: float = 0.0) -> float | None:
        """:math:`B_0 = B_x + ` computed (absolute), :math:`B_x` (bias, rotary: no vector is added;
        RoPE + absolute adds its absolute part's sup norm)."""
        token_norm = v.real("token_norm", token_norm, nonnegative=True)
        if self.kind == "absolute":
            return None if self.computed is None else token_norm + self.computed
        return token_norm + (self.additive or 0.0)

    def as_dict(self) -> dict:
        return asdict(self)


def pe_norms(name: str, n: int, d: int, **params) -> np.ndarray:
    """:math:`\\lVert PE(pos)\\rVert_2` for positions ``0..n-1`` of an absolute encoding, shape (n,).

    The wavelet encoding is evaluated sparsely (:func:`wavelet_norms`), so long ranges are cheap.
    """
    info = enc.info(name)
    if info.kind != "absolute":
        raise ValueError(f"pe_norms needs an absolute encoding; {name!r} is {info.kind} (see norm_bound)")
    n = v.integer("n", n, minimum=1)
    if name == "wavelet":
        # sparse evaluation: positions, a few atoms per scale and their values, O(n) words
        _memory.require(_memory.array_bytes(n, itemsize=16 * 8), f"wavelet norms at n = {n} positions",
                        alternative="use a smaller length")
        return wavelet_norms(n, d, **params)
    return np.linalg.norm(info.fn(n, d, **params), axis=1)


def alibi_bias_magnitude(length: int, slope: float) -> float:
    r"""li2025 Table 2: ALiBi adds a logit bias of magnitude up to :math:`\alpha(N'-1)` at length N'."""
    length = v.integer("length", length, minimum=1)
    slope = v.real("slope", slope, nonnegative=True)
    return slope * (length - 1)


# ------------------------------------------------------------------------------- li2025 Table 2, one row per PE


class StatedBound(NamedTuple):
    """One row of li2025 Table 2: the stated value (None: order only, or no number), its formula, and
    petheory's own explicit bound where the paper gives only an order."""

    stated: float | None
    formula: str
    explicit: float | None = None


def _sinusoidal_row(length: int, d: int, p: dict) -> StatedBound:
    r"""li2025 Table 2, sinusoidal: :math:`B_0 = B_x + \sqrt{d_{model}}` (each of the d/2 sine-cosine pairs has norm 1)."""
    return StatedBound(math.sqrt(d), "sqrt(d_model)")


def _nope_row(length: int, d: int, p: dict) -> StatedBound:
    """No positional vector: it adds 0 to :math:`B_0` (the NoPE baseline of li2025 §7)."""
    return StatedBound(0.0, "0")


def _learned_row(length: int, d: int, p: dict) -> StatedBound:
    r"""li2025 Table 2, learned: :math:`B_0 = B_x + B_p`; Table 2 gives no number, so :math:`B_p` is the
    table's own largest row norm (positions past the table reuse its last row, li2025 §6)."""
    rest = {k: x for k, x in p.items() if k not in ("beyond", "n_max")}
    table = enc.learned(p["n_max"], d, **rest, n_max=p["n_max"])
    return StatedBound(float(np.max(np.linalg.norm(table, axis=1))), "B_p (table max row norm)")


def _wavelet_row(length: int, d: int, p: dict) -> StatedBound:
    r"""li2025 Table 2, wavelet: only the order :math:`O(N_{max}\sqrt{\log N_{max}})` (unnormalised), no constant.

    ``explicit`` is petheory's bound :math:`\sup_p\lVert PE(p)\rVert\le\max\lvert\psi\rvert
    (\sum_j\min(S+1,n_j)c_j^2)^{1/2}`: at most S+1 atoms of scale j meet a point.
    """
    x, psi, taps = enc.wavefun(p.get("wavelet", "db2"), p.get("resolution", 10))
    S = taps - 1
    atoms = enc.wavelet_atoms(d, S, dilation=p.get("dilation", "unit"), n_max=p.get("n_max") or 1)
    scales, counts = np.unique([a[0] for a in atoms], return_counts=True)
    c2 = [enc.wavelet_amplitude(int(j), p.get("normalisation", "l2")) ** 2 for j in scales]
    explicit = float(np.max(np.abs(psi)) * math.sqrt(float(np.dot(np.minimum(counts, S + 1), c2))))
    return StatedBound(None, "O(N_max sqrt(log N_max)), no constant", explicit)


def _legendre_row(length: int, d: int, p: dict) -> StatedBound:
    r"""li2025 Table 2, Legendre: "bounded", :math:`(\sum_kc_k^2)^{1/2}` (attained at x = 1,
    :func:`legendre_norm_bound`) while the position map stays in [-1, 1]; none for
    ``position_map='linear', beyond='extrapolate'``, which is unbounded."""
    unbounded = p.get("position_map", "linear") == "linear" and p.get("beyond", "clip") == "extrapolate"
    if unbounded:
        return StatedBound(None, "unbounded (beyond='extrapolate')")
    return StatedBound(legendre_norm_bound(d, bool(p.get("orthonormal", False))), "bounded: sqrt(sum_k c_k^2)")


def _alibi_row(length: int, d, p: dict) -> StatedBound:
    r"""li2025 Table 2, ALiBi: no vector; a logit bias of magnitude up to :math:`\alpha(N'-1)` (:func:`alibi_bias_magnitude`)."""
    return StatedBound(alibi_bias_magnitude(length, p.get("slope", 1.0)), "alpha (N'-1)")


def _kerple_log_row(length: int, d, p: dict) -> StatedBound:
    r"""Not in li2025 (KERPLE, Chi et al. 2022, log variant): :math:`\max\lvert b\rvert = r_1\log(1+r_2(N'-1))`."""
    return StatedBound(p.get("r1", 1.0) * math.log1p(p.get("r2", 1.0) * (length - 1)), "r1 log(1 + r2 (N'-1))")


def _kerple_power_row(length: int, d, p: dict) -> StatedBound:
    r"""Not in li2025 (KERPLE, Chi et al. 2022, power variant): :math:`\max\lvert b\rvert = r_1(N'-1)^{r_2}`."""
    return StatedBound(p.get("r1", 1.0) * float(length - 1) ** p.get("r2", 1.0), "r1 (N'-1)^r2")


def _sandwich_row(length: int, d, p: dict) -> StatedBound:
    r"""Not in li2025 (Sandwich, Chi et al. 2023): :math:`\max\lvert b\rvert\le\mathrm{scale}\cdot\bar d`, any N'."""
    # each of the d_bar/2 terms cos(.) - 1 lies in [-2, 0]
    return StatedBound(p.get("scale", 1.0) * float(p.get("d_bar", 128)), "scale * d_bar (each cos - 1 in [-2, 0]), any N'")


#: li2025 Table 2 as a table of functions: PE name -> ``row(length, d, params) -> StatedBound``
#: (``d`` is None for bias kinds), plus the long-context biases of ``encodings_modern``. A
#: registered encoding missing here has no stated bound ("not in Table 2"); rotary kinds are
#: handled by :func:`norm_bound` (rotations add nothing) and :func:`scaled_rotary_norm_bound`.
TABLE2 = {
    "sinusoidal": _sinusoidal_row, "learned": _learned_row, "wavelet": _wavelet_row, "legendre": _legendre_row,
    "nope": _nope_row, "alibi": _alibi_row,
    "kerple_log": _kerple_log_row, "kerple_power": _kerple_power_row, "sandwich": _sandwich_row,
}
#: The long-context bias rows of :data:`TABLE2` (the old name; same functions).
LONG_CONTEXT_BIAS_BOUNDS = {k: TABLE2[k] for k in ("kerple_log", "kerple_power", "sandwich")}


def stated_bound(name: str, length: int, d: int | None, params: dict) -> StatedBound:
    """The :data:`TABLE2` row of encoding ``name`` at inference length ``length``; an unknown name raises
    the registry's ValueError (which lists the registered names), a registered one without a row gets
    ``StatedBound(None, "not in Table 2")``."""
    enc.info(name)
    row = TABLE2.get(name)
    return StatedBound(None, "not in Table 2") if row is None else row(length, d, params)


def norm_bound(name: str, length: int, d: int = 64, *, n_max: int | None = None, **params) -> NormBound:
    r"""The paper's norm bound for encoding ``name`` at inference length ``length`` (N'), and the computed one.

    Parameters
    ----------
    name : str
        Any registered encoding.
    length : int
        Inference length N': positions ``0..N'-1``.
    d : int
        Model dimension (absolute and rotary kinds).
    n_max : int, optional
        Training length N_max (default ``length``) for encodings that use it (learned table size,
        wavelet and Legendre position maps).
    **params
        The encoding's own keyword arguments (``slope`` for ALiBi, ``normalisation`` for wavelet, ...).

    Returns
    -------
    NormBound
        ``computed`` means, per kind:

        * absolute: :math:`\sup_{pos<N'}\lVert PE(pos)\rVert_2`, the PE's contribution to
          :math:`B_0 = B_x + B_p` (``NormBound.input_norm(B_x)``).
        * bias: :math:`\max_{i,j<N'}\lvert b(i,j)\rvert`, the logit-bias magnitude (nothing is added
          to the input norm). Built densely up to :data:`DENSE_BIAS_MAX` positions; ``None`` beyond.
        * rotary: the largest change of a vector's norm under :math:`R_p`, :math:`p<N'` (0 up to
          rounding: rotations add nothing to :math:`B_0`).

    Notes
    -----
    Stated values (li2025 Table 2, one function per row in :data:`TABLE2`): sinusoidal :math:`\sqrt{d}`; learned :math:`B_p` (the table's
    own largest row norm: Table 2 gives no number; positions past the table reuse its last row,
    ``beyond='clamp'``, as the paper describes); ALiBi :math:`\alpha(N'-1)`; wavelet only the
    order :math:`O(N_{max}\sqrt{\log N_{max}})` (``stated=None``; ``explicit`` is petheory's
    bound :math:`\max\lvert\psi\rvert\,(\sum_j \min(S+1,n_j)c_j^2)^{1/2}`); Legendre "bounded":
    :math:`(\sum_k c_k^2)^{1/2}`, attained at :math:`x=1`, when the position map never exceeds 1
    (``None`` for ``position_map='linear', beyond='extrapolate'``, which is unbounded).
    """
    info = enc.info(name)
    length = v.integer("length", length, minimum=1)
    d = v.integer("d", d, minimum=1)
    if n_max is not None:
        n_max = v.integer("n_max", n_max, minimum=1)
    kind = info.kind
    p = dict(params)
    if kind == "absolute":
        if "n_max" in info.params:
            p.setdefault("n_max", n_max or length)
        if name == "learned":
            p.setdefault("beyond", "clamp")
        computed = float(np.max(pe_norms(name, length, d, **p)))
        stated, formula, explicit = stated_bound(name, length, d, p)
        meaning = f"sup over positions 0..{length - 1} of ||PE(pos)||_2 (adds to the token norm B_x in B_0)"
        return NormBound(name, kind, length, d, stated, formula, computed, meaning, explicit, p)
    if kind == "bias":
        stated, formula, _ = stated_bound(name, length, None, p)
        computed = float(np.max(np.abs(info.fn(length, **p)))) if length <= DENSE_BIAS_MAX else None
        meaning = f"max |b(i,j)| over i, j < {length}: logit-bias magnitude (no vector is added; B_0 = B_x)"
        return NormBound(name, kind, length, None, stated, formula, computed, meaning, None, p)
    # rotary: R_p is orthogonal, so ||R_p x|| = ||x||; measure the departure on a basis + a random vector
    table = info.fn(length, d, **p)
    if hasattr(table, "factors"):  # encodings_modern.ScaledRotaryTable: YaRN, xPos, RoPE + absolute
        return scaled_rotary_norm_bound(name, table, length, d, p)
    probe = np.vstack([np.eye(d), v.generator(0).normal(size=(1, d))])  # (d+1, d)
    norms = np.linalg.norm(probe, axis=1)
    worst = 0.0
    for pos in range(0, length, max(1, length // 256)):  # 256 positions suffice: angles are p * freq
        worst = max(worst, float(np.max(np.abs(np.linalg.norm(table.apply_at(probe, pos), axis=1) - norms) / norms)))
    meaning = "max relative change of ||x|| under R_p: rotations add no vector, B_0 = B_x"
    return NormBound(name, kind, length, d, 0.0, "0 (||R_p x|| = ||x||)", worst, meaning, None, p)


# =============================================================================== Rademacher


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
        raise ValueError(f"sigma must have m={X.shape[0]} entries per draw, got shape {s.shape}")
    return B * np.linalg.norm(s @ X, axis=-1) / X.shape[0]


def rademacher_kernel_sup(K, sigma, weight_norm: float = 1.0) -> np.ndarray:
    r"""Exact :math:`\sup_{\lVert f\rVert_{\mathcal H}\le B}\frac1m\sum_i\sigma_if(x_i) = \frac Bm\sqrt{\sigma^\top K\sigma}`.

    ``K`` (m, m) the Gram matrix of a positive semi-definite kernel; ``sigma`` (m,) or (n_draws, m).
    """
    K = v.square("K", K)
    B = v.real("weight_norm", weight_norm, nonnegative=True)
    s = v.array("sigma", sigma, ndim=(1, 2))
    if s.shape[-1] != K.shape[0]:
        raise ValueError(f"sigma must have m={K.shape[0]} entries per draw, got shape {s.shape}")
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
        raise ValueError("give exactly one of X (linear class) or gram (kernel class)")
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
        raise ValueError(f"pe_augmented_inputs needs an absolute encoding, {name!r} is {enc.info(name).kind}")
    P = enc.get(name)(length, d, **params)
    return x + P[pos], pos


# ------------------------------------------------------------------------------- Lipschitz product

GELU_LIPSCHITZ = 1.1289  # max_x d/dx [x Phi(x)], attained near x = 0.75 (rounded up)


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
    """
    H = v.integer("n_head", n_head, minimum=1)
    R = v.real("radius", radius, nonnegative=True)
    mats = [v.array(nm, w, ndim=2) for nm, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v))]
    wo = v.array("w_o", w_o, ndim=2)
    d_out = mats[0].shape[0]
    if d_out % H:
        raise ValueError(f"the query width {d_out} must be divisible by n_head={H}")
    bq = np.zeros(d_out) if b_q is None else v.array("b_q", b_q, ndim=1)
    bk = np.zeros(d_out) if b_k is None else v.array("b_k", b_k, ndim=1)
    hd = d_out // H
    per_head = []
    for h in range(H):
        sl = slice(h * hd, (h + 1) * hd)
        q, k, val = (np.linalg.norm(w[sl], 2) for w in mats)
        score = 2.0 * R * q * k + k * np.linalg.norm(bq[sl]) + q * np.linalg.norm(bk[sl])
        per_head.append(val * (1.0 + R * score / math.sqrt(hd)))
    return float(np.linalg.norm(wo, 2) * math.sqrt(sum(x**2 for x in per_head)))


def layernorm_lipschitz(gamma, *, eps: float, variance_floor: float = 0.0) -> float:
    r"""Lipschitz constant of LayerNorm on inputs whose per-token variance is at least ``variance_floor``.

    :math:`\mathrm{LN}(x)=\gamma\odot(x-\bar x)/\sqrt{\mathrm{var}(x)+\epsilon}+\beta` has Jacobian
    :math:`\mathrm{diag}(\gamma)\,\Pi/\sqrt{\mathrm{var}+\epsilon}` with :math:`\Pi` a projection, so
    :math:`L\le\max\lvert\gamma\rvert/\sqrt{v_{min}+\epsilon}`. With ``variance_floor=0`` this is the
    global (certified, very large) constant :math:`\max\lvert\gamma\rvert/\sqrt\epsilon`.
    """
    g = v.array("gamma", gamma, ndim=1)
    eps = v.real("eps", eps, positive=True)
    vf = v.real("variance_floor", variance_floor, nonnegative=True)
    return float(np.max(np.abs(g)) / math.sqrt(vf + eps))


@dataclass(frozen=True)
class LipschitzReport:
    r"""Per-factor Lipschitz constants of a Transformer and their product :math:`L_{trans}`."""

    total: float
    factors: list  # [(name, value, formula)]
    variance_floors: str
    formula: str

    def as_dict(self) -> dict:
        return {"total": self.total, "factors": [list(f) for f in self.factors],
                "variance_floors": self.variance_floors, "formula": self.formula}


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


# =============================================================================== ALiBi, Eq. 9

ALIBI_READINGS = ("weight", "output")


def attention_weight(mu, b) -> np.ndarray:
    r""":math:`A(\mu,b)=e^b/(e^b+\sum_je^{\mu_j})`: the softmax weight of a key with logit ``b`` among keys with logits ``mu``.

    li2025 Eq. 9's "attention function" read as a softmax weight: ``mu`` (n-1,) are the other
    logits of the query's row (content plus their own biases), ``b`` the moving key's bias (its
    content logit folded into ``mu``'s reference, i.e. ``b`` is its whole logit). ``b`` may be an
    array; the result has its shape. Computed in log space (no overflow).
    """
    mu = v.array("mu", mu, ndim=1, nonempty=False)
    b = np.asarray(b, dtype=np.float64)
    lse = np.logaddexp.reduce(mu) if mu.size else -np.inf
    return np.exp(b - np.logaddexp(b, lse))


def attention_output(mu, b, values, value_b) -> np.ndarray:
    r""":math:`A(\mu,b)=\sum_jp_jv_j` with the moving key's value ``value_b`` (d,), other keys' ``values`` (n-1, d).

    The output reading of Eq. 9. Returns (d,) for scalar ``b``, (len(b), d) for an array.
    """
    vals = v.array("values", values, ndim=2)
    vb = v.array("value_b", value_b, ndim=1)
    mu = v.array("mu", mu, ndim=1)
    if vals.shape != (mu.size, vb.size):
        raise ValueError(f"values must have shape ({mu.size}, {vb.size}), got {vals.shape}")
    scalar = np.ndim(b) == 0
    pb = attention_weight(mu, np.atleast_1d(np.asarray(b, dtype=np.float64)))  # (nb,)
    w = np.exp(mu - np.logaddexp.reduce(mu))  # (n-1,) the others' weights among themselves
    out = pb[:, None] * vb[None, :] + (1 - pb)[:, None] * (w @ vals)[None, :]
    return out[0] if scalar else out


def alibi_lipschitz(reading: str = "weight", *, values=None, value_b=None) -> float:
    r"""Analytic :math:`L_A=\sup_b\lvert\partial A/\partial b\rvert`.

    'weight': :math:`\partial A/\partial b=A(1-A)\le1/4`, attained where :math:`A=1/2` (reached for
    some ``b`` whatever :math:`\mu`), so :math:`L_A=1/4` exactly. 'output':
    :math:`\partial o/\partial b=A(1-A)(v_b-\bar v_{-b})`, so
    :math:`L_A=\tfrac14\lVert v_b-\bar v_{-b}\rVert\le\tfrac14\operatorname{diam}\{v_j\}` with
    :math:`\bar v_{-b}` the others' weighted mean; returned as :math:`\tfrac14\max_j\lVert v_b-v_j\rVert`
    (valid for every :math:`\mu`).
    """
    v.choice("reading", reading, ALIBI_READINGS)
    if reading == "weight":
        return 0.25
    vals = v.array("values", values, ndim=2)
    vb = v.array("value_b", value_b, ndim=1)
    return 0.25 * float(np.max(np.linalg.norm(vals - vb[None, :], axis=1)))


def alibi_lipschitz_numeric(mu, *, b_range: tuple[float, float] | None = None, n_grid: int = 4001) -> float:
    r"""Numerical :math:`\max_b\lvert\partial A/\partial b\rvert` by central differences on a grid of ``b``.

    Default range: :math:`\mathrm{lse}(\mu)\pm 40` (covers :math:`A` from :math:`e^{-40}` to
    :math:`1-e^{-40}`). Converges to 1/4 as the grid refines: a check of :func:`alibi_lipschitz`.
    """
    mu = v.array("mu", mu, ndim=1)
    lse = float(np.logaddexp.reduce(mu))
    lo, hi = (lse - 40.0, lse + 40.0) if b_range is None else map(float, b_range)
    _memory.require(_memory.array_bytes(v.integer("n_grid", n_grid, minimum=3), mu.size, itemsize=4 * 8),
                    f"attention weights on a grid of {n_grid} b values", alternative="use a smaller n_grid")
    b = np.linspace(lo, hi, v.integer("n_grid", n_grid, minimum=3))
    h = (hi - lo) / (b.size - 1)
    A = attention_weight(mu, b)
    return float(np.max(np.abs(A[2:] - A[:-2]) / (2 * h)))


def alibi_extrapolation_terms(mu, *, slope: float, distance: int, n_max: int, reading: str = "weight",
                              values=None, value_b=None) -> dict:
    r"""Both sides of li2025 Eq. 9 for one row: :math:`\lvert A(\mu,-\alpha d)-A(\mu,-\alpha N_{max})\rvert\le L_A\alpha(d-N_{max})`.

    Returns ``lhs``, ``rhs`` (with the analytic :math:`L_A`), and ``sharp``: the mean-value bound
    :math:`\max_{b\in[-\alpha d,-\alpha N_{max}]}A(1-A)\,\alpha(d-N_{max})` (times the value spread
    for the output reading), never larger than ``rhs``. Needs ``distance > n_max``.
    """
    alpha = v.real("slope", slope, nonnegative=True)
    n_max = v.integer("n_max", n_max, minimum=1)
    dist = v.integer("distance", distance, minimum=0)
    if dist <= n_max:
        raise ValueError(f"Eq. 9 is about keys beyond the training length: distance must be > n_max={n_max}, got {dist}")
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
        mu_ = v.array("mu", mu, ndim=1)
        w = np.exp(mu_ - np.logaddexp.reduce(mu_))
        spread = float(np.linalg.norm(np.asarray(value_b, dtype=np.float64) - w @ np.asarray(values, dtype=np.float64)))
    # A(1-A) is unimodal in b, so its max over the interval is at the grid max or at A = 1/2 if inside
    lse = float(np.logaddexp.reduce(v.array("mu", mu, ndim=1)))
    peak = 0.25 if b1 <= lse <= b0 else float(np.max(A * (1 - A)))
    return {"lhs": lhs, "rhs": LA * alpha * (dist - n_max), "sharp": peak * spread * alpha * (dist - n_max), "L_A": LA}


# =============================================================================== wavelet


def wavelet_norms(n: int, d: int, *, start: int = 0, wavelet: str = "db2", n_max: int | None = None,
                  normalisation: str = "l2", resolution: int = 10, dilation: str = "unit") -> np.ndarray:
    r""":math:`\lVert PE_{wav}(pos)\rVert_2` for positions ``start..start+n-1``, shape (n,), without the (n, d) table.

    Sums squares of :func:`petheory.encodings.wavelet_terms` (at most S+1 atoms per scale per
    position), so ``d`` may be in the tens of thousands. Same parameters as the encoding.
    """
    n = v.integer("n", n, minimum=1)
    d = v.integer("d", d, minimum=1)
    n_max = n if n_max is None else v.integer("n_max", n_max, minimum=1)
    v.choice("normalisation", normalisation, enc.WAVELET_NORMALISATIONS)
    v.choice("dilation", dilation, enc.WAVELET_DILATIONS)
    pos = v.integer("start", start, minimum=0) + np.arange(n, dtype=np.float64)
    sq = np.zeros(n)
    for _j, _cols, vals in enc.wavelet_terms(pos, d, wavelet=wavelet, n_max=n_max, normalisation=normalisation,
                                             dilation=dilation, resolution=resolution):
        sq += np.sum(vals**2, axis=1)
    return np.sqrt(sq)


def wavelet_support_length(wavelet: str = "db2") -> int:
    """Support length ``S = taps - 1`` of the mother wavelet (db2: 3, db4: 7)."""
    return enc.wavefun(wavelet, 4)[2] - 1


def wavelet_support_end(d: int, n_max: int, *, wavelet: str = "db2", dilation: str = "unit", resolution: int = 10) -> int:
    r"""First position from which every feature of the wavelet encoding is exactly 0.

    The largest right end :math:`(k+x_{end})2^{-j}` of the atoms used, in positions, where
    :math:`x_{end}` is the right end of PyWavelets' sampled :math:`\psi` (the support length S for
    Daubechies, symlets and coiflets; :math:`1+2^{-resolution}` for Haar, whose sampled
    :math:`\psi(1)=-1`). At most about :math:`S\,N_{max}` for 'unit' (the scale-0 atom with k=0)
    and :math:`S\,2^J` for 'position'.
    """
    d = v.integer("d", d, minimum=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    x, psi, taps = enc.wavefun(wavelet, resolution)
    atoms = enc.wavelet_atoms(d, taps - 1, dilation=dilation, n_max=n_max)
    end = max((k + float(x[-1])) * 2.0 ** (-j) for j, k in atoms) * (n_max if dilation == "unit" else 1)
    # np.interp returns psi[-1] at exactly x_end and 0 beyond: include the end point only if psi vanishes there
    return int(math.ceil(end)) if psi[-1] == 0 and end == math.ceil(end) else int(math.floor(end)) + 1


@dataclass(frozen=True)
class DecayFit:
    r"""Exponential envelope :math:`\lvert\psi(u)\rvert\le C e^{-\beta u}` of a mother wavelet (u from its left support end)."""

    wavelet: str
    beta: float
    beta_ci: tuple[float, float]
    C: float  # smallest C valid for beta, over the whole support: max_u |psi(u)| e^{beta u}
    support: int
    points: int
    log_amplitude: float = 0.0  # OLS intercept: the envelope is ~ exp(log_amplitude - beta u) on the fit range
    fit_range: tuple[float, float] = (0.0, 0.0)

    def as_dict(self) -> dict:
        return asdict(self)


def wavelet_decay_fit(wavelet: str = "db2", *, resolution: int = 10, floor: float = 1e-3, level: float = 0.95) -> DecayFit:
    r"""Fit the decay rate :math:`\beta` of the envelope of :math:`\lvert\psi\rvert` away from its peak.

    The envelope :math:`e(u)=\max_{u'\ge u}\lvert\psi(u')\rvert` is monotone; :math:`\log e` is
    regressed on :math:`u` from the peak to where :math:`e` falls below ``floor`` times its maximum
    (the compact support sends it to exactly 0 at :math:`u=S`, where no exponential fits).
    :math:`\beta=-\text{slope}`; the interval is the OLS t-interval (it measures how well one
    exponential describes a deterministic envelope, not noise). ``C`` is the smallest constant
    making :math:`\lvert\psi(u)\rvert\le Ce^{-\beta u}` hold on the whole support.
    """
    x, psi, taps = enc.wavefun(wavelet, resolution)
    a = np.abs(psi)
    env = np.maximum.accumulate(a[::-1])[::-1]
    i0 = int(np.argmax(a))
    keep = np.arange(i0, x.size)
    keep = keep[env[keep] > floor * env[i0]]
    fit = fit_line(x[keep], np.log(env[keep]), level=level)
    beta = -fit.slope
    C = float(np.max(a * np.exp(beta * x)))
    return DecayFit(wavelet, float(beta), (-fit.slope_ci[1], -fit.slope_ci[0]), C, taps - 1, int(keep.size),
                    float(fit.intercept), (float(x[keep[0]]), float(x[keep[-1]])))


def wavelet_scale_ratios(d: int, *, wavelet: str = "db2", n_max: int, normalisation: str = "l2",
                         dilation: str = "unit", beta: float | None = None, samples_per_unit: int = 64,
                         resolution: int = 10) -> dict:
    r"""Per scale j: the smallest :math:`C_j` with :math:`\lvert\psi_{j,k}(pos)\rvert\le C_j2^{-j/2}e^{-\beta\lvert2^ju-k\rvert}`.

    li2025 §6.1.4's bound with the paper's amplitude :math:`2^{-j/2}`, centre :math:`k2^{-j}`,
    width :math:`2^{-j}` (u = pos/n_max for 'unit', pos for 'position'). The atoms are read from
    the encoding itself (:func:`petheory.encodings.wavelet`), not from a formula: for 'unit' with
    its training length set to ``samples_per_unit * 2^jmax`` so that even the finest atom gets
    ``samples_per_unit`` samples per width (the atoms do not depend on ``n_max`` in this
    dilation); for 'position' at the integer positions where the encoding exists (``n_max`` sets
    the coarsest scale; the finest atoms are sampled once per position). ``beta`` defaults to the fitted
    :func:`wavelet_decay_fit` rate. Returns ``{"scales": [...], "C": [...], "beta": beta}``.
    A uniform constant C exists iff ``C`` stays bounded as scales are added.
    """
    d = v.integer("d", d, minimum=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    spu = v.integer("samples_per_unit", samples_per_unit, minimum=1)
    S = wavelet_support_length(wavelet)
    beta = wavelet_decay_fit(wavelet, resolution=resolution).beta if beta is None else v.real("beta", beta, nonnegative=True)
    atoms = enc.wavelet_atoms(d, S, dilation=dilation, n_max=n_max)
    if dilation == "unit":
        # t = p / M with M = spu 2^jmax: every atom, down to the finest, gets >= spu samples per unit width
        M = spu * 2 ** max(j for j, _ in atoms)
        n = wavelet_support_end(d, M, wavelet=wavelet, dilation="unit")
        P = enc.wavelet(n, d, wavelet=wavelet, n_max=M, normalisation=normalisation, dilation="unit", resolution=resolution)
        u = np.arange(n) / M
    else:
        # raw positions are integers: the encoding exists only there, so sample exactly there
        n = wavelet_support_end(d, n_max, wavelet=wavelet, dilation="position")
        P = enc.wavelet(n, d, wavelet=wavelet, n_max=n_max, normalisation=normalisation, dilation="position",
                        resolution=resolution)
        u = np.arange(n, dtype=np.float64)
    out_j, out_C = [], []
    for j in sorted({a[0] for a in atoms}):
        cols = [i for i, (jj, _k) in enumerate(atoms) if jj == j]
        ks = np.array([atoms[i][1] for i in cols], dtype=np.float64)
        dist = np.abs(2.0**j * u[:, None] - ks[None, :])  # (n, K)
        a = np.abs(P[:, cols])
        nz = a > 0  # outside its support an atom is exactly 0 and bounds nothing
        # |psi_jk| / (2^(-j/2) e^(-beta dist)), in log space (e^(-beta dist) underflows far from the atom)
        logr = np.log(a[nz]) + (j / 2) * math.log(2.0) + beta * dist[nz]
        out_j.append(int(j))
        out_C.append(float(np.exp(np.max(logr))) if logr.size else 0.0)
    return {"scales": out_j, "C": out_C, "beta": beta}


def wavelet_norm_growth(sizes, *, wavelet: str = "db2", normalisation: str = "none", dilation: str = "unit",
                        d: int | str = "full") -> dict:
    r""":math:`\sup_{pos<N_{max}}\lVert PE_{wav}(pos)\rVert_2` for each :math:`N_{max}` in ``sizes``, and fits.

    ``d='full'``: as many atoms as reach the finest scale that resolves one position (the
    reading under which the norm can depend on :math:`N_{max}`: :math:`2^{j}\ge N_{max}` for
    'unit', :math:`j=0` for 'position'); an int: fixed width. Returns the sizes, the sup norms,
    the power-law fit of the norm (exponent with CI) and of the ratio to
    :math:`N_{max}\sqrt{\log N_{max}}` (li2025's unnormalised growth; an exponent <= 0 means the
    norm grows no faster).
    """
    sizes = [v.integer("size", s, minimum=4) for s in sizes]
    S = wavelet_support_length(wavelet)
    norms, widths = [], []
    for N in sizes:
        if d == "full":
            if dilation == "unit":
                jf = int(math.ceil(math.log2(N)))
                width = sum(2**j + S - 1 for j in range(jf + 1))
            else:
                J = int(math.ceil(math.log2(N)))
                width = sum((-(-N // 2 ** (-j)) + S - 1) for j in range(-J, 1))
        else:
            width = v.integer("d", d, minimum=1)
        widths.append(width)
        norms.append(float(np.max(wavelet_norms(N, width, wavelet=wavelet, n_max=N, normalisation=normalisation,
                                                dilation=dilation))))
    N = np.array(sizes, dtype=np.float64)
    fit = fit_power_law(N, norms)
    ratio = np.array(norms) / (N * np.sqrt(np.log(N)))
    rfit = fit_power_law(N, ratio)
    return {"sizes": sizes, "d": widths, "sup_norm": norms, "fit": fit.as_dict(), "ratio_fit": rfit.as_dict(),
            "wavelet": wavelet, "normalisation": normalisation, "dilation": dilation, "d_policy": d}


# =============================================================================== Legendre


def legendre_norm_bound(d: int, orthonormal: bool = False) -> float:
    r""":math:`\sup_{x\in[-1,1]}\lVert(c_kP_k(x))_k\rVert_2=(\sum_kc_k^2)^{1/2}`, attained at x=1 where :math:`P_k(1)=1`."""
    d = v.integer("d", d, minimum=1)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre constants (d = {d})")
    c2 = (2.0 * np.arange(d) + 1.0) / 2.0 if orthonormal else np.ones(d)
    return float(math.sqrt(c2.sum()))


def legendre_limit(d: int, orthonormal: bool = False) -> np.ndarray:
    r"""The saturation vector :math:`PE_\infty=(c_kP_k(1))_k=(c_k)_k`, shape (d,)."""
    d = v.integer("d", d, minimum=1)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre saturation vector (d = {d})")
    return np.sqrt((2.0 * np.arange(d) + 1.0) / 2.0) if orthonormal else np.ones(d)


def legendre_saturation_bound(pos, n_max: int, d: int, *, orthonormal: bool = False, position_map: str = "linear",
                              beyond: str = "clip") -> np.ndarray:
    r"""Upper bound on :math:`\lVert PE(pos)-PE_\infty\rVert_2`, shape like ``pos``.

    :math:`\lvert P_k(x)-P_k(1)\rvert\le P_k'(1)(1-x)=\tfrac{k(k+1)}2(1-x)` for :math:`x\in[-1,1]`
    (:math:`\lvert P_k'\rvert` is largest at the end points), so the bound is
    :math:`(1-x(pos))\,(\sum_k(c_kk(k+1)/2)^2)^{1/2}`: exactly 0 from :math:`N_{max}-1` on for the
    clipped linear map, :math:`2e^{-\ln(20)\,pos/(N_{max}-1)}(\cdots)` for the 'exp' map. ``inf``
    where :math:`x>1` (``beyond='extrapolate'``: no saturation).
    """
    x = enc.legendre_positions(pos, v.integer("n_max", n_max, minimum=2), position_map=position_map, beyond=beyond)
    c = legendre_limit(d, orthonormal)  # refuses a d that cannot fit
    k = np.arange(v.integer("d", d, minimum=1), dtype=np.float64)
    lip = float(np.linalg.norm(c * k * (k + 1) / 2))
    return np.where(x > 1.0, np.inf, (1.0 - x) * lip)


# =============================================================================== sinusoidal ambiguity


def sinusoidal_offset_distance(offsets, d: int, *, base: float = 10000.0) -> np.ndarray:
    r""":math:`D(\Delta)=\lVert PE(p+\Delta)-PE(p)\rVert_2=(\sum_i2(1-\cos\omega_i\Delta))^{1/2}`, same shape as ``offsets``.

    Independent of :math:`p` and of the layout (each frequency :math:`\omega_i=base^{-2i/d}`
    contributes a sine and a cosine). Computed from :math:`\Delta` directly, so it carries no
    rounding of large absolute positions.
    """
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    delta = np.asarray(offsets, dtype=np.float64)
    _memory.require(_memory.array_bytes(d // 2 + 3 * delta.size, itemsize=8), f"sinusoidal offset distances (d = {d}, {delta.size} offsets)",
                    flops=10.0 * delta.size * (d // 2))
    out = np.zeros(delta.shape)
    for wi in enc.rope_frequencies(d, base=base):
        out += enc.chord_sq(wi * delta)  # = 2(1 - cos), without cancellation at small angles
    return np.sqrt(out)


def sinusoidal_ambiguity_onset(d: int, *, base: float = 10000.0, max_offset: int = 10**6, chunk: int = 1 << 16) -> int | None:
    r"""Smallest offset :math:`\Delta\ge2` with :math:`D(\Delta)<D(1)`: two positions :math:`\Delta` apart closer than neighbours.

    ``None`` when no such offset is :math:`\le` ``max_offset``. Since :math:`D` depends only on the
    offset, this is the first length at which the encoding has an ambiguous pair under that
    criterion. Pruned search: frequencies from fastest to slowest, dropping offsets whose partial
    sum already exceeds :math:`D(1)^2` (every term is non-negative).
    """
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    max_offset = v.integer("max_offset", max_offset, minimum=2)
    _memory.require(_memory.array_bytes(d // 2 + 4 * int(chunk), itemsize=8), f"sinusoidal ambiguity search (d = {d}, chunks of {chunk})")
    w = enc.rope_frequencies(d, base=base)  # fastest first
    target = float(sinusoidal_offset_distance(1.0, d, base=base)) ** 2
    for lo in range(2, max_offset + 1, chunk):
        delta = np.arange(lo, min(lo + chunk, max_offset + 1), dtype=np.float64)
        part = np.zeros(delta.size)
        for wi in w:
            part += enc.chord_sq(wi * delta)
            keep = part < target
            if not keep.any():
                break
            delta, part = delta[keep], part[keep]
        else:
            return int(delta[0])
    return None


def sinusoidal_slowest_period(d: int, *, base: float = 10000.0) -> float:
    r"""Period :math:`2\pi\,base^{(d-2)/d}` of the slowest sine-cosine pair, in positions."""
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    return 2.0 * math.pi * base ** ((d - 2) / d)


# =============================================================================== one report row (CLI)


def bound_report(name: str, length: int, d: int = 64, *, n_max: int | None = None, m: int = 1000,
                 weight_norm: float = 1.0, lipschitz: float = 1.0, token_norm: float = 1.0,
                 distance: int | None = None, **params) -> dict:
    r"""Everything ``petheory bounds`` prints for one encoding and length, as a JSON-able dict.

    ``norm``: :func:`norm_bound`; ``B0`` = ``token_norm`` + computed (absolute kinds) or
    ``token_norm`` (bias, rotary); ``rademacher``: li2025 §4.2's
    :math:`B\,L_{trans}B_0/\sqrt m` (:func:`rademacher_lipschitz_bound`; exact as a bound for the
    linear class, ``lipschitz=1``). For ALiBi also ``eq9``: the Eq. 9 drift bound
    :math:`L_A\alpha(d-N_{max})`, :math:`L_A=1/4`, at ``distance`` (default the farthest key,
    ``length-1``, when it lies beyond ``n_max``); an explicit ``distance`` must exceed ``n_max``.
    """
    m = v.integer("m", m, minimum=1)
    weight_norm = v.real("weight_norm", weight_norm, nonnegative=True)
    lipschitz = v.real("lipschitz", lipschitz, nonnegative=True)
    token_norm = v.real("token_norm", token_norm, nonnegative=True)
    nb = norm_bound(name, length, d, n_max=n_max, **params)
    B0 = nb.input_norm(token_norm)
    out = {"pe": name, "kind": nb.kind, "length": nb.length, "d": d, "n_max": n_max, "params": nb.params,
           "norm": nb.as_dict(), "token_norm": token_norm, "B0": B0, "m": m, "weight_norm": weight_norm,
           "lipschitz": lipschitz,
           "rademacher": rademacher_lipschitz_bound(lipschitz, B0, m, output_norm=weight_norm) if B0 is not None else None,
           "rademacher_formula": "weight_norm * lipschitz * B0 / sqrt(m) (li2025 §4.2, constant 1, logs dropped)"}
    if name == "alibi":
        nm = length if n_max is None else n_max
        if distance is not None or length - 1 > nm:
            dist = length - 1 if distance is None else distance
            slope = nb.params.get("slope", 1.0)
            t = alibi_extrapolation_terms(np.zeros(1), slope=slope, distance=dist, n_max=nm)
            out["eq9"] = {"distance": dist, "n_max": nm, "slope": slope, "L_A": t["L_A"], "bound": t["rhs"],
                          "reading": "softmax weight of the key at distance d vs at N_max, other logits fixed"}
    elif distance is not None:
        raise ValueError(f"distance (Eq. 9) applies to alibi only, not {name!r}")
    if nb.kind == "rotary" and n_max is not None and n_max >= 2:
        out["angles"] = rotary_angle_coverage(name, length, d, n_max=n_max, **params)
    return out


# =============================================================================== long-context rotary encodings


def scaled_rotary_norm_bound(name: str, table, length: int, d: int, params: dict) -> NormBound:
    r"""Norm bound of a rotary table that also scales (``encodings_modern.ScaledRotaryTable``).

    ``computed`` is the largest relative change of a rotated band's norm over positions
    ``0..N'-1``, queries and keys: :math:`\max_{p,t}|f_{p,t}-1|`. Stated: YaRN's
    ``mscale - 1`` (:math:`0.1\ln s`, the same at every position: logits grow by
    :math:`\mathrm{mscale}^2`); xPos's key factor :math:`\zeta_0^{-(N'-1)/B}-1`, which grows
    exponentially in N' while the logit factor :math:`\zeta_t^{(i-j)/B}\le 1` for causal
    :math:`i\ge j`; RoPE + absolute rotates by 0 and adds ``sup ||PE(pos)||`` to :math:`B_0`.
    """
    fq, fk = table.factors(), table.factors(key=True)  # (N', r/2)
    computed = float(max(np.max(np.abs(fq - 1.0)), np.max(np.abs(fk - 1.0))))
    additive = None if table.additive is None else float(np.max(np.linalg.norm(table.additive, axis=1)))
    if table.log_scale is not None:
        # band 0 has the smallest zeta, so the key at N'-1 grows most: zeta_0^(-(N'-1)/B)
        stated = float(table.mscale * np.exp(-table.log_scale[-1, 0]) - 1.0)
        formula = "zeta_0^(-(N'-1)/B) - 1 (keys grow; causal logit factor <= 1)"
        meaning = f"max relative change of a band's norm under xPos's query/key scales at positions < {length}; B_0 = B_x"
    elif table.mscale != 1.0:
        stated, formula = table.mscale - 1.0, "mscale - 1 = 0.1 ln s (logits x mscale^2)"
        meaning = "relative change of a rotated band's norm: YaRN's attention factor on q and k; B_0 = B_x"
    else:
        stated, formula = 0.0, "0 (||R_p x|| = ||x||) + sup ||PE|| added to B_0"
        meaning = "rotation adds nothing; the additive absolute part adds its sup norm to B_0"
    return NormBound(name, "rotary", length, d, stated, formula, computed, meaning, None, params, additive)


def rotary_angle_coverage(name: str, length: int, d: int = 64, *, n_max: int, **params) -> dict:
    r"""Which rotary bands leave the angles a model saw in training, at inference length ``length``.

    The training angles are those of the reference table at positions ``0..n_max-1``: for a
    context-extension entry (a ``scale`` parameter: ``rope_pi``, ``rope_ntk``, ``rope_yarn``) the
    same entry at ``scale=1`` (plain RoPE, the pre-trained model, context :math:`L` = ``n_max``);
    otherwise the table itself. Band ``t`` has seen every angle when
    :math:`(L-1)\omega_t \ge 2\pi`; else it saw :math:`[0, (L-1)\omega_t]` and goes out of
    range at the first length :math:`N` with :math:`(N-1)\omega'_t > (L-1)\omega_t`.

    Returns
    -------
    dict
        ``bands`` (r/2), ``full_turn`` (bands that completed a turn in training),
        ``out_of_range`` (bands past their seen range at ``length``), ``onset`` (the first
        length at which some band leaves its range; None if none ever does), ``max_ratio``
        (largest :math:`(N-1)\omega'_t / ((L-1)\omega_t)` over the partial bands).

    Notes
    -----
    PI: every frequency is divided by s, so the onset is the first N with
    :math:`N-1 > s(L-1)`. NTK: band t is divided by :math:`s^{2t/(r-2)} < s`, so middle bands
    leave their range before :math:`s(L-1)`. YaRN: interpolated bands (few turns) behave as PI,
    kept bands (many turns) had full turns.
    """
    info = enc.info(name)
    if info.kind != "rotary":
        raise ValueError(f"rotary_angle_coverage needs a rotary encoding; {name!r} is {info.kind}")
    length = v.integer("length", length, minimum=1)
    n_max = v.integer("n_max", n_max, minimum=2)
    if "n_max" in info.params:
        params = {**params, "n_max": params.get("n_max", n_max)}
    ref = info.fn(2, d, **({**params, "scale": 1.0} if "scale" in info.params else params))
    w0 = ref.angles[1] - ref.angles[0]  # (r/2,) training frequencies
    w1 = np.diff(info.fn(2, d, **params).angles, axis=0)[0]  # (r/2,) inference frequencies
    seen = (n_max - 1) * w0
    full = seen >= 2 * math.pi
    partial = ~full & (w1 > 0)
    reach = (length - 1) * w1
    out = partial & (reach > seen * (1 + 4 * np.finfo(float).eps))
    # first N with (N-1) w1 > seen: N - 1 = floor(seen / w1) + 1; seen / w1 is an integer for RoPE and PI
    # (511 w / w), which rounding can put just below it: snap ratios within 8 ulps of an integer
    ratio = seen[partial] / w1[partial]
    near = np.abs(ratio - np.round(ratio)) <= 8 * np.finfo(float).eps * np.maximum(ratio, 1.0)
    onsets = np.where(near, np.round(ratio), np.floor(ratio)) + 2
    return {
        "pe": name, "length": length, "n_max": n_max, "bands": int(w0.size), "full_turn": int(full.sum()),
        "out_of_range": int(out.sum()), "onset": int(onsets.min()) if onsets.size else None,
        "max_ratio": float(np.max(reach[partial] / seen[partial])) if partial.any() else None,
    }


# =============================================================================== old names of moved torch probes

#: Names that moved to :mod:`petheory.nn.lipschitz` (they run a torch model); kept reachable here.
MOVED_TO_NN = ("transformer_lipschitz", "transformer_input_norm", "alibi_drift")


def __getattr__(name: str):
    """``bounds.transformer_lipschitz`` etc. (old paths): forwarded to :mod:`petheory.nn.lipschitz`.

    Lazy (PEP 562), so importing :mod:`petheory.bounds` never imports torch; only asking for one
    of :data:`MOVED_TO_NN` does. New code imports them from :mod:`petheory.nn.lipschitz`.
    """
    if name in MOVED_TO_NN:
        from petheory.nn import lipschitz

        return getattr(lipschitz, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
