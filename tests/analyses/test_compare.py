"""petheory.analyses.compare and `petheory compare`: every registered PE (or a model's config) side by side."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from petheory import encodings as enc
from petheory import geometry
from petheory.analyses import compare as compare_module
from petheory.analyses.compare import Failed, compare, compare_scheme, lengthgen_summary, stress_summary
from petheory.cli import main
from petheory.loaders import resolve_scheme
from petheory.errors import NotAMetricError, ValidationError
from petheory.scheme import Positions


def test_rows_reuse_the_single_pe_functions():
    target = geometry.builtin_target()
    row = compare(["alibi"], target, length=64, lengths=(8, 64), context=8, null_draws=5).as_dict()["rows"][0]
    # ALiBi's symbol at N=64 is the finite-section Fejér-like sum: its minimum is a_N(0) = -sum |k|
    assert math.isclose(row["spectrum"]["symbol_min"], -2 * sum(range(64)), rel_tol=1e-12)
    assert row["stress"]["stress"] == geometry.encoding_stress("alibi", target, d=64).stress
    assert row["norms"]["values"] == {"8": 7.0, "64": 63.0} and math.isclose(row["norms"]["growth"], math.log(9) / math.log(8))


def test_mds_optimal_sits_far_below_its_null_and_nope_far_above():
    rows = {r["pe"]: r for r in compare(["mds_optimal", "nope"], length=32, lengths=(8, 32), context=8, null_draws=8).as_dict()["rows"]}
    assert rows["mds_optimal"]["stress"]["stress"] < 1e-7 and rows["mds_optimal"]["stress"]["z"] < -10
    assert rows["nope"]["stress"]["stress"] == 1.0 and rows["nope"]["stress"]["z"] > 10


def test_null_reference_is_seeded():
    t = geometry.builtin_target()
    rope = resolve_scheme("rope").main.positions
    a = stress_summary(rope, t, null_draws=4, seed=3)
    b = stress_summary(rope, t, null_draws=4, seed=3)
    c = stress_summary(rope, t, null_draws=4, seed=4)
    assert a == b and a.null_mean != c.null_mean


def test_lengthgen_reads_records_by_registry_name_one_configuration_at_a_time():
    recs = [
        {"task": "running_sum", "pe": "kerple_log", "train_len": 50,
         "final": {"test": {"50": {"mse": 0.1}, "100": {"mse": 0.3}, "200": {"mse": 0.5}}}},
        {"task": "running_sum", "pe": "kerple_log:r1=0.5", "train_len": 50,
         "final": {"test": {"50": {"mse": 0.3}, "200": {"mse": 0.7}}}},
        {"task": "parity", "pe": "rope+sinusoidal", "train_len": 4,
         "final": {"test": {"4": {"seq_acc": 1.0, "token_acc": 1.0}, "8": {"seq_acc": 0.25, "token_acc": 0.5}}}},
    ]
    lg = lengthgen_summary(recs, "kerple_log")
    assert [g["pe"] for g in lg["running_sum"]] == ["kerple_log", "kerple_log:r1=0.5"]  # two configurations, never averaged
    assert [g["runs"] for g in lg["running_sum"]] == [1, 1] and lg["running_sum"][0]["config"] == {"model.pe": "kerple_log"}
    assert math.isclose(lg["running_sum"][0]["metrics"]["mse"]["at_longest"], 0.5)
    assert math.isclose(lg["running_sum"][1]["metrics"]["mse"]["at_train"], 0.3) and lg["running_sum"][1]["longest"] == 200
    assert [g["pe"] for g in lengthgen_summary(recs, "kerple_log", {"r1": 0.5})["running_sum"]] == ["kerple_log:r1=0.5"]
    parsed = [{**r, "_pe_params": {"r1": 0.50}} if r["pe"].endswith("0.5") else r for r in recs]  # as petheory compare reads
    assert [g["pe"] for g in lengthgen_summary(parsed, "kerple_log", {"r1": 0.5})["running_sum"]] == ["kerple_log:r1=0.5"]
    assert lengthgen_summary(recs, "rope")["parity"][0]["metrics"]["seq_acc"]["at_longest"] == 0.25
    assert lengthgen_summary(recs, "alibi") == {}


def test_cli_compare_json_and_records(tmp_path, capsys, monkeypatch):
    run = tmp_path / "runs" / "a"
    run.mkdir(parents=True)
    (run / "record.json").write_text(json.dumps({"task": "copy", "pe": "xpos", "train_len": 4, "final": {"test": {
        "4": {"seq_acc": 0.9, "token_acc": 0.95}, "8": {"seq_acc": 0.1, "token_acc": 0.6}}}}))
    (tmp_path / "runs" / "b").mkdir()
    (tmp_path / "runs" / "b" / "record.json").write_text("{not json")  # skipped, not fatal
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "--pe", "xpos,kerple_log", "--length", "32", "--lengths", "8,32", "--context", "8",
                 "--null-draws", "3", "--json", "-"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["pe"] for r in out["rows"]] == ["xpos", "kerple_log"] and out["records"]["count"] == 1
    assert out["rows"][0]["lengthgen"]["copy"][0]["metrics"] == {"seq_acc": {"at_train": 0.9, "at_longest": 0.1},
                                                                 "token_acc": {"at_train": 0.95, "at_longest": 0.6}}
    assert out["rows"][0]["norms"]["angles"]["bands"] == 32


def test_cli_compare_table_says_when_there_are_no_records(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "--pe", "rope_yarn", "--length", "16", "--lengths", "8,16", "--context", "8", "--null-draws", "3"]) == 0
    out = capsys.readouterr().out
    assert "rope_yarn" in out and "no records" in out and "0 training records" in out


@pytest.mark.parametrize("argv,match", [
    (["compare", "--pe", "nosuch"], "unknown encoding"),
    (["compare", "--lengths", "8,x"], "--lengths"),
    (["compare", "--d-model", "7"], "even"),
    (["compare", "--null-draws", "1"], "--null-draws"),
])
def test_cli_compare_bad_input_is_one_line_exit_2(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert match in err and len(err.strip().splitlines()) == 1


def test_every_registered_encoding_gets_a_full_row():
    rows = compare(length=32, lengths=(8, 32), context=32, null_draws=3).as_dict()["rows"]
    # an entry that takes a training length gets the context as its n_max, as `petheory compare --context 32` does (a
    # learned table of n_max=8 has no spectrum at 32 positions: the context covers the spectral length here)
    assert [r["pe"] for r in rows] == [n + (":n_max=32" if "n_max" in enc.info(n).params else "") for n in enc.available()]
    for r in rows:
        for key in ("spectrum", "stress", "norms"):
            assert "error" not in r[key], (r["pe"], key, r[key])
        assert np.isfinite(r["spectrum"]["spread"]) and r["spectrum"]["spread"] >= -1e-9


def test_biases_report_conditional_positive_definiteness():
    rows = {r["pe"]: r for r in compare(["kerple_log", "sandwich", "t5", "rope"], length=64, lengths=(8, 64), context=8,
                                        null_draws=3).as_dict()["rows"]}
    assert rows["kerple_log"]["spectrum"]["cpd"]["cpd"] and rows["sandwich"]["spectrum"]["cpd"]["cpd"]
    assert not rows["t5"]["spectrum"]["cpd"]["cpd"]  # a random bucket table is not CPD
    assert rows["rope"]["spectrum"]["cpd"] is None


def test_compare_figure_renders_png_and_json(tmp_path, monkeypatch):
    from petheory import plots

    plots.use_agg()
    full = compare
    some = ["alibi", "kerple_log", "mds_optimal", "nope", "rope", "xpos"]  # one of each kind and case (zero norms, CPD)
    monkeypatch.setattr("petheory.analyses.compare.compare", lambda schemes=None, **kw: full(some, **{**kw, "length": 64}))
    paths = plots.registry()["compare.encodings"].fn(tmp_path, preset="quick", seed=0)
    assert sorted(p.suffix for p in paths) == [".json", ".png"] and all(p.stat().st_size > 0 for p in paths)
    data = json.loads((tmp_path / "compare.encodings.json").read_text())
    assert [r["pe"] for r in data["rows"]] == some


def test_a_bias_without_a_logit_gap_metric_falls_back_to_hellinger(monkeypatch):
    @enc.register("user_modern_bump", "bias", conventions="test only", source="test", overwrite=True)
    def bump(n):
        """A bias that rates every other key above the query's own position."""
        return -5.0 * np.eye(n) + 0.1 * np.abs(np.subtract.outer(np.arange(n), np.arange(n)))

    try:
        s = stress_summary(Positions("bias", "user_modern_bump", {}, 64), geometry.builtin_target(), null_draws=3)
        assert "Hellinger" in s.geometry and 0 <= s.stress <= 1
    finally:
        enc._REGISTRY.pop("user_modern_bump", None)


