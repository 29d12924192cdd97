"""Every runtime config a plan emits takes effect as printed: it reads back to the frequencies and factors analysed.

For each model and each candidate, the emitted transformers 5.x fields (``rc.config_fields()``) and the 4.x ones
(``rc.v4_fields()``) are written, exactly as printed (placed under ``text_config`` where the plan says so, flat or per
layer type as printed), into a copy of the model's config in place of its RoPE keys; the whole config is loaded with
transformers' own config class, and the rotary module of its text config is built from it. Compared with the plan:
per band ``inv_freq`` against the analysed frequencies, ``attention_scaling**2`` against the analysed rotary logit
factor, and the module's cos/sin at position 1 against ``af * cos(w)``, ``af * sin(w)``; a layer kind the plan does
not scale keeps its own frequencies unless its family reads one flat block (then it takes the planned block). A
dynamic candidate is read at N (a forward at position N - 1 makes transformers recompute its base). The keys the
model's own block carries besides its scaling (``mrope_section``, ``mrope_interleaved``) must load unchanged, a
removed window must load as ``sliding_window = None``, and the vLLM override must be the same fields.

The models: the issue's six (Qwen2.5-7B -> 128k, Llama 3 8B -> 128k, Qwen3-8B -> 131072, gpt-oss-20b -> 131072,
Gemma 3 27B -> 256k, Mistral 7B v0.1 -> 32k) and three more fixtures in the default run; every family the families
sweep accepts (``petheory/data/verified_models.json``, status ok), from its transformers default config, planned
from 1,024 to 4,096, in the ``slow`` run.

Tolerances (the float32 model of tests/models/test_model_configs.py): transformers' frequencies carry at most
(|ln base| + 12) u32 relative error (u32 = 2^-24); attention factors are float64 on both sides (64 u64
relative); cos/sin at position 1 are float32 values of an angle off by that frequency error: within
af (|dw| + 4 u32) absolute.

The llama.cpp flags are checked against ggml's own formulas, written out here from ggml-cpu's ``rope_yarn``
and ``ggml_rope_yarn_corr_dims`` (theta_extrap = p base^(-2i/n), theta_interp = freq_scale theta_extrap, the
ramp between floor(corr_dim(beta_fast)) and ceil(corr_dim(beta_slow)) times ext_factor, cos/sin times
attn_factor (1 + 0.1 ln(1/freq_scale)) when ext_factor != 0).
"""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from petheory.analyses.plan import plan
from petheory.analyses.runtime_config import HEAD_DIM_NONE, PER_LAYER_TYPE, SCALING_KEYS, V4_PER_LAYER_TYPE
from petheory.errors import ValidationError
from petheory.loaders import resolve_scheme

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
from transformers import AutoConfig  # noqa: E402

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
U32, U64 = 2.0**-24, 2.0**-53
#: (fixture, target N): the issue's six models, then Llama 3.1 and Mistral Nemo at 256k rather than 1M (the emitted
#: blocks are the same functions of s = N/L; the 1M plans are timed in the report, not here) and Qwen2.5-VL's M-RoPE
MODELS = [("qwen2_5_7b_yarn", 131072), ("llama3_8b", 131072), ("qwen3_8b", 131072), ("gpt_oss_20b", 131072),
          ("gemma3_27b", 262144), ("mistral_7b", 32768), ("llama3_1_8b", 1 << 18), ("mistral_nemo_base_2407", 1 << 18),
          ("qwen2_5_vl_7b", 262144)]
ROPE_KEYS = ("rope_scaling", "rope_theta", "rope_local_base_freq", "rope_parameters")


def _plan(cfg: dict, n: int, **kw):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(cfg))
        return plan(resolve_scheme(str(path)), length=n, **kw)


@pytest.fixture(scope="module", params=MODELS, ids=[m for m, _ in MODELS])
def planned(request):
    name, n = request.param
    cfg = json.loads((DATA / f"{name}.json").read_text())
    return cfg, _plan(cfg, n)


