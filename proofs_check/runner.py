"""Search each claim for a counterexample within a budget and give one verdict per claim.

Exact and symbolic claims are searched with :func:`hypothesis.find`, which returns the
*shrunk* (minimal) case with violation > 0, or raises when none is found in the budget.
Every claim gets its own seed derived from the run seed and its id, so selecting a subset of
claims never changes what is found for the others. The search depends on nothing else: it runs
under hypothesis's default settings (not the loaded test profile), without an example database,
and without the constants hypothesis would otherwise collect from the source of every local
module imported so far (which made a claim's cases depend on which claims ran before it). BLAS runs one
thread: a threaded product splits its sums by the core count, and threads only wait on each other on a busy machine.

A claim with readings gets one verdict per reading (each searched with its own seed, from
``<id>#<reading>``) and the common verdict or ``depends``; a claim with a :class:`Premise` that no
object satisfies is ``vacuous``. After shrinking, fields of the counterexample that the checker
never read are dropped (when the smaller case replays with the same violation).
"""

from __future__ import annotations

import json
import random
import shlex
import time
import zlib
from dataclasses import dataclass

import numpy as np

from petheory._validate import SEED, StrOptions, validate_params
from proofs_check import isolation
from proofs_check.engine import EVIDENCE, MIN_SEEDS, NOT_RESULTS, Claim, Context, Evidence

from petheory._threads import blas_threads
from petheory.errors import ValidationError, ValidationTypeError

#: Number of generated cases per exact/symbolic claim, per profile (a claim may override).
PROFILES = {"quick": 60, "thorough": 2000}


@dataclass(eq=False)  # eq=False keeps exceptions hashable (a dataclass with eq sets __hash__ = None)
class CheckerCrash(Exception):
    """A checker raised: the claim has no verdict, and ``petheory check`` exits 1.

    Attributes
    ----------
    claim_id : str
        The claim whose checker raised.
    message : str
        What it raised.
    """

    claim_id: str
    message: str

    def __str__(self) -> str:
        return f"checker of {self.claim_id} crashed: {self.message}"


def claim_seed(seed: int, claim_id: str) -> int:
    """The seed of one claim's search: a function of the run's seed and the claim's id alone.

    So a claim finds the same counterexample whatever ran before it, alone or inside the catalogue.

    Parameters
    ----------
    seed : int
        The run's seed.
    claim_id : str
        The claim's (or reading's) id.

    Returns
    -------
    int
        A seed in :math:`[0, 2^{32})`.

    Examples
    --------
    >>> claim_seed(0, "gu2025.rope_relative") == claim_seed(0, "gu2025.rope_relative") != claim_seed(1, "gu2025.rope_relative")
    True
    """
    return (int(seed) * 1_000_003 + zlib.crc32(claim_id.encode())) % (2**32)


def budget_for(c: Claim, profile: str) -> int:
    """The number of cases claim ``c`` is searched with under ``profile``: its own override, else the profile's.

    Parameters
    ----------
    c : Claim
        The claim.
    profile : str
        ``'quick'`` or ``'thorough'`` (``PROFILES``).

    Returns
    -------
    int
        The case budget.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown profile.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> budget_for(c, "quick"), budget_for(c, "thorough")
    (60, 2000)
    """
    if profile not in PROFILES:
        raise ValidationError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
    return int(c.examples.get(profile, PROFILES[profile]))


def reproduce_command(c: Claim, *, profile: str, seed: int, case=None) -> str:
    r"""The ``petheory check`` command that reproduces a verdict: the claim with its profile and seed, or one case.

    Parameters
    ----------
    c : Claim
        The claim.
    profile : str
        The profile.
    seed : int
        The seed.
    case : dict, optional
        A counterexample to replay instead (shell-quoted, so it pastes intact).

    Returns
    -------
    str
        The command.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> reproduce_command(c, profile="quick", seed=0)
    'petheory check --claims demo.below --profile quick --seed 0'
    >>> reproduce_command(c, profile="quick", seed=0, case={"n": 4})
    'petheory check --claims demo.below --case \'{"n": 4}\''
    """
    if case is not None:
        # shlex.quote: a case holding an apostrophe must still paste into a shell intact
        return f"petheory check --claims {shlex.quote(c.id)} --case {shlex.quote(json.dumps(case, allow_nan=False))}"
    return f"petheory check --claims {shlex.quote(c.id)} --profile {profile} --seed {seed}"


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
        parent=settings.get_profile("default"),  # not the loaded (test) profile: same search everywhere
        max_examples=budget,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
    )
    truncated = False
    try:
        with isolation.no_local_constants(), isolation.no_wall_clock_limit():
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


