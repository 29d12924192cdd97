r"""men2024 (Base of RoPE Bounds Context Length, arXiv 2405.14591): the similar-token gap and the base bound.

Source read: the paper's full text (arXiv 2405.14591v1, as extracted to text in the public repository
commotum/4D, ``Notes/Vision/pdfs-3/2024_RoPEBase.txt`` at commit c31dc4bb): §4.2 Theorem 1 (Eq. 9) and its
proof (Appendix A, Eqs. 12-14), §4.3 Eqs. 10-11 (:math:`base_L = \inf\{base \mid B_{m,\theta}\ge 0,\ \forall
m\in[0,1,\dots,L]\}`) and Table 2 (the numerical lower bounds, 1k to 1M). Su Jianlin's commentary
(kexue.fm/archives/10122, 2024-05-29, read in a public copy) reports the same table and finds tighter values
(1.2e4 at 2k, 2.3e5 at 16k) by a finer scan, and notes that the passing set is not closed upwards.
No code by the authors was found. ``../shared/papers/outside.md`` gives 2.9e4 at 4k: Table 2 says 2.7e4,
which passes at L = 4000 but not at L = 4096 (:func:`petheory.bounds.men_base.men_smallest_base`:
2.69e4 at 4000, 2.86e4 at 4096).

Table 2's rows from 128k to 1M (``men2024.table2_long_contexts``) fail on their own terms only where "k" is 1024:
with d = 128 and L = 1024 N (:math:`\min_{0 \le m \le L} B_m`, by :func:`~petheory.bounds.men_base.men_min_kernel`),
7.8e6 at 128k reaches -1.02 (at m = 128,915), 3.6e7 at 256k -0.88 (m = 207,456), 6.4e7 at 512k -0.22
(m = 511,210), 5.1e8 at 1M -1.16 (m = 874,868). Where "k" is 1000 the 128k row's printed base passes
(L = 128,000: :math:`\min B_m = +0.025` at m = 121,250), and that row fails only as an inf: a smaller base passes; the
256k, 512k and 1M printed bases fail under both readings (their minima lie below 256,000, 512,000 and 1,024,000).
Beside it, as in the short rows, passing bases below the printed rounding (the witnesses found
on ``men_smallest_base``'s own grid, 512 a decade, by :func:`~petheory.bounds.men_base.men_first_passing`;
printed here to full precision, since a witness rounded to four digits can fail): 4870941.939981921 at 128k
(:math:`\min B_m` 1.37), 34762454.28411925 at 256k (:math:`\min B_m` 0.27), 504888056.5179392 at 1M (:math:`\min B_m` 0.070); at 512k no
grid base below 6.4e7 passes. The passing set has islands narrower than any grid (4.8692e6 to 4.8725e6 at 128k,
0.07 % wide), so a search below a row finds what the scan finds; each row costs about a second (most failing
bases decided at distances where a neighbour failed, the rest by a chunked scan). Each refuted reading names the
part of the conjunction that failed (``failed_part``), in its record's summary.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import strategies as st

from petheory.bounds import men_base as mb
from petheory.encodings import rotary
from proofs_check import plants as pl
from proofs_check.engine import Reading, claim, quantities

SOURCE = ("men2024 (Men, Xu, Wang, Zhang, Lin, Han, Chen; arXiv 2405.14591v1, NeurIPS 2024) §4.2 Theorem 1 (Eq. 9) "
          "and Appendix A; §4.3 Eqs. 10-11, Table 2 and Fig. 1. Read in the full text (arXiv v1 as extracted in "
          "github.com/commotum/4D, Notes/Vision/pdfs-3/2024_RoPEBase.txt, commit c31dc4bb)")


# ============================================================================ Theorem 1: the similar-token gap


@st.composite
def _gap_cases(draw):
    return {"d": draw(st.sampled_from([4, 8, 16, 32])), "base": draw(st.floats(2.0, 1e5)),
            "m": draw(st.integers(0, 4096)), "sigma": draw(st.floats(0.2, 3.0)), "mu": draw(st.floats(-2.0, 2.0)),
            "eps": draw(st.floats(0.0, 0.5)), "seed": draw(st.integers(0, 2**16))}


def _rotate(x, w, m):
    """R_m x on interleaved pairs: rotate pair i by m * w_i (rows of x)."""
    a, b = x[:, 0::2], x[:, 1::2]
    c, s = np.cos(m * w), np.sin(m * w)
    out = np.empty_like(x)
    out[:, 0::2], out[:, 1::2] = a * c - b * s, a * s + b * c
    return out


N_SAMPLES = 20000


def similar_token_gap(case) -> float:
    """Monte Carlo estimate of :math:`E[q^\\top R_m k^*] - E[q^\\top R_m k]` against :math:`2\\sigma^2 B_m`; > 0 when outside 6 standard errors."""
    d, m, sig = case["d"], case["m"], case["sigma"]
    w = rotary.rope_frequencies(d, base=case["base"])
    rng = np.random.default_rng(case["seed"])
    q = case["mu"] + sig * rng.standard_normal((N_SAMPLES, d))
    k = case["mu"] + sig * rng.standard_normal((N_SAMPLES, d))  # an unrelated token: same law, independent of q
    ks = q + case["eps"] * rng.standard_normal((N_SAMPLES, d))  # a similar token k* = q + eps
    diff = np.einsum("nd,nd->n", q, _rotate(ks, w, -m)) - np.einsum("nd,nd->n", q, _rotate(k, w, -m))
    est, se = diff.mean(), diff.std(ddof=1) / np.sqrt(N_SAMPLES)
    rhs = 2 * sig**2 * float(mb.men_kernel(m, w))
    quantities(estimate=est, standard_error=se, two_sigma2_B_m=rhs)
    # 6 standard errors: a false alarm has probability ~2e-9 per case (CLT), the budget is < 1e4 cases
    return abs(est - rhs) - 6 * se


@claim(
    id="men2024.similar_token_gap",
    paper_status="theorem",
    source=SOURCE,
    statement=r"Theorem 1: 'Assuming that the components of query $q \in R^d$ and key $k \in R^d$ are independent and "
    r"identically distributed, their standard deviations are denoted as $\sigma$. The key $k^* = q + \epsilon$ is a token "
    r"similar to the query, where $\epsilon$ is a random variable with a mean of 0. Then' "
    r"$\frac{1}{2\sigma^2}\big(E_{q,k^*}[q^\top R_{m,\theta} k^*] - E_{q,k}[q^\top R_{m,\theta} k]\big) = "
    r"\sum_{i=0}^{d/2-1}\cos(m\theta_i) =: B_{m,\theta}$ (Eq. 9).",
    kind="exact",
    cases=_gap_cases,
    reconstruction="q, k i.i.d. Gaussian with a common mean mu and std sigma (Appendix A's proof uses E[q] = E[k]), eps "
    "independent zero-mean noise; the "
    "expectation is a Monte Carlo mean of 20000 draws, compared with 2 sigma^2 B_m within 6 standard errors. The "
    "logit is q^T R_{-m} k*, i.e. the query m positions after the key (R_m orthogonal, so the sign of m does not "
    "change B_m).",
    examples={"quick": 20, "thorough": 300},
    plants=(
        pl.Plant("Men's kernel B_m shifted by 0.5",
                 pl.attr("petheory.bounds.men_base.men_kernel", lambda real: (lambda m, w: real(m, w) + 0.5))),
    ),
)
def _similar_token_gap(case) -> float:
    return similar_token_gap(case)


# ============================================================================ the base bounds the context length

PAIRS = [(32, 256), (64, 256), (64, 512), (128, 512), (128, 1024)]


def smallest(d: int, L: int) -> float:
    return mb.men_smallest_base(d, L)


def min_kernel(d: int, base: float, L: int) -> tuple[float, int]:
    """:math:`\\min_{0 \\le m \\le L} B_m` for RoPE (d, base), and where."""
    return mb.men_min_kernel(rotary.rope_frequencies(d, base=base), L, stop_below=None)


@st.composite
def _below_cases(draw):
    d, L = draw(st.sampled_from(PAIRS))
    return {"d": d, "context": L, "fraction": draw(st.floats(0.02, 0.9999))}


def below_fails(case) -> float:
    """> 0 when a base below the computed :math:`b_L` passes (:math:`b_L` would not be the smallest passing base)."""
    b0 = smallest(case["d"], case["context"])
    b = b0 * case["fraction"]
    mn, at = min_kernel(case["d"], b, case["context"])
    quantities(b_L=b0, base=b, min_B_m=mn, at_m=at)
    return 1.0 if mn >= 0 else mn  # a passing base below b_L is a counterexample; else its (negative) min


claim(
    id="men2024.base_bounds_context",
    source=SOURCE.replace("§4.2 Theorem 1 (Eq. 9) and Appendix A; §4.3 Eqs. 10-11, Table 2 and Fig. 1",
                          "§4.3 Eqs. 10-11 and Fig. 1"),
    statement=r"§4.3: 'in order to get the expected context length L, there is a lower bound of the base value': "
    r"$base_L = \inf\{base \mid B_{m,\theta} \ge 0,\ \forall m \in [0, 1, \dots, L]\}$ (Eq. 11), 'an absolute lower "
    r"bound for the base value to obtain certain context length capability' (Fig. 1: $b_L \approx 0.0424 L^{1.628}$).",
    kind="exact",
    paper_status="theorem",
    check=below_fails,
    cases=_below_cases,
    examples={"quick": 30, "thorough": 400},
    reconstruction="A lower bound states necessity: a base below base_L does not give B_m >= 0 for all m <= L. Checked: "
    "every base b_L * fraction (fraction in [0.02, 1)) below the library's b_L (petheory.bounds.men_base."
    "men_smallest_base, its grid scan for the inf) fails, with min B_m by men_min_kernel over every 0 <= m <= L. "
    "A finding beside it, not a reading (the authors never say a larger base suffices): the passing set is not "
    "closed upwards, so 'b >= b_L' does not give the property -- d = 128, L = 1024: b_L = 4293.458795669853 "
    "passes, and bases above it fail again (men_every_larger_base(128, 1024, upto=2e4) lists them; tests/claims "
    "pins one); the final interval starts higher (2.279e4 at L = 2048, ../shared/papers/outside-texts.md).",
    plants=(
        pl.Plant("the smallest passing base reported twice too large",
                 pl.attr("petheory.bounds.men_base.men_smallest_base", lambda real: (lambda d, L, **k: 2.0 * real(d, L, **k)))),
    ),
)
@st.composite
def _context_cases(draw):
    return {"d": draw(st.sampled_from([32, 64, 128])), "base": draw(st.floats(100.0, 3e4))}


def first_negative(d: int, base: float, upto: int = 1 << 17) -> int:
    """The first :math:`m \\ge 0` with :math:`B_m < 0`, by direct cosines (the reference for men_min_kernel), or -1 if none <= upto."""
    w = rotary.rope_frequencies(d, base=base)
    for s0 in range(0, upto + 1, 8192):
        m = np.arange(s0, min(upto, s0 + 8191) + 1, dtype=float)
        neg = np.flatnonzero(np.cos(m[:, None] * w).sum(-1) < 0)
        if neg.size:
            return int(m[neg[0]])
    return -1


def context_of_base(case) -> float:
    """> 0 when the library's :math:`\\min_{0 \\le m \\le L} B_m` disagrees in sign with Eq. 10 at :math:`L_\\theta` or :math:`L_\\theta + 1`."""
    d, b = case["d"], case["base"]
    m0 = first_negative(d, b)
    if m0 < 1:
        return -1.0  # no negative value in range (or B_0 < 0, impossible: B_0 = d/2)
    w = rotary.rope_frequencies(d, base=b)
    at, _ = mb.men_min_kernel(w, m0 - 1, stop_below=None)  # L_theta = m0 - 1: every m <= L_theta passes
    past, where = mb.men_min_kernel(w, m0, stop_below=None)  # one more distance: B_{m0} < 0 must be seen
    quantities(L_theta=m0 - 1, min_B_m_up_to_L_theta=at, min_B_m_up_to_L_theta_plus_1=past, at_m=where)
    # the kernel's two evaluations agree to about (d/2) L eps (men_min_kernel's Notes): a sign within that is unreliable
    tol = d * m0 * np.finfo(float).eps
    return max(-at - tol, past + tol) if abs(past) > tol and abs(at) > tol else -1.0


