"""Sweeps: a grid expands to configs, runs are skipped by hash, and every engine gives the same records;
seed ensembles match per-seed training."""

import dataclasses
import json
import sys

import pytest
import torch

from petheory.experiments import sweep
from petheory.experiments.ensemble import train_ensemble
from petheory.nn import preset, train
from petheory.nn.training import CHECKPOINT, without_timing

torch.set_num_threads(1)

GRID = {"task": "copy", "preset": "smoke", "pe": ["nope", "alibi"], "seed": [0, 1], "set": {"epochs": 1, "ablate": False}}


def test_grid_is_the_cartesian_product_in_stable_order():
    cfgs = sweep.expand({**GRID, "grid": {"task.n_train": [32, 64]}})
    assert len(cfgs) == 8
    assert [(str(c.model.pe), c.seed, c.task.params["n_train"]) for c in cfgs[:3]] == [("nope", 0, 32), ("nope", 0, 64), ("nope", 1, 32)]
    assert len({c.hash() for c in cfgs}) == 8
    assert [c.hash() for c in sweep.expand({**GRID, "grid": {"task.n_train": [32, 64]}})] == [c.hash() for c in cfgs]


def test_grid_files_json_and_toml(tmp_path):
    (tmp_path / "g.json").write_text(json.dumps(GRID))
    (tmp_path / "g.toml").write_text('task = "copy"\npreset = "smoke"\npe = ["nope", "alibi"]\nseed = [0, 1]\n'
                                     '[set]\nepochs = 1\nablate = false\n')
    a, b = sweep.expand(sweep.load_grid(tmp_path / "g.json")), sweep.expand(sweep.load_grid(tmp_path / "g.toml"))
    assert [c.hash() for c in a] == [c.hash() for c in b]
    (tmp_path / "bad.toml").write_text("task = [")
    with pytest.raises(ValueError, match="not valid TOML"):
        sweep.load_grid(tmp_path / "bad.toml")
    with pytest.raises(ValueError, match="unknown grid key"):
        sweep.expand({**GRID, "colour": 1})


def test_local_sweep_is_idempotent_and_resumes(tmp_path):
    cfgs = sweep.expand(GRID)
    first = sweep.run(cfgs, tmp_path)
    assert [r["config_hash"] for r in first] == [c.hash() for c in cfgs]
    seen = []
    again = sweep.run(cfgs, tmp_path, progress=lambda d, t, r: seen.append(d))
    assert again == first and seen == [1, 2, 3, 4]  # all read back
    # a half-done run (checkpoint, no record) resumes to the same record
    d = sweep.run_dir(tmp_path, cfgs[0])
    (d / "record.json").unlink()
    assert (d / CHECKPOINT).is_file()
    assert without_timing(sweep.run(cfgs[:1], tmp_path)[0]) == without_timing(first[0])


def test_process_pool_engine_matches_in_process(tmp_path):
    cfgs = sweep.expand({**GRID, "pe": ["rope"]})
    pooled = sweep.run(cfgs, tmp_path / "pool", engine="process", workers=2)
    local = [train(c) for c in cfgs]
    assert [without_timing(r) for r in pooled] == [without_timing(r) for r in local]


def test_slurm_engine_through_submitit_debug_and_local_executors(tmp_path):
    import submitit  # in the test extra: this runs in CI rather than skips

    cfgs = sweep.expand({**GRID, "pe": ["t5"], "seed": [0]})
    want = without_timing(train(cfgs[0]))
    dbg = sweep.run(cfgs, tmp_path / "dbg", engine="slurm", executor=submitit.DebugExecutor(folder=str(tmp_path / "sd")))
    assert without_timing(dbg[0]) == want
    ex = submitit.LocalExecutor(folder=str(tmp_path / "sl"))
    ex.update_parameters(timeout_min=5)
    loc = sweep.run(cfgs, tmp_path / "loc", engine="slurm", executor=ex)
    # a separate process may use another number of torch threads: equal up to float32 round-off
    for L, m in want["final"]["test"].items():
        assert loc[0]["final"]["test"][L] == pytest.approx(m, rel=1e-5)


def test_sweep_with_ensemble_gives_the_per_seed_records(tmp_path):
    cfgs = sweep.expand({**GRID, "pe": ["rope"], "seed": [0, 1, 2]})
    ens = sweep.run(cfgs, tmp_path, ensemble=True)
    for r, c in zip(ens, cfgs):
        ref = train(c)
        assert r["seed"] == c.seed and r["config_hash"] == ref["config_hash"]
        assert r["final"]["train"]["loss"] == pytest.approx(ref["final"]["train"]["loss"], rel=1e-5)


class _ArrayExecutor:
    """submitit's ``map_array`` contract, run in this process: one call per array task, recorded."""

    def __init__(self):
        self.tasks = []

    def map_array(self, fn, *columns):
        class Job:
            def __init__(self, value):
                self._value = value

            def result(self):
                return self._value

        jobs = []
        for args in zip(*columns):
            self.tasks.append(args)
            jobs.append(Job(fn(*args)))
        return jobs


