"""A newcomer's friction list (issue 12): each point that can be tested, tested as the user meets it."""

from __future__ import annotations

import sys

import pytest



# ----------------------------------------------------------------------------- 12.4 extras messages


def test_missing_submitit_names_the_command_that_works_from_a_clone(monkeypatch, tmp_path):
    from petheory import sweep

    monkeypatch.setitem(sys.modules, "submitit", None)  # import submitit -> ImportError
    with pytest.raises(ValueError, match=r'pip install -e "\.\[cluster\]"'):
        sweep.run(sweep.expand({"task": "copy", "preset": "smoke", "pe": "nope", "seed": 0}), tmp_path, engine="slurm")


# ----------------------------------------------------------------------------- 12.6 claim discoverability

import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from petheory.cli import main  # noqa: E402
from proofs_check import engine, runner  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def test_list_shows_statement_and_case_fields(capsys):
    assert main(["check", "--list", "--claims", "li2025.alibi_monotone_bias,gu2025.szego"]) == 0
    out = capsys.readouterr().out
    assert "statement: The ALiBi bias" in out and "case fields: n, slope" in out
    assert "no --case: checked as a whole (asymptotic)" in out


def test_list_honours_json(capsys):
    assert main(["check", "--list", "--claims", "li2025.alibi_monotone_bias", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (row,) = doc["claims"]
    assert row["id"] == "li2025.alibi_monotone_bias" and row["case_fields"] == {"required": ["n", "slope"], "optional": []}
    assert "ALiBi" in row["statement"]
    # the listed example is itself a valid case
    assert runner.replay(engine.get(row["id"]), row["example_case"])["verdict"] == "holds"


@pytest.mark.parametrize("case, words", [
    ('{"n": 3, "slop": 0.5}', ["unknown field(s) 'slop'", "expected fields: n, slope"]),
    ('{"n": 3}', ["missing field(s) 'slope'", "expected fields: n, slope"]),
    ('[3, 0.5]', ["JSON object"]),
])
def test_a_case_with_wrong_fields_is_an_error_naming_the_expected_ones(case, words, capsys):
    assert main(["check", "--claims", "li2025.alibi_monotone_bias", "--case", case]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err


def test_a_misspelt_claim_id_gets_did_you_mean_and_a_pointer_to_list(capsys):
    assert main(["check", "--claims", "gu2025.lema_b1_range"]) == 2
    err = capsys.readouterr().err
    assert "did you mean gu2025.lemma_b1_range" in err and "--list" in err


def test_every_readme_counterexample_replays_as_a_counterexample():
    """The README's verdict table prints counterexamples (per reading where a claim has readings);
    each must replay through `--case` as a violation, with no field error. Shrinking drops the
    fields a checker never reads, so a counterexample may have fewer fields than a generated case."""
    from proofs_check.runner import replay

    text = (ROOT / "docs" / "verdicts.md").read_text()
    # columns: claim, paper status, kind, setup (empty for exact claims), verdict, evidence, counterexample or summary
    rows = re.findall(r"^\| `([^`]+)` \| [\w ]+ \| \w+ \| \w* \| \*\*(?:refuted|depends)\*\*.*?\| (.*) \|$", text, re.M)
    cases = []
    for cid, cell in rows:
        for reading, case in re.findall(r"(?:(\w+): )?counterexample `(\{[^`]*\})`", cell):
            cases.append((f"{cid}#{reading}" if reading else cid, case))
    assert len(cases) >= 8
    for cid, case in cases:
        rec = replay(engine.get(cid), json.loads(case))
        assert rec["verdict"] == "refuted", (cid, case, rec)


# ----------------------------------------------------------------------------- 12.10 smaller items

import subprocess  # noqa: E402

import numpy as np  # noqa: E402


def test_a_closed_pipe_is_not_a_traceback():
    """`petheory bounds --json - | head -1`: the reader goes away after one line of a long output (>> a pipe buffer)."""
    code = ("import sys; from petheory.cli import main; sys.exit(main(['bounds', '--pe', 'sinusoidal', '--lengths', "
            "','.join(str(i) for i in range(2, 300)), '--json', '-']))")
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=120)
    assert first and "Traceback" not in err and "BrokenPipe" not in err, err
    assert rc in (0, 141)


def test_set_with_a_word_for_a_number_says_it_is_a_number(capsys):
    assert main(["train", "running_sum", "--set", "lr=abc", "--out", "unused"]) == 2
    err = capsys.readouterr().err
    assert "lr is a number" in err and "must be > 0" not in err


def test_misspelt_param_of_a_named_encoding_is_named_with_a_suggestion(capsys):
    assert main(["stress", "--pe", "sinusoidal:bse=500"]) == 2
    err = capsys.readouterr().err
    assert "did you mean base?" in err and "unexpected keyword" not in err


def test_unknown_key_lists_the_tensors(capsys, tmp_path):
    from safetensors.numpy import save_file

    save_file({"a": np.ones((4, 4)), "b": np.ones((5, 4))}, str(tmp_path / "two.safetensors"))
    assert main(["stress", "--pe", str(tmp_path / "two.safetensors"), "--key", "c"]) == 2
    assert "it has: a (4, 4), b (5, 4)" in capsys.readouterr().err


def test_bounds_accepts_a_user_table(capsys, tmp_path):
    T = np.random.default_rng(0).normal(size=(40, 8))
    np.save(tmp_path / "my.npy", T)
    assert main(["bounds", "--pe", str(tmp_path / "my.npy"), "--lengths", "20,50", "--json", "-"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    norms = np.linalg.norm(T, axis=1)
    assert rows[0]["norm"]["computed"] == pytest.approx(norms[:20].max())
    assert rows[1]["norm"]["computed"] == pytest.approx(norms.max()) and "reuse the last row" in rows[1]["norm"]["note"]
    assert rows[0]["B0"] == pytest.approx(1 + norms[:20].max())
    assert rows[0]["rademacher"] == pytest.approx(rows[0]["B0"] / np.sqrt(1000))


def test_partial_rope_on_too_few_heads_says_how_to_get_more(capsys, tmp_path):
    pytest.importorskip("torch")
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "--set model.n_head=4" in err
    # the suggestion works
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--set", "model.n_head=4", "--epochs", "1",
                 "--set", "ablate=false", "--set", "task.n_train=32", "--quiet", "--out", str(tmp_path / "b")]) == 0


def test_check_help_cites_nothing_outside_the_repo(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "DESIGN.md" not in capsys.readouterr().out


# ----------------------------------------------------------------------------- 12.9 sweep


def test_the_example_grid_file_parses_and_expands():
    from petheory import experiments, sweep
    from petheory.nn import parse_pe

    spec = sweep.load_grid(ROOT / "examples" / "table5.toml")
    cfgs = sweep.expand(spec)
    assert len(cfgs) == len(experiments.LI2025_PES) * 3 * 2
    assert {c.model.pe for c in cfgs} == {parse_pe(p) for p in experiments.LI2025_PES}
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


# ----------------------------------------------------------------------------- 12.8 progress when not a terminal


def test_check_prints_plain_progress_lines_when_not_a_terminal(capsys):
    assert main(["check", "--claims", "li2025.alibi_monotone_bias,li2025.sinusoidal_norm_bound"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("check: [1/2] checking li2025.alibi_monotone_bias") and err[0].endswith(" s)")
    assert err[1].startswith("check: [2/2] checking li2025.sinusoidal_norm_bound")
    assert err[-1].startswith("check: 2 claims checked")
    assert main(["check", "--claims", "li2025.alibi_monotone_bias", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_figures_report_the_training_of_an_experiment_a_figure_needs_and_quiet_silences(capsys, monkeypatch, tmp_path):
    from petheory import experiments, plots

    done = []

    def draws(outdir, *, preset, seed):
        if not done:
            raise plots.RecordsMissing("no records")
        return []

    def fake_experiment(config):
        for i in range(3):
            config.get("progress", lambda *a: None)(i + 1, 3, {"task": "running_sum", "pe": "alibi", "seed": i})
        done.append(config)

    monkeypatch.setattr(experiments, "fake_experiment", fake_experiment, raising=False)
    fake = plots.Figure("bounds.fake", "a figure that needs an experiment", draws, needs="fake_experiment")
    monkeypatch.setattr(plots, "select", lambda only: [fake])
    assert main(["figures", "--out", str(tmp_path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("figures: [1/1] drawing bounds.fake")
    assert err[1].startswith("figures: bounds.fake: no records yet; running experiment fake_experiment")
    assert [l.split(" (")[0] for l in err[2:]] == [f"figures: [{i}/3] trained running_sum alibi s{i - 1}" for i in (1, 2, 3)]
    done.clear()
    assert main(["figures", "--out", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().err == "" and done and "progress" not in done[0]


def test_train_prints_a_line_per_epoch_when_not_a_terminal(capsys, tmp_path):
    pytest.importorskip("torch")
    assert main(["train", "running_sum", "--pe", "alibi", "--set", "epochs=2", "--set", "ablate=false",
                 "--set", "task.n_train=32", "--out", str(tmp_path / "r")]) == 0
    err = [l for l in capsys.readouterr().err.splitlines() if l.startswith("train: ")]
    assert [l.split("]")[0] for l in err] == ["train: [1/2", "train: [2/2"]
