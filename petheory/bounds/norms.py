r"""li2025 Table 2: the norm each PE adds to the input, stated next to computed.

:func:`norm_bound` -- the computed :math:`\sup_{pos<N'}\lVert PE(pos)\rVert_2` of any registered
encoding next to the paper's Table 2 value (:data:`TABLE2`, one function per row); what the
number means for bias and rotary kinds. :func:`scaled_rotary_norm_bound` and
:func:`rotary_angle_coverage` for the long-context rotary encodings; :func:`bound_report`, the
row ``petheory bounds`` prints (norm, :math:`B_0`, li2025 §4.2's Rademacher bound, Eq. 9).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from petheory import _memory
from petheory import encodings as enc
from petheory._validate import Interval, validate_params
from petheory.bounds.alibi import alibi_extrapolation_terms
from petheory.bounds.decay import legendre_norm_bound, wavelet_norms
from petheory.bounds.rademacher import rademacher_lipschitz_bound
from petheory.errors import ParameterError, ValidationError

#: Largest length at which a bias matrix is built densely to measure its magnitude.
DENSE_BIAS_MAX = 4096
_AT_LEAST_1 = Interval(Integral, 1, None)
_NONNEGATIVE = Interval(Real, 0, None, closed="left")


@dataclass(frozen=True)
class NormBound:
    """The norm bound of one encoding at one inference length. See :func:`norm_bound`.

    Attributes
    ----------
    name : str
        The encoding's registry name.
    kind : str
        ``'absolute'``, ``'bias'`` or ``'rotary'``: what ``computed`` measures.
    length : int
        The inference length the bound is taken at.
    d : int or None
        Model dimension (None for a bias, which has none).
    stated : float or None
        li2025 Table 2's value; None where the paper gives only an order or no row.
    stated_formula : str
        Table 2's formula for the bound.
    computed : float or None
        The supremum measured: :math:`\\sup_p \\lVert PE(p)\\rVert` over positions 0..length-1 (absolute), the largest
        :math:`\\lvert b\\rvert` (bias), the added norm (rotary: 0, it rotates).
    meaning : str
        What the number is, in words.
    explicit : float or None
        petheory's own derived bound where the paper gives only an order.
    params : dict
        The encoding's parameters the bound was computed with.
    additive : float or None
        Rotary plus absolute (``rope_sinusoidal``): :math:`\\sup_p \\lVert PE(p)\\rVert` of the added vectors.
    """

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

    @validate_params({"token_norm": [_NONNEGATIVE]})
    def input_norm(self, token_norm: float = 0.0) -> float | None:
        """:math:`B_0 = B_x + ` computed (absolute), :math:`B_x` (bias, rotary: no vector is added;
        RoPE + absolute adds its absolute part's sup norm)."""
        token_norm = float(token_norm)
        if self.kind == "absolute":
            return None if self.computed is None else token_norm + self.computed
        return token_norm + (self.additive or 0.0)

    def as_dict(self) -> dict:
        return asdict(self)


@validate_params({"n": [_AT_LEAST_1]})
def pe_norms(name: str, n: int, d: int, **params) -> np.ndarray:
    """:math:`\\lVert PE(pos)\\rVert_2` for positions ``0..n-1`` of an absolute encoding, shape (n,).

    The wavelet encoding is evaluated sparsely (:func:`wavelet_norms`), so long ranges are cheap.

    Parameters
    ----------
    name : str
        A registered encoding of the absolute kind.
    n : int
        Number of positions (>= 1).
    d : int
        Model dimension.
    **params
        The encoding's own keyword arguments (``normalisation`` for wavelet, ...).

    Returns
    -------
    numpy.ndarray, shape (n,)
        :math:`\\lVert PE(pos)\\rVert_2` for ``pos = 0..n-1``.

    See Also
    --------
    norm_bound

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.pe_norms('sinusoidal', 3, 8)  # every row: sqrt(d/2)
    array([2., 2., 2.])
    """
    info = enc.info(name)
    if info.kind != "absolute":
        raise ValidationError(f"pe_norms needs an absolute encoding; {name!r} is {info.kind} (see norm_bound)")
    n = int(n)
    if name == "wavelet":
        # sparse evaluation: positions, a few atoms per scale and their values, O(n) words
        _memory.require(_memory.array_bytes(n, itemsize=16 * 8), f"wavelet norms at n = {n} positions",
                        alternative="use a smaller length")
        return wavelet_norms(n, d, **params)
    return np.linalg.norm(info.fn(n, d, **params), axis=1)


@validate_params({"length": [_AT_LEAST_1], "slope": [_NONNEGATIVE]})
def alibi_bias_magnitude(length: int, slope: float) -> float:
    r"""li2025 Table 2: ALiBi adds a logit bias of magnitude up to :math:`\alpha(N'-1)` at length N'.

    Parameters
    ----------
    length : int
        Inference length N' (>= 1).
    slope : float
        ALiBi's head slope :math:`\alpha` (>= 0).

    Returns
    -------
    float
        :math:`\alpha(N'-1)`, the largest :math:`\lvert b(i,j)\rvert` over positions below N'.

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.alibi_bias_magnitude(64, 0.5)
    31.5
    >>> bounds.norm_bound('alibi', 64, slope=0.5).computed  # measured on the bias matrix
    31.5
    """
    return float(slope) * (int(length) - 1)


# ------------------------------------------------------------------------------- li2025 Table 2, one row per PE


class StatedBound(NamedTuple):
    """One row of li2025 Table 2: the stated value (None: order only, or no number), its formula, and
    petheory's own explicit bound where the paper gives only an order.

    Attributes
    ----------
    stated : float or None
        The value the table states (None: an order only, or no number).
    formula : str
        The table's formula.
    explicit : float or None
        petheory's explicit bound where the table gives only an order.
    """

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
#: (``d`` is None for bias kinds), plus the long-context biases of ``encodings.kernels``. A
#: registered encoding missing here has no stated bound ("not in Table 2"); rotary kinds are
#: handled by :func:`norm_bound` (rotations add nothing) and :func:`scaled_rotary_norm_bound`.
TABLE2 = {
    "sinusoidal": _sinusoidal_row, "learned": _learned_row, "wavelet": _wavelet_row, "legendre": _legendre_row,
    "nope": _nope_row, "alibi": _alibi_row,
    "kerple_log": _kerple_log_row, "kerple_power": _kerple_power_row, "sandwich": _sandwich_row,
}


def stated_bound(name: str, length: int, d: int | None, params: dict) -> StatedBound:
    """The :data:`TABLE2` row of encoding ``name`` at inference length ``length``; an unknown name raises
    the registry's ValueError (which lists the registered names), a registered one without a row gets
    ``StatedBound(None, "not in Table 2")``.

    Parameters
    ----------
    name : str
        Any registered encoding.
    length : int
        Inference length N'.
    d : int or None
        Model dimension; None for bias kinds (their rows do not use it).
    params : dict
        The encoding's keyword arguments, as the row reads them (``slope`` for ALiBi, ``n_max`` for learned, ...).

    Returns
    -------
    StatedBound
        ``stated`` (None: order only, or no number), ``formula`` and ``explicit``.

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.stated_bound('sinusoidal', 100, 64, {})
    StatedBound(stated=8.0, formula='sqrt(d_model)', explicit=None)
    >>> bounds.stated_bound('alibi', 100, None, {'slope': 0.25})  # alpha (N' - 1)
    StatedBound(stated=24.75, formula="alpha (N'-1)", explicit=None)
    >>> bounds.stated_bound('rope', 100, 64, {}).formula
    'not in Table 2'
    """
    enc.info(name)
    row = TABLE2.get(name)
    return StatedBound(None, "not in Table 2") if row is None else row(length, d, params)


@validate_params({"length": [_AT_LEAST_1], "d": [_AT_LEAST_1], "n_max": [_AT_LEAST_1, None]})
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
        Training length :math:`N_{max}` (default ``length``) for encodings that use it (learned table size,
        wavelet and Legendre position maps; YaRN's original context, default its registry value 2048).
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

    See Also
    --------
    pe_norms, bound_report

    Examples
    --------
    >>> from petheory import bounds
    >>> b = bounds.norm_bound('sinusoidal', 100, 64)
    >>> b.computed  # ||PE_p|| = sqrt(d/2)
    5.656854249492381
    """
    info = enc.info(name)
    length, d, n_max = int(length), int(d), None if n_max is None else int(n_max)
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
    if "n_max" in info.params:  # YaRN: its original context is the training length (else its registry default)
        p.setdefault("n_max", info.params["n_max"] if n_max is None else n_max)
    table = info.fn(length, d, **p)
    if hasattr(table, "factors"):  # encodings.extension.ScaledRotaryTable: YaRN, xPos, RoPE + absolute
        return scaled_rotary_norm_bound(name, table, length, d, p)
    probe = np.vstack([np.eye(d), np.random.default_rng(0).normal(size=(1, d))])  # (d+1, d)
    norms = np.linalg.norm(probe, axis=1)
    worst = 0.0
    for pos in range(0, length, max(1, length // 256)):  # 256 positions suffice: angles are p * freq
        worst = max(worst, float(np.max(np.abs(np.linalg.norm(table.apply_at(probe, pos), axis=1) - norms) / norms)))
    meaning = "max relative change of ||x|| under R_p: rotations add no vector, B_0 = B_x"
    return NormBound(name, kind, length, d, 0.0, "0 (||R_p x|| = ||x||)", worst, meaning, None, p)


def scaled_rotary_norm_bound(name: str, table, length: int, d: int, params: dict) -> NormBound:
    r"""Norm bound of a rotary table that also scales (``encodings.extension.ScaledRotaryTable``).

    ``computed`` is the largest relative change of a rotated band's norm over positions
    ``0..N'-1``, queries and keys: :math:`\max_{p,t}|f_{p,t}-1|`. Stated: YaRN's
    ``mscale - 1`` (:math:`0.1\ln s`, the same at every position: logits grow by
    :math:`\mathrm{mscale}^2`); xPos's key factor :math:`\zeta_0^{-(N'-1)/B}-1`, which grows
    exponentially in N' while the logit factor :math:`\zeta_t^{(i-j)/B}\le 1` for causal
    :math:`i\ge j`; RoPE + absolute rotates by 0 and adds ``sup ||PE(pos)||`` to :math:`B_0`.

    Parameters
    ----------
    name : str
        The encoding's registered name (recorded in the result).
    table : ScaledRotaryTable
        The table the encoding built at ``length`` positions (``encodings.get(name)(length, d, **params)``).
    length : int
        Inference length N' the table was built for.
    d : int
        Model dimension.
    params : dict
        The encoding's keyword arguments (recorded in the result).

    Returns
    -------
    NormBound
        ``kind='rotary'``; ``stated`` and ``stated_formula`` as above, ``computed``, and ``additive``
        (the absolute part's :math:`\sup\lVert PE(pos)\rVert`, None without one).

    Examples
    --------
    >>> import math
    >>> from petheory import bounds, encodings
    >>> table = encodings.get('rope_yarn')(64, 16, scale=4.0, n_max=16)
    >>> nb = bounds.scaled_rotary_norm_bound('rope_yarn', table, 64, 16, {'scale': 4.0, 'n_max': 16})
    >>> round(nb.stated, 6), round(nb.computed, 6), round(0.1 * math.log(4.0), 6)  # YaRN: 0.1 ln s, measured
    (0.138629, 0.138629, 0.138629)
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
    elif table.additive is not None:
        stated, formula = 0.0, "0 (||R_p x|| = ||x||) + sup ||PE|| added to B_0"
        meaning = "rotation adds nothing; the additive absolute part adds its sup norm to B_0"
    else:  # YaRN at mscale 1: a plain rotation
        stated, formula = 0.0, "0 (||R_p x|| = ||x||; mscale = 1)"
        meaning = "max relative change of ||x|| under R_p: rotations add no vector, B_0 = B_x"
    return NormBound(name, "rotary", length, d, stated, formula, computed, meaning, None, params, additive)


@validate_params({"length": [_AT_LEAST_1], "n_max": [Interval(Integral, 2, None)]})
def rotary_angle_coverage(name: str, length: int, d: int = 64, *, n_max: int, **params) -> dict:
    r"""Which rotary bands leave the angles a model saw in training, at inference length ``length``.

    The training angles are those of the reference table at positions ``0..n_max-1``: for a
    context-extension entry (a ``scale`` parameter: ``rope_pi``, ``rope_ntk``, ``rope_yarn``) the
    same entry at ``scale=1`` (plain RoPE, the pre-trained model, context :math:`L` = ``n_max``);
    otherwise the table itself. Band ``t`` has seen every angle when
    :math:`(L-1)\omega_t \ge 2\pi`; else it saw :math:`[0, (L-1)\omega_t]` and goes out of
    range at the first length :math:`N` with :math:`(N-1)\omega'_t > (L-1)\omega_t`.

    Parameters
    ----------
    name : str
        A registered encoding of the rotary kind.
    length : int
        Inference length N (>= 1).
    d : int, default 64
        Model dimension.
    n_max : int
        Training length L (>= 2); also the encoding's own ``n_max`` (YaRN) unless ``params`` gives one.
    **params
        The encoding's own keyword arguments (``scale``, ``base``, ...).

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

    Examples
    --------
    Position interpolation by s = 4 from L = 16: no band leaves its range up to
    :math:`N - 1 = s(L-1) = 60`, all partial bands do at N = 62:

    >>> from petheory import bounds
    >>> c = bounds.rotary_angle_coverage('rope_pi', 61, 16, n_max=16, scale=4.0)
    >>> c['bands'], c['full_turn'], c['out_of_range'], c['onset']
    (8, 1, 0, 62)
    >>> bounds.rotary_angle_coverage('rope_pi', 62, 16, n_max=16, scale=4.0)['out_of_range']
    7
    >>> bounds.rotary_angle_coverage('rope_ntk', 61, 16, n_max=16, scale=4.0)['onset']  # NTK: far earlier
    20
    """
    info = enc.info(name)
    if info.kind != "rotary":
        raise ValidationError(f"rotary_angle_coverage needs a rotary encoding; {name!r} is {info.kind}")
    length, n_max = int(length), int(n_max)
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


# =============================================================================== one report row (CLI)


def training_length(params: dict) -> tuple[int | None, dict]:
    """A PE spec's own training length: its ``n_max`` and the other parameters.

    A learned table's size, the wavelet/Legendre position maps and YaRN's original context are all
    the training length :math:`N_{max}`, so ``learned:n_max=50`` and ``bounds(..., context=50)`` say the same
    thing; :func:`petheory.analyses.bounds.bounds` refuses the two when they differ.

    Parameters
    ----------
    params : dict
        The PE spec's keyword arguments, possibly with ``n_max``; not modified.

    Returns
    -------
    n_max : int or None
        The spec's own training length (None when it gives none).
    params : dict
        A copy of ``params`` without ``n_max``.

    Examples
    --------
    >>> from petheory.bounds.norms import training_length
    >>> training_length({"scale": 4.0, "n_max": 32768})
    (32768, {'scale': 4.0})
    >>> training_length({})
    (None, {})
    """
    params = dict(params)
    return params.pop("n_max", None), params


@validate_params({"m": [_AT_LEAST_1], "weight_norm": [_NONNEGATIVE], "lipschitz": [_NONNEGATIVE],
                  "token_norm": [_NONNEGATIVE]})
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
    A PE spec's own ``n_max`` (``learned:n_max=50``) is taken out by :func:`training_length` first.

    Parameters
    ----------
    name : str
        Any registered encoding.
    length : int
        Inference length N'.
    d : int, default 64
        Model dimension.
    n_max : int, optional
        Training length :math:`N_{max}` (see :func:`norm_bound`); with a rotary encoding and ``n_max >= 2``
        the result also holds ``angles`` (:func:`rotary_angle_coverage`).
    m : int, default 1000
        Sample size of the Rademacher bound (>= 1).
    weight_norm, lipschitz, token_norm : float, default 1.0
        B (the readout's norm bound), :math:`L_{trans}` and :math:`B_x` (the token norm), each >= 0.
    distance : int, optional
        ALiBi only: the key distance of the Eq. 9 bound (must exceed ``n_max``).
    **params
        The encoding's own keyword arguments.

    Returns
    -------
    dict
        ``pe``, ``kind``, ``length``, ``d``, ``n_max``, ``params``, ``norm`` (:meth:`NormBound.as_dict`),
        ``token_norm``, ``B0``, ``m``, ``weight_norm``, ``lipschitz``, ``rademacher`` (None when
        ``B0`` is), ``rademacher_formula``; ``eq9`` (ALiBi) and ``angles`` (rotary) as above.

    Examples
    --------
    Sinusoidal at d = 64: :math:`B_0 = 1 + \sqrt{32}`, and the bound is :math:`B_0/\sqrt{400}`:

    >>> from petheory import bounds
    >>> r = bounds.bound_report("sinusoidal", 100, 64, m=400)
    >>> round(r["B0"], 6), round(r["rademacher"], 6)
    (6.656854, 0.332843)
    >>> r = bounds.bound_report("rope_yarn", 256, 16, scale=4.0, n_max=64)  # rotary: B0 = B_x
    >>> r["n_max"], r["B0"], r["angles"]["onset"]
    (64, 1.0, 254)
    >>> bounds.bound_report("alibi", 100, slope=0.5, n_max=50)["eq9"]["bound"]  # L_A alpha (d - N_max)
    6.125
    """
    m, weight_norm, lipschitz, token_norm = int(m), float(weight_norm), float(lipschitz), float(token_norm)
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
        raise ParameterError("distance", f"None for {name!r} (Eq. 9 applies to alibi only)", distance, owner=bound_report)
    if nb.kind == "rotary" and n_max is not None and n_max >= 2:
        out["angles"] = rotary_angle_coverage(name, length, d, n_max=n_max, **params)
    return out
