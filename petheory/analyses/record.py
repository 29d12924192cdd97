r"""What every analysis record is: a frozen dataclass with named fields, serialised by one function, rendering itself.

statsmodels' pattern: a result prints itself (``str(rec)``, ``rec.lines()``, ``rec.markdown()``, and
``_repr_html_`` in a notebook); callers print the record, they do not walk its dict. A record holds the theory's
result objects (a :class:`petheory.geometry.induced.StressReport`, a :class:`petheory.scheme.Scheme`) rather than
copying their fields. The JSON of a record is :func:`to_json` of it, the one serialiser of every record:

* a :class:`Record` gives its fields in declaration order, each under its name or the ``key`` of its field
  metadata (:func:`item`: ``from`` is a Python keyword); a field declared with ``omit=True`` is left out while it
  is None (a key the JSON has only sometimes, such as a section's ``note``); a field declared with
  ``inline=True`` puts its own keys in place of itself (a section that *is* a Toeplitz summary plus its layers);
  a record whose JSON also carries what a held object gives (a report's ``model_type``, its scheme's) names its
  keys in order in ``json_keys``, fields and properties alike;
* an object with ``as_dict()`` (a theory result: :class:`petheory.toeplitz.eigen.EigenEstimate`, a
  :class:`petheory.scheme.Scheme`) gives that;
* numpy scalars and arrays become Python numbers and lists, tuples become lists, dicts keep their order (keys as
  strings); a float that is not finite becomes its string (``"inf"``: JSON has no infinity).

:func:`from_json` is its inverse, by the fields' type annotations: a record's JSON gives the record back, its held
theory objects rebuilt by their ``from_dict``, so that ``to_json(from_json(cls, d)) == d``. What does not fit the
types (a missing or unknown key, a property's key that disagrees with the held object) is refused with a
``ValueError`` that names where.

Examples
--------
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Bin(Record):
...     start: int = item(key="from")
...     to: int = 0
...     note: str | None = item(default=None, omit=True)
>>> to_json(Bin(1, 4))
{'from': 1, 'to': 4}
>>> from_json(Bin, {'from': 1, 'to': 4})
Bin(start=1, to=4, note=None)
"""

from __future__ import annotations

import dataclasses
import functools
import html
import math
import types
import typing
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from petheory.errors import InvalidInput
from petheory.rounding import json_number


def item(*, key: str | None = None, omit: bool = False, inline: bool = False, json: bool = True, **kwargs):
    """A record field stored under ``key`` in the JSON (default its name); ``omit``: left out while it is None.

    Parameters
    ----------
    key : str, optional
        The JSON key, where it cannot be the field's name (``from``).
    omit : bool
        Leave the key out of the JSON while the value is None (the default ``None`` is then implied).
    inline : bool
        Put the value's own keys in the JSON in place of this field (the value is a :class:`Record` or None).
    json : bool
        False: the field is never in the JSON (data a record keeps for its callers, such as a plan candidate's
        frequencies, which its JSON gives as a summary).
    **kwargs
        Passed on to :func:`dataclasses.field` (``default``, ``default_factory``).

    Returns
    -------
    dataclasses.Field
        The field, with ``key`` and ``omit`` in its metadata.

    Examples
    --------
    >>> item(key="from").metadata["key"]
    'from'
    """
    if omit:
        kwargs.setdefault("default", None)
    return dataclasses.field(metadata={"key": key, "omit": omit, "inline": inline, "json": json}, **kwargs)


def to_json(x):
    """The JSON form of a record, a theory result, numpy data or plain data (see the module docstring).

    Parameters
    ----------
    x : object
        A :class:`Record`, an object with ``as_dict()``, a numpy scalar or array, a list, tuple or dict of those,
        or a JSON scalar.

    Returns
    -------
    object
        Dicts, lists, str, int, float, bool and None only.

    Examples
    --------
    >>> to_json({"a": np.float64(0.5), "b": (np.int64(1), np.arange(2))})
    {'a': 0.5, 'b': [1, [0, 1]]}
    """
    if isinstance(x, Record):
        fields = {f.name: f for f in dataclasses.fields(x)}
        out = {}
        for name in x.json_keys or fields:
            f = fields.get(name)
            if f is None:  # a property: what a held object gives, under the key the JSON has always had
                out[name] = to_json(getattr(x, name))
                continue
            val = getattr(x, name)
            if f.metadata.get("omit") and val is None or f.metadata.get("json") is False:
                continue
            if f.metadata.get("inline"):
                out.update(to_json(val) if val is not None else {})
            else:
                out[f.metadata.get("key") or f.name] = to_json(val)
        return out
    if hasattr(x, "as_dict") and not isinstance(x, type):  # before tuples: ExtremeEigenvalues is one
        return to_json(x.as_dict())
    if isinstance(x, dict):
        return {str(k): to_json(val) for k, val in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_json(val) for val in x]
    if isinstance(x, np.ndarray):
        return to_json(x.tolist())
    if isinstance(x, np.generic):
        return to_json(x.item())
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return x


