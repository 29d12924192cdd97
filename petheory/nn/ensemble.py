r"""Seed ensembles: S same-shaped models trained at once with ``torch.func``.

``train_ensemble(config, seeds, out_dirs=None) -> [record]`` gives, member by member, the
records of ``train(replace(config, seed=s), out_dir)`` -- same initialisation (each member is
built after ``torch.manual_seed(s)``, as :func:`~petheory.nn.train.setup` does), same batch
order (one generator per member, seeded ``s + 1``), same AdamW (elementwise, so one optimiser
over the stacked ``(S, ...)`` parameters is S independent ones) and the same schedule -- but one
``vmap``-ed forward/backward per step instead of a Python loop over seeds::

    params, buffers = stack_module_state(models)          # name -> (S, ...)
    loss = vmap(one_model_loss, randomness=...)(params, buffers, X, Y, M).sum()   # X: (S, B, T)
    loss.backward(); opt.step()                           # per-member grads, per-member Adam

Numerics: equal to the per-seed loop up to float round-off (batched matmuls may sum in another
order); the tests check a few steps against per-seed training. With dropout > 0 each member
draws its own masks (``randomness='different'``), which are not the masks the per-seed loop
would draw, so records then agree only in distribution.

Checkpoints: each member's directory gets the same ``checkpoint.pt`` / ``record.json`` as a
per-seed run (the stacked optimiser state sliced per member), so an ensemble resumes as an
ensemble when all members stopped at the same epoch, and otherwise member by member through
:func:`~petheory.nn.train.train`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import time
from dataclasses import asdict
from pathlib import Path

import torch
from torch.func import functional_call, stack_module_state, vmap

from petheory.io import atomic_write_json, read_json
from petheory.nn import tasks as _tasks
from petheory.nn.models import build_model
from petheory.nn.position import parse_pe
from petheory.nn.train import (
    _FORMAT, CHECKPOINT, CONFIG, RECORD, TrainConfig, _autocast, _concat, _device_name, _jsonable, _Schedule,
    _to, complete_model_config, evaluate, head_ablation, load_checkpoint, loss_fn, resolve_device, save_checkpoint, train,
)


def _member_config(config: TrainConfig, seed: int) -> TrainConfig:
    return dataclasses.replace(config, seed=int(seed))


def _stack_split(split: _tasks.Split, idxs: list[torch.Tensor]) -> _tasks.Split:
    x = torch.stack([split.x[i] for i in idxs])  # (S, B, ...)
    y = torch.stack([split.y[i] for i in idxs])
    m = None if split.mask is None else torch.stack([split.mask[i] for i in idxs])
    if m is not None:  # drop columns that are padding in every member's batch
        cols = torch.nonzero(m.flatten(0, 1).any(0)).flatten()
        last = int(cols[-1]) + 1 if len(cols) else 1
        x, y, m = x[:, :, :last], y[:, :, :last], m[:, :, :last]
    return _tasks.Split(x, y, m)


def train_ensemble(config: TrainConfig | dict, seeds, out_dirs=None, *, progress=None) -> list[dict]:
    """Train one model per seed at once; returns their records in ``seeds`` order.

    ``out_dirs``: one directory per seed (or None). Runs already finished there are read back.
    """
    config = (config if isinstance(config, TrainConfig) else TrainConfig.from_dict(config)).validate()
    seeds = [int(s) for s in seeds]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be a non-empty list of distinct integers, got {seeds}")
    dirs = [None] * len(seeds) if out_dirs is None else [Path(d) for d in out_dirs]
    if len(dirs) != len(seeds):
        raise ValueError(f"need one out_dir per seed: {len(seeds)} seeds, {len(dirs)} dirs")
    cfgs = [_member_config(config, s) for s in seeds]
    hashes = [c.hash() for c in cfgs]

    # Finished members are read back; members with differing checkpoints go one by one.
    records: dict[int, dict] = {}
    epochs_done = []
    for k, d in enumerate(dirs):
        if d is not None and (d / RECORD).is_file() and read_json(d / RECORD).get("config_hash") == hashes[k]:
            records[k] = read_json(d / RECORD)
        else:
            epochs_done.append((k, load_checkpoint(d / CHECKPOINT)["epoch"] if d is not None and (d / CHECKPOINT).is_file() else 0))
    if len({e for _, e in epochs_done}) > 1:
        for k, _ in epochs_done:
            records[k] = train(cfgs[k], dirs[k])
        epochs_done = []
    live = [k for k, _ in epochs_done]
    if live:
        for k, r in zip(live, _train_stacked([cfgs[k] for k in live], [hashes[k] for k in live], [dirs[k] for k in live], progress)):
            records[k] = r
    return [records[k] for k in range(len(seeds))]


def _train_stacked(cfgs, hashes, dirs, progress) -> list[dict]:
    config = cfgs[0]
    t_start = time.perf_counter()
    device = resolve_device(config.device)
    amp = config.amp and device.type == "cuda"
    data = _tasks.load(config.task)
    kind = data.kind
    mcfg = complete_model_config(config.model, data)
    from petheory.nn.train import _require_memory

    _require_memory(mcfg, config, copies=len(cfgs))  # the seeds train at once: one model each
    models, gens = [], []
    for c in cfgs:
        torch.manual_seed(c.seed)
        models.append(build_model(mcfg).to(device))
        gens.append(torch.Generator().manual_seed(c.seed + 1))
    initial = [{"train": evaluate(m, data.train, kind, batch_size=config.eval_batch_size, amp=amp)} for m in models]
    names = [n for n, _ in models[0].named_parameters()]
    params, buffers = stack_module_state(models)  # name -> (S, ...) leaves
    template = copy.deepcopy(models[0]).to("meta")
    for block in template.blocks:
        block.attn.sdpa = False  # batched matmuls under vmap instead of SDPA's per-member fallback
    opt = torch.optim.AdamW([params[n] for n in names], lr=config.lr, betas=tuple(config.betas), weight_decay=config.weight_decay)
    steps = math.ceil(len(data.train) / config.batch_size)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, _Schedule(steps * config.epochs, config.warmup, config.schedule))
    S = len(cfgs)
    histories, tokens, start_epoch, t_prev = [[] for _ in cfgs], 0, 0, 0.0

    if all(d is not None and (d / CHECKPOINT).is_file() for d in dirs):
        states = [load_checkpoint(d / CHECKPOINT) for d in dirs]
        for st, h in zip(states, hashes):
            if st["config_hash"] != h:
                raise ValueError(f"a checkpoint in the ensemble's directories was written by a different config ({st['config_hash']} != {h})")
        with torch.no_grad():
            for n in names:
                params[n].copy_(torch.stack([st["model"][n] for st in states]).to(device))
        opt.load_state_dict(_stack_opt([st["optimizer"] for st in states], device))
        sched.load_state_dict(states[0]["scheduler"])
        torch.set_rng_state(states[0]["rng"]["torch"])
        for g, st in zip(gens, states):
            g.set_state(st["rng"]["shuffle"])
        start_epoch, histories = states[0]["epoch"], [list(st["history"]) for st in states]
        initial = [st["initial"] for st in states]
        tokens, t_prev = states[0]["tokens"] * S, states[0]["seconds"]

    def one_loss(p, b, x, y, m):
        out = functional_call(template, (p, b), (x,))
        return loss_fn(kind, out, _tasks.Split(x, y, m))

    randomness = "different" if mcfg.dropout > 0 else "error"
    batched_loss = vmap(one_loss, in_dims=(0, 0, 0, 0, None if kind != "lm" else 0), randomness=randomness)
    test_id = data.test[data.train_len] if data.train_len in data.test else next(iter(data.test.values()))
    for epoch in range(start_epoch, config.epochs):
        perms = [torch.randperm(len(data.train), generator=g) for g in gens]
        run_loss = torch.zeros(S)
        for s in range(steps):
            sl = slice(s * config.batch_size, (s + 1) * config.batch_size)
            b = _to(_stack_split(data.train, [p[sl] for p in perms]), device)
            with _autocast(device, amp):
                losses = batched_loss(params, buffers, b.x, b.y, b.mask)  # (S,)
            if not torch.isfinite(losses).all():
                raise FloatingPointError(f"loss became non-finite at epoch {epoch + 1}, step {s + 1}; lower lr")
            opt.zero_grad(set_to_none=True)
            losses.sum().backward()  # members share no parameters: each gets its own gradient
            if config.grad_clip:
                _clip_per_member([params[n] for n in names], config.grad_clip)
            opt.step()
            sched.step()
            run_loss += losses.detach().float().cpu()
            tokens += b.x.shape[0] * b.x.shape[1] * b.x.shape[2]
            if progress:
                progress({"event": "step", "epoch": epoch + 1, "epochs": config.epochs, "step": s + 1, "steps": steps,
                          "loss": float(losses.mean())})
        members = _unstack(models, params, names)
        for k, m in enumerate(members):
            histories[k].append({"epoch": epoch + 1, "train_loss": float(run_loss[k]) / steps, "lr": sched.get_last_lr()[0],
                                 "test": evaluate(m, test_id, kind, batch_size=config.eval_batch_size, amp=amp)})
        seconds = t_prev + time.perf_counter() - t_start
        for k, d in enumerate(dirs):
            if d is None:
                continue
            atomic_write_json(d / CONFIG, {**cfgs[k].as_dict(), "hash": hashes[k]})
            save_checkpoint(d / CHECKPOINT, {
                "format": _FORMAT, "config_hash": hashes[k], "epoch": epoch + 1, "model": members[k].state_dict(),
                "model_config": asdict(mcfg), "optimizer": _slice_opt(opt.state_dict(), k), "scheduler": sched.state_dict(),
                "rng": {"torch": torch.get_rng_state(), "shuffle": gens[k].get_state()}, "history": histories[k],
                "initial": initial[k], "tokens": tokens // S, "seconds": seconds,
            })
        if progress:
            progress({"event": "epoch", "epoch": epoch + 1, "epochs": config.epochs, "step": steps, "steps": steps,
                      "loss": float(run_loss.mean()) / steps})

    from petheory import __version__

    members = _unstack(models, params, names)
    seconds = t_prev + time.perf_counter() - t_start
    ev = dict(batch_size=config.eval_batch_size, amp=amp)
    out = []
    for k, m in enumerate(members):
        ablation = None
        if config.ablate:
            split = test_id if config.ablation_split == "test" else _concat(data.train, test_id)
            ablation = {"split": config.ablation_split, **head_ablation(m, split, kind, **ev)}
        rec = _jsonable({
            "petheory": __version__, "config": cfgs[k].as_dict(), "config_hash": hashes[k], "task": config.task.name,
            "pe": parse_pe(config.model.pe).spec(), "seed": cfgs[k].seed, "kind": kind, "model": asdict(mcfg),
            "n_params": m.n_params(), "train_len": data.train_len, "initial": initial[k], "history": histories[k],
            "final": {"train": evaluate(m, data.train, kind, **ev),
                      "test": {str(L): evaluate(m, sp, kind, **ev) for L, sp in data.test.items()}},
            "ablation": ablation, "chance": data.chance,
            "timing": {"seconds": seconds, "tokens": tokens // len(cfgs), "tokens_per_s": tokens / max(seconds, 1e-9),
                       "device": _device_name(device), "ensemble": len(cfgs)},
        })
        if dirs[k] is not None:
            atomic_write_json(dirs[k] / RECORD, rec)
        out.append(rec)
    return out


def _unstack(models, params, names):
    """Copy member k's slice of the stacked parameters into models[k] (eval helpers use real modules)."""
    with torch.no_grad():
        for k, m in enumerate(models):
            for n, p in m.named_parameters():
                p.copy_(params[n][k])
    return models


