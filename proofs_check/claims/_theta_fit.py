r"""A Θ statement read as a two-sided bound whose constants are fitted on one half of the cases and tested on the other.

The reading (DESIGN.md: "a Θ statement as a two-sided bound whose constants are fitted on part of the cases and tested
on the rest"), for a ratio :math:`r_{ij} = P_{ij} / f(i - j)` that the statement says is :math:`\Theta(1)` uniformly in
N, i and j. Pre-registered split by seed: draws with an even seed at size ``fit_n`` are the fitting half, draws with an
odd seed at size ``test_n > fit_n`` the held-out half, ``test_n`` the largest size whose new rows
(``fit_n..test_n-1``) hold no more pairs j <= i than a fitting draw (:func:`held_out_size`): the extremes of more
pairs would leave a band of fewer pairs' extremes even for a ratio whose law does not depend on the pair. The constants are fitted as the extremes of the fitting half,
:math:`c_{lo} = \min r`, :math:`c_{hi} = \max r`, and each held-out draw is tested against :math:`[c_{lo}, c_{hi}]` at
two kinds of pairs:

* the pairs the fit saw (rows :math:`i < ` ``fit_n``): with causal attention row i reads keys :math:`\le i` only, so
  these entries of a held-out draw have the law of a fitting draw's, and the draws are independent: exchangeable.
  The finite-sample (rank) argument then says how many held-out draws may leave the band *without* anything being
  wrong: at least c of K lie above the largest of K fitting maxima with probability
  :math:`\prod_{i<c}(K-i)/(2K-i)` (the top c of the 2K exchangeable maxima all held out; minima likewise)
  (:func:`exceedance_p`);
* the pairs it did not see (rows :math:`i \ge` ``fit_n``, offsets up to ``test_n - 1``): what the Θ is about (the
  constants may not depend on N, i, j). Their law differs from the fitted one (more paths, longer offsets), so no
  finite-sample argument bounds how far they may leave a band of sample extremes, and the computation's conditioning
  (rounding, :math:`\sim 10^{-13}` in log) is far below the draw-to-draw spread: **no non-arbitrary slack exists**.

So the reading is ``inconclusive`` with its statistic, never ``holds`` or ``refuted``: how many held-out draws leave
the band at the seen and the unseen pairs, the exact exceedance p-value each count would have if those pairs were
exchangeable with the fitted ones (since the unseen rows hold no more pairs than a fitting draw, a ratio whose law does
not depend on the pair leaves the band there no more often), and the largest excursion (in log). The direction it
points to is named at alpha 0.05 (away from the band when p < 0.05, else no evidence against a bound). The decisive
reading of the same statement uses the constants its proof constructs.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from proofs_check.engine import Evidence

#: Draws per half (K) per profile; the seeds are 0..2K-1, even ones fitted, odd ones held out.
DRAWS = {"quick": 10, "thorough": 40}
#: The level at which the statistic's direction is named (it decides no verdict).
ALPHA = 0.05


def held_out_size(fit_n: int) -> int:
    """The largest N whose rows fit_n..N-1 hold at most as many pairs j <= i as rows 0..fit_n-1 (fit_n (fit_n+1)/2)."""
    seen, n, unseen = fit_n * (fit_n + 1) // 2, fit_n, 0
    while unseen + n + 1 <= seen:
        unseen += n + 1
        n += 1
    return n


def exceedance_p(count: int, k: int) -> float:
    """P(at least ``count`` of k held-out draws lie beyond the extreme of k fitting draws) when all 2k are exchangeable:
    the top ``count`` of the 2k must all be held-out ones, prod_{i < count} (k - i) / (2k - i)."""
    return float(np.prod([(k - i) / (2 * k - i) for i in range(count)]))


def _side_p(above: int, below: int, k: int) -> float:
    return min(1.0, 2.0 * min(exceedance_p(above, k), exceedance_p(below, k)))  # two sides, Bonferroni


def fit_and_test(log_ratio: Callable[[int, int], tuple[np.ndarray, np.ndarray]], settings: dict, *, fit_n: int,
                 profile: str) -> Evidence:
    """Fit and test every setting. ``log_ratio(setting, seed, n)`` -> (log r over the pairs j <= i of one draw at size
    n (pairs,), their rows i (pairs,)); ``settings`` maps a label to the setting passed through."""
    K = DRAWS["quick" if profile == "quick" else "thorough"]
    test_n = held_out_size(fit_n)
    rows, cases = {}, 0
    for label, setting in settings.items():
        fitted = [log_ratio(setting, 2 * s, fit_n)[0] for s in range(K)]
        lo, hi = float(min(f.min() for f in fitted)), float(max(f.max() for f in fitted))
        count = {"seen": [0, 0], "unseen": [0, 0]}  # held-out draws above hi, below lo
        excursion = 0.0
        for s in range(K):
            lr, i = log_ratio(setting, 2 * s + 1, test_n)
            for part, vals in (("seen", lr[i < fit_n]), ("unseen", lr[i >= fit_n])):
                count[part][0] += bool(vals.max() > hi)
                count[part][1] += bool(vals.min() < lo)
            unseen = lr[i >= fit_n]
            excursion = max(excursion, float(unseen.max()) - hi, lo - float(unseen.min()))
        cases += 2 * K
        rows[label] = {"log_c_lo": lo, "log_c_hi": hi, "band_factor": math.exp(hi - lo),
                       "held_out_above_below_at_seen_pairs": count["seen"],
                       "held_out_above_below_at_unseen_pairs": count["unseen"],
                       "p_exchangeable_seen": _side_p(*count["seen"], K),
                       "p_exchangeable_unseen": _side_p(*count["unseen"], K),
                       "largest_log_excursion_at_unseen_pairs": excursion}
    away = [k for k, r in rows.items() if r["p_exchangeable_unseen"] < ALPHA]
    worst = max(rows, key=lambda k: rows[k]["largest_log_excursion_at_unseen_pairs"])
    direction = (f"away from the fitted band at {', '.join(away)} (more held-out draws leave it at the unseen pairs "
                 f"than exchangeable draws would, p < {ALPHA})" if away else
                 "no evidence against a bound: at every setting the held-out draws leave the fitted band at the unseen "
                 f"pairs no more often than exchangeable draws would (p >= {ALPHA})")
    details = {"split": {"fit": f"even seeds 0..{2 * K - 2} at N = {fit_n}", "held_out": f"odd seeds 1..{2 * K - 1} at "
                         f"N = {test_n}", "draws_per_half": K, "fit_n": fit_n, "test_n": test_n},
               "test": "exact exceedance probability for exchangeable draws (the top c of 2K all held-out), both sides, "
               f"Bonferroni; alpha {ALPHA}, for the direction only", "per_setting": rows,
               "slack": "none derived: the unseen pairs are not exchangeable with the fitted ones, and rounding "
               "(~1e-13 in log) is far below the draw-to-draw spread"}
    return Evidence(
        "inconclusive", cases, margin=None, details=details,
        summary=f"constants fitted as the extremes of the ratio over {K} draws at N = {fit_n}, tested on {K} held-out "
        f"draws at N = {test_n}: held-out draws (above, below) the band at the pairs the fit saw "
        + ", ".join(str(tuple(r["held_out_above_below_at_seen_pairs"])) for r in rows.values())
        + ", at the unseen pairs " + ", ".join(str(tuple(r["held_out_above_below_at_unseen_pairs"])) for r in rows.values())
        + f" (settings {', '.join(rows)}); largest excursion a factor "
        f"{math.exp(rows[worst]['largest_log_excursion_at_unseen_pairs']):.4g} ({worst}); fitted bands c_hi/c_lo "
        + ", ".join(f"{r['band_factor']:.3g}" for r in rows.values())
        + f". No slack is derived for the unseen pairs, so this reading decides nothing; direction: {direction}.",
    )
