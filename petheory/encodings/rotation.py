r"""Query and key vectors rotated as a model's layer rotates them: the apply-level reference.

:func:`rotate` takes the vectors of one head, ``(..., T, d)``, their positions and one layer of a
:class:`petheory.scheme.Scheme` (from ``--pe MODEL``, :func:`petheory.models.resolve_config`, a GGUF
header or a plain spec) and returns the vectors the layer's attention dots, in float64: the pairing
(half-split ``rotate_half`` or adjacent pairs), the partial rotary slice (the first ``rotary_dim``
coordinates rotate, the rest pass through), proportional RoPE's pairs across the whole head
(Gemma 4), M-RoPE's sections (chunked Qwen2-VL, interleaved Qwen3-VL), the factor on cos and sin
(YaRN's attention factor, LongRoPE's) and MLA's rope part. An engine author compares an
implementation with it (``petheory rotate`` writes it to ``.npy``); the tests compare it with every
rotary family of transformers (``tests/models/test_rotate_vs_transformers.py``).

The frequencies come from the layer's registry entry (:func:`rotary_frequencies`): this module
adds where the rotated coordinates sit, never a second formula for the ladder.
"""

from __future__ import annotations

import numpy as np

from petheory import _validate as v
from petheory.encodings._registry import info
from petheory.encodings.rope_scaling import ROPE_SCALINGS
from petheory.errors import ValidationError, ValidationTypeError

__all__ = ["ROTATED_ENTRIES", "rotary_frequencies", "rotated_coordinates", "rotate"]

#: Registry entries :func:`rotate` applies: RoPE with any scaling models ship, and MLA's rope part.
ROTATED_ENTRIES = ROPE_SCALINGS + ("mla_rope",)

#: Entries whose frequencies depend on the current length (transformers: max(position_ids) + 1).
_LENGTH_DEPENDENT = ("rope_dynamic", "rope_longrope")


def _positions_of(layer):
    """The layer's :class:`~petheory.scheme.Positions` (a Layer or a Positions itself; duck-typed: encodings import
    nothing above them)."""
    pos = getattr(layer, "positions", layer)
    if not all(hasattr(pos, a) for a in ("kind", "encoding", "params", "d")):
        raise ValidationTypeError(f"rotate takes a petheory.scheme.Layer (or its Positions), got {type(layer).__name__}")
    return pos


