"""petheory.bounds.long_context (issue 31): each formula against a direct computation from its definition, the
numbers the sources report (the report's section on them: tests/analyses/test_long_context_section.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory.bounds import long_context as lc
from petheory.bounds import men_base as mb
from petheory.bounds import men_search as ms
from petheory.encodings import longrope_attention_factor, rope, rope_frequencies, yarn_mscale
from petheory.errors import ValidationError
from petheory.scheme import Temperature

EPS = np.finfo(float).eps


def test_men_kernel_is_half_the_trace_of_the_rope_rotation():
    t = rope(300, 16, base=500.0)
    w = rope_frequencies(16, base=500.0)
    for m in (0, 1, 17, 299):
        # trace of R_m: 16 terms of size <= 1, rounding of cos(m w) ~ m * eps each
        assert abs(np.trace(t.matrix(m)) / 2 - mb.men_kernel(m, w)) <= 16 * (m + 1) * EPS * 4


def test_men_min_kernel_matches_a_full_scan():
    w = rope_frequencies(32, base=3000.0)
    full = mb.men_kernel(np.arange(0, 1001), w)
    mn, at = mb.men_min_kernel(w, 1000, stop_below=None)
    assert abs(mn - full.min()) <= 4 * 16 * 1000 * EPS and at == int(np.argmin(full))  # see the blocked test below
    assert mb.men_min_kernel(w, 1000)[0] < 0  # the early stop still reports a negative minimum


def test_men_min_kernel_early_stop_reports_a_real_negative_value_past_the_first_chunk():
    # L = 300000: several chunks of 64 columns of ~547 distances; the stopped value is B_m at the m it reports
    w = rope_frequencies(128, base=1.5e7)
    mn, at = mb.men_min_kernel(w, 300000)
    full, at_full = mb.men_min_kernel(w, 300000, stop_below=None)
    assert mn < 0 and full <= mn and at <= 300000
    assert abs(mb.men_kernel(at, w) - mn) <= 64 * 300000 * EPS  # the product's error budget (r/2) L eps


def test_men_first_passing_agrees_with_men_passes_base_by_base():
    bases = np.geomspace(1e3, 2e4, 200)  # the first passing base is near Men's 4.3e3 at L = 1024
    passes = [mb.men_passes(b, d=128, context=1024) for b in bases]
    r = mb.men_first_passing(bases, d=128, context=1024)
    first = next((i for i, p in enumerate(passes) if p), None)
    assert first is not None and r["first_passing"] == bases[first] and r["evaluated"] == first + 1
    assert r["its_min"] >= 0 and (first == 0 or r["worst_failure"] < 0)
    none = mb.men_first_passing(bases[:first], d=128, context=1024) if first else None
    if none is not None:
        assert none["first_passing"] is None and none["evaluated"] == first and none["worst_failure"] < 0


def test_men_first_passing_refuses_bad_bases():
    with pytest.raises(ValidationError, match="positive"):
        mb.men_first_passing([1e4, -1.0], d=64, context=100)


@pytest.mark.parametrize("L, table", [(1024, 4.3e3), (8192, 8.4e4)])
def test_smallest_base_reproduces_men_et_al_at_d128(L, table):
    b = mb.men_smallest_base(128, L)
    assert round(b, -int(math.floor(math.log10(b))) + 1) == table  # the paper prints two significant digits
    assert mb.men_passes(b, d=128, context=L)
    assert not mb.men_passes(b * (1 - 2e-4), d=128, context=L)  # the bisection's other end (rel 1e-4) fails


def test_passing_bases_are_not_closed_upwards():
    b = mb.men_smallest_base(128, 1024)
    r = mb.men_every_larger_base(128, 1024, upto=1e4, start=b)
    assert not r["holds"] and min(r["failing"]) < 4.4e3 and mb.men_passes(6.2e3, d=128, context=1024)


def test_smallest_base_refuses_an_empty_range():
    with pytest.raises(ValidationError, match="raise hi"):
        mb.men_smallest_base(128, 1024, lo=2.0, hi=100.0)


def test_liu_critical_dimension_reproduces_llama2_and_counts_bands():
    assert lc.liu_critical_dimension(128, 1e4, 4096) == 92
    assert round(lc.liu_extrapolation_bound(128, 92, 1e4)) == 4712
    for d, b, T in [(64, 500.0, 1000), (128, 5e5, 8192), (96, 1e6, 131072), (16, 10.0, 5)]:
        w = rope_frequencies(d, base=b)
        assert lc.liu_critical_dimension(d, b, T) == 2 * int(np.sum(2 * np.pi / w < T))


def test_roformer_relative_bound_from_its_definition():
    w = rope_frequencies(128, base=1e4)
    r = np.array([0, 1000, 4999])
    direct = [np.mean([abs(sum(np.exp(1j * x * w[:j]))) for j in range(1, 65)]) for x in r]
    got = lc.roformer_relative_bound(r, w)
    np.testing.assert_allclose(got, direct, rtol=1e-12)
    assert [round(x, 2) for x in got] == [32.5, 4.47, 7.49]  # outside.md's computed numbers


def test_abel_bound_holds_on_random_cases():
    rng = np.random.default_rng(0)
    for _ in range(200):
        h = rng.standard_normal(8) + 1j * rng.standard_normal(8)
        lhs, rhs = lc.abel_bound(h, rng.uniform(0, 1e4), rope_frequencies(16, base=rng.uniform(2, 1e5)))
        assert lhs <= rhs * (1 + 64 * EPS)


def test_temperatures_are_the_library_factors():
    n = [4096, 8192, 65536, 131072]
    t = lc.attention_temperatures(n, scale=8.0, context=8192, ssmax_s=0.43)
    assert t["yarn"] == [yarn_mscale(8.0) ** 2] * 4
    assert t["longrope"] == [longrope_attention_factor(8.0, 8192) ** 2] * 4
    np.testing.assert_array_equal(t["llama4"], Temperature("llama4", {"floor_scale": 8192, "attn_scale": 0.1})
                                  .at(np.array(n) - 1))
    np.testing.assert_allclose(t["ssmax"], 0.43 * np.log(n), rtol=1e-15)


def test_single_target_attention_is_a_softmax():
    for gap, n, c in [(1.0, 2, 1.0), (0.3, 1000, np.log(1000)), (5.0, 17, 0.5), (2.0, 1, 1.0)]:
        z = np.concatenate([[c * gap], np.zeros(n - 1)])
        p = np.exp(z - z.max())
        assert abs(lc.single_target_attention(gap, n, logit_factor=c) - p[0] / p.sum()) <= 8 * EPS


def test_decay_mask_peak_matches_brute_force():
    for t, m in [(0, 1.0), (10, 0.5), (37, 0.05), (200, 2.0), (1000, 0.3)]:
        x = max(range(0, int(3 * t / math.expm1(m)) + 10), key=lambda x: math.lgamma(t + x + 1) - math.lgamma(x + 1) - x * m)
        assert lc.decay_mask_peak(t, m)[0] == x


@pytest.mark.parametrize("d, base, L", [(128, 5e5, 8192), (64, 3e3, 5000), (16, 100.0, 1500), (256, 1e6, 40000)])
def test_blocked_min_kernel_matches_the_direct_sum(d, base, L):
    w = rope_frequencies(d, base=base)
    full = mb.men_kernel(np.arange(L + 1), w)
    mn, at = mb.men_min_kernel(w, L, stop_below=None)
    # both round each argument m*theta (|m theta| <= L): (d/2) terms of error ~ L * eps each, times a few
    assert abs(mn - full.min()) <= 4 * (d / 2) * L * EPS
    assert at == int(np.argmin(full)) or abs(full[at] - full.min()) <= 4 * (d / 2) * L * EPS


@pytest.mark.parametrize("d,L", [(64, 700), (128, 1024), (128, 3000), (32, 2048)])
def test_smallest_base_with_witnesses_is_the_plain_scan(d, L):
    """The witness filter only skips full scans of bases it has seen fail: the answer is the plain grid scan's."""
    lo, hi, per_decade, rel = 2.0, 1e9, 64, 1e-4
    grid = np.geomspace(lo, hi, int(math.ceil(math.log10(hi / lo) * per_decade)) + 1)
    prev = None
    for b in grid:
        if mb.men_passes(b, d=d, context=L):
            a, c = prev, float(b)
            while prev is not None and c / a - 1.0 > rel:
                mid = math.sqrt(a * c)
                a, c = (a, mid) if mb.men_passes(mid, d=d, context=L) else (mid, c)
            want = c
            break
        prev = float(b)
    assert mb.men_smallest_base(d, L, lo=lo, hi=hi, per_decade=per_decade, rel=rel) == want


