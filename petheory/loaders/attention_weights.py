"""Which tensors hold a layer's query and key projections: the names transformers' own loading code reads.

A checkpoint holds many tensors whose names look like a layer's ``q_proj``: another tower's (a vision
encoder's ``vision_tower.encoder.layers.0.self_attn.q_proj.weight``), a name with a trailing newline,
a Unicode digit or a zero-padded layer number, a layer beyond those the config declares. transformers
reads none of them: it builds the module tree of the model type and loads the names of its
parameters (``model.layers.{i}.self_attn.q_proj.weight`` for a Llama causal LM). So does
:func:`projection_tensors`: from the model type's layout (:data:`LAYOUTS`) and the number of layers
its config declares it builds the exact names, finds the one prefix under which the checkpoint holds
them (a causal LM's ``model.``, a base model's none, a multimodal wrapper's
``model.language_model.`` or transformers' older ``language_model.model.``), and says which rows of
a fused projection are the queries and keys, as the family's attention module slices them. The
tests compare every layout with the ``state_dict`` of the model transformers builds.
"""

from __future__ import annotations

from dataclasses import dataclass

from petheory.errors import ValidationError

__all__ = ["Layout", "LAYOUTS", "WRAPPED", "LayerTensors", "projection_tensors"]


@dataclass(frozen=True)
class Layout:
    """Where a model type keeps each layer's attention projections (below the text model).

    ``base``: the prefixes of the text model in a checkpoint of the causal LM (its ``base_model_prefix``)
    and of the base model saved alone (none). ``fused``: ``'qkv_proj'`` (Phi-3: the rows of all query
    heads, then all key heads, then values) or ``'query_key_value'`` (GPT-NeoX: per head, its query,
    key and value rows); None for separate ``q_proj`` / ``k_proj``. ``q_gate``: ``q_proj`` holds, per
    head, the query rows and then as many gate rows (Qwen3-Next).

    Attributes
    ----------
    base : tuple of str
        Prefixes of the text model in a causal-LM checkpoint and in the base model saved alone.
    layers : str
        Name of the layer list (``'layers'``).
    attn : str
        Name of the attention module in a layer (``'self_attn'``).
    fused : str or None
        ``'qkv_proj'`` or ``'query_key_value'`` for a fused projection; None for separate ``q_proj`` / ``k_proj``.
    q_gate : bool
        Whether ``q_proj`` holds gate rows after each head's query rows.
    """

    base: tuple = ("model.", "")
    layers: str = "layers"
    attn: str = "self_attn"
    fused: str | None = None
    q_gate: bool = False

    def names(self, prefix: str, i: int) -> tuple:
        """(query tensor, key tensor) names of layer ``i`` under ``prefix`` (the same name twice when fused)."""
        stem = f"{prefix}{self.layers}.{i}.{self.attn}."
        if self.fused:
            return (f"{stem}{self.fused}.weight",) * 2
        return f"{stem}q_proj.weight", f"{stem}k_proj.weight"


_PLAIN = Layout()
#: Text model types (after a wrapper's ``text_config``) -> their layout, each checked against transformers' modules.
LAYOUTS = {
    **{t: _PLAIN for t in ("llama", "gemma", "gemma2", "gemma3_text", "gemma4_text", "olmo2", "olmo3", "glm4_moe",
                           "mistral", "mixtral", "starcoder2", "qwen2", "qwen2_moe", "qwen3", "qwen2_vl", "qwen2_5_vl",
                           "qwen3_vl", "cohere2", "exaone4", "gpt_oss", "smollm3", "llama4_text")},
    "phi3": Layout(fused="qkv_proj"),
    "gpt_neox": Layout(base=("gpt_neox.", ""), attn="attention", fused="query_key_value"),
    "qwen3_next": Layout(q_gate=True),
}

#: Prefixes of a multimodal wrapper's text model: transformers 5's module tree, its older saved layout (which
#: save_pretrained still writes for some wrappers), the base model saved alone.
WRAPPED = ("model.language_model.", "language_model.model.", "language_model.")
#: Wrappers whose published checkpoints keep the text model at the top (Qwen2-VL: ``model.layers`` beside ``visual``).
WRAPPED_EXTRA = {"qwen2_vl": ("model.",), "qwen2_5_vl": ("model.",)}

#: Families whose fused projection is not split here, with the reason.
NOT_SPLIT = {"falcon": "Falcon's fused query_key_value depends on new_decoder_architecture, multi_query and "
                       "num_kv_heads (three layouts)"}


@dataclass(frozen=True)
class LayerTensors:
    """One layer's query and key tensors and the rows of each that are its heads' queries and keys.

    ``q_rows`` / ``k_rows``: ``(start, step, size)`` per head ``h`` the rows ``start + h * step`` ..
    ``+ size`` of the tensor (``None``: the whole tensor, heads one after another). ``k_from``: the
    layer whose keys this layer attends with when it has none of its own (Gemma 4's shared KV layers).

    Attributes
    ----------
    index : int
        The layer's index.
    q, k : str or None
        Names of its query and key tensors (``k`` None: it has no keys of its own).
    q_rows, k_rows : tuple of (int, int, int) or None
        ``(start, step, size)``: head h's rows are ``start + h * step`` to ``+ size`` (None: the whole tensor, heads
        one after another).
    k_from : int or None
        The layer whose keys it attends with when it has none (Gemma 4's shared KV layers).
    """

    index: int
    q: str
    k: str | None
    q_rows: tuple | None = None
    k_rows: tuple | None = None
    k_from: int | None = None


