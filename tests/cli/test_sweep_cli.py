"""``petheory sweep``: a grid file, the table and dry run with every axis, mean and standard error per configuration."""

from __future__ import annotations

from pathlib import Path

import pytest

from petheory.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_example_grid_file_parses_and_expands():
    from petheory.experiments import papers, sweep
    from petheory.nn import parse_pe

    spec = sweep.load_grid(ROOT / "examples" / "table5.toml")
    cfgs = sweep.expand(spec)
    assert len(cfgs) == len(papers.LI2025_PES) * 3 * 2
    assert {c.model.pe for c in cfgs} == {parse_pe(p) for p in papers.LI2025_PES}
    assert {c.task.params["n_train"] for c in cfgs} == {128, 256} and {c.epochs for c in cfgs} == {3}


def test_sweep_table_and_dry_run_show_every_grid_axis(capsys, tmp_path):
    pytest.importorskip("torch")
    grid = tmp_path / "g.toml"
    grid.write_text('task = "running_sum"\npe = "alibi"\nseed = 0\n[set]\nepochs = 1\nablate = false\n'
                    '"task.n_test" = 8\n[grid]\n"task.n_train" = [16, 32]\n')
    assert main(["sweep", str(grid), "--out", str(tmp_path / "runs"), "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [l.split("\t")[-1] for l in lines] == ["task.n_train=16", "task.n_train=32"]
    assert main(["sweep", str(grid), "--out", str(tmp_path / "runs")]) == 0
    out = capsys.readouterr().out
    header = next(l for l in out.splitlines() if "task.n_train" in l)
    assert header.index("seed") < header.index("task.n_train") < header.index("metric")
    assert any("16" in l for l in out.splitlines() if "alibi" in l) and any("32" in l for l in out.splitlines() if "alibi" in l)


def test_sweep_prints_mean_and_standard_error_per_configuration(capsys, monkeypatch, tmp_path):
    from petheory.experiments import sweep

    def fake_run(configs, out, *, engine="local", workers=None, **kw):  # run's options, as the flags declare them
        return [{"task": c.task.name, "pe": str(c.model.pe), "seed": c.seed, "kind": "lm", "config": c.as_dict(),
                 "model": {"d_model": 32, "n_head": 2},  # as every trainer record has (petheory.nn.training.make_record)
                 "final": {"train": {"token_acc": 1.0}, "test": {"8": {"token_acc": 0.2 + 0.2 * c.seed}}}} for c in configs]

    fake_run.parameter_constraints = sweep.run.parameter_constraints  # the flags are built from run's declaration
    monkeypatch.setattr(sweep, "run", fake_run)
    assert main(["sweep", "--task", "copy", "--pe", "nope", "--pe", "rope", "--seeds", "0", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "mean ± standard error over seeds, per configuration" in out
    rope = [ln for ln in out.split("per configuration")[1].splitlines() if " rope " in ln]
    assert len(rope) == 1 and "0,1" in rope[0] and "0.3 ± 0.1" in rope[0]


def test_sweep_tables_are_the_library_s_and_the_seed_means_need_two_seeds():
    from petheory.experiments import sweep

    def record(pe, seed, n_train):
        return {"task": "copy", "pe": pe, "seed": seed, "kind": "lm", "final": {"train": {"token_acc": 1.0},
                "test": {"8": {"token_acc": 0.2 + 0.2 * seed}}},
                "config": {"task": {"name": "copy", "seed": 0, "params": {"n_train": n_train}}, "seed": seed}}

    runs, means = sweep.summary_tables([record(pe, s, 16) for pe in ("nope", "rope") for s in (0, 1)], "OUT")
    assert runs.title == "sweep OUT: 4 runs" and runs.headers == ("task", "pe", "seed", "metric", "train", "test@8")
    assert means.rows[1] == ("copy", "rope", "0,1", "token_acc", "1 ± 0", "0.3 ± 0.1")
    one_seed = sweep.summary_tables([record("rope", 0, n) for n in (16, 32)], "OUT")
    assert len(one_seed) == 1 and one_seed[0].headers[3] == "task.n_train" and one_seed[0].rows[1][3] == "32"