@pytest.mark.parametrize("d,L", [(64, 700), (128, 3000)])
def test_a_witness_that_reads_only_the_sign_decides_as_the_certifying_one(d, L):
    """_Witnesses(certify=False) stops at the first failing witness distance: base by base, with the same witnesses,
    it declares a failure exactly when the certifying filter (the minimum over every witness distance) does."""
    sign, cert = mb._Witnesses(L, certify=False), mb._Witnesses(L)
    decided = 0
    for b in np.geomspace(50.0, 1e6, 400):
        w = rope_frequencies(d, base=float(b))
        assert sign.fails(w) == cert.fails(w), b
        decided += cert.fails(w)
        cert.passes(float(b), d)  # the certifying filter picks up witnesses as the scan does; both share them
        sign.at = list(cert.at)
    assert decided > 100  # most failures are decided by a witness: the comparison is not vacuous


def _check_first_passing_base(r, start, d, L):
    """The search's answer as it states it: its base passes, the bracket's low end and bases below fail, and a fine
    grid of [start, base) (men_first_passing, 2048 a decade) finds no passing base the search stepped over."""
    assert r["certified"] and r["slivers"] == 0
    assert mb.men_passes(r["base"], d=d, context=L)
    lo, hi = r["bracket"]
    assert hi == r["base"] and hi / lo - 1 <= 1e-6
    assert not mb.men_passes(lo * (1 - 1e-9), d=d, context=L)
    fine = mb.men_grid(start, r["base"], per_decade=2048)
    assert mb.men_first_passing(fine, d=d, context=L)["first_passing"] is None


