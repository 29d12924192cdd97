"""Figures read as a paper reader would (issue 20.10): formulas in mathtext, error bars over seeds, Eq. 9
clipped at what a softmax weight can do, labelled axes, and a comparison whose panels say what they show."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import numpy as np
import pytest

from petheory import plots
from petheory.io import json_text
from petheory.rounding import record_differences

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("golden_records", ROOT / "tools" / "golden_records.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

#: Formulas written as plain text: ``||x||``, ``2^(j/2)``, ``sqrt(``, ``N_max``, one-letter subscripts (``w_i``),
#: Greek names as words or bare unicode math symbols outside ``$...$``.
PLAIN_FORMULA = re.compile(r"\|\||\^\(|sqrt\(|\bN_max\b|\b(alpha|beta|lambda|psi)\b|\bL_trans\b|\bB0\b"
                           r"|(?<![A-Za-z_])[A-Za-zα-ω]_[a-z0-9]\b|[λΣ∘ρκθψ]")


@pytest.fixture(autouse=True)
def _agg():
    plots.use_agg()


@pytest.fixture
def texts(monkeypatch):
    """Every text of every figure saved during the test (title, labels, legends, annotations), by figure."""
    import matplotlib.figure
    import matplotlib.text

    seen = []
    real = matplotlib.figure.Figure.savefig

    def spy(fig, *a, **kw):
        seen.append([t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()])
        return real(fig, *a, **kw)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", spy)
    return seen


@pytest.fixture
def drawn(monkeypatch):
    """Every figure saved during the test, in order (drawn, not yet closed)."""
    import matplotlib.figure

    figs = []
    real = matplotlib.figure.Figure.savefig

    def spy(fig, *a, **kw):
        figs.append(fig)
        return real(fig, *a, **kw)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", spy)
    return figs


def plain_formulas(strings) -> list[str]:
    """The strings with a plain-text formula outside their ``$...$`` parts."""
    return [s for s in strings if PLAIN_FORMULA.search(re.sub(r"\$[^$]*\$", "", s))]


def gap_rows(seeds=(0, 1, 2)):
    rng = np.random.default_rng(0)
    return [{"pe": pe, "seed": s, "m": m, "gap": g * m**-0.5 * (1 + 0.1 * rng.normal()), "bound_on_data": 10.0 * m**-0.5,
             "bound_certified": 1e3 * m**-0.5} for pe, g in (("alibi", 1.0), ("rope", 2.0)) for m in (16, 32, 64) for s in seeds]


SETTINGS = {"size": "smoke", "steps": 200, "n_test": 1000, "length": 200}


def gap_record(rows):
    """What experiments.li2025_rademacher_gap writes, around ``rows``."""
    return {"experiment": "li2025_rademacher_gap", "preset": "quick", "seed": 0, "settings": SETTINGS, "rows": rows}


def drift_run(top=3.0):
    ex = np.linspace(1, 40, 12)
    return {"experiment": "li2025_alibi_drift", "preset": "quick", "seed": 0, "settings": SETTINGS,
            "run": "r", "spec": "alibi", "n_max": 50, "n_layer": 1, "n_train": 64,
            "records": [{"layer": 0, "head": 0, "slope": 4 * top / 40, "excess": float(e), "drift_max": 1e-3 * e,
                         "drift_mean": 5e-4 * e, "sharp_bound": 0.02 * e, "eq9_rhs": top * e / 40} for e in ex]}


def save_gap(outdir, rows):
    from petheory.plots import bounds as fb

    data = fb.rademacher_gap_record(gap_record(rows))
    return plots.save(fb.draw_rademacher_gap(data), data, outdir, "bounds.rademacher_gap")


def save_drift(outdir, run):
    from petheory.plots import bounds as fb

    data = fb.alibi_drift_record(run)
    return plots.save(fb.draw_alibi_drift(data), data, outdir, "bounds.alibi_drift")


def test_the_plain_formula_check_catches_plain_text():
    plain = ["||PE(pos)||_2", "2^(j/2) (standard L2)", "max |b| = alpha (N'-1)", "N_max = 50", "f(θ) = Σ 2 w_i cos(iθ)",
             "eigenvalue ranges [λmin, λmax]"]
    assert plain_formulas(plain) == plain
    assert plain_formulas([r"$\Vert PE\Vert_2$", r"$N_{max} = 50$", "training samples $m$", "rope_yarn", "kerple_log"]) == []


def test_rademacher_gap_draws_mean_and_standard_error_over_seeds(tmp_path, drawn):
    import matplotlib.container


    rows = gap_rows()
    save_gap(tmp_path, rows)
    per_m = json.loads((tmp_path / "bounds.rademacher_gap.json").read_text())["per_m"]
    one = next(p for p in per_m if p["pe"] == "alibi" and p["m"] == 16)
    gaps = [r["gap"] for r in rows if r["pe"] == "alibi" and r["m"] == 16]
    assert one["gap"]["seeds"] == [0, 1, 2]
    assert one["gap"]["mean"] == pytest.approx(np.mean(gaps), rel=1e-12)
    assert one["gap"]["se"] == pytest.approx(np.std(gaps, ddof=1) / np.sqrt(3), rel=1e-12)
    gap_axis = drawn[0].axes[0]
    bars = [c for c in gap_axis.containers if isinstance(c, matplotlib.container.ErrorbarContainer)]
    assert len(bars) == 2 and all(c.has_yerr for c in bars)  # one per PE, with vertical error bars
    assert "3 seeds" in gap_axis.get_title()


def test_one_seed_draws_no_error_bars_and_says_so(tmp_path, texts):

    save_gap(tmp_path, gap_rows(seeds=(0,)))
    assert any("one seed per point" in s for s in texts[0])
    assert all(p["gap"]["se"] is None for p in json.loads((tmp_path / "bounds.rademacher_gap.json").read_text())["per_m"])


def test_alibi_drift_clips_eq9_at_the_largest_possible_change_of_a_softmax_weight(tmp_path, drawn):

    run = drift_run(top=3.0)  # Eq. 9's right side reaches 3 > 1
    save_drift(tmp_path, run)
    ys = np.concatenate([ln.get_ydata() for ln in drawn[0].axes[0].get_lines()])
    assert ys.max() <= 1.0
    data = json.loads((tmp_path / "bounds.alibi_drift.json").read_text())
    first = min(r["excess"] for r in run["records"] if r["eq9_rhs"] >= 1)
    assert data["eq9_vacuous_from_excess"] == {"0": int(first)}
    assert data["experiment"]["records"] == run["records"]  # the JSON keeps the unclipped values


def test_symlog_axis_and_n_max_are_labelled(tmp_path, drawn):
    from petheory.plots import bounds as fb

    fb.pe_norms_figure(tmp_path)
    axes = [a for a in drawn[0].axes if a.get_yscale() == "symlog"]
    assert axes and all("symlog" in a.get_ylabel() for a in axes)
    assert "N_max" not in drawn[0]._suptitle.get_text()  # the N_max mark is a tick of its own, not in the title


def test_spread_labels_keeps_order_and_a_minimum_gap():
    from petheory.plots.compare import spread_labels

    y = np.array([3.0, 1.0, 1.01, 1.02, 2.0, 1.005])
    out = spread_labels(y, 0.1)
    assert list(np.argsort(out, kind="stable")) == list(np.argsort(y, kind="stable"))
    assert np.min(np.diff(np.sort(out))) >= 0.1 - 1e-12
    assert np.allclose(spread_labels(np.array([0.0, 1.0, 2.0]), 0.1), [0.0, 1.0, 2.0])  # already apart: unchanged


def test_comparison_names_the_encodings_that_separate_from_their_null():
    from types import SimpleNamespace

    from petheory.plots.compare import separated

    rows = [SimpleNamespace(pe=pe, stress=SimpleNamespace(z=z)) for pe, z in (("a", 3.0), ("b", -2.5), ("c", 1.9),
                                                                            ("d", None))]
    assert separated(rows) == ["a", "b"]


def test_every_figure_names_claims_that_exist_for_the_gallery():
    """The docs' gallery links each figure to the claims it illustrates: each id must be in the catalogue."""
    from proofs_check import engine

    engine.load_builtin()
    ids = {c.id for c in engine.all_claims()}
    reg = plots.registry()
    assert all(f.illustrates for f in reg.values()), [f.name for f in reg.values() if not f.illustrates]
    missing = {(f.name, c) for f in reg.values() for c in f.illustrates if c not in ids}
    assert not missing, missing


