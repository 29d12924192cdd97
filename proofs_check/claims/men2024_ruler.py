r"""men2024 §4.3/§5 as an empirical claim: does Men's bound predict the context models really have?

Men et al. write, after Eq. 11: "Notwithstanding, in Section 5 we find that the derived bound approximates the
real context length in practice." Their §5 trains models of their own; here the sentence is checked on data no
one here measured: RULER's published table of claimed and effective context lengths
(:mod:`proofs_check.claims._ruler_data`, with its source), for the models whose ``config.json`` is public.

Pre-registered (this module's statistic was committed before any configuration was compared, see the commit
history of ``proofs_check/claims/_ruler_data.py``):

* per model (a RULER row with a sourced config that petheory resolves to rotary full-attention layers): the
  claimed length C and RULER's effective length E (">128K" ranks above 128K, "<4K" below 4K); Men's supported
  context M: the largest M with :math:`B_m = \sum_t\cos(m\theta_t) \ge 0` for every :math:`0\le m\le M`, for the
  frequencies the config gives at C (:func:`petheory.analyses.long_context.supported_context`, searched to 4C; the
  smallest M over the model's full-attention rotary kinds); the model "fails Men at C" when M < C;
* test 1 (the sentence: the bound tracks the real length): Spearman's rank correlation of M and E, one-sided
  (H1: rho > 0);
* test 2 (the issue's share): among the models whose effective length falls short of the claimed one (E < C),
  the share that fails Men at C, against the models with E >= C, by Fisher's exact test, one-sided (H1: failing
  is more common among the short ones);
* alpha 0.05, Holm over the two tests, one look. "holds" when both reject; "refuted" when rho < 0 at alpha
  (one-sided, the other direction); else "inconclusive". Setup ``substitute`` (RULER's tasks are not Men's
  long-eval): the runner lowers either decision to inconclusive and names the direction the data point in.

Guard (issue 57, a property of the tests, not of the data): a test that cannot reject decides nothing. Fisher's
exact test with an empty row or column (no model reaches its claimed length, or every model fails Men at it) has
p = 1 whatever the data, so it is reported as "cannot reject: empty margin" and the conjunction cannot hold; the
agreement it would have tested (every short model fails Men) is then reported as a count, for what it is: when
every compared model fails Men at its claimed length, "the short ones fail" says nothing about the bound.

The reading ``upper_bound`` (issue 57, written after the first comparison, so it adds a test, not a decision
the substitute setup would let stand): "bound" as an upper bound on the real length, E <= c x M with c = 1 (the
literal bound; Men's own note says stacking layers may only raise the real length beyond it), checked per model on
the lower end of what RULER measured (">128K" is at least 128K; the grid of lengths is 4K..128K), so that a model
handling more than M refutes it; the smallest c consistent with every model is reported beside it.
"""

from __future__ import annotations

import re

from proofs_check.claims import _ruler_data as data
from proofs_check.engine import Evidence, Reading, claim

SOURCE = ("men2024 (Men, Xu, Wang, Zhang, Lin, Han, Chen; arXiv 2405.14591v1) §4.3, the note after Eq. 11 (about "
          "§5), read in the full text (github.com/commotum/4D, Notes/Vision/pdfs-3/2024_RoPEBase.txt); data: RULER's "
          f"README table (github.com/NVIDIA/RULER commit {data.SOURCE['commit'][:8]}, {data.SOURCE['date']})")
ALPHA = 0.05
#: Men's supported context is searched to this multiple of the claimed length.
SEARCH = 4
_UNIT = {"k": 1024, "m": 1024 ** 2}


