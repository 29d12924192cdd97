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


class InvalidInput(Exception):
    """Base of the errors that mean "the input is wrong" (not "petheory is wrong")."""


class ValidationError(InvalidInput, ValueError):
    """A value is out of range, malformed or inconsistent; the message names it, what was expected and a fix.

    The message speaks the library's terms: a parameter as ``name=value`` (what an API user types), or as its bare
    ``name`` when no value is meant. ``params`` maps each parameter the message names so to that value (None: the
    bare name), so that a front end can say it in its own words: the ``petheory`` command writes its flag
    (``rtol=1e-08`` -> ``--rtol 1e-08``; :func:`petheory.cli.in_cli_terms`).

    Parameters
    ----------
    *args : str
        The message (one string, as for ``ValueError``).
    params : dict, optional
        Each parameter the message names -> its value (None: named bare).

    Attributes
    ----------
    params : dict
        As given (empty when none).

    Examples
    --------
    >>> from petheory.errors import ValidationError
    >>> e = ValidationError("pass hermitian_part=True to analyse (T + T^H)/2", params={"hermitian_part": True})
    >>> str(e), e.params
    ('pass hermitian_part=True to analyse (T + T^H)/2', {'hermitian_part': True})
    """

    def __init__(self, *args, params: dict | None = None):
        super().__init__(*args)
        self.params = dict(params or {})


class ValidationTypeError(InvalidInput, TypeError):
    """A value has the wrong type; the message names it and the type expected."""


class NoMatchError(ValidationError):
    """A selection pattern (a claim or figure glob) matches nothing; a caller that can suggest a name catches this.

    Parameters
    ----------
    *args : str
        The message.
    params : dict, optional
        The parameters it names, as for :class:`ValidationError`.

    Examples
    --------
    >>> from petheory.errors import NoMatchError, ValidationError
    >>> issubclass(NoMatchError, ValidationError)
    True
    """


class NotAMetricError(ValidationError):
    """A bias's logit gaps give a negative distance (the bias favours another key over the query's own position),
    so ``bias_map='gap'`` is no metric for it; ``bias_map='hellinger'`` is.

    Parameters
    ----------
    *args : str
        The message.
    params : dict, optional
        The parameters it names, as for :class:`ValidationError`.

    Examples
    --------
    >>> from petheory.errors import NotAMetricError, ValidationError
    >>> issubclass(NotAMetricError, ValidationError)
    True
    """


__all__ = ["InvalidInput", "NoMatchError", "NotAMetricError", "ValidationError", "ValidationTypeError"]