def _write(cfg: dict, fields: dict, replaces=ROPE_KEYS) -> dict:
    """``cfg`` with ``fields`` written as printed: under ``text_config`` if they are placed there, in place of the keys
    the plan says they replace."""
    out = copy.deepcopy(cfg)
    part, add = out, fields
    if set(fields) == {"text_config"}:
        part, add = out["text_config"], fields["text_config"]
    for k in replaces:
        part.pop(k, None)
    part.update(copy.deepcopy(add))
    return out


def _modeling(text):
    """The modeling module of a text config: its family's own, or the one transformers runs it with (exaone,
    internlm3, iquestcoder: LlamaModel; sarvam_moe: Glm4MoeModel) where the family ships a config only."""
    try:
        return importlib.import_module(type(text).__module__.replace(".configuration_", ".modeling_"))
    except ModuleNotFoundError:
        import transformers
        from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

        return importlib.import_module(getattr(transformers, MODEL_MAPPING_NAMES[text.model_type]).__module__)


def _load(whole: dict):
    """transformers' config of the whole file, its text config and the text model's rotary module."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        config = AutoConfig.for_model(**copy.deepcopy(whole))
        text = config.get_text_config()
        mod = _modeling(text)
        found = [getattr(mod, a) for a in dir(mod) if a.endswith("RotaryEmbedding") and "Vision" not in a
                 and isinstance(getattr(mod, a), type) and getattr(mod, a).__module__ == mod.__name__]
        if len(found) > 1:
            found = [c for c in found if "Text" in c.__name__] or found
        (cls,) = found[:1]
        return config, text, cls(text)


def _reads_per_layer(emb) -> bool:
    return "layer_type" in inspect.signature(emb.forward).parameters


def _read(emb, text, layer_type: str | None, n: int):
    """(inv_freq, attention_scaling, cos/sin at position 1) of the module, after a forward that reaches position n - 1."""
    nested = _reads_per_layer(emb)
    x = torch.zeros(1, 2, 2)  # rotary modules read x's dtype and device only (Gemma 4's head_dim is per layer)
    kw = {"layer_type": layer_type} if nested else {}
    pos = torch.tensor([[1, n - 1]])
    rp = getattr(text, "rope_parameters", None) or {}
    if any("mrope" in k for k in (rp if "rope_type" in rp else {}).keys()):
        pos = pos[None].expand(3, 1, 2)  # M-RoPE: one index per axis; text-only positions are the same on each
    cos, sin = emb(x, pos, **kw)
    if cos.ndim == 4:
        cos, sin = cos[0], sin[0]
    pre = f"{layer_type}_" if nested else ""
    inv = getattr(emb, f"{pre}inv_freq").double().numpy()
    af = float(getattr(emb, f"{pre}attention_scaling"))
    h = inv.shape[0]
    # band t at t (gpt-oss returns one value per band), at t and t + h (torch.cat((freqs, freqs)): ERNIE 4.5 and GLM
    # too, which interleave later, in apply_rotary_pos_emb) or at 2t, 2t + 1 (a module that repeat_interleaves itself:
    # Cohere); told apart by the values
    c = cos[0, 0]
    if c.shape[-1] == h or torch.equal(c[:h], c[h:2 * h]):
        cut = slice(0, h)
    else:
        cut = slice(0, 2 * h, 2)
        assert torch.equal(c[cut], c[1:2 * h:2]), "cos/sin in neither layout"
    return inv, af, cos[0, 0, cut].double().numpy(), sin[0, 0, cut].double().numpy()


def _compare(freqs, factor, inv, af, cos1, sin1, base, what):
    w = np.asarray(freqs)
    assert inv.shape == w.shape, f"{what}: {inv.shape[0]} bands read back, {w.size} planned"
    rel = np.abs(inv - w) / w
    tol = (abs(math.log(base)) + 12) * U32
    assert rel.max() <= tol, f"{what}: frequencies off by {rel.max():.3g} > {tol:.3g} (band {rel.argmax()})"
    assert af**2 == pytest.approx(factor, rel=64 * U64), what
    bound = af * (np.abs(inv - w) + 4 * U32)
    assert np.all(np.abs(cos1 - af * np.cos(w)) <= bound), what
    assert np.all(np.abs(sin1 - af * np.sin(w)) <= bound), what


def _family_keys(text) -> dict:
    rp = getattr(text, "rope_parameters", None) or {}
    blocks = rp.values() if rp and all(isinstance(b, dict) for b in rp.values()) else [rp]
    return [{k: val for k, val in b.items() if k not in SCALING_KEYS} for b in blocks]


def _expected(rec, k, name):
    """(frequencies, logit factor, base) the module must give for kind ``k`` under candidate ``name``."""
    if k.planned:
        c = k.candidate(name)
    elif rec.model_type not in PER_LAYER_TYPE and any(x.planned for x in rec.kinds):
        c = next(x for x in rec.kinds if x.planned).candidate(name)  # one flat block: the planned kind's
    else:
        c = k.candidates[0]
        return c.frequencies, c.rotary_logit_factor, max(float(c.params.get("base", 1e4)), 2.0)
    return c.frequencies, c.rotary_logit_factor, max(float(c.params["base"]), 2.0)


def check_layout(cfg, rec, fields_of) -> int:
    """Write each candidate's fields as printed, load them, compare every rotary kind; the number of comparisons."""
    _, text0, _ = _load(cfg)
    own_keys = _family_keys(text0)
    proportional = {layer.type: layer.positions.proportional for layer, _ in resolve_scheme_dict(cfg).kinds()}
    n_checked = 0
    for rc in rec.configs:
        fields = fields_of(rc)
        if fields is None:
            continue
        whole = _write(cfg, fields, rc.replaces)
        config, text, emb = _load(whole)
        assert text.max_position_embeddings == rc.max_position_embeddings, rc.candidate
        if "sliding_window" in rc.extra:
            assert getattr(text, "sliding_window", None) is None, rc.candidate
            assert all(layer.span.kind == "full" for layer in resolve_scheme_dict(whole).layers), rc.candidate
        if fields_of is RuntimeConfigFields.v5:
            assert _family_keys(text) == own_keys or all(o.items() <= n.items() for o, n in
                                                         zip(own_keys, _family_keys(text))), rc.candidate
        for k in rec.kinds:
            if not (k.planned or k.candidates):  # no rotary positions
                continue
            lt = k.type if _reads_per_layer(emb) else None
            inv, af, cos1, sin1 = _read(emb, text, lt, rec.length)
            w, factor, base = _expected(rec, k, rc.candidate)
            if proportional.get(k.type) and inv.size > len(w):  # transformers' proportional: the whole head's bands,
                assert np.all(inv[len(w):] == 0), f"{rc.candidate} {k.type}"  # zero past the rotated ones
                inv, cos1, sin1 = inv[:len(w)], cos1[:len(w)], sin1[:len(w)]
            _compare(w, factor, inv, af, cos1, sin1, base, f"{rc.candidate} {k.type}")
            n_checked += 1
    return n_checked


