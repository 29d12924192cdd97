r"""li2025 §6: wavelet and Legendre PEs far from training (decay, support, growth, saturation); sinusoidal ambiguity.

wavelet (§6.1.4)
    sparse row norms, support end, envelope decay fits, scale constants, norm growth.
Legendre (li2025 §6, Table 2 "bounded")
    the norm bound, the saturation vector and how fast it is reached.
sinusoidal ambiguity (li2025's "periodic ambiguity beyond about 10000 positions")
    distance between encodings as a function of the offset, onset of near-collisions.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from numbers import Integral, Real

import numpy as np

from petheory import _memory
from petheory import encodings as enc
from petheory._validate import Each, Even, Interval, StrOptions, validate_params
from petheory.fits import fit_line, fit_power_law

_AT_LEAST_1 = Interval(Integral, 1, None)
#: A sinusoidal ladder's width and base (sin/cos pairs; base > 0).
_LADDER = {"d": [Even()], "base": [Interval(Real, 0, None, closed="neither")]}


# =============================================================================== wavelet


@validate_params({"n": [_AT_LEAST_1], "d": [_AT_LEAST_1], "start": [Interval(Integral, 0, None)],
                  "n_max": [_AT_LEAST_1, None], "normalisation": [StrOptions(enc.WAVELET_NORMALISATIONS)],
                  "dilation": [StrOptions(enc.WAVELET_DILATIONS)]})
def wavelet_norms(n: int, d: int, *, start: int = 0, wavelet: str = "db2", n_max: int | None = None,
                  normalisation: str = "l2", resolution: int = 10, dilation: str = "unit") -> np.ndarray:
    r""":math:`\lVert PE_{wav}(pos)\rVert_2` for positions ``start..start+n-1``, shape (n,), without the (n, d) table.

    Sums squares of :func:`petheory.encodings.wavelet_terms` (at most S+1 atoms per scale per
    position), so ``d`` may be in the tens of thousands. Same parameters as the encoding.

    Parameters
    ----------
    n : int
        Number of positions (>= 1).
    d : int
        Number of features of the encoding (>= 1).
    start : int
        First position (>= 0): the norms are those of positions ``start .. start+n-1``.
    wavelet : str
        Orthogonal discrete PyWavelets family (``'db2'``: 4-tap Daubechies, ``'db4'``: 8-tap, ``'haar'``, ...).
    n_max : int, optional
        Training length (default ``n``): ``t = pos / n_max`` ('unit'), the coarsest scale ('position').
    normalisation : {'l2', 'paper', 'none'}
        Amplitude ``c_j`` of scale ``j``: ``2^(j/2)``, ``2^(-j/2)`` or 1.
    resolution : int
        Cascade iterations PyWavelets uses to sample psi (grid step ``2**-resolution``).
    dilation : {'unit', 'position'}
        Whether the atoms dilate ``t = pos / n_max`` or the raw position (:func:`petheory.encodings.wavelet_atoms`).

    Returns
    -------
    numpy.ndarray
        Shape (n,): the row norms of :func:`petheory.encodings.wavelet` with the same arguments.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> norms = bounds.wavelet_norms(8, 16, n_max=8)
    >>> norms.shape, bool(np.allclose(norms, np.linalg.norm(encodings.wavelet(8, 16, n_max=8), axis=1)))
    ((8,), True)
    >>> bounds.wavelet_norms(3, 16, n_max=8, start=24).tolist()  # compact support: 0 from position S * n_max on
    [0.0, 0.0, 0.0]
    >>> bounds.wavelet_norms(2, 50_000, n_max=1000).shape  # no (n, d) table is built
    (2,)
    """
    n, d = int(n), int(d)
    n_max = n if n_max is None else int(n_max)
    pos = int(start) + np.arange(n, dtype=np.float64)
    sq = np.zeros(n)
    for _j, _cols, vals in enc.wavelet_terms(pos, d, wavelet=wavelet, n_max=n_max, normalisation=normalisation,
                                             dilation=dilation, resolution=resolution):
        sq += np.sum(vals**2, axis=1)
    return np.sqrt(sq)


def wavelet_support_length(wavelet: str = "db2") -> int:
    """Support length ``S = taps - 1`` of the mother wavelet (db2: 3, db4: 7).

    Parameters
    ----------
    wavelet : str
        Orthogonal discrete PyWavelets family (``'db2'``, ``'db4'``, ``'haar'``, ``'sym4'``, ...).

    Returns
    -------
    int
        The length of the support ``[0, S]`` of psi, in units of its argument.

    Examples
    --------
    >>> from petheory import bounds
    >>> [bounds.wavelet_support_length(w) for w in ("db2", "db4", "haar")]
    [3, 7, 1]
    """
    return enc.wavefun(wavelet, 4)[2] - 1


@validate_params({"d": [_AT_LEAST_1], "n_max": [_AT_LEAST_1]})
def wavelet_support_end(d: int, n_max: int, *, wavelet: str = "db2", dilation: str = "unit", resolution: int = 10) -> int:
    r"""First position from which every feature of the wavelet encoding is exactly 0.

    The largest right end :math:`(k+x_{end})2^{-j}` of the atoms used, in positions, where
    :math:`x_{end}` is the right end of PyWavelets' sampled :math:`\psi` (the support length S for
    Daubechies, symlets and coiflets; :math:`1+2^{-resolution}` for Haar, whose sampled
    :math:`\psi(1)=-1`). At most about :math:`S\,N_{max}` for 'unit' (the scale-0 atom with k=0)
    and :math:`S\,2^J` for 'position'.

    Parameters
    ----------
    d : int
        Number of features of the encoding (>= 1): it decides which atoms are used.
    n_max : int
        Training length (>= 1).
    wavelet : str
        Orthogonal discrete PyWavelets family.
    dilation : {'unit', 'position'}
        Whether the atoms dilate ``t = pos / n_max`` or the raw position.
    resolution : int
        Cascade iterations PyWavelets uses to sample psi (grid step ``2**-resolution``).

    Returns
    -------
    int
        The first position from which every feature is exactly 0 (the one before has a non-zero feature).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> end = bounds.wavelet_support_end(16, 8)
    >>> P = encodings.wavelet(end + 4, 16, n_max=8)
    >>> end, bool(np.all(P[end:] == 0)), bool(np.any(P[end - 1] != 0))  # db2 (S = 3), 'unit': end = S * n_max
    (24, True, True)
    """
    d, n_max = int(d), int(n_max)
    x, psi, taps = enc.wavefun(wavelet, resolution)
    atoms = enc.wavelet_atoms(d, taps - 1, dilation=dilation, n_max=n_max)
    end = max((k + float(x[-1])) * 2.0 ** (-j) for j, k in atoms) * (n_max if dilation == "unit" else 1)
    # np.interp returns psi[-1] at exactly x_end and 0 beyond: include the end point only if psi vanishes there
    return int(math.ceil(end)) if psi[-1] == 0 and end == math.ceil(end) else int(math.floor(end)) + 1


@dataclass(frozen=True)
class DecayFit:
    r"""Exponential envelope :math:`\lvert\psi(u)\rvert\le C e^{-\beta u}` of a mother wavelet (u from its left support end).

    Attributes
    ----------
    wavelet : str
        The mother wavelet's name (PyWavelets, e.g. ``'db2'``).
    beta : float
        Fitted decay rate :math:`\beta` of the envelope (OLS of :math:`\log\lvert\psi\rvert` on u over ``fit_range``).
    beta_ci : (float, float)
        Two-sided t-interval of ``beta`` at the fit's level (95% by default).
    C : float
        Smallest C valid for ``beta`` over the whole support: :math:`\max_u \lvert\psi(u)\rvert e^{\beta u}`.
    support : int
        Length of the support, ``taps - 1`` (u runs over 0..support).
    points : int
        Samples of :math:`\psi` the fit used.
    log_amplitude : float
        OLS intercept: the envelope is about :math:`\exp(\mathrm{log\_amplitude} - \beta u)` on the fit range.
    fit_range : (float, float)
        The range of u the line was fitted on.
    """

    wavelet: str
    beta: float
    beta_ci: tuple[float, float]
    C: float  # smallest C valid for beta, over the whole support: max_u |psi(u)| e^{beta u}
    support: int
    points: int
    log_amplitude: float = 0.0  # OLS intercept: the envelope is ~ exp(log_amplitude - beta u) on the fit range
    fit_range: tuple[float, float] = (0.0, 0.0)

    def as_dict(self) -> dict:
        return asdict(self)


def wavelet_decay_fit(wavelet: str = "db2", *, resolution: int = 10, floor: float = 1e-3, level: float = 0.95) -> DecayFit:
    r"""li2025 §6.1.4: fit the decay rate :math:`\beta` of the envelope of :math:`\lvert\psi\rvert` away from its peak.

    The envelope :math:`e(u)=\max_{u'\ge u}\lvert\psi(u')\rvert` is monotone; :math:`\log e` is
    regressed on :math:`u` from the peak to where :math:`e` falls below ``floor`` times its maximum
    (the compact support sends it to exactly 0 at :math:`u=S`, where no exponential fits).
    :math:`\beta=-\text{slope}`; the interval is the OLS t-interval (it measures how well one
    exponential describes a deterministic envelope, not noise). ``C`` is the smallest constant
    making :math:`\lvert\psi(u)\rvert\le Ce^{-\beta u}` hold on the whole support.

    Parameters
    ----------
    wavelet : str
        Orthogonal discrete PyWavelets family.
    resolution : int
        Cascade iterations PyWavelets uses to sample psi (grid step ``2**-resolution``): the samples fitted.
    floor : float
        The fit ends where the envelope falls below ``floor`` times its peak.
    level : float
        Confidence level of the interval on :math:`\beta`.

    Returns
    -------
    DecayFit
        ``beta``, ``beta_ci``, ``C``, the ``support`` length, the ``points`` fitted, ``log_amplitude``, ``fit_range``.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> f = bounds.wavelet_decay_fit("db2")
    >>> round(f.beta, 2), f.beta_ci[0] < f.beta < f.beta_ci[1], f.support
    (3.8, True, 3)
    >>> x, psi, _taps = encodings.wavefun("db2", 10)
    >>> bool(np.all(np.abs(psi) <= f.C * np.exp(-f.beta * x) * (1 + 1e-12)))  # the envelope bound holds everywhere
    True
    """
    x, psi, taps = enc.wavefun(wavelet, resolution)
    a = np.abs(psi)
    env = np.maximum.accumulate(a[::-1])[::-1]
    i0 = int(np.argmax(a))
    keep = np.arange(i0, x.size)
    keep = keep[env[keep] > floor * env[i0]]
    fit = fit_line(x[keep], np.log(env[keep]), level=level)
    beta = -fit.slope
    C = float(np.max(a * np.exp(beta * x)))
    return DecayFit(wavelet, float(beta), (-fit.slope_ci[1], -fit.slope_ci[0]), C, taps - 1, int(keep.size),
                    float(fit.intercept), (float(x[keep[0]]), float(x[keep[-1]])))


@validate_params({"d": [_AT_LEAST_1], "n_max": [_AT_LEAST_1], "beta": [Interval(Real, 0, None), None],
                  "samples_per_unit": [_AT_LEAST_1]})
def wavelet_scale_ratios(d: int, *, wavelet: str = "db2", n_max: int, normalisation: str = "l2",
                         dilation: str = "unit", beta: float | None = None, samples_per_unit: int = 64,
                         resolution: int = 10) -> dict:
    r"""Per scale j: the smallest :math:`C_j` with :math:`\lvert\psi_{j,k}(pos)\rvert\le C_j2^{-j/2}e^{-\beta\lvert2^ju-k\rvert}`.

    li2025 §6.1.4's bound with the paper's amplitude :math:`2^{-j/2}`, centre :math:`k2^{-j}`,
    width :math:`2^{-j}` (u = pos/n_max for 'unit', pos for 'position'). The atoms are read from
    the encoding itself (:func:`petheory.encodings.wavelet`), not from a formula: for 'unit' with
    its training length set to ``samples_per_unit * 2^jmax`` so that even the finest atom gets
    ``samples_per_unit`` samples per width (the atoms do not depend on ``n_max`` in this
    dilation); for 'position' at the integer positions where the encoding exists (``n_max`` sets
    the coarsest scale; the finest atoms are sampled once per position). ``beta`` defaults to the fitted
    :func:`wavelet_decay_fit` rate. Returns ``{"scales": [...], "C": [...], "beta": beta}``.
    A uniform constant C exists iff ``C`` stays bounded as scales are added.

    Parameters
    ----------
    d : int
        Number of features of the encoding (>= 1): it decides which scales are present.
    wavelet : str
        Orthogonal discrete PyWavelets family.
    n_max : int
        Training length (>= 1); sets the coarsest scale for 'position' dilation.
    normalisation : {'l2', 'paper', 'none'}
        Amplitude ``c_j`` of scale ``j``: ``2^(j/2)``, ``2^(-j/2)`` or 1.
    dilation : {'unit', 'position'}
        Whether the atoms dilate ``t = pos / n_max`` or the raw position.
    beta : float, optional
        Decay rate (>= 0) in the bound; default the fitted :func:`wavelet_decay_fit` rate.
    samples_per_unit : int
        Samples per unit width of the finest atom for 'unit' dilation (>= 1).
    resolution : int
        Cascade iterations PyWavelets uses to sample psi (grid step ``2**-resolution``).

    Returns
    -------
    dict
        ``scales`` (ascending), ``C`` (per scale; 0.0 where no atom is sampled) and ``beta`` (the rate used).

    Examples
    --------
    >>> from petheory import bounds
    >>> l2 = bounds.wavelet_scale_ratios(13, n_max=64, samples_per_unit=16)  # db2: 3 + 4 + 6 atoms, scales 0, 1, 2
    >>> l2["scales"], [round(c / l2["C"][0], 6) for c in l2["C"]]  # 'l2' atoms: C_j doubles per scale
    ([0, 1, 2], [1.0, 2.0, 4.0])
    >>> paper = bounds.wavelet_scale_ratios(13, n_max=64, normalisation="paper", samples_per_unit=16)
    >>> [round(c / paper["C"][0], 6) for c in paper["C"]]  # the paper's amplitude: one C for every scale
    [1.0, 1.0, 1.0]
    """
    d, n_max, spu = int(d), int(n_max), int(samples_per_unit)
    S = wavelet_support_length(wavelet)
    beta = wavelet_decay_fit(wavelet, resolution=resolution).beta if beta is None else float(beta)
    atoms = enc.wavelet_atoms(d, S, dilation=dilation, n_max=n_max)
    if dilation == "unit":
        # t = p / M with M = spu 2^jmax: every atom, down to the finest, gets >= spu samples per unit width
        M = spu * 2 ** max(j for j, _ in atoms)
        n = wavelet_support_end(d, M, wavelet=wavelet, dilation="unit")
        P = enc.wavelet(n, d, wavelet=wavelet, n_max=M, normalisation=normalisation, dilation="unit", resolution=resolution)
        u = np.arange(n) / M
    else:
        # raw positions are integers: the encoding exists only there, so sample exactly there
        n = wavelet_support_end(d, n_max, wavelet=wavelet, dilation="position")
        P = enc.wavelet(n, d, wavelet=wavelet, n_max=n_max, normalisation=normalisation, dilation="position",
                        resolution=resolution)
        u = np.arange(n, dtype=np.float64)
    out_j, out_C = [], []
    for j in sorted({a[0] for a in atoms}):
        cols = [i for i, (jj, _k) in enumerate(atoms) if jj == j]
        ks = np.array([atoms[i][1] for i in cols], dtype=np.float64)
        dist = np.abs(2.0**j * u[:, None] - ks[None, :])  # (n, K)
        a = np.abs(P[:, cols])
        nz = a > 0  # outside its support an atom is exactly 0 and bounds nothing
        # |psi_jk| / (2^(-j/2) e^(-beta dist)), in log space (e^(-beta dist) underflows far from the atom)
        logr = np.log(a[nz]) + (j / 2) * math.log(2.0) + beta * dist[nz]
        out_j.append(int(j))
        out_C.append(float(np.exp(np.max(logr))) if logr.size else 0.0)
    return {"scales": out_j, "C": out_C, "beta": beta}


@validate_params({"sizes": [Each(Interval(Integral, 4, None))], "d": [_AT_LEAST_1, StrOptions({"full"})]})
def wavelet_norm_growth(sizes, *, wavelet: str = "db2", normalisation: str = "none", dilation: str = "unit",
                        d: int | str = "full") -> dict:
    r"""li2025's unnormalised wavelet growth :math:`O(N_{max}\sqrt{\log N_{max}})` (Table 2), measured: :math:`\sup_{pos<N_{max}}\lVert PE_{wav}(pos)\rVert_2` for each :math:`N_{max}` in ``sizes``, and fits.

    ``d='full'``: as many atoms as reach the finest scale that resolves one position (the
    reading under which the norm can depend on :math:`N_{max}`: :math:`2^{j}\ge N_{max}` for
    'unit', :math:`j=0` for 'position'); an int: fixed width. Returns the sizes, the sup norms,
    the power-law fit of the norm (exponent with CI) and of the ratio to
    :math:`N_{max}\sqrt{\log N_{max}}` (li2025's unnormalised growth; an exponent <= 0 means the
    norm grows no faster).

    Parameters
    ----------
    sizes : iterable of int
        The training lengths :math:`N_{max}` (each >= 4); the norms are taken over positions ``0..N_max-1``.
    wavelet : str
        Orthogonal discrete PyWavelets family.
    normalisation : {'none', 'l2', 'paper'}
        Amplitude ``c_j`` of scale ``j``: 1, ``2^(j/2)`` or ``2^(-j/2)``.
    dilation : {'unit', 'position'}
        Whether the atoms dilate ``t = pos / n_max`` or the raw position.
    d : int or 'full'
        ``'full'`` (atoms down to the scale that resolves one position: grows with :math:`N_{max}`) or a fixed width.

    Returns
    -------
    dict
        ``sizes``, ``d`` (the width at each size), ``sup_norm``, ``fit`` and ``ratio_fit`` (power-law fits as
        dicts: ``slope``, ``slope_ci``, ...), ``wavelet``, ``normalisation``, ``dilation``, ``d_policy`` (``d``).

    Examples
    --------
    >>> from petheory import bounds
    >>> g = bounds.wavelet_norm_growth([16, 32, 64, 128], normalisation="l2")
    >>> g["d"]  # 'full': atoms down to the scale that resolves one position
    [41, 75, 141, 271]
    >>> round(g["fit"]["slope"], 2), g["ratio_fit"]["slope_ci"][1] < 0  # ~ sqrt(N_max): below N_max sqrt(log N_max)
    (0.5, True)
    """
    sizes = [int(s) for s in sizes]
    S = wavelet_support_length(wavelet)
    norms, widths = [], []
    for N in sizes:
        if d == "full":
            if dilation == "unit":
                jf = int(math.ceil(math.log2(N)))
                width = sum(2**j + S - 1 for j in range(jf + 1))
            else:
                J = int(math.ceil(math.log2(N)))
                width = sum((-(-N // 2 ** (-j)) + S - 1) for j in range(-J, 1))
        else:
            width = int(d)
        widths.append(width)
        norms.append(float(np.max(wavelet_norms(N, width, wavelet=wavelet, n_max=N, normalisation=normalisation,
                                                dilation=dilation))))
    N = np.array(sizes, dtype=np.float64)
    fit = fit_power_law(N, norms)
    ratio = np.array(norms) / (N * np.sqrt(np.log(N)))
    rfit = fit_power_law(N, ratio)
    return {"sizes": sizes, "d": widths, "sup_norm": norms, "fit": fit.as_dict(), "ratio_fit": rfit.as_dict(),
            "wavelet": wavelet, "normalisation": normalisation, "dilation": dilation, "d_policy": d}


# =============================================================================== Legendre


@validate_params({"d": [_AT_LEAST_1]})
def legendre_norm_bound(d: int, orthonormal: bool = False) -> float:
    r"""li2025 Table 2, Legendre "bounded": :math:`\sup_{x\in[-1,1]}\lVert(c_kP_k(x))_k\rVert_2=(\sum_kc_k^2)^{1/2}`, attained at x=1 where :math:`P_k(1)=1`.

    Parameters
    ----------
    d : int
        Number of features (degrees ``k = 0..d-1``, >= 1).
    orthonormal : bool
        ``c_k = sqrt((2k+1)/2)`` (True) or ``c_k = 1`` (False), as in :func:`petheory.encodings.legendre`.

    Returns
    -------
    float
        The bound: ``sqrt(d)``, or ``d / sqrt(2)`` when orthonormal.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> bounds.legendre_norm_bound(4), round(bounds.legendre_norm_bound(4, orthonormal=True), 6)
    (2.0, 2.828427)
    >>> norms = np.linalg.norm(encodings.legendre(10, 4, n_max=10), axis=1)
    >>> bool(norms.max() <= 2.0), round(float(norms[-1]), 6)  # attained at the last training position (x = 1)
    (True, 2.0)
    """
    d = int(d)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre constants (d = {d})")
    c2 = (2.0 * np.arange(d) + 1.0) / 2.0 if orthonormal else np.ones(d)
    return float(math.sqrt(c2.sum()))


@validate_params({"d": [_AT_LEAST_1]})
def legendre_limit(d: int, orthonormal: bool = False) -> np.ndarray:
    r"""li2025 §6, Legendre saturation: the vector :math:`PE_\infty=(c_kP_k(1))_k=(c_k)_k`, shape (d,).

    Parameters
    ----------
    d : int
        Number of features (>= 1).
    orthonormal : bool
        ``c_k = sqrt((2k+1)/2)`` (True) or ``c_k = 1`` (False), as in :func:`petheory.encodings.legendre`.

    Returns
    -------
    numpy.ndarray
        Shape (d,): the encoding at x = 1 (every position from ``n_max - 1`` on, clipped linear map).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> bounds.legendre_limit(3).tolist(), bounds.legendre_limit(3, orthonormal=True).round(6).tolist()
    ([1.0, 1.0, 1.0], [0.707107, 1.224745, 1.581139])
    >>> P = encodings.legendre(3, 3, n_max=10, start=9)  # positions 9, 10, 11: x clipped at 1
    >>> bool(np.allclose(P, bounds.legendre_limit(3)))
    True
    """
    d = int(d)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre saturation vector (d = {d})")
    return np.sqrt((2.0 * np.arange(d) + 1.0) / 2.0) if orthonormal else np.ones(d)


@validate_params({"n_max": [Interval(Integral, 2, None)], "d": [_AT_LEAST_1]})
def legendre_saturation_bound(pos, n_max: int, d: int, *, orthonormal: bool = False, position_map: str = "linear",
                              beyond: str = "clip") -> np.ndarray:
    r"""li2025 §6, Legendre saturation: upper bound on :math:`\lVert PE(pos)-PE_\infty\rVert_2`, shape like ``pos``.

    :math:`\lvert P_k(x)-P_k(1)\rvert\le P_k'(1)(1-x)=\tfrac{k(k+1)}2(1-x)` for :math:`x\in[-1,1]`
    (:math:`\lvert P_k'\rvert` is largest at the end points), so the bound is
    :math:`(1-x(pos))\,(\sum_k(c_kk(k+1)/2)^2)^{1/2}`: exactly 0 from :math:`N_{max}-1` on for the
    clipped linear map, :math:`2e^{-\ln(20)\,pos/(N_{max}-1)}(\cdots)` for the 'exp' map. ``inf``
    where :math:`x>1` (``beyond='extrapolate'``: no saturation).

    Parameters
    ----------
    pos : array_like
        Positions (any shape).
    n_max : int
        Training length (>= 2).
    d : int
        Number of features (>= 1).
    orthonormal : bool
        ``c_k = sqrt((2k+1)/2)`` (True) or ``c_k = 1`` (False).
    position_map : {'linear', 'exp'}
        The map from positions to x (:func:`petheory.encodings.legendre_positions`).
    beyond : {'clip', 'extrapolate'}
        Whether x is held at 1 past the training range.

    Returns
    -------
    numpy.ndarray
        Shape like ``pos`` (0-d for a scalar): the bound on the distance to :func:`legendre_limit`.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> bnd = bounds.legendre_saturation_bound(np.arange(12), 10, 4)
    >>> gap = np.linalg.norm(encodings.legendre(12, 4, n_max=10) - bounds.legendre_limit(4), axis=1)
    >>> bool(np.all(gap <= bnd)), bnd[9:].tolist()  # saturated exactly from n_max - 1 on
    (True, [0.0, 0.0, 0.0])
    >>> float(bounds.legendre_saturation_bound(12, 10, 4, beyond="extrapolate"))
    inf
    """
    x = enc.legendre_positions(pos, int(n_max), position_map=position_map, beyond=beyond)
    c = legendre_limit(d, orthonormal)  # refuses a d that cannot fit
    k = np.arange(int(d), dtype=np.float64)
    lip = float(np.linalg.norm(c * k * (k + 1) / 2))
    return np.where(x > 1.0, np.inf, (1.0 - x) * lip)


# =============================================================================== sinusoidal ambiguity


@validate_params(_LADDER)
def sinusoidal_offset_distance(offsets, d: int, *, base: float = 10000.0) -> np.ndarray:
    r""":math:`D(\Delta)=\lVert PE(p+\Delta)-PE(p)\rVert_2=(\sum_i2(1-\cos\omega_i\Delta))^{1/2}`, same shape as ``offsets``.

    Independent of :math:`p` and of the layout (each frequency :math:`\omega_i=base^{-2i/d}`
    contributes a sine and a cosine). Computed from :math:`\Delta` directly, so it carries no
    rounding of large absolute positions.

    Parameters
    ----------
    offsets : array_like
        Offsets :math:`\Delta` in positions (any shape).
    d : int
        Width of the encoding (even).
    base : float
        Base of the frequency ladder (> 0).

    Returns
    -------
    numpy.ndarray
        Same shape as ``offsets``: the L2 distance between the encodings of two positions that far apart.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import bounds, encodings
    >>> D = bounds.sinusoidal_offset_distance([0, 1, 2], 4)
    >>> D.round(6).tolist()
    [0.0, 0.958903, 1.683061]
    >>> P = encodings.sinusoidal(60, 4)
    >>> bool(np.allclose(np.linalg.norm(P[50:53] - P[50], axis=1), D))  # the same from any position
    True
    """
    d, base = int(d), float(base)
    delta = np.asarray(offsets, dtype=np.float64)
    _memory.require(_memory.array_bytes(d // 2 + 3 * delta.size, itemsize=8), f"sinusoidal offset distances (d = {d}, {delta.size} offsets)",
                    flops=10.0 * delta.size * (d // 2))
    out = np.zeros(delta.shape)
    for wi in enc.rope_frequencies(d, base=base):
        out += enc.chord_sq(wi * delta)  # = 2(1 - cos), without cancellation at small angles
    return np.sqrt(out)


@validate_params({**_LADDER, "max_offset": [Interval(Integral, 2, None)]})
def sinusoidal_ambiguity_onset(d: int, *, base: float = 10000.0, max_offset: int = 10**6, chunk: int = 1 << 16) -> int | None:
    r"""Smallest offset :math:`\Delta\ge2` with :math:`D(\Delta)<D(1)`: two positions :math:`\Delta` apart closer than neighbours.

    ``None`` when no such offset is :math:`\le` ``max_offset``. Since :math:`D` depends only on the
    offset, this is the first length at which the encoding has an ambiguous pair under that
    criterion. Pruned search: frequencies from fastest to slowest, dropping offsets whose partial
    sum already exceeds :math:`D(1)^2` (every term is non-negative).

    Parameters
    ----------
    d : int
        Width of the encoding (even).
    base : float
        Base of the frequency ladder (> 0).
    max_offset : int
        Largest offset searched (>= 2).
    chunk : int
        Offsets examined at a time (bounds the memory used, not the result).

    Returns
    -------
    int or None
        The smallest such offset, or None when there is none up to ``max_offset``.

    Examples
    --------
    >>> from petheory import bounds
    >>> bounds.sinusoidal_ambiguity_onset(2)  # one pair at 1 rad/position: 6 rad is almost a full turn
    6
    >>> bool(bounds.sinusoidal_offset_distance(6, 2) < bounds.sinusoidal_offset_distance(1, 2))
    True
    >>> bounds.sinusoidal_ambiguity_onset(64, max_offset=10**5) is None  # slower pairs keep offsets apart
    True
    """
    d, base, max_offset = int(d), float(base), int(max_offset)
    _memory.require(_memory.array_bytes(d // 2 + 4 * int(chunk), itemsize=8), f"sinusoidal ambiguity search (d = {d}, chunks of {chunk})")
    w = enc.rope_frequencies(d, base=base)  # fastest first
    target = float(sinusoidal_offset_distance(1.0, d, base=base)) ** 2
    for lo in range(2, max_offset + 1, chunk):
        delta = np.arange(lo, min(lo + chunk, max_offset + 1), dtype=np.float64)
        part = np.zeros(delta.size)
        for wi in w:
            part += enc.chord_sq(wi * delta)
            keep = part < target
            if not keep.any():
                break
            delta, part = delta[keep], part[keep]
        else:
            return int(delta[0])
    return None


@validate_params(_LADDER)
def sinusoidal_slowest_period(d: int, *, base: float = 10000.0) -> float:
    r"""Period :math:`2\pi\,base^{(d-2)/d}` of the slowest sine-cosine pair, in positions.

    Parameters
    ----------
    d : int
        Width of the encoding (even).
    base : float
        Base of the frequency ladder (> 0).

    Returns
    -------
    float
        The period of the pair with frequency :math:`base^{-(d-2)/d}`.

    Examples
    --------
    >>> from petheory import bounds
    >>> round(bounds.sinusoidal_slowest_period(2), 6)  # d = 2: 2 pi, the one pair turns at 1 rad/position
    6.283185
    >>> round(bounds.sinusoidal_slowest_period(128), 1)  # 2 pi 10000^(126/128): well past 10000 positions
    54410.1
    """
    d, base = int(d), float(base)
    return 2.0 * math.pi * base ** ((d - 2) / d)
