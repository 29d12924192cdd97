r"""Shared by the predictor claims: a check of ``plan`` tested as a predictor on the published extension table.

Pre-registered (stated here and in :mod:`petheory.evidence.predictors` before the rows were evaluated; the table,
the statistic and the outcomes land in the same commit, so the order is not verifiable from the history, and the
setup is a substitute: the verdict is at most inconclusive either way):

* rows: the evaluable rows of ``petheory/data/extension_evidence.json`` (an extension with a baseline and
  frequencies the registry can give), each checked by :func:`petheory.analyses.plan.analyse` at its target;
* outcome: the row's result below its baseline (RULER's 85.6 / the target for an effective length / the same model
  without the method);
* test, per regime (training-free, fine-tuned): Fisher's exact test, one-sided (H1: failing the check goes with a
  result below the baseline); alpha 0.05, Holm over the two regimes, one look;
* verdict: ``holds`` when both regimes reject; ``refuted`` when a regime rejects the opposite side (failing goes
  with *meeting* the baseline); else ``inconclusive``. A regime whose margins cannot reach alpha (every row passes,
  fails, or is below) decides nothing, and the summary says so.
"""

from __future__ import annotations

from proofs_check.engine import Evidence

ALPHA = 0.05
RECONSTRUCTION = (
    "Tested as a predictor on published context-extension results (petheory/data/extension_evidence.json, each row "
    "with its source table; outcomes by plan's own check at the row's target, L the pre-training length). "
    "Pre-registered: per regime (training-free, fine-tuned), Fisher's exact test one-sided that failing the check goes "
    "with a result below the row's baseline (RULER's 85.6, the target for an effective length, or the same model "
    "without the method); alpha 0.05, Holm over the two regimes, one look; holds when both reject, refuted when a "
    "regime rejects the opposite side, a regime whose margins cannot reach alpha decides nothing. Substitute setup "
    "(other models, other tasks than the source's): at most inconclusive.")


def outcomes() -> list[dict]:
    from petheory.analyses.plan import analyse
    from petheory.evidence import predictors

    return predictors.outcomes(analyse)


def decide(tests: dict, alpha: float = ALPHA) -> tuple[str, float | None, list]:
    """``(verdict, p, regimes that cannot reject)`` from the two tests of one check (module docstring)."""
    from proofs_check.claims._empirical import holm_adjusted

    mute = [t.regime for t in tests.values() if not t.can_reject]
    p = holm_adjusted({t.regime: (t.p if t.can_reject else 1.0) for t in tests.values()})
    q = holm_adjusted({t.regime: (t.p_opposite if t.p_opposite is not None else 1.0) for t in tests.values()})
    if not mute and max(p.values()) < alpha:
        return "holds", max(p.values()), mute
    if min(q.values()) < alpha:
        return "refuted", min(q.values()), mute
    return "inconclusive", None, mute


def check(name: str, ctx, rows=None) -> Evidence:
    """The evidence for check ``name`` (``men``, ``liu``, ``phase``) on the outcome dicts ``rows`` (default: computed)."""
    from petheory.evidence import predictors

    rows = outcomes() if rows is None else rows
    alpha = getattr(ctx, "alpha", None) or ALPHA
    tests = {g: predictors.fisher(name, g, rows, alpha) for g in ("training_free", "fine_tuned")}
    verdict, p, mute = decide(tests, alpha)
    lines = "; ".join(t.line() for t in tests.values())
    note = (f" A regime that cannot reject ({', '.join(m.replace('_', '-') for m in mute)}) decides nothing."
            if mute else "")
    return Evidence(verdict, len(rows), p_value=p,
                    details={"tests": {g: {"table [[fail&below, fail&meets], [pass&below, pass&meets]]": t.table,
                                           "p": t.p, "p_opposite": t.p_opposite, "min_p": t.min_p,
                                           "can_reject": t.can_reject, "accuracy": t.accuracy}
                                       for g, t in tests.items()}, "rows": rows},
                    summary=f"{len(rows)} published results: {lines}.{note}")
