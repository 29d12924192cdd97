"""Record files are parsed and validated once per process (issue 43: ``petheory check`` read the same 461 shipped
records again for each empirical claim, a quarter of its time), and the cache never shows a reader a stale file or
another reader's changes."""

from __future__ import annotations

import json
import os

from petheory import io, records


def _rec(task="running_sum", seed=0, h="abc"):
    return {"task": task, "pe": "alibi", "seed": seed, "config": {}, "config_hash": h, "train_len": 50,
            "kind": "regression", "final": {"train": {"mse": 1.0}, "test": {"50": {"mse": 1.0}}},
            "history": [{"train_loss": 1.0}]}


def _count_parses(monkeypatch) -> list:
    seen = []
    real = io._read_safe

    def counting(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(io, "_read_safe", counting)
    return seen


def test_each_file_is_parsed_once_and_each_reader_gets_its_own_copy(tmp_path, monkeypatch):
    records.export([_rec(h="h1"), _rec(seed=1, h="h2"), _rec(task="copy", h="h3")], tmp_path, experiment="x")
    parsed = _count_parses(monkeypatch)
    first = records.find("running_sum", where=[tmp_path]).records
    first[0]["final"]["test"]["50"]["mse"] = 99.0  # a reader that changes its record
    again = records.find("running_sum", where=[tmp_path]).records
    assert len(parsed) == 3  # the copy record was parsed (and validated) too, once
    assert [r["config_hash"] for r in again] == ["h1", "h2"] and again[0]["final"]["test"]["50"]["mse"] == 1.0
    assert [r["config_hash"] for r in records.find("copy", where=[tmp_path]).records] == ["h3"]
    assert len(parsed) == 3


def test_a_file_written_again_is_read_again(tmp_path, monkeypatch):
    (path,) = records.export([_rec(h="h1")], tmp_path, experiment="x")
    parsed = _count_parses(monkeypatch)
    assert records.find("running_sum", where=[tmp_path]).records[0]["seed"] == 0
    path.write_text(json.dumps({**_rec(h="h1"), "seed": 7}))  # the same size, perhaps the same second
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert records.find("running_sum", where=[tmp_path]).records[0]["seed"] == 7
    io.atomic_write_json(path, {**_rec(h="h1"), "seed": 8})  # temp file + rename: a new file in the same place
    assert records.find("running_sum", where=[tmp_path]).records[0]["seed"] == 8
    assert len(parsed) == 3


def test_a_broken_file_is_skipped_with_its_reason_every_time(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"task": "running_sum", "pe"')
    parsed = _count_parses(monkeypatch)
    for _ in range(2):
        found = records.find("running_sum", where=[tmp_path], report=False)
        assert found.records == [] and "not valid JSON" in dict(found.skipped)[str(bad)]
    assert len(parsed) == 1


def test_a_readers_check_judges_only_the_records_of_its_task(tmp_path):
    records.export([_rec(h="h1"), _rec(task="copy", h="h2")], tmp_path, experiment="x")
    found = records.find("running_sum", where=[tmp_path], check=lambda r: None if r["task"] == "running_sum" else "wrong",
                         report=False)
    assert [r["config_hash"] for r in found.records] == ["h1"] and found.skipped == []


def test_the_cache_keeps_at_most_its_budget_oldest_first(tmp_path, monkeypatch):
    paths = records.export([_rec(seed=i, h=f"h{i}") for i in range(4)], tmp_path, experiment="x")
    monkeypatch.setattr(io, "_READ_CACHE", {})
    monkeypatch.setattr(io, "_READ_CACHE_HELD", [0])
    monkeypatch.setattr(io, "_READ_CACHE_BYTES", 2 * len(paths[0].read_bytes()))  # about two marshalled records
    assert len(records.find("running_sum", where=[tmp_path]).records) == 4  # all read, whatever the cache keeps
    kept = list(io._READ_CACHE)
    assert 1 <= len(kept) < 4 and kept == sorted(str(p) for p in paths)[-len(kept):]  # the newest stay
    assert io._READ_CACHE_HELD[0] == sum(len(e[2]) for e in io._READ_CACHE.values()) <= io._READ_CACHE_BYTES
