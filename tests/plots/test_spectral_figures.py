"""The spectral.* figures render (PNG next to its JSON) and their data say what the titles say."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from petheory import plots


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    plots.use_agg()
    out = tmp_path_factory.mktemp("figs")
    for f in plots.select("spectral.*"):
        f.fn(out, preset="quick", seed=0)
    return out


def load(out: Path, name: str) -> dict:
    assert (out / f"{name}.png").stat().st_size > 10_000
    return json.loads((out / f"{name}.json").read_text())


def test_szego_figure_shows_the_distance_shrinking(rendered):
    d = load(rendered, "spectral.szego")
    ks = d["trace"]["kolmogorov"]
    assert all(a > b for a, b in zip(ks, ks[1:]))
    assert -1.2 < d["trace"]["fitted_exponent_kolmogorov"] < -0.7


def test_lemma_figure_examples_match_their_titles(rendered):
    ex = load(rendered, "spectral.lemma_b1")["examples"]
    assert ex[0]["max_abs_f"] < ex[0]["bound"]
    assert ex[1]["ptp_f"] > ex[1]["ptp_g"]
    assert ex[2]["max_abs_f"] == pytest.approx(ex[2]["bound"], rel=1e-12)


def test_contraction_figure_shows_both_outcomes(rendered):
    s = load(rendered, "spectral.hadamard_contraction")["summaries"]
    w = s["W"]
    assert s["W∘E, E = sign pattern of W (unit modulus)"]["range"] > w["range"]
    band = s["W∘E, E = RoPE band average (PSD)"]
    assert w["min"] - 1e-12 <= band["min"] and band["max"] <= w["max"] + 1e-12


@pytest.mark.slow
def test_bench_toeplitz_quick_writes_its_section(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import bench_toeplitz

    path = tmp_path / "RESULTS.md"
    assert bench_toeplitz.main(["--quick", "--repeats", "1", "--results", str(path)]) == 0
    assert "<!-- bench:toeplitz -->" in path.read_text()
