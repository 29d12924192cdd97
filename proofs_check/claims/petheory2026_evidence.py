"""plan's own phase-range check as a predictor: does a band reaching unseen angles predict falling short?

The check has no paper: it is ``petheory plan``'s (a band that did not turn within L must not reach, at a distance
up to N, an angle it never reached within L). The pre-registered test and its data:
:mod:`proofs_check.claims._evidence`.
"""

from __future__ import annotations

from proofs_check.claims import _evidence as E
from proofs_check.engine import claim


@claim(
    id="petheory2026.phase_range_predicts_extension_outcome",
    source="petheory2026 (petheory plan's phase-range check, issue 53); data: published extension results "
    "(petheory/data/extension_evidence.json)",
    statement="A model extended to N in which some band that did not complete a turn within the pre-training length L "
    "reaches, at a distance up to N, an angle it never reached within L falls short at N",
    kind="empirical",
    paper_status="empirical",
    setup="substitute",
    alpha=E.ALPHA,
    looks=1,
    trained=False,
    reconstruction=E.RECONSTRUCTION,
)
def phase_range_predicts_extension_outcome(ctx):
    return E.check("phase", ctx)
