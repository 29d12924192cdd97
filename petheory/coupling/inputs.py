r"""Where ``W_Q, W_K``, contents and positions come from: seeded random projections, a torch module's linear
layers, BERT's embeddings split by its LayerNorm rule (gu2025 §3.1). Reading a BERT directory is
:func:`petheory.loaders.load_bert_first_layer`, the Eq. 8 terms of MiniLM :func:`petheory.loaders.bert_terms.minilm_terms`:
this module reads no file.
"""

from __future__ import annotations

import math

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.errors import ValidationError, ValidationTypeError


def random_projections(d: int, d_head: int, *, seed=0, shared: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Seeded Gaussian ``W_Q, W_K`` of shape ``(d, d_head)``, entries :math:`N(0, 1/d)`.

    ``shared=True`` returns ``W_K = W_Q`` (tied projections).

    Parameters
    ----------
    d : int
        Model width.
    d_head : int
        Head width.
    seed : int or numpy.random.Generator, optional
        Seed (default 0).
    shared : bool, optional
        Tie the key projection to the query's (default False).

    Returns
    -------
    (W_Q, W_K) : tuple of numpy.ndarray
        Shape (d, d_head) each.

    Examples
    --------
    >>> from petheory import coupling
    >>> W_Q, W_K = coupling.random_projections(8, 4, seed=1, shared=True)
    >>> W_Q.shape, W_K is W_Q or bool((W_K == W_Q).all())
    ((8, 4), True)
    """
    d = v.integer("d", d, minimum=1)
    d_head = v.integer("d_head", d_head, minimum=1)
    v.boolean("shared", shared)
    _memory.require(_memory.array_bytes(d, d_head, itemsize=2 * 8), f"random projections (d = {d}, d_head = {d_head})")
    rng = v.generator(seed)
    W_Q = rng.normal(0.0, 1.0 / math.sqrt(d), size=(d, d_head))
    W_K = W_Q.copy() if shared else rng.normal(0.0, 1.0 / math.sqrt(d), size=(d, d_head))
    return W_Q, W_K


def _torch_to_numpy(name: str, t) -> np.ndarray:
    if hasattr(t, "detach"):
        t = t.detach().to("cpu").double().numpy()
    return v.array(name, t)


def projections_from_linear(query, key, *, num_heads: int = 1, head: int = 0) -> dict[str, np.ndarray]:
    """``W_Q, W_K`` ``(d, d_head)`` and biases ``b_Q, b_K`` ``(d_head,)`` of one head from two linear layers.

    Parameters
    ----------
    query, key : torch.nn.Linear or any object with ``.weight`` of shape (num_heads*d_head, d)
        and optional ``.bias``; torch is needed only if they hold tensors.
    num_heads, head : int
        Heads are consecutive blocks of ``d_head`` output rows (BERT, GPT-2, ``nn.MultiheadAttention``).

    Returns
    -------
    dict with ``W_Q, W_K`` of shape ``(d, d_head)`` (the transposed row block) and ``b_Q, b_K`` (or None).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from petheory import coupling
    >>> q = SimpleNamespace(weight=np.arange(24.0).reshape(6, 4), bias=None)
    >>> p = coupling.projections_from_linear(q, q, num_heads=2, head=1)
    >>> p["W_Q"].shape, p["b_Q"]
    ((4, 3), None)
    """
    num_heads = v.integer("num_heads", num_heads, minimum=1)
    head = v.integer("head", head, minimum=0, maximum=num_heads - 1)
    out = {}
    for tag, lin in (("Q", query), ("K", key)):
        if not hasattr(lin, "weight"):
            raise ValidationTypeError(f"{'query' if tag == 'Q' else 'key'} must have a .weight (an nn.Linear), got {type(lin).__name__}")
        W = _torch_to_numpy(f"W_{tag}", lin.weight)
        if W.ndim != 2 or W.shape[0] % num_heads:
            raise ValidationError(f"W_{tag} of shape {W.shape} does not split into num_heads={num_heads} row blocks")
        dh = W.shape[0] // num_heads
        rows = slice(head * dh, (head + 1) * dh)
        out[f"W_{tag}"] = np.ascontiguousarray(W[rows].T)
        b = getattr(lin, "bias", None)
        out[f"b_{tag}"] = None if b is None else _torch_to_numpy(f"b_{tag}", b)[rows].copy()
    if out["W_Q"].shape != out["W_K"].shape:
        raise ValidationError(f"query and key heads differ in shape: {out['W_Q'].shape} vs {out['W_K'].shape}")
    return out


LAYERNORM_RULES = ("split", "none")


def bert_inputs(layer, token_ids, *, layernorm: str = "split") -> tuple[np.ndarray, np.ndarray]:
    r"""Content and position components ``(C, P)``, each (n, d), of BERT's first attention input.

    Parameters
    ----------
    layer : petheory.loaders.BertFirstLayer
        (or any object with its ``word, position, token_type, ln_gamma, ln_beta, ln_eps``)
    token_ids : array_like of int, shape (n,)
        Token ``i`` sits at position ``i`` (segment 0).
    layernorm : {'split', 'none'}
        How the embedding LayerNorm is handled (it is not additive, so Eq. 8 needs a rule):

        ``'split'`` (default; what the model computes): with ``x_i = w_i + t + p_i``,
        ``LN(x_i) = γ ⊙ Π x_i / σ_i + β`` where ``Π = I - 11^T/d`` centres and ``σ_i`` is the
        standard deviation of ``x_i``. Centering is linear, so the post-LN vector splits exactly
        as ``c_i = γ ⊙ Π(w_i + t)/σ_i + β`` and ``p_i = γ ⊙ Π p_i / σ_i``: ``C + P`` is exactly
        the LayerNorm output. The position part carries the token's normaliser ``1/σ_i`` (the
        content leaks into it through one scalar per token); ``β`` is position-independent and
        goes with content.

        ``'none'``: the pre-LN sum, ``c_i = w_i + t``, ``p_i = p_i`` (the paper's Assumption 3.1
        taken literally on the embeddings). The logits of Eq. 8 are then those of a model
        without the embedding LayerNorm, not MiniLM's.

    Returns
    -------
    C, P : ndarray, shape (n, d)

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from petheory import coupling
    >>> rng = np.random.default_rng(0)
    >>> layer = SimpleNamespace(word=rng.normal(size=(10, 8)), position=rng.normal(size=(6, 8)),
    ...                         token_type=rng.normal(size=8), ln_gamma=np.ones(8), ln_beta=np.zeros(8), ln_eps=1e-12)
    >>> C, P = coupling.bert_inputs(layer, [1, 4, 2], layernorm="none")
    >>> C.shape, P.shape
    ((3, 8), (3, 8))
    """
    v.choice("layernorm", layernorm, LAYERNORM_RULES)
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValidationError(f"token_ids must be a non-empty 1-D integer array, got shape {ids.shape} dtype {ids.dtype}")
    n = ids.size
    if n > layer.position.shape[0]:
        raise ValidationError(f"token_ids has {n} tokens but the model has {layer.position.shape[0]} positions")
    if ids.min() < 0 or ids.max() >= layer.word.shape[0]:
        raise ValidationError(f"token_ids must lie in [0, {layer.word.shape[0]}), got range [{ids.min()}, {ids.max()}]")
    w = layer.word[ids] + layer.token_type  # (n, d)
    p = layer.position[:n]  # (n, d)
    if layernorm == "none":
        return w, p.copy()
    x = w + p
    sigma = np.sqrt(x.var(axis=1) + layer.ln_eps)[:, None]  # (n, 1), biased variance as torch
    centre = lambda a: a - a.mean(axis=1, keepdims=True)  # noqa: E731  (Π a)
    return layer.ln_gamma * centre(w) / sigma + layer.ln_beta, layer.ln_gamma * centre(p) / sigma
