r"""Tolerances derived from the size, scale and conditioning of a case.

A checker never compares against a magic epsilon. It states how many rounding steps feed the
quantity it compares, how large the numbers involved are, and (for solves and eigenproblems)
how ill-conditioned the problem is; the tolerance follows from the classical bounds of
floating-point error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002).
"""

from __future__ import annotations

# The rounding model and the tolerance built on it live in petheory.rounding (the library's tests use them
# from there); re-exported here as the catalogue's public names.
from petheory.rounding import gamma, tolerance, unit_roundoff  # noqa: F401
