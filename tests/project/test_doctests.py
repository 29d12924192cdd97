"""The ``>>>`` examples in petheory's docstrings run, and give what they show (SciPy/PyWavelets style).

Every petheory module whose source holds an example is imported and its examples run with
:mod:`doctest` (one test per module, so a failure names the module). The examples are part of
the documentation a user reads first (``encodings.get``, the rotary variants, Toeplitz symbols
and extreme eigenvalues, Hellinger distances, classical MDS, stress, the bounds, the PE grammar),
so they are held to two rules here: they pass, and at least :data:`MIN_FUNCTIONS` public
functions carry one.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("petheory_import_graph", ROOT / "tools" / "import_graph.py")
graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(graph)

#: The issue-23 floor: public functions (or methods) with a runnable example.
MIN_FUNCTIONS = 40
FLAGS = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS


def modules_with_examples() -> list[str]:
    """Dotted names of petheory's modules and the claim engine's whose source has a ``>>>`` line (read, not
    imported)."""
    return [name for name, path in graph.modules(ROOT, ("petheory", "proofs_check")).items()
            if ">>> " in path.read_text(encoding="utf-8")]


def _tests(name: str) -> list[doctest.DocTest]:
    mod = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder(exclude_empty=True).find(mod, name) if t.examples]


@pytest.mark.parametrize("name", modules_with_examples())
def test_docstring_examples_run(name):
    with np.printoptions(legacy=False):  # numpy's default repr, whatever a previous test set
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        for t in _tests(name):
            runner.run(t)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"{name} has '>>> ' in its source but no example doctest found"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name} (output above)"


def test_at_least_40_public_functions_have_an_example():
    with_examples = sorted({t.name for name in modules_with_examples() for t in _tests(name)
                            if not t.name.rsplit(".", 1)[-1].startswith("_") and t.name != name})
    assert len(with_examples) >= MIN_FUNCTIONS, f"{len(with_examples)} functions with examples: {with_examples}"


def test_a_wrong_example_fails(tmp_path, monkeypatch):
    """The runner is not vacuous: an example whose shown output is wrong is counted as a failure."""
    (tmp_path / "wrong_example_mod.py").write_text('def f():\n    """Two.\n\n    >>> 1 + 1\n    3\n    """\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    for t in _tests("wrong_example_mod"):
        runner.run(t, out=lambda s: None)
    assert runner.summarize(verbose=False).failed == 1
