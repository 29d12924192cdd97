"""petheory.analyses.kernel.layer_kernel: a layer's kernel data computed once gives what the public entries give.

The report's sections and ``layer_bounds`` read one :class:`LayerKernel` instead of asking ``why_no_kernel``,
``rotary_bands``, ``position_column`` and ``extremes`` again; these tests hold it to the public entries, value for
value (the same arithmetic on the same inputs: exact equality), and keep the public entries' refusals.
"""

from __future__ import annotations

import numpy as np
import pytest

from petheory.analyses import kernel as K
from petheory.errors import ValidationError
from petheory.scheme import Positions

#: One layer of each mechanism the report analyses: plain and dynamic rotary (its bands depend on the length),
#: ALiBi's closed form, the registry's T5 buckets (values of its own) and a dense bias.
LAYERS = {
    "rope": Positions("rotary", "rope", {"base": 100.0}, 8),
    "rope_dynamic": Positions("rotary", "rope_dynamic", {"base": 1e4, "scale": 2.0, "n_max": 16}, 16),
    "alibi": Positions("bias", "alibi", {"slope": 0.5}, 64),
    "t5": Positions("bias", "t5", {"bidirectional": False}, 64),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layer_kernel_gives_the_public_column_bands_and_extremes(name):
    pos = LAYERS[name]
    n, sizes = 24, (24, 48, 96)
    kern = K.layer_kernel(pos, n, extremes_at=sizes)
    assert kern.why_none is None and kern.length == n
    col = K.position_column(pos, n)
    assert np.array_equal(kern.column.column, col.column) and kern.column.description == col.description
    bands = K.rotary_bands(pos, n)
    assert (kern.bands is None) == (bands is None)
    if bands is not None:
        assert np.array_equal(kern.bands[0], bands[0]) and kern.bands[1] == bands[1]
    assert [e.length for e in kern.extremes] == list(sizes)
    for found in kern.extremes:
        eig, warns = K.extremes(pos, found.length)
        assert (found.eigenvalues.min.value, found.eigenvalues.max.value) == (eig.min.value, eig.max.value)
        assert found.warnings == warns


def test_a_dynamic_scaling_is_evaluated_at_each_size_not_at_n():
    pos = LAYERS["rope_dynamic"]
    kern = K.layer_kernel(pos, 8, extremes_at=(8, 64))
    (w8, f8), (w64, f64) = K.rotary_bands(pos, 8), K.rotary_bands(pos, 64)
    at64 = K.low_rank_extremes(w64, 64, f64).max.value
    assert K.low_rank_extremes(w8, 64, f8).max.value != at64  # n's bands at 64 would give another number
    assert kern.extremes[1].eigenvalues.max.value == at64


@pytest.mark.parametrize("pos, learned", [(Positions("nope"), False), (Positions("none"), False),
                                          (LAYERS["t5"], True)])
def test_a_layer_without_a_kernel_carries_why_and_nothing_else(pos, learned):
    kern = K.layer_kernel(pos, 16, learned_t5=learned, extremes_at=(16,))
    assert kern.why_none == K.why_no_kernel(pos, learned_t5=learned) is not None
    assert (kern.bands, kern.column, kern.extremes) == (None, None, ())
    with pytest.raises(K.NoKernel, match=kern.why_none[:20]):
        K.position_column(pos, 16, learned_t5=learned)


def test_column_false_gives_the_bands_alone():
    kern = K.layer_kernel(LAYERS["rope"], 32, column=False, extremes_at=(32,))
    assert kern.column is None and kern.extremes == ()
    assert np.array_equal(kern.bands[0], K.rotary_bands(LAYERS["rope"], 32)[0])


def test_the_public_entries_still_refuse_bad_arguments():
    with pytest.raises(ValidationError, match="length"):
        K.position_column(LAYERS["rope"], 0)
    with pytest.raises(ValidationError, match="length"):
        K.rotary_column([0.1, 0.2], 0)
    with pytest.raises(ValidationError, match="freqs"):
        K.rotary_column([0.1, float("nan")], 4)
    with pytest.raises(ValidationError, match="slope"):  # a spec's ALiBi slope, unchecked until the column is built
        K.layer_kernel(Positions("bias", "alibi", {"slope": float("nan")}, 64), 4)
