"""Built-in claims, in modules named after their paper (``<paper>.py`` and ``<paper>_<topic>.py``).
Importing this package registers them all."""

import importlib
import sys

from petheory.plugins import public_submodules

for _name in public_submodules(sys.modules[__name__]):
    importlib.import_module(_name)