def resolve_scheme_dict(cfg: dict):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(cfg))
        return resolve_scheme(str(path))


class RuntimeConfigFields:
    """How a test reads the fields of one layout off a runtime config (as printed)."""

    @staticmethod
    def v5(rc):
        return rc.config_fields()

    @staticmethod
    def v4(rc):
        return rc.v4_fields()


def test_every_v5_block_takes_effect_as_printed(planned):
    cfg, rec = planned
    assert check_layout(cfg, rec, RuntimeConfigFields.v5) >= len(rec.configs)


def test_every_v4_block_takes_effect_as_printed(planned):
    cfg, rec = planned
    assert check_layout(cfg, rec, RuntimeConfigFields.v4) >= sum(rc.v4 is not None for rc in rec.configs)


def test_vllm_override_is_the_printed_fields_or_the_dynamic_base_at_n(planned):
    check_vllm(planned[1])


def check_vllm(rec):
    """Each candidate's vLLM override: the printed transformers fields, placed alike, or for a dynamic candidate the
    plain base transformers uses at N."""
    for rc in rec.configs:
        i = rc.vllm.index("--hf-overrides")
        over = json.loads(rc.vllm[i + 1])
        fields = rc.config_fields()
        assert set(over) == set(fields), rc.candidate  # placed where the transformers block is (text_config)
        inner, printed = (over[rc.where], fields[rc.where]) if rc.where else (over, fields)
        assert inner["max_position_embeddings"] == rec.length == int(rc.vllm[rc.vllm.index("--max-model-len") + 1])
        assert {k: val for k, val in inner.items() if k not in ("rope_parameters", "max_position_embeddings")} == \
            {k: val for k, val in printed.items() if k not in ("rope_parameters", "max_position_embeddings")}
        k = next(k for k in rec.kinds if k.planned)
        if k.candidate(rc.candidate).encoding == "rope_dynamic":  # vLLM's dynamic is static: the base at N
            blocks = inner["rope_parameters"]
            block = blocks if "rope_type" in blocks else blocks[k.type]
            w = np.asarray(k.candidate(rc.candidate).frequencies)
            r = 2 * w.size
            assert block["rope_type"] == "default"
            assert block["rope_theta"] ** (-2 / r) == pytest.approx(w[1], rel=1e-12)
            assert {x: y for x, y in block.items() if x not in SCALING_KEYS} == \
                {x: y for x, y in (rc.rope_parameters if "rope_type" in rc.rope_parameters else
                                   rc.rope_parameters[k.type]).items() if x not in SCALING_KEYS}
        else:
            assert inner["rope_parameters"] == rc.rope_parameters


