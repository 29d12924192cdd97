"""The families page (docs/guide/families.md): the verification table, and what flagship configs resolve to.

:func:`verified_markdown` renders the verification table (:mod:`petheory.models.verified`, written by
``python tools/verify_models.py --write``): its counts, the model types read, the refused ones grouped by the
mechanism they lack (:func:`refusal_group`), the others. :data:`CASES` and :data:`OLDER` are flagship configs as
transformers' own configuration classes build them (the class's defaults, overridden where a published
``config.json`` differs): the tests build them (tests/models/test_model_families.py compares every layer with
transformers' modules; tests/analyses/test_every_family_every_command.py runs the five commands on each) and so
does the page's generator, ``python tools/families_page.py --write`` (``--check``: exit 1 when the committed page
is stale; a test fails then too); :func:`markdown_kinds` writes one row per case and distinct layer kind. Pure: no
transformers, no files here. Numbers are rounded to 6 significant digits (stable across machines).
"""

from __future__ import annotations

import re

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


def refusal_group(detail: str) -> str:
    """The missing mechanism a refusal names, as a short label shared by the model types it refuses.

    >>> refusal_group("config field rope_wavelet may change positions or the logit scale and petheory does not ...")
    'field `rope_wavelet` not read'
    """
    m = re.search(r"applies (\S+) under `([^`]*)`", detail)
    if m:
        return f"RoPE applied only under `{m.group(2)}` (a rule of the family's code, not in the table)"
    for pat, label in ((r"bidirectional", "bidirectional (encoder) attention: petheory reads causal decoders"),
                       (r"mrope_section = .* must be 3 band counts", "M-RoPE sections that do not cover the rotary "
                                                                    "bands as petheory reads them"),
                       (r"gives rotary dimension \d+; it must be an even", "an odd rotary dimension (the class's "
                                                                          "default sizes)"),
                       (r"has no rotary embedding, ALiBi", "no rotary embedding, ALiBi, T5 buckets or table in its code "
                                                          "(positions of another kind)"),
                       (r"sin/cos table of its own", "RoPE from a sin/cos table of its own (no RotaryEmbedding module)"),
                       (r"the tool could not read", "modules the verification tool cannot read (no decoder layer "
                                                    "list it recognises)"),
                       (r"without kv_lora_rank", "decoupled RoPE (qk_rope_head_dim) without multi-head latent "
                                                 "attention")):
        if re.search(pat, detail):
            return label
    m = re.match(r"model_type '\w+': (.*)", detail)
    if m:
        return m.group(1)[:120]
    for pat, label in ((r"config field (\S+?)(?:\[\d+\])? = '([^']+)' is not a layer type", "layer type `{1}`"),
                       (r"unknown rope_type '([^']+)'", "rope_type `{0}`"),
                       (r"config field ([\w.]+) (?:may change|changes) positions", "field `{0}` not read"),
                       (r"config field ([\w.]+) is not understood", "field `{0}` not read"),
                       (r"config field ([\w.]+) is missing", "field `{0}` missing (the family names it otherwise)"),
                       (r"(\d+) rotary modules", "several rotary modules (which layer uses which is not read)"),
                       (r"keeps no softmax scale", "no softmax scale attribute to check"),
                       (r"reads self\.(\w+)", "a factor `{0}` in the attention's forward")):
        m = re.search(pat, detail)
        if m:
            return label.format(*m.groups())
    return detail[:100]


