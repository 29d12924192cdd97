"""Hostile files from a model hub (issue 32): overflow, lying headers, paths that leave the model folder,
special files, broken run folders, records with NaN, an ASCII-only terminal and misleading messages.

Every case is one row: a builder that plants the hostile file(s) under ``tmp_path`` and returns the
command line, and what the one-line refusal must name (the file, the field, what is expected). A case
that must *work* (a BOM before a config, the Hugging Face cache's own symlinks, a Fortran-ordered
``.npy``) says so. Special files (FIFOs) must never make a command wait: each such run is guarded by
an alarm that fails the test instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import struct
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from hostile_util import Marker, cli, files_under, no_marker, refused
from _helpers import HANG_S

# ----------------------------------------------------------------------------- builders


class _Hung(BaseException):
    """Raised by the alarm: a BaseException, so no ``except OSError``/``Exception`` in petheory swallows it."""


@contextmanager
def no_hang(seconds: int = 60):
    """Fail (instead of hanging the suite) when the block waits longer than ``seconds`` (e.g. on a FIFO)."""

    def _raise(signum, frame):
        raise _Hung(f"still running after {seconds} s: a special file made the command wait")

    old = signal.signal(signal.SIGALRM, _raise)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


POS = "embeddings.position_embeddings.weight"
TABLE = np.random.default_rng(0).normal(size=(16, 8)).astype("<f4")


def st_bytes(header, data: bytes = b"", hlen: int | None = None) -> bytes:
    """A safetensors file: 8-byte little-endian header length, the JSON header (a dict, or raw text), the data."""
    h = (header if isinstance(header, str) else json.dumps(header)).encode("utf-8") if not isinstance(header, bytes) else header
    return struct.pack("<Q", len(h) if hlen is None else hlen) + h + data


def good_st(path: Path, name: str = POS) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(st_bytes({name: {"dtype": "F32", "shape": list(TABLE.shape), "data_offsets": [0, TABLE.nbytes]}},
                              TABLE.tobytes()))
    return path


def st_with(p: Path, entry: dict, data: bytes | None = None) -> Path:
    """m.safetensors with one tensor whose metadata is ``entry`` over ``data`` (default: the 16 x 8 table)."""
    f = p / "m.safetensors"
    f.write_bytes(st_bytes({POS: entry}, TABLE.tobytes() if data is None else data))
    return f


def npy_raw(path: Path, header: str, data: bytes = b"") -> Path:
    """A .npy (version 1.0) with a hand-written header dict."""
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + data)
    return path


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def loop(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(path.name, path)  # a link to itself: ELOOP on open
    return path


def model_dir(p: Path, name: str = "model") -> Path:
    d = p / name
    d.mkdir(parents=True, exist_ok=True)
    return d


def index(d: Path, weight_map, extra: str | None = None) -> Path:
    f = d / "model.safetensors.index.json"
    f.write_text(extra if extra is not None else json.dumps({"metadata": {}, "weight_map": weight_map}))
    return f


LLAMA = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 8192,
         "num_hidden_layers": 32,
         "rope_theta": 500000.0, "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                  "original_max_position_embeddings": 8192, "rope_type": "llama3"}}


def config(p: Path, text: str) -> Path:
    d = model_dir(p)
    (d / "config.json").write_text(text, encoding="utf-8")
    return d / "config.json"


def llama_text(**replace) -> str:
    """LLAMA's JSON text with the values of ``replace`` (field path -> raw JSON text) spliced in."""
    cfg = json.loads(json.dumps(LLAMA))
    marks = {}
    for i, (path, raw) in enumerate(replace.items()):
        *parents, last = path.split(".")
        obj = cfg
        for k in parents:
            obj = obj[k]
        obj[last] = f"@@{i}@@"
        marks[f'"@@{i}@@"'] = raw
    text = json.dumps(cfg)
    for m, raw in marks.items():
        text = text.replace(m, raw)
    return text


def deep(n: int = 100_000) -> str:
    return "[" * n + "]" * n


# ----------------------------------------------------------------------------- safetensors headers that lie

SPEC = ["spectrum", "--length", "16", "--json"]  # + out; --pe FILE is added per row

ENTRY = {"dtype": "F32", "shape": [16, 8], "data_offsets": [0, TABLE.nbytes]}

