r"""gu2025 Eq. 8 on a real model: the logit terms of one head of a BERT model's first attention layer.

The model is read here (:func:`petheory.loaders.load_bert_first_layer`, :func:`petheory.loaders.minilm_token_ids`);
the terms are computed by :mod:`petheory.coupling`, which reads no file. Used by the ``coupling.minilm_terms``
figure and the claims' tests alike (one definition).
"""

from __future__ import annotations

import math

from petheory import _validate as v
from petheory import coupling
from petheory.loaders.hf import load_bert_first_layer, minilm_token_ids


def minilm_terms(
    n: int = 64, *, head: int = 0, layernorm: str = "split", text: str | None = None, seed=0, spec: str = "hf:minilm",
    layer=None,
):
    """gu2025 Eq. 8 terms (:class:`petheory.coupling.LogitTerms`) of one head of a BERT model's first layer
    (default all-MiniLM-L6-v2): loads the model, then computes (:mod:`petheory.coupling`).

    ``layer``: an already loaded :class:`petheory.loaders.BertFirstLayer` (skips loading).

    Uses the model's learned positions, real token embeddings (:func:`minilm_token_ids`),
    its query/key weights and biases, scale ``1/sqrt(d_head)`` and ``B = 0`` (BERT has no logit
    bias; the padding mask is not used). See :func:`petheory.coupling.bert_inputs` for the LayerNorm rule.
    """
    layer = load_bert_first_layer(spec) if layer is None else layer
    head = v.integer("head", head, minimum=0, maximum=layer.num_heads - 1)
    ids = minilm_token_ids(n, text=text, seed=seed, spec=spec)
    C, P = coupling.bert_inputs(layer, ids, layernorm=layernorm)
    return coupling.logit_terms(
        C, P, layer.W_Q[head], layer.W_K[head], b_Q=layer.b_Q[head], b_K=layer.b_K[head],
        scale=1.0 / math.sqrt(layer.d_head),
    )
