"""A GGUF file's header (llama.cpp's format): its metadata and its tensors' names and shapes, never their data.

:func:`read_gguf_header` walks the header once, bounded by the limits of :mod:`petheory.loaders.limits`
(metadata count, tensor count, string and array lengths, header size, dimensions): every length is
checked against the limit and against what is left of the file before a byte of it is trusted, so a
truncated file or one declaring :math:`2^{60}` entries is refused in one line instead of hanging or allocating.
The values petheory reads are decoded on the way; what positions never need is skipped by its
declared size without being materialised: arrays over 4096 elements (a tokenizer's vocabulary,
its merges and scores) are kept as ``('array', n)`` and strings over 4096 bytes as ``('string', n)``,
so the work and memory grow with the header's entries, not with its vocabulary. Tensor data is
never read; the ``gguf`` package (llama.cpp's Python tables; ``pip install -e ".[gguf]"``) gives the
size of each tensor type, to check that every tensor's data lies inside the file.

Regular files only; little-endian files only (llama.cpp's own format; a byte-swapped version field
is named as such).
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass, field

from petheory.errors import ValidationError
from petheory.loaders.limits import (
    GGUF_HEADER_MAX_BYTES,
    GGUF_MAX_ARRAY,
    GGUF_MAX_DIMS,
    GGUF_MAX_KEY_BYTES,
    GGUF_MAX_KV,
    GGUF_MAX_STRING_BYTES,
    GGUF_MAX_TENSORS,
)
from petheory.loaders.paths import open_regular

__all__ = ["GGUFHeader", "read_gguf_header", "scan_gguf_header"]

_MAGIC = b"GGUF"
_VERSIONS = (2, 3)
#: GGUF value types (gguf.GGUFValueType): fixed sizes in bytes; 8 = string, 9 = array.
_FIXED = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
_STRING, _ARRAY = 8, 9
_U64 = struct.Struct("<Q")
#: struct formats of the fixed-size types, as gguf.GGUFValueType numbers them.
_FORMAT = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
#: Arrays longer than this are kept as (element type, length), not as values (vocabularies, merges); strings longer
#: than _KEEP_STRING bytes likewise as ('string', n): positions read short strings (an architecture, a scaling type).
_KEEP_ARRAY = 4096
_KEEP_STRING = 4096


def shown(text, limit: int = 60, *, quote: bool = True) -> str:
    """``text`` (a key or value from a file) for a message: control characters escaped (a newline in a key cannot cut
    the message short), at most ``limit`` characters (a 1 MiB string is not echoed), quoted unless ``quote=False``.

    Parameters
    ----------
    text : object
        What to show (``str()`` of it).
    limit : int, optional
        The most characters of ``text`` shown; a longer one is cut and its length given.
    quote : bool, optional
        Put the text in single quotes (a value) or not (a key, read in running text).

    Returns
    -------
    str
        One line, at most about ``limit`` characters plus the escapes and the length note.

    Examples
    --------

    >>> shown("llama.rope.x\\nlines" + "y" * 100, 24)
    "'llama.rope.x\\\\nlinesyyyyyy'... (118 characters)"
    >>> shown("llama.rope.scale", quote=False)
    'llama.rope.scale'
    """
    text = str(text)
    body = repr(text[:limit])[1:-1]
    body = f"'{body}'" if quote else body
    return body if len(text) <= limit else f"{body}... ({len(text)} characters)"


@dataclass(frozen=True)
class GGUFHeader:
    """What a GGUF header says: ``metadata`` {key: value} (arrays longer than 4096 elements as ``('array', n)``)
    and ``tensors`` {name: shape}, plus the format version and the path.

    Attributes
    ----------
    path : str
        The file read.
    version : int
        The GGUF format version.
    metadata : dict
        Key -> value (an array longer than 4096 elements as ``('array', n)``).
    tensors : dict
        Tensor name -> shape.
    """

    path: str
    version: int
    metadata: dict = field(default_factory=dict)
    tensors: dict = field(default_factory=dict)

    @property
    def architecture(self) -> str | None:
        arch = self.metadata.get("general.architecture")
        return arch if isinstance(arch, str) else None


class _Walk:
    """Bounded reads over the mapped header: each one checked against the file's size and the limits."""

    def __init__(self, buf, path, size: int):
        self.buf, self.path, self.size, self.off = buf, path, size, 0

    def fail(self, what: str) -> ValidationError:
        return ValidationError(f"{self.path}: not a valid GGUF header: {what} (at byte {self.off})")

    def take(self, n: int, what: str) -> int:
        if n < 0 or self.off + n > self.size:
            raise self.fail(f"{what} needs {n} bytes, the file ends {self.size - self.off} bytes later (truncated?)")
        if self.off + n > GGUF_HEADER_MAX_BYTES:
            raise self.fail(f"the header runs past {GGUF_HEADER_MAX_BYTES >> 20} MiB, the limit for a GGUF header")
        start = self.off
        self.off += n
        return start

    def u32(self, what: str) -> int:
        return struct.unpack_from("<I", self.buf, self.take(4, what))[0]

    def u64(self, what: str) -> int:
        return struct.unpack_from("<Q", self.buf, self.take(8, what))[0]

    def string(self, what: str, limit: int, keep: int = _KEEP_STRING):
        """The string's bytes when it has at most ``keep`` of them, else ``('string', n)``: skipped, not copied."""
        n = self.u64(f"{what}'s length")
        if n > limit:
            raise self.fail(f"{what} declares {n} bytes; at most {limit} are accepted")
        start = self.take(n, what)
        return bytes(self.buf[start:start + n]) if n <= keep else ("string", n)

    def skip_strings(self, n: int, key: str) -> None:
        """Step over ``n`` strings (a vocabulary) by their lengths: no bytes copied, nothing kept."""
        unpack, buf, off, end = _U64.unpack_from, self.buf, self.off, min(self.size, GGUF_HEADER_MAX_BYTES)
        for _ in range(n):
            if off + 8 > end:
                break
            length = unpack(buf, off)[0]
            if length > GGUF_MAX_STRING_BYTES or off + 8 + length > end:
                break
            off += 8 + length
        else:
            self.off = off
            return
        self.off = off  # the string that does not fit: the checked reads name what is wrong
        self.string(f"a string of {key}", GGUF_MAX_STRING_BYTES, -1)
        raise self.fail(f"a string of {key} runs past the end of the header")  # not reached: string() refuses

    def text(self, what: str, limit: int, keep: int = _KEEP_STRING):
        raw = self.string(what, limit, keep)
        if isinstance(raw, tuple):
            return raw
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail(f"{what} is not UTF-8 text") from None

    def value(self, vtype: int, key: str, depth: int = 0):
        if vtype in _FIXED:
            return struct.unpack_from("<" + _FORMAT[vtype], self.buf, self.take(_FIXED[vtype], f"the value of {key}"))[0]
        if vtype == _STRING:
            return self.text(f"the string value of {key}", GGUF_MAX_STRING_BYTES)
        if vtype != _ARRAY:
            raise self.fail(f"{key} has value type {vtype}, which is not a GGUF type (0-12)")
        if depth:
            raise self.fail(f"{key} is an array of arrays (llama.cpp reads no nested arrays)")
        etype = self.u32(f"the element type of {key}")
        n = self.u64(f"the length of {key}")
        if n > GGUF_MAX_ARRAY:
            raise self.fail(f"array {key} declares {n} elements; at most {GGUF_MAX_ARRAY} are accepted")
        keep = n <= _KEEP_ARRAY
        if etype in _FIXED:  # skipped by its declared size in one step; values only for a short array
            start = self.take(n * _FIXED[etype], f"the {n} elements of {key}")
            return list(struct.unpack_from(f"<{n}{_FORMAT[etype]}", self.buf, start)) if keep else ("array", n)
        if etype == _STRING:
            if keep:
                return [self.text(f"a string of {key}", GGUF_MAX_STRING_BYTES) for _ in range(n)]
            self.skip_strings(n, key)
            return ("array", n)
        return self.value(etype, key, depth + 1)  # nested array or an unknown type: refused there


