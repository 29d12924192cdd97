r"""Norm and Rademacher bounds per PE, ALiBi extrapolation (Eq. 9), wavelet and Legendre analysis.

Everything here is li2025 (Yin Li, arXiv 2506.06398; the paper is available as a structured
summary, so formulas the paper leaves implicit are stated as reconstructions where they live).
numpy/scipy only. One module per idea; every public name is re-exported here, so
``from petheory import bounds; bounds.norm_bound(...)`` and ``from petheory.bounds import X`` work:

:mod:`~petheory.bounds.norms`
    li2025 Table 2 as a table of functions (:data:`TABLE2`), :func:`norm_bound` (stated next to
    computed), :func:`pe_norms`, the long-context rotary norms and angle coverage,
    :func:`bound_report` (the row ``petheory bounds`` prints).
:mod:`~petheory.bounds.rademacher`
    li2025 §4.2: closed forms for norm-bounded linear classes, a Monte Carlo estimator (with
    standard error) for linear and kernel classes, :func:`rademacher_lipschitz_bound`.
:mod:`~petheory.bounds.lipschitz`
    Lipschitz constants of attention and LayerNorm on arrays (the factors of :math:`L_{trans}`).
:mod:`~petheory.bounds.alibi`
    li2025 §5.3, Eq. 9: :math:`A(\mu, b)`, its Lipschitz constant in the bias, the inequality.
:mod:`~petheory.bounds.decay`
    li2025 §6: wavelet (sparse row norms, support end, envelope decay fits, scale constants,
    norm growth) and Legendre (bound, saturation); sinusoidal ambiguity (offset distance, onset).

The probes of trained models (``transformer_lipschitz``, ``transformer_input_norm``,
``alibi_drift``) run torch, so they live in :mod:`petheory.nn.lipschitz`, which builds on this package.
"""

from __future__ import annotations


from petheory.bounds.alibi import (
    ALIBI_READINGS,
    alibi_extrapolation_terms,
    alibi_lipschitz,
    alibi_lipschitz_numeric,
    attention_output,
    attention_weight,
)
from petheory.bounds.decay import (
    DecayFit,
    legendre_limit,
    legendre_norm_bound,
    legendre_saturation_bound,
    sinusoidal_ambiguity_onset,
    sinusoidal_offset_distance,
    sinusoidal_slowest_period,
    wavelet_decay_fit,
    wavelet_norm_growth,
    wavelet_norms,
    wavelet_scale_ratios,
    wavelet_support_end,
    wavelet_support_length,
)
from petheory.bounds.lipschitz import GELU_LIPSCHITZ, LipschitzReport, attention_lipschitz, layernorm_lipschitz
from petheory.bounds.norms import (
    DENSE_BIAS_MAX,
    TABLE2,
    NormBound,
    StatedBound,
    alibi_bias_magnitude,
    bound_report,
    norm_bound,
    pe_norms,
    rotary_angle_coverage,
    scaled_rotary_norm_bound,
    stated_bound,
)
from petheory.bounds.rademacher import (
    RademacherEstimate,
    empirical_rademacher,
    gram_matrix,
    pe_augmented_inputs,
    rademacher_kernel_sup,
    rademacher_linear_bound,
    rademacher_linear_data_bound,
    rademacher_linear_sup,
    rademacher_lipschitz_bound,
)

__all__ = [
    # norms (li2025 Table 2)
    "DENSE_BIAS_MAX", "TABLE2", "NormBound", "StatedBound", "alibi_bias_magnitude",
    "bound_report", "norm_bound", "pe_norms", "rotary_angle_coverage", "scaled_rotary_norm_bound", "stated_bound",
    # rademacher (li2025 §4.2)
    "RademacherEstimate", "empirical_rademacher", "gram_matrix", "pe_augmented_inputs", "rademacher_kernel_sup",
    "rademacher_linear_bound", "rademacher_linear_data_bound", "rademacher_linear_sup", "rademacher_lipschitz_bound",
    # lipschitz (factors of L_trans)
    "GELU_LIPSCHITZ", "LipschitzReport", "attention_lipschitz", "layernorm_lipschitz",
    # alibi (li2025 Eq. 9)
    "ALIBI_READINGS", "alibi_extrapolation_terms", "alibi_lipschitz", "alibi_lipschitz_numeric", "attention_output",
    "attention_weight",
    # decay (li2025 §6) and sinusoidal ambiguity
    "DecayFit", "legendre_limit", "legendre_norm_bound", "legendre_saturation_bound", "sinusoidal_ambiguity_onset",
    "sinusoidal_offset_distance", "sinusoidal_slowest_period", "wavelet_decay_fit", "wavelet_norm_growth",
    "wavelet_norms", "wavelet_scale_ratios", "wavelet_support_end", "wavelet_support_length",
]

