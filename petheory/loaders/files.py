"""File formats read safely and offline: ``.npy``, safetensors, torch checkpoints, UTF-8 text corpora.

Each reader checks what a file claims before trusting it (a header's shape against the file size, a
safetensors header's offsets, ``torch.load(weights_only=True)``, UTF-8), and says what was wrong.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import numpy as np

from petheory.errors import ValidationError
from petheory.loaders import limits, safe_json
from petheory.loaders.paths import open_regular, regular_file

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

_NPY_KINDS = "biufc"  # bool, integers, floats, complex (Toeplitz coefficients may be); a position table refuses complex


def load_npy(path) -> np.ndarray:
    """A numeric ``.npy`` array, read without unpickling and checked against its header first.

    The file must be a regular file (:func:`petheory.loaders.paths.open_regular`); its header's
    dtype must be numbers (bool, integers, floats, complex: no objects, strings, structured records
    or datetimes) and its shape non-negative and within the file's size (a
    truncated file, or a header that claims more data than there is, is refused before numpy
    allocates for it) and the memory available (:mod:`petheory._memory`). Fortran order and
    either byte order are read with their values.

    Parameters
    ----------
    path : str or os.PathLike
        The ``.npy`` file.

    Returns
    -------
    numpy.ndarray
        The array with the header's shape and dtype (not converted to float64).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        Not a regular file, not a ``.npy`` file, a dtype that is not numbers, a negative or
        out-of-range shape, a file shorter than its header says, or more than the memory available.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "table.npy"
    >>> np.save(p, np.arange(6.0).reshape(2, 3))
    >>> load_npy(p)
    array([[0., 1., 2.],
           [3., 4., 5.]])
    >>> _ = p.write_bytes(p.read_bytes()[:-8])  # one float64 short of its header's shape
    >>> load_npy(p)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...table.npy is truncated or corrupt: ... (48 bytes) but the file holds 40 bytes...
    >>> tmp.cleanup()
    """
    from petheory import _memory

    path = Path(path)
    with open_regular(path, what=".npy file") as fh:
        size = os.fstat(fh.fileno()).st_size
        try:
            version = np.lib.format.read_magic(fh)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
            offset = fh.tell()
        except (ValueError, OSError, SyntaxError, EOFError, TypeError) as exc:
            raise ValidationError(f"could not read {path} as a numeric .npy array: "
                                  f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
        if dtype.hasobject:
            raise ValidationError(f"could not read {path} as a numeric .npy array: it holds Python objects (dtype object; "
                                  "pickles are never loaded)")
        if dtype.kind not in _NPY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
            raise ValidationError(f"{path} must hold numbers: a numeric array of bool, int, float or complex, got dtype {dtype}")
        if any(int(s) < 0 or int(s) > limits.JSON_INT_MAX for s in shape):
            what = "a negative size" if any(int(s) < 0 for s in shape) else "a size beyond 2**63 - 1"
            shown = shape if max(len(str(s)) for s in shape) <= 24 else f"{len(shape)}-D with a {max(len(str(s)) for s in shape)}-digit size"
            raise ValidationError(f"{path}: the header's shape {shown} has {what}; expected non-negative sizes")
        nbytes = _memory.array_bytes(*shape, itemsize=dtype.itemsize)
        if offset + nbytes > size:
            raise ValidationError(f"{path} is truncated or corrupt: its header says shape {shape} of {dtype} "
                                  f"({nbytes} bytes) but the file holds {size - offset} bytes of data")
        _memory.require(2 * nbytes, f"{path} (shape {shape}, {dtype}, as float64)", alternative="use a smaller file")
        count = int(np.prod(shape)) if shape else 1
        data = np.fromfile(fh, dtype=dtype, count=count) if count else np.empty(0, dtype=dtype)
    if data.size != count:
        raise ValidationError(f"{path} is truncated: {data.size} of {count} values could be read")
    return data.reshape(shape, order="F" if fortran else "C")


# ---------------------------------------------------------------------------- safetensors

#: Bytes per element of every dtype of the safetensors format (to check offsets against shapes).
_ST_ITEMSIZE = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2,
                "I32": 4, "U32": 4, "F32": 4, "F64": 8, "I64": 8, "U64": 8}


def _st_fail(path, name, msg) -> ValidationError:
    return ValidationError(f"{path}: tensor {name!r}: {msg}")


def _st_entry(path, name, meta) -> tuple:
    """(dtype, shape, begin, end) of one header entry, each field checked (see :func:`safetensors_header`)."""
    if not isinstance(meta, dict):
        raise _st_fail(path, name, f"must be an object with dtype, shape and data_offsets, got {type(meta).__name__}")
    for field in ("dtype", "shape", "data_offsets"):
        if field not in meta:
            raise _st_fail(path, name, f"field {field!r} is missing; every tensor has dtype, shape and data_offsets")
    dt, shape, offsets = meta["dtype"], meta["shape"], meta["data_offsets"]
    if not isinstance(dt, str):
        raise _st_fail(path, name, f"field 'dtype' must be text such as 'F32', got {dt!r:.40}")

    def is_int(x):
        return isinstance(x, int) and not isinstance(x, bool)

    if not isinstance(shape, list) or not all(is_int(s) and s >= 0 for s in shape):
        raise _st_fail(path, name, f"field 'shape' must be a list of non-negative integers, got {shape!r:.60}")
    if (not isinstance(offsets, list) or len(offsets) != 2 or not all(is_int(b) for b in offsets)
            or not 0 <= offsets[0] <= offsets[1]):
        raise _st_fail(path, name, f"field 'data_offsets' must be two integers 0 <= begin <= end, got {offsets!r:.60}")
    b0, b1 = offsets
    if dt in _ST_ITEMSIZE:
        need = _memory_bytes(shape, _ST_ITEMSIZE[dt])
        if need != b1 - b0:
            raise _st_fail(path, name, f"field 'shape' {shape} of {dt} needs {need} bytes but data_offsets give "
                                       f"{b1 - b0} bytes ({b0}..{b1})")
    return dt, tuple(shape), b0, b1


def _memory_bytes(shape, itemsize: int) -> int:
    n = itemsize
    for s in shape:
        n *= s
    return n


def safetensors_header(path) -> dict:
    """The JSON header of a safetensors file: ``name -> {dtype, shape, data_offsets}``, checked against the format.

    As the safetensors specification (and its reference reader) requires: an 8-byte little-endian
    header length of at most :data:`~petheory.loaders.limits.SAFETENSORS_HEADER_MAX_BYTES` that fits
    the file; a UTF-8 JSON object starting with ``{`` (read by :mod:`petheory.loaders.safe_json`:
    depth, numbers, duplicate names); every tensor with ``dtype``, ``shape`` (non-negative
    integers) and ``data_offsets`` (``0 <= begin <= end``, as many bytes as the shape needs);
    the tensors' byte ranges contiguous from 0, without overlap or gap, within the file.
    Only the header is read, never the tensors' data.

    Parameters
    ----------
    path : str or os.PathLike
        The safetensors file.

    Returns
    -------
    dict
        Tensor name -> ``{"dtype": str, "shape": list, "data_offsets": [begin, end]}``, as stored;
        the optional ``__metadata__`` entry is checked (an object) and left out.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        Not a regular file, or a header that breaks one of the rules above (the message names
        the tensor and the field).

    Examples
    --------
    >>> import json, struct, tempfile, pathlib
    >>> def write(path, header, data):
    ...     h = json.dumps(header).encode()
    ...     _ = path.write_bytes(struct.pack("<Q", len(h)) + h + data)
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "model.safetensors"
    >>> write(p, {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]},
    ...           "__metadata__": {"format": "pt"}}, bytes(16))
    >>> safetensors_header(p)
    {'w': {'dtype': 'F32', 'shape': [2, 2], 'data_offsets': [0, 16]}}
    >>> write(p, {"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 12]}}, bytes(12))
    >>> safetensors_header(p)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...model.safetensors: tensor 'w': field 'shape' [2, 2] of F32 needs 16 bytes but ...
    >>> tmp.cleanup()
    """
    path = Path(path)
    with open_regular(path, what="safetensors file") as fh:
        size = os.fstat(fh.fileno()).st_size
        head = fh.read(8)
        if len(head) < 8:
            raise ValidationError(f"{path} is not a safetensors file (shorter than its 8-byte header length)")
        (hlen,) = struct.unpack("<Q", head)
        if hlen > limits.SAFETENSORS_HEADER_MAX_BYTES:
            raise ValidationError(f"{path}: safetensors header of {hlen} bytes; the format allows at most "
                                  f"{limits.SAFETENSORS_HEADER_MAX_BYTES} ({limits.SAFETENSORS_HEADER_MAX_BYTES >> 20} MiB)")
        if hlen <= 1 or 8 + hlen > size:
            raise ValidationError(f"{path} is not a safetensors file (header length {hlen} does not fit the file of "
                                  f"{size} bytes)")
        raw = fh.read(hlen)
    try:
        header = safe_json.loads(raw, source=f"{path}: its header", bom=False)
    except ValidationError as exc:
        raise ValidationError(f"{path} is not a safetensors file: {str(exc).removeprefix(f'{path}: ')}") from None
    if not isinstance(header, dict):
        raise ValidationError(f"{path} is not a safetensors file: its header must be a JSON object (name -> tensor), "
                              f"got a JSON {type(header).__name__}")
    meta = header.pop("__metadata__", None)
    if meta is not None and not isinstance(meta, dict):
        raise ValidationError(f"{path}: field '__metadata__' must be an object of text, got {type(meta).__name__}")
    spans = sorted((_st_entry(path, name, m)[2:], name) for name, m in header.items())
    data_len, end, prev = size - 8 - hlen, 0, None
    for (b0, b1), name in spans:
        if b0 < end:
            raise _st_fail(path, name, f"field 'data_offsets' {b0}..{b1} overlap those of {prev!r} (..{end})")
        if b0 > end:
            raise _st_fail(path, name, f"field 'data_offsets' start at {b0}: bytes {end}..{b0} are a gap that belongs "
                                       "to no tensor (the format stores tensors contiguously)")
        end, prev = b1, name
    if end > data_len:
        raise _st_fail(path, prev, f"is truncated: data_offsets end at byte {end} of the data, the file holds "
                                   f"{data_len} data bytes; re-download or re-save the file")
    return header


def read_safetensor(path, key: str) -> tuple[np.ndarray, str]:
    """One tensor of a safetensors file as float64 (reads only its bytes); returns (array, dtype).

    The header is checked first (:func:`safetensors_header`) and the memory the tensor needs
    (:mod:`petheory._memory`); then only the tensor's byte range is read. BF16 is widened exactly
    (shifted into the high half of a float32).

    Parameters
    ----------
    path : str or os.PathLike
        The safetensors file.
    key : str
        The tensor's name in the header.

    Returns
    -------
    array : numpy.ndarray
        The tensor as float64, with its stored shape.
    dtype : str
        Its dtype in the file (``'F32'``, ``'BF16'``, ...).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        A bad header, no tensor ``key`` (the message lists up to 20 names), a dtype that is not
        numbers (readable: F64, F32, F16, BF16, I64, I32, I16, I8, U8), or a file shorter than its header says.

    Examples
    --------
    >>> import json, struct, tempfile, pathlib
    >>> import numpy as np
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "model.safetensors"
    >>> h = json.dumps({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}).encode()
    >>> _ = p.write_bytes(struct.pack("<Q", len(h)) + h + np.arange(4, dtype="<f4").tobytes())
    >>> read_safetensor(p, "w")
    (array([[0., 1.],
           [2., 3.]]), 'F32')
    >>> read_safetensor(p, "v")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...model.safetensors has no tensor 'v'; it has: w
    >>> tmp.cleanup()
    """
    path = Path(path)
    header = safetensors_header(path)
    if key not in header:
        raise ValidationError(f"{path} has no tensor {key!r}; it has: {', '.join(sorted(header)[:20])}")
    dt, shape, b0, b1 = _st_entry(path, key, header[key])
    if dt not in _ST_DTYPES:
        raise _st_fail(path, key, f"field 'dtype' is {dt!r}, which petheory cannot read as numbers "
                                  f"(readable: {', '.join(_ST_DTYPES)})")
    npdt = _ST_DTYPES[dt]
    count = int(np.prod(shape)) if shape else 1
    from petheory import _memory

    _memory.require(count * (npdt.itemsize + 8), f"tensor {key!r} of {path} (shape {shape}, {dt}, as float64)")
    with open_regular(path, what="safetensors file") as fh:
        (hlen,) = struct.unpack("<Q", fh.read(8))
        fh.seek(8 + hlen + b0)
        data = fh.read(b1 - b0)
    if len(data) != b1 - b0:  # the file changed since its header was checked
        raise _st_fail(path, key, f"is truncated: the header gives bytes {b0}..{b1} of the data, the file holds "
                                  f"{len(data)} of them; re-download or re-save the file")
    raw = np.frombuffer(data, dtype=npdt, count=count)
    if dt == "BF16":
        raw = (raw.astype(np.uint32) << 16).view(np.float32)
    return raw.astype(np.float64).reshape(shape), dt


# ---------------------------------------------------------------------------- torch checkpoints


def torch_state(path: Path) -> dict:
    """The state dict of a torch checkpoint, read with ``torch.load(weights_only=True, mmap=True)``: never unpickles
    arbitrary objects; a special file is refused before torch opens it, torch's own warnings are not shown (the
    refusal is the one line), and any failure to read it is a ValueError that names the file.

    Parameters
    ----------
    path : pathlib.Path
        The checkpoint (a ``torch.save`` file).

    Returns
    -------
    dict
        What the checkpoint holds (tensors memory-mapped on the CPU), when it is a dict.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        Not a regular file (checked before torch is imported), a file ``torch.load(weights_only=True)``
        cannot read (the message gives torch's first line), or a checkpoint that is not a dict.

    Examples
    --------
    A folder named like a checkpoint is refused before torch is imported:

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory(suffix=".pt") as tmp:
    ...     torch_state(tmp)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ....pt is a directory; expected a torch checkpoint
    """
    import warnings

    path = regular_file(path, what="torch checkpoint")
    try:
        import torch
    except ImportError:  # pragma: no cover - torch is a core dependency
        raise ValidationError(f"reading {path} needs torch; prefer a safetensors file") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
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

    Parameters
    ----------
    path : str or os.PathLike
        The corpus file (a regular file, opened by :func:`petheory.loaders.paths.open_regular`).

    Returns
    -------
    list of str
        Its lines, without their line endings (``str.splitlines``).

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        Not UTF-8 text (the message gives the byte offset), or not a regular file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "corpus.txt"
    >>> _ = p.write_text("the cat\\n\\nsat down\\n", encoding="utf-8")
    >>> read_corpus(p)
    ['the cat', '', 'sat down']
    >>> _ = p.write_bytes(b"caf\\xe9\\n")  # Latin-1, not UTF-8
    >>> read_corpus(p)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: corpus ...corpus.txt is not UTF-8 text (invalid continuation byte at byte 3)
    >>> tmp.cleanup()
    """
    path = Path(path)
    if not os.path.lexists(path):
        raise FileNotFoundError(f"corpus file not found: {path}")
    with open_regular(path, what="corpus file") as fh:
        raw = fh.read()
    try:
        return raw.decode("utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise ValidationError(f"corpus {path} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
