r"""Claims of chen2025 (Chen, Liang, Lin, arXiv 2510.04130): PEs and length generalisation.

Only the abstract is available (``../shared/papers/002_*``): POLA, LRC, SRC, Scale Hint and the
Learning-Based Position Embedding are named but not defined there. Every claim below is therefore
checked against a **reconstruction**, stated in its ``reconstruction=`` field and implemented in
:mod:`petheory.lengthgen` (theory, numpy) and :mod:`petheory.nn.lengthgen` (FIRE, Scale Hint):

* ``pe_no_new_capability``, ``lrc_characterises_lg``: exact, searched with hypothesis over
  registry PEs x target families x Scale Hints x masks x sizes.
* ``src_invariance``, ``scale_hint``, ``learned_relation_pe``: empirical, on chen2025 records
  (:mod:`petheory.nn.chen2025_runs`) read from ``records/`` (committed: the CPU ``small`` preset)
  and ``runs/`` (any ``record.json`` with a ``chen2025`` block); never trained here. Criteria are
  pre-registered in each claim (test, alpha, sidedness). Per-instance tests compare two trained
  models on the *same* test instances, so they condition on the trained models: with one seed
  per configuration they do not cover seed-to-seed variation, which the summary says.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from hypothesis import strategies as st

from petheory import lengthgen
from petheory.lengthgen import pola as _pola
from proofs_check.engine import Evidence, claim

EPS = float(np.finfo(np.float64).eps)
#: Dictionaries searched: keyed (learned = one-hot, relative, t5, fire) and dense (rope, alibi and
#: the absolute tables). NoPE has no positions and is rejected by pola_pe (tested separately).
POLA_PES = ("learned", "relative", "t5", "fire", "rope", "alibi", "sinusoidal", "random", "legendre", "wavelet")
SEPARATION = 1e2  # a decision is certified when residual/tol is <= 1/SEPARATION or >= SEPARATION
ALPHA = 0.05
MIN_GAIN = 0.02  # two accuracy points: the smallest mean improvement "improves" relies on
SRC_TAU, LG_DROP = 0.25, 0.10  # SRC invariant: relative change <= 25%; LG: token acc within 10 points of train size


# ---------------------------------------------------------------------------- exact


@st.composite
def _capability_cases(draw):
    return {"pe": draw(st.sampled_from(POLA_PES)), "n": draw(st.integers(1, 10)), "masked": draw(st.booleans()),
            "seed": draw(st.integers(0, 2**32 - 1))}


def _random_theta(pe: str, n: int, masked: bool, rng):
    mode, B = _pola.basis(pe, np.arange(n, dtype=np.float64))
    if mode == "dense":
        return rng.standard_normal(B.shape[-1]), None
    keys = np.unique(np.round(B.reshape(n * n, -1), 9) + 0.0, axis=0)
    return rng.standard_normal(len(keys)), keys


@claim(
    id="chen2025.pe_no_new_capability",
    paper_status="proposition",
    source="chen2025 abstract",
    statement="In Position-Only Linear Attentions (POLAs), PEs do not expand computational capabilities but "
    "structure the learned computation across positions.",
    kind="exact",
    cases=lambda: _capability_cases(),
    reconstruction="POLA y = A X W with A = M o sum_k theta_k G_k, G_k the PE's pair features (absolute phi(i) "
    "(x) phi(j), i.e. A = M o (Phi Q Phi^T); rotary cos/sin of angle differences; bias: the bias itself or one "
    "indicator per offset/bucket/FIRE input), M the causal mask or ones (petheory.lengthgen.pola). 'Computational "
    "capability at length n' = the set S_n of attention maps a POLA with that PE realises; the reference is the "
    "one-hot PE (a free vector per position: every masked matrix). Checked per case (random PE, length n, mask, "
    "random theta): (1) the one-hot POLA with Q = A reproduces the PE's POLA exactly (residual within "
    "n^2 eps ||A||); (2) dim S_n(PE) <= dim S_n(one-hot) = n(n+1)/2 (masked) or n^2; (3) for dense absolute "
    "tables without mask, the singular values of the POLA design are the products sigma_a(Phi) sigma_b(Phi), so "
    "dim S_n = rank(Phi_n)^2 (the PE acts only through the span of its vectors; tolerance: SVD backward error). "
    "(1)-(2) hold by construction of the model class (the one-hot span is everything); (3) is the non-trivial "
    "identity. The second half ('structure the computation across positions') is what LRC measures: the same "
    "per-length capability, different length-independent parametrisations (chen2025.lrc_characterises_lg).",
)
def pe_no_new_capability(case) -> float:
    pe, n, masked = case["pe"], int(case["n"]), bool(case["masked"])
    rng = np.random.default_rng(case["seed"])
    pos = np.arange(n, dtype=np.float64)
    theta, keys = _random_theta(pe, n, masked, rng)
    A = _pola.pola_matrix(pe, theta, pos, masked=masked, keys=keys)
    ij = np.stack(np.meshgrid(pos, pos, indexing="ij"), -1).reshape(n * n, 2)
    A1 = _pola.pola_matrix("learned", A.reshape(-1), pos, masked=masked, keys=ij)
    tol = n * n * EPS * max(float(np.abs(A).max()), np.finfo(float).tiny)
    v_repro = float(np.abs(A1 - A).max()) / tol - 1.0
    dim_pe = _pola.span_dimension(pe, n, masked=masked)
    dim_1h = _pola.span_dimension("learned", n, masked=masked)
    v_dim = float(dim_pe - dim_1h) - 0.5  # integers: equality leaves slack 0.5
    v_abs = -1.0
    p = lengthgen.pola_pe(pe)
    if p.kind == "absolute" and p.mode == "dense" and not masked:
        # Unmasked, the POLA design is Phi (x) Phi, whose singular values are the products
        # sigma_a(Phi) sigma_b(Phi): the span depends on Phi only through its singular structure, and
        # dim S_n = rank(Phi)^2. Compared as singular values (a numerical rank of a smoothly decaying
        # spectrum is not a certified quantity; the products are). Tolerance: SVD backward error
        # max(m, p) eps ||X||, plus forming X (eps ||X||_F <= sqrt(min(m,p)) eps ||X||) and the
        # products of Phi's singular values (2 n eps ||Phi||^2 = 2 n eps ||X||).
        table = _pola.position_table(p, n)  # Phi_n (n, d): the same table the POLA features are built from
        X = _pola.basis(pe, pos)[1].reshape(n * n, -1)
        sx = np.linalg.svd(X, compute_uv=False)
        sp = np.linalg.svd(table, compute_uv=False)
        prod = np.sort(np.outer(sp, sp).ravel())[::-1][: sx.size]
        tol_s = (max(X.shape) + 2 * n + np.sqrt(min(X.shape))) * EPS * max(sx[0], np.finfo(float).tiny)
        v_abs = float(np.abs(sx - prod).max()) / tol_s - 1.0
    return max(v_repro, v_dim, v_abs)


@st.composite
def _lrc_cases(draw):
    N = draw(st.integers(1, 8))
    return {"pe": draw(st.sampled_from(POLA_PES)), "target": draw(st.sampled_from(lengthgen.TARGETS)),
            "hint": draw(st.sampled_from(("none", "shift", "interp"))), "masked": draw(st.booleans()),
            "N_train": N, "N_test": N + draw(st.integers(1, 6))}


def _separated(ratio: float) -> bool:
    return ratio <= 1.0 / SEPARATION or ratio >= SEPARATION


def lrc_decisions(case) -> dict | None:
    """LRC at N_train and N_test, 'bounded' (equal and finite), and the POLA's length generalisation.

    None when a decision is not certified (a residual within a factor SEPARATION of its tolerance,
    or a dense rank gap below SEPARATION), or when the PE does not take the hint's positions."""
    kw = {"masked": case["masked"], "hint": case["hint"]}
    try:
        a = _pola.lrc(case["pe"], case["target"], case["N_train"], **kw)
        b = _pola.lrc(case["pe"], case["target"], case["N_test"], **kw)
    except ValueError:  # e.g. 'interp' (fractional positions) with an absolute table or t5
        return None
    ok, worst = lengthgen.generalises(case["pe"], case["target"], case["N_train"], case["N_test"], **kw)
    if not (a.certified(SEPARATION) and b.certified(SEPARATION) and _separated(worst)):
        return None
    return {"lrc_train": a.value, "lrc_test": b.value, "bounded": a.value == b.value < math.inf, "generalises": ok,
            "worst": worst}