@validate_params({"profile": [StrOptions(tuple(PROFILES))], "seed": [SEED], "quiet": ["boolean"], "workdir": [str, None]})
def check_claim(c: Claim, *, profile: str = "quick", seed: int = 0, quiet: bool = True, workdir: str | None = None) -> dict:
    r"""Check one claim; returns its record in the ``petheory check --json`` contract.

    BLAS runs one thread throughout (:func:`petheory._threads.blas_threads`): a checker's products are small,
    so threads only wait on each other (a quarter of the quick profile's CPU time with 2 threads on 2 cores), and
    one thread sums in the same order whatever the machine's core count. An assumption or interpretation whose check
    fails is reported ``inconclusive`` (it is not a result).

    Parameters
    ----------
    c : Claim
        The claim.
    profile : str, optional
        ``'quick'`` or ``'thorough'``.
    seed : int, optional
        The run's seed (the claim's own seed is :func:`claim_seed`).
    quiet : bool, optional
        No progress output from the checker.
    workdir : str, optional
        Where empirical checkers look for ``runs/`` (default: the current directory).

    Returns
    -------
    dict
        The record: verdict, evidence, cases, margin, counterexample, readings, reproduce command, seconds, ...

    Raises
    ------
    CheckerCrash
        The checker itself failed.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> rec = check_claim(c)
    >>> rec["verdict"], rec["counterexample"], rec["reproduce"]
    ('refuted', {'n': 4}, 'petheory check --claims demo.below --case \'{"n": 4}\'')
    """
    t0 = time.perf_counter()
    with blas_threads(1):
        if c.readings and c.skip_reason is None:
            rec = _check_readings(c, profile=profile, seed=seed, quiet=quiet, workdir=workdir)
        else:
            rec = _check_single(c, profile=profile, seed=seed, quiet=quiet, workdir=workdir)
    if c.paper_status in NOT_RESULTS and c.reading_of is None and rec["verdict"] == "refuted":
        # An assumption or interpretation is a premise or a gloss, not a result: a failing object says
        # where it does not apply. Readings that name the objects give 'depends' instead.
        rec["verdict"] = "inconclusive"
        rec["summary"] = (f"an {c.paper_status} is not a result, so it is not refuted: it does not hold for the objects "
                          f"tested ({rec['summary']})")
    rec["seconds"] = round(time.perf_counter() - t0, 4)
    return _finite(rec)


def _base_record(c: Claim, *, profile: str, seed: int) -> dict:
    return {
        "id": c.id,
        "source": c.source,
        "statement": c.statement,
        "paper_status": c.paper_status or "unspecified",
        "kind": c.kind,
        "verdict": None,
        "evidence": None,
        "evidence_note": c.evidence_note,
        "cases": 0,
        "margin": None,
        "counterexample": None,
        "readings": [],
        "premise": None,
        "reproduce": reproduce_command(c, profile=profile, seed=seed),
        "seconds": 0.0,
        "proved": False,
        "reconstruction": c.reconstruction,
        "corrected_of": c.corrected_of,
        "summary": "",
        "details": {},
        "setup": c.setup,
        "calibration": None,
        "exploratory": bool(c.exploratory),
        "confirm_on": c.confirm_on,
        "alpha": c.alpha,
        "looks": c.looks,
        "seeds": None,
        "rules": [],
    }


