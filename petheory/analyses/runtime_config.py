r"""The configs a runtime reads, for each candidate of a plan (:mod:`petheory.analyses.plan`).

Per candidate (:class:`RuntimeConfig`):

* ``rope_parameters``: transformers 5.x's block (``rope_type``, ``rope_theta`` and the type's keys, with the keys the
  model's own block carries that are not scaling keys: ``mrope_section``, ``mrope_interleaved``, ...), written the way
  the family's rotary module reads it: keyed by layer type for a family in :data:`PER_LAYER_TYPE` (Gemma 3:
  ``full_attention`` gets the candidate, ``sliding_attention`` keeps its own), else one flat block that every rotary
  layer reads (gpt-oss: ``GptOssRotaryEmbedding`` reads one dict, its sliding layers take the candidate too), with
  ``max_position_embeddings`` (and ``sliding_window: null`` where the plan removes the window);
* ``where``: the config key the fields go under (``text_config`` for a composite model such as Qwen3-VL or Gemma 3
  27B, whose positions live in its text config: a top-level block is ignored there), None for the top level;
* ``v4``: the transformers 4.x keys (``rope_theta``, ``rope_scaling``, Gemma 3's ``rope_local_base_freq``), or
  None where 4.x has no layout for the model's per-layer RoPE;
* ``llama_cpp``: llama.cpp's flags (``--rope-scaling``, ``--rope-freq-base``, ``--rope-freq-scale`` = 1/factor,
  ``--yarn-orig-ctx``, ``--yarn-ext-factor``, ``--yarn-attn-factor``, ``--yarn-beta-fast/slow``, ``-c``), or None
  with the reason where no flag gives the candidate (Llama 3's band factors live in the GGUF; one base cannot give
  per-layer-type bases; no flag removes a sliding window);
* ``vllm``: the ``--hf-overrides`` JSON and ``--max-model-len`` (vLLM's context-extension page: its old
  ``--rope-scaling`` is gone, ``rope_parameters`` goes through ``--hf-overrides``), placed like the transformers block.

Semantics that differ between runtimes (see ``docs/guide/plan.md``): llama.cpp's ``--rope-freq-scale`` is
1/factor; its YaRN multiplies cos and sin by :math:`0.1\ln(1/\text{freq\_scale}) + 1` inside ggml's
``rope_yarn`` whenever ``--yarn-ext-factor`` is not 0 (1 = the full YaRN blend), so ``--yarn-attn-factor``
stays 1 for transformers' default attention factor; vLLM's ``dynamic`` type is static (one base at
``max_position_embeddings * factor``), unlike transformers' per-length one, so a dynamic candidate is given
to vLLM and llama.cpp as the plain base transformers uses at N.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from dataclasses import dataclass

from petheory import encodings as enc
from petheory.analyses.record import Record, item
from petheory.errors import ValidationError

__all__ = ["PER_LAYER_TYPE", "RuntimeConfig", "rope_block", "runtime_configs"]

#: Model types whose transformers 4.x config has a per-layer-type layout (Gemma 3's local base).
LOCAL_BASE_TYPES = ("gemma3", "gemma3_text")
#: Text model types whose transformers 5.x rotary module reads ``rope_parameters`` keyed by layer type (its
#: ``forward`` takes ``layer_type``); every other family reads one flat block for all its layers.
#: tests/analyses/test_plan_runtime.py checks this set against the pinned transformers' rotary modules of every
#: accepted family (petheory/data/verified_models.json).
PER_LAYER_TYPE = frozenset({"beam", "dots3_note_text", "gemma3_text", "gemma3n_text", "gemma4_text",
                            "gemma4_unified_text", "laguna", "lfm3", "mellum", "mimo_v2_flash", "modernbert",
                            "modernbert-decoder", "neomme", "olmo3", "step3p5", "ultrabert", "zaya"})
#: The families of :data:`PER_LAYER_TYPE` whose transformers config class turns 4.x's flat ``rope_theta`` /
#: ``rope_scaling`` into its per-layer-type block, ``rope_theta`` the full layers' base (the others have no 4.x
#: layout: 5.x families whose class keeps only a keyed ``rope_parameters``, and ModernBERT-decoder, whose 4.x bases
#: were ``global_rope_theta`` / ``local_rope_theta``). Checked against the pinned transformers in
#: tests/analyses/test_plan_runtime.py.
V4_PER_LAYER_TYPE = frozenset({"gemma3_text", "gemma3n_text", "olmo3", "step3p5"})
#: Registry entries whose transformers init reads ``getattr(config, "head_dim", hidden_size // num_attention_heads)``
#: (``modeling_rope_utils``: dynamic, YaRN, LongRoPE), with their rope_type.
_ROPE_NAME = {"rope_dynamic": "dynamic", "rope_yarn": "yarn", "rope_longrope": "longrope"}
HEAD_DIM_READERS = frozenset(_ROPE_NAME)
#: Text model types whose transformers config class defaults ``head_dim`` to None (those inits then raise): a block
#: of :data:`HEAD_DIM_READERS` gets ``head_dim`` written beside it. Checked against the pinned transformers'
#: default configs of every accepted family in tests/analyses/test_plan_runtime.py (Falcon's ``head_dim`` is a
#: read-only property: writing it everywhere is not an option).
HEAD_DIM_NONE = frozenset({"hunyuan_v1_moe", "minimax", "mixtral"})
#: Keys of a model's own RoPE block that say what the scaling is; any other key (``mrope_section``,
#: ``mrope_interleaved``, ...) is the family's and is carried into every emitted block.
SCALING_KEYS = frozenset({"rope_type", "type", "rope_theta", "factor", "original_max_position_embeddings", "beta_fast",
                          "beta_slow", "attention_factor", "mscale", "mscale_all_dim", "low_freq_factor",
                          "high_freq_factor", "short_factor", "long_factor", "truncate", "partial_rotary_factor"})


@dataclass(frozen=True)
class RuntimeConfig(Record):
    """What to write or pass for one candidate (see the module docstring).

    Attributes
    ----------
    candidate : str
        The candidate's id.
    rope_parameters : dict
        transformers 5.x's block (per layer type for a family in ``PER_LAYER_TYPE``).
    max_position_embeddings : int
        N.
    v4 : dict or None
        The transformers 4.x keys (None where 4.x has no layout for the model).
    llama_cpp : tuple of str or None
        llama.cpp's flags (None where no flag gives the candidate; ``notes`` says why).
    vllm : tuple of str
        ``--hf-overrides`` JSON and ``--max-model-len``.
    notes : tuple of str
        What differs between runtimes for this candidate.
    where : str or None
        The config key the fields go under (``text_config``), None for the top level.
    extra : dict
        Further fields the config gets (``sliding_window: null`` where the plan removes the window).
    replaces : tuple of str
        Fields of the model's config the block supersedes (``REPLACED``).
    """

    candidate: str
    rope_parameters: dict
    max_position_embeddings: int
    v4: dict | None
    llama_cpp: tuple[str, ...] | None
    vllm: tuple[str, ...]
    notes: tuple[str, ...] = ()
    where: str | None = None
    extra: dict = item(default_factory=dict)
    replaces: tuple[str, ...] = ()

    def _placed(self, fields: dict) -> dict:
        fields = {**fields, "max_position_embeddings": self.max_position_embeddings, **self.extra}
        return {self.where: fields} if self.where else fields

    def config_fields(self) -> dict:
        """The keys to set in a transformers 5.x ``config.json``, placed where the family reads them (``where``)."""
        return self._placed({"rope_parameters": self.rope_parameters})

    def v4_fields(self) -> dict | None:
        """The keys to set in a transformers 4.x ``config.json`` (None: 4.x has no layout for this RoPE)."""
        return None if self.v4 is None else self._placed(self.v4)

    def lines(self) -> list[str]:
        instead = f" (in place of its {', '.join(self.replaces)})" if self.replaces else ""
        out = [f"  transformers 5.x config.json{instead}: {json.dumps(self.config_fields())}",
               f"  transformers 4.x config.json{instead}: " + (json.dumps(self.v4_fields())
                                                      if self.v4 is not None else "no 4.x layout for this model's RoPE"),
               "  llama.cpp: " + (shlex.join(self.llama_cpp) if self.llama_cpp else "no flags give it (see the note)"),
               "  vLLM: " + shlex.join(self.vllm)]
        return out + [f"  note: {n}" for n in self.notes]

    def markdown(self) -> str:
        instead = f", in place of its {', '.join(f'`{k}`' for k in self.replaces)}" if self.replaces else ""
        out = [f"#### `{self.candidate}`", "", f"transformers 5.x (`config.json`{instead}):", "", "```json",
               json.dumps(self.config_fields(), indent=1), "```", ""]
        if self.v4 is not None:
            out += [f"transformers 4.x{instead}:", "", "```json", json.dumps(self.v4_fields(), indent=1), "```", ""]
        out += ["llama.cpp: " + (f"`{shlex.join(self.llama_cpp)}`" if self.llama_cpp else "no flags give it"), "",
                f"vLLM: `{shlex.join(self.vllm)}`"]
        return "\n".join(out + [f"\n- {n}" for n in self.notes])

    def __str__(self) -> str:
        return "\n".join(self.lines())


def rope_block(encoding: str, params: dict, d: int, *, proportional: bool = False) -> dict:
    """transformers 5.x's RoPE parameter dict of a rotary registry entry with ``params`` (head size ``d``).

    The inverse of :func:`petheory.models.rope.rope_scheme` for the entries a plan emits; an entry or a
    parameter transformers has no key for is refused by name.

    Parameters
    ----------
    encoding : str
        A rotary registry entry (``rope``, ``rope_pi``, ``rope_yarn``, ``rope_dynamic``, ``rope_llama3``).
    params : dict
        Its parameters.
    d : int
        The head size (partial rotary is written as ``partial_rotary_factor``).
    proportional : bool, optional
        The layer's RoPE is transformers' ``proportional`` (the whole head's ladder cut to its first ``rotary_dim / 2``
        bands, :func:`petheory.models.rope.rope_scheme`): ``rope`` and ``rope_pi`` are written as ``proportional``
        with ``rope_theta = base^(d / rotary_dim)`` (and ``factor``); any other entry is refused.

    Returns
    -------
    dict
        The ``rope_parameters`` entry.

    Raises
    ------
    ValidationError
        An entry or a parameter transformers has no key for.

    Examples
    --------
    >>> rope_block("rope_pi", {"base": 1e6, "scale": 8.0, "pairing": "half"}, 128)
    {'rope_type': 'linear', 'rope_theta': 1000000.0, 'factor': 8.0}
    """
    p = dict(params)
    out: dict = {"rope_theta": float(p.pop("base", 10000.0))}
    p.pop("pairing", None)  # transformers' pairing is the model's (half-split for every Llama-like model)
    r = p.pop("rotary_dim", None)
    if encoding == "rope":
        out = {"rope_type": "default", **out}
    elif encoding == "rope_pi":
        out = {"rope_type": "linear", **out, "factor": float(p.pop("scale"))}
    elif encoding == "rope_dynamic":
        p.pop("n_max", None)  # transformers' dynamic counts from max_position_embeddings
        p.pop("seq_len", None)
        out = {"rope_type": "dynamic", **out, "factor": float(p.pop("scale"))}
    elif encoding == "rope_yarn":
        if p.pop("ramp", "paper") != "code":
            raise ValidationError("transformers' YaRN ramp is the reference code's (ramp='code'); the paper's ramp has no "
                                  "rope_parameters")
        s = float(p.pop("scale"))
        out = {"rope_type": "yarn", **out, "factor": s, "original_max_position_embeddings": int(p.pop("n_max")),
               "beta_fast": float(p.pop("beta", 32.0)), "beta_slow": float(p.pop("alpha", 1.0))}
        m = p.pop("mscale", None)
        if m is not None and abs(m - enc.yarn_mscale(s)) > 1e-12 * m:
            out["attention_factor"] = float(m)
        if not p.pop("truncate", True):
            out["truncate"] = False
    elif encoding == "rope_llama3":
        out = {"rope_type": "llama3", **out, "factor": float(p.pop("scale")),
               "low_freq_factor": float(p.pop("low_freq_factor")), "high_freq_factor": float(p.pop("high_freq_factor")),
               "original_max_position_embeddings": int(p.pop("n_max"))}
    elif encoding == "rope_longrope":
        out = {"rope_type": "longrope", **out, "factor": float(p.pop("scale")),
               "original_max_position_embeddings": int(p.pop("n_max")),
               "short_factor": [float(x) for x in p.pop("short_factor")],
               "long_factor": [float(x) for x in p.pop("long_factor")]}
        if p.get("attention_factor") is not None:
            out["attention_factor"] = float(p.pop("attention_factor"))
        p.pop("regime", None)
        p.pop("seq_len", None)
    else:
        raise ValidationError(f"no transformers rope_parameters for the registry entry {encoding}")
    if p:
        raise ValidationError(f"{encoding}: parameter(s) {', '.join(sorted(p))} have no transformers rope_parameters key")
    if proportional:
        return _proportional(encoding, out, int(r or d), int(d))
    if r is not None and int(r) != int(d):
        out["partial_rotary_factor"] = int(r) / int(d)
    return out


def _proportional(encoding: str, block: dict, r: int, d: int) -> dict:
    """A ``default`` or ``linear`` block on the rotary ladder as transformers' ``proportional`` one over the head."""
    if block["rope_type"] not in ("default", "linear"):
        raise ValidationError(f"{encoding} on a proportional RoPE layer: transformers' proportional rope_type takes "
                              "rope_theta and factor only")
    prf = r / d
    if int(prf * d // 2) != r // 2:  # transformers counts its rotated bands as int(partial_rotary_factor * d // 2)
        raise ValidationError(f"partial_rotary_factor {r}/{d} does not give {r // 2} rotated bands in float arithmetic")
    out = {"rope_type": "proportional", "rope_theta": block["rope_theta"] ** (d / r), "partial_rotary_factor": prf}
    if "factor" in block:
        out["factor"] = block["factor"]
    return out


#: Families whose transformers 4.x config names the base and the rotary fraction otherwise (GPT-NeoX's).
V4_KEYS = {"gpt_neox": ("rotary_emb_base", "rotary_pct"), "gpt_neox_japanese": ("rotary_emb_base", "rotary_pct")}


def _v4(model_type: str, blocks: dict) -> dict | None:
    """The transformers 4.x keys: one flat block, or Gemma 3's global block + local base (``partial_rotary_factor`` at
    the top level, where 4.x reads it; GPT-NeoX's own names, :data:`V4_KEYS`)."""
    base_key, part_key = V4_KEYS.get(model_type, ("rope_theta", "partial_rotary_factor"))
    if model_type in PER_LAYER_TYPE and model_type not in V4_PER_LAYER_TYPE:
        return None

    def split(b):
        # never rope_scaling null: a family whose config class defaults to a scaling (gpt-oss: YaRN x32) keeps it then
        rest = {k: val for k, val in b.items() if k not in ("rope_theta", "partial_rotary_factor")}
        out = {base_key: b["rope_theta"], "rope_scaling": rest}
        if "partial_rotary_factor" in b:
            out[part_key] = b["partial_rotary_factor"]
        return out

    if len(blocks) == 1:
        return split(next(iter(blocks.values())))
    if (model_type in LOCAL_BASE_TYPES and set(blocks) == {"full_attention", "sliding_attention"}
            and blocks["sliding_attention"]["rope_type"] == "default"):
        return {**split(blocks["full_attention"]), "rope_local_base_freq": blocks["sliding_attention"]["rope_theta"]}
    return None


def _llama_cpp(encoding: str, params: dict, configured: str, *, length: int, d: int) -> tuple[tuple | None, list]:
    b = float(params.get("base", 10000.0))
    ctx = ("-c", str(length))
    notes = []
    if configured == "rope_llama3":
        notes.append("a GGUF converted from this model carries its Llama 3 band factors (rope_freqs), which no flag "
                     "removes: convert again from a config.json with this rope_parameters block")
    if encoding == "rope":
        return ("--rope-scaling", "none", "--rope-freq-base", f"{b:.10g}") + ctx, notes
    if encoding == "rope_pi":
        return ("--rope-scaling", "linear", "--rope-freq-base", f"{b:.10g}", "--rope-freq-scale",
                f"{1 / params['scale']:.10g}") + ctx, notes
    if encoding == "rope_yarn":
        s = float(params["scale"])
        m = params.get("mscale")
        if m is not None and abs(m - enc.yarn_mscale(s)) > 1e-12 * m:
            notes.append(f"attention factor {m:.6g} is not YaRN's default 0.1 ln s + 1 = {enc.yarn_mscale(s):.6g}, which "
                         "llama.cpp applies itself: its --yarn-attn-factor handling differs between builds")
        if params.get("truncate") is False:
            notes.append("llama.cpp's YaRN always rounds the ramp's end bands (floor/ceil in ggml_rope_yarn_corr_dims: "
                         "transformers' truncate=true): no flags give truncate=false; convert a GGUF from a config.json "
                         "with this block and check that the build keeps it")
            return None, notes
        return ("--rope-scaling", "yarn", "--rope-freq-base", f"{b:.10g}", "--rope-freq-scale", f"{1 / s:.10g}",
                "--yarn-orig-ctx", str(int(params["n_max"])), "--yarn-ext-factor", "1", "--yarn-attn-factor", "1",
                "--yarn-beta-fast", f"{params.get('beta', 32.0):g}", "--yarn-beta-slow",
                f"{params.get('alpha', 1.0):g}") + ctx, notes
    if encoding == "rope_dynamic":
        r = int(params.get("rotary_dim") or d)
        bn = enc.dynamic_base(b, float(params["scale"]), int(params["n_max"]), length, r)
        notes.append(f"llama.cpp has no dynamic NTK: --rope-freq-base {bn:.10g} is the base transformers uses at N")
        return ("--rope-scaling", "none", "--rope-freq-base", f"{bn:.10g}") + ctx, notes
    if encoding == "rope_llama3":
        notes.append("llama.cpp takes Llama 3's band factors from the GGUF (rope_freqs, written by convert_hf_to_gguf.py "
                     "from the config's rope scaling), not from flags: convert from a config.json with this block")
        return None, notes
    notes.append(f"llama.cpp takes {encoding}'s per-band factors from the GGUF, not from flags")
    return None, notes


#: The fields an emitted block supersedes where the model's config has them (gpt-neox's ``rotary_emb_base`` overrides
#: a ``rope_parameters`` base when left in place).
REPLACED = ("rope_parameters", "rope_scaling", "rope_theta", "rope_local_base_freq", "rotary_emb_base", "rotary_pct")


def _text(config: dict) -> dict:
    from petheory.models.config import text_part

    return text_part(config)[0]


def _own_rope(config: dict | None) -> tuple[dict, str | None, tuple]:
    """The model's own RoPE block (its text part's ``rope_parameters`` or ``rope_scaling``), where the text part is,
    and the fields of :data:`REPLACED` it has."""
    if config is None:
        return {}, None, ()
    from petheory.models.config import text_part

    where = "text_config" if isinstance(config.get("text_config"), dict) else None
    text, _ = text_part(config)
    rope = text.get("rope_parameters") or text.get("rope_scaling") or {}
    return (rope if isinstance(rope, dict) else {}), where, tuple(k for k in REPLACED if k in text)


def _carried(rope: dict, layer_type: str) -> dict:
    """The keys of the model's own block for ``layer_type`` that are not scaling keys (the family's: M-RoPE sections)."""
    own = rope.get(layer_type) if isinstance(rope.get(layer_type), dict) else rope
    return {k: val for k, val in own.items() if k not in SCALING_KEYS and not isinstance(val, dict)}


def runtime_configs(scheme, kinds, *, length: int, context: int, window_removed: bool = False) -> tuple:
    """One :class:`RuntimeConfig` per candidate of the plan's kinds (``kinds`` aligned with ``scheme.kinds()``).

    Parameters
    ----------
    scheme : Scheme
        The model's scheme; its ``config`` (the model's ``config.json``) says where its text part sits
        (``text_config``) and the keys its RoPE block carries (``mrope_section``, ...).
    kinds : sequence of KindPlan
        The plan's layer kinds, in the order of ``scheme.kinds()``.
    length : int
        N, the target context (the emitted ``max_position_embeddings``).
    context : int
        L, the original context.
    window_removed : bool
        The plan runs the sliding layers at full attention: every config gets ``sliding_window: null``.

    Returns
    -------
    tuple of RuntimeConfig
        The transformers 5.x and 4.x blocks, llama.cpp flags and vLLM arguments of each candidate.

    Raises
    ------
    ValidationError
        A flat-block family whose layer kinds would need different blocks.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> from petheory.analyses.plan import plan
    >>> r = plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=4096)
    >>> [c.candidate for c in r.configs][:3]
    ['as_configured', 'base_men', 'base_liu']
    """
    layers = scheme.kinds()
    per_layer = scheme.source in PER_LAYER_TYPE
    planned = [k for k in kinds if k.planned]
    own, where, replaces = _own_rope(scheme.config)
    names = []
    for k in planned:
        names += [c.name for c in k.candidates if c.name not in names]
    out = []
    for name in names:
        blocks: dict = {}
        scaled = None
        for (layer, _), k in zip(layers, kinds):
            pos = layer.positions
            if pos.kind != "rotary":
                continue
            if k.planned or not per_layer:  # a flat-block family: every rotary layer reads the planned block
                c = (k if k.planned else planned[0]).candidate(name)
                enc_name, params = c.encoding, c.params
                scaled = scaled or (enc_name, params, pos.encoding, pos.proportional)
            else:
                enc_name, params = pos.encoding, pos.params
            key = layer.type or "full_attention"
            block = {**rope_block(enc_name, params, pos.d, proportional=pos.proportional), **_carried(own, key)}
            if key in blocks and blocks[key] != block:
                raise ValidationError(f"layers of type {key} have different RoPE: one rope_parameters block cannot give both")
            blocks[key] = block
        if not per_layer and len({json.dumps(b, sort_keys=True) for b in blocks.values()}) > 1:
            raise ValidationError(f"{scheme.source}'s rotary module reads one flat rope_parameters for every layer, and its "
                                  f"layer types ({', '.join(blocks)}) would need different blocks for {name}")
        rope = blocks if per_layer else next(iter(blocks.values()))
        enc_name, params, configured, proportional = scaled
        dyn = enc_name == "rope_dynamic"
        m = context if dyn else length
        notes = []
        if dyn:
            notes.append(f"transformers' dynamic NTK counts from max_position_embeddings: it stays {context:,}")
        if not per_layer and len(blocks) > 1:
            notes.append(f"{scheme.source} reads one flat rope_parameters: its {', '.join(k for k in blocks if k != planned[0].type)} "
                         "layers take this block too")
        flags, cpp_notes = _llama_cpp(enc_name, params, configured, length=length, d=scheme.head_dim)
        if proportional:
            flags = None
            cpp_notes = ["proportional RoPE (zero frequency past partial_rotary_factor of the whole head): petheory has not "
                         "checked llama.cpp's reading of it, so no flags are given; convert a GGUF from a config.json "
                         "with this block"]
        if per_layer and len({json.dumps(b, sort_keys=True) for b in blocks.values()}) > 1:
            flags = None
            cpp_notes.append("llama.cpp's flags set one RoPE for every layer and this model has one per layer type ("
                             + "; ".join(f"{t}: {b['rope_type']} base {b['rope_theta']:g}" for t, b in blocks.items())
                             + "): no flags give it; convert a GGUF from a config.json with this block")
        if window_removed:
            flags = None
            cpp_notes.append("no llama.cpp flag removes a sliding window: convert a GGUF from a config.json with this "
                             "block (sliding_window null)")
        notes += cpp_notes
        v_rope = rope
        if dyn:  # vLLM's dynamic type computes one base at max_position_embeddings * factor: give it transformers' base at N
            r = int(params.get("rotary_dim") or scheme.head_dim)
            bn = enc.dynamic_base(float(params["base"]), float(params["scale"]), int(params["n_max"]), length, r)

            def plain(val):
                return {**{x: y for x, y in val.items() if x != "factor"}, "rope_type": "default", "rope_theta": bn}

            v_rope = plain(rope) if not per_layer else {key: (plain(val) if val.get("rope_type") == "dynamic" else val)
                                                         for key, val in blocks.items()}
            notes.append("vLLM's dynamic type is static (one base at max_position_embeddings x factor): the override "
                         "gives it the plain base transformers uses at N")
        extra = {"sliding_window": None} if window_removed else {}
        if enc_name in HEAD_DIM_READERS and scheme.source in HEAD_DIM_NONE and scheme.config is not None \
                and _text(scheme.config).get("head_dim") is None:
            # transformers' dynamic, YaRN and LongRoPE inits read getattr(config, "head_dim", hidden_size //
            # num_attention_heads): a config class whose head_dim defaults to None (Mixtral, MiniMax) gives None, and
            # the init raises
            extra["head_dim"] = scheme.head_dim
            notes.append(f"head_dim {scheme.head_dim} written: transformers' {_ROPE_NAME[enc_name]} init reads "
                         "config.head_dim, which this config leaves unset (a class default of None makes it raise)")
        if proportional and enc_name == "rope_pi":
            notes.append("transformers' config check logs factor as an unrecognized key of rope_type proportional; its "
                         "proportional init divides the frequencies by it all the same (read back in the tests)")
        rc = RuntimeConfig(name, rope, m, _v4(scheme.source, blocks if per_layer else {"all": rope}), flags, (),
                           tuple(notes), where, extra, replaces)
        over = {**rc._placed({"rope_parameters": v_rope})}
        inner = over[where] if where else over
        inner["max_position_embeddings"] = length
        vllm = ("--hf-overrides", json.dumps(over), "--max-model-len", str(length))
        out.append(dataclasses.replace(rc, vllm=vllm))
    return tuple(out)