def test_family_tables_of_runtime_config_match_transformers():
    """PER_LAYER_TYPE is the set of accepted text model types whose transformers rotary module reads ``layer_type``;
    HEAD_DIM_NONE those whose config class leaves ``head_dim`` None; V4_PER_LAYER_TYPE those of PER_LAYER_TYPE whose
    config class turns a 4.x flat ``rope_theta`` / ``rope_scaling`` into its keyed block."""
    from huggingface_hub.errors import StrictDataclassError

    from petheory.data.verified_models import table

    types = {v.get("text") or k for k, v in table()["types"].items() if v["status"] == "ok"}
    seen, per_layer, head_dim_none = 0, set(), set()
    for mt in sorted(types):
        try:
            _, text, emb = _load({"model_type": mt})
        except Exception:  # noqa: BLE001 - MLA, T5, ALiBi and hybrid types: no plain rotary module to build
            continue
        seen += 1
        if _reads_per_layer(emb):
            per_layer.add(text.model_type)
        if "head_dim" in vars(text) and vars(text)["head_dim"] is None:  # not a property (Falcon), not per layer
            head_dim_none.add(text.model_type)
    assert per_layer == PER_LAYER_TYPE
    assert head_dim_none == HEAD_DIM_NONE
    assert seen >= 90
    v4 = set()
    for mt in sorted(PER_LAYER_TYPE):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                rp = AutoConfig.for_model(mt, rope_theta=123456.0, rope_scaling={"rope_type": "linear", "factor": 4.0}
                                          ).rope_parameters
            except (TypeError, StrictDataclassError):  # no flat 4.x layout: UltraBERT's class reads an old
                # rope_theta as one base per layer; NeoMME's strict rope_parameters takes only blocks keyed by layer type
                assert mt in ("ultrabert", "neomme"), mt  # any other family failing here is news
                continue
        if rp.get("full_attention", {}).get("rope_theta") == 123456.0 and rp["full_attention"].get("factor") == 4.0:
            v4.add(mt)
    assert v4 == V4_PER_LAYER_TYPE


