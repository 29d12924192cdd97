"""Input validation shared by every public function.

Each helper raises ``ValueError`` or ``TypeError`` with a message that names the argument,
says what was received and what is expected. The CLI turns these into one-line errors.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable

import numpy as np

from petheory.errors import ValidationError, ValidationTypeError


def integer(name: str, value, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as a Python int, checking type and range."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValidationTypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValidationError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValidationError(f"{name} must be <= {maximum}, got {value}")
    return value


def even(name: str, value) -> int:
    value = integer(name, value, minimum=2)
    if value % 2:
        raise ValidationError(f"{name} must be even (features come in sin/cos or rotation pairs), got {value}")
    return value


def real(name: str, value, *, positive: bool = False, nonnegative: bool = False) -> float:
    """Return ``value`` as a finite float, optionally requiring a sign."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValidationTypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not np.isfinite(value):
        raise ValidationError(f"{name} must be finite, got {value}")
    if positive and value <= 0:
        raise ValidationError(f"{name} must be > 0, got {value}")
    if nonnegative and value < 0:
        raise ValidationError(f"{name} must be >= 0, got {value}")
    return value


def boolean(name: str, value) -> bool:
    """Return ``value`` as a bool; only ``True``/``False`` (or numpy bools) are accepted, not truthy values."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValidationTypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def choice(name: str, value, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        raise ValidationError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
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
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValidationTypeError(f"seed must be a non-negative integer or numpy.random.Generator, got {seed!r}")
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
