"""gu2025 claims added for the audit (issue 21): MLA's logit form, Assumption 3.1, Prop. B.2, the Fig. 5-7 and
Remark C.1 record claims, and the readings added to Remarks 3.1/3.2, Schur/B.3 and Lemma B.1. Each checker on the
real implementation and catching a planted violation."""

from __future__ import annotations

import numpy as np
import pytest

from proofs_check.claims import gu2025 as G
from proofs_check.claims import gu2025_mla as M

from _helpers import check_claim
from _helpers import gu2025_record, write_runs


def verdicts(rec):
    return {x["name"]: x["verdict"] for x in rec["readings"]}


def test_mla_logit_form_is_refuted_as_an_identity_holds_as_a_schema_and_its_correction_holds():
    rec = check_claim("gu2025.mla_logit_form", 20)
    assert rec["verdict"] == "depends" and rec["paper_status"] == "unspecified"
    by = {r["name"]: r for r in rec["readings"]}
    assert by["literal_identity"]["verdict"] == "refuted" and by["schematic"]["verdict"] == "holds"
    q = by["literal_identity"]["quantities"]
    assert q["residual_of_eq12"] > 100 * q["tolerance"]
    assert check_claim("gu2025.mla_logit_form__corrected", 20)["verdict"] == "holds"


def test_mla_logit_form_holds_in_a_world_where_eq_12_is_exact(monkeypatch):
    # planted: the rotary part made 2 x the content Gram at the first frequency, L = G + 2 Re(G o G_e)
    real = M._mla_parts

    def planted(case):
        L, G, zq, zk, table, parts = real(case)
        pos = np.arange(L.shape[0])
        Ge = np.exp(1j * (pos[:, None] - pos[None, :]) * table.angles[1, 0])
        return G + 2.0 * np.real(G * Ge), G, zq, zk, table, parts

    monkeypatch.setattr(M, "_mla_parts", planted)
    assert check_claim("gu2025.mla_logit_form#literal_identity", 20)["verdict"] == "holds"
    assert check_claim("gu2025.mla_logit_form__corrected", 20)["verdict"] == "refuted"


def test_mla_logit_form_corrected_catches_a_wrong_rotation_sign(monkeypatch):
    from petheory.encodings import rotary

    real = rotary.RotaryTable.apply
    monkeypatch.setattr(rotary.RotaryTable, "apply", lambda self, x: real(rotary.RotaryTable(-self.angles, self.d, self.pairing), x))
    assert check_claim("gu2025.mla_logit_form__corrected", 20)["verdict"] == "refuted"


def test_assumption_3_1_holds_at_the_input_and_fails_after_attention():
    rec = check_claim("gu2025.representation_decomposition")
    assert rec["verdict"] == "depends" and rec["paper_status"] == "assumption"
    assert verdicts(rec) == {"input_layer": "holds", "after_attention": "refuted"}
    r = {x["name"]: x for x in rec["readings"]}
    assert r["input_layer"]["evidence"] == "definitional" and "construction" in r["input_layer"]["evidence_note"]
    # the interaction measure is what catches a representation that is not additive: same case, both sides
    case = {"n": 3, "vocab": 3, "d": 4, "pe": "learned", "seed": 5}
    assert M._decomposition_interaction(case, False) < 0 < M._decomposition_interaction(case, True)


def test_prop_b2_much_larger_holds_at_twice_relatives_measure_and_catches_an_equal_set(monkeypatch):
    rec = check_claim("gu2025.logit_expressiveness#single_phase", 30)
    assert rec["verdict"] == "holds" and rec["margin"] == 0.0  # the factor is exactly 2 at gap 0
    # at gap r/2 relative encoding meets the constraint on arccos(1/2)/pi = 1/3 of the directions, RoPE on all
    rel, rope, m = M.expressiveness_fractions({"r": 2.0, "gap_fraction": 0.5, "angles": 128})
    assert rope == 1.0 and abs(rel - 1 / 3) <= 1 / m
    # planted (through what the registered checker reads): RoPE's solution set made equal to relative's
    monkeypatch.setattr(M, "_feasible_rope", M._feasible_relative)
    assert check_claim("gu2025.logit_expressiveness#single_phase", 30)["verdict"] == "refuted"


def test_prop_b2_catches_a_rope_set_that_misses_part_of_relatives(monkeypatch):
    monkeypatch.setattr(M, "_feasible_rope", lambda c1, c2, gap: (c1 - c2).real > gap and (c1 - c2).imag > 0 or abs(c1 - c2) > gap and (c1 - c2).real < 0)
    assert M.logit_expressiveness({"r": 1.0, "gap_fraction": 0.1, "angles": 32}) == 1.0


@pytest.fixture
def no_shipped(monkeypatch):
    monkeypatch.setenv("PETHEORY_RECORDS", "")


def _ctx(tmp_path):
    from proofs_check.engine import Context

    return Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, workdir=str(tmp_path), alpha=0.05)


