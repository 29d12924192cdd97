r"""Empirical claim of li2025 (Yin Li, arXiv 2506.06398) §7: Table 5, decided on running-sum training records.

The quick profile reads the records (``runs/`` first, then the shipped ``records/li2025_table5``) and never
trains; the thorough one first trains the ``small`` preset. The other li2025 claims are in
:mod:`proofs_check.claims.li2025` and ``li2025_extrapolation``.
"""

from __future__ import annotations

from proofs_check.engine import Calibration, Evidence, claim

ALPHA, LOOKS = 0.05, 3
#: Calibration tolerance (relative): the widest band under which the paper's two rows stay apart
#: (0.0108 (1 + t) < 0.0423 (1 - t) for t < 0.593); 50% is below it.
CALIBRATION_TOLERANCE = 0.5
#: The wavelet constructions the library can build (family x amplitude x dilation): each one's behaviour past
#: training, for the reconstruction li2025 §7 describes ("coarse-scale terms contribute small but nonzero values").
WAVELET_CONSTRUCTIONS = [(w, a, dil) for w in ("db2", "db4") for a in ("l2", "paper", "none") for dil in ("unit", "position")]


def wavelet_constructions(n_max: int = 50, n: int = 200, d: int = 64) -> list[dict]:
    """Every wavelet construction tried, with what it gives beyond training (no training needed).

    Per construction: the last position with a nonzero feature and the row norm at N=200 relative to the
    largest row norm (li2025 describes coarse scales that stay small but nonzero far from training)."""
    import numpy as np

    from petheory.encodings.absolute import wavelet

    out = []
    for w, amp, dil in WAVELET_CONSTRUCTIONS:
        P = wavelet(n, d, wavelet=w, n_max=n_max, normalisation=amp, dilation=dil)
        norms = np.linalg.norm(P, axis=1)
        nz = np.nonzero(norms > 0)[0]
        last = int(nz.max()) if nz.size else -1
        out.append({"wavelet": w, "amplitude": amp, "dilation": dil, "last_nonzero_position": last,
                    "norm_at_199_over_max": float(norms[n - 1] / norms.max()),
                    "small_but_nonzero_far": bool(last == n - 1 and 0 < norms[n - 1] / norms.max() < 0.25),
                    "trained": (w, amp, dil) == ("db2", "l2", "unit")})
    return out


# ============================================================================= Table 5


def _table5_problem(r: dict) -> str | None:
    """What table5_evidence reads from a running-sum record, or None for other tasks (petheory.records.find's check)."""
    from petheory.io import field_problem

    if r["task"] != "running_sum":
        return None
    for path, kind in (("final.test.200.mse", "number"), ("final.test.50.mse", "number"), ("model", "object"),
                       ("config.task.params", "object")):
        problem = field_problem(r, path, kind)
        if problem:
            return problem
    return None


# li2025 Table 5's paper numbers and the reading of a record live with the records (the figure and the README use them too)
from petheory.nn.provenance import LI2025_TABLE5_DEFAULT as _T5_DEFAULT  # noqa: E402
from petheory.nn.provenance import LI2025_TABLE5_MSE200 as _T5_PAPER  # noqa: E402
from petheory.nn.provenance import li2025_table5_paper_size as _t5_paper_size  # noqa: E402
from petheory.nn.provenance import li2025_table5_reading as _t5_reading  # noqa: E402
from petheory.nn.provenance import reading_math as _t5_math  # noqa: E402


