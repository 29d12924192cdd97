"""The sentence list of each paper: data only, read by :mod:`proofs_check.coverage`.

Per paper, each result, definition used as a claim and captioned result (as far as the text we have shows
them: ``../shared/papers/``), with where it is, the sentence (in double quotes when quoted, else a close
paraphrase) and, when no claim checks it, why not. Claims are not listed here: they attach from their own
``source`` (:func:`proofs_check.coverage.attach`), except where a row places ``claims=`` by hand.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Statement:
    """One sentence of a paper: where it is (as the claims' sources name it), what it says (quoted in double
    quotes, else paraphrased), and why no claim checks it (when none does). ``claims``: the hand-placed claims
    (``None``: derived from the claims' sources).

    Attributes
    ----------
    where : str
        Where the sentence is (section, equation, table), as the claims' sources name it.
    what : str
        The sentence: quoted in double quotes, else a close paraphrase; formulas as ``$...$``.
    claims : tuple of str or None
        Hand-placed claims (None: attached from the claims' sources).
    why_not : str
        Why no claim checks it (empty when one does).
    """

    where: str
    what: str
    claims: tuple | None = None
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
    # ---- outside sources: the long-context RoPE theory (issues 31, 42; ../shared/papers/outside.md and
    # outside-texts.md, the full texts where public repositories store them)
    "men2024": "Men et al., arXiv 2405.14591v1 (Base of RoPE Bounds Context Length; outside source, full text read as "
               "extracted in github commotum/4D @ c31dc4bb)",
    "liu2023": "Liu et al., arXiv 2310.05209 (Scaling Laws of RoPE-based Extrapolation; outside source, Lemma 1 and "
               "Theorem 3 from the authors' README (github OpenLMLab/scaling-rope @ 101b93b1, Chinese, with the paper's "
               "equation tags); Theorems 1-2 in no copy found)",
    "su2021": "Su et al., arXiv 2104.09864v5 (RoFormer §3.4.3; outside source, full text read as extracted in github "
              "commotum/4D @ c31dc4bb)",
    "barbero2024": "Barbero et al., arXiv 2410.06205v3 (Round and Round We Go!; outside source, full text: the arXiv v3 "
                   "PDF in github viktor-shcherb/msc_thesis @ b629b1db)",
    "wu2025": "Wu et al., arXiv 2502.01951v4 (On the Emergence of Position Bias in Transformers; outside source, full "
              "text: the arXiv v4 PDF in github viktor-shcherb/msc_thesis @ 2d548cc2)",
    "kazemnejad2023": "Kazemnejad et al., arXiv 2305.19466v2 (NoPE and length generalisation; outside source, full "
                      "text: the arXiv v2 PDF in github viktor-shcherb/msc_thesis @ 0a683d97)",
    "nakanishi2025": "Nakanishi, arXiv 2501.19399 (Scalable-Softmax; outside source, the length-dependent temperature "
                     "statement behind YaRN, LongRoPE and Llama 4's factors)",
    # ---- the 2025-26 results researchers cite (issue 42): abstracts, and the authors' code where it states the formula
    "lin2025": "Lin et al., arXiv 2503.02130 (Forgetting Transformer; abstract and the authors' code, github "
               "zhixuan-lin/forgetting-transformer @ 0c44f84b)",
    "tan2024": "Tan et al., arXiv 2410.17980 (stick-breaking attention; abstract and the authors' reference code, github "
               "shawntan/stickbreaking-attention @ ea69b8dd)",
    "huang2025": "Huang et al., arXiv 2510.23095 (MRoPE-I, Qwen Team; abstract and HTML v1 opening)",
    "wei2025": "Wei et al., arXiv 2502.05173 (VideoRoPE; abstract and HTML v3 opening)",
    # ---- petheory's own criteria (issue 53): no paper; tested as predictors on published extension results
    "petheory2026": "petheory plan's own criteria (the phase-range check), tested as predictors on the published "
                    "context-extension table (petheory/data/extension_evidence.json)",
    "yu2025": "Yu et al., arXiv 2506.03737 (ComRoPE, CVPR 2025; full text, as a Markdown transcription in a public "
              "repository, and the authors' README, github Longin-Yu/ComRoPE @ 7aeef083)",
    # ---- the 2026 theory of long contexts (issue 57)
    "an2024": "An et al., arXiv 2410.18745 (STRING, ICLR 2025; the text as transcribed section by section in github "
              "viktor-shcherb/msc_thesis @ a6577d10)",
    "du2026": "Du et al., arXiv 2605.15514 (RoPE distinguishes neither positions nor tokens in long contexts; the "
              "abstract only: the theorems' text was not found)",
    "wertheimer2026": "Wertheimer et al., arXiv 2603.18017 (Frayed RoPE, ICLR 2026; the abstract only: the text was not "
                      "found)",
    "liu2026": "Feilong Liu, arXiv 2602.10959 (RoPE as phase modulation; the abstract, and the bounds' formulas from a "
               "third-party summary: the paper's text was not found)",
}
STATEMENTS: dict[str, tuple[Statement, ...]] = {
    # Read sentence by sentence (issue 30): every result, every definition used as a claim, every caption that
    # states a result. A sentence that only restates one listed here (the abstract, §1, Fig. 1's caption) is
    # folded into that row's text; set-up, notation and motivation sentences are not listed.
    "gu2025": (
        S("§1 (within-length perception)", "\"a focus on length-generalization often implies that, within a fixed "
          "sequence length, all PE schemes perform similarly. However, to our knowledge, no prior work has "
          "systematically confirmed or challenged this perception\"",
          why_not="a claim about related work (what prior work did), not a result of the paper"),
        S("§2 (related work)", "statements about prior work: NoPE models learn positional distinctions (Haviv et al.; "
          "also §3.1's motivation of Assumption 3.1), RoPE's 'massive value' phenomena, Toeplitz spectral theory",
          why_not="claims about related work, cited, not results of the paper"),
        S("§3.1 (absolute and relative PE)", "\"$h_i = e_i + p_i$\", \"$\\alpha_{ij} \\propto \\exp((e_i+p_i)^T(e_j+p_j))$\"; relative: "
          "\"$\\alpha_{ij} \\propto \\exp(q_i^T k_j + b_{j-i})$\"",
          why_not="definitions of the PE families (petheory.encodings implements them; used by the claims below)"),
        S("§3.1 (residual connections)", "\"The residual connections throughout the Transformer layers ensure that "
          "this form of position-content coupling persists at deeper levels.\"",
          why_not="'persists' names no measure; the decomposition after attention is a reading of "
          "gu2025.representation_decomposition (row Assumption 3.1)"),
        S("§3.1, Eq. 4", "\"$(R_i q_i)^T (R_j k_j) = q_i^T R_{j-i} k_j$\": RoPE scores depend on the relative position "
          "only (restated in §1 and §3.2)"),
        S("Assumption 3.1", "\"Each token representation at position i can be decomposed into a position-independent "
          "content component and a position-dependent component such that $x_i = c_i + p_i$.\""),
        S("Definition 3.1", "Toeplitz matrix, $T = [a_{i-j}]$",
          why_not="a definition, not a statement: used by the claims above and below"),
        S("Assumption 3.2", "\"The attention score matrix induced solely by the position-dependent components exhibits "
          "a Toeplitz structure\"; §3.2: \"the term $G_{q^p,k^p}$ forms a Toeplitz matrix ... Similarly, B is Toeplitz\""),
        S("Remark 3.1", "\"The equal sign is used here because the normalization operation does not change the Toeplitz "
          "property of the matrix.\""),
        S("Remark 3.2", "\"It can be verified that all forms of sine-cosine position embedding of absolute position "
          "encoding satisfy this assumption\""),
        S("Remark 3.2 (relative PE)", "\"and the actual effect of relative position encoding is also presented in the "
          "form of a Toeplitz matrix\""),
        S("Eq. 8", "\"$L_{\\text{Non-RoPE}} = G_{q^c,k^c} + G_{q^c,k^p} + G_{q^p,k^c} + G_{q^p,k^p} + B$\" for additive PEs"),
        S("§3.2 (content terms)", "\"The remaining terms involving content ... are not Toeplitz due to their dependence "
          "on specific token content.\"",
          why_not="read universally it fails only for degenerate content (all tokens alike make $G_{q^c,k^c}$ constant, "
          "hence Toeplitz), a strawman; read as 'in general' it holds for any random draw, so no check of it could "
          "fail"),
        S("§3.2 (cross terms)", "\"for these to collectively capture content-relative position coupling, the model "
          "would need to learn mappings where the cross-term interactions depend solely on i - j yet are modulated "
          "by content. Such constrained mappings are difficult to realize in practice.\"",
          why_not="'difficult to realize in practice' names no measure; the solution-space comparison it motivates "
          "is Prop. B.2 (gu2025.logit_expressiveness)"),
        S("§3.2, Eq. 9", "\"$L_{\\text{RoPE}}^{\\text{complex}} = (G_{q,k} + G_{q,p} + G_{p,k} + G_p) \\circ G_e$\", \"$L_{\\text{RoPE}} = \\mathrm{Re}\\{\\dots\\}$\"; \"Since "
          "$G_e$ is Toeplitz by construction, the Hadamard product introduces relative-position dependence "
          "multiplicatively across all terms.\""),
        S("§3.3 (optimisation)", "\"Spectral contraction—manifested as a reduced eigenvalue range or lower condition "
          "number—is well known to accelerate and stabilize gradient-based learning\" (also App. B's opening: "
          "\"favorable spectral properties ... correlate with faster and more stable convergence\")",
          why_not="a cited principle (Boyd & Vandenberghe; Gray), true for gradient descent on a convex quadratic; "
          "the paper does not say which matrix's spectrum governs training attention, so there is no object to "
          "check it on. Its prediction for training is tested by the §4.2 and §5.1 claims"),
        S("Thm 3.1", "Szegő: \"the eigenvalues of $T_N(a)$ asymptotically fill the interval "
          "$[\\min a(e^{i\\theta}), \\max a(e^{i\\theta})]$ as $N \\to \\infty$\" (real, continuous symbol)"),
        S("§3.3", "\"In Non-RoPE methods, the Toeplitz components $G_{q^p,k^p}$ and B contribute additively to the logit, "
          "and their spectral ranges are determined by their respective coefficient sequences.\""),
        S("§4.1 (set-up)", "a 6-layer decoder, six PE configurations, Task 1 (trigger distance, 100,000 examples) and "
          "Task 2 (trigger counting, 50,000 examples), 7:3 splits; App. C.1 Tables 3-4: hyperparameters",
          why_not="the set-up, not a result; the empirical claims' records reproduce it at small scale (a "
          "scaled-down substitute, not the paper's setup)"),
        S("§4.2, Fig. 2", "Task 1: \"RoPE converges fastest and most stably, reaching high training and test accuracy "
          "with a minimal generalization gap\"; Absolute second; \"ALiBi performs poorly\"; \"Neither NoPE nor "
          "standard Relative generalizes\" (restated in the abstract and §1; §3.2's hypothesis that direct "
          "content-relative coupling performs better on such tasks)"),
        S("§4.2, Fig. 3", "Task 2: \"imposing positional biases generally degrades generalization\"; Absolute a mild "
          "penalty, RoPE even less (superior test accuracy); \"Relative ... matches NoPE's performance\"; \"ALiBi "
          "suffers most\""),
        S("§4.2, Figs. 2-3 (Random PE)", "Task 1: \"Random initialization matches Absolute on training accuracy but "
          "overfits—its non-Toeplitz bias limits generalization, yielding lower test performance\"; Task 2: \"its "
          "non-Toeplitz bias perfectly fits content counts but produces the largest train–test gap\""),
        S("§4.2 (Task 1 explanations)", "Absolute ranks second because \"its fixed first-layer bias can be adjusted "
          "dynamically in deeper layers\"; ALiBi's \"fixed, data-agnostic Toeplitz bias impedes adaptation\"; NoPE and "
          "Relative \"lack a mechanism to bind content and relative position\"",
          why_not="explanations of the ranking, not results: the ranking itself is gu2025.rope_beats_additive_task1"),
        S("§4.2 (Task 2 explanations)", "\"Relative encoding attenuates its learned bias toward zero and thus matches "
          "NoPE's performance\"; Absolute's bias \"can still be refined by later layers\"",
          why_not="'attenuates its learned bias toward zero' needs the trained relative-bias tables, which the "
          "committed records do not keep; the performance half is gu2025.task2_positional_bias_hurts"),
        S("§5.1, Fig. 4", "\"under RoPE, ablating a single shallow-layer head causes a pronounced accuracy loss\"; \"no "
          "pronounced deposit pattern appears under No-RoPE methods like NoPE or ALiBi\"; RoPE shows no deposit on "
          "Task 2 (§1; App. C.1: \"Task 2 did not have a position effect\"); predicted in §3.3"),
        S("§1 (contributions), App. C Fig. 8", "Absolute, Relative and ALiBi show diffuse or negligible head "
          "specialisation in both tasks; in Fig. 8 Relative and ALiBi are \"scattered\", Absolute \"has some "
          "significant heads and some insignificant heads in the shallow layer, and the whole is oscillating\"",
          why_not="Fig. 8 is a violin plot described qualitatively ('scattered', 'oscillating'): no measure to test; "
          "the NoPE/ALiBi/Relative part on Task 1 is in gu2025.single_head_deposit"),
        S("§5.1, Fig. 5", "\"even with only a handful of RoPE-enabled heads, Task 1 performance remains "
          "below-near-optimal, and Task 2 generalization is shocked\" (testing the hypothesis that \"only a subset of "
          "heads needs RoPE\")"),
        S("§5.2, Fig. 6", "RoPE plus an absolute PE: \"the deposit pattern no longer appears in the first layer\", "
          "\"starting from the second layer, the deposit pattern reappears\""),
        S("§5.2 (Fig. 6 interpretation)", "\"the deposit pattern is an inherent phenomenon of the coupling between rope "
          "capture content and relative position. It will not be completely eliminated by adding absolute position "
          "information to the input.\"",
          why_not="an interpretation of Fig. 6 (whose result is gu2025.rope_abs_deposit), not a further result"),
        S("§5.2, Eqs. 11-12", "MLA: \"each head independently processes the inner product of NoPE and RoPE once and "
          "sums them up, and the parameters of the two parts are independent\"; \"$L_{\\text{MLA}}^{\\text{complex}} = "
          "(G_{q,k} + G_{q,p} + G_{p,k} + G_p) \\circ (\\alpha G_e + I)$\""),
        S("§5.2, Fig. 7", "\"head-wise ablation under MLA (Figure 7) shows no single head is indispensable for Task 1\" "
          "(§1: a more distributed 'average deposit')"),
        S("Table 1", "test accuracy: MLA 88.34 / 97.41, RoPE 92.64 / 69.43, NoPE 3.51 / 77.69 (Task 1 / Task 2)"),
        S("§5.2 (length generalisation)", "\"We hypothesize that early single-head deposition hinders length "
          "robustness\"; controlled mixing \"could reconcile spectral stability with robust, length-agnostic "
          "encoding\"; §6: the connection \"remains theoretical and requires direct empirical validation\"",
          why_not="stated as a hypothesis for future work, with no experiment in the paper"),
        S("§6 (conclusion and limitations)", "\"these spectral signatures reliably predict learning dynamics and "
          "internal processing patterns\"; sequence reversal or Dyck recognition \"likely exceed a Transformer's "
          "positional reasoning capabilities\"",
          why_not="a summary of the results above (checked in their rows) and a speculation with no experiment"),
        S("App. B, Prop. B.1", "\"$L_{\\text{RoPE}}^{\\text{complex}} = (G_{q,k} + G_{q,p} + G_{p,k} + G_p) \\circ G_e$\" (the formal version of "
          "Eq. 9)"),
        S("proof of Prop. B.1, mean value step", "\"there are $t_1$ and $t_2$ that $(\\sum_t q_i^{(t)} k_j^{(t)}) e^{i(i-j)\\theta_{t_1}} "
          "\\le \\sum_t q_i^{(t)} k_j^{(t)} e^{i(i-j)\\theta_t} \\le (\\sum_t q_i^{(t)} k_j^{(t)}) e^{i(i-j)\\theta_{t_2}}$\"; \"Due to "
          "continuity and the mean value theorem, there exists $t_{i-j}$ that $\\sum_t q_i^{(t)} k_j^{(t)} e^{i(i-j)\\theta_t} = "
          "(\\sum_t q_i^{(t)} k_j^{(t)}) e^{i(i-j)\\theta_{t_{i-j}}}$\" (the inequalities compare complex numbers; the equality is checked)"),
        S("App. B, Prop. B.2", "\"It is easy to verify that the solution space of RoPE is much larger than that of "
          "Relative Position Encoding\" for Task 1's constraints (§1 and §3.2: \"a more expressive and learnable "
          "coupling mechanism\")"),
        S("App. B, Prop. B.2 (two aspects)", "\"RoPE can make the key-value pairs with a fixed distance meet the "
          "requirements as long as the angle distribution meets the requirements\"; \"RoPE actually only needs a "
          "significant angle\", the cause of 'Massive Value' [22]",
          why_not="the arguments offered for Prop. B.2 (checked as gu2025.logit_expressiveness); 'Massive Value' is "
          "a claim about related work (Jin et al. 2025)"),
        S("App. B, Prop. B.3", "\"Let W, E be N×N positive definite Toeplitz matrices. Then the eigenvalue spectrum of "
          "the Hadamard product $W \\circ E$ is more compact than W\" (§3.3: the multiplicative interaction \"contracts the "
          "eigenvalue range relative to additive compositions\"; abstract and §1: RoPE \"induces spectral "
          "contraction\")"),
        S("App. B (proof of Prop. B.3)", "\"We can directly use Schur's inequality to prove that the membrane length of "
          "the eigenvalue of $W \\circ E$ must be less than or equal to the membrane length of the eigenvalue of W\""),
        S("App. B (symbols)", "\"$\\mathrm{Symble}(W \\circ E)(\\theta) = \\sum_{i=-N+1}^{N-1} w_i e^{i(i\\theta_i+i\\theta)} = "
          "\\sum_{i=0}^{N-1} 2\\mathrm{Re}\\{w_i\\} \\cos(i\\theta_i+i\\theta)$\" and the same for W without $\\theta_i$",
          why_not="a step of the proof, not checked as a claim: as written its $i = 0$ term counts $w_0$ twice (at $N = 1$, "
          "$W = [w_0]$, $E = [1]$, the right side is $2w_0$ for the symbol $w_0$: a constant shift, harmless to the "
          "range argument) and $2\\mathrm{Re}\\{w_i\\}$ drops the phase of a complex $w_i$; the range comparison it feeds is Lemma B.1's "
          "consequence (gu2025.lemma_b1_range), the proposition gu2025.spectral_contraction"),
        S("Lemma B.1 (amplitude bound)", "\"$\\max_\\theta \\lvert f(\\theta)\\rvert \\le \\max_\\theta \\lvert g(\\theta)\\rvert = 2 \\sum w_i$\" for non-negative weights"),
        S("Lemma B.1 (equality case)", "\"Equality holds iff all phase offsets coincide modulo 2π\""),
        S("Lemma B.1 (consequence)", "\"Consequently the peak-to-peak range of g (width $4 \\sum_i w_i$) never falls below "
          "that of f and both ranges coincide only under complete phase alignment.\""),
        S("Remark C.1", "\"all our experiments used dropout, so the deposit pattern is not a phenomenon that can be "
          "improved by ordinary dropout\" (App. D relies on it)"),
        S("App. C.2 (related work)", "\"The similarities among NoPE, Relative PE, and ALiBi are consistent with previous "
          "studies on how NoPE obtains position information through causal masks\"",
          why_not="a claim about related work"),
        S("App. C.3 (MLA's cost)", "\"MLA can fully alleviate the deposit pattern at the expense of a little "
          "generalization ability\"",
          why_not="'a little' names no size; the numbers it rests on are Table 1's (gu2025.table1) and the deposit "
          "half is gu2025.mla_headwise_ablation"),
        S("App. C.3 (partial RoPE layers)", "\"the most significant deposit pattern is not necessarily in the first "
          "layer, but may be in the second or third layer. In some cases, the first layer does not even have a "
          "deposit pattern.\"",
          why_not="read off Figs. 9-14, whose (k, l) labels are lost in the text we have; needs the paper's "
          "per-configuration ablation curves"),
        S("App. C.4", "\"the position embedding of absolute position encoding is not orthogonal to word embedding. "
          "Therefore, there is no subspace decomposition that can completely separate the two components.\"",
          why_not="a statement about the paper's trained embeddings, which we do not have; the additive "
          "decomposition it qualifies is Assumption 3.1 (gu2025.representation_decomposition)"),
        S("App. D", "\"the lower the coupling between location and content, the better the scalability\"; \"only some "
          "frequency bands are fully trained during training\"",
          why_not="a 'qualitative statement' (the paper's words) of the length-generalisation hypothesis, with no "
          "experiment; its premise that dropout keeps the deposit is Remark C.1 (gu2025.dropout_keeps_deposit)"),
    ),
    "li2025": (
        S("Table 2", "\"[Table 2]: Compares norm bounds across encoding schemes—sinusoidal $B_x+\\sqrt{d_{\\text{model}}}$ vs learned "
          "$B_x+B_p$\" (Mechanism 3: \"Sinusoidal PEs have bounded norm ($\\sqrt{d_{\\text{model}}}$)\")"),
        S("§4.2", "\"$R_m(F^{L,H}_{\\text{sinusoidal}})$ scales as $O(L_{\\text{trans}} \\cdot B_0/\\sqrt{m})$ up to logarithmic "
          "factors\", with \"$\\lVert W\\rVert_2 \\le C_W$\" (the executive summary: Rademacher bounds \"showing how PE choices control model capacity\")"),
        S("Mechanism 3 (learned PEs)", "\"learned PEs require regularization to control $B_p$\"",
          why_not="advice, not a result ($B_p$ has no value to check)"),
        S("Mechanism 3 'Break condition'", "\"If learned PE norms ($B_p$) grow unchecked, or if ALiBi's α(N'-1) becomes "
          "large for very long inference sequences, capacity inflation degrades generalization\" (checked: the bound on "
          "the bias, α(N'-1); 'degrades generalization' names no measure)"),
        S("§4 (universal approximation)", "the paper \"proves universal approximation theorems for various encoding "
          "schemes\"",
          why_not="only named in the summary (no statement of the class, norm or rate to check)"),
        S("'Key results' (universal approximation)", "\"Universal approximation for fixed N does not guarantee "
          "extrapolation to longer sequences\""),
        S("§5.3, Eq. 9", "\"$\\lvert A(\\mu,-\\alpha d) - A(\\mu,-\\alpha N_{\\max})\\rvert \\le L_A \\cdot \\alpha(d-N_{\\max})$\", assuming A Lipschitz in its bias (Key results: "
          "\"ALiBi's extrapolation capability comes with a linear error growth bound\"; Mechanism 1's break "
          "condition: \"Extrapolation error grows linearly with (d-Nmax)\")"),
        S("§5.3", "\"Because b(i,j) remains monotonic in distance, the model's learned attention function at train "
          "time can be extended to test time by continuity.\" (Mechanism 1: the bias \"remains well-defined and "
          "monotonic for any token distance\")"),
        S("Mechanism 1 (soft locality)", "\"The bias dominates query-key dot products for large distances, creating a "
          "'soft locality' prior that scales with token distance regardless of training data.\""),
        S("Mechanism 1 'Break condition'", "\"For extremely long sequences where d >> Nmax, attention weights degrade "
          "unless α is reduced.\"",
          why_not="'degrade' names no measure; the linear growth is Eq. 9 (li2025.alibi_extrapolation)"),
        S("§6.1.4", "\"$\\lvert\\psi_{j,k}(pos)\\rvert \\le C \\cdot 2^{-j/2} \\cdot \\exp(-\\beta\\lvert pos-k \\cdot 2^{-j}\\rvert/2^{-j})$ for $j \\le j_{\\max}$\" (Mechanism 2's core "
          "assumption: compact support and exponential decay)"),
        S("Mechanism 2", "\"For pos > Nmax, fine-scale (high-frequency) terms vanish exponentially, while coarse-scale "
          "terms contribute small but nonzero values. The encoding difference ||PE_wavelet(pos) - "
          "PE_wavelet(Nmax)||_2 decays as O(exp(-β(pos-Nmax))).\"; break condition: \"all positions may converge "
          "toward similar encodings\""),
        S("§7, Table 5", "\"Wavelet-based positional encodings achieve the lowest extrapolation error (MSE 0.0108 at "
          "N=200) among tested schemes\" (Key results; Mechanism 2: \"vs sinusoidal 0.0423\"), on the running-sum "
          "task of the method summary"),
        S("'Key results' (learned)", "\"Learned positional encodings provide zero extrapolation capability beyond "
          "training length\""),
        S("'Design tradeoffs' (sinusoidal)", "\"Sinusoidal: Simple, bounded norm, but periodic ambiguity beyond ~10000 "
          "positions\""),
        S("'Design tradeoffs' (learned)", "\"Learned: Most expressive within training range, zero extrapolation "
          "capability\" (checked: the zero extrapolation; 'most expressive' names no measure)"),
        S("'Design tradeoffs' (ALiBi)", "\"ALiBi: Strong extrapolation, but α must be tuned; weak absolute position "
          "encoding\"",
          why_not="qualitative trade-offs with no measure in the summary; the extrapolation bound is "
          "li2025.alibi_extrapolation"),
        S("'Design tradeoffs' (wavelet)", "\"Wavelet (proposed): Strong extrapolation with exponential decay, requires "
          "normalization to control norm bounds\"",
          why_not="restates Mechanism 2 (li2025.wavelet_extrapolation) and the unnormalized-wavelet failure "
          "signature (li2025.wavelet_unnormalised_norm); no further statement"),
        S("'Design tradeoffs' (Legendre)", "\"Legendre (proposed): Bounded norm, but saturates to constant vector for "
          "very large positions\""),
        S("'Failure signatures' (sinusoidal)", "\"Sinusoidal on long sequences: Positional ambiguity causes attention "
          "patterns to repeat incorrectly\""),
        S("'Failure signatures' (learned)", "\"Learned beyond Nmax: No embedding exists—reusing $p_{N_{\\max}}$ causes all "
          "positions to collapse\""),
        S("'Failure signatures' (ALiBi with large α)", "\"ALiBi with large α on very long sequences: Attention "
          "collapses to purely local, ignoring useful long-range dependencies\""),
        S("'Failure signatures' (unnormalized wavelet)", "\"Unnormalized wavelet: Input norm inflation ($O(N_{\\max} \\cdot \\sqrt{\\log N_{\\max}})$)\""),
        S("'Failure signatures' (unnormalized wavelet, training)", "\"... destabilizes training\"",
          why_not="no training run of an unnormalised wavelet PE is described; the norm growth is "
          "li2025.wavelet_unnormalised_norm"),
        S("'Open Question 3'", "\"a fixed small α weakens locality on short sequences while a large α harms stability "
          "on long ones\"",
          why_not="the motivation of an open question; 'harms stability' names no measure (the large-α locality "
          "collapse is li2025.alibi_large_slope_local)"),
        S("the summary's own sections", "'Foundational Learning', 'First 3 experiments', 'Open Questions', "
          "'Limitations', 'Confidence', 'Next Checks', and the [corpus] evidence anchors",
          why_not="the summariser's assessment, questions and suggestions, not statements of the paper"),
    ),
    "cirrincione2026": (
        S("Theorem 1 (Necessity)", "\"any Transformer without a positional signal cannot solve any task sensitive to "
          "word order\" (sentence 1: \"the mathematical operations inside them are insensitive to the order in which "
          "words appear\")"),
        S("Positional Separation Theorem", "\"training assigns distinct vector representations to distinct sequence "
          "positions at every global minimiser, under mild and verifiable conditions\""),
        S("Prop. 5/6, Algorithm 1", "\"the best achievable approximation to an information-optimal encoding is "
          "constructed via classical multidimensional scaling (MDS) on the Hellinger distance between positional "
          "distributions\""),
        S("Abstract (stress)", "\"the quality of any encoding is measured by a single number, the stress\"",
          why_not="a definition (the stress is computed by petheory.geometry and used by the claims above)"),
        S("minimal parametrisation result", "\"the optimal encoding has effective rank r = rank(B) <= n-1 and can be "
          "represented with r(n+d) parameters instead of nd\""),
        S("commentary on the minimal parametrisation result", "an exact reproduction of the distances is impossible in "
          "general (CLAIMS.md's quote 'the relevant geometry is curved'; not in the text we have)"),
        S("Appendix A", "\"a proof of the Monotonicity Conjecture within the Neural Tangent Kernel (NTK) regime ... "
          "through five lemmas\" (the conjecture is named, not stated)"),
        S("experiments (SST-2, IMDB; BERT-base)", "\"Attention with Linear Biases (ALiBi) achieves much lower stress "
          "than the sinusoidal encoding and Rotary Position Embedding (RoPE)\""),
        S("experiments (ALiBi)", "\"consistent with a rank-1 interpretation of the MDS encoding under approximate "
          "shift-equivariance\""),
        S("Abstract (experiments)", "\"Experiments on SST-2 and IMDB with BERT-base confirm the theoretical "
          "predictions\"",
          why_not="which predictions and by what measure is not said; the two experimental statements the abstract "
          "names are checked above"),
        S("commentary (Key Points, Merits)", "\"showing ALiBi's lower stress and superior performance, attributed to "
          "its rank-1 MDS alignment\"",
          why_not="the commentary's paraphrase; 'superior performance' is not in the abstract and names no task or "
          "measure (the stress half is cirrincione2026.alibi_lowest_stress)"),
        S("commentary (Demerits, Expert Commentary, Recommendations)", "the commentator's assessment and "
          "recommendations",
          why_not="not statements of the paper"),
    ),
    "chen2025": (
        S("abstract, sentences 1-2", "\"Position Embeddings (PEs) significantly influence Length Generalization (LG) "
          "performance, yet their fundamental role remains unclear.\"",
          why_not="motivation (a statement about the field), not a result"),
        S("abstract, sentence 3", "\"We theoretically analyze PEs in Position-Only Linear Attentions (POLAs), "
          "introducing Linear Representation Complexity (LRC) to characterize when PEs enable LG.\""),
        S("abstract, sentence 4", "\"Our analysis shows that PEs do not expand computational capabilities\""),
        S("abstract, sentence 4 (second half)", "\"but structure learned computations across positions\"",
          why_not="names no measure of 'structure'; the first half is chen2025.pe_no_new_capability"),
        S("abstract, sentences 5-6", "\"we propose Sequential Representation Complexity (SRC) and conjecture that LG is "
          "possible if and only if SRC remains invariant across scales. We support this hypothesis with empirical "
          "evidence in various reasoning tasks.\""),
        S("abstract, sentence 7", "\"To enhance LG, we introduce Scale Hint, allowing flexible instance scaling, and a "
          "Learning-Based Position Embedding framework that automatically learns positional relations.\""),
        S("abstract, sentence 8", "\"Our work provides theoretical insights and practical strategies for improving LG "
          "in Transformers.\"",
          why_not="a summary of sentences 3-7"),
        S("Figure caption (CLAIMS.md)", "on Parity with chain of thought, relative-style PEs align positions across "
          "steps and scales; absolute PE does not",
          why_not="known from a caption that CLAIMS.md quotes and the text we have does not: the chain-of-thought "
          "task and the alignment measure are not given"),
        S("'Related papers'", "the aggregator's list of other papers' abstracts",
          why_not="not chen2025's statements"),
    ),
    "chen2023": (
        S("§2.3", "a RoPE model whose rotary angles all stay within the range seen in training keeps its accuracy at "
          "the longer context (paraphrase of the headline)"),
    ),
    "peng2023": (
        S("§4.3.1, Table 1", "at equal fine-tuning, YaRN extends further past the fine-tuned context than PI and "
          "NTK-aware scaling"),
    ),
    # ---- outside sources: the long-context RoPE theory (issue 31)
    "men2024": (
        S("Theorem 1 (Eq. 9)", "similar-token gap $E[q^T R_m k^*] - E[q^T R_m k] = 2 \\sigma^2 B_m$",
          ("men2024.similar_token_gap",)),
        S("§4.3 Eq. 10", "\"the context length $L_\\theta$ that can be truly obtained satisfies: $L_\\theta = \\sup\\{L \\mid B_m \\ge 0, "
          "\\text{ for all } m \\in [0, 1, \\dots, L]\\}$\""),
        S("§4.3 Eqs. 10-11", "$\\mathrm{base}_L = \\inf\\{\\mathrm{base} \\mid B_m \\ge 0 \\text{ for all } m \\in [0, L]\\}$: an absolute lower bound of "
          "the base for context L (necessity; the passing set is not closed upwards, a finding beside it)",
          ("men2024.base_bounds_context",)),
        S("Table 2", "the lower bounds for 1k to 1M (4.3e3 ... 5.1e8); 'we get the numerical solution'",
          ("men2024.table2_lower_bounds", "men2024.table2_long_contexts")),
        S("§4.3 (note)", "\"this boundary is not very strict because the stacking of layers in LLMs allows the model to "
          "extract information beyond the single layers' range\"",
          why_not="a caveat on the bound's tightness for deep models: it names no measure of how far layers extend it"),
        S("Fig. 1", "the fitted curve $y = 0.0424 x^{1.628}$ of the base against the context",
          why_not="known only from a third-party description of the figure image, not from the text"),
        S("§4.1, Eq. 7, Fig. 4", "the long-term decay of the attention score's upper bound (RoFormer's bound)",
          why_not="RoFormer's own statement, cited by Men et al.; checked under su2021 (su2021.long_term_decay and "
          "its __corrected)"),
        S("§5, Figs. 4-6", "a base below the bound gives superficial long context (low perplexity, failed retrieval)"),
        S("§4.3, the note after Eq. 11", '"Notwithstanding, in Section 5 we find that the derived bound approximates the '
          'real context length in practice."'),
    ),
    "liu2023": (
        S("Lemma 1, eqs. 12-13", "critical dimension $d_{\\text{extra}} = 2 \\lceil \\frac d2 \\log_{10000}(T_{\\text{train}} / 2\\pi)\\rceil$: the "
          "dimensions whose period fits in $T_{\\text{train}}$ (92 for Llama 2)", ("liu2023.critical_dimension",)),
        S("Theorem 3 (first part)", "tuned with base $\\beta > 1$ on $T_{\\text{tune}} \\ge T_{\\text{train}}$, extrapolation does not get worse; "
          "unchanged iff $\\beta = 10000$ and $T_{\\text{tune}} = T_{\\text{train}}$",
          why_not="a statement about trained models' extrapolation; no fine-tuning records here"),
        S("Theorem 3, eqs. 16a and 16c", "critical base beta_0; for beta <= beta_0 the critical dimension updates to "
          "$d'_{\\text{extra}} \\ge d_{\\text{extra}}$", ("liu2023.updated_critical_dimension",)),
        S("Theorem 3, eq. 16b", "for $\\beta > \\beta_0$ the extrapolation bound is $T_{\\text{extra}} = 2\\pi \\beta^{d_{\\text{extra}}/d}$",
          ("liu2023.extrapolation_bound", "liu2023.plan_check_predicts_small_extension")),
        S("Theorem 3, eq. 16d", "below $\\beta_1 = 2 T_{\\text{tune}} / \\pi$, $\\beta_2 = T_{\\text{tune}} / \\pi$, "
          "$\\beta_3 = T_{\\text{tune}} / 2\\pi$ extrapolation improves markedly",
          why_not="empirical ('improves markedly' on tuned Llama 2); no fine-tuning records here"),
        S("Theorem 1", "tuned with a smaller base, extrapolation without a bound", ("liu2023.smaller_base_extrapolation",)),
        S("Theorem 2", "scaling law of larger bases",
          why_not="its English text is in no copy found; the larger-base bound is Theorem 3's 16b "
          "(liu2023.extrapolation_bound)"),
    ),
    "su2021": (
        S("Eqs. (35)-(37)", "Abel summation bound of the RoPE inner product", ("su2021.abel_bound",)),
        S("Fig. 2", "the relative upper bound decays with the relative distance",
          ("su2021.long_term_decay", "su2021.long_term_decay__corrected")),
    ),
    "barbero2024": (
        S("Prop 3.1", "\"Given any query q and any relative distance r, we can find a key k such that the softmax value "
          "is largest at distance r with RoPE\""),
        S("Prop 3.2", "\"Let $q, k \\sim N(0, I)$. Then, for any relative distance r, $E[q^T R^r k] = 0$\""),
        S("Def 5.1", "a head can learn a diagonal (previous-token) pattern if alpha_ii > 1 - eps (alpha_{i,i-1} > 1 - eps) "
          "for all i <= N", why_not="a definition: used by the checks of Prop 5.2 and Thm 5.3"),
        S("Prop 5.2", "\"An attention head with NoPE cannot learn a diagonal or off-diagonal pattern\""),
        S("Thm 5.3", "\"An attention head with RoPE can learn a diagonal or off-diagonal pattern\""),
        S("Thm 6.1", "d = 2, one frequency: for large enough N the head cannot attend to a target token with "
          "alpha > 1 - eps at every position"),
        S("§6, the remark after Thm 6.1", "\"the observation that NoPE is instead able to build this type of attention "
          "pattern is immediate\""),
        S("§6.1 (p-RoPE)", "p-RoPE truncates the lowest frequencies; p = 0 is NoPE, p = 1 RoPE (App. D's code)"),
        S("Lemma A.1", "\"Consider g in Q with g != 0 and n in Z. Then, ng = 0 (mod 2 pi) only when n = 0\""),
        S("Lemma A.2", "\"The subset {ng (mod 2 pi) : n in Z} is dense in [0, 2 pi]\" (g irrational)",
          why_not="Kronecker's density theorem for an irrational rotation, a classical fact; its quantified form (the N "
          "at which the orbit is pi/4-dense) is what barbero2024.single_frequency_channel's check computes and uses"),
        S("Lemma A.3", "\"If $a_i < a_j$ for some j, then $\\alpha_i \\le 1/2$\""),
        S("§5 (frequency usage of Gemma 7B)", "Gemma 7B uses low frequencies as semantic channels, high ones for positional heads",
          ("barbero2024.low_frequencies_semantic",)),
        S("§6.1, Table 2", "0.75-RoPE gives the best validation perplexity on Gemma 2B",
          why_not="empirical at Gemma 2B scale (8k context, 10k steps); no records here"),
    ),
    "wu2025": (
        S("Def 3.1", "\"A node v from which every node in the directed graph G is reachable is called a center node\"",
          why_not="a definition; the masks the theorems use (causal, sliding window, prefix) are built in the checks"),
        S("A1-A2", "A1: the key and query weights are bounded ($\\max_t \\lVert W_Q\\rVert, \\lVert W_K\\rVert \\le C$); A2: the products of the "
          "value weights are bounded", why_not="assumptions of every theorem below: the checks draw logits bounded by "
          "logit_bound, which is what A1 gives (Lemma A.1), and A2 does not enter $P^{(t)}$"),
        S("Theorem 4.1", "causal mask: $P^{(t)}(z_i = j) \\le C (1 - (j-1) \\epsilon)^t$, context converges to the first token"),
        S("Theorem 4.2", "sliding window w: $P^{(t)}(z_i = j) \\le C (1 - (j-1) \\epsilon^h)^{t/2h}$, $h = \\lceil (N-1)/(w-1)\\rceil$"),
        S("Theorem 4.3", "prefix mask: context converges to the K prefix tokens, $\\liminf P(z_i = k) \\ge \\kappa$, and "
          "$P(z_i = j) \\le C (1 - (j-K) \\epsilon)^t$"),
        S("Lemma 4.4", "decay mask, one layer: $C_{\\min} e^{-(i-j)m} \\le A_{ij} \\le C_{\\max} e^{-(i-j)m}$"),
        S("Theorem 4.5", "decay mask, many layers: $P^{(t)} = \\Theta(C(t+i-j, i-j) e^{-(i-j)m})$ for $t \\le T$"),
        S("§4.2, the text after Theorem 4.5", "under Stirling's approximation the critical point of "
          "$\\log(C(t+x, x) e^{-xm})$ is $x^* = t/(e^m - 1)$"),
        S("Lemma 4.6", "RoPE, one layer (d = 2, |phi| <= delta theta_1, (delta + N - 1) theta_1 <= pi): "
          "$C_{\\min} e^{-c (i-j)^2 \\theta_1^2} \\le A_{ij} \\le C_{\\max} e^{-c' (i-j)^2 \\theta_1^2}$"),
        S("Theorem 4.7", "RoPE, many layers: $P^{(t)} = \\Theta(C(t+i-j, i-j) e^{-c (i-j)^2 \\theta_1^2})$ for $t \\le T$"),
        S("§4.3, the text after Theorem 4.7", "the critical point $x^*$ of $\\log(C(t+x, x) e^{-x^2 \\theta_1^2})$ increases with "
          "the depth t and decreases with theta_1 (App. H)",
          why_not="a property of the closed form L(x), not of attention: no library code computes it, so a check could "
          "not fail through the library (definitional); App. H derives it"),
        S("App. I (A3, Lemma I.1, Theorem I.2)", "general even d: the same bounds with $\\sum_l (i-j)^2 \\alpha_l^2 \\theta_1^2$, "
          "under A3 (every band keeps a fixed share of the query and key norms)",
          why_not="Lemma I.1's condition was rebuilt from a mangled square root in the PDF text (outside-texts.md) and "
          "could not be checked against the PDF's glyphs here: not quoted, so not checked; its d = 2 case is Lemma 4.6 "
          "and Theorem 4.7 (wu2025.rope_one_layer, wu2025.rope_many_layers)"),
    ),
    "kazemnejad2023": (
        S("Theorem 1", "the first causal NoPE layer can recover absolute position: there exist $W_Q, W_K, W_V, W_O, W_1, "
          "W_2$ that compute it", ("kazemnejad2023.nope_absolute_position",)),
        S("Theorem 2", "subsequent layers can implement relative PE: $\\langle q_t, k_i\\rangle = f_{\\text{cnt}} + f_{\\text{rel}}(t - i)$",
          ("kazemnejad2023.nope_relative_position",)),
    ),
    "nakanishi2025": (
        S("§2, Eq. 2", "softmax attention fades as n grows; SSMax (logits x s ln n) keeps a target iff s Delta >= 1",
          ("nakanishi2025.ssmax_prevents_fading",)),
    ),
    # ---- the 2025-26 results researchers cite (issue 42)
    "lin2025": (
        S("§2 (Forgetting Attention)", "a forget gate down-weights the unnormalised scores: $D_{ij} = \\sum_{l=j+1}^{i} \\log f_l$; "
          "a constant gate is ALiBi with slope -log f"),
    ),
    "tan2024": (
        S("§2 (stick-breaking attention)", "$A_{ij} = \\beta_{ij} \\prod_{j<k<i} (1 - \\beta_{ik})$: the weights sum to at most 1"),
    ),
    "huang2025": (
        S("abstract (the three guidelines)", "positional coherence, full frequency utilization, preservation of textual "
          "priors; MRoPE-I meets them"),
    ),
    "wei2025": (
        S("abstract and §1 (low-frequency temporal allocation)", "previous variants lack appropriate temporal "
          "allocation; VideoRoPE gives time the low frequencies"),
    ),
    "yu2025": (
        S("§3.1, Definitions 3-6 and Proposition 1", "the RPE and RoPE Equations; \"f is said to be a RoPE function if "
          "and only if ... $R_f(x)^T R_f(y) = R_f(y - x)$\"; $R(x; A) = \\exp(\\sum_i A_i x_i)$ with skew-symmetric angle matrices",
          why_not="definitions, and the RoPE Equation restated: the form in which Theorem 1 is checked "
          "(yu2025.commuting_iff_relative)"),
        S("§3.2, Theorem 1", "\"The rotation difference $R(x)^T R(y)$ can be represented by the location difference y - x "
          "if and only if A pairwise commute\" (N > 1)", ("yu2025.commuting_iff_relative",)),
        S("§3.2, Remark 1", "LieRE's trained generators need not commute, so its R does not always satisfy the RoPE "
          "Equation", ("yu2025.commuting_iff_relative",)),
        S("§3.3, Propositions 2-3", "block-diagonal generators commute when their blocks do: all but one zero "
          "(ComRoPE-AP) or linearly dependent (ComRoPE-LD)", ("yu2025.commuting_iff_relative",)),
        S("§4 (experiments)", "ComRoPE-LD surpasses LieRE by 1.6% at 224 and 2.9% at 512 on ImageNet-1K; object "
          "detection and 3D classification", why_not="ViT-B training on ImageNet-1K, COCO and UCF-101: not reproduced "
          "(no such data or compute here)"),
    ),
    "an2024": (
        S("§2.2, Eqs. 1-2", "\"we define the frequency of relative position i by f(i) = L - i\"; over a corpus "
          "f(i) = sum_s max(|s| - i, 0)"),
        S("§2.2, the position frequency statistics", "\"When the training length is 2048, the position indices i <= "
          "1024 account for more than 80% of all indices, whereas those with i >= 1536 constitute less than 5%\""),
        S("Fig. 1 (caption)", "position frequency is left-skewed for natural, uniform and concatenated data; uniform "
          "lengths: frequencies decline quadratically; concatenated: linearly",
          why_not="the uniform and concatenated shapes are Eq. 2 on those length distributions (an2024.position_frequency "
          "checks Eq. 2, an2024.position_share_2048 uses both); SlimPajama-627B's lengths are not available here"),
        S("§3, Findings (1)-(3)", "\"Models can achieve similar effective context lengths if they have been exposed "
          "to similar frequencies of position indices, even if their maximum training lengths differ\" (with (1) a "
          "larger window needs fewer tokens for the same effective length, (3) the effective length grows as the "
          "position frequency does)",
          why_not="pre-training two 1.3B models on 1T tokens of SlimPajama: not reproduced (no such compute here)"),
        S("§4.1, Eq. 3 and Fig. 5", "\"STRING initially drops all position indices i >= N\"; P[m][n] - S in the "
          "bottom-left triangle; the S-th diagonal becomes zero"),
        S("§4.1, Eq. 4", "P[m][n] - S + W in the bottom-left triangle: \"W is used to ensure the neighboring W tokens "
          "remain the closest in terms of positional encoding\""),
        S("§4.1, the suggested W and S", "\"We suggest setting the local window W >= 32 ... and the offset L/7 <= S "
          "<= L/2. We set S = L/3 and W = 128\"",
          why_not="a recommendation from an ablation (Fig. 7) on trained models; the range is the suggested_range "
          "reading of an2024.string_drops_infrequent"),
        S("§4.1, Algorithm 1", "\"STRING controls the relative distance by only modifying the position indices for "
          "queries\": shifted query ids m - S + W on the bottom-left triangle, a sliding window elsewhere"),
        S("§5 (main results)", "STRING raises open models' RULER and InfiniteBench scores at their training length "
          "(e.g. Llama 3.1 70B, Qwen2 72B)",
          why_not="needs 7B-70B models and the benchmarks: not reproduced; the reported numbers are evidence records "
          "(../shared/papers/extension-evidence.md, row 35)"),
    ),
    "wertheimer2026": (
        S("abstract (out of distribution)", "\"Prior analyses assert (rightly) that long inputs cause channels to rotate "
          "'out of distribution'\""),
        S("abstract (sink tokens)", "\"attention induces tight clustering of separated key and query latent point "
          "clouds, allowing for creation of sink tokens\"; \"RoPE applied to longer inputs damages this key/query "
          "cluster separation, producing pathological behavior by inhibiting sink token functionality\"",
          why_not="a finding about trained models' latent geometry whose measure of separation is in the text, not "
          "read; the kernel-level part (channels meeting unseen angles) is wertheimer2026.channels_rotate_ood. The "
          "small trained models here (petheory.nn) log no attention-to-first-token by distance yet: not run"),
        S("abstract (RoPE-ID)", "\"apply RoPE with high frequency to a subset of channels\" generalizes attention to "
          "longer inputs (1B and 3B models on LongBench and RULER)",
          why_not="which channels and which frequencies are in the text, not read, so no encoding can be built from the "
          "abstract; the benchmarks need 1B-3B models"),
    ),
    "du2026": (
        S("abstract (locality)", "\"it loses its locality bias: RoPE is no more likely to favor nearer positions than "
          "substantially farther ones\" ... \"the probability of failure approaches 0.5\"",
          why_not="needs a content model the abstract does not give: with independent query and key content a key's "
          "near and far scores are exchanged by k -> -k, so the failure probability is exactly 1/2 at every length "
          "(nothing to approach); a model with keys similar to the query is the paper's, not read"),
        S("abstract (token relevance)", "\"it loses consistency in token relevance: a key vector that receives a higher "
          "attention score than an alternative at one position may receive a lower score at another\"; failure "
          "probability approaches 0.5"),
        S("abstract (indistinguishability)", "\"the attention score can remain unchanged when a key token is moved to "
          "a different position, or even replaced by a different token\"",
          why_not="an existence statement whose tolerance ('unchanged') and length regime are in the theorems' text, "
          "not read: as an exact equality it is true of any rotation in d >= 2 (a different key in the query's "
          "orthogonal complement), which checks nothing about RoPE"),
        S("abstract (the base trade-off)", "\"Increasing the RoPE base hyperparameter ... helps distinguish different "
          "tokens, but inevitably sacrifices the ability to distinguish positions\""),
        S("abstract (multi-head, multi-layer)", "\"multi-head, multi-layer architectures are insufficient to overcome "
          "these limitations\" (empirical)",
          why_not="the models, tasks and measures are in the text, not read: no pre-registrable test"),
    ),
    # The abstract's results, one row each (the numbered theorems of the text could not be read); formulas as a
    # third-party summary gives them.
    "liu2026": (
        S("abstract (aliasing bound)", "\"a fundamental aliasing bound, analogous to a Nyquist limit\", a lower bound on "
          "the base necessary for positional coherence over L: L < 2 pi base (the summary's formula)"),
        S("abstract (DC-stability bound)", "\"a DC-component stability bound that constrains phase drift in "
          "low-frequency positional modes\": $\\mathrm{base} \\ge L / \\arccos(\\epsilon)$, over N layers $L / \\arccos(\\epsilon^{1/N})$"),
        S("abstract (depth)", "\"repeated rotary modulation across layers compounds angular misalignment, tightening the "
          "base requirement as depth increases\""),
        S("abstract (precision bound)", "\"a precision-dependent upper bound on the RoPE base arising from finite "
          "floating-point resolution. Beyond this limit, incremental phase updates become numerically "
          "indistinguishable\": $\\mathrm{base} < 1/\\epsilon_{\\mathrm{mach}}$ (the summary's formula)",
          why_not="the criterion for 'numerically indistinguishable' (which update, in which arithmetic, against which "
          "tolerance) is in the paper's text, which was not read; every reading of it tried here depends on the vector "
          "rotated and on the head size, so none is the paper's. petheory.bounds.rope_base.precision_max_base gives "
          "the formula, unchecked; plan's and report's lint uses another statement, exact_precision_max_base "
          "($(N/u)^{r/(r-2)}$ on the ladder, our derivation)"),
        S("abstract (case study)", "\"observed successes, failures, and community retrofits align closely with the "
          "predicted bounds\" (LLaMA, Mistral, DeepSeek variants); beyond one million tokens \"a hard precision wall\"",
          why_not="the case study's models, outcomes and criterion for 'align closely' are in the text, not read: no "
          "pre-registrable test can be stated from the abstract"),
    ),
}
