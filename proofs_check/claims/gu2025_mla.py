r"""Claims of gu2025 §5 and App. C not checked before: partial RoPE (Fig. 5), RoPE + absolute (Fig. 6), MLA's
logit form (Eqs. 11-12) and head-wise ablation (Fig. 7), Remark C.1 (dropout), and Assumption 3.1 (the
representation decomposition).

The empirical ones read gu2025 Task 1/2 records (``runs/`` first, then ``records/``) of the PE specs the
figures use (:mod:`petheory.nn.position`: ``rope:heads=k`` partial RoPE, ``rope`` pure RoPE, ``rope+sinusoidal``
RoPE with an absolute PE, ``mla``). Only paper-preset records with >= 3 seeds decide; none are shipped, so
they are inconclusive until such records exist (the records' numbers are reported when smaller ones exist).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory import coupling
from petheory.encodings import rotary as enc_rotary
from proofs_check.claims import _empirical as emp
from proofs_check.claims.gu2025_empirical import DEPOSIT_LARGE, DEPOSIT_NONE, max_shallow_drop, paper_scale, record_problem, SMALL_PRESET
from proofs_check import plants as pl
from proofs_check.engine import Evidence, Reading, claim
from proofs_check.engine import quantities  # what a replay prints (see engine.quantities)
from proofs_check.tolerance import gamma, unit_roundoff

ALPHA = 0.05
_FIG = ("Records of petheory.experiments.papers.gu2025_task1/2 (runs/ first, then records/), grouped by PE spec. " + SMALL_PRESET +
        " Paper-preset records decide with >= 3 seeds per spec; none are shipped "
        "(records/ holds the small preset of the seven §4 runs only), so the verdict is inconclusive until they exist: "
        "train them with `python tools/gpu/gpu_records.py --device cuda gu2025_fig5 gu2025_fig6 gu2025_fig7` or "
        "petheory.experiments.papers.gu2025_partial_rope / gu2025_rope_abs / gu2025_mla_ablation({'size': 'paper', 'device': 'cuda'}).")


def _by_spec(ctx, task: str, match) -> dict:
    """{pe spec: [records]} of ``task`` for the specs ``match(spec)`` accepts, paper preset first, else the largest."""
    found, _ = emp.find(task, ctx.workdir or ".", check=record_problem)
    out: dict = {}
    for size in ("paper", "small", "custom", "smoke"):
        for r in found:
            if match(r["pe"]) and emp.preset_of(r) == size:
                out.setdefault(size, {}).setdefault(r["pe"], []).append(r)
        if size in out:
            return {"size": size, "specs": out[size]}
    return {"size": "none", "specs": {}}


def _acc(r) -> float:
    return float(r["final"]["test"][str(r["train_len"])]["acc"])


def _one_sample_p(values, threshold: float, greater: bool) -> float | None:
    """p of H1: mean(values) > threshold (``greater``) or < threshold; :func:`_empirical.t_greater`."""
    if greater:
        return emp.t_greater(values, threshold)
    return emp.t_greater([-float(x) for x in values], -threshold)


def _inconclusive(found: dict, what: str) -> Evidence:
    rows = {k: [round(_acc(r), 4) for r in v] for k, v in sorted(found["specs"].items())}
    return Evidence("inconclusive", sum(len(v) for v in found["specs"].values()), details={"size": found["size"], "acc": rows},
                    summary=(f"{found['size']} preset records: {rows}; " if rows else "no records: ") + what)


@claim(
    id="gu2025.partial_rope",
    paper_status="empirical",
    source="gu2025 §5.1, Fig. 5",
    statement="'Even with only a handful of RoPE-enabled heads, Task 1 performance remains below-near-optimal, and "
    "Task 2 generalization is shocked' (RoPE on a subset of heads, NoPE on the rest).",
    kind="empirical",
    setup="paper",
    alpha=ALPHA,
    reconstruction=_FIG + " 'Below-near-optimal' is read as both of its words: below full RoPE (rope) and near it. "
    "Checked, for each partial spec rope:heads=k with k < H: Task 1 test accuracy below full RoPE's (one-sided Welch) "
    "and above full RoPE's minus 5 points (one-sided Welch), and Task 2 accuracy below NoPE's ('shocked', one-sided "
    "Welch); Holm over all of them at alpha 0.05, every part must hold (a conjunction). 'Near' and 'shocked' have no "
    "number in the paper: the 5-point band is a documented choice.",
)
@paper_scale
def partial_rope(ctx) -> Evidence:
    t1 = _by_spec(ctx, "gu2025_task1", lambda s: s == "rope" or s.startswith("rope:heads="))
    t2 = _by_spec(ctx, "gu2025_task2", lambda s: s in ("nope",) or s.startswith("rope:heads="))
    partial = sorted(k for k in t1["specs"] if k.startswith("rope:heads="))
    if t1["size"] != "paper" or t2["size"] != "paper" or not partial or "rope" not in t1["specs"] \
            or "nope" not in t2["specs"]:
        return _inconclusive(t1, "needs paper-preset Task 1 records of rope and rope:heads=k, and Task 2 records of "
                                 "rope:heads=k and nope")
    full = [_acc(r) for r in t1["specs"]["rope"]]
    pf, pa, seeds = {}, {}, {"task1/rope": len(full), "task2/nope": len(t2["specs"]["nope"])}
    for k in partial:
        a = [_acc(r) for r in t1["specs"][k]]
        pf[f"task1/{k} below rope"] = emp.welch_less(a, full)["p"]
        pa[f"task1/{k} below rope"] = emp.welch_less(full, a)["p"]
        pf[f"task1/{k} near rope"] = emp.welch_less([x - 0.05 for x in full], a)["p"]  # a > full - 5 points
        pa[f"task1/{k} near rope"] = emp.welch_less(a, [x - 0.05 for x in full])["p"]
        seeds[f"task1/{k}"] = len(a)
        if k in t2["specs"]:
            b = [_acc(r) for r in t2["specs"][k]]
            w = emp.welch_less(b, [_acc(r) for r in t2["specs"]["nope"]])
            pf[f"task2/{k} below nope"] = w["p"]
            pa[f"task2/{k} below nope"] = emp.welch_less([_acc(r) for r in t2["specs"]["nope"]], b)["p"]
            seeds[f"task2/{k}"] = len(b)
    yes, no = emp.holm(pf, ctx.alpha or ALPHA), emp.holm(pa, ctx.alpha or ALPHA)
    if any(no.values()):
        verdict, p = "refuted", emp.decision_p(emp.holm_adjusted(pa), [k for k, v in no.items() if v], "refuted")
    elif all(yes.values()):
        verdict, p = "holds", emp.decision_p(emp.holm_adjusted(pf), list(pf), "holds")
    else:
        verdict, p = "inconclusive", None
    return Evidence(verdict, sum(seeds.values()), details={"size": "paper", "p_for": pf, "p_against": pa}, seeds=seeds, p_value=p,
                    summary=f"paper preset: {', '.join(partial)} vs rope (Task 1) and nope (Task 2): {verdict}")


def _deposit_claim(ctx, spec: str, task: str, *, large: bool) -> Evidence:
    """Is the largest shallow single-head drop of ``spec`` >= DEPOSIT_LARGE (``large``) or <= DEPOSIT_NONE, over seeds?"""
    found = _by_spec(ctx, task, lambda s: s == spec)
    recs = found["specs"].get(spec, [])
    drops = [d for d in (max_shallow_drop(r) for r in recs) if d is not None]
    if found["size"] != "paper" or not drops:
        ev = _inconclusive(found, f"needs paper-preset {task} records of {spec} with head ablation")
        ev.details["max_shallow_drop"] = [round(d, 4) for d in drops]
        return ev
    thr = DEPOSIT_LARGE if large else DEPOSIT_NONE
    p_for = _one_sample_p(drops, thr, greater=large)
    p_against = _one_sample_p(drops, thr, greater=not large)
    a = ctx.alpha or ALPHA
    verdict = "holds" if p_for is not None and p_for < a else "refuted" if p_against is not None and p_against < a \
        else "inconclusive"
    return Evidence(verdict, len(drops), margin=(min(drops) - thr) if large else (thr - max(drops)),
                    seeds={f"{task}/{spec}": len(drops)}, p_value=p_for if verdict == "holds" else p_against,
                    details={"size": "paper", "max_shallow_drop": drops, "threshold": thr},
                    summary=f"paper preset {task}/{spec}: largest shallow single-head drop per seed "
                    f"{[round(d, 3) for d in drops]} vs {thr}")


_DEPOSIT = (f" 'Deposit' = the largest single-head accuracy drop among the first third of the layers (as "
            f"gu2025.single_head_deposit): a large deposit is >= {DEPOSIT_LARGE:.0%}, none is <= {DEPOSIT_NONE:.0%}; "
            "per seed, one-sided one-sample t-test of the drops against the threshold, alpha 0.05.")


def layer_drops(record: dict) -> dict | None:
    """{layer: the largest single-head accuracy drop in that layer} of a record with a head ablation, else None."""
    ab = record.get("ablation")
    if not ab or ab.get("metric") != "acc":
        return None
    out: dict = {}
    for h in ab["heads"]:
        out[int(h["layer"])] = max(out.get(int(h["layer"]), -np.inf), float(h["drop"]))
    return out


@claim(
    id="gu2025.rope_abs_deposit",
    paper_status="empirical",
    source="gu2025 §5.2, Fig. 6",
    statement="'Due to the absolute position encoding, the deposit pattern no longer appears in the first layer. "
    "Ablating each head does not affect the overall performance. However, starting from the second layer, the "
    "deposit pattern reappears' (RoPE with an absolute position embedding added before the first layer, Task 1).",
    kind="empirical",
    setup="paper",
    alpha=ALPHA,
    reconstruction=_FIG + " RoPE + absolute = rope+sinusoidal. gu2025's own 'rope' run already adds a sinusoidal PE "
    "(CLAIMS.md: their code differs from their text), so this is the spec gu2025.single_head_deposit reads as "
    "'rope' too; the two statements are compatible (a deposit in the second layer and none in the first satisfies "
    "both). A conjunction of two parts, per seed: (1) no deposit in the first layer, every single-head drop there "
    f"<= {DEPOSIT_NONE:.0%}; (2) a deposit from the second layer on, the largest single-head drop in layers >= 2 "
    f"(index >= 1) >= {DEPOSIT_LARGE:.0%}. Each part by a one-sided one-sample t-test over seeds at alpha 0.05; "
    "holds when both parts are significant (an intersection-union test needs no correction), refuted when either "
    "part is significantly contradicted (Holm over the two).",
)
@paper_scale
def rope_abs_deposit(ctx) -> Evidence:
    spec, task = "rope+sinusoidal", "gu2025_task1"
    found = _by_spec(ctx, task, lambda s: s == spec)
    per = [x for x in (layer_drops(r) for r in found["specs"].get(spec, [])) if x]
    first = [x[min(x)] for x in per]
    later = [max((v for k, v in x.items() if k > min(x)), default=-np.inf) for x in per]
    if found["size"] != "paper" or not per or not all(np.isfinite(later)):
        ev = _inconclusive(found, f"needs paper-preset {task} records of {spec} with head ablation")
        ev.details.update(first_layer_drop=[round(d, 4) for d in first],
                          later_layer_drop=[round(d, 4) for d in later if np.isfinite(d)])
        return ev
    a = ctx.alpha or ALPHA
    p_for = {"first layer: no deposit": _one_sample_p(first, DEPOSIT_NONE, greater=False),
             "from the second layer: deposit": _one_sample_p(later, DEPOSIT_LARGE, greater=True)}
    p_against = {"first layer: no deposit": _one_sample_p(first, DEPOSIT_NONE, greater=True),
                 "from the second layer: deposit": _one_sample_p(later, DEPOSIT_LARGE, greater=False)}
    no = emp.holm(p_against, a)
    if any(no.values()):
        verdict = "refuted"
        p = emp.decision_p(emp.holm_adjusted(p_against), [k for k, v in no.items() if v], "refuted")
    elif all(x is not None and x < a for x in p_for.values()):
        verdict, p = "holds", max(p_for.values())
    else:
        verdict, p = "inconclusive", None
    return Evidence(verdict, len(per), seeds={f"{task}/{spec}": len(per)}, p_value=p,
                    margin=min(DEPOSIT_NONE - max(first), min(later) - DEPOSIT_LARGE),
                    details={"size": "paper", "first_layer_drop": first, "later_layer_drop": later, "p_for": p_for,
                             "p_against": p_against},
                    summary=f"paper preset {task}/{spec}: first-layer drop per seed {[round(d, 3) for d in first]} "
                    f"(<= {DEPOSIT_NONE}), later-layer drop {[round(d, 3) for d in later]} (>= {DEPOSIT_LARGE}): {verdict}")


@claim(
    id="gu2025.mla_headwise_ablation",
    paper_status="empirical",
    source="gu2025 §5.2, Fig. 7",
    statement="Under MLA, head-wise ablation shows an 'average deposit': no single head carries the positional "
    "computation on Task 1.",
    kind="empirical",
    setup="paper",
    alpha=ALPHA,
    reconstruction=_FIG + " Checked as: mla shows no deposit on Task 1." + _DEPOSIT,
)
@paper_scale
def mla_headwise_ablation(ctx) -> Evidence:
    return _deposit_claim(ctx, "mla", "gu2025_task1", large=False)


@claim(
    id="gu2025.dropout_keeps_deposit",
    paper_status="remark",
    source="gu2025 App. C, Remark C.1",
    statement="All experiments used dropout, so the deposit pattern is not a phenomenon that ordinary dropout removes.",
    kind="empirical",
    setup="paper",
    alpha=ALPHA,
    reconstruction=_FIG + " Checked as: RoPE (rope) trained with dropout > 0 (the paper preset: 0.1) still shows a "
    "large deposit on Task 1." + _DEPOSIT,
)
@paper_scale
def dropout_keeps_deposit(ctx) -> Evidence:
    ev = _deposit_claim(ctx, "rope", "gu2025_task1", large=True)
    return ev


# ---------------------------------------------------------------------------- Eqs. 11-12 (MLA logit form)


@st.composite
def _mla_cases(draw):
    return {"n": draw(st.integers(2, 8)), "dc": draw(st.integers(1, 6)), "dr": draw(st.sampled_from([2, 4, 6])),
            "seed": draw(st.integers(0, 2**32 - 1))}


def _mla_parts(case):
    """Eq. 11 with independent parameters (MLA's W^{UQ}/W^{UK} content and W^{QR}/W^{KR} rotary projections):
    (L, G_c, z_q, z_k, table). ``L`` is the concatenated inner product [q_c; R_i q_r] . [k_c; R_j k_r] with the
    rotation done by the library's RoPE (:class:`petheory.encodings.rotary.RotaryTable`); ``G_c`` the content Gram
    q_c k_c^T; ``z_q``, ``z_k`` the rotary parts paired into complex numbers (n, dr/2)."""
    rng = np.random.default_rng(case["seed"])
    n, dc, dr = int(case["n"]), int(case["dc"]), int(case["dr"])
    qc, kc = rng.standard_normal((n, dc)), rng.standard_normal((n, dc))
    qr, kr = rng.standard_normal((n, dr)), rng.standard_normal((n, dr))
    freqs = enc_rotary.rope_frequencies(dr)
    table = enc_rotary.RotaryTable(np.arange(n, dtype=float)[:, None] * freqs[None, :], dr, "interleaved")
    L = qc @ kc.T + table.apply(qr) @ table.apply(kr).T  # Eq. 11: concatenation, then the inner product
    return L, qc @ kc.T, coupling.complex_pairs(qr, table), coupling.complex_pairs(kr, table), table, (qc, kc, qr, kr)


def _mla_tolerance(case, parts) -> float:
    """Rounding of one logit entry: a (dc + dr)-term inner product of rotated vectors (angles p*theta rounded with
    error <= u n, moving a rotated vector by <= u n |x|) and the Gram sums, gamma_(dc+dr+8) + 8 u n relative to
    |q_i||k_j|; the largest entry bounds them all, times n for the Frobenius norms compared."""
    qc, kc, qr, kr = parts
    q = np.hstack([qc, qr])
    k = np.hstack([kc, kr])
    scale = float(np.max(np.outer(np.linalg.norm(q, axis=1), np.linalg.norm(k, axis=1))))
    n = int(case["n"])
    return (gamma(int(case["dc"]) + int(case["dr"]) + 8) + 8 * unit_roundoff() * n) * scale * n


def mla_logit_form(case) -> float:
    """Least-squares residual of Eq. 11's logit from the family :math:`\\mathrm{Re}(G_c \\circ (\\alpha G_e + I))` (:math:`\\alpha \\ge 0`, :math:`G_e` at each
    frequency of the rotary part), the best over the frequencies, minus rounding."""
    L, G, zq, zk, table, parts = _mla_parts(case)
    n = L.shape[0]
    pos = np.arange(n)
    R = L - G
    best, best_a, best_t = np.inf, 0.0, 0
    for t in range(table.angles.shape[1]):
        theta = table.angles[1, t] if n > 1 else 0.0
        B = np.real(G * np.exp(1j * (pos[:, None] - pos[None, :]) * theta))  # Re(G o G_e), what alpha multiplies
        a = max(float(np.sum(R * B) / max(np.sum(B * B), np.finfo(float).tiny)), 0.0)
        resid = float(np.linalg.norm(R - a * B))
        if resid < best:
            best, best_a, best_t = resid, a, t
    tol = _mla_tolerance(case, parts) * (1 + best_a)
    quantities(best_alpha=best_a, best_band=best_t, residual_of_eq12=best, tolerance=tol)
    return best - tol


@claim(
    id="gu2025.mla_logit_form__corrected",
    source="gu2025 §5.2, Eqs. 11-12, corrected (the source names no status: an equation)",
    statement=r"With independent content and rotary parameters, MLA's logit is the NoPE logit plus the RoPE logit: "
    r"$L_{MLA} = G_{q_c,k_c} + \sum_t \operatorname{Re}\{G^{(t)}_{q_r,k_r}\circ E^{(t)}\}$, "
    r"$G^{(t)}_{ij} = z_{q,i}^{(t)}\overline{z_{k,j}^{(t)}}$ (rotary pairs as complex numbers) and one Toeplitz "
    r"unit-modulus $E^{(t)}_{ij} = e^{i(i-j)\theta_t}$ per frequency of the rotary part.",
    kind="exact",
    paper_status=None,  # the source names no status
    cases=_mla_cases,
    corrected_of="gu2025.mla_logit_form",
    plants=(
        pl.Plant("the library's rotation turns the wrong way", pl.rope_sign),
        pl.Plant("rotary pairs as complex numbers with the wrong sign of the phase",
                 pl.attr("petheory.coupling.complex_pairs", lambda real: (lambda x, table: np.conj(real(x, table))))),
    ),
)
def mla_logit_form__corrected(case) -> float:
    """Largest entrywise gap between Eq. 11's logit (the library's rotation) and the corrected sum, minus rounding."""
    L, G, zq, zk, table, parts = _mla_parts(case)
    n = L.shape[0]
    pos = np.arange(n)
    theta = table.angles[1] if n > 1 else np.zeros(table.angles.shape[1])  # the rotary part's frequencies
    form = G + sum(np.real(np.outer(zq[:, t], np.conj(zk[:, t])) * np.exp(1j * (pos[:, None] - pos[None, :]) * theta[t]))
                   for t in range(zq.shape[1]))
    tol = _mla_tolerance(case, parts) / n  # entrywise, not a Frobenius norm
    quantities(max_gap=float(np.abs(L - form).max()), tolerance=tol)
    return float(np.abs(L - form).max() - tol)


claim(
    id="gu2025.mla_logit_form",
    source="gu2025 §5.2, Eqs. 11-12 (the source names no status: an equation)",
    statement=r"MLA's logit $<q_i,k_j> = <(W_{UQ}W_{DQ}x_i; R_iW_{UR}W_{DQ}x_i), (W_{UK}W_{DKV}x_j; R_jW_{KR}x_j)>$ "
    r"(Eq. 11), where 'each head independently processes the inner product of NoPE and RoPE once and sums them up, "
    r"and the parameters of the two parts are independent and do not interfere with each other', 'in our theoretical "
    r"framework, it can be expressed as' $L_{MLA\_complex} = (G_{q,k}+G_{q,p}+G_{p,k}+G_p)\circ(\alpha G_e + I)$ (Eq. 12).",
    kind="exact",
    paper_status=None,  # the source names no status
    cases=_mla_cases,
    reconstruction="Complex form as gu2025 Eq. 9 (pairs as complex numbers, R_p a phase), real part taken; MLA adds "
    "no absolute PE, so G = G_{q,k}, the content Gram of the NoPE part (the only Gram Eq. 12 has). 'In our "
    "theoretical framework, it can be expressed as' admits two readings: Eq. 12 as an identity, or as a schema of the "
    "framework's kind (a content Gram plus a Hadamard product with Toeplitz unit-modulus factors).",
    readings=[
        Reading("literal_identity", "Eq. 12 holds as written for some alpha >= 0 and some G_e (each chosen in the "
                "paper's favour per case: alpha by least squares, G_e at whichever frequency of the rotary part fits "
                "best): a positive residual says no alpha and no G_e make it exact.", check=mla_logit_form),
        Reading("schematic", "Eq. 12 as a schema: L_MLA is the NoPE part's Gram plus the RoPE part's, which is a sum of "
                "Hadamard products of Grams with Toeplitz unit-modulus factors E^(t)_ij = e^{i(i-j) theta_t} (alpha G_e "
                "standing for that sum), with the library's rotation computing Eq. 11.", check=mla_logit_form__corrected,
                plants=(
                    pl.Plant("the library's rotation turns the wrong way", pl.rope_sign),
                )),
    ],
)


# ---------------------------------------------------------------------------- Assumption 3.1


@st.composite
def _decomp_cases(draw):
    return {"n": draw(st.integers(2, 8)), "vocab": draw(st.integers(2, 6)), "d": draw(st.sampled_from([2, 4, 8])),
            "pe": draw(st.sampled_from(("sinusoidal", "learned", "random"))), "seed": draw(st.integers(0, 2**32 - 1))}


def _decomposition_interaction(case, layer: bool) -> float:
    """Largest additivity defect h(t,i) - h(t',i) - h(t,i') + h(t',i') over tokens and positions, minus rounding.

    ``layer=False``: the input x = E[t] + P[i]; ``layer=True``: the output of one softmax attention layer at position
    i when token t sits there in a fixed random context (what App. C.4 discusses: after attention, content and
    position mix, so no c_i(t) + p_i decomposition)."""
    from petheory import encodings as enc
    from scipy.special import softmax

    rng = np.random.default_rng(case["seed"])
    n, V, d = int(case["n"]), int(case["vocab"]), int(case["d"])
    E = rng.standard_normal((V, d))
    P = enc.get(case["pe"])(n, d)
    ctx_tokens = rng.integers(0, V, n)
    Wq, Wk, Wv = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))
    H = np.empty((V, n, d))
    for t in range(V):
        for i in range(n):
            toks = ctx_tokens.copy()
            toks[i] = t
            X = E[toks] + P
            if not layer:
                H[t, i] = X[i]
                continue
            S = (X @ Wq) @ (X @ Wk).T / np.sqrt(d)
            H[t, i] = softmax(S[i:i + 1], axis=-1)[0] @ (X @ Wv)
    D = H[:, None, :, None] - H[None, :, :, None] - H[:, None, None, :] + H[None, :, None, :]  # (V, V, n, n, d)
    scale = float(np.abs(H).max()) if H.size else 1.0
    tol = 4 * gamma(8 * d + 4 * n) * max(scale, np.finfo(float).tiny) * (1 + 4 * d * layer)
    quantities(max_token_position_interaction=float(np.abs(D).max()), tolerance=tol)
    return float(np.abs(D).max()) - tol


claim(
    id="gu2025.representation_decomposition",
    source="gu2025 §3.1, Assumption 3.1",
    statement=r"Each token representation at position $i$ decomposes into a position-independent content component "
    r"and a position-dependent component, $x_i = c_i + p_i$.",
    kind="exact",
    paper_status="assumption",
    reconstruction="'Position-independent content' read as c_i = c(token at i), 'position-dependent' as p_i = p(i): "
    "the representation is additive in token and position, tested by the interaction h(t,i) - h(t',i) - h(t,i') + "
    "h(t',i') = 0 for all tokens t, t' and positions i, i' (tolerance: rounding of the sums and products formed). "
    "An assumption is never refuted: its readings say which representations satisfy it.",
    readings=[
        Reading("input_layer", "the input representation x_i = E[token_i] + P[i] of an additive absolute PE",
                check=lambda case: _decomposition_interaction(case, False), cases=_decomp_cases,
                evidence="definitional", evidence_note="additive by the construction of the input (embedding + PE); "
                "the check guards the implementation only",
                plants=(
                    pl.Plant("(none)", lambda mp: None,
                             equivalent="the input x = E[t] + P[i] is formed in the checker, additive in token and position for every "
                             "table P the registry returns; the reading says definitional (its evidence note), and its sibling reading "
                             "after_attention is what can fail"),
                )),
        Reading("after_attention", "the representation after one softmax attention layer (App. C.4: content and "
                "position mix there)", check=lambda case: _decomposition_interaction(case, True), cases=_decomp_cases),
    ],
)


# ---------------------------------------------------------------------------- Prop. B.2 (logit expressiveness)


@st.composite
def _expressiveness_cases(draw):
    """One content difference magnitude r = ``|c1 - c2|`` and a margin gap < r (at gap >= r neither encoding can meet
    the constraint, and 'larger' compares two empty sets)."""
    r = draw(st.floats(1e-3, 20.0))
    return {"r": r, "gap_fraction": draw(st.floats(0.0, 0.999)), "angles": draw(st.sampled_from([8, 32, 128]))}


def _feasible_relative(c1: complex, c2: complex, gap: float) -> bool:
    """Is there a bias b_{i-j} with Re c1 + b > C1 > C2 > Re c2 + b, C1 - C2 >= gap? The pair and its shift by s share
    the offset, hence b: feasible iff Re c1 - Re c2 > gap (b cancels)."""
    return c1.real - c2.real > gap


def _feasible_rope(c1: complex, c2: complex, gap: float) -> bool:
    """Is there an angle phi (RoPE's theta_{t_{i-j}}, shared by the pair and its shift) with
    Re(c1 e^{i phi}) - Re(c2 e^{i phi}) > gap? Searched on a grid of 4096 angles (no closed form used)."""
    phi = np.linspace(-np.pi, np.pi, 4096, endpoint=False)
    return bool(np.max(np.real((c1 - c2) * np.exp(1j * phi))) > gap)


#: 'Much larger' as a factor: the measure of RoPE's solution set at least this many times relative encoding's.
MUCH_LARGER = 2.0


def expressiveness_fractions(case) -> tuple[float, float, int]:
    """(fraction of content directions feasible for relative encoding, the same for RoPE, number of directions).

    The content difference :math:`c_1 - c_2 = r e^{i\\psi}` runs over ``angles`` directions psi spread evenly on the circle
    (the uniform measure on the content pair's direction at fixed ``|c1 - c2|``); each direction is asked of
    :func:`_feasible_relative` and :func:`_feasible_rope` as they are registered in this module."""
    r, gap, m = float(case["r"]), float(case["gap_fraction"]) * float(case["r"]), int(case["angles"])
    psi = (np.arange(m) + 0.5) * 2 * np.pi / m  # offset by half a step: no direction lies on the boundary cos = 0
    c1 = r * np.exp(1j * psi)  # c2 = 0 without loss: both feasibility sets depend on c1 - c2 only
    rel = sum(_feasible_relative(complex(z), 0j, gap) for z in c1) / m
    rope = sum(_feasible_rope(complex(z), 0j, gap) for z in c1) / m
    return rel, rope, m


def logit_expressiveness(case) -> float:
    """> 0 when RoPE's share of content directions is below MUCH_LARGER times relative encoding's, or some direction
    feasible for relative encoding is not feasible for RoPE (the sets are not nested)."""
    rel, rope, m = expressiveness_fractions(case)
    r, gap = float(case["r"]), float(case["gap_fraction"]) * float(case["r"])
    psi = (np.arange(m) + 0.5) * 2 * np.pi / m
    nested = all(_feasible_rope(complex(z), 0j, gap) for z in r * np.exp(1j * psi) if _feasible_relative(complex(z), 0j, gap))
    quantities(relative_fraction=rel, rope_fraction=rope, factor_needed=MUCH_LARGER, nested=nested)
    if not nested:
        return 1.0
    # the fractions are counts / m, so the comparison is exact (no rounding to allow for)
    return float(round(MUCH_LARGER * rel * m) - round(rope * m)) / m


@st.composite
def _band_cases(draw):
    return {"d": draw(st.sampled_from([2, 4, 8, 16])), "base": draw(st.floats(2.0, 1e5)), "offset": draw(st.integers(1, 256)),
            "shift": draw(st.integers(1, 256)), "gap_fraction": draw(st.floats(0.0, 1.0)), "seed": draw(st.integers(0, 2**16))}


BAND_DRAWS = 4000


def rope_logit_fractions(case) -> tuple[float, float, float]:
    """(relative encoding's feasible fraction, RoPE's, the Monte Carlo standard error) of App. B's constraint for the
    pair (i, j) and its shift (i+s, j+s), over content vectors :math:`q_i, k_j, q_{i+s}, k_{j+s} \\sim N(0, I_d)`, with RoPE's real
    multi-band logit :math:`(R_i q)^\\top (R_j k)` computed by the library's rotation, gap ``= gap_fraction * sqrt(d)``."""
    d, i, s = case["d"], case["offset"], case["shift"]
    rng = np.random.default_rng(case["seed"])
    qi, kj, qs, ks = rng.standard_normal((4, BAND_DRAWS, d))
    table = enc_rotary.rope(i + s + 1, d, base=case["base"])  # positions 0..i+s; the key j sits at 0 (j = 0)
    rope1 = np.einsum("nd,nd->n", table.apply_at(qi, i), table.apply_at(kj, 0))
    rope2 = np.einsum("nd,nd->n", table.apply_at(qs, i + s), table.apply_at(ks, s))
    gap = case["gap_fraction"] * np.sqrt(d)
    rel = float(np.mean(np.einsum("nd,nd->n", qi, kj) - np.einsum("nd,nd->n", qs, ks) > gap))  # b_{i-j} cancels
    rope = float(np.mean(rope1 - rope2 > gap))
    return rel, rope, float(np.sqrt(max(rel * (1 - rel), 1.0 / BAND_DRAWS) / BAND_DRAWS))


def rope_logit_much_larger(case) -> float:
    """> 0 when RoPE's feasible fraction is below MUCH_LARGER times relative encoding's, beyond 4 standard errors."""
    rel, rope, se = rope_logit_fractions(case)
    quantities(relative_fraction=rel, rope_fraction=rope, factor_needed=MUCH_LARGER, standard_error=se)
    # both fractions are means of BAND_DRAWS Bernoulli draws: 4 standard errors of each (false alarm < 1e-4 per case)
    return MUCH_LARGER * rel - rope - 4 * (MUCH_LARGER + 1) * se


def _expressiveness_equal(mp):
    """Plant: RoPE's feasible set made equal to relative encoding's."""
    from proofs_check.claims import gu2025_mla as M

    mp.setattr(M, "_feasible_rope", M._feasible_relative)


claim(
    id="gu2025.logit_expressiveness",
    paper_status="proposition",
    source="gu2025 App. B, Prop. B.2",
    statement="'It is easy to verify that the solution space of RoPE is much larger than that of Relative Position "
    "Encoding' for Task 1's constraints <q_i,k_j> + b_{i-j} > C1 > C2 > <q_{i+s},k_{j+s}> + b_{i-j} (relative) and "
    "Re{<q_i,k_j> e^{i(i-j) theta}} > C1 > C2 > Re{<q_{i+s},k_{j+s}> e^{i(i-j) theta}} (RoPE).",
    kind="exact",
    reconstruction="The constraint set of App. B for one pair (i, j) and its shift (i+s, j+s), C1 - C2 >= gap. Both pairs "
    "have the offset i - j, so relative encoding adds the same b_{i-j} to both (it cancels). The solution space is "
    "measured over the content pair. 'Much larger' has no number in the paper; it is read as at least MUCH_LARGER = 2 "
    "times relative encoding's measure (the least factor a reader would call 'much'). What RoPE's phase is differs "
    "between the two readings; they disagree, and the proposition holds only in the idealised one.",
    readings=[
        Reading("single_phase", "App. B's idealisation: one common phase theta_{t_{i-j}} free for the model to choose "
                "(the form App. B writes); c1 - c2 = r e^{i psi} over directions psi on the circle, feasible for RoPE "
                "iff some phase on a 4096-angle grid works, for relative iff Re c1 - Re c2 > gap (fractions 1 and "
                "arccos(gap/r)/pi <= 1/2: the factor is 2 at gap 0, exactly the threshold, and grows as gap -> r). "
                "Checked per case: RoPE's set contains relative's and rope_fraction >= 2 relative_fraction.",
                check=logit_expressiveness, cases=_expressiveness_cases, evidence="definitional",
                evidence_note="true by the idealisation's closed form (a free phase makes RoPE's set the whole circle), "
                "conditional on it: no library code is involved, and the free common phase is what "
                "gu2025.prop_b1_mean_value_step and gu2025.rope_logit_form refute for the real logit; at gap 0 the "
                "margin is exactly 0",
                plants=(
                    pl.Plant("RoPE's feasible set made equal to relative encoding's",
                             _expressiveness_equal),
                )),
        Reading("rope_logit", "RoPE's real logit (R_i q_i)^T (R_j k_j), a sum over d/2 bands whose phases (i-j) "
                "theta_t are fixed by the positions, not free: over content vectors ~ N(0, I_d), the fraction "
                "satisfying the constraint at gap = gap_fraction sqrt(d) is at least 2 times relative encoding's.",
                check=rope_logit_much_larger, cases=_band_cases, examples={"quick": 20, "thorough": 200}),
    ],
)
