r"""Positional encodings of the four source papers, as pure numpy functions in a registry.

Three kinds, each with one calling convention:

``absolute``
    ``f(n, d, **params) -> ndarray (n, d)``: one vector per position, added to the token
    embedding (sinusoidal, learned, random, NoPE, wavelet, Legendre).
``bias``
    ``f(n, **params) -> ndarray (n, n)``: a logit bias ``B[i, j]`` for query ``i`` and key ``j``
    of one head (ALiBi, T5 buckets, learned per-offset scalars). Causal masking is *not*
    folded in: it is applied by the attention that uses the bias.
``rotary``
    ``f(n, d, **params) -> RotaryTable``: rotation angles ``(n, r/2)`` for ``r`` rotary
    dimensions plus the pairing convention; ``table.apply(x)`` rotates ``(n, d)`` vectors.

Positions are ``0, 1, ..., n-1`` throughout. Look-up is by name::

    >>> from petheory import encodings
    >>> encodings.get("sinusoidal")(4, 8).shape
    (4, 8)

Users add their own encodings with :func:`register` (from a plugin module or an entry point in
the ``petheory.encodings`` group; see :mod:`petheory.plugins`).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from petheory import _memory
from petheory import _validate as v

KINDS = ("absolute", "bias", "rotary")


@dataclass(frozen=True)
class EncodingInfo:
    """What the registry knows about one encoding."""

    name: str
    kind: str
    fn: Callable
    summary: str
    conventions: str
    source: str
    params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "summary": self.summary,
            "conventions": self.conventions,
            "source": self.source,
            "params": {k: _jsonable(p) for k, p in self.params.items()},
        }


def _jsonable(x):
    if x is inspect.Parameter.empty:
        return "<required>"
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    return repr(x)


_REGISTRY: dict[str, EncodingInfo] = {}


def register(name: str, kind: str, *, conventions: str = "", source: str = "", overwrite: bool = False):
    """Decorator adding an encoding function to the registry under ``name``.

    The function's first docstring line becomes its summary; its keyword parameters (those
    after ``n`` and, for absolute and rotary kinds, ``d``) are listed by ``petheory encodings``.
    """
    v.choice("kind", kind, KINDS)
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"encoding name must be a non-empty string, got {name!r}")

    def deco(fn: Callable) -> Callable:
        if name in _REGISTRY and not overwrite and _REGISTRY[name].fn is not fn:
            raise ValueError(f"encoding {name!r} is already registered; pass overwrite=True to replace it")
        sig = inspect.signature(fn)
        positional = 1 if kind == "bias" else 2
        params = {p.name: p.default for p in list(sig.parameters.values())[positional:]}
        summary = (inspect.getdoc(fn) or "").split("\n", 1)[0]
        _REGISTRY[name] = EncodingInfo(name, kind, fn, summary, conventions, source, params)
        return fn

    return deco


def get(name: str) -> Callable:
    """The encoding function registered under ``name``."""
    return info(name).fn


def info(name: str) -> EncodingInfo:
    _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown encoding {name!r}; registered: {', '.join(sorted(_REGISTRY))}") from None


def available(kind: str | None = None) -> list[str]:
    """Registered names, optionally of one kind, sorted."""
    if kind is not None:
        v.choice("kind", kind, KINDS)
    _load_plugins()
    return sorted(k for k, i in _REGISTRY.items() if kind is None or i.kind == kind)


def _load_plugins() -> None:
    from petheory.plugins import load_entry_points

    load_entry_points("petheory.encodings")


def _positions(n: int, start) -> np.ndarray:
    start = v.integer("start", start, minimum=0)
    return start + np.arange(n, dtype=np.float64)


def _nd(n, d, *, even: bool = False) -> tuple[int, int]:
    n = v.integer("n", n, minimum=1)
    d = v.even("d", d) if even else v.integer("d", d, minimum=1)
    # the (n, d) table and about two temporaries of its size (angles, sin/cos halves)
    _memory.require(_memory.array_bytes(n, d, itemsize=3 * 8), f"positional encoding table (n = {n}, d = {d})",
                    alternative="use a smaller n or d")
    return n, d


def _bias_n(n) -> int:
    """``n`` of an (n, n) bias matrix, refused before allocating when it cannot fit."""
    n = v.integer("n", n, minimum=1)
    # the (n, n) matrix and two temporaries (offsets, buckets or |i-j|)
    _memory.require(_memory.array_bytes(n, n, itemsize=3 * 8), f"bias encoding matrix (dense n x n, n = {n})",
                    alternative="a Toeplitz bias's spectrum takes the O(n) FFT path from its first column "
                    "(petheory spectrum --coeffs/--file, petheory.toeplitz.operator)")
    return n


# --------------------------------------------------------------------------- absolute


@register(
    "sinusoidal",
    "absolute",
    conventions="PE[p,2i]=sin(p/base^(2i/d)), PE[p,2i+1]=cos(...) (layout='interleaved', Vaswani et al.); "
    "layout='concatenated' puts all sines first, then all cosines. ||PE[p]||_2 = sqrt(d/2).",
    source="vaswani2017; li2025 Table 2; gu2025 Remark 3.2",
)
def sinusoidal(n: int, d: int, *, base: float = 10000.0, layout: str = "interleaved", start: int = 0) -> np.ndarray:
    """Sine-cosine absolute encoding, shape (n, d).

    Parameters
    ----------
    n, d : int
        Number of positions and (even) model dimension.
    base : float
        Wavelength base (10000 in Vaswani et al.); frequencies ``base**(-2i/d)``.
    layout : {'interleaved', 'concatenated'}
        Where the cosine of frequency ``i`` goes: column ``2i+1`` or column ``d/2 + i``.
    start : int
        First position (rows are positions ``start .. start+n-1``).

    Returns
    -------
    ndarray, shape (n, d)
    """
    n, d = _nd(n, d, even=True)
    base = v.real("base", base, positive=True)
    v.choice("layout", layout, ("interleaved", "concatenated"))
    freqs = rope_frequencies(d, base=base)  # (d/2,), the one ladder
    ang = _positions(n, start)[:, None] * freqs[None, :]  # (n, d/2)
    out = np.empty((n, d))
    sin_cols, cos_cols = (slice(0, d, 2), slice(1, d, 2)) if layout == "interleaved" else (slice(0, d // 2), slice(d // 2, d))
    np.sin(ang, out=out[:, sin_cols])  # straight into the table: no (n, d/2) temporaries (benchmarks/)
    np.cos(ang, out=out[:, cos_cols])
    return out


@register(
    "learned",
    "absolute",
    conventions="A table of n_max trainable vectors, initialised N(0, std^2) from `seed` (std=0.02 as BERT). "
    "Positions >= n_max have no vector: beyond='error' raises, beyond='clamp' reuses row n_max-1 (li2025 §6).",
    source="li2025 Table 2, §6; gu2025 'random' (a trainable table)",
)
def learned(
    n: int, d: int, *, n_max: int | None = None, seed: int = 0, std: float = 0.02, beyond: str = "error"
) -> np.ndarray:
    """Learned absolute table at initialisation, shape (n, d).

    ``n_max`` is the table size (default ``n``). Asking for ``n > n_max`` positions raises
    unless ``beyond='clamp'``, which reuses the last row, as li2025 describes.
    """
    n, d = _nd(n, d)
    n_max = n if n_max is None else v.integer("n_max", n_max, minimum=1)
    _memory.require(_memory.array_bytes(n_max, d, itemsize=2 * 8), f"learned table (n_max = {n_max}, d = {d})",
                    alternative="use a smaller n_max or d")
    std = v.real("std", std, positive=True)
    v.choice("beyond", beyond, ("error", "clamp"))
    table = v.generator(seed).normal(0.0, std, size=(n_max, d))
    if n > n_max:
        if beyond == "error":
            raise ValueError(
                f"learned table has n_max={n_max} positions but n={n} were asked for; "
                "pass beyond='clamp' to reuse the last row explicitly"
            )
        return table[np.minimum(np.arange(n), n_max - 1)]
    return table[:n]


@register(
    "random",
    "absolute",
    conventions="Fixed (not trained) i.i.d. N(0, scale^2) vectors from `seed`; scale=1/sqrt(d) gives E||PE||^2=1.",
    source="gu2025 §4.1 ('random, fixed embeddings')",
)
def random_fixed(n: int, d: int, *, seed: int = 0, scale: float | None = None) -> np.ndarray:
    """Random fixed absolute encoding, shape (n, d)."""
    n, d = _nd(n, d)
    scale = 1.0 / math.sqrt(d) if scale is None else v.real("scale", scale, positive=True)
    return v.generator(seed).normal(0.0, scale, size=(n, d))


@register("nope", "absolute", conventions="All zeros: no positional signal.", source="gu2025 §3.1 (NoPE)")
def nope(n: int, d: int) -> np.ndarray:
    """No positional encoding: zeros of shape (n, d)."""
    n, d = _nd(n, d)
    return np.zeros((n, d))


def wavefun(wavelet: str, resolution: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Samples ``(x, psi)`` of the mother wavelet on ``[0, taps-1]``, step ``2**-resolution``, and ``taps``.

    The arrays are cached and read-only."""
    if not isinstance(wavelet, str):  # checked before the cache, which would fail on unhashable values
        raise ValueError(f"wavelet must be a PyWavelets family name such as 'db2', got {type(wavelet).__name__} {wavelet!r}")
    return _wavefun_cached(wavelet, resolution)


