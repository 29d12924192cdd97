"""petheory's ``rotate`` equals each rotary family's own ``apply_rotary_pos_emb``, for every model type it resolves.

The families are enumerated from transformers itself (the version constraints.txt pins), not from a
hand list: every model type of ``CONFIG_MAPPING`` whose default configuration petheory resolves
(:func:`petheory.models.resolve_config`) and whose text decoder's modeling module has a rotary
module and an apply function (``apply_rotary_pos_emb``, ``apply_rotary_pos_emb_interleave`` for
DeepSeek's ``rope_interleave``, the complex ``apply_rotary_emb`` of Llama 4 and DeepSeek-V2; M-RoPE
lives in the rotary modules of transformers 5, which take (3, B, T) positions). So a model type the
resolver learns is covered the day it resolves. For each rotary layer kind: the family's rotary
module's cos/sin (or ``freqs_cis``) at random positions, its apply function on random float32 q, k,
against :func:`petheory.encodings.rotate` of the same values. A few scaling variants of Llama
(linear, dynamic, YaRN, LongRoPE, Llama 3) cover the factors on cos and sin.

Tolerance, per element (u32 = 2^-24, float32's unit roundoff): transformers computes the
frequencies in float32, :math:`|\\tilde\\omega - \\omega| \\le (|\\ln b| + 12)\\,u_{32}\\,\\omega` (the
model of test_model_configs.py: the exponent's rounding times ln base, plus the few operations of
pow, division and a scaling's blend), the angle :math:`p\\tilde\\omega` adds one rounding, cos and sin
one each, and the two products and the sum of a rotated pair three: so
:math:`|\\Delta| \\le m(|a| + |b|)\\,(|\\phi|(|\\ln b| + 13) + 6)\\,u_{32}` for the pair (a, b) at angle
:math:`\\phi`, m the cos/sin factor; coordinates that pass through must be equal.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import math
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from petheory.encodings import rotary_frequencies, rotate, rotated_coordinates
from petheory.models import resolve_config

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from transformers.models.auto.configuration_auto import CONFIG_MAPPING, CONFIG_MAPPING_NAMES, model_type_to_module_name  # noqa: E402

U32 = 2.0**-24
#: Rotary model types that must be checked (a floor, so the test cannot pass by skipping everything).
MIN_CHECKED = 25
#: Scaling variants of Llama (transformers' LlamaConfig with these rope_parameters), for the factors on cos/sin.
VARIANTS = {
    "llama+linear": {"rope_type": "linear", "factor": 4.0, "rope_theta": 10000.0},
    "llama+dynamic": {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0},
    "llama+yarn": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 512, "rope_theta": 10000.0},
    "llama+llama3": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                     "original_max_position_embeddings": 512, "rope_theta": 500000.0},
    "llama+longrope": {"rope_type": "longrope", "factor": 8.0, "original_max_position_embeddings": 512,
                       "short_factor": [1.0 + 0.01 * i for i in range(64)], "long_factor": [1.0 + 0.5 * i for i in range(64)],
                       "rope_theta": 10000.0},
}


def _quiet():
    logging.disable(logging.WARNING)
    warnings.simplefilter("ignore")


def _text(cfg):
    text = cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg
    return text


def _modeling(model_type):
    mod = model_type_to_module_name(model_type)
    try:
        return importlib.import_module(f"transformers.models.{mod}.modeling_{mod}")
    except ImportError:
        return None


def _rotary_class(mod, text):
    names = [a for a in dir(mod) if a.endswith("RotaryEmbedding") and not any(x in a for x in ("Vision", "Audio", "Patch"))]
    for name in sorted(names, key=lambda a: ("Text" not in a, len(a))):
        try:
            return getattr(mod, name)(text)
        except Exception:  # a rotary module of another sub-model (its own config class)
            continue
    return None


def _apply_fn(mod, layer):
    """The family's apply function for ``layer``: DeepSeek-V3's interleave variant where its rope part is interleaved
    (a family without one, HY-V4-VL, pairs adjacent coordinates in its ``apply_rotary_pos_emb``), else
    ``apply_rotary_pos_emb``, else the complex ``apply_rotary_emb`` (Llama 4, DeepSeek-V2)."""
    names = ("apply_rotary_pos_emb", "apply_rotary_emb")
    if layer.positions.encoding == "mla_rope" and layer.positions.params.get("pairing") == "interleaved":
        names = ("apply_rotary_pos_emb_interleave", "apply_rotary_pos_emb", "apply_rotary_emb")
    return next((getattr(mod, n) for n in names if hasattr(mod, n)), None)


_ROTARY_SOURCE = re.compile(r"^def (apply_rotary_pos_emb\w*|apply_rotary_emb)\(", re.M)


def _may_rotate(model_type) -> bool:
    """Read without importing: the model type's modeling file has a rotary apply function, or its configuration
    holds a text sub-config (a multimodal wrapper, whose text decoder may). The others are skipped unbuilt."""
    mod = model_type_to_module_name(model_type)
    folder = Path(transformers.__file__).parent / "models" / mod
    modeling, configuration = folder / f"modeling_{mod}.py", folder / f"configuration_{mod}.py"
    if modeling.is_file() and _ROTARY_SOURCE.search(modeling.read_text(encoding="utf-8")):
        return True
    return configuration.is_file() and "text_config" in configuration.read_text(encoding="utf-8")


def case(label, cfg):
    """(label, scheme, text config, modeling module, rotary module), or the reason it is not a rotary case."""
    try:
        scheme = resolve_config(cfg.to_dict())
    except (ValueError, TypeError) as exc:
        return f"petheory refuses it: {str(exc)[:90]}"
    if not any(layer.positions.kind == "rotary" for layer in scheme.layers):
        return f"no rotary layer ({scheme.main.positions.kind})"
    text = _text(cfg)
    mod = _modeling(text.model_type)
    rot = _rotary_class(mod, text) if mod is not None else None
    if rot is None:
        return f"no text rotary module in modeling_{model_type_to_module_name(text.model_type)}"
    return label, scheme, text, mod, rot


def _variant(label):
    return CONFIG_MAPPING["llama"](hidden_size=256, num_attention_heads=2, num_hidden_layers=2,
                                   max_position_embeddings=4096, rope_parameters=VARIANTS[label])


def inventory():
    """(cases, skipped): cases [(label, scheme, text config, modeling module, rotary module)]; skipped {label: why}."""
    _quiet()
    cases, skipped = [], {}
    for label in [*sorted(CONFIG_MAPPING_NAMES), *VARIANTS]:
        if label not in VARIANTS and not _may_rotate(label):
            skipped[label] = "no rotary apply function in its modeling file and no text sub-config"
            continue
        try:
            cfg = _variant(label) if label in VARIANTS else CONFIG_MAPPING[label]()
        except Exception as exc:
            skipped[label] = f"transformers cannot build its default config ({type(exc).__name__})"
            continue
        got = case(label, cfg)
        if isinstance(got, str):
            skipped[label] = got
        else:
            cases.append(got)
    return cases, skipped


def hf_rotate(mod, rot, layer, q, k, pos):
    """The family's own rotation of q, k (float32 tensors (1, 1, T, d)) at positions ``pos`` ((T,) or (3, T))."""
    ids = torch.as_tensor(pos)[..., None, :]  # (1, T) or (3, 1, T)
    kwargs = {"layer_type": layer.type} if "layer_type" in inspect.signature(rot.forward).parameters else {}
    emb = rot(q, ids, **kwargs)
    fn = _apply_fn(mod, layer)
    if torch.is_tensor(emb) and emb.is_complex():  # Llama 4, DeepSeek-V2: freqs_cis
        for shape in ((1, 1, -1, q.shape[-1]), (1, -1, 1, q.shape[-1])):  # (B, H, T, d) or (B, T, H, d)
            qo, ko = fn(q.reshape(shape), k.reshape(shape), emb)
            if qo.shape == q.reshape(shape).shape:
                return qo.reshape(q.shape), ko.reshape(k.shape)
        raise AssertionError("freqs_cis broadcasts to neither layout")
    if list(inspect.signature(fn).parameters)[:3] == ["tensor", "sin", "cos"]:
        # GPT-J, CodeGen: the module returns (sin, cos) of half width; the attention rotates x[..., :rotary_dim] in the
        # (B, T, H, d) layout and concatenates the rest unchanged
        sin, cos = emb
        r = 2 * sin.shape[-1]

        def one(x):
            return torch.cat((fn(x[..., :r].transpose(1, 2), sin, cos).transpose(1, 2), x[..., r:]), dim=-1)
        return one(q), one(k)
    cos, sin = emb
    if next(iter(inspect.signature(fn).parameters)) == "x":  # Gemma 4: one tensor at a time
        return fn(q, cos, sin), fn(k, cos, sin)
    r = cos.shape[-1]
    if r < q.shape[-1] and _SLICES_BEFORE_APPLY.search(inspect.getsource(mod)):
        # Phi, Persimmon, StableLM: the attention rotates q[..., :rotary_ndims] and concatenates the rest unchanged
        qr, kr = fn(q[..., :r], k[..., :r], cos, sin)
        return torch.cat((qr, q[..., r:]), dim=-1), torch.cat((kr, k[..., r:]), dim=-1)
    return fn(q, k, cos, sin)


