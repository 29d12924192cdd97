"""Hostile sweep grid files (TOML and JSON): nesting depth, a table where a value belongs and the reverse, NaN and
inf, dates, bytes that are not UTF-8 -- one ``petheory: error:`` line, exit 2, nothing written; a good grid expands."""

from __future__ import annotations

import json

import pytest
from hostile_util import cli, files_under, refused


TOMLS = {
    "nested_3000": ("x = " + "[" * 3000 + "]" * 3000, "nests 3000 levels"),
    "nested_inline_tables": ("x = " + "{a = " * 200 + "1" + "}" * 200, "nests"),
    "dotted_keys_deep": ("task = 'running_sum'\n[set]\n" + ".".join(["a"] * 300) + " = 1", "nested more than 64"),
    "set_number": ("task = 'running_sum'\nset = 5", "field 'set' must be a table"),
    "grid_text": ("task = 'running_sum'\ngrid = 'abc'", "field 'grid' must be a table"),
    "grid_list": ("task = 'running_sum'\ngrid = [1, 2]", "field 'grid' must be a table"),
    "nan_override": ("task = 'running_sum'\n[set]\nlr = nan", "field 'set.lr' is nan"),
    "inf_axis": ("task = 'running_sum'\n[grid]\nlr = [1e-3, inf]", "field 'grid.lr[1]' is inf"),
    "date_value": ("task = 'running_sum'\nseed = 1979-05-27", "date/time"),
    "table_as_seed": ("task = 'running_sum'\nseed = {a = 1}", "field 'seed' must be a value"),
    "not_utf8": (b"task = '\xff'", "not UTF-8"),
    "not_toml": ("task = = 1", "not valid TOML"),
}


@pytest.mark.parametrize("kind", sorted(TOMLS))
def test_hostile_sweep_toml_is_one_line(capsys, tmp_path, kind):
    text, match = TOMLS[kind]
    grid = tmp_path / "g.toml"
    grid.write_bytes(text if isinstance(text, bytes) else text.encode())
    refused(capsys, "sweep", grid, "--out", tmp_path / "out", "--dry-run", match=match)
    assert files_under(tmp_path / "out") == []


@pytest.mark.parametrize("doc,match", [
    ({"task": "running_sum", "set": 5}, "field 'set' must be a table"),
    ({"task": "running_sum", "grid": [1, 2]}, "field 'grid' must be a table"),
    ([1, 2], "must hold a JSON object"),
])
def test_hostile_sweep_json_is_one_line(capsys, tmp_path, doc, match):
    (tmp_path / "g.json").write_text(json.dumps(doc))
    refused(capsys, "sweep", tmp_path / "g.json", "--out", tmp_path / "out", "--dry-run", match=match)


def test_a_good_toml_grid_still_expands(capsys, tmp_path):
    (tmp_path / "g.toml").write_text("task = 'running_sum'\npe = ['alibi', 'rope']\n# a comment with [[[[\n"
                                     "[set]\nepochs = 1\n[grid]\n'task.n_train' = [8, 16]\n")
    rc, out, err = cli(capsys, "sweep", tmp_path / "g.toml", "--out", tmp_path / "out", "--dry-run")
    assert rc == 0, err
    assert len(out.strip().splitlines()) == 4
