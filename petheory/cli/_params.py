"""Flags built from the library's declarations: each command's options are the parameters it feeds.

:func:`add_param` declares ``--name`` for parameter ``name`` of a library function decorated with
:func:`petheory._validate.validate_params`: the dest is the keyword, the type, choices and default come from the
function (its constraint and its signature), the help ends with what the constraint accepts. The command checks
nothing itself: :func:`check_declared` runs the same declaration on the parsed values before the command does any
work, so ``petheory report --seed -1`` and ``report(scheme, seed=-1)`` are refused by the same check, in the same
words, the flag standing where the keyword stood (:meth:`petheory.errors.ParameterError.said_as`).
"""

from __future__ import annotations

import argparse
import inspect
from numbers import Integral

from petheory import _validate as v

#: ``add_param(default=FROM_SIGNATURE)``: the function's own default.
FROM_SIGNATURE = object()


def _number(kind):
    """An argparse ``type`` for an ``Interval``: the number, or the text unchanged for the declaration to refuse
    (``--seed must be an integer >= 0, got 'abc'``, the words ``report(seed='abc')`` gets)."""
    cast = int if kind is Integral else float

    def parse(text: str):
        try:
            return cast(text)
        except ValueError:
            return text

    parse.__name__ = cast.__name__
    return parse


def _number_list(kind):
    """An argparse ``type`` for ``Each(Interval(...))``: comma-separated numbers as a tuple. Text that is not such a
    list stays text, for the declaration to refuse in its own words (``--lengths must be integers >= 1, got '4,x'``)."""

    def parse(text: str):
        try:
            return tuple((int if kind is Integral else float)(x) for x in str(text).split(",") if x.strip())
        except ValueError:
            return text

    parse.__name__ = "comma-separated numbers"
    return parse


def add_param(p, fn, name: str, *flags: str, help: str, default=FROM_SIGNATURE, metavar: str | None = None,
              required: bool = False, nargs: str | None = None, group=None) -> argparse.Action:
    """Declare the option feeding parameter ``name`` of ``fn`` on parser ``p`` (or on ``group`` of it).

    ``flags``: its spellings (default ``--name`` with dashes, ``--no-name`` for a switch whose default is True);
    ``default``: the function's own unless given (a command that means another default says so in its help);
    ``nargs``: a sequence parameter as separate words (``--lengths 2 4 8``) instead of one comma-separated word; a
    sequence of paths is given by repeating the flag (``--run A --run B``).
    """
    cons = [v.make_constraint(c) for c in fn.parameter_constraints[name]]
    if default is FROM_SIGNATURE:
        default = inspect.signature(fn).parameters[name].default
        default = None if default is inspect.Parameter.empty else default
    switch_off = default is True and isinstance(cons[0], v.Boolean)
    flags = flags or (f"--{'no-' if switch_off else ''}{name.replace('_', '-')}",)
    kw: dict = {"dest": name, "default": default, "required": required}
    # None and an object (a LipschitzReport) are values a command line cannot spell: its help names the rest
    described = " or ".join(c.describe() for c in cons if not isinstance(c, (v.NoneValue, v.InstanceOf)))
    main = next((c for c in cons if not isinstance(c, v.NoneValue)), None)
    if isinstance(main, v.Boolean):  # a switch: --name sets True; a True default is turned off by --no-name
        kw["action"] = "store_false" if default else "store_true"
        described = ""
    elif isinstance(main, v.Interval):
        kw["type"] = _number(main.kind)
    elif isinstance(main, v.Each) and not isinstance(main.item, v.Interval):  # paths: the flag once per path
        kw["action"] = "append"
    elif isinstance(main, v.Each):
        kw["type"] = _number(main.item.kind) if nargs else _number_list(main.item.kind)
        if nargs:
            kw["nargs"] = nargs
    elif isinstance(main, v.Options):  # no argparse choices: the declaration refuses, in its words
        kw["type"] = type(main.options[0])
        metavar = metavar or "{" + ",".join(map(str, main.options)) + "}"
    if metavar is not None and kw.get("action") not in ("store_true", "store_false"):
        kw["metavar"] = metavar
    kw["help"] = f"{help} [{described}]" if described else help
    action = (group or p).add_argument(*flags, **kw)
    p.set_defaults(_declared=(*(p.get_default("_declared") or ()), (fn, name)))
    return action


def feeds(p, action: argparse.Action, fn, name: str) -> argparse.Action:
    """Say that option ``action``, whose text the command parses itself (``--positions 0:16``), feeds parameter
    ``name`` of ``fn``: ``fn``'s :class:`~petheory.errors.ParameterError` of ``name`` is then said as the flag
    (``--positions must be >= 0, got -1``). Nothing is checked at parsing: ``fn`` checks the parsed value.

    Returns
    -------
    argparse.Action
        ``action``.
    """
    flag = max(action.option_strings, key=len)
    p.set_defaults(_fed={**(p.get_default("_fed") or {}), (fn, name): flag})
    return action


def flag_of(args, exc) -> str | None:
    """The flag a command line says ``exc`` (a ParameterError) with: the option declared for, or feeding, its owner's
    parameter; None for a parameter no option of this command feeds."""
    if (exc.owner, exc.name) in getattr(args, "_declared", ()):
        return args._flags[exc.name]
    return getattr(args, "_fed", {}).get((exc.owner, exc.name))


def check_declared(args) -> None:
    """Check every declared flag's value against its function's declaration (one line, exit 2 when wrong)."""
    for fn, name in getattr(args, "_declared", ()):
        v.check_params(fn, {name: getattr(args, name)})
