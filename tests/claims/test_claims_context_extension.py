"""The context-extension claims catch planted violations and hold on planted agreements.

Records are built by hand in the layout of :mod:`petheory.experiments.retrieval_runs`: three seeds, a RoPE
run carrying swapped and fine-tuned methods; the numbers are planted so that the pre-registered
test must decide one way.
"""

from __future__ import annotations

import json

import pytest

from _helpers import retrieval_record

from proofs_check.claims._empirical import t_greater
from proofs_check.claims._extension import KEEP_TOLERANCE
from proofs_check.claims.chen2023 import in_range_evidence
from proofs_check.claims.peng2023 import yarn_evidence

def _jitter(seed):
    return 0.01 * (seed - 1)  # seeds differ a little, as real ones do


def _under_contract(cid: str, e) -> str:
    from proofs_check import engine, runner

    return runner.reproduction_rules(engine.get(cid), {"verdict": e.verdict, "summary": e.summary, "calibration": None}, e)["verdict"]


def test_in_range_claim_catches_a_planted_loss():
    recs = []
    for s in range(3):
        j = _jitter(s)
        recs.append(retrieval_record("passkey", s, {
            "rope": [0.95 + j, 0.6, 0.3, 0.1, 0.0],
            "rope_pi": [0.95 + j, 0.93 + j, 0.5 + j, 0.3, 0.2],  # in range everywhere, but loses accuracy: planted
        }, coverage={"rope": [0, 3, 6, 8, 9]}))
    e = in_range_evidence(recs)
    assert "passkey/rope_pi@128" in e.details["lost"]
    assert e.verdict == "refuted" and e.margin < 0 and e.p_value is not None and e.seeds["passkey/rope_pi@128"] == 3
    # the runner's rules: a reconstruction without calibration never reports 'refuted'
    assert _under_contract("chen2023.in_range_keeps_retrieval", e) == "not_reproduced"
    assert e.counterexample["cell"].startswith("passkey/rope_pi@")


def test_in_range_claim_holds_when_every_in_range_cell_keeps_its_accuracy():
    recs = [retrieval_record("passkey", s, {"rope": [0.95 + _jitter(s), 0.6, 0.3, 0.1, 0.0],
                                   "rope_pi": [0.95, 0.95 + _jitter(s), 0.94 + _jitter(s), 0.95, 0.94]},
                    coverage={"rope": [0, 3, 6, 8, 9]}) for s in range(3)]
    e = in_range_evidence(recs)
    assert e.verdict == "holds" and not e.details["lost"]
    assert "passkey/rope@64" not in e.details["cells"]  # out of range: not a cell of the claim


def test_in_range_claim_without_cells_is_inconclusive():
    assert in_range_evidence([]).verdict == "inconclusive"


def _ft(task, seed, yarn, pi, ntk):
    return retrieval_record(task, seed, {"rope": [0.9] * 5, "rope_yarn+ft": yarn, "rope_pi+ft": pi, "rope_ntk+ft": ntk})


def test_yarn_claim_catches_pi_beating_yarn():
    recs = [_ft(t, s, [0.9, 0.9, 0.2 + _jitter(s), 0.1, 0.0], [0.9, 0.9, 0.6 + _jitter(s), 0.4, 0.2],
                [0.9, 0.9, 0.1, 0.0 + 0.01 * s, 0.0]) for t in ("passkey", "mqar") for s in range(3)]
    e = yarn_evidence(recs)
    assert "passkey: yarn vs pi" in e.details["yarn_worse"]
    assert e.verdict == "refuted" and _under_contract("peng2023.yarn_extends_further", e) == "not_reproduced"
    assert e.counterexample == {"other_beats_yarn": e.details["yarn_worse"]}