SAFETENSORS = {
    # name: (builder(tmp) -> file, substrings of the one-line refusal)
    "header_len_past_end": (lambda p: (p / "m.safetensors").write_bytes(st_bytes({POS: ENTRY}, TABLE.tobytes(), hlen=10_000))
                            and p / "m.safetensors", ("m.safetensors", "header length 10000")),
    "header_over_limit": (lambda p: _sparse_st(p / "m.safetensors", 200 << 20), ("m.safetensors", "header", "at most")),
    "negative_offsets": (lambda p: st_with(p, {**ENTRY, "data_offsets": [-64, 0]}), ("m.safetensors", "data_offsets", "-64")),
    "reversed_offsets": (lambda p: st_with(p, {**ENTRY, "data_offsets": [512, 0]}), ("m.safetensors", "data_offsets")),
    "float_offsets": (lambda p: st_with(p, {**ENTRY, "data_offsets": [0.0, 512.0]}), ("m.safetensors", "data_offsets", "integer")),
    "offsets_not_pair": (lambda p: st_with(p, {**ENTRY, "data_offsets": [0]}), ("m.safetensors", "data_offsets")),
    "overlapping_offsets": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(
        {POS: ENTRY, "other": {"dtype": "F32", "shape": [64], "data_offsets": [256, 512]}}, TABLE.tobytes())) and p / "m.safetensors",
        ("m.safetensors", "data_offsets", "overlap")),
    "hole_in_offsets": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(
        {POS: {**ENTRY, "data_offsets": [64, 576]}}, b"\x00" * 64 + TABLE.tobytes())) and p / "m.safetensors",
        ("m.safetensors", "data_offsets", "gap")),
    "missing_shape": (lambda p: st_with(p, {"dtype": "F32", "data_offsets": [0, 512]}), ("m.safetensors", "shape", "missing")),
    "missing_dtype": (lambda p: st_with(p, {"shape": [16, 8], "data_offsets": [0, 512]}), ("m.safetensors", "dtype", "missing")),
    "missing_offsets": (lambda p: st_with(p, {"dtype": "F32", "shape": [16, 8]}), ("m.safetensors", "data_offsets", "missing")),
    "negative_shape": (lambda p: st_with(p, {**ENTRY, "shape": [-16, -8]}), ("m.safetensors", "shape", "-16")),
    "huge_shape": (lambda p: st_with(p, {**ENTRY, "shape": [1 << 40, 1 << 40]}), ("m.safetensors", "shape", "512 bytes")),
    "shape_not_list": (lambda p: st_with(p, {**ENTRY, "shape": "16x8"}), ("m.safetensors", "shape", "list")),
    "shape_bools": (lambda p: st_with(p, {**ENTRY, "shape": [True, 8]}), ("m.safetensors", "shape")),
    "shape_vs_bytes": (lambda p: st_with(p, {**ENTRY, "shape": [16, 4]}), ("m.safetensors", "shape", "512 bytes")),
    "dtype_unknown": (lambda p: st_with(p, {**ENTRY, "dtype": "F128"}), ("m.safetensors", "dtype", "F128")),
    "dtype_not_text": (lambda p: st_with(p, {**ENTRY, "dtype": 32}), ("m.safetensors", "dtype")),
    "entry_not_object": (lambda p: (p / "m.safetensors").write_bytes(st_bytes({POS: 5}, TABLE.tobytes())) and p / "m.safetensors",
                         ("m.safetensors", POS, "object")),
    "header_list": (lambda p: (p / "m.safetensors").write_bytes(st_bytes([1, 2], TABLE.tobytes())) and p / "m.safetensors",
                    ("m.safetensors", "object")),
    "header_deep": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(deep(), b"")) and p / "m.safetensors",
                    ("m.safetensors", "nest")),
    "header_duplicate_keys": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(
        '{"%s": %s, "%s": %s}' % (POS, json.dumps(ENTRY), POS, json.dumps({**ENTRY, "shape": [8, 16]})), TABLE.tobytes()))
        and p / "m.safetensors", ("m.safetensors", "duplicate", POS)),
    "header_nan": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(
        '{"%s": {"dtype": "F32", "shape": [16, NaN], "data_offsets": [0, 512]}}' % POS, TABLE.tobytes()))
        and p / "m.safetensors", ("m.safetensors", "NaN")),
    "header_huge_int": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(
        '{"%s": {"dtype": "F32", "shape": [16, %s], "data_offsets": [0, 512]}}' % (POS, "9" * 400), TABLE.tobytes()))
        and p / "m.safetensors", ("m.safetensors", "shape", "integer")),
    "header_bom": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(b"\xef\xbb\xbf" + json.dumps({POS: ENTRY}).encode(),
                                                                      TABLE.tobytes())) and p / "m.safetensors",
                   ("m.safetensors", "header")),
    "header_not_utf8": (lambda p: (p / "m.safetensors").write_bytes(st_bytes(b'{"\xff\xfe": 1}', b"")) and p / "m.safetensors",
                        ("m.safetensors", "UTF-8")),
    "fifo": (lambda p: fifo(p / "m.safetensors"), ("m.safetensors", "not a regular file")),
    "symlink_loop": (lambda p: loop(p / "m.safetensors"), ("m.safetensors", "symbolic link")),
    "directory": (lambda p: (p / "m.safetensors").mkdir() or p / "m.safetensors", ("m.safetensors", "directory")),
    "device_file": (lambda p: os.symlink("/dev/zero", p / "m.safetensors") or p / "m.safetensors",
                    ("m.safetensors", "not a regular file")),
}


