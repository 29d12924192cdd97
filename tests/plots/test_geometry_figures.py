"""The geometry figures render, and their JSON holds the numbers drawn."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from petheory import geometry, plots
from petheory.rounding import gamma

from _helpers import ladder_tol


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    plots.use_agg()
    out = tmp_path_factory.mktemp("figs")
    paths = []
    for f in plots.select("geometry.*"):
        paths += f.fn(out, preset="quick", seed=0)
    return out, paths


def test_three_geometry_figures_with_png_and_json(rendered):
    out, paths = rendered
    names = sorted(p.name for p in paths)
    assert names == sorted(f"geometry.{k}.{ext}" for k in ("eigenvalues", "mds_positions", "stress_per_pe")
                           for ext in ("png", "json"))
    assert all(p.stat().st_size > 0 for p in paths)


def test_stress_figure_data_shows_mds_is_not_stress_optimal(rendered):
    out, _ = rendered
    data = json.loads((out / "geometry.stress_per_pe.json").read_text())
    s = data["stress1"]
    assert s["SMACOF rank 2 (from MDS)"] < s["MDS rank 2 (optimal by strain)"]
    # RoPE's distances are sqrt 2 x sinusoidal's up to ladder_tol (tests/theory/test_geometry.py) and stress-1 is
    # scale-free: the two differ by the largest relative change of a distance plus the three n^2-term sums
    n, d = data["n"], data["d"]
    De = geometry.induced_distances("sinusoidal", n, d)[0]
    rel = (1 + math.sqrt(2)) * ladder_tol(n, d) / (math.sqrt(2) * De[~np.eye(n, dtype=bool)].min())
    assert s["rope"] == pytest.approx(s["sinusoidal"], abs=rel + 3 * gamma(n * n) / s["sinusoidal"])


def test_eigenvalue_figure_marks_the_rank(rendered):
    out, _ = rendered
    e = json.loads((out / "geometry.eigenvalues.json").read_text())
    assert e["numerical_rank"] == e["n"] - 1 and e["negative"] == [] and len(e["null_eigenvalues"]) == e["n"]


def test_stress_rows_that_tie_to_rounding_keep_one_order_on_every_processor():
    """RoPE's stress equals sinusoidal's (sqrt(2) x its distances): 0.3672386566659432 and ...433 here, the other way
    round on SSE kernels, which swapped their keys in figures/geometry.stress_per_pe.json. Ties go by label."""
    from petheory.plots.geometry import _ascending

    here = [("sinusoidal", 0.3672386566659433), ("rope", 0.3672386566659432), ("alibi", 0.48), ("wavelet", 0.33)]
    sse = [("sinusoidal", 0.3672386566659432), ("rope", 0.3672386566659433), ("alibi", 0.48), ("wavelet", 0.33)]
    order = ["wavelet", "rope", "sinusoidal", "alibi"]
    assert [r[0] for r in _ascending(here)] == [r[0] for r in _ascending(sse)] == order
    assert [r[0] for r in _ascending([("b", 0.3672), ("a", 0.3673)])] == ["b", "a"]  # not a tie: by value
