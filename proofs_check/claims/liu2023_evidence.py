"""liu2023 Theorem 3's bound as a predictor: does :math:`T_{extra} < N` predict a published extension falling short?

The pre-registered test and its data: :mod:`proofs_check.claims._evidence`.
"""

from __future__ import annotations

from proofs_check.claims import _evidence as E
from proofs_check.engine import claim


@claim(
    id="liu2023.extrapolation_bound_predicts_extension_outcome",
    source="liu2023 (arXiv 2310.05209) Theorem 3 (Eq. 16b in the authors' README, github OpenLMLab/scaling-rope @ "
    "101b93b1, Chinese); data: published extension results (petheory/data/extension_evidence.json)",
    statement=r"Theorem 3 (translated): for a base above the critical base the extrapolation upper bound is "
    r"$T_{extra}=2\pi\beta^{d_{extra}/d}$, determined by the base and the critical dimension; read as: a model "
    r"extended to N whose critical band's period under the new frequencies is below N falls short at N",
    kind="empirical",
    paper_status="theorem",
    setup="substitute",
    alpha=E.ALPHA,
    looks=1,
    trained=False,
    reconstruction=E.RECONSTRUCTION,
)
def extrapolation_bound_predicts_extension_outcome(ctx):
    return E.check("liu", ctx)
