"""Records on disk (petheory.records), the shared empirical decision rule, the position probe, and
the empirical claims that read the shipped records."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from petheory import records
from proofs_check.claims import _empirical as emp


def _rec(task="running_sum", pe="alibi", seed=0, h="abc"):
    return {"task": task, "pe": pe, "seed": seed, "config": {}, "config_hash": h, "train_len": 50, "kind": "regression",
            "final": {"train": {"mse": 1.0}, "test": {"50": {"mse": 1.0}}}, "history": [{"train_loss": 1.0}]}


def test_find_reads_runs_then_records_and_skips_what_is_not_a_record(tmp_path, monkeypatch):
    monkeypatch.delenv("PETHEORY_RUNS", raising=False)
    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "records"))
    (tmp_path / "runs" / "a").mkdir(parents=True)
    (tmp_path / "runs" / "a" / "record.json").write_text(json.dumps(_rec(h="h1")))
    records.export([_rec(h="h1"), _rec(seed=1, h="h2")], tmp_path / "records", experiment="t5")
    bad = tmp_path / "records" / "t5" / "truncated.json"
    bad.write_text('{"task": "running_sum", "pe"')
    (tmp_path / "records" / "t5" / "other.json").write_text(json.dumps({"hello": 1}))
    found = records.find("running_sum", tmp_path)
    assert sorted(r["config_hash"] for r in found.records) == ["h1", "h2"]  # h1 once: runs/ wins
    assert found.records[0]["_path"].endswith("runs/a/record.json")
    reasons = dict(found.skipped)
    assert "not valid JSON" in reasons[str(bad)]
    assert any("missing" in v for v in reasons.values())
    assert "skipped" in records.skipped_note(found) and "1 more" in records.skipped_note(found)
    assert records.find("gu2025_task1", tmp_path).records == []


def test_export_is_json_only_without_private_fields_and_refuses_odd_names(tmp_path):
    r = {**_rec(pe="learned:n_max=50,beyond=clamp"), "_path": "x"}
    (p,) = records.export([r], tmp_path, experiment="li2025_table5")
    assert p.name == "running_sum__learned-n_max=50-beyond=clamp__s0__abc.json"
    assert "_path" not in json.loads(p.read_text())
    with pytest.raises(ValueError, match="experiment name"):
        records.export([r], tmp_path, experiment="../up")


def test_read_names_the_file_and_the_problem(tmp_path):
    p = tmp_path / "r.json"
    p.write_text("[1, 2]")
    with pytest.raises(ValueError, match=r"r\.json: not a usable training record \(not a JSON object"):
        records.read(p)


def test_the_source_tree_ships_records_a_clone_can_decide_with():
    d = records.shipped_dir()
    assert d is not None and (d / "li2025_table5").is_dir()
    found = records.find("running_sum", where=[d / "li2025_table5"])
    assert len(found.records) >= 35 and not found.skipped
    assert {r["preset"] for r in found.records} == {"paper"}
    assert all(r["timing"]["device"].startswith("NVIDIA") and r["timing"]["cuda_graphs"] for r in found.records)
    assert all("gpu_util" in r["timing"] and r["probe"] for r in found.records if r["seed"] < 5)


# ----------------------------------------------------------------------------- the decision rule


def test_welch_less_matches_scipy_and_is_one_sided():
    from scipy import stats

    a, b = [1.0, 1.2, 0.9, 1.1], [2.0, 2.5, 1.8]
    w = emp.welch_less(a, b)
    assert w["p"] == pytest.approx(stats.ttest_ind(a, b, equal_var=False, alternative="less").pvalue, rel=1e-12)
    assert emp.welch_less(b, a)["p"] == pytest.approx(1 - w["p"], rel=1e-12)  # the other tail
    assert emp.welch_less([1.0], b)["p"] is None  # one seed: no test


def test_holm_step_down():
    assert emp.holm({"a": 0.01, "b": 0.02, "c": 0.04}) == {"a": True, "b": True, "c": True}  # 0.0167, 0.025, 0.05
    assert emp.holm({"a": 0.01, "b": 0.03, "c": 0.04}) == {"a": True, "b": False, "c": False}
    assert emp.holm({"a": None, "b": 0.001}) == {"a": False, "b": True}


def test_decide_lowest_catches_a_planted_winner_and_a_planted_loser():
    rng = np.random.default_rng(0)
    base = {k: list(1.0 + 0.01 * rng.standard_normal(5)) for k in "abc"}
    assert emp.decide_lowest({**base, "t": list(0.5 + 0.01 * rng.standard_normal(5))}, "t")["verdict"] == "holds"
    d = emp.decide_lowest({**base, "t": list(1.5 + 0.01 * rng.standard_normal(5))}, "t")
    assert d["verdict"] == "refuted" and d["beaten_by"] == ["a", "b", "c"]
    assert emp.decide_lowest({**base, "t": list(1.0 + 0.01 * rng.standard_normal(5))}, "t")["verdict"] != "holds"
    assert emp.decide_lowest({"t": [0.9], "a": [1.0]}, "t", margin=0.05)["verdict"] == "holds"
    assert emp.decide_lowest({"t": [0.99], "a": [1.0]}, "t", margin=0.05)["verdict"] == "inconclusive"


# ----------------------------------------------------------------------------- position probe


def test_position_probe_is_at_chance_for_a_permutation_equivariant_model_and_exact_with_a_strong_pe():
    from petheory.nn import tasks
    from petheory.nn.transformer import ModelConfig, build_model
    from petheory.nn.probes import position_probe

    torch.manual_seed(0)
    split = tasks.load(tasks.TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 64, "train_len": 12,
                                                             "test_lens": (12,)})).test[12]
    nope = build_model(ModelConfig(head="regression", pe="nope", causal=False, max_len=12, n_layer=1, d_model=32))
    p = position_probe(nope, split)
    # bidirectional and no PE: every position has the same distribution of representations
    assert p["accuracy"] < 4 * p["chance"] and p["z_min"] < 1.0
    strong = build_model(ModelConfig(head="regression", pe="random:scale=10", causal=False, max_len=12, n_layer=1, d_model=32))
    p = position_probe(strong, split)
    assert p["accuracy"] == 1.0 and p["z_min"] > 100


def test_positional_separation_checker_catches_a_planted_unseparated_model():
    from proofs_check.claims.cirrincione2026_necessity import SEPARATION_ACC, separation_evidence

    def rec(pe, acc, task="running_sum", seed=0):
        return {"task": task, "pe": pe, "seed": seed, "probe": {"accuracy": acc, "chance": 0.02, "positions": 50}}

    good = [rec("sinusoidal", 1.0, seed=s) for s in range(3)] + [rec("rope", 0.05)]  # rope is not judged
    assert separation_evidence(good).verdict == "holds"
    ev = separation_evidence(good + [rec("learned", SEPARATION_ACC - 0.01, seed=1)])
    assert ev.verdict == "inconclusive" and "running_sum/learned" in ev.summary
    assert separation_evidence([rec("alibi", 0.05)]).verdict == "inconclusive"  # nothing judged


def test_readme_reproduced_tables_are_generated_from_the_shipped_records():
    from proofs_check import reproduced_table as readme_reproduced

    assert readme_reproduced.main(["--check"]) == 0, "run: python -m proofs_check.reproduced_table --write"
    block = readme_reproduced.render()
    assert "| wavelet |" in block and "0.0108" in block and "| mla |" in block
    assert "passkey: passkey fully right" in block and "| rope_yarn+ft |" in block


def test_record_files_is_the_one_discovery_rule(tmp_path):
    from petheory.io import record_files

    (tmp_path / "a").mkdir()
    for name in ("a/record.json", "a/config.json", "a/.record.json.x.tmp", "b.json"):
        (tmp_path / name).write_text("{}")
    assert record_files(tmp_path) == [tmp_path / "a" / "record.json"]
    assert record_files(tmp_path, "*.json") == [tmp_path / "a" / "record.json", tmp_path / "b.json"]
    assert record_files(tmp_path / "missing") == []


def test_runs_dir_honours_petheory_runs(tmp_path, monkeypatch):
    monkeypatch.delenv("PETHEORY_RUNS", raising=False)
    assert records.runs_dir(tmp_path) == tmp_path / "runs"
    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "elsewhere"))
    assert records.runs_dir(tmp_path) == tmp_path / "elsewhere"
