"""Hostile inputs, round 5 (issue 46.2) outside ``bands``: sweep TOML files, environment variables, plugins that
exit, outputs named twice, limits without a refusal, hand-edited records for ``figures`` and ``compare --records``.
Each case: one ``petheory: error:`` line, exit 2, nothing written (or, for records, skipped and named)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_util import cli, files_under, refused

ROOT = Path(__file__).resolve().parents[2]

# ----------------------------------------------------------------------------- sweep grid files

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


# ----------------------------------------------------------------------------- environment variables


@pytest.mark.parametrize("name,value", [
    ("PETHEORY_MAX_VOCAB", "abc"), ("PETHEORY_MAX_VOCAB", "0"), ("PETHEORY_MAX_VOCAB", "-3"),
    ("PETHEORY_MAX_VOCAB", "4.5"), ("PETHEORY_MAX_VOCAB", "9" * 400), ("PETHEORY_MIN_COUNT", "1e3"),
    ("PETHEORY_MIN_COUNT", "١٢"), ("PETHEORY_MIN_COUNT", "0"), ("PETHEORY_MAX_MEMORY", "lots"),
])
def test_bad_environment_variables_are_named(capsys, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    refused(capsys, "encodings", match=(f"environment variable {name}", "must be" if "MEMORY" not in name else "size"))


def test_environment_integers_are_read_where_they_are_used(monkeypatch):
    from petheory.loaders.environment import env_int

    monkeypatch.setenv("PETHEORY_MAX_VOCAB", " 12 ")
    monkeypatch.delenv("PETHEORY_MIN_COUNT", raising=False)
    assert (env_int("PETHEORY_MAX_VOCAB"), env_int("PETHEORY_MIN_COUNT")) == (12, 100)


def test_every_environment_variable_is_documented():
    from petheory.loaders.environment import VARIABLES

    text = (ROOT / "docs" / "guide" / "reliability.md").read_text(encoding="utf-8")
    assert [v for v in VARIABLES if v not in text] == []


# ----------------------------------------------------------------------------- plugins that exit


@pytest.fixture
def clean_plugins():
    """What a plugin registers is gone after the test (other tests iterate every registered encoding)."""
    import sys

    from petheory import encodings as enc

    enc.available()
    encs, mods = dict(enc._REGISTRY), set(sys.modules)
    yield
    enc._REGISTRY.clear(), enc._REGISTRY.update(encs)
    for m in set(sys.modules) - mods:
        if m.startswith("petheory_plugin_"):
            del sys.modules[m]


@pytest.mark.parametrize("body", ["import sys\nsys.exit(0)\n", "raise SystemExit('plugin says bye')\n",
                                  "import sys\nsys.exit(3)\n"])
def test_a_plugin_that_exits_while_imported_is_petheorys_error(capsys, tmp_path, body, clean_plugins):
    (tmp_path / "bye.py").write_text(body)
    line = refused(capsys, "report", "--pe", "rope", "--plugin", tmp_path / "bye.py", "--json", tmp_path / "r.json",
                   match=("plugin", "sys.exit"))
    assert line.startswith("petheory: error: plugin") and "bye.py" in line  # its own text only inside our line
    assert files_under(tmp_path) == ["bye.py"]


def test_a_plugin_encoding_that_exits_while_the_command_runs(capsys, tmp_path, clean_plugins):
    (tmp_path / "late.py").write_text(
        "import sys\nfrom petheory import encodings as enc\n"
        "@enc.register('late_exit', 'absolute', conventions='exits', source='test')\n"
        "def late(n, d):\n    sys.exit(0)\n")
    refused(capsys, "stress", "--pe", "late_exit", "--plugin", tmp_path / "late.py", "--json", tmp_path / "s.json",
            match=("did not finish", "sys.exit(0)", "late.py"))
    assert not (tmp_path / "s.json").exists()


# ----------------------------------------------------------------------------- outputs named twice; limits


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


# ----------------------------------------------------------------------------- hand-edited records


def _figures_with_an_edit(capsys, tmp_path, monkeypatch, shipped: str, pattern: str, edit, only: str) -> str:
    """Two shipped records of ``shipped`` (files matching ``pattern``) as the records folder and an edited copy of the
    first under runs/; ``petheory figures --only ONLY``; returns the one skip warning (asserted to be the only one)."""
    (tmp_path / "recs").mkdir()
    src = sorted((ROOT / "records" / shipped).glob(pattern))[:2]
    for f in src:
        shutil.copy(f, tmp_path / "recs")
    rec = json.loads(src[0].read_text())
    edit(rec)
    rec["config_hash"] = "edited"
    (tmp_path / "runs" / "x").mkdir(parents=True)
    (tmp_path / "runs" / "x" / "record.json").write_text(json.dumps(rec))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PETHEORY_RECORDS", str(tmp_path / "recs"))
    monkeypatch.delenv("PETHEORY_RUNS", raising=False)
    rc, out, err = cli(capsys, "figures", "--only", only, "--out", tmp_path / "out")
    assert rc == 0, err
    warnings = [ln for ln in err.splitlines() if ln.startswith("petheory: warning: skipping")]
    assert len(warnings) == 1 and "Traceback" not in err, err
    return warnings[0]


EDITS = {  # (edit of a copied record, why it is skipped)
    "length_key_text": (lambda r: r["final"]["test"].__setitem__("abc", r["final"]["test"]["50"]), "'abc'"),
    "length_key_float": (lambda r: r["final"]["test"].__setitem__("1e2", r["final"]["test"].pop("100")), "'1e2'"),
    "length_key_zero_padded": (lambda r: r["final"]["test"].__setitem__("050", r["final"]["test"].pop("50")), "'050'"),
    "length_key_negative": (lambda r: r["final"]["test"].__setitem__("-5", r["final"]["test"]["50"]), "'-5'"),
    "mse_missing": (lambda r: r["final"]["test"]["100"].__setitem__("loss", r["final"]["test"]["100"].pop("mse")),
                    "final.test.100.mse' is missing"),
    "model_not_object": (lambda r: r.__setitem__("model", 5), "field 'model' must be an object"),
    "model_layers_text": (lambda r: r["model"].__setitem__("n_layer", "2"), "model.n_layer"),
    "mixed_test_lengths": (lambda r: r["final"]["test"].pop("200"), "differ from the other seeds'"),
    "train_len_zero": (lambda r: r.__setitem__("train_len", 0), "train_len"),
}


@pytest.mark.parametrize("kind", sorted(EDITS))
def test_figures_skip_a_hand_edited_record_and_name_it(capsys, tmp_path, monkeypatch, kind):
    edit, match = EDITS[kind]
    line = _figures_with_an_edit(capsys, tmp_path, monkeypatch, "li2025_table5", "running_sum__alibi__s[01]__*.json",
                                 edit, "empirical.table5")
    assert match in line
    drawn = json.loads((tmp_path / "out" / "empirical.table5.json").read_text())["readings"]
    assert [e["seeds"] for g in drawn.values() for e in g.values()] == [2]  # the two shipped seeds, never the edit


def test_compare_reads_the_shipped_records_folder(capsys, tmp_path):
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", ROOT / "records" / "li2025_table5",
                       "--null-draws", 2, "--json", tmp_path / "c.json")
    assert rc == 0, err
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["records"]["count"] == 105


def test_compare_says_why_a_records_folder_gave_nothing(capsys, tmp_path):
    (tmp_path / "recs").mkdir()
    (tmp_path / "recs" / "a.json").write_text('{"task": "running_sum"}')
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", tmp_path / "recs", "--null-draws", 2)
    assert rc == 0 and "no training records read" in err and "a.json" in err, err
    rc, out, err = cli(capsys, "compare", "--pe", "wavelet", "--records", tmp_path / "nowhere", "--null-draws", 2)
    assert rc == 0 and "no such folder" in err, err


# ----------------------------------------------------------------------------- extend: the model a checkpoint describes


def test_extend_sizes_the_checkpoints_model_before_building_it(capsys, tmp_path, monkeypatch):
    """A checkpoint whose stored model_config describes ~50M parameters (400 MB with its copy) under --max-memory
    100M: refused from the estimate, and the model is never built."""
    import dataclasses

    import torch

    import importlib

    tr = importlib.import_module("petheory.nn.training")
    from petheory.nn import preset
    from petheory.nn.training import CHECKPOINT, CONFIG

    cfg = preset("passkey", "smoke")
    big = {**dataclasses.asdict(cfg.model), "d_model": 1024, "n_layer": 4, "d_ff": 4096, "n_head": 4,
           "vocab_size": 64, "input_dim": 0, "out_dim": 64, "max_len": 64, "train_len": 32, "causal": True,
           "pe": "rope"}
    run = tmp_path / "run"
    run.mkdir()
    (run / CONFIG).write_text(json.dumps({**cfg.as_dict(), "hash": cfg.hash()}))
    torch.save({"format": "petheory-checkpoint-1", "model_config": big, "model": {}}, run / CHECKPOINT)
    built = []
    monkeypatch.setattr(tr, "build_model", lambda m: built.append(m) or pytest.fail("model built"))
    refused(capsys, "extend", run, "--lengths", "32", "--max-memory", "100M",
            match=("checkpoint", "d_model=1024", "--max-memory"))
    assert built == []


GU_EDITS = {
    "ablation_head_out_of_range": (lambda r: r["ablation"]["heads"][0].__setitem__("head", 99), "ablation.heads"),
    "ablation_not_object": (lambda r: r.__setitem__("ablation", [1]), "field 'ablation' must be an object"),
    "chance_missing": (lambda r: r.pop("chance"), "chance.acc"),
    "accuracy_missing": (lambda r: r["final"]["test"]["32"].pop("acc"), "final.test.32.acc"),
}


@pytest.mark.parametrize("kind", sorted(GU_EDITS))
def test_gu2025_figures_skip_a_hand_edited_record(capsys, tmp_path, monkeypatch, kind):
    edit, match = GU_EDITS[kind]
    assert match in _figures_with_an_edit(capsys, tmp_path, monkeypatch, "gu2025_task1_small", "*.json", edit,
                                          "empirical.gu2025_*")
