"""The API reference builds from the docstrings with warnings as errors (Sphinx + numpydoc).

The build runs on a copy of ``docs/`` in a temporary folder (``PETHEORY_DOCS_ROOT`` points it at
this checkout), so it writes nothing into the tree. Warnings are errors, and every reference to a
petheory object must resolve (``nitpicky`` for petheory names), so a docstring section numpydoc
cannot parse, broken reST, or a formula-table row naming a function that no longer exists fails
here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _helpers import HANG_S

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("sphinx")
pytest.importorskip("numpydoc")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("docs")
    src = tmp / "src"
    shutil.copytree(ROOT / "docs", src, ignore=shutil.ignore_patterns("api", "_build"))
    out = tmp / "html"
    env = {**os.environ, "PETHEORY_DOCS_ROOT": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "-j", "2",
                           str(src), str(out)], cwd=tmp, env=env, capture_output=True, text=True, timeout=HANG_S)
    return proc, out


def test_the_api_reference_builds_without_warnings(built):
    proc, _ = built
    assert proc.returncode == 0, proc.stderr[-4000:]


def test_every_layer_has_a_page_with_its_modules(built):
    _, out = built
    spec = __import__("importlib.util").util.spec_from_file_location("ig", ROOT / "tools" / "import_graph.py")
    graph = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    for layer, _ in graph.LAYERS:
        page = (out / "api" / f"{layer.replace('+', '-')}.html").read_text(encoding="utf-8")
        mods = [m for m in graph.modules(ROOT) if graph.layer_of(m) == layer and not m.endswith("__main__")]
        assert all(f'id="module-{m}"' in page for m in mods), layer


def test_formulas_link_to_their_paper_equation_and_function(built):
    _, out = built
    theory = (out / "api" / "theory.html").read_text(encoding="utf-8")
    assert 'href="https://arxiv.org/abs/2505.13027">gu2025</a>, Eq. 8' in theory
    assert 'href="#petheory.coupling.additive.logit_terms"' in theory  # the table row links to the function's entry
    assert 'id="petheory.toeplitz.eigen.extreme_eigenvalues"' in theory and "Examples" in theory
