r"""Small pre-LN Transformers with a pluggable position mechanism.

One model class, three heads (``ModelConfig.head``):

``'regression'``  encoder for sequence regression: inputs (B, T, input_dim) floats, outputs (B, T, out_dim)
``'classifier'``  gu2025's pooled classifier: tokens (B, T) -> mean over *all* positions -> ``(B, n_classes)``
``'lm'``          causal language model: tokens (B, T) -> next-token logits (B, T, vocab)

Attention is :func:`torch.nn.functional.scaled_dot_product_attention`; a logit bias (ALiBi,
T5, relative) goes in as a float ``attn_mask`` with the causal ``-inf`` folded in. Head
ablation zeroes chosen heads' outputs before the output projection (the same as gu2025's
zeroing of a head's value rows, since a head's output is ``softmax(.) V_h``)::

    model = build_model(ModelConfig(head="classifier", vocab_size=574, out_dim=72, pe="rope"))
    with model.ablated({(0, 3)}):        # layer 0, head 3
        logits = model(tokens)
    probs = model.attention_probs(tokens)  # list over layers of (B, H, T, T)
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from petheory.nn.position import AbsolutePE, BiasPE, Rotary, parse_pe
from petheory.errors import ValidationError, ValidationTypeError
from petheory.spec import PESpec

HEADS = ("regression", "classifier", "lm")
_SDPA = [True]  # models built while explicit_attention() is active use softmax(QK^T)V instead of SDPA


@contextlib.contextmanager
def explicit_attention():
    """Build models that compute attention explicitly (``softmax(QK^T/sqrt(hd) + bias) V``) instead of with SDPA's fused
    kernels: the same function in another summation order.

    Benchmarks use it to measure the round-off spread between two exact-arithmetic-equal implementations.

    Yields
    ------
    None
        Models built inside the block use the explicit path.

    Examples
    --------
    >>> with explicit_attention():
    ...     m = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16})
    >>> m.blocks[0].attn.sdpa
    False
    """
    _SDPA[0] = False
    try:
        yield
    finally:
        _SDPA[0] = True


@dataclass
class ModelConfig:
    """Shape of a model. ``pe`` is given as spec text, a :class:`petheory.spec.PESpec` or a resolved layer's
    :class:`petheory.scheme.Positions`, and parsed once, when the config is made, into the canonical model spec
    (:func:`petheory.nn.position.parse_pe`): ``cfg.pe`` is a PESpec and ``str(cfg.pe)`` its canonical text.

    ``vocab_size > 0`` means token inputs (an embedding); 0 means continuous inputs of
    ``input_dim`` features. ``out_dim``: regression outputs per position or classes (an
    LM always predicts ``vocab_size`` tokens). ``train_len`` pins length-normalised encodings (wavelet,
    legendre) to the training length; ``max_len`` is the longest sequence the tables cover.

    Attributes
    ----------
    head : str
        ``'regression'``, ``'classifier'`` or ``'lm'`` (module docstring).
    pe : PESpec or str
        The position mechanism (a PESpec once the config is made).
    vocab_size : int
        Token vocabulary (0: continuous inputs).
    input_dim : int
        Features of a continuous input.
    out_dim : int
        Regression outputs per position, or classes.
    n_layer, n_head, d_model, d_ff : int
        Blocks, heads per block, model width and feed-forward width.
    dropout : float
        Dropout probability.
    max_len : int
        Longest sequence the position tables cover.
    train_len : int or None
        The training length length-normalised encodings are pinned to.
    causal : bool
        Causal attention mask.
    activation : str
        Feed-forward activation (``'relu'``, ``'gelu'``).
    bias : bool
        Biases in the linear layers.
    """

    head: str = "lm"
    pe: PESpec | str = "nope"
    vocab_size: int = 0
    input_dim: int = 1
    out_dim: int = 1
    n_layer: int = 2
    n_head: int = 4
    d_model: int = 64
    d_ff: int = 128
    dropout: float = 0.0
    max_len: int = 128
    train_len: int | None = None
    causal: bool = False
    activation: str = "relu"
    bias: bool = True

    def __post_init__(self):
        self.pe = parse_pe(self.pe)

    def as_dict(self) -> dict:
        """The fields as JSON values, ``pe`` as its canonical text (what records, checkpoints and hashes keep)."""
        return {f: str(self.pe) if f == "pe" else getattr(self, f) for f in self.__dataclass_fields__}

    def validate(self) -> "ModelConfig":
        if self.head not in HEADS:
            raise ValidationError(f"head must be one of {HEADS}, got {self.head!r}")
        for name in ("n_layer", "n_head", "d_model", "d_ff", "max_len"):
            if not isinstance(getattr(self, name), int) or getattr(self, name) < 1:
                raise ValidationError(f"{name} must be a positive integer, got {getattr(self, name)!r}")
        if self.d_model % self.n_head:
            raise ValidationError(f"d_model={self.d_model} must be divisible by n_head={self.n_head}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValidationError(f"dropout must be in [0, 1), got {self.dropout}")
        if self.activation not in ("relu", "gelu"):
            raise ValidationError(f"activation must be 'relu' or 'gelu', got {self.activation!r}")
        if self.head in ("classifier", "lm") and self.vocab_size < 1:
            raise ValidationError(f"a {self.head} model needs token inputs: vocab_size >= 1, got {self.vocab_size}")
        if self.head == "lm" and not self.causal:
            raise ValidationError("an 'lm' model must be causal (causal=True)")
        return self


class Attention(nn.Module):
    """Multi-head self-attention with an absolute-free position mechanism (bias, rotary or none).

    Parameters
    ----------
    cfg : ModelConfig
        The model's shape.
    pe : PESpec
        Its position mechanism (bias, rotary or none here; absolute positions are added at the embedding).
    """

    def __init__(self, cfg: ModelConfig, pe: PESpec):
        super().__init__()
        self.H, self.hd = cfg.n_head, cfg.d_model // cfg.n_head
        self.causal, self.dropout = cfg.causal, cfg.dropout
        self.c_attn = nn.Linear(cfg.d_model, 3 * cfg.d_model, bias=cfg.bias)
        self.c_proj = nn.Linear(cfg.d_model, cfg.d_model, bias=cfg.bias)
        kind = pe.kind
        self.rotary = Rotary(self.hd, pe.registry_params, pe.heads, cfg.n_head, cfg.max_len, pe.name) if kind == "rotary" else None
        self.bias = BiasPE(pe.name, pe.registry_params, cfg.n_head, cfg.max_len, cfg.causal, pe.slopes) if kind == "bias" else None
        self.register_buffer("head_mask", torch.ones(self.H), persistent=False)  # 0 = ablated head
        self.masked = False  # True while Transformer.ablated zeroes some of this layer's heads
        self.sdpa = _SDPA[0]  # False: explicit softmax(QK^T) V (seed ensembles, explicit_attention())
        self.positions = None  # (B, T) per-instance positions of a Scale Hint, set by Transformer._embed

    def qkv(self, x):
        B, T, C = x.shape
        if self.rotary is not None and self.positions is None and self.rotary.joint:
            qkv = self.c_attn(x)  # (B, T, 3C): queries and keys rotated together where they lie
            q, k = self.rotary.rotate_qk(qkv[..., :2 * C].unflatten(-1, (2 * self.H, self.hd))).transpose(1, 2).split(self.H, 1)
            return q, k, qkv[..., 2 * C:].view(B, T, self.H, self.hd).transpose(1, 2), None  # (B, H, T, hd) each
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.H, self.hd).transpose(1, 2) for t in (q, k, v))  # (B, H, T, hd)
        if self.rotary is not None and self.positions is not None:
            from petheory.nn.scale_hint import rotate_at

            q, k = rotate_at(self.rotary, q, k, self.positions)
        elif self.rotary is not None:
            q, k = self.rotary(q, k)
        return q, k, v, None

    def mask(self, T: int, device, dtype) -> torch.Tensor | None:
        """Float attention mask (1, H or 1, T, T): the logit bias plus the causal -inf, or None.

        The leading batch axis matters: SDPA's CPU kernel is ~4x slower with a 3-D mask."""
        hinted = self.bias is not None and getattr(self, "positions", None) is not None
        if hinted:  # Scale Hint: one (H, T, T) bias per instance
            from petheory.nn.scale_hint import hinted_bias

            m = hinted_bias(self.bias, self.positions).to(dtype)
        else:
            m = self.bias(T, device).to(dtype) if self.bias is not None else None
        if self.causal and m is not None:
            future = torch.ones(T, T, dtype=torch.bool, device=device).triu(1)
            m = m.masked_fill(future, float("-inf"))
        return None if m is None else m if hinted else m[None]

    def heads(self, x: torch.Tensor, return_probs: bool = False):
        """Every head's output before the output projection, (B, H, T, hd_v), and the attention
        probabilities (B, H, T, T) when ``return_probs`` (else None)."""
        B, T, C = x.shape
        q, k, v, scale = self.qkv(x)
        if self.bias is not None and q.dtype in (torch.bfloat16, torch.float16):
            # A logit bias in bf16 has a spacing of 0.5 at |b| ~ 100: ALiBi's neighbouring keys
            # would tie. Attention with a bias therefore runs in float32 under autocast.
            q, k, v = q.float(), k.float(), v.float()
        m = self.mask(T, x.device, q.dtype)
        # SDPA where it can: not for inspection, not under vmap (seed ensembles: CPU SDPA has no
        # batching rule), and not with a learned bias (CPU SDPA kernels refuse a mask gradient).
        if return_probs or not self.sdpa or (m is not None and m.requires_grad):
            s = (q @ k.transpose(-2, -1)) * (scale or q.shape[-1] ** -0.5)  # (B, H, T, T)
            if m is not None:
                s = s + m
            elif self.causal:
                s = s.masked_fill(torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1), float("-inf"))
            p = s.softmax(-1)
            y = F.dropout(p, self.dropout, self.training and not return_probs) @ v
        else:
            p = None
            y = F.scaled_dot_product_attention(
                q, k, v, attn_mask=m, dropout_p=self.dropout if self.training else 0.0,
                is_causal=self.causal and m is None, scale=scale,
            )  # (B, H, T, hd_v)
        return y.to(x.dtype), p

    def project(self, y: torch.Tensor) -> torch.Tensor:
        """The output projection of the heads' outputs (B, H, T, hd_v) -> (B, T, d), the heads that
        :meth:`Transformer.ablated` zeroes left out."""
        B, H, T, _ = y.shape
        if self.masked:  # multiplying by a mask of ones is exact: skipped when no head is ablated
            y = y * self.head_mask[None, :, None, None]
        return self.c_proj(y.transpose(1, 2).reshape(B, T, -1))

    def forward(self, x: torch.Tensor, return_probs: bool = False):
        y, p = self.heads(x, return_probs)
        y = self.project(y)
        return (y, p) if return_probs else y


