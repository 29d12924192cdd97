"""petheory.nn models and position mechanisms: they implement the registry's formulas, validate
their input, and ablate heads exactly."""

import math

import numpy as np
import pytest
import torch

from petheory import encodings as enc
from petheory.nn import ModelConfig, build_model, parse_pe, pe_names
from petheory.nn.position import AbsolutePE, BiasPE, Rotary

torch.set_num_threads(1)

F32 = torch.finfo(torch.float32).eps


def tiny(pe="nope", **kw):
    cfg = dict(head="lm", vocab_size=11, n_layer=2, n_head=4, d_model=16, d_ff=32, max_len=24, causal=True, pe=pe)
    cfg.update(kw)
    torch.manual_seed(0)
    return build_model(ModelConfig(**cfg)).eval()


# --------------------------------------------------------------------------- registry formulas


@pytest.mark.parametrize("pairing", ["interleaved", "half"])
@pytest.mark.parametrize("rotary_dim", [None, 4])
def test_rotary_matches_registry_table(pairing, rotary_dim):
    T, hd = 9, 8
    params = {"pairing": pairing} if rotary_dim is None else {"pairing": pairing, "rotary_dim": rotary_dim}
    rot = Rotary(hd, params, None, 1, T)
    x = torch.randn(T, hd, dtype=torch.float64)
    want = enc.rope(T, hd, **params).apply(x.numpy())
    got = rot.rotate(x[None, None]).squeeze().numpy()
    np.testing.assert_allclose(got, want, rtol=0, atol=64 * np.finfo(np.float64).eps * T)


def test_rotary_scores_depend_only_on_offset():
    rot = Rotary(8, {}, None, 1, 32)
    q, k = torch.randn(8, dtype=torch.float64), torch.randn(8, dtype=torch.float64)
    Q = rot.rotate(q.expand(32, 8)[None, None].clone())[0, 0]
    K = rot.rotate(k.expand(32, 8)[None, None].clone())[0, 0]
    S = Q @ K.T  # (32, 32): S[i, j] = q^T R_{j-i} k
    for off in (-5, 0, 3):
        d = torch.diagonal(S, off)
        assert torch.allclose(d, d[0].expand_as(d), atol=1e-9 * 32)


def test_partial_rope_rotates_only_first_k_heads():
    rot = Rotary(4, {}, 2, 3, 10)
    q = torch.randn(1, 3, 10, 4)
    q2, _ = rot(q, q)
    assert torch.equal(q2[:, 2], q[:, 2])
    assert not torch.allclose(q2[:, :2], q[:, :2])


@pytest.mark.parametrize("slopes", ["press", "gu2025"])
def test_alibi_bias_is_slope_times_registry_distance(slopes):
    H, T = 4, 7
    b = BiasPE("alibi", {}, H, T, causal=False, slopes=slopes)(T, "cpu")
    want = enc.alibi_slopes(H, slopes)[:, None, None] * enc.alibi(T, slope=1.0)[None]
    np.testing.assert_allclose(b.numpy(), want, rtol=4 * F32)


def test_t5_and_relative_index_the_registry_buckets():
    T = 12
    t5 = BiasPE("t5", {"num_buckets": 8, "max_distance": 10}, 2, T, causal=False, slopes="press")
    with torch.no_grad():
        t5.values.copy_(torch.arange(16.0).view(2, 8))
    want = enc.t5_bucket(np.arange(T)[None] - np.arange(T)[:, None], bidirectional=True, num_buckets=8, max_distance=10)
    np.testing.assert_array_equal(t5(T, "cpu")[0].detach().numpy(), want)
    np.testing.assert_array_equal(t5(T, "cpu")[1].detach().numpy(), want + 8)
    rel = BiasPE("relative", {"max_offset": 3}, 1, T, causal=True, slopes="press")
    with torch.no_grad():
        rel.values.copy_(torch.arange(7.0)[None])
    np.testing.assert_array_equal(rel(T, "cpu")[0].detach().numpy(), enc.relative(T, max_offset=3, values=np.arange(7.0)))


