"""Built-in claims, one module per paper. Importing this package registers them all."""

import importlib
import pkgutil

for _m in sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")):
    importlib.import_module(f"{__name__}.{_m}")