def mla_sizes(cfg: PESpec, d_model: int, n_head: int) -> tuple[int, int]:
    """(latent, rope_dim) of an MLA config: defaults d_model/2 and the head dim (128, 16 at gu2025's size).

    Parameters
    ----------
    cfg : PESpec
        The ``mla`` spec (its ``latent`` and ``rope_dim``, if given).
    d_model : int
        Model width.
    n_head : int
        Heads.

    Returns
    -------
    latent : int
        Latent size.
    rope_dim : int
        Rotary dimensions of the shared query and key.

    Raises
    ------
    petheory.errors.ValidationError
        A latent below 1 or an odd ``rope_dim``.

    Examples
    --------
    >>> mla_sizes(parse_pe("mla"), 256, 16)
    (128, 16)
    """
    latent = int(cfg.latent or d_model // 2)
    rope_dim = int(cfg.rope_dim or d_model // n_head)
    if latent < 1:
        raise ValidationError(f"mla latent must be >= 1, got {latent}")
    if rope_dim % 2:
        raise ValidationError(f"mla rope_dim must be even (rotation pairs), got {rope_dim}")
    return latent, rope_dim


def attention_scale(head_dim: int, extra: int = 0) -> float:
    r"""Softmax temperature :math:`1/\sqrt{d}`, d the dimension of the score's dot product (MLA: head dim + rope dim).

    Parameters
    ----------
    head_dim : int
        Head dimension.
    extra : int, optional
        Further dimensions of the dot product (MLA's rope dim).

    Returns
    -------
    float
        The scale.

    Examples
    --------
    >>> attention_scale(16), attention_scale(16, 16) == 1 / 32 ** 0.5
    (0.25, True)
    """
    return 1.0 / math.sqrt(head_dim + extra)


class LatentAttention(Attention):
    r"""MLA-style attention: keys and values from a shared latent, decoupled RoPE (gu2025 §4.1).

    ``c = W_dkv x`` (latent), ``k_c = W_uk c``, ``v = W_uv c`` per head; ``q_c = W_q x`` per head;
    one RoPE query and key of ``rope_dim`` shared across heads, ``q_r = R(W_qr x)``,
    ``k_r = R(W_kr x)``; score :math:`[q_c; q_r]\cdot[k_c; k_r] / \sqrt{hd + d_r}` (``/sqrt(32)``
    at gu2025's size: d=256, H=16, latent 128, ``d_r`` 16).

    Parameters
    ----------
    cfg : ModelConfig
        The model's shape.
    pe : PESpec
        The ``mla`` spec (latent and rope sizes: :func:`mla_sizes`).
    """

    def __init__(self, cfg: ModelConfig, pe: PESpec):
        nn.Module.__init__(self)
        self.H, self.hd = cfg.n_head, cfg.d_model // cfg.n_head
        self.causal, self.dropout = cfg.causal, cfg.dropout
        latent, self.dr = mla_sizes(pe, cfg.d_model, cfg.n_head)
        d = cfg.d_model
        self.w_q = nn.Linear(d, d, bias=cfg.bias)
        self.w_dkv = nn.Linear(d, latent, bias=cfg.bias)
        self.w_ukv = nn.Linear(latent, 2 * d, bias=cfg.bias)
        self.w_qr = nn.Linear(d, self.dr, bias=cfg.bias)
        self.w_kr = nn.Linear(d, self.dr, bias=cfg.bias)
        self.c_proj = nn.Linear(d, d, bias=cfg.bias)
        self.rope = Rotary(self.dr, {}, None, 1, cfg.max_len)
        self.rotary, self.bias = None, None
        self.register_buffer("head_mask", torch.ones(self.H), persistent=False)
        self.masked = False
        self.sdpa = _SDPA[0]

    def qkv(self, x):
        B, T, C = x.shape
        kc, v = self.w_ukv(self.w_dkv(x)).split(C, dim=2)
        q, kc, v = (t.view(B, T, self.H, self.hd).transpose(1, 2) for t in (self.w_q(x), kc, v))  # (B, H, T, hd)
        qr = self.rope.rotate(self.w_qr(x))[:, None].expand(B, self.H, T, self.dr)  # (B, H, T, dr) shared
        kr = self.rope.rotate(self.w_kr(x))[:, None].expand(B, self.H, T, self.dr)
        return torch.cat([q, qr], -1), torch.cat([kc, kr], -1), v, attention_scale(self.hd, self.dr)


class Block(nn.Module):
    """Pre-LN block: x + attn(ln(x)), then x + ffn(ln(x)).

    Parameters
    ----------
    cfg : ModelConfig
        The model's shape.
    pe : PESpec
        Its position mechanism.
    """

    def __init__(self, cfg: ModelConfig, pe: PESpec):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.d_model)
        self.attn = LatentAttention(cfg, pe) if pe.kind == "mla" else Attention(cfg, pe)
        self.ln_2 = nn.LayerNorm(cfg.d_model)
        act = nn.ReLU() if cfg.activation == "relu" else nn.GELU()
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias), act,
                                 nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.bias), nn.Dropout(cfg.dropout))
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, return_probs: bool = False):
        if return_probs:
            a, p = self.attn(self.ln_1(x), return_probs=True)
            x = x + a
            return x + self.mlp(self.ln_2(x)), p
        x = x + self.drop(self.attn(self.ln_1(x)))
        return x + self.mlp(self.ln_2(x))


