"""The one JSON reader: depth, number range, duplicate keys and text checked at read time (limits: :mod:`petheory.loaders.limits`).

``json.loads`` alone accepts what the JSON specification (RFC 8259) does not promise to mean the
same everywhere, and what later code cannot use: ``NaN``/``Infinity`` literals, ``1e400`` (inf),
``10**400`` (an ``OverflowError`` in the first float operation), duplicate keys (readers disagree
on which wins), lone UTF-16 surrogates (not text; printing them fails), and a document nested
:math:`10^5` deep (a ``RecursionError``). Here each is refused with a :class:`ValidationError` that names
the file and the field (``rope_scaling.factor``), before any caller sees the value.

>>> loads('{"rope_theta": 5e5, "rope_scaling": {"factor": 8}}', source="config.json")
{'rope_theta': 500000.0, 'rope_scaling': {'factor': 8}}
>>> loads('{"rope_scaling": {"factor": 1e400}}', source="config.json")
Traceback (most recent call last):
...
petheory.errors.ValidationError: config.json: field 'rope_scaling.factor' is 1e400, which overflows float64; expected a finite number (|x| <= 1.8e308)
"""

from __future__ import annotations

import json
import math
import re

import numpy as np

from petheory.errors import ValidationError
from petheory.loaders import limits
from petheory.loaders.paths import read_limited

__all__ = ["loads", "read_json", "bracket_depth"]

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Bad:
    """A number the parser hooks refused; found (with its field path) after parsing."""

    __slots__ = ("what",)

    def __init__(self, what: str):
        self.what = what


class _Duplicate(Exception):
    pass


def _parse_int(s: str):
    digits = len(s.lstrip("-"))
    if digits > limits.JSON_INT_MAX_DIGITS:
        return _Bad(f"an integer of {digits} digits, out of range; expected |n| <= 2**63 - 1")
    n = int(s)
    if abs(n) > limits.JSON_INT_MAX:
        return _Bad(f"the integer {s}, out of range; expected |n| <= 2**63 - 1")
    return n


def _parse_float(s: str):
    x = float(s)
    if not math.isfinite(x):
        return _Bad(f"{s}, which overflows float64; expected a finite number (|x| <= 1.8e308)")
    return x


def _parse_constant(s: str):
    return _Bad(f"{s} (not a JSON number: NaN/Infinity and nan/inf are not accepted); expected a finite number")


def _pairs(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise _Duplicate(k)
        obj[k] = v
    return obj


def _depth(raw: bytes) -> int:
    """Deepest nesting of ``[``/``{`` outside strings (vectorised: no recursion, no per-character Python loop)."""
    return bracket_depth(_STRING.sub(b'""', raw))


def bracket_depth(body: bytes) -> int:
    """Deepest nesting of ``[``/``{`` in ``body`` (strings already removed by the caller: JSON's or TOML's).

    Parameters
    ----------
    body : bytes
        The document's text without its string literals.

    Returns
    -------
    int
        The largest number of brackets open at once.

    Examples
    --------
    >>> bracket_depth(b'{"a": [[1], {}]}')
    3
    """
    a = np.frombuffer(body, dtype=np.uint8)
    step = np.isin(a, (ord("["), ord("{"))).astype(np.int64) - np.isin(a, (ord("]"), ord("}"))).astype(np.int64)
    return int(np.cumsum(step).max()) if step.size else 0


def _find_bad(obj):
    """(field path, problem) of the first refused value or lone surrogate in ``obj``; None if there is none."""
    stack = [("", obj)]
    while stack:
        path, x = stack.pop()
        if isinstance(x, _Bad):
            return path, x.what
        if isinstance(x, str):
            if _SURROGATE.search(x):
                return path, "text with a lone UTF-16 surrogate (not valid Unicode)"
        elif isinstance(x, dict):
            for k, v in reversed(list(x.items())):
                kpath = f"{path}.{k}" if path else str(k)
                if _SURROGATE.search(k):
                    return kpath.encode("utf-8", "backslashreplace").decode(), "a key with a lone UTF-16 surrogate"
                stack.append((kpath, v))
        elif isinstance(x, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(x))))
    return None


