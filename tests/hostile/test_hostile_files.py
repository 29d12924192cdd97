"""Hostile inputs, classes "malformed or truncated model files and directories", "pickle payloads",
"interrupted writes", "concurrent writers to one sweep directory" and "corrupt records"."""

from __future__ import annotations

import json
import os
import pickle
import struct
import threading

import numpy as np
import pytest
from hostile_util import Marker, files_under, no_marker, refused, snapshot

from petheory import io as pio
from petheory import loaders

# ----------------------------------------------------------------------------- model files and directories


def _safetensors(path, header: dict, data: bytes = b"", hlen: int | None = None):
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h) if hlen is None else hlen) + h + data)
    return path


MODEL_FILES = {
    "npy_truncated": lambda p: (p / "pe.npy").write_bytes(
        (lambda b: b[: len(b) - 20])(_npy_bytes(np.ones((8, 4))))) and p / "pe.npy",
    "npy_garbage": lambda p: (p / "pe.npy").write_bytes(b"not a numpy file at all") and p / "pe.npy",
    "npy_header_huge_shape": lambda p: _huge_npy(p / "pe.npy"),
    "safetensors_short": lambda p: (p / "m.safetensors").write_bytes(b"\x01\x02") and p / "m.safetensors",
    "safetensors_header_too_long": lambda p: _safetensors(p / "m.safetensors", {"a": 1}, hlen=10**12),
    "safetensors_header_not_json": lambda p: (p / "m.safetensors").write_bytes(struct.pack("<Q", 5) + b"{{{{{")
    and p / "m.safetensors",
    "safetensors_offsets_lie": lambda p: _safetensors(
        p / "m.safetensors", {"position_embeddings.weight": {"dtype": "F32", "shape": [10**6, 10**6], "data_offsets": [0, 16]}},
        b"\x00" * 16),
    "safetensors_truncated_data": lambda p: _safetensors(
        p / "m.safetensors", {"position_embeddings.weight": {"dtype": "F32", "shape": [4, 4], "data_offsets": [0, 64]}},
        b"\x00" * 10),
    "safetensors_bad_dtype": lambda p: _safetensors(
        p / "m.safetensors", {"position_embeddings.weight": {"dtype": "STR", "shape": [1], "data_offsets": [0, 1]}}, b"x"),
    "bin_truncated": lambda p: (p / "pytorch_model.bin").write_bytes(b"PK\x03\x04 truncated zip") and p / "pytorch_model.bin",
    "hf_empty_dir": lambda p: "hf:" + str((p / "model").mkdir() or p / "model"),
    "hf_config_only": lambda p: ((p / "model").mkdir(), (p / "model" / "config.json").write_text("{"))
    and "hf:" + str(p / "model"),
    "hf_bad_index": lambda p: ((p / "model").mkdir(), (p / "model" / "model.safetensors.index.json").write_text(
        json.dumps({"weight_map": {"embeddings.position_embeddings.weight": "missing.safetensors"}}))) and "hf:" + str(p / "model"),
    "hf_missing_dir": lambda p: "hf:" + str(p / "nowhere"),
    "unsupported_suffix": lambda p: (p / "pe.csv").write_text("1,2\n3,4\n") and p / "pe.csv",
}