def test_figure_claims_are_inconclusive_without_paper_records(no_shipped, tmp_path):
    for fn in (M.partial_rope, M.rope_abs_deposit, M.mla_headwise_ablation, M.dropout_keeps_deposit):
        assert fn(_ctx(tmp_path)).verdict == "inconclusive"


def _deposit_records(name, drops, task="gu2025_task1"):
    recs = [gu2025_record(task, name, 0.9, seed=s, drop=d) for s, d in enumerate(drops)]
    return recs


def _layered_records(first, second):
    """rope+sinusoidal Task 1 records whose head (0, 0) drops ``first[s]`` and head (1, 0) drops ``second[s]``."""
    recs = _deposit_records("rope", first)  # gu2025's 'rope' = rope+sinusoidal
    for r, d in zip(recs, second):
        for h in r["ablation"]["heads"]:
            if (h["layer"], h["head"]) == (1, 0):
                h["drop"] = d
    return recs


def test_rope_abs_deposit_is_none_in_the_first_layer_and_back_from_the_second(no_shipped, tmp_path):
    write_runs(tmp_path / "paper", _layered_records([0.01, 0.02, 0.015], [0.4, 0.5, 0.45]))  # as Fig. 6 says
    ev = M.rope_abs_deposit(_ctx(tmp_path / "paper"))
    assert ev.verdict == "holds" and ev.seeds == {"gu2025_task1/rope+sinusoidal": 3} and ev.p_value < 0.05
    # the same records satisfy gu2025.single_head_deposit's RoPE part (a shallow deposit in layers 0-1): compatible
    from proofs_check.claims.gu2025_empirical import DEPOSIT_LARGE, max_shallow_drop
    assert all(max_shallow_drop(r) >= DEPOSIT_LARGE for r in _layered_records([0.01] * 3, [0.4, 0.5, 0.45]))
    write_runs(tmp_path / "first", _layered_records([0.4, 0.5, 0.45], [0.4, 0.5, 0.45]))  # the deposit stays in layer 1
    assert M.rope_abs_deposit(_ctx(tmp_path / "first")).verdict == "refuted"
    write_runs(tmp_path / "gone", _layered_records([0.01, 0.02, 0.015], [0.01, 0.02, 0.015]))  # never reappears
    assert M.rope_abs_deposit(_ctx(tmp_path / "gone")).verdict == "refuted"


def test_mla_deposit_claim_reads_paper_records_per_seed(no_shipped, tmp_path):
    write_runs(tmp_path / "mla", _deposit_records("mla", [0.4, 0.5, 0.45]))
    assert M.mla_headwise_ablation(_ctx(tmp_path / "mla")).verdict == "refuted"


def test_partial_rope_compares_with_full_rope_and_nope(no_shipped, tmp_path):
    from petheory.nn import preset

    def rec(task, spec, acc, seed):
        r = gu2025_record(task, "nope", acc, seed=seed)
        cfg = preset(task, "paper", pe=spec, seed=seed)
        return {**r, "pe": spec, "config": cfg.as_dict(), "config_hash": cfg.hash()}

    recs = [rec("gu2025_task1", "rope", 0.93 + 0.001 * s, s) for s in range(3)]
    recs += [rec("gu2025_task1", "rope:heads=4", 0.925 + 0.001 * s, s) for s in range(3)]
    recs += [rec("gu2025_task2", "rope:heads=4", 0.5 + 0.001 * s, s) for s in range(3)]
    recs += [rec("gu2025_task2", "nope", 0.78 + 0.001 * s, s) for s in range(3)]
    write_runs(tmp_path / "ok", recs)
    ev = M.partial_rope(_ctx(tmp_path / "ok"))
    assert ev.verdict == "holds", ev.summary
    bad = [r if not (r["task"] == "gu2025_task1" and r["pe"] == "rope:heads=4") else {**r, "final": {
        **r["final"], "test": {k: {**v, "acc": 0.5} for k, v in r["final"]["test"].items()}}} for r in recs]
    bad = [{**r, "final": {**r["final"], "test": {k: {**v, "acc": v["acc"] + 0.001 * r["seed"]} for k, v in
                                                    r["final"]["test"].items()}}} for r in bad]
    write_runs(tmp_path / "bad", bad)
    assert M.partial_rope(_ctx(tmp_path / "bad")).verdict != "holds"
    # 'below-near-optimal' keeps its 'below': partial RoPE above full RoPE contradicts it
    above = [r if not (r["task"] == "gu2025_task1" and r["pe"] == "rope:heads=4") else {**r, "final": {
        **r["final"], "test": {k: {**v, "acc": 0.95 + 0.001 * r["seed"]} for k, v in r["final"]["test"].items()}}}
        for r in recs]
    write_runs(tmp_path / "above", above)
    ev = M.partial_rope(_ctx(tmp_path / "above"))
    assert ev.verdict == "refuted" and ev.details["p_against"]["task1/rope:heads=4 below rope"] < 0.05


def test_remark_3_2_and_3_1_readings():
    assert verdicts(check_claim("gu2025.sinusoidal_scores_toeplitz")) == {"with_projections": "refuted", "identity": "holds"}
    assert verdicts(check_claim("gu2025.normalisation_keeps_toeplitz")) == {"row_softmax": "refuted",
                                                                            "scalar_1_over_sqrt_d": "holds"}


