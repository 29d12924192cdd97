r"""Do ``plan``'s theory checks (men, liu, phase) predict the effective length a small RoPE model reaches after extension?

``petheory plan`` fails a candidate whose positions fail Men's, Liu's or the phase check at the target N
(:mod:`petheory.analyses.plan`). Each check is tested here as a predictor on what small models measure
(:mod:`petheory.experiments.extension_lengths`, records ``records/extension_lengths``): a passkey RoPE model
(2 layers, d=64, 2 heads, base 500, trained at context 16-32) extended to 4x and 8x its context by each of
plan's 8 candidates, training-free and after a short fine-tune at the target (the same token budget for every
candidate), 3 seeds.

Pre-registered (this module and the experiment were committed before any of these records was trained; the
records carry the commit they were trained from):

* effective length: the longest evaluated context c <= target with passkey accuracy (seq_acc) >= 0.9 x the
  pre-trained model's accuracy at its training context 32 at every evaluated context up to c
  (:data:`~petheory.experiments.extension_lengths.THRESHOLD_FRACTION`); its ratio e = effective length / target.
  A seed whose pre-trained accuracy at 32 is below :data:`MIN_REFERENCE` did not learn the task: it is left
  out and named.
* the checks' predictions: recomputed by the library's ``plan`` (:func:`petheory.experiments.extension_lengths.predictions`)
  for each (target, candidate), not read from the record.
* statistic, per seed and regime: D = mean e over the (target, candidate) cells where the check passes minus
  mean e over those where it fails (16 cells per seed and regime: 2 targets x 8 candidates).
* test: one-sided one-sample t-tests over the seeds 0, 1, 2 of D > 0 (the check predicts: passing candidates
  reach further) and of D < 0 (it predicts the wrong way), alpha 0.05 each, per reading (training-free,
  fine-tuned); holds if D > 0 is significant, refuted if D < 0 is, else inconclusive. One planned look.
* guard: a reading with a seed where the check passes for every cell or fails for every cell cannot reject;
  it is inconclusive, with the empty side named.

No calibration: no paper reports these models (Men et al. 2024 and Liu et al. 2023 train Llama 2 7B), so a
failing check is at most not_reproduced and a passing one at most inconclusive (the runner's reproduction rules).
"""

from __future__ import annotations

from proofs_check.claims._empirical import t_greater
from proofs_check.engine import Evidence, Reading, claim

ALPHA = 0.05
#: Pre-registered: a seed whose pre-trained model scores below this at its training context did not learn the task.
MIN_REFERENCE = 0.5
SETUP = "reconstruction"
REGIME_WORDS = {"training_free": "applied at inference only (training-free)",
                "finetuned": "after a short fine-tune at the target with the candidate in place"}


def extension_records(workdir):
    """The extension records (:func:`petheory.experiments.extension_lengths.load_records`) and a note on skipped files."""
    from petheory import records
    from petheory.experiments.extension_lengths import load_records

    recs, skipped = load_records(workdir or ".")
    return recs, records.skipped_note(records.Found(skipped=skipped))


def cells(rec: dict, check: str, regime: str, preds: dict | None = None) -> dict:
    """``{'pass': [(target, candidate, e)], 'fail': [...]}`` of one record: each cell's effective-length ratio e,
    on the side ``check``'s prediction (``preds``: :func:`~petheory.experiments.extension_lengths.predictions`) puts it."""
    from petheory.experiments.extension_lengths import predictions

    preds = predictions(rec) if preds is None else preds
    out = {"pass": [], "fail": []}
    for t, entry in rec["extension"]["targets"].items():
        for name, cand in entry["candidates"].items():
            e = cand[regime]["effective_length"] / int(t)
            out["pass" if preds[t][name][check] else "fail"].append((int(t), name, e))
    return out


