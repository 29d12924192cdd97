"""The exceptions petheory raises on purpose for bad input, so the CLI can tell them from bugs.

Every check of a user's value (a size, a parameter, a spec string, a file's contents) raises
:class:`ValidationError` (a ``ValueError``) or :class:`ValidationTypeError` (a ``TypeError``): code
that catches ``ValueError``/``TypeError`` keeps working, and the ``petheory`` command maps exactly
these (and :class:`InvalidInput` in general) to one line on stderr and exit code 2. Any other
exception, a ``ValueError`` from deep inside numpy included, is a bug: exit 1 and a traceback file.

>>> from petheory import errors
>>> issubclass(errors.ValidationError, ValueError) and issubclass(errors.ValidationError, errors.InvalidInput)
True
"""

from __future__ import annotations

import numbers
import os


class InvalidInput(Exception):
    """Base of the errors that mean "the input is wrong" (not "petheory is wrong")."""


class ValidationError(InvalidInput, ValueError):
    """A value is out of range, malformed or inconsistent; the message names it, what was expected and a fix.

    The message speaks the library's terms: a parameter as ``name=value`` (what an API user types), or as its bare
    ``name``. The ``petheory`` command's flag for a parameter is the same word (each flag's dest is the keyword it
    feeds); a refusal of one declared value is a :class:`ParameterError`, which the command says with the flag.
    Raised with one argument, the message, as a ``ValueError``.

    Examples
    --------
    >>> from petheory.errors import ValidationError
    >>> str(ValidationError("pass hermitian_part=True to analyse (T + T^H)/2"))
    'pass hermitian_part=True to analyse (T + T^H)/2'
    """


class ValidationTypeError(InvalidInput, TypeError):
    """A value has the wrong type; the message names it and the type expected."""


class NoMatchError(ValidationError):
    """A selection pattern (a claim or figure glob) matches nothing; a caller that can suggest a name catches this.
    Raised with one argument, the message.

    Examples
    --------
    >>> from petheory.errors import NoMatchError, ValidationError
    >>> issubclass(NoMatchError, ValidationError)
    True
    """


class NotAMetricError(ValidationError):
    """A bias's logit gaps give a negative distance (the bias favours another key over the query's own position),
    so ``bias_map='gap'`` is no metric for it; ``bias_map='hellinger'`` is. Raised with one argument, the message.

    Examples
    --------
    >>> from petheory.errors import NotAMetricError, ValidationError
    >>> issubclass(NotAMetricError, ValidationError)
    True
    """


class ParameterError(ValidationError, ValidationTypeError):
    """A parameter's value misses its declared constraint (:func:`petheory._validate.check`): ``"<name> must be
    <expected>, got <value>"``. A ``ValueError`` and a ``TypeError`` alike (scikit-learn's
    ``InvalidParameterError``), whichever of the two was wrong.

    ``name``, ``expected`` and ``value`` are kept apart, so that a front end names the parameter in its own words
    (:meth:`said_as`: the ``petheory`` command writes the flag the user typed) without rewriting the sentence.
    ``owner`` is the public function whose declared parameter it is (None for a check inside the library, whose
    ``name`` may be another function's word): the command says a flag only for its own declared parameters.

    Parameters
    ----------
    name : str
        The parameter's name.
    expected : str
        What its declaration accepts, in words.
    value : object
        The value given.
    owner : callable, optional
        The public function whose declared parameter it is.
    whole : bool, default False
        Show the value whole in the message (a path, which cut short names no file); else at most 80 characters.

    Examples
    --------
    >>> e = ParameterError("length", ">= 1", 0)
    >>> str(e), e.said_as("--length")
    ('length must be >= 1, got 0', '--length must be >= 1, got 0')
    """

    def __init__(self, name: str, expected: str, value, *, owner=None, whole: bool = False):
        self.name, self.expected, self.value, self.shown = name, expected, value, _shown(value, whole=whole)
        self.owner = owner  # the function whose declaration of `name` refused the value (None: a helper's check)
        super().__init__(self.said_as(name))

    def said_as(self, name: str) -> str:
        """The message with the parameter called ``name``."""
        return f"{name} must be {self.expected}, got {self.shown}"

    def __reduce__(self):  # picklable (a process pool sends it back): rebuilt from its fields
        return _rebuilt, (type(self), self.name, self.expected, self.value, self.owner, self.shown)


def _rebuilt(cls, name, expected, value, owner, shown):
    """A :class:`ParameterError` unpickled: its fields and its message as they were."""
    err = cls(name, expected, value, owner=owner)
    err.shown = shown
    err.args = (err.said_as(name),)
    return err


def _shown(value, *, whole: bool = False) -> str:
    """A value as a message shows it: a number, a string, None, True/False or a short list of them as written, an
    array by its dtype and shape, anything else with its type (at most 80 characters; ``whole``, and a path or a list of paths, not cut: a path cut
    short names no file)."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool) and hasattr(value, "item"):
        value = value.item()  # a numpy scalar reads as the Python number it is
    elif hasattr(value, "shape") and hasattr(value, "dtype"):  # an array (numpy, torch): what it is, not its numbers
        return f"a {value.dtype} array of shape {tuple(value.shape)}"
    paths = isinstance(value, os.PathLike) or (isinstance(value, (list, tuple)) and len(value) > 0
                                               and all(isinstance(x, os.PathLike) for x in value))
    if isinstance(value, (list, tuple)):  # a path reads as the text the user gave (a run set: --run A --run B)
        value = [os.fspath(x) if isinstance(x, os.PathLike) else x for x in value]
    elif isinstance(value, os.PathLike):
        value = os.fspath(value)
    items = isinstance(value, (list, tuple)) and all(isinstance(x, (numbers.Number, str)) for x in value)
    text = "[" + ", ".join(map(repr, value)) + "]" if items else repr(value)  # a list or a tuple: one way
    text = text if len(text) <= 80 or paths or whole else text[:77] + "..."
    plain = items or value is None or isinstance(value, (numbers.Number, str))
    return text if plain else f"{type(value).__name__} {text}"


__all__ = ["InvalidInput", "NoMatchError", "NotAMetricError", "ParameterError", "ValidationError",
           "ValidationTypeError"]