def length(text: str) -> int | None:
    """A RULER length string as tokens: '128K' -> 131072, '1M' -> 1048576, '>128K' -> 262144 (ranks above 128K),
    '<4K' -> 2048 (below 4K), '' -> None.

    >>> [length(t) for t in ("4K", "256k", "1M", ">128K", "<4K", "")]
    [4096, 262144, 1048576, 262144, 2048, None]
    """
    t = text.strip()
    if not t:
        return None
    m = re.fullmatch(r"([<>]?)(\d+)([kKmM])", t)
    if m is None:
        raise ValueError(f"not a RULER length: {text!r}")
    n = int(m.group(2)) * _UNIT[m.group(3).lower()]
    return 2 * n if m.group(1) == ">" else n // 2 if m.group(1) == "<" else n


def lower_length(text: str) -> int | None:
    """What RULER's length string guarantees at least: '>128K' -> 131072 (at least 128K), '<4K' -> 0, else
    :func:`length`.

    >>> [lower_length(t) for t in (">128K", "<4K", "64K")]
    [131072, 0, 65536]
    """
    t = text.strip()
    if t.startswith(">"):
        return length(t[1:])
    if t.startswith("<"):
        return 0
    return length(t)


def supported(cfg: dict, claimed: int) -> dict:
    """Men's supported context M of a config at its claimed length C (the smallest over its full-attention rotary
    kinds) and Liu's :math:`T_{extra}` beside it; ``None`` M: no :math:`B_m < 0` up to the search limit (SEARCH x C)."""
    from petheory.analyses.long_context import supported_context
    from petheory.analyses.plan import PLANNED
    from petheory.models import resolve_config

    scheme = resolve_config(cfg)
    kinds = [layer.positions for layer, _ in scheme.kinds()
             if layer.span.kind == "full" and layer.positions.kind == "rotary" and layer.positions.encoding in PLANNED]
    if not kinds:
        raise ValueError("no full-attention rotary layer")
    found = [supported_context(p, context=scheme.context, extended=claimed, cap=SEARCH * claimed) for p in kinds]
    ms = [s.men_largest for s in found if s.men_largest is not None]
    return {"M": min(ms) if ms else None, "liu": min(s.liu_t_extra for s in found), "context": scheme.context}


def comparison(rows=None, configs=None) -> list[dict]:
    """One dict per compared model: name, C, E, M (None: beyond SEARCH x C), fails_at_C, short."""
    rows = data.ROWS if rows is None else rows
    configs = data.CONFIGS if configs is None else configs
    out = []
    for name, hf, claimed, eff in rows:
        if hf not in configs:
            continue
        C, E = length(claimed), length(eff)
        if E is None:
            continue
        s = supported(configs[hf]["config"], C)
        M = s["M"]
        out.append({"model": name, "hf": hf, "claimed": C, "effective": E, "effective_at_least": lower_length(eff),
                    "M": M, "liu_t_extra": s["liu"], "original_context": s["context"],
                    "fails_at_C": M is not None and M < C, "short": E < C,
                    "config": "recalled" if configs[hf].get("recalled") else "read"})
    return out


def statistics(rows: list[dict]) -> dict:
    """The two pre-registered tests on the compared models (see the module docstring)."""
    from scipy import stats

    from proofs_check.claims._empirical import holm_adjusted

    M = [r["M"] if r["M"] is not None else SEARCH * r["claimed"] + 1 for r in rows]  # beyond the search: above all
    E = [r["effective"] for r in rows]
    rho = stats.spearmanr(M, E, alternative="greater")
    anti = stats.spearmanr(M, E, alternative="less")
    short = [r for r in rows if r["short"]]
    long_ = [r for r in rows if not r["short"]]
    table = [[sum(r["fails_at_C"] for r in short), sum(not r["fails_at_C"] for r in short)],
             [sum(r["fails_at_C"] for r in long_), sum(not r["fails_at_C"] for r in long_)]]
    # a 2x2 table with an empty row or column has p = 1 whatever the data: that test cannot reject (issue 57)
    empty = [name for name, total in (("no short model", len(short)), ("no model reaches its claim", len(long_)),
                                      ("no model fails Men at C", table[0][0] + table[1][0]),
                                      ("no model passes Men at C", table[0][1] + table[1][1])) if total == 0]
    fisher_p = None if empty else float(stats.fisher_exact(table, alternative="greater").pvalue)
    adj = holm_adjusted({"spearman": float(rho.pvalue), "fisher": fisher_p})
    return {"n": len(rows), "spearman_rho": float(rho.statistic), "p_spearman": float(rho.pvalue),
            "p_spearman_negative": float(anti.pvalue), "fisher_table [[short fail, short pass], [not short fail, "
            "not short pass]]": table, "p_fisher": fisher_p, "fisher_cannot_reject": empty, "holm": adj,
            "share_failing_among_short": table[0][0] / len(short) if short else None,
            "share_failing_among_not_short": table[1][0] / len(long_) if long_ else None}


