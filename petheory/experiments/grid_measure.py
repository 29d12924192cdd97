"""Measurements of a grid (:mod:`petheory.experiments.grid`) for benchmarks and tests: its step time, its gradients at
initialisation against the per-run model's, and the FLOPs of a training step counted from the model."""

from __future__ import annotations

import time

import torch

from petheory.nn import tasks as _tasks
from petheory.experiments.grid import Grid, member_losses
from petheory.nn.transformer import build_model
from petheory.nn.config import TrainConfig
from petheory.nn.evaluation import autocast
from petheory.nn.training import complete_model_config, resolve_device


def step_time(configs, *, steps: int = 20, graphs="auto", mixed: bool = True) -> dict:
    """Median wall time of one grid training step (every member, forward + backward + AdamW) in ms.

    Builds the grid of ``configs`` as :func:`~petheory.experiments.grid.train_grid` would (no evaluation, no
    checkpoints), warms up, then times ``steps`` steps one by one (synchronising the device around each); for
    benchmarks.

    Parameters
    ----------
    configs : list of TrainConfig or dict
        The grid's configs.
    steps : int, optional
        Steps timed.
    graphs : 'auto', True or False, optional
        CUDA graph capture (as ``train_grid``).
    mixed : bool, optional
        As ``train_grid``.

    Returns
    -------
    dict
        ``step_ms``, ``tokens_per_step``, ``members`` and ``cuda_graphs``.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> sorted(step_time(configs, steps=2))
    ['cuda_graphs', 'members', 'step_ms', 'tokens_per_step']
    """
    import statistics

    cfgs = [(c if isinstance(c, TrainConfig) else TrainConfig.from_dict(c)).validate() for c in configs]
    device = resolve_device(cfgs[0].device)
    g = Grid(cfgs, [c.hash() for c in cfgs], [None] * len(cfgs), device, device.type == "cuda" and graphs in ("auto", True), mixed)
    B = cfgs[0].batch_size
    N = len(g.data.train)
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    gen = torch.Generator().manual_seed(0)
    if g.use_graphs:
        graph, idx = g._capture(B)
    times = []
    for i in range(steps + 3):
        sl = torch.randint(0, N, (g.M, B), generator=gen).to(device)
        sync()
        t0 = time.perf_counter()
        if g.use_graphs:
            idx.copy_(sl)
            graph.replay()
        else:
            g.opt.zero_grad(set_to_none=True)
            g._step(sl)
        sync()
        if i >= 3:
            times.append(time.perf_counter() - t0)
    return {"step_ms": 1e3 * statistics.median(times), "tokens_per_step": g.M * B * g.data.train.x.shape[1],
            "members": g.M, "cuda_graphs": g.use_graphs}


def first_gradients(configs, *, mixed: bool = True) -> list[dict]:
    """Every member's loss and parameter gradients at initialisation on its first batch (no update).

    What the grid changes against the per-run loop is the forward and backward pass (batched kernels over members,
    batches gathered on the device); AdamW is elementwise, so equal gradients mean equal training up to round-off.
    Compare with :func:`petheory.nn.training.setup`'s model on the same batch (benchmarks do).

    Parameters
    ----------
    configs : list of TrainConfig or dict
        The grid's configs.
    mixed : bool, optional
        As :func:`~petheory.experiments.grid.train_grid`.

    Returns
    -------
    list of dict
        Per config, ``{"loss": float, "grads": {name: tensor on the CPU}}``.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> g = first_gradients(configs)
    >>> len(g), sorted(g[0])
    (2, ['grads', 'loss'])
    """
    cfgs = [(c if isinstance(c, TrainConfig) else TrainConfig.from_dict(c)).validate() for c in configs]
    device = resolve_device(cfgs[0].device)
    g = Grid(cfgs, [c.hash() for c in cfgs], [None] * len(cfgs), device, False, mixed)
    B = cfgs[0].batch_size
    idx = torch.stack([torch.randperm(len(g.data.train), generator=g.gens[k])[:B] for k in g.flat]).to(device)
    losses = []
    for grp in g.groups:
        b = g.train_split.batch(idx[grp.lo:grp.hi])
        with autocast(device, g.amp):
            out = grp.forward(b.x, shared_x=False)
        losses.append(member_losses(g.kind, out, b))
    losses = torch.cat(losses)
    losses.sum().backward()
    out = [None] * len(cfgs)
    for grp in g.groups:
        grads = {k: {} for k in grp.members}
        for t, rows, stacked in grp.layout():
            for pos, (k, n, _) in enumerate(rows):
                grads[k][n] = (t.grad[pos] if stacked else t.grad).detach().cpu()
        for i, k in enumerate(grp.members):
            out[k] = {"loss": float(losses[grp.lo + i].detach()), "grads": grads[k]}
    return out


def step_flops(config) -> int:
    """FLOPs of one training step of ``config``'s model (forward and backward of one batch), counted.

    The model is built on the meta device and one step runs under :class:`torch.utils.flop_counter.FlopCounterMode`,
    which counts the matrix products (linear layers, attention scores and values, SDPA) as the kernels would run
    them; elementwise work (LayerNorm, softmax, AdamW) is not counted, as in the MFU convention. No memory is
    allocated and nothing is computed, so the paper preset counts in seconds on a CPU.

    Parameters
    ----------
    config : TrainConfig or dict
        A run's config.

    Returns
    -------
    int
        The FLOPs.

    Examples
    --------
    >>> from petheory.nn import preset
    >>> step_flops(preset("gu2025_task1", "smoke", pe="rope")) > 0
    True
    """
    from torch.utils.flop_counter import FlopCounterMode

    cfg = (config if isinstance(config, TrainConfig) else TrainConfig.from_dict(config)).validate()
    data = _tasks.load(cfg.task)
    mcfg = complete_model_config(cfg.model, data)
    shape = (cfg.batch_size, *data.train.x.shape[1:])
    with torch.device("meta"):
        model = build_model(mcfg)
        x = torch.zeros(shape, dtype=data.train.x.dtype)
    with FlopCounterMode(display=False) as counter:
        model(x).float().sum().backward()
    return int(counter.get_total_flops())
