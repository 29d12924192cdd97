"""petheory: executable theory of positional encodings in Transformers.

The theory modules (numpy/scipy, float64) never import torch; ``petheory.nn`` and
``petheory.experiments`` (sweeps, grids, the paper experiments) do.
"""

from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("petheory")
except _metadata.PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.1.0"

from petheory import encodings  # noqa: E402
from petheory import geometry  # noqa: E402  (registers the encoding "mds_optimal", built from the geometry)

__all__ = ["encodings", "geometry", "__version__"]
