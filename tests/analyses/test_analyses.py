"""petheory.analyses: one scheme, every analysis.

* the exact low-rank extremes of a rotary kernel against the certified Toeplitz path (the reference)
  and dense ``eigvalsh``, within the error bounds each reports;
* every command (``report``, ``compare``, ``spectrum``, ``bounds``, ``stress``) on the same configs --
  Llama 3.1 8B and Gemma 2 9B, written from the public Hugging Face files' fields -- gives the same
  shared quantities, exactly (head dimension 128, band 1 at 0.8146 rad/position, lambda_max, stress);
* ``report --length N`` for every N >= 1, below and above the model's context;
* the grammar reads numbers as numbers in every command (``rope:base=1e+06``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.linalg as sla
from hostile_util import cli

from petheory import toeplitz as tp
from petheory.analyses.kernel import low_rank_extremes, rotary_column
from petheory.analyses.report import report
from petheory.loaders import resolve_scheme

U = np.finfo(float).eps / 2

#: meta-llama/Llama-3.1-8B config.json (the fields that touch positions and heads).
LLAMA31_8B = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
              "num_hidden_layers": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
              "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 8192, "rope_type": "llama3"}}
#: google/gemma-2-9b config.json (the fields that touch positions and heads): every other layer slides over 4096.
GEMMA2_9B = {"model_type": "gemma2", "hidden_size": 3584, "num_attention_heads": 16, "num_key_value_heads": 8,
             "head_dim": 256, "num_hidden_layers": 42, "max_position_embeddings": 8192, "rope_theta": 10000.0,
             "sliding_window": 4096, "query_pre_attn_scalar": 256, "attn_logit_softcapping": 50.0,
             "final_logit_softcapping": 30.0}


@pytest.fixture(scope="module")
def configs(tmp_path_factory):
    d = tmp_path_factory.mktemp("configs")
    out = {}
    for name, cfg in (("llama", LLAMA31_8B), ("gemma2", GEMMA2_9B)):
        (d / name).mkdir()
        (d / name / "config.json").write_text(json.dumps(cfg))
        out[name] = d / name / "config.json"
    return out


# ------------------------------------------------------------------------------------ exact low rank


@pytest.mark.parametrize("n", [1, 5, 8, 9, 64, 300])
def test_low_rank_extremes_match_dense_eigenvalues_within_their_bounds(n):
    w = np.array([1.0, 0.31, 0.05, 1e-4])  # 4 bands: rank <= 8
    for factor in (1.0, 1.7):
        got = low_rank_extremes(w, n, factor).as_dict()
        ev = sla.eigvalsh(sla.toeplitz(rotary_column(w, n, factor)))
        dense = 4 * n * U * np.abs(ev).max()  # the dense solver's own error (Golub & Van Loan §8.4)
        for end, ref in (("lambda_min", ev[0]), ("lambda_max", ev[-1])):
            assert abs(got[end]["value"] - ref) <= got[end]["error_bound"] + dense, (n, end, got[end], ref)
        if n > 8:
            assert got["lambda_min"]["value"] == 0.0  # rank <= 2 x bands < n: exactly singular


@pytest.mark.parametrize("n", [4096, 1 << 16])
def test_low_rank_extremes_agree_with_the_certified_toeplitz_path(n):
    """The reference: FFT Lanczos with its certificate, on the column the report never forms beyond N."""
    from petheory.encodings import band_frequencies

    w, _ = band_frequencies(
        "rope_llama3", 128, n, base=500000.0, scale=8.0, n_max=8192, low_freq_factor=1.0, high_freq_factor=4.0)
    got = low_rank_extremes(w, n).as_dict()
    c = rotary_column(w, n)
    ex = tp.symbol_extrema(c)
    ref = tp.extreme_eigenvalues(c, rtol=1e-10, atol=1e-10 * 1e-4 * max(abs(ex.min), abs(ex.max)))
    assert abs(got["lambda_max"]["value"] - ref.max.value) <= got["lambda_max"]["error_bound"] + ref.max.error_bound
    assert abs(got["lambda_min"]["value"] - ref.min.value) <= got["lambda_min"]["error_bound"] + ref.min.error_bound


def test_a_wrong_gram_is_caught():
    """Planted: the cos-sin block dropped (a tempting shortcut) moves lambda_max far outside the bounds."""
    w, n = np.array([0.9, 0.2]), 50
    ev = sla.eigvalsh(sla.toeplitz(rotary_column(w, n)))
    assert abs(low_rank_extremes(w, n).as_dict()["lambda_max"]["value"] - ev[-1]) <= 1e-9 * ev[-1]
    A = np.cos(np.outer(np.arange(n), w))
    wrong = sla.eigvalsh(A.T @ A)[-1]  # the Gram without its sine half
    assert abs(wrong - ev[-1]) > 1e3 * low_rank_extremes(w, n).as_dict()["lambda_max"]["error_bound"]


# ------------------------------------------------------------------------------------ every command, same numbers


def _json(capsys, *argv):
    rc, out, err = cli(capsys, *argv)
    assert rc == 0, err
    return json.loads(out)


def test_every_command_gives_llama_3_1_its_own_head_dimension_and_numbers(configs, capsys):
    cfg = str(configs["llama"])
    rep = _json(capsys, "report", "--pe", cfg, "--length", "16384", "--multiples", "1", "--null-draws", "5",
                "--json", "-")["reports"][0]
    sec = rep["sections"][0]
    cmp = _json(capsys, "compare", "--pe", cfg, "--length", "8192", "--lengths", "64,16384", "--null-draws", "5", "--json", "-")
    spec = _json(capsys, "spectrum", "--pe", cfg, "--length", "8192", "--json", "-")
    bnd = _json(capsys, "bounds", "--pe", cfg, "--lengths", "16384", "--json", "-")
    st = _json(capsys, "stress", "--pe", cfg, "--null-draws", "5", "--json", "-")
    # head dimension 128 (64 bands) everywhere, band 1 at 0.8146 rad/position (a 64-wide head would give 0.6636)
    assert rep["head_dim"] == sec["encoding"]["d"] == cmp["rows"][0]["d"] == spec["resolved_encoding"]["d"] == 128
    assert bnd["rows"][0]["d"] == st["d"] == st["resolved_encoding"]["d"] == 128
    bands = [sec["encoding"], cmp["resolved_encodings"][0], spec["resolved_encoding"], bnd["resolved_encodings"][0]]
    assert {len(b["frequencies"]) for b in bands} == {64}
    assert {round(b["frequencies"][1], 4) for b in bands} == {0.8146}
    # the spectrum at N = L = 8192: one function (exact low rank) in report, spectrum and compare
    lam = sec["spectra"][0]
    assert lam["n"] == spec["n"] == cmp["rows"][0]["spectrum"]["n"] == 8192
    assert lam["lambda_max"] == spec["eigenvalues"]["lambda_max"]["value"] == cmp["rows"][0]["spectrum"]["lambda_max"]
    assert lam["lambda_min"] == spec["eigenvalues"]["lambda_min"]["value"] == cmp["rows"][0]["spectrum"]["lambda_min"] == 0
    # stress and its seeded null: one function in report, stress and compare
    assert sec["stress"]["stress"] == st["stress"] == cmp["rows"][0]["stress"]["stress"]
    assert sec["stress"]["null"]["mean"] == st["null"]["mean"] == cmp["rows"][0]["stress"]["null_mean"]
    # the bound notes at N = 16384 past L = 8192
    assert sec["bounds"]["angles"] == bnd["rows"][0]["angles"] == cmp["rows"][0]["norms"]["angles"]
    assert sec["bounds"]["angles"]["n_max"] == 8192


def test_every_command_sees_gemma_2s_two_layer_kinds(configs, capsys):
    cfg = str(configs["gemma2"])
    rep = _json(capsys, "report", "--pe", cfg, "--multiples", "1", "--null-draws", "0", "--json", "-")["reports"][0]
    kinds = [(s["span"]["kind"], s["span"]["size"], s["layers"]) for s in rep["sections"]]
    assert kinds == [("sliding", 4096, list(range(0, 42, 2))), ("full", None, list(range(1, 42, 2)))]
    assert rep["layer_kind"] == [i % 2 for i in range(42)]
    slide, full = rep["sections"]
    assert slide["analysed_length"] == 4096 and full["analysed_length"] == 8192 and rep["length"] == 8192
    assert any("min(N, 4,096)" in n for n in slide["notes"])
    assert slide["spectra"][0]["n"] == 4096 and full["spectra"][0]["n"] == 8192
    spec = _json(capsys, "spectrum", "--pe", cfg, "--length", "8192", "--method", "off", "--json", "-")
    by_span = {s["span"]: s for s in spec["sections"]}
    assert by_span["sliding 4096"]["n"] == 4096 and by_span["full"]["n"] == 8192
    assert by_span["sliding 4096"]["eigenvalues"]["lambda_max"]["value"] == slide["spectra"][0]["lambda_max"]
    assert by_span["full"]["eigenvalues"]["lambda_max"]["value"] == full["spectra"][0]["lambda_max"]
    cmp = _json(capsys, "compare", "--pe", cfg, "--length", "8192", "--lengths", "64,128", "--null-draws", "3", "--json", "-")
    assert [(r["span"], r["d"], r["spectrum"]["n"]) for r in cmp["rows"]] == [("sliding 4096", 256, 4096),
                                                                              ("full", 256, 8192)]
    assert cmp["rows"][0]["spectrum"]["lambda_max"] == slide["spectra"][0]["lambda_max"]
    bnd = _json(capsys, "bounds", "--pe", cfg, "--lengths", "100", "--json", "-")
    assert [r["layers"] for r in bnd["rows"]] == [list(range(42))]  # the same positions: one bound row


def test_a_nope_layer_gets_a_section_that_says_what_it_is():
    from dataclasses import replace

    from petheory.scheme import Layer, Positions

    rope = resolve_scheme("rope", d=16, context=64)
    nope = Layer(Positions("nope"), type="full_attention")
    s = replace(rope, layers=(rope.layers[0], rope.layers[0], rope.layers[0], nope), source="llama4_text")
    r = report(s, length=128, multiples=(1,), null_draws=0).as_dict()
    assert [sec["layers"] for sec in r["sections"]] == [[0, 1, 2], [3]]
    assert "NoPE" in r["sections"][1]["skipped"] and "kernel" not in r["sections"][1]


# ------------------------------------------------------------------------------------ any length


@pytest.mark.parametrize("length", [1, 2, 3, 31, 32, 64, 65, 200, 1 << 21])
def test_report_works_at_every_length(length):
    s = resolve_scheme("rope_yarn:scale=4,n_max=64", d=16)
    r = report(s, length=length, multiples=(1, 2), null_draws=0).as_dict()
    sec = r["sections"][0]
    assert sec["analysed_length"] == length and len(sec["bands"]) == 8
    k = sec["kernel"]
    assert k["distance"][0] == 0 and max(k["distance"]) < length
    assert all(0 < p["k"] < length for p in k["points"])
    assert ("max_abs_over_a0_within_L" in k) == (length > 33) and ("max_abs_over_a0_beyond_L" in k) == (length > 64)
    assert [s["n"] for s in sec["spectra"]] == [64, 128]  # at L and 2L whatever N


@pytest.mark.parametrize("length", ["1", "4096", "65536"])
def test_report_cli_at_short_lengths_of_llama_3_1(configs, capsys, length):
    rep = _json(capsys, "report", "--pe", str(configs["llama"]), "--length", length, "--multiples", "1",
                "--null-draws", "0", "--json", "-")["reports"][0]
    assert rep["length"] == int(length) and rep["sections"][0]["analysed_length"] == int(length)


# ------------------------------------------------------------------------------------ numbers in the grammar


@pytest.mark.parametrize("command", [
    ["report", "--multiples", "1", "--null-draws", "0", "--length", "64"],
    ["spectrum", "--length", "32", "--method", "off"],
    ["stress", "--null-draws", "0"],
    ["bounds", "--lengths", "100"],
    ["compare", "--length", "16", "--lengths", "8,16", "--null-draws", "3", "--records", "/nonexistent-records"],
])
def test_an_exponent_with_a_sign_is_one_number_in_every_command(command, capsys):
    out = _json(capsys, command[0], "--pe", "rope:base=1e+06", *command[1:], "--json", "-")
    enc = (out.get("reports", [{}])[0].get("sections", [{}])[0].get("encoding") or out.get("resolved_encoding")
           or out["resolved_encodings"][0])
    assert enc["params"]["base"] == 1e6


def test_rotary_column_by_angle_addition_matches_the_direct_sum_within_its_rounding_model():
    from petheory.encodings import band_frequencies

    w, _ = band_frequencies("rope", 128, 10, base=1e6)
    n = 200_000
    k = np.arange(n, dtype=np.float64)
    direct = sum(np.cos(k * om) for om in w)
    got = rotary_column(w, n, chunk=4096)
    # per term: (|k0 w| + |j w| + 6) u for ours and |k w| u for the direct cos (see rotary_column's Notes)
    bound = ((2 * k[:, None] * w[None, :] + 6) * U).sum(axis=1) + 8 * U * np.abs(direct)
    assert np.all(np.abs(got - direct) <= bound)
    assert np.array_equal(rotary_column(w, 5000, chunk=7)[:7], rotary_column(w, 7))  # chunking changes nothing at k < chunk