def test_ensemble_sweep_sends_one_array_task_per_grid_group(tmp_path):
    """--ensemble with the SLURM engine packs each group of runs that share a program into one array
    task (one GPU kept busy by a whole grid), and gives the records the in-process grid gives."""
    cfgs = sweep.expand({**GRID, "pe": ["nope", "alibi"], "grid": {"lr": [1e-3, 3e-3]}})  # 2 lrs: 2 groups of 4
    ex = _ArrayExecutor()
    packed = sweep.run(cfgs, tmp_path / "slurm", engine="slurm", executor=ex, ensemble=True)
    assert len(ex.tasks) == 2 and sorted(len(t[0]) for t in ex.tasks) == [4, 4]
    local = sweep.run(cfgs, tmp_path / "local", ensemble=True)
    assert [r["config_hash"] for r in packed] == [c.hash() for c in cfgs]
    assert [without_timing(r) for r in packed] == [without_timing(r) for r in local]
    ex2 = _ArrayExecutor()
    assert sweep.run(cfgs, tmp_path / "slurm", engine="slurm", executor=ex2, ensemble=True) == packed
    assert ex2.tasks == []  # all done: nothing submitted


def test_ensemble_sweep_through_submitit_local_executor_real_processes(tmp_path):
    """The code a cluster user runs: --ensemble on the SLURM engine through submitit's own LocalExecutor
    (each array task a separate process, the grid group pickled there and back), as CI runs it."""
    import submitit  # in the test extra: this runs in CI rather than skips

    cfgs = sweep.expand({**GRID, "pe": ["nope", "alibi"], "seed": [0], "grid": {"lr": [1e-3, 3e-3]}})  # 2 groups of 2
    ex = submitit.LocalExecutor(folder=str(tmp_path / "sl"))
    ex.update_parameters(timeout_min=5)
    packed = sweep.run(cfgs, tmp_path / "slurm", engine="slurm", executor=ex, ensemble=True)
    assert len(list((tmp_path / "sl").glob("*_0_result.pkl"))) + len(list((tmp_path / "sl").glob("*_1_result.pkl"))) == 2
    local = sweep.run(cfgs, tmp_path / "local", ensemble=True)
    assert [r["config_hash"] for r in packed] == [c.hash() for c in cfgs]
    for p, q in zip(packed, local):  # another process may use another number of torch threads: float32 round-off
        for L, m in q["final"]["test"].items():
            assert p["final"]["test"][L] == pytest.approx(m, rel=1e-5)


@pytest.mark.parametrize("task, pe", [("running_sum", "alibi"), ("gu2025_task1", "t5"), ("parity", "relative"),
                                      ("addition", "mla"), ("gu2025_task2", "rope:heads=1+sinusoidal")])
def test_seed_ensemble_matches_per_seed_training_numerically(task, pe):
    cfg = preset(task, "smoke", pe=pe, epochs=2, ablate=False)
    if task == "running_sum":
        cfg = dataclasses.replace(cfg, task=dataclasses.replace(cfg.task, params={**cfg.task.params, "n_train": 64}))
    ens = train_ensemble(cfg, [0, 1, 2])
    for r in ens:
        ref = train(dataclasses.replace(cfg, seed=r["seed"]))
        for a, b in zip(r["history"], ref["history"]):
            assert a["train_loss"] == pytest.approx(b["train_loss"], rel=1e-5, abs=1e-7)
        for k, v in ref["final"]["train"].items():
            assert r["final"]["train"][k] == pytest.approx(v, rel=1e-4, abs=1e-6)
    assert len({r["final"]["train"].get("mse", r["final"]["train"].get("loss")) for r in ens}) == 3  # seeds differ


def test_ensemble_checkpoints_resume_per_member(tmp_path):
    cfg = preset("copy", "smoke", pe="alibi", epochs=3, ablate=False)
    dirs = [tmp_path / f"s{s}" for s in (0, 1)]
    full = train_ensemble(cfg, [0, 1], [tmp_path / "f0", tmp_path / "f1"])
    cut = dataclasses.replace(cfg, epochs=3)
    # simulate a kill after epoch 2 of an ensemble: train members to epoch 2 with train(), which
    # writes the same checkpoint format, then let the ensemble finish from there
    from petheory.nn.training import train as single

    class Stop(Exception):
        pass

    def stop(e, _):
        if e == 2:
            raise Stop

    for s, d in zip((0, 1), dirs):
        with pytest.raises(Stop):
            single(dataclasses.replace(cut, seed=s), d, on_epoch=stop)
    resumed = train_ensemble(cut, [0, 1], dirs)
    for a, b in zip(resumed, full):
        assert a["final"]["train"]["loss"] == pytest.approx(b["final"]["train"]["loss"], rel=1e-4)


def test_missing_submitit_names_the_command_that_works_from_a_clone(monkeypatch, tmp_path):
    from petheory.experiments import sweep

    monkeypatch.setitem(sys.modules, "submitit", None)  # import submitit -> ImportError
    with pytest.raises(ValueError, match=r'pip install -e "\.\[cluster\]"'):
        sweep.run(sweep.expand({"task": "copy", "preset": "smoke", "pe": "nope", "seed": 0}), tmp_path, engine="slurm")
