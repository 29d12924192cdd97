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
from petheory.encodings.rope_scaling import mla_table
from petheory.errors import ValidationError


@register(
    "mla_rope",
    "rotary",
    conventions="MLA's decoupled RoPE: of the d coordinates of a score vector [q_rope; q_content], the first "
    "rope_dim (default the largest even <= d/2) rotate with RoPE (interleaved pairing, as petheory.nn's MLA and "
    "DeepSeek-V2's checkpoints, which HF permutes to half-split), the content part none; DeepSeek-V2 writes "
    "[content; rope], a fixed permutation. The rope key is shared by all heads and comes "
    "from the input, not the latent (petheory.nn's 'mla' mechanism; --pe mla_rope in petheory.nn is that mechanism). "
    "scaling names the rotary entry whose frequencies and attention factor the rope part takes (rope_pi, rope_yarn, "
    "rope_llama3, ...; its parameters in scaling_params, a dict), softmax_mscale multiplies "
    "every logit by its square (DeepSeek-V3: yarn_get_mscale(factor, mscale_all_dim)), folded into the table's mscale.",
    source="deepseek2024 (DeepSeek-V2 §2.1.3, Eqs. 14-19); gu2025 §4.1 (MLA); HF modeling_deepseek_v3 (yarn_get_mscale)",
)
def mla_rope(n: int, d: int, *, rope_dim: int | None = None, base: float = 10000.0, pairing: str = "interleaved",
             scaling: str = "rope", scaling_params: dict | None = None, softmax_mscale: float = 1.0) -> RotaryTable:
    """MLA's decoupled RoPE: only the rope part of the score vector rotates.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) size of the score vector ``[q_rope; q_content]``.
    rope_dim : int, optional
        Size of the rope part, even and in ``2..d`` (default the largest even number ``<= d/2``).
    base : float
        RoPE base of the rope part.
    pairing : {'interleaved', 'half'}
        Rotated pairs of the rope part.
    scaling : str
        Rotary registry entry whose frequencies and attention factor the rope part takes
        (``'rope'``, ``'rope_pi'``, ``'rope_yarn'``, ``'rope_llama3'``, ...; see :func:`mla_table`).
    scaling_params : dict, optional
        Keyword arguments of ``scaling`` (not ``base``, ``pairing`` or ``rotary_dim``).
    softmax_mscale : float
        Factor whose square multiplies every logit (DeepSeek-V3's ``yarn_get_mscale(factor, mscale_all_dim)``).

    Returns
    -------
    RotaryTable
        Angles of the rope part, shape (n, rope_dim/2); a :class:`ScaledRotaryTable` carrying ``mscale``
        when a scaling, its parameters or ``softmax_mscale`` other than 1 are given.

    Raises
    ------
    ValidationError
        ``rope_dim`` odd or outside ``2..d``, or an invalid ``scaling`` (see :func:`mla_table`).

    References
    ----------
    deepseek2024 (DeepSeek-V2 §2.1.3, Eqs. 14-19).

    See Also
    --------
    petheory.encodings.rotary.rope

    Examples
    --------
    >>> from petheory import encodings
    >>> encodings.mla_rope(4, 16).angles.shape  # rope_dim = 8: 4 rotated pairs
    (4, 4)
    >>> t = encodings.mla_rope(4, 16, scaling="rope_pi", scaling_params={"scale": 2.0}, softmax_mscale=1.1)
    >>> t.angles[1].tolist(), t.mscale  # PI halves the rope part's frequencies
    ([0.5, 0.05, 0.005, 0.0005], 1.1)
    """
    n, d = table_shape(n, d, even=True)
    r = 2 * (d // 4) if rope_dim is None else v.even("rope_dim", rope_dim)
    if not 2 <= r <= d:
        raise ValidationError(f"rope_dim must be even and in 2..d={d}, got {r}")
    v.choice("pairing", pairing, ("interleaved", "half"))
    if scaling != "rope" or scaling_params or softmax_mscale != 1.0:  # DeepSeek-V3: YaRN + mscale_all_dim
        return mla_table(n, d, rope_dim=r, base=base, pairing=pairing, scaling=scaling, scaling_params=scaling_params,
                         softmax_mscale=softmax_mscale)
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
    """RoPE plus additive sinusoidal inputs.

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    base : float
        Base of both the rotary frequencies and the sinusoidal table.
    pairing : {'interleaved', 'half'}
        Rotated pairs of RoPE.
    layout : {'interleaved', 'concatenated'}
        Column layout of the sinusoidal table (:func:`~petheory.encodings.absolute.sinusoidal`).

    Returns
    -------
    ScaledRotaryTable
        RoPE angles, shape (n, d/2), with ``additive`` the (n, d) sinusoidal rows.

    See Also
    --------
    rope_learned

    Examples
    --------
    >>> from petheory import encodings
    >>> t = encodings.rope_sinusoidal(4, 8)
    >>> t.angles.shape, t.additive.shape
    ((4, 4), (4, 8))
    >>> t.apply(t.additive)  # R_p PE_p: the same vector at every p
    array([[0., 1., 0., 1., 0., 1., 0., 1.],
           [0., 1., 0., 1., 0., 1., 0., 1.],
           [0., 1., 0., 1., 0., 1., 0., 1.],
           [0., 1., 0., 1., 0., 1., 0., 1.]])
    """
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
    """RoPE plus an additive learned table (at initialisation).

    Parameters
    ----------
    n, d : int
        Number of positions and (even) vector dimension.
    base : float
        RoPE base.
    pairing : {'interleaved', 'half'}
        Rotated pairs of RoPE.
    seed : int
        Seed of the learned table (as :func:`~petheory.encodings.absolute.learned`).
    std : float
        Standard deviation of its ``N(0, std^2)`` initialisation.

    Returns
    -------
    ScaledRotaryTable
        RoPE angles, shape (n, d/2), with ``additive`` the (n, d) learned rows.

    See Also
    --------
    rope_sinusoidal

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import encodings
    >>> t = encodings.rope_learned(4, 8, seed=0)
    >>> t.angles.shape, t.additive.shape
    ((4, 4), (4, 8))
    >>> bool(np.array_equal(t.additive, encodings.learned(4, 8, seed=0)))  # the 'learned' table, same seed
    True
    """
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    return ScaledRotaryTable(rotary_angles(n, rope_frequencies(d, base=base)), d, pairing,
                             additive=learned(n, d, seed=seed, std=std))
