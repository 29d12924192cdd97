"""One namespace for a module that was split into a package (internal helper).

Used by every module split into a package in issue 13 (encodings, toeplitz, bounds, geometry).
When ``petheory/encodings.py`` became ``petheory/encodings/{absolute,bias,rotary}.py`` its functions
stopped sharing one global namespace: ``monkeypatch.setattr(petheory.encodings, "wavelet_amplitude",
f)`` used to reach every caller inside the module (``wavelet_terms`` looked the name up in the
module's globals), and after the split it would only rebind the package's re-export. Tests plant
bugs this way to check that a claim's checker catches them, so :func:`keep_one_namespace` gives the
package the old semantics: setting a name on the package also rebinds it in each of its submodules
that holds the same object under the same name (a private alias, ``from .x import f as _f``, is not
touched, as a private helper was not reachable before either). Reading and importing are unchanged.
"""

from __future__ import annotations

import sys
import types

_MISSING = object()


_ALSO: dict[str, tuple[str, ...]] = {}  # package -> modules outside it that share its namespace


class _SplitPackage(types.ModuleType):
    def __setattr__(self, name: str, value) -> None:
        old = self.__dict__.get(name, _MISSING)
        if old is not _MISSING and not isinstance(old, types.ModuleType) and not name.startswith("__"):
            prefix = self.__name__ + "."
            also = _ALSO.get(self.__name__, ())
            for modname, mod in list(sys.modules.items()):
                if (mod is not None and (modname.startswith(prefix) or modname in also)
                        and mod.__dict__.get(name, _MISSING) is old):
                    mod.__dict__[name] = value
        super().__setattr__(name, value)


def keep_one_namespace(package_name: str, *, also: tuple[str, ...] = ()) -> None:
    """Make ``setattr(package, name, value)`` rebind ``name`` in the package's submodules too (see module doc).

    ``also`` names modules outside the package that took names from it when it was one module
    (``petheory.nn.lipschitz`` for ``petheory.bounds``): they follow the same rule.
    """
    _ALSO[package_name] = tuple(also)
    sys.modules[package_name].__class__ = _SplitPackage
