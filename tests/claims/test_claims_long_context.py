"""Long-context outside sources (issue 31): each checker's verdict on the real implementation, and a planted
violation, made through the function the checker calls, that flips it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from petheory.bounds import long_context as lc
from petheory.bounds import men_base as mb
from petheory.encodings import rope_frequencies
from proofs_check.claims import liu2023, men2024, nakanishi2025, su2021
from proofs_check.engine import Context, get
from proofs_check.runner import check_claim


def verdict(claim_id, **kw):
    return check_claim(get(claim_id), profile="quick", seed=0, **kw)


EXPECTED = {
    "men2024.similar_token_gap": "holds",
    "men2024.base_bounds_context": "holds",
    "men2024.context_of_a_base": "holds",
    "liu2023.updated_critical_dimension": "holds",
    "liu2023.critical_dimension": "holds",
    "liu2023.extrapolation_bound": "holds",
    "su2021.abel_bound": "holds",
    "su2021.long_term_decay__corrected": "holds",
    "nakanishi2025.ssmax_prevents_fading": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_real_implementation_verdict(claim_id):
    assert verdict(claim_id)["verdict"] == EXPECTED[claim_id]


def test_men_passing_set_is_not_closed_upwards_beside_the_necessity_claim():
    """The finding beside men2024.base_bounds_context (necessity, which holds): bases above b_L fail again."""
    b0 = mb.men_smallest_base(128, 1024)
    assert mb.men_passes(b0, d=128, context=1024)
    r = mb.men_every_larger_base(128, 1024, upto=2e4)
    assert not r["holds"] and min(r["failing"]) > b0


def test_roformer_decay_is_refuted_on_its_envelope():
    rec = verdict("su2021.long_term_decay")
    assert rec["verdict"] == "refuted" and rec["readings"] == []


def test_men_table2_is_not_eq11s_inf_in_either_reading():
    """Table 2's 2k entry (1.6e4) is not Eq. 11's inf: 1.16e4 already passes (Su Jianlin's commentary finds 1.2e4)."""
    rec = verdict("men2024.table2_lower_bounds")
    assert rec["verdict"] == "refuted"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"k_is_1024": "refuted", "k_is_1000": "refuted"}
    assert mb.men_passes(1.16e4, d=128, context=2048) and mb.men_passes(1.16e4, d=128, context=2000)


def _direct_min_kernel(base, L, d=128):
    """min over 0 <= m <= L of B_m by direct cosines, in chunks (the reference for men_min_kernel's product)."""
    w = rope_frequencies(d, base=base)
    return min(float(np.cos(np.arange(s, min(L, s + 65535) + 1, dtype=float)[:, None] * w).sum(-1).min())
               for s in range(0, L + 1, 65536))


def test_men_table2_long_rows_are_not_eq11s_inf_in_either_reading():
    """Table 2's long rows under k = 1024 fail first on their own terms (the printed 7.8e6, 3.6e7 and 5.1e8 reach
    B_m < 0 within their context), and below the 256k entry 34762454.28411925 already passes at 256k and 262144."""
    rec = verdict("men2024.table2_long_contexts")
    assert rec["verdict"] == "refuted"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"k_is_1024": "refuted", "k_is_1000": "refuted"}
    by = {r["name"]: r for r in rec["readings"]}
    assert by["k_is_1024"]["quantities"]["printed_base_min_B_m"] < -1.0  # 7.8e6 at 131072: the decisive fact
    for v, L in ((7.8e6, 131072), (3.6e7, 262144), (5.1e8, 1048576)):
        assert men2024._printed(v, L)[0] < -0.8
    below, _ = men2024._entry(3.6e7, 262144)
    b = below["first_passing"]
    assert b is not None and b < 3.6e7 - 5e5
    # the witness checked by direct cosines (error ~ (d/2) m eps ~ 2e-9 at m = 262144), with margin 0.1 >> that
    assert _direct_min_kernel(b, 262144) > 0.1 and _direct_min_kernel(b, 256000) > 0.1


