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

Files: :mod:`~petheory.encodings._registry` (the registry, :func:`register`, :func:`table_shape`),
:mod:`~petheory.encodings.absolute`, :mod:`~petheory.encodings.bias`,
:mod:`~petheory.encodings.rotary`, and :mod:`petheory.encodings_modern` (the long-context
encodings, registered when this package is imported). Import from ``petheory.encodings``: every
public name is here.
"""

from __future__ import annotations

from petheory._split import keep_one_namespace
from petheory.encodings._registry import (  # noqa: F401  (_REGISTRY: the registry itself, for tests and plugins)
    _REGISTRY,
    KINDS,
    EncodingInfo,
    available,
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

# --------------------------------------------------------------------------- long-context encodings

# RoPE-PI/NTK/YaRN, xPos, KERPLE, Sandwich, MLA's decoupled RoPE, RoPE + absolute, mds_optimal:
# registered by their own module (imported last: it builds on the functions above).
from petheory import encodings_modern as _modern  # noqa: E402,F401

# Llama 3, LongRoPE and dynamic NTK scalings (built on the long-context entries above)
from petheory.encodings import rope_scaling as _rope_scaling  # noqa: E402,F401
from petheory.encodings.rope_scaling import (  # noqa: E402,F401
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

# monkeypatch.setattr(petheory.encodings, name, f) reaches the callers in the submodules, as it did
# when this package was one module (tests plant bugs that way)
keep_one_namespace(__name__)
