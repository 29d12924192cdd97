"""`petheory train` and `petheory sweep`: they train, resume after kill -9, and turn bad input into one line, exit 2."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import torch

from petheory.cli import main
from petheory.nn import preset, train
from petheory.nn.training import CHECKPOINT, RECORD, without_timing
from _helpers import HANG_S

torch.set_num_threads(1)


def run_cli(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_train_writes_a_record_and_reads_it_back(tmp_path, capsys):
    out = tmp_path / "run"
    rc, _, err = run_cli(capsys, "train", "copy", "--pe", "alibi", "--out", str(out), "--json", str(tmp_path / "r.json"), "--quiet")
    assert rc == 0, err
    rec = json.loads((tmp_path / "r.json").read_text())
    # the command's JSON is the record plus what --pe was understood as (every command names its resolved encoding)
    resolved = rec.pop("resolved_encoding")
    assert rec == json.loads((out / RECORD).read_text())
    assert resolved == {"encoding": "alibi", "kind": "bias", "params": {}, "d": 8}
    rec["resolved_encoding"] = resolved
    assert rec["pe"] == "alibi" and rec["task"] == "copy"
    assert rec["timing"]["threads"] == 1  # the smoke preset's default: one torch thread
    rc, stdout, _ = run_cli(capsys, "train", "copy", "--pe", "alibi", "--out", str(out), "--json", "-")
    assert rc == 0 and json.loads(stdout) == rec
    from petheory.cli._console import show_view
    from petheory.nn.training import record_view

    rc, stdout, _ = run_cli(capsys, "train", "copy", "--pe", "alibi", "--out", str(out))  # read back, then shown
    show_view(record_view(rec))
    assert rc == 0 and stdout == capsys.readouterr().out + f"record: {out / RECORD}\n"
    assert "test @ " in stdout and "largest drop" in stdout


def test_a_record_shows_its_metrics_per_split_with_the_training_length_marked():
    from petheory.texttable import Line, TextTable
    from petheory.nn.training import record_view

    rec = {"task": "copy", "pe": "rope", "seed": 0, "n_params": 10, "timing": {"seconds": 1.25, "device": "cpu"},
           "kind": "lm", "train_len": 8, "initial": {"train": {"token_acc": 0.1}}, "chance": None, "ablation": None,
           "final": {"train": {"token_acc": 0.9}, "test": {"8": {"token_acc": 0.8}, "16": {"token_acc": 0.5}}}}
    head, table = record_view(rec)
    assert head == Line("copy · pe=rope · seed 0 · 10 params · 1.2s on cpu") and isinstance(table, TextTable)
    assert table.rows == (("train (init)", "0.1"), ("train", "0.9"), ("test @ 8 (train len)", "0.8"),
                          ("test @ 16", "0.5"))
    assert table.headers == ("split", "token_acc") and table.right == {1}


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
@pytest.mark.parametrize(
    "argv, match",
    [
        (["train", "sorting"], "unknown task 'sorting'"),
        (["train", "copy", "--pe", "fourier"], "unknown PE 'fourier'"),
        (["train", "copy", "--pe", "rope", "--set", "model.d_model=6", "--set", "model.n_head=2"], "even head dimension"),
        (["train", "copy", "--pe", "rope:heads=3"], "k must be in 1..2"),
        (["train", "running_sum", "--pe", "learned:n_max=20"], "exceeds the 20-row table"),
        (["train", "copy", "--device", "cuda"], "CUDA is not available"),
        (["train", "copy", "--set", "epochs"], "must look like key=value"),
        (["train", "copy", "--preset", "huge"], "--preset must be one of 'smoke', 'small', 'paper', got 'huge'"),
        (["sweep", "--task", "copy", "--pe", "nope", "--engine", "mpi", "--out", "x"], "--engine must be one of"),
        (["sweep", "missing.toml", "--out", "x"], "no such grid file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, match):
    rc, _, err = run_cli(capsys, *argv, *(["--out", str(tmp_path / "o")] if argv[0] == "train" else []))
    assert rc == 2
    lines = [l for l in err.strip().splitlines() if l.strip()]
    assert len(lines) == 1 and match in lines[0], err


def test_missing_and_corrupt_checkpoints_are_one_line_errors(tmp_path, capsys):
    rc, _, err = run_cli(capsys, "train", "copy", "--out", str(tmp_path / "none"), "--resume")
    assert rc == 2 and "no checkpoint" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / CHECKPOINT).write_bytes(b"\x00garbage")
    rc, _, err = run_cli(capsys, "train", "copy", "--out", str(tmp_path / "bad"))
    assert rc == 2 and "corrupt" in err and len(err.strip().splitlines()) == 1


def test_train_resumes_after_kill_minus_9(tmp_path):
    """A real SIGKILL mid-run: the rerun resumes from the last checkpoint and ends with the
    records of an uninterrupted run. The kill lands within a poll (20 ms) of the first checkpoint, with 59 epochs
    left (about 0.8 s here, 13 ms an epoch; a busy machine only leaves more)."""
    out = tmp_path / "run"
    args = ["train", "copy", "--pe", "rope", "--epochs", "60", "--out", str(out), "--threads", "1", "--quiet"]
    cmd = [sys.executable, "-c", "import sys; from petheory.cli import main; sys.exit(main(sys.argv[1:]))", *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while not (out / CHECKPOINT).exists() and proc.poll() is None:  # as long as it takes: a busy machine is slow
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "the run finished before it could be killed"
    assert (out / CHECKPOINT).exists() and not (out / RECORD).exists()
    done = subprocess.run(cmd[:3] + [a for a in args if a != "--quiet"], capture_output=True, text=True, timeout=HANG_S)
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stderr
    resumed = json.loads((out / RECORD).read_text())
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as the killed run (--threads 1): another thread count sums in another order
    try:
        full = train(preset("copy", "smoke", pe="rope", epochs=60))
    finally:
        torch.set_num_threads(threads)
    assert without_timing(resumed) == without_timing(full)


def test_sweep_cli_trains_then_skips(tmp_path, capsys):
    argv = ["sweep", "--task", "copy", "--pe", "nope", "--pe", "rope:heads=1", "--seeds", "0", "1",
            "--set", "epochs=1", "--set", "ablate=false", "--out", str(tmp_path)]
    rc, _, err = run_cli(capsys, *argv, "--json", str(tmp_path / "all.json"), "--quiet")
    assert rc == 0, err
    recs = json.loads((tmp_path / "all.json").read_text())
    assert [(r["pe"], r["seed"]) for r in recs] == [("nope", 0), ("nope", 1), ("rope:heads=1", 0), ("rope:heads=1", 1)]
    rc, out, _ = run_cli(capsys, *argv, "--dry-run")
    assert rc == 0 and out.count("done\t") == 4
    grid = tmp_path / "g.json"
    grid.write_text(json.dumps({"task": "copy", "pe": ["nope", "alibi"], "seed": [0], "set": {"epochs": 1, "ablate": False}}))
    rc, out, _ = run_cli(capsys, "sweep", str(grid), "--out", str(tmp_path), "--dry-run")
    assert rc == 0 and out.count("done\t") == 1 and out.count("todo\t") == 1


def test_set_with_a_word_for_a_number_says_it_is_a_number(capsys):
    assert main(["train", "running_sum", "--set", "lr=abc", "--out", "unused"]) == 2
    err = capsys.readouterr().err
    assert "lr is a number" in err and "must be > 0" not in err


def test_partial_rope_on_too_few_heads_says_how_to_get_more(capsys, tmp_path):
    pytest.importorskip("torch")
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "model.n_head=4 or more" in err  # what --set takes
    # the suggestion works
    assert main(["train", "running_sum", "--pe", "rope:heads=4", "--set", "model.n_head=4", "--epochs", "1",
                 "--set", "ablate=false", "--set", "task.n_train=32", "--quiet", "--out", str(tmp_path / "b")]) == 0


def test_train_prints_a_line_per_epoch_when_not_a_terminal(capsys, tmp_path):
    pytest.importorskip("torch")
    assert main(["train", "running_sum", "--pe", "alibi", "--set", "epochs=2", "--set", "ablate=false",
                 "--set", "task.n_train=32", "--out", str(tmp_path / "r")]) == 0
    err = [l for l in capsys.readouterr().err.splitlines() if l.startswith("train: ")]
    assert [l.split("]")[0] for l in err] == ["train: [1/2", "train: [2/2"]


@pytest.mark.parametrize("setting,suggestion", [("model.n_heads=4", "did you mean model.n_head?"),
                                                ("epoch=3", "did you mean epochs?"),
                                                ("task.n_trian=5", "did you mean n_train?")])
def test_a_misspelt_setting_gets_a_did_you_mean(setting, suggestion, capsys):
    assert main(["train", "copy", "--pe", "rope", "--set", setting]) == 2
    assert suggestion in capsys.readouterr().err


def test_the_d_model_error_names_the_flag_the_user_typed(capsys, tmp_path):
    import numpy as np

    np.save(tmp_path / "pe.npy", np.random.default_rng(0).normal(size=(16, 8)))
    assert main(["stress", "--pe", str(tmp_path / "pe.npy"), "-d", "32"]) == 2
    err = capsys.readouterr().err
    assert "--d-model must be the loaded table's width 8" in err and "got 32" in err
