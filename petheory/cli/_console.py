"""A rich console that stays readable when output is piped (rich would assume 80 columns)."""

from __future__ import annotations

import sys


def console(*, stderr: bool = False, quiet: bool = False):
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    width = None if stream.isatty() else 160
    return Console(stderr=stderr, quiet=quiet, width=width)
