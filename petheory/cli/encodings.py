"""``petheory encodings``: list every registered encoding with its kind, parameters and conventions."""

from __future__ import annotations

import json

NAME = "encodings"
HELP = "list registered positional encodings (kind, parameters, conventions)"


def add_arguments(p) -> None:
    """Declare ``petheory encodings``'s options on ``p``: no options: the command lists the registry.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The command's parser (:func:`petheory.cli.build_parser` makes it).

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> add_arguments(p)
    >>> p.parse_args(["--kind", "rotary"]).kind
    'rotary'
    """
    p.add_argument("--json", metavar="FILE", help="write the list as JSON to FILE ('-' for stdout)")
    p.add_argument("--kind", choices=("absolute", "bias", "rotary"), help="only this kind")


def run(args) -> int:
    """Print every registered encoding with its parameters, defaults and conventions.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (``build_parser("encodings").parse_args(["encodings", ...])``).

    Returns
    -------
    int
        0; bad input raises a :class:`petheory.errors.InvalidInput` or an ``OSError``, which :func:`petheory.cli.main`
        says in one line, with exit code 2.

    Examples
    --------
    >>> from petheory.cli import build_parser
    >>> import contextlib, io
    >>> args = build_parser("encodings").parse_args(["encodings"])
    >>> with contextlib.redirect_stdout(io.StringIO()) as out:
    ...     code = run(args)
    >>> code, out.getvalue().splitlines()[0]
    (0, 'petheory encodings')
    """
    from petheory import encodings as enc
    from petheory.io import atomic_write_json

    items = [enc.info(n).as_dict() for n in enc.available(args.kind)]
    if args.json == "-":
        print(json.dumps(items, indent=2))
        return 0
    if args.json:
        atomic_write_json(args.json, items)
    from petheory.cli._console import console, show_view

    table = enc.catalogue(args.kind)
    if console().is_terminal:
        show_view([table])
    else:  # a pipe or a file: one line per encoding, every cell whole
        print(table.plain())
    return 0
