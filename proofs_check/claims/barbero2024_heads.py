r"""barbero2024, the heads: Prop 5.2, Thm 5.3 and Thm 6.1 built as weights and run through petheory's attention, and p-RoPE.

Same source as :mod:`proofs_check.claims.barbero2024` (the arXiv v3 full text). Def 5.1: a head "can learn a
diagonal attention pattern if given an :math:`\epsilon > 0` and a fixed size N, for all :math:`i \le N`,
:math:`\alpha_{i,i} > 1 - \epsilon`" (and :math:`\alpha_{i,i-1} > 1 - \epsilon` for the previous-token head).
Every head here is :class:`petheory.nn.transformer.Attention` (:mod:`proofs_check.claims._heads`) with the proof's
weights: the causal mask, the softmax and the rotary tables are the library's, and its :math:`1/\sqrt d` logit
scale (which the paper ignores) is folded into the constructed norms.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from proofs_check.claims import _heads
from proofs_check.claims._strategies import vectors
from proofs_check.claims.barbero2024 import SOURCE
from proofs_check import plants as pl
from proofs_check.engine import claim, quantities
from proofs_check.tolerance import gamma

EPS = np.finfo(float).eps


# ============================================================================ Prop 5.2


@st.composite
def _nope_cases(draw):
    d = draw(st.sampled_from([2, 4, 8]))
    return {"d": d, "scale": draw(st.floats(0.01, 1e3)), "tied": draw(st.booleans()), "seed": draw(st.integers(0, 2**16))}


def nope_head_probs(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray) -> np.ndarray:
    """The attention probabilities (T, T) of a causal NoPE head of petheory's model with these W_Q, W_K."""
    att = _heads.head(x.shape[1], pe="nope", n=x.shape[0])
    _heads.set_weights(att, w_q, w_k, np.eye(x.shape[1]))
    return _heads.run(att, x)[1]


def nope_diagonal(case) -> float:
    """> 0 when a NoPE head puts more than 1/2 of token 3's attention on itself on [bos, x, x]."""
    rng = np.random.default_rng(case["seed"])
    d, c = case["d"], case["scale"]
    bos, x1 = rng.standard_normal(d), rng.standard_normal(d)
    w_q = c * rng.standard_normal((d, d))
    w_k = w_q.copy() if case["tied"] else c * rng.standard_normal((d, d))  # tied: Theorem 5.3's q = k construction
    p = nope_head_probs(np.stack([bos, x1, x1]), w_q, w_k)
    # alpha_33 = alpha_32 in exact arithmetic (identical logits), so alpha_33 <= 1/2. In floating point the two
    # logits are two products q3 . k of one key row computed twice, and BLAS need not round the two rows alike
    # (another processor's kernel did not: at scale 719 the logits differ by an ulp of 1e6): each errs by at most
    # gamma_(3d) (|W_q||x_1|) . (|W_k||x_1|) (Higham 2002, §3.5; the head's 1/sqrt(d) only shrinks it), and
    # alpha_33 - 1/2 = tanh(da/2)/2 <= da/4 for a logit gap da; then the softmax's own rounding, a few ulps.
    logit_err = gamma(3 * d) * float((np.abs(w_q) @ np.abs(x1)) @ (np.abs(w_k) @ np.abs(x1)))
    tol = 2 * logit_err / 4 + 4 * EPS
    quantities(alpha_33=p[2, 2], alpha_32=p[2, 1], alpha_31=p[2, 0], tolerance=tol)
    return float(max(p[2, 2], p[2, 1]) - 0.5 - tol)