def _visible(name: str) -> str:
    return name.encode("unicode_escape").decode("ascii")


def projection_tensors(cfg: dict, mt: str, n_layers: int, names, *, heads: int, dims: list, source: str,
                       read=None, shared_kv: dict | None = None) -> dict:
    """The :class:`LayerTensors` of each of the ``n_layers`` layers a config declares, by transformers' names.

    Parameters
    ----------
    cfg : dict
        The ``config.json`` (its ``model_type`` says whether a multimodal wrapper holds the text model).
    mt : str
        The text model type (``Scheme.source``).
    n_layers : int
        The layers its config declares (``num_hidden_layers``).
    names : set of str
        Every tensor name of the checkpoint.
    heads : int
        Query heads per layer.
    dims : list of int
        The head size of each layer.
    source : str
        The folder, for messages.
    read : iterable of int, optional
        The layers whose projections are wanted (default: all); the others (a linear-attention layer of a
        hybrid, which has no ``q_proj``) are neither required nor read.
    shared_kv : dict, optional
        ``{layer: source layer}`` of layers without their own keys (Gemma 4's ``num_kv_shared_layers``).

    Returns
    -------
    dict
        ``{layer: LayerTensors}`` for the layers of ``read``.

    Raises
    ------
    ValidationError
        A model type whose layout is not known, no prefix or two prefixes holding the layers, a declared
        layer missing, or a layer beyond those declared.

    Examples
    --------
    >>> names = {f"model.layers.{i}.self_attn.{p}_proj.weight" for i in range(2) for p in "qk"}
    >>> names |= {"model.layers.01.self_attn.q_proj.weight"}   # a zero-padded look-alike: never read
    >>> [t.q for t in projection_tensors({}, "llama", 2, names, heads=2, dims=[4, 4], source="m").values()]
    ['model.layers.0.self_attn.q_proj.weight', 'model.layers.1.self_attn.q_proj.weight']
    """
    if mt in NOT_SPLIT:
        raise ValidationError(f"{source}: band usage does not split the fused projections of {mt}: {NOT_SPLIT[mt]}")
    layout = LAYOUTS.get(mt)
    if layout is None:
        raise ValidationError(f"{source}: band usage reads the attention weights of model types whose tensor names are "
                              f"checked against transformers ({', '.join(sorted(LAYOUTS))}); {mt} is not one of them")
    top = cfg.get("model_type")
    # a multimodal wrapper (its decoder in text_config; Qwen2-VL's flat Hub files too) keeps the text model's layers
    # under a wrapper's prefix
    wrapped = isinstance(cfg.get("text_config"), dict) or top in WRAPPED_EXTRA
    prefixes = (WRAPPED + WRAPPED_EXTRA.get(top, ())) if wrapped else layout.base
    names = set(names)
    read = sorted(set(range(n_layers) if read is None else read))
    if not read:
        return {}
    first = read[0]
    present = [p for p in prefixes if layout.names(p, first)[0] in names]
    if not present:
        want = " or ".join(repr(layout.names(p, first)[0]) for p in prefixes)
        near = sorted(n for n in names if f".{layout.attn}." in n and (layout.fused or "q_proj") in n)
        seen = f"; it holds {_visible(near[0])!r}, which the {mt} model does not load" if near else ""
        raise ValidationError(f"{source}: no tensor {want} (layer {first}'s query projection as transformers names it for "
                              f"{top or mt}){seen}")
    if len(present) > 1:
        raise ValidationError(f"{source}: the decoder's layers appear under two prefixes ({', '.join(repr(p) for p in present)}"
                              "); transformers would load one of them: remove the other copy")
    prefix = present[0]
    extra = layout.names(prefix, n_layers)[0]
    if extra in names:
        raise ValidationError(f"{source}: holds {extra!r}, a layer beyond the num_hidden_layers={n_layers} its config "
                              "declares; fix the config or the weights")
    shared_kv = shared_kv or {}
    out = {}
    for i in read:
        q, k = layout.names(prefix, i)
        need = [q] + ([] if i in shared_kv else [k])
        missing = [n for n in need if n not in names]
        if missing:
            raise ValidationError(f"{source}: no tensor {missing[0]!r}; its config declares num_hidden_layers="
                                  f"{n_layers} and transformers loads layer {i} from that name")
        hd = dims[i]
        if layout.fused == "qkv_proj":
            rows = (0, hd, hd), (heads * hd, hd, hd)
        elif layout.fused == "query_key_value":
            rows = (0, 3 * hd, hd), (hd, 3 * hd, hd)
        elif layout.q_gate:
            rows = (0, 2 * hd, hd), None
        else:
            rows = None, None
        out[i] = LayerTensors(i, q, None if i in shared_kv else k, rows[0], None if i in shared_kv else rows[1],
                              shared_kv.get(i))
    return out
