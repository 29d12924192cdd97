r"""Shared pieces of the context-extension claims (:mod:`proofs_check.claims.chen2023`,
:mod:`proofs_check.claims.peng2023`), decided on the retrieval records (``records/retrieval``).

Two claims, pre-registered before the records were trained (commit fb21114 held both, then in one
file, before any retrieval record existed):

``chen2023.in_range_keeps_retrieval`` — the angle-coverage note of :mod:`petheory.bounds.norms`
(``rotary_angle_coverage``) made empirical: a method whose rotary bands all stay within the angles
the model saw in training at length N keeps its retrieval accuracy at N.
``peng2023.yarn_extends_further`` — YaRN's reported result (peng2023 §4, Table 1) that at equal
fine-tuning it extends further past the fine-tuned context than PI and NTK-aware scaling.

Both are reconstructions (``setup: reconstruction``): synthetic retrieval on 2-layer models trained at
context 32 instead of Llama 2 on PG19/Proof-pile. The papers give no number on a setup comparable to
ours (YaRN's Table 1 is perplexity of Llama 2 7B; PI's passkey results are 7B-65B models), so the
calibration is empty and neither claim can be ``refuted`` (DESIGN.md: a reconstruction without a
calibration within tolerance is at most ``not_reproduced``). The runner applies the contract
(``proofs_check.runner.reproduction_rules``): a failing check is reported ``not_reproduced``.

The per-seed statistics and tests (stated in each claim) use only the seeds' values: one number per
seed and configuration; one planned look at the data (the shipped seeds 0, 1, 2).
"""

from __future__ import annotations

ALPHA = 0.05
#: "keeps its accuracy": the largest drop from the trained model's accuracy at its training context
#: that still counts as kept. Pre-registered: 0.05 absolute (one passkey in 20 lost).
KEEP_TOLERANCE = 0.05
SETUP = "reconstruction"
CALIBRATION_NOTE = ("peng2023 Table 1 (Llama 2 7B, s=2, 400 fine-tuning steps, Proof-pile perplexity at 10240 tokens: "
                    "PI 8.07, NTK 6.24, YaRN 6.04) measures perplexity on text, not retrieval accuracy of a 2-layer model: "
                    "no row is comparable, so there is no calibration")


def retrieval_records(workdir):
    from petheory import records
    from petheory.experiments.retrieval_runs import load_records

    recs, skipped = load_records(workdir or ".")  # each record checked by retrieval_runs.retrieval_problem
    return recs, records.skipped_note(records.Found(skipped=skipped))


def decision(verdict: str, rejected_for: dict, rejected_against: dict, n_seeds: dict) -> dict:
    """The Evidence fields the runner's reproduction rules read (proofs_check.runner.reproduction_rules): the
    seeds per configuration and the Holm-adjusted p-value the verdict rests on (``rejected_for``: the p-values
    of the comparisons a 'holds' needs; ``rejected_against``: those of which one 'refuted' needs)."""
    from proofs_check.claims._empirical import decision_p, holm_adjusted

    if verdict == "holds":
        p = decision_p(holm_adjusted(rejected_for), list(rejected_for), "holds")
    elif verdict == "refuted":
        p = decision_p(holm_adjusted(rejected_against), list(rejected_against), "refuted")
    else:
        p = None
    return {"seeds": dict(n_seeds), "p_value": p}


#: What the details say about the contract (the runner applies it: a reconstruction without calibration
#: that finds a counterexample reports not_reproduced).
CONTRACT = {"calibration_note": CALIBRATION_NOTE, "planned_looks": 1}