@claim(
    id="barbero2024.nope_cannot_sharpen",
    paper_status="proposition",
    source=SOURCE.format(where="§5, Prop 5.2 and App. A.2"),
    statement=r"Prop 5.2: 'An attention head with NoPE cannot learn a diagonal or off-diagonal pattern.' (App. A.2: on "
    r"$[x_{bos}, x_1, x_1]$, $a_{3,3} = a_{3,2}$, so $\alpha_{3,3} < 1/2$; the same example gives $\alpha_{3,2} < 1/2$.)",
    kind="exact",
    cases=_nope_cases,
    reconstruction="The proof's counterexample input run through a causal NoPE head of petheory's attention with arbitrary "
    "W_Q, W_K (any scale, tied or not): alpha_33 <= 1/2 and alpha_32 <= 1/2 for every head, so no head reaches "
    "alpha > 1 - eps for eps < 1/2 on that input. A head in isolation, as App. A.2 says.",
    plants=(
        pl.Plant("the head's queries and keys carry their position (a leak into NoPE)",
                 pl.attr("petheory.nn.transformer.Attention.qkv", lambda real: pl.position_leak(real))),
        pl.Plant("the PE spec parsed as RoPE whatever it says",
                 pl.attr("petheory.nn.transformer.parse_pe", lambda real: (lambda spec: real("rope" if spec in ("nope",) else spec)))),
    ),
)
def _nope_diagonal(case) -> float:
    return nope_diagonal(case)


# ============================================================================ Thm 5.3


@st.composite
def _sharp_cases(draw):
    return {"n": draw(st.integers(2, 48)), "eps": draw(st.floats(1e-6, 0.5)), "previous": draw(st.booleans())}


def constructed_norm(n: int, eps: float, g: float = 1.0) -> float:
    r""":math:`\|\psi\|^2` that the proof's construction needs for :math:`\alpha > 1 - \epsilon` over n positions.

    With :math:`c = \min_{1 \le m < n} (1 - \cos mg)`, the target's logit beats each of the other (at most n - 1)
    keys by :math:`\|\psi\|^2 c`, so :math:`\alpha \ge 1/(1 + (n-1)e^{-\|\psi\|^2 c})`; this returns the value with
    one nat to spare: :math:`(\log((n-1)(1-\epsilon)/\epsilon) + 1)/c`."""
    m = np.arange(1, n)
    c = float(np.min(1.0 - np.cos(m * g))) if n > 1 else 1.0
    return (math.log(max(n - 1, 1) * (1 - eps) / eps) + 1.0) / c


def sharp_head(case) -> float:
    """> 0 when the constructed RoPE head (d = 2) misses alpha_{i,i} > 1 - eps (or alpha_{i,i-1}) for some i <= N."""
    n, eps = case["n"], case["eps"]
    s = constructed_norm(n, eps) * math.sqrt(2.0)  # times sqrt(d): the library scales logits by 1/sqrt(d)
    psi = np.array([math.sqrt(s), 0.0])
    rho = np.array([[math.cos(1.0), -math.sin(1.0)], [math.sin(1.0), math.cos(1.0)]])  # rho(g_1), g_1 = 1
    x = np.tile([1.0, 0.0], (n, 1))  # every token the same: q_i = psi, k_j = psi (or rho(g) psi)
    att = _heads.head(2, pe="rope", n=n)
    w = np.column_stack([psi, np.zeros(2)])  # e_1 -> psi
    _heads.set_weights(att, w, rho @ w if case["previous"] else w, np.eye(2))
    p = _heads.run(att, x)[1]
    target = np.diag(p, -1) if case["previous"] else np.diag(p)
    worst = float(target.min()) if target.size else 1.0
    quantities(norm_psi_squared=s / math.sqrt(2.0), smallest_target_alpha=worst, one_minus_eps=1 - eps)
    # logits of size s rounded to <= 16 eps s (angles m g: <= n eps each): alpha's deficit moves by that, relatively
    return (1.0 - eps) - worst - 16 * (n + 2) * EPS * s


@claim(
    id="barbero2024.rope_can_sharpen",
    paper_status="theorem",
    source=SOURCE.format(where="§5, Thm 5.3 ('Proposition 5.3' in App. A.2)"),
    statement=r"Thm 5.3: 'An attention head with RoPE can learn a diagonal or off-diagonal pattern.' (Def 5.1: given "
    r"$\epsilon > 0$ and N, $\alpha_{i,i} > 1 - \epsilon$ for all $i \le N$, resp. $\alpha_{i,i-1} > 1 - \epsilon$.)",
    kind="exact",
    cases=_sharp_cases,
    reconstruction="An existence statement, checked with the proof's construction and the constant it implies: d = 2, "
    "q_i = k_j = psi (diagonal) or k_j = rho(g) psi (previous token), a_ij = |psi|^2 cos((j - i + s) g) with g = 1 "
    "(the fastest RoPE band), and |psi|^2 = (log((N-1)(1-eps)/eps) + 1) / min_{1<=m<N}(1 - cos m) (the proof says "
    "only 'eps a function of |psi|^2'; this is the value its bound needs). Run through petheory's causal RoPE head.",
    plants=(
        pl.Plant("the model's rotary turns the wrong way",
                 pl.attr("petheory.nn.position.Rotary.cos_sin", lambda real: pl.reversed_rotary(real))),
    ),
)
def _sharp_head(case) -> float:
    return sharp_head(case)


