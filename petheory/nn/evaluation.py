r"""A model on a task's batches: the batch, the loss training minimises and its step, the metrics records report.

Both loops go batch by batch through the same plumbing: a batch trimmed of trailing padding (:func:`trim_padding`)
and moved to the device (:func:`split_to`), a forward pass under :func:`autocast`. Training takes
:func:`train_batch` and one optimiser step on :func:`loss_fn` (:func:`train_step`, what
:func:`petheory.nn.training.train` and the benchmarks run); evaluation sums metrics.

Metrics per task kind (:mod:`petheory.nn.tasks`): regression ``mse``; classification ``loss``, ``acc``; LM
``loss``, ``token_acc``, ``seq_acc``. A split is summed batch by batch (:func:`batch_sums`, float64 running
totals by :func:`add_sums`) and divided once (:func:`finish_sums`), so every evaluator (:func:`evaluate`, the head
ablation of :mod:`petheory.nn.ablation`, the grid of :mod:`petheory.experiments.grid`) gives the same numbers
for the same batches.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from petheory.nn import tasks as _tasks
from petheory.nn.transformer import Transformer


def trim_padding(split: _tasks.Split) -> _tasks.Split:
    """Drop trailing all-padding columns of an LM batch (causal: they cannot affect the rest).

    Parameters
    ----------
    split : Split
        A batch (no mask: returned as it is).

    Returns
    -------
    Split
        The batch without the columns no row's mask covers.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn.task_core import Split
    >>> b = Split(torch.tensor([[1, 2, 0, 0]]), torch.tensor([[2, 3, 0, 0]]), torch.tensor([[1.0, 1.0, 0.0, 0.0]]))
    >>> tuple(trim_padding(b).x.shape)
    (1, 2)
    """
    if split.mask is None:
        return split
    cols = torch.nonzero(split.mask.any(0)).flatten()
    last = int(cols[-1]) + 1 if len(cols) else 1
    return _tasks.Split(split.x[:, :last], split.y[:, :last], split.mask[:, :last])

def loss_fn(kind: str, out: torch.Tensor, b: _tasks.Split) -> torch.Tensor:
    """Training loss of one batch: MSE (regression), cross-entropy (classes; an LM's answer tokens).

    Parameters
    ----------
    kind : str
        The task's kind.
    out : torch.Tensor
        The model's output on the batch.
    b : Split
        The batch.

    Returns
    -------
    torch.Tensor
        The loss, a scalar.

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
    >>> b = data.test[50]
    >>> float(loss_fn(data.kind, model(b.x).detach(), b)) > 0
    True
    """
    out = out.float()
    if kind == "regression":
        return F.mse_loss(out[..., 0], b.y)
    if kind == "classification":
        return F.cross_entropy(out, b.y)
    ce = F.cross_entropy(out.transpose(1, 2), b.y, reduction="none")  # (B, T)
    return (ce * b.mask).sum() / b.mask.sum().clamp_min(1.0)

def batch_sums(kind: str, out: torch.Tensor, b: _tasks.Split) -> dict:
    """Per-model metric sums over one batch: ``out`` (S, B, ...) for S models, ``b`` (B, ...) shared.

    Parameters
    ----------
    kind : str
        The task's kind.
    out : torch.Tensor
        The S models' outputs, stacked.
    b : Split
        The batch.

    Returns
    -------
    dict
        Sum name -> tensor of shape (S,); :func:`finish_sums` turns the sums over a split into metrics.

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
    >>> b = data.test[50]
    >>> {k: tuple(v.shape) for k, v in batch_sums(data.kind, model(b.x)[None].detach(), b).items()}
    {'sq': (1,)}
    """
    if kind == "regression":
        return {"sq": ((out[..., 0] - b.y) ** 2).mean(-1).sum(-1)}
    if kind == "classification":
        S, B = out.shape[:2]
        ce = F.cross_entropy(out.flatten(0, 1), b.y.repeat(S), reduction="none").view(S, B)
        return {"loss": ce.sum(1), "right": (out.argmax(-1) == b.y).sum(1).float()}
    S = out.shape[0]
    ce = F.cross_entropy(out.flatten(0, 1).transpose(1, 2), b.y.repeat(S, 1), reduction="none").view(S, *b.y.shape)
    ok = (out.argmax(-1) == b.y).float() * b.mask
    return {"loss": (ce * b.mask).flatten(1).sum(1), "tok": b.mask.sum().expand(S), "tok_right": ok.flatten(1).sum(1),
            "seq_right": (ok.sum(-1) == b.mask.sum(-1)).float().sum(-1)}

def finish_sums(kind: str, sums: dict, n: int) -> dict:
    """Metrics of one model from its :func:`batch_sums` totals (floats) over ``n`` samples.

    Parameters
    ----------
    kind : str
        The task's kind.
    sums : dict
        Totals of one model.
    n : int
        Samples.

    Returns
    -------
    dict
        ``mse`` (regression); ``loss``, ``acc`` (classification); ``loss``, ``token_acc``, ``seq_acc`` (LM).

    Examples
    --------
    >>> finish_sums("classification", {"loss": 2.0, "right": 3.0}, 4)
    {'loss': 0.5, 'acc': 0.75}
    """
    n = max(n, 1)
    if kind == "regression":
        return {"mse": float(sums["sq"]) / n}
    if kind == "classification":
        return {"loss": float(sums["loss"]) / n, "acc": float(sums["right"]) / n}
    t = max(float(sums["tok"]), 1.0)
    return {"loss": float(sums["loss"]) / t, "token_acc": float(sums["tok_right"]) / t, "seq_acc": float(sums["seq_right"]) / n}

@torch.inference_mode()
def evaluate(model: Transformer, split: _tasks.Split, kind: str, *, batch_size: int = 256,
             device=None, amp: bool = False) -> dict:
    """Metrics of ``model`` on ``split`` (eval mode; sums over batches, then one division).

    Parameters
    ----------
    model : Transformer
        The model (its training mode is restored).
    split : Split
        The data.
    kind : str
        The task's kind.
    batch_size : int, optional
        Samples per forward pass.
    device : str or torch.device, optional
        Where to run (default: the model's).
    amp : bool, optional
        bf16 autocast on CUDA.

    Returns
    -------
    dict
        The metrics (:func:`finish_sums`).

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
    >>> list(evaluate(model, data.test[50], data.kind))
    ['mse']
    """
    device = device or next(model.parameters()).device
    was = model.training
    model.eval()
    tot = None
    for a in range(0, len(split), batch_size):
        b = split_to(trim_padding(split.batch(slice(a, a + batch_size))), device)
        with autocast(device, amp):
            out = model(b.x)
        tot = add_sums(tot, batch_sums(kind, out.float()[None], b))
    model.train(was)
    return metrics_of(kind, tot, len(split))

def add_sums(tot: dict | None, sums: dict) -> dict:
    """Running float64 totals of :func:`batch_sums`.

    Parameters
    ----------
    tot : dict or None
        The totals so far (None: none yet).
    sums : dict
        One batch's sums.

    Returns
    -------
    dict
        The new totals.

    Examples
    --------
    >>> import torch
    >>> t = add_sums(None, {"sq": torch.tensor([1.0])})
    >>> add_sums(t, {"sq": torch.tensor([2.0])})["sq"].tolist()
    [3.0]
    """
    sums = {k: v.double() for k, v in sums.items()}
    return sums if tot is None else {k: tot[k] + sums[k] for k in tot}

def metrics_of(kind: str, tot: dict | None, n: int, i: int = 0) -> dict:
    """:func:`finish_sums` of model ``i`` of the totals ``tot`` over ``n`` samples.

    Parameters
    ----------
    kind : str
        The task's kind.
    tot : dict or None
        The totals (None: no samples).
    n : int
        Samples.
    i : int, optional
        Which model of a stacked ensemble.

    Returns
    -------
    dict
        Its metrics.

    Examples
    --------
    >>> import torch
    >>> metrics_of("regression", {"sq": torch.tensor([2.0, 4.0])}, 4, i=1), metrics_of("regression", None, 0)
    ({'mse': 1.0}, {'mse': 0.0})
    """
    if tot is None:
        return finish_sums(kind, dict.fromkeys(("sq", "loss", "right", "tok", "tok_right", "seq_right"), 0.0), 0)
    return finish_sums(kind, {k: v[i] for k, v in tot.items()}, n)

def split_to(b: _tasks.Split, device) -> _tasks.Split:
    """The split with its tensors on ``device``.

    Parameters
    ----------
    b : Split
        A split.
    device : str or torch.device
        Where to.

    Returns
    -------
    Split
        The moved split.

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
    >>> split_to(data.test[50], "cpu").x.device.type
    'cpu'
    """
    return _tasks.Split(b.x.to(device), b.y.to(device), None if b.mask is None else b.mask.to(device))

def autocast(device, amp: bool, cache: bool = True):
    """bf16 autocast on CUDA when ``amp`` (a no-op elsewhere).

    Parameters
    ----------
    device : str or torch.device
        The device the forward runs on.
    amp : bool
        Whether to autocast.
    cache : bool, optional
        Autocast's weight cache (off inside CUDA graph capture).

    Returns
    -------
    torch.autocast
        The context manager.

    Examples
    --------
    >>> with autocast("cpu", amp=True):  # nothing changes on the CPU
    ...     pass
    """
    device = torch.device(device)
    return torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bool(amp) and device.type == "cuda",
                          cache_enabled=cache)

def train_batch(split: _tasks.Split, idx: torch.Tensor, device) -> _tasks.Split:
    """The training batch ``split[idx]``, trailing padding trimmed (:func:`trim_padding`), on ``device``.

    Parameters
    ----------
    split : Split
        The training split.
    idx : torch.Tensor
        Row indices.
    device : str or torch.device
        Where the batch goes.

    Returns
    -------
    Split
        The batch.

    Examples
    --------
    >>> import torch
    >>> from petheory.nn import tasks
    >>> from petheory.nn.task_core import TaskConfig
    >>> data = tasks.load(TaskConfig("running_sum", 0, {"n_train": 8, "n_test": 4}))
    >>> tuple(train_batch(data.train, torch.arange(4), "cpu").x.shape)
    (4, 50, 1)
    """
    return split_to(trim_padding(split.batch(idx)), device)

def train_step(model: Transformer, opt, b: _tasks.Split, kind: str, *, device, amp: bool, grad_clip: float = 0.0,
               sched=None, where: str = "") -> torch.Tensor:
    """One optimiser step of :func:`petheory.nn.training.train` on the batch ``b`` (on ``device``); returns the loss.

    Forward under :func:`autocast`, :func:`loss_fn`, backward, gradient clipping to ``grad_clip`` (0: none), the
    optimiser step and, with ``sched``, the scheduler step. The benchmarks time this same function.

    Parameters
    ----------
    model : Transformer
        The model being trained.
    opt : torch.optim.Optimizer
        Its optimiser.
    b : Split
        The batch, on ``device`` (:func:`train_batch`).
    kind : str
        The task's kind.
    device : torch.device
        Where it runs.
    amp : bool
        bf16 autocast on CUDA.
    grad_clip : float, optional
        Gradient-norm clipping (0: none).
    sched : torch.optim.lr_scheduler.LRScheduler, optional
        Stepped after the optimiser.
    where : str, optional
        The epoch and step, for the message of a non-finite loss.

    Returns
    -------
    torch.Tensor
        The batch's loss (before the step).

    Raises
    ------
    FloatingPointError
        The loss is not finite.

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
    >>> opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    >>> b = train_batch(data.train, torch.arange(4), "cpu")
    >>> float(train_step(model, opt, b, data.kind, device=torch.device("cpu"), amp=False).detach()) > 0
    True
    """
    with autocast(device, amp):
        out = model(b.x)
    loss = loss_fn(kind, out, b)
    if not torch.isfinite(loss):
        raise FloatingPointError(f"loss became {float(loss)}" + (f" at {where}" if where else "") + "; lower lr")
    opt.zero_grad(set_to_none=True)
    loss.backward()
    if grad_clip:
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    opt.step()
    if sched is not None:
        sched.step()
    return loss

def test_split(data: _tasks.TaskData) -> _tasks.Split:
    """The test split at the training length (the one the history and ablation use).

    Parameters
    ----------
    data : TaskData
        A task's data.

    Returns
    -------
    Split
        ``data.test[data.train_len]``, else the first test split.

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
    >>> tuple(test_split(data).x.shape)
    (4, 50, 1)
    """
    return data.test[data.train_len] if data.train_len in data.test else next(iter(data.test.values()))
