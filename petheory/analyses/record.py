r"""What every analysis record is: a frozen dataclass with named fields, serialised by one function, rendering itself.

statsmodels' pattern: a result prints itself (``str(rec)``, ``rec.lines()``, ``rec.markdown()``, and
``_repr_html_`` in a notebook); callers print the record, they do not walk its dict. The JSON of a record is
:func:`to_json` of it, the one serialiser of every record:

* a :class:`Record` gives its fields in declaration order, each under its name or the ``key`` of its field
  metadata (:func:`item`: ``from`` is a Python keyword); a field declared with ``omit=True`` is left out while it
  is None (a key the JSON has only sometimes, such as a section's ``note``); a field declared with
  ``inline=True`` puts its own keys in place of itself (a section that *is* a Toeplitz summary plus its layers);
* an object with ``as_dict()`` (a theory result: :class:`petheory.toeplitz.eigen.EigenEstimate`, a
  :class:`petheory.scheme.Scheme`) gives that;
* numpy scalars and arrays become Python numbers and lists, tuples become lists, dicts keep their order (keys as
  strings); a float that is not finite becomes its string (``"inf"``: JSON has no infinity).

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
"""

from __future__ import annotations

import dataclasses
import html
import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np


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
        out = {}
        for f in dataclasses.fields(x):
            val = getattr(x, f.name)
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
    Markdown in a notebook.
    """

    def as_dict(self) -> dict:
        """The record as JSON-able data (:func:`to_json`).

        Returns
        -------
        dict
            The JSON object the CLI writes with ``--json``.
        """
        return to_json(self)

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
class Section(Record):
    """A layer kind's part of a record: its own fields, and the result it holds in the field named by ``_inner``
    (None with ``skipped``), whose fields read through (``sec.lambda_min`` for ``sec.summary.lambda_min``)."""

    _inner: ClassVar[str] = "result"

    def __getattr__(self, name):  # only for names the section itself does not have
        if name.startswith("_") or name == self._inner:
            raise AttributeError(name)
        inner = object.__getattribute__(self, self._inner)
        if inner is None:
            raise AttributeError(f"{name}: this layer kind was skipped ({object.__getattribute__(self, 'skipped')})")
        return getattr(inner, name)


@dataclass(frozen=True)
class Skipped(Record):
    """A part that could not be computed, and why (``{"skipped": why}`` in the JSON).

    Examples
    --------
    >>> Skipped("NoPE: no kernel").as_dict()
    {'skipped': 'NoPE: no kernel'}
    """

    skipped: str

    def lines(self) -> list[str]:
        return [f"not computed: {self.skipped}"]