def _sparse_st(path: Path, hlen: int) -> Path:
    """A file whose header length says ``hlen`` and that is that long (sparse: no disk used)."""
    with path.open("wb") as fh:
        fh.write(struct.pack("<Q", hlen) + b"{")
        fh.truncate(8 + hlen + 16)
    return path


@pytest.mark.parametrize("kind", sorted(SAFETENSORS))
def test_safetensors_that_lie_are_one_line(capsys, tmp_path, kind):
    build, match = SAFETENSORS[kind]
    f = build(tmp_path)
    with no_hang():
        line = refused(capsys, *SPEC, tmp_path / "out.json", "--pe", f, match=match)
    assert "no such file" not in line
    assert files_under(tmp_path / "out.json") == [] and not (tmp_path / "out.json").exists()


def test_a_good_safetensors_file_still_loads(tmp_path):
    from petheory.loaders import load_position_embeddings

    enc = load_position_embeddings(good_st(tmp_path / "m.safetensors"))
    np.testing.assert_array_equal(enc.table, TABLE.astype(np.float64))


# ----------------------------------------------------------------------------- .npy / .npz


NPY = {
    "object_header_no_pickle": (lambda p: npy_raw(p / "pe.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }",
                                                  b"\x00" * 32), ("pe.npy", "object")),
    "unicode_dtype": (lambda p: np.save(p / "pe.npy", np.array([["a", "b"], ["c", "d"]])) or p / "pe.npy", ("pe.npy", "dtype")),
    "structured_dtype": (lambda p: np.save(p / "pe.npy", np.zeros((4, 2), dtype=[("a", "<f8")])) or p / "pe.npy",
                         ("pe.npy", "dtype")),
    "datetime_dtype": (lambda p: np.save(p / "pe.npy", np.zeros((4, 2), dtype="M8[s]")) or p / "pe.npy", ("pe.npy", "dtype")),
    "complex_dtype": (lambda p: np.save(p / "pe.npy", np.ones((4, 2), dtype=complex)) or p / "pe.npy", ("pe.npy", "complex")),
    "negative_shape": (lambda p: npy_raw(p / "pe.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (-4, 2), }",
                                         b"\x00" * 64), ("pe.npy", "shape")),
    "huge_int_shape": (lambda p: npy_raw(p / "pe.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (%s, 2), }" % ("9" * 400),
                                         b"\x00" * 64), ("pe.npy", "shape")),
    "header_only_magic": (lambda p: (p / "pe.npy").write_bytes(b"\x93NUMPY\x01\x00") and p / "pe.npy", ("pe.npy",)),
    "one_row": (lambda p: np.save(p / "pe.npy", np.ones((1, 8))) or p / "pe.npy", ("pe.npy", "(1, 8)", "at least 2 positions")),
    "near_1e300": (lambda p: np.save(p / "pe.npy", np.full((16, 8), 1e300)) or p / "pe.npy", ("pe.npy", "1e+300", "overflow")),
    "fifo": (lambda p: fifo(p / "pe.npy"), ("pe.npy", "not a regular file")),
    "symlink_loop": (lambda p: loop(p / "pe.npy"), ("pe.npy", "symbolic link")),
    "device_file": (lambda p: os.symlink("/dev/zero", p / "pe.npy") or p / "pe.npy", ("pe.npy", "not a regular file")),
    "npz_with_pickle": (lambda p: _npz_pickle(p), ("pe.npz",)),
}


def _npz_pickle(p: Path) -> Path:
    np.savez(p / "pe.npz", table=np.array([Marker(p / "PWNED")], dtype=object))
    return p / "pe.npz"


@pytest.mark.parametrize("kind", sorted(NPY))
def test_hostile_npy_is_one_line(capsys, tmp_path, kind):
    build, match = NPY[kind]
    f = build(tmp_path)
    with no_hang():
        line = refused(capsys, *SPEC, tmp_path / "out.json", "--pe", f, match=match)
    assert "NaN/inf entries" not in line and "got shape (1, 1)" not in line and "no such file" not in line
    assert no_marker(tmp_path / "PWNED")


