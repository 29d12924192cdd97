r"""Absolute encodings: one vector per position, added to the token embedding, shape (n, d).

Sinusoidal (vaswani2017 §3.5; li2025 Table 2; gu2025 Remark 3.2), learned and random tables,
NoPE, and li2025 §6's wavelet and Legendre encodings (reconstructions: the paper gives no
construction; the conventions say which choices were made).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.encodings._registry import _positions, register, table_shape
from petheory.encodings.rotary import rope_frequencies
from petheory.errors import ValidationError


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

    See Also
    --------
    rope_frequencies : the frequency ladder it is built on.
    petheory.toeplitz.sinusoidal_gram_coefficients : its Gram :math:`PP^T` in closed form.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> P = encodings.sinusoidal(6, 8)
    >>> P.shape
    (6, 8)
    >>> bool(np.allclose(np.linalg.norm(P, axis=1), 2.0))  # ||PE_p|| = sqrt(d/2)
    True
    """
    n, d = table_shape(n, d, even=True)
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

    Parameters
    ----------
    n, d : int
        Number of positions and model dimension.
    n_max : int, optional
        Number of rows of the trainable table (default ``n``).
    seed : int
        Seed of the generator the table is drawn from.
    std : float
        Standard deviation of the ``N(0, std^2)`` initialisation (0.02 as BERT).
    beyond : {'error', 'clamp'}
        What positions ``>= n_max`` get: ``'error'`` raises, ``'clamp'`` reuses row ``n_max - 1``.

    Returns
    -------
    numpy.ndarray, shape (n, d)
        Row ``p`` is the table's row ``min(p, n_max - 1)``; the first ``min(n, n_max)`` rows do not
        depend on ``n`` (same ``seed`` and ``n_max``).

    Raises
    ------
    ValidationError
        ``n > n_max`` with ``beyond='error'``.

    See Also
    --------
    random_fixed

    Examples
    --------
    >>> from petheory import encodings
    >>> P = encodings.learned(10, 4, n_max=8, beyond='clamp')
    >>> bool((P[9] == P[7]).all())  # rows past n_max reuse the last trained one
    True
    """
    n, d = table_shape(n, d)
    n_max = n if n_max is None else v.integer("n_max", n_max, minimum=1)
    _memory.require(_memory.array_bytes(n_max, d, itemsize=2 * 8), f"learned table (n_max = {n_max}, d = {d})",
                    alternative="use a smaller n_max or d")
    std = v.real("std", std, positive=True)
    v.choice("beyond", beyond, ("error", "clamp"))
    table = v.generator(seed).normal(0.0, std, size=(n_max, d))
    if n > n_max:
        if beyond == "error":
            raise ValidationError(
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
    """Random fixed absolute encoding, shape (n, d).

    Parameters
    ----------
    n, d : int
        Number of positions and model dimension.
    seed : int
        Seed of the generator: the same seed gives the same table.
    scale : float, optional
        Standard deviation of every entry (default ``1/sqrt(d)``, so that ``E||PE_p||^2 = 1``).

    Returns
    -------
    numpy.ndarray, shape (n, d)
        I.i.d. ``N(0, scale^2)`` entries, fixed (not trained).

    See Also
    --------
    learned

    Examples
    --------
    >>> from petheory import encodings
    >>> import numpy as np
    >>> bool(np.array_equal(encodings.random_fixed(5, 4, seed=1), encodings.random_fixed(5, 4, seed=1)))
    True
    >>> P = encodings.random_fixed(2000, 16)
    >>> round(float((P**2).sum(axis=1).mean()), 1)  # E||PE_p||^2 = 1 with the default scale
    1.0
    """
    n, d = table_shape(n, d)
    scale = 1.0 / math.sqrt(d) if scale is None else v.real("scale", scale, positive=True)
    return v.generator(seed).normal(0.0, scale, size=(n, d))


@register("nope", "absolute", conventions="All zeros: no positional signal.", source="gu2025 §3.1 (NoPE)")
def nope(n: int, d: int) -> np.ndarray:
    """No positional encoding: zeros of shape (n, d).

    Parameters
    ----------
    n, d : int
        Number of positions and model dimension.

    Returns
    -------
    numpy.ndarray, shape (n, d)
        All zeros: no positional signal.

    Examples
    --------
    >>> from petheory import encodings
    >>> float(abs(encodings.nope(3, 4)).sum())
    0.0
    """
    n, d = table_shape(n, d)
    return np.zeros((n, d))


def wavefun(wavelet: str, resolution: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Samples ``(x, psi)`` of the mother wavelet on ``[0, taps-1]``, step ``2**-resolution``, and ``taps``.

    The arrays are cached and read-only.

    Parameters
    ----------
    wavelet : str
        Orthogonal discrete PyWavelets family (``'db2'``, ``'sym4'``, ``'coif1'``, ``'haar'``, ...).
    resolution : int
        Cascade iterations of ``pywt.Wavelet.wavefun``: the grid step is ``2**-resolution``.

    Returns
    -------
    x : numpy.ndarray, shape (m,)
        Sample points, from 0 to ``taps - 1``; read-only.
    psi : numpy.ndarray, shape (m,)
        The mother wavelet at ``x``; read-only. For Haar (``'db1'``) PyWavelets' samples are
        shifted one step so that ``psi`` is the right-continuous Haar wavelet on ``[0, 1]``.
    taps : int
        Filter length of the wavelet (``psi`` is supported on ``[0, taps - 1]``).

    Raises
    ------
    ValidationError
        ``wavelet`` is not the name of a discrete PyWavelets family, or names a non-orthogonal one.

    Examples
    --------
    >>> x, psi, taps = wavefun("db2", 4)
    >>> taps, float(x[0]), float(x[-1]), len(x)  # 4 taps: support [0, 3], step 1/16
    (4, 0.0, 3.0, 49)
    >>> psi.flags.writeable  # cached: shared, so read-only
    False
    >>> x, psi, taps = wavefun("haar", 4)
    >>> [round(float(y), 6) for y in (psi[0], psi[7], psi[8], psi[-1])]  # +1 on [0, 1/2), -1 on [1/2, 1)
    [1.0, 1.0, -1.0, 0.0]
    """
    if not isinstance(wavelet, str):  # checked before the cache, which would fail on unhashable values
        raise ValidationError(f"wavelet must be a PyWavelets family name such as 'db2', got {type(wavelet).__name__} {wavelet!r}")
    return _wavefun_cached(wavelet, resolution)