def table5_evidence(records: list[dict], note: str = "", alpha: float = ALPHA / LOOKS) -> Evidence:
    """Verdict on li2025 Table 5 ("wavelet has the lowest MSE at N=200") from running-sum records.

    Per reading (causality x target scaling x input distribution), at N=200: holds when wavelet's
    MSE is below every other PE's, refuted when some PE's is below wavelet's, each comparison a
    one-sided Welch test at alpha 0.05, Holm-corrected over the other PEs (proofs_check.claims._empirical).
    The claim's verdict is the paper preset's reading; the others are reported beside it.
    """
    from proofs_check.claims import _empirical as emp

    recs = [r for r in records if r.get("train_len") == 50 and "200" in r["final"]["test"]]
    paper = [r for r in recs if _t5_paper_size(r)]
    use = paper or recs
    readings: dict = {}
    for r in use:
        readings.setdefault(_t5_reading(r), {}).setdefault(r["pe"].split(":")[0], []).append(r["final"]["test"]["200"]["mse"])
    if not any("wavelet" in g and len(g) > 1 for g in readings.values()):
        return Evidence("inconclusive", len(recs), details={"pes_found": sorted({r["pe"] for r in recs}), "skipped": note},
                        summary="no running-sum records with wavelet and another PE at train length 50 under runs/ or "
                        "records/; the shipped records/li2025_table5 hold them (a checkout has them), or run "
                        "`petheory check --claims li2025.table5_running_sum --profile thorough` (trains the small preset)")
    per = {}
    for name, groups in sorted(readings.items()):
        if "wavelet" not in groups or len(groups) < 2:
            continue
        d = emp.decide_lowest(groups, "wavelet", alpha=alpha)
        stats = {k: dict(zip(("mean", "se"), emp.mean_se(v)), seeds=len(v)) for k, v in groups.items()}
        order = sorted(stats, key=lambda k: stats[k]["mean"])
        per[name] = {"verdict": d["verdict"], "order_by_mse200": order, "mse200": stats, "beaten_by": d["beaten_by"],
                     "tests": d["tests"], "p_value": d["p_value"]}
    main = per.get(_T5_DEFAULT) or next(iter(per.values()))
    main_name = _T5_DEFAULT if _T5_DEFAULT in per else next(iter(per))
    seeds = min(s["seeds"] for s in main["mse200"].values())
    ours = ", ".join(f"{k} {main['mse200'][k]['mean']:.4f}" for k in main["order_by_mse200"])
    details = {"criterion": "per reading, at N=200: wavelet vs each other PE, one-sided Welch t-tests (H1 directional, "
               "as the statement), alpha 0.05, Holm over the other PEs; holds if wavelet beats all, refuted if any beats "
               "wavelet", "paper": _T5_PAPER, "reading": main_name, "readings": per, "paper_size": bool(paper),
               "seeds_per_pe": seeds, "skipped": note, "alpha_per_look": alpha,
               "wavelet_constructions": wavelet_constructions()}
    others = "; ".join(f"{_t5_math(k)}: {v['verdict']} (lowest {v['order_by_mse200'][0]})" for k, v in per.items()
                       if k != main_name)
    text = (f"{_t5_math(main_name)}, {seeds} seeds per PE: MSE at N=200 {ours}; paper: wavelet 0.0108, sinusoidal 0.0423."
            + (f" Other readings: {others}." if others else ""))
    wv = main["mse200"]["wavelet"]["mean"]
    kw = {"p_value": main["p_value"], "seeds": {k: v["seeds"] for k, v in main["mse200"].items()},
          "calibration": {k: main["mse200"][k]["mean"] for k in _T5_PAPER if k in main["mse200"]}}
    margin = min(v["mean"] for k, v in main["mse200"].items() if k != "wavelet") - wv  # > 0: wavelet lowest
    if not paper:
        return Evidence("inconclusive", len(use), margin=float(margin), details=details, **kw,
                        summary="records are smaller than li2025's setup (the paper preset): " + text)
    verdict = main["verdict"]
    cex = None
    if verdict == "refuted":
        best = main["order_by_mse200"][0]
        cex = {"reading": main_name, "lower_than_wavelet": main["beaten_by"], "wavelet_mse200": wv,
               f"{best}_mse200": main["mse200"][best]["mean"]}
    return Evidence(verdict, len(use), margin=float(margin), details=details, counterexample=cex, **kw,
                    summary=("wavelet lowest. " if verdict == "holds" else
                             f"{', '.join(main['beaten_by'])} below wavelet. " if verdict == "refuted" else
                             "not significant. ") + text)


