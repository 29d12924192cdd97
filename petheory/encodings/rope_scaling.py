r"""The RoPE scalings models ship that :mod:`petheory.encodings.extension` does not: Llama 3, LongRoPE, dynamic NTK.

Each is written from its source formula, with the conventions of Hugging Face transformers'
``modeling_rope_utils`` (the code that runs these models), and registered like every rotary
entry. Shared conventions: ``scale`` is the extension factor :math:`s` (``factor`` in a
config), ``n_max`` the original (pre-training) context :math:`L`, ``r`` the rotary dimension
(``rotary_dim``, default ``d``; a partial rotary model rotates the first ``r`` coordinates by
pairing) and :math:`\omega_t = \mathrm{base}^{-2t/r}`, ``t = 0..r/2-1``.

Also here: :func:`partial_rotary_dim` (how ``partial_rotary_factor`` / GPT-NeoX's ``rotary_pct``
become ``r``), :func:`band_frequencies` (the per-band frequencies and the logit factor of any
rotary registry entry at a given length: the one place the report and ``describe`` read them),
and :func:`mla_table` (MLA's decoupled RoPE with any of these scalings, used by ``mla_rope``).
"""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np

from petheory import _validate as v
from petheory._validate import Interval, validate_params
from petheory.encodings._registry import info, register, table_shape
from petheory.encodings.rotary import RotaryTable, rope_frequencies
from petheory.encodings.extension import ScaledRotaryTable, rotary_angles, rotary_dims
from petheory.errors import ValidationError

#: Rotary registry entries that are RoPE with scaled frequencies (and possibly a logit factor): what
#: MLA's rope part and a model config's ``rope_type`` may use. ``rope_type`` -> entry in
#: :data:`petheory.models.rope.ROPE_TYPES`.
ROPE_SCALINGS = ("rope", "rope_pi", "rope_ntk", "rope_yarn", "rope_llama3", "rope_longrope", "rope_dynamic")


def partial_rotary_dim(head_dim: int, factor: float = 1.0) -> int:
    r"""Rotary dimension ``r = int(head_dim * factor)`` of a partial rotary model (HF ``partial_rotary_factor``).

    GPT-NeoX's ``rotary_pct`` and Phi's ``partial_rotary_factor`` are the same fraction; transformers
    truncates the product to an int (``dim = int(head_dim * partial_rotary_factor)``), and so does
    this. The result must be an even number >= 2 (rotation pairs).

    Parameters
    ----------
    head_dim : int
        Size of one attention head (at least 2).
    factor : float
        Fraction of each head that rotates, in (0, 1] (``partial_rotary_factor`` / ``rotary_pct``).

    Returns
    -------
    int
        The rotary dimension ``r = int(head_dim * factor)``.

    Raises
    ------
    ValidationError
        ``factor > 1``, or a product that truncates to an odd number or to less than 2.

    Examples
    --------
    >>> partial_rotary_dim(96, 0.25)  # GPT-NeoX-20B: head_dim 96, rotary_pct 0.25
    24
    >>> partial_rotary_dim(64, 0.5)  # Phi-2: half of each head rotates
    32
    """
    head_dim = v.integer("head_dim", head_dim, minimum=2)
    factor = v.real("partial_rotary_factor", factor, positive=True)
    if factor > 1:
        raise ValidationError(f"partial_rotary_factor is the fraction of each head that rotates, in (0, 1]; got {factor}")
    r = int(head_dim * factor)
    if r < 2 or r % 2:
        raise ValidationError(f"partial_rotary_factor={factor} of head_dim={head_dim} gives rotary dimension {r}; it must be "
                         "an even number >= 2 (coordinates rotate in pairs)")
    return r


def _scale(scale) -> float:
    s = v.real("scale", scale, positive=True)
    if s < 1:
        raise ValidationError(f"scale is a context-extension factor and must be >= 1 (1 = plain RoPE), got {s}")
    return s


# --------------------------------------------------------------------------- Llama 3


