r"""The Toeplitz matrix a positional encoding defines: what ``petheory spectrum --pe`` analyses.

Each kind of encoding gives one Hermitian Toeplitz matrix on positions (gu2025 §3.3):

=========  =====================================================================================
kind       matrix
=========  =====================================================================================
absolute   the position Gram :math:`P P^\top` (Toeplitz for sinusoidal, gu2025 Remark 3.2; a
           learned or loaded table is generally not, and its Toeplitz projection is used)
bias       the logit bias :math:`B` itself (formed densely; Toeplitz when built from ``i - j``)
rotary     the unit-content kernel :math:`a_k = \sum_t f_t \cos(k\theta_t)`
           (:func:`petheory.encodings.kernels.rotary_kernel`; xPos is not Hermitian)
=========  =====================================================================================
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from petheory import encodings as enc
from petheory.encodings.kernels import rotary_kernel
from petheory.toeplitz.operators import NotToeplitzError, gram_toeplitz_column, toeplitz_defect, toeplitz_projection


@dataclass(frozen=True)
class ToeplitzSource:
    """A Toeplitz section taken from an encoding: first column, first row, and how it was obtained.

    Attributes
    ----------
    column : ndarray (n,)
        First column :math:`a_0, a_1, \\dots, a_{n-1}`.
    row : ndarray (n,) or None
        First row :math:`a_0, a_{-1}, \\dots`; None when it is the conjugate of the column (Hermitian).
    description : str
        What the matrix is, for a report (ends in ``-> Toeplitz projection`` when ``projected``).
    defect : float
        Relative Toeplitz defect of the source matrix (0: built from ``i - j`` alone).
    projected : bool
        Whether the source matrix was not Toeplitz and ``column`` is its projection's (diagonal means).
    defect_exact : bool or None
        For a Gram: whether ``defect`` was measured on the whole matrix (False: estimated on 64
        rows, see :func:`petheory.toeplitz.gram_toeplitz_column`); None for biases and kernels.
    """

    column: np.ndarray
    row: np.ndarray | None
    description: str
    defect: float
    projected: bool
    defect_exact: bool | None = None


def gram_source(P, description: str, *, project: bool = True) -> ToeplitzSource:
    """The position Gram ``P P^T`` of a table ``P`` (n, d) as a :class:`ToeplitzSource`.

    ``project=False`` raises :class:`~petheory.toeplitz.operators.NotToeplitzError` (a ``ValueError``)
    when the Gram is not Toeplitz beyond rounding (the message starts with ``description``);
    otherwise its Toeplitz projection is used.

    Parameters
    ----------
    P : array_like, shape (n, d)
        Position table (rows are positions).
    description : str
        What the table is, for the record (and the start of a refusal's message).
    project : bool, optional
        Use the Toeplitz projection when the Gram is not Toeplitz (default True).

    Returns
    -------
    ToeplitzSource
        The Gram's column (or its projection's) and how it was obtained.

    Raises
    ------
    petheory.toeplitz.operators.NotToeplitzError
        ``project=False`` and the Gram is not Toeplitz beyond rounding.

    Examples
    --------
    >>> from petheory import encodings
    >>> from petheory.toeplitz.sources import gram_source
    >>> s = gram_source(encodings.sinusoidal(8, 4), "sinusoidal")
    >>> s.projected, s.column.shape
    (False, (8,))
    """
    try:
        g = gram_toeplitz_column(P, project=project)
    except NotToeplitzError as e:
        raise NotToeplitzError(f"{description}: {e}") from None
    return ToeplitzSource(g.column, None, description + (" -> Toeplitz projection" if g.projected else ""),
                          g.defect, g.projected, g.exact)


def encoding_source(name: str, n: int, d: int = 64, *, project: bool = True, **params) -> ToeplitzSource:
    """The Toeplitz matrix of the registered encoding ``name`` at ``n`` positions (width ``d``), see the module table.

    A bias is built as a dense ``(n, n)`` matrix; one that is not Toeplitz is projected
    (``project=True``) or refused with ``NotToeplitzError`` (``project=False``).

    Parameters
    ----------
    name : str
        A registered encoding (``petheory.encodings.available()``).
    n : int
        Number of positions.
    d : int, optional
        Width of an absolute encoding's table (default 64).
    project : bool, optional
        Use the Toeplitz projection of a matrix that is not Toeplitz (default True) instead of refusing it.
    **params
        Keyword arguments of the registry function (``slope``, ``base``, ...).

    Returns
    -------
    ToeplitzSource
        Its column, row, description and how it was obtained (``projected``, ``defect``).

    Raises
    ------
    petheory.toeplitz.operators.NotToeplitzError
        ``project=False`` and the matrix is not Toeplitz beyond rounding.
    petheory.errors.ValidationError
        An unknown encoding or a parameter it does not take.

    See Also
    --------
    gram_source, petheory.toeplitz.eigen.extreme_eigenvalues

    Examples
    --------
    >>> from petheory import toeplitz
    >>> s = toeplitz.encoding_source('alibi', 8, slope=0.5)
    >>> s.column[:3], s.projected
    (array([-0. , -0.5, -1. ]), False)
    >>> toeplitz.encoding_source('learned', 8, 4).projected  # a learned Gram is not Toeplitz
    True
    """
    info = enc.info(name)
    if info.kind == "bias":
        M = info.fn(n, **params)
        what = f"{name} logit bias B ({', '.join(f'{k}={v}' for k, v in params.items()) or 'defaults'})"
        defect = toeplitz_defect(M)
        projected = defect > 0.0  # entries computed from i - j alone: a Toeplitz bias has defect exactly 0
        if projected:
            if not project:
                raise NotToeplitzError(f"{what} is not Toeplitz (relative defect {defect:.3g})")
            M, what = toeplitz_projection(M), what + " -> Toeplitz projection"
        return ToeplitzSource(M[:, 0].copy(), M[0, :].copy(), what, defect, projected)
    if info.kind == "absolute":
        return gram_source(info.fn(n, d, **params), f"{name} position Gram P P^T (d={d})", project=project)
    # rotary: q = k = unit content in every band -> a_k = sum_t f_t cos(k theta_t)
    c, r = rotary_kernel(info.fn(n, d, **params))  # xPos: a_{-k} != a_k (not Hermitian); YaRN: times mscale^2
    what = f"{name} unit-content kernel Re sum_t f_t e^(ik theta_t) (d={d})"
    return ToeplitzSource(c, None if np.array_equal(c, r) else r, what, 0.0, False)
