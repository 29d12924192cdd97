"""liu2026 (RoPE as phase modulation, arXiv 2602.10959): the aliasing and DC-stability bounds on the base, as the
summary of the paper gives them, against the library's ladder; a planted violation per library function the holding
claims read (petheory.bounds.rope_base, petheory.encodings.rotary.rope_frequencies)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from petheory.bounds import rope_base as rb
from petheory.encodings import rotary
from proofs_check.engine import get
from proofs_check.runner import check_claim


def record(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)


def verdict(claim_id):
    return record(claim_id)["verdict"]


def test_the_bounds_are_necessary_but_not_sufficient_on_the_ladder():
    for cid in ("liu2026.aliasing_bound", "liu2026.stability_bound"):
        rec = record(cid)
        assert rec["verdict"] == "depends"
        assert {x["name"]: x["verdict"] for x in rec["readings"]} == {"necessary": "holds", "sufficient": "refuted"}
    for cid in ("liu2026.aliasing_bound__corrected", "liu2026.stability_bound__corrected", "liu2026.depth_tightens"):
        assert verdict(cid) == "holds"


def test_a_head_of_128_needs_more_than_the_summarys_aliasing_base():
    # L = 131072: the summary's bound is L / 2 pi = 20,861; at base 22,000 the slowest band (22000^(-126/128)
    # rad/position) still turns once before L (phase 6.68 > 2 pi)
    L, b = 131072, 22000.0
    assert b > rb.aliasing_min_base(L) and L * rotary.rope_frequencies(128, base=b)[-1] > 2 * math.pi
    assert rb.exact_aliasing_min_base(L, 128) == pytest.approx((L / (2 * math.pi)) ** (128 / 126))
    assert L * rotary.rope_frequencies(128, base=1.0001 * rb.exact_aliasing_min_base(L, 128))[-1] < 2 * math.pi


def test_the_necessary_readings_test_cases_that_meet_their_premise():
    from hypothesis import given, settings

    from proofs_check.claims import liu2026

    met = []

    @settings(max_examples=60, database=None, derandomize=True)
    @given(liu2026._cases(with_eps=True))
    def run(case):
        met.append((liu2026._no_turn(case)[0] is True, liu2026._coherent(case)[0] is True))

    run()
    assert sum(a for a, _ in met) >= 10 and sum(b for _, b in met) >= 5  # not holding vacuously


def test_precision_ceiling_is_one_over_machine_epsilon():
    assert rb.precision_max_base("float16") == 1024.0 and rb.precision_max_base(np.float64) == 2.0 ** 52
    with pytest.raises(Exception, match="floating type"):
        rb.precision_max_base("int8")


@pytest.mark.parametrize("name", ["aliasing", "stability"])
def test_planted_slower_ladder_breaks_the_necessary_readings(monkeypatch, name):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda *a, **k: 0.5 * real(*a, **k))
    assert verdict(f"liu2026.{name}_bound#necessary") == "refuted"
    assert verdict(f"liu2026.{name}_bound__corrected") == "refuted"


def test_planted_aliasing_bound_twice_too_high(monkeypatch):
    real = rb.aliasing_min_base
    monkeypatch.setattr(rb, "aliasing_min_base", lambda L: 2.0 * real(L))
    assert verdict("liu2026.aliasing_bound#necessary") == "refuted"


def test_planted_stability_bound_twice_too_high(monkeypatch):
    real = rb.stability_min_base
    monkeypatch.setattr(rb, "stability_min_base", lambda L, eps, depth=1: 2.0 * real(L, eps, depth=depth))
    assert verdict("liu2026.stability_bound#necessary") == "refuted"


def test_planted_stability_bound_that_ignores_depth(monkeypatch):
    real = rb.stability_min_base
    monkeypatch.setattr(rb, "stability_min_base", lambda L, eps, depth=1: real(L, eps, depth=1))
    assert verdict("liu2026.depth_tightens") == "refuted"


@pytest.mark.parametrize("fn, cid", [("exact_aliasing_min_base", "liu2026.aliasing_bound__corrected"),
                                     ("exact_stability_min_base", "liu2026.stability_bound__corrected")])
def test_planted_exact_bound_off_by_half(monkeypatch, fn, cid):
    real = getattr(rb, fn)
    monkeypatch.setattr(rb, fn, lambda *a, **k: 1.5 * real(*a, **k))
    assert verdict(cid) == "refuted"