@pytest.mark.parametrize("name", ["sinusoidal", "wavelet", "legendre", "random"])
def test_fixed_absolute_table_is_registry_and_extends_consistently(name):
    pe = AbsolutePE(name, {}, 8, max_len=10, train_len=6, trainable=False)
    kw = {"n_max": 6} if name in ("wavelet", "legendre") else {}
    np.testing.assert_allclose(pe(10).numpy(), enc.get(name)(10, 8, **kw), rtol=4 * F32, atol=4 * F32)
    longer = pe(15)  # past max_len: the registry formula at the longer length
    np.testing.assert_allclose(longer[:10].numpy(), pe(10).numpy(), rtol=4 * F32, atol=4 * F32)
    assert longer.shape == (15, 8)


def test_learned_table_refuses_lengths_beyond_it_unless_clamp_is_explicit():
    model = tiny("learned", max_len=8)
    with pytest.raises(ValueError, match="exceeds the 8-row table"):
        model(torch.zeros(1, 9, dtype=torch.long))
    clamp = tiny("learned:n_max=8,beyond=clamp", max_len=16)
    assert clamp.abs_pe.table.shape == (8, 16)
    t = clamp.abs_pe(12)
    assert torch.equal(t[8:], clamp.abs_pe.table[-1].expand(4, 16))
    trainable_random = tiny("random:trainable=true", max_len=8)
    with pytest.raises(ValueError, match="trainable"):
        trainable_random(torch.zeros(1, 9, dtype=torch.long))


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"pe": "rope", "d_model": 12, "n_head": 4}, "even head dimension"),
        ({"pe": "rope:heads=5", "n_head": 4}, "k must be in 1..4"),
        ({"pe": "bogus"}, "unknown PE 'bogus'"),
        ({"pe": "alibi:heads=2"}, "heads= .* applies to rotary"),
        ({"pe": "rope:colour=red"}, "rope takes"),
        ({"pe": "sinusoidal+rope"}, "already absolute"),
        ({"pe": "rope+alibi"}, "not an absolute encoding"),
        ({"d_model": 10, "n_head": 4}, "divisible"),
        ({"pe": "mla:rope_dim=3"}, "rope_dim must be even"),
        ({"pe": "alibi:slope=0.5"}, "one slope per head"),
    ],
)
def test_bad_model_configs_raise_clear_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        tiny(**kw)


def test_spec_round_trips():
    for spec in ["rope:heads=2,pairing=half+sinusoidal", "alibi:slopes=gu2025", "learned:trainable=false", "mla:latent=8"]:
        assert parse_pe(str(parse_pe(spec))) == parse_pe(spec)


# --------------------------------------------------------------------------- models


@pytest.mark.parametrize("pe", pe_names() + ["rope+sinusoidal", "rope:heads=2"])
@pytest.mark.parametrize("causal", [True, False])
def test_every_pe_gives_finite_outputs_and_sdpa_matches_explicit_attention(pe, causal):
    model = tiny(pe, causal=causal, head="classifier" if not causal else "lm", out_dim=5)
    x = torch.randint(1, 11, (3, 13))
    with torch.no_grad():
        y = model(x)
        for block in model.blocks:
            block.attn.sdpa = False
        y2 = model(x)
    assert torch.isfinite(y).all()
    assert y.shape == ((3, 13, 11) if causal else (3, 5))
    assert torch.allclose(y, y2, atol=1e-5)


def test_causal_outputs_ignore_the_future():
    for pe in ["alibi", "rope", "t5", "sinusoidal", "mla"]:
        model = tiny(pe)
        x = torch.randint(1, 11, (2, 10))
        x2 = x.clone()
        x2[:, 7:] = 3
        with torch.no_grad():
            assert torch.allclose(model(x)[:, :7], model(x2)[:, :7], atol=1e-6), pe


def test_nope_without_causal_mask_is_permutation_equivariant():
    model = tiny("nope", causal=False, head="regression", vocab_size=0, input_dim=2, out_dim=1)
    x, perm = torch.randn(2, 9, 2), torch.randperm(9)
    with torch.no_grad():
        assert torch.allclose(model(x)[:, perm], model(x[:, perm]), atol=1e-5)