#: The attention code of a family that slices the rotary part before calling its apply function.
_SLICES_BEFORE_APPLY = re.compile(r"query_states\[\.\.\., : self\.rotary_ndims\]")


def bound(x, layer, pos, seq_len):
    """The float32 rounding bound of the module docstring, per element of x rotated by ``layer``."""
    freqs, m, layout = rotary_frequencies(layer, seq_len=seq_len)
    p = np.asarray(pos, dtype=np.float64)
    phi = np.abs((p[:, None] if p.ndim == 1 else p.max(axis=0)[:, None]) * freqs[None, :])
    params = layer.positions.params
    base = float(params.get("base", 10000.0))
    a, b = rotated_coordinates(layout)
    pair = m * (np.abs(x[..., a]) + np.abs(x[..., b])) * (phi * (abs(math.log(base)) + 13) + 6) * U32
    out = np.zeros_like(x)
    out[..., a], out[..., b] = pair, pair
    return out


def _vectors(layer, rng, T):
    d = rotary_frequencies(layer)[2]["d"]
    q = torch.from_numpy(rng.standard_normal((1, 1, T, d)).astype(np.float32))
    k = torch.from_numpy(rng.standard_normal((1, 1, T, d)).astype(np.float32))
    return q, k


def _positions(layer, rng, T):
    pos = np.sort(rng.choice(2048, size=T, replace=False))
    if layer.positions.mrope is not None:  # three axes that differ, so every section's axis matters
        return np.stack([pos, pos // 2, pos // 3 + 1])
    return pos


def mismatch(label, scheme, mod, rot, layer, *, seed=0, T=6, plant=None):
    """Largest |petheory - transformers| over the bound (<= 1 passes), for one rotary layer kind; ``plant`` swaps
    petheory's layer for a wrong one (the checker's own check)."""
    rng = np.random.default_rng(seed)
    q, k = _vectors(layer, rng, T)
    pos = _positions(layer, rng, T)
    with torch.no_grad():
        qh, kh = hf_rotate(mod, rot, layer, q, k, pos)
    ours_layer = plant or layer
    deinterleaved = _apply_fn(mod, layer).__name__ == "apply_rotary_pos_emb_interleave"
    worst = 0.0
    for x, h in ((q.numpy().astype(np.float64), qh.numpy()), (k.numpy().astype(np.float64), kh.numpy())):
        mine = rotate(x, pos, ours_layer)
        if deinterleaved:  # transformers' apply_rotary_pos_emb_interleave returns the pairs in half-split order
            mine = np.concatenate([mine[..., 0::2], mine[..., 1::2]], axis=-1)
            tol = _mla_bound(np.concatenate([x[..., 0::2], x[..., 1::2]], axis=-1), layer, pos)
        else:
            tol = bound(x, layer, pos, int(np.max(pos)) + 1)
        err = np.abs(mine - h)
        passthrough = tol == 0
        if np.any(err[passthrough] != 0):
            return math.inf
        worst = max(worst, float(np.max(err[~passthrough] / tol[~passthrough])))
    return worst


def _mla_bound(x_half, layer, pos):
    """The bound for a de-interleaved MLA rope part: pairs (t, t + r/2) after transformers' permutation."""
    freqs, m, layout = rotary_frequencies(layer)
    half = dict(layout, pairing="half")
    a, b = rotated_coordinates(half)
    phi = np.abs(np.asarray(pos, dtype=np.float64)[:, None] * freqs[None, :])
    base = float(layer.positions.params.get("base", 10000.0))
    pair = m * (np.abs(x_half[..., a]) + np.abs(x_half[..., b])) * (phi * (abs(math.log(base)) + 13) + 6) * U32
    out = np.zeros_like(x_half)
    out[..., a], out[..., b] = pair, pair
    return out


def _rotary_kinds(scheme):
    seen = []
    for layer, idx in scheme.kinds():
        if layer.positions.kind == "rotary" and all(layer.positions != s.positions or layer.type != s.type for s in seen):
            seen.append(layer)
    return seen


#: Model types petheory reads wrong today, each with its issue: the test requires them to still fail, so an entry
#: goes the day the resolver is fixed (an XPASS here is a failure: remove the entry).
KNOWN_MISREADS: dict = {}  # gpt_neox (5.x partial_rotary_factor) was here until the resolver read it (issue 40)


def test_rotate_matches_every_rotary_family_of_transformers():
    """One test for the whole inventory (it builds every default config once; about 20 s on a loaded 2-core machine)."""
    cases, skipped = inventory()
    assert skipped and all(why.strip() for why in skipped.values()), "every skipped model type says why"
    failures, still_wrong, checked = [], [], []
    for label, scheme, text, mod, rot in cases:
        bad = []
        for layer in _rotary_kinds(scheme):
            try:
                worst = mismatch(label, scheme, mod, rot, layer)
            except Exception as exc:  # an apply function this test cannot call: a failure to look at, not a pass
                bad.append(f"{label} ({layer.type}): {type(exc).__name__}: {exc}")
                continue
            if not worst <= 1.0:
                bad.append(f"{label} ({layer.type}, {layer.positions.encoding}): error {worst:.3g} x the bound")
        if label in KNOWN_MISREADS:
            still_wrong.append(label) if bad else failures.append(f"{label} now matches: remove it from KNOWN_MISREADS")
        else:
            failures += bad
            checked.append(label)
    print(f"checked {len(checked)} model types: {', '.join(checked)}")
    print(f"known misreads, still wrong: {still_wrong}")
    print(f"skipped {len(skipped)}, for these reasons (petheory's refusals aside):")
    for label, why in sorted(skipped.items()):
        if "refuses" not in why and "no rotary apply function" not in why:
            print(f"  {label}: {why}")
    assert not failures, "\n".join(failures)
    assert set(still_wrong) == set(KNOWN_MISREADS) & {c[0] for c in cases}
    assert len(checked) >= MIN_CHECKED, f"only {len(checked)} rotary model types checked: {checked}"
    assert set(VARIANTS) <= set(checked), sorted(set(VARIANTS) - set(checked))


def _case(label, **kw):
    _quiet()
    got = case(label, _variant(label) if label in VARIANTS else CONFIG_MAPPING[label](**kw))
    if isinstance(got, str):
        pytest.fail(f"{label}: {got}")
    return got


def _with(layer, **params):
    import dataclasses

    return dataclasses.replace(layer, positions=dataclasses.replace(layer.positions,
                                                                    params={**layer.positions.params, **params}))


def test_the_checker_catches_a_wrong_pairing():
    """Planted violation: Llama's half-split layer rotated with adjacent pairs must fail the comparison."""
    label, scheme, text, mod, rot = _case("llama")
    layer = scheme.layers[0]
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    assert mismatch(label, scheme, mod, rot, layer, plant=_with(layer, pairing="interleaved")) > 1e3


def test_the_checker_catches_a_wrong_partial_slice():
    """Planted violation: Qwen3-Next's partial rotary (64 of 256: partial_rotary_factor 0.25) rotated on the whole head."""
    label, scheme, text, mod, rot = _case("qwen3_next")
    (layer,) = _rotary_kinds(scheme)
    r = rotary_frequencies(layer)[2]["rotary_dim"]
    assert r < layer.positions.d
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    params = {k: v for k, v in layer.positions.params.items() if k != "rotary_dim"}
    import dataclasses

    whole = dataclasses.replace(layer, positions=dataclasses.replace(layer.positions, params=params))
    assert mismatch(label, scheme, mod, rot, layer, plant=whole) > 1e3


def test_the_checker_catches_proportional_read_as_a_partial_slice():
    """Planted violation: Gemma 4's proportional global layer rotated as a plain partial slice (first r coordinates)."""
    label, scheme, text, mod, rot = _case("gemma4_text")
    import dataclasses

    (layer,) = [x for x in _rotary_kinds(scheme) if x.positions.proportional]
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    plain = dataclasses.replace(layer, positions=dataclasses.replace(layer.positions, proportional=False))
    assert mismatch(label, scheme, mod, rot, layer, plant=plain) > 1e3


def test_nanochat_rotates_by_minus_theta_and_the_checker_catches_plus_theta():
    """NanoChat's rotate_half returns (x2, -x1): its apply turns each pair by -theta, read as Positions.reflected.
    Planted violation: the same layer rotated by +theta (reflected dropped) must fail the comparison."""
    label, scheme, text, mod, rot = _case("nanochat")
    import dataclasses

    (layer,) = _rotary_kinds(scheme)
    assert layer.positions.reflected and layer.positions.params["pairing"] == "half"
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    plus = dataclasses.replace(layer, positions=dataclasses.replace(layer.positions, reflected=False))
    assert mismatch(label, scheme, mod, rot, layer, plant=plus) > 1e3


def test_glm4v_moe_odd_rotary_dimension_rotates_as_transformers_and_the_checker_catches_the_plain_ladder():
    """GLM-4.5V's class sizes (head 42, partial_rotary_factor 0.5: an odd 21) with sections summing to its 11 bands:
    transformers' apply rotates the first 22 coordinates at rope_theta^(-2i/21) and passes the other 20 through, as
    petheory's rotate of the layer read (base rope_theta^(22/21)). Planted violation: the same 22 at rope_theta."""
    rope = {"rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5, "mrope_section": [3, 4, 4]}
    label, scheme, text, mod, rot = _case("glm4v_moe_text", rope_parameters=rope)
    (layer,) = _rotary_kinds(scheme)
    assert (layer.positions.d, layer.positions.params["rotary_dim"]) == (42, 22)
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    assert mismatch(label, scheme, mod, rot, layer, plant=_with(layer, base=10000.0)) > 1e3


#: GLM-4.5V's odd 21 under the scalings transformers runs on it (a longrope factor list of 11: (21 + 1) / 2 entries)
ODD_SCALED = {
    "llama3": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 512},
    "longrope": {"rope_type": "longrope", "factor": 8.0, "original_max_position_embeddings": 512,
                 "short_factor": [1.0 + 0.01 * i for i in range(11)], "long_factor": [1.0 + 0.5 * i for i in range(11)]},
}


@pytest.mark.parametrize("rtype", sorted(ODD_SCALED))
def test_glm4v_moe_odd_rotary_dimension_under_scaling_rotates_as_transformers(rtype):
    """Llama 3 scales each of the 11 frequencies rope_theta^(-2i/21) by its wavelength, LongRoPE divides frequency i by
    its factor i: both functions of the band alone, so the 22-dimensional ladder at base rope_theta^(22/21), scaled
    alike, is what transformers rotates (positions up to 2048, past the original 512: LongRoPE's long factors).
    Planted violation: the same scaling on the 22-dimensional ladder at rope_theta itself."""
    rope = {"rope_theta": 10000.0, "partial_rotary_factor": 0.5, "mrope_section": [3, 4, 4], **ODD_SCALED[rtype]}
    label, scheme, text, mod, rot = _case("glm4v_moe_text", rope_parameters=rope, max_position_embeddings=4096)
    (layer,) = _rotary_kinds(scheme)
    assert (layer.positions.d, layer.positions.params["rotary_dim"], layer.positions.encoding) == (
        42, 22, f"rope_{rtype}")
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    assert mismatch(label, scheme, mod, rot, layer, plant=_with(layer, base=10000.0)) > 1e3


def test_ernie4_5_vl_3d_rope_rotates_as_transformers_and_the_checker_catches_chunked_sections():
    """ERNIE 4.5-VL's text rotary keeps a permuted ladder and stacks its h and w bands back: band 2k follows axis h,
    2k + 1 axis w, the last 20 axis t (MRope 'hw_alternating'), adjacent pairs; at three position axes that differ,
    petheory's rotate equals transformers'. Planted violation: the same sections read as chunked (t first)."""
    import dataclasses

    label, scheme, text, mod, rot = _case("ernie4_5_vl_moe")
    (layer,) = _rotary_kinds(scheme)
    m = layer.positions.mrope
    assert (m.layout, m.sections, layer.positions.params["pairing"]) == ("hw_alternating", (20, 22, 22), "interleaved")
    assert mismatch(label, scheme, mod, rot, layer) <= 1.0
    chunked = dataclasses.replace(layer, positions=dataclasses.replace(layer.positions,
                                                                       mrope=dataclasses.replace(m, layout="chunked")))
    assert mismatch(label, scheme, mod, rot, layer, plant=chunked) > 1e3
