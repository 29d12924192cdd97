r"""RoPE context extension: position interpolation, NTK-aware base scaling, YaRN.

Registry entries ``rope_pi``, ``rope_ntk`` and ``rope_yarn``, their helpers (:func:`ntk_base`,
:func:`yarn_ramp`, :func:`yarn_mscale`), and :class:`ScaledRotaryTable`: a
:class:`~petheory.encodings.rotary.RotaryTable` with a per-band query/key scale (xPos), a logit
temperature (YaRN) and/or an additive absolute table (RoPE + absolute). Every analysis that reads
only ``angles`` (the rotation geometry) treats a scaled table as RoPE with its angles; the
position-only attention kernel (:func:`petheory.encodings.kernels.rotary_kernel`) includes the
scales.

Conventions shared by the context-extension entries: ``scale`` is the extension factor
:math:`s \ge 1` (the new context is ``s`` times the one the model was trained on), ``n_max``
the original (pre-training) context length :math:`L`, frequencies
:math:`\omega_t = \mathrm{base}^{-2t/r}`, ``t = 0..r/2-1``. The small validators
(:func:`extension_factor`, :func:`rotary_dims`) and :func:`rotary_angles` are public so that
every rotary variant built on this module checks its arguments the same way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from petheory import _validate as v

from petheory.encodings._registry import register, table_shape
from petheory.encodings.rotary import RotaryTable, rope_frequencies
from petheory.errors import ValidationError


@dataclass(frozen=True)
class ScaledRotaryTable(RotaryTable):
    """A RoPE table whose queries and keys are also scaled per position and band.

    Attributes
    ----------
    log_scale : ndarray (n, r/2) or None
        Natural log of the query factor of band ``t`` at position ``p`` (xPos:
        ``(p / scale_base) ln zeta_t``); keys get the reciprocal, so the logit of query ``i`` and
        key ``j`` carries ``exp(log_scale[i] - log_scale[j])``, a function of ``i - j``.
    mscale : float
        Factor on both the rotated query and key coordinates (YaRN's ``sqrt(1/t)``): rotary
        logits are multiplied by ``mscale**2``.
    additive : ndarray (n, d) or None
        Absolute vectors added to the inputs before the projections (RoPE + absolute).
    """

    log_scale: np.ndarray | None = None
    mscale: float = 1.0
    additive: np.ndarray | None = None

    def factors(self, key: bool = False) -> np.ndarray:
        """Multiplicative factor of each rotated band of queries (or keys), shape (n, r/2)."""
        if self.log_scale is None:
            return np.full(self.angles.shape, self.mscale)
        return self.mscale * np.exp(-self.log_scale if key else self.log_scale)

    def _scaled(self, out: np.ndarray, f: np.ndarray) -> np.ndarray:
        a, b = self.pairs()
        out[..., a] *= f
        out[..., b] *= f
        return out

    def apply(self, x) -> np.ndarray:
        """Queries: rotate row :math:`p` by :math:`R_p` and scale band t by ``factors()[p, t]``."""
        return self._scaled(super().apply(x), self.factors())

    def apply_key(self, x) -> np.ndarray:
        """Keys: rotate row :math:`p` by :math:`R_p` and scale band t by ``factors(key=True)[p, t]``."""
        return self._scaled(super().apply(x), self.factors(key=True))

    def apply_at(self, x, p: int) -> np.ndarray:
        """Rotate and scale every row of ``x`` as a query at position ``p``."""
        return self._scaled(super().apply_at(x, p), self.factors()[p])


def extension_factor(scale) -> float:
    r"""``scale`` checked as a context-extension factor :math:`s \ge 1` (1 = plain RoPE); returns it as a float.

    Parameters
    ----------
    scale : float
        The extension factor: the new context over the one the model was trained on.

    Returns
    -------
    float
        ``scale`` as a Python float.

    Raises
    ------
    petheory.errors.ValidationError
        ``scale`` not finite, not > 0, or below 1.
    petheory.errors.ValidationTypeError
        ``scale`` not a real number (a bool included).

    Examples
    --------
    >>> from petheory.encodings import extension_factor
    >>> extension_factor(4)
    4.0
    >>> extension_factor(0.5)  # a context is extended, never shrunk
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: scale is a context-extension factor and must be >= 1 ...
    """
    s = v.real("scale", scale, positive=True)
    if s < 1:
        raise ValidationError(f"scale is a context-extension factor and must be >= 1 (1 = plain RoPE), got {s}")
    return s


def rotary_dims(d: int, pairing: str, rotary_dim: int | None) -> int:
    """The number ``r`` of rotated coordinates (``rotary_dim``, default ``d``), with ``pairing`` checked.

    Parameters
    ----------
    d : int
        Head dimension (the full vector size; the caller has checked it).
    pairing : {'interleaved', 'half'}
        How the rotated coordinates pair up (see :class:`~petheory.encodings.rotary.RotaryTable`).
    rotary_dim : int or None
        Number of rotated coordinates, even and at most ``d`` (partial RoPE); None rotates all ``d``.

    Returns
    -------
    int
        ``r``: ``rotary_dim``, or ``d`` when it is None.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown ``pairing``, an odd ``rotary_dim`` (or one below 2), or ``rotary_dim > d``.

    Examples
    --------
    >>> from petheory.encodings import rotary_dims
    >>> rotary_dims(8, "half", None), rotary_dims(8, "interleaved", 4)
    (8, 4)
    >>> rotary_dims(8, "half", 10)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: rotary_dim must be <= d=8, got 10
    """
    v.choice("pairing", pairing, ("interleaved", "half"))
    r = d if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > d:
        raise ValidationError(f"rotary_dim must be <= d={d}, got {r}")
    return r


def rotary_angles(n: int, freqs: np.ndarray) -> np.ndarray:
    """Angles ``p * freqs[t]`` of positions ``p = 0..n-1``, shape (n, len(freqs)).

    Nothing is validated here: the registry entries check ``n`` (``table_shape``) and build
    ``freqs`` themselves before calling it.

    Parameters
    ----------
    n : int
        Number of positions.
    freqs : numpy.ndarray, shape (r/2,)
        Frequency of each rotated band, in radians per position.

    Returns
    -------
    numpy.ndarray, shape (n, r/2), float64
        ``angles[p, t] = p * freqs[t]``: row 0 is all zeros.

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.rotary_angles(3, encodings.rope_frequencies(4))
    array([[0.  , 0.  ],
           [1.  , 0.01],
           [2.  , 0.02]])
    """
    return np.arange(n, dtype=np.float64)[:, None] * freqs[None, :]


@register(
    "rope_pi",
    "rotary",
    conventions="Position interpolation (linear scaling): angles (p/scale) * base^(-2t/r), i.e. every frequency "
    "divided by scale s >= 1, so positions 0..sL-1 reuse the angles RoPE saw on 0..L-1 (PI at s*p = RoPE at p). "
    "Pairing and partial rotary_dim as rope. HF transformers rope_type='linear'.",
    source="chen2023 (Extending context window of LLMs via positional interpolation, Eq. 2); HF modeling_rope_utils",
)
def rope_pi(n: int, d: int, *, scale: float = 2.0, base: float = 10000.0, pairing: str = "interleaved",
            rotary_dim: int | None = None) -> RotaryTable:
    r"""RoPE with position interpolation: frequencies divided by ``scale``.

    Parameters
    ----------
    n : int
        Number of positions ``0..n-1`` (rows of ``angles``).
    d : int
        Head dimension, even.
    scale : float
        Extension factor :math:`s \ge 1`; every frequency is divided by it (1 is plain RoPE).
    base : float
        RoPE base :math:`b` of the ladder :math:`\omega_t = b^{-2t/r}`.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` (RoFormer) or ``(t, t + r/2)`` (GPT-NeoX/Llama).
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates, even and at most ``d`` (default ``d``); the others are
        left unrotated.

    Returns
    -------
    RotaryTable
        ``angles`` of shape (n, r/2), ``angles[p, t] = (p / s) b^{-2t/r}``.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, an odd ``d``, ``scale < 1``, an unknown ``pairing``, a bad ``rotary_dim`` or ``base``.

    References
    ----------
    chen2023 (Extending context window of LLMs via positional interpolation), Eq. 2.

    See Also
    --------
    rope_ntk, rope_yarn

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> pi, plain = encodings.rope_pi(8, 8, scale=2.0), encodings.rope(8, 8)
    >>> bool(np.allclose(pi.angles[6], plain.angles[3]))  # PI at 2p = RoPE at p
    True
    """
    n, d = table_shape(n, d, even=True)
    s = extension_factor(scale)
    rotary_dims(d, pairing, rotary_dim)
    return RotaryTable(rotary_angles(n, rope_frequencies(d, base=base, rotary_dim=rotary_dim) / s), d, pairing)


def ntk_base(base: float, scale: float, rotary_dim: int) -> float:
    r"""NTK-aware base :math:`b' = b\,s^{r/(r-2)}`: the lowest band is interpolated by exactly ``s``.

    Parameters
    ----------
    base : float
        The original RoPE base :math:`b` (> 0).
    scale : float
        Extension factor :math:`s \ge 1`.
    rotary_dim : int
        Number ``r`` of rotated coordinates, even and at least 4.

    Returns
    -------
    float
        The new base :math:`b'`; band ``t``'s frequency is divided by :math:`s^{2t/(r-2)}`.

    Raises
    ------
    petheory.errors.ValidationError
        A non-positive ``base``, ``scale < 1``, an odd ``rotary_dim`` or one below 4.

    References
    ----------
    bloc97 2023 (NTK-aware scaled RoPE, r/LocalLLaMA); peng2023 (YaRN) §3.1, Eq. 16.

    See Also
    --------
    rope_ntk

    Examples
    --------
    >>> from petheory.encodings import ntk_base, rope_frequencies
    >>> round(ntk_base(10000.0, 4.0, 8), 3)  # 10000 * 4^(8/6)
    63496.042
    >>> w0, w = rope_frequencies(8), rope_frequencies(8, base=ntk_base(10000.0, 4.0, 8))
    >>> (w0 / w).round(6)  # fastest band kept, slowest interpolated by exactly s = 4
    array([1.      , 1.587401, 2.519842, 4.      ])
    """
    base = v.real("base", base, positive=True)
    s = extension_factor(scale)
    r = v.even("rotary_dim", rotary_dim)
    if r < 4:
        raise ValidationError(f"NTK-aware scaling needs rotary_dim >= 4 (the exponent r/(r-2) is undefined at r=2), got {r}")
    return base * s ** (r / (r - 2))


@register(
    "rope_ntk",
    "rotary",
    conventions="NTK-aware scaling: RoPE with base' = base * s^(r/(r-2)), so band t's frequency is divided by "
    "s^(2t/(r-2)): the fastest band (t=0) is unchanged, the slowest (t=r/2-1) interpolated by exactly s. "
    "Static (scale fixed), not HF's 'dynamic' variant.",
    source="bloc97 2023 (NTK-aware scaled RoPE, r/LocalLLaMA); peng2023 (YaRN) §3.1 Eq. 16; HF 'dynamic' uses the same base",
)
def rope_ntk(n: int, d: int, *, scale: float = 2.0, base: float = 10000.0, pairing: str = "interleaved",
             rotary_dim: int | None = None) -> RotaryTable:
    r"""RoPE with NTK-aware base scaling ``base * scale**(r/(r-2))``.

    Static: ``scale`` is fixed, whatever ``n`` is (not transformers' dynamic variant).

    Parameters
    ----------
    n : int
        Number of positions ``0..n-1`` (rows of ``angles``).
    d : int
        Head dimension, even.
    scale : float
        Extension factor :math:`s \ge 1`; the base becomes :func:`ntk_base` ``(base, scale, r)``.
    base : float
        Original RoPE base :math:`b` of the ladder :math:`\omega_t = b^{-2t/r}`.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` (RoFormer) or ``(t, t + r/2)`` (GPT-NeoX/Llama).
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates, even, at least 4 and at most ``d`` (default ``d``); the
        others are left unrotated.

    Returns
    -------
    RotaryTable
        ``angles`` of shape (n, r/2), ``angles[p, t] = p b'^{-2t/r}``.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, an odd ``d``, ``scale < 1``, an unknown ``pairing``, ``r < 4`` or ``r > d``, a
        non-positive ``base``.

    References
    ----------
    bloc97 2023 (NTK-aware scaled RoPE, r/LocalLLaMA); peng2023 (YaRN) §3.1, Eq. 16.

    See Also
    --------
    ntk_base, rope_pi, rope_yarn

    Examples
    --------
    >>> from petheory import encodings
    >>> t = encodings.rope_ntk(4, 8, scale=4.0)
    >>> t.angles.shape
    (4, 4)
    >>> (encodings.rope(4, 8).angles[1] / t.angles[1]).round(6)  # per band: s^(2t/(r-2))
    array([1.      , 1.587401, 2.519842, 4.      ])
    """
    n, d = table_shape(n, d, even=True)
    r = rotary_dims(d, pairing, rotary_dim)
    b2 = ntk_base(base, scale, r)
    return RotaryTable(rotary_angles(n, rope_frequencies(d, base=b2, rotary_dim=rotary_dim)), d, pairing)


YARN_RAMPS = ("paper", "code")


def yarn_ramp(freqs, *, n_max: int, alpha: float = 1.0, beta: float = 32.0, ramp: str = "paper", base: float = 10000.0,
              truncate: bool = True) -> np.ndarray:
    r"""YaRN's per-band blend :math:`\gamma_t \in [0, 1]` (1: keep the frequency, 0: interpolate by s), shape (r/2,).

    ``'paper'`` (peng2023 Eq. 18): with :math:`r_t = L\omega_t/(2\pi)` the number of turns band
    ``t`` makes over the original context L, :math:`\gamma = 0` if :math:`r_t < \alpha`, 1 if
    :math:`r_t > \beta`, else :math:`(r_t-\alpha)/(\beta-\alpha)`. ``'code'`` (the YaRN reference
    code and HF transformers): the same end points as band indices,
    ``low = floor(t(beta))``, ``high = ceil(t(alpha))`` with
    :math:`t(\rho) = r\ln(L/(2\pi\rho))/(2\ln b)`, and a ramp linear in the band index between them.
    ``truncate=False`` (``'code'`` only; transformers' ``rope_parameters.truncate``, gpt-oss) keeps
    the end points unrounded, ``low = t(beta)``, ``high = t(alpha)`` (still clipped to [0, r-1]).

    Parameters
    ----------
    freqs : array_like, shape (r/2,)
        The bands' original frequencies :math:`\omega_t` in radians per position (e.g.
        :func:`~petheory.encodings.rotary.rope_frequencies`); ``r`` is read from its length.
    n_max : int
        The original (pre-training) context length :math:`L`.
    alpha : float
        Turns over ``L`` below which a band is fully interpolated (:math:`\gamma = 0`); default 1.
    beta : float
        Turns over ``L`` above which a band is kept (:math:`\gamma = 1`); default 32. Must exceed
        ``alpha`` (``ramp='code'`` also takes ``beta == alpha``: a one-band step).
    ramp : {'paper', 'code'}
        Ramp linear in the turns (peng2023 Eq. 18) or in the band index (reference code, transformers).
    base : float
        RoPE base of ``freqs``; read by ``ramp='code'`` only, to turn ``alpha`` and ``beta`` into band
        indices.
    truncate : bool
        ``ramp='code'`` only: round the end bands outwards (True, the default) or keep them
        unrounded (False; refused with ``ramp='paper'``).

    Returns
    -------
    numpy.ndarray, shape (r/2,)
        :math:`\gamma_t \in [0, 1]` per band.

    Raises
    ------
    petheory.errors.ValidationError
        ``n_max < 1``, non-positive ``alpha``, ``beta`` or ``base``, ``beta < alpha`` (or equal with
        ``ramp='paper'``), an unknown ``ramp``, a non-boolean ``truncate``, ``truncate=False`` with
        ``ramp='paper'``.

    References
    ----------
    peng2023 (YaRN), Eq. 18; HF transformers ``modeling_rope_utils._compute_yarn_parameters``.

    See Also
    --------
    rope_yarn, yarn_mscale

    Examples
    --------
    >>> from petheory import encodings
    >>> w = encodings.rope_frequencies(8)
    >>> encodings.yarn_ramp(w, n_max=2048).round(4)
    array([1.    , 1.    , 0.0729, 0.    ])
    >>> encodings.yarn_ramp(w, n_max=2048, ramp="code").round(4)  # end bands 1.008 -> 1, 2.513 -> 3
    array([1. , 1. , 0.5, 0. ])
    >>> encodings.yarn_ramp(w, n_max=2048, ramp="code", truncate=False).round(4)
    array([1.    , 1.    , 0.3409, 0.    ])
    """
    freqs = v.array("freqs", freqs, ndim=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    alpha = v.real("alpha", alpha, positive=True)
    beta = v.real("beta", beta, positive=True)
    v.choice("ramp", ramp, YARN_RAMPS)
    if beta < alpha or beta == alpha and ramp == "paper":  # 'code' takes a tie (Kimi K2): a one-band step, as HF
        raise ValidationError(f"YaRN needs beta > alpha (turns above which a band is kept > below which it is interpolated; "
                              f"ramp='code' also takes beta = alpha), got alpha={alpha}, beta={beta}")
    if not isinstance(truncate, (bool, np.bool_)):
        raise ValidationError(f"truncate must be true or false (round the YaRN ramp's end bands or not), got {truncate!r}")
    if ramp == "paper" and not truncate:
        raise ValidationError("truncate=False is an option of ramp='code' (the band-index ramp); ramp='paper' has no rounding")
    if ramp == "paper":
        turns = n_max * freqs / (2 * math.pi)
        return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    base = v.real("base", base, positive=True)
    r = 2 * freqs.shape[0]

    def band(rot):
        return r * math.log(n_max / (rot * 2 * math.pi)) / (2 * math.log(base))

    low, high = (math.floor(band(beta)), math.ceil(band(alpha))) if truncate else (band(beta), band(alpha))
    low, high = max(low, 0), min(high, r - 1)
    if low == high:
        high += 0.001  # as the reference code: avoid a zero-width ramp
    interp = np.clip((np.arange(r // 2) - low) / (high - low), 0.0, 1.0)  # 1 = fully interpolated
    return 1.0 - interp


def yarn_mscale(scale: float) -> float:
    r"""YaRN's attention factor :math:`\sqrt{1/t} = 0.1\ln s + 1` (peng2023 Eq. 22); 1 at s = 1.

    Queries and keys are both multiplied by it, so the logits by its square.

    Parameters
    ----------
    scale : float
        Extension factor :math:`s \ge 1`.

    Returns
    -------
    float
        :math:`0.1\ln s + 1`.

    Raises
    ------
    petheory.errors.ValidationError
        ``scale < 1``.

    References
    ----------
    peng2023 (YaRN), Eq. 22.

    See Also
    --------
    rope_yarn

    Examples
    --------
    >>> from petheory.encodings import yarn_mscale
    >>> yarn_mscale(1.0), round(yarn_mscale(4.0), 6)
    (1.0, 1.138629)
    """
    return 0.1 * math.log(extension_factor(scale)) + 1.0


@register(
    "rope_yarn",
    "rotary",
    conventions="YaRN: band t's frequency becomes (1-g_t) w_t/s + g_t w_t with the ramp g_t of yarn_ramp "
    "(ramp='paper': linear in the turns L w_t/2pi between alpha=1 and beta=32; ramp='code': linear in the band index "
    "between the end bands, rounded outwards unless truncate=False, as the reference code and HF), L = n_max the original context; queries and keys "
    "are both multiplied by mscale = 0.1 ln s + 1 (logits by mscale^2), as HF scales cos and sin. scale=1 is RoPE.",
    source="peng2023 (YaRN) §3.2-3.4, Eqs. 17-22; HF modeling_rope_utils._compute_yarn_parameters",
)
def rope_yarn(n: int, d: int, *, scale: float = 2.0, n_max: int = 2048, alpha: float = 1.0, beta: float = 32.0,
              ramp: str = "paper", mscale: float | None = None, base: float = 10000.0, pairing: str = "interleaved",
              rotary_dim: int | None = None, truncate: bool = True) -> ScaledRotaryTable:
    r"""RoPE with YaRN's per-band interpolation ramp and attention temperature.

    Band ``t``'s frequency becomes :math:`(1-\gamma_t)\,\omega_t/s + \gamma_t\,\omega_t`, with
    :math:`\gamma_t` from :func:`yarn_ramp`: fast bands (many turns over ``n_max``) are kept, slow
    ones interpolated by ``s`` as in PI.

    Parameters
    ----------
    n : int
        Number of positions ``0..n-1`` (rows of ``angles``).
    d : int
        Head dimension, even.
    scale : float
        Extension factor :math:`s \ge 1` (1 is plain RoPE).
    n_max : int
        The original (pre-training) context length :math:`L` the ramp counts turns over.
    alpha, beta : float
        The ramp's end points in turns over ``n_max`` (see :func:`yarn_ramp`); defaults 1 and 32.
    ramp : {'paper', 'code'}
        Ramp linear in the turns (paper) or in the band index (reference code, transformers).
    mscale : float, optional
        Factor on both queries and keys (logits times ``mscale**2``); default :func:`yarn_mscale`
        ``(scale)``.
    base : float
        RoPE base :math:`b` of the ladder :math:`\omega_t = b^{-2t/r}`.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` (RoFormer) or ``(t, t + r/2)`` (GPT-NeoX/Llama).
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates, even and at most ``d`` (default ``d``); the others are
        left unrotated.
    truncate : bool
        ``ramp='code'`` only: round the ramp's end bands outwards (default) or not.

    Returns
    -------
    ScaledRotaryTable
        ``angles`` of shape (n, r/2) with the blended frequencies, ``mscale`` set, no ``log_scale``.

    Raises
    ------
    petheory.errors.ValidationError
        A bad shape, ``scale < 1``, a non-positive ``mscale``, or a ramp argument :func:`yarn_ramp`
        refuses.

    References
    ----------
    peng2023 (YaRN) §3.2-3.4, Eqs. 17-22; HF transformers ``modeling_rope_utils._compute_yarn_parameters``.

    See Also
    --------
    yarn_ramp, yarn_mscale, rope_pi, rope_ntk

    Examples
    --------
    >>> from petheory import encodings
    >>> t = encodings.rope_yarn(16, 8, scale=4.0, n_max=8)
    >>> t.angles.shape, round(t.mscale, 6)
    ((16, 4), 1.138629)
    >>> t = encodings.rope_yarn(16, 8, scale=4.0, n_max=2048)
    >>> (encodings.rope(16, 8).angles[1] / t.angles[1]).round(6)  # fast bands kept, slowest divided by s
    array([1.      , 1.      , 3.282292, 4.      ])
    """
    n, d = table_shape(n, d, even=True)
    s = extension_factor(scale)
    rotary_dims(d, pairing, rotary_dim)
    w = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    g = yarn_ramp(w, n_max=n_max, alpha=alpha, beta=beta, ramp=ramp, base=base, truncate=truncate)
    m = yarn_mscale(s) if mscale is None else v.real("mscale", mscale, positive=True)
    return ScaledRotaryTable(rotary_angles(n, (1.0 - g) * w / s + g * w), d, pairing, mscale=m)

