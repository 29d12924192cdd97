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

    Parameters
    ----------
    n : int, optional
        Tokens (positions 0..n-1; default 64).
    head : int, optional
        The head of layer 0 (0 to ``num_heads - 1``; default 0).
    layernorm : {'split', 'none'}, optional
        How the embedding LayerNorm is split into content and position (:func:`petheory.coupling.bert_inputs`).
    text : str, optional
        Text whose tokens are used (repeated to ``n``); None (default): ids drawn at random from the vocabulary's word
        block (:func:`petheory.loaders.minilm_token_ids`).
    seed : int or numpy.random.Generator, optional
        The seed of that draw (default 0).
    spec : str, optional
        The model directory (``hf:DIR``, ``DIR``; default ``hf:minilm``); its vocabulary gives the token ids even
        when ``layer`` is given.
    layer : BertFirstLayer, optional
        The model's first layer, already loaded (default: loaded from ``spec``).

    Returns
    -------
    petheory.coupling.LogitTerms
        ``cc``, ``cp``, ``pc``, ``pp`` and ``bias`` (zero), each (n, n), and ``scale`` ``1/sqrt(d_head)``.

    Raises
    ------
    ValidationError
        ``head`` out of range, a model that is not a BERT layout, a vocabulary without word block, ``text`` that
        gives no tokens, or an invalid ``n`` or ``layernorm``.
    FileNotFoundError
        No such directory (or MiniLM not installed).

    Examples
    --------
    A BERT-layout folder with d = 4, 2 heads and a 7-token vocabulary (random weights):

    >>> import json, tempfile, pathlib
    >>> import numpy as np
    >>> from safetensors.numpy import save_file
    >>> from petheory.loaders.hf import BERT_KEYS
    >>> tmp = tempfile.TemporaryDirectory()
    >>> d = pathlib.Path(tmp.name)
    >>> _ = (d / "config.json").write_text(json.dumps({"model_type": "bert", "num_attention_heads": 2}))
    >>> _ = (d / "vocab.txt").write_text("[PAD]\\n[UNK]\\n[CLS]\\n[SEP]\\nthe\\ncat\\nsat")
    >>> shapes = {"word": (7, 4), "position": (16, 4), "token_type": (2, 4), "ln_gamma": (4,), "ln_beta": (4,),
    ...           "Wq": (4, 4), "Wk": (4, 4), "bq": (4,), "bk": (4,)}
    >>> rng = np.random.default_rng(0)
    >>> save_file({BERT_KEYS[k]: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()},
    ...           str(d / "model.safetensors"))
    >>> t = minilm_terms(6, head=1, spec=f"hf:{d}")
    >>> t.pp.shape, round(t.scale, 4), bool(np.all(t.bias == 0))   # scale 1/sqrt(d_head), d_head = 2
    ((6, 6), 0.7071, True)
    >>> minilm_terms(6, head=2, spec=f"hf:{d}")
    Traceback (most recent call last):
    ...
    petheory.errors.ParameterError: head must be <= 1, got 2
    >>> tmp.cleanup()
    """
    layer = load_bert_first_layer(spec) if layer is None else layer
    head = v.integer("head", head, minimum=0, maximum=layer.num_heads - 1)
    ids = minilm_token_ids(n, text=text, seed=seed, spec=spec)
    C, P = coupling.bert_inputs(layer, ids, layernorm=layernorm)
    return coupling.logit_terms(
        C, P, layer.W_Q[head], layer.W_K[head], b_Q=layer.b_Q[head], b_K=layer.b_K[head],
        scale=1.0 / math.sqrt(layer.d_head),
    )