@claim(
    id="men2024.context_of_a_base",
    paper_status=None,  # Eq. 10, a definition used as the measure of a base's context
    source=SOURCE.replace("§4.2 Theorem 1 (Eq. 9) and Appendix A; §4.3 Eqs. 10-11, Table 2 and Fig. 1", "§4.3 Eq. 10; the equation names no status"),
    statement=r"Eq. 10: 'Given the $\theta$ in RoPE, the context length $L_\theta$ that can be truly obtained satisfies: "
    r"$L_\theta = \sup\{L \mid B_{m,\theta} \ge 0,\ \forall m \in [0, 1, \dots, L]\}$'.",
    kind="exact",
    cases=_context_cases,
    examples={"quick": 30, "thorough": 300},
    reconstruction="L_theta computed as the first m with B_m < 0, minus one, by direct cosines; the library's "
    "men_min_kernel (what men_smallest_base, men_passes and Table 2's checks stand on) must find min B_m >= 0 over "
    "0..L_theta and < 0 over 0..L_theta + 1 -- the endpoint m = L included. Bases 100 to 3e4 (L_theta up to about "
    "10^4 positions); a minimum within rounding of 0 decides nothing and is skipped.",
    plants=(
        pl.Plant("min B_m scanned over 0..L-1 (the endpoint m = L skipped)",
                 pl.attr("petheory.bounds.men_base.men_min_kernel", lambda real: pl.skip_endpoint(real))),
    ),
)
def _context_of_base(case) -> float:
    return context_of_base(case)