def predictor_evidence(recs: list[dict], check: str, regime: str, note: str = "") -> Evidence:
    """Decide one reading: does ``check`` passing predict a longer effective length in ``regime`` (see the module)."""
    used, left_out, per_seed = [], {}, {}
    for r in sorted(recs, key=lambda r: r["seed"]):
        ref = r["extension"]["reference_acc"]
        if ref < MIN_REFERENCE:
            left_out[r["seed"]] = f"accuracy {ref:.3f} at the training context < {MIN_REFERENCE}: the task was not learned"
            continue
        used.append(r)
        per_seed[r["seed"]] = cells(r, check, regime)
    base = {"criterion": f"per seed, D = mean e (effective length / target) over the cells where {check} passes minus "
            f"over those where it fails ({regime}); one-sided one-sample t-tests over seeds of D > 0 and D < 0, alpha "
            f"{ALPHA} each; holds if D > 0 is significant, refuted if D < 0 is; a seed with an empty side cannot reject",
            "left_out": left_out, "skipped": note, "planned_looks": 1,
            "calibration_note": "no paper reports these models: no calibration"}
    if len(used) < 2:
        return Evidence("inconclusive", len(used), details=base, summary=f"{len(used)} usable seed(s) of extension "
                        "records; run `python -m petheory.experiments.extension_lengths`")
    empty = {s: side for s, c in per_seed.items() for side in ("pass", "fail") if not c[side]}
    table = {}
    for s, c in per_seed.items():
        m = {side: (sum(x[2] for x in c[side]) / len(c[side]) if c[side] else None) for side in ("pass", "fail")}
        table[s] = {"mean_e_pass": m["pass"], "mean_e_fail": m["fail"], "n_pass": len(c["pass"]), "n_fail": len(c["fail"]),
                    "D": (m["pass"] - m["fail"]) if None not in m.values() else None}
    details = {**base, "per_seed": table}
    n = {f"{check}/{regime}": len(used)}
    if empty:
        details["empty"] = empty
        return Evidence("inconclusive", len(used), details=details, seeds=n,
                        summary=f"{check} {'passes' if 'fail' in empty.values() else 'fails'} for every cell on seed(s) "
                        f"{sorted(empty)}: a test with an empty side cannot reject, it decides nothing")
    d = [table[s]["D"] for s in sorted(table)]
    p_for, p_against = t_greater(d), t_greater([-x for x in d])
    details.update(p_predicts=p_for, p_against=p_against, D=[round(x, 4) for x in d])
    verdict = ("holds" if p_for is not None and p_for < ALPHA else
               "refuted" if p_against is not None and p_against < ALPHA else "inconclusive")
    mean_d = sum(d) / len(d)
    cex = None
    if verdict == "refuted":  # the failing cell that reached furthest and the passing one that reached least, on average
        avg = {}
        for c in per_seed.values():
            for side in ("pass", "fail"):
                for t, name, e in c[side]:
                    avg.setdefault((side, t, name), []).append(e)
        best_fail = max((k for k in avg if k[0] == "fail"), key=lambda k: sum(avg[k]) / len(avg[k]))
        worst_pass = min((k for k in avg if k[0] == "pass"), key=lambda k: sum(avg[k]) / len(avg[k]))
        cex = {"check": check, "regime": regime, "D_per_seed": details["D"],
               "failing_cell": {"target": best_fail[1], "candidate": best_fail[2], "e": avg[best_fail]},
               "passing_cell": {"target": worst_pass[1], "candidate": worst_pass[2], "e": avg[worst_pass]}}
    summary = (f"{check}, {regime}: mean e passing - failing = {mean_d:+.3f} over {len(d)} seeds "
               f"(per seed {', '.join(f'{x:+.3f}' for x in d)}); p(D>0) = {p_for:.3g}, p(D<0) = {p_against:.3g}")
    return Evidence(verdict, len(used), margin=float(mean_d), details=details, counterexample=cex, summary=summary,
                    seeds=n, p_value=p_for if verdict == "holds" else p_against if verdict == "refuted" else None)


