"""head_ablation batched across heads (one baseline forward; per layer, its attention output minus
each head's slice through the output projection, then only the rest of the model on the copies)
against the definition, evaluate() of each Transformer.ablated model, and against the cached-stream
form it replaced; the baseline metrics it hands back to train() against evaluate(), bit for bit."""

from __future__ import annotations

import pytest
import torch

from petheory.nn import ablation, evaluation, preset, training

U32 = torch.finfo(torch.float32).eps / 2


def reference(model, split, kind, batch_size=256):
    metric = ablation.PRIMARY[kind]
    base = evaluation.evaluate(model, split, kind, batch_size=batch_size)[metric]
    out = []
    for layer in range(model.cfg.n_layer):
        for h in range(model.cfg.n_head):
            with model.ablated([(layer, h)]):
                out.append(evaluation.evaluate(model, split, kind, batch_size=batch_size)[metric])
    return base, out


def trained(task, pe, **kw):
    cfg = preset(task, "smoke", pe=pe, seed=0, **kw)
    device, data, mcfg, model, opt, sched, gen, steps = training.setup(cfg)
    perm = torch.randperm(len(data.train), generator=gen)
    for s in range(steps):  # one epoch: heads that matter, so that ablations differ
        b = evaluation.train_batch(data.train, perm[s * cfg.batch_size:(s + 1) * cfg.batch_size], device)
        evaluation.train_step(model, opt, b, data.kind, device=device, amp=False, sched=sched)
    return model, data


def cached_stream(model, split, kind, batch_size=256):
    """The form head_ablation had before (cf. git 4f22285): one forward caches the stream entering each
    layer; per (layer, head), the layers from that one on run with the head zeroed."""
    metric, L, H = ablation.PRIMARY[kind], model.cfg.n_layer, model.cfg.n_head
    sums = [None] * (L * H)
    model.eval()
    with torch.no_grad():
        for a in range(0, len(split), batch_size):
            b = evaluation.trim_padding(split.batch(slice(a, a + batch_size)))
            h = model._embed(b.x)
            streams = [h]
            for blk in model.blocks:
                h = blk(h)
                streams.append(h)
            for l in range(L):
                for hh in range(H):
                    with model.ablated([(l, hh)]):
                        x = streams[l]
                        for blk in model.blocks[l:]:
                            x = blk(x)
                        s = {k: v.double() for k, v in evaluation.batch_sums(kind, model._head(x).float()[None], b).items()}
                    i = l * H + hh
                    sums[i] = s if sums[i] is None else {k: sums[i][k] + s[k] for k in s}
    return [evaluation.finish_sums(kind, {k: v[0] for k, v in s.items()}, len(split))[metric] for s in sums]


# Every position mechanism a model takes: rotary (interleaved, half-split), MLA's decoupled RoPE, an
# additive bias (ALiBi), an absolute PE, none, and the Scale Hint's per-instance positions (rotary and
# bias), causal (running_sum, copy: LM) and not (gu2025_task1, parity, running_sum causal=False).
CASES = [("running_sum", "rope", {}), ("running_sum", "rope", {"model.causal": False}), ("gu2025_task1", "alibi", {}),
         ("gu2025_task1", "mla", {}), ("gu2025_task1", "sinusoidal", {}), ("copy", "rope:pairing=half", {}),
         ("parity", "nope", {}), ("copy", "rope:hint=interp", {}), ("gu2025_task1", "alibi:hint=interp", {}),
         ("copy", "alibi", {})]


