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
  frequencies the config gives at C (:func:`petheory.analyses.plan.supported_context`, searched to 4C; the
  smallest M over the model's full-attention rotary kinds); the model "fails Men at C" when M < C;
* test 1 (the sentence: the bound tracks the real length): Spearman's rank correlation of M and E, one-sided
  (H1: rho > 0);
* test 2 (the issue's share): among the models whose effective length falls short of the claimed one (E < C),
  the share that fails Men at C, against the models with E >= C, by Fisher's exact test, one-sided (H1: failing
  is more common among the short ones);
* alpha 0.05, Holm over the two tests, one look. "holds" when both reject; "refuted" when rho < 0 at alpha
  (one-sided, the other direction); else "inconclusive". Setup ``substitute`` (RULER's tasks are not Men's
  long-eval): the runner lowers either decision to inconclusive and names the direction the data point in.
"""

from __future__ import annotations

import re

from proofs_check.claims import _ruler_data as data
from proofs_check.engine import Evidence, claim

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


def supported(cfg: dict, claimed: int) -> dict:
    """Men's supported context M of a config at its claimed length C (the smallest over its full-attention rotary
    kinds) and Liu's T_extra beside it; ``None`` M: no B_m < 0 up to the search limit (SEARCH x C)."""
    from petheory.analyses.plan import PLANNED, supported_context
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
        out.append({"model": name, "hf": hf, "claimed": C, "effective": E, "M": M, "liu_t_extra": s["liu"],
                    "original_context": s["context"], "fails_at_C": M is not None and M < C, "short": E < C})
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
    fisher = stats.fisher_exact(table, alternative="greater")
    adj = holm_adjusted({"spearman": float(rho.pvalue), "fisher": float(fisher.pvalue)})
    return {"n": len(rows), "spearman_rho": float(rho.statistic), "p_spearman": float(rho.pvalue),
            "p_spearman_negative": float(anti.pvalue), "fisher_table [[short fail, short pass], [not short fail, "
            "not short pass]]": table, "p_fisher": float(fisher.pvalue), "holm": adj,
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


@claim(
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
    "frequencies at its claimed length C. Pre-registered statistic, alpha 0.05, Holm over two tests, one look: "
    "Spearman's rho of M against the effective length E (one-sided, rho > 0), and Fisher's exact test that models "
    "failing Men at C (M < C) are more common among those whose E falls short of C (one-sided); 'holds' when both "
    "reject, 'refuted' when rho < 0 at alpha. Only RULER rows whose config.json is public and sourced are compared; "
    "the others are listed in _ruler_data.EXCLUDED with the reason. Substitute setup: at most inconclusive.",
)
def bound_approximates_real_context(ctx) -> Evidence:
    rows = comparison()
    if len(rows) < 3:
        return Evidence("inconclusive", len(rows), summary=f"{len(rows)} RULER models with a sourced config: too few")
    st = statistics(rows)
    verdict, p = decide(st, ctx.alpha or ALPHA)
    direction = ("towards the statement" if st["spearman_rho"] > 0 and st["p_spearman"] < ALPHA else
                 "against it" if st["p_spearman_negative"] < ALPHA else "neither way at alpha")
    share, other = st["share_failing_among_short"], st["share_failing_among_not_short"]
    others = "no model reaches its claimed length" if other is None else f"{other:.0%} of the others"
    return Evidence(verdict, st["n"], margin=st["spearman_rho"], p_value=p,
                    details={"statistics": st, "models": rows, "source": data.SOURCE,
                             "excluded": dict(data.EXCLUDED)},
                    summary=f"{st['n']} RULER models: Spearman rho(M, E) = {st['spearman_rho']:.3f} (one-sided p "
                    f"{st['p_spearman']:.3g}); failing Men at the claimed length: "
                    f"{'-' if share is None else f'{share:.0%}'} of the {sum(r['short'] for r in rows)} whose effective "
                    f"length falls short, {others} (Fisher one-sided p {st['p_fisher']:.3g}); the data point {direction}")