@pytest.mark.parametrize("order,dtype", [("F", "<f8"), ("C", ">f8"), ("C", "<f2")])
def test_npy_layouts_load_with_their_values(tmp_path, order, dtype):
    """Fortran order, big-endian and half precision are valid .npy files: read with the values they hold."""
    from petheory.loaders import load_position_embeddings

    a = np.asarray(TABLE, dtype=dtype, order=order)
    np.save(tmp_path / "pe.npy", a)
    np.testing.assert_array_equal(load_position_embeddings(tmp_path / "pe.npy").table, a.astype(np.float64))


# ----------------------------------------------------------------------------- model folders: paths that leave them


def _outside(p: Path) -> Path:
    return good_st(p / "outside" / "secret.safetensors")


def _dir_dotdot(p):
    _outside(p)
    d = model_dir(p)
    index(d, {POS: "../outside/secret.safetensors"})
    return d


def _dir_absolute(p):
    f = _outside(p)
    d = model_dir(p)
    index(d, {POS: str(f)})
    return d


def _dir_shard_symlink(p):
    f = _outside(p)
    d = model_dir(p)
    os.symlink(f, d / "model-00001-of-00001.safetensors")
    index(d, {POS: "model-00001-of-00001.safetensors"})
    return d


def _dir_weights_symlink(p):
    f = _outside(p)
    d = model_dir(p)
    os.symlink(f, d / "model.safetensors")
    return d


def _dir_index_symlink(p):
    _outside(p)
    (p / "outside" / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {POS: "secret.safetensors"}}))
    d = model_dir(p)
    os.symlink(p / "outside" / "model.safetensors.index.json", d / "model.safetensors.index.json")
    return d


def _dir_subdir_dotdot(p):
    _outside(p)
    d = model_dir(p)
    (d / "sub").mkdir()
    index(d, {POS: "sub/../../outside/secret.safetensors"})
    return d


LEAVE = {
    "index_dotdot": _dir_dotdot,
    "index_absolute": _dir_absolute,
    "index_shard_symlink_out": _dir_shard_symlink,
    "weights_symlink_out": _dir_weights_symlink,
    "index_symlink_out": _dir_index_symlink,
    "index_subdir_dotdot": _dir_subdir_dotdot,
}


@pytest.mark.parametrize("kind", sorted(LEAVE))
@pytest.mark.parametrize("command", ["stress", "spectrum"])
def test_nothing_a_model_folder_names_is_read_outside_it(capsys, tmp_path, kind, command, monkeypatch):
    d = LEAVE[kind](tmp_path)
    opened = []
    real_open, real_os_open = Path.open, os.open

    def spy(self, *a, **k):
        opened.append(str(self))
        return real_open(self, *a, **k)

    def os_spy(path, *a, **k):
        opened.append(str(path))
        return real_os_open(path, *a, **k)

    monkeypatch.setattr(Path, "open", spy)
    monkeypatch.setattr(os, "open", os_spy)
    refused(capsys, command, "--pe", f"hf:{d}", "--json", tmp_path / "o.json", match=("leaves the model folder",))
    assert not [f for f in opened if "secret" in f]


def test_the_hugging_face_cache_layout_still_loads(capsys, tmp_path):
    """snapshots/<rev>/model.safetensors -> ../../blobs/<sha> is how the hub cache stores every file: allowed."""
    repo = tmp_path / "models--org--name"
    blob = good_st(repo / "blobs" / "0123abcd")
    snap = repo / "snapshots" / "rev1"
    snap.mkdir(parents=True)
    os.symlink(Path("..") / ".." / "blobs" / blob.name, snap / "model.safetensors")
    rc, out, err = cli(capsys, "spectrum", "--length", "16", "--pe", f"hf:{snap}")
    assert rc == 0, err


