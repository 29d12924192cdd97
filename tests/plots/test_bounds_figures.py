"""The bounds figures render (PNG + JSON); the trained ones run end to end on tiny real nn models."""

import json

import numpy as np

import pytest

from petheory import plots


@pytest.fixture(autouse=True)
def _agg():
    plots.use_agg()


def test_norm_figure_renders_with_its_data(tmp_path):
    from petheory.plots import bounds as fb

    paths = plots.registry()["bounds.pe_norms"].fn(tmp_path, preset="quick", seed=0)
    assert {p.suffix for p in paths} == {".png", ".json"}
    data = json.loads((tmp_path / "bounds.pe_norms.json").read_text())
    sin = data["curves"]["sinusoidal"]
    assert sin["stated"] == 8.0 and max(sin["norm"]) < 8.0
    assert data["curves"][fb.wavelet_label("unit", "l2")]["support_end"] == 150
    learned = next(c for c in data["curves"].values() if c["pe"] == "learned")["norm"]  # the registry's init, std 0.02
    assert 0.5 * 0.02 * 8 < np.mean(learned) < 1.5 * 0.02 * 8  # ||row|| ~ std sqrt(d) = 0.16


@pytest.fixture
def tiny_li2025(tmp_path, monkeypatch):
    """The li2025 experiments on 1-epoch ALiBi models at m = 16, 32, 64, cached under a temporary runs/."""
    pytest.importorskip("torch")
    from petheory.experiments import papers

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    monkeypatch.setattr(papers, "LI2025_GAP_PES", ["alibi"])
    monkeypatch.setitem(papers.LI2025_GAP_M, "quick", [16, 32, 64])
    monkeypatch.setattr(papers, "LI2025_GAP_SET", {"ablate": False, "epochs": 1, "task.n_test": 8})
    monkeypatch.setattr(papers, "LI2025_GAP_N_TEST", 32)
    return papers


def test_petheory_figures_runs_the_experiment_a_figure_needs_then_only_draws(tmp_path, tiny_li2025, monkeypatch, capsys):
    """plots train nothing: without records the figure names the command that makes them, `petheory figures`
    runs the experiment (its records land where the figure reads them) and draws; a rerun only draws."""
    from petheory import records
    from petheory.cli import main
    from petheory.plots import RecordsMissing

    reg = plots.registry()
    assert (reg["bounds.rademacher_gap"].needs, reg["bounds.alibi_drift"].needs) == ("li2025_rademacher_gap", "li2025_alibi_drift")
    with pytest.raises(RecordsMissing, match=r"petheory figures --only bounds.rademacher_gap"):
        reg["bounds.rademacher_gap"].fn(tmp_path / "f", preset="quick", seed=0)
    assert main(["figures", "--only", "bounds.rademacher_gap,bounds.alibi_drift", "--out", str(tmp_path / "f")]) == 0
    assert "running experiment li2025_rademacher_gap" in capsys.readouterr().err
    rows = json.loads((tmp_path / "f" / "bounds.rademacher_gap.json").read_text())["experiment"]["rows"]
    assert {r["pe"] for r in rows} == {"alibi"} and {r["m"] for r in rows} == {16, 32, 64}
    for r in rows:
        assert r["L_certified"] >= r["L_on_data"] > 0 and r["bound_on_data"] > 0
    assert records.bounds_record_path("li2025_rademacher_gap", "quick", 0).is_file()
    drift = json.loads((tmp_path / "f" / "bounds.alibi_drift.json").read_text())["experiment"]
    assert drift["records"] and all(q["drift_max"] <= q["eq9_rhs"] for q in drift["records"])
    assert drift["settings"]["m_grid"] == [16, 32, 64] and drift["n_train"] == 64
    assert (tmp_path / "f" / "bounds.alibi_drift.png").stat().st_size > 0

    def trains(config):
        raise AssertionError("the records are there: the figure must only draw them")

    monkeypatch.setattr(tiny_li2025, "li2025_rademacher_gap", trains)
    monkeypatch.setattr(tiny_li2025, "li2025_alibi_drift", trains)
    assert main(["figures", "--only", "bounds.rademacher_gap,bounds.alibi_drift", "--out", str(tmp_path / "g")]) == 0
    assert json.loads((tmp_path / "g" / "bounds.rademacher_gap.json").read_text())["experiment"]["rows"] == rows


