r"""Position-only attention kernels: the rotary kernel of any rotary table, xPos, KERPLE, Sandwich.

:func:`rotary_kernel` turns a rotary table into the Toeplitz kernel of its unit-content logits
(including xPos's and YaRN's scales); xPos is a rotary table whose kernel decays; KERPLE
(logarithmic and power) and Sandwich are logit biases ``(n, n)`` that depend on ``|i - j|`` only.
"""

from __future__ import annotations

import numpy as np

from petheory import _validate as v

from petheory.encodings._registry import register, table_shape
from petheory.encodings.extension import ScaledRotaryTable, rotary_angles, rotary_dims
from petheory.encodings.rotary import RotaryTable, rope_frequencies
from petheory.errors import ValidationError


def rotary_kernel(table: RotaryTable) -> tuple[np.ndarray, np.ndarray]:
    r"""Position-only attention kernel of a rotary table: first column and first row, shape (n,) each.

    With unit content in every rotated band (``q = k = u``), the logit of query ``i`` and key
    ``j`` is :math:`\sum_t f^q_{i,t} f^k_{j,t}\cos((i-j)\omega_t)`; for RoPE, PI, NTK, YaRN and
    xPos it depends on ``i - j`` only, so the matrix is Toeplitz: column :math:`a_k` (query
    ``k``, key 0) and row :math:`a_{-k}` (query 0, key ``k``). RoPE: :math:`a_k = a_{-k} =
    \sum_t \cos(k\omega_t)`; YaRN multiplies by ``mscale**2``; xPos gives
    :math:`a_{\pm k} = \sum_t\zeta_t^{\pm k/B}\cos(k\omega_t)` (not Hermitian: causal rows use
    ``k >= 0``, where it decays). An additive absolute part is not included (it makes the
    position-only logit non-Toeplitz).

    Parameters
    ----------
    table : RotaryTable
        A rotary table (:func:`~petheory.encodings.rope` and its variants); a
        :class:`~petheory.encodings.extension.ScaledRotaryTable` contributes its per-band query and
        key factors (xPos) and ``mscale`` (YaRN).

    Returns
    -------
    col : numpy.ndarray, shape (n,)
        :math:`a_k`, the logit of query ``k`` and key 0.
    row : numpy.ndarray, shape (n,)
        :math:`a_{-k}`, the logit of query 0 and key ``k`` (a copy of ``col`` for a plain table).

    References
    ----------
    su2024 (RoFormer) Eq. 15; sun2023 (xPos) Eq. 9-10; peng2023 (YaRN) Eq. 22.

    See Also
    --------
    petheory.toeplitz.rotary_kernel_symbol : the symbol of this kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> col, row = encodings.rotary_kernel(encodings.rope(5, 4))
    >>> col.round(6)
    array([2.      , 1.540252, 0.583653, 0.009558, 0.345556])
    >>> bool(np.array_equal(col, row))  # RoPE: a symmetric Toeplitz kernel
    True
    >>> col, _ = encodings.rotary_kernel(encodings.rope_yarn(4, 4, scale=4.0))
    >>> round(float(col[0]), 6), round(2 * encodings.yarn_mscale(4.0) ** 2, 6)  # a_0 = (r/2) mscale^2
    (2.592954, 2.592954)
    """
    d_ang = table.angles - table.angles[0]  # (n, r/2): k * omega_t for RoPE-like tables
    if not isinstance(table, ScaledRotaryTable):
        c = np.cos(d_ang).sum(axis=1)
        return c, c.copy()
    fq, fk = table.factors(), table.factors(key=True)
    col = (fq * fk[0] * np.cos(d_ang)).sum(axis=1)  # query k, key 0
    row = (fq[0] * fk * np.cos(d_ang)).sum(axis=1)  # query 0, key k
    return col, row




# --------------------------------------------------------------------------- xPos