DIRS = {
    "index_fifo": (lambda p: fifo(model_dir(p) / "model.safetensors.index.json").parent, ("model.safetensors.index.json",
                                                                                          "not a regular file")),
    "weights_fifo": (lambda p: fifo(model_dir(p) / "model.safetensors").parent, ("model.safetensors", "not a regular file")),
    "bin_fifo": (lambda p: fifo(model_dir(p) / "pytorch_model.bin").parent, ("pytorch_model.bin", "not a regular file")),
    "shard_fifo": (lambda p: (fifo(model_dir(p) / "s.safetensors"), index(p / "model", {POS: "s.safetensors"}))[0].parent,
                   ("s.safetensors", "not a regular file")),
    "shard_loop": (lambda p: (loop(model_dir(p) / "s.safetensors"), index(p / "model", {POS: "s.safetensors"}))[0].parent,
                   ("s.safetensors", "symbolic link")),
    "shard_directory": (lambda p: ((model_dir(p) / "s.safetensors").mkdir(), index(p / "model", {POS: "s.safetensors"}))
                        and p / "model", ("s.safetensors", "directory")),
    "weight_map_list": (lambda p: index(model_dir(p), [POS]).parent, ("weight_map", "object")),
    "weight_map_value_not_text": (lambda p: index(model_dir(p), {POS: 7}).parent, ("weight_map", POS)),
    "index_not_json": (lambda p: index(model_dir(p), {}, extra="{").parent, ("model.safetensors.index.json", "JSON")),
    "index_deep": (lambda p: index(model_dir(p), {}, extra=deep()).parent, ("model.safetensors.index.json", "nest")),
    "index_duplicate_keys": (lambda p: index(model_dir(p), {}, extra='{"weight_map": {"%s": "a.safetensors", "%s": '
                                             '"b.safetensors"}}' % (POS, POS)).parent, ("duplicate", POS)),
    "index_over_limit": (lambda p: _sparse_json(model_dir(p) / "model.safetensors.index.json", 300 << 20).parent,
                         ("model.safetensors.index.json", "at most")),
}


def _sparse_json(path: Path, size: int) -> Path:
    with path.open("wb") as fh:
        fh.write(b"{")
        fh.truncate(size)
    return path


@pytest.mark.parametrize("kind", sorted(DIRS))
def test_hostile_model_folder_is_one_line(capsys, tmp_path, kind):
    build, match = DIRS[kind]
    d = build(tmp_path)
    with no_hang():
        line = refused(capsys, "stress", "--pe", f"hf:{d}", "--json", tmp_path / "o.json", match=match)
    assert "no such file" not in line


# ----------------------------------------------------------------------------- config.json: overflow, literals, specials


CONFIGS = {
    "theta_huge_int": (llama_text(rope_theta="1" + "0" * 400), ("rope_theta", "integer")),
    "factor_huge_int": (llama_text(**{"rope_scaling.factor": "1" + "0" * 400}), ("rope_scaling.factor", "integer")),
    "positions_huge_int": (llama_text(max_position_embeddings="1" + "0" * 400), ("max_position_embeddings", "integer")),
    "hidden_negative_huge": (llama_text(hidden_size="-1" + "0" * 400), ("hidden_size", "integer")),
    "theta_float_overflow": (llama_text(rope_theta="1e400"), ("rope_theta", "1e400")),
    "factor_float_overflow": (llama_text(**{"rope_scaling.factor": "-1e400"}), ("rope_scaling.factor", "1e400")),
    "theta_nan_literal": (llama_text(rope_theta="NaN"), ("rope_theta", "NaN")),
    "factor_infinity_literal": (llama_text(**{"rope_scaling.factor": "Infinity"}), ("rope_scaling.factor", "Infinity")),
    "low_freq_minus_infinity": (llama_text(**{"rope_scaling.low_freq_factor": "-Infinity"}),
                                ("rope_scaling.low_freq_factor", "-Infinity")),
    "duplicate_key": ('{"model_type": "llama", "rope_theta": 10000.0, "rope_theta": 500000.0, "hidden_size": 4096, '
                      '"num_attention_heads": 32}', ("duplicate", "rope_theta")),
    "deep_nesting": ('{"model_type": "llama", "x": %s}' % deep(), ("config.json", "nest")),
    "model_type_list": (json.dumps({**LLAMA, "model_type": ["llama"]}), ("model_type",)),
    "negative_positions": (json.dumps({**LLAMA, "max_position_embeddings": -8192}), ("max_position_embeddings",)),
    "lone_surrogate": (json.dumps({**LLAMA, "model_type": "\ud800"}), ("config.json", "surrogate")),
    "control_chars": (json.dumps({**LLAMA, "model_type": "llama\n\x1b[31mred"}), ("model_type",)),
}


@pytest.mark.parametrize("kind", sorted(CONFIGS))
@pytest.mark.parametrize("command", ["report", "spectrum"])
def test_hostile_config_json_is_one_line(capsys, tmp_path, kind, command):
    text, match = CONFIGS[kind]
    cfg = config(tmp_path, text)
    rc, out, err = cli(capsys, command, "--pe", f"hf:{cfg.parent}", "--json", tmp_path / "o.json")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "Traceback" not in err, err
    for m in match:
        assert m in lines[0], (m, lines[0])
    assert "unhashable" not in err and "OverflowError" not in err and "\x1b" not in err
    assert not (tmp_path / "o.json").exists()


