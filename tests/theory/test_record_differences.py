"""One rule for committed numbers (issue 54.0): :func:`petheory.rounding.record_differences` compares each float at its
own stated error, an error figure by its bound, a text's numbers by the record they print, and catches a change.

The golden command outputs, the committed figure records and the claim catalogue's records all compare through it;
the cases here are the numbers that moved on other processors' kernels, and a planted change for each rule.
"""

from __future__ import annotations

import math

from petheory.rounding import ATOL, RTOL, record_differences, text_differences


def test_rounding_is_not_a_change_and_a_change_is():
    assert record_differences({"x": [1.1003335372191434, 2]}, {"x": [1.1003335372191436, 2]}) == []
    assert record_differences({"x": 1.8e-16}, {"x": 1.4e-16}) == []  # zero in exact arithmetic: within ATOL
    assert record_differences({"x": 0.0}, {"x": 8e-32}) == []
    assert record_differences({"x": 1.0}, {"x": 1.0 + 1e-6}) and record_differences({"x": [1]}, {"x": [1, 2]})
    assert record_differences({"x": 2}, {"x": 3}) and record_differences({"a": 1}, {"b": 1})
    assert record_differences("rope", "alibi") and record_differences({"x": 1}, {"x": 1.0})
    assert record_differences({"x": True}, {"x": 1}) and record_differences({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert record_differences({"x": math.nan}, {"x": math.nan}) == []
    assert record_differences({"x": math.nan}, {"x": 1.0})
    x = 0.0345
    assert not record_differences({"m": x}, {"m": x * (1 + RTOL / 2)})
    assert record_differences({"m": x}, {"m": x * (1 + 3 * RTOL) + ATOL})


def test_an_eigenvalue_below_its_error_compares_by_the_error():
    """spectrum__sinusoidal on AVX2 kernels: a Gram matrix singular to rounding, lambda_min 2.1e-14 against the golden
    3.6e-14, its residual 3.7e-10 against 1.3e-10, both under the 1.6e-9 the solver was asked for (converged)."""
    golden = {"value": 2.1047470103383728e-14, "residual": 3.7046572718565793e-10,
              "bracket": [-174.35613355000885, 2.1047470103383728e-14], "error_bound": 3.7046572718565793e-10,
              "certificate": "residual", "iterations": 9, "matvecs": 21, "converged": True}
    avx2 = {**golden, "value": 3.560592326151682e-14, "residual": 1.3251618409028298e-10,
            "bracket": [-174.35613355000885, 3.560592326151682e-14], "error_bound": 1.3251618409028298e-10}
    assert record_differences(golden, avx2) == []
    assert record_differences(golden, {**avx2, "iterations": 8, "matvecs": 19}) == []  # a cost, not the answer
    assert record_differences(golden, {**avx2, "value": 1e-6})  # beyond both errors
    assert record_differences(golden, {**avx2, "bracket": [-174.35613355000885, 1e-6]})
    assert record_differences(golden, {**avx2, "bracket": [-174.3, 3.560592326151682e-14]})  # the symbol's end moved
    assert record_differences(golden, {**avx2, "converged": False})  # the solver missed its target
    assert record_differences(golden, {**avx2, "error_bound": -1e-10})  # not an error bound
    assert record_differences(golden, {**avx2, "error_bound": math.nan})
    assert record_differences(golden, {**avx2, "certificate": "bracket"})
    assert record_differences(golden, {**avx2, "iterations": -1})
    # unconverged (stopped at its budget): the error bound itself is an order of magnitude
    stopped = {**golden, "converged": False}
    assert record_differences(stopped, {**avx2, "converged": False, "error_bound": 3.6e-10, "residual": 3.6e-10}) == []
    assert record_differences(stopped, {**avx2, "converged": False})  # 3.7e-10 against 1.3e-10: more than 2x


def test_a_report_spectrum_compares_its_errors_by_their_bound():
    """report__bloom_560m: the error bounds moved 1e-8 relative (0.00095345172318 against 0.00095345171603); no
    warning in either run says the solver missed its target, so they compare by that."""
    golden = {"multiple": 1, "n": 2048, "lambda_min": -1030350.389014305, "lambda_max": 601001.065858849,
              "error_bounds": [0.0009534517231808637, 0.000647582199285843], "certificates": ["residual"] * 2,
              "warnings": []}
    zen = {**golden, "error_bounds": [0.0009534517160280685, 0.0006475821976572099]}
    assert record_differences(golden, zen) == []
    assert record_differences(golden, {**zen, "lambda_min": -1030350.389014305 + 0.01})  # beyond 2 x 9.5e-4
    assert record_differences(golden, {**zen, "lambda_max": 601001.065858849 - 0.01})
    assert record_differences(golden, {**zen, "error_bounds": [0.00095]})
    warned = {**golden, "warnings": ["lambda_min not converged"]}
    assert record_differences(warned, {**zen, "warnings": ["lambda_min not converged"]}) == []  # 1e-8 apart
    assert record_differences(warned, {**zen, "warnings": ["lambda_min not converged"], "error_bounds": [0.1, 6e-4]})


def test_a_stopped_solver_states_its_error_beside_the_numbers():
    """compare.encodings on AMD's kernels (issue 46): an eigensolver stopped at its budget, its error stated beside."""
    committed = {"lambda_min": 0.03889166068442451, "lambda_max": 256.37692932412256, "spread": 256.3380376634381,
                 "eig_error": 0.06212485712055833, "eig_converged": False, "n": 256}
    amd = {**committed, "lambda_min": 0.03888806983530893, "spread": 256.3380412542868,
           "eig_error": 0.06314978949726749}
    assert record_differences(committed, amd) == []
    assert record_differences(committed, {**amd, "lambda_min": 0.03889166 + 0.2})  # beyond both errors
    assert record_differences(committed, {**amd, "spread": 256.338 + 0.3})  # beyond twice both errors
    assert record_differences(committed, {**amd, "eig_error": 0.2})  # another order of magnitude
    assert record_differences(committed, {**amd, "n": 512})
    assert record_differences(committed, {**amd, "eig_converged": True})
    tight = {**committed, "eig_error": 1e-12}
    assert record_differences(tight, {**tight, "lambda_min": 0.0389})  # a small error: tight again


def test_a_dense_spectrum_compares_at_its_resolution_and_slq_at_its_estimate():
    golden = {"n": 512, "method": "exact", "kolmogorov": 0.49, "wasserstein": 9.89, "resolution": 2.1e-9,
              "error_estimate": 0.0, "eigenvalue_range": [-2.16738871843845e-12, 37562.677101833506],
              "symbol_range": [-0.5, 37600.0]}
    base = {**golden, "eigenvalue_range": [-6.811201159791033e-12, 37562.67710183367]}  # SSE kernels
    assert record_differences(golden, base) == []
    assert record_differences(golden, {**base, "eigenvalue_range": [-1e-8, 37562.67710183367]})
    assert record_differences(golden, {**base, "resolution": 2.2e-9})  # a formula: RTOL
    slq = {"n": 64, "method": "slq", "kolmogorov": 0.0302734375, "wasserstein": 0.011302198471954688,
           "resolution": 3.3e-14, "error_estimate": 0.13973452391094895, "eigenvalue_range": [0.2517, 2.4965],
           "symbol_range": [0.25, 2.5]}
    moved = {**slq, "wasserstein": 0.01130243913829423, "error_estimate": 0.13973414161216852}
    assert record_differences(slq, moved) == []
    assert record_differences(slq, {**moved, "wasserstein": 0.011302 + 2.25 * 0.28 + 0.01})  # beyond w x (e + e)
    assert record_differences(slq, {**moved, "error_estimate": 0.3})


def test_where_a_symbol_vanishes_its_minimum_has_no_one_location():
    """spectrum__kernel_gaussian on SSE kernels: a Gaussian kernel's symbol is 0 to rounding on an interval, min
    -2.7e-15 at 3.046 against -1.8e-15 at 3.027 (error 4.7e-5)."""
    golden = {"min": -2.6645352591003757e-15, "max": 10.026513098524003, "argmin": 3.0464858447408836, "argmax": 0.0,
              "error": 4.718671767970462e-05, "certified": False}
    sse = {**golden, "min": -1.7763568394002505e-15, "argmin": 3.02654409449837}
    assert record_differences(golden, sse) == []
    assert record_differences(golden, {**sse, "argmax": 0.1})  # the maximum is not zero: its location compares
    assert record_differences(golden, {**sse, "min": 1e-3})  # beyond the error
    peaked = {**golden, "min": -2273.874497389217, "error": 2.4e-9}
    assert record_differences(peaked, {**peaked, "argmin": 3.02654409449837})


def test_a_text_may_differ_only_where_it_prints_a_number_that_moved_within_its_error():
    golden = {"json": {"value": 2.1047470103383728e-14, "error_bound": 3.7046572718565793e-10, "converged": True},
              "text": "eigenvalue range  [2.10474701e-14, 906.6813268]  (error <= 3.7e-10; residual)"}
    avx2 = {"json": {"value": 3.560592326151682e-14, "error_bound": 1.3251618409028298e-10, "converged": True},
            "text": "eigenvalue range  [3.560592326e-14, 906.6813268]  (error <= 1.3e-10; residual)"}
    assert record_differences(golden, avx2) == []
    assert record_differences(golden, {**avx2, "text": avx2["text"].replace("906.6813268", "906.6813269")})
    assert record_differences(golden, {**avx2, "text": avx2["text"].replace("1.3e-10", "1.4e-10")})  # not what moved
    assert record_differences(golden, {**avx2, "text": avx2["text"].replace("residual", "bracket")})
    assert record_differences(golden, {**avx2, "text": avx2["text"] + "\nmore"})
    assert text_differences("a 1,024 b", "a 1,024 b") == [] and text_differences("a 1,024 b", "a 1,025 b")

