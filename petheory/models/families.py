r"""What each supported ``model_type`` does per layer, as transformers' configuration and modeling code do it.

One :class:`Family` per model type: which layer types it knows, the layer types it derives when
the config lists none (``layer_types`` is what transformers' config class writes, and an explicit
list wins), which layers see no rotary position (NoPE), the RoPE pairing, M-RoPE, sinks, and the
fields only it may carry. :mod:`petheory.models.config` turns these into a
``petheory.scheme.Scheme``.

Sources (transformers 5.24, ``models/<type>/configuration_<type>.py`` and ``modeling_<type>.py``):

* Mistral, Mixtral, Phi-3, StarCoder2: ``sliding_window`` (when set) limits every layer.
* Qwen2 / Qwen2-MoE / Qwen3 / Qwen2-VL / Qwen2.5-VL: layer i slides when ``use_sliding_window``
  and i >= ``max_window_layers``.
* Gemma 2: layers 0, 2, 4, ... slide; Gemma 3 and Cohere2: every layer but each
  ``sliding_window_pattern``-th (6, 4); Gemma 4: the same with 6 and the last layer full;
  OLMo 3: every 4th full; EXAONE 4: every ``sliding_window_pattern``-th full (none slide
  without ``sliding_window``); gpt-oss: alternating, sliding first.
* Cohere2 and EXAONE 4 (with a sliding window): the full-attention layers apply no RoPE.
* Llama 4, SmolLM3: ``no_rope_layers[i] == 0`` marks a NoPE layer (default every 4th); Llama 4's
  rotary layers attend in chunks of ``attention_chunk_size``, its NoPE layers get the query
  temperature ``attn_temperature_tuning``.
* Qwen3-Next: every ``full_attention_interval``-th layer (4) is full attention, the others
  linear attention (no positions).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from petheory.errors import ValidationError
from petheory.models.fields import fail, read_bool, read_int

#: Layer type names (transformers' ``layer_types``) and what they mean here.
LAYER_TYPES = ("full_attention", "sliding_attention", "chunked_attention", "linear_attention")


def _all_full(cfg, n):
    return ["full_attention"] * n


def _window_all(cfg, n):  # Mistral, Mixtral, Phi-3, StarCoder2: the window (if any) applies to every layer
    return ["sliding_attention" if cfg.get("sliding_window") is not None else "full_attention"] * n


def _qwen(cfg, n):
    on = read_bool(cfg, "use_sliding_window", default=False) and cfg.get("sliding_window") is not None
    mwl = read_int(cfg, "max_window_layers", default=28, minimum=0) if on else 0
    return ["sliding_attention" if on and i >= mwl else "full_attention" for i in range(n)]


def _every(k_default: int, key: str | None = "sliding_window_pattern", other: str = "sliding_attention",
           last_full: bool = False):
    def types(cfg, n):
        k = read_int(cfg, key, default=k_default) if key else k_default
        out = [other if (i + 1) % k else "full_attention" for i in range(n)]
        if last_full and out:
            out[-1] = "full_attention"
        return out
    return types


def _exaone4(cfg, n):
    if cfg.get("sliding_window") is None:
        return ["full_attention"] * n
    pat = cfg.get("sliding_window_pattern", 4)
    if isinstance(pat, str):  # "LLLG": layer i is local (sliding) iff pattern[i mod len] is L (Exaone4Config's docstring)
        if not pat or len(pat) > 1 << 14 or set(pat) - {"L", "G"}:
            raise fail("sliding_window_pattern", "an integer or a string of L (local) and G (global)", pat)
        return ["sliding_attention" if pat[i % len(pat)] == "L" else "full_attention" for i in range(n)]
    k = read_int(cfg, "sliding_window_pattern", default=4)
    return ["sliding_attention" if (i + 1) % k else "full_attention" for i in range(n)]


def _smollm3(cfg, n, rope_on):
    slide = read_bool(cfg, "use_sliding_window", default=False) and cfg.get("sliding_window") is not None
    return ["sliding_attention" if slide and not rope_on[i] else "full_attention" for i in range(n)]


def _llama4(cfg, n, rope_on):
    chunked = cfg.get("attention_chunk_size", 8192) is not None
    return ["chunked_attention" if r and chunked else "full_attention" for r in rope_on]


@dataclass(frozen=True)
class Family:
    """How one model type lays out its layers' positions (see the module docstring for the sources)."""

    types: tuple = ("full_attention",)               # layer types it knows
    default_types: object = _all_full                # (cfg, n[, rope_on]) -> list of layer types
    reads_layer_types: bool = True                   # its config class keeps an explicit layer_types list
    nope_types: tuple = ()                           # layer types that apply no RoPE (EXAONE 4: config.py)
    no_rope_layers: int | None = None                # default NoPE interval when it reads no_rope_layers
    pairing: str = "half"
    mrope: str | None = None                         # M-RoPE layout, with its default sections
    mrope_default: tuple = ()
    sinks: bool = False
    prf_default: float = 1.0                         # partial_rotary_factor when the config has none
    theta_default: float = 10000.0
    softcap_key: str = "attn_logit_softcapping"
    extra: tuple = field(default=())                 # other position fields only this family may carry


