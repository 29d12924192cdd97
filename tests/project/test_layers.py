"""The package's architecture, checked on the source (AST only: no petheory module is imported).

* theory modules (numpy/scipy) import no torch, no plotting, no training, no CLI, no claims and
  no file readers, and call no file I/O;
* theory sits one level under the rest: it imports only the package's helpers and other theory;
* no module is over 600 lines of code (docstrings, comments and blank lines not counted);
* no module uses another module's private (``_x``) name (``petheory._validate``,
  ``petheory._memory`` and ``petheory._threads`` are the package's internal helpers, usable anywhere);
* the import graph of petheory and proofs_check has no cycle, and the encodings layer imports
  nothing but the helpers and itself.

What counts as an import (for the cycle check too): every ``import`` anywhere in a file, inside
functions and ``if TYPE_CHECKING:`` blocks included. A function-level import is exactly the
plumbing that hides a cycle (it works only because the other module has finished loading by the
time the function runs), so it counts like a module-level one. Not counted: the implicit import
of a package's ``__init__`` when one of its submodules is imported (``petheory.encodings.rotary``
loads ``petheory.encodings`` first); that is how every package with submodules works, and a
submodule importing its own package's ``__init__`` explicitly does count.

Every exception is an allow-list entry with its reason; an entry that no longer matches anything
fails the test, so the lists only shrink. The layers and the theory modules are defined once, in
``tools/import_graph.py`` (stdlib only), which prints the graph for the README.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
from pathlib import Path

import pytest
from _helpers import HANG_S

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("petheory_import_graph", ROOT / "tools" / "import_graph.py")
graph = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(graph)

#: Theory modules: top-level names under petheory/ matched as ``x.py`` or the package ``x/``
#: (fnmatch patterns, so a future ``spectral/`` or ``toeplitz_x.py`` stays covered):
#: encodings*, toeplitz*, spectral*, coupling*, bounds*, geometry*, lengthgen*, fits*, rounding,
#: stress_reference. One definition, shared with tools/import_graph.py.
THEORY = graph.THEORY

#: What theory may not import, at module level or inside a function: torch and plotting, the
#: torch/training/plotting/CLI layers, the claim catalogue, and the libraries that read model files.
FORBIDDEN_IMPORTS = ("torch", "matplotlib", "petheory.nn", "petheory.plots", "petheory.cli", "petheory.experiments",
                     "proofs_check", "safetensors", "tokenizers", "transformers", "huggingface_hub")

#: Calls that read or write files: ``open(...)``, ``<base>.<attr>(...)`` for these bases, and
#: ``<anything>.<attr>(...)`` for the Path methods and safetensors' reader.
IO_CALLS = {"open": None, "safe_open": None, "load_file": None}
IO_METHODS = {"read_text", "read_bytes", "write_text", "write_bytes", "safe_open"}
IO_ON = {("np", "load"), ("numpy", "load"), ("np", "loadtxt"), ("np", "genfromtxt"), ("np", "fromfile"),
         ("np", "save"), ("np", "savez"), ("np", "savetxt"), ("json", "load"), ("json", "dump"), ("torch", "load"),
         ("torch", "save"), ("pickle", "load"), ("io", "open"), ("gzip", "open")}

#: Internal helpers any module may use by their private names.
INTERNAL = ("_validate", "_memory", "_threads")

# ------------------------------------------------------------------------------------ allow-lists
# (module file relative to the repository, what it breaks) -> why it is allowed. Each entry must
# still match something (a stale entry fails), so these lists can only shrink.

THEORY_IMPORT_ALLOW: dict = {}
THEORY_IO_ALLOW: dict = {}
THEORY_LAYER_ALLOW = {
    ("petheory/geometry/distributions.py", "petheory.loaders"):
        "positional_distributions(path or 'hf:DIR') hands the path to loaders.read_corpus / hf_tokenize "
        "(lazily, in that branch only); geometry itself opens nothing, and in-memory sequences never load loaders",
}
#: Function-level imports that climb back up a layer ((file, imported module) -> why); keep it small.
CLIMB_ALLOW = {
    ("petheory/geometry/distributions.py", "petheory.loaders"): THEORY_LAYER_ALLOW[
        ("petheory/geometry/distributions.py", "petheory.loaders")],
}
#: Code lines per module at most: what a reader has to follow, so docstrings, comments and blank lines do not count
#: (counted by :func:`code_lines`); a module's reference docs never push it over.
SIZE_LIMIT = 600
SIZE_ALLOW: dict = {}
PRIVATE_ALLOW: dict = {}


# ------------------------------------------------------------------------------------ scanning


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def theory_files() -> list[Path]:
    out = []
    for path in sorted((ROOT / "petheory").rglob("*.py")):
        top = path.relative_to(ROOT / "petheory").parts[0].removesuffix(".py")
        if any(fnmatch.fnmatchcase(top, p) for p in THEORY):
            out.append(path)
    return out


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in the file; ``from a import b`` counts as ``a.b``
    (it may be a submodule) and as ``a``."""
    out = []
    for line, mod, attr in graph.imports(path, root=ROOT):
        out.append((line, mod))
        if attr is not None and attr != "*":
            out.append((line, f"{mod}.{attr}"))
    return out


