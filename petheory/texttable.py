"""Plain-text tables for a pipe or a file, where a rich table would pad or fold its cells."""

from __future__ import annotations

from dataclasses import dataclass


def plain_table(title: str | None, headers, rows, *, right=()) -> str:
    """A table as plain text for a pipe or a file: one row per line, every cell whole, columns aligned except the last.

    The last column is never padded, so one long cell does not widen every line.

    Parameters
    ----------
    title : str or None
        A line above the table (None: none).
    headers : sequence of str
        Column headers.
    rows : iterable of sequence of str
        The rows' cells (no markup; a newline inside a cell becomes a space).
    right : collection of int, optional
        Indices of right-aligned columns.

    Returns
    -------
    str
        The table, without a final newline.

    Examples
    --------
    >>> print(plain_table("t", ["a", "bb", "note"], [["x", "1", "a long note"], ["yy", "22", "n"]], right={1}))
    t
    a   bb  note
    --  --  ----
    x    1  a long note
    yy  22  n
    """
    headers = [str(h) for h in headers]
    rows = [[" ".join(str(c).split("\n")) for c in r] for r in rows]
    widths = [max([len(headers[i]), *(len(r[i]) for r in rows)]) for i in range(len(headers) - 1)]

    def line(cells):
        lead = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join([*lead, cells[-1]]).rstrip()

    rule = ["-" * w for w in widths] + ["-" * len(headers[-1])]
    return "\n".join(([title] if title else []) + [line(headers), line(rule)] + [line(r) for r in rows])


@dataclass(frozen=True)
class TextTable:
    """A record's table as it renders itself: plain text (a pipe, a file, ``str(rec)``) or Markdown, with the notes
    printed under it; a terminal shows the same cells as a rich table (``petheory.cli._console.show``).

    Attributes
    ----------
    title : str
        Printed above the table (bold in Markdown).
    headers : tuple of str
        The column headers.
    rows : tuple of tuple of str
        The cells, no markup.
    right : frozenset of int
        Indices of the right-aligned columns.
    notes : tuple of str
        Lines printed under the table (paragraphs in Markdown).
    last_width : int or None
        On a terminal, the last column's widest (a long note column folds instead of widening the table).
    title_left : bool
        On a terminal, the title starts at the table's left edge (centred otherwise).
    bold_first : bool
        On a terminal, the first column (the row's name) is bold.
    fold : bool
        On a terminal, a cell too wide for its column folds onto the next line (cut with an ellipsis otherwise).
    warnings : frozenset of (int, int)
        ``(row, column)`` of the cells a terminal shows as a warning (yellow); the plain and Markdown text are the same.

    Examples
    --------
    >>> t = TextTable("t", ("a", "b"), (("x", "1"),), frozenset({1}), ("a note",))
    >>> print(t.plain())
    t
    a  b
    -  -
    x  1
    a note
    >>> print(t.markdown())
    **t**
    <BLANKLINE>
    | a | b |
    |---|---|
    | x | 1 |
    <BLANKLINE>
    a note
    <BLANKLINE>
    """

    title: str
    headers: tuple
    rows: tuple
    right: frozenset = frozenset()
    notes: tuple = ()
    last_width: int | None = None
    title_left: bool = False
    bold_first: bool = True
    fold: bool = True
    warnings: frozenset = frozenset()

    def plain(self) -> str:
        """The table (:func:`plain_table`) and its notes, one line each.

        Returns
        -------
        str
        """
        return "\n".join([plain_table(self.title, self.headers, self.rows, right=self.right), *self.notes])

    def markdown(self) -> str:
        """The table as GitHub Markdown (a ``|`` in a cell escaped), each note a paragraph.

        Returns
        -------
        str
        """
        lines = [f"**{self.title}**", "", "| " + " | ".join(self.headers) + " |",
                 "|" + "|".join("---" for _ in self.headers) + "|"]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self.rows]
        lines.append("")
        for note in self.notes:
            lines += [note, ""]
        return "\n".join(lines)


@dataclass(frozen=True)
class Line:
    """One line of a record's terminal view (:meth:`petheory.analyses.report_record.ReportRecord.terminal`), printed as
    it is in a pipe; on a terminal ``weight`` ``'bold'`` marks a heading and ``'dim'`` a note.

    Attributes
    ----------
    text : str
        The line, no markup.
    weight : {None, 'bold', 'dim'}
        How a terminal weights it.
    """

    text: str
    weight: str | None = None
