"""A write is a set or nothing: commands that write several files (rotate, figures, plan with two outputs, unpacking
checkpoints: see test_hostile_checkpoint_manifests) stage them and swap them in together, so a full disk leaves the
earlier set whole; two outputs naming one file and another command's output are refused before any work."""

from __future__ import annotations

import errno
import json

import pytest
from hostile_util import cli, files_under, refused, snapshot

from petheory import io as pio


def _full_disk_after(monkeypatch, n_files: int):
    """The disk fills while the (n_files + 1)-th file of a set is written (petheory.io._fill, where every staged
    file is written)."""
    real, calls = pio._fill, []

    def fill(fd, path, write):
        calls.append(path)
        if len(calls) > n_files:
            import os

            os.close(fd)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, path, write)

    monkeypatch.setattr(pio, "_fill", fill)
    return calls


def test_a_failed_rotate_force_leaves_the_earlier_set_whole(capsys, monkeypatch, tmp_path):
    out = tmp_path / "ref"
    rc, _, err = cli(capsys, "rotate", "--pe", "rope", "--out", out)
    assert rc == 0, err
    before = snapshot(out)
    calls = _full_disk_after(monkeypatch, 4)  # q, k, positions, q_rotated staged; k_rotated hits the full disk
    refused(capsys, "rotate", "--pe", "rope:base=500000", "--seed", "7", "--out", out, "--force",
            match=("No space left on device", "k_rotated.npy"))
    assert len(calls) == 5
    assert snapshot(out) == before  # the six files of the first run, byte for byte; no temporary file left


def test_a_failed_plan_leaves_both_earlier_outputs(capsys, monkeypatch, tmp_path):
    js, md = tmp_path / "p.json", tmp_path / "p.md"
    rc, _, err = cli(capsys, "plan", "--pe", "rope", "--length", "8192", "--json", js, "--markdown", md, "-q")
    assert rc == 0, err
    before = snapshot(tmp_path)
    _full_disk_after(monkeypatch, 1)
    refused(capsys, "plan", "--pe", "rope", "--length", "16384", "--json", js, "--markdown", md, "-q",
            match="No space left on device")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("second", ["same", "./same", "link"])
def test_two_outputs_naming_one_file_are_refused(capsys, tmp_path, monkeypatch, second):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "same").write_text("earlier")
    (tmp_path / "link").symlink_to(tmp_path / "same")
    refused(capsys, "plan", "--pe", "rope", "--length", "8192", "--json", "same", "--markdown", second,
            match=("--json and --markdown both name", "give each output its own file"))
    assert (tmp_path / "same").read_text() == "earlier"


def test_plan_d_0_is_refused_not_planned_at_128(capsys, tmp_path):
    refused(capsys, "plan", "--pe", "rope", "-d", "0", "--length", "8192", "--json", tmp_path / "p.json",
            match="--d-model must be >= 1, got 0")
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("doc", [{"petheory": "0.1.0", "claims": []}, {"petheory": "0.1.0", "plan": {}},
                                 {"petheory_rotate": "0.1.0"}, {"mine": 1}, [1, 2]])
def test_figures_do_not_replace_another_commands_json(capsys, tmp_path, doc):
    (tmp_path / "spectral.szego.json").write_text(json.dumps(doc))
    before = snapshot(tmp_path)
    refused(capsys, "figures", "--only", "spectral.szego", "--out", tmp_path,
            match=("spectral.szego.json exists and is not the record of figure spectral.szego", "refusing"))
    assert snapshot(tmp_path) == before


def test_a_figure_is_written_as_a_pair_and_redrawn_over_its_own(capsys, monkeypatch, tmp_path):
    rc, _, err = cli(capsys, "figures", "--only", "spectral.szego", "--out", tmp_path, "-q")
    assert rc == 0, err
    assert files_under(tmp_path) == ["spectral.szego.json", "spectral.szego.png"]
    before = snapshot(tmp_path)
    _full_disk_after(monkeypatch, 1)  # the PNG staged, the JSON hits the full disk
    refused(capsys, "figures", "--only", "spectral.szego", "--out", tmp_path, "-q", match="No space left on device")
    assert snapshot(tmp_path) == before
    monkeypatch.undo()
    rc, _, err = cli(capsys, "figures", "--only", "spectral.szego", "--out", tmp_path, "-q")
    assert rc == 0, err  # its own earlier record is replaced


def test_a_rename_that_fails_puts_back_the_files_already_swapped(monkeypatch, tmp_path):
    import os

    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("old a")
    b.write_text("old b")
    real, seen = os.replace, []

    def replace(src, dst):
        seen.append(dst)
        if str(dst) == str(b) and str(src).endswith(".tmp"):
            raise OSError(errno.EIO, "I/O error")
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(OSError, match="I/O error"):
        pio.atomic_write_set({a: lambda fh: fh.write(b"new a"), b: lambda fh: fh.write(b"new b")})
    monkeypatch.undo()
    assert (a.read_text(), b.read_text()) == ("old a", "old b")
    assert files_under(tmp_path) == ["a", "b"]
