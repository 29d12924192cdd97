"""The guide, the tutorial, the index and the API reference's docstrings write their formulas as math (issue 59), not
as plain characters.

The Markdown pages enable MyST's ``dollarmath`` and ``amsmath`` (``docs/conf.py``): ``$\\theta_t = b^{-2t/d}$`` inline,
``$$ ... \\tag{gu2025 Eq. 8} $$`` displayed with the paper's number, and MathJax renders them in the reader's browser. A formula typed as
characters (``B_m = Σ cos(m θ_t)``, ``b s^(r/(r-2))``) renders as those characters. Code (fenced blocks, inline
backticks), math and link targets are left out of the search: there ``^(`` is Python or a shell's, not a formula's.
Docstrings write ``:math:`...``` and ``.. math::`` (numpydoc and Sphinx render them); their doctests, literals,
numpydoc entry lines and the documented function's own parameter names are left out the same way.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The hand-written pages, and the two generated from the catalogue (their generators write a statement's or a summary's
#: formulas as ``$...$``: proofs_check/coverage.py, proofs_check/verdict_table.py).
PAGES = [ROOT / "docs" / "index.md", ROOT / "docs" / "tutorial.md", *sorted((ROOT / "docs" / "guide").glob("*.md")),
         ROOT / "docs" / "coverage.md", ROOT / "docs" / "verdicts.md"]

#: What a formula typed as characters looks like outside code and math: a power or a subscript written with ^ or _
#: (``s^(r/(r-2))``, ``10^4``, ``a_{i-j}``, ``θ_t``, ``T_extra``), a sum, product, root or composition sign, a Unicode
#: superscript (``ω⁰``, ``xᵀ``), or a root spelled as a call (``sqrt(``). A one-letter name before ``_`` (or a Greek
#: letter) is a subscript; a longer word before ``_``, or a second ``_``, is an identifier (``max_position_embeddings``, ``n_input_layers``).
PLAIN_FORMULA = re.compile(
    r"[\w)\]]\^[\w(\-{]"                     # x^2, s^(..), 2^-8, a^{..}
    r"|(?<![\w\\])[A-Za-zα-ωΑ-Ω]_(?:[{(]|[^\W_]+(?!\w))"  # θ_t, a_{i-j}, B_m, T_extra, N_max (not n_input_layers)
    r"|[α-ωΑ-Ω]\^"                            # ζ^...
    r"|[Σ∑∏√∫∘]"                              # Σ cos(...), M ∘ G
    r"|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻ᵀ]"                        # ω⁰, xᵀ, mscale²
    r"|\bsqrt\(")


def prose(text: str) -> str:
    """``text`` without what is not prose: fenced blocks (code and ``{math}``), ``$$`` blocks, inline code,
    inline math, MyST roles, HTML comments, a command's pasted output and link targets. What is left is what a
    reader sees as text."""
    # a command's own Markdown output pasted into a page, between <!-- output: COMMAND --> and <!-- /output -->, is
    # what the command prints (compare --markdown writes its legend as text), not the page's own formulas
    text = re.sub(r"<!-- output: petheory [^>]*-->.*?<!-- /output -->", " ", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"^(```+|~~~+).*?^\1\s*$", " ", text, flags=re.S | re.M)
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    text = re.sub(r"(?<!`)\{[\w:-]+\}`[^`]*`", " ", text)  # {math}`...`, {download}`...`
    # a code span: a run of backticks closed by a run of the same length; it may wrap, not span paragraphs
    text = re.sub(r"(?<!`)(`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)\1(?!`)", " ", text, flags=re.S)
    text = re.sub(r"(?<![\\$])\$(?!\s)[^$\n]+?(?<![\s\\])\$", " ", text)
    return re.sub(r"\]\([^)\s]*\)", "]", text)


def plain_formulas(text: str) -> list[str]:
    """Each line of ``text``'s prose that carries a formula as plain characters, with the characters that do."""
    out = []
    for line in prose(text).splitlines():
        hits = [m.group() for m in PLAIN_FORMULA.finditer(line)]
        if hits:
            out.append(f"{hits}: {line.strip()[:120]}")
    return out


def test_guide_pages_write_their_formulas_as_math():
    bad = {str(p.relative_to(ROOT)): plain_formulas(p.read_text(encoding="utf-8")) for p in PAGES}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


def test_the_check_finds_formulas_typed_as_characters():
    # the issue's own examples, as the plan guide wrote them before
    for planted in ["Liu bound reaches N: T_extra = 2π β^(d_extra/r) = N", "Men kernel B_m = Σ cos(m θ_t) stays >= 0",
                    "NTK-aware: plain RoPE with base b s^(r/(r-2))", "Hermitian Toeplitz matrices T[i,j] = a_{i-j} as",
                    "the smallest total |ln(ω/ω⁰)|", "the base (default 10^4)", "`code` then ζ_t = (2t/r+0.4)/1.4",
                    "CPD: xᵀBx >= 0 whenever the sum is 0", "stress sqrt(sum (D - s E)^2 / sum D^2)"]:
        assert plain_formulas(planted), planted


