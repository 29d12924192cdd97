"""``petheory bounds``: answers for every registered PE, JSON output, one-line errors with exit code 2."""

import json
import math

import numpy as np
import pytest

from petheory import encodings as enc
from petheory.cli import main


def run_json(capsys, *args):
    assert main(["bounds", *args, "--json", "-"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_registered_pe_answers(capsys):
    rows = run_json(capsys, "--lengths", "120", "--context", "50", "-d", "16")["rows"]
    assert sorted(r["pe"] for r in rows) == enc.available()
    for r in rows:
        assert r["norm"]["computed"] is not None and r["B0"] >= 1.0 and r["rademacher"] > 0


def test_numbers_are_the_library_numbers(capsys):
    (r,) = run_json(capsys, "--pe", "sinusoidal", "--lengths", "300", "-d", "64", "--m", "400", "--weight-norm", "2",
                    "--lipschitz", "3", "--token-norm", "0.5")["rows"]
    assert r["norm"]["stated"] == 8.0 and math.isclose(r["norm"]["computed"], math.sqrt(32), rel_tol=1e-12)
    assert math.isclose(r["rademacher"], 2 * 3 * (0.5 + math.sqrt(32)) / 20, rel_tol=1e-12)


def test_alibi_rows_carry_eq9_and_parameters_parse(capsys):
    out = run_json(capsys, "--pe", "alibi:slope=0.5", "--pe", "wavelet:wavelet=db4,normalisation=none",
                   "--lengths", "100,400", "--context", "50", "--distance", "120")
    a = [r for r in out["rows"] if r["pe"] == "alibi"]
    assert [r["norm"]["stated"] for r in a] == [0.5 * 99, 0.5 * 399]
    assert a[0]["eq9"]["bound"] == 0.25 * 0.5 * (120 - 50)
    w = [r for r in out["rows"] if r["pe"] == "wavelet"]
    assert w[0]["params"]["wavelet"] == "db4" and w[0]["norm"]["explicit"] >= w[0]["norm"]["computed"]


def test_table_output(capsys):
    assert main(["bounds", "--pe", "sinusoidal,rope,alibi", "--lengths", "64"]) == 0
    out = capsys.readouterr().out
    assert "sqrt(d_model)" in out and "R_m bound" in out


@pytest.mark.parametrize("args, message", [
    (["--m", "0"], "--m must be >= 1"),
    (["--weight-norm", "-1"], "--weight-norm must be >= 0"),
    (["--lipschitz", "-2"], "--lipschitz must be >= 0"),
    (["--token-norm", "-1"], "--token-norm must be >= 0"),
    (["--pe", "alibi", "--context", "50", "--distance", "40"], "distance must be > n_max = 50 (Eq. 9 is about keys beyond the training length), got 40"),
    (["--pe", "sinusoidal", "--distance", "40"], "applies to alibi"),
    (["--pe", "wavelet:wavelet=db99"], "discrete PyWavelets family"),
    (["--pe", "fourier"], "unknown encoding 'fourier'"),
    (["--lengths", "0"], "--lengths must be integers >= 1"),
    (["--lengths", "ten"], "--lengths must be integers >= 1, got 'ten'"),
    (["--pe", "sinusoidal:foo=1"], "sinusoidal takes"),
    (["--lipschitz", "2", "--checkpoint", "x"], "not both"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, message):
    assert main(["bounds", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_checkpoint_gives_lipschitz_from_weights(capsys, tmp_path):
    pytest.importorskip("torch")
    from petheory.nn import preset, train

    train(preset("running_sum", "smoke", pe="alibi", epochs=1, ablate=False, **{"task.n_train": 16, "task.n_test": 4}),
          out_dir=tmp_path)
    out = run_json(capsys, "--pe", "alibi", "--checkpoint", str(tmp_path), "--lengths", "60", "--context", "50")
    lip = out["lipschitz"]
    assert lip["total"] > 1 and any(f[0] == "head" for f in lip["factors"])
    assert math.isclose(out["rows"][0]["rademacher"], lip["total"] * 1.0 / math.sqrt(1000), rel_tol=1e-12)


def test_bounds_accepts_a_user_table(capsys, tmp_path):
    T = np.random.default_rng(0).normal(size=(40, 8))
    np.save(tmp_path / "my.npy", T)
    assert main(["bounds", "--pe", str(tmp_path / "my.npy"), "--lengths", "20,50", "--json", "-"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    norms = np.linalg.norm(T, axis=1)
    assert rows[0]["norm"]["computed"] == pytest.approx(norms[:20].max())
    assert rows[1]["norm"]["computed"] == pytest.approx(norms.max()) and "reuse the last row" in rows[1]["norm"]["note"]
    assert rows[0]["B0"] == pytest.approx(1 + norms[:20].max())
    assert rows[0]["rademacher"] == pytest.approx(rows[0]["B0"] / np.sqrt(1000))


@pytest.mark.parametrize("spec,n_max", [("rope_yarn:scale=4,n_max=32768", 32768), ("learned:n_max=50", 50),
                                        ("wavelet:n_max=50", 50)])
def test_bounds_takes_a_specs_own_n_max_as_the_training_length(spec, n_max, capsys):
    assert main(["bounds", "--pe", spec, "--lengths", "4096", "--json", "-"]) == 0
    [row] = json.loads(capsys.readouterr().out)["rows"]
    assert row["n_max"] == n_max
    assert main(["bounds", "--pe", spec, "--lengths", "4096", "--context", str(n_max), "--json", "-"]) == 0  # the same: fine
    assert json.loads(capsys.readouterr().out)["rows"][0]["n_max"] == n_max


def test_bounds_refuses_two_different_training_lengths_as_bad_input(capsys):
    assert main(["bounds", "--pe", "learned:n_max=50", "--context", "40", "--lengths", "100"]) == 2
    err = capsys.readouterr().err
    assert "--context must be the spec's own n_max=50" in err and "give one" in err


def test_yarn_original_context_comes_from_the_spec_then_n_max_then_the_registry(capsys):
    def n_max(*argv):
        assert main(["bounds", "--pe", "rope_yarn:scale=4", "--lengths", "8192", "--json", "-", *argv]) == 0
        return json.loads(capsys.readouterr().out)["rows"][0]["norm"]["params"]["n_max"]

    assert n_max() == 2048  # the registry's default, named in --help
    assert n_max("--context", "4096") == 4096
    with pytest.raises(SystemExit):
        main(["bounds", "--help"])
    assert "YaRN's original context" in capsys.readouterr().out


def test_piped_bounds_table_shows_specs_whole(capsys):
    specs = ["rope_yarn:scale=4,beta=32,alpha=1,n_max=32768", "rope_yarn:scale=4,beta=16,alpha=1,n_max=32768"]
    assert main(["bounds", "--pe", specs[0], "--pe", specs[1], "--lengths", "65536"]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "rope_yarn" in ln]
    assert len(lines) == 2 and "beta=32," in lines[0] and "beta=16," in lines[1]
    assert all("…" not in ln for ln in lines)