# ============================================================================ Table 2: the numbers behind Fig. 1

# Table 2 as printed (context length in thousands -> lower bound of the base); d = 128 (Llama 2 / Baichuan2-7B heads)
TABLE2 = {1: 4.3e3, 2: 1.6e4, 4: 2.7e4, 8: 8.4e4, 16: 3.1e5, 32: 6.4e5, 64: 2.1e6, 128: 7.8e6, 256: 3.6e7, 512: 6.4e7,
          1024: 5.1e8}
TABLE2_D = 128
#: Rows up to this (in thousands) are men2024.table2_lower_bounds, the longer ones men2024.table2_long_contexts:
#: the paper's one table split in two so that the long rows get a verdict of their own (a search stops at the
#: first failing row, and the short rows already fail).
SHORT_ROWS_UP_TO = 64
GRID = 64  # bases within an entry's rounding


def _half_unit(v: float) -> float:
    """Half a unit in the last of the table's two significant digits: inf lies within v +- this."""
    return 0.5 * 10.0 ** (math.floor(math.log10(v)) - 1)


@functools.lru_cache(maxsize=64)
def _entry(v: float, L: int) -> tuple[dict, dict]:
    h = _half_unit(v)
    # men_smallest_base's own grid (512 bases a decade), downwards from the rounding: a passing base below is most
    # likely just under it (the search stops there), and the check finds what the scan finds
    below = mb.men_first_passing(mb.men_grid(v / 3.0, v - h)[::-1], d=TABLE2_D, context=L)
    inside = mb.men_first_passing(np.linspace(v - h, v + h, GRID), d=TABLE2_D, context=L)
    return below, inside