def llama3_frequencies(freqs, *, scale: float, n_max: int, low_freq_factor: float = 1.0,
                       high_freq_factor: float = 4.0) -> np.ndarray:
    r"""Llama 3.1's band-wise scaled frequencies, shape (r/2,) like ``freqs``.

    With the wavelength :math:`\lambda_t = 2\pi/\omega_t`: bands with :math:`\lambda_t < L/h`
    (``h = high_freq_factor``) keep :math:`\omega_t`; bands with :math:`\lambda_t > L/l`
    (``l = low_freq_factor``) become :math:`\omega_t/s`; in between
    :math:`(1-\gamma)\,\omega_t/s + \gamma\,\omega_t` with :math:`\gamma = (L/\lambda_t - l)/(h - l)`
    (the turns the band makes over L, mapped linearly from l..h to 0..1). With :math:`h = l` (Llama 4
    Scout's config.json: l = h = 1) no band is blended: a step at :math:`\lambda_t = L/l`.

    Parameters
    ----------
    freqs : array_like, shape (r/2,)
        The unscaled frequencies :math:`\omega_t` (rad/position), e.g. :func:`rope_frequencies`.
    scale : float
        Extension factor :math:`s >= 1` (``factor``).
    n_max : int
        Original context :math:`L` (``original_max_position_embeddings``).
    low_freq_factor : float
        :math:`l`: bands whose wavelength exceeds :math:`L/l` are divided by :math:`s`.
    high_freq_factor : float
        :math:`h >= l`: bands whose wavelength is below :math:`L/h` are kept.

    Returns
    -------
    numpy.ndarray, shape (r/2,)
        The scaled frequencies, band by band.

    Raises
    ------
    ValidationError
        ``scale < 1`` or ``high_freq_factor < low_freq_factor``.

    References
    ----------
    Meta Llama 3.1 reference code (``apply_scaling``); transformers ``rope_type='llama3'``
    (``modeling_rope_utils._compute_llama3_parameters``).

    Examples
    --------
    >>> import numpy as np
    >>> llama3_frequencies(np.array([1.0, 1e-4]), scale=8, n_max=8192).round(8).tolist()
    [1.0, 1.25e-05]
    """
    freqs = v.array("freqs", freqs, ndim=1)
    s = _scale(scale)
    L = v.integer("n_max", n_max, minimum=1)
    lo = v.real("low_freq_factor", low_freq_factor, positive=True)
    hi = v.real("high_freq_factor", high_freq_factor, positive=True)
    if hi < lo:
        raise ValidationError(f"Llama 3 scaling needs high_freq_factor >= low_freq_factor, got {hi} < {lo}")
    wavelen = 2 * math.pi / freqs
    if hi == lo:  # Llama 4 (high = low = 1): no blended bands, a step at lambda = L/l (transformers: the same)
        return np.where(wavelen > L / lo, freqs / s, freqs)
    gamma = (L / wavelen - lo) / (hi - lo)
    smooth = (1 - gamma) * freqs / s + gamma * freqs
    # as transformers: '>' on the low side and '<' on the high side; the band edges themselves are smoothed
    return np.where(wavelen > L / lo, freqs / s, np.where(wavelen < L / hi, freqs, smooth))


@register(
    "rope_llama3",
    "rotary",
    conventions="Llama 3.1's scaling: with wavelength lambda_t = 2pi/w_t and original context L = n_max, bands with "
    "lambda_t < L/high_freq_factor keep w_t, bands with lambda_t > L/low_freq_factor are interpolated (w_t/s), and "
    "in between w_t is blended by gamma = (L/lambda_t - low)/(high - low). No logit factor. HF rope_type='llama3' "
    "(its defaults: s=8, low=1, high=4, L=8192, base=500000).",
    source="Meta Llama 3.1 reference code (apply_scaling); HF modeling_rope_utils._compute_llama3_parameters",
)
def rope_llama3(n: int, d: int, *, scale: float = 8.0, n_max: int = 8192, low_freq_factor: float = 1.0,
                high_freq_factor: float = 4.0, base: float = 500000.0, pairing: str = "interleaved",
                rotary_dim: int | None = None) -> RotaryTable:
    """RoPE with Llama 3.1's band-wise smooth scaling.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    scale : float
        Extension factor :math:`s >= 1` (Llama 3.1: 8).
    n_max : int
        Original context :math:`L` (Llama 3.1: 8192).
    low_freq_factor, high_freq_factor : float
        :math:`l <= h`: wavelengths above :math:`L/l` are interpolated, below :math:`L/h` kept, blended
        in between (:func:`llama3_frequencies`).
    base : float
        RoPE base (Llama 3.1: 500000).
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` or ``(t, t + r/2)``.
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates (default ``d``).

    Returns
    -------
    RotaryTable
        Angles ``p * w_t``, shape (n, r/2), ``w`` the scaled frequencies; no logit factor.

    References
    ----------
    transformers ``rope_type='llama3'`` (``modeling_rope_utils._compute_llama3_parameters``).

    Examples
    --------
    >>> from petheory import encodings
    >>> t, plain = encodings.rope_llama3(2, 128), encodings.rope(2, 128, base=500000.0)
    >>> ratio = plain.angles[1] / t.angles[1]  # by how much each band's frequency is divided
    >>> round(float(ratio[0]), 6), round(float(ratio[-1]), 6)  # fastest band kept, slowest divided by s
    (1.0, 8.0)
    """
    n, d = table_shape(n, d, even=True)
    rotary_dims(d, pairing, rotary_dim)
    w = llama3_frequencies(rope_frequencies(d, base=base, rotary_dim=rotary_dim), scale=scale, n_max=n_max,
                           low_freq_factor=low_freq_factor, high_freq_factor=high_freq_factor)
    return RotaryTable(rotary_angles(n, w), d, pairing)