# ============================================================================ Thm 6.1


@st.composite
def _channel_cases(draw):
    return {"n": draw(st.integers(2, 96)), "w_q": draw(vectors(4, -3, 3)), "w_k": draw(vectors(4, -3, 3)),
            "seed": draw(st.integers(0, 2**16))}


@functools.lru_cache(maxsize=4)
def orbit_covering_length(g: float = 1.0, arc: float = math.pi / 2) -> int:
    r"""The N of Thm 6.1's proof, made explicit: the least N such that every arc of length ``arc`` holds at least two of
    :math:`\{mg \bmod 2\pi : 0 \le m < N\}` (Lemma A.2's density, quantified). Then, whichever distance the target
    takes, one of the other distances puts a distractor within arc/2 of any angle."""
    n = 2
    while True:
        pts = np.sort(np.mod(np.arange(n) * g, 2 * np.pi))
        ext = np.concatenate([pts, pts + 2 * np.pi])
        if np.all(ext[2:n + 2] - ext[:n] < arc):  # every pair of consecutive gaps spans less than the arc
            return n
        n += 1


def channel_probs(case) -> tuple[np.ndarray, int]:
    """The query's attention to the target at each distance 1..N-1 (the others all a distractor token), d = 2, from
    petheory's causal RoPE head with the case's W_Q, W_K; and the covering N of the proof."""
    n = case["n"]
    w_q, w_k = np.reshape(case["w_q"], (2, 2)), np.reshape(case["w_k"], (2, 2))
    rng = np.random.default_rng(case["seed"])
    query, target, distractor = rng.standard_normal((3, 2))
    att = _heads.head(2, pe="rope", n=n + 1)
    _heads.set_weights(att, w_q, w_k, np.eye(2))
    m = np.arange(1, n)  # the target m positions before the query (at position n), bos and the rest a distractor
    x = np.tile(distractor, (n - 1, n + 1, 1))
    x[:, n] = query
    x[m - 1, n - m] = target
    return _heads.run(att, x)[1][m - 1, n, n - m], orbit_covering_length()


def single_frequency(case) -> float:
    """> 0 when, for N at least the proof's covering length, no placement of the target keeps its attention <= 1/2."""
    alpha, n0 = channel_probs(case)
    best = float(alpha.min())
    quantities(smallest_attention_to_target=best, covering_n=n0, n=case["n"])
    if case["n"] < n0:
        return -1.0  # 'for large enough N': below the proof's N nothing is claimed
    return best - 0.5 - 8 * case["n"] * EPS  # Lemma A.3: a dominated entry is <= 1/2; the softmax rounds n terms


@claim(
    id="barbero2024.single_frequency_channel",
    paper_status="theorem",
    source=SOURCE.format(where="§6, Thm 6.1 and App. A.3 (Lemmas A.2, A.3)"),
    statement=r"Thm 6.1: 'Let the hidden dimension be d = 2, i.e. there is only a single RoPE frequency $g_1$. Consider a "
    r"sequence $x_{bos}, x_1, \dots, x_N$ with a target token at some position $x_n$. Then for large enough N, the "
    r"attention head with RoPE is unable to attend to such a token such that $\alpha_{i,n} > 1 - \epsilon$ for any "
    r"$\epsilon > 0$ and any $1 \le n \le N$.'",
    kind="exact",
    cases=_channel_cases,
    reconstruction="From its hypotheses: d = 2, g_1 = 1 (RoPE's only band), any head (W_Q, W_K), a query, a target and a "
    "distractor token; the sequence is the distractor everywhere (bos included) but the query at position N and the "
    "target m positions before it. 'Large enough N' is the N its proof's density argument gives (every arc of pi/2 "
    "holds two of {m g mod 2 pi}; computed, 12 for g = 1); the check: some placement 1 <= m < N gives alpha <= 1/2 "
    "(so alpha > 1 - eps fails for every eps <= 1/2), with petheory's causal RoPE head computing alpha.",
    plants=(
        pl.Plant("the model's rotary does not rotate (NoPE in disguise)",
                 pl.attr("petheory.nn.position.Rotary.cos_sin", lambda real: pl.no_rotation(real))),
    ),
)
def _single_frequency(case) -> float:
    return single_frequency(case)