@claim(
    id="chen2025.lrc_characterises_lg",
    paper_status="proposition",
    source="chen2025 abstract",
    statement="Linear Representation Complexity (LRC) characterises when PEs enable length generalisation in POLAs.",
    kind="exact",
    cases=lambda: _lrc_cases(),
    reconstruction="LRC_PE(T; N): stack the specified entries of T_1..T_N into one least-squares problem over the "
    "PE's pair features (one column per feature; keyed dictionaries grow with the keys seen). If one "
    "length-independent POLA realises them (residual <= max(m,p) eps (sigma_max ||theta|| + ||t||)), LRC = the "
    "number of keys with a nonzero coefficient (keyed) or the numerical rank of the design (dense, rank rule "
    "max(m,p) eps sigma_max); otherwise LRC = inf (petheory.lengthgen.pola docstring: definition and alternatives). "
    "'Characterises' is read as the equivalence, for every PE x target x Scale Hint x mask and N_train < N_test: "
    "LRC(N_train) = LRC(N_test) < inf (LRC stays bounded over the window) <=> the minimum-norm POLA fitted on "
    "sizes <= N_train realises every size <= N_test (length generalisation; keys never seen get 0). Violation 1 "
    "when the two sides disagree. Cases whose decisions are not certified (residual within a factor 100 of its "
    "tolerance, or a dense rank gap sigma_r/sigma_{r+1} < 100: the ill-conditioned absolute tables "
    "sinusoidal/legendre/random at d=8 are often so) and PE/hint pairs that do not apply (fractional 'interp' "
    "positions for tables and t5) count as satisfied: they cannot test the statement. What is proved and what is "
    "searched: 'bounded => LG' follows from the construction (keyed: disjoint supports, each coefficient is its "
    "key's mean; dense: equal rank means equal row spaces, so the min-norm fit extends); 'LG => bounded' is not "
    "automatic (a fit could extend by luck while the rank grows), and the search also checks the implementation.",
)
def lrc_characterises_lg(case) -> float:
    dec = lrc_decisions(case)
    if dec is None:
        return 0.0
    return 1.0 if dec["bounded"] != dec["generalises"] else -1.0


