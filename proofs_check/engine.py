r"""Claims as data plus a checker, and the registry that holds them.

A claim is one :class:`Claim` (a frozen dataclass), declared in its module with :func:`claim`,
the only way into the catalogue. ``claim(**fields)`` takes :class:`Claim`'s fields by name (a
wrong name is refused, naming the valid ones). Used as a decorator, the decorated function is the
checker::

    @claim(
        id="gu2025.rope_relative",
        source="gu2025 §3.1, Eq. 4",
        statement=r"$(R_i q)^\top (R_j k) = q^\top R_{j-i} k$",
        kind="exact",
        cases=rope_cases,          # () -> hypothesis strategy of JSON-able dicts
    )
    def rope_relative(case) -> float:   # > 0 means the statement fails on this case
        ...

A claim with no checker of its own is complete as declared, and the same call registers it at
once: one decided by its readings (``claim(id=..., ..., readings=[Reading(...), ...])``) or one
that cannot be checked (``claim(id=..., ..., skip_reason="why")``).

The checker's meaning depends on ``kind``:

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
``petheory check --claims ID --case '<json>'``. A checker names the quantities it compares with
:func:`quantities` (``quantities(ptp_f=..., ptp_g=..., rhs=...)``); a replay prints them next to
the violation, and a refuted claim's record carries them for its counterexample.

What a verdict rests on is part of the claim (DESIGN.md's contract):

``paper_status``
    what the paper calls the sentence (:data:`PAPER_STATUSES`). An ``assumption`` or an
    ``interpretation`` is never reported as a refuted result: the runner says whether it holds
    for the objects tested (``depends`` over readings that name the objects, ``inconclusive``
    when it holds for none).
``readings``
    where a statement is ambiguous, each reasonable reading is a :class:`Reading`, a sub-claim
    with its own statement, checker and verdict (id ``<claim id>#<name>``, selectable and
    replayable like a claim). A reading is its claim with what the :class:`Reading` sets put in
    place (:meth:`Claim.reading`): everything it leaves unset is inherited. The claim's verdict
    is the readings' common verdict, else ``depends``.
``premise``
    a :class:`Premise` that the paper states but no object satisfies: the verdict is
    ``vacuous`` (with the proof or the search), and the readings check the nearest satisfiable
    premises.
``setup``, ``calibration``, ``exploratory``, ``alpha``, ``looks``, ``trained`` (empirical claims)
    the rules of a careful reproduction study (DESIGN.md), enforced in one place, the runner
    (:func:`proofs_check.runner.reproduction_rules`): ``setup`` is ``paper``, ``reconstruction``
    or ``substitute`` (other data: at most ``inconclusive``); a :class:`Calibration` holds the
    paper's numbers for the rows we also measure and the tolerance the claim states (a
    reconstruction whose calibration is missing or out of tolerance says ``not_reproduced``
    instead of ``refuted`` and ``inconclusive`` instead of ``holds``); an ``exploratory`` variant (written after seeing the records) is at
    most ``inconclusive``; a claim on trained models needs ``MIN_SEEDS`` seeds per configuration
    (``Evidence.seeds``); ``looks`` planned looks at the data split ``alpha`` in advance
    (Bonferroni: a decision needs ``Evidence.p_value < alpha / looks``).
``plants``
    the violations planted through what the checker reads (:class:`proofs_check.plants.Plant`), each of which
    must flip a ``holds`` (a reading's are the :class:`Reading`'s own): declared with the claim, read from the
    registry by the catalogue's tests and by the mutation pass (``tools/mutate_claims.py``).
``evidence``
    how strong the verdict is (:data:`EVIDENCE`): by default ``proved`` for a symbolic proof,
    ``searched`` for exact claims, ``statistical`` for asymptotic and empirical ones. A claim
    that is true by the library's own construction says ``definitional`` and why
    (``evidence_note``).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import difflib
import fnmatch
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from petheory.plugins import glob_select
from petheory.errors import NoMatchError, ValidationError, ValidationTypeError

KINDS = ("exact", "symbolic", "asymptotic", "empirical")
VERDICTS = ("holds", "refuted", "depends", "vacuous", "inconclusive", "not_reproduced", "skipped")
#: Where an empirical claim's data and sizes come from (DESIGN.md, "The claim catalogue").
SETUPS = ("paper", "reconstruction", "substitute")
#: Training seeds an empirical claim on trained models needs per configuration before it decides anything.
MIN_SEEDS = 3
#: What the paper calls the sentence. ``None`` (reported as "unspecified") only for plugin claims that do not say.
PAPER_STATUSES = ("theorem", "lemma", "proposition", "corollary", "remark", "assumption", "interpretation",
                  "conjecture", "empirical")
#: How strong a verdict is, strongest first.
EVIDENCE = ("proved", "exhaustive", "searched", "statistical", "definitional")
#: Statuses whose failure on an object is a statement of scope, not a refuted result.
NOT_RESULTS = ("assumption", "interpretation")
_ID = re.compile(r"^[a-z][a-z0-9]*\d{4}\.[a-z0-9_]+$")
_READING = re.compile(r"^[a-z][a-z0-9_]*$")


# ------------------------------------------------------------------------------ named quantities of a replay

_RECORDING: contextvars.ContextVar[dict | None] = contextvars.ContextVar("proofs_check_quantities", default=None)


def quantities(**named) -> None:
    """Name the quantities a checker compares (the two sides of its inequality, the terms of a sum, ...).

    Kept only while a replay records them (:func:`recording`); during the search it costs one
    context-variable read. Values are converted to plain floats, lists or strings for the JSON.
    A checker that compares several things calls it as often as it likes; a later name overwrites.

    Parameters
    ----------
    **named
        Name -> value. Numpy scalars become Python numbers, arrays, tuples and lists become lists,
        dict keys strings, a complex number ``{'re': ..., 'im': ...}``; strings and None stay, any other
        object becomes its ``str``.

    See Also
    --------
    recording

    Examples
    --------
    >>> import numpy as np
    >>> from proofs_check.engine import quantities, recording
    >>> quantities(lhs=1.0)  # no replay is recording: nothing is kept
    >>> with recording() as q:
    ...     quantities(lhs=1.5, rhs=np.float64(2.0))
    >>> q
    {'lhs': 1.5, 'rhs': 2.0}
    """
    into = _RECORDING.get()
    if into is None:
        return
    for k, x in named.items():
        into[k] = _plain(x)


def _plain(x):
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, np.ndarray):
        return _plain(x.tolist())
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    if isinstance(x, dict):
        return {str(k): _plain(y) for k, y in x.items()}
    if isinstance(x, complex):
        return {"re": x.real, "im": x.imag}
    return x if isinstance(x, str) or x is None else str(x)


@contextlib.contextmanager
def recording() -> Iterator[dict]:
    """Collect what checkers pass to :func:`quantities` inside the block, into the dict it yields.

    The recording is a context variable: it is reset when the block exits (also on an exception),
    and a nested recording collects into its own dict while it lasts.

    Yields
    ------
    dict
        Name -> plain value (float, int, list, str, ...), filled as the block runs; a later value under
        the same name replaces the earlier one.

    See Also
    --------
    quantities

    Examples
    --------
    >>> import numpy as np
    >>> from proofs_check.engine import quantities, recording
    >>> with recording() as q:
    ...     quantities(ptp=np.float64(0.25), terms=np.array([1, 2]))
    ...     quantities(ptp=0.5)  # a later value under the same name wins
    >>> q
    {'ptp': 0.5, 'terms': [1, 2]}
    """
    into: dict = {}
    token = _RECORDING.set(into)
    try:
        yield into
    finally:
        _RECORDING.reset(token)


@dataclass(frozen=True)
class Reading:
    """One reading of an ambiguous statement: a named sub-claim with its own statement and checker.

    Every other field is a :class:`Claim` field of the same name and meaning; left ``None`` it is
    the claim's (:meth:`Claim.reading`). E.g. ``alpha`` is the claim's pre-registered alpha unless the
    reading states its own, and ``trained=False`` marks an empirical reading on no trained model (a
    corpus statistic) under a claim on trained ones.

    Attributes
    ----------
    name : str
        The reading's name (its id is ``<claim id>#<name>``).
    statement : str
        The statement under this reading.
    check : callable or None
        Its checker (as :class:`Claim`'s).
    cases : callable or None
        Its case strategy.
    kind, proof, examples, evidence, evidence_note, reconstruction, trained, alpha : optional
        As the :class:`Claim` field of the same name; None: the claim's.
    plants : tuple of Plant or None
        The reading's own planted violations (never its claim's).
    """

    name: str
    statement: str
    check: Callable[..., Any] | None = None
    cases: Callable[[], Any] | None = None
    kind: str | None = None
    proof: Callable[[], bool] | None = None
    examples: dict | None = None
    evidence: str | None = None
    evidence_note: str | None = None
    reconstruction: str | None = None
    trained: bool | None = None
    alpha: float | None = None
    plants: tuple | None = None  # the reading's own planted violations (never the claim's)


@dataclass(frozen=True)
class Calibration:
    """The paper's own numbers for rows we also measure, and the tolerance the claim states.

    ``paper`` maps a row (e.g. ``"sinusoidal"``) to the paper's number; the checker returns ours in
    ``Evidence.calibration`` (same keys). A row is within tolerance when ``|ours - paper| <= tolerance *
    |paper|`` (``relative``) or ``<= tolerance`` (``absolute``); ``why`` says where the tolerance comes from.

    Attributes
    ----------
    paper : dict
        Row -> the paper's number.
    tolerance : float
        How far ours may be from it.
    why : str
        Where the tolerance comes from.
    relative : bool
        Whether ``tolerance`` is relative to the paper's number (else absolute).
    source : str
        Where the paper's numbers are.
    """

    paper: dict
    tolerance: float
    why: str
    relative: bool = True
    source: str = ""

    def __post_init__(self):
        if not self.paper or not all(isinstance(v, (int, float)) and np.isfinite(v) for v in self.paper.values()):
            raise ValidationError(f"Calibration.paper must map rows to finite numbers, got {self.paper!r}")
        if not (isinstance(self.tolerance, (int, float)) and self.tolerance >= 0 and np.isfinite(self.tolerance)):
            raise ValidationError(f"Calibration.tolerance must be a finite number >= 0, got {self.tolerance!r}")
        if not self.why:
            raise ValidationError("Calibration.why must say where the tolerance comes from")

    def compare(self, ours: dict | None) -> dict:
        """Rows side by side and whether every row the paper reports is within tolerance (a missing row is not)."""
        ours = dict(ours or {})
        rows = []
        for k, p in self.paper.items():
            o = ours.get(k)
            dev = None if o is None else abs(float(o) - float(p)) / (abs(float(p)) if self.relative else 1.0)
            rows.append({"row": k, "paper": float(p), "ours": None if o is None else float(o), "deviation": dev,
                         "within": dev is not None and dev <= self.tolerance})
        return {"rows": rows, "tolerance": float(self.tolerance), "relative": self.relative, "why": self.why,
                "source": self.source, "within": all(r["within"] for r in rows)}


@dataclass(frozen=True)
class Premise:
    """A premise of the statement that no object satisfies.

    ``argument`` is the proof in words; ``proof() -> bool`` checks it (e.g. with sympy) and may be
    None. ``witness(case) -> float`` is > 0 when a generated case satisfies the premise: the runner
    searches ``cases()`` for one, so a wrong impossibility argument is caught as a crash.

    Attributes
    ----------
    statement : str
        The premise as the paper states it.
    argument : str
        Why no object satisfies it, in words.
    cases : callable
        ``() ->`` a hypothesis strategy of candidate objects.
    witness : callable
        ``witness(case) -> float``: > 0 when a case satisfies the premise.
    proof : callable or None
        ``proof() -> bool``, a check of the argument (e.g. with sympy).
    """

    statement: str
    argument: str
    cases: Callable[[], Any]
    witness: Callable[[Any], float]
    proof: Callable[[], bool] | None = None


@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how to check it. See the module docstring.

    Attributes
    ----------
    id : str
        ``<firstauthor><year>.<short_name>``.
    source : str
        Paper, section, equation or table.
    statement : str
        The claim as the paper states it, in words and LaTeX.
    kind : str
        ``'exact'``, ``'symbolic'``, ``'asymptotic'`` or ``'empirical'``.
    check : callable or None
        The checker (its meaning depends on ``kind``: module docstring).
    cases : callable or None
        ``() ->`` a hypothesis strategy of JSON-able cases (exact and symbolic claims).
    proof : callable or None
        ``() -> bool``, a sympy proof (symbolic claims).
    skip_reason : str or None
        Why the claim cannot be checked (it is then ``skipped``).
    reconstruction : str or None
        What a reconstruction assumes where the paper does not say.
    corrected_of : str or None
        The refuted claim this one corrects.
    examples : dict
        Profile -> case budget, overriding the profile's.
    paper_status : str or None
        What the paper calls the sentence (``PAPER_STATUSES``).
    evidence : str or None
        How strong the verdict is (``EVIDENCE``; None: the kind's default).
    evidence_note : str or None
        Why, where that needs saying (a ``definitional`` claim).
    readings : tuple of Reading
        The readings of an ambiguous statement.
    premise : Premise or None
        A premise no object satisfies (the verdict is then ``vacuous``).
    reading_of : str or None
        For a reading made into a claim: the claim it reads.
    setup : str or None
        ``'paper'``, ``'reconstruction'`` or ``'substitute'`` (empirical claims).
    calibration : Calibration or None
        The paper's numbers for rows we also measure.
    exploratory : bool
        Written after seeing the records: at most ``inconclusive`` until confirmed.
    confirm_on : str or None
        The fresh seeds, named in advance, that would confirm an exploratory claim.
    alpha : float or None
        The pre-registered level.
    looks : int
        Planned looks at the data; a decision needs ``p < alpha / looks``.
    trained : bool
        Whether the evidence comes from trained models (the seed rule applies).
    plants : tuple of Plant
        Planted violations (:class:`proofs_check.plants.Plant`) that must each flip a ``holds``.
    """

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
    paper_status: str | None = None
    evidence: str | None = None
    evidence_note: str | None = None
    readings: tuple = ()
    premise: Premise | None = None
    reading_of: str | None = None
    setup: str | None = None
    calibration: Calibration | None = None
    exploratory: bool = False
    confirm_on: str | None = None  # an exploratory claim: the fresh seeds (named in advance) that would confirm it
    alpha: float | None = None
    looks: int = 1
    trained: bool = True  # an empirical claim whose evidence comes from trained models (the seed rule applies)
    plants: tuple = ()  # planted violations (proofs_check.plants.Plant) that must flip a holds

    def __post_init__(self):
        # the one place a declaration's containers are normalised (frozen: set through object)
        object.__setattr__(self, "examples", dict(self.examples or {}))
        object.__setattr__(self, "readings", tuple(self.readings))
        object.__setattr__(self, "plants", tuple(self.plants or ()))

    def __call__(self, fn):
        # `@claim(..., readings=...)` over a function: the declaration was complete and registered already
        raise ValidationTypeError(f"claim {self.id} is complete as declared (its readings, skip_reason or check) and "
                                  f"takes no checker: call claim(...) on its own, not as a decorator of {fn!r}")

    def reading(self, name: str) -> "Claim":
        """Reading ``name`` as a claim of its own (id ``<id>#<name>``), for the runner and ``--case``: this
        claim with every field the :class:`Reading` sets (not None) in its place, and no readings or premise."""
        for r in self.readings:
            if r.name == name:
                own = {f.name: getattr(r, f.name) for f in dataclasses.fields(r)
                       if f.name != "name" and getattr(r, f.name) is not None}
                own.setdefault("plants", ())  # a claim's plants flip the claim, not its readings
                return dataclasses.replace(self, id=f"{self.id}#{r.name}", reading_of=self.id, readings=(), premise=None,
                                           **own)
        names = ", ".join(r.name for r in self.readings) or "none"
        raise ValidationError(f"claim {self.id} has no reading {name!r}; its readings: {names}")

    def violation(self, case) -> float:
        """Evaluate the checker on one case (exact and symbolic kinds)."""
        if self.kind not in ("exact", "symbolic"):
            raise ValidationTypeError(f"claim {self.id} is {self.kind}; it has no per-case violation")
        value = float(self.check(case))
        if np.isnan(value):
            raise ValidationError(f"checker of {self.id} returned NaN on case {case!r}")
        return value


