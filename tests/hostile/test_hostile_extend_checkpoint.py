"""``petheory extend`` sizes the model a checkpoint describes before building it: over ``--max-memory`` it is refused
from the estimate, and the model is never built."""

from __future__ import annotations

import json

import pytest
from hostile_util import refused


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