# ---------------------------------------------------------------------------- empirical: records


def chen_records(root: Path) -> list[dict]:
    """chen2025 records under ``root/records`` and ``root/runs`` (:func:`petheory.nn.chen2025_runs.load_records`)."""
    from petheory.nn.chen2025_runs import load_records

    return load_records(root)


def _beyond(rec: dict) -> list[str]:
    return sorted((k for k in rec["final"]["test"] if int(k) > int(rec["train_len"])), key=int)


def _instances(rec: dict) -> np.ndarray:
    """Per-instance token accuracy over all test sizes beyond training, concatenated."""
    return np.concatenate([np.asarray(rec["chen2025"]["instance_token_acc"][k], float) for k in _beyond(rec)])


def _acc_beyond(rec: dict) -> float:
    return float(np.mean([rec["final"]["test"][k]["token_acc"] for k in _beyond(rec)]))


def _wilcoxon(diff: np.ndarray, alternative: str) -> float:
    from scipy.stats import wilcoxon

    d = diff[diff != 0]
    if d.size == 0:
        return 1.0
    return float(wilcoxon(d, alternative=alternative).pvalue)


def _holm(pvals: dict) -> dict:
    """Holm-adjusted p-values (step-down, monotone, capped at 1)."""
    order = sorted(pvals, key=pvals.get)
    adj, run = {}, 0.0
    for i, k in enumerate(order):
        run = max(run, min(1.0, (len(order) - i) * pvals[k]))
        adj[k] = run
    return adj


def _sizes(recs) -> str:
    return "/".join(sorted({r["chen2025"]["preset"] for r in recs})) or "none"


