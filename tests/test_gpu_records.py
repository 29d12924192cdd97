"""benchmarks/gpu_records.py's gu2025 plan (issue 25): the paper grid and the Fig. 5-7 stages expand to valid
paper-preset configs, the plan's estimate is the run-by-run sum of the measured one-run times, and a tiny run of
every spec writes records where the claims that need them read."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from petheory import experiments
from petheory.nn.presets import identify

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
G = importlib.import_module("gpu_records")

NEW = {"gu2025_task1": 21, "gu2025_task2": 21, "gu2025_fig5": 30, "gu2025_fig6": 6, "gu2025_fig7": 6}


@pytest.mark.parametrize("name", sorted(NEW))
def test_gu2025_stages_expand_to_paper_configs(name):
    cfgs = G.configs_of(G.STAGES[name][0], "cuda")
    assert len(cfgs) == NEW[name] == len({c.hash() for c in cfgs})
    assert {identify(c) for c in cfgs} == {"paper"} and {c.seed for c in cfgs} == set(G.SEEDS3)
    for c in cfgs:
        assert not np.isnan(G.run_seconds(name, c)), c.model.pe  # every PE has a measured time
    assert G.STAGES[name][2] == pytest.approx(sum(G.run_seconds(name, c) for c in cfgs), abs=1)


def test_fig5_covers_the_partial_rope_ladder_on_both_tasks():
    pes = {(c.task.name, str(c.model.pe)) for c in G.configs_of(G.STAGES["gu2025_fig5"][0], "cuda")}
    for k in experiments.GU2025_PARTIAL_HEADS:
        assert {("gu2025_task1", f"rope:heads={k}"), ("gu2025_task2", f"rope:heads={k}")} <= pes
    assert ("gu2025_task1", "rope") in pes and ("gu2025_task2", "nope") in pes


def test_plan_counts_each_run_once_and_does_not_fit_the_target():
    # by hand from GU_TRAIN_MIN: both grids, then Fig. 5's runs not in them (rope and 4 partial on Task 1 at the
    # rope time, 4 partial on Task 2); Figs. 6 and 7 are in the grids
    t1, t2 = G.GU_TRAIN_MIN["gu2025_task1"], G.GU_TRAIN_MIN["gu2025_task2"]
    k = len(experiments.GU2025_PARTIAL_HEADS)
    want = 60 * 3 * (sum(t1.values()) + sum(t2.values()) + (k + 1) * t1["rope+sinusoidal"] + k * t2["rope+sinusoidal"])
    got = G.plan_seconds(G.GU2025_PLAN)
    assert got == pytest.approx(want, rel=1e-12)
    assert got / 60 > G.GU2025_TARGET_MIN  # honest: at today's measured speeds it does not fit
    assert G.plan_seconds(["gu2025_fig6", "gu2025_fig7"]) == pytest.approx(G.STAGES["gu2025_fig6"][2] + G.STAGES["gu2025_fig7"][2], abs=1)


def _smoke(spec):
    """The stage's grid at the smoke preset, one seed, with 8 heads so that every rope:heads=k of the ladder is valid."""
    return [{**s, "preset": "smoke", "seed": [0], "set": {"model.n_head": 8}} for s in (spec if isinstance(spec, list) else [spec])]


def test_every_spec_trains_and_writes_records_the_claims_read(tmp_path, monkeypatch):
    from proofs_check.claims import gu2025_empirical as E
    from proofs_check.claims import gu2025_mla as M
    from proofs_check.engine import Context

    for name in NEW:
        spec, folder, est = G.STAGES[name]
        monkeypatch.setitem(G.STAGES, name, (_smoke(spec), folder, est))
    out, runs = tmp_path / "records", tmp_path / "runs_gpu"
    for name in ["gu2025_fig5", "gu2025_fig6", "gu2025_fig7", "gu2025_task1", "gu2025_task2"]:
        res = G.run_stage(name, "cpu", runs, out)
        assert "error" not in res, res
    assert G.run_stage("gu2025_fig6", "cpu", runs, out) == {"stage": "gu2025_fig6", "skipped": "done"}
    # the grid stages trained only what Figs. 5-7 had not: each config once, in the folder of its first stage
    files = sorted(out.rglob("*.json"))
    assert len(files) == 2 * len(experiments.GU2025_PES) + 2 * len(experiments.GU2025_PARTIAL_HEADS) + 1
    assert {p.parent.name for p in files} == {G.STAGES[n][1] for n in NEW}

    monkeypatch.setenv("PETHEORY_RECORDS", str(out))  # the claims read these records alone
    ctx = Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, workdir=str(tmp_path / "clone"),
                  alpha=0.05)
    ev = M.partial_rope(ctx)
    assert ev.details["size"] == "custom" and set(ev.details["acc"]) == {"rope", *(
        f"rope:heads={k}" for k in experiments.GU2025_PARTIAL_HEADS)}
    for fn, spec in ((M.rope_abs_deposit, "rope+sinusoidal"), (M.mla_headwise_ablation, "mla"), (M.dropout_keeps_deposit, "rope")):
        ev = fn(ctx)
        assert ev.verdict == "inconclusive" and list(ev.details["acc"]) == [spec], (fn.__name__, ev.details)
        assert len(ev.details["max_shallow_drop"]) == 1  # the record carries its head ablation
    for task in ("gu2025_task1", "gu2025_task2"):
        table, size, n = E._table(ctx, task)
        assert size == "custom" and set(table) == set(experiments.GU2025_PES) and n == len(experiments.GU2025_PES)


def test_figure_experiments_run_their_fixed_specs():
    from petheory.errors import ValidationError

    recs = experiments.gu2025_rope_abs({"size": "smoke"})
    assert [(r["task"], r["pe"]) for r in recs] == [("gu2025_task1", "rope+sinusoidal"), ("gu2025_task2", "rope+sinusoidal")]
    assert all(r["ablation"]["heads"] for r in recs)
    with pytest.raises(ValidationError, match="pes"):
        experiments.gu2025_partial_rope({"pes": ["rope"]})
    with pytest.raises(ValidationError, match="unknown experiment option"):
        experiments.gu2025_mla_ablation({"sizes": "smoke"})
