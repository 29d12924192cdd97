"""Every formula of the papers that petheory computes, with its paper, equation and function.

One row: (layer, formula in words or LaTeX, function or object (dotted), paper key, where in the
paper). ``conf.py`` turns the rows of each layer into the table at the top of that layer's API
page; the function column is a cross-reference that Sphinx checks (``nitpicky`` for petheory
names), so a renamed or removed function fails the docs build instead of leaving a stale row.
"""

PAPERS = {
    "gu2025": ("Gu et al., Unpacking Positional Encoding in Transformers: A Spectral Analysis of "
               "Content-Position Coupling", "https://arxiv.org/abs/2505.13027"),
    "li2025": ("Li, Theoretical Analysis of Positional Encodings in Transformer Models", "https://arxiv.org/abs/2506.06398"),
    "cirrincione2026": ("Cirrincione, On the Geometry of Positional Encodings in Transformers", "https://arxiv.org/abs/2604.05217"),
    "chen2025": ("Chen, Liang, Lin, On the Limitations and Capabilities of Position Embeddings for Length "
                 "Generalization", "https://arxiv.org/abs/2510.04130"),
    "vaswani2017": ("Vaswani et al., Attention Is All You Need", "https://arxiv.org/abs/1706.03762"),
    "su2024": ("Su et al., RoFormer: Enhanced Transformer with Rotary Position Embedding", "https://arxiv.org/abs/2104.09864"),
    "press2022": ("Press, Smith, Lewis, Train Short, Test Long (ALiBi)", "https://arxiv.org/abs/2108.12409"),
    "raffel2020": ("Raffel et al., Exploring the Limits of Transfer Learning (T5)", "https://arxiv.org/abs/1910.10683"),
    "chen2023": ("Chen et al., Extending Context Window of Large Language Models via Positional Interpolation",
                 "https://arxiv.org/abs/2306.15595"),
    "peng2023": ("Peng et al., YaRN: Efficient Context Window Extension of Large Language Models", "https://arxiv.org/abs/2309.00071"),
    "sun2023": ("Sun et al., A Length-Extrapolatable Transformer (xPos)", "https://arxiv.org/abs/2212.10554"),
    "chi2022": ("Chi et al., KERPLE: Kernelized Relative Positional Embedding", "https://arxiv.org/abs/2205.09921"),
    "chi2023": ("Chi et al., Dissecting Transformer Length Extrapolation via the Lens of Receptive Field Analysis (Sandwich)",
                "https://arxiv.org/abs/2212.10356"),
    "deepseek2024": ("DeepSeek-AI, DeepSeek-V2 (MLA)", "https://arxiv.org/abs/2405.04434"),
}

