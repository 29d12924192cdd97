r"""Content-position coupling in attention logits (gu2025 §3.1-3.2, Eq. 8, Eq. 9, Prop. B.1).

Convention: row vectors. Token ``i`` has content ``c_i`` and position ``p_i`` (rows of ``C`` and
``P``, shape (n, d)); projections are ``W_Q, W_K`` of shape (d, d_head), so ``q_i = x_i W_Q``
(a torch ``nn.Linear`` stores ``weight`` as (d_head, d): pass ``weight.T``, as
:func:`projections_from_linear` does).

What is here:

* :func:`logit_terms` — the five terms of Eq. 8, :math:`L = G_{q^c,k^c}+G_{q^c,k^p}+G_{q^p,k^c}
  +G_{q^p,k^p}+B`, exact (they sum to the directly computed logits up to rounding).
* :func:`random_projections`, :func:`projections_from_linear`, :func:`bert_inputs` — where ``W_Q, W_K``,
  contents and positions come from (seeded random, torch modules, BERT's embeddings split by its
  LayerNorm rule). Reading a BERT directory is :func:`petheory.loaders.load_bert_first_layer`, and the
  Eq. 8 terms of MiniLM are :func:`petheory.loaders.bert_terms.minilm_terms`: this module reads no file.
* :func:`toeplitz_report` — how Toeplitz each term is.
* :func:`rope_logit_terms` — RoPE logits in complex form, exactly, one Toeplitz unit-modulus
  phase matrix per frequency band; :func:`single_phase_defect` — whether the *single* ``G_e`` of
  Eq. 9 / Prop. B.1 exists.
* :func:`compose`, :func:`spectral_summary` (with :func:`petheory.softmax.row_softmax`) — additive (``W + B``) against
  Hadamard (``W ∘ E``) composition of Toeplitz factors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory import toeplitz as tp
from petheory import softmax
from petheory.errors import ValidationError, ValidationTypeError

TERM_NAMES = ("cc", "cp", "pc", "pp", "bias")
TERM_LABELS = {
    "cc": "G_{q^c,k^c}",
    "cp": "G_{q^c,k^p}",
    "pc": "G_{q^p,k^c}",
    "pp": "G_{q^p,k^p}",
    "bias": "B",
}


# ---------------------------------------------------------------------------- Eq. 8


@dataclass(frozen=True)
class LogitTerms:
    """The five terms of gu2025 Eq. 8, each of shape (n, n); ``total`` is their sum ``L``.

    ``cc[i, j] = s (c_i W_Q + b_Q)·(c_j W_K + b_K)``, ``cp[i, j] = s (c_i W_Q + b_Q)·(p_j W_K)``,
    ``pc[i, j] = s (p_i W_Q)·(c_j W_K + b_K)``, ``pp[i, j] = s (p_i W_Q)·(p_j W_K)`` and ``bias = B``
    (added unscaled), with ``s`` the logit scale.
    """

    cc: np.ndarray
    cp: np.ndarray
    pc: np.ndarray
    pp: np.ndarray
    bias: np.ndarray
    scale: float

    @property
    def total(self) -> np.ndarray:
        """``L`` of Eq. 8, shape (n, n)."""
        return self.cc + self.cp + self.pc + self.pp + self.bias

    def as_dict(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in TERM_NAMES}


def _projection(name: str, W, d: int) -> np.ndarray:
    W = v.array(name, W, ndim=2)
    if W.shape[0] != d:
        raise ValidationError(f"{name} must have shape (d, d_head) with d={d} rows (x W convention), got {W.shape}")
    return W


def _row_bias(name: str, b, d_head: int) -> np.ndarray:
    if b is None:
        return np.zeros(d_head)
    b = v.array(name, b, ndim=1)
    if b.shape != (d_head,):
        raise ValidationError(f"{name} must have shape ({d_head},) (one entry per head dimension), got {b.shape}")
    return b


def logit_terms(content, positions, W_Q, W_K, bias=None, *, b_Q=None, b_K=None, scale=None) -> LogitTerms:
    r"""Split the attention logits into the five terms of gu2025 Eq. 8.

    Parameters
    ----------
    content, positions : array_like, shape (n, d)
        Content components ``c_i`` and position components ``p_i`` (Assumption 3.1: the
        attention input is ``x_i = c_i + p_i``).
    W_Q, W_K : array_like, shape (d, d_head)
        Query and key projections, ``q_i = x_i W_Q + b_Q``.
    bias : array_like, shape (n, n), optional
        Explicit logit bias ``B`` (ALiBi, T5, relative); zeros when omitted. Added after scaling.
    b_Q, b_K : array_like, shape (d_head,), optional
        Projection biases (BERT has them). See Notes for where they go.
    scale : float, optional
        Logit scale ``s`` (``1/sqrt(d_head)`` in BERT); 1 when omitted.

    Returns
    -------
    LogitTerms
        ``cc, cp, pc, pp, bias`` (each (n, n)) and ``total``; ``total`` equals
        ``s ((C+P) W_Q + b_Q)((C+P) W_K + b_K)^T + B`` exactly in exact arithmetic.

    Notes
    -----
    Projection biases are position-independent, so by Assumption 3.1 ("c_i is the
    position-independent component") they belong to the content side: ``q^c_i = c_i W_Q + b_Q``,
    ``q^p_i = p_i W_Q``. This keeps five terms and leaves ``G_{q^p,k^p}`` the pure
    position-position interaction that Assumption 3.2 is about. The price: ``b_Q`` and ``b_K``
    appear in ``cc``, ``cp`` and ``pc`` (``cp`` gains ``b_Q·(p_j W_K)``, a function of ``j``
    alone, which is not Toeplitz and is not removed by a row softmax; ``pc`` gains
    ``(p_i W_Q)·b_K``, a function of ``i`` alone, which a row softmax removes).

    Rounding: each entry is a ``d``-term then a ``d_head``-term inner product, and the five terms
    are summed, so ``|total - direct| <= gamma_{2(d + d_head + 3)} S`` entrywise with
    ``S = s (|C|+|P|+|b_Q|)|W_Q| ((|C|+|P|+|b_K|)|W_K|)^T + |B|`` (Higham 2002, §3.1).

    See Also
    --------
    random_projections, toeplitz_report

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling, encodings
    >>> rng = np.random.default_rng(0)
    >>> C, P = rng.normal(size=(5, 8)), encodings.sinusoidal(5, 8)
    >>> WQ, WK = coupling.random_projections(8, 4, seed=0)
    >>> t = coupling.logit_terms(C, P, WQ, WK)
    >>> bool(np.allclose(t.total, ((C + P) @ WQ) @ ((C + P) @ WK).T))  # Eq. 8: the terms sum to the logits
    True
    >>> bool(np.allclose(t.cc + t.cp + t.pc + t.pp, t.total))
    True
    """
    C = v.array("content", content, ndim=2)
    n, d = C.shape
    P = v.array("positions", positions, ndim=2)
    if P.shape != (n, d):
        raise ValidationError(f"positions must have the shape of content {(n, d)}, got {P.shape}")
    W_Q = _projection("W_Q", W_Q, d)
    W_K = _projection("W_K", W_K, d)
    if W_K.shape != W_Q.shape:
        raise ValidationError(f"W_K must have the shape of W_Q {W_Q.shape}, got {W_K.shape}")
    dh = W_Q.shape[1]
    bQ, bK = _row_bias("b_Q", b_Q, dh), _row_bias("b_K", b_K, dh)
    s = 1.0 if scale is None else v.real("scale", scale, positive=True)
    if bias is None:
        B = np.zeros((n, n))
    else:
        B = v.array("bias", bias, ndim=2)
        if B.shape != (n, n):
            raise ValidationError(f"bias must have shape {(n, n)} (one entry per query-key pair), got {B.shape}")
    qc, kc = C @ W_Q + bQ, C @ W_K + bK  # (n, d_head)
    qp, kp = P @ W_Q, P @ W_K  # (n, d_head)
    return LogitTerms(s * (qc @ kc.T), s * (qc @ kp.T), s * (qp @ kc.T), s * (qp @ kp.T), B.copy(), s)


def toeplitz_report(terms: LogitTerms) -> dict[str, dict[str, float]]:
    """How Toeplitz each term of Eq. 8 is.

    Parameters
    ----------
    terms : LogitTerms
        The split logits of :func:`logit_terms` (or :func:`bert_logit_terms`).

    Returns
    -------
    dict
        ``name -> {"defect": ||A - T(A)||_F / ||A||_F, "norm": ||A||_F, "share": ||A||_F / Σ||·||_F}``
        for ``cc, cp, pc, pp, bias`` and ``total``; ``T`` is
        :func:`petheory.toeplitz.toeplitz_projection` (diagonal averages). Defect 0 means
        Toeplitz; about ``sqrt(1 - 1/n)``-ish values mean no diagonal structure at all.

    References
    ----------
    gu2025 Eq. 8 (the four terms of an additive PE's logits).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling, encodings
    >>> rng = np.random.default_rng(0)
    >>> W_Q, W_K = coupling.random_projections(8, 4, seed=0)
    >>> terms = coupling.logit_terms(np.zeros((6, 8)), encodings.sinusoidal(6, 8), W_Q, W_K)
    >>> sorted(coupling.toeplitz_report(terms))
    ['bias', 'cc', 'cp', 'pc', 'pp', 'total']
    """
    mats = {**terms.as_dict(), "total": terms.total}
    norms = {k: float(np.linalg.norm(a)) for k, a in mats.items()}
    denom = sum(norms[k] for k in TERM_NAMES) or 1.0
    return {
        k: {"defect": tp.toeplitz_defect(a), "norm": norms[k], "share": norms[k] / denom}
        for k, a in mats.items()
    }


# ---------------------------------------------------------------------------- where W_Q, W_K come from


def random_projections(d: int, d_head: int, *, seed=0, shared: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Seeded Gaussian ``W_Q, W_K`` of shape (d, d_head), entries N(0, 1/d).

    ``shared=True`` returns ``W_K = W_Q`` (tied projections).

    Parameters
    ----------
    d : int
        Model width.
    d_head : int
        Head width.
    seed : int or numpy.random.Generator, optional
        Seed (default 0).
    shared : bool, optional
        Tie the key projection to the query's (default False).

    Returns
    -------
    (W_Q, W_K) : tuple of numpy.ndarray
        Shape (d, d_head) each.

    Examples
    --------
    >>> from petheory import coupling
    >>> W_Q, W_K = coupling.random_projections(8, 4, seed=1, shared=True)
    >>> W_Q.shape, W_K is W_Q or bool((W_K == W_Q).all())
    ((8, 4), True)
    """
    d = v.integer("d", d, minimum=1)
    d_head = v.integer("d_head", d_head, minimum=1)
    v.boolean("shared", shared)
    _memory.require(_memory.array_bytes(d, d_head, itemsize=2 * 8), f"random projections (d = {d}, d_head = {d_head})")
    rng = v.generator(seed)
    W_Q = rng.normal(0.0, 1.0 / math.sqrt(d), size=(d, d_head))
    W_K = W_Q.copy() if shared else rng.normal(0.0, 1.0 / math.sqrt(d), size=(d, d_head))
    return W_Q, W_K


def _torch_to_numpy(name: str, t) -> np.ndarray:
    if hasattr(t, "detach"):
        t = t.detach().to("cpu").double().numpy()
    return v.array(name, t)


def projections_from_linear(query, key, *, num_heads: int = 1, head: int = 0) -> dict[str, np.ndarray]:
    """``W_Q, W_K`` (d, d_head) and biases ``b_Q, b_K`` (d_head,) of one head from two linear layers.

    Parameters
    ----------
    query, key : torch.nn.Linear or any object with ``.weight`` of shape (num_heads*d_head, d)
        and optional ``.bias``; torch is needed only if they hold tensors.
    num_heads, head : int
        Heads are consecutive blocks of ``d_head`` output rows (BERT, GPT-2, ``nn.MultiheadAttention``).

    Returns
    -------
    dict with ``W_Q, W_K`` of shape (d, d_head) (the transposed row block) and ``b_Q, b_K`` (or None).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from petheory import coupling
    >>> q = SimpleNamespace(weight=np.arange(24.0).reshape(6, 4), bias=None)
    >>> p = coupling.projections_from_linear(q, q, num_heads=2, head=1)
    >>> p["W_Q"].shape, p["b_Q"]
    ((4, 3), None)
    """
    num_heads = v.integer("num_heads", num_heads, minimum=1)
    head = v.integer("head", head, minimum=0, maximum=num_heads - 1)
    out = {}
    for tag, lin in (("Q", query), ("K", key)):
        if not hasattr(lin, "weight"):
            raise ValidationTypeError(f"{'query' if tag == 'Q' else 'key'} must have a .weight (an nn.Linear), got {type(lin).__name__}")
        W = _torch_to_numpy(f"W_{tag}", lin.weight)
        if W.ndim != 2 or W.shape[0] % num_heads:
            raise ValidationError(f"W_{tag} of shape {W.shape} does not split into num_heads={num_heads} row blocks")
        dh = W.shape[0] // num_heads
        rows = slice(head * dh, (head + 1) * dh)
        out[f"W_{tag}"] = np.ascontiguousarray(W[rows].T)
        b = getattr(lin, "bias", None)
        out[f"b_{tag}"] = None if b is None else _torch_to_numpy(f"b_{tag}", b)[rows].copy()
    if out["W_Q"].shape != out["W_K"].shape:
        raise ValidationError(f"query and key heads differ in shape: {out['W_Q'].shape} vs {out['W_K'].shape}")
    return out


LAYERNORM_RULES = ("split", "none")


def bert_inputs(layer, token_ids, *, layernorm: str = "split") -> tuple[np.ndarray, np.ndarray]:
    r"""Content and position components ``(C, P)``, each (n, d), of BERT's first attention input.

    Parameters
    ----------
    layer : petheory.loaders.BertFirstLayer
        (or any object with its ``word, position, token_type, ln_gamma, ln_beta, ln_eps``)
    token_ids : array_like of int, shape (n,)
        Token ``i`` sits at position ``i`` (segment 0).
    layernorm : {'split', 'none'}
        How the embedding LayerNorm is handled (it is not additive, so Eq. 8 needs a rule):

        ``'split'`` (default; what the model computes): with ``x_i = w_i + t + p_i``,
        ``LN(x_i) = γ ⊙ Π x_i / σ_i + β`` where ``Π = I - 11^T/d`` centres and ``σ_i`` is the
        standard deviation of ``x_i``. Centering is linear, so the post-LN vector splits exactly
        as ``c_i = γ ⊙ Π(w_i + t)/σ_i + β`` and ``p_i = γ ⊙ Π p_i / σ_i``: ``C + P`` is exactly
        the LayerNorm output. The position part carries the token's normaliser ``1/σ_i`` (the
        content leaks into it through one scalar per token); ``β`` is position-independent and
        goes with content.

        ``'none'``: the pre-LN sum, ``c_i = w_i + t``, ``p_i = p_i`` (the paper's Assumption 3.1
        taken literally on the embeddings). The logits of Eq. 8 are then those of a model
        without the embedding LayerNorm, not MiniLM's.

    Returns
    -------
    C, P : ndarray, shape (n, d)

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from petheory import coupling
    >>> rng = np.random.default_rng(0)
    >>> layer = SimpleNamespace(word=rng.normal(size=(10, 8)), position=rng.normal(size=(6, 8)),
    ...                         token_type=rng.normal(size=8), ln_gamma=np.ones(8), ln_beta=np.zeros(8), ln_eps=1e-12)
    >>> C, P = coupling.bert_inputs(layer, [1, 4, 2], layernorm="none")
    >>> C.shape, P.shape
    ((3, 8), (3, 8))
    """
    v.choice("layernorm", layernorm, LAYERNORM_RULES)
    ids = np.asarray(token_ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValidationError(f"token_ids must be a non-empty 1-D integer array, got shape {ids.shape} dtype {ids.dtype}")
    n = ids.size
    if n > layer.position.shape[0]:
        raise ValidationError(f"token_ids has {n} tokens but the model has {layer.position.shape[0]} positions")
    if ids.min() < 0 or ids.max() >= layer.word.shape[0]:
        raise ValidationError(f"token_ids must lie in [0, {layer.word.shape[0]}), got range [{ids.min()}, {ids.max()}]")
    w = layer.word[ids] + layer.token_type  # (n, d)
    p = layer.position[:n]  # (n, d)
    if layernorm == "none":
        return w, p.copy()
    x = w + p
    sigma = np.sqrt(x.var(axis=1) + layer.ln_eps)[:, None]  # (n, 1), biased variance as torch
    centre = lambda a: a - a.mean(axis=1, keepdims=True)  # noqa: E731  (Π a)
    return layer.ln_gamma * centre(w) / sigma + layer.ln_beta, layer.ln_gamma * centre(p) / sigma


# ---------------------------------------------------------------------------- RoPE, Eq. 9


def complex_pairs(x, table: enc.RotaryTable) -> np.ndarray:
    """Pair the rotary coordinates of ``x`` (n, d) into complex numbers, shape (n, r/2):
    ``z[:, t] = x[:, a_t] + i x[:, b_t]`` with ``(a_t, b_t)`` = ``table.pairs()``.

    With this pairing RoPE's rotation of pair ``t`` at position ``p`` is multiplication by
    ``exp(i p θ_t)``, and the real inner product of two pairs is ``Re{z conj(z')}``.

    Parameters
    ----------
    x : array_like, shape (n, d)
        Queries or keys (rows are positions).
    table : petheory.encodings.RotaryTable
        The rotary table whose ``pairs()`` name the coordinates rotated together.

    Returns
    -------
    numpy.ndarray
        ``z``, complex128, shape (n, r/2) (``r`` the rotated dimensions).

    References
    ----------
    su2024 §3.2 and Eq. 12 (RoPE as multiplication by :math:`e^{ip\theta_t}`); gu2025 App. B.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling, encodings
    >>> t = encodings.rope(3, 4)
    >>> z = coupling.complex_pairs(np.eye(3, 4), t)
    >>> z.shape, z.dtype
    ((3, 2), dtype('complex128'))
    """
    x = v.array("x", x, ndim=2)
    if x.shape[1] != table.d:
        raise ValidationError(f"x must have d={table.d} columns, got shape {x.shape}")
    a, b = table.pairs()
    return x[:, a] + 1j * x[:, b]


@dataclass(frozen=True)
class RopeTerms:
    """RoPE logits in complex form, per frequency band (exact).

    Attributes
    ----------
    grams : dict name -> ndarray, shape (r/2, n, n), complex
        Per-band Gram matrices ``G^(t)[i, j] = z_i^(t) conj(w_j^(t))`` of the four terms of
        Eq. 9 (``qk, qp, pk, p``: content/position query against content/position key).
    phases : ndarray, shape (r/2, n, n), complex
        ``E^(t)[i, j] = exp(i (φ_i^t - φ_j^t))``; Toeplitz with unit-modulus entries when the
        angles are ``φ_p^t = p θ_t`` (``E^(t)[i, j] = exp(i (i-j) θ_t)``).
    passthrough : ndarray, shape (n, n)
        Real logits of the non-rotated coordinates (partial RoPE).
    scale : float
    """

    grams: dict
    phases: np.ndarray
    passthrough: np.ndarray
    scale: float

    @property
    def gram_sum(self) -> np.ndarray:
        """``Σ Gram`` per band, shape (r/2, n, n)."""
        return sum(self.grams.values())

    @property
    def logits(self) -> np.ndarray:
        r"""``L_RoPE = Σ_t Re{G^(t) ∘ E^(t)} + passthrough``, shape (n, n)."""
        return np.real(self.gram_sum * self.phases).sum(axis=0) + self.passthrough


def rope_logit_terms(content, positions, W_Q, W_K, table: enc.RotaryTable, *, scale=None) -> RopeTerms:
    r"""RoPE logits of ``q_i = x_i W_Q``, ``k_j = x_j W_K``, ``x = C + P``, split per band (gu2025 Eq. 9, exact form).

    Parameters
    ----------
    content, positions : array_like, shape (n, d)
        Use ``positions = 0`` for pure RoPE; gu2025's "rope" run also adds a sinusoidal PE.
    W_Q, W_K : array_like, shape (d, d_head)
    table : RotaryTable
        Angles for positions 0..n-1 (``table.angles`` has n rows) and ``table.d == d_head``.
    scale : float, optional

    Returns
    -------
    RopeTerms
        ``logits[i, j] = s (R_i q_i)·(R_j k_j)`` exactly in exact arithmetic.

    Notes
    -----
    Derivation: rotating pair ``t`` by ``φ`` multiplies ``z^(t)`` by ``e^{iφ}``, and the real
    inner product of pairs is ``Re{z conj(w)}``, so
    ``(R_i q_i)·(R_j k_j) = Σ_t Re{ q_i^(t) conj(k_j^(t)) e^{i(φ_i^t - φ_j^t)} } + (non-rotary part)``.
    gu2025 writes ``q_i^(t) k_j^(t)`` without the conjugate; that product does not give the real
    logits. Eq. 9 then replaces the per-band phases by a single Toeplitz ``G_e``; see
    :func:`single_phase_defect` for why that step fails.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling, encodings
    >>> rng = np.random.default_rng(0)
    >>> X, W_Q, W_K = rng.normal(size=(5, 8)), rng.normal(size=(8, 4)), rng.normal(size=(8, 4))
    >>> t = encodings.rope(5, 4)
    >>> terms = coupling.rope_logit_terms(X, np.zeros((5, 8)), W_Q, W_K, t, scale=1.0)
    >>> bool(np.allclose(terms.logits, coupling.rope_logits(X @ W_Q, X @ W_K, t)))
    True
    """
    C = v.array("content", content, ndim=2)
    n, d = C.shape
    P = v.array("positions", positions, ndim=2)
    if P.shape != (n, d):
        raise ValidationError(f"positions must have the shape of content {(n, d)}, got {P.shape}")
    W_Q, W_K = _projection("W_Q", W_Q, d), _projection("W_K", W_K, d)
    if W_K.shape != W_Q.shape:
        raise ValidationError(f"W_K must have the shape of W_Q {W_Q.shape}, got {W_K.shape}")
    if not isinstance(table, enc.RotaryTable):
        raise ValidationTypeError(f"table must be a RotaryTable (petheory.encodings.rope), got {type(table).__name__}")
    if table.d != W_Q.shape[1] or table.angles.shape[0] != n:
        raise ValidationError(
            f"table must rotate d_head={W_Q.shape[1]} coordinates at n={n} positions, got d={table.d}, n={table.angles.shape[0]}"
        )
    s = 1.0 if scale is None else v.real("scale", scale, positive=True)
    parts = {"c": C @ W_Q, "p": P @ W_Q}, {"c": C @ W_K, "p": P @ W_K}
    zq = {k: complex_pairs(x, table) for k, x in parts[0].items()}  # (n, r/2)
    zk = {k: complex_pairs(x, table) for k, x in parts[1].items()}
    names = {"qk": ("c", "c"), "qp": ("c", "p"), "pk": ("p", "c"), "p": ("p", "p")}
    grams = {nm: s * np.einsum("it,jt->tij", zq[a], np.conj(zk[b])) for nm, (a, b) in names.items()}
    phi = table.angles  # (n, r/2)
    phases = np.exp(1j * (phi.T[:, :, None] - phi.T[:, None, :]))  # (r/2, n, n)
    r = table.rotary_dim
    rest = lambda x: x[:, r:]  # noqa: E731  (non-rotary coordinates: pairs cover 0..r-1 in both pairings)
    q, k = parts[0]["c"] + parts[0]["p"], parts[1]["c"] + parts[1]["p"]
    return RopeTerms(grams, phases, s * (rest(q) @ rest(k).T), s)


def rope_logits(q, k, table: enc.RotaryTable) -> np.ndarray:
    """Reference: ``(R_i q_i)·(R_j k_j)`` by rotating with ``table.apply``, shape (n, n).

    Parameters
    ----------
    q, k : array_like, shape (n, d_head)
        Queries and keys of positions 0..n-1.
    table : petheory.encodings.RotaryTable
        The rotation (``table.apply``), with n rows.

    Returns
    -------
    numpy.ndarray
        Unscaled logits ``(R_i q_i) . (R_j k_j)``, shape (n, n).

    References
    ----------
    su2024 Eq. 14-16.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling, encodings
    >>> q = np.ones((3, 4))
    >>> L = coupling.rope_logits(q, q, encodings.rope(3, 4))
    >>> bool(np.allclose(np.diag(L), 4.0)), bool(np.isclose(L[2, 1], L[1, 0]))  # depends on i - j only
    (True, True)
    """
    return table.apply(q) @ table.apply(k).T


def single_phase_defect(S, L, *, n_grid: int = 4096) -> float:
    r"""How far Eq. 9's single-``G_e`` form is from the real RoPE logits, as a certified lower bound.

    Eq. 9 / Prop. B.1 claims ``L = Re{S ∘ G_e}`` with ``S = Σ Gram`` (the complex Gram summed over
    bands, shape (n, n)) and ``G_e[i, j] = e_{i-j}``, ``|e_m| = 1``: one unit-modulus number per
    diagonal. This returns

    .. math:: \max_m \min_{|e|=1} \max_{i-j=m} |\operatorname{Re}(S_{ij} e) - L_{ij}|,

    the smallest possible worst-entry error of any such ``G_e`` (0 iff one exists). Each entry is
    ``|S_ij| cos(arg S_ij + ψ) - L_ij``, Lipschitz in ``ψ`` with constant ``|S_ij|``, so the
    minimum over a grid of ``n_grid`` angles minus ``max|S| π / n_grid`` is a lower bound of the
    true minimum: a positive value proves that no Toeplitz unit-modulus ``G_e`` exists for this
    ``S, L`` (even one allowed to depend on the content).

    Parameters
    ----------
    S : array_like, shape (n, n), complex
        The complex Gram summed over bands.
    L : array_like, shape (n, n), real
        The real RoPE logits.
    n_grid : int, optional
        Angles tried per diagonal (default 4096).

    Returns
    -------
    float
        The certified lower bound (0 when a single ``G_e`` reproduces ``L`` up to the grid's resolution).

    References
    ----------
    gu2025 Eq. 9 and Prop. B.1.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> S = np.array([[1.0, 1j], [-1j, 1.0]])
    >>> coupling.single_phase_defect(S, np.array([[1.0, 0.0], [0.0, 1.0]])) <= 1e-12  # e = 1 on every diagonal
    True
    """
    S = v.square("S", S, dtype="complex")
    L = v.square("L", L)
    if L.shape != S.shape:
        raise ValidationError(f"L must have the shape of S {S.shape}, got {L.shape}")
    n_grid = v.integer("n_grid", n_grid, minimum=8)
    n = S.shape[0]
    _memory.require(_memory.array_bytes(n_grid, n + 2, itemsize=4 * 16), f"phase grid of {n_grid} angles (n = {n})",
                    alternative="use a smaller n_grid")
    psi = np.linspace(0.0, 2 * np.pi, n_grid, endpoint=False)
    rot = np.exp(1j * psi)  # (g,)
    worst = 0.0
    for m in range(-(n - 1), n):
        s, l = np.diagonal(S, -m), np.diagonal(L, -m)  # entries with i - j = m
        err = np.abs(np.real(s[:, None] * rot[None, :]) - l[:, None]).max(axis=0)  # (g,)
        worst = max(worst, float(err.min()) - float(np.abs(s).max()) * np.pi / n_grid)
    return max(worst, 0.0)


# ---------------------------------------------------------------------------- additive vs Hadamard


MODES = ("additive", "hadamard")


def compose(W, X, mode: str) -> np.ndarray:
    """``W + X`` (additive: bias-style PE) or ``W ∘ X`` (Hadamard: RoPE-style), shape (n, n).

    Parameters
    ----------
    W : array_like, shape (n, n)
        Content logits.
    X : array_like, shape (n, n)
        Position matrix: a bias (``additive``) or a relative-phase kernel (``hadamard``).
    mode : {'additive', 'hadamard'}
        How the two combine.

    Returns
    -------
    numpy.ndarray
        Shape (n, n).

    Raises
    ------
    petheory.errors.ValidationError
        Another mode, or shapes that differ.

    See Also
    --------
    spectral_summary

    References
    ----------
    gu2025 §3.1 and Eq. 8-9 (additive vs multiplicative coupling).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> W, X = np.ones((2, 2)), np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> coupling.compose(W, X, 'additive')
    array([[2., 3.],
           [4., 5.]])
    >>> coupling.compose(W, X, 'hadamard')
    array([[1., 2.],
           [3., 4.]])
    """
    v.choice("mode", mode, MODES)
    W = v.square("W", W, dtype="any")
    X = v.square("X", X, dtype="any")
    if X.shape != W.shape:
        raise ValidationError(f"X must have the shape of W {W.shape}, got {X.shape}")
    return W + X if mode == "additive" else W * X


def rope_band_average(offsets, thetas, weights=None) -> np.ndarray:
    r"""RoPE's band average :math:`e_k = \sum_t \alpha_t e^{ik\theta_t}` at the given offsets k, complex, shape of ``offsets``.

    gu2025 App. B, Prop. B.3: the Toeplitz matrix :math:`E = [e_{i-j}]` that RoPE's bands
    multiply the content logits by, a convex combination of single-band rank-one kernels, so
    Hermitian positive semidefinite with unit diagonal. ``weights`` (non-negative, shape of
    ``thetas``) are normalised to the simplex; ``None`` means uniform, the plain mean over bands.
    :math:`e_0 = 1` exactly (not up to the rounding of :math:`\sum_t\alpha_t`).

    Parameters
    ----------
    offsets : array_like of int
        The offsets ``k = i - j``; any shape.
    thetas : array_like of float
        The band frequencies :math:`\theta_t`.
    weights : array_like of float, optional
        Non-negative band weights, normalised to sum to 1 (default uniform).

    Returns
    -------
    numpy.ndarray
        :math:`e_k`, complex128, the shape of ``offsets``.

    Raises
    ------
    petheory.errors.ValidationError
        Negative or all-zero weights, or weights of another shape than ``thetas``.

    References
    ----------
    gu2025 App. B, Prop. B.3.

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> e = coupling.rope_band_average([0, 1], [0.0, np.pi])
    >>> np.round(e, 12).tolist()  # e_0 = 1; e_1 = (1 + e^{i pi}) / 2 = 0
    [(1+0j), 0j]
    """
    k = np.asarray(offsets, dtype=np.float64)
    th = v.array("thetas", thetas, ndim=1, dtype="real")
    if weights is None:
        a = np.full(th.size, 1.0 / th.size)
    else:
        a = v.array("weights", weights, ndim=1, dtype="real")
        if a.shape != th.shape:
            raise ValidationError(f"weights must have the shape of thetas {th.shape}, got {a.shape}")
        if (a < 0).any() or a.sum() <= 0:
            raise ValidationError("weights must be non-negative with a positive sum (they are normalised to the simplex)")
        a = a / a.sum()
    e = np.exp(1j * k[..., None] * th) @ a
    e[k == 0] = 1.0
    return e


def spectral_summary(M) -> dict:
    """Spectrum of ``M`` (n, n) and the numbers gu2025 App. B compares.

    Parameters
    ----------
    M : array_like, shape (n, n)
        A logit or position matrix (real or complex).

    Returns
    -------
    dict
        ``eigenvalues`` (real, ascending, when ``M`` is Hermitian; else complex, by modulus),
        ``hermitian``, ``min``, ``max``, ``range`` (``max - min`` of the real parts),
        ``spectral_radius``, ``condition`` (2-norm, ``σ_max/σ_min``; inf when singular),
        ``toeplitz_defect`` and ``softmax_toeplitz_defect`` (of the row softmax of ``Re M``).

    Notes
    -----
    Hermitian input goes through ``eigvalsh`` (backward stable, errors ``~ n u ||M||``);
    otherwise ``eigvals``, whose eigenvalues can be ill-conditioned (non-normal matrices).

    References
    ----------
    gu2025 App. B (the spectra of additive and multiplicative couplings).

    Examples
    --------
    >>> import numpy as np
    >>> from petheory import coupling
    >>> s = coupling.spectral_summary(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> s["hermitian"], round(s["min"], 12), round(s["max"], 12), round(s["condition"], 12)
    (True, 1.0, 3.0, 3.0)
    """
    M = v.square("M", M, dtype="any")
    herm = bool(np.allclose(M, M.conj().T, rtol=0, atol=8 * M.shape[0] * np.finfo(float).eps * max(np.abs(M).max(), 1e-300)))
    if herm:
        ev = np.linalg.eigvalsh((M + M.conj().T) / 2)
        lo, hi = float(ev[0]), float(ev[-1])
    else:
        ev = np.linalg.eigvals(M)
        ev = ev[np.argsort(np.abs(ev))]
        lo, hi = float(ev.real.min()), float(ev.real.max())
    sv = np.linalg.svd(M, compute_uv=False)
    return {
        "eigenvalues": ev,
        "hermitian": herm,
        "min": lo,
        "max": hi,
        "range": hi - lo,
        "spectral_radius": float(np.abs(ev).max()),
        "condition": float(sv[0] / sv[-1]) if sv[-1] > 0 else math.inf,
        "toeplitz_defect": tp.toeplitz_defect(M),
        "softmax_toeplitz_defect": tp.toeplitz_defect(softmax.row_softmax(np.real(M))),
    }

