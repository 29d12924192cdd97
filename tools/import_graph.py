r"""petheory's import graph, grouped by layer, read from the source without importing it.

    python tools/import_graph.py            # the graph as Markdown, one line per module with its imports
    python tools/import_graph.py --edges    # one "module -> module" line per import (for a diff)
    python tools/import_graph.py --where    # the README's "where things are" table (file, layer, what it holds)
    python tools/import_graph.py --write    # replace that table in docs/guide/layout.md (--check: exit 1 when stale)

Every ``import`` / ``from ... import`` anywhere in a file counts (inside functions too: a lazy
import is still a dependency), resolved to the petheory / proofs_check module it names. The
layers, bottom to top, and what may import what:

========================  =====================================================================
layer                     holds
========================  =====================================================================
helpers                   ``petheory/__init__``, ``errors``, ``_validate``, ``_memory``, ``_threads``, ``plugins``, ``data``
theory                    numpy/scipy float64 formulas: no torch, no file reading (``THEORY``)
loaders+io                reading encodings and model files, atomic writes, runs and records, the PE grammar
nn+experiments            torch: a model and its training run (nn); many runs, their engines and the
                          paper experiments (experiments)
plots                     records -> matplotlib figures
proofs_check              the claim catalogue and its runner
cli                       the ``petheory`` command (and ``python -m petheory``; the claims are ``petheory check``):
                          parse, then call the library or the catalogue
========================  =====================================================================

A layer imports only from its own layer and the layers below it; the Markdown ends with the
imports that go up a layer, if any. ``tests/project/test_layers.py`` holds the package to that,
function-level imports included (:func:`climbing_imports`). This file uses only the standard
library, so the test can load it without importing petheory.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import functools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("petheory", "proofs_check")

#: Theory modules: top-level names under petheory/ (``x.py`` or the package ``x/``), as fnmatch
#: patterns so that a module split into ``geometry/`` or ``toeplitz_*.py`` stays covered.
#: ``stress_reference`` (null references for stress values), ``softmax`` and ``comparison`` (every
#: encoding side by side, from the theory functions) are numpy-only theory too.
THEORY = ("encodings*", "toeplitz*", "spectral*", "coupling*", "bounds*", "geometry*", "lengthgen*", "fits*", "models*",
          "rounding", "softmax", "stress_reference", "scheme")

#: Layers bottom to top: (name, fnmatch patterns on dotted module names). First match wins.
#: "helpers" are the package's internal helpers (validation, memory guard, BLAS threads, the plugin loader, the
#: built-in corpus as Python data) and the package itself (``petheory/__init__``: the version and
#: the public theory names), usable from every layer.
LAYERS = (
    ("helpers", ("petheory", "petheory.errors", "petheory._validate", "petheory._memory", "petheory._threads", "petheory.plugins", "petheory.texttable",
                 "petheory.data*", "petheory.loaders.paths")),
    ("theory", tuple(f"petheory.{p}" for p in THEORY) + tuple(f"petheory.{p}.*" for p in THEORY)),
    ("loaders+io", ("petheory.loaders*", "petheory.io", "petheory.records", "petheory.spec")),
    ("analyses", ("petheory.analyses*", "petheory.evidence*")),
    ("nn+experiments", ("petheory.nn*", "petheory.experiments*")),
    ("plots", ("petheory.plots*",)),
    ("proofs_check", ("proofs_check", "proofs_check.[!_]*", "proofs_check._[!_]*")),
    ("cli", ("petheory.cli*", "petheory.__main__")),
)


def module_name(path: Path, root: Path = ROOT) -> str:
    """``petheory/nn/training.py`` -> ``petheory.nn.training``; ``petheory/nn/__init__.py`` -> ``petheory.nn``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = ROOT, packages=PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` (dotted name -> file), sorted by name."""
    out = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            out[module_name(path, root)] = path
    return dict(sorted(out.items()))


def layer_of(name: str) -> str | None:
    """The layer of dotted module ``name`` (None: not a petheory / proofs_check module)."""
    for layer, patterns in LAYERS:
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            return layer
    return None


def parse(path: Path) -> ast.Module:
    """``path``'s syntax tree, parsed once while the file is unchanged (the layer checks walk every file several
    times; callers only read the tree)."""
    st = Path(path).stat()
    return _parse(str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=2048)
def _parse(path: str, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)


def imports(path: Path, name: str | None = None, root: Path = ROOT) -> list[tuple[int, str, str | None]]:
    """Every import in ``path``, anywhere in the file: ``(line, module, imported name or None)``.

    ``import a.b`` gives ``(line, 'a.b', None)``; ``from a import b, c`` gives ``(line, 'a', 'b')``
    and ``(line, 'a', 'c')``; relative imports are resolved against ``name`` (the file's module)."""
    st = Path(path).stat()
    return list(_imports(str(path), st.st_mtime_ns, st.st_size, name or module_name(path, root)))


@functools.lru_cache(maxsize=2048)
def _imports(path: str, mtime_ns: int, size: int, name: str) -> tuple[tuple[int, str, str | None], ...]:
    """:func:`imports` of an unchanged file, walked once (the layer checks ask for every file's imports several
    times)."""
    is_pkg = Path(path).name == "__init__.py"
    out = []
    for node in ast.walk(_parse(path, mtime_ns, size)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_pkg else 0)]
                mod = ".".join(base + ([mod] if mod else []))
            out += [(node.lineno, mod, a.name) for a in node.names]
    return tuple(sorted(out, key=lambda t: (t[0], t[1], t[2] or "")))


def target(mod: str, attr: str | None, known: dict[str, Path]) -> str:
    """The module an import depends on: ``from petheory import geometry`` -> ``petheory.geometry``."""
    if attr is not None and f"{mod}.{attr}" in known:
        return f"{mod}.{attr}"
    return mod


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    """module -> the petheory / proofs_check modules it imports (itself excluded)."""
    known = modules(root)
    out: dict[str, set[str]] = {}
    for name, path in known.items():
        deps = set()
        for _, mod, attr in imports(path, name, root):
            t = target(mod, attr, known)
            if t.split(".")[0] in PACKAGES and t != name:
                deps.add(t)
        out[name] = deps
    return out


def markdown(g: dict[str, set[str]]) -> str:
    """The graph as Markdown: one section per layer (bottom first), one line per module with its
    line count and what it imports, grouped by the imported module's layer."""
    known = modules()
    lines = ["<!-- generated by tools/import_graph.py -->", ""]
    for layer, _ in LAYERS:
        mods = [m for m in g if layer_of(m) == layer]
        if not mods:
            continue
        lines += [f"**{layer}**", ""]
        for m in mods:
            n = sum(1 for _ in known[m].open(encoding="utf-8"))
            by_layer: dict[str, list[str]] = {}
            for d in sorted(g[m]):
                by_layer.setdefault(layer_of(d) or "?", []).append(d)
            deps = "; ".join(f"{lay}: {', '.join(f'`{d}`' for d in ds)}" for lay, ds in by_layer.items())
            lines.append(f"- `{m}` ({n} lines)" + (f" — imports {deps}" if deps else ""))
        lines.append("")
    return "\n".join(lines)


WHERE_BEGIN = "<!-- where:begin (generated: python tools/import_graph.py --write) -->"
WHERE_END = "<!-- where:end -->"


#: Words a full stop follows without ending the sentence.
ABBREVIATIONS = {"Eq", "Eqs", "Prop", "Thm", "Fig", "Sec", "Def", "App", "Lemma", "Cor", "e.g", "i.e", "cf", "vs", "al", "et al"}


def summary(path: Path, width: int = 120) -> str:
    """First sentence of a module's docstring (what the file holds), on one line, at most ``width`` characters."""
    doc = ast.get_docstring(parse(path)) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    for m in re.finditer(r"\.(?=\s|$)", text):  # the first full stop that ends a sentence, not "Eq. 9"
        word = text[: m.start()].split()[-1].lstrip("(") if text[: m.start()].split() else ""
        if word not in ABBREVIATIONS:
            text = text[: m.end()]
            break
    text = re.sub(r":math:`([^`]*)`", r"$\1$", text)  # reST math -> the docs' Markdown math (MyST dollarmath)
    text = text.replace("|", "\\|")
    if len(text) > width:
        text = text[: width - 1]
        if text.count("$") % 2:  # never cut inside a formula
            text = text[: text.rindex("$")]
        text = text.rstrip() + "…"
    return text


def where(root: Path = ROOT) -> str:
    """The README's "where things are" table: every petheory module file (bottom layer first) and
    the catalogue's top-level files, each with its layer and the first sentence of its docstring
    (no sizes: the table changes when a file's purpose does, not with every edit)."""
    known = modules(root)
    order = {layer: i for i, (layer, _) in enumerate(LAYERS)}
    rows = sorted(((order.get(layer_of(m) or "", 99), m) for m in known
                   if not m.startswith("proofs_check.claims.") or m == "proofs_check.claims"), key=lambda t: (t[0], t[1]))
    lines = ["| layer | file | holds |", "|---|---|---|"]
    for _, m in rows:
        path = known[m]
        lines.append(f"| {layer_of(m) or '?'} | `{path.relative_to(root).as_posix()}` | {summary(path)} |")
    return "\n".join(lines) + "\n"


def upward_edges(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from a lower layer into a higher one (what the layering forbids)."""
    order = {layer: i for i, (layer, _) in enumerate(LAYERS)}
    return sorted((m, d) for m, ds in g.items() for d in ds
                  if m != "petheory" and layer_of(m) and layer_of(d) and order[layer_of(d)] > order[layer_of(m)])


def function_imports(path: Path, name: str | None = None, root: Path = ROOT) -> list[tuple[int, str, str, str | None]]:
    """The imports of ``path`` made inside a function (lazily, when it runs): ``(line, function, module,
    imported name or None)``, relative imports resolved as in :func:`imports`."""
    st = Path(path).stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    lines = _function_lines(*key)
    return [(line, lines[line], mod, attr) for line, mod, attr in _imports(*key, name or module_name(path, root))
            if line in lines]


@functools.lru_cache(maxsize=2048)
def _function_lines(path: str, mtime_ns: int, size: int) -> dict[int, str]:
    """The lines of an unchanged file's imports made inside a function, each with the outermost function's name."""
    lines: dict[int, str] = {}
    for fn in ast.walk(_parse(path, mtime_ns, size)):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    lines.setdefault(node.lineno, fn.name)  # the outermost function (ast.walk visits it first)
    return lines


def climbing_imports(root: Path = ROOT) -> list[tuple[str, str, int, str]]:
    """Function-level imports that climb back up a layer: ``(module, function, line, imported module)``
    where the imported module's layer is above the importing one's. A lazy import is how a lower layer
    reaches up without an import error (the higher module has loaded by the time the function runs), so
    it is counted on its own: the layering holds only when this list is empty or justified."""
    known = modules(root)
    order = {layer: i for i, (layer, _) in enumerate(LAYERS)}
    out = set()
    for name, path in known.items():
        here = layer_of(name)
        for line, fn, mod, attr in function_imports(path, name, root):
            there = layer_of(target(mod, attr, known))
            if here and there and order[there] > order[here]:
                out.add((name, fn, line, target(mod, attr, known)))
    return sorted(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--edges", action="store_true", help="print 'module -> module' lines instead of Markdown")
    p.add_argument("--where", action="store_true", help="print the README's 'where things are' table")
    p.add_argument("--write", action="store_true", help="replace that table in docs/guide/layout.md")
    p.add_argument("--check", action="store_true", help="exit 1 when docs/guide/layout.md's table is stale")
    args = p.parse_args(argv)
    if args.where:
        sys.stdout.write(where())
        return 0
    if args.write or args.check:  # the tail the README's other generators use (imports petheory: not at module level)
        sys.path.insert(0, str(ROOT))
        from proofs_check.verdict_table import update_readme

        return update_readme(ROOT / "docs" / "guide" / "layout.md", where(), write=args.write, check=args.check,
                             what="where-things-are table", command="python tools/import_graph.py --write",
                             begin=WHERE_BEGIN, end=WHERE_END)
    g = graph()
    if args.edges:
        for m, ds in g.items():
            for d in sorted(ds):
                print(f"{m} -> {d}")
        return 0
    up = upward_edges(g)
    lazy = climbing_imports()
    text = markdown(g) + ("\n".join(["**imports that go up a layer**", "", *(f"- `{m}` -> `{d}`" for m, d in up)]) + "\n"
                          if up else "")
    text += f"\n{len(lazy)} function-level imports climb back up a layer" + "".join(
        f"\n- `{m}.{fn}` (line {line}) -> `{d}`" for m, fn, line, d in lazy) + "\n"
    try:
        sys.stdout.write(text)
    except BrokenPipeError:  # `| head`
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