def reproduction_rules(c: Claim, rec: dict, ev: Evidence) -> dict:
    """Apply DESIGN.md's rules for empirical claims to ``rec`` (the record of ``ev``), in this one place.

    In order, each on the verdict the previous ones left:

    1. seeds: a claim on trained models (``c.trained``) decides (holds/refuted) only with ``ev.seeds``
       reporting at least ``MIN_SEEDS`` seeds for every configuration; else ``inconclusive``;
    2. planned looks: a decision needs ``ev.p_value < c.alpha / c.looks`` (alpha split over the looks
       in advance, Bonferroni); else ``inconclusive``;
    3. exploratory (written after seeing the records): at most ``inconclusive``, unless the evidence
       comes only from the fresh seeds ``c.confirm_on`` names (``ev.confirmatory``);
    4. substitute setup (other data): at most ``inconclusive``;
    5. calibration: ``refuted`` by a reconstruction (or by the paper's setup with a calibration that
       misses) needs every calibration row within the claim's tolerance; else ``not_reproduced``;
    6. the same rule the other way: ``holds`` by such a reconstruction is at most ``inconclusive``, with the
       direction the records point to (holds) in the summary. An uncalibrated reconstruction decides neither way.

    Each rule that changed the verdict is named in ``rec["rules"]`` and at the head of the summary.

    Parameters
    ----------
    c : Claim
        The claim.
    rec : dict
        Its record so far (verdict and summary from ``ev``); changed in place.
    ev : Evidence
        What the checker returned.

    Returns
    -------
    dict
        ``rec``, with the verdict the rules leave, ``setup``, ``seeds``, ``calibration`` and ``rules``.

    Examples
    --------
    >>> from proofs_check.engine import Claim, Evidence
    >>> c = Claim(id="demo.emp", source="demo", statement="x", kind="empirical", check=lambda ctx: None,
    ...           setup="reconstruction")
    >>> rec = reproduction_rules(c, {"verdict": "holds", "summary": "s"}, Evidence("holds", 3, seeds={"a": 3}, p_value=0.01))
    >>> rec["verdict"], rec["rules"]
    ('inconclusive', ['holds -> inconclusive: no pre-registered alpha'])
    """
    v = rec["verdict"]
    rules = []
    setup = ev.setup or c.setup
    rec["setup"] = setup

    def lower(to: str, why: str):
        nonlocal v
        rules.append(f"{v} -> {to}: {why}")
        v = to

    if c.calibration is not None:
        rec["calibration"] = c.calibration.compare(ev.calibration)
    rec["seeds"] = ev.seeds
    rec["confirmatory"] = bool(ev.confirmatory)
    if c.kind == "empirical":
        if v in ("holds", "refuted") and c.trained:
            few = {k: n for k, n in (ev.seeds or {}).items() if int(n) < MIN_SEEDS}
            if not ev.seeds or few:
                what = ", ".join(f"{k}: {n}" for k, n in sorted(few.items())) if few else "none reported"
                lower("inconclusive", f"fewer than {MIN_SEEDS} training seeds per configuration ({what})")
        if v in ("holds", "refuted") and c.alpha is None:
            lower("inconclusive", "no pre-registered alpha")
        if v in ("holds", "refuted"):
            level = c.alpha / c.looks
            if ev.p_value is None or not ev.p_value < level:
                got = "no p-value reported" if ev.p_value is None else f"p {ev.p_value:.3g}"
                lower("inconclusive", f"{got}, not below alpha {c.alpha:g} split over {c.looks} planned look(s) "
                      f"({level:.3g})")
        if c.exploratory and not ev.confirmatory and v in ("holds", "refuted", "not_reproduced"):
            lower("inconclusive", f"exploratory (written after seeing the records): confirm on {c.confirm_on}")
        if setup == "substitute" and v in ("holds", "refuted", "not_reproduced"):
            lower("inconclusive", "substitute setup (not the paper's data): at most inconclusive")
        if v == "refuted" and setup != "substitute":
            cal = rec["calibration"]
            if (setup == "reconstruction" and cal is None) or (cal is not None and not cal["within"]):
                why = ("no calibration against the paper's own numbers" if cal is None else
                       "calibration out of tolerance: " + ", ".join(
                           f"{r['row']} ours {_num(r['ours'])} vs paper {_num(r['paper'])}" for r in cal["rows"] if not r["within"]))
                lower("not_reproduced", why)
        if v == "holds" and setup != "substitute":
            # symmetric with rule 5: what cannot refute cannot confirm either
            cal = rec["calibration"]
            if (setup == "reconstruction" and cal is None) or (cal is not None and not cal["within"]):
                why = ("no calibration against the paper's own numbers" if cal is None else
                       "calibration out of tolerance: " + ", ".join(
                           f"{r['row']} ours {_num(r['ours'])} vs paper {_num(r['paper'])}" for r in cal["rows"] if not r["within"]))
                lower("inconclusive", f"{why}, so the reconstruction decides neither way (the records point to holds)")
    rec["verdict"] = v
    rec["rules"] = rules
    if rules:
        rec["summary"] = "; ".join(rules) + ". " + rec["summary"]
    return rec