def test_every_registered_figure_is_a_record_and_a_drawing_of_it():
    """Every figure has ``draw(record)`` (the last four, the wavelet decay, MiniLM's terms and the two trained
    bounds figures, were split in issue 29), so the committed-figure test below covers every figure."""
    unsplit = sorted(n for n, f in plots.registry().items() if f.draw is None)
    assert not unsplit, f"figures without draw(record): {unsplit}"


def _pixels(path):
    import matplotlib.image as mpimg

    return mpimg.imread(str(path))


@pytest.mark.parametrize("name", sorted(plots.registry()))
def test_committed_figure_is_its_json_drawn_again(name, tmp_path):
    """What figures/ shows is what the command draws, its formulas in mathtext (no plain-text formula in any title,
    label, legend or annotation: :func:`plain_formulas`): the committed PNG is the drawing of the committed JSON
    (pixel sizes equal, mean absolute difference below 1/255: the same drawing up to PNG rounding), and
    the command's data today equal the committed JSON (:func:`petheory.rounding.record_differences`: each float at
    its own error, on any processor and at any load; the records behind them are committed too). A figure that draws
    an experiment's records (``needs``) keeps that record in its JSON (``experiment``): the figure's data are
    recomputed from it (tools/golden_records.py's ``figure_record``; training is the experiment's, tested in
    tests/plots/test_bounds_figures.py). tests/analyses/test_golden_everywhere.py compares them on other processors."""
    import json

    import matplotlib.text

    from petheory.plots import save

    fig = plots.registry()[name]
    committed = ROOT / "figures"
    data = json.loads((committed / f"{name}.json").read_text(encoding="utf-8"))
    drawn = fig.draw(data)
    strings = [t.get_text() for t in drawn.findobj(matplotlib.text.Text) if t.get_text()]
    assert len(strings) > 3 and not plain_formulas(strings), plain_formulas(strings)  # formulas in mathtext
    png = save(drawn, data, tmp_path / "redrawn", name)[0]
    a, b = _pixels(png), _pixels(committed / f"{name}.png")
    assert a.shape == b.shape, (a.shape, b.shape)
    assert float(abs(a - b).mean()) < 1 / 255
    if fig.needs:
        exp = data["experiment"]
        assert exp["experiment"] == fig.needs and (exp["preset"], exp["seed"]) == ("quick", 0)
    fresh = golden.figure_record(name, tmp_path)  # what `petheory figures --only NAME` saves today
    diff = record_differences(data, fresh)
    assert not diff, f"figures/{name}.json is stale: run `petheory figures --only {name} --update-committed`: {diff[:5]}"


