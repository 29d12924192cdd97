"""Rotary.rotate in its cheap form (x C + swap(x) S) against the gather/stack form it replaced: the same
products and sums, so the same bits, forward and backward; and against transformers' rotate_half."""

from __future__ import annotations

import pytest
import torch

from petheory.nn.position import Rotary


def reference_rotate(rot: Rotary, x: torch.Tensor, key: bool = False) -> torch.Tensor:
    """The form before issue 35: gather the pairs, rotate, concatenate, undo the permutation."""
    cos, sin = rot.cos_sin(x.shape[-2], x.device, x.dtype, key=key)
    xa, xb = x[..., rot.idx_a], x[..., rot.idx_b]
    out = torch.cat([xa * cos - xb * sin, xa * sin + xb * cos, x[..., rot.idx_rest]], dim=-1)
    return out[..., rot.inverse]


CASES = [  # (name, params, head_dim)
    ("rope", {}, 16),
    ("rope", {"pairing": "half"}, 16),
    ("rope", {"rotary_dim": 8}, 16),
    ("rope", {"pairing": "half", "rotary_dim": 8}, 16),
    ("rope", {"base": 500.0}, 32),
]


@pytest.mark.parametrize("name,params,hd", CASES)
@pytest.mark.parametrize("key", [False, True])
def test_cheap_rotation_is_bitwise_the_gather_form(name, params, hd, key):
    rot = Rotary(hd, params, None, 4, 64, name)
    assert rot.pairing is not None  # the cheap path is the one taken
    x = torch.randn(3, 4, 37, hd, generator=torch.Generator().manual_seed(0), requires_grad=True)
    y = rot.rotate(x, key=key)
    ref = reference_rotate(rot, x, key=key)
    assert torch.equal(y, ref)
    g = torch.randn_like(y)
    (gx,) = torch.autograd.grad(y, x, g)
    (gr,) = torch.autograd.grad(ref, x, g)
    # backward: the same products, possibly summed in another order: u |g| |(cos, sin)| per entry, twice
    assert torch.allclose(gx, gr, rtol=0, atol=4 * torch.finfo(torch.float32).eps * float(g.abs().max()))


def test_a_wrong_sign_is_caught():
    """Planted violation: the reference with the sine's sign flipped differs (the comparison can fail)."""
    rot = Rotary(16, {}, None, 2, 32)
    x = torch.randn(1, 2, 9, 16, generator=torch.Generator().manual_seed(1))
    cos, sin = rot.cos_sin(9, x.device, x.dtype)
    xa, xb = x[..., rot.idx_a], x[..., rot.idx_b]
    wrong = torch.cat([xa * cos + xb * sin, -xa * sin + xb * cos, x[..., rot.idx_rest]], dim=-1)[..., rot.inverse]
    assert not torch.equal(rot.rotate(x), wrong)


def test_half_pairing_matches_transformers_rotate_half():
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    hd, T = 16, 21
    rot = Rotary(hd, {"pairing": "half"}, None, 2, 64)
    q = torch.randn(2, 2, T, hd, generator=torch.Generator().manual_seed(2))
    cos, sin = rot.cos_sin(T, q.device, q.dtype)
    hf_q, _ = apply_rotary_pos_emb(q, q, torch.cat([cos, cos], -1)[None], torch.cat([sin, sin], -1)[None])
    assert torch.allclose(rot.rotate(q), hf_q, rtol=0, atol=4 * torch.finfo(torch.float32).eps * float(q.abs().max()))


def test_scaled_tables_rotate_queries_and_keys_with_their_factors():
    """YaRN folds its mscale into cos/sin (q and k alike); the cheap form reads the same cos_sin."""
    rot = Rotary(16, {"scale": 4.0, "n_max": 16}, None, 2, 64, "rope_yarn")
    x = torch.randn(1, 2, 40, 16, generator=torch.Generator().manual_seed(3))
    for key in (False, True):
        assert torch.equal(rot.rotate(x, key=key), reference_rotate(rot, x, key=key))
