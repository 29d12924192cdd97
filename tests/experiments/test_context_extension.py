"""Context extension of a trained RoPE model: swapped rotary angles, matched scales, partial RoPE, fine-tuning."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from petheory.experiments.context_extension import (ExtendedRotary, angle_coverage, finetune, matched_scale,
                                                    method_params, swap_rotary)
from petheory.nn import build_model, tasks
from petheory.nn.transformer import ModelConfig


def _rope_model(pe="rope", **kw):
    torch.manual_seed(0)
    cfg = ModelConfig(head="lm", vocab_size=12, pe=pe, causal=True, d_model=32, n_head=2, n_layer=2, d_ff=32, max_len=64, **kw)
    return build_model(cfg).eval()


@pytest.mark.parametrize("method", ["rope_pi:scale=2", "rope_ntk:scale=4", "rope_yarn:scale=3,n_max=20",
                                    "rope_pi:scale=2,base=500"])
def test_swapping_changes_only_the_rotary_angles(method):
    base = "rope:base=500" if "base=500" in method else "rope"
    m = _rope_model(base)
    direct = build_model(ModelConfig(**{**m.cfg.__dict__, "pe": method})).eval()
    direct.load_state_dict(m.state_dict())  # same weights: rotary tables are not parameters
    swapped = swap_rotary(m, method, train_len=20)
    x = torch.randint(0, 12, (3, 40))
    with torch.no_grad():
        a, b = swapped(x), direct(x)
    # Same operations on the same numbers: float32 round-off only (identical code path, so bit-equal expected)
    torch.testing.assert_close(a, b, rtol=0, atol=0)
    for k, v in m.state_dict().items():
        assert torch.equal(v, swapped.state_dict()[k])
    with torch.no_grad():
        assert not torch.equal(m(x), a)  # and the angles did change


def test_plain_rope_swap_is_the_trained_model_and_the_original_is_untouched():
    m = _rope_model()
    x = torch.randint(0, 12, (2, 50))
    with torch.no_grad():
        before = m(x)
        same = swap_rotary(m, "rope", train_len=20)(x)
        swap_rotary(m, "rope_pi", train_len=20)(x)
        after = m(x)
    assert torch.equal(before, same) and torch.equal(before, after)


def test_matched_scale_is_the_direct_model_at_each_length():
    m = _rope_model()
    swapped = swap_rotary(m, "rope_pi", train_len=20)
    for T in (10, 30, 57):
        s = matched_scale(T, 20)
        direct = build_model(ModelConfig(**{**m.cfg.__dict__, "pe": f"rope_pi:scale={s!r}"})).eval()
        direct.load_state_dict(m.state_dict())
        x = torch.randint(0, 12, (2, T))
        with torch.no_grad():
            torch.testing.assert_close(swapped(x), direct(x), rtol=0, atol=0)
    assert matched_scale(20, 20) == 1.0 and matched_scale(39, 20) == 2.0


def test_partial_rope_heads_are_kept_and_mismatch_is_refused():
    m = _rope_model("rope:heads=1")
    sw = swap_rotary(m, "rope_yarn", train_len=20)
    assert all(isinstance(b.attn.rotary, ExtendedRotary) and b.attn.rotary.heads == 1 for b in sw.blocks)
    with pytest.raises(ValueError, match="heads=2"):
        swap_rotary(m, "rope_pi:heads=2", train_len=20)


@pytest.mark.parametrize("method", ["rope_pi", "rope_ntk", "rope_yarn"])
@pytest.mark.parametrize("T", [20, 41, 160, 320])
def test_angle_coverage_agrees_with_the_bounds_module(method, T):
    from petheory.bounds.norms import rotary_angle_coverage

    m = _rope_model()
    for scale in (2.0, 8.0):
        sw = swap_rotary(m, f"{method}:scale={scale}", train_len=20)
        ours = angle_coverage(sw, T)
        ref = rotary_angle_coverage(method, T, 16, n_max=20, scale=scale)  # YaRN's n_max is taken from n_max=
        assert (ours["out_of_range"], ours["full_turn"], ours["bands"]) == (ref["out_of_range"], ref["full_turn"], ref["bands"])


def test_pi_matched_to_the_length_never_leaves_the_trained_angles():
    sw = swap_rotary(_rope_model(), "rope_pi", train_len=20)
    assert all(angle_coverage(sw, T)["out_of_range"] == 0 for T in (21, 40, 97, 640))
    plain = swap_rotary(_rope_model(), "rope", train_len=20)
    assert angle_coverage(plain, 40)["out_of_range"] > 0


@pytest.mark.parametrize("pe, method, words", [
    ("alibi", "rope_pi", "swaps the rotary angles of a RoPE model"),
    ("rope", "alibi", "not a rotary registry entry"),
    ("rope", "rope_pi+sinusoidal", "not a rotary registry entry"),
    ("rope", "rope_nonsense", "unknown PE"),
])
def test_bad_swaps_are_value_errors(pe, method, words):
    with pytest.raises(ValueError, match=words):
        method_params(_rope_model(pe), method, train_len=20)


def test_finetune_is_deterministic_fixes_the_factor_and_validates():
    from petheory.nn import preset
    from petheory.nn.training import train

    cfg = preset("passkey", "smoke", pe="rope", seed=0)
    rec = train(cfg)
    assert rec["final"]["test"]["16"]["seq_acc"] >= 0.0
    torch.manual_seed(1)
    from petheory.nn.training import complete_model_config

    data = tasks.load(cfg.task)
    m = build_model(complete_model_config(cfg.model, data)).eval()
    a, info = finetune(m, cfg.task, "rope_yarn", length=32, steps=2, train_len=19, seed=0)
    b, _ = finetune(m, cfg.task, "rope_yarn", length=32, steps=2, train_len=19, seed=0)
    assert info["spec"] == "rope_yarn:scale=2" and a.extension["params"]["scale"] == 2.0
    assert all(torch.equal(p, q) for p, q in zip(a.state_dict().values(), b.state_dict().values()))
    assert any(not torch.equal(p, q) for p, q in zip(a.state_dict().values(), m.state_dict().values()))
    with pytest.raises(ValueError, match="must exceed the training length"):
        finetune(m, cfg.task, "rope_pi", length=8, steps=2, train_len=19)
    with pytest.raises(ValueError, match="steps must be a positive integer"):
        finetune(m, cfg.task, "rope_pi", length=32, steps=0, train_len=19)


def test_any_rotary_registry_entry_can_be_swapped_in(monkeypatch):
    """A rotary entry registered later (Llama 3, LongRoPE, dynamic NTK, a plugin's) needs no change here: its
    ``scale`` is matched to the length and its ``n_max`` set to the training context, like PI's and YaRN's."""
    from petheory import encodings as enc
    from petheory.encodings.rotary import RotaryTable, rope_frequencies

    def rope_halfway(n, d, *, scale=1.0, n_max=4096, base=10000.0, pairing="interleaved", rotary_dim=None):
        """Every band interpolated by sqrt(scale), n_max unused but required (a stand-in for a new scaling)."""
        w = rope_frequencies(d, base=base, rotary_dim=rotary_dim) / np.sqrt(scale)
        return RotaryTable(np.arange(n, dtype=np.float64)[:, None] * w[None, :], d, pairing)

    monkeypatch.setitem(enc._REGISTRY, "rope_halfway", enc.EncodingInfo(
        "rope_halfway", "rotary", rope_halfway, "test entry", "", "", {"scale": 1.0, "n_max": 4096, "base": 10000.0,
                                                                    "pairing": "interleaved", "rotary_dim": None}))
    m = _rope_model()
    sw = swap_rotary(m, "rope_halfway", train_len=20)
    assert sw.extension["params"]["n_max"] == 20 and sw.extension["matched"] == "scale"
    x = torch.randint(0, 12, (2, 39))  # T = 39: matched scale (39-1)/(20-1) = 2
    direct = build_model(ModelConfig(**{**m.cfg.__dict__, "pe": "rope_halfway:scale=2.0,n_max=20"})).eval()
    direct.load_state_dict(m.state_dict())
    with torch.no_grad():
        torch.testing.assert_close(sw(x), direct(x), rtol=0, atol=0)
