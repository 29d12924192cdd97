"""A rich console that stays readable when output is piped (rich would assume 80 columns)."""

from __future__ import annotations

import sys


#: Width of a console whose stream is not a terminal: wide enough that no cell is shortened or folded.
PIPED_WIDTH = 100_000


def console(*, stderr: bool = False, quiet: bool = False):
    """A rich console on stdout (results) or stderr (progress).

    ``quiet`` (``-q``) silences a stderr console only: results on stdout are printed whatever ``-q``
    says. When the stream is not a terminal (a pipe, a file) lines are never wrapped (:data:`PIPED_WIDTH`)
    and the commands print their tables with :func:`petheory.texttable.plain_table`, every cell whole, so ``grep`` and ``diff``
    see every token.
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else PIPED_WIDTH
    return Console(stderr=stderr, quiet=quiet and stderr, width=width)
