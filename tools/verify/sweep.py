"""Verify petheory's reading of every model type of the pinned transformers against transformers' own modules.

    python -m tools.verify                  # sweep (cached per model type under results/verify_models/)
    python -m tools.verify --only gpt_neox  # one model type (repeatable), printed in full
    python -m tools.verify --write          # write petheory/data/verified_models.json and docs/guide/families.md
    python -m tools.verify --check TYPE...  # exit 1 when the committed table differs for these types

For each model type in ``transformers.CONFIG_MAPPING``, its cases: the default config; the published config.json
files of tests/data/hf_configs of that type, written as is (``hub:FILE``); for a decoder whose rotary takes
``rope_parameters``, its linear, dynamic, YaRN, Llama 3 and LongRoPE variants; layer-layout variants (a sliding
window, a NoPE schedule, chunks, a hybrid's attention layers) where its config class has the fields, and one with
all of them at once (``every-kind``); the default written as a transformers 4 file on the hub (``hub-layout``:
``rope_theta`` / ``rope_scaling`` at the top level, no derivable ``layer_types``). A case counts only for the layer
kinds it contains, each compared with transformers' module. Each case is saved with
``save_pretrained``, read back through petheory's loader (the reader before the verification gate:
``petheory.models.config.read_config``) and compared layer by layer with the modules transformers builds from the
same file (:mod:`tools.verify.oracle`, on the meta device). A case ends ``ok``, ``refused`` (petheory's one-line reason, or
``unverified:`` what this tool cannot check in the family's code), ``misread`` (what differs), ``crash`` (petheory
raised something else: a bug), or outside the count: ``transformers`` (its own config or modules fail to build),
``no-positions`` (no positions in a config: a learned table, or no position mechanism at all), ``not-text`` (no
language-model head: a vision or audio encoder), ``no-model`` (a sub-configuration without a model class of its own). Results are cached per model type
(atomic JSON files), so an interrupted sweep resumes; ``--fresh`` recomputes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "results" / "verify_models"

U32 = 2.0**-24
U64 = 2.0**-53
#: Factors an attention's forward reads from self that petheory's families table reads (else: unverified): each
#: multiplies every logit once (Muse's qk_scale_factor multiplies the queries after their norm).
KNOWN_FACTORS = {"key_multiplier", "attention_in_multiplier^2", "qk_scale_factor", "q_lora_scale", "mla_scale_q_lora"}


def _quiet():
    warnings.filterwarnings("ignore")
    import transformers

    transformers.logging.set_verbosity_error()
    import logging

    logging.getLogger("transformers").setLevel(logging.ERROR)


# ----------------------------------------------------------------------------- cases


def rope_variants(text, bands: int) -> list:
    """(name, rope_parameters) of the scaling variants for a flat rope_parameters of rope_type default."""
    rp = getattr(text, "rope_parameters", None)
    if not isinstance(rp, dict) or not rp or any(isinstance(v, dict) for v in rp.values()):
        return []
    if rp.get("rope_type", "default") != "default":
        return []
    mp = int(getattr(text, "max_position_embeddings", 0) or 0)
    if mp < 64:
        return []
    keep = {k: v for k, v in rp.items() if k not in ("rope_type", "type", "factor")}
    out = [("linear", {**keep, "rope_type": "linear", "factor": 4.0}),
           ("dynamic", {**keep, "rope_type": "dynamic", "factor": 2.0}),
           ("yarn", {**keep, "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": mp // 4}),
           ("llama3", {**keep, "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                       "original_max_position_embeddings": mp // 8})]
    if bands:
        out.append(("longrope", {**keep, "rope_type": "longrope", "original_max_position_embeddings": mp // 4,
                                 "factor": 4.0, "short_factor": [1.0 + 0.01 * i for i in range(bands)],
                                 "long_factor": [1.0 + 0.5 * i for i in range(bands)]}))
    return out


def hub_layout(config) -> dict | None:
    """``config`` (no wrapper) as a transformers 4 file on the hub writes it: ``rope_theta`` and
    ``partial_rotary_factor`` at the top level, a non-default scaling in ``rope_scaling`` (``type`` key), no
    ``rope_parameters``, and no ``layer_types`` where the class derives the same list without it; None for a nested
    (per-layer-type) ``rope_parameters`` (4.x files wrote those families' fields otherwise)."""
    d = {k: v for k, v in config.to_dict().items() if _finite_json(v)}  # published files hold no Infinity (Bamba's
    # time_step_limit default: not a positional field)
    rp = d.pop("rope_parameters", None)
    if isinstance(rp, dict) and rp:
        if any(isinstance(v, dict) or v is None for v in rp.values()):
            return None
        rp = dict(rp)
        d["rope_theta"] = rp.pop("rope_theta", None)
        if "partial_rotary_factor" in rp:
            d["partial_rotary_factor"] = rp.pop("partial_rotary_factor")
        rtype = rp.pop("rope_type", rp.pop("type", "default"))
        rp.pop("type", None)
        d["rope_scaling"] = {"type": rtype, **rp} if rtype != "default" or rp else None
        if d["rope_theta"] is None:
            d.pop("rope_theta")
    if isinstance(d.get("layer_types"), list):
        try:
            again = type(config).from_dict({k: v for k, v in d.items() if k not in ("layer_types", "model_type")})
            if list(getattr(again, "layer_types", None) or []) == d["layer_types"]:
                d.pop("layer_types")
        except Exception:  # noqa: BLE001 - the class needs its list: keep it
            pass
    return d


def _finite_json(v) -> bool:
    try:
        json.dumps(v, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def layout_variants(text) -> list:
    """(name, overrides) of layer-layout variants the config class has fields for."""
    d = text.to_dict()
    n = int(getattr(text, "num_hidden_layers", 0) or 0)
    out = []
    if "sliding_window" in d and n >= 2:
        over = {"sliding_window": 512}
        if "use_sliding_window" in d:
            over["use_sliding_window"] = True
        if "max_window_layers" in d:
            over["max_window_layers"] = n // 2
        types = d.get("layer_types")
        rp = d.get("rope_parameters")
        keyed = [k for k, v in rp.items() if isinstance(v, dict)] if isinstance(rp, dict) else []
        if isinstance(types, list) and set(types) <= {"full_attention", "sliding_attention"}:
            over["layer_types"] = ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(n)]
            if types and types[-1] == "full_attention" and types[0] == "sliding_attention":
                over["layer_types"][-1] = "full_attention"
        elif isinstance(types, list) and len(keyed) >= 2 and set(types) < set(keyed):
            # a class whose rope_parameters name layer types of its own that its default does not use (ZAYA's
            # hybrid_sliding): every one of them, in turn
            over["layer_types"] = [keyed[i % len(keyed)] for i in range(n)]
        out.append(("window", over))
    if "no_rope_layers" in d and n:
        out.append(("nope", {"no_rope_layers": [0 if i % 3 == 2 else 1 for i in range(n)]}))
    if "layer_rope_theta" in d and n:
        out.append(("nope", {"layer_rope_theta": [0.0 if i % 3 == 2 else 10000.0 * (1 + i % 2) for i in range(n)]}))
    if "attention_chunk_size" in d:
        out.append(("chunked", {"attention_chunk_size": 1024}))
    if "attn_layer_indices" in d and n >= 4:  # Bamba: attention among Mamba layers
        out.append(("hybrid", {"attn_layer_indices": [i for i in range(n) if i % 4 == 3]}))
    if "alibi" in d and not d["alibi"]:
        out.append(("alibi", {"alibi": True}))
    if "position_embedding_type" in d and isinstance(d.get("layer_types"), list) and n >= 4:
        mixed = ["full_attention" if i % 4 == 3 else "linear_attention" for i in range(n)]
        out.append(("hybrid-rope", {"layer_types": mixed, "position_embedding_type": "rope"}))
        out.append(("hybrid-nope", {"layer_types": mixed, "position_embedding_type": "nope"}))
    every = every_kind(d, n, [over for name, over in out if name != "alibi"])
    if every is not None:
        out.append(("every-kind", every))
    return out


def every_kind(d: dict, n: int, layouts: list) -> dict | None:
    """One variant with every layer kind of ``layouts`` present at once (a window with NoPE layers, chunks and
    attention among a hybrid's other layers): the overrides merged, and a ``layer_types`` list holding every type the
    default and the layouts name (sliding, full, linear ...), each at least once; None when fewer than two layouts
    apply (each is its own case already)."""
    if len(layouts) < 2 or n < 4:
        return None
    merged = {}
    for over in layouts:
        merged.update(over)
    kinds = []
    for types in [d.get("layer_types")] + [over.get("layer_types") for over in layouts]:
        for t in types if isinstance(types, list) else []:
            if t not in kinds:
                kinds.append(t)
    if len(kinds) >= 2:
        types = [kinds[i % len(kinds)] for i in range(n)]
        last = (merged.get("layer_types") or d.get("layer_types") or [None])[-1]
        if last == "full_attention" and types[-1] != last:  # a family that forces its last layer full (Gemma 4)
            types[-1] = last
        merged["layer_types"] = types
    return merged


def variant(config, over: dict, layers: int | None = None):
    """``config`` (no wrapper) with ``over`` applied, rebuilt by its class (its validation runs)."""
    d = config.to_dict()
    if "layer_types" in over and "per_layer_config" not in over:
        # a per_layer_config the class derived from the old layer_types (Gemma 4's, NeoMME's) would override the new
        # layers by the old indices: the class derives it again
        d.pop("per_layer_config", None)
    d.update(over)
    n = d.get("num_hidden_layers", 0)
    if layers is not None and isinstance(n, int) and n > layers:
        d["num_hidden_layers"] = layers
        for k, val in list(d.items()):  # every per-layer list (layer_types, mlp_layer_types, ...)
            if isinstance(val, list) and len(val) == n:
                d[k] = val[:layers]
    d.pop("model_type", None)
    return type(config).from_dict(d)


# ----------------------------------------------------------------------------- comparison


def compare(scheme, f: dict, hf_config) -> tuple[list, list]:
    """(mismatches, unverified) between petheory's scheme and transformers' facts ``f``."""
    from petheory import encodings as enc

    bad, unknown = [], []
    text = hf_config.get_text_config(decoder=True)
    if len(scheme.layers) != len(f["layers"]):
        return [f"{len(scheme.layers)} layers, transformers has {len(f['layers'])}"], []
    rot_by_type = _rotary_by_type(f)
    for name, rot in f.get("rotary", {}).items():
        if rot.get("learned") and any(layer.positions.kind == "rotary" for layer in scheme.layers):
            unknown.append(f"rotary module {name} ({rot['class']}) has learned parameters {rot['learned']}: the "
                           "frequencies it runs are not its config's alone")
    for i, (layer, fl) in enumerate(zip(scheme.layers, f["layers"])):
        p = layer.positions
        if fl["attention"] is None:
            if p.kind != "none":
                bad.append(f"layer {i}: {p.kind} here, transformers has no softmax attention")
            continue
        if p.kind == "none":
            bad.append(f"layer {i}: none here, transformers has {fl['attention']}")
            continue
        if fl["head_dim"] is not None and fl["head_dim"] != p.d:
            bad.append(f"layer {i}: head size {p.d}, transformers {fl['head_dim']}")
        extra = 1.0
        for name, val in fl["factors"]:
            if name in KNOWN_FACTORS and isinstance(val, float):
                extra *= val
            elif name in ("attn_scale", "floor_scale") and (layer.temperature is not None or fl["rope"]):
                continue  # Llama 4's temperature: compared below (its rotary layers read it, do not apply it)
            elif "softcap" in name and any("soft-capped" in note for note in scheme.notes):
                continue  # tanh soft-capping after the scale: stated in the notes, not part of the kernel
            elif isinstance(val, float) and val != 1.0 or isinstance(val, str):
                unknown.append(f"{fl['attention']}.forward reads self.{name} = {val}")
        if fl["scaling"] is None:
            if p.kind != "bias":
                unknown.append(f"{fl['attention']} keeps no softmax scale ({fl['scaling_key']})")
        else:
            ours = p.logit_factor * p.d**-0.5
            if not math.isclose(ours, fl["scaling"] * extra, rel_tol=64 * U64 + (U32 if fl["scaling_key"] ==
                                                                                   "inv_norm_factor" else 0)):
                bad.append(f"layer {i}: softmax scale {ours:.9g}, transformers {fl['scaling'] * extra:.9g}")
        hw = fl["window"]
        span = (layer.span.kind, layer.span.size)
        if layer.span.kind == "chunked":
            if (f.get("layer_types") or [None] * (i + 1))[i] != "chunked_attention" or \
                    getattr(text, "attention_chunk_size", None) != layer.span.size:
                bad.append(f"layer {i}: chunks of {layer.span.size}, transformers does not chunk this layer so")
        elif span != (("full", None) if hw is None else ("sliding", hw)):
            bad.append(f"layer {i}: span {layer.span}, transformers window {hw}")
        if fl["rope"] is None:
            unknown.append(fl["rope_why"])
        elif fl["rope"] != (p.kind == "rotary"):
            bad.append(f"layer {i}: {p.kind} here, transformers {'applies' if fl['rope'] else 'applies no'} RoPE")
        if fl.get("is_causal") is False and layer.causal:
            bad.append(f"layer {i}: read as causal, transformers' attention is bidirectional (is_causal False)")
        elif fl.get("is_causal") is not False and not layer.causal:
            bad.append(f"layer {i}: read as bidirectional, transformers' attention is causal (is_causal "
                       f"{fl.get('is_causal')})")
        if fl["sinks"] != layer.sinks:
            bad.append(f"layer {i}: sinks {layer.sinks}, transformers {fl['sinks']}")
        if "query_scale" in fl:
            bad += _query_scale(i, layer, fl["query_scale"])
        elif ("temperature" in fl) != (layer.temperature is not None):
            bad.append(f"layer {i}: temperature {layer.temperature}, transformers {fl.get('temperature')}")
        elif layer.temperature is not None and {k: float(v) for k, v in layer.temperature.params.items()} != \
                fl["temperature"]:
            bad.append(f"layer {i}: temperature {layer.temperature.params}, transformers {fl['temperature']}")
    for layer, idx, module in _kinds_by_module(scheme, f):
        p = layer.positions
        if p.kind == "rotary":
            got = rot_by_type(layer.type, module)
            if got is None:
                unknown.append(f"no rotary inverse frequencies for the {layer.type} layers")
                continue
            if isinstance(got, str):
                unknown.append(got)
                continue
            inv, af, sections = got
            name, params = p.encoding, dict(p.params)
            w, factor = enc.band_frequencies(name, p.d, 2, **params)
            if name == "mla_rope":  # its table's factor holds softmax_mscale^2 too (on every logit: the scale check)
                factor /= float(params.get("softmax_mscale", 1.0)) ** 2
            hf = [x for x in inv]
            nz = sum(1 for x in hf if x != 0.0)
            if nz != len(w) or any(x == 0.0 for x in hf[:nz]):
                bad.append(f"{layer.type}: {2 * len(w)} rotated dimensions, transformers {2 * nz}")
                continue
            base = float(params.get("base", (params.get("scaling_params") or {}).get("base", 10000.0)) or 10000.0)
            tol = (abs(math.log(base)) + 12) * U32
            rel = max(abs(a - b) / b for a, b in zip(w.tolist(), hf[:nz]))
            if rel > tol:
                bad.append(f"{layer.type}: frequencies differ by {rel:.3g} > {tol:.3g} relative")
            if not math.isclose(factor, af * af, rel_tol=64 * U64):
                bad.append(f"{layer.type}: cos/sin factor^2 {factor:.9g}, transformers {af * af:.9g}")
            pair = params.get("pairing", "half") if name != "mla_rope" else params.get("pairing")
            if f.get("pairing") is None:  # not read is not verified: the pairing decides rotate's output and bands
                unknown.append(f"{layer.type}: the pairing of transformers' apply function is not read "
                               f"({f.get('pairing_why') or 'no reason given'})")
            elif pair != f["pairing"]:
                bad.append(f"{layer.type}: {pair} pairing, transformers' apply_rotary_pos_emb pairs {f['pairing']}")
            elif p.reflected != f.get("reflected", False):
                say = {True: "by -theta", False: "by +theta"}
                bad.append(f"{layer.type}: rotates {say[p.reflected]}, transformers' apply_rotary_pos_emb "
                           f"{say[f.get('reflected', False)]}")
            mine = None if p.mrope is None else (list(p.mrope.sections), p.mrope.layout)
            if sections is not None and sections[1] is None:
                unknown.append(f"{layer.type}: the M-RoPE layout of transformers' code is not read")
            elif (sections or None) != mine:
                bad.append(f"{layer.type}: M-RoPE {mine}, transformers {sections}")
        if p.kind == "bias" and p.encoding == "alibi":
            a = f.get("alibi") or {}
            if "slopes" not in a:
                unknown.append("no ALiBi slopes from transformers")
                continue
            hf = [s / a["divided_by"] for s in a["slopes"]]
            ours = [h["slope"] for h in p.heads]
            H = len(hf)
            if len(ours) != H or any(abs(x - y) > (2 * H + 2) * U32 * abs(y) for x, y in zip(ours, hf)):
                bad.append(f"ALiBi slopes {ours[:3]}..., transformers {hf[:3]}...")
        if p.kind == "bias" and p.encoding == "t5":
            bad += _t5(p, f)
    return bad, sorted(set(unknown))


def _query_scale(i, layer, hf) -> list:
    """A position-dependent query scale (transformers' values at its positions) against the layer's temperature: equal
    to float32 rounding (transformers computes floor, log and the product in float32: a few u32 of the value)."""
    if "error" in hf:
        return [f"layer {i}: transformers' query scale cannot be evaluated ({hf['error']})"]
    if layer.temperature is None:
        return [f"layer {i}: no temperature here, transformers scales queries by {hf['values'][:4]}..."]
    ours = layer.temperature.at(hf["positions"]).tolist()
    if any(abs(a - b) > 8 * U32 * abs(b) for a, b in zip(ours, hf["values"])):
        return [f"layer {i}: query scale {ours[:4]}..., transformers {hf['values'][:4]}..."]
    return []


def _kinds_by_module(scheme, f):
    """(layer kind, its layer indices, the rotary module the model passes them) over ``scheme``'s kinds, a kind split
    where transformers passes its layers different modules (Granite-SWA's per-theta modules)."""
    for layer, idx in scheme.kinds():
        groups: dict = {}
        for i in idx:
            groups.setdefault(f["layers"][i].get("rotary_module"), []).append(i)
        for module, part in groups.items():
            yield layer, part, module


def _rotary_by_type(f):
    rot = {k: v for k, v in f.get("rotary", {}).items() if "error" not in v}
    errors = [v["error"] for v in f.get("rotary", {}).values() if "error" in v]

    def get(layer_type, module=None):
        """``module``: the one the model passes these layers (Granite-SWA's per-theta modules), where known."""
        if not rot:
            return errors[0] if errors else None
        if module in rot:
            entry = rot[module]
        elif len(rot) > 1:
            local = [v for k, v in rot.items() if "local" in k]
            glob = [v for k, v in rot.items() if "local" not in k]
            if len(local) == 1 and len(glob) == 1:
                entry = local[0] if layer_type == "sliding_attention" else glob[0]
            else:
                return f"{len(rot)} rotary modules ({', '.join(rot)}): which layer uses which is not read"
        else:
            (entry,) = rot.values()
        inv = entry.get("inv_freq", {})
        key = layer_type if layer_type in inv else "default"
        if key not in inv:
            return f"{entry['class']} has no inverse frequencies for {layer_type}"
        af = entry.get("attention_scaling", {}).get(key, entry.get("attention_scaling", {}).get("default", 1.0))
        sections = entry.get("mrope_section")
        return inv[key], 1.0 if af is None else af, None if sections is None else (sections, entry.get("mrope_layout"))
    return get


def _t5(p, f):
    t5 = f.get("t5")
    if not t5:
        return ["T5 buckets here, transformers has no relative_position_bucket"]
    if (t5["num_buckets"], t5["max_distance"]) != (p.params["num_buckets"], p.params["max_distance"]):
        return [f"T5 buckets {p.params['num_buckets']}/{p.params['max_distance']}, transformers "
                f"{t5['num_buckets']}/{t5['max_distance']}"]
    return []


# ----------------------------------------------------------------------------- one case, one type


def class_fields(config, raw: dict | None = None) -> list:
    """The positional fields ``config``'s (text) model reads: its class's own (a default instance's dict), every
    ``config.X`` / ``getattr(config, "X", ...)`` in its configuration and modeling modules (a field the class does
    not declare but the code reads through ``getattr``, such as GLM-4.5's ``head_dim``, counts), and every key its
    configuration module takes from the file's ``kwargs`` (ModernBERT's ``global_rope_theta``, consumed on loading).
    ``raw``: the file ``config`` was loaded from; a key that only the file brings (kept by the class as an attribute,
    never declared) is not the class's."""
    import importlib
    import inspect
    import re

    from petheory.models.understood import guarded

    text = config.get_text_config(decoder=True)
    keys = set(text.to_dict())
    if raw is not None:
        part = raw.get("text_config") if isinstance(raw.get("text_config"), dict) else raw
        declared = {k for cls in type(text).__mro__ for k in getattr(cls, "__annotations__", {})}
        keys -= set(part) - declared
    base = type(text).__module__
    for name in (base, base.replace(".configuration_", ".modeling_")):
        try:
            src = inspect.getsource(importlib.import_module(name))
        except Exception:  # noqa: BLE001 - no modeling module of that name
            continue
        keys |= set(re.findall(r"config\.(\w+)", src))
        keys |= set(re.findall(r"getattr\(\s*(?:self\.)?\w*config\w*\s*,\s*[\"'](\w+)", src))
        if name == base:
            keys |= set(re.findall(r"kwargs\.(?:pop|get)\(\s*[\"'](\w+)", src))
    return sorted(k for k in keys if guarded(k))


def run_case(mt: str, case: str, config, raw: dict | None = None) -> dict:
    """Save ``config`` (or write ``raw``, a config.json as the hub ships it), read it back through petheory and
    transformers, compare: the case's record."""
    from . import oracle

    from petheory.errors import ValidationError
    from petheory.loaders.model_config import read_config as read_file
    from petheory.models.config import read_config

    rec = {"model_type": mt, "case": case}
    with tempfile.TemporaryDirectory() as tmp:
        try:
            if raw is None:
                config.save_pretrained(tmp)
            else:
                Path(tmp, "config.json").write_text(json.dumps(raw), encoding="utf-8")
            from transformers import AutoConfig

            back = AutoConfig.from_pretrained(tmp)
            rec["text_type"] = back.get_text_config(decoder=True).model_type
        except Exception as exc:  # noqa: BLE001 - transformers' own failure
            return {**rec, "outcome": "transformers", "detail": _one_line(exc)}
        if not _is_text(mt, rec["text_type"]):
            return {**rec, "outcome": "not-text", "detail": f"{type(back).__name__.removesuffix('Config')} is not a text "
                    "model (no language-model head in transformers' auto mappings): positions over image patches, audio "
                    "frames or other inputs are not read"}
        try:
            built = oracle.build_meta(back)
        except Exception as exc:  # noqa: BLE001 - transformers' own failure
            if "Unrecognized configuration class" in str(exc):
                return {**rec, "outcome": "no-model", "detail": "transformers has no model class for this configuration "
                        "alone (a sub-configuration: read through the model type that holds it)"}
            return {**rec, "outcome": "transformers", "detail": _one_line(exc)}
        try:
            f = oracle.facts_of(*built)
        except Exception as exc:  # noqa: BLE001 - this tool cannot read the modules: not verified
            try:  # petheory's own refusal of the file (a mechanism it names) is the reason a user sees
                read_config(read_file(Path(tmp) / "config.json"), aliases=aliases(back), fields=class_fields(back, raw))
            except ValidationError as refusal:
                return {**rec, "outcome": "refused", "detail": str(refusal)}
            except Exception:  # noqa: BLE001, S110 - petheory reads it: the tool's failure is the reason
                pass
            return {**rec, "outcome": "refused", "detail": f"unverified: the tool could not read {type(built[0]).__name__}'s "
                    f"modules ({_one_line(exc)})"}
        rec["model_class"] = f["model_class"]
        if not _has_positions(f):
            return {**rec, "outcome": "no-positions", "detail": _no_positions(f)}
        found = _found(f)
        try:
            scheme = read_config(read_file(Path(tmp) / "config.json"), aliases=aliases(back),
                                 fields=class_fields(back, raw))
        except ValidationError as exc:
            if not found:
                return {**rec, "outcome": "no-positions", "detail": _nothing(f)}
            return {**rec, "outcome": "refused", "detail": str(exc)}
        except Exception as exc:  # noqa: BLE001 - petheory's bug
            return {**rec, "outcome": "crash", "detail": _one_line(exc), "trace": traceback.format_exc()[-1500:]}
        if not f.get("rotary") and any(x.get("rope") for x in f["layers"] if x.get("attention")):
            return {**rec, "outcome": "refused", "detail": f"{f['model_class']} rotates queries and keys with a sin/cos "
                    "table of its own (no RotaryEmbedding module): its frequencies are not read"}
        if not found and any(layer.positions.kind != "nope" and layer.positions.kind != "none" for layer in scheme.layers):
            return {**rec, "outcome": "refused", "detail": f"{f['model_class']}'s code has no rotary embedding, ALiBi, "
                    "T5 buckets or learned table in its text layers (its positions are another mechanism, not read "
                    "from a config)"}
    try:
        bad, unknown = compare(scheme, f, back)
    except Exception as exc:  # noqa: BLE001 - the comparison's own failure is petheory's (a scheme it cannot use)
        return {**rec, "outcome": "crash", "detail": "comparing: " + _one_line(exc), "trace": traceback.format_exc()[-1500:]}
    rec["layers"] = summary(scheme)
    if bad:
        return {**rec, "outcome": "misread", "detail": "; ".join(bad[:4])}
    if unknown:
        return {**rec, "outcome": "refused", "detail": "unverified: " + "; ".join(unknown[:3])}
    return {**rec, "outcome": "ok", "detail": ""}


def _is_text(mt: str, text_type) -> bool:
    """Whether transformers maps ``mt`` (or its text part) to a language-model head (causal, seq2seq, masked, or
    image/audio-text-to-text)."""
    from transformers.models.auto import modeling_auto as ma

    names = [n for n in dir(ma) if n.endswith("_MAPPING_NAMES") and any(x in n for x in (
        "CAUSAL_LM", "SEQ_TO_SEQ", "MASKED_LM", "TEXT_TO_TEXT", "VISION_2_SEQ", "MULTIMODAL_LM")) and "SPEECH" not in n]
    heads = {t for n in names for t in getattr(ma, n)}
    return any(t in heads or t in _text_parts(frozenset(heads)) for t in (mt, text_type) if t)


_TEXT_PARTS: dict = {}


def _text_parts(heads: frozenset) -> set:
    """The text model types of the language models' wrappers (a text part is a text model, read through them)."""
    if heads not in _TEXT_PARTS:
        from transformers import CONFIG_MAPPING

        out = set()
        for t in heads:
            try:
                out.add(CONFIG_MAPPING[t]().get_text_config(decoder=True).model_type)
            except Exception:  # noqa: BLE001 - a class that does not build alone
                pass
        _TEXT_PARTS[heads] = out
    return _TEXT_PARTS[heads]


def aliases(config) -> dict:
    """The standard fields the (text) config's class stores under other names (its ``attribute_map``)."""
    from petheory.models.config import ALIASED

    text = config.get_text_config(decoder=True)
    return {k: v for k, v in getattr(type(text), "attribute_map", {}).items() if k in ALIASED}


def _found(f) -> bool:
    """Whether transformers' text layers have a position mechanism this tool reads (rotary, ALiBi, T5 buckets)."""
    return bool(f.get("rotary") or (f.get("alibi") or {}).get("slopes") or f.get("t5")
                or any(x.get("rope") for x in f["layers"] if x.get("attention")))


def _nothing(f) -> str:
    if not any(x.get("attention") for x in f["layers"]):
        return f"{f['model_class']}: no softmax attention in its text layers (a state-space or other mixer): no positions"
    return f"{f['model_class']}: no rotary embedding, ALiBi, T5 buckets or learned table found in its text layers"


def _has_positions(f) -> bool:
    """False for a learned absolute table (and nothing else a config holds): the positions are weights."""
    return not (f.get("absolute") and not f.get("rotary") and not f.get("t5") and
                not (f.get("alibi") or {}).get("slopes"))


def _no_positions(f) -> str:
    return (f"{f['model_class']}: absolute positions added to its inputs ({f['absolute'][0]}), not attention "
            "positions read from a config: a learned table is weights (read it with hf:DIR and its weights), a "
            "sinusoidal one is petheory's sinusoidal PE")


def _one_line(exc) -> str:
    """The exception's first line, with this machine's site-packages path replaced (the table is committed)."""
    import transformers

    site = str(Path(transformers.__file__).resolve().parents[1])
    text = str(exc).replace(site, "<site-packages>").strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300] if text else ''}"


