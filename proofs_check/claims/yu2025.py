r"""yu2025 (ComRoPE, arXiv 2506.03737, CVPR 2025): the group law of rotary encodings.

Source read: the paper's full text (a Markdown transcription of the CVPR 2025 paper stored in a public repository,
found by its title) and the authors' README (github.com/Longin-Yu/ComRoPE @ 7aeef083). Definitions 4-5: a rotation
matrix function parameterized by N skew-symmetric angle matrices :math:`\mathcal A = \{A_1, \dots, A_N\}` is
:math:`R(x; \mathcal A) = \exp(\sum_i A_i x_i)`, :math:`x \in \mathbb R^N`; Proposition 1: f is a RoPE function iff
:math:`R(x)^\top R(y) = R(y - x)` for all x, y (the RoPE Equation); **Theorem 1**: "Let
:math:`R(\cdot; \mathcal A)` (N > 1) be a rotation matrix function parameterized by angle matrices. The rotation
difference :math:`R(x)^\top R(y)` can be represented by the location difference y - x if and only if
:math:`\mathcal A` pairwise commute" (proof: App. A.1, Lemmas 1-3, the standard fact that
:math:`e^{As}e^{Bt} = e^{As+Bt}` for all s, t iff AB = BA). Remark 1: LieRE's trained generators (2406.10322) need not
commute, so its R does not satisfy the RoPE Equation. §3.3's sufficient constructions: block-diagonal generators whose
blocks commute (ComRoPE-AP: each block follows one axis, Proposition 2; ComRoPE-LD: linearly dependent blocks,
Proposition 3).

The same statement is the "relativity" of Liu et al.'s "Rethinking RoPE" (2504.06308), whose text past its abstract
was not read here; the claim is ComRoPE's.
"""

from __future__ import annotations

import functools

import numpy as np
from hypothesis import strategies as st
from scipy.linalg import expm

from petheory.encodings import rotary
from petheory.models import resolve_config
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("yu2025 (Yu, Jiang, Jia, Yan, Liu, Qian, Li, Dong, Zhang, Yuan; ComRoPE, arXiv 2506.03737, CVPR 2025) {where}; "
          "read in the full text (a Markdown transcription of the paper in a public repository) and the authors' README "
          "(github.com/Longin-Yu/ComRoPE @ 7aeef083)")
EPS = np.finfo(float).eps

#: Qwen-VL families petheory resolves with M-RoPE (3 position axes t, h, w): model type -> (sections, base, interleaved)
MROPE_FAMILIES = {"qwen2_vl": ((16, 24, 24), 1e6, False), "qwen3_vl": ((24, 20, 20), 5e5, True)}
P_MAX = 64  # 3-D positions drawn in [0, P_MAX)^3; shifts too


@functools.lru_cache(maxsize=4)
def mrope_layer(model_type: str):
    """The rotary layer petheory resolves for a config of the family (head dim 128): its Positions record."""
    sections, base, interleaved = MROPE_FAMILIES[model_type]
    rope = {"rope_type": "default", "mrope_section": list(sections), **({"mrope_interleaved": True} if interleaved else {})}
    cfg = {"model_type": model_type, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
           "num_hidden_layers": 1, "rope_theta": base, "rope_scaling": rope, "max_position_embeddings": 32768}
    return resolve_config(cfg).layers[0].positions


