"""Training: it learns, it resumes exactly, it checkpoints safely, and every PE trains on every task."""

import dataclasses
import math

import pytest
import torch

from petheory.nn import TrainConfig, pe_names, preset, tasks, train
from petheory.nn.training import CHECKPOINT, RECORD, load_checkpoint, lr_lambda, resolve_device, without_timing

torch.set_num_threads(1)


def test_smoke_running_sum_cuts_the_training_loss_tenfold():
    rec = train(preset("running_sum", "smoke", pe="rope", ablate=False))
    first, last = rec["initial"]["train"]["mse"], rec["final"]["train"]["mse"]
    assert last * 10 <= first, (first, last)
    # and it is learning the task, not just the output scale: far below predicting 0 (Var = 1/3)
    assert rec["final"]["test"]["50"]["mse"] < rec["chance"]["mse_at_train_len"] / 5


def _task1_fast():
    # Task 1 shrunk to distances 1..6 in 16-word sentences: ~10 s on one core.
    return preset("gu2025_task1", "smoke", pe="rope", epochs=12, batch_size=32, lr=3e-3, ablate=False,
                  **{"task.n_samples": 3000, "task.max_between": 6, "task.max_side": 3, "task.cut": 14, "task.max_len": 16,
                     "model.d_model": 32, "model.d_ff": 64, "model.n_layer": 2})


def test_task1_with_rope_beats_chance_on_a_shrunk_task():
    rec = train(_task1_fast())
    acc, chance = rec["final"]["test"]["16"]["acc"], rec["chance"]["acc"]
    assert acc > 2.5 * chance, (acc, chance)


@pytest.mark.slow
def test_task1_with_rope_beats_chance_clearly_at_the_small_preset():
    rec = train(preset("gu2025_task1", "small", pe="rope", ablate=False))
    acc, chance = rec["final"]["test"]["32"]["acc"], rec["chance"]["acc"]
    assert acc > 3 * chance, (acc, chance)


class _Killed(Exception):
    pass


@pytest.mark.parametrize("stop_after", [1, 2])
def test_resume_after_interruption_gives_identical_records(tmp_path, stop_after):
    # Dropout on: resuming must also restore the RNG streams, not just the weights.
    cfg = preset("gu2025_task1", "smoke", pe="alibi", epochs=3, **{"model.dropout": 0.1})
    full = train(cfg, tmp_path / "full")

    def kill(epoch, _entry):
        if epoch == stop_after:
            raise _Killed

    with pytest.raises(_Killed):
        train(cfg, tmp_path / "cut", on_epoch=kill)
    assert load_checkpoint(tmp_path / "cut" / CHECKPOINT)["epoch"] == stop_after
    assert not (tmp_path / "cut" / RECORD).exists()
    resumed = train(cfg, tmp_path / "cut")
    assert without_timing(resumed) == without_timing(full)
    assert without_timing(train(cfg)) == without_timing(full)  # no out_dir: the same numbers


def test_a_finished_run_is_read_back_not_retrained(tmp_path):
    cfg = preset("copy", "smoke", pe="nope")
    rec = train(cfg, tmp_path)
    calls = []
    again = train(cfg, tmp_path, on_epoch=lambda e, _: calls.append(e))
    assert again == rec and calls == []
    from petheory.records import source_hash

    assert rec["source"] == source_hash()  # the package source the run was trained from


def test_corrupt_or_missing_or_foreign_checkpoints_are_clear_errors(tmp_path):
    cfg = preset("copy", "smoke", pe="nope", epochs=1)
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / CHECKPOINT).write_bytes(b"not a zip file at all")
    with pytest.raises(ValueError, match="corrupt"):
        train(cfg, tmp_path / "bad")
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        load_checkpoint(tmp_path / "nothing.pt")
    train(cfg, tmp_path / "run")
    (tmp_path / "run" / RECORD).unlink()
    other = dataclasses.replace(cfg, seed=1)
    with pytest.raises(ValueError, match="different config"):
        train(other, tmp_path / "run")
    torch.save({"model": {}}, tmp_path / "plain.pt")
    with pytest.raises(ValueError, match="not a petheory checkpoint"):
        load_checkpoint(tmp_path / "plain.pt")


def test_checkpoint_holds_optimizer_scheduler_and_rng_state(tmp_path):
    train(preset("parity", "smoke", pe="rope", epochs=1), tmp_path)
    st = load_checkpoint(tmp_path / CHECKPOINT)
    assert {"model", "optimizer", "scheduler", "rng", "history", "epoch"} <= set(st)
    assert st["optimizer"]["state"] and "torch" in st["rng"] and "shuffle" in st["rng"]


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_absent_device_is_a_clear_error():
    with pytest.raises(ValueError, match="CUDA is not available"):
        resolve_device("cuda")
    with pytest.raises(ValueError, match="CUDA is not available"):
        train(preset("copy", "smoke", device="cuda"))
    with pytest.raises(ValueError, match="unknown device"):
        resolve_device("tpu9")


def test_config_round_trips_and_hash_is_stable():
    cfg = preset("gu2025_task2", "paper", pe="alibi:slopes=gu2025", seed=3)
    again = TrainConfig.from_dict(cfg.as_dict())
    assert again.hash() == cfg.hash() and again.as_dict() == cfg.as_dict()
    assert cfg.betas == (0.98, 0.9) and cfg.epochs == 150 and cfg.task.params["drop_zero"] is True
    assert preset("gu2025_task1", "paper", pe="mla").batch_size == 1024
    assert dataclasses.replace(cfg, seed=4).hash() != cfg.hash()


