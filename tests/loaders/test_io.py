"""petheory.io: atomic writes never leave a partial file; JSON is strict (no NaN) and numpy-aware."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from petheory import io
from petheory.io import atomic_write_text


def test_atomic_write_text_creates_parents_and_leaves_no_temp_file(tmp_path):
    path = io.atomic_write_text(tmp_path / "a" / "b" / "out.txt", "hello")
    assert path.read_text() == "hello"
    assert os.listdir(path.parent) == ["out.txt"]


def test_atomic_write_replaces_the_old_content_whole(tmp_path):
    path = tmp_path / "out.txt"
    io.atomic_write_text(path, "old " * 1000)
    io.atomic_write_text(path, "new")
    assert path.read_text() == "new"


def test_an_interrupted_write_keeps_the_old_file_and_cleans_up(tmp_path, monkeypatch):
    path = tmp_path / "out.json"
    io.atomic_write_json(path, {"done": 1})

    def crash(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        io.atomic_write_json(path, {"done": 2})
    assert json.loads(path.read_text()) == {"done": 1}
    assert os.listdir(tmp_path) == ["out.json"]


def test_unserialisable_objects_fail_before_touching_the_file(tmp_path):
    path = tmp_path / "out.json"
    io.atomic_write_json(path, [1])
    with pytest.raises(TypeError, match="object is not JSON serialisable"):
        io.atomic_write_json(path, {"x": object()})
    with pytest.raises(ValueError):
        io.atomic_write_json(path, {"x": float("nan")})  # NaN is not JSON
    assert json.loads(path.read_text()) == [1]


def test_json_converts_numpy_and_paths(tmp_path):
    obj = {"i": np.int64(3), "f": np.float32(0.5), "a": np.arange(3), "p": Path("x/y")}
    path = io.atomic_write_json(tmp_path / "o.json", obj)
    assert io.read_json(path) == {"i": 3, "f": 0.5, "a": [0, 1, 2], "p": "x/y"}
    assert json.loads(io.json_text(obj)) == io.read_json(path)


def test_read_json_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        io.read_json(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": ')
    with pytest.raises(ValueError, match=r"bad\.json is not valid JSON"):
        io.read_json(bad)


def test_atomic_write_bytes_and_streaming_writer_are_whole_or_nothing(tmp_path):
    path = io.atomic_write_bytes(tmp_path / "d" / "b.bin", b"\x00\x01old")
    assert path.read_bytes() == b"\x00\x01old"

    def half_then_crash(fh):
        fh.write(b"new, half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        io.atomic_write(path, half_then_crash)
    assert path.read_bytes() == b"\x00\x01old"
    assert os.listdir(path.parent) == ["b.bin"]
    io.atomic_write(path, lambda fh: fh.write(b"streamed"))
    assert path.read_bytes() == b"streamed"


def test_checkpoints_and_figures_go_through_the_one_atomic_writer():
    """nn.training and plots save through petheory.io's writers (atomic_write, atomic_write_set for a figure's PNG and
    JSON pair): no second temp-file-and-rename."""
    import importlib
    import inspect

    for name, writer in (("petheory.nn.training", "atomic_write("), ("petheory.plots", "atomic_write_set(")):
        src = inspect.getsource(importlib.import_module(name))
        assert writer in src and "mkstemp" not in src and ".replace(png)" not in src


@pytest.mark.parametrize("umask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_honour_the_umask_like_open_does(tmp_path, umask, expected):
    """mkstemp creates 0600; a file the commands write must get 0o666 & ~umask like open(path, 'w')."""
    old = os.umask(umask)
    try:
        p = atomic_write_text(tmp_path / "out" / "a.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == expected


def test_replacing_a_file_keeps_its_mode(tmp_path):
    p = tmp_path / "a.txt"
    p.write_text("old")
    p.chmod(0o640)
    atomic_write_text(p, "new")
    assert stat.S_IMODE(p.stat().st_mode) == 0o640 and p.read_text() == "new"


def test_a_command_writes_its_json_readable_by_others(tmp_path):
    from petheory.cli import main

    old = os.umask(0o022)
    try:
        assert main(["bounds", "--pe", "sinusoidal", "--json", str(tmp_path / "b.json"), "-q"]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o644
