"""Sphinx configuration of petheory's docs site (``sphinx-build -W docs OUT``): the user guide
(Markdown, through MyST), the gallery, and the API reference.

The gallery (``gallery.md``, a grid of thumbnails, and ``gallery/NAME.md``, one page per figure) is generated at
build time from the figure registry (:func:`petheory.plots.registry`): each figure's committed PNG and JSON from
``figures/``, a thumbnail of it, its caption, the command that draws it and the claims it illustrates.

The theme is pydata-sphinx-theme (numpy's, scipy's, scikit-learn's); the header names petheory's version and the
transformers release the model table was verified against. Formulas are MathJax, loaded by the reader's browser.

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
import petheory  # noqa: E402
from petheory.data.verified_models import table as _verified_table  # noqa: E402

extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "numpydoc", "myst_parser", "sphinx_copybutton"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 3
# $...$ and $$...$$ (with (label) equation numbers) and \begin{align} in the Markdown pages, as :math: and
# .. math:: are in the docstrings; sphinx.ext.mathjax only writes a <script> tag for MathJax 3, which the
# reader's browser loads: the build itself fetches nothing.
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_dmath_double_inline = True
exclude_patterns = ["_build", "README.md"]

version = release = petheory.__version__
#: the transformers release the model table was verified against (python -m tools.verify --write)
TRANSFORMERS_VERIFIED = _verified_table().get("transformers") or "none"
html_title = "petheory"
html_theme = "pydata_sphinx_theme"
html_static_path = ["_static"]
html_css_files = ["petheory.css"]
templates_path = ["_templates"]
html_context = {"petheory_version": release, "transformers_verified": TRANSFORMERS_VERIFIED,
                "default_mode": "auto"}  # light or dark as the reader's system says; the switch in the header
html_theme_options = {
    # the header: name, the two versions, the top sections; search and the light/dark switch on the right
    "navbar_start": ["navbar-logo"],
    "navbar_end": ["petheory-versions", "theme-switcher"],
    "navbar_persistent": ["search-button"],
    "secondary_sidebar_items": ["page-toc"],  # the outline of this page, on the right
    "show_toc_level": 2,
    "header_links_before_dropdown": 5,
    "navigation_with_keys": False,
    "navbar_align": "left",
}
html_sidebars = {"**": ["sidebar-nav-bs"]}  # the section's pages, on the left
html_show_sourcelink = False
# the copy button leaves out a shell prompt ("$ ") and Python's (">>> ", "... ") and the lines they do not start
# when a block has prompts, so what is pasted is the command
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

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


#: the width of a gallery thumbnail in pixels (the committed figures are 1,000-2,500 wide)
THUMB_WIDTH = 360


def gallery_pages(figures_dir: Path, claims: dict) -> dict[str, str]:
    """The gallery (Markdown): ``{"gallery.md": the grid of thumbnails, "gallery/NAME.md": one page per figure}``.

    Each thumbnail (``_gallery/thumbs/NAME.png``, made by :func:`_thumbnail`) links to its figure's page: the figure,
    what it shows, the command that draws it, the JSON it was drawn from and the claims it illustrates (``claims``:
    id -> claim of the catalogue, for the statement and the source)."""
    import petheory.plots as plots

    figs = list(plots.registry().values())
    grid = ["# Gallery", "",
            "Every figure `petheory figures` draws, from the figure registry. Each is drawn from the JSON beside it in "
            "`figures/` (committed, so a clone shows them without training); click one for the figure, the command "
            "that redraws it into `results/figures/`, its JSON and the claims it illustrates.", "",
            "```{toctree}", ":hidden:", "", *(f"gallery/{f.name}" for f in figs), "```", "",
            "```{container} pe-gallery", ""]
    pages = {}
    for f in figs:
        committed = (figures_dir / f"{f.name}.png").is_file()
        # a card: the thumbnail and the name, both one link to the figure's page (a link Sphinx checks)
        img = f"![{f.name}](_gallery/thumbs/{f.name}.png)" if committed else "*(not committed)*"
        grid += [f"[{img} {f.name}](gallery/{f.name}.md)", ""]
        page = [f"# {f.name}", "", f"{f.help}.", ""]
        page += ([f"![{f.name}](../_gallery/{f.name}.png)", ""] if committed else
                 ["*(not committed: draw it with the command below)*", ""])
        page += ["## The command that draws it", "", "```bash", f"petheory figures --only {f.name}", "```", "",
                 "It writes `results/figures/" + f.name + ".png` and the JSON it was drawn from beside it.", ""]
        if f.needs:
            page += [f"It draws the records of `petheory.experiments.papers.{f.needs}`, trained on the CPU; the command "
                     "runs that experiment first when they are missing.", ""]
        page += ["## The JSON it was drawn from", ""]
        page += ([f"{{download}}`figures/{f.name}.json <../_gallery/{f.name}.json>`: the record `Figure.draw` draws "
                  "this PNG from, alone.", ""] if (figures_dir / f"{f.name}.json").is_file() else
                 ["Not committed: the command above writes it.", ""])
        page += ["## The claims it illustrates", "",
                 "Their verdicts are in the [verdict table](../verdicts.md) (`petheory check --claims ID` checks one).", ""]
        for cid in f.illustrates:
            c = claims.get(cid)
            page += [f"- `{cid}`" + (f" ({c.source}): {c.statement}" if c is not None else ""), ""]
        pages[f"gallery/{f.name}.md"] = "\n".join(page)
    grid += ["```", ""]
    pages["gallery.md"] = "\n".join(grid)
    return pages


def _thumbnail(png: Path, dest: Path) -> None:
    """``png`` scaled to :data:`THUMB_WIDTH` pixels wide (aspect kept), written to ``dest``."""
    from PIL import Image

    with Image.open(png) as im:  # about 40 ms of CPU a figure, most of it reading the full-size PNG
        h = max(1, round(im.height * THUMB_WIDTH / im.width))
        # reducing_gap: a box reduction first, then Lanczos over the last factor 3; with zlib's default level instead of
        # optimize=True the 22 committed figures take 0.9 s of CPU instead of 1.4 s
        im.convert("RGB").resize((THUMB_WIDTH, h), Image.LANCZOS, reducing_gap=3.0).save(dest)


def _write_gallery(app) -> None:
    import shutil

    from proofs_check import engine

    engine.load_builtin()
    claims = {c.id: c for c in engine.all_claims()}
    figures = ROOT / "figures"
    src = Path(app.srcdir)
    thumbs = src / "_gallery" / "thumbs"
    thumbs.mkdir(parents=True, exist_ok=True)
    (src / "gallery").mkdir(exist_ok=True)
    for f in sorted(figures.glob("*.png")) + sorted(figures.glob("*.json")):  # the guide pages show committed PNGs too
        dest = src / "_gallery" / f.name
        if not dest.exists() or dest.stat().st_size != f.stat().st_size:
            shutil.copyfile(f, dest)
        thumb = thumbs / f.name
        if f.suffix == ".png" and (not thumb.exists() or thumb.stat().st_mtime < dest.stat().st_mtime):
            _thumbnail(f, thumb)
    for name, text in gallery_pages(figures, claims).items():
        page = src / name
        if not page.exists() or page.read_text(encoding="utf-8") != text:  # unchanged pages keep Sphinx's cache
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
