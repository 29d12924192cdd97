"""Long-context outside sources (issue 31): each checker's verdict on the real implementation, and a planted
violation, made through the function the checker calls, that flips it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from petheory.bounds import long_context as lc
from petheory.bounds import men_base as mb
from petheory.encodings import rope_frequencies
from proofs_check.claims import barbero2024, kazemnejad2023, liu2023, men2024, nakanishi2025, su2021, wu2025
from proofs_check.engine import Context, get
from proofs_check.runner import check_claim


def verdict(claim_id, **kw):
    return check_claim(get(claim_id), profile="quick", seed=0, **kw)


EXPECTED = {
    "men2024.similar_token_gap": "holds",
    "liu2023.critical_dimension": "holds",
    "liu2023.extrapolation_bound": "holds",
    "su2021.abel_bound": "holds",
    "su2021.long_term_decay__corrected": "holds",
    "barbero2024.max_at_any_offset": "holds",
    "barbero2024.no_decay_isotropic": "holds",
    "barbero2024.nope_cannot_sharpen": "holds",
    "wu2025.decay_mask_peak": "holds",
    "wu2025.causal_mask_first_token": "holds",
    "wu2025.sliding_window_first_token": "holds",
    "wu2025.prefix_mask_prefix_tokens": "holds",
    "kazemnejad2023.nope_absolute_position": "holds",
    "kazemnejad2023.nope_relative_position": "holds",
    "nakanishi2025.ssmax_prevents_fading": "holds",
}


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_real_implementation_verdict(claim_id):
    assert verdict(claim_id)["verdict"] == EXPECTED[claim_id]


def test_men_bound_depends_on_the_reading():
    rec = verdict("men2024.base_bounds_context")
    by = {r["name"]: r for r in rec["readings"]}
    assert rec["verdict"] == "depends"
    assert by["smallest_passing_base"]["verdict"] == "holds"
    bad = by["every_larger_base_passes"]
    assert bad["verdict"] == "refuted" and bad["counterexample"]["factor"] >= 1.0


def test_roformer_decay_is_refuted_in_both_readings():
    rec = verdict("su2021.long_term_decay")
    assert rec["verdict"] == "refuted"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"monotone": "refuted", "envelope": "refuted"}


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
    """Table 2's 256k entry (3.6e7) is not Eq. 11's inf: 3.32e7, below its rounding, already passes at 256k and 262144."""
    rec = verdict("men2024.table2_long_contexts")
    assert rec["verdict"] == "refuted"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"k_is_1024": "refuted", "k_is_1000": "refuted"}
    below, _ = men2024._entry(3.6e7, 262144)
    b = below["first_passing"]
    assert b is not None and b < 3.6e7 - 5e5
    # the witness checked by direct cosines (error ~ (d/2) m eps ~ 2e-9 at m = 262144), with margin 0.1 >> that
    assert _direct_min_kernel(b, 262144) > 0.1 and _direct_min_kernel(b, 256000) > 0.1


def test_men_table2_128k_row_search_finds_the_island_men_smallest_base_finds():
    """The passing set at 128k has an island 4.8692e6..4.8725e6 (0.07 % wide): the check searches below each row on
    men_smallest_base's own grid, so it finds the grid base the scan finds (4.8709e6), far below the row's 7.8e6."""
    below, inside = men2024._entry(7.8e6, 131072)
    b = below["first_passing"]
    assert b is not None and 4.869e6 < b < 4.873e6 and b in set(mb.men_grid(4.8e6, 4.9e6))
    assert _direct_min_kernel(b, 131072) > 0.1  # direct cosines; error ~ (d/2) L eps ~ 2e-9
    assert not mb.men_passes(4.86e6, d=128, context=131072) and not mb.men_passes(4.88e6, d=128, context=131072)


def test_planted_long_row_of_eq11s_value_holds(monkeypatch):
    # 4.9e6 at 128k: men_smallest_base(128, 131072) = 4.869e6 lies in a passing island 0.07 % wide within its rounding
    monkeypatch.setattr(men2024, "TABLE2", {128: 4.9e6})
    assert verdict("men2024.table2_long_contexts#k_is_1024")["verdict"] == "holds"


SKIPPED_FOR_THEIR_SOURCE = ["barbero2024.single_frequency_channel",
                            "liu2023.smaller_base_extrapolation"]


@pytest.mark.parametrize("claim_id", SKIPPED_FOR_THEIR_SOURCE)
def test_statements_not_recovered_are_skipped_with_the_reason(claim_id):
    rec = verdict(claim_id)
    assert rec["verdict"] == "skipped" and "full text could not be reached" in get(claim_id).skip_reason


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
    rec = verdict("men2024.base_bounds_context#smallest_passing_base")
    assert rec["verdict"] == "refuted"


def test_planted_larger_bases_that_all_pass(monkeypatch):
    monkeypatch.setattr(men2024, "min_kernel", lambda d, base, L: (0.5, 0))
    assert verdict("men2024.base_bounds_context#every_larger_base_passes")["verdict"] == "holds"


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


def test_planted_monotone_bound_holds(monkeypatch):
    monkeypatch.setattr(lc, "roformer_relative_bound", lambda r, w: 1.0 / (1.0 + np.asarray(r, float)))
    rec = verdict("su2021.long_term_decay")
    assert rec["verdict"] == "holds"


def test_planted_table2_of_eq11s_values_holds(monkeypatch):
    # the entries Eq. 11 gives at L = 1024 k (1k: 4.29e3, 8k: 8.38e4), rounded to two digits: the checker accepts them
    monkeypatch.setattr(men2024, "TABLE2", {1: 4.3e3, 8: 8.4e4})
    rec = verdict("men2024.table2_lower_bounds#k_is_1024")
    assert rec["verdict"] == "holds"


def test_planted_octave_means_that_rise(monkeypatch):
    real = lc.roformer_relative_bound
    monkeypatch.setattr(lc, "roformer_relative_bound", lambda r, w: real(r, w) + 1e-3 * np.asarray(r, float))
    assert verdict("su2021.long_term_decay__corrected")["verdict"] == "refuted"


def test_planted_key_that_is_not_the_rotated_query(monkeypatch):
    real = barbero2024.best_key
    monkeypatch.setattr(barbero2024, "best_key", lambda q, w, r: real(q, w, r + 1))  # R^{r+1} q at offset r
    assert verdict("barbero2024.max_at_any_offset")["verdict"] == "refuted"


def test_planted_correlated_queries_and_keys(monkeypatch):
    def correlated(rng, d):
        q = rng.standard_normal((barbero2024.N_SAMPLES, d))
        return q, q + 0.1 * rng.standard_normal(q.shape)

    monkeypatch.setattr(barbero2024, "sample_pair", correlated)
    assert verdict("barbero2024.no_decay_isotropic")["verdict"] == "refuted"


def test_planted_rope_head_sharpens_the_diagonal(monkeypatch):
    def rope_logits(x, w_q, w_k, positions):  # the same head with RoPE (base 10): positions now reach the logits
        q, k = x @ w_q.T, x @ w_k.T
        w = rope_frequencies(q.shape[1], base=10.0)
        rot = np.stack([barbero2024._rot(row, w, p) for row, p in zip(q, positions)])
        rok = np.stack([barbero2024._rot(row, w, p) for row, p in zip(k, positions)])
        return rot @ rok.T

    monkeypatch.setattr(barbero2024, "head_logits", rope_logits)
    assert verdict("barbero2024.nope_cannot_sharpen")["verdict"] == "refuted"


def test_planted_peak_off_by_a_factor(monkeypatch):
    real = lc.decay_mask_peak
    monkeypatch.setattr(lc, "decay_mask_peak", lambda t, m: (real(t, m)[0], 2.0 * real(t, m)[1] + 2.0))
    assert verdict("wu2025.decay_mask_peak")["verdict"] == "refuted"


@pytest.mark.parametrize("claim_id", ["wu2025.causal_mask_first_token", "wu2025.sliding_window_first_token"])
def test_planted_epsilon_larger_than_the_smallest_weight(monkeypatch, claim_id):
    real = wu2025.lemma_a1_epsilon
    # three times the smallest weight (at most 1/(N-1), where the last token's bound reaches 0): too tight a bound
    monkeypatch.setattr(wu2025, "lemma_a1_epsilon", lambda layers: min(3.0 * real(layers), 1.0 / (len(layers[0][0]) - 1)))
    assert verdict(claim_id)["verdict"] == "refuted"


def _last_token_off_the_prefix(real):
    def mask(n, k):
        m = real(n, k)
        m[n - 1, :k] = False  # the last token no longer sees the prefix: its context cannot converge to it
        return m
    return mask


def test_prefix_mask_is_the_authors():
    # utils.prefix_mask in the authors' repository: rows < K see columns < K, later rows are causal
    m = wu2025.prefix_mask(5, 2)
    assert m.tolist() == [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]


def test_planted_token_that_never_sees_the_prefix(monkeypatch):
    monkeypatch.setattr(wu2025, "prefix_mask", _last_token_off_the_prefix(wu2025.prefix_mask))
    assert verdict("wu2025.prefix_mask_prefix_tokens")["verdict"] == "refuted"


def test_planted_bidirectional_mask_loses_position(monkeypatch):
    real = kazemnejad2023.causal_uniform_attention
    monkeypatch.setattr(kazemnejad2023, "causal_uniform_attention", lambda n, causal=True: real(n, causal=False))
    assert verdict("kazemnejad2023.nope_absolute_position")["verdict"] == "refuted"


def test_planted_query_with_a_positive_position(monkeypatch):
    real = kazemnejad2023.relative_construction

    def plus_t(content_dim, head_dim, lam, rng):  # the query carries +t: the logits get lam (i + t), not relative
        w_q, w_k = real(content_dim, head_dim, lam, rng)
        w_q[head_dim, content_dim] = 1.0
        return w_q, w_k

    monkeypatch.setattr(kazemnejad2023, "relative_construction", plus_t)
    assert verdict("kazemnejad2023.nope_relative_position")["verdict"] == "refuted"


def test_planted_plain_softmax_fades(monkeypatch):
    real = lc.single_target_attention
    monkeypatch.setattr(lc, "single_target_attention", lambda g, n, logit_factor=1.0: real(g, n, logit_factor=1.0))
    assert verdict("nakanishi2025.ssmax_prevents_fading")["verdict"] == "refuted"


def test_the_claim_modules_are_registered_under_their_paper():
    for mod in (men2024, liu2023, su2021, barbero2024, wu2025, kazemnejad2023, nakanishi2025):
        name = mod.__name__.rsplit(".", 1)[1]
        assert any(c.id.startswith(name + ".") for c in __import__("proofs_check.engine").engine.all_claims())
