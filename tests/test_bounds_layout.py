"""petheory.bounds' layout: old import paths keep working (same objects), theory imports no torch."""

import subprocess
import sys

from petheory import bounds, fits


def test_fits_are_reexported_from_bounds_as_the_same_objects():
    assert bounds.fit_line is fits.fit_line
    assert bounds.fit_power_law is fits.fit_power_law
    assert bounds.LineFit is fits.LineFit


def test_importing_bounds_and_fits_does_not_import_torch():
    code = "import sys, petheory.bounds, petheory.fits; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_table2_rows_are_registered_encodings_with_a_cited_formula():
    from petheory import encodings as enc

    for name, row in bounds.TABLE2.items():
        enc.info(name)  # registered
        assert row.__doc__ and ("li2025" in row.__doc__ or "Not in li2025" in row.__doc__), name
    assert set(bounds.LONG_CONTEXT_BIAS_BOUNDS) <= set(bounds.TABLE2)
    assert bounds.stated_bound("sinusoidal", 10, 64, {}) == (8.0, "sqrt(d_model)", None)
    assert bounds.stated_bound("t5", 10, None, {}) == (None, "not in Table 2", None)


def test_norm_bound_of_an_unknown_name_lists_the_registered_ones():
    import pytest

    with pytest.raises(ValueError, match="registered: .*sinusoidal"):
        bounds.norm_bound("no_such_pe", 10)
