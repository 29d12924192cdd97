"""``report``: its default length and where the header says it comes from, the long-context lines of a windowed
section, lambda's normalisation, the figure's legend, a bug in a part raised, not reported as skipped, and
the config's lints as its warnings."""

from __future__ import annotations

import json
from pathlib import Path

from petheory.analyses.report import default_length, report
from petheory.loaders import resolve_scheme


DATA = Path(__file__).parents[1] / "data" / "hf_configs"


def _llama32(tmp_path) -> Path:
    """Llama 3.2's positions: llama3 scaling with factor 32 over L = 8,192, max_position_embeddings 131,072."""
    cfg = json.loads((DATA / "llama3_1_8b.json").read_text())
    cfg["rope_scaling"]["factor"] = 32.0
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    return path


def test_the_default_length_is_max_position_embeddings_not_factor_times_l(tmp_path):
    scheme = resolve_scheme(str(_llama32(tmp_path)))
    assert (scheme.context, scheme.max_context) == (8192, 131072)
    assert default_length(scheme) == (131072, "max_position_embeddings")  # 32 x 8,192 = 262,144 was reported before


def test_a_config_whose_max_position_embeddings_is_l_says_why_the_report_goes_further():
    n, why = default_length(resolve_scheme(str(DATA / "qwen2_5_7b_yarn.json")))
    assert n == 4 * 32768 and why == "factor 4 x L; max_position_embeddings is 32,768"


def test_the_header_says_where_n_comes_from():
    rec = report(resolve_scheme("rope_yarn:scale=4", d=16, context=64), multiples=(1,), null_draws=0)
    assert rec.length == 256 and rec.length_from.startswith("factor 4 x L")
    assert "report at N = 256 (factor 4 x L; max_position_embeddings is 64)" in rec.summary_lines()[1]
    given = report(resolve_scheme("rope", d=16, context=64), length=100, multiples=(1,), null_draws=0)
    assert given.length_from == "given" and "report at N = 100;" in given.summary_lines()[1]


def test_a_windowed_sections_long_context_lines_call_the_window_w_not_l():
    rec = report(resolve_scheme(str(DATA / "mistral_7b.json")), length=8192, multiples=(1,), null_draws=0)
    lines = rec.sections[0].long_context_lines()
    assert "the window W = 4,096 positions" in lines[0] and "<= m <= W" in lines[0]
    assert "L = " not in " ".join(lines)  # L is the pre-training context (32,768) everywhere else in the section


def test_lambda_is_printed_with_its_normalisation():
    rec = report(resolve_scheme("rope", d=16, context=64), length=64, multiples=(1,), null_draws=0)
    md = rec.markdown()
    assert "λ: eigenvalues of the N x N matrix T_N[i, j] = a_(i-j)" in md and "not divided by N" in md


def test_the_figure_legend_names_the_layer_kind_of_each_curve(tmp_path):
    from petheory.plots import use_agg
    from petheory.plots.models import draw_model_comparison, save_model_comparison

    use_agg()
    rec = report(resolve_scheme(str(DATA / "mistral_7b.json")), length=8192, multiples=(1,), null_draws=0,
                 source="mistral")
    fig = draw_model_comparison([rec])
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert labels == ["mistral (layers 0-31: sliding_attention sliding 4,096 (rope)): L = 32,768, N = 8,192, 64 bands"]
    save_model_comparison([rec], tmp_path / "fig.png")
    assert json.loads((tmp_path / "fig.json").read_text())["models"][0]["layer_kind"].startswith("sliding_attention")


def test_a_bug_in_a_part_of_the_report_is_raised_not_reported_as_skipped(monkeypatch):
    """issue 45: the report caught bare ValueError and printed a real bug as 'skipped'."""
    import pytest

    from petheory.errors import ValidationError

    def bug(*a, **k):
        raise ValueError("a bug: not the input's fault")

    monkeypatch.setattr("petheory.analyses.stress.layer_stress", bug)
    s = resolve_scheme("alibi:slope=0.5", d=16, context=64)
    with pytest.raises(ValueError, match="a bug"):
        report(s, length=64, multiples=(1,), null_draws=2)

    def refused(*a, **k):
        raise ValidationError("this kind has no geometry at this size")

    monkeypatch.setattr("petheory.analyses.stress.layer_stress", refused)
    assert report(s, length=64, multiples=(1,), null_draws=2).sections[0].stress.skipped.startswith("this kind")


def test_the_config_lints_are_the_report_s_warnings_shown_by_its_renderers():
    """A model's report carries the lints of the config its scheme was read from (the same lines ``config_lints``
    gives), and its Markdown and terminal view show them; a clean config, or none, gives none. Planted: a dynamic
    block with factor 1 (a block that changes nothing) in a clean config must come out as one warning naming the
    field."""
    from dataclasses import replace

    from petheory.analyses.lints import config_lints
    from petheory.loaders.model_config import read_config
    from petheory.models import resolve_config

    path = DATA / "mistral_7b.json"
    scheme, clean = resolve_scheme(path), read_config(path)
    assert scheme.config == clean  # the file read once, held by its scheme
    kw = dict(length=64, multiples=(1,), null_draws=0)
    assert config_lints(clean, scheme, length=64) == ()
    assert report(scheme, **kw).warnings == () == report(replace(scheme, config=None), **kw).warnings
    planted = {**clean, "rope_scaling": {"rope_type": "dynamic", "factor": 1.0}}
    scheme = resolve_config(planted)
    r = report(scheme, **kw)
    assert len(r.warnings) == 1 and r.warnings[0].startswith("rope_scaling.factor = 1:"), r.warnings
    assert r.warnings == config_lints(planted, scheme, length=64)
    assert f"### Warnings\n\n- {r.warnings[0]}" in r.markdown()
    assert f"warning   {r.warnings[0]}" in [line.text for line in r.terminal() if hasattr(line, "text")]
    assert r.as_dict()["warnings"] == list(r.warnings)
