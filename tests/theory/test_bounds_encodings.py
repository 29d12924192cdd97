"""The wavelet and Legendre reconstructions (co-owned by the bounds module): conventions and fast paths."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from petheory import bounds
from petheory import encodings as enc


def _dense_wavelet(n, d, *, wavelet="db2", n_max=None, normalisation="l2", start=0, dilation="unit"):
    """The definition, one atom per column: c_j psi(2^j u - k) with np.interp (the reference)."""
    x, psi, taps = enc.wavefun(wavelet, 10)
    n_max = n if n_max is None else n_max
    pos = start + np.arange(n, dtype=np.float64)
    u = pos / n_max if dilation == "unit" else pos
    out = np.empty((n, d))
    for a, (j, k) in enumerate(enc.wavelet_atoms(d, taps - 1, dilation=dilation, n_max=n_max)):
        out[:, a] = enc.wavelet_amplitude(j, normalisation) * np.interp(2.0**j * u - k, x, psi, left=0.0, right=0.0)
    return out


@pytest.mark.parametrize("wavelet", ["haar", "db2", "db4", "sym4", "coif1"])
@pytest.mark.parametrize("dilation", ["unit", "position"])
@pytest.mark.parametrize("normalisation", ["l2", "paper", "none"])
def test_sparse_wavelet_equals_dense_definition(wavelet, dilation, normalisation):
    for n, d, n_max, start in [(50, 64, 50, 0), (200, 64, 50, 0), (17, 5, 9, 3), (300, 200, 40, 0), (10, 1, 1, 0)]:
        kw = dict(wavelet=wavelet, n_max=n_max, normalisation=normalisation, start=start, dilation=dilation)
        assert np.array_equal(enc.wavelet(n, d, **kw), _dense_wavelet(n, d, **kw))


def test_wavelet_default_is_unchanged_unit_dilation():
    # the defaults (dilation='unit') reproduce the original construction: scales 0,1,.. on t = p/n_max
    atoms = enc.wavelet_atoms(10, 3)
    assert atoms[:3] == [(0, -2), (0, -1), (0, 0)] and atoms[3] == (1, -2)


def test_position_dilation_starts_at_training_range_width():
    atoms = enc.wavelet_atoms(4, 3, dilation="position", n_max=50)
    assert atoms[0][0] == -6  # 2^6 = 64 >= 50 > 32
    with pytest.raises(ValueError, match="needs n_max"):
        enc.wavelet_atoms(4, 3, dilation="position")


def test_wavelet_bad_parameters_are_clear():
    with pytest.raises(ValueError, match="discrete PyWavelets"):
        enc.wavelet(4, 4, wavelet="db99x")
    with pytest.raises(ValueError, match="dilation"):
        enc.wavelet(4, 4, dilation="octave")
    with pytest.raises(ValueError, match="normalisation"):
        enc.wavelet(4, 4, normalisation="max")


def test_wavelet_norms_match_dense_table():
    for dil in ("unit", "position"):
        P = enc.wavelet(400, 64, n_max=50, dilation=dil, normalisation="paper")
        assert np.allclose(bounds.wavelet_norms(400, 64, n_max=50, dilation=dil, normalisation="paper"),
                           np.linalg.norm(P, axis=1), rtol=1e-14, atol=0)


@given(n_max=st.integers(2, 300), extra=st.integers(0, 50))
def test_legendre_exp_map_stays_below_one_and_saturates(n_max, extra):
    x = enc.legendre_positions(np.arange(n_max + extra), n_max, position_map="exp")
    # x < 1 in exact arithmetic; in float64 it reaches 1.0 once 2 e^{-rate p} < u (saturation, never overshoot)
    assert x[0] == -1.0 and np.all(np.diff(x) >= 0) and np.all(x <= 1.0)
    assert math.isclose(x[n_max - 1], 0.9, rel_tol=1e-12)


def test_legendre_linear_default_unchanged():
    P = enc.legendre(5, 3, n_max=3)
    x = np.minimum(2.0 * np.arange(5) / 2 - 1.0, 1.0)
    assert np.array_equal(P, np.polynomial.legendre.legvander(x, 2))
