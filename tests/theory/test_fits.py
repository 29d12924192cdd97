"""petheory.fits: straight-line and power-law fits with their t-intervals."""

import math

import numpy as np
import pytest

from petheory import fits


def test_fit_line_interval_has_its_nominal_coverage():
    rng = np.random.default_rng(0)
    x = np.linspace(0, 10, 12)
    hits = 0
    for _ in range(400):
        f = fits.fit_line(x, 1.5 - 0.7 * x + rng.normal(0, 0.3, x.size))
        hits += f.slope_ci[0] < -0.7 < f.slope_ci[1]
    assert 0.92 <= hits / 400 <= 0.98  # 95% +- 3 binomial standard errors (0.011 each)


def test_fit_power_law_exact_exponent():
    x = np.array([2.0, 4, 8, 16])
    f = fits.fit_power_law(x, 3 * x**-0.5)
    assert math.isclose(f.slope, -0.5, abs_tol=1e-12) and math.isclose(math.exp(f.intercept), 3.0, rel_tol=1e-12)
    with pytest.raises(ValueError, match="positive"):
        fits.fit_power_law([1, 2, 3], [1, 0, 2])
