"""The tolerance model: Higham's gamma_n for relative rounding, plus the underflow term."""

import numpy as np
import pytest

from proofs_check import get, tolerance
from proofs_check.tolerance import gamma, unit_roundoff


def test_tolerance_is_gamma_n_times_scale_for_normal_numbers():
    assert tolerance(n_ops=10, scale=3.0) == pytest.approx(gamma(10) * 3.0, rel=1e-12)
    assert gamma(10) == pytest.approx(10 * unit_roundoff() / (1 - 10 * unit_roundoff()))


def test_tolerance_covers_gradual_underflow():
    # With subnormal operands rounding errors are absolute (one smallest subnormal per operation),
    # so a purely relative tolerance would be smaller than what IEEE arithmetic can deliver.
    tiny = 1e-308
    assert tolerance(n_ops=4, scale=tiny) >= 4 * np.finfo(float).smallest_subnormal


def test_rope_relative_holds_on_a_subnormal_key():
    # Found by the search once the model lacked the underflow term: q = (0, 1), k = (0, 1.1e-308).
    case = {"d": 2, "rotary_dim": None, "i": 1, "j": 1, "base": 10000.0, "pairing": "interleaved",
            "q": [0.0, 1.0], "k": [0.0, 1.1125369292536007e-308]}
    assert get("gu2025.rope_relative").violation(case) <= 0


@pytest.mark.parametrize("bad", [{"scale": float("nan")}, {"scale": 1.0, "cond": -1.0}])
def test_tolerance_rejects_non_finite_scale_and_negative_condition(bad):
    with pytest.raises(ValueError, match="scale"):
        tolerance(n_ops=3, **bad)