def _npy_bytes(arr) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def _huge_npy(path):
    """A .npy whose header claims a (10^7, 10^6) float64 array (80 TB) over 32 bytes of data."""
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (10000000, 1000000), }"
    header += " " * (63 - len(header) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\x00" * 32)
    return path


@pytest.mark.parametrize("kind", sorted(MODEL_FILES))
@pytest.mark.parametrize("command", ["stress", "spectrum"])
def test_malformed_model_files_are_refused_on_one_line(capsys, tmp_path, kind, command):
    spec = MODEL_FILES[kind](tmp_path)
    before = snapshot(tmp_path)
    refused(capsys, command, "--pe", spec, "--json", tmp_path / "out.json")
    assert snapshot(tmp_path) == before  # the input is not touched and nothing is written


@pytest.mark.parametrize("kind", ["npy_truncated", "safetensors_offsets_lie", "bin_truncated", "hf_empty_dir"])
def test_malformed_model_files_api(tmp_path, kind):
    spec = MODEL_FILES[kind](tmp_path)
    with pytest.raises(ValueError):
        loaders.load_position_embeddings(spec)


# ----------------------------------------------------------------------------- pickle payloads (must never execute)


def test_pickled_npy_is_refused_and_never_executed(capsys, tmp_path):
    marker = tmp_path / "PWNED"
    np.save(tmp_path / "evil.npy", np.array([Marker(marker)], dtype=object), allow_pickle=True)
    for command in ("stress", "spectrum"):
        refused(capsys, command, "--pe", tmp_path / "evil.npy", match="evil.npy")
    refused(capsys, "spectrum", "--file", tmp_path / "evil.npy", match="evil.npy")
    np.save(tmp_path / "t.npy", np.array([Marker(marker)], dtype=object), allow_pickle=True)
    refused(capsys, "stress", "--pe", "sinusoidal", "--target", tmp_path / "t.npy", match="t.npy")
    assert no_marker(marker)


@pytest.mark.parametrize("name", ["pytorch_model.bin", "weights.pt"])
def test_pickled_torch_file_is_refused_and_never_executed(capsys, tmp_path, name):
    import torch

    marker = tmp_path / "PWNED"
    torch.save({"position_embeddings.weight": Marker(marker)}, tmp_path / name)
    refused(capsys, "stress", "--pe", tmp_path / name, match="weights_only")
    d = tmp_path / "model"
    d.mkdir()
    (tmp_path / name).rename(d / "pytorch_model.bin")
    refused(capsys, "spectrum", "--pe", f"hf:{d}", match="weights_only")
    assert no_marker(marker)


def test_pickled_checkpoint_is_refused_by_train_and_bounds(capsys, tmp_path):
    import torch

    from petheory.nn import preset
    from petheory.nn.training import CHECKPOINT, CONFIG

    marker = tmp_path / "PWNED"
    run = tmp_path / "run"
    run.mkdir()
    cfg = preset("running_sum", "smoke")
    (run / CONFIG).write_text(json.dumps({**cfg.as_dict(), "hash": cfg.hash()}))
    torch.save({"format": "petheory-checkpoint", "model": Marker(marker)}, run / CHECKPOINT)
    before = snapshot(run)
    refused(capsys, "train", "running_sum", "--out", run, "--resume", match="checkpoint")
    refused(capsys, "bounds", "--pe", "sinusoidal", "--checkpoint", run, match="checkpoint")
    assert snapshot(run) == before and no_marker(marker)


def test_raw_pickle_with_a_torch_suffix_is_refused(capsys, tmp_path):
    marker = tmp_path / "PWNED"
    (tmp_path / "pe.pt").write_bytes(pickle.dumps(Marker(marker)))
    refused(capsys, "stress", "--pe", tmp_path / "pe.pt")
    assert no_marker(marker)


# ----------------------------------------------------------------------------- interrupted writes


def test_interrupted_atomic_write_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "r.json"
    pio.atomic_write_json(target, {"v": 1})

    def boom(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        pio.atomic_write_json(target, {"v": 2})
    monkeypatch.undo()
    assert json.loads(target.read_text()) == {"v": 1}
    assert files_under(tmp_path) == ["r.json"]


def test_non_json_values_are_refused_before_writing(tmp_path):
    with pytest.raises(ValueError):
        pio.atomic_write_json(tmp_path / "r.json", {"x": float("nan")})
    assert files_under(tmp_path) == []


def test_check_json_into_a_directory_is_one_line(capsys, tmp_path):
    refused(capsys, "check", "-q", "--claims", "li2025.alibi_monotone_bias", "--json", tmp_path)


def test_truncated_checkpoint_is_refused_by_path_and_kept(capsys, tmp_path):
    from petheory.nn import preset
    from petheory.nn.training import CHECKPOINT, CONFIG

    run = tmp_path / "run"
    run.mkdir()
    cfg = preset("running_sum", "smoke")
    (run / CONFIG).write_text(json.dumps({**cfg.as_dict(), "hash": cfg.hash()}))
    (run / CHECKPOINT).write_bytes(b"PK\x03\x04" + b"\x00" * 40)  # a write cut short
    before = snapshot(run)
    refused(capsys, "train", "running_sum", "--out", run, match=str(run / CHECKPOINT))
    assert snapshot(run) == before


def test_corrupt_run_config_is_refused_by_path(capsys, tmp_path):
    from petheory.nn.training import CONFIG

    run = tmp_path / "run"
    run.mkdir()
    (run / CONFIG).write_text('{"task": ')
    refused(capsys, "train", "running_sum", "--out", run, match=str(run / CONFIG))
    (run / CONFIG).write_text("[]")
    refused(capsys, "train", "running_sum", "--out", run, match="not a petheory run config")


# ----------------------------------------------------------------------------- concurrent writers


def test_concurrent_atomic_writers_leave_one_valid_file(tmp_path):
    target = tmp_path / "record.json"
    payloads = [{"writer": w, "data": list(range(2000))} for w in range(8)]

    def write(p):
        for _ in range(20):
            pio.atomic_write_json(target, p)

    threads = [threading.Thread(target=write, args=(p,)) for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert json.loads(target.read_text()) in payloads
    assert files_under(tmp_path) == ["record.json"]  # no temp file left behind


def test_concurrent_sweeps_into_one_directory(tmp_path, monkeypatch):
    """Two sweeps of the same grid into one directory at once: every record valid, nothing half-written."""
    from petheory.experiments import sweep

    configs = sweep.expand({"task": "running_sum", "seed": [0, 1], "set": {"epochs": 1, "task.n_train": 32,
                                                                             "task.n_test": 8, "ablate": False}})
    errors = []

    def go():
        try:
            sweep.run(configs, tmp_path / "sweep")
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    recs, skipped = pio.read_records(tmp_path / "sweep")
    assert skipped == [] and len(recs) == 2
    assert all(sweep.is_done(tmp_path / "sweep", c) for c in configs)
    assert not [f for f in files_under(tmp_path) if f.endswith(".tmp")]


# ----------------------------------------------------------------------------- output paths that cannot be written


@pytest.mark.parametrize("argv", [
    ["figures", "--only", "spectral.lemma_b1", "--out", "{f}"],
    ["encodings", "--json", "{f}/x.json"],
    ["train", "running_sum", "--out", "{f}"],
    ["sweep", "--task", "running_sum", "--out", "{f}"],
    ["check", "--claims", "li2025.alibi_monotone_bias", "--markdown", "{f}/r.md"],
    ["spectrum", "--coeffs", "1,0.5", "--json", "{f}/x.json"],
    ["bounds", "--pe", "alibi", "--json", "{f}/x.json"],
    ["stress", "--pe", "sinusoidal", "--json", "{f}/x.json"],
], ids=lambda a: a[0])
def test_output_under_a_file_is_one_line_and_the_file_is_kept(capsys, tmp_path, argv):
    f = tmp_path / "afile"
    f.write_text("keep me")
    refused(capsys, *[a.format(f=f) for a in argv], "-q", match=str(f))
    assert f.read_text() == "keep me" and files_under(tmp_path) == ["afile"]