def ggml_frequencies(flags: tuple, n_dims: int):
    """Per-band frequency and cos/sin factor that ggml's rope computes from llama.cpp's flags (see the docstring)."""
    f = dict(zip(flags[::2], flags[1::2]))
    base = float(f["--rope-freq-base"])
    scaling = f.get("--rope-scaling", "none")
    freq_scale = 1.0 if scaling == "none" else float(f.get("--rope-freq-scale", 1.0))
    ext = float(f.get("--yarn-ext-factor", 1.0 if scaling == "yarn" else 0.0))
    attn = float(f.get("--yarn-attn-factor", 1.0))
    i = np.arange(0, n_dims, 2, dtype=np.float64)
    theta_extrap = base ** (-i / n_dims)
    theta_interp = freq_scale * theta_extrap
    if ext == 0:
        return theta_interp, attn
    n_orig = int(f["--yarn-orig-ctx"])

    def corr_dim(n_rot):
        return n_dims * math.log(n_orig / (n_rot * 2 * math.pi)) / (2 * math.log(base))

    lo = max(0.0, math.floor(corr_dim(float(f["--yarn-beta-fast"]))))
    hi = min(n_dims - 1.0, math.ceil(corr_dim(float(f["--yarn-beta-slow"]))))
    y = (i / 2 - lo) / max(0.001, hi - lo)
    mix = (1 - np.clip(y, 0, 1)) * ext
    return theta_interp * (1 - mix) + theta_extrap * mix, attn * (1 + 0.1 * math.log(1 / freq_scale))


def test_llama_cpp_flags_give_the_analysed_frequencies_under_ggml_semantics(planned):
    _, rec = planned
    k = next(k for k in rec.kinds if k.planned)
    seen = unexpressible = 0
    for rc in rec.configs:
        if rc.llama_cpp is None:  # said why: llama3 factors live in the GGUF, per-layer bases, a removed window
            assert any("GGUF" in n for n in rc.notes), rc.candidate
            unexpressible += any("per layer type" in n or "sliding window" in n for n in rc.notes)
            continue
        cand = k.candidate(rc.candidate)
        flags = rc.llama_cpp[:-2]
        assert rc.llama_cpp[-2:] == ("-c", str(rec.length))
        w, m = ggml_frequencies(flags, k.rotary_dim)
        # flags print 10 significant digits: the base (and 1/factor) within 5e-10 relative, so w within |ln w| 5e-10
        tol = 5e-10 * (np.abs(np.log(np.asarray(cand.frequencies))) + 2)
        assert np.all(np.abs(w / np.asarray(cand.frequencies) - 1) <= tol), rc.candidate
        assert m**2 == pytest.approx(cand.rotary_logit_factor, rel=1e-9), rc.candidate
        seen += 1
    assert seen >= 5 or unexpressible == len(rec.configs)


def test_llama_cpp_says_when_flags_cannot_express_the_model():
    """Per-layer-type bases (Gemma 3) and a removed sliding window (Mistral 7B v0.1) are not given as flags."""
    for name, n, why in [("gemma3_27b", 262144, "per layer type"), ("mistral_7b", 32768, "sliding window")]:
        rec = _plan(json.loads((DATA / f"{name}.json").read_text()), n)
        assert all(rc.llama_cpp is None and any(why in x for x in rc.notes) for rc in rec.configs), name


def test_a_planted_emission_error_is_caught(planned):
    """The read-back sees a block that is off by one factor, or placed where the family does not read it."""
    cfg, rec = planned
    rc = rec.config("pi")
    k = next(k for k in rec.kinds if k.planned)
    fields = copy.deepcopy(rc.config_fields())
    inner = fields[rc.where] if rc.where else fields
    block = inner["rope_parameters"].get(k.type, inner["rope_parameters"])
    block["factor"] = block["factor"] * (1 + 1e-3)
    with pytest.raises(AssertionError):
        check_layout(cfg, rec, lambda x: fields if x.candidate == "pi" else None)
    if rc.where:  # the block at the top level of a composite config: transformers ignores it there
        with pytest.raises(AssertionError):
            check_layout(cfg, rec, lambda x: {**x.config_fields()[x.where], "text_config": cfg["text_config"]}
                         if x.candidate == "pi" else None)


