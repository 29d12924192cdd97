r"""Grid training: many runs of one task at once, one program per step, data resident on the device.

``train_grid(configs, out_dirs=None) -> [record]`` gives, run by run, the records of
``train(config, out_dir)`` for runs that share a task and a training schedule and differ in
``seed`` and in the model (another position mechanism, another width, ...)::

    cfgs = sweep.expand({"task": "running_sum", "preset": "paper", "pe": LI2025_PES, "seed": [0, 1, 2, 3, 4],
                         "device": "cuda"})
    recs = train_grid(cfgs, [sweep.run_dir("runs/t5", c) for c in cfgs])   # li2025 Table 5: 35 runs at once

How one step works
------------------
* Runs on one model shape whose position mechanisms differ (an absolute table, a bias, a rotation,
  partial RoPE: :func:`petheory.experiments.mixed.mix_key`) form one *mixed group*: one batched model in
  which the PE is a member tensor too (:class:`petheory.experiments.mixed.MixedGroup`), so gu2025's six
  non-MLA PEs and the partial-RoPE ladder x their seeds are one program. The other runs (MLA, a
  learned bias function, a table shorter than the lengths used) group by model config: a group
  of S > 1 members is one ``vmap``-ed forward/backward over stacked parameters (``torch.func``;
  as in :mod:`petheory.experiments.ensemble`); a group of one calls its module directly (SDPA attention).
* The task's tensors are copied to the device once. Each epoch every member's batch order is
  drawn from its own CPU generator (seeded ``seed + 1``, the same permutation
  :func:`~petheory.nn.training.train` draws) and copied to the device in one transfer; a step
  gathers its batches by index on the device. No per-step host work but one small copy.
* One AdamW over every group's parameters (AdamW is elementwise, so over stacked parameters it is
  S independent optimisers), one learning-rate schedule.
* On CUDA the whole step (every group's forward and backward, gradient clipping, the optimiser)
  is captured once in a CUDA graph and replayed (``graphs='auto'``): a step is then one launch
  instead of hundreds, which is what makes small models fast on a large GPU. Warm-up steps for
  the capture run on a copy of the state that is restored, so they leave no trace. The last,
  shorter batch of an epoch gets its own graph. Everywhere else (CPU, ``graphs=False``) the same
  step runs eagerly: that is the plain path for debugging and CI.

Numerics: equal to the per-run loop up to round-off (batched matmuls sum in another order; the
captured AdamW computes its bias corrections in float32 on the device). With dropout each member
draws its own masks, not the masks the per-run loop would draw, so records then agree only in
distribution. LM batches are not trimmed of trailing padding (static shapes); under the causal
mask that changes nothing but round-off. A non-finite loss is reported at the end of the epoch
in which it happened (the loop stops at the step).

Checkpoints and records: each member's directory gets the same ``config.json``,
``checkpoint.pt`` and ``record.json`` as a :func:`~petheory.nn.training.train` run, so any member
can be resumed alone. Checkpoints are written at the end of an epoch once ``checkpoint_seconds``
have passed since the last (and after the last epoch): a kill loses at most that much training
and a rerun resumes to the same final record. Records add ``timing.engine = 'grid'``,
``timing.members``, ``timing.cuda_graphs`` and ``timing.gpu_util`` (mean GPU utilisation while
training, from NVML, when available).
"""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path

import torch
from torch.func import functional_call, stack_module_state, vmap

from petheory.io import atomic_write_json, read_json
from petheory.nn import tasks as _tasks
from petheory.experiments.mixed import MixedGroup, mix_key
from petheory.nn.transformer import build_model
from petheory.nn.ablation import concat_splits, head_ablation
from petheory.nn.config import TrainConfig
from petheory.nn.evaluation import autocast, batch_sums, finish_sums, split_to, test_split
from petheory.nn.training import (
    CHECKPOINT, CONFIG, RECORD, checkpoint_state, complete_model_config, load_checkpoint, make_record, probe,
    require_memory, resolve_device, save_checkpoint, schedule, train,
)
from petheory.errors import ValidationError

