"""The config lints say what transformers does with the field they name, checked against transformers itself."""

from __future__ import annotations

import copy
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from petheory.analyses.lints import config_lints
from petheory.bounds.rope_base import exact_precision_max_base, unit_roundoff
from petheory.analyses.plan import plan
from petheory.loaders import resolve_scheme
from petheory.models import resolve_config

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
LLAMA = {"model_type": "llama", "hidden_size": 512, "num_attention_heads": 4, "num_hidden_layers": 2,
         "max_position_embeddings": 8192, "rope_theta": 500000.0}


def _hf(cfg: dict):
    pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = transformers.AutoConfig.for_model(**copy.deepcopy(cfg))
    return config, LlamaRotaryEmbedding(config)


def _one(cfg: dict, field: str) -> str:
    found = [x for x in config_lints(cfg) if x.startswith(field)]
    assert len(found) == 1, config_lints(cfg)
    return found[0]


def test_a_factor_of_one_is_inert_in_transformers():
    cfg = {**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": 1.0, "rope_theta": 5e5,
                                        "original_max_position_embeddings": 4096}}
    _one(cfg, "rope_parameters.factor = 1")
    _, plain = _hf({**LLAMA, "rope_parameters": {"rope_type": "default", "rope_theta": 5e5}})
    null = {**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": None, "rope_theta": 5e5,
                                         "original_max_position_embeddings": 8192}}
    _one(null, "rope_parameters.factor is null")
    for c in (cfg, null):
        _, emb = _hf(c)
        # YaRN's blend of w and w/1 in float32: within (|ln base| + 12) u32 of the default ladder (test_plan_runtime)
        tol = (math.log(5e5) + 12) * 2.0**-24
        assert np.allclose(emb.inv_freq.numpy(), plain.inv_freq.numpy(), rtol=tol, atol=0) and emb.attention_scaling == 1
    assert config_lints({**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "rope_theta": 5e5,
                                                      "original_max_position_embeddings": 2048}}) == ()


def test_yarn_without_its_original_context_counts_from_max_position_embeddings():
    cfg = {**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "rope_theta": 5e5}}
    line = _one(cfg, "rope_parameters.original_max_position_embeddings is missing")
    assert "(8192)" in line
    config, _ = _hf(cfg)
    assert config.rope_parameters["original_max_position_embeddings"] == 8192
    ok = {**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "rope_theta": 5e5,
                                       "original_max_position_embeddings": 2048}}
    assert config_lints(ok) == ()


def test_a_rope_theta_beside_the_block_or_missing_from_it_is_named():
    beside = {**LLAMA, "rope_parameters": {"rope_type": "default", "rope_theta": 1e4}}
    assert "rope_theta = 500000 is ignored" in _one(beside, "rope_theta = 500000")
    config, _ = _hf(beside)
    assert config.rope_parameters["rope_theta"] == 1e4  # what the lint says transformers uses
    missing = {k: val for k, val in LLAMA.items() if k != "rope_theta"} | {"rope_parameters": {"rope_type": "default"}}
    _one(missing, "rope_parameters has no rope_theta")
    config, _ = _hf(missing)
    assert config.rope_parameters["rope_theta"] == 1e4  # the family's default


def test_published_configs_have_no_lints():
    for name in ("llama3_8b", "qwen3_8b", "gpt_oss_20b", "qwen2_5_7b_yarn", "gemma3_27b", "mistral_7b"):
        path = DATA / f"{name}.json"
        assert config_lints(json.loads(path.read_text()), resolve_scheme(str(path))) == (), name


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_above_the_precision_ceiling_the_slowest_band_rounds_away(dtype):
    """At b_max (N/u)^(r/(r-2)) the slowest band's phase at N is u: 1 + phase rounds to 1 just above, not well below."""
    torch = pytest.importorskip("torch")
    n, r = 131072, 128
    top = exact_precision_max_base(n, r, dtype)
    u = unit_roundoff(dtype)

    def kept(base):  # the slowest band's phase at N, as a position term beside a unit one, in the dtype
        phase = n * base ** (-(r - 2) / r)
        one = torch.tensor(1.0, dtype=getattr(torch, dtype))
        return bool(one + torch.tensor(phase, dtype=one.dtype) != one)

    assert not kept(top * 1.01)
    assert kept(top * 2.5 ** (-r / (r - 2)))  # phase 2.5 u: above half an ulp of 1 (u), it moves the sum
    assert math.isclose(n * top ** (-(r - 2) / r), u, rel_tol=1e-12)


def test_plan_warns_of_a_candidate_base_above_the_ceiling():
    cfg = json.loads((DATA / "gemma3_27b.json").read_text())
    cfg["text_config"]["torch_dtype"] = "bfloat16"
    rec = plan(resolve_config(cfg), length=262144)  # the scheme holds the planted config
    top = exact_precision_max_base(262144, 128, "bfloat16")
    over = [c.name for k in rec.kinds if k.planned for c in k.candidates
            if c.encoding == "rope" and c.params["base"] > top]
    assert over and all(any(n.startswith(f"warning: {c}'s rope_theta") for n in rec.notes) for c in over)
    assert not any("warning" in n for n in plan(resolve_scheme(str(DATA / "gemma3_27b.json")), length=262144).notes)


def test_report_and_plan_commands_show_the_lints(tmp_path, capsys):
    from petheory.cli import main

    path = tmp_path / "config.json"
    path.write_text(json.dumps({**LLAMA, "rope_parameters": {"rope_type": "yarn", "factor": 1.0, "rope_theta": 5e5,
                                                             "original_max_position_embeddings": 4096}}))
    assert main(["report", "--pe", str(path), "--null-draws", "5", "-q"]) == 0
    assert "\nwarning   rope_parameters.factor = 1" in capsys.readouterr().out  # the record's warnings, as it renders
    assert main(["report", "--pe", str(path), "--null-draws", "5", "-q", "--json", "-"]) == 0
    warned = json.loads(capsys.readouterr().out)["reports"][0]["warnings"]
    assert len([w for w in warned if w.startswith("rope_parameters.factor = 1")]) == 1, warned
    assert main(["plan", "--pe", str(path), "--length", "32768", "-q"]) == 0
    assert "warning: rope_parameters.factor = 1" in capsys.readouterr().out


def test_a_dynamic_block_with_an_alpha_is_not_linted_for_its_factor_where_it_runs_as_ntk_alpha():
    """Hunyuan-A13B's ``{type: dynamic, alpha: 1000, factor: 1}``: transformers runs rope type ntk_alpha (a fixed base
    rope_theta * alpha^(d/(d-2))), which never reads the factor: "factor = 1 changes nothing" would be false there; in a
    family without that reading the factor-1 lint still speaks."""
    import json
    from pathlib import Path

    from petheory.analyses.lints import config_lints

    cfg = json.loads((Path(__file__).parents[1] / "data" / "hf_configs" / "hunyuan_a13b.json").read_text())
    assert not [w for w in config_lints(cfg) if ".factor = 1" in w]
    llama = {**cfg, "model_type": "llama"}
    assert [w for w in config_lints(llama) if ".factor = 1" in w]