def xpos_zeta(r: int, gamma: float = 0.4) -> np.ndarray:
    r"""xPos's per-band decay :math:`\zeta_t = (2t/r + \gamma)/(1 + \gamma)`, t = 0..r/2-1, in (0, 1).

    Parameters
    ----------
    r : int
        Number of rotated coordinates (even).
    gamma : float
        xPos's :math:`\gamma > 0` (0.4 in the paper): the fastest band's decay is
        :math:`\gamma/(1+\gamma)`.

    Returns
    -------
    numpy.ndarray, shape (r/2,)
        :math:`\zeta_t`, increasing in ``t``: the fast bands decay most.

    Raises
    ------
    petheory.errors.ValidationError
        An odd ``r`` (or below 2), a non-positive ``gamma``.

    References
    ----------
    sun2023 (A length-extrapolatable Transformer), Eq. 9-10; microsoft/torchscale ``XPOS``.

    See Also
    --------
    xpos

    Examples
    --------
    >>> from petheory.encodings import xpos_zeta
    >>> xpos_zeta(4).round(6)
    array([0.285714, 0.642857])
    >>> xpos_zeta(8, gamma=0.4).round(6)
    array([0.285714, 0.464286, 0.642857, 0.821429])
    """
    r = v.even("r", r)
    gamma = v.real("gamma", gamma, positive=True)
    return (np.arange(0, r, 2, dtype=np.float64) / r + gamma) / (1.0 + gamma)


@register(
    "xpos",
    "rotary",
    conventions="RoPE (interleaved, as torchscale) whose query at position p is scaled per band by zeta_t^(p/B) and "
    "key by zeta_t^(-p/B), zeta_t = (2t/r + gamma)/(1+gamma), gamma=0.4, B=scale_base=512: the logit of query i, "
    "key j carries zeta_t^((i-j)/B), a decay for causal i >= j. torchscale centres p (p - n/2) for range; logits "
    "are the same. scale_base=inf is RoPE.",
    source="sun2023 (A length-extrapolatable Transformer, Eq. 9-10); microsoft/torchscale XPOS",
)
def xpos(n: int, d: int, *, scale_base: float = 512.0, gamma: float = 0.4, base: float = 10000.0,
         pairing: str = "interleaved", rotary_dim: int | None = None) -> ScaledRotaryTable:
    r"""RoPE with xPos's per-band exponential query/key scale.

    The query at position ``p`` is scaled in band ``t`` by :math:`\zeta_t^{p/B}` and the key by
    :math:`\zeta_t^{-p/B}`, so the logit of query ``i`` and key ``j`` carries :math:`\zeta_t^{(i-j)/B}`.

    Parameters
    ----------
    n : int
        Number of positions ``0..n-1``.
    d : int
        Head dimension, even.
    scale_base : float
        :math:`B > 0` (512 in the paper and torchscale); ``math.inf`` gives plain RoPE.
    gamma : float
        The decay parameter of :func:`xpos_zeta` (> 0).
    base : float
        RoPE base of the frequency ladder.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` (torchscale) or ``(t, t + r/2)``.
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates, even and at most ``d`` (default ``d``).

    Returns
    -------
    ScaledRotaryTable
        RoPE's ``angles`` (n, r/2) and ``log_scale[p, t] = (p / B) ln zeta_t`` (n, r/2); ``mscale`` 1.

    Raises
    ------
    petheory.errors.ValidationError
        A bad shape, ``scale_base`` not a number > 0, a bad ``gamma``, ``base``, ``pairing`` or ``rotary_dim``.

    References
    ----------
    sun2023 (A length-extrapolatable Transformer), Eq. 9-10; microsoft/torchscale ``XPOS``.

    See Also
    --------
    xpos_zeta, rotary_kernel

    Examples
    --------
    >>> from petheory import encodings
    >>> col, row = encodings.rotary_kernel(encodings.xpos(8, 8, scale_base=4.0))
    >>> bool(col[5] < col[1] and row[5] > row[1])  # decays for causal offsets, grows the other way
    True
    >>> import math, numpy as np
    >>> col, _ = encodings.rotary_kernel(encodings.xpos(8, 8, scale_base=math.inf))
    >>> bool(np.allclose(col, encodings.rotary_kernel(encodings.rope(8, 8))[0]))  # B = inf is RoPE
    True
    """
    n, d = table_shape(n, d, even=True)
    r = rotary_dims(d, pairing, rotary_dim)
    if isinstance(scale_base, bool) or not isinstance(scale_base, (int, float)) or not scale_base > 0:
        raise ValidationError(f"scale_base must be a number > 0 (math.inf gives RoPE), got {scale_base!r}")
    w = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    pos = np.arange(n, dtype=np.float64)
    log_scale = (pos[:, None] / float(scale_base)) * np.log(xpos_zeta(r, gamma))[None, :]  # (n, r/2); 0 at B = inf
    return ScaledRotaryTable(rotary_angles(n, w), d, pairing, log_scale=log_scale)