def _slice_opt(state: dict, k: int) -> dict:
    """Member k's AdamW state, in the layout a single model's optimiser saves."""
    st = {}
    for i, s in state["state"].items():
        st[i] = {key: (v[k].clone() if torch.is_tensor(v) and v.dim() > 0 else v) for key, v in s.items()}
    return {"state": st, "param_groups": copy.deepcopy(state["param_groups"])}


def _stack_opt(states: list[dict], device) -> dict:
    st = {}
    for i, s in states[0]["state"].items():
        st[i] = {key: (torch.stack([x["state"][i][key] for x in states]).to(device) if torch.is_tensor(v) and v.dim() > 0 else v)
                 for key, v in s.items()}
    return {"state": st, "param_groups": copy.deepcopy(states[0]["param_groups"])}


def _clip_per_member(params: list[torch.Tensor], max_norm: float) -> None:
    """clip_grad_norm_ per member: the norm over member k's slice of every gradient."""
    grads = [p.grad for p in params if p.grad is not None]
    norms = torch.sqrt(sum((g.flatten(1) ** 2).sum(1) for g in grads))  # (S,)
    scale = (max_norm / (norms + 1e-6)).clamp(max=1.0)
    for g in grads:
        g.mul_(scale.view(-1, *([1] * (g.dim() - 1))))