def _no_records(what: str) -> Evidence:
    return Evidence("inconclusive", 0, summary=(
        f"no chen2025 records for {what} under records/ or runs/: run `python -m petheory.nn.chen2025_runs small` "
        "(CPU, ~17 min) or `... paper --device cuda` on a GPU"))


def paired_comparison(pairs: dict, *, min_gain: float = MIN_GAIN, alpha: float = ALPHA) -> Evidence:
    """Verdict of 'A improves on B' from {label: (record_A, record_B)} with the same test instances.

    Per pair: one-sided Wilcoxon signed-rank on per-instance differences (A - B) of token accuracy
    beyond the training size, both directions; Holm over pairs in each direction. holds: every pair
    significantly in favour of A and mean gain >= min_gain; refuted: some pair significantly against
    A (a counterexample to the general statement); else inconclusive.
    """
    better, worse, gains = {}, {}, {}
    for label, (a, b) in pairs.items():
        d = _instances(a) - _instances(b)
        gains[label] = float(d.mean())
        better[label] = _wilcoxon(d, "greater")
        worse[label] = _wilcoxon(d, "less")
    hb, hw = _holm(better), _holm(worse)
    against = sorted(k for k in pairs if hw[k] < alpha)
    favour = [k for k in pairs if hb[k] < alpha and gains[k] >= min_gain]
    n = sum(len(_instances(a)) for a, _ in pairs.values())
    details = {"mean_gain": gains, "p_better_holm": hb, "p_worse_holm": hw,
               "acc_beyond": {k: [round(_acc_beyond(a), 4), round(_acc_beyond(b), 4)] for k, (a, b) in pairs.items()}}
    if against:
        k = against[0]
        return Evidence("refuted", n, margin=gains[k], details=details, counterexample={"pair": k, "mean_gain": gains[k],
                        "p_worse_holm": hw[k]},
                        summary=f"significantly worse on {', '.join(against)} (Holm p {hw[k]:.2g}, mean {gains[k]:+.3f})")
    verdict = "holds" if len(favour) == len(pairs) else "inconclusive"
    seeds = {a["seed"] for a, _ in pairs.values()}
    return Evidence(verdict, n, margin=min(gains.values()), details=details,
                    summary=", ".join(f"{k} {gains[k]:+.3f} (p {hb[k]:.2g})" for k in pairs)
                    + (" [one seed per run: conditional on these trained models]" if len(seeds) < 2 else ""))


def _by_key(recs):
    return {(r["task"], r["chen2025"]["pe"], r["seed"], r["chen2025"]["preset"]): r for r in recs}


def _base_pe(pe: str) -> tuple[str, str | None]:
    from petheory.nn.position import parse_pe

    cfg = parse_pe(pe)
    hint, cfg.hint = cfg.hint, None
    return cfg.spec(), hint


_EMP = ("Records: petheory.nn.chen2025_runs (tasks of petheory.nn.tasks: BOS input SEP answer, causal LM, loss on the "
        "answer; sizes U{1..train_len} in training, test sizes beyond it). Read from records/ (committed CPU small "
        "preset: copy and parity x nope, rope, rope:hint=shift, fire, fire:hint=shift, one seed) and runs/; "
        "'beyond training' = every test size > train_len, metric = teacher-forced token accuracy on the answer.")


@claim(
    id="chen2025.scale_hint",
    paper_status="empirical",
    source="chen2025 abstract",
    statement="Scale Hint, allowing flexible instance scaling, improves length generalisation.",
    kind="empirical",
    reconstruction=_EMP + " Scale Hint = positions computed per instance from the separators (petheory.nn.lengthgen): "
    "'shift' (segment-aligned positions) or 'interp' (each instance rescaled to a fixed span). Pre-registered: unit = a "
    "(task, PE, hint, seed) run paired with the same run without hint; per pair a one-sided Wilcoxon signed-rank "
    "test on per-instance accuracy differences beyond training (H1: hint better; one-sided because the statement "
    "predicts a direction), alpha 0.05, Holm over pairs. holds: every pair significant with mean gain >= 2 points; "
    "refuted: some pair significantly worse (the same test in the other direction, Holm); else inconclusive.",
)
def scale_hint(ctx) -> Evidence:
    recs = chen_records(Path(ctx.workdir or "."))
    keyed = _by_key(recs)
    pairs = {}
    for (task, pe, seed, size), r in sorted(keyed.items()):
        base, hint = _base_pe(pe)
        if hint and (task, base, seed, size) in keyed:
            pairs[f"{task}/{pe}/s{seed}/{size}"] = (r, keyed[(task, base, seed, size)])
    if not pairs:
        return _no_records("Scale Hint pairs")
    ev = paired_comparison(pairs)
    ev.details["preset"] = _sizes(recs)
    ev.summary = f"{_sizes(recs)} preset, {len(pairs)} pairs: " + ev.summary
    return ev