def _io_calls(path: Path) -> list[tuple[int, str]]:
    tree = graph.parse(path)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in IO_CALLS:
            out.append((node.lineno, f.id))
        elif isinstance(f, ast.Attribute):
            if f.attr in IO_METHODS:
                out.append((node.lineno, f.attr))
            elif isinstance(f.value, ast.Name) and (f.value.id, f.attr) in IO_ON:
                out.append((node.lineno, f"{f.value.id}.{f.attr}"))
    return out


def _check_allow(found: dict, allow: dict, what: str) -> None:
    bad = sorted(f"{k[0]}: {k[1]} (line {line})" if isinstance(k, tuple) else f"{k} ({line})"
                 for k, line in found.items() if k not in allow)
    stale = sorted(str(k) for k in allow if k not in found)
    assert not bad, f"{what}:\n  " + "\n  ".join(bad)
    assert not stale, f"allow-list entries that no longer match anything ({what}); remove them:\n  " + "\n  ".join(stale)


# ------------------------------------------------------------------------------------ tests


def test_the_theory_list_finds_the_theory_modules():
    names = {p.relative_to(ROOT / "petheory").parts[0].removesuffix(".py") for p in theory_files()}
    assert {"encodings", "rounding", "lengthgen"} <= names
    assert not names & {"nn", "plots", "cli", "experiments", "loaders", "io", "records"}


def test_theory_modules_import_no_torch_plots_training_cli_or_claims():
    found = {}
    for path in theory_files():
        for line, mod in _imported_modules(path):
            for bad in FORBIDDEN_IMPORTS:
                if _under(mod, bad):
                    found.setdefault((_rel(path), bad), line)
    _check_allow(found, THEORY_IMPORT_ALLOW, "theory modules importing torch, plots, nn, cli, claims or file readers")


def test_theory_modules_read_and_write_no_files():
    found = {}
    for path in theory_files():
        for line, call in _io_calls(path):
            found.setdefault((_rel(path), call), line)
    _check_allow(found, THEORY_IO_ALLOW, "file I/O in theory modules (loading lives in petheory.loaders)")


def test_theory_sits_one_level_under_everything_else():
    """Theory imports only the package's helpers and other theory: never loaders/io/records, nn,
    experiments, sweep, plots, the CLI or the claim catalogue."""
    known = graph.modules(ROOT)
    found = {}
    for path in theory_files():
        name = graph.module_name(path, ROOT)
        for line, mod, attr in graph.imports(path, name, ROOT):
            dep = graph.target(mod, attr, known)
            layer = graph.layer_of(dep)
            if layer is not None and layer not in ("helpers", "theory"):
                found.setdefault((_rel(path), dep), line)
    _check_allow(found, THEORY_LAYER_ALLOW, "theory modules importing from a higher layer")


