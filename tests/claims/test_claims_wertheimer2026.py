"""wertheimer2026 (Frayed RoPE, arXiv 2603.18017): long inputs make the slow channels meet angles training never
showed, and never the channels whose period fits the training length; plants through the ladder."""

from __future__ import annotations

import math

import numpy as np

from petheory.encodings import rotary
from proofs_check.claims.wertheimer2026 import out_of_distribution
from proofs_check.engine import get
from proofs_check.runner import check_claim


def verdict():
    return check_claim(get("wertheimer2026.channels_rotate_ood"), profile="quick", seed=0)["verdict"]


def test_holds_on_the_ladder():
    assert verdict() == "holds"


def test_the_distance_to_seen_angles():
    assert out_of_distribution(2 * math.pi / 5, 10, 20) < 0  # period 5 <= 10: every later angle was seen
    assert out_of_distribution(0.01, 100, 200) > 0.9  # angles 1.0..2.0 rad are new, up to a radian from 0.99
    # a period between L and 2L: the arc seen is most of the circle, the rest (within a step) counts as new
    assert out_of_distribution(2 * math.pi / 150, 100, 200) > 0


def test_planted_frozen_ladder(monkeypatch):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda *a, **k: 0.0 * real(*a, **k))
    assert verdict() == "refuted"


def test_planted_ladder_of_fast_channels(monkeypatch):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda *a, **k: np.full_like(real(*a, **k), 2 * np.pi / 3))
    assert verdict() == "refuted"