@claim(
    id="chen2025.learned_relation_pe",
    paper_status="empirical",
    source="chen2025 abstract",
    statement="A Learning-Based Position Embedding framework that automatically learns positional relations "
    "improves length generalisation.",
    kind="empirical",
    reconstruction=_EMP + " The learning-based PE = FIRE (li2024): a per-head MLP of the progressively normalised "
    "offset (petheory.nn.lengthgen.FIREBias; --pe fire). 'Improves' = against the best fixed PE of the same task, "
    "seed and preset without Scale Hint (nope, sinusoidal, relative, rope: the one with the highest accuracy beyond "
    "training). Pre-registered: per task a one-sided Wilcoxon signed-rank test on per-instance differences (fire - "
    "best fixed), alpha 0.05, Holm over tasks. holds: every task significant with mean gain >= 2 points; refuted: "
    "the best fixed PE significantly better on some task; else inconclusive.",
)
def learned_relation_pe(ctx) -> Evidence:
    recs = chen_records(Path(ctx.workdir or "."))
    keyed = _by_key(recs)
    pairs = {}
    for (task, pe, seed, size), r in sorted(keyed.items()):
        if pe != "fire":
            continue
        fixed = [keyed[k] for k in keyed if k[0] == task and k[2] == seed and k[3] == size
                 and k[1] in ("nope", "sinusoidal", "relative", "rope")]
        if fixed:
            best = max(fixed, key=_acc_beyond)
            pairs[f"{task}/fire-vs-{best['chen2025']['pe']}/s{seed}/{size}"] = (r, best)
    if not pairs:
        return _no_records("fire and fixed PEs")
    ev = paired_comparison(pairs)
    ev.summary = f"{_sizes(recs)} preset, {len(pairs)} tasks: " + ev.summary
    return ev


@claim(
    id="chen2025.learned_relation_pe__corrected",
    paper_status="empirical",
    source="chen2025 abstract (corrected variant of chen2025.learned_relation_pe)",
    statement="The learned-relation PE (FIRE) improves length generalisation over RoPE, and FIRE with a Scale Hint "
    "improves it over every fixed PE without one.",
    kind="empirical",
    corrected_of="chen2025.learned_relation_pe",
    reconstruction=_EMP + " Written after chen2025.learned_relation_pe was refuted on the committed CPU records "
    "(parity: FIRE without hint below NoPE beyond training), so it is a post-hoc variant: the strongest one the same "
    "records support. Per task two comparisons, fire vs rope and fire:hint=shift vs the best fixed PE without hint "
    "(nope, sinusoidal, relative, rope); same pre-registered test as the original (one-sided Wilcoxon signed-rank on "
    "per-instance differences beyond training, alpha 0.05, Holm over all comparisons, mean gain >= 2 points; refuted "
    "when one comparison is significantly the other way).",
)
def learned_relation_pe__corrected(ctx) -> Evidence:
    recs = chen_records(Path(ctx.workdir or "."))
    keyed = _by_key(recs)
    pairs = {}
    for (task, pe, seed, size), r in sorted(keyed.items()):
        if pe == "fire" and (task, "rope", seed, size) in keyed:
            pairs[f"{task}/fire-vs-rope/s{seed}/{size}"] = (r, keyed[(task, "rope", seed, size)])
        if pe == "fire:hint=shift":
            fixed = [keyed[k] for k in keyed if k[0] == task and k[2] == seed and k[3] == size
                     and k[1] in ("nope", "sinusoidal", "relative", "rope")]
            if fixed:
                best = max(fixed, key=_acc_beyond)
                pairs[f"{task}/fire+hint-vs-{best['chen2025']['pe']}/s{seed}/{size}"] = (r, best)
    if not pairs:
        return _no_records("fire, fire:hint=shift and fixed PEs")
    ev = paired_comparison(pairs)
    ev.summary = f"{_sizes(recs)} preset, {len(pairs)} comparisons: " + ev.summary
    return ev