@lru_cache(maxsize=32)
def _wavefun_cached(wavelet: str, resolution: int) -> tuple[np.ndarray, np.ndarray, int]:
    import pywt

    if not isinstance(wavelet, str) or wavelet not in pywt.wavelist(kind="discrete"):
        raise ValidationError(
            f"wavelet must be a discrete PyWavelets family name such as 'db2' (4 taps) or 'db4' (8 taps); got {wavelet!r}"
        )
    w = pywt.Wavelet(wavelet)
    if not w.orthogonal:
        raise ValidationError(f"wavelet {wavelet!r} is not orthogonal; use an orthogonal family (db*, sym*, coif*, haar)")
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
    """Amplitude ``c_j`` of the atoms of scale ``j``: 'l2' ``2^(j/2)``, 'paper' ``2^(-j/2)``, 'none' 1.

    Parameters
    ----------
    j : int
        Scale (``j >= 0`` for ``dilation='unit'``; negative scales occur with ``'position'``).
    normalisation : {'l2', 'paper', 'none'}
        ``'l2'`` makes the atoms ``c_j psi(2^j t - k)`` orthonormal; ``'paper'`` is the amplitude
        in li2025's decay bound.

    Returns
    -------
    float
        The amplitude ``c_j``.

    Examples
    --------
    >>> [wavelet_amplitude(2, norm) for norm in ("l2", "paper", "none")]
    [2.0, 0.5, 1.0]
    """
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

    Parameters
    ----------
    d : int
        Number of features (atoms) to fill; the finest scale is cut where ``d`` is reached.
    support : int
        Support length ``S`` of the mother wavelet (``taps - 1``: 3 for ``'db2'``).
    dilation : {'unit', 'position'}
        Whether atoms dilate ``t = p/n_max`` or the raw position ``p`` (see above).
    n_max : int, optional
        Training length; required with ``dilation='position'`` (it sets the coarsest scale),
        unused with ``'unit'``.

    Returns
    -------
    list of tuple of int
        ``d`` pairs ``(j, k)``, by scale then shift: feature ``a`` is the atom of pair ``a``.

    Raises
    ------
    ValidationError
        ``dilation='position'`` without ``n_max``.

    Examples
    --------
    >>> wavelet_atoms(6, 3)  # db2: 3 shifts at scale 0, then scale 1 cut at 6 features
    [(0, -2), (0, -1), (0, 0), (1, -2), (1, -1), (1, 0)]
    >>> wavelet_atoms(4, 3, dilation="position", n_max=4)  # coarsest scale -log2(4): width >= n_max
    [(-2, -2), (-2, -1), (-2, 0), (-1, -2)]
    """
    d = v.integer("d", d, minimum=1)
    # a Python list of d (j, k) tuples: about 128 bytes each
    _memory.require(_memory.array_bytes(d, itemsize=128), f"wavelet atom list (d = {d})", alternative="use a smaller d")
    support = v.integer("support", support, minimum=1)
    v.choice("dilation", dilation, WAVELET_DILATIONS)
    if dilation == "position" and n_max is None:
        raise ValidationError("dilation='position' needs n_max (the training length) to choose the coarsest scale")
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

    Parameters
    ----------
    positions : array_like, shape (n,)
        Positions ``p`` (float or int) at which to evaluate the features.
    d : int
        Number of features (atoms, chosen by :func:`wavelet_atoms`).
    wavelet : str
        Orthogonal PyWavelets family (see :func:`wavefun`).
    n_max : int
        Training length (with ``dilation='unit'`` the atoms read ``u = p/n_max``).
    normalisation : {'l2', 'paper', 'none'}
        Amplitude ``c_j`` of scale ``j`` (:func:`wavelet_amplitude`).
    dilation : {'unit', 'position'}
        Whether atoms dilate ``p/n_max`` or the raw position ``p`` (:func:`wavelet_atoms`).
    resolution : int
        Grid step ``2**-resolution`` of the sampled ``psi``, read by linear interpolation.

    Yields
    ------
    j : int
        The scale, coarse to fine.
    cols : numpy.ndarray of int64, shape (n, S+1)
        Feature (column) index of each candidate atom at each position, ``-1`` where none.
    vals : numpy.ndarray, shape (n, S+1)
        Feature values ``c_j psi(2^j u - k)`` (0 where ``cols`` is ``-1``).

    Examples
    --------
    >>> import numpy as np
    >>> [(j, cols.shape) for j, cols, vals in wavelet_terms(np.arange(4), 8, n_max=4)]  # db2: S + 1 = 4
    [(0, (4, 4)), (1, (4, 4)), (2, (4, 4))]
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
    n, d : int
        Number of positions and of features (atoms, see :func:`wavelet_atoms`).
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

    Returns
    -------
    numpy.ndarray, shape (n, d)
        Column ``a`` holds ``c_j psi(2^j u - k)`` for the ``a``-th atom ``(j, k)``, ``u = p/n_max``
        (``'unit'``) or ``p`` (``'position'``).

    Raises
    ------
    ValidationError
        An unknown ``wavelet``, ``normalisation`` or ``dilation``, or ``resolution`` outside 4..16.

    Notes
    -----
    Atoms have compact support, so past the support of the coarsest atom every feature is
    exactly zero: the encoding of far positions is the zero vector (li2025's extrapolation
    statement is checked against this in ``li2025.wavelet_extrapolation``). Evaluation is
    sparse (:func:`wavelet_terms`): at most ``taps`` atoms per scale are non-zero at a position.

    See Also
    --------
    wavelet_atoms : which (scale, shift) each column holds.
    petheory.bounds.wavelet_norms : the row norms without the dense table.

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.wavelet(32, 16).shape
    (32, 16)
    >>> import numpy as np
    >>> P = encodings.wavelet(16, 8, n_max=4)  # db2, 'unit': supports end at t = S = 3, p = 12
    >>> bool((P[12:] == 0).all()), bool((np.abs(P[:12]).sum(axis=1) > 0).all())
    (True, True)
    """
    n, d = table_shape(n, d)
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
#: 'exp' map: :math:`x(p) = 1 - 2\\exp(-r p / (N_{max}-1))` with rate :math:`r = \\ln 20`, so :math:`x(N_{max}-1) = 0.9`.
LEGENDRE_EXP_RATE = math.log(20.0)


