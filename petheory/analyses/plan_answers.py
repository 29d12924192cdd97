"""The plan's two answers from published evidence: which candidate to set training-free and which to fine-tune with.

Each candidate is mapped to the method family the evidence table names (:func:`method_family`); per regime, the
answer is the candidate whose family :func:`petheory.evidence.expectation.expect` gives the highest expected RULER
score at s = N/L (rule fixed in advance: :func:`answer`). The theory checks enter only as predictors, with their
measured accuracy on the table (:func:`predictor_lines`); :func:`at_own_length` is the evidence quoted when N <= L.
"""

from __future__ import annotations

from petheory.analyses.plan_record import Answer, CandidatePlan
from petheory.evidence import expectation as ev
from petheory.evidence import predictors as ev_predictors
from petheory.evidence import table as ev_table

__all__ = ["method_family", "answer", "predictor_lines", "at_own_length"]


#: A candidate's method family (petheory.evidence.table.METHODS) from what it runs: its registry entry, and for plain
#: RoPE whether the base was raised.
_FAMILY = {"rope_pi": "pi", "rope_ntk": "base", "rope_dynamic": "base", "rope_yarn": "yarn", "rope_llama3": "llama3",
           "rope_longrope": "longrope"}
_METHOD = {"rope_pi": "pi", "rope_ntk": "ntk", "rope_dynamic": "dynamic_ntk", "rope_yarn": "yarn", "rope_llama3": "llama3",
           "rope_longrope": "longrope"}


def method_family(c: CandidatePlan, base: float) -> tuple[str, str]:
    """(family, method) of a candidate, as the evidence table names them.

    Parameters
    ----------
    c : CandidatePlan
        An analysed candidate (:func:`petheory.analyses.plan.analyse`).
    base : float
        The model's own base: plain RoPE above it is a raised base (family ``base``), at it ``none``.

    Returns
    -------
    tuple of (str, str)
        The family (:data:`petheory.evidence.table.FAMILIES`) and the method (:data:`petheory.evidence.table.METHODS`).

    Examples
    --------
    >>> from petheory.analyses.plan import plan
    >>> from petheory.loaders import resolve_scheme
    >>> k = plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=4096).kinds[0]
    >>> method_family(k.candidate("yarn"), k.base), method_family(k.candidate("ntk"), k.base)
    (('yarn', 'yarn'), ('base', 'ntk'))
    """
    if c.encoding == "rope":
        raised = float(c.params.get("base", base)) > base * (1 + 1e-12)
        return ("base", "ntk" if c.name == "ntk" else "abf") if raised else ("none", "none")
    return _FAMILY.get(c.encoding, c.encoding), _METHOD.get(c.encoding, c.encoding)