# --------------------------------------------------------------------------- KERPLE, Sandwich


def _offsets(n: int) -> np.ndarray:
    n = v.integer("n", n, minimum=1)
    idx = np.arange(n, dtype=np.float64)
    return np.abs(idx[:, None] - idx[None, :])


@register(
    "kerple_log",
    "bias",
    conventions="B[i,j] = -r1 log(1 + r2 |i-j|), r1, r2 > 0 (symmetric in i-j; causal attention uses j <= i). "
    "Conditionally positive definite (CPD): c^T B c >= 0 whenever sum c = 0, so B has at most one negative "
    "eigenvalue. In petheory.nn r1, r2 are learned per head, initialised U(0,2) and U(0,1) and clamped >= 0.01 "
    "(the reference code); here they are given.",
    source="chi2022 (KERPLE, §3, Eq. 'logarithmic variant'); KERPLE/NeMo code",
)
def kerple_log(n: int, *, r1: float = 1.0, r2: float = 1.0) -> np.ndarray:
    """KERPLE logarithmic bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    r1 : float
        Amplitude :math:`r_1 > 0`.
    r2 : float
        Rate :math:`r_2 > 0` inside the logarithm.

    Returns
    -------
    numpy.ndarray, shape (n, n)
        ``B[i, j] = -r1 log(1 + r2 |i - j|)``: symmetric Toeplitz, conditionally positive definite.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1`` or a non-positive ``r1`` or ``r2``.

    References
    ----------
    chi2022 (KERPLE), §3, logarithmic variant.

    See Also
    --------
    kerple_power, sandwich

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.kerple_log(3).round(6)
    array([[-0.      , -0.693147, -1.098612],
           [-0.693147, -0.      , -0.693147],
           [-1.098612, -0.693147, -0.      ]])
    >>> import numpy as np
    >>> int((np.linalg.eigvalsh(encodings.kerple_log(6)) < 0).sum())  # CPD: at most one negative eigenvalue
    1
    """
    D = _offsets(n)
    r1, r2 = v.real("r1", r1, positive=True), v.real("r2", r2, positive=True)
    return -r1 * np.log1p(r2 * D)


@register(
    "kerple_power",
    "bias",
    conventions="B[i,j] = -r1 |i-j|^r2, r1 > 0, 0 < r2 <= 2 (CPD exactly for r2 in (0, 2]; r2=1 is ALiBi with "
    "slope r1). petheory.nn learns r1 ~ U(0,1) and r2 ~ U(0,2) per head, clamped to [0.01, 2] (reference code).",
    source="chi2022 (KERPLE, §3, Eq. 'power variant')",
)
def kerple_power(n: int, *, r1: float = 1.0, r2: float = 1.0) -> np.ndarray:
    r"""KERPLE power bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    r1 : float
        Amplitude :math:`r_1 > 0` (the slope when ``r2 = 1``).
    r2 : float
        Power :math:`0 < r_2 \le 2` (conditionally positive definite exactly there).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        ``B[i, j] = -r1 |i - j|**r2``: symmetric Toeplitz.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, a non-positive ``r1`` or ``r2``, or ``r2 > 2``.

    References
    ----------
    chi2022 (KERPLE), §3, power variant.

    See Also
    --------
    kerple_log, petheory.encodings.bias.alibi

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> bool(np.allclose(encodings.kerple_power(4, r1=0.5, r2=1.0), encodings.alibi(4, slope=0.5)))  # r2 = 1 is ALiBi
    True
    """
    D = _offsets(n)
    r1, r2 = v.real("r1", r1, positive=True), v.real("r2", r2, positive=True)
    if r2 > 2:
        raise ValidationError(f"kerple_power needs 0 < r2 <= 2 (-|x|^p is conditionally positive definite only for p <= 2), got {r2}")
    return -r1 * D**r2


