"""Check the checkers of the gu2025 coupling claims (Eq. 8, Assumption 3.2, Remarks 3.1-3.2, Eq. 9).

For a claim that holds: the real implementation gives ``holds`` and a planted wrong
implementation gives ``refuted``. For a claim the paper states wrongly: the real implementation
gives ``refuted`` with the shrunk counterexample, and a planted world in which the statement is
true gives ``holds`` -- so the checker can tell the statement from its negation both ways.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from petheory import coupling
from petheory import encodings as enc
from petheory import softmax
from petheory import toeplitz as tp
from proofs_check import engine, runner

from _helpers import check_claim

HOLDS = [
    "gu2025.logit_decomposition",
    "gu2025.gpp_toeplitz__corrected",
    "gu2025.sinusoidal_scores_toeplitz__corrected",
    "gu2025.normalisation_keeps_toeplitz__corrected",
    "gu2025.rope_logit_form__corrected",
]
REFUTED = [
    "gu2025.gpp_toeplitz",
    "gu2025.sinusoidal_scores_toeplitz",
    "gu2025.normalisation_keeps_toeplitz",
    "gu2025.rope_logit_form",
]


def check(claim_id: str) -> dict:
    return check_claim(claim_id)


def refuted(claim_id: str) -> dict:
    rec = check(claim_id)
    assert rec["verdict"] == "refuted", rec
    assert runner.replay(engine.get(claim_id), rec["counterexample"])["violation"] > 0
    return rec


def holds(claim_id: str) -> dict:
    rec = check(claim_id)
    assert rec["verdict"] == "holds", rec
    assert rec["cases"] > 0
    return rec


@pytest.mark.parametrize("claim_id", HOLDS)
def test_real_implementation_holds(claim_id):
    holds(claim_id)


def test_corrected_variants_point_at_their_claims():
    for cid in HOLDS[1:]:
        assert engine.get(cid).corrected_of == cid.removesuffix("__corrected")


# ---------------------------------------------------------------------------- statements that fail


def test_assumption_3_2_is_reported_per_object_class_not_refuted():
    rec = runner.check_claim(engine.get("gu2025.gpp_toeplitz"))
    assert rec["paper_status"] == "assumption" and rec["verdict"] == "depends"
    assert {x["name"]: x["verdict"] for x in rec["readings"]} == {
        "relative_bias": "holds", "sinusoidal": "holds", "other_absolute": "refuted"}
    ce = refuted("gu2025.gpp_toeplitz#other_absolute")["counterexample"]
    assert ce["n"] == 2 and ce["pe"] != "sinusoidal"  # the sinusoidal finding is Remark 3.2's alone


def test_no_two_claims_are_refuted_by_the_same_computation():
    a = refuted("gu2025.gpp_toeplitz#other_absolute")
    b = refuted("gu2025.sinusoidal_scores_toeplitz#with_projections")
    assert a["counterexample"] != b["counterexample"] and a["margin"] != b["margin"]


def test_relative_bias_reading_catches_a_bias_that_depends_on_the_key(monkeypatch):
    real = enc.get

    def planted(name):
        f = real(name)
        return (lambda n, **k: f(n, **k) + np.arange(n)[None, :] * 0.1) if name in ("alibi", "t5", "relative") else f

    monkeypatch.setattr(enc, "get", planted)
    refuted("gu2025.gpp_toeplitz#relative_bias")


def test_sinusoidal_reading_catches_a_position_dependent_amplitude(monkeypatch):
    real = enc.sinusoidal
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None])
    refuted("gu2025.gpp_toeplitz#sinusoidal")


def test_logit_decomposition_catches_swapped_cross_terms(monkeypatch):
    real = coupling.logit_terms

    def swapped(*a, **k):
        t = real(*a, **k)
        return dataclasses.replace(t, cp=t.pc, pc=t.cp)  # same total, wrong terms

    monkeypatch.setattr(coupling, "logit_terms", swapped)
    refuted("gu2025.logit_decomposition")


def test_sine_cosine_scores_through_projections_are_not_toeplitz():
    ce = refuted("gu2025.sinusoidal_scores_toeplitz#with_projections")["counterexample"]
    assert ce["projections"] != "identity"  # without projections PP^T is Toeplitz (the corrected claim)


def test_row_softmax_of_a_toeplitz_matrix_is_not_toeplitz():
    ce = refuted("gu2025.normalisation_keeps_toeplitz#row_softmax")["counterexample"]
    assert len(ce["c"]) == 2 and ce["c"] != ce["r"]  # 2x2 needs asymmetry; symmetric needs n >= 3
    assert "n" not in ce  # the size is the length of c and r: the shrunk case drops the field
    sym = softmax.row_softmax(np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0]]))
    assert sym[0, 0] != pytest.approx(sym[1, 1])  # the symmetric N=3 counterexample


def test_no_single_toeplitz_phase_matrix_reproduces_rope():
    ce = refuted("gu2025.rope_logit_form")["counterexample"]
    assert ce["n"] == 2 and ce["d"] == 4  # two bands at two positions already defeat one G_e


# ---------------------------------------------------------------------------- planted worlds where they hold


def test_gpp_toeplitz_holds_in_a_world_whose_pp_term_is_projected(monkeypatch):
    real = coupling.logit_terms

    def toeplitzised(*a, **k):
        t = real(*a, **k)
        return coupling.LogitTerms(t.cc, t.cp, t.pc, tp.toeplitz_projection(t.pp), t.bias, t.scale)

    monkeypatch.setattr(coupling, "logit_terms", toeplitzised)
    holds("gu2025.gpp_toeplitz")


def test_sinusoidal_scores_hold_when_every_projection_is_the_identity(monkeypatch):
    monkeypatch.setattr(coupling, "random_projections", lambda d, dh, **k: (np.eye(d), np.eye(d)))
    holds("gu2025.sinusoidal_scores_toeplitz")


def test_normalisation_keeps_toeplitz_without_the_normaliser(monkeypatch):
    monkeypatch.setattr("petheory.softmax.row_softmax", np.exp)  # exp(T) is Toeplitz; the normaliser is the culprit
    holds("gu2025.normalisation_keeps_toeplitz")


def test_single_phase_matrix_exists_when_all_bands_share_one_frequency(monkeypatch):
    real = enc.rope_frequencies
    monkeypatch.setattr("petheory.encodings.rotary.rope_frequencies", lambda d, **k: np.full_like(real(d, **k), 0.7))
    holds("gu2025.rope_logit_form")


# ---------------------------------------------------------------------------- planted violations


def test_decomposition_missing_a_cross_term_is_refuted(monkeypatch):
    real = coupling.logit_terms

    def dropped(*a, **k):
        t = real(*a, **k)
        return coupling.LogitTerms(t.cc, np.zeros_like(t.cp), t.pc, t.pp, t.bias, t.scale)

    monkeypatch.setattr(coupling, "logit_terms", dropped)
    refuted("gu2025.logit_decomposition")


def test_sinusoid_with_growing_amplitude_is_refuted(monkeypatch):
    real = enc.sinusoidal
    monkeypatch.setattr("petheory.encodings.absolute.sinusoidal", lambda n, d, **k: real(n, d, **k) * (1 + 0.01 * np.arange(n))[:, None])
    refuted("gu2025.gpp_toeplitz__corrected")
    refuted("gu2025.sinusoidal_scores_toeplitz__corrected")


def test_causally_masked_softmax_of_a_circulant_is_refuted(monkeypatch):
    real = softmax.row_softmax
    monkeypatch.setattr("petheory.softmax.row_softmax", lambda M: real(np.where(np.triu(np.ones_like(M), 1) > 0, -np.inf, M)))
    refuted("gu2025.normalisation_keeps_toeplitz__corrected")


def test_per_band_form_without_the_conjugate_is_refuted(monkeypatch):
    # gu2025 writes q_i^(t) k_j^(t) e^{i(i-j)θ_t}; without conj(k) the real part is not the logit.
    real_pairs = coupling.complex_pairs
    calls = {"n": 0}

    def keys_preconjugated(x, table):
        calls["n"] += 1
        z = real_pairs(x, table)
        # rope_logit_terms pairs the query parts (calls 1, 2) then the key parts (calls 3, 4):
        # conjugating the keys here cancels the conj in the Gram, leaving the paper's literal q k.
        return np.conj(z) if calls["n"] % 4 in (3, 0) else z

    monkeypatch.setattr("petheory.coupling.rope.complex_pairs", keys_preconjugated)  # where rope_logit_terms reads it
    refuted("gu2025.rope_logit_form__corrected")
