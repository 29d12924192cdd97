"""Hostile model configurations (``--pe hf:DIR`` / ``--pe PATH/config.json``): one line, exit 2, the field named.

Each row writes a config.json into a fresh directory and runs a command on it; the message must
name what is wrong (the field, or what is supported) and nothing may be written.
"""

from __future__ import annotations

import json

import pytest
from hostile_util import MODEL_CONFIG_ROWS as ROWS
from hostile_util import files_under, refused



@pytest.mark.parametrize("name,content,match", ROWS, ids=[r[0] for r in ROWS])
@pytest.mark.parametrize("how", ["hf-dir", "config-path"])
def test_malformed_config_is_one_line_exit_2(capsys, tmp_path, name, content, match, how):
    d = tmp_path / "model"
    d.mkdir()
    cfg = d / "config.json"
    if isinstance(content, bytes):
        cfg.write_bytes(content)
    else:
        cfg.write_text(content if isinstance(content, str) else json.dumps(content))
    spec = f"hf:{d}" if how == "hf-dir" else str(cfg)
    out = tmp_path / "out"
    refused(capsys, "report", "--pe", spec, "--json", out / "r.json", match=match)
    refused(capsys, "spectrum", "--pe", spec, "--length", "64", "--json", out / "s.json", match=match)
    assert files_under(out) == []


def test_missing_config_path_says_no_such_file(capsys, tmp_path):
    refused(capsys, "report", "--pe", tmp_path / "nope" / "config.json", match="no such file")


def test_directory_without_config_or_weights_names_config_json(capsys, tmp_path):
    refused(capsys, "spectrum", "--pe", f"hf:{tmp_path}", match="no config.json")
