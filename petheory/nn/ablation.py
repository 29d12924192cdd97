r"""Head ablation (gu2025 §5.1): the primary metric with each single head zeroed, and its drop.

The record's ``"ablation"`` block, ``{"metric", "split", "baseline", "heads": [{"layer", "head", "value",
"drop"}, ...]}``: :func:`head_ablation` on one split, :func:`ablate_heads` on several parts at once (the
``train+test`` split of gu2025, kept apart by :func:`ablation_parts`).
"""

from __future__ import annotations

import torch

from petheory.nn import tasks as _tasks
from petheory.nn.evaluation import add_sums, autocast, batch_sums, metrics_of, split_to, trim_padding
from petheory.nn.transformer import Transformer

#: The metric that head ablation reports, per task kind (higher is better except mse).
PRIMARY = {"regression": "mse", "classification": "acc", "lm": "token_acc"}


def head_ablation(model: Transformer, split: _tasks.Split, kind: str, *, batch_size: int = 256, amp: bool = False) -> dict:
    """Primary metric with each single head zeroed (gu2025 §5.1), and its drop from the baseline.

    The drop is signed so that a positive drop means the ablation hurt; :func:`ablate_heads` on one split.

    Parameters
    ----------
    model : Transformer
        The trained model.
    split : Split
        The data it is measured on.
    kind : str
        The task's kind (``'regression'``, ``'classification'``, ``'lm'``).
    batch_size : int, optional
        Samples per forward pass.
    amp : bool, optional
        bf16 autocast on CUDA.

    Returns
    -------
    dict
        ``metric`` (its name), ``baseline`` and ``heads`` (per layer and head: the metric and its drop).

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> from petheory.nn.transformer import build_model
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                      "max_len": 256})
    >>> sorted(head_ablation(model, data.test[50], data.kind))
    ['baseline', 'heads', 'metric']
    """
    return ablate_heads(model, [split], kind, batch_size=batch_size, amp=amp)[0]

