r"""Position mechanisms as torch modules, built from the numpy registry in :mod:`petheory.encodings`.

Every formula comes from the registry (converted to tensors once per length and cached); this
module only decides *where* a position signal enters attention:

``absolute`` (sinusoidal, learned, random, nope, wavelet, legendre, ... any absolute encoding)
    a (T, d) table added to the token embeddings; fixed (a buffer) or trainable (a parameter).
``bias`` (alibi, t5, relative, fire)
    a (H, T, T) logit bias added inside softmax: ALiBi ``-m_h |i-j|`` with Press or gu2025
    slopes (fixed), T5 buckets or per-offset scalars with one learned value per head and
    bucket/offset (initialised at zero, so training starts from NoPE), FIRE's learned relation
    (:class:`FIREBias`, chen2025's reconstruction).
``rotary`` (rope)
    q and k of the first ``k`` heads rotated by ``R_p`` (``k = H``: RoPE; ``k < H``: partial
    RoPE), interleaved or half-split pairing, optionally plus an additive absolute PE on the
    inputs (gu2025's "rope" run adds sinusoidal; write ``rope+sinusoidal``).
``mla``
    DeepSeek-style decoupled RoPE with a latent KV projection; its keys are parsed here, its layer (and its
    sizes, :func:`petheory.nn.transformer.mla_sizes`) is :class:`petheory.nn.transformer.LatentAttention`.

Long-context entries (:mod:`petheory.encodings.extension`, :mod:`~petheory.encodings.kernels`,
:mod:`~petheory.encodings.combinations`): ``rope_pi``, ``rope_ntk``, ``rope_yarn`` and ``xpos`` go through :class:`Rotary` (YaRN's attention factor and xPos's per-band query/key
scales folded into cos/sin); ``kerple_log``/``kerple_power`` learn (r1, r2) per head (the
reference code's initialisation; ``kerple_log:r1=1,r2=0.5`` starts every head there);
``sandwich`` is a fixed bias; the named combinations ``rope_sinusoidal``, ``rope_learned`` and
``mla_rope`` become ``rope+sinusoidal``, ``rope+learned`` and ``mla`` (:data:`petheory.spec.NAMED_COMBINATIONS`).

A position is named by a *spec* (:mod:`petheory.spec`, the grammar every command's ``--pe``
takes), as text or a parsed :class:`petheory.spec.PESpec`; a model takes one named mechanism and
at most one absolute PE added to the inputs::

    name[:key=value,...][+absolute[:key=value,...]]

    "alibi"                      ALiBi, Press et al. slopes 2^(-8h/H)
    "alibi:slopes=gu2025"        ALiBi with gu2025's exp(-h/H) slopes
    "rope:heads=4,pairing=half"  partial RoPE on the first 4 heads, GPT-NeoX pairing
    "rope+sinusoidal"            gu2025's "rope": RoPE on all heads + sinusoidal inputs
    "random:trainable=true"      gu2025's "random": a trainable table initialised N(0, 1/d)
    "learned:n_max=50,beyond=clamp"  li2025's learned PE reusing p_{N_max} past the table
    "mla:latent=128,rope_dim=16" MLA with paper sizes
    "fire:hint=shift"            chen2025 reconstruction: FIRE's learned relation + a Scale Hint
                                 (FIREBias; petheory.nn.scale_hint; hint=shift|interp also on rope, alibi, ...)

Keys ``heads`` (rotary heads k), ``slopes`` (ALiBi schedule), ``trainable`` (absolute), ``hint``
(Scale Hint) and, for MLA, ``latent`` and ``rope_dim`` configure the mechanism; every other key is passed to the
registry function (``base``, ``pairing``, ``layout``, ``num_buckets``, ``max_offset``, ...).

Lengths: fixed absolute tables that are pure functions of position are extended on demand past
``max_len``; a trainable table has exactly ``table`` rows, and a longer input raises (or, with
``beyond=clamp`` given explicitly, reuses the last row as li2025 describes). Nothing is clamped
silently.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import torch
import torch.nn as nn

from petheory import encodings as enc
from petheory.spec import MECHANISM_KEYS, MECHANISMS, NAMED_COMBINATIONS, PESpec, PETerm, parse_pe_spec
from petheory.errors import ValidationError, ValidationTypeError


#: The mechanism keys of a canonical spec, in the order written (``slopes`` only when not the default ``press``).
_KEY_ORDER = ("heads", "latent", "rope_dim", "hint", "trainable", "slopes")


def model_spec(name: str, params: dict | None = None, *, absolute: str | None = None, absolute_params=None,
               **mechanism) -> PESpec:
    """The canonical spec of mechanism ``name`` with registry ``params``, mechanism keys and an absolute PE.

    Canonical: one mechanism term, its mechanism keys first in the order ``heads, latent, rope_dim, hint,
    trainable, slopes`` (``slopes`` only when not the default ``press``), then the registry parameters; at most
    one absolute term. ``str`` of it is the text records and config hashes keep. Nothing is checked here
    (:func:`parse_pe` checks).

    Parameters
    ----------
    name : str
        A registry encoding or ``'mla'``.
    params : dict, optional
        Keyword arguments of the registry function.
    absolute : str, optional
        An absolute encoding added to the inputs (the second term).
    absolute_params : dict, optional
        Its registry keyword arguments.
    **mechanism
        Mechanism keys (:data:`petheory.spec.MECHANISM_KEYS`); None values are left out.

    Returns
    -------
    petheory.spec.PESpec

    Examples
    --------
    >>> from petheory.nn.position import model_spec
    >>> str(model_spec("rope", {"base": 500}, heads=4, absolute="sinusoidal"))
    'rope:heads=4,base=500+sinusoidal'
    """
    keys = {k: mechanism[k] for k in _KEY_ORDER if mechanism.get(k) is not None}
    if keys.get("slopes") == "press":
        del keys["slopes"]
    terms = [PETerm(name=name, options=tuple({**keys, **(params or {})}.items()))]
    if absolute:
        terms.append(PETerm(name=absolute, options=tuple((absolute_params or {}).items())))
    return PESpec(tuple(terms))


def pe_names() -> list[str]:
    """Every mechanism name a spec can start with: the registry's encodings and ``'mla'``.

    Returns
    -------
    list of str
        The names.

    Examples
    --------
    >>> {"rope", "alibi", "mla"} <= set(pe_names())
    True
    """
    return enc.available() + [m for m in MECHANISMS if m not in enc.available()]


def _mechanism(spec: PESpec) -> dict:
    return {k: spec.params.get(k) for k in _KEY_ORDER}


def _resolve_alias(spec: PESpec) -> PESpec:
    """A named combination (:data:`petheory.spec.NAMED_COMBINATIONS`) as the mechanism that implements it; its
    options go to the part that takes them (``base`` to both; MLA's ``rope_dim`` to the mechanism)."""
    if spec.name not in NAMED_COMBINATIONS:
        return spec
    mech, absolute = NAMED_COMBINATIONS[spec.name]
    if absolute is not None and spec.absolute is not None:
        raise ValidationError(f"{spec.name!r} already adds {absolute!r}; write 'rope+{spec.absolute}' for another absolute PE")
    keys = _mechanism(spec)
    params, aparams = {}, {}
    if mech == "mla":
        extra = dict(spec.registry_params)
        if "rope_dim" in extra:
            keys["rope_dim"] = int(extra.pop("rope_dim"))
        if extra:
            raise ValidationError(f"mla_rope in a model takes rope_dim= and latent=, got {sorted(extra)}")
        return model_spec(mech, {}, absolute=spec.absolute, absolute_params=spec.absolute_params, **keys)
    rope_keys, abs_keys = set(enc.info(mech).params), set(enc.info(absolute).params)
    for k, x in spec.registry_params.items():
        if k not in rope_keys | abs_keys:
            raise ValidationError(f"{spec.name} takes {', '.join(sorted(rope_keys | abs_keys))}; got {k}")
        if k in rope_keys:
            params[k] = x
        if k in abs_keys:
            aparams[k] = x
    return model_spec(mech, params, absolute=absolute, absolute_params=aparams, **keys)


def parse_pe(spec) -> PESpec:
    """A model's position mechanism as one canonical :class:`petheory.spec.PESpec`.

    Named combinations (:data:`petheory.spec.NAMED_COMBINATIONS`: ``rope_sinusoidal``, ``rope_learned``,
    ``mla_rope``) become the mechanism that implements them (``rope+sinusoidal``, ``rope+learned``, ``mla``),
    the mechanism keys are written first (:func:`model_spec`), and the result is checked buildable. The spec's
    model readings (:attr:`~petheory.spec.PESpec.kind`, :attr:`~petheory.spec.PESpec.heads`, ...) are its
    properties. :class:`~petheory.nn.transformer.ModelConfig` calls this once, when it is made.

    Parameters
    ----------
    spec : str, petheory.spec.PESpec or petheory.scheme.Positions
        Spec text (:mod:`petheory.spec`), a parsed spec, or a resolved layer's positions (its registry name and
        parameters, as one term).

    Returns
    -------
    petheory.spec.PESpec
        Canonical: ``parse_pe(str(p)) == p``.

    Raises
    ------
    petheory.errors.ValidationError
        An unknown encoding, an option the encoding does not take, a table file (a model builds its mechanism
        from the registry) or more than one ``+``.
    petheory.errors.ValidationTypeError
        ``spec`` is none of the types above.

    Examples
    --------
    >>> from petheory.nn.position import parse_pe
    >>> pe = parse_pe("rope_sinusoidal:base=500")
    >>> str(pe), pe.kind, pe.absolute
    ('rope:base=500+sinusoidal:base=500', 'rotary', 'sinusoidal')
    >>> parse_pe("alibi:slopes=gu2025").slopes
    'gu2025'
    """
    from petheory.scheme import Positions

    if isinstance(spec, (str, PESpec)):
        out = _from_spec(parse_pe_spec(spec))
    elif isinstance(spec, Positions):  # a resolved layer's positions (petheory.loaders.resolve_scheme): its registry term
        if spec.encoding is None:
            if spec.kind != "nope":
                raise ValidationError(f"a model builds its position mechanism from the registry; a {spec.kind!r} layer "
                                      "has none (NoPE is 'nope')")
            out = model_spec("nope")
        else:
            out = _from_spec(PESpec((PETerm(name=spec.encoding, options=tuple(spec.params.items())),)))
    else:
        raise ValidationTypeError(f"a PE must be a spec string such as 'rope' or 'alibi:slopes=gu2025', got {spec!r}")
    out = _resolve_alias(out)
    _check(out)
    return out


def _from_spec(spec: PESpec) -> PESpec:
    """A model's spec from a parsed one: ``mechanism[+absolute]``, written canonically (:func:`model_spec`)."""
    if len(spec.terms) > 2:
        raise ValidationError(f"a model takes one mechanism and at most one absolute PE ('rope+sinusoidal'), got {spec}")
    for term in spec.terms:
        if term.is_table:
            raise ValidationError(f"a model builds its position mechanism from the registry; the table {term} cannot be "
                             "one (petheory stress/spectrum/bounds read tables)")
    params = spec.head.params
    mech = {k: params.pop(k) for k in list(params) if k in MECHANISM_KEYS}
    absolute = spec.terms[1] if len(spec.terms) == 2 else None
    return model_spec(spec.head.name, params, absolute=absolute and absolute.name,
                      absolute_params=absolute and absolute.params, **mech)


def _check(cfg: PESpec) -> None:
    if cfg.name not in pe_names():
        raise ValidationError(f"unknown PE {cfg.name!r}; known: {', '.join(pe_names())}")
    kind = cfg.kind
    if cfg.name != "mla":
        _check_params(cfg.name, cfg.registry_params)
    elif cfg.registry_params:
        raise ValidationError(f"mla takes only latent= and rope_dim=, got {sorted(cfg.registry_params)}")
    if cfg.heads is not None and kind != "rotary":
        raise ValidationError(f"heads= (partial RoPE) applies to rotary encodings, not {cfg.name!r}")
    if cfg.trainable is not None and kind != "absolute":
        raise ValidationError(f"trainable= applies to absolute encodings, not {cfg.name!r}")
    if cfg.slopes != "press" and cfg.name != "alibi":
        raise ValidationError(f"slopes= applies to alibi, not {cfg.name!r}")
    if cfg.name == "alibi" and "slope" in cfg.registry_params:
        raise ValidationError("alibi in a model takes one slope per head from slopes=press|gu2025, not slope=")
    if cfg.slopes not in ("press", "gu2025"):
        raise ValidationError(f"slopes must be 'press' or 'gu2025', got {cfg.slopes!r}")
    if (cfg.latent is not None or cfg.rope_dim is not None) and cfg.name != "mla":
        raise ValidationError(f"latent= and rope_dim= apply to mla, not {cfg.name!r}")
    if cfg.hint is not None:
        from petheory.nn.scale_hint import check_hint

        check_hint(cfg.name, kind, cfg.hint)
        if cfg.hint == "interp" and cfg.absolute is not None:
            raise ValidationError(f"hint=interp gives fractional positions; '+{cfg.absolute}' is a table at integer positions")
    if cfg.absolute is not None:
        if kind == "absolute":
            raise ValidationError(f"{cfg.name!r} is already absolute; '+{cfg.absolute}' adds a second absolute PE")
        if cfg.absolute not in enc.available("absolute"):
            raise ValidationError(f"'+{cfg.absolute}': not an absolute encoding; absolute ones: {', '.join(enc.available('absolute'))}")
        _check_params(cfg.absolute, cfg.absolute_params)


def _check_params(name: str, params: dict) -> None:
    allowed = set(enc.info(name).params)
    bad = sorted(set(params) - allowed - {"values"})
    if bad or "values" in params:
        raise ValidationError(f"{name} takes {', '.join(sorted(allowed)) or 'no options'}; got {', '.join(bad or ['values'])}")


# --------------------------------------------------------------------------- absolute


def _registry_kwargs(name: str, params: dict, n_max: int) -> dict:
    """Registry kwargs with ``n_max`` pinned to the training length where the encoding maps
    positions through it (wavelet, legendre), so extending the table never rescales it."""
    kw = dict(params)
    if "n_max" in inspect.signature(enc.get(name)).parameters and name != "learned":
        kw.setdefault("n_max", n_max)
    return kw


class AbsolutePE(nn.Module):
    """An absolute encoding as a (T, d) table added to the inputs.

    Parameters
    ----------
    name, params : registry encoding and its keyword arguments.
    d : int
        Model width.
    max_len : int
        Rows precomputed (fixed) or owned (trainable; ``params['n_max']`` overrides for ``learned``).
    train_len : int
        Positions 0..train_len-1 map onto the encoding's training range (wavelet, legendre).
    trainable : bool
    """

    def __init__(self, name: str, params: dict, d: int, max_len: int, train_len: int, trainable: bool):
        super().__init__()
        self.name, self.trainable = name, trainable
        self.kw = _registry_kwargs(name, params, train_len)
        self.beyond = self.kw.pop("beyond", "error") if name == "learned" else None
        if name == "learned":
            self.kw.pop("n_max", None)
            rows = int(params.get("n_max") or max_len)
            table = enc.get(name)(rows, d, n_max=rows, **self.kw)
        else:
            table = enc.get(name)(max_len, d, **self.kw)
        t = torch.tensor(table, dtype=torch.float32)  # (max_len, d)
        if trainable:
            self.table = nn.Parameter(t)
        else:
            self.register_buffer("table", t, persistent=False)
        self.d = d

    def forward(self, T: int) -> torch.Tensor:
        """The encoding of positions 0..T-1, shape (T, d)."""
        rows = self.table.shape[0]
        if T <= rows:
            return self.table[:T]
        if not self.trainable and self.name != "learned":
            # A pure function of position: evaluate the registry formula at the longer length.
            ext = enc.get(self.name)(T, self.d, **self.kw)
            return torch.tensor(ext, dtype=self.table.dtype, device=self.table.device)
        if self.beyond == "clamp":
            idx = torch.clamp(torch.arange(T, device=self.table.device), max=rows - 1)
            return self.table[idx]
        raise ValidationError(
            f"sequence length {T} exceeds the {rows}-row table of the {'trainable ' if self.trainable else ''}"
            f"{self.name!r} PE; build the model with a larger max_len, or pass beyond=clamp to reuse the last row"
        )


# --------------------------------------------------------------------------- bias


class FIREBias(nn.Module):
    """FIRE's learned relation (the ``fire`` bias PE, spec ``"fire"`` or ``"fire:hidden=32,c=1,threshold=1"``):
    (B or 1, T) positions -> (B or 1, H, T, T) logit bias.

    Per-head logit bias ``b_h(i, j) = f_h(x(i, j))`` with FIRE's progressively normalised offset
    ``x = sign(i-j) log(c|i-j|+1) / log(c max(L, i)+1)`` (:func:`petheory.encodings.fire_input`, the same formula)
    and ``f`` a 1-hidden-layer ReLU MLP with one output per head (li2024, Eq. 5). ``c`` and ``L`` are learned (kept
    positive through their logarithms), initialised at the spec's values. This is the reconstruction of chen2025's
    "Learning-Based Position Embedding framework that automatically learns positional relations": the relation
    between two positions is a learned function, not a fixed formula or a per-offset table.

    Parameters
    ----------
    n_head : int
        Heads (one output of the MLP each).
    hidden : int, optional
        Width of the MLP.
    c : float, optional
        Initial c of the log transform (learned).
    threshold : float, optional
        Initial threshold L of the normaliser (learned).
    """

    def __init__(self, n_head: int, hidden: int = 32, c: float = 1.0, threshold: float = 1.0):
        super().__init__()
        if int(hidden) < 1 or c <= 0 or threshold <= 0:
            raise ValidationError(f"fire needs hidden >= 1, c > 0, threshold > 0; got {hidden}, {c}, {threshold}")
        self.mlp = nn.Sequential(nn.Linear(1, int(hidden)), nn.ReLU(), nn.Linear(int(hidden), n_head))
        self.log_c = nn.Parameter(torch.tensor(math.log(c)))
        self.log_L = nn.Parameter(torch.tensor(math.log(threshold)))

    def forward(self, pos: torch.Tensor) -> torch.Tensor:
        c, L = self.log_c.exp(), self.log_L.exp()
        off = pos[:, :, None] - pos[:, None, :]  # (B, T, T): query i, key j
        x = torch.sign(off) * torch.log1p(c * off.abs()) / torch.log1p(c * torch.maximum(L, pos.abs())[:, :, None])
        return self.mlp(x[..., None]).permute(0, 3, 1, 2)  # (B, H, T, T)


class BiasPE(nn.Module):
    """A per-head logit bias, shape (H, T, T), from the registry's index or distance matrices.

    Parameters
    ----------
    name : str
        The bias encoding (``alibi``, ``t5``, ``relative``, a KERPLE kernel, ``fire``, or a registered one).
    params : dict
        Its parameters.
    n_head : int
        Heads.
    max_len : int
        Longest sequence (``relative``'s default offset range).
    causal : bool
        Causal attention (T5's buckets are then one-sided).
    slopes : str
        ALiBi's slope schedule.
    """

    def __init__(self, name: str, params: dict, n_head: int, max_len: int, causal: bool, slopes: str):
        super().__init__()
        self.name, self.params, self.causal = name, dict(params), causal
        if name == "alibi":
            self.register_buffer("slopes", torch.tensor(enc.alibi_slopes(n_head, slopes), dtype=torch.float32), persistent=False)
        elif name == "t5":
            nb = int(self.params.get("num_buckets", 32))
            self.params.setdefault("bidirectional", not causal)
            self.values = nn.Parameter(torch.zeros(n_head, nb))  # one learned scalar per head and bucket
        elif name == "relative":
            K = self.params.setdefault("max_offset", max_len - 1)
            self.values = nn.Parameter(torch.zeros(n_head, 2 * int(K) + 1))  # per head and offset
        elif name in KERPLE:
            # KERPLE's (r1, r2) per head, learned; the reference code's init unless the spec gives values
            lo1, hi1, lo2, hi2 = KERPLE[name]
            r1, r2 = torch.empty(n_head).uniform_(lo1, hi1), torch.empty(n_head).uniform_(lo2, hi2)
            if "r1" in self.params:
                r1 = torch.full((n_head,), float(self.params.pop("r1")))
            if "r2" in self.params:
                r2 = torch.full((n_head,), float(self.params.pop("r2")))
            self.r1, self.r2 = nn.Parameter(r1), nn.Parameter(r2)
            self.values = None
        elif name == "fire":  # chen2025's learned relation: a per-head MLP of the normalised offset
            kw = {k: self.params[k] for k in ("hidden", "c", "threshold") if k in self.params}
            self.fire, self.values = FIREBias(n_head, **kw), None
        else:
            # A user-registered bias: its (T, T) formula, fixed, shared by every head.
            self.values = None
        self.params.pop("seed", None)
        self.params.pop("std", None)
        self._cache: dict = {}

    def _matrix(self, T: int, device) -> torch.Tensor:
        key = (T, str(device))
        if key not in self._cache:
            with torch.inference_mode(False):  # made under evaluate's inference mode, used in training too
                self._cache[key] = self._make_matrix(T, device)
        return self._cache[key]

    def _make_matrix(self, T: int, device) -> torch.Tensor:
        fn = enc.get(self.name)
        if self.name == "alibi":
            m = fn(T, slope=1.0, **self.params)  # distance term, scaled per head below
            t = torch.tensor(m, dtype=torch.float32, device=device)
        elif self.name == "t5":
            nb = int(self.params.get("num_buckets", 32))
            t = torch.tensor(fn(T, values=np.arange(nb, dtype=np.float64), **self.params).astype(np.int64), device=device)
        elif self.name == "relative":
            K = int(self.params["max_offset"])
            t = torch.tensor(fn(T, values=np.arange(2 * K + 1, dtype=np.float64), **self.params).astype(np.int64), device=device)
        else:
            t = torch.tensor(fn(T, **self.params), dtype=torch.float32, device=device)
        # Every length is kept (a handful: train and test lengths): a CUDA graph captured at
        # one length holds this tensor's address, so it must outlive evaluation at another.
        return t

    def forward(self, T: int, device) -> torch.Tensor:
        if self.name in KERPLE:
            return self._kerple(T, device)
        if self.name == "fire":
            return self.fire(torch.arange(T, device=device, dtype=torch.float32)[None])[0]  # (H, T, T)
        m = self._matrix(T, device)
        if self.name == "alibi":
            return self.slopes[:, None, None] * m  # (H, T, T)
        if self.name in ("t5", "relative"):
            return self.values[:, m]  # (H, T, T): gather each head's scalar per bucket/offset
        return m[None]  # (1, T, T)

    def kerple_params(self) -> tuple[torch.Tensor, torch.Tensor]:
        """(r1, r2) per head as used: clamped to >= 0.01 (and r2 <= 2 for the power variant), as the reference code."""
        r1 = self.r1.clamp(min=KERPLE_EPS)
        r2 = self.r2.clamp(min=KERPLE_EPS, max=2.0) if self.name == "kerple_power" else self.r2.clamp(min=KERPLE_EPS)
        return r1, r2

    def _kerple(self, T: int, device) -> torch.Tensor:
        # the registry's formula (encodings.kernels.kerple_log / kerple_power) in torch, per head
        idx = torch.arange(T, device=device, dtype=torch.float32)
        dist = (idx[:, None] - idx[None, :]).abs()  # (T, T)
        r1, r2 = (p[:, None, None] for p in self.kerple_params())  # (H, 1, 1)
        if self.name == "kerple_log":
            return -r1 * torch.log1p(r2 * dist)  # (H, T, T)
        # |0|^r2 = 0, but its gradient in r2 is log(0) * 0 = nan: take the power on dist >= 1 only
        return -r1 * torch.where(dist > 0, dist.clamp(min=1.0) ** r2, torch.zeros_like(dist))


#: KERPLE in a model: learned (r1, r2) per head, initialised U(lo1, hi1) x U(lo2, hi2) as the reference
#: code (log: bias_p ~ U(0,2) is r1, bias_a ~ U(0,1) is r2; power: bias_a ~ U(0,1) is r1, bias_p ~ U(0,2) is r2).
KERPLE = {"kerple_log": (0.0, 2.0, 0.0, 1.0), "kerple_power": (0.0, 1.0, 0.0, 2.0)}
KERPLE_EPS = 1e-2


# --------------------------------------------------------------------------- rotary


class Rotary(nn.Module):
    """RoPE applied to the first ``heads`` heads of (B, H, T, hd) queries and keys.

    Angles and pairing come from the registry (:func:`petheory.encodings.rope`, or any rotary
    encoding registered under ``name``); rotation is written as a
    gather + concatenation + inverse permutation so that it is differentiable and vmap-safe.

    Parameters
    ----------
    head_dim : int
        Head dimension (even).
    params : dict
        The rotary encoding's parameters (base, pairing, rotary_dim, scaling).
    heads : int or None
        Rotate only the first ``heads`` heads (None: all).
    n_head : int
        Heads of the layer.
    max_len : int
        Longest sequence.
    name : str, optional
        The registered rotary encoding.
    """

    def __init__(self, head_dim: int, params: dict, heads: int | None, n_head: int, max_len: int, name: str = "rope"):
        super().__init__()
        self.fn = enc.get(name)  # any registered rotary encoding: it returns a RotaryTable
        if head_dim % 2:
            raise ValidationError(f"rotary PE needs an even head dimension; d_model/n_head = {head_dim}")
        self.heads, self.n_head = (n_head if heads is None else int(heads)), n_head
        if not 1 <= self.heads <= n_head:
            raise ValidationError(f"partial RoPE rotates the first k of H={n_head} heads; k must be in 1..{n_head}, got {self.heads} "
                                  f"(to rotate {self.heads} heads: model.n_head={self.heads} or more)")
        self.params, self.head_dim = dict(params), head_dim
        table = self.fn(1, head_dim, **self.params)  # validates pairing / rotary_dim / base
        self.alike = not hasattr(table, "factors")  # queries and keys take the same cos/sin (not YaRN, xPos)
        a, b = table.pairs()
        r = table.rotary_dim
        rest = np.setdiff1d(np.arange(head_dim), np.concatenate([a, b]))
        order = np.concatenate([a, b, rest])  # coordinates as laid out after rotation
        self.register_buffer("idx_a", torch.tensor(a), persistent=False)
        self.register_buffer("idx_b", torch.tensor(b), persistent=False)
        self.register_buffer("idx_rest", torch.tensor(rest, dtype=torch.long), persistent=False)
        self.register_buffer("inverse", torch.tensor(np.argsort(order)), persistent=False)
        self.r = r
        self.pairing = table.pairing if len(rest) == head_dim - r and np.array_equal(rest, np.arange(r, head_dim)) else None
        self._cache: dict = {}

    def cos_sin(self, T: int, device, dtype=torch.float32, key: bool = False):
        """cos and sin of the angles, (T, r/2); for a ScaledRotaryTable (YaRN, xPos) times the
        query (or, ``key=True``, key) factor of each band, as HF folds YaRN's mscale into cos/sin."""
        ck = (T, str(device), dtype)
        if ck not in self._cache:
            with torch.inference_mode(False):  # made under evaluate's inference mode, used in training too
                self._cache[ck] = self._make_cos_sin(T, device, dtype)
        return self._cache[ck]["k" if key else "q"]

    def _make_cos_sin(self, T: int, device, dtype) -> dict:
        table = self.fn(T, self.head_dim, **self.params)
        ang = table.angles  # (T, r/2), float64 in numpy
        fq = fk = None
        if hasattr(table, "factors"):  # encodings.extension.ScaledRotaryTable
            fq, fk = table.factors(), table.factors(key=True)
        entry = {}
        for name, f in (("q", fq), ("k", fk)):
            c, s = (np.cos(ang), np.sin(ang)) if f is None else (np.cos(ang) * f, np.sin(ang) * f)
            entry[name] = (torch.tensor(c, dtype=dtype, device=device), torch.tensor(s, dtype=dtype, device=device))
        # every length kept: see BiasPE._matrix (CUDA graphs hold these addresses)
        return entry

    def cos_sin_wide(self, T: int, device, dtype=torch.float32, key: bool = False):
        """(C, S), each (T, r), laid out as the rotated coordinates: ``C`` the cosine of each
        coordinate's band, ``S`` its sine with the sign of its slot (``-sin`` for the first of a
        pair, ``+sin`` for the second), so that ``rotate(x) = x C + swap(x) S``."""
        ck = ("wide", T, str(device), dtype, key)
        if ck not in self._cache:
            cos, sin = self.cos_sin(T, device, dtype, key=key)
            with torch.inference_mode(False):
                self._cache[ck] = self._widen(cos, sin)
        return self._cache[ck]

    def _widen(self, cos, sin):
        if self.pairing == "half":
            return torch.cat([cos, cos], -1), torch.cat([-sin, sin], -1)
        else:
            return torch.stack([cos, cos], -1).flatten(-2), torch.stack([-sin, sin], -1).flatten(-2)

    def rotate(self, x: torch.Tensor, key: bool = False) -> torch.Tensor:
        """Rotate the last dim of ``x`` (..., T, hd): row p by :math:`R_p` (and scale it as a query, or
        ``key=True`` as a key, for xPos/YaRN; plain RoPE rotates both alike).

        Half-precision inputs are rotated in float32 (bf16 under autocast would round the
        rotation to ~3 significant digits) and cast back.
        """
        T, dt = x.shape[-2], x.dtype
        if dt in (torch.bfloat16, torch.float16):
            x = x.float()
        if self.pairing is not None:
            return self._turn(x, *self.cos_sin_wide(T, x.device, x.dtype, key=key)).to(dt)  # C, S: (T, r)
        cos, sin = self.cos_sin(T, x.device, x.dtype, key=key)  # (T, r/2)
        xa, xb = x[..., self.idx_a], x[..., self.idx_b]
        out = torch.cat([xa * cos - xb * sin, xa * sin + xb * cos, x[..., self.idx_rest]], dim=-1)
        return out[..., self.inverse].to(dt)

    def _turn(self, x: torch.Tensor, C: torch.Tensor, S: torch.Tensor) -> torch.Tensor:
        """``x C + swap(x) S`` on the first ``r`` coordinates of the last dim (C, S broadcast
        against ``x[..., :r]``): 4 kernels; the same products and sums as the gather form of
        :meth:`rotate`, bit for bit."""
        r = self.r
        xr = x[..., :r] if r < x.shape[-1] else x
        if self.pairing == "half":  # partner of t is t + r/2
            xs = torch.cat([xr[..., r // 2:], xr[..., : r // 2]], dim=-1)
        else:  # interleaved: partner of 2t is 2t + 1 (a stack of the two strided halves: 2x faster than flip)
            xp = xr.unflatten(-1, (r // 2, 2))
            xs = torch.stack([xp[..., 1], xp[..., 0]], dim=-1).flatten(-2)
        out = xr * C + xs * S  # a: x_a cos + x_b (-sin) = x_a cos - x_b sin; b: x_b cos + x_a sin
        return out if r == x.shape[-1] else torch.cat([out, x[..., r:]], dim=-1)

    @property
    def joint(self) -> bool:
        """Whether :meth:`rotate_qk` applies: every head rotated, queries and keys alike (no
        YaRN/xPos key factor), and a pairing the wide tables serve."""
        return self.pairing is not None and self.alike and self.heads == self.n_head

    def rotate_qk(self, qk: torch.Tensor) -> torch.Tensor:
        """Queries and keys rotated together in the layout the QKV projection writes them,
        (B, T, 2H, hd) with positions on dim 1: the values of :meth:`forward`, bit for bit, in one
        pass over contiguous memory instead of two over transposed views (only when :attr:`joint`)."""
        dt = qk.dtype
        if dt in (torch.bfloat16, torch.float16):
            qk = qk.float()
        C, S = self.cos_sin_wide(qk.shape[1], qk.device, qk.dtype)  # (T, r)
        return self._turn(qk, C[:, None], S[:, None]).to(dt)

    def forward(self, q: torch.Tensor, k: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        # q, k: (B, H, T, hd); partial RoPE leaves heads k..H-1 position-free
        if self.heads == q.shape[1]:
            return self.rotate(q), self.rotate(k, key=True)
        h = self.heads
        return (torch.cat([self.rotate(q[:, :h]), q[:, h:]], dim=1),
                torch.cat([self.rotate(k[:, :h], key=True), k[:, h:]], dim=1))