def test_a_config_with_a_byte_order_mark_is_read(capsys, tmp_path):
    """RFC 8259 lets a parser ignore a leading BOM; editors on Windows write one."""
    cfg = model_dir(tmp_path) / "config.json"
    cfg.write_bytes(b"\xef\xbb\xbf" + json.dumps(LLAMA).encode())
    rc, out, err = cli(capsys, "spectrum", "--pe", str(cfg), "--length", "64")
    assert rc == 0, err


@pytest.mark.parametrize("make,match", [
    (lambda p: fifo(model_dir(p) / "config.json").parent, ("config.json", "not a regular file")),
    (lambda p: loop(model_dir(p) / "config.json").parent, ("config.json", "symbolic link")),
    (lambda p: (model_dir(p) / "config.json").mkdir() or p / "model", ("config.json", "directory")),
    (lambda p: (_outside(p), os.symlink(p / "outside" / "c.json", model_dir(p) / "config.json"),
                (p / "outside" / "c.json").write_text(json.dumps(LLAMA)))[0].parent.parent / "model",
     ("config.json", "leaves the model folder")),
], ids=["fifo", "symlink_loop", "directory", "symlink_out"])
def test_special_config_files_in_a_model_folder(capsys, tmp_path, make, match):
    d = make(tmp_path)
    with no_hang():
        line = refused(capsys, "report", "--pe", f"hf:{d}", match=match)
    assert "no such file" not in line and "not the table" not in line


@pytest.mark.parametrize("make,match", [
    (lambda p: fifo(p / "c" / "config.json"), ("config.json", "not a regular file")),
    (lambda p: loop(p / "c" / "config.json"), ("config.json", "symbolic link")),
    (lambda p: (p / "c" / "config.json").mkdir(parents=True) or p / "c" / "config.json", ("config.json", "directory")),
], ids=["fifo", "symlink_loop", "directory"])
def test_special_config_paths_given_directly(capsys, tmp_path, make, match):
    f = make(tmp_path)
    with no_hang():
        line = refused(capsys, "report", "--pe", f, match=match)
    assert "no such file" not in line and "not the table" not in line


def test_report_on_a_missing_folder_says_so(capsys, tmp_path):
    line = refused(capsys, "report", "--pe", f"hf:{tmp_path / 'nowhere'}", match=("nowhere", "not found"))
    assert "not the table" not in line


def test_report_on_a_folder_without_config_says_what_is_missing(capsys, tmp_path):
    d = model_dir(tmp_path)
    good_st(d / "model.safetensors")
    line = refused(capsys, "report", "--pe", f"hf:{d}", match=("config.json",))
    assert "not the table" not in line


def test_mpt_with_rotary_positions_is_not_called_learned(capsys, tmp_path):
    cfg = {"model_type": "mpt", "d_model": 4096, "n_heads": 32, "max_seq_len": 4096,
           "attn_config": {"alibi": False, "rope": True, "rope_theta": 10000}}
    d = config(tmp_path, json.dumps(cfg)).parent
    rc, out, err = cli(capsys, "report", "--pe", f"hf:{d}")
    assert "learned positions" not in err, err
    assert rc in (0, 2) and "Traceback" not in err


# ----------------------------------------------------------------------------- run folders (extend)


def _run_dir(p: Path, *, config_text: str | None = None, state=None, raw: bytes | None = None) -> Path:
    import torch

    from petheory.nn import preset
    from petheory.nn.training import CHECKPOINT, CONFIG

    run = p / "run"
    run.mkdir()
    cfg = preset("passkey", "smoke")
    (run / CONFIG).write_text(config_text if config_text is not None else json.dumps({**cfg.as_dict(), "hash": cfg.hash()}))
    if raw is not None:
        (run / CHECKPOINT).write_bytes(raw)
    else:
        torch.save(state if state is not None else {"format": "petheory-checkpoint-1"}, run / CHECKPOINT)
    return run