def answer(regime: str, cands: list[CandidatePlan], base: float, s: float) -> Answer:
    """The recommendation of one regime (rule fixed in advance, module docstring): the candidate whose method family
    has the highest expected RULER score at s in the evidence; ties by more rows, then by more matched rows of the
    candidate's own method, then the order of CANDIDATES; none with evidence: no recommendation. The other families
    with evidence are named beside it with their medians (a difference within the error decides little).

    Parameters
    ----------
    regime : str
        ``training_free`` or ``fine_tuned`` (:data:`petheory.evidence.table.REGIMES`).
    cands : list of CandidatePlan
        The kind's analysed candidates, in the order of ``petheory.analyses.plan.CANDIDATES``.
    base : float
        The model's own base (:func:`method_family`).
    s : float
        The extension ratio N / L.

    Returns
    -------
    Answer
        The candidate, its expected outcome at N (or "no evidence") and why.

    Examples
    --------
    >>> from petheory.analyses.plan import plan
    >>> from petheory.loaders import resolve_scheme
    >>> k = plan(resolve_scheme("rope:base=10000", d=64, context=1024), length=4096).kinds[0]
    >>> answer("training_free", list(k.candidates), k.base, 4.0).candidate == k.training_free.candidate
    True
    """
    scored = []
    for c in cands:
        fam, meth = method_family(c, base)
        e = ev.expect(fam, regime, s) if fam in ev_table.FAMILIES else None
        if e is None or not e.evidence:
            continue
        own = sum(n for m, n in e.methods if m == meth or (meth == "yarn" and m == "yarn_dca"))
        order = cands.index(c)  # plan lists its candidates in the order of CANDIDATES
        scored.append(((-e.median, -len(e.rows), -own, order), c, e))
    if not scored:
        return Answer(regime, None, "", f"no evidence: no {regime.replace('_', '-')} row of the evidence table with a RULER "
                      f"score covers any candidate's method at an extension within x{ev.WINDOW:g} of {s:g}", "")
    scored.sort(key=lambda t: t[0])
    _, c, e = scored[0]
    reach = e.median >= ev_table.RULER_THRESHOLD
    why = (f"the highest expected score of the candidates' method families ({e.family}); the median is "
           f"{'at or above' if reach else 'below'} RULER's threshold {ev_table.RULER_THRESHOLD:g}, so the effective "
           f"length is expected {'to reach N' if reach else 'to fall short of N'}")
    if e.high < ev_table.RULER_THRESHOLD:
        # not one matched row reaches the threshold: the pick is the least bad, not a way to N
        rows = f"not one of its {len(e.rows)} matched rows reaches" if len(e.rows) > 1 else "its one matched row does not reach"
        why += f"; {rows} the threshold: the table has no {regime.replace('_', '-')} way to N at s = {s:g}, this is the least bad"
    meth = method_family(c, base)[1]
    other = [f"{m} x{n}" for m, n in e.methods if m != meth and not (meth == "yarn" and m == "yarn_dca")]
    dca = [f"{m} x{n}" for m, n in e.methods if m == "yarn_dca" and meth == "yarn"]
    if other or dca:
        why += f"; the expectation includes rows of {', '.join(other + dca)}, which this block does not set"
    seen, alts = {e.family}, []
    for _, c2, e2 in scored[1:]:
        if e2.family not in seen:
            seen.add(e2.family)
            alts.append(f"{e2.family} {e2.median:.1f} ({len(e2.rows)} row{'s' if len(e2.rows) > 1 else ''})")
    if alts:
        why += "; next: " + ", ".join(alts)
    return Answer(regime, c.name, c.label, e.line(), why)


def predictor_lines() -> tuple:
    """Each check's measured accuracy as a predictor on the evidence table (the committed outcomes; the claims
    ``men2024.base_bounds_extension_outcome``, ``liu2023.extrapolation_bound_predicts_extension_outcome`` and
    ``petheory2026.phase_range_predicts_extension_outcome`` decide them).

    Returns
    -------
    tuple of str
        One line per check and regime (:meth:`petheory.evidence.predictors.Test.line`).

    Examples
    --------
    >>> [line.split(":")[0] for line in predictor_lines()][:2]
    ['men (training-free)', 'men (fine-tuned)']
    """
    tests = ev_predictors.tests(ev_predictors.committed())
    return tuple(t.line() for t in tests.values())


def at_own_length() -> str:
    """The evidence for the refusal at N <= L: extension methods added to a model at its own trained length (STRING's
    Table 2), and STRING's own shift beside them.

    Returns
    -------
    str
        One model's row of that table, with its source; "no evidence either way" when the table has none.

    Examples
    --------
    >>> "STRING" in at_own_length()
    True
    """
    rows = [r for r in ev_table.rows() if r.target == r.pretrain_length and r.method != "none" and r.baseline is not None]
    if not rows:
        return "no evidence either way"
    rows = [r for r in rows if r.model == rows[0].model]  # one model's row of the source's table
    ext = [r for r in rows if r.method != "string"]
    out = (f"{rows[0].model} at {rows[0].target:,}: " + ", ".join(f"{r.method} {r.value:g}" for r in ext)
           + f" vs {rows[0].baseline:g} without")
    out += "".join(f" (STRING's position shift, not an extension: {r.value:g})" for r in rows if r.method == "string")
    return out + f"; {rows[0].source}"
