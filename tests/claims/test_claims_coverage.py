"""docs/coverage.md's sentence list: generated from proofs_check.coverage, claims attached from their own sources."""

from __future__ import annotations

import dataclasses

import pytest

from proofs_check import coverage
from proofs_check.engine import Claim, all_claims
from proofs_check.verdict_table import COVERAGE as README, readme_block


def _claim(id, source, **kw):
    return Claim(id=id, source=source, statement=kw.pop("statement", "s"), kind="exact", **kw)


def test_readme_coverage_section_is_up_to_date():
    block = readme_block(README.read_text(encoding="utf-8"), coverage.BEGIN, coverage.END)
    assert block == coverage.render(), "docs/coverage.md's coverage section is stale: run `python -m proofs_check.coverage --write`"


def test_the_sentence_list_agrees_with_the_catalogue():
    assert coverage.problems() == []


def test_every_row_is_covered_by_claims_or_says_why_not():
    for paper, rows in coverage.attach().items():
        for r in rows:
            assert bool(r.claims) != bool(r.statement.why_not), (paper, r.statement.where)


def test_every_claim_lands_in_a_row():
    landed = {c for rows in coverage.attach().values() for r in rows for c in r.claims}
    missing = [c.id for c in all_claims() if c.id.split(".")[0] in coverage.PAPERS and c.id not in landed]
    assert missing == []


def test_a_claim_attaches_to_the_rows_its_source_names():
    rows = coverage.attach()["gu2025"]
    at = {r.statement.where: r.claims for r in rows}
    assert at["§3.1, Eq. 4"] == ("gu2025.rope_relative",)
    # one source naming two sentences lands on both; a __corrected variant rides with its original
    assert "gu2025.rope_logit_form" in at["§3.2, Eq. 9"] and "gu2025.rope_logit_form" in at["App. B, Prop. B.1"]
    assert at["Lemma B.1 (equality case)"] == ("gu2025.lemma_b1_equality", "gu2025.lemma_b1_equality__corrected")
    # a where must be named whole: schur_modulus's 'App. B (proof of Prop. B.3)' does not name 'App. B, Prop. B.3'
    assert at["App. B (proof of Prop. B.3)"][0] == "gu2025.schur_modulus"
    assert "gu2025.schur_modulus" not in at["App. B, Prop. B.3"]


@pytest.mark.parametrize("where, source, named", [
    ("Eq. 4", "gu2025 §3.1, Eq. 4 (an equation)", True),
    ("Eq. 4", "gu2025 Eq. 41", False),
    ("§6", "li2025 §6.1.4", False),
    ("§5.3", "li2025 §5.3, Eq. 9", True),
    ("Fig. 2", "gu2025 §4.2, Fig. 2-3", False),
    ("Fig. 2", "gu2025 §4.2, Figs. 2-3", False),
    ("Remark 3.2", "gu2025 §3.1, Remark 3.2 (corrected)", True),
])
def test_names_matches_whole_locators_only(where, source, named):
    assert coverage.names(where, source) is named


def test_the_more_specific_where_wins():
    statements = {"gu2025": (coverage.Statement("§5.3", "a"), coverage.Statement("§5.3, Eq. 9", "b"))}
    claims = [_claim("gu2025.x", "gu2025 §5.3, Eq. 9 (x)"), _claim("gu2025.y", "gu2025 §5.3 (y)")]
    rows = coverage.attach(statements, claims)["gu2025"]
    assert [r.claims for r in rows] == [("gu2025.y",), ("gu2025.x",)]