_RECON = ("Pre-registered (module proofs_check.claims.plan_checks_measured, committed with the experiment before the "
          "records were trained): passkey (petheory.nn.retrieval, 'small' preset: 2 layers, d=64, 2 heads, RoPE base "
          "500, trained at context 16-32, i.e. sequences up to L = 35 tokens); targets 128 and 256 (4x, 8x; sequences "
          "of N = 131 and 259 tokens); candidates: plan's as_configured, base_men, base_liu, pi, ntk, dynamic, yarn, "
          "llama3 with plan's parameters for (L, N); training-free (angles swapped into the trained weights) and "
          "fine-tuned (AdamW 1e-3, batch 16, 65,536 sequence slots at the target: 32 steps at 128, 16 at 256, the same "
          "for every candidate); evaluated at contexts 32, 48, 64, 96, 128 (, 192, 256). Effective length: longest "
          "context c <= target with seq_acc >= 0.9 x the pre-trained seq_acc at 32 at every evaluated context up to c; "
          "e = effective length / target. Seeds 0, 1, 2 (one left out if its pre-trained seq_acc at 32 is < 0.5). "
          "Statistic per seed: D = mean e where the check passes - mean e where it fails (the check recomputed by "
          "petheory.analyses.plan). Test: one-sided one-sample t-tests of D > 0 and D < 0 over the seeds, alpha 0.05; "
          "holds if D > 0, refuted if D < 0 is significant, else inconclusive; a seed with an empty side: inconclusive. "
          "One planned look. No calibration (no paper reports these models): at most not_reproduced / inconclusive.")


def _declare(check: str, id: str, source: str, what: str, paper_status: str | None) -> None:
    from petheory.experiments.extension_lengths import of_setup

    def reading(regime):
        def check_fn(ctx):
            recs, note = extension_records(ctx.workdir)
            recs, other = of_setup(recs)
            if other:
                note = "; ".join([x for x in (note, f"not the pre-registered setup, not read: {', '.join(other)}") if x])
            return predictor_evidence(recs, check, regime, note)

        return Reading(regime, f"{what}: a candidate passing it reaches a longer effective length (relative to the "
                       f"target) than one failing it, {REGIME_WORDS[regime]}.", check=check_fn)

    claim(id=id, paper_status=paper_status, source=source,
          statement=f"{what} predicts whether a context-extension candidate works at the target N: `petheory plan` "
          "fails a candidate that fails it.", kind="empirical", setup=SETUP, alpha=ALPHA, looks=1, reconstruction=_RECON,
          readings=[reading("training_free"), reading("finetuned")])


_declare("men", "men2024.plan_check_predicts_small_extension",
         "men2024 (Base of RoPE Bounds Context Length, arXiv 2405.14591) §5, Figs. 4-6 (as a predictor, on small "
         "models); petheory.analyses.plan (check men)",
         r"Men's check ($B_m=\sum_t\cos(m\theta_t)\ge 0$ for every $0\le m\le N$ under the candidate's frequencies)",
         "empirical")
_declare("liu", "liu2023.plan_check_predicts_small_extension",
         "liu2023 (Scaling Laws of RoPE-based Extrapolation, arXiv 2310.05209) Theorem 3, eq. 16b (as a predictor, on "
         "small models); petheory.analyses.plan (check liu)",
         r"Liu's check (the critical band's period under the candidate's frequencies, $T_{extra}=2\pi\beta^{d_{extra}/d}$ "
         r"for a base change, is $\ge N$)", "theorem")  # Theorem 3 states the bound; tested: its use in plan
_declare("phase", "chen2023.plan_check_predicts_small_extension",
         "chen2023 (Position Interpolation, arXiv 2306.15595) §2.3 (the paper names no status); petheory.analyses.plan "
         "(check phase)",
         r"The phase check (no band takes, at a distance up to $N$, an angle its pre-training ladder never reached at a "
         r"distance up to $L$)", None)