class Transformer(nn.Module):
    """Embedding (+ absolute PE) -> blocks -> final LayerNorm -> head. See the module docstring.

    Parameters
    ----------
    cfg : ModelConfig
        The model's shape and position mechanism (validated).
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg.validate()
        pe = self.pe = cfg.pe
        d, train_len = cfg.d_model, cfg.train_len or cfg.max_len
        self.embed = nn.Embedding(cfg.vocab_size, d) if cfg.vocab_size else nn.Linear(cfg.input_dim, d)
        absolute, aparams, trainable = None, {}, False
        if pe.kind == "absolute":
            absolute, aparams = pe.name, pe.registry_params
            trainable = pe.name == "learned" if pe.trainable is None else bool(pe.trainable)
        elif pe.absolute:
            absolute, aparams = pe.absolute, pe.absolute_params
        self.abs_pe = None if absolute in (None, "nope") else AbsolutePE(absolute, aparams, d, cfg.max_len, train_len, trainable)
        self.drop = nn.Dropout(cfg.dropout)
        self.blocks = nn.ModuleList(Block(cfg, pe) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(d)
        if pe.hint is not None and not cfg.vocab_size:
            raise ValidationError(f"hint={pe.hint} reads the separator tokens: it needs a token task (vocab_size >= 1)")
        out = cfg.vocab_size if cfg.head == "lm" else cfg.out_dim  # (an LM predicts its own vocabulary)
        self.head = nn.Linear(d, out, bias=cfg.head != "lm")

    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def _embed(self, x: torch.Tensor) -> torch.Tensor:
        if self.cfg.vocab_size:
            if x.dtype not in (torch.int64, torch.int32):
                raise ValidationTypeError(f"token inputs must be an integer tensor (B, T), got {x.dtype}")
            if x.dim() != 2:
                raise ValidationError(f"token inputs must have shape (B, T), got {tuple(x.shape)}")
        elif x.dim() != 3 or x.shape[-1] != self.cfg.input_dim:
            raise ValidationError(f"inputs must have shape (B, T, {self.cfg.input_dim}), got {tuple(x.shape)}")
        h = self.embed(x)  # (B, T, d)
        pos = None
        if self.pe.hint is not None:  # chen2025 Scale Hint: per-instance positions for every layer
            from petheory.nn.scale_hint import hint_positions

            pos = hint_positions(x, self.pe.hint)
            for block in self.blocks:
                block.attn.positions = pos
        if self.abs_pe is not None and pos is not None:
            h = h + self.abs_pe(int(pos.max()) + 1).to(h.dtype)[pos.long()]  # 'shift': integer positions
        elif self.abs_pe is not None:
            h = h + self.abs_pe(x.shape[1]).to(h.dtype)
        return self.drop(h)

    def _head(self, h: torch.Tensor) -> torch.Tensor:
        h = self.ln_f(h)
        if self.cfg.head == "classifier":
            h = h.mean(dim=1)  # gu2025: mean over all positions, pads included (no attention mask)
        return self.head(h)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self._embed(x)
        for block in self.blocks:
            h = block(h)
        return self._head(h)  # (B, T, out) or (B, n_classes)

    @torch.no_grad()
    def hidden_states(self, x: torch.Tensor) -> list[torch.Tensor]:
        """The residual stream after the embedding and after every block: a list of (B, T, d), eval mode."""
        was = self.training
        self.eval()
        h = self._embed(x)
        out = [h]
        for block in self.blocks:
            h = block(h)
            out.append(h)
        self.train(was)
        return out

    @torch.no_grad()
    def attention_probs(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Attention probabilities of every layer, a list of (B, H, T, T) (eval mode, no dropout)."""
        was = self.training
        self.eval()
        h, probs = self._embed(x), []
        for block in self.blocks:
            h, p = block(h, return_probs=True)
            probs.append(p)
        self.train(was)
        return probs

    @contextlib.contextmanager
    def ablated(self, heads):
        """Zero the outputs of ``heads``, an iterable of (layer, head) pairs, inside the block."""
        heads = [(int(l), int(h)) for l, h in heads]
        for l, h in heads:
            if not (0 <= l < self.cfg.n_layer and 0 <= h < self.cfg.n_head):
                raise ValidationError(f"no head ({l}, {h}): layers 0..{self.cfg.n_layer - 1}, heads 0..{self.cfg.n_head - 1}")
        try:
            for l, h in heads:
                self.blocks[l].attn.head_mask[h] = 0.0
                self.blocks[l].attn.masked = True
            yield self
        finally:
            for block in self.blocks:
                block.attn.head_mask.fill_(1.0)
                block.attn.masked = False


