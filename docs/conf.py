"""Sphinx configuration of petheory's docs site (``sphinx-build -W docs OUT``): the user guide
(Markdown, through MyST), the gallery, and the API reference.

The gallery (``gallery.md``) is generated at build time from the figure registry
(:func:`petheory.plots.registry`): each figure's committed PNG from ``figures/``, its caption, the
command that draws it and the claims it illustrates.

One page per layer of ``tools/import_graph.py`` (helpers, theory, loaders+io, nn, plots, cli,
proofs_check), generated at build time into ``api/`` (not committed): a table that links each
formula of the layer to its paper and equation (``formulas.py``), then every module of the layer
through autodoc, with numpydoc rendering the docstrings' Parameters / Returns / See Also / Notes /
Examples sections.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the repository whose code is documented: docs/.. unless PETHEORY_DOCS_ROOT says otherwise (the
# test builds a copy of docs/ in a temporary folder, so the build writes nothing into the tree)
ROOT = Path(os.environ.get("PETHEORY_DOCS_ROOT") or HERE.parent).resolve()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

_spec = importlib.util.spec_from_file_location("petheory_import_graph", ROOT / "tools" / "import_graph.py")
graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(graph)

from formulas import FORMULAS, PAPERS  # noqa: E402

project = "petheory"
author = "petheory contributors"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3
exclude_patterns = ["_build", "README.md"]
html_theme = "alabaster"
html_static_path: list = []

# Each object is documented once, in the module that defines it (a package's __all__ re-exports
# are not documented again); a reference to its public re-export path (petheory.encodings.rope)
# resolves to that definition (_resolve_reexport).
autodoc_default_options = {"members": True, "member-order": "bysource", "ignore-module-all": True}
autodoc_typehints = "none"  # the numpydoc sections carry the types and shapes
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Every reference to a petheory (or proofs_check) object must resolve: a table row or a docstring
# naming a function that does not exist fails the build. Other targets (numpy types, ...) are not
# checked.
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"^(?!petheory\.|proofs_check\.).*")]

LAYER_TEXT = {
    "helpers": "The package itself, the error classes, input validation, the memory guard, the plugin loader, shipped data.",
    "theory": "numpy/scipy float64 formulas: encodings, Toeplitz spectra, coupling, bounds, geometry, length generalisation. "
              "No torch, no file reading.",
    "loaders+io": "Reading encodings and model files safely, atomic writes, runs and records, the PE grammar.",
    "analyses": "What a user asks of a resolved scheme (petheory.scheme.Scheme): spectrum, stress with its null, bounds, "
                "report, compare; each (scheme, options) -> record, one section per distinct layer kind.",
    "nn+experiments": "torch: a model with a pluggable position mechanism, its tasks and training run (nn); many runs, "
                      "grids, sweeps and the paper experiments (experiments).",
    "plots": "Records to matplotlib figures.",
    "cli": "The ``petheory`` command: parse, then call the library.",
    "proofs_check": "The claim catalogue and its runner (``petheory check``).",
}


def _slug(layer: str) -> str:
    return layer.replace("+", "-")


def _formula_table(layer: str) -> list[str]:
    rows = [r for r in FORMULAS if r[0] == layer]
    if not rows:
        return ["No formula of the papers is computed in this layer; it builds on the theory layer.", ""]
    out = [".. list-table:: Formulas of the papers in this layer", "   :header-rows: 1", "   :widths: 45 30 25", "",
           "   * - formula", "     - computed by", "     - paper, where"]
    for _, formula, target, paper, where in rows:
        title, url = PAPERS[paper]
        out += [f"   * - {formula}", f"     - :py:obj:`~{target}`", f"     - `{paper} <{url}>`__, {where}"]
    return out + [""]


def _write_pages(app) -> None:
    api = Path(app.srcdir) / "api"
    api.mkdir(exist_ok=True)
    mods = graph.modules(ROOT)
    for layer, _ in graph.LAYERS:
        names = [m for m in mods if graph.layer_of(m) == layer and not m.endswith("__main__")]
        title = f"{layer} layer"
        lines = [title, "=" * len(title), "", LAYER_TEXT[layer], ""] + _formula_table(layer)
        for m in names:
            lines += [m, "-" * len(m), "", f".. automodule:: {m}", ""]
        text = "\n".join(lines) + "\n"
        page = api / f"{_slug(layer)}.rst"
        if not page.exists() or page.read_text(encoding="utf-8") != text:  # unchanged pages keep Sphinx's cache
            page.write_text(text, encoding="utf-8")


def gallery_markdown(figures_dir: Path, image_dir: str = "_gallery") -> tuple[str, list]:
    """The gallery page (Markdown) and the PNGs it shows: one section per registered figure."""
    import petheory.plots as plots

    lines = ["# Gallery", "",
             "Every figure `petheory figures` draws, generated from the figure registry. Each is drawn from the JSON "
             "beside it in `figures/` (committed, so a clone shows them without training); the command redraws it "
             "into `results/figures/`. The claims it illustrates link to their verdicts.", ""]
    images = []
    for f in plots.registry().values():
        lines += [f"## {f.name}", ""]
        png = figures_dir / f"{f.name}.png"
        if png.is_file():
            lines += [f"![{f.name}]({image_dir}/{f.name}.png)", ""]
            images.append(png)
        else:
            lines += ["*(not committed: draw it with the command below)*", ""]
        lines += [f"{f.help}.", "", f"Drawn by: `petheory figures --only {f.name}`", ""]
        if f.needs:
            lines += [f"Draws the records of `petheory.experiments.papers.{f.needs}` (trained on the CPU; the command runs it "
                      "first when they are missing).", ""]
        if f.illustrates:
            lines += ["Illustrates: " + ", ".join(f"[`{c}`](verdicts.md)" for c in f.illustrates), ""]
    return "\n".join(lines), images


def _write_gallery(app) -> None:
    import shutil

    text, images = gallery_markdown(ROOT / "figures")
    images = sorted(set(images) | set((ROOT / "figures").glob("*.png")))  # the guide pages show committed PNGs too
    src = Path(app.srcdir)
    (src / "_gallery").mkdir(exist_ok=True)
    for png in images:
        dest = src / "_gallery" / png.name
        if not dest.exists() or dest.stat().st_size != png.stat().st_size:
            shutil.copyfile(png, dest)
    page = src / "gallery.md"
    if not page.exists() or page.read_text(encoding="utf-8") != text:
        page.write_text(text, encoding="utf-8")


def _resolve_reexport(app, env, node, contnode):
    """``petheory.encodings.rope`` (the public path) -> ``petheory.encodings.rotary.rope`` (where it
    is defined and documented). Only for petheory/proofs_check targets that name a real object."""
    import importlib

    target = node.get("reftarget", "")
    if node.get("refdomain") != "py" or not target.startswith(("petheory.", "proofs_check.")):
        return None
    modname, _, name = target.rpartition(".")
    try:
        owner = importlib.import_module(modname)
    except ImportError:
        return None
    obj = getattr(owner, name, None)
    if obj is None:
        return None
    candidates = []
    if getattr(obj, "__module__", None) and getattr(obj, "__qualname__", None):
        candidates.append(f"{obj.__module__}.{obj.__qualname__}")
    candidates += [f"{m}.{name}" for m, mod in sorted(sys.modules.items())
                   if m.startswith(modname + ".") and mod is not None and getattr(mod, name, None) is obj]
    py = env.get_domain("py")
    for real in candidates:
        if real != target:
            hit = py.resolve_any_xref(env, node["refdoc"], app.builder, real, node, contnode)
            if hit:
                return hit[0][1]
    return None


def _compile_numpydoc_template_once() -> None:
    """numpydoc (1.11) builds a new jinja environment, and so compiles its docstring template again, for every object
    it renders (``docscrape_sphinx.get_doc_object``): about 4,300 compiles, a quarter of this build's time. Every
    one of those environments loads the same file, so the first compiled template serves them all."""
    import numpydoc.docscrape_sphinx as ds

    base = getattr(ds, "SandboxedEnvironment", None)
    if base is None or getattr(base, "compiled_once", False):
        return

    class OneCompile(base):
        compiled_once = True
        _templates: dict = {}

        def get_template(self, name, parent=None, globals=None):
            if parent is not None or globals is not None:
                return super().get_template(name, parent, globals)
            if name not in self._templates:
                self._templates[name] = super().get_template(name)
            return self._templates[name]

    ds.SandboxedEnvironment = OneCompile


def setup(app):
    _compile_numpydoc_template_once()
    app.connect("builder-inited", _write_pages)
    app.connect("builder-inited", _write_gallery)
    app.connect("missing-reference", _resolve_reexport)
