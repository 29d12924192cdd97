"""Test files share helpers through tests/_helpers.py (and hostile_util.py), never by importing another test
file: a test module imported for its helpers runs its module-level code and fixtures twice and ties two
unrelated suites together (retrieval figures to the context-extension claims, gu2025's MLA tests to its
training tests)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def imports_of_test_modules(path: Path) -> list[tuple[int, str]]:
    """The imports in ``path`` that name a test module (a dotted part starting with ``test_``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
        out += [(node.lineno, n) for n in names if any(part.startswith("test_") for part in n.split("."))]
    return out


def test_no_test_file_imports_another_test_file():
    found = [f"{p.relative_to(TESTS)}:{line}: {name}" for p in sorted(TESTS.rglob("*.py"))
             for line, name in imports_of_test_modules(p)]
    assert not found, "move the shared helper into tests/_helpers.py:\n  " + "\n  ".join(found)


def test_the_check_sees_both_import_forms(tmp_path):
    f = tmp_path / "test_x.py"
    f.write_text("import os\nfrom claims.test_claims_x import _record\nimport theory.test_geometry as g\nfrom _helpers import ladder_tol\n")
    assert imports_of_test_modules(f) == [(2, "claims.test_claims_x"), (3, "theory.test_geometry")]
