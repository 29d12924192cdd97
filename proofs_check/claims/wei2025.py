r"""wei2025 (VideoRoPE: What Makes for Good Video Rotary Position Embedding?, arXiv 2502.05173, ICML 2025).

Source read: the arXiv abstract and the HTML v3 opening: "previous RoPE variants, lacking appropriate temporal
dimension allocation, are easily misled by distractors", and VideoRoPE "features low-frequency temporal allocation to
mitigate periodic oscillations". The allocation statement about M-RoPE is checked on what petheory resolves for the
Qwen-VL families (:mod:`proofs_check.claims.huang2025`'s :func:`~proofs_check.claims.huang2025.axis_bands`); the
distractor part (V-NIAH-D) is empirical and not checked.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from proofs_check.claims.huang2025 import axis_bands
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("wei2025 (Wei, Liu, Zang, Dong, Zhang, Cao, Tong, Duan, Guo, Wang, Qiu, Lin; arXiv 2502.05173v3) abstract and "
          "§1 (low-frequency temporal allocation); read in the abstract and the HTML v3 opening; the abstract names no status")


@st.composite
def _cases(draw):
    return {"model_type": draw(st.sampled_from(["qwen2_vl", "qwen2_5_vl"]))}


def temporal_high_frequency(case) -> float:
    """> 0 when M-RoPE's temporal axis does not take the highest-frequency bands: its slowest temporal band against the
    fastest spatial one (log of the frequency ratio; > 0 means some spatial band is faster)."""
    bands, freqs = axis_bands(case["model_type"])
    t = bands["t"]
    others = np.concatenate([b for a, b in bands.items() if a != "t"])
    quantities(temporal_bands=t.tolist(), slowest_temporal_frequency=freqs[t].min(),
               fastest_spatial_frequency=freqs[others].max(), longest_temporal_period=2 * np.pi / freqs[t].min())
    return float(np.log(freqs[others].max() / freqs[t].min()))


@claim(
    id="wei2025.mrope_temporal_high_frequency",
    paper_status=None,
    source=SOURCE,
    statement=r"Abstract: previous RoPE variants lack appropriate temporal dimension allocation; VideoRoPE allocates "
    r"the low frequencies to the temporal axis 'to mitigate periodic oscillations'. Read for M-RoPE (Qwen2-VL): it "
    r"allocates the highest-frequency bands to the temporal axis.",
    kind="exact",
    cases=_cases,
    reconstruction="On the layouts petheory resolves for Qwen2-VL and Qwen2.5-VL (chunked mrope_section (16, 24, 24), "
    "rope_theta 1e6, head dim 128): every temporal band is faster than every spatial band (the quantities give the "
    "slowest temporal band's period, about 160 positions: every temporal band turns fully within a few hundred "
    "frames, the oscillation the abstract names).",
    plants=(
        pl.Plant("the chunked sections taken from the slow end of the ladder",
                 pl.attr("petheory.scheme.MRope.band_axes", lambda real: (lambda self: tuple(reversed(real(self)))))),
    ),
)
def _temporal(case) -> float:
    return temporal_high_frequency(case)
