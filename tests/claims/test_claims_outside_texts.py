"""The outside theorems checked from their full texts (issue 42): Barbero et al., Kazemnejad et al., Wu et al.

Each claim's verdict on the real implementation, and a planted violation, made through the library function (or the
claim module's helper) its checker calls, that flips it."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from petheory import softmax
from petheory.encodings import bias, rotary
from petheory.nn import position, transformer
from proofs_check.claims import barbero2024, barbero2024_heads, kazemnejad2023, wu2025
from proofs_check.engine import get
from proofs_check.runner import check_claim


def verdict(claim_id):
    return check_claim(get(claim_id), profile="quick", seed=0)["verdict"]


@pytest.fixture(autouse=True)
def fresh_heads():
    """The claim modules cache petheory's attention heads (and a head caches its rotary tables): a plant must reach a
    head built under it, so every test starts and ends with the cache empty."""
    from proofs_check.claims import _heads

    _heads._head.cache_clear()
    yield
    _heads._head.cache_clear()


HOLDS = ["barbero2024.max_at_any_offset", "barbero2024.no_decay_isotropic", "barbero2024.lemma_a1_no_return",
         "barbero2024.lemma_a3_dominated_half", "barbero2024.nope_cannot_sharpen", "barbero2024.rope_can_sharpen",
         "barbero2024.single_frequency_channel", "barbero2024.nope_semantic_channel",
         "barbero2024.p_rope_truncates_lowest", "kazemnejad2023.nope_absolute_position",
         "kazemnejad2023.nope_relative_position", "wu2025.causal_mask_first_token", "wu2025.sliding_window_first_token",
         "wu2025.prefix_mask_prefix_tokens", "wu2025.decay_mask_one_layer", "wu2025.decay_mask_theta",
         "wu2025.decay_mask_peak"]


@pytest.mark.parametrize("claim_id", HOLDS)
def test_real_implementation_holds(claim_id):
    assert verdict(claim_id) == "holds"


def test_single_frequency_density_length_is_the_proofs():
    # every arc of pi/2 holds two of {m mod 2 pi : 0 <= m < N}: consecutive gaps must pair to less than pi/2
    n = barbero2024_heads.orbit_covering_length()
    pts = np.sort(np.mod(np.arange(n), 2 * np.pi))
    gaps = np.diff(np.concatenate([pts, [pts[0] + 2 * np.pi]]))
    assert np.all(gaps + np.roll(gaps, -1) < np.pi / 2)
    pts = np.sort(np.mod(np.arange(n - 1), 2 * np.pi))
    gaps = np.diff(np.concatenate([pts, [pts[0] + 2 * np.pi]]))
    assert not np.all(gaps + np.roll(gaps, -1) < np.pi / 2)  # the least such N
    assert n == 12


def test_p_rope_keeps_the_fastest_and_partial_rope_the_slowest():
    p_rope = barbero2024_heads.library_frequencies(128, 0.25, 1e4, proportional=True)
    partial = barbero2024_heads.library_frequencies(128, 0.25, 1e4, proportional=False)
    np.testing.assert_allclose(p_rope, barbero2024_heads.p_rope_reference(128, 0.25, 1e4), rtol=1e-12)
    kept = p_rope > 0
    assert kept.sum() == 16 and p_rope[kept].min() > 1e4 ** -0.25  # the lowest three quarters dropped
    assert partial[partial > 0].min() < 2e-4  # partial RoPE's ladder still reaches about 1/base


# ----------------------------------------------------------------------------- planted violations


def test_planted_rotation_the_wrong_way(monkeypatch):
    real = rotary.RotaryTable.apply_at
    monkeypatch.setattr(rotary.RotaryTable, "apply_at",
                        lambda self, x, p: real(rotary.RotaryTable(-self.angles, self.d, self.pairing), x, p))
    assert verdict("barbero2024.max_at_any_offset") == "refuted"


def test_planted_affine_rotation_makes_isotropic_pairs_correlate(monkeypatch):
    real = rotary.RotaryTable.apply_at
    monkeypatch.setattr(rotary.RotaryTable, "apply_at", lambda self, x, p: real(self, x, p) + 0.5)
    assert verdict("barbero2024.no_decay_isotropic") == "refuted"


def test_isotropic_no_decay_cannot_see_a_wrong_angle_so_its_evidence_is_definitional(monkeypatch):
    # E[q^T M k] = 0 for any linear M: a rotation three times too fast is still linear and still passes, which is why
    # the claim says 'definitional' and names the two things it can detect (the two plants around this test)
    real = rotary.RotaryTable.apply_at
    monkeypatch.setattr(rotary.RotaryTable, "apply_at",
                        lambda self, x, p: real(rotary.RotaryTable(3.0 * self.angles, self.d, self.pairing), x, p))
    rec = check_claim(get("barbero2024.no_decay_isotropic"), profile="quick", seed=0)
    assert rec["verdict"] == "holds" and rec["evidence"] == "definitional" and "not linear" in rec["evidence_note"]


def test_planted_commensurate_frequencies_return(monkeypatch):
    real = rotary.rope_frequencies
    monkeypatch.setattr(rotary, "rope_frequencies", lambda *a, **k: np.full_like(real(*a, **k), np.pi / 2))
    assert verdict("barbero2024.lemma_a1_no_return") == "refuted"


def test_planted_softmax_along_the_columns(monkeypatch):
    real = softmax.row_softmax
    monkeypatch.setattr(softmax, "row_softmax", lambda M: real(np.asarray(M, float).T).T)
    assert verdict("barbero2024.lemma_a3_dominated_half") == "refuted"
    assert verdict("barbero2024.max_at_any_offset") == "refuted"


def _leak(real):
    def qkv(self, x):
        q, k, v, scale = real(self, x)
        pos = torch.arange(q.shape[-2], dtype=q.dtype)[:, None]
        return q + pos, k + pos, v, scale
    return qkv


@pytest.mark.parametrize("claim_id", ["barbero2024.nope_cannot_sharpen", "barbero2024.nope_semantic_channel"])
def test_planted_position_leaking_into_a_nope_head(monkeypatch, claim_id):
    monkeypatch.setattr(transformer.Attention, "qkv", _leak(transformer.Attention.qkv))
    assert verdict(claim_id) == "refuted"


def test_planted_model_rotary_the_wrong_way(monkeypatch):
    real = position.Rotary.cos_sin
    monkeypatch.setattr(position.Rotary, "cos_sin", lambda self, T, device, dtype=torch.float32, key=False:
                        (real(self, T, device, dtype, key=key)[0], -real(self, T, device, dtype, key=key)[1]))
    assert verdict("barbero2024.rope_can_sharpen") == "refuted"


def test_planted_model_rotary_that_does_not_rotate(monkeypatch):
    real = position.Rotary.cos_sin
    monkeypatch.setattr(position.Rotary, "cos_sin", lambda self, T, device, dtype=torch.float32, key=False:
                        tuple(torch.ones_like(t) if i == 0 else torch.zeros_like(t)
                              for i, t in enumerate(real(self, T, device, dtype, key=key))))
    assert verdict("barbero2024.single_frequency_channel") == "refuted"


def test_planted_proportional_rope_read_as_partial(monkeypatch):
    from petheory.models import rope as model_rope

    real = model_rope.rope_scheme
    monkeypatch.setattr(model_rope, "rope_scheme", lambda cfg, rope, where, **k: real(
        cfg, {**rope, "rope_type": "default"}, where, **k))
    assert verdict("barbero2024.p_rope_truncates_lowest") == "refuted"


def test_planted_attention_without_its_causal_mask(monkeypatch):
    real = transformer.Attention.heads

    def heads(self, x, return_probs=False):
        was, self.causal = self.causal, False
        try:
            return real(self, x, return_probs)
        finally:
            self.causal = was

    monkeypatch.setattr(transformer.Attention, "heads", heads)
    assert verdict("kazemnejad2023.nope_absolute_position") == "refuted"


def test_planted_key_with_twice_its_position(monkeypatch):
    real = kazemnejad2023.relative_construction

    def twice(content_dim, head_dim, lam, rng):  # the key carries 2 lam i: logits lam (2i - t), not a function of t - i
        w_q, w_k = real(content_dim, head_dim, lam, rng)
        w_k[w_k.shape[0] - 1, content_dim] = 2 * lam
        return w_q, w_k

    monkeypatch.setattr(kazemnejad2023, "relative_construction", twice)
    assert verdict("kazemnejad2023.nope_relative_position") == "refuted"


@pytest.mark.parametrize("claim_id", ["wu2025.decay_mask_one_layer", "wu2025.decay_mask_theta"])
def test_planted_decay_twice_as_steep(monkeypatch, claim_id):
    real = bias.alibi
    monkeypatch.setattr(bias, "alibi", lambda n, **k: 2.0 * real(n, **k))
    assert verdict(claim_id) == "refuted"


@pytest.mark.parametrize("claim_id", ["wu2025.causal_mask_first_token", "wu2025.sliding_window_first_token"])
def test_planted_epsilon_larger_than_the_smallest_weight(monkeypatch, claim_id):
    real = wu2025.lemma_a1_epsilon
    # three times the smallest weight (at most 1/(N-1), where the last token's bound reaches 0): too tight a bound
    monkeypatch.setattr(wu2025, "lemma_a1_epsilon", lambda layers: min(3.0 * real(layers), 1.0 / (len(layers[0][0]) - 1)))
    assert verdict(claim_id) == "refuted"


def test_prefix_mask_is_the_authors():
    # utils.prefix_mask in the authors' repository: rows < K see columns < K, later rows are causal
    m = wu2025.prefix_mask(5, 2)
    assert m.tolist() == [[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]


def test_planted_token_that_never_sees_the_prefix(monkeypatch):
    real = wu2025.prefix_mask

    def mask(n, k):
        m = real(n, k)
        m[n - 1, :k] = False  # the last token no longer sees the prefix: its context cannot converge to it
        return m

    monkeypatch.setattr(wu2025, "prefix_mask", mask)
    assert verdict("wu2025.prefix_mask_prefix_tokens") == "refuted"


def test_planted_peak_off_by_a_factor(monkeypatch):
    from petheory.bounds import long_context as lc

    real = lc.decay_mask_peak
    monkeypatch.setattr(lc, "decay_mask_peak", lambda t, m: (real(t, m)[0], 2.0 * real(t, m)[1] + 2.0))
    assert verdict("wu2025.decay_mask_peak") == "refuted"


def test_planted_correlated_queries_and_keys(monkeypatch):
    def correlated(rng, d):
        q = rng.standard_normal((barbero2024.N_SAMPLES, d))
        return q, q + 0.1 * rng.standard_normal(q.shape)

    monkeypatch.setattr(barbero2024, "sample_pair", correlated)
    assert verdict("barbero2024.no_decay_isotropic") == "refuted"


@pytest.mark.parametrize("claim_id", ["wu2025.rope_one_layer", "wu2025.rope_many_layers"])
def test_rope_bounds_hold_with_the_proofs_constants(claim_id):
    assert verdict(claim_id) == "holds"


@pytest.mark.parametrize("claim_id", ["wu2025.rope_one_layer", "wu2025.rope_many_layers"])
def test_planted_rotation_three_times_too_fast(monkeypatch, claim_id):
    real = rotary.RotaryTable.apply
    monkeypatch.setattr(rotary.RotaryTable, "apply",
                        lambda self, x: real(rotary.RotaryTable(3.0 * self.angles, self.d, self.pairing), x))
    assert verdict(claim_id) == "refuted"