@claim(
    id="li2025.table5_running_sum",
    paper_status="empirical",
    source="li2025 §7, Table 5",
    statement=r"On the running-sum task (2-layer encoder, $d_{model}=64$, one head, train length 50, test 50/100/200, "
    r"MSE), wavelet PE has the lowest extrapolation error, MSE 0.0108 at N=200 vs sinusoidal 0.0423.",
    kind="empirical",
    setup="reconstruction",
    alpha=ALPHA,
    looks=LOOKS,
    calibration=Calibration(paper=dict(_T5_PAPER), tolerance=CALIBRATION_TOLERANCE, source="li2025 Table 5, MSE at N=200",
                            why="50% relative: below 59%, the widest band under which the paper's two rows (0.0108, "
                            "0.0423) stay apart"),
    reconstruction="Task and training are reconstructions (petheory.nn.tasks.running_sum; the paper gives no input "
    "distribution, target scaling, causality or optimiser): default x ~ U(-1,1), y_t = S_t/sqrt(t+1), causal encoder, "
    "AdamW, 50 epochs of 10,000 sequences (the 'paper' preset). The records shipped in records/li2025_table5* were "
    "trained on one H100 for the default and for each alternative reading (bidirectional encoder, y_t = S_t/(t+1), "
    "x ~ N(0,1)): 15 seeds per PE for the default and the S_t/(t+1) reading, 5 for the others; runs/ is read first. "
    "Looks: the seeds were added in rounds and the data were looked at three times (5, 10 and 15 seeds per PE; an "
    "earlier text said two), with alpha not split in advance; it is split now, Bonferroni over the 3 looks: each "
    "look at 0.05/3 (Holm rejects the same four PEs at 5, 10 and 15 seeds, and still does at 0.05/3). Criterion: at "
    "N=200, wavelet against every other PE by one-sided Welch t-tests (the statement is directional; variances differ "
    "between PEs), Holm over the 6 comparisons at 0.05/3: holds if wavelet beats all, refuted if any beats wavelet, "
    "else inconclusive. Calibration: our sinusoidal and wavelet baselines at N=200 beside the paper's (0.0423, "
    "0.0108), 50% relative tolerance; outside it a refutation is not_reproduced (our reconstruction does not train "
    "the paper's problem closely enough to say the paper is wrong). Wavelet constructions tried (details: "
    "wavelet_constructions): db2 and db4 x amplitude l2/paper/none x dilation unit/position. The trained one (db2, "
    "L2, unit dilation) is exactly zero from position 150 on; the paper describes coarse-scale terms that 'contribute "
    "small but nonzero values' far out, which only the db4 (8-tap, the other reading of 'Daubechies-4') "
    "constructions give (norm at N=200 3-70% of the largest). Training those at the paper preset (15 seeds x 7 PEs) "
    "needs a GPU and is left: no record uses them yet. The verdict is the "
    "default reading's; every reading's verdict and ordering are in the details. The quick profile never trains; the "
    "thorough one first trains the 'small' preset (4 PEs x 2 seeds), which alone can only give inconclusive.",
)
def table5_running_sum(ctx) -> Evidence:
    from proofs_check.claims import _empirical as emp

    if ctx.profile != "quick":
        import torch  # noqa: F401  (loaded first, so torch_threads has a pool to set)

        from petheory.experiments import papers
        from petheory._threads import torch_threads
        from petheory.records import runs_dir

        with torch_threads(1):  # tiny models: intra-op threads only contend on a shared CPU
            papers.running_sum({"size": "small", "pes": ["sinusoidal", "alibi", "wavelet", "legendre"], "seeds": [0, 1],
                                     "out_dir": str(runs_dir(ctx.workdir or ".") / "li2025_table5"),
                                     "set": {"ablate": False}})
    recs, note = emp.find("running_sum", ctx.workdir or ".", check=_table5_problem)
    return table5_evidence(recs, note, alpha=ctx.alpha or ALPHA / LOOKS)