def src_table(recs) -> list[dict]:
    """One row per (record, test size beyond training): SRC change, invariance and LG."""
    rows = []
    for r in recs:
        s = r["chen2025"]["src"]
        tl = str(r["train_len"])
        if tl not in s:
            continue
        acc_tr = r["final"]["test"][tl]["token_acc"]
        for k in _beyond(r):
            inv, rel = lengthgen.src_invariance(s[tl], s[k], SRC_TAU)
            rows.append({"run": f"{r['task']}/{r['chen2025']['pe']}/s{r['seed']}", "size": int(k), "src_train": s[tl],
                         "src_test": s[k], "rel_change": rel, "invariant": inv,
                         "lg": r["final"]["test"][k]["token_acc"] >= acc_tr - LG_DROP})
    return rows


def src_verdict(rows: list[dict], *, alpha: float = ALPHA) -> Evidence:
    """Pre-registered verdict of the SRC conjecture from :func:`src_table` rows (see the claim)."""
    from scipy.stats import fisher_exact

    n = len(rows)
    tab = [[sum(r["invariant"] and r["lg"] for r in rows), sum(r["invariant"] and not r["lg"] for r in rows)],
           [sum(not r["invariant"] and r["lg"] for r in rows), sum(not r["invariant"] and not r["lg"] for r in rows)]]
    agree = (tab[0][0] + tab[1][1]) / n
    p = float(fisher_exact(tab, alternative="greater").pvalue)
    details = {"table [[inv&LG, inv&noLG], [notinv&LG, notinv&noLG]]": tab, "agreement": agree, "fisher_p": p,
               "rows": rows}
    if agree >= 0.8 and p < alpha:
        verdict = "holds"
    elif n >= 10 and agree <= 0.6 and p >= alpha:
        verdict = "refuted"
    else:
        verdict = "inconclusive"
    bad = [r for r in rows if r["invariant"] != r["lg"]]
    return Evidence(verdict, n, margin=agree - 0.8, details=details, counterexample=bad[0] if verdict == "refuted" else None,
                    summary=f"{n} (run, size) cases: agreement {agree:.2f}, Fisher one-sided p {p:.2g}, table {tab}")


@claim(
    id="chen2025.src_invariance",
    paper_status="conjecture",
    source="chen2025 abstract (conjecture)",
    statement="Length generalisation is possible if and only if the Sequential Representation Complexity (SRC) "
    "remains invariant across scales.",
    kind="empirical",
    reconstruction=_EMP + f" SRC(n) = mean over layers and heads of the entropy effective rank of the answer steps' "
    f"attention rows in offset coordinates (petheory.lengthgen.src), measured on 64 test instances per size. "
    f"Per (run, test size n' > train): invariant = |SRC(n') - SRC(train)|/SRC(train) <= {SRC_TAU}; LG = token "
    f"accuracy at n' >= accuracy at the training size - {LG_DROP}. Pre-registered: 2x2 table of (invariant, LG), "
    f"one-sided Fisher exact test for positive association (the conjecture predicts the direction), alpha 0.05. "
    f"holds: agreement >= 0.8 and p < 0.05; refuted: >= 10 cases, agreement <= 0.6 and p >= 0.05 (the 'iff' fails "
    f"on at least 40% of cases with no detectable association); else inconclusive.",
)
def src_invariance(ctx) -> Evidence:
    recs = chen_records(Path(ctx.workdir or "."))
    rows = src_table(recs)
    if not rows:
        return _no_records("SRC")
    ev = src_verdict(rows)
    ev.summary = f"{_sizes(recs)} preset: " + ev.summary
    return ev