@dataclass(frozen=True)
class Record:
    """Base of every analysis record and of its parts: :meth:`as_dict` (the JSON), and rendering.

    A subclass renders itself by overriding :meth:`lines` (plain text, one string a line) and, where its Markdown
    differs from those lines, :meth:`markdown`; ``str(rec)`` is its lines joined and ``_repr_html_`` shows the
    Markdown in a notebook. :func:`from_json` reads its JSON back.

    Attributes
    ----------
    json_keys : tuple of str
        Class constant: the JSON's keys in order, fields and properties, where the record's JSON also carries what a
        held object gives (a property's key is checked against the held object on reading); empty: the fields in
        declaration order.
    """

    json_keys: ClassVar[tuple] = ()

    def as_dict(self) -> dict:
        """The record as JSON-able data (:func:`to_json`).

        Returns
        -------
        dict
            The JSON object the CLI writes with ``--json``.
        """
        return to_json(self)

    @classmethod
    def from_dict(cls, data: dict):
        """The record :meth:`as_dict` wrote, its held theory objects rebuilt (:func:`from_json`).

        Parameters
        ----------
        data : dict
            Parsed JSON of a record of this class.

        Returns
        -------
        Record
            An instance of this class, with ``rec.as_dict() == data``.
        """
        return from_json(cls, data)

    def lines(self) -> list[str]:
        """The record as plain-text lines (the CLI's terminal output where the command prints it as text).

        Returns
        -------
        list of str
            One line each, without newlines.
        """
        return [repr(self)]

    def markdown(self) -> str:
        """The record as Markdown (default: its lines as a code block).

        Returns
        -------
        str
            Markdown text.
        """
        return "```\n" + "\n".join(self.lines()) + "\n```"

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(str(self)) + "</pre>"


@dataclass(frozen=True)
class Skipped(Record):
    """A part that could not be computed, and why (``{"skipped": why}`` in the JSON).

    Attributes
    ----------
    skipped : str
        Why the part could not be computed.

    Examples
    --------
    >>> Skipped("NoPE: no kernel").as_dict()
    {'skipped': 'NoPE: no kernel'}
    """

    skipped: str

    def lines(self) -> list[str]:
        return [f"not computed: {self.skipped}"]


def from_json(record_type, data):
    """The record (or theory result, or plain data) of type ``record_type`` that :func:`to_json` wrote as ``data``.

    The fields' type annotations say what to rebuild: a :class:`Record` field by field (its key, ``omit`` and
    ``inline`` as :func:`item` declares them), a theory result by its ``from_dict`` (and checked: its JSON must be
    ``data`` again), ``list[T]``, ``tuple[T, ...]`` and ``dict[str, T]`` element by element, a union by the member
    whose keys the data fit (a record's keys; a theory result's fields, so one in a union must write its fields by
    name), a float written as ``"inf"`` as the float. A field declared with ``json=False`` takes
    its default; a bare ``list``, ``tuple`` or ``dict`` keeps its JSON as it is.

    Parameters
    ----------
    record_type : type
        A :class:`Record` subclass, a class with ``from_dict``, or a type annotation (``list[Band] | None``).
    data : object
        Parsed JSON (``json.load``), as :func:`to_json` gives it.

    Returns
    -------
    object
        An instance of ``record_type``, with ``to_json(result) == data``.

    Raises
    ------
    ValueError
        A key missing or unknown, a value of the wrong type, a property's key that disagrees with the held object,
        data no member of a union fits, or a theory result that cannot be rebuilt from what the JSON keeps (a table
        layer's values).

    Examples
    --------
    >>> from petheory.analyses.stress import stress
    >>> from petheory.loaders import resolve_scheme
    >>> rec = stress(resolve_scheme("alibi:slope=0.5"), null_draws=2)
    >>> again = from_json(type(rec), rec.as_dict())
    >>> again.as_dict() == rec.as_dict(), again.scheme == rec.scheme
    (True, True)
    """
    return _load(record_type, data, record_type.__name__ if isinstance(record_type, type) else str(record_type))