#: TrainConfig fields every run of one grid must share (the data, the schedule, the optimiser).
SHARED = ("task", "epochs", "batch_size", "lr", "betas", "weight_decay", "warmup", "schedule", "grad_clip", "device",
          "amp", "eval_batch_size", "ablate", "ablation_split")


def shared_key(config: TrainConfig) -> str:
    """The fields of ``config`` that must agree for it to train in one grid with others (:data:`SHARED`), as text.

    Parameters
    ----------
    config : TrainConfig
        A run's config.

    Returns
    -------
    str
        The key: configs with equal keys can train in one grid.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> shared_key(configs[0]) == shared_key(configs[1])
    True
    """
    d = config.as_dict()
    return json.dumps({k: d[k] for k in SHARED}, sort_keys=True, default=str)


def train_grid(configs, out_dirs=None, *, graphs="auto", mixed: bool = True, checkpoint_seconds: float = 60.0,
               progress=None) -> list[dict]:
    """Train every config at once; returns their records in ``configs`` order.

    Parameters
    ----------
    configs : list of TrainConfig or dict
        Same :data:`SHARED` fields (task, schedule, optimiser, device); seeds and models may differ.
    out_dirs : list of paths, optional
        One directory per config. Finished runs there are read back; runs with checkpoints
        resume (together when they stopped at the same epoch, else one by one).
    graphs : 'auto', True or False
        Capture the step in a CUDA graph ('auto': on CUDA). ``True`` off CUDA is refused.
    mixed : bool
        Train runs of different PEs on one model shape as one batched model (:mod:`petheory.experiments.mixed`);
        False: one group per model config (benchmarks compare the two).
    checkpoint_seconds : float
        Least time between checkpoints (0: after every epoch).
    progress : callable, optional
        Called with ``{"event": "epoch", "epoch", "epochs", "loss"}`` (mean over members) after each epoch.

    Returns
    -------
    list of dict
        The records, equal (up to round-off) to what :func:`petheory.nn.training.train` gives each config.

    Raises
    ------
    petheory.errors.ValidationError
        Configs that do not share their :data:`SHARED` fields, or a bad config.

    Examples
    --------
    >>> from petheory.nn.presets import preset
    >>> kw = {"epochs": 1, "ablate": False, "task.n_samples": 64}
    >>> configs = [preset("gu2025_task1", "smoke", pe=pe, **kw) for pe in ("nope", "alibi")]
    >>> [r["pe"] for r in train_grid(configs)]
    ['nope', 'alibi']
    """
    cfgs = [(c if isinstance(c, TrainConfig) else TrainConfig.from_dict(c)).validate() for c in configs]
    if not cfgs:
        raise ValidationError("train_grid needs at least one config")
    keys = {shared_key(c) for c in cfgs}
    if len(keys) > 1:
        raise ValidationError("a grid's runs must share task, schedule, optimiser and device (only seed and model may "
                         "differ); group them with petheory.experiments.grid.shared_key")
    hashes = [c.hash() for c in cfgs]
    if len(set(hashes)) != len(hashes):
        raise ValidationError("a grid holds the same config twice; give each run its own seed or model")
    dirs = [None] * len(cfgs) if out_dirs is None else [None if d is None else Path(d) for d in out_dirs]
    if len(dirs) != len(cfgs):
        raise ValidationError(f"need one out_dir per config: {len(cfgs)} configs, {len(dirs)} dirs")
    if graphs not in ("auto", True, False):
        raise ValidationError(f"graphs must be 'auto', True or False, got {graphs!r}")
    device = resolve_device(cfgs[0].device)
    if graphs is True and device.type != "cuda":
        raise ValidationError(f"CUDA graphs need a CUDA device, not {device}")
    use_graphs = device.type == "cuda" and graphs in ("auto", True)

    records: dict[int, dict] = {}
    by_epoch: dict[int, list[int]] = {}
    for k, d in enumerate(dirs):
        if d is not None and (d / RECORD).is_file() and read_json(d / RECORD).get("config_hash") == hashes[k]:
            records[k] = read_json(d / RECORD)
            continue
        epoch = load_checkpoint(d / CHECKPOINT)["epoch"] if d is not None and (d / CHECKPOINT).is_file() else 0
        by_epoch.setdefault(epoch, []).append(k)
    if len(by_epoch) > 1:  # members stopped at different epochs: the common epoch trains together
        main = max(by_epoch, key=lambda e: len(by_epoch[e]))
        for e, ks in by_epoch.items():
            if e != main:
                for k in ks:
                    records[k] = train(cfgs[k], dirs[k])
        by_epoch = {main: by_epoch[main]}
    for ks in by_epoch.values():
        recs = Grid([cfgs[k] for k in ks], [hashes[k] for k in ks], [dirs[k] for k in ks], device, use_graphs, mixed).run(
            checkpoint_seconds, progress)
        records.update(zip(ks, recs))
    return [records[k] for k in range(len(cfgs))]


