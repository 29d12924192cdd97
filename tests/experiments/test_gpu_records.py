"""tools/gpu/gpu_records.py's stages: the gu2025 paper grid and the Fig. 5-7 stages expand to valid paper-preset
configs, the plan's estimate is the run-by-run sum of the measured one-run times, and a tiny run of every spec writes
records where the claims that need them read; the paper-scale plan (gu2025 Task 2, li2025 Table 5 with the db4
wavelet construction, MQAR context extension) is its stages, each trains and writes its records, and --measure
projects a stage from step times measured on the device."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from petheory import records
from petheory.experiments import papers
from petheory.nn.presets import identify
from petheory.nn.provenance import li2025_table5_paper_size

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "gpu"))
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
    for k in papers.GU2025_PARTIAL_HEADS:
        assert {("gu2025_task1", f"rope:heads={k}"), ("gu2025_task2", f"rope:heads={k}")} <= pes
    assert ("gu2025_task1", "rope") in pes and ("gu2025_task2", "nope") in pes


def test_plan_counts_each_run_once_and_does_not_fit_the_target():
    # by hand from GU_TRAIN_MIN: both grids, then Fig. 5's runs not in them (rope and 4 partial on Task 1 at the
    # rope time, 4 partial on Task 2); Figs. 6 and 7 are in the grids
    t1, t2 = G.GU_TRAIN_MIN["gu2025_task1"], G.GU_TRAIN_MIN["gu2025_task2"]
    k = len(papers.GU2025_PARTIAL_HEADS)
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
    assert len(files) == 2 * len(papers.GU2025_PES) + 2 * len(papers.GU2025_PARTIAL_HEADS) + 1
    assert {p.parent.name for p in files} == {G.STAGES[n][1] for n in NEW}

    monkeypatch.setenv("PETHEORY_RECORDS", str(out))  # the claims read these records alone
    ctx = Context(profile="quick", budget=1, rng=np.random.default_rng(0), seed=0, workdir=str(tmp_path / "clone"),
                  alpha=0.05)
    ev = M.partial_rope(ctx)
    assert ev.details["size"] == "custom" and set(ev.details["acc"]) == {"rope", *(
        f"rope:heads={k}" for k in papers.GU2025_PARTIAL_HEADS)}
    for fn, spec in ((M.rope_abs_deposit, "rope+sinusoidal"), (M.mla_headwise_ablation, "mla"), (M.dropout_keeps_deposit, "rope")):
        ev = fn(ctx)
        assert ev.verdict == "inconclusive" and list(ev.details["acc"]) == [spec], (fn.__name__, ev.details)
        key = "first_layer_drop" if fn is M.rope_abs_deposit else "max_shallow_drop"  # rope_abs_deposit reads layers
        assert len(ev.details[key]) == 1  # the record carries its head ablation
    for task in ("gu2025_task1", "gu2025_task2"):
        table, size, n = E._table(ctx, task)
        assert size == "custom" and set(table) == set(papers.GU2025_PES) and n == len(papers.GU2025_PES)


def test_figure_experiments_run_their_fixed_specs():
    from petheory.errors import ValidationError

    recs = papers.gu2025_rope_abs({"size": "smoke"})
    assert [(r["task"], r["pe"]) for r in recs] == [("gu2025_task1", "rope+sinusoidal"), ("gu2025_task2", "rope+sinusoidal")]
    assert all(r["ablation"]["heads"] for r in recs)
    with pytest.raises(ValidationError, match="pes"):
        papers.gu2025_partial_rope({"pes": ["rope"]})
    with pytest.raises(ValidationError, match="unknown experiment option"):
        papers.gu2025_mla_ablation({"sizes": "smoke"})


def test_task1_figs_stage_is_task1_and_its_figure_runs_each_once():
    cfgs = G.configs_of(G.STAGES["gu2025_task1_figs"][0], "cuda")
    want = {c.hash() for n in G.TASK1_FIGS_FOLDERS for c in G.configs_of(G.STAGES[n][0], "cuda") if c.task.name == "gu2025_task1"}
    assert len(cfgs) == len(want) == len({c.hash() for c in cfgs}) and {c.hash() for c in cfgs} == want
    # by hand: the 7 PEs and Fig. 5's pure RoPE and partial RoPE, 3 seeds each (Figs. 6-7 are in the grid)
    assert len(cfgs) == 3 * (len(papers.GU2025_PES) + 1 + len(papers.GU2025_PARTIAL_HEADS))
    assert G.STAGES["gu2025_task1_figs"][2] == pytest.approx(sum(G.run_seconds("gu2025_task1", c) for c in cfgs), abs=1)
    # one program per batch size: MLA trains at 1024, the rest at 512; --members cuts a program into near-equal grids
    parts = G.chunks(cfgs, 8)
    assert [len(p) for p in parts] == [7, 7, 7, 7, 5, 3]  # 33 at batch 512 in 5 near-equal grids, then MLA's 3
    assert all(len({c.batch_size for c in p}) == 1 for p in parts)
    assert [len(p) for p in G.chunks(cfgs, None)] == [33, 3]


def test_task1_projection_is_counted_flops_at_the_measured_step_times():
    from petheory.experiments.grid_measure import step_flops

    p = G.task1_projection()
    rows = {r["pe"]: r for r in p["rows"]}
    assert sum(r["runs"] for r in rows.values()) == p["runs"] == 36
    # by hand: minutes = runs x steps x step time; the step times are GU_TRAIN_MIN's source
    assert p["serial_min"] == pytest.approx(sum(r["runs"] * r["steps"] * r["step_ms"] / 6e4 for r in rows.values()))
    for pe, r in rows.items():
        key = "rope+sinusoidal" if pe.startswith("rope") else pe
        # both tables are rounded (step times to 0.1 ms, minutes to 0.1 min): they agree to about 0.1 min
        assert r["steps"] * r["step_ms"] / 6e4 == pytest.approx(G.GU_TRAIN_MIN["gu2025_task1"][key], abs=0.1)
    from petheory.nn import tasks

    n = len(tasks.load(G.configs_of(G.STAGES["gu2025_task1"][0], "cuda")[0].task).train)
    assert (rows["nope"]["steps"], rows["mla"]["steps"]) == (100 * -(-n // 512), 100 * -(-n // 1024))  # MLA: batch 1024
    c = G.configs_of(G.STAGES["gu2025_task1_figs"][0], "cuda")[0]
    assert rows[str(c.model.pe)]["flops_per_step"] == step_flops(c)
    # the 6N + 12 L T d estimate per token of bench_nn agrees with the count within the terms it leaves out
    assert rows["nope"]["flops_per_step"] == pytest.approx(512 * 128 * (6 * 3.2e6 + 12 * 6 * 128 * 256), rel=0.1)
    assert p["packing_needed"] == pytest.approx(p["serial_min"] / G.TASK1_TARGET_MIN)
    assert p["floor_min"] < G.TASK1_TARGET_MIN < p["serial_min"]  # possible in FLOPs, not at today's step times


def test_task1_figs_stage_runs_in_member_grids_and_routes_records(tmp_path, monkeypatch):
    spec, folder, est = G.STAGES["gu2025_task1_figs"]
    monkeypatch.setitem(G.STAGES, "gu2025_task1_figs", (_smoke(spec), folder, est))
    for n in G.TASK1_FIGS_FOLDERS:
        monkeypatch.setitem(G.STAGES, n, (_smoke(G.STAGES[n][0]), *G.STAGES[n][1:]))
    out = tmp_path / "records"
    res = G.run_stage("gu2025_task1_figs", "cpu", tmp_path / "runs", out, members=4)
    n = len(papers.GU2025_PES) + 1 + len(papers.GU2025_PARTIAL_HEADS)
    assert res["runs"] == n and res["grids"] == 3  # 12 runs at batch 64 (smoke: MLA too) in grids of <= 4
    assert res["mfu"] is None and res["device"] == "cpu" and res["source"] and res["flops"] > 0
    folders = {p.parent.name: 0 for p in out.rglob("*.json")}
    for p in out.rglob("*.json"):
        folders[p.parent.name] += 1
    assert folders == {G.STAGES["gu2025_task1"][1]: len(papers.GU2025_PES),
                       G.STAGES["gu2025_fig5"][1]: 1 + len(papers.GU2025_PARTIAL_HEADS)}
    assert G.run_stage("gu2025_task1_figs", "cpu", tmp_path / "runs", out) == {"stage": "gu2025_task1_figs", "skipped": "done"}


def _tiny(monkeypatch, name, spec_over):
    spec, folder, est = G.STAGES[name]
    monkeypatch.setitem(G.STAGES, name, ({**spec, **spec_over}, folder, est))


def test_the_paper_scale_plan_is_its_four_stages_and_its_estimate_is_their_sum():
    assert G.ISSUE34_PLAN == ["table5_db4", "mqar_filler_long", "mqar_extension", "gu2025_task2"]
    want = sum(G.STAGES[n][2] for n in G.ISSUE34_PLAN)
    assert G.plan_seconds(G.ISSUE34_PLAN) == pytest.approx(want, abs=2)  # each stage's estimate is rounded to 1 s


def test_table5_db4_stage_is_the_paper_preset_with_the_db4_construction_and_the_shipped_seeds():
    cfgs = G.configs_of(G.STAGES["table5_db4"][0], "cuda")
    assert [c.seed for c in cfgs] == G.T5_DB4_SEEDS == list(range(15))
    for c in cfgs:
        assert str(c.model.pe) == papers.LI2025_DB4 and "wavelet=db4" in str(c.model.pe)
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


@pytest.mark.slow  # trains two smoke runs and evaluates the RoPE one with 7 methods: ~50 s of CPU
def test_new_stages_train_and_write_their_records_then_skip(tmp_path, monkeypatch):
    _tiny(monkeypatch, "table5_db4", {"preset": "smoke", "seed": [0], "set": {"epochs": 1, "task.n_train": 32}})
    _tiny(monkeypatch, "mqar_extension", {"preset": "smoke", "seed": [0]})
    monkeypatch.setattr("petheory.experiments.retrieval_runs.FT_STEPS", 2)
    out, runs = tmp_path / "records", tmp_path / "runs"
    for name in ("table5_db4", "mqar_extension"):
        res = G.run_stage(name, "cpu", runs, out)
        assert "error" not in res and res["runs"] == 1, res
        assert G.run_stage(name, "cpu", runs, out) == {"stage": name, "skipped": "done"}
    (t5,) = (out / "li2025_table5_db4").glob("*.json")
    assert json.loads(t5.read_text())["pe"] == papers.LI2025_DB4
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

    monkeypatch.setattr("petheory.experiments.grid_measure.step_time", fake_step_time)
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


def test_fullest_packs_the_most_seconds_into_the_capacity():
    assert sorted(G.fullest([20, 14, 12], 27)) == [1, 2]  # 26 s; longest-first would stop at 20
    assert G.fullest([20, 14, 12], 34) == [0, 1]
    assert sorted(G.fullest([20, 14, 12], 46)) == [0, 1, 2] and G.fullest([30], 25) == [] and G.fullest([], 5) == []
    assert G.fullest([9.5], 9.9) == []  # sizes round up: 10 s does not fit in 9.9


def test_a_stage_that_does_not_fit_trains_the_runs_that_fit_fullest_first_and_packs_only_them(tmp_path, monkeypatch):
    """Issue 44's slices: with runs estimated 12, 14 and 20 s and 27 s of budget, the slice trains 14 + 12 (the fullest
    subset, longest first; longest-first alone would train 20 and stop); the measured-to-estimated ratio of finished
    runs scales the rest; the tar holds the two new records and the log, and the next slice trains the one left."""
    import tarfile

    monkeypatch.setitem(G.STAGES, "gu2025_task2", ({"task": "gu2025_task2", "preset": "smoke", "pe": [
        "nope", "sinusoidal", "alibi:slopes=gu2025"], "seed": [0], "set": {"epochs": 1, "task.n_samples": 64}},
        *G.STAGES["gu2025_task2"][1:]))
    est = {"nope": 12.0, "sinusoidal": 14.0, "alibi:slopes=gu2025": 20.0}
    monkeypatch.setattr(G, "run_seconds", lambda name, c: est[str(c.model.pe)])
    trained, clock, factor = [], [0.0], [1.0]
    real = G.sweep.run

    def timed(cfgs, out_dir, ensemble):  # a run's measured time is its estimate x factor (the clock is faked)
        trained.append(str(cfgs[0].model.pe))
        clock[0] += factor[0] * est[str(cfgs[0].model.pe)]
        return real(cfgs, out_dir, ensemble=ensemble)

    monkeypatch.setattr(G.sweep, "run", timed)
    monkeypatch.setattr(G.time, "perf_counter", lambda: clock[0])
    out, tar, log = tmp_path / "records", tmp_path / "slice.tar.gz", tmp_path / "log.jsonl"

    def argv(budget, runs="runs"):
        return ["--device", "cpu", "--out", str(out), "--runs", str(tmp_path / runs), "--budget", str(budget),
                "--tar", str(tar), "--new-only", "--log", str(log), "gu2025_task2"]

    assert G.main(argv(27)) == 0
    assert trained == ["sinusoidal", "nope"]
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [ln["run"].split()[1] for ln in lines[:2]] == ["sinusoidal", "nope"]
    assert lines[-1]["runs"] == 2 and lines[-1]["runs_left"] == 1 and lines[-1]["ratio"] == pytest.approx(1.0)
    with tarfile.open(tar) as tf:
        names = sorted(tf.getnames())
    assert len(names) == 3 and "log.jsonl" in names and all(n.startswith("records/gu2025_task2/") for n in names if n != "log.jsonl")
    assert len(list(out.rglob("*.json"))) == 2
    assert G.main(argv(19)) == 0  # the 20 s run alone is left: it does not fit in 19 s
    assert trained[2:] == [] and json.loads(log.read_text().splitlines()[-1])["skipped"].startswith("no run fits in 19 s")
    assert G.main(argv(21)) == 0  # it fits whole
    assert trained[2:] == ["alibi:slopes=gu2025"] and len(list(out.rglob("*.json"))) == 3
    assert G.main(["--whole"] + argv(1)) == 0
    assert json.loads(log.read_text().splitlines()[-1]) == {"stage": "gu2025_task2", "skipped": "done"}
    # on a device twice as fast as the estimates the measured ratio (0.5 after the first run) lets all three fit in
    # 27 s: 14 -> 7 s, then 20 and 12 need 10 and 6 of the 20 left (at ratio 1, 20 then 12 would not fit)
    out, trained[:], factor[0], clock[0] = tmp_path / "records2", [], 0.5, 0.0
    assert G.main(argv(27, runs="runs2")) == 0  # a bare machine: no finished run to read back
    assert trained == ["sinusoidal", "alibi:slopes=gu2025", "nope"]
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["runs"] == 3 and last["runs_left"] == 0 and last["ratio"] == pytest.approx(0.5)
    # a slice told the device's ratio up front packs its first run by it: at 0.5, 20 s needs 10 of 12
    out, trained[:], clock[0] = tmp_path / "records3", [], 0.0
    assert G.main(argv(12, runs="runs3")[:-1] + ["--ratio", "0.5", "gu2025_task2"]) == 0
    assert trained == ["alibi:slopes=gu2025"]


def test_checkpoints_of_unfinished_runs_travel_in_parts_and_the_run_resumes(tmp_path, monkeypatch):
    """A run longer than a slice (issue 44: relative attention's) goes on in the next slice: --pack-checkpoints writes
    the checkpoints of unfinished runs in parts a GPU machine returns, --unpack-checkpoints puts them back (checked by
    SHA-256), and the next call counts only the epochs left and resumes; --partial starts the longest run when none fits."""
    import shutil

    monkeypatch.setitem(G.STAGES, "gu2025_task2", ({"task": "gu2025_task2", "preset": "smoke", "pe": ["nope", "sinusoidal"],
                                                    "seed": [0], "set": {"epochs": 2, "task.n_samples": 64}},
                                                   *G.STAGES["gu2025_task2"][1:]))
    est = {"nope": 300.0, "sinusoidal": 400.0}
    monkeypatch.setattr(G, "run_seconds", lambda name, c: est[str(c.model.pe)])
    out, runs, log = tmp_path / "records", tmp_path / "runs", []
    # no run fits in 150 s; --partial starts the longest (here it finishes: a smoke run; then, at the ratio measured,
    # the other fits), but not with less than PARTIAL_MIN_S left
    assert G.run_runs_that_fit("gu2025_task2", "cpu", runs, out, 100, log=log.append, partial=True)["runs"] == 0
    res = G.run_runs_that_fit("gu2025_task2", "cpu", runs, out, G.PARTIAL_MIN_S + 5, log=log.append, partial=True)
    assert log[0]["partial"] == "gu2025_task2 sinusoidal seed 0" and res["runs"] == 2
    # the sinusoidal run as a slice cut it: its checkpoint (the last epoch's) without its record, and no exported record
    (rd,) = [d for d in (runs / "gu2025_task2").iterdir() if "sinusoidal" in d.name]
    (rd / "record.json").unlink()
    shutil.rmtree(out)
    packed = tmp_path / "packed"
    assert G.main(["--runs", str(runs), "--pack-checkpoints", str(packed)]) == 0
    manifest = json.loads((packed / G.MANIFEST).read_text())["checkpoints"]
    assert [m["path"] for m in manifest] == [f"gu2025_task2/{rd.name}/checkpoint.pt"]  # the finished nope run stays
    size = manifest[0]["bytes"]
    G.pack_checkpoints(runs, tmp_path / "small_parts", part_bytes=-(-size // 3))
    assert len(json.loads((tmp_path / "small_parts" / G.MANIFEST).read_text())["checkpoints"][0]["parts"]) == 3
    fresh = tmp_path / "runs_next_slice"  # a bare machine: nothing but what was carried
    assert G.main(["--runs", str(fresh), "--unpack-checkpoints", str(tmp_path / "small_parts")]) == 0
    assert (fresh / manifest[0]["path"]).read_bytes() == (rd / "checkpoint.pt").read_bytes()
    c = next(c for c in G.configs_of(G.STAGES["gu2025_task2"][0], "cpu") if str(c.model.pe) == "sinusoidal")
    assert G.fraction_done(c, fresh, "gu2025_task2") == 1.0  # its last epoch: nothing left to train
    log.clear()
    res = G.run_runs_that_fit("gu2025_task2", "cpu", fresh, out, 150, log=log.append)
    assert [ln["run"] for ln in log if "run" in ln][0] == "gu2025_task2 sinusoidal seed 0"  # 0 s left: fits first
    assert log[0]["resumed_from"] == 1.0 and res["runs"] == 1  # nope (300 s, no checkpoint here) does not fit
    assert "reexported" not in log[0] and "reexported" not in res  # it had no record: this call evaluated it
    # the next call on the same machine, its records folder fresh from the tree (slice 4 on the H200): the finished run
    # is exported again, and neither counted as trained nor given flops, nor a row of its own in RESULTS.md
    log.clear()
    res = G.run_runs_that_fit("gu2025_task2", "cpu", fresh, tmp_path / "records_again", 150, log=log.append)
    assert log[0]["reexported"] is True and res["runs"] == 0 and res["reexported"] == 1 and res["mfu"] in (None, 0.0)
    slices = tmp_path / "slices"
    slices.mkdir()
    (slices / "s.jsonl").write_text("".join(json.dumps(x) + "\n" for x in [*log, {**res, "device": "cpu"}]))
    monkeypatch.setattr(G, "status", lambda out, plan: {"stages": []})  # the plan's real stages: not this test's
    table = G.render_slices(slices, tmp_path / "records_again")
    assert "| s | cpu |" not in table and "sinusoidal" not in table
    # a part that does not match refuses the whole checkpoint
    part = tmp_path / "small_parts" / "ckpt0.part01"
    part.write_bytes(b"x" + part.read_bytes()[1:])
    with pytest.raises(Exception, match="do not make the file that was packed"):
        G.unpack_checkpoints(tmp_path / "small_parts", tmp_path / "runs3")
    assert not (tmp_path / "runs3").exists()
