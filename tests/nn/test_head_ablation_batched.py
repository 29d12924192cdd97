"""head_ablation batched across heads (one forward per layer for all of its heads, from the cached
residual stream) against the definition: evaluate() of each Transformer.ablated model."""

from __future__ import annotations

import importlib

import pytest
import torch

from petheory.nn import preset

T = importlib.import_module("petheory.nn.train")
U32 = torch.finfo(torch.float32).eps / 2


def reference(model, split, kind, batch_size=256):
    metric = T.PRIMARY[kind]
    base = T.evaluate(model, split, kind, batch_size=batch_size)[metric]
    out = []
    for layer in range(model.cfg.n_layer):
        for h in range(model.cfg.n_head):
            with model.ablated([(layer, h)]):
                out.append(T.evaluate(model, split, kind, batch_size=batch_size)[metric])
    return base, out


def trained(task, pe, **kw):
    cfg = preset(task, "smoke", pe=pe, seed=0, **kw)
    device, data, mcfg, model, opt, sched, gen, steps = T.setup(cfg)
    perm = torch.randperm(len(data.train), generator=gen)
    for s in range(steps):  # one epoch: heads that matter, so that ablations differ
        b = T.train_batch(data.train, perm[s * cfg.batch_size:(s + 1) * cfg.batch_size], device)
        T.train_step(model, opt, b, data.kind, device=device, amp=False, sched=sched)
    return model, data


@pytest.mark.parametrize("task,pe", [("running_sum", "rope"), ("gu2025_task1", "alibi"), ("gu2025_task1", "mla"),
                                     ("copy", "rope:pairing=half"), ("parity", "nope")])
def test_batched_ablation_equals_evaluating_each_ablated_model(task, pe):
    model, data = trained(task, pe)
    split = T.test_split(data)
    got = T.head_ablation(model, split, data.kind, batch_size=64)
    base, want = reference(model, split, data.kind)
    # float32 forwards at another batch composition: sums of O(d) terms per output, a few ulps; a
    # mean of n per-sample values of scale s differs by ~2^6 u s. An accuracy may flip one near-tie sample.
    n = len(split)
    scale = max(abs(base), *map(abs, want), 1.0)
    tol = 2**6 * U32 * scale + (1.0 / n if T.PRIMARY[data.kind] != "mse" else 0.0)
    assert got["baseline"] == pytest.approx(base, abs=tol)
    assert [(h["layer"], h["head"]) for h in got["heads"]] == [(l, h) for l in range(model.cfg.n_layer)
                                                                  for h in range(model.cfg.n_head)]
    for h, w in zip(got["heads"], want, strict=True):
        assert h["value"] == pytest.approx(w, abs=tol)
    if T.PRIMARY[data.kind] == "mse":  # the ablations do something (an accuracy after one smoke epoch may not move)
        assert any(abs(h["drop"]) > tol for h in got["heads"])
    assert all(float(b.attn.head_mask.sum()) == model.cfg.n_head for b in model.blocks)  # masks restored


def test_a_wrong_head_order_would_be_caught():
    """Planted violation: the values of the heads in reverse order differ from the reference's."""
    model, data = trained("running_sum", "rope", **{"model.n_head": 2})
    split = T.test_split(data)
    got = T.head_ablation(model, split, data.kind)
    _, want = reference(model, split, data.kind)
    vals = [h["value"] for h in got["heads"]]
    assert vals[::-1] != pytest.approx(want, abs=2**6 * U32 * max(map(abs, want)))
