"""RoPE on queries and keys together, in the layout the QKV projection writes them (Rotary.rotate_qk),
against the form it replaces (queries and keys rotated apart, after the head transpose): the same
values and gradients bit for bit, and the forms it must not take (partial heads, YaRN/xPos factors)."""

from __future__ import annotations

import pytest
import torch

from petheory.nn import position
from petheory.nn.transformer import ModelConfig, build_model

JOINT = ["rope", "rope:pairing=half", "rope:rotary_dim=8", "rope:base=100,pairing=half,rotary_dim=6"]


def model(pe, **kw):
    torch.manual_seed(0)
    return build_model(ModelConfig(head="regression", input_dim=3, out_dim=2, pe=pe, max_len=16, n_layer=2, n_head=4,
                                   d_model=32, d_ff=48, causal=kw.pop("causal", False), **kw))


def apart(attn, x):
    """Today's form before rotate_qk: split, view and transpose, then Rotary.forward on q and k."""
    B, T, C = x.shape
    q, k, v = attn.c_attn(x).split(C, dim=2)
    q, k, v = (t.view(B, T, attn.H, attn.hd).transpose(1, 2) for t in (q, k, v))
    return (*attn.rotary(q, k), v)


@pytest.mark.parametrize("pe", JOINT)
def test_joint_rotation_equals_rotating_queries_and_keys_apart(pe):
    m = model(pe)
    attn = m.blocks[0].attn
    assert attn.rotary.joint
    x = torch.randn(5, 11, 32)
    got, want = attn.qkv(x)[:3], apart(attn, x)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape and torch.equal(g, w)  # elementwise the same products and sums: bit for bit


@pytest.mark.parametrize("pe", JOINT[:2])
@pytest.mark.parametrize("causal", [False, True])
def test_joint_rotation_trains_as_the_apart_form(pe, causal, monkeypatch):
    x, y = torch.randn(4, 9, 3), torch.randn(4, 9, 2)

    def grads():
        m = model(pe, causal=causal)
        loss = ((m(x) - y) ** 2).mean()
        loss.backward()
        return loss.detach(), [p.grad.clone() for p in m.parameters()]

    loss, g = grads()
    monkeypatch.setattr(position.Rotary, "joint", property(lambda self: False))
    assert not model(pe).blocks[0].attn.rotary.joint
    loss0, g0 = grads()
    assert torch.equal(loss, loss0)
    # backward through the two forms: the same elementwise products, accumulated into a gradient
    # buffer in another order at most: a few ulps of each gradient entry's scale
    u = torch.finfo(torch.float32).eps
    for a, b in zip(g, g0, strict=True):
        assert torch.allclose(a, b, rtol=0, atol=2**4 * u * float(b.abs().max().clamp_min(1e-30)))


@pytest.mark.parametrize("pe", ["rope:heads=2", "rope_yarn:scale=3,n_max=20", "xpos", "rope:hint=interp"])
def test_joint_rotation_is_not_used_where_queries_and_keys_differ(pe):
    if "hint" in pe:
        m = build_model(ModelConfig(head="lm", vocab_size=10, causal=True, pe=pe, max_len=16, d_model=32, n_head=4))
        m(torch.randint(0, 10, (2, 8)))  # sets the per-instance positions: the per-tensor path (rotate_at) runs
        assert m.blocks[0].attn.positions is not None
        return
    m = model(pe)
    assert not m.blocks[0].attn.rotary.joint
    x = torch.randn(3, 7, 32)
    for g, w in zip(m.blocks[0].attn.qkv(x)[:3], apart(m.blocks[0].attn, x), strict=True):
        assert torch.equal(g, w)
