"""Bring your own encodings and claims without editing petheory.

Two ways in, both importing a module whose top level calls
``petheory.encodings.register`` and/or ``proofs_check.claim``:

* ``--plugin mypkg.mypes`` (a dotted module name on ``sys.path``) or ``--plugin ./my_pes.py``
  (a file) on any ``petheory`` command;
* entry points of your installed package, in the groups ``petheory.encodings`` and
  ``petheory.claims``; an entry point may name a module, or a callable that is called once.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib import metadata
from pathlib import Path

_LOADED_GROUPS: set[str] = set()


def load_module(spec: str):
    """Import a plugin given as a dotted module name or a path to a ``.py`` file."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("--plugin needs a module name (mypkg.mypes) or a .py file path")
    path = Path(spec)
    if spec.endswith(".py") or path.is_file():
        if not path.is_file():
            raise FileNotFoundError(f"plugin file not found: {spec}")
        name = f"petheory_plugin_{path.stem}"
        loaded = sys.modules.get(name)
        if loaded is not None and Path(getattr(loaded, "__file__", "")).resolve() == path.resolve():
            return loaded  # imported once, as `import` does: a second load would re-register its names
        mod_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[name] = module
        mod_spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        if exc.name and spec.startswith(exc.name):
            raise ValueError(f"plugin module {spec!r} not found (is it installed or on PYTHONPATH?)") from None
        raise


def load_entry_points(group: str) -> list[str]:
    """Load every entry point of ``group`` once; returns their names."""
    if group in _LOADED_GROUPS:
        return []
    _LOADED_GROUPS.add(group)
    names = []
    for ep in metadata.entry_points(group=group):
        obj = ep.load()
        if callable(obj) and not isinstance(obj, type(sys)):
            obj()
        names.append(ep.name)
    return names
