"""`petheory figures` never writes into the committed figures/ unless asked (issue 12.1)."""

from pathlib import Path

import pytest

from petheory import plots
from petheory.cli import figures as figcli
from petheory.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def one_cheap_figure(monkeypatch):
    calls = []

    def fake(outdir, *, preset, seed):
        calls.append(Path(outdir))
        return []

    monkeypatch.setattr(plots, "select", lambda only: [plots.Figure("x.cheap", "a cheap figure", fake)])
    return calls


def test_figures_go_to_results_by_default(one_cheap_figure, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["figures", "--quiet"]) == 0
    assert one_cheap_figure == [Path("results/figures")]


def test_the_committed_folder_only_with_update_committed(one_cheap_figure):
    assert main(["figures", "--quiet", "--update-committed"]) == 0
    assert one_cheap_figure == [ROOT / "figures"]


def test_out_and_update_committed_do_not_combine(one_cheap_figure, capsys):
    assert main(["figures", "--out", "x", "--update-committed"]) == 2
    assert "--update-committed" in capsys.readouterr().err and one_cheap_figure == []


def test_a_real_figure_leaves_the_committed_files_untouched(tmp_path, monkeypatch):
    plots.use_agg()
    committed = {p: p.read_bytes() for p in (ROOT / "figures").iterdir()}
    monkeypatch.chdir(tmp_path)
    name = next(n for n in plots.registry() if n.endswith("lemma_b1"))
    assert main(["figures", "--quiet", "--only", name]) == 0
    assert (tmp_path / "results" / "figures" / f"{name}.png").is_file()
    assert {p: p.read_bytes() for p in (ROOT / "figures").iterdir()} == committed


def test_default_folder_is_not_tracked():
    assert figcli.DEFAULT_OUT.startswith("results/")
    assert "results/" in (ROOT / ".gitignore").read_text().split()


def test_figures_report_the_training_of_an_experiment_a_figure_needs_and_quiet_silences(capsys, monkeypatch, tmp_path):
    from petheory import plots
    from petheory.experiments import papers

    done = []

    def draws(outdir, *, preset, seed):
        if not done:
            raise plots.RecordsMissing("no records")
        return []

    def fake_experiment(config):
        for i in range(3):
            config.get("progress", lambda *a: None)(i + 1, 3, {"task": "running_sum", "pe": "alibi", "seed": i})
        done.append(config)

    monkeypatch.setattr(papers, "fake_experiment", fake_experiment, raising=False)
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