class _Group:
    """Members with one model config: real modules (for init, evaluation, ablation) and the
    parameters training updates (stacked ``(S, ...)`` when S > 1, the module's own when S = 1).
    ``lo:hi`` are the group's rows in the grid's step index and loss vector (members in group order)."""

    def __init__(self, members, cfgs, mcfg, device, lo: int):
        self.members, self.S = members, len(members)
        self.lo, self.hi = lo, lo + self.S
        self.models = []
        for k in members:
            torch.manual_seed(cfgs[k].seed)  # the initialisation train() gives this seed
            self.models.append(build_model(mcfg).to(device))
        self.names = [n for n, _ in self.models[0].named_parameters()]
        if self.S == 1:
            self.params = dict(self.models[0].named_parameters())
            self.module = self.models[0]
        else:
            self.params, self.buffers = stack_module_state(self.models)  # name -> (S, ...)
            self.module = _template(self.models[0])
        self.randomness = "different" if mcfg.dropout > 0 else "error"

    def tensors(self) -> list[torch.Tensor]:
        return [self.params[n] for n in self.names]

    def layout(self):
        """[(tensor, [(member k, parameter name, row)], stacked)] for every tensor the optimiser updates."""
        stacked = self.S > 1
        return [(self.params[n], [(k, n, i) for i, k in enumerate(self.members)], stacked) for n in self.names]

    def train_mode(self, flag: bool) -> None:
        self.module.train(flag)

    def forward(self, x: torch.Tensor, shared_x: bool) -> torch.Tensor:
        """Outputs (S, B, ...) for inputs (S, B, ...) per member, or (B, ...) shared by all."""
        if self.S == 1:
            return self.module(x if shared_x else x[0])[None]

        def one(p, b, xi):
            return functional_call(self.module, (p, b), (xi,))

        return vmap(one, in_dims=(0, 0, None if shared_x else 0), randomness=self.randomness)(self.params, self.buffers, x)

    def sync_models(self) -> list:
        """The real modules, with the trained parameters copied in (evaluation, ablation, checkpoints)."""
        if self.S > 1:
            with torch.no_grad():
                for k, m in enumerate(self.models):
                    for n, p in m.named_parameters():
                        p.copy_(self.params[n][k])
        return self.models


def _template(model):
    import copy

    t = copy.deepcopy(model).to("meta")
    for block in t.blocks:
        block.attn.sdpa = False  # explicit softmax(QK^T)V under vmap: SDPA has no batching rule on CPU
    return t


