"""Progress of long work: a rich bar on a terminal, plain lines on stderr otherwise, nothing with --quiet.

A rich bar drawn to a pipe or a log file shows nothing until the end (transient bars show nothing
at all), so a job in CI or under ``nohup`` looked stuck. :class:`Lines` prints one plain line per
step instead, with the count and the elapsed time, flushed at once.
"""

from __future__ import annotations

import sys
import time


def is_terminal(stream=None) -> bool:
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Lines:
    """``step(done, total, what)`` -> ``PREFIX [done/total] what (12 s)`` on ``stream`` (stderr)."""

    def __init__(self, prefix: str, *, quiet: bool = False, stream=None):
        self.prefix, self.quiet = prefix, quiet
        self.stream = sys.stderr if stream is None else stream
        self.t0 = time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def line(self, text: str) -> None:
        if not self.quiet:
            print(f"{self.prefix}: {text} ({self.elapsed():.0f} s)", file=self.stream, flush=True)

    def step(self, done: int, total: int, what: str = "") -> None:
        self.line(f"[{done}/{total}] {what}".rstrip())


def plain_lines_wanted(quiet: bool, stream=None) -> bool:
    """Plain lines replace the rich bar when not quiet and not on a terminal."""
    return not quiet and not is_terminal(stream)
