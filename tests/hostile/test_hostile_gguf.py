"""Hostile GGUF files (``--pe gguf:FILE``): one line, exit 2, what is wrong named; no hang, no allocation, nothing written."""

from __future__ import annotations

import os
import struct

import pytest
from gguf_util import write_gguf
from hostile_util import files_under, refused

pytest.importorskip("gguf")


def _raw(path, *, version=3, n_tensors=0, n_kv=0, body=b""):
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", version, n_tensors, n_kv) + body)
    return path


def _kv(key: bytes, vtype: int, payload: bytes) -> bytes:
    return struct.pack("<Q", len(key)) + key + struct.pack("<I", vtype) + payload


def _file_rows(tmp):
    good = write_gguf(tmp / "good.gguf", "llama")
    data = good.read_bytes()
    return [
        ("truncated", (tmp / "t.gguf").write_bytes(data[: len(data) // 2]) and tmp / "t.gguf", ("truncated",)),
        ("not gguf", (tmp / "n.gguf").write_bytes(b"PK\x03\x04" + bytes(40)) and tmp / "n.gguf", ("not a GGUF file",)),
        ("tiny", (tmp / "s.gguf").write_bytes(b"GGUF") and tmp / "s.gguf", ("at least 24",)),
        ("version", _raw(tmp / "v.gguf", version=7), ("version 7",)),
        ("big-endian", _raw(tmp / "b.gguf", version=3 << 24), ("big-endian",)),
        ("kv count", _raw(tmp / "k.gguf", n_kv=2**60), ("metadata entries",)),
        ("tensor count", _raw(tmp / "c.gguf", n_tensors=2**62), ("tensors",)),
        ("key length", _raw(tmp / "l.gguf", n_kv=1, body=struct.pack("<Q", 2**40)), ("metadata key 0",)),
        ("string", _raw(tmp / "str.gguf", n_kv=1, body=_kv(b"general.name", 8, struct.pack("<Q", 2**50))), ("string",)),
        ("array", _raw(tmp / "a.gguf", n_kv=1, body=_kv(b"x", 9, struct.pack("<IQ", 4, 2**40))), ("elements",)),
        ("array past end", _raw(tmp / "ae.gguf", n_kv=1, body=_kv(b"x", 9, struct.pack("<IQ", 4, 1000))), ("truncated",)),
        ("nested", _raw(tmp / "ne.gguf", n_kv=1, body=_kv(b"x", 9, struct.pack("<IQ", 9, 1) + struct.pack("<IQ", 4, 1))),
         ("array of arrays",)),
        ("value type", _raw(tmp / "vt.gguf", n_kv=1, body=_kv(b"x", 99, b"")), ("value type 99",)),
        ("no arch", _raw(tmp / "na.gguf"), ("general.architecture",)),
    ]


def test_hostile_gguf_files_are_refused_in_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    for name, path, match in _file_rows(tmp_path):
        refused(capsys, "rotate", "--pe", f"gguf:{path}", "--out", out, match=match)
    assert files_under(out) == []


def test_a_tensor_whose_data_lies_past_the_end_is_refused(tmp_path, capsys):
    f = write_gguf(tmp_path / "x.gguf", "llama", tensors=("a.weight", "b.weight"))
    os.truncate(f, os.path.getsize(f) - 31)  # the padding (28 bytes) and 3 of the last tensor's 4 bytes are gone
    refused(capsys, "report", "--pe", f"gguf:{f}", match=("tensor 1", "past the end"))


@pytest.mark.parametrize("kw,match", [
    ({"arch": "mamba"}, ("architecture 'mamba'", "supported:")),
    ({"extra": {"llama.rope.scaling.yarn_ext_factor": 0.5}}, "llama.rope.scaling.yarn_ext_factor is not understood"),
    ({"extra": {"llama.attention.scale": 0.5}}, "llama.attention.scale is not understood"),
    ({"tensors": ("rope_freqs.weight",)}, "rope_freqs"),
    ({"extra": {"llama.rope.scaling.type": "longrope"}}, "longrope"),
    ({"heads": [4, 4, 4, 4]}, ("head_count", "per-layer")),
    ({"extra": {"llama.rope.dimension_count": 32}}, "invalid n_rot"),
    ({"extra": {"qwen2.attention.sliding_window": 128}, "arch": "qwen2"}, "does not read it"),
    ({"ctx": 0}, "context_length = 0"),
])
def test_a_field_petheory_does_not_understand_is_refused_by_name(tmp_path, capsys, kw, match):
    kw = dict(kw)
    arch = kw.pop("arch", "llama")
    f = write_gguf(tmp_path / "m.gguf", arch, **kw)
    refused(capsys, "report", "--pe", f"gguf:{f}", match=match)


def test_gguf_paths_that_are_not_regular_files_are_refused(tmp_path, capsys):
    refused(capsys, "report", "--pe", f"gguf:{tmp_path}", match="directory")
    refused(capsys, "report", "--pe", "gguf:", match="gguf: needs a file")
    refused(capsys, "report", "--pe", f"gguf:{tmp_path / 'none.gguf'}", match="no such file")
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.gguf"
        os.mkfifo(fifo)
        refused(capsys, "report", "--pe", f"gguf:{fifo}", match="FIFO")
