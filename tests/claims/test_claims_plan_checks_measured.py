"""The claims testing plan's checks as predictors of the measured effective length catch planted violations.

Records are built by hand in the layout of :mod:`petheory.experiments.extension_lengths` (base 500, head 32,
trained on 35 tokens, targets 128 and 256, plan's 8 candidates); the effective lengths are planted from the
checks the library computes, so that the pre-registered test must decide one way.
"""

from __future__ import annotations

import json

import pytest

from petheory.experiments import extension_lengths as xl
from proofs_check.claims.plan_checks_measured import MIN_REFERENCE, predictor_evidence

CANDS = xl.ExtensionSetup().candidates
CHECKS = {N: {c["name"]: c["checks"] for c in xl.plan_candidates(500.0, 32, 35, N + 3, CANDS)} for N in (128, 256)}


def _record(seed, e_of, *, ref=0.95):
    """e_of(check results, regime, seed) -> effective length / target."""
    targets = {}
    for N, checks in CHECKS.items():
        cands = {}
        for name, ch in checks.items():
            cands[name] = {"spec": name, "checks": dict(ch), **{
                g: {"effective_length": int(round(e_of(ch, g, seed) * N)), "by_length": {str(N): {"seq_acc": 0.5}}}
                for g in xl.REGIMES}}
        targets[str(N)] = {"seq_len": N + 3, "candidates": cands}
    return {"task": "passkey", "pe": "rope:base=500.0", "seed": seed, "train_len": 32, "config": {}, "history": [],
            "config_hash": f"h{seed}", "final": {"train": {"seq_acc": ref}, "test": {"32": {"seq_acc": ref}}},
            "extension": {"base": 500.0, "head_dim": 32, "train_context": 32, "train_seq_len": 35,
                          "reference_acc": ref, "threshold": 0.9 * ref, "targets": targets}}


def _under_contract(cid, e):
    from proofs_check import engine, runner

    return runner.reproduction_rules(engine.get(cid), {"verdict": e.verdict, "summary": e.summary, "calibration": None},
                                     e)["verdict"]


def _jit(seed):
    return 0.03 * seed  # seeds differ a little, as real ones do


@pytest.mark.parametrize("check, cid", [("men", "men2024.plan_check_predicts_small_extension#training_free"),
                                        ("liu", "liu2023.plan_check_predicts_small_extension#training_free"),
                                        ("phase", "chen2023.plan_check_predicts_small_extension#training_free")])
def test_the_claim_catches_failing_candidates_that_reach_further(check, cid):
    # planted: every candidate failing the check reaches the target, every passing one stops at a quarter of it
    recs = [_record(s, lambda ch, g, s: 1.0 if not ch[check] else 0.25 + _jit(s)) for s in range(3)]
    e = predictor_evidence(recs, check, "training_free")
    assert e.verdict == "refuted" and e.margin < 0 and e.p_value < 0.05 and e.seeds == {f"{check}/training_free": 3}
    assert e.counterexample["failing_cell"]["e"] == [1.0, 1.0, 1.0]
    assert _under_contract(cid, e) == "not_reproduced"  # a reconstruction without calibration never says refuted


def test_the_claim_holds_when_passing_candidates_reach_further():
    recs = [_record(s, lambda ch, g, s: 1.0 - _jit(s) if ch["liu"] else 0.25) for s in range(3)]
    e = predictor_evidence(recs, "liu", "finetuned")
    assert e.verdict == "holds" and e.margin > 0
    assert _under_contract("liu2023.plan_check_predicts_small_extension#finetuned", e) == "inconclusive"


def test_a_plant_in_plans_check_flips_the_verdict(monkeypatch):
    """The claim reads plan's checks through the library (not the record): inverting plan's men check flips it."""
    from petheory.analyses import plan
    from petheory.analyses.plan_record import Check

    recs = [_record(s, lambda ch, g, s: 1.0 - _jit(s) if ch["men"] else 0.25) for s in range(3)]
    assert predictor_evidence(recs, "men", "training_free").verdict == "holds"
    real = plan.analyse

    def inverted(*a, **k):
        c = real(*a, **k)
        return type(c)(**{**c.__dict__, "checks": tuple(Check(x.name, not x.passed, x.detail) for x in c.checks)})

    monkeypatch.setattr("petheory.analyses.plan.analyse", inverted)
    assert predictor_evidence(recs, "men", "training_free").verdict == "refuted"


def test_an_empty_side_decides_nothing(monkeypatch):
    recs = [_record(s, lambda ch, g, s: 1.0 if ch["phase"] else 0.0) for s in range(3)]
    for r in recs:  # plant: every candidate passes (as at base 10000, where Men's check never fails at these sizes)
        for t in r["extension"]["targets"].values():
            t["candidates"] = {k: v for k, v in t["candidates"].items() if k in ("pi", "yarn", "llama3")}
    e = predictor_evidence(recs, "phase", "training_free")
    assert e.verdict == "inconclusive" and set(e.details["empty"].values()) == {"fail"}
    assert "cannot reject" in e.summary


def test_a_seed_that_did_not_learn_the_task_is_left_out():
    recs = [_record(s, lambda ch, g, s: 1.0 if ch["men"] else 0.25 - _jit(s)) for s in range(3)]
    recs.append(_record(3, lambda ch, g, s: 0.0, ref=MIN_REFERENCE / 2))
    e = predictor_evidence(recs, "men", "finetuned")
    assert list(e.details["left_out"]) == [3] and e.seeds == {"men/finetuned": 3} and e.verdict == "holds"


def test_fewer_than_two_seeds_is_inconclusive():
    e = predictor_evidence([_record(0, lambda ch, g, s: 1.0)], "men", "finetuned")
    assert e.verdict == "inconclusive"


def test_the_claim_reads_the_shipped_layout(tmp_path, monkeypatch):
    from proofs_check.claims.plan_checks_measured import extension_records

    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "records"))
    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    d = tmp_path / "records" / "extension_lengths"
    d.mkdir(parents=True)
    for s in range(3):
        (d / f"s{s}.json").write_text(json.dumps(_record(s, lambda ch, g, s: 0.5)))
    recs, note = extension_records(tmp_path)
    assert sorted(r["seed"] for r in recs) == [0, 1, 2] and not note


def test_records_of_another_setup_are_not_read(tmp_path, monkeypatch):
    """A smoke sweep left in runs/ must not mix into the pre-registered evidence."""
    from proofs_check.claims.plan_checks_measured import extension_records

    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "records"))
    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    d = tmp_path / "records" / "extension_lengths"
    d.mkdir(parents=True)
    for s, setup in enumerate([xl.ExtensionSetup(), xl.ExtensionSetup(), xl.ExtensionSetup(size="smoke")]):
        r = _record(s % 2, lambda ch, g, s: 0.5)
        r["extension"]["setup"] = setup.as_dict()
        r["config_hash"] = f"h{s}"
        (d / f"r{s}.json").write_text(json.dumps(r))
    recs, _ = extension_records(tmp_path)
    ours, other = xl.of_setup(recs)
    assert len(recs) == 3 and sorted(r["seed"] for r in ours) == [0, 1] and other[0].endswith("r2.json")