@pytest.mark.parametrize("k,table", [(1, 4.3e3), (4, 2.7e4)])
def test_men_first_passing_base_matches_table2_where_the_grid_steps_over_an_island(k, table):
    """Men et al. Table 2 (d = 128): 4.3e3 at 1k and 2.7e4 at 4k, to the two digits printed; at 4k the 64-a-decade
    grid's first passing base is 4.73e4 (the island near 2.7e4 is narrower than a grid step)."""
    L = 1024 * k
    r = ms.men_first_passing_base(table / 3, d=128, context=L)
    _check_first_passing_base(r, table / 3, 128, L)
    assert float(f"{r['base']:.2g}") == table
    if k == 4:
        assert r["grid_base"] > 4.7e4 and r["base"] < 2.8e4


def test_a_bound_that_certifies_too_much_is_caught(monkeypatch):
    """Planted: an interval bound that calls every interval failing steps over the island: the check above fails."""
    monkeypatch.setattr(ms, "_interval_upper", lambda lo, hi, ms, d: np.full(ms.shape, -1e9))
    r = ms.men_first_passing_base(9e3, d=128, context=4096)
    with pytest.raises(AssertionError):
        _check_first_passing_base(r, 9e3, 128, 4096)


def test_men_first_passing_base_says_when_its_budget_ran_out():
    r = ms.men_first_passing_base(1e4, d=128, context=4096, max_work=1e6)
    assert not r["certified"] and r["base"] == r["grid_base"] and mb.men_passes(r["base"], d=128, context=4096)


def test_rules_no_declaration_states_are_parameter_errors_of_their_function():
    from petheory.analyses.long_context import long_context_section
    from petheory.bounds import rope_base as rb
    from petheory.errors import ParameterError
    from petheory.scheme import Positions

    rules = [
        (lambda: lc.liu_extrapolation_bound(8, 10, 1e4), lc.liu_extrapolation_bound, "d_extra must be <= d = 8, got 10"),
        (lambda: lc.roformer_relative_bound([1.0], [-1.0, 1.0]), lc.roformer_relative_bound,
         "freqs must be non-negative band frequencies (rad/position), got [-1.0, 1.0]"),
        (lambda: lc.abel_bound([1.0, 2.0, 3.0], 1.0, [1.0, 0.5]), lc.abel_bound,
         "h must be of one number per band (2, as freqs has), got [1.0, 2.0, 3.0]"),
        (lambda: lc.attention_temperatures([1]), lc.attention_temperatures, "context must be >= 2, got 1"),
        (lambda: mb.men_first_passing([1e3, -1.0], d=8, context=10), mb.men_first_passing,
         "bases must be positive RoPE bases, got [1000.0, -1.0]"),
        (lambda: rb.exact_aliasing_min_base(10, 2), rb.exact_aliasing_min_base,
         "rotary_dim must be >= 4 (with one band, r = 2, its frequency is 1 rad/position for every base, so no base "
         "bounds it), got 2"),
        (lambda: long_context_section(Positions("rotary", "rope", {}, 64), context=1024, extended_context=512, length=64),
         long_context_section, "extended_context must be >= context (1024), got 512"),
    ]
    for call, fn, message in rules:
        with pytest.raises(ParameterError) as info:
            call()
        assert str(info.value) == message and info.value.owner is fn, message