class _GpuUtil:
    """Mean GPU utilisation (NVML, through torch.cuda.utilization) sampled in a thread while training."""

    def __init__(self, device, every: float = 0.5):
        self.device, self.every, self.samples = device, every, []
        self._stop = threading.Event()
        self._thread = None

    def __enter__(self):
        if self.device.type == "cuda":
            try:
                torch.cuda.utilization(self.device)
            except Exception:  # no NVML: report None
                return self
            self._thread = threading.Thread(target=self._loop, daemon=True)
            self._thread.start()
        return self

    def _loop(self):
        while not self._stop.wait(self.every):
            try:
                self.samples.append(float(torch.cuda.utilization(self.device)))
            except Exception:
                return

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    @property
    def mean(self):
        return sum(self.samples) / len(self.samples) if self.samples else None


class Grid:
    """The runs of one :func:`train_grid` call in memory: its groups, one optimiser, the step (eager or a CUDA
    graph), evaluation, checkpoints and records. ``run()`` trains; :mod:`petheory.experiments.grid_measure` times a step.

    Parameters
    ----------
    cfgs : list of TrainConfig
        The grid's configs (validated, sharing their ``SHARED`` fields).
    hashes : list of str
        Their config hashes.
    dirs : list of pathlib.Path or None
        Their run directories (None: no checkpoints or records written).
    device : torch.device
        Where the grid trains.
    use_graphs : bool
        Capture the step in a CUDA graph.
    mixed : bool, optional
        Train runs of different PEs on one model shape as one batched model.
    """

    def __init__(self, cfgs, hashes, dirs, device, use_graphs, mixed=True):
        self.cfgs, self.hashes, self.dirs, self.device = cfgs, hashes, dirs, device
        self.c = cfgs[0]
        self.amp = self.c.amp and device.type == "cuda"
        self.use_graphs = use_graphs
        data = _tasks.load(self.c.task)
        self.kind, self.data = data.kind, data
        self.train_split = split_to(data.train, device)
        self.test_id = test_split(data)
        self.mcfgs, groups = {}, {}
        max_T = max(data.max_len, data.train.x.shape[1], *(sp.x.shape[1] for sp in data.test.values()))
        rotations: dict[str, list] = {}  # model key -> rotary encodings seen, in order
        for k, c in enumerate(cfgs):
            mcfg = complete_model_config(c.model, data)
            self.mcfgs[k] = mcfg
            # runs of different PEs on one model shape share one batched program (petheory.experiments.mixed), one per
            # rotary encoding (members without a rotation join the first); the rest (MLA, learned bias functions,
            # short tables) group by their exact model config
            mix = mix_key(mcfg, max_T) if mixed else None
            if mix is None:
                key = ("model", json.dumps(mcfg.as_dict(), sort_keys=True, default=str))
            else:
                seen = rotations.setdefault(mix[0], [])
                if mix[1] is not None and mix[1] not in seen:
                    seen.append(mix[1])
                key = ("mixed", mix[0], mix[1])
            groups.setdefault(key, []).append(k)
        for key in [k for k in groups if k[0] == "mixed" and k[2] is None and rotations[k[1]]]:
            groups.setdefault(("mixed", key[1], rotations[key[1]][0]), []).extend(groups.pop(key))

        for ks in groups.values():  # every member of a group is a model in memory at once
            require_memory(self.mcfgs[ks[0]], cfgs[ks[0]], device, copies=len(ks))
        # Rows of the step's index tensor and loss vector are members in group order, so each
        # group reads a contiguous slice (no gather with a host-made index inside a graph).
        self.groups, lo = [], 0
        for key, ks in groups.items():
            if key[0] == "mixed" and len({self.mcfgs[k].pe for k in ks}) > 1:
                self.groups.append(MixedGroup(ks, cfgs, self.mcfgs, device, lo))
            else:  # one model config (a seed ensemble): vmap over the module itself
                self.groups.append(_Group(ks, cfgs, self.mcfgs[ks[0]], device, lo))
            lo += len(ks)
        # every optimised tensor with the grid rows of its member slices (per-member clipping in one pass)
        self.layout = [(t, torch.tensor([g.lo + g.members.index(k) for k, _, _ in rows], device=device), stacked)
                       for g in self.groups for t, rows, stacked in g.layout()]
        self.M = len(cfgs)
        self.flat = [k for g in self.groups for k in g.members]
        self._build_optimiser()
        self._pool = None  # the CUDA graphs' shared memory pool, set by the first _capture

    # ------------------------------------------------------------------ evaluation

    @torch.no_grad()
    def evaluate(self, split) -> list[dict]:
        """Metrics of every member on ``split`` (one batched forward per group and batch)."""
        out = [None] * self.M
        bs = self.c.eval_batch_size
        for g in self.groups:
            g.train_mode(False)
            tot = None
            for a in range(0, len(split), bs):
                b = split_to(split.batch(slice(a, a + bs)), self.device)
                with autocast(self.device, self.amp):
                    o = g.forward(b.x, shared_x=True)  # (S, B, ...)
                s = {k: v.double() for k, v in batch_sums(self.kind, o.float(), b).items()}  # float64 totals
                tot = s if tot is None else {k: tot[k] + s[k] for k in tot}
            g.train_mode(True)
            tot = {k: v.tolist() for k, v in tot.items()}
            for i, k in enumerate(g.members):
                out[k] = finish_sums(self.kind, {n: v[i] for n, v in tot.items()}, len(split))
        return out

    # ------------------------------------------------------------------ the step

    def _build_optimiser(self):
        """AdamW over every group's tensors, the schedule (on a shadow optimiser), the loss
        accumulator and the per-member batch-order generators; called once, by ``__init__``."""
        c = self.c
        params = [t for g in self.groups for t in g.tensors()]
        if self.use_graphs:
            self.lr = torch.tensor(c.lr, dtype=torch.float32, device=self.device)
            self.opt = torch.optim.AdamW(params, lr=self.lr, betas=tuple(c.betas), weight_decay=c.weight_decay,
                                         foreach=True, capturable=True)
        else:
            self.opt = torch.optim.AdamW(params, lr=c.lr, betas=tuple(c.betas), weight_decay=c.weight_decay)
        # The schedule lives on a shadow optimiser: its state_dict is the one train() saves, and
        # the captured AdamW reads the rate from a device tensor that the host refills each step.
        self.steps = math.ceil(len(self.data.train) / c.batch_size)
        self.shadow = torch.optim.SGD([torch.zeros(1)], lr=c.lr)
        self.sched = schedule(self.shadow, self.steps * c.epochs, c)
        self.shadow.step()  # a no-op (no gradients) that tells LambdaLR the optimiser has stepped
        self.loss_acc = torch.zeros(self.M, device=self.device)
        self.gens = [torch.Generator().manual_seed(cfg.seed + 1) for cfg in self.cfgs]

    def _step(self, idx: torch.Tensor) -> None:
        """One optimisation step of every member on batches ``idx`` (M, B) of the training split."""
        losses = []
        for g in self.groups:
            b = self.train_split.batch(idx[g.lo:g.hi])  # (S, B, ...)
            with autocast(self.device, self.amp):
                out = g.forward(b.x, shared_x=False)
            losses.append(member_losses(self.kind, out, b))
        losses = torch.cat(losses)  # (M,) in group order (self.flat)
        losses.sum().backward()  # members share no parameters: each gets its own gradient
        if self.c.grad_clip:
            self._clip(self.c.grad_clip)
        self.opt.step()
        with torch.no_grad():
            self.loss_acc += losses.detach().float()

    def _clip(self, max_norm: float) -> None:
        """clip_grad_norm_ per member, over member k's slice of every gradient, all members at once."""
        sq = torch.zeros(self.M, device=self.device)
        for t, rows, stacked in self.layout:
            if t.grad is not None:
                g = t.grad.float()
                sq = sq.index_add(0, rows, (g.flatten(1) ** 2).sum(1) if stacked else (g ** 2).sum()[None])
        scale = (max_norm / (sq.sqrt() + 1e-6)).clamp(max=1.0)  # (M,)
        for t, rows, stacked in self.layout:
            if t.grad is not None:
                t.grad.mul_(scale[rows].view(-1, *([1] * (t.grad.dim() - 1))).to(t.grad.dtype) if stacked else scale[rows[0]])

    def _capture(self, B: int):
        """A CUDA graph of one step at batch size B, its static index buffer, and no trace left behind."""
        idx = torch.zeros(self.M, B, dtype=torch.long, device=self.device)
        snap_p = [p.detach().clone() for p in self.opt.param_groups[0]["params"]]
        snap_s = {id(p): {k: v.clone() for k, v in s.items()} for p, s in self.opt.state.items()}
        side = torch.cuda.Stream(self.device)
        side.wait_stream(torch.cuda.current_stream(self.device))
        with torch.cuda.stream(side):
            for _ in range(3):
                self.opt.zero_grad(set_to_none=True)
                self._step(idx)
        torch.cuda.current_stream(self.device).wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        self.opt.zero_grad(set_to_none=True)
        with torch.cuda.graph(graph, pool=self._pool):
            self._step(idx)
        self._pool = graph.pool()
        with torch.no_grad():  # undo the warm-up steps
            for p, s in zip(self.opt.param_groups[0]["params"], snap_p):
                p.copy_(s)
            for p, st in self.opt.state.items():
                old = snap_s.get(id(p))
                for k, v in st.items():
                    v.copy_(old[k]) if old is not None else v.zero_()
            self.loss_acc.zero_()
        return graph, idx

    # ------------------------------------------------------------------ the loop

    def run(self, checkpoint_seconds, progress) -> list[dict]:
        c, dev = self.c, self.device
        t_start = time.perf_counter()
        histories = [[] for _ in range(self.M)]
        start_epoch, tokens, t_prev, initial = 0, 0, 0.0, None
        if all(d is not None and (d / CHECKPOINT).is_file() for d in self.dirs):
            start_epoch, histories, initial, tokens, t_prev = self._resume()
        if initial is None:
            initial = [{"train": m} for m in self.evaluate(self.data.train)]
        N, B = len(self.data.train), c.batch_size
        graphs = {}
        if self.use_graphs:
            graphs[B] = self._capture(B)
            if N % B:
                graphs[N % B] = self._capture(N % B)
        t_ckpt = time.perf_counter()
        with _GpuUtil(dev) as util:
            for epoch in range(start_epoch, c.epochs):
                perms = torch.stack([torch.randperm(N, generator=self.gens[k]) for k in self.flat]).to(dev)
                self.loss_acc.zero_()
                for s in range(self.steps):
                    sl = perms[:, s * B:(s + 1) * B]
                    lr = self.shadow.param_groups[0]["lr"]
                    if self.use_graphs:
                        graph, idx = graphs[sl.shape[1]]
                        idx.copy_(sl)
                        self.lr.fill_(lr)
                        graph.replay()
                    else:
                        self.opt.param_groups[0]["lr"] = lr
                        self.opt.zero_grad(set_to_none=True)
                        self._step(sl)
                    self.sched.step()
                    tokens += sl.shape[1] * self.data.train.x.shape[1]
                acc = (self.loss_acc / self.steps).tolist()
                run_loss = [0.0] * self.M
                for pos, k in enumerate(self.flat):
                    run_loss[k] = acc[pos]
                bad = [k for k, v in enumerate(run_loss) if not math.isfinite(v)]
                if bad:
                    raise FloatingPointError(f"loss became non-finite in epoch {epoch + 1} for run(s) "
                                             f"{', '.join(str(self.cfgs[k].model.pe) + ' seed ' + str(self.cfgs[k].seed) for k in bad)}; lower lr")
                lr = self.sched.get_last_lr()[0]
                for k, m in enumerate(self.evaluate(self.test_id)):
                    histories[k].append({"epoch": epoch + 1, "train_loss": run_loss[k], "lr": lr, "test": m})
                last = epoch + 1 == c.epochs
                if last or time.perf_counter() - t_ckpt >= checkpoint_seconds:
                    self._checkpoint(epoch + 1, histories, initial, tokens, t_prev + time.perf_counter() - t_start)
                    t_ckpt = time.perf_counter()
                if progress:
                    progress({"event": "epoch", "epoch": epoch + 1, "epochs": c.epochs, "step": self.steps,
                              "steps": self.steps, "loss": sum(run_loss) / self.M})
        return self._records(histories, initial, tokens, t_prev + time.perf_counter() - t_start, util.mean)

    def _members(self):
        """(k, model) for every member, parameters synced from training."""
        out = []
        for g in self.groups:
            out += list(zip(g.members, g.sync_models()))
        return sorted(out, key=lambda t: t[0])

    def _member_opt(self, k) -> dict:
        """Member k's AdamW state in the layout a single model's optimiser saves (train() resumes it)."""
        g = next(g for g in self.groups if k in g.members)
        names = [n for n, _ in g.models[g.members.index(k)].named_parameters()]  # the member's own order
        slot = {n: (t, pos, stacked) for t, rows, stacked in g.layout() for pos, (kk, n, _) in enumerate(rows) if kk == k}
        st = {}
        for i, n in enumerate(names):
            t, pos, stacked = slot[n]
            s = self.opt.state.get(t)
            if not s:
                continue
            st[i] = {}
            for key, v in s.items():
                if key == "step":  # one step count per stacked tensor, shared by its members
                    st[i][key] = v.detach().to("cpu", torch.float32, copy=True).reshape(())
                else:
                    st[i][key] = (v[pos] if stacked else v).detach().to("cpu", copy=True)
        group = {key: v for key, v in self.opt.param_groups[0].items() if key != "params"}
        group.update(lr=float(self.shadow.param_groups[0]["lr"]), initial_lr=float(self.c.lr), capturable=False,
                     foreach=None, params=list(range(len(names))))
        return {"state": st, "param_groups": [group]}

    def _checkpoint(self, epoch, histories, initial, tokens, seconds) -> None:
        for k, m in self._members():
            d = self.dirs[k]
            if d is None:
                continue
            atomic_write_json(d / CONFIG, {**self.cfgs[k].as_dict(), "hash": self.hashes[k]})
            save_checkpoint(d / CHECKPOINT, checkpoint_state(
                self.hashes[k], epoch, m, self.mcfgs[k], self._member_opt(k), self.sched.state_dict(),
                {"torch": torch.get_rng_state(), "shuffle": self.gens[k].get_state()}, histories[k], initial[k],
                tokens, seconds))

    def _resume(self):
        states = [load_checkpoint(d / CHECKPOINT) for d in self.dirs]
        for st, h in zip(states, self.hashes):
            if st["config_hash"] != h:
                raise ValidationError(f"a checkpoint in the grid's directories was written by a different config ({st['config_hash']} != {h})")
        # parameters and AdamW state: member slices stacked back in the order of the optimiser's tensors
        # (a member's optimiser state is keyed by the index of the parameter in its own model)
        index = {}
        for g in self.groups:
            for k, m in zip(g.members, g.models):
                index.update({(k, n): j for j, (n, _) in enumerate(m.named_parameters())})
        for g in self.groups:
            for t, rows, stacked in g.layout():
                with torch.no_grad():
                    v = [states[k]["model"][n] for k, n, _ in rows]
                    t.copy_((torch.stack(v) if stacked else v[0]).to(self.device).reshape_as(t))
                ss = [states[k]["optimizer"]["state"].get(index[k, n]) or states[k]["optimizer"]["state"].get(str(index[k, n]))
                      for k, n, _ in rows]
                if ss[0] is None:
                    continue
                st = {}
                for key in ss[0]:
                    if key == "step":
                        v = ss[0][key].reshape(()).float()
                        st[key] = v.to(self.device) if self.use_graphs else v
                    else:
                        v = torch.stack([s[key] for s in ss]) if stacked else ss[0][key]
                        st[key] = v.to(self.device).reshape_as(t)
                self.opt.state[t] = st
        self.sched.load_state_dict(states[0]["scheduler"])
        self.shadow.param_groups[0]["lr"] = self.sched.get_last_lr()[0]
        for gen, st in zip(self.gens, states):
            gen.set_state(st["rng"]["shuffle"])
        torch.set_rng_state(states[0]["rng"]["torch"])
        return (states[0]["epoch"], [list(st["history"]) for st in states], [st["initial"] for st in states],
                states[0]["tokens"], states[0]["seconds"])

    def _records(self, histories, initial, tokens, seconds, gpu_util) -> list[dict]:
        c = self.c
        split = None
        if c.ablate:

            split = self.test_id if c.ablation_split == "test" else concat_splits(self.data.train, self.test_id)
        ev = dict(batch_size=c.eval_batch_size, amp=self.amp)
        final_train = self.evaluate(self.data.train)
        final_test = {L: self.evaluate(sp) for L, sp in self.data.test.items()}
        out = []
        for k, m in self._members():
            ablation = None
            if c.ablate:
                ablation = {"split": c.ablation_split, **head_ablation(m, split, self.kind, **ev)}
            timing = {"seconds": seconds, "tokens": tokens, "tokens_per_s": tokens * self.M / max(seconds, 1e-9),
                      "engine": "grid", "members": self.M, "cuda_graphs": self.use_graphs, "gpu_util": gpu_util}
            rec = make_record(self.cfgs[k], self.hashes[k], self.data, self.mcfgs[k], m, initial[k], histories[k],
                              {"train": final_train[k], "test": {str(L): v[k] for L, v in final_test.items()}},
                              ablation, timing, self.device, probe(m, self.data))
            if self.dirs[k] is not None:
                atomic_write_json(self.dirs[k] / RECORD, rec)
            out.append(rec)
        return out


