"""The plan's two answers from published evidence: which candidate to set training-free and which to fine-tune with.

Each candidate is mapped to the method family the evidence table names (:func:`method_family`); per regime, the
answer is the candidate whose family :func:`petheory.evidence.expectation.expect` gives the highest expected RULER
score at s = N/L (rule fixed in advance: :func:`answer`). The theory checks enter only as predictors, with their
measured accuracy on the table (:func:`predictor_lines`); :func:`at_own_length` is the evidence quoted when N <= L.
"""

from __future__ import annotations

from dataclasses import dataclass

from petheory.analyses.plan_record import Answer, CandidatePlan
from petheory.evidence import expectation as ev
from petheory.evidence import predictors as ev_predictors
from petheory.evidence import table as ev_table

__all__ = ["method_family", "answer", "predictor_lines", "at_own_length", "FACTOR_METHODS", "EvidenceFactor",
           "evidence_factors", "evidence_candidates"]

#: The candidates whose block carries a factor, and the table's method a row must have to set it.
FACTOR_METHODS = {"pi": "pi", "dynamic": "dynamic_ntk", "yarn": "yarn", "llama3": "llama3"}


@dataclass(frozen=True)
class EvidenceFactor:
    """A factor taken from the evidence table for one candidate and regime (:func:`evidence_factors`).

    ``factor`` is the row's factor scaled to the plan's s (the row's factor / its extension ratio, times s); ``row`` the
    row it comes from; ``near`` how many matched rows share that row's extension ratio (the ones it was best among).

    Attributes
    ----------
    candidate : str
        The plan candidate the factor is for.
    regime : str
        ``'training_free'`` or ``'fine_tuned'``.
    factor : float
        The row's factor scaled to the plan's s (the row's factor over its extension ratio, times s).
    row : petheory.evidence.table.Row
        The evidence row it comes from.
    near : int
        How many matched rows share that row's extension ratio (the ones it was best among).
    """

    candidate: str
    regime: str
    factor: float
    row: ev_table.Row
    near: int

    def note(self) -> str:
        r = self.row
        return (f"factor from the evidence ({self.regime.replace('_', '-')}): {r.id}, {r.model} with {r.method} x{r.factor:g} "
                f"at s = {r.extension:g}, RULER {r.value:g} at {r.target:,} ({r.source}); the best of the {self.near} "
                f"{self.regime.replace('_', '-')} {r.method} row{'s' if self.near > 1 else ''} with a factor at the extension "
                f"nearest s, its factor/extension {r.factor / r.extension:.4g} times s")


def evidence_factors(s: float, rows=None) -> tuple:
    """Per factor-carrying candidate (:data:`FACTOR_METHODS`) and regime, the factor the evidence table supports at s.

    The rule, fixed in advance: the rows :func:`petheory.evidence.expectation.matched` reads for the method's family
    and the regime at s, of the candidate's own method, with a factor and an extension ratio above 1; of those at the
    extension ratio nearest s (in log), the one with the highest RULER score (the table's order breaks ties). Its
    factor is scaled to s by its factor / extension ratio. None where no row supports the candidate, or where the factor
    is at most 1 (no extension).

    Parameters
    ----------
    s : float
        N / L.
    rows : sequence of Row, optional
        Default: the committed table.

    Returns
    -------
    tuple of EvidenceFactor
        One per (candidate, regime) with a supporting row, in the order of :data:`FACTOR_METHODS`, training-free first.

    Examples
    --------
    >>> [(e.candidate, e.regime, e.factor) for e in evidence_factors(16.0) if e.candidate == "llama3"]
    [('llama3', 'fine_tuned', 8.0)]
    """
    import math

    out = []
    for cand, method in FACTOR_METHODS.items():
        for regime in ev_table.REGIMES:
            m = [r for r in ev.matched(ev_table.METHODS[method], regime, s, rows)
                 if r.method == method and r.factor is not None and r.extension > 1]
            if not m:
                continue
            gap = min(abs(math.log(r.extension / s)) for r in m)
            near = [r for r in m if abs(math.log(r.extension / s)) <= gap + 1e-12]
            best = max(near, key=lambda r: (r.value, -near.index(r)))
            f = best.factor / best.extension * s
            if f > 1:
                out.append(EvidenceFactor(cand, regime, f, best, len(near)))
    return tuple(out)


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


#: The label of a candidate with another factor f over L.
_FACTOR_LABEL = {"pi": "linear x{f:g}", "dynamic": "dynamic NTK, factor {f:g}", "yarn": "YaRN x{f:g} over {L:,}",
                 "llama3": "llama3 x{f:g} over {L:,}"}


def evidence_candidates(out: list, s: float, L: int) -> list:
    """The candidates whose factor comes from the evidence table (:func:`evidence_factors`): the N/L candidate's block
    with the row's factor, where no candidate already has that factor.

    Parameters
    ----------
    out : list of tuple
        The plan's candidates so far, ``(name, label, encoding, params, note)`` (:func:`petheory.analyses.plan.candidates`).
    s : float
        N / L.
    L : int
        The original context.

    Returns
    -------
    list of tuple
        ``(<name>_evidence_tf|ft, label, encoding, params, note)``, the note naming the row, its score and its source.

    Examples
    --------
    >>> pi = ("pi", "linear x16", "rope_pi", {"base": 1e4, "scale": 16.0}, "")
    >>> llama3 = ("llama3", "llama3 x16 over 8,192", "rope_llama3", {"base": 1e4, "scale": 16.0, "n_max": 8192}, "")
    >>> [(c[0], c[1], c[3]["scale"]) for c in evidence_candidates([pi, llama3], 16.0, 8192)]
    [('llama3_evidence_ft', 'llama3 x8 over 8,192 (from the evidence, fine-tuned)', 8.0)]
    """
    extra = []
    for e in evidence_factors(s):
        own = next((c for c in out if c[0] == e.candidate), None)
        if own is None:
            continue
        if any(c[2] == own[2] and abs(c[3].get("scale", 0.0) - e.factor) <= 1e-9 * e.factor for c in out + extra):
            continue
        regime = "tf" if e.regime == "training_free" else "ft"
        label = _FACTOR_LABEL[e.candidate].format(f=e.factor, L=L) + f" (from the evidence, {e.regime.replace('_', '-')})"
        extra.append((f"{e.candidate}_evidence_{regime}", label, own[2], {**own[3], "scale": e.factor}, e.note()))
    return extra
