"""Every attention layer of petheory.nn against an explicit reference computed from its weights.

The reference is written here from the formulas, not from the library's helpers:

    q, k, v = x W_qkv^T + b          (per head, (B, H, T, hd))
    q, k   <- R_p q, R_p k           (rotary heads only; never v)
    S      = q k^T / sqrt(hd) + bias (ALiBi -m_h|i-j|, T5 bucket values, per-offset values)
    S      <- -inf above the diagonal (causal)
    y      = concat_h softmax(S) v, then the output projection

MLA (gu2025 §4.1): k_c, v from the latent c = W_dkv x; one shared RoPE query/key pair of rope_dim;
score ([q_c; R q_r] . [k_c; R k_r]) / sqrt(hd + d_r).

Forward outputs and the gradients of a random linear functional with respect to the input and
every parameter are compared, causal and bidirectional, on the SDPA path and the explicit one.

Tolerance: layer and reference compute the same float64 expression in different operation orders.
Each output entry is a chain of inner products of length <= max(d, T) (projections, scores,
softmax-weighted sums), each with relative error gamma_n <= n u (Higham Lemma 3.1) in the size
of the absolute values summed; softmax adds O(u) per exponential. With |entries| = O(1) at this
size the error is below c (d + T) u * scale for a small constant c; we allow c = 64. A planted
bug (RoPE on v, wrong slope, wrong bucket, missing sqrt) moves outputs by O(0.1).
"""

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from petheory.nn import ModelConfig, build_model

torch.set_num_threads(1)

U = np.finfo(np.float64).eps / 2
B, T, D, H = 2, 9, 16, 4
HD = D // H


def _tol(*tensors) -> float:
    scale = max(float(t.detach().abs().max()) for t in tensors)
    return 64 * (D + T) * U * max(scale, 1.0)


# --------------------------------------------------------------------------- reference pieces