@functools.lru_cache(maxsize=64)
def _printed(v: float, L: int) -> tuple[float, int]:
    """min over 0 <= m <= L of B_m for the printed base v (d = 128), and where (men_min_kernel, every m)."""
    return mb.men_min_kernel(rotary.rope_frequencies(TABLE2_D, base=v), L, stop_below=None)


def table_entry_is_the_inf(k: int, L: int) -> float:
    """> 0 when Table 2's entry for k thousand is not Eq. 11's inf at context L, to its two printed digits.

    Three parts, a conjunction, the first decisive where it fails: the printed base itself has :math:`B_m \\ge 0` for every
    m <= L (else it is no bound for L at all, violation its depth below 0); no base in [v/3, v - h) passes (else the inf is smaller), and some base in
    [v - h, v + h] passes (else the inf is not there). Below: the bases of ``men_smallest_base``'s own
    scan (512 a decade, about 240 here), downwards from v - h; within: 64 bases, upwards (:func:`petheory.bounds.men_base.men_first_passing`: the same answer as
    ``men_passes`` for each base, most failures decided at distances where a smaller base failed, so an
    entry at L = 1M costs about a second, not a scan per base). Cached per (entry, L): a search repeats rows.
    """
    v = TABLE2[k]
    h = _half_unit(v)
    own, own_at = _printed(v, L)
    below, inside = _entry(v, L)
    quantities(table_value=v, context=L, printed_base_min_B_m=own, at_m=own_at,
               passing_base_found_below=below["first_passing"],
               passing_base_within_rounding=inside["first_passing"], its_min_B_m=inside["its_min"],
               every_base_within_rounding_reaches=inside["worst_failure"] if inside["first_passing"] is None else None)
    # relative gap to the passing witness below; else -1 (no violation from this part)
    low = (v - h - below["first_passing"]) / v if below["first_passing"] is not None else -1.0
    # no base within the printed rounding passes: each reaches B_m <= worst_failure < 0, the violation is its depth
    high = -inside["its_min"] if inside["first_passing"] is not None else -inside["worst_failure"]
    # first and decisive: the printed base lacks the property it is printed for (its depth below 0)
    if own < 0:
        part = f"the printed base {v:.2g} lacks its own property at L = {L}: $\\min B_m = {own:.3g}$ at m = {own_at}"
    elif low > 0:
        part = (f"the printed base {v:.2g} has the property at L = {L} ($\\min B_m = {own:+.2g}$ at m = {own_at}) but is "
                f"not the inf: {below['first_passing']:.7g} passes")
    else:
        part = f"no base within the printed rounding of {v:.2g} passes at L = {L}"
    quantities(failed_part=part if max(-own, low, high) > 0 else None)
    return max(-own, low, high)


