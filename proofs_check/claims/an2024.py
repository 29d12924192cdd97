r"""an2024 (An, Zhang, Zhong, Li, Gong, Luo, Xu, Kong, "Why Does the Effective Context Length of LLMs Fall Short?",
arXiv 2410.18745, ICLR 2025): the left-skewed position frequency and STRING.

Source read: the paper's text as transcribed section by section in the public repository viktor-shcherb/msc_thesis
(``references/2025-04-effective-context-length-falls-short/sections/``, commit a6577d10): §2.2 (Eqs. 1-2, the
80 % / 5 % sentence, Fig. 1's caption) and §4.1 (Eqs. 3-4, Fig. 5, Algorithm 1). STRING's functions are
:mod:`petheory.encodings.shifted`; RoPE's rotation is :class:`petheory.encodings.rotary.RotaryTable`.

Findings: Eq. 3's "STRING initially drops all position indices i >= N" holds only for S <= L/2 (the range §4.1
suggests): the entries within S of the diagonal keep their indices up to S - 1, which reach N when S > L/2 (L = 3,
S = 2: index 1 = N stays). And "When the training length is 2048, the position indices i <= 1024 account for more
than 80% of all indices,
whereas those with i >= 1536 constitute less than 5%" holds for documents of uniform length (Fig. 1b: 87.5 % and
1.6 %) but not for the relative position matrix itself, every sequence filling the window (Eq. 1, Fig. 1c: 75.0 %
and 6.3 %); SlimPajama's lengths (Fig. 1a) are not available here.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from petheory.encodings import rotary
from petheory.encodings import shifted as sh
from proofs_check import plants as pl
from proofs_check.engine import Reading, claim, quantities

SOURCE = ("an2024 (An, Zhang, Zhong, Li, Gong, Luo, Xu, Kong; arXiv 2410.18745, ICLR 2025) {where}; read in the text "
          "as transcribed in github.com/viktor-shcherb/msc_thesis, references/2025-04-effective-context-length-falls-"
          "short/sections @ a6577d10; the text names no status (definitions, a statistic, a method)")


# ============================================================================ §2.2: position frequency


@st.composite
def _corpus_cases(draw):
    return {"lengths": draw(st.lists(st.integers(0, 48), min_size=1, max_size=6)), "n": draw(st.integers(1, 48))}


@claim(
    id="an2024.position_frequency",
    source=SOURCE.format(where="§2.2, Eqs. 1-2"),
    statement=r"Eq. 1-2: with relative position matrix $P[m][n] = m - n$, 'we define the frequency of relative position "
    r"i by $f(i) = L - i$, which is the number of occurrences of a relative position i'; over a corpus C, "
    r"$f(i) = \sum_{s\in C}\max(|s| - i, 0)$, $0 \le i < L$.",
    kind="exact",
    paper_status=None,
    cases=_corpus_cases,
    reconstruction="The count of entries equal to i in the causal relative position matrices of the corpus's "
    "sequences (the library's STRING matrix with a shift no sequence reaches: plain m - n) against Eq. 2 "
    "(position_frequency), and Eq. 1 as its one-sequence case (a sequence of length n gives n - i). Exact integers.",
    plants=(
        pl.Plant("Eq. 2 counts one occurrence too many",
                 pl.scaled("petheory.encodings.shifted.position_frequency", 1.0, add=1.0)),
        pl.Plant("the relative position matrix one too far everywhere",
                 pl.attr("petheory.encodings.shifted.string_relative_positions",
                       lambda real: (lambda n, **k: (lambda P: np.where(P >= 0, P + 1, P))(real(n, **k))))),
    ),
)
def position_frequency(case) -> float:
    n = case["n"]
    counted = np.zeros(n, dtype=np.int64)
    for s in case["lengths"]:
        if s:
            P = sh.string_relative_positions(s, shift=s + n + 1)  # shift beyond every distance: P = m - n
            low = P[P >= 0]
            counted += np.bincount(low[low < n], minlength=n)
    f = sh.position_frequency(case["lengths"], n)
    one = sh.position_frequency([n], n)
    quantities(counted=counted, eq2=f, eq1_one_sequence=one)
    return float(max(np.abs(counted - f).max(), np.abs(one - (n - np.arange(n))).max()))


#: §2.2's example: training length 2048, shares of the indices i <= 1024 and i >= 1536.
TRAIN_LENGTH = 2048


def _shares(lengths) -> tuple[float, float]:
    f = sh.position_frequency(lengths, TRAIN_LENGTH).astype(float)
    i = np.arange(TRAIN_LENGTH)
    return float(f[i <= 1024].sum() / f.sum()), float(f[i >= 1536].sum() / f.sum())


def _share_violation(lengths) -> float:
    low, high = _shares(lengths)
    quantities(share_i_le_1024=low, share_i_ge_1536=high)
    # exact rational shares computed in float64 (sums of integers < 2^53): no tolerance needed at this margin
    return max(0.80 - low, high - 0.05)


def _no_cases():
    return st.just({})


claim(
    id="an2024.position_share_2048",
    source=SOURCE.format(where="§2.2, the position frequency statistics"),
    statement=r"'When the training length is 2048, the position indices $i \le 1024$ account for more than 80% of all "
    r"indices, whereas those with $i \ge 1536$ constitute less than 5%.'",
    kind="exact",
    paper_status=None,
    reconstruction="The sentence follows the relative position matrix P (Eq. 1) and precedes 'In addition to the biased "
    "relative position matrix P, the real-world data length distribution is also biased': it can be about P alone "
    "(every sequence filling the 2048 window, Fig. 1c) or about a length distribution; of Fig. 1's three, the "
    "uniform one (Fig. 1b) can be computed, SlimPajama's (Fig. 1a) cannot (its lengths are not available here). "
    "Shares by Eq. 2 (position_frequency).",
    readings=[
        Reading("relative_matrix", "every sequence fills the window (f(i) = 2048 - i, Eq. 1; Fig. 1c)",
                check=lambda c: _share_violation([TRAIN_LENGTH]), cases=_no_cases, examples={"quick": 1, "thorough": 1},
                evidence="exhaustive"),
        Reading("uniform_lengths", "document lengths uniform on 1..2048 (Fig. 1b)",
                check=lambda c: _share_violation(np.arange(1, TRAIN_LENGTH + 1)), cases=_no_cases,
                examples={"quick": 1, "thorough": 1}, evidence="exhaustive",
                plants=(
                    pl.Plant("Eq. 2 ignores the corpus (every sequence fills the window)",
                             pl.attr("petheory.encodings.shifted.position_frequency", lambda real: (lambda lengths, n: real([n], n)))),
                )),
    ],
)


# ============================================================================ §4.1: STRING's position matrix


@st.composite
def _string_cases(draw):
    n = draw(st.integers(2, 64))
    shift = draw(st.integers(1, n - 1))
    return {"n": n, "shift": shift, "window": draw(st.integers(0, shift))}


@st.composite
def _suggested_cases(draw):
    """The paper's suggested range: 'the offset L/7 <= S <= L/2' (W >= 32 matters for fluency only)."""
    n = draw(st.integers(2, 64))
    lo, hi = -(-n // 7), n // 2
    if lo > hi:
        n, lo, hi = 7, 1, 3
    shift = draw(st.integers(max(lo, 1), max(hi, 1)))
    return {"n": n, "shift": shift, "window": draw(st.integers(0, shift))}


def string_drops_infrequent(case) -> float:
    """> 0 when a causal entry of Eq. 3's matrix is N = L - S or more, or the S-th diagonal is not zero."""
    n, S = case["n"], case["shift"]
    P = sh.string_relative_positions(n, shift=S, window=0)
    causal = P[np.tril_indices(n)]
    diag = np.diagonal(P, offset=-S)
    quantities(largest_index=causal.max(), N=n - S, s_th_diagonal=diag)
    return float(max(causal.max() - (n - S - 1), np.abs(diag).max()))


claim(
    id="an2024.string_drops_infrequent",
    source=SOURCE.format(where="§4.1, Eq. 3 and Fig. 5"),
    statement=r"Eq. 3: '$P[m][n] - S$ if $m \ge n - S$, $P[m][n]$ otherwise', after 'STRING initially drops all "
    r"position indices $i \ge N$' with $S = L - N$; 'the relative positions on the S-th diagonal are set to zero'.",
    kind="exact",
    paper_status=None,
    reconstruction="Eq. 3 is Eq. 4 with W = 0 (string_relative_positions(window=0)); checked: no causal entry is N "
    "or more, and the S-th diagonal (m - n = S) is zero. The unshifted entries keep indices up to S - 1, below N "
    "only when S <= L/2: Eq. 3 is stated for any S, and §4.1 later suggests L/7 <= S <= L/2; both readings. Fig. 5b's "
    "last row for L = 9, N = 6 is a test.",
    readings=[
        Reading("any_shift", "Eq. 3 as defined, any shift 1 <= S < L", check=string_drops_infrequent,
                cases=_string_cases),
        Reading("suggested_range", "the shifts §4.1 suggests, L/7 <= S <= L/2", check=string_drops_infrequent,
                cases=_suggested_cases,
                plants=(
                    pl.Plant("the shift starts one diagonal late (r > S, not r >= S)",
                             pl.attr("petheory.encodings.shifted.string_relative_positions",
                                   lambda real: (lambda n, shift, window=0: real(n, shift=shift + 1, window=window + 1)))),
                )),
    ],
)


@claim(
    id="an2024.string_keeps_neighbours_closest",
    source=SOURCE.format(where="§4.1, Eq. 4"),
    statement=r"Eq. 4: '$P[m][n] - S + W$ if $m \ge n - S$, $P[m][n]$ otherwise' ... 'W is used to ensure the "
    r"neighboring W tokens remain the closest in terms of positional encoding' ($W \ll S$).",
    kind="exact",
    paper_status=None,
    cases=_string_cases,
    reconstruction="'The neighboring W tokens remain the closest': the causal entries with index < W are exactly those "
    "with m - n < W (every other key gets an index >= W), on the paper's range W <= S.",
    plants=(
        pl.Plant("Eq. 4 without its window (Eq. 3)",
                 pl.attr("petheory.encodings.shifted.string_relative_positions",
                       lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
    ),
)
def string_keeps_neighbours_closest(case) -> float:
    n, S, W = case["n"], case["shift"], case["window"]
    P = sh.string_relative_positions(n, shift=S, window=W)
    m, k = np.indices((n, n))
    causal = m >= k
    wrong = causal & ((P < W) != (m - k < W))
    quantities(entries_where_closeness_differs=int(wrong.sum()))
    return float(wrong.sum())


@st.composite
def _query_shift_cases(draw):
    case = draw(_string_cases())
    d = draw(st.sampled_from([2, 4, 8, 16]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    return {**case, "d": d, "base": draw(st.sampled_from([10.0, 100.0, 10000.0])),
            "q": rng.standard_normal(d).round(6).tolist(), "k": rng.standard_normal(d).round(6).tolist()}


@claim(
    id="an2024.string_query_shift",
    source=SOURCE.format(where="§4.1, Algorithm 1"),
    statement=r"Algorithm 1: the bottom-left triangle is computed with the queries at 'pids_q_shifted = pids_query - S + "
    r"W' and the keys at their own positions: 'STRING controls the relative distance by only modifying the position "
    r"indices for queries', giving Eq. 4's relative positions.",
    kind="exact",
    paper_status=None,
    cases=_query_shift_cases,
    reconstruction="For every query m and key n with m - n >= S, RoPE's score of the query rotated at "
    "string_query_positions[m] against the key at n equals the score at Eq. 4's relative position P'[m][n] "
    "(query at P'[m][n], key at 0), through the library's RotaryTable. Tolerance: each rotated coordinate errs by "
    "about eps times its angle (at most (L + W) omega_max), so a score by 8 eps (1 + (L + W) omega_max) |q| |k| d.",
    plants=(
        pl.Plant("Algorithm 1's query ids without the window",
                 pl.attr("petheory.encodings.shifted.string_query_positions",
                       lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
        pl.Plant("Eq. 4's matrix without the window",
                 pl.attr("petheory.encodings.shifted.string_relative_positions",
                       lambda real: (lambda n, shift, window=0: real(n, shift=shift, window=0)))),
        pl.Plant("the library's RoPE table with angles growing as position^1.5 (not relative)",
                 pl.attr("petheory.encodings.rotary.rope", lambda real: pl.superlinear_angles(real))),
        pl.Plant("the library's rotation turns by angle^1.5 (not relative)",
                 pl.attr("petheory.encodings.rotary.RotaryTable.apply",
                       lambda real: (lambda self, x: real(type(self)(self.angles ** 1.5, self.d, self.pairing), x)))),
    ),
)
def string_query_shift(case) -> float:
    n, S, W, d = case["n"], case["shift"], case["window"], case["d"]
    span = n + W + 1
    table = rotary.rope(span, d, base=case["base"])  # the library's RoPE table, positions 0..n+W
    w_max = float(np.abs(np.diff(table.angles, axis=0)).max()) if span > 1 else 0.0
    q, k = np.asarray(case["q"]), np.asarray(case["k"])
    Q, K = table.apply(np.tile(q, (span, 1))), table.apply(np.tile(k, (span, 1)))  # q, k at every position
    P = sh.string_relative_positions(n, shift=S, window=W)
    qpos = sh.string_query_positions(n, shift=S, window=W)
    m, j = np.nonzero(np.indices((n, n))[0] - np.indices((n, n))[1] >= S)
    if m.size == 0:
        return -1.0
    algorithm = np.einsum("td,td->t", Q[qpos[m]], K[j])
    eq4 = Q[P[m, j]] @ K[0]
    tol = 8 * np.finfo(float).eps * (1 + span * w_max) * np.linalg.norm(q) * np.linalg.norm(k) * d
    quantities(largest_difference=np.abs(algorithm - eq4).max(), tolerance=tol)
    return float(np.abs(algorithm - eq4).max() - tol)
