"""Plain-text tables for a pipe or a file, where a rich table would pad or fold its cells."""

from __future__ import annotations


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