RUNS = {
    "config_list": (lambda p: _run_dir(p, config_text="[1, 2]"), ("config.json", "object")),
    "config_huge_int": (lambda p: _run_dir(p, config_text='{"seed": %s}' % ("9" * 400)), ("config.json", "seed", "integer")),
    "config_nan": (lambda p: _run_dir(p, config_text='{"seed": NaN}'), ("config.json", "seed", "NaN")),
    "checkpoint_without_model_config": (lambda p: _run_dir(p, state={"format": "petheory-checkpoint-1", "model": {}}),
                                        ("checkpoint.pt", "model_config")),
    "raw_pickle_checkpoint": (lambda p: _run_dir(p, raw=pickle.dumps(Marker(p / "PWNED"))), ("checkpoint.pt",)),
}


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_broken_run_folders_are_one_line(capsys, tmp_path, kind):
    build, match = RUNS[kind]
    run = build(tmp_path)
    refused(capsys, "extend", run, "--lengths", "32", match=match)  # one line: no torch warning before it
    assert no_marker(tmp_path / "PWNED")


def test_run_config_fifo_does_not_hang(capsys, tmp_path):
    run = tmp_path / "run"
    fifo(run / "config.json")
    (run / "checkpoint.pt").write_bytes(b"x")
    with no_hang():
        refused(capsys, "extend", run, match=("config.json", "not a regular file"))


# ----------------------------------------------------------------------------- records with NaN, too deep, too big

NAN_RECORD = {"task": "running_sum", "pe": "sinusoidal", "seed": 0, "train_len": 50,
              "config": {"task": {"name": "running_sum", "params": {"n_train": 256}}},
              "model": {"d_model": 16, "n_layer": 2, "n_head": 2},
              "final": {"train": {"mse": "@NAN@"}, "test": {L: {"mse": "@NAN@"} for L in ("50", "100", "200")}},
              "history": [{"epoch": 1, "train_loss": 1.0}]}

RECORDS = {
    "nan_metrics": json.dumps(NAN_RECORD).replace('"@NAN@"', "NaN"),
    "infinity_metrics": json.dumps(NAN_RECORD).replace('"@NAN@"', "Infinity"),
    "deep": deep(),
    "huge_seed": json.dumps({**NAN_RECORD, "seed": "@S@"}).replace('"@NAN@"', "0.5").replace('"@S@"', "9" * 400),
    "duplicate_keys": json.dumps(NAN_RECORD).replace('"@NAN@"', "0.5").replace('"seed": 0', '"seed": 0, "seed": 1'),
}


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_compare_skips_a_hostile_record_and_names_it(capsys, tmp_path, kind):
    rec = tmp_path / "recs" / "a" / "record.json"
    rec.parent.mkdir(parents=True)
    rec.write_text(RECORDS[kind])
    rc, out, err = cli(capsys, "compare", "--pe", "sinusoidal", "--length", "16", "--null-draws", "2", "--records",
                       tmp_path / "recs", "--json", tmp_path / "c.json")
    assert rc == 0, err
    assert f"skipping {rec}" in err and "Traceback" not in err
    json.loads((tmp_path / "c.json").read_text())  # valid JSON, no NaN literal
    rc, out, err = cli(capsys, "compare", "--pe", "sinusoidal", "--length", "16", "--null-draws", "2", "--records", tmp_path / "recs")
    assert rc == 0 and "nan" not in out.lower().replace("nanogpt", ""), out


def test_records_api_refuses_nan_metrics(tmp_path):
    from petheory import records

    f = tmp_path / "r.json"
    f.write_text(RECORDS["nan_metrics"])
    with pytest.raises(ValueError, match="NaN"):
        records.read(f)


# ----------------------------------------------------------------------------- corpora, plugins, environment


def test_petheory_corpus_pointing_nowhere_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("PETHEORY_CORPUS", str(tmp_path / "nowhere.txt"))
    refused(capsys, "check", "-q", "--claims", "cirrincione2026.alibi_rank1", "--json", tmp_path / "c.json",
            match=("PETHEORY_CORPUS", "nowhere.txt"))


def test_petheory_corpus_is_documented():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "reliability.md").read_text(encoding="utf-8")
    assert "PETHEORY_CORPUS" in readme


@pytest.mark.parametrize("make,match", [
    (lambda p: fifo(p / "corpus.txt"), ("corpus.txt", "not a regular file")),
    (lambda p: (p / "corpus.txt").mkdir() or p / "corpus.txt", ("corpus.txt", "directory")),
    (lambda p: loop(p / "corpus.txt"), ("corpus.txt", "symbolic link")),
], ids=["fifo", "directory", "symlink_loop"])
def test_special_corpus_files(capsys, tmp_path, make, match):
    f = make(tmp_path)
    with no_hang():
        refused(capsys, "stress", "--pe", "sinusoidal", "--corpus", f, match=match)