@pytest.mark.slow
def test_every_accepted_family_takes_every_block_as_printed():
    """The families sweep's accepted model types, each from transformers' default config, planned from 1,024 to 4,096:
    every transformers 5.x and 4.x block read back, and every vLLM override checked against the printed fields."""
    from petheory.data.verified_models import table

    checked, refused, failed = [], {}, {}
    for mt, row in sorted(table()["types"].items()):
        if row["status"] != "ok":
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                cfg = AutoConfig.for_model(mt).to_dict()
            except Exception:  # noqa: BLE001 - the sweep reads these through their wrapper type
                continue
        cfg = json.loads(json.dumps(cfg, default=str))
        try:
            rec = _plan(cfg, 4096, context=1024)
        except ValidationError as exc:  # plan refuses: not a type plan accepts (no full or sliding rotary layer)
            refused[mt] = str(exc)
            continue
        try:
            assert check_layout(cfg, rec, RuntimeConfigFields.v5) >= len(rec.configs)
            check_layout(cfg, rec, RuntimeConfigFields.v4)
            check_vllm(rec)
        except Exception as exc:  # noqa: BLE001 - every family's failure listed at the end
            failed[mt] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
            continue
        checked.append(mt)
    print(f"{len(checked)} families checked; plan refuses {len(refused)}: {sorted(refused)}")
    assert not failed, "\n".join(f"{k}: {val}" for k, val in failed.items())
    assert len(checked) >= 100


def test_qwen3_vl_blocks_go_into_text_config_with_their_mrope_keys():
    """Qwen3-VL (transformers' default config with Qwen/Qwen3-VL-8B-Instruct's text RoPE: base 5e6, interleaved
    M-RoPE sections [24, 20, 20]): the fields under text_config, mrope_section and mrope_interleaved kept, and every
    block takes effect there as printed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cfg = json.loads(json.dumps(AutoConfig.for_model("qwen3_vl").to_dict(), default=str))
    cfg["text_config"]["rope_parameters"] = {"rope_type": "default", "rope_theta": 5e6, "mrope_section": [24, 20, 20],
                                             "mrope_interleaved": True}
    rec = _plan(cfg, 4096, context=1024)
    own = cfg["text_config"]["rope_parameters"]
    assert {"mrope_section", "mrope_interleaved"} <= set(own)
    for rc in rec.configs:
        assert rc.where == "text_config" and set(rc.config_fields()) == {"text_config"}
        assert all(rc.rope_parameters[k] == own[k] for k in ("mrope_section", "mrope_interleaved")), rc.candidate
    assert check_layout(cfg, rec, RuntimeConfigFields.v5) >= len(rec.configs)


@pytest.mark.parametrize("mt", ["lfm3", "mixtral", "laguna"])
def test_families_the_sweep_found_take_every_block_as_printed(mt):
    """Three emissions the families sweep caught, each read back in the default run: LFM3's proportional full layers
    (written as rope_type proportional over the whole head; the candidates it cannot express left out, said why),
    Mixtral's head_dim null (written beside dynamic and YaRN blocks, whose transformers init reads it), Laguna's keyed
    rope_parameters (no 4.x layout: its config class ignores a flat rope_theta / rope_scaling)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cfg = json.loads(json.dumps(AutoConfig.for_model(mt).to_dict(), default=str))
    rec = _plan(cfg, 4096, context=1024)
    assert check_layout(cfg, rec, RuntimeConfigFields.v5) >= len(rec.configs)
    check_layout(cfg, rec, RuntimeConfigFields.v4)
    k = next(k for k in rec.kinds if k.planned)
    if mt == "lfm3":
        assert {c.name for c in k.candidates} == {"as_configured", "base_men", "base_liu", "pi", "ntk"}
        assert "left out: dynamic, yarn, llama3, dynamic_evidence_tf, dynamic_evidence_ft (this layer's proportional" in k.note
        assert all(rc.rope_parameters["full_attention"]["rope_type"] == "proportional" for rc in rec.configs)
    if mt == "mixtral":
        written = {rc.candidate for rc in rec.configs if rc.config_fields().get("head_dim") == 128}
        assert written == {c.name for c in k.candidates if c.encoding in ("rope_dynamic", "rope_yarn")} >= {"dynamic", "yarn"}
    if mt == "laguna":
        assert all(rc.v4 is None for rc in rec.configs)
