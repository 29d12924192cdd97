"""numpydoc's own validator on every public name of the package and the claim engine (issues 45, 56): the checks are
chosen here, once.

The names: every public function and class defined in a public module of :data:`PACKAGES` (every package of
``petheory``, and ``proofs_check``'s engine: registry, runner, report, tables), so a name or a package added later is
covered without an edit here. ``proofs_check.claims`` is not walked: its modules are the catalogue, whose checkers a
user reaches through their claims (id, statement, source), not by name. A name that does not pass yet is listed with its failing checks in ``numpydoc_todo.txt``
beside this file; the list may only shrink: a listed name that now passes, or a name no longer there, fails the test
(so the list never goes stale), and a name failing a check it is not listed for fails too.

``python tests/project/test_numpydoc.py --write`` rewrites the list from what fails today (for the lead, after a
merge adds names; never to hide a regression in a name that passed).
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path

import pytest

numpydoc_validate = pytest.importorskip("numpydoc.validate")
from numpydoc.docscrape import NumpyDocString  # noqa: E402

#: Every package of petheory and the claim engine; :data:`SKIP` names what the walk leaves out and why.
PACKAGES = ("petheory", "proofs_check")
SKIP = ("proofs_check.claims",)

#: The checks, by numpydoc's codes. Functions: a docstring (GL08), every parameter documented (PR01) and no
#: documented parameter that does not exist (PR02), a Returns section (RT01), an Examples section (EX01, run as
#: doctests by tests/project/test_doctests.py). Classes: a docstring (GL08); a dataclass or named tuple documents each
#: of its fields in an Attributes section (AT01, ours: numpydoc has no code for it) and names no field it does not have
#: (AT02); any other class documents its constructor's parameters like a function (PR01, PR02).
FUNCTION_CHECKS = ("GL08", "PR01", "PR02", "RT01", "EX01")
CLASS_CHECKS = ("GL08", "PR01", "PR02", "AT01", "AT02")

TODO = Path(__file__).with_name("numpydoc_todo.txt")


def _modules(name: str):
    mod = importlib.import_module(name)
    yield mod
    if hasattr(mod, "__path__"):
        for info in pkgutil.walk_packages(mod.__path__, name + "."):
            if not any(part.startswith("_") for part in info.name.split(".")) and not any(
                    info.name == s or info.name.startswith(s + ".") for s in SKIP):
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


def fields(cls) -> list[str] | None:
    """The fields a dataclass or a named tuple declares itself (an inherited field is documented where it is declared),
    in order; None for any other class."""
    if dataclasses.is_dataclass(cls):
        own = cls.__dict__.get("__annotations__", {})
        return [f.name for f in dataclasses.fields(cls) if f.name in own]
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return list(cls._fields)
    return None


def attribute_failures(cls) -> set[str]:
    """AT01 when a field of ``cls`` is missing from its Attributes section, AT02 when the section names something that
    is neither a field nor an attribute of the class (a property is one)."""
    names = fields(cls)
    documented = {n.strip().strip("*") for a in NumpyDocString(inspect.getdoc(cls) or "")["Attributes"]
                  for n in a.name.split(",")}  # "num_heads, num_kv_heads : int" documents both
    bad = set()
    if set(names) - documented:
        bad.add("AT01")
    every = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else names
    if any(n not in every and not hasattr(cls, n) for n in documented):
        bad.add("AT02")
    return bad


def failures(name: str, obj) -> set[str]:
    """The chosen checks ``name`` fails."""
    got = numpydoc_validate.validate(name)
    codes = {code for code, _msg in got["errors"]}
    if inspect.isclass(obj):
        if fields(obj) is None:
            return codes & set(CLASS_CHECKS)
        return (codes & {"GL08"}) | (attribute_failures(obj) if "GL08" not in codes else {"AT01"})
    checks = FUNCTION_CHECKS
    if inspect.signature(obj).return_annotation in (None, "None"):
        checks = tuple(c for c in checks if c != "RT01")  # nothing to return
    return codes & set(checks)


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
    assert len(names) > 800  # the walk found the packages
    assert {n.split('.')[1] for n in names} >= {"models", "nn", "experiments", "plots", "spec", "io", "records",
                                                "evidence", "lengthgen", "loaders", "engine", "runner", "report"}
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


PLANTS = {
    "f": ('def f(x):\n    """Do it."""\n    return x\n', {"PR01", "RT01", "EX01"}),
    "g": ('def g(x):\n    """Do it.\n\n    Parameters\n    ----------\n    x : int\n        The input.\n    y : int\n'
          '        Not a parameter.\n\n    Returns\n    -------\n    int\n        ``x``.\n\n    Examples\n    --------\n'
          '    >>> g(1)\n    1\n    """\n    return x\n', {"PR02"}),
    "H": ("class H:\n    def __init__(self, x):\n        self.x = x\n", {"GL08"}),
    "K": ('class K:\n    """A thing."""\n\n    def __init__(self, x):\n        self.x = x\n', {"PR01"}),
    "R": ('@dataclasses.dataclass\nclass R:\n    """A record.\n\n    Attributes\n    ----------\n    a : int\n'
          '        The first field.\n    c : int\n        Not a field.\n    """\n\n    a: int\n    b: int\n',
          {"AT01", "AT02"}),
    "S": ('@dataclasses.dataclass\nclass S:\n    """Two fields.\n\n    Attributes\n    ----------\n    a, b : int\n'
          '        The sides.\n    """\n\n    a: int\n    b: int\n', set()),
    "T": ('class T(typing.NamedTuple):\n    """A pair."""\n\n    a: int\n    b: int\n', {"AT01"}),
}


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_missing_or_wrong_section_is_caught(tmp_path, monkeypatch, name):
    src, expect = PLANTS[name]
    (tmp_path / f"numpydoc_plant_{name}.py").write_text(f"import dataclasses\nimport typing\n\n\n{src}")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module(f"numpydoc_plant_{name}")
    assert failures(f"numpydoc_plant_{name}.{name}", getattr(mod, name)) == expect


def test_a_documented_record_passes(tmp_path, monkeypatch):
    src = ('@dataclasses.dataclass\nclass R:\n    """A record.\n\n    Attributes\n    ----------\n    a : int\n'
           '        The first field.\n    b : int\n        The second.\n    total : int\n        ``a + b``.\n    """\n\n'
           '    a: int\n    b: int\n\n    @property\n    def total(self):\n        """``a + b``."""\n        return self.a + self.b\n')
    (tmp_path / "numpydoc_plant_ok.py").write_text(f"import dataclasses\n\n\n{src}")
    monkeypatch.syspath_prepend(str(tmp_path))
    import numpydoc_plant_ok

    assert failures("numpydoc_plant_ok.R", numpydoc_plant_ok.R) == set()


if __name__ == "__main__" and "--write" in sys.argv:
    lines = ["# name  failing numpydoc checks (tests/project/test_numpydoc.py): this list may only shrink"]
    for n, o in sorted(public_names().items()):
        bad = failures(n, o)
        if bad:
            lines.append(f"{n} {','.join(sorted(bad))}")
    TODO.write_text("\n".join(lines) + "\n")
    print(f"wrote {TODO} ({len(lines) - 1} names)")
