"""The guide, the tutorial and the index write their formulas as math (issue 59), not as plain characters.

The Markdown pages enable MyST's ``dollarmath`` and ``amsmath`` (``docs/conf.py``): ``$\\theta_t = b^{-2t/d}$`` inline,
``$$ ... \\tag{gu2025 Eq. 8} $$`` displayed with the paper's number, and MathJax renders them in the reader's browser. A formula typed as
characters (``B_m = Σ cos(m θ_t)``, ``b s^(r/(r-2))``) renders as those characters. Code (fenced blocks, inline
backticks), math and link targets are left out of the search: there ``^(`` is Python or a shell's, not a formula's.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "index.md", ROOT / "docs" / "tutorial.md", *sorted((ROOT / "docs" / "guide").glob("*.md"))]

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
