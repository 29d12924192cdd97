r"""chen2025 reconstruction: position-only linear attention, LRC, SRC and Scale Hint (numpy/scipy only).

Only chen2025's abstract is available; every definition here is a documented reconstruction:

:mod:`~petheory.lengthgen.targets`
    target operator families ``{T_n}`` (copy, shift, reverse, running sum/mean, parity and
    addition chain-of-thought steps) and the Scale Hint position maps.
:mod:`~petheory.lengthgen.pola`
    POLA dictionaries for every registry PE with positions, LRC with certificates,
    length generalisation of a fitted POLA.
:mod:`~petheory.lengthgen.src`
    Sequential Representation Complexity of trained models from their attention maps.
"""

from petheory.lengthgen.pola import (
    KEYED, LRC, PolaPE, Realisation, basis, generalises, lrc, lrc_curve, pola_matrix, pola_output, pola_pe, realise,
    span_dimension,
)
from petheory.lengthgen.src import answer_queries, entropy_rank, offset_profile, src, src_invariance
from petheory.lengthgen.targets import HINTS, TARGETS, Target, check_target, hint_positions, segments, target

__all__ = [
    "KEYED", "LRC", "PolaPE", "Realisation", "basis", "generalises", "lrc", "lrc_curve", "pola_output", "pola_matrix",
    "pola_pe", "realise", "span_dimension", "answer_queries", "entropy_rank", "offset_profile", "src",
    "src_invariance", "HINTS", "TARGETS", "Target", "check_target", "hint_positions", "segments", "target",
]