@dataclass
class Context:
    """What an asymptotic or empirical checker gets from the runner.

    Attributes
    ----------
    profile : str
        ``'quick'`` or ``'thorough'`` (``PROFILES`` of the runner).
    budget : int
        Cases or sizes the profile allows.
    rng : numpy.random.Generator
        Seeded from the claim's id and the run's seed.
    seed : int
        That seed.
    quiet : bool
        No progress output.
    workdir : str or None
        Where records are read (``runs/``); None: the current folder.
    alpha : float or None
        The claim's alpha for this look: its pre-registered alpha over its planned looks.
    """

    profile: str
    budget: int
    rng: np.random.Generator
    seed: int
    quiet: bool = True
    workdir: str | None = None
    alpha: float | None = None  # the claim's alpha for this look: its pre-registered alpha / its planned looks


@dataclass
class Evidence:
    """The result an asymptotic or empirical checker returns.

    ``margin`` has the runner's meaning: the smallest slack seen, in the units of the
    statement (negative when refuted). ``details`` holds the numbers behind the verdict
    (fitted rates with confidence intervals, per-size values, ...) and goes into the report.

    Attributes
    ----------
    verdict : str
        One of ``VERDICTS``.
    cases : int
        Cases, sizes or records the verdict rests on.
    margin : float or None
        The smallest slack seen, in the statement's units (negative when refuted).
    details : dict
        The numbers behind the verdict; they go into the report.
    counterexample : object
        What refutes the claim, JSON-able (None when nothing does).
    summary : str
        The verdict in one or two sentences (formulas as ``$...$``).
    strength : str or None
        One of ``EVIDENCE``; None: the claim's.
    seeds : dict or None
        Configuration -> training seeds the verdict rests on.
    p_value : float or None
        The p-value a decision rests on (multiplicity within the look applied).
    calibration : dict or None
        Row -> our number, for the claim's :class:`Calibration`.
    confirmatory : bool
        The evidence comes only from the fresh seeds an exploratory claim named in advance.
    setup : str or None
        The setup of the data actually used, where it depends on them.
    """

    verdict: str
    cases: int
    margin: float | None = None
    details: dict = field(default_factory=dict)
    counterexample: Any = None
    summary: str = ""
    strength: str | None = None  # one of EVIDENCE; None: the claim's (default 'statistical')
    seeds: dict | None = None  # configuration -> number of training seeds the verdict rests on
    p_value: float | None = None  # the p-value a decision rests on (multiplicity within the look already applied)
    calibration: dict | None = None  # row -> our number, for the claim's Calibration
    confirmatory: bool = False  # the evidence comes only from the fresh seeds an exploratory claim named in advance
    setup: str | None = None  # the setup of the data actually used, where it depends on them (e.g. a user's corpus)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValidationError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.setup is not None and self.setup not in SETUPS:
            raise ValidationError(f"setup must be one of {SETUPS}, got {self.setup!r}")
        if self.strength is not None and self.strength not in EVIDENCE:
            raise ValidationError(f"strength must be one of {EVIDENCE}, got {self.strength!r}")


