"""The claim catalogue of petheory and its runner (the command is ``petheory check``, or ``python -m petheory check``).

Public surface: :func:`claim` to declare a claim (a decorator, or a plain call for a claim decided
by its readings or skipped), :class:`Reading` for the readings of an ambiguous one, :class:`Evidence`
and :class:`Context` for asymptotic/empirical checkers, :class:`Calibration` for an empirical claim's
paper numbers, :func:`tolerance` for derived tolerances,
:func:`all_claims`, :func:`select`, :func:`get`, :func:`check_claim`, :func:`run`.
"""

from proofs_check.engine import (
    Calibration, Claim, Context, Evidence, Premise, Reading, all_claims, claim, get, select,
)
from proofs_check.runner import PROFILES, CheckerCrash, check_claim, replay, run
from proofs_check.tolerance import gamma, tolerance, unit_roundoff

__all__ = [
    "Calibration", "Claim", "Context", "Evidence", "Premise", "Reading", "claim", "get", "select", "all_claims",
    "PROFILES", "CheckerCrash", "check_claim", "replay", "run", "tolerance", "gamma", "unit_roundoff",
]