def test_no_function_level_import_climbs_back_up_a_layer():
    """A lazy import from a lower layer into a higher one works only because the higher module has loaded by
    the time the function runs: the layering is then a convention nobody can see. Counted on its own, each
    justified in CLIMB_ALLOW (``provenance`` reaching back into ``nn`` and ``cli/sweep`` into ``cli/train``
    were the last ones folded away)."""
    climbs = graph.climbing_imports(ROOT)
    found = {(_rel(graph.modules(ROOT)[m]), dep): line for m, _, line, dep in climbs}
    _check_allow(found, CLIMB_ALLOW, "function-level imports climbing back up a layer")


def test_the_climb_check_sees_a_lazy_import_of_a_higher_layer(tmp_path):
    pkg = tmp_path / "petheory"
    (pkg / "nn").mkdir(parents=True)
    for f in ("__init__.py", "nn/__init__.py", "nn/train.py"):
        (pkg / f).write_text("")
    (pkg / "records.py").write_text("import json\n\ndef f():\n    from petheory.nn import train\n    return train\n")
    (pkg / "io.py").write_text("from petheory.nn import train\n")  # module level: the graph's edge, not a lazy climb
    assert graph.climbing_imports(tmp_path) == [("petheory.records", "f", 4, "petheory.nn.train")]


def test_nn_imports_nothing_of_experiments():
    """``petheory.nn`` is one model and its training run; ``petheory.experiments`` runs many of them (sweeps, grids,
    the paper experiments) on top of it. Both sit on one layer, so the layer check cannot see a climb between them:
    this test holds the direction, at module level and inside functions."""
    known = graph.modules(ROOT)
    found = {}
    for path in sorted((ROOT / "petheory" / "nn").rglob("*.py")):
        for line, mod, attr in graph.imports(path, root=ROOT):
            dep = graph.target(mod, attr, known)
            if _under(dep, "petheory.experiments"):
                found.setdefault((_rel(path), dep), line)
    assert not found, f"petheory.nn importing petheory.experiments: {found}"


#: What plots may not import, at module level or inside a function: plots draw records and train nothing; a figure
#: that needs trained models reads an experiment's records, and ``petheory figures`` (the CLI) runs the experiment.
PLOTS_FORBIDDEN = ("torch", "petheory.nn", "petheory.experiments")
#: (plots file, imported module) -> why. Only nn's torch-free record readers (JSON in, no model): ``petheory.nn``
#: loads its torch modules lazily, so these import no torch (test_nn_record_readers_import_no_torch).
PLOTS_ALLOW = {
    ("petheory/plots/lengthgen.py", "petheory.experiments.chen2025_runs"): "load_records: the chen2025 records (JSON) the figures draw",
    ("petheory/plots/retrieval.py", "petheory.experiments.retrieval_runs"): "load_records: the retrieval records (JSON) the figures draw",
    ("petheory/plots/retrieval.py", "petheory.experiments.extension_lengths"): "load_records, of_setup: the extension "
    "records (JSON) the figure draws",
    ("petheory/plots/empirical.py", "petheory.nn.provenance"): "a record's preset and li2025 Table 5 reading, by name",
}
NN_RECORD_READERS = sorted({mod for _, mod in PLOTS_ALLOW})


def test_plots_import_no_training():
    """``plots/lengthgen``, ``plots/retrieval`` and the bounds figures used to train models inside a figure: a
    figure draws records, and the training it needs is an experiment whose records it reads (issue 29)."""
    known = graph.modules(ROOT)
    found = {}
    for path in sorted((ROOT / "petheory" / "plots").rglob("*.py")):
        for line, mod, attr in graph.imports(path, root=ROOT):
            dep = graph.target(mod, attr, known)
            if any(_under(dep, bad) for bad in PLOTS_FORBIDDEN):
                found.setdefault((_rel(path), dep), line)
    _check_allow(found, PLOTS_ALLOW, "plots importing torch, nn or experiments (read the experiment's records instead)")


