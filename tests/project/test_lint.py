"""The lint step: the README's test command runs ruff with the project's rules, and the rules fire.

Code that nothing reads (an unused import or variable, a statement after ``return``) hides what a module
does; the README's test command refuses it. Ruff's pyflakes rules (``[tool.ruff.lint]`` in pyproject.toml)
cover the unused names; released ruff has no unreachable-code rule, so the walk below covers that.
"""

import ast
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The folders whose Python files the walk for unreachable code reads (ruff reads the whole checkout).
SOURCES = ("petheory", "proofs_check", "tools", "benchmarks", "gpu", "tests", "docs")
#: The rules the lint step must keep: unused imports and variables, undefined names.
REQUIRED_RULES = {"F401", "F841", "F821"}


def _readme_test_command() -> str:
    return next(l for l in (ROOT / "README.md").read_text().splitlines()
                if l.startswith("python3 -m venv .venv && ") and "pytest" in l)


def _ruff(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=cwd, capture_output=True, text=True)


def test_readme_test_command_runs_ruff_on_the_projects_own_config_before_pytest():
    cmd = _readme_test_command()
    step = re.search(r"&& (\.venv/bin/ruff check[^&]*)&&", cmd)
    assert step, f"the README's test command has no '.venv/bin/ruff check' step: {cmd}"
    # no flag of its own: the rules live in pyproject.toml alone, so README and config cannot disagree
    assert step.group(1).strip() == ".venv/bin/ruff check", step.group(1)
    assert cmd.index("ruff check") < cmd.index("pytest")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("ruff") for d in project["project"]["optional-dependencies"]["test"])
    pins = [l for l in (ROOT / "constraints.txt").read_text().splitlines() if l.startswith("ruff==")]
    assert len(pins) == 1, "constraints.txt pins the ruff the README's command installs"


@pytest.mark.parametrize("code, planted", [
    ("import os\n", "F401"),
    ("def f():\n    x = 1\n    return 2\n", "F841"),
    ("def f():\n    return undefined_name\n", "F821"),
])
def test_the_configured_rules_fire_on_a_planted_file(tmp_path, code, planted):
    path = tmp_path / "planted.py"
    path.write_text(code)
    out = _ruff("check", "--config", str(ROOT / "pyproject.toml"), "--output-format", "json", str(path), cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert planted in {d["code"] for d in json.loads(out.stdout)}


def test_the_configuration_selects_the_required_rules():
    out = _ruff("check", "--show-settings", "pyproject.toml")
    assert out.returncode == 0, out.stderr
    enabled = set(re.findall(r"\(([A-Z]+[0-9]+)\)", out.stdout.split("linter.rules.enabled", 1)[1].split("linter.", 1)[0]))
    assert REQUIRED_RULES <= enabled, REQUIRED_RULES - enabled


def test_the_checkout_passes_the_lint_step():
    out = _ruff("check", "--output-format", "concise")
    assert out.returncode == 0, out.stdout + out.stderr


# ----------------------------------------------------------------------------- unreachable code

_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def unreachable_statements(tree: ast.AST) -> list[int]:
    """Line numbers of statements that follow a ``return`` / ``raise`` / ``continue`` / ``break`` in the same block."""
    found = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for before, after in zip(block, block[1:]):
                if isinstance(before, _ENDS_BLOCK):
                    found.append(after.lineno)
                    break
    return found


@pytest.mark.parametrize("code, lines", [
    ("def f():\n    return 1\n    print(2)\n", [3]),
    ("def f(x):\n    if x:\n        raise ValueError\n        x += 1\n    return x\n", [4]),
    ("for i in range(3):\n    continue\n    print(i)\nelse:\n    pass\n", [3]),
    ("while True:\n    break\n    y = 1\n", [3]),
    ("try:\n    pass\nfinally:\n    return_ = 1\n", []),
    ("def f(x):\n    if x:\n        return 1\n    return 2\n", []),
    ("def f():\n    try:\n        return 1\n    except ValueError:\n        raise\n        z = 0\n", [6]),
])
def test_the_unreachable_walk_finds_planted_dead_statements_and_nothing_else(code, lines):
    assert unreachable_statements(ast.parse(code)) == lines


def test_no_statement_follows_a_return_raise_continue_or_break():
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")) if (ROOT / top).is_dir() else ():
            for line in unreachable_statements(ast.parse(path.read_text(), filename=str(path))):
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "unreachable code (delete it): " + ", ".join(found)
