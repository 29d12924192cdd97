"""The proof steps of gu2025 App. B checked on their own (proofs_check.claims.gu2025_proofs).

The paper's step is wrong, so the real implementation gives ``refuted`` with a small shrunk case, and a planted
world in which the step is true (every band turning by the same angle) gives ``holds``, through the registry
entry that ``petheory check`` runs.
"""

from __future__ import annotations

import numpy as np

from petheory import encodings as enc
from proofs_check import engine

from _helpers import check_claim

ID = "gu2025.prop_b1_mean_value_step"


def test_the_mean_value_step_is_refuted_on_a_small_case():
    rec = check_claim(ID)
    assert rec["verdict"] == "refuted", rec
    cx = rec["counterexample"]
    assert cx["d"] >= 4 and cx["offset"] != 0  # one band (d = 2) or offset 0 cannot violate it
    replay = engine.get(ID).check(cx)
    assert replay > 0


def test_the_step_holds_when_every_band_turns_by_one_angle(monkeypatch):
    real = enc.rope_frequencies
    monkeypatch.setattr("petheory.encodings.rotary.rope_frequencies", lambda d, **k: np.full_like(real(d, **k), 0.7))
    rec = check_claim(ID)
    assert rec["verdict"] == "holds", rec


def test_one_band_or_offset_zero_cannot_violate_the_step():
    for seed in range(5):
        one_band = {"d": 2, "base": 10000.0, "offset": 7 + seed, "seed": seed}
        no_turn = {"d": 16, "base": 10000.0, "offset": 0, "seed": seed}
        assert engine.get(ID).check(one_band) < 0 and engine.get(ID).check(no_turn) < 0
