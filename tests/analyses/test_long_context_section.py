"""The long-context theory asked about one rotary layer kind: the report's section (petheory.analyses.long_context).

The theory itself (Men's base scan, Liu's critical dimension, RoFormer's bound, temperatures) is tested in
tests/theory/test_long_context.py; here its record, its lines and its figure.
"""

from __future__ import annotations

import json
import math

import pytest

from petheory.analyses.long_context import long_context_section, supported_context
from petheory.bounds.men_base import men_smallest_base
from petheory.errors import ValidationError
from petheory.scheme import Positions


def test_long_context_section_for_llama2_like_rope():
    p = Positions("rotary", "rope", {"base": 1e4, "pairing": "half"}, 128)
    s = long_context_section(p, context=4096, extended_context=4096, length=4096)
    json.dumps(s.as_dict())  # JSON-able
    assert s.liu.critical_dimension == 92 and round(s.liu.extrapolation_bound) == 4712
    assert s.men.passes_at_context is False  # 1e4 < 2.7e4: Men et al.'s point about Llama 2 at 4k
    assert s.men.smallest_base_at_context > 1e4
    assert s.roformer.distances[0] == 0 and s.roformer.relative_bound[0] == 32.5
    assert s.liu.bands_turned_within_context == 46


@pytest.mark.parametrize("p", [Positions("rotary", "rope", {"base": 1e4, "pairing": "half"}, 64),
                               Positions("rotary", "rope_pi", {"base": 1e4, "pairing": "half", "scale": 4.0}, 64),
                               Positions("rotary", "rope_dynamic", {"base": 1e4, "scale": 4.0, "n_max": 512}, 64)])
def test_the_sections_supported_context_is_supported_context(p):
    # the report prints the section's own (one computation of the frequencies and Liu's d_extra for both)
    s = long_context_section(p, context=512, extended_context=2048, length=2048)
    assert s.supported == supported_context(p, context=512, extended=2048)
    assert s.supported.critical_dimension == s.liu.critical_dimension


def test_long_context_section_applies_the_scaling():
    p = Positions("rotary", "rope_pi", {"base": 1e4, "pairing": "half", "scale": 4.0}, 64)
    s = long_context_section(p, context=512, extended_context=2048, length=2048)
    assert s.liu.bands_turned_within_context_scaled < s.liu.bands_turned_within_context
    assert s.temperature.scale == 4.0 and s.temperature.lengths == [512, 2048]  # ascending, each once


def test_long_context_section_refuses_what_it_cannot_read():
    with pytest.raises(ValidationError, match="rotary"):
        long_context_section(Positions("bias", "alibi", {}, 64), context=512, extended_context=512, length=512)
    with pytest.raises(ValidationError, match="extended_context"):
        long_context_section(Positions("rotary", "rope", {"base": 1e4}, 64), context=512, extended_context=256,
                                length=512)


def test_bases_figure_is_written(tmp_path):
    from petheory.plots import use_agg
    from petheory.plots.long_context import save_bases_vs_men

    use_agg()
    p = Positions("rotary", "rope", {"base": 5e4, "pairing": "half"}, 64)
    s = long_context_section(p, context=512, extended_context=1024, length=1024)
    paths = save_bases_vs_men([s], ["tiny"], tmp_path / "bases.png",
                              curve={"contexts": [256, 512, 1024], "rotary_dim": 64,
                                     "smallest_base": [men_smallest_base(64, L) for L in (256, 512, 1024)]})
    assert [x.name for x in paths] == ["bases.png", "bases.json"] and all(x.stat().st_size > 0 for x in paths)
    assert json.loads((tmp_path / "bases.json").read_text())["models"][0]["base"] == 5e4


def test_lines_name_lengths_by_role_and_say_where_the_extended_context_comes_from():
    p = Positions("rotary", "rope_pi", {"base": 1e4, "pairing": "half", "scale": 4.0}, 64)
    s = long_context_section(p, context=512, extended_context=2048, length=1024,
                                extended_from="factor 4 x L; max_position_embeddings is 512")
    lines = s.lines()
    ext = next(x for x in lines if "extended context" in x)
    assert "(factor 4 x L; max_position_embeddings is 512)" in ext
    assert "frequencies pass " in ext or "frequencies fail " in ext  # whole words, not 'passe'
    temp = next(x for x in lines if x.startswith("- attention temperature"))
    assert "n = 512 (L), 1,024 (N), 2,048 (extended)" in temp


def test_a_layer_whose_query_scale_grows_says_so_in_its_temperature_line():
    """Ministral 3 multiplies every query by 1 + beta log(1 + floor(p / L0)) (transformers' get_llama_4_attn_scale):
    the report must not call its logit factor 'the same at every n'."""
    from pathlib import Path

    from petheory.analyses.report import report
    from petheory.loaders import resolve_scheme

    cfg = Path(__file__).parents[1] / "data" / "hf_configs" / "ministral3_8b.json"
    t = report(resolve_scheme(str(cfg))).sections[0].long_context.temperature
    assert t.query_scale_kind == "llama4_beta"
    beta, L0 = 0.1, 16384  # the fixture's llama_4_scaling_beta and original_max_position_embeddings
    want = [1 + beta * math.log(1 + (n - 1) // L0) for n in t.lengths]
    assert t.query_scale == pytest.approx(want, rel=1e-15)
    line = next(x for x in report(resolve_scheme(str(cfg))).lines() if "attention temperature" in x)
    assert "growing with the query's position" in line and "the same at every n" not in line
