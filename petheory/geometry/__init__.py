r"""The geometry of positions (cirrincione2026, Prop. 5/6 and Algorithm 1).

A corpus gives each position :math:`i` a distribution :math:`p_i` over the vocabulary (the
*positional distribution*). The information geometry of positions is the Hellinger distance

.. math:: H(p_i, p_j) = \sqrt{1 - \textstyle\sum_v \sqrt{p_i(v)\,p_j(v)}}
          = \tfrac{1}{\sqrt2}\,\lVert\sqrt{p_i} - \sqrt{p_j}\rVert_2 \in [0, 1],

classical (Torgerson) MDS turns a distance matrix :math:`D` into coordinates through
:math:`B = -\tfrac12 J D^{\circ 2} J` (:math:`J = I - \tfrac1n \mathbf 1\mathbf 1^\top`), and the
*stress* measures how well the geometry an encoding induces on positions matches a target.

Pipeline::

    P  = positional_distributions("corpus.txt", n=64)   # (n, V), sparse counts
    D  = hellinger_distances(P)                          # (n, n)
    mds = classical_mds(D, rank=8)                       # embedding (n, 8) + spectrum
    s  = encoding_stress("rope", D, d=64)                # StressReport

The geometry each PE induces on positions (:func:`induced_distances`)
---------------------------------------------------------------------
=================  ==========================================================================
encoding           distance between positions :math:`i` and :math:`j`
=================  ==========================================================================
absolute vectors   Euclidean :math:`\lVert p_i - p_j\rVert_2` of the rows (sinusoidal, learned,
                   any ``(n, d)`` table loaded from ``.npy``/safetensors/a HF model)
RoPE               distance of the rotations: :math:`\lVert R_i - R_j\rVert_F =
                   \sqrt{8\sum_t \sin^2((i-j)\omega_t/2)}` over its frequencies
                   :math:`\omega_t`; it depends on :math:`|i-j|` only. For the same frequencies
                   this is :math:`\sqrt2` times the sinusoidal geometry, so under the
                   scale-free stress-1 RoPE and sinusoidal score *identically*.
bias (ALiBi, ...)  ``bias_map='gap'``: the symmetrised logit gap
                   :math:`\tfrac12(b_{ii}+b_{jj}-b_{ij}-b_{ji})` -- how much less attention key
                   :math:`j` gets than the query's own position. For ALiBi this is the line
                   :math:`m\lvert i-j\rvert`. It must be non-negative; a learned bias (T5
                   buckets, per-offset scalars) can favour another offset over 0, so those use
                   ``bias_map='hellinger'``: the Hellinger distance between the content-free
                   attention rows :math:`\operatorname{softmax}(b_{i\cdot})` and
                   :math:`\operatorname{softmax}(b_{j\cdot})`, always a metric.
user matrix        an ``(n, d)`` table is treated as absolute vectors; an ``(n, n)`` distance
                   matrix can be given directly as a target (:func:`check_distance_matrix`).
=================  ==========================================================================

Conventions: float64, positions ``0..n-1``, every random thing takes a ``seed``.

Where things are (one idea per submodule; every name below is re-exported here)::

    distributions    PositionalDistributions, positional_distributions, builtin_target
    hellinger        hellinger_distances, check_distance_matrix (and the square-root rows behind them)
    mds              gram_from_distances, MDSResult, classical_mds, hellinger_mds, smacof
    stress_measures  STRESS_FORMULAS, stress, stress_between
    rank             effective_rank, Factorisation, minimal_parametrisation
    induced          euclidean/rotary/bias/induced_distances, StressReport, target_distances, encoding_stress
    optimal          mds_optimal: the MDS-optimal encoding, registered in petheory.encodings on import

Theory only: nothing here opens a file or loads a tokenizer. A corpus path or an ``'hf:DIR'``
tokenizer given to :func:`positional_distributions` is read by :mod:`petheory.loaders`.
"""

from petheory.geometry.distributions import (
    BUILTIN_MAX_VOCAB,
    BUILTIN_MIN_COUNT,
    PositionalDistributions,
    builtin_target,
    positional_distributions,
)
from petheory.geometry.hellinger import check_distance_matrix, hellinger_distances
from petheory.geometry.induced import (
    BIAS_MAPS,
    DEFAULT_BIAS_MAP,
    FULL_SPECTRUM_MAX_N,
    LARGE_N_RANK,
    StressReport,
    bias_distances,
    encoding_stress,
    euclidean_distances,
    induced_distances,
    rotary_distances,
    target_distances,
)
from petheory.geometry.mds import EXACT_MAX_N, MDSResult, classical_mds, gram_from_distances, hellinger_mds, smacof
from petheory.geometry.optimal import mds_optimal
from petheory.geometry.rank import Factorisation, effective_rank, minimal_parametrisation
from petheory.geometry.stress_measures import STRESS_FORMULAS, STRESS_KINDS, STRESS_LABELS, stress, stress_between

__all__ = [
    "PositionalDistributions",
    "positional_distributions",
    "builtin_target",
    "hellinger_distances",
    "check_distance_matrix",
    "gram_from_distances",
    "MDSResult",
    "classical_mds",
    "hellinger_mds",
    "STRESS_FORMULAS",
    "STRESS_LABELS",
    "stress",
    "stress_between",
    "effective_rank",
    "Factorisation",
    "minimal_parametrisation",
    "smacof",
    "euclidean_distances",
    "rotary_distances",
    "bias_distances",
    "induced_distances",
    "StressReport",
    "encoding_stress",
    "mds_optimal",
]