def member_losses(kind: str, out: torch.Tensor, b: _tasks.Split) -> torch.Tensor:
    """Per-member training loss (S,) of outputs (S, B, ...), as :func:`~petheory.nn.evaluation.loss_fn` per member.

    Parameters
    ----------
    kind : str
        The task's kind.
    out : torch.Tensor
        The members' outputs, shape (S, B, ...).
    b : Split
        The members' batches, stacked: ``y`` (S, B, ...) (and ``mask`` for an LM).

    Returns
    -------
    torch.Tensor, shape (S,)
        Each member's loss.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.task_core import Split
    >>> out = torch.zeros(2, 3, 4, 1)
    >>> member_losses("regression", out, Split(None, torch.stack([torch.zeros(3, 4), torch.ones(3, 4)]))).tolist()
    [0.0, 1.0]
    """
    import torch.nn.functional as F

    out = out.float()
    if kind == "regression":
        return ((out[..., 0] - b.y) ** 2).flatten(1).mean(1)
    if kind == "classification":
        S, Bn = b.y.shape
        return F.cross_entropy(out.flatten(0, 1), b.y.flatten(), reduction="none").view(S, Bn).mean(1)
    ce = F.cross_entropy(out.flatten(0, 1).transpose(1, 2), b.y.flatten(0, 1), reduction="none").view(b.y.shape)
    return (ce * b.mask).flatten(1).sum(1) / b.mask.flatten(1).sum(1).clamp_min(1.0)