def _num(x) -> str:
    return "missing" if x is None else f"{x:.4g}"


def _check_single(c: Claim, *, profile: str, seed: int, quiet: bool, workdir: str | None) -> dict:
    budget = budget_for(c, profile)
    s = claim_seed(seed, c.id)
    rec = _base_record(c, profile=profile, seed=seed)
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
            rec.update(verdict=res["verdict"], cases=res["cases"], margin=_tidy(res["margin"]), proved=proved)
            rec["evidence"] = "proved" if proved else (c.evidence or "searched")
            if res["verdict"] == "refuted":
                case = _prune(c, res["counterexample"], res["violation"])
                rec["counterexample"] = case
                rec["quantities"] = counterexample_quantities(c, case)
                rec["reproduce"] = reproduce_command(c, profile=profile, seed=seed, case=case)
                rec["summary"] = f"violation {res['violation']:.3g} on the shrunk case"
                if rec["quantities"].get("failed_part"):  # a conjunction's checker names the part that failed
                    rec["summary"] += f": {rec['quantities']['failed_part']}"
                if res["shrink_truncated"]:
                    rec["summary"] += f" (shrinking stopped after {SHRINK_STEPS[profile]} steps: it may shrink further)"
            elif proved:
                rec["summary"] = "proved symbolically (sympy); numeric search agrees"
            else:
                rec["summary"] = f"no counterexample in {res['cases']} cases"
        else:
            ctx = Context(profile=profile, budget=budget, rng=np.random.default_rng(s), seed=s, quiet=quiet, workdir=workdir,
                          alpha=None if c.alpha is None else c.alpha / c.looks)
            ev = c.check(ctx)
            if not isinstance(ev, Evidence):
                raise ValidationTypeError(f"{c.kind} checker must return proofs_check.Evidence, got {type(ev).__name__}")
            rec.update(
                verdict=ev.verdict,
                evidence=ev.strength or c.evidence or "statistical",
                cases=ev.cases,
                margin=_tidy(ev.margin),
                details=ev.details,
                summary=ev.summary,
                counterexample=ev.counterexample,
            )
            reproduction_rules(c, rec, ev)
    except CheckerCrash:
        raise
    except Exception as exc:  # a broken checker must not pass for a verdict
        raise CheckerCrash(c.id, _describe(exc)) from exc
    return rec


def _weakest(evidence) -> str | None:
    known = [e for e in evidence if e in EVIDENCE]
    return max(known, key=EVIDENCE.index) if known else None


def _check_readings(c: Claim, *, profile: str, seed: int, quiet: bool, workdir: str | None) -> dict:
    """Verdict of a claim with readings: the common verdict, 'depends', or 'vacuous' (premise)."""
    rec = _base_record(c, profile=profile, seed=seed)
    subs = []
    for r in c.readings:
        sub = check_claim(c.reading(r.name), profile=profile, seed=seed, quiet=quiet, workdir=workdir)
        subs.append({"name": r.name, **{k: sub.get(k) for k in ("statement", "verdict", "evidence", "evidence_note", "cases",
                                                                 "margin", "counterexample", "quantities", "reproduce",
                                                                 "summary", "reconstruction", "proved", "details",
                                                                 "calibration", "seeds", "rules")}})
    rec["readings"] = subs
    rec["cases"] = sum(int(x["cases"]) for x in subs)
    if rec["evidence_note"] is None:  # a claim as weak as a definitional reading says why, from that reading
        notes = [f"{x['name']}: {x['evidence_note']}" for x in subs if x["evidence"] == "definitional" and x["evidence_note"]]
        rec["evidence_note"] = "; ".join(notes) or None
    listing = "; ".join(f"{x['name']}: {x['verdict']}" + (f" ({part})" if x["verdict"] == "refuted" and (
        part := (x.get("quantities") or {}).get("failed_part")) else "") for x in subs)
    verdicts = {x["verdict"] for x in subs}
    if c.premise is not None:
        prem = _check_premise(c, profile=profile, seed=seed)
        rec["premise"] = prem
        if not prem["satisfiable"]:
            rec.update(verdict="vacuous", evidence=prem["evidence"],
                       summary=f"no object satisfies the premise as stated ({prem['statement']}); nearest satisfiable "
                       f"premises as readings: {listing}")
            return rec
    if len(verdicts) == 1:
        v = verdicts.pop()
        rec.update(verdict=v, evidence=_weakest(x["evidence"] for x in subs), summary=f"every reading {v}: {listing}")
        if v == "refuted":
            rec["counterexample"] = subs[0]["counterexample"]
            rec["quantities"] = subs[0]["quantities"]
            rec["reproduce"] = subs[0]["reproduce"]
        margins = [x["margin"] for x in subs if isinstance(x["margin"], (int, float))]
        rec["margin"] = min(margins) if margins else None
    else:
        rec.update(verdict="depends", evidence=_weakest(x["evidence"] for x in subs), summary=f"the readings disagree: {listing}")
    return rec


