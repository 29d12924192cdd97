r"""lin2025 (Forgetting Transformer: Softmax Attention with a Forget Gate, arXiv 2503.02130, ICLR 2025).

Source read: the arXiv abstract (v2: "a forget gate can be naturally incorporated into Transformers by
down-weighting the unnormalized attention scores in a data-dependent way") and the authors' code,
github.com/zhixuan-lin/forgetting-transformer, ``src/forgetting_transformer/ops/forgetting_attention.py`` at
0c44f84b: ``log_lambda = torch.cumsum(log_fgate, dim=-1)``, and the kernel adds ``log_lambda`` of the query's
position minus that of the key's to the scaled logit -- the bias :math:`D_{ij} = \sum_{l=j+1}^{i} \log f_l`. The
paper's own text past its abstract was not read; the formula is the authors' code's.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory import softmax
from petheory.encodings import bias
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities

SOURCE = ("lin2025 (Lin, Nikishin, He, Courville; arXiv 2503.02130, ICLR 2025) §2 (Forgetting Attention), read in the "
          "abstract and the authors' code (github.com/zhixuan-lin/forgetting-transformer, "
          "src/forgetting_transformer/ops/forgetting_attention.py @ 0c44f84b: log_lambda = cumsum(log_fgate), the bias "
          "log_lambda[i] - log_lambda[j]); the sources read names no status")
EPS = np.finfo(float).eps


def forget_bias(log_fgate: np.ndarray) -> np.ndarray:
    """The authors' decay bias for one head: :math:`D_{ij} = \\log\\lambda_i - \\log\\lambda_j`, :math:`\\log\\lambda` = ``cumsum(log f)``, (n, n)."""
    log_lambda = np.cumsum(log_fgate)
    return log_lambda[:, None] - log_lambda[None, :]


@st.composite
def _cases(draw):
    return {"n": draw(st.integers(1, 64)), "gate": draw(st.floats(1e-4, 1.0)), "scale": draw(st.floats(0.0, 10.0)),
            "seed": draw(st.integers(0, 2**16))}


def constant_gate_is_alibi(case) -> float:
    """> 0 when Forgetting Attention with every gate f differs from ALiBi attention with slope -log f (the library's
    causal ALiBi bias and softmax) on the same logits."""
    n, f = case["n"], case["gate"]
    logits = case["scale"] * np.random.default_rng(case["seed"]).standard_normal((n, n))
    i, j = np.indices((n, n))
    causal = np.where(j <= i, 0.0, -np.inf)
    fox = softmax.row_softmax(logits + np.where(j <= i, forget_bias(np.full(n, np.log(f))), 0.0) + causal)
    alibi = softmax.row_softmax(logits + bias.alibi(n, slope=-np.log(f), form="causal") + causal)
    gap = float(np.abs(fox - alibi).max())
    quantities(max_gap_in_attention=gap, slope=-np.log(f))
    # the cumulative sum of n logs rounds by <= n eps |log f| per entry, moving a softmax entry by that, relatively
    return gap - 8 * n * EPS * (1.0 + n * abs(np.log(f)) + case["scale"])


@claim(
    id="lin2025.constant_gate_is_alibi",
    paper_status=None,  # the sentence is a consequence of the code's formula; no status word reached
    source=SOURCE,
    statement=r"Forgetting Attention adds $D_{ij} = \sum_{l=j+1}^{i}\log f_l$ to the logit of query i and key j "
    r"($F_{ij} = \prod_{l=j+1}^{i} f_l$ down-weighting it); with a data-independent constant gate $f_l = f$ this is "
    r"$-(i-j)(-\log f)$: ALiBi with slope $-\log f$.",
    kind="exact",
    cases=_cases,
    reconstruction="The bias as the authors' code computes it (forget_bias: cumulative sums of log f), against the "
    "library's causal ALiBi bias (petheory.encodings.alibi, form='causal', slope -log f), both through the "
    "library's row softmax on the same random logits, causal mask; gates f in [1e-4, 1].",
    plants=(
        pl.Plant("the causal ALiBi bias 1% steeper than its slope",
                 pl.attr("petheory.encodings.bias.alibi", lambda real: (lambda n, **k: 1.01 * real(n, **k)))),
    ),
)
def _constant_gate(case) -> float:
    return constant_gate_is_alibi(case)
