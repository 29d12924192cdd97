"""``petheory.encodings.rotate``: the rotation a layer applies, checked on its identities and its refusals.

Identities (float64, tolerance from the rounding of one rotation: a few u per coordinate, u = 2^-53,
times the vector's size): a rotation keeps the norm of every rotated pair; rotating by p then reading
the logit q_i . k_j depends only on i - j (RoPE's relative property); the two pairings are the same map
up to a fixed permutation; proportional RoPE is a partial half-split slice moved to (t, t + d/2).
transformers itself is the oracle in tests/models/test_rotate_vs_transformers.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from petheory.encodings import rotate, rotated_coordinates, rotary_frequencies
from petheory.errors import ValidationError
from petheory.scheme import Layer, MRope, Positions

U = 2.0**-53


def rope(d=8, **params):
    return Positions("rotary", "rope", {"base": 100.0, "pairing": "half", **params}, d)


def test_rotation_keeps_each_pairs_norm_and_passes_the_rest_through():
    layer = rope(8, rotary_dim=4)
    x = np.random.default_rng(0).standard_normal((2, 5, 8))
    y = rotate(x, np.arange(5), layer)
    a, b = rotated_coordinates(rotary_frequencies(layer)[2])
    assert np.allclose(np.hypot(y[..., a], y[..., b]), np.hypot(x[..., a], x[..., b]), rtol=8 * U, atol=0)
    assert np.array_equal(y[..., 4:], x[..., 4:])  # the partial slice: coordinates 4..7 pass through


def test_logits_depend_on_the_offset_only():
    layer = rope(8)
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    logit = [float(rotate(q[None], [i], layer)[0] @ rotate(k[None], [i + 3], layer)[0]) for i in (0, 7, 100)]
    assert np.allclose(logit, logit[0], rtol=0, atol=64 * U * np.abs(q).sum() * np.abs(k).sum())


def test_the_two_pairings_are_one_map_up_to_a_permutation():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 8))
    perm = np.array([0, 2, 4, 6, 1, 3, 5, 7])  # interleaved coordinate (2t, 2t+1) -> half-split (t, t+4)
    half = rotate(x[:, perm], np.arange(4), rope(8))
    inter = rotate(x, np.arange(4), rope(8, pairing="interleaved"))
    assert np.array_equal(half, inter[:, perm])
    assert not np.allclose(half, rotate(x, np.arange(4), rope(8)))  # and they differ on the same input


def test_proportional_rope_moves_the_rotated_slice_to_the_whole_head():
    prop = Positions("rotary", "rope", {"base": 100.0, "pairing": "half", "rotary_dim": 4}, 8, proportional=True)
    x = np.random.default_rng(3).standard_normal((3, 8))
    y = rotate(x, [0, 5, 9], prop)
    idx = np.array([0, 1, 4, 5])  # pairs (0, 4), (1, 5); 2, 3, 6, 7 pass through
    assert np.array_equal(y[:, [2, 3, 6, 7]], x[:, [2, 3, 6, 7]])
    assert np.array_equal(y[:, idx], rotate(x[:, idx], [0, 5, 9], rope(4)))


def test_mrope_bands_follow_their_axes():
    layer = Positions("rotary", "rope", {"base": 100.0, "pairing": "half"}, 12, mrope=MRope((2, 2, 2), "chunked"))
    x = np.random.default_rng(4).standard_normal((2, 12))
    text = rotate(x, [3, 7], layer)
    assert np.array_equal(text, rotate(x, [[3, 7], [3, 7], [3, 7]], layer))  # text: every axis the same index
    y = rotate(x, [[3, 7], [0, 0], [0, 0]], layer)  # h, w at 0: bands 2..5 do not turn
    assert np.array_equal(y[:, [2, 3, 4, 5, 8, 9, 10, 11]], x[:, [2, 3, 4, 5, 8, 9, 10, 11]])
    assert np.array_equal(y[:, [0, 1, 6, 7]], text[:, [0, 1, 6, 7]])


def test_yarn_scales_cos_and_sin_by_its_attention_factor():
    layer = Positions("rotary", "rope_yarn", {"scale": 4.0, "n_max": 64, "pairing": "half"}, 8)
    m = rotary_frequencies(layer)[1]
    x = np.ones((1, 8))
    assert m == pytest.approx(0.1 * np.log(4) + 1)
    assert np.allclose(rotate(x, [0], layer), m * x, rtol=4 * U)  # at position 0 only the factor remains


def test_mla_rotates_its_rope_part():
    mla = Positions("rotary", "mla_rope", {"rope_dim": 4, "base": 100.0, "pairing": "interleaved", "scaling": "rope",
                                           "scaling_params": {}, "softmax_mscale": 1.5}, 12)
    x = np.random.default_rng(5).standard_normal((2, 4))
    assert np.array_equal(rotate(x, [0, 3], mla), rotate(x, [0, 3], rope(4, pairing="interleaved")))
    with pytest.raises(ValidationError, match="rope part alone"):
        rotate(np.ones((2, 12)), [0, 3], mla)


@pytest.mark.parametrize("kind,enc", [("nope", None), ("none", None), ("bias", "alibi")])
def test_a_layer_that_rotates_nothing_is_refused(kind, enc):
    with pytest.raises(ValidationError, match="nothing rotates"):
        rotate(np.ones((1, 8)), [0], Layer(Positions(kind, enc, d=8)))


@pytest.mark.parametrize("x,pos,match", [
    (np.ones((2, 6)), [0, 1], "d = 8"),
    (np.ones((3, 8)), [0, 1], "T = 2"),
    (np.ones(8), [0], "shape"),
    (np.ones((2, 8)), [0.0, 1.0], "integers"),
    (np.ones((2, 8)), [0, -1], ">= 0"),
    (np.ones((2, 8)), [[0, 1]] * 3, "one position per token"),
    (np.full((1, 8), np.nan), [0], "finite"),
])
def test_bad_inputs_are_refused_with_what_was_expected(x, pos, match):
    with pytest.raises((ValidationError, TypeError), match=match):
        rotate(x, pos, rope(8))