def test_yarn_claim_holds_when_yarn_reaches_further_on_every_task():
    recs = [_ft(t, s, [0.9, 0.9, 0.8 + _jitter(s), 0.7, 0.6], [0.9, 0.9, 0.3, 0.2 + _jitter(s), 0.1],
                [0.9, 0.9, 0.4, 0.1, 0.05 + _jitter(s)]) for t in ("passkey", "mqar") for s in range(3)]
    e = yarn_evidence(recs)
    assert e.verdict == "holds" and len(e.details["yarn_better"]) == 4
    # 3 seeds each, Holm p below alpha: the statistic says holds, but the reconstruction has no calibration against
    # the paper's numbers, so it decides neither way (issue 30: symmetric with not_reproduced above)
    assert _under_contract("peng2023.yarn_extends_further", e) == "inconclusive"


def test_yarn_claim_needs_three_seeds_to_hold():
    recs = [_ft("passkey", s, [0.9, 0.9, 0.8 + _jitter(s), 0.7, 0.6], [0.9, 0.9, 0.3, 0.2, 0.1], [0.9, 0.9, 0.4, 0.1, 0.05])
            for s in range(2)]
    assert yarn_evidence(recs).verdict == "inconclusive"


@pytest.mark.parametrize("values, mu, small", [([0.2, 0.3, 0.25], 0.0, True), ([0.2, 0.3, 0.25], 0.5, False),
                                               ([0.1, 0.1, 0.1], 0.05, True), ([0.1, 0.1, 0.1], 0.1, False)])
def test_one_sided_t_test(values, mu, small):
    p = t_greater(values, mu)
    assert (p < 0.05) is small
    assert t_greater([1.0], 0.0) is None


def test_claims_read_the_shipped_records_or_say_how_to_make_them(tmp_path, monkeypatch):
    from proofs_check import engine

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RECORDS", "")  # a clone without shipped records
    ctx = engine.Context(profile="quick", budget=1, rng=None, seed=0, workdir=str(tmp_path))
    for cid in ("chen2023.in_range_keeps_retrieval", "peng2023.yarn_extends_further"):
        ev = engine.get(cid).check(ctx)
        assert ev.verdict == "inconclusive" and "petheory.experiments.retrieval_runs" in ev.summary
    rec = _ft("passkey", 0, [0.9] * 5, [0.9] * 5, [0.9] * 5)
    (tmp_path / "runs" / "retrieval-records").mkdir(parents=True)
    (tmp_path / "runs" / "retrieval-records" / "r.json").write_text(json.dumps({**rec, "config_hash": "x"}))
    # the training record of the same run (same config hash, no retrieval block) must not shadow it
    (tmp_path / "runs" / "retrieval" / "r").mkdir(parents=True)
    train_rec = {k: v for k, v in rec.items() if k != "retrieval"}
    (tmp_path / "runs" / "retrieval" / "r" / "record.json").write_text(json.dumps({**train_rec, "config_hash": "x"}))
    ev = engine.get("chen2023.in_range_keeps_retrieval").check(ctx)
    assert ev.cases >= 1 and KEEP_TOLERANCE == 0.05


def test_a_clone_decides_both_claims_from_the_shipped_records(tmp_path, monkeypatch):
    """No runs/ and an empty working directory: the shipped records/retrieval alone decide the claims."""
    from proofs_check import engine

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PETHEORY_RECORDS", raising=False)
    monkeypatch.delenv("PETHEORY_RUNS", raising=False)
    ctx = engine.Context(profile="quick", budget=1, rng=None, seed=0, workdir=str(tmp_path))
    inr = engine.get("chen2023.in_range_keeps_retrieval").check(ctx)
    yarn = engine.get("peng2023.yarn_extends_further").check(ctx)
    assert len(inr.details["cells"]) >= 10 and all(len(c["seeds"]) == 3 for c in inr.details["cells"].values())
    assert set(yarn.details["comparisons"]) == {f"{t}: yarn vs {o}" for t in ("mqar", "passkey") for o in ("pi", "ntk")}
    for cid in ("chen2023.in_range_keeps_retrieval", "peng2023.yarn_extends_further"):
        c = engine.get(cid)
        assert c.setup == "reconstruction" and c.looks == 1 and c.alpha == 0.05 and c.calibration is None