def test_warmup_then_cosine_schedule():
    total = 100
    assert lr_lambda(0, total, 0.06, "cosine") == pytest.approx(1 / 6)
    assert lr_lambda(5, total, 0.06, "cosine") == pytest.approx(1.0)
    assert lr_lambda(6, total, 0.06, "cosine") == pytest.approx(1.0)
    assert lr_lambda(53, total, 0.06, "cosine") == pytest.approx(0.5)
    assert lr_lambda(100, total, 0.06, "cosine") == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"pe": "rope:heads=9"}, "k must be in 1..2"),
        ({"pe": "nonsense"}, "unknown PE"),
        ({"pe": "rope", "model.d_model": 6, "model.n_head": 2}, "even head dimension"),
        ({"epochs": 0}, "epochs must be"),
        ({"task.not_a_param": 1}, "has no parameter"),
        ({"model.colour": 1}, "unknown model setting"),
    ],
)
def test_bad_training_configs_raise(kw, match):
    with pytest.raises(ValueError, match=match):
        train(preset("copy", "smoke", **kw))


def test_unknown_task_or_preset_raises():
    with pytest.raises(ValueError, match="unknown task"):
        preset("sorting", "smoke")
    with pytest.raises(ValueError, match="size must be one of"):
        preset("copy", "huge")


# --------------------------------------------------------------------------- the smoke matrix


@pytest.mark.parametrize("pe", pe_names())
@pytest.mark.parametrize("task", tasks.available())
def test_every_encoding_trains_on_every_task_at_the_smoke_preset(task, pe):
    rec = train(preset(task, "smoke", pe=pe))
    loss = "mse" if rec["kind"] == "regression" else "loss"
    first, last = rec["initial"]["train"][loss], rec["final"]["train"][loss]
    assert math.isfinite(last) and last < first, (first, last)
    assert len(rec["history"]) == rec["config"]["epochs"]
    assert set(rec["final"]["test"]) == {str(L) for L in tasks.load(rec["config"]["task"]).test}
    heads = rec["ablation"]["heads"]
    assert len(heads) == rec["model"]["n_layer"] * rec["model"]["n_head"]


@pytest.mark.parametrize("pe", ["rope+sinusoidal", "rope:heads=1", "rope:pairing=half", "alibi:slopes=gu2025",
                                "random:trainable=true", "learned:n_max=50,beyond=clamp"])
def test_gu2025_variants_train_at_the_smoke_preset(pe):
    task = "running_sum" if "n_max=50" in pe else "gu2025_task1"
    rec = train(preset(task, "smoke", pe=pe, ablate=False))
    loss = "mse" if rec["kind"] == "regression" else "loss"
    assert rec["final"]["train"][loss] < rec["initial"]["train"][loss]


@pytest.mark.parametrize("task,pe,split", [("gu2025_task1", "rope", "train+test"), ("running_sum", "alibi", "test"),
                                           ("copy", "rope", "train+test")])
def test_final_metrics_are_those_of_evaluating_the_trained_model(tmp_path, task, pe, split):
    """train() takes the final train/test metrics from the last epoch's evaluation and the ablation's
    baseline pass instead of evaluating again: they must be what evaluate() gives, bit for bit."""
    from petheory.nn.evaluation import evaluate
    from petheory.nn.training import load_model

    cfg = preset(task, "smoke", pe=pe, seed=0, ablation_split=split, epochs=2)
    rec = train(cfg, out_dir=tmp_path)
    model, _ = load_model(tmp_path)
    data = tasks.load(cfg.task)
    ev = dict(batch_size=cfg.eval_batch_size)
    assert rec["final"]["train"] == evaluate(model, data.train, data.kind, **ev)
    assert rec["final"]["test"] == {str(L): evaluate(model, sp, data.kind, **ev) for L, sp in data.test.items()}
    assert rec["history"][-1]["test"] == rec["final"]["test"][str(rec["train_len"])]


@pytest.mark.parametrize("pe", ["rope", "alibi", "rope:pairing=half", "t5"])
def test_a_model_evaluated_before_training_still_trains(pe):
    """evaluate() runs under inference mode; the position tables it caches on first use must stay
    ordinary tensors, or the first training step could not save them for backward."""
    from petheory.nn.evaluation import evaluate, train_batch, train_step
    from petheory.nn.training import setup

    cfg = preset("gu2025_task1", "smoke", pe=pe, seed=0)
    device, data, _, model, opt, sched, _, _ = setup(cfg)
    evaluate(model, data.train.batch(slice(0, 8)), data.kind)
    cached = [t for m in model.modules() for v in getattr(m, "_cache", {}).values()
              for t in (v.values() if isinstance(v, dict) else [v]) for t in (t if isinstance(t, tuple) else [t])]
    assert cached and not any(t.is_inference() for t in cached)
    loss = train_step(model, opt, train_batch(data.train, torch.arange(8), device), data.kind, device=device, amp=False)
    assert torch.isfinite(loss)


def test_a_named_commit_wins_over_the_checkout(monkeypatch):
    """A tree copied onto a GPU machine can carry a stale .git (issue 44's first slices recorded the session's first
    commit): $PETHEORY_COMMIT, set by whoever copied it, names the commit; without it, the checkout's HEAD."""
    import subprocess

    from petheory.nn.training import _commit

    monkeypatch.delenv("PETHEORY_COMMIT", raising=False)
    head = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert _commit() == (head or None)
    monkeypatch.setenv("PETHEORY_COMMIT", "abc1234")
    assert _commit() == "abc1234"
