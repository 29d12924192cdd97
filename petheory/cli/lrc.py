"""``petheory lrc``: Linear Representation Complexity of a target family under a PE (chen2025 reconstruction)."""

from __future__ import annotations

import json

from petheory.errors import ValidationError

NAME = "lrc"
HELP = "LRC(N) of a target family (copy, shift, reverse, ...) under a PE's position-only linear attention"


def add_arguments(p) -> None:
    """Declare ``petheory lrc``'s options on ``p``: the PE, its width, the target, the sizes, the Scale Hint and the
    mask (from the library's declarations).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--pe", "relative", "--target", "shift", "--lengths", "2", "4"]).lengths
    [2, 4]
    """
    from petheory import lengthgen
    from petheory.cli._params import add_param
    from petheory.cli._pe import add_pe

    add_pe(p, "encoding", required=True, note="one with positions: rope, rope:base=500, relative, learned, fire, ...; "
           "rope:hint=shift = --hint shift")
    p.add_argument("-d", "--d-model", type=int, default=8, metavar="D",
                   help="width of absolute and rotary features (default 8)")
    p.add_argument("--target", required=True, help="copy, shift, reverse, running_sum, running_mean, parity_cot, addition_cot")
    add_param(p, lengthgen.lrc_curve, "lengths", nargs="+", default=[2, 4, 8, 12], metavar="N",
              help="largest sizes to report (default 2 4 8 12)")
    p.add_argument("--hint", help="Scale Hint: none (default), shift or interp")
    p.add_argument("--unmasked", action="store_true", help="bidirectional POLA (default: causal mask)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON to FILE ('-' for stdout)")


def pola_spec(args):
    """``--pe NAME[:key=value,...]`` -> (the POLA PE, the Scale Hint); ``hint=`` in the spec is ``--hint``.

    A hint in the spec and a different ``--hint`` are refused: the two spellings of one setting on the command line
    (its grammar), not a rule of a library parameter.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``pe``, ``hint``, ``d_model``).

    Returns
    -------
    tuple
        (the POLA PE: a registered name, or :func:`petheory.lengthgen.pola_pe`'s table; the Scale Hint).

    Examples
    --------
    >>> import argparse
    >>> pola_spec(argparse.Namespace(pe="relative:hint=shift", hint=None, d_model=8))
    ('relative', 'shift')
    """
    from petheory import encodings as enc
    from petheory import lengthgen
    from petheory.spec import parse_pe_spec

    term = parse_pe_spec(args.pe).named("lrc")
    params = term.params
    hint = params.pop("hint", None)
    if hint is not None and args.hint is not None and hint != args.hint:
        raise ValidationError(f"--pe {term} and --hint {args.hint} disagree on the Scale Hint")
    hint = hint or args.hint or "none"
    info = enc.info(term.name)  # a petheory.nn mechanism (mla) -> one-line error listing the registry
    term.check_params([*info.params, "hint"])
    if not params:
        return (term.name if args.d_model == 8 else lengthgen.pola_pe(term.name, d=args.d_model)), hint
    return lengthgen.pola_pe(term.name, d=args.d_model, **params), hint


def run(args) -> int:
    """Compute the linear representation complexity of ``args.target`` under the position-only attention of ``args.pe``
    at each size and print one row each (or write them).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("lrc").parse_args(["lrc", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("lrc").parse_args(["lrc", "--pe", "relative", "--target", "shift", "--lengths", "2", "4"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'N=  2  LRC=  1.0  certified=True   residual=0.00e+00 (tol 2.4e-15)  rank=2  gap=inf')
    """
    from petheory import lengthgen
    from petheory.analyses.describe import describe_spec
    from petheory.io import atomic_write_json

    pe, hint = pola_spec(args)
    curve = lengthgen.lrc_curve(pe, args.target, args.lengths, hint=hint, masked=not args.unmasked)
    rows = [{**c.as_dict(), "resolved_encoding": describe_spec(args.pe, d=args.d_model)} for c in curve]
    if args.json == "-":
        print(json.dumps(rows, indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, rows)
    for c in curve:
        print(c.summary_line())
    return 0
