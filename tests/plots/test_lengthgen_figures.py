"""chen2025 figures render from the theory and from the committed records (never training)."""

from __future__ import annotations

import json
from pathlib import Path

from petheory import plots
from petheory.plots import lengthgen as F

ROOT = Path(__file__).resolve().parents[2]


def test_lengthgen_figures_render(tmp_path, monkeypatch):
    monkeypatch.setitem(F.LRC_N, "quick", [1, 2, 3])
    monkeypatch.chdir(ROOT)  # the committed records/chen2025
    names = {f.name for f in plots.select("lengthgen.*")}
    assert names == {"lengthgen.lrc", "lengthgen.accuracy", "lengthgen.src"}
    for f in plots.select("lengthgen.*"):
        paths = f.fn(tmp_path, preset="quick", seed=0)
        assert all(p.stat().st_size > 0 for p in paths)
    data = json.loads((tmp_path / "lengthgen.lrc.json").read_text())
    assert data["targets"]["copy"]["relative"]["shift"] == [1.0, 1.0, 1.0]


def test_record_figures_say_when_there_are_no_records(tmp_path, monkeypatch):
    from petheory import records

    monkeypatch.setattr(records, "shipped_dir", lambda: None)
    monkeypatch.chdir(tmp_path)
    F.fig_accuracy(tmp_path, preset="quick", seed=0)
    assert json.loads((tmp_path / "lengthgen.accuracy.json").read_text())["records"] == 0