def build_model(cfg: ModelConfig | dict) -> Transformer:
    """A :class:`Transformer` from a config (or its dict).

    Parameters
    ----------
    cfg : ModelConfig or dict
        The model's shape and position mechanism.

    Returns
    -------
    Transformer
        The model.

    Raises
    ------
    petheory.errors.ValidationError
        A bad shape or PE.

    Examples
    --------
    >>> m = build_model({"pe": "rope", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16})
    >>> len(m.blocks), str(m.pe)
    (1, 'rope')
    """
    if isinstance(cfg, dict):
        cfg = ModelConfig(**cfg)
    return Transformer(cfg)


def model_parameters(m: ModelConfig) -> int:
    """An upper estimate of the parameters (and position tables) of the model ``m`` describes, from its sizes alone.

    Parameters
    ----------
    m : ModelConfig
        The config (validated first).

    Returns
    -------
    int
        The estimate: weights, embeddings, and a bias PE's (heads, max_len, max_len) table at most.

    Examples
    --------
    >>> m = ModelConfig(pe="rope", head="regression", n_layer=1, n_head=2, d_model=8, d_ff=16, max_len=32)
    >>> model_parameters(m) >= build_model(m).n_params()
    True
    """
    m.validate()  # types and ranges first: the estimate below needs integers
    d, L, T, H = int(m.d_model), int(m.n_layer), int(m.max_len), int(m.n_head)
    params = L * (4 * d * d + 2 * d * int(m.d_ff)) + (int(m.vocab_size) + int(m.input_dim) + int(m.out_dim) + T) * d
    return params + L * H * T * T  # a bias PE's (heads, max_len, max_len) table, at most


def require_eval_memory(m: ModelConfig, what: str) -> None:
    """Refuse to build a model for evaluation that cannot fit (its float32 weights and one copy, as ``extend`` swaps its
    rotary angles); the estimate comes from the sizes ``m`` states, before anything is allocated.

    Parameters
    ----------
    m : ModelConfig
        The config.
    what : str
        What the model is, in the message.

    Raises
    ------
    petheory._memory.MemoryLimitError
        It does not fit.

    Examples
    --------
    >>> require_eval_memory(ModelConfig(pe="rope", head="regression", n_layer=1, n_head=2, d_model=8, d_ff=16), "a model")
    """
    from petheory import _memory

    params = model_parameters(m)
    _memory.require(2 * 4 * params, f"{what} (d_model={m.d_model}, n_layer={m.n_layer}, d_ff={m.d_ff}, "
                    f"vocab_size={m.vocab_size}, max_len={m.max_len}: about {params:.3g} parameters)",
                    alternative="evaluate it on a machine with more memory, or raise the memory limit")