def _load(tp, x, where: str):
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is typing.Any or tp is object:
        return x
    if origin in (typing.Union, types.UnionType):
        if x is None and type(None) in args:
            return None
        members = [a for a in args if a is not type(None)]
        if len(members) == 1:
            return _load(members[0], x, where)
        return _load(_member(members, x, where), x, where)
    if origin in (list, tuple):
        if not isinstance(x, list):
            raise ValueError(f"{where}: expected a list, got {type(x).__name__}")
        elem = args[0] if args else typing.Any
        out = [_load(elem, val, f"{where}[{i}]") for i, val in enumerate(x)]
        return tuple(out) if origin is tuple else out
    if origin is dict:
        if not isinstance(x, dict):
            raise ValueError(f"{where}: expected a dict, got {type(x).__name__}")
        return {k: _load(args[1], val, f"{where}.{k}") for k, val in x.items()}
    if tp in (list, tuple, dict):
        if not isinstance(x, list if tp is not dict else dict):
            raise ValueError(f"{where}: expected a {'dict' if tp is dict else 'list'}, got {type(x).__name__}")
        return tuple(x) if tp is tuple else x
    if tp is float:
        x = json_number(x)
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise ValueError(f"{where}: expected a number, got {x!r}")
        return x
    if tp in (int, str, bool):
        if not isinstance(x, tp) or (tp is int and isinstance(x, bool)):
            raise ValueError(f"{where}: expected {tp.__name__}, got {x!r}")
        return x
    if isinstance(tp, type) and issubclass(tp, Record):
        return _load_record(tp, x, where)
    if isinstance(tp, type) and hasattr(tp, "from_dict"):
        if not isinstance(x, dict):
            raise ValueError(f"{where}: expected a {tp.__name__} object, got {type(x).__name__}")
        try:
            obj = tp.from_dict(x)
        except KeyError as exc:
            raise ValueError(f"{where}: missing key {exc} of a {tp.__name__}") from None
        except InvalidInput as exc:  # the theory's own validation of what the JSON holds
            raise ValueError(f"{where}: {exc}") from None
        if to_json(obj) != x:
            raise ValueError(f"{where}: the {tp.__name__} rebuilt from the JSON does not write the same JSON")
        return obj
    raise ValueError(f"{where}: cannot read a {tp!r} from JSON")


@functools.cache
def _layout(cls) -> tuple[dict, dict, dataclasses.Field | None, tuple]:
    """A record class's (field -> type, JSON key -> field, its inline field, its property keys)."""
    hints = typing.get_type_hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.metadata.get("json") is not False]
    keys = {f.metadata.get("key") or f.name: f for f in fields if not f.metadata.get("inline")}
    inline = [f for f in fields if f.metadata.get("inline")]
    names = {f.name for f in dataclasses.fields(cls)}
    props = tuple(k for k in cls.json_keys if k not in names)
    return hints, keys, inline[0] if inline else None, props


def _required(cls) -> set:
    _, keys, _, props = _layout(cls)
    return {k for k, f in keys.items() if not f.metadata.get("omit") and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING} | set(props)


def _member(members, x, where: str):
    """The member of a union that ``x`` fits: a list for a list, else the record (or the theory result, by its
    fields' names) whose keys ``x`` has."""
    if isinstance(x, list):
        fit = [m for m in members if typing.get_origin(m) in (list, tuple) or m in (list, tuple)]
    elif isinstance(x, dict):
        fit = []
        for m in members:
            if isinstance(m, type) and issubclass(m, Record):
                _, keys, inline, props = _layout(m)
                if _required(m) <= set(x) and (inline is not None or set(x) <= set(keys) | set(props)):
                    fit.append(m)
            elif isinstance(m, type) and hasattr(m, "from_dict") and dataclasses.is_dataclass(m):
                # a theory result in a union is told by its fields' names, the keys its as_dict writes them under
                names = {f.name for f in dataclasses.fields(m)}
                required = {f.name for f in dataclasses.fields(m)
                            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
                if required <= set(x) <= names:
                    fit.append(m)
            elif m is dict:
                fit.append(m)
    else:
        fit = [m for m in members if isinstance(m, type) and isinstance(x, m)
               or m is float and isinstance(x, (int, str))]
    if len(fit) != 1:
        names = " | ".join(getattr(m, "__name__", str(m)) for m in members)
        raise ValueError(f"{where}: {'no' if not fit else 'more than one'} type of {names} fits "
                         f"{sorted(x) if isinstance(x, dict) else type(x).__name__}")
    return fit[0]


def _load_record(cls, x, where: str):
    if not isinstance(x, dict):
        raise ValueError(f"{where}: expected a {cls.__name__} object, got {type(x).__name__}")
    hints, keys, inline, props = _layout(cls)
    own = set(keys) | set(props)
    extra = [k for k in x if k not in own]
    if extra and inline is None:
        raise ValueError(f"{where}: unexpected key {extra[0]!r} for a {cls.__name__} (its keys: {', '.join(own)})")
    kwargs = {}
    for key, f in keys.items():
        if key in x:
            kwargs[f.name] = _load(hints[f.name], x[key], f"{where}.{key}")
        elif f.metadata.get("omit"):
            kwargs[f.name] = None
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"{where}: missing key {key!r} of a {cls.__name__}")
    if inline is not None:
        rest = {k: x[k] for k in extra}
        kwargs[inline.name] = None if not rest and inline.default is None else _load(hints[inline.name], rest, where)
    obj = cls(**kwargs)
    for key in props:
        if key not in x:
            raise ValueError(f"{where}: missing key {key!r} of a {cls.__name__}")
        if to_json(getattr(obj, key)) != x[key]:
            raise ValueError(f"{where}: key {key!r} is {x[key]!r} but the record's own objects give "
                             f"{to_json(getattr(obj, key))!r}")
    return obj