def decide(st: dict, alpha: float = ALPHA) -> tuple[str, float | None]:
    """holds when both Holm-adjusted p < alpha; refuted when rho < 0 at alpha (one-sided); else inconclusive."""
    adj = st["holm"]
    if adj["spearman"] is not None and adj["fisher"] is not None and max(adj.values()) < alpha:
        return "holds", max(adj.values())
    if st["p_spearman_negative"] < alpha:
        return "refuted", st["p_spearman_negative"]
    return "inconclusive", None


def tracks(ctx) -> Evidence:
    """Reading 'tracks': the pre-registered Spearman and Fisher tests (module docstring)."""
    rows = comparison()
    if len(rows) < 3:
        return Evidence("inconclusive", len(rows), summary=f"{len(rows)} RULER models with a sourced config: too few")
    st = statistics(rows)
    verdict, p = decide(st, ctx.alpha or ALPHA)
    direction = ("towards the statement" if st["spearman_rho"] > 0 and st["p_spearman"] < ALPHA else
                 "against it" if st["p_spearman_negative"] < ALPHA else "neither way at alpha")
    n_short, n_fail = sum(r["short"] for r in rows), sum(r["fails_at_C"] for r in rows)
    if st["p_fisher"] is None:
        fisher = (f"Fisher's test cannot reject (table {st['fisher_table [[short fail, short pass], [not short fail, not short pass]]']}: "
                  f"{'; '.join(st['fisher_cannot_reject'])}), so it decides nothing; what it would test is a count: "
                  f"{st['fisher_table [[short fail, short pass], [not short fail, not short pass]]'][0][0]} of the "
                  f"{n_short} models that fall short fail Men at the claimed length, as do {n_fail} of all {len(rows)} "
                  f"(those that reach it included): an agreement no better than every model failing")
    else:
        fisher = (f"failing Men at the claimed length: {st['share_failing_among_short']:.0%} of the {n_short} that fall "
                  f"short, {st['share_failing_among_not_short']:.0%} of the others (Fisher one-sided p {st['p_fisher']:.3g})")
    recalled = sum(r["config"] == "recalled" for r in rows)
    return Evidence(verdict, st["n"], margin=st["spearman_rho"], p_value=p,
                    details={"statistics": st, "models": rows, "source": data.SOURCE,
                             "excluded": dict(data.EXCLUDED)},
                    summary=f"{st['n']} RULER models ({recalled} with recalled configs): Spearman rho(M, E) = "
                    f"{st['spearman_rho']:.3f} (one-sided p {st['p_spearman']:.3g}); {fisher}; the data point {direction}")


#: The constant of the one-sided reading: c = 1 is the bound as stated.
BOUND_C = 1.0


