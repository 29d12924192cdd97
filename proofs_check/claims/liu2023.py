r"""liu2023 (Scaling Laws of RoPE-based Extrapolation, arXiv 2310.05209): critical dimension and extrapolation bound.

Source read: the authors' own README (github.com/OpenLMLab/scaling-rope, ``README.md`` at 101b93b1, in Chinese,
with the paper's equation tags): Lemma 1 (the critical dimension, eqs. 12-13) and Theorem 3 (the extended scaling
law, eqs. 16a-16d), as transcribed and translated in ``../shared/papers/outside-texts.md`` §1a; one English
sentence of the paper quoted by a third party (:math:`d_{extra} = 92` for Llama 2). Theorems 1 and 2 (smaller and larger
bases) were not found in any copy; the README's Theorem 3 contains the larger-base bound (16b).
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import long_context as lc
from petheory.encodings import rotary
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("liu2023 (Liu, Yan, Zhang, An, Qiu, Lin; arXiv 2310.05209, ICLR 2024) {where}; read in the authors' README "
          "(github.com/OpenLMLab/scaling-rope, README.md @ 101b93b1, Chinese, with the paper's equation tags)")


@st.composite
def _cases(draw):
    return {"d": draw(st.sampled_from([8, 16, 32, 64, 96, 128, 256])), "base": draw(st.floats(1.5, 1e7)),
            "context": draw(st.integers(1, 1 << 20))}


def critical_dimension(case) -> float:
    """> 0 when :math:`d_{extra}` differs from twice the number of bands whose period :math:`2\\pi / \\theta_i` is shorter than :math:`T_{train}`."""
    d, b, T = case["d"], case["base"], case["context"]
    w = rotary.rope_frequencies(d, base=b)
    counted = 2 * int(np.sum(2 * math.pi / w < T))
    de = lc.liu_critical_dimension(d, b, T)
    quantities(d_extra=de, twice_bands_with_period_below_T=counted)
    return float(abs(de - counted))


@claim(
    id="liu2023.critical_dimension",
    paper_status="lemma",
    source=SOURCE.format(where="Lemma 1, eqs. 12-13"),
    statement=r"Lemma 1 (eqs. 12-13): the critical dimension $d_{extra} = 2\lceil \frac d2 \log_{10000}\frac{T_{train}}{2\pi}\rceil$ "
    r"counts the dimensions whose period $2\pi\cdot 10000^{2i/d}$ is covered by the training context; the dimensions "
    r"beyond it never complete a period in training.",
    kind="exact",
    cases=_cases,
    reconstruction="Any base b > 1 in place of 10000 (the formula's derivation does not use its value); 'covered' "
    "read as a period strictly shorter than T_train, the reading under which the ceiling is exact (a period exactly "
    "T_train, a measure-zero case, is counted by the ceiling as not covered). Clipped to [0, d].",
    plants=(
        pl.Plant("critical dimension off by one band",
                 pl.attr("petheory.bounds.long_context.liu_critical_dimension", lambda real: (lambda d, b, T: real(d, b, T) + 2))),
    ),
)
def _critical_dimension(case) -> float:
    return critical_dimension(case)


@st.composite
def _bound_cases(draw):
    return {"d": draw(st.sampled_from([16, 64, 128])), "pre_base": draw(st.floats(100.0, 1e5)),
            "context": draw(st.integers(64, 1 << 16)), "tuned_base": draw(st.floats(100.0, 1e9))}


def extrapolation_bound(case) -> float:
    """> 0 when, under the tuned base, the critical band's angle at :math:`T_{extra}` is not one full turn."""
    d = case["d"]
    de = lc.liu_critical_dimension(d, case["pre_base"], case["context"])
    if de >= d:
        return -1.0  # every band turned in training: no critical band, no bound
    T = lc.liu_extrapolation_bound(d, de, case["tuned_base"])
    theta_c = rotary.rope_frequencies(d, base=case["tuned_base"])[de // 2]
    quantities(d_extra=de, T_extra=T, angle_at_T_extra=T * theta_c)
    # relative rounding of base**(de/d) and of the product: a few ulps of 2 pi
    return abs(T * theta_c - 2 * math.pi) - 64 * np.finfo(float).eps * 2 * math.pi


@claim(
    id="liu2023.extrapolation_bound",
    paper_status="theorem",
    source=SOURCE.format(where="Theorem 3, eq. 16b"),
    statement=r"Theorem 3 (16b): tuned with base $\beta > \beta_0$, the extrapolation upper bound is "
    r"$T_{extra} = 2\pi\beta^{d_{extra}/d}$, the period of the critical dimension under $\beta$.",
    kind="exact",
    cases=_bound_cases,
    evidence="definitional",
    evidence_note="T_extra is, by its formula, the period under beta of band d_extra/2; the check confirms that the "
    "implemented bound is that period (angle one full turn). That the *model* extrapolates exactly that far is "
    "empirical (Liu et al.'s Llama 2 fine-tuning), not decided here.",
    plants=(
        pl.Plant("T_extra 1% long",
                 pl.attr("petheory.bounds.long_context.liu_extrapolation_bound", lambda real: (lambda d, de, b: 1.01 * real(d, de, b)))),
    ),
)
def _extrapolation_bound(case) -> float:
    return extrapolation_bound(case)


@st.composite
def _tune_cases(draw):
    t_train = draw(st.integers(8, 1 << 16))
    return {"d": draw(st.sampled_from([16, 64, 128, 256])), "t_train": t_train,
            "t_tune": t_train + draw(st.integers(0, 1 << 18)), "fraction": draw(st.floats(0.0, 1.0))}


def critical_base(t_train: int, t_tune: int) -> float:
    """Eq. 16a: :math:`\\beta_0 = 10000^{\\log_{T_{train} / 2\\pi}(T_{tune} / 2\\pi)}`."""
    return 10000.0 ** (math.log(t_tune / (2 * math.pi)) / math.log(t_train / (2 * math.pi)))


def updated_dimension_grows(case) -> float:
    """> 0 when a base :math:`1 < \\beta \\le \\beta_0` gives :math:`d'_{extra}` (the library's critical dimension at :math:`T_{tune}`) below :math:`d_{extra}`."""
    d, tt, tu = case["d"], case["t_train"], case["t_tune"]
    b0 = critical_base(tt, tu)
    beta = 1.0 + case["fraction"] * (b0 - 1.0)  # 1 < beta <= beta_0
    if beta <= 1.0 + 1e-9:
        return -1.0
    de = lc.liu_critical_dimension(d, 10000.0, tt)
    de_new = lc.liu_critical_dimension(d, beta, tu)
    quantities(beta_0=b0, beta=beta, d_extra=de, d_extra_updated=de_new)
    return float(de - de_new)


@claim(
    id="liu2023.updated_critical_dimension",
    paper_status="theorem",
    source=SOURCE.format(where="Theorem 3, eqs. 16a and 16c"),
    statement=r"Theorem 3 (16a, 16c): with $T_{tune} \ge T_{train}$ and the critical base "
    r"$\beta_0 = 10000^{\log_{T_{train}/2\pi}(T_{tune}/2\pi)}$, a base $\beta \le \beta_0$ updates the critical "
    r"dimension to $d'_{extra} = 2\lceil \frac d2 \log_\beta \frac{T_{tune}}{2\pi}\rceil \ge "
    r"2\lceil \frac d2 \log_{10000} \frac{T_{train}}{2\pi}\rceil = d_{extra}$.",
    kind="exact",
    cases=_tune_cases,
    reconstruction="Bases 1 < beta <= beta_0 (the README's 'beta > 1'); T_train > 2 pi (below it log_{T_train/2pi} "
    "changes sign); both dimensions by the library's liu_critical_dimension (clipped to [0, d]). The claim that "
    "extrapolation then reaches T_tune (and past it below beta_1..3, 16d) is empirical and not checked.",
    plants=(
        pl.Plant("the critical dimension one band short at any base but 10000",
                 pl.attr("petheory.bounds.long_context.liu_critical_dimension",
                       lambda real: (lambda d, b, T: real(d, b, T) - (2 if b != 10000.0 else 0)))),
    ),
)
def _updated_dimension(case) -> float:
    return updated_dimension_grows(case)


claim(
    id="liu2023.smaller_base_extrapolation",
    paper_status="theorem",
    source=SOURCE.format(where="Theorem 1 (scaling law for smaller bases)"),
    statement="Theorem 1, named only (the abstract): fine-tuning with a base smaller than 10000 in the pre-training "
    "context improves extrapolation, without a bound once every dimension completes a period in training.",
    kind="exact",
    skip_reason="Theorem 1's conditions (the critical base below which every band turns within the tuning length): "
    "the English text of Theorems 1-2 is in no copy found (the authors' README gives Lemma 1 and Theorem 3 only; "
    "Theorem 3's 16c-16d cover a smaller base at T_tune >= T_train, liu2023.updated_critical_dimension): only the arXiv abstract/HTML opening and public summaries were found "
    "(searched: stored web pages, public GitHub copies of the paper, the authors' code; searched again on "
    "2026-11-25 for exact phrases of the body ('Scaling Law of Smaller Bases', 'Scaling Law of Larger Bases', "
    "'critical dimension for extrapolation') in public repositories and paper-text collections such as "
    "commotum/4D Notes/Vision/pdfs-3: only the abstract, OpenReview reviews and notes were found)",
)
