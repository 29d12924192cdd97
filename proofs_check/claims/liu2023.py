r"""liu2023 (Scaling Laws of RoPE-based Extrapolation, arXiv 2310.05209): critical dimension and extrapolation bound.

Source checked: the arXiv abstract ("critical dimension for extrapolation", base tuning in the
pre-training context) and public summaries of §3.3; the formula is recomputed against a direct
count of the bands, Llama 2's d_extra = 92 (d = 128, base 1e4, T_train = 4096) as the paper reports.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from petheory.encodings import rope_frequencies
from proofs_check.engine import claim, quantities

SOURCE = ("liu2023 (Liu, Yan, Zhang, Gu, Qiu, Wang; arXiv 2310.05209, ICLR 2024) §3.3, Eq. 8 (critical dimension) and "
          "Eq. 9 / Theorem 2 (extrapolation bound of a base-tuned model). Checked against the abstract and public "
          "summaries; d_extra = 92 for Llama 2 (d=128, base 1e4, T_train 4096) recomputed.")


@st.composite
def _cases(draw):
    return {"d": draw(st.sampled_from([8, 16, 32, 64, 96, 128, 256])), "base": draw(st.floats(1.5, 1e7)),
            "context": draw(st.integers(1, 1 << 20))}


def critical_dimension(case) -> float:
    """> 0 when d_extra differs from twice the number of bands whose period 2 pi / theta_i is shorter than T_train."""
    d, b, T = case["d"], case["base"], case["context"]
    w = rope_frequencies(d, base=b)
    counted = 2 * int(np.sum(2 * math.pi / w < T))
    de = lc.liu_critical_dimension(d, b, T)
    quantities(d_extra=de, twice_bands_with_period_below_T=counted)
    return float(abs(de - counted))


@claim(
    id="liu2023.critical_dimension",
    paper_status="theorem",
    source=SOURCE,
    statement=r"Eq. 8: the critical dimension $d_{extra} = 2\lceil \frac d2 \log_{10000}\frac{T_{train}}{2\pi}\rceil$ "
    r"counts the dimensions whose period $2\pi\cdot 10000^{2i/d}$ is covered by the training context; the dimensions "
    r"beyond it never complete a period in training.",
    kind="exact",
    cases=_cases,
    reconstruction="Any base b > 1 in place of 10000 (the formula's derivation does not use its value); 'covered' "
    "read as a period strictly shorter than T_train, the reading under which the ceiling is exact (a period exactly "
    "T_train, a measure-zero case, is counted by the ceiling as not covered). Clipped to [0, d].",
)
def _critical_dimension(case) -> float:
    return critical_dimension(case)


@st.composite
def _bound_cases(draw):
    return {"d": draw(st.sampled_from([16, 64, 128])), "pre_base": draw(st.floats(100.0, 1e5)),
            "context": draw(st.integers(64, 1 << 16)), "tuned_base": draw(st.floats(100.0, 1e9))}


def extrapolation_bound(case) -> float:
    """> 0 when, under the tuned base, the critical band's angle at T_extra is not one full turn."""
    d = case["d"]
    de = lc.liu_critical_dimension(d, case["pre_base"], case["context"])
    if de >= d:
        return -1.0  # every band turned in training: no critical band, no bound
    T = lc.liu_extrapolation_bound(d, de, case["tuned_base"])
    theta_c = rope_frequencies(d, base=case["tuned_base"])[de // 2]
    quantities(d_extra=de, T_extra=T, angle_at_T_extra=T * theta_c)
    # relative rounding of base**(de/d) and of the product: a few ulps of 2 pi
    return abs(T * theta_c - 2 * math.pi) - 64 * np.finfo(float).eps * 2 * math.pi


@claim(
    id="liu2023.extrapolation_bound",
    paper_status="theorem",
    source=SOURCE,
    statement=r"Theorem 2 (larger bases): a model pre-trained with base 10000 at $T_{train}$ and tuned with base "
    r"$\beta$ extrapolates up to $T_{extra} = 2\pi\beta^{d_{extra}/d}$, the period of the critical dimension under "
    r"$\beta$.",
    kind="exact",
    cases=_bound_cases,
    evidence="definitional",
    evidence_note="T_extra is, by its formula, the period under beta of band d_extra/2; the check confirms that the "
    "implemented bound is that period (angle one full turn). That the *model* extrapolates exactly that far is "
    "empirical (Liu et al.'s Llama 2 fine-tuning), not decided here.",
)
def _extrapolation_bound(case) -> float:
    return extrapolation_bound(case)


claim(
    id="liu2023.smaller_base_extrapolation",
    paper_status="theorem",
    source=SOURCE.replace("§3.3, Eq. 8 (critical dimension) and Eq. 9 / Theorem 2 (extrapolation bound of a "
                          "base-tuned model)", "Theorem 1 (scaling law for smaller bases)"),
    statement="Theorem 1, named only (the abstract): fine-tuning with a base smaller than 10000 in the pre-training "
    "context improves extrapolation, without a bound once every dimension completes a period in training.",
    kind="exact",
    skip_reason="Theorem 1's conditions (the critical base below which every band turns within the tuning length): "
    "the full text could not be reached: only the arXiv abstract/HTML opening and public summaries were found "
    "(searched: stored web pages, public GitHub copies of the paper, the authors' code; searched again on "
    "2026-11-25 for exact phrases of the body ('Scaling Law of Smaller Bases', 'Scaling Law of Larger Bases', "
    "'critical dimension for extrapolation') in public repositories and paper-text collections such as "
    "commotum/4D Notes/Vision/pdfs-3: only the abstract, OpenReview reviews and notes were found)",
)