def loads(data, *, source: str, max_depth: int = limits.JSON_MAX_DEPTH, bom: bool = True):
    """Parse JSON text or UTF-8 bytes from ``source`` (a file name, for messages) within :mod:`~petheory.loaders.limits`.

    ``bom``: a leading UTF-8 byte order mark is ignored (RFC 8259 lets a parser do so); with
    ``bom=False`` it is refused (the safetensors header must start with ``{``).

    Parameters
    ----------
    data : str or bytes-like
        The JSON text, or its UTF-8 encoding.
    source : str
        Where the text came from (a file name), the first word of every message.
    max_depth : int, optional
        The deepest nesting of ``[``/``{`` accepted, counted before parsing
        (default :data:`~petheory.loaders.limits.JSON_MAX_DEPTH`).
    bom : bool, optional
        Whether a leading UTF-8 byte order mark is skipped (True) or refused (False).

    Returns
    -------
    object
        The document, as ``json.loads`` gives it (dict, list, str, int, float, bool or None).

    Raises
    ------
    ValidationError
        Not UTF-8, nested deeper than ``max_depth``, not JSON, a duplicate key, ``NaN``/``Infinity``,
        a float that overflows, an integer beyond int64, or a lone surrogate (the message names the field).

    Examples
    --------
    >>> loads(b'\\xef\\xbb\\xbf{"n_positions": 512}', source="config.json")  # a byte order mark is skipped
    {'n_positions': 512}
    >>> loads('{"a": 1, "a": 2}', source="config.json")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: config.json: duplicate key 'a' in one object (JSON readers disagree on which ...
    >>> loads("[[[0]]]", source="record.json", max_depth=2)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: record.json nests 3 levels deep; JSON files petheory reads nest at most 2 levels
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if raw.startswith(b"\xef\xbb\xbf"):
        if not bom:
            raise ValidationError(f"{source}: starts with a UTF-8 byte order mark; expected a JSON object starting with '{{'")
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{source} is not UTF-8 text (invalid byte {raw[exc.start]:#04x} at offset {exc.start})") from None
    depth = _depth(raw)
    if depth > max_depth:
        raise ValidationError(f"{source} nests {depth} levels deep; JSON files petheory reads nest at most {max_depth} levels")
    try:
        obj = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant,
                         object_pairs_hook=_pairs)
    except _Duplicate as exc:
        raise ValidationError(f"{source}: duplicate key {exc.args[0]!r} in one object (JSON readers disagree on which "
                              "value wins); keep one") from None
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{source} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise ValidationError(f"{source} nests too deeply") from None
    bad = _find_bad(obj)
    if bad is not None:
        where, what = bad
        raise ValidationError(f"{source}: field {where!r} is {what}" if where else f"{source}: the document is {what}")
    return obj


def read_json(path, *, what: str = "JSON file", max_bytes: int = limits.JSON_MAX_BYTES):
    """The JSON document in regular file ``path`` (at most ``max_bytes``), read by :func:`loads`.

    Parameters
    ----------
    path : str or os.PathLike
        The file (read by :func:`petheory.loaders.paths.read_limited`).
    what : str, optional
        What the caller expects there (``"config.json"``), for the size message.
    max_bytes : int, optional
        The largest file accepted, in bytes (default :data:`~petheory.loaders.limits.JSON_MAX_BYTES`).

    Returns
    -------
    object
        The document, as :func:`loads` gives it; messages name the file by ``str(path)``.

    Raises
    ------
    FileNotFoundError
        No such file.
    ValidationError
        Not a regular file, too large, not UTF-8, not JSON, or beyond a limit (the message names the field).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> tmp = tempfile.TemporaryDirectory()
    >>> p = pathlib.Path(tmp.name) / "config.json"
    >>> _ = p.write_text('{"rope_theta": 10000, "rope_scaling": {"factor": NaN}}')
    >>> read_json(p)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...config.json: field 'rope_scaling.factor' is NaN (not a JSON number: ...
    >>> _ = p.write_text('{"rope_theta": 10000}')
    >>> read_json(p, what="config.json")
    {'rope_theta': 10000}
    >>> read_json(p, what="config.json", max_bytes=8)
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: ...config.json has 21 bytes; a config.json of at most 8 bytes (0 MiB) is accepted
    >>> tmp.cleanup()
    """
    return loads(read_limited(path, max_bytes, what=what), source=str(path))
