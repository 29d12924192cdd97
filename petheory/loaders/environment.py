"""The environment variables petheory reads, each parsed by one validating reader that names the variable.

``petheory`` checks every variable of :data:`VARIABLES` when it starts (:func:`check_environment`),
so a bad value is one line, ``petheory: error: environment variable NAME=VALUE: ...``, exit 2,
before any work, never a ``ValueError`` from a bare ``int()`` half-way through a figure. The
readers (:func:`env_int`) are what the code that uses a variable calls.

>>> import os; os.environ["PETHEORY_MAX_VOCAB"] = "12"; env_int("PETHEORY_MAX_VOCAB")
12
>>> os.environ["PETHEORY_MAX_VOCAB"] = "4O"; env_int("PETHEORY_MAX_VOCAB")
Traceback (most recent call last):
...
petheory.errors.ValidationError: environment variable PETHEORY_MAX_VOCAB='4O' must be an integer in 1..10000000 (the corpus words the geometry figures keep; default 48)
>>> del os.environ["PETHEORY_MAX_VOCAB"]
"""

from __future__ import annotations

import os
import re

from petheory.errors import ValidationError

__all__ = ["INTEGERS", "VARIABLES", "env_int", "env_commit", "check_environment"]

#: Integer variables: name -> (default, minimum, maximum, what it sets).
INTEGERS = {
    "PETHEORY_MAX_VOCAB": (48, 1, 10**7, "the corpus words the geometry figures keep"),
    "PETHEORY_MIN_COUNT": (100, 1, 2**62, "the observations a position needs in the geometry figures"),
}

#: Every variable petheory reads -> what it does (the reliability guide lists them).
VARIABLES = {
    "PETHEORY_MAX_MEMORY": "memory a computation may use (a size such as 8G)",
    "PETHEORY_CORPUS": "a UTF-8 text corpus the corpus claims and geometry figures read",
    **{name: what for name, (_d, _lo, _hi, what) in INTEGERS.items()},
    "PETHEORY_RUNS": "the runs folder",
    "PETHEORY_RECORDS": "the records folders",
    "PETHEORY_COMMIT": "the git commit a copied tree (no .git) was made from, written into training records",
}


def env_int(name: str) -> int:
    """Integer variable ``name`` of :data:`INTEGERS` (its default when unset or empty), range-checked.

    Parameters
    ----------
    name : str
        One of :data:`INTEGERS` (``PETHEORY_MAX_VOCAB``, ``PETHEORY_MIN_COUNT``).

    Returns
    -------
    int
        The variable's value, or its default.

    Raises
    ------
    ValidationError
        A value that is not an integer in the variable's range; the message names the variable.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("PETHEORY_MIN_COUNT", None) and None
    >>> env_int("PETHEORY_MIN_COUNT") == INTEGERS["PETHEORY_MIN_COUNT"][0]
    True
    """
    default, lo, hi, what = INTEGERS[name]
    raw = os.environ.get(name, "")
    text = raw.strip()
    if not text:
        return default
    if not re.fullmatch(r"[+]?[0-9]{1,19}", text) or not lo <= int(text) <= hi:
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        bound = f">= {lo}" if hi >= 2**62 else f"in {lo}..{hi}"
        raise ValidationError(f"environment variable {name}={shown!r} must be an integer {bound} ({what}; default "
                              f"{default})")
    return int(text)


def env_commit() -> str | None:
    """``$PETHEORY_COMMIT`` when set: a git commit id (7 to 64 hexadecimal digits, as ``git rev-parse`` prints it), the
    one form a record's ``commit`` field takes; None when unset.

    Returns
    -------
    str or None
        The commit id, or None when the variable is unset or empty.

    Raises
    ------
    ValidationError
        Anything else (a newline, a path, a 1 MB value), naming the variable.

    Examples
    --------
    >>> import os; os.environ["PETHEORY_COMMIT"] = "d7e8712"; env_commit()
    'd7e8712'
    >>> os.environ["PETHEORY_COMMIT"] = "main\\nx"; env_commit()
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: environment variable PETHEORY_COMMIT='main\\nx' must be a git commit id (7 to 64 hexadecimal digits, as git rev-parse HEAD prints it); unset it to read the checkout's HEAD
    >>> del os.environ["PETHEORY_COMMIT"]
    """
    import re

    raw = os.environ.get("PETHEORY_COMMIT", "").strip()
    if not raw:
        return None
    if not re.fullmatch(r"[0-9a-f]{7,64}", raw):
        shown = repr(raw[:80])[1:-1] + ("..." if len(raw) > 80 else "")
        raise ValidationError(f"environment variable PETHEORY_COMMIT='{shown}' must be a git commit id (7 to 64 "
                              "hexadecimal digits, as git rev-parse HEAD prints it); unset it to read the checkout's HEAD")
    return raw


def check_environment() -> None:
    """Every variable of :data:`VARIABLES` that is set, parsed once (the CLI calls this before any command).

    Raises
    ------
    ValidationError
        The first variable whose value is not what it must be, named in the message.

    Examples
    --------
    >>> check_environment()   # nothing set wrongly: nothing to say
    """
    from petheory import _memory
    from petheory.data.corpus import env_corpus

    env_corpus()
    env_commit()
    for name in INTEGERS:
        env_int(name)
    raw = os.environ.get(_memory.ENV, "").strip()
    if raw:
        try:
            _memory.parse_size(raw)
        except ValueError as exc:
            raise ValidationError(f"environment variable {_memory.ENV}: {exc}") from None
