"""Records read back by ``figures`` and the claims from ``runs/``, hand-edited: each is checked by its typed reader
(:func:`petheory.experiments.retrieval_runs.retrieval_problem`, :func:`petheory.experiments.chen2025_runs.chen2025_problem`)
and skipped with one warning naming the file and the field, never a crash (exit 1) and never drawn."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hostile_util import cli

ROOT = Path(__file__).resolve().parents[2]
RETRIEVAL = sorted((ROOT / "records" / "retrieval").glob("passkey__rope__*.json"))[0]
CHEN = ROOT / "records" / "chen2025" / "parity__nope__s3" / "record.json"


def _edit(rec: dict, path: str, value):
    rec = copy.deepcopy(rec)
    *keys, last = path.split(".")
    x = rec
    for k in keys:
        x = x[k]
    if value is DELETE:
        del x[last]
    else:
        x[last] = value
    return rec


DELETE = object()

RETRIEVAL_EDITS = [
    ("retrieval.metric", "nope", "retrieval.methods.rope.by_length.32.nope"),
    ("retrieval.train_context", "32", "field 'retrieval.train_context' must be an int"),
    ("retrieval.lengths", [0], "field 'retrieval.lengths'"),
    ("retrieval.finetune_setup", DELETE, "retrieval.finetune_setup.factor' is missing"),
    ("retrieval.methods.rope.by_length.64", "x", "retrieval.methods.rope.by_length.64'"),
    ("retrieval.methods.rope.by_length.64.seq_acc", None, "retrieval.methods.rope.by_length.64.seq_acc"),
    ("retrieval.methods.rope.grid", {"64": {"0.5": "x"}}, "retrieval.methods.rope.grid."),
    ("chance", 5, "field 'chance' must be an object"),
    ("retrieval.methods.rope.by_length.64.coverage", {"out_of_range": "all"}, "coverage.out_of_range"),
    ("retrieval", [1], "field 'retrieval' must be an object"),
]


@pytest.mark.parametrize("path,value,field", RETRIEVAL_EDITS, ids=[e[0] for e in RETRIEVAL_EDITS])
def test_a_hand_edited_retrieval_record_is_skipped_naming_its_field(capsys, tmp_path, monkeypatch, path, value, field):
    from petheory.experiments.retrieval_runs import load_records

    rec = json.loads(RETRIEVAL.read_text())
    folder = tmp_path / "runs" / "retrieval-records"
    folder.mkdir(parents=True)
    bad = folder / "edited.json"
    bad.write_text(json.dumps(_edit(rec, path, value)))
    monkeypatch.chdir(tmp_path)
    recs, skipped = load_records(tmp_path)
    assert [(Path(p).name, why) for p, why in skipped if Path(p).name == "edited.json"], skipped
    assert field in dict((Path(p).name, why) for p, why in skipped)["edited.json"]
    assert all(r.get("_path") != str(bad) for r in recs)


def test_figures_draw_past_a_hand_edited_retrieval_record(capsys, tmp_path, monkeypatch):
    rec = json.loads(RETRIEVAL.read_text())
    folder = tmp_path / "runs" / "retrieval-records"
    folder.mkdir(parents=True)
    (folder / "edited.json").write_text(json.dumps(_edit(rec, "retrieval.metric", "nope")))
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(capsys, "figures", "--only", "retrieval.*", "--out", tmp_path / "figs", "-q")
    assert rc == 0, err
    warned = [ln for ln in err.splitlines() if "edited.json" in ln]
    assert len(warned) == 1 and warned[0].startswith("petheory: warning: skipping") and "retrieval.methods" in warned[0]


CHEN_EDITS = [
    ("chen2025.src.10", "x", "field 'chen2025.src.10' must be a finite number"),
    ("chen2025.pe", 5, "field 'chen2025.pe' must be text"),
    ("chen2025.src", DELETE, "field 'chen2025.src' must be an object"),
    ("final.test.10.token_acc", 7, "field 'final.test.10.token_acc' must be a fraction"),
    ("chen2025", [1], "field 'chen2025' must be an object"),
]


@pytest.mark.parametrize("path,value,field", CHEN_EDITS, ids=[e[0] for e in CHEN_EDITS])
def test_figures_draw_past_a_hand_edited_chen2025_record(capsys, tmp_path, monkeypatch, path, value, field):
    rec = json.loads(CHEN.read_text())
    run = tmp_path / "runs" / "chen2025" / "edited"
    run.mkdir(parents=True)
    (run / "record.json").write_text(json.dumps(_edit(rec, path, value)))
    monkeypatch.chdir(tmp_path)
    rc, out, err = cli(capsys, "figures", "--only", "lengthgen.accuracy", "--out", tmp_path / "figs", "-q")
    assert rc == 0, err
    warned = [ln for ln in err.splitlines() if "edited" in ln]
    assert len(warned) == 1 and field in warned[0], err
