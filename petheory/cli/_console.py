"""A rich console that stays readable when output is piped (rich would assume 80 columns)."""

from __future__ import annotations

import sys


#: Width of a console whose stream is not a terminal: wide enough that no cell is shortened or folded.
PIPED_WIDTH = 100_000


def console(*, stderr: bool = False, quiet: bool = False):
    """A rich console on stdout (results) or stderr (progress).

    ``quiet`` (``-q``) silences a stderr console only: results on stdout are printed whatever ``-q``
    says. When the stream is not a terminal (a pipe, a file) lines are never wrapped and table cells
    are printed whole (:data:`PIPED_WIDTH`; see :func:`cell_width`), so ``grep`` and ``diff`` see every token.
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else PIPED_WIDTH
    return Console(stderr=stderr, quiet=quiet and stderr, width=width)


def cell_width(con, width: int) -> int | None:
    """A table column's ``max_width`` on a terminal; None (whole cells) when ``con`` writes to a pipe or file."""
    return width if con.is_terminal else None
