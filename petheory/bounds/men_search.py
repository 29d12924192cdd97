r"""Men et al. 2024's smallest base, exactly: the first base with :math:`B_m\ge 0` for every :math:`0\le m\le L`,
found by a method that cannot step over a passing island (a grid first, then bracket and refine with certified
interval bounds): :func:`men_first_passing_base`.

Theory only: no file is read, nothing imports torch.
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from petheory._threads import blas_threads
from petheory._validate import Even, Interval, validate_params
from petheory.bounds.men_base import men_first_passing, men_grid, men_min_kernel
from petheory.encodings import rope_frequencies
from petheory.errors import ParameterError

__all__ = ["COARSE_GRID", "grid_cost_per_base", "men_first_passing_base"]

# Intervals of bases bounded at once (the leftmost pending ones).
_FRONT = 512
#: The coarse grid (bases a decade) whose first passing base caps a finer grid pass: no finer grid base above it matters.
COARSE_GRID = 64
_POSITIVE = Interval(Real, 0, None, closed="neither")


@validate_params({"d": [Even()]})
def grid_cost_per_base(d: int) -> int:
    """Cosines a grid base costs at least once the walk keeps its witnesses: 16 windows of 65 distances (men_base's
    ``_Witnesses``), d/2 bands each; a base no witness rejects costs a full scan on top.

    Parameters
    ----------
    d : int
        Rotary dimension (even).

    Returns
    -------
    int
        The count of cosines.

    Examples
    --------
    >>> grid_cost_per_base(128)
    66560
    """
    return 16 * 65 * (int(d) // 2)


def _interval_upper(lo: np.ndarray, hi: np.ndarray, ms: np.ndarray, d: int) -> np.ndarray:
    r"""Upper bounds of :math:`B_m(u)` over each ``[lo, hi]`` of :math:`u = \ln\beta`, per witness distance: shape (K, W).

    ``ms`` is (K, W): each interval's own witness distances. With :math:`\theta_t(u) = e^{-a_t u}`, :math:`a_t = 2t/d`:
    :math:`|\partial_u^2 B_m| \le \sum_t (m a_t\theta_t)^2 + m a_t^2\theta_t` (each term's second derivative), largest at
    ``lo`` (:math:`\theta_t` falls with u); a function with :math:`|f''|\le M` stays below
    :math:`\max(f(lo), f(hi)) + M (hi - lo)^2/8` on the interval.
    """
    a = 2.0 * np.arange(d // 2) / d
    th_lo, th_hi = np.exp(-np.outer(lo, a)), np.exp(-np.outer(hi, a))  # (K, T)
    b_lo = np.cos(ms[:, :, None] * th_lo[:, None, :]).sum(-1)  # (K, W)
    b_hi = np.cos(ms[:, :, None] * th_hi[:, None, :]).sum(-1)
    s1, s2 = ((th_lo * a) ** 2).sum(-1), (th_lo * a * a).sum(-1)  # (K,)
    curv = ms**2 * s1[:, None] + ms * s2[:, None]
    return np.maximum(b_lo, b_hi) + curv * ((hi - lo) ** 2 / 8.0)[:, None]


def _certified(lo: np.ndarray, hi: np.ndarray, witnesses: list, L: int, d: int, tol: float) -> tuple[np.ndarray, int]:
    """Which intervals ``[lo, hi]`` of ln(base) some witness certifies failing (:func:`_interval_upper` below ``-tol``),
    and the number of bounds taken.

    Each witness distance m found at u_w is tried as it is and moved with the slow bands' angle (m e^{u - u_w}, where
    the slowest band's m theta stays put; rounded both ways, within 0..L).
    """
    if not witnesses:
        return np.zeros(lo.size, dtype=bool), 0
    m = np.array([w[0] for w in witnesses], dtype=np.float64)
    uw = np.array([w[1] for w in witnesses], dtype=np.float64)
    moved = m[None, :] * np.exp(0.5 * (lo + hi)[:, None] - uw[None, :])
    ms = np.clip(np.concatenate([np.broadcast_to(m, moved.shape), np.floor(moved), np.ceil(moved)], axis=1), 0, L)
    return (_interval_upper(lo, hi, ms, d) < -tol).any(1), ms.size


def _capped_grid(grid: np.ndarray, start: float, *, d: int, context: int, hi: float, per_decade: int,
                 max_grid_work: float) -> np.ndarray:
    """``grid`` cut at the coarse grid's first passing base (kept as its last point), or refused when the bases below it
    cost more than ``max_grid_work`` cosines (:func:`grid_cost_per_base` each)."""
    coarse = np.concatenate([[start], men_grid(start * (1 + 1e-12), hi, per_decade=COARSE_GRID)])
    top = men_first_passing(coarse, d=d, context=context)["first_passing"]
    if top is not None:
        grid = np.append(grid[grid < top], top)
    decades = max(math.log10((top or hi) / start), 1.0 / per_decade)
    work = per_decade * decades * grid_cost_per_base(d)
    if work > max_grid_work:
        fit = int(max_grid_work / (decades * grid_cost_per_base(d)))
        raise ParameterError("per_decade", f"at most {max(fit, COARSE_GRID)} a decade here ({per_decade} a decade would "
                             f"try about {per_decade * decades:,.0f} bases between {start:.6g} and {top or hi:.6g}, at "
                             f"least {work:.3g} cosines, over the grid pass's budget of {max_grid_work:.3g})", per_decade,
                             owner=men_first_passing_base)
    return grid


@validate_params({"start": [_POSITIVE], "d": [Even()], "context": [Interval(Integral, 1, None)],
                  "per_decade": [Interval(Integral, 1, None)], "hi": [_POSITIVE], "rel": [_POSITIVE],
                  "max_work": [_POSITIVE], "max_grid_work": [_POSITIVE, None]})
def men_first_passing_base(start: float, *, d: int, context: int, per_decade: int = 64, hi: float = 1e12,
                           rel: float = 1e-6, max_work: float = 2e9, max_grid_work: float | None = None) -> dict:
    r"""The first base :math:`\beta\ge` ``start`` with Men's property (:math:`B_m\ge 0`, :math:`0\le m\le L`), found without
    stepping over a passing island.

    A log grid (``per_decade`` a decade from ``start``, :func:`men_first_passing`) gives a first passing base g fast;
    then every base in ``[start, g)`` is either certified failing or the first passing one is found (bracket and
    refine, below). Returns ``{'base', 'grid_base', 'certified', 'bracket', 'scans', 'slivers'}``: ``base`` the first
    passing base found (None when no base up to ``hi`` passes on the grid), ``grid_base`` the grid's, ``bracket``
    ``(lo, base)`` with every base in ``[start, lo)`` certified failing and ``base`` passing (``base / lo - 1 <=
    rel``, or ``lo == base``), ``certified`` whether the whole of ``[start, base)`` is covered (False: the scan budget
    ran out (``max_work``), ``base`` is then the first passing base found, a grid's at worst, and smaller ones may exist),
    ``slivers`` the number of intervals narrower than ``rel`` that could be neither certified nor found passing
    (a passing island narrower than ``rel`` may sit there).

    Parameters
    ----------
    start : float
        The smallest base considered (> 0; the model's own base in a plan).
    d : int
        Rotary dimension (even).
    context : int
        L (>= 1): the property is required for every distance ``0..L``.
    per_decade : int
        Grid points per decade of the first pass.
    hi : float
        The largest base searched.
    rel : float
        Relative width below which an interval is no longer split.
    max_work : float
        The refinement's budget in cosines: a full scan (:func:`men_min_kernel`) counts L d/2, an (interval, witness)
        bound d. A count, not seconds: the answer is the same on every machine.
    max_grid_work : float, optional
        The grid pass's budget in cosines, for ``per_decade`` above :data:`COARSE_GRID`: the pass tries every grid base
        from ``start`` up to the coarse grid's first passing base (found first, at :data:`COARSE_GRID` a decade), at
        least :func:`grid_cost_per_base` cosines each; a grid whose count of those exceeds the budget is refused
        before its walk, with the largest ``per_decade`` that fits. None: no bound.

    Returns
    -------
    dict
        As above.

    Raises
    ------
    petheory.errors.ParameterError
        A ``per_decade`` whose grid pass would cost more than ``max_grid_work`` cosines (naming the most that fit); a
        non-positive ``start``, ``hi`` or ``rel``, an odd ``d``, ``context`` below 1.

    Notes
    -----
    In :math:`u=\ln\beta`, each :math:`B_m(u)=\sum_t\cos(m e^{-2tu/d})` is smooth: an interval is certified failing when
    some witness distance m has :math:`\max(B_m(lo), B_m(hi)) + M_2 (hi-lo)^2/8 < -\tau` (:func:`_interval_upper`'s
    curvature bound :math:`M_2`; :math:`\tau = (d/2)(L+6)\epsilon` the rounding of a direct cosine sum at m <= L). The
    interval ``[ln start, ln g]`` is cut into grid steps; intervals no witness certifies are split in two, level by
    level, and the left end of the leftmost uncertified ones is scanned in full (:func:`men_min_kernel`): a failing
    scan adds its distance as a witness, a passing one is a passing base with every base to its left already
    certified or still pending. The answer is the leftmost passing left end once nothing to its left is pending. A
    grid alone can step over an island (at L = 4096, d = 128, bases near 2.87e4 pass while the 64-a-decade grid's
    first passing base is 4.73e4).

    References
    ----------
    Men et al. 2024, "Base of RoPE Bounds Context Length" (arXiv 2405.14591), §4, Eq. 11 and Table 2.

    Examples
    --------
    >>> r = men_first_passing_base(1e4, d=128, context=4096)
    >>> r["certified"], round(r["base"]), round(r["grid_base"])  # Men's Table 2: 2.7e4; the 64-a-decade grid steps over it
    (True, 26952, 47258)
    """
    start, d, L, hi, rel = float(start), int(d), int(context), float(hi), float(rel)
    per_decade, max_work = int(per_decade), float(max_work)
    grid = np.concatenate([[start], men_grid(start * (1 + 1e-12), hi, per_decade=per_decade)])
    if max_grid_work is not None and per_decade > COARSE_GRID:
        grid = _capped_grid(grid, start, d=d, context=L, hi=hi, per_decade=per_decade,
                            max_grid_work=float(max_grid_work))
    found = men_first_passing(grid, d=d, context=L)
    g = found["first_passing"]
    out = {"base": g, "grid_base": g, "certified": g is not None, "bracket": (g, g), "scans": 0, "slivers": 0}
    if g is None or g == start:
        return out
    tol = (d / 2) * (L + 6) * np.finfo(np.float64).eps
    # intervals about as wide as a witness can certify: B_m's curvature at m = L is about L^2 sum_t (a_t theta_t)^2
    a = 2.0 * np.arange(d // 2) / d
    th = np.exp(-a * math.log(start))
    du = min(math.log(10.0) / per_decade, math.sqrt(8.0 / (L * L * float(((a * th) ** 2).sum()) + 1e-300)))
    edges = np.append(np.arange(math.log(start), math.log(g), du), math.log(g))
    lo, up = edges[:-1], edges[1:]
    witnesses: list = []
    best, scans, slivers = math.log(g), 0, 0
    scanned: dict = {}

    def scan(u: float) -> bool:
        nonlocal scans
        if u not in scanned:
            scans += 1
            mn, at = men_min_kernel(rope_frequencies(d, base=math.exp(u)), L)
            scanned[u] = mn >= 0.0
            if mn < 0.0:
                witnesses.insert(0, (at, u))
                del witnesses[32:]
        return scanned[u]

    checks = 0
    with blas_threads(1):
        scan(lo[0])
        while lo.size:
            keep = lo < best  # only bases below the best passing one found matter
            lo, up = lo[keep], np.minimum(up[keep], best)
            if not lo.size:
                break
            if scans * L * d / 2 + checks * d > max_work:
                out["certified"] = False
                break
            # the leftmost pending intervals only (the answer is the leftmost passing base): a bounded front
            f_lo, f_up, lo, up = lo[:_FRONT], up[:_FRONT], lo[_FRONT:], up[_FRONT:]
            n_w = len(witnesses)
            cert, n = _certified(f_lo, f_up, witnesses, L, d, tol)
            checks += n
            f_lo, f_up = f_lo[~cert], f_up[~cert]
            if f_lo.size:
                scans_before = scans
                # scan the left ends of the leftmost uncertified intervals: a pass is a passing base, a failure a witness
                for u in f_lo[:4]:
                    if scan(float(u)):
                        best = min(best, float(u))
                        break
                if n_w != len(witnesses) or (n_w and scans > scans_before):  # new witnesses: try them on the same intervals before splitting
                    lo, up = np.concatenate([f_lo, lo]), np.concatenate([f_up, up])
                    continue
                tiny = (f_up - f_lo) <= math.log1p(rel)
                for u1 in f_up[tiny]:  # narrower than rel: its right end passes (a bracket) or it is a sliver
                    if scan(float(u1)):
                        best = min(best, float(u1))
                        break
                    slivers += 1
                f_lo, f_up = f_lo[~tiny], f_up[~tiny]
                mid = 0.5 * (f_lo + f_up)
                f_lo, f_up = np.stack([f_lo, mid], 1).ravel(), np.stack([mid, f_up], 1).ravel()
                lo, up = np.concatenate([f_lo, lo]), np.concatenate([f_up, up])
    base = math.exp(best)
    lo_edge = max((u for u, ok in scanned.items() if not ok and u < best), default=best)
    out.update(base=base if best != math.log(g) else g, scans=scans, slivers=slivers,
               bracket=(math.exp(lo_edge) if best in scanned and lo_edge > best - math.log1p(rel) else base, base))
    return out