@torch.inference_mode()
def ablate_heads(model: Transformer, parts: list[_tasks.Split], kind: str, *, batch_size: int = 256,
                 amp: bool = False) -> tuple[dict, list[dict]]:
    """:func:`head_ablation` on the union of ``parts`` (e.g. train and test), and each part's baseline metrics.

    The baselines are equal bit for bit to ``evaluate(model, part, kind, batch_size=batch_size, amp=amp)`` (the same
    batches, forwards and sums): :func:`train` reuses them.

    Parameters
    ----------
    model : Transformer
        The trained model.
    parts : list of Split
        The splits measured together.
    kind : str
        The task's kind.
    batch_size : int, optional
        Samples per forward pass.
    amp : bool, optional
        bf16 autocast on CUDA.

    Returns
    -------
    ablation : dict
        As :func:`head_ablation`, over the union of the parts.
    metrics : list of dict
        Each part's baseline metrics.

    Notes
    -----
    Per batch, one plain forward keeps, per layer ``l``, its heads' outputs ``y_h`` (before the
    output projection ``W_O``) and the stream after its attention, ``m = s + W_O y + b_O``. Zeroing
    head ``h`` changes nothing before that point, where the stream becomes ``m - W_O[:, h] y_h``;
    so per head only the MLP of layer ``l``, the layers after it and the output head run, on the
    ``n_head`` copies at once (chunks of ``batch_size // n_head`` samples). The same metrics as
    evaluating each :meth:`Transformer.ablated` model, up to rounding: ``m - W_O[:, h] y_h`` and
    ``s + W_O y_{-h} + b_O`` differ by a few ulps of ``sum_j |W_O[:, j] y_j|``.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> from petheory.nn.transformer import build_model
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                      "max_len": 256})
    >>> abl, base = ablate_heads(model, [data.train, data.test[50]], data.kind)
    >>> abl["metric"], len(base), list(base[0])
    ('mse', 2, ['mse'])
    """
    metric, device = PRIMARY[kind], next(model.parameters()).device
    L, H, chunk = model.cfg.n_layer, model.cfg.n_head, max(1, batch_size // model.cfg.n_head)
    was = model.training
    model.eval()
    base, abl, per_part = None, [None] * L, []
    try:
        for split in parts:
            part = None
            for a in range(0, len(split), batch_size):
                b = split_to(trim_padding(split.batch(slice(a, a + batch_size))), device)
                with autocast(device, amp):
                    h = model._embed(b.x)  # the forward of Transformer.forward, kept per layer
                    pos = [getattr(blk.attn, "positions", None) for blk in model.blocks]
                    kept = []  # per layer: its heads' outputs (B, H, T, hd_v), the stream after its attention
                    for blk in model.blocks:
                        y = blk.attn.heads(blk.ln_1(h))[0]
                        h = h + blk.drop(blk.attn.project(y))
                        kept.append((y, h))
                        h = h + blk.mlp(blk.ln_2(h))
                    part = add_sums(part, batch_sums(kind, model._head(h).float()[None], b))
                    for c in range(0, b.x.shape[0], chunk):
                        rows = slice(c, c + chunk)
                        for blk, p in zip(model.blocks, pos):  # a Scale Hint's per-instance positions, once per copy
                            if p is not None:
                                blk.attn.positions = p[rows].repeat(H, 1)
                        for l, blk in enumerate(model.blocks):
                            y, mid = kept[l][0][rows], kept[l][1][rows]
                            w = blk.attn.c_proj.weight.view(mid.shape[-1], H, -1)  # (d, H, hd_v): W_O's columns per head
                            x = (mid[None] - torch.einsum("bhtk,dhk->hbtd", y, w.to(y.dtype))).flatten(0, 1)  # (H Bc, T, d)
                            x = x + blk.mlp(blk.ln_2(x))
                            for nxt in model.blocks[l + 1:]:
                                x = nxt(x)
                            abl[l] = add_sums(abl[l], batch_sums(kind, model._head(x).float().unflatten(0, (H, -1)), b.batch(rows)))
            per_part.append(metrics_of(kind, part, len(split)))
            base = base if part is None else part if base is None else {k: base[k] + part[k] for k in base}
    finally:
        model.train(was)
    n = sum(len(split) for split in parts)
    b0 = metrics_of(kind, base, n)[metric]
    heads = [{"layer": layer, "head": hh, "value": (val := metrics_of(kind, abl[layer], n, hh)[metric]), "drop": (val - b0) * (1.0 if metric == "mse" else -1.0)}
             for layer in range(L) for hh in range(H)]
    return {"metric": metric, "baseline": b0, "heads": heads}, per_part

def concat_splits(a: _tasks.Split, b: _tasks.Split) -> _tasks.Split:
    """``a`` and ``b`` as one split (head ablation on train + test); ``b`` alone when their lengths differ.

    Parameters
    ----------
    a, b : Split
        Two splits.

    Returns
    -------
    Split
        Their concatenation, or ``b`` (LM tasks of another length: evaluated on the test split alone).

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> from petheory.nn.transformer import build_model
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                      "max_len": 256})
    >>> len(concat_splits(data.train, data.test[50])), len(concat_splits(data.train, data.test[100]))
    (12, 4)
    """
    if a.x.shape[1:] != b.x.shape[1:]:
        return b  # different lengths (LM tasks): evaluate on the test split alone
    cat = lambda u, v: None if u is None else torch.cat([u, v])  # noqa: E731
    return _tasks.Split(torch.cat([a.x, b.x]), torch.cat([a.y, b.y]), cat(a.mask, b.mask))

def ablation_parts(train: _tasks.Split, test: _tasks.Split) -> list[_tasks.Split]:
    """The parts of the 'train+test' ablation split (:func:`concat_splits`, kept apart for :func:`ablate_heads`).

    Parameters
    ----------
    train, test : Split
        The training split and the test split at the training length.

    Returns
    -------
    list of Split
        ``[train, test]``, or ``[test]`` when their lengths differ.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> from petheory.nn.transformer import build_model
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> _ = torch.manual_seed(0)
    >>> model = build_model({"pe": "alibi", "head": "regression", "n_layer": 1, "n_head": 2, "d_model": 8, "d_ff": 16,
    ...                      "max_len": 256})
    >>> len(ablation_parts(data.train, data.test[50]))
    2
    """
    return [test] if train.x.shape[1:] != test.x.shape[1:] else [train, test]
