r"""Bias encodings: a logit bias ``B[i, j]`` for query ``i`` and key ``j`` of one head, shape (n, n).

ALiBi (press2022; li2025 §5.3, Eq. 9's drift is in :mod:`petheory.bounds`), T5's buckets
(raffel2020), one learned scalar per offset (shaw2018), and FIRE (li2024, Eq. 5). Causal masking
is not folded in: the attention that uses the bias applies it.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.encodings._registry import _bias_n, register
from petheory.errors import ValidationError, ValidationTypeError


# --------------------------------------------------------------------------- bias


def alibi_slopes(num_heads: int, schedule: str = "press") -> np.ndarray:
    r"""ALiBi slopes for ``num_heads`` heads, shape (H,).

    ``'press'``: the geometric sequence :math:`2^{-8h/H}`, h=1..H (Press et al. 2022); when H is
    not a power of two, the slopes of the closest lower power of two followed by every other
    slope of twice that power, as in the reference implementation.
    ``'gu2025'``: :math:`\exp(-h/H)`, h=1..H, read from gu2025's code (CLAIMS.md).

    Parameters
    ----------
    num_heads : int
        Number of heads H (>= 1).
    schedule : {'press', 'gu2025'}
        Which slope sequence.

    Returns
    -------
    numpy.ndarray, shape (H,)
        One slope per head, in (0, 1), head 1 first.

    Raises
    ------
    petheory.errors.ValidationError
        ``num_heads < 1`` or an unknown ``schedule``.

    References
    ----------
    press2022 (ALiBi, §3 and its reference implementation); gu2025 code.

    See Also
    --------
    alibi

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.alibi_slopes(4)
    array([0.25      , 0.0625    , 0.015625  , 0.00390625])
    >>> encodings.alibi_slopes(6)  # 4 heads' slopes, then every other one of 8 heads'
    array([0.25      , 0.0625    , 0.015625  , 0.00390625, 0.5       ,
           0.125     ])
    >>> encodings.alibi_slopes(4, schedule="gu2025").round(6)
    array([0.778801, 0.606531, 0.472367, 0.367879])
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
    """ALiBi logit bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    slope : float
        The head's slope (>= 0; see :func:`alibi_slopes`).
    form : {'symmetric', 'causal', 'key_index'}
        ``-slope * |i - j|``, ``-slope * (i - j)`` (meaningful on causal rows ``j <= i``) or
        ``slope * j`` (Press et al.'s implementation: ``'causal'`` plus a per-row constant).

    Returns
    -------
    numpy.ndarray, shape (n, n), float64
        ``B[i, j]`` for query ``i`` and key ``j``; no causal mask.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, a negative ``slope`` or an unknown ``form``.
    petheory._memory.MemoryLimitError
        An (n, n) matrix that cannot fit in memory.

    References
    ----------
    press2022 (ALiBi); li2025 §5.3.

    See Also
    --------
    alibi_slopes : the per-head slopes.
    petheory.toeplitz.alibi_symbol : its symbol in closed form.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> encodings.alibi(3, slope=0.5)
    array([[-0. , -0.5, -1. ],
           [-0.5, -0. , -0.5],
           [-1. , -0.5, -0. ]])
    >>> C, K = encodings.alibi(4, slope=0.5, form="causal"), encodings.alibi(4, slope=0.5, form="key_index")
    >>> bool(np.allclose(C - K, (C - K)[:, :1]))  # a per-row constant: the same row softmax
    True
    """
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

    Parameters
    ----------
    offsets : array_like of int
        Relative positions ``j - i`` (key minus query), any shape.
    bidirectional : bool
        Split the buckets between the two signs (encoder) or bucket only ``j <= i`` (causal decoder).
    num_buckets : int
        Number of buckets (>= 2; at least 4 when ``bidirectional``).
    max_distance : int
        Offset from which all offsets share the last bucket; must exceed the exact buckets
        (``num_buckets // 4`` bidirectional, ``num_buckets // 2`` causal).

    Returns
    -------
    numpy.ndarray of int64, shape of ``offsets``
        The bucket of each offset, in ``0..num_buckets-1``. The log buckets are computed in float32,
        as Mesh TensorFlow's T5 and transformers do, so that bucket edges match trained checkpoints.

    Raises
    ------
    petheory.errors.ValidationTypeError
        Non-integer ``offsets`` or a non-boolean ``bidirectional``.
    petheory.errors.ValidationError
        Too few buckets for an exact one, or ``max_distance`` not above the exact buckets.

    References
    ----------
    raffel2020 (T5); HF transformers ``T5Attention._relative_position_bucket``.

    See Also
    --------
    t5 : the bias built from these buckets.

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.t5_bucket([0, 1, -1, 100], num_buckets=8, max_distance=16)
    array([0, 5, 1, 7])
    >>> encodings.t5_bucket([0, 1, -1, -100], bidirectional=False, num_buckets=8, max_distance=16)  # future -> 0
    array([0, 0, 1, 7])
    """
    nb = v.integer("num_buckets", num_buckets, minimum=2)
    md = v.integer("max_distance", max_distance, minimum=1)
    bidirectional = v.boolean("bidirectional", bidirectional)
    rel = np.asarray(offsets)
    if not np.issubdtype(rel.dtype, np.integer):
        raise ValidationTypeError(f"offsets must be integers, got dtype {rel.dtype}")
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
        raise ValidationError(f"num_buckets={num_buckets} leaves no exact bucket; use at least {4 if bidirectional else 2}")
    if md <= max_exact:
        raise ValidationError(f"max_distance must exceed max_exact={max_exact}, got {md}")
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
    r"""T5 bucketed relative bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    bidirectional : bool
        Buckets for both signs of ``j - i`` (encoder) or for ``j <= i`` only (see :func:`t5_bucket`).
    num_buckets : int
        Number of buckets, and of ``values``.
    max_distance : int
        Offset from which all offsets share the last bucket (see :func:`t5_bucket`).
    values : array_like, shape (num_buckets,), optional
        The scalar of each bucket (the learned table of one head). Default: seeded draws from
        :math:`N(0, \mathrm{std}^2)`.
    seed : int or numpy.random.Generator
        Seed of the default ``values`` (ignored when ``values`` is given).
    std : float
        Standard deviation of the default ``values`` (> 0; ignored when ``values`` is given).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        ``B[i, j] = values[t5_bucket(j - i)]``: Toeplitz, no causal mask.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, ``values`` of the wrong length, or a bucketing :func:`t5_bucket` refuses.

    References
    ----------
    raffel2020 (T5); gu2025 §3.1.

    See Also
    --------
    t5_bucket

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> B = encodings.t5(4, num_buckets=8)
    >>> B.shape, bool((B.diagonal() == B[0, 0]).all())
    ((4, 4), True)
    >>> encodings.t5(4, num_buckets=8, max_distance=16, values=np.arange(8.0))  # the bucket index itself
    array([[0., 5., 6., 6.],
           [1., 0., 5., 6.],
           [2., 1., 0., 5.],
           [2., 2., 1., 0.]])
    """
    n = _bias_n(n)
    nb = v.integer("num_buckets", num_buckets, minimum=2)
    _memory.require(_memory.array_bytes(nb, itemsize=8), f"T5 bucket values (num_buckets = {nb})")
    if values is None:
        values = v.generator(seed).normal(0.0, v.real("std", std, positive=True), size=nb)
    values = v.array("values", values, ndim=1)
    if values.shape[0] != nb:
        raise ValidationError(f"values must have num_buckets={nb} entries, got {values.shape[0]}")
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
    r"""Learned per-offset scalar bias of one head, shape (n, n).

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    max_offset : int, optional
        Offsets ``j - i`` are clipped to ``[-max_offset, max_offset]`` (>= 0); default ``n - 1``
        (no clipping).
    values : array_like, shape (2 * max_offset + 1,), optional
        The scalar of each offset, most negative first. Default: seeded draws from
        :math:`N(0, \mathrm{std}^2)`.
    seed : int or numpy.random.Generator
        Seed of the default ``values`` (ignored when ``values`` is given).
    std : float
        Standard deviation of the default ``values`` (> 0; ignored when ``values`` is given).

    Returns
    -------
    numpy.ndarray, shape (n, n)
        ``B[i, j] = values[clip(j - i, -K, K) + K]``, ``K = max_offset``: Toeplitz, no causal mask.

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, a negative ``max_offset`` or ``values`` of the wrong length.

    References
    ----------
    shaw2018 (relative position representations, clipping); gu2025 code (CLAIMS.md).

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.relative(3, values=[-2.0, -1.0, 0.0, 1.0, 2.0], max_offset=2)  # B[i, j] = values[j - i + max_offset]
    array([[ 0.,  1.,  2.],
           [-1.,  0.,  1.],
           [-2., -1.,  0.]])
    >>> encodings.relative(4, values=[-1.0, 0.0, 1.0], max_offset=1)  # farther offsets share the end values
    array([[ 0.,  1.,  1.,  1.],
           [-1.,  0.,  1.,  1.],
           [-1., -1.,  0.,  1.],
           [-1., -1., -1.,  0.]])
    """
    n = _bias_n(n)
    K = n - 1 if max_offset is None else v.integer("max_offset", max_offset, minimum=0)
    _memory.require(_memory.array_bytes(2 * K + 1, itemsize=8), f"relative bias values (max_offset = {K})")
    if values is None:
        values = v.generator(seed).normal(0.0, v.real("std", std, positive=True), size=2 * K + 1)
    values = v.array("values", values, ndim=1)
    if values.shape[0] != 2 * K + 1:
        raise ValidationError(f"values must have 2*max_offset+1 = {2 * K + 1} entries, got {values.shape[0]}")
    idx = np.arange(n)
    return values[np.clip(idx[None, :] - idx[:, None], -K, K) + K]


# --------------------------------------------------------------------------- FIRE (learned relation)


def fire_input(q_pos, k_pos, *, c: float = 1.0, threshold: float = 1.0) -> np.ndarray:
    r"""FIRE's normalised offset ``sign(i-j) psi(|i-j|) / psi(max(L, i))``, ``psi(x) = log(c x + 1)``.

    ``q_pos`` (m,) and ``k_pos`` (p,) are query and key positions (fractional allowed: a Scale
    Hint may rescale them); returns (m, p). For ``j <= i`` (the causal part) this is FIRE's
    ``psi(i-j)/psi(max(L, i))`` in [0, 1] (li2024, Eq. 5: progressive interpolation); keys after
    the query get the negative mirror, so a bidirectional model can tell them apart.

    Parameters
    ----------
    q_pos : array_like, shape (m,)
        Query positions ``i``.
    k_pos : array_like, shape (p,)
        Key positions ``j``.
    c : float
        The slope ``c > 0`` of ``psi`` (learnable in FIRE, fixed here).
    threshold : float
        The threshold ``L > 0`` below which the normaliser stops shrinking (learnable in FIRE).

    Returns
    -------
    numpy.ndarray, shape (m, p)
        ``sign(i - j) log(c |i - j| + 1) / log(c max(L, |i|) + 1)``: in [0, 1] for ``j <= i``, in
        [-1, 0) for keys after the query.

    Raises
    ------
    petheory.errors.ValidationError
        A non-positive ``c`` or ``threshold``, positions that are not finite 1-d arrays.

    References
    ----------
    li2024 (FIRE, ICLR 2024), Eq. 5.

    See Also
    --------
    fire

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.fire_input([3.0], [0.0, 1.0, 2.0, 3.0]).round(6)  # the farthest key maps to 1
    array([[1.      , 0.792481, 0.5     , 0.      ]])
    >>> encodings.fire_input([2.0], [1.0, 3.0]).round(6)  # a key after the query: the negative mirror
    array([[ 0.63093, -0.63093]])
    """
    c = v.real("c", c, positive=True)
    L = v.real("threshold", threshold, positive=True)
    q = v.array("q_pos", q_pos, ndim=1)[:, None]
    k = v.array("k_pos", k_pos, ndim=1)[None, :]
    off = q - k
    return np.sign(off) * np.log1p(c * np.abs(off)) / np.log1p(c * np.maximum(L, np.abs(q)))


def fire_mlp_init(hidden: int, seed) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    r"""Seeded weights ``(w1 (hidden,), b1 (hidden,), w2 (hidden,), b2 ())`` of FIRE's 1-hidden-layer MLP.

    :math:`U(-1/\sqrt{\text{fan\_in}}, 1/\sqrt{\text{fan\_in}})` for every weight and bias, the scale of torch's
    ``nn.Linear`` default (the numbers differ from torch's: numpy draws them).

    Parameters
    ----------
    hidden : int
        Width of the hidden layer (>= 1).
    seed : int, numpy.random.Generator or None
        Seed of the draws (None is seed 0); the same seed gives the same weights.

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray, numpy.ndarray, float)
        ``w1``, ``b1`` (hidden,) in U(-1, 1) (fan-in 1), ``w2`` (hidden,) and the scalar ``b2`` in
        :math:`U(-1/\sqrt{\text{hidden}}, 1/\sqrt{\text{hidden}})`.

    Raises
    ------
    petheory.errors.ValidationError
        ``hidden < 1``.

    See Also
    --------
    fire

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> w1, b1, w2, b2 = encodings.fire_mlp_init(16, seed=0)
    >>> w1.shape, w2.shape, bool(np.abs(w2).max() <= 0.25 and abs(b2) <= 0.25)  # 1/sqrt(16)
    ((16,), (16,), True)
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
    """FIRE: a learned function of the progressively normalised offset, one head, shape (n, n).

    ``B[i, j] = f(x[i, j])`` with ``x`` from :func:`fire_input` on positions ``0..n-1`` and ``f`` a
    1-hidden-layer ReLU MLP, ``f(x) = relu(x w1 + b1) . w2 + b2``, weights from :func:`fire_mlp_init`.

    Parameters
    ----------
    n : int
        Number of positions (queries and keys).
    hidden : int
        Width of the MLP's hidden layer.
    c : float
        The slope of ``psi(x) = log(c x + 1)`` (> 0).
    threshold : float
        The threshold ``L`` of the normaliser ``psi(max(L, i))`` (> 0).
    seed : int or numpy.random.Generator
        Seed of the MLP's weights.

    Returns
    -------
    numpy.ndarray, shape (n, n)
        The bias; no causal mask (keys after the query see the mirrored input).

    Raises
    ------
    petheory.errors.ValidationError
        ``n < 1``, ``hidden < 1``, a non-positive ``c`` or ``threshold``.

    References
    ----------
    li2024 (FIRE: Functional Interpolation for Relative Positions, ICLR 2024), Eq. 5.

    See Also
    --------
    fire_input, fire_mlp_init

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> B = encodings.fire(5)
    >>> B.shape, bool(np.allclose(B.diagonal(), B[0, 0]))
    ((5, 5), True)
    >>> bool(np.allclose(B[1:, 0], B[1, 0]))  # progressive: key 0 is at input 1 from every later query
    True
    """
    n = v.integer("n", n, minimum=1)
    w1, b1, w2, b2 = fire_mlp_init(hidden, seed)
    pos = np.arange(n, dtype=np.float64)
    x = fire_input(pos, pos, c=c, threshold=threshold)
    return np.maximum(x[..., None] * w1 + b1, 0.0) @ w2 + b2