def rotary_frequencies(layer, *, seq_len: int | None = None) -> tuple[np.ndarray, float, dict]:
    r"""A rotary layer's band frequencies, its factor on cos and sin, and where its rotated coordinates sit.

    Returns ``(freqs, mscale, layout)``: ``freqs`` (r/2,) in rad/position (band t of the ladder,
    as the layer's registry entry computes it at ``seq_len``), ``mscale`` the factor transformers
    puts on cos and sin (YaRN's and LongRoPE's attention factor; MLA's rope part takes its
    scaling's factor, not DeepSeek's ``mscale_all_dim``, which scales the softmax), and
    ``layout``: ``{"d": vector size, "rotary_dim": r, "pairing": ..., "proportional": bool}``.

    Parameters
    ----------
    layer : petheory.scheme.Layer or petheory.scheme.Positions
        A rotary layer whose encoding is one of :data:`ROTATED_ENTRIES`.
    seq_len : int, optional
        Current length, for the length-dependent entries (``rope_dynamic``, ``rope_longrope``) when the
        layer's parameters do not set it. Without either, they are read at a length within the original
        context (dynamic NTK: the plain base; LongRoPE: the short factors).

    Returns
    -------
    freqs : numpy.ndarray, shape (r/2,)
        Band frequencies in rad/position.
    mscale : float
        Factor on cos and sin (1 without one).
    layout : dict
        ``d`` (for MLA the rope part's size), ``rotary_dim``, ``pairing`` and ``proportional``.

    Raises
    ------
    ValidationError
        A layer that is not rotary or whose entry is not in :data:`ROTATED_ENTRIES`, or proportional
        RoPE on a layer that does not pair half-split over the whole head.
    ValidationTypeError
        ``layer`` is neither a Layer nor a Positions.

    Examples
    --------
    >>> from petheory.scheme import Positions
    >>> w, m, lay = rotary_frequencies(Positions("rotary", "rope", {"base": 100.0, "pairing": "half"}, 4))
    >>> w.tolist(), m, lay["pairing"], lay["rotary_dim"]
    ([1.0, 0.1], 1.0, 'half', 4)
    >>> dyn = Positions("rotary", "rope_dynamic", {"n_max": 4}, 8)
    >>> w, m, lay = rotary_frequencies(dyn, seq_len=8)  # beyond n_max the base grows: slow bands slow down
    >>> w.round(6).tolist()
    [1.0, 0.069336, 0.004807, 0.000333]
    """
    pos = _positions_of(layer)
    if pos.kind != "rotary":
        what = {"nope": "a NoPE layer: softmax attention that sees no position", "none": "a layer without attention "
                "positions (linear attention)", "bias": f"an additive bias ({pos.encoding}) on the logits",
                "absolute": f"an absolute encoding ({pos.encoding}) added to the inputs", "table": "a position table "
                "added to the inputs"}.get(pos.kind, pos.kind)
        raise ValidationError(f"nothing rotates in this layer: it is {what}; rotate applies to rotary layers")
    if pos.encoding not in ROTATED_ENTRIES:
        raise ValidationError(f"rotate follows the rotary layers models ship ({', '.join(ROTATED_ENTRIES)}); "
                              f"{pos.encoding!r} is not one of them")
    params = dict(pos.params)
    if pos.encoding == "mla_rope":  # MLA: the rope part alone, with its scaling's frequencies and cos/sin factor
        d = int(pos.d)
        r = int(params.get("rope_dim") or 2 * (d // 4))
        name, params = params.get("scaling", "rope"), {"base": params.get("base", 10000.0),
                                                        "pairing": params.get("pairing", "interleaved"),
                                                        "rotary_dim": r, **dict(params.get("scaling_params") or {})}
        d = r
    else:
        name, d = pos.encoding, int(pos.d)
    if name in _LENGTH_DEPENDENT and params.get("seq_len") is None and seq_len is not None:
        params["seq_len"] = v.integer("seq_len", seq_len, minimum=1)
    table = info(name).fn(2, d, **params)
    freqs = np.asarray(table.angles[1] - table.angles[0], dtype=np.float64)
    layout = {"d": d, "rotary_dim": 2 * freqs.shape[0], "pairing": table.pairing,
              "proportional": bool(getattr(pos, "proportional", False))}
    if layout["proportional"] and (table.pairing != "half" or layout["rotary_dim"] > d):
        raise ValidationError("proportional RoPE pairs coordinate t with t + d/2 (half-split over the whole head); "
                              f"this layer has pairing {table.pairing!r}")
    return freqs, float(getattr(table, "mscale", 1.0)), layout


def rotated_coordinates(layout: dict) -> tuple[np.ndarray, np.ndarray]:
    """Indices (first, second) of each rotated pair of a layout from :func:`rotary_frequencies`, shape (r/2,) each.

    Interleaved: (2t, 2t+1); half-split: (t, t + r/2); proportional: (t, t + d/2). Coordinates in
    neither list pass through unrotated.

    Parameters
    ----------
    layout : dict
        With keys ``d``, ``rotary_dim``, ``pairing`` and ``proportional``, as :func:`rotary_frequencies`
        returns it.

    Returns
    -------
    first, second : numpy.ndarray of int, shape (r/2,)
        Coordinate indices of the two members of each rotated pair.

    Examples
    --------
    >>> [a.tolist() for a in rotated_coordinates({"d": 8, "rotary_dim": 4, "pairing": "half", "proportional": True})]
    [[0, 1], [4, 5]]
    >>> [a.tolist() for a in rotated_coordinates({"d": 8, "rotary_dim": 4, "pairing": "half", "proportional": False})]
    [[0, 1], [2, 3]]
    >>> [a.tolist() for a in rotated_coordinates({"d": 8, "rotary_dim": 4, "pairing": "interleaved",
    ...                                            "proportional": False})]
    [[0, 2], [1, 3]]
    """
    h, d = layout["rotary_dim"] // 2, layout["d"]
    t = np.arange(h)
    if layout["pairing"] == "interleaved":
        return 2 * t, 2 * t + 1
    return t, t + (d // 2 if layout["proportional"] else h)


def _angles(positions, layer, freqs: np.ndarray) -> np.ndarray:
    """(T, r/2) angles: position times frequency, each band reading its M-RoPE axis."""
    mrope = getattr(_positions_of(layer), "mrope", None)
    if positions.ndim == 1:
        return positions[:, None].astype(np.float64) * freqs[None, :]
    if mrope is None:
        raise ValidationError(f"positions of shape {positions.shape}: a layer without M-RoPE takes one position per "
                              "token, shape (T,)")
    axes = list(mrope.axes)
    if positions.shape[0] != len(axes):
        raise ValidationError(f"M-RoPE positions must have shape ({len(axes)}, T), one row per axis {tuple(axes)}; got "
                              f"{positions.shape}")
    band_axis = [axes.index(a) for a in mrope.band_axes()]
    if len(band_axis) != freqs.shape[0]:
        raise ValidationError(f"M-RoPE sections {mrope.sections} hold {len(band_axis)} bands; the layer rotates "
                              f"{freqs.shape[0]}")
    return positions[band_axis, :].T.astype(np.float64) * freqs[None, :]


def rotate(x, positions, layer, *, seq_len: int | None = None) -> np.ndarray:
    r"""Rotate query or key vectors of one head exactly as the layer's model does before the dot product.

    Parameters
    ----------
    x : array_like, shape (..., T, d)
        Query or key vectors (any leading batch/head axes); ``d`` is the layer's head size
        (``layer.positions.d``), for MLA the rope part alone (``qk_rope_head_dim``: DeepSeek's
        ``q_pe`` / ``k_pe``). Computed in float64.
    positions : array_like of int, shape (T,) or (3, T)
        Each token's position (>= 0). A layer with M-RoPE also takes one row per axis (t, h, w);
        one row means text: every axis carries the same index.
    layer : petheory.scheme.Layer or petheory.scheme.Positions
        A rotary layer (``kind == 'rotary'``); a NoPE, bias or position-free layer is refused.
    seq_len : int, optional
        The current length, for the entries whose frequencies depend on it (dynamic NTK, LongRoPE's
        short/long choice). Default ``max(positions) + 1``, as transformers' rotary modules read it.

    Returns
    -------
    numpy.ndarray, shape of ``x``, float64
        ``x`` with every rotated pair ``(a, b)`` of band t at angle :math:`\phi = p\,\omega_t` replaced
        by :math:`m(a\cos\phi - b\sin\phi,\ a\sin\phi + b\cos\phi)`, m the cos/sin factor (at
        :math:`-\phi` for a ``reflected`` layer: NanoChat); the other coordinates unchanged.

    Raises
    ------
    ValidationError
        A layer that rotates nothing, a size ``d`` other than the layer's, positions that are not
        non-negative integers of the right shape, non-finite vectors.

    Notes
    -----
    Where the pairs sit (:func:`rotated_coordinates`): adjacent ``(2t, 2t+1)`` for
    ``pairing='interleaved'`` (RoFormer, Llama 4, Cohere, DeepSeek's ``rope_interleave``, llama.cpp's
    ``LLAMA_ROPE_TYPE_NORM``), ``(t, t + r/2)`` for ``'half'`` (transformers' ``rotate_half``,
    llama.cpp's ``NEOX``), ``(t, t + d/2)`` for proportional RoPE. The two pairings give the same
    logits up to a fixed permutation of the coordinates, so a model run with the wrong one is not
    the model: the most common silent bug of an engine port. transformers' DeepSeek-V3
    (``apply_rotary_pos_emb_interleave``) also de-interleaves its output to half-split order; this
    keeps each pair in place (the logits are the same). Not applied here, because they scale
    logits, not vectors: the softmax scale, ``logit_factor``, a temperature, DeepSeek's
    ``mscale_all_dim``.

    See Also
    --------
    rotary_frequencies, rope_frequencies, RotaryTable.apply

    Examples
    --------
    >>> import numpy as np
    >>> from petheory.scheme import Positions
    >>> layer = Positions("rotary", "rope", {"base": 10000.0, "pairing": "half"}, 4)
    >>> rotate(np.array([[1.0, 0.0, 0.0, 0.0]]), [1], layer).round(4)  # pair (0, 2) turns by 1 rad
    array([[0.5403, 0.    , 0.8415, 0.    ]])
    """
    pos = _positions_of(layer)
    p = np.asarray(positions)
    if p.dtype == bool or not np.issubdtype(p.dtype, np.integer):
        raise ValidationError(f"positions must be integers (token indices), got dtype {p.dtype}")
    if p.ndim not in (1, 2) or p.shape[-1] < 1:
        raise ValidationError(f"positions must have shape (T,) or, for M-RoPE, (3, T); got {p.shape}")
    if (p < 0).any():
        raise ValidationError(f"positions must be >= 0, got {int(p.min())}")
    if int(p.max()) > 2**53:
        raise ValidationError(f"positions must be <= 2^53 (exact in float64), got {int(p.max())}")
    length = int(p.max()) + 1 if seq_len is None else v.integer("seq_len", seq_len, minimum=1)
    freqs, mscale, layout = rotary_frequencies(pos, seq_len=length)
    x = v.array("x", x, finite=True)
    if x.ndim < 2 or x.shape[-1] != layout["d"] or x.shape[-2] != p.shape[-1]:
        part = " (MLA: the rope part alone, qk_rope_head_dim)" if pos.encoding == "mla_rope" else ""
        raise ValidationError(f"x must have shape (..., T, d) with T = {p.shape[-1]} positions and d = {layout['d']}"
                              f"{part}; got {x.shape}")
    angles = _angles(p, pos, freqs)
    if getattr(pos, "reflected", False):  # NanoChat: rotate_half with flipped signs turns each pair by -phi
        angles = -angles
    cos, sin = mscale * np.cos(angles), mscale * np.sin(angles)
    first, second = rotated_coordinates(layout)
    a, b = x[..., first], x[..., second]
    out = np.array(x, dtype=np.float64, copy=True)
    out[..., first] = a * cos - b * sin
    out[..., second] = a * sin + b * cos
    return out
