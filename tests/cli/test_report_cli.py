"""``petheory report`` and ``--pe hf:DIR`` / ``config.json`` in the other commands; the report's numbers checked.

The spectra of the report are certified (``extreme_eigenvalues``); at small L they are compared
with dense ``eigvalsh`` of the same Toeplitz matrix within the reported error bounds (plus the
dense solver's own error, ``N u ||T||``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg as sla
from hostile_util import cli, refused

from petheory.analyses.kernel import rotary_column
from petheory.analyses.report import report
from petheory.loaders import resolve_scheme

DATA = Path(__file__).parents[1] / "data" / "hf_configs"
U = np.finfo(float).eps / 2


def test_report_spectra_agree_with_dense_eigenvalues_within_their_bounds():
    m = resolve_scheme("rope_yarn:scale=4,n_max=96,ramp=code", d=16)
    rep = report(m, length=400, multiples=(1, 2, 3), null_draws=0).as_dict()
    sec = rep["sections"][0]
    assert [s["n"] for s in sec["spectra"]] == [96, 192, 288]
    for s in sec["spectra"]:
        n = s["n"]
        c = rotary_column(np.array(sec["encoding"]["frequencies"]), n, sec["encoding"]["rotary_logit_factor"])
        w = sla.eigvalsh(sla.toeplitz(c))
        dense_err = n * U * np.abs(w).max()
        assert abs(s["lambda_max"] - w[-1]) <= s["error_bounds"][1] + dense_err
        assert abs(s["lambda_min"] - w[0]) <= s["error_bounds"][0] + dense_err
        assert s["certificates"] == ["gram", "gram"]


def test_report_band_regimes_of_llama3_1():
    rep = report(resolve_scheme(DATA / "llama3_1_8b.json"), multiples=(1,), null_draws=3).as_dict()
    sec = rep["sections"][0]
    assert sec["layers"] == list(range(32)) and len(rep["sections"]) == 1
    regimes = [b["regime"] for b in sec["bands"]]
    assert regimes.count("extrapolated") == 29 and regimes.count("interpolated") == 35
    assert rep["context"] == 8192 and rep["length"] == 131072
    # every band that made a full turn within L has seen every phase; the 29 others leave their range at 16 L
    assert sum(not b["phase_seen"] for b in sec["bands"]) == sec["bounds"]["angles"]["out_of_range"] == 29
    assert sec["kernel"]["a0"] == pytest.approx(64.0)  # F * r/2 with F = 1
    assert sec["stress"]["null"]["draws"] == 3


def test_report_of_alibi_and_t5_configs():
    bloom = report(resolve_scheme(DATA / "bloom_560m.json"), multiples=(1, 2), null_draws=0).as_dict()["sections"][0]
    assert len(bloom["heads"]) == 16 and bloom["bands"] == []
    assert bloom["kernel"]["a"][1] == pytest.approx(-bloom["heads"][0]["slope"] * bloom["kernel"]["distance"][1])
    t5 = report(resolve_scheme(DATA / "t5_base.json"), null_draws=0).as_dict()
    assert [(s["type"], len(s["layers"])) for s in t5["sections"]] == [("encoder", 12), ("decoder", 12)]
    for sec in t5["sections"]:
        assert "skipped" in sec["kernel"] and "skipped" in sec["spectra"] and sec["buckets"][-1]["bucket"] == 31


def test_report_cli_terminal_json_markdown_and_figure(capsys, tmp_path):
    model = tmp_path / "llama"
    model.mkdir()
    shutil.copy(DATA / "llama3_1_8b.json", model / "config.json")  # hf:DIR with config.json only
    out = tmp_path / "out"
    rc, stdout, err = cli(capsys, "report", "--pe", f"hf:{model}", "--pe", DATA / "deepseek_v3.json", "--pe",
                          "rope_pi:scale=4", "--multiples", "1,2", "--null-draws", "2",
                          "--json", out / "r.json", "--markdown", out / "r.md", "--figure", out / "cmp.png")
    assert rc == 0, err
    assert "rope_llama3" in stdout and "mla_rope" in stdout and "spectrum  2L" in stdout
    doc = json.loads((out / "r.json").read_text())
    assert [r["sections"][0]["encoding"]["encoding"] for r in doc["reports"]] == ["rope_llama3", "mla_rope", "rope_pi"]
    ds = doc["reports"][1]["sections"][0]
    assert ds["logit_factor"] == pytest.approx(1.8738542)  # DeepSeek-V3's mscale_all_dim, squared
    # its kernel carries that factor once (YaRN's attention factor is 1 for mscale = mscale_all_dim): a_0 = 32 bands x F
    assert ds["kernel"]["a0"] == pytest.approx(32 * 1.8738542)
    assert ds["encoding"]["rotary_logit_factor"] == pytest.approx(1.8738542)
    md = (out / "r.md").read_text()
    assert md.count("#### Bands") == 3 and "| 63 |" in md and "#### Spectrum extremes" in md
    assert (out / "cmp.png").stat().st_size > 10_000 and json.loads((out / "cmp.json").read_text())["models"][0]["label"] == "llama"


def test_report_refuses_tables_and_absolute_encodings(capsys, tmp_path):
    np.save(tmp_path / "t.npy", np.ones((4, 2)))
    refused(capsys, "report", "--pe", tmp_path / "t.npy", match="not the table")
    refused(capsys, "report", "--pe", "sinusoidal", match="report covers rotary encodings, biases ALiBi and T5")
    refused(capsys, "report", "--pe", "kerple_log", match="kerple_log (layers [0]) is bias")
    # -d and --context hold for every --pe: a model's config fixes its own (resolve_scheme's rule, as in plan)
    refused(capsys, "report", "--pe", DATA / "mistral_7b.json", "--context", "10",
            match="error: --context must be the model's own 32768 (its config fixes it")
    refused(capsys, "report", "--pe", DATA / "mistral_7b.json", "-d", "64",
            match="error: --d-model must be the model's own 128 (its config fixes it")
    refused(capsys, "report", "--pe", "rope_pi:scale=4", "--pe", DATA / "mistral_7b.json", "--context", "1024",
            match="error: --context must be the model's own 32768")
    refused(capsys, "report", "--pe", "rope_llama3:scal=8", match="did you mean scale")


def test_config_json_in_other_commands_uses_the_model_head_dimension(capsys, tmp_path):
    rc, out, err = cli(capsys, "spectrum", "--pe", DATA / "gpt_neox_20b.json", "--length", "256", "--json", "-")
    assert rc == 0, err
    rec = json.loads(out)
    enc = rec["resolved_encoding"]
    assert (enc["encoding"], enc["d"], enc["rotary_dim"], enc["model"]) == ("rope", 96, 24, str(DATA / "gpt_neox_20b.json"))
    assert rec["eigenvalues"]["lambda_max"]["value"] > 0 and rec["eigenvalues"]["lambda_min"]["value"] == 0.0  # rank 24
    rc, out, err = cli(capsys, "bounds", "--pe", DATA / "llama3_1_8b.json", "--lengths", "20000", "--json", "-")
    assert rc == 0, err
    row = json.loads(out)["rows"][0]
    assert row["d"] == 128 and row["n_max"] == 8192 and row["angles"]["out_of_range"] == 0  # 20000 < 8 L


def test_every_pe_command_names_the_resolved_encoding(capsys):
    rc, out, _ = cli(capsys, "spectrum", "--pe", "rope_ntk:scale=2", "--length", "64", "--json", "-")
    enc = json.loads(out)["resolved_encoding"]
    assert enc["encoding"] == "rope_ntk" and len(enc["frequencies"]) == 32 and enc["rotary_logit_factor"] == 1.0
    rc, out, _ = cli(capsys, "stress", "--pe", "alibi:slope=0.5", "--null-draws", "0", "--json", "-")
    assert json.loads(out)["resolved_encoding"]["params"] == {"slope": 0.5}
    rc, out, _ = cli(capsys, "bounds", "--pe", "rope_yarn", "--lengths", "100", "--json", "-")
    assert json.loads(out)["resolved_encodings"][0]["rotary_logit_factor"] > 1


def test_which_terms_are_model_configs(tmp_path):
    from petheory.loaders.model_config import config_source

    llama = tmp_path / "llama"
    llama.mkdir()
    shutil.copy(DATA / "llama3_1_8b.json", llama / "config.json")
    assert config_source(f"hf:{llama}") == llama / "config.json"  # config only
    (llama / "model.safetensors").write_bytes(b"")  # weights beside a RoPE config: still the config (no table in them)
    assert config_source(str(llama)) == llama / "config.json"
    bert = tmp_path / "bert"
    bert.mkdir()
    (bert / "config.json").write_text(json.dumps({"model_type": "bert", "hidden_size": 8}))
    assert config_source(f"hf:{bert}") == bert / "config.json"  # no weights: the config decides (unknown type: an error)
    (bert / "pytorch_model.bin").write_bytes(b"")
    assert config_source(f"hf:{bert}") is None  # weights of a learned-table model: the table reader, as before
    assert config_source("hf:minilm") is None and config_source(tmp_path / "t.npy") is None
    assert config_source(tmp_path / "any.json") == tmp_path / "any.json"
