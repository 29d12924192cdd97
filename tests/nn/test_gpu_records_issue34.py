"""benchmarks/gpu_records.py's issue 34 plan: gu2025 Task 2 at the paper's scale, li2025 Table 5 with the db4
wavelet construction and MQAR context extension. The stages expand to the configs the claims read, the plan's
estimate is the sum of its stages' estimates, a tiny run of each new stage writes its records, and --measure
projects a stage from step times measured on the device."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from petheory import experiments, records
from petheory.nn.presets import identify
from petheory.nn.provenance import li2025_table5_paper_size

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
G = importlib.import_module("gpu_records")


def test_issue34_plan_is_its_four_stages_and_its_estimate_is_their_sum():
    assert G.ISSUE34_PLAN == ["table5_db4", "mqar_filler_long", "mqar_extension", "gu2025_task2"]
    want = sum(G.STAGES[n][2] for n in G.ISSUE34_PLAN)
    assert G.plan_seconds(G.ISSUE34_PLAN) == pytest.approx(want, abs=2)  # each stage's estimate is rounded to 1 s


def test_table5_db4_stage_is_the_paper_preset_with_the_db4_construction_and_the_shipped_seeds():
    cfgs = G.configs_of(G.STAGES["table5_db4"][0], "cuda")
    assert [c.seed for c in cfgs] == G.T5_DB4_SEEDS == list(range(15))
    for c in cfgs:
        assert str(c.model.pe) == experiments.LI2025_DB4 and "wavelet=db4" in str(c.model.pe)
        rec = {"config": c.as_dict(), "model": c.model.as_dict()}
        assert li2025_table5_paper_size(rec)  # the claim counts these as paper-size records
    # the other PEs' paper records pair up seed by seed with the shipped ones
    shipped = {r["seed"] for r in records.find("running_sum", where=[records.shipped_dir() / "li2025_table5"],
                                                report=False).records}
    assert set(G.T5_DB4_SEEDS) <= shipped


def test_mqar_extension_stage_is_rope_at_the_retrieval_paper_preset():
    cfgs = G.configs_of(G.STAGES["mqar_extension"][0], "cuda")
    assert G.is_retrieval("mqar_extension") and not G.is_retrieval("table5_db4")
    assert {(c.task.name, str(c.model.pe), identify(c)) for c in cfgs} == {("mqar", "rope", "paper")}
    assert sorted(c.seed for c in cfgs) == G.SEEDS3
    assert G.STAGES["mqar_extension"][2] == round(3 * G._mqar_seconds("paper"))


def _tiny(monkeypatch, name, spec_over):
    spec, folder, est = G.STAGES[name]
    monkeypatch.setitem(G.STAGES, name, ({**spec, **spec_over}, folder, est))


@pytest.mark.slow  # trains two smoke runs and evaluates the RoPE one with 7 methods: ~50 s of CPU
def test_new_stages_train_and_write_their_records_then_skip(tmp_path, monkeypatch):
    _tiny(monkeypatch, "table5_db4", {"preset": "smoke", "seed": [0], "set": {"epochs": 1, "task.n_train": 32}})
    _tiny(monkeypatch, "mqar_extension", {"preset": "smoke", "seed": [0]})
    monkeypatch.setattr("petheory.nn.retrieval_runs.FT_STEPS", 2)
    out, runs = tmp_path / "records", tmp_path / "runs"
    for name in ("table5_db4", "mqar_extension"):
        res = G.run_stage(name, "cpu", runs, out)
        assert "error" not in res and res["runs"] == 1, res
        assert G.run_stage(name, "cpu", runs, out) == {"stage": name, "skipped": "done"}
    (t5,) = (out / "li2025_table5_db4").glob("*.json")
    assert json.loads(t5.read_text())["pe"] == experiments.LI2025_DB4
    (mq,) = (out / "retrieval_mqar_paper").glob("*.json")
    rec = json.loads(mq.read_text())
    by = rec["retrieval"]["methods"]["rope"]["by_length"]
    assert rec["task"] == "mqar" and set(by) == {"16", "32"} and len(by["16"]["query_acc"]) == rec["config"]["task"]["params"]["n_pairs"]
    assert {"rope_yarn", "rope_yarn+ft"} <= set(rec["retrieval"]["methods"])


def test_measure_projects_a_stage_from_timed_steps(monkeypatch):
    _tiny(monkeypatch, "table5_db4", {"preset": "smoke", "seed": [0, 1], "set": {"task.n_train": 64}})
    calls = []

    def fake_step_time(cfgs, steps):
        calls.append(len(cfgs))
        return {"step_ms": 10.0}

    monkeypatch.setattr("petheory.nn.grid_measure.step_time", fake_step_time)
    cfg = G.configs_of(G.STAGES["table5_db4"][0], "cpu")[0]
    n_steps = cfg.epochs * -(-64 // cfg.batch_size)
    assert G.measure_seconds("table5_db4", "cpu") == pytest.approx(0.010 * n_steps)
    assert calls == [2]  # both seeds as one grid, one timing


def test_mqar_filler_long_stage_is_the_small_model_with_filler_at_a_constant_lr():
    cfgs = G.configs_of(G.STAGES["mqar_filler_long"][0], "cuda")
    assert sorted(c.seed for c in cfgs) == G.SEEDS3
    for c in cfgs:
        assert (c.task.name, str(c.model.pe), c.schedule) == ("mqar", "rope", "constant")
        p = c.task.params
        assert "min_len" not in p and "train_len" not in p  # the task's default contexts 16..32: filler between pairs
        assert c.epochs * -(-p["n_train"] // c.batch_size) >= 7800
