"""Flagship configs of 2025-26 and before, as transformers' own configuration classes build them.

:data:`CASES` and :data:`OLDER` are (case id, model_type, overrides of the class's defaults, where a published
``config.json`` differs); :func:`build` makes the class and its ``config.json`` from one. The tests build them
(tests/models/test_model_families.py compares every layer with transformers' modules;
tests/analyses/test_every_family_every_command.py runs the five commands on each), the sweep adds them as
``published:`` cases of their model type, and the families page lists what each resolves to
(:mod:`tools.verify.page`). Needs transformers (the test extra) for :func:`build` only.
"""

from __future__ import annotations

import json

#: meta-llama/Llama-4-Scout-17B-16E's rope_scaling (high = low: no blended band, a step at lambda = L).
SCOUT_ROPE = {"rope_type": "llama3", "factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
              "original_max_position_embeddings": 8192, "rope_theta": 500000.0}

#: The families of 2025-26: (case id, model_type, overrides of the configuration class's defaults).
CASES = [
    ("gemma2", "gemma2", {"num_hidden_layers": 42, "hidden_size": 3584, "num_attention_heads": 16,
                          "num_key_value_heads": 8, "query_pre_attn_scalar": 256, "attn_logit_softcapping": 50.0}),
    ("gemma3", "gemma3", {}),
    ("gemma3_text-linear8", "gemma3_text", {"num_hidden_layers": 34, "rope_parameters": {
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}}),
    ("gemma4_text", "gemma4_text", {}),
    ("gemma4", "gemma4", {}),
    ("llama4-scout", "llama4", {"text_config": {"rope_parameters": SCOUT_ROPE, "max_position_embeddings": 10485760}}),
    ("llama4_text", "llama4_text", {"num_hidden_layers": 8, "attn_temperature_tuning": True}),
    ("cohere2", "cohere2", {}),
    ("smollm3", "smollm3", {}),
    ("gpt_oss", "gpt_oss", {}),
    ("qwen2_vl", "qwen2_vl", {}),
    ("qwen2_5_vl", "qwen2_5_vl", {"text_config": {"num_hidden_layers": 28, "hidden_size": 3584, "num_attention_heads": 28,
                                                  "num_key_value_heads": 4, "max_position_embeddings": 128000,
                                                  "rope_parameters": {"rope_type": "default", "rope_theta": 1e6,
                                                                      "mrope_section": [16, 24, 24]}}}),
    ("qwen3_vl", "qwen3_vl", {"text_config": {"rope_parameters": {"rope_type": "default", "rope_theta": 5e6,
                                                                  "mrope_section": [24, 20, 20], "mrope_interleaved": True}}}),
    ("olmo2", "olmo2", {"max_position_embeddings": 4096}),
    ("olmo3", "olmo3", {"max_position_embeddings": 65536}),
    ("starcoder2", "starcoder2", {"sliding_window": 4096, "max_position_embeddings": 16384, "rope_theta": 100000.0}),
    # GLM-4.5's published sizes (the class's defaults, 4096 / 96 heads, do not give a whole head size)
    ("glm4_moe", "glm4_moe", {"hidden_size": 5120, "num_attention_heads": 96, "num_key_value_heads": 8, "head_dim": 128,
                              "num_hidden_layers": 92, "rope_parameters": {"rope_type": "default", "rope_theta": 1e6,
                                                                           "partial_rotary_factor": 0.5}}),
    # GLM-4.5V's text decoder (zai-org/GLM-4.5V's text_config: 4096 / 96 heads with head_dim 128, half of each head
    # rotating in sections [8, 12, 12]); the class's defaults (no head_dim: 42) rotate an odd 21, which it cannot run
    ("glm4_5v_text", "glm4v_moe_text", {"hidden_size": 4096, "num_attention_heads": 96, "num_key_value_heads": 8,
                                        "head_dim": 128, "num_hidden_layers": 46, "max_position_embeddings": 65536,
                                        "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                                            "partial_rotary_factor": 0.5, "mrope_section": [8, 12, 12]}}),
    ("qwen3_next", "qwen3_next", {}),
    ("exaone4", "exaone4", {"num_hidden_layers": 64, "max_position_embeddings": 131072}),
]

#: The families petheory read before 2025 (one case each, more where a field changes the layer kinds).
OLDER = [
    ("llama-3.1", "llama", {"num_hidden_layers": 32, "num_key_value_heads": 8, "max_position_embeddings": 131072,
                            "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                                                "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                "original_max_position_embeddings": 8192}}),
    ("mistral", "mistral", {"sliding_window": 4096}),
    ("mixtral", "mixtral", {}),
    ("phi3", "phi3", {}),
    ("qwen2-window", "qwen2", {"use_sliding_window": True, "sliding_window": 4096, "max_window_layers": 20}),
    ("qwen2_moe", "qwen2_moe", {}),
    ("qwen3", "qwen3", {}),
    ("gemma", "gemma", {}),
    ("gpt_neox", "gpt_neox", {}),
    ("falcon-alibi", "falcon", {"alibi": True}),
    ("deepseek_v3", "deepseek_v3", {"num_hidden_layers": 4}),
    ("bloom", "bloom", {}),
    ("mpt", "mpt", {}),
    ("t5", "t5", {}),
]


def build(mt: str, kw: dict):
    """transformers' configuration class of ``mt`` with ``kw``, and its ``config.json`` as a dict (``to_dict()``
    through JSON, as a file on disk holds it)."""
    from transformers import AutoConfig

    config = AutoConfig.for_model(mt, **kw)
    return config, json.loads(json.dumps(config.to_dict()))
