"""The registry of positional encodings by name, and the validation every encoding shares.

Three kinds (``KINDS``), one calling convention each (see :mod:`petheory.encodings`). Encodings
register themselves with :func:`register`; plugins do the same, from a module or an entry point in
the ``petheory.encodings`` group (:mod:`petheory.plugins`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory.errors import ValidationError

KINDS = ("absolute", "bias", "rotary")


@dataclass(frozen=True)
class EncodingInfo:
    """What the registry knows about one encoding."""

    name: str
    kind: str
    fn: Callable
    summary: str
    conventions: str
    source: str
    params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "summary": self.summary,
            "conventions": self.conventions,
            "source": self.source,
            "params": {k: _jsonable(p) for k, p in self.params.items()},
        }


def _jsonable(x):
    if x is inspect.Parameter.empty:
        return "<required>"
    if isinstance(x, (bool, int, float, str)) or x is None:
        return x
    return repr(x)


_REGISTRY: dict[str, EncodingInfo] = {}


def register(name: str, kind: str, *, conventions: str = "", source: str = "", overwrite: bool = False):
    """Decorator adding an encoding function to the registry under ``name``.

    The function's first docstring line becomes its summary; its keyword parameters (those
    after ``n`` and, for absolute and rotary kinds, ``d``) are listed by ``petheory encodings``.
    """
    v.choice("kind", kind, KINDS)
    if not isinstance(name, str) or not name.strip():
        raise ValidationError(f"encoding name must be a non-empty string, got {name!r}")

    def deco(fn: Callable) -> Callable:
        if name in _REGISTRY and not overwrite and _REGISTRY[name].fn is not fn:
            raise ValidationError(f"encoding {name!r} is already registered; pass overwrite=True to replace it")
        sig = inspect.signature(fn)
        positional = 1 if kind == "bias" else 2
        params = {p.name: p.default for p in list(sig.parameters.values())[positional:]}
        summary = (inspect.getdoc(fn) or "").split("\n", 1)[0]
        _REGISTRY[name] = EncodingInfo(name, kind, fn, summary, conventions, source, params)
        return fn

    return deco


def get(name: str) -> Callable:
    """The encoding function registered under ``name``.

    See Also
    --------
    available : every registered name.
    info : kind, parameters, conventions and source of an entry.

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.get('sinusoidal')(4, 8).shape
    (4, 8)
    >>> encodings.get('alibi')(3).shape
    (3, 3)
    """
    return info(name).fn


def info(name: str) -> EncodingInfo:
    """The registry entry of ``name``: its function, kind, parameters with defaults, conventions and source.

    See Also
    --------
    get, available

    Examples
    --------
    >>> from petheory import encodings
    >>> i = encodings.info('alibi')
    >>> i.kind, sorted(i.params)
    ('bias', ['form', 'slope'])
    """
    _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValidationError(f"unknown encoding {name!r}; registered: {', '.join(sorted(_REGISTRY))}") from None


def catalogue(kind: str | None = None):
    """The registered encodings (optionally of one kind) as a table: name, kind, parameters with their defaults (a
    required one by its name alone), conventions; what ``petheory encodings`` prints.

    Parameters
    ----------
    kind : {None, 'absolute', 'bias', 'rotary'}
        Only encodings of this kind.

    Returns
    -------
    petheory.texttable.TextTable

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.catalogue('bias').rows[0][:3]
    ('alibi', 'bias', "slope=1.0, form='symmetric'")
    """
    from petheory.texttable import TextTable

    def params(i: EncodingInfo) -> str:
        return ", ".join(k if p is inspect.Parameter.empty else f"{k}={_jsonable(p)!r}" for k, p in i.params.items())

    rows = tuple((i.name, i.kind, params(i) or "-", i.conventions) for i in map(info, available(kind)))
    return TextTable("petheory encodings", ("name", "kind", "parameters (defaults)", "conventions"), rows, last_width=80)


def available(kind: str | None = None) -> list[str]:
    """Registered names, optionally of one kind, sorted.

    See Also
    --------
    get, info

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.available('bias')[:3]
    ['alibi', 'fire', 'kerple_log']
    >>> 'rope_yarn' in encodings.available('rotary')
    True
    """
    if kind is not None:
        v.choice("kind", kind, KINDS)
    _load_plugins()
    return sorted(k for k, i in _REGISTRY.items() if kind is None or i.kind == kind)


def _load_plugins() -> None:
    from petheory.plugins import load_entry_points

    load_entry_points("petheory.encodings")


def _positions(n: int, start) -> np.ndarray:
    start = v.integer("start", start, minimum=0)
    return start + np.arange(n, dtype=np.float64)


def table_shape(n, d, *, even: bool = False) -> tuple[int, int]:
    """Validated ``(n, d)`` of an (n, d) position table (kinds ``absolute`` and ``rotary``, plugins too).

    ``n >= 1`` positions and ``d >= 1`` dimensions (even with ``even=True``, as rotary pairs need);
    a table that cannot fit in memory is refused (:class:`petheory._memory.MemoryLimitError`)
    before anything is allocated.

    Examples
    --------
    >>> from petheory.encodings import table_shape
    >>> table_shape(16, 8, even=True)
    (16, 8)
    """
    n = v.integer("n", n, minimum=1)
    d = v.even("d", d) if even else v.integer("d", d, minimum=1)
    # the (n, d) table and about two temporaries of its size (angles, sin/cos halves)
    _memory.require(_memory.array_bytes(n, d, itemsize=3 * 8), f"positional encoding table (n = {n}, d = {d})",
                    alternative="use a smaller n or d")
    return n, d


def _bias_n(n) -> int:
    """``n`` of an (n, n) bias matrix, refused before allocating when it cannot fit."""
    n = v.integer("n", n, minimum=1)
    # the (n, n) matrix and two temporaries (offsets, buckets or |i-j|)
    _memory.require(_memory.array_bytes(n, n, itemsize=3 * 8), f"bias encoding matrix (dense n x n, n = {n})",
                    alternative="a Toeplitz bias's spectrum takes the O(n) FFT path from its first column "
                    "(petheory.toeplitz.operator, extreme_eigenvalues)")
    return n
