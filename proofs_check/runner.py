"""Search each claim for a counterexample within a budget and give one verdict per claim.

Exact and symbolic claims are searched with :func:`hypothesis.find`, which returns the
*shrunk* (minimal) case with violation > 0, or raises when none is found in the budget.
Every claim gets its own seed derived from the run seed and its id, so selecting a subset of
claims never changes what is found for the others.
"""

from __future__ import annotations

import json
import random
import shlex
import time
import traceback
import zlib
from dataclasses import dataclass

import numpy as np

from proofs_check.engine import Claim, Context, Evidence

#: Number of generated cases per exact/symbolic claim, per profile (a claim may override).
PROFILES = {"quick": 60, "thorough": 2000}


@dataclass(eq=False)  # eq=False keeps exceptions hashable (a dataclass with eq sets __hash__ = None)
class CheckerCrash(Exception):
    """A checker raised: the claim has no verdict, and ``petheory check`` exits 1."""

    claim_id: str
    message: str

    def __str__(self) -> str:
        return f"checker of {self.claim_id} crashed: {self.message}"


def claim_seed(seed: int, claim_id: str) -> int:
    return (int(seed) * 1_000_003 + zlib.crc32(claim_id.encode())) % (2**32)


def budget_for(c: Claim, profile: str) -> int:
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
    return int(c.examples.get(profile, PROFILES[profile]))


def reproduce_command(c: Claim, *, profile: str, seed: int, case=None) -> str:
    if case is not None:
        # shlex.quote: a case holding an apostrophe must still paste into a shell intact
        return f"petheory check --claims {c.id} --case {shlex.quote(json.dumps(case, allow_nan=False))}"
    return f"petheory check --claims {c.id} --profile {profile} --seed {seed}"


#: Checker evaluations allowed while shrinking, after the first counterexample, per profile. Hypothesis
#: can spend minutes shrinking a large case (vectors of floats drawn at a drawn size); past the cap the
#: search stops with the last, smallest-so-far counterexample. A count, not a time, so the same seed
#: gives the same counterexample on any machine.
SHRINK_STEPS = {"quick": 100, "thorough": 2000}


class _ShrinkBudgetSpent(BaseException):
    """Raised inside hypothesis to stop shrinking (a BaseException: hypothesis lets it through)."""


