"""The README's coverage section: generated from proofs_check.coverage, in step with the catalogue both ways."""

from __future__ import annotations

import dataclasses

import pytest

from proofs_check import coverage
from proofs_check.verdict_table import COVERAGE as README, readme_block


def test_readme_coverage_section_is_up_to_date():
    block = readme_block(README.read_text(encoding="utf-8"), coverage.BEGIN, coverage.END)
    assert block == coverage.render(), "README.md's coverage section is stale: run `python -m proofs_check.coverage --write`"


def test_every_named_claim_exists_and_every_claim_is_named():
    assert coverage.problems() == []


def test_check_fails_on_a_stale_block(tmp_path):
    text = README.read_text(encoding="utf-8")
    stale = tmp_path / "README.md"
    stale.write_text(text.replace("`gu2025.rope_relative`", "`gu2025.rope_relative_old`"), encoding="utf-8")
    assert coverage.main(["--check", "--readme", str(stale)]) == 1
    assert coverage.main(["--write", "--readme", str(stale)]) == 0
    assert coverage.main(["--check", "--readme", str(stale)]) == 0


def test_a_missing_or_unknown_claim_is_reported(monkeypatch):
    gu = coverage.STATEMENTS["gu2025"]
    planted = dict(coverage.STATEMENTS, gu2025=(dataclasses.replace(gu[0], claims=("gu2025.no_such_claim",)),) + gu[1:])
    monkeypatch.setattr(coverage, "STATEMENTS", planted)
    found = coverage.problems()
    assert any("gu2025.no_such_claim, which is not a registered claim" in p for p in found)
    assert any("claim gu2025.rope_relative is not named" in p for p in found)
    assert coverage.main(["--check"]) == 1


def test_a_statement_not_checked_must_say_why(monkeypatch):
    planted = dict(coverage.STATEMENTS, chen2025=coverage.STATEMENTS["chen2025"] + (coverage.Statement("x", "y"),))
    monkeypatch.setattr(coverage, "STATEMENTS", planted)
    assert any("neither claims nor a reason" in p for p in coverage.problems())


def test_the_section_shows_each_papers_share_checked_and_the_reasons():
    text = coverage.render()
    for paper in coverage.PAPERS:
        assert f"**{paper}**" in text
    assert "not checked: a definition" in text and "statements checked" in text
    records = {"gu2025.rope_relative": {"verdict": "holds"}}
    assert "`gu2025.rope_relative` (holds)" in coverage.render(records)


@pytest.mark.parametrize("paper", ["gu2025", "li2025", "cirrincione2026", "chen2025"])
def test_every_paper_lists_statements(paper):
    """The four source papers (../shared/papers) list their statements; chen2023/peng2023 are the one result each
    that the context-extension claims check."""
    assert len(coverage.STATEMENTS[paper]) >= 5
