r"""A model's positional scheme, per layer: the one object every analysis takes.

A PE is resolved once, at the edge (a spec string, a ``config.json``, ``hf:DIR`` or a table
file), into a :class:`Scheme`; ``spectrum``, ``stress``, ``bounds``, ``report`` and ``compare``
(:mod:`petheory.analyses`) all take that object, so the same model gives the same numbers in
every command. A plain spec (``rope``, ``alibi:slope=0.5``, a table) is the one-layer scheme
(:meth:`Scheme.single`).

For each layer (:class:`Layer`):

* its position mechanism (:class:`Positions`): rotary (a registry entry whose parameters give
  the frequencies, the rotary dimensions, the pairing, the scaling and the factor on cos/sin),
  an additive bias (ALiBi slopes per head, T5 buckets), an absolute table added to the inputs,
  ``nope`` (softmax attention that sees no position), or ``none`` (a layer with no attention
  positions at all, such as a linear-attention layer);
* its attention span (:class:`Span`): full, a sliding window of W tokens, or chunks of C tokens;
* a length-dependent attention temperature (:class:`Temperature`: YaRN's mscale, Llama 4's
  NoPE-layer query scaling), learned attention sinks (``sinks``), and for multimodal RoPE the
  sections (:class:`MRope`). The theory analyses text-only positions, where every position axis
  of M-RoPE carries the same index and the sections rotate exactly as plain RoPE; the sections
  are kept so a report can say so.

Pure: numbers only, no file is read (:mod:`petheory.loaders` reads files, :mod:`petheory.models`
turns a config into a scheme).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from petheory.errors import ValidationError, ValidationTypeError

__all__ = ["MECHANISMS", "SPANS", "TEMPERATURES", "MRope", "Positions", "Span", "Temperature", "Layer", "Scheme",
           "layer_ranges"]

#: Position mechanisms of one layer.
MECHANISMS = ("rotary", "bias", "absolute", "table", "nope", "none")
#: Attention spans.
SPANS = ("full", "sliding", "chunked")
#: Length-dependent attention temperatures.
TEMPERATURES = ("constant", "llama4", "llama4_beta")


@dataclass(frozen=True)
class MRope:
    """Multimodal RoPE sections (Qwen2-VL's ``mrope_section``).

    Attributes
    ----------
    sections : tuple of int
        Bands per position axis, in the order of ``axes``; they sum to the rotary bands (rotary_dim / 2).
    layout : str
        ``'chunked'`` (Qwen2-VL, Qwen2.5-VL: the first sections[0] bands follow axis 0, ...),
        ``'interleaved'`` (Qwen3-VL: band t follows axis t mod 3 within the sections' counts) or
        ``'hw_alternating'`` (ERNIE 4.5-VL: the first sections[1] + sections[2] bands alternate axes 1 and 2, band 2k
        axis 1 and band 2k + 1 axis 2, so sections[1] = sections[2]; the last sections[0] follow axis 0).
    axes : tuple of str
        The position axes, ``('t', 'h', 'w')``.

    Notes
    -----
    For text-only inputs every axis carries the same position index, so each band rotates by
    the same angle as plain RoPE: the analyses of the theory (one position axis) are exact there.
    """

    sections: tuple
    layout: str = "chunked"
    axes: tuple = ("t", "h", "w")

    def __post_init__(self):
        object.__setattr__(self, "sections", tuple(int(s) for s in self.sections))
        object.__setattr__(self, "axes", tuple(self.axes))
        if self.layout not in ("chunked", "interleaved", "hw_alternating"):
            raise ValidationError(f"M-RoPE layout must be 'chunked', 'interleaved' or 'hw_alternating', got {self.layout!r}")
        if len(self.sections) != len(self.axes) or any(s < 0 for s in self.sections):
            raise ValidationError(f"M-RoPE sections {self.sections} must be {len(self.axes)} non-negative band counts, one per "
                                  f"axis {self.axes}")
        if self.layout == "hw_alternating" and (len(self.axes) != 3 or self.sections[1] != self.sections[2]):
            raise ValidationError(f"M-RoPE sections {self.sections}: the hw_alternating layout pairs each band of axis "
                                  f"{self.axes[1]!r} with one of the next axis, so their counts must be equal")

    def band_axes(self) -> tuple:
        """The position axis each band follows, one per band (sum of the sections)."""
        n = sum(self.sections)
        if self.layout == "chunked":
            return tuple(a for a, s in zip(self.axes, self.sections) for _ in range(s))
        if self.layout == "hw_alternating":  # ERNIE 4.5-VL's recomposition: stack(h, w) then t
            return (self.axes[1], self.axes[2]) * self.sections[1] + (self.axes[0],) * self.sections[0]
        # interleaved (transformers' Qwen3-VL apply_interleaved_mrope): band t follows axis a = t mod k (a >= 1)
        # when t < k * sections[a], else axis 0
        k = len(self.axes)
        out = []
        for t in range(n):
            a = t % k
            out.append(self.axes[a] if a and t < k * self.sections[a] else self.axes[0])
        return tuple(out)


@dataclass(frozen=True)
class Positions:
    r"""One layer's position mechanism.

    Attributes
    ----------
    kind : str
        One of :data:`MECHANISMS`.
    encoding : str or None
        The registry entry (``rope``, ``rope_yarn``, ``alibi``, ``t5``, ``sinusoidal``, ``mla_rope``, ...)
        for ``rotary``, ``bias`` and ``absolute``; None otherwise.
    params : dict
        Keyword parameters of the registry entry (lists as tuples).
    d : int
        Dimension of the query/key vectors it acts on (a head's size; MLA: rope + content parts).
    logit_factor : float
        Factor on every logit beyond :math:`1/\sqrt{d_{head}}` (Gemma's ``query_pre_attn_scalar``,
        DeepSeek-V3's ``mscale_all_dim`` squared); YaRN's factor on cos/sin is in ``params``.
    heads : tuple of dict
        Per-head parameter overrides (ALiBi's slopes); empty when every head is the same.
    mrope : MRope or None
        Multimodal RoPE sections, for a rotary layer of a vision-language model.
    table : numpy.ndarray or None
        The (N, d) table of a ``table`` layer (not compared, not serialised).
    source : str or None
        Where a table came from (a path, ``hf:DIR#KEY``).
    proportional : bool
        Proportional RoPE (Gemma 4's global layers): the half-split pairs span the whole head,
        coordinate t with t + d/2, and only the first ``rotary_dim / 2`` pairs rotate (transformers
        zero-pads the frequencies of the others). The frequencies and kernels are those of
        ``params`` (its ladder is the cut one); only where the rotated coordinates sit differs
        from a partial rotary slice (:func:`petheory.encodings.rotate` and ``petheory bands``,
        :func:`petheory.loaders.band_usage.band_pairs`, read it).
    reflected : bool
        The layer rotates by :math:`-\theta` (NanoChat's ``rotate_half`` with flipped signs): each pair
        :math:`(a, b)` becomes :math:`(a\cos\phi + b\sin\phi,\ -a\sin\phi + b\cos\phi)`. Its logit
        kernel at offset :math:`m - n` is the ordinary one at :math:`n - m`; equivalently, it is the same
        layer at :math:`+\theta` with the sign of each pair's second coordinate flipped in :math:`W_q` and
        :math:`W_k` alike, so the frequencies, bands and every kernel over weights are those of ``params``;
        only :func:`petheory.encodings.rotate` (a given vector's rotated coordinates) reads it.
    """

    kind: str
    encoding: str | None = None
    params: dict = field(default_factory=dict)
    d: int = 0
    logit_factor: float = 1.0
    heads: tuple = ()
    mrope: MRope | None = None
    table: object = field(default=None, compare=False, repr=False)
    source: str | None = None
    proportional: bool = False
    reflected: bool = False

    def __post_init__(self):
        if self.kind not in MECHANISMS:
            raise ValidationError(f"position mechanism {self.kind!r} is not one of {', '.join(MECHANISMS)}")
        if (self.encoding is None) != (self.kind in ("table", "nope", "none")):
            raise ValidationTypeError(f"a {self.kind!r} layer {'has no' if self.encoding else 'needs an'} encoding name")
        if self.kind == "table" and self.table is None:
            raise ValidationTypeError("a 'table' layer needs its table")
        if not (isinstance(self.logit_factor, (int, float)) and math.isfinite(self.logit_factor) and self.logit_factor > 0):
            raise ValidationError(f"logit_factor must be a finite number > 0, got {self.logit_factor!r}")
        if self.proportional and self.kind != "rotary":
            raise ValidationTypeError(f"proportional RoPE is a rotary layout; a {self.kind!r} layer cannot be proportional")
        if self.reflected and self.kind != "rotary":
            raise ValidationTypeError(f"a rotation by -theta is a rotary layout; a {self.kind!r} layer cannot have one")
        object.__setattr__(self, "params", dict(self.params or {}))
        object.__setattr__(self, "heads", tuple(self.heads or ()))

    @property
    def is_rotary(self) -> bool:
        return self.kind == "rotary"

    def as_dict(self) -> dict:
        """The positions as JSON data (a table by its shape, not its values)."""
        out = {"kind": self.kind, "encoding": self.encoding, "params": _jsonable(self.params), "d": self.d,
               "logit_factor": self.logit_factor}
        if self.heads:
            out["heads"] = _jsonable(list(self.heads))
        if self.mrope is not None:
            out["mrope"] = {"sections": list(self.mrope.sections), "layout": self.mrope.layout,
                            "axes": list(self.mrope.axes)}
        if self.source is not None:
            out["source"] = self.source
        if self.proportional:
            out["proportional"] = True
        if self.reflected:
            out["reflected"] = True
        if self.table is not None:
            out["shape"] = list(np.shape(self.table))
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Positions":
        """The positions :meth:`as_dict` wrote (lists as tuples); a table's values are not in it, so a table refuses.

        >>> p = Positions("bias", "alibi", {"slope": 0.5}, 64)
        >>> Positions.from_dict(p.as_dict()) == p
        True
        """
        if "shape" in d:
            raise ValueError(f"a {d.get('kind')!r} layer's table of shape {d['shape']} is not in the JSON (only its "
                             "shape): read the table file again")
        mrope = d.get("mrope")
        return cls(d["kind"], d["encoding"], _tuples(d["params"]), d["d"], d["logit_factor"],
                   tuple(_tuples(h) for h in d.get("heads", ())),
                   None if mrope is None else MRope(tuple(mrope["sections"]), mrope["layout"], tuple(mrope["axes"])),
                   None, d.get("source"), d.get("proportional", False),
                   d.get("reflected", False))


@dataclass(frozen=True)
class Span:
    """Which keys a query attends to: all earlier ones, the last ``size`` (sliding), or its chunk of ``size``.

    Attributes
    ----------
    kind : {'full', 'sliding', 'chunked'}
        One of :data:`SPANS`.
    size : int or None
        The window or chunk size; None for ``full``.
    """

    kind: str = "full"
    size: int | None = None

    def __post_init__(self):
        if self.kind not in SPANS:
            raise ValidationError(f"attention span {self.kind!r} is not one of {', '.join(SPANS)}")
        if (self.size is None) != (self.kind == "full"):
            raise ValidationError(f"a {self.kind} span {'takes no' if self.kind == 'full' else 'needs a'} size")
        if self.size is not None and (isinstance(self.size, bool) or not isinstance(self.size, int) or self.size < 1):
            raise ValidationError(f"attention span size must be an integer >= 1, got {self.size!r}")

    def reach(self, length: int) -> int:
        """The largest query-key distance + 1 used within ``length`` positions."""
        return length if self.size is None else min(length, self.size)

    def __str__(self) -> str:
        return "full" if self.kind == "full" else f"{self.kind} {self.size}"

    def as_dict(self) -> dict:
        """``{"kind": ..., "size": ...}``."""
        return {"kind": self.kind, "size": self.size}

    @classmethod
    def from_dict(cls, d: dict) -> "Span":
        """The span :meth:`as_dict` wrote.

        >>> Span.from_dict(Span("sliding", 4096).as_dict())
        Span(kind='sliding', size=4096)
        """
        return cls(d["kind"], d["size"])


@dataclass(frozen=True)
class Temperature:
    r"""A factor on the query (so on every logit) that depends on the query's position.

    ``constant``: ``params['factor']`` at every position (YaRN's mscale squared where it
    multiplies the logits). ``llama4``: transformers' Llama 4 NoPE-layer query scaling,
    :math:`\log(\lfloor (p + 1) / f\rfloor + 1)\,s + 1` with ``floor_scale`` f and
    ``attn_scale`` s at position p. ``llama4_beta``: transformers' ``get_llama_4_attn_scale`` (Ministral 3, on
    every attention layer), :math:`1 + \beta \log(1 + \lfloor p / L_0 \rfloor)` with ``beta`` and
    ``original_max_position_embeddings`` :math:`L_0`.

    Attributes
    ----------
    kind : str
        One of :data:`TEMPERATURES`.
    params : dict
        Its parameters (``factor``; ``floor_scale`` and ``attn_scale``; ``beta`` and
        ``original_max_position_embeddings``).
    """

    kind: str
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.kind not in TEMPERATURES:
            raise ValidationError(f"attention temperature {self.kind!r} is not one of {', '.join(TEMPERATURES)}")
        object.__setattr__(self, "params", dict(self.params or {}))

    def at(self, positions) -> np.ndarray:
        """The factor at each position (0-based), shape of ``positions``.

        >>> Temperature("llama4", {"floor_scale": 8192, "attn_scale": 0.1}).at([0, 8191, 8192]).round(6).tolist()
        [1.0, 1.069315, 1.069315]
        """
        p = np.asarray(positions, dtype=np.float64)
        if self.kind == "constant":
            return np.full(p.shape, float(self.params["factor"]))
        if self.kind == "llama4_beta":
            beta, L0 = float(self.params["beta"]), float(self.params["original_max_position_embeddings"])
            return 1.0 + beta * np.log(1.0 + np.floor(p / L0))
        f, s = float(self.params["floor_scale"]), float(self.params["attn_scale"])
        return np.log(np.floor((p + 1.0) / f) + 1.0) * s + 1.0


@dataclass(frozen=True)
class Layer:
    """One attention layer: its positions, span, temperature, sinks and mask.

    Attributes
    ----------
    positions : Positions
        Its position mechanism.
    span : Span
        Which keys a query attends to.
    temperature : Temperature or None
        A factor on the query that depends on its position; None for none.
    sinks : bool
        Whether the layer has learned attention sinks (a per-head logit outside the positions).
    type : str
        The config's own name for the layer kind (``full_attention``, ``sliding_attention``,
        ``chunked_attention``, ``linear_attention``, ...), or ``''``.
    causal : bool
        False for a bidirectional (encoder) layer, whose queries attend to keys on both sides (a sliding span
        then reaches ``size - 1`` positions each way); the positions are the same. Written to JSON only when False.
    """

    positions: Positions
    span: Span = field(default_factory=Span)
    temperature: Temperature | None = None
    sinks: bool = False
    type: str = ""
    causal: bool = True

    def as_dict(self) -> dict:
        """The layer as JSON data."""
        out = {"type": self.type, "positions": self.positions.as_dict(), "span": self.span.as_dict(),
               "sinks": self.sinks}
        if not self.causal:
            out["causal"] = False
        if self.temperature is not None:
            out["temperature"] = {"kind": self.temperature.kind, **_jsonable(self.temperature.params)}
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Layer":
        """The layer :meth:`as_dict` wrote.

        >>> layer = Layer(Positions("nope"), Span("sliding", 8), type="sliding_attention")
        >>> Layer.from_dict(layer.as_dict()) == layer
        True
        >>> Layer.from_dict(Layer(Positions("nope"), Span("full"), causal=False).as_dict()).causal
        False
        """
        t = d.get("temperature")
        temperature = None if t is None else Temperature(t["kind"], {k: _tuples(x) for k, x in t.items()
                                                                      if k != "kind"})
        return cls(Positions.from_dict(d["positions"]), Span.from_dict(d["span"]), temperature,
                   d["sinks"], d["type"], d.get("causal", True))


@dataclass(frozen=True)
class Scheme:
    """The positional scheme of a model (or of a plain spec: one layer).

    Attributes
    ----------
    source : str
        The ``model_type`` of a config, ``'spec'`` for a registry entry, ``'table'`` for a file.
    layers : tuple of Layer
        One per attention layer, in order.
    context : int
        Original (pre-training) context L.
    max_context : int
        ``max_position_embeddings`` (the extended context of a scaled model).
    num_heads, num_kv_heads, head_dim : int
    notes : tuple of str
        What the scheme leaves out or assumes (soft-capping, learned values, text-only positions).
    spec : str or None
        The text it was resolved from.
    config : dict or None
        The parsed ``config.json`` a model's scheme was read from (:func:`petheory.models.resolve_config`), as read:
        what the analyses need besides the positions (its lints, where a plan's blocks go); None for a registry
        encoding, a table or a GGUF header. Not compared, not hashed, not in :meth:`as_dict`: two schemes with the same
        layers are the same scheme.
    """

    source: str
    layers: tuple
    context: int
    max_context: int
    num_heads: int = 1
    num_kv_heads: int = 1
    head_dim: int = 0
    notes: tuple = ()
    spec: str | None = None
    config: dict | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "layers", tuple(self.layers))
        object.__setattr__(self, "notes", tuple(self.notes))
        if not self.layers or not all(isinstance(x, Layer) for x in self.layers):
            raise ValidationTypeError(f"a Scheme holds one or more Layer, got {self.layers!r}")
        for name in ("context", "max_context"):
            val = getattr(self, name)
            if isinstance(val, bool) or not isinstance(val, int) or val < 1:
                raise ValidationError(f"Scheme.{name} must be an integer >= 1, got {val!r}")

    @classmethod
    def single(cls, positions: Positions, *, context: int, source: str = "spec", spec: str | None = None,
               span: Span | None = None, notes=()) -> "Scheme":
        """The one-layer scheme of a plain spec.

        >>> s = Scheme.single(Positions("rotary", "rope", {"base": 10000.0}, 64), context=4096)
        >>> len(s.layers), s.main.positions.encoding
        (1, 'rope')
        """
        return cls(source, (Layer(positions, span or Span()),), context, context, 1, 1, positions.d, tuple(notes), spec)

    def kinds(self) -> list:
        """The distinct layer kinds, in order of first appearance: a list of (Layer, layer indices)."""
        out: list = []
        for i, layer in enumerate(self.layers):
            for k, (known, idx) in enumerate(out):
                if known == layer:
                    idx.append(i)
                    break
            else:
                out.append((layer, [i]))
        return [(layer, tuple(idx)) for layer, idx in out]

    def position_kinds(self) -> list:
        """The distinct position mechanisms (spans, temperatures and sinks aside), in order of first appearance:
        a list of (Positions, layer indices). What an analysis that ignores the span (stress, bounds) iterates."""
        out: list = []
        for i, layer in enumerate(self.layers):
            for known, idx in out:
                if known == layer.positions:
                    idx.append(i)
                    break
            else:
                out.append((layer.positions, [i]))
        return out

    @property
    def main(self) -> Layer:
        """The first full-attention layer with positions (else the first layer): a one-line summary's subject."""
        for layer in self.layers:
            if layer.span.kind == "full" and layer.positions.kind not in ("nope", "none"):
                return layer
        return self.layers[0]

    def as_dict(self) -> dict:
        """The scheme as JSON data: its distinct layer kinds, and each layer's kind in ``layer_kind``."""
        kinds = self.kinds()
        return {"source": self.source, "spec": self.spec, "context": self.context, "max_context": self.max_context,
                "num_heads": self.num_heads, "num_kv_heads": self.num_kv_heads, "head_dim": self.head_dim,
                "num_layers": len(self.layers),
                "kinds": [{"layers": list(idx), **layer.as_dict()} for layer, idx in kinds],
                "layer_kind": [next(k for k, (_, idx) in enumerate(kinds) if i in idx) for i in range(len(self.layers))],
                "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, d: dict) -> "Scheme":
        """The scheme :meth:`as_dict` wrote: each layer the kind ``layer_kind`` names.

        Raises ``ValueError`` where the JSON cannot give the scheme back: a table layer (its values are not in it),
        ``layer_kind`` naming a kind that is not there, or disagreeing with the kinds' ``layers``.

        >>> s = Scheme.single(Positions("rotary", "rope", {"base": 10000.0}, 64), context=4096)
        >>> Scheme.from_dict(s.as_dict()) == s
        True
        """
        kinds = [Layer.from_dict({k: x for k, x in kind.items() if k != "layers"}) for kind in d["kinds"]]
        lk = d["layer_kind"]
        if len(lk) != d["num_layers"] or any(not isinstance(k, int) or not 0 <= k < len(kinds) for k in lk):
            raise ValueError(f"a scheme's layer_kind {lk} does not name one of its {len(kinds)} kinds for each of its "
                             f"{d['num_layers']} layers")
        if any([i for i, k in enumerate(lk) if k == j] != kind["layers"] for j, kind in enumerate(d["kinds"])):
            raise ValueError("a scheme's layer_kind disagrees with the layers its kinds list")
        return cls(d["source"], tuple(kinds[k] for k in lk), d["context"], d["max_context"], d["num_heads"],
                   d["num_kv_heads"], d["head_dim"], tuple(d["notes"]), d["spec"])


def layer_ranges(idx) -> str:
    """Layer indices as ranges.

    Parameters
    ----------
    idx : iterable of int
        Layer indices (sorted, or sorted here).

    Returns
    -------
    str
        Runs of consecutive indices as ``a-b``, joined by ``', '``.

    Examples
    --------
    >>> from petheory.scheme import layer_ranges
    >>> layer_ranges([0, 1, 2, 3, 5, 7, 8, 9])
    '0-3, 5, 7-9'
    """
    idx = list(idx)
    out, start = [], idx[0] if idx else None
    for a, b in zip(idx, idx[1:] + [None]):
        if b != a + 1 if b is not None else True:
            out.append(f"{start}" if start == a else f"{start}-{a}")
            start = b
    return ", ".join(out)


def _tuples(x):
    """JSON data as the scheme holds it: lists as tuples, in dicts and lists alike (``_jsonable``'s inverse)."""
    if isinstance(x, dict):
        return {k: _tuples(v) for k, v in x.items()}
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    return x


def _jsonable(x):
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    return x
