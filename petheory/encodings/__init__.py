r"""Positional encodings of the four source papers, as pure numpy functions in a registry.

Three kinds, each with one calling convention:

``absolute``
    ``f(n, d, **params) -> ndarray (n, d)``: one vector per position, added to the token
    embedding (sinusoidal, learned, random, NoPE, wavelet, Legendre).
``bias``
    ``f(n, **params) -> ndarray (n, n)``: a logit bias ``B[i, j]`` for query ``i`` and key ``j``
    of one head (ALiBi, T5 buckets, learned per-offset scalars). Causal masking is *not*
    folded in: it is applied by the attention that uses the bias.
``rotary``
    ``f(n, d, **params) -> RotaryTable``: rotation angles ``(n, r/2)`` for ``r`` rotary
    dimensions plus the pairing convention; ``table.apply(x)`` rotates ``(n, d)`` vectors.

Positions are ``0, 1, ..., n-1`` throughout. Look-up is by name::

    >>> from petheory import encodings
    >>> encodings.get("sinusoidal")(4, 8).shape
    (4, 8)

Users add their own encodings with :func:`register` (from a plugin module or an entry point in
the ``petheory.encodings`` group; see :mod:`petheory.plugins`).

Files, one idea each: :mod:`~petheory.encodings._registry` (the registry, :func:`register`,
:func:`table_shape`), :mod:`~petheory.encodings.absolute`, :mod:`~petheory.encodings.bias`,
:mod:`~petheory.encodings.rotary` (the frequency ladder, RoPE), and the encodings in use today:
:mod:`~petheory.encodings.extension` (RoPE context extension: PI, NTK, YaRN),
:mod:`~petheory.encodings.kernels` (position-only kernels: xPos, KERPLE, Sandwich, the rotary
kernel) and :mod:`~petheory.encodings.combinations` (MLA's decoupled RoPE, RoPE + absolute), and
:mod:`~petheory.encodings.rotation` (:func:`rotate`: query/key vectors rotated as a model's layer
does, the apply-level reference an engine is compared with). The
public names are re-exported here; a test that plants a bug patches the module that defines
the name. cirrincione2026's ``mds_optimal`` is built from the geometry of positions, so
:mod:`petheory.geometry.optimal` registers it (``import petheory`` imports it): this package
imports nothing above it.
"""

from __future__ import annotations

from petheory.encodings._registry import (  # noqa: F401  (_REGISTRY: the registry itself, for tests and plugins)
    _REGISTRY,
    KINDS,
    EncodingInfo,
    available,
    catalogue,
    get,
    info,
    register,
    table_shape,
)
from petheory.encodings.absolute import (
    LEGENDRE_EXP_RATE,
    LEGENDRE_MAPS,
    WAVELET_DILATIONS,
    WAVELET_NORMALISATIONS,
    learned,
    legendre,
    legendre_positions,
    nope,
    random_fixed,
    sinusoidal,
    wavefun,
    wavelet,
    wavelet_amplitude,
    wavelet_atoms,
    wavelet_terms,
)
from petheory.encodings.bias import alibi, alibi_slopes, fire, fire_input, fire_mlp_init, relative, t5, t5_bucket
from petheory.encodings.rotary import RotaryTable, chord_sq, rope, rope_frequencies

from petheory.encodings.combinations import mla_rope, rope_learned, rope_sinusoidal
from petheory.encodings.extension import (
    YARN_RAMPS,
    ScaledRotaryTable,
    extension_factor,
    ntk_base,
    rope_ntk,
    rope_pi,
    rope_yarn,
    rotary_angles,
    rotary_dims,
    yarn_mscale,
    yarn_ramp,
)
from petheory.encodings.rotation import ROTATED_ENTRIES, rotary_frequencies, rotate, rotated_coordinates
from petheory.encodings.kernels import (
    kerple_log,
    kerple_power,
    rotary_kernel,
    sandwich,
    sandwich_column,
    xpos,
    xpos_zeta,
)
from petheory.encodings.rope_scaling import (  # Llama 3, LongRoPE and dynamic NTK, built on extension
    ROPE_SCALINGS,
    band_frequencies,
    dynamic_base,
    llama3_frequencies,
    longrope_attention_factor,
    partial_rotary_dim,
    rope_dynamic,
    rope_llama3,
    rope_longrope,
)