_CLAIMS: dict[str, Claim] = {}


#: What a declaration may set: every :class:`Claim` field but ``reading_of`` (set by :meth:`Claim.reading`).
DECLARABLE = tuple(f.name for f in dataclasses.fields(Claim) if f.name != "reading_of")


def claim(*, overwrite: bool = False, **fields):
    """Declare a claim (the fields of :class:`Claim`): the one way to add a claim to the catalogue.

    A claim complete as declared is registered at once and returned: one decided by its ``readings``,
    one that cannot be checked (``skip_reason``), or one given its ``check``. Otherwise this is a
    decorator, and the decorated function (returned unchanged) is the checker. ``overwrite=True``
    replaces a registered claim of the same id. See the module docstring.

    Parameters
    ----------
    overwrite : bool
        Replace a registered claim of the same id (default: a different declaration under a registered
        id is refused; the same declaration again is harmless).
    **fields
        The fields of :class:`Claim` by name (every one but ``reading_of``): ``id``, ``source``,
        ``statement`` and ``kind`` are required; ``check``, ``cases``, ``readings``, ``skip_reason``,
        ``paper_status``, ``evidence``, ... as the claim needs.

    Returns
    -------
    Claim or callable
        The registered :class:`Claim` when the declaration is complete (``check``, ``readings`` or
        ``skip_reason`` given); otherwise a decorator that registers the claim with the decorated
        function as its checker and returns that function unchanged.

    Raises
    ------
    petheory.errors.ValidationTypeError
        An unknown field (with the closest valid name) or a missing required one.
    petheory.errors.ValidationError
        A declaration the registry refuses: an id not shaped ``<firstauthor><year>.<short_name>``, an
        unknown ``kind``, ``paper_status`` or ``evidence``, an exact claim without ``cases``, an empirical
        claim without ``setup`` or ``alpha``, an id already registered with another declaration, ...

    See Also
    --------
    Claim, get

    Examples
    --------
    >>> from proofs_check.engine import claim
    >>> deco = claim(id="doc2099.later", source="doc", statement="s", kind="exact", cases=lambda: None)
    >>> callable(deco)  # no checker yet: a decorator, and nothing is registered until it decorates one
    True
    >>> claim(id="doc2099.short", source="doc", kind="exact")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationTypeError: claim doc2099.short: missing field(s) statement
    >>> claim(id="doc2099.typo", source="doc", statement="s", kind="exact", statment="typo")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationTypeError: claim doc2099.typo: unknown field 'statment' (did you mean 'statement'?); a claim's fields: id, source, statement, ...
    """
    owner = fields.get("id", "?")
    for name in fields:
        if name not in DECLARABLE:
            close = difflib.get_close_matches(name, DECLARABLE + ("overwrite",), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValidationTypeError(f"claim {owner}: unknown field {name!r}{hint}; a claim's fields: "
                                      f"{', '.join(DECLARABLE)}, and overwrite")
    missing = [f.name for f in dataclasses.fields(Claim)
               if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING and f.name not in fields]
    if missing:
        raise ValidationTypeError(f"claim {owner}: missing field(s) {', '.join(missing)}")
    if fields.get("check") is not None or fields.get("readings") or fields.get("skip_reason") is not None:
        return _register(Claim(**fields), overwrite=overwrite)

    def deco(fn):
        _register(Claim(check=fn, **fields), overwrite=overwrite)
        return fn

    return deco


def _validate_checkable(owner: str, kind: str, check, cases, proof) -> None:
    if kind not in KINDS:
        raise ValidationError(f"claim {owner}: kind must be one of {KINDS}, got {kind!r}")
    if check is None:
        raise ValidationError(f"claim {owner}: a checker is required unless the claim is skipped")
    if kind in ("exact", "symbolic") and cases is None:
        raise ValidationError(f"claim {owner}: {kind} claims need a `cases` strategy")
    if kind == "symbolic" and proof is None:
        raise ValidationError(f"claim {owner}: symbolic claims need a `proof`")


def _validate_reproduction(c: Claim) -> None:
    """The reproduction fields (DESIGN.md): every empirical claim states its setup and its alpha."""
    if c.setup is not None and c.setup not in SETUPS:
        raise ValidationError(f"claim {c.id}: setup must be one of {SETUPS}, got {c.setup!r}")
    if c.kind == "empirical" and c.skip_reason is None and c.setup is None:
        raise ValidationError(f"claim {c.id}: an empirical claim must state its setup, one of {SETUPS} "
                         "(the paper's data and sizes, our reading of an underspecified one, or other data)")
    if c.kind == "empirical" and c.skip_reason is None and c.alpha is None:
        raise ValidationError(f"claim {c.id}: an empirical claim must state its pre-registered alpha (e.g. alpha=0.05)")
    if c.alpha is not None and not (0 < c.alpha < 1):
        raise ValidationError(f"claim {c.id}: alpha must be in (0, 1), got {c.alpha!r}")
    if not isinstance(c.looks, int) or isinstance(c.looks, bool) or c.looks < 1:
        raise ValidationError(f"claim {c.id}: looks must be a whole number >= 1 (planned looks at the data), got {c.looks!r}")
    if c.calibration is not None and not isinstance(c.calibration, Calibration):
        raise ValidationTypeError(f"claim {c.id}: calibration must be a proofs_check.engine.Calibration, got {type(c.calibration).__name__}")
    if c.exploratory and not c.confirm_on:
        raise ValidationError(f"claim {c.id}: an exploratory claim must name, in confirm_on, the fresh seeds that would confirm it")


def _register(c: Claim, *, overwrite: bool = False) -> Claim:
    if not _ID.match(c.id):
        raise ValidationError(f"claim id must look like '<firstauthor><year>.<short_name>', got {c.id!r}")
    if c.kind not in KINDS:
        raise ValidationError(f"claim {c.id}: kind must be one of {KINDS}, got {c.kind!r}")
    if c.paper_status is not None and c.paper_status not in PAPER_STATUSES:
        raise ValidationError(f"claim {c.id}: paper_status must be one of {PAPER_STATUSES}, got {c.paper_status!r}")
    for ev in [c.evidence] + [r.evidence for r in c.readings]:
        if ev is not None and ev not in EVIDENCE:
            raise ValidationError(f"claim {c.id}: evidence must be one of {EVIDENCE}, got {ev!r}")
    _validate_reproduction(c)
    if c.evidence == "definitional" and not c.evidence_note:
        raise ValidationError(f"claim {c.id}: 'definitional' evidence needs an evidence_note saying why")
    names = [r.name for r in c.readings]
    if len(set(names)) != len(names) or not all(_READING.match(n) for n in names):
        raise ValidationError(f"claim {c.id}: reading names must be distinct snake_case words, got {names}")
    for r in c.readings:
        sub = c.reading(r.name)
        _validate_checkable(sub.id, sub.kind, sub.check, sub.cases, sub.proof)
    if c.premise is not None and not c.readings:
        raise ValidationError(f"claim {c.id}: a premise no object satisfies needs a reading with the nearest satisfiable one")
    if c.skip_reason is None and not c.readings:
        _validate_checkable(c.id, c.kind, c.check, c.cases, c.proof)
    if c.id in _CLAIMS and not overwrite and _CLAIMS[c.id] != c:  # the same declaration again (one module imported
        # twice) is harmless; another under the same id is refused, with or without a checker of its own
        raise ValidationError(f"claim {c.id!r} is already registered")
    _CLAIMS[c.id] = c
    return c


def get(claim_id: str) -> Claim:
    """Claim ``claim_id``, or one reading of it as a claim when the id is ``<claim id>#<reading>``.

    Loads the built-in claims (and the ``petheory.claims`` entry points) first: :func:`load_builtin`.

    Parameters
    ----------
    claim_id : str
        A registered id (``<firstauthor><year>.<short_name>``), or ``<claim id>#<reading name>``.

    Returns
    -------
    Claim
        The registered claim, or for a reading the claim with the reading's fields in place
        (:meth:`Claim.reading`: id ``<claim id>#<reading>``, ``reading_of`` set, no readings).

    Raises
    ------
    petheory.errors.ValidationError
        An unknown id, or a reading the claim does not have (the message lists its readings).

    See Also
    --------
    select, all_claims

    Examples
    --------
    >>> from proofs_check import engine
    >>> c = engine.get("li2025.alibi_monotone_bias")
    >>> c.kind, c.source
    ('exact', 'li2025 §5.3 (the summary names no status)')
    >>> engine.get("cirrincione2026.hellinger_mds_optimal#stress").reading_of
    'cirrincione2026.hellinger_mds_optimal'
    >>> engine.get("li2025.no_such_claim")
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: unknown claim 'li2025.no_such_claim'; `petheory check --list` shows ...
    """
    load_builtin()
    if "#" in claim_id:
        base, name = claim_id.split("#", 1)
        return get(base).reading(name)
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise ValidationError(f"unknown claim {claim_id!r}; `petheory check --list` shows the registered ids") from None


def all_claims() -> list[Claim]:
    """Every registered claim (built-in and plugin ones), sorted by id; readings are not listed apart.

    Loads the built-in claims and the ``petheory.claims`` entry points first (:func:`load_builtin`).

    Returns
    -------
    list of Claim
        The catalogue, sorted by id.

    See Also
    --------
    select, get

    Examples
    --------
    >>> from proofs_check import engine
    >>> ids = [c.id for c in engine.all_claims()]
    >>> ids == sorted(ids), "li2025.alibi_monotone_bias" in ids
    (True, True)
    """
    load_builtin()
    return [_CLAIMS[k] for k in sorted(_CLAIMS)]


def select(patterns: str | None) -> list[Claim]:
    """Claims matching a comma-separated list of glob patterns (all when None or empty).

    A pattern that matches nothing is an error, so a typo never silently checks nothing.

    Parameters
    ----------
    patterns : str or None
        Comma-separated ``fnmatch`` globs on claim ids (``'gu2025.*'``); ``'<claim glob>#<reading glob>'``
        selects readings of the matching claims, each as a claim of its own (:meth:`Claim.reading`).

    Returns
    -------
    list of Claim
        The matched claims and readings, each once, sorted by id.

    Raises
    ------
    petheory.errors.ValidationError
        A pattern that matches no claim (or no reading), or a non-empty string with no pattern in it.

    See Also
    --------
    all_claims, get

    Examples
    --------
    >>> from proofs_check import engine
    >>> for c in engine.select("li2025.alibi_monotone_bias, cirrincione2026.hellinger_mds_optimal#*"):
    ...     print(c.id)
    cirrincione2026.hellinger_mds_optimal#strain
    cirrincione2026.hellinger_mds_optimal#stress
    li2025.alibi_monotone_bias
    >>> engine.select("li2025.alibi_monotne_bias")  # a typo is an error, not an empty selection
    Traceback (most recent call last):
    ...
    petheory.errors.NoMatchError: --claims pattern 'li2025.alibi_monotne_bias' matches no registered claim
    """
    claims = all_claims()
    if not patterns:
        return claims
    pats = [p.strip() for p in patterns.split(",") if p.strip()]
    if not pats:
        raise ValidationError("--claims is empty; give glob patterns such as 'gu2025.*'")
    chosen = []
    for p in pats:
        if "#" in p:  # readings: '<claim glob>#<reading glob>'
            cp, rp = p.split("#", 1)
            hit = [c.reading(r.name) for c in claims if fnmatch.fnmatchcase(c.id, cp)
                   for r in c.readings if fnmatch.fnmatchcase(r.name, rp)]
            if not hit:
                raise NoMatchError(f"--claims pattern {p!r} matches no reading of a registered claim")
            chosen.extend(h for h in hit if h.id not in {x.id for x in chosen})
            continue
        by_id = {c.id: c for c in claims}
        hit = [by_id[i] for i in glob_select(by_id, [p], no_match="--claims pattern {pattern!r} matches no registered claim")]
        chosen.extend(h for h in hit if h not in chosen)
    return sorted(chosen, key=lambda c: c.id)


_LOADED = False


def load_builtin() -> None:
    """Import the built-in claim modules and the ``petheory.claims`` entry points once.

    The registry functions (:func:`get`, :func:`all_claims`, :func:`select`) call it themselves; a
    later call is a no-op.

    See Also
    --------
    all_claims

    Examples
    --------
    >>> from proofs_check import engine
    >>> engine.load_builtin()
    >>> n = len(engine.all_claims())
    >>> engine.load_builtin()  # once only: nothing is registered twice
    >>> len(engine.all_claims()) == n
    True
    """
    global _LOADED
    if not _LOADED:
        _LOADED = True
        import proofs_check.claims  # noqa: F401  (registers on import)
    from petheory.plugins import load_entry_points

    load_entry_points("petheory.claims")  # once per group; a no-op after the first call