def test_a_new_claim_needs_no_second_edit(monkeypatch):
    """A claim whose source names a listed sentence lands on it; one that names none gets a generated row."""
    claims = list(coverage._catalogue())
    claims += [_claim("gu2025.new_on_remark", "gu2025 §3.1, Remark 3.1 (a second check)"),
               _claim("gu2025.new_elsewhere", "gu2025 App. Z, Eq. 99", statement="a | b")]
    rows = coverage.attach(claims=claims)["gu2025"]
    at = {r.statement.where: r for r in rows}
    assert "gu2025.new_on_remark" in at["Remark 3.1"].claims
    gen = at["gu2025 App. Z, Eq. 99"]
    assert gen.generated and gen.claims == ("gu2025.new_elsewhere",) and gen.statement.what == "a | b"
    assert coverage.problems(claims=claims) == []
    monkeypatch.setattr(coverage, "_catalogue", lambda: claims)
    assert "| gu2025 App. Z, Eq. 99 (generated) | a \\| b | `gu2025.new_elsewhere` |" in coverage.render()


def test_check_fails_on_a_stale_block(tmp_path):
    text = README.read_text(encoding="utf-8")
    stale = tmp_path / "README.md"
    stale.write_text(text.replace("`gu2025.rope_relative`", "`gu2025.rope_relative_old`"), encoding="utf-8")
    assert coverage.main(["--check", "--readme", str(stale)]) == 1
    assert coverage.main(["--write", "--readme", str(stale)]) == 0
    assert coverage.main(["--check", "--readme", str(stale)]) == 0


def _with_row(paper, index, **changes):
    rows = list(coverage.STATEMENTS[paper])
    rows[index] = dataclasses.replace(rows[index], **changes)
    return dict(coverage.STATEMENTS, **{paper: tuple(rows)})


def _row_index(paper, where):
    return next(i for i, s in enumerate(coverage.STATEMENTS[paper]) if s.where == where)


def test_hand_placed_claims_must_equal_the_derived_set(monkeypatch):
    i = _row_index("gu2025", "§3.1, Eq. 4")
    found = coverage.problems(_with_row("gu2025", i, claims=("gu2025.no_such_claim",)))
    assert any("gu2025.no_such_claim, which is not a registered claim" in p for p in found)
    assert any("claim gu2025.rope_relative's source names this row but its claims= leaves it out" in p for p in found)
    found = coverage.problems(_with_row("gu2025", i, claims=("gu2025.rope_relative", "gu2025.szego")))
    assert any("names gu2025.szego, whose source" in p for p in found)
    assert coverage.problems(_with_row("gu2025", i, claims=("gu2025.rope_relative",))) == []
    planted = _with_row("gu2025", i, claims=())
    monkeypatch.setattr(coverage, "STATEMENTS", planted)
    assert coverage.main(["--check"]) == 1


def test_a_statement_not_checked_must_say_why_and_a_checked_one_must_not():
    planted = dict(coverage.STATEMENTS, chen2025=coverage.STATEMENTS["chen2025"] + (coverage.Statement("x", "y"),))
    assert any("neither claims nor a reason" in p for p in coverage.problems(planted))
    i = _row_index("gu2025", "Remark 3.1")
    assert any("but says why not" in p for p in coverage.problems(_with_row("gu2025", i, why_not="no reason")))


def test_a_where_names_one_row():
    planted = dict(coverage.STATEMENTS, chen2025=coverage.STATEMENTS["chen2025"] * 2)
    assert any("listed twice" in p for p in coverage.problems(planted))


def test_the_section_shows_each_papers_share_checked_and_the_reasons():
    text = coverage.render()
    for paper in coverage.PAPERS:
        assert f"**{paper}**" in text
    assert "not checked: a definition" in text and "sentences checked" in text
    records = {"gu2025.rope_relative": {"verdict": "holds"}}
    assert "`gu2025.rope_relative` (holds)" in coverage.render(records)


@pytest.mark.parametrize("paper", ["gu2025", "li2025", "cirrincione2026", "chen2025"])
def test_every_paper_lists_its_sentences(paper):
    """The four source papers list their sentences (results, definitions used as claims, captioned results)."""
    assert len(coverage.STATEMENTS[paper]) >= 9
