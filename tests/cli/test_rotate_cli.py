"""``petheory rotate``: the .npy reference an engine author diffs with, written atomically, never over an earlier run."""

from __future__ import annotations

import json

import numpy as np
from hostile_util import cli, files_under, refused

from petheory.encodings import rotate
from petheory.loaders import resolve_scheme

FILES = ["k.npy", "k_rotated.npy", "positions.npy", "q.npy", "q_rotated.npy", "rotate.json"]


def test_rotate_writes_the_reference_and_says_how_it_was_made(tmp_path, capsys):
    out = tmp_path / "ref"
    rc, stdout, err = cli(capsys, "rotate", "--pe", "rope:pairing=half,rotary_dim=8", "-d", "16", "--positions",
                          "0,1,4095", "--heads", "2", "--seed", "3", "--out", out)
    assert rc == 0, err
    assert files_under(out) == FILES
    q, pos, qr = (np.load(out / f) for f in ("q.npy", "positions.npy", "q_rotated.npy"))
    assert q.shape == (2, 3, 16) and pos.tolist() == [0, 1, 4095]
    layer = resolve_scheme("rope:pairing=half,rotary_dim=8", d=16).layers[0]
    assert np.array_equal(qr, rotate(q, pos, layer))
    meta = json.loads((out / "rotate.json").read_text())
    assert meta["pairing"] == "half" and meta["rotary_dim"] == 8 and meta["seed"] == 3
    assert meta["rotated_first"] == [0, 1, 2, 3] and meta["rotated_second"] == [4, 5, 6, 7]
    assert meta["passthrough"] == list(range(8, 16))
    assert "8 of 16 dimensions rotate" in stdout


def test_a_wrong_pairing_shows_as_an_error_of_the_size_of_q(tmp_path, capsys):
    """The docs' recipe: an engine that rotates adjacent pairs where the model pairs halves is caught by the diff."""
    out = tmp_path / "ref"
    assert cli(capsys, "rotate", "--pe", "rope:pairing=half", "-d", "64", "--out", out)[0] == 0
    q, pos, qr = (np.load(out / f) for f in ("q.npy", "positions.npy", "q_rotated.npy"))
    wrong = rotate(q, pos, resolve_scheme("rope:pairing=interleaved", d=64).layers[0])
    assert np.abs(wrong - qr).max() > 0.1 * np.abs(q).max()
    assert np.abs(rotate(q, pos, resolve_scheme("rope:pairing=half", d=64).layers[0]) - qr).max() == 0


def test_rotate_refuses_to_overwrite_an_earlier_output_unless_forced(tmp_path, capsys):
    out = tmp_path / "ref"
    assert cli(capsys, "rotate", "--pe", "rope", "--out", out, "--seed", "1")[0] == 0
    before = (out / "q.npy").read_bytes()
    refused(capsys, "rotate", "--pe", "rope", "--out", out, "--seed", "2", match="--force")
    assert (out / "q.npy").read_bytes() == before
    assert cli(capsys, "rotate", "--pe", "rope", "--out", out, "--seed", "2", "--force")[0] == 0
    assert (out / "q.npy").read_bytes() != before


def test_rotate_refuses_what_rotates_nothing_and_bad_options(tmp_path, capsys):
    refused(capsys, "rotate", "--pe", "alibi", "--out", tmp_path / "a", match="nothing rotates")
    refused(capsys, "rotate", "--pe", "rope", "--positions", "1,x", "--out", tmp_path / "b", match="--positions")
    # the positions' range and the layer's index are rotation_reference's, said as the flags that feed them
    refused(capsys, "rotate", "--pe", "rope", "--positions", "-3", "--out", tmp_path / "b",
            match="error: --positions must be >= 0, got -3")
    refused(capsys, "rotate", "--pe", "rope", "--layer", "4", "--out", tmp_path / "b",
            match="error: --layer must be a layer of the model, 0..0, got 4")
    refused(capsys, "rotate", "--pe", "rope", "--layer-kind", "sliding_attention", "--out", tmp_path / "b",
            match="no rotary layer")
    assert files_under(tmp_path) == []


def test_rotate_refuses_sizes_beyond_the_memory_limit(tmp_path, capsys):
    refused(capsys, "rotate", "--pe", "rope", "-d", "4096", "--heads", "4096", "--positions", "0:65536", "--out",
            tmp_path / "big", "--max-memory", "1G", match="rotated q and k")
    assert files_under(tmp_path) == []