_SW = ("full_attention", "sliding_attention")
FAMILIES = {
    **{t: Family() for t in ("llama", "gemma", "olmo2", "gpt_neox", "falcon")},
    "glm4_moe": Family(prf_default=0.5),
    **{t: Family(_SW, _window_all, reads_layer_types=False) for t in ("mistral", "mixtral", "phi3", "starcoder2")},
    **{t: Family(_SW, _qwen) for t in ("qwen2", "qwen2_moe", "qwen3")},
    "qwen2_vl": Family(_SW, _qwen, mrope="chunked", mrope_default=(16, 24, 24)),
    "qwen2_5_vl": Family(_SW, _qwen, mrope="chunked", mrope_default=(16, 24, 24)),
    "qwen3_vl": Family(reads_layer_types=False, mrope="interleaved", mrope_default=(24, 20, 20),
                       theta_default=500000.0),
    "gemma2": Family(_SW, _every(2, None)),
    "gemma3_text": Family(_SW, _every(6), theta_default=1e6, extra=("rope_local_base_freq",)),
    "gemma4_text": Family(_SW, _every(6, None, last_full=True), theta_default=1e6),
    "cohere2": Family(_SW, _every(4), nope_types=("full_attention",), pairing="interleaved"),
    "exaone4": Family(_SW, _exaone4),
    "olmo3": Family(_SW, _every(4, None), theta_default=500000.0),
    "gpt_oss": Family(_SW, _every(2, None), sinks=True, theta_default=150000.0),
    "smollm3": Family(_SW, _smollm3, no_rope_layers=4, theta_default=2e6),
    "llama4_text": Family(("full_attention", "chunked_attention"), _llama4, no_rope_layers=4, pairing="interleaved",
                          theta_default=500000.0,
                          extra=("attention_chunk_size", "attn_temperature_tuning", "floor_scale", "attn_scale")),
    "qwen3_next": Family(("full_attention", "linear_attention"), _every(4, "full_attention_interval", "linear_attention"),
                         prf_default=0.25),
}

#: Multimodal model types read through their ``text_config`` (the text decoder's positions).
TEXT_CONFIG = {"gemma3": "gemma3_text", "gemma4": "gemma4_text", "llama4": "llama4_text", "qwen2_vl": "qwen2_vl",
               "qwen2_5_vl": "qwen2_5_vl", "qwen3_vl": "qwen3_vl"}
#: transformers 5's names of the nested text configs -> the family read.
TEXT_TYPES = {"qwen2_vl_text": "qwen2_vl", "qwen2_5_vl_text": "qwen2_5_vl", "qwen3_vl_text": "qwen3_vl"}

#: Fields that change positions but belong to some families only: found elsewhere, they are refused.
FOREIGN_FIELDS = ("no_rope_layers", "attention_chunk_size", "attn_temperature_tuning", "mrope_section",
                  "rope_local_base_freq", "per_layer_config", "global_head_dim")

#: Families known by name that transformers does not ship: refused with this reason.
NOT_SHIPPED = {
    "phi3small": "Phi-3-small (model_type phi3small) is remote code, not a transformers class: its blocksparse "
                 "attention (dense every dense_attention_every_n_layers-th layer, local blocks elsewhere) and "
                 "rope_position_scale are not read here; supported: phi3 (Phi-3-mini/medium)",
}


def layer_types(cfg: dict, mt: str, fam: Family, n: int, rope_on) -> list:
    """The layer types of an ``n``-layer config: its ``layer_types`` if given (validated), else as transformers derives them."""
    def derived():
        return fam.default_types(cfg, n, rope_on) if fam.no_rope_layers else fam.default_types(cfg, n)

    given = cfg.get("layer_types")
    if given is None:
        return derived()
    if not isinstance(given, (list, tuple)) or len(given) != n:
        raise ValidationError(f"config field layer_types must be a list of num_hidden_layers={n} names (one per layer), "
                              f"got {str(given)[:60]}; fix the config.json")
    for i, t in enumerate(given):
        if t not in fam.types:
            raise ValidationError(f"config field layer_types[{i}] = {t!r} is not a layer type {mt} has; supported: "
                                  f"{', '.join(fam.types)}")
    given = list(given)
    if not fam.reads_layer_types and given != derived():
        raise ValidationError(f"config field layer_types = {given[:4]}... disagrees with what {mt}'s attention does "
                              f"(its code does not read layer_types: {derived()[0]} on every layer); remove it or fix it")
    if mt == "gemma4_text" and given[-1] != "full_attention":
        raise ValidationError(f"config field layer_types[{n - 1}] = {given[-1]!r}: Gemma 4's last layer is full attention "
                              "(transformers forces it); fix the config.json")
    return given
