r"""Claims of chen2025 (Chen, Liang, Lin, arXiv 2510.04130): PEs and length generalisation.

Only the abstract is available (``../shared/papers/002_*``). Linear Representation Complexity
(LRC), Sequential Representation Complexity (SRC), Position-Only Linear Attention (POLA), Scale
Hint and the Learning-Based Position Embedding are named but not defined there, so none of the
statements below can be checked as the paper states them. They are registered as ``skipped``
with that reason, so the catalogue shows every claim of CLAIMS.md and a reader sees what is not
verified. The length-generalisation tasks the paper evaluates on (parity with chain-of-thought,
copy, reverse, addition) exist in :mod:`petheory.nn.tasks` with per-length evaluation, ready for
a reconstruction once the definitions are available.
"""

from proofs_check.engine import skipped

_WHY = (
    "only the abstract of chen2025 is available; {what} is not defined there, so the statement cannot be "
    "checked as written (a reconstruction would be a different claim)"
)

skipped(
    id="chen2025.pe_no_new_capability",
    source="chen2025 abstract",
    statement="In Position-Only Linear Attentions (POLAs), PEs do not expand computational capabilities but "
    "structure the learned computation across positions.",
    kind="exact",
    reason=_WHY.format(what="the POLA model class and the notion of 'computational capability'"),
)
skipped(
    id="chen2025.lrc_characterises_lg",
    source="chen2025 abstract",
    statement="Linear Representation Complexity (LRC) characterises when PEs enable length generalisation in POLAs.",
    kind="exact",
    reason=_WHY.format(what="LRC"),
)
skipped(
    id="chen2025.src_invariance",
    source="chen2025 abstract (conjecture)",
    statement="Length generalisation is possible if and only if the Sequential Representation Complexity (SRC) "
    "remains invariant across scales.",
    kind="empirical",
    reason=_WHY.format(what="SRC"),
)
skipped(
    id="chen2025.scale_hint",
    source="chen2025 abstract",
    statement="Scale Hint, allowing flexible instance scaling, improves length generalisation.",
    kind="empirical",
    reason=_WHY.format(what="the Scale Hint mechanism"),
)
skipped(
    id="chen2025.learned_relation_pe",
    source="chen2025 abstract",
    statement="A Learning-Based Position Embedding framework that automatically learns positional relations "
    "improves length generalisation.",
    kind="empirical",
    reason=_WHY.format(what="the Learning-Based Position Embedding framework"),
)