@lru_cache(maxsize=32)
def _wavefun_cached(wavelet: str, resolution: int) -> tuple[np.ndarray, np.ndarray, int]:
    import pywt

    if not isinstance(wavelet, str) or wavelet not in pywt.wavelist(kind="discrete"):
        raise ValueError(
            f"wavelet must be a discrete PyWavelets family name such as 'db2' (4 taps) or 'db4' (8 taps); got {wavelet!r}"
        )
    w = pywt.Wavelet(wavelet)
    if not w.orthogonal:
        raise ValueError(f"wavelet {wavelet!r} is not orthogonal; use an orthogonal family (db*, sym*, coif*, haar)")
    _phi, psi, x = w.wavefun(level=resolution)
    x, psi = np.array(x, dtype=np.float64), np.array(psi, dtype=np.float64)
    if len(x) == (w.dec_len - 1) * 2**resolution + 2:
        # PyWavelets samples Haar (db1) one grid step late: psi[i] = psi_true((i-1) 2^-res), so
        # psi(0) came out 0 (position 0 got an all-zero Haar encoding) and psi(1) came out -1.
        # Dropping the first sample gives the standard right-continuous Haar wavelet on [0, 1].
        x, psi = x[:-1], psi[1:]
    x.setflags(write=False)
    psi.setflags(write=False)
    return x, psi, w.dec_len


