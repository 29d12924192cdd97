"""Hypothesis strategies shared by the claim modules. Cases are JSON-able dicts."""

from __future__ import annotations

from hypothesis import strategies as st


def reals(lo: float = -10.0, hi: float = 10.0):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=64)


def vectors(d: int, lo: float = -10.0, hi: float = 10.0):
    return st.lists(reals(lo, hi), min_size=d, max_size=d)


def even_dims(lo: int = 2, hi: int = 64):
    return st.integers(lo // 2, hi // 2).map(lambda h: 2 * h)