def verified_markdown(doc: dict, resolved=()) -> str:
    """The families page: the verification table's counts, the model types read (one row each), the refused ones
    grouped by the mechanism they lack, the others; then ``resolved``'s per-layer-kind table (:func:`markdown_kinds`)."""
    counts, types = doc["counts"], doc["types"]
    by = counts["by_status"]
    cases = counts["cases_by_outcome"]
    ok = sorted(t for t, r in types.items() if r["status"] == "ok")
    lines = ["# Model families: what petheory reads, verified against transformers", "",
             "<!-- generated: python tools/verify_models.py --write (python tools/families_page.py --write redraws it "
             "from petheory/data/verified_models.json); do not edit by hand -->", "",
             f"Every model type of transformers {doc['transformers']} ({counts['model_types']} in `CONFIG_MAPPING`) was "
             "swept by `python tools/verify_models.py`: its default config, and for the ones read, their rope-scaling "
             "variants (linear, dynamic, YaRN, Llama 3, LongRoPE) and layer-layout variants (sliding window, NoPE "
             "schedule, chunks, ALiBi, hybrid layouts, and one with every layer kind the family has at once), each saved with "
             "`save_pretrained`; the default again as a transformers 4 file on the hub writes it (`rope_theta` and "
             "`rope_scaling` at the top level, no derivable `layer_types`: case `hub-layout`); and the published "
             "config.json files of tests/data/hf_configs, written as is (cases `hub:`); each read back through "
             "petheory's "
             "loader and compared layer by layer (layer kinds, head size, softmax scale, window, NoPE-ness, "
             "temperature, sinks, rotated dimensions, frequencies, cos/sin factor, M-RoPE sections, ALiBi slopes, T5 "
             "buckets) with the modules transformers builds from the same file. `resolve_config` reads exactly the "
             "model types found `ok` here; every other one is refused with the reason below (an unknown one with "
             "the nearest verified family, which `--as-family` asserts).", "",
             "| model types | " + " | ".join(by) + " |", "|---|" + "---|" * len(by),
             f"| {counts['model_types']} | " + " | ".join(str(v) for v in by.values()) + " |", "",
             "| cases | " + " | ".join(cases) + " |", "|---|" + "---|" * len(cases),
             f"| {counts['cases']} | " + " | ".join(str(v) for v in cases.values()) + " |", "",
             f"## Read as transformers runs them ({len(ok)} model types)", "",
             "`layer kinds exercised`: every (layer type, mechanism: rotary, nope, bias or none; its span when not "
             "full) that some case compared with transformers' modules and found equal (a case counts only for the "
             "layer kinds it contains, each compared).", "",
             "| model_type | text model | layer kinds (default config) | layer kinds exercised | cases ok |",
             "|---|---|---|---|---|"]
    per = {}
    for c in doc["cases"]:
        per.setdefault(c["model_type"], []).append(c)
    for mt in ok:
        cs = per.get(mt, [])
        kinds = "; ".join(f"{k[2]} x {k[0] or '-'} ({k[1]}{', ' + k[3] if k[3] else ''}{', ' + k[4] if k[4] != 'full' else ''})"
                          for k in (cs[0].get("layers") or [])) if cs else ""
        good = [c["case"] for c in cs if c["outcome"] == "ok"]
        seen = sorted({f"{k[0] or '-'} {k[1].split()[0]}" + (" sliding" if k[4].startswith("sliding") else " chunked"
                                                            if k[4].startswith("chunked") else "")
                       for c in cs if c["outcome"] == "ok" for k in c.get("layers") or []})
        lines.append(f"| `{mt}` | {types[mt].get('text', '-')} | {kinds} | {'; '.join(seen)} | "
                     f"{len(good)}/{len(cs)}: {', '.join(good)} |")
    groups: dict = {}
    for mt, r in types.items():
        if r["status"] == "refused":
            groups.setdefault(refusal_group(r.get("why", "")), []).append(mt)
    lines += ["", f"## Refused, by the mechanism petheory does not read ({sum(map(len, groups.values()))} model types)",
              "", "A refusal is one line that names what is missing; nothing is dropped in silence.", ""]
    for label, mts in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        lines.append(f"- {label} ({len(mts)}): " + ", ".join(f"`{m}`" for m in sorted(mts)))
    for status, title, say in (
            ("misread", "Misread", "what differs from transformers"),
            ("crash", "Crashed", "petheory raised an error that is not a refusal (a bug)"),
            ("no-positions", "No positions in a config",
             "learned absolute positions are weights: `petheory spectrum/stress --pe hf:DIR` reads the table"),
            ("not-text", "Not text models", "vision or audio encoders and other non-language models: positions over "
                                            "patches or frames are not read"),
            ("transformers", "transformers' own failures", "its config class or modules fail to build here (a missing "
                                                           "package, a validation error of its own): not a petheory "
                                                           "outcome")):
        mts = sorted(t for t, r in types.items() if r["status"] == status)
        lines += ["", f"## {title} ({len(mts)})", "", say + ".", ""]
        if status in ("misread", "crash", "transformers"):
            lines += [f"- `{m}`: {types[m].get('why', '')[:200]}" for m in mts]
        else:
            lines.append(", ".join(f"`{m}`" for m in mts) or "none")
    if resolved:
        lines += ["", markdown_kinds(resolved)]
    return "\n".join(lines) + "\n"


def markdown_kinds(resolved) -> str:
    """Per layer kind, the flagship configs of :data:`CASES` and :data:`OLDER` as resolved: ``resolved`` is a list of
    (case id, model_type, Scheme).

    >>> from petheory.models.config import read_config
    >>> cfg = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "num_hidden_layers": 2,
    ...        "max_position_embeddings": 2048}
    >>> [row for row in markdown_kinds([("tiny", "llama", read_config(cfg))]).splitlines() if row.startswith("| tiny")]
    ['| tiny | llama | full_attention | 2: 0-1 | rotary (rope) | 10000 | 64/64 | rope | full | - | - | - | 2,048 / 2,048 |']
    """
    lines = ["## Flagship configs, layer kind by layer kind", "",
             "The configs of `petheory/models/families_page.py` (built by transformers' configuration classes, "
             "overridden where a published config differs), resolved. `base`: the rotary frequency base; `rotary dims "
             "/ d`: rotated dimensions of the head size d (partial rotary); `scaling`: the registry entry of the "
             "frequencies and its factor; `span`: full, sliding window W or chunks of C; `L / max`: the original "
             "context and `max_position_embeddings`. Multimodal RoPE (M-RoPE) is analysed for text-only positions, "
             "where every axis carries the same index and the sections rotate as plain RoPE.", "",
             "| " + " | ".join(HEADS) + " |", "|" + "|".join("---" for _ in HEADS) + "|"]
    for name, mt, scheme in resolved:
        types = mt if scheme.source == mt else f"{mt} ({scheme.source})"
        for k, row in enumerate(kind_rows(scheme)):
            first = [name, types] if k == 0 else ["", ""]
            last = [f"{scheme.context:,} / {scheme.max_context:,}" if k == 0 else ""]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in first + row + last) + " |")
    return "\n".join(lines)