WAVELET_DILATIONS = ("unit", "position")
WAVELET_NORMALISATIONS = ("l2", "paper", "none")


def wavelet_amplitude(j: int, normalisation: str) -> float:
    """Amplitude ``c_j`` of the atoms of scale ``j``: 'l2' ``2^(j/2)``, 'paper' ``2^(-j/2)``, 'none' 1."""
    v.choice("normalisation", normalisation, WAVELET_NORMALISATIONS)
    return {"l2": 2.0 ** (j / 2), "paper": 2.0 ** (-j / 2), "none": 1.0}[normalisation]


def _coarsest_scale(dilation: str, n_max: int) -> int:
    # 'position': the coarsest atom is at least as wide as the training range, 2^J >= n_max.
    return 0 if dilation == "unit" else -int(math.ceil(math.log2(n_max))) if n_max > 1 else 0


def _shift_range(j: int, support: int, dilation: str, n_max: int) -> tuple[int, int]:
    """First and last shift k at scale j whose atom [k 2^-j, (k+S) 2^-j] meets the training range."""
    if dilation == "unit":  # range [0, 1)
        return -(support - 1), 2**j - 1
    # range [0, n_max) in positions: last k = ceil(n_max 2^j) - 1, in exact integer arithmetic
    last = n_max * 2**j if j >= 0 else -(-n_max // 2 ** (-j))
    return -(support - 1), last - 1


def wavelet_atoms(d: int, support: int, *, dilation: str = "unit", n_max: int | None = None) -> list[tuple[int, int]]:
    """The (scale j, shift k) pairs that fill ``d`` features, coarse to fine.

    ``dilation='unit'``: scales ``j = 0, 1, ...`` of atoms ``psi(2^j t - k)`` on ``t = p/n_max``;
    at scale ``j`` the shifts ``k = -(support-1), ..., 2**j - 1`` are every shift whose atom meets
    ``t`` in ``[0, 1)``. ``dilation='position'``: atoms ``psi(2^j p - k)`` on raw positions ``p``,
    scales from ``j = -ceil(log2 n_max)`` (one atom as wide as the training range) upwards, shifts
    meeting ``[0, n_max)``. Scales are taken in order until ``d`` atoms.
    """
    d = v.integer("d", d, minimum=1)
    # a Python list of d (j, k) tuples: about 128 bytes each
    _memory.require(_memory.array_bytes(d, itemsize=128), f"wavelet atom list (d = {d})", alternative="use a smaller d")
    support = v.integer("support", support, minimum=1)
    v.choice("dilation", dilation, WAVELET_DILATIONS)
    if dilation == "position" and n_max is None:
        raise ValueError("dilation='position' needs n_max (the training length) to choose the coarsest scale")
    n_max = 1 if n_max is None else v.integer("n_max", n_max, minimum=1)
    atoms: list[tuple[int, int]] = []
    j = _coarsest_scale(dilation, n_max)
    while len(atoms) < d:
        k0, k1 = _shift_range(j, support, dilation, n_max)
        atoms.extend((j, k) for k in range(k0, min(k1, k0 + d - len(atoms) - 1) + 1))
        j += 1
    return atoms


def wavelet_terms(
    positions,
    d: int,
    *,
    wavelet: str = "db2",
    n_max: int,
    normalisation: str = "l2",
    dilation: str = "unit",
    resolution: int = 10,
):
    r"""The non-zero entries of the wavelet encoding, one scale at a time.

    Yields ``(j, cols, vals)`` per scale ``j``: ``cols`` (n, S+1) int, the feature index of each
    atom of scale ``j`` that can be non-zero at each position (``-1`` where none), and ``vals``
    (n, S+1) the feature values ``c_j psi(2^j u - k)``. At most ``S + 1`` atoms of one scale
    meet a point (``S = taps - 1`` is the support length of ``psi``), so the cost is
    O(n S x scales) instead of O(n d): :func:`wavelet` scatters these into a dense table,
    :func:`petheory.bounds.wavelet_norms` sums their squares for long ranges.
    """
    x, psi, taps = wavefun(wavelet, resolution)
    S = taps - 1
    u = np.asarray(positions, dtype=np.float64) / (n_max if dilation == "unit" else 1)  # (n,)
    atoms = wavelet_atoms(d, S, dilation=dilation, n_max=n_max)
    col = 0
    for j in sorted({a[0] for a in atoms}):
        k0, k1 = _shift_range(j, S, dilation, n_max)
        k1 = min(k1, k0 + (d - col) - 1)  # the finest scale may be cut at d features
        uj = 2.0**j * u  # (n,) exact power-of-two scaling
        ks = np.floor(uj)[:, None] - np.arange(S + 1)[None, :]  # (n, S+1) shifts with u_j - k in [0, S]
        ok = (ks >= k0) & (ks <= k1)
        cols = np.where(ok, col + (ks - k0), -1).astype(np.int64)
        vals = np.where(ok, wavelet_amplitude(j, normalisation) * np.interp(uj[:, None] - ks, x, psi, left=0.0, right=0.0), 0.0)
        yield j, cols, vals
        col += k1 - k0 + 1


@register(
    "wavelet",
    "absolute",
    conventions="Reconstruction of li2025 §6.1.4 (the paper gives no construction). dilation='unit' (default): "
    "t = p/n_max, feature a is c_j psi(2^j t - k) for the a-th (j,k) pair, scales j = 0, 1, ... coarse to fine, all "
    "shifts whose support meets [0,1). dilation='position': the paper's formula read in raw positions, c_j psi(2^j p - k), "
    "scales from j = -ceil(log2 n_max) (width >= n_max) upwards, shifts meeting [0, n_max). psi sampled from "
    "PyWavelets (db2 = 4-tap Daubechies, db4 = 8-tap). normalisation: 'l2' c_j=2^(j/2) (orthonormal atoms), "
    "'paper' c_j=2^(-j/2) (the amplitude in the paper's decay bound), 'none' c_j=1. Compact support: every "
    "feature is exactly 0 past the last atom's support (t >= S for 'unit', p >= S 2^J for 'position').",
    source="li2025 §6.1.4 (reconstruction)",
)
def wavelet(
    n: int,
    d: int,
    *,
    wavelet: str = "db2",
    n_max: int | None = None,
    normalisation: str = "l2",
    resolution: int = 10,
    start: int = 0,
    dilation: str = "unit",
) -> np.ndarray:
    """Wavelet absolute encoding (reconstruction), shape (n, d).

    Parameters
    ----------
    wavelet : str
        Orthogonal PyWavelets family; ``'db2'`` is the 4-tap Daubechies wavelet, ``'db4'`` the 8-tap.
    n_max : int
        Training length: positions ``0..n_max-1`` map to ``t in [0, 1)`` (default ``n``).
    normalisation : {'l2', 'paper', 'none'}
        Amplitude ``c_j`` of scale ``j`` (see module conventions).
    resolution : int
        Cascade iterations used by PyWavelets to sample psi (grid step ``2**-resolution``).
    start : int
        First position (rows are positions ``start .. start+n-1``).
    dilation : {'unit', 'position'}
        Whether atoms dilate the length-normalised position ``t = p/n_max`` (scales ``j >= 0``)
        or the raw position ``p`` (scales ``j >= -ceil(log2 n_max)``); see :func:`wavelet_atoms`.

    Notes
    -----
    Atoms have compact support, so past the support of the coarsest atom every feature is
    exactly zero: the encoding of far positions is the zero vector (li2025's extrapolation
    statement is checked against this in ``li2025.wavelet_extrapolation``). Evaluation is
    sparse (:func:`wavelet_terms`): at most ``taps`` atoms per scale are non-zero at a position.
    """
    n, d = _nd(n, d)
    n_max = n if n_max is None else v.integer("n_max", n_max, minimum=1)
    v.choice("normalisation", normalisation, WAVELET_NORMALISATIONS)
    v.choice("dilation", dilation, WAVELET_DILATIONS)
    resolution = v.integer("resolution", resolution, minimum=4, maximum=16)
    out = np.zeros((n, d))
    rows = np.arange(n)[:, None]
    for _j, cols, vals in wavelet_terms(_positions(n, start), d, wavelet=wavelet, n_max=n_max,
                                        normalisation=normalisation, dilation=dilation, resolution=resolution):
        ok = cols >= 0
        out[np.broadcast_to(rows, cols.shape)[ok], cols[ok]] = vals[ok]
    return out


LEGENDRE_MAPS = ("linear", "exp")
#: 'exp' map: x(p) = 1 - 2 exp(-rate p / (n_max-1)) with rate ln 20, so x(n_max-1) = 0.9.
LEGENDRE_EXP_RATE = math.log(20.0)


def legendre_positions(pos, n_max: int, *, position_map: str = "linear", beyond: str = "clip") -> np.ndarray:
    """The points ``x(p)`` at which the Legendre encoding evaluates ``P_k``, shape like ``pos``.

    'linear': ``x = 2p/(n_max-1) - 1`` (training positions fill [-1, 1]; past ``n_max`` the value
    exceeds 1 and ``beyond='clip'`` holds it at 1). 'exp': ``x = 1 - 2 exp(-ln(20) p/(n_max-1))``
    (training positions fill [-1, 0.9]; x < 1 always and x -> 1 as p -> infinity, so the encoding
    saturates asymptotically, never exactly).
    """
    n_max = v.integer("n_max", n_max, minimum=2)
    v.choice("position_map", position_map, LEGENDRE_MAPS)
    v.choice("beyond", beyond, ("clip", "extrapolate"))
    pos = v.array("pos", pos, nonempty=False)
    if position_map == "linear":
        x = 2.0 * pos / (n_max - 1) - 1.0
    else:
        x = 1.0 - 2.0 * np.exp(-LEGENDRE_EXP_RATE * pos / (n_max - 1))
    return np.minimum(x, 1.0) if beyond == "clip" else x


@register(
    "legendre",
    "absolute",
    conventions="Reconstruction of li2025 §6: PE[p,k] = c_k P_k(x(p)), k=0..d-1, Legendre polynomials P_k "
    "(numpy.polynomial), c_k = 1 or sqrt((2k+1)/2) (orthonormal=True). position_map='linear': x(p) = 2p/(n_max-1) - 1 "
    "maps training positions onto [-1,1]; past n_max beyond='clip' holds x at 1 (saturation to P_k(1)=1), "
    "'extrapolate' evaluates P_k at x > 1 (unbounded). position_map='exp': x(p) = 1 - 2exp(-ln(20) p/(n_max-1)), "
    "training positions onto [-1, 0.9], x -> 1 as p -> infinity (asymptotic saturation).",
    source="li2025 §6 (reconstruction)",
)
def legendre(
    n: int,
    d: int,
    *,
    n_max: int | None = None,
    beyond: str = "clip",
    orthonormal: bool = False,
    start: int = 0,
    position_map: str = "linear",
) -> np.ndarray:
    """Legendre-polynomial absolute encoding (reconstruction), shape (n, d).

    ``orthonormal=True`` scales column ``k`` by ``sqrt((2k+1)/2)`` (unit L2 norm on [-1, 1]).
    Rows are positions ``start .. start+n-1``; ``n_max`` defaults to ``start + n``.
    ``position_map`` and ``beyond`` choose ``x(p)``: see :func:`legendre_positions`.
    """
    n, d = _nd(n, d)
    pos = _positions(n, start)
    n_max = int(pos[-1]) + 1 if n_max is None else v.integer("n_max", n_max)
    if n_max < 2:
        raise ValueError(f"legendre needs n_max >= 2 to map positions onto [-1, 1], got {n_max}")
    orthonormal = v.boolean("orthonormal", orthonormal)
    x = legendre_positions(pos, n_max, position_map=position_map, beyond=beyond)
    out = np.polynomial.legendre.legvander(x, d - 1)
    if orthonormal:
        out = out * np.sqrt((2.0 * np.arange(d) + 1.0) / 2.0)
    return out


# --------------------------------------------------------------------------- bias


def alibi_slopes(num_heads: int, schedule: str = "press") -> np.ndarray:
    r"""ALiBi slopes for ``num_heads`` heads, shape (H,).

    ``'press'``: the geometric sequence :math:`2^{-8h/H}`, h=1..H (Press et al. 2022); when H is
    not a power of two, the slopes of the closest lower power of two followed by every other
    slope of twice that power, as in the reference implementation.
    ``'gu2025'``: :math:`\exp(-h/H)`, h=1..H, read from gu2025's code (CLAIMS.md).
    """
    H = v.integer("num_heads", num_heads, minimum=1)
    _memory.require(_memory.array_bytes(H, itemsize=3 * 8), f"ALiBi slopes (num_heads = {H})")
    v.choice("schedule", schedule, ("press", "gu2025"))
    if schedule == "gu2025":
        return np.exp(-np.arange(1, H + 1) / H)

    def pow2(m: int) -> np.ndarray:
        start = 2.0 ** (-8.0 / m)
        return start ** np.arange(1, m + 1)

    if H & (H - 1) == 0:
        return pow2(H)
    closest = 2 ** int(math.floor(math.log2(H)))
    return np.concatenate([pow2(closest), pow2(2 * closest)[0::2][: H - closest]])


@register(
    "alibi",
    "bias",
    conventions="form='symmetric': B[i,j] = -slope*|i-j| (li2025 §5.3, gu2025); form='causal': B[i,j] = -slope*(i-j), "
    "meaningful on causal rows j<=i; form='key_index': B[i,j] = slope*j (Press et al.'s implementation), equal to "
    "'causal' up to a per-row constant, so identical after row softmax. Slopes: see alibi_slopes.",
    source="press2022; li2025 §5.3; gu2025",
)
def alibi(n: int, *, slope: float = 1.0, form: str = "symmetric") -> np.ndarray:
    """ALiBi logit bias of one head, shape (n, n)."""
    n = _bias_n(n)
    slope = v.real("slope", slope, nonnegative=True)
    v.choice("form", form, ("symmetric", "causal", "key_index"))
    i = np.arange(n, dtype=np.float64)[:, None]
    j = np.arange(n, dtype=np.float64)[None, :]
    if form == "symmetric":
        return -slope * np.abs(i - j)
    if form == "causal":
        return -slope * (i - j)
    return slope * np.broadcast_to(j, (n, n)).copy()


def t5_bucket(offsets, *, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> np.ndarray:
    """T5 relative-position bucket of each offset ``j - i`` (Raffel et al. 2020; HF transformers).

    Half the buckets (``max_exact``) hold exact offsets; the rest grow logarithmically up to
    ``max_distance``, past which all offsets share the last bucket. ``bidirectional`` splits the
    buckets between negative and positive offsets; causal mode maps positive offsets to 0.
    """
    nb = v.integer("num_buckets", num_buckets, minimum=2)
    md = v.integer("max_distance", max_distance, minimum=1)
    bidirectional = v.boolean("bidirectional", bidirectional)
    rel = np.asarray(offsets)
    if not np.issubdtype(rel.dtype, np.integer):
        raise TypeError(f"offsets must be integers, got dtype {rel.dtype}")
    rel = rel.astype(np.int64)
    buckets = np.zeros_like(rel)
    if bidirectional:
        nb //= 2
        buckets += (rel > 0).astype(np.int64) * nb
        rel = np.abs(rel)
    else:
        rel = -np.minimum(rel, 0)
    max_exact = nb // 2
    if max_exact < 1:
        raise ValueError(f"num_buckets={num_buckets} leaves no exact bucket; use at least {4 if bidirectional else 2}")
    if md <= max_exact:
        raise ValueError(f"max_distance must exceed max_exact={max_exact}, got {md}")
    # Mesh TensorFlow's T5 and HF transformers compute the log bucket in float32; so do we, so that
    # bucket edges match trained checkpoints. In float64, offsets where the log ratio is an exact
    # integer can land one bucket lower (num_buckets=9, causal, max_distance=128: offset -8 has
    # log(8/4)/log(128/4)*5 = 1 exactly, bucket 5, but float64 gives 0.99999... and bucket 4).
    # The float32 log is taken as the correctly rounded float64 log, as torch's is to within an ulp.
    ratio = np.maximum(rel, 1).astype(np.float32) / np.float32(max_exact)
    log_ratio = np.log(ratio.astype(np.float64)).astype(np.float32)
    large = max_exact + (log_ratio / np.float32(math.log(md / max_exact)) * np.float32(nb - max_exact)).astype(np.int64)
    large = np.minimum(large, nb - 1)
    return buckets + np.where(rel < max_exact, rel, large)


@register(
    "t5",
    "bias",
    conventions="B[i,j] = values[bucket(j-i)] with T5 buckets (see t5_bucket); values default to seeded N(0, std^2) "
    "scalars, standing in for the learned per-bucket table of one head.",
    source="raffel2020; gu2025 §3.1",
)
def t5(
    n: int,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
    values=None,
    seed: int = 0,
    std: float = 1.0,
) -> np.ndarray:
    """T5 bucketed relative bias of one head, shape (n, n)."""
    n = _bias_n(n)
    nb = v.integer("num_buckets", num_buckets, minimum=2)
    _memory.require(_memory.array_bytes(nb, itemsize=8), f"T5 bucket values (num_buckets = {nb})")
    if values is None:
        values = v.generator(seed).normal(0.0, v.real("std", std, positive=True), size=nb)
    values = v.array("values", values, ndim=1)
    if values.shape[0] != nb:
        raise ValueError(f"values must have num_buckets={nb} entries, got {values.shape[0]}")
    idx = np.arange(n)
    return values[t5_bucket(idx[None, :] - idx[:, None], bidirectional=bidirectional, num_buckets=nb, max_distance=max_distance)]


@register(
    "relative",
    "bias",
    conventions="B[i,j] = w[clip(j-i, -max_offset, max_offset)]: one learned scalar per offset (gu2025's 'relative', "
    "no buckets; offsets clipped as in Shaw et al.). w defaults to seeded N(0, std^2).",
    source="shaw2018; gu2025 code (CLAIMS.md)",
)
def relative(n: int, *, max_offset: int | None = None, values=None, seed: int = 0, std: float = 1.0) -> np.ndarray:
    """Learned per-offset scalar bias of one head, shape (n, n)."""
    n = _bias_n(n)
    K = n - 1 if max_offset is None else v.integer("max_offset", max_offset, minimum=0)
    _memory.require(_memory.array_bytes(2 * K + 1, itemsize=8), f"relative bias values (max_offset = {K})")
    if values is None:
        values = v.generator(seed).normal(0.0, v.real("std", std, positive=True), size=2 * K + 1)
    values = v.array("values", values, ndim=1)
    if values.shape[0] != 2 * K + 1:
        raise ValueError(f"values must have 2*max_offset+1 = {2 * K + 1} entries, got {values.shape[0]}")
    idx = np.arange(n)
    return values[np.clip(idx[None, :] - idx[:, None], -K, K) + K]


# --------------------------------------------------------------------------- rotary


def rope_frequencies(d: int, *, base: float = 10000.0, rotary_dim: int | None = None, first: int = 0) -> np.ndarray:
    r"""The geometric frequency ladder :math:`\omega_t = base^{-2t/r}`, t = first..first+r/2-1, shape (r/2,).

    r = ``rotary_dim`` (default d). The one definition of the ladder in petheory: the sinusoidal
    encoding (Vaswani et al. 2017, §3.5: :math:`PE_{p,2t} = \sin(p/base^{2t/d})`), RoPE (Su et al.,
    RoFormer Eq. 15, :math:`\theta_t = base^{-2t/d}`) and, with ``first=1``, Sandwich's
    kernel (Chi et al. 2023, :math:`w_i = base^{-2i/\bar d}`, i = 1..d̄/2) all take it from here.
    """
    d = v.even("d", d)
    r = d if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > d:
        raise ValueError(f"rotary_dim must be <= d={d}, got {r}")
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
        """Rotate ``x`` of shape (n, d): row p by R_p. Returns a new array."""
        x = v.array("x", x, ndim=2)
        if x.shape != (self.angles.shape[0], self.d):
            raise ValueError(f"x must have shape {(self.angles.shape[0], self.d)}, got {x.shape}")
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
        """The (d, d) rotation R_p of position ``p`` (identity on non-rotary coordinates)."""
        p = v.integer("p", p, minimum=0, maximum=self.angles.shape[0] - 1)
        return self.apply_at(np.eye(self.d), p).T  # rows of the result are R_p e_i

    def apply_at(self, x, p: int) -> np.ndarray:
        """Rotate every row of ``x`` (m, d) by R_p, as if it sat at position ``p``."""
        p = v.integer("p", p, minimum=0, maximum=self.angles.shape[0] - 1)
        x = v.array("x", x, ndim=(1, 2))
        if x.shape[-1] != self.d:
            raise ValueError(f"x must have d={self.d} columns, got shape {x.shape}")
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
    """Rotary position table for n positions of d-dimensional vectors."""
    n, d = _nd(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    freqs = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    return RotaryTable(np.arange(n, dtype=np.float64)[:, None] * freqs[None, :], d, pairing)


# --------------------------------------------------------------------------- FIRE (learned relation)


def fire_input(q_pos, k_pos, *, c: float = 1.0, threshold: float = 1.0) -> np.ndarray:
    r"""FIRE's normalised offset ``sign(i-j) psi(|i-j|) / psi(max(L, i))``, ``psi(x) = log(c x + 1)``.

    ``q_pos`` (m,) and ``k_pos`` (p,) are query and key positions (fractional allowed: a Scale
    Hint may rescale them); returns (m, p). For ``j <= i`` (the causal part) this is FIRE's
    ``psi(i-j)/psi(max(L, i))`` in [0, 1] (li2024, Eq. 5: progressive interpolation); keys after
    the query get the negative mirror, so a bidirectional model can tell them apart.
    """
    c = v.real("c", c, positive=True)
    L = v.real("threshold", threshold, positive=True)
    q = v.array("q_pos", q_pos, ndim=1)[:, None]
    k = v.array("k_pos", k_pos, ndim=1)[None, :]
    off = q - k
    return np.sign(off) * np.log1p(c * np.abs(off)) / np.log1p(c * np.maximum(L, np.abs(q)))


def fire_mlp_init(hidden: int, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seeded weights ``(w1 (hidden,), b1 (hidden,), w2 (hidden,), b2 ())`` of FIRE's 1-hidden-layer MLP.

    Uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)) for every weight and bias, the scale of torch's
    ``nn.Linear`` default (the numbers differ from torch's: numpy draws them).
    """
    hidden = v.integer("hidden", hidden, minimum=1)
    rng = v.generator(seed)
    b_in, b_h = 1.0, 1.0 / math.sqrt(hidden)
    return (rng.uniform(-b_in, b_in, hidden), rng.uniform(-b_in, b_in, hidden),
            rng.uniform(-b_h, b_h, hidden), rng.uniform(-b_h, b_h))


@register(
    "fire",
    "bias",
    conventions="B[i,j] = f(sign(i-j) log(c|i-j|+1) / log(c max(L,i)+1)), f a 1-hidden-layer ReLU MLP (width hidden) "
    "learned per head in a model; here f has a seeded default initialisation (fire_mlp_init) and one head. Query i, "
    "key j; causal masking is applied by the attention, keys after the query get the negative mirror of the input. "
    "c and the threshold L are learnable in FIRE; fixed here (defaults c=1, L=1).",
    source="li2024 FIRE (Functional Interpolation for Relative Positions, ICLR 2024, Eq. 5); chen2025's "
    "learning-based relation PE (reconstruction)",
)
def fire(n: int, *, hidden: int = 32, c: float = 1.0, threshold: float = 1.0, seed: int = 0) -> np.ndarray:
    """FIRE: a learned function of the progressively normalised offset, one head, shape (n, n)."""
    n = v.integer("n", n, minimum=1)
    w1, b1, w2, b2 = fire_mlp_init(hidden, seed)
    pos = np.arange(n, dtype=np.float64)
    x = fire_input(pos, pos, c=c, threshold=threshold)
    return np.maximum(x[..., None] * w1 + b1, 0.0) @ w2 + b2


# --------------------------------------------------------------------------- long-context encodings

# RoPE-PI/NTK/YaRN, xPos, KERPLE, Sandwich, MLA's decoupled RoPE, RoPE + absolute, mds_optimal:
# registered by their own module (imported last: it builds on the functions above).
from petheory import encodings_modern as _modern  # noqa: E402,F401
