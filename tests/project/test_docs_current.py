"""The docs speak the CLI and the benchmarks as they are today.

- Every ``--flag`` in README.md and docs/ is a flag of some ``petheory`` command, or of the named tool it belongs to
  (the CLI renamed ``--n``/``--N`` to ``--length`` and ``--n-max`` to ``--context`` without aliases, and the guide
  kept the old spellings for a while).
- The speed ratios the guides quote are the ones ``benchmarks/RESULTS.md`` holds from the last
  ``python benchmarks/run.py all --write`` (issue 29: both ratios, against the naive reference and the competent
  peer, in RESULTS.md and the docs; issue 35: a figure that does not reproduce is corrected, not kept).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "guide").glob("*.md"))]

#: flags the docs name that belong to tools, not to the petheory CLI: flag -> where it is defined
TOOL_FLAGS = {
    "--write": "the generators (python -m proofs_check.verdict_table / .coverage, tools/*.py, benchmarks/run.py)",
    "--check": "the generators (python -m proofs_check.verdict_table / .coverage, tools/*.py)",
    "--from": "python -m proofs_check.verdict_table --from CHECK.json",
    **{f: "tools/gpu/gpu_records.py" for f in ("--budget", "--status", "--ratio", "--new-only", "--tar", "--log", "--slices", "--partial",
                                                      "--pack-checkpoints", "--unpack-checkpoints")},
    "--quick": "benchmarks/run.py",
    "--results": "benchmarks/run.py (passed through to the scripts)",
    **{f: "llama.cpp (common/arg.cpp), the flags petheory plan emits" for f in (
        "--rope-scaling", "--rope-freq-base", "--rope-freq-scale", "--yarn-orig-ctx", "--yarn-ext-factor",
        "--yarn-attn-factor", "--yarn-beta-fast", "--yarn-beta-slow")},
    "--hf-overrides": "vLLM, the override petheory plan emits",
    "--max-model-len": "vLLM, the override petheory plan emits",
    "--fresh": "python -m tools.verify (recompute cached model types)",
    "--size": "python -m petheory.experiments.extension_lengths (smoke, small, paper)",
}


def _cli_flags() -> set[str]:
    from petheory.cli import build_parser

    flags: set[str] = set()

    def walk(parser):
        for action in parser._actions:
            flags.update(o for o in action.option_strings if o.startswith("--"))
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    walk(sub)

    walk(build_parser())
    return flags


def unknown_flags(texts: dict[str, str], flags: set[str]) -> dict[str, list[str]]:
    """``{flag: [file, ...]}`` for each ``--flag`` in ``texts`` that is neither a CLI flag nor a known tool's."""
    bad: dict[str, list[str]] = {}
    for name, text in texts.items():
        for m in re.finditer(r"(?<![\w-])--[a-z][a-z0-9-]*", text):
            if m.group() not in flags and m.group() not in TOOL_FLAGS:
                bad.setdefault(m.group(), []).append(name)
    return bad


def test_docs_name_only_flags_that_exist():
    texts = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in DOCS}
    assert not unknown_flags(texts, _cli_flags())


def test_the_flag_check_catches_an_old_spelling():
    flags = _cli_flags()
    assert unknown_flags({"x.md": "`petheory spectrum --pe rope --n 1024`"}, flags) == {"--n": ["x.md"]}
    assert unknown_flags({"x.md": "past a training length of 64 (`--n-max`)"}, flags) == {"--n-max": ["x.md"]}
    assert unknown_flags({"x.md": "`petheory spectrum --pe rope --length 1024`"}, flags) == {}


def _ratios(text: str) -> list[str]:
    return re.findall(r"(?<![\w.])(\d+(?:\.\d+)?)x\b", text)


def _speed_paragraph(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index("Speed (`python benchmarks/run.py")
    end = text.find("\n\n", start)
    return text[start:end if end >= 0 else None]


def quoted_but_not_measured(paragraph: str, results: str) -> list[str]:
    """Ratios ``Nx`` the paragraph quotes that RESULTS.md does not print (as ``Nx`` or as a table's ratio cell)."""
    measured = set(_ratios(results)) | {c.strip() for c in re.findall(r"\|\s*(\d+(?:\.\d+)?)\s*(?=\|)", results)}
    return [r for r in _ratios(paragraph) if r not in measured]


def test_the_guides_quote_the_ratios_results_md_holds():
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    for guide in ("geometry.md", "spectra.md"):
        paragraph = _speed_paragraph(ROOT / "docs" / "guide" / guide)
        assert len(_ratios(paragraph)) >= 2, (guide, "quotes both ratios: against the reference and the peer")
        assert not quoted_but_not_measured(paragraph, results), (
            guide, quoted_but_not_measured(paragraph, results),
            "rerun `python benchmarks/run.py all --write` and quote its ratios")


def test_the_ratio_check_catches_a_stale_quote():
    results = "| top-8 MDS | 480 | 1310 | 2.73 |\n**13.9x** against scikit-learn"
    assert quoted_but_not_measured("petheory is 13.9x faster; against eigsh 2.73x.", results) == []
    assert quoted_but_not_measured("petheory is 14.2x faster; against eigsh 1.37x.", results) == ["14.2", "1.37"]


# ----------------------------------------------------------------------------- pasted command outputs (issue 59)

def _docs_outputs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("petheory_docs_outputs", ROOT / "tools" / "docs_outputs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_pasted_command_outputs_are_what_the_commands_print_today():
    """Each ``<!-- output: petheory ... -->`` block is the command's output in a fresh clone (the compare guide pasted
    a legend the command had stopped printing: "seen on 0..63"); ``python tools/docs_outputs.py --write`` renews them."""
    tool = _docs_outputs()
    found = [p for p in tool.pages() if tool.BLOCK.search(p.read_text(encoding="utf-8"))]
    assert ROOT / "docs" / "guide" / "compare.md" in found
    outputs = {}
    stale = [str(p.relative_to(ROOT)) for p in found
             if tool.refreshed(p.read_text(encoding="utf-8"), outputs) != p.read_text(encoding="utf-8")]
    assert not stale, f"stale pasted outputs in {stale}: run python tools/docs_outputs.py --write"


def test_the_output_check_sees_a_stale_block(monkeypatch):
    tool = _docs_outputs()
    monkeypatch.setattr(tool, "run", lambda args: f"what `petheory {args}` prints now\n")
    page = "intro\n<!-- output: petheory compare --markdown - (pasted) -->\nold legend: seen on 0..63\n<!-- /output -->\nafter\n"
    new = tool.refreshed(page)
    assert new == ("intro\n<!-- output: petheory compare --markdown - (pasted) -->\n"
                   "what `petheory compare --markdown -` prints now\n<!-- /output -->\nafter\n")
    assert tool.refreshed(new) == new
