"""Refusals that tell the truth (issue 55, item 4): every ``config field NAME`` a refusal names is in the user's file
(its top level or its text_config), or the message says that transformers' configuration class derives it.

Two sources of refusals are fed files: every model type the verification table refuses (its reason was found on the
file ``save_pretrained`` writes, which holds the class's defaults and derivations: a user's file holds less), and
every hostile model configuration of tests/hostile/test_hostile_model_configs.py (the reader's own refusals).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from petheory.errors import ValidationError
from petheory.models import resolve_config
from petheory.models.verified import load

from _helpers import named_fields_hold

DATA = Path(__file__).parents[1] / "data" / "hf_configs"


#: Every model type the table refuses (a reason that names no config field passes trivially; one that does is checked).
REFUSED = sorted(mt for mt, r in load()["types"].items() if r["status"] == "refused")


def test_some_table_refusals_name_fields():
    assert len(REFUSED) >= 5, REFUSED  # the test below is not vacuous
    assert any("config field" in load()["types"][mt]["why"] for mt in REFUSED)  # and one of them names a field


@pytest.mark.parametrize("mt", REFUSED)
def test_a_table_refusal_names_only_fields_of_the_file_or_says_they_are_derived(mt):
    cfg = {"model_type": mt, "num_hidden_layers": 2, "hidden_size": 256, "num_attention_heads": 4,
           "max_position_embeddings": 4096}
    with pytest.raises(ValidationError) as exc:
        resolve_config(cfg)
    assert named_fields_hold(str(exc.value), cfg) == [], str(exc.value)


def test_a_derived_field_is_marked_and_a_field_of_the_file_is_not():
    from petheory.models.verified import derived_fields

    why = "config field layer_types[0] = 'indexed_attention' is not a layer type"
    assert "derives it" in derived_fields(why, {"model_type": "x"})
    assert derived_fields(why, {"model_type": "x", "layer_types": ["indexed_attention"]}) == why
    assert named_fields_hold(why, {"model_type": "x"}) == ["layer_types[0]"]  # the check catches an unmarked one


def _hostile_rows():
    from hostile_util import MODEL_CONFIG_ROWS

    return [(name, doc) for name, doc, _ in MODEL_CONFIG_ROWS if isinstance(doc, dict)]


@pytest.mark.parametrize("name,doc", _hostile_rows(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_reader_refusal_names_only_fields_of_the_file(name, doc):
    try:
        resolve_config(doc)
    except ValidationError as exc:
        assert named_fields_hold(str(exc), doc) == [], str(exc)


@pytest.mark.parametrize("name,edit", [
    ("gemma2_9b", {"sliding_window_size": 1024}),
    ("bamba_9b", {"attn_rotary_emb": 32}),
    ("bamba_9b", {"partial_rotary_factor": 0.25}),
    ("hunyuan_a13b", {"rope_scaling": {"type": "dynamic", "alpha": 1000.0}}),
])
def test_a_published_file_refused_for_what_it_says_names_its_own_fields(name, edit):
    doc = {**json.loads((DATA / f"{name}.json").read_text()), **edit}
    with pytest.raises(ValidationError) as exc:
        resolve_config(doc)
    assert named_fields_hold(str(exc.value), doc) == [], str(exc.value)


_GLM_ODD = {"model_type": "glm4v_moe_text", "hidden_size": 4096, "num_attention_heads": 96, "num_hidden_layers": 2,
            "max_position_embeddings": 65536}
_ERNIE = {"model_type": "ernie4_5_vl_moe", "text_config": {"model_type": "ernie4_5_vl_moe_text", "hidden_size": 2560,
                                                           "num_attention_heads": 20, "num_hidden_layers": 2,
                                                           "max_position_embeddings": 131072}}


def _glm_odd(rope):
    return {**_GLM_ODD, "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5,
                                            "mrope_section": [3, 4, 4], **rope}}


def _ernie(rope):
    return {**_ERNIE, "text_config": {**_ERNIE["text_config"], "rope_parameters": {"rope_theta": 500000.0, **rope}}}


#: issue 55's later refusal paths (odd rotary under a scaling, a class field restating what transformers runs, ERNIE
#: 4.5-VL's M-RoPE) fed a user's minimal file, not the one save_pretrained writes
READER_PATHS = [
    ("odd-dynamic", _glm_odd({"rope_type": "dynamic", "factor": 4.0}), "dynamic NTK"),
    ("odd-yarn", _glm_odd({"rope_type": "yarn", "factor": 4.0}), "yarn ramp"),
    ("odd-longrope", _glm_odd({"rope_type": "longrope", "factor": 4.0, "original_max_position_embeddings": 4096,
                               "short_factor": [1.0] * 10, "long_factor": [1.0] * 10}), "short_factor has 10"),
    ("minimax-m3-rotary-dim", {"model_type": "minimax_m3_vl_text", "hidden_size": 6144, "num_attention_heads": 64,
                               "head_dim": 128, "num_hidden_layers": 2, "max_position_embeddings": 4096,
                               "rotary_dim": 32}, "rotary_dim = 32"),
    ("ernie-rope-type", _ernie({"rope_type": "linear", "factor": 2.0}), "default rope type only"),
    ("ernie-sections", _ernie({"rope_type": "default", "mrope_section": [20, 24, 20]}), "counts must be equal"),
    ("ernie-sum", _ernie({"rope_type": "default", "mrope_section": [20, 20, 20]}), "(h, w, t) summing to the 64"),
    ("ernie-read", _ernie({"rope_type": "default", "mrope_section": [24, 24, 16]}), None),
]


@pytest.mark.parametrize("name,doc,says", READER_PATHS, ids=[r[0] for r in READER_PATHS])
def test_a_reader_refusal_of_issue_55_names_only_fields_of_the_users_file(name, doc, says):
    from petheory.models.config import read_config

    if says is None:  # the control: a file these paths read (its sections fit its 64 bands)
        assert read_config(doc).main.positions.mrope.sections == (16, 24, 24)
        return
    with pytest.raises(ValidationError, match=re.escape(says)) as exc:
        read_config(doc)
    assert named_fields_hold(str(exc.value), doc) == [], str(exc.value)
