r"""Band usage from weights: the norm of each rotary frequency band of :math:`W_q` and :math:`W_k`, per head and layer.

The weight-space counterpart of Barbero et al. 2025's measurement (§5, "Round and Round We Go!":
query/key norm per frequency band, per head): a band whose rows of :math:`W_q` (or :math:`W_k`) have
a small norm contributes little to any logit, whatever the input. :func:`band_norms` is the pure
computation on one projection matrix; :func:`band_usage` reads a Hugging Face model directory one
tensor at a time (the project's safetensors reader reads only that tensor's bytes) and returns a
JSON-able record, one entry per layer kind, with the bands' wavelengths against the kind's span.

What is read is what the model loads: the tensors transformers' loading code reads for the model type,
for the layers its config declares (:mod:`petheory.loaders.attention_weights`), from the file
transformers would load (the shard index, else ``model.safetensors``), with the folder rules of
``report`` (every file, ``config.json`` included, inside the folder). Each layer is read with its own
layer kind's rotation from the resolved :class:`~petheory.scheme.Scheme`: pairing (transformers'
``rotate_half`` pairs rows ``(t, t + r/2)``; interleaved ``(2t, 2t+1)``; proportional RoPE
``(t, t + d/2)``), rotary width and head size; a NoPE layer is marked, with no band norms. Grouped-query
attention is read as stored: ``k_proj`` has the layer's key heads, checked against the config.
"""

from __future__ import annotations

import math
from numbers import Integral
from pathlib import Path

import numpy as np

from petheory import _validate as v
from petheory._validate import Interval, validate_params
from petheory.errors import ValidationError
from petheory.models.families import GEMMA4_TEXT

__all__ = ["band_pairs", "band_norms", "band_usage"]


