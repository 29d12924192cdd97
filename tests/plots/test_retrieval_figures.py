"""Retrieval figures render from records (planted here, as the runner writes them) and say when there are none."""

from __future__ import annotations

import json

import pytest

from petheory import plots
from petheory.plots import retrieval as F
from _helpers import RETRIEVAL_LENGTHS, retrieval_record


def _planted(tmp_path):
    for s in range(3):
        rec = retrieval_record("passkey", s, {"rope": [0.9, 0.5, 0.2, 0.1, 0.0], "rope_yarn+ft": [0.9, 0.9, 0.7, 0.5, 0.3],
                                     "rope_pi": [0.9, 0.8, 0.8, 0.7, 0.7], "rope_yarn": [0.9, 0.8, 0.8, 0.8, 0.7]})
        for label in F.HEATMAP_METHODS:
            rec["retrieval"]["methods"][label]["grid"] = {str(N): {f"{d:g}": 0.5 for d in (0.0, 0.5, 1.0)} for N in RETRIEVAL_LENGTHS}
        rec["retrieval"]["depths"] = [0.0, 0.5, 1.0]
        rec["config_hash"] = f"h{s}"
        d = tmp_path / "runs" / "retrieval-records"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"r{s}.json").write_text(json.dumps(rec))


def test_retrieval_figures_render_from_records(tmp_path, monkeypatch):
    monkeypatch.setenv("PETHEORY_RECORDS", "")
    monkeypatch.chdir(tmp_path)
    _planted(tmp_path)
    assert {f.name for f in plots.select("retrieval.*")} == {"retrieval.accuracy", "retrieval.depth",
                                                               "retrieval.extension_lengths"}
    for f in plots.select("retrieval.*"):
        assert all(p.stat().st_size > 0 for p in f.fn(tmp_path / "out", preset="quick", seed=0))
    acc = json.loads((tmp_path / "out" / "retrieval.accuracy.json").read_text())
    # mean of three equal values: within 2 ulps of the value (summation round-off)
    assert acc["passkey"]["methods"]["rope_pi"]["mean"] == pytest.approx([0.9, 0.8, 0.8, 0.7, 0.7], rel=4e-16, abs=0)
    assert list(acc["passkey"]["methods"]) == ["rope", "rope_pi", "rope_yarn", "rope_yarn+ft"]  # trained, swapped, fine-tuned
    heat = json.loads((tmp_path / "out" / "retrieval.depth.json").read_text())
    assert set(heat) == set(F.HEATMAP_METHODS) and heat["rope"]["seeds"] == 3
    ext = json.loads((tmp_path / "out" / "retrieval.extension_lengths.json").read_text())
    assert ext == {"records": 0, "message": F._NO_EXTENSION}  # no extension records planted: it says how to make them


def test_extension_figure_reads_the_preregistered_sweep_only(tmp_path, monkeypatch):
    from petheory.experiments import extension_lengths as xl

    monkeypatch.setenv("PETHEORY_RECORDS", "")
    monkeypatch.chdir(tmp_path)
    d = tmp_path / "runs" / "extension-lengths-records"
    d.mkdir(parents=True)
    for s, setup in enumerate([xl.ExtensionSetup(), xl.ExtensionSetup(size="smoke")]):
        cand = {"spec": "rope:base=500.0", "checks": {"men": s == 0, "liu": False, "phase": False},
                "training_free": {"effective_length": 64, "by_length": {}},
                "finetuned": {"effective_length": 128, "by_length": {}}}
        rec = {"task": "passkey", "pe": "rope:base=500.0", "seed": 0, "train_len": 32, "config": {}, "history": [],
               "config_hash": f"h{s}", "final": {"train": {"seq_acc": 1.0}, "test": {"32": {"seq_acc": 1.0}}},
               "extension": {"setup": setup.as_dict(), "base": 500.0, "head_dim": 32, "train_context": 32,
                             "train_seq_len": 35, "reference_acc": 0.9, "threshold": 0.81,
                             "targets": {"128": {"seq_len": 131, "candidates": {"as_configured": cand}}}}}
        (d / f"r{s}.json").write_text(json.dumps(rec))
    data = F.extension_table()
    assert data["seeds"] == [0] and data["checks"]["128"]["as_configured"]["men"] is True  # the smoke record is not read
    assert data["e"] == {"training_free": {"128": {"as_configured": [0.5]}}, "finetuned": {"128": {"as_configured": [1.0]}}}


def test_retrieval_figures_say_when_there_are_no_records(tmp_path, monkeypatch):
    monkeypatch.setenv("PETHEORY_RECORDS", "")
    monkeypatch.chdir(tmp_path)
    F.fig_depth(tmp_path, preset="quick", seed=0)
    assert json.loads((tmp_path / "retrieval.depth.json").read_text())["records"] == 0
