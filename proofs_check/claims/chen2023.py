r"""chen2023 (Position Interpolation): the angle-coverage note made empirical on the retrieval records.

See :mod:`proofs_check.claims._extension` for the setup, the records and the contract fields.
"""

from __future__ import annotations

from proofs_check.claims._empirical import holm, t_greater
from proofs_check.claims._extension import ALPHA, CONTRACT, KEEP_TOLERANCE, decision, retrieval_records
from proofs_check.engine import Evidence, claim


# ============================================================================ in range keeps accuracy


def in_range_evidence(recs: list[dict], note: str = "") -> Evidence:
    """Decide ``chen2023.in_range_keeps_retrieval`` from retrieval records (see the claim's statement)."""
    cells: dict = {}  # (task, method, N) -> {seed: drop}
    for r in recs:
        ret = r["retrieval"]
        methods, metric, L = ret["methods"], ret["metric"], ret["train_context"]
        if "rope" not in methods:
            continue
        base = methods["rope"]["by_length"][str(L)][metric]
        for label, m in methods.items():
            for N, row in m["by_length"].items():
                cov = row.get("coverage")
                if int(N) <= L or cov is None or cov["out_of_range"] != 0:
                    continue
                cells.setdefault((r["task"], label, int(N)), {})[r["seed"]] = base - row[metric]
    if not cells:
        return Evidence("inconclusive", 0, details={"skipped": note}, summary="no retrieval records of a RoPE run with a "
                        "method in range beyond the training context; run `python -m petheory.experiments.retrieval_runs`")
    worse, kept, table = {}, {}, {}
    for key, drops in sorted(cells.items()):
        d = list(drops.values())
        name = f"{key[0]}/{key[1]}@{key[2]}"
        worse[name] = t_greater(d, KEEP_TOLERANCE)  # H1: mean drop > tolerance (accuracy lost)
        kept[name] = t_greater([KEEP_TOLERANCE - x for x in d])  # H1: mean drop < tolerance (kept)
        table[name] = {"drops": [round(x, 4) for x in d], "seeds": sorted(drops), "mean_drop": sum(d) / len(d)}
    lost, keeps = holm(worse), holm(kept)
    enough = all(len(v["seeds"]) >= 3 for v in table.values())
    if any(lost.values()):
        verdict = "refuted"
    elif all(keeps.values()) and enough:
        verdict = "holds"
    else:
        verdict = "inconclusive"
    contract = CONTRACT
    worst = max(table, key=lambda k: table[k]["mean_drop"])
    margin = KEEP_TOLERANCE - table[worst]["mean_drop"]
    details = {"criterion": f"per in-range cell (task, method, N > training context with every band in range), per seed "
               f"drop = acc(rope at training context) - acc(method at N); one-sided one-sample t-tests of mean drop > "
               f"{KEEP_TOLERANCE} (lost) and < {KEEP_TOLERANCE} (kept), alpha {ALPHA}, Holm over the cells; refuted if "
               "any cell lost, holds if every cell kept with >= 3 seeds", "cells": table,
               "lost": sorted(k for k, v in lost.items() if v), "kept": sorted(k for k, v in keeps.items() if v),
               "skipped": note, **contract}
    cex = {"cell": worst, **table[worst]} if verdict == "refuted" else None
    n_lost = len(details["lost"])
    summary = (f"{len(table)} in-range cells; {n_lost} lose more than {KEEP_TOLERANCE} (Holm), "
               f"{len(details['kept'])} keep; worst {worst}: mean drop {table[worst]['mean_drop']:.3f}")
    return Evidence(verdict, sum(len(v["seeds"]) for v in table.values()), margin=float(margin), details=details,
                    counterexample=cex, summary=summary,
                    **decision(verdict, kept, worse, {k: len(v["seeds"]) for k, v in table.items()}))


@claim(
    id="chen2023.in_range_keeps_retrieval",
    paper_status=None,  # the PI paper gives the sentence no status word (a paraphrase of its §2.3 headline)
    source="chen2023 (Position Interpolation, arXiv 2306.15595) §2.3 (the paper names no status); "
    "petheory.bounds.norms.rotary_angle_coverage (Notes)",
    statement=r"A RoPE model trained at context $L$ and evaluated at $N > L$ with a rotary method whose bands all stay "
    r"within the angles seen in training ($(N-1)\omega'_t \le (L-1)\omega_t$ for every band without a full turn) keeps "
    r"its retrieval accuracy at $N$.",
    kind="empirical",
    setup="reconstruction",
    alpha=ALPHA,
    looks=1,
    reconstruction="Pre-registered: setup reconstruction (passkey and MQAR, petheory.nn.retrieval, 'small' preset: "
    "2 layers, d=64, 2 heads, RoPE base 10000, trained at context 16-32; records/retrieval). Cells: every (task, "
    "method, N) of the RoPE runs with N > 32 and no band out of range (petheory.experiments.context_extension.angle_coverage): "
    "PI/NTK/YaRN swapped in at evaluation with the factor matched to N, and the fine-tuned methods. Statistic per seed: "
    "the drop acc(RoPE at 32) - acc(cell), acc = passkey seq_acc / MQAR token_acc. Test: one-sided one-sample t-tests "
    "over 3 seeds (0, 1, 2) of mean drop > 0.05 (lost) and < 0.05 (kept), alpha 0.05, Holm over the cells; refuted if "
    "any cell is lost, holds if all are kept, else inconclusive. One planned look. No calibration (the PI paper's "
    "numbers are 7B-65B models): as a reconstruction without a calibration a failing check is at most not_reproduced.",
)
def in_range_keeps_retrieval(ctx) -> Evidence:
    recs, note = retrieval_records(ctx.workdir)
    return in_range_evidence(recs, note)
