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
    r"""xPos's per-band decay :math:`\zeta_t = (2t/r + \gamma)/(1 + \gamma)`, t = 0..r/2-1, in (0, 1)."""
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
    """RoPE with xPos's per-band exponential query/key scale."""
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
    """KERPLE logarithmic bias of one head, shape (n, n)."""
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
    """KERPLE power bias of one head, shape (n, n)."""
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
    """Sandwich bias of one head, shape (n, n)."""
    n = v.integer("n", n, minimum=1)
    d_bar = v.even("d_bar", d_bar)
    base = v.real("base", base, positive=True)
    scale = v.real("scale", scale, positive=True)
    return scale * sandwich_column(np.arange(n), d_bar=d_bar, base=base)[_offsets(n).astype(np.int64)]


def sandwich_column(offsets, *, d_bar: int = 128, base: float = 10000.0) -> np.ndarray:
    """Sandwich's relative kernel ``a_k = sum_{i=1}^{d_bar/2} (cos(k/base^(2i/d_bar)) - 1)`` at integer offsets k."""
    k = v.array("offsets", offsets, ndim=1).astype(np.float64)
    w = rope_frequencies(d_bar, base=base, first=1)  # (d_bar/2,): w_i = base^(-2i/d_bar), i = 1..d_bar/2
    return (np.cos(k[:, None] * w[None, :]) - 1.0).sum(axis=1)
