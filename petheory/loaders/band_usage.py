r"""Band usage from weights: the norm of each rotary frequency band of W_q and W_k, per head and layer.

The weight-space counterpart of Barbero et al. 2025's measurement (§5, "Round and Round We Go!":
query/key norm per frequency band, per head): a band whose rows of :math:`W_q` (or :math:`W_k`) have
a small norm contributes little to any logit, whatever the input. :func:`band_norms` is the pure
computation on one projection matrix; :func:`band_usage` reads a Hugging Face model directory one
tensor at a time (the project's safetensors reader reads only that tensor's bytes) and returns a
JSON-able record with the bands' wavelengths against the model's context.

Pairing (which two rows of a head one band rotates) comes from the model family's configuration
(:func:`petheory.models.config.resolve_config`): transformers' ``rotate_half`` pairs rows ``(t, t + r/2)``
(``half``: Llama, Qwen2, Mistral, Gemma, ...), interleaved pairs ``(2t, 2t+1)``. Grouped-query
attention is read as it is stored: ``k_proj`` has ``num_key_value_heads`` heads.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError

__all__ = ["band_norms", "band_usage", "projection_names"]

_PROJ = re.compile(r"(?:^|\.)layers\.(\d+)\.self_attn\.([qk])_proj\.weight$")
_FUSED = re.compile(r"(qkv_proj|query_key_value|c_attn|Wqkv)\.weight$")


def band_norms(weight, *, heads: int, head_dim: int, rotary_dim: int | None = None, pairing: str = "half") -> np.ndarray:
    r"""Norm of each rotary band of a projection, per head: :math:`\sqrt{\lVert W_a\rVert^2 + \lVert W_b\rVert^2}`.

    Parameters
    ----------
    weight : array_like, shape (heads * head_dim, hidden)
        A query or key projection as ``nn.Linear`` stores it (output rows, input columns).
    heads, head_dim : int
    rotary_dim : int, optional
        Rotated dimensions of a head (default ``head_dim``); the other rows carry no position and are left out.
    pairing : {'half', 'interleaved'}
        Band t of a head is rows (t, t + r/2) (``half``, transformers' ``rotate_half``) or (2t, 2t+1).

    Returns
    -------
    ndarray, shape (heads, rotary_dim / 2)
        Band t has frequency :math:`\theta_t = b^{-2t/r}`: band 0 is the highest frequency.

    Examples
    --------
    >>> w = np.zeros((4, 3)); w[0, 0] = 3.0; w[2, 1] = 4.0   # one head, head_dim 4: band 0 = rows 0 and 2
    >>> band_norms(w, heads=1, head_dim=4).tolist()
    [[5.0, 0.0]]
    >>> band_norms(w, heads=1, head_dim=4, pairing="interleaved").tolist()   # bands = rows (0, 1), (2, 3)
    [[3.0, 4.0]]
    """
    heads = v.integer("heads", heads, minimum=1)
    hd = v.even("head_dim", head_dim)
    r = hd if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > hd:
        raise ValidationError(f"rotary_dim must be <= head_dim={hd}, got {r}")
    v.choice("pairing", pairing, ("half", "interleaved"))
    w = v.array("weight", weight, ndim=2)
    if w.shape[0] != heads * hd:
        raise ValidationError(f"a projection of {heads} heads of size {hd} has {heads * hd} rows, got shape {w.shape}; "
                              "is it stored (out, in) as nn.Linear stores it, and are the head counts right?")
    rows = (w * w).sum(1).reshape(heads, hd)[:, :r]  # squared row norms per head, rotary rows only
    if pairing == "half":
        sq = rows[:, : r // 2] + rows[:, r // 2:]
    else:
        sq = rows[:, 0::2] + rows[:, 1::2]
    return np.sqrt(sq)


def projection_names(names) -> dict:
    """``{layer: {'q': name, 'k': name}}`` of the separate q/k projections among tensor ``names``.

    >>> projection_names(["model.layers.0.self_attn.q_proj.weight", "model.layers.0.self_attn.k_proj.weight"])
    {0: {'k': 'model.layers.0.self_attn.k_proj.weight', 'q': 'model.layers.0.self_attn.q_proj.weight'}}
    """
    out: dict = {}
    for n in sorted(names):
        m = _PROJ.search(n)
        if m:
            out.setdefault(int(m.group(1)), {})[m.group(2)] = n
    return dict(sorted(out.items()))


def band_usage(spec, *, context: int | None = None) -> dict:
    r"""Band norms of every layer's query and key projections of the model in ``hf:DIR``.

    Parameters
    ----------
    spec : str or path
        ``hf:DIR`` or DIR: a Hugging Face model directory with ``config.json`` and safetensors weights.
    context : int, optional
        The context the wavelengths are compared with (default: the config's original context L).

    Returns
    -------
    dict
        ``model``, ``model_type``, ``pairing``, ``rotary_dim``, ``head_dim``, ``num_heads``, ``num_kv_heads``,
        ``layers`` (indices read), ``context``, ``bands`` ({scheme name: {'frequencies', 'wavelengths',
        'wavelength_over_context'}}: ``global`` (the main layer kind), and each other rotary layer kind
        by its layer type, e.g. ``sliding_attention``),
        ``query`` / ``key``: ``{'norms': (layers, heads, bands)}``.

    Notes
    -----
    Weights only: an input-independent upper view of usage (the paper measures activations). Biases
    (Qwen2's ``q_proj.bias``) are left out. Fused projections (``qkv_proj``, ``query_key_value``) are
    refused rather than split by a guessed layout.
    """
    from petheory.encodings.rope_scaling import band_frequencies
    from petheory.loaders.hf import ModelWeights, resolve_hf_dir
    from petheory.loaders.model_config import read_config
    from petheory.models.config import resolve_config

    text_spec = str(spec)
    directory = resolve_hf_dir(text_spec[3:] if text_spec.startswith("hf:") else text_spec)
    cfg_path = Path(directory) / "config.json"
    if not cfg_path.is_file():
        raise ValidationError(f"{directory} has no config.json: band usage needs the model family (pairing, heads)")
    cfg = read_config(cfg_path)
    ms = resolve_config(cfg)
    main = ms.main.positions  # the wavelengths of the first full-attention rotary layer kind
    if main.kind != "rotary" or main.encoding == "mla_rope" or "pairing" not in main.params:
        raise ValidationError(f"band usage reads separate q_proj/k_proj of rotary models; {ms.source} "
                              f"({main.encoding or main.kind}) is not supported")
    pairing = main.params["pairing"]
    r = int(main.params.get("rotary_dim") or main.d)
    text = cfg.get("text_config") if isinstance(cfg.get("text_config"), dict) else cfg
    heads = ms.num_heads
    kv = ms.num_kv_heads
    hd = ms.head_dim
    weights = ModelWeights(directory)
    if not any(f.kind != "torch" for f in weights.files):
        raise ValidationError(f"{directory} has no safetensors weights; save the model with safe_serialization=True")
    names = weights.names
    proj = projection_names(names)
    if not proj:
        fused = sorted(n for n in names if _FUSED.search(n))
        why = f" (it has fused projections such as {fused[0]!r}, which are not split)" if fused else ""
        raise ValidationError(f"{directory} has no '...layers.N.self_attn.q_proj.weight' / 'k_proj.weight' tensors{why}")
    missing = [i for i, p in proj.items() if set(p) != {"q", "k"}]
    if missing:
        raise ValidationError(f"layers {missing[:5]} of {directory} lack a q_proj or k_proj weight")
    L = v.integer("context", context if context is not None else ms.context, minimum=1)
    q_norms, k_norms = [], []
    for i, p in proj.items():  # one tensor in memory at a time
        q_norms.append(band_norms(weights.read(p["q"]), heads=heads, head_dim=hd, rotary_dim=r, pairing=pairing))
        k_norms.append(band_norms(weights.read(p["k"]), heads=kv, head_dim=hd, rotary_dim=r, pairing=pairing))
    bands = {}
    for layer, idx in ms.kinds():  # one entry per rotary layer kind: 'global' (the main one), else its layer type
        sch = layer.positions
        if sch.kind != "rotary":
            continue
        name = "global" if layer == ms.main else (layer.type or f"layers {idx[0]}..{idx[-1]}")
        w, _ = band_frequencies(sch.encoding, sch.d, L, **sch.params)
        lam = 2 * math.pi / np.maximum(w, 1e-300)
        bands[name] = {"frequencies": w.tolist(), "wavelengths": lam.tolist(), "wavelength_over_context": (lam / L).tolist()}
    return {"model": Path(directory).name, "source": f"hf:{directory}", "model_type": ms.source, "pairing": pairing,
            "rotary_dim": r, "head_dim": hd, "num_heads": heads, "num_kv_heads": kv, "layers": list(proj),
            "context": L, "bands": bands, "query": {"norms": np.stack(q_norms).tolist()},
            "key": {"norms": np.stack(k_norms).tolist()},
            "notes": ["weights only (W_q, W_k rows per band; biases left out): an input-independent view of band usage",
                      "band 0 is the highest frequency"]}
