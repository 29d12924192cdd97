"""The JSON and text the analysis commands write on the fixtures are the golden files' (tools/golden_records.py).

The golden files were written from main at 43e7423, before the records became types (issue 45); a refactor of the
records, their serialiser or their rendering must leave every command's ``--json``, terminal text and
``--markdown`` as they were (:func:`petheory.rounding.record_differences`: each float at its own stated error, an
error figure by its bound, a text's numbers where they print a float that moved within its error, everything else
exactly). A change meant to alter the output rewrites the affected golden files with
``python tools/golden_records.py --write --only CASE`` in the
same commit, which then shows the change.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("golden_records", Path(__file__).parents[2] / "tools" / "golden_records.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)

CASES = golden.cases()
SLOW = [c for c in CASES if c not in golden.SAMPLE]


def _check(name):
    diff = golden.differences(golden.read(name), golden.run_case(CASES[name]))
    assert not diff, f"{name}: {len(diff)} differences from tests/data/golden:\n" + "\n".join(diff[:8])


def test_every_case_has_its_golden_file_and_no_file_is_stale():
    have = {p.name.removesuffix(".json.gz") for p in golden.GOLDEN.glob("*.json.gz")}
    assert have == set(CASES), f"missing: {sorted(set(CASES) - have)}; stale: {sorted(have - set(CASES))}"
    assert set(golden.SAMPLE) <= set(CASES)


@pytest.mark.parametrize("name", golden.SAMPLE)
def test_command_output_is_unchanged(name):
    _check(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_command_output_is_unchanged_everywhere(name):
    _check(name)


def test_a_changed_number_is_caught():
    """The comparison can fail: one float moved by 1e-6 relative, one key renamed, one text line changed (the rules
    for stated errors and printed numbers are tested in tests/theory/test_record_differences.py)."""
    want = {"a": [1.0, 2.0], "b": {"c": "x\ny"}}
    assert golden.differences(want, {"a": [1.0, 2.0 * (1 + 1e-6)], "b": {"c": "x\ny"}})
    assert golden.differences(want, {"a": [1.0, 2.0], "B": {"c": "x\ny"}})
    assert golden.differences(want, {"a": [1.0, 2.0], "b": {"c": "x\nz"}})
    assert not golden.differences(want, {"a": [1.0, 2.0 * (1 + 1e-14)], "b": {"c": "x\ny"}})
