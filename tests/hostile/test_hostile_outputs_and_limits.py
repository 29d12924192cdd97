"""One file named by two outputs is refused before any work (compare, check, report); a null-draw count beyond its
limit is refused with a time estimate; the limits table in the reliability guide is the generated one."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_util import files_under, refused

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv", [["compare", "--pe", "rope"], ["check", "--claims", "li2025.alibi_monotone_bias"]])
def test_json_and_markdown_to_one_file_are_refused(capsys, tmp_path, argv):
    refused(capsys, *argv, "--json", tmp_path / "F", "--markdown", tmp_path / "F", match="both name")
    assert files_under(tmp_path) == []


@pytest.mark.parametrize("argv", [
    ["--json", "F", "--markdown", "F"],
    ["--json", "F.json", "--figure", "F.png"],
    ["--markdown", "F.png", "--figure", "F.png"],
])
def test_report_refuses_one_file_named_twice(capsys, tmp_path, argv):
    (tmp_path / "F").write_text("kept")
    argv = [str(tmp_path / a) if a.startswith("F") else a for a in argv]
    refused(capsys, "report", "--pe", "rope", "--null-draws", "0", *argv, match="both name")
    assert files_under(tmp_path) == ["F"] and (tmp_path / "F").read_text() == "kept"


@pytest.mark.parametrize("command", ["report", "stress", "compare"])
def test_null_draws_beyond_the_limit_are_refused_with_a_time_estimate(capsys, tmp_path, command):
    from petheory.loaders.limits import NULL_DRAWS_MAX

    line = refused(capsys, command, "--pe", "rope", "--null-draws", 10**12, "--json", tmp_path / "o.json",
                   match=(str(NULL_DRAWS_MAX), "years"))
    assert "95 years" in line  # 10^12 draws x 3 ms
    refused(capsys, command, "--pe", "rope", "--null-draws", NULL_DRAWS_MAX + 1, match="minutes")
    assert files_under(tmp_path) == []


def test_the_limits_table_in_the_guide_is_the_generated_one():
    from petheory.loaders.limits import BEGIN, END, limits_table

    text = (ROOT / "docs" / "guide" / "reliability.md").read_text(encoding="utf-8")
    assert text[text.index(BEGIN) + len(BEGIN):text.index(END)].strip() == limits_table()
