r"""Claims as data plus a checker, and the registry that holds them.

A claim is declared next to its checker with :func:`claim`::

    @claim(
        id="gu2025.rope_relative",
        source="gu2025 §3.1, Eq. 4",
        statement=r"$(R_i q)^\top (R_j k) = q^\top R_{j-i} k$",
        kind="exact",
        cases=rope_cases,          # () -> hypothesis strategy of JSON-able dicts
    )
    def rope_relative(case) -> float:   # > 0 means the statement fails on this case
        ...

The decorated function is the checker. Its meaning depends on ``kind``:

``exact``
    ``violation(case) -> float``; the runner searches ``cases()`` with hypothesis for a case
    with violation > 0 and shrinks it.
``symbolic``
    as ``exact``, plus ``proof() -> bool``: a sympy proof of the identity. When the proof
    succeeds the verdict is ``holds`` ("proved symbolically"); the numeric search still runs
    as a cross-check of the proof's transcription.
``asymptotic`` / ``empirical``
    ``evaluate(ctx: Context) -> Evidence``: fits a trend over growing sizes or runs an
    experiment, and returns its own verdict with evidence.

Cases are JSON-serialisable dicts, so a counterexample can be printed, stored and replayed with
``petheory check --claims ID --case '<json>'``.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

KINDS = ("exact", "symbolic", "asymptotic", "empirical")
VERDICTS = ("holds", "refuted", "inconclusive", "skipped")
_ID = re.compile(r"^[a-z][a-z0-9]*\d{4}\.[a-z0-9_]+$")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how to check it. See the module docstring."""

    id: str
    source: str
    statement: str
    kind: str
    check: Callable[..., Any] | None = None
    cases: Callable[[], Any] | None = None
    proof: Callable[[], bool] | None = None
    skip_reason: str | None = None
    reconstruction: str | None = None
    corrected_of: str | None = None
    examples: dict = field(default_factory=dict)  # per-profile override of the case budget

    def violation(self, case) -> float:
        """Evaluate the checker on one case (exact and symbolic kinds)."""
        if self.kind not in ("exact", "symbolic"):
            raise TypeError(f"claim {self.id} is {self.kind}; it has no per-case violation")
        value = float(self.check(case))
        if np.isnan(value):
            raise ValueError(f"checker of {self.id} returned NaN on case {case!r}")
        return value


@dataclass
class Context:
    """What an asymptotic or empirical checker gets from the runner."""

    profile: str
    budget: int
    rng: np.random.Generator
    seed: int
    quiet: bool = True
    workdir: str | None = None


@dataclass
class Evidence:
    """The result an asymptotic or empirical checker returns.

    ``margin`` has the runner's meaning: the smallest slack seen, in the units of the
    statement (negative when refuted). ``details`` holds the numbers behind the verdict
    (fitted rates with confidence intervals, per-size values, ...) and goes into the report.
    """

    verdict: str
    cases: int
    margin: float | None = None
    details: dict = field(default_factory=dict)
    counterexample: Any = None
    summary: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")


_CLAIMS: dict[str, Claim] = {}


def claim(
    *,
    id: str,
    source: str,
    statement: str,
    kind: str,
    cases: Callable[[], Any] | None = None,
    proof: Callable[[], bool] | None = None,
    reconstruction: str | None = None,
    corrected_of: str | None = None,
    examples: dict | None = None,
    overwrite: bool = False,
):
    """Decorator registering the decorated checker as claim ``id``. See the module docstring."""

    def deco(fn):
        register(
            Claim(
                id=id,
                source=source,
                statement=statement,
                kind=kind,
                check=fn,
                cases=cases,
                proof=proof,
                reconstruction=reconstruction,
                corrected_of=corrected_of,
                examples=dict(examples or {}),
            ),
            overwrite=overwrite,
        )
        return fn

    return deco


def skipped(*, id: str, source: str, statement: str, kind: str, reason: str) -> Claim:
    """Register a claim that cannot be checked, with the reason."""
    return register(Claim(id=id, source=source, statement=statement, kind=kind, skip_reason=reason))


def register(c: Claim, *, overwrite: bool = False) -> Claim:
    if not _ID.match(c.id):
        raise ValueError(f"claim id must look like '<firstauthor><year>.<short_name>', got {c.id!r}")
    if c.kind not in KINDS:
        raise ValueError(f"claim {c.id}: kind must be one of {KINDS}, got {c.kind!r}")
    if c.skip_reason is None:
        if c.check is None:
            raise ValueError(f"claim {c.id}: a checker is required unless the claim is skipped")
        if c.kind in ("exact", "symbolic") and c.cases is None:
            raise ValueError(f"claim {c.id}: {c.kind} claims need a `cases` strategy")
        if c.kind == "symbolic" and c.proof is None:
            raise ValueError(f"claim {c.id}: symbolic claims need a `proof`")
    if c.id in _CLAIMS and not overwrite and _CLAIMS[c.id].check is not c.check:
        raise ValueError(f"claim {c.id!r} is already registered")
    _CLAIMS[c.id] = c
    return c


def get(claim_id: str) -> Claim:
    load_builtin()
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise ValueError(f"unknown claim {claim_id!r}; `petheory check --list` shows the registered ids") from None


def all_claims() -> list[Claim]:
    load_builtin()
    return [_CLAIMS[k] for k in sorted(_CLAIMS)]


def select(patterns: str | None) -> list[Claim]:
    """Claims matching a comma-separated list of glob patterns (all when None or empty).

    A pattern that matches nothing is an error, so a typo never silently checks nothing.
    """
    claims = all_claims()
    if not patterns:
        return claims
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    if not pats:
        raise ValueError("--claims is empty; give glob patterns such as 'gu2025.*'")
    chosen = []
    for p in pats:
        hit = [c for c in claims if fnmatch.fnmatchcase(c.id, p)]
        if not hit:
            raise ValueError(f"--claims pattern {p!r} matches no registered claim")
        chosen.extend(h for h in hit if h not in chosen)
    return sorted(chosen, key=lambda c: c.id)


_LOADED = False


def load_builtin() -> None:
    """Import the built-in claim modules and the ``petheory.claims`` entry points once."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        import proofs_check.claims  # noqa: F401  (registers on import)
    from petheory.plugins import load_entry_points

    load_entry_points("petheory.claims")  # once per group; a no-op after the first call