def test_men_table2_128k_printed_base_fails_its_property_only_when_k_is_1024():
    """Issue 57: the printed 7.8e6 reaches B_m < 0 first at m = 128,915 (inside 131,072, beyond 128,000), so under
    k = 1000 it passes (min B_m = +0.025) and the row fails only as an inf; the summary says which part failed."""
    assert _direct_min_kernel(7.8e6, 128000) == pytest.approx(0.0252403, abs=1e-6)  # error ~ (d/2) L eps ~ 2e-9
    assert _direct_min_kernel(7.8e6, 128915) < -1.0 and _direct_min_kernel(7.8e6, 128914) > 0
    assert men2024._printed(7.8e6, 131072)[1] == 128915
    assert _direct_min_kernel(6.4e7, 512000) < -0.2  # the 512k row lacks the property under both readings too
    rec = verdict("men2024.table2_long_contexts")
    by = {r["name"]: r for r in rec["readings"]}
    assert by["k_is_1000"]["quantities"]["printed_base_min_B_m"] == pytest.approx(0.0252403, abs=1e-6)
    assert "lacks its own property at L = 131072" in rec["summary"]
    assert "has the property at L = 128000 ($\\min B_m = +0.025$" in rec["summary"] and "not the inf" in rec["summary"]


def test_men_table2_128k_row_search_finds_the_island_men_smallest_base_finds():
    """The passing set at 128k has an island 4.8692e6..4.8725e6 (0.07 % wide): the check searches below each row on
    men_smallest_base's own grid, so it finds the grid base the scan finds (4.8709e6), far below the row's 7.8e6."""
    below, inside = men2024._entry(7.8e6, 131072)
    b = below["first_passing"]
    assert b is not None and 4.869e6 < b < 4.873e6 and b in set(mb.men_grid(4.8e6, 4.9e6))
    assert _direct_min_kernel(b, 131072) > 0.1  # direct cosines; error ~ (d/2) L eps ~ 2e-9
    assert not mb.men_passes(4.86e6, d=128, context=131072) and not mb.men_passes(4.88e6, d=128, context=131072)


def test_liu_theorems_1_2_not_recovered_are_skipped_with_the_reason():
    rec = verdict("liu2023.smaller_base_extrapolation")
    assert rec["verdict"] == "skipped" and "no copy found" in get("liu2023.smaller_base_extrapolation").skip_reason


def test_barbero_band_usage_is_not_decided_without_trained_records(tmp_path):
    ev = get("barbero2024.low_frequencies_semantic").check(Context("quick", 1, np.random.default_rng(0), 0,
                                                                   workdir=str(tmp_path)))
    assert ev.verdict == "inconclusive" and "what would decide it" in ev.summary


def test_barbero_band_usage_reads_the_records_it_is_given(tmp_path):
    (tmp_path / "band_usage").mkdir()
    norms = np.ones((2, 4, 8))
    norms[..., -2:] = 3.0  # every head: more norm in the lowest-frequency quarter
    nope = {"name": "full_attention", "layers": [2], "skipped": "NoPE"}  # a kind without bands counts no head
    (tmp_path / "band_usage" / "m.json").write_text(json.dumps({"model": "m", "kinds": [
        {"name": "sliding_attention", "layers": [0, 1], "query": {"norms": norms.tolist()}}, nope]}))
    ev = get("barbero2024.low_frequencies_semantic").check(Context("quick", 1, np.random.default_rng(0), 0,
                                                                   workdir=str(tmp_path)))
    assert ev.verdict == "inconclusive" and ev.details["share_low_over_high"] == {"m": 1.0}


# ----------------------------------------------------------------------------- planted violations


def test_planted_men_kernel_without_the_factor_two(monkeypatch):
    monkeypatch.setattr(mb, "men_kernel", lambda m, freqs: 0.5 * np.cos(np.asarray(m, float)[..., None] * freqs).sum(-1))
    assert verdict("men2024.similar_token_gap")["verdict"] == "refuted"


def test_planted_smallest_base_that_is_too_large(monkeypatch):
    real = men2024.smallest
    monkeypatch.setattr(men2024, "smallest", lambda d, L: 3.0 * real(d, L))  # bases below it pass
    assert verdict("men2024.base_bounds_context")["verdict"] == "refuted"


def test_planted_kernel_scan_that_skips_the_endpoint(monkeypatch):
    """The off-by-one that scans 0..L-1: men2024.context_of_a_base (Eq. 10) sees the first negative B_m missed."""
    real = mb.men_min_kernel
    monkeypatch.setattr(mb, "men_min_kernel", lambda freqs, context, **k: real(freqs, max(1, context - 1), **k))
    assert verdict("men2024.context_of_a_base")["verdict"] == "refuted"


