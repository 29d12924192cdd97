"""The fitted test of Wu et al.'s Theta statements (proofs_check.claims._theta_fit): constants fitted on even seeds,
tested on odd seeds at a larger N; evidence under the statements' one reading (the proofs' constants), not a reading:
inconclusive with its statistic, which moves when a plant bends the decay."""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory.encodings import bias
from proofs_check.claims._theta_fit import fit_and_test
from proofs_check.claims.wu2025 import decay_theta_fitted
from proofs_check.claims.wu2025_rope import rope_theta_fitted
from proofs_check.engine import get
from proofs_check.runner import check_claim


def record(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)


def _stationary(setting, seed, n):
    """A ratio whose law does not depend on the pair: every draw exchangeable with every other."""
    i, j = np.indices((n, n))
    low = j <= i
    return np.random.default_rng(seed).uniform(0.0, 1.0, int(low.sum())), i[low]


def _growing(setting, seed, n):
    lr, i = _stationary(setting, seed, n)
    return lr + 0.5 * i, i  # the ratio grows with the row: no band fitted on small rows holds on larger ones


def test_the_helper_says_toward_for_an_exchangeable_ratio_and_away_for_a_growing_one():
    ok = fit_and_test(_stationary, {"s": None}, fit_n=6, profile="quick")
    bad = fit_and_test(_growing, {"s": None}, fit_n=6, profile="quick")
    assert ok.verdict == bad.verdict == "inconclusive"
    assert "direction: no evidence against a bound" in ok.summary and "direction: away" in bad.summary
    row = bad.details["per_setting"]["s"]
    assert row["held_out_above_below_at_unseen_pairs"][0] == 10 and row["largest_log_excursion_at_unseen_pairs"] > 0.4
    assert row["p_exchangeable_unseen"] == pytest.approx(2 / math.comb(20, 10)) and ok.details["per_setting"]["s"]["p_exchangeable_unseen"] >= 0.05
    assert ok.details["split"]["fit"].startswith("even seeds") and ok.details["split"]["held_out"].startswith("odd seeds")


@pytest.mark.parametrize("claim_id, fitted", [("wu2025.decay_mask_theta", decay_theta_fitted),
                                               ("wu2025.rope_many_layers", rope_theta_fitted)])
def test_theta_claims_hold_with_the_proofs_constants_and_the_fit_is_evidence_not_a_reading(claim_id, fitted):
    # issue 57: a test of the fit is a procedure, not a reading of the sentence; a reading capped at inconclusive
    # would make the theorem unable to hold whatever the evidence
    rec = record(claim_id)
    assert rec["verdict"] == "holds" and rec["readings"] == [] and "decide nothing" in rec["reconstruction"]
    fit = fitted("quick")
    assert fit.verdict == "inconclusive" and "No slack is derived" in fit.summary and fit.details["split"]["test_n"] == 22
    for row in fit.details["per_setting"].values():
        assert row["log_c_lo"] <= row["log_c_hi"]


def test_exceedance_probability_is_exact():
    from proofs_check.claims._theta_fit import exceedance_p, held_out_size

    assert exceedance_p(0, 10) == 1.0 and exceedance_p(1, 10) == pytest.approx(0.5)
    assert exceedance_p(2, 10) == pytest.approx(10 / 20 * 9 / 19)
    rng = np.random.default_rng(0)  # Monte Carlo: 2 of 3 held-out maxima above the 3 fitting ones
    x = rng.standard_normal((20000, 6))
    top2 = np.argsort(x, axis=1)[:, -2:]
    assert np.mean(np.all(top2 >= 3, axis=1)) == pytest.approx(exceedance_p(2, 3), abs=0.01)
    assert held_out_size(16) == 22 and sum(range(17, 23)) <= 16 * 17 // 2 < sum(range(17, 24))


def test_planted_slower_decay_moves_the_fitted_statistic(monkeypatch):
    # the decay mask bent to -m sqrt(i - j): the ratio to e^{-(i-j)m} grows with the offset, so every held-out draw
    # leaves the band fitted on the shorter offsets
    rec = decay_theta_fitted("quick")
    before, record_summary_before = rec.details["per_setting"], rec.summary
    real = bias.alibi
    monkeypatch.setattr(bias, "alibi", lambda n, **k: -np.sqrt(np.maximum(-real(n, **k), 0.0) * k["slope"]))
    after = decay_theta_fitted("quick")
    assert "direction: away" in after.summary and "direction: away" not in record_summary_before
    rows = after.details["per_setting"]
    for label in ("m=1.0, B=1, t=1", "m=1.0, B=1, t=4"):  # e^{m (x - sqrt x)} grows fastest at the larger slope
        assert rows[label]["held_out_above_below_at_unseen_pairs"][0] == 10 and rows[label]["p_exchangeable_unseen"] < 0.05
        assert rows[label]["largest_log_excursion_at_unseen_pairs"] > before[label]["largest_log_excursion_at_unseen_pairs"]
