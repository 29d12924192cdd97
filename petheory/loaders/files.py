"""File formats read safely and offline: ``.npy``, safetensors, torch checkpoints, UTF-8 text corpora.

Each reader checks what a file claims before trusting it (a header's shape against the file size, a
safetensors header's offsets, ``torch.load(weights_only=True)``, UTF-8), and says what was wrong.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

from petheory.errors import ValidationError

__all__ = ["load_npy", "safetensors_header", "read_safetensor", "torch_state", "read_corpus"]

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
        raise ValidationError(f"could not read {path} as a numeric .npy array: {str(exc).splitlines()[0] if str(exc) else exc}") from None
    if dtype.hasobject:
        raise ValidationError(f"could not read {path} as a numeric .npy array: it holds Python objects (pickles are never loaded)")
    nbytes = _memory.array_bytes(*shape, itemsize=dtype.itemsize)
    if offset + nbytes > size:
        raise ValidationError(f"{path} is truncated or corrupt: its header says shape {shape} of {dtype} "
                         f"({nbytes} bytes) but the file holds {size - offset} bytes of data")
    _memory.require(2 * nbytes, f"{path} (shape {shape}, {dtype}, as float64)", alternative="use a smaller file")
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise ValidationError(f"could not read {path} as a numeric .npy array: {exc}") from None


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
            raise ValidationError(f"{path} is not a safetensors file (shorter than its 8-byte header length)")
        (hlen,) = struct.unpack("<Q", head)
        if hlen <= 1 or 8 + hlen > size:
            raise ValidationError(f"{path} is not a safetensors file (header length {hlen} does not fit the file)")
        try:
            header = json.loads(fh.read(hlen).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ValidationError(f"{path} is not a safetensors file (its header is not JSON)") from None
    if not isinstance(header, dict):
        raise ValidationError(f"{path} is not a safetensors file (header is not a JSON object)")
    header.pop("__metadata__", None)
    return header


def read_safetensor(path, key: str) -> tuple[np.ndarray, str]:
    """One tensor of a safetensors file as float64 (reads only its bytes); returns (array, dtype)."""
    path = Path(path)
    header = safetensors_header(path)
    if key not in header:
        raise ValidationError(f"{path} has no tensor {key!r}; it has: {', '.join(sorted(header)[:20])}")
    meta = header[key]
    dt = meta.get("dtype")
    if dt not in _ST_DTYPES:
        raise ValidationError(f"tensor {key!r} in {path} has dtype {dt}, which petheory cannot read as numbers")
    shape = tuple(int(s) for s in meta["shape"])
    b0, b1 = (int(x) for x in meta["data_offsets"])
    hlen = struct.unpack("<Q", path.open("rb").read(8))[0]
    npdt = _ST_DTYPES[dt]
    count = int(np.prod(shape)) if shape else 1
    if b1 - b0 != count * npdt.itemsize:
        raise ValidationError(f"tensor {key!r} in {path}: {b1 - b0} bytes do not hold shape {shape} of {dt}")
    with path.open("rb") as fh:
        fh.seek(8 + hlen + b0)
        data = fh.read(b1 - b0)
    if len(data) != b1 - b0:  # the header promises bytes the file does not have
        raise ValidationError(f"tensor {key!r} in {path} is truncated: the header gives bytes {b0}..{b1} of the data, "
                              f"the file holds {len(data)} of them; re-download or re-save the file")
    raw = np.frombuffer(data, dtype=npdt, count=count)
    if dt == "BF16":
        raw = (raw.astype(np.uint32) << 16).view(np.float32)
    return raw.astype(np.float64).reshape(shape), dt



# ---------------------------------------------------------------------------- torch checkpoints


def torch_state(path: Path) -> dict:
    """The state dict of a torch checkpoint, read with ``torch.load(weights_only=True, mmap=True)``: never unpickles
    arbitrary objects; any failure to read it is a ValueError that names the file."""
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a core dependency
        raise ValidationError(f"reading {path} needs torch; prefer a safetensors file") from None
    try:
        state = torch.load(str(path), map_location="cpu", weights_only=True, mmap=True)
    except Exception as exc:  # noqa: BLE001 - any failure to read a checkpoint is bad input
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValidationError(f"could not load {path} with torch.load(weights_only=True): {msg}") from None
    if not isinstance(state, dict):
        raise ValidationError(f"{path} does not hold a state dict (got {type(state).__name__})")
    return state


# ---------------------------------------------------------------------------- text corpora


def read_corpus(path) -> list[str]:
    """The lines of a UTF-8 text corpus, one sequence per line (blank lines kept: the caller counts them).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not UTF-8 text (the message gives the byte offset).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"corpus file not found: {path}")
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ValidationError(f"corpus {path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