# --------------------------------------------------------------------------- LongRoPE


def longrope_attention_factor(scale: float, n_max: int) -> float:
    r"""LongRoPE's default logit temperature factor :math:`\sqrt{1 + \ln s/\ln L}` (1 at s <= 1).

    transformers multiplies cos and sin by it, so rotary logits carry its square.

    Parameters
    ----------
    scale : float
        Extension factor :math:`s > 0`.
    n_max : int
        Original context :math:`L` (at least 2).

    Returns
    -------
    float
        The factor on cos and sin; 1 for ``scale <= 1``.

    References
    ----------
    transformers ``rope_type='longrope'`` (``modeling_rope_utils._compute_longrope_parameters``).

    Examples
    --------
    >>> round(longrope_attention_factor(32, 4096), 6)  # Phi-3-mini-128k
    1.190238
    >>> longrope_attention_factor(1.0, 4096)  # no extension, no factor
    1.0
    """
    s = v.real("scale", scale, positive=True)
    L = v.integer("n_max", n_max, minimum=2)
    return 1.0 if s <= 1 else math.sqrt(1 + math.log(s) / math.log(L))


def _factor_list(name: str, values, r: int) -> np.ndarray:
    if values is None:
        return np.ones(r // 2)
    arr = v.array(name, values, ndim=1)
    if arr.shape[0] != r // 2:
        raise ValidationError(f"{name} must hold one factor per rotary band, r/2 = {r // 2} numbers, got {arr.shape[0]}")
    if not np.all(arr > 0):
        raise ValidationError(f"{name} factors divide frequencies and must be > 0; got {arr[~(arr > 0)][0]}")
    return arr


@register(
    "rope_longrope",
    "rotary",
    conventions="LongRoPE (Phi-3): band t's frequency is w_t / f_t with per-band factors f = short_factor for lengths "
    "<= L = n_max and long_factor beyond (regime='auto' picks by seq_len, default n, as transformers picks by the "
    "current length; 'short'/'long' force one); queries and keys are multiplied by attention_factor (default "
    "sqrt(1 + ln(scale)/ln L), 1 at scale <= 1; logits by its square). Factor lists default to ones (plain RoPE).",
    source="ding2024 (LongRoPE); Phi-3 technical report; HF modeling_rope_utils._compute_longrope_parameters",
)
def rope_longrope(n: int, d: int, *, short_factor=None, long_factor=None, scale: float = 1.0, n_max: int = 4096,
                  regime: str = "auto", seq_len: int | None = None, attention_factor: float | None = None,
                  base: float = 10000.0, pairing: str = "interleaved", rotary_dim: int | None = None) -> ScaledRotaryTable:
    """RoPE with LongRoPE's per-band factors (short and long regimes) and attention factor.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    short_factor, long_factor : array_like, shape (r/2,), optional
        Per-band divisors (> 0) of the frequencies for lengths up to ``n_max`` and beyond it
        (default all ones: plain RoPE).
    scale : float
        Extension factor :math:`s`; sets the default ``attention_factor``.
    n_max : int
        Original context :math:`L` (at least 2).
    regime : {'auto', 'short', 'long'}
        ``'auto'`` takes ``long_factor`` when ``seq_len > n_max``, else ``short_factor``; the other two
        force one list.
    seq_len : int, optional
        Current length for ``regime='auto'`` (default ``n``).
    attention_factor : float, optional
        Factor on the rotated queries and keys (default :func:`longrope_attention_factor`).
    base : float
        RoPE base.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` or ``(t, t + r/2)``.
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates (default ``d``).

    Returns
    -------
    ScaledRotaryTable
        Angles ``p * w_t / f_t``, shape (n, r/2), with ``mscale`` the attention factor (rotary logits
        carry its square).

    Raises
    ------
    ValidationError
        A factor list that does not hold ``r/2`` positive numbers.

    References
    ----------
    ding2024 (LongRoPE); transformers ``rope_type='longrope'`` (``modeling_rope_utils._compute_longrope_parameters``).

    Examples
    --------
    >>> from petheory import encodings
    >>> kw = dict(short_factor=[1, 1, 1, 1], long_factor=[1, 2, 4, 8], n_max=4)
    >>> encodings.rope_longrope(8, 8, **kw).angles[1].tolist()  # 8 > n_max: long factors divide the bands
    [1.0, 0.05, 0.0025, 0.000125]
    >>> encodings.rope_longrope(8, 8, seq_len=4, **kw).angles[1].tolist()  # length 4 <= n_max: short factors
    [1.0, 0.1, 0.01, 0.001]
    >>> round(encodings.rope_longrope(4, 8, scale=32, n_max=4096).mscale, 6)  # attention factor
    1.190238
    """
    n, d = table_shape(n, d, even=True)
    r = rotary_dims(d, pairing, rotary_dim)
    s = v.real("scale", scale, positive=True)
    L = v.integer("n_max", n_max, minimum=2)
    v.choice("regime", regime, ("auto", "short", "long"))
    length = n if seq_len is None else v.integer("seq_len", seq_len, minimum=1)
    short, long_ = _factor_list("short_factor", short_factor, r), _factor_list("long_factor", long_factor, r)
    f = long_ if regime == "long" or (regime == "auto" and length > L) else short
    m = longrope_attention_factor(s, L) if attention_factor is None else v.real("attention_factor", attention_factor,
                                                                                positive=True)
    w = rope_frequencies(d, base=base, rotary_dim=rotary_dim) / f
    return ScaledRotaryTable(rotary_angles(n, w), d, pairing, mscale=m)


# --------------------------------------------------------------------------- dynamic NTK


def dynamic_base(base: float, scale: float, n_max: int, seq_len: int, rotary_dim: int) -> float:
    r"""Dynamic NTK base at length N: :math:`b\,\big(sN/L - (s-1)\big)^{r/(r-2)}` for N > L, else ``base``.

    transformers takes :math:`N = \max(\text{seq\_len}, L)`, so lengths up to L keep the
    pre-training base and the base grows continuously beyond it (at N = L the bracket is 1).

    Parameters
    ----------
    base : float
        Pre-training base :math:`b`.
    scale : float
        Extension factor :math:`s >= 1`.
    n_max : int
        Original context :math:`L`.
    seq_len : int
        Current length; :math:`N = \max(\text{seq\_len}, L)`.
    rotary_dim : int
        Rotary dimension :math:`r`, even and at least 4.

    Returns
    -------
    float
        The base at length :math:`N`.

    Raises
    ------
    ValidationError
        ``scale < 1``, or ``rotary_dim`` odd or below 4.

    References
    ----------
    transformers ``rope_type='dynamic'`` (``modeling_rope_utils._compute_dynamic_ntk_parameters``).

    Examples
    --------
    >>> dynamic_base(10000.0, 2.0, 4096, 4096, 128) == 10000.0
    True
    >>> round(dynamic_base(10000.0, 2.0, 4096, 8192, 128) / 10000.0, 6)  # N = 2L: 3**(128/126)
    3.052774
    """
    base = v.real("base", base, positive=True)
    s = _scale(scale)
    L = v.integer("n_max", n_max, minimum=1)
    N = max(v.integer("seq_len", seq_len, minimum=1), L)
    r = v.even("rotary_dim", rotary_dim)
    if r < 4:
        raise ValidationError(f"dynamic NTK scaling needs rotary_dim >= 4 (the exponent r/(r-2) is undefined at r=2), got {r}")
    return base * (s * N / L - (s - 1)) ** (r / (r - 2))


@register(
    "rope_dynamic",
    "rotary",
    conventions="Dynamic NTK: RoPE whose base depends on the current length N = max(seq_len, L) (seq_len default n, "
    "the table's length): base' = base (s N/L - (s-1))^(r/(r-2)), L = n_max; so lengths <= L are plain RoPE and the "
    "lowest band is interpolated by s N/L - (s-1) beyond. The frequencies of one table are those of its length: a "
    "kernel at length N is the kernel of a different base than one at 2N. HF rope_type='dynamic'. No logit factor.",
    source="emozilla 2023 (Dynamically scaled RoPE, r/LocalLLaMA); HF modeling_rope_utils._compute_dynamic_ntk_parameters",
)
def rope_dynamic(n: int, d: int, *, scale: float = 2.0, n_max: int = 2048, seq_len: int | None = None,
                 base: float = 10000.0, pairing: str = "interleaved", rotary_dim: int | None = None) -> RotaryTable:
    """RoPE with dynamic NTK scaling: the base grows with the current length beyond ``n_max``.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    scale : float
        Extension factor :math:`s >= 1`.
    n_max : int
        Original context :math:`L`.
    seq_len : int, optional
        Current length :math:`N` the base is computed at (default ``n``).
    base : float
        Pre-training base.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` or ``(t, t + r/2)``.
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates (default ``d``; at least 4).

    Returns
    -------
    RotaryTable
        Angles ``p * base'^(-2t/r)``, shape (n, r/2), ``base'`` = :func:`dynamic_base` at ``seq_len``;
        no logit factor.

    References
    ----------
    transformers ``rope_type='dynamic'`` (``modeling_rope_utils._compute_dynamic_ntk_parameters``).

    Examples
    --------
    >>> from petheory import encodings
    >>> plain = encodings.rope(2, 8).angles[1]
    >>> bool((encodings.rope_dynamic(2, 8, n_max=2048, seq_len=2048).angles[1] == plain).all())  # N <= L: RoPE
    True
    >>> t = encodings.rope_dynamic(2, 8, n_max=2048, seq_len=4096)  # N = 2L, s = 2
    >>> (plain / t.angles[1]).round(6).tolist()  # the lowest band divided by s N/L - (s-1) = 3
    [1.0, 1.44225, 2.080084, 3.0]
    """
    n, d = table_shape(n, d, even=True)
    r = rotary_dims(d, pairing, rotary_dim)
    length = n if seq_len is None else seq_len
    b = dynamic_base(base, scale, n_max, length, r)
    return RotaryTable(rotary_angles(n, rope_frequencies(d, base=b, rotary_dim=rotary_dim)), d, pairing)


# --------------------------------------------------------------------------- MLA with a scaling; bands of any entry


def mla_table(n: int, d: int, *, rope_dim: int, base: float, pairing: str, scaling: str, scaling_params,
              softmax_mscale: float) -> ScaledRotaryTable:
    r"""MLA's decoupled RoPE whose rope part uses the rotary scaling ``scaling`` (see ``mla_rope``).

    The rope part (the first ``rope_dim`` coordinates) takes the scaled frequencies and attention
    factor of the registry entry ``scaling`` (one of :data:`ROPE_SCALINGS`) with
    ``scaling_params``; ``softmax_mscale`` multiplies every logit by its square (DeepSeek-V3's
    ``yarn_get_mscale(factor, mscale_all_dim)**2`` on the softmax scale). Only the rope part
    carries position, so the table folds it into ``mscale``: the rotary logits carry
    ``(attention_factor * softmax_mscale)**2``.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) size of the score vector.
    rope_dim : int
        Size of the rope part (even, at most ``d``).
    base : float
        RoPE base.
    pairing : {'interleaved', 'half'}
        Rotated pairs of the rope part.
    scaling : str
        The rotary registry entry of the rope part, one of :data:`ROPE_SCALINGS`.
    scaling_params : dict or None
        Keyword arguments of that entry; must not set ``base``, ``pairing`` or ``rotary_dim``.
    softmax_mscale : float
        Factor (> 0) whose square multiplies every logit.

    Returns
    -------
    ScaledRotaryTable
        Angles of the rope part, shape (n, rope_dim/2), and ``mscale = attention_factor * softmax_mscale``.

    Raises
    ------
    ValidationError
        An unknown ``scaling``, or ``scaling_params`` setting ``base``, ``pairing`` or ``rotary_dim``.

    Examples
    --------
    >>> t = mla_table(4, 16, rope_dim=8, base=10000.0, pairing="interleaved", scaling="rope_pi",
    ...               scaling_params={"scale": 4.0}, softmax_mscale=1.2)
    >>> t.angles.shape, t.angles[1].tolist(), t.mscale  # 4 rope pairs, PI divides by 4; no factor of its own
    ((4, 4), [0.25, 0.025, 0.0025, 0.00025], 1.2)
    """
    v.choice("scaling", scaling, ROPE_SCALINGS)
    params = dict(scaling_params or {})
    clash = sorted(set(params) & {"base", "pairing", "rotary_dim"})
    if clash:
        raise ValidationError(f"scaling_params must not set {', '.join(clash)}: mla_rope sets them (its own base, pairing "
                         "and rope_dim)")
    m2 = v.real("softmax_mscale", softmax_mscale, positive=True)
    table = info(scaling).fn(n, d, base=base, pairing=pairing, rotary_dim=rope_dim, **params)
    m = getattr(table, "mscale", 1.0)
    return ScaledRotaryTable(table.angles, d, pairing, mscale=m * m2)


@validate_params({"length": [Interval(Integral, 1, None)]})
def band_frequencies(name: str, d: int, length: int, **params) -> tuple[np.ndarray, float]:
    r"""Per-band frequencies (rad/position, shape (r/2,)) and logit factor of rotary entry ``name`` at ``length``.

    The logit factor multiplies the rotary part of every logit (``mscale**2`` of a
    :class:`ScaledRotaryTable`, 1 for a plain table). Length-dependent entries
    (``rope_dynamic``, ``rope_longrope`` with ``regime='auto'``) are evaluated at ``length``
    (``seq_len``); the others do not depend on it. Read from a 2-row table (``angles[1]``), so it
    is exactly what the entry computes. xPos's per-position scale is not a frequency: refused.

    Parameters
    ----------
    name : str
        A rotary registry entry (``'rope'``, ``'rope_yarn'``, ``'mla_rope'``, ...).
    d : int
        Vector dimension passed to the entry.
    length : int
        Current length, the ``seq_len`` of length-dependent entries (unless ``params`` sets it).
    **params
        Keyword arguments of the entry.

    Returns
    -------
    freqs : numpy.ndarray, shape (r/2,)
        Band frequencies in rad/position.
    logit_factor : float
        ``mscale**2``, 1 for a plain table.

    Raises
    ------
    petheory.errors.ParameterError
        A ``length`` below 1.
    ValidationError
        ``name`` is not a rotary entry, or scales queries and keys per position (xPos).

    Examples
    --------
    >>> w, f = band_frequencies("rope", 8, 100)
    >>> w.round(4).tolist(), f
    ([1.0, 0.1, 0.01, 0.001], 1.0)
    >>> w, f = band_frequencies("rope_pi", 8, 100, scale=2.0)  # every band divided by the scale
    >>> w.round(4).tolist(), f
    ([0.5, 0.05, 0.005, 0.0005], 1.0)
    """
    entry = info(name)
    if entry.kind != "rotary":
        raise ValidationError(f"{name} is a {entry.kind} encoding; band frequencies exist for rotary ones")
    length = int(length)
    if "seq_len" in entry.params and params.get("seq_len") is None:
        params = {**params, "seq_len": length}
    if name == "mla_rope" and params.get("scaling") in ("rope_dynamic", "rope_longrope"):
        sp = dict(params.get("scaling_params") or {})
        sp.setdefault("seq_len", length)
        params = {**params, "scaling_params": sp}
    table = entry.fn(2, d, **params)
    if getattr(table, "log_scale", None) is not None:
        raise ValidationError(f"{name} scales queries and keys per position (xPos): its kernel is not a sum of cosines")
    m = float(getattr(table, "mscale", 1.0))
    return table.angles[1] - table.angles[0], m * m