def test_only_a_metric_refusal_of_the_gap_map_falls_back_to_hellinger(monkeypatch):
    """The fallback is chosen by the exception's type (bias_distances' NotAMetricError): another refusal that merely
    names bias_map='hellinger' in its text is raised."""
    pos = Positions("bias", "alibi", {"slope": 0.5}, 64)

    real = geometry.encoding_stress

    def refuse(*a, bias_map=None, **k):  # a fallback (bias_map='hellinger') would get an answer
        if bias_map == "hellinger":
            return real(*a, bias_map=bias_map, **k)
        raise ValidationError("target too small; try bias_map='hellinger'")

    monkeypatch.setattr(geometry, "encoding_stress", refuse)
    with pytest.raises(ValidationError, match="target too small"):
        stress_summary(pos, geometry.builtin_target(), null_draws=2)
    monkeypatch.undo()
    bump = -5.0 * np.eye(8) + 0.1 * np.abs(np.subtract.outer(np.arange(8), np.arange(8)))
    with pytest.raises(NotAMetricError, match="negative distance"):
        geometry.bias_distances(bump, bias_map="gap")


def test_a_refused_column_is_recorded_and_a_bug_in_one_is_raised(monkeypatch):
    scheme = resolve_scheme("alibi:slope=0.5")
    kw = dict(length=16, lengths=(8, 16), null_draws=2)

    def refuse(*a, **k):
        raise ValidationError("spectrum refused here")

    monkeypatch.setattr(compare_module, "spectral_summary", refuse)
    row = compare_scheme(scheme, geometry.builtin_target(), **kw)[0]
    assert row.spectrum == Failed("spectrum refused here")
    assert not isinstance(row.stress, Failed) and not isinstance(row.norms, Failed)

    def bug(*a, **k):
        raise KeyError("a bug, not a refusal")

    monkeypatch.setattr(compare_module, "spectral_summary", bug)
    with pytest.raises(KeyError, match="a bug"):
        compare_scheme(scheme, geometry.builtin_target(), **kw)


