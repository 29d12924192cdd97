r"""Content-position coupling in attention logits (gu2025 §3.1-3.2, Eq. 8, Eq. 9, Prop. B.1).

Convention: row vectors. Token ``i`` has content ``c_i`` and position ``p_i`` (rows of ``C`` and ``P``, shape (n, d));
projections are ``W_Q, W_K`` of shape ``(d, d_head)``, so ``q_i = x_i W_Q`` (a torch ``nn.Linear`` stores ``weight`` as
``(d_head, d)``: pass ``weight.T``, as :func:`projections_from_linear` does).

:mod:`~petheory.coupling.additive`
    :func:`logit_terms`, the five terms of Eq. 8, exact; :func:`toeplitz_report`, how Toeplitz each is.
:mod:`~petheory.coupling.inputs`
    :func:`random_projections`, :func:`projections_from_linear`, :func:`bert_inputs`: where ``W_Q, W_K``, contents
    and positions come from.
:mod:`~petheory.coupling.rope`
    :func:`rope_logit_terms`, RoPE's logits per frequency band, exactly; :func:`single_phase_defect`, whether the
    single ``G_e`` of Eq. 9 / Prop. B.1 exists.
:mod:`~petheory.coupling.composition`
    :func:`compose`, :func:`rope_band_average`, :func:`spectral_summary`: additive (``W + B``) against Hadamard
    (``W ∘ E``) composition of Toeplitz factors.
"""

from petheory.coupling.additive import TERM_LABELS, TERM_NAMES, LogitTerms, logit_terms, toeplitz_report
from petheory.coupling.composition import compose, rope_band_average, spectral_summary
from petheory.coupling.inputs import LAYERNORM_RULES, bert_inputs, projections_from_linear, random_projections
from petheory.coupling.rope import RopeTerms, complex_pairs, rope_logit_terms, rope_logits, single_phase_defect

__all__ = ["LAYERNORM_RULES", "TERM_LABELS", "TERM_NAMES", "LogitTerms", "RopeTerms", "bert_inputs", "complex_pairs", "compose",
           "logit_terms", "projections_from_linear", "random_projections", "rope_band_average", "rope_logit_terms",
           "rope_logits", "single_phase_defect", "spectral_summary", "toeplitz_report"]
