"""The one TOML reader: size, nesting depth and values checked as :mod:`petheory.loaders.safe_json` checks JSON.

``tomllib`` recurses once per nested array or inline table, so a document nested 3000 deep ends in a
``RecursionError``; TOML also has ``nan`` and ``inf`` floats and date/time values, which no grid
field takes. Here the depth is counted before parsing (strings and comments left out), and the
parsed document is walked once more without recursion: nesting (dotted keys and table headers
nest too), non-finite floats, integers beyond int64 and date/time values are refused with the
field named (limits: :mod:`petheory.loaders.limits`).

>>> loads('task = "running_sum"\\nseed = [0, 1]', source="grid.toml")
{'task': 'running_sum', 'seed': [0, 1]}
>>> loads('lr = nan', source="grid.toml")
Traceback (most recent call last):
...
petheory.errors.ValidationError: grid.toml: field 'lr' is nan; expected a finite number
"""

from __future__ import annotations

import datetime
import math
import re

from petheory.errors import ValidationError
from petheory.loaders import limits
from petheory.loaders.paths import read_limited
from petheory.loaders.safe_json import bracket_depth

__all__ = ["loads", "read_toml"]

# multi-line strings first, then one-line basic and literal strings, then comments
_SKIP = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*', re.DOTALL)


def _depth(text: str) -> int:
    """Deepest nesting of ``[``/``{`` outside strings and comments (no recursion)."""
    return bracket_depth(_SKIP.sub('""', text).encode("utf-8"))


def _problem(x, depth: int):
    if depth > limits.TOML_MAX_DEPTH:
        return f"nested more than {limits.TOML_MAX_DEPTH} levels deep; TOML files petheory reads nest at most that"
    if isinstance(x, float) and not math.isfinite(x):
        return f"{x}; expected a finite number"
    if isinstance(x, int) and not isinstance(x, bool) and abs(x) > limits.JSON_INT_MAX:
        return "an integer out of range; expected |n| <= 2**63 - 1"
    if isinstance(x, (datetime.date, datetime.time)):
        return f"a date/time ({x}); no field petheory reads takes one"
    return None


def _find_bad(obj):
    """(field path, problem) of the first refused value in ``obj`` (walked with a stack); None if there is none."""
    stack = [("", obj, 0)]
    while stack:
        path, x, depth = stack.pop()
        why = _problem(x, depth)
        if why is not None:
            return path, why
        if isinstance(x, dict):
            stack.extend((f"{path}.{k}" if path else str(k), v, depth + 1) for k, v in reversed(list(x.items())))
        elif isinstance(x, list):
            stack.extend((f"{path}[{i}]", v, depth + 1) for i, v in reversed(list(enumerate(x))))
    return None


def loads(text, *, source: str) -> dict:
    """Parse TOML text or UTF-8 bytes from ``source`` (a file name, for messages) within :mod:`~petheory.loaders.limits`.

    Parameters
    ----------
    text : str or bytes
        The document.
    source : str
        Where it came from, for messages.

    Returns
    -------
    dict
        The parsed document.

    Raises
    ------
    ValidationError
        Not UTF-8, nested deeper than ``TOML_MAX_DEPTH``, not TOML, or a value petheory does not read (a
        non-finite float, an integer beyond 64 bits, a date).

    Examples
    --------
    >>> loads('grid = {pe = ["rope", "alibi"]}', source="g.toml")
    {'grid': {'pe': ['rope', 'alibi']}}
    """
    import tomllib

    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ValidationError(f"{source} is not UTF-8 text (invalid byte at offset {exc.start})") from None
    depth = _depth(text)
    if depth > limits.TOML_MAX_DEPTH:
        raise ValidationError(f"{source} nests {depth} levels deep; TOML files petheory reads nest at most "
                              f"{limits.TOML_MAX_DEPTH} levels")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidationError(f"{source} is not valid TOML ({exc})") from None
    except RecursionError:  # pragma: no cover - the depth check above comes first
        raise ValidationError(f"{source} nests too deeply") from None
    bad = _find_bad(doc)
    if bad is not None:
        where, what = bad
        raise ValidationError(f"{source}: field {where!r} is {what}")
    return doc


def read_toml(path, *, what: str = "TOML file", max_bytes: int = limits.TOML_MAX_BYTES) -> dict:
    """The TOML document in regular file ``path`` (at most ``max_bytes``), read by :func:`loads`.

    Parameters
    ----------
    path : str or pathlib.Path
        A regular file.
    what : str, optional
        What the file is, for messages.
    max_bytes : int, optional
        The largest file read.

    Returns
    -------
    dict
        The parsed document.

    Raises
    ------
    ValidationError
        Not a regular file, too large, or not a TOML document :func:`loads` reads.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "g.toml"
    >>> _ = p.write_text("seeds = [0, 1]")
    >>> read_toml(p)
    {'seeds': [0, 1]}
    """
    return loads(read_limited(path, max_bytes, what=what), source=str(path))
