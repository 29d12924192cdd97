"""Tables of absolute position vectors, from a ``.npy``, a safetensors file, a torch checkpoint or a model directory.

See :func:`load_position_embeddings` (and the sources listed in :mod:`petheory.loaders`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from petheory.loaders.files import load_npy, read_safetensor, safetensors_header, torch_state
from petheory.loaders import limits, safe_json
from petheory.loaders.hf import ModelWeights, resolve_hf_dir
from petheory.errors import ValidationError

__all__ = ["POSITION_KEYS", "LoadedEncoding", "load_position_embeddings"]

#: Tensor-name endings recognised as learned absolute position tables.
POSITION_KEYS = ("position_embeddings.weight", "wpe.weight", "embed_positions.weight")


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
            raise ValidationError(f"{source} has no tensor {key!r}; it has: {_tensor_list(tensors)}")
        return key
    hits = sorted(k for k in keys if k.endswith(POSITION_KEYS))
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise ValidationError(f"{source} has several position tables ({', '.join(hits)}); choose one with key")
    raise LookupError(source)


def _as_table(arr: np.ndarray, source: str) -> np.ndarray:
    """``arr`` as an (N, d) float64 table, refused unless it has at least 2 rows (positions to compare) and
    finite entries small enough that its Gram ``P P^T`` is finite (:func:`petheory.loaders.limits.table_abs_max`)."""
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValidationError(f"a position table must be 2-D (positions, d), got shape {arr.shape} from {source}")
    if arr.shape[0] < 2:
        raise ValidationError(f"the position table from {source} has shape {arr.shape}: one position; a table needs at "
                              "least 2 positions (rows) to have distances, a spectrum or a stress")
    if not np.all(np.isfinite(arr)):
        raise ValidationError(f"the position table from {source} has {int(np.sum(~np.isfinite(arr)))} NaN/inf entries")
    table = np.ascontiguousarray(arr, dtype=np.float64)
    big, cap = float(np.max(np.abs(table))), limits.table_abs_max(table.shape[1])
    if big > cap:
        raise ValidationError(f"the position table from {source} has entries as large as {big:.3g}: its Gram P P^T would "
                              f"overflow float64 (|P| <= sqrt(1.8e308 / d) = {cap:.3g} for d = {table.shape[1]}); rescale it")
    return table


def _no_table_message(directory: Path, looked: str) -> str:
    hint = ""
    cfg = directory / "config.json"
    if cfg.is_file():
        try:
            c = safe_json.read_json(cfg, what="config.json", max_bytes=limits.CONFIG_MAX_BYTES)
        except (ValueError, OSError):
            c = {}
        c = c if isinstance(c, dict) else {}
        if "rope_theta" in c or c.get("position_embedding_type") == "rotary" or "rotary_dim" in c:
            hint = " Its config describes rotary positions: use --pe rope with its d and base."
        elif c.get("alibi") or c.get("position_embedding_type") == "alibi" or "alibi" in str(c.get("model_type", "")):
            hint = " Its config describes ALiBi biases: use --pe alibi."
        elif c.get("relative_attention_num_buckets"):
            hint = " Its config describes T5 relative buckets: use --pe t5."
    return (
        f"{directory} has no learned position embeddings (looked for tensors ending in "
        f"{', '.join(POSITION_KEYS)} in {looked}).{hint}"
    )



def _from_state(state: dict, source: str, key: str | None) -> tuple[np.ndarray, str, str]:
    k = _pick_key(state, source, key)
    t = state[k]
    dtype = str(getattr(t, "dtype", "")).replace("torch.", "")
    arr = t.detach().to("cpu").float().numpy() if hasattr(t, "detach") else np.asarray(t)
    return arr, k, dtype


def _load_dir(directory: Path, key: str | None) -> LoadedEncoding:
    weights = ModelWeights(directory)  # the directory's layout: a sharded index, or *.safetensors then pytorch_model.bin
    if weights.sharded:
        (index,) = weights.files
        try:
            k = _pick_key(index.tensors, str(index.path), key)
        except LookupError:
            raise ValidationError(_no_table_message(directory, index.path.name)) from None
        arr, dt = read_safetensor(index.file_of(k), k)
        return LoadedEncoding(_as_table(arr, str(directory)), str(directory), k, dt)
    for f in weights.files:
        try:
            if f.kind == "torch":
                arr, k, dt = _from_state(f.tensors, str(f.path), key)
            else:
                k = _pick_key(f.tensors, str(f.path), key)
                arr, dt = read_safetensor(f.path, k)
        except LookupError:
            continue
        return LoadedEncoding(_as_table(arr, str(directory)), str(directory), k, dt)
    looked = ", ".join(f.path.name for f in weights.files)
    if key is not None:
        raise ValidationError(f"{directory} has no tensor {key!r} (looked in {looked})")
    raise ValidationError(_no_table_message(directory, looked))


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

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> from safetensors.numpy import save_file
    >>> tmp = tempfile.TemporaryDirectory()
    >>> d = pathlib.Path(tmp.name)
    >>> np.save(d / "pe.npy", np.arange(8, dtype=np.float32).reshape(4, 2))
    >>> pe = load_position_embeddings(d / "pe.npy")
    >>> pe.table.shape, pe.table.dtype, pe.dtype
    ((4, 2), dtype('float64'), 'float32')

    In a model directory, the one tensor whose name ends in one of :data:`POSITION_KEYS`:

    >>> save_file({"embeddings.position_embeddings.weight": np.zeros((16, 4), np.float16),
    ...            "embeddings.word_embeddings.weight": np.zeros((8, 4), np.float16)}, str(d / "model.safetensors"))
    >>> pe = load_position_embeddings(f"hf:{d}")
    >>> pe.key, pe.table.shape, pe.dtype
    ('embeddings.position_embeddings.weight', (16, 4), 'F16')
    >>> np.save(d / "one.npy", np.zeros((1, 4)))
    >>> load_position_embeddings(d / "one.npy")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: the position table from ... has shape (1, 4): one position; a table needs at ...
    >>> tmp.cleanup()
    """
    s = str(spec)
    if s.startswith("hf:"):
        return _load_dir(resolve_hf_dir(s[3:]), key)
    path = Path(s).expanduser()
    if path.is_dir():
        return _load_dir(path, key)
    if not os.path.lexists(path):
        raise FileNotFoundError(f"no such file: {path}")
    suffix = path.suffix.lower()
    if suffix == ".npy":
        arr = load_npy(path)
        if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool) or np.iscomplexobj(arr):
            raise ValidationError(f"{path} must hold a real numeric array, got dtype {arr.dtype}")
        return LoadedEncoding(_as_table(arr.astype(np.float64), str(path)), str(path), None, str(arr.dtype))
    if suffix == ".safetensors":
        header = safetensors_header(path)
        if key is None and len(header) == 1:
            k = next(iter(header))
        else:
            try:
                k = _pick_key(header, str(path), key)
            except LookupError:
                raise ValidationError(
                    f"{path} holds {len(header)} tensors and none ends in {', '.join(POSITION_KEYS)}; choose one with "
                    f"key: {_tensor_list(header)}"
                ) from None
        arr, dt = read_safetensor(path, k)
        return LoadedEncoding(_as_table(arr, str(path)), str(path), k, dt)
    if suffix in (".bin", ".pt", ".pth"):
        try:
            arr, k, dt = _from_state(torch_state(path), str(path), key)
        except LookupError:
            raise ValidationError(f"{path} has no tensor ending in {', '.join(POSITION_KEYS)}; choose one with key") from None
        return LoadedEncoding(_as_table(arr, str(path)), str(path), k, dt)
    raise ValidationError(f"unsupported encoding file {path.name!r}: a position table is .npy, .safetensors or "
                          "pytorch_model.bin (or hf:DIR); a model is PATH/config.json, hf:DIR or gguf:FILE")