def band_pairs(rotary_dim: int, *, head_dim: int, pairing: str = "half", proportional: bool = False) -> tuple:
    """Rows :math:`(a_t, b_t)` of a head that band t rotates together, each of shape (rotary_dim / 2,).

    Parameters
    ----------
    rotary_dim : int
        The coordinates of a head that rotate (even).
    head_dim : int
        The head's size.
    pairing : {'half', 'interleaved'}
        ``'half'``: band t pairs coordinates t and t + rotary_dim/2 (transformers' ``rotate_half``);
        ``'interleaved'``: 2t and 2t + 1.
    proportional : bool
        Gemma 4's proportional RoPE: half-split pairs across the whole head (t and t + head_dim/2).

    Returns
    -------
    tuple of numpy.ndarray
        ``(a, b)``: the first and second row of each band's pair.

    Examples
    --------
    >>> [a.tolist() for a in band_pairs(4, head_dim=8)]
    [[0, 1], [2, 3]]
    >>> [a.tolist() for a in band_pairs(4, head_dim=8, proportional=True)]   # Gemma 4: across the whole head
    [[0, 1], [4, 5]]
    >>> [a.tolist() for a in band_pairs(4, head_dim=8, pairing="interleaved")]
    [[0, 2], [1, 3]]
    """
    t = np.arange(rotary_dim // 2)
    if pairing == "interleaved":
        return 2 * t, 2 * t + 1
    return t, t + (head_dim // 2 if proportional else rotary_dim // 2)


def band_norms(weight, *, heads: int, head_dim: int, rotary_dim: int | None = None, pairing: str = "half",
               proportional: bool = False, rows: tuple | None = None, total_rows: int | None = None) -> np.ndarray:
    r"""Norm of each rotary band of a projection, per head: :math:`\sqrt{\lVert W_a\rVert^2 + \lVert W_b\rVert^2}`.

    Parameters
    ----------
    weight : array_like, shape (rows, hidden)
        A query or key projection as ``nn.Linear`` stores it (output rows, input columns).
    heads, head_dim : int
    rotary_dim : int, optional
        Rotated dimensions of a head (default ``head_dim``); the other rows carry no position and are left out.
    pairing : {'half', 'interleaved'}
        Band t of a head is rows (t, t + r/2) (``half``, transformers' ``rotate_half``) or (2t, 2t+1).
    proportional : bool
        Proportional RoPE (Gemma 4): band t is rows (t, t + head_dim/2).
    rows : (start, step, size), optional
        Where head h's rows sit in a fused tensor: ``start + h * step`` onwards (default: heads one after another).
    total_rows : int, optional
        The rows the tensor must have (default ``heads * head_dim``).

    Returns
    -------
    ndarray, shape (heads, rotary_dim / 2)
        Band t has frequency :math:`\theta_t = b^{-2t/r}`: band 0 is the highest frequency. Computed with
        each row scaled by its largest entry, so finite weights up to 1.8e308 give finite norms.

    Examples
    --------
    >>> w = np.zeros((4, 3)); w[0, 0] = 3.0; w[2, 1] = 4.0   # one head, head_dim 4: band 0 = rows 0 and 2
    >>> band_norms(w, heads=1, head_dim=4).tolist()
    [[5.0, 0.0]]
    >>> band_norms(w, heads=1, head_dim=4, pairing="interleaved").tolist()   # bands = rows (0, 1), (2, 3)
    [[3.0, 4.0]]
    >>> band_norms(w * 1e300, heads=1, head_dim=4).tolist()   # no overflow
    [[5e+300, 0.0]]
    """
    heads = v.integer("heads", heads, minimum=1)
    hd = v.even("head_dim", head_dim)
    r = hd if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > hd:
        raise ValidationError(f"rotary_dim must be <= head_dim={hd}, got {r}")
    v.choice("pairing", pairing, ("half", "interleaved"))
    w = v.array("weight", weight, ndim=2)
    need = heads * hd if total_rows is None else int(total_rows)
    if w.shape[0] != need:
        raise ValidationError(f"a projection of {heads} heads of size {hd} has {need} rows, got shape {w.shape}; "
                              "is it stored (out, in) as nn.Linear stores it, and are the head counts right?")
    if not np.isfinite(w).all():
        raise ValidationError(f"the projection holds {int((~np.isfinite(w)).sum())} NaN/inf entries; weights must be finite")
    start, step, size = (0, hd, hd) if rows is None else rows
    idx = start + step * np.arange(heads)[:, None] + np.arange(size)[None, :]  # (heads, head_dim) row indices
    blk = w[idx]
    peak = np.abs(blk).max(-1, keepdims=True)
    scale = np.where(peak > 0, peak, 1.0)
    norm = peak[..., 0] * np.sqrt(((blk / scale) ** 2).sum(-1))  # (heads, head_dim) row norms, overflow-free
    a, b = band_pairs(r, head_dim=hd, pairing=pairing, proportional=proportional)
    return np.hypot(norm[:, a], norm[:, b])


def _kv_layout(text: dict, ms, source: str) -> tuple:
    """(key heads per layer, head size per layer, {shared layer: source layer}) as the config declares them."""
    n, heads, kv = len(ms.layers), ms.num_heads, ms.num_kv_heads
    if kv < 1 or heads % kv:
        raise ValidationError(f"{source}: num_key_value_heads={kv} must divide num_attention_heads={heads} (each key head "
                              "serves a whole group of query heads); fix the config.json")
    kvs = [kv] * n
    dims = [int(layer.positions.d or ms.head_dim) for layer in ms.layers]
    per = text.get("per_layer_config") if ms.source in GEMMA4_TEXT else None
    for key, over in (per or {}).items():  # Gemma 4: the global layers' own head size and key heads
        i = int(key) if str(key).isdigit() else -1
        k = over.get("num_key_value_heads") if isinstance(over, dict) and 0 <= i < n else None
        if k is None:
            continue
        if isinstance(k, bool) or not isinstance(k, int) or k < 1 or heads % k:
            raise ValidationError(f"{source}: field 'per_layer_config.{key}.num_key_value_heads' = {k!r:.20} must divide "
                                  f"num_attention_heads={heads}")
        kvs[i] = k
    shared: dict = {}
    m = text.get("num_kv_shared_layers") if ms.source in GEMMA4_TEXT else None
    if isinstance(m, int) and not isinstance(m, bool) and m > 0:  # transformers' Gemma4TextConfig.kv_sharing_modes
        first = n - m
        types = [layer.type for layer in ms.layers]
        for i in range(max(first, 0), n):
            own = [j for j in range(max(first, 0)) if types[j] == types[i]]
            if not own:
                raise ValidationError(f"{source}: layer {i} ({types[i]}) shares the keys of an earlier {types[i]} layer, "
                                      f"but num_kv_shared_layers={m} leaves none")
            shared[i] = own[-1]
    return kvs, dims, shared


@validate_params({"context": [Interval(Integral, 1, None), None]})
def band_usage(spec, *, context: int | None = None) -> dict:
    r"""Band norms of every layer's query and key projections of the model in ``hf:DIR``, per layer kind.

    Parameters
    ----------
    spec : str or path
        ``hf:DIR`` or DIR: a Hugging Face model directory with ``config.json`` and safetensors weights.
    context : int, optional
        The context the wavelengths are compared with (default: the config's original context L); a
        sliding or chunked layer kind compares them with min(context, its span).

    Returns
    -------
    dict
        ``model``, ``source``, ``model_type``, ``context``, ``num_layers``, ``num_heads``, ``num_kv_heads``,
        ``head_dim``, ``tensors`` (the files read) and ``kinds``: one entry per layer kind, with its
        ``layers``, ``type``, ``mechanism``, ``span`` and ``reach`` (the distances its layers see), and for a
        rotary kind ``pairing``, ``proportional``, ``rotary_dim``, ``head_dim``, ``heads``, ``kv_heads``,
        ``frequencies``, ``wavelengths``, ``wavelength_over_reach``, ``query`` / ``key``:
        ``{'norms': (layers, heads, bands)}`` (``key_shared_from``: layers that attend with an earlier
        layer's keys); a NoPE or position-free kind has ``skipped`` (why it has no bands) instead.

    Notes
    -----
    Weights only: an input-independent upper view of usage (the paper measures activations). Biases
    (Qwen2's ``q_proj.bias``) are left out. MLA's compressed projections are refused.

    Examples
    --------
    A one-layer Llama with 2 heads of size 4 whose query rows 1 and 3 (band 1 of head 0) are zero:

    >>> import json, tempfile, pathlib
    >>> import numpy as np
    >>> from safetensors.numpy import save_file
    >>> tmp = tempfile.TemporaryDirectory()
    >>> d = pathlib.Path(tmp.name)
    >>> _ = (d / "config.json").write_text(json.dumps({"model_type": "llama", "hidden_size": 8,
    ...     "num_attention_heads": 2, "num_hidden_layers": 1, "max_position_embeddings": 64, "rope_theta": 10000.0}))
    >>> wq = np.ones((8, 8), np.float32)
    >>> wq[[1, 3]] = 0
    >>> save_file({"model.layers.0.self_attn.q_proj.weight": wq,
    ...            "model.layers.0.self_attn.k_proj.weight": np.ones((8, 8), np.float32)}, str(d / "model.safetensors"))
    >>> usage = band_usage(f"hf:{d}")
    >>> kind = usage["kinds"][0]
    >>> usage["context"], kind["name"], kind["pairing"], [round(x, 1) for x in kind["wavelengths"]]
    (64, 'full_attention', 'half', [6.3, 628.3])
    >>> kind["query"]["norms"]   # (layers, heads, bands)
    [[[4.0, 0.0], [4.0, 4.0]]]
    >>> tmp.cleanup()
    """
    import os

    from petheory.encodings.rope_scaling import band_frequencies
    from petheory.loaders.attention_weights import projection_tensors
    from petheory.loaders.hf import ModelWeights, resolve_hf_dir
    from petheory.loaders.model_config import read_config
    from petheory.loaders.paths import inside, model_root
    from petheory.models.config import resolve_config
    from petheory.scheme import layer_ranges

    text_spec = str(spec)
    directory = Path(resolve_hf_dir(text_spec[3:] if text_spec.startswith("hf:") else text_spec))
    cfg_path = directory / "config.json"
    if not os.path.lexists(cfg_path):
        raise ValidationError(f"{directory} has no config.json: band usage needs the model family (pairing, heads)")
    inside(cfg_path, model_root(directory))  # the folder rules of report: a config.json linked from outside is refused
    cfg = read_config(cfg_path)
    try:
        ms = resolve_config(cfg)
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"{cfg_path}: {exc}") from None
    text = cfg["text_config"] if isinstance(cfg.get("text_config"), dict) else cfg
    n = len(ms.layers)
    declared = text.get("num_hidden_layers")
    if isinstance(declared, int) and not isinstance(declared, bool) and declared != n:
        raise ValidationError(f"{cfg_path}: num_hidden_layers={declared} but its layers resolve to {n}")
    mla = [layer for layer in ms.layers if layer.positions.encoding == "mla_rope"]
    if mla or not any(layer.positions.kind == "rotary" for layer in ms.layers):
        what = "MLA's compressed projections" if mla else f"no rotary layer ({ms.main.positions.encoding or ms.main.positions.kind})"
        raise ValidationError(f"band usage reads the separate query/key projections of rotary layers; {ms.source} has "
                              f"{what}")
    kvs, dims, shared = _kv_layout(text, ms, str(cfg_path))
    weights = ModelWeights(directory)
    if not (weights.sharded or weights.files[0].path.name == "model.safetensors"):
        found = ", ".join(f.path.name for f in weights.files[:3])
        raise ValidationError(f"{directory} has no model.safetensors or model.safetensors.index.json, the files "
                              f"transformers loads (found {found}); save the model with save_pretrained(safe_serialization=True)")
    rotary = [i for i, layer in enumerate(ms.layers) if layer.positions.kind == "rotary"]
    tensors = projection_tensors(cfg, ms.source, n, weights.names, heads=ms.num_heads, dims=dims, source=str(directory),
                                 read=sorted(set(rotary) | {shared[i] for i in rotary if i in shared}), shared_kv=shared)
    L = int(context if context is not None else ms.context)
    groups: dict = {}
    for k, (layer, idx) in enumerate(ms.kinds()):
        for i in idx:
            groups.setdefault((k, dims[i], kvs[i]), (layer, []))[1].append(i)
    kinds = []
    for (_, hd, kv), (layer, idx) in groups.items():
        pos = layer.positions
        entry = {"layers": idx, "type": layer.type, "mechanism": pos.kind,
                 "span": {"kind": layer.span.kind, "size": layer.span.size}, "reach": layer.span.reach(L)}
        name = layer.type or f"layers {layer_ranges(idx)}"
        if pos.kind != "rotary":
            why = {"nope": "NoPE: softmax attention that sees no position (no rotary bands)",
                   "none": "no attention positions (a position-free layer)"}.get(pos.kind, f"{pos.kind} positions")
            kinds.append({"name": name, **entry, "skipped": why})
            continue
        if "pairing" not in pos.params:
            raise ValidationError(f"{ms.source}: the rotary layers {layer_ranges(idx)} state no pairing; band usage needs it")
        r = int(pos.params.get("rotary_dim") or pos.d)
        prop = bool(getattr(pos, "proportional", False))
        geo = dict(head_dim=hd, rotary_dim=r, pairing=pos.params["pairing"], proportional=prop)
        q_norms, k_norms, k_from = [], [], {}
        for i in idx:  # one tensor in memory at a time
            t = tensors[i]
            w = _read(weights, t.q)
            q_norms.append(band_norms(w, heads=ms.num_heads, rows=t.q_rows, total_rows=_rows(t, ms.num_heads, kv, hd, "q"),
                                      **geo))
            src = tensors[t.k_from] if t.k_from is not None else t
            if t.k_from is not None:
                k_from[i] = t.k_from
            wk = w if src.k == t.q and src is t else _read(weights, src.k)
            k_norms.append(band_norms(wk, heads=kv, rows=src.k_rows, total_rows=_rows(src, ms.num_heads, kv, hd, "k"), **geo))
        w_band, _ = band_frequencies(pos.encoding, pos.d, L, **pos.params)
        lam = 2 * math.pi / np.maximum(w_band, 1e-300)
        kinds.append({"name": name, **entry, "pairing": pos.params["pairing"], "proportional": prop, "rotary_dim": r,
                      "head_dim": hd, "heads": ms.num_heads, "kv_heads": kv, "frequencies": w_band.tolist(),
                      "wavelengths": lam.tolist(), "wavelength_over_reach": (lam / entry["reach"]).tolist(),
                      "query": {"norms": np.stack(q_norms).tolist()}, "key": {"norms": np.stack(k_norms).tolist()},
                      **({"key_shared_from": {str(a): b for a, b in k_from.items()}} if k_from else {})})
    files = sorted({weights.files[0].file_of(name).name for t in tensors.values() for name in (t.q, t.k) if name})
    return {"model": directory.name, "source": f"hf:{directory}", "model_type": ms.source, "context": L, "num_layers": n,
            "num_heads": ms.num_heads, "num_kv_heads": ms.num_kv_heads, "head_dim": ms.head_dim, "tensors": files,
            "kinds": kinds,
            "notes": ["weights only (W_q, W_k rows per band; biases left out): an input-independent view of band usage",
                      "band 0 is the highest frequency; a kind's wavelengths are compared with its reach, min(context, "
                      "its span)"]}


def _rows(t, heads: int, kv: int, hd: int, part: str) -> int:
    """The rows the tensor that holds ``part`` ('q' or 'k') of layer tensors ``t`` must have."""
    name = t.q if part == "q" else t.k
    if name.endswith("qkv_proj.weight"):
        return (heads + 2 * kv) * hd
    if name.endswith("query_key_value.weight"):
        return 3 * heads * hd
    if part == "q" and t.q_rows is not None:  # a query with its gate (Qwen3-Next)
        return 2 * heads * hd
    return (heads if part == "q" else kv) * hd


def _read(weights, name: str) -> np.ndarray:
    w = weights.read(name)
    if w.ndim == 2 and not np.isfinite(w).all():
        raise ValidationError(f"{weights.directory}: tensor {name!r} holds {int((~np.isfinite(w)).sum())} NaN/inf "
                              "entries; weights must be finite")
    return w


def band_usage_lines(rec: dict) -> list[str]:
    """:func:`band_usage`'s record in a few lines: the model, then per layer kind its rotation, how many bands have
    a wavelength longer than its reach, and the mean band norm of the highest- and lowest-frequency quarters of the
    bands (query and key).

    Parameters
    ----------
    rec : dict
        From :func:`band_usage`.

    Returns
    -------
    list of str

    Examples
    --------
    >>> band_usage_lines({"model": "m", "model_type": "llama4_text", "num_layers": 1, "num_heads": 8, "num_kv_heads": 2,
    ...                   "context": 8192, "kinds": [{"name": "attention", "layers": [0], "skipped": "NoPE"}]})
    ['m (llama4_text): 1 layers, 8 query / 2 key heads, context 8192', '  attention (layers 0): NoPE']
    """
    from petheory.scheme import layer_ranges

    out = [f"{rec['model']} ({rec['model_type']}): {rec['num_layers']} layers, {rec['num_heads']} query / "
           f"{rec['num_kv_heads']} key heads, context {rec['context']}"]
    for kind in rec["kinds"]:
        where = f"layers {layer_ranges(kind['layers'])}"
        if "skipped" in kind:
            out.append(f"  {kind['name']} ({where}): {kind['skipped']}")
            continue
        lam = np.asarray(kind["wavelength_over_reach"])
        span = "" if kind["span"]["kind"] == "full" else f", {kind['span']['kind']} span {kind['span']['size']}"
        kv = kind["kv_heads"]
        out.append(f"  {kind['name']} ({where}{span}; {kind['pairing']} pairing{', proportional' if kind['proportional'] else ''}"
                   f", {kind['rotary_dim']} of {kind['head_dim']} dimensions rotate, {kv} key head{'s' if kv > 1 else ''}): "
                   f"{lam.size} bands, {int(np.sum(lam > 1))} with a wavelength longer than its reach {kind['reach']}")
        q, k = np.asarray(kind["query"]["norms"]), np.asarray(kind["key"]["norms"])
        quarter = max(1, q.shape[-1] // 4)
        for name, nrm in (("query", q), ("key", k)):
            hi, lo = nrm[..., :quarter].mean(), nrm[..., -quarter:].mean()
            out.append(f"    {name}: mean band norm, highest-frequency quarter {hi:.4g}, lowest-frequency quarter {lo:.4g}")
    return out
