"""The fields a claim's cases have, found by drawing from its strategy; used by ``--list`` and ``--case``.

A claim's ``cases()`` is a hypothesis strategy of JSON dicts (often ``@st.composite``, so its keys
are not declared anywhere): the fields are the keys of drawn cases. Draws are seeded, so the
answer is the same on every run. A key present in every draw is *required*; one present in some
draws only is *optional* (e.g. ``w_imag`` drawn as absent or null).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from dataclasses import dataclass

from petheory.errors import ValidationError

#: Draws per claim. Enough to see every optional key of the built-in strategies (they are
#: drawn with probability >= 1/4), few enough to list the whole catalogue in a second or two.
DRAWS = 40


@dataclass(frozen=True)
class CaseFields:
    """The keys of a claim's cases, read from a few seeded draws of its strategy (for ``check --list`` and
    ``--case``).

    Attributes
    ----------
    required : tuple of str
        Keys every drawn case has.
    optional : tuple of str
        Keys some drawn cases have.
    example : dict or None
        The shortest drawn case (JSON), to copy into ``--case``.
    """

    required: tuple[str, ...]
    optional: tuple[str, ...]
    example: dict | None  # the shortest drawn case (JSON), to copy into --case

    def describe(self) -> str:
        req = ", ".join(self.required) or "(none)"
        return req + (f"; optional: {', '.join(self.optional)}" if self.optional else "")


#: case_fields per claim object, draws and seed: the draws are seeded, so a claim's answer never changes, and
#: ``check --list``, ``--case`` and every replay of a counterexample in one process draw its 40 cases once.
#: Keyed by the claim's identity (the entry keeps the claim alive, so the id is never reused): a claim
#: registered again under the same id is another object and is drawn afresh.
_FIELDS: dict[tuple[int, int, int], tuple[object, CaseFields | None]] = {}


def case_fields(c, draws: int = DRAWS, seed: int = 0) -> CaseFields | None:
    """The fields of claim ``c``'s cases, read from ``draws`` seeded draws of its strategy.

    Drawn once per claim object, ``draws`` and ``seed`` (a claim's answer never changes); the caller gets its own copy of
    the example.

    Parameters
    ----------
    c : Claim
        The claim.
    draws : int, optional
        Cases drawn.
    seed : int, optional
        Seed of the draws.

    Returns
    -------
    CaseFields or None
        The required and optional keys and the shortest case; None for claims without cases (asymptotic, empirical,
        skipped).

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.sum", source="demo", statement="x", kind="exact", check=lambda case: 0.0,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(1, 5)}, optional={"scale": st.floats(0.5, 2.0)}))
    >>> f = case_fields(c)
    >>> f.required, f.optional, f.example
    (('n',), ('scale',), {'n': 1})
    """
    hit = _FIELDS.get((id(c), draws, seed))
    if hit is None or hit[0] is not c:
        hit = _FIELDS[id(c), draws, seed] = (c, _draw_fields(c, draws, seed))
    f = hit[1]
    return f if f is None else dataclasses.replace(f, example=copy.deepcopy(f.example))  # a caller may edit its copy


def _draw_fields(c, draws: int, seed: int) -> CaseFields | None:
    if c.cases is None or c.kind not in ("exact", "symbolic"):
        return None
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis.errors import NoSuchExample

    seen: list[dict] = []

    def record(case) -> bool:
        if isinstance(case, dict):
            seen.append(case)
        return False

    cfg = settings(max_examples=draws, database=None, deadline=None, phases=[Phase.generate],
                   suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    try:
        find(c.cases(), record, settings=cfg, random=random.Random(seed))
    except NoSuchExample:
        pass
    if not seen:
        return CaseFields((), (), None)
    keys = [set(s) for s in seen]
    every, some = set.intersection(*keys), set.union(*keys)
    order = list(dict.fromkeys(k for s in seen for k in s))  # first-seen order: the strategy's own
    example = min(seen, key=lambda s: len(_dumps(s)))
    return CaseFields(tuple(k for k in order if k in every), tuple(k for k in order if k in some - every), example)


def validate_case(c, case, *, missing_ok: bool = False) -> list:
    """Refuse a user's ``--case`` that has unknown fields or lacks required ones.

    With ``missing_ok`` a missing field is not an error here but returned: a shrunk counterexample
    drops the fields its checker never reads (the runner prunes them), so it replays without them;
    the caller reports a missing field only when the checker asks for it.

    Parameters
    ----------
    c : Claim
        The claim the case is for.
    case : object
        The parsed ``--case``.
    missing_ok : bool, optional
        Return missing required fields instead of refusing them.

    Returns
    -------
    list of str
        The missing required fields (``missing_ok``); [] otherwise.

    Raises
    ------
    petheory.errors.ValidationError
        ``case`` is not an object, or does not fit the claim's fields; the message lists them with an example.

    Examples
    --------
    >>> import hypothesis.strategies as st
    >>> from proofs_check.engine import Claim
    >>> c = Claim(id="demo.sum", source="demo", statement="x", kind="exact", check=lambda case: 0.0,
    ...           cases=lambda: st.fixed_dictionaries({"n": st.integers(1, 5)}, optional={"scale": st.floats(0.5, 2.0)}))
    >>> validate_case(c, {"n": 3}), validate_case(c, {}, missing_ok=True)
    ([], ['n'])
    >>> validate_case(c, {"m": 3})
    Traceback (most recent call last):
    ...
    petheory.errors.ValidationError: --case does not fit claim demo.sum: unknown field(s) 'm'; missing field(s) 'n'; ...
    """
    if not isinstance(case, dict):
        raise ValidationError(f"--case must be a JSON object such as {_dumps(_example(c))}, got {type(case).__name__}")
    f = case_fields(c)
    if f is None or f.example is None:
        return []
    unknown = [k for k in case if k not in f.required and k not in f.optional]
    missing = [k for k in f.required if k not in case]
    if missing_ok and not unknown:
        return missing
    if unknown or missing:
        what = "; ".join(p for p in (f"unknown field(s) {', '.join(map(repr, unknown))}" if unknown else "",
                                     f"missing field(s) {', '.join(map(repr, missing))}" if missing else "") if p)
        raise ValidationError(f"--case does not fit claim {c.id}: {what}; expected fields: {f.describe()} "
                         f"(e.g. {_dumps(f.example)}; `petheory check --list --claims {c.id}` shows them)")
    return []


def _example(c):
    f = case_fields(c)
    return None if f is None else f.example


def _dumps(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), allow_nan=False, default=str)


def listing(claims) -> list[dict]:
    """``petheory check --list --json``: per claim its id, kind, source, statement, the fields of its cases (None
    for a claim checked as a whole), an example case and why it is skipped (None when it is not).

    Parameters
    ----------
    claims : list of Claim

    Returns
    -------
    list of dict

    Examples
    --------
    >>> from proofs_check import select
    >>> row = listing(select("gu2025.lemma_b1_amplitude"))[0]
    >>> list(row), row["kind"]
    (['id', 'kind', 'source', 'statement', 'case_fields', 'example_case', 'skip_reason'], 'exact')
    """
    out = []
    for c in claims:
        f = case_fields(c)
        out.append({"id": c.id, "kind": c.kind, "source": c.source, "statement": c.statement,
                    "case_fields": None if f is None else {"required": list(f.required), "optional": list(f.optional)},
                    "example_case": None if f is None else f.example, "skip_reason": c.skip_reason})
    return out


def listing_lines(claims) -> list[str]:
    """``petheory check --list``: per claim its id, kind and source, then its statement and the fields a ``--case``
    needs with an example (or why it is skipped, or that it is checked as a whole).

    Parameters
    ----------
    claims : list of Claim

    Returns
    -------
    list of str

    Examples
    --------
    >>> from proofs_check import select
    >>> listing_lines(select("gu2025.lemma_b1_amplitude"))[0].split()[:2]
    ['gu2025.lemma_b1_amplitude', 'exact']
    """
    out = []
    for c in claims:
        f = case_fields(c)
        out += [f"{c.id}\t{c.kind}\t{c.source}", f"    statement: {' '.join(str(c.statement).split())}"]
        if c.skip_reason:
            out.append(f"    skipped: {' '.join(c.skip_reason.split())}")
        elif f is None:
            out.append(f"    no --case: checked as a whole ({c.kind})")
        else:
            out += [f"    case fields: {f.describe()}", f"    e.g. --case '{json.dumps(f.example, separators=(',', ':'))}'"]
    return out