def mrope_rotate(pos, table: rotary.RotaryTable, band_axis: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Rotate the vector ``x`` (d,) to the 3-D position ``pos``: band b turns by the library's RoPE angle of the
    coordinate of the axis it follows (``table.angles[pos[axis(b)], b]``), through the library's rotation."""
    ang = table.angles[np.asarray(pos)[band_axis], np.arange(band_axis.size)]
    return rotary.RotaryTable(ang[None, :], table.d, table.pairing).apply(x[None, :])[0]


def _skew(rng, d: int, scale: float) -> np.ndarray:
    m = rng.standard_normal((d, d)) * scale
    return m - m.T


@st.composite
def _cases(draw):
    kind = draw(st.sampled_from(["mrope", "comrope_ld", "noncommuting"]))
    pos = st.lists(st.integers(0, P_MAX - 1), min_size=3, max_size=3)
    return {"kind": kind, "family": draw(st.sampled_from(sorted(MROPE_FAMILIES))), "x": draw(pos), "y": draw(pos),
            "shift": draw(pos), "scale": draw(st.floats(0.05, 2.0)), "seed": draw(st.integers(0, 2**16))}


def _mrope_relative(case) -> float:
    """> 0 when the library's M-RoPE logit q^T R(x)^T R(y) k differs between (x, y), (x + s, y + s) and the pair
    shifted to the origin (x - m, y - m), m = min(x, y): not a function of y - x."""
    p = mrope_layer(case["family"])
    axes = np.array([p.mrope.axes.index(a) for a in p.mrope.band_axes()])
    table = rotary.rope(3 * P_MAX, p.d, base=p.params["base"], pairing=p.params["pairing"])
    rng = np.random.default_rng(case["seed"])
    q, k = rng.standard_normal(p.d), rng.standard_normal(p.d)
    x, y, s = (np.asarray(case[f]) for f in ("x", "y", "shift"))
    m = np.minimum(x, y)
    logit = lambda a, b: float(mrope_rotate(a, table, axes, q) @ mrope_rotate(b, table, axes, k))
    base_val = logit(x, y)
    spread = max(abs(logit(x + s, y + s) - base_val), abs(logit(x - m, y - m) - base_val))
    # each rotated coordinate carries the rounding of cos/sin of an angle up to 3 P_MAX (the fastest band turns 1
    # radian a position): <= (2 + 3 P_MAX) eps |x|; a d-term dot product adds d eps: both sides, 4 d eps (2 + 3 P_MAX)
    tol = 4 * p.d * EPS * (2 + 3 * P_MAX) * float(np.linalg.norm(q) * np.linalg.norm(k))
    quantities(logit=base_val, largest_change_under_a_common_shift=spread, tolerance=tol)
    return spread - tol


def rope_equation_defect(gens, x, y) -> tuple[float, float]:
    """(largest entry of :math:`R(x)^\\top R(y) - R(y - x)`, its rounding tolerance) for :math:`R(v) = \\exp(\\sum_i v_i A_i)` (scipy's ``expm``)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    R = lambda v: expm(sum(g * c for g, c in zip(gens, v)))
    err = float(np.abs(R(x).T @ R(y) - R(y - x)).max())
    # expm's relative backward error is ~ eps per Pade/squaring step on a matrix of norm ||sum v_i A_i||, the product
    # and difference of d x d orthogonal matrices add d eps: 64 d eps (1 + the largest norm)
    norm = max(float(np.linalg.norm(sum(g * c for g, c in zip(gens, v)), 2)) for v in (x, y, y - x))
    return err, 64 * len(gens[0]) * EPS * (1 + norm)


def comrope_ld_generators(seed: int, scale: float, n_axes: int = 3) -> list[np.ndarray]:
    """ComRoPE-LD's angle matrices (Proposition 3, eq. 10): :math:`A_i = \\mathrm{diag}(\\theta_i S_1, \\theta_i S_2)`, :math:`S_j = P_j - P_j^\\top`
    random 4x4 skew blocks, theta_i in [0.01, 0.1]: linearly dependent blockwise, so they commute."""
    rng = np.random.default_rng(seed)
    S1, S2 = _skew(rng, 4, scale), _skew(rng, 4, scale)
    z = np.zeros((4, 4))
    return [np.block([[t * S1, z], [z, t * S2]]) for t in rng.uniform(0.01, 0.1, n_axes)]


def _comrope_ld_relative(case) -> float:
    """> 0 when ComRoPE-LD's commuting generators give R(x)^T R(y) != R(y - x)."""
    err, tol = rope_equation_defect(comrope_ld_generators(case["seed"], case["scale"]), case["x"], case["y"])
    quantities(largest_entry_of_difference=err, tolerance=tol)
    return err - tol


def _noncommuting_not_relative(case) -> float:
    """> 0 when two generic (non-commuting) skew generators, as LieRE trains them, still give a relative encoding at
    Lemma 1's probe: x = (-t, 0), y = (0, t), where R(x)^T R(y) = e^{A t} e^{B t} and R(y - x) = e^{(A + B) t} differ by
    t^2 [A, B] / 2 + O(t^3). Undecided (-1) where that difference is not above rounding."""
    rng = np.random.default_rng(case["seed"])
    A, B = _skew(rng, 4, case["scale"]), _skew(rng, 4, case["scale"])
    na, nb = (float(np.linalg.norm(M, 2)) for M in (A, B))
    t = 0.01 / max(na, nb)
    D = expm(A * t) @ expm(B * t) - expm((A + B) * t)
    second = t * t * float(np.linalg.norm(A @ B - B @ A, 2)) / 2
    third = (t * (na + nb)) ** 3 * np.exp(t * (na + nb))  # the Taylor remainders of the three exponentials
    tol = 64 * 4 * EPS * 3  # three expm of norm <= 0.02 and their product
    quantities(difference=float(np.linalg.norm(D, 2)), second_order_term=second, tolerance=tol)
    if second - third <= 2 * tol:
        return -1.0  # nearly commuting: the difference is not above rounding, so this case cannot test the direction
    return tol - float(np.linalg.norm(D, 2))


@claim(
    id="yu2025.commuting_iff_relative",
    paper_status="theorem",
    source=SOURCE.format(where="§3.2, Theorem 1 (with Proposition 1 and Definitions 4-5; proof App. A.1), its cases "
                         "from §3.2, Remark 1 (LieRE) and §3.3, Propositions 2-3 (ComRoPE-AP, ComRoPE-LD)"),
    statement=r"Theorem 1: 'Let $\mathbf R(\cdot;\mathcal A):\mathbb R^N\to\mathbb R^{d\times d}$ (N > 1) be a rotation "
    r"matrix function parameterized by angle matrices $\mathcal A$. The rotation difference $\mathbf R(x)^\top\mathbf R(y)$ "
    r"can be represented by the location difference $y - x$ if and only if $\mathcal A$ pairwise commute', with "
    r"$\mathbf R(x;\mathcal A) = \exp(\sum_i \mathbf A_i x_i)$, $\mathbf A_i$ skew-symmetric.",
    kind="exact",
    cases=_cases,
    reconstruction="A conjunction of its two directions, each case one of three kinds. If (commuting => relative): "
    "(a) the library's M-RoPE (N = 3 axes t, h, w) for Qwen2-VL (chunked sections) and Qwen3-VL (interleaved) as "
    "petheory resolves their configs: each band follows one axis (ComRoPE-AP's structure, Proposition 2: block-diagonal "
    "so(2) generators, which commute), its angle the library's RoPE table at that axis' coordinate, rotated by the "
    "library's RotaryTable.apply; the logit q^T R(x)^T R(y) k must not change under a common shift of x and y (and "
    "equal its value at the pair moved to the origin), within the rounding of cos/sin of angles up to 3 P_max; (b) "
    "ComRoPE-LD's generators (Proposition 3: B_i = theta_i (P - P^T), two 4x4 blocks, three axes) through scipy's "
    "expm: R(x)^T R(y) = R(y - x). Only if (not commuting => not relative): two random 4x4 skew generators (LieRE's "
    "kind, Remark 1) at Lemma 1's probe x = (-t, 0), y = (0, t), t = 0.01 / max norm, where the theorem predicts a "
    "difference t^2 [A, B] / 2 + O(t^3); the case counts when that term is above rounding, and fails if the computed "
    "difference is within rounding. Positions integer in [0, 64)^3.",
    plants=(
        pl.Plant("the library's rotation turns by angle (1 + 1e-3 angle) (not linear in the position)",
                 pl.attr("petheory.encodings.rotary.RotaryTable.apply", pl.angles_not_linear)),
        pl.Plant("the RoPE table skips position 1 (angles (p + 1) theta from p = 1 on)",
                 pl.attr("petheory.encodings.rotary.rope", pl.rope_skips_position_one)),
    ),
)
def commuting_iff_relative(case) -> float:
    return {"mrope": _mrope_relative, "comrope_ld": _comrope_ld_relative,
            "noncommuting": _noncommuting_not_relative}[case["kind"]](case)