def test_a_figure_reads_only_its_own_experiments_record(tmp_path, monkeypatch):
    from petheory import records
    from petheory.errors import ValidationError
    from petheory.io import atomic_write_json

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    atomic_write_json(records.bounds_record_path("li2025_alibi_drift", "quick", 0), {"experiment": "li2025_rademacher_gap"})
    with pytest.raises(ValidationError, match="not a record of experiment li2025_alibi_drift"):
        plots.registry()["bounds.alibi_drift"].fn(tmp_path, preset="quick", seed=0)


def test_the_figures_mark_n_max_where_the_experiments_train():
    from petheory.experiments import papers
    from petheory.plots import bounds as fb

    assert fb.N_MAX == papers.LI2025_N_MAX


def test_every_figure_is_named_area_dot_name_after_its_module():
    """One naming scheme: `<module>.<name>` (bounds.pe_norms, spectral.szego, ...), so --only 'bounds.*' selects a topic."""
    import re

    for name, f in plots.registry().items():
        assert re.fullmatch(r"[a-z]+\.[a-z0-9_]+", name), name
        assert f.fn.__module__ == f"petheory.plots.{name.split('.')[0]}", (name, f.fn.__module__)


def test_trained_figures_draw_given_records_without_training(tmp_path, monkeypatch):
    """plots only draw: the figures take the experiments' records from runs/bounds and never touch a model."""
    from petheory import records
    from petheory.io import atomic_write_json

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    settings = {"size": "smoke", "steps": 200, "n_test": 1000, "length": 200}
    rows = [{"pe": pe, "seed": 0, "m": m, "gap": g * m**-0.5, "bound_on_data": 10.0 * m**-0.5, "bound_certified": 1e3 * m**-0.5}
            for pe, g in (("alibi", 1.0), ("rope", 2.0)) for m in (16, 32, 64)]
    atomic_write_json(records.bounds_record_path("li2025_rademacher_gap", "quick", 0),
                      {"experiment": "li2025_rademacher_gap", "preset": "quick", "seed": 0, "settings": settings, "rows": rows})
    plots.registry()["bounds.rademacher_gap"].fn(tmp_path, preset="quick", seed=0)
    data = json.loads((tmp_path / "bounds.rademacher_gap.json").read_text())
    assert abs(data["gap_fits"]["alibi"]["slope"] + 0.5) < 1e-12
    run = {"experiment": "li2025_alibi_drift", "preset": "quick", "seed": 0, "settings": settings,
           "run": "r", "spec": "alibi", "n_max": 50, "n_layer": 1, "n_train": 64,
           "records": [{"layer": 0, "head": 0, "slope": 0.5, "excess": e, "drift_max": 0.01 * e, "drift_mean": 0.005 * e,
                        "sharp_bound": 0.1 * e, "eq9_rhs": 0.125 * e} for e in (1, 2, 3)]}
    atomic_write_json(records.bounds_record_path("li2025_alibi_drift", "quick", 0), run)
    plots.registry()["bounds.alibi_drift"].fn(tmp_path, preset="quick", seed=0)
    assert json.loads((tmp_path / "bounds.alibi_drift.json").read_text())["experiment"]["records"] == run["records"]


def test_bound_runs_live_under_the_one_runs_directory(tmp_path, monkeypatch):
    from petheory import records

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "elsewhere"))
    assert records.bounds_runs_dir() == records.runs_dir() / "bounds" == tmp_path / "elsewhere" / "bounds"
    assert records.bounds_record_path("li2025_alibi_drift", "full", 2).parent == records.bounds_runs_dir()