def test_cli_compare_markdown(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "--pe", "alibi,rope", "--length", "16", "--lengths", "8,16", "--context", "8", "--null-draws", "3",
                 "--markdown", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [ln for ln in lines if ln.startswith("| ")]
    assert len(rows) == 3 and rows[0].startswith("| PE | kind |") and rows[1].startswith("| alibi | bias |")
    assert all(ln.count(" | ") == rows[0].count(" | ") for ln in rows)


DATA = Path(__file__).parents[1] / "data" / "hf_configs"


def test_compare_labels_a_layer_kind_by_its_layers_as_report_does():
    rows = compare([resolve_scheme(str(DATA / "gemma3_4b.json"))], length=64, lengths=(64, 128), null_draws=2).rows
    assert rows[0].pe.endswith("[layers 0-4, 6-10, 12-16, 18-22, 24-28, 30-33: sliding_attention]")
    assert rows[1].pe.endswith("[layers 5, 11, 17, 23, 29: full_attention]")  # not '5..29', read as every layer


def test_a_rotation_has_no_norm_growth_where_its_norm_change_is_rounding():
    """A rotation changes no norm: its computed change is rounding (1.1e-16 at 64 positions, 2.2e-16 at 4096 on one
    processor, 2.2e-16 at both on another), and the slope between two such numbers (0.16 against 0.0) is noise: None.
    A rotary table that scales (YaRN's mscale) changes norms for real and keeps its slope."""
    from petheory import rounding
    from petheory.analyses.compare import norm_summary

    rope = norm_summary(Positions("rotary", "rope", {"base": 10000.0}, 256), lengths=(64, 4096), context=64)
    assert max(rope.values.values()) <= 2 * rounding.gamma(256 + 4) and rope.growth is None
    yarn = norm_summary(Positions("rotary", "rope_yarn", {"scale": 4.0}, 64), lengths=(64, 4096), context=64)
    assert min(yarn.values.values()) > 0.1 and yarn.growth == pytest.approx(0.0, abs=1e-12)
    # the threshold is the rotation's rounding, not a cut on any small number: a bias of 1e-12 keeps its slope
    alibi = norm_summary(Positions("bias", "alibi", {"slope": 1e-12}, 64), lengths=(8, 64), context=8)
    assert alibi.growth == pytest.approx(math.log(63 / 7) / math.log(8))