def test_plots_registry_imports_no_torch():
    """Every figure module loads (the registry) without torch: drawing a record needs no training stack."""
    import subprocess
    import sys

    code = "import sys; from petheory import plots; plots.registry(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=HANG_S)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_nn_record_readers_import_no_torch():
    """What plots may read from ``nn`` (and the claim catalogue reads: ``provenance``) loads without torch, in a fresh
    interpreter: ``petheory.nn``'s ``__init__`` is lazy, and the task registry (``nn.task_core``) is torch-free."""
    import subprocess
    import sys

    code = ("import importlib, sys; [importlib.import_module(m) for m in sys.argv[1:]]; "
            "from petheory.nn import provenance, task_core; print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, *NN_RECORD_READERS], capture_output=True, text=True, cwd=ROOT,
                         timeout=HANG_S)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_nn_names_its_loop_module_and_its_function_apart():
    """``petheory.nn.train`` is the function and ``petheory.nn.training`` the module that defines it, before and after
    the module is imported (a submodule import binds the package attribute of its own name only), and the package
    binds nothing when a name is read: each read is the defining module's attribute."""
    import subprocess
    import sys

    code = ("import sys, types, petheory.nn as nn; before = nn.train; import petheory.nn.training as t; "
            "print(before is t.train is nn.train, isinstance(nn.training, types.ModuleType), 'train' in vars(nn))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=HANG_S)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "False"]


def test_the_plots_check_sees_a_lazy_import_of_experiments(tmp_path):
    path = tmp_path / "petheory" / "plots" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text("def f():\n    from petheory import experiments\n    return experiments.li2025_alibi_drift({})\n")
    mods = [m for _, m, attr in graph.imports(path, "petheory.plots.x", tmp_path) for m in (m, f"{m}.{attr}")]
    assert any(_under(m, "petheory.experiments") for m in mods)


def test_the_claim_catalogue_and_check_list_import_no_torch():
    """Loading every claim and ``petheory check --list`` stay torch-free (torch is most of a catalogue load on a
    loaded machine): the empirical claims read records as JSON and name their presets through ``provenance``."""
    import subprocess
    import sys

    code = ("import contextlib, io, sys\nfrom proofs_check import engine\nengine.load_builtin()\n"
            "assert engine.all_claims()\nfrom petheory.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['check', '--list']) == 0\n"
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=HANG_S)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_cli_commands_share_code_through_helpers_not_through_each_other():
    """``petheory sweep`` imported ``petheory train``'s module for one parser; commands are peers: what two of
    them share lives in a lower module (``petheory.cli._*`` or the library)."""
    g = graph.graph(ROOT)
    commands = {m for m in g if m.startswith("petheory.cli.") and not m.split(".")[-1].startswith("_")}
    found = sorted((m, d) for m in commands for d in g[m] if d in commands)
    assert not found, found


def code_lines(path: Path) -> int:
    """The lines of ``path`` that hold code: a line with a token other than a comment, and not inside a docstring
    (a string standing alone as a statement: a module's, class's or function's docstring, or an attribute's)."""
    import io
    import tokenize

    text = path.read_text(encoding="utf-8")
    docs = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            docs.update(range(node.lineno, node.end_lineno + 1))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
            tokenize.ENDMARKER}
    code = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in skip:
            code.update(range(tok.start[0], tok.end[0] + 1))
    return len(code - docs)


def over_cap(paths) -> dict[str, str]:
    """``{file: 'N code lines'}`` for each of ``paths`` over :data:`SIZE_LIMIT` code lines."""
    found = {}
    for path in paths:
        n = code_lines(path)
        if n > SIZE_LIMIT:
            found[_rel(path) if path.is_relative_to(ROOT) else str(path)] = f"{n} code lines"
    return found


