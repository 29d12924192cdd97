"""``petheory compare`` over training runs: parametrised specs, runs grouped by configuration, explicit run sets."""

from __future__ import annotations

import json
import math
from pathlib import Path

from petheory.cli import main


def _record(folder, *, pe="alibi", seed=0, n_train=64, mse=(0.01, 0.5)):
    folder.mkdir(parents=True)
    cfg = {"task": {"name": "running_sum", "seed": seed, "params": {"n_train": n_train, "train_len": 50}},
           "model": {"pe": pe, "n_layer": 2}, "seed": seed, "device": "cpu"}
    (folder / "record.json").write_text(json.dumps({
        "task": "running_sum", "pe": pe, "seed": seed, "train_len": 50, "config": cfg,
        "final": {"test": {"50": {"mse": mse[0]}, "200": {"mse": mse[1]}}}}))
    return folder


def test_compare_takes_parametrised_specs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "--pe", "rope_yarn:scale=4", "--pe", "learned:n_max=50", "--length", "32", "--lengths", "32,64",
                 "--null-draws", "3", "--json", "-"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["pe"] for r in rows] == ["rope_yarn:scale=4", "learned:n_max=50"]
    assert rows[0]["params"] == {"scale": 4} and rows[1]["norms"]["n_max"] == 50
    from petheory.analyses.compare import spectral_summary
    from petheory.loaders import resolve_scheme

    default = spectral_summary(resolve_scheme("rope_yarn", d=64).main.positions, 32)
    yarn4 = spectral_summary(resolve_scheme("rope_yarn:scale=4", d=64).main.positions, 32)
    assert rows[0]["spectrum"]["spread"] == yarn4.spread != default.spread


def test_compare_groups_runs_by_configuration_and_names_them(tmp_path, monkeypatch, capsys):
    runs = tmp_path / "runs"
    for s in (0, 1):
        _record(runs / f"alibi_m64_s{s}", seed=s, n_train=64, mse=(0.01, 0.4 + 0.2 * s))
    for s in range(3):  # a figure's runs on another sample size: never averaged with the user's
        _record(runs / "bounds" / f"alibi_m512_s{s}", seed=s, n_train=512, mse=(0.001, 0.05))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RUNS", str(runs))
    assert main(["compare", "--pe", "alibi", "--length", "32", "--lengths", "32,64", "--null-draws", "3", "--json", "-"]) == 0
    groups = json.loads(capsys.readouterr().out)["rows"][0]["lengthgen"]["running_sum"]
    assert [(g["runs"], g["config"]) for g in groups] == [(3, {"task.params.n_train": 512}), (2, {"task.params.n_train": 64})]
    assert math.isclose(groups[1]["metrics"]["mse"]["at_longest"], 0.5) and groups[1]["seeds"] == [0, 1]
    assert sorted(Path(r).parent.name for r in groups[1]["records"]) == ["alibi_m64_s0", "alibi_m64_s1"]
    assert main(["compare", "--pe", "alibi", "--length", "32", "--lengths", "32,64", "--null-draws", "3"]) == 0
    out = capsys.readouterr().out
    assert "running_sum [task.params.n_train=64]: mse 0.01→0.5 @200 (2 runs: alibi_m64_s0, alibi_m64_s1)" in out


def test_compare_with_an_explicit_run_set_reads_only_those_runs(tmp_path, monkeypatch, capsys):
    runs = tmp_path / "runs"
    a = _record(runs / "mine_s0", seed=0, mse=(0.02, 0.2))
    _record(runs / "other_s1", seed=1, mse=(0.02, 0.9))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RUNS", str(runs))
    assert main(["compare", "--pe", "alibi", "--run", str(a), "--length", "32", "--lengths", "32,64", "--null-draws", "3",
                 "--json", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    [g] = out["rows"][0]["lengthgen"]["running_sum"]
    assert g["runs"] == 1 and g["metrics"]["mse"]["at_longest"] == 0.2 and out["records"]["searched"] == []
    # read_training_records' refusals of its runs, said with the flag the user typed
    assert main(["compare", "--pe", "alibi", "--run", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"petheory: error: --run must be existing paths, got ['{tmp_path / 'nothing'}']"], err
    (tmp_path / "empty").mkdir()
    assert main(["compare", "--pe", "alibi", "--run", str(a), "--run", str(tmp_path / "empty")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"petheory: error: --run must be run folders with their record.json, or record.json files, got "
                   f"'{tmp_path / 'empty'}'"], err


def test_a_missing_run_is_named_whole_however_long_its_path(tmp_path, capsys):
    """A value is cut at 80 characters in a message, but a path cut short names no file: a run set is shown whole."""
    missing = tmp_path / ("a" * 90) / "nothing"
    assert main(["compare", "--pe", "alibi", "--run", str(missing)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"petheory: error: --run must be existing paths, got ['{missing}']"], err
