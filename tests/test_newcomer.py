"""A newcomer's friction list (issue 12): each point that can be tested, tested as the user meets it."""

from __future__ import annotations

import sys

import pytest

from petheory import loaders


# ----------------------------------------------------------------------------- 12.4 extras messages


def test_missing_submitit_names_the_command_that_works_from_a_clone(monkeypatch, tmp_path):
    from petheory import sweep

    monkeypatch.setitem(sys.modules, "submitit", None)  # import submitit -> ImportError
    with pytest.raises(ValueError, match=r'pip install -e "\.\[cluster\]"'):
        sweep._run_slurm([None], [0], tmp_path, {}, None, lambda *a: None)


# ----------------------------------------------------------------------------- 12.6 claim discoverability

import json  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

from petheory.cli import main  # noqa: E402
from proofs_check import engine, runner  # noqa: E402
from proofs_check.fields import case_fields  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_list_shows_statement_and_case_fields(capsys):
    assert main(["check", "--list", "--claims", "li2025.alibi_monotone_bias,gu2025.szego"]) == 0
    out = capsys.readouterr().out
    assert "statement: The ALiBi bias" in out and "case fields: n, slope" in out
    assert "no --case: checked as a whole (asymptotic)" in out


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


def test_every_readme_counterexample_fits_its_claims_fields():
    """The README's verdict table prints counterexamples; each must replay without a field error."""
    rows = re.findall(r"^\| `([^`]+)` \| \w+ \| \*\*refuted\*\* \| counterexample `(\{.*?\})` \|", (ROOT / "README.md").read_text(), re.M)
    assert len(rows) >= 5
    for cid, case in rows:
        c = engine.get(cid)
        f = case_fields(c)
        case = json.loads(case)
        assert set(f.required) <= set(case) <= set(f.required) | set(f.optional), (cid, case, f)
