r"""huang2025 (Revisiting Multimodal Positional Encoding in Vision-Language Models, arXiv 2510.23095; MRoPE-I).

Source read: the arXiv abstract and the HTML v1 opening (Qwen Team): "we identify three key guidelines: positional
coherence, full frequency utilization, and preservation of textual priors", and MRoPE-Interleave (MRoPE-I) is
proposed on them. The allocation rules are checked on what petheory resolves for the Qwen-VL families
(:func:`petheory.models.resolve_config`: Qwen2/2.5-VL's chunked ``mrope_section`` (16, 24, 24), Qwen3-VL's
interleaved layout with (24, 20, 20), the families' defaults as transformers' config classes have them).
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.encodings import rotary
from petheory.models import resolve_config
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("huang2025 (Huang, Liu, Song, Hou, Chang, Lin, Bai; arXiv 2510.23095v1) abstract (the three guidelines) and "
          "§1; read in the abstract and the HTML v1 opening; the abstract names no status")

#: model type -> (mrope_section, rope_theta, interleaved): the Qwen-VL families' defaults (transformers' config classes)
QWEN_VL = {"qwen2_vl": ((16, 24, 24), 1e6, False), "qwen2_5_vl": ((16, 24, 24), 1e6, False),
           "qwen3_vl": ((24, 20, 20), 5e5, True)}


def axis_bands(model_type: str) -> tuple[dict, np.ndarray]:
    """({axis: indices of the rotary bands it follows}, the bands' frequencies) as petheory resolves a config of the
    family with its default M-RoPE sections (head dim 128)."""
    sections, theta, interleaved = QWEN_VL[model_type]
    rope = {"rope_type": "default", "mrope_section": list(sections)}
    if interleaved:
        rope["mrope_interleaved"] = True
    cfg = {"model_type": model_type, "hidden_size": 4096, "num_attention_heads": 32, "num_key_value_heads": 8,
           "num_hidden_layers": 1, "rope_theta": theta, "rope_scaling": rope, "max_position_embeddings": 32768}
    pos = resolve_config(cfg).layers[0].positions
    axes = np.array(pos.mrope.band_axes())
    freqs = rotary.rope_frequencies(pos.d, base=pos.params["base"], rotary_dim=pos.params.get("rotary_dim", pos.d))
    return {a: np.flatnonzero(axes == a) for a in pos.mrope.axes}, freqs


def coverage(model_type: str) -> dict:
    """Per axis, the share of the ladder's log-frequency range its bands span (1 = from the fastest to the slowest)."""
    bands, freqs = axis_bands(model_type)
    span = np.log(freqs[0] / freqs[-1])
    return {a: float(np.log(freqs[b].max() / freqs[b].min()) / span) if b.size else 0.0 for a, b in bands.items()}


#: 'Full frequency utilization' read as: every axis spans at least this share of the ladder's log-frequency range.
#: Derived from the contrast the abstract draws, 'across the whole spectrum' against 'one contiguous third': an axis
#: that spans two thirds of the range has bands in the first and in the last third of the ladder, which an axis
#: confined to one contiguous third (at most 1/3) or to two adjacent thirds (less than 2/3) never has. The layouts:
#: on a 64-band ladder (head dim 128) band k sits at k/63 of the log range; Qwen3-VL's interleaved (24, 20, 20) gives
#: h the bands 1, 4, ..., 58 and w 2, 5, ..., 59 (stride 3, 20 bands: (58 - 1)/63 = 0.905) and t the rest, 0 to 63
#: (1.0); Qwen2-VL's chunked (16, 24, 24) gives t bands 0-15 (15/63 = 0.238), h 16-39 and w 40-63 (23/63 = 0.365).
FULL = 2 / 3


@st.composite
def _cases(draw):
    return {"model_type": draw(st.sampled_from(sorted(QWEN_VL)))}


def full_frequency(case) -> float:
    """> 0 when an interleaved family leaves an axis short of the full range, or a chunked one gives every axis it."""
    mt = case["model_type"]
    cov = coverage(mt)
    quantities(coverage_per_axis=cov, interleaved=QWEN_VL[mt][2])
    short = FULL - min(cov.values())
    return short if QWEN_VL[mt][2] else -short


@claim(
    id="huang2025.interleave_full_frequency",
    paper_status=None,
    source=SOURCE,
    statement=r"Abstract: a guideline of multimodal RoPE is 'full frequency utilization'; MRoPE-Interleave (MRoPE-I) "
    r"meets it, where the chunked frequency allocation of M-RoPE (Qwen2-VL) does not: interleaving gives each of the "
    r"t, h, w axes bands across the whole spectrum, chunking gives each axis one contiguous third.",
    kind="exact",
    cases=_cases,
    reconstruction="'Full frequency utilization' read as: each axis's bands span at least two thirds of the ladder's "
    "log-frequency range, i.e. reach into its first and its last third (the threshold derived from the abstract's "
    "contrast of the whole spectrum with one contiguous third; an interleaved axis of s bands at stride 3 spans "
    "3(s - 1)/63 of a 64-band ladder, Qwen3-VL's h and w 57/63 = 0.905, a chunked axis (s - 1)/63, at most 0.365). "
    "Checked on the layouts petheory resolves (resolve_config, MRope.band_axes, the rotary "
    "ladder): Qwen3-VL's interleaved (24, 20, 20) must meet it, Qwen2-VL's and Qwen2.5-VL's chunked (16, 24, 24) "
    "must not (a conjunction over the three families).",
    plants=(
        pl.Plant("the interleaved M-RoPE layout laid out in chunks",
                 pl.attr("petheory.scheme.MRope.band_axes", lambda real: pl.chunked_axes(real))),
        pl.Plant("the resolver reads every Qwen-VL config as Qwen2.5-VL's (chunked)",
                 pl.attr("proofs_check.claims.huang2025.resolve_config", lambda real: (lambda cfg: real(pl.as_qwen25(cfg))))),
    ),
)
def _full_frequency(case) -> float:
    return full_frequency(case)