@st.composite
def _table_cases(draw):
    return {"k": draw(st.sampled_from([k for k in TABLE2 if k <= SHORT_ROWS_UP_TO]))}


@st.composite
def _long_cases(draw):
    return {"k": draw(st.sampled_from([k for k in TABLE2 if k > SHORT_ROWS_UP_TO]))}


_TABLE_STATUS = "; Table 2 is a computed table, for which the paper names no status"
_TABLE_RECONSTRUCTION = ("d = 128 (the head size of every model the paper trains); each entry read as Eq. 11's inf to the "
                         "two digits printed, a conjunction whose first part is decisive where it fails: the printed base "
                         "has the property (B_m >= 0 for every m <= L, men_min_kernel over every m); then the inf lies "
                         "within +-half a unit of the last digit, searched below (down to a "
                         "third of the entry) on the bases of men_smallest_base's own scan (512 a decade) and on 64 "
                         "bases within the rounding. 'k' is ambiguous: both readings are checked.")


def _table_readings(cases, examples):
    return [
        Reading("k_is_1024", "Table 2's 'N k' is L = 1024 N positions (the usual meaning of a 4k context).",
                check=lambda c: table_entry_is_the_inf(c["k"], 1024 * c["k"]), cases=cases, examples=examples),
        Reading("k_is_1000", "Table 2's 'N k' is L = 1000 N positions.",
                check=lambda c: table_entry_is_the_inf(c["k"], 1000 * c["k"]), cases=cases, examples=examples),
    ]


claim(
    id="men2024.table2_lower_bounds",
    source=SOURCE + _TABLE_STATUS,
    statement=r"Table 2: 'Context length and its corresponding lower bound of RoPE's base' (Eq. 11), its rows from 1k to "
    r"64k: 1k: 4.3e3, 2k: 1.6e4, 4k: 2.7e4, 8k: 8.4e4, 16k: 3.1e5, 32k: 6.4e5, 64k: 2.1e6 (the rows from 128k to 1M "
    r"are men2024.table2_long_contexts).",
    kind="exact",
    paper_status=None,
    reconstruction=_TABLE_RECONSTRUCTION,
    readings=_table_readings(_table_cases, {"quick": 12, "thorough": 40}),
)

claim(
    id="men2024.table2_long_contexts",
    source=SOURCE + _TABLE_STATUS,
    statement=r"Table 2: 'Context length and its corresponding lower bound of RoPE's base' (Eq. 11), its rows from 128k "
    r"to 1M: 128k: 7.8e6, 256k: 3.6e7, 512k: 6.4e7, 1M: 5.1e8 (the rows from 1k to 64k are "
    r"men2024.table2_lower_bounds).",
    kind="exact",
    paper_status=None,
    reconstruction=_TABLE_RECONSTRUCTION + " '1M' read as 1024k (1,048,576 positions) or 1000k. The printed bases "
    "lack their own property only under k_is_1024 at 128k: under k_is_1000 (L = 128,000) the printed 7.8e6 passes "
    "(min B_m = +0.025 at m = 121,250) and the row fails as an inf (a smaller base passes); 3.6e7, 6.4e7 and 5.1e8 "
    "lack the property under both readings.",
    readings=_table_readings(_long_cases, {"quick": 4, "thorough": 8}),
)
