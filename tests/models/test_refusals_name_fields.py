"""Refusals that tell the truth (issue 55, item 4): every ``config field NAME`` a refusal names is in the user's file
(its top level or its text_config), or the message says that transformers' configuration class derives it.

Two sources of refusals are fed files: every model type the verification table refuses (its reason was found on the
file ``save_pretrained`` writes, which holds the class's defaults and derivations: a user's file holds less), and
every hostile model configuration of tests/hostile/test_hostile_model_configs.py (the reader's own refusals).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from petheory.errors import ValidationError
from petheory.models import resolve_config
from petheory.models.verified import load

from _helpers import named_fields_hold

DATA = Path(__file__).parents[1] / "data" / "hf_configs"


REFUSED = sorted(mt for mt, r in load()["types"].items() if r["status"] != "ok" and "config field" in r.get("why", ""))


def test_some_table_refusals_name_fields():
    assert len(REFUSED) >= 5, REFUSED  # the test below is not vacuous


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
