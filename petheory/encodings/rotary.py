r"""Rotary encodings: the one frequency ladder, the chord behind every offset distance, RoPE.

RoPE (su2024, RoFormer Eq. 15; gu2025 Eq. 4) rotates coordinate pair ``t`` of the query and key
at position ``p`` by the angle :math:`p\,\theta_t`, :math:`\theta_t = base^{-2t/d}`
(:func:`rope_frequencies`). The long-context variants are in :mod:`petheory.encodings.extension`
(PI, NTK, YaRN), :mod:`petheory.encodings.kernels` (xPos) and
:mod:`petheory.encodings.combinations` (MLA, RoPE + absolute).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.encodings._registry import register, table_shape
from petheory.errors import ValidationError


# --------------------------------------------------------------------------- rotary


def rope_frequencies(d: int, *, base: float = 10000.0, rotary_dim: int | None = None, first: int = 0) -> np.ndarray:
    r"""The geometric frequency ladder :math:`\omega_t = base^{-2t/r}`, t = first..first+r/2-1, shape (r/2,).

    r = ``rotary_dim`` (default d). The one definition of the ladder in petheory: the sinusoidal
    encoding (Vaswani et al. 2017, §3.5: :math:`PE_{p,2t} = \sin(p/base^{2t/d})`), RoPE (Su et al.,
    RoFormer Eq. 15, :math:`\theta_t = base^{-2t/d}`) and, with ``first=1``, Sandwich's
    kernel (Chi et al. 2023, :math:`w_i = base^{-2i/\bar d}`, i = 1..d̄/2) all take it from here.

    Parameters
    ----------
    d : int
        Even vector dimension.
    base : float
        Wavelength base (10000 in Vaswani et al. and RoFormer).
    rotary_dim : int, optional
        Even number ``r <= d`` of rotated coordinates (default ``d``); the exponent divides by ``r``.
    first : int
        Index of the first band (``1`` for Sandwich).

    Returns
    -------
    numpy.ndarray, shape (r/2,)
        The frequencies in rad/position, decreasing from ``base**(-2 first/r)``.

    Raises
    ------
    ValidationError
        Odd ``d`` or ``rotary_dim``, or ``rotary_dim > d``.

    References
    ----------
    vaswani2017 §3.5; su2024 Eq. 15 (RoFormer); chi2023 (Sandwich).

    See Also
    --------
    rope, sinusoidal

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.rope_frequencies(8, base=10000.0)
    array([1.   , 0.1  , 0.01 , 0.001])
    >>> encodings.rope_frequencies(8, rotary_dim=4)  # partial RoPE: a ladder over r = 4
    array([1.  , 0.01])
    >>> encodings.rope_frequencies(8, first=1).tolist()  # Sandwich: t = 1..d/2
    [0.1, 0.01, 0.001, 0.0001]
    """
    d = v.even("d", d)
    r = d if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > d:
        raise ValidationError(f"rotary_dim must be <= d={d}, got {r}")
    base = v.real("base", base, positive=True)
    first = v.integer("first", first, minimum=0)
    _memory.require(_memory.array_bytes(r, itemsize=8), f"rotary frequencies (d = {d})")
    return base ** (-np.arange(2 * first, 2 * first + r, 2, dtype=np.float64) / r)


def chord_sq(angles) -> np.ndarray:
    r"""Squared chord :math:`\lvert e^{i\phi} - 1\rvert^2 = 2(1-\cos\phi) = 4\sin^2(\phi/2)`, elementwise.

    The one formula behind every offset distance of a sine-cosine pair: the sinusoidal offset
    distance :math:`D(\Delta)^2 = \sum_t` ``chord_sq(omega_t * Delta)`` (``bounds``) and the
    rotation distance :math:`\lVert R_i - R_j\rVert_F^2 = 2\sum_t` ``chord_sq(theta_it - theta_jt)``
    (``geometry.rotary_distances``). The half-angle form avoids the cancellation of :math:`1-\cos`
    at small angles.

    Parameters
    ----------
    angles : array_like
        Angles :math:`\phi` in radians (any shape).

    Returns
    -------
    numpy.ndarray
        :math:`4\sin^2(\phi/2)`, float64, the shape of ``angles``; in [0, 4].

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.encodings import chord_sq
    >>> chord_sq(np.array([0.0, np.pi]))  # |e^{i a} - 1|^2
    array([0., 4.])
    >>> float(chord_sq(1e-9)), float(2 * (1 - np.cos(1e-9)))  # the half-angle form keeps tiny angles
    (1e-18, 0.0)
    """
    return 4.0 * np.sin(0.5 * np.asarray(angles, dtype=np.float64)) ** 2


@dataclass(frozen=True)
class RotaryTable:
    """Rotation angles of RoPE for positions 0..n-1.

    Attributes
    ----------
    angles : ndarray, shape (n, r/2)
        ``angles[p, t] = p * freq[t]``.
    d : int
        Full vector dimension; only the first ``r`` coordinates (by pairing) rotate.
    pairing : {'interleaved', 'half'}
        Pair ``t`` is coordinates ``(2t, 2t+1)`` (RoFormer) or ``(t, t + r/2)`` (GPT-NeoX/Llama).
    """

    angles: np.ndarray
    d: int
    pairing: str

    @property
    def rotary_dim(self) -> int:
        return 2 * self.angles.shape[1]

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """Indices (first, second) of each rotated coordinate pair, shape (r/2,) each."""
        h = self.angles.shape[1]
        if self.pairing == "interleaved":
            return np.arange(0, 2 * h, 2), np.arange(1, 2 * h, 2)
        return np.arange(h), np.arange(h, 2 * h)

    def apply(self, x) -> np.ndarray:
        """Rotate ``x`` of shape (n, d): row :math:`p` by :math:`R_p`. Returns a new array."""
        x = v.array("x", x, ndim=2)
        if x.shape != (self.angles.shape[0], self.d):
            raise ValidationError(f"x must have shape {(self.angles.shape[0], self.d)}, got {x.shape}")
        return self._rotate(x, self.angles)

    def _rotate(self, x: np.ndarray, angles: np.ndarray) -> np.ndarray:
        # Pairs as slices, not index arrays: views instead of gathers, and products written into
        # the output in place (benchmarks/bench_encodings.py). Same operations in the same order
        # as a*cos - b*sin, a*sin + b*cos, so the result is bit-identical to the plain formula.
        h = self.angles.shape[1]
        a, b = (slice(0, 2 * h, 2), slice(1, 2 * h, 2)) if self.pairing == "interleaved" else (slice(0, h), slice(h, 2 * h))
        cos, sin = np.cos(angles), np.sin(angles)
        xa, xb = x[..., a], x[..., b]
        out = np.empty_like(x)
        out[..., 2 * h :] = x[..., 2 * h :]
        oa, ob = out[..., a], out[..., b]
        np.multiply(xa, cos, out=oa)
        oa -= xb * sin
        np.multiply(xa, sin, out=ob)
        ob += xb * cos
        return out

    def matrix(self, p: int) -> np.ndarray:
        """The (d, d) rotation :math:`R_p` of position ``p`` (identity on non-rotary coordinates)."""
        p = v.integer("p", p, minimum=0, maximum=self.angles.shape[0] - 1)
        return self.apply_at(np.eye(self.d), p).T  # rows of the result are R_p e_i

    def apply_at(self, x, p: int) -> np.ndarray:
        """Rotate every row of ``x`` (m, d) by :math:`R_p`, as if it sat at position ``p``."""
        p = v.integer("p", p, minimum=0, maximum=self.angles.shape[0] - 1)
        x = v.array("x", x, ndim=(1, 2))
        if x.shape[-1] != self.d:
            raise ValidationError(f"x must have d={self.d} columns, got shape {x.shape}")
        return self._rotate(x, self.angles[p])


@register(
    "rope",
    "rotary",
    conventions="Rotary angles p*base^(-2t/r), t=0..r/2-1; r=rotary_dim (partial RoPE rotates the first r coordinates "
    "by pairing). pairing='interleaved' rotates (2t,2t+1) (RoFormer, gu2025 Eq. 4); 'half' rotates (t, t+r/2) "
    "(GPT-NeoX/Llama). The two agree up to a fixed permutation of coordinates.",
    source="su2024 (RoFormer); gu2025 Eq. 4",
)
def rope(n: int, d: int, *, base: float = 10000.0, pairing: str = "interleaved", rotary_dim: int | None = None) -> RotaryTable:
    """Rotary position table for n positions of d-dimensional vectors.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    base : float
        Frequency base: band ``t`` turns by ``base**(-2t/r)`` per position.
    pairing : {'interleaved', 'half'}
        Rotated pairs ``(2t, 2t+1)`` (RoFormer) or ``(t, t + r/2)`` (GPT-NeoX/Llama).
    rotary_dim : int, optional
        Number ``r`` of rotated coordinates, even and ``<= d`` (default ``d``); the rest pass through.

    Returns
    -------
    RotaryTable
        ``angles[p, t] = p * base**(-2t/r)``, shape (n, r/2).

    References
    ----------
    su2024 Eq. 15 (RoFormer); gu2025 Eq. 4.

    See Also
    --------
    rope_frequencies
    RotaryTable.apply
    petheory.encodings.kernels.rotary_kernel : its position-only attention kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> t = encodings.rope(4, 8)
    >>> t.angles.shape
    (4, 4)
    >>> x = np.ones((4, 8))
    >>> bool(np.allclose(np.linalg.norm(t.apply(x), axis=1), np.sqrt(8)))  # rotations keep norms
    True
    >>> encodings.rope(3, 8, rotary_dim=4, pairing="half").pairs()  # partial, half-split: (0, 2), (1, 3)
    (array([0, 1]), array([2, 3]))
    """
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    freqs = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    return RotaryTable(np.arange(n, dtype=np.float64)[:, None] * freqs[None, :], d, pairing)
