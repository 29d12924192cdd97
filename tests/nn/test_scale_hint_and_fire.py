"""FIRE (petheory.nn.position.FIREBias) and Scale Hint (petheory.nn.scale_hint): reference paths, shapes, gradients, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from petheory import encodings as enc
from petheory.nn import ModelConfig, build_model, parse_pe
from petheory.nn import scale_hint as L
from petheory.nn.position import BiasPE, FIREBias, Rotary

TOKENS = torch.tensor([[1, 5, 6, 7, 4, 8, 9, 2, 5, 6], [1, 5, 2, 6, 3, 0, 0, 0, 0, 0]])  # BOS .. + .. SEP ..


def test_specs_round_trip_and_hints_are_checked():
    for spec in ("fire", "fire:hint=shift", "rope:hint=interp", "alibi:hint=interp", "relative:hint=shift",
                 "sinusoidal:hint=shift", "fire:hidden=8,hint=shift"):
        assert parse_pe(str(parse_pe(spec))) == parse_pe(spec)
    for bad in ("t5:hint=shift", "nope:hint=shift", "sinusoidal:hint=interp", "rope:hint=zoom", "mla:hint=shift",
                "rope:hint=interp+sinusoidal"):
        with pytest.raises(ValueError):
            parse_pe(bad)


def test_plain_specs_keep_their_spec_string():
    assert str(parse_pe("rope")) == "rope"  # no hint key: old config hashes are unchanged


def test_hint_positions_follow_the_separators():
    shift = L.hint_positions(TOKENS, "shift")
    assert shift[0].tolist() == [0, 1, 2, 3, 0, 1, 2, 0, 1, 2]
    interp = L.hint_positions(TOKENS, "interp")
    assert interp[0, 7].item() == pytest.approx(L.REF_SCALE) and interp[1, 2].item() == pytest.approx(L.REF_SCALE)


def test_fire_input_matches_the_registry_formula():
    T = 7
    fire = FIREBias(n_head=2, hidden=4, c=2.0, threshold=3.0)
    captured = {}
    fire.mlp[0].register_forward_hook(lambda m, inp, out: captured.update(x=inp[0]))  # returns None: output kept
    fire(torch.arange(T, dtype=torch.float32)[None])
    ref = enc.fire_input(np.arange(T, dtype=float), np.arange(T, dtype=float), c=2.0, threshold=3.0)
    assert np.allclose(captured["x"][0, ..., 0].detach().double().numpy(), ref, atol=1e-6)


def test_fire_learns_through_mlp_c_and_threshold():
    fire = FIREBias(n_head=3, hidden=4)
    out = fire(torch.arange(5, dtype=torch.float32)[None])
    assert out.shape == (1, 3, 5, 5)
    out.sum().backward()
    assert all(p.grad is not None for p in (fire.log_c, fire.log_L, fire.mlp[0].weight))


def test_rotation_at_positions_equals_plain_rope_at_0_to_T():
    torch.manual_seed(0)
    rot = Rotary(8, {}, None, 2, 16)
    q, k = torch.randn(2, 2, 6, 8), torch.randn(2, 2, 6, 8)
    pos = torch.arange(6, dtype=torch.float32).expand(2, 6)
    qa, ka = L.rotate_at(rot, q, k, pos)
    qb, kb = rot(q, k)
    assert torch.allclose(qa, qb, atol=1e-5) and torch.allclose(ka, kb, atol=1e-5)


@pytest.mark.parametrize("name", ["alibi", "relative"])
def test_hinted_bias_at_0_to_T_equals_the_plain_bias(name):
    b = BiasPE(name, {}, 4, 16, True, "press")
    if name == "relative":
        with torch.no_grad():
            b.values.normal_()
    pos = torch.arange(6, dtype=torch.float32).expand(3, 6)
    assert torch.allclose(L.hinted_bias(b, pos), b(6, "cpu")[None].expand(3, -1, -1, -1), atol=1e-6)


def test_models_with_hints_run_and_differ_from_plain():
    outs = {}
    for spec in ("fire", "fire:hint=shift", "rope:hint=interp", "sinusoidal:hint=shift"):
        torch.manual_seed(0)
        m = build_model(ModelConfig(head="lm", vocab_size=10, causal=True, pe=spec, max_len=16))
        outs[spec] = m(TOKENS)
        assert outs[spec].shape == (2, 10, 10) and torch.isfinite(outs[spec]).all()
        assert len(m.attention_probs(TOKENS)) == 2
    assert not torch.allclose(outs["fire"], outs["fire:hint=shift"])


def test_hint_needs_token_inputs():
    with pytest.raises(ValueError, match="token"):
        build_model(ModelConfig(head="regression", vocab_size=0, pe="rope:hint=shift"))