def _search(c: Claim, budget: int, seed: int, shrink_steps: int = SHRINK_STEPS["quick"]) -> dict:
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis.errors import NoSuchExample

    stats = {"cases": 0, "max_violation": -np.inf, "shrinks": 0, "best": None}

    def condition(case) -> bool:
        if stats["best"] is not None:
            if stats["shrinks"] >= shrink_steps:
                raise _ShrinkBudgetSpent
            stats["shrinks"] += 1
        stats["case"] = case  # the case being evaluated, for the message if the checker raises
        try:
            val = c.violation(case)
        except Exception as exc:
            stats.setdefault("crash", (case, exc))
            raise
        stats["cases"] += 1
        stats["max_violation"] = max(stats["max_violation"], val)
        if val > 0:
            stats["best"] = case  # hypothesis only moves on to smaller failing cases
        return val > 0

    cfg = settings(
        max_examples=budget,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    truncated = False
    try:
        case = find(c.cases(), condition, settings=cfg, random=random.Random(seed))
    except _ShrinkBudgetSpent:
        if "crash" in stats:  # a crash met while shrinking outranks the counterexample
            bad, exc = stats["crash"]
            raise CheckerCrash(c.id, f"{_describe(exc)} on case {_short(bad)}") from exc
        case, truncated = stats["best"], True
    except NoSuchExample:
        mv = stats["max_violation"]
        return {"verdict": "holds", "cases": stats["cases"], "margin": None if not np.isfinite(mv) else 0.0 - mv}
    except Exception as exc:  # hypothesis has shrunk the crashing case and re-run it last
        raise CheckerCrash(c.id, f"{_describe(exc)} on case {_short(stats.get('case'))}") from exc
    violation = c.violation(case)
    return {"verdict": "refuted", "cases": stats["cases"], "margin": -violation, "counterexample": case,
            "violation": violation, "shrink_truncated": truncated}


def check_claim(c: Claim, *, profile: str = "quick", seed: int = 0, quiet: bool = True) -> dict:
    """Check one claim; returns its record in the ``petheory check --json`` contract.

    Raises :class:`CheckerCrash` when the checker itself fails.
    """
    budget = budget_for(c, profile)
    s = claim_seed(seed, c.id)
    rec = {
        "id": c.id,
        "source": c.source,
        "statement": c.statement,
        "kind": c.kind,
        "verdict": None,
        "cases": 0,
        "margin": None,
        "counterexample": None,
        "reproduce": reproduce_command(c, profile=profile, seed=seed),
        "seconds": 0.0,
        "proved": False,
        "reconstruction": c.reconstruction,
        "corrected_of": c.corrected_of,
        "summary": "",
        "details": {},
    }
    t0 = time.perf_counter()
    try:
        if c.skip_reason is not None:
            rec.update(verdict="skipped", summary=c.skip_reason)
        elif c.kind in ("exact", "symbolic"):
            proved = bool(c.proof()) if c.kind == "symbolic" else False
            res = _search(c, budget, s, shrink_steps=SHRINK_STEPS[profile])
            if proved and res["verdict"] == "refuted":
                raise RuntimeError(
                    f"sympy proved the identity but the numeric search refuted it on {res['counterexample']!r}: "
                    "the proof or the checker transcribes the statement wrongly"
                )
            rec.update(verdict=res["verdict"], cases=res["cases"], margin=res["margin"], proved=proved)
            if res["verdict"] == "refuted":
                rec["counterexample"] = res["counterexample"]
                rec["reproduce"] = reproduce_command(c, profile=profile, seed=seed, case=res["counterexample"])
                rec["summary"] = f"violation {res['violation']:.3g} on the shrunk case"
                if res["shrink_truncated"]:
                    rec["summary"] += f" (shrinking stopped after {SHRINK_STEPS[profile]} steps: it may shrink further)"
            elif proved:
                rec["summary"] = "proved symbolically (sympy); numeric search agrees"
            else:
                rec["summary"] = f"no counterexample in {res['cases']} cases"
        else:
            ctx = Context(profile=profile, budget=budget, rng=np.random.default_rng(s), seed=s, quiet=quiet)
            ev = c.check(ctx)
            if not isinstance(ev, Evidence):
                raise TypeError(f"{c.kind} checker must return proofs_check.Evidence, got {type(ev).__name__}")
            rec.update(
                verdict=ev.verdict,
                cases=ev.cases,
                margin=ev.margin,
                details=ev.details,
                summary=ev.summary,
                counterexample=ev.counterexample,
            )
    except CheckerCrash:
        raise
    except Exception as exc:  # a broken checker must not pass for a verdict
        raise CheckerCrash(c.id, _describe(exc)) from exc
    rec["seconds"] = round(time.perf_counter() - t0, 4)
    return _finite(rec)


def _describe(exc: BaseException) -> str:
    """``Type: message`` (first line). Not traceback.format_exception_only, whose last line is an
    exception note when there is one (hypothesis adds a ``@reproduce_failure`` note under print_blob)."""
    msg = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {msg[0]}" if msg else type(exc).__name__


def _short(case, limit: int = 300) -> str:
    try:
        text = json.dumps(case, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(case)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def replay(c: Claim, case) -> dict:
    """Evaluate an exact/symbolic claim's checker on one given case (``--case``)."""
    if c.kind not in ("exact", "symbolic"):
        raise ValueError(f"--case needs an exact or symbolic claim; {c.id} is {c.kind}")
    from proofs_check.fields import validate_case

    validate_case(c, case)  # a misspelt or missing field is an error, never silently a default
    try:
        val = c.violation(case)
    except (ValueError, TypeError, KeyError) as exc:
        raise ValueError(f"case does not fit claim {c.id}: {exc}") from None
    return {"id": c.id, "case": case, "violation": val, "verdict": "refuted" if val > 0 else "holds"}


def run(claims, *, profile: str = "quick", seed: int = 0, quiet: bool = False, progress=None) -> tuple[list[dict], list[CheckerCrash]]:
    """Check every claim; returns (records, crashes). ``progress(claim_id)`` is called before each."""
    records, crashes = [], []
    for c in claims:
        if progress is not None:
            progress(c.id)
        try:
            records.append(check_claim(c, profile=profile, seed=seed, quiet=quiet))
        except CheckerCrash as crash:
            crashes.append(crash)
    return records, crashes


def _finite(obj):
    """Replace non-finite floats by strings so the record stays valid JSON (never silent NaN)."""
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return f if np.isfinite(f) else str(f)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.ndarray):
        return _finite(obj.tolist())
    return obj
