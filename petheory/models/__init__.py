"""Real models' positional schemes: a Hugging Face ``config.json`` (parsed) -> a per-layer ``petheory.scheme.Scheme``.

Pure theory (no file is read: :mod:`petheory.loaders.model_config` reads the file). Files:
:mod:`~petheory.models.config` (:func:`resolve_config`: the gate and the dispatch),
:mod:`~petheory.models.read` (a rotary decoder's positions from its fields, by their meaning in transformers),
:mod:`~petheory.models.families` (what only a family's modeling code knows),
:mod:`~petheory.models.verified` (the verification table written by ``python -m tools.verify``),
:mod:`~petheory.models.rope` (one RoPE parameter dict -> a rotary registry entry),
:mod:`~petheory.models.bias` (ALiBi, T5, MLA), :mod:`~petheory.models.fields` (validated field
readers and their limits); what a resolved encoding is, as JSON, is :mod:`petheory.analyses.describe`, and the
one-page report :func:`petheory.analyses.report.report`.
"""

from petheory.models.bias import mpt_slopes
from petheory.models.config import MODEL_TYPES, resolve_config
from petheory.models.fields import LIMITS
from petheory.models.rope import ROPE_TYPES, rope_scheme, yarn_attention_factor, yarn_get_mscale

__all__ = ["LIMITS", "MODEL_TYPES", "ROPE_TYPES", "mpt_slopes", "resolve_config", "rope_scheme",
           "yarn_attention_factor", "yarn_get_mscale"]