def ref_rotate(x, base=10000.0, pairing="interleaved", rotary_dim=None):
    """R_p x for x (..., T, n): pair t rotated by the angle p * base^(-2t/r)."""
    n = x.shape[-1]
    r = n if rotary_dim is None else rotary_dim
    out = x.clone()
    for t in range(r // 2):
        a, b = (2 * t, 2 * t + 1) if pairing == "interleaved" else (t, t + r // 2)
        theta = base ** (-2.0 * t / r)
        ang = torch.arange(x.shape[-2], dtype=x.dtype) * theta
        c, s = torch.cos(ang), torch.sin(ang)
        out[..., a] = x[..., a] * c - x[..., b] * s
        out[..., b] = x[..., a] * s + x[..., b] * c
    return out


def ref_t5_bucket(rel, bidirectional, num_buckets, max_distance):
    """HF transformers' T5Attention._relative_position_bucket, transcribed (float32 log as there)."""
    buckets = torch.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        buckets += (rel > 0).long() * num_buckets
        rel = rel.abs()
    else:
        rel = -torch.min(rel, torch.zeros_like(rel))
    max_exact = num_buckets // 2
    is_small = rel < max_exact
    large = max_exact + (
        torch.log(rel.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    large = torch.min(large, torch.full_like(large, num_buckets - 1))
    return buckets + torch.where(is_small, rel, large)


def ref_bias(kind, attn, causal):
    """The (H, T, T) logit bias of ``kind`` from the layer's parameters, or 0."""
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    if kind == "alibi":
        slopes = torch.tensor([2.0 ** (-8.0 * h / H) for h in range(1, H + 1)], dtype=torch.float64)
        return -slopes[:, None, None] * (i - j).abs()
    if kind == "alibi:slopes=gu2025":
        # The model keeps fixed tables in float32 (position.py), so the slopes are exp(-h/H) rounded to float32.
        slopes = torch.tensor([math.exp(-h / H) for h in range(1, H + 1)], dtype=torch.float32).double()
        return -slopes[:, None, None] * (i - j).abs()
    if kind.startswith("t5"):
        bucket = ref_t5_bucket(j - i, bidirectional=not causal, num_buckets=8, max_distance=16)
        return attn.bias.values[:, bucket]
    if kind.startswith("relative"):
        K = 3
        return attn.bias.values[:, (j - i).clamp(-K, K) + K]
    return torch.zeros((), dtype=torch.float64)


def ref_softmax_attention(q, k, v, bias, causal, scale):
    s = q @ k.transpose(-2, -1) * scale + bias
    if causal:
        s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return torch.softmax(s, dim=-1) @ v  # (B, H, T, hd)


def ref_attention(attn, x, kind, causal):
    """Reference multi-head attention of a petheory.nn ``Attention`` layer, from its weights."""
    qkv = x @ attn.c_attn.weight.T + attn.c_attn.bias
    q, k, v = (t.view(B, T, H, HD).transpose(1, 2) for t in qkv.split(D, dim=2))
    rot = ROTARY.get(kind)
    if rot is not None:
        heads = ROTARY_HEADS.get(kind, H)
        q = torch.cat([ref_rotate(q[:, :heads], **rot), q[:, heads:]], dim=1)
        k = torch.cat([ref_rotate(k[:, :heads], **rot), k[:, heads:]], dim=1)
    y = ref_softmax_attention(q, k, v, ref_bias(kind, attn, causal), causal, 1.0 / math.sqrt(HD))
    return y.transpose(1, 2).reshape(B, T, D) @ attn.c_proj.weight.T + attn.c_proj.bias


def ref_mla(attn, x, causal, dr):
    c = x @ attn.w_dkv.weight.T + attn.w_dkv.bias
    kc, v = (c @ attn.w_ukv.weight.T + attn.w_ukv.bias).split(D, dim=2)
    qc = x @ attn.w_q.weight.T + attn.w_q.bias
    qc, kc, v = (t.view(B, T, H, HD).transpose(1, 2) for t in (qc, kc, v))
    qr = ref_rotate(x @ attn.w_qr.weight.T + attn.w_qr.bias)[:, None]  # (B, 1, T, dr): shared by heads
    kr = ref_rotate(x @ attn.w_kr.weight.T + attn.w_kr.bias)[:, None]
    s = (qc @ kc.transpose(-2, -1) + qr @ kr.transpose(-2, -1)) / math.sqrt(HD + dr)
    if causal:
        s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    y = torch.softmax(s, dim=-1) @ v
    return y.transpose(1, 2).reshape(B, T, D) @ attn.c_proj.weight.T + attn.c_proj.bias


ROTARY = {
    "rope": {},
    "rope:pairing=half": {"pairing": "half"},
    "rope:rotary_dim=2": {"rotary_dim": 2},
    "rope:heads=2": {},
    "rope:base=100,pairing=half,heads=3": {"base": 100.0, "pairing": "half"},
}
ROTARY_HEADS = {"rope:heads=2": 2, "rope:base=100,pairing=half,heads=3": 3}
BIAS = ["alibi", "alibi:slopes=gu2025", "t5:num_buckets=8,max_distance=16", "relative:max_offset=3"]
KINDS = ["nope", "sinusoidal"] + BIAS + list(ROTARY)


def layer(pe, causal, seed=0):
    """Layer 0's attention of a small double-precision model; learned biases set to random values."""
    torch.manual_seed(seed)
    model = build_model(ModelConfig(head="regression", vocab_size=0, input_dim=3, n_layer=1, n_head=H, d_model=D,
                                    d_ff=8, max_len=T, causal=causal, pe=pe)).double().eval()
    attn = model.blocks[0].attn
    with torch.no_grad():
        for p in attn.parameters():
            p.copy_(torch.randn_like(p) * 0.5)  # biases nonzero, values away from their zero init
    return model, attn


def _grads(out, inputs, probe):
    return torch.autograd.grad((out * probe).sum(), inputs)


def _compare(attn, got_fn, ref_fn, x):
    params = [x] + list(attn.parameters())
    probe = torch.randn(B, T, D, dtype=torch.float64)
    for sdpa in (True, False):
        attn.sdpa = sdpa
        got, want = got_fn(), ref_fn()
        torch.testing.assert_close(got, want, rtol=0, atol=_tol(want), msg=lambda m: f"forward (sdpa={sdpa}): {m}")
        for name, g, w in zip(["x"] + [n for n, _ in attn.named_parameters()], _grads(got, params, probe),
                              _grads(want, params, probe)):
            torch.testing.assert_close(g, w, rtol=0, atol=_tol(w) * 4, msg=lambda m: f"grad {name} (sdpa={sdpa}): {m}")


@pytest.mark.parametrize("causal", [True, False], ids=["causal", "bidirectional"])
@pytest.mark.parametrize("pe", KINDS)
def test_attention_layer_equals_explicit_reference_forward_and_backward(pe, causal):
    _, attn = layer(pe, causal)
    x = torch.randn(B, T, D, dtype=torch.float64, requires_grad=True)
    _compare(attn, lambda: attn(x), lambda: ref_attention(attn, x, pe, causal), x)


@pytest.mark.parametrize("causal", [True, False], ids=["causal", "bidirectional"])
@pytest.mark.parametrize("latent,rope_dim", [(8, 4), (6, 2)])
def test_mla_layer_equals_explicit_reference_forward_and_backward(latent, rope_dim, causal):
    _, attn = layer(f"mla:latent={latent},rope_dim={rope_dim}", causal)
    x = torch.randn(B, T, D, dtype=torch.float64, requires_grad=True)
    _compare(attn, lambda: attn(x), lambda: ref_mla(attn, x, causal, rope_dim), x)


@pytest.mark.parametrize("pe", ["sinusoidal", "rope+sinusoidal", "alibi", "nope"])
def test_model_forward_equals_reference_with_absolute_table_added_to_inputs(pe):
    """The whole (one-block) model: the absolute table enters once, on the inputs, as
    PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(...)."""
    model, attn = layer(pe, causal=False)
    x = torch.randn(B, T, 3, dtype=torch.float64)
    h = x @ model.embed.weight.T + model.embed.bias
    if "sinusoidal" in pe:
        p = torch.arange(T, dtype=torch.float64)[:, None]
        w = 10000.0 ** (-torch.arange(0, D, 2, dtype=torch.float64) / D)
        table = torch.stack([torch.sin(p * w), torch.cos(p * w)], dim=-1).reshape(T, D)
        h = h + table.float().double()  # fixed tables are stored in float32 (position.AbsolutePE)
    blk = model.blocks[0]
    kind = "rope" if pe.startswith("rope") else ("nope" if pe == "sinusoidal" else pe)
    h = h + ref_attention(attn, F.layer_norm(h, (D,), blk.ln_1.weight, blk.ln_1.bias), kind, False)
    z = F.layer_norm(h, (D,), blk.ln_2.weight, blk.ln_2.bias)
    h = h + blk.mlp[2](torch.relu(blk.mlp[0](z)))
    want = F.layer_norm(h, (D,), model.ln_f.weight, model.ln_f.bias) @ model.head.weight.T + model.head.bias
    with torch.no_grad():
        got = model(x)
    torch.testing.assert_close(got, want.detach(), rtol=0, atol=_tol(want))