def summary(scheme) -> list:
    """The scheme's layer kinds, compact: [type, mechanism, count, rotated/d, span]."""
    out = []
    for layer, idx in scheme.kinds():
        p = layer.positions
        rd = p.params.get("rotary_dim", p.params.get("rope_dim", p.d)) if p.kind == "rotary" else None
        out.append([layer.type, p.kind if p.encoding is None else f"{p.kind} {p.encoding}", len(idx),
                    None if rd is None else f"{rd}/{p.d}", str(layer.span)])
    return out


def verify_type(mt: str) -> dict:
    """Every case of model type ``mt``: {"model_type", "cases": [...], "seconds"}."""
    from transformers import CONFIG_MAPPING

    t0 = time.time()
    try:
        config = CONFIG_MAPPING[mt]()
    except Exception as exc:  # noqa: BLE001
        return {"model_type": mt, "cases": [{"model_type": mt, "case": "default", "outcome": "transformers",
                                             "detail": _one_line(exc)}], "seconds": time.time() - t0}
    cases = [run_case(mt, "default", config)]
    wraps = cases[0]["outcome"] not in ("no-model", "not-text")  # another wrapper's text part: only where mt runs one
    for name, doc in hub_files(mt, _text_type(config) if wraps else None):
        cases.append(run_case(mt, f"hub:{name}", None, raw=doc))
    for name, kw in published(mt):
        try:
            cases.append(run_case(mt, f"published:{name}", _published_config(config, kw)))
        except Exception as exc:  # noqa: BLE001 - the class refuses it
            cases.append({"model_type": mt, "case": f"published:{name}", "outcome": "skipped",
                          "detail": "its config class refuses it: " + _one_line(exc)})
    own = {k: v for k, v in aliases(config).items()} if config.get_text_config(decoder=True) is config else {}
    fields = class_fields(config)
    text = config.get_text_config(decoder=True)
    if cases[0]["outcome"] in ("ok", "no-positions") and text is config:
        bands = 0
        for kind in cases[0].get("layers", []):
            if kind[1].startswith("rotary") and kind[3]:
                bands = int(kind[3].split("/")[0]) // 2
        for name, rope in rope_variants(config, bands):
            cases.append(_variant_case(mt, name, config, {"rope_parameters": rope}, layers=4))
        for name, over in layout_variants(config):
            cases.append(_variant_case(mt, name, config, over))
        raw = hub_layout(config)
        if raw is not None:
            cases.append(run_case(mt, "hub-layout", None, raw=raw))
    return {"model_type": mt, "cases": cases, "aliases": own, "fields": fields, "seconds": round(time.time() - t0, 2)}