def test_the_scalar_reading_catches_a_planted_non_toeplitz_matrix(monkeypatch):
    from proofs_check.claims import gu2025_coupling as GC

    case = {"n": 3, "c": [1.0, 2.0, 3.0], "r": [1.0, 5.0, 7.0], "d": 64}
    assert GC.normalisation_scalar(case) < 0
    import scipy.linalg

    real = scipy.linalg.toeplitz
    monkeypatch.setattr(scipy.linalg, "toeplitz", lambda c, r: real(c, r) + np.diag([0.0, 0.0, 1.0]))
    assert GC.normalisation_scalar(case) > 0


def test_band_average_reading_holds_and_catches_a_non_psd_e(monkeypatch):
    from petheory import coupling
    from proofs_check.claims import gu2025_contraction as GC

    case = {"n": 4, "w": [0.0, 1.0, 0.5, 0.2], "w_imag": None, "margin": 0.5, "e_phases": [0.0] * 4, "e_kind": "any",
            "band_angles": [0.3, 1.1], "band_weights": [0.5, 0.5]}
    assert GC.spectral_contraction_band(case) < 0 and GC.schur_modulus_band(case) < 0
    assert GC.spectral_contraction__corrected(case) < 0
    # planted: an E that is not positive semidefinite (unit modulus, alternating sign): the containment fails
    monkeypatch.setattr(coupling, "rope_band_average", lambda k, th, a=None: np.array([1.0, -1.0, -1.0, 1.0], complex))
    assert GC.spectral_contraction__corrected(case) > 0


def test_lemma_b1_shows_informative_counterexamples():
    eq = check_claim("gu2025.lemma_b1_equality")
    rng = check_claim("gu2025.lemma_b1_range")
    for rec in (eq, rng):
        assert rec["verdict"] == "refuted" and sum(w > 0 for w in rec["counterexample"]["weights"]) >= 2
    # the audit's examples replay: equality with different phases; ptp f above ptp g by 0.91
    assert G.lemma_b1_equality({"weights": [0.0, 1.0, 1.0], "p": [0, 0, 1], "q": 2, "reading": "proof"}) > 0
    case = {"weights": [0.781, 0.909, 0.881, 0.869], "p": [0, 1, 3, 3], "q": 12, "reading": "statement",
            "part": "g_not_below_f"}
    assert G.lemma_b1_range(case) == pytest.approx(0.91, abs=0.01)


def test_paper_scale_claims_say_once_that_the_small_preset_cannot_decide_them():
    """Issue 30: gu2025 specifies its setup in full, so the small preset is a substitute (never a decision), said in
    one place (gu2025_empirical.SMALL_PRESET) and applied by one wrapper (paper_scale)."""
    from proofs_check import engine
    from proofs_check.claims.gu2025_empirical import SMALL_PRESET

    emp_claims = [c for c in engine.all_claims() if c.id.startswith("gu2025.") and c.kind == "empirical"]
    assert len(emp_claims) >= 8
    for c in emp_claims:
        assert c.setup == "paper" and SMALL_PRESET in c.reconstruction, c.id
        rec = check_claim(c.id)
        if "small preset" in rec["summary"]:  # the shipped small-preset records
            assert rec["setup"] == "substitute" and rec["verdict"] == "inconclusive", c.id


def _acc_records(task, accs, seeds=(0, 1, 2)):
    """Paper-preset records: {name: (train acc, test acc)}, a small per-seed jitter."""
    out = []
    for name, (tr, te) in accs.items():
        for s in seeds:
            r = gu2025_record(task, name, te + 0.001 * s, seed=s)
            r["final"]["train"]["acc"] = tr + 0.0015 * s
            out.append(r)
    return out


def test_random_pe_overfits_is_a_conjunction_over_both_tasks(no_shipped, tmp_path):
    from proofs_check.claims import gu2025_empirical as E

    t1 = {"random": (0.99, 0.70), "absolute": (0.995, 0.85), "rope": (0.99, 0.93)}
    t2 = {"random": (0.99, 0.55), "absolute": (0.80, 0.60), "nope": (0.80, 0.78), "alibi": (0.3, 0.2)}
    write_runs(tmp_path / "paper", _acc_records("gu2025_task1", t1) + _acc_records("gu2025_task2", t2))
    ev = E.random_pe_overfits(_ctx(tmp_path / "paper"))
    assert ev.verdict == "holds" and ev.setup == "paper", ev.summary
    # one failing part refutes it: random generalises as well as absolute on Task 1
    t1_bad = {**t1, "random": (0.99, 0.90)}
    write_runs(tmp_path / "bad", _acc_records("gu2025_task1", t1_bad) + _acc_records("gu2025_task2", t2))
    ev = E.random_pe_overfits(_ctx(tmp_path / "bad"))
    assert ev.verdict == "refuted" and ev.details["p_against"]["task1: absolute test acc > random"] < 0.05
