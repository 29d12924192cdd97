"""men2024 §4.3 as a predictor: does failing Men's check at N predict a published extension falling short?

The pre-registered test and its data: :mod:`proofs_check.claims._evidence`.
"""

from __future__ import annotations

from proofs_check.claims import _evidence as E
from proofs_check.engine import claim


@claim(
    id="men2024.base_bounds_extension_outcome",
    source="men2024 (arXiv 2405.14591v1) §4.3, the summary after Eq. 11, read in the full text (github "
    "commotum/4D, Notes/Vision/pdfs-3/2024_RoPEBase.txt); data: published extension results "
    "(petheory/data/extension_evidence.json)",
    statement=r"§4.3: 'In summary, the RoPE's base determines the upper bound of context length the model can truly "
    r"obtain' (the bound: $L_\theta=\sup\{L \mid B_{m,\theta}\ge0,\ \forall m\in[0,L]\}$, Eq. 10), read as: a model "
    r"extended to N with frequencies whose $B_m$ turns negative before N falls short at N",
    kind="empirical",
    paper_status="empirical",
    setup="substitute",
    alpha=E.ALPHA,
    looks=1,
    trained=False,
    reconstruction=E.RECONSTRUCTION,
)
def base_bounds_extension_outcome(ctx):
    return E.check("men", ctx)