@st.composite
def _semantic_cases(draw):
    return {"n": draw(st.integers(2, 64)), "eps": draw(st.floats(1e-6, 0.5)), "seed": draw(st.integers(0, 2**16))}


def nope_semantic(case) -> float:
    """> 0 when the constructed NoPE head puts <= 1 - eps on the target at some placement."""
    n, eps = case["n"], case["eps"]
    target, distractor = np.random.default_rng(case["seed"]).standard_normal((2, 2))
    inv = np.linalg.inv(np.column_stack([target, distractor]))  # token -> its coordinates (1, 0) or (0, 1)
    gap = math.log(n * (1 - eps) / eps) + 1.0  # n keys besides the target at most, one nat to spare
    w_q = np.array([[1.0, 1.0], [0.0, 0.0]]) @ inv  # every token queries with e_1
    w_k = np.array([[gap * math.sqrt(2.0), 0.0], [0.0, 0.0]]) @ inv  # target key gap e_1 (times sqrt(d)), distractor 0
    att = _heads.head(2, pe="nope", n=n + 1)
    _heads.set_weights(att, w_q, w_k, np.eye(2))
    m = np.arange(1, n + 1)  # the target m positions before the query, bos and the rest a distractor
    x = np.tile(distractor, (n, n + 1, 1))
    x[m - 1, n - m] = target
    worst = float(_heads.run(att, x)[1][m - 1, n, n - m].min())
    quantities(logit_gap=gap, smallest_attention_to_target=worst, one_minus_eps=1 - eps)
    # the logits (size gap) are computed through inv(basis): rounding <= 16 n eps cond(basis) gap
    return (1.0 - eps) - worst - 16 * (n + 2) * EPS * gap * np.linalg.cond(inv)


@claim(
    id="barbero2024.nope_semantic_channel",
    paper_status=None,  # a remark after Thm 6.1, no status word of its own
    source=SOURCE.format(where="§6, the remark after Thm 6.1; the remark names no status"),
    statement=r"After Thm 6.1: 'the observation that NoPE is instead able to build this type of attention pattern is "
    r"immediate': a NoPE head can attend to a target token with $\alpha_{i,n} > 1 - \epsilon$ wherever it sits.",
    kind="exact",
    cases=_semantic_cases,
    reconstruction="Existential, with a constructed head: every token queries with e_1, the target's key is g e_1 and "
    "the distractor's 0, g = log(N(1-eps)/eps) + 1 (what alpha > 1 - eps over N other keys needs, one nat to spare); "
    "run through petheory's causal NoPE head at every placement of the target.",
    plants=(
        pl.Plant("the head's queries and keys carry their position (a leak into NoPE)",
                 pl.attr("petheory.nn.transformer.Attention.qkv", lambda real: pl.position_leak(real))),
    ),
)
def _nope_semantic(case) -> float:
    return nope_semantic(case)


# ============================================================================ §6.1, p-RoPE (beside partial RoPE)


