"""Shape checks shared by the coupling modules (row-vector convention: ``q_i = x_i W_Q``)."""

from __future__ import annotations

import numpy as np

from petheory import _validate as v
from petheory.errors import ValidationError


def projection(name: str, W, d: int) -> np.ndarray:
    """``W`` as a ``(d, d_head)`` array, or ValidationError naming ``name`` and the shape expected."""
    W = v.array(name, W, ndim=2)
    if W.shape[0] != d:
        raise ValidationError(f"{name} must have shape (d, d_head) with d={d} rows (x W convention), got {W.shape}")
    return W


def content_and_positions(content, positions) -> tuple[np.ndarray, np.ndarray]:
    """``(C, P)`` as two (n, d) arrays of one shape, or ValidationError naming the shapes."""
    C = v.array("content", content, ndim=2)
    P = v.array("positions", positions, ndim=2)
    if P.shape != C.shape:
        raise ValidationError(f"positions must have the shape of content {C.shape}, got {P.shape}")
    return C, P
