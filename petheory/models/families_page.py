"""The families page (docs/guide/families.md): what each model family's config resolves to, as a table.

:data:`CASES` and :data:`OLDER` are the families' configs as transformers' own configuration classes
build them (the class's defaults, its flagship sizes, overridden where a published ``config.json``
differs): the tests build them (tests/models/test_model_families.py compares every layer with
transformers' modules; tests/analyses/test_every_family_every_command.py runs the five commands on
each) and so does the page's generator, ``python tools/families_page.py --write`` (``--check``: exit 1
when the committed page is stale; a test fails then too). :func:`markdown` writes one table row per
family and distinct layer kind of the schemes the one resolver (:func:`petheory.models.resolve_config`)
gives. Pure: no transformers, no files here. Numbers are rounded to 6 significant digits (stable
across machines).
"""

from __future__ import annotations

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

HEADS = ("case", "model_type", "layer type", "layers", "mechanism", "base", "rotary dims / d", "scaling", "span",
         "temperature", "sinks", "M-RoPE sections", "L / max")


def _g(x) -> str:
    return "-" if x is None else f"{float(x):.6g}"


def kind_rows(scheme) -> list[list[str]]:
    """One row per distinct layer kind of ``scheme`` (cells after the case and model_type)."""
    from petheory.scheme import layer_ranges

    rows = []
    for layer, idx in scheme.kinds():
        p = layer.positions
        rotary = p.kind == "rotary"
        sp = p.params.get("scaling_params") or {}
        base = p.params.get("base", sp.get("base")) if rotary else None
        rd = p.params.get("rotary_dim", p.params.get("rope_dim", p.d)) if rotary else None
        scale = p.params.get("scale", sp.get("scale"))
        scaling = "-"
        if rotary:
            name = p.params.get("scaling", p.encoding) if p.encoding == "mla_rope" else p.encoding
            scaling = name + (f" x{_g(scale)}" if scale not in (None, 1, 1.0) else "")
        mech = p.kind if p.encoding is None else f"{p.kind} ({p.encoding})"
        if p.kind == "bias" and p.encoding == "t5":
            mech += " buckets " + ("bidirectional" if p.params.get("bidirectional") else "causal")
        temp = "-" if layer.temperature is None else layer.temperature.kind
        mrope = "-" if p.mrope is None else f"{list(p.mrope.sections)} {p.mrope.layout}"
        rows.append([layer.type or "-", f"{len(idx)}: {layer_ranges(idx)}", mech, _g(base),
                     "-" if rd is None else f"{rd}/{p.d}", scaling, str(layer.span), temp,
                     "learned" if layer.sinks else "-", mrope])
    return rows


def markdown(resolved) -> str:
    """The page from ``resolved``, a list of (case id, model_type, Scheme): one table row per family and
    distinct layer kind, then what the resolver refuses.

    >>> from petheory.models import resolve_config
    >>> cfg = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
    ...        "max_position_embeddings": 2048}
    >>> [row for row in markdown([("tiny", "llama", resolve_config(cfg))]).splitlines() if row.startswith("| tiny")]
    ['| tiny | llama | full_attention | 2: 0-1 | rotary (rope) | 10000 | 64/64 | rope | full | - | - | - | 2,048 / 2,048 |']
    """
    from petheory.models.families import FOREIGN_FIELDS, NOT_SHIPPED

    lines = ["# Model families: what each config resolves to", "",
             "<!-- generated: python tools/families_page.py --write (do not edit by hand) -->", "",
             "Each row is one distinct layer kind of a family's `config.json`, as petheory's one resolver "
             "(`petheory.models.resolve_config`, used by `report`, `compare`, `spectrum`, `bounds` and `stress` "
             "alike) reads it. The configs are built by transformers' own configuration classes (their defaults "
             "are the flagship sizes, overridden where a published config differs; the cases live in "
             "`petheory/models/families_page.py`), and the tests compare every layer with transformers' "
             "attention modules and rotary code. `base`: the rotary frequency base; `rotary dims / d`: rotated "
             "dimensions of the head size d (partial rotary); `scaling`: the registry entry of the frequencies and "
             "its factor; `span`: full, sliding window W or chunks of C; `L / max`: the original context and "
             "`max_position_embeddings`. Multimodal RoPE (M-RoPE) is analysed for text-only positions, where "
             "every axis carries the same index and the sections rotate as plain RoPE.", "",
             "| " + " | ".join(HEADS) + " |", "|" + "|".join("---" for _ in HEADS) + "|"]
    for name, mt, scheme in resolved:
        types = mt if scheme.source == mt else f"{mt} ({scheme.source})"
        for k, row in enumerate(kind_rows(scheme)):
            first = [name, types] if k == 0 else ["", ""]
            last = [f"{scheme.context:,} / {scheme.max_context:,}" if k == 0 else ""]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in first + row + last) + " |")
    lines += ["", "## Refused, never dropped", "",
              "A field that changes positions and is not understood is refused in one line that names it and what is "
              "supported; fields that do not touch positions are ignored. Refused by name:", ""]
    lines += [f"- `{mt}`: {why}" for mt, why in sorted(NOT_SHIPPED.items())]
    lines += [f"- an unknown `model_type`, `rope_type`, rope key or layer-type name; a field only some families carry "
              f"({', '.join(f'`{f}`' for f in FOREIGN_FIELDS)}) on a family that does not read it; an explicit "
              "`layer_types` list that disagrees with what the family's attention code does.", ""]
    return "\n".join(lines)
