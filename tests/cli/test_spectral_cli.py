"""``petheory spectrum``: answers for coefficients, named PEs and kernels; bad input is one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from petheory import encodings as enc
from petheory import toeplitz as tp
from petheory.cli import main


def run(capsys, *argv):
    rc = main(["spectrum", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def record(capsys, *argv) -> dict:
    rc, out, err = run(capsys, *argv, "--json", "-")
    assert rc == 0, err
    return json.loads(out)


def test_named_absolute_pe_matches_dense_reference(capsys):
    rec = record(capsys, "--pe", "sinusoidal", "-d", "16", "--length", "96")
    P = enc.sinusoidal(96, 16)
    w = np.linalg.eigvalsh(P @ P.T)
    scale = w[-1]
    assert rec["eigenvalues"]["lambda_max"]["value"] == pytest.approx(w[-1], rel=1e-10)
    assert abs(rec["eigenvalues"]["lambda_min"]["value"] - w[0]) <= 1e-10 * scale
    assert rec["toeplitz_defect"] < 1e-12 and rec["n"] == 96
    assert rec["szego"]["method"] == "exact"


def test_human_output_names_the_three_answers(capsys):
    rc, out, err = run(capsys, "--pe", "alibi:slope=0.5", "--length", "64")
    assert rc == 0, err
    assert "symbol range" in out and "eigenvalue range" in out and "Szegő distance" in out
    B = enc.alibi(64, slope=0.5)
    w = np.linalg.eigvalsh(B)
    assert f"{w[0]:.6g}"[:6] in out


def test_kernel_uses_its_closed_form_symbol(capsys):
    rec = record(capsys, "--kernel", "exponential", "--kernel-length", "3", "--length", "512")
    rho = np.exp(-1 / 3)
    lo, hi = rec["symbol"]["closed_form_range"]
    assert lo == pytest.approx((1 - rho) / (1 + rho), rel=1e-6) and hi == pytest.approx((1 + rho) / (1 - rho), rel=1e-6)
    assert rec["symbol"]["which"].startswith("closed form")
    assert rec["szego"]["kolmogorov"] < 0.01


def test_rotary_encoding_gives_its_unit_content_kernel(capsys):
    rec = record(capsys, "--pe", "rope", "-d", "8", "--length", "40")
    c = tp.sinusoidal_gram_coefficients(40, 8)  # same frequencies: sum_t cos(k theta_t)
    w = tp.eigenvalues(c)
    assert rec["eigenvalues"]["lambda_max"]["value"] == pytest.approx(w[-1], rel=1e-10)


def test_learned_pe_is_projected_with_a_note_unless_no_project(capsys):
    rc, out, err = run(capsys, "--pe", "learned", "--length", "50", "-d", "8", "--no-project")
    assert rc == 2 and "not Toeplitz" in err and "--no-project" in err and len(err.strip().splitlines()) == 1
    rec = record(capsys, "--pe", "learned", "--length", "50", "-d", "8")
    assert rec["toeplitz_defect"] > 0.5 and "projection" in rec["source"]
    rc, out, err = run(capsys, "--pe", "learned", "--length", "50", "-d", "8")
    assert rc == 0 and "note: the source matrix is not Toeplitz" in out and "Toeplitz projection" in out


def test_a_table_file_defaults_n_to_its_rows(capsys, tmp_path):
    P = np.random.default_rng(0).normal(size=(37, 6))
    np.save(tmp_path / "pe.npy", P)
    rec = record(capsys, "--pe", str(tmp_path / "pe.npy"))
    assert rec["n"] == 37 and "projection" in rec["source"]
    M = tp.toeplitz_projection(P @ P.T)
    w = np.linalg.eigvalsh(M)
    assert rec["eigenvalues"]["lambda_max"]["value"] == pytest.approx(w[-1], rel=1e-8)
    assert record(capsys, "--pe", str(tmp_path / "pe.npy"), "--length", "20")["n"] == 20


def test_szego_is_skipped_by_default_beyond_the_exact_size(capsys, monkeypatch):
    monkeypatch.setattr("petheory.analyses.spectrum.EXACT_UP_TO", 64)
    rec = record(capsys, "--kernel", "exponential", "--length", "128")
    assert "--method exact" in rec["szego"]["skipped"] and "--method slq" in rec["szego"]["skipped"]
    assert rec["symbol"]["closed_form_range"][0] > 0
    assert record(capsys, "--kernel", "exponential", "--length", "128", "--method", "exact")["szego"]["method"] == "exact"
    rc, out, _ = run(capsys, "--kernel", "exponential", "--length", "128")
    assert rc == 0 and "Szegő distance    not computed" in out
    assert record(capsys, "--kernel", "exponential", "--length", "32")["szego"]["method"] == "exact"
    assert "skipped" in record(capsys, "--kernel", "exponential", "--length", "32", "--method", "off")["szego"]


def test_an_estimate_below_its_error_is_reported_unresolved(capsys, monkeypatch):
    import dataclasses

    real = tp.spectral_distribution

    def noisy(*a, **kw):
        sd = real(*a, **kw)
        return dataclasses.replace(sd, method="slq", kolmogorov=0.0087, error_estimate=0.0093, probes=2, steps=1000)

    monkeypatch.setattr("petheory.toeplitz.szego.spectral_distribution", noisy)
    rc, out, _ = run(capsys, "--kernel", "exponential", "--length", "64")
    assert rc == 0 and "unresolved" in out and "below its error 0.0093" in out and "Kolmogorov 0.0087" not in out
    assert record(capsys, "--kernel", "exponential", "--length", "64")["szego"]["resolved"] is False


def test_inline_and_file_coefficients_agree(capsys, tmp_path):
    c = np.array([2.0, 0.5 + 0.25j, -0.1j])
    inline = record(capsys, "--coeffs", "2,0.5+0.25j,-0.1j")
    np.save(tmp_path / "c.npy", c)
    (tmp_path / "c.txt").write_text("2\n0.5+0.25j\n-0.1j\n")
    for f in ("c.npy", "c.txt"):
        rec = record(capsys, "--file", str(tmp_path / f))
        assert rec["eigenvalues"]["lambda_max"]["value"] == pytest.approx(inline["eigenvalues"]["lambda_max"]["value"])
    w = tp.eigenvalues(c)
    assert inline["eigenvalues"]["lambda_min"]["value"] == pytest.approx(w[0], abs=1e-14)
    assert inline["real"] is False


def test_n_pads_or_cuts_the_coefficients(capsys):
    assert record(capsys, "--coeffs", "1,0.5", "--length", "10")["n"] == 10
    assert record(capsys, "--coeffs", "1,0.5,0.25,0.1", "--length", "2")["n"] == 2


def test_json_file_is_written(capsys, tmp_path):
    path = tmp_path / "out.json"
    rc, out, err = run(capsys, "--kernel", "gaussian", "--length", "64", "--json", str(path), "-q")
    assert rc == 0 and out.startswith("T_N: gaussian kernel")  # -q hides progress, not the result
    assert json.loads(path.read_text())["szego"]["n"] == 64


def test_hermitian_part_option(capsys):
    rc, out, err = run(capsys, "--coeffs", "1,2", "--row", "1,3")
    assert rc == 2
    rec = record(capsys, "--coeffs", "1,2", "--row", "1,3", "--hermitian-part")
    assert rec["eigenvalues"]["lambda_max"]["value"] == pytest.approx(3.5)


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--coeffs", "1,2", "--row", "1,3"], "not Hermitian"),
        (["--coeffs", "1,2", "--row", "5,2"], r"c\[0\] != r\[0\]"),
        (["--coeffs", "1+1j,2"], r"c\[0\] != conj\(r\[0\]\)"),
        (["--coeffs", "1,2", "--row", "1-1j,2"], r"c\[0\]"),
        (["--coeffs", "1,nan"], "finite"),
        (["--coeffs", "1,inf"], "finite"),
        (["--coeffs", ""], "empty"),
        (["--coeffs", "1,,2"], "empty entry"),
        (["--coeffs", "1,abc"], "not a number"),
        (["--coeffs", "1,2", "--length", "0"], ">= 1"),
        (["--kernel", "exponential", "--length", "-3"], ">= 1"),
        (["--kernel", "exponential", "--kernel-length", "-1"], "> 0"),
        (["--kernel", "cauchy"], "kernel must be one of"),
        (["--pe", "nosuchpe"], "no such file"),
        (["--pe", "alibi:base=3"], "takes"),
        (["--pe", "alibi:slope=1j"], "real number"),
        (["--pe", "t5", "--length", "32"], "not Hermitian"),
        (["--coeffs", "1,2", "--rtol", "0"], "rtol"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, match):
    rc, out, err = run(capsys, *argv)
    assert rc == 2
    assert len(err.strip().splitlines()) == 1, err
    assert __import__("re").search(match, err), err


def test_bad_files_are_one_line_exit_2(capsys, tmp_path):
    np.save(tmp_path / "m.npy", np.eye(3))
    np.save(tmp_path / "z.npy", np.zeros(0))
    np.save(tmp_path / "complex_table.npy", np.ones((4, 2)) * 1j)
    (tmp_path / "bad.txt").write_text("1 2\nx y\n")
    for f, match in (("m.npy", "1-D"), ("z.npy", "empty"), ("bad.txt", "could not read"), ("missing.npy", "no such file")):
        rc, out, err = run(capsys, "--file", str(tmp_path / f))
        assert rc == 2 and match in err and len(err.strip().splitlines()) == 1, err
    rc, out, err = run(capsys, "--pe", str(tmp_path / "complex_table.npy"), "--length", "4")
    assert rc == 2 and "real" in err


def test_spectrum_default_skips_the_cubic_szego_distance_past_1024_and_exact_is_opt_in(capsys):
    from petheory.analyses import spectrum

    assert spectrum.EXACT_UP_TO == 1024
    assert main(["spectrum", "--pe", "mla_rope:rope_dim=64", "-d", "192", "--length", "4096", "--json", "-"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert "--method exact computes it" in rec["szego"]["skipped"]
    assert main(["spectrum", "--pe", "rope", "--length", "1024", "--json", "-"]) == 0  # the default size: still exact
    assert json.loads(capsys.readouterr().out)["szego"]["method"] == "exact"


def test_spectrum_says_on_stderr_when_it_starts_long_work(capsys, monkeypatch):
    monkeypatch.setattr("petheory.analyses.spectrum.EXACT_UP_TO", 16)
    assert main(["spectrum", "--kernel", "exponential", "--length", "64", "--method", "exact"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("spectrum: Szegő distance at N = 64 by dense eigenvalues")
    assert main(["spectrum", "--kernel", "exponential", "--length", "64", "--method", "exact", "-q"]) == 0
    assert capsys.readouterr().err == ""
