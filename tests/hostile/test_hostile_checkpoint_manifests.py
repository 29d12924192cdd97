"""Hostile checkpoint manifests for ``tools/gpu/gpu_records.py --unpack-checkpoints`` (what a GPU machine returns):
every part a regular file inside the manifest's folder, read no further than its declared size, every target a
``checkpoint.pt`` of an unfinished run inside ``--runs``; a refusal is one line and exit 2, and nothing under
``--runs`` changes."""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
from hostile_util import snapshot

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "gpu"))
import gpu_records as G  # noqa: E402

SECRET = b"outside the checkpoint folder"


def _tool(capsys, *argv):
    capsys.readouterr()
    rc = G.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _refused(capsys, *argv, match=()) -> str:
    rc, out, err = _tool(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == 2, (rc, out, err)
    assert "Traceback" not in err and len(lines) == 1 and lines[0].startswith("gpu_records.py: error:"), err
    for m in (match,) if isinstance(match, str) else match:
        assert m in lines[0], (m, lines[0])
    return lines[0]


@pytest.fixture
def setup(tmp_path):
    """A runs folder with one unfinished run (its checkpoint) and one finished run; a secret file beside the parts."""
    runs, src = tmp_path / "runs", tmp_path / "packed"
    (runs / "a").mkdir(parents=True)
    (runs / "a" / "checkpoint.pt").write_bytes(b"epoch 3 state")
    (runs / "done").mkdir()
    (runs / "done" / "record.json").write_text('{"finished": true}')
    (runs / "done" / "checkpoint.pt").write_bytes(b"final state")
    src.mkdir()
    (tmp_path / "secret.txt").write_bytes(SECRET)
    return runs, src, tmp_path


def _manifest(src: Path, parts, *, path="a/checkpoint.pt", nbytes=None, data=SECRET):
    (src / G.MANIFEST).write_text(json.dumps({"checkpoints": [
        {"path": path, "bytes": len(data) if nbytes is None else nbytes, "sha256": hashlib.sha256(data).hexdigest(),
         "parts": parts}]}))


def test_parts_outside_the_folder_or_not_regular_files_are_refused(capsys, setup):
    runs, src, tmp = setup
    os.symlink(tmp / "secret.txt", src / "link")
    before = snapshot(runs)
    for parts, match in [(["../secret.txt"], "leaves the checkpoint folder"),
                         ([str(tmp / "secret.txt")], "leaves the checkpoint folder"),
                         (["link"], "leaves the checkpoint folder"),
                         (["/dev/zero"], "leaves the checkpoint folder"),
                         (["."], "directory")]:
        _manifest(src, parts)
        _refused(capsys, "--runs", runs, "--unpack-checkpoints", src, match=("checkpoints[0]", match))
        assert snapshot(runs) == before  # nothing read outside lands under runs
    assert not any(SECRET in b for b in snapshot(runs).values())


def test_a_part_larger_than_declared_is_refused_before_a_byte_is_read(capsys, setup):
    runs, src, _ = setup
    with open(src / "big.part", "wb") as fh:  # 4 GiB, sparse: reading it whole would take seconds and 4 GiB
        fh.truncate(4 << 30)
    _manifest(src, ["big.part"], nbytes=4000)
    before = snapshot(runs)
    _refused(capsys, "--runs", runs, "--unpack-checkpoints", src, match=f"hold {4 << 30} bytes, the manifest declares 4000")
    assert snapshot(runs) == before


@pytest.mark.parametrize("path,match", [
    ("../../elsewhere/checkpoint.pt", "leaves the runs folder"),
    ("/tmp/checkpoint.pt", "leaves the runs folder"),
    ("done/record.json", "must name a run's checkpoint.pt"),
    ("done/checkpoint.pt", "finished run"),
])
def test_targets_outside_runs_or_of_finished_runs_are_refused(capsys, setup, path, match):
    runs, src, _ = setup
    (src / "p0").write_bytes(SECRET)
    _manifest(src, ["p0"], path=path)
    before = snapshot(runs)
    _refused(capsys, "--runs", runs, "--unpack-checkpoints", src, match=match)
    assert snapshot(runs) == before
    assert not (setup[2] / "elsewhere").exists()


def test_unpacking_is_a_set_one_bad_checkpoint_leaves_every_run_as_it_was(capsys, setup):
    runs, src, _ = setup
    (runs / "b").mkdir()
    (runs / "b" / "checkpoint.pt").write_bytes(b"b state")
    good, bad = b"new a state", b"new b state"
    (src / "p0").write_bytes(good)
    (src / "p1").write_bytes(bad[:-1] + b"X")  # its SHA-256 does not match: found while staging, after p0 was staged
    (src / G.MANIFEST).write_text(json.dumps({"checkpoints": [
        {"path": "a/checkpoint.pt", "bytes": len(good), "sha256": hashlib.sha256(good).hexdigest(), "parts": ["p0"]},
        {"path": "b/checkpoint.pt", "bytes": len(bad), "sha256": hashlib.sha256(bad).hexdigest(), "parts": ["p1"]}]}))
    before = snapshot(runs)
    _refused(capsys, "--runs", runs, "--unpack-checkpoints", src, match=("checkpoints[1]", "SHA-256"))
    assert snapshot(runs) == before  # checkpoint a not replaced, no temporary file left


@pytest.mark.parametrize("doc,match", [
    ("[1, 2]", "field 'checkpoints' must be a list"),
    ('{"checkpoints": [{"path": "a/checkpoint.pt", "bytes": -1, "sha256": "0", "parts": ["p"]}]}', "bytes must be"),
    ('{"checkpoints": [{"path": "a/checkpoint.pt", "bytes": 1, "sha256": "xyz", "parts": ["p"]}]}', "sha256 must be"),
    ('{"checkpoints": [{"path": "a/checkpoint.pt", "bytes": 1, "sha256": "' + "0" * 64 + '", "parts": []}]}',
     "parts must be"),
    ("{not json", "JSON"),
])
def test_a_malformed_manifest_is_one_line_naming_the_field(capsys, setup, doc, match):
    runs, src, _ = setup
    (src / G.MANIFEST).write_text(doc)
    before = snapshot(runs)
    _refused(capsys, "--runs", runs, "--unpack-checkpoints", src, match=match)
    assert snapshot(runs) == before


def test_every_refusal_of_the_tool_is_one_line(capsys, tmp_path):
    _refused(capsys, "no_such_stage", match="unknown stage")
    _refused(capsys, "--budget", "abc", match="--budget")
    _refused(capsys, "--unpack-checkpoints", tmp_path / "missing", match="no such file")


def test_a_packed_checkpoint_still_travels_and_comes_back_whole(capsys, tmp_path):
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    data = os.urandom(3000)
    (runs / "a" / "checkpoint.pt").write_bytes(data)
    G.pack_checkpoints(runs, tmp_path / "packed", part_bytes=1000)
    fresh = tmp_path / "fresh"
    rc, out, err = _tool(capsys, "--runs", fresh, "--unpack-checkpoints", tmp_path / "packed")
    assert rc == 0, err
    assert (fresh / "a" / "checkpoint.pt").read_bytes() == data