def test_a_registered_figure_saves_its_data_drawn(tmp_path):
    """A figure registered with ``data`` (:func:`petheory.plots.register`) saves exactly ``data(preset, seed)`` as its
    JSON and its drawing as its PNG: what lets the test above compare ``data`` alone with the committed JSON."""
    fig = plots.registry()["geometry.eigenvalues"]
    png, js = fig.fn(tmp_path, preset="quick", seed=0)
    assert json.loads(js.read_text(encoding="utf-8")) == json.loads(json_text(fig.data("quick", 0)))
    assert png.name == "geometry.eigenvalues.png" and _pixels(png).shape[0] > 100
    assert sum(f.data is not None for f in plots.registry().values()) >= 16


def test_record_figures_have_one_line_per_configuration_not_per_seed():
    """A 42-run legend covered the axes: the chen2025 figures aggregate seeds (mean ± s.e.), one entry per config."""
    import json

    data = json.loads((ROOT / "figures" / "lengthgen.accuracy.json").read_text(encoding="utf-8"))
    for task, runs in data.items():
        assert len(runs) <= 10, (task, len(runs))
        assert all(len(r["seeds"]) >= 3 and len(r["token_acc_se"]) == len(r["sizes"]) for r in runs.values()), task


def test_committed_records_name_no_machine_paths():
    """A committed figure's JSON says what it drew, not where it was made: an absolute path in it (the minilm record
    named the installing machine's site-packages) differs on every clone and fails the redraw comparison there."""
    import json
    import re

    absolute = re.compile(r"(?:^|[\s(=])/(?:[\w.-]+/)+")

    def strings(x):
        if isinstance(x, dict):
            for k, v in x.items():
                yield from strings(k)
                yield from strings(v)
        elif isinstance(x, list):
            for v in x:
                yield from strings(v)
        elif isinstance(x, str):
            yield x

    bad = {p.name: s for p in sorted((ROOT / "figures").glob("*.json"))
           for s in strings(json.loads(p.read_text(encoding="utf-8"))) if absolute.search(s)}
    assert not bad, bad
