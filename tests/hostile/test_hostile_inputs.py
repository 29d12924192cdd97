"""Hostile inputs, classes "non-finite values", "wrong shapes and dtypes", "unknown fields and options",
"malformed JSON/TOML/grid files": one line, exit 2, the message says what is wrong, nothing written."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hostile_util import files_under, refused

from petheory import encodings as enc
from petheory import geometry
from petheory import toeplitz as tp

# ----------------------------------------------------------------------------- non-finite values


@pytest.mark.parametrize("argv,match", [
    (["spectrum", "--coeffs", "nan,1"], "must be finite"),
    (["spectrum", "--coeffs", "1,inf"], "finite"),
    (["spectrum", "--coeffs", "1,0.5", "--rtol", "nan"], "--rtol must be finite and > 0"),
    (["spectrum", "--kernel", "exponential", "--kernel-length", "nan"], "finite"),
    (["spectrum", "--pe", "sinusoidal:base=inf"], "finite"),
    (["bounds", "--pe", "alibi:slope=nan"], "finite"),
    (["stress", "--pe", "sinusoidal:base=NaN"], "finite"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": 4, "slope": NaN}'], "finite"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": 4, "slope": Infinity}'], "finite"),
    (["train", "running_sum", "--set", "lr=NaN"], "lr must be > 0"),
])
def test_cli_non_finite_values(capsys, tmp_path, argv, match):
    argv = list(argv) + (["--out", tmp_path / "o"] if argv[0] == "train" else ["--json", tmp_path / "r.json"]
                         if argv[0] != "check" else [])
    refused(capsys, *argv, match=match)
    assert files_under(tmp_path) == []


def test_cli_non_finite_files(capsys, tmp_path):
    np.save(tmp_path / "c.npy", np.array([1.0, np.nan]))
    refused(capsys, "spectrum", "--file", tmp_path / "c.npy", match="finite")
    np.save(tmp_path / "t.npy", np.array([[0.0, np.inf], [np.inf, 0.0]]))
    refused(capsys, "stress", "--pe", "sinusoidal", "--target", tmp_path / "t.npy", match="finite")
    np.save(tmp_path / "pe.npy", np.full((8, 4), np.nan))
    refused(capsys, "stress", "--pe", tmp_path / "pe.npy", match="NaN/inf")
    refused(capsys, "spectrum", "--pe", tmp_path / "pe.npy", match="NaN/inf")


@pytest.mark.parametrize("call", [
    lambda: tp.coefficients([1.0, np.nan]),
    lambda: tp.extreme_eigenvalues([np.inf, 0.5]),
    lambda: enc.sinusoidal(4, 4, base=np.nan),
    lambda: enc.alibi(4, slope=np.inf),
    lambda: geometry.hellinger_distances(np.array([[0.5, np.nan], [0.5, 0.5]])),
    lambda: tp.spectral_distribution([1.0, 0.5], tol=np.nan),
])
def test_api_non_finite_values(call):
    with pytest.raises(ValueError, match="finite|NaN"):
        call()


# ----------------------------------------------------------------------------- wrong shapes and dtypes


def test_cli_wrong_shapes_and_dtypes(capsys, tmp_path):
    np.save(tmp_path / "c2.npy", np.ones((3, 3)))
    refused(capsys, "spectrum", "--file", tmp_path / "c2.npy", match="1-D")
    np.save(tmp_path / "s.npy", np.array(["a", "b"]))
    refused(capsys, "spectrum", "--file", tmp_path / "s.npy", match="numbers")
    np.save(tmp_path / "pe1.npy", np.ones(5))
    refused(capsys, "stress", "--pe", tmp_path / "pe1.npy", match="2-D")
    np.save(tmp_path / "pec.npy", np.ones((6, 4), dtype=complex))
    refused(capsys, "stress", "--pe", tmp_path / "pec.npy", match="real numeric")
    np.save(tmp_path / "t.npy", np.ones((3, 4)))
    refused(capsys, "stress", "--pe", "sinusoidal", "--target", tmp_path / "t.npy", match="square")
    np.save(tmp_path / "p.npy", np.array([[0.5, 0.7], [0.2, 0.8]]))
    refused(capsys, "stress", "--pe", "sinusoidal", "--distributions", tmp_path / "p.npy", match="sum")
    refused(capsys, "spectrum", "--coeffs", "1j,2", match="real diagonal")
    refused(capsys, "spectrum", "--coeffs", "1,0.5", "--row", "2,0.5", match="c[0] != r[0]")


@pytest.mark.parametrize("call,exc", [
    (lambda: tp.coefficients(np.ones((2, 2))), ValueError),
    (lambda: tp.coefficients("1,2"), TypeError),
    (lambda: tp.coefficients(np.array([object()])), TypeError),
    (lambda: tp.coefficients([]), ValueError),
    (lambda: tp.coefficients([1.0, 2.0], [1.0]), ValueError),
    (lambda: geometry.hellinger_distances(np.ones(3)), ValueError),
    (lambda: geometry.hellinger_distances(np.array([[0.5, 0.5], [-0.5, 1.5]])), ValueError),
    (lambda: enc.sinusoidal("8", 4), TypeError),
])
def test_api_wrong_shapes_and_dtypes(call, exc):
    with pytest.raises(exc):
        call()


# ----------------------------------------------------------------------------- unknown fields and options


@pytest.mark.parametrize("argv,match", [
    (["spectrum", "--coeffs", "1", "--bogus"], "unrecognized arguments"),
    (["frobnicate"], "invalid choice"),
    (["check", "--claims", "nosuch2099.*"], "matches no registered claim"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"slope": 1.0}'], "case does not fit"),
    (["check", "--claims", "li2025.*", "--case", '{"n": 4}'], "exactly one claim"),
    (["spectrum", "--pe", "nosuchpe"], "nosuchpe"),
    (["spectrum", "--pe", "sinusoidal:colour=red"], "colour"),
    (["spectrum", "--pe", "sinusoidal:noequals"], "key=value"),
    (["bounds", "--pe", "nosuchpe"], "nosuchpe"),
    (["bounds", "--pe", "alibi:colour=1"], "colour"),
    (["stress", "--pe", "nosuchpe"], "nosuchpe"),
    (["stress", "--pe", "sinusoidal:colour=1"], "colour"),
    (["train", "nosuchtask"], "nosuchtask"),
    (["train", "running_sum", "--set", "colour=1"], "colour"),
    (["train", "running_sum", "--set", "task.colour=1"], "colour"),
    (["train", "running_sum", "--set", "noequals"], "key=value"),
    (["train", "running_sum", "--pe", "nosuchpe"], "nosuchpe"),
    (["sweep", "--task", "running_sum", "--set", "colour=1"], "colour"),
    (["figures", "--only", "nosuchfigure"], "nosuchfigure"),
    (["encodings", "--kind", "quantum"], "invalid choice"),
])
def test_cli_unknown_fields_and_options(capsys, tmp_path, argv, match):
    argv = list(argv) + (["--out", tmp_path / "o"] if argv[0] in ("train", "sweep", "figures") else [])
    refused(capsys, *argv, match=match)
    assert files_under(tmp_path) == []


# ----------------------------------------------------------------------------- malformed JSON / TOML / grid files


@pytest.mark.parametrize("name,text,match", [
    ("g.json", '{"task": "running_sum", "seed": [0, 1', "not valid JSON"),
    ("g.json", "[1, 2, 3]", "JSON object"),
    ("g.json", "", "not valid JSON"),
    ("g.json", '{"task": "running_sum", "colour": 1}', "unknown grid key"),
    ("g.json", '{"seed": [0, 1]}', "needs 'task'"),
    ("g.json", '{"task": "running_sum", "seed": []}', "is empty"),
    ("g.json", '{"task": "running_sum", "set": {"colour": 1}}', "colour"),
    ("g.toml", 'task = "running_sum"\nseed = [0, 1\n', "not valid TOML"),
    ("g.toml", "task = \n", "not valid TOML"),
    ("g.toml", 'task = "nosuchtask"\n', "nosuchtask"),
    ("g.yaml", "task: running_sum\n", ".json or .toml"),
    ("g.json", "\x00\x01\x02binary", "not valid JSON"),
])
def test_sweep_malformed_grid_files(capsys, tmp_path, name, text, match):
    grid = tmp_path / name
    grid.write_text(text, encoding="latin-1")
    refused(capsys, "sweep", grid, "--out", tmp_path / "sweep", match=match)
    assert files_under(tmp_path / "sweep") == []


def test_sweep_missing_grid_file(capsys, tmp_path):
    refused(capsys, "sweep", tmp_path / "nope.toml", "--out", tmp_path / "sweep", match="no such grid file")


@pytest.mark.parametrize("case,match", [
    ("{not json", "not valid JSON"),
    ("", "not valid JSON"),
    ('{"n": 4, "slope": 1.0', "not valid JSON"),
    ("[4, 1.0]", "--case must be a JSON object"),
    ('"n=4"', "--case must be a JSON object"),
])
def test_check_malformed_case_json(capsys, case, match):
    refused(capsys, "check", "--claims", "li2025.alibi_monotone_bias", "--case", case, match=match)


def test_spectrum_malformed_text_files(capsys, tmp_path):
    (tmp_path / "c.txt").write_text("1.0\nabc\n0.5\n")
    refused(capsys, "spectrum", "--file", tmp_path / "c.txt", match="could not read")
    (tmp_path / "e.txt").write_text("")
    refused(capsys, "spectrum", "--file", tmp_path / "e.txt", match="empty")
    refused(capsys, "spectrum", "--file", tmp_path / "missing.txt", match="no such file")
    refused(capsys, "spectrum", "--file", tmp_path, match="is a directory; expected a file of Toeplitz coefficients")
    if hasattr(os, "mkfifo"):  # a FIFO is named as one, never waited on
        os.mkfifo(tmp_path / "pipe")
        refused(capsys, "spectrum", "--file", tmp_path / "pipe", match="not a regular file")


def test_stress_malformed_corpus(capsys, tmp_path):
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00\x81 not utf-8 \xc3\x28\n")
    refused(capsys, "stress", "--pe", "sinusoidal", "--corpus", tmp_path / "bin.txt", "--json", tmp_path / "r.json")
    (tmp_path / "empty.txt").write_text("")
    refused(capsys, "stress", "--pe", "sinusoidal", "--corpus", tmp_path / "empty.txt")
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("argv,match", [
    (["bounds", "--pe", "alibi", "--lengths", "1.5"], "--lengths must be integers >= 1, got '1.5'"),
    (["bounds", "--pe", "alibi", "--lengths", ","], "--lengths must be integers >= 1, got []"),
    (["bounds", "--pe", "alibi", "--m", "many"], "--m must be an integer >= 1, got 'many'"),
    (["train", "running_sum", "--set", "epochs=1.5"], "epochs must be a positive integer"),
    (["train", "running_sum", "--set", "model.d_model=abc"], "model.d_model is a number"),
    (["train", "running_sum", "--set", "task.test_lens=[0]"], "test_lens must be positive"),
    (["sweep", "--task", "running_sum", "--seeds", "x"], "invalid int"),
    (["figures", "--seed", "x"], "invalid int"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": "four", "slope": 1.0}'], "n must be an integer"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": 4.5, "slope": 1.0}'], "n must be an integer"),
    (["spectrum", "--kernel", "exponential", "--length", "1e3"], "--length must be an integer >= 1, got '1e3'"),
    (["spectrum", "--coeffs", "1,,2"], "empty entry"),
    (["stress", "--pe", "sinusoidal", "--length", "abc"], "--length must be an integer >= 2, got 'abc'"),
    (["encodings", "--json"], "expected one argument"),
])
def test_cli_wrong_types(capsys, tmp_path, argv, match):
    argv = list(argv) + (["--out", tmp_path / "o"] if argv[0] in ("sweep", "train", "figures") else [])
    refused(capsys, *argv, match=match)
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("command", [["check", "--list"], ["encodings"], ["spectrum", "--coeffs", "1"],
                                     ["bounds", "--pe", "alibi"], ["figures", "--list"]], ids=lambda a: a[0])
def test_malformed_plugin_file_is_one_line(capsys, tmp_path, command):
    (tmp_path / "bad_plugin.py").write_text("def broken(:\n")
    refused(capsys, *command, "--plugin", tmp_path / "bad_plugin.py", match="bad_plugin")
