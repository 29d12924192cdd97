"""numpydoc's own validator on every public name where a user enters (issue 45): the checks are chosen here, once.

The names: every public function and class defined in the modules of :data:`PACKAGES` (a name added later is covered
without an edit here). A name that does not pass yet is listed with its failing checks in ``numpydoc_todo.txt``
beside this file; the list may only shrink: a listed name that now passes, or a name no longer there, fails the test
(so the list never goes stale), and a name failing a check it is not listed for fails too.

``python tests/project/test_numpydoc.py --write`` rewrites the list from what fails today (for the lead, after a
merge adds names; never to hide a regression in a name that passed).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")

#: Where a user enters: the analyses, the loaders, the scheme, the theory packages and the claim engine.
PACKAGES = ("petheory.analyses", "petheory.loaders", "petheory.scheme", "petheory.toeplitz", "petheory.bounds",
            "petheory.geometry", "petheory.lengthgen", "petheory.encodings", "petheory.coupling", "petheory.fits",
            "petheory.softmax", "petheory.evidence", "proofs_check.engine")

#: The checks, by numpydoc's codes. Functions: a docstring (GL08), every parameter documented (PR01) and no
#: documented parameter that does not exist (PR02), a Returns section (RT01), an Examples section (EX01, run as
#: doctests by tests/project/test_doctests.py). Classes: a docstring (GL08); their fields are their named attributes.
FUNCTION_CHECKS = ("GL08", "PR01", "PR02", "RT01", "EX01")
CLASS_CHECKS = ("GL08",)

TODO = Path(__file__).with_name("numpydoc_todo.txt")


def _modules(name: str):
    mod = importlib.import_module(name)
    yield mod
    if hasattr(mod, "__path__"):
        for info in pkgutil.walk_packages(mod.__path__, name + "."):
            if not any(part.startswith("_") for part in info.name.split(".")):
                yield importlib.import_module(info.name)


def public_names() -> dict[str, object]:
    """``module.name`` -> object, for each public function and class defined in the modules of :data:`PACKAGES`."""
    out = {}
    for pkg in PACKAGES:
        for mod in _modules(pkg):
            for name, obj in vars(mod).items():
                if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                    continue
                if inspect.isfunction(obj) or inspect.isclass(obj):
                    out[f"{mod.__name__}.{name}"] = obj
    return out


def failures(name: str, obj) -> set[str]:
    """The chosen checks ``name`` fails."""
    checks = CLASS_CHECKS if inspect.isclass(obj) else FUNCTION_CHECKS
    if inspect.isfunction(obj) and inspect.signature(obj).return_annotation in (None, "None"):
        checks = tuple(c for c in checks if c != "RT01")  # nothing to return
    got = numpydoc_validate.validate(name)
    return {code for code, _msg in got["errors"] if code in checks}


def read_todo() -> dict[str, set[str]]:
    out = {}
    for line in TODO.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, codes = line.split(None, 1)
            out[name] = set(codes.split(","))
    return out


def test_every_public_name_passes_the_chosen_checks_or_is_listed():
    todo = read_todo()
    names = public_names()
    assert len(names) > 100  # the walk found the packages
    new, stale = [], []
    for name, obj in sorted(names.items()):
        bad = failures(name, obj)
        extra = bad - todo.get(name, set())
        if extra:
            new.append(f"{name}: {', '.join(sorted(extra))}")
        if name in todo and not (todo[name] & bad):
            stale.append(name)
    stale += sorted(set(todo) - set(names))
    assert not new, "numpydoc checks failing (document them; see the module docstring):\n" + "\n".join(new)
    assert not stale, f"passing now or gone: remove from {TODO.name}: " + ", ".join(stale)


def test_the_analyses_pass_every_check():
    """The analyses are where the CLI, the plots and the API meet: none of their names is on the list."""
    assert not [n for n in read_todo() if n.startswith("petheory.analyses.")]


def test_a_function_without_parameters_section_is_caught(tmp_path, monkeypatch):
    (tmp_path / "numpydoc_plant.py").write_text('def f(x):\n    """Do it."""\n    return x\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    import numpydoc_plant

    assert {"PR01", "RT01", "EX01"} <= failures("numpydoc_plant.f", numpydoc_plant.f)


if __name__ == "__main__" and "--write" in sys.argv:
    lines = ["# name  failing numpydoc checks (tests/project/test_numpydoc.py): this list may only shrink"]
    for n, o in sorted(public_names().items()):
        bad = failures(n, o)
        if bad:
            lines.append(f"{n} {','.join(sorted(bad))}")
    TODO.write_text("\n".join(lines) + "\n")
    print(f"wrote {TODO} ({len(lines) - 1} names)")
