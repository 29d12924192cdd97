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

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory.fits import fit_line, fit_power_law


# =============================================================================== wavelet


def wavelet_norms(n: int, d: int, *, start: int = 0, wavelet: str = "db2", n_max: int | None = None,
                  normalisation: str = "l2", resolution: int = 10, dilation: str = "unit") -> np.ndarray:
    r""":math:`\lVert PE_{wav}(pos)\rVert_2` for positions ``start..start+n-1``, shape (n,), without the (n, d) table.

    Sums squares of :func:`petheory.encodings.wavelet_terms` (at most S+1 atoms per scale per
    position), so ``d`` may be in the tens of thousands. Same parameters as the encoding.
    """
    n = v.integer("n", n, minimum=1)
    d = v.integer("d", d, minimum=1)
    n_max = n if n_max is None else v.integer("n_max", n_max, minimum=1)
    v.choice("normalisation", normalisation, enc.WAVELET_NORMALISATIONS)
    v.choice("dilation", dilation, enc.WAVELET_DILATIONS)
    pos = v.integer("start", start, minimum=0) + np.arange(n, dtype=np.float64)
    sq = np.zeros(n)
    for _j, _cols, vals in enc.wavelet_terms(pos, d, wavelet=wavelet, n_max=n_max, normalisation=normalisation,
                                             dilation=dilation, resolution=resolution):
        sq += np.sum(vals**2, axis=1)
    return np.sqrt(sq)


def wavelet_support_length(wavelet: str = "db2") -> int:
    """Support length ``S = taps - 1`` of the mother wavelet (db2: 3, db4: 7)."""
    return enc.wavefun(wavelet, 4)[2] - 1