def test_no_module_is_over_600_code_lines():
    """petheory's modules and the claim catalogue's (one module per idea, readable in one sitting)."""
    found = over_cap(sorted([*(ROOT / "petheory").rglob("*.py"), *(ROOT / "proofs_check").rglob("*.py")]))
    _check_allow(found, SIZE_ALLOW, f"modules over {SIZE_LIMIT} code lines (split by idea, or allow-list with a reason)")


def test_the_size_cap_counts_code_not_docstrings_comments_or_blank_lines(tmp_path):
    code = tmp_path / "big.py"
    code.write_text('"""A module."""\n\n' + "".join(f"x{i} = (\n    {i})\n" for i in range(301)))
    docs = tmp_path / "documented.py"
    docs.write_text('"""A module\n\nwith a long docstring.\n"""\n' + "# a comment\n\n" * 400
                    + "def f(x):\n    \"\"\"Its docstring,\n\n    long.\n    \"\"\"\n    return x  # why\n"
                    + "".join(f"y{i} = {i}\n\"\"\"What y{i} is.\"\"\"\n" for i in range(300)))
    assert code_lines(code) == 602  # a statement over two lines counts twice
    assert code_lines(docs) == 2 + 300
    assert set(over_cap([code, docs])) == {str(code)}


def _private_uses(path: Path) -> list[tuple[int, str]]:
    """Private names of another petheory module that ``path`` uses: ``from m import _x``,
    ``import m._x`` / ``from m._x import y`` (a private submodule) from outside m's package,
    and ``alias._x`` on an imported petheory module."""
    me = graph.module_name(path, ROOT)
    known = graph.modules(ROOT)
    out, aliases = [], {}
    tree = graph.parse(path)

    def private(dotted: str, line: int) -> None:
        parts = dotted.split(".")
        for i, part in enumerate(parts):
            if part.startswith("_") and not part.startswith("__") and part not in INTERNAL:
                owner = ".".join(parts[:i])  # the module or package that holds the private name
                inside = ".".join(parts[: i + 1]) in known and (me == owner or me.startswith(owner + "."))
                if me != owner and not inside:
                    out.append((line, dotted))
                return

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "petheory":
                    private(a.name, node.lineno)
                    if a.asname:
                        aliases[a.asname] = a.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "petheory":
            for a in node.names:
                private(f"{node.module}.{a.name}", node.lineno)
                if f"{node.module}.{a.name}" in known:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            private(f"{aliases[node.value.id]}.{node.attr}", node.lineno)
    return out


def test_no_module_uses_another_modules_private_names():
    found = {}
    files = [p for d in ("petheory", "proofs_check", "benchmarks", "tools") for p in sorted((ROOT / d).rglob("*.py"))]
    for path in files:
        for line, dotted in _private_uses(path):
            found.setdefault((_rel(path), dotted), line)
    _check_allow(found, PRIVATE_ALLOW, "private names used across modules (make them public, documented, or keep them inside)")


@pytest.mark.parametrize("src, expect", [
    ("import torch\n", "torch"),
    ("def f():\n    from petheory.plots import save\n", "petheory.plots"),
    ("def f():\n    import proofs_check.engine as e\n", "proofs_check"),
])
def test_the_import_check_sees_lazy_imports(tmp_path, src, expect):
    path = tmp_path / "petheory" / "encodings_x.py"
    path.parent.mkdir()
    path.write_text(src)
    mods = [m for _, m in _imported_modules_at(path, tmp_path)]
    assert any(_under(m, expect) for m in mods)


def _imported_modules_at(path: Path, root: Path):
    return [(line, mod) for line, mod, _ in graph.imports(path, "petheory.encodings_x", root)]