def test_math_code_and_identifiers_are_not_formulas_typed_as_characters():
    for fine in ["the Liu bound reaches N: $T_{\\text{extra}} = 2\\pi\\beta^{d_{\\text{extra}}/r} = N$",
                 "$$\nB_m = \\sum_t \\cos(m\\theta_t)\n$$ (men)", "`petheory plan --pe rope --base-grid 2^9`",
                 "```python\nx = a ** 2 ^ (b)\ny = θ_t\n```", "the field max_position_embeddings of config.json",
                 "Dory's n_input_layers and n_recurrent_layers",
                 "```{math}\n\\sum_k a_k\n```", "<!-- output: petheory compare --markdown - -->\nx^T B x\n<!-- /output -->", "a [link](guide/a_b^c.md) and {math}`x^2`"]:
        assert not plain_formulas(fine), fine


# ----------------------------------------------------------------------------- the API reference's docstrings

#: What autodoc renders from a module (``docs/conf.py``: ``members`` without private ones): the module's docstring,
#: each public class's, function's and method's, and an attribute's (a string after it, or ``#:`` lines before it).
def rendered_docstrings(path: Path):
    """``(line, text, names)`` for each docstring of ``path`` that the API reference renders; ``names`` are the
    identifiers it may mention as they are (the function's parameters, the class's fields and constructor's)."""
    import ast

    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    out = []

    def comments_before(node) -> None:
        i, block = node.lineno - 2, []
        while i >= 0 and lines[i].lstrip().startswith("#:"):
            block.insert(0, lines[i].lstrip()[2:].strip())
            i -= 1
        if block:
            out.append((i + 2, "\n".join(block), set()))

    def visit(body) -> None:
        for i, node in enumerate(body):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if node.name.startswith("_"):
                    continue
                doc = ast.get_docstring(node)
                if doc:
                    out.append((node.body[0].lineno, doc, identifiers(node)))
                if isinstance(node, ast.ClassDef):
                    visit(node.body)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if not any(isinstance(t, ast.Name) and not t.id.startswith("_") for t in targets):
                    continue
                comments_before(node)
                nxt = body[i + 1] if i + 1 < len(body) else None
                if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str):
                    out.append((nxt.lineno, inspect_clean(nxt.value.value), set()))

    tree = ast.parse(source)
    if ast.get_docstring(tree):
        out.append((1, ast.get_docstring(tree), set()))
    visit(tree.body)
    return out


def identifiers(node) -> set[str]:
    """The parameter names of a function node; a class node's fields and its constructor's parameters."""
    import ast

    if isinstance(node, ast.ClassDef):
        out = {b.target.id for b in node.body if isinstance(b, ast.AnnAssign) and isinstance(b.target, ast.Name)}
        for b in node.body:
            if isinstance(b, ast.FunctionDef) and b.name == "__init__":
                out |= identifiers(b)
        return out
    a = node.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None}


def inspect_clean(doc: str) -> str:
    import inspect

    return inspect.cleandoc(doc)


#: A numpydoc entry's header line (``n_max : int``, ``W_Q, W_K : array_like, shape (d, d_head)``): a name and its
#: type and shape, not prose.
ENTRY = re.compile(r"^\s*\(?\*{0,2}\w+(?:\s*,\s*\*{0,2}\w+)*\)?\s*:(?:\s|$)")