def _check_premise(c: Claim, *, profile: str, seed: int) -> dict:
    """Search for an object that satisfies the premise (a witness) and run its proof of impossibility."""
    p = c.premise
    probe = Claim(id=f"{c.id}#premise", source=c.source, statement=p.statement, kind="exact", check=p.witness, cases=p.cases)
    try:
        proved = bool(p.proof()) if p.proof is not None else False
    except Exception as exc:
        raise CheckerCrash(probe.id, _describe(exc)) from exc
    try:
        res = _search(probe, budget_for(probe, profile), claim_seed(seed, probe.id), shrink_steps=SHRINK_STEPS[profile])
    except CheckerCrash:
        raise
    except Exception as exc:  # pragma: no cover
        raise CheckerCrash(probe.id, _describe(exc)) from exc
    if res["verdict"] == "refuted" and proved:
        raise CheckerCrash(probe.id, f"the impossibility proof holds but the search found an object satisfying the premise: "
                                     f"{_short(res['counterexample'])}")
    return {
        "statement": p.statement,
        "argument": p.argument,
        "satisfiable": res["verdict"] == "refuted",
        "witness": res.get("counterexample"),
        "cases": res["cases"],
        "evidence": "proved" if proved else "searched",
    }


def _tidy(margin):
    """Margins below the smallest normal number are zero in every sense that matters (they are the
    underflow term of a tolerance); they never print as denormals."""
    if isinstance(margin, (float, np.floating)) and np.isfinite(margin) and abs(float(margin)) < np.finfo(float).tiny:
        return 0.0
    return margin


class _Reads(dict):
    """A case that records which of its top-level fields the checker reads."""

    def __init__(self, *a):
        super().__init__(*a)
        self.read: set = set()

    def _all(self):
        self.read |= set(super().keys())

    def __getitem__(self, k):
        self.read.add(k)
        return super().__getitem__(k)

    def get(self, k, default=None):
        self.read.add(k)
        return super().get(k, default)

    def __contains__(self, k):
        self.read.add(k)
        return super().__contains__(k)

    def __iter__(self):
        self._all()
        return super().__iter__()

    def keys(self):
        self._all()
        return super().keys()

    def items(self):
        self._all()
        return super().items()

    def values(self):
        self._all()
        return super().values()

    def copy(self):
        self._all()
        return dict(super().items())

    def __reduce__(self):  # pragma: no cover - pickling copies every field
        self._all()
        return dict, (dict(super().items()),)


