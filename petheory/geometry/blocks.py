"""Row blocks for the geometry's O(n^2) loops: how many rows fit a temporary budget.

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
    """Rows per block when each row holds ``copies`` float64 temporaries of ``width`` entries, in [1, n]."""
    return int(max(1, min(n, BLOCK_BYTES // max(1, 8 * width * copies))))