def scan_gguf_header(path) -> tuple[int, int, int]:
    """Walk the header of GGUF file ``path`` within the limits; returns (version, metadata count, tensor count).

    Parameters
    ----------
    path : str or path
        The file (a regular file).

    Returns
    -------
    tuple of int
        ``(version, metadata count, tensor count)`` as the header declares them.

    Raises
    ------
    ValidationError
        Naming what is wrong (magic, version, a count or length over its limit or past the end of the file, a
        tensor with more than 4 dimensions or whose data would lie beyond the file).
    FileNotFoundError
        A missing file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "x.gguf"
    >>> _ = p.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + bytes(16))
    >>> scan_gguf_header(p)
    (3, 0, 0)
    >>> tmp.cleanup()
    >>> scan_gguf_header("tests/data/gguf/llama_yarn.gguf")
    (3, 10, 1)
    >>> scan_gguf_header("tests/data/hf_configs/mistral_7b.json")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: tests/data/hf_configs/mistral_7b.json: not a GGUF file (it starts with ...
    """
    version, meta, tensors = _parse(path)
    return version, len(meta), len(tensors)


def _parse(path) -> tuple[int, dict, dict]:
    """(version, metadata, tensors {name: dims}) of the header, walked once within the limits."""
    with open_regular(path, what="GGUF file") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size < 24:
            raise ValidationError(f"{path}: not a GGUF file: {size} bytes, a GGUF header has at least 24")
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            w = _Walk(buf, path, size)
            if buf[:4] != _MAGIC:
                raise ValidationError(f"{path}: not a GGUF file (it starts with {bytes(buf[:4])!r}, not b'GGUF')")
            w.take(4, "the magic")
            version = w.u32("the version")
            if version not in _VERSIONS:
                swapped = int.from_bytes(version.to_bytes(4, "little"), "big")
                raise w.fail(f"version {version}; supported: {', '.join(map(str, _VERSIONS))}" +
                             (" (a big-endian file: llama.cpp's format is little-endian)" if swapped in _VERSIONS else ""))
            n_tensors, n_kv = w.u64("the tensor count"), w.u64("the metadata count")
            if n_kv > GGUF_MAX_KV:
                raise w.fail(f"it declares {n_kv} metadata entries; at most {GGUF_MAX_KV} are accepted")
            if n_tensors > GGUF_MAX_TENSORS:
                raise w.fail(f"it declares {n_tensors} tensors; at most {GGUF_MAX_TENSORS} are accepted")
            meta: dict = {}
            for i in range(n_kv):
                key = w.text(f"metadata key {i}", GGUF_MAX_KEY_BYTES, GGUF_MAX_KEY_BYTES)
                vtype = w.u32(f"the type of metadata entry {i}")
                val = w.value(vtype, f"metadata entry {i} ({shown(key)})")
                if key in meta:
                    raise w.fail(f"metadata key {shown(key)} appears twice (llama.cpp refuses duplicate keys)")
                meta[key] = val
            alignment = meta.get("general.alignment", 32)  # GGUF's default; general.alignment (u32) overrides it
            if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment < 1 or alignment & (alignment - 1):
                raise w.fail(f"general.alignment = {shown(alignment)}; it must be a power of two")
            extents, tensors = [], {}
            for i in range(n_tensors):
                name = w.text(f"the name of tensor {i}", GGUF_MAX_KEY_BYTES, GGUF_MAX_KEY_BYTES)
                n_dims = w.u32(f"the dimension count of tensor {i}")
                if not 1 <= n_dims <= GGUF_MAX_DIMS:
                    raise w.fail(f"tensor {i} has {n_dims} dimensions; GGUF tensors have 1 to {GGUF_MAX_DIMS}")
                dims = [w.u64(f"a dimension of tensor {i}") for _ in range(n_dims)]
                gtype, offset = w.u32(f"the type of tensor {i}"), w.u64(f"the data offset of tensor {i}")
                if name in tensors:
                    raise w.fail(f"tensor name {shown(name)} appears twice")
                tensors[name] = tuple(dims)
                extents.append((i, dims, gtype, offset))
            _check_tensor_extents(w, extents, path, size, alignment)
    return version, meta, tensors


