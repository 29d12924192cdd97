"""Messages that stay one short line whatever the input holds (a 1 MiB GGUF string, a newline in a GGUF key, a raw
environment variable), and inputs that crashed instead of being refused (a GGUF context of 2^64-1, ``--seed -1``)."""

from __future__ import annotations

import struct

import pytest
from gguf_util import gguf_kv, gguf_string, llama_gguf
from hostile_util import cli, files_under, refused

pytest.importorskip("gguf")


def test_a_megabyte_gguf_string_is_not_echoed(capsys, tmp_path):
    f = llama_gguf(tmp_path / "s.gguf", extra=gguf_kv("llama.rope.scaling.type", 8, gguf_string("x" * (1 << 20))), n_extra=1)
    line = refused(capsys, "report", "--pe", f"gguf:{f}", match=("llama.rope.scaling.type", "string of 1048576 bytes"))
    assert len(line) < 400, len(line)


def test_a_megabyte_architecture_name_is_not_echoed(capsys, tmp_path):
    arch = "a" * 4000  # kept (<= 4096 bytes) and named in the refusal: shortened there
    f = tmp_path / "a.gguf"
    f.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gguf_kv("general.architecture", 8, gguf_string(arch)))
    line = refused(capsys, "report", "--pe", f"gguf:{f}", match=("not read by petheory", "(4000 characters)"))
    assert len(line) < 600, len(line)


def test_a_newline_in_a_gguf_key_does_not_cut_the_reason_off(capsys, tmp_path):
    f = llama_gguf(tmp_path / "k.gguf", extra=gguf_kv("llama.rope.evil\nkey", 6, struct.pack("<f", 1.0)), n_extra=1)
    refused(capsys, "report", "--pe", f"gguf:{f}", match=("llama.rope.evil\\nkey is not understood", "understood under"))


def test_a_gguf_context_past_llama_cpps_uint32_is_refused(capsys, tmp_path):
    f = tmp_path / "c.gguf"
    llama_gguf(f)
    data = f.read_bytes().replace(gguf_kv("llama.context_length", 4, struct.pack("<I", 4096)),
                                  gguf_kv("llama.context_length", 10, struct.pack("<Q", 2**64 - 1)))
    f.write_bytes(data)
    for argv in (["rotate", "--out", tmp_path / "o"], ["report"], ["plan", "--length", "8192"]):
        refused(capsys, argv[0], "--pe", f"gguf:{f}", *argv[1:], match=("context_length = 18446744073709551615", "uint32"))
    assert files_under(tmp_path / "o") == []


@pytest.mark.parametrize("seed,bound", [("-1", ">= 0"), (str(2**64), f"<= {2**63 - 1}")])
def test_rotate_seeds_outside_numpys_range_are_refused(capsys, tmp_path, seed, bound):
    refused(capsys, "rotate", "--pe", "rope", "--seed", seed, "--out", tmp_path / "o", match=f"--seed must be {bound}")
    assert files_under(tmp_path / "o") == []


def test_a_long_positions_argument_is_not_echoed_whole(capsys, tmp_path):
    text = "1," * 70000
    line = refused(capsys, "rotate", "--pe", "rope", "--positions", text, "--out", tmp_path / "o", match="at most 65536")
    assert len(line) < 300


@pytest.mark.parametrize("value", ["main\nInjected: yes", "../../etc", "x" * 100, "g" * 40])
def test_petheory_commit_must_be_a_commit_id(capsys, monkeypatch, value):
    monkeypatch.setenv("PETHEORY_COMMIT", value)
    line = refused(capsys, "encodings", match=("PETHEORY_COMMIT", "must be a git commit id"))
    assert "\n" not in line and len(line) < 400


def test_a_valid_petheory_commit_goes_into_records_as_given(monkeypatch):
    from petheory.nn.training import _commit

    monkeypatch.setenv("PETHEORY_COMMIT", "d7e8712")
    assert _commit() == "d7e8712"


def test_the_guide_lists_petheory_commit():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "reliability.md").read_text()
    assert "PETHEORY_COMMIT" in guide


def test_rotate_accepts_exactly_what_its_error_says(capsys, tmp_path):
    rc, _, err = cli(capsys, "rotate", "--pe", "rope", "-d", "2", "--positions", "0:65536", "--out", tmp_path / "a")
    assert rc == 0, err
    refused(capsys, "rotate", "--pe", "rope", "-d", "2", "--positions", "0:65536,70000", "--out", tmp_path / "b",
            match="at most 65536 positions in all")