FORMULAS = [
    # ---------------------------------------------------------------- theory: encodings
    ("theory", r"sinusoidal :math:`PE_{p,2t}=\sin(p\,\omega_t)`, :math:`\omega_t = b^{-2t/d}`",
     "petheory.encodings.absolute.sinusoidal", "vaswani2017", "§3.5"),
    ("theory", r"frequency ladder :math:`\theta_t = b^{-2t/d}`", "petheory.encodings.rotary.rope_frequencies", "su2024", "Eq. 15"),
    ("theory", r"RoPE rotation :math:`R_p` of pair :math:`t` by :math:`p\theta_t`", "petheory.encodings.rotary.rope", "gu2025", "Eq. 4"),
    ("theory", r"ALiBi bias :math:`-m\lvert i-j\rvert` and slopes :math:`2^{-8h/H}`", "petheory.encodings.bias.alibi", "press2022", "(no number cited)"),
    ("theory", "T5 relative-position buckets", "petheory.encodings.bias.t5_bucket", "raffel2020", "(no number cited)"),
    ("theory", r"position interpolation: angles :math:`(p/s)\,\theta_t`", "petheory.encodings.extension.rope_pi", "chen2023", "Eq. 2"),
    ("theory", r"YaRN ramp :math:`\gamma(r_t)`", "petheory.encodings.extension.yarn_ramp", "peng2023", "Eq. 18"),
    ("theory", r"YaRN attention factor :math:`\sqrt{1/t} = 0.1\ln s + 1`", "petheory.encodings.extension.yarn_mscale", "peng2023", "Eq. 22"),
    ("theory", r"xPos decay :math:`\zeta_t = (2t/r+\gamma)/(1+\gamma)`", "petheory.encodings.kernels.xpos_zeta", "sun2023", "Eq. 9-10"),
    ("theory", r"KERPLE log bias :math:`-r_1\log(1+r_2\lvert i-j\rvert)`", "petheory.encodings.kernels.kerple_log", "chi2022", "§3"),
    ("theory", r"KERPLE power bias :math:`-r_1\lvert i-j\rvert^{r_2}`", "petheory.encodings.kernels.kerple_power", "chi2022", "§3"),
    ("theory", "Sandwich bias (inner product of sinusoids)", "petheory.encodings.kernels.sandwich", "chi2023", "§5"),
    ("theory", "MLA's decoupled RoPE", "petheory.encodings.combinations.mla_rope", "deepseek2024", "§2.1.3, Eqs. 14-19"),
    # ---------------------------------------------------------------- theory: Toeplitz / spectral
    ("theory", r"symbol :math:`a(\theta)=\sum_k a_k e^{ik\theta}` of :math:`T_N=[a_{i-j}]`", "petheory.toeplitz.symbols.symbol", "gu2025", "§3.3"),
    ("theory", "eigenvalues lie in the symbol's range (certified extremes)", "petheory.toeplitz.eigen.extreme_eigenvalues", "gu2025", "§3.3"),
    ("theory", "Szegő: eigenvalue distribution against the symbol's", "petheory.toeplitz.szego.spectral_distribution", "gu2025", "§3.3"),
    ("theory", r"sinusoidal Gram :math:`PP^\top` is Toeplitz", "petheory.toeplitz.closed_forms.sinusoidal_gram_coefficients", "gu2025", "Remark 3.2"),
    ("theory", r"phase-modulated sum :math:`f(\theta)=\sum_i 2w_i\cos(\psi_i+i\theta)` against :math:`g`",
     "petheory.toeplitz.phase_modulation.lemma_b1", "gu2025", "Lemma B.1"),
    # ---------------------------------------------------------------- theory: coupling
    ("theory", r"logit decomposition :math:`L = G_{q^c,k^c}+G_{q^c,k^p}+G_{q^p,k^c}+G_{q^p,k^p}+B`",
     "petheory.coupling.additive.logit_terms", "gu2025", "Eq. 8"),
    ("theory", "RoPE logits as one unit-modulus phase matrix per band", "petheory.coupling.rope.rope_logit_terms", "gu2025", "Eq. 9"),
    ("theory", r"a single :math:`G_e` (Hadamard form)", "petheory.coupling.rope.single_phase_defect", "gu2025", "Eq. 9, Prop. B.1"),
    ("theory", r"additive :math:`W+B` against Hadamard :math:`W\circ E` composition", "petheory.coupling.composition.compose", "gu2025", "§3.2; Prop. B.3"),
    # ---------------------------------------------------------------- theory: bounds
    ("theory", "per-PE norm bounds", "petheory.bounds.norms.norm_bound", "li2025", "Table 2"),
    ("theory", "Rademacher complexity of norm-bounded linear classes", "petheory.bounds.rademacher.rademacher_linear_bound", "li2025", "§4.2"),
    ("theory", r"Lipschitz composition bound :math:`L_{trans}`", "petheory.bounds.rademacher.rademacher_lipschitz_bound", "li2025", "§4.2"),
    ("theory", r"ALiBi extrapolation :math:`\lvert A(\mu, b')-A(\mu, b)\rvert \le L_A\lvert b'-b\rvert`",
     "petheory.bounds.alibi.alibi_extrapolation_terms", "li2025", "Eq. 9, §5.3"),
    ("theory", "wavelet decay and norm growth", "petheory.bounds.decay.wavelet_decay_fit", "li2025", "§6.1.4"),
    ("theory", "Legendre norm bound", "petheory.bounds.decay.legendre_norm_bound", "li2025", "§6"),
    ("theory", "sinusoidal periodic ambiguity onset", "petheory.bounds.decay.sinusoidal_ambiguity_onset", "li2025", "§6"),
    # ---------------------------------------------------------------- theory: geometry
    (r"theory", r"Hellinger distance :math:`H(p_i,p_j)=\sqrt{1-\sum_v\sqrt{p_i(v)p_j(v)}}`",
     "petheory.geometry.hellinger.hellinger_distances", "cirrincione2026", "Prop. 5"),
    ("theory", r"classical MDS, :math:`B=-\tfrac12 JD^{\circ2}J`", "petheory.geometry.mds.classical_mds", "cirrincione2026", "Algorithm 1"),
    ("theory", "stress of an embedding against a target geometry", "petheory.geometry.stress_measures.stress", "cirrincione2026", "Prop. 5"),
    ("theory", "MDS-optimal encoding of a corpus", "petheory.geometry.optimal.mds_optimal", "cirrincione2026", "Prop. 5/6, Algorithm 1"),
    ("theory", "minimal parametrisation (rank)", "petheory.geometry.rank.minimal_parametrisation", "cirrincione2026", "(no number in the abstract)"),
    # ---------------------------------------------------------------- theory: length generalisation
    ("theory", "linear representation complexity (LRC), reconstructed", "petheory.lengthgen.pola.lrc", "chen2025", "abstract (reconstruction)"),
    ("theory", "strong representation complexity (SRC), reconstructed", "petheory.lengthgen.src.src", "chen2025", "abstract (reconstruction)"),
    # ---------------------------------------------------------------- nn
    ("nn+experiments", "li2025's Lipschitz-product bound of a trained model", "petheory.nn.lipschitz.transformer_lipschitz",
     "li2025", "§4.2"),
    ("nn+experiments", "measured ALiBi drift of a trained model", "petheory.nn.lipschitz.alibi_drift", "li2025", "Eq. 9, §5.3"),
]