@register(
    "sandwich",
    "bias",
    conventions="B[i,j] = scale * (sum_{k=1}^{d_bar/2} cos((i-j)/base^(2k/d_bar)) - d_bar/2): the inner product of "
    "sinusoidal vectors p_i . p_j (k from 1 as the paper writes it), shifted by its diagonal d_bar/2 so B[i,i]=0 "
    "(a per-row constant: softmax unchanged). d_bar=128, scale=1 are reconstructions (the paper's per-head "
    "compensation is not reproduced). Positive semidefinite before the shift (a Gram matrix).",
    source="chi2023 (Dissecting Transformer length extrapolation via receptive field analysis, §5, Sandwich)",
)
def sandwich(n: int, *, d_bar: int = 128, base: float = 10000.0, scale: float = 1.0) -> np.ndarray:
    r"""Sandwich bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    d_bar : int
        Dimension :math:`\bar d` of the sinusoidal vectors (even; 128 is a reconstruction).
    base : float
        Wavelength base of the frequencies :math:`base^{-2k/\bar d}`, :math:`k = 1, \dots, \bar d/2`.
    scale : float
        Factor on the whole bias (> 0).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        ``B[i, j] = scale * sandwich_column(|i - j|)``: symmetric Toeplitz, 0 on the diagonal.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, an odd ``d_bar``, a non-positive ``base`` or ``scale``.

    References
    ----------
    chi2023 (Dissecting Transformer length extrapolation via receptive field analysis), §5.

    See Also
    --------
    sandwich_column, kerple_log

    Examples
    --------
    >>> from petheory import encodings
    >>> B = encodings.sandwich(4, d_bar=8)
    >>> B.shape, float(B[0, 0])
    ((4, 4), 0.0)
    >>> import numpy as np
    >>> bool(np.linalg.eigvalsh(B + 4).min() > -1e-9)  # before the shift by d_bar/2: a Gram matrix, PSD
    True
    """
    n = v.integer("n", n, minimum=1)
    d_bar = v.even("d_bar", d_bar)
    base = v.real("base", base, positive=True)
    scale = v.real("scale", scale, positive=True)
    return scale * sandwich_column(np.arange(n), d_bar=d_bar, base=base)[_offsets(n).astype(np.int64)]


def sandwich_column(offsets, *, d_bar: int = 128, base: float = 10000.0) -> np.ndarray:
    r"""Sandwich's relative kernel ``a_k = sum_{i=1}^{d_bar/2} (cos(k/base^(2i/d_bar)) - 1)`` at integer offsets k.

    Parameters
    ----------
    offsets : array_like, shape (m,)
        The offsets ``k = |i - j|`` (computed in float64).
    d_bar : int
        Dimension :math:`\bar d` of the sinusoidal vectors (even).
    base : float
        Wavelength base of the frequencies.

    Returns
    -------
    numpy.ndarray, shape (m,)
        :math:`a_k \le 0`, with :math:`a_0 = 0`.

    Raises
    ------
    petheory.errors.ValidationError
        ``offsets`` not a finite 1-d array, an odd ``d_bar``, a non-positive ``base``.

    References
    ----------
    chi2023 (Dissecting Transformer length extrapolation via receptive field analysis), §5.

    See Also
    --------
    sandwich

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.sandwich_column([0, 1, 2], d_bar=8).round(6)
    array([ 0.      , -0.005046, -0.020135])
    """
    k = v.array("offsets", offsets, ndim=1).astype(np.float64)
    w = rope_frequencies(d_bar, base=base, first=1)  # (d_bar/2,): w_i = base^(-2i/d_bar), i = 1..d_bar/2
    return (np.cos(k[:, None] * w[None, :]) - 1.0).sum(axis=1)
