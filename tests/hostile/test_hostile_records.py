"""Hostile inputs, class "truncated or hand-edited records": a record.json under runs/ that cannot be read
is reported on stderr by path (``petheory: warning: skipping PATH: REASON``) and skipped; ``check`` still
gives its verdicts from the good records and exits 0, figures' readers (sweep) redo the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_util import cli, snapshot

from petheory import io as pio


def _record(task="running_sum", pe="sinusoidal", seed=0, metric="mse", value=0.5, n_train=256):
    lens = ("50", "100", "200") if task == "running_sum" else ("120",)
    return {"task": task, "pe": pe, "seed": seed, "train_len": int(lens[0]),
            "config": {"task": {"name": task, "params": {"n_train": n_train}}},
            "model": {"d_model": 16, "n_layer": 2, "n_head": 2},
            "final": {"train": {metric: value}, "test": {L: {metric: value} for L in lens}},
            "history": [{"epoch": 1, "train_loss": 1.0}], "chance": {"acc": 0.01}}


CORRUPT = {
    "truncated": '{"task": "running_sum", "pe": "wave',
    "empty": "",
    "not_utf8": b"\xff\xfe\xfa",
    "list": "[1, 2, 3]",
    "null": "null",
    "missing_final": json.dumps({k: v for k, v in _record().items() if k != "final"}),
    "pe_not_text": json.dumps({**_record(), "pe": 7}),
    "final_not_object": json.dumps({**_record(), "final": [1, 2]}),
    "metric_not_number": json.dumps({**_record(), "final": {"train": {"mse": 1.0}, "test": {"200": {"mse": "low"}}}}),
    "model_missing": json.dumps({k: v for k, v in _record().items() if k != "model"}),
    "test_empty": json.dumps({**_record(), "final": {"train": {"mse": 1.0}, "test": {}}}),
    "history_broken": json.dumps({**_record(), "history": [{"epoch": 1}]}),
    "seed_bool": json.dumps({**_record(), "seed": True}),
}


def _write(path: Path, content) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(set(CORRUPT) - {"model_missing"}))  # model: a field table5 needs
def test_read_records_reports_and_skips_each_corrupt_kind(tmp_path, capsys, kind):
    good = _write(tmp_path / "runs" / "a" / "record.json", json.dumps(_record()))
    bad = _write(tmp_path / "runs" / "b" / "record.json", CORRUPT[kind])
    recs, skipped = pio.read_records(tmp_path / "runs")
    assert recs == [json.loads(good.read_text())]
    assert [p for p, _ in skipped] == [bad]
    err = capsys.readouterr().err
    assert f"petheory: warning: skipping {bad}: " in err


def test_read_records_on_a_missing_root_is_empty(tmp_path):
    assert pio.read_records(tmp_path / "nowhere") == ([], [])


def _check(capsys, monkeypatch, cwd, claims):
    monkeypatch.chdir(cwd)
    monkeypatch.setenv("PETHEORY_RECORDS", "")  # only the planted runs/, not the shipped records/
    return cli(capsys, "check", "--claims", claims, "--json", "-", "-q")


@pytest.mark.parametrize("kind", ["truncated", "list", "metric_not_number", "final_not_object", "model_missing"])
def test_check_table5_skips_a_corrupt_record_and_reports_its_path(tmp_path, capsys, monkeypatch, kind):
    for i, pe in enumerate(["sinusoidal", "wavelet"]):
        for seed in (0, 1):
            _write(tmp_path / "runs" / f"{pe}{seed}" / "record.json",
                   json.dumps(_record(pe=pe, seed=seed, value=0.1 * (i + 1) + 0.01 * seed)))
    bad = _write(tmp_path / "runs" / "zz_bad" / "record.json", CORRUPT[kind])
    before = snapshot(tmp_path / "runs")
    rc, out, err = _check(capsys, monkeypatch, tmp_path, "li2025.table5_running_sum")
    assert rc == 0, err
    assert "Traceback" not in err
    assert f"petheory: warning: skipping {Path('runs') / 'zz_bad' / 'record.json'}: " in err
    doc = json.loads(out)
    (rec,) = doc["claims"]
    assert rec["verdict"] in ("holds", "refuted", "inconclusive")
    assert rec["cases"] == 4  # the four good records were used
    assert snapshot(tmp_path / "runs") == before  # the corrupt file is reported, not modified or deleted
    assert bad.exists()


GU_CLAIMS = ["gu2025.table1", "gu2025.rope_beats_additive_task1", "gu2025.task2_positional_bias_hurts",
             "gu2025.single_head_deposit"]


@pytest.mark.parametrize("claim", GU_CLAIMS)
def test_check_gu2025_empirical_skips_corrupt_records(tmp_path, capsys, monkeypatch, claim):
    _write(tmp_path / "runs" / "gu2025_task1" / "a" / "record.json", CORRUPT["truncated"])
    _write(tmp_path / "runs" / "gu2025_task1" / "b" / "record.json", json.dumps(
        {**_record(task="gu2025_task1", pe="rope+sinusoidal", metric="acc", value="high")}))
    _write(tmp_path / "runs" / "gu2025_task2" / "c" / "record.json", json.dumps(
        {**_record(task="gu2025_task2", pe="nope", metric="acc", value=0.7),
         "config": {"epochs": "many", "colour": 1}}))  # parses, but its config matches no preset
    rc, out, err = _check(capsys, monkeypatch, tmp_path, claim)
    assert rc == 0, err
    assert "Traceback" not in err and "crashed" not in err
    assert "skipping " + str(Path("runs") / "gu2025_task1" / "a" / "record.json") in err
    assert "skipping " + str(Path("runs") / "gu2025_task1" / "b" / "record.json") in err
    (rec,) = json.loads(out)["claims"]
    assert rec["verdict"] == "inconclusive"


def test_sweep_redoes_a_hand_edited_record_instead_of_crashing(tmp_path, monkeypatch):
    """The figures read trained runs through sweep.run: a broken record.json is redone, not read back."""
    from petheory.experiments import sweep

    (cfg,) = sweep.expand({"task": "running_sum", "set": {"epochs": 1}})
    rec_path = sweep.run_dir(tmp_path, cfg) / "record.json"
    _write(rec_path, json.dumps({**_record(), "config_hash": cfg.hash(), "final": "edited by hand"}))
    assert not sweep.is_done(tmp_path, cfg)
    calls = []

    def fake_train(cfg_dict, directory, threads=None):
        calls.append(directory)
        rec = {**_record(), "config_hash": cfg.hash()}
        pio.atomic_write_json(Path(directory) / "record.json", rec)
        return rec

    monkeypatch.setattr(sweep, "_train_one", fake_train)
    (rec,) = sweep.run([cfg], tmp_path)
    assert calls == [str(rec_path.parent)] and rec["final"]["test"]["200"]["mse"] == 0.5
    assert sweep.is_done(tmp_path, cfg)
    _write(rec_path, CORRUPT["truncated"])
    assert not sweep.is_done(tmp_path, cfg)


def test_train_skips_an_unreadable_record_with_a_warning(tmp_path):
    from petheory.nn import preset, train

    cfg = preset("running_sum", "smoke", **{"epochs": 1, "task.n_train": 32, "task.n_test": 8, "ablate": False})
    out = tmp_path / "run"
    _write(out / "record.json", CORRUPT["truncated"])
    with pytest.warns(RuntimeWarning, match=f"skipping unreadable record {out / 'record.json'}"):
        rec = train(cfg, out)
    assert json.loads((out / "record.json").read_text()) == json.loads(json.dumps(rec))
