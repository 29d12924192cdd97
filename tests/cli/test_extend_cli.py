"""``petheory extend``: the context-extension table of trained runs; bad input is one line and exit 2."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def smoke_runs(tmp_path_factory):
    from petheory.nn import preset
    from petheory.nn.training import train

    root = tmp_path_factory.mktemp("runs")
    for task, pe in (("passkey", "rope"), ("mqar", "rope"), ("passkey", "alibi")):
        train(preset(task, "smoke", pe=pe, ablate=False), out_dir=root / f"{task}-{pe}")
    return root


def test_extend_prints_a_table_and_writes_json(smoke_runs, tmp_path, capsys):
    from petheory.cli import main

    out = tmp_path / "ext.json"
    assert main(["extend", str(smoke_runs / "passkey-rope"), "--method", "rope_pi", "--method", "rope_yarn:scale=2",
                 "--lengths", "16,32", "--depths", "0,1", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert set(data["methods"]) == {"rope_pi", "rope_yarn:scale=2"} and data["lengths"] == [16, 32]
    assert data["methods"]["rope_pi"]["by_length"]["32"]["coverage"]["out_of_range"] == 0
    assert set(data["methods"]["rope_pi"]["grid"]["32"]) == {"0", "1"}
    assert main(["extend", str(smoke_runs / "mqar-rope"), "--lengths", "16,32", "--finetune-steps", "1"]) == 0
    text = capsys.readouterr().out
    assert "after 1 fine-tuning steps at 32" in text and "rope_yarn" in text


@pytest.mark.parametrize("args, words", [
    (["{runs}/nowhere"], "is not a run directory"),
    (["{runs}/passkey-alibi"], "swaps the rotary angles of a RoPE model"),
    (["{runs}/passkey-rope", "--method", "alibi"], "not a rotary registry entry"),
    (["{runs}/passkey-rope", "--method", "rope_pi:scale=0.5"], "scale"),
    (["{runs}/passkey-rope", "--lengths", "16,x"], "--lengths must be integers >= 1, got '16,x'"),
    (["{runs}/passkey-rope", "--depths", "0,2"], "--depths must be real numbers >= 0 and <= 1, got [0.0, 2.0]"),
    (["{runs}/mqar-rope", "--depths", "0.5"], "--depths must be left out of a mqar run (the length x depth grid is a "
                                              "passkey run's), got [0.5]"),
    (["{runs}/passkey-rope", "--finetune-steps", "-1"], "--finetune-steps must be >= 0"),
    (["{runs}/passkey-rope", "--finetune-steps", "1", "--finetune-length", "8"],
     "--finetune-length must be > the training length 16 (a longer context), got 8"),
])
def test_extend_bad_input_is_one_line_and_exit_2(smoke_runs, args, words, capsys):
    from petheory.cli import main

    assert main(["extend", *(a.format(runs=smoke_runs) for a in args)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("petheory: error:") and words in err[0]


def test_extend_refuses_a_task_that_is_not_a_causal_lm(tmp_path, capsys):
    from petheory.cli import main
    from petheory.nn import preset
    from petheory.nn.training import train

    train(preset("gu2025_task1", "smoke", pe="rope", ablate=False), out_dir=tmp_path / "gu")
    assert main(["extend", str(tmp_path / "gu"), "--method", "rope_pi"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "gu2025_task1 is a classification task" in err[0]


def test_extend_prints_the_record_the_library_gives(smoke_runs, capsys):
    from petheory.cli import main
    from petheory.errors import ValidationError
    from petheory.experiments.extend import extend_run

    run = smoke_runs / "passkey-rope"
    rec = extend_run(run, ["rope_pi"], lengths=[16, 32], depths=[0.0, 1.0])
    assert main(["extend", str(run), "--method", "rope_pi", "--lengths", "16,32", "--depths", "0,1"]) == 0
    assert capsys.readouterr().out == str(rec) + "\n"
    assert main(["extend", str(run), "--method", "rope_pi", "--lengths", "16,32", "--depths", "0,1", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == rec.as_dict()
    assert list(rec.as_dict()) == ["run", "task", "pe", "train_seq_len", "metric", "lengths", "methods"]
    assert str(rec).splitlines()[-2:] == ["      16  " + "  ".join(f"{rec.methods['rope_pi']['grid']['16'][d]:.2f}"
                                                                   for d in ("0", "1")),
                                         "      32  " + "  ".join(f"{rec.methods['rope_pi']['grid']['32'][d]:.2f}"
                                                                   for d in ("0", "1"))]
    with pytest.raises(ValidationError, match="finetune_steps must be >= 0"):
        extend_run(run, finetune_steps=-1)
