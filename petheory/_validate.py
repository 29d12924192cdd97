"""Input validation shared by every public function: constraints declared once, checked by one validator.

A public entry point declares what each parameter accepts, in the manner of scikit-learn's
``_parameter_constraints`` / ``validate_params``::

    @validate_params({"length": [Interval(Integral, 1, None), None], "seed": [SEED]})
    def report(scheme, *, length=None, seed=0): ...

:func:`validate_params` checks the declared parameters on every call and keeps the table as the function's
``parameter_constraints``, so that the ``petheory`` command builds each flag from it (its name is the keyword,
its type, choices and range come from the constraint: :mod:`petheory.cli._params`) and checks nothing itself.
Every failure is one sentence in one format, ``"<name> must be <what is expected>, got <value>"``, raised as
:class:`petheory.errors.ParameterError` (a ``ValueError`` and a ``TypeError``, as scikit-learn's
``InvalidParameterError``), which keeps the name apart from the sentence: the CLI says it with the flag the user
typed, never by rewriting text.

The helpers below the constraints (:func:`integer`, :func:`real`, :func:`boolean`, :func:`choice`) are the same
validator for a single value inside the library.
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from collections.abc import Iterable
from numbers import Integral, Real

import numpy as np

from petheory.errors import ParameterError, ValidationError, ValidationTypeError


class Constraint:
    """What one parameter accepts; subclasses say it (:meth:`describe`) and test it (:meth:`failure`).

    ``failure(value)`` is None when ``value`` satisfies the constraint, else what is expected, the sentence's
    middle (``">= 1"``).
    """

    def accepts_type(self, value) -> bool:
        """Whether ``value`` is of a type this constraint is about (its range may still fail)."""
        return self.failure(value) is None

    def failure(self, value):  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def invalid(self):
        """A value this constraint refuses but whose type it accepts (the generated tests feed it), or None."""
        return None


class Interval(Constraint):
    """A number of type ``kind`` (``Integral`` or ``Real``) between ``left`` and ``right`` (None: unbounded).

    ``closed``: ``"left"``, ``"right"``, ``"both"`` or ``"neither"``, as scikit-learn's. A real number must also
    be finite: no silent NaN, and an infinity is no size.

    >>> Interval(Integral, 1, None).failure(0)
    '>= 1'
    >>> Interval(Real, 0, None, closed="neither").describe()
    'a real number > 0'
    """

    def __init__(self, kind, left, right, *, closed: str = "both"):
        if kind not in (Integral, Real):
            raise TypeError(f"Interval kind must be numbers.Integral or numbers.Real, got {kind!r}")
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"closed must be 'left', 'right', 'both' or 'neither', got {closed!r}")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed
        self._sides = tuple(self._bounds())

    def _type_ok(self, value) -> bool:
        t = type(value)
        if t is int or (t is float and self.kind is Real):  # the common case, without the ABC checks
            return True
        return isinstance(value, self.kind) and not isinstance(value, (bool, np.bool_))

    def accepts_type(self, value) -> bool:
        return self._type_ok(value)

    def _bounds(self) -> list[tuple[str, object]]:
        out = []
        if self.left is not None:
            out.append((">=" if self.closed in ("left", "both") else ">", self.left))
        if self.right is not None:
            out.append(("<=" if self.closed in ("right", "both") else "<", self.right))
        return out

    def failure(self, value):
        if not self._type_ok(value):
            return self.type_name()
        x = float(value) if self.kind is Real else int(value)
        if self.kind is Real and not math.isfinite(x):  # no silent NaN; an infinity is no size
            return "finite" + (f" and {self.range_text()}" if self._sides else "")
        for op, bound in self._sides:
            if not (x >= bound if op == ">=" else x > bound if op == ">" else x <= bound if op == "<=" else x < bound):
                return f"{op} {bound}"
        return None

    def type_name(self) -> str:
        return "an integer" if self.kind is Integral else "a real number"

    def range_text(self) -> str:
        return " and ".join(f"{op} {b}" for op, b in self._bounds())

    def describe(self) -> str:
        rng = self.range_text()
        return f"{self.type_name()} {rng}" if rng else self.type_name()

    def invalid(self):
        for op, bound in self._bounds():
            if self.kind is Integral:
                return bound - 1 if op in (">=", ">") else bound + 1
            step = max(1.0, abs(float(bound)))
            return float(bound) - step if op in (">=", ">") else float(bound) + step
        return None


class Even(Interval):
    """An even integer >= 2: a rotary head dimension (coordinates rotate in pairs).

    >>> Even().failure(3), Even().failure(0), Even().failure(4)
    ('an even integer >= 2 (rotary encodings pair coordinates)', 'an even integer >= 2 (rotary encodings pair coordinates)', None)
    """

    def __init__(self):
        super().__init__(Integral, 2, None, closed="left")

    def failure(self, value):
        if not self._type_ok(value):
            return self.describe()
        return None if value >= 2 and value % 2 == 0 else self.describe()

    def describe(self) -> str:
        return "an even integer >= 2 (rotary encodings pair coordinates)"

    def invalid(self):
        return 3


class Options(Constraint):
    """One of a set of values of type ``kind``.

    >>> Options(Integral, {1, 2}).failure(3)
    'one of 1, 2'
    """

    def __init__(self, kind, options):
        self.kind, self.options = kind, tuple(sorted(options, key=str)) if isinstance(options, (set, frozenset)) else tuple(options)

    def accepts_type(self, value) -> bool:
        return isinstance(value, self.kind) and not isinstance(value, (bool, np.bool_)) or value in self.options

    def failure(self, value):
        if value in self.options and isinstance(value, self.kind):
            return None
        return "one of " + ", ".join(map(repr, self.options))

    def describe(self) -> str:
        return "one of " + ", ".join(map(repr, self.options))

    def invalid(self):
        if self.kind is str:
            return "not-" + "-".join(map(str, self.options))[:40]
        return None


class StrOptions(Options):
    """One of a set of strings (the values of a ``method=``, ``kind=``).

    >>> StrOptions({"exact", "slq"}).describe()
    "one of 'exact', 'slq'"
    """

    def __init__(self, options):
        super().__init__(str, options)


class Boolean(Constraint):
    """``True`` or ``False`` (numpy bools too), never a truthy value."""

    def failure(self, value):
        return None if isinstance(value, (bool, np.bool_)) else "True or False"

    def describe(self) -> str:
        return "True or False"


class InstanceOf(Constraint):
    """An instance of ``cls`` (a scheme, a target, a generator), named ``what`` in the message."""

    def __init__(self, cls, what: str | None = None):
        self.cls, self.what = cls, what or f"a {cls.__module__}.{cls.__qualname__}"

    def failure(self, value):
        return None if isinstance(value, self.cls) else self.what

    def describe(self) -> str:
        return self.what


class Callable(Constraint):
    """A function (a progress callback)."""

    def failure(self, value):
        return None if callable(value) else "callable"

    def describe(self) -> str:
        return "callable"


class ExistingPath(Constraint):
    """A path (``str`` or ``os.PathLike``) to something that exists: ``kind`` ``"file"``, ``"dir"`` or ``"any"``."""

    def __init__(self, kind: str = "any"):
        self.kind = kind

    def failure(self, value):
        if not isinstance(value, (str, os.PathLike)):
            return "a path"
        test = {"file": os.path.isfile, "dir": os.path.isdir, "any": os.path.exists}[self.kind]
        return None if test(value) else self.describe()

    def describe(self) -> str:
        return {"file": "an existing file", "dir": "an existing folder", "any": "an existing path"}[self.kind]

    def plural(self) -> str:
        """What a list of such paths is (:class:`Each`)."""
        return {"file": "existing files", "dir": "existing folders", "any": "existing paths"}[self.kind]

    def invalid(self):
        return os.path.join(os.sep, "nonexistent-petheory-path", "x")


class Each(Constraint):
    """A non-empty sequence (not a string) whose every item satisfies ``item``: an :class:`Interval` (the
    ``lengths`` of a table) or an :class:`ExistingPath` (a run set).

    >>> Each(Interval(Integral, 1, None)).failure([4, 0]), Each(ExistingPath()).failure(["/no/such/path"])
    ('integers >= 1', 'existing paths')
    """

    def __init__(self, item: Constraint):
        self.item = item

    def failure(self, value):
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            return self.describe()
        items = list(value)
        if not items:
            return self.describe()
        for x in items:
            bad = self.item.failure(x)
            if bad is not None:
                return self.describe()
        return None

    def describe(self) -> str:
        if isinstance(self.item, ExistingPath):  # a list of paths (a run set)
            return self.item.plural()
        plural = "integers" if self.item.kind is Integral else "real numbers"
        rng = self.item.range_text()
        return f"{plural} {rng}" if rng else plural

    def invalid(self):
        bad = self.item.invalid()
        return None if bad is None else (bad,)


class Array(Constraint):
    """A numeric array (or what ``numpy.asarray`` makes one of): ``ndim`` (an int or a tuple of them), real or
    complex, finite, non-empty, square; the checks :func:`array` makes, declared.

    The function keeps converting its argument itself (``np.asarray(x, dtype=np.float64)``): a declaration checks, it
    does not hand a converted value to the body.

    >>> Array(ndim=2, square=True).failure([[0.0, 1.0]]), Array(ndim=1).failure([1.0, float("nan")])
    ('square', 'finite (found 1 NaN/inf entries)')
    >>> Array(ndim=1).describe(), Array(ndim=1).failure("abc")
    ('a 1-D array of real numbers', 'a 1-D array of real numbers')
    """

    def __init__(self, ndim=None, *, dtype: str = "real", finite: bool = True, nonempty: bool = True,
                 square: bool = False):
        if dtype not in ("real", "complex", "any"):
            raise ValueError(f"Array dtype must be 'real', 'complex' or 'any', got {dtype!r}")
        self.ndim = (ndim,) if isinstance(ndim, int) else ndim
        self.dtype, self.finite, self.nonempty, self.square = dtype, finite, nonempty, square

    @staticmethod
    def _numeric(value):
        """``value`` as an array of numbers, or None."""
        if isinstance(value, (str, bytes)) or value is None:
            return None
        try:
            arr = np.asarray(value)
        except (ValueError, TypeError):  # a ragged list
            return None
        ok = np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
        return arr if ok and arr.dtype != object else None

    def accepts_type(self, value) -> bool:
        return self._numeric(value) is not None

    def failure(self, value):
        arr = self._numeric(value)
        if arr is None:
            return self.describe()
        if self.dtype == "real" and np.iscomplexobj(arr):
            return "real"
        if self.ndim is not None and arr.ndim not in self.ndim:
            return " or ".join(f"{k}-D" for k in self.ndim)
        if self.square and (arr.ndim != 2 or arr.shape[0] != arr.shape[1]):
            return "square"
        if self.nonempty and arr.size == 0:
            return "non-empty"
        if self.finite and arr.size and not np.isfinite(arr).all():
            return f"finite (found {int(arr.size - np.count_nonzero(np.isfinite(arr)))} NaN/inf entries)"
        return None

    def describe(self) -> str:
        dims = "" if self.ndim is None else " or ".join(f"{k}-D" for k in self.ndim) + " "
        numbers = {"real": "real numbers", "complex": "numbers", "any": "numbers"}[self.dtype]
        words = f"{'square ' if self.square else ''}{dims}array of {numbers}"
        return ("an " if words[0] in "a8" else "a ") + words  # an array, an 8-D array

    def invalid(self):
        if not self.finite:
            return None
        k = self.ndim[0] if self.ndim else 1
        return np.full((2,) * k, np.nan)


class NoneValue(Constraint):
    """``None`` (a declaration's ``None`` entry: the parameter may be left out)."""

    def failure(self, value):
        return None if value is None else "None"

    def describe(self) -> str:
        return "None"


def make_constraint(c) -> Constraint:
    """A declaration's entry as a :class:`Constraint`: ``None`` (None allowed), ``"callable"``, a class, or one."""
    if c is None:
        return NoneValue()
    if c == "callable":
        return Callable()
    if c == "boolean":
        return Boolean()
    if isinstance(c, type):
        return InstanceOf(c)
    if isinstance(c, Constraint):
        return c
    raise TypeError(f"not a parameter constraint: {c!r}")


#: A seed: an integer >= 0 (the entry points that take a Generator say so beside it).
SEED = Interval(Integral, 0, None, closed="left")


def check(name: str, value, constraints, *, owner=None) -> None:
    """Check ``value`` of parameter ``name`` against its declared ``constraints`` (a list; any one may hold).

    Raises :class:`petheory.errors.ParameterError` in the one format. Where the value has the type
    of a constraint but misses its range, the message says that range (``"length must be >= 1, got 0"``);
    where no constraint has its type, it lists what is accepted (``"... must be an integer >= 1 or None"``).
    ``owner``: the function whose declaration this is (the error's ``owner``).

    >>> check("length", 0, [Interval(Integral, 1, None), None])
    Traceback (most recent call last):
    ...
    petheory.errors.ParameterError: length must be >= 1, got 0
    """
    for c in constraints:  # the common case: one passes, no list built
        if (c if isinstance(c, Constraint) else make_constraint(c)).failure(value) is None:
            return
    cons = [c if isinstance(c, Constraint) else make_constraint(c) for c in constraints]
    # a path the user typed is shown whole (cut short, it names no file)
    whole = any(isinstance(c, ExistingPath) or (isinstance(c, Each) and isinstance(c.item, ExistingPath)) for c in cons)
    for c in cons:  # the constraint of the value's type speaks: its range was missed
        if c.accepts_type(value):
            raise ParameterError(name, c.failure(value), value, owner=owner, whole=whole)
    wants = [c.describe() for c in cons if not isinstance(c, NoneValue)] or ["None"]  # None: leave it out
    raise ParameterError(name, wants[0] if len(wants) == 1 else ", ".join(wants[:-1]) + " or " + wants[-1], value,
                         owner=owner, whole=whole)


def validate_params(constraints: dict):
    """Declare and check a public function's parameters: ``constraints`` maps a parameter name to a list of
    accepted forms (constraints, ``None``, a class, ``"callable"``, ``"boolean"``).

    Each call checks the declared arguments (given or default) before the function runs; the table is kept as
    ``fn.parameter_constraints`` for the command line and the generated tests. A declared name that the
    function does not take is a programming error, raised at import.

    >>> @validate_params({"length": [Interval(Integral, 1, None)]})
    ... def f(*, length=4):
    ...     return length
    >>> f(length=2), f.parameter_constraints["length"][0].describe()
    (2, 'an integer >= 1')
    """

    def decorate(fn):
        sig = inspect.signature(fn)
        unknown = sorted(set(constraints) - set(sig.parameters))
        if unknown:
            raise TypeError(f"{fn.__qualname__} declares constraints for {unknown}, which it does not take")
        params = list(sig.parameters.values())
        if any(p.kind is p.VAR_POSITIONAL for p in params):
            raise TypeError(f"{fn.__qualname__} takes *args: declare the parameters of a function without them")
        positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        # (name, position or None, default, constraints built once): no signature binding per call (the theory
        # functions run in the claim search's loops)
        plan = tuple((name, params.index(sig.parameters[name]) if sig.parameters[name].kind in positional else None,
                      sig.parameters[name].default, tuple(make_constraint(c) for c in cons))
                     for name, cons in constraints.items())
        empty = inspect.Parameter.empty

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            for name, at, default, cons in plan:
                if at is not None and at < len(args):
                    value = args[at]
                elif name in kwargs:
                    value = kwargs[name]
                elif default is not empty:
                    value = default
                else:
                    continue  # not given and no default: the call itself raises Python's TypeError
                check(name, value, cons, owner=wrapper)
            return fn(*args, **kwargs)

        wrapper.parameter_constraints = dict(constraints)
        return wrapper

    return decorate


def check_params(fn, values: dict) -> None:
    """Check ``values`` (name -> value) against ``fn``'s declaration, without calling ``fn``.

    The CLI runs this on every declared flag before any work, so that a bad value is refused in the
    library's words even where the command reaches the function only later (after reading a model)."""
    table = fn.parameter_constraints
    for name, value in values.items():
        check(name, value, table[name], owner=fn)


@functools.lru_cache(maxsize=256)
def _interval(kind, left, right, closed: str) -> Interval:
    """One :class:`Interval` per distinct range (the helpers below run in hot loops of the claim search)."""
    return Interval(kind, left, right, closed=closed)


def integer(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as a Python int, checking type and range."""
    check(name, value, (_interval(Integral, minimum, maximum, "both"),))
    return int(value)


def even(name: str, value) -> int:
    value = integer(name, value, minimum=2)
    if value % 2:
        raise ValidationError(f"{name} must be even (features come in sin/cos or rotation pairs), got {value}")
    return value


def real(name: str, value, *, positive: bool = False, nonnegative: bool = False) -> float:
    """Return ``value`` as a finite float, optionally requiring a sign."""
    lo = 0 if positive or nonnegative else None
    value = float(value) if isinstance(value, Real) and not isinstance(value, (bool, np.bool_)) else value
    check(name, value, (_interval(Real, lo, None, "left" if nonnegative else "neither"),))
    return value


def boolean(name: str, value) -> bool:
    """Return ``value`` as a bool; only ``True``/``False`` (or numpy bools) are accepted, not truthy values."""
    check(name, value, [Boolean()])
    return bool(value)


def choice(name: str, value, choices: Iterable[str]) -> str:
    check(name, value, [Options(object, tuple(choices))])
    return value


def array(
    name: str,
    value,
    *,
    ndim: int | tuple[int, ...] | None = None,
    dtype: str = "real",
    finite: bool = True,
    nonempty: bool = True,
) -> np.ndarray:
    """Return ``value`` as a numpy array after checking it.

    ``dtype`` is ``"real"`` (float64; complex rejected), ``"complex"`` (complex128; real
    accepted and promoted) or ``"any"`` (float64 or complex128, whichever fits).
    """
    if isinstance(value, (str, bytes)) or value is None:
        raise ValidationTypeError(f"{name} must be an array of numbers, got {type(value).__name__}")
    arr = np.asarray(value)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.bool_)
    ):
        raise ValidationTypeError(f"{name} must be numeric, got dtype {arr.dtype}")
    if dtype == "real":
        if np.iscomplexobj(arr):
            raise ValidationTypeError(f"{name} must be real, got complex dtype {arr.dtype}")
        arr = arr.astype(np.float64, copy=False)
    elif dtype == "complex":
        arr = arr.astype(np.complex128, copy=False)
    elif dtype == "any":
        arr = arr.astype(np.complex128 if np.iscomplexobj(arr) else np.float64, copy=False)
    else:  # pragma: no cover - programming error
        raise AssertionError(dtype)
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in allowed:
            want = " or ".join(f"{k}-D" for k in allowed)
            raise ValidationError(f"{name} must be {want}, got shape {arr.shape}")
    if nonempty and arr.size == 0:
        raise ValidationError(f"{name} must not be empty, got shape {arr.shape}")
    if finite and not np.all(np.isfinite(arr)):
        bad = int(np.size(arr) - np.count_nonzero(np.isfinite(arr)))
        raise ValidationError(f"{name} must be finite, found {bad} NaN/inf entries")
    return arr


def square(name: str, value, **kw) -> np.ndarray:
    arr = array(name, value, ndim=2, **kw)
    if arr.shape[0] != arr.shape[1]:
        raise ValidationError(f"{name} must be square, got shape {arr.shape}")
    return arr


def generator(seed) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a seed, a Generator, or None (seed 0: reproducible)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        seed = 0
    check("seed", seed, [SEED])
    return np.random.default_rng(int(seed))


def scalar(text: str):
    """Parse a command-line value: true/false -> bool, null -> None, then int, float, else str.

    Shared by every ``name:key=value`` spec on the command line (``--pe``), so the same text
    means the same value everywhere. ``none`` stays a string: it is a value of some
    parameters (``wavelet:normalisation=none``); ``null`` is the way to say None."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "null":
        return None
    for cast in (int, float):
        try:
            return cast(t)
        except ValueError:
            pass
    return t