def p_rope_reference(d: int, p: float, theta: float) -> np.ndarray:
    """App. D's ``apply_p_rope`` frequencies, transcribed: ``rope_angles = int(p * d // 2)``, timescale
    ``theta ** (2 * arange(rope_angles) / d)`` padded with ``inf`` (frequency 0) for the other d/2 - rope_angles."""
    kept = int(p * d // 2)
    out = np.zeros(d // 2)
    out[:kept] = 1.0 / theta ** (2.0 * np.arange(kept) / d)
    return out


def library_frequencies(d: int, p: float, theta: float, *, proportional: bool) -> np.ndarray:
    """The rotary frequencies (d/2,) petheory resolves for a head of d with fraction p rotating: a Gemma 4
    ``proportional`` rope dict (p-RoPE) or a ``partial_rotary_factor`` with default RoPE; unrotated bands 0."""
    from petheory.encodings import rotary
    from petheory.models import rope as model_rope

    r = 2 * int(p * d // 2)
    rope = {"rope_type": "proportional" if proportional else "default", "rope_theta": theta}
    _, params, _ = model_rope.rope_scheme({}, rope, "rope_parameters.", d=d, rotary_dim=r, max_pos=8192)
    out = np.zeros(d // 2)
    out[:r // 2] = rotary.rope_frequencies(d, base=params["base"], rotary_dim=params.get("rotary_dim", d))
    return out


@st.composite
def _p_rope_cases(draw):
    d = draw(st.sampled_from([16, 64, 128, 256]))
    return {"d": d, "p": draw(st.floats(2.0 / d, 1.0)), "theta": draw(st.floats(1e3, 1e7))}


def p_rope(case) -> float:
    """> 0 when the library's p-RoPE differs from App. D's, or does not drop exactly RoPE's lowest frequencies."""
    d, p, theta = case["d"], case["p"], case["theta"]
    ref = p_rope_reference(d, p, theta)
    lib = library_frequencies(d, p, theta, proportional=True)
    full = p_rope_reference(d, 1.0, theta)  # p = 1: RoPE
    kept = ref > 0
    dropped_lowest = bool(np.all(full[~kept] <= (full[kept].min() if kept.any() else np.inf)))
    partial = library_frequencies(d, p, theta, proportional=False)
    rel = float(np.max(np.abs(lib - ref) / np.where(ref > 0, ref, 1.0)))
    quantities(max_relative_gap_to_app_d=rel, kept_bands=int(kept.sum()), p_rope_lowest_kept=ref[kept].min(),
               rope_lowest=full.min(), partial_rope_lowest=partial[partial > 0].min(),
               drops_the_lowest=dropped_lowest)
    # base^(r/d) then ^(-2t/r): two roundings of a power with exponent <= log(theta): <= 8 eps log(theta), relatively
    gap = rel - 8 * EPS * math.log(theta)
    return gap if dropped_lowest else max(gap, 1.0)


@claim(
    id="barbero2024.p_rope_truncates_lowest",
    paper_status=None,  # a definition of §6.1
    source=SOURCE.format(where="§6.1 (p-RoPE) and App. D (apply_p_rope); the section names no status (a definition)"),
    statement=r"§6.1: 'we truncate the very lowest frequencies of RoPE ... We call this modification p-RoPE, with "
    r"$0 \le p \le 1$ being the fraction of RoPE kept ... p = 0 coincides with NoPE, while the case p = 1 with RoPE'; "
    r"App. D: rope_angles = int(p * head_dim // 2), timescale = max_wavelength**(2 * arange(rope_angles) / head_dim), "
    r"the rest infinite.",
    kind="exact",
    cases=_p_rope_cases,
    reconstruction="The library's p-RoPE is what it resolves for a Gemma 4 'proportional' rope dict "
    "(petheory.models.rope.rope_scheme: base^(r/d) on an r-dimensional ladder); checked against App. D's code "
    "transcribed (p_rope_reference) and for dropping exactly the lowest of RoPE's d/2 frequencies. Partial RoPE "
    "(partial_rotary_factor p with default RoPE, the paper's Table 2 row '0.75-RoPE (partial)') is reported beside "
    "it: its ladder base^(-2t/r) keeps RoPE's lowest frequency range and drops intermediate ones instead "
    "(partial_rope_lowest < p_rope_lowest_kept). p = 0 (no rotated band) is NoPE by the same code and is not "
    "resolved (a config with no rotary band is refused).",
    plants=(
        pl.Plant("proportional RoPE resolved on the rotary dims' own ladder (partial RoPE)",
                 pl.attr("petheory.models.rope.rope_scheme", lambda real: pl.proportional_as_partial(real))),
    ),
)
def _p_rope(case) -> float:
    return p_rope(case)