def _check_tensor_extents(w: _Walk, extents, path, size: int, alignment: int) -> None:
    """Each tensor's data must lie inside the file (a header-only check: sizes from gguf's table, no data read)."""
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    start = w.off + (-w.off % alignment)
    for i, dims, gtype, offset in extents:
        try:
            block, nbytes = GGML_QUANT_SIZES[GGMLQuantizationType(gtype)]
        except (ValueError, KeyError):
            raise w.fail(f"tensor {i} has type {gtype}, not a ggml type") from None
        n = 1
        for dim in dims:
            n *= dim
        if n % block or start + offset + n // block * nbytes > size:
            raise ValidationError(f"{path}: tensor {i} ({'x'.join(map(str, dims))}) declares data past the end of the "
                                  f"file ({size} bytes): a truncated or corrupt GGUF file")


def read_gguf_header(path) -> GGUFHeader:
    """The metadata and tensor shapes of GGUF file ``path`` (see the module docstring); tensor data is never read.

    Parameters
    ----------
    path : str or path
        The file, walked once within the limits (see the module docstring).

    Returns
    -------
    GGUFHeader
        Its metadata (arrays over 4096 elements as ``('array', n)``, strings over 4096 bytes as ``('string', n)``),
        its tensors' names and shapes (GGUF's dimension order), the format version and the path.

    Raises
    ------
    ValidationError
        The ``gguf`` package is missing, or the header is refused (as :func:`scan_gguf_header` says: a count,
        length or type out of bounds, text that is not UTF-8, a key or tensor name twice).
    FileNotFoundError
        A missing file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "x.gguf"
    >>> _ = p.write_bytes(b"GGUF" + (3).to_bytes(4, "little") + bytes(16))
    >>> read_gguf_header(p).metadata
    {}
    >>> tmp.cleanup()
    >>> h = read_gguf_header("tests/data/gguf/llama_yarn.gguf")
    >>> h.version, h.architecture, h.metadata["llama.rope.scaling.type"], h.tensors
    (3, 'llama', 'yarn', {'token_embd.weight': (1,)})
    """
    try:
        import gguf  # noqa: F401  (its type table sizes the tensors)
    except ImportError:
        raise ValidationError("reading a GGUF file needs the gguf package (llama.cpp's tensor type tables): pip install -e "
                              "'.[gguf]' from the clone, or pip install gguf") from None
    version, meta, tensors = _parse(path)
    return GGUFHeader(os.fspath(path), version, meta, tensors)
