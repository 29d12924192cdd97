"""Records hand-edited under runs/ beside the shipped ones: ``figures`` skips the edited record with one warning that
names it and the field (li2025 Table 5, gu2025 task 1), draws the shipped seeds only; ``compare --records`` reads the
shipped folder and says why a folder gave no record."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_util import cli

ROOT = Path(__file__).resolve().parents[2]


def _figures_with_an_edit(capsys, tmp_path, monkeypatch, shipped: str, pattern: str, edit, only: str) -> str:
    """Two shipped records of ``shipped`` (files matching ``pattern``) as the records folder and an edited copy of the
    first under runs/; ``petheory figures --only ONLY``; returns the one skip warning (asserted to be the only one)."""
    (tmp_path / "recs").mkdir()
    src = sorted((ROOT / "records" / shipped).glob(pattern))[:2]
    for f in src:
        shutil.copy(f, tmp_path / "recs")
    rec = json.loads(src[0].read_text())
    edit(rec)
    rec["config_hash"] = "edited"
    (tmp_path / "runs" / "x").mkdir(parents=True)
    (tmp_path / "runs" / "x" / "record.json").write_text(json.dumps(rec))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "recs"))
    monkeypatch.delenv("PETHEORY_RUNS", raising=False)
    rc, out, err = cli(capsys, "figures", "--only", only, "--out", tmp_path / "out")
    assert rc == 0, err
    warnings = [ln for ln in err.splitlines() if ln.startswith("petheory: warning: skipping")]
    assert len(warnings) == 1 and "Traceback" not in err, err
    return warnings[0]


EDITS = {  # (edit of a copied record, why it is skipped)
    "length_key_text": (lambda r: r["final"]["test"].__setitem__("abc", r["final"]["test"]["50"]), "'abc'"),
    "length_key_float": (lambda r: r["final"]["test"].__setitem__("1e2", r["final"]["test"].pop("100")), "'1e2'"),
    "length_key_zero_padded": (lambda r: r["final"]["test"].__setitem__("050", r["final"]["test"].pop("50")), "'050'"),
    "length_key_negative": (lambda r: r["final"]["test"].__setitem__("-5", r["final"]["test"]["50"]), "'-5'"),
    "mse_missing": (lambda r: r["final"]["test"]["100"].__setitem__("loss", r["final"]["test"]["100"].pop("mse")),
                    "final.test.100.mse' is missing"),
    "model_not_object": (lambda r: r.__setitem__("model", 5), "field 'model' must be an object"),
    "model_layers_text": (lambda r: r["model"].__setitem__("n_layer", "2"), "model.n_layer"),
    "mixed_test_lengths": (lambda r: r["final"]["test"].pop("200"), "differ from the other seeds'"),
    "train_len_zero": (lambda r: r.__setitem__("train_len", 0), "train_len"),
}


@pytest.mark.parametrize("kind", sorted(EDITS))
def test_figures_skip_a_hand_edited_record_and_name_it(capsys, tmp_path, monkeypatch, kind):
    edit, match = EDITS[kind]
    line = _figures_with_an_edit(capsys, tmp_path, monkeypatch, "li2025_table5", "running_sum__alibi__s[01]__*.json",
                                 edit, "empirical.table5")
    assert match in line
    drawn = json.loads((tmp_path / "out" / "empirical.table5.json").read_text())["readings"]
    assert [e["seeds"] for g in drawn.values() for e in g.values()] == [2]  # the two shipped seeds, never the edit


def test_compare_reads_the_shipped_records_folder(capsys, tmp_path):
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", ROOT / "records" / "li2025_table5",
                       "--null-draws", 2, "--json", tmp_path / "c.json")
    assert rc == 0, err
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["records"]["count"] == 105


def test_compare_says_why_a_records_folder_gave_nothing(capsys, tmp_path):
    (tmp_path / "recs").mkdir()
    (tmp_path / "recs" / "a.json").write_text('{"task": "running_sum"}')
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", tmp_path / "recs", "--null-draws", 2)
    assert rc == 0 and "no training records read" in err and "a.json" in err, err
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", tmp_path / "nowhere", "--null-draws", 2)
    assert rc == 0 and "no such folder" in err, err


GU_EDITS = {
    "ablation_head_out_of_range": (lambda r: r["ablation"]["heads"][0].__setitem__("head", 99), "ablation.heads"),
    "ablation_not_object": (lambda r: r.__setitem__("ablation", [1]), "field 'ablation' must be an object"),
    "chance_missing": (lambda r: r.pop("chance"), "chance.acc"),
    "accuracy_missing": (lambda r: r["final"]["test"]["32"].pop("acc"), "final.test.32.acc"),
}


@pytest.mark.parametrize("kind", sorted(GU_EDITS))
def test_gu2025_figures_skip_a_hand_edited_record(capsys, tmp_path, monkeypatch, kind):
    edit, match = GU_EDITS[kind]
    assert match in _figures_with_an_edit(capsys, tmp_path, monkeypatch, "gu2025_task1_small", "*.json", edit,
                                          "empirical.gu2025_*")