def test_planted_updated_dimension_that_shrinks(monkeypatch):
    real = lc.liu_critical_dimension
    monkeypatch.setattr(lc, "liu_critical_dimension", lambda d, b, T: real(d, b, T) - (2 if b != 10000.0 else 0))
    assert verdict("liu2023.updated_critical_dimension")["verdict"] == "refuted"


def test_planted_critical_dimension_with_floor(monkeypatch):
    import math

    def floor_version(d, base, context):
        x = (d / 2) * math.log(context / (2 * math.pi)) / math.log(base)
        return int(min(max(2 * math.floor(x), 0), d))

    monkeypatch.setattr(lc, "liu_critical_dimension", floor_version)
    assert verdict("liu2023.critical_dimension")["verdict"] == "refuted"


def test_planted_extrapolation_bound_with_the_pretraining_base(monkeypatch):
    monkeypatch.setattr(lc, "liu_extrapolation_bound", lambda d, de, base: 2 * np.pi * 10000.0 ** (de / d))
    assert verdict("liu2023.extrapolation_bound")["verdict"] == "refuted"


def test_planted_abel_bound_with_partial_sums_off_by_one(monkeypatch):
    def off_by_one(h, r, freqs):  # sum_{j=0}^{d/2-1} |S_j| (S_0 = 0) instead of sum_{j=1}^{d/2} |S_j|
        h = np.asarray(h, complex)
        e = np.exp(1j * r * np.asarray(freqs))
        dh = np.abs(np.diff(np.append(h, 0.0)))
        return float(abs(np.sum(h * e))), float(dh.max() * np.abs(np.cumsum(e))[:-1].sum())

    monkeypatch.setattr(lc, "abel_bound", off_by_one)
    assert verdict("su2021.abel_bound")["verdict"] == "refuted"


def test_planted_decaying_bound_holds(monkeypatch):
    monkeypatch.setattr(lc, "roformer_relative_bound", lambda r, w: 1.0 / (1.0 + np.asarray(r, float)))
    assert verdict("su2021.long_term_decay")["verdict"] == "holds"


def test_planted_abel_bound_with_its_right_side_halved(monkeypatch):
    real = lc.abel_bound
    monkeypatch.setattr(lc, "abel_bound", lambda h, r, w: (real(h, r, w)[0], 0.5 * real(h, r, w)[1]))
    assert verdict("su2021.abel_bound")["verdict"] == "refuted"


def test_planted_relative_bound_summed_not_averaged(monkeypatch):
    real = lc.roformer_relative_bound
    monkeypatch.setattr(lc, "roformer_relative_bound", lambda r, w: real(r, w) * len(w))
    assert verdict("su2021.long_term_decay__corrected")["verdict"] == "refuted"


def test_planted_table2_of_eq11s_values_holds(monkeypatch):
    # the entries Eq. 11 gives at L = 1024 k (1k: 4.29e3, 8k: 8.38e4), rounded to two digits: the checker accepts them
    monkeypatch.setattr(men2024, "TABLE2", {1: 4.3e3, 8: 8.4e4})
    rec = verdict("men2024.table2_lower_bounds#k_is_1024")
    assert rec["verdict"] == "holds"


def test_planted_octave_means_that_rise(monkeypatch):
    real = lc.roformer_relative_bound
    monkeypatch.setattr(lc, "roformer_relative_bound", lambda r, w: real(r, w) + 1e-3 * np.asarray(r, float))
    assert verdict("su2021.long_term_decay__corrected")["verdict"] == "refuted"


def test_planted_plain_softmax_fades(monkeypatch):
    real = lc.single_target_attention
    monkeypatch.setattr(lc, "single_target_attention", lambda g, n, logit_factor=1.0: real(g, n, logit_factor=1.0))
    assert verdict("nakanishi2025.ssmax_prevents_fading")["verdict"] == "refuted"


def test_the_claim_modules_are_registered_under_their_paper():
    for mod in (men2024, liu2023, su2021, nakanishi2025):
        name = mod.__name__.rsplit(".", 1)[1]
        assert any(c.id.startswith(name + ".") for c in __import__("proofs_check.engine").engine.all_claims())