@pytest.mark.parametrize("task,pe,kw", CASES)
def test_batched_ablation_equals_evaluating_each_ablated_model(task, pe, kw):
    model, data = trained(task, pe, **kw)
    split = evaluation.test_split(data)
    got = ablation.head_ablation(model, split, data.kind, batch_size=64)
    base, want = reference(model, split, data.kind)
    # float32 forwards at another batch composition: sums of O(d) terms per output, a few ulps; the
    # ablated attention output m - W_O[:, h] y_h instead of s + W_O y_{-h} + b_O: a few ulps of
    # sum_j |W_O[:, j] y_j|, of the order of the stream it joins; through the LayerNorms and the
    # rest of the model that stays a few ulps of each output. A mean of n per-sample values of scale
    # s then differs by ~2^6 u s. An accuracy may flip one near-tie sample (1/n).
    n = len(split)
    scale = max(abs(base), *map(abs, want), 1.0)
    tol = 2**6 * U32 * scale + (1.0 / n if ablation.PRIMARY[data.kind] != "mse" else 0.0)
    assert got["baseline"] == pytest.approx(base, abs=tol)
    assert [(h["layer"], h["head"]) for h in got["heads"]] == [(l, h) for l in range(model.cfg.n_layer)
                                                                  for h in range(model.cfg.n_head)]
    for h, w in zip(got["heads"], want, strict=True):
        assert h["value"] == pytest.approx(w, abs=tol)
    if ablation.PRIMARY[data.kind] == "mse":  # the ablations do something (an accuracy after one smoke epoch may not move)
        assert any(abs(h["drop"]) > tol for h in got["heads"])
    assert all(float(b.attn.head_mask.sum()) == model.cfg.n_head for b in model.blocks)  # masks restored


def test_a_wrong_head_order_would_be_caught():
    """Planted violation: the values of the heads in reverse order differ from the reference's."""
    model, data = trained("running_sum", "rope", **{"model.n_head": 2})
    split = evaluation.test_split(data)
    got = ablation.head_ablation(model, split, data.kind)
    _, want = reference(model, split, data.kind)
    vals = [h["value"] for h in got["heads"]]
    assert vals[::-1] != pytest.approx(want, abs=2**6 * U32 * max(map(abs, want)))


@pytest.mark.parametrize("task,pe,kw", [CASES[0], CASES[2], CASES[7]])
def test_batched_ablation_equals_the_cached_stream_form_it_replaced(task, pe, kw):
    model, data = trained(task, pe, **kw)
    split = evaluation.test_split(data)
    got = [h["value"] for h in ablation.head_ablation(model, split, data.kind, batch_size=64)["heads"]]
    want = cached_stream(model, split, data.kind, batch_size=64)
    scale = max(*map(abs, want), 1.0)
    tol = 2**6 * U32 * scale + (1.0 / len(split) if ablation.PRIMARY[data.kind] != "mse" else 0.0)  # as above
    assert got == pytest.approx(want, abs=tol)


@pytest.mark.parametrize("task,pe,kw", [CASES[0], CASES[2], CASES[5], CASES[8]])
def test_ablation_baseline_of_each_part_is_evaluate_bit_for_bit(task, pe, kw):
    """train() takes its final train/test metrics from these: the same batches, forwards and float64 sums."""
    model, data = trained(task, pe, **kw)
    test = evaluation.test_split(data)
    parts = ablation.ablation_parts(data.train, test)
    abl, metrics = ablation.ablate_heads(model, parts, data.kind, batch_size=48)
    assert metrics == [evaluation.evaluate(model, sp, data.kind, batch_size=48) for sp in parts]
    union = ablation.head_ablation(model, ablation.concat_splits(data.train, test), data.kind, batch_size=48)
    assert abl["baseline"] == pytest.approx(union["baseline"], rel=2**6 * U32)  # the union's sums in another order


def test_a_wrong_head_slice_would_be_caught():
    """Planted violation: removing the neighbouring head's slice of W_O instead of the head's own."""
    model, data = trained("running_sum", "rope", **{"model.n_head": 2})
    split = evaluation.test_split(data)
    real = torch.einsum
    swapped = lambda eq, y, w: real(eq, y, w.roll(1, dims=1))  # noqa: E731
    torch.einsum = swapped
    try:
        got = [h["value"] for h in ablation.head_ablation(model, split, data.kind)["heads"]]
    finally:
        torch.einsum = real
    _, want = reference(model, split, data.kind)
    assert got != pytest.approx(want, abs=2**6 * U32 * max(map(abs, want)))
