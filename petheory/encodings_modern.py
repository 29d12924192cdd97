r"""The long-context encodings in use today, as registry entries (imported by :mod:`petheory.encodings`).

RoPE context extension (position interpolation, NTK-aware base scaling, YaRN), xPos, KERPLE
(logarithmic and power), Sandwich, MLA's decoupled RoPE, RoPE + absolute combinations, and
cirrincione2026's MDS-optimal encoding fitted to a corpus. Each is a pure numpy function with
its conventions and source stated, like the entries of :mod:`petheory.encodings`.

Rotary variants that do more than rotate return a :class:`ScaledRotaryTable`: a
:class:`~petheory.encodings.RotaryTable` with a per-band query/key scale (xPos), a logit
temperature (YaRN) and/or an additive absolute table (RoPE + absolute). Every analysis that
reads only ``angles`` (the rotation geometry) treats them as RoPE with their angles; the
position-only attention kernel (:func:`rotary_kernel`) includes the scales.

Conventions shared by the context-extension entries: ``scale`` is the extension factor
:math:`s \ge 1` (the new context is ``s`` times the one the model was trained on), ``n_max``
the original (pre-training) context length :math:`L`, frequencies
:math:`\omega_t = \mathrm{base}^{-2t/r}`, ``t = 0..r/2-1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from petheory import _validate as v
from petheory.encodings import RotaryTable, learned, register, rope_frequencies, sinusoidal, table_shape


@dataclass(frozen=True)
class ScaledRotaryTable(RotaryTable):
    """A RoPE table whose queries and keys are also scaled per position and band.

    Attributes
    ----------
    log_scale : ndarray (n, r/2) or None
        Natural log of the query factor of band ``t`` at position ``p`` (xPos:
        ``(p / scale_base) ln zeta_t``); keys get the reciprocal, so the logit of query ``i`` and
        key ``j`` carries ``exp(log_scale[i] - log_scale[j])``, a function of ``i - j``.
    mscale : float
        Factor on both the rotated query and key coordinates (YaRN's ``sqrt(1/t)``): rotary
        logits are multiplied by ``mscale**2``.
    additive : ndarray (n, d) or None
        Absolute vectors added to the inputs before the projections (RoPE + absolute).
    """

    log_scale: np.ndarray | None = None
    mscale: float = 1.0
    additive: np.ndarray | None = None

    def factors(self, key: bool = False) -> np.ndarray:
        """Multiplicative factor of each rotated band of queries (or keys), shape (n, r/2)."""
        if self.log_scale is None:
            return np.full(self.angles.shape, self.mscale)
        return self.mscale * np.exp(-self.log_scale if key else self.log_scale)

    def _scaled(self, out: np.ndarray, f: np.ndarray) -> np.ndarray:
        a, b = self.pairs()
        out[..., a] *= f
        out[..., b] *= f
        return out

    def apply(self, x) -> np.ndarray:
        """Queries: rotate row p by R_p and scale band t by ``factors()[p, t]``."""
        return self._scaled(super().apply(x), self.factors())

    def apply_key(self, x) -> np.ndarray:
        """Keys: rotate row p by R_p and scale band t by ``factors(key=True)[p, t]``."""
        return self._scaled(super().apply(x), self.factors(key=True))

    def apply_at(self, x, p: int) -> np.ndarray:
        """Rotate and scale every row of ``x`` as a query at position ``p``."""
        return self._scaled(super().apply_at(x, p), self.factors()[p])


def rotary_kernel(table: RotaryTable) -> tuple[np.ndarray, np.ndarray]:
    r"""Position-only attention kernel of a rotary table: first column and first row, shape (n,) each.

    With unit content in every rotated band (``q = k = u``), the logit of query ``i`` and key
    ``j`` is :math:`\sum_t f^q_{i,t} f^k_{j,t}\cos((i-j)\omega_t)`; for RoPE, PI, NTK, YaRN and
    xPos it depends on ``i - j`` only, so the matrix is Toeplitz: column :math:`a_k` (query
    ``k``, key 0) and row :math:`a_{-k}` (query 0, key ``k``). RoPE: :math:`a_k = a_{-k} =
    \sum_t \cos(k\omega_t)`; YaRN multiplies by ``mscale**2``; xPos gives
    :math:`a_{\pm k} = \sum_t\zeta_t^{\pm k/B}\cos(k\omega_t)` (not Hermitian: causal rows use
    ``k >= 0``, where it decays). An additive absolute part is not included (it makes the
    position-only logit non-Toeplitz).
    """
    d_ang = table.angles - table.angles[0]  # (n, r/2): k * omega_t for RoPE-like tables
    if not isinstance(table, ScaledRotaryTable):
        c = np.cos(d_ang).sum(axis=1)
        return c, c.copy()
    fq, fk = table.factors(), table.factors(key=True)
    col = (fq * fk[0] * np.cos(d_ang)).sum(axis=1)  # query k, key 0
    row = (fq[0] * fk * np.cos(d_ang)).sum(axis=1)  # query 0, key k
    return col, row


# --------------------------------------------------------------------------- RoPE context extension


def _extension(scale) -> float:
    s = v.real("scale", scale, positive=True)
    if s < 1:
        raise ValueError(f"scale is a context-extension factor and must be >= 1 (1 = plain RoPE), got {s}")
    return s


def _rotary_args(d, pairing, rotary_dim) -> int:
    v.choice("pairing", pairing, ("interleaved", "half"))
    r = d if rotary_dim is None else v.even("rotary_dim", rotary_dim)
    if r > d:
        raise ValueError(f"rotary_dim must be <= d={d}, got {r}")
    return r


def _angles(n: int, freqs: np.ndarray) -> np.ndarray:
    return np.arange(n, dtype=np.float64)[:, None] * freqs[None, :]


@register(
    "rope_pi",
    "rotary",
    conventions="Position interpolation (linear scaling): angles (p/scale) * base^(-2t/r), i.e. every frequency "
    "divided by scale s >= 1, so positions 0..sL-1 reuse the angles RoPE saw on 0..L-1 (PI at s*p = RoPE at p). "
    "Pairing and partial rotary_dim as rope. HF transformers rope_type='linear'.",
    source="chen2023 (Extending context window of LLMs via positional interpolation, Eq. 2); HF modeling_rope_utils",
)
def rope_pi(n: int, d: int, *, scale: float = 2.0, base: float = 10000.0, pairing: str = "interleaved",
            rotary_dim: int | None = None) -> RotaryTable:
    """RoPE with position interpolation: frequencies divided by ``scale``."""
    n, d = table_shape(n, d, even=True)
    s = _extension(scale)
    _rotary_args(d, pairing, rotary_dim)
    return RotaryTable(_angles(n, rope_frequencies(d, base=base, rotary_dim=rotary_dim) / s), d, pairing)


def ntk_base(base: float, scale: float, rotary_dim: int) -> float:
    r"""NTK-aware base :math:`b' = b\,s^{r/(r-2)}`: the lowest band is interpolated by exactly ``s``."""
    base = v.real("base", base, positive=True)
    s = _extension(scale)
    r = v.even("rotary_dim", rotary_dim)
    if r < 4:
        raise ValueError(f"NTK-aware scaling needs rotary_dim >= 4 (the exponent r/(r-2) is undefined at r=2), got {r}")
    return base * s ** (r / (r - 2))


@register(
    "rope_ntk",
    "rotary",
    conventions="NTK-aware scaling: RoPE with base' = base * s^(r/(r-2)), so band t's frequency is divided by "
    "s^(2t/(r-2)): the fastest band (t=0) is unchanged, the slowest (t=r/2-1) interpolated by exactly s. "
    "Static (scale fixed), not HF's 'dynamic' variant.",
    source="bloc97 2023 (NTK-aware scaled RoPE, r/LocalLLaMA); peng2023 (YaRN) §3.1 Eq. 16; HF 'dynamic' uses the same base",
)
def rope_ntk(n: int, d: int, *, scale: float = 2.0, base: float = 10000.0, pairing: str = "interleaved",
             rotary_dim: int | None = None) -> RotaryTable:
    """RoPE with NTK-aware base scaling ``base * scale**(r/(r-2))``."""
    n, d = table_shape(n, d, even=True)
    r = _rotary_args(d, pairing, rotary_dim)
    b2 = ntk_base(base, scale, r)
    return RotaryTable(_angles(n, rope_frequencies(d, base=b2, rotary_dim=rotary_dim)), d, pairing)


YARN_RAMPS = ("paper", "code")


def yarn_ramp(freqs, *, n_max: int, alpha: float = 1.0, beta: float = 32.0, ramp: str = "paper", base: float = 10000.0) -> np.ndarray:
    r"""YaRN's per-band blend :math:`\gamma_t \in [0, 1]` (1: keep the frequency, 0: interpolate by s), shape (r/2,).

    ``'paper'`` (peng2023 Eq. 18): with :math:`r_t = L\omega_t/(2\pi)` the number of turns band
    ``t`` makes over the original context L, :math:`\gamma = 0` if :math:`r_t < \alpha`, 1 if
    :math:`r_t > \beta`, else :math:`(r_t-\alpha)/(\beta-\alpha)`. ``'code'`` (the YaRN reference
    code and HF transformers): the same end points as band indices,
    ``low = floor(t(beta))``, ``high = ceil(t(alpha))`` with
    :math:`t(\rho) = r\ln(L/(2\pi\rho))/(2\ln b)`, and a ramp linear in the band index between them.
    """
    freqs = v.array("freqs", freqs, ndim=1)
    n_max = v.integer("n_max", n_max, minimum=1)
    alpha = v.real("alpha", alpha, positive=True)
    beta = v.real("beta", beta, positive=True)
    if beta <= alpha:
        raise ValueError(f"YaRN needs beta > alpha (turns above which a band is kept > below which it is interpolated), "
                         f"got alpha={alpha}, beta={beta}")
    v.choice("ramp", ramp, YARN_RAMPS)
    if ramp == "paper":
        turns = n_max * freqs / (2 * math.pi)
        return np.clip((turns - alpha) / (beta - alpha), 0.0, 1.0)
    base = v.real("base", base, positive=True)
    r = 2 * freqs.shape[0]

    def band(rot):
        return r * math.log(n_max / (rot * 2 * math.pi)) / (2 * math.log(base))

    low, high = max(math.floor(band(beta)), 0), min(math.ceil(band(alpha)), r - 1)
    if low == high:
        high += 0.001  # as the reference code: avoid a zero-width ramp
    interp = np.clip((np.arange(r // 2) - low) / (high - low), 0.0, 1.0)  # 1 = fully interpolated
    return 1.0 - interp


def yarn_mscale(scale: float) -> float:
    r"""YaRN's attention factor :math:`\sqrt{1/t} = 0.1\ln s + 1` (peng2023 Eq. 22); 1 at s = 1."""
    return 0.1 * math.log(_extension(scale)) + 1.0


@register(
    "rope_yarn",
    "rotary",
    conventions="YaRN: band t's frequency becomes (1-g_t) w_t/s + g_t w_t with the ramp g_t of yarn_ramp "
    "(ramp='paper': linear in the turns L w_t/2pi between alpha=1 and beta=32; ramp='code': linear in the band index "
    "between the rounded end bands, as the reference code and HF), L = n_max the original context; queries and keys "
    "are both multiplied by mscale = 0.1 ln s + 1 (logits by mscale^2), as HF scales cos and sin. scale=1 is RoPE.",
    source="peng2023 (YaRN) §3.2-3.4, Eqs. 17-22; HF modeling_rope_utils._compute_yarn_parameters",
)
def rope_yarn(n: int, d: int, *, scale: float = 2.0, n_max: int = 2048, alpha: float = 1.0, beta: float = 32.0,
              ramp: str = "paper", mscale: float | None = None, base: float = 10000.0, pairing: str = "interleaved",
              rotary_dim: int | None = None) -> ScaledRotaryTable:
    """RoPE with YaRN's per-band interpolation ramp and attention temperature."""
    n, d = table_shape(n, d, even=True)
    s = _extension(scale)
    _rotary_args(d, pairing, rotary_dim)
    w = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    g = yarn_ramp(w, n_max=n_max, alpha=alpha, beta=beta, ramp=ramp, base=base)
    m = yarn_mscale(s) if mscale is None else v.real("mscale", mscale, positive=True)
    return ScaledRotaryTable(_angles(n, (1.0 - g) * w / s + g * w), d, pairing, mscale=m)


# --------------------------------------------------------------------------- xPos, MLA, RoPE + absolute


def xpos_zeta(r: int, gamma: float = 0.4) -> np.ndarray:
    r"""xPos's per-band decay :math:`\zeta_t = (2t/r + \gamma)/(1 + \gamma)`, t = 0..r/2-1, in (0, 1)."""
    r = v.even("r", r)
    gamma = v.real("gamma", gamma, positive=True)
    return (np.arange(0, r, 2, dtype=np.float64) / r + gamma) / (1.0 + gamma)


@register(
    "xpos",
    "rotary",
    conventions="RoPE (interleaved, as torchscale) whose query at position p is scaled per band by zeta_t^(p/B) and "
    "key by zeta_t^(-p/B), zeta_t = (2t/r + gamma)/(1+gamma), gamma=0.4, B=scale_base=512: the logit of query i, "
    "key j carries zeta_t^((i-j)/B), a decay for causal i >= j. torchscale centres p (p - n/2) for range; logits "
    "are the same. scale_base=inf is RoPE.",
    source="sun2023 (A length-extrapolatable Transformer, Eq. 9-10); microsoft/torchscale XPOS",
)
def xpos(n: int, d: int, *, scale_base: float = 512.0, gamma: float = 0.4, base: float = 10000.0,
         pairing: str = "interleaved", rotary_dim: int | None = None) -> ScaledRotaryTable:
    """RoPE with xPos's per-band exponential query/key scale."""
    n, d = table_shape(n, d, even=True)
    r = _rotary_args(d, pairing, rotary_dim)
    if isinstance(scale_base, bool) or not isinstance(scale_base, (int, float)) or not scale_base > 0:
        raise ValueError(f"scale_base must be a number > 0 (math.inf gives RoPE), got {scale_base!r}")
    w = rope_frequencies(d, base=base, rotary_dim=rotary_dim)
    pos = np.arange(n, dtype=np.float64)
    log_scale = (pos[:, None] / float(scale_base)) * np.log(xpos_zeta(r, gamma))[None, :]  # (n, r/2); 0 at B = inf
    return ScaledRotaryTable(_angles(n, w), d, pairing, log_scale=log_scale)


@register(
    "mla_rope",
    "rotary",
    conventions="MLA's decoupled RoPE: of the d coordinates of a score vector [q_rope; q_content], the first "
    "rope_dim (default the largest even <= d/2) rotate with RoPE (interleaved pairing, as petheory.nn's MLA and "
    "DeepSeek-V2's checkpoints, which HF permutes to half-split), the content part none; DeepSeek-V2 writes "
    "[content; rope], a fixed permutation. The rope key is shared by all heads and comes "
    "from the input, not the latent (petheory.nn's 'mla' mechanism; --pe mla_rope in petheory.nn is that mechanism). "
    "scaling names the rotary entry whose frequencies and attention factor the rope part takes (rope_pi, rope_yarn, rope_llama3, ...; its parameters in scaling_params, a dict), softmax_mscale multiplies "
    "every logit by its square (DeepSeek-V3: yarn_get_mscale(factor, mscale_all_dim)), folded into the table's mscale.",
    source="deepseek2024 (DeepSeek-V2 §2.1.3, Eqs. 14-19); gu2025 §4.1 (MLA); HF modeling_deepseek_v3 (yarn_get_mscale)",
)
def mla_rope(n: int, d: int, *, rope_dim: int | None = None, base: float = 10000.0, pairing: str = "interleaved",
             scaling: str = "rope", scaling_params: dict | None = None, softmax_mscale: float = 1.0) -> RotaryTable:
    """MLA's decoupled RoPE: only the rope part of the score vector rotates."""
    n, d = table_shape(n, d, even=True)
    r = 2 * (d // 4) if rope_dim is None else v.even("rope_dim", rope_dim)
    if not 2 <= r <= d:
        raise ValueError(f"rope_dim must be even and in 2..d={d}, got {r}")
    v.choice("pairing", pairing, ("interleaved", "half"))
    if scaling != "rope" or scaling_params or softmax_mscale != 1.0:  # DeepSeek-V3: YaRN + mscale_all_dim
        from petheory.encodings.rope_scaling import mla_table

        return mla_table(n, d, rope_dim=r, base=base, pairing=pairing, scaling=scaling, scaling_params=scaling_params,
                         softmax_mscale=softmax_mscale)
    return RotaryTable(_angles(n, rope_frequencies(d, base=base, rotary_dim=r)), d, pairing)


@register(
    "rope_sinusoidal",
    "rotary",
    conventions="RoPE on queries/keys plus sinusoidal vectors added to the inputs (gu2025's 'rope' run; petheory.nn "
    "'rope+sinusoidal'); both with the same base and d. The table's `additive` holds the sinusoidal rows. With the "
    "same frequencies and interleaved layouts, R_p PE_p is the same vector for every p: the position-only logit "
    "PE_i^T R_{j-i} PE_j is constant (RoPE undoes the sinusoid's phase).",
    source="gu2025 §4.1 and code (CLAIMS.md); su2024",
)
def rope_sinusoidal(n: int, d: int, *, base: float = 10000.0, pairing: str = "interleaved",
                    layout: str = "interleaved") -> ScaledRotaryTable:
    """RoPE plus additive sinusoidal inputs."""
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    return ScaledRotaryTable(_angles(n, rope_frequencies(d, base=base)), d, pairing,
                             additive=sinusoidal(n, d, base=base, layout=layout))


@register(
    "rope_learned",
    "rotary",
    conventions="RoPE on queries/keys plus a learned absolute table (at initialisation: N(0, std^2) from seed, "
    "as 'learned') added to the inputs; petheory.nn 'rope+learned'.",
    source="su2024; li2025 Table 2 (learned)",
)
def rope_learned(n: int, d: int, *, base: float = 10000.0, pairing: str = "interleaved", seed: int = 0,
                 std: float = 0.02) -> ScaledRotaryTable:
    """RoPE plus an additive learned table (at initialisation)."""
    n, d = table_shape(n, d, even=True)
    v.choice("pairing", pairing, ("interleaved", "half"))
    return ScaledRotaryTable(_angles(n, rope_frequencies(d, base=base)), d, pairing,
                             additive=learned(n, d, seed=seed, std=std))


# --------------------------------------------------------------------------- KERPLE, Sandwich


def _offsets(n: int) -> np.ndarray:
    n = v.integer("n", n, minimum=1)
    idx = np.arange(n, dtype=np.float64)
    return np.abs(idx[:, None] - idx[None, :])


@register(
    "kerple_log",
    "bias",
    conventions="B[i,j] = -r1 log(1 + r2 |i-j|), r1, r2 > 0 (symmetric in i-j; causal attention uses j <= i). "
    "Conditionally positive definite (CPD): c^T B c >= 0 whenever sum c = 0, so B has at most one negative "
    "eigenvalue. In petheory.nn r1, r2 are learned per head, initialised U(0,2) and U(0,1) and clamped >= 0.01 "
    "(the reference code); here they are given.",
    source="chi2022 (KERPLE, §3, Eq. 'logarithmic variant'); KERPLE/NeMo code",
)
def kerple_log(n: int, *, r1: float = 1.0, r2: float = 1.0) -> np.ndarray:
    """KERPLE logarithmic bias of one head, shape (n, n)."""
    D = _offsets(n)
    r1, r2 = v.real("r1", r1, positive=True), v.real("r2", r2, positive=True)
    return -r1 * np.log1p(r2 * D)


@register(
    "kerple_power",
    "bias",
    conventions="B[i,j] = -r1 |i-j|^r2, r1 > 0, 0 < r2 <= 2 (CPD exactly for r2 in (0, 2]; r2=1 is ALiBi with "
    "slope r1). petheory.nn learns r1 ~ U(0,1) and r2 ~ U(0,2) per head, clamped to [0.01, 2] (reference code).",
    source="chi2022 (KERPLE, §3, Eq. 'power variant')",
)
def kerple_power(n: int, *, r1: float = 1.0, r2: float = 1.0) -> np.ndarray:
    """KERPLE power bias of one head, shape (n, n)."""
    D = _offsets(n)
    r1, r2 = v.real("r1", r1, positive=True), v.real("r2", r2, positive=True)
    if r2 > 2:
        raise ValueError(f"kerple_power needs 0 < r2 <= 2 (-|x|^p is conditionally positive definite only for p <= 2), got {r2}")
    return -r1 * D**r2


@register(
    "sandwich",
    "bias",
    conventions="B[i,j] = scale * (sum_{k=1}^{d_bar/2} cos((i-j)/base^(2k/d_bar)) - d_bar/2): the inner product of "
    "sinusoidal vectors p_i . p_j (k from 1 as the paper writes it), shifted by its diagonal d_bar/2 so B[i,i]=0 "
    "(a per-row constant: softmax unchanged). d_bar=128, scale=1 are reconstructions (the paper's per-head "
    "compensation is not reproduced). Positive semidefinite before the shift (a Gram matrix).",
    source="chi2023 (Dissecting Transformer length extrapolation via receptive field analysis, §5, Sandwich)",
)
def sandwich(n: int, *, d_bar: int = 128, base: float = 10000.0, scale: float = 1.0) -> np.ndarray:
    """Sandwich bias of one head, shape (n, n)."""
    n = v.integer("n", n, minimum=1)
    d_bar = v.even("d_bar", d_bar)
    base = v.real("base", base, positive=True)
    scale = v.real("scale", scale, positive=True)
    return scale * sandwich_column(np.arange(n), d_bar=d_bar, base=base)[_offsets(n).astype(np.int64)]


def sandwich_column(offsets, *, d_bar: int = 128, base: float = 10000.0) -> np.ndarray:
    """Sandwich's relative kernel ``a_k = sum_{i=1}^{d_bar/2} (cos(k/base^(2i/d_bar)) - 1)`` at integer offsets k."""
    k = v.array("offsets", offsets, ndim=1).astype(np.float64)
    w = rope_frequencies(d_bar, base=base, first=1)  # (d_bar/2,): w_i = base^(-2i/d_bar), i = 1..d_bar/2
    return (np.cos(k[:, None] * w[None, :]) - 1.0).sum(axis=1)


# --------------------------------------------------------------------------- MDS-optimal (cirrincione2026)


@lru_cache(maxsize=8)
def _builtin_mds(min_count: int, max_vocab: int):
    from petheory import geometry

    P = geometry.builtin_target(min_count=min_count, max_vocab=max_vocab)
    return geometry.classical_mds(geometry.hellinger_distances(P)), P.n


@register(
    "mds_optimal",
    "absolute",
    conventions="cirrincione2026 Algorithm 1: row p is the classical-MDS coordinate of position p in the Hellinger "
    "geometry of the corpus's positional distributions (corpus=None: petheory's built-in corpus, lowercase, "
    "max_vocab=48, min_count=100 -> 15 positions), first `rank` columns (default min(d, numerical rank)), zeros "
    "after. Only positions the corpus supports have a row: beyond='clamp' (default) reuses the last row past them "
    "(li2025's learned-table convention), beyond='error' raises.",
    source="cirrincione2026 Prop. 5/6, Algorithm 1",
)
def mds_optimal(n: int, d: int, *, rank: int | None = None, corpus=None, min_count: int = 100, max_vocab: int = 48,
                beyond: str = "clamp") -> np.ndarray:
    """The MDS-optimal encoding of a corpus, shape (n, d).

    ``corpus``: a sequence of sentences (strings, whitespace-tokenised, lowercased) or None for
    the built-in corpus. Theory code reads no files: pass the sentences, not a path.
    """
    n, d = table_shape(n, d)
    v.choice("beyond", beyond, ("clamp", "error"))
    min_count = v.integer("min_count", min_count, minimum=1)
    max_vocab = v.integer("max_vocab", max_vocab, minimum=1)
    if corpus is None:
        mds, n_c = _builtin_mds(min_count, max_vocab)
    else:
        from petheory import geometry

        if isinstance(corpus, str) or not all(isinstance(s, str) for s in corpus):
            raise TypeError("corpus must be a sequence of sentences (strings), not a path or one string")
        P = geometry.positional_distributions(list(corpus), lowercase=True, max_vocab=max_vocab, min_count=min_count,
                                              source="mds_optimal corpus")
        mds, n_c = geometry.classical_mds(geometry.hellinger_distances(P)), P.n
    k = min(d, mds.rank) if rank is None else v.integer("rank", rank, minimum=1)
    if k > d:
        raise ValueError(f"rank={k} exceeds d={d}: the encoding has d columns")
    if k > mds.rank:
        raise ValueError(f"rank={k} exceeds the numerical rank {mds.rank} of the corpus's MDS Gram")
    table = np.zeros((n_c, d))
    table[:, :k] = mds.embedding[:, :k]
    if n > n_c:
        if beyond == "error":
            raise ValueError(f"the corpus supports {n_c} positions (min_count={min_count}) but n={n} were asked for; "
                             "pass beyond='clamp' to reuse the last row")
        return table[np.minimum(np.arange(n), n_c - 1)]
    return table[:n]