def legendre_positions(pos, n_max: int, *, position_map: str = "linear", beyond: str = "clip") -> np.ndarray:
    """The points ``x(p)`` at which the Legendre encoding evaluates ``P_k``, shape like ``pos``.

    'linear': ``x = 2p/(n_max-1) - 1`` (training positions fill [-1, 1]; past ``n_max`` the value
    exceeds 1 and ``beyond='clip'`` holds it at 1). 'exp': ``x = 1 - 2 exp(-ln(20) p/(n_max-1))``
    (training positions fill [-1, 0.9]; x < 1 always and x -> 1 as p -> infinity, so the encoding
    saturates asymptotically, never exactly).

    Parameters
    ----------
    pos : array_like
        Positions ``p`` (any shape).
    n_max : int
        Training length (at least 2): positions ``0 .. n_max-1`` map onto the training interval.
    position_map : {'linear', 'exp'}
        The map ``x(p)`` (see above).
    beyond : {'clip', 'extrapolate'}
        Whether values of ``x`` above 1 are held at 1 or kept (only the ``'linear'`` map exceeds 1).

    Returns
    -------
    numpy.ndarray
        ``x(p)``, float64, the shape of ``pos``.

    Examples
    --------
    >>> legendre_positions([0, 2, 4, 6], 5).tolist()  # position 6 is past n_max: held at 1
    [-1.0, 0.0, 1.0, 1.0]
    >>> legendre_positions([0, 2, 4, 6], 5, beyond="extrapolate").tolist()
    [-1.0, 0.0, 1.0, 2.0]
    >>> legendre_positions([0, 4], 5, position_map="exp").round(6).tolist()  # the last training position: 0.9
    [-1.0, 0.9]
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

    Parameters
    ----------
    n, d : int
        Number of positions and of polynomials (degrees ``0 .. d-1``).
    n_max : int, optional
        Training length, at least 2 (default ``start + n``).
    beyond : {'clip', 'extrapolate'}
        Past ``n_max`` with the linear map: hold ``x`` at 1 (``P_k(1) = 1``) or evaluate ``P_k`` at ``x > 1``.
    orthonormal : bool
        Scale column ``k`` by ``sqrt((2k+1)/2)``.
    start : int
        First position.
    position_map : {'linear', 'exp'}
        The map from positions to ``x`` (:func:`legendre_positions`).

    Returns
    -------
    numpy.ndarray, shape (n, d)
        ``PE[p, k] = c_k P_k(x(p))``, ``c_k = 1`` or ``sqrt((2k+1)/2)``.

    Raises
    ------
    ValidationError
        ``n_max < 2``.

    See Also
    --------
    legendre_positions : the map from positions to [-1, 1].

    Examples
    --------
    >>> from petheory import encodings
    >>> P = encodings.legendre(5, 3, n_max=4)
    >>> P.shape
    (5, 3)
    >>> [round(float(x), 6) for x in P[0]]  # P_0, P_1, P_2 at x = -1
    [1.0, -1.0, 1.0]
    """
    n, d = table_shape(n, d)
    pos = _positions(n, start)
    n_max = int(pos[-1]) + 1 if n_max is None else v.integer("n_max", n_max)
    if n_max < 2:
        raise ValidationError(f"legendre needs n_max >= 2 to map positions onto [-1, 1], got {n_max}")
    orthonormal = v.boolean("orthonormal", orthonormal)
    x = legendre_positions(pos, n_max, position_map=position_map, beyond=beyond)
    out = np.polynomial.legendre.legvander(x, d - 1)
    if orthonormal:
        out = out * np.sqrt((2.0 * np.arange(d) + 1.0) / 2.0)
    return out
