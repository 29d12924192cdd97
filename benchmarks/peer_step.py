"""A training step written from scratch in plain PyTorch, the peer of petheory's ``train_step`` (issue 43).

The same architecture as :class:`petheory.nn.transformer.Transformer` with a rotary PE, the way nanoGPT
writes it: token embedding, pre-LayerNorm blocks (fused QKV projection, rotary on queries and keys by
``rotate_half``, ``scaled_dot_product_attention``, output projection; ReLU MLP), final LayerNorm, then a
classifier head on the mean over positions (gu2025) or an LM head on every position; cross-entropy
(masked over answer tokens for an LM) and AdamW, as petheory's loop. Not bit-identical
to petheory's model (its own initialisation); the same shapes and matrix products, so a step costs the
same FLOPs, which the benchmark counts on both sides.
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d: int, n_head: int, d_ff: int, bias: bool):
        super().__init__()
        self.n_head = n_head
        self.ln_1, self.ln_2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.c_attn, self.c_proj = nn.Linear(d, 3 * d, bias=bias), nn.Linear(d, d, bias=bias)
        self.fc, self.proj = nn.Linear(d, d_ff, bias=bias), nn.Linear(d_ff, d, bias=bias)

    def forward(self, x, cos, sin):
        B, T, C = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))  # (B, H, T, hd)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        y = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(B, T, C)
        x = x + self.c_proj(y)
        return x + self.proj(F.relu(self.fc(self.ln_2(x))))


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


class PeerModel(nn.Module):
    def __init__(self, vocab: int, d: int, n_head: int, n_layer: int, d_ff: int, bias: bool = True, *,
                 classes: int | None = None, base: float = 10000.0):
        super().__init__()
        self.classes = classes
        self.emb = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d, n_head, d_ff, bias) for _ in range(n_layer))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, classes, bias=True) if classes else nn.Linear(d, vocab, bias=False)
        hd = d // n_head
        self.register_buffer("inv_freq", base ** (-torch.arange(0, hd, 2, dtype=torch.float32) / hd), persistent=False)

    def forward(self, idx):
        T = idx.shape[1]
        ang = torch.arange(T, dtype=torch.float32, device=idx.device)[:, None] * self.inv_freq[None]  # (T, hd/2)
        ang = torch.cat((ang, ang), dim=-1)
        cos, sin = ang.cos(), ang.sin()
        x = self.emb(idx)
        for blk in self.blocks:
            x = blk(x, cos, sin)
        x = self.ln_f(x)
        return self.head(x.mean(dim=1) if self.classes else x)  # (B, classes) or (B, T, vocab)


def peer_for(mcfg, lr: float, betas, weight_decay: float, seed: int = 0):
    """A :class:`PeerModel` of petheory's (completed) ModelConfig ``mcfg`` (classifier or LM head) and its AdamW."""
    if mcfg.head not in ("classifier", "lm"):
        raise ValueError(f"the peer step has token inputs only: head {mcfg.head!r}")
    torch.manual_seed(seed)
    model = PeerModel(mcfg.vocab_size, mcfg.d_model, mcfg.n_head, mcfg.n_layer, mcfg.d_ff, mcfg.bias,
                      classes=mcfg.out_dim if mcfg.head == "classifier" else None)
    return model, torch.optim.AdamW(model.parameters(), lr=lr, betas=tuple(betas), weight_decay=weight_decay)


def peer_step(model, opt, x, y, mask=None) -> torch.Tensor:
    """One optimiser step on token batch ``x`` with labels ``y`` (and, for an LM, the answer-token ``mask``)."""
    out = model(x).float()
    if model.classes:
        loss = F.cross_entropy(out, y)
    else:
        ce = F.cross_entropy(out.transpose(1, 2), y, reduction="none")  # (B, T)
        loss = (ce * mask).sum() / mask.sum().clamp_min(1.0)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss
