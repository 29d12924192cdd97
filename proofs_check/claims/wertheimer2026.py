r"""wertheimer2026 (Wertheimer, Zhang, Liu, Yin, Wang, "Frayed RoPE and Long Inputs: A Geometric Perspective",
arXiv 2603.18017, ICLR 2026): what the abstract says of channels that rotate out of distribution.

Source read: the abstract (arXiv 2603.18017v1). It endorses one statement about RoPE's channels: "Prior analyses
assert (rightly) that long inputs cause channels to rotate 'out of distribution'". The rest, the geometry of sink
tokens (key and query clouds that attention clusters apart, and RoPE on longer inputs damaging that separation) and
RoPE-ID ("apply RoPE with high frequency to a subset of channels"), rests on trained models and constructions the
abstract does not give: reasoned rows of the coverage page.

Reading of "rotate out of distribution" (ours, said in the claim): at positions 0..L-1 (training) a channel of
frequency theta takes the angles m theta mod 2 pi; at a later position it is out of distribution when its angle lies
farther than half a step (theta / 2) from every angle it took in training (no training position was as close as its
neighbours are to each other). A channel whose period 2 pi / theta is at most L has seen the whole circle in steps of
theta and never is; one whose period exceeds 2L meets fresh angles from position L on.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory.encodings import rotary
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("wertheimer2026 (Wertheimer, Zhang, Liu, Yin, Wang; arXiv 2603.18017v1, ICLR 2026) {where}; read in the "
          "abstract (the paper's text not found); the abstract names no status")


def out_of_distribution(theta: float, train: int, upto: int) -> float:
    """Largest circular distance, beyond half a step (theta / 2), from an angle m theta (train <= m < upto) to the
    angles seen at 0 <= m < train, all mod 2 pi; > 0 means out of distribution."""
    two_pi = 2 * math.pi
    seen = np.sort(np.mod(np.arange(train) * theta, two_pi))
    new = np.mod(np.arange(train, upto) * theta, two_pi)
    i = np.searchsorted(seen, new)
    left = seen[(i - 1) % seen.size] - two_pi * (i == 0)  # wrap: the last seen angle, one turn down
    right = seen[i % seen.size] + two_pi * (i == seen.size)
    dist = np.minimum(new - left, right - new)
    return float(dist.max() - theta / 2)


@st.composite
def _cases(draw):
    return {"d": draw(st.sampled_from([8, 16, 32, 64, 128])), "log10_base": draw(st.floats(1.0, 6.0)),
            "train": draw(st.integers(8, 2048))}


@claim(
    id="wertheimer2026.channels_rotate_ood",
    source=SOURCE.format(where="abstract (out of distribution)"),
    statement=r"'Prior analyses assert (rightly) that long inputs cause channels to rotate \"out of distribution\"'.",
    kind="exact",
    paper_status=None,
    cases=_cases,
    reconstruction="On the library's ladder (rope_frequencies), training length L and inputs of 2L: when the ladder's "
    "slowest period 2 pi base^((d-2)/d) (the formula, not the library) exceeds 2L, some channel takes an angle at "
    "a position in L..2L-1 farther than half its step from every angle of positions 0..L-1; and no channel whose period "
    "is at most L ever does (a conjunction: the long input is what causes it). Angles are reduced mod 2 pi from "
    "m theta with m theta <= 2L theta_max, so they err by about 2L theta_max eps, far below a half step.",
    plants=(
        pl.Plant("the library's ladder frozen (no channel rotates)",
                 pl.scaled("petheory.encodings.rotary.rope_frequencies", 0.0)),
        pl.Plant("every channel of the ladder turns a third of a circle a position",
                 pl.attr("petheory.encodings.rotary.rope_frequencies",
                       lambda real: (lambda *a, **k: np.full_like(real(*a, **k), 2 * np.pi / 3)))),
    ),
)
def channels_rotate_ood(case) -> float:
    d, L = case["d"], case["train"]
    base = 10.0 ** case["log10_base"]
    theta = rotary.rope_frequencies(d, base=base)
    ood = np.array([out_of_distribution(float(t), L, 2 * L) for t in theta])
    tol = 8 * 2 * L * float(theta.max()) * np.finfo(float).eps
    slow = 2 * math.pi * base ** ((d - 2) / d) > 2 * L
    with np.errstate(over="ignore"):  # a frozen band (theta ~ 0) has an infinite period: not fast, as intended
        fast = 2 * math.pi / np.maximum(theta, np.finfo(float).tiny) <= L
    quantities(slowest_period=2 * math.pi * base ** ((d - 2) / d), channels_out_of_distribution=int((ood > tol).sum()),
               fast_channels_out_of_distribution=int((ood[fast] > tol).sum()))
    some = (1.0 if ood.max() <= tol else -1.0) if slow else -1.0  # a failure when no channel goes out of distribution
    none_fast = float(ood[fast].max()) - tol if fast.any() else -1.0  # > 0 when a fast channel does
    return max(some, none_fast)