def test_attention_probs_are_row_stochastic_and_causal():
    model = tiny("alibi")
    probs = model.attention_probs(torch.randint(1, 11, (2, 8)))
    assert len(probs) == 2 and probs[0].shape == (2, 4, 8, 8)
    for p in probs:
        assert torch.allclose(p.sum(-1), torch.ones(2, 4, 8), atol=1e-6)
        assert torch.all(p.triu(1) == 0)


def test_mla_score_uses_latent_and_shared_rope_with_sqrt_head_plus_rope_scale():
    model = tiny("mla:latent=8,rope_dim=4", causal=False, head="classifier", out_dim=3)
    attn = model.blocks[0].attn
    assert attn.w_dkv.out_features == 8 and attn.w_qr.out_features == 4
    x = torch.randn(2, 6, 16)
    q, k, v, scale = attn.qkv(x)
    assert q.shape == (2, 4, 6, 4 + 4) and v.shape == (2, 4, 6, 4)
    assert math.isclose(scale, 1 / math.sqrt(4 + 4))
    assert torch.equal(q[:, 0, :, 4:], q[:, 3, :, 4:])  # the RoPE query is shared across heads


def test_ablating_a_head_changes_outputs_and_ablating_none_does_not():
    model = tiny("rope")
    x = torch.randint(1, 11, (2, 10))
    with torch.no_grad():
        base = model(x)
        with model.ablated([]):
            assert torch.equal(model(x), base)
        with model.ablated([(0, 1)]):
            changed = model(x)
        assert torch.equal(model(x), base)  # restored on exit
    assert (changed - base).abs().max() > 1e-4


def test_ablating_a_head_equals_zeroing_its_value_rows():
    model = tiny("alibi", bias=False)
    x = torch.randint(1, 11, (2, 10))
    with torch.no_grad():
        with model.ablated([(1, 2)]):
            want = model(x)
        hd = 4
        model.blocks[1].attn.c_attn.weight[2 * 16 + 2 * hd: 2 * 16 + 3 * hd] = 0.0  # head 2's value rows
        assert torch.allclose(model(x), want, atol=1e-6)


def test_ablation_rejects_heads_that_do_not_exist():
    with pytest.raises(ValueError, match="no head"):
        with tiny().ablated([(0, 4)]):
            pass


@pytest.mark.parametrize("pe", ["alibi", "rope", "t5", "mla", "sinusoidal"])
def test_bf16_autocast_path_runs_and_stays_close_to_float32(pe):
    # The GPU path (bf16 autocast) exercised on CPU: biases and rotations are kept in float32.
    model = tiny(pe)
    x = torch.randint(1, 11, (2, 10))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = model(x)
    y.float().sum().backward()
    assert y.dtype == torch.bfloat16
    assert (y.float() - model(x)).abs().max() < 0.05


def test_user_registered_encodings_of_every_kind_plug_in():
    """A plugin's encoding works in a model by its registry kind alone (removed again afterwards)."""
    names = {"test_nn_ramp": "absolute", "test_nn_halfalibi": "bias", "test_nn_slowrope": "rotary"}
    try:
        enc.register("test_nn_ramp", "absolute")(lambda n, d, *, scale=0.01: scale * np.arange(n)[:, None] * np.ones((1, d)))
        enc.register("test_nn_halfalibi", "bias")(lambda n: 0.5 * enc.alibi(n))
        enc.register("test_nn_slowrope", "rotary")(lambda n, d, *, pairing="half": enc.rope(n, d, base=100.0, pairing=pairing))
        for name in names:
            model = tiny(name)
            y = model(torch.randint(1, 11, (2, 9)))
            assert torch.isfinite(y).all()
        rot = tiny("test_nn_slowrope").blocks[0].attn.rotary
        x = torch.randn(9, 4, dtype=torch.float64)
        np.testing.assert_allclose(rot.rotate(x[None, None])[0, 0].numpy(), enc.rope(9, 4, base=100.0, pairing="half").apply(x.numpy()),
                                   atol=1e-12)
    finally:
        for name in names:
            enc._REGISTRY.pop(name, None)
