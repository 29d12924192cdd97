"""``rotate``: the expected rotated queries and keys of one rotary layer kind, the reference an engine is diffed with.

:func:`rotation_reference` draws seeded float64 queries and keys, rotates them exactly as the model does
(:func:`petheory.encodings.rotate`: pairing, partial rotary slice, proportional RoPE, M-RoPE sections, the factor on
cos and sin, MLA's rope part) and says how (:class:`RotationReference`, whose JSON is ``rotate.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral

import numpy as np

from petheory._validate import Interval, validate_params
from petheory.analyses.record import Record, item, to_json
from petheory.errors import ParameterError
from petheory.scheme import Scheme, layer_ranges


@dataclass(frozen=True)
class RotationReference(Record):
    """One rotary layer kind's rotated queries and keys (``arrays``, not in the JSON) and how they were made.

    Attributes
    ----------
    petheory_rotate : str
        The petheory version that wrote it.
    pe, model : str
        The spec (or config) the scheme was resolved from, and its source (``spec`` or the model type).
    layer : int
        The layer whose kind is written.
    layer_type : str or None
        Its type (``full_attention``, ``sliding_attention``, ...).
    layers_of_this_kind : str
        Every layer of the same kind, as ranges.
    encoding : str
        The registry entry of the layer's positions.
    params : dict
        Its parameters.
    pairing : str
        ``interleaved`` (adjacent pairs) or ``half`` (half-split).
    head_dim, rotary_dim : int
        The head size and the rotated coordinates' count.
    proportional : bool
        Proportional RoPE (the frequencies of the whole head on a slice).
    rotated_first, rotated_second, passthrough : list of int
        The coordinates of each pair's first and second member, and those left unchanged.
    frequencies : list of float
        Band frequencies, rad/position.
    cos_sin_factor : float
        The factor on cos and sin (YaRN's attention factor).
    frequencies_source : str
        Where the frequencies come from.
    mrope : dict or None
        M-RoPE's sections, layout and axes.
    seed : int
        Seed of the random q and k.
    shapes : dict
        Each array's shape.
    dtype : str
        ``float64``.
    formula : str
        The rotation, in words.
    notes : list of str
        The scheme's notes.
    mla, mrope_positions : str, optional
        What MLA's rope part and M-RoPE's text positions mean here (only for those).
    arrays : dict of numpy.ndarray
        ``q``, ``k``, ``positions``, ``q_rotated``, ``k_rotated``.
    """

    petheory_rotate: str
    pe: str | None
    model: str
    layer: int
    layer_type: str | None
    layers_of_this_kind: str
    encoding: str
    params: dict
    pairing: str
    head_dim: int
    rotary_dim: int
    proportional: bool
    rotated_first: list
    rotated_second: list
    passthrough: list
    frequencies: list
    cos_sin_factor: float
    frequencies_source: str
    mrope: dict | None
    seed: int
    shapes: dict
    dtype: str
    formula: str
    notes: list
    mla: str | None = item(omit=True)
    mrope_positions: str | None = item(omit=True)
    arrays: dict = item(json=False, default_factory=dict)

    def lines(self) -> list[str]:
        return [f"{self.model} layer {self.layer} ({self.layer_type or 'attention'}; layers {self.layers_of_this_kind}): "
                f"{self.encoding}, {self.pairing} pairing{', proportional' if self.proportional else ''}, "
                f"{self.rotary_dim} of {self.head_dim} dimensions rotate, cos/sin factor {self.cos_sin_factor:.6g}"]


#: The largest position :func:`rotation_reference` takes: float64 holds every integer up to :math:`2^{53}` exactly.
POSITION_MAX = 1 << 53


@validate_params({
    "index": [Interval(Integral, 0, None)],
    "heads": [Interval(Integral, 1, 4096)],
    "seed": [Interval(Integral, 0, 2**63 - 1)],  # numpy's seeds are non-negative 64-bit integers
})
def rotation_reference(scheme: Scheme, index: int, positions, *, heads: int = 1, seed: int = 0) -> RotationReference:
    """Random q, k of layer ``index``'s kind at ``positions`` and their rotations as the model does them.

    Parameters
    ----------
    scheme : petheory.scheme.Scheme
        From :func:`petheory.loaders.resolve_scheme`.
    index : int
        The layer whose kind is written (one of the scheme's layers; it must rotate).
    positions : array_like of int, shape (T,)
        Integer positions, at least one, each in ``[0, POSITION_MAX]`` (:math:`2^{53}`: float64 holds them exactly).
    heads : int
        Heads of random vectors: q and k are ``(heads, T, d)``.
    seed : int
        Seed of q and k.

    Returns
    -------
    RotationReference

    Raises
    ------
    petheory.errors.ParameterError
        ``index`` past the scheme's layers; no position, a non-integer, negative one, or one past ``POSITION_MAX``.
    petheory.errors.ValidationError
        A layer that rotates nothing; arrays beyond the memory limit.

    Examples
    --------
    >>> from petheory.loaders import resolve_scheme
    >>> ref = rotation_reference(resolve_scheme("rope:pairing=half", d=8), 0, np.arange(3))
    >>> ref.rotated_first, ref.arrays["q_rotated"].shape
    ([0, 1, 2, 3], (1, 3, 8))
    """
    from petheory import __version__, _memory
    from petheory.encodings import rotary_frequencies, rotate, rotated_coordinates

    n = len(scheme.layers)
    if index >= n:
        raise ParameterError("index", f"a layer of the model, 0..{n - 1}", index, owner=rotation_reference)
    arr = np.asarray(positions)  # a Python int past int64 makes an object array: its range is refused below
    integral = arr.dtype.kind in "iu" or (arr.dtype.kind == "O" and all(
        isinstance(x, Integral) and not isinstance(x, bool) for x in arr.flat))
    if arr.ndim != 1 or arr.size == 0 or not integral:
        raise ParameterError("positions", "a non-empty 1-D array of integers", positions, owner=rotation_reference)
    if int(arr.min()) < 0:
        raise ParameterError("positions", ">= 0", int(arr.min()), owner=rotation_reference)
    if int(arr.max()) > POSITION_MAX:
        raise ParameterError("positions", "<= 2^53 (exact in float64)", int(arr.max()), owner=rotation_reference)
    positions = arr.astype(np.int64)
    layer = scheme.layers[index]
    freqs, mscale, layout = rotary_frequencies(layer, seq_len=int(positions.max()) + 1)  # refuses a non-rotary layer
    # q, k, their rotations and rotate's temporaries: about 8 arrays of (heads, T, d) float64
    _memory.require(8 * _memory.array_bytes(heads, positions.shape[0], layout["d"]),
                    f"rotated q and k ({heads} heads x {positions.shape[0]} positions x {layout['d']})")
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((heads, positions.shape[0], layout["d"]))
    k = rng.standard_normal((heads, positions.shape[0], layout["d"]))
    arrays = {"q": q, "k": k, "positions": positions, "q_rotated": rotate(q, positions, layer),
              "k_rotated": rotate(k, positions, layer)}
    first, second = rotated_coordinates(layout)
    pos = layer.positions
    m = pos.mrope
    return RotationReference(
        __version__, scheme.spec, scheme.source, index, layer.type,
        layer_ranges([i for i, x in enumerate(scheme.layers) if x == layer]), pos.encoding, to_json(pos.params),
        layout["pairing"], layout["d"], layout["rotary_dim"], layout["proportional"], first.tolist(), second.tolist(),
        sorted(set(range(layout["d"])) - set(first.tolist()) - set(second.tolist())), freqs.tolist(), mscale,
        f"petheory.encodings registry entry {pos.encoding!r} with the params above, as resolved from "
        f"{scheme.spec or scheme.source!r} (at length max(positions) + 1 = {int(positions.max()) + 1} where the entry "
        "depends on it)",
        None if m is None else {"sections": list(m.sections), "layout": m.layout, "axes": list(m.axes)},
        seed, {name: list(a.shape) for name, a in arrays.items()}, "float64",
        f"per rotated pair (a, b) of band t at angle phi = {'-' if pos.reflected else ''}p * frequencies[t]"
        f"{' (the layer rotates by -theta)' if pos.reflected else ''}: (a cos phi - b sin phi, a sin phi + b cos "
        "phi), both times cos_sin_factor; passthrough coordinates unchanged",
        list(scheme.notes),
        mla=("q and k are MLA's rope part alone (qk_rope_head_dim; DeepSeek's q_pe/k_pe); transformers' "
             "apply_rotary_pos_emb_interleave returns it de-interleaved (half-split order), this keeps each pair in "
             "place") if pos.encoding == "mla_rope" else None,
        mrope_positions=("text positions: every axis (t, h, w) carries the same index (rotate() takes (3, T))"
                         if m is not None else None),
        arrays=arrays)