def _prune(c: Claim, case, violation: float):
    """The counterexample without the fields the checker never reads, if it replays the same violation."""
    if not isinstance(case, dict):
        return case
    probe = _Reads(case)
    try:
        c.violation(probe)
    except Exception:
        return case
    unused = set(case) - probe.read
    if not unused:
        return case
    smaller = {k: v for k, v in case.items() if k not in unused}
    try:
        again = c.violation(smaller)
    except Exception:
        return case
    return smaller if again == violation else case


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
    """Evaluate an exact or symbolic claim's checker on one given case (``--case``).

    A misspelt field is refused, never silently a default; a missing one only when the checker reads it.

    Parameters
    ----------
    c : Claim
        The claim (a reading, for a claim checked per reading).
    case : dict
        The case.

    Returns
    -------
    dict
        ``id``, ``case``, ``violation``, ``verdict`` (refuted when the violation is > 0) and the named ``quantities``.

    Raises
    ------
    petheory.errors.ValidationError
        A claim checked per reading, not exact or symbolic, or a case that does not fit it.
    petheory._memory.MemoryLimitError
        The case needs more memory than is available.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> r = replay(c, {"n": 4})
    >>> r["verdict"], r["violation"]
    ('refuted', 0.5)
    """
    if c.readings and c.check is None:
        names = ", ".join(f"'{c.id}#{r.name}'" for r in c.readings)
        raise ValidationError(f"{c.id} is checked per reading; give one reading to --claims: {names}")
    if c.kind not in ("exact", "symbolic"):
        raise ValidationError(f"--case needs an exact or symbolic claim; {c.id} is {c.kind}")
    from proofs_check.fields import validate_case

    # a misspelt field is an error, never silently a default; a missing one only when the checker reads it
    missing = validate_case(c, case, missing_ok=True)
    from petheory import _memory

    estimate = getattr(c.check, "memory", None)  # checker.memory(case) -> bytes, where a checker allocates itself
    if estimate is not None:
        try:
            need = int(estimate(case))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ValidationError(f"case does not fit claim {c.id}: {type(exc).__name__}: {exc}") from None
        sizes = ", ".join(f"{k} = {v}" for k, v in case.items() if isinstance(v, int) and not isinstance(v, bool) and k != "seed")
        _memory.require(need, f"--case for {c.id} ({sizes})", alternative="give a smaller case")
    from proofs_check.engine import recording

    try:
        with recording() as named:
            val = c.violation(case)
    except KeyError as exc:
        if exc.args and exc.args[0] in missing:
            validate_case(c, case)  # the checker needs a field the case lacks: the full message
        raise ValidationError(f"case does not fit claim {c.id}: {exc}") from None
    except (ValueError, TypeError) as exc:
        raise ValidationError(f"case does not fit claim {c.id}: {exc}") from None
    except AssertionError as exc:  # e.g. torch: "embed_dim must be divisible by num_heads" on a hand-written case
        raise ValidationError(f"case does not fit claim {c.id}: {exc or 'AssertionError'}") from None
    except MemoryError as exc:  # a size the estimate missed: still one line, never a traceback
        raise _memory.MemoryLimitError(f"case does not fit claim {c.id}: out of memory ({exc})") from None
    except RuntimeError as exc:  # torch's allocator says "can't allocate memory" with a RuntimeError
        if "allocate" not in str(exc):
            raise
        raise _memory.MemoryLimitError(f"case does not fit claim {c.id}: out of memory ({str(exc).splitlines()[0]})") from None
    return {"id": c.id, "case": case, "violation": val, "verdict": "refuted" if val > 0 else "holds", "quantities": named}


def counterexample_quantities(c: Claim, case) -> dict:
    """What the checker compares on ``case`` (:func:`proofs_check.engine.quantities`), empty where it names nothing.

    Parameters
    ----------
    c : Claim
        The claim.
    case : dict
        The case.

    Returns
    -------
    dict
        Name -> value of each quantity the checker named.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> counterexample_quantities(c, {"n": 4})
    {}
    """
    from proofs_check.engine import recording

    with recording() as named:
        c.violation(case)
    return named


def run(claims, *, profile: str = "quick", seed: int = 0, quiet: bool = False, progress=None,
        workdir: str | None = None) -> tuple[list[dict], list[CheckerCrash]]:
    """Check every claim, in order; a claim whose checker crashes is set aside and the rest still run.

    Parameters
    ----------
    claims : iterable of Claim
        The claims.
    profile : str, optional
        ``'quick'`` or ``'thorough'``.
    seed : int, optional
        The run's seed.
    quiet : bool, optional
        No progress output from the checkers.
    progress : callable, optional
        ``progress(claim_id)``, called before each claim.
    workdir : str, optional
        Where empirical checkers look for ``runs/``.

    Returns
    -------
    records : list of dict
        The records of the claims checked.
    crashes : list of CheckerCrash
        The claims whose checker failed.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.below", source="demo", statement="$n < 3.5$", kind="exact", check=lambda case: case["n"] - 3.5,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(0, 5)}))
    >>> records, crashes = run([c], quiet=True)
    >>> [r["verdict"] for r in records], crashes
    (['refuted'], [])
    """
    records, crashes = [], []
    for c in claims:
        if progress is not None:
            progress(c.id)
        try:
            records.append(check_claim(c, profile=profile, seed=seed, quiet=quiet, workdir=workdir))
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