@pytest.mark.parametrize("make,match", [
    (lambda p: fifo(p / "plug.py"), ("plug.py", "not a regular file")),
    (lambda p: (p / "plug.py").mkdir() or p / "plug.py", ("plug.py", "directory")),
], ids=["fifo", "directory"])
def test_special_plugin_files(capsys, tmp_path, make, match):
    f = make(tmp_path)
    with no_hang():
        refused(capsys, "encodings", "--plugin", f, match=match)


# ----------------------------------------------------------------------------- outputs


def test_report_figure_does_not_replace_another_commands_json(capsys, tmp_path):
    target = tmp_path / "X.json"
    target.write_text('{"petheory": "0", "claims": []}\n')
    before = target.read_bytes()
    refused(capsys, "report", "--pe", "rope", "--length", "64", "--context", "32", "--null-draws", "2",
            "--figure", tmp_path / "X.png", match=("X.json", "refusing to replace"))
    assert target.read_bytes() == before and not (tmp_path / "X.png").exists()


def test_full_disk_names_the_file(capsys, tmp_path, monkeypatch):
    import errno

    from petheory import io as pio

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pio.os, "fsync", full)
    np.save(tmp_path / "pe.npy", TABLE)
    refused(capsys, *SPEC, tmp_path / "out.json", "--pe", tmp_path / "pe.npy", match=("out.json", "No space left"))
    assert files_under(tmp_path) == ["pe.npy"]


@pytest.mark.parametrize("argv", [
    ["report", "--pe", "rope", "--length", "100000000000"],
    ["report", "--pe", "rope", "--context", "1000000000", "--length", "4096"],
], ids=["length", "context"])
def test_report_estimates_memory_before_a_huge_length(capsys, argv):
    with no_hang(60):
        refused(capsys, *argv, "--max-memory", "1G", "--null-draws", "2", match=("needs about",))


def test_report_estimates_memory_for_a_huge_config_context(capsys, tmp_path):
    d = config(tmp_path, json.dumps({**LLAMA, "max_position_embeddings": 1 << 30})).parent
    with no_hang(60):
        refused(capsys, "report", "--pe", f"hf:{d}", "--max-memory", "1G", "--null-draws", "2", match=("needs about",))


# ----------------------------------------------------------------------------- an ASCII-only terminal


def _ascii_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "PYTHONIOENCODING", "PYTHONUTF8"))}
    env.update(LANG="C", LC_ALL="C", PYTHONUTF8="0")
    return env


@pytest.mark.parametrize("argv", [
    ["spectrum", "--pe", "{npy}"],
    ["compare", "--pe", "sinusoidal", "--length", "16", "--null-draws", "2", "--records", "{tmp}"],
    ["encodings"],
    ["spectrum", "--pe", "{tmp}/\u03bb-\u0151.npy"],
], ids=["spectrum", "compare", "encodings", "error-with-non-ascii-path"])
def test_an_ascii_terminal_gets_ascii(tmp_path, argv):
    np.save(tmp_path / "pe.npy", TABLE)
    args = [a.format(npy=tmp_path / "pe.npy", tmp=tmp_path) for a in argv]
    r = subprocess.run([sys.executable, "-m", "petheory", *args], capture_output=True, env=_ascii_env(), timeout=HANG_S)
    err = r.stderr.decode("ascii", "replace")
    assert "UnicodeEncodeError" not in err and "internal error" not in err, err
    assert r.returncode == (2 if "error" in argv[-1] or "\u03bb" in argv[-1] else 0), err
    r.stdout.decode("ascii")  # every byte printed is ASCII
    r.stderr.decode("ascii")


def test_readme_states_the_reader_limits():
    """The Reliability page's limits table is generated from petheory.loaders.limits (python -m petheory.loaders.limits --write)."""
    from petheory.loaders import limits

    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "reliability.md").read_text(encoding="utf-8")
    a, b = readme.index(limits.BEGIN) + len(limits.BEGIN), readme.index(limits.END)
    assert readme[a:b].strip("\n") == limits.limits_table()
    assert str(limits.JSON_MAX_DEPTH) in limits.limits_table()


@pytest.mark.parametrize("suffix", [".json", ".toml"])
@pytest.mark.parametrize("make,match", [
    (fifo, "not a regular file"),
    (loop, "symbolic link"),
], ids=["fifo", "symlink_loop"])
def test_special_grid_files(capsys, tmp_path, suffix, make, match):
    f = make(tmp_path / f"grid{suffix}")
    with no_hang():
        line = refused(capsys, "sweep", f, "--out", tmp_path / "out", match=(f"grid{suffix}", match))
    assert "no such" not in line