def upper_bound(ctx) -> Evidence:
    """Reading 'upper_bound': E <= c M (c = BOUND_C), E the least RULER guarantees, by a sign test.

    The statistic: k, the number of models with E > c M. Under the bound, a model lands above c M only through
    RULER's measurement (a score near the threshold moves E by one grid step), at most as often as not: k is at
    most Binomial(n, 1/2). Refuted when P(Bin(n, 1/2) >= k) < alpha (more models exceed the bound than noise
    allows); holds when P(Bin(n, 1/2) <= k) < alpha (fewer than noise would put there); else inconclusive. A
    single model far above c M is reported (the smallest c consistent with every model) but decides nothing alone."""
    from scipy import stats

    rows = [r for r in comparison() if r["M"] is not None]
    over = [r for r in rows if r["effective_at_least"] > BOUND_C * r["M"]]
    n, k = len(rows), len(over)
    if n < 3:
        return Evidence("inconclusive", n, summary=f"{n} RULER models with a bounded M: too few")
    p_above = float(stats.binomtest(k, n, 0.5, alternative="greater").pvalue)
    p_below = float(stats.binomtest(k, n, 0.5, alternative="less").pvalue)
    alpha = ctx.alpha or ALPHA
    verdict, p = ("refuted", p_above) if p_above < alpha else ("holds", p_below) if p_below < alpha else ("inconclusive", None)
    c_min = max(r["effective_at_least"] / r["M"] for r in rows)
    worst = max(rows, key=lambda r: r["effective_at_least"] / r["M"])
    return Evidence(verdict, n, margin=BOUND_C - c_min, p_value=p,
                    details={"c": BOUND_C, "models_above_c_times_M": k, "models": n,
                             "p_more_above_than_noise": p_above, "p_fewer_above_than_noise": p_below,
                             "smallest_c_for_every_model": c_min,
                             "above_c_times_M": [{"model": r["model"], "effective_at_least": r["effective_at_least"],
                                                  "M": r["M"]} for r in over]},
                    summary=f"{k} of {n} RULER models handle more than {BOUND_C:g} x Men's supported length M (at the "
                    f"least RULER measured; sign test against noise alone, one-sided p {p_above:.3g} for more, "
                    f"{p_below:.3g} for fewer); the smallest c with E <= c M for every model is {c_min:.3g} "
                    f"({worst['model']}: at least {worst['effective_at_least']} against M = {worst['M']})")


claim(
    id="men2024.bound_approximates_real_context",
    source=SOURCE,
    statement=r"§4.3, after Eq. 11: 'Note: this boundary is not very strict because the stacking of layers in LLMs "
    r"allows the model to extract information beyond the single layers' range, which may increase the context length "
    r"in Eq. 10 and decrease the base in Eq. 11. Notwithstanding, in Section 5 we find that the derived bound "
    r"approximates the real context length in practice.'",
    kind="empirical",
    paper_status="empirical",
    setup="substitute",
    alpha=ALPHA,
    looks=1,
    trained=False,
    reconstruction="The 'real context length' read as RULER's effective length (its table, published data, not Men's "
    "long-eval), 'the derived bound' as the largest context M whose B_m stays >= 0 for the model's configured "
    "frequencies at its claimed length C. Only RULER rows whose config.json is public are compared (read at an "
    "address, or recalled from the published file and marked so); the others are listed in _ruler_data.EXCLUDED "
    "with the reason. Substitute setup: at most inconclusive.",
    readings=[
        Reading("tracks", "'approximates' as tracks: pre-registered, alpha 0.05, Holm over two tests, one look: "
                "Spearman's rho of M against the effective length E (one-sided, rho > 0), and Fisher's exact test that "
                "models failing Men at C (M < C) are more common among those whose E falls short of C (one-sided); "
                "'holds' when both reject, 'refuted' when rho < 0 at alpha; a test whose table has an empty row or "
                "column cannot reject and decides nothing.", check=tracks),
        Reading("upper_bound", "'bound' as an upper bound on the real length: E <= c M for every model, c = 1 (the "
                "bound as stated), E the least RULER measured ('>128K' is 128K); a sign test of the number of models "
                "above c M against Binomial(n, 1/2) (measurement noise alone), one-sided both ways at alpha 0.05. "
                "Added after the first comparison (issue 57); the substitute setup keeps it at most inconclusive.",
                check=upper_bound),
    ],
)