def wavelet_support_end(d: int, n_max: int, *, wavelet: str = "db2", dilation: str = "unit", resolution: int = 10) -> int:
    r"""First position from which every feature of the wavelet encoding is exactly 0.

    The largest right end :math:`(k+x_{end})2^{-j}` of the atoms used, in positions, where
    :math:`x_{end}` is the right end of PyWavelets' sampled :math:`\psi` (the support length S for
    Daubechies, symlets and coiflets; :math:`1+2^{-resolution}` for Haar, whose sampled
    :math:`\psi(1)=-1`). At most about :math:`S\,N_{max}` for 'unit' (the scale-0 atom with k=0)
    and :math:`S\,2^J` for 'position'.
    """
    d = v.integer("d", d, minimum=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    x, psi, taps = enc.wavefun(wavelet, resolution)
    atoms = enc.wavelet_atoms(d, taps - 1, dilation=dilation, n_max=n_max)
    end = max((k + float(x[-1])) * 2.0 ** (-j) for j, k in atoms) * (n_max if dilation == "unit" else 1)
    # np.interp returns psi[-1] at exactly x_end and 0 beyond: include the end point only if psi vanishes there
    return int(math.ceil(end)) if psi[-1] == 0 and end == math.ceil(end) else int(math.floor(end)) + 1


@dataclass(frozen=True)
class DecayFit:
    r"""Exponential envelope :math:`\lvert\psi(u)\rvert\le C e^{-\beta u}` of a mother wavelet (u from its left support end)."""

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
    """
    d = v.integer("d", d, minimum=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    spu = v.integer("samples_per_unit", samples_per_unit, minimum=1)
    S = wavelet_support_length(wavelet)
    beta = wavelet_decay_fit(wavelet, resolution=resolution).beta if beta is None else v.real("beta", beta, nonnegative=True)
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


def wavelet_norm_growth(sizes, *, wavelet: str = "db2", normalisation: str = "none", dilation: str = "unit",
                        d: int | str = "full") -> dict:
    r"""li2025's unnormalised wavelet growth :math:`O(N_{max}\sqrt{\log N_{max}})` (Table 2), measured: :math:`\sup_{pos<N_{max}}\lVert PE_{wav}(pos)\rVert_2` for each :math:`N_{max}` in ``sizes``, and fits.

    ``d='full'``: as many atoms as reach the finest scale that resolves one position (the
    reading under which the norm can depend on :math:`N_{max}`: :math:`2^{j}\ge N_{max}` for
    'unit', :math:`j=0` for 'position'); an int: fixed width. Returns the sizes, the sup norms,
    the power-law fit of the norm (exponent with CI) and of the ratio to
    :math:`N_{max}\sqrt{\log N_{max}}` (li2025's unnormalised growth; an exponent <= 0 means the
    norm grows no faster).
    """
    sizes = [v.integer("size", s, minimum=4) for s in sizes]
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
            width = v.integer("d", d, minimum=1)
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


def legendre_norm_bound(d: int, orthonormal: bool = False) -> float:
    r"""li2025 Table 2, Legendre "bounded": :math:`\sup_{x\in[-1,1]}\lVert(c_kP_k(x))_k\rVert_2=(\sum_kc_k^2)^{1/2}`, attained at x=1 where :math:`P_k(1)=1`."""
    d = v.integer("d", d, minimum=1)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre constants (d = {d})")
    c2 = (2.0 * np.arange(d) + 1.0) / 2.0 if orthonormal else np.ones(d)
    return float(math.sqrt(c2.sum()))


def legendre_limit(d: int, orthonormal: bool = False) -> np.ndarray:
    r"""li2025 §6, Legendre saturation: the vector :math:`PE_\infty=(c_kP_k(1))_k=(c_k)_k`, shape (d,)."""
    d = v.integer("d", d, minimum=1)
    _memory.require(_memory.array_bytes(d, itemsize=2 * 8), f"Legendre saturation vector (d = {d})")
    return np.sqrt((2.0 * np.arange(d) + 1.0) / 2.0) if orthonormal else np.ones(d)


def legendre_saturation_bound(pos, n_max: int, d: int, *, orthonormal: bool = False, position_map: str = "linear",
                              beyond: str = "clip") -> np.ndarray:
    r"""li2025 §6, Legendre saturation: upper bound on :math:`\lVert PE(pos)-PE_\infty\rVert_2`, shape like ``pos``.

    :math:`\lvert P_k(x)-P_k(1)\rvert\le P_k'(1)(1-x)=\tfrac{k(k+1)}2(1-x)` for :math:`x\in[-1,1]`
    (:math:`\lvert P_k'\rvert` is largest at the end points), so the bound is
    :math:`(1-x(pos))\,(\sum_k(c_kk(k+1)/2)^2)^{1/2}`: exactly 0 from :math:`N_{max}-1` on for the
    clipped linear map, :math:`2e^{-\ln(20)\,pos/(N_{max}-1)}(\cdots)` for the 'exp' map. ``inf``
    where :math:`x>1` (``beyond='extrapolate'``: no saturation).
    """
    x = enc.legendre_positions(pos, v.integer("n_max", n_max, minimum=2), position_map=position_map, beyond=beyond)
    c = legendre_limit(d, orthonormal)  # refuses a d that cannot fit
    k = np.arange(v.integer("d", d, minimum=1), dtype=np.float64)
    lip = float(np.linalg.norm(c * k * (k + 1) / 2))
    return np.where(x > 1.0, np.inf, (1.0 - x) * lip)


# =============================================================================== sinusoidal ambiguity


def sinusoidal_offset_distance(offsets, d: int, *, base: float = 10000.0) -> np.ndarray:
    r""":math:`D(\Delta)=\lVert PE(p+\Delta)-PE(p)\rVert_2=(\sum_i2(1-\cos\omega_i\Delta))^{1/2}`, same shape as ``offsets``.

    Independent of :math:`p` and of the layout (each frequency :math:`\omega_i=base^{-2i/d}`
    contributes a sine and a cosine). Computed from :math:`\Delta` directly, so it carries no
    rounding of large absolute positions.
    """
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    delta = np.asarray(offsets, dtype=np.float64)
    _memory.require(_memory.array_bytes(d // 2 + 3 * delta.size, itemsize=8), f"sinusoidal offset distances (d = {d}, {delta.size} offsets)",
                    flops=10.0 * delta.size * (d // 2))
    out = np.zeros(delta.shape)
    for wi in enc.rope_frequencies(d, base=base):
        out += enc.chord_sq(wi * delta)  # = 2(1 - cos), without cancellation at small angles
    return np.sqrt(out)


def sinusoidal_ambiguity_onset(d: int, *, base: float = 10000.0, max_offset: int = 10**6, chunk: int = 1 << 16) -> int | None:
    r"""Smallest offset :math:`\Delta\ge2` with :math:`D(\Delta)<D(1)`: two positions :math:`\Delta` apart closer than neighbours.

    ``None`` when no such offset is :math:`\le` ``max_offset``. Since :math:`D` depends only on the
    offset, this is the first length at which the encoding has an ambiguous pair under that
    criterion. Pruned search: frequencies from fastest to slowest, dropping offsets whose partial
    sum already exceeds :math:`D(1)^2` (every term is non-negative).
    """
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    max_offset = v.integer("max_offset", max_offset, minimum=2)
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


def sinusoidal_slowest_period(d: int, *, base: float = 10000.0) -> float:
    r"""Period :math:`2\pi\,base^{(d-2)/d}` of the slowest sine-cosine pair, in positions."""
    d = v.even("d", d)
    base = v.real("base", base, positive=True)
    return 2.0 * math.pi * base ** ((d - 2) / d)
