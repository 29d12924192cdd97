"""``petheory stress``: a misspelt parameter or tensor key named with what exists, progress on stderr, its help."""

from __future__ import annotations

import numpy as np
import pytest

from petheory.cli import main


def test_misspelt_param_of_a_named_encoding_is_named_with_a_suggestion(capsys):
    assert main(["stress", "--pe", "sinusoidal:bse=500"]) == 2
    err = capsys.readouterr().err
    assert "did you mean base?" in err and "unexpected keyword" not in err


def test_unknown_key_lists_the_tensors(capsys, tmp_path):
    from safetensors.numpy import save_file

    save_file({"a": np.ones((4, 4)), "b": np.ones((5, 4))}, str(tmp_path / "two.safetensors"))
    assert main(["stress", "--pe", str(tmp_path / "two.safetensors"), "--key", "c"]) == 2
    assert "it has: a (4, 4), b (5, 4)" in capsys.readouterr().err


def test_stress_prints_progress_for_long_work_on_stderr_and_quiet_hides_it(capsys, monkeypatch, tmp_path):
    import numpy as np

    from petheory.cli import stress

    monkeypatch.setattr(stress, "LONG_N", 8)
    X = np.random.default_rng(0).normal(size=(12, 3))
    np.save(tmp_path / "D.npy", np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)))
    argv = ["stress", "--pe", "rope", "-d", "8", "--target", str(tmp_path / "D.npy"), "--null-draws", "20"]
    assert main(argv) == 0
    cap = capsys.readouterr()
    err = [ln.split(" (")[0] for ln in cap.err.splitlines()]
    assert err[0].startswith("stress: stress of rope against") and err[-1] == "stress: [20/20] random tables of the null reference"
    assert len(err) == 11 and "stress    " in cap.out  # a line per 2 draws, and the result
    assert main([*argv, "-q"]) == 0
    cap = capsys.readouterr()
    assert cap.err == "" and "stress    " in cap.out


def test_stress_help_says_the_builtin_corpus_keeps_positions_with_100_observations(capsys):
    from petheory.geometry.distributions import BUILTIN_MIN_COUNT

    with pytest.raises(SystemExit):
        main(["stress", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"fixed at C = {BUILTIN_MIN_COUNT}" in out
