r"""RoPE's logits in complex form (gu2025 Eq. 9, Prop. B.1): one Toeplitz unit-modulus phase matrix per frequency band,
exactly; and whether the *single* ``G_e`` of Eq. 9 exists (:func:`single_phase_defect`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import _memory
from petheory import _validate as v
from petheory import encodings as enc
from petheory.errors import ValidationError, ValidationTypeError
from petheory.coupling._checks import content_and_positions, projection


def complex_pairs(x, table: enc.RotaryTable) -> np.ndarray:
    r"""Pair the rotary coordinates of ``x`` (n, d) into complex numbers, shape (n, r/2):
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
    C, P = content_and_positions(content, positions)
    n, d = C.shape
    W_Q, W_K = projection("W_Q", W_Q, d), projection("W_K", W_K, d)
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
