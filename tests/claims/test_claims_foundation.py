"""Check the checkers of the five foundation claims.

For each claim: the real implementation gives ``holds``, and a subtly wrong implementation of the
petheory function the checker calls (planted with monkeypatch) gives ``refuted`` with a
counterexample whose replay shows violation > 0. A checker that passes both is a checker that
can tell the statement from its negation.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from petheory import encodings as enc
from proofs_check import engine, runner

FOUNDATION = [
    "gu2025.rope_relative",
    "li2025.sinusoidal_norm_bound",
    "li2025.alibi_monotone_bias",
    "li2025.learned_no_extrapolation",
    "li2025.legendre_bounded",
]


def refuted(claim) -> dict:
    rec = runner.check_claim(claim, profile="quick", seed=0)
    assert rec["verdict"] == "refuted", rec
    assert runner.replay(claim, rec["counterexample"])["violation"] > 0
    return rec


@pytest.mark.parametrize("claim_id", FOUNDATION)
def test_real_implementation_holds(claim_id):
    rec = runner.check_claim(engine.get(claim_id), profile="quick", seed=0)
    assert rec["verdict"] == "holds", rec
    assert rec["cases"] > 0


def test_rope_relative_is_proved_symbolically():
    rec = runner.check_claim(engine.get("gu2025.rope_relative"))
    assert rec["proved"] is True


_RealRotaryTable = enc.RotaryTable


class _PhaseShiftedRope(_RealRotaryTable):
    """RoPE with a wrong angle at one frequency: p*theta_0 + 0.01 instead of p*theta_0.

    Still a rotation (norms are kept), but R_i^T R_j is no longer R_{j-i}."""

    def apply_at(self, x, p):
        shifted = self.angles.copy()
        shifted[:, 0] += 0.01
        return _RealRotaryTable(shifted, self.d, self.pairing).apply_at(x, p)


def test_rope_with_a_wrong_angle_is_refuted(monkeypatch):
    monkeypatch.setattr("petheory.encodings.rotary.RotaryTable", _PhaseShiftedRope)
    c = engine.get("gu2025.rope_relative")
    # The sympy proof does not call petheory, so it still succeeds: the runner reports the
    # contradiction between proof and numeric search as a crash (a transcription error) ...
    with pytest.raises(runner.CheckerCrash, match="transcribes the statement wrongly"):
        runner.check_claim(c)
    # ... and the numeric checker alone refutes the broken implementation.
    refuted(dataclasses.replace(c, kind="exact", proof=None))


def test_sinusoidal_scaled_by_one_and_a_half_is_refuted(monkeypatch):
    real = enc.sinusoidal
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", lambda *a, **k: 1.5 * real(*a, **k))  # norm 1.06 sqrt(d)
    refuted(engine.get("li2025.sinusoidal_norm_bound"))


def test_alibi_with_a_non_monotone_bump_is_refuted(monkeypatch):
    real = enc.alibi

    def bumped(n, **k):
        B = real(n, **k)
        dist = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
        return B + np.where(dist == 3, 1.5 * k.get("slope", 1.0), 0.0)  # distance 3 scores above distance 2

    monkeypatch.setattr("petheory.encodings.bias.alibi", bumped)
    rec = refuted(engine.get("li2025.alibi_monotone_bias"))
    assert rec["counterexample"]["n"] == 4  # the smallest length that has a distance 3


def test_learned_table_that_extrapolates_is_refuted(monkeypatch):
    def extrapolating(n, d, *, n_max=None, seed=0, std=0.02, beyond="error"):
        return np.random.default_rng(seed).normal(0.0, std, size=(n, d))  # fresh rows past n_max

    monkeypatch.setattr("petheory.encodings.absolute.learned", extrapolating)
    refuted(engine.get("li2025.learned_no_extrapolation"))


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # P_k(x) at x ~ 1e6 overflows: that is the point
def test_legendre_evaluated_unclipped_is_refuted(monkeypatch):
    real = enc.legendre
    monkeypatch.setattr("petheory.encodings.absolute.legendre", lambda *a, **k: real(*a, **{**k, "beyond": "extrapolate"}))
    rec = refuted(engine.get("li2025.legendre_bounded"))
    # unclipped only matters for the linear map (the exp map never leaves [-1, 1)) and d >= 2
    assert rec["counterexample"]["position_map"] == "linear" and rec["counterexample"]["d"] >= 2
