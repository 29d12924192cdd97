r"""Position-only linear attention (POLA) and Linear Representation Complexity (LRC).

**Reconstruction** (chen2025 gives only the abstract). A POLA is ``y = A(P) X W`` where the
attention matrix depends on the positions alone, ``A = M ∘ (phi(P) Q phi(P)^T)`` for an absolute
PE (``M`` the causal mask or all ones), and the analogue for the other kinds: every PE of the
registry supplies *pair features* ``g_k(i, j)`` and a POLA at length ``n`` computes
``A_n = M_n ∘ sum_k theta_k G_{n,k}`` with ``G_{n,k}[i, j] = g_k(pi_i, pi_j)`` (``pi`` the
positions the PE sees: ``0..L-1``, or a Scale Hint's, :func:`~petheory.lengthgen.targets.hint_positions`).

Dictionaries (what "expressed in the PE's basis" means, per PE):

* **dense**, a fixed number ``D`` of features whatever the length:
  absolute tables ``phi`` (sinusoidal, wavelet, legendre, random): ``g = phi(i) ⊗ phi(j)``
  (``D = d^2``, ``theta = vec Q``); rotary: ``cos`` and ``sin`` of ``angle(j) - angle(i)`` per
  frequency (``D = r``; ``q^T R_{j-i} k = tr(Q R_{j-i})``); a fixed Toeplitz bias (ALiBi): one
  feature ``b(i-j)`` (the bias times a learned scalar).
* **keyed**, one indicator feature per distinct *key*, so the dictionary grows with the
  lengths seen: ``learned`` (a free table per position: one-hot, key ``(pi_i, pi_j)``),
  ``relative`` (key: the clipped offset), ``t5`` (key: the bucket), ``fire`` (key: FIRE's
  normalised offset, :func:`petheory.encodings.fire_input`; a universal MLP of it can take any
  value per key). NoPE has no pair feature: it is rejected (a POLA would have no input).

**LRC** (definition used here). Stack the specified, unmasked entries of ``T_1..T_N`` into one
least-squares problem ``D_N theta = t_N`` (one column per feature of the dictionary up to N).
The family is *realisable by one length-independent POLA up to N* when its residual is within
``tol_res`` (below). Then

* keyed: ``LRC(N)`` = number of keys carrying a nonzero coefficient (columns have disjoint
  supports, so this is the rank of the columns the target uses, exactly, and the least-squares
  solution is the per-key mean);
* dense: ``LRC(N) = rank(D_N)``, the number of independent parameters the PE pins down up to N
  (at most ``D``);

and ``LRC(N) = inf`` when the family is not realisable. "Length generalisation" of a POLA
(:func:`generalises`): the minimum-norm realisation fitted on sizes ``<= N_train`` (keys never
seen in training get 0) realises every size ``<= N_test``.

Alternatives considered: the smallest rank of ``Q`` (natural for absolute PEs but undefined for
bias and keyed dictionaries); the l0-smallest support in a dense dictionary (basis dependent and
combinatorial); the number of distinct target rows (ignores the PE). The rank reading keeps one
definition for every PE and is computed exactly by an SVD.

Numerics (one rule): numerical rank = number of singular values above
``tol_rank = max(m, p) eps sigma_max`` (``numpy.linalg.matrix_rank``'s rule); a residual
counts as zero when ``||D theta - t|| <= tol_res = max(m, p) eps (sigma_max ||theta|| + ||t||)``.
Certificates: the residual and its tolerance, and the rank gap ``sigma_r / sigma_{r+1}``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np

from petheory import _validate as v
from petheory._validate import Each, Interval, validate_params
from petheory import encodings as enc
from petheory.lengthgen.targets import HINTS, Target, check_target, hint_positions, segments, target
from petheory.errors import ValidationError, ValidationTypeError

EPS = float(np.finfo(np.float64).eps)
KEYED = ("learned", "relative", "t5", "fire")
_N_MAX = 64  # wavelet/legendre map positions through n_max: pinned so tables never rescale with L


@dataclass(frozen=True)
class PolaPE:
    """A registry PE as a POLA dictionary (see the module docstring).

    Attributes
    ----------
    name : str
        Registry name of the encoding.
    kind : str
        Its kind (``'absolute'``, ``'bias'``, ``'rotary'``).
    mode : str
        ``'keyed'`` (a coefficient per relative key) or ``'dense'`` (a linear map of the features).
    d : int
        Feature dimension.
    params : dict
        The encoding's parameters.
    """

    name: str
    kind: str
    mode: str  # 'keyed' | 'dense'
    d: int
    params: dict = field(default_factory=dict)


def pola_pe(pe, *, d: int = 8, **params) -> PolaPE:
    """The POLA dictionary of registry encoding ``pe`` (a name or a :class:`PolaPE`).

    ``d`` is the width of absolute and rotary features. Raises ``ValueError`` for an unknown
    name or a PE without positions (``nope``, an all-zero table), ``TypeError`` for a non-string.

    Parameters
    ----------
    pe : str or PolaPE
        A registry name (``petheory encodings`` lists them); a :class:`PolaPE` is returned as it is.
    d : int, optional
        Width of the absolute and rotary position vectors, even (default 8); ignored by keyed and bias PEs.
    **params
        Passed to the registry encoding (``base`` for RoPE, ``max_offset`` for ``relative``, ...).

    Returns
    -------
    PolaPE
        The name, the registry kind, the dictionary mode (``'keyed'`` for ``learned``, ``relative``,
        ``t5`` and ``fire``, else ``'dense'``), ``d`` and the parameters.

    Raises
    ------
    ValueError
        An unknown name, an odd ``d``, or a PE without positions (``nope``, an all-zero absolute table).
    TypeError
        ``pe`` is neither a string nor a :class:`PolaPE`.

    Examples
    --------
    >>> from petheory.lengthgen import pola_pe
    >>> pola_pe('rope', d=4)
    PolaPE(name='rope', kind='rotary', mode='dense', d=4, params={})
    >>> pola_pe('relative').mode  # one feature per clipped offset
    'keyed'
    """
    if isinstance(pe, PolaPE):
        return pe
    if not isinstance(pe, str):
        raise ValidationTypeError(f"a POLA PE is a registry name such as 'rope' or 'relative', got {type(pe).__name__}")
    info = enc.info(pe)  # ValueError for an unknown name
    if pe == "nope":
        raise ValidationError("'nope' has no positions: a position-only linear attention needs a positional encoding "
                         f"(absolute, rotary or bias), e.g. {', '.join(enc.available('bias'))}")
    d = v.even("d", d)
    mode = "keyed" if pe in KEYED else "dense"
    out = PolaPE(pe, info.kind, mode, d, dict(params))
    if mode == "dense" and info.kind == "absolute":
        if not np.any(position_table(out, 4)):
            raise ValidationError(f"{pe!r} gives all-zero position vectors: it has no positions for a POLA")
    return out


def position_table(pe: PolaPE, n: int) -> np.ndarray:
    """The table :math:`\\Phi_n` (n, d) of the PE's position vectors that the POLA features are built from
    (registry encoding with the spec's parameters; a learned table gets ``n_max`` = the POLA's).

    Parameters
    ----------
    pe : PolaPE
        An absolute PE's dictionary (:func:`pola_pe`); its ``d`` and parameters go to the registry encoding.
    n : int
        Number of positions ``0..n-1``.

    Returns
    -------
    numpy.ndarray, shape (n, d)
        The position vectors, float64. Encodings that take ``n_max`` (wavelet, legendre, learned) get a
        fixed one (64) unless the spec sets it, so row ``p`` does not depend on ``n``.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.lengthgen import pola_pe
    >>> pe = pola_pe('legendre', d=4)
    >>> position_table(pe, 3).shape
    (3, 4)
    >>> np.array_equal(position_table(pe, 3), position_table(pe, 6)[:3])  # rows do not rescale with n
    True
    """
    fn = enc.get(pe.name)
    kw = dict(pe.params)
    if "n_max" in inspect.signature(fn).parameters:
        kw.setdefault("n_max", _N_MAX)
    return np.asarray(fn(n, pe.d, **kw), dtype=np.float64)


def _integer(pos: np.ndarray) -> bool:
    return bool(np.all(pos == np.round(pos)))


def _bias_of_offset(pe: PolaPE, off: np.ndarray) -> np.ndarray:
    """A Toeplitz bias as a function of the offset ``i - j``, read off the registry matrix.

    Linear interpolation between integer offsets: exact for ALiBi (piecewise linear in the offset)."""
    M = int(np.ceil(np.abs(off).max())) + 1
    B = np.asarray(enc.get(pe.name)(2 * M + 1, **pe.params), dtype=np.float64)
    if not np.array_equal(B, _toeplitz(B)):
        raise ValidationError(f"{pe.name!r} is not a function of the offset i-j alone; a POLA needs a Toeplitz bias")
    grid = np.arange(-M, M + 1, dtype=np.float64)  # offset o = i - j: B[M, M - o]
    row = B[M, M - np.arange(-M, M + 1)]
    return np.interp(off, grid, row)


def _toeplitz(B: np.ndarray) -> np.ndarray:
    n = B.shape[0]
    i = np.arange(n)
    o = i[:, None] - i[None, :]  # Toeplitz: B[i, j] depends on i - j only, so it is fixed by the first column and row
    return np.where(o >= 0, B[o.clip(0), 0], B[0, (-o).clip(0)])


def basis(pe, pos, seg=None) -> tuple[str, np.ndarray]:
    """The pair features at positions ``pos`` (L,): ``('dense', F (L, L, D))`` or ``('keyed', K (L, L, m))``.

    Keyed: ``K[i, j]`` is the key (m numbers) of pair ``(i, j)``; equal keys share one feature.
    ``seg`` (L,), optional: segment indices (the 'shift' Scale Hint); keyed keys then also carry
    the segment distance ``seg_i - seg_j``.

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`; a name gets the default ``d = 8``).
    pos : array_like, shape (L,)
        The positions the PE sees, ``L >= 1`` (integers ``0..L-1``, or a Scale Hint's,
        :func:`~petheory.lengthgen.targets.hint_positions`). Absolute tables, T5 and the non-RoPE rotary
        variants need integer positions ``>= 0``.
    seg : array_like, shape (L,), optional
        Segment indices (:func:`~petheory.lengthgen.targets.segments`); used by keyed PEs only.

    Returns
    -------
    mode : str
        ``'dense'`` or ``'keyed'``.
    B : numpy.ndarray, shape (L, L, D) or (L, L, m)
        Dense: the features ``g_k(pi_i, pi_j)`` (``D = d^2`` for an absolute table; for rotary, cos and sin
        of ``angle(j) - angle(i)`` per frequency, ``D = d`` for full RoPE; ``D = 1`` for a Toeplitz bias).
        Keyed: the key of each pair (``learned``: ``(pi_i, pi_j)``; ``relative``: the clipped offset
        ``pi_j - pi_i``; ``t5``: the bucket; ``fire``: FIRE's normalised offset), plus ``seg_i - seg_j`` when
        ``seg`` is given.

    Raises
    ------
    ValueError
        Empty positions, fractional positions where the PE needs integers, ``seg`` of another shape, or a
        bias that is not a function of ``i - j``.

    Examples
    --------
    >>> import numpy as np
    >>> mode, K = basis('relative', np.arange(3.0))
    >>> mode, K.shape
    ('keyed', (3, 3, 1))
    >>> K[..., 0]  # key of pair (i, j): the offset j - i
    array([[ 0.,  1.,  2.],
           [-1.,  0.,  1.],
           [-2., -1.,  0.]])
    >>> basis('rope', np.arange(3.0))[1].shape  # d = 8: cos and sin of 4 frequencies
    (3, 3, 8)
    """
    mode, B = _basis(pola_pe(pe), pos)
    if seg is not None and mode == "keyed":
        seg = v.array("seg", seg, ndim=1)
        if seg.shape != np.shape(pos):
            raise ValidationError(f"seg must have the shape of pos {np.shape(pos)}, got {seg.shape}")
        B = np.concatenate([B, (seg[:, None] - seg[None, :])[..., None]], -1)
    return mode, B


def _basis(pe: PolaPE, pos) -> tuple[str, np.ndarray]:
    pos = v.array("pos", pos, ndim=1)
    if pos.size < 1:
        raise ValidationError("positions must be a non-empty (L,) array; lengths start at 1")
    integer = _integer(pos)
    qi, kj = pos[:, None], pos[None, :]
    if pe.mode == "keyed":
        if pe.name == "learned":
            return "keyed", np.stack(np.broadcast_arrays(qi, kj), -1)
        if pe.name == "relative":
            off = kj - qi  # registry convention: B[i, j] = w[clip(j - i)]
            K = pe.params.get("max_offset")
            return "keyed", (off if K is None else np.clip(off, -K, K))[..., None]
        if pe.name == "t5":
            if not integer:
                raise ValidationError("t5 buckets need integer positions; the 'interp' Scale Hint makes them fractional")
            kw = {k: pe.params[k] for k in ("bidirectional", "num_buckets", "max_distance") if k in pe.params}
            off = np.rint(kj - qi).astype(np.int64)
            return "keyed", enc.t5_bucket(off, **kw).astype(np.float64)[..., None]
        kw = {k: pe.params[k] for k in ("c", "threshold") if k in pe.params}
        return "keyed", enc.fire_input(pos, pos, **kw)[..., None]
    if pe.kind == "absolute":
        if not integer or pos.min() < 0:
            raise ValidationError(f"absolute table {pe.name!r} is defined at integer positions >= 0; the 'interp' Scale "
                             "Hint makes them fractional (use a rotary, alibi, fire or keyed PE)")
        phi = position_table(pe, int(pos.max()) + 1)[pos.astype(np.int64)]  # (L, d)
        F = phi[:, None, :, None] * phi[None, :, None, :]
        return "dense", F.reshape(pos.size, pos.size, -1)
    if pe.kind == "rotary":
        if integer and pos.min() >= 0:
            ang = enc.get(pe.name)(int(pos.max()) + 1, pe.d, **pe.params).angles[pos.astype(np.int64)]
        elif pe.name == "rope":
            kw = {k: pe.params[k] for k in ("base", "rotary_dim") if k in pe.params}
            ang = pos[:, None] * enc.rope_frequencies(pe.d, **kw)[None, :]
        else:
            raise ValidationError(f"rotary {pe.name!r} is tabulated at integer positions only; fractional ones need 'rope'")
        diff = ang[None, :, :] - ang[:, None, :]  # angle(j) - angle(i)
        return "dense", np.concatenate([np.cos(diff), np.sin(diff)], -1)
    return "dense", _bias_of_offset(pe, qi - kj)[..., None]


def _entries(pe, t: Target, masked: bool, hint: str, ref_scale: float):
    """(features or keys of the specified entries (m, .), target values (m,))."""
    mode, B = basis(pe, hint_positions(t, hint, ref_scale=ref_scale), segments(t) if hint == "shift" else None)
    L = t.length
    allowed = np.tril(np.ones((L, L), dtype=bool)) if masked else np.ones((L, L), dtype=bool)
    sel = allowed & t.rows[:, None]
    return mode, B[sel], t.T[sel]


def _family(name, sizes, k):
    if isinstance(name, str):
        return [target(name, n, k=k) for n in sizes]
    fam = [check_target(t) for t in name]
    if not fam:
        raise ValidationError("a target family needs at least one operator")
    return fam


def _sizes(N: int, n_min: int) -> range:
    N = v.integer("N", N, minimum=1)
    n_min = v.integer("n_min", n_min, minimum=1, maximum=N)
    return range(n_min, N + 1)


@dataclass(frozen=True)
class Realisation:
    """A length-independent POLA fitted to a target family, with its certificates.

    Attributes
    ----------
    pe : str
        The encoding's name.
    mode : str
        ``'keyed'`` or ``'dense'`` (as :class:`PolaPE`).
    theta : numpy.ndarray
        The fitted coefficients: shape (D,) dense, one value per key keyed.
    keys : numpy.ndarray, shape (a, m), or None
        The keys in the order of ``theta`` (keyed only).
    residual : float
        Largest residual of the fit over the specified rows.
    residual_tol : float
        The rounding bound it is judged against (realised when ``residual <= residual_tol``).
    rank : int
        Numerical rank of the system.
    sigma_r : float
        Smallest kept singular value (keyed: square root of the smallest key count).
    sigma_next : float
        Largest dropped singular value (0 when none).
    rank_tol : float
        The threshold that separates them.
    used : int
        Keys with a nonzero coefficient (keyed), or the rank (dense).
    """

    pe: str
    mode: str
    theta: np.ndarray  # dense: (D,); keyed: values per key
    keys: np.ndarray | None  # keyed: (a, m) keys in the order of theta
    residual: float
    residual_tol: float
    rank: int
    sigma_r: float  # smallest kept singular value (keyed: sqrt of the smallest key count)
    sigma_next: float  # largest dropped one (0 when none)
    rank_tol: float
    used: int  # keyed: keys with a nonzero coefficient; dense: rank

    @property
    def realisable(self) -> bool:
        return self.residual <= self.residual_tol

    @property
    def rank_gap(self) -> float:
        return float("inf") if self.sigma_next == 0 else self.sigma_r / self.sigma_next


def _round_keys(K: np.ndarray) -> np.ndarray:
    return np.round(K, 9) + 0.0  # fractional keys (interp, fire): equal up to rounding = one feature


def fit_entries(mode: str, X: np.ndarray, y: np.ndarray, pe: str = "") -> Realisation:
    """Least-squares realisation of stacked entries ``X`` (m, D or key width) -> ``y`` (m,).

    Parameters
    ----------
    mode : {'dense', 'keyed'}
        The dictionary's mode (:func:`basis`).
    X : numpy.ndarray, shape (m, D) or (m, key width)
        Dense: the features of each entry. Keyed: the key of each entry; keys equal after rounding to 9
        decimals share one feature.
    y : numpy.ndarray, shape (m,)
        The target values of the entries.
    pe : str, optional
        The PE's name, recorded in the result.

    Returns
    -------
    Realisation
        Keyed: ``theta`` the mean of ``y`` per key (the least-squares solution; keys sorted, in ``keys``),
        ``used`` the keys with a nonzero target entry. Dense: the minimum-norm least-squares ``theta``
        over the singular values above ``max(m, D) eps sigma_max``, ``rank`` and ``used`` that many.
        Both with the residual ``||X theta - y||``, its tolerance and the rank certificates of the module
        docstring.

    Examples
    --------
    >>> import numpy as np
    >>> r = fit_entries('keyed', np.array([[0.0], [1.0], [0.0]]), np.array([1.0, 3.0, 1.0]))
    >>> r.theta, r.realisable  # one value per key, consistent entries
    (array([1., 3.]), True)
    >>> fit_entries('keyed', np.array([[0.0], [0.0]]), np.array([1.0, 2.0])).realisable  # key 0 wants 1 and 2
    False
    >>> fit_entries('dense', np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.array([2.0, 3.0, 5.0])).theta
    array([2., 3.])
    """
    m = y.size
    ny = float(np.linalg.norm(y))
    if mode == "keyed":
        keys, inv, counts = np.unique(_round_keys(X), axis=0, return_inverse=True, return_counts=True)
        inv = inv.reshape(-1)
        theta = np.bincount(inv, weights=y, minlength=len(keys)) / counts
        resid = float(np.linalg.norm(y - theta[inv]))
        nz = np.bincount(inv, weights=(y != 0).astype(float), minlength=len(keys)) > 0
        smax = float(np.sqrt(counts.max()))
        tol = max(m, len(keys)) * EPS * (smax * float(np.linalg.norm(theta)) + ny)
        return Realisation(pe, mode, theta, keys, resid, tol, len(keys), float(np.sqrt(counts.min())), 0.0,
                           max(m, len(keys)) * EPS * smax, int(nz.sum()))
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    rank_tol = max(X.shape) * EPS * (s[0] if s.size else 0.0)
    r = int(np.sum(s > rank_tol))
    theta = Vt[:r].T @ ((U[:, :r].T @ y) / s[:r])
    resid = float(np.linalg.norm(X @ theta - y))
    tol = max(X.shape) * EPS * ((s[0] if s.size else 0.0) * float(np.linalg.norm(theta)) + ny)
    return Realisation(pe, mode, theta, None, resid, tol, r, float(s[r - 1]) if r else 0.0,
                       float(s[r]) if r < s.size else 0.0, rank_tol, r)


def realise(pe, name, N: int, *, n_min: int = 1, masked: bool = True, hint: str = "none", k: int = 1,
            ref_scale: float = 8.0) -> Realisation:
    """Fit one length-independent POLA to the family ``name`` (or a list of Targets) at sizes n_min..N.

    The specified, allowed entries of every operator are stacked into one least-squares problem
    (:func:`fit_entries`).

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    name : str or list of Target
        A family of :data:`~petheory.lengthgen.targets.TARGETS`, or the operators themselves (then ``N``
        and ``n_min`` are not used).
    N : int
        Largest problem size, ``>= 1``.
    n_min : int, optional
        Smallest problem size, ``1 <= n_min <= N`` (default 1).
    masked : bool, optional
        Causal mask: only the entries ``j <= i`` are fitted (default True).
    hint : {'none', 'shift', 'interp'}, optional
        The Scale Hint that maps token indices to the positions the PE sees
        (:func:`~petheory.lengthgen.targets.hint_positions`).
    k : int, optional
        The shift of the ``'shift'`` target (default 1).
    ref_scale : float, optional
        The ``'interp'`` hint's reference scale (default 8).

    Returns
    -------
    Realisation
        The fitted coefficients with the residual, its tolerance and the rank certificates.

    Examples
    --------
    >>> r = realise('relative', 'shift', 6)
    >>> r.realisable, r.used  # one key (offset -1) carries the whole family
    (True, 1)
    >>> realise('learned', 'shift', 6).used  # a free table needs one entry per position pair (i, i-1)
    5
    """
    pe = pola_pe(pe)
    masked = v.boolean("masked", masked)
    v.choice("hint", hint, HINTS)
    fam = _family(name, _sizes(N, n_min) if isinstance(name, str) else (), k)
    mode, Xs, ys = None, [], []
    for t in fam:
        mode, X, y = _entries(pe, t, masked, hint, ref_scale)
        Xs.append(X)
        ys.append(y)
    return fit_entries(mode, np.concatenate(Xs), np.concatenate(ys), pe.name)


def decided(ratio: float, separation: float = 1e2) -> bool:
    """Whether residual / tolerance ``ratio`` decides realisability the same way on every machine.

    At most 1: the residual is within its rounding bound, an exact fit to the precision the
    arithmetic has; the ratio's value below 1 is rounding noise (0.008 on one processor's BLAS,
    0.013 on another's for the same fit), so no threshold below 1 is used. At least ``separation``:
    a misfit far beyond rounding. Between the two the decision is too close to call.

    Parameters
    ----------
    ratio : float
        A least-squares residual divided by its rounding bound (:func:`LRC`'s certificate).
    separation : float, optional
        How far above the rounding bound a residual must be to count as a misfit (default 100).

    Returns
    -------
    bool
        True when ``ratio <= 1`` or ``ratio >= separation``.

    Examples
    --------
    >>> decided(0.5), decided(3.0), decided(300.0)
    (True, False, True)
    """
    return ratio <= 1.0 or ratio >= separation


@dataclass(frozen=True)
class LRC:
    """LRC of one PE x target up to N, with the certificates of its realisation.

    Attributes
    ----------
    pe : str
        The encoding's name.
    target : str
        The target family's name.
    N : int
        The largest size the realisation covers.
    value : float
        The LRC: an integer, or ``inf`` when no POLA realises the family.
    realisation : Realisation
        The fitted POLA and its certificates.
    """

    pe: str
    target: str
    N: int
    value: float  # int-valued, or inf when not realisable
    realisation: Realisation

    def certified(self, separation: float = 1e2) -> bool:
        """Whether the decision is robust: :func:`decided` (the residual within its rounding bound, or beyond
        ``separation`` times it), and (dense) the rank gap sigma_r / sigma_{r+1} >= separation. Ill-conditioned
        dictionaries (absolute tables with low frequencies) often fail this: their LRC is then not a certified number."""
        r = self.realisation
        return decided(r.residual / max(r.residual_tol, np.finfo(float).tiny), separation) and r.rank_gap >= separation

    def summary_line(self) -> str:
        """N, the LRC, whether it is certified, the residual against its tolerance, the rank and its gap, in one line.

        Returns
        -------
        str
        """
        r = self.realisation
        return (f"N={self.N:3d}  LRC={self.value:>5}  certified={self.certified()!s:5}  residual={r.residual:.2e} "
                f"(tol {r.residual_tol:.1e})  rank={r.rank}  gap={r.rank_gap:.2e}")

    def as_dict(self) -> dict:
        r = self.realisation
        return {"pe": self.pe, "target": self.target, "N": self.N, "lrc": self.value, "certified": self.certified(),
                "residual": r.residual,
                "residual_tol": r.residual_tol, "rank": r.rank, "rank_gap": r.rank_gap, "rank_tol": r.rank_tol}


def lrc(pe, name: str, N: int, **kw) -> LRC:
    """Linear Representation Complexity of target family ``name`` under ``pe`` up to size N (module docstring).

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    name : str or list of Target
        The target family (a name of :data:`~petheory.lengthgen.targets.TARGETS`) or its operators.
    N : int
        Largest problem size.
    **kw
        Passed to :func:`realise` (``n_min``, ``masked``, ``hint``, ``k``, ``ref_scale``).

    Returns
    -------
    LRC
        ``value``: keyed, the number of keys with a nonzero coefficient; dense, the rank of the stacked
        features; ``inf`` when no length-independent POLA realises the family. With the realisation and
        its certificates (:meth:`LRC.certified`).

    Examples
    --------
    >>> lrc('relative', 'shift', 8).value
    1.0
    >>> lrc('learned', 'shift', 8).value  # grows with N
    7.0
    >>> lrc('relative', 'copy', 8).value  # the offset to gather depends on n: not realisable
    inf
    """
    r = realise(pe, name, N, **kw)
    value = float(r.used if r.mode == "keyed" else r.rank) if r.realisable else float("inf")
    return LRC(pola_pe(pe).name, name if isinstance(name, str) else "custom", int(N), value, r)


@validate_params({"lengths": [Each(Interval(Integral, 1, None))]})
def lrc_curve(pe, name: str, lengths, **kw) -> list[LRC]:
    """LRC(N) for each N in ``lengths``.

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    name : str or list of Target
        The target family, as in :func:`lrc`.
    lengths : iterable of int
        The largest problem sizes N.
    **kw
        Passed to :func:`realise`.

    Returns
    -------
    list of LRC
        One per entry of ``lengths``, in order.

    Examples
    --------
    >>> [c.value for c in lrc_curve('learned', 'shift', [2, 4, 8])]  # grows with N
    [1.0, 3.0, 7.0]
    >>> [c.value for c in lrc_curve('relative', 'shift', [2, 4, 8])]  # bounded
    [1.0, 1.0, 1.0]
    """
    return [lrc(pe, name, int(N), **kw) for N in lengths]


def predict_entries(r: Realisation, mode: str, X: np.ndarray) -> np.ndarray:
    """What realisation ``r`` gives on entries ``X``; keyed: keys unseen in the fit get 0.

    Parameters
    ----------
    r : Realisation
        A fitted POLA (:func:`realise`, :func:`fit_entries`).
    mode : {'dense', 'keyed'}
        The dictionary's mode.
    X : numpy.ndarray, shape (m, D) or (m, key width)
        Features (dense) or keys (keyed) of the entries, as :func:`basis` gives them.

    Returns
    -------
    numpy.ndarray, shape (m,)
        Dense: ``X @ r.theta``. Keyed: the fitted value of each entry's key (rounded to 9 decimals), 0 for
        a key not seen in the fit.

    Examples
    --------
    >>> import numpy as np
    >>> r = realise('relative', 'shift', 4)  # keys: the offsets -3..0
    >>> predict_entries(r, 'keyed', np.array([[-1.0], [-2.0], [-7.0]]))  # offset -7 never seen: 0
    array([1., 0., 0.])
    """
    if mode == "dense":
        return X @ r.theta
    keys = _round_keys(X)
    both, inv = np.unique(np.concatenate([r.keys, keys]), axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    vals = np.zeros(len(both))
    vals[inv[: len(r.keys)]] = r.theta  # training keys are unique, so each slot is written once
    return vals[inv[len(r.keys):]]


def generalises(pe, name: str, N_train: int, N_test: int, *, n_min: int = 1, masked: bool = True,
                hint: str = "none", k: int = 1, ref_scale: float = 8.0) -> tuple[bool, float]:
    """Whether the POLA fitted on sizes ``n_min..N_train`` realises every size up to ``N_test``.

    Returns ``(ok, worst)`` with ``worst`` the largest residual / tolerance over all sizes
    (<= 1 means realised; tolerances as in the module docstring, for each size's entries).

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    name : str
        The target family (a name of :data:`~petheory.lengthgen.targets.TARGETS`).
    N_train : int
        Largest size the POLA is fitted on (:func:`realise`).
    N_test : int
        Largest size it is tested on, ``>= N_train``.
    n_min : int, optional
        Smallest size, of the fit and of the test (default 1).
    masked, hint, k, ref_scale
        As in :func:`realise`.

    Returns
    -------
    ok : bool
        ``worst <= 1``: the fitted POLA realises every size ``n_min..N_test``.
    worst : float
        The largest ``||prediction - target|| / tolerance`` over those sizes (keys unseen in training
        predict 0, :func:`predict_entries`).

    Raises
    ------
    ValueError
        ``N_test < N_train``.

    Examples
    --------
    >>> generalises('relative', 'shift', 4, 8)
    (True, 0.0)
    >>> generalises('learned', 'shift', 4, 8)[0]  # the pairs (i, i-1) with i >= 4 were never trained
    False
    >>> generalises('relative', 'copy', 4, 8, hint='shift')  # the segment-aligned Scale Hint makes copy learnable
    (True, 0.0)
    """
    pe = pola_pe(pe)
    N_test = v.integer("N_test", N_test, minimum=1)
    if N_test < N_train:
        raise ValidationError(f"N_test must be >= N_train={N_train}, got {N_test}")
    r = realise(pe, name, N_train, n_min=n_min, masked=masked, hint=hint, k=k, ref_scale=ref_scale)
    worst = 0.0
    for n in range(n_min, N_test + 1):
        mode, X, y = _entries(pe, target(name, n, k=k), masked, hint, ref_scale)
        pred = predict_entries(r, mode, X)
        scale = np.linalg.norm(X, 2) if mode == "dense" and X.size else 1.0
        tol = max(X.shape[0], 1) * EPS * (scale * float(np.linalg.norm(r.theta)) + float(np.linalg.norm(y)))
        worst = max(worst, float(np.linalg.norm(pred - y)) / max(tol, np.finfo(float).tiny))
    return worst <= 1.0, worst


# --------------------------------------------------------------------------- POLAs at one length


def pola_matrix(pe, theta, pos, *, masked: bool = True, keys=None) -> np.ndarray:
    """The attention matrix ``A = M ∘ sum_k theta_k G_k`` (L, L) at positions ``pos``.

    Dense: ``theta`` (D,). Keyed: ``theta`` (a,) values of the keys ``keys`` (a, m); other keys 0.

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    theta : array_like, shape (D,) or (a,)
        Dense: one coefficient per feature of :func:`basis`. Keyed: the values of ``keys``.
    pos : array_like, shape (L,)
        The positions the PE sees.
    masked : bool, optional
        Apply the causal mask (keep ``j <= i``; default True).
    keys : array_like, shape (a, m), optional
        The keys of a keyed PE's ``theta`` (required for a keyed PE, ignored for a dense one).

    Returns
    -------
    numpy.ndarray, shape (L, L)
        The position-only attention matrix.

    Raises
    ------
    ValueError
        ``theta`` of the wrong length for a dense PE, or no ``keys`` for a keyed one.

    Examples
    --------
    >>> import numpy as np
    >>> pola_matrix('relative', [1.0], np.arange(4.0), keys=[[-1.0]])  # weight 1 on offset -1: a shift
    array([[0., 0., 0., 0.],
           [1., 0., 0., 0.],
           [0., 1., 0., 0.],
           [0., 0., 1., 0.]])
    >>> A = pola_matrix('alibi', [0.5], np.arange(3.0))  # 0.5 times ALiBi's bias -|i - j|, masked
    >>> np.array_equal(A, np.tril(-0.5 * np.abs(np.subtract.outer(np.arange(3), np.arange(3)))))
    True
    """
    mode, B = basis(pe, pos)
    L = B.shape[0]
    theta = v.array("theta", theta, ndim=1)
    if mode == "dense":
        if theta.shape[0] != B.shape[-1]:
            raise ValidationError(f"theta must have {B.shape[-1]} entries for {pola_pe(pe).name!r} at d={pola_pe(pe).d}, "
                             f"got {theta.shape[0]}")
        A = B @ theta
    else:
        if keys is None:
            raise ValidationError("a keyed PE needs keys= (a, m) for its theta values")
        A = predict_entries(Realisation("", "keyed", theta, np.asarray(keys, float), 0, 0, 0, 0, 0, 0, 0), "keyed",
                            B.reshape(L * L, -1)).reshape(L, L)
    return np.tril(A) if v.boolean("masked", masked) else A


def pola_output(A, X, W) -> np.ndarray:
    """``y = A X W``: (L, L) attention, ``(L, d_in)`` inputs, ``(d_in, d_out)`` value map -> ``(L, d_out)``.

    Parameters
    ----------
    A : array_like, shape (L, L)
        The attention matrix (:func:`pola_matrix`).
    X : array_like, shape (L, d_in)
        The token representations.
    W : array_like, shape (d_in, d_out)
        The value map.

    Returns
    -------
    numpy.ndarray, shape ``(L, d_out)``
        ``A @ X @ W``.

    Raises
    ------
    ValueError
        Shapes that do not chain.

    Examples
    --------
    >>> import numpy as np
    >>> A = pola_matrix('relative', [1.0], np.arange(4.0), keys=[[-1.0]])  # shift by one
    >>> pola_output(A, np.arange(4.0)[:, None], np.array([[2.0]])).ravel()  # y[i] = 2 x[i-1]
    array([0., 0., 2., 4.])
    """
    A = v.square("A", A)
    X = v.array("X", X, ndim=2)
    W = v.array("W", W, ndim=2)
    if X.shape[0] != A.shape[0] or W.shape[0] != X.shape[1]:
        raise ValidationError(f"shapes must chain (L, L) @ (L, d_in) @ (d_in, d_out); got {A.shape}, {X.shape}, {W.shape}")
    return A @ X @ W


def span_dimension(pe, n: int, *, masked: bool = True) -> int:
    """``dim S_n``: the dimension of the space of attention matrices the PE's POLAs realise at length n.

    Parameters
    ----------
    pe : str or PolaPE
        The PE (:func:`pola_pe`).
    n : int
        The length, ``>= 1`` (positions ``0..n-1``).
    masked : bool, optional
        Count only the causal entries ``j <= i`` (default True).

    Returns
    -------
    int
        Keyed: the number of distinct keys among the entries; dense: the numerical rank of the features
        (singular values above ``max(m, D) eps sigma_max``).

    Examples
    --------
    >>> span_dimension('relative', 4), span_dimension('relative', 4, masked=False)  # offsets 0..-3, or -3..3
    (4, 7)
    >>> span_dimension('learned', 4)  # every causal entry free: 4 * 5 / 2
    10
    >>> span_dimension('alibi', 4)  # one scalar times the bias
    1
    """
    n = v.integer("n", n, minimum=1)
    mode, B = basis(pe, np.arange(n, dtype=np.float64))
    allowed = np.tril(np.ones((n, n), dtype=bool)) if masked else np.ones((n, n), dtype=bool)
    X = B[allowed]
    if mode == "keyed":
        return len(np.unique(_round_keys(X), axis=0))
    s = np.linalg.svd(X, compute_uv=False)
    return int(np.sum(s > max(X.shape) * EPS * s[0])) if s.size else 0
