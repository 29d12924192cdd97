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


def show(rec) -> None:
    """A record that renders a table (``rec.table()``, a :class:`petheory.texttable.TextTable`) on stdout: on a
    terminal as a rich table and its notes (:func:`show_view`); in a pipe or a file its plain lines (``rec.lines()``),
    every cell whole."""
    if not console().is_terminal:
        print("\n".join(rec.lines()))
        return
    show_view([rec.table()])


def show_view(view, *, stderr: bool = False, quiet: bool = False) -> None:
    """A record's terminal view (rich, in a pipe too) on stdout, or on stderr beside a JSON on stdout (where ``quiet``
    silences it): each :class:`petheory.texttable.Line` weighted as it says, each
    :class:`petheory.texttable.TextTable` as a rich table with its notes under it."""
    from rich.markup import escape
    from rich.table import Table

    from petheory.texttable import TextTable

    con = console(stderr=stderr, quiet=quiet)
    for block in view:
        if not isinstance(block, TextTable):
            text = escape(block.text)
            con.print(f"[{block.weight}]{text}[/{block.weight}]" if block.weight else text)
            continue
        t = Table(title=block.title, title_justify="left" if block.title_left else "center")
        last = len(block.headers) - 1
        for k, h in enumerate(block.headers):
            t.add_column(h, style="bold" if k == 0 and block.bold_first else None,
                         justify="right" if k in block.right else "left", overflow="fold" if block.fold else "ellipsis",
                         max_width=block.last_width if k == last else None)
        for i, row in enumerate(block.rows):
            t.add_row(*(f"[yellow]{escape(c)}[/yellow]" if (i, k) in block.warnings else escape(c)
                        for k, c in enumerate(row)))
        con.print(t)
        for line in block.notes:
            con.print(escape(line))


#: What an ASCII-only terminal gets instead of the non-ASCII characters petheory prints.
ASCII = {"λ": "lambda", "μ": "mu", "σ": "sigma", "ω": "omega", "θ": "theta", "α": "alpha", "β": "beta", "Δ": "Delta",
         "τ": "tau", "π": "pi", "ρ": "rho", "ε": "eps", "→": "->", "←": "<-", "≥": ">=", "≤": "<=", "≠": "!=", "±": "+-",
         "×": "x", "·": ".", "…": "...", "—": "--", "–": "-", "§": "S", "√": "sqrt", "∞": "inf", "≈": "~", "′": "'",
         "“": '"', "”": '"', "‘": "'", "’": "'", "°": "deg", "²": "^2", "½": "1/2", "∑": "sum", "µ": "mu"}
_BOX = {"━": "-", "─": "-", "┃": "|", "│": "|", "┏": "+", "┓": "+", "┗": "+", "┛": "+", "┳": "+", "┻": "+", "╇": "+",
        "┡": "+", "┩": "+", "└": "+", "┘": "+", "┌": "+", "┐": "+", "┼": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+",
        "═": "=", "║": "|", "╭": "+", "╮": "+", "╰": "+", "╯": "+", "•": "*", "█": "#", "░": ".", "▏": "|"}


def _transliterate(exc: UnicodeError):
    """Codec error handler ``petheory-ascii``: ő -> o, λ -> lambda, box drawing -> +-|, anything else -> ?."""
    import unicodedata

    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        rep = ASCII.get(ch) or _BOX.get(ch)
        if rep is None:
            rep = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii") or "?"
        out.append(rep)
    return "".join(out), exc.end


def ascii_safe_streams() -> None:
    """Make stdout and stderr print on a terminal that cannot encode petheory's characters (``LANG=C``, ``PYTHONUTF8=0``).

    Called once by ``petheory.cli.main``: a stream whose encoding cannot encode ``ő``, ``λ``
    and ``→`` is reconfigured with the ``petheory-ascii`` error handler (:func:`_transliterate`),
    so ``Szegő`` prints as ``Szego`` and ``λ`` as ``lambda`` instead of ending in a
    ``UnicodeEncodeError``. A UTF-8 stream is left alone.
    """
    import codecs

    try:
        codecs.lookup_error("petheory-ascii")
    except LookupError:
        codecs.register_error("petheory-ascii", _transliterate)
    for stream in (sys.stdout, sys.stderr):
        enc = getattr(stream, "encoding", None)
        if not enc or not hasattr(stream, "reconfigure"):
            continue
        try:
            "ő λ → ━".encode(enc)
        except UnicodeEncodeError:
            stream.reconfigure(errors="petheory-ascii")
        except LookupError:  # an unknown codec name: leave the stream as it is
            continue


def one_line(text: str) -> str:
    """``text`` safe to print as one line: control characters (a newline, an ANSI escape) shown escaped.

    >>> one_line("bad model_type 'llama\\n\\x1b[31m'")
    "bad model_type 'llama\\\\n\\\\x1b[31m'"
    """
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii") for ch in text)
