"""The 2025-26 results researchers cite (issue 42): lin2025 (FoX), tan2024 (stick-breaking), huang2025 (MRoPE-I),
wei2025 (VideoRoPE); and the reader's round-4 verdicts (gu2025.logit_expressiveness, li2025.wavelet_unnormalised_norm,
gu2025.mla_logit_form). Each verdict on the real implementation and a planted violation that flips it."""

from __future__ import annotations

import numpy as np
import pytest

from petheory import scheme
from petheory.encodings import bias
from proofs_check.claims import gu2025_mla, huang2025, tan2024
from proofs_check.engine import get
from proofs_check.runner import check_claim


def record(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)


@pytest.mark.parametrize("claim_id", ["lin2025.constant_gate_is_alibi", "tan2024.weights_sum_at_most_one",
                                      "huang2025.interleave_full_frequency", "wei2025.mrope_temporal_high_frequency"])
def test_real_implementation_holds(claim_id):
    assert record(claim_id)["verdict"] == "holds"


def test_constant_gate_slope_is_minus_log_f(monkeypatch):
    real = bias.alibi
    monkeypatch.setattr(bias, "alibi", lambda n, **k: 1.01 * real(n, **k))
    assert record("lin2025.constant_gate_is_alibi")["verdict"] == "refuted"


def test_planted_gates_without_the_stick_breaking_product(monkeypatch):
    def sigmoids(logits):  # each key takes sigma(z) of the whole stick: the weights can sum past 1
        n = logits.shape[0]
        i, j = np.indices((n, n))
        return np.where(j < i, 1.0 / (1.0 + np.exp(-logits)), 0.0)

    monkeypatch.setattr(tan2024, "stick_breaking_weights", sigmoids)
    assert record("tan2024.weights_sum_at_most_one")["verdict"] == "refuted"


def test_qwen_layouts_as_resolved():
    cov2, cov3 = huang2025.coverage("qwen2_5_vl"), huang2025.coverage("qwen3_vl")
    # band k of 64 sits at k/63 of the log range; the threshold 2/3 is derived in huang2025.FULL from these layouts
    assert cov2 == pytest.approx({"t": 15 / 63, "h": 23 / 63, "w": 23 / 63})  # chunked (16, 24, 24): contiguous
    assert cov3 == pytest.approx({"t": 1.0, "h": 57 / 63, "w": 57 / 63})  # interleaved (24, 20, 20): stride 3
    assert huang2025.FULL == 2 / 3 and max(cov2.values()) < huang2025.FULL < min(cov3.values())


def test_planted_interleaved_layout_laid_out_in_chunks(monkeypatch):
    import dataclasses

    real = scheme.MRope.band_axes
    monkeypatch.setattr(scheme.MRope, "band_axes", lambda self: real(dataclasses.replace(self, layout="chunked")))
    assert record("huang2025.interleave_full_frequency")["verdict"] == "refuted"


def test_planted_sections_from_the_slow_end(monkeypatch):
    real = scheme.MRope.band_axes
    monkeypatch.setattr(scheme.MRope, "band_axes", lambda self: tuple(reversed(real(self))))
    assert record("wei2025.mrope_temporal_high_frequency")["verdict"] == "refuted"


def test_logit_expressiveness_depends_on_the_phase_model():
    rec = record("gu2025.logit_expressiveness")
    by = {r["name"]: r for r in rec["readings"]}
    assert rec["verdict"] == "depends"
    assert by["single_phase"]["verdict"] == "holds" and by["single_phase"]["evidence"] == "definitional"
    assert by["rope_logit"]["verdict"] == "refuted"


def test_planted_rope_feasible_set_equal_to_relative(monkeypatch):
    monkeypatch.setattr(gu2025_mla, "_feasible_rope", gu2025_mla._feasible_relative)
    assert record("gu2025.logit_expressiveness#single_phase")["verdict"] == "refuted"


def test_mla_logit_form_depends_on_the_schematic_reading():
    rec = record("gu2025.mla_logit_form")
    assert rec["verdict"] == "depends"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"literal_identity": "refuted", "schematic": "holds"}


def test_wavelet_norm_upper_bound_holds_and_the_rate_is_not_decided():
    rec = record("li2025.wavelet_unnormalised_norm")
    assert rec["verdict"] == "depends"
    assert {r["name"]: r["verdict"] for r in rec["readings"]} == {"upper_bound": "holds", "attained_rate": "inconclusive"}


def test_planted_norms_beyond_the_upper_bound(monkeypatch):
    from petheory.bounds import decay

    monkeypatch.setattr(decay, "wavelet_norms", lambda n, d, **k: np.full(n, float(n) ** 1.2 * np.sqrt(np.log(n))))
    assert record("li2025.wavelet_unnormalised_norm#upper_bound")["verdict"] == "refuted"
