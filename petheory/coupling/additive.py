r"""Eq. 8 of gu2025: the five terms of an additive PE's attention logits, and how Toeplitz each one is.

Convention: row vectors. Token ``i`` has content ``c_i`` and position ``p_i`` (rows of ``C`` and ``P``, shape (n, d));
projections are ``W_Q, W_K`` of shape ``(d, d_head)``, so ``q_i = x_i W_Q``. :func:`logit_terms` splits
:math:`L = G_{q^c,k^c}+G_{q^c,k^p}+G_{q^p,k^c}+G_{q^p,k^p}+B` exactly (the terms sum to the directly computed
logits up to rounding); :func:`toeplitz_report` says how Toeplitz each term is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import _validate as v
from petheory import toeplitz as tp
from petheory.errors import ValidationError
from petheory.coupling._checks import content_and_positions, projection


TERM_NAMES = ("cc", "cp", "pc", "pp", "bias")
TERM_LABELS = {
    "cc": "G_{q^c,k^c}",
    "cp": "G_{q^c,k^p}",
    "pc": "G_{q^p,k^c}",
    "pp": "G_{q^p,k^p}",
    "bias": "B",
}


@dataclass(frozen=True)
class LogitTerms:
    """The five terms of gu2025 Eq. 8, each of shape (n, n); ``total`` is their sum ``L``.

    ``cc[i, j] = s (c_i W_Q + b_Q)·(c_j W_K + b_K)``, ``cp[i, j] = s (c_i W_Q + b_Q)·(p_j W_K)``,
    ``pc[i, j] = s (p_i W_Q)·(c_j W_K + b_K)``, ``pp[i, j] = s (p_i W_Q)·(p_j W_K)`` and ``bias = B``
    (added unscaled), with ``s`` the logit scale.

    Attributes
    ----------
    cc, cp, pc, pp : numpy.ndarray, shape (n, n)
        Content-content, content-position, position-content and position-position terms (scaled by ``scale``).
    bias : numpy.ndarray, shape (n, n)
        The additive bias B, unscaled (zeros when there is none).
    scale : float
        The logit scale s the four projection terms carry.
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
    Projection biases are position-independent, so by Assumption 3.1 (":math:`c_i` is the
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
    C, P = content_and_positions(content, positions)
    n, d = C.shape
    W_Q = projection("W_Q", W_Q, d)
    W_K = projection("W_K", W_K, d)
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
        The split logits of :func:`logit_terms`.

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
