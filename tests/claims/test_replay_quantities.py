"""A replay prints the named quantities a checker compares (issue 20.6): the mechanism
(``proofs_check.engine.quantities``), the ``--case`` output, the refuted record, the terminal table's
"Why refuted" lines, and every refuted exact claim of the catalogue naming its quantities."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from hypothesis import strategies as st
from rich.console import Console

from petheory.cli import main
from proofs_check import engine, report, runner
from proofs_check.engine import claim, quantities, recording




def test_quantities_are_kept_only_while_recording_and_become_plain_json():
    quantities(lhs=1.0)  # outside a recording: nothing kept, nothing raised
    with recording() as q:
        quantities(lhs=np.float64(2.5), rhs=np.int64(3), v=np.array([1.0, 2.0]), ok=np.bool_(True))
        quantities(lhs=4.0)  # a later name overwrites
    quantities(rhs=99)
    assert q == {"lhs": 4.0, "rhs": 3, "v": [1.0, 2.0], "ok": True}
    assert type(q["rhs"]) is int and type(q["ok"]) is bool
    json.dumps(q)


def _add_sum_claim():
    @claim(id="testpaper2099.sum_below_ten", source="t", statement="x + y <= 10", kind="exact", paper_status="lemma",
           cases=lambda: st.fixed_dictionaries({"x": st.integers(0, 20), "y": st.integers(0, 20)}))
    def sum_below_ten(case) -> float:
        lhs = case["x"] + case["y"]
        quantities(x_plus_y=lhs, bound=10)
        return float(lhs - 10)


def test_replay_prints_the_quantities_the_checker_compares(scratch, capsys):
    _add_sum_claim()
    assert main(["check", "--claims", "testpaper2099.sum_below_ten", "--case", '{"x": 7, "y": 5}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["violation"] == 2.0 and out["verdict"] == "refuted"
    assert out["quantities"] == {"x_plus_y": 12, "bound": 10}


def test_a_refuted_record_carries_its_counterexample_quantities_and_the_table_says_why(scratch):
    _add_sum_claim()
    rec = runner.check_claim(engine.get("testpaper2099.sum_below_ten"))
    assert rec["verdict"] == "refuted"
    case = rec["counterexample"]
    assert rec["quantities"] == {"x_plus_y": case["x"] + case["y"], "bound": 10}
    buf = io.StringIO()
    report.print_table([rec], Console(file=buf, width=100))
    text = buf.getvalue()
    assert "Why refuted" in text and '"x_plus_y":11' in text
    assert rec["reproduce"] in text  # the whole replay command, not wrapped inside a token
    assert "What the checker compared on it" in report.markdown([rec], profile="quick", seed=0)


def test_lemma_b1_range_replay_names_ptp_f_ptp_g_and_four_sum_w():
    case = {"weights": [0.5, 1.0], "p": [0, 1], "q": 4, "reading": "statement", "part": "width_4_sum_w"}
    q = runner.replay(engine.get("gu2025.lemma_b1_range_width"), case)["quantities"]
    assert {"ptp_f", "ptp_g", "four_sum_w", "tolerance"} <= set(q)
    assert q["four_sum_w"] == 4 * sum(case["weights"])
    assert q["ptp_f"] <= 2 * q["four_sum_w"] and q["ptp_g"] <= 2 * q["four_sum_w"]


#: The shrunk counterexamples of the refuted exact claims and readings (quick profile, seed 0).
REFUTED = [
    ("cirrincione2026.exact_reproduction_impossible#hellinger_chordal", {"counts": [[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 1], [0, 0, 1, 0]]}),
    ("cirrincione2026.hellinger_mds_optimal#stress", {"counts": [[1, 0], [1, 0], [0, 1], [1, 1]], "d": 1}),
    ("cirrincione2026.minimal_parametrisation#fewer_than_nd", {"counts": [[1, 0], [0, 1]], "d": 1, "seed": 0}),
    ("cirrincione2026.necessity#mask_is_not_a_signal", {"attention": "causal", "output": "pooled", "model": "encoder_layer", "norm_first": False, "n": 3, "d_model": 4, "nhead": 1, "seed": 0, "perm": [0, 2, 1]}),
    ("gu2025.gpp_toeplitz#other_absolute", {"n": 2, "d": 2, "pe": "learned"}),
    ("gu2025.lemma_b1_equality", {"weights": [1.0, 1.0], "p": [1, 1], "q": 3, "reading": "proof"}),
    ("gu2025.lemma_b1_range", {"weights": [1.0] * 8, "p": [1] * 8, "q": 3, "reading": "proof", "part": "g_not_below_f"}),
    ("gu2025.lemma_b1_range_width", {"weights": [1.0, 1.0], "p": [0, 0], "q": 1, "reading": "statement", "part": "width_4_sum_w"}),
    ("gu2025.lemma_b1_range_coincide", {"weights": [1.0, 1.0], "p": [0, 1], "q": 2, "reading": "statement", "part": "coincide_only_if_aligned"}),
    ("gu2025.mla_logit_form#literal_identity", {"n": 2, "dc": 1, "dr": 2, "seed": 0}),
    ("gu2025.normalisation_keeps_toeplitz#row_softmax", {"c": [0.0, 0.0], "r": [0.0, 1.0]}),
    ("gu2025.representation_decomposition#after_attention", {"n": 2, "vocab": 2, "d": 2, "pe": "sinusoidal", "seed": 0}),
    ("gu2025.rope_logit_form", {"n": 2, "d": 4, "rotary_dim": None, "base": 10000.0, "pairing": "interleaved", "pe": "nope", "seed": 0}),
    ("gu2025.schur_modulus#unit_diagonal", {"n": 4, "w": [0.0, 0.0, 1.0, 0.0], "w_imag": [0.0, 1.0, 0.0, 0.0], "margin": 1.0, "e_phases": [0.0, 0.0, 1.0, 0.0], "e_kind": "any"}),
    ("gu2025.sinusoidal_scores_toeplitz#with_projections", {"n": 2, "d": 2, "d_head": 1, "base": 10000.0, "layout": "interleaved", "start": 0, "projections": "shared", "seed": 0}),
    ("gu2025.spectral_contraction#rope_single_band", {"n": 2, "w": [0.0, 1.0], "w_imag": None, "margin": 1.0, "e_phases": [0.0, 1.0], "e_kind": "rank_one"}),
    ("gu2025.spectral_contraction#unit_diagonal", {"n": 2, "w": [0.0, 1.0], "w_imag": None, "margin": 1.0, "e_phases": [0.0, 1.0], "e_kind": "any"}),
    ("gu2025.spectral_contraction#band_average", {"n": 2, "w": [0.0, 1.0], "w_imag": None, "margin": 1.0, "band_angles": [1.0], "band_weights": [0.0]}),
    ("li2025.sinusoidal_periodic_ambiguity#near_repeat", {"d": 64, "base": 10000.0}),
    ("li2025.wavelet_extrapolation", {"wavelet": "db2", "d": 1, "n_max": 2, "normalisation": "l2", "dilation": "unit", "far": 0}),
]


@pytest.mark.parametrize("cid,case", REFUTED, ids=[c for c, _ in REFUTED])
def test_every_refuted_exact_claim_names_what_it_compares(cid, case):
    base, _, reading = cid.partition("#")
    c = engine.get(base)
    out = runner.replay(c.reading(reading) if reading else c, case)
    assert out["verdict"] == "refuted"
    assert out["quantities"], f"{cid}: its checker names no quantity (proofs_check.engine.quantities)"
    assert any(k in out["quantities"] for k in ("tolerance", "rounding_allowance", "stated_decades")), out["quantities"]
