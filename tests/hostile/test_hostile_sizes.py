"""Hostile inputs, class "sizes that do not fit" and "negative or zero sizes", on the API and every command.

A size that cannot fit is refused *before* allocating (petheory._memory): one line naming the size,
the estimate and what the machine has, exit 2, nothing written. Memory-light paths keep working
where the dense one is refused.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hostile_util import files_under, refused

from petheory import _memory, bounds, coupling, geometry
from petheory import encodings as enc
from petheory import toeplitz as tp

BIG = 10**12

# ----------------------------------------------------------------------------- sizes that do not fit: CLI

CLI_TOO_BIG = [
    # the two cases of issue 16
    (["check", "--claims", "gu2025.classical_toeplitz_eigs_in_symbol_range", "--case",
      json.dumps({"coeffs": [1.0], "coeffs_imag": [0.0], "n": BIG})], "n = 1000000000000"),
    (["spectrum", "--kernel", "exponential", "--length", 10**11], "N = 100000000000"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", json.dumps({"n": BIG, "slope": 1.0})], "needs about"),
    (["check", "--claims", "gu2025.logit_decomposition", "--case",
      json.dumps({"n": 3, "d": BIG, "d_head": 1, "pe": "sinusoidal", "bias": None, "proj_bias": False, "scale": 1.0,
                  "content_scale": 1.0, "seed": 0})], "d = 1000000000000"),
    (["spectrum", "--coeffs", "1,0.5", "--length", BIG], "--length 1000000000000"),
    (["spectrum", "--pe", "sinusoidal", "--length", BIG], "n = 1000000000000, d = 64"),
    (["spectrum", "--pe", "rope", "--length", 10**10], "N = 10000000000"),
    (["spectrum", "--kernel", "gaussian", "--length", 10**10], "N = 10000000000"),
    (["stress", "--pe", "sinusoidal", "-d", BIG], "d = 1000000000000"),
    (["bounds", "--pe", "sinusoidal", "--lengths", BIG], "n = 1000000000000"),
    (["bounds", "--pe", "learned", "--lengths", "10", "--context", 10**11], "n_max = 100000000000"),
    (["bounds", "--pe", "wavelet", "--lengths", 10**10], "n = 10000000000"),
    (["bounds", "--pe", "sinusoidal", "-d", BIG], "d = 1000000000000"),
    (["train", "running_sum", "--set", "model.d_model=1000000", "--set", "model.n_head=1"], "d_model=1000000"),
    (["train", "running_sum", "--set", f"task.n_train={BIG}"], "sequences"),
    (["train", "copy", "--set", f"task.train_len={10**9}"], "tokens"),
    (["check", "--claims", "cirrincione2026.necessity#mask_is_not_a_signal", "--case",
      json.dumps({"attention": "causal", "output": "pooled", "model": "encoder_layer", "norm_first": False, "n": 10**6,
                  "d_model": 4, "nhead": 1, "seed": 0, "perm": [0, 1]})], "(n = 1000000, d_model = 4, nhead = 1)"),
    (["check", "--claims", "gu2025.rope_logit_form", "--case",
      json.dumps({"n": 2, "d": 10**6, "rotary_dim": None, "base": 10000.0, "pairing": "interleaved", "pe": "nope",
                  "seed": 0})], "d = 1000000"),
    (["check", "--claims", "li2025.wavelet_atom_decay__corrected", "--case",
      json.dumps({"wavelet": "db2", "normalisation": "l2", "dilation": "unit", "n_max": 1, "atom": BIG, "pos": 0,
                  "beta": 0.0})], "wavelet atom list"),
    (["sweep", "--task", "running_sum", "--set", "model.d_model=1000000", "--set", "model.n_head=1"], "d_model=1000000"),
]


@pytest.mark.parametrize("argv,what", CLI_TOO_BIG, ids=[f"{a[0]}-{i}" for i, (a, _) in enumerate(CLI_TOO_BIG)])
def test_cli_refuses_a_size_that_cannot_fit_before_allocating(capsys, tmp_path, argv, what):
    argv = list(argv)
    out = tmp_path / "out"
    if argv[0] in ("train", "sweep"):
        argv += ["--out", out]
    elif argv[0] != "check" or "--case" not in argv:
        argv += ["--json", out / "r.json"]
    line = refused(capsys, *argv, match=(what, "needs about", "more than"))
    assert "available memory" in line or "limit" in line
    assert files_under(tmp_path) == []  # nothing written: the refusal comes before any output


@pytest.mark.parametrize("argv,what", [
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": 1000, "slope": 1.0}'], "n = 1000"),
    (["spectrum", "--kernel", "exponential", "--length", "200000"], "N = 200000"),
    (["sweep", "--task", "running_sum", "--seeds", "0", "1", "2", "--max-memory", "16K"], "grid of 3 runs"),
    (["train", "running_sum", "--set", "model.d_model=4096", "--set", "model.n_head=1", "--max-memory", "1G"], "d_model=4096"),
    (["bounds", "--pe", "wavelet", "--lengths", "100000"], "wavelet norms"),
    (["stress", "--pe", "sinusoidal", "-d", "100000"], "positional encoding table"),
])
def test_cli_max_memory_limit_is_obeyed_and_named(capsys, tmp_path, argv, what):
    argv = list(argv) + (["--out", tmp_path / "o"] if argv[0] in ("sweep", "train") else [])
    if "--max-memory" not in argv:
        argv += ["--max-memory", "1M"]
    line = refused(capsys, *argv, match=(what, "--max-memory limit of"))
    assert "needs about" in line
    assert files_under(tmp_path) == []


def test_dense_refusal_names_the_fft_option_and_a_time_estimate(capsys):
    line = refused(capsys, "spectrum", "--kernel", "exponential", "--length", "3000", "--method", "exact", "--max-memory", "64M")
    assert "dense N x N, N = 3000" in line and "of compute" in line and "method='slq'" in line  # --method's word


def test_fft_path_works_where_dense_is_refused(capsys):
    # same N, same limit: the exact Szegő distance is refused, the FFT path (extreme eigenvalues) and SLQ answer
    n = 2**16
    c = np.exp(-np.arange(n) / 8.0)
    with _memory.limit("1G"):
        with pytest.raises(_memory.MemoryLimitError, match="method='slq'"):
            tp.spectral_distribution(c, method="exact")
        sd = tp.spectral_distribution(c, method="slq", probes=2, steps=20)
    assert sd.method == "slq" and 0 <= sd.kolmogorov <= 1


def test_figures_refuse_under_a_tiny_limit_and_write_nothing(capsys, tmp_path):
    refused(capsys, "figures", "-q", "--only", "bounds.pe_norms", "--out", tmp_path / "figs", "--max-memory", "1K",
            match="needs about")
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("value", ["lots", "-5G", "0", "1.5Q", "nan"])
def test_cli_bad_max_memory_is_a_one_line_error(capsys, value):
    refused(capsys, "encodings", f"--max-memory={value}", match="memory size")


# ----------------------------------------------------------------------------- sizes that do not fit: API


@pytest.mark.parametrize("call,what", [
    (lambda: enc.sinusoidal(BIG, 64), "positional encoding table"),
    (lambda: enc.rope(BIG, 64), "positional encoding table"),
    (lambda: enc.learned(10, 4, n_max=BIG), "learned table"),
    (lambda: enc.alibi(10**7), "bias encoding matrix"),
    (lambda: enc.t5(10**7), "bias encoding matrix"),
    (lambda: enc.relative(10**7), "bias encoding matrix"),
    (lambda: tp.kernel("exponential").column(BIG, 4.0), "kernel column"),
    (lambda: tp.dense(np.ones(2**18)), "dense Toeplitz matrix"),
    (lambda: tp.eigenvalues(np.ones(2**18)), "dense eigvalsh"),
    (lambda: tp.spectral_distribution(np.ones(2**18), method="exact"), "method='exact'"),
    (lambda: tp.sinusoidal_gram_coefficients(BIG, 8), "sinusoidal Gram coefficients"),
    (lambda: tp.symbol_extrema([1.0, 0.5], n_grid=BIG), "symbol on a grid"),
    (lambda: enc.wavelet_atoms(BIG, 3), "wavelet atom list"),
    (lambda: enc.alibi_slopes(BIG), "ALiBi slopes"),
    (lambda: enc.rope_frequencies(2 * BIG), "rotary frequencies"),
    (lambda: enc.relative(4, max_offset=BIG), "relative bias values"),
    (lambda: enc.t5(4, num_buckets=BIG, max_distance=BIG + 1), "T5 bucket values"),
    (lambda: bounds.pe_augmented_inputs("sinusoidal", BIG, 4, length=10), "PE-augmented inputs"),
    (lambda: bounds.alibi_lipschitz_numeric(np.ones(3), n_grid=BIG), "grid of"),
    (lambda: bounds.legendre_saturation_bound([1.0], 10, BIG), "Legendre saturation vector"),
    (lambda: bounds.sinusoidal_offset_distance([1.0, 2.0], 2 * BIG), "sinusoidal offset distances"),
    (lambda: bounds.sinusoidal_ambiguity_onset(2 * BIG), "sinusoidal ambiguity search"),
    (lambda: coupling.random_projections(BIG, 2), "random projections"),
    (lambda: coupling.single_phase_defect(np.eye(2), np.eye(2), n_grid=BIG), "phase grid"),
    (lambda: geometry.induced_distances("sinusoidal", 10**7, 4), "distance geometry"),
])
def test_api_refuses_with_memory_limit_error(call, what):
    with pytest.raises(_memory.MemoryLimitError, match="needs about") as info:
        call()
    assert what in str(info.value)
    assert isinstance(info.value, ValueError)  # so the CLI prints one line and exits 2


def test_api_refusal_obeys_the_environment_limit(monkeypatch):
    monkeypatch.setenv(_memory.ENV, "1M")
    with pytest.raises(_memory.MemoryLimitError, match="PETHEORY_MAX_MEMORY limit of 1 MiB"):
        enc.sinusoidal(10_000, 64)
    monkeypatch.setenv(_memory.ENV, "a lot")
    with pytest.raises(ValueError, match="PETHEORY_MAX_MEMORY"):
        enc.sinusoidal(10, 4)


def test_nn_sizes_are_refused_before_building(tmp_path):
    from petheory.nn import preset, tasks, train

    with pytest.raises(_memory.MemoryLimitError, match="task running_sum data"):
        tasks.load({"name": "running_sum", "params": {"n_train": BIG}})
    from petheory.experiments import sweep

    with pytest.raises(_memory.MemoryLimitError, match="grid of"), _memory.limit("1K"):
        sweep.expand({"task": "running_sum", "seed": [0, 1]})
    with pytest.raises(_memory.MemoryLimitError, match="model d_model=4096"), _memory.limit("1G"):
        train(preset("running_sum", "smoke", **{"model.d_model": 4096, "model.n_head": 1}), tmp_path / "run")
    assert files_under(tmp_path) == []


def test_memory_light_operator_works_where_dense_is_refused():
    n = 2**16  # dense: 32 GiB (refused under a 1 GiB limit); FFT operator and extreme eigenvalues: a few MiB
    c = np.exp(-np.arange(n) / 8.0)
    with _memory.limit("1G"):
        with pytest.raises(_memory.MemoryLimitError, match="operator"):
            tp.dense(c)
        T = tp.operator(c)
        y = T @ np.ones(n)
        assert y.shape == (n,) and np.isfinite(y).all()
        lo, hi = tp.extreme_eigenvalues(c)
        sym = tp.symbol_extrema(c)
        assert sym.min - 1e-6 <= lo <= hi <= sym.max + 1e-6


def test_estimator_helpers():
    assert _memory.parse_size("8G") == 8 * 1024**3
    assert _memory.parse_size("2.5GB") == 2_500_000_000
    assert _memory.parse_size(1e6) == 1_000_000
    assert _memory.format_bytes(_memory.array_bytes(10**12, itemsize=8)) == "7.28 TiB"
    assert _memory.array_bytes(10**12, 10**12) == 8 * 10**24  # Python ints: no overflow
    avail, where = _memory.available()
    assert avail is None or avail > 0
    with _memory.limit("3M"):
        assert _memory.available() == (3 * 1024**2, "the --max-memory limit")


# ----------------------------------------------------------------------------- negative or zero sizes


@pytest.mark.parametrize("argv,match", [
    (["spectrum", "--kernel", "exponential", "--length", "0"], "--length must be >= 1"),
    (["spectrum", "--kernel", "exponential", "--length", "-5"], "--length must be >= 1"),
    (["spectrum", "--pe", "sinusoidal", "--length", "8", "-d", "0"], "--d-model must be >= 1"),
    (["spectrum", "--coeffs", "1,0.5", "--rtol", "0"], "--rtol must be > 0"),
    (["stress", "--pe", "sinusoidal", "--length", "1"], "--length must be >= 2"),
    (["stress", "--pe", "sinusoidal", "-d", "0"], "--d-model must be >= 1"),
    (["stress", "--pe", "sinusoidal", "--rank", "0"], "--rank must be >= 1"),
    (["bounds", "--pe", "sinusoidal", "--lengths", "0"], "--lengths must be integers >= 1"),
    (["bounds", "--pe", "sinusoidal", "--lengths", "-3"], "--lengths must be integers >= 1"),
    (["bounds", "--pe", "sinusoidal", "-d", "0"], "--d-model must be >= 1"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": 0, "slope": 1.0}'], "n must be >= 1"),
    (["check", "--claims", "li2025.alibi_monotone_bias", "--case", '{"n": -4, "slope": 1.0}'], "n must be >= 1"),
    (["check", "--seed", "-1", "--claims", "li2025.alibi_monotone_bias"], "--seed must be >= 0"),
    (["train", "running_sum", "--seed", "-1"], "--seed must be >= 0"),
    (["train", "running_sum", "--epochs", "0"], "epochs must be a positive integer"),
    (["train", "running_sum", "--set", "task.n_train=0"], "n_train must be a positive integer"),
    (["train", "running_sum", "--set", "model.d_model=0"], "d_model must be a positive integer"),
    (["train", "running_sum", "--threads", "0"], "--threads must be >= 1"),
    (["sweep", "--task", "running_sum", "--workers", "0"], "--workers must be >= 1"),
])
def test_cli_negative_or_zero_sizes(capsys, tmp_path, argv, match):
    argv = list(argv) + (["--out", tmp_path / "o"] if argv[0] in ("sweep", "train") else [])
    refused(capsys, *argv, match=match)
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("call,exc", [
    (lambda: enc.sinusoidal(0, 4), ValueError),
    (lambda: enc.sinusoidal(4, 0), ValueError),
    (lambda: enc.rope(4, 3), ValueError),
    (lambda: enc.alibi(-1), ValueError),
    (lambda: enc.sinusoidal(True, 4), TypeError),
    (lambda: enc.sinusoidal(4.5, 4), TypeError),
    (lambda: tp.kernel("exponential").column(0, 4.0), ValueError),
    (lambda: tp.symbol([1.0, 0.5], n_grid=1), ValueError),
    (lambda: tp.spectral_distribution([2.0, 0.5, 0.1], method="slq", steps=1), ValueError),
])
def test_api_negative_or_zero_sizes(call, exc):
    with pytest.raises(exc):
        call()


def test_stress_refuses_a_corpus_geometry_that_cannot_fit(capsys, tmp_path):
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(40)]
    (tmp_path / "c.txt").write_text("\n".join(" ".join(rng.choice(words, 2000)) for _ in range(3)))
    refused(capsys, "stress", "--pe", "sinusoidal", "--corpus", tmp_path / "c.txt", "--max-memory", "20M",
            "--json", tmp_path / "r.json", match="distance geometry of n = 2000 positions")
    assert files_under(tmp_path) == ["c.txt"]


def test_an_unforeseen_memory_error_is_still_one_line(capsys, monkeypatch):
    from petheory.cli import spectrum

    def boom(args):
        raise MemoryError("Unable to allocate 7.28 TiB")

    monkeypatch.setattr(spectrum, "run", boom)
    refused(capsys, "spectrum", "--coeffs", "1", match="out of memory")


def test_case_replay_turns_allocation_failures_into_one_line(monkeypatch):
    from proofs_check.engine import get
    from proofs_check.runner import replay

    c = get("li2025.alibi_monotone_bias")

    def torch_like(case):
        raise RuntimeError("DefaultCPUAllocator: can't allocate memory: you tried to allocate 32000000000000 bytes")

    monkeypatch.setattr(type(c), "violation", lambda self, case: torch_like(case))
    with pytest.raises(_memory.MemoryLimitError, match="case does not fit claim li2025.alibi_monotone_bias: out of memory"):
        replay(c, {"n": 3, "slope": 1.0})


def test_max_memory_reaches_worker_processes_and_is_restored(monkeypatch):
    import os

    monkeypatch.delenv(_memory.ENV, raising=False)
    with _memory.limit("2M"):
        assert os.environ[_memory.ENV] == str(2 * 1024**2)  # what a spawned sweep worker sees
    assert _memory.ENV not in os.environ


def test_case_memory_estimate_of_a_malformed_case_is_one_line(capsys):
    # the checker's memory estimate reads case["n"]: a case without it does not fit, it does not crash
    refused(capsys, "check", "--claims", "gu2025.logit_decomposition", "--case", '{"d": 4, "d_head": 2}',
            match="case does not fit claim gu2025.logit_decomposition")
    refused(capsys, "check", "--claims", "cirrincione2026.necessity#mask_is_not_a_signal", "--case", json.dumps(
        {"attention": "causal", "output": "pooled", "model": "encoder_layer", "norm_first": False, "n": 2,
         "d_model": 4, "nhead": 3, "seed": 0, "perm": [0, 1]}), match="divisible")
