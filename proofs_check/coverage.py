"""Which statements of each paper the catalogue checks: the README's coverage section, generated.

``python -m proofs_check.coverage``            print the section
``python -m proofs_check.coverage --write``    replace the block between the markers in docs/coverage.md
``python -m proofs_check.coverage --check``    exit 1 when docs/coverage.md's block is stale (what the test does)

:data:`STATEMENTS` lists, per paper, its theorems, propositions, lemmas, assumptions, remarks and
headline empirical statements (as far as the text we have shows them: ``../shared/papers/``), each
with the claim ids that check it, or none and why not. The tests hold it to the catalogue both ways:
every id named exists, and every built-in claim (other than a ``__corrected`` variant, which is
listed with its original) is named by some statement.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from proofs_check.verdict_table import COVERAGE, update_readme

BEGIN = "<!-- coverage:begin (generated: python -m proofs_check.coverage --write) -->"
END = "<!-- coverage:end -->"


@dataclass(frozen=True)
class Statement:
    """One statement of a paper: where it is, what it says (short), and the claims that check it or why none does."""

    where: str
    what: str
    claims: tuple = ()
    why_not: str = ""


S = Statement
#: The papers in the order the README lists them, with the text we have of each.
PAPERS = {
    "gu2025": "Gu et al., arXiv 2505.13027 v1 (nearly full text)",
    "li2025": "Yin Li, arXiv 2506.06398 (a structured summary, not the full text)",
    "cirrincione2026": "Cirrincione, arXiv 2604.05217 (abstract and a commentary)",
    "chen2025": "Chen, Liang, Lin, arXiv 2510.04130 (abstract only: every check is a reconstruction)",
    "chen2023": "Chen, Wong, Chen, Tian, arXiv 2306.15595 (Position Interpolation; not among the four papers and not in "
                "shared/papers: its headline, as we read it, checked on petheory's retrieval reconstruction)",
    "peng2023": "Peng, Quesnelle, Fan, Shippole, arXiv 2309.00071 (YaRN; not among the four papers and not in shared/papers: "
                "its reported comparison, checked on petheory's retrieval reconstruction)",
    # ---- outside sources: the long-context RoPE theory (issue 31; ../shared/papers/outside.md, checked against the
    # abstracts, arXiv HTML openings and public summaries; the papers' full texts were not read)
    "men2024": "Men et al., arXiv 2405.14591v1 (Base of RoPE Bounds Context Length; outside source, full text read as "
               "extracted in github commotum/4D @ c31dc4bb)",
    "liu2023": "Liu et al., arXiv 2310.05209 (Scaling Laws of RoPE-based Extrapolation; outside source, abstract and "
               "summaries only: the full text was not reached)",
    "su2021": "Su et al., arXiv 2104.09864v5 (RoFormer §3.4.3; outside source, full text read as extracted in github "
              "commotum/4D @ c31dc4bb)",
    "barbero2024": "Barbero et al., arXiv 2410.06205 (Round and Round We Go!; outside source, abstract and a public "
                   "structured summary that states its propositions; the full text was not reached)",
    "wu2025": "Wu et al., arXiv 2502.01951 (On the Emergence of Position Bias in Transformers; outside source, abstract "
              "and a public structured summary that states Theorems 4.1-4.7; the full text was not reached)",
    "kazemnejad2023": "Kazemnejad et al., arXiv 2305.19466 (NoPE and length generalisation; outside source, abstract "
                      "and a public structured summary that outlines Theorems 1-2; the full text was not reached)",
    "nakanishi2025": "Nakanishi, arXiv 2501.19399 (Scalable-Softmax; outside source, the length-dependent temperature "
                     "statement behind YaRN, LongRoPE and Llama 4's factors)",
}
STATEMENTS: dict[str, tuple[Statement, ...]] = {
    "gu2025": (
        S("§3.1, Eq. 4", "RoPE scores depend on the relative position only", ("gu2025.rope_relative",)),
        S("Assumption 3.1", "each representation decomposes as content + position, x_i = c_i + p_i",
          ("gu2025.representation_decomposition",)),
        S("Eq. 8", "the additive attention logit is a sum of four Gram terms and a bias", ("gu2025.logit_decomposition",)),
        S("Assumption 3.2", "the position-position score matrix is Toeplitz", ("gu2025.gpp_toeplitz",)),
        S("Remark 3.1", "normalisation does not change the Toeplitz property", ("gu2025.normalisation_keeps_toeplitz",)),
        S("Remark 3.2", "every sine-cosine absolute PE satisfies Assumption 3.2", ("gu2025.sinusoidal_scores_toeplitz",)),
        S("Theorem 3.1", "Szegő: eigenvalues of T_N(a) fill [min a, max a]",
          ("gu2025.szego", "gu2025.classical_toeplitz_eigs_in_symbol_range")),
        S("§3.3 (additive coupling)", "adding Toeplitz matrices moves eigenvalues by at most the added norm",
          ("gu2025.classical_weyl_additive",)),
        S("Eq. 9, Prop. B.1", "the RoPE logit is the Gram sum Hadamard a unit-modulus Toeplitz G_e",
          ("gu2025.rope_logit_form",)),
        S("Prop. B.2", "RoPE's logit has a larger solution space than relative encoding's (expressiveness)",
          ("gu2025.logit_expressiveness",)),
        S("Lemma B.1 (bound)", "max |f| <= max |g| = 2 sum w_i", ("gu2025.lemma_b1_amplitude",)),
        S("Lemma B.1 (equality)", "equality iff all phase offsets coincide", ("gu2025.lemma_b1_equality",)),
        S("Lemma B.1 (range)", "the peak-to-peak range of g is never below that of f", ("gu2025.lemma_b1_range",)),
        S("App. B (Schur)", "eigenvalue moduli of W o E are at most those of W",
          ("gu2025.schur_modulus", "gu2025.classical_schur_product")),
        S("Prop. B.3", "multiplicative coupling contracts the spectrum relative to additive",
          ("gu2025.spectral_contraction",)),
        S("§4.2, Fig. 2", "Task 1: RoPE best, absolute second, ALiBi poor, NoPE/relative fail",
          ("gu2025.rope_beats_additive_task1",)),
        S("§4.2, Fig. 3", "Task 2: positional biases degrade generalisation, relative matches NoPE, ALiBi worst",
          ("gu2025.task2_positional_bias_hurts",)),
        S("§4.2, Fig. 2 (Random)", "Task 1: Random matches Absolute on training accuracy but overfits (lower test "
          "accuracy)", ("gu2025.random_pe_overfits",)),
        S("§4.2, Fig. 3 (Random)", "Task 2: Random fits content counts but has the largest train-test gap",
          ("gu2025.random_pe_overfits",)),
        S("§4.2, Fig. 2", "Absolute ranks second because its first-layer bias can be adjusted in deeper layers; ALiBi's "
          "fixed bias impedes adaptation; NoPE and Relative lack a mechanism to bind content and position",
          why_not="explanations of the ranking, not results: the ranking itself is gu2025.rope_beats_additive_task1"),
        S("§5.1, Fig. 4", "RoPE deposits Task 1 position in one shallow head", ("gu2025.single_head_deposit",)),
        S("§1 (contributions), App. C Fig. 8", "Absolute, Relative and ALiBi show diffuse or negligible head "
          "specialisation in both tasks; Absolute has some significant shallow heads and 'oscillates'",
          why_not="Fig. 8 is a violin plot described qualitatively ('scattered', 'oscillating'): no measure to test; "
          "the NoPE/ALiBi/Relative part on Task 1 is in gu2025.single_head_deposit"),
        S("§5.1, Fig. 5", "RoPE on a handful of heads: Task 1 remains below-near-optimal, Task 2 is shocked",
          ("gu2025.partial_rope",)),
        S("§5.2, Fig. 6", "RoPE plus an absolute PE: no deposit in the first layer, back from the second",
          ("gu2025.rope_abs_deposit",)),
        S("§5.2, Eqs. 11-12", "the MLA logit: concatenated content and RoPE parts, (G...) o (alpha G_e + I)",
          ("gu2025.mla_logit_form",)),
        S("§5.2, Fig. 7", "MLA's head-wise ablation shows an average deposit", ("gu2025.mla_headwise_ablation",)),
        S("Table 1", "test accuracy of MLA, RoPE and NoPE on Tasks 1/2", ("gu2025.table1",)),
        S("Remark C.1", "dropout (used in every run) does not remove the deposit", ("gu2025.dropout_keeps_deposit",)),
        S("Definition 3.1", "Toeplitz matrix", why_not="a definition, not a statement: used by the claims above"),
        S("App. C.4", "the absolute position embedding is not orthogonal to the word embedding, so no subspace "
          "decomposition separates content and position", ("gu2025.representation_decomposition",)),
        S("§6 (length generalisation)", "an early single-head deposit hinders length robustness",
          why_not="stated as a hypothesis for future work, with no experiment in the paper"),
    ),
    "li2025": (
        S("Table 2, sinusoidal", "||PE_sin(pos)|| <= sqrt(d_model)", ("li2025.sinusoidal_norm_bound",)),
        S("Table 2, Mechanism 3, Design tradeoffs", "input norm bound B_0 per PE (sinusoidal and learned from Table 2; "
          "ALiBi alpha(N'-1); Legendre bounded), a conjunction", ("li2025.input_norm_bounds",)),
        S("§4.2", "R_m(F) = O(L_trans B_0 / sqrt m) up to log factors", ("li2025.rademacher_bound",)),
        S("§5.3, Eq. 9", "ALiBi: |A(mu,-alpha d) - A(mu,-alpha N_max)| <= L_A alpha (d - N_max)",
          ("li2025.alibi_extrapolation",)),
        S("§5.3", "ALiBi's bias stays monotone in distance at any length", ("li2025.alibi_monotone_bias",)),
        S("§6.1.4", "wavelet atom decay bound", ("li2025.wavelet_atom_decay",)),
        S("§6.1.4", "||PE_wav(pos) - PE_wav(N_max)|| = O(exp(-beta (pos - N_max)))", ("li2025.wavelet_extrapolation",)),
        S("Failure signatures", "unnormalised wavelet norm inflation O(N_max sqrt(log N_max))",
          ("li2025.wavelet_unnormalised_norm",)),
        S("§6", "Legendre PE is bounded and saturates", ("li2025.legendre_bounded",)),
        S("§6", "learned PE has zero extrapolation beyond N_max", ("li2025.learned_no_extrapolation",)),
        S("Failure signatures", "ALiBi with large alpha on very long sequences: attention collapses to purely local",
          ("li2025.alibi_large_slope_local",)),
        S("Failure signatures", "sinusoidal on long sequences: positional ambiguity makes attention patterns repeat",
          ("li2025.sinusoidal_periodic_ambiguity",)),
        S("Failure signatures", "unnormalised wavelet: the norm inflation destabilizes training",
          why_not="no training run of an unnormalised wavelet PE is described; the norm growth is "
          "li2025.wavelet_unnormalised_norm"),
        S("Mechanism 2, break condition", "for very large pos - N_max all wavelet positions converge toward similar "
          "encodings", ("li2025.wavelet_extrapolation",)),
        S("Mechanism 3", "learned PEs require regularization to control B_p",
          why_not="advice, not a result (B_p has no value to check)"),
        S("Design tradeoffs", "ALiBi: strong extrapolation but alpha must be tuned; weak absolute position encoding",
          why_not="qualitative trade-offs with no measure in the summary; the extrapolation bound is "
          "li2025.alibi_extrapolation"),
        S("§6", "sinusoidal PE is periodically ambiguous beyond ~10000 positions",
          ("li2025.sinusoidal_periodic_ambiguity",)),
        S("Key results", "universal approximation at fixed N does not give extrapolation",
          ("li2025.ua_no_extrapolation",)),
        S("§7, Table 5", "running sum: wavelet has the lowest extrapolation MSE", ("li2025.table5_running_sum",)),
        S("§4 (universal approximation)", "Transformers with these PEs approximate any sequence function at fixed N",
          why_not="only named in the summary (no statement of the class, norm or rate to check)"),
    ),
    "cirrincione2026": (
        S("Theorem 1 (Necessity)", "without a positional signal, no order-sensitive task is solvable",
          ("cirrincione2026.necessity",)),
        S("Positional Separation Theorem", "distinct positions get distinct representations at every global minimiser",
          ("cirrincione2026.positional_separation",)),
        S("Prop. 5/6, Algorithm 1", "classical MDS on Hellinger distances is the best achievable encoding",
          ("cirrincione2026.hellinger_mds_optimal",)),
        S("§4 (commentary)", "exact reproduction of the distances is impossible in general",
          ("cirrincione2026.exact_reproduction_impossible",)),
        S("Minimal parametrisation", "effective rank r = rank(B) <= n - 1", ("cirrincione2026.rank_bound",)),
        S("Minimal parametrisation", "representable with r(n + d) parameters instead of nd",
          ("cirrincione2026.minimal_parametrisation",)),
        S("Experiments", "on SST-2/IMDB (BERT-base) ALiBi has much lower stress than sinusoidal and RoPE",
          ("cirrincione2026.alibi_lowest_stress",)),
        S("Experiments", "consistent with a rank-1 MDS encoding under approximate shift-equivariance",
          ("cirrincione2026.alibi_rank1",)),
        S("Appendix A", "Monotonicity Conjecture, proved in the NTK regime (five lemmas)",
          ("cirrincione2026.monotonicity_ntk",)),
        S("Abstract", "the quality of any encoding is measured by a single number, the stress",
          why_not="a definition (the stress is computed by petheory.geometry and used by the claims above)"),
        S("Abstract", "experiments on SST-2 and IMDB with BERT-base confirm the theoretical predictions",
          why_not="which predictions and by what measure is not said; the two experimental statements the abstract "
          "names are checked above"),
    ),
    "chen2025": (
        S("Abstract", "in POLAs, PEs do not expand computational capability", ("chen2025.pe_no_new_capability",)),
        S("Abstract", "PEs ... structure learned computations across positions",
          why_not="the second half of the capability sentence names no measure of 'structure'; the first half is "
          "chen2025.pe_no_new_capability"),
        S("Abstract", "LRC characterises when PEs enable length generalisation", ("chen2025.lrc_characterises_lg",)),
        S("Abstract (conjecture)", "length generalisation iff SRC is invariant across scales; 'we support this "
          "hypothesis with empirical evidence in various reasoning tasks'", ("chen2025.src_invariance",)),
        S("Abstract", "Scale Hint improves length generalisation", ("chen2025.scale_hint",)),
        S("Abstract", "a learning-based PE framework improves length generalisation", ("chen2025.learned_relation_pe",)),
        S("Figure caption", "on Parity with chain of thought, relative-style PEs align positions across steps; absolute "
          "PE does not", why_not="known from a caption only: the chain-of-thought task and the alignment measure are "
          "not given"),
    ),
    "chen2023": (
        S("§2-3 (interpolation vs extrapolation)", "a RoPE model whose rotary angles all stay within the range seen in "
          "training keeps its accuracy at the longer context", ("chen2023.in_range_keeps_retrieval",)),
    ),
    "peng2023": (
        S("§4.3.1, Table 1", "at equal fine-tuning, YaRN extends further past the fine-tuned context than PI and "
          "NTK-aware scaling", ("peng2023.yarn_extends_further",)),
    ),
    # ---- outside sources: the long-context RoPE theory (issue 31)
    "men2024": (
        S("§4.2, Theorem 1 (Eq. 9)", "similar-token gap E[q^T R_m k*] - E[q^T R_m k] = 2 sigma^2 B_m",
          ("men2024.similar_token_gap",)),
        S("§4.3, Eqs. 10-11, Fig. 1", "base_L = inf{base | B_m >= 0 for all m in [0, L]}: an absolute lower bound of "
          "the base for context L", ("men2024.base_bounds_context",)),
        S("§4.3, Table 2", "the lower bounds for 1k to 1M (4.3e3 ... 5.1e8)", ("men2024.table2_lower_bounds",)),
        S("§4.1, Eq. 7, Fig. 4", "the long-term decay of the attention score's upper bound (RoFormer's bound)",
          ("su2021.long_term_decay",)),
        S("§5, Figs. 4-6", "a base below the bound gives superficial long context (low perplexity, failed retrieval)",
          why_not="empirical on 7B models fine-tuned per base; no records here"),
    ),
    "liu2023": (
        S("§3.3, Eq. 8 (as summarised)", "critical dimension d_extra = 2 ceil(d/2 log_b(T_train / 2 pi))",
          ("liu2023.critical_dimension",)),
        S("Theorem 2 (as summarised)", "tuned with a larger base beta, extrapolation up to T_extra = 2 pi "
          "beta^(d_extra/d)", ("liu2023.extrapolation_bound",)),
        S("Theorem 1", "tuned with a smaller base, extrapolation without a bound", ("liu2023.smaller_base_extrapolation",)),
    ),
    "su2021": (
        S("§3.4.3, Eqs. 35-37", "Abel summation bound of the RoPE inner product", ("su2021.abel_bound",)),
        S("§3.4.3, Fig. 2", "the relative upper bound decays with the relative distance",
          ("su2021.long_term_decay", "su2021.long_term_decay__corrected")),
    ),
    "barbero2024": (
        S("Prop. 3.1", "k = R^r q maximises the activation at any offset r", ("barbero2024.max_at_any_offset",)),
        S("Prop. 3.2", "E[q^T R^r k] = 0 for Gaussian q, k: no decay in expectation", ("barbero2024.no_decay_isotropic",)),
        S("§4-5, Figs. 3-6", "Gemma 7B uses low frequencies as semantic channels, high ones for positional heads",
          ("barbero2024.low_frequencies_semantic",)),
        S("Prop. 5.2", "NoPE cannot learn diagonal attention: alpha_33 < 1/2 on [bos, x, x]",
          ("barbero2024.nope_cannot_sharpen",)),
        S("Thm 5.3", "RoPE can build diagonal and previous-token heads (q = k = psi, norm to infinity)",
          why_not="the construction's limit is Prop 3.1's key choice at offsets 0 and 1 (barbero2024.max_at_any_offset); "
          "not registered separately"),
        S("Thm 6.1", "a single-frequency channel cannot keep alpha > 1 - eps over long enough sequences",
          ("barbero2024.single_frequency_channel",)),
        S("§6.1, Table 2", "0.75-RoPE gives the best validation perplexity on Gemma 2B",
          why_not="empirical at Gemma 2B scale (8k context, 10k steps); no records here"),
    ),
    "wu2025": (
        S("Theorem 4.1", "causal mask: P^(t)(z_i = j) <= C (1 - (j-1) eps)^t, context converges to the first token",
          ("wu2025.causal_mask_first_token",)),
        S("Theorem 4.2", "sliding window w: the same convergence at rate (1 - (j-1) eps^h)^(t/2h), h = ceil((N-1)/(w-1))",
          ("wu2025.sliding_window_first_token",)),
        S("Theorem 4.3", "prefix mask: context converges to the K prefix tokens",
          why_not="its lower bound kappa is not given in the summary we reached"),
        S("Theorem 4.5", "decay mask: P^(t) = Theta(C(t+x, x) e^{-xm}), critical point x* = t/(e^m - 1)",
          ("wu2025.decay_mask_peak",)),
        S("Lemma 4.6, Theorem 4.7", "RoPE gives a Gaussian-like decay exp(-c (i-j)^2 theta_1^2)",
          why_not="constants c, c' and the angle condition on queries and keys were not recovered"),
    ),
    "kazemnejad2023": (
        S("Theorem 1", "the first causal NoPE layer can recover absolute position", ("kazemnejad2023.nope_absolute_position",)),
        S("Theorem 2", "subsequent layers can implement relative PE: <q_t, k_i> = f_cnt + f_rel(t - i)",
          ("kazemnejad2023.nope_relative_position",)),
    ),
    "nakanishi2025": (
        S("§2, Eq. 2", "softmax attention fades as n grows; SSMax (logits x s ln n) keeps a target iff s Delta >= 1",
          ("nakanishi2025.ssmax_prevents_fading",)),
    ),
}


def statement_rows(papers: dict | None = None) -> list[tuple[str, Statement]]:
    papers = STATEMENTS if papers is None else papers
    return [(p, s) for p in PAPERS for s in papers.get(p, ())]


def render(records: dict | None = None) -> str:
    """The Markdown block. ``records``: {claim id: check record} to show each claim's verdict (optional; the
    committed block names the claims only, so it does not change with a verdict)."""
    lines = []
    for paper, text in PAPERS.items():
        rows = STATEMENTS[paper]
        checked = sum(bool(s.claims) for s in rows)
        lines += [f"**{paper}** — {text}: {checked} of {len(rows)} statements checked.", "",
                  "| where | statement | checked by |", "|---|---|---|"]
        for s in rows:
            if s.claims:
                cell = ", ".join(f"`{c}`" + (f" ({records[c]['verdict']})" if records and c in records else "")
                                 for c in s.claims)
            else:
                cell = f"not checked: {s.why_not}"
            lines.append(f"| {s.where} | {s.what} | {cell} |")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def problems() -> list[str]:
    """What makes the list disagree with the catalogue (empty when it agrees)."""
    from proofs_check.engine import all_claims
    from proofs_check.verdict_table import builtin_papers

    ids = {c.id for c in all_claims() if c.id.split(".")[0] in builtin_papers()}
    named = [c for _, s in statement_rows() for c in s.claims]
    out = [f"coverage names {c}, which is not a registered claim" for c in named if c not in ids]
    out += [f"claim {c} is not named by any statement in proofs_check.coverage.STATEMENTS"
            for c in sorted(ids) if "__corrected" not in c and c not in named]
    out += [f"{p} {s.where}: neither claims nor a reason" for p, s in statement_rows() if not s.claims and not s.why_not]
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m proofs_check.coverage", description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite the coverage block of docs/coverage.md")
    g.add_argument("--check", action="store_true", help="exit 1 when docs/coverage.md's block is stale")
    p.add_argument("--readme", default=str(COVERAGE), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    bad = problems()
    if bad:
        print("coverage list disagrees with the catalogue: " + "; ".join(bad))
        return 1
    return update_readme(Path(args.readme), render(), write=args.write, check=args.check, what="coverage section",
                         command="python -m proofs_check.coverage --write", begin=BEGIN, end=END)


if __name__ == "__main__":
    sys.exit(main())
