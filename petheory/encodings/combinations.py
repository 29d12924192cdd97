r"""RoPE combined with something else: MLA's decoupled RoPE, RoPE plus an absolute table.

``mla_rope`` rotates only the rope part of a score vector (DeepSeek-V2); ``rope_sinusoidal`` and
``rope_learned`` return a :class:`~petheory.encodings.extension.ScaledRotaryTable` whose
``additive`` holds the absolute rows added to the inputs.
"""

from __future__ import annotations

from petheory import _validate as v

from petheory.encodings._registry import register, table_shape
from petheory.encodings.absolute import learned, sinusoidal
from petheory.encodings.extension import ScaledRotaryTable, rotary_angles
from petheory.encodings.rotary import RotaryTable, rope_frequencies
from petheory.errors import ValidationError


@register(
    "mla_rope",
    "rotary",
    conventions="MLA's decoupled RoPE: of the d coordinates of a score vector [q_rope; q_content], the first "
    "rope_dim (default the largest even <= d/2) rotate with RoPE (interleaved pairing, as petheory.nn's MLA and "
    "DeepSeek-V2's checkpoints, which HF permutes to half-split), the content part none; DeepSeek-V2 writes "
    "[content; rope], a fixed permutation. The rope key is shared by all heads and comes "
    "from the input, not the latent (petheory.nn's 'mla' mechanism; --pe mla_rope in petheory.nn is that mechanism).",
    source="deepseek2024 (DeepSeek-V2 §2.1.3, Eqs. 14-19); gu2025 §4.1 (MLA)",
)
def mla_rope(n: int, d: int, *, rope_dim: int | None = None, base: float = 10000.0,
             pairing: str = "interleaved") -> RotaryTable:
    """MLA's decoupled RoPE: only the rope part of the score vector rotates."""
    n, d = table_shape(n, d, even=True)
    r = 2 * (d // 4) if rope_dim is None else v.even("rope_dim", rope_dim)
    if not 2 <= r <= d:
        raise ValidationError(f"rope_dim must be even and in 2..d={d}, got {r}")
    v.choice("pairing", pairing, ("interleaved", "half"))
    return RotaryTable(rotary_angles(n, rope_frequencies(d, base=base, rotary_dim=r)), d, pairing)


@register(
    "rope_sinusoidal",
    "rotary",
    conventions="RoPE on queries/keys plus sinusoidal vectors added to the inputs (gu2025's 'rope' run; petheory.nn "
    "'rope+sinusoidal'); both with the same base and d. The table's `additive` holds the sinusoidal rows. With the "
    "same frequencies and interleaved layouts, R_p PE_p is the same vector for every p: the position-only logit "
    "PE_i^T R_{j-i} PE_j is constant (RoPE undoes the sinusoid's phase).",
    source="gu2025 §4.1 and code (CLAIMS.md); su2024",
)
def rope_sinusoidal(n: int, d: int, *, base: float = 10000.0, pairing: str = "interleaved",
                    layout: str = "interleaved") -> ScaledRotaryTable:
    """RoPE plus additive sinusoidal inputs."""
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    return ScaledRotaryTable(rotary_angles(n, rope_frequencies(d, base=base)), d, pairing,
                             additive=sinusoidal(n, d, base=base, layout=layout))


@register(
    "rope_learned",
    "rotary",
    conventions="RoPE on queries/keys plus a learned absolute table (at initialisation: N(0, std^2) from seed, "
    "as 'learned') added to the inputs; petheory.nn 'rope+learned'.",
    source="su2024; li2025 Table 2 (learned)",
)
def rope_learned(n: int, d: int, *, base: float = 10000.0, pairing: str = "interleaved", seed: int = 0,
                 std: float = 0.02) -> ScaledRotaryTable:
    """RoPE plus an additive learned table (at initialisation)."""
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    return ScaledRotaryTable(rotary_angles(n, rope_frequencies(d, base=base)), d, pairing,
                             additive=learned(n, d, seed=seed, std=std))
