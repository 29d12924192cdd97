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