def rst_prose(doc: str, names=()) -> str:
    """``doc`` (reST, numpydoc) without what is not prose: doctests and their output, literal blocks (after ``::``),
    directives' bodies (``.. math::``, ``.. code-block::``), numpydoc entries' header lines, inline literals and roles
    (``:math:`...```, ``:func:`...```), text in single backticks, URLs, constants' names (``N_SAMPLES``) and the
    identifiers in ``names``."""
    kept, skip_indent, in_doctest = [], None, False
    for line in doc.splitlines():
        if ENTRY.match(line):
            continue
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if skip_indent is not None:
            if not stripped or indent > skip_indent:
                continue
            skip_indent = None
        if in_doctest:
            if stripped:
                continue
            in_doctest = False
        if stripped.startswith((">>>", "...")) and not stripped.startswith("...)"):
            in_doctest = True
            continue
        if stripped.startswith(".. "):
            skip_indent = indent
            continue
        if stripped.endswith("::"):
            skip_indent = indent
            line = line[: line.rindex("::")]
        kept.append(line)
    text = "\n".join(kept)
    text = re.sub(r"``.+?``", " ", text, flags=re.S)
    text = re.sub(r"(?::[\w:-]+:)?`[^`]+`_{0,2}", " ", text)
    text = re.sub(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", " ", text)
    for name in names:
        text = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", " ", text)
    return re.sub(r"https?://\S+", " ", text)


def api_modules() -> dict[str, Path]:
    """The modules the API reference documents (``docs/conf.py`` writes one page per layer of tools/import_graph.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("petheory_import_graph_math", ROOT / "tools" / "import_graph.py")
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    return {m: p for m, p in graph.modules(ROOT).items() if graph.layer_of(m) and not m.endswith("__main__")}


def docstring_formulas(path: Path) -> list[str]:
    """Each docstring line of ``path`` that carries a formula as plain characters, with the characters that do."""
    out = []
    for start, doc, names in rendered_docstrings(path):
        for line in rst_prose(doc, names).splitlines():
            hits = [m.group() for m in PLAIN_FORMULA.finditer(line)]
            if hits:
                out.append(f"{path.relative_to(ROOT).as_posix()}:{start}: {hits}: {line.strip()[:100]}")
    return out


def test_api_reference_docstrings_write_their_formulas_as_math():
    mods = api_modules()
    assert len(mods) > 150 and "proofs_check.engine" in mods and "petheory.toeplitz.symbols" in mods
    bad = [hit for path in mods.values() for hit in docstring_formulas(path)]
    assert not bad, f"{len(bad)} docstring lines with plain formulas (write :math:`...` or .. math::):\n" + "\n".join(bad)


def test_the_docstring_check_finds_formulas_and_skips_math_and_code(tmp_path):
    planted = tmp_path / "m.py"
    planted.write_text('"""Module: the eigenvalues of T[i,j] = a_{i-j}."""\n\n'
                       '#: the base b^(2/d)\nBASE = 1\n\n\n'
                       'def f(x):\n    """Stress sqrt(sum (D - s E)^2 / sum D^2)."""\n\n\n'
                       'class C:\n    """A class."""\n\n    def g(self):\n        """The kernel B_m = Σ cos(m θ_t)."""\n\n\n'
                       'def _private():\n    """x^2, not rendered."""\n', encoding="utf-8")
    planted_rel = planted  # docstring_formulas names files relative to the repository
    monkey = [hit for _, doc, names in rendered_docstrings(planted_rel)
              for hit in PLAIN_FORMULA.findall(rst_prose(doc, names))]
    assert len(monkey) >= 5 and "x^2" not in " ".join(monkey)
    fine = ('"""The symbol :math:`a_{i-j}` and\n\n.. math::\n\n    B_m = \\\\sum_t \\\\cos(m\\\\theta_t)\n\n'
            'Code ``n_max^2`` and :func:`petheory.x_y` and `theta_t`.\n\nExamples\n--------\n>>> 2^3\n1\n"""\n')
    ok = tmp_path / "ok.py"
    ok.write_text(fine, encoding="utf-8")
    assert [PLAIN_FORMULA.findall(rst_prose(doc, names)) for _, doc, names in rendered_docstrings(ok)] == [[]]
    ident = tmp_path / "ident.py"
    ident.write_text('def f(n_max, d_head):\n    """Up to n_max.\n\n    Parameters\n    ----------\n    n_max : int\n'
                     '        Longest, N_SAMPLES at most.\n    d_head : int\n        Shape (d, d_head); but T_extra is a symbol.\n'
                     '    """\n', encoding="utf-8")
    assert [PLAIN_FORMULA.findall(rst_prose(doc, names)) for _, doc, names in rendered_docstrings(ident)] == [["T_extra"]]


def docstring_control_characters(path: Path) -> list[str]:
    """Each docstring of ``path`` holding a control character other than a newline: an escape such as ``\\t`` or
    ``\\b`` in a docstring that is not a raw string (``:math:`\\theta``` turning into a tab and ``heta``). Read before
    ``inspect.cleandoc``, which expands tabs and hides them."""
    import ast

    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(node, clean=False)
            bad = sorted({repr(c) for c in doc or "" if ord(c) < 32 and c != "\n" or ord(c) == 127})
            if bad:
                name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
                out.append(f"{name}:{getattr(node, 'lineno', 1)}: {', '.join(bad)}")
    return out


def test_api_docstrings_hold_no_control_characters():
    bad = [hit for path in api_modules().values() for hit in docstring_control_characters(path)]
    assert not bad, f"{len(bad)} docstrings with control characters (write them as raw strings, r\"\"\"...):\n" + \
        "\n".join(bad)


def test_the_control_character_check_finds_an_escape_in_a_plain_docstring(tmp_path):
    planted = tmp_path / "m.py"
    planted.write_text('class C:\n    """Rotates by :math:`-\\theta`."""\n\n\n'
                       'def f():\n    r"""Rotates by :math:`-\\theta`."""\n', encoding="utf-8")
    assert docstring_control_characters(planted) == ["m.py:1: '\\t'"]
