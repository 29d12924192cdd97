"""``gguf:FILE`` -> the model's scheme, read from the GGUF header as llama.cpp reads it.

The scheme is built directly from llama.cpp's semantics, not through a Hugging Face config: a GGUF
file is what llama.cpp runs, and llama.cpp reads some fields differently from transformers (its own
sliding-window rules per architecture, Gemma 3's local layers at base :math:`10^4`, YaRN's factor on cos/sin)
and rotates the pairs of the file's own weight layout (:data:`ARCHS`). Sources, llama.cpp
(ggml-org/llama.cpp, ``src/llama-model.cpp``): ``llama_model_rope_type`` (which architectures rotate
adjacent pairs, ``LLAMA_ROPE_TYPE_NORM``, and which half-split pairs, ``NEOX``), ``load_hparams``
(the keys, their defaults and each architecture's sliding-window pattern); ``src/llama-context.cpp``
(YaRN's factor on cos and sin: ``get_mscale(factor) * rope.scaling.attn_factor``); ggml's
``ggml_rope_yarn_corr_dims`` (the YaRN ramp's end bands, rounded outwards).

Fields: ``{arch}.context_length``, ``.embedding_length``, ``.block_count``, ``.attention.head_count``
(``_kv``), ``.attention.key_length`` (head size, default embedding / heads), ``.rope.dimension_count``
(rotated dimensions, default the head size), ``.rope.freq_base`` (default :math:`10^4`), ``.rope.freq_base_swa``,
``.rope.scaling.type`` (``none``, ``linear``, ``yarn``; llama.cpp's default is linear at factor 1),
``.rope.scaling.factor`` (or the old ``.rope.scale_linear``), ``.rope.scaling.original_context_length``,
``.rope.scaling.attn_factor``, ``.rope.scaling.yarn_beta_fast`` / ``_slow``, ``.attention.sliding_window``.
Any other key under ``{arch}.rope.`` or ``{arch}.attention.`` is refused by name (it may change the
positions), as are per-layer head counts and the tensors that carry frequencies (``rope_freqs``:
Llama 3.1's scaling as llama.cpp stores it; ``rope_factors_long``/``_short``: LongRoPE): petheory
reads the header, never tensor data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from petheory.errors import ValidationError
from petheory import _memory
from petheory.loaders.gguf_header import GGUFHeader, read_gguf_header, shown
from petheory.scheme import Layer, Positions, Scheme, Span

__all__ = ["ARCHS", "GGUFArch", "gguf_scheme", "load_gguf_scheme"]


@dataclass(frozen=True)
class GGUFArch:
    """How llama.cpp runs one architecture's positions: its pairing and its sliding-window rule.

    Attributes
    ----------
    pairing : str
        ``'interleaved'`` (llama.cpp's NORM rope type) or ``'half'`` (NEOX).
    swa_pattern : int
        Every ``swa_pattern``-th layer full, the others sliding (0: no pattern).
    swa_default : int or None
        The window when the file gives none (Gemma 2: 4096); None: the key is required.
    swa_needs_key : bool
        Sliding only when the file has a window > 0 (OLMo 2).
    swa_base : float or None
        The sliding layers' own RoPE base, unscaled (Gemma 3: :math:`10^4`).
    ignores_window : bool
        llama.cpp reads the window but runs full attention (Phi-3).
    full_rotary : bool
        llama.cpp refuses a rotary dimension other than the head size.
    big_model_scale : int or None
        With this many layers (Gemma 2/3 27B) the softmax scale is :math:`(d_{embd}/n_{heads})^{-1/2}`.
    """

    pairing: str                      # "interleaved" (LLAMA_ROPE_TYPE_NORM) or "half" (NEOX)
    swa_pattern: int = 0              # every swa_pattern-th layer full, the others sliding (llama.cpp set_swa_pattern)
    swa_default: int | None = None    # window when the file gives none (Gemma 2: 4096); None: the key is required
    swa_needs_key: bool = False       # sliding only when the file has a window > 0 (OLMo 2)
    swa_base: float | None = None     # the sliding layers' own RoPE base, unscaled (Gemma 3: 10^4)
    ignores_window: bool = False      # llama.cpp reads the window and runs full attention (Phi-3)
    full_rotary: bool = False         # llama.cpp refuses rope.dimension_count != head size (llama, falcon)
    big_model_scale: int | None = None  # Gemma 2/3: with this many layers (27B) the softmax scale is (embd/heads)^-1/2


#: Architectures petheory reads (llama.cpp's names), with what llama.cpp's code does for each.
ARCHS = {
    "llama": GGUFArch("interleaved", full_rotary=True),
    "qwen2": GGUFArch("half"), "qwen2moe": GGUFArch("half"), "qwen3": GGUFArch("half"), "qwen3moe": GGUFArch("half"),
    "gemma": GGUFArch("half"),
    "gemma2": GGUFArch("half", swa_pattern=2, swa_default=4096, big_model_scale=46),
    "gemma3": GGUFArch("half", swa_pattern=6, swa_base=10000.0, big_model_scale=62),
    "phi2": GGUFArch("half"), "phi3": GGUFArch("half", ignores_window=True),
    "stablelm": GGUFArch("half"), "gptneox": GGUFArch("half"), "falcon": GGUFArch("half", full_rotary=True),
    "starcoder2": GGUFArch("half"), "olmo2": GGUFArch("half", swa_pattern=4, swa_needs_key=True),
}

#: The most layers llama.cpp loads (src/llama-hparams.h ``LLAMA_MAX_LAYERS``; llama-model-loader.cpp's
#: ``get_key_or_arr`` refuses a per-layer key of more, "n > N_MAX"), and petheory's bytes per layer (see gguf_scheme).
LLAMA_MAX_LAYERS = 512
LAYER_BYTES = 512

_ROPE_KEYS = {"freq_base", "freq_base_swa", "dimension_count", "scale_linear", "scaling.type", "scaling.factor",
              "scaling.original_context_length", "scaling.attn_factor", "scaling.yarn_beta_fast", "scaling.yarn_beta_slow",
              "scaling.finetuned"}
_ATTENTION_KEYS = {"head_count", "head_count_kv", "key_length", "value_length", "layer_norm_epsilon",
                   "layer_norm_rms_epsilon", "sliding_window", "causal"}
_FREQ_TENSORS = {"rope_freqs.weight": "rope_freqs (per-band frequency factors: Llama 3.1's scaling as llama.cpp stores it)",
                 "rope_factors_long.weight": "rope_factors_long (LongRoPE's long factors)",
                 "rope_factors_short.weight": "rope_factors_short (LongRoPE's short factors)"}


class _Fields:
    """Typed reads of ``{arch}.*`` metadata, remembering which keys were used (for the scheme's note)."""

    def __init__(self, header: GGUFHeader, arch: str):
        self.meta, self.arch, self.used = header.metadata, arch, []
        self.path = header.path

    def get(self, key: str, kind, default=None, *, required: bool = False, minimum=None, maximum=None, why: str = ""):
        full = f"{self.arch}.{key}"
        if full not in self.meta:
            if required:
                raise ValidationError(f"{self.path}: GGUF key {full} is missing (llama.cpp requires it)")
            return default
        val = self.meta[full]
        self.used.append(full)
        if kind is int:
            ok = isinstance(val, int) and not isinstance(val, bool)
        elif kind is float:
            ok = isinstance(val, (int, float)) and not isinstance(val, bool) and math.isfinite(val)
            val = float(val) if ok else val
        else:
            ok = isinstance(val, kind)
        if not ok:
            per_layer = isinstance(val, list) or isinstance(val, tuple) and val[0] == "array"
            what = ("an array (one value per layer)" if per_layer else f"a string of {val[1]} bytes (longer than any value petheory reads)"
                    if isinstance(val, tuple) else shown(repr(val), 40, quote=False))
            raise ValidationError(f"{self.path}: GGUF key {full} is {what}; expected a single "
                                  f"{ {int: 'integer', float: 'number', str: 'string', bool: 'boolean'}[kind]}"
                                  + (" (per-layer values are not read)" if per_layer else ""))
        if minimum is not None and val < minimum:
            raise ValidationError(f"{self.path}: GGUF key {full} = {val}; expected >= {minimum}")
        if maximum is not None and val > maximum:
            raise ValidationError(f"{self.path}: GGUF key {full} = {val}; expected <= {maximum}{why}")
        return val


def _refuse_unknown(header: GGUFHeader, arch: str) -> None:
    for key in header.metadata:
        for ns, known in (("rope.", _ROPE_KEYS), ("attention.", _ATTENTION_KEYS)):
            prefix = f"{arch}.{ns}"
            if key.startswith(prefix) and key[len(prefix):] not in known:
                raise ValidationError(f"{header.path}: GGUF key {shown(key, 120, quote=False)} is not understood (it may change the positions); "
                                      f"understood under {prefix}: {', '.join(sorted(known))}")
    for name, what in _FREQ_TENSORS.items():
        if name in header.tensors:
            raise ValidationError(f"{header.path}: the file holds the tensor {what}; its values are tensor data, which "
                                  "petheory does not read (it reads the header only): not supported")


def _rope(f: _Fields, spec: GGUFArch, d: int, r: int, ctx: int, notes: list) -> tuple[str, dict, int]:
    """(registry entry, params, original context) of the rotary layers, as llama.cpp computes them."""
    base = f.get("rope.freq_base", float, 10000.0, minimum=1e-300)
    rtype = f.get("rope.scaling.type", str, "linear")
    factor = f.get("rope.scaling.factor", float, None)
    if factor is None:
        factor = f.get("rope.scale_linear", float, 0.0)
    params = {"base": base, "pairing": spec.pairing}
    if r != d:
        params["rotary_dim"] = r
    if rtype not in ("none", "linear", "yarn"):
        raise ValidationError(f"{f.path}: GGUF key {f.arch}.rope.scaling.type = {shown(rtype)}; supported: none, linear, yarn"
                              + (" (LongRoPE's factors are tensors, which petheory does not read)" if rtype == "longrope"
                                 else ""))
    attn = f.get("rope.scaling.attn_factor", float, 1.0, minimum=1e-300)
    if rtype == "none" or factor in (0.0, 1.0):  # llama.cpp: freq_scale = 1 (factor 0 means unset)
        if attn != 1.0:
            raise ValidationError(f"{f.path}: GGUF key {f.arch}.rope.scaling.attn_factor = {attn} without a YaRN "
                                  "scaling: not understood for this file")
        return "rope", params, ctx
    if factor < 1:
        raise ValidationError(f"{f.path}: GGUF key {f.arch}.rope.scaling.factor = {factor}; expected >= 1 (a context "
                              "extension)")
    orig = f.get("rope.scaling.original_context_length", int, None, minimum=1)
    if rtype == "linear":
        if attn != 1.0:
            raise ValidationError(f"{f.path}: GGUF key {f.arch}.rope.scaling.attn_factor = {attn} with linear scaling: "
                                  "not understood")
        return "rope_pi", {**params, "scale": factor}, orig or max(2, round(ctx / factor))
    orig = orig or ctx  # llama.cpp: n_ctx_orig_yarn defaults to the context length
    fast = f.get("rope.scaling.yarn_beta_fast", float, 32.0, minimum=1e-300)
    slow = f.get("rope.scaling.yarn_beta_slow", float, 1.0, minimum=1e-300)
    mscale = (0.1 * math.log(factor) + 1.0) * attn  # llama-context.cpp: get_mscale(factor, 1) * rope_attn_factor
    notes.append(f"YaRN as llama.cpp runs it: factor {factor:g} over {orig} tokens, ramp between beta_slow {slow:g} and "
                 f"beta_fast {fast:g} rounded outwards (ggml_rope_yarn_corr_dims), cos/sin times {mscale:.6g}")
    return "rope_yarn", {**params, "scale": factor, "n_max": orig, "alpha": slow, "beta": fast, "ramp": "code",
                         "mscale": mscale}, orig


def gguf_scheme(header: GGUFHeader) -> Scheme:
    """The :class:`~petheory.scheme.Scheme` llama.cpp runs for a parsed GGUF header (see the module docstring).

    Parameters
    ----------
    header : GGUFHeader
        The header (:func:`petheory.loaders.gguf_header.read_gguf_header`); only its metadata and tensor names are
        read.

    Returns
    -------
    Scheme
        One layer per block (sliding and full layers by the architecture's pattern), original context L (the
        scaling's original context, else the file's context length), ``max_context`` the file's context length,
        and notes naming the GGUF fields used.

    Raises
    ------
    ValidationError
        No or an unsupported ``general.architecture`` (:data:`ARCHS`), a key under ``{arch}.rope.`` or
        ``{arch}.attention.`` that is not understood, a frequency tensor (``rope_freqs``, LongRoPE's factors), a
        required key missing or a value of the wrong type or range, a scaling type other than none, linear or
        yarn, a non-causal model, or a sliding window llama.cpp does not read for the architecture.

    Examples
    --------
    >>> from petheory.loaders.gguf_header import GGUFHeader
    >>> h = GGUFHeader("x.gguf", 3, {"general.architecture": "llama", "llama.context_length": 4096,
    ...     "llama.embedding_length": 4096, "llama.block_count": 32, "llama.attention.head_count": 32})
    >>> s = gguf_scheme(h)
    >>> s.main.positions.params["pairing"], s.head_dim, len(s.layers)
    ('interleaved', 128, 32)
    >>> gguf_scheme(GGUFHeader("x.gguf", 3, {"general.architecture": "bert"}))
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: x.gguf: GGUF architecture 'bert' is not read by petheory; supported: falcon, ...
    """
    arch = header.architecture
    if arch is None:
        raise ValidationError(f"{header.path}: the GGUF header has no general.architecture (a string); every llama.cpp "
                              "model file names its architecture")
    if arch not in ARCHS:
        raise ValidationError(f"{header.path}: GGUF architecture {shown(arch)} is not read by petheory; supported: "
                              f"{', '.join(sorted(ARCHS))}")
    spec = ARCHS[arch]
    _refuse_unknown(header, arch)
    f = _Fields(header, arch)
    ctx = f.get("context_length", int, required=True, minimum=1, maximum=2**32 - 1,
                why=" (llama.cpp reads the training context as a uint32, n_ctx_train)")
    embd = f.get("embedding_length", int, required=True, minimum=1)
    n = f.get("block_count", int, required=True, minimum=1, maximum=LLAMA_MAX_LAYERS,
              why=" (llama.cpp's LLAMA_MAX_LAYERS: its loader refuses more layers, 'n > N_MAX')")
    # one Layer reference per block and what the commands build per layer: 485 bytes a layer measured (tracemalloc
    # peak of `report` on a 65,536-layer file), rounded up
    _memory.require(n * LAYER_BYTES, f"the scheme of {n} layers ({arch}.block_count)")
    heads = f.get("attention.head_count", int, required=True, minimum=1)
    kv = f.get("attention.head_count_kv", int, heads, minimum=1)
    d = f.get("attention.key_length", int, embd // heads, minimum=2)
    r = f.get("rope.dimension_count", int, d, minimum=2)
    if r > d or r % 2:
        raise ValidationError(f"{header.path}: GGUF key {arch}.rope.dimension_count = {r}; expected an even number <= the "
                              f"head size {d}")
    if spec.full_rotary and r != d:
        raise ValidationError(f"{header.path}: {arch}.rope.dimension_count = {r} but the head size is {d}; llama.cpp "
                              f"refuses this for {arch} (invalid n_rot)")
    if f.get("attention.causal", bool, True) is False:
        raise ValidationError(f"{header.path}: {arch}.attention.causal is false (an embedding model): not supported")
    notes = [f"read from the GGUF header as llama.cpp runs it (no transformers config in between); pairing "
             f"{spec.pairing} (llama.cpp's {'NORM' if spec.pairing == 'interleaved' else 'NEOX'} rope type for {arch})"]
    if spec.pairing == "interleaved":
        notes.append("adjacent pairs rotate: llama.cpp's converter permutes the q/k weights of a transformers checkpoint "
                     "so that this gives the logits transformers' half-split pairs give")
    name, params, L = _rope(f, spec, d, r, ctx, notes)
    factor = 1.0
    if spec.big_model_scale is not None and n == spec.big_model_scale:  # llama.cpp: 27B scales by (n_embd/n_head)^-1/2
        factor = math.sqrt(d / (embd / heads))
    glob = Layer(Positions("rotary", name, params, d, factor), type="full_attention")
    window = f.get("attention.sliding_window", int, None, minimum=0)
    layers = [glob] * n
    if spec.ignores_window and window:
        notes.append(f"{arch}.attention.sliding_window = {window} is read by llama.cpp and not applied (Phi SWA is "
                     "disabled there): every layer attends to the full context, as llama.cpp runs it")
    elif spec.swa_pattern and (window or not spec.swa_needs_key):
        w = window or spec.swa_default
        if not w:
            raise ValidationError(f"{header.path}: GGUF key {arch}.attention.sliding_window is missing or 0 (llama.cpp "
                                  f"requires it for {arch})")
        local = {"base": f.get("rope.freq_base_swa", float, spec.swa_base, minimum=1e-300), "pairing": spec.pairing,
                 **({"rotary_dim": r} if r != d else {})} if spec.swa_base is not None else params
        slide = Layer(Positions("rotary", "rope" if spec.swa_base is not None else name, local, d, factor),
                      Span("sliding", w), type="sliding_attention")
        # llama.cpp's set_swa_pattern(k): layer il slides iff il % k < k - 1
        layers = [slide if il % spec.swa_pattern < spec.swa_pattern - 1 else glob for il in range(n)]
        notes.append(f"every {spec.swa_pattern}th layer full attention, the others a sliding window of {w} "
                     f"(llama.cpp's pattern for {arch})")
    elif window:
        raise ValidationError(f"{header.path}: GGUF key {arch}.attention.sliding_window = {window}: llama.cpp does not "
                              f"read it for {arch}; not understood")
    if r != d:
        notes.append(f"partial rotary: {r} of {d} head dimensions rotate ({arch}.rope.dimension_count)")
    cap = header.metadata.get(f"{arch}.attn_logit_softcapping")
    if isinstance(cap, (int, float)) and cap:
        notes.append(f"{arch}.attn_logit_softcapping = {cap:g}: logits are soft-capped (tanh) after the scale; not part "
                     "of the kernel")
    if factor != 1.0:
        notes.append(f"softmax scale (embedding/heads)^-1/2 = {embd / heads:g}^-1/2 (llama.cpp, {n}-layer {arch}): "
                     f"logit factor {factor:.6g}")
    notes.append("GGUF fields used: " + ", ".join(dict.fromkeys(f.used)))
    return Scheme(f"gguf:{arch}", tuple(layers), L, ctx, heads, kv, d, tuple(notes))


def load_gguf_scheme(text) -> Scheme:
    """``gguf:FILE`` (or a path) -> its scheme, with the file named in any error.

    Parameters
    ----------
    text : str or path
        ``gguf:FILE`` or the file's path (``~`` expanded).

    Returns
    -------
    Scheme
        :func:`gguf_scheme` of the file's header (:func:`~petheory.loaders.gguf_header.read_gguf_header`), with
        ``spec`` set to ``text``.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        ``gguf:`` without a file, no ``gguf`` package, a header that is not valid GGUF, or one
        :func:`gguf_scheme` refuses.

    Examples
    --------
    >>> s = load_gguf_scheme("gguf:tests/data/gguf/llama_yarn.gguf")
    >>> s.main.positions.encoding, s.main.positions.params["scale"], s.context, s.max_context
    ('rope_yarn', 4.0, 8192, 32768)
    >>> load_gguf_scheme("gguf:/no/such.gguf")
    Traceback (most recent call last):
    ...
    FileNotFoundError: no such file: /no/such.gguf
    """
    from dataclasses import replace
    from pathlib import Path

    s = str(text)
    path = Path(s[5:] if s.startswith("gguf:") else s).expanduser()
    if not str(path) or s == "gguf:":
        raise ValidationError("gguf: needs a file, e.g. gguf:./model.Q4_K_M.gguf")
    return replace(gguf_scheme(read_gguf_header(path)), spec=s)
