r"""peng2023 (YaRN): extends further than PI and NTK at equal fine-tuning, on the retrieval records.

See :mod:`proofs_check.claims._extension` for the setup, the records and the contract fields.
"""

from __future__ import annotations

from proofs_check.claims._empirical import holm, t_greater
from proofs_check.claims._extension import ALPHA, CONTRACT, decision, retrieval_records
from proofs_check.engine import Evidence, claim


# ============================================================================ YaRN extends further


BEYOND = "lengths above the fine-tuning context"


def yarn_evidence(recs: list[dict], note: str = "") -> Evidence:
    """Decide ``peng2023.yarn_extends_further`` from retrieval records (see the claim's statement)."""
    per: dict = {}  # (task, method) -> {seed: mean accuracy beyond the fine-tuned context}
    for r in recs:
        ret = r["retrieval"]
        ft = ret.get("finetune_setup", {}).get("factor", 2) * ret["train_context"]
        for label in ("rope_yarn+ft", "rope_pi+ft", "rope_ntk+ft"):
            m = ret["methods"].get(label)
            if m is None:
                continue
            vals = [m["by_length"][str(N)][ret["metric"]] for N in ret["lengths"] if N > ft]
            if vals:
                per.setdefault((r["task"], label), {})[r["seed"]] = sum(vals) / len(vals)
    tasks = sorted({t for t, _ in per})
    better, worse, diffs = {}, {}, {}
    for task in tasks:
        y = per.get((task, "rope_yarn+ft"), {})
        for other in ("rope_pi+ft", "rope_ntk+ft"):
            o = per.get((task, other), {})
            seeds = sorted(set(y) & set(o))
            if len(seeds) < 2:
                continue
            d = [y[s] - o[s] for s in seeds]  # paired by seed: same trained model and fine-tuning data
            name = f"{task}: yarn vs {other.removesuffix('+ft').removeprefix('rope_')}"
            diffs[name] = {"diff": [round(x, 4) for x in d], "seeds": seeds, "mean": sum(d) / len(d)}
            better[name], worse[name] = t_greater(d), t_greater([-x for x in d])
    if not diffs:
        return Evidence("inconclusive", 0, details={"skipped": note}, summary="no retrieval records with fine-tuned "
                        "PI, NTK and YaRN on 2+ seeds; run `python -m petheory.experiments.retrieval_runs`")
    b, w = holm(better), holm(worse)
    enough = all(len(v["seeds"]) >= 3 for v in diffs.values())
    verdict = "refuted" if any(w.values()) else "holds" if all(b.values()) and enough else "inconclusive"
    contract = CONTRACT
    margin = min(v["mean"] for v in diffs.values())
    details = {"criterion": f"per seed, mean accuracy over the {BEYOND} (passkey seq_acc, MQAR token_acc) of each "
               "method fine-tuned with s=2; paired one-sided t-tests over seeds of YaRN - PI and YaRN - NTK per task, "
               f"alpha {ALPHA}, Holm over the comparisons; holds if YaRN beats both on every task, refuted if either beats "
               "YaRN on some task", "comparisons": diffs, "per_method": {f"{t}/{m}": v for (t, m), v in per.items()},
               "yarn_better": sorted(k for k, v in b.items() if v), "yarn_worse": sorted(k for k, v in w.items() if v),
               "skipped": note, **contract}
    summary = "; ".join(f"{k}: {v['mean']:+.3f}" for k, v in diffs.items())
    summary = f"mean accuracy beyond the fine-tuned context, YaRN minus other: {summary}"
    cex = {"other_beats_yarn": details["yarn_worse"]} if verdict == "refuted" else None
    return Evidence(verdict, sum(len(v["seeds"]) for v in diffs.values()), margin=float(margin), details=details,
                    counterexample=cex, summary=summary,
                    **decision(verdict, better, worse, {k: len(v["seeds"]) for k, v in diffs.items()}))


@claim(
    id="peng2023.yarn_extends_further",
    paper_status="empirical",
    source="peng2023 (YaRN, arXiv 2309.00071) §4.3.1, Table 1",
    statement=r"At equal fine-tuning (scale $s=2$, the same steps), a RoPE model extended with YaRN keeps its performance "
    r"further beyond the fine-tuned context than with Position Interpolation or NTK-aware scaling.",
    kind="empirical",
    setup="reconstruction",
    alpha=ALPHA,
    looks=1,
    reconstruction="Pre-registered: setup reconstruction (records/retrieval: the RoPE runs of the 'small' preset, "
    "trained at context 16-32, each fine-tuned 60 steps at context 64 (s=2, AdamW 1e-3, batch 32, the same data per "
    "seed) with rope_pi, rope_ntk and rope_yarn (alpha=1, beta=32, n_max = longest training sequence), then evaluated "
    "at 32..512 with s=2 fixed). Statistic per seed: mean accuracy (passkey seq_acc, MQAR token_acc) over the "
    "lengths 128, 256, 512 (above the fine-tuned 64). Test: paired one-sided t-tests over 3 seeds (0, 1, 2) of YaRN - "
    "PI and YaRN - NTK on each task, alpha 0.05, Holm over the 4 comparisons; holds if all 4 favour YaRN, refuted "
    "if any favours the other method, else inconclusive. One planned look. Calibration: none comparable (Table 1 is "
    "perplexity of Llama 2 7B), so a failing check is not_reproduced, never refuted.",
)
def yarn_extends_further(ctx) -> Evidence:
    recs, note = retrieval_records(ctx.workdir)
    return yarn_evidence(recs, note)
