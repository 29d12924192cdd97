"""``petheory check``: listing claims and their cases, did-you-mean, replayed counterexamples, progress and the piped table."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from petheory.cli import main
from proofs_check import engine, runner

ROOT = Path(__file__).resolve().parents[2]


def test_list_shows_statement_and_case_fields(capsys):
    assert main(["check", "--list", "--claims", "li2025.alibi_monotone_bias,gu2025.szego"]) == 0
    out = capsys.readouterr().out
    assert "statement: The ALiBi bias" in out and "case fields: n, slope" in out
    assert "no --case: checked as a whole (asymptotic)" in out


def test_list_prints_the_catalogue_s_listing(capsys):
    from proofs_check.fields import listing, listing_lines

    pattern = "li2025.alibi_monotone_bias,gu2025.szego"
    assert main(["check", "--list", "--claims", pattern]) == 0
    claims = engine.select(pattern)
    assert capsys.readouterr().out == "".join(line + "\n" for line in listing_lines(claims))
    assert [row["id"] for row in listing(claims)] == [c.id for c in claims]


def test_list_honours_json(capsys):
    assert main(["check", "--list", "--claims", "li2025.alibi_monotone_bias", "--json", "-"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (row,) = doc["claims"]
    assert row["id"] == "li2025.alibi_monotone_bias" and row["case_fields"] == {"required": ["n", "slope"], "optional": []}
    assert "ALiBi" in row["statement"]
    # the listed example is itself a valid case
    assert runner.replay(engine.get(row["id"]), row["example_case"])["verdict"] == "holds"


@pytest.mark.parametrize("case, words", [
    ('{"n": 3, "slop": 0.5}', ["unknown field(s) 'slop'", "expected fields: n, slope"]),
    ('{"n": 3}', ["missing field(s) 'slope'", "expected fields: n, slope"]),
    ('[3, 0.5]', ["JSON object"]),
])
def test_a_case_with_wrong_fields_is_an_error_naming_the_expected_ones(case, words, capsys):
    assert main(["check", "--claims", "li2025.alibi_monotone_bias", "--case", case]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(w in err for w in words), err


def test_a_misspelt_claim_id_gets_did_you_mean_and_a_pointer_to_list(capsys):
    assert main(["check", "--claims", "gu2025.lema_b1_range"]) == 2
    err = capsys.readouterr().err
    assert "did you mean gu2025.lemma_b1_range" in err and "--list" in err


def test_every_readme_counterexample_replays_as_a_counterexample():
    """The README's verdict table prints counterexamples (per reading where a claim has readings);
    each must replay through `--case` as a violation, with no field error. Shrinking drops the
    fields a checker never reads, so a counterexample may have fewer fields than a generated case."""
    from proofs_check.runner import replay

    text = (ROOT / "docs" / "verdicts.md").read_text()
    # columns: claim, paper status, kind, setup (empty for exact claims), verdict, evidence, counterexample or summary
    rows = re.findall(r"^\| `([^`]+)` \| [\w ]+ \| \w+ \| \w* \| \*\*(?:refuted|depends)\*\*.*?\| (.*) \|$", text, re.M)
    cases = []
    for cid, cell in rows:
        # a reading's part reads "name: [its summary, ]counterexample `{...}`"; a word before a colon counts as the
        # reading only when the claim has a reading of that name
        names = {r.name for r in getattr(engine.get(cid), "readings", ()) or ()}
        for reading, case in re.findall(r"(?:\b([a-z]\w*): [^`;|]*?)?counterexample `(\{[^`]*\})`", cell):
            cases.append((f"{cid}#{reading}" if reading in names else cid, case))
    assert len(cases) >= 8
    for cid, case in cases:
        rec = replay(engine.get(cid), json.loads(case))
        assert rec["verdict"] == "refuted", (cid, case, rec)


def test_check_help_cites_nothing_outside_the_repo(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "DESIGN.md" not in capsys.readouterr().out


def test_check_prints_plain_progress_lines_when_not_a_terminal(capsys):
    assert main(["check", "--claims", "li2025.alibi_monotone_bias,li2025.sinusoidal_norm_bound"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("check: [1/2] checking li2025.alibi_monotone_bias") and err[0].endswith(" s)")
    assert err[1].startswith("check: [2/2] checking li2025.sinusoidal_norm_bound")
    assert err[-1].startswith("check: 2 claims checked")
    assert main(["check", "--claims", "li2025.alibi_monotone_bias", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_piped_check_table_keeps_every_word_whole(capsys):
    assert main(["check", "--claims", "chen2025.learned_relation_pe,gu2025.lemma_b1_range", "-q"]) == 0
    out = capsys.readouterr().out
    # the evidence cell is printed on one line, whole: no token cut across lines, no padding after it
    assert "copy/fire-vs-relative +0.334 (Holm p 0.0042), copy/fire-vs-rope" in out  # far along a long cell
    rows = [ln for ln in out.splitlines() if ln.startswith(("chen2025.", "gu2025."))]
    assert len(rows) == 2 and all(ln == ln.rstrip() for ln in out.splitlines())
    assert "petheory check --claims gu2025.lemma_b1_range --case '" in out  # the replay command, whole


def test_case_fields_are_drawn_once_per_claim_and_afresh_for_a_new_claim():
    """``check --list``, ``--case`` and every replay read a claim's fields; the 40 seeded draws run once per claim object
    (the answer could not change), and a claim registered again (another object, another strategy) is drawn afresh."""
    from hypothesis import strategies as st

    from proofs_check.engine import Claim
    from proofs_check.fields import case_fields

    calls = []

    def claim(keys):
        def cases():
            calls.append(keys)
            return st.fixed_dictionaries({k: st.integers(0, 3) for k in keys})

        return Claim(id="test2026.fields", source="test", statement="s", kind="exact", check=lambda case: 0.0, cases=cases)

    one = claim(("a", "b"))
    first = case_fields(one)
    first.example["a"] = "edited"  # the caller's copy: the next answer is unchanged
    again = case_fields(one)
    assert calls == [("a", "b")] and again.required == ("a", "b") and again.example["a"] != "edited"
    other = case_fields(claim(("c",)))
    assert calls == [("a", "b"), ("c",)] and other.required == ("c",)