def published(mt: str) -> list:
    """(case id, overrides) of the flagship configs (:mod:`tools.verify.flagships`) for model type ``mt``."""
    from .flagships import CASES, OLDER

    return [(name, kw) for name, t, kw in CASES + OLDER if t == mt and "text_config" not in kw]


#: config.json files as the hub ships them (4.x keys, the fields published checkpoints carry): each is a case of its
#: model type (and of its text part's, cut out of a wrapper), written as is.
HUB = ROOT / "tests" / "data" / "hf_configs"


def hub_files(mt: str, text_type: str | None = None) -> list:
    """(case name, config dict) of the hub-layout fixtures of model type ``mt``: a file whose model_type is ``mt``, or
    a wrapper whose text_config's is (its text part alone); and, for a wrapper whose text model is ``text_type``, another
    wrapper's published text_config of that type under ``mt`` (``NAME-text``: GLM-4.1V's text part as GLM-4.6V's,
    whose language model is the same class; the wrapper's own code runs it)."""
    out = []
    for path in sorted(HUB.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        text = doc.get("text_config") if isinstance(doc.get("text_config"), dict) else {}
        if doc.get("model_type") == mt:
            out.append((path.stem, doc))
        elif text.get("model_type") == mt:
            out.append((path.stem, text))
        elif text_type is not None and text_type != mt and text.get("model_type") == text_type:
            out.append((f"{path.stem}-text", {"model_type": mt, "text_config": text}))
    return out


def _text_type(config) -> str | None:
    text = config.get_text_config(decoder=True)
    return None if text is config else text.model_type


def _published_config(config, kw):
    base = {k: v for k, v in config.to_dict().items() if not (k == "layer_types" and "num_hidden_layers" in kw)}
    return type(config).from_dict({**base, **kw})


def verify_case(mt: str, case: str) -> dict:
    """One case of model type ``mt`` (``default`` or a variant's name), recomputed: what the CI sample re-runs."""
    from transformers import CONFIG_MAPPING

    config = CONFIG_MAPPING[mt]()
    if case == "default":
        return run_case(mt, "default", config)
    if case == "hub-layout":
        return run_case(mt, case, None, raw=hub_layout(config))
    if case.startswith("hub:"):
        return run_case(mt, case, None, raw=dict(hub_files(mt, _text_type(config)))[case.split(":", 1)[1]])
    if case.startswith("published:"):
        kw = dict(published(mt))[case.split(":", 1)[1]]
        return run_case(mt, case, _published_config(config, kw))
    default = run_case(mt, "default", config)
    bands = next((int(k[3].split("/")[0]) // 2 for k in default.get("layers", []) if k[1].startswith("rotary") and k[3]),
                 0)
    for name, rope in rope_variants(config, bands):
        if name == case:
            return _variant_case(mt, name, config, {"rope_parameters": rope}, layers=4)
    for name, over in layout_variants(config):
        if name == case:
            return _variant_case(mt, name, config, over)
    raise LookupError(f"{mt} has no case {case!r}")


def _variant_case(mt, name, config, over, layers=None):
    try:
        v = variant(config, over, layers)
    except Exception as exc:  # noqa: BLE001 - the class refuses the variant: not a case
        return {"model_type": mt, "case": name, "outcome": "skipped", "detail": "its config class refuses it: " +
                _one_line(exc)}
    return run_case(mt, name, v)


# ----------------------------------------------------------------------------- the sweep


def cached(mt: str, fresh: bool = False) -> dict:
    from petheory.io import atomic_write_text

    path = CACHE / f"{mt}.json"
    if path.is_file() and not fresh:
        return json.loads(path.read_text(encoding="utf-8"))
    rec = verify_type(mt)
    CACHE.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(rec, indent=1))
    return rec


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.verify", description=__doc__.splitlines()[0])
    p.add_argument("--only", action="append", metavar="TYPE", help="these model types only (repeatable)")
    p.add_argument("--fresh", action="store_true", help="recompute cached model types")
    p.add_argument("--cached", action="store_true", help="only the model types already in the cache (no sweep)")
    p.add_argument("--write", action="store_true", help="write petheory/data/verified_models.json and "
                   "docs/guide/families.md (with --only: the other types as the committed table has them)")
    p.add_argument("--check", nargs="*", metavar="TYPE", help="exit 1 when the committed table differs for these types")
    args = p.parse_args(argv)
    _quiet()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from transformers import CONFIG_MAPPING

    from .table import check, committed_records, table, write

    types = args.only or (args.check if args.check else sorted(CONFIG_MAPPING.keys()))
    if args.cached:
        types = [t for t in types if (CACHE / f"{t}.json").is_file()]
    recs = {}
    for k, mt in enumerate(types):
        recs[mt] = cached(mt, fresh=args.fresh or args.check is not None)
        if args.only:
            for c in recs[mt]["cases"]:
                print(f"{mt:28s} {c['case']:9s} {c['outcome']:12s} {c.get('detail', '')[:400]}")
                if c.get("trace"):
                    print(c["trace"])
        elif sys.stderr.isatty() or k % 25 == 0:
            print(f"[{k + 1}/{len(types)}] {mt}", file=sys.stderr, flush=True)
    if args.check is not None:
        return check(recs)
    if args.write and args.only:  # these types recomputed, every other one as the committed table has it
        from petheory.models.verified import TABLE

        recs = {**committed_records(json.loads(TABLE.read_text(encoding="utf-8"))), **recs}
    doc = table(recs)
    print(json.dumps(doc["counts"], indent=1))
    if args.write:
        write(doc)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
