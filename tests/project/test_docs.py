"""The API reference builds from the docstrings with warnings as errors (Sphinx + numpydoc).

The build runs on a copy of ``docs/`` in a temporary folder (``PETHEORY_DOCS_ROOT`` points it at
this checkout), so it writes nothing into the tree. Warnings are errors, and every reference to a
petheory object must resolve (``nitpicky`` for petheory names), so a docstring section numpydoc
cannot parse, broken reST, or a formula-table row naming a function that no longer exists fails
here.
"""

from __future__ import annotations

import os
import re
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


# ----------------------------------------------------------------------------- what a reader sees (issue 59)

def _html(out: Path, page: str) -> str:
    return (out / page).read_text(encoding="utf-8")


def test_formulas_are_math_that_the_browser_renders(built):
    """A guide formula is a MathJax span and every page loads MathJax from a URL (the reader's browser fetches it;
    the build itself reaches no network: nothing of MathJax is in the output)."""
    _, out = built
    plan = _html(out, "guide/plan.html")
    assert r'<span class="math notranslate nohighlight">\(B_{m,\theta} = \sum_{i=0}^{r/2-1} \cos(m\theta_i)\)' in plan
    assert "B_m = Σ" not in plan and "β^(" not in plan
    spectra = _html(out, "guide/spectra.html")
    # a display equation numbered as the paper numbers it, not by Sphinx's page counter
    assert re.search(r'<div class="math notranslate nohighlight">\s*\\\[L = G_\{q\^c,k\^c\}.*\\tag\{gu2025 Eq\. 8\}', spectra)
    for page in ("guide/plan.html", "guide/spectra.html", "api/theory.html", "gallery/spectral.szego.html"):
        tags = re.findall(r'<script[^>]*src="([^"]*mathjax[^"]*)"', _html(out, page))
        assert tags and all(t.startswith("https://") for t in tags), (page, tags)
    assert not list(out.rglob("tex-mml-chtml*.js"))


def test_the_header_names_both_versions_and_pages_have_outline_search_and_copy_buttons(built):
    import petheory
    from petheory.data.verified_models import table

    _, out = built
    models = _html(out, "guide/models.html")
    assert f"{petheory.__version__} · verified against transformers {table()['transformers']}" in models
    assert "bd-sidebar-secondary" in models and 'href="#worked-example-llama-3-1-8b-at-128k"' in models  # outline
    assert "bd-sidebar-primary" in models and 'href="plan.html"' in models  # the section's pages on the left
    assert "search-button" in models and "theme-switch" in models
    assert "copybutton.js" in models and (out / "_static" / "copybutton.js").is_file()


def test_the_gallery_is_a_grid_of_thumbnails_linking_to_one_page_per_figure(built):
    from PIL import Image

    import petheory.plots as plots

    _, out = built
    grid = _html(out, "gallery.html")
    assert 'class="pe-gallery' in grid
    cards = re.findall(r'<a class="reference internal" href="gallery/([\w.]+)\.html"><span[^>]*><img alt="[^"]*" '
                       r'src="(_images/[^"]+)"', grid)
    names = [f.name for f in plots.registry().values() if (ROOT / "figures" / f"{f.name}.png").is_file()]
    assert sorted(c[0] for c in cards) == sorted(names)
    for name, src in cards:
        with Image.open(out / src) as im:
            assert im.width == 360, (name, im.size)  # a thumbnail, not the committed full-size figure
        page = _html(out, f"gallery/{name}.html")
        assert f"petheory figures --only {name}" in re.sub(r"<[^>]+>", "", page)  # the command (highlighted) that draws it
        assert re.search(rf'class="reference download internal"[^>]*href="[^"]*/{re.escape(name)}\.json"', page)
        fig = plots.registry()[name]
        assert all(c in page for c in fig.illustrates), name  # the claims it illustrates
