"""Row blocks for the geometry's :math:`O(n^2)` loops: how many rows fit a temporary budget.

Distances, Gram blocks and stress sums run over row blocks so that their temporaries stay near a
fixed size whatever n and V (the (n, n) outputs themselves are the caller's).
"""

from __future__ import annotations

__all__ = ["BLOCK_BYTES", "CACHE_BYTES", "block_rows"]

#: Bytes of temporaries per row block in the blocked loops (about 64 MiB).
BLOCK_BYTES = 64 * 2**20
#: Bytes per temporary in the blocked stress of dense/coordinate sources (L2-resident).
CACHE_BYTES = 2**19


def block_rows(n: int, width: int, copies: int = 4) -> int:
    """Rows per block when each row holds ``copies`` float64 temporaries of ``width`` entries, in [1, n].

    Parameters
    ----------
    n : int
        Rows in all (the block never exceeds them).
    width : int
        Entries per row of one temporary (n for an (n, n) loop, ``max(n, V)`` when a row also holds
        its V square roots).
    copies : int, optional
        float64 temporaries of that width alive at once per row.

    Returns
    -------
    int
        ``BLOCK_BYTES // (8 * width * copies)`` clipped to [1, n]: the temporaries of one block stay
        within :data:`BLOCK_BYTES` (64 MiB) unless a single row is larger.

    Examples
    --------
    >>> block_rows(100, 100)  # small: one block holds every row
    100
    >>> block_rows(32768, 32768, copies=3)  # 85 rows x 3 copies x 32768 x 8 bytes <= 64 MiB
    85
    >>> block_rows(10**6, 10**8)  # a row alone is over budget: still one row per block
    1
    """
    return int(max(1, min(n, BLOCK_BYTES // max(1, 8 * width * copies))))
