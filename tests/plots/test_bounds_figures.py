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


def test_trained_figures_run_end_to_end_on_tiny_models(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from petheory.plots import bounds as fb

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "runs"))
    monkeypatch.setattr(fb, "RUN_PES", ["alibi"])
    monkeypatch.setitem(fb.M_GRID, "quick", [16, 32, 64])
    monkeypatch.setattr(fb, "TRAIN_SET", {"ablate": False, "epochs": 1, "task.n_test": 8})
    monkeypatch.setattr(fb, "N_TEST", 32)
    fb.rademacher_gap_figure(tmp_path, preset="quick", seed=0)
    rows = json.loads((tmp_path / "bounds.rademacher_gap.json").read_text())["rows"]
    assert {r["pe"] for r in rows} == {"alibi"} and {r["m"] for r in rows} == {16, 32, 64}
    for r in rows:
        assert r["L_certified"] >= r["L_on_data"] > 0 and r["bound_on_data"] > 0
    fb.alibi_drift_figure(tmp_path, preset="quick", seed=0)
    recs = json.loads((tmp_path / "bounds.alibi_drift.json").read_text())["records"]
    assert recs and all(q["drift_max"] <= q["eq9_rhs"] for q in recs)
    assert (tmp_path / "bounds.alibi_drift.png").stat().st_size > 0


def test_every_figure_is_named_area_dot_name_after_its_module():
    """One naming scheme: `<module>.<name>` (bounds.pe_norms, spectral.szego, ...), so --only 'bounds.*' selects a topic."""
    import re

    for name, f in plots.registry().items():
        assert re.fullmatch(r"[a-z]+\.[a-z0-9_]+", name), name
        assert f.fn.__module__ == f"petheory.plots.{name.split('.')[0]}", (name, f.fn.__module__)


def test_trained_figures_draw_given_records_without_training(tmp_path):
    """plots only draw: the drawing halves take the experiments' rows and never touch a model."""
    from petheory.plots import bounds as fb

    rows = [{"pe": pe, "m": m, "gap": g * m**-0.5, "bound_on_data": 10.0 * m**-0.5, "bound_certified": 1e3 * m**-0.5}
            for pe, g in (("alibi", 1.0), ("rope", 2.0)) for m in (16, 32, 64)]
    fb.draw_rademacher_gap(tmp_path, rows, "quick")
    data = json.loads((tmp_path / "bounds.rademacher_gap.json").read_text())
    assert abs(data["gap_fits"]["alibi"]["slope"] + 0.5) < 1e-12
    run = {"run": "r", "spec": "alibi", "n_max": 50, "n_layer": 1, "n_train": 64,
           "records": [{"layer": 0, "head": 0, "slope": 0.5, "excess": e, "drift_max": 0.01 * e, "drift_mean": 0.005 * e,
                        "sharp_bound": 0.1 * e, "eq9_rhs": 0.125 * e} for e in (1, 2, 3)]}
    fb.draw_alibi_drift(tmp_path, run, "quick")
    assert json.loads((tmp_path / "bounds.alibi_drift.json").read_text())["records"] == run["records"]


def test_bound_runs_live_under_the_one_runs_directory(tmp_path, monkeypatch):
    from petheory import experiments, records

    monkeypatch.setenv("PETHEORY_RUNS", str(tmp_path / "elsewhere"))
    assert experiments.bounds_runs_dir() == records.runs_dir() / "bounds" == tmp_path / "elsewhere" / "bounds"
