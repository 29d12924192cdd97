"""Real models' positional schemes: a Hugging Face ``config.json`` (parsed) -> petheory registry entries.

Pure theory (no file is read: :mod:`petheory.loaders.model_config` reads the file). Files:
:mod:`~petheory.models.config` (:func:`resolve_config`, :class:`ModelScheme`, the supported model
and rope types), :mod:`~petheory.models.describe` (:func:`describe`: what a resolved encoding is,
as JSON), (the one-page report is :func:`petheory.analyses.report.report`).
"""

from petheory.models.config import (
    LIMITS,
    MODEL_TYPES,
    ROPE_TYPES,
    ModelScheme,
    Scheme,
    mpt_slopes,
    resolve_config,
    rope_scheme,
    yarn_attention_factor,
    yarn_get_mscale,
)

__all__ = ["LIMITS", "MODEL_TYPES", "ROPE_TYPES", "ModelScheme", "Scheme", "mpt_slopes", "resolve_config",
           "rope_scheme", "yarn_attention_factor", "yarn_get_mscale"]