def test_the_io_check_sees_file_reads(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("import numpy as np, json\nfrom pathlib import Path\n"
                    "def f(p):\n    a = np.load(p)\n    b = json.load(open(p))\n    return Path(p).read_text()\n")
    assert {c for _, c in _io_calls(path)} == {"np.load", "json.load", "open", "read_text"}


def test_the_import_graph_tool_prints_every_layer(capsys):
    assert graph.main([]) == 0
    out = capsys.readouterr().out
    for layer, _ in graph.LAYERS:
        if layer != "helpers" or "petheory._validate" in out:
            assert f"**{layer}**" in out
    assert "`petheory.encodings`" in out and "`petheory.nn.training`" in out


def test_readme_where_things_are_table_is_current():
    """The README's file table is generated (python tools/import_graph.py --write): a module added,
    moved or re-described shows up there, or this fails."""
    from proofs_check.verdict_table import readme_block

    readme = (ROOT / "docs" / "guide" / "layout.md").read_text(encoding="utf-8")
    assert readme_block(readme, graph.WHERE_BEGIN, graph.WHERE_END) == graph.where().strip("\n"), (
        "stale: run python tools/import_graph.py --write")


def test_where_table_lists_every_module():
    table = graph.where()
    for path in sorted((ROOT / "petheory").rglob("*.py")):
        assert f"`{path.relative_to(ROOT).as_posix()}`" in table


# ------------------------------------------------------------------------------------ cycles


def import_cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each holds a cycle), plus
    modules that import themselves; Tarjan's algorithm, iterative (no recursion limit)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g.get(root, ()))))]
        index[root] = low[root] = counter[0]; counter[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in g:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]; counter[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); on.discard(w); comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1 or v in g.get(v, ()):
                        out.append(sorted(comp))
    return sorted(out)


def _cycle_path(g: dict[str, set[str]], comp: list[str]) -> str:
    """One concrete cycle through the component, ``a -> b -> ... -> a`` (for the failure message)."""
    members, start = set(comp), comp[0]
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(g.get(v, ()) & members):
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return " -> ".join([start, *reversed(path[:-1]), v, start]) if v != start else f"{start} -> {start}"
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return " <-> ".join(comp)


def test_the_import_graph_has_no_cycle():
    """No two modules import each other, directly or through others (function-level imports included)."""
    g = graph.graph(ROOT)
    cycles = import_cycles(g)
    assert not cycles, "import cycles (break each by moving the shared piece down a layer):\n  " + "\n  ".join(
        _cycle_path(g, c) for c in cycles)


@pytest.mark.parametrize("edges, expect", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
    ({"a": {"a"}}, [["a"]]),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_the_cycle_check_finds_planted_cycles(edges, expect):
    assert import_cycles(edges) == expect


def test_the_cycle_check_sees_a_function_level_import(tmp_path):
    """The lazy-forwarder pattern (a module-level import one way, a function-level one back) is a cycle."""
    pkg = tmp_path / "petheory"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("def __getattr__(name):\n    from petheory import high\n    return getattr(high, name)\n")
    (pkg / "high.py").write_text("from petheory import low\n")
    assert import_cycles(graph.graph(tmp_path)) == [["petheory.high", "petheory.low"]]


def test_encodings_import_nothing_above_them():
    """The encodings layer is the bottom of the theory: its modules import only the package helpers
    and each other (an encoding built from geometry, like mds_optimal, registers itself from there)."""
    g = graph.graph(ROOT)
    found = {(m, d): 0 for m, ds in g.items() if m == "petheory.encodings" or m.startswith("petheory.encodings.")
             for d in ds if graph.layer_of(d) != "helpers" and not (d == "petheory.encodings" or d.startswith("petheory.encodings."))}
    assert not found, f"encodings importing from above: {sorted(found)}"


def test_every_module_belongs_to_a_layer():
    """A new module outside every layer pattern shows '?' in the README's table and escapes the layer rules
    (petheory.texttable did, and its page was missing from the API reference)."""
    stray = sorted(m for m in graph.modules(ROOT) if graph.layer_of(m) is None)
    assert not stray, f"modules in no layer of tools/import_graph.LAYERS: {stray}"
