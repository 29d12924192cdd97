"""A newcomer's second run (issue 20): each point that can be tested, tested as the user meets it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from petheory.cli import main


# ----------------------------------------------------------------------------- 20.2 bounds with a spec's own n_max


@pytest.mark.parametrize("spec,n_max", [("rope_yarn:scale=4,n_max=32768", 32768), ("learned:n_max=50", 50),
                                        ("wavelet:n_max=50", 50)])
def test_bounds_takes_a_specs_own_n_max_as_the_training_length(spec, n_max, capsys):
    assert main(["bounds", "--pe", spec, "--lengths", "4096", "--json", "-"]) == 0
    [row] = json.loads(capsys.readouterr().out)["rows"]
    assert row["n_max"] == n_max
    assert main(["bounds", "--pe", spec, "--lengths", "4096", "--context", str(n_max), "--json", "-"]) == 0  # the same: fine
    assert json.loads(capsys.readouterr().out)["rows"][0]["n_max"] == n_max


def test_bounds_refuses_two_different_training_lengths_as_bad_input(capsys):
    assert main(["bounds", "--pe", "learned:n_max=50", "--context", "40", "--lengths", "100"]) == 2
    err = capsys.readouterr().err
    assert "learned:n_max=50 and --context 40" in err and "give one" in err


def test_yarn_original_context_comes_from_the_spec_then_n_max_then_the_registry(capsys):
    def n_max(*argv):
        assert main(["bounds", "--pe", "rope_yarn:scale=4", "--lengths", "8192", "--json", "-", *argv]) == 0
        return json.loads(capsys.readouterr().out)["rows"][0]["norm"]["params"]["n_max"]

    assert n_max() == 2048  # the registry's default, named in --help
    assert n_max("--context", "4096") == 4096
    with pytest.raises(SystemExit):
        main(["bounds", "--help"])
    assert "YaRN's original context" in capsys.readouterr().out


def test_yarn_at_mscale_one_claims_no_added_vector():
    from petheory.bounds import norm_bound

    nb = norm_bound("rope_yarn", 512, 64, scale=4.0, mscale=1.0)
    assert "sup ||PE||" not in nb.stated_formula and nb.additive is None


# ----------------------------------------------------------------------------- 20.4 -q hides progress, never results


@pytest.mark.parametrize("argv,expect", [
    (["stress", "--pe", "rope", "--null-draws", "0"], "stress"),
    (["bounds", "--pe", "alibi"], "alibi"),
    (["spectrum", "--pe", "alibi", "--length", "64"], "eigenvalue range"),
    (["encodings", "--kind", "bias"], "alibi"),
    (["compare", "--pe", "alibi", "--null-draws", "2", "--length", "32", "--lengths", "32,64"], "alibi"),
])
def test_quiet_still_prints_the_results(argv, expect, capsys):
    assert main([*argv, "-q"]) == 0
    cap = capsys.readouterr()
    assert expect in cap.out and cap.err == ""


# ----------------------------------------------------------------------------- 20.8 piped output prints whole cells


def test_piped_check_table_keeps_every_word_whole(capsys):
    assert main(["check", "--claims", "chen2025.learned_relation_pe,gu2025.lemma_b1_range", "-q"]) == 0
    out = capsys.readouterr().out
    # the evidence cell is printed on one line, whole: no token cut across lines, no padding after it
    assert "copy/fire-vs-relative +0.334 (Holm p 0.0042), copy/fire-vs-rope" in out  # far along a long cell
    rows = [ln for ln in out.splitlines() if ln.startswith(("chen2025.", "gu2025."))]
    assert len(rows) == 2 and all(ln == ln.rstrip() for ln in out.splitlines())
    assert "petheory check --claims gu2025.lemma_b1_range --case '" in out  # the replay command, whole


def test_piped_bounds_table_shows_specs_whole(capsys):
    specs = ["rope_yarn:scale=4,beta=32,alpha=1,n_max=32768", "rope_yarn:scale=4,beta=16,alpha=1,n_max=32768"]
    assert main(["bounds", "--pe", specs[0], "--pe", specs[1], "--lengths", "65536"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "rope_yarn" in ln]
    assert len(lines) == 2 and "beta=32," in lines[0] and "beta=16," in lines[1]
    assert all("…" not in ln for ln in lines)


# ----------------------------------------------------------------------------- 20.5 compare: parameters, configurations, run sets


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
    assert main(["compare", "--pe", "alibi", "--run", str(tmp_path / "nothing")]) == 2
    assert "--run" in capsys.readouterr().err


# ----------------------------------------------------------------------------- 20.7 long work: fast by default, progress on stderr


def test_spectrum_default_skips_the_cubic_szego_distance_past_1024_and_exact_is_opt_in(capsys):
    from petheory.analyses import spectrum

    assert spectrum.EXACT_UP_TO == 1024
    assert main(["spectrum", "--pe", "mla_rope:rope_dim=64", "-d", "192", "--length", "4096", "--json", "-"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert "--method exact computes it" in rec["szego"]["skipped"]
    assert main(["spectrum", "--pe", "rope", "--length", "1024", "--json", "-"]) == 0  # the default size: still exact
    assert json.loads(capsys.readouterr().out)["szego"]["method"] == "exact"


def test_spectrum_says_on_stderr_when_it_starts_long_work(capsys, monkeypatch):
    monkeypatch.setattr("petheory.analyses.spectrum.EXACT_UP_TO", 16)
    assert main(["spectrum", "--kernel", "exponential", "--length", "64", "--method", "exact"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("spectrum: Szegő distance at N = 64 by dense eigenvalues")
    assert main(["spectrum", "--kernel", "exponential", "--length", "64", "--method", "exact", "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_stress_prints_progress_for_long_work_on_stderr_and_quiet_hides_it(capsys, monkeypatch, tmp_path):
    import numpy as np

    from petheory.cli import stress

    monkeypatch.setattr(stress, "LONG_N", 8)
    X = np.random.default_rng(0).normal(size=(12, 3))
    np.save(tmp_path / "D.npy", np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)))
    argv = ["stress", "--pe", "rope", "-d", "8", "--target", str(tmp_path / "D.npy"), "--null-draws", "20"]
    assert main(argv) == 0
    cap = capsys.readouterr()
    err = [ln.split(" (")[0] for ln in cap.err.splitlines()]
    assert err[0].startswith("stress: stress of rope against") and err[-1] == "stress: [20/20] random tables of the null reference"
    assert len(err) == 11 and "stress    " in cap.out  # a line per 2 draws, and the result
    assert main([*argv, "-q"]) == 0
    cap = capsys.readouterr()
    assert cap.err == "" and "stress    " in cap.out


# ----------------------------------------------------------------------------- 20.9 the smaller points


def test_stress_help_says_the_builtin_corpus_keeps_positions_with_100_observations(capsys):
    from petheory.geometry.distributions import BUILTIN_MIN_COUNT

    with pytest.raises(SystemExit):
        main(["stress", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"fixed at C = {BUILTIN_MIN_COUNT}" in out


@pytest.mark.parametrize("setting,suggestion", [("model.n_heads=4", "did you mean model.n_head?"),
                                                ("epoch=3", "did you mean epochs?"),
                                                ("task.n_trian=5", "did you mean n_train?")])
def test_a_misspelt_setting_gets_a_did_you_mean(setting, suggestion, capsys):
    assert main(["train", "copy", "--pe", "rope", "--set", setting]) == 2
    assert suggestion in capsys.readouterr().err


def test_the_d_model_error_names_the_flag_the_user_typed(capsys, tmp_path):
    import numpy as np

    np.save(tmp_path / "pe.npy", np.random.default_rng(0).normal(size=(16, 8)))
    assert main(["stress", "--pe", str(tmp_path / "pe.npy"), "-d", "32"]) == 2
    err = capsys.readouterr().err
    assert "--d-model 32" in err and "--d 32" not in err


def test_sweep_prints_mean_and_standard_error_per_configuration(capsys, monkeypatch, tmp_path):
    from petheory import sweep

    def fake_run(configs, out, **kw):
        return [{"task": c.task.name, "pe": str(c.model.pe), "seed": c.seed, "kind": "lm", "config": c.as_dict(),
                 "model": {"d_model": 32, "n_head": 2},  # as every trainer record has (petheory.nn.training.make_record)
                 "final": {"train": {"token_acc": 1.0}, "test": {"8": {"token_acc": 0.2 + 0.2 * c.seed}}}} for c in configs]

    monkeypatch.setattr(sweep, "run", fake_run)
    assert main(["sweep", "--task", "copy", "--pe", "nope", "--pe", "rope", "--seeds", "0", "1", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "mean ± standard error over seeds, per configuration" in out
    rope = [ln for ln in out.split("per configuration")[1].splitlines() if " rope " in ln]
    assert len(rope) == 1 and "0,1" in rope[0] and "0.3 ± 0.1" in rope[0]
